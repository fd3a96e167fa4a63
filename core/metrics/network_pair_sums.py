"""Sums over the pairs of points of a pattern on a linear network, for the network K-function.

For radii ``r_0 < ... < r_m`` these are the sums over ordered pairs ``i != j`` with ``0 < d_ij <= r_k`` of
``w_ij = 1 / (lambda_i lambda_j)`` (or 1 for the homogeneous estimator) times the geometric correction: 1 (none,
Okabe & Yamada 2001) or ``1 / m(x_i, d_ij)`` (Ang, Baddeley & Nair 2012), where ``d_ij`` is the shortest-path
distance and ``m(u, t)`` the number of points of the network at distance exactly ``t`` from ``u``. A pair is
counted at the first radius it fits; :func:`core.metrics.network_kfunction.network_k_function` cumulates them.

**The count m(u, t)** follows spatstat's ``countends`` (spatstat.linnet 3.0), tolerance included, so that the
estimates agree with ``linearK`` to rounding. With ``d_v`` the distance from ``u`` to vertex ``v`` and ``tol`` a
small tolerance (spatstat: 0.001 times the shortest edge), ``m(u, t)`` is the sum of

* 1 for every vertex with ``|t - d_v| <= tol`` (a vertex on the perimeter, counted once whatever its degree);
* on the edge holding ``u``, with ends ``A`` and ``B``: ``1(t < d_A - tol) + 1(t < d_B - tol)``;
* on every other edge, with ends at distances ``d_p <= d_q`` and length ``l``: 1 on ``(d_p + tol, d_q - tol)``
  (the perimeter point walking in from ``p``), 1 on ``[d_q - tol, d_q + tol]`` intersected with
  ``(d_p + tol, d_p + l - tol)`` (the same point while the far end is itself on the perimeter), and 2 on
  ``(d_q + tol, h)`` with ``h = (d_p + d_q + l) / 2`` (two points walking in from both ends until they meet).

That is, ``m`` is a step function of ``t`` whose steps sit at ``d_v +- tol``, ``d_q +- tol``, ``d_p + l - tol`` and
``h``. Per centre ``u`` the kernel finds the ``d_v`` (Dijkstra, up to the largest radius), files the steps into
equal cells of ``[0, r_max]`` (a counting sort: no comparison sort per centre) and reads ``m`` at each pair
distance from its cell's running total plus the few steps inside the cell.

Two paths give the same sums up to rounding: a numba kernel with one Dijkstra per centre
(:func:`network_pair_sums_numba`) and a numpy one that takes vertex distances from scipy's Dijkstra for blocks of
centres (:func:`network_pair_sums_numpy`). Both take ``progress(fraction, message)``, which may raise to cancel,
and report fractions from 0.1 to 1. Pairs at distance 0 (duplicated points) are never counted, as in spatstat.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse.csgraph import dijkstra

from ..jit import njit
from ..network.network import LinearNetwork
from ..progress import report
from .pair_sums import _first_at_least, _radius_lookup

#: Networks of at most this many vertices get their vertex-to-vertex distance matrix (72 MB) when there are at
#: least as many points: one Dijkstra search per vertex instead of one per point.
MATRIX_VERTICES = 3000
#: Centres handled per numpy block (bounds the (block, V) and (block, n) temporaries).
_NUMPY_BLOCK = 64


@dataclass(frozen=True)
class NetworkArrays:
    """The arrays the kernels read: a network's edges and an incidence list, and the points on it.

    Attributes:
        efrom, eto: (E,) the two vertices of each edge; elen: (E,) edge lengths.
        adj_start: (V + 1,) CSR offsets into ``adj_vertex`` / ``adj_edge`` per vertex.
        adj_vertex, adj_edge: (2E,) the other vertex and the edge of each incidence.
        pe, pt: (n,) edge and fraction along it of each point.
    """

    efrom: np.ndarray
    eto: np.ndarray
    elen: np.ndarray
    adj_start: np.ndarray
    adj_vertex: np.ndarray
    adj_edge: np.ndarray
    pe: np.ndarray
    pt: np.ndarray

    @classmethod
    def of(cls, net: LinearNetwork, edge: np.ndarray, t: np.ndarray) -> NetworkArrays:
        efrom = np.ascontiguousarray(net.edges[:, 0], dtype=np.int64)
        eto = np.ascontiguousarray(net.edges[:, 1], dtype=np.int64)
        ends = np.concatenate([efrom, eto])
        others = np.concatenate([eto, efrom])
        ids = np.concatenate([np.arange(efrom.size), np.arange(efrom.size)])
        order = np.argsort(ends, kind="stable")
        adj_start = np.zeros(net.n_vertices + 1, dtype=np.int64)
        np.cumsum(np.bincount(ends, minlength=net.n_vertices), out=adj_start[1:])
        return cls(
            efrom,
            eto,
            np.ascontiguousarray(net.lengths, dtype=np.float64),
            adj_start,
            np.ascontiguousarray(others[order]),
            np.ascontiguousarray(ids[order]),
            np.ascontiguousarray(edge, dtype=np.int64),
            np.ascontiguousarray(t, dtype=np.float64),
        )


def default_tolerance(net: LinearNetwork) -> float:
    """spatstat's ``default.linnet.tolerance``: 0.001 times the shortest edge length."""
    return 0.001 * float(np.min(net.lengths))


