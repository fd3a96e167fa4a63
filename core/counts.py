"""Differentially private synthetic counts for areas: the Poisson-gamma mechanism of Quick (2019) and its
prior predictive truncation (Quick 2021, "Improving the utility of Poisson-distributed, differentially
private synthetic data via prior predictive truncation", ``../shared/papers/quick_*``).

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

Calibration (public: uses ``n``, ``lambda_0``, ``T``, epsilon, alpha and c, never ``y``):

* untruncated (Quick 2019; eq. 7): ``a_i >= T / (e^epsilon / nu_i - 1)`` with
  ``nu_i = (T [1 - r_i]^+ + a_(i) + T - 1) / (a_(i) + T - 1)`` and
  ``r_i = (b_(i)/n_(i) + 2) / (b_i/n_i + 2)``; ``[x]^+`` is the positive part (the reading that
  reproduces the paper's a_1 > 116 for its Figure 1 example);
* truncated (eq. 14): ``a_i >= (U_i - L_i) / (e^epsilon / nu_i - 1) - 2 L_i`` with
  ``nu_i = (2T - 2L_i + a_(i) - 1) / (2T - U_i - L_i + a_(i) - 1)``;

with ``x_(i)`` the sum over the other groups and ``b_i = a_i / lambda_i0``. Every ``a_i`` depends on the
others, so all are solved together (the role of the paper's Appendix B, which our copy of the paper does
not include; the algorithm here is our own). The map ``F`` sending ``a`` to the smallest ``a_i`` allowed
given the others is order-reversing (a larger ``a_(i)`` lowers ``nu_i``), the feasible set is closed
upwards, and iterating ``F`` from the floor gives an increasing sequence of infeasible and a decreasing
sequence of feasible vectors that pinch the least fixed point; we return the last feasible one after
checking every constraint directly.

Sampling. The conditioned product distribution is drawn exactly by divide and conquer: the groups are
the leaves of a balanced binary tree; each node stores the distribution of the sum of its leaves
(direct convolutions, restricted to ``[0, T]``); the root total is ``T`` and each node's total is split
between its children by the inverse CDF of ``p_left(s) p_right(t - s)``. An exponential tilt
``theta^z_i`` (which leaves the conditional distribution unchanged, since ``prod theta^z_i = theta^T``)
centres the node distributions on ``T``. Node tails below ``1e-300`` of a node's largest probability are
dropped: they are not representable in double precision relative to the probabilities that are kept.
"Exactly" means up to double rounding: where the cut falls depends on the counts, and the inverse CDF uses
53-bit uniforms, a delta of the order of 1e-16 that the stated guarantee does not count (see
:mod:`.mechanisms`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from . import mechanisms
from .errors import ParameterError
from .jit import njit
from .limits import MAX_SAMPLER_VALUES
from .progress import Progress, report, scaled

#: Default floor of every a_i (the paper reports a_2 > 0.001 for its Figure 1 example).
DEFAULT_FLOOR = 1e-3
#: A requirement this large means "no prior satisfies the constraint".
_INFEASIBLE = 1e12
#: Node probabilities below this fraction of the node's largest are dropped (not representable).
_TAIL_CUT = 1e-300
_LOG_TAIL_CUT = math.log(_TAIL_CUT)
#: Multiply-adds of tree convolution between progress calls (:func:`_convolve_level`): a few hundredths of a second.
_CONVOLVE_BLOCK = 50_000_000
#: Enumeration guard of :func:`privacy_loss_by_enumeration`.
MAX_ENUMERATION = 2_000_000


# -- inputs --------------------------------------------------------------------------------------


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
    return y.astype(np.int64)


def check_public(population, expected) -> tuple[np.ndarray, np.ndarray]:
    """Public populations ``n_i > 0`` and prior expected counts ``E_i = n_i lambda_i0 > 0``."""
    n = np.asarray(population, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    if n.ndim != 1 or n.shape != e.shape or n.size < 2:
        raise ParameterError("population", "populations and prior rates must be given for the same >= 2 groups")
    if not np.all(np.isfinite(n)) or np.any(n <= 0):
        raise ParameterError("population", "every population must be > 0 (a group without population has no events)")
    if not np.all(np.isfinite(e)) or np.any(e <= 0):
        raise ParameterError("prior", "every prior rate (or expected count) must be > 0 (a zero rate is a certainty)")
    return n, e


def prior_expected(population, prior, rate_per: float | None = None, rescale_to: int | None = None):
    """Checked populations and prior expected counts ``E_i``.

    Args:
        population: ``n_i > 0``.
        prior: prior rates per ``rate_per`` people (when ``rate_per`` is given), else expected counts.
        rate_per: e.g. 100,000 for rates per 100,000; ``None`` when ``prior`` holds expected counts.
        rescale_to: scale ``E`` to add up to this public total (the paper adjusts national rates by
            ``y. / sum n lambda_0``); ``None`` keeps it.
    """
    n = np.asarray(population, dtype=np.float64)
    e = np.asarray(prior, dtype=np.float64)
    if rate_per is not None:
        if not (math.isfinite(rate_per) and rate_per > 0):
            raise ParameterError("rate_per", f"the rate scale must be a number > 0; got {rate_per}")
        e = n * e / float(rate_per)
    n, e = check_public(n, e)
    if rescale_to is not None:
        e = e * float(rescale_to) / e.sum()
    return n, e


#: Largest epsilon accepted: e^epsilon must stay a finite double.
MAX_EPSILON = 700.0


def check_privacy(epsilon: float, alpha: float | None, c: float) -> None:
    epsilon = mechanisms.check_epsilon(epsilon)
    if epsilon > MAX_EPSILON:
        raise ParameterError(
            "epsilon", f"epsilon must be at most {MAX_EPSILON:g} (e^(epsilon/2) overflows); got {epsilon}"
        )
    if alpha is not None and not (0.0 < alpha < 0.5):
        raise ParameterError("alpha", f"alpha must lie in (0, 1/2); got {alpha}")
    if not (math.isfinite(c) and c >= 1.0):
        raise ParameterError("c", f"c must be >= 1; got {c}")


def default_alpha(groups: int) -> float:
    """The paper's rule of thumb ``alpha = 1/I`` (Section 4; it uses 1/47,034); 1/3 for two groups, since alpha
    must stay below 1/2."""
    return 1.0 / max(int(groups), 3)


# -- prior predictive bounds (eq. 9) ---------------------------------------------------------------


def prior_predictive_bounds(expected, alpha: float, c: float, total: int) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (9): ``L_i = F^-1(alpha/2 | E_i / c)`` and ``U_i = F^-1(1 - alpha/2 | c E_i)``.

    ``F^-1(p | mu) = min{k : P(Pois(mu) <= k) >= p}`` (the usual inverse CDF, R's ``qpois``). For the
    paper's Figure 1 example (E_1 = 15, alpha = 1e-4, c = 1) it gives L_1 = 3 and U_1 = 32; the paper's
    U_1 = 30 is the quantile at ``1 - 2 alpha`` (P(Pois(15) <= 30) = 0.99980). ``U_i`` is capped at the
    total: no synthetic count can exceed it.
    """
    e = np.asarray(expected, dtype=np.float64)
    lower = stats.poisson.ppf(alpha / 2.0, e / c)
    upper = stats.poisson.ppf(1.0 - alpha / 2.0, c * e)
    lower = np.minimum(lower, total).astype(np.int64)
    upper = np.minimum(upper, total).astype(np.int64)
    return lower, upper


