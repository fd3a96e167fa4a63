"""Kim & Lim's kernel Poisson point synthesizer (core/synthesis/kernel.py) and the Gaussian-kernel geometry of
the planar domain (core/synthesis/domain.py, kernel_mass.py, kernel_mass_bound.py): c_h, its gradient, the r_alpha
bound, calibration, sampling."""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
import pytest
from scipy import stats
from scipy.special import ndtr

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.limits import MAX_KERNEL_DRAWS
from spatial_privacy.core.synthesis import kernel
from spatial_privacy.core.synthesis.domain import PlanarDomain
from spatial_privacy.core.window import Window

UNIT = PlanarDomain(Window.from_polygons([[(0, 0), (1, 0), (1, 1), (0, 1)]]))
# An L-shaped window with a square hole: A = [0,3]x[0,1] and B = [0,1]x[1,2.5] minus H = [0.3,0.7]^2.
L_EXTERIOR = [(0, 0), (3, 0), (3, 1), (1, 1), (1, 2.5), (0, 2.5)]
L_HOLE = [(0.3, 0.3), (0.3, 0.7), (0.7, 0.7), (0.7, 0.3)]
L_SHAPE = PlanarDomain(Window.from_polygons([(L_EXTERIOR, [L_HOLE])]))


def rect_mass(x, y, h, x0, x1, y0, y1):
    """P(x + hZ in [x0, x1] x [y0, y1]): the product of normal CDF differences."""
    return (ndtr((x1 - x) / h) - ndtr((x0 - x) / h)) * (ndtr((y1 - y) / h) - ndtr((y0 - y) / h))


def l_shape_mass(x, y, h):
    return rect_mass(x, y, h, 0, 3, 0, 1) + rect_mass(x, y, h, 0, 1, 1, 2.5) - rect_mass(x, y, h, 0.3, 0.7, 0.3, 0.7)


def probe_points(rng, n, box):
    x0, y0, x1, y1 = box
    x = rng.uniform(x0, x1, n)
    y = rng.uniform(y0, y1, n)
    return x, y


# -- c_h --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("h", [0.01, 0.1, 0.5, 3.0])
def test_gaussian_mass_matches_the_rectangle_closed_form(h):
    rng = np.random.default_rng(1)
    x, y = probe_points(rng, 3000, (-0.5, -0.5, 1.5, 1.5))
    # vertices, edge points and a point a hair inside an edge
    x = np.r_[x, 0, 1, 0.5, 0.0, 1e-13, 0.25]
    y = np.r_[y, 0, 1, 0.0, 0.5, 0.5, 1.0]
    c = UNIT.gaussian_mass(x, y, h)
    ref = rect_mass(x, y, h, 0, 1, 0, 1)
    assert np.max(np.abs(c - ref)) < 1e-14
    big = ref > 1e-6
    assert np.max(np.abs(c - ref)[big] / ref[big]) < 1e-10


def test_gaussian_mass_of_a_rotated_square_is_rotation_invariant():
    theta = 0.3
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    square = np.array([(0, 0), (2, 0), (2, 1), (0, 1)], dtype=float) @ rot.T
    dom = PlanarDomain(Window.from_polygons([square[::-1]]))  # given clockwise; the window normalises it
    far = PlanarDomain(Window.from_polygons([square + [1e5, 4e5]]))  # projected-CRS-like coordinates
    rng = np.random.default_rng(2)
    u, v = probe_points(rng, 2000, (-0.5, -0.5, 2.5, 1.5))
    pts = np.column_stack([u, v]) @ rot.T
    for h in (0.05, 0.4, 2.0):
        c = dom.gaussian_mass(pts[:, 0], pts[:, 1], h)
        assert np.max(np.abs(c - rect_mass(u, v, h, 0, 2, 0, 1))) < 1e-14
        # shifting by 4e5 rounds every coordinate by up to 4e5 * 2^-53 ~ 4e-11; |grad c| <= 0.4 / h
        shifted = far.gaussian_mass(pts[:, 0] + 1e5, pts[:, 1] + 4e5, h)
        assert np.max(np.abs(shifted - c)) < 4 * 4e5 * 2.0**-53 * 0.4 / h


