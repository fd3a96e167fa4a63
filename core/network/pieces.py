"""The network cut into short pieces (Kim & Lim, Section 4.2: "each line segment divided into smaller
subsegments" of length at most the resolution, 50 m in their Chicago study).

Each edge of length ``l`` is cut into ``ceil(l / resolution)`` pieces of equal length, in order along the edge;
the pieces of edge ``e`` are ``first[e] .. first[e] + count[e] - 1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from .network import LinearNetwork, NetworkPoints

#: the most pieces a network may be cut into (each costs a few dozen bytes in every array built on them)
MAX_PIECES = 20_000_000


@dataclass(frozen=True, eq=False)
class Pieces:
    """Sub-segments of a network's edges.

    Attributes:
        edge: (m,) edge of each piece.
        t0, t1: (m,) the piece spans fractions [t0, t1] of its edge (t0 < t1).
        lengths: (m,) piece lengths (layer units).
        first, count: (E,) the first piece of each edge and the number of pieces it was cut into.
    """

    edge: np.ndarray
    t0: np.ndarray
    t1: np.ndarray
    lengths: np.ndarray
    first: np.ndarray
    count: np.ndarray

    def __len__(self) -> int:
        return int(self.edge.shape[0])

    @property
    def total_length(self) -> float:
        return math.fsum(self.lengths)

    def locate(self, points: NetworkPoints) -> np.ndarray:
        """The piece holding each location (a location on a cut belongs to the piece after it)."""
        count = self.count[points.edge]
        within = np.minimum(np.floor(points.t * count).astype(np.int64), count - 1)
        return self.first[points.edge] + within

    def at(self, piece, u) -> NetworkPoints:
        """Locations at fraction ``u`` (in [0, 1]) along the given pieces."""
        piece = np.asarray(piece, dtype=np.int64)
        u = np.asarray(u, dtype=np.float64)
        t = self.t0[piece] + u * (self.t1[piece] - self.t0[piece])
        return NetworkPoints(self.edge[piece], np.clip(t, 0.0, 1.0))

    def midpoints(self) -> NetworkPoints:
        """The middle of each piece."""
        return self.at(np.arange(len(self)), np.full(len(self), 0.5))


def discretise(net: LinearNetwork, resolution: float) -> Pieces:
    """Cut each edge into ``ceil(length / resolution)`` equal pieces.

    Args:
        net: the network.
        resolution: the longest piece allowed (layer units, > 0).

    Raises:
        ParameterError("resolution") for a resolution that is not a positive finite distance, or one so small
        that the network would be cut into more than :data:`MAX_PIECES` pieces.
    """
    resolution = float(resolution)
    if not (np.isfinite(resolution) and resolution > 0):
        raise ParameterError("resolution", "the resolution must be a positive distance")
    count = np.ceil(net.lengths / resolution)
    total = float(count.sum())
    if total > MAX_PIECES:
        raise ParameterError(
            "resolution",
            f"a resolution of {resolution:g} would cut the network into {total:.0f} pieces (at most {MAX_PIECES:,}"
            f" are allowed): use a resolution of at least {net.total_length / MAX_PIECES:.3g}",
        )
    count = np.maximum(count.astype(np.int64), 1)
    first = np.cumsum(count) - count
    edge = np.repeat(np.arange(net.n_edges, dtype=np.int64), count)
    within = np.arange(edge.size, dtype=np.int64) - first[edge]
    t0 = within / count[edge]
    t1 = (within + 1) / count[edge]
    lengths = net.lengths[edge] / count[edge]
    return Pieces(edge, t0, t1, lengths, first, count)