# -- numba kernel --------------------------------------------------------------------------------


@njit(cache=True)
def _heap_push(heap_d, heap_v, size, d, v):
    k = size
    while k > 0:
        parent = (k - 1) >> 1
        if heap_d[parent] <= d:
            break
        heap_d[k] = heap_d[parent]
        heap_v[k] = heap_v[parent]
        k = parent
    heap_d[k] = d
    heap_v[k] = v
    return size + 1


@njit(cache=True)
def _heap_pop(heap_d, heap_v, size):
    # removes the root; the caller has read it
    size -= 1
    d = heap_d[size]
    v = heap_v[size]
    k = 0
    while True:
        child = 2 * k + 1
        if child >= size:
            break
        if child + 1 < size and heap_d[child + 1] < heap_d[child]:
            child += 1
        if heap_d[child] >= d:
            break
        heap_d[k] = heap_d[child]
        heap_v[k] = heap_v[child]
        k = child
    heap_d[k] = d
    heap_v[k] = v
    return size


@njit(cache=True)
def _dijkstra_from(a, b, da, db, limit, adj_start, adj_vertex, adj_edge, elen, dist, touched, settled, heap_d, heap_v):
    # Shortest-path distances from a location at distance da from vertex a and db from vertex b, up to limit.
    # dist must be inf everywhere on entry. Returns (touched count, settled count): the vertices whose dist was
    # set (to reset later) and those settled, in increasing distance (dist <= limit); any other dist is > limit.
    n_touched = 0
    n_settled = 0
    size = 0
    if da < dist[a]:
        dist[a] = da
        touched[n_touched] = a
        n_touched += 1
        size = _heap_push(heap_d, heap_v, size, da, a)
    if db < dist[b]:
        if dist[b] == np.inf:
            touched[n_touched] = b
            n_touched += 1
        dist[b] = db
        size = _heap_push(heap_d, heap_v, size, db, b)
    while size > 0:
        d = heap_d[0]
        v = heap_v[0]
        size = _heap_pop(heap_d, heap_v, size)
        if d > dist[v]:
            continue  # a stale entry
        if d > limit:
            break
        settled[n_settled] = v
        n_settled += 1
        for s in range(adj_start[v], adj_start[v + 1]):
            w = adj_vertex[s]
            nd = d + elen[adj_edge[s]]
            if nd < dist[w]:
                if dist[w] == np.inf:
                    touched[n_touched] = w
                    n_touched += 1
                dist[w] = nd
                size = _heap_push(heap_d, heap_v, size, nd, w)
    return n_touched, n_settled


@njit(cache=True)
def _add_step(thr, delta, strict, count, r_max, a, dlt, is_strict):
    # steps beyond r_max never count at a pair distance <= r_max
    if a > r_max:
        return count
    thr[count] = a
    delta[count] = dlt
    strict[count] = is_strict
    return count + 1


