"""Expected error of a Pufferfish grid map against epsilon, in closed form from the cells' public counts.

A published cell with ``n`` contributors gets the noise ``step * Z`` of :func:`core.mechanisms.grid_laplace`:
``Z`` two-sided geometric with ``P(Z = z) = (1 - q) / (1 + q) * q^|z|``, ``q = exp(-epsilon / (G + 1))`` and
``step = s / G`` for the sensitivity ``s`` (``G`` = :data:`core.mechanisms.GRID_STEPS`), where ``s / epsilon`` is
Theorem 3.1's ``b = 4c / (n epsilon)`` (absolute error) or Corollary 3.2's ``b = -4 ln(k) / (n epsilon)`` on the
log scale (relative error) (ter Steege 2021). Summing the geometric series:

* absolute error, ``E|step Z| = 2 step q / ((1 - q)(1 + q))``: ``(G + 1) / G`` times the continuous
  ``E|Laplace(b)| = b`` as epsilon -> 0; ``n`` times that for totals (``n X``);
* relative error, ``E|exp(step Z) - 1| = (1 - q) / (1 + q) * (r / (1 - r) - u / (1 - u))`` with
  ``r = q e^step``, ``u = q e^-step``; the continuous limit is ``b / (1 - b^2)``. It is infinite when
  ``r >= 1`` (the noise's log-scale tail is as heavy as e^y): then the series is ``inf``.

The rounding of the true statistic to the grid (at most ``step / 2``, 1/128 of ``s``) is left out, and so is
the clamping of the bounded mechanism B, which can only move a value towards a truth inside ``[L, U]``: the
curves are the unbounded mechanism's error, an upper bound for B's. No data beyond the public counts is used,
so the curves take a few milliseconds.
"""

from __future__ import annotations

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from ..grid import GridSpec, bin_points
from ..progress import Progress, report
from ..pufferfish import (
    ErrorModel,
    PufferfishGrid,
    PufferfishSettings,
    Statistic,
    clamp_limits,
    delta_max,
    noise_scale,
    pufferfish_grid,
)
from .curve import Curve, Note, check_chosen, check_epsilons

_ERROR_MODELS = {"absolute": ErrorModel.ABSOLUTE, "relative": ErrorModel.RELATIVE}
_STATISTICS = {"mean": Statistic.MEAN, "total": Statistic.TOTAL}


def _enum(value, table: dict, name: str):
    if isinstance(value, str):
        try:
            return table[value.lower()]
        except KeyError:
            raise ParameterError(name, f"{name} must be one of {', '.join(table)}, got {value!r}") from None
    return type(next(iter(table.values())))(value)


def _settings(epsilon, error_model, interval, relative_k, statistic, bounded, lower, upper, margin):
    return PufferfishSettings(
        epsilon=float(epsilon),
        error_model=error_model,
        interval=interval,
        relative_k=relative_k,
        bounded=bounded,
        lower_bound=lower,
        upper_bound=upper,
        margin=margin,
        statistic=statistic,
    )


