"""Shortest-path distances on a linear network, from locations on edges.

A location at fraction ``t`` of edge ``(u, v)`` of length ``l`` reaches any vertex ``w`` through one of its
edge's ends: ``d(p, w) = min(t l + d(u, w), (1 - t) l + d(v, w))``. It reaches a location ``q`` on another edge
through one of the ends of ``q``'s edge, and one on its own edge also directly along it, when that is shorter.

With numba, one Dijkstra search runs per location, seeded at both ends of its edge and stopped at ``limit``
(:mod:`.search`), so a search within a small radius costs only what it reaches. Without numba,
``scipy.sparse.csgraph.dijkstra`` runs from the end vertices of the locations, in chunks that keep each block
of vertex distances within a memory budget. Both give the same distances.

:func:`point_pairs_within` returns only the pairs within ``limit`` (what a K-function up to ``r_max`` needs),
so its memory grows with the number of close pairs, not with ``na x nb``.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import dijkstra

from ..errors import ParameterError
from ..jit import resolve_use_numba
from ..progress import Progress, report
from . import search
from .network import LinearNetwork, NetworkPoints

#: bytes of vertex distances computed at once (each Dijkstra source gives one row of V doubles)
CHUNK_BYTES = 64 * 2**20
#: locations searched from per call of a numba kernel (between progress reports)
SEARCH_BLOCK = 256


def _check(net: LinearNetwork, points: NetworkPoints, name: str) -> None:
    if len(points) and (points.edge.min() < 0 or points.edge.max() >= net.n_edges):
        raise ParameterError(name, "a location refers to an edge the network does not have")


def _limit(limit: float) -> float:
    limit = float(limit)
    if not limit >= 0:
        raise ParameterError("limit", "the distance limit must be >= 0 (or infinite)")
    return limit


def _ends(net: LinearNetwork, points: NetworkPoints):
    """End vertices of each location's edge and the distances along the edge to them."""
    ends = net.edges[points.edge]
    length = net.lengths[points.edge]
    return ends[:, 0], ends[:, 1], points.t * length, (1.0 - points.t) * length


def _graph_arrays(net: LinearNetwork):
    graph = net.graph
    return graph.indptr.astype(np.int64), graph.indices.astype(np.int64), graph.data.astype(np.float64)


def _blocks(n: int, size: int):
    for start in range(0, n, size):
        yield slice(start, min(n, start + size))


def _dijkstra_rows(net: LinearNetwork, index: np.ndarray, ends, limit: float) -> np.ndarray:
    """(len(index), V) vertex distances of the locations ``index`` by scipy's Dijkstra from their ends."""
    start, end, to_start, to_end = ends
    sources, inverse = np.unique(np.concatenate([start[index], end[index]]), return_inverse=True)
    rows = np.atleast_2d(dijkstra(net.graph, directed=True, indices=sources, limit=limit))
    k = index.size
    return np.minimum(to_start[index, None] + rows[inverse[:k]], to_end[index, None] + rows[inverse[k:]])


