"""INLA's central composite design over the hyperparameters (core.hyper_ccd) and the fast posterior with it
(core.laplace_fit.fit_laplace, ``integration="ccd"``)."""

from __future__ import annotations

import itertools
import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core import fields, hyper_ccd, mechanisms
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.finite_differences import _newton_search
from spatial_privacy.core.laplace_fit import fit_laplace
from spatial_privacy.core.lgcp import LGCPModel, simulate_points
from spatial_privacy.core.triangulation import triangulate
from spatial_privacy.core.window import Window

from .test_lgcp import design_for

ALPHA = 1e-3
F0 = hyper_ccd.F0


def test_the_design_is_the_centre_with_the_factorial_and_star_points_on_the_sphere():
    # Rue, Martino & Chopin (2009), Section 6.5: for m = 2 the 2^2 factorial points (+-1, +-1) and the 2 * 2 star
    # points (+-sqrt(2), 0), (0, +-sqrt(2)), all scaled onto the sphere of radius f0 sqrt(m), and the centre
    design = hyper_ccd.unit_design(2)
    assert design.shape == (9, 2) and np.array_equal(design[0], [0.0, 0.0])
    assert np.allclose(np.linalg.norm(design[1:], axis=1), F0 * math.sqrt(2))
    expected = {(round(F0 * a, 9), round(F0 * b, 9)) for a, b in itertools.product((1, -1), repeat=2)}
    expected |= {(round(F0 * math.sqrt(2) * a, 9), round(F0 * math.sqrt(2) * b, 9)) for a, b in
                 [(1, 0), (-1, 0), (0, 1), (0, -1)]}  # fmt: skip
    assert {tuple(np.round(p, 9) + 0.0) for p in design[1:]} == expected
    angles = np.mod(np.arctan2(design[1:, 1], design[1:, 0]), 2 * math.pi)
    assert np.allclose(angles, np.arange(8) * math.pi / 4)  # in order of angle (the draws' sectors rely on it)
    assert np.allclose(hyper_ccd.unit_design(1).ravel(), [0.0, -F0, F0])
    with pytest.raises(ParameterError) as info:
        hyper_ccd.unit_design(3)
    assert info.value.parameter == "hyper_integration"


@pytest.mark.parametrize("m", [1, 2])
def test_the_weights_are_the_papers_and_integrate_a_gaussian_and_its_second_moment_exactly(m):
    design = hyper_ccd.unit_design(m)
    n_p = design.shape[0]
    weights = hyper_ccd.ccd_weights(m, n_p)
    # R-INLA's weights (centre 1 - (n_p - 1) w, others w = 1 / ((n_p - 1)(1 + e^{-m f0^2 / 2}(f0^2 - 1)))) have
    # the ratio w / w_0 = e^{m f0^2 / 2} / ((n_p - 1)(f0^2 - 1))
    other = 1 / ((n_p - 1) * (1 + math.exp(-m * F0**2 / 2) * (F0**2 - 1)))
    assert weights[1:] / weights[0] == pytest.approx(other / (1 - (n_p - 1) * other), rel=1e-12)
    # the rule is exact for the mass (2 pi)^{m/2} and the second moment m (2 pi)^{m/2} of exp(-|u|^2 / 2) once the
    # centre's weight is (2 pi)^{m/2} (1 - f0^-2) (the two conditions that define it)
    density = np.exp(-0.5 * np.sum(design**2, axis=1))
    absolute = weights * (2 * math.pi) ** (m / 2) * (1 - F0**-2)
    assert absolute @ density == pytest.approx((2 * math.pi) ** (m / 2), rel=1e-12)
    assert absolute @ (np.sum(design**2, axis=1) * density) == pytest.approx(m * (2 * math.pi) ** (m / 2), rel=1e-12)


