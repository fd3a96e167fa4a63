"""The spatial field of the numeric mark (core.marked.numeric): the field constrained to average zero over the
window, the Gaussian posterior of ``(w_k, beta_k)`` given the hyperparameters, and the Laplace (Gaussian)
approximation of the hyperparameters' posterior from which each synthetic set draws its own.

Identifiability (Section 2.3, eq. 4). With ``Y = beta_k + w_k(s) + eps`` and a field whose range is the pooled
location LGCP's (often as large as the window), a field of large variance is nearly constant over the data and
trades off with ``beta_k``: empirical Bayes then inflates the field's sd and, away from the records, the
prediction reverts to a ``beta_k`` far from the data's level. Each field is therefore constrained to integrate
to zero over the window, ``a'w = 0`` with ``a_i = int_W phi_i / |W|`` (the window-integration weights of the
location model's design), so that ``beta_k`` is the combination's window-average level and the field carries
only the departures from it. The constrained model is the unconstrained one conditioned on ``a'w = 0``
(Rue & Held 2005, Section 2.3.3):

* posterior mean and draws by "conditioning by kriging": ``x* = x - H^{-1} C' (C x) / (C H^{-1} C')``,
  ``C = [a', 0]``, ``H`` the posterior precision of ``x = (w, beta)``;
* marginal likelihood ``p(y | a'w = 0) = p~(y) p~(a'w = 0 | y) / p~(a'w = 0)`` (``p~``: unconstrained; the
  prior of ``a'w`` is ``N(0, s^2 a' Q1^{-1} a)``); for the truncated Poisson the same identity on the Laplace
  approximation at the constrained mode (found by constrained Newton steps, each kriged onto ``a'w = 0``).

Hyperparameter uncertainty (Section 3: each set's parameters are a draw from the posterior). The field's sd
``s`` (and the normal noise's ``sigma``) get flat priors on their logarithms; their posterior is approximated
by a Gaussian at the mode of the (exact, or Laplace) log marginal likelihood with the covariance minus the
inverse of its central-difference Hessian (:func:`hyper_laplace`); each set draws them from it, then
``(beta_k, w_k)`` from the Gaussian posterior given the draw (a new sparse factorisation per set). A coordinate
whose mode lies on the search bound, or whose curvature is not negative, is held at its mode instead (the
caller warns): the posterior there is not peaked, and a Gaussian would misrepresent it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.special import gammaln, logsumexp

from .. import mechanisms
from ..lgcp import LaplaceFit
from ..linalg import BandedCholesky, sum_log

#: sd of the normal prior on the truncated Poisson's log-rate intercept (as core.lgcp.BetaPrior's default).
LOG_RATE_PRIOR_SD = 10.0
#: Hyperparameter notes: all drawn, some held at the mode, all held at the mode.
HYPER_DRAWN, HYPER_PARTIAL, HYPER_FIXED = "drawn", "partial", "fixed"


@dataclass(frozen=True)
class FieldContext:
    """What every combination's field shares: the unit-variance SPDE precision ``q1`` at the fixed range, its
    ordering and log-determinant, the window-average weights ``a`` (sum 1) and ``prior_var1 = a' Q1^{-1} a``."""

    q1: sp.csr_matrix
    perm: np.ndarray
    logdet_q1: float
    a: np.ndarray
    prior_var1: float

    @property
    def n(self) -> int:
        return int(self.a.size)

    @classmethod
    def build(cls, spde, log_range: float, window_weights: np.ndarray) -> FieldContext:
        rho = math.exp(log_range)
        q1 = spde.precision(rho, 1.0)
        perm = spde.ordering()
        a = np.asarray(window_weights, dtype=np.float64).ravel()
        a = a / a.sum()
        prior_var1 = float(a @ BandedCholesky.factor(q1, perm).solve(a))
        return cls(q1, perm, spde.logdet_precision(rho, 1.0, perm), a, prior_var1)