@njit(cache=True)
def _perimeter_steps(ei, a, b, limit, tol, r_max, efrom, eto, elen, adj_start, adj_vertex, adj_edge, dist, settled,
                     n_settled, thr, delta, strict):  # fmt: skip
    # The steps of t -> m(u, t) (module docstring) for a centre u on edge ei = (a, b); returns their count.
    count = 0
    da = dist[a]
    db = dist[b]
    if da <= limit:
        count = _add_step(thr, delta, strict, count, r_max, da - tol, -1.0, False)
    if db <= limit:
        count = _add_step(thr, delta, strict, count, r_max, db - tol, -1.0, False)
    for s in range(n_settled):
        v = settled[s]
        dv = dist[v]
        count = _add_step(thr, delta, strict, count, r_max, dv - tol, 1.0, False)
        count = _add_step(thr, delta, strict, count, r_max, dv + tol, -1.0, True)
        for k in range(adj_start[v], adj_start[v + 1]):
            e = adj_edge[k]
            if e == ei:
                continue
            w = adj_vertex[k]
            dq = dist[w]
            if dq > limit:
                dq = np.inf
            elif dq < dv or (dq == dv and w < v):
                continue  # the edge is filed from its nearer end
            dp = dv
            length = elen[e]
            lo = dp + tol
            hi = dq - tol
            if lo < hi:
                count = _add_step(thr, delta, strict, count, r_max, lo, 1.0, True)
                count = _add_step(thr, delta, strict, count, r_max, hi, -1.0, False)
            if dq == np.inf:
                continue
            # the far end on the perimeter: [dq - tol, dq + tol] within (dp + tol, dp + length - tol)
            lo_closed = dq - tol > dp + tol
            lo = dq - tol if lo_closed else dp + tol
            hi_open = dp + length - tol < dq + tol
            hi = dp + length - tol if hi_open else dq + tol
            if lo < hi or (lo == hi and lo_closed and not hi_open):
                count = _add_step(thr, delta, strict, count, r_max, lo, 1.0, not lo_closed)
                count = _add_step(thr, delta, strict, count, r_max, hi, -1.0, not hi_open)
            h = 0.5 * (dp + dq + length)
            if dq + tol < h:
                count = _add_step(thr, delta, strict, count, r_max, dq + tol, 2.0, True)
                count = _add_step(thr, delta, strict, count, r_max, h, -2.0, False)
    return count


@njit(cache=True)
def _file_steps(count, base, r_max, thr, delta, strict, cell_of, cell_start, cell_fill, cell_total, s_thr, s_delta,
                s_strict):  # fmt: skip
    # Counting sort of the steps into n_cells equal cells of [0, r_max] (a step's cell never follows that of a
    # larger threshold); cell_total[c] = m just below the first step of cell c. Returns cells per unit length.
    n_cells = cell_total.shape[0]
    per = n_cells / r_max
    cell_start[:] = 0
    for s in range(count):
        c = min(int(max(thr[s], 0.0) * per), n_cells - 1)
        cell_of[s] = c
        cell_start[c + 1] += 1
    total = base
    for c in range(n_cells):
        cell_start[c + 1] += cell_start[c]
        cell_fill[c] = cell_start[c]
        cell_total[c] = 0.0
    for s in range(count):
        c = cell_of[s]
        slot = cell_fill[c]
        cell_fill[c] += 1
        s_thr[slot] = thr[s]
        s_delta[slot] = delta[s]
        s_strict[slot] = strict[s]
        cell_total[c] += delta[s]
    for c in range(n_cells):
        within = cell_total[c]
        cell_total[c] = total
        total += within
    return per


@njit(cache=True)
def _m_at(t, per, cell_start, cell_total, s_thr, s_delta, s_strict):
    n_cells = cell_total.shape[0]
    c = min(int(t * per), n_cells - 1)
    m = cell_total[c]
    for s in range(cell_start[c], cell_start[c + 1]):
        if s_thr[s] < t or (s_thr[s] == t and not s_strict[s]):
            m += s_delta[s]
    return m