@pytest.mark.parametrize("h", [0.05, 0.3, 1.5])
def test_gaussian_mass_of_an_l_shape_with_a_hole(h):
    rng = np.random.default_rng(3)
    x, y = probe_points(rng, 3000, (-0.5, -0.5, 3.5, 3.0))
    x = np.r_[x, np.array(L_EXTERIOR)[:, 0], np.array(L_HOLE)[:, 0], 0.5]
    y = np.r_[y, np.array(L_EXTERIOR)[:, 1], np.array(L_HOLE)[:, 1], 0.3]
    c = L_SHAPE.gaussian_mass(x, y, h)
    ref = l_shape_mass(x, y, h)
    assert np.max(np.abs(c - ref)) < 1e-14
    big = ref > 1e-6
    assert np.max(np.abs(c - ref)[big] / ref[big]) < 1e-10


def test_gaussian_mass_agrees_with_monte_carlo():
    rng = np.random.default_rng(4)
    h, draws = 0.4, 2_000_000
    points = [(0.5, 0.5), (1.0, 1.0), (0.05, 2.4), (2.9, 0.9), (1.2, 1.4)]  # hole, reflex corner, corners, notch
    x, y = np.array(points).T
    c = L_SHAPE.gaussian_mass(x, y, h)
    z = rng.standard_normal((draws, 2))
    for (px, py), ci in zip(points, c):
        hit = L_SHAPE.contains(px + h * z[:, 0], py + h * z[:, 1]).mean()
        se = math.sqrt(ci * (1 - ci) / draws)
        assert abs(hit - ci) < 5 * se


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    x, y = probe_points(rng, 400, (-0.3, -0.3, 3.3, 2.8))
    for h in (0.1, 0.7):
        gx, gy = L_SHAPE.gaussian_mass_gradient(x, y, h)
        step = 1e-5 * h
        fx = (L_SHAPE.gaussian_mass(x + step, y, h) - L_SHAPE.gaussian_mass(x - step, y, h)) / (2 * step)
        fy = (L_SHAPE.gaussian_mass(x, y + step, h) - L_SHAPE.gaussian_mass(x, y - step, h)) / (2 * step)
        assert np.max(np.abs(gx - fx)) * h < 1e-8
        assert np.max(np.abs(gy - fy)) * h < 1e-8


def test_diameter_is_the_largest_vertex_distance():
    assert UNIT.diameter == pytest.approx(math.sqrt(2), rel=1e-15)
    assert L_SHAPE.diameter == pytest.approx(math.hypot(3, 2.5), rel=1e-15)
    assert UNIT.is_convex and not L_SHAPE.is_convex


# -- r_alpha --------------------------------------------------------------------------------------


def brute_force_r_alpha(dom, h, alpha, rng, n_random=150_000, n_directions=360):
    """max |log c(x) - log c(y)| over random alpha-close pairs in S and pairs anchored at every vertex."""
    xmin, ymin, xmax, ymax = dom.bounds
    x, y = probe_points(rng, 4 * n_random, (xmin, ymin, xmax, ymax))
    keep = dom.contains(x, y)
    x, y = x[keep][:n_random], y[keep][:n_random]
    angle = rng.uniform(0, 2 * math.pi, x.size)
    radius = alpha * np.sqrt(rng.uniform(0.8, 1.0, x.size))
    vx, vy = dom._vertices.T
    t = np.linspace(0, 2 * math.pi, n_directions, endpoint=False)
    ax = np.r_[x, np.repeat(vx, t.size)]
    ay = np.r_[y, np.repeat(vy, t.size)]
    bx = ax + np.r_[radius * np.cos(angle), alpha * np.tile(np.cos(t), vx.size)]
    by = ay + np.r_[radius * np.sin(angle), alpha * np.tile(np.sin(t), vx.size)]
    ok = dom.contains(bx, by)
    diff = np.abs(np.log(dom.gaussian_mass(ax[ok], ay[ok], h)) - np.log(dom.gaussian_mass(bx[ok], by[ok], h)))
    return float(diff.max())