# -- the privacy requirements (eqs. 7 and 14) --------------------------------------------------------


def _with_infeasible(numerator, ratio):
    """``numerator / (ratio - 1)`` where ratio > 1, else 'infeasible'."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(ratio > 1.0 + 1e-15, numerator / (ratio - 1.0), _INFEASIBLE)
    return np.minimum(out, _INFEASIBLE)


def untruncated_requirement(a_own, a_others, b_others, n_own, n_others, rate, total: int, epsilon: float):
    """Right-hand side of eq. (7) for each group, the others' sums ``a_(i)``, ``b_(i)`` and ``n_(i)`` given."""
    b_own = a_own / rate
    r = (b_others / n_others + 2.0) / (b_own / n_own + 2.0)
    nu = (total * np.maximum(1.0 - r, 0.0) + a_others + total - 1.0) / (a_others + total - 1.0)
    return _with_infeasible(float(total), math.exp(epsilon) / nu)


def truncated_requirement(a_others, lower, upper, total: int, epsilon: float):
    """Right-hand side of eq. (14) for each group, given ``a_(i)``."""
    lower = np.asarray(lower, dtype=np.float64)
    upper = np.asarray(upper, dtype=np.float64)
    den = 2.0 * total - upper - lower + a_others - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        nu = np.where(den > 0, (2.0 * total - 2.0 * lower + a_others - 1.0) / den, np.inf)
    return _with_infeasible(upper - lower, math.exp(epsilon) / nu) - 2.0 * lower


