"""K- and L-functions and the MISE (core.metrics.kfunction, .edge_correction, .mise).

Checked against closed-form circle geometry, hand counts on tiny patterns, the theory of the
estimators for Poisson patterns at fixed seeds, and spatstat 3.0-3 (R 4.2.2) values.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.metrics import kfunction as kf
from spatial_privacy.core.metrics.edge_correction import circle_length_inside, isotropic_weights
from spatial_privacy.core.metrics.mise import default_radii, mean_mise, mise
from spatial_privacy.core.window import Window

# The window of the spatstat cross-check: a non-convex polygon with a pentagonal hole, and a triangle.
L_SHAPE = [(0, 0), (6, 0), (6, 2), (3, 2), (3, 5), (0, 5)]
PENTAGON_HOLE = [(1, 0.5), (2, 0.5), (2.5, 1.2), (1.5, 1.6), (0.8, 1.2)]
TRIANGLE = [(7, 0), (10, 0), (8.5, 4)]


def two_polygons() -> Window:
    return Window.from_polygons([(L_SHAPE, [PENTAGON_HOLE]), TRIANGLE])


def regular_polygon(k: int, radius: float) -> Window:
    angle = 2 * np.pi * np.arange(k) / k
    return Window.from_polygons([np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])])


def uniform_in(window: Window, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n independent uniform points in the window (a binomial process), by rejection from the bounding box."""
    xmin, ymin, xmax, ymax = window.bounds
    xs, ys = np.zeros(0), np.zeros(0)
    while xs.size < n:
        x = rng.uniform(xmin, xmax, 2 * n)
        y = rng.uniform(ymin, ymax, 2 * n)
        keep = window.contains(x, y)
        xs, ys = np.concatenate([xs, x[keep]]), np.concatenate([ys, y[keep]])
    return xs[:n], ys[:n]


# -- circle geometry -----------------------------------------------------------------------------


@pytest.mark.parametrize("a", [0.0, 0.5, 2.0, 4.9, 5.0, 7.0])
def test_circle_near_one_straight_edge(a):
    # Centre at distance a from the bottom edge of a huge square: inside length 2 r (pi - arccos(a / r)).
    window = Window.rectangle(-1000, 0, 1000, 1000)
    r = 5.0
    expected = 2 * r * (math.pi - math.acos(min(a / r, 1.0)))
    assert circle_length_inside(window, 3.0, a, r) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "r"),
    [
        (0.0, 0.0, 2.0),
        (1.0, 1.5, 2.0),
        (0.3, 0.4, 0.5),
        (1.0, 1.5, 1.6),
        (0.3, 0.4, 0.5 + 1e-6),
        (0.3, 0.4, 0.5 - 1e-6),
        (0.3, 0.4, 0.4999),
    ],
)
def test_circle_near_a_corner(a, b, r):
    # Centre (a, b) from the corner of the quadrant x, y > 0. The arcs outside (x < 0 and y < 0)
    # have half-angles pa = arccos(a / r), pb = arccos(b / r); they overlap when the corner is inside the disc.
    # The last three circles pass 1e-6, 1e-6 and 1e-4 from the corner (spatstat 3.0-3's edge.Ripley can be off
    # by several % for circles passing ~1e-5 from a polygon vertex; see tests/benchmarks/bench_kfunction.py).
    window = Window.rectangle(0, 0, 1000, 1000)
    pa, pb = math.acos(min(a / r, 1)), math.acos(min(b / r, 1))
    outside = pa + pb + math.pi / 2 if a * a + b * b < r * r else 2 * pa + 2 * pb
    assert circle_length_inside(window, a, b, r) == pytest.approx(r * (2 * math.pi - outside), rel=1e-12)


def test_circle_at_a_reflex_vertex_and_on_an_edge():
    window = two_polygons()
    # the reflex vertex (3, 2) of the L: interior angle 270 degrees
    assert circle_length_inside(window, 3.0, 2.0, 0.5) == pytest.approx(1.5 * math.pi * 0.5, rel=1e-12)
    # a point in the middle of the triangle's base, away from its other edges
    assert circle_length_inside(window, 8.5, 0.0, 0.5) == pytest.approx(math.pi * 0.5, rel=1e-12)