@pytest.mark.parametrize("dom, h", [(UNIT, 0.75), (UNIT, 0.2), (L_SHAPE, 0.3), (L_SHAPE, 1.0)])
def test_r_alpha_is_a_tight_upper_bound(dom, h):
    alpha = 0.01
    bound = dom.edge_correction_log_ratio_bound(h, alpha)
    found = brute_force_r_alpha(dom, h, alpha, np.random.default_rng(6))
    assert found <= bound
    assert found >= bound / 1.05  # within 5%: the gradient barely changes over a distance alpha << h


def test_r_alpha_covers_pairs_across_a_gap_narrower_than_alpha():
    gap = 0.004  # two unit squares 0.004 apart: alpha = 0.01 pairs straddle the gap
    two = PlanarDomain(
        Window.from_polygons(
            [[(0, 0), (1, 0), (1, 1), (0, 1)], [(1 + gap, 0), (2 + gap, 0), (2 + gap, 1), (1 + gap, 1)]]
        )
    )
    assert not two.is_convex
    bound = two.edge_correction_log_ratio_bound(0.3, 0.01)
    found = brute_force_r_alpha(two, 0.3, 0.01, np.random.default_rng(15))
    assert found <= bound <= 1.05 * found


def test_r_alpha_bound_stays_valid_when_the_refinement_budget_runs_out(monkeypatch):
    from spatial_privacy.core.synthesis import kernel_mass_bound

    monkeypatch.setattr(kernel_mass_bound, "MAX_BOUND_CELLS", 300)
    dom = PlanarDomain(Window.from_polygons([(L_EXTERIOR, [L_HOLE])]))  # fresh: no cached maximisers
    b = dom.max_log_mass_gradient(0.3, 0.01)
    assert not b.converged and b.cells <= 300
    found = brute_force_r_alpha(dom, 0.3, 0.01, np.random.default_rng(16), n_random=50_000)
    assert found <= 0.01 * b.upper  # still an upper bound ...
    assert b.upper > b.lower * (1 + 1e-3)  # ... only looser than a converged one


def test_r_alpha_stays_an_upper_bound_when_alpha_is_not_small():
    for dom, h, alpha in [(UNIT, 0.2, 0.15), (L_SHAPE, 0.3, 0.25)]:
        bound = dom.edge_correction_log_ratio_bound(h, alpha)
        found = brute_force_r_alpha(dom, h, alpha, np.random.default_rng(7), n_random=60_000)
        assert found <= bound
        assert found >= bound / 1.5  # looser: the steepest gradient does not persist over alpha


def test_gradient_bound_brackets_the_supremum():
    b = UNIT.max_log_mass_gradient(0.3, 0.01)
    assert b.converged and b.lower <= b.upper <= b.lower * (1 + 1.1e-3)
    # the steepest point of the unit square is a corner, where log c_h = log Phi-difference products
    corner = np.hypot(*UNIT.gaussian_mass_gradient([0.0], [0.0], 0.3)) / UNIT.gaussian_mass([0.0], [0.0], 0.3)
    assert b.lower == pytest.approx(float(corner[0]), rel=1e-12)
    assert {round(b.x), round(b.y)} <= {0, 1}


# -- calibration ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n, delta", [(20, 0.05), (19, 1 / 19), (1, 0.5), (500, 1e-3), (1000, 1e-12), (50, 0.999)])
def test_k_is_the_smallest_poisson_quantile(n, delta):
    k = kernel.poisson_k(n, delta)
    assert stats.poisson.sf(k, n) <= delta  # P(Y <= k) >= 1 - delta
    assert k == 0 or stats.poisson.sf(k - 1, n) > delta  # and not for k - 1
    if delta > 1e-6:
        assert stats.poisson.cdf(k, n) >= 1 - delta - 1e-15
        assert k == 0 or stats.poisson.cdf(k - 1, n) < 1 - delta


def test_k_at_the_boundary_of_the_quantile():
    exact = float(stats.poisson.sf(27, 20))  # delta equal to P(Y > 27): k = 27 qualifies
    assert kernel.poisson_k(20, exact) == 27
    assert kernel.poisson_k(20, exact * (1 - 1e-9)) == 28
    assert kernel.poisson_k(20, 0.05) == 28  # the paper's S1 setting: n = 20, delta = 1/n


