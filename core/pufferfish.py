"""Pufferfish-private thematic grid maps (ter Steege 2021, BSc thesis, University of Twente).

Points carry a non-negative value ``t_i``; they are binned into square cells and each cell
publishes a noisy mean (or the total derived from it). The privacy definition is Pufferfish
(Kifer & Machanavajjhala 2014) with, for every person ``i`` in a cell:

* absolute error, eqs. (3)-(4): secrets "t_i lies in [x-c, x+c)", discriminative pairs the
  neighbouring intervals [x-c, x+c) and [x+c, x+3c);
* relative error, eqs. (10)-(11): secrets "t_i lies in [ky, y/k)" and the neighbouring relative
  intervals, ``0 < k < 1``;
* data evolution scenarios, eq. (5): all distributions under which the t_i are independent.

Mechanisms:

* ``M_abs`` (Theorem 3.1, Algorithm 1): mean + X, X ~ Laplace(b = 4c / (n*epsilon));
* ``M_rel`` (Corollary 3.2, Algorithm 2): geometric mean * exp(Y), Y ~ Laplace(b = -4 ln(k) / (n*epsilon)).
  The thesis's eq. (12) writes the *arithmetic* mean times e^Y, but its argument ("t_i in [ky, y/k) is
  log t_i in an absolute interval of half-width c = -ln k", then Theorem 3.1) proves the guarantee for
  the mean of the log t_i, i.e. for exp(mean log t_i + Y), the geometric mean. For the log of the
  arithmetic mean the proof's bound on one person's effect, |log t - log y| <= c and <= 3c for the two
  intervals, is not divided by n (when their value dominates the cell it moves the log of the mean by nearly
  that much), so with the n-divided scale that mechanism is only (n*epsilon)-Pufferfish in the worst case
  (tests/core/test_pufferfish.py: a loss near 9.9 for n = 10 and epsilon = 1). We publish the
  geometric mean, for which Corollary 3.2's scale holds exactly as Theorem 3.1's proof gives it;
* ``B`` (Section 4, eq. 15): the output of M clamped to [L, U]. With public bounds
  L_t <= t_i <= U_t it is (epsilon, delta_max)-Pufferfish per cell, where (Theorem 4.4)
  absolute: L = L_t - gamma, U = U_t + gamma, delta_max = e^epsilon * P(X <= -gamma), and
  (Corollary 4.5) relative: L = L_t / lambda, U = lambda * U_t, delta_max = e^epsilon * P(Y <= -ln lambda).
  The grid bound is Delta = max over published cells of delta_max.

The secrets concern values only: the number of contributors ``n`` of a cell is treated as
public (it sets the noise scale, so it is revealed anyway). Publishing the cell total instead of
the mean is post-processing with the public ``n`` (total = n * published mean), so it carries the
same guarantee; a noisy count is not offered because the count is not protected by these secrets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from . import mechanisms
from .errors import ParameterError
from .grid import GridSpec, bin_points
from .limits import MAX_EPSILON
from .progress import Progress, report, scaled

#: The thesis's relative margin (Section 4.4), used when none is given.
DEFAULT_RELATIVE_MARGIN = 1.25
_LOG_MAX = math.log(np.finfo(np.float64).max)


class ErrorModel(IntEnum):
    """Which neighbouring intervals are protected."""

    ABSOLUTE = 0  #: neighbouring intervals of width 2c, eqs. (3)-(4)
    RELATIVE = 1  #: neighbouring relative intervals [ky, y/k), eqs. (10)-(11)


class Statistic(IntEnum):
    """Which cell statistic is published."""

    MEAN = 0  #: the noisy mean (arithmetic for absolute error; geometric for relative error, Corollary 3.2)
    TOTAL = 1  #: n times the noisy arithmetic mean (post-processing with the public n); absolute error only


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


@dataclass(frozen=True)
class PufferfishSettings:
    """The publisher's choices. Validated on construction (``ParameterError`` names the culprit).

    Attributes:
        epsilon: privacy parameter, > 0.
        error_model: absolute (needs ``interval``) or relative (needs ``relative_k``).
        interval: ``c`` > 0, half-width of the protected absolute interval, in value units.
        relative_k: ``k`` in (0, 1): values within a factor k of each other are protected.
        bounded: apply mechanism B (clamping; gives (epsilon, delta)-Pufferfish).
        lower_bound, upper_bound: public bounds ``L_t <= t_i <= U_t`` on one contribution.
        bounds_from_data: take L_t = min t_i and U_t = max t_i from the data (NOT private).
        margin: ``gamma`` > 0 (absolute) or ``lambda`` > 1 (relative); ``None`` gives gamma = L_t
            (so L = 0, the thesis's choice) or lambda = 1.25.
        min_count: publish only cells with at least this many contributors (>= 1).
        statistic: mean or total (absolute error only: relative error publishes the geometric mean).
    """

    epsilon: float
    error_model: ErrorModel = ErrorModel.ABSOLUTE
    interval: float | None = None
    relative_k: float | None = None
    bounded: bool = False
    lower_bound: float | None = None
    upper_bound: float | None = None
    bounds_from_data: bool = False
    margin: float | None = None
    min_count: int = 1
    statistic: Statistic = Statistic.MEAN

    def __post_init__(self) -> None:
        if not _finite(self.epsilon):
            raise ParameterError("epsilon", f"epsilon must be a number > 0, got {self.epsilon!r}")
        mechanisms.check_epsilon(self.epsilon)
        if self.epsilon > MAX_EPSILON:
            raise ParameterError("epsilon", f"epsilon must be at most {MAX_EPSILON:g} (e^epsilon overflows)")
        if self.error_model == ErrorModel.ABSOLUTE:
            if self.interval is None:
                raise ParameterError(
                    "interval",
                    "give the interval half-width c for absolute error: a number > 0 in the values' units (which "
                    "interval of width 2c holds a value is protected), or choose relative error",
                )
            if not (_finite(self.interval) and self.interval > 0):
                raise ParameterError(
                    "interval", f"the interval c must be a number > 0 for absolute error, got {self.interval!r}"
                )
        elif self.error_model == ErrorModel.RELATIVE:
            if not (_finite(self.relative_k) and 0 < self.relative_k < 1):
                raise ParameterError(
                    "relative_k", f"k must lie strictly between 0 and 1 for relative error, got {self.relative_k!r}"
                )
            if self.statistic == Statistic.TOTAL:
                raise ParameterError(
                    "statistic",
                    "relative error publishes each cell's geometric mean (Corollary 3.2 protects the mean of log t_i), "
                    "from which no total follows; use absolute error to publish totals",
                )
        else:
            raise ParameterError("error_model", f"unknown error model {self.error_model!r}")
        with np.errstate(over="ignore", divide="ignore"):
            largest_scale = float(noise_scale(self, np.array([1]))[0])
        if not math.isfinite(largest_scale):
            if self.error_model == ErrorModel.ABSOLUTE and not math.isfinite(4.0 * self.interval):
                raise ParameterError(
                    "interval", f"the interval c = {self.interval!r} is so large that the noise overflows"
                )
            raise ParameterError("epsilon", f"epsilon {self.epsilon!r} is so small that the noise scale overflows")
        if int(self.min_count) != self.min_count or self.min_count < 1:
            raise ParameterError("min_count", f"the minimum count must be a whole number >= 1, got {self.min_count!r}")
        if not self.bounded:
            return
        if not self.bounds_from_data:
            for name in ("lower_bound", "upper_bound"):
                if not _finite(getattr(self, name)):
                    raise ParameterError(
                        name, "the bounded mechanism needs both contribution bounds (or bounds from the data)"
                    )
            if self.lower_bound > self.upper_bound:
                raise ParameterError("lower_bound", "the lower bound must not exceed the upper bound")
            if self.lower_bound < 0:
                raise ParameterError("lower_bound", "contributions are non-negative, so the lower bound must be >= 0")
            if self.error_model == ErrorModel.RELATIVE and self.lower_bound <= 0:
                raise ParameterError("lower_bound", "relative error needs a lower bound > 0 (it works on log t)")
        if self.margin is not None:
            if self.error_model == ErrorModel.ABSOLUTE and not (_finite(self.margin) and self.margin > 0):
                raise ParameterError("margin", f"the absolute margin gamma must be > 0, got {self.margin!r}")
            if self.error_model == ErrorModel.RELATIVE and not (_finite(self.margin) and self.margin > 1):
                raise ParameterError("margin", f"the relative margin lambda must be > 1, got {self.margin!r}")


def noise_scale(settings: PufferfishSettings, count: np.ndarray) -> np.ndarray:
    """Laplace scale ``b`` of the noise on a cell mean with ``n = count`` contributors.

    Absolute error (Theorem 3.1): ``b = 4c / (n*epsilon)``, in value units.
    Relative error (Corollary 3.2): ``b = -4 ln(k) / (n*epsilon)``, on the log scale of the geometric mean
    (it is Theorem 3.1's scale for the mean of log t_i with c = -ln k).
    """
    n = np.asarray(count, dtype=np.float64)
    if np.any(n < 1):
        raise ValueError("a cell needs at least one contributor to be published")
    if settings.error_model == ErrorModel.ABSOLUTE:
        return 4.0 * settings.interval / (n * settings.epsilon)
    return -4.0 * math.log(settings.relative_k) / (n * settings.epsilon)


@dataclass(frozen=True)
class ClampLimits:
    """Public contribution bounds and the clamp limits of mechanism B (eq. 15).

    ``lower_t``/``upper_t`` bound one contribution; ``lower``/``upper`` are the limits L and U on
    a published mean; ``margin`` is gamma (absolute) or lambda (relative).
    """

    lower_t: float
    upper_t: float
    margin: float
    lower: float
    upper: float
    from_data: bool


def clamp_limits(settings: PufferfishSettings, values: np.ndarray) -> ClampLimits:
    """Resolve L_t, U_t and the margin, and the clamp limits L, U (Sections 4.3 and 4.4).

    ``values`` is used only when ``settings.bounds_from_data`` (which is not private), or to
    check that every contribution lies within the user's bounds, as Theorem 4.4 assumes.
    """
    if settings.bounds_from_data:
        lower_t, upper_t = float(np.min(values)), float(np.max(values))
    else:
        lower_t, upper_t = float(settings.lower_bound), float(settings.upper_bound)
        outside = int(np.count_nonzero((values < lower_t) | (values > upper_t)))
        if outside:
            raise ParameterError(
                "lower_bound" if np.any(values < lower_t) else "upper_bound",
                f"{outside} values lie outside the contribution bounds [{lower_t:g}, {upper_t:g}]; "
                "the delta bound of Theorem 4.4 only holds when every contribution lies within them",
            )
    if settings.error_model == ErrorModel.ABSOLUTE:
        gamma = settings.margin if settings.margin is not None else lower_t
        if not gamma > 0:
            raise ParameterError("margin", "L_t is 0, so the default margin gamma = L_t is 0: give a margin gamma > 0")
        return ClampLimits(lower_t, upper_t, gamma, lower_t - gamma, upper_t + gamma, settings.bounds_from_data)
    lam = settings.margin if settings.margin is not None else DEFAULT_RELATIVE_MARGIN
    return ClampLimits(lower_t, upper_t, lam, lower_t / lam, lam * upper_t, settings.bounds_from_data)


def delta_max(settings: PufferfishSettings, step: np.ndarray, scale: np.ndarray, limits: ClampLimits) -> np.ndarray:
    """Per-cell upper bound on delta of mechanism B.

    Absolute (Theorem 4.4): ``e^epsilon * P(X <= -gamma)``; relative (Corollary 4.5):
    ``e^epsilon * P(Y <= -ln lambda)``, where X, Y is the noise actually added: the grid mechanism's
    ``step * Z`` (:func:`.mechanisms.grid_laplace`, with the cell's ``step`` and ``scale``) plus the rounding of
    the true mean to the grid, at most ``step / 2``; so ``P(step * Z <= -gamma + step / 2)`` bounds it.
    """
    if settings.error_model == ErrorModel.ABSOLUTE:
        threshold = -limits.margin
    else:
        threshold = -math.log(limits.margin)
    return math.exp(settings.epsilon) * mechanisms.grid_laplace_cdf(threshold + 0.5 * step, step, scale)


def _finite_positive(log_value: np.ndarray) -> np.ndarray:
    """``exp(log_value)`` kept within the positive finite doubles (post-processing: no privacy cost)."""
    return np.exp(np.clip(log_value, -_LOG_MAX, _LOG_MAX))


@dataclass(frozen=True)
class PufferfishGrid:
    """A published Pufferfish grid map, plus the confidential truth kept apart.

    Publishable attributes (one entry per published cell, ordered by row then column):
        ix, iy: cell column and row in ``spec``; count: contributors n;
        value: the published statistic (relative error: the noisy geometric mean); noise_scale: scale of
        the noise on the published statistic (absolute error, value units) or of the log-multiplier Y
        (relative): the grid Laplace mechanism's (:func:`.mechanisms.grid_laplace`), 65/64 of Theorem 3.1's b;
        delta_max: per-cell delta bound (0 for the unbounded mechanism, which is pure epsilon);
        delta: the grid bound Delta (max of delta_max, 0 if nothing is published);
        limits: clamp limits of mechanism B (``None`` if unbounded); suppressed_cells: occupied
        cells left out because n < min_count.

    CONFIDENTIAL attributes (never publish): ``true_value`` (the statistic without noise: the arithmetic
    mean or total for absolute error, the geometric mean for relative error) and
    ``noise`` (the noise added, rounding to the grid included: X on the mean for absolute error, Y on the
    log of the geometric mean for relative error).
    """

    spec: GridSpec
    settings: PufferfishSettings
    ix: np.ndarray
    iy: np.ndarray
    count: np.ndarray
    value: np.ndarray
    noise_scale: np.ndarray
    delta_max: np.ndarray
    delta: float
    limits: ClampLimits | None
    suppressed_cells: int
    true_value: np.ndarray
    noise: np.ndarray


def validate_values(settings: PufferfishSettings, values: np.ndarray) -> None:
    """Refuse values the theory does not cover: t_i >= 0 (Section 3.1), t_i > 0 for relative error."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        raise ParameterError("values", "there are no points")
    if not np.isfinite(values).all():
        raise ParameterError("values", f"{int(np.count_nonzero(~np.isfinite(values)))} values are NaN or infinite")
    negative = int(np.count_nonzero(values < 0))
    if negative:
        raise ParameterError("values", f"{negative} values are negative; the mechanisms assume t_i >= 0")
    if settings.error_model == ErrorModel.RELATIVE:
        zero = int(np.count_nonzero(values == 0))
        if zero:
            raise ParameterError("values", f"{zero} values are 0; relative error protects log t_i, so it needs t_i > 0")


def pufferfish_grid(
    x: np.ndarray,
    y: np.ndarray,
    values: np.ndarray,
    spec: GridSpec,
    settings: PufferfishSettings,
    rng: np.random.Generator,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> PufferfishGrid:
    """Publish a Pufferfish-private grid map of ``values`` (Algorithms 1 and 2, mechanism B).

    Args:
        x, y: point coordinates in a projected CRS (units of ``spec.cell_size``).
        values: non-negative contribution ``t_i`` of each point (> 0 for relative error).
        spec: the grid.
        settings: mechanism and privacy parameters.
        rng: the only source of randomness.
        use_numba: see :func:`core.grid.bin_points`.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        The :class:`PufferfishGrid`; cells with no contributor (or fewer than
        ``settings.min_count``) are not published.
    """
    values = np.asarray(values, dtype=np.float64)
    validate_values(settings, values)
    limits = clamp_limits(settings, values) if settings.bounded else None
    relative = settings.error_model == ErrorModel.RELATIVE
    # relative error protects log t_i (Corollary 3.2): bin the logs, so each cell's mean is mean(log t_i)
    binned = np.log(values) if relative else values
    stats = bin_points(x, y, binned, spec, use_numba=use_numba, progress=scaled(progress, 0.0, 0.8))
    if not np.isfinite(stats.total).all():
        raise ParameterError("values", "the values in some cells add up to more than a 64-bit float holds; rescale")
    keep = stats.count >= settings.min_count
    suppressed = int(np.count_nonzero(~keep))
    stats = stats.subset(keep)
    report(progress, 0.85, f"Adding noise to {len(stats)} cells")
    count = stats.count
    true_mean = _finite_positive(stats.mean) if relative else stats.mean
    # Theorem 3.1's Laplace noise of scale b = sensitivity / epsilon, released on a grid of sensitivity / 64
    # (mechanisms.grid_laplace: doubles "true + Laplace" leak through their low bits, Mironov 2012)
    sensitivity = noise_scale(settings, count) * settings.epsilon
    try:
        release = mechanisms.grid_laplace(rng, stats.mean, sensitivity, settings.epsilon) if len(stats) else None
    except ParameterError:
        raise
    except ValueError as error:  # a mean more than 2**52 grid steps (sensitivity / 64) from 0
        if relative:  # the step is proportional to -log k: only a k very near 1 gets here
            raise ParameterError("relative_k", f"{error}: k is too near 1; lower it") from None
        raise ParameterError(
            "values", f"{error}: the values are too large for the interval c; rescale them or raise c"
        ) from None
    scale = release.scale if release is not None else np.zeros(0)
    noise = release.published - stats.mean if release is not None else np.zeros(0)
    if relative:
        # Corollary 3.2 as its proof gives it: exp(mean(log t_i) + Y), the geometric mean times e^Y
        mean = _finite_positive(release.published) if release is not None else np.zeros(0)
    else:
        mean = release.published if release is not None else np.zeros(0)  # Theorem 3.1
    if limits is not None:
        mean = np.clip(mean, limits.lower, limits.upper)  # eq. (15)
        dmax = delta_max(settings, release.step, scale, limits) if release is not None else np.zeros(0)
    else:
        dmax = np.zeros_like(scale)
    if settings.statistic == Statistic.TOTAL:  # absolute error only (PufferfishSettings refuses it for relative)
        value, truth = count * mean, stats.total
        scale = scale * count  # n*X has scale n*b = 4c/epsilon
    else:
        value, truth = mean, true_mean
    report(progress, 1.0, "Done")
    return PufferfishGrid(
        spec=spec,
        settings=settings,
        ix=stats.ix,
        iy=stats.iy,
        count=count,
        value=value,
        noise_scale=scale,
        delta_max=dmax,
        delta=float(dmax.max()) if dmax.size else 0.0,
        limits=limits,
        suppressed_cells=suppressed,
        true_value=truth,
        noise=noise,
    )
