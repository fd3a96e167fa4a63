"""Gaussian random fields: the SPDE/Matérn prior on mesh weights, priors on its hyperparameters,
and dense covariance families for small knot sets.

SPDE (Lindgren, Rue & Lindström 2011; Walder et al. Appendix A.1): with piecewise-linear basis
functions on a mesh, lumped mass matrix ``C`` and stiffness matrix ``G``, the weights of a Matérn
field with smoothness nu = 1 in two dimensions are (eq. 29)

    w ~ N(0, xi^2 Q^{-1}),  Q = L C^{-1} L,  L = kappa^2 C + G,

with effective range ``rho = sqrt(8) / kappa`` and marginal variance
``sigma^2 = xi^2 / (4 pi kappa^2)`` (eq. 38). Hyperparameters are handled on the log scale
``theta = (log rho, log sigma)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy import special

from . import mechanisms
from .errors import ParameterError
from .linalg import SPARSE_MIN_NODES, cholesky, rcm_permutation, sum_log

SQRT8 = math.sqrt(8.0)


KEPT_LOGDETS = 64


def kappa_from_range(rho: float) -> float:
    """``kappa = sqrt(8) / rho`` (Walder eq. 38)."""
    return SQRT8 / rho


@dataclass(frozen=True)
class SPDEMatern:
    """The nu = 1 Matérn SPDE prior on the weights of a mesh (Walder eq. 29).

    Attributes:
        c: lumped mass matrix diagonal, ``c_i = int phi_i`` (area units).
        g: stiffness matrix ``G_ij = int grad phi_i . grad phi_j`` (dimensionless).
    """

    c: np.ndarray
    g: sp.csr_matrix
    #: ``log |kappa^2 C + G|`` by (kappa, ordering): a hyperparameter search asks again at the same range (its
    #: finite differences in log sigma); at most :data:`KEPT_LOGDETS`.
    _logdets: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if np.any(self.c <= 0):
            raise ParameterError("mesh", "every mesh node needs a positive lumped mass (no isolated nodes)")

    @property
    def n(self) -> int:
        return self.c.shape[0]

    def precision(self, rho: float, sigma: float) -> sp.csr_matrix:
        """Precision of ``w`` for effective range ``rho`` and marginal standard deviation ``sigma``."""
        kappa = kappa_from_range(rho)
        xi2 = 4.0 * math.pi * kappa**2 * sigma**2
        lap = sp.diags(kappa**2 * self.c) + self.g
        return sp.csr_matrix(lap @ sp.diags(1.0 / self.c) @ lap / xi2)

    def ordering(self) -> np.ndarray:
        """A bandwidth-reducing ordering valid for every precision of this model (same pattern)."""
        return rcm_permutation(self.precision(1.0, 1.0))

    def sample(self, rho: float, sigma: float, rng: np.random.Generator, size: int = 1) -> np.ndarray:
        """``(size, n)`` exact draws of ``w`` from the prior (eq. 29)."""
        factor = cholesky(self.precision(rho, sigma), self.ordering())
        return factor.whiten_inverse(mechanisms.standard_normals(rng, (self.n, size))).T

    def logdet_precision(self, rho: float, sigma: float, perm: np.ndarray | None = None) -> float:
        """``log |Q/xi^2|`` computed as ``2 log|L| - sum log c - n log xi^2`` (L is sparse SPD)."""
        kappa = kappa_from_range(rho)
        xi2 = 4.0 * math.pi * kappa**2 * sigma**2
        key = (kappa, None if perm is None else hash(np.asarray(perm).tobytes()))
        logdet = self._logdets.get(key)
        if logdet is None:
            lap = sp.csr_matrix(sp.diags(kappa**2 * self.c) + self.g)
            if perm is None and lap.shape[0] < SPARSE_MIN_NODES:
                perm = rcm_permutation(lap)
            logdet = cholesky(lap, perm).logdet
            if len(self._logdets) >= KEPT_LOGDETS:
                self._logdets.clear()
            self._logdets[key] = logdet
        return 2.0 * logdet - float(np.sum(np.log(self.c))) - self.n * math.log(xi2)

    # -- the field interface the LGCP model uses (theta = (log rho, log sigma)) -----------------

    dim = 2  # number of hyperparameters

    def precision_at(self, theta) -> sp.csr_matrix:
        return self.precision(math.exp(theta[0]), math.exp(theta[1]))

    def logdet_at(self, theta, perm: np.ndarray | None = None) -> float:
        return self.logdet_precision(math.exp(theta[0]), math.exp(theta[1]), perm)

    def range_sigma(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(log rho, log sigma)`` per row of ``theta`` (here theta itself)."""
        theta = np.atleast_2d(theta)
        return theta[:, 0].copy(), theta[:, 1].copy()


