"""Risk and utility of Walder, Hanks & Slavković's synthesizers, one synthetic set at a time or as a sweep
(Sections 5-8).

A :class:`ConfidentialFit` holds the LGCP fitted to the confidential points (core.lgcp) and what the
tools need from it. For each :class:`SynthesisSpec` (radial radius, ANS noise level or a PRS replicate)
:func:`synthesize` makes a synthetic set and :func:`evaluate` scores it:

* disclosure risk (Section 7, eq. 16): radial sets from the confidential posterior draws (eqs. 17-18);
  ANS and PRS sets from the joint fit of the confidential and synthetic points (eqs. 19-21,
  core.metrics.joint_fit), each by the disc quadrature of Appendix A.4 (core.metrics.risk);
* utility (Section 6, eqs. 12-15): an LGCP fitted to the synthetic points, paired draw by draw with the
  confidential fit (core.metrics.pmse_lgcp).

Hyperparameters of the synthetic and joint fits (``hyper``): ``"fixed"`` (default) fixes theta at the
confidential posterior means ``(kappa_hat^2, xi_hat^2)`` of Section 5 (the values PRS synthesises with)
and fits ``(beta, w)`` by one Laplace approximation (core.lgcp.fit_at_theta, about 0.5 s on the John Snow
mesh); ``"full"`` integrates over theta as the paper's samplers do (core.lgcp.fit_laplace, 10-40 s per
fit). The fixed shortcut ignores the uncertainty in theta: the joint posterior is a little too
confident, which raises the ANS/PRS risks somewhat (a conservative error for a steward), and a synthetic
set whose spatial scale differs from the confidential one is fitted at the confidential scale.
``tests/benchmarks/bench_walder_snow.py --validate`` compares the two on the John Snow data.

Noise levels: the paper's ANS noise level ``sigma^2`` is on the scale of the variance parameter
``xi^2`` (1/length^2, core.synthesis.walder), so its meaning depends on the CRS unit. Here a
:class:`SynthesisSpec` gives the noise field's marginal variance ``s2`` (dimensionless, the variance of
the added log-intensity noise); the paper's level is ``sigma^2 = 4 pi kappa_hat^2 s2``
(:meth:`ConfidentialFit.paper_noise_level`).

Radial synthesis keeps points inside the window (``walder.radial(keep_inside=True)``): a redrawn point is
uniform on ``B_r(s) ∩ W`` instead of ``B_r(s)``, and :func:`core.metrics.risk.radial_risk` (``kept_inside``)
accounts for that density ``1 / |B_r(s) ∩ W|``; the paper's eq. (17) ignores it, which matters for people
within r of the window's boundary (at a corner it understates the risk about twofold).

The sweep is what the risk-utility explorer drives: it takes ``progress(fraction, message)`` (which may
raise to cancel) and returns every set with its scores, and :func:`recommend` picks the set with the
lowest pMSE among those whose maximum risk is at most a threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import fields, mechanisms
from ..errors import ParameterError
from ..lgcp import BetaPrior, LGCPDesign, LGCPModel, Posterior, fit_at_theta, fit_laplace
from ..lgcp_setup import Covariate
from ..metrics import joint_fit
from ..metrics.pmse_lgcp import LGCPpMSE, pmse_from_draws
from ..metrics.risk import DisclosureRisk, IntensityDraws, radial_risk, synthesis_risk
from ..progress import Progress, report, scaled
from ..quadrature import quadrature
from ..window import Window
from . import walder

METHODS = ("radial", "ans", "prs")
HYPER = ("fixed", "full")
SAMPLERS = ("exact", "candidates")


@dataclass(frozen=True)
class SynthesisSpec:
    """One synthetic set to make.

    Attributes:
        method: ``"radial"``, ``"ans"`` or ``"prs"``.
        value: radial: the perturbation radius (CRS units, > 0); ANS: the noise field's marginal
            variance (dimensionless, >= 0; 0 is Quick et al.'s plug-in synthesis); PRS: unused (0).
        replicate: index of a replicate (PRS sets differ only by their random field).
    """

    method: str
    value: float = 0.0
    replicate: int = 0

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ParameterError("method", f"unknown synthesis method {self.method!r}; use one of {METHODS}")
        value = float(self.value)
        if not math.isfinite(value):
            raise ParameterError(self._value_name, f"the {self._value_name} must be finite, got {self.value!r}")
        if self.method == "radial" and value <= 0:
            raise ParameterError("radius", f"the perturbation radius must be > 0, got {value!r}")
        if self.method == "ans" and value < 0:
            raise ParameterError("noise", f"the ANS noise variance must be >= 0, got {value!r}")

    @property
    def _value_name(self) -> str:
        return {"radial": "radius", "ans": "noise", "prs": "value"}[self.method]

    @property
    def setting(self) -> str:
        """The setting without the replicate: "radial r=1", "ANS noise=0.5" or "PRS"."""
        if self.method == "radial":
            return f"radial r={self.value:g}"
        if self.method == "ans":
            return f"ANS noise={self.value:g}"
        return "PRS"

    @property
    def label(self) -> str:
        if self.method == "prs":
            return f"PRS #{self.replicate + 1}"
        return self.setting + (f" #{self.replicate + 1}" if self.replicate else "")


@dataclass(frozen=True)
class SyntheticSet:
    """A synthetic point set. ``field`` (ANS/PRS) holds the synthetic field; for ANS its ``noise`` is
    confidential (with it the published intensity reveals the confidential posterior-mean field)."""

    spec: SynthesisSpec
    x: np.ndarray
    y: np.ndarray
    field: walder.SyntheticField | None = None


@dataclass(frozen=True)
class Evaluation:
    """Scores of one synthetic set. ``risk`` is per person and confidential."""

    spec: SynthesisSpec
    max_risk: float
    pmse: float
    risk: DisclosureRisk
    utility: LGCPpMSE
    seconds: float = 0.0


def check_risk_radius(risk_radius: float, window: Window) -> float:
    """``risk_radius`` if it is a distance > 0 shorter than ``window``'s diagonal; a disc that wide covers
    the whole window around every person, so every risk would be 1 (and the quadrature is slow)."""
    r = float(risk_radius)
    if not (math.isfinite(r) and r > 0):
        raise ParameterError("risk_radius", f"the risk radius must be > 0, got {risk_radius!r}")
    xmin, ymin, xmax, ymax = window.bounds
    diagonal = math.hypot(xmax - xmin, ymax - ymin)
    # a disc must be resolvable in double precision at the window's coordinates: the quadrature's rows are r/m
    # apart, and below a billionth of the window's size the risk is ~ (r / diagonal)^2 < 1e-18 anyway
    smallest = max(1e-9 * diagonal, 1e4 * float(np.spacing(max(abs(v) for v in window.bounds))))
    if r < smallest:
        raise ParameterError(
            "risk_radius",
            f"the risk radius {r:g} is too small to integrate over at these coordinates (window diagonal "
            f"{diagonal:.4g}): give at least {smallest:.3g}, in the units of the CRS",
        )
    if r >= diagonal:
        raise ParameterError(
            "risk_radius",
            f"the risk radius {r:g} is at least the window's diagonal ({diagonal:.4g}): a disc that wide covers "
            "the whole window, so every risk would be 1; give it in the units of the CRS",
        )
    return r


class ConfidentialFit:
    """The confidential LGCP fit and what the synthesizers and the risk and utility measures need.

    Args:
        model: the confidential :class:`core.lgcp.LGCPModel` (SPDE field, with its mesh).
        posterior: its posterior draws (core.lgcp.fit_laplace or core.mcmc.fit_mcmc).
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
        """Rebuild the model from a saved :class:`core.lgcp.Posterior` and the confidential points.

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


# -- synthesis ------------------------------------------------------------------------------------


def synthesize(
    conf: ConfidentialFit, spec: SynthesisSpec, rng: np.random.Generator, count: int | None = None, sampler="exact"
) -> SyntheticSet:
    """One synthetic set (Section 5): radial perturbation of each point (5.1), or ``count`` (default N)
    points from the ANS (eq. 10) or PRS (eq. 11) intensity, by exact sampling of the piecewise log-linear
    intensity (``sampler="exact"``) or the paper's candidate scheme (``"candidates"``)."""
    if sampler not in SAMPLERS:
        raise ParameterError("sampler", f"unknown sampler {sampler!r}; use one of {SAMPLERS}")
    if spec.method == "radial":
        if count not in (None, conf.n):
            raise ParameterError("count", "radial synthesis moves every point: the count is the number of points")
        xs, ys = walder.radial(conf.x, conf.y, spec.value, rng, window=conf.window, keep_inside=True)
        return SyntheticSet(spec, xs, ys)
    n = conf.n if count is None else int(count)
    if spec.method == "ans":
        noise = conf.paper_noise_level(spec.value)
        syn_field = walder.ans_weights(conf.posterior, conf.model.spde, noise, rng)
    else:
        syn_field = walder.prs_weights(conf.posterior, conf.model.spde, rng)
    if sampler == "exact":
        xs, ys = walder.sample_exact(conf.mesh, conf.window, syn_field.eta_nodes(conf.node_covariates), n, rng)
    else:

        def log_intensity(u, v):
            return syn_field.log_intensity(conf.mesh, u, v, conf.covariates, conf.offset)

        xs, ys = walder.sample_candidates(conf.window, log_intensity, n, rng)
    return SyntheticSet(spec, xs, ys, syn_field)


def release_order(syn: SyntheticSet, rng: np.random.Generator) -> np.ndarray:
    """A random order to publish a synthetic set in, so that the order of a radial set (index-linked to the
    confidential points) does not link it to them; the uniforms come from :mod:`core.mechanisms`."""
    return np.argsort(mechanisms.uniforms(rng, syn.x.size), kind="stable")


# -- fits of the synthetic data ---------------------------------------------------------------------


def _check_hyper(hyper: str) -> None:
    if hyper not in HYPER:
        raise ParameterError("hyper", f"unknown hyperparameter treatment {hyper!r}; use one of {HYPER}")


def _fit(model: LGCPModel, conf: ConfidentialFit, rng, hyper: str, progress: Progress) -> Posterior:
    if hyper == "fixed":
        report(progress, 0.0, "Fitting at the confidential hyperparameters")
        posterior = fit_at_theta(model, conf.theta_hat, rng, draws=conf.n_draws, progress=progress)
        report(progress, 1.0, "Fitted")
        return posterior
    return fit_laplace(model, rng, draws=conf.n_draws, progress=progress)


def synthetic_model(conf: ConfidentialFit, x_syn, y_syn) -> LGCPModel:
    """The LGCP of the synthetic points on the confidential model's mesh, covariates and priors."""
    xs, ys = conf.check_synthetic(x_syn, y_syn)
    d = conf.fit_model.design
    design_syn, off_syn = conf.design_at(xs, ys)
    design = LGCPDesign(
        conf.mesh.projection(xs, ys), design_syn, off_syn, d.int_proj, d.int_weights, d.x_int, d.offset_int, d.names
    )
    return LGCPModel(design, conf.model.spde, conf.model.theta_prior, conf.model.beta_prior, mesh=conf.mesh)


def synthetic_draws(conf: ConfidentialFit, x_syn, y_syn, rng, hyper: str = "fixed", progress=None) -> IntensityDraws:
    """Posterior draws of the synthetic data's intensity ``lambda^dagger`` (for the pMSE, Section 6)."""
    _check_hyper(hyper)
    posterior = _fit(synthetic_model(conf, x_syn, y_syn), conf, rng, hyper, progress)
    return conf.intensity_draws(posterior.beta, posterior.w)


def joint_draws(conf: ConfidentialFit, syn: SyntheticSet, rng, hyper: str = "fixed", progress=None) -> IntensityDraws:
    """Draws of the confidential intensity from the joint fit ``pi(lambda, lambda^dagger | S, S^dagger)``
    (ANS: eqs. 19-20 with the released noise level known; PRS: shared beta and hyperparameters)."""
    _check_hyper(hyper)
    if syn.spec.method == "radial":
        raise ParameterError("method", "radial synthesis needs no joint fit")
    xs, ys = conf.check_synthetic(syn.x, syn.y)
    design_syn, off_syn = conf.design_at(xs, ys)
    noise = conf.paper_noise_level(syn.spec.value) if syn.spec.method == "ans" else 0.0
    model = joint_fit.joint_model(conf.fit_model, xs, ys, design_syn, off_syn, syn.spec.method, noise)
    posterior = _fit(model, conf, rng, hyper, progress)
    return conf.intensity_draws(*joint_fit.confidential_draws(posterior, conf.mesh.n_nodes))


# -- scores ---------------------------------------------------------------------------------------


def disclosure_risk(
    conf: ConfidentialFit,
    syn: SyntheticSet,
    rng: np.random.Generator,
    risk_radius: float,
    method: str = "exact",
    hyper: str = "fixed",
    progress: Progress = None,
) -> DisclosureRisk:
    """Per-person disclosure risk of a synthetic set (Section 7, eq. 16). Confidential."""
    risk_radius = check_risk_radius(risk_radius, conf.window)
    if syn.spec.method == "radial":
        if syn.x.size != conf.n:
            raise ParameterError("synthetic", "a radial set has one point per confidential point")
        return radial_risk(
            conf.draws,
            conf.x,
            conf.y,
            syn.x,
            syn.y,
            syn.spec.value,
            risk_radius,
            conf.window,
            method=method,
            progress=progress,
        )
    draws = joint_draws(conf, syn, rng, hyper, scaled(progress, 0.0, 0.5))
    return synthesis_risk(
        draws, conf.x, conf.y, risk_radius, conf.window, method=method, progress=scaled(progress, 0.5, 1.0)
    )


def baseline_risk(
    conf: ConfidentialFit,
    rng: np.random.Generator,
    risk_radius: float,
    method: str = "exact",
    hyper: str = "fixed",
    progress: Progress = None,
) -> DisclosureRisk:
    """The risk with nothing released: eq. 16 with ``pi(s | S_-k)`` alone, what the intruder learns from
    the other N - 1 points and the model. Fitted like the joint fits (same quadrature and hyperparameter
    treatment), so a synthetic set's risk can be compared with it: a set at this level adds (almost)
    nothing to the intruder's knowledge. PRS, whose joint fit shares only beta and the hyperparameters
    with the confidential data (Section 7.4), sits at this level by construction."""
    _check_hyper(hyper)
    risk_radius = check_risk_radius(risk_radius, conf.window)
    posterior = _fit(conf.fit_model, conf, rng, hyper, scaled(progress, 0.0, 0.5))
    draws = conf.intensity_draws(posterior.beta, posterior.w)
    return synthesis_risk(
        draws, conf.x, conf.y, risk_radius, conf.window, method=method, progress=scaled(progress, 0.5, 1.0)
    )


def utility(conf: ConfidentialFit, x_syn, y_syn, rng, hyper: str = "fixed", progress: Progress = None) -> LGCPpMSE:
    """Model-based pMSE of a synthetic set against the confidential points (Section 6, eqs. 12-15)."""
    syn_draws = synthetic_draws(conf, x_syn, y_syn, rng, hyper, progress)
    return pmse_from_draws(conf.draws, syn_draws, conf.x, conf.y, x_syn, y_syn)


def evaluate(
    conf: ConfidentialFit,
    syn: SyntheticSet,
    rng: np.random.Generator,
    risk_radius: float,
    method: str = "exact",
    hyper: str = "fixed",
    progress: Progress = None,
) -> Evaluation:
    """Maximum disclosure risk and pMSE of one synthetic set."""
    import time

    start = time.perf_counter()
    risk = disclosure_risk(conf, syn, rng, risk_radius, method, hyper, scaled(progress, 0.0, 0.7))
    score = utility(conf, syn.x, syn.y, rng, hyper, scaled(progress, 0.7, 1.0))
    return Evaluation(syn.spec, risk.maximum, score.pmse, risk, score, time.perf_counter() - start)


# -- the sweep ------------------------------------------------------------------------------------


def sweep_specs(radii=(), noise_levels=(), prs_replicates: int = 0, replicates: int = 1) -> list[SynthesisSpec]:
    """The synthetic sets of a risk-utility sweep: ``replicates`` releases of each radial radius and of each
    ANS noise variance, and ``prs_replicates`` PRS sets. Replicates of one setting (including a value given
    twice) are numbered 0, 1, ... so that their labels differ."""
    replicates = int(replicates)
    if replicates < 1:
        raise ParameterError("replicates", f"the number of releases per setting must be >= 1, got {replicates}")
    prs_replicates = int(prs_replicates)
    if prs_replicates < 0:
        raise ParameterError("prs_replicates", f"the number of PRS sets must be >= 0, got {prs_replicates}")
    specs, seen = [], {}
    for method, values in (("radial", radii), ("ans", noise_levels)):
        for value in values:
            for _ in range(replicates):
                key = (method, float(value))
                specs.append(SynthesisSpec(method, float(value), seen.get(key, 0)))
                seen[key] = seen.get(key, 0) + 1
    specs += [SynthesisSpec("prs", 0.0, i) for i in range(prs_replicates)]
    if not specs:
        raise ParameterError("specs", "give at least one radius, noise level or PRS replicate")
    return specs


@dataclass
class SweepResult:
    """Every synthetic set of a sweep with its scores (same order as the specs)."""

    sets: list[SyntheticSet] = field(default_factory=list)
    evaluations: list[Evaluation] = field(default_factory=list)
    risk_radius: float = 0.0
    baseline: DisclosureRisk | None = None  # the risk with nothing released (:func:`baseline_risk`)

    @property
    def baseline_max(self) -> float:
        return float("nan") if self.baseline is None else self.baseline.maximum

    def rows(self) -> list[dict]:
        """One plain row per set: method, value, replicate, label, max_risk, pmse, seconds."""
        return [
            {
                "method": e.spec.method,
                "value": e.spec.value,
                "replicate": e.spec.replicate,
                "label": e.spec.label,
                "max_risk": e.max_risk,
                "pmse": e.pmse,
                "seconds": e.seconds,
            }
            for e in self.evaluations
        ]


def sweep(
    conf: ConfidentialFit,
    specs: list[SynthesisSpec],
    rng: np.random.Generator,
    risk_radius: float,
    method: str = "exact",
    hyper: str = "fixed",
    sampler: str = "exact",
    progress: Progress = None,
    on_result: Callable[[SyntheticSet, Evaluation], None] | None = None,
    baseline: bool = True,
) -> SweepResult:
    """Synthesize and score every spec in turn (Section 8's study). ``progress`` may raise to cancel;
    ``on_result`` is called after each set (e.g. to update a chart). With ``baseline`` the risk with nothing
    released (:func:`baseline_risk`) is computed first, as the floor to compare the sets with."""
    if not specs:
        raise ParameterError("specs", "the sweep has no synthetic sets")
    risk_radius = check_risk_radius(risk_radius, conf.window)
    result = SweepResult(risk_radius=float(risk_radius))
    total = len(specs) + int(bool(baseline))
    if baseline:
        report(progress, 0.0, "Risk with nothing released (baseline)")
        result.baseline = baseline_risk(conf, rng, risk_radius, method, hyper, scaled(progress, 0.0, 1.0 / total))
    first = int(bool(baseline))
    for i, spec in enumerate(specs, start=first):
        report(progress, i / total, f"Synthetic set {i + 1 - first} of {len(specs)}: {spec.label}")
        syn = synthesize(conf, spec, rng, sampler=sampler)
        scores = evaluate(conf, syn, rng, risk_radius, method, hyper, scaled(progress, i / total, (i + 1) / total))
        result.sets.append(syn)
        result.evaluations.append(scores)
        if on_result is not None:
            on_result(syn, scores)
    report(progress, 1.0, "Sweep finished")
    return result


def _setting_key(spec: SynthesisSpec) -> tuple[str, float]:
    return spec.method, 0.0 if spec.method == "prs" else float(spec.value)


@dataclass(frozen=True)
class SettingSummary:
    """The releases of one setting (a radius, a noise variance, or PRS) of a sweep, summarised."""

    setting: str
    method: str
    value: float
    sets: int
    mean_risk: float
    min_risk: float
    max_risk: float
    mean_pmse: float
    below_baseline: int  # releases whose maximum risk is below the risk with nothing released


def summarize_settings(evaluations: list[Evaluation], baseline_max: float = float("nan")) -> list[SettingSummary]:
    """Group a sweep's sets by setting, in order of first appearance.

    A set's maximum risk is the risk *of that release*: the intruder's posterior given these synthetic
    points. A noisy synthesizer (ANS, PRS) can by chance thin the riskiest cluster in one release and so
    mislead the intruder below the risk with nothing released (``baseline_max``); another release of the
    same setting need not. The mean over releases is the property of the setting a steward can rely on
    (on the John Snow data, with the exact density, single releases of PRS fell 0.92-1.11 times the baseline
    and one ANS release in 20 sometimes below every PRS set, while over 30 releases PRS's mean was 1.006
    times the baseline and every ANS level's 1.065-1.270 times; tests/benchmarks/bench_walder_snow.py
    --replicates)."""
    groups: dict[tuple[str, float], list[Evaluation]] = {}
    for e in evaluations:
        groups.setdefault(_setting_key(e.spec), []).append(e)
    out = []
    for (method, value), members in groups.items():
        risks = np.array([e.max_risk for e in members], dtype=np.float64)
        below = int(np.sum(risks < baseline_max)) if math.isfinite(baseline_max) else 0
        out.append(
            SettingSummary(
                members[0].spec.setting,
                method,
                value,
                len(members),
                float(risks.mean()),
                float(risks.min()),
                float(risks.max()),
                float(np.mean([e.pmse for e in members])),
                below,
            )
        )
    return out


def recommend(evaluations: list[Evaluation], max_risk: float, whole_setting: bool = False) -> int | None:
    """Index of the set with the lowest pMSE (highest utility) among those whose maximum risk is at most
    ``max_risk``; None when no set qualifies. Ties go to the lower risk, then the earlier set.

    With ``whole_setting`` a set qualifies only if *every* release of its setting (:func:`summarize_settings`)
    is at most ``max_risk``, so that a setting is not chosen for one lucky release; with one release per
    setting this is the same rule."""
    max_risk = float(max_risk)
    if not (math.isfinite(max_risk) and 0 < max_risk <= 1):
        raise ParameterError("max_risk", f"the risk threshold must lie in (0, 1], got {max_risk!r}")
    worst: dict[tuple[str, float], float] = {}
    for e in evaluations:
        key = _setting_key(e.spec)
        worst[key] = max(worst.get(key, -math.inf), e.max_risk)
    ok = [
        i
        for i, e in enumerate(evaluations)
        if e.max_risk <= max_risk and (not whole_setting or worst[_setting_key(e.spec)] <= max_risk)
    ]
    if not ok:
        return None
    return min(ok, key=lambda i: (evaluations[i].pmse, evaluations[i].max_risk, i))


def dominates(a: Evaluation, b: Evaluation) -> bool:
    """``a`` has both lower (or equal) maximum risk and lower (or equal) pMSE than ``b``, one strictly."""
    return a.max_risk <= b.max_risk and a.pmse <= b.pmse and (a.max_risk < b.max_risk or a.pmse < b.pmse)


def link_radial(x, y, x_syn, y_syn, radius: float) -> np.ndarray:
    """Which synthetic point is whose, for a radial set published in shuffled order.

    Eqs. (17)-(18) condition on person k's own perturbed point ``s_k^dagger``. An intruder who knows all
    the other confidential points can link the sets; so can the steward: the assignment minimising the
    total squared distance among those that pair every person with a synthetic point within ``radius``
    (scipy's ``linear_sum_assignment``). It recovers the true pairs when the discs barely overlap and is
    one valid linkage otherwise.

    Returns:
        ``order`` with ``(x_syn[order[k]], y_syn[order[k]])`` the synthetic point linked to person k.
    """
    from scipy.optimize import linear_sum_assignment
    from scipy.spatial import cKDTree

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    xs = np.asarray(x_syn, dtype=np.float64)
    ys = np.asarray(y_syn, dtype=np.float64)
    if xs.size != x.size:
        raise ParameterError(
            "synthetic",
            f"a radial set has one point per confidential point: {xs.size} synthetic, {x.size} confidential",
        )
    radius = float(radius) * (1 + 1e-9)
    pairs = cKDTree(np.column_stack([x, y])).sparse_distance_matrix(
        cKDTree(np.column_stack([xs, ys])), radius, output_type="coo_matrix"
    )
    big = 1e6 * radius * radius + 1.0
    cost = np.full((x.size, xs.size), big)
    cost[pairs.row, pairs.col] = pairs.data**2
    rows, cols = linear_sum_assignment(cost)
    if np.any(cost[rows, cols] >= big):
        raise ParameterError(
            "synthetic", "the synthetic points are not a radial perturbation of these points within this radius"
        )
    order = np.empty(x.size, dtype=np.int64)
    order[rows] = cols
    return order
