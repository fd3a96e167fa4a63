"""Posterior draws of an LGCP intensity, evaluable at any point of the mesh (Walder, Hanks & Slavković 2020,
"Privacy for spatial point process data", eqs. 2-3 and 30).

The disclosure risks (:mod:`.risk`) and the LGCP pMSE (:mod:`.pmse_lgcp`) integrate intensity draws over discs
and windows. The draws are equally weighted posterior draws: of ``pi(lambda | S)`` for radial synthesis, of the
confidential intensity from the joint fit ``pi(lambda, lambda^dagger | S, S^dagger)`` for ANS and PRS (Sections
7.3-7.4); :class:`IntensityDraws` evaluates them anywhere in the mesh.

Units: coordinates in CRS units, intensities per squared unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Callable

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

from ..draw_store import row_blocks
from ..errors import ParameterError


class IntensityDraws:
    """L posterior draws of an LGCP intensity (Walder eq. 2-3), evaluable at any points of the mesh.

    ``log lambda_l(s) = log pd(s) + x(s)' beta_l + sum_i phi_i(s) w_li`` with the covariates evaluated
    at s itself (``core.lgcp_setup.Covariate``) and the field interpolated by ``mesh.projection``.
    The window integrals ``Lambda_l = int_W lambda_l`` use the fit's own integration points.

    Args:
        mesh: the :class:`core.mesh.Mesh`.
        beta: ``(L, p)`` coefficient draws (column 0 the intercept); w: ``(L, n)`` mesh weights.
        covariates: the p - 1 covariates; offset: ``(x, y) -> log pd`` or None.
        int_proj, int_weights, x_int, offset_int: the fit's integration design (``Posterior`` fields).
    """

    def __init__(
        self,
        mesh,
        beta: np.ndarray,
        w: np.ndarray,
        covariates=(),
        offset: Callable | None = None,
        int_proj=None,
        int_weights: np.ndarray | None = None,
        x_int: np.ndarray | None = None,
        offset_int: np.ndarray | None = None,
    ):
        self.mesh = mesh
        self.beta = np.atleast_2d(np.asarray(beta, dtype=np.float64))
        self.w = np.atleast_2d(np.asarray(w, dtype=np.float64))
        self.covariates = tuple(covariates)
        self.offset = offset
        if self.beta.shape[0] != self.w.shape[0]:
            raise ParameterError("draws", "beta and w have different numbers of draws")
        if self.w.shape[1] != mesh.n_nodes:
            raise ParameterError("model", "the draws and the mesh have different numbers of nodes")
        if self.beta.shape[1] != len(self.covariates) + 1:
            raise ParameterError(
                "covariates", f"the draws have {self.beta.shape[1] - 1} covariates, got {len(self.covariates)}"
            )
        self.int_proj = None if int_proj is None else sp.csr_matrix(int_proj)
        self.int_weights = None if int_weights is None else np.asarray(int_weights, dtype=np.float64)
        self.x_int = None if x_int is None else np.asarray(x_int, dtype=np.float64)
        self.offset_int = None if offset_int is None else np.asarray(offset_int, dtype=np.float64)

    @classmethod
    def from_posterior(
        cls, posterior, covariates=(), offset: Callable | None = None, mesh=None, draws=None
    ) -> IntensityDraws:
        """From a :class:`core.posterior.Posterior`; ``covariates`` (``core.lgcp_setup.Covariate``) and ``offset``
        must be the functions the model was built with (the names are checked against ``posterior.names``).

        Args:
            mesh: the fit's mesh; default: rebuilt from ``posterior.nodes`` and ``triangles``.
            draws: None (all), a count (evenly spaced draws) or an index array.
        """
        names = tuple(c.name for c in covariates)
        if names != tuple(posterior.names[1:]):
            raise ParameterError("covariates", f"the fit's covariates are {posterior.names[1:]}, got {names}")
        if offset is None and np.any(np.asarray(posterior.offset_int) != 0):
            raise ParameterError("offset", "the model was fitted with an offset: give the same offset function")
        if mesh is None:
            from ..mesh import Mesh

            mesh = Mesh(posterior.nodes, posterior.triangles)
        total = posterior.beta.shape[0]
        if draws is None:
            index = np.arange(total)
        elif np.isscalar(draws):
            if not 1 <= int(draws) <= total:
                raise ParameterError("draws", f"the number of draws must lie in [1, {total}], got {draws!r}")
            index = np.unique(np.round(np.linspace(0, total - 1, int(draws))).astype(np.int64))
        else:
            index = np.asarray(draws, dtype=np.int64)
        return cls(
            mesh,
            posterior.beta[index],
            posterior.w[index],
            covariates,
            offset,
            posterior.int_proj,
            posterior.int_weights,
            posterior.x_int,
            posterior.offset_int,
        )

    @property
    def n_draws(self) -> int:
        return int(self.beta.shape[0])

    def log_intensity(self, x, y) -> np.ndarray:
        """``(L, k)`` draws of ``log lambda`` at k points (which must lie in the mesh)."""
        x = np.asarray(x, dtype=np.float64).ravel()
        y = np.asarray(y, dtype=np.float64).ravel()
        eta = np.asarray(self.mesh.projection(x, y) @ self.w.T)  # (k, L)
        eta += self.beta[:, 0]
        for j, c in enumerate(self.covariates, start=1):
            values = np.asarray(c.values(x, y), dtype=np.float64)
            if not np.all(np.isfinite(values)):
                raise ParameterError(c.name, f"covariate {c.name!r} is not finite at some points")
            eta += values[:, None] * self.beta[:, j]
        if self.offset is not None:
            off = np.asarray(self.offset(x, y), dtype=np.float64)
            if not np.all(np.isfinite(off)):
                raise ParameterError("offset", "the offset is not finite at some points")
            eta += off[:, None]
        return eta.T

    def window_log_intensity(self, points: slice | None = None) -> np.ndarray:
        """``(L, K)`` log-intensity draws at the fit's K integration points (weights :attr:`int_weights`), or at the
        slice ``points`` of them (:meth:`window_blocks`)."""
        if self.int_proj is None:
            raise ParameterError("model", "these draws carry no integration design for the window")
        points = slice(None) if points is None else points
        eta = np.asarray(self.int_proj[points] @ self.w.T).T
        eta += self.beta @ self.x_int[points].T
        eta += self.offset_int[None, points]
        return eta

    def window_blocks(self) -> Iterator[slice]:
        """Slices of the integration points whose :meth:`window_log_intensity` holds about
        :data:`core.draw_store.BLOCK_VALUES` values: a summary over the draws at each integration point, block by
        block, needs memory for a block, not for draws times integration points."""
        if self.int_proj is None:
            raise ParameterError("model", "these draws carry no integration design for the window")
        return row_blocks(self.int_proj.shape[0], self.n_draws)

    @cached_property
    def log_integrals(self) -> np.ndarray:
        """``(L,)`` ``log int_W lambda_l`` by the fit's quadrature (Walder eq. 30), in blocks of draws."""
        if self.int_proj is None:
            raise ParameterError("model", "these draws carry no integration design for the window")
        with np.errstate(divide="ignore"):
            log_weights = np.log(self.int_weights)[:, None]
        out = np.empty(self.n_draws)
        for rows in row_blocks(self.n_draws, max(self.int_proj.shape[0], self.w.shape[1])):
            eta = np.asarray(self.int_proj @ self.w[rows].T)  # (K, draws of the block)
            eta += self.x_int @ self.beta[rows].T
            eta += self.offset_int[:, None] + log_weights
            out[rows] = logsumexp(eta, axis=0)
        return out
