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
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy import special

from .errors import ParameterError
from .linalg import BandedCholesky, rcm_permutation

SQRT8 = math.sqrt(8.0)


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
        factor = BandedCholesky.factor(self.precision(rho, sigma), self.ordering())
        return factor.whiten_inverse(rng.standard_normal((self.n, size))).T

    def logdet_precision(self, rho: float, sigma: float, perm: np.ndarray | None = None) -> float:
        """``log |Q/xi^2|`` computed as ``2 log|L| - sum log c - n log xi^2`` (L is sparse SPD)."""
        kappa = kappa_from_range(rho)
        xi2 = 4.0 * math.pi * kappa**2 * sigma**2
        lap = sp.csr_matrix(sp.diags(kappa**2 * self.c) + self.g)
        factor = BandedCholesky.factor(lap, perm if perm is not None else rcm_permutation(lap))
        return 2.0 * factor.logdet - float(np.sum(np.log(self.c))) - self.n * math.log(xi2)


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
