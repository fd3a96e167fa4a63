"""The resistance metric on a linear network (Anderes, Møller & Rasmussen 2020; Kim & Lim, Appendix E.2).

Treat each edge as a wire of resistance equal to its length (conductance ``c = 1 / l``). Between vertices the
metric is the effective resistance, ``R(u, v) = (e_u - e_v)' L^+ (e_u - e_v)`` with ``L`` the weighted graph
Laplacian. Kim & Lim (eqs. 22-23) define it for any two locations as ``Var(Z_L(u) - Z_L(v))`` where
``Z_L = Z_mu + sum_e Z_e``: ``Z_mu`` interpolates a Gaussian vector on the vertices with precision
``C = L + e_o e_o'`` linearly along each edge, and ``Z_e`` is an independent Brownian bridge on edge ``e`` with
``Var Z_e(t) = l t (1 - t)``. Writing ``f_u = (1 - t) e_a + t e_b`` for a location at fraction ``t`` of edge
``(a, b)`` of length ``l``:

    R(u, v) = (f_u - f_v)' L^+ (f_u - f_v) + l_u t_u (1 - t_u) + l_v t_v (1 - t_v)      (different edges)
    R(u, v) = (t_u - t_v)^2 R(a, b) + l (|t_u - t_v| - (t_u - t_v)^2)                  (the same edge)

which is exactly the effective resistance of the network with ``u`` and ``v`` inserted as vertices (the edge
split in two wires of resistance ``t l`` and ``(1 - t) l``). It equals the shortest-path distance on a tree,
``d (C - d) / C`` on a cycle of length ``C``, and follows the series and parallel rules.

``(f_u - f_v)`` sums to zero within one component, so ``L^+`` may be replaced by the inverse of the Laplacian
grounded at one vertex per component (that vertex's row and column removed, its potential zero): a sparse LU
factorisation (SuperLU with a fill-reducing symmetric ordering and no pivoting, stable for this symmetric
positive definite matrix), cached per network, and one solve per location, by a numba kernel over many
right-hand sides at once when numba is installed (SuperLU's own solve otherwise). Locations in different
components are at infinite resistance (no current flows between them).
"""

from __future__ import annotations

import weakref
from functools import cached_property

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import splu

from ..errors import ParameterError
from ..jit import njit, resolve_use_numba
from ..progress import Progress, report, scaled
from .network import LinearNetwork, NetworkPoints

#: bytes of potentials solved for at once (each right-hand side is one column of V doubles)
CHUNK_BYTES = 64 * 2**20

_FACTORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _GroundedLaplacian:
    """The conductance Laplacian grounded at the first vertex of each component, factorised."""

    def __init__(self, net: LinearNetwork):
        a, b = net.edges[:, 0], net.edges[:, 1]
        conductance = 1.0 / net.lengths
        n = net.n_vertices
        adjacency = sparse.coo_matrix((conductance, (a, b)), shape=(n, n)).tocsr()
        adjacency = adjacency + adjacency.T  # parallel edges add their conductances
        laplacian = sparse.diags(np.asarray(adjacency.sum(axis=1)).ravel()) - adjacency
        labels = net.components()
        _, ground = np.unique(labels, return_index=True)
        keep = np.ones(n, dtype=bool)
        keep[ground] = False
        self.size = int(keep.sum())
        # row of each vertex in the solution; grounded vertices read a row of zeros appended at the end
        self.row = np.full(n, self.size, dtype=np.int64)
        self.row[keep] = np.arange(self.size)
        self.lu = None
        if self.size:
            reduced = laplacian.tocsr()[keep][:, keep].tocsc()
            self.lu = splu(reduced, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})

    @cached_property
    def factors(self) -> tuple:
        lower, upper = self.lu.L.tocsc(), self.lu.U.tocsc()
        return lower.indptr, lower.indices, lower.data, upper.indptr, upper.indices, upper.data

    def solve(self, rhs: np.ndarray, use_numba: bool) -> np.ndarray:
        """Potentials for the currents ``rhs`` ((V_kept, k), one column per right-hand side)."""
        if self.lu is None:
            return rhs
        if not use_numba:
            return self.lu.solve(np.asfortranarray(rhs))
        work = np.empty((self.size, rhs.shape[1]))
        work[self.lu.perm_r] = rhs  # Pr A Pc = L U
        _lu_solve(*self.factors, work)
        return work[self.lu.perm_c]

    def potentials(self, vertex_a, vertex_b, weight_a, weight_b, use_numba: bool) -> np.ndarray:
        """(V_kept + 1, k) potentials for unit currents ``weight_a e_a + weight_b e_b`` (last row: ground, 0)."""
        k = vertex_a.size
        rhs = np.zeros((self.size + 1, k))
        columns = np.arange(k)
        np.add.at(rhs, (self.row[vertex_a], columns), weight_a)
        np.add.at(rhs, (self.row[vertex_b], columns), weight_b)
        rhs[: self.size] = self.solve(rhs[: self.size], use_numba)
        rhs[self.size] = 0.0
        return rhs


