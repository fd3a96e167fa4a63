"""The LGCP engine (core.fields SPDE prior, core.lgcp model, simulation and fast posterior)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core import fields
from spatial_privacy.core.covariates import distance_to_points
from spatial_privacy.core.laplace_fit import fit_laplace
from spatial_privacy.core.lgcp import LGCPDesign, LGCPModel, simulate_points
from spatial_privacy.core.linalg import BandedCholesky
from spatial_privacy.core.posterior import Posterior
from spatial_privacy.core.quadrature import quadrature
from spatial_privacy.core.triangulation import lattice, triangulate
from spatial_privacy.core.window import Window

from .conftest import DATA, read_gpkg_points  # noqa: F401  (pytest's importlib mode resolves the package)

ALPHA = 1e-3


def design_for(mesh, window, x, y, covariate, scheme="midpoint"):
    """Intercept + one covariate (a function of coordinates), no offset."""
    quad = quadrature(mesh, window, scheme)
    xp = np.column_stack([np.ones(x.size), covariate(x, y)])
    xq = np.column_stack([np.ones(quad.x.size), covariate(quad.x, quad.y)])
    return LGCPDesign(
        mesh.projection(x, y),
        xp,
        np.zeros(x.size),
        quad.proj,
        quad.weights,
        xq,
        np.zeros(quad.x.size),
        ("intercept", "covariate"),
    )


# -- the SPDE prior -------------------------------------------------------------------------------


def test_spde_prior_approximates_the_matern_field():
    # A mesh with edges rho/8 over a square much larger than the range: away from the boundary the FEM
    # field's marginal variance and correlation at distance rho approach the Matérn values (Lindgren et
    # al. 2011 report discretisation errors of a few per cent at this resolution; we allow 15%).
    rho, sigma = 8.0, 1.5
    mesh = triangulate(Window.rectangle(0, 0, 48, 48), rho / 8, extension=0.0)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    factor = BandedCholesky.factor(spde.precision(rho, sigma), spde.ordering())
    centre = int(np.argmin(np.hypot(*(mesh.nodes - 24.0).T)))
    column = factor.solve(np.eye(mesh.n_nodes)[:, centre])
    assert column[centre] == pytest.approx(sigma**2, rel=0.15)
    dist = np.hypot(*(mesh.nodes - mesh.nodes[centre]).T)
    ring = np.abs(dist - rho) < rho / 16
    corr = column[ring] / column[centre]
    assert np.mean(corr) == pytest.approx(float(fields.matern(np.array([rho]), 1.0, rho)[0]), abs=0.04)


def test_spde_log_determinant_matches_dense():
    mesh = lattice(0, 0, 5, 4, 7, 6)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    q = spde.precision(2.5, 0.7).toarray()
    assert spde.logdet_precision(2.5, 0.7) == pytest.approx(np.linalg.slogdet(q)[1], rel=1e-10)


def test_prior_draws_have_the_prior_covariance():
    mesh = lattice(0, 0, 4, 4, 5, 5)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    draws = spde.sample(2.0, 1.3, np.random.default_rng(4), size=20_000)
    cov = np.linalg.inv(spde.precision(2.0, 1.3).toarray())
    assert np.allclose(draws.var(axis=0), np.diag(cov), rtol=5 * math.sqrt(2 / 20_000))


# -- exact simulation ------------------------------------------------------------------------------


def test_simulated_points_follow_the_log_linear_intensity():
    # log lambda = a + b x on [0, 10]^2 (exactly piecewise linear on any mesh): the count is Poisson with
    # mean int lambda, and the x-coordinates have density proportional to exp(b x).
    window = Window.rectangle(0, 0, 10, 10)
    mesh = triangulate(window, 1.0)
    a, b = 1.0, 0.3
    eta = a + b * mesh.nodes[:, 0]
    rng = np.random.default_rng(8)
    runs = [simulate_points(mesh, window, eta, rng) for _ in range(40)]
    expected = math.exp(a) * 10 * (math.exp(10 * b) - 1) / b
    counts = np.array([len(x) for x, _ in runs])
    assert abs(counts.mean() - expected) < 4 * math.sqrt(expected / len(runs))
    xs = np.concatenate([x for x, _ in runs])
    ys = np.concatenate([y for _, y in runs])
    assert window.contains(xs, ys).all()
    cdf = lambda v: (np.exp(b * v) - 1) / (math.exp(10 * b) - 1)  # noqa: E731
    assert stats.kstest(xs, cdf).pvalue > ALPHA
    assert stats.kstest(ys, stats.uniform(0, 10).cdf).pvalue > ALPHA


# -- the fast posterior ----------------------------------------------------------------------------


L_WINDOW = Window.from_polygons([([(0, 0), (12, 0), (12, 5), (6, 5), (6, 10), (0, 10)], [])])
TRUTH = {"intercept": 1.2, "covariate": 0.25, "range": 3.0, "variance": 0.6}


def simulate_and_fit(seed: int, draws: int = 500):
    rng = np.random.default_rng(seed)
    mesh = triangulate(L_WINDOW, 0.5)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    w = spde.sample(TRUTH["range"], math.sqrt(TRUTH["variance"]), rng)[0]
    covariate = lambda x, y: (x - 6.0) / 3.0  # noqa: E731
    eta = TRUTH["intercept"] + TRUTH["covariate"] * covariate(mesh.nodes[:, 0], mesh.nodes[:, 1]) + w
    x, y = simulate_points(mesh, L_WINDOW, eta, rng)
    design = design_for(mesh, L_WINDOW, x, y, covariate)
    model = LGCPModel(design, spde, fields.LogNormalFieldPrior(range0=4.0, sigma0=1.0), mesh=mesh)
    return fit_laplace(model, rng, draws=draws), len(x), model


def test_simulation_recovery_intervals_cover_the_truth():
    # Eight data sets from a known LGCP on an L-shaped window. If the 95% intervals are calibrated, each
    # parameter is covered in Binomial(8, 0.95) data sets; P(at most 5 of 8) = 0.006, so >= 6 is required.
    covered = {name: 0 for name in TRUTH}
    for seed in range(8):
        posterior, n_points, _ = simulate_and_fit(100 + seed)
        assert 100 < n_points < 2000
        for name, _, _, lower, upper in posterior.summary():
            covered[name] += lower <= TRUTH[name] <= upper
    assert all(count >= 6 for count in covered.values()), covered


def test_posterior_draws_integrate_to_about_the_number_of_points_and_round_trip(
    tmp_path, integrates_to_about_n, monkeypatch
):
    posterior, n_points, model = simulate_and_fit(7, draws=400)
    integrates_to_about_n(posterior, model.beta_prior, n_points)  # the intercept's score identity (tests/conftest.py)
    path = tmp_path / "model.npz"
    posterior.save(str(path))
    again = Posterior.load(str(path))
    assert again.names == posterior.names and again.method == "laplace"
    assert np.array_equal(again.w, posterior.w) and np.array_equal(again.triangles, posterior.triangles)
    assert again.summary() == posterior.summary()
    # a copy of the file says what it holds to anyone who lists the zip
    import zipfile

    assert "CONFIDENTIAL_not_for_publication.npy" in zipfile.ZipFile(path).namelist()
    # a save that fails half-way (a full disk: here the writer raises half-way through the draws of the field,
    # after the members before them) leaves the previous model intact and no partial file behind
    good = path.read_bytes()
    write_array = np.lib.format.write_array

    def full_disk(handle, array, **options):
        if array.shape == posterior.w.shape:
            handle.write(b"half of the draws")
            raise OSError(28, "No space left on device")
        write_array(handle, array, **options)

    monkeypatch.setattr(np.lib.format, "write_array", full_disk)
    with pytest.raises(OSError, match="No space"):
        posterior.save(str(path))
    assert path.read_bytes() == good and sorted(p.name for p in tmp_path.iterdir()) == ["model.npz"]


def test_john_snow_distance_to_the_broad_street_pump_lowers_the_intensity():
    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    px, py, labels = read_gpkg_points(DATA / "snow_cholera.gpkg", "pumps", "pump")
    pump7 = labels == 7
    window = Window.around_points(x, y, margin=0.05)
    mesh = triangulate(window, max(window.bounds[2] - window.bounds[0], window.bounds[3] - window.bounds[1]) / 40)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    distance = lambda u, v: distance_to_points(u, v, px[pump7], py[pump7])  # noqa: E731
    design = design_for(mesh, window, x, y, distance)
    model = LGCPModel(design, spde, fields.LogNormalFieldPrior(range0=3.0, sigma0=1.0), mesh=mesh)
    posterior = fit_laplace(model, np.random.default_rng(1854), draws=1000)
    rows = {row[0]: row for row in posterior.summary()}
    assert rows["covariate"][4] < 0  # the whole 95% interval of the distance coefficient is negative


def test_a_spike_at_one_node_fools_the_edge_midpoints_but_not_the_node_check():
    # +a at one node and -a at its neighbours: every edge midpoint around the node sees (a - a) / 2 = 0, so the
    # midpoints' integral is at most area(window), while the node check (degree-3 rule, weight A/20 at each
    # vertex) sees e^a at the node: the ratio is at least e^a (A_min / 20) / area(window). A smooth field (all
    # zeros) gives a ratio of exactly 1.
    from spatial_privacy.core.lgcp import SPIKE_LIMIT
    from spatial_privacy.core.lgcp_setup import build_lgcp

    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    setup = build_lgcp(x[:50], y[:50])
    model, mesh = setup.model, setup.mesh
    beta = np.zeros(model.design.n_coef)
    assert model.spike_ratio(np.zeros(model.design.n_nodes), beta) == pytest.approx(1.0, rel=1e-9)
    inside = np.flatnonzero(setup.window.contains(*mesh.nodes.T))
    node = inside[inside.size // 2]
    edges = mesh.edges
    neighbours = np.unique(edges[(edges == node).any(axis=1)])
    w = np.zeros(model.design.n_nodes)
    w[neighbours] = -30.0
    w[node] = 30.0
    ratio = model.spike_ratio(w, beta)
    assert ratio > math.exp(30) / 20 * mesh.triangle_areas.min() / setup.window.area
    assert ratio > SPIKE_LIMIT and model.is_spiky(w, beta)


def test_a_vague_prior_on_the_field_sd_still_finds_a_sound_mode_unless_the_posterior_leans_into_spikes():
    # 12 points with a prior median of 500 for the field's sd: the posterior mode is sound (the nodes hold 1.14
    # times what the edge midpoints see) but close to fields whose spikes at single nodes fool the midpoints. The
    # search must find it as an interior mode of the posterior itself (gradient ~0, positive-definite Hessian of
    # the posterior, not of the barrier): an earlier flat penalty stalled BFGS ("not peaked"), and a Hessian taken
    # with the barrier's kink was indefinite here
    from spatial_privacy.core.errors import ParameterError
    from spatial_privacy.core.laplace_fit import BARRIER_START, HyperparameterSearch, _central_gradient
    from spatial_privacy.core.lgcp_setup import build_lgcp

    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    model = build_lgcp(x[:12], y[:12], prior_sigma=500.0).model
    search = HyperparameterSearch(model)
    mode, hess = search.mode_and_hessian()
    assert 1.05 < search.spike_ratio(mode) < BARRIER_START  # near the wall, not on it
    assert np.linalg.norm(_central_gradient(lambda t: -search.log_marginal(t), mode, 1e-4)) < 0.01
    assert np.all(np.linalg.eigvalsh(hess) > 0)
    # a prior median of 1e6 (log-sd 1) pulls the posterior into the fooled region: the posterior's own mode lies
    # where the nodes hold far more than SPIKE_LIMIT times what the midpoints see, so the fit must refuse, naming
    # the integration rule, rather than report the point where the barrier stopped it
    with pytest.raises(ParameterError, match="spikes at single mesh nodes") as info:
        fit_laplace(build_lgcp(x[:12], y[:12], prior_sigma=1e6).model, np.random.default_rng(1), draws=100)
    assert info.value.parameter == "integration"


def test_midpoint_rules_get_the_node_check_and_rules_with_the_nodes_do_not():
    from spatial_privacy.core.lgcp_setup import build_knot_lgcp, build_lgcp

    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    window = Window.around_points(x[:30], y[:30], margin=0.05)
    assert build_lgcp(x[:30], y[:30], window=window).model.node_check is not None
    assert build_lgcp(x[:30], y[:30], window=window, scheme="cubic").model.node_check is None
    assert build_knot_lgcp(x[:30], y[:30], window, scheme="midpoint").model.node_check is not None
    assert build_knot_lgcp(x[:30], y[:30], window).model.node_check is None  # vertex: the nodes themselves


def test_grid_cells_where_the_laplace_fit_fails_are_left_out(integrates_to_about_n):
    # 12 deaths: the data say little, so the grid reaches log sigma >= 3, where spikes at single mesh nodes fool
    # the edge midpoints (core.lgcp.NodeCheck) and the "log marginal" lies up to 1e5 above the mode. Those cells
    # must be rejected, not given all the mass (they gave a field variance of ~5e11 and an intercept of -148).
    # With so few points the posterior of the variance stays within the prior's range: the lognormal prior
    # (sigma0 = 1, sd 1 on log sigma) puts 99.9% of sigma^2 below exp(2 * 3.09) = 483.
    from spatial_privacy.core.lgcp_setup import build_lgcp

    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    setup = build_lgcp(x[:12], y[:12])
    posterior = fit_laplace(setup.model, np.random.default_rng(1), draws=400)
    assert posterior.diagnostics["grid_points_rejected"] > 0
    variance = posterior.sigma**2
    assert np.quantile(variance, 0.975) < math.exp(2 * stats.norm.ppf(0.999))
    # and E[int lambda | S] is close to N = 12 (as for the simulated fits above)
    integrates_to_about_n(posterior, setup.model.beta_prior, 12)


def test_isolated_points_flag_a_far_geocoding_error_but_not_uniform_or_clustered_patterns():
    """lgcp_setup.isolated: a uniform pattern has no point beyond about twice the median distance from its
    centre, so it is never flagged (300 patterns each of 10, 15 and 200 points); nor are three clusters with
    sporadic cases spread over the same area (one cluster far from two close ones is data, not error). One
    point 100 times the pattern's width away is flagged, and so are three geocoding failures stacked at one
    default location."""
    from spatial_privacy.core.lgcp_setup import isolated

    rng = np.random.default_rng(3)
    for n in (10, 15, 200):
        assert all(isolated(*rng.uniform(0, 1, (2, n))) == 0 for _ in range(300))
    for _ in range(300):
        centres = rng.uniform(0, 1, (3, 2))
        clusters = np.concatenate([c + rng.normal(0, 0.02, (100, 2)) for c in centres])
        points = np.concatenate([clusters, rng.uniform(0, 1, (5, 2))])
        assert isolated(points[:, 0], points[:, 1]) == 0
    x, y = rng.uniform(0, 1, (2, 50))
    assert isolated(np.append(x, 100.0), np.append(y, 100.0)) == 1
    assert isolated(np.append(x, [-50.0] * 3), np.append(y, [-50.0] * 3)) == 3
