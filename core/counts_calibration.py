"""Public priors of the DP synthetic counts mechanism (core.counts): checks of the public inputs, the prior
predictive bounds of the truncated mechanism (eq. 9) and the calibration of the gamma prior shapes that makes
the release epsilon-DP. Equation numbers are those of Quick (2021), "Improving the utility of
Poisson-distributed, differentially private synthetic data via prior predictive truncation with an
application to CDC WONDER".

Groups ``i = 1..I`` have a public population ``n_i`` and prior rate ``lambda_i0``, and the total ``T`` is
public; the gamma prior ``lambda_i ~ Gamma(a_i, b_i)`` has ``a_i / b_i = lambda_i0`` (eq. 2).

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from . import mechanisms
from .errors import ParameterError
from .limits import MAX_EPSILON

#: Default floor of every a_i (the paper reports a_2 > 0.001 for its Figure 1 example).
DEFAULT_FLOOR = 1e-3
#: A requirement this large means "no prior satisfies the constraint".
_INFEASIBLE = 1e12


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
      not exact for three or more groups; our exact enumeration (:func:`.counts.privacy_loss_by_enumeration`)
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
