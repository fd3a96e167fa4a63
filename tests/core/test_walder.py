"""Walder, Hanks & Slavković: synthesizers (core.synthesis.walder), CPO disclosure risk (core.metrics.risk)
and the model-based pMSE (core.metrics.pmse_lgcp), against closed forms and brute-force computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import integrate, stats
from scipy.special import expit, gammaln, logsumexp

from spatial_privacy.core import fields
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.lgcp_setup import Covariate
from spatial_privacy.core.metrics import cpo, risk
from spatial_privacy.core.metrics.disc_quadrature import disc_quadrature
from spatial_privacy.core.metrics.intensity_draws import IntensityDraws
from spatial_privacy.core.metrics.pmse_lgcp import pmse, pmse_from_draws
from spatial_privacy.core.posterior import Posterior
from spatial_privacy.core.quadrature import quadrature
from spatial_privacy.core.synthesis import walder
from spatial_privacy.core.triangulation import lattice, triangulate
from spatial_privacy.core.window import Window

ALPHA = 1e-3


# -- helpers --------------------------------------------------------------------------------------


def chi_square_pvalue(counts: np.ndarray, probs: np.ndarray) -> float:
    """Pearson chi-square goodness of fit over cells (cells with expected count < 5 are pooled)."""
    expected = probs / probs.sum() * counts.sum()
    small = expected < 5
    obs = np.append(counts[~small], counts[small].sum())
    exp = np.append(expected[~small], expected[small].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    return float(stats.chisquare(obs, exp).pvalue)


def cell_probabilities(mesh, window, eta_nodes, edges_x, edges_y, fine: int = 40):
    """Integral of exp(eta) (eta linear on the mesh) over each grid cell ∩ window, by the midpoint rule on
    ``fine x fine`` sub-cells of every cell: an independent reference for the samplers."""
    nx, ny = edges_x.size - 1, edges_y.size - 1
    sx = np.linspace(edges_x[0], edges_x[-1], nx * fine + 1)
    sy = np.linspace(edges_y[0], edges_y[-1], ny * fine + 1)
    mx, my = np.meshgrid(0.5 * (sx[1:] + sx[:-1]), 0.5 * (sy[1:] + sy[:-1]))
    inside = window.contains(mx.ravel(), my.ravel())
    values = np.zeros(mx.size)
    values[inside] = np.exp(mesh.projection(mx.ravel()[inside], my.ravel()[inside]) @ eta_nodes)
    return values.reshape(ny, fine, nx, fine).sum(axis=(1, 3)).ravel()


def grid_counts(x, y, edges_x, edges_y):
    counts, _, _ = np.histogram2d(y, x, bins=[edges_y, edges_x])
    return counts.ravel()


def fake_posterior(mesh, rng, draws=50, names=("intercept",), x_nodes=None):
    """A Posterior with given draws on a mesh whose integration points are its nodes (vertex scheme)."""
    n = mesh.n_nodes
    p = len(names)
    x_int = np.ones((n, 1)) if x_nodes is None else x_nodes
    return Posterior(
        method="test",
        names=names,
        beta=rng.normal(0.5, 0.2, (draws, p)),
        w=rng.normal(0.0, 0.5, (draws, n)),
        log_range=np.log(rng.uniform(1.0, 3.0, draws)),
        log_sigma=np.log(rng.uniform(0.5, 1.5, draws)),
        nodes=np.asarray(mesh.nodes),
        triangles=np.asarray(mesh.triangles),
        int_proj=sp.identity(n, format="csr"),
        int_weights=np.asarray(mesh.fem_matrices()[0]),
        x_int=x_int,
        offset_int=np.zeros(n),
    )


# -- radial perturbation ---------------------------------------------------------------------------


def test_radial_perturbation_is_uniform_on_the_disc():
    rng = np.random.default_rng(1)
    x, y = np.zeros(20_000), np.ones(20_000)
    xs, ys = walder.radial(x, y, 2.0, rng)
    d2 = ((xs - x) ** 2 + (ys - y) ** 2) / 4.0  # uniform on the disc: (d / r)^2 ~ U(0, 1), angle ~ U(0, 2 pi)
    angle = np.mod(np.arctan2(ys - y, xs - x), 2 * math.pi)
    assert stats.kstest(d2, "uniform").pvalue > ALPHA
    assert stats.kstest(angle, stats.uniform(0, 2 * math.pi).cdf).pvalue > ALPHA


def test_radial_points_are_on_a_lattice_strictly_within_the_radius_and_carry_no_low_bits():
    """Released on the lattice of step r / DISC_STEPS: every coordinate is a lattice point, every point lies
    strictly within r of its true location, and true locations that differ by less than half a step (their low
    bits) give the same release from the same seed: a published coordinate says nothing of them. Moving a point
    by whole lattice steps moves its release by exactly those steps."""
    from spatial_privacy.core import mechanisms

    r = 50.0
    step = r / mechanisms.DISC_STEPS
    x = np.random.default_rng(4).uniform(120_000, 125_000, 5000)  # map coordinates in metres
    y = np.random.default_rng(5).uniform(480_000, 485_000, 5000)
    xs, ys = walder.radial(x, y, r, np.random.default_rng(6))
    assert np.array_equal(np.rint(xs / step) * step, xs) and np.array_equal(np.rint(ys / step) * step, ys)
    assert np.all(np.hypot(xs - x, ys - y) < r)
    base_x, base_y = np.rint(x / step) * step, np.rint(y / step) * step
    low = walder.radial(base_x + 0.3 * step, base_y - 0.4 * step, r, np.random.default_rng(6))
    assert np.array_equal(low[0], xs) and np.array_equal(low[1], ys)
    shifted = walder.radial(base_x + 7 * step, base_y, r, np.random.default_rng(6))
    assert np.array_equal(np.rint(shifted[0] / step) - np.rint(xs / step), np.full(x.size, 7.0))
    with pytest.raises(ParameterError, match="too small for coordinates as large as") as info:
        walder.radial(np.array([1e12]), np.array([0.0]), 1e-3, np.random.default_rng(1))
    assert info.value.parameter == "radius"


def test_radial_perturbation_leaves_the_window_unless_kept_inside():
    window = Window.rectangle(0, 0, 10, 10)
    rng = np.random.default_rng(2)
    x, y = rng.uniform(0, 10, 2000), rng.uniform(0, 10, 2000)
    xs, ys = walder.radial(x, y, 1.5, rng)
    assert not window.contains(xs, ys).all()  # the paper does not clip
    xs, ys = walder.radial(x, y, 1.5, rng, window=window, keep_inside=True)
    assert window.contains(xs, ys).all() and np.all(np.hypot(xs - x, ys - y) <= 1.5)


def test_a_radius_too_large_for_the_window_names_the_radius():
    # kept inside a 10 x 10 window, a point moved uniformly on a disc of radius 1000 stays inside with probability
    # about 100 / (pi 1000^2) = 3e-5 per draw: 20 rounds must fail and say why, naming the radius
    window = Window.rectangle(0, 0, 10, 10)
    with pytest.raises(ParameterError, match="much larger than the window") as info:
        walder.radial(np.full(50, 5.0), np.full(50, 5.0), 1000.0, np.random.default_rng(3), window, True, 20)
    assert info.value.parameter == "radius"


# -- ANS and PRS fields -----------------------------------------------------------------------------


def unit_precision_inverse_diagonal(spde, kappa2):
    """diag of the paper's Q_kappa^-1 = L^-1 C L^-1, L = kappa^2 C + G, built from C and G directly."""
    lap = (sp.diags(kappa2 * spde.c) + spde.g).toarray()
    inv = np.linalg.inv(lap)
    return np.diag(inv @ np.diag(spde.c) @ inv)


