"""Cholesky factors of sparse SPD matrices (core.linalg): banded and sparse (SuperLU), against dense algebra."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from scipy import stats

from spatial_privacy.core.linalg import (
    BandedCholesky,
    SparseCholesky,
    bandwidth,
    cholesky,
    rcm_permutation,
    sum_log,
)


def grid_laplacian(k: int, shift: float) -> sp.csr_matrix:
    """A 2-D five-point Laplacian plus a shift: sparse SPD with a local pattern, like SPDE precisions."""
    one = sp.diags([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], [-1, 0, 1])
    eye = sp.identity(k)
    return sp.csr_matrix(sp.kron(one, eye) + sp.kron(eye, one) + shift * sp.identity(k * k))


@pytest.fixture(scope="module")
def spd():
    a = grid_laplacian(12, 0.3)
    rng = np.random.default_rng(0)
    perm = rng.permutation(a.shape[0])  # scramble the natural ordering: RCM must recover a narrow band
    return sp.csr_matrix(a[perm][:, perm])


def test_rcm_reduces_bandwidth(spd):
    perm = rcm_permutation(spd)
    assert sorted(perm) == list(range(spd.shape[0]))
    assert bandwidth(spd[perm][:, perm]) <= 13 < bandwidth(spd)


def test_logdet_and_solve_match_dense(spd):
    factor = BandedCholesky.factor(spd)
    dense = spd.toarray()
    assert factor.logdet == pytest.approx(np.linalg.slogdet(dense)[1], rel=1e-12)
    rhs = np.random.default_rng(1).standard_normal((spd.shape[0], 3))
    assert np.allclose(factor.solve(rhs), np.linalg.solve(dense, rhs), rtol=1e-10, atol=1e-12)
    assert np.allclose(factor.solve(rhs[:, 0]), np.linalg.solve(dense, rhs[:, 0]), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", [BandedCholesky, SparseCholesky], ids=["banded", "sparse"])
def test_draws_have_the_inverse_as_covariance(spd, kind):
    factor = kind.factor(spd)
    rng = np.random.default_rng(2)
    x = factor.whiten_inverse(rng.standard_normal((spd.shape[0], 40_000)))
    cov = np.linalg.inv(spd.toarray())
    # variances: sample variance of 40,000 normals has relative sd sqrt(2/40000) = 0.7%; allow 5 sd
    assert np.allclose(x.var(axis=1), np.diag(cov), rtol=5 * np.sqrt(2 / 40_000))
    # a whitened linear combination is standard normal: a' x / sqrt(a' cov a)
    a = rng.standard_normal(spd.shape[0])
    stat = a @ x / np.sqrt(a @ cov @ a)
    assert stats.kstest(stat, "norm").pvalue > 1e-3


def test_not_positive_definite_is_refused():
    with pytest.raises(np.linalg.LinAlgError):
        BandedCholesky.factor(grid_laplacian(4, -1.0))


def test_whitening_in_blocks_is_the_dense_solve_and_reports_each_block(spd, monkeypatch):
    """x = P' U^{-1} z column by column, whatever the blocks; progress is called after each block with rising
    fractions ending at 1, and an exception raised there (a Cancel) stops the solve."""
    import spatial_privacy.core.linalg as linalg

    factor = BandedCholesky.factor(spd)
    z = np.random.default_rng(3).standard_normal((spd.shape[0], 50))
    u = np.triu(sum(np.diag(factor.upper[-1 - k, k:], k) for k in range(factor.upper.shape[0])))
    expected = np.empty_like(z)
    expected[factor.perm] = np.linalg.solve(u, z)
    whole = factor.whiten_inverse(z)
    monkeypatch.setattr(linalg, "SOLVE_BLOCK_FLOPS", 2 * factor.upper.size * 7)  # blocks of 7 columns
    calls = []
    blocks = factor.whiten_inverse(z, lambda fraction, message: calls.append((fraction, message)), "drawing")
    assert np.allclose(whole, expected, rtol=1e-10, atol=1e-12) and np.array_equal(blocks, whole)
    assert [f for f, _ in calls] == pytest.approx([7 / 50 * k for k in range(1, 8)] + [1.0])
    assert {m for _, m in calls} == {"drawing"}
    assert np.array_equal(factor.whiten_inverse(z[:, 0]), whole[:, 0])  # one vector

    def cancel(fraction, message):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        factor.whiten_inverse(z, cancel)


# -- the sparse factor (SuperLU, nested-dissection ordering, no pivoting) -------------------------------------------


def test_sparse_factor_matches_the_banded_one(spd):
    """Same log-determinant and solves as the banded factor (both backward-stable Cholesky-type factorisations of
    a well-conditioned matrix, so they agree to rounding: 1e-12 relative), and ``x = whiten_inverse(z)`` is the
    same linear map up to an orthogonal factor: with ``M = whiten_inverse(I)``, ``M M' = A^{-1}`` exactly (to
    rounding) for both."""
    banded, sparse = BandedCholesky.factor(spd), SparseCholesky.factor(spd)
    assert sparse.n == spd.shape[0]
    assert sparse.logdet == pytest.approx(banded.logdet, rel=1e-12)
    rhs = np.random.default_rng(4).standard_normal((spd.shape[0], 3))
    assert np.allclose(sparse.solve(rhs), banded.solve(rhs), rtol=1e-10, atol=1e-12)
    assert np.allclose(sparse.solve(rhs[:, 0]), banded.solve(rhs[:, 0]), rtol=1e-10, atol=1e-12)
    eye = np.eye(spd.shape[0])
    m_sparse, m_banded = sparse.whiten_inverse(eye), banded.whiten_inverse(eye)
    assert np.allclose(m_sparse @ m_sparse.T, m_banded @ m_banded.T, rtol=1e-10, atol=1e-12)
    assert np.allclose(m_sparse @ m_sparse.T, np.linalg.inv(spd.toarray()), rtol=1e-10, atol=1e-12)


def test_sparse_whitening_in_blocks_reports_each_block(spd, monkeypatch):
    import spatial_privacy.core.linalg as linalg

    factor = SparseCholesky.factor(spd)
    z = np.random.default_rng(6).standard_normal((spd.shape[0], 50))
    whole = factor.whiten_inverse(z)
    lower_nnz = sp.csr_matrix(factor.lu.L).nnz
    monkeypatch.setattr(linalg, "SOLVE_BLOCK_FLOPS", 2 * (lower_nnz + factor.nnz) * 20)  # blocks of 20 columns
    calls = []
    blocks = factor.whiten_inverse(z, lambda fraction, message: calls.append(fraction), "drawing")
    assert np.allclose(blocks, whole, rtol=1e-12, atol=1e-14)
    assert calls == pytest.approx([0.4, 0.8, 1.0])
    monkeypatch.setattr(linalg, "SOLVE_BLOCK_FLOPS", 1.0)  # never fewer columns than SPARSE_SOLVE_COLUMNS
    calls.clear()
    blocks = factor.whiten_inverse(z, lambda fraction, message: calls.append(fraction), "drawing")
    assert np.allclose(blocks, whole, rtol=1e-12, atol=1e-14)
    step = linalg.SPARSE_SOLVE_COLUMNS
    assert calls == pytest.approx([min(1.0, step * k / 50) for k in range(1, -(-50 // step) + 1)])
    assert np.allclose(factor.whiten_inverse(z[:, 0]), whole[:, 0], rtol=1e-12, atol=1e-14)


def test_sparse_factor_keeps_the_ordering_of_a_pattern(spd):
    """A second matrix with the same pattern reuses the first one's ordering (and is still factorised exactly);
    the ordering is a fill-reducing one: fewer entries than the banded factor's band."""
    first = SparseCholesky.factor(spd)
    other = sp.csr_matrix(spd + 2.0 * sp.identity(spd.shape[0]))  # same pattern (the diagonal is stored)
    second = SparseCholesky.factor(other)
    assert np.array_equal(first.perm, second.perm)
    assert second.logdet == pytest.approx(np.linalg.slogdet(other.toarray())[1], rel=1e-12)
    # fill: a 40 x 40 grid's band holds n (b + 1) = 65,600 entries (RCM's bandwidth is the side, 40); a
    # nested-dissection ordering's L holds about 20,000 (O(n log n))
    big = grid_laplacian(40, 0.3)
    assert SparseCholesky.factor(big).lu.L.nnz < 0.5 * BandedCholesky.factor(big).upper.size


