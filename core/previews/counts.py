"""Accuracy of DP synthetic counts against epsilon, from a few exact draws per epsilon (Quick 2021).

At each epsilon the gamma priors are calibrated exactly as ``spatialprivacy:dpcounts`` does
(:func:`core.counts_calibration.calibrate`) and ``draws`` synthetic data sets are drawn from the exact
mechanism (:func:`core.counts.synthesize`). The series are Monte-Carlo estimates over those draws:

* "mean_abs_error": ``mean over groups and draws of |z_i - y_i|`` (events per group);
* "p_within_10pct": ``mean over groups of the share of draws with |z_i - y_i| <= 0.1 y_i`` (for a group with
  ``y_i = 0`` that is ``z_i = 0``).

Every epsilon reuses one seed drawn from the caller's generator (common random numbers), so the curves are
smooth in epsilon and their differences are not Monte-Carlo noise. Their standard errors shrink as
``1 / sqrt(draws * groups)``.
"""

from __future__ import annotations

import numpy as np

from .. import counts as count_mechanism
from .. import counts_calibration, mechanisms
from ..errors import ParameterError
from ..progress import Progress, scaled
from .curve import Curve, Note, check_chosen, check_epsilons, checkpoint

#: Synthetic data sets per epsilon by default.
DEFAULT_DRAWS = 20
#: The tolerance of "p_within_10pct", as a share of the true count.
WITHIN = 0.1


def _accuracy(y: np.ndarray, synthetic: np.ndarray) -> tuple[float, float]:
    error = np.abs(synthetic - y[None, :])
    within = error <= WITHIN * y[None, :]
    return float(error.mean()), float(within.mean(axis=0).mean())


def counts_accuracy(
    y,
    population,
    prior_expected,
    epsilon,
    rng,
    *,
    truncate=True,
    alpha=None,
    c=1.0,
    draws=DEFAULT_DRAWS,
    progress: Progress = None,
) -> tuple[float, float]:
    """(mean absolute error, mean P(within 10 %)) of ``draws`` synthetic sets at one epsilon."""
    y = count_mechanism.check_counts(y)
    cal = counts_calibration.calibrate(
        population, prior_expected, int(y.sum()), float(epsilon), truncate=truncate, alpha=alpha, c=c
    )
    release = count_mechanism.synthesize(y, population, cal, draws, rng, progress=progress)
    return _accuracy(y, release.synthetic)


def counts_error_curve(
    y,
    population,
    prior_expected,
    epsilons,
    chosen: float,
    rng: np.random.Generator,
    *,
    truncate: bool = True,
    alpha: float | None = None,
    c: float = 1.0,
    draws: int = DEFAULT_DRAWS,
    progress: Progress = None,
) -> Curve:
    """Expected absolute error per group and the chance of landing within 10 % of the truth, against epsilon.

    Args:
        y: the confidential counts per group (whole numbers >= 0).
        population: public populations ``n_i > 0``.
        prior_expected: public prior expected counts ``E_i > 0``, as :func:`core.counts_calibration.prior_expected`
            returns them (rescaled to the total if the algorithm would).
        epsilons, chosen: the curve's epsilons and the chosen one (computed exactly, with its own draws).
        rng: the only source of randomness (:func:`core.mechanisms.generator`).
        truncate, alpha, c: as ``spatialprivacy:dpcounts`` (TRUNCATE, ALPHA, C).
        draws: synthetic data sets per epsilon (>= 1).
        progress: ``progress(fraction, message)``, may raise to cancel.
    """
    y = count_mechanism.check_counts(y)
    population, prior_expected = counts_calibration.check_public(population, prior_expected)
    if y.size != population.size:
        raise ParameterError("counts", "counts, populations and priors must describe the same groups")
    if int(draws) != draws or draws < 1:
        raise ParameterError("draws", f"the number of draws must be a whole number >= 1, got {draws!r}")
    xs = check_epsilons(epsilons)
    chosen = check_chosen(chosen)
    errors, within = np.empty(xs.size), np.empty(xs.size)
    marked: dict[str, float] = {}
    steps = xs.size + 1
    seed = int(mechanisms.child_seeds(rng, 1)[0])
    for index, epsilon in enumerate(np.append(xs, chosen)):
        checkpoint(progress, index, steps, f"Synthetic counts at ε = {epsilon:.3g}")
        result = counts_accuracy(
            y,
            population,
            prior_expected,
            epsilon,
            mechanisms.generator(seed),
            truncate=truncate,
            alpha=alpha,
            c=c,
            draws=int(draws),
            progress=scaled(progress, index / steps, (index + 1) / steps),
        )
        if index < xs.size:
            errors[index], within[index] = result
        else:
            marked = {"mean_abs_error": result[0], "p_within_10pct": result[1]}
    checkpoint(progress, steps, steps, "Done")
    return Curve(
        x=xs,
        series={"mean_abs_error": errors, "p_within_10pct": within},
        marked_x=chosen,
        marked=marked,
        x_label="ε",
        y_labels={
            "mean_abs_error": "expected absolute error per group",
            "p_within_10pct": "probability within ±10% of the truth",
        },
        notes=(Note("counts_draws", {"draws": int(draws)}),),
    )