def test_ans_noise_has_the_stated_covariance():
    mesh = lattice(0, 0, 6, 6, 8, 8)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    posterior = fake_posterior(mesh, np.random.default_rng(3))
    kappa2 = float(np.mean(8.0 / np.exp(2 * posterior.log_range)))
    assert walder.posterior_kappa2(posterior) == pytest.approx(kappa2, rel=1e-12)
    sigma2 = 2.5
    field = walder.ans_weights(posterior, spde, sigma2, np.random.default_rng(11))
    same = walder.spde_noise(spde, kappa2, sigma2, np.random.default_rng(11))[0]
    assert np.allclose(field.noise, same) and np.allclose(field.w, posterior.w.mean(axis=0) + same)
    # many draws of v ~ N(0, sigma^2 Q^-1): (K - 1) s^2 / var ~ chi^2_{K-1} at every node (Bonferroni)
    count = 4000
    v = walder.spde_noise(spde, kappa2, sigma2, np.random.default_rng(12), size=count)
    target = sigma2 * unit_precision_inverse_diagonal(spde, kappa2)
    statistic = (count - 1) * v.var(axis=0, ddof=1) / target
    level = ALPHA / mesh.n_nodes
    assert np.all(statistic > stats.chi2.ppf(level / 2, count - 1))
    assert np.all(statistic < stats.chi2.ppf(1 - level / 2, count - 1))
    assert field.noise_marginal_variance == pytest.approx(sigma2 / (4 * math.pi * kappa2))
    assert walder.noise_variance_for_marginal(field.noise_marginal_variance, kappa2) == pytest.approx(sigma2)


def test_prs_field_has_the_posterior_mean_variance_parameter():
    mesh = lattice(0, 0, 6, 6, 8, 8)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    posterior = fake_posterior(mesh, np.random.default_rng(4))
    kappa2 = 8.0 / np.exp(2 * posterior.log_range)
    xi2 = float(np.mean(4 * math.pi * kappa2 * np.exp(2 * posterior.log_sigma)))
    field = walder.prs_weights(posterior, spde, np.random.default_rng(5))
    assert field.xi2 == pytest.approx(xi2, rel=1e-12) and field.kappa2 == pytest.approx(kappa2.mean(), rel=1e-12)
    assert np.allclose(field.w, walder.spde_noise(spde, kappa2.mean(), xi2, np.random.default_rng(5))[0])
    assert np.allclose(field.beta, posterior.beta.mean(axis=0))
    v = walder.spde_noise(spde, kappa2.mean(), xi2, np.random.default_rng(6), size=4000)
    target = xi2 * unit_precision_inverse_diagonal(spde, kappa2.mean())
    statistic = 3999 * v.var(axis=0, ddof=1) / target
    level = ALPHA / mesh.n_nodes
    assert np.all((statistic > stats.chi2.ppf(level / 2, 3999)) & (statistic < stats.chi2.ppf(1 - level / 2, 3999)))


def test_ans_without_noise_is_the_plug_in_intensity():
    window = Window.rectangle(0, 0, 6, 6)
    mesh = lattice(-1, -1, 7, 7, 8, 8)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    cov = Covariate("x", lambda u, v: 0.3 * u - 0.1 * v)
    x_nodes = np.column_stack([np.ones(mesh.n_nodes), cov.values(mesh.nodes[:, 0], mesh.nodes[:, 1])])
    posterior = fake_posterior(mesh, np.random.default_rng(7), names=("intercept", "x"), x_nodes=x_nodes)
    rng = np.random.default_rng(8)
    state = rng.bit_generator.state
    field = walder.ans_weights(posterior, spde, 0.0, rng)
    assert rng.bit_generator.state == state  # no noise drawn
    beta, w = posterior.beta.mean(axis=0), posterior.w.mean(axis=0)
    assert np.array_equal(field.w, w) and not field.noise.any()
    px, py = np.random.default_rng(9).uniform(0, 6, (2, 50))
    plug_in = beta[0] + beta[1] * cov.values(px, py) + mesh.projection(px, py) @ w
    assert np.allclose(field.log_intensity(mesh, px, py, (cov,)), plug_in)
    nodes_f = walder.NodeCovariates.from_functions(mesh, window, (cov,))
    nodes_p = walder.NodeCovariates.from_posterior(posterior)  # vertex scheme: x_int holds x at the nodes
    assert np.allclose(nodes_f.x, x_nodes) and np.allclose(nodes_p.x, x_nodes)
    assert np.allclose(field.eta_nodes(nodes_f), x_nodes @ beta + w)