def _scipy_block(net: LinearNetwork, extra_columns: int) -> int:
    return max(1, CHUNK_BYTES // (8 * 3 * (net.n_vertices + extra_columns)))


def vertex_distances(
    net: LinearNetwork,
    points: NetworkPoints,
    limit: float = np.inf,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> np.ndarray:
    """Shortest-path distance from each location to each vertex.

    Args:
        net: the network.
        points: n locations on it.
        limit: distances beyond it are returned as ``np.inf`` (and the searches stop there).
        use_numba: the numba searches (``True``), scipy's Dijkstra (``False``), or numba if installed (``None``).
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        (n, V) distances (layer units); ``np.inf`` between components and beyond ``limit``.
    """
    _check(net, points, "points")
    limit = _limit(limit)
    ends = _ends(net, points)
    n = len(points)
    out = np.full((n, net.n_vertices), np.inf)
    if resolve_use_numba(use_numba):
        graph = _graph_arrays(net)
        for block in _blocks(n, SEARCH_BLOCK):
            seeds = (ends[0][block], ends[2][block], ends[1][block], ends[3][block])
            search.vertex_rows(*graph, *seeds, limit, out[block])
            report(progress, block.stop / n, "Shortest-path distances")
    else:
        order = np.argsort(points.edge, kind="stable")  # neighbours share sources
        for block in _blocks(n, _scipy_block(net, 0)):
            out[order[block]] = _dijkstra_rows(net, order[block], ends, limit)
            report(progress, block.stop / n, "Shortest-path distances")
    if np.isfinite(limit):
        out[out > limit] = np.inf
    return out


def _same_edge_pairs(a: NetworkPoints, b: NetworkPoints, rows: np.ndarray):
    """Pairs (i in rows, j) of locations on the same edge, as (i, j)."""
    order = np.argsort(b.edge, kind="stable")
    sorted_edges = b.edge[order]
    first = np.searchsorted(sorted_edges, a.edge[rows], side="left")
    count = np.searchsorted(sorted_edges, a.edge[rows], side="right") - first
    position = np.repeat(np.arange(rows.size), count)
    within = np.arange(position.size) - np.repeat(np.cumsum(count) - count, count)
    return rows[position], order[np.repeat(first, count) + within]


def point_distances(
    net: LinearNetwork,
    a: NetworkPoints,
    b: NetworkPoints,
    limit: float = np.inf,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> np.ndarray:
    """Shortest-path distances between network locations.

    Args:
        net: the network.
        a, b: locations on it (na and nb of them; ``b`` may be ``a``).
        limit: distances beyond it are returned as ``np.inf`` (and the searches stop there).
        use_numba: the numba searches (``True``), scipy's Dijkstra (``False``), or numba if installed (``None``).
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        (na, nb) distances (layer units); ``np.inf`` between components and beyond ``limit``.
    """
    _check(net, a, "a")
    _check(net, b, "b")
    limit = _limit(limit)
    a_ends = _ends(net, a)
    b_start, b_end, b_to_start, b_to_end = _ends(net, b)
    n = len(a)
    out = np.empty((n, len(b)))
    if resolve_use_numba(use_numba):
        graph = _graph_arrays(net)
        for block in _blocks(n, SEARCH_BLOCK):
            seeds = (a_ends[0][block], a_ends[2][block], a_ends[1][block], a_ends[3][block])
            search.point_rows(*graph, *seeds, limit, b_start, b_to_start, b_end, b_to_end, out[block])
            report(progress, block.stop / max(1, n), "Shortest-path distances")
    else:
        order = np.argsort(a.edge, kind="stable")
        for block in _blocks(n, _scipy_block(net, len(b))):
            rows = _dijkstra_rows(net, order[block], a_ends, limit)
            out[order[block]] = np.minimum(rows[:, b_start] + b_to_start, rows[:, b_end] + b_to_end)
            report(progress, block.stop / max(1, n), "Shortest-path distances")
    i, j = _same_edge_pairs(a, b, np.arange(n))
    out[i, j] = np.minimum(out[i, j], np.abs(a.t[i] - b.t[j]) * net.lengths[a.edge[i]])
    if np.isfinite(limit):
        out[out > limit] = np.inf
    return out


def point_pairs_within(
    net: LinearNetwork,
    a: NetworkPoints,
    b: NetworkPoints,
    limit: float,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of locations at most ``limit`` apart along the network.

    Args:
        net: the network.
        a, b: locations on it (``b`` may be ``a``).
        limit: the largest distance returned (finite, layer units).
        use_numba, progress: as for :func:`point_distances`.

    Returns:
        ``(i, j, d)``: indices into ``a`` and ``b`` and their shortest-path distance ``d <= limit``, ordered by
        ``i``; a location paired with itself (``i == j`` when ``b`` is ``a``) is included, at distance 0.
    """
    _check(net, a, "a")
    _check(net, b, "b")
    limit = _limit(limit)
    if not np.isfinite(limit):
        raise ParameterError("limit", "pairs within a distance need a finite limit (use point_distances)")
    if not resolve_use_numba(use_numba):
        found = []
        for block in _blocks(len(a), _scipy_block(net, len(b))):
            rows = point_distances(net, a.take(block), b, limit, use_numba=False)
            i, j = np.nonzero(rows <= limit)
            found.append((i + block.start, j, rows[i, j]))
            report(progress, block.stop / max(1, len(a)), "Shortest-path distances")
        if not found:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
        return tuple(np.concatenate(column) for column in zip(*found))
    graph = _graph_arrays(net)
    a_ends = _ends(net, a)
    # the edges at each vertex, and b's locations by edge
    ends = net.edges.ravel()
    incident_edge = np.argsort(ends, kind="stable") // 2
    incident_ptr = np.concatenate([[0], np.cumsum(np.bincount(ends, minlength=net.n_vertices))])
    b_index = np.argsort(b.edge, kind="stable")
    b_ptr = np.concatenate([[0], np.cumsum(np.bincount(b.edge, minlength=net.n_edges))])
    found = []
    for block in _blocks(len(a), SEARCH_BLOCK):
        seeds = (a_ends[0][block], a_ends[2][block], a_ends[1][block], a_ends[3][block])
        i, j, d = search.pairs_within(
            *graph, *seeds, limit, a.edge[block], a.t[block], net.edges, net.lengths,
            incident_ptr, incident_edge, b_ptr, b_index, b.t,
        )  # fmt: skip
        found.append((i + block.start, j, d))
        report(progress, block.stop / max(1, len(a)), "Shortest-path distances")
    if not found:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    return tuple(np.concatenate(column) for column in zip(*found))