@pytest.mark.parametrize("r", [10.5, 12.0, 13.5, 14.1])
def test_circle_around_a_square_hole(r):
    # Hole [-s, s]^2, centre at its middle, s < r < s sqrt 2: beyond each side x = s (and the three
    # others) lies an arc of angle 2 arccos(s / r), and these four arcs do not overlap: 8 r arccos(s / r).
    s = 10.0
    window = Window.from_polygons([([(-100, -100), (100, -100), (100, 100), (-100, 100)], [square_ring(s)])])
    assert circle_length_inside(window, 0.0, 0.0, r) == pytest.approx(8 * r * math.acos(s / r), rel=1e-12)


def square_ring(s):
    return [(-s, -s), (s, -s), (s, s), (-s, s)]


def test_circle_between_two_polygons():
    # Two slabs |x| in [1, 10]: a circle of radius 2 about the origin is inside for |theta| < arccos(1/2) on each side.
    left, right = [(-10, -10), (-1, -10), (-1, 10), (-10, 10)], [(1, -10), (10, -10), (10, 10), (1, 10)]
    window = Window.from_polygons([left, right])
    assert circle_length_inside(window, 0.0, 0.0, 2.0) == pytest.approx(4 * 2.0 * math.acos(0.5), rel=1e-12)
    assert circle_length_inside(window, 0.0, 0.0, 0.9) == 0.0  # the circle runs in the gap
    assert circle_length_inside(window, 50.0, 0.0, 3.0) == 0.0  # far outside


def test_circle_length_matches_dense_sampling_with_contains():
    # Independent check: sample the circle densely and ask Window.contains.
    window = two_polygons()
    rng = np.random.default_rng(5)
    t = (np.arange(400_000) + 0.5) / 400_000 * 2 * np.pi
    for _ in range(12):
        cx, cy, r = rng.uniform(-1, 11), rng.uniform(-1, 6), rng.uniform(0.2, 6)
        inside = window.contains(cx + r * np.cos(t), cy + r * np.sin(t)).mean() * 2 * np.pi * r
        # sampling error: each of the <= ~40 crossings is off by at most half a step
        assert circle_length_inside(window, cx, cy, r) == pytest.approx(inside, abs=40 * np.pi * r / t.size)


def test_isotropic_weights_match_spatstat_edge_ripley():
    # R: X <- ppp(x, y, window = W) (the pattern and window of test_matches_spatstat_on_a_polygon_window);
    #    edge.Ripley(X[c(1, 4, 21, 22, 5)], matrix(c(0.6, 0.9, 1.3, 0.5, 2.0), ncol = 1))
    x, y = SPATSTAT_X[[0, 3, 20, 21, 4]], SPATSTAT_Y[[0, 3, 20, 21, 4]]
    got = isotropic_weights(two_polygons(), x, y, [0.6, 0.9, 1.3, 0.5, 2.0])
    expected = [1.36763201449, 1.93654894734, 5.55761963722, 1.84148770479, 2.59331248514]
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_isotropic_weights_are_clipped_like_spatstat():
    window = Window.rectangle(0, 0, 1, 1)
    # a circle that only touches the window at its corner point: no length inside, weight clipped to 100
    w = isotropic_weights(window, [0.0, 0.5, 0.5], [0.0, 0.5, 0.5], [1.5, 0.2, 0.0])
    np.testing.assert_array_equal(w, [100.0, 1.0, 1.0])


# -- hand counts on tiny patterns -----------------------------------------------------------------


def test_no_correction_counts_ordered_pairs():
    # P (0.1, 0.1), Q (0.4, 0.1), S (0.1, 0.5): |PQ| = 0.3, |PS| = 0.4, |QS| = 0.5 in the unit square.
    # K(r) = |W| / (n (n - 1)) * #ordered pairs within r = (0, 2, 4, 6) / 6.
    x, y = [0.1, 0.4, 0.1], [0.1, 0.1, 0.5]
    k = kf.k_function(x, y, Window.rectangle(0, 0, 1, 1), [0.2, 0.35, 0.45, 0.6], correction="none")
    np.testing.assert_allclose(k.K, [0.0, 1 / 3, 2 / 3, 1.0], rtol=1e-14)
    np.testing.assert_allclose(k.L, np.sqrt(k.K / np.pi), rtol=1e-14)
    assert (k.correction, k.n, k.inhomogeneous, k.area) == ("none", 3, False, 1.0)