def test_node_covariates_need_the_functions_with_the_midpoint_scheme():
    window = Window.rectangle(0, 0, 6, 6)
    mesh = triangulate(window, 1.0)
    quad = quadrature(mesh, window, "midpoint")
    posterior = fake_posterior(mesh, np.random.default_rng(1))
    posterior.int_proj, posterior.x_int = quad.proj, np.ones((quad.x.size, 1))
    with pytest.raises(ValueError, match="midpoint"):
        walder.NodeCovariates.from_posterior(posterior)


def test_node_covariates_outside_a_raster_take_the_nearest_inside_value():
    window = Window.rectangle(0, 0, 4, 4)
    mesh = triangulate(window, 0.5)

    def raster(u, v):
        if np.any((u < 0) | (u > 4) | (v < 0) | (v > 4)):
            raise ValueError("outside the raster")
        return u + v

    nodes = walder.NodeCovariates.from_functions(mesh, window, (Covariate("r", raster),))
    inside = window.contains(mesh.nodes[:, 0], mesh.nodes[:, 1])
    assert np.allclose(nodes.x[inside, 1], mesh.nodes[inside].sum(axis=1))
    assert np.all(np.isfinite(nodes.x)) and nodes.x[~inside, 1].max() <= 8.0


# -- samplers -----------------------------------------------------------------------------------------


def test_exp_divided_difference_integrates_exp_over_a_triangle():
    # int over the unit right triangle of exp(e0 (1 - u - v) + e1 u + e2 v) = 2 * (1/2) * exp[e0, e1, e2]
    rng = np.random.default_rng(3)
    for spread in (0.0, 1e-7, 0.05, 0.0999, 0.1001, 1.0, 8.0):
        e = 2.0 + spread * rng.uniform(-1, 1, 3)

        def f(v, u, e=e):
            return math.exp(e[0] * (1 - u - v) + e[1] * u + e[2] * v)

        ref, _ = integrate.dblquad(f, 0, 1, 0, lambda u: 1 - u, epsabs=0, epsrel=1e-13)
        assert math.exp(walder.log_exp_divided_difference(e[None, :])[0]) == pytest.approx(ref, rel=1e-11)


CUT_WINDOW = Window.from_polygons([[(0.3, 0.2), (3.7, 0.5), (3.2, 3.8), (1.9, 2.1), (0.4, 3.5)]])


def rough_eta(mesh):
    x, y = mesh.nodes[:, 0], mesh.nodes[:, 1]
    return 1.5 * np.sin(1.7 * x) + 0.8 * y + 0.6 * np.cos(2.3 * x * y)


def test_exact_sampler_follows_the_intensity_on_a_window_that_cuts_triangles():
    mesh = lattice(0, 0, 4, 4, 9, 9)  # the non-convex window cuts many triangles
    eta = rough_eta(mesh)
    n = 20_000
    x, y = walder.sample_exact(mesh, CUT_WINDOW, eta, n, np.random.default_rng(5))
    assert x.size == n and CUT_WINDOW.contains(x, y).all()
    ex, ey = np.linspace(0, 4, 9), np.linspace(0, 4, 9)
    probs = cell_probabilities(mesh, CUT_WINDOW, eta, ex, ey)
    assert chi_square_pvalue(grid_counts(x, y, ex, ey), probs) > ALPHA
    # and the test has power: uniform points in the window fail it
    ux, uy = walder.sample_exact(mesh, CUT_WINDOW, np.zeros(mesh.n_nodes), n, np.random.default_rng(6))
    assert chi_square_pvalue(grid_counts(ux, uy, ex, ey), probs) < 1e-10


def test_candidate_sampler_gives_n_distinct_points_following_the_intensity():
    window = Window.rectangle(0, 0, 4, 4)
    mesh = lattice(0, 0, 4, 4, 9, 9)
    eta = rough_eta(mesh)
    n = 3000
    x, y = walder.sample_candidates(
        window, lambda u, v: mesh.projection(u, v) @ eta, n, np.random.default_rng(7), n_candidates=600_000
    )
    assert x.size == n and window.contains(x, y).all() and np.unique(np.column_stack([x, y]), axis=0).shape[0] == n
    ex, ey = np.linspace(0, 4, 7), np.linspace(0, 4, 7)
    probs = cell_probabilities(mesh, window, eta, ex, ey)
    assert chi_square_pvalue(grid_counts(x, y, ex, ey), probs) > ALPHA


# -- disc quadrature (Appendix A.4) -------------------------------------------------------------------


def test_midpoint_disc_quadrature_is_eq_37():
    m, r, xk, yk = 5, 2.0, 3.0, -1.0
    quad = disc_quadrature([xk], [yk], r, m)
    t = -1 + (2 * np.arange(m) + 1) / m  # centres of the m x m squares of [-1, 1]^2, A_xy = 4 / m^2
    ty, tx = np.meshgrid(t, t, indexing="ij")
    g = np.sqrt(r**2 - (r * ty) ** 2)
    assert np.allclose(np.sort(quad.x), np.sort((g * tx + xk).ravel()))
    assert np.allclose(np.sort(quad.y), np.sort((r * ty + yk).ravel()))
    assert np.allclose(np.sort(quad.weights), np.sort((r * g * 4 / m**2).ravel()))


