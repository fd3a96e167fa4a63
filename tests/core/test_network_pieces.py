"""The network cut into pieces of at most a resolution (core.network.pieces; Kim & Lim, Section 4.2)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.network import pieces as pieces_module
from spatial_privacy.core.network.network import LinearNetwork, NetworkPoints, build_network
from spatial_privacy.core.network.pieces import discretise


def test_each_edge_is_cut_into_equal_pieces_no_longer_than_the_resolution(chicago_streets):
    net, _ = build_network(chicago_streets, 0.0)
    pieces = discretise(net, 50.0)
    expected = np.ceil(net.lengths / 50.0).astype(int)
    np.testing.assert_array_equal(pieces.count, expected)
    assert len(pieces) == expected.sum() and np.all(pieces.lengths <= 50.0 * (1 + 1e-12))
    assert pieces.total_length == pytest.approx(net.total_length, rel=1e-13)
    # consecutive along each edge, from t = 0 to t = 1
    for e in (0, 100, 502):
        span = slice(pieces.first[e], pieces.first[e] + pieces.count[e])
        assert np.all(pieces.edge[span] == e)
        assert pieces.t0[span][0] == 0.0 and pieces.t1[span][-1] == 1.0
        np.testing.assert_array_equal(pieces.t0[span][1:], pieces.t1[span][:-1])
        np.testing.assert_allclose(pieces.lengths[span], net.lengths[e] / pieces.count[e])


def test_locations_are_found_in_their_piece():
    net = LinearNetwork.from_segments([[0.0, 0.0], [10.0, 0.0], [10.0, 3.0]], [[0, 1], [1, 2]])
    pieces = discretise(net, 4.0)  # 3 pieces of 10/3, then 1 piece of 3
    np.testing.assert_array_equal(pieces.count, [3, 1])
    middle = pieces.midpoints()
    np.testing.assert_array_equal(pieces.locate(middle), np.arange(4))
    x, _ = middle.xy(net)
    np.testing.assert_allclose(x[:3], [10 / 6, 5.0, 50 / 6])
    cuts = NetworkPoints([0, 0, 0, 1], [0.0, 1 / 3, 1.0, 1.0])
    np.testing.assert_array_equal(pieces.locate(cuts), [0, 1, 2, 3])  # a cut belongs to the piece after it
    inside = pieces.at([1, 1], [0.0, 1.0])
    np.testing.assert_allclose(inside.t, [1 / 3, 2 / 3])


@pytest.mark.parametrize("resolution", [0.0, -1.0, math.nan, math.inf])
def test_a_resolution_that_is_not_a_positive_distance_is_refused(resolution):
    net = LinearNetwork.from_segments([[0.0, 0.0], [1.0, 0.0]], [[0, 1]])
    with pytest.raises(ParameterError) as raised:
        discretise(net, resolution)
    assert raised.value.parameter == "resolution"


def test_a_resolution_giving_too_many_pieces_is_refused_with_the_smallest_allowed(monkeypatch):
    monkeypatch.setattr(pieces_module, "MAX_PIECES", 100)
    net = LinearNetwork.from_segments([[0.0, 0.0], [1000.0, 0.0]], [[0, 1]])
    with pytest.raises(ParameterError, match="at most 100 are allowed") as raised:
        discretise(net, 1000.0 / 101)
    assert raised.value.parameter == "resolution"
    assert len(discretise(net, 10.0)) == 100