def test_inhomogeneous_no_correction_eq14_by_hand():
    # Same pattern, lambda = (1, 2, 4): K(r) = 1 / |W| sum_{i != j} 1(d_ij <= r) / (lambda_i lambda_j):
    # r = 0.35: 2 / (1 * 2) = 1; r = 0.45: + 2 / (1 * 4) = 1.5; r = 0.6: + 2 / (2 * 4) = 1.75.
    x, y = [0.1, 0.4, 0.1], [0.1, 0.1, 0.5]
    window = Window.rectangle(0, 0, 1, 1)
    k = kf.k_function(x, y, window, [0.2, 0.35, 0.45, 0.6], correction="none", intensity=[1.0, 2.0, 4.0])
    np.testing.assert_allclose(k.K, [0.0, 1.0, 1.5, 1.75], rtol=1e-14)
    assert k.inhomogeneous and not k.renormalised
    # spatstat's renormalisation multiplies by |W| / sum(1 / lambda) = 1 / 1.75
    k1 = kf.k_function(x, y, window, [0.6], "none", [1.0, 2.0, 4.0], renormalise=True)
    assert k1.K[0] == pytest.approx(1.0, rel=1e-14) and k1.renormalised
    # a callable intensity is evaluated at the points
    k2 = kf.k_function(x, y, window, [0.6], "none", lambda px, py: np.array([1.0, 2.0, 4.0]) + 0 * px)
    assert k2.K[0] == pytest.approx(1.75, rel=1e-14)


def test_isotropic_weight_near_a_straight_edge_by_hand():
    # Two points 4 apart, both 3 above the bottom edge of a large square; each circle of radius 4
    # keeps 2 * 4 * (pi - arccos(3/4)) inside, so e = pi / (pi - arccos(3/4)) for both ordered pairs.
    window = Window.rectangle(0, 0, 100, 100)
    k = kf.k_function([50.0, 54.0], [3.0, 3.0], window, [3.9, 5.0])
    e = math.pi / (math.pi - math.acos(0.75))
    np.testing.assert_allclose(k.K, [0.0, 100 * 100 / 2 * 2 * e], rtol=1e-12)


def test_isotropic_weight_at_a_corner_by_hand():
    # (0, 0) is a corner of the unit square: a quarter of the circle of radius 0.5 is inside, e = 4.
    # (0.3, 0.4): the circle of radius 0.5 passes through the corner; arcs of half-angle arccos(0.3 / 0.5)
    # and arccos(0.4 / 0.5) are outside, together pi: e = 2. K(0.6) = |W| / (2 * 1) * (4 + 2) = 3.
    k = kf.k_function([0.0, 0.3], [0.0, 0.4], Window.rectangle(0, 0, 1, 1), [0.4, 0.6])
    np.testing.assert_allclose(k.K, [0.0, 3.0], rtol=1e-12)


def test_isotropic_weight_beside_a_hole_by_hand():
    hole = [(40, 40), (60, 40), (60, 60), (40, 60)]
    window = Window.from_polygons([([(0, 0), (100, 0), (100, 100), (0, 100)], [hole])])
    # 3 below the hole's lower edge: locally a straight edge, as above
    k = kf.k_function([50.0, 54.0], [37.0, 37.0], window, [5.0])
    e = math.pi / (math.pi - math.acos(0.75))
    assert k.K[0] == pytest.approx(window.area / 2 * 2 * e, rel=1e-12)
    # 2 left of and 3 below the hole's lower-left corner, radius 4 (the corner is inside the disc):
    # only the arc with x > 40 and y > 40 is in the hole: arccos(2/4) + arccos(3/4) - pi/2.
    k = kf.k_function([38.0, 38.0], [37.0, 33.0], window, [4.0])
    in_hole = math.acos(0.5) + math.acos(0.75) - math.pi / 2
    e_corner = 2 * math.pi / (2 * math.pi - in_hole)
    e_other = 1.0  # (38, 33) is 7 from the hole and 33 from the outer edges
    assert k.K[0] == pytest.approx(window.area / 2 * (e_corner + e_other), rel=1e-12)


