"""The linear network, locations on it, and building it from the parts of a line layer.

A linear network (Kim & Lim, Definition E.3; spatstat's ``linnet``) is a finite union of straight line
segments whose end points are its vertices. A polyline becomes one edge per segment: every interior vertex
of a line is a vertex of the network, as in spatstat. Units are those of the coordinates (the layer's CRS).

:func:`build_network` joins the parts of a line layer into one network:

1. vertices closer than the tolerance are merged (:mod:`.snapping`); segments that shrink to a point are
   dropped;
2. a vertex within the tolerance of another segment's interior joins it (the segment is split there): a
   street that ends on another street without a shared vertex, or that overlaps it, is connected;
3. with ``split_crossings``, segments that cross without a shared vertex are split at the crossing and
   joined there (:mod:`.crossings`); without it they pass over each other (bridges, tunnels);
4. duplicate segments (the same two vertices) are kept once.

The tolerance used is ``max(snap_tolerance, 1e-9 x the layer's extent)``, so that exactly coincident
ends always meet whatever rounding the file stored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from ..errors import ParameterError
from ..progress import Progress, report
from .crossings import find_splits, split_segments
from .snapping import merge_close

#: the smallest tolerance, relative to the layer's extent (its bounding box diagonal)
RELATIVE_TOLERANCE = 1e-9


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class LinearNetwork:
    """A linear network: straight edges between vertices.

    Attributes:
        vertices: (V, 2) float64 vertex coordinates.
        edges: (E, 2) int64 vertex indices (from, to); no self-loops.
        lengths: (E,) float64 Euclidean edge lengths, all > 0.
    """

    vertices: np.ndarray
    edges: np.ndarray
    lengths: np.ndarray

    def __post_init__(self):
        vertices = np.asarray(self.vertices, dtype=np.float64).reshape(-1, 2)
        edges = np.asarray(self.edges, dtype=np.int64).reshape(-1, 2)
        lengths = np.asarray(self.lengths, dtype=np.float64).reshape(-1)
        if lengths.shape[0] != edges.shape[0]:
            raise ValueError("one length per edge is needed")
        if edges.size and (edges.min() < 0 or edges.max() >= vertices.shape[0]):
            raise ValueError("an edge refers to a vertex that does not exist")
        if np.any(edges[:, 0] == edges[:, 1]):
            raise ValueError("an edge joins a vertex to itself")
        if not (np.all(np.isfinite(vertices)) and np.all(np.isfinite(lengths)) and np.all(lengths > 0)):
            raise ValueError("vertices must be finite and edge lengths finite and positive")
        object.__setattr__(self, "vertices", _readonly(vertices))
        object.__setattr__(self, "edges", _readonly(edges))
        object.__setattr__(self, "lengths", _readonly(lengths))

    @classmethod
    def from_segments(cls, vertices: np.ndarray, edges: np.ndarray) -> LinearNetwork:
        """The network of the given vertices and edges, lengths computed from the coordinates."""
        vertices = np.asarray(vertices, dtype=np.float64).reshape(-1, 2)
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        lengths = np.hypot(*(vertices[edges[:, 1]] - vertices[edges[:, 0]]).T)
        return cls(vertices, edges, lengths)

    @property
    def n_vertices(self) -> int:
        return int(self.vertices.shape[0])

    @property
    def n_edges(self) -> int:
        return int(self.edges.shape[0])

    @property
    def total_length(self) -> float:
        """|L|, the total length of the network (the exactly rounded sum of the edge lengths)."""
        return math.fsum(self.lengths)

    @cached_property
    def graph(self) -> sparse.csr_matrix:
        """Symmetric V x V adjacency matrix weighted by edge length; of parallel edges the shortest counts."""
        a, b = self.edges[:, 0], self.edges[:, 1]
        rows = np.concatenate([a, b])
        cols = np.concatenate([b, a])
        weights = np.concatenate([self.lengths, self.lengths])
        order = np.lexsort((weights, cols, rows))
        rows, cols, weights = rows[order], cols[order], weights[order]
        first = np.ones(rows.size, dtype=bool)
        first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
        shape = (self.n_vertices, self.n_vertices)
        return sparse.csr_matrix((weights[first], (rows[first], cols[first])), shape=shape)

    @cached_property
    def _components(self) -> tuple[int, np.ndarray]:
        count, labels = connected_components(self.graph, directed=False)
        if count > 1:
            # relabel: 0 = the longest component, then by decreasing length
            length = np.bincount(labels[self.edges[:, 0]], weights=self.lengths, minlength=count)
            rank = np.empty(count, dtype=np.int64)
            rank[np.argsort(-length, kind="stable")] = np.arange(count)
            labels = rank[labels]
        return int(count), _readonly(labels.astype(np.int64))

    def components(self) -> np.ndarray:
        """Connected component of each vertex: (V,) labels, 0 = the longest component, then decreasing length."""
        return self._components[1]

    @property
    def n_components(self) -> int:
        return self._components[0]

    def component_lengths(self) -> np.ndarray:
        """Total length of each component, indexed by the labels of :meth:`components` (largest first)."""
        labels = self.components()[self.edges[:, 0]]
        return np.bincount(labels, weights=self.lengths, minlength=self.n_components)

    def edge_components(self) -> np.ndarray:
        """Connected component of each edge (the labels of :meth:`components`)."""
        return self.components()[self.edges[:, 0]]

    def edge_starts(self) -> np.ndarray:
        """(E, 2) coordinates of each edge's first vertex."""
        return self.vertices[self.edges[:, 0]]

    def edge_ends(self) -> np.ndarray:
        """(E, 2) coordinates of each edge's second vertex."""
        return self.vertices[self.edges[:, 1]]