def test_calibration_satisfies_the_inequality_and_is_minimal():
    cal = kernel.calibrate_kernel(20, 1.0, 0.05, 0.01, UNIT)
    assert cal.k == 28 and cal.B == pytest.approx(math.sqrt(2))
    assert cal.rhs == pytest.approx(1 / 28)
    lhs, r = kernel.kernel_lhs(UNIT, cal.h, 0.01)
    assert lhs <= cal.rhs and lhs == pytest.approx(cal.lhs, rel=1e-12) and r == pytest.approx(cal.r_alpha)
    assert lhs == pytest.approx(cal.rhs, rel=1e-5)  # the constraint is active at the smallest h
    assert kernel.kernel_lhs(UNIT, cal.h * (1 - 1e-3), 0.01)[0] > cal.rhs
    assert (2 * 0.01 * cal.B + 1e-4) / (2 * cal.h**2) + cal.r_alpha == pytest.approx(cal.lhs, rel=1e-12)
    assert "alpha = 0.01" in cal.guarantee and "0.05" in cal.guarantee


def _largest_log_ratio(h, alpha, rng, patterns=30):
    """The largest ``|log lambda_D(s) / lambda_D'(s)|`` over a grid of ``s``, for random 20-point patterns D in the
    unit square and D' with one point moved by ``alpha`` in a random direction (kept inside)."""
    g = np.linspace(0, 1, 41)
    sx, sy = (a.ravel() for a in np.meshgrid(g, g))
    worst = 0.0
    for _ in range(patterns):
        x, y = rng.uniform(0, 1, 20), rng.uniform(0, 1, 20)
        k = int(rng.integers(20))
        while True:
            angle = rng.uniform(0, 2 * math.pi)
            x2, y2 = x.copy(), y.copy()
            x2[k] += alpha * math.cos(angle)
            y2[k] += alpha * math.sin(angle)
            if 0 <= x2[k] <= 1 and 0 <= y2[k] <= 1:
                break
        a = kernel.kernel_intensity(x, y, UNIT, h, sx, sy)
        b = kernel.kernel_intensity(x2, y2, UNIT, h, sx, sy)
        worst = max(worst, float(np.max(np.abs(np.log(a / b)))))
    return worst


def test_calibrated_bandwidth_bounds_every_synthetic_points_log_ratio_end_to_end():
    """Theorem 3.6's proof needs |log lambda_D(s) / lambda_D'(s)| <= epsilon / k at every s for alpha-neighbours:
    checked on the intensities themselves, not through kernel_lhs; an eighth of the bandwidth must break it (so
    the check can fail)."""
    alpha = 0.05
    cal = kernel.calibrate_kernel(20, 1.0, 0.05, alpha, UNIT)
    assert _largest_log_ratio(cal.h, alpha, np.random.default_rng(36)) <= cal.rhs
    assert _largest_log_ratio(cal.h / 8, alpha, np.random.default_rng(36)) > cal.rhs


def test_calibration_on_a_window_with_a_hole():
    cal = kernel.calibrate_kernel(60, 2.0, 1 / 60, 0.005, L_SHAPE)
    assert cal.lhs <= cal.rhs
    assert kernel.kernel_lhs(L_SHAPE, cal.h * (1 - 1e-3), 0.005)[0] > cal.rhs
    # a larger budget allows a smaller bandwidth
    assert kernel.calibrate_kernel(60, 4.0, 1 / 60, 0.005, L_SHAPE).h < cal.h


def test_a_budget_too_small_to_calibrate_names_epsilon_and_gives_up_beyond_the_window():
    # epsilon / k = 3.6e-11 would need h ~ sqrt(0.0142 / 3.6e-11) = 2e4 for the first term alone, and the computed
    # r_alpha bottoms out at its rounding error above that budget (the search once doubled h up to 1e63 for 65 s
    # without success): it must stop once h exceeds MAX_BANDWIDTH_SPREAD window diameters and blame epsilon
    with pytest.raises(ParameterError, match="below what can be computed") as err:
        kernel.calibrate_kernel(20, 1e-9, 0.05, 0.01, UNIT)
    assert err.value.parameter == "epsilon"
    limit = kernel.MAX_BANDWIDTH_SPREAD * math.sqrt(2)
    shown = float(str(err.value).split("no bandwidth up to ")[1].split(" ")[0])
    assert limit < shown <= 2 * limit * 1.001  # the first doubling past the limit (3 significant digits shown)