@dataclass(frozen=True)
class Calibration:
    """Public hyperparameters of a release (all derived from public inputs only).

    Attributes:
        a, b: gamma prior shapes and rates, ``a_i / b_i = lambda_i0``.
        rate: prior rates ``lambda_i0`` (events per person); expected: ``E_i = n_i lambda_i0``.
        lower, upper: the box of eq. (9) (``0`` and ``T`` without truncation).
        total: the public total ``T``; epsilon, alpha, c, truncated: the settings; rule: ``"pairwise"`` or
            ``"paper"`` (:func:`calibrate`).
        iterations: iterations of the joint solve; converged: whether it closed to tolerance (the
            returned ``a`` satisfies every constraint either way).
        slack: smallest ``a_i - requirement_i`` (>= 0).
    """

    a: np.ndarray
    b: np.ndarray
    rate: np.ndarray
    expected: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    total: int
    epsilon: float
    alpha: float | None
    c: float
    truncated: bool
    rule: str
    iterations: int
    converged: bool
    slack: float

    @property
    def groups(self) -> int:
        return int(self.a.size)

    @property
    def median_a(self) -> float:
        return float(np.median(self.a))


def _requirement_at(a, n, cal):
    if cal.rule == "pairwise":
        return _pairwise_requirement(cal.lower, cal.upper, cal.epsilon)
    a_others = a.sum() - a
    if cal.truncated:
        return truncated_requirement(a_others, cal.lower, cal.upper, cal.total, cal.epsilon)
    b = a / cal.rate
    return untruncated_requirement(a, a_others, b.sum() - b, n, n.sum() - n, cal.rate, cal.total, cal.epsilon)


RULES = ("pairwise", "paper")


def pairwise_loss_terms(a, lower, upper) -> np.ndarray:
    """``h_i = log(1 + (U_i - L_i) / (2 L_i + a_i))``: the most that group i's own factor of eq. (4)/(10) can move
    the log-probability of any synthetic vector when one event enters or leaves the group (see
    :func:`calibrate`)."""
    lower = np.asarray(lower, dtype=np.float64)
    upper = np.asarray(upper, dtype=np.float64)
    return np.log1p((upper - lower) / (2.0 * lower + np.asarray(a, dtype=np.float64)))


def certified_epsilon(cal: Calibration) -> float:
    """The epsilon the pairwise bound proves for these priors: the sum of the two largest ``h_i``."""
    h = np.sort(pairwise_loss_terms(cal.a, cal.lower, cal.upper))
    return float(h[-1] + h[-2])