@dataclass(frozen=True, eq=False)
class NetworkPoints:
    """Locations on a network's edges.

    Attributes:
        edge: (n,) int64 edge index.
        t: (n,) float64 in [0, 1], fraction of the edge's length from ``edges[e, 0]`` towards ``edges[e, 1]``.
    """

    edge: np.ndarray
    t: np.ndarray

    def __post_init__(self):
        edge = np.asarray(self.edge, dtype=np.int64).reshape(-1)
        t = np.asarray(self.t, dtype=np.float64).reshape(-1)
        if edge.shape != t.shape:
            raise ValueError("one position t per edge index is needed")
        if not np.all((t >= 0) & (t <= 1)):
            raise ValueError("positions t must lie in [0, 1]")
        object.__setattr__(self, "edge", _readonly(edge))
        object.__setattr__(self, "t", _readonly(t))

    def __len__(self) -> int:
        return int(self.edge.shape[0])

    def xy(self, net: LinearNetwork) -> tuple[np.ndarray, np.ndarray]:
        """Coordinates (x, y) of the locations on ``net``."""
        start = net.vertices[net.edges[self.edge, 0]]
        end = net.vertices[net.edges[self.edge, 1]]
        xy = start + self.t[:, None] * (end - start)
        return xy[:, 0], xy[:, 1]

    def take(self, index) -> NetworkPoints:
        """The locations selected by ``index`` (integer indices or a boolean mask)."""
        return NetworkPoints(self.edge[index], self.t[index])

    @classmethod
    def at_vertices(cls, net: LinearNetwork, vertices) -> NetworkPoints:
        """Locations at the given vertices (each on one of its edges, at t = 0 or 1)."""
        vertices = np.asarray(vertices, dtype=np.int64).reshape(-1)
        ends = net.edges.ravel()  # edge k's ends sit at 2k and 2k + 1
        first = np.full(net.n_vertices, -1, dtype=np.int64)
        first[ends[::-1]] = np.arange(ends.size - 1, -1, -1)  # the first slot naming each vertex
        slot = first[vertices]
        if np.any(slot < 0):
            raise ValueError("a vertex lies on no edge")
        return cls(slot // 2, (slot % 2).astype(np.float64))


@dataclass(frozen=True)
class BuildReport:
    """What :func:`build_network` did to the line layer.

    Attributes:
        input_lines: line parts given (a part of fewer than two vertices adds nothing).
        input_segments: straight segments in them.
        tolerance: the snapping tolerance used (layer units).
        vertices_snapped: input vertices moved onto another vertex closer than the tolerance (exactly coincident
            line ends are not counted: they already met).
        max_snap_distance: the largest such move.
        ends_joined: vertices that lay on (within the tolerance of) another segment's interior and were joined
            to it by splitting that segment.
        crossings_split: pairs of segments that crossed without a shared vertex and were split at the crossing.
        zero_length_dropped: segments of zero length (after snapping) dropped.
        duplicates_merged: segments joining the same two vertices as another, dropped.
        component_lengths: total length of each connected component, largest first.
        component_edges: number of edges of each component, in the same order.
    """

    input_lines: int
    input_segments: int
    tolerance: float
    vertices_snapped: int
    max_snap_distance: float
    ends_joined: int
    crossings_split: int
    zero_length_dropped: int
    duplicates_merged: int
    component_lengths: tuple[float, ...]
    component_edges: tuple[int, ...]

    @property
    def n_components(self) -> int:
        return len(self.component_lengths)


def _check_lines(lines) -> list[np.ndarray]:
    parts = []
    for i, line in enumerate(lines):
        xy = np.asarray(line, dtype=np.float64)
        if xy.ndim != 2 or xy.shape[1] < 2:
            raise ParameterError("lines", f"line part {i} is not an array of (x, y) vertices")
        xy = xy[:, :2]
        if not np.all(np.isfinite(xy)):
            raise ParameterError("lines", f"line part {i} has a vertex with a missing or infinite coordinate")
        parts.append(xy)
    return parts


def _dedupe(edges: np.ndarray, n_vertices: int) -> tuple[np.ndarray, int]:
    """Edges with a self-loop removed and each unordered vertex pair kept once (first occurrence)."""
    edges = edges[edges[:, 0] != edges[:, 1]]
    key = np.minimum(edges[:, 0], edges[:, 1]) * n_vertices + np.maximum(edges[:, 0], edges[:, 1])
    _, first = np.unique(key, return_index=True)
    first.sort()
    return edges[first], int(edges.shape[0] - first.size)


def build_network(
    lines: list[np.ndarray], snap_tolerance: float, split_crossings: bool = True, *, progress: Progress = None
) -> tuple[LinearNetwork, BuildReport]:
    """Build a linear network from line parts (see the module docstring for the rules).

    Args:
        lines: one (k_i, 2) array of vertex coordinates per line part (a multi-part line gives several;
            curved lines must be segmentised first); parts of fewer than two vertices add nothing.
        snap_tolerance: vertices closer than this are merged, and a vertex this close to another segment joins
            it (layer units, >= 0).
        split_crossings: split segments where they cross without a shared vertex (the usual street layer);
            False keeps them apart (a layer whose crossings are bridges or tunnels).
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        The network (vertices in order of first appearance, edges in the order of the input segments) and a
        :class:`BuildReport`.

    Raises:
        ParameterError("snap_tolerance") for a negative or non-finite tolerance; ParameterError("lines") for a
        non-finite coordinate or when no segment of positive length remains.
    """
    tolerance = float(snap_tolerance)
    if not np.isfinite(tolerance) or tolerance < 0:
        raise ParameterError("snap_tolerance", "the snapping tolerance must be a finite distance >= 0")
    parts = _check_lines(lines)
    n_lines = len(parts)
    parts = [p for p in parts if p.shape[0] >= 2]
    if not parts:
        raise ParameterError("lines", "the network has no line: give a layer with at least one line")
    report(progress, 0.0, "Snapping vertices")
    points = np.concatenate(parts)
    sizes = np.array([p.shape[0] for p in parts], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    is_last = np.zeros(points.shape[0], dtype=bool)
    is_last[starts + sizes - 1] = True
    first_of_segment = np.flatnonzero(~is_last)
    extent = float(np.hypot(*(points.max(axis=0) - points.min(axis=0))))
    tolerance = max(tolerance, RELATIVE_TOLERANCE * extent)

    label, representative = merge_close(points, tolerance)
    moved = np.hypot(*(points - points[representative[label]]).T)
    vertices = points[representative]
    edges = np.column_stack([label[first_of_segment], label[first_of_segment + 1]])
    zero = edges[:, 0] == edges[:, 1]
    n_segments = int(edges.shape[0])
    edges = edges[~zero]

    report(progress, 0.3, "Finding junctions and crossings")
    splits = find_splits(vertices, edges, tolerance, split_crossings)
    report(progress, 0.7, "Splitting segments")
    vertices = np.concatenate([vertices, splits.new_vertices])
    edges = split_segments(edges, splits)
    if splits.new_vertices.shape[0]:
        # crossings of three or more lines at one point give nearly equal new vertices: merge them
        relabel, keep = merge_close(vertices, tolerance)
        vertices, edges = vertices[keep], relabel[edges]
    edges, n_duplicates = _dedupe(edges, vertices.shape[0])
    if edges.shape[0] == 0:
        raise ParameterError("lines", "the network has no line of positive length")
    used, edges = np.unique(edges, return_inverse=True)  # vertices on no edge are dropped
    net = LinearNetwork.from_segments(vertices[used], edges.reshape(-1, 2))
    edge_count = np.bincount(net.edge_components(), minlength=net.n_components)
    build_report = BuildReport(
        input_lines=n_lines,
        input_segments=n_segments,
        tolerance=tolerance,
        vertices_snapped=int(np.count_nonzero(moved > 0)),
        max_snap_distance=float(moved.max(initial=0.0)),
        ends_joined=splits.n_joined,
        crossings_split=splits.n_crossings,
        zero_length_dropped=int(np.count_nonzero(zero)),
        duplicates_merged=n_duplicates,
        component_lengths=tuple(float(v) for v in net.component_lengths()),
        component_edges=tuple(int(v) for v in edge_count),
    )
    report(progress, 1.0, "Network built")
    return net, build_report
