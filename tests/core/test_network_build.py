"""Building a linear network from line parts (core.network.network, .snapping, .crossings, .components).

Checked against spatstat 3.0 (spatstat.linnet 3.0-6, R 4.2.2) on its ``chicago`` network, against an exact
all-pairs segment intersection test on John Snow's streets and on random layers, and on small layers whose
answer is known by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial import cKDTree

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.network.components import (
    component_of,
    components_holding,
    largest_component,
    subnetwork,
)
from spatial_privacy.core.network.network import LinearNetwork, NetworkPoints, build_network


def brute_force_crossings(segments: np.ndarray) -> int:
    """Pairs of segments ((n, 2, 2) array) whose interiors cross at one point, by testing every pair."""
    p, r = segments[:, 0], segments[:, 1] - segments[:, 0]
    i, j = np.triu_indices(len(segments), 1)
    denominator = r[i, 0] * r[j, 1] - r[i, 1] * r[j, 0]
    w = p[j] - p[i]
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (w[:, 0] * r[j, 1] - w[:, 1] * r[j, 0]) / denominator
        u = (w[:, 0] * r[i, 1] - w[:, 1] * r[i, 0]) / denominator
    eps = 1e-9
    return int(np.count_nonzero((denominator != 0) & (s > eps) & (s < 1 - eps) & (u > eps) & (u < 1 - eps)))


def degrees(net: LinearNetwork) -> dict[int, int]:
    count = np.bincount(np.bincount(net.edges.ravel(), minlength=net.n_vertices))
    return {k: int(v) for k, v in enumerate(count) if v}


def test_chicago_is_spatstats_network(chicago_streets):
    # library(spatstat.linnet); L <- domain(chicago)
    # nvertices(L); nsegments(L); sprintf("%.12f", volume(L)); table(vertexdegree(L))
    # -> 338 503 31150.210153405918;  degree 1: 44, 2: 51, 3: 114, 4: 127, 5: 2
    for split in (True, False):
        net, report = build_network(chicago_streets, 0.0, split_crossings=split)
        assert (net.n_vertices, net.n_edges) == (338, 503)
        assert net.total_length == pytest.approx(31150.210153405918, rel=1e-14)
        assert degrees(net) == {1: 44, 2: 51, 3: 114, 4: 127, 5: 2}
        assert net.n_components == 1 and report.component_edges == (503,)
        assert report.vertices_snapped == report.ends_joined == report.crossings_split == 0
        assert report.zero_length_dropped == report.duplicates_merged == 0
        # edges keep the layer's order and orientation (spatstat's segment k is our edge k - 1)
        np.testing.assert_array_equal(net.vertices[net.edges[:, 0]], [line[0] for line in chicago_streets])


def test_snow_streets_are_one_snapped_network_without_crossings(snow_streets):
    """What Tobler's digitisation holds: 528 polylines (713 segments) whose ends meet exactly, one connected
    network, no crossing or T-junction without a shared vertex (confirmed by testing every pair of segments)."""
    net, report = build_network(snow_streets, 0.0)
    assert (report.input_lines, report.input_segments) == (528, 713)
    assert (net.n_vertices, net.n_edges, net.n_components) == (558, 713, 1)
    assert report.vertices_snapped == report.ends_joined == report.crossings_split == 0
    assert net.total_length == pytest.approx(math.fsum(np.hypot(*np.diff(p, axis=0).T).sum() for p in snow_streets))
    segments = np.stack([net.edge_starts(), net.edge_ends()], axis=1)
    assert brute_force_crossings(segments) == 0
    assert degrees(net) == {1: 53, 2: 190, 3: 267, 4: 48}  # interior vertices of the polylines have degree 2
    # At a 0.1-unit (about 10 m) tolerance the short segments collapse: vertices end more than 0.1 apart.
    coarse, report = build_network(snow_streets, 0.1)
    assert report.vertices_snapped > 0 and report.zero_length_dropped > 0
    assert len(cKDTree(coarse.vertices).query_pairs(0.1)) == 0
    assert coarse.n_components == 1 and coarse.total_length < net.total_length


def test_lines_crossing_without_shared_vertices_are_split():
    # a "#" of four straight lines, each drawn as one segment: four crossings, none at a vertex
    lines = [np.array([[0.0, 1.0], [3.0, 1.0]]), np.array([[0.0, 2.0], [3.0, 2.0]])]
    lines += [np.array([[1.0, 0.0], [1.0, 3.0]]), np.array([[2.0, 3.0], [2.0, 0.0]])]
    net, report = build_network(lines, 0.0)
    assert report.crossings_split == 4 and report.ends_joined == 0
    assert (net.n_vertices, net.n_edges, net.n_components) == (12, 12, 1)
    assert net.total_length == pytest.approx(12.0)
    assert sorted(map(tuple, net.vertices.round(12))) == sorted(
        [(x, y) for x in (0.0, 1.0, 2.0, 3.0) for y in (1.0, 2.0)] + [(x, y) for x in (1.0, 2.0) for y in (0.0, 3.0)]
    )
    assert degrees(net) == {1: 8, 4: 4}
    # bridges and tunnels: without splitting, four separate lines
    apart, report = build_network(lines, 0.0, split_crossings=False)
    assert report.crossings_split == 0 and (apart.n_edges, apart.n_components) == (4, 4)
    assert report.component_lengths == (3.0, 3.0, 3.0, 3.0)


def test_random_crossings_match_an_all_pairs_test():
    rng = np.random.default_rng(3)
    start = rng.uniform(0, 100, (1500, 2))
    end = start + rng.normal(0, 6, (1500, 2))
    lines = [np.array([a, b]) for a, b in zip(start, end)]
    expected = brute_force_crossings(np.stack([start, end], axis=1))
    net, report = build_network(lines, 0.0)
    assert expected > 500 and report.crossings_split == expected
    assert net.n_edges == 1500 + 2 * expected
    assert net.total_length == pytest.approx(np.hypot(*(end - start).T).sum(), rel=1e-12)
    # every vertex of degree > 1 is a crossing, and lies on the two original segments that made it
    crossing = net.vertices[np.bincount(net.edges.ravel()) > 1]
    assert len(crossing) == expected
    direction = end - start
    t = np.einsum("kij,ij->ki", crossing[:, None, :] - start[None], direction) / np.einsum(
        "ij,ij->i", direction, direction
    )
    foot = start[None] + np.clip(t, 0, 1)[..., None] * direction[None]
    on = np.hypot(*(crossing[:, None, :] - foot).transpose(2, 0, 1)) < 1e-9
    assert np.all(on.sum(axis=1) == 2)


def test_a_street_ending_on_another_joins_it_even_without_splitting_crossings():
    lines = [np.array([[0.0, 0.0], [2.0, 0.0]]), np.array([[1.0, 1.0], [1.0, 0.0]])]
    for split in (True, False):
        net, report = build_network(lines, 0.0, split_crossings=split)
        assert report.ends_joined == 1 and report.crossings_split == 0
        assert (net.n_vertices, net.n_edges, net.n_components) == (4, 3, 1)
    # an undershoot within the tolerance joins; beyond it, two components
    short = [lines[0], np.array([[1.0, 1.0], [1.0, 0.05]])]
    assert build_network(short, 0.1)[0].n_components == 1
    net, report = build_network(short, 0.01)
    assert net.n_components == 2 and report.ends_joined == 0
    assert report.component_lengths == (2.0, pytest.approx(0.95))


def test_ends_within_the_tolerance_are_snapped_and_counted():
    lines = [np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([[1.0, 0.001], [2.0, 0.0]]), np.array([[2.0, 0.0], [3.0, 0]])]
    net, report = build_network(lines, 0.01)
    assert (net.n_vertices, net.n_edges, net.n_components) == (4, 3, 1)
    assert report.vertices_snapped == 1 and report.max_snap_distance == pytest.approx(0.001)
    np.testing.assert_array_equal(net.vertices[1], [1.0, 0.0])  # the first end keeps its place
    net, report = build_network(lines, 0.0001)
    assert net.n_components == 2 and report.vertices_snapped == 0


def test_zero_length_duplicate_and_overlapping_segments():
    lines = [
        np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]),  # a repeated vertex
        np.array([[1.0, 1.0], [1.0, 0.0]]),  # the second segment again, reversed
        np.array([[5.0, 5.0]]),  # a single point adds nothing
        np.array([[0.5, 0.0], [3.0, 0.0]]),  # overlaps the first segment from its middle on
    ]
    net, report = build_network(lines, 0.0)
    assert report.input_lines == 4 and report.input_segments == 5
    assert report.zero_length_dropped == 1
    assert report.ends_joined == 2  # (0.5, 0) on the first segment, (1, 0) on the overlapping one
    assert report.duplicates_merged == 2  # (1,0)-(1,1) twice, and (0.5,0)-(1,0) from both lines
    assert net.total_length == pytest.approx(4.0)
    assert (net.n_vertices, net.n_edges) == (5, 4)


def test_three_lines_crossing_at_one_point_meet_at_one_vertex():
    angles = np.array([0.1, 1.2, 2.3])
    lines = [np.array([[-np.cos(a), -np.sin(a)], [np.cos(a), np.sin(a)]]) + [0.3, 0.7] for a in angles]
    net, report = build_network(lines, 0.0)
    assert report.crossings_split == 3  # three pairs, one point
    assert (net.n_vertices, net.n_edges) == (7, 6) and degrees(net) == {1: 6, 6: 1}
    np.testing.assert_allclose(net.vertices[np.bincount(net.edges.ravel()) == 6][0], [0.3, 0.7], atol=1e-12)


def test_components_are_ordered_by_length_and_can_be_cut_out():
    small = np.array([[10.0, 0.0], [11.0, 0.0], [11.0, 1.0], [10.0, 1.0], [10.0, 0.0]])  # a square of 4
    big = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0]])  # a square of 8
    net, report = build_network([small, big], 0.0)
    assert report.n_components == 2 and report.component_lengths == (8.0, 4.0) and report.component_edges == (4, 4)
    np.testing.assert_array_equal(net.components(), [1, 1, 1, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(net.component_lengths(), [8.0, 4.0])
    points = NetworkPoints([0, 5, 6], [0.5, 0.25, 1.0])
    np.testing.assert_array_equal(component_of(net, points), [1, 0, 0])
    part = largest_component(net)
    assert part.net.total_length == 8.0 and part.net.n_components == 1
    np.testing.assert_array_equal(part.edge_index, [4, 5, 6, 7])
    kept, mask = part.restrict(points, net.n_edges)
    np.testing.assert_array_equal(mask, [False, True, True])
    np.testing.assert_array_equal(kept.edge, [1, 2])
    for original, moved in zip(np.column_stack(points.take(mask).xy(net)), np.column_stack(kept.xy(part.net))):
        np.testing.assert_array_equal(original, moved)
    assert components_holding(net, points).net.n_edges == 8
    assert components_holding(net, points.take([1])).net.n_edges == 4
    with pytest.raises(ParameterError):
        subnetwork(net, np.zeros(8, dtype=bool))


def test_vertices_of_a_polyline_are_network_vertices_and_at_vertices_finds_them():
    net, _ = build_network([np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 2.0]])], 0.0)
    assert (net.n_vertices, net.n_edges) == (3, 2)
    np.testing.assert_array_equal(net.lengths, [1.0, 2.0])
    at = NetworkPoints.at_vertices(net, [0, 1, 2])
    x, y = at.xy(net)
    np.testing.assert_array_equal(np.column_stack([x, y]), net.vertices)


@pytest.mark.parametrize(
    ("lines", "tolerance", "parameter"),
    [
        ([np.array([[0.0, 0.0], [1.0, 0.0]])], -1.0, "snap_tolerance"),
        ([np.array([[0.0, 0.0], [1.0, 0.0]])], np.nan, "snap_tolerance"),
        ([np.array([[0.0, 0.0], [np.nan, 0.0]])], 0.0, "lines"),
        ([], 0.0, "lines"),
        ([np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([[2.0, 2.0]])], 0.0, "lines"),
        ([np.array([[0.0, 0.0], [0.01, 0.0]])], 0.1, "lines"),  # shorter than the tolerance: nothing left
    ],
)
def test_bad_input_names_the_parameter(lines, tolerance, parameter):
    with pytest.raises(ParameterError) as raised:
        build_network(lines, tolerance)
    assert raised.value.parameter == parameter


def test_the_network_object_refuses_inconsistent_arrays():
    vertices = np.array([[0.0, 0.0], [1.0, 0.0]])
    with pytest.raises(ValueError):
        LinearNetwork(vertices, [[0, 0]], [1.0])  # a self-loop
    with pytest.raises(ValueError):
        LinearNetwork(vertices, [[0, 2]], [1.0])  # no vertex 2
    with pytest.raises(ValueError):
        LinearNetwork(vertices, [[0, 1]], [0.0])  # zero length
    net = LinearNetwork.from_segments(vertices, [[0, 1]])
    with pytest.raises(ValueError):
        net.vertices[0, 0] = 5.0  # read-only: the cached graph and factorisations stay valid
    with pytest.raises(ValueError):
        NetworkPoints([0], [1.5])