def calibrate(
    population,
    expected,
    total: int,
    epsilon: float,
    truncate: bool = True,
    alpha: float | None = None,
    c: float = 1.0,
    floor: float = DEFAULT_FLOOR,
    rule: str = "pairwise",
    allow_dominant: bool = False,
    tol: float = 1e-10,
    max_iter: int = 10_000,
) -> Calibration:
    """The least informative gamma priors that make the release epsilon-DP.

    Two rules:

    * ``"pairwise"`` (default; proven for any number of groups). Moving one event from group i to group j
      (eq. 1) changes only the factors of i and j in eq. (4)/(10), so
      ``p(z | y) / p(z | x) = R(z) / E_y[R(Z)]`` with
      ``R(z) = (z_i + A_i - 1) / (A_i - 1) * A_j / (z_j + A_j)`` and ``A = y~ + a``. Hence the log ratio is at
      most ``log(max R / min R)`` over the box, which is at most ``h_i + h_j`` with
      ``h_i = log(1 + (U_i - L_i) / (2 L_i + a_i))`` (worst cases y~_i = L_i + 1, y~_j = L_j; with clamping
      a group at its bound contributes nothing). We require ``h_i <= epsilon / 2`` for every group:
      ``a_i >= (U_i - L_i) / (e^(epsilon/2) - 1) - 2 L_i`` (eq. 14's form with ``nu_i = e^(epsilon/2)``),
      which for the untruncated box ``[0, T]`` reads ``a_i >= T / (e^(epsilon/2) - 1)``. No assumption on
      dominating groups is needed.
    * ``"paper"``: eq. (7) (untruncated) or eq. (14) (truncated), solved jointly as described in the module
      docstring. The paper derives these from the two-group reduction "group i versus the rest", which is
      not exact for three or more groups; our exact enumeration (:func:`privacy_loss_by_enumeration`)
      finds privacy losses above epsilon on small problems: close to 2 epsilon (1.93) with three or four
      groups, and up to about 1.3 epsilon for eq. (7) even with two unequal groups. This rule is kept for
      comparison with the paper only.

    Args:
        population: ``n_i > 0`` (public).
        expected: prior expected counts ``E_i = n_i lambda_i0 > 0`` (public; rescale them to the total first
            if the prior rates come from elsewhere, as the paper does).
        total: the public total ``T = y.``.
        epsilon: the privacy budget (> 0).
        truncate: use prior predictive truncation (Section 2.3) or the untruncated mechanism (Quick 2019).
        alpha: tail probability of the bounds, in (0, 1/2); default ``1/I``. Ignored without truncation.
        c: widening factor of the bounds, >= 1. Ignored without truncation.
        floor: smallest ``a_i`` (> 0).
        rule: ``"pairwise"`` or ``"paper"`` (above).
        allow_dominant: with ``rule="paper"`` and truncation, skip the check that no group's prior expectation
            exceeds that of all others together (Theorem 1's assumption); for the paper's two-group example.

    Raises:
        ParameterError: bad settings, a dominating group (paper rule), a total the box cannot hold, or an
            epsilon so small that no prior satisfies the constraints.
    """
    n, e = check_public(population, expected)
    total = int(total)
    if total < 1:
        raise ParameterError("counts", "the total count must be >= 1")
    check_privacy(epsilon, alpha if truncate else None, c)
    if not (math.isfinite(floor) and floor > 0):
        raise ParameterError("floor", "the floor of a_i must be > 0")
    if rule not in RULES:
        raise ParameterError("rule", f"rule must be one of {RULES}")
    rate = e / n
    groups = n.size
    if truncate:
        alpha = default_alpha(groups) if alpha is None else float(alpha)
        lower, upper = prior_predictive_bounds(e, alpha, c, total)
        others = e.sum() - e
        dominant = np.flatnonzero(e > others * (1.0 + 1e-12))
        if rule == "paper" and dominant.size and not allow_dominant:
            raise ParameterError(
                "expected",
                f"group {int(dominant[0]) + 1} expects more events ({e[dominant[0]]:.4g}) than all other groups "
                f"together ({others[dominant[0]]:.4g}); the truncated mechanism's guarantee (Quick 2021, "
                "Theorem 1) assumes no group dominates. Stratify further (e.g. by age or sex) so that no "
                "single group holds half of the expected events.",
            )
        if lower.sum() > total or upper.sum() < total:
            raise ParameterError(
                "alpha",
                f"the prior predictive bounds cannot hold the total {total} (they allow {lower.sum()} to "
                f"{upper.sum()}); the prior rates disagree with the total: use a smaller alpha or a larger c",
            )
    else:
        alpha = None
        lower = np.zeros(groups, dtype=np.int64)
        upper = np.full(groups, total, dtype=np.int64)
    settings = dict(
        rate=rate, expected=e, lower=lower, upper=upper, total=total, epsilon=float(epsilon), alpha=alpha,
        c=float(c), truncated=bool(truncate),
    )  # fmt: skip
    if rule == "pairwise":
        need = _pairwise_requirement(lower, upper, epsilon)
        a = np.maximum(floor, need)
        return Calibration(
            a=a, b=a / rate, rule=rule, iterations=0, converged=True, slack=float(np.min(a - need)), **settings
        )
    cal = Calibration(
        a=np.full(groups, floor), b=np.full(groups, floor) / rate, rule=rule, iterations=0, converged=False,
        slack=0.0, **settings,
    )  # fmt: skip

    def smallest_allowed(others_a: np.ndarray) -> np.ndarray:
        """F(a): for each i the smallest a_i >= floor meeting its constraint, the others held at ``others_a``."""
        a_others = others_a.sum() - others_a
        if truncate:
            return np.maximum(floor, truncated_requirement(a_others, lower, upper, total, epsilon))
        b = others_a / rate
        b_others, n_others = b.sum() - b, n.sum() - n
        own = np.full(groups, floor)
        for _ in range(max_iter):  # own requirement grows with a_i: climb to its least fixed point
            new = np.maximum(floor, untruncated_requirement(own, a_others, b_others, n, n_others, rate, total, epsilon))
            if np.all(np.abs(new - own) <= tol * np.maximum(new, 1.0)):
                return new
            own = new
        return own

    low = np.full(groups, floor)
    high = smallest_allowed(low)
    converged = False
    iterations = 0
    while iterations < max_iter:
        iterations += 1
        low_next = smallest_allowed(high)
        high_next = smallest_allowed(low_next)
        gap = np.max(np.abs(high_next - low_next) / np.maximum(high_next, 1.0))
        low, high = low_next, high_next
        if gap <= tol:
            converged = True
            break
    a = high * (1.0 + 1e-9)
    for _ in range(100):  # check every constraint directly; nudge up any that rounding left short
        need = _requirement_at(a, n, cal)
        short = a < need
        if not short.any():
            break
        a = np.where(short, need * (1.0 + 1e-9), a)
    need = _requirement_at(a, n, cal)
    if np.any(a >= _INFEASIBLE / 10) or np.any(a < need):
        raise ParameterError(
            "epsilon",
            f"epsilon = {epsilon:g} is too small for these groups: no gamma prior satisfies "
            f"{'eq. (14)' if truncate else 'eq. (7)'}; use a larger epsilon",
        )
    return Calibration(
        a=a, b=a / rate, rule=rule, iterations=iterations, converged=converged, slack=float(np.min(a - need)),
        **settings,
    )  # fmt: skip


