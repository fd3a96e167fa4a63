"""Nested dissection: a fill-reducing ordering of a sparse symmetric matrix, from its graph alone.

George (1973), "Nested dissection of a regular finite element mesh", SIAM J. Numer. Anal. 10(2): find a small set
of rows ``S`` (a separator) whose removal splits the matrix's graph into two parts ``A`` and ``B`` with no entry
between them; order ``A``, then ``B``, then ``S``, each part recursively. Eliminating ``A`` creates no fill in
``B`` and the reverse, so a planar mesh of ``n`` nodes, whose separators have ``O(sqrt n)`` nodes (Lipton & Tarjan
1979), fills its Cholesky factor with ``O(n log n)`` entries in ``O(n^{3/2})`` operations: the best possible order
of growth for such meshes. A bandwidth-reducing ordering fills ``O(n^{3/2})``, and minimum degree, greedy, has no
such bound.

The separators come from breadth-first level structures (George & Liu 1978, "An automatic nested dissection
algorithm for irregular finite element problems", SIAM J. Numer. Anal. 15(5)): from the two ends ``u``, ``v`` of a
pseudo-diameter, both the distance to ``u`` and the difference of the distances to ``u`` and ``v`` are cut at each
level that leaves between 30 and 70% of the nodes on each side. The nodes on the low side of a cut with a neighbour
on the high side separate the two, and the smallest such separator is taken. On the LGCP's Hessian of a 100,198-node
mesh of a square (2-core machine, SciPy's SuperLU with this order and no further permutation) the factor has 30.6
million entries and takes 1.0-1.1 s, against 40.5 million and 2.1 s under SuperLU's multiple minimum degree, and
27.3 million and 1.0 s under METIS (through CHOLMOD, which is not a dependency); computing the order took 3.3 s, once
per sparsity pattern (tests/benchmarks/bench_factor.py).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, reverse_cuthill_mckee, shortest_path

#: Parts of at most this many nodes are not split further; they are ordered by reverse Cuthill-McKee.
LEAF_NODES = 64
#: A cut is accepted if each side keeps at least ``0.5 - BALANCE`` of the part's nodes.
BALANCE = 0.2


def nested_dissection(pattern: sp.spmatrix) -> np.ndarray:
    """A nested-dissection ordering of the symmetric sparsity pattern ``pattern`` (its values and diagonal are
    ignored): row ``k`` of ``P A P'`` is row ``order[k]`` of ``A``. Deterministic: the same pattern gives the same
    order."""
    coo = sp.coo_matrix(pattern)
    n = coo.shape[0]
    if coo.shape != (n, n):
        raise ValueError(f"a nested dissection needs a square matrix, got shape {coo.shape}")
    if n == 0:
        return np.empty(0, dtype=np.int64)
    off = coo.row != coo.col
    rows, cols = np.concatenate([coo.row[off], coo.col[off]]), np.concatenate([coo.col[off], coo.row[off]])
    graph = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))  # symmetric, whatever was stored
    graph.sum_duplicates()
    graph.data[:] = 1.0
    order: list[np.ndarray] = []
    # a stack of ("split", nodes) and ("emit", separator): a part's order, then the next part's, then the separator
    stack: list[tuple[str, np.ndarray]] = [("split", np.arange(n, dtype=np.int64))]
    while stack:
        kind, nodes = stack.pop()
        if kind == "emit":
            order.append(nodes)
            continue
        sub = graph[nodes][:, nodes]
        if nodes.size <= LEAF_NODES:
            order.append(nodes[reverse_cuthill_mckee(sub, symmetric_mode=True)])
            continue
        count, labels = connected_components(sub, directed=False)
        if count > 1:
            stack.extend(("split", nodes[labels == k]) for k in reversed(range(count)))
            continue
        low, high, separator = _bisect(sub)
        if low.size == 0 or high.size == 0:  # no balanced cut (a clique, say): order the part as a leaf
            order.append(nodes[reverse_cuthill_mckee(sub, symmetric_mode=True)])
            continue
        stack.append(("emit", nodes[separator]))
        stack.append(("split", nodes[high]))
        stack.append(("split", nodes[low]))
    return np.concatenate(order).astype(np.int64, copy=False)


def _distances(graph: sp.csr_matrix, start: int) -> np.ndarray:
    """Breadth-first levels (edges counted) from ``start`` in a connected graph."""
    return shortest_path(graph, method="D", directed=False, unweighted=True, indices=start).astype(np.int64)


def _bisect(graph: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(low, high, separator)``: a partition of a connected graph's nodes with no edge between ``low`` and
    ``high``; the smallest separator over the balanced cuts of two level functions (see the module's text)."""
    from_u = _distances(graph, int(np.argmax(_distances(graph, 0))))
    from_v = _distances(graph, int(np.argmax(from_u)))
    best = None
    for level in (from_u, from_u - from_v):
        cut = _smallest_cut(graph, level)
        if cut is not None and (best is None or cut[0] < best[0]):
            best = cut
    if best is None:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, np.arange(graph.shape[0], dtype=np.int64)
    _, level, k, top = best
    separator = (level <= k) & (top > k)
    return np.flatnonzero((level <= k) & ~separator), np.flatnonzero(level > k), np.flatnonzero(separator)


def _smallest_cut(graph: sp.csr_matrix, level: np.ndarray):
    """``(size, level, k, top)`` of the balanced cut ``level <= k`` with the fewest separator nodes, or None.

    The separator of cut ``k`` is the nodes with ``level <= k`` and a neighbour above ``k``: those with
    ``level <= k < top``, where ``top`` is a node's largest neighbouring level. Its size for every ``k`` at once is
    a running sum of +1 at ``level`` and -1 at ``top``."""
    n = graph.shape[0]
    rows = np.repeat(np.arange(n), np.diff(graph.indptr))
    top = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(top, rows, level[graph.indices])
    base = int(level.min())
    span = int(level.max()) - base + 1
    if span < 2:
        return None
    opens = np.bincount(level - base, minlength=span)
    crossing = top > level
    closes = np.bincount(top[crossing] - base, minlength=span)[:span]
    sizes = np.cumsum(np.bincount(level[crossing] - base, minlength=span) - closes)
    below = np.cumsum(opens)  # nodes with level <= k
    ks = np.arange(span - 1)  # the last level leaves nothing above
    low = below[ks] - sizes[ks]
    balanced = ks[(low >= (0.5 - BALANCE) * n) & (n - below[ks] >= (0.5 - BALANCE) * n)]
    if balanced.size == 0:
        return None
    k = int(balanced[np.argmin(sizes[balanced])])
    return int(sizes[k]), level, k + base, top
