"""Placing points on a network and shortest-path distances (core.network.placement, .distances).

References: spatstat 3.0 (spatstat.linnet 3.0-6) on ``chicago`` (its crimes' segments, positions and
``pairdist``), exact point-to-segment distances to every edge, and Dijkstra on the network with the points
inserted as vertices (an independent construction: edges split at the points).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.csgraph import dijkstra

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.jit import HAVE_NUMBA
from spatial_privacy.core.network.distances import point_distances, point_pairs_within, vertex_distances
from spatial_privacy.core.network.network import LinearNetwork, NetworkPoints, build_network
from spatial_privacy.core.network.placement import place_points

ENGINES = [pytest.param(True, marks=pytest.mark.skipif(not HAVE_NUMBA, reason="numba missing")), False]


def perturbed_grid(seed: int = 1, size: int = 6) -> LinearNetwork:
    """Streets of a perturbed grid, each line one polyline, crossing without shared vertices."""
    rng = np.random.default_rng(seed)
    lines = []
    for i in range(size):
        ticks = np.linspace(0, size - 1, size)
        lines.append(np.column_stack([ticks, i + rng.normal(0, 0.1, size)]))
        lines.append(np.column_stack([i + rng.normal(0, 0.1, size), ticks]))
    net, _ = build_network(lines, 0.0)
    return net


def insert_points(net: LinearNetwork, points: NetworkPoints):
    """The network with the points inserted as vertices: (vertices, edges, lengths, vertex of each point)."""
    x, y = points.xy(net)
    vertices = np.vstack([net.vertices, np.column_stack([x, y])])
    ids = net.n_vertices + np.arange(len(points))
    index = np.arange(net.n_edges)
    segment = np.concatenate([index, points.edge, index])
    key = np.concatenate([np.zeros(net.n_edges), points.t, np.ones(net.n_edges)])
    rank = np.concatenate([np.zeros(net.n_edges), np.ones(len(points)), np.full(net.n_edges, 2)])
    vertex = np.concatenate([net.edges[:, 0], ids, net.edges[:, 1]])
    order = np.lexsort((rank, key, segment))
    segment, key, vertex = segment[order], key[order], vertex[order]
    same = segment[1:] == segment[:-1]
    lengths = (key[1:] - key[:-1])[same] * net.lengths[segment[1:][same]]
    return vertices, np.column_stack([vertex[:-1][same], vertex[1:][same]]), lengths, ids


def reference_distances(net: LinearNetwork, a: NetworkPoints, b: NetworkPoints) -> np.ndarray:
    both = NetworkPoints(np.concatenate([a.edge, b.edge]), np.concatenate([a.t, b.t]))
    vertices, edges, lengths, ids = insert_points(net, both)
    n = len(vertices)
    # points at the same place are joined by a zero-length edge: give it the smallest positive weight
    weights = np.maximum(lengths, 1e-300)
    graph = sparse.coo_matrix((weights, (edges[:, 0], edges[:, 1])), shape=(n, n)).tocsr()
    distances = dijkstra(graph, directed=False, indices=ids[: len(a)])
    return distances[:, ids[len(a) :]]


def random_points(net: LinearNetwork, n: int, rng) -> NetworkPoints:
    return NetworkPoints(rng.integers(0, net.n_edges, n), rng.uniform(0, 1, n))


def test_placement_is_the_nearest_location_on_any_edge():
    net = perturbed_grid()
    rng = np.random.default_rng(5)
    x, y = rng.uniform(-2, 7, 4000), rng.uniform(-2, 7, 4000)
    x[:3], y[:3] = net.vertices[:3, 0], net.vertices[:3, 1]  # exactly at vertices
    points, moved = place_points(net, x, y)
    start, direction = net.edge_starts(), net.edge_ends() - net.edge_starts()
    t = ((x[:, None] - start[:, 0]) * direction[:, 0] + (y[:, None] - start[:, 1]) * direction[:, 1]) / net.lengths**2
    t = np.clip(t, 0, 1)
    gap = np.hypot(start[:, 0] + t * direction[:, 0] - x[:, None], start[:, 1] + t * direction[:, 1] - y[:, None])
    np.testing.assert_allclose(moved, gap.min(axis=1), rtol=0, atol=1e-12)
    px, py = points.xy(net)
    np.testing.assert_allclose(np.hypot(px - x, py - y), moved, atol=1e-12)
    assert moved[:3].max() < 1e-12


def test_placement_refuses_points_farther_than_the_bound():
    net = perturbed_grid()
    x, y = np.array([1.0, 2.0, 50.0, -40.0]), np.array([1.0, 2.05, 50.0, 1.0])
    with pytest.raises(ParameterError) as raised:
        place_points(net, x, y, max_distance=1.0)
    assert raised.value.parameter == "points" and "2 of 4 points" in str(raised.value)
    _, moved = place_points(net, x[:2], y[:2], max_distance=1.0)
    assert moved.max() < 0.5
    with pytest.raises(ParameterError) as raised:
        place_points(net, [np.nan], [0.0])
    assert raised.value.parameter == "points"
    assert len(place_points(net, [], [])[0]) == 0


@pytest.mark.parametrize("use_numba", ENGINES)
def test_chicago_crimes_are_placed_and_measured_as_spatstat_does(chicago_streets, chicago_crimes, use_numba):
    net, _ = build_network(chicago_streets, 0.0)
    points, moved = place_points(net, *chicago_crimes)
    assert moved.max() < 1e-9  # spatstat's crimes lie on the streets
    # coords(chicago)[1:3, ]: seg 37, 54, 53 (1-based); tp 0.9999999, 0.3698532, 0.7415271
    np.testing.assert_array_equal(points.edge[:3], [36, 53, 52])
    np.testing.assert_allclose(points.t[:3], [0.9999999, 0.3698532, 0.7415271], atol=1e-7)
    # D <- pairdist(chicago); sprintf("%.10f", c(sum(D), max(D), D[1,2], D[5,77], D[100,3], D[10,11]))
    reference = [8068350.8599760113, 1627.9500199746, 557.9952312367, 595.7788657209, 1012.3162333457, 142.0004374795]
    d = point_distances(net, points, points, use_numba=use_numba)
    found = [d.sum(), d.max(), d[0, 1], d[4, 76], d[99, 2], d[9, 10]]
    np.testing.assert_allclose(found, reference, rtol=1e-12)
    np.testing.assert_allclose(d, d.T, atol=1e-9)


@pytest.mark.parametrize("use_numba", ENGINES)
def test_distances_match_dijkstra_with_the_points_inserted(use_numba):
    net = perturbed_grid()
    rng = np.random.default_rng(7)
    a, b = random_points(net, 40, rng), random_points(net, 30, rng)
    # pairs on one edge, one location at a vertex end (t = 0 and 1), and the same location twice
    b = NetworkPoints(np.concatenate([b.edge, a.edge[:6], [0, 0]]), np.concatenate([b.t, rng.uniform(0, 1, 6), [0, 1]]))
    a = NetworkPoints(np.concatenate([a.edge, [b.edge[0]]]), np.concatenate([a.t, [b.t[0]]]))
    reference = reference_distances(net, a, b)
    found = point_distances(net, a, b, use_numba=use_numba)
    np.testing.assert_allclose(found, reference, rtol=1e-12, atol=1e-12)
    assert found[-1, 0] == 0.0
    limited = point_distances(net, a, b, limit=1.5, use_numba=use_numba)
    np.testing.assert_array_equal(np.isinf(limited), reference > 1.5)
    np.testing.assert_allclose(limited[reference <= 1.5], reference[reference <= 1.5], rtol=1e-12, atol=1e-12)
    everywhere = NetworkPoints.at_vertices(net, np.arange(net.n_vertices))
    np.testing.assert_allclose(
        vertex_distances(net, a, use_numba=use_numba), reference_distances(net, a, everywhere), atol=1e-12
    )
    within = vertex_distances(net, a, limit=1.0, use_numba=use_numba)
    full = vertex_distances(net, a, use_numba=use_numba)
    np.testing.assert_array_equal(within[full <= 1.0], full[full <= 1.0])
    assert np.all(np.isinf(within[full > 1.0]))


@pytest.mark.parametrize("use_numba", ENGINES)
def test_pairs_within_a_limit_are_the_dense_distances_cut_there(use_numba):
    net = perturbed_grid(seed=2)
    rng = np.random.default_rng(11)
    a = random_points(net, 200, rng)
    dense = point_distances(net, a, a)
    i, j, d = point_pairs_within(net, a, a, 1.2, use_numba=use_numba)
    expected = np.argwhere(dense <= 1.2)
    assert len(i) == len(expected)
    np.testing.assert_array_equal(np.sort(i * 200 + j), expected[:, 0] * 200 + expected[:, 1])
    np.testing.assert_allclose(d, dense[i, j], rtol=1e-12, atol=1e-14)
    assert np.all(np.diff(i) >= 0)
    assert np.all(d[i == j] == 0)
    with pytest.raises(ParameterError) as raised:
        point_pairs_within(net, a, a, np.inf)
    assert raised.value.parameter == "limit"


@pytest.mark.parametrize("use_numba", ENGINES)
def test_distances_between_components_are_infinite(use_numba):
    lines = [np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([[5.0, 0.0], [6.0, 0.0], [6.0, 1.0]])]
    net, _ = build_network(lines, 0.0)
    points = NetworkPoints([0, 1, 2], [0.5, 0.5, 0.5])
    d = point_distances(net, points, points, use_numba=use_numba)
    np.testing.assert_allclose(d, [[0, np.inf, np.inf], [np.inf, 0, 1.0], [np.inf, 1.0, 0]])
    v = vertex_distances(net, points, use_numba=use_numba)
    np.testing.assert_allclose(v[0], [0.5, 0.5, np.inf, np.inf, np.inf])


def test_snow_deaths_are_placed_on_the_nearest_street(snow_streets, snow_deaths):
    net, _ = build_network(snow_streets, 0.0)
    x, y = snow_deaths
    points, moved = place_points(net, x, y)
    assert len(points) == 578
    start, direction = net.edge_starts(), net.edge_ends() - net.edge_starts()
    t = ((x[:, None] - start[:, 0]) * direction[:, 0] + (y[:, None] - start[:, 1]) * direction[:, 1]) / net.lengths**2
    t = np.clip(t, 0, 1)
    gap = np.hypot(start[:, 0] + t * direction[:, 0] - x[:, None], start[:, 1] + t * direction[:, 1] - y[:, None])
    np.testing.assert_allclose(moved, gap.min(axis=1), atol=1e-12)
    # the houses stand beside the streets: about 12 m on average, 42 m at most (1 unit is about 100 m)
    assert 0.10 < moved.mean() < 0.14 and 0.40 < moved.max() < 0.43
    with pytest.raises(ParameterError, match="lie farther than 0.3"):
        place_points(net, x, y, max_distance=0.3)