def _pairwise_requirement(lower, upper, epsilon: float) -> np.ndarray:
    lower = np.asarray(lower, dtype=np.float64)
    upper = np.asarray(upper, dtype=np.float64)
    return (upper - lower) / math.expm1(epsilon / 2.0) - 2.0 * lower


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


# -- the exact sampler ------------------------------------------------------------------------------


@njit(cache=True)
def _leaves(shapes, log_q, box_lo, box_hi, log_cut):
    """Support (trimmed to ``log_cut`` below the mode) and normalised weights of each tilted leaf."""
    m = shapes.size
    lo = np.empty(m, np.int64)
    hi = np.empty(m, np.int64)
    modes = np.empty(m, np.int64)
    for i in range(m):
        a, lq = shapes[i], log_q[i]
        qq = math.exp(lq)
        mode = 0
        if a > 1.0 and qq < 1.0:
            mode = int(math.floor((a - 1.0) * qq / (1.0 - qq)))
        elif qq >= 1.0:
            mode = box_hi[i]
        mode = min(max(mode, box_lo[i]), box_hi[i])
        # the log-pmf ratio (k + a) q / (k + 1) is monotone in k, so the pmf is unimodal: refine the mode
        while mode < box_hi[i] and math.log(mode + a) - math.log(mode + 1.0) + lq > 0.0:
            mode += 1
        while mode > box_lo[i] and math.log(mode - 1.0 + a) - math.log(mode) + lq < 0.0:
            mode -= 1
        top = math.lgamma(mode + a) - math.lgamma(mode + 1.0) + mode * lq
        k = mode
        while k < box_hi[i] and math.lgamma(k + 1 + a) - math.lgamma(k + 2.0) + (k + 1) * lq - top >= log_cut:
            k += 1
        hi[i] = k
        k = mode
        while k > box_lo[i] and math.lgamma(k - 1 + a) - math.lgamma(k + 0.0) + (k - 1) * lq - top >= log_cut:
            k -= 1
        lo[i] = k
        modes[i] = mode
    offsets = np.zeros(m + 1, np.int64)
    for i in range(m):
        offsets[i + 1] = offsets[i] + hi[i] - lo[i] + 1
    values = np.empty(offsets[m], np.float64)
    for i in range(m):
        a, lq = shapes[i], log_q[i]
        top = math.lgamma(modes[i] + a) - math.lgamma(modes[i] + 1.0) + modes[i] * lq
        for k in range(lo[i], hi[i] + 1):
            values[offsets[i] + k - lo[i]] = math.exp(math.lgamma(k + a) - math.lgamma(k + 1.0) + k * lq - top)
    return lo, hi, offsets, values


