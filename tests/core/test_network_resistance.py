"""The resistance metric on linear networks (core.network.resistance; Anderes, Møller & Rasmussen 2020, Kim & Lim
Appendix E.2).

Checked against: the shortest-path distance on trees; ``d (C - d) / C`` on a cycle of length ``C``; the series
and parallel rules; the Moore-Penrose inverse of the Laplacian of the network with the locations inserted as
vertices (electrically the same network); and Kim & Lim's own definition, eqs. 22-23, ``Var(Z_L(u) - Z_L(v))``
with ``Z_mu ~ N(0, C^-1)``, ``C = L + e_o e_o'`` for an arbitrary vertex ``u_o``, plus independent Brownian
bridges on the edges.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from spatial_privacy.core.jit import HAVE_NUMBA
from spatial_privacy.core.network.distances import point_distances
from spatial_privacy.core.network.network import LinearNetwork, NetworkPoints, build_network
from spatial_privacy.core.network.placement import place_points
from spatial_privacy.core.network.resistance import resistance_distances, resistance_pairs

ENGINES = [pytest.param(True, marks=pytest.mark.skipif(not HAVE_NUMBA, reason="numba missing")), False]


def laplacian(n: int, edges: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    weights = sparse.coo_matrix((1.0 / lengths, (edges[:, 0], edges[:, 1])), shape=(n, n)).toarray()
    weights = weights + weights.T
    return np.diag(weights.sum(axis=1)) - weights


def reference_by_insertion(net: LinearNetwork, a: NetworkPoints, b: NetworkPoints) -> np.ndarray:
    """Effective resistances from the pseudo-inverse of the Laplacian with every location inserted as a vertex."""
    both = NetworkPoints(np.concatenate([a.edge, b.edge]), np.concatenate([a.t, b.t]))
    x, y = both.xy(net)
    ids = net.n_vertices + np.arange(len(both))
    index = np.arange(net.n_edges)
    segment = np.concatenate([index, both.edge, index])
    key = np.concatenate([np.zeros(net.n_edges), both.t, np.ones(net.n_edges)])
    rank = np.concatenate([np.zeros(net.n_edges), np.ones(len(both)), np.full(net.n_edges, 2)])
    vertex = np.concatenate([net.edges[:, 0], ids, net.edges[:, 1]])
    order = np.lexsort((rank, key, segment))
    segment, key, vertex = segment[order], key[order], vertex[order]
    same = segment[1:] == segment[:-1]
    lengths = (key[1:] - key[:-1])[same] * net.lengths[segment[1:][same]]
    edges = np.column_stack([vertex[:-1][same], vertex[1:][same]])
    n = net.n_vertices + len(both)
    # locations at a vertex or at the same place are that vertex: contract the zero-length edges
    zero = lengths == 0
    _, label = connected_components(sparse.coo_matrix((np.ones(zero.sum()), edges[zero].T), shape=(n, n)))
    edges, lengths, ids = label[edges[~zero]], lengths[~zero], label[ids]
    pinv = np.linalg.pinv(laplacian(label.max() + 1, edges, lengths))
    d = np.diag(pinv)[ids]
    r = d[:, None] + d[None, :] - 2 * pinv[np.ix_(ids, ids)]
    return r[: len(a), len(a) :]


def reference_by_definition(net: LinearNetwork, a: NetworkPoints, b: NetworkPoints, origin: int) -> np.ndarray:
    """Kim & Lim eqs. 22-23 with C = L + e_o e_o' (u_o = ``origin``)."""
    c = laplacian(net.n_vertices, net.edges, net.lengths)
    c[origin, origin] += 1.0
    covariance = np.linalg.inv(c)

    def weights(points):
        f = np.zeros((len(points), net.n_vertices))
        rows = np.arange(len(points))
        np.add.at(f, (rows, net.edges[points.edge, 0]), 1.0 - points.t)
        np.add.at(f, (rows, net.edges[points.edge, 1]), points.t)
        return f

    fa, fb = weights(a), weights(b)
    var_a = np.einsum("ij,jk,ik->i", fa, covariance, fa) + net.lengths[a.edge] * a.t * (1 - a.t)
    var_b = np.einsum("ij,jk,ik->i", fb, covariance, fb) + net.lengths[b.edge] * b.t * (1 - b.t)
    cov = fa @ covariance @ fb.T
    same = a.edge[:, None] == b.edge[None, :]
    bridge = (np.minimum(a.t[:, None], b.t[None, :]) - a.t[:, None] * b.t[None, :]) * net.lengths[a.edge][:, None]
    cov = cov + np.where(same, bridge, 0.0)
    return var_a[:, None] + var_b[None, :] - 2 * cov


