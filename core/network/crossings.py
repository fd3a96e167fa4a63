"""Junctions without a shared vertex: vertices on other segments, and crossing segments.

Candidate pairs of segments come from a uniform grid over their bounding boxes (each segment is listed in
every cell its box, padded by the tolerance, covers; two segments sharing a cell are a candidate pair), so
the work grows with the number of segments and not its square. Each candidate pair is then tested exactly:

* a vertex of one segment within the tolerance of the other's interior joins it there (a T-junction, an
  undershoot within the tolerance, or collinear overlapping segments);
* with crossings on, two segments whose interiors cross at a point farther than the tolerance from all
  four of their ends get a new vertex at the crossing.

Vertices given to :func:`find_splits` must be more than the tolerance apart (snapped first).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: at most this many (segment, cell) entries per segment on average; the cells grow until it holds
MAX_CELLS_PER_SEGMENT = 16


@dataclass(frozen=True)
class Splits:
    """Where segments are to be split.

    Attributes:
        segment, t, vertex: segment ``segment[k]`` is split at fraction ``t[k]`` of its length (from its first
            vertex) through vertex ``vertex[k]`` (an index into the vertices followed by ``new_vertices``).
        new_vertices: (m, 2) coordinates of the crossing points.
        n_joined: (vertex, segment) junctions found.
        n_crossings: crossing pairs of segments found.
    """

    segment: np.ndarray
    t: np.ndarray
    vertex: np.ndarray
    new_vertices: np.ndarray
    n_joined: int
    n_crossings: int


def candidate_pairs(start: np.ndarray, end: np.ndarray, pad: float) -> np.ndarray:
    """(k, 2) pairs i < j of segments whose bounding boxes, padded by ``pad``, overlap."""
    n = start.shape[0]
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    low = np.minimum(start, end) - pad
    high = np.maximum(start, end) + pad
    origin = low.min(axis=0)
    span = float(np.max(high.max(axis=0) - origin))
    lengths = np.hypot(*(end - start).T)
    cell = max(float(np.median(lengths)), 2.0 * pad, span * 1e-6, 1e-300)
    while True:
        first = np.floor((low - origin) / cell).astype(np.int64)
        last = np.floor((high - origin) / cell).astype(np.int64)
        extent = last - first + 1
        count = extent[:, 0] * extent[:, 1]
        if count.sum() <= MAX_CELLS_PER_SEGMENT * n + 1000:
            break
        cell *= 2.0
    segment = np.repeat(np.arange(n, dtype=np.int64), count)
    within = np.arange(segment.size, dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
    nx = extent[segment, 0]
    cx = first[segment, 0] + within % nx
    cy = first[segment, 1] + within // nx
    key = cx * (int(last[:, 1].max()) + 2) + cy
    order = np.argsort(key, kind="stable")
    key, segment = key[order], segment[order]
    found = []
    offset = 1
    while offset < key.size:
        same = key[offset:] == key[:-offset]
        if not same.any():
            break  # the keys are sorted: no run of equal keys is longer than this
        found.append(np.column_stack([segment[:-offset][same], segment[offset:][same]]))
        offset += 1
    if not found:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.concatenate(found)
    pairs = np.unique(np.sort(pairs, axis=1) @ np.array([n, 1], dtype=np.int64))
    pairs = np.column_stack([pairs // n, pairs % n])
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    i, j = pairs[:, 0], pairs[:, 1]
    overlap = np.all((low[i] <= high[j]) & (low[j] <= high[i]), axis=1)
    return pairs[overlap]


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]


def _junctions(vertices, edges, pairs, tolerance):
    """(segment, t, vertex) where a vertex of one segment of a pair lies on the other's interior."""
    i, j = pairs[:, 0], pairs[:, 1]
    vertex = np.concatenate([edges[i, 0], edges[i, 1], edges[j, 0], edges[j, 1]])
    segment = np.concatenate([j, j, i, i])
    key = np.unique(vertex * edges.shape[0] + segment)
    vertex, segment = key // edges.shape[0], key % edges.shape[0]
    own = (edges[segment, 0] == vertex) | (edges[segment, 1] == vertex)
    vertex, segment = vertex[~own], segment[~own]
    q0 = vertices[edges[segment, 0]]
    direction = vertices[edges[segment, 1]] - q0
    relative = vertices[vertex] - q0
    t = np.einsum("ij,ij->i", relative, direction) / np.einsum("ij,ij->i", direction, direction)
    foot = q0 + np.clip(t, 0.0, 1.0)[:, None] * direction
    near = (np.hypot(*(vertices[vertex] - foot).T) <= tolerance) & (t > 0) & (t < 1)
    return segment[near], t[near], vertex[near]