def test_user_bandwidth_below_the_calibrated_one_is_refused():
    rng = np.random.default_rng(8)
    x, y = rng.uniform(0, 1, (2, 20))
    cal = kernel.calibrate_kernel(20, 1.0, 0.05, 0.01, UNIT)
    with pytest.raises(ParameterError) as err:
        kernel.synthesize_kernel(x, y, UNIT, rng, epsilon=1.0, delta=0.05, alpha=0.01, bandwidth=0.99 * cal.h)
    assert err.value.parameter == "bandwidth"
    out = kernel.synthesize_kernel(
        x, y, UNIT, rng, epsilon=1.0, delta=0.05, alpha=0.01, bandwidth=1.5 * cal.h, calibration=cal
    )
    assert out.bandwidth == 1.5 * cal.h and out.lhs <= cal.rhs
    with pytest.raises(ParameterError) as err:
        kernel.synthesize_kernel(x, y, UNIT, rng, epsilon=2.0, delta=0.05, alpha=0.01, calibration=cal)
    assert err.value.parameter == "calibration"


# -- sampling -------------------------------------------------------------------------------------


def test_synthetic_count_is_poisson_n_and_inside_the_window():
    rng = np.random.default_rng(9)
    n, reps = 25, 400
    x, y = L_SHAPE.bounds[2] * rng.uniform(size=4 * n), L_SHAPE.bounds[3] * rng.uniform(size=4 * n)
    keep = L_SHAPE.contains(x, y)
    x, y = x[keep][:n], y[keep][:n]
    cal = kernel.calibrate_kernel(n, 1.0, 1 / n, 0.002, L_SHAPE)
    counts = []
    for _ in range(reps):
        out = kernel.synthesize_kernel(x, y, L_SHAPE, rng, epsilon=1.0, delta=1 / n, alpha=0.002, calibration=cal)
        assert L_SHAPE.contains(out.x, out.y).all()
        assert np.all(np.diff(out.x) >= 0)  # sorted: the order says nothing about the parents
        counts.append(out.x.size)
    counts = np.array(counts)
    assert abs(counts.mean() - n) < 4 * math.sqrt(n / reps)
    dispersion = (reps - 1) * counts.var(ddof=1) / n  # ~ chi2(reps - 1) for Poisson counts
    assert stats.chi2.ppf(1e-4, reps - 1) < dispersion < stats.chi2.ppf(1 - 1e-4, reps - 1)


def test_offspring_of_an_interior_point_are_gaussian():
    dom = PlanarDomain(Window.rectangle(0, 0, 100, 100)) if hasattr(Window, "rectangle") else None
    if dom is None:  # pragma: no cover
        dom = PlanarDomain(Window.from_polygons([[(0, 0), (100, 0), (100, 100), (0, 100)]]))
    rng = np.random.default_rng(10)
    h, m = 2.0, 20_000
    sx, sy = dom.sample_gaussian_offspring(rng, [50.0], [40.0], h, [m])
    assert sx.size == m
    assert stats.kstest((sx - 50) / h, "norm").pvalue > 1e-3
    assert stats.kstest((sy - 40) / h, "norm").pvalue > 1e-3
    r2 = ((sx - 50) ** 2 + (sy - 40) ** 2) / (2 * h * h)
    assert stats.kstest(r2, "expon").pvalue > 1e-3  # isotropic: |Z|^2 / 2 ~ Exp(1)


def test_offspring_near_the_boundary_follow_the_truncated_gaussian():
    rng = np.random.default_rng(11)
    h, m, px, py = 0.2, 40_000, 0.05, 0.9
    sx, sy = UNIT.sample_gaussian_offspring(rng, [px], [py], h, [m])
    assert UNIT.contains(sx, sy).all()
    # P(s_x < px | s in S) for the product form of the unit square
    p = (ndtr(0.0) - ndtr(-px / h)) / (ndtr((1 - px) / h) - ndtr(-px / h))
    q = (ndtr((1 - py) / h) - ndtr(0.0)) / (ndtr((1 - py) / h) - ndtr(-py / h))
    for observed, expected in [((sx < px).mean(), p), ((sy > py).mean(), q)]:
        assert abs(observed - expected) < 5 * math.sqrt(expected * (1 - expected) / m)