def test_disc_quadrature_known_integrals():
    r, cx, cy = 1.5, 1.0, 2.0
    errors = []
    for m in (10, 20, 40, 80):
        q = disc_quadrature([cx], [cy], r, m)
        errors.append(q.integrate(np.ones(q.x.size))[0] / (math.pi * r * r) - 1)
        second = q.integrate((q.x - cx) ** 2 + (q.y - cy) ** 2)[0]
        assert second == pytest.approx(math.pi * r**4 / 2, rel=2.5 * m**-1.5)
    # the midpoint rule on rows with square-root ends converges like m^-1.5
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(np.abs(orders - 1.5) < 0.1), orders
    q = disc_quadrature([cx], [cy], r, 12, rule="gauss")
    assert q.integrate(np.ones(q.x.size))[0] == pytest.approx(math.pi * r * r, rel=1e-13)
    assert q.integrate((q.x - cx) ** 2 + (q.y - cy) ** 2)[0] == pytest.approx(math.pi * r**4 / 2, rel=1e-13)
    # an off-centre Gaussian bump against adaptive quadrature
    bump = lambda u, v: np.exp(-((u - 1.6) ** 2 + (v - 2.4) ** 2) / (2 * 0.4**2))  # noqa: E731
    ref, _ = integrate.dblquad(
        lambda v, u: bump(u, v),
        cx - r,
        cx + r,
        lambda u: cy - math.sqrt(max(r * r - (u - cx) ** 2, 0.0)),
        lambda u: cy + math.sqrt(max(r * r - (u - cx) ** 2, 0.0)),
        epsabs=0,
        epsrel=1e-11,
    )
    q = disc_quadrature([cx], [cy], r, 40, rule="gauss")
    assert q.integrate(bump(q.x, q.y))[0] == pytest.approx(ref, rel=1e-9)
    q = disc_quadrature([cx], [cy], r, 40)
    assert q.integrate(bump(q.x, q.y))[0] == pytest.approx(ref, rel=3e-3)


def test_disc_quadrature_cut_by_a_window_with_a_hole():
    import shapely.geometry as shapely_geometry  # a project dependency: must fail, not skip, if missing

    outer = [(0, 0), (10, 0), (10, 8), (0, 8)]
    hole = [(3, 3), (6, 3), (7, 5), (3, 6)]
    window = Window.from_polygons([(outer, [hole])])
    poly = shapely_geometry.Polygon(outer, [hole])
    centres = np.array([[0.0, 0.0], [4.5, 4.3], [2.8, 4.5], [9.5, 7.2], [6.0, 6.0], [5.0, 4.0]])
    r = np.array([1.3, 1.2, 1.3, 1.3, 1.3, 1.3])
    ref = np.array([poly.intersection(shapely_geometry.Point(c).buffer(s, 2048)).area for c, s in zip(centres, r)])
    q = disc_quadrature(centres[:, 0], centres[:, 1], r, 16, window=window, rule="gauss")
    got = q.integrate(np.ones(q.x.size))
    assert np.allclose(got, ref, rtol=1e-6, atol=1e-12)  # a quarter disc, nothing (in the hole), cut discs
    assert got[1] == 0.0 and got[0] == pytest.approx(math.pi * r[0] ** 2 / 4, rel=1e-12)
    # the paper's rule: a window edge along the rows makes the row integrals jump (by at most the chord,
    # 2r), which costs the midpoint rule up to half a row spacing (r / m) times the jump per such edge
    m = 80
    q = disc_quadrature(centres[:, 0], centres[:, 1], r, m, window=window)
    assert np.all(np.abs(q.integrate(np.ones(q.x.size)) - ref) <= 2 * (r / m) * (2 * r))


def lens_area(d, r1, r2):
    """Area of the intersection of two discs at distance d (closed form)."""
    a1 = r1 * r1 * math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
    a2 = r2 * r2 * math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
    return a1 + a2 - 0.5 * math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))


def test_disc_quadrature_of_two_intersecting_discs():
    q = disc_quadrature([5.0], [5.0], 1.0, 16, within=([5.7], [5.3], 1.2), rule="gauss")
    assert q.integrate(np.ones(q.x.size))[0] == pytest.approx(lens_area(math.hypot(0.7, 0.3), 1.0, 1.2), rel=1e-6)


# -- CPO (eqs. 7 and 9) on a conjugate model ------------------------------------------------------------
# Two-cell piecewise-constant intensity on W = [0, 2] x [0, 1]: lambda = gamma_j on cell j (areas A_j), with
# independent Gamma(a, b) priors; the posterior is gamma_j | S ~ Gamma(a + n_j, b + A_j), exactly.

A_CELLS = np.array([0.5, 1.5])
PRIOR_A, PRIOR_B = 2.0, 1.0


def log_marginal(counts):
    """log pi(S, N) up to the factor 1/N! and constants shared by all patterns of N points."""
    a, b = PRIOR_A, PRIOR_B
    return float(np.sum(gammaln(a + counts) - (a + counts) * np.log(b + A_CELLS)))


def test_cpo_identity_and_harmonic_mean_estimator_on_a_conjugate_model():
    counts = np.array([7, 5])
    cell_of = np.repeat([0, 1], counts)
    # brute-force leave-one-out: CPO_k = pi(S, N) / int_W pi(S_-k ∪ {s}, N) ds (no use of eq. 7)
    brute = np.empty(2)
    for c in (0, 1):
        moved = [log_marginal(counts - np.eye(2, dtype=int)[c] + np.eye(2, dtype=int)[j]) for j in (0, 1)]
        brute[c] = math.exp(log_marginal(counts) - logsumexp(moved, b=A_CELLS))
    # eq. (7) in closed form: 1 / sum_m A_m E[gamma_m / gamma_c], gamma ~ posterior
    post_mean = (PRIOR_A + counts) / (PRIOR_B + A_CELLS)
    inv_mean = (PRIOR_B + A_CELLS) / (PRIOR_A + counts - 1)
    closed = np.array([1 / (A_CELLS[c] + A_CELLS[1 - c] * post_mean[1 - c] * inv_mean[c]) for c in (0, 1)])
    assert np.allclose(closed, brute, rtol=1e-12)
    # eq. (9) with exact posterior draws
    rng = np.random.default_rng(10)
    size = 20_000
    gam = rng.gamma(PRIOR_A + counts, 1 / (PRIOR_B + A_CELLS), size=(size, 2))
    lam = gam[:, cell_of]
    total = gam @ A_CELLS
    estimate = cpo.cpo(lam, total)
    ratio = total[:, None] / lam
    se = ratio.std(axis=0, ddof=1) / math.sqrt(size) / ratio.mean(axis=0) ** 2  # delta method
    assert np.all(np.abs(estimate - brute[cell_of]) < 4 * se)
    assert np.allclose(np.exp(cpo.log_cpo(np.log(lam), np.log(total))), estimate)


