"""The LGCP fitted to the confidential points, and what Walder, Hanks & Slavković's synthesizers and their risk
and utility measures need from it (Sections 5-7).

:class:`ConfidentialFit` holds the confidential model and its posterior, the posterior draws of the intensity
that the risk and pMSE computations use, the covariates at the mesh nodes that the synthesizers sample with, and
the posterior means ``kappa_hat^2``, ``xi_hat^2`` of Section 5; :meth:`ConfidentialFit.from_model_file` rebuilds
it from a saved model file. :func:`at_locations` counts synthetic points that lie exactly on confidential
locations (a sign that the confidential layer was given as the synthetic one).
"""

from __future__ import annotations

import math

import numpy as np

from .. import fields
from ..errors import ParameterError
from ..lgcp import BetaPrior, LGCPDesign, LGCPModel
from ..lgcp_setup import Covariate
from ..metrics.intensity_draws import IntensityDraws
from ..posterior import Posterior
from ..quadrature import quadrature
from . import walder


class ConfidentialFit:
    """The confidential LGCP fit and what the synthesizers and the risk and utility measures need.

    Args:
        model: the confidential :class:`core.lgcp.LGCPModel` (SPDE field, with its mesh).
        posterior: its posterior draws (core.laplace_fit.fit_laplace or core.mcmc.fit_mcmc).
        window: the study window; x, y: the confidential points (the rows of ``model.design``).
        covariates, offset: the functions the model was built with (core.lgcp_setup.Covariate).
        draws: posterior draws used by the risk and pMSE computations (evenly spaced over the
            posterior; the paper uses its whole chain, we found 200 enough for two significant digits
            of the maximum risk on the John Snow data).
    """

    def __init__(self, model: LGCPModel, posterior: Posterior, window, x, y, covariates=(), offset=None, draws=200):
        if not model.is_spde or model.mesh is None:
            raise ParameterError("model", "the synthesis tools need an SPDE model with its mesh")
        self.model = model
        self.posterior = posterior
        self.window = window
        self.x = np.asarray(x, dtype=np.float64)
        self.y = np.asarray(y, dtype=np.float64)
        if self.x.size != model.design.n_points:
            raise ParameterError("points", f"the model has {model.design.n_points} points, got {self.x.size}")
        self.covariates = tuple(covariates)
        self.offset = offset
        self.n_draws = int(min(draws, posterior.n_draws))
        self.draws = IntensityDraws.from_posterior(
            posterior, self.covariates, offset, mesh=model.mesh, draws=self.n_draws
        )
        self.node_covariates = walder.NodeCovariates.from_functions(model.mesh, window, self.covariates, offset)
        self.kappa2 = walder.posterior_kappa2(posterior)
        self.xi2 = walder.posterior_xi2(posterior)
        self.fit_model = self._with_cubic_quadrature()

    def _with_cubic_quadrature(self) -> LGCPModel:
        """The confidential model with the degree-3 quadrature that also sees the mesh nodes
        (core.quadrature ``cubic``), for the synthetic and joint fits: strongly clustered synthetic sets
        (ANS at large noise) fool the midpoint rule (a spike at one node that the edge midpoints miss)."""
        quad = quadrature(self.mesh, self.window, "cubic")
        x_int, off_int = self.design_at(quad.x, quad.y, name="window")
        d = self.model.design
        design = LGCPDesign(d.proj, d.x_points, d.offset_points, quad.proj, quad.weights, x_int, off_int, d.names)
        m = self.model
        return LGCPModel(design, m.spde, m.theta_prior, m.beta_prior, mesh=m.mesh)

    def intensity_draws(self, beta, w) -> IntensityDraws:
        """Draws ``(beta, w)`` of the confidential intensity, with the synthetic and joint fits' window
        quadrature for ``Lambda = int_W lambda``."""
        d = self.fit_model.design
        return IntensityDraws(
            self.mesh, beta, w, self.covariates, self.offset, d.int_proj, d.int_weights, d.x_int, d.offset_int
        )

    @property
    def mesh(self):
        return self.model.mesh

    @property
    def n(self) -> int:
        return int(self.x.size)

    @property
    def theta_hat(self) -> np.ndarray:
        """``(log rho, log sigma)`` at the posterior means ``kappa_hat^2``, ``xi_hat^2`` (Section 5.3)."""
        rho = math.sqrt(8.0 / self.kappa2)
        sigma = math.sqrt(self.xi2 / (4.0 * math.pi * self.kappa2))
        return np.array([math.log(rho), math.log(sigma)])

    @property
    def field_variance(self) -> float:
        """The field's marginal variance at the posterior means, ``xi_hat^2 / (4 pi kappa_hat^2)``."""
        return self.xi2 / (4.0 * math.pi * self.kappa2)

    def paper_noise_level(self, marginal_variance: float) -> float:
        """The paper's ANS noise level ``sigma^2`` (1/length^2) for a noise marginal variance."""
        return walder.noise_variance_for_marginal(marginal_variance, self.kappa2)

    @classmethod
    def from_model_file(cls, posterior: Posterior, x, y, window, draws: int = 200) -> ConfidentialFit:
        """Rebuild the model from a saved :class:`core.posterior.Posterior` and the confidential points.

        The covariates and the offset are known only at the mesh nodes (``Posterior.x_nodes``) and the
        integration points, so at any other location they are interpolated linearly over the mesh
        triangles, as in the synthetic intensity of :func:`core.synthesis.walder.sample_exact`.
        """
        from ..mesh import Mesh

        if posterior.x_nodes is None:
            raise ParameterError("model", "this model file has no covariates at the mesh nodes: refit it")
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        mesh = Mesh(posterior.nodes, posterior.triangles)
        inside = mesh.locate(x, y)[0] >= 0
        if not inside.all():
            raise ParameterError("model", f"{int((~inside).sum())} points lie outside the model's mesh")
        x_nodes = np.asarray(posterior.x_nodes, dtype=np.float64)
        off_nodes = np.asarray(posterior.offset_nodes, dtype=np.float64)
        covariates = tuple(
            Covariate(name, lambda u, v, j=j: np.asarray(mesh.projection(u, v) @ x_nodes[:, j]))
            for j, name in enumerate(posterior.names[1:], start=1)
        )
        offset = None
        if np.any(off_nodes != 0) or np.any(np.asarray(posterior.offset_int) != 0):
            offset = lambda u, v: np.asarray(mesh.projection(u, v) @ off_nodes)  # noqa: E731
        proj = mesh.projection(x, y)
        design = LGCPDesign(
            proj,
            np.asarray(proj @ x_nodes),
            np.zeros(x.size) if offset is None else np.asarray(proj @ off_nodes),
            posterior.int_proj,
            posterior.int_weights,
            posterior.x_int,
            posterior.offset_int,
            tuple(posterior.names),
        )
        spde = fields.SPDEMatern(*mesh.fem_matrices())
        prior = fields.LogNormalFieldPrior(
            range0=float(np.exp(np.mean(posterior.log_range))), sigma0=float(np.exp(np.mean(posterior.log_sigma)))
        )
        model = LGCPModel(design, spde, prior, BetaPrior.default(design), mesh=mesh)
        return cls(model, posterior, window, x, y, covariates, offset, draws)

    def design_at(self, x, y, name: str = "synthetic") -> tuple[np.ndarray, np.ndarray]:
        """Covariates (with the intercept column) and log offset at points."""
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        cols = [np.ones(x.size)] + [np.asarray(c.values(x, y), dtype=np.float64) for c in self.covariates]
        design = np.column_stack(cols)
        off = np.zeros(x.size) if self.offset is None else np.asarray(self.offset(x, y), dtype=np.float64)
        if not (np.all(np.isfinite(design)) and np.all(np.isfinite(off))):
            raise ParameterError(name, "the covariates or the offset are not finite at some points")
        return design, off

    def check_synthetic(self, x_syn, y_syn, name: str = "synthetic") -> tuple[np.ndarray, np.ndarray]:
        xs = np.asarray(x_syn, dtype=np.float64).ravel()
        ys = np.asarray(y_syn, dtype=np.float64).ravel()
        if xs.size != ys.size or xs.size == 0:
            raise ParameterError(name, "the synthetic layer is empty")
        outside = int(np.count_nonzero(~self.window.contains(xs, ys)))
        if outside:
            raise ParameterError(
                name,
                f"{outside} synthetic points lie outside the study window of the confidential fit: give the synthetic "
                "layer made from this fit (in the same CRS), and the same WINDOW as for the fit",
            )
        return xs, ys

    def spacing(self) -> float:
        """The median distance from a confidential location to the nearest other one (people at one address
        count once): a radial point moved less than half of it stays nearer its own origin than the others do."""
        from scipy.spatial import cKDTree

        locations = np.unique(np.column_stack([self.x, self.y]), axis=0)
        if locations.shape[0] < 2:
            return 0.0
        distance, _ = cKDTree(locations).query(locations, k=2)
        return float(np.median(distance[:, 1]))


def at_locations(x, y, x_syn, y_syn) -> int:
    """How many of the points ``(x_syn, y_syn)`` lie exactly on one of the locations ``(x, y)``. The synthesizers
    rarely put a point on a confidential location by chance (their points are continuous draws, or rounded to a
    fine grid), so many such points suggest that the confidential layer, or part of it, was given as the
    synthetic one."""
    locations = np.asarray(x, dtype=np.float64).ravel() + 1j * np.asarray(y, dtype=np.float64).ravel()
    syn = np.asarray(x_syn, dtype=np.float64).ravel() + 1j * np.asarray(y_syn, dtype=np.float64).ravel()
    return int(np.count_nonzero(np.isin(syn, locations)))
