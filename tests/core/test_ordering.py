"""Nested dissection (core.ordering): a permutation, separators that separate, and the fill of George's theory."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

from spatial_privacy.core import fields, linalg
from spatial_privacy.core.ordering import BALANCE, _bisect, nested_dissection
from spatial_privacy.core.triangulation import triangulate
from spatial_privacy.core.window import Window

from .test_linalg import grid_laplacian


def factor_entries(matrix: sp.spmatrix, order: np.ndarray) -> int:
    """Entries of the unit lower factor ``L`` of ``P A P'`` (no further permutation)."""
    return int(linalg._superlu(sp.csc_matrix(matrix[order][:, order]), "NATURAL").L.nnz)


def pattern(matrix: sp.spmatrix) -> sp.csr_matrix:
    m = sp.csr_matrix(matrix)
    return sp.csr_matrix((np.ones(m.nnz), m.indices, m.indptr), shape=m.shape)


@pytest.mark.parametrize("k", [32, 64])
def test_a_cut_separates_and_is_balanced(k):
    """No edge joins the two sides; each side keeps at least 0.5 - BALANCE of the nodes; the separator is within
    the planar separator theorem's bound 2 sqrt(2) sqrt(n) (Lipton & Tarjan 1979)."""
    graph = pattern(grid_laplacian(k, 0.01))
    n = k * k
    low, high, separator = _bisect(graph)
    assert np.array_equal(np.sort(np.concatenate([low, high, separator])), np.arange(n))
    assert graph[low][:, high].nnz == 0
    assert min(low.size, high.size) >= (0.5 - BALANCE) * n
    assert separator.size <= 2 * math.sqrt(2) * math.sqrt(n)


def test_fill_grows_like_n_log_n():
    """George (1973): nested dissection of a k x k grid fills ``L`` with O(n log n) entries (at most 31/4 n log2 n
    for the nine-point grid, which has more edges than this five-point one); a band's fill, n (k + 1), grows like
    n^{3/2}. From k = 64 to 128, n log2 n grows 4 x 14/12 = 4.67 times and n^{3/2} 8 times: the measured growth
    must be the first, within the lower-order terms' 15%."""
    entries = {}
    for k in (64, 128):
        n = k * k
        entries[k] = factor_entries(grid_laplacian(k, 0.01), nested_dissection(grid_laplacian(k, 0.01)))
        assert entries[k] <= 31 / 4 * n * math.log2(n)
        assert entries[k] < 0.5 * n * (k + 1)  # less than half the band
    assert entries[128] / entries[64] < 1.15 * 4 * 14 / 12


def test_a_mesh_precision_is_ordered_once_and_the_same_way():
    """The SPDE precision of a mesh with a hole (an irregular planar graph): a permutation, the same each time, and
    the sparse factor under it is exact (its log-determinant is the dense one's)."""
    outer = [(0, 0), (40, 0), (40, 30), (0, 30)]
    hole = [(15, 10), (25, 10), (25, 20), (15, 20)]
    mesh = triangulate(Window.from_polygons([(outer, [hole])]), 1.5)
    q = fields.SPDEMatern(*mesh.fem_matrices()).precision(8.0, 1.0)
    order = nested_dissection(q)
    assert np.array_equal(np.sort(order), np.arange(q.shape[0]))
    assert np.array_equal(order, nested_dissection(q))
    assert order.dtype == np.int64
    assert factor_entries(q, order) < 0.5 * linalg.BandedCholesky.factor(q).upper.size
    factor = linalg.SparseCholesky.factor(q)
    assert factor.logdet == pytest.approx(np.linalg.slogdet(q.toarray())[1], rel=1e-12)


def test_disconnected_small_and_dense_graphs():
    """Parts without edges between them are ordered one after the other; graphs too small or too dense to cut are
    ordered whole; a pattern stored on one side only is read as symmetric."""
    two = sp.block_diag([grid_laplacian(12, 0.01), grid_laplacian(9, 0.01), sp.identity(1)], format="csr")
    order = nested_dissection(two)
    assert np.array_equal(np.sort(order), np.arange(two.shape[0]))
    first = np.isin(order, np.arange(144))
    assert np.all(first[:144]) and not np.any(first[144:])  # the first part's nodes come first
    for n in (0, 1, 2):
        assert np.array_equal(np.sort(nested_dissection(sp.identity(n, format="csr"))), np.arange(n))
    clique = sp.csr_matrix(np.ones((100, 100)))
    assert np.array_equal(np.sort(nested_dissection(clique)), np.arange(100))
    grid = grid_laplacian(20, 0.01)
    assert np.array_equal(nested_dissection(sp.triu(grid)), nested_dissection(grid))
    with pytest.raises(ValueError, match="square"):
        nested_dissection(sp.csr_matrix((3, 4)))