# -- disclosure risk on a log-linear model with a known posterior ------------------------------------
# W = [0, 4] x [0, 2], lambda(s) = gamma exp(beta x), gamma ~ Gamma(a, b), beta ~ N(0, 1). Given beta,
# gamma | beta, S ~ Gamma(a + N, b + I(beta)), I(beta) = 2 (e^{4 beta} - 1) / beta, and the marginal of
# beta is one-dimensional: it is computed on a fine grid. Normalised intensities do not depend on gamma.

LL_WINDOW = Window.rectangle(0, 0, 4, 2)
BETA_GRID = np.linspace(-4.0, 5.0, 4_501)


def window_integral(beta):
    safe = np.where(np.abs(beta) < 1e-12, 1e-12, beta)
    return 2.0 * np.expm1(4.0 * safe) / safe


def log_beta_weights(sum_x, n_total):
    """log of pi(beta) e^{beta sum_x} (b + I(beta))^{-(a + n_total)} on BETA_GRID (unnormalised)."""
    return -0.5 * BETA_GRID**2 + BETA_GRID * sum_x - (PRIOR_A + n_total) * np.log(PRIOR_B + window_integral(BETA_GRID))


@pytest.fixture(scope="module")
def loglinear():
    rng = np.random.default_rng(20)
    n = 40
    x = np.log1p(rng.uniform(0, 1, n) * math.expm1(4 * 0.6)) / 0.6  # density ∝ e^{0.6 x} on [0, 4]
    y = rng.uniform(0, 2, n)
    logw = log_beta_weights(x.sum(), n)
    pdf = np.exp(logw - logw.max())
    cdf = np.concatenate([[0], np.cumsum(0.5 * (pdf[1:] + pdf[:-1]))])
    cdf /= cdf[-1]
    size = 1000  # posterior quantiles of beta: a deterministic, near-exact average over the posterior
    beta = np.interp((np.arange(size) + 0.5) / size, cdf, BETA_GRID)
    gamma = rng.gamma(PRIOR_A + n, 1 / (PRIOR_B + window_integral(beta)))
    mesh = triangulate(LL_WINDOW, 0.25)
    quad = quadrature(mesh, LL_WINDOW)
    draws = IntensityDraws(
        mesh,
        np.column_stack([np.log(gamma), beta]),
        np.zeros((size, mesh.n_nodes)),
        (Covariate("x", lambda u, v: u),),
        None,
        quad.proj,
        quad.weights,
        np.column_stack([np.ones(quad.x.size), quad.x]),
        np.zeros(quad.x.size),
    )
    return x, y, draws


def posterior_average(logw, values):
    """sum_j p_j values_j over BETA_GRID with p ∝ exp(logw) (trapezoid weights), values (..., grid)."""
    trap = np.full(BETA_GRID.size, BETA_GRID[1] - BETA_GRID[0])
    trap[[0, -1]] *= 0.5
    lw = logw + np.log(trap)
    return np.exp(logsumexp(lw + np.log(np.maximum(values, 1e-300)), axis=-1) - logsumexp(lw))


def chord(u, discs):
    """Length of the vertical chord at abscissa u of the intersection of discs (cx, cy, r) and the window."""
    top, bottom = np.full_like(u, 2.0), np.zeros_like(u)
    inside = (u >= 0) & (u <= 4)
    for cx, cy, r in discs:
        h2 = r * r - (u - cx) ** 2
        inside &= h2 > 0
        h = np.sqrt(np.maximum(h2, 0))
        top, bottom = np.minimum(top, cy + h), np.maximum(bottom, cy - h)
    return np.where(inside, np.maximum(top - bottom, 0), 0.0)


def region_integral(func, discs):
    """int over (∩ discs) ∩ W of func(x) (a function of x only) by adaptive quadrature along x."""
    lo = max([0.0] + [cx - r for cx, _, r in discs])
    hi = min([4.0] + [cx + r for cx, _, r in discs])
    points = []
    for cx, cy, r in discs:
        for level in (0.0, 2.0):
            if abs(level - cy) < r:
                half = math.sqrt(r * r - (level - cy) ** 2)
                points += [cx - half, cx + half]
    (c1x, c1y, r1), *rest = discs
    for c2x, c2y, r2 in rest:  # circle-circle intersections
        d = math.hypot(c2x - c1x, c2y - c1y)
        if abs(r1 - r2) < d < r1 + r2:
            a = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
            h = math.sqrt(r1 * r1 - a * a)
            mx = c1x + a * (c2x - c1x) / d
            points += [mx + h * (c2y - c1y) / d, mx - h * (c2y - c1y) / d]
    points = [p for p in points if lo < p < hi]
    value, _ = integrate.quad(
        lambda u: float(func(np.array([u]))[0] * chord(np.array([u]), discs)[0]),
        lo,
        hi,
        points=points or None,
        limit=400,
        epsabs=0,
        epsrel=1e-10,
    )
    return value


def disc_integral_of_exp(beta, cx, r):
    """int over a full disc of e^{beta x} = pi r^2 e^{beta cx} 2 I_1(beta r) / (beta r) (by a smooth rule)."""
    theta, wt = np.polynomial.legendre.leggauss(96)
    theta = theta * math.pi / 2
    u = cx + r * np.sin(theta)
    integrand = np.exp(np.multiply.outer(beta, u)) * 2 * r * r * np.cos(theta) ** 2
    return integrand @ wt * math.pi / 2


RADIAL_CASES = [  # (j-th person away from the edges, s_k^dagger - s_k, rp, rr): rr below and above rp
    (0, (0.25, 0.15), 0.4, 0.2),
    (1, (-0.2, 0.3), 0.45, 0.3),
    (2, (0.1, -0.3), 0.35, 0.6),
]