def test_kernel_intensity_integrates_to_n():
    rng = np.random.default_rng(12)
    x, y = rng.uniform(0, 1, (2, 10))
    g = (np.arange(200) + 0.5) / 200
    gx, gy = np.meshgrid(g, g)
    lam = kernel.kernel_intensity(x, y, UNIT, 0.15, gx.ravel(), gy.ravel())
    assert lam.mean() == pytest.approx(10, rel=2e-3)  # midpoint rule on [0, 1]^2


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, parameter",
    [
        (dict(alpha=0.0), "alpha"),
        (dict(alpha=-0.1), "alpha"),
        (dict(alpha=math.nan), "alpha"),
        (dict(delta=0.0), "delta"),
        (dict(delta=1.0), "delta"),
        (dict(delta=1.5), "delta"),
        (dict(epsilon=0.0), "epsilon"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(epsilon=math.inf), "epsilon"),
    ],
)
def test_bad_privacy_parameters_are_refused(kwargs, parameter):
    args = dict(epsilon=1.0, delta=0.05, alpha=0.01) | kwargs
    with pytest.raises(ParameterError) as err:
        kernel.calibrate_kernel(20, domain=UNIT, **args)
    assert err.value.parameter == parameter
    rng = np.random.default_rng(13)
    with pytest.raises(ParameterError) as err:
        kernel.synthesize_kernel([0.5, 0.2], [0.5, 0.3], UNIT, rng, **args)
    assert err.value.parameter == parameter


def test_bad_points_are_refused():
    rng = np.random.default_rng(14)
    for x, y in [([0.5, 1.2], [0.5, 0.5]), ([0.5, math.nan], [0.5, 0.5]), ([], []), ([0.5], [0.5, 0.6])]:
        with pytest.raises(ParameterError) as err:
            kernel.synthesize_kernel(x, y, UNIT, rng, epsilon=1.0, delta=0.05, alpha=0.01)
        assert err.value.parameter == "points"
    with pytest.raises(ParameterError) as err:
        kernel.synthesize_kernel([0.5, 0.5], [0.5, 0.55], L_SHAPE, rng, epsilon=1.0, delta=0.05, alpha=0.01)
    assert err.value.parameter == "points"  # (0.5, 0.5) is in the hole
    with pytest.raises(ParameterError) as err:
        kernel.calibrate_kernel(1, 1.0, 0.9, 0.01, UNIT)  # P(Poisson(1) > 0) = 0.63 <= delta: k = 0
    assert err.value.parameter == "delta"


def test_offspring_of_a_point_with_a_tiny_kernel_mass_are_drawn_not_refused():
    """A refusal when c_h(x_i) is tiny would depend on one confidential location: an alpha-neighbour just across
    the threshold gets synthetic points where the other data set got an error (an unbounded privacy loss). At
    the far end of a corridor 1e-4 wide, c_h is about 1e-7 (a third of a million draws per offspring): the
    offspring must still be drawn, exactly in the window, and the public warning figure must see the corridor."""
    w = 1e-4
    corridor = PlanarDomain(
        Window.from_polygons(
            [[(0, 0), (10, 0), (10, 5 - w / 2), (300, 5 - w / 2), (300, 5 + w / 2), (10, 5 + w / 2), (10, 10), (0, 10)]]
        )
    )
    h = 60.0
    tip = corridor.gaussian_mass(np.array([299.99]), np.array([5.0]), h)[0]
    assert 1e-8 < tip < 1e-6  # about w / (h sqrt(2 pi)) / 2
    sx, sy = corridor.sample_gaussian_offspring(
        np.random.default_rng(1), np.array([299.99, 5.0]), np.array([5.0, 5.0]), h, np.array([2, 1])
    )
    assert sx.size == 3 and np.all(corridor.window.contains(sx, sy))
    assert corridor.narrowest_mass(h) < 1e-6 <= UNIT.narrowest_mass(0.1)
    assert kernel.least_draws(corridor, 2, h) < MAX_KERNEL_DRAWS  # a narrow part alone is never refused