@njit(cache=True)
def _lu_solve(lower_ptr, lower_row, lower_value, upper_ptr, upper_row, upper_value, b):
    """Solve L U x = b in place (b: (n, k), C order) for SuperLU's factors (CSC; L with a unit diagonal)."""
    n, k = b.shape
    for j in range(n):
        for p in range(lower_ptr[j], lower_ptr[j + 1]):
            i = lower_row[p]
            if i > j:
                value = lower_value[p]
                for c in range(k):
                    b[i, c] -= value * b[j, c]
    for j in range(n - 1, -1, -1):
        diagonal = 1.0
        for p in range(upper_ptr[j], upper_ptr[j + 1]):
            if upper_row[p] == j:
                diagonal = upper_value[p]
        for c in range(k):
            b[j, c] /= diagonal
        for p in range(upper_ptr[j], upper_ptr[j + 1]):
            i = upper_row[p]
            if i < j:
                value = upper_value[p]
                for c in range(k):
                    b[i, c] -= value * b[j, c]


def _grounded(net: LinearNetwork) -> _GroundedLaplacian:
    factor = _FACTORS.get(net)
    if factor is None:
        factor = _FACTORS[net] = _GroundedLaplacian(net)
    return factor


def _locations(net: LinearNetwork, points: NetworkPoints, name: str):
    if len(points) and (points.edge.min() < 0 or points.edge.max() >= net.n_edges):
        raise ParameterError(name, "a location refers to an edge the network does not have")
    ends = net.edges[points.edge]
    length = net.lengths[points.edge]
    return ends[:, 0], ends[:, 1], 1.0 - points.t, points.t, length * points.t * (1.0 - points.t)


