"""Disclosure risk and utility of one synthetic set of Walder, Hanks & Slavković's synthesizers (Sections 6-7).

:func:`evaluate` scores a set made by :func:`.synthetic_sets.synthesize`:

* disclosure risk (Section 7, eq. 16; :func:`disclosure_risk`): radial sets from the confidential posterior
  draws (eqs. 17-18); ANS and PRS sets from the joint fit of the confidential and synthetic points (eqs. 19-21,
  core.metrics.joint_fit), each by the disc quadrature of Appendix A.4 (core.metrics.risk);
* utility (Section 6, eqs. 12-15; :func:`utility`): an LGCP fitted to the synthetic points, paired draw by draw
  with the confidential fit (core.metrics.pmse_lgcp).

:func:`baseline_risk` is the risk with nothing released, the level to compare a set's risk with.

Hyperparameters of the synthetic and joint fits (``hyper``): ``"fixed"`` (default) fixes theta at the
confidential posterior means ``(kappa_hat^2, xi_hat^2)`` of Section 5 (the values PRS synthesises with)
and fits ``(beta, w)`` by one Laplace approximation (core.laplace_fit.fit_at_theta, about 0.5 s on the John
Snow mesh); ``"full"`` integrates over theta as the paper's samplers do (core.laplace_fit.fit_laplace, 10-40 s
per fit). The fixed shortcut ignores the uncertainty in theta: the joint posterior is a little too
confident, which raises the ANS/PRS risks somewhat (a conservative error for a steward), and a synthetic
set whose spatial scale differs from the confidential one is fitted at the confidential scale.
``tests/benchmarks/bench_walder_snow.py --validate`` compares the two on the John Snow data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from ..laplace_fit import fit_at_theta, fit_laplace
from ..lgcp import LGCPDesign, LGCPModel
from ..metrics import joint_fit
from ..metrics.intensity_draws import IntensityDraws
from ..metrics.pmse_lgcp import LGCPpMSE, pmse_from_draws
from ..metrics.risk import DisclosureRisk, radial_risk, synthesis_risk
from ..posterior import Posterior
from ..progress import Progress, report, scaled
from ..window import Window
from .confidential_fit import ConfidentialFit
from .synthetic_sets import SynthesisSpec, SyntheticSet

HYPER = ("fixed", "full")


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
