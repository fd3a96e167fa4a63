"""The LGCP synthesis preview of the privacy explorer: maximum disclosure risk against pMSE per setting (Walder,
Hanks & Slavković, Figs 5-6), from the same steps and in the same order as ``spatialprivacy:riskutilitysweep``
(the confidential fit of :func:`core.lgcp_setup.fit_confidential`, then :func:`core.synthesis.sweep.sweep`), so
that with the same generator the preview shows the very scores the algorithm reports.

Computed from the confidential points: for the data steward only; nothing here is publishable.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..progress import Progress, scaled
from .curve import Note

#: Posterior draws of the confidential fit, and those behind the risk and pMSE (the algorithm's defaults).
FIT_DRAWS, SCORE_DRAWS = 1000, 200
#: Share of the progress spent on the confidential fit.
FIT_SHARE = 0.2


@dataclass(frozen=True)
class SweepPoint:
    """One synthetic set of the sweep: its setting's label, method (radial, ans, prs), value and scores."""

    label: str
    method: str
    value: float
    max_risk: float
    pmse: float


@dataclass
class SweepPreview:
    """The sweep's sets in the order they finished, the risk with nothing released, the threshold and the index
    of the recommended set (lowest pMSE with maximum risk at most ``max_risk``; ``None`` if none)."""

    points: list[SweepPoint] = field(default_factory=list)
    baseline_max: float = float("nan")
    max_risk: float = 0.05
    recommended: int | None = None
    notes: tuple[Note, ...] = ()


def sweep_preview(
    x,
    y,
    rng: np.random.Generator,
    radii=(),
    noise_levels=(),
    prs_sets: int = 0,
    risk_radius: float = 1.0,
    max_risk: float = 0.05,
    progress: Progress = None,
    on_point: Callable[[SweepPoint], None] | None = None,
    fit_draws: int = FIT_DRAWS,
    draws: int = SCORE_DRAWS,
) -> SweepPreview:
    """Fit the LGCP to the confidential points ``(x, y)``, then make and score one synthetic set per radius,
    noise variance and PRS replicate (:func:`core.synthesis.sweep.sweep`, exact risk density, fixed
    hyperparameters); ``on_point(point)`` is called as each set finishes, so a chart can fill in progressively.
    ``progress`` may raise to cancel.

    Raises:
        ParameterError: as ``fit_confidential``, ``sweep_specs``, ``sweep`` and ``recommend``.
    """
    from ..lgcp_setup import fit_confidential
    from ..synthesis.assessment import check_risk_radius
    from ..synthesis.confidential_fit import ConfidentialFit
    from ..synthesis.sweep import recommend, sweep, sweep_specs

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    specs = sweep_specs(radii, noise_levels, prs_sets, 1)  # checks the settings before the long fit
    fit = fit_confidential(
        x,
        y,
        rng,
        fit_draws,
        check_window=functools.partial(check_risk_radius, risk_radius),
        progress=scaled(progress, 0.0, FIT_SHARE),
    )
    conf = ConfidentialFit(fit.setup.model, fit.posterior, fit.window, x, y, (), None, draws)
    preview = SweepPreview(max_risk=float(max_risk))

    def finished(syn, scores) -> None:
        spec = scores.spec
        point = SweepPoint(spec.label, spec.method, float(spec.value), float(scores.max_risk), float(scores.pmse))
        preview.points.append(point)
        if on_point is not None:
            on_point(point)

    result = sweep(
        conf, specs, rng, risk_radius, "exact", "fixed", progress=scaled(progress, FIT_SHARE, 1.0), on_result=finished
    )
    preview.baseline_max = result.baseline_max
    preview.recommended = recommend(result.evaluations, max_risk, whole_setting=True)
    if preview.recommended is None:
        preview.notes = (Note("sweep_nothing_recommended", {"max_risk": float(max_risk)}),)
    return preview
