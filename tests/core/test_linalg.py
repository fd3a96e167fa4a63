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
