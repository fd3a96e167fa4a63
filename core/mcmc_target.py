"""The exact target density of the MCMC sampler (:mod:`.mcmc`) and the Gaussian approximations that
whiten it.

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
Laplace approximation to second order in the distance to the grid point.

The target is evaluated with the model's own likelihood and priors (:class:`_Engine`); the SPDE precision
enters through its three fixed sparse parts, checked against :meth:`.fields.SPDEMatern.precision` when the
sampler is built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.linalg import blas as _blas

from . import mechanisms
from .lgcp import LaplaceFit, LGCPModel
from .linalg import rcm_permutation, sum_log

LOG_2PI = math.log(2.0 * math.pi)
NEWTON_TOL = 1e-3  # Newton steps below this (in w and beta) end the iterations of a proposal
NEWTON_STEPS = 1  # Newton steps from the nearest grid mode that make a proposal


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
        return sum_log(self.upper[-1]) + sum_log(np.diag(self.s_chol))

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
        return 4.0 * sum_log(upper[-1]) - self.sum_log_c + self.n * math.log(qc)

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