def _crossings(vertices, edges, pairs, tolerance):
    """Proper crossings of the pairs' interiors, farther than the tolerance from every end."""
    i, j = pairs[:, 0], pairs[:, 1]
    shared = (
        (edges[i, 0] == edges[j, 0])
        | (edges[i, 0] == edges[j, 1])
        | (edges[i, 1] == edges[j, 0])
        | (edges[i, 1] == edges[j, 1])
    )
    i, j = i[~shared], j[~shared]
    p0, p1 = vertices[edges[i, 0]], vertices[edges[i, 1]]
    q0, q1 = vertices[edges[j, 0]], vertices[edges[j, 1]]
    d, e, w = p1 - p0, q1 - q0, q0 - p0
    denominator = _cross(d, e)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = _cross(w, e) / denominator
        u = _cross(w, d) / denominator
    proper = (denominator != 0) & (s > 0) & (s < 1) & (u > 0) & (u < 1)
    i, j, s, u = i[proper], j[proper], s[proper], u[proper]
    point = p0[proper] + s[:, None] * d[proper]
    clear = np.ones(i.size, dtype=bool)
    for end in (edges[i, 0], edges[i, 1], edges[j, 0], edges[j, 1]):
        clear &= np.hypot(*(point - vertices[end]).T) > tolerance
    return i[clear], j[clear], s[clear], u[clear], point[clear]


def find_splits(vertices: np.ndarray, edges: np.ndarray, tolerance: float, crossings: bool) -> Splits:
    """Junctions (and, if ``crossings``, crossings) of the segments ``edges`` between ``vertices``."""
    pairs = candidate_pairs(vertices[edges[:, 0]], vertices[edges[:, 1]], tolerance)
    segment, t, vertex = _junctions(vertices, edges, pairs, tolerance)
    n_joined = int(segment.size)
    new_vertices = np.zeros((0, 2))
    n_crossings = 0
    if crossings:
        i, j, s, u, point = _crossings(vertices, edges, pairs, tolerance)
        n_crossings = int(i.size)
        new = vertices.shape[0] + np.arange(n_crossings, dtype=np.int64)
        segment = np.concatenate([segment, i, j])
        t = np.concatenate([t, s, u])
        vertex = np.concatenate([vertex, new, new])
        new_vertices = point
    return Splits(segment, t, vertex, new_vertices, n_joined, n_crossings)


def split_segments(edges: np.ndarray, splits: Splits) -> np.ndarray:
    """The edges with each segment replaced by its pieces between consecutive split points, in input order.

    A segment split twice through the same vertex gives a self-loop piece, which the caller drops.
    """
    n = edges.shape[0]
    index = np.arange(n, dtype=np.int64)
    segment = np.concatenate([index, splits.segment, index])
    key = np.concatenate([np.full(n, -1.0), splits.t, np.full(n, 2.0)])
    vertex = np.concatenate([edges[:, 0], splits.vertex, edges[:, 1]])
    order = np.lexsort((key, segment))
    segment, vertex = segment[order], vertex[order]
    same = segment[1:] == segment[:-1]
    return np.column_stack([vertex[:-1][same], vertex[1:][same]])