@njit(cache=True)
def _accumulate_pairs(left, right, lo, hi, offsets, values, cap, out_values, out_off, j0, j1, s0, s1):
    """Add the terms ``s0 <= s < s1`` (index into the left node's values) of the convolutions of the node pairs
    ``(left[j], right[j])``, ``j0 <= j < j1``, into ``out_values`` (zeroed by the caller). Consecutive ranges
    of ``s`` add the same terms in the same order as one call over all of them."""
    for j in range(j0, j1):
        lft, r = left[j], right[j]
        lo_new = lo[lft] + lo[r]
        hi_new = min(hi[lft] + hi[r], cap)
        base = out_off[j]
        for s in range(s0, min(s1, hi[lft] - lo[lft] + 1)):
            vl = values[offsets[lft] + s]
            if vl == 0.0:
                continue
            top = min(hi[r] - lo[r], hi_new - lo_new - s)
            for t in range(top + 1):
                out_values[base + s + t] += vl * values[offsets[r] + t]


@njit(cache=True)
def _trim_level(left, right, lo, hi, cap, cut, out_values, out_off, out_lo, out_hi, out_len):
    """Normalise each new node's values (from :func:`_accumulate_pairs`) to max 1, trim them to ``cut`` and move
    them to the start of the node's segment."""
    for j in range(left.size):
        lft, r = left[j], right[j]
        lo_new = lo[lft] + lo[r]
        hi_new = min(hi[lft] + hi[r], cap)
        width = hi_new - lo_new + 1
        base = out_off[j]
        biggest = 0.0
        for k in range(width):
            biggest = max(biggest, out_values[base + k])
        first, last = 0, width - 1
        while first < last and out_values[base + first] < cut * biggest:
            first += 1
        while last > first and out_values[base + last] < cut * biggest:
            last -= 1
        for k in range(last - first + 1):
            out_values[base + k] = out_values[base + first + k] / biggest
        out_lo[j] = lo_new + first
        out_hi[j] = lo_new + last
        out_len[j] = last - first + 1


