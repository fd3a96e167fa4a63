"""Exact MCMC for the LGCP of :mod:`.lgcp`: the reference the fast (Laplace) posterior is validated
against, with convergence diagnostics (split R-hat, effective sample size).

Target: the exact joint posterior of ``theta = (log rho, log sigma)`` and ``x = (w, beta)``,

    log p(theta, x | S) = log p(S | x) + log N(w; 0, Q_theta^{-1}) + log p(beta) + log p(theta) + const,

with the quadrature likelihood of :mod:`.lgcp` (Walder et al. eq. 31) and the SPDE prior (eq. 29).

Parameterisation. For each theta a Gaussian approximation ``N(m(theta), H(theta)^{-1})`` of
``p(x | theta, S)`` is built from the Laplace stage, and with its block Cholesky factors it is the map
``x = m(theta) + M(theta) z`` of standard normals ``z`` (the map :meth:`.lgcp.LaplaceFit.draw` applies).
The chain runs on ``(theta, z)``, whose exact target density is

    pi(theta, z) = p(theta, m(theta) + M(theta) z | S) |M(theta)|,   |M(theta)| = |H(theta)|^{-1/2}.

If the Laplace approximation were exact this would be ``p(theta | S) N(z; 0, I)``; Metropolis-Hastings
corrects the difference exactly. The map only has to be a fixed function of theta: it is one Newton
step, from the mode at the nearest point of a fixed grid of hyperparameters, towards the mode of
``p(x | theta, S)`` (``m`` = the Newton update, ``H`` = the Hessian where the step starts), which is the
Laplace approximation to second order in the distance to the grid point. Two moves alternate:

1. hyperparameter move (the one-block update of Knorr-Held & Rue 2002, in whitened coordinates):
   ``theta'`` from an independence proposal ``q`` (a mixture of bivariate t kernels on the grid, weighted
   by the Laplace approximation of ``p(theta | S)``, Rue, Martino & Chopin 2009 eq. 3, which it thus
   follows closely, skewness included), and ``z' = r z + sqrt(1 - r^2) xi``, ``xi ~ N(0, I)``. With
   ``r = 0`` this is Knorr-Held & Rue's proposal ``x' ~ N(m(theta'), H(theta')^{-1})``; with ``r`` near 1
   the standardised residual of the field carries over to the new theta, so the non-Gaussian part of the
   target hardly changes and the move is accepted about as often as an independence sampler on
   ``p(theta | S)`` would be. The autoregressive proposal of ``z`` is reversible with respect to
   ``N(0, I)``, so the acceptance probability is

       min(1, pi(theta', z') q(theta) N(z; 0, I) / (pi(theta, z) q(theta') N(z'; 0, I)));

2. field moves at fixed theta, by default Hamiltonian Monte Carlo on ``z`` (Duane et al. 1987; Neal 2011):
   a fresh momentum ``p ~ N(0, I)`` and ``L`` leapfrog steps of the gradient
   ``grad_z log pi = M(theta)' grad_x log p(theta, x | S)`` (``grad_w = A'1 - B'mu - Q w``,
   ``grad_beta = X'1 - X_int'mu - P (beta - m)``; ``M'`` is one banded triangular solve with theta's
   factors), with a step jittered uniformly around the tuned one, accepted with probability
   ``min(1, exp(log pi(z') - |p'|^2 / 2 - log pi(z) + |p|^2 / 2))``. The whitening makes the identity
   mass matrix a good one, and the gradient carries the moves through the non-Gaussian part of the
   target that random-walk proposals cross slowly. The alternative (``field_move="pcn"``) is
   preconditioned Crank-Nicolson ``z' = sqrt(1 - b^2) z + b xi`` (Cotter, Roberts, Stuart & White 2013),
   accepted with probability ``min(1, pi(theta, z') N(z; 0, I) / (pi(theta, z) N(z'; 0, I)))``, cycling
   through a large and a small step, so a state in a heavy tail of the target is left by small moves.

Both moves leave ``pi(theta, z)`` invariant, so the draws of ``(theta, x)`` are exact once the chains
have converged. The field step (HMC leapfrog or pCN) is tuned during warm-up only, and the theta proposal
is then mixed with a t kernel fitted to the warm-up draws of theta; both are frozen afterwards. Chains
start from draws of ``q`` and ``N(0, I)``, each with its own generator seeded from the caller's, and run
in lock-step (one thread: scipy's banded LAPACK wrappers hold the GIL, and worker processes are not safe
inside QGIS), so a time budget truncates them all at the same length. The target is evaluated with the
model's own likelihood and priors; the SPDE precision enters through its three fixed sparse parts, checked
against :meth:`.fields.SPDEMatern.precision` when the sampler is built.

Diagnostics (Gelman et al. 2013, BDA3, Section 11.4-11.5; Stan reference manual, "Effective sample
size"): split R-hat and the effective sample size with Geyer's initial monotone sequence estimator on
the combined chains; :func:`check_convergence` judges them by BDA3's default rule and flags a stuck
hyperparameter chain by its acceptance rate, which the two statistics cannot see.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.linalg import blas as _blas

from . import mechanisms
from .errors import ParameterError
from .lgcp import SPIKE_REMEDY, HyperparameterSearch, LaplaceFit, LGCPModel, Posterior
from .linalg import rcm_permutation
from .progress import Progress, report, scaled

LOG_2PI = math.log(2.0 * math.pi)
GRID_STEP = 0.5  # spacing of the hyperparameter grid, in standard deviations of the Laplace Gaussian
KERNEL_WIDTH = 1.0  # t-kernel scale of the hyperparameter proposal, in grid steps
PCN_LADDER = (1.0, 0.3)  # field moves cycle through these multiples of the tuned pCN step
PCN_TARGET = 0.3  # acceptance rate the largest pCN step is tuned to during warm-up
HMC_TARGET = 0.7  # mean acceptance probability the HMC leapfrog step is tuned to during warm-up
HMC_JITTER = 0.5  # each trajectory's leapfrog step is the tuned one times U(1 - HMC_JITTER, 1 + HMC_JITTER)
ADAPT_MIN = 100  # warm-up draws of theta (second half, all chains) needed to adapt the theta proposal
ADAPT_WEIGHT = 0.5  # weight of the t kernel fitted to the warm-up draws in the sampling-phase theta proposal
NEWTON_TOL = 1e-3  # Newton steps below this (in w and beta) end the iterations of a proposal
NEWTON_STEPS = 1  # Newton steps from the nearest grid mode that make a proposal

# -- convergence diagnostics -----------------------------------------------------------------------


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
    """What :func:`check_convergence` found in the diagnostics of :func:`fit_mcmc`.

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
    """Judge the ``diagnostics`` of :func:`fit_mcmc` by BDA3's default rule (Section 11.5: every split R-hat
    below ``MAX_RHAT``, at least ``MIN_ESS_PER_CHAIN`` effective draws per chain for every estimand) and by the
    hyperparameter moves' acceptance rate, which alone reveals a stuck chain (``MIN_THETA_ACCEPTANCE``)."""
    chains = int(diagnostics.get("chains") or 1)
    min_ess = float(MIN_ESS_PER_CHAIN * chains)
    rate = diagnostics.get("acceptance_theta")
    stuck = float(rate) if rate is not None and not rate >= MIN_THETA_ACCEPTANCE else None
    high = {name: float(v) for name, v in (diagnostics.get("rhat") or {}).items() if not v <= MAX_RHAT}
    low = {name: float(v) for name, v in (diagnostics.get("ess") or {}).items() if not v >= min_ess}
    return ConvergenceCheck(stuck, high, low, min_ess)