def test_border_correction_by_hand():
    # Unit square; A (0.5, 0.5) b = 0.5, B (0.5, 0.8) b = 0.2, C (0.25, 0.5) b = 0.25, D (0.9, 0.1) b = 0.1.
    # |AB| = 0.3, |AC| = 0.25; every other distance > 0.39.
    # K(r) = |W| / n * #{(i, j): d_ij <= r <= b_i} / #{i: b_i >= r}:
    #   r = 0.15: B, A, C qualify, no pair that close: 0;  r = 0.22: A, C: 0;
    #   r = 0.28: A only, with C: 1/4 * 1/1;  r = 0.35: A, with B and C: 1/4 * 2/1;  r = 0.6: nobody: nan.
    x, y = [0.5, 0.5, 0.25, 0.9], [0.5, 0.8, 0.5, 0.1]
    window = Window.rectangle(0, 0, 1, 1)
    radii = [0.15, 0.22, 0.28, 0.35, 0.6]
    k = kf.k_function(x, y, window, radii, correction="border")
    np.testing.assert_allclose(k.K, [0.0, 0.0, 0.25, 0.5, np.nan], rtol=1e-14)
    # inhomogeneous (lambda = 1, 2, 4, 8): sum of 1 / (lambda_i lambda_j) over the same pairs / sum of 1 / lambda_i
    # over the qualifying i: r = 0.28: (1 * 1/4) / 1;  r = 0.35: (1 * 1/2 + 1 * 1/4) / 1;  r = 0.15: 0 / (1 + 1/2 + 1/4)
    k = kf.k_function(x, y, window, radii, correction="border", intensity=[1.0, 2.0, 4.0, 8.0])
    np.testing.assert_allclose(k.K, [0.0, 0.0, 0.25, 0.75, np.nan], rtol=1e-14)


def test_duplicate_points_are_a_pair_at_distance_zero():
    window = Window.rectangle(0, 0, 1, 1)
    k = kf.k_function([0.5, 0.5, 0.1], [0.5, 0.5, 0.9], window, [0.0, 0.1])
    np.testing.assert_allclose(k.K, [2 / 6, 2 / 6], rtol=1e-14)


# -- reference: spatstat -------------------------------------------------------------------------

# 30 points drawn with numpy (default_rng(2024), uniform on [0, 10] x [0, 5] kept in the window,
# rounded to 4 decimals).
SPATSTAT_X = np.array([0.7873, 3.5965, 1.0539, 0.0463, 5.9682, 2.0634, 2.7804, 2.1316, 8.0718, 2.6806, 4.6721, 8.8894,
                       8.9823, 2.4520, 2.2835, 3.4199, 2.5134, 2.0193, 0.4821, 0.4230, 0.5426, 8.5917, 5.8908, 8.0196,
                       2.6072, 1.3482, 1.0056, 2.1852, 5.4909, 0.8798])  # fmt: skip
SPATSTAT_Y = np.array([0.9041, 0.8481, 2.8287, 2.3256, 1.6267, 2.2136, 4.3748, 1.3712, 1.3418, 0.3544, 1.3210, 1.4316,
                       0.3952, 0.9239, 0.1194, 1.3792, 2.8505, 2.5258, 1.6304, 1.2063, 0.0387, 0.0674, 0.7320, 1.8965,
                       2.1818, 3.5145, 1.3976, 0.6581, 0.9848, 3.1012])  # fmt: skip
SPATSTAT_R = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5]

# Values from R 4.2.2, spatstat 3.0-3 (spatstat.explore 3.0-6), Debian 12 packages r-cran-spatstat:
#   library(spatstat)
#   x <- c(0.7873, 3.5965, ...); y <- c(0.9041, 0.8481, ...)            # SPATSTAT_X, SPATSTAT_Y
#   W <- owin(poly = list(
#     list(x = c(0, 6, 6, 3, 3, 0), y = c(0, 0, 2, 2, 5, 5)),
#     list(x = c(1, 0.8, 1.5, 2.5, 2), y = c(0.5, 1.2, 1.6, 1.2, 0.5)),  # hole, clockwise
#     list(x = c(7, 10, 8.5), y = c(0, 0, 4))))
#   X <- ppp(x, y, window = W)
#   r <- seq(0, 1.5, by = 0.0001)   # fine grid: spatstat bins distances on it
#   at <- match(c(0.25, 0.5, 0.75, 1.0, 1.25, 1.5), round(r, 4))
#   lam <- 2 * exp(0.1 * x - 0.05 * y)
#   K <- Kest(X, r = r, correction = c("isotropic", "border", "none"))
#   Ki <- Kinhom(X, lambda = lam, r = r, correction = c("isotropic", "border", "none"), renormalise = FALSE)
#   Kr1 <- Kinhom(X, lambda = lam, r = r, correction = c("isotropic", "border"))
#   Kr2 <- Kinhom(X, lambda = lam, r = r, correction = c("isotropic", "border"), normpower = 2)
#   sprintf("%.12g", K$iso[at]); ...                                     # likewise for each column
SPATSTAT_KEST = {
    "isotropic": [0, 0.523592951915, 1.8573804369, 3.09944708873, 4.65287033112, 7.42253262398],
    "border": [0, 0.389621212121, 1.71433333333, 1.71433333333, 2.5715, np.nan],
    "none": [0, 0.413804597701, 1.41875862069, 2.12813793103, 3.07397701149, 4.61096551724],
}
SPATSTAT_KINHOM = {  # (correction, renormalise, normpower)
    ("isotropic", False, 1): [0, 0.134124192967, 0.4547485677, 0.712680515529, 1.12337866066, 1.75122618802],
    ("border", False, 1): [0, 0.245247600947, 0.985115671363, 1.0543013522, 1.51661672137, np.nan],
    ("isotropic", True, 1): [0, 0.287138808094, 0.973545180946, 1.52573692526, 2.40497707775, 3.74909991409],
    ("border", True, 1): [0, 0.525036552063, 2.10897775749, 2.25709342173, 3.24683793487, np.nan],
    ("isotropic", True, 2): [0, 0.61471903979, 2.0842071568, 3.26636285737, 5.14867777633, 8.02623342545],
    ("border", True, 2): [0, 1.12402070372, 4.51498977317, 4.83208212131, 6.95096950122, np.nan],
}