# -- priors on theta = (log rho, log sigma) -----------------------------------------------------


@dataclass(frozen=True)
class LogNormalFieldPrior:
    """Walder et al. Appendix A.5 (after Lindgren & Rue 2015): ``log rho = log rho0 + theta1``,
    ``log sigma = log sigma0 + theta2`` with ``(theta1, theta2) ~ N(0, diag(sd_log_range^2, sd_log_sigma^2))``.
    """

    range0: float
    sigma0: float = 1.0
    sd_log_range: float = 1.0
    sd_log_sigma: float = 1.0

    def log_density(self, log_rho: float, log_sigma: float) -> float:
        """Log density of ``(log rho, log sigma)`` (the prior is Gaussian on this scale)."""
        z1 = (log_rho - math.log(self.range0)) / self.sd_log_range
        z2 = (log_sigma - math.log(self.sigma0)) / self.sd_log_sigma
        return -0.5 * (z1 * z1 + z2 * z2) - math.log(2 * math.pi * self.sd_log_range * self.sd_log_sigma)

    def centre(self) -> tuple[float, float]:
        return math.log(self.range0), math.log(self.sigma0)


@dataclass(frozen=True)
class PCFieldPrior:
    """Penalised-complexity prior for a 2-D Matérn field (Fuglstad, Simpson, Lindgren & Rue 2019):
    ``P(rho < range0) = alpha_range`` and ``P(sigma > sigma0) = alpha_sigma``.

    Density (d = 2): ``lambda_r rho^-2 exp(-lambda_r / rho) * lambda_s exp(-lambda_s sigma)`` with
    ``lambda_r = -log(alpha_range) range0`` and ``lambda_s = -log(alpha_sigma) / sigma0``; on the log
    scale the Jacobian ``rho * sigma`` is added.
    """

    range0: float
    alpha_range: float = 0.5
    sigma0: float = 1.0
    alpha_sigma: float = 0.01

    def log_density(self, log_rho: float, log_sigma: float) -> float:
        lam_r = -math.log(self.alpha_range) * self.range0
        lam_s = -math.log(self.alpha_sigma) / self.sigma0
        rho, sigma = math.exp(log_rho), math.exp(log_sigma)
        return math.log(lam_r) - log_rho - lam_r / rho + math.log(lam_s) - lam_s * sigma + log_sigma

    def centre(self) -> tuple[float, float]:
        return math.log(self.range0), math.log(self.sigma0) - 1.0


# -- dense covariance families (small knot sets) -------------------------------------------------


def power_exponential(d: np.ndarray, sigma2: float, length: float, power: float) -> np.ndarray:
    """``sigma^2 exp(-(d / l)^p)``, ``0 < p <= 2`` (Kim & Lim eq. 8); p = 1 exponential, p = 2 Gaussian."""
    if not 0 < power <= 2:
        raise ParameterError("power", f"the power must lie in (0, 2], got {power!r}")
    return sigma2 * np.exp(-((np.asarray(d) / length) ** power))


def exponential(d: np.ndarray, sigma2: float, length: float) -> np.ndarray:
    """``sigma^2 exp(-d / l)``."""
    return power_exponential(d, sigma2, length, 1.0)


