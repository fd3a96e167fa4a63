"""Moving events onto the network: each point goes to its nearest location on any edge.

The search is exact and vectorised. The edges are cut into short pieces (at most ``h`` long, ``h`` about the
median edge length) whose midpoints go into a k-d tree. A point's nearest piece midpoint gives an upper
bound ``U`` on its distance to the network (the exact distance to that piece's edge); every edge within ``U``
has a piece whose midpoint lies within ``U + h / 2``, so only the pieces in that ball are measured exactly.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from ..errors import ParameterError
from .network import LinearNetwork, NetworkPoints

#: neighbours asked of the tree at first; points whose ball holds more are asked again with more
FIRST_NEIGHBOURS = 8


def _segment_distance(px, py, start, direction, length2):
    """Exact distance from points to segments (broadcast) and the fraction along each segment."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = ((px - start[..., 0]) * direction[..., 0] + (py - start[..., 1]) * direction[..., 1]) / length2
    t = np.clip(np.nan_to_num(t), 0.0, 1.0)
    dx = start[..., 0] + t * direction[..., 0] - px
    dy = start[..., 1] + t * direction[..., 1] - py
    return np.hypot(dx, dy), t


class _PieceIndex:
    """Piece midpoints of a network's edges in a k-d tree."""

    def __init__(self, net: LinearNetwork):
        lengths = net.lengths
        self.h = max(float(np.median(lengths)), net.total_length / (4.0 * net.n_edges))
        count = np.maximum(1, np.ceil(lengths / self.h).astype(np.int64))
        self.edge = np.repeat(np.arange(net.n_edges, dtype=np.int64), count)
        within = np.arange(self.edge.size) - np.repeat(np.cumsum(count) - count, count)
        fraction = (within + 0.5) / count[self.edge]
        self.start = net.edge_starts()
        self.direction = net.edge_ends() - self.start
        self.length2 = lengths**2
        middle = self.start[self.edge] + fraction[:, None] * self.direction[self.edge]
        self.half = float((lengths / count).max()) / 2.0
        self.tree = cKDTree(middle)

    def nearest(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Nearest edge, fraction along it, and distance, for each point."""
        n = x.size
        best_edge = np.zeros(n, dtype=np.int64)
        best_t = np.zeros(n)
        best = np.full(n, np.inf)
        xy = np.column_stack([x, y])
        _, first = self.tree.query(xy, k=1)
        first_edge = self.edge[first]
        bound, t = _segment_distance(x, y, self.start[first_edge], self.direction[first_edge], self.length2[first_edge])
        best_edge[:], best_t[:], best[:] = first_edge, t, bound
        radius = bound + self.half
        todo = np.arange(n)
        k = FIRST_NEIGHBOURS
        while todo.size:
            k = min(k, self.edge.size)
            gap, piece = self.tree.query(xy[todo], k=k)
            gap, piece = gap.reshape(todo.size, k), piece.reshape(todo.size, k)
            valid = gap <= radius[todo, None] * (1 + 1e-12)
            edge = self.edge[np.where(valid, piece, 0)]
            distance, t = _segment_distance(
                x[todo, None], y[todo, None], self.start[edge], self.direction[edge], self.length2[edge]
            )
            distance[~valid] = np.inf
            column = np.argmin(distance, axis=1)
            row = np.arange(todo.size)
            closer = distance[row, column] < best[todo]
            chosen = todo[closer]
            best[chosen] = distance[row, column][closer]
            best_edge[chosen] = edge[row, column][closer]
            best_t[chosen] = t[row, column][closer]
            # points whose ball held k pieces or more may have more to measure
            full = valid[:, -1]
            if k >= self.edge.size:
                break
            todo = todo[full]
            k *= 4
        return best_edge, best_t, best


def place_points(net: LinearNetwork, x, y, max_distance: float | None = None) -> tuple[NetworkPoints, np.ndarray]:
    """Each point moved to its nearest location on the network.

    Args:
        net: the network.
        x, y: point coordinates (layer units).
        max_distance: if given, points farther than this from every edge are refused.

    Returns:
        The locations and the distance each point moved (layer units).

    Raises:
        ParameterError("points", ...) naming how many points lie farther than ``max_distance`` (and the
        farthest distance); ParameterError("max_distance") for a negative or NaN bound; ParameterError("points")
        for a missing coordinate.
    """
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    if x.shape != y.shape:
        raise ParameterError("points", "x and y must have the same length")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ParameterError("points", "a point has a missing or infinite coordinate")
    if max_distance is not None and not (float(max_distance) >= 0):
        raise ParameterError("max_distance", "the largest distance to the network must be >= 0")
    if x.size == 0:
        return NetworkPoints(np.zeros(0, dtype=np.int64), np.zeros(0)), np.zeros(0)
    edge, t, moved = _PieceIndex(net).nearest(x, y)
    if max_distance is not None:
        far = moved > float(max_distance)
        if far.any():
            raise ParameterError(
                "points",
                f"{int(far.sum())} of {x.size} points lie farther than {float(max_distance):g} from every line of "
                f"the network (the farthest {float(moved.max()):g}): check that the points and the network match, "
                "or allow a larger distance",
            )
    return NetworkPoints(edge, t), moved
