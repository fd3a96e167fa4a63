"""The synthetic sets of Walder, Hanks & Slavković's synthesizers, made from a confidential fit (Section 5).

A :class:`SynthesisSpec` names one set: a radial perturbation radius (Section 5.1), an ANS noise level (eq. 10)
or a PRS replicate (eq. 11); :func:`synthesize` makes it from a :class:`.confidential_fit.ConfidentialFit`.
:func:`release_order` shuffles a set for publication, and :func:`link_radial` links a shuffled radial set back
to the confidential points, as an intruder who knows the other points could.

Noise levels: the paper's ANS noise level ``sigma^2`` is on the scale of the variance parameter
``xi^2`` (1/length^2, core.synthesis.walder), so its meaning depends on the CRS unit. Here a
:class:`SynthesisSpec` gives the noise field's marginal variance ``s2`` (dimensionless, the variance of
the added log-intensity noise); the paper's level is ``sigma^2 = 4 pi kappa_hat^2 s2``
(:meth:`.confidential_fit.ConfidentialFit.paper_noise_level`).

Radial synthesis keeps points inside the window (``walder.radial(keep_inside=True)``): a redrawn point is
uniform on ``B_r(s) ∩ W`` instead of ``B_r(s)``, and :func:`core.metrics.risk.radial_risk` (``kept_inside``)
accounts for that density ``1 / |B_r(s) ∩ W|``; the paper's eq. (17) ignores it, which matters for people
within r of the window's boundary (at a corner it understates the risk about twofold).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from . import walder
from .confidential_fit import ConfidentialFit

METHODS = ("radial", "ans", "prs")
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