def matern(d: np.ndarray, sigma2: float, rho: float, nu: float = 1.0) -> np.ndarray:
    """Matérn covariance with effective range ``rho = sqrt(8 nu) / kappa`` (Lindgren et al. 2011).

    ``sigma^2 2^(1-nu) / Gamma(nu) (kappa d)^nu K_nu(kappa d)``; for nu = 1 this is Walder eq. (5)
    scaled to marginal variance sigma^2, with correlation about 0.13 at distance rho.
    """
    d = np.asarray(d, dtype=np.float64)
    kappa = math.sqrt(8.0 * nu) / rho
    kd = np.maximum(kappa * d, 1e-300)
    out = sigma2 * (2.0 ** (1.0 - nu) / special.gamma(nu)) * kd**nu * special.kv(nu, kd)
    return np.where(d == 0, sigma2, out)


FAMILIES = ("power_exponential", "exponential", "matern")


@dataclass(frozen=True, eq=False)
class KnotCovarianceField:
    """A Gaussian prior on the weights of a small set of knots with a dense covariance matrix
    (Kim & Lim Section 3.3.1): ``w ~ N(0, Sigma)``, ``Sigma_ij = k(||t_i - t_j||)`` plus a nugget.

    Families: ``"power_exponential"`` ``sigma^2 exp(-(d/l)^p)`` (Kim & Lim eq. 8, ``0 < p <= 2``),
    ``"exponential"`` (p = 1) and ``"matern"`` (smoothness ``nu``, ``l`` = effective range).

    Hyperparameters (log scale): ``theta = (log l, log sigma)``; or, with ``ratio`` R given,
    ``theta = (log l,)`` and ``sigma = R l`` (Kim & Lim fix ``R = sigma / l`` by their DP condition,
    Corollary 3.9, and put an inverse-gamma prior on ``l``: :class:`InverseGammaLengthPrior`).

    ``nugget`` adds ``nugget * sigma^2`` to the diagonal (or ``nugget_variance``, absolute, if given:
    the DP synthesizer needs a nugget that does not grow with ``sigma``, see core.synthesis.lgcp_dp).
    The Gaussian (p = 2) correlation matrix of a lattice is numerically singular (its eigenvalues
    decay faster than exponentially), so without a nugget neither its Cholesky factor nor its inverse
    exists in floating point. The nugget is an independent normal term per knot: it adds twice its
    variance to the variance of a difference of two interpolated values (Kim & Lim eq. 10), which the
    DP calibration of the LGCP synthesizer includes.

    Dense algebra: O(n^3) per hyperparameter value, meant for a few hundred to ~2,000 knots.
    """

    knots: np.ndarray
    family: str = "power_exponential"
    power: float = 2.0
    nu: float = 1.0
    ratio: float | None = None
    nugget: float = 1e-6
    nugget_variance: float | None = None

    def __post_init__(self) -> None:
        knots = np.asarray(self.knots, dtype=np.float64)
        if knots.ndim != 2 or knots.shape[1] != 2 or knots.shape[0] < 2 or not np.isfinite(knots).all():
            raise ParameterError("knots", "knots must be a finite (n >= 2, 2) array")
        object.__setattr__(self, "knots", knots)
        if self.family not in FAMILIES:
            raise ParameterError("family", f"family must be one of {', '.join(FAMILIES)}, got {self.family!r}")
        if self.family == "power_exponential" and not 0 < self.power <= 2:
            raise ParameterError("power", f"the power must lie in (0, 2], got {self.power!r}")
        if self.family == "matern" and not self.nu > 0:
            raise ParameterError("nu", f"the Matérn smoothness must be > 0, got {self.nu!r}")
        if self.ratio is not None and not (math.isfinite(self.ratio) and self.ratio > 0):
            raise ParameterError("ratio", f"the ratio sigma / l must be a finite number > 0, got {self.ratio!r}")
        if self.nugget_variance is not None and not (math.isfinite(self.nugget_variance) and self.nugget_variance > 0):
            raise ParameterError(
                "nugget", f"the nugget variance must be a finite number > 0, got {self.nugget_variance!r}"
            )
        if not (math.isfinite(self.nugget) and self.nugget >= 0):
            raise ParameterError("nugget", f"the nugget must be a finite number >= 0, got {self.nugget!r}")
        diff = knots[:, None, :] - knots[None, :, :]
        object.__setattr__(self, "_distances", np.sqrt(np.sum(diff * diff, axis=-1)))

    @property
    def n(self) -> int:
        return self.knots.shape[0]

    @property
    def dim(self) -> int:
        return 1 if self.ratio is not None else 2

    def length_sigma(self, theta) -> tuple[float, float]:
        """``(l, sigma)`` from ``theta`` on the log scale."""
        length = math.exp(theta[0])
        return length, (self.ratio * length if self.ratio is not None else math.exp(theta[1]))

    def covariance(self, length: float, sigma: float) -> np.ndarray:
        """The dense ``(n, n)`` covariance of the knot weights, nugget included."""
        d, s2 = self._distances, sigma * sigma
        if self.family == "matern":
            cov = matern(d, s2, length, self.nu)
        else:
            cov = power_exponential(d, s2, length, 1.0 if self.family == "exponential" else self.power)
        cov[np.diag_indices_from(cov)] += self.nugget * s2 if self.nugget_variance is None else self.nugget_variance
        return cov

    def _cholesky(self, theta) -> np.ndarray:
        try:
            return np.linalg.cholesky(self.covariance(*self.length_sigma(theta)))
        except np.linalg.LinAlgError:
            raise ParameterError(
                "nugget", "the knot covariance is numerically singular at these hyperparameters: raise the nugget"
            ) from None

    def precision_at(self, theta) -> sp.csr_matrix:
        """``Sigma^{-1}`` as a (dense-pattern) sparse matrix, for the LGCP model."""
        chol = self._cholesky(theta)
        inv_chol = np.linalg.solve(chol, np.eye(self.n))  # L^{-1}
        prec = inv_chol.T @ inv_chol
        return sp.csr_matrix(0.5 * (prec + prec.T))

    def logdet_at(self, theta, perm: np.ndarray | None = None) -> float:
        """``log |Sigma^{-1}|``."""
        return -2.0 * sum_log(np.diag(self._cholesky(theta)))

    def ordering(self) -> np.ndarray:
        """The identity: a dense matrix has no bandwidth to reduce."""
        return np.arange(self.n, dtype=np.int64)

    def range_sigma(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(log l, log sigma)`` per row of ``theta`` (``log sigma = log R + log l`` with a fixed ratio)."""
        theta = np.atleast_2d(theta)
        log_l = theta[:, 0].copy()
        return log_l, (log_l + math.log(self.ratio) if self.ratio is not None else theta[:, 1].copy())

    def sample(self, theta, rng: np.random.Generator, size: int = 1) -> np.ndarray:
        """``(size, n)`` exact draws of ``w`` from the prior."""
        return (self._cholesky(theta) @ mechanisms.standard_normals(rng, (self.n, size))).T


@dataclass(frozen=True)
class InverseGammaLengthPrior:
    """``l ~ InvGamma(shape, scale)`` (Kim & Lim Section 3.3.1), density
    ``scale^shape / Gamma(shape) l^(-shape-1) exp(-scale / l)``; as a prior on ``theta = (log l,)`` the
    Jacobian ``l`` is included. Its mode on the log scale is ``l = scale / shape``."""

    shape: float = 2.0
    scale: float = 1.0

    def __post_init__(self) -> None:
        for name in ("shape", "scale"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ParameterError(name, f"the inverse-gamma {name} must be a finite number > 0, got {value!r}")

    def log_density(self, log_length: float) -> float:
        a, b = self.shape, self.scale
        return a * math.log(b) - special.gammaln(a) - a * log_length - b * math.exp(-log_length)

    def centre(self) -> tuple[float]:
        return (math.log(self.scale / self.shape),)