def test_sparse_not_positive_definite_is_refused():
    negative = SparseCholesky.factor(grid_laplacian(4, -1.0))  # negative pivots: refused when D is first needed
    with pytest.raises(np.linalg.LinAlgError):
        assert negative.logdet  # never reached
    with pytest.raises(np.linalg.LinAlgError):
        negative.whiten_inverse(np.ones(negative.n))
    with pytest.raises(np.linalg.LinAlgError):
        SparseCholesky.factor(sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]])))  # a zero pivot


def test_cholesky_switches_at_the_node_threshold(spd, monkeypatch):
    import spatial_privacy.core.linalg as linalg

    n = spd.shape[0]
    monkeypatch.setattr(linalg, "SPARSE_MIN_NODES", n + 1)
    assert isinstance(cholesky(spd, rcm_permutation(spd)), BandedCholesky)
    monkeypatch.setattr(linalg, "SPARSE_MIN_NODES", n)
    assert isinstance(cholesky(spd, rcm_permutation(spd)), SparseCholesky)


def test_laplace_fit_is_the_same_with_either_factor(monkeypatch):
    """The LGCP's Laplace approximation at one theta through the sparse factor (threshold lowered to 0) equals the
    banded one to the Newton tolerance: same mode, same log marginal, same prior log-determinant."""
    import spatial_privacy.core.linalg as linalg
    from spatial_privacy.core.lgcp_setup import build_lgcp
    from spatial_privacy.core.window import Window

    rng = np.random.default_rng(7)
    x, y = 10 * rng.uniform(size=200), 10 * rng.uniform(size=200)
    model = build_lgcp(x, y, window=Window.rectangle(0, 0, 10, 10), max_edge=1.0).model
    theta = np.array([np.log(3.0), np.log(0.8)])
    banded = model.laplace(theta)
    monkeypatch.setattr(linalg, "SPARSE_MIN_NODES", 0)
    sparse = model.laplace(theta)
    assert isinstance(sparse.h_ww, SparseCholesky) and isinstance(banded.h_ww, BandedCholesky)
    assert sparse.log_marginal == pytest.approx(banded.log_marginal, rel=1e-9, abs=1e-6)
    assert np.allclose(sparse.w, banded.w, atol=1e-6) and np.allclose(sparse.beta, banded.beta, atol=1e-6)
    assert model.spde.logdet_at(theta) == pytest.approx(model.spde.logdet_at(theta, model.perm), rel=1e-12)


