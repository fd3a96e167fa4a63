"""Conditional predictive ordinates (CPO) of the points of a Cox process fit (Walder, Hanks & Slavković 2020,
"Privacy for spatial point process data", Section 4, eqs. 7 and 9).

For any Cox process ``pi(s_k | S_-k, N) = 1 / E[int_W lambda / lambda(s_k) | S]`` (eq. 7), estimated from L
posterior draws by the harmonic mean ``[(1/L) sum_l Lambda_l / lambda_l(s_k)]^-1`` (eq. 9, :func:`cpo`). Eq. (9)
as printed omits the ``1/L``; with it the estimate is the leave-one-out density of s_k. The harmonic mean rests on
few draws when the self-normalised weights ``u_lk ∝ Lambda_l / lambda_l(s_k)`` are uneven
(:func:`cpo_effective_draws`).

Units: intensities per squared unit, CPOs (densities) per squared unit.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from ..errors import ParameterError


def log_cpo(log_lambda_at_points: np.ndarray, log_integral: np.ndarray) -> np.ndarray:
    """``log CPO_k = -log[(1/L) sum_l exp(log Lambda_l - log lambda_l(s_k))]`` (eq. 9 with its 1/L), stably.

    Args:
        log_lambda_at_points: ``(L, N)`` log-intensity draws at the N points.
        log_integral: ``(L,)`` log of ``int_W lambda_l``.

    Returns:
        ``(N,)`` log densities (log of 1/area units).
    """
    return _CPOSums.of(log_lambda_at_points, log_integral).log_cpo()


def cpo_effective_draws(log_lambda_at_points: np.ndarray, log_integral: np.ndarray) -> np.ndarray:
    """``(N,)`` effective number of draws ``1 / sum_l u_lk^2`` behind each harmonic-mean CPO estimate, with
    ``u_lk ∝ Lambda_l / lambda_l(s_k)`` the estimator's self-normalised weights (arguments as :func:`log_cpo`).
    Below about 20 the estimate rests on a few draws."""
    return _CPOSums.of(log_lambda_at_points, log_integral).effective_draws()


def posterior_cpo(posterior, design) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CPO (eqs. 7 and 9), log CPO and effective draws (:func:`cpo_effective_draws`) of every point of a fit, from
    the draws read in blocks (``posterior.log_intensity_blocks``): memory for a block, not for draws times points.

    Args:
        posterior: a :class:`core.posterior.Posterior` (its draws of the linear predictor and of ``int_W lambda``).
        design: the fit's :class:`core.lgcp.LGCPDesign` (projection, covariates and offset at the points).
    """
    log_int = np.log(posterior.integrated_intensity())
    sums = _CPOSums(design.proj.shape[0])
    for rows, log_at in posterior.log_intensity_blocks(design.proj, design.x_points, design.offset_points):
        sums.add(np.subtract(log_int[rows], log_at, out=log_at))  # (N, block)
    values = sums.log_cpo()
    return np.exp(values), values, sums.effective_draws()


class _CPOSums:
    """Running sums over blocks of draws of ``a_lk = log Lambda_l - log lambda_l(s_k)``, each block an ``(N, b)``
    array: ``log sum_l exp(a_lk)`` and ``log sum_l exp(2 a_lk)`` per point (:class:`_LogSum`). Then
    ``log CPO_k = log L - log sum_l exp(a_lk)`` and the effective draws are
    ``(sum_l exp(a_lk))^2 / sum_l exp(2 a_lk)``."""

    def __init__(self, n: int):
        self.first, self.second, self.draws = _LogSum(n), _LogSum(n), 0

    @classmethod
    def of(cls, log_lambda_at_points: np.ndarray, log_integral: np.ndarray) -> _CPOSums:
        """The sums of ``(L, N)`` draws at the points and ``(L,)`` log integrals, as one block."""
        log_lam = np.atleast_2d(np.asarray(log_lambda_at_points, dtype=np.float64))
        log_int = np.asarray(log_integral, dtype=np.float64).reshape(-1, 1)
        if log_int.shape[0] != log_lam.shape[0]:
            raise ParameterError("draws", "the intensities and integrals have different numbers of draws")
        sums = cls(log_lam.shape[1])
        sums.add((log_int - log_lam).T)
        return sums

    def add(self, a: np.ndarray) -> None:
        """Add a block of ``a`` (overwritten)."""
        self.draws += a.shape[1]
        self.first.add(a)
        self.second.add(np.multiply(a, 2.0, out=a))

    def log_cpo(self) -> np.ndarray:
        return math.log(self.draws) - self.first.value()

    def effective_draws(self) -> np.ndarray:
        with np.errstate(invalid="ignore"):  # an infinite term: NaN, as the weights' own formula gives
            return np.exp(2.0 * self.first.value() - self.second.value())


class _LogSum:
    """A running ``log sum exp`` over the columns of blocks of an ``(N, L)`` array, row by row. Like
    ``scipy.special.logsumexp`` it shifts by the largest finite value (0 where there is none), so an infinite term
    gives an infinite sum rather than NaN."""

    def __init__(self, n: int):
        self.shift = np.zeros(n)
        self.scaled = np.zeros(n)  # sum of exp(a - shift)

    def add(self, block: np.ndarray) -> None:
        with np.errstate(invalid="ignore", over="ignore"):
            top = np.maximum(np.where(self.scaled > 0, self.shift, -np.inf), block.max(axis=1))
            shift = np.where(np.isfinite(top), top, 0.0)
            self.scaled = self.scaled * np.exp(self.shift - shift) + np.exp(block - shift[:, None]).sum(axis=1)
        self.shift = shift

    def value(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return self.shift + np.log(self.scaled)


def cpo(lambda_at_points: np.ndarray, integral: np.ndarray) -> np.ndarray:
    """CPO of each point (eqs. 7 and 9): ``[(1/L) sum_l Lambda_l / lambda_l(s_k)]^-1``.

    Args:
        lambda_at_points: ``(L, N)`` intensity draws at the N points (> 0).
        integral: ``(L,)`` draws of ``int_W lambda`` (same draws).

    Returns:
        ``(N,)`` leave-one-out densities of the points (1/area units).
    """
    with np.errstate(divide="ignore"):
        return np.exp(log_cpo(np.log(lambda_at_points), np.log(integral)))


def log_mean_exp(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """``log((1/L) sum_l exp(a_l))`` over ``axis``, stably."""
    return logsumexp(a, axis=axis) - math.log(a.shape[axis])


def effective_sample_size(log_weights: np.ndarray) -> np.ndarray:
    """Effective sample size of self-normalised weights ``exp(log_weights)`` over axis 0."""
    u = np.exp(log_weights - logsumexp(log_weights, axis=0))
    return 1.0 / np.sum(u * u, axis=0)