def _chunk(size: int) -> int:
    return max(1, CHUNK_BYTES // (8 * (size + 1)))


def _same(a: NetworkPoints, b: NetworkPoints) -> bool:
    return a is b or (len(a) == len(b) and np.array_equal(a.edge, b.edge) and np.array_equal(a.t, b.t))


def _self_terms(factor: _GroundedLaplacian, start, end, w_start, w_end, use_numba, progress) -> np.ndarray:
    """f' M f for each location (its resistance to its component's ground vertex, without the bridge)."""
    out = np.empty(start.size)
    step = _chunk(factor.size)
    for first in range(0, start.size, step):
        s = slice(first, min(start.size, first + step))
        x = factor.potentials(start[s], end[s], w_start[s], w_end[s], use_numba)
        columns = np.arange(x.shape[1])
        out[s] = w_start[s] * x[factor.row[start[s]], columns] + w_end[s] * x[factor.row[end[s]], columns]
        report(progress, s.stop / max(1, start.size), "Resistance metric")
    return out


def resistance_distances(
    net: LinearNetwork,
    a: NetworkPoints,
    b: NetworkPoints,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> np.ndarray:
    """The resistance metric between network locations (see the module docstring).

    Args:
        net: the network.
        a, b: locations on it (na and nb of them; ``b`` may be ``a``).
        use_numba: solve with the numba kernel (``True``), SuperLU's own solve (``False``), or numba if it is
            installed (``None``).
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        (na, nb) resistance distances (layer units: a resistance of 1 per unit of length); ``np.inf`` between
        locations in different components.
    """
    a_start, a_end, a_w0, a_w1, a_bridge = _locations(net, a, "a")
    b_start, b_end, b_w0, b_w1, b_bridge = _locations(net, b, "b")
    use_numba = resolve_use_numba(use_numba)
    factor = _grounded(net)
    cross = np.empty((len(a), len(b)))
    b_self = np.empty(len(b))
    rows_a0, rows_a1 = factor.row[a_start], factor.row[a_end]
    step = _chunk(factor.size)
    for first in range(0, len(b), step):
        s = slice(first, min(len(b), first + step))
        x = factor.potentials(b_start[s], b_end[s], b_w0[s], b_w1[s], use_numba)
        cross[:, s] = a_w0[:, None] * x[rows_a0] + a_w1[:, None] * x[rows_a1]
        columns = np.arange(x.shape[1])
        b_self[s] = b_w0[s] * x[factor.row[b_start[s]], columns] + b_w1[s] * x[factor.row[b_end[s]], columns]
        report(progress, 0.5 * s.stop / max(1, len(b)), "Resistance metric")
    if _same(a, b):
        a_self = b_self
    else:
        a_self = _self_terms(factor, a_start, a_end, a_w0, a_w1, use_numba, scaled(progress, 0.5, 1.0))
    out = (a_self + a_bridge)[:, None] + (b_self + b_bridge)[None, :] - 2.0 * cross
    # the same edge: the bridges are one Brownian bridge, Cov(B(s), B(t)) = l (min(s, t) - s t)
    i, j = _same_edge(a.edge, b.edge)
    if i.size:
        s_, t_ = a.t[i], b.t[j]
        out[i, j] -= 2.0 * net.lengths[a.edge[i]] * (np.minimum(s_, t_) - s_ * t_)
    np.maximum(out, 0.0, out=out)
    labels = net.edge_components()
    if net.n_components > 1:
        out[labels[a.edge][:, None] != labels[b.edge][None, :]] = np.inf
    report(progress, 1.0, "Resistance metric")
    return out


def resistance_pairs(
    net: LinearNetwork,
    a: NetworkPoints,
    b: NetworkPoints,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> np.ndarray:
    """The resistance metric between ``a[k]`` and ``b[k]`` for each k: (n,), one solve per pair (arguments as
    :func:`resistance_distances`)."""
    use_numba = resolve_use_numba(use_numba)
    if len(a) != len(b):
        raise ParameterError("b", "pairs need as many locations in b as in a")
    a_start, a_end, a_w0, a_w1, a_bridge = _locations(net, a, "a")
    b_start, b_end, b_w0, b_w1, b_bridge = _locations(net, b, "b")
    factor = _grounded(net)
    out = np.empty(len(a))
    step = _chunk(factor.size)
    for first in range(0, len(a), step):
        s = slice(first, min(len(a), first + step))
        vertex_a = np.concatenate([a_start[s], a_end[s]])
        vertex_b = np.concatenate([b_start[s], b_end[s]])
        k = s.stop - s.start
        columns = np.tile(np.arange(k), 2)
        rhs = np.zeros((factor.size + 1, k))
        np.add.at(rhs, (factor.row[vertex_a], columns), np.concatenate([a_w0[s], a_w1[s]]))
        np.add.at(rhs, (factor.row[vertex_b], columns), -np.concatenate([b_w0[s], b_w1[s]]))
        rhs[factor.size] = 0.0
        x = rhs.copy()
        x[: factor.size] = factor.solve(rhs[: factor.size], use_numba)
        out[s] = np.einsum("ij,ij->j", rhs, x)
        report(progress, s.stop / max(1, len(a)), "Resistance metric")
    same_edge = a.edge == b.edge
    covariance = np.where(same_edge, net.lengths[a.edge] * (np.minimum(a.t, b.t) - a.t * b.t), 0.0)
    out += a_bridge + b_bridge - 2.0 * covariance
    np.maximum(out, 0.0, out=out)
    labels = net.edge_components()
    out[labels[a.edge] != labels[b.edge]] = np.inf
    return out


def _same_edge(edge_a: np.ndarray, edge_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (i, j) with edge_a[i] == edge_b[j]."""
    order = np.argsort(edge_b, kind="stable")
    sorted_b = edge_b[order]
    first = np.searchsorted(sorted_b, edge_a, side="left")
    count = np.searchsorted(sorted_b, edge_a, side="right") - first
    i = np.repeat(np.arange(edge_a.size), count)
    within = np.arange(i.size) - np.repeat(np.cumsum(count) - count, count)
    return i, order[np.repeat(first, count) + within]