@pytest.mark.parametrize(("j", "shift", "rp", "rr"), RADIAL_CASES)
def test_radial_risk_matches_the_leave_one_out_posterior(loglinear, j, shift, rp, rr):
    x, y, draws = loglinear
    n = x.size
    k = np.flatnonzero((x > 0.8) & (x < 3.2) & (y > 0.7) & (y < 1.25))[j]
    sx, sy = x[k] + shift[0], y[k] + shift[1]
    assert 0 < sx - rp and sx + rp < 4 and 0 < sy - rp and sy + rp < 2
    support, lens = [(sx, sy, rp)], [(sx, sy, rp), (x[k], y[k], rr)]
    # the intruder's exact posterior given S_-k and S^dagger: pi(s | ...) ∝ 1{s in B_rp(s^dagger)} g(x_s),
    # g(u) = int e^{beta u} pi(beta) e^{beta sum_{i != k} x_i} (b + I(beta))^{-(a + N)} d beta
    logw_loo = log_beta_weights(x.sum() - x[k], n)

    def g(u):
        return np.exp(logsumexp(logw_loo[None, :] + np.multiply.outer(u, BETA_GRID), axis=1) - logw_loo.max())

    truth = region_integral(g, lens) / region_integral(g, support)
    # the paper's eq. (17): f(s) = 1 / E[int_B lambda / lambda(s) | S], normalised on its support
    logw = log_beta_weights(x.sum(), n)
    d_beta = disc_integral_of_exp(BETA_GRID, sx, rp)

    def f_paper(u):
        return 1.0 / posterior_average(logw, d_beta[None, :] * np.exp(-np.multiply.outer(u, BETA_GRID)))

    paper = region_integral(f_paper, lens) / region_integral(f_paper, support)
    # the paper's mechanism (points not kept inside): the truth above has density 1 / (pi rp^2); the support disc
    # lies inside W, but discs around its points may not, which the kept-inside mechanism would weigh
    args = (draws, x[[k]], y[[k]], [sx], [sy], rp, rr, LL_WINDOW)
    exact = risk.radial_risk(*args, m=60, rule="gauss", method="exact", kept_inside=False)
    # tolerances: the posterior average over 1000 quantiles and the Gauss rules are accurate to ~1e-6
    assert exact.risk[0] == pytest.approx(truth, rel=1e-4)
    got = risk.radial_risk(*args, m=60, rule="gauss", method="paper", kept_inside=False)
    assert got.risk[0] == pytest.approx(paper, rel=1e-4)
    assert 0 < got.normaliser[0] <= 1  # Jensen
    # the paper's midpoint rule (m = 20, eq. 37; errors ~ m^-1.5, partly cancelling in the ratio)
    assert risk.radial_risk(*args, kept_inside=False).risk[0] == pytest.approx(paper, rel=5e-3)
    # at the true location both densities are the CPO of eq. (18)
    assert got.cpo[0] == pytest.approx(exact.cpo[0], rel=1e-12)
    cpo_truth = g(np.array([x[k]]))[0] / region_integral(g, support)
    assert exact.cpo[0] == pytest.approx(cpo_truth, rel=2e-3)


def test_synthesis_risk_matches_the_leave_one_out_posterior(loglinear):
    x, y, draws = loglinear
    n = x.size
    rr = 0.5
    ks = np.array([0, 5, int(np.argmin(x)), int(np.argmax(x))])  # the last two have discs cut by the window
    exact = risk.synthesis_risk(draws, x[ks], y[ks], rr, LL_WINDOW, m=60, rule="gauss", method="exact")
    paper = risk.synthesis_risk(draws, x[ks], y[ks], rr, LL_WINDOW, m=60, rule="gauss", method="paper")
    logw = log_beta_weights(x.sum(), n)
    lam_int = window_integral(BETA_GRID)

    def f_paper(u):
        return 1.0 / posterior_average(logw, lam_int[None, :] * np.exp(-np.multiply.outer(u, BETA_GRID)))

    z = region_integral(f_paper, [(2.0, 1.0, 10.0)])  # the whole window
    # the window integrals come from the mesh's midpoint quadrature (relative error ~1e-4 here)
    assert paper.normaliser[0] == pytest.approx(z, rel=5e-4) and z <= 1
    reference_ratio = np.empty(ks.size)
    for j, k in enumerate(ks):
        logw_loo = log_beta_weights(x.sum() - x[k], n)

        def g(u, logw_loo=logw_loo):
            return np.exp(logsumexp(logw_loo[None, :] + np.multiply.outer(u, BETA_GRID), axis=1) - logw_loo.max())

        disc = [(x[k], y[k], rr)]
        truth = region_integral(g, disc) / region_integral(g, [(2.0, 1.0, 10.0)])
        assert exact.risk[j] == pytest.approx(truth, rel=5e-4)
        paper_truth = region_integral(f_paper, disc) / z
        assert paper.risk[j] == pytest.approx(paper_truth, rel=5e-4)
        reference_ratio[j] = paper_truth / truth
    # the two readings of eq. (21) differ here by about the Jensen gap 1/z - 1 = 2%; with each risk within 5e-4 of
    # its reference, their ratio is within a factor (1 + 5e-4) / (1 - 5e-4) of the references' ratio, and the
    # difference is beyond the tolerances when that interval excludes 1
    slack = (1 + 5e-4) / (1 - 5e-4)
    assert np.all(paper.risk / exact.risk > reference_ratio / slack)
    assert np.all(reference_ratio / slack > 1)


def test_a_risk_disc_covering_the_window_gives_a_risk_of_one_and_never_more(loglinear):
    # B_rr(s_k) ⊇ W: the intruder's density integrates to 1 over the disc, for either reading of eq. (21); the
    # disc quadrature and the window's integration points differ, so the computed mass is 1 only up to their
    # error, and a probability above 1 must not be reported
    # (the default rows per disc are then the most, 200: persons are taken in blocks that bound the memory, which
    # 64 persons at a time had exhausted)
    x, y, draws = loglinear
    got = risk.synthesis_risk(draws, x[:3], y[:3], 50.0, LL_WINDOW)
    assert got.details["m"] == 200 and np.all(got.risk <= 1.0) and np.all(got.risk > 0.99)
    for method in ("paper", "exact"):
        got = risk.synthesis_risk(draws, x, y, 50.0, LL_WINDOW, m=40, method=method)
        assert np.all(got.risk <= 1.0) and np.all(got.risk > 0.99)
        got = risk.radial_risk(draws, x, y, x, y, 1e-3, 50.0, LL_WINDOW, m=40, method=method)
        assert np.all(got.risk <= 1.0) and np.all(got.risk > 0.99)