def test_the_stretch_is_one_for_a_gaussian_and_scales_with_the_drop():
    # a Gaussian falls by d^2 / 2 at d sd: s = d / sqrt(2 drop)
    assert hyper_ccd.stretch(2.0) == pytest.approx(1.0)
    assert hyper_ccd.stretch(0.5) == pytest.approx(2.0)
    assert hyper_ccd.stretch(8.0) == pytest.approx(0.5)
    assert hyper_ccd.stretch(0.125, distance=1.0) == pytest.approx(2.0)
    low, high = hyper_ccd.STRETCH_LIMITS
    assert hyper_ccd.stretch(1e-9) == high and hyper_ccd.stretch(1e9) == low
    assert hyper_ccd.stretch(math.nan) == hyper_ccd.STRETCH_LIMITS[1]
    u = np.array([[1.0, -2.0], [0.0, 3.0]])
    plus, minus = np.array([2.0, 0.5]), np.array([0.25, 3.0])
    assert np.array_equal(hyper_ccd.stretched(u, plus, minus), [[2.0, -6.0], [0.0, 1.5]])
    assert np.allclose(hyper_ccd.jacobians(u, plus, minus), [2.0 * 3.0, (2.0 + 0.25) / 2 * 0.5])


def _gaussian_probabilities(m: int) -> tuple[np.ndarray, np.ndarray]:
    design = hyper_ccd.unit_design(m)
    probs = hyper_ccd.ccd_weights(m, design.shape[0]) * np.exp(-0.5 * np.sum(design**2, axis=1))
    return design, probs / probs.sum()


def test_draws_through_the_profile_of_a_gaussian_are_standard_normal_and_stay_in_their_cells():
    # Drops of exactly |u|^2 / 2 at both rings: the profile is the standard Gaussian up to the outer ring (3 sd)
    # and an exponential tail beyond it, whose mass (1 + 1/9) e^{-4.5} = 1.2% differs from the Gaussian's
    # e^{-4.5} = 1.1% by far less than a KS test of 20,000 draws sees (critical distance ~0.014).
    design, probs = _gaussian_probabilities(2)
    radii = [F0 * math.sqrt(2), 3.0]
    profile = hyper_ccd.RadialProfile(radii, np.tile(np.square(radii) / 2, (8, 1)), np.ones(16))
    rng = np.random.default_rng(5)
    counts = mechanisms.multinomial(rng, 20_000, probs)
    cells = hyper_ccd.profile_draws(rng, probs, counts, design, profile)
    assert [len(c) for c in cells] == list(counts)
    u = np.concatenate(cells)
    assert stats.kstest(np.sum(u**2, axis=1), stats.chi2(2).cdf).pvalue > ALPHA
    angles = np.mod(np.arctan2(u[:, 1], u[:, 0]), 2 * math.pi)
    assert stats.kstest(angles, stats.uniform(0, 2 * math.pi).cdf).pvalue > ALPHA
    # the centre's cell is the disc of mass probs[0] (1 - f0^-2 = 0.17 for a Gaussian); each outer cell is the
    # sector of width pi / 4 around its design point (the outer points have equal probabilities here)
    disc = math.sqrt(-2 * math.log(1 - probs[0]))
    assert probs[0] == pytest.approx(1 - F0**-2, rel=1e-12)
    assert np.all(np.linalg.norm(cells[0], axis=1) <= disc * 1.001)
    for k in range(1, 9):
        assert np.all(np.linalg.norm(cells[k], axis=1) >= disc * 0.999)
        gap = np.angle(np.exp(1j * (np.arctan2(cells[k][:, 1], cells[k][:, 0]) - (k - 1) * math.pi / 4)))
        assert np.all(np.abs(gap) <= math.pi / 8 + 1e-6)


