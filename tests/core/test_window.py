"""Study windows (core.window): area, orientation, point-in-polygon, distances, boundary points."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core import window as window_module
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.window import Window


def signed_area(ring):
    x, y = ring[:, 0], ring[:, 1]
    return 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)


def square(x0, y0, side):
    return [(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)]


def brute_contains(rings, px, py):
    """Reference even-odd rule: one ray per point, every edge, plain loops."""
    out = []
    for x, y in zip(px, py):
        inside = False
        for ring in rings:
            k = len(ring)
            for i in range(k):
                (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % k]
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    inside = not inside
        out.append(inside)
    return np.array(out)


def brute_distance(rings, px, py):
    best = np.full(px.shape, np.inf)
    for ring in rings:
        a, b = ring, np.roll(ring, -1, axis=0)
        for (ax, ay), (bx, by) in zip(a, b):
            dx, dy = bx - ax, by - ay
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy), 0, 1)
            best = np.minimum(best, np.hypot(ax + t * dx - px, ay + t * dy - py))
    return best


@pytest.fixture(scope="module")
def star_with_holes():
    """A non-convex 40-point star with a hole, plus an island inside the hole, plus a second polygon."""
    rng = np.random.default_rng(11)
    th = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    r = np.where(np.arange(40) % 2 == 0, 10.0, 5.0) + rng.uniform(-0.5, 0.5, 40)
    star = np.column_stack([r * np.cos(th), r * np.sin(th)])
    hole = [(-2, -2), (-2, 2), (2, 2), (2, -2)]  # clockwise
    island = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    other = [(20, 0), (30, 0), (25, 6)]
    return Window.from_polygons([(star, [hole]), (island, []), other])


# -- construction, orientation and area ----------------------------------------------------------


def test_area_of_square_with_square_hole():
    w = Window.from_polygons([(square(0, 0, 4), [square(1, 1, 1)])])
    assert w.area == pytest.approx(16.0 - 1.0, rel=1e-15)
    assert w.has_holes
    assert w.bounds == (0.0, 0.0, 4.0, 4.0)
    assert w.perimeter == pytest.approx(16.0 + 4.0, rel=1e-15)


def test_orientation_is_normalised_and_closing_vertex_dropped():
    ext_cw_closed = [(0, 0), (0, 3), (3, 3), (3, 0), (0, 0)]  # clockwise and closed
    hole_ccw = [(1, 1), (2, 1), (2, 2), (1, 2)]  # counter-clockwise
    w = Window.from_polygons([(ext_cw_closed, [hole_ccw])])
    ext, hole = w.rings
    assert ext.shape == (4, 2) and hole.shape == (4, 2)  # open rings
    assert signed_area(ext) == pytest.approx(9.0)  # now counter-clockwise
    assert signed_area(hole) == pytest.approx(-1.0)  # now clockwise
    assert w.area == pytest.approx(8.0)
    same = Window.from_polygons([(square(0, 0, 3), [[(1, 1), (1, 2), (2, 2), (2, 1)]])])
    assert same.area == w.area


def test_repeated_vertices_are_dropped():
    w = Window.from_polygons([[(0, 0), (0, 0), (2, 0), (2, 2), (2, 2), (0, 2), (0, 0)]])
    assert w.rings[0].shape == (4, 2)
    assert w.area == pytest.approx(4.0)


def test_rings_are_read_only():
    w = Window.rectangle(0, 0, 1, 1)
    with pytest.raises(ValueError):
        w.rings[0][0, 0] = 5.0


@pytest.mark.parametrize(
    "polygons",
    [
        [[(0, 0), (1, 1)]],  # two vertices
        [[(0, 0), (1, 1), (0, 0), (1, 1)]],  # two distinct vertices
        [[(0, 0), (1, 1), (2, 2)]],  # collinear: zero area
        [[(0, 0), (1, 0), (float("nan"), 1)]],
        [(square(0, 0, 2), [[(0.5, 0.5), (0.6, 0.6), (0.7, 0.7)]])],  # degenerate hole
        [(square(0, 0, 2), [square(3, 3, 1)])],  # hole outside its exterior
        [],
    ],
)
def test_bad_rings_are_refused(polygons):
    with pytest.raises(ParameterError) as info:
        Window.from_polygons(polygons)
    assert info.value.parameter == "window"


def test_rectangle_and_around_points():
    w = Window.rectangle(1, 2, 4, 3)
    assert w.area == pytest.approx(3.0)
    assert w.bounds == (1.0, 2.0, 4.0, 3.0)
    assert not w.has_holes
    x = np.array([0.0, 10.0, 5.0])
    y = np.array([0.0, 4.0, 1.0])
    a = Window.around_points(x, y, margin=0.1)  # pad = 0.1 * max(10, 4) = 1
    assert a.bounds == pytest.approx((-1.0, -1.0, 11.0, 5.0), rel=1e-15)
    assert a.contains(x, y).all()
    with pytest.raises(ParameterError) as info:
        Window.rectangle(0, 0, 0, 1)
    assert info.value.parameter == "window"
    with pytest.raises(ParameterError) as info:
        Window.around_points([1.0, 1.0], [2.0, 2.0])
    assert info.value.parameter == "points"
    with pytest.raises(ParameterError) as info:
        Window.around_points(x, y, margin=-0.1)
    assert info.value.parameter == "margin"


def test_multipolygon_area_with_island_in_hole(star_with_holes):
    rings = star_with_holes.rings
    assert len(rings) == 4
    expected = abs(signed_area(rings[0])) - 16.0 + 4.0 + 30.0
    assert star_with_holes.area == pytest.approx(expected, rel=1e-13)


# -- contains -----------------------------------------------------------------------------------


def test_contains_hole_boundary_and_outside():
    w = Window.from_polygons([(square(0, 0, 4), [square(1, 1, 1)])])
    x = np.array([0.5, 1.5, 1.0, 1.5, 0.0, 4.0, 2.0, 4.0 + 1e-6, -1.0, 3.0])
    y = np.array([0.5, 1.5, 1.5, 1.0, 0.0, 2.0, 4.0, 2.0, -1.0, 3.0])
    expected = [True, False, True, True, True, True, True, False, False, True]
    # inside, in the hole, on the hole's edges, on the exterior's corner and edges, just outside, outside, inside
    assert w.contains(x, y).tolist() == expected


def test_contains_boundary_with_large_coordinates():
    # Dutch RD coordinates: vertices ~ 1e5 m; points on a slanted edge computed in floating point
    ring = np.array([(120_000.0, 480_000.0), (121_000.0, 480_300.0), (120_400.0, 481_000.0)])
    w = Window.from_polygons([ring])
    t = np.linspace(0, 1, 101)
    on_edge = ring[0] + t[:, None] * (ring[1] - ring[0])
    assert w.contains(on_edge[:, 0], on_edge[:, 1]).all()
    normal = np.array([0.3, -1.0]) / math.hypot(0.3, 1.0)  # outward normal of that edge
    outside = on_edge[1:-1] + 1e-3 * normal
    assert not w.contains(outside[:, 0], outside[:, 1]).any()


def test_contains_matches_brute_force(star_with_holes):
    rng = np.random.default_rng(2)
    x = rng.uniform(-12, 32, 4000)
    y = rng.uniform(-12, 12, 4000)
    got = star_with_holes.contains(x, y)
    assert np.array_equal(got, brute_contains(star_with_holes.rings, x, y))
    assert got.any() and not got.all()
    # every vertex is on the boundary, hence inside
    allv = np.concatenate(star_with_holes.rings)
    assert star_with_holes.contains(allv[:, 0], allv[:, 1]).all()


def test_contains_keeps_shape():
    w = Window.rectangle(0, 0, 1, 1)
    x, y = np.meshgrid(np.linspace(-0.5, 1.5, 5), np.linspace(-0.5, 1.5, 3))
    assert w.contains(x, y).shape == (3, 5)
    assert bool(w.contains(0.5, 0.5))


# -- distances and boundary points ---------------------------------------------------------------


@pytest.mark.parametrize("direct_edges", [window_module._DIRECT_EDGES, 0], ids=["every edge", "segment index"])
def test_distance_to_boundary_matches_brute_force(star_with_holes, direct_edges, monkeypatch):
    # the star's 51 edges take the direct path by default; with no direct path, the k-d tree over pieces
    assert star_with_holes._edges[0].size == 51
    monkeypatch.setattr(window_module, "_DIRECT_EDGES", direct_edges)
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.uniform(-12, 32, 3000), rng.uniform(-1e3, 1e3, 200)])
    y = np.concatenate([rng.uniform(-12, 12, 3000), rng.uniform(-1e3, 1e3, 200)])
    got = star_with_holes.distance_to_boundary(x, y)
    expected = brute_distance(star_with_holes.rings, x, y)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    bounded = star_with_holes.distance_to_boundary(x, y, upper_bound=1.5)
    near = expected <= 1.5
    np.testing.assert_allclose(bounded[near], expected[near], rtol=1e-12, atol=1e-12)
    assert np.isinf(bounded[~near]).all()


def test_distance_in_a_rectangle_by_hand():
    w = Window.rectangle(0, 0, 4, 2)
    d = w.distance_to_boundary([2.0, 1.0, 5.0, 2.0, 7.0], [1.0, 0.5, 1.0, 2.0, 6.0])
    np.testing.assert_allclose(d, [1.0, 0.5, 1.0, 0.0, 5.0], atol=1e-15)


def test_boundary_points_spacing_and_vertices():
    w = Window.from_polygons([(square(0, 0, 4), [square(1, 1, 1)]), [(10, 0), (13, 0), (10, 4)]])
    spacing = 0.7
    pts = w.boundary_points(spacing)
    # every vertex is included
    for ring in w.rings:
        for v in ring:
            assert np.min(np.hypot(*(pts - v).T)) == 0.0
    # per edge of length L: ceil(L / spacing) points, so the count is known exactly
    lengths = [4] * 4 + [1] * 4 + [3, 5, 4]
    assert pts.shape == (sum(math.ceil(L / spacing) for L in lengths), 2)
    # consecutive points within a ring (and around its closing edge) are <= spacing apart
    start = 0
    for ring, n_edges in zip(w.rings, (4, 4, 3)):
        k = sum(math.ceil(L / spacing) for L in lengths[:n_edges])
        lengths = lengths[n_edges:]
        r = pts[start : start + k]
        gaps = np.hypot(*(np.roll(r, -1, axis=0) - r).T)
        assert gaps.max() <= spacing * (1 + 1e-12)
        assert np.array_equal(r[0], ring[0])
        start += k
    assert w.contains(pts[:, 0], pts[:, 1]).all()
    with pytest.raises(ParameterError) as info:
        w.boundary_points(0.0)
    assert info.value.parameter == "spacing"


@pytest.mark.parametrize("radius", [0.3, 1.0, 2.5, 30.0])
def test_disc_area_matches_shapely_on_a_window_with_a_hole(radius):
    import shapely.geometry as shapely_geometry  # a project dependency: must fail, not skip, if missing

    outer, hole = [(0, 0), (10, 0), (10, 8), (0, 8)], [(3, 3), (6, 3), (7, 5), (3, 6)]
    window = Window.from_polygons([(outer, [hole])])
    poly = shapely_geometry.Polygon(outer, [hole])
    rng = np.random.default_rng(1)
    x, y = rng.uniform(-2, 12, 200), rng.uniform(-2, 10, 200)  # inside, near the hole, outside, far away
    ref = [poly.intersection(shapely_geometry.Point(a, b).buffer(radius, 4096)).area for a, b in zip(x, y)]
    # shapely's 16,384-gon loses about (2 pi / 16384)^2 / 6 of a full disc's area
    assert np.allclose(window.disc_area(x, y, radius), ref, rtol=1e-5, atol=1e-6 * radius**2)
    with pytest.raises(ParameterError):
        window.disc_area(x, y, 0.0)