@pytest.mark.parametrize("estimate", [True, False])
def test_risks_do_not_depend_on_how_persons_are_blocked(loglinear, monkeypatch, estimate):
    # persons are taken in blocks that bound the memory (risk._BLOCK doubles per (draws, nodes) array); each
    # person's risk is computed from its own discs only, so the blocking must not change any result. estimate:
    # the block size comes from m^2 nodes per disc; otherwise it starts at 64 persons and is halved until the
    # discs' real node count fits (windows of many parts have more than m^2 nodes per disc)
    x, y, draws = loglinear
    xs = x + 0.1
    want = (
        risk.synthesis_risk(draws, x, y, 0.5, LL_WINDOW, m=20).risk,
        risk.radial_risk(draws, x, y, xs, y, 0.3, 0.5, LL_WINDOW, m=20).risk,
    )
    persons = []
    original = risk.disc_quadrature

    def counting(px, *args, **kwargs):
        persons.append(np.size(px))
        return original(px, *args, **kwargs)

    monkeypatch.setattr(risk, "disc_quadrature", counting)
    monkeypatch.setattr(risk, "_BLOCK", draws.beta.shape[0] * 20 * 20 * 3)  # three persons' discs of m^2 nodes
    if not estimate:
        monkeypatch.setattr(risk, "_persons_per_block", lambda chunk, n_draws, m: 64)
    got = (
        risk.synthesis_risk(draws, x, y, 0.5, LL_WINDOW, m=20).risk,
        risk.radial_risk(draws, x, y, xs, y, 0.3, 0.5, LL_WINDOW, m=20).risk,
    )
    # equal up to rounding (2 ulps seen): the exact density's sums over draws and nodes run as matrix products
    # whose summation order may follow the block's shape; a block mixing up persons would move risks by far more
    assert np.allclose(got[0], want[0], rtol=1e-12, atol=0) and np.allclose(got[1], want[1], rtol=1e-12, atol=0)
    assert min(persons) <= 3 < x.size and (max(persons) <= 3 if estimate else max(persons) == x.size)


def homogeneous_draws(window, max_edge: float, size: int) -> IntensityDraws:
    """``size`` draws of a constant intensity (a random intercept, no field) on a mesh of the window."""
    mesh = triangulate(window, max_edge)
    quad = quadrature(mesh, window)
    return IntensityDraws(
        mesh,
        np.random.default_rng(2).normal(0, 1, (size, 1)),
        np.zeros((size, mesh.n_nodes)),
        (),
        None,
        quad.proj,
        quad.weights,
        np.ones((quad.x.size, 1)),
        np.zeros(quad.x.size),
    )


def test_homogeneous_risk_is_an_area_ratio_on_a_window_with_a_hole():
    # constant intensity: the intruder's density is uniform on its support, whatever the posterior
    import shapely.geometry as shapely_geometry  # a project dependency: must fail, not skip, if missing

    outer, hole = [(0, 0), (10, 0), (10, 8), (0, 8)], [(3, 3), (6, 3), (7, 5), (3, 6)]
    window = Window.from_polygons([(outer, [hole])])
    poly = shapely_geometry.Polygon(outer, [hole])
    size = 30
    draws = homogeneous_draws(window, 0.5, size)
    x, y = np.array([0.5, 2.6, 6.5]), np.array([0.4, 4.0, 4.0])
    xs, ys = np.array([0.9, 2.2, 6.9]), np.array([0.1, 4.3, 3.6])
    rp, rr = 0.8, 0.5

    def area(*discs):
        shape = poly
        for cx, cy, r in discs:
            shape = shape.intersection(shapely_geometry.Point(cx, cy).buffer(r, 2048))
        return shape.area

    for method in ("paper", "exact"):
        got = risk.radial_risk(
            draws, x, y, xs, ys, rp, rr, window, m=80, rule="gauss", method=method, kept_inside=False
        )
        ref = [area((a, b, rp), (c, d, rr)) / area((a, b, rp)) for a, b, c, d in zip(xs, ys, x, y)]
        assert np.allclose(got.risk, ref, rtol=2e-3)
        assert np.allclose(got.ess, size)  # D_lk / lambda_l(s_k) = |B ∩ W| for every draw: equal weights
        got = risk.synthesis_risk(draws, x, y, rr, window, m=80, rule="gauss", method=method)
        assert np.allclose(got.risk, [area((c, d, rr)) / poly.area for c, d in zip(x, y)], rtol=2e-3)


def test_radial_risk_of_points_kept_inside_matches_a_simulation_of_the_intruder():
    """Radial points redrawn until inside the window have density 1 / |B_rp(s) ∩ W|, larger near the boundary.
    Direct simulation of the intrusion (homogeneous intensity, so the posterior is the mechanism alone): people
    uniform on the unit square, each moved by the kept-inside radial mechanism; among those whose synthetic
    point lands within h of s_dagger, the share within rr of s_k estimates the risk (approximate Bayesian
    computation). The paper's formula, for the unclipped mechanism, is about half of it at a corner."""
    window = Window.rectangle(0, 0, 1, 1)
    draws = homogeneous_draws(window, 0.25, 20)
    rp, rr, h = 0.2, 0.05, 0.01
    s_dagger = np.array([0.05, 0.05])
    people = np.array([[0.02, 0.03], [0.12, 0.06], [0.15, 0.17]])  # corner, near an edge, interior-ish
    rng = np.random.default_rng(7)
    n_sim = 3_000_000
    sx, sy = rng.uniform(0, 0.3, n_sim), rng.uniform(0, 0.3, n_sim)  # covers B_rp(s_dagger) ∩ W
    tx, ty = walder.radial(sx, sy, rp, rng, window=window, keep_inside=True)
    near = np.hypot(tx - s_dagger[0], ty - s_dagger[1]) < h
    kept_x, kept_y = sx[near], sy[near]
    got = risk.radial_risk(
        draws, people[:, 0], people[:, 1], np.full(3, s_dagger[0]), np.full(3, s_dagger[1]), rp, rr, window,
        m=60, rule="gauss", method="exact",
    )  # fmt: skip
    paper = risk.radial_risk(
        draws, people[:, 0], people[:, 1], np.full(3, s_dagger[0]), np.full(3, s_dagger[1]), rp, rr, window,
        m=60, rule="gauss", method="exact", kept_inside=False,
    )  # fmt: skip
    for k, (px, py) in enumerate(people):
        share = np.mean(np.hypot(kept_x - px, kept_y - py) < rr)
        se = math.sqrt(share * (1 - share) / kept_x.size)
        # 4 standard errors, plus the smoothing of h over a density that varies on the scale rp (~h / rp)
        assert abs(got.risk[k] - share) < 4 * se + 0.05 * share, (k, got.risk[k], share, se)
    assert got.risk[0] > 1.5 * paper.risk[0]  # at the corner the paper's formula understates the risk