def grid_network(seed: int = 4) -> LinearNetwork:
    rng = np.random.default_rng(seed)
    lines = []
    for i in range(5):
        ticks = np.linspace(0, 4, 5)
        lines.append(np.column_stack([ticks, i + rng.normal(0, 0.1, 5)]))
        lines.append(np.column_stack([i + rng.normal(0, 0.1, 5), ticks]))
    return build_network(lines, 0.0)[0]


def random_points(net: LinearNetwork, n: int, rng) -> NetworkPoints:
    return NetworkPoints(rng.integers(0, net.n_edges, n), rng.uniform(0, 1, n))


@pytest.mark.parametrize("use_numba", ENGINES)
def test_on_a_tree_it_is_the_shortest_path_distance(use_numba):
    rng = np.random.default_rng(0)
    vertices = rng.uniform(0, 10, (60, 2))
    parents = np.array([rng.integers(0, k) for k in range(1, 60)])
    net = LinearNetwork.from_segments(vertices, np.column_stack([parents, np.arange(1, 60)]))
    a, b = random_points(net, 50, rng), random_points(net, 40, rng)
    b = NetworkPoints(np.concatenate([b.edge, a.edge[:5]]), np.concatenate([b.t, rng.uniform(0, 1, 5)]))
    np.testing.assert_allclose(
        resistance_distances(net, a, b, use_numba=use_numba), point_distances(net, a, b), rtol=1e-9, atol=1e-9
    )


@pytest.mark.parametrize("use_numba", ENGINES)
def test_on_a_cycle_it_is_d_times_c_minus_d_over_c(use_numba):
    angle = np.linspace(0, 2 * np.pi, 9)[:-1]
    ring = np.column_stack([np.cos(angle), np.sin(angle)]) * [3.0, 1.0]  # an ellipse: unequal edges
    net, _ = build_network([np.vstack([ring, ring[:1]])], 0.0)
    circumference = net.total_length
    rng = np.random.default_rng(1)
    a = random_points(net, 30, rng)
    d = point_distances(net, a, a)
    r = resistance_distances(net, a, a, use_numba=use_numba)
    np.testing.assert_allclose(r, d * (circumference - d) / circumference, rtol=1e-10, atol=1e-12)


def test_series_and_parallel_rules():
    h = 0.75
    lines = [
        np.array([[0.0, 0.0], [2.0, 0.0]]),  # straight: l1 = 2
        np.array([[0.0, 0.0], [1.0, h], [2.0, 0.0]]),  # a roof: l2 = 2 sqrt(1 + h^2)
        np.array([[2.0, 0.0], [3.5, 0.0]]),  # a tail in series: l3 = 1.5
    ]
    net, _ = build_network(lines, 0.0)
    l1, l2, l3 = 2.0, 2 * np.hypot(1.0, h), 1.5
    ends = NetworkPoints.at_vertices(net, [0, 1, 3])  # (0, 0), (2, 0), (3.5, 0)
    assert np.allclose(np.column_stack(ends.xy(net)), [[0, 0], [2, 0], [3.5, 0]])
    r = resistance_distances(net, ends, ends)
    parallel = l1 * l2 / (l1 + l2)
    np.testing.assert_allclose(r[0, 1], parallel, rtol=1e-12)
    np.testing.assert_allclose(r[0, 2], parallel + l3, rtol=1e-12)
    np.testing.assert_allclose(r[1, 2], l3, rtol=1e-12)
    # the middle of the straight edge sits on a loop of length l1 + l2, 1 from (0, 0): d (C - d) / C
    middle = NetworkPoints([0], [0.5])
    np.testing.assert_allclose(resistance_distances(net, middle, ends)[0, 0], 1 * (l1 + l2 - 1) / (l1 + l2))