def test_sum_log_of_a_strided_row_does_not_depend_on_where_numpy_puts_its_output():
    # A banded factor's diagonal is its last row, a strided view whose span (stride x length) runs past its last
    # element. NumPy's SIMD log is taken only when the output does not overlap that span, so an output allocated
    # just after the factor got the scalar log, which differs in the last bit on some CPUs (AVX-512). sum_log takes
    # the log of a contiguous copy, whose span is its own memory: the same wherever the output lies.
    rng = np.random.default_rng(3)
    rows, n = 16, 49
    memory = np.empty(rows * n + 2 * n)
    upper = memory[: rows * n].reshape((rows, n), order="F")
    upper[...] = rng.uniform(0.5, 3.0, size=(rows, n))
    row = upper[-1]
    adjacent = memory[rows * n : rows * n + n]  # inside the row's span, past its last element
    elsewhere = np.empty(n)
    np.log(np.ascontiguousarray(row), out=adjacent)
    np.log(np.ascontiguousarray(row), out=elsewhere)
    assert np.array_equal(adjacent, elsewhere)
    assert sum_log(row) == float(np.sum(elsewhere))
    factor = BandedCholesky(upper, np.arange(n))
    assert factor.logdet == 2.0 * float(np.sum(elsewhere))


def test_wide_bands_solve_by_dense_blocks_exactly(monkeypatch):
    """From a bandwidth of BLOCKED_MIN_BAND on, whiten_inverse solves U x = z by dense blocks (level-3 BLAS): the
    result is U^{-1} z (to rounding, against a dense solve), in groups of columns with progress, for one vector too;
    a mesh size that is not a multiple of the block size leaves a short last block."""
    import spatial_privacy.core.linalg as linalg

    a = grid_laplacian(37, 0.2)  # 1,369 rows, bandwidth 37 after RCM: 22 blocks of 64 rows, the last one short
    factor = BandedCholesky.factor(a)
    kd = factor.upper.shape[0] - 1
    assert kd >= linalg.BLOCKED_MIN_BAND and factor.n % max(kd, 64) != 0
    u = np.triu(sum(np.diag(factor.upper[-1 - k, k:], k) for k in range(kd + 1)))
    z = np.random.default_rng(5).standard_normal((factor.n, 600))
    expected = np.empty_like(z)
    expected[factor.perm] = scipy.linalg.solve_triangular(u, z, lower=False)
    whole = factor.whiten_inverse(z)  # one group
    monkeypatch.setattr(linalg, "SOLVE_BLOCK_FLOPS", 1.0)  # groups of the least size, BLOCKED_MIN_COLUMNS
    calls = []
    got = factor.whiten_inverse(z, lambda fraction, message: calls.append(fraction))
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-12) and np.allclose(got, whole, rtol=1e-13, atol=1e-14)
    assert calls == pytest.approx([256 / 600, 512 / 600, 1.0])
    assert np.allclose(factor.whiten_inverse(z[:, 7]), expected[:, 7], rtol=1e-12, atol=1e-12)
    # the same factor solved by LAPACK's dtbtrs column by column agrees to rounding
    monkeypatch.setattr(linalg, "BLOCKED_MIN_BAND", kd + 1)
    assert np.allclose(factor.whiten_inverse(z), got, rtol=1e-12, atol=1e-13)


def test_one_pattern_factorised_again_with_new_values_and_duplicates_summed():
    # the band placement of a pattern is kept between factorisations: new values must land in the same places
    a = grid_laplacian(20, 0.5)
    first = BandedCholesky.factor(a)
    b = sp.csr_matrix(a + sp.diags(np.linspace(0.1, 3.0, a.shape[0])))  # same pattern, other values
    second = BandedCholesky.factor(b, first.perm)
    assert second.logdet == pytest.approx(np.linalg.slogdet(b.toarray())[1], rel=1e-12)
    coo = sp.coo_matrix(a)  # every entry split in two halves: a CSR with duplicates, not canonical
    doubled = sp.csr_matrix(
        (np.concatenate([coo.data / 2, coo.data / 2]), (np.tile(coo.row, 2), np.tile(coo.col, 2))), shape=a.shape
    )
    doubled.has_canonical_format = False
    assert BandedCholesky.factor(doubled, first.perm).logdet == pytest.approx(first.logdet, rel=1e-12)