def spatstat_intensity(x, y):
    return 2 * np.exp(0.1 * x - 0.05 * y)


def test_spatstat_reference_radii_are_away_from_ties():
    # spatstat counts d < r on its grid and compares b_i with the previous grid value (0.0001 below);
    # the exact estimators here agree with it only if no distance lies that close to a reference radius.
    window = two_polygons()
    d = np.hypot(SPATSTAT_X[:, None] - SPATSTAT_X, SPATSTAT_Y[:, None] - SPATSTAT_Y)
    b = window.distance_to_boundary(SPATSTAT_X, SPATSTAT_Y)
    for r in SPATSTAT_R:
        assert np.min(np.abs(d - r)) > 1e-3 and np.min(np.abs(b - r)) > 1e-3
    assert window.area == pytest.approx(25.715, rel=1e-12)  # R: area(W)


@pytest.mark.parametrize("use_numba", [True, False])
@pytest.mark.parametrize("correction", ["isotropic", "border", "none"])
def test_matches_spatstat_kest_on_a_polygon_window(correction, use_numba):
    k = kf.k_function(SPATSTAT_X, SPATSTAT_Y, two_polygons(), SPATSTAT_R, correction, use_numba=use_numba)
    np.testing.assert_allclose(k.K, SPATSTAT_KEST[correction], rtol=1e-10)


@pytest.mark.parametrize("use_numba", [True, False])
@pytest.mark.parametrize(("correction", "renormalise", "normpower"), list(SPATSTAT_KINHOM))
def test_matches_spatstat_kinhom_on_a_polygon_window(correction, renormalise, normpower, use_numba):
    k = kf.k_function(
        SPATSTAT_X, SPATSTAT_Y, two_polygons(), SPATSTAT_R, correction, spatstat_intensity,
        renormalise=renormalise, normpower=normpower, use_numba=use_numba,
    )  # fmt: skip
    np.testing.assert_allclose(k.K, SPATSTAT_KINHOM[(correction, renormalise, normpower)], rtol=1e-10)


# R: X <- ppp(x, y, window = owin(c(0, 2), c(0, 1))) with the 20 points below (numpy default_rng(7),
#    uniform, 4 decimals); r <- seq(0, 0.4, by = 0.00001); at <- match(c(0.1, 0.2, 0.3, 0.4), round(r, 5))
#    K <- Kest(X, r = r, correction = c("isotropic", "border", "none")); sprintf("%.12g", K$iso[at]), ...
# spatstat takes its rectangle code path (Krect.engine) here, not the polygon one.
RECT_X = [1.2502, 1.5514, 0.6003, 0.0105, 1.5941, 0.6061, 0.5097, 1.0091, 1.9910, 1.2444, 0.4306, 1.2251, 0.0714,
          0.9324, 1.2585, 0.9937, 0.0236, 1.3841, 0.7391, 1.6601]  # fmt: skip
RECT_Y = [0.8972, 0.2252, 0.8736, 0.8212, 0.4679, 0.2784, 0.4451, 0.5535, 0.7927, 0.9890, 0.1602, 0.0439, 0.5149,
          0.9172, 0.5141, 0.2475, 0.1924, 0.2006, 0.0037, 0.1545]  # fmt: skip
RECT_KEST = {
    "isotropic": [0.0150431229511, 0.0466220703195, 0.123676242002, 0.443983241549],
    "border": [0.00833333333333, 0.0625, 0.125, 0.35],
    "none": [0.0105263157895, 0.0421052631579, 0.105263157895, 0.315789473684],
}