def _convolve_level(left, right, lo, hi, offsets, values, cap, tick):
    """The new nodes of one tree level: the convolution of each node pair ``(left[j], right[j])``, normalised to
    max 1 and trimmed to :data:`_TAIL_CUT`. Returns ``(out_lo, out_hi, kept values, their lengths)``.

    The work (``width_left * width_right`` multiply-adds per pair) is done in blocks of about
    :data:`_CONVOLVE_BLOCK`, a pair too wide for one block in ranges of its left values, and ``tick(fraction
    of the level done)`` is called after each block: the top levels of 50,000 groups are seconds of work each,
    during which a Cancel would otherwise wait."""
    pairs = left.size
    width = np.maximum(np.minimum(hi[left] + hi[right], cap) - (lo[left] + lo[right]) + 1, 1)
    out_off = np.concatenate([[0], np.cumsum(width)[:-1]]).astype(np.int64)
    out_vals = np.zeros(int(width.sum()))
    left_width = hi[left] - lo[left] + 1
    work = left_width * (hi[right] - lo[right] + 1)
    done = np.cumsum(work)
    total = max(int(done[-1]), 1)
    j = 0
    while j < pairs:
        before = int(done[j - 1]) if j else 0
        if work[j] > _CONVOLVE_BLOCK:  # one wide pair: in ranges of its left node's values
            step = max(1, int(_CONVOLVE_BLOCK // max(1, work[j] // left_width[j])))
            for s0 in range(0, int(left_width[j]), step):
                _accumulate_pairs(left, right, lo, hi, offsets, values, cap, out_vals, out_off, j, j + 1, s0, s0 + step)
                tick((before + work[j] * min(1.0, (s0 + step) / left_width[j])) / total)
            j += 1
            continue
        stop = max(j + 1, int(np.searchsorted(done, before + _CONVOLVE_BLOCK, side="right")))
        _accumulate_pairs(left, right, lo, hi, offsets, values, cap, out_vals, out_off, j, stop, 0, cap + 1)
        tick(done[stop - 1] / total)
        j = stop
    out_lo = np.empty(pairs, np.int64)
    out_hi = np.empty(pairs, np.int64)
    out_len = np.empty(pairs, np.int64)
    _trim_level(left, right, lo, hi, cap, _TAIL_CUT, out_vals, out_off, out_lo, out_hi, out_len)
    if np.any(out_len < 1):
        raise ParameterError("counts", "the public box cannot hold the total")
    first = np.cumsum(out_len) - out_len
    kept = out_vals[np.arange(int(out_len.sum())) + np.repeat(out_off - first, out_len)]
    return out_lo, out_hi, kept, out_len


@njit(cache=True)
def _sample_sets(total, leaves, left, right, lo, hi, offsets, values, uniforms, out):
    """Split the root total down the tree, one uniform per internal node per set (inverse CDF)."""
    nodes = lo.size
    root = nodes - 1
    sums = np.empty(nodes, np.int64)
    weights = np.empty(np.max(hi - lo) + 1, np.float64)  # a split's choices: at most its left child's range
    for row in range(uniforms.shape[0]):
        sums[root] = total
        for node in range(root, leaves - 1, -1):
            s = sums[node]
            lft, r = left[node - leaves], right[node - leaves]
            first = max(lo[lft], s - hi[r])
            last = min(hi[lft], s - lo[r])
            acc = 0.0
            for k in range(first, last + 1):
                acc += values[offsets[lft] + k - lo[lft]] * values[offsets[r] + s - k - lo[r]]
                weights[k - first] = acc
            if last < first or acc <= 0.0:
                raise ValueError("the synthetic total fell outside the computed support")
            target = uniforms[row, node - leaves] * acc
            width = last - first + 1
            # binary search of the cumulative weights
            a_, b_ = 0, width - 1
            while a_ < b_:
                mid = (a_ + b_) // 2
                if weights[mid] > target:
                    b_ = mid
                else:
                    a_ = mid + 1
            pick = first + a_
            sums[lft] = pick
            sums[r] = s - pick
        for i in range(leaves):
            out[row, i] = sums[i]


class ExactSampler:
    """Exact draws from ``prod_i f_i(z_i)`` on ``{sum z = T, box_lo <= z <= box_hi}`` with
    ``f_i(z) ∝ Gamma(z + A_i) / z! * q_i^z`` (eq. 4/10), by the divide-and-conquer tree of the module docstring.
    """

    def __init__(self, shapes, q, box_lo, box_hi, total: int, progress: Progress = None):
        """``progress(fraction, message)`` is called once per level of the tree (about log2 of the number of
        groups levels; the widest, slowest ones come last) and may raise to cancel."""
        shapes = np.asarray(shapes, dtype=np.float64)
        q = np.asarray(q, dtype=np.float64)
        box_lo = np.asarray(box_lo, dtype=np.int64)
        box_hi = np.minimum(np.asarray(box_hi, dtype=np.int64), total)
        self.total = int(total)
        self.leaves = shapes.size
        log_q = np.log(q) + self._tilt(shapes, q, box_lo, box_hi, total)
        lo, hi, offsets, values = _leaves(shapes, log_q, box_lo, box_hi, _LOG_TAIL_CUT)
        level = np.arange(self.leaves)
        count = self.leaves
        lefts, rights = [], []
        all_lo, all_hi, all_off, all_vals = lo, hi, offsets[:-1], values
        levels = max(1, int(np.ceil(np.log2(self.leaves))))
        done = 0
        while level.size > 1:
            message = f"Building the exact sampler: level {done + 1} of {levels}"
            report(progress, done / levels, message)
            pairs = level.size // 2
            left, right = level[0 : 2 * pairs : 2], level[1 : 2 * pairs : 2]
            needed = all_vals.size + int(
                np.sum(np.minimum(all_hi[left] + all_hi[right], total) - (all_lo[left] + all_lo[right]) + 1)
            )
            if needed > MAX_SAMPLER_VALUES:
                raise ParameterError(
                    "groups",
                    f"{self.leaves:,} groups with these counts and priors need an exact sampler larger than the "
                    f"{MAX_SAMPLER_VALUES * 8 / 1e9:.1f} GB one run may use (it passed that at level {done + 1} of "
                    f"{levels}): release the areas in parts (by region, say; each part's total is then published "
                    "too)",
                )
            out_lo, out_hi, keep, out_len = _convolve_level(
                left, right, all_lo, all_hi, all_off, all_vals, total,
                lambda fraction, done=done, message=message: report(progress, (done + fraction) / levels, message),
            )  # fmt: skip
            done += 1
            new_off = all_vals.size + np.cumsum(out_len) - out_len
            # one array per quantity, extended level by level (a list of the levels beside their concatenation
            # had held every value twice)
            all_lo = np.concatenate([all_lo, out_lo])
            all_hi = np.concatenate([all_hi, out_hi])
            all_off = np.concatenate([all_off, new_off])
            all_vals = np.concatenate([all_vals, keep])
            del keep
            lefts.append(left)
            rights.append(right)
            new_ids = np.arange(count, count + pairs)
            count += pairs
            level = np.concatenate([new_ids, level[2 * pairs :]])
        self.lo, self.hi, self.offsets, self.values = all_lo, all_hi, all_off, all_vals
        self.left = np.concatenate(lefts) if lefts else np.empty(0, np.int64)
        self.right = np.concatenate(rights) if rights else np.empty(0, np.int64)
        root = count - 1
        if not (self.lo[root] <= total <= self.hi[root]):
            raise ParameterError("counts", "the public box cannot hold the total")

    @staticmethod
    def _tilt(shapes, q, box_lo, box_hi, total) -> float:
        """``log theta`` so that the tilted (untruncated, then clamped) means add up to ``T``."""

        def excess(log_theta):
            qq = q * math.exp(log_theta)
            mean = shapes * qq / (1.0 - qq)
            return np.clip(mean, box_lo, box_hi).sum() - total

        high = -math.log(q.max()) - 1e-12
        low = high - 50.0
        if excess(low) > 0:
            return low
        for _ in range(200):
            mid = 0.5 * (low + high)
            if excess(mid) > 0:
                high = mid
            else:
                low = mid
        return 0.5 * (low + high)

    @property
    def internal_nodes(self) -> int:
        return self.leaves - 1

    def sample(self, uniforms: np.ndarray) -> np.ndarray:
        """``(m, I)`` synthetic count vectors from ``(m, I - 1)`` uniforms."""
        uniforms = np.ascontiguousarray(uniforms, dtype=np.float64)
        out = np.empty((uniforms.shape[0], self.leaves), np.int64)
        _sample_sets(self.total, self.leaves, self.left, self.right, self.lo, self.hi, self.offsets, self.values,
                     uniforms, out)  # fmt: skip
        return out


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
