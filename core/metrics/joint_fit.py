"""Joint LGCP fits of the confidential and the synthetic points, for the ANS and PRS disclosure risks
(Walder et al. Sections 7.3-7.4, eqs. 19-21).

Both are ordinary LGCPs in a stacked latent vector ``u = (w, v)`` (stored interleaved, ``u[2i] = w_i``,
``u[2i+1] = v_i``, so a banded ordering of the mesh stays banded), so the engine's fast posterior
(core.laplace_fit.fit_laplace) fits them unchanged:

* ANS (eqs. 19-20): ``log lambda = x' beta + w``, ``log lambda_dagger = x' beta + w + v`` with
  ``w ~ N(0, xi^2 Q_kappa^{-1})`` and the noise ``v ~ N(0, s2 Q_kappa^{-1})``; ``s2``, the released noise
  level, is known; ``kappa`` and ``beta`` are shared.
* PRS (Section 7.4): ``log lambda_dagger = x' beta + w*`` with ``w*`` an independent copy of the field with
  the same hyperparameters ``(kappa, xi^2)``; ``beta`` is shared.

The hyperparameters are ``theta = (log rho, log sigma)`` of the confidential field (rho = sqrt(8)/kappa,
sigma^2 = xi^2 / (4 pi kappa^2)); the noise's marginal variance is ``s2 / (4 pi kappa^2)``, so it changes
with the range as the paper's parametrisation implies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..errors import ParameterError
from ..fields import SPDEMatern, kappa_from_range
from ..lgcp import BetaPrior, LGCPDesign, LGCPModel

METHODS = ("ans", "prs")

_FIRST = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 0.0]]))
_SECOND = sp.csr_matrix(np.array([[0.0, 0.0], [0.0, 1.0]]))


@dataclass(frozen=True, eq=False)
class JointField:
    """The prior of ``u = (w, v)`` interleaved: block-diagonal SPDE precisions sharing kappa.

    Attributes:
        spde: the confidential field's SPDE model.
        method: ``"ans"`` (v is the noise, ``xi_v^2 = noise_variance`` fixed) or ``"prs"`` (v is a copy of w).
        noise_variance: the ANS noise level ``s2`` on the paper's ``xi^2`` scale (Walder eq. 10).
    """

    spde: SPDEMatern
    method: str
    noise_variance: float = 0.0

    dim = 2

    @property
    def n(self) -> int:
        return 2 * self.spde.n

    def _noise_sigma(self, rho: float) -> float:
        return math.sqrt(self.noise_variance / (4.0 * math.pi)) / kappa_from_range(rho)

    def _sigmas(self, theta) -> tuple[float, float, float]:
        rho, sigma = math.exp(theta[0]), math.exp(theta[1])
        return rho, sigma, (self._noise_sigma(rho) if self.method == "ans" else sigma)

    def precision_at(self, theta) -> sp.csr_matrix:
        rho, sigma, sigma_v = self._sigmas(theta)
        q_w = self.spde.precision(rho, sigma)
        q_v = q_w if sigma_v == sigma else self.spde.precision(rho, sigma_v)
        return sp.csr_matrix(sp.kron(q_w, _FIRST) + sp.kron(q_v, _SECOND))

    def logdet_at(self, theta, perm=None) -> float:
        rho, sigma, sigma_v = self._sigmas(theta)
        base = self.spde.logdet_precision(rho, sigma)
        # log|Q / xi^2| scales as -n log xi^2: the second block differs only in its variance
        return base + (base if sigma_v == sigma else base + 2.0 * self.spde.n * math.log(sigma / sigma_v))

    def ordering(self) -> np.ndarray:
        perm = self.spde.ordering()
        return np.column_stack([2 * perm, 2 * perm + 1]).ravel()

    def range_sigma(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        theta = np.atleast_2d(theta)
        return theta[:, 0].copy(), theta[:, 1].copy()


def _stack(proj: sp.spmatrix, pattern: sp.csr_matrix) -> sp.csr_matrix:
    return sp.csr_matrix(sp.kron(sp.csr_matrix(proj), pattern))


def joint_model(model: LGCPModel, x_syn, y_syn, x_points_syn, offset_syn, method: str, noise_variance: float = 0.0):
    """The joint LGCP of the confidential data (``model``, an SPDE model from core.lgcp_setup) and synthetic
    points ``(x_syn, y_syn)`` with covariates ``x_points_syn`` ``(M, p)`` (column 0 ones) and log offset
    ``offset_syn`` ``(M,)`` at them.

    With ``method="ans"`` and ``noise_variance = 0`` (Quick et al.'s plug-in synthesis) there is no ``v``: the
    model is the confidential one with the synthetic points added and the window integral counted twice.

    Returns:
        An :class:`~core.lgcp.LGCPModel` whose latent vector is ``u = (w, v)`` interleaved; its design holds
        the N confidential rows first, then the M synthetic ones, and the integration points twice
        (confidential intensity, then synthetic).
    """
    if method not in METHODS:
        raise ParameterError("method", f"method must be one of {METHODS}, got {method!r}")
    if not model.is_spde:
        raise ParameterError("model", "the joint fits need the SPDE field prior")
    if method == "ans" and not (math.isfinite(noise_variance) and noise_variance >= 0):
        raise ParameterError("noise", f"the ANS noise level must be a finite number >= 0, got {noise_variance!r}")
    d = model.design
    mesh = model.mesh
    x_syn = np.asarray(x_syn, dtype=np.float64)
    y_syn = np.asarray(y_syn, dtype=np.float64)
    x_points_syn = np.asarray(x_points_syn, dtype=np.float64)
    if x_points_syn.shape != (x_syn.size, d.n_coef):
        raise ParameterError("synthetic", "covariates at the synthetic points have the wrong shape")
    if method == "ans" and noise_variance == 0:
        # plug-in synthesis (Quick et al.): v = 0, the synthetic points are a second sample of the same lambda,
        # so the joint model is the confidential one with both point sets and the integral counted twice
        design = LGCPDesign(
            sp.vstack([d.proj, mesh.projection(x_syn, y_syn)], format="csr"),
            np.vstack([d.x_points, x_points_syn]),
            np.concatenate([d.offset_points, np.asarray(offset_syn, dtype=np.float64)]),
            sp.vstack([d.int_proj, d.int_proj], format="csr"),
            np.concatenate([d.int_weights, d.int_weights]),
            np.vstack([d.x_int, d.x_int]),
            np.concatenate([d.offset_int, d.offset_int]),
            d.names,
        )
        return LGCPModel(design, model.spde, model.theta_prior, BetaPrior.default(design), mesh=mesh)
    syn_pattern = sp.csr_matrix(np.array([[1.0, 1.0]])) if method == "ans" else sp.csr_matrix(np.array([[0.0, 1.0]]))
    conf_pattern = sp.csr_matrix(np.array([[1.0, 0.0]]))
    proj = sp.vstack([_stack(d.proj, conf_pattern), _stack(mesh.projection(x_syn, y_syn), syn_pattern)], format="csr")
    int_proj = sp.vstack([_stack(d.int_proj, conf_pattern), _stack(d.int_proj, syn_pattern)], format="csr")
    design = LGCPDesign(
        proj,
        np.vstack([d.x_points, x_points_syn]),
        np.concatenate([d.offset_points, np.asarray(offset_syn, dtype=np.float64)]),
        int_proj,
        np.concatenate([d.int_weights, d.int_weights]),
        np.vstack([d.x_int, d.x_int]),
        np.concatenate([d.offset_int, d.offset_int]),
        d.names,
    )
    field = JointField(model.spde, method, float(noise_variance))
    beta_prior = BetaPrior.default(design)
    return LGCPModel(design, field, model.theta_prior, beta_prior, mesh=None)


def confidential_draws(posterior, n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """``(beta, w)`` draws of the confidential intensity from a joint posterior on a mesh of ``n_nodes``:
    ``w = u[:, 0::2]`` for the interleaved ``(w, v)`` fields, ``u`` itself for the plug-in model (noise 0)."""
    if posterior.w.shape[1] == n_nodes:
        return posterior.beta, posterior.w
    if posterior.w.shape[1] != 2 * n_nodes:
        raise ParameterError("model", "the joint posterior does not match the mesh")
    return posterior.beta, posterior.w[:, 0::2]