@pytest.mark.parametrize("correction", ["isotropic", "border", "none"])
def test_matches_spatstat_kest_on_a_rectangle(correction):
    k = kf.k_function(RECT_X, RECT_Y, Window.rectangle(0, 0, 2, 1), [0.1, 0.2, 0.3, 0.4], correction)
    np.testing.assert_allclose(k.K, RECT_KEST[correction], rtol=1e-10)


# -- against a brute-force O(n^2) evaluation -----------------------------------------------------


def brute_force_k(x, y, window, radii, correction, lam=None):
    """Every ordered pair, weights from isotropic_weights (full edge sum), border from distance_to_boundary."""
    n = len(x)
    d = np.hypot(x[:, None] - x, y[:, None] - y)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    dij = d[i, j]
    w = np.ones(dij.size) if lam is None else 1.0 / (lam[i] * lam[j])
    if correction == "isotropic":
        w = w * isotropic_weights(window, x[i], y[i], dij)
    out = []
    for r in radii:
        if correction == "border":
            b = window.distance_to_boundary(x, y)
            ok = (dij <= r) & (b[i] >= r)
            den = np.sum(b >= r) if lam is None else np.sum((b >= r) / lam)
            num = np.sum(w[ok])
            out.append(num / den * (window.area / n if lam is None else 1.0) if den > 0 else np.nan)
        else:
            total = np.sum(w[dij <= r])
            out.append(total * window.area / (n * (n - 1)) if lam is None else total / window.area)
    return np.array(out)


@pytest.fixture(scope="module")
def mixed_pattern():
    # 400 uniform points plus points on the boundary: a vertex, the reflex vertex, an edge, a hole vertex.
    window = two_polygons()
    x, y = uniform_in(window, 400, np.random.default_rng(11))
    x = np.concatenate([x, [0.0, 3.0, 8.5, 2.0, 4.5]])
    y = np.concatenate([y, [0.0, 2.0, 0.0, 0.5, 2.0]])
    return window, x, y


@pytest.mark.parametrize("use_numba", [True, False])
@pytest.mark.parametrize("correction", ["isotropic", "border", "none"])
@pytest.mark.parametrize("inhomogeneous", [False, True])
def test_matches_brute_force(mixed_pattern, correction, inhomogeneous, use_numba):
    window, x, y = mixed_pattern
    lam = 3.0 + np.sin(x) + 0.2 * y if inhomogeneous else None
    radii = np.linspace(0.0, 2.5, 26)
    k = kf.k_function(x, y, window, radii, correction, lam, use_numba=use_numba)
    np.testing.assert_allclose(k.K, brute_force_k(x, y, window, radii, correction, lam), rtol=1e-11, atol=1e-14)


def test_numba_and_numpy_paths_agree_on_a_larger_pattern():
    window = regular_polygon(12, 1000.0)
    x, y = uniform_in(window, 3000, np.random.default_rng(3))
    radii = np.linspace(0, 400, 50)
    for correction in kf.CORRECTIONS:
        a = kf.k_function(x, y, window, radii, correction, use_numba=True)
        b = kf.k_function(x, y, window, radii, correction, use_numba=False)
        np.testing.assert_allclose(a.K, b.K, rtol=1e-11)


# -- statistical properties of Poisson patterns ---------------------------------------------------


def ripley_variance(window: Window, n: int, r):
    """Ripley's (1988) approximation to var K_iso(r) under CSR (spatstat's Kest(var.approx=TRUE))."""
    a, p = window.area, window.perimeter
    return 2 * (a / (n - 1)) ** 2 * (np.pi * r**2 / a + 0.96 * p * r**3 / a**2 + 0.13 * (n / a) * p * r**5 / a**2)


POISSON_R = np.array([0.5, 1.0, 1.5, 2.0])


def binomial_k(correction: str, seeds: int = 40, n: int = 300):
    window = regular_polygon(12, 10.0)  # area 300, n / area = 1
    ks = []
    for seed in range(seeds):
        x, y = uniform_in(window, n, np.random.default_rng(seed))
        ks.append(kf.k_function(x, y, window, POISSON_R, correction).K)
    return window, np.array(ks)