@njit(cache=True, nogil=True)  # other Python threads (the QGIS GUI's) run while it counts
def _centre_kernel(
    efrom, eto, elen, adj_start, adj_vertex, adj_edge, pe, pt, radii, table, per_cell, limit, tol, ang, recip,
    vertex_matrix, i0, i1, dist, touched, settled, heap_d, heap_v, thr, delta, strict, cell_of, cell_start,
    cell_fill, cell_total, s_thr, s_delta, s_strict, out,
):  # fmt: skip
    # Centres i0 <= i < i1: out[k] += weight of the ordered pairs (i, j) whose distance first fits radius k
    # (without the correction, each unordered pair once with weight 2, from its smaller index). The distances
    # from a centre to the vertices come from the rows of its edge's ends in vertex_matrix when it is given
    # (V x V, inf beyond limit), else from a Dijkstra search.
    n = pe.shape[0]
    n_vertices = dist.shape[0]
    r_max = radii[radii.shape[0] - 1]
    weighted = recip.shape[0] > 0
    use_matrix = vertex_matrix.shape[0] > 0
    if r_max <= 0.0:
        return
    for i in range(i0, i1):
        ei = pe[i]
        li = elen[ei]
        a = efrom[ei]
        b = eto[ei]
        da = pt[i] * li
        db = (1.0 - pt[i]) * li
        n_touched = 0
        n_settled = 0
        if use_matrix:
            for v in range(n_vertices):
                d = min(da + vertex_matrix[a, v], db + vertex_matrix[b, v])
                dist[v] = d
                if d <= limit:
                    settled[n_settled] = v
                    n_settled += 1
        else:
            n_touched, n_settled = _dijkstra_from(a, b, da, db, limit, adj_start, adj_vertex, adj_edge, elen, dist,
                                                  touched, settled, heap_d, heap_v)  # fmt: skip
        per = 0.0
        if ang:
            count = _perimeter_steps(ei, a, b, limit, tol, r_max, efrom, eto, elen, adj_start, adj_vertex, adj_edge,
                                     dist, settled, n_settled, thr, delta, strict)  # fmt: skip
            per = _file_steps(count, 2.0, r_max, thr, delta, strict, cell_of, cell_start, cell_fill, cell_total,
                              s_thr, s_delta, s_strict)  # fmt: skip
        for j in range(0 if ang else i + 1, n):
            if j == i:
                continue
            ej = pe[j]
            if ej == ei:
                d = abs(pt[j] - pt[i]) * li
            else:
                lj = elen[ej]
                d = dist[efrom[ej]] + pt[j] * lj
                d2 = dist[eto[ej]] + (1.0 - pt[j]) * lj
                if d2 < d:
                    d = d2
            if not (d > 0.0 and d <= r_max):
                continue
            k = _first_at_least(radii, table, per_cell, d)
            if ang:
                m = _m_at(d, per, cell_start, cell_total, s_thr, s_delta, s_strict)
                w = 1.0 / m if m >= 1.0 else 1.0  # spatstat too counts a pair as 1 point if m comes out 0
            else:
                w = 2.0
            if weighted:
                w *= recip[i] * recip[j]
            out[k] += w
        for s in range(n_touched):
            dist[touched[s]] = np.inf