# -- Gaussian approximations as maps from standard normals ------------------------------------------


@dataclass
class GaussianApproximation:
    """``N(x*, H^{-1})`` for ``x = (w, beta)`` in the block form of :class:`.lgcp.LaplaceFit`, as the map
    ``x = x* + M z`` from standard normals ``z`` (length ``n + p``) and its inverse.

    Attributes:
        w, beta: the mean ``x*``.
        upper, perm: ``H_ww = P' U' U P`` with ``U`` in LAPACK upper banded storage and ``P`` given by
            ``perm`` (as :class:`.linalg.BandedCholesky`).
        z: ``H_ww^{-1} H_wb``, ``(n, p)``.
        s_chol: lower Cholesky factor of the Schur complement ``S = H_bb - H_bw H_ww^{-1} H_wb``.
    """

    w: np.ndarray
    beta: np.ndarray
    upper: np.ndarray
    perm: np.ndarray
    z: np.ndarray
    s_chol: np.ndarray

    @classmethod
    def from_fit(cls, fit: LaplaceFit) -> GaussianApproximation:
        return cls(fit.w, fit.beta, fit.h_ww.upper, fit.h_ww.perm, fit.z, fit.s_chol)

    @property
    def half_logdet(self) -> float:
        """``1/2 log |H| = 1/2 log |H_ww| + 1/2 log |S|``."""
        return float(np.sum(np.log(self.upper[-1]))) + float(np.sum(np.log(np.diag(self.s_chol))))

    def colour(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(w, beta) = x* + M z``: ``beta = beta* + L_S^{-T} z_b``, ``w = w* - Z (beta - beta*) + P' U^{-1} z_w``
        (the map :meth:`.lgcp.LaplaceFit.draw` applies)."""
        n = self.w.size
        db = scipy.linalg.solve_triangular(self.s_chol, z[n:], lower=True, trans="T", check_finite=False)
        w = self.w - self.z @ db
        w[self.perm] += _blas.dtbsv(self.upper.shape[0] - 1, self.upper, z[:n])
        return w, self.beta + db

    def pullback(self, g_w: np.ndarray, g_b: np.ndarray) -> np.ndarray:
        """``M' g`` for ``g = (g_w, g_b)``: the gradient in ``z`` of a function of ``x = x* + M z`` whose
        gradient in ``x`` is ``g`` (``U^{-T} P g_w`` and ``L_S^{-1} (g_b - Z' g_w)``)."""
        gz_w = _blas.dtbsv(self.upper.shape[0] - 1, self.upper, np.ascontiguousarray(g_w[self.perm]), trans=1)
        gz_b = scipy.linalg.solve_triangular(self.s_chol, g_b - self.z.T @ g_w, lower=True, check_finite=False)
        return np.concatenate([gz_w, gz_b])

    def whiten(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """The inverse map: ``z = (U P (w - w* + Z d), L_S' d)`` with ``d = beta - beta*``."""
        d = np.asarray(beta, dtype=np.float64) - self.beta
        r = np.asarray(w, dtype=np.float64) - self.w + self.z @ d
        zw = _blas.dtbmv(self.upper.shape[0] - 1, self.upper, np.ascontiguousarray(r[self.perm]))
        return np.concatenate([zw, self.s_chol.T @ d])

    def solve(self, r_w: np.ndarray, r_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``H^{-1} (r_w, r_b)`` by blocks."""
        y = self._solve_ww(r_w)
        db = scipy.linalg.cho_solve((self.s_chol, True), r_b - self.z.T @ r_w, check_finite=False)
        return y - self.z @ db, db

    def _solve_ww(self, rhs: np.ndarray) -> np.ndarray:
        out = np.empty_like(rhs, dtype=np.float64)
        out[self.perm] = scipy.linalg.cho_solve_banded((self.upper, False), rhs[self.perm], check_finite=False)
        return out

    def log_density(self, w: np.ndarray, beta: np.ndarray) -> float:
        z = self.whiten(w, beta)
        return -0.5 * float(z @ z) - 0.5 * z.size * LOG_2PI + self.half_logdet


def gaussian_log_density(fit: LaplaceFit, w: np.ndarray, beta: np.ndarray) -> float:
    """``log N((w, beta); (w*, beta*), H^{-1})`` of the Laplace approximation ``fit`` of ``p(w, beta | theta, S)``."""
    return GaussianApproximation.from_fit(fit).log_density(w, beta)


def log_joint(model: LGCPModel, theta, w: np.ndarray, beta: np.ndarray) -> float:
    """The exact unnormalised ``log p(theta, w, beta | S)``: likelihood (Walder eq. 31), SPDE prior
    ``N(w; 0, Q_theta^{-1})`` (eq. 29), coefficient prior and hyperparameter prior."""
    rho, sigma = math.exp(theta[0]), math.exp(theta[1])
    q = model.spde.precision(rho, sigma)
    logdet_q = model.spde.logdet_precision(rho, sigma, model.perm)
    return (
        model.log_likelihood(w, beta)
        + 0.5 * logdet_q
        - 0.5 * float(w @ (q @ w))
        - 0.5 * w.size * LOG_2PI
        + model.log_beta_prior(beta)
        + model.theta_prior.log_density(theta[0], theta[1])
    )


# -- the exact target and the Laplace proposals, on a fixed sparsity pattern ------------------------


def _band_positions(pattern: sp.spmatrix, perm: np.ndarray):
    """Upper-triangle entries of ``P A P'`` for the pattern of A: original (row, col), and their
    positions ``(bw + r - c, c)`` in LAPACK upper banded storage; returns (rows, cols, band index, bw)."""
    inverse = np.empty_like(perm)
    inverse[perm] = np.arange(perm.size)
    coo = sp.coo_matrix(pattern)
    r, c = inverse[coo.row], inverse[coo.col]
    upper = r <= c
    r, c = r[upper], c[upper]
    bw = int(np.max(c - r)) if r.size else 0
    return perm[r], perm[c], (bw + r - c, c), bw


class _Engine:
    """Fast, exact evaluation of ``log p(theta, w, beta | S)`` and fast Laplace proposals for one model.

    The SPDE precision is ``Q = (kappa^4 C + 2 kappa^2 G + G C^{-1} G) / xi^2`` (core.fields, eq. 29 with
    the lumped C), so on the fixed pattern of ``H_ww = Q + B' D B`` its banded storage is a linear
    combination of three fixed vectors plus ``T mu`` (``T`` maps the integration means to the entries of
    ``B' D B``); ``w' Q w`` needs one product with G and ``log |Q| = 2 log |L| - sum log c - n log xi^2``
    one banded factorisation of ``L = kappa^2 C + G``. This decomposition is checked against
    ``SPDEMatern.precision`` and ``logdet_precision`` when the engine is built.
    """

    def __init__(self, model: LGCPModel):
        self.model = model
        spde, d = model.spde, model.design
        self.n, self.p = d.n_nodes, d.n_coef
        self.c = np.asarray(spde.c, dtype=np.float64)
        self.g = sp.csr_matrix(spde.g)
        self.b = sp.csr_matrix(d.int_proj)
        self.bt = sp.csr_matrix(self.b.T)
        self.alpha = np.asarray(d.int_weights, dtype=np.float64)
        self.x_int = np.asarray(d.x_int, dtype=np.float64)
        self.offset_int = np.asarray(d.offset_int, dtype=np.float64)
        self.a_sum = np.asarray(d.proj.sum(axis=0)).ravel()
        self.x_sum = d.x_points.sum(axis=0)
        self.prior_mean = np.asarray(model.beta_prior.mean, dtype=np.float64)
        self.prior_prec = 1.0 / np.asarray(model.beta_prior.sd, dtype=np.float64) ** 2
        perm = np.asarray(model.perm, dtype=np.int64)
        self.perm = perm
        k_mat = sp.csr_matrix(self.g @ sp.diags(1.0 / self.c) @ self.g)
        btb = sp.csr_matrix(self.bt @ self.b)
        pattern = sp.csr_matrix(abs(self.g) + abs(k_mat) + sp.eye(self.n) + abs(btb))
        rows, cols, self.h_index, self.h_bw = _band_positions(pattern, perm)
        diag = rows == cols
        self.c_val = np.where(diag, self.c[rows], 0.0)
        self.g_val = np.asarray(self.g[rows, cols]).ravel()
        self.k_val = np.asarray(k_mat[rows, cols]).ravel()
        bc = sp.csc_matrix(self.b)
        self.t = sp.csr_matrix(bc[:, rows].multiply(bc[:, cols]).T)  # entries of B' D B = T mu
        l_pattern = sp.csr_matrix(abs(self.g) + sp.eye(self.n))
        l_rows, l_cols, self.l_index, self.l_bw = _band_positions(l_pattern, rcm_permutation(l_pattern))
        self.l_c = np.where(l_rows == l_cols, self.c[l_rows], 0.0)
        self.l_g = np.asarray(self.g[l_rows, l_cols]).ravel()
        self.sum_log_c = float(np.sum(np.log(self.c)))
        self._check()

    # -- the prior of w --------------------------------------------------------------------------

    @staticmethod
    def _coefficients(theta) -> tuple[float, float, float, float]:
        """``(a, b, c)`` of ``Q = a C + b G + c G C^{-1} G`` and ``kappa^2``."""
        kappa2 = 8.0 * math.exp(-2.0 * theta[0])
        xi2 = 4.0 * math.pi * kappa2 * math.exp(2.0 * theta[1])
        return kappa2 * kappa2 / xi2, 2.0 * kappa2 / xi2, 1.0 / xi2, kappa2

    def quad_form(self, theta, w: np.ndarray) -> float:
        """``w' Q_theta w``."""
        qa, qb, qc, _ = self._coefficients(theta)
        gw = self.g @ w
        return qa * float(np.sum(self.c * w * w)) + qb * float(w @ gw) + qc * float(np.sum(gw * gw / self.c))

    def q_times(self, theta, w: np.ndarray) -> np.ndarray:
        qa, qb, qc, _ = self._coefficients(theta)
        gw = self.g @ w
        return qa * self.c * w + qb * gw + qc * (self.g @ (gw / self.c))

    def logdet_q(self, theta) -> float:
        _, _, qc, kappa2 = self._coefficients(theta)
        band = np.zeros((self.l_bw + 1, self.n))
        band[self.l_index] = kappa2 * self.l_c + self.l_g
        upper = scipy.linalg.cholesky_banded(band, lower=False, check_finite=False)
        return 4.0 * float(np.sum(np.log(upper[-1]))) - self.sum_log_c + self.n * math.log(qc)

    def _check(self) -> None:
        rng = mechanisms.generator(0)  # test vectors of a self-check, not noise
        centre = np.asarray(self.model.theta_prior.centre(), dtype=np.float64)
        for theta in (centre, centre + np.array([0.7, -0.4])):
            rho, sigma = math.exp(theta[0]), math.exp(theta[1])
            q = self.model.spde.precision(rho, sigma)
            w = mechanisms.standard_normals(rng, self.n)
            ok = np.allclose(self.q_times(theta, w), q @ w, rtol=1e-8, atol=1e-10 * float(np.max(np.abs(q @ w))))
            logdet = self.model.spde.logdet_precision(rho, sigma, self.perm)
            if not ok or abs(self.logdet_q(theta) - logdet) > 1e-7 * max(1.0, abs(logdet)):
                raise RuntimeError("core.mcmc: SPDEMatern.precision is not (kappa^4 C + 2 kappa^2 G + G C^-1 G) / xi^2")

    # -- the posterior of x given theta --------------------------------------------------------------

    def expected_counts(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        return self.alpha * np.exp(self.offset_int + self.x_int @ beta + self.b @ w)

    def log_conditional(self, theta, w: np.ndarray, beta: np.ndarray) -> float:
        """``log p(S | x) - 1/2 w'Qw - 1/2 (beta - m)' P (beta - m)``: ``log p(x | theta, S)`` + const."""
        with np.errstate(over="ignore"):
            mu_sum = float(np.sum(self.expected_counts(w, beta)))
        db = beta - self.prior_mean
        value = (
            float(self.a_sum @ w + self.x_sum @ beta)
            - mu_sum
            - 0.5 * self.quad_form(theta, w)
            - 0.5 * float(np.sum(self.prior_prec * db * db))
        )
        return value if math.isfinite(value) else -math.inf

    def log_conditional_and_gradient(self, theta, w: np.ndarray, beta: np.ndarray):
        """:meth:`log_conditional` and its gradient in ``(w, beta)``: ``A'1 - B'mu - Q w`` and
        ``X'1 - X_int' mu - P (beta - m)``."""
        with np.errstate(over="ignore", invalid="ignore"):
            mu = self.expected_counts(w, beta)
            qw = self.q_times(theta, w)
            db = beta - self.prior_mean
            value = (
                float(self.a_sum @ w + self.x_sum @ beta)
                - float(np.sum(mu))
                - 0.5 * float(w @ qw)
                - 0.5 * float(np.sum(self.prior_prec * db * db))
            )
            grad_w = self.a_sum - self.bt @ mu - qw
            grad_b = self.x_sum - self.x_int.T @ mu - self.prior_prec * db
        return (value if math.isfinite(value) else -math.inf), grad_w, grad_b

    def gaussian(self, theta, start, tol: float = 1e-3, max_steps: int = 50) -> tuple[GaussianApproximation, int]:
        """A Gaussian approximation of ``p(x | theta, S)`` by Newton's method from ``start``: when the Newton
        step from ``x_k`` is below ``tol`` (or after ``max_steps``) it returns ``N(x_k + step, H(x_k)^{-1})``,
        the Laplace approximation up to ``O(tol^2)``. A deterministic function of ``(theta, start)``."""
        qa, qb, qc, _ = self._coefficients(theta)
        q_val = qa * self.c_val + qb * self.g_val + qc * self.k_val
        w, beta = (np.asarray(v, dtype=np.float64).copy() for v in start)
        current = self.log_conditional(theta, w, beta)
        for step in range(1, max_steps + 1):
            mu = self.expected_counts(w, beta)
            band = np.zeros((self.h_bw + 1, self.n))
            band[self.h_index] = q_val + self.t @ mu
            upper = scipy.linalg.cholesky_banded(band, lower=False, check_finite=False)
            xmu = self.x_int * mu[:, None]
            h_wb = np.asarray(self.bt @ xmu)
            gauss = GaussianApproximation(w, beta, upper, self.perm, np.empty((self.n, self.p)), np.eye(self.p))
            gauss.z = gauss._solve_ww(h_wb)
            schur = self.x_int.T @ xmu + np.diag(self.prior_prec) - h_wb.T @ gauss.z
            gauss.s_chol = np.linalg.cholesky(0.5 * (schur + schur.T))
            grad_w = self.a_sum - self.bt @ mu - self.q_times(theta, w)
            grad_b = self.x_sum - self.x_int.T @ mu - self.prior_prec * (beta - self.prior_mean)
            dw, db = gauss.solve(grad_w, grad_b)
            size = max(float(np.max(np.abs(dw))), float(np.max(np.abs(db))))
            if size < tol or step == max_steps:
                gauss.w, gauss.beta = w + dw, beta + db
                return gauss, step
            t = 1.0
            while True:
                cand_w, cand_b = w + t * dw, beta + t * db
                value = self.log_conditional(theta, cand_w, cand_b)
                if value >= current - 1e-10 * abs(current) or t < 1e-6:
                    break
                t *= 0.5
            w, beta, current = cand_w, cand_b, value
        raise AssertionError("unreachable")


@dataclass
class _Anchor:
    """Everything at one theta that does not depend on ``z``."""

    theta: np.ndarray
    gauss: GaussianApproximation
    constant: float  # 1/2 log|Q| - n/2 log 2 pi + log p(theta) + log p(beta) normaliser - 1/2 log|H|
    newton_steps: int


class _Target:
    """``log pi(theta, z)`` of the whitened parameterisation (module docstring) and its anchors.

    The Newton iterations for theta start from the mode ``x*`` at the nearest point of a fixed set of
    hyperparameters (nearest in the coordinates ``u = W (theta - centre)``), so an anchor is a function of
    theta alone, as the Metropolis-Hastings ratio requires.
    """

    def __init__(self, engine: _Engine, centre: np.ndarray, whitening: np.ndarray):
        self.engine = engine
        self.centre = np.asarray(centre, dtype=np.float64)
        self.whitening = whitening
        self.beta_norm = -float(np.sum(np.log(engine.model.beta_prior.sd))) - 0.5 * engine.p * LOG_2PI
        self.start_u = np.empty((0, 2))
        self.starts: list[tuple[np.ndarray, np.ndarray]] = []
        self.last_spiky = False  # whether the last anchor was refused for node spikes (core.lgcp.NodeCheck)

    def add_start(self, theta: np.ndarray, gauss: GaussianApproximation) -> None:
        self.start_u = np.vstack([self.start_u, self.whitening @ (theta - self.centre)])
        self.starts.append((gauss.w, gauss.beta))

    def newton_start(self, theta: np.ndarray):
        if not self.starts:
            return np.zeros(self.engine.n), self.engine.prior_mean.copy()
        u = self.whitening @ (theta - self.centre)
        return self.starts[int(np.argmin(np.sum((self.start_u - u) ** 2, axis=1)))]

    def anchor(self, theta, tol: float | None = None, max_steps: int | None = None) -> _Anchor | None:
        theta = np.asarray(theta, dtype=np.float64)
        tol = NEWTON_TOL if tol is None else tol
        max_steps = NEWTON_STEPS if max_steps is None else max_steps
        engine = self.engine
        self.last_spiky = False
        try:
            with np.errstate(over="ignore", invalid="ignore"):
                gauss, steps = engine.gaussian(theta, self.newton_start(theta), tol, max_steps)
                constant = (
                    0.5 * engine.logdet_q(theta)
                    - 0.5 * engine.n * LOG_2PI
                    + engine.model.theta_prior.log_density(theta[0], theta[1])
                    + self.beta_norm
                    - gauss.half_logdet
                )
        except (np.linalg.LinAlgError, ValueError, OverflowError):
            return None
        if not (math.isfinite(constant) and np.all(np.isfinite(gauss.w)) and np.all(np.isfinite(gauss.beta))):
            return None
        self.last_spiky = engine.model.is_spiky(gauss.w, gauss.beta)
        if self.last_spiky:
            # the likelihood is fooled there (core.lgcp.NodeCheck): such theta are outside the target, as they are
            # outside the fast posterior's grid; the anchor depends on theta alone, so this truncation keeps the
            # Metropolis-Hastings ratio exact for the truncated posterior
            return None
        return _Anchor(theta, gauss, constant, steps)

    def log_density(self, anchor: _Anchor, z: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """``log pi(theta, z)`` and the ``(w, beta)`` that ``z`` maps to."""
        w, beta = anchor.gauss.colour(z)
        return self.engine.log_conditional(anchor.theta, w, beta) + anchor.constant, w, beta

    def log_density_and_gradient(self, anchor: _Anchor, z: np.ndarray):
        """``log pi(theta, z)``, its gradient in ``z`` (``M' grad_x``) and the ``(w, beta)`` that ``z`` maps to."""
        with np.errstate(over="ignore", invalid="ignore"):
            w, beta = anchor.gauss.colour(z)
            value, grad_w, grad_b = self.engine.log_conditional_and_gradient(anchor.theta, w, beta)
            return value + anchor.constant, anchor.gauss.pullback(grad_w, grad_b), w, beta

    def laplace_log_marginal(self, anchor: _Anchor) -> float:
        """``log pi(theta, 0)``: the Laplace approximation of ``log p(theta | S)`` (Rue et al. 2009, eq. 3) + const."""
        return self.log_density(anchor, np.zeros(self.engine.n + self.engine.p))[0]


@dataclass
class _ThetaProposal:
    """Independence proposal for theta: a mixture of bivariate t kernels ``t_df(theta_k, chol chol')`` with
    weights ``pi_k`` (a kernel estimate of the Laplace approximation of ``p(theta | S)`` on a grid)."""

    points: np.ndarray
    weights: np.ndarray
    chol: np.ndarray
    df: float = 4.0

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        k = mechanisms.categorical(rng, self.weights)
        t = mechanisms.standard_normals(rng, 2) * math.sqrt(self.df / mechanisms.chi_square(rng, self.df))
        return self.points[k] + self.chol @ t

    def log_density(self, theta: np.ndarray) -> float:
        """Up to a constant that depends on ``df`` alone."""
        u = scipy.linalg.solve_triangular(self.chol, (theta - self.points).T, lower=True)
        terms = np.log(self.weights) - 0.5 * (self.df + 2.0) * np.log1p(np.sum(u * u, axis=0) / self.df)
        terms -= float(np.sum(np.log(np.abs(np.diag(self.chol)))))
        top = float(np.max(terms))
        return top + math.log(float(np.sum(np.exp(terms - top))))


@dataclass
class _MixtureProposal:
    """``sum_k p_k q_k`` of :class:`_ThetaProposal` parts with one ``df`` (so their constants agree)."""

    parts: tuple
    probs: np.ndarray

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        return self.parts[mechanisms.categorical(rng, self.probs)].draw(rng)

    def log_density(self, theta: np.ndarray) -> float:
        terms = np.log(self.probs) + np.array([part.log_density(theta) for part in self.parts])
        top = float(np.max(terms))
        return top + math.log(float(np.sum(np.exp(terms - top))))


def _adapted(proposal: _ThetaProposal, history: np.ndarray) -> _ThetaProposal | _MixtureProposal:
    """The proposal for the sampling phase: ``q`` mixed half and half with a t kernel matched to the mean and
    covariance of the warm-up draws ``history`` (fixed from then on, so the chains after warm-up are exact)."""
    if history.shape[0] < ADAPT_MIN:
        return proposal
    cov = np.cov(history.T)
    try:
        chol = np.linalg.cholesky(cov + 1e-12 * np.trace(cov) * np.eye(2))
    except np.linalg.LinAlgError:
        return proposal
    if not np.all(np.isfinite(chol)):
        return proposal
    fitted = _ThetaProposal(history.mean(axis=0)[None, :], np.ones(1), chol, proposal.df)
    return _MixtureProposal((proposal, fitted), np.array([1.0 - ADAPT_WEIGHT, ADAPT_WEIGHT]))


def _explore(target: _Target, scale: np.ndarray, step: float, max_drop: float, max_points: int, progress) -> tuple:
    """The Laplace approximation of ``log p(theta | S)`` on the lattice ``theta = centre + scale (step k)``,
    grown from the centre to every neighbour of a point less than ``max_drop`` below the best one (the grid
    exploration of INLA, Rue et al. 2009, Section 6.1). Adds every anchor's mode as a Newton start."""
    values: dict[tuple[int, int], float] = {}
    queue = [(0, 0)]
    best = -math.inf
    while queue and len(values) < max_points:
        key = queue.pop(0)
        if key in values:
            continue
        theta = target.centre + scale @ (step * np.array(key, dtype=np.float64))
        anchor = target.anchor(theta, tol=1e-6, max_steps=50)
        # (a fit that fools the integration rule, core.lgcp.NodeCheck, has no anchor: it is not posterior mass)
        values[key] = -math.inf if anchor is None else target.laplace_log_marginal(anchor)
        report(progress, len(values) / max_points, "Mapping the hyperparameter posterior")
        if anchor is None:
            continue
        target.add_start(theta, anchor.gauss)
        best = max(best, values[key])
        if values[key] > best - max_drop:
            i, j = key
            queue += [k for k in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)) if k not in values]
    keys = [k for k, v in values.items() if v > best - max_drop - 2.0]
    logs = np.array([values[k] for k in keys])
    points = np.array([target.centre + scale @ (step * np.array(k, dtype=np.float64)) for k in keys])
    weights = np.exp(logs - logs.max())
    return points, weights / weights.sum(), len(values)


class _Chain:
    """One chain on ``(theta, z)``; its own generator makes it reproducible whatever the others do."""

    def __init__(self, target: _Target, proposal: _ThetaProposal | None, fixed: _Anchor | None, rng, persistence):
        self.target = target
        self.proposal = proposal
        self.rng = rng
        self.persistence = persistence
        self.pcn = 0.5
        self.hmc = 0.1
        if fixed is not None:
            self.anchor = fixed
        else:
            self.anchor = None
            for _ in range(100):  # overdispersed start: a draw of the t proposal
                self.anchor = target.anchor(proposal.draw(rng))
                if self.anchor is not None:
                    break
            if self.anchor is None:
                raise ParameterError("theta", "the Laplace approximation failed at every starting point")
        self.z = mechanisms.standard_normals(rng, target.engine.n + target.engine.p)
        self.log_pi, self.w, self.beta = target.log_density(self.anchor, self.z)
        self.tries = np.zeros(2, dtype=np.int64)  # theta moves, field moves
        self.accepts = np.zeros(2, dtype=np.int64)
        self.newton_steps = 0

    def theta_move(self) -> None:
        rng, prop = self.rng, self.proposal
        theta = prop.draw(rng)
        r = self.persistence
        z = r * self.z + math.sqrt(1.0 - r * r) * mechanisms.standard_normals(rng, self.z.size)
        log_u = math.log(mechanisms.uniforms(rng, None))
        self.tries[0] += 1
        anchor = self.target.anchor(theta)
        if anchor is None:
            return
        self.newton_steps += anchor.newton_steps
        log_pi, w, beta = self.target.log_density(anchor, z)
        log_ratio = (
            log_pi
            - self.log_pi
            + prop.log_density(self.anchor.theta)
            - prop.log_density(theta)
            + 0.5 * (float(z @ z) - float(self.z @ self.z))
        )
        if log_u < log_ratio:
            self.anchor, self.z, self.log_pi, self.w, self.beta = anchor, z, log_pi, w, beta
            self.accepts[0] += 1

    def field_move(self, b: float) -> bool:
        rng = self.rng
        z = math.sqrt(1.0 - b * b) * self.z + b * mechanisms.standard_normals(rng, self.z.size)
        log_u = math.log(mechanisms.uniforms(rng, None))
        log_pi, w, beta = self.target.log_density(self.anchor, z)
        self.tries[1] += 1
        if log_u < log_pi - self.log_pi + 0.5 * (float(z @ z) - float(self.z @ self.z)):
            self.z, self.log_pi, self.w, self.beta = z, log_pi, w, beta
            self.accepts[1] += 1
            return True
        return False

    def hmc_move(self, eps: float, steps: int) -> float:
        """One Hamiltonian Monte Carlo transition on ``z`` at fixed theta (identity mass matrix: the whitening
        already preconditions): ``steps`` leapfrog steps of size ``eps`` times a uniform jitter, with a fresh
        momentum, accepted with probability ``min(1, exp(-H(z', p') + H(z, p)))``. Returns that probability."""
        rng, target = self.rng, self.target
        momentum = mechanisms.standard_normals(rng, self.z.size)
        eps = eps * ((1.0 - HMC_JITTER) + 2.0 * HMC_JITTER * mechanisms.uniforms(rng, None))
        log_u = math.log(mechanisms.uniforms(rng, None))
        self.tries[1] += 1
        start, grad, _, _ = target.log_density_and_gradient(self.anchor, self.z)
        if not math.isfinite(start):
            return 0.0
        energy = start - 0.5 * float(momentum @ momentum)
        z = self.z.copy()
        momentum = momentum + 0.5 * eps * grad
        for k in range(steps):
            z += eps * momentum
            log_pi, grad, w, beta = target.log_density_and_gradient(self.anchor, z)
            if not (math.isfinite(log_pi) and np.all(np.isfinite(grad))):
                return 0.0  # the reversed trajectory meets the same point: rejecting is exact
            momentum += (0.5 if k == steps - 1 else 1.0) * eps * grad
        log_ratio = log_pi - 0.5 * float(momentum @ momentum) - energy
        if not math.isfinite(log_ratio):
            return 0.0
        if log_u < log_ratio:
            self.z, self.w, self.beta = z, w, beta
            self.log_pi = target.log_density(self.anchor, z)[0]
            self.accepts[1] += 1
        return math.exp(min(0.0, log_ratio))


def fit_mcmc(
    model: LGCPModel,
    rng: np.random.Generator,
    draws: int = 1000,
    chains: int = 2,
    warmup: int = 500,
    thin: int = 1,
    max_seconds: float | None = None,
    progress: Progress = None,
    fixed_theta=None,
    field_steps: int = 10,
    persistence: float = 0.999,
    field_move: str = "hmc",
    theta_moves: int = 2,
) -> Posterior:
    """Exact posterior draws of an LGCP by MCMC (module docstring), the reference for :func:`.lgcp.fit_laplace`.

    Args:
        model: the LGCP.
        rng: the only source of randomness (each chain gets its own generator seeded from it).
        draws: number of retained draws, over all chains.
        chains: number of chains (>= 1; >= 2 for a meaningful R-hat).
        warmup: iterations per chain discarded while the proposals are tuned.
        thin: keep every ``thin``-th iteration after warm-up.
        max_seconds: optional wall-time budget for the whole call (seconds); when it runs out all chains
            stop at the same length and fewer draws are returned (``diagnostics["stopped_early"]``).
        progress: optional ``progress(fraction, message)``; may raise to cancel.
        fixed_theta: optional ``(log rho, log sigma)``: sample ``p(w, beta | theta, S)`` at these
            hyperparameters instead of the full posterior.
        field_steps: per iteration, leapfrog steps of the one HMC field move (``field_move="hmc"``) or the
            number of pCN field moves (``"pcn"``); >= 0, >= 1 with ``fixed_theta``.
        persistence: ``r`` of the hyperparameter move, in [0, 1); 0 is Knorr-Held & Rue's one-block update.
        field_move: ``"hmc"`` (Hamiltonian Monte Carlo in the whitened coordinates) or ``"pcn"``.
        theta_moves: hyperparameter moves per iteration (>= 1; ignored with ``fixed_theta``).

    Returns:
        A :class:`.lgcp.Posterior` with ``method="mcmc"``; the draws are in chain order (chain 0 first,
        ``diagnostics["draws_per_chain"]`` each, the last chain cut to make ``draws`` in all).
        ``diagnostics`` holds the acceptance rates of both moves (``acceptance_theta``,
        ``acceptance_field``), the tuned field steps (``hmc_step``, ``pcn_step``), split R-hat and ESS
        (``rhat``, ``ess``: dicts over ``log_range``, ``log_sigma`` and the coefficient names), the wall
        time (``seconds``, of which ``setup_seconds`` before sampling) and the settings.

    Raises:
        ParameterError: a bad argument (named), a hyperparameter posterior without a clear mode, or a
            time budget too short for 4 draws per chain.
    """
    if not model.is_spde:
        raise ParameterError("method", "the MCMC sampler supports the SPDE field prior only; use the fast method")
    for name, value, low in (("draws", draws, 1), ("chains", chains, 1), ("warmup", warmup, 0), ("thin", thin, 1)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ParameterError(name, f"{name} must be an integer >= {low}, got {value!r}")
    if isinstance(field_steps, bool) or int(field_steps) != field_steps or field_steps < 0:
        raise ParameterError("field_steps", f"field_steps must be an integer >= 0, got {field_steps!r}")
    if fixed_theta is not None and field_steps < 1:
        raise ParameterError("field_steps", "with fixed hyperparameters the field moves are the only moves: use >= 1")
    if not 0.0 <= persistence < 1.0:
        raise ParameterError("persistence", f"persistence must lie in [0, 1), got {persistence!r}")
    if isinstance(theta_moves, bool) or int(theta_moves) != theta_moves or theta_moves < 1:
        raise ParameterError("theta_moves", f"theta_moves must be an integer >= 1, got {theta_moves!r}")
    theta_moves = int(theta_moves)
    if field_move not in ("hmc", "pcn"):
        raise ParameterError("field_move", f"field_move must be 'hmc' or 'pcn', got {field_move!r}")
    if max_seconds is not None and not max_seconds > 0:
        raise ParameterError("max_seconds", f"max_seconds must be > 0, got {max_seconds!r}")
    draws, chains, warmup, thin, field_steps = int(draws), int(chains), int(warmup), int(thin), int(field_steps)
    started = time.perf_counter()
    d = model.design
    seeds = mechanisms.child_seeds(rng, chains)
    try:
        engine = _Engine(model)
    except np.linalg.LinAlgError:  # the self-check factorises kappa^2 C + G at the prior's median range
        raise ParameterError(
            "prior_range",
            "the field's precision cannot be factorised at the prior's median range: it is numerically singular, "
            "as for a range many orders of magnitude larger than the window. Give a smaller prior range.",
        ) from None
    if fixed_theta is None:
        search = HyperparameterSearch(model, scaled(progress, 0.0, 0.05))
        mode, hess = search.mode_and_hessian()
        eigval, eigvec = np.linalg.eigh(0.5 * (hess + hess.T))
        scale = eigvec / np.sqrt(eigval)  # theta = mode + scale u, u ~ N(0, I) under the Laplace Gaussian
        target = _Target(engine, mode, np.linalg.inv(scale))
        centre = search.fit_at(mode)
        target.starts, target.start_u = [(centre.w, centre.beta)], np.zeros((1, 2))
        points, weights, n_grid = _explore(target, scale, GRID_STEP, 9.0, 600, scaled(progress, 0.05, 0.1))
        target.starts, target.start_u = target.starts[1:], target.start_u[1:]  # grid modes only from now on
        proposal = _ThetaProposal(points, weights, GRID_STEP * KERNEL_WIDTH * scale)
        fixed = None
    else:
        theta = np.asarray(fixed_theta, dtype=np.float64)
        if theta.shape != (2,) or not np.all(np.isfinite(theta)):
            raise ParameterError("fixed_theta", f"fixed_theta must be two finite numbers, got {fixed_theta!r}")
        target = _Target(engine, theta, np.eye(2))
        fixed = target.anchor(theta, tol=1e-8, max_steps=200)
        if fixed is None and target.last_spiky:
            raise ParameterError(
                "integration",
                "at these hyperparameters the fit has spikes at single mesh nodes that the integration points do "
                f"not see: {SPIKE_REMEDY}",
            )
        if fixed is None:
            raise ParameterError("fixed_theta", "the Laplace approximation failed at these hyperparameters")
        proposal, mode, hess, n_grid = None, theta, None, 0
    setup_seconds = time.perf_counter() - started
    runs = [_Chain(target, proposal, fixed, mechanisms.generator(int(s)), persistence) for s in seeds]
    per_chain = -(-draws // chains)
    total_iter = warmup + per_chain * thin
    n, p = d.n_nodes, d.n_coef
    keep_theta: list[np.ndarray] = []  # one (chains, ...) array per retained iteration
    keep_beta: list[np.ndarray] = []
    keep_w: list[np.ndarray] = []
    kept = 0
    history: list[np.ndarray] = []  # theta in the second half of warm-up, for the sampling-phase proposal
    stopped_early = False
    report(progress, 0.1, "Sampling")
    for it in range(total_iter):
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            stopped_early = True
            break
        for chain in runs:
            for _ in range(0 if fixed is not None else theta_moves):
                chain.theta_move()
            if field_move == "hmc":
                if field_steps:
                    rate = chain.hmc_move(chain.hmc, field_steps)
                    if it < warmup:  # Robbins-Monro tuning of the leapfrog step towards HMC_TARGET acceptance
                        chain.hmc = float(
                            np.clip(chain.hmc * math.exp((rate - HMC_TARGET) / math.sqrt(it + 1)), 1e-4, 2.0)
                        )
                continue
            moved = [chain.field_move(chain.pcn * PCN_LADDER[k % len(PCN_LADDER)]) for k in range(field_steps)]
            if it < warmup and moved:  # Robbins-Monro tuning of the largest pCN step towards PCN_TARGET acceptance
                rate = float(np.mean(moved[:: len(PCN_LADDER)]))
                chain.pcn = float(np.clip(chain.pcn * math.exp((rate - PCN_TARGET) / math.sqrt(it + 1)), 1e-3, 1.0))
        if fixed is None and warmup // 2 <= it < warmup:
            history.extend(chain.anchor.theta for chain in runs)
        if it == warmup - 1:
            if fixed is None:
                adapted = _adapted(proposal, np.array(history))
                for chain in runs:
                    chain.proposal = adapted
            for chain in runs:
                chain.tries[:] = 0
                chain.accepts[:] = 0
                chain.newton_steps = 0
        if it >= warmup and (it - warmup) % thin == thin - 1:
            keep_theta.append(np.array([chain.anchor.theta for chain in runs]))
            keep_beta.append(np.array([chain.beta for chain in runs]))
            keep_w.append(np.array([chain.w for chain in runs]))
            kept += 1
        if it % 10 == 0:
            report(progress, 0.1 + 0.9 * (it + 1) / total_iter, "Sampling" if it >= warmup else "Warming up")
    if kept < 4:
        raise ParameterError("max_seconds", "the time budget ran out before 4 draws per chain were retained")
    keep_theta, keep_beta, keep_w = (np.stack(v, axis=1) for v in (keep_theta, keep_beta, keep_w))
    diagnostics = _diagnostics(keep_theta, keep_beta, d.names, runs, fixed is not None)
    diagnostics.update(
        {
            "chains": chains,
            "warmup": warmup,
            "thin": thin,
            "draws_per_chain": kept,
            "stopped_early": stopped_early,
            "field_steps": field_steps,
            "persistence": persistence,
            "field_move": field_move,
            "pcn_step": [chain.pcn for chain in runs],
            "hmc_step": [chain.hmc for chain in runs],
            "theta_mode": np.asarray(mode).tolist(),
            "theta_hessian": None if hess is None else np.asarray(hess).tolist(),
            "grid_points": n_grid,
            "newton_steps_per_theta_move": float(
                sum(chain.newton_steps for chain in runs) / max(1, sum(int(chain.tries[0]) for chain in runs))
            ),
            "fixed_theta": fixed is not None,
            # draws whose field fools the integration rule (core.lgcp.NodeCheck); should be 0
            "spiky_draws": int(
                sum(
                    model.is_spiky(w, b)
                    for w, b in zip(keep_w.reshape(-1, n)[: min(draws, chains * kept)], keep_beta.reshape(-1, p))
                )
            ),
            "setup_seconds": setup_seconds,
            "seconds": time.perf_counter() - started,
        }
    )
    total = min(draws, chains * kept)
    report(progress, 1.0, "Done")
    theta_draws = keep_theta.reshape(-1, keep_theta.shape[-1])[:total]
    return Posterior.from_model(
        model, "mcmc", keep_beta.reshape(-1, p)[:total], keep_w.reshape(-1, n)[:total], theta_draws, diagnostics
    )


def _diagnostics(theta, beta, names, runs, fixed: bool) -> dict:
    columns = [] if fixed else [("log_range", theta[..., 0]), ("log_sigma", theta[..., 1])]
    columns += [(name, beta[..., j]) for j, name in enumerate(names)]
    tries = sum(chain.tries for chain in runs)
    accepts = sum(chain.accepts for chain in runs)
    return {
        "acceptance_theta": None if fixed else float(accepts[0] / max(tries[0], 1)),
        "acceptance_field": float(accepts[1] / max(tries[1], 1)),
        "rhat": {name: split_rhat(v) for name, v in columns},
        "ess": {name: effective_sample_size(v) for name, v in columns},
    }