def test_isotropic_k_of_a_uniform_pattern_is_pi_r_squared():
    # Given n, Ripley's estimator with lambda^2 = n (n - 1) / |W|^2 is exactly unbiased for a binomial
    # process: E K(r) = pi r^2. Mean of 40 patterns within 4 standard errors at each radius.
    window, ks = binomial_k("isotropic")
    se = ks.std(axis=0, ddof=1) / np.sqrt(ks.shape[0])
    assert np.all(np.abs(ks.mean(axis=0) - np.pi * POISSON_R**2) < 4 * se)
    # single pattern: within 4 sd of Ripley's variance approximation; L(r) - r within 4 sd by the delta method
    sd = np.sqrt(ripley_variance(window, 300, POISSON_R))
    x, y = uniform_in(window, 300, np.random.default_rng(99))
    k = kf.k_function(x, y, window, POISSON_R)
    assert np.all(np.abs(k.K - np.pi * POISSON_R**2) < 4 * sd)
    assert np.all(np.abs(k.L - POISSON_R) < 4 * sd / (2 * np.pi * POISSON_R))


def test_the_poisson_check_has_power_against_no_edge_correction():
    # The uncorrected estimator misses the pairs across the boundary (about P r / (pi |W|), 13% at r = 2):
    # the same check must reject it, else the test above could not detect a wrong weight.
    _, ks = binomial_k("none", seeds=20)
    se = ks.std(axis=0, ddof=1) / np.sqrt(ks.shape[0])
    assert np.abs(ks.mean(axis=0) - np.pi * POISSON_R**2)[-1] > 4 * se[-1]


def test_border_k_of_a_uniform_pattern():
    # Given n, each point with b_i >= r has on average (n - 1) pi r^2 / |W| others within r (they are
    # uniform and the disc is inside W): E K_border(r) = (n - 1) / n * pi r^2.
    _, ks = binomial_k("border")
    se = ks.std(axis=0, ddof=1) / np.sqrt(ks.shape[0])
    assert np.all(np.abs(ks.mean(axis=0) - 299 / 300 * np.pi * POISSON_R**2) < 4 * se)


def test_inhomogeneous_k_of_an_inhomogeneous_poisson_pattern_is_pi_r_squared():
    # Eq. 14 with the true intensity is unbiased for a Poisson process:
    # E sum_{i != j} 1(d <= r) e_ij / (lambda_i lambda_j) = |W| pi r^2 (Campbell's formula).
    window = regular_polygon(12, 10.0)
    xmin, ymin, xmax, ymax = window.bounds

    def intensity(x, y):
        return 0.4 * np.exp(0.15 * x)  # about 0.13 to 3.6 points per squared unit

    lam_max = 0.4 * np.exp(0.15 * xmax)
    ks = []
    for seed in range(40):
        rng = np.random.default_rng(1000 + seed)
        count = rng.poisson(lam_max * (xmax - xmin) * (ymax - ymin))
        x, y = rng.uniform(xmin, xmax, count), rng.uniform(ymin, ymax, count)
        keep = window.contains(x, y) & (rng.uniform(0, lam_max, count) < intensity(x, y))
        ks.append(kf.k_function(x[keep], y[keep], window, POISSON_R, "isotropic", intensity).K)
    ks = np.array(ks)
    se = ks.std(axis=0, ddof=1) / np.sqrt(ks.shape[0])
    assert np.all(np.abs(ks.mean(axis=0) - np.pi * POISSON_R**2) < 4 * se)


# -- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"radii": [0.1, 0.05]}, "radii"),
        ({"radii": [0.1, 0.1]}, "radii"),
        ({"radii": [-0.1, 0.2]}, "radii"),
        ({"radii": [0.1, np.nan]}, "radii"),
        ({"radii": []}, "radii"),
        ({"x": [0.5], "y": [0.5]}, "points"),
        ({"x": [0.5, 1.5], "y": [0.5, 0.5]}, "points"),
        ({"x": [0.5, np.nan], "y": [0.5, 0.5]}, "points"),
        ({"correction": "translate"}, "correction"),
        ({"intensity": [1.0, 0.0]}, "intensity"),
        ({"intensity": [1.0, -2.0]}, "intensity"),
        ({"intensity": [1.0, 2.0, 3.0]}, "intensity"),
        ({"intensity": lambda x, y: -np.ones_like(x)}, "intensity"),
        # 1 / (lambda_i lambda_j) overflows (the K values came out empty, with no message)
        ({"intensity": [1e-300, 1e-300], "radii": [0.5, 1.0]}, "intensity"),
        ({"intensity": [1e-310, 1.0], "radii": [0.5, 1.0]}, "intensity"),
        ({"intensity": [1.0, 2.0], "renormalise": True, "normpower": 3}, "normpower"),
        ({"window": "unit square"}, "window"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, parameter):
    args = {"x": [0.2, 0.7], "y": [0.3, 0.6], "window": Window.rectangle(0, 0, 1, 1), "radii": [0.1, 0.2]}
    args.update(kwargs)
    with pytest.raises(ParameterError) as info:
        kf.k_function(**args)
    assert info.value.parameter == parameter