def network_pair_sums_numba(net: LinearNetwork, arrays: NetworkArrays, radii, ang, recip, tol, progress):
    """Pair sums by the numba kernel.

    The distances from each centre to the vertices come from one Dijkstra search per centre, or, when the
    network has at most :data:`MATRIX_VERTICES` vertices and no more than there are points, from the matrix of
    vertex-to-vertex distances (one scipy Dijkstra search per vertex, then two rows per centre).

    Args:
        net: the network (its ``graph`` for the vertex matrix).
        arrays: the network and points (:class:`NetworkArrays`).
        radii: strictly increasing, >= 0.
        ang: weight each pair by ``1 / m(x_i, d_ij)`` (Ang's correction) or not.
        recip: ``1 / lambda_i`` per point, or an empty array for unit weights.
        tol: the perimeter tolerance (module docstring).
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        ``len(radii)`` increments: their cumulative sum up to ``k`` is the pair sum at ``radii[k]``.
    """
    n = arrays.pe.size
    n_vertices = arrays.adj_start.size - 1
    n_edges = arrays.elen.size
    r_max = float(radii[-1])
    limit = r_max + 2.0 * tol
    table, per_cell = _radius_lookup(radii)
    if n_vertices <= min(MATRIX_VERTICES, n):
        vertex_matrix = np.ascontiguousarray(dijkstra(net.graph, limit=limit))
    else:
        vertex_matrix = np.zeros((0, 0))
    report(progress, 0.15, "Counting pairs of points")
    dist = np.full(n_vertices, np.inf)
    touched = np.zeros(n_vertices, dtype=np.int64)
    settled = np.zeros(n_vertices, dtype=np.int64)
    heap_d = np.zeros(2 * n_edges + 4)
    heap_v = np.zeros(2 * n_edges + 4, dtype=np.int64)
    n_steps = (2 * n_vertices + 6 * n_edges + 2) if ang else 1
    thr, s_thr = np.zeros(n_steps), np.zeros(n_steps)
    delta, s_delta = np.zeros(n_steps), np.zeros(n_steps)
    strict, s_strict = np.zeros(n_steps, dtype=np.bool_), np.zeros(n_steps, dtype=np.bool_)
    cell_of = np.zeros(n_steps, dtype=np.int64)
    n_cells = max(64, n_vertices + 2 * n_edges) if ang else 1  # about one step in two cells
    cell_start = np.zeros(n_cells + 1, dtype=np.int64)
    cell_fill = np.zeros(n_cells, dtype=np.int64)
    cell_total = np.zeros(n_cells)
    out = np.zeros(radii.size)
    # blocks of centres: a Cancel is seen within a block
    blocks = np.linspace(0, n, min(n, max(20, n // 200)) + 1).astype(np.int64)
    for k in range(blocks.size - 1):
        _centre_kernel(
            arrays.efrom, arrays.eto, arrays.elen, arrays.adj_start, arrays.adj_vertex, arrays.adj_edge, arrays.pe,
            arrays.pt, radii, table, per_cell, limit, tol, bool(ang), recip, vertex_matrix, int(blocks[k]),
            int(blocks[k + 1]), dist, touched, settled, heap_d, heap_v, thr, delta, strict, cell_of, cell_start,
            cell_fill, cell_total, s_thr, s_delta, s_strict, out,
        )  # fmt: skip
        report(progress, 0.15 + 0.85 * (k + 1) / (blocks.size - 1), "Counting pairs of points")
    return out


# -- numpy path ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PerimeterSteps:
    """``t -> m(u, t)`` for one centre ``u``: ``base + sum(strict steps a < t) + sum(non-strict steps b <= t)``."""

    base: float
    strict_at: np.ndarray  # sorted
    strict_sum: np.ndarray  # cumulative deltas, with a leading 0
    closed_at: np.ndarray  # sorted
    closed_sum: np.ndarray

    def __call__(self, t: np.ndarray) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        return (
            self.base
            + self.strict_sum[np.searchsorted(self.strict_at, t, side="left")]
            + self.closed_sum[np.searchsorted(self.closed_at, t, side="right")]
        )


def perimeter_steps(arrays: NetworkArrays, dist: np.ndarray, ei: int, tol: float) -> PerimeterSteps:
    """The step function ``t -> m(u, t)`` (module docstring) of a centre on edge ``ei`` whose distances to the
    vertices are ``dist`` (``inf`` beyond the radius of interest), by numpy."""
    efrom, eto, elen = arrays.efrom, arrays.eto, arrays.elen
    a, b = int(efrom[ei]), int(eto[ei])
    reached = dist[np.isfinite(dist)]
    da, db = dist[efrom], dist[eto]
    dp, dq = np.minimum(da, db), np.maximum(da, db)
    other = np.isfinite(dp)
    other[ei] = False
    dp, dq, length = dp[other], dq[other], elen[other]
    with np.errstate(invalid="ignore"):  # inf - inf where the far end is beyond reach
        lo1, hi1 = dp + tol, dq - tol
        one = lo1 < hi1
        far = np.isfinite(dq)
        lo_closed = dq - tol > dp + tol
        lo2 = np.where(lo_closed, dq - tol, dp + tol)
        hi_open = dp + length - tol < dq + tol
        hi2 = np.where(hi_open, dp + length - tol, dq + tol)
        two = far & ((lo2 < hi2) | ((lo2 == hi2) & lo_closed & ~hi_open))
        h = 0.5 * (dp + dq + length)
        three = far & (dq + tol < h)
    ends = [dist[v] - tol for v in (a, b) if np.isfinite(dist[v])]
    strict = [
        (reached + tol, -1.0),
        (lo1[one], 1.0),
        (lo2[two & ~lo_closed], 1.0),
        (hi2[two & ~hi_open], -1.0),
        (dq[three] + tol, 2.0),
    ]
    closed = [
        (np.array(ends), -1.0),
        (reached - tol, 1.0),
        (hi1[one & far], -1.0),
        (lo2[two & lo_closed], 1.0),
        (hi2[two & hi_open], -1.0),
        (h[three], -2.0),
    ]

    def steps(parts):
        at = np.concatenate([p for p, _ in parts])
        deltas = np.concatenate([np.full(p.size, w) for p, w in parts])
        order = np.argsort(at, kind="stable")
        return at[order], np.concatenate([[0.0], np.cumsum(deltas[order])])

    strict_at, strict_sum = steps(strict)
    closed_at, closed_sum = steps(closed)
    return PerimeterSteps(2.0, strict_at, strict_sum, closed_at, closed_sum)


def centre_distances(net: LinearNetwork, arrays: NetworkArrays, centres: np.ndarray, limit: float) -> np.ndarray:
    """(len(centres), V) shortest-path distances from the points ``centres`` to every vertex, ``inf`` beyond
    ``limit``, from scipy's Dijkstra from the ends of their edges."""
    ei = arrays.pe[centres]
    li = arrays.elen[ei]
    a, b = arrays.efrom[ei], arrays.eto[ei]
    sources, where = np.unique(np.concatenate([a, b]), return_inverse=True)
    rows = dijkstra(net.graph, indices=sources, limit=limit)
    to_a = arrays.pt[centres][:, None] * li[:, None] + rows[where[: centres.size]]
    to_b = (1.0 - arrays.pt[centres])[:, None] * li[:, None] + rows[where[centres.size :]]
    dist = np.minimum(to_a, to_b)
    dist[dist > limit] = np.inf
    return dist


def network_pair_sums_numpy(net: LinearNetwork, arrays: NetworkArrays, radii, ang, recip, tol, progress):
    """Pair sums by numpy over scipy's Dijkstra, in blocks of centres; arguments and result as
    :func:`network_pair_sums_numba` (plus the network, whose ``graph`` scipy reads)."""
    n = arrays.pe.size
    r_max = float(radii[-1])
    out = np.zeros(radii.size)
    if r_max <= 0:
        return out
    limit = r_max + 2.0 * tol
    pe, pt, elen = arrays.pe, arrays.pt, arrays.elen
    lj = elen[pe]
    block = max(1, min(_NUMPY_BLOCK, -(-n // 20)))  # at least 20 blocks: a Cancel is seen within one
    for s in range(0, n, block):
        centres = np.arange(s, min(s + block, n))
        dist = centre_distances(net, arrays, centres, limit)
        d = np.minimum(dist[:, arrays.efrom[pe]] + pt * lj, dist[:, arrays.eto[pe]] + (1.0 - pt) * lj)
        same = pe[None, :] == pe[centres][:, None]
        d = np.where(same, np.abs(pt[None, :] - pt[centres][:, None]) * lj[None, :], d)
        for row, i in enumerate(centres):
            di = d[row]
            j = np.flatnonzero((di > 0) & (di <= r_max))
            j = j[j != i]
            if j.size == 0:
                continue
            t = di[j]
            w = np.ones(t.size)
            if ang:
                m = perimeter_steps(arrays, dist[row], int(pe[i]), tol)(t)
                w = 1.0 / np.where(m >= 1.0, m, 1.0)
            if recip.size:
                w = w * (recip[i] * recip[j])
            out += np.bincount(np.searchsorted(radii, t, side="left"), weights=w, minlength=radii.size)
        report(progress, 0.1 + 0.9 * min(s + block, n) / n, "Counting pairs of points")
    return out


def perimeter_counts(net: LinearNetwork, arrays: NetworkArrays, centres, t, tol: float) -> np.ndarray:
    """``m(x_i, t_k)`` for centres ``x_i`` (indices into the points of ``arrays``) and distances ``t_k``, one per
    centre, by the numpy path; the number of network points at distance exactly ``t_k`` (module docstring)."""
    centres = np.asarray(centres, dtype=np.int64).reshape(-1)
    t = np.asarray(t, dtype=np.float64).reshape(-1)
    out = np.empty(t.size)
    limit = float(t.max(initial=0.0)) + 2.0 * tol
    for s in range(0, centres.size, _NUMPY_BLOCK):
        block = centres[s : s + _NUMPY_BLOCK]
        dist = centre_distances(net, arrays, block, limit)
        for row, i in enumerate(block):
            out[s + row] = perimeter_steps(arrays, dist[row], int(arrays.pe[i]), tol)(t[s + row])
    return out