# -- pMSE (eqs. 12-15) ----------------------------------------------------------------------------------


def test_pmse_is_zero_for_identical_and_a_quarter_for_disjoint_intensities():
    rng = np.random.default_rng(1)
    lam = rng.gamma(2.0, 1.0, (30, 20))
    total = rng.gamma(50.0, 1.0, 30)
    label = np.repeat([True, False], 10)
    assert pmse(lam, lam, total, total, label).pmse == 0.0
    assert pmse(lam, 3 * lam, total, 3 * total, label).pmse == pytest.approx(0.0, abs=1e-30)  # same up to scale
    conf = np.where(label, lam, 0.0)  # each intensity vanishes where the other's points are
    syn = np.where(label, 0.0, lam)
    result = pmse(conf, syn, total, total, label)
    assert result.pmse == 0.25 and np.all(result.p_correct == 1.0)
    close = pmse(conf + 1e-9, syn + 1e-9, total, total, label).pmse
    assert 0.2499 < close < 0.25


def test_pmse_by_hand():
    # two draws, two points (one of each): p = (lam / Lam) / (lam / Lam + lam' / Lam') per draw
    lam_c = np.array([[2.0, 1.0], [1.0, 1.0]])
    lam_s = np.array([[1.0, 3.0], [1.0, 2.0]])
    int_c, int_s = np.array([10.0, 10.0]), np.array([10.0, 20.0])
    p = lam_c / int_c[:, None] / (lam_c / int_c[:, None] + lam_s / int_s[:, None])
    p_hat = np.array([p[:, 0].mean(), 1 - p[:, 1].mean()])
    result = pmse(lam_c, lam_s, int_c, int_s, [True, False])
    assert np.allclose(result.p_correct, p_hat) and result.pmse == pytest.approx(np.mean((p_hat - 0.5) ** 2))


def test_pmse_from_draws(loglinear):
    x, y, draws = loglinear
    assert pmse_from_draws(draws, draws, x, y, x[::-1], y).pmse == pytest.approx(0.0, abs=1e-20)
    tilted = IntensityDraws(
        draws.mesh,
        draws.beta * np.array([1.0, -1.0]),
        draws.w,
        draws.covariates,
        None,
        draws.int_proj,
        draws.int_weights,
        draws.x_int,
        draws.offset_int,
    )
    got = pmse_from_draws(draws, tilted, x, y, 4 - x, y)
    # The tilted intensity is gamma e^{-beta x}, and int_W e^{-beta x} = e^{-4 beta} I(beta): in eq. (13) gamma and
    # I(beta) cancel and p^(l) = expit(beta_l (2 s_x - 4)) at every pooled point s. A confidential point x_k and its
    # mirror 4 - x_k are both classified correctly with p_hat_k = E[expit(beta (2 x_k - 4)) | S], so
    # pMSE = mean_k (p_hat_k - 1/2)^2, with the expectation over beta's posterior on BETA_GRID.
    logw = log_beta_weights(x.sum(), x.size)
    p_hat = posterior_average(logw, expit(np.multiply.outer(2 * x - 4, BETA_GRID)))
    expected = float(np.mean((p_hat - 0.5) ** 2))
    # The draws are the posterior's L = 1000 quantiles at (i + 1/2) / L and expit(beta c) is monotone in beta, so
    # the draws' mean of it is within 1/L of the expectation (on each of the L equal-probability cells the
    # midpoint value and the cell's mean both lie between the function's values at the cell's ends, and those
    # rises add up to at most 1); the mesh's integrals of e^{+-beta x} shift each logit by at most their log
    # errors, and p by a quarter of that. (The grid's trapezoid weights and the quantiles' interpolated CDF differ
    # by O(step^2) = 4e-6.) As (p - 1/2 + e)^2 - (p - 1/2)^2 <= e (2 |p - 1/2| + e), the pMSE (0.038) is within
    # about 6e-4 of its expectation:
    beta, gam = draws.beta[:, 1], np.exp(draws.beta[:, 0])
    log_errors = np.abs(draws.log_integrals - np.log(gam * window_integral(beta))) + np.abs(
        tilted.log_integrals - np.log(gam * window_integral(-beta))
    )
    e = 1.0 / beta.size + log_errors.max() / 4
    tolerance = e * (2 * np.abs(p_hat - 0.5).max() + e)
    assert abs(got.pmse - expected) <= tolerance
    assert expected - tolerance > 0  # and the check excludes 0, the pMSE of intensities equal up to scale


def test_bad_arguments_name_the_parameter(loglinear):
    x, y, draws = loglinear
    with pytest.raises(ValueError) as info:
        risk.radial_risk(draws, x[:2], y[:2], x[:2] + 1.0, y[:2], 0.5, 0.1, LL_WINDOW)
    assert info.value.parameter == "perturb_radius"
    with pytest.raises(ValueError) as info:
        risk.synthesis_risk(draws, x[:2], y[:2], 0.1, LL_WINDOW, method="plug-in")
    assert info.value.parameter == "method"
    with pytest.raises(ValueError) as info:
        disc_quadrature([0.0], [0.0], 1.0, rule="simpson")
    assert info.value.parameter == "rule"
    with pytest.raises(ValueError) as info:
        walder.sample_exact(draws.mesh, LL_WINDOW, np.zeros(draws.mesh.n_nodes), 0, np.random.default_rng(0))
    assert info.value.parameter == "n"
