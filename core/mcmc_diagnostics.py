"""Convergence diagnostics of MCMC draws (Gelman et al. 2013, Bayesian Data Analysis, 3rd ed. (BDA3),
Sections 11.4-11.5; Stan reference manual, "Effective sample size").

Split R-hat (:func:`split_rhat`) and the effective sample size with Geyer's initial monotone sequence
estimator on the combined chains (:func:`effective_sample_size`); :func:`check_convergence` judges them by
BDA3's default rule and flags a stuck hyperparameter chain of :func:`.mcmc.fit_mcmc` by its acceptance
rate, which the two statistics cannot see.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import ParameterError


def _as_chains(chains) -> np.ndarray:
    arr = np.asarray(chains, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] < 4:
        raise ParameterError("chains", f"expected a (chains, draws) array with at least 4 draws, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ParameterError("chains", "the draws contain NaN or infinite values")
    return arr


def split_rhat(chains) -> float:
    """Split R-hat (BDA3, Section 11.4, eqs. 11.2-11.4) of a ``(c, L)`` array of draws.

    Each chain is cut into halves (a middle draw of an odd-length chain is dropped), giving ``m = 2c``
    sequences of length ``n``; with ``W`` the mean within-sequence variance and ``B / n`` the variance of
    the sequence means, ``R = sqrt(((n - 1) / n W + B / n) / W)``. Values near 1 indicate convergence;
    BDA3 recommends more iterations while R > 1.1. Constant draws give 1.
    """
    arr = _as_chains(chains)
    half = arr.shape[1] // 2
    seqs = np.concatenate([arr[:, :half], arr[:, arr.shape[1] - half :]])
    n = seqs.shape[1]
    within = float(np.mean(np.var(seqs, axis=1, ddof=1)))
    between_over_n = float(np.var(np.mean(seqs, axis=1), ddof=1))
    if within <= 0:
        return 1.0 if between_over_n <= 0 else math.inf
    return math.sqrt(((n - 1) / n * within + between_over_n) / within)


def _autocovariance(x: np.ndarray) -> np.ndarray:
    """Biased autocovariances ``(1 / L) sum_t (x_t - xbar)(x_{t+k} - xbar)`` of each row, by FFT."""
    length = x.shape[1]
    centred = x - x.mean(axis=1, keepdims=True)
    size = 1 << (2 * length - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    return np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :length] / length


def effective_sample_size(chains) -> float:
    """Effective sample size of a ``(c, L)`` array of draws (BDA3, Section 11.5; Stan's estimator).

    The autocorrelation at lag t combines the chains, ``rho_t = 1 - (W - mean_m acov_m(t)) / var+``
    with ``var+ = (L - 1) / L W + B / L``, so a difference between chains lowers the ESS. The sum is
    truncated by Geyer's initial positive sequence (pairs ``rho_{2k} + rho_{2k+1} > 0``) made monotone
    (Geyer 1992), and ``ESS = c L / tau`` with ``tau = -1 + 2 sum rho_t`` (Stan's version, which adds the
    first dropped even lag and caps the ESS at ``c L log10(c L)``). Constant draws give ``c L``.
    """
    arr = _as_chains(chains)
    m, length = arr.shape
    acov = _autocovariance(arr)
    chain_var = acov[:, 0] * length / (length - 1.0)
    mean_var = float(np.mean(chain_var))
    var_plus = mean_var * (length - 1.0) / length
    if m > 1:
        var_plus += float(np.var(arr.mean(axis=1), ddof=1))
    total = m * length
    if var_plus <= 0:
        return float(total)
    acov_mean = acov.mean(axis=0)
    rho = np.zeros(length)
    rho[0] = 1.0
    rho_even, rho_odd = 1.0, 1.0 - (mean_var - acov_mean[1]) / var_plus
    rho[1] = rho_odd
    t = 1
    while t < length - 4 and rho_even + rho_odd > 0:
        rho_even = 1.0 - (mean_var - acov_mean[t + 1]) / var_plus
        rho_odd = 1.0 - (mean_var - acov_mean[t + 2]) / var_plus
        if rho_even + rho_odd >= 0:
            rho[t + 1], rho[t + 2] = rho_even, rho_odd
        t += 2
    max_t = t
    if rho_even > 0:
        rho[max_t + 1] = rho_even
    t = 1
    while t <= max_t - 3:  # initial monotone sequence
        if rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]:
            rho[t + 1] = rho[t + 2] = 0.5 * (rho[t - 1] + rho[t])
        t += 2
    tau = -1.0 + 2.0 * float(np.sum(rho[:max_t])) + float(rho[max_t + 1])
    tau = max(tau, 1.0 / math.log10(total))
    return float(total / tau)


#: A hyperparameter chain that accepts a smaller share of its moves than this is stuck: its draws repeat a
#: few values, which R-hat and the ESS do not see (constant draws give R-hat 1 and the full sample size).
MIN_THETA_ACCEPTANCE = 0.01
#: BDA3 (Section 11.5) runs a sampler until every split R-hat is below 1.1 ...
MAX_RHAT = 1.1
#: ... and every estimand has at least 10 effective draws per chain (5 per split half).
MIN_ESS_PER_CHAIN = 10


@dataclass(frozen=True)
class ConvergenceCheck:
    """What :func:`check_convergence` found in the diagnostics of :func:`.mcmc.fit_mcmc`.

    Attributes:
        acceptance_theta: the hyperparameter moves' acceptance rate if it is below ``MIN_THETA_ACCEPTANCE``
            (the chain is stuck), else ``None``.
        high_rhat: estimand -> split R-hat, for those above ``MAX_RHAT`` (or not finite).
        low_ess: estimand -> effective sample size, for those below ``min_ess``.
        min_ess: the least ESS asked for, ``MIN_ESS_PER_CHAIN`` times the number of chains.
    """

    acceptance_theta: float | None
    high_rhat: dict
    low_ess: dict
    min_ess: float

    @property
    def ok(self) -> bool:
        return self.acceptance_theta is None and not self.high_rhat and not self.low_ess


def check_convergence(diagnostics: dict) -> ConvergenceCheck:
    """Judge the ``diagnostics`` of :func:`.mcmc.fit_mcmc` by BDA3's default rule (Section 11.5: every split R-hat
    below ``MAX_RHAT``, at least ``MIN_ESS_PER_CHAIN`` effective draws per chain for every estimand) and by the
    hyperparameter moves' acceptance rate, which alone reveals a stuck chain (``MIN_THETA_ACCEPTANCE``)."""
    chains = int(diagnostics.get("chains") or 1)
    min_ess = float(MIN_ESS_PER_CHAIN * chains)
    rate = diagnostics.get("acceptance_theta")
    stuck = float(rate) if rate is not None and not rate >= MIN_THETA_ACCEPTANCE else None
    high = {name: float(v) for name, v in (diagnostics.get("rhat") or {}).items() if not v <= MAX_RHAT}
    low = {name: float(v) for name, v in (diagnostics.get("ess") or {}).items() if not v >= min_ess}
    return ConvergenceCheck(stuck, high, low, min_ess)
