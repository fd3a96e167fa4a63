"""Differentially private synthetic counts for areas: the Poisson-gamma mechanism of Quick (2019),
"Generating Poisson-distributed differentially private synthetic data" (arXiv:1906.00455), and its prior
predictive truncation, Quick (2021), "Improving the utility of Poisson-distributed, differentially private
synthetic data via prior predictive truncation with an application to CDC WONDER". Equation numbers are
those of Quick (2021).

Groups ``i = 1..I`` (areas, or area x stratum cells) have a confidential count ``y_i``, a public population
``n_i`` and a public prior rate ``lambda_i0``; the total ``T = y.`` is public and kept invariant.

Model (eq. 2): ``y_i | lambda_i ~ Pois(n_i lambda_i)``, ``lambda_i ~ Gamma(a_i, b_i)`` with
``a_i / b_i = lambda_i0``, so ``lambda_i | y_i ~ Gamma(y_i + a_i, n_i + b_i)`` and the posterior predictive
of a synthetic count is negative binomial, ``z_i | y_i ~ NegBin(y_i + a_i, q_i)`` with
``q_i = n_i / (b_i + 2 n_i)``.

The mechanism (eqs. 4 and 10). The synthetic counts ``z`` are drawn from the product of these predictive
distributions conditioned on the public total, ``sum z_i = T``, and, with truncation, on the public box
``L_i <= z_i <= U_i`` of eq. (9), with each ``y_i`` first clamped to ``[L_i, U_i]`` (Section 2.3):

    p(z | y) ∝ prod_i Gamma(z_i + y~_i + a_i) / z_i! * q_i^z_i   on  {sum z = T, L <= z <= U}.

This is the distribution whose privacy loss eqs. (5)-(7) and (10)-(14) bound. Eq. (8) (a multinomial
with ``pi_i ∝ n_i lambda*_i``, ``lambda*`` from the posterior) gives the same distribution only when
``b_i / n_i`` is the same for every group: conditioning independent Poisson counts on their total tilts
the mixing distribution of ``mu = n lambda`` by ``Pois(T; sum mu)``, which changes the distribution of
``pi`` unless the gamma rates are equal. The calibrated ``a_i`` differ in ``a_i / (n_i lambda_i0)``, so
we sample eq. (4)/(10) itself, exactly.

The gamma priors are calibrated from public inputs only in core.counts_calibration, and the conditioned
product distribution is drawn exactly by core.counts_sampler. This module checks the confidential counts,
states the mechanism's distribution (enumerated exactly for small problems, to measure its privacy loss) and
makes and summarises a release (:func:`synthesize`, :func:`summarize`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from . import mechanisms
from .counts_calibration import (
    Calibration,
    certified_epsilon,
)
from .counts_sampler import ExactSampler
from .errors import ParameterError
from .limits import MAX_TOTAL_COUNT
from .progress import Progress, report, scaled

#: Enumeration guard of :func:`privacy_loss_by_enumeration`.
MAX_ENUMERATION = 2_000_000


def check_counts(counts) -> np.ndarray:
    """Confidential counts as int64; they must be finite non-negative integers."""
    y = np.asarray(counts, dtype=np.float64)
    if y.ndim != 1 or y.size < 2:
        raise ParameterError("counts", "need counts for at least two groups")
    if not np.all(np.isfinite(y)):
        raise ParameterError("counts", "a count is missing (NULL or NaN)")
    if np.any(y < 0):
        raise ParameterError("counts", f"counts must be >= 0; found {y.min():g}")
    if np.any(y != np.round(y)):
        bad = y[y != np.round(y)][0]
        raise ParameterError("counts", f"counts must be whole numbers; found {bad:g}")
    if y.sum() <= 0:
        raise ParameterError("counts", "the total count is 0: there is nothing to synthesise")
    if y.sum() > MAX_TOTAL_COUNT:
        raise ParameterError(
            "counts",
            f"the counts add up to {y.sum():.3g}, more than 2^53 = {MAX_TOTAL_COUNT:.3g} (beyond it a double neither "
            "tells whole numbers apart nor adds them exactly): check that the field holds counts",
        )
    return y.astype(np.int64)


# -- the mechanism's distribution ------------------------------------------------------------------


def posterior_shapes(counts, cal: Calibration) -> np.ndarray:
    """Shapes ``y~_i + a_i`` of the posterior predictive, with ``y_i`` clamped to ``[L_i, U_i]`` (Section 2.3)."""
    y = np.asarray(counts, dtype=np.float64)
    if cal.truncated:
        y = np.clip(y, cal.lower, cal.upper)
    return y + cal.a


def predictive_q(population, cal: Calibration) -> np.ndarray:
    """``q_i = n_i / (b_i + 2 n_i)``: the negative binomial's probability (eq. 4)."""
    n = np.asarray(population, dtype=np.float64)
    return n / (cal.b + 2.0 * n)