@pytest.mark.parametrize("h", [0.05, 0.3, 1.0, 5.0, 100.0])
def test_largest_mass_bounds_the_kernel_mass_everywhere_and_is_exact_at_a_rectangles_centre(h):
    rng = np.random.default_rng(21)
    for dom, box in ((UNIT, (-0.5, -0.5, 1.5, 1.5)), (L_SHAPE, (-0.5, -0.5, 3.5, 3.0))):
        x, y = probe_points(rng, 3000, box)
        assert dom.gaussian_mass(x, y, h).max() <= dom.largest_mass(h) * (1 + 1e-12)
    # the unit square's kernel mass is largest at its centre, and there the box bound is the mass itself
    assert UNIT.largest_mass(h) == pytest.approx(rect_mass(0.5, 0.5, h, 0, 1, 0, 1), rel=1e-12)


class _Deadline:
    """A progress callable that stops a run still going after ``seconds`` (as Cancel would)."""

    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds

    def __call__(self, fraction, message):
        if time.monotonic() > self.end:
            raise RuntimeError(f"still running after the deadline: {message}")


def test_a_bandwidth_far_wider_than_the_window_is_refused_up_front_naming_bandwidth():
    """Window and bandwidth are public: when even the most favourable point would need more draws than can be made
    (a kernel of 1e4 on the unit square keeps at most 1.6e-9 of its mass inside it: 1.3e10 draws for 20 points),
    the synthesis is refused before any work, naming the bandwidth, with a bandwidth that would run."""
    rng = np.random.default_rng(8)
    x, y = rng.uniform(0, 1, (2, 20))
    start = time.monotonic()
    with pytest.raises(ParameterError) as err:
        kernel.synthesize_kernel(
            x, y, UNIT, rng, epsilon=1.0, delta=0.05, alpha=0.01, bandwidth=1e4, progress=_Deadline(20)
        )
    assert time.monotonic() - start < 5  # before the calibration, too
    assert err.value.parameter == "bandwidth"
    message = str(err.value)
    assert "bandwidth 10000 is far wider than the window (1 by 1)" in message and "1.3e+10 draws" in message
    below = float(message.split("use a bandwidth below ")[1].split(" ")[0])
    assert kernel.least_draws(UNIT, 20, below) <= MAX_KERNEL_DRAWS < kernel.least_draws(UNIT, 20, below * 1.01)
    # a bandwidth 100 times the window's side is fine: 20 * 2 pi 1e4 = 1.3e6 draws
    out = kernel.synthesize_kernel(x, y, UNIT, rng, epsilon=1.0, delta=0.05, alpha=0.01, bandwidth=100.0)
    assert out.bandwidth == 100.0 and UNIT.contains(out.x, out.y).all()


def test_a_calibrated_bandwidth_far_wider_than_the_window_is_refused_naming_epsilon():
    """The calibration gives up long before (its r_alpha bound stops being computable), but a calibration passed
    in is checked too: a bandwidth beyond reach is then the budget's doing."""
    rng = np.random.default_rng(8)
    x, y = rng.uniform(0, 1, (2, 20))
    cal = dataclasses.replace(kernel.calibrate_kernel(20, 1.0, 0.05, 0.01, UNIT), h=1e5)
    with pytest.raises(ParameterError, match=r"the smallest private bandwidth, 100000, is far wider") as err:
        kernel.synthesize_kernel(
            x, y, UNIT, rng, epsilon=1.0, delta=0.05, alpha=0.01, calibration=cal, progress=_Deadline(20)
        )
    assert err.value.parameter == "epsilon"


def test_offspring_are_released_on_the_public_grid_of_the_bandwidth():
    """An offspring is x_i + h z: its coordinates are published rounded to the grid h / 1024 (public), not with
    the low-order bits of the double (Mironov 2012), and still inside the window."""
    rng = np.random.default_rng(12)
    n = 30
    x, y = rng.uniform(0.05, 0.95, n), rng.uniform(0.05, 0.95, n)
    out = kernel.synthesize_kernel(x, y, UNIT, rng, epsilon=5.0, delta=1 / n, alpha=0.001)
    step = out.bandwidth / 1024
    assert out.grid_step == step
    assert out.x.size > 0 and UNIT.contains(out.x, out.y).all()
    assert np.array_equal(np.rint(out.x / step) * step, out.x)
    assert np.array_equal(np.rint(out.y / step) * step, out.y)
    assert np.all(np.diff(out.x) >= 0)
