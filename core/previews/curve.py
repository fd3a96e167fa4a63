"""The curve a preview returns, the epsilons it is drawn at, and what an epsilon means for one person."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParameterError
from ..limits import MAX_EPSILON, MIN_EPSILON
from ..progress import Progress, report

#: The default epsilon grid spans this factor either side of the chosen epsilon.
GRID_SPAN = 10.0
#: Epsilons in the default grid.
DEFAULT_POINTS = 25


#: The English text of each note a preview can return (``Note.key`` -> a ``str.format`` template of its values).
#: The ui translates the same keys with its own templates; core has no translation.
NOTE_TEXTS = {
    "counts_draws": "Monte-Carlo estimates from {draws} synthetic data sets per ε.",
    "pufferfish_public_counts": (
        "Errors of the noise on each published cell, from the public counts alone; clamping (bounded "
        "mechanism) can only make them smaller."
    ),
    "pufferfish_relative_infinite": (
        "Where the relative error is infinite, the noise on the log scale is too wide for the "
        "cell's count: raise epsilon or k, or the minimum count."
    ),
    "points_draws": "Means over {draws} synthetic patterns per ε.",
    "points_default_delta": "δ = 1/n = {delta:.3g} (the default of the algorithm).",
    "points_bandwidth_beyond": "ε = {epsilon:.3g}: the bandwidth lies beyond the widest one computed for the preview",
    "points_refused": "ε = {epsilon:.3g}: {reason}",
    "sweep_nothing_recommended": "No setting has maximum risk at or below {max_risk:g}: nothing recommended.",
}


@dataclass(frozen=True)
class Note:
    """A caveat worth showing beside the chart: ``key`` (one of :data:`NOTE_TEXTS`) and the ``values`` its text
    is formatted with, so the ui can show it in the user's language; ``str(note)`` is its English text."""

    key: str
    values: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return NOTE_TEXTS[self.key].format(**self.values)


@dataclass(frozen=True)
class Curve:
    """Named series against epsilon, with the chosen epsilon marked.

    Attributes:
        x: the epsilons, ascending.
        series: series name -> values at ``x`` (same length as ``x``).
        marked_x: the chosen epsilon.
        marked: series name -> its value computed at exactly ``marked_x`` (not interpolated).
        x_label: axis label of ``x`` (English; the ui translates its own labels).
        y_labels: series name -> axis label.
        notes: caveats worth showing beside the chart (:class:`Note`).
    """

    x: np.ndarray
    series: dict[str, np.ndarray]
    marked_x: float
    marked: dict[str, float]
    x_label: str
    y_labels: dict[str, str]
    notes: tuple[Note, ...] = field(default=())


def check_chosen(chosen: float) -> float:
    """The chosen epsilon as a float, refused (``ParameterError("epsilon")``) outside the plugin's range."""
    try:
        value = float(chosen)
    except (TypeError, ValueError):
        raise ParameterError("epsilon", f"epsilon must be a number > 0, got {chosen!r}") from None
    if not (math.isfinite(value) and MIN_EPSILON <= value <= MAX_EPSILON):
        raise ParameterError("epsilon", f"epsilon must lie in [{MIN_EPSILON:g}, {MAX_EPSILON:g}], got {chosen!r}")
    return value


def check_epsilons(epsilons) -> np.ndarray:
    """The epsilons of a curve as an ascending float array, each checked as :func:`check_chosen` does."""
    values = np.asarray(epsilons, dtype=np.float64).ravel()
    if values.size == 0:
        raise ParameterError("epsilons", "give at least one epsilon")
    for value in values:
        check_chosen(value)
    return np.sort(values)


def epsilon_grid(chosen: float, n: int = DEFAULT_POINTS) -> np.ndarray:
    """``n`` log-spaced epsilons from ``chosen / 10`` to ``chosen * 10`` (clipped to the plugin's range),
    the chosen epsilon itself included exactly."""
    chosen = check_chosen(chosen)
    if int(n) != n or n < 1:
        raise ParameterError("n", f"the number of epsilons must be a whole number >= 1, got {n!r}")
    low = max(MIN_EPSILON, chosen / GRID_SPAN)
    high = min(MAX_EPSILON, chosen * GRID_SPAN)
    grid = np.geomspace(low, high, int(n)) if n > 1 else np.array([chosen])
    nearest = int(np.argmin(np.abs(np.log(grid) - math.log(chosen))))
    grid[nearest] = chosen
    return np.unique(grid)


def _significant(value: float, digits: int = 2) -> str:
    """``value`` to ``digits`` significant figures, without an exponent below a million."""
    if value >= 1e6:
        mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
        return f"{mantissa} × 10^{int(exponent)}"
    decimals = digits - 1 - int(math.floor(math.log10(value)))
    rounded = round(value, decimals)
    return f"{rounded:.{max(decimals, 0)}f}"


def odds_factor(epsilon: float) -> str:
    """``e^epsilon`` written for people: two significant figures, but for factors near 1 enough decimals to
    show how far from 1 they are (1.001 for epsilon = 0.001), and ``m × 10^k`` from a million on."""
    epsilon = check_chosen(epsilon)
    factor = math.exp(epsilon)  # finite: epsilon <= MAX_EPSILON = 700
    if factor < 2.0:
        excess = math.expm1(epsilon)  # the first two significant figures of the excess over 1, no trailing 0
        decimals = max(1, 1 - int(math.floor(math.log10(excess))))
        return f"{1.0 + excess:.{decimals}f}".rstrip("0")
    return _significant(factor)


def epsilon_text(epsilon: float) -> str:
    """An epsilon as the user typed it, in at most four significant figures."""
    return f"{check_chosen(epsilon):.4g}"


def epsilon_sentence(epsilon: float, delta: float = 0.0) -> str:
    """What ``epsilon`` (and ``delta``) mean for one person in the data, in one English sentence.

    Differential privacy and Pufferfish bound how much one person's data (or secret) changes the probability
    of any output by the factor ``e^epsilon`` (Dwork & Roth 2014, Definition 2.4), which is the most the
    posterior odds of an attacker about that person can change; ``delta`` is the probability allowed beyond.
    The ui builds its translated sentence from :func:`odds_factor` and :func:`epsilon_text`.
    """
    sentence = (
        f"With ε = {epsilon_text(epsilon)} an attacker's odds about any one person change by at most "
        f"a factor {odds_factor(epsilon)}"
    )
    delta = float(delta)
    if not (math.isfinite(delta) and 0.0 <= delta <= 1.0):
        raise ParameterError("delta", f"delta must lie in [0, 1], got {delta!r}")
    if delta > 0:
        sentence += f", except with a probability of at most δ = {delta:.2g}"
    return sentence + "."


def checkpoint(progress: Progress, done: int, total: int, message: str) -> None:
    """Report ``done / total``; ``progress`` may raise to cancel."""
    report(progress, done / max(total, 1), message)