def _grid_noise(settings: PufferfishSettings, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: the grid step and the decay per step of the noise :func:`core.pufferfish.pufferfish_grid` adds."""
    sensitivity = noise_scale(settings, counts) * settings.epsilon
    step = sensitivity / mechanisms.GRID_STEPS
    decay = settings.epsilon / (mechanisms.GRID_STEPS + 1)
    return step, np.full_like(step, decay)


def expected_absolute_error(settings: PufferfishSettings, counts: np.ndarray) -> np.ndarray:
    """``E|noise|`` on each cell's published mean (or total) for absolute error, in value units."""
    step, decay = _grid_noise(settings, counts)
    q = np.exp(-decay)
    one_minus_q = -np.expm1(-decay)
    error = 2.0 * step * q / (one_minus_q * (1.0 + q))
    if settings.statistic == Statistic.TOTAL:
        error = error * np.asarray(counts, dtype=np.float64)
    return error


def expected_relative_error(settings: PufferfishSettings, counts: np.ndarray) -> np.ndarray:
    """``E|exp(Y) - 1|`` for the log-scale noise ``Y`` on each cell's geometric mean (``inf`` where it diverges)."""
    step, decay = _grid_noise(settings, counts)
    q = np.exp(-decay)
    c0 = -np.expm1(-decay) / (1.0 + q)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        r_over = np.exp(step - decay) / -np.expm1(step - decay)  # r / (1 - r), r = q e^step
        u_over = np.exp(-step - decay) / -np.expm1(-step - decay)  # u / (1 - u), u = q e^-step
        error = c0 * (r_over - u_over)
    return np.where(step < decay, error, np.inf)


def _errors(settings: PufferfishSettings, counts: np.ndarray) -> np.ndarray:
    if settings.error_model == ErrorModel.ABSOLUTE:
        return expected_absolute_error(settings, counts)
    return expected_relative_error(settings, counts)


def _delta(settings: PufferfishSettings, counts: np.ndarray) -> float:
    """Delta of the grid, the largest per-cell bound of Theorem 4.4 / Corollary 4.5."""
    limits = clamp_limits(settings, np.zeros(0))
    step, decay = _grid_noise(settings, counts)
    return float(np.max(delta_max(settings, step, step / decay, limits)))


def pufferfish_error_curve(
    counts,
    epsilons,
    chosen: float,
    *,
    error_model="absolute",
    interval: float | None = None,
    relative_k: float | None = None,
    statistic="mean",
    bounded: bool = False,
    lower: float | None = None,
    upper: float | None = None,
    margin: float | None = None,
    progress: Progress = None,
) -> Curve:
    """Expected error per published cell against epsilon: median and 90th percentile over the cells.

    Args:
        counts: the public number of contributors of each published cell (each >= 1; apply the minimum count
            before calling).
        epsilons: the epsilons of the curve (e.g. :func:`.curve.epsilon_grid`).
        chosen: the chosen epsilon, marked and computed exactly.
        error_model: "absolute" (needs ``interval`` c, value units) or "relative" (needs ``relative_k``).
        statistic: "mean" or "total" (absolute error only), as :class:`core.pufferfish.PufferfishSettings`.
        bounded, lower, upper, margin: mechanism B with public contribution bounds ``L_t``, ``U_t`` and margin
            gamma or lambda (``None``: the thesis's defaults); adds the series "delta".
        progress: ``progress(fraction, message)``, may raise to cancel.

    Returns:
        A :class:`.curve.Curve` with series "median" and "p90" (expected absolute error in value units; for
        relative error the expected relative error ``E|exp(Y) - 1|``, a fraction) and, if bounded, "delta".
    """
    counts = np.asarray(counts, dtype=np.float64).ravel()
    if counts.size == 0:
        raise ParameterError("counts", "no cell is published: there are no counts to preview")
    if not np.all(np.isfinite(counts)) or np.any(counts < 1):
        raise ParameterError("counts", "every published cell needs a whole number of contributors >= 1")
    model = _enum(error_model, _ERROR_MODELS, "error_model")
    stat = _enum(statistic, _STATISTICS, "statistic")
    xs = check_epsilons(epsilons)
    chosen = check_chosen(chosen)
    # the curve depends on the counts only through their distinct values
    unique, multiplicity = np.unique(counts, return_counts=True)
    names = ("median", "p90") + (("delta",) if bounded else ())
    series = {name: np.empty(xs.size) for name in names}
    marked: dict[str, float] = {}
    for index, epsilon in enumerate(np.append(xs, chosen)):
        report(progress, index / (xs.size + 1), "Computing the expected errors")
        settings = _settings(epsilon, model, interval, relative_k, stat, bounded, lower, upper, margin)
        errors = _errors(settings, unique)
        # the error decreases with n; the quantiles are taken over the cells (each distinct count weighted)
        order = np.argsort(errors, kind="stable")
        share = np.cumsum(multiplicity[order]) / counts.size
        values = {
            "median": float(errors[order][np.searchsorted(share, 0.5 - 1e-12)]),
            "p90": float(errors[order][np.searchsorted(share, 0.9 - 1e-12)]),
        }
        if bounded:
            values["delta"] = _delta(settings, unique[:1])
        if index < xs.size:
            for name in names:
                series[name][index] = values[name]
        else:
            marked = values
    report(progress, 1.0, "Done")
    relative = model == ErrorModel.RELATIVE
    unit = "expected relative error per cell" if relative else "expected absolute error per cell"
    labels = {"median": f"median {unit}", "p90": f"90th percentile {unit}"}
    notes = [Note("pufferfish_public_counts")]
    if bounded:
        labels["delta"] = "Δ (bound on delta)"
    if relative and not all(np.all(np.isfinite(values)) for values in series.values()):
        notes.append(Note("pufferfish_relative_infinite"))
    return Curve(
        x=xs,
        series=series,
        marked_x=chosen,
        marked=marked,
        x_label="ε",
        y_labels=labels,
        notes=tuple(notes),
    )


def cell_counts(x, y, spec: GridSpec, min_count: int = 1, progress: Progress = None) -> np.ndarray:
    """The contributors of each cell that would be published (``n >= min_count``): the curve's public input."""
    x = np.asarray(x, dtype=np.float64)
    stats = bin_points(x, np.asarray(y, dtype=np.float64), np.zeros(x.size), spec, progress=progress)
    return stats.count[stats.count >= min_count]


def preview_draw_grid(
    x,
    y,
    values,
    spec: GridSpec,
    epsilon: float,
    rng: np.random.Generator,
    *,
    error_model="absolute",
    interval: float | None = None,
    relative_k: float | None = None,
    statistic="mean",
    bounded: bool = False,
    lower: float | None = None,
    upper: float | None = None,
    margin: float | None = None,
    bounds_from_data: bool = False,
    min_count: int = 1,
    progress: Progress = None,
) -> PufferfishGrid:
    """One Pufferfish grid map at the chosen setting, for the map preview: :func:`core.pufferfish.pufferfish_grid`
    with the settings of ``spatialprivacy:pufferfishgrid`` (its ``value`` is what the public would see; its
    ``true_value`` and ``noise`` are confidential)."""
    settings = PufferfishSettings(
        epsilon=check_chosen(epsilon),
        error_model=_enum(error_model, _ERROR_MODELS, "error_model"),
        interval=interval,
        relative_k=relative_k,
        bounded=bounded,
        lower_bound=lower,
        upper_bound=upper,
        bounds_from_data=bounds_from_data,
        margin=margin,
        min_count=min_count,
        statistic=_enum(statistic, _STATISTICS, "statistic"),
    )
    return pufferfish_grid(x, y, values, spec, settings, rng, progress=progress)