@pytest.mark.parametrize("use_numba", ENGINES)
def test_matches_the_laplacian_with_the_locations_inserted_and_kim_lims_definition(use_numba):
    net = grid_network()
    rng = np.random.default_rng(2)
    a, b = random_points(net, 25, rng), random_points(net, 20, rng)
    # same-edge pairs and vertex locations
    b = NetworkPoints(np.concatenate([b.edge, a.edge[:5], [0, 3]]), np.concatenate([b.t, rng.uniform(0, 1, 5), [0, 1]]))
    found = resistance_distances(net, a, b, use_numba=use_numba)
    np.testing.assert_allclose(found, reference_by_insertion(net, a, b), rtol=1e-9, atol=1e-11)
    for origin in (0, net.n_vertices - 1):  # the definition does not depend on u_o
        np.testing.assert_allclose(found, reference_by_definition(net, a, b, origin), rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(
        resistance_pairs(net, a.take(np.arange(20)), b.take(np.arange(20))), np.diag(found[:20, :20])
    )


def test_it_is_a_metric_below_the_shortest_path_distance(chicago_streets, chicago_crimes):
    net, _ = build_network(chicago_streets, 0.0)
    points, _ = place_points(net, *chicago_crimes)
    r = resistance_distances(net, points, points)
    assert np.all(np.diag(r) < 1e-9) and np.allclose(r, r.T, atol=1e-9)
    d = point_distances(net, points, points)
    assert np.all(r <= d + 1e-9)  # Rayleigh: adding parallel paths only lowers the resistance
    assert 0.2 < np.median(r[d > 0] / d[d > 0]) < 0.9  # a grid of streets: many parallel paths
    i, j, k = np.random.default_rng(3).integers(0, len(points), (3, 2000))
    assert np.all(r[i, k] <= r[i, j] + r[j, k] + 1e-9)
    np.testing.assert_allclose(r, reference_by_definition(net, points, points, 0), rtol=1e-10, atol=1e-9)
    # (inserting the crimes splits off pieces as short as 1e-5 ft, which costs the pseudo-inverse digits)
    some = points.take(slice(0, 40))
    np.testing.assert_allclose(r[:40, :40], reference_by_insertion(net, some, some), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("use_numba", ENGINES)
def test_between_components_it_is_infinite(use_numba):
    small = np.array([[10.0, 0.0], [11.0, 0.0], [11.0, 1.0], [10.0, 1.0], [10.0, 0.0]])
    big = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0]])
    net, _ = build_network([small, big, np.array([[20.0, 0.0], [21.0, 0.0]])], 0.0)
    points = NetworkPoints([0, 2, 4, 8], [0.5, 0.5, 0.5, 0.5])
    r = resistance_distances(net, points, points, use_numba=use_numba)
    np.testing.assert_allclose(r[0, 1], 2 * 2 / 4)  # opposite sides of a square of 4: two paths of 2
    assert np.all(np.isinf(r[:2, 2:])) and np.all(np.isinf(r[2, [0, 1, 3]]))
    np.testing.assert_allclose(np.diag(r), 0, atol=1e-12)
    pairs = resistance_pairs(net, points, points.take([1, 0, 3, 2]), use_numba=use_numba)
    assert pairs[0] == pytest.approx(1.0) and np.all(np.isinf(pairs[2:]))