def test_progress_is_reported_and_can_cancel():
    window = Window.rectangle(0, 0, 1, 1)
    x, y = uniform_in(window, 200, np.random.default_rng(0))
    seen = []
    kf.k_function(x, y, window, [0.1], progress=lambda f, m: seen.append(f))
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen)

    def cancel(fraction, message):
        if fraction > 0.5:
            raise RuntimeError("cancelled")

    with pytest.raises(RuntimeError, match="cancelled"):
        kf.k_function(x, y, window, [0.1], progress=cancel)


def test_default_radii_follow_spatstat_rmax_rule():
    window = Window.rectangle(0, 0, 100, 40)
    # few points: a quarter of the short side; many points: sqrt(1000 / (pi lambda))
    assert default_radii(window, 10)[-1] == pytest.approx(10.0)
    r = default_radii(window, 400_000, count=50)  # lambda = 100
    assert r.size == 50 and r[0] == 0.0 and r[-1] == pytest.approx(math.sqrt(1000 / (math.pi * 100.0)))


# -- MISE ----------------------------------------------------------------------------------------


def test_mise_by_hand():
    r = np.array([0.0, 1.0, 2.0, 3.0])
    k_ori = np.array([0.0, 1.0, 4.0, 9.0])
    # identical: 0
    assert mise(r, k_ori, k_ori) == 0.0
    # twice as large: integrand 1 on {K_ori > 0} = [1, 3] (r = 0 is left out): 2
    assert mise(r, 2 * k_ori, k_ori) == pytest.approx(2.0)
    # K_syn = K_ori (1 + r): integrand r^2, trapezoid on 1, 2, 3: (1 + 4) / 2 + (4 + 9) / 2 = 9
    assert mise(r, k_ori * (1 + r), k_ori) == pytest.approx(9.0)
    # where K_ori = 0 the synthetic value does not matter
    assert mise(r, np.array([5.0, 1.0, 4.0, 9.0]), k_ori) == 0.0


def test_mise_average_over_synthetic_sets_and_originals():
    r = np.array([0.0, 1.0, 2.0, 3.0])
    k_ori = np.array([0.0, 1.0, 4.0, 9.0])
    syn = np.stack([k_ori, 2 * k_ori, k_ori * (1 + r)])  # MISE 0, 2, 9
    assert mean_mise(r, syn, k_ori) == pytest.approx(11 / 3)
    np.testing.assert_allclose(mise(r, syn, k_ori), [0.0, 2.0, 9.0])
    # two originals with their own synthetic sets: 1 / (n_ori n_syn) sum_j sum_k
    k_ori2 = np.stack([k_ori, 3 * k_ori])
    syn2 = np.stack([syn, np.stack([3 * k_ori, 6 * k_ori, 3 * k_ori])])  # second: 0, 2, 0
    assert mean_mise(r, syn2, k_ori2) == pytest.approx((0 + 2 + 9 + 0 + 2 + 0) / 6)
    with pytest.raises(ParameterError):
        mean_mise(r, k_ori, k_ori)
    with pytest.raises(ParameterError):
        mise(r, k_ori[:3], k_ori)
    with pytest.raises(ParameterError):
        mise(r[::-1], k_ori, k_ori)


def test_mise_of_k_functions_of_two_patterns():
    """Two independent uniform patterns: by the delta method E (K_b / K_a - 1)^2 ~ 2 var K(r) / (pi r^2)^2, so
    E MISE ~ the integral of that with Ripley's variance. Radii from 0.5 (about 300 pairs within it), where the
    approximation holds. If the errors at all radii were one Gaussian (the heaviest tail), the MISE would be
    E times a chi-square(1), above 10.83 E with probability 0.001."""
    window = Window.rectangle(0, 0, 10, 10)
    radii = np.linspace(0.5, 2.5, 21)
    expected = np.trapz(2 * ripley_variance(window, 200, radii) / (np.pi * radii**2) ** 2, radii)
    a = kf.k_function(*uniform_in(window, 200, np.random.default_rng(1)), window, radii)
    b = kf.k_function(*uniform_in(window, 200, np.random.default_rng(2)), window, radii)
    assert 0 < mise(radii, b.K, a.K) < 10.83 * expected
    assert mise(radii, a.K, a.K) == 0.0