def block_factor(q: sp.spmatrix, proj: sp.spmatrix, d: np.ndarray, h_bb_extra: float, perm):
    """Block Cholesky of ``H = [[Q + A'DA, A'D1], [1'DA, 1'D1 + extra]]`` (as core.lgcp.LGCPModel._factor)."""
    h_ww = sp.csr_matrix(q + proj.T @ sp.diags(d) @ proj)
    h_wb = np.asarray(proj.T @ d).reshape(-1, 1)
    h_bb = np.array([[float(d.sum()) + h_bb_extra]])
    factor = BandedCholesky.factor(h_ww, perm)
    z = factor.solve(h_wb)
    schur = h_bb - h_wb.T @ z
    return factor, z, np.linalg.cholesky(0.5 * (schur + schur.T))


def block_solve(factor, z, s_chol, r_w, r_b):
    """``H^{-1} [r_w; r_b]`` with the block factor (vectors, or matrices with one column per right-hand side)."""
    y = factor.solve(r_w)
    db = np.linalg.solve(s_chol.T, np.linalg.solve(s_chol, r_b - z.T @ r_w))
    return y - z @ db, db


def block_logdet(factor, s_chol) -> float:
    return factor.logdet + 2.0 * sum_log(np.diag(s_chol))


@dataclass
class ConstrainedGaussian:
    """``N((w, beta), H^{-1})`` conditioned on ``a'w = 0``: ``fit`` holds the constrained mean and the factor of
    ``H``; ``(v_w, v_b) = H^{-1} [a; 0]`` and ``c = a' v_w`` krige each unconstrained draw onto the constraint."""

    fit: LaplaceFit
    a: np.ndarray
    v_w: np.ndarray
    v_b: np.ndarray
    c: float

    @property
    def beta(self) -> np.ndarray:
        return self.fit.beta

    @property
    def w(self) -> np.ndarray:
        return self.fit.w

    def draw(self, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
        """``size`` exact draws ``(beta (size, 1), w (size, n))`` (core.lgcp.LaplaceFit.draw, then kriged)."""
        beta, w = self.fit.draw(rng, size)
        t = (w @ self.a) / self.c
        return beta - t[:, None] * self.v_b[None, :], w - t[:, None] * self.v_w[None, :]


def _kriging(ctx: FieldContext, factor, z, s_chol):
    v_w, v_b = block_solve(factor, z, s_chol, ctx.a, np.zeros(1))
    return v_w, v_b, float(ctx.a @ v_w)


def normal_posterior(ctx: FieldContext, proj, y: np.ndarray, log_s: float, log_sigma: float):
    """``(log p(y | a'w = 0, s, sigma), ConstrainedGaussian)`` of ``y = beta + A w + eps``, ``w ~ N(0, s^2
    Q1^{-1})`` given ``a'w = 0``, ``eps ~ N(0, sigma^2 I)``, flat prior on beta (exact: all Gaussian)."""
    n = y.size
    s2, tau = math.exp(2 * log_s), math.exp(-2 * log_sigma)
    q = ctx.q1 / s2
    factor, z, s_chol = block_factor(q, proj, np.full(n, tau), 0.0, ctx.perm)
    rhs_w = np.column_stack([np.asarray(proj.T @ (tau * y)).ravel(), ctx.a])
    sol_w, sol_b = block_solve(factor, z, s_chol, rhs_w, np.array([[tau * float(y.sum()), 0.0]]))
    w, b, v_w, v_b = sol_w[:, 0], sol_b[:, 0], sol_w[:, 1], sol_b[:, 1]
    c = float(ctx.a @ v_w)
    resid = y - b[0] - proj @ w
    # unconstrained: log p(y | x) + log p(x) - log p(x | y) at the posterior mode (flat prior on beta: the
    # posterior has one dimension more than the prior, whence (1 - n) / 2 log 2 pi)
    log_ml = (
        -0.5 * (n - 1) * math.log(2 * math.pi)
        + 0.5 * n * math.log(tau)
        - 0.5 * tau * float(resid @ resid)
        + 0.5 * (ctx.logdet_q1 - ctx.n * math.log(s2))
        - 0.5 * float(w @ (q @ w))
        - 0.5 * block_logdet(factor, s_chol)
    )
    # the constraint: + log N(0; a'w_hat, c) - log N(0; 0, s^2 a'Q1^{-1}a)
    m = float(ctx.a @ w)
    log_ml += -0.5 * math.log(c) - 0.5 * m * m / c + 0.5 * math.log(s2 * ctx.prior_var1)
    w_c, b_c = w - v_w * (m / c), b - v_b * (m / c)
    fit = LaplaceFit(np.array([log_s, log_sigma]), w_c, b_c, factor, z, s_chol, log_ml, 0)
    return log_ml, ConstrainedGaussian(fit, ctx.a, v_w, v_b, c)


# -- the truncated Poisson -----------------------------------------------------------------------------------


def tp_table(lower: int, upper: int) -> tuple[np.ndarray, np.ndarray]:
    j = np.arange(lower, upper + 1, dtype=np.float64)
    return j, gammaln(j + 1.0)


def truncated_poisson_moments(eta: np.ndarray, lower: int, upper: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(log Z, mean, variance)`` of ``Poisson(exp(eta))`` truncated to ``{lower..upper}``, ``Z = sum_j
    exp(j eta) / j!``, by rows in blocks (memory ``O(block x support)``)."""
    eta = np.asarray(eta, dtype=np.float64)
    j, lg = tp_table(lower, upper)
    log_z, mean, var = np.empty(eta.size), np.empty(eta.size), np.empty(eta.size)
    block = max(1, 2_000_000 // j.size)
    for start in range(0, eta.size, block):
        e = eta[start : start + block]
        terms = e[:, None] * j[None, :] - lg[None, :]
        lz = logsumexp(terms, axis=1)
        p = np.exp(terms - lz[:, None])
        m1 = p @ j
        log_z[start : start + block] = lz
        mean[start : start + block] = m1
        var[start : start + block] = np.maximum(p @ (j * j) - m1 * m1, 1e-12)
    return log_z, mean, var


def tp_laplace(ctx: FieldContext | None, log_s: float, proj, y, support, start=None, max_steps: int = 50):
    """Laplace fit of the truncated Poisson, ``beta ~ N(0, LOG_RATE_PRIOR_SD^2)``, with the field ``w ~ N(0, s^2
    Q1^{-1})`` given ``a'w = 0`` (``ctx`` None: no field). The constrained mode by Newton steps kriged onto the
    constraint, with step halving; returns ``(log marginal likelihood (Laplace), posterior)``: a
    ConstrainedGaussian, or a LaplaceFit without a field."""
    lower, upper = support
    prior = 1.0 / LOG_RATE_PRIOR_SD**2
    m = y.size
    field = ctx is not None
    n_nodes = ctx.n if field else 0
    q = ctx.q1 / math.exp(2 * log_s) if field else None
    w = np.zeros(n_nodes) if start is None else start[0].copy()
    b = np.array([math.log(max(float(np.mean(y)), 0.5))]) if start is None else start[1].copy()

    def eta_of(w, b):
        return b[0] + proj @ w if field else np.full(m, b[0])

    def objective(w, b):
        log_z, _, _ = truncated_poisson_moments(eta_of(w, b), lower, upper)
        value = float(y @ eta_of(w, b) - log_z.sum()) - 0.5 * prior * float(b @ b)
        return value - (0.5 * float(w @ (q @ w)) if field else 0.0)

    current = objective(w, b)
    for _ in range(max_steps):
        _, mean, var = truncated_poisson_moments(eta_of(w, b), lower, upper)
        g = y - mean
        if not field:
            h = float(var.sum()) + prior
            step_w, step_b = w, np.array([(g.sum() - prior * b[0]) / h])
        else:
            factor, z, s_chol = block_factor(q, proj, var, prior, ctx.perm)
            rhs_w = np.column_stack([np.asarray(proj.T @ g).ravel() - q @ w, ctx.a])
            sol_w, sol_b = block_solve(factor, z, s_chol, rhs_w, np.array([[g.sum() - prior * b[0], 0.0]]))
            # the Newton step of the quadratic model restricted to a'(w + step) = 0 (its KKT solution)
            gap = float(ctx.a @ (w + sol_w[:, 0])) / float(ctx.a @ sol_w[:, 1])
            step_w, step_b = sol_w[:, 0] - gap * sol_w[:, 1], sol_b[:, 0] - gap * sol_b[:, 1]
        t = 1.0
        while True:
            cw = w + t * step_w if field else w
            cb = b + t * step_b
            value = objective(cw, cb)
            if value >= current - 1e-10 * abs(current) or t < 1e-6:
                break
            t *= 0.5
        gain = value - current
        w, b, current = cw, cb, value
        size = max(float(np.max(np.abs(t * step_b))), float(np.max(np.abs(t * step_w))) if field else 0.0)
        if size < 1e-7 or 0 <= gain < 1e-10:
            break
    _, _, var = truncated_poisson_moments(eta_of(w, b), lower, upper)
    if not field:
        h = float(var.sum()) + prior
        log_ml = current - 0.5 * math.log(h)
        return log_ml, LaplaceFit(
            np.zeros(0), w, b, _NoField(), np.zeros((0, 1)), np.array([[math.sqrt(h)]]), log_ml, 0
        )
    factor, z, s_chol = block_factor(q, proj, var, prior, ctx.perm)
    v_w, v_b, c = _kriging(ctx, factor, z, s_chol)
    s2 = math.exp(2 * log_s)
    log_ml = (
        current
        + 0.5 * (ctx.logdet_q1 - ctx.n * math.log(s2))
        - 0.5 * block_logdet(factor, s_chol)
        - 0.5 * math.log(c)
        + 0.5 * math.log(s2 * ctx.prior_var1)
    )
    fit = LaplaceFit(np.array([log_s]), w, b, factor, z, s_chol, log_ml, 0)
    return log_ml, ConstrainedGaussian(fit, ctx.a, v_w, v_b, c)


class _NoField:
    """The empty field block of a model without a field (LaplaceFit.draw then draws beta alone)."""

    def whiten_inverse(self, z, progress=None, message=""):
        return np.zeros_like(z)


# -- the hyperparameters' posterior -------------------------------------------------------------------------


@dataclass(frozen=True)
class HyperPosterior:
    """Gaussian approximation of the posterior of the log hyperparameters: ``centre``; the coordinates ``free``
    drawn with the lower Cholesky ``chol`` of their covariance; the others held at ``centre``; ``note`` one of
    :data:`HYPER_DRAWN`, :data:`HYPER_PARTIAL`, :data:`HYPER_FIXED`; ``sd`` the drawn coordinates' posterior sd
    (NaN for a held one)."""

    centre: np.ndarray
    free: tuple[int, ...]
    chol: np.ndarray
    note: str
    sd: np.ndarray

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``(size, dim)`` draws (core.mechanisms)."""
        out = np.tile(self.centre, (size, 1))
        if self.free:
            z = mechanisms.standard_normals(rng, (len(self.free), size))
            out[:, list(self.free)] += (self.chol @ z).T
        return out


def _hessian(f, x: np.ndarray, steps: np.ndarray, f0: float) -> tuple[np.ndarray, np.ndarray]:
    """Central-difference ``(gradient, Hessian)`` of ``f`` at ``x`` with per-coordinate ``steps``."""
    k = x.size
    grad, hess = np.empty(k), np.empty((k, k))
    e = np.diag(steps)
    for i in range(k):
        up, down = f(x + e[i]), f(x - e[i])
        grad[i] = (up - down) / (2 * steps[i])
        hess[i, i] = (up - 2 * f0 + down) / steps[i] ** 2
        for j in range(i + 1, k):
            hess[i, j] = hess[j, i] = (
                f(x + e[i] + e[j]) - f(x + e[i] - e[j]) - f(x - e[i] + e[j]) + f(x - e[i] - e[j])
            ) / (4 * steps[i] * steps[j])
    return grad, hess


def hyper_laplace(f, mode: np.ndarray, bounds, priority: tuple[int, ...]) -> HyperPosterior:
    """The Gaussian (Laplace) approximation of ``p(t | y) ∝ exp(f(t))`` (flat prior on ``t``, the log
    hyperparameters) at its ``mode`` found within ``bounds``.

    The curvature is measured by central differences, first with a step of 0.02 on each coordinate, then again
    with a step of about one posterior sd (clipped to [0.002, 0.25]) so that the second differences see the
    shape of the peak rather than rounding. A coordinate within 0.02 of its bound, or with a non-negative
    second difference, is held at the mode; if the remaining Hessian is not negative definite, or the Gaussian's
    centre -/+ 3 sd leaves the searched bounds for some coordinate (a plateau, e.g. a field sd tending to zero,
    has a slightly negative curvature and an absurd sd), only the first coordinate of ``priority`` that passes
    these checks on its own is drawn (conditionally on the others at the mode).
    The centre is the mode moved by one Newton step ``-H^{-1} g`` when that step is under two posterior sds
    (the quadratic's own peak; otherwise the mode is kept)."""
    mode = np.asarray(mode, dtype=np.float64)
    dim = mode.size
    f0 = f(mode)
    on_bound = [min(abs(mode[i] - bounds[i][0]), abs(mode[i] - bounds[i][1])) < 0.02 for i in range(dim)]
    candidates = [i for i in range(dim) if not on_bound[i]]
    fixed = HyperPosterior(mode, (), np.zeros((0, 0)), HYPER_FIXED, np.full(dim, np.nan))
    if not candidates:
        return fixed
    steps = np.full(dim, 0.02)
    unit = np.eye(dim)
    curv = np.array(
        [(f(mode + steps[i] * unit[i]) - 2 * f0 + f(mode - steps[i] * unit[i])) / steps[i] ** 2 for i in range(dim)]
    )
    candidates = [i for i in candidates if curv[i] < 0 and math.isfinite(curv[i])]
    if not candidates:
        return fixed

    def attempt(free):
        idx = np.array(free)
        sub_steps = np.clip(1.0 / np.sqrt(-curv[idx]), 0.002, 0.25)

        def g(u):
            t = mode.copy()
            t[idx] = u
            return f(t)

        grad, hess = _hessian(g, mode[idx], sub_steps, f0)
        if not (np.all(np.isfinite(hess)) and np.all(np.isfinite(grad))):
            return None
        try:
            lower = np.linalg.cholesky(-hess)
        except np.linalg.LinAlgError:
            return None
        cov = np.linalg.inv(-hess)
        chol = np.linalg.cholesky(0.5 * (cov + cov.T))
        newton = np.linalg.solve(-hess, grad)
        centre = mode.copy()
        if np.linalg.norm(lower.T @ newton) < 2.0:  # the step's length in posterior sds
            centre[idx] += newton
        sd = np.full(dim, np.nan)
        sd[idx] = np.sqrt(np.diag(cov))
        for i in idx:  # peaked within the searched region: centre -/+ 3 sd inside the bounds
            if centre[i] - 3 * sd[i] < bounds[i][0] or centre[i] + 3 * sd[i] > bounds[i][1]:
                return None
        return centre, chol, sd

    tries = [tuple(candidates)] + [(i,) for i in priority if i in candidates and len(candidates) > 1]
    for free in tries:
        got = attempt(free)
        if got is not None:
            centre, chol, sd = got
            note = HYPER_DRAWN if len(free) == dim else HYPER_PARTIAL
            return HyperPosterior(centre, tuple(free), chol, note, sd)
    return fixed