def log_weights(z: np.ndarray, shapes: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Unnormalised ``log p(z | y)`` of eq. (4)/(10) for rows ``z`` (``(m, I)``) of the constrained set."""
    z = np.asarray(z, dtype=np.float64)
    return np.sum(special.gammaln(z + shapes) - special.gammaln(z + 1.0) + z * np.log(q), axis=-1)


def _compositions(total: int, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """All integer vectors ``lower <= z <= upper`` with ``sum z = total`` (small problems only)."""
    rows = [()]
    remaining_low = np.concatenate([np.cumsum(lower[::-1])[::-1][1:], [0]])
    remaining_high = np.concatenate([np.cumsum(upper[::-1])[::-1][1:], [0]])
    for i in range(lower.size):
        grown = []
        for row in rows:
            used = sum(row)
            lo = max(int(lower[i]), total - used - int(remaining_high[i]))
            hi = min(int(upper[i]), total - used - int(remaining_low[i]))
            grown.extend(row + (k,) for k in range(lo, hi + 1))
            if len(grown) > MAX_ENUMERATION:
                raise ParameterError("counts", "too many configurations to enumerate")
        rows = grown
    return np.array(rows, dtype=np.int64).reshape(-1, lower.size)


def mechanism_pmf(counts, population, cal: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """Every possible synthetic vector and its exact probability under the mechanism (small problems)."""
    z = _compositions(cal.total, cal.lower, cal.upper)
    lw = log_weights(z, posterior_shapes(counts, cal), predictive_q(population, cal))
    p = np.exp(lw - lw.max())
    return z, p / p.sum()


def privacy_loss_by_enumeration(population, cal: Calibration) -> float:
    """``max |log p(z|y) - log p(z|x)|`` over all ``y`` with total ``T``, all neighbours ``x`` (one event moved
    between two groups, eq. 1) and all ``z``: the exact epsilon the release achieves. Small problems only."""
    q = predictive_q(population, cal)
    every_y = _compositions(cal.total, np.zeros(cal.groups, dtype=np.int64), np.full(cal.groups, cal.total))
    z = _compositions(cal.total, cal.lower, cal.upper)
    log_q = np.log(q)
    table = {}
    for y in every_y:
        shapes = posterior_shapes(y, cal)
        lw = np.sum(special.gammaln(z + shapes) - special.gammaln(z + 1.0) + z * log_q, axis=1)
        table[tuple(y)] = lw - special.logsumexp(lw)
    worst = 0.0
    for key, lp in table.items():
        y = np.array(key)
        for i in np.flatnonzero(y > 0):
            for j in range(cal.groups):
                if j == i:
                    continue
                x = y.copy()
                x[i] -= 1
                x[j] += 1
                worst = max(worst, float(np.max(np.abs(lp - table[tuple(x)]))))
    return worst


# -- the release ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    """Synthetic counts and what may be said about them.

    Attributes:
        synthetic: ``(L, I)`` int64 synthetic counts; every row sums to the public total.
        calibration: the public priors and settings.
        outside: how many true counts fell outside ``[L_i, U_i]`` (CONFIDENTIAL, informational).
    """

    synthetic: np.ndarray
    calibration: Calibration
    outside: int


def synthesize(
    counts,
    population,
    cal: Calibration,
    sets: int,
    rng: np.random.Generator,
    progress: Progress = None,
    chunk: int = 64,
) -> Release:
    """``sets`` independent synthetic data sets from the epsilon-DP mechanism calibrated in ``cal``.

    Each set is one exact draw of eq. (4) (untruncated) or eq. (10) (truncated) and is epsilon-DP; the sets are
    independent, so publishing L of them (or anything computed from them, such as their mean) is
    (L * epsilon)-DP under sequential composition. (The paper draws L = 1,000 sets to average its utility
    measures over them, Section 3.2; it does not claim that publishing them all costs one epsilon.)
    """
    y = check_counts(counts)
    n = np.asarray(population, dtype=np.float64)
    if y.size != cal.groups or n.size != cal.groups:
        raise ParameterError("counts", "counts, populations and priors must describe the same groups")
    if int(y.sum()) != cal.total:
        raise ParameterError("counts", f"the counts add up to {int(y.sum())}, but the calibration used {cal.total}")
    sets = int(sets)
    if sets < 1:
        raise ParameterError("sets", "the number of synthetic data sets must be >= 1")
    sampler = ExactSampler(
        posterior_shapes(y, cal),
        predictive_q(n, cal),
        cal.lower,
        cal.upper,
        cal.total,
        progress=scaled(progress, 0.0, 0.2),
    )
    out = np.empty((sets, cal.groups), dtype=np.int64)
    for start in range(0, sets, chunk):
        stop = min(sets, start + chunk)
        report(progress, 0.2 + 0.8 * start / sets, f"Synthetic data sets {start + 1}-{stop} of {sets}")
        out[start:stop] = sampler.sample(mechanisms.uniforms(rng, (stop - start, sampler.internal_nodes)))
    report(progress, 1.0, "Done")
    outside = int(np.sum((y < cal.lower) | (y > cal.upper))) if cal.truncated else 0
    return Release(synthetic=out, calibration=cal, outside=outside)


@dataclass(frozen=True)
class ReleaseSummary:
    """What the steward's report says about a release.

    Public: the prior's informativeness (``median_a``, ``max_a``, ``min_a``, ``prior_weight`` = median of
    ``a_i / (a_i + E_i)``) and ``certified_epsilon``. CONFIDENTIAL (they use the true counts): ``true_rate``,
    ``synthetic_rate`` (mean over the sets), ``rate_correlation``, ``mean_abs_difference`` (of counts) and
    ``outside``.
    """

    median_a: float
    max_a: float
    min_a: float
    prior_weight: float
    certified_epsilon: float
    true_rate: np.ndarray
    synthetic_rate: np.ndarray
    rate_correlation: float
    mean_abs_difference: float
    outside: int


def summarize(release: Release, counts, population) -> ReleaseSummary:
    """The figures of the steward's (confidential) report on ``release``."""
    cal = release.calibration
    y = np.asarray(counts, dtype=np.float64)
    n = np.asarray(population, dtype=np.float64)
    mean = release.synthetic.mean(axis=0)
    true_rate, synthetic_rate = y / n, mean / n
    spread = np.std(true_rate) * np.std(synthetic_rate)
    correlation = float(np.corrcoef(true_rate, synthetic_rate)[0, 1]) if spread > 0 else float("nan")
    return ReleaseSummary(
        median_a=float(np.median(cal.a)),
        max_a=float(cal.a.max()),
        min_a=float(cal.a.min()),
        prior_weight=float(np.median(cal.a / (cal.a + cal.expected))),
        certified_epsilon=certified_epsilon(cal),
        true_rate=true_rate,
        synthetic_rate=synthetic_rate,
        rate_correlation=correlation,
        mean_abs_difference=float(np.mean(np.abs(mean - y))),
        outside=release.outside,
    )