def test_one_hyperparameter_draws_the_split_gaussian():
    # stretches s+ = 2, s- = 1: z = s u follows the split normal with density exp(-(z / s)^2 / 2), so P(z > 0) =
    # 2 / 3 (binomial sd sqrt(2/9 / n)) and z / s is half-normal on each side
    design, probs = _gaussian_probabilities(1)
    plus, minus = np.array([2.0]), np.array([1.0])
    rng = np.random.default_rng(6)
    counts = mechanisms.multinomial(rng, 20_000, probs)
    z = hyper_ccd.stretched(np.concatenate(hyper_ccd.cell_draws(rng, probs, counts, design, plus, minus)), plus, minus)
    z = z.ravel()
    assert abs(np.mean(z > 0) - 2 / 3) < 4 * math.sqrt(2 / 9 / z.size)
    assert stats.kstest(z[z > 0] / 2, stats.halfnorm.cdf).pvalue > ALPHA
    assert stats.kstest(-z[z < 0], stats.halfnorm.cdf).pvalue > ALPHA


def test_newton_search_finds_the_minimum_from_where_the_hessian_is_indefinite():
    # f has its minimum at (1, 1); at (0, 5) its Hessian, [[12 (x-1)^2 + 1 - 8 (y - x^2) + 16 x^2, -8 x], [-8 x, 4]],
    # is diag(-27, 4)
    def f(x):
        return (x[0] - 1) ** 4 + 0.5 * (x[0] - 1) ** 2 + 2 * (x[1] - x[0] ** 2) ** 2

    converged, x, iterations = _newton_search(f, np.array([0.0, 5.0]), 1e-3)
    assert converged and np.allclose(x, [1.0, 1.0], atol=0.03) and iterations < 30


def _small_model():
    """A simulated LGCP on a 10 x 6 rectangle (coarse mesh, ~130 nodes): range 3, variance 0.6."""
    window = Window.rectangle(0, 0, 10, 6)
    rng = np.random.default_rng(21)
    mesh = triangulate(window, 1.0)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    covariate = lambda x, y: (x - 5.0) / 3.0  # noqa: E731
    eta = 1.2 + 0.25 * covariate(*mesh.nodes.T) + spde.sample(3.0, math.sqrt(0.6), rng)[0]
    x, y = simulate_points(mesh, window, eta, rng)
    design = design_for(mesh, window, x, y, covariate)
    return LGCPModel(design, spde, fields.LogNormalFieldPrior(range0=4.0, sigma0=1.0), mesh=mesh)


def test_ccd_agrees_with_the_grid_with_a_third_of_the_laplace_fits():
    # The two differ only in the integration over theta. Tolerance for the means: 4 Monte Carlo standard errors
    # of a difference of two means of n independent draws (sd sqrt(2 / n)) plus 0.15 sd, the allowance that
    # tests/core/test_mcmc.py gives the fast method's own approximation against the exact sampler (the grid's
    # discretisation included); 95% interval widths within 20%, as there.
    model = _small_model()
    n = 2000
    grid = fit_laplace(model, np.random.default_rng(3), draws=n)
    ccd = fit_laplace(model, np.random.default_rng(3), draws=n, integration="ccd")
    assert grid.diagnostics["hyper_integration"] == "grid" and ccd.diagnostics["hyper_integration"] == "ccd"
    assert ccd.diagnostics["ccd_points"] == 9 and ccd.diagnostics["ccd_points_rejected"] == 0
    assert ccd.diagnostics["laplace_fits"] < grid.diagnostics["laplace_fits"] / 2.5
    pairs = {
        "log_range": (grid.log_range, ccd.log_range),
        "log_sigma": (grid.log_sigma, ccd.log_sigma),
        "intercept": (grid.beta[:, 0], ccd.beta[:, 0]),
        "covariate": (grid.beta[:, 1], ccd.beta[:, 1]),
        "int_lambda": (grid.integrated_intensity(), ccd.integrated_intensity()),
    }
    for name, (a, b) in pairs.items():
        sd = float(np.std(a, ddof=1))
        assert abs(a.mean() - b.mean()) < 4 * sd * math.sqrt(2 / n) + 0.15 * sd, (name, a.mean(), b.mean(), sd)
        width_a = np.diff(np.quantile(a, [0.025, 0.975]))[0]
        width_b = np.diff(np.quantile(b, [0.025, 0.975]))[0]
        assert width_b == pytest.approx(width_a, rel=0.20), (name, width_a, width_b)


