"""The risk-utility sweep over Walder, Hanks & Slavković's synthesizers (Section 8's study), and the choice of a
set from it.

:func:`sweep_specs` lists the synthetic sets of a sweep (radial radii, ANS noise levels, PRS replicates, each
released one or more times) and :func:`sweep` makes and scores them (:mod:`.synthetic_sets`,
:mod:`.assessment`) as independent tasks of an executor (:mod:`core.executor`: serially, in local processes or on a
Dask cluster, with the same results). The sweep is what the risk-utility explorer drives: it takes ``progress(fraction,
message)`` (which may raise to cancel) and returns every set with its scores. :func:`summarize_settings`
groups the releases of each setting, and :func:`recommend` picks the set with the lowest pMSE among those
whose maximum risk is at most a threshold.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import ParameterError
from ..executor import Executor, run_seeded
from ..mechanisms import generator
from ..metrics.risk import DisclosureRisk
from ..progress import Progress, report
from .assessment import Evaluation, baseline_risk, check_risk_radius, evaluate
from .confidential_fit import ConfidentialFit
from .synthetic_sets import SynthesisSpec, SyntheticSet, synthesize


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
    baseline: DisclosureRisk | None = None  # the risk with nothing released (:func:`.assessment.baseline_risk`)

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
    executor: Executor | str | None = None,
) -> SweepResult:
    """Synthesize and score every spec (Section 8's study). ``progress`` may raise to cancel; ``on_result`` is
    called after each set (e.g. to update a chart), in the order the sets finish. With ``baseline`` the risk with
    nothing released (:func:`.assessment.baseline_risk`) is computed too, as the floor to compare the sets with.

    The baseline and the sets are independent tasks, run by ``executor`` (:mod:`core.executor`: ``None`` or
    "serial" in turn here, "processes" or :class:`~core.executor.LocalProcesses` in local worker processes, a
    :class:`~core.executor.DaskCluster` on a cluster). Each task's generator comes from a seed drawn from ``rng``
    before any task runs (the baseline's first, then one per spec in order), so the result is the same whichever
    executor runs it. Confidential data travel to the workers of a cluster: it must sit inside the data steward's
    trusted environment."""
    if not specs:
        raise ParameterError("specs", "the sweep has no synthetic sets")
    risk_radius = check_risk_radius(risk_radius, conf.window)
    result = SweepResult(risk_radius=float(risk_radius))
    items = ([None] if baseline else []) + list(specs)
    task = functools.partial(_sweep_task, conf, float(risk_radius), method, hyper, sampler)

    def finished(index: int, value) -> None:
        if on_result is not None and items[index] is not None:
            on_result(*value)

    values = run_seeded(
        task,
        items,
        rng,
        executor,
        progress,
        on_result=finished,
        describe_item=_task_name,
        task_progress=True,
    )
    if baseline:
        result.baseline = values.pop(0)
    for syn, scores in values:
        result.sets.append(syn)
        result.evaluations.append(scores)
    report(progress, 1.0, "Sweep finished")
    return result


def _task_name(spec: SynthesisSpec | None) -> str:
    return "the risk with nothing released (baseline)" if spec is None else f"synthetic set {spec.label}"


def _sweep_task(conf, risk_radius, method, hyper, sampler, spec, seed, progress: Progress = None):
    """One task of :func:`sweep`: the baseline risk (``spec`` None) or one synthetic set and its scores, with a
    generator of its own from ``seed``."""
    rng = generator(seed)
    if spec is None:
        return baseline_risk(conf, rng, risk_radius, method, hyper, progress)
    syn = synthesize(conf, spec, rng, sampler=sampler)
    return syn, evaluate(conf, syn, rng, risk_radius, method, hyper, progress)


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
