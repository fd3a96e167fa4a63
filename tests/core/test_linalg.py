"""Banded Cholesky of sparse SPD matrices (core.linalg) against dense linear algebra."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from spatial_privacy.core.linalg import BandedCholesky, bandwidth, rcm_permutation


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


def test_draws_have_the_inverse_as_covariance(spd):
    factor = BandedCholesky.factor(spd)
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