def test_an_unknown_integration_is_refused_naming_it():
    with pytest.raises(ParameterError, match="must be 'grid' or 'ccd'") as info:
        fit_laplace(_small_model(), np.random.default_rng(1), draws=10, integration="adaptive")
    assert info.value.parameter == "hyper_integration"


def test_automatic_integration_is_the_grid_on_small_meshes_and_the_design_on_large_ones(monkeypatch):
    """``hyper_integration="auto"`` (fit_confidential's default) is the grid below CCD_MIN_NODES mesh nodes and the
    central composite design from there on; the model file records which ran; an unknown name is refused."""
    from spatial_privacy.core import lgcp_setup

    assert lgcp_setup.resolve_integration("auto", lgcp_setup.CCD_MIN_NODES - 1) == "grid"
    assert lgcp_setup.resolve_integration("auto", lgcp_setup.CCD_MIN_NODES) == "ccd"
    assert lgcp_setup.resolve_integration("grid", 10**6) == "grid"
    rng = np.random.default_rng(3)
    x, y = 10 * mechanisms.uniforms(rng, 150), 6 * mechanisms.uniforms(rng, 150)
    window = Window.rectangle(0, 0, 10, 6)
    used = {}
    for limit in (10**9, 0):
        monkeypatch.setattr(lgcp_setup, "CCD_MIN_NODES", limit)
        fit = lgcp_setup.fit_confidential(x, y, np.random.default_rng(1), 20, window=window, max_edge=1.5)
        used[limit] = fit.posterior.diagnostics["hyper_integration"]
    assert used == {10**9: "grid", 0: "ccd"}
    with pytest.raises(ParameterError, match="must be 'grid', 'ccd' or 'auto'") as info:
        lgcp_setup.fit_confidential(x, y, np.random.default_rng(1), 20, window=window, hyper_integration="adaptive")
    assert info.value.parameter == "hyper_integration"


def test_the_quick_stencil_is_exact_for_a_quadratic_and_close_to_the_full_one_otherwise():
    # A quadratic's central differences are exact, and so is the one-point cross derivative; with a cubic term the
    # cross derivative's error is O(h) (h/2 times the sum of the two mixed third derivatives), the rest O(h^2).
    from spatial_privacy.core.finite_differences import _quick_stencil, _stencil

    a = np.array([[3.0, -1.2], [-1.2, 2.0]])

    def quadratic(x):
        return 0.5 * x @ a @ x + x @ np.array([0.4, -2.0]) + 7.0

    x0 = np.array([0.3, -0.7])
    f0, grad, hess = _quick_stencil(quadratic, x0, 0.05)
    assert f0 == quadratic(x0)
    assert np.allclose(grad, a @ x0 + [0.4, -2.0], rtol=0, atol=1e-9) and np.allclose(hess, a, rtol=0, atol=1e-8)
    h = 0.01

    def cubic(x):
        return quadratic(x) + x[0] ** 2 * x[1]  # mixed third derivatives: d3/dx0^2 dx1 = 2, d3/dx0 dx1^2 = 0

    quick = _quick_stencil(cubic, x0, h)
    full = _stencil(cubic, x0, h)
    assert np.allclose(quick[1], full[1], rtol=0, atol=1e-9)
    assert quick[2][0, 0] == pytest.approx(full[2][0, 0], abs=1e-7)
    assert quick[2][0, 1] - full[2][0, 1] == pytest.approx(h / 2 * 2, abs=1e-6)


def test_a_laplace_fit_started_at_its_own_mode_factorises_once_and_gives_the_same_marginal(monkeypatch):
    # Newton's method stops before a step below FINAL_STEP * tol and keeps the factorisation of the point it has:
    # started at a converged mode, one factorisation; its log marginal is the converged fit's to far below what the
    # hyperparameter search resolves (its finite differences of 0.05 in theta see changes of about 1e-3).
    from spatial_privacy.core import lgcp

    model = _small_model()
    theta = np.array([math.log(3.0), 0.5 * math.log(0.6)])
    fit = model.laplace(theta)
    calls = []
    real = lgcp.cholesky
    monkeypatch.setattr(lgcp, "cholesky", lambda *a, **k: calls.append(1) or real(*a, **k))
    again = model.laplace(theta, start=(fit.w, fit.beta))
    assert len(calls) == 1 and again.newton_steps == 1
    assert again.log_marginal == pytest.approx(fit.log_marginal, abs=1e-9)
    assert np.allclose(again.w, fit.w, rtol=0, atol=1e-9)


def test_a_pilot_fit_on_a_coarser_mesh_starts_the_search_nearer_the_same_mode(snow_deaths, monkeypatch):
    # John Snow's deaths, the design's search with and without the pilot (limits lowered so that Snow's ~2,000-node
    # mesh gets a ~400-node pilot). Both searches stop where the Newton decrement is below 1e-3, i.e. within about
    # 0.03 posterior sd of the mode: the two modes must agree to 0.1 sd (in the Hessian's metric), and the pilot's
    # search must need fewer Laplace fits on the fine mesh.
    from spatial_privacy.core import lgcp_setup

    x, y = snow_deaths
    runs = {}
    for limit in (10**9, 1000):
        monkeypatch.setattr(lgcp_setup, "PILOT_MIN_NODES", limit)
        monkeypatch.setattr(lgcp_setup, "PILOT_NODES", 400)
        fit = lgcp_setup.fit_confidential(x, y, np.random.default_rng(1), 50, hyper_integration="ccd")
        runs[limit] = fit.posterior.diagnostics
    without, pilot = runs[10**9], runs[1000]
    assert without["pilot_mode"] is None and len(pilot["pilot_mode"]) == 2
    difference = np.array(pilot["theta_mode"]) - np.array(without["theta_mode"])
    assert math.sqrt(difference @ np.array(without["theta_hessian"]) @ difference) < 0.1
    assert pilot["laplace_fits_mode_search"] < without["laplace_fits_mode_search"]


def test_a_failed_pilot_fit_leaves_the_search_at_the_prior_centre():
    from spatial_privacy.core import lgcp_setup

    def build(rule, edge):
        raise ParameterError("max_edge", "refused")

    setup = SimpleNamespace(mesh=SimpleNamespace(n_nodes=lgcp_setup.PILOT_MIN_NODES), max_edge=1.0)
    assert lgcp_setup.pilot_mode(build, "midpoint", setup) is None
    setup.mesh.n_nodes = lgcp_setup.PILOT_MIN_NODES - 1
    assert lgcp_setup.pilot_mode(lambda rule, edge: pytest.fail("built"), "midpoint", setup) is None


def test_a_large_pilot_has_its_own_pilot(snow_deaths, monkeypatch):
    # Snow's ~2,000-node mesh with the limits lowered: a pilot of half its nodes (>= PILOT_MIN_NODES) gets its own
    # pilot of a quarter; each mesh is built once, coarsest fitted first, and the mode returned is the middle one's.
    from spatial_privacy.core import lgcp_setup

    x, y = snow_deaths
    monkeypatch.setattr(lgcp_setup, "PILOT_MIN_NODES", 900)
    monkeypatch.setattr(lgcp_setup, "PILOT_SHRINK", 2)
    monkeypatch.setattr(lgcp_setup, "PILOT_NODES", 300)
    built = []

    def build(rule, edge):
        setup = lgcp_setup.build_lgcp(x, y, max_edge=edge, scheme=rule)
        built.append(setup.mesh.n_nodes)
        return setup

    fine = lgcp_setup.build_lgcp(x, y)
    mode = lgcp_setup.pilot_mode(build, "midpoint", fine)
    assert len(built) == 2 and fine.mesh.n_nodes > built[0] >= 900 > built[1]
    assert built[0] == pytest.approx(fine.mesh.n_nodes / 2, rel=0.25)
    assert built[1] == pytest.approx(built[0] / 2, rel=0.25)
    assert mode.shape == (2,) and np.all(np.isfinite(mode))
