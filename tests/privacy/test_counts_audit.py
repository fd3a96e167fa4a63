"""Privacy audit of the DP synthetic counts (Quick 2021; core.counts, counts_calibration, counts_sampler): the exact
privacy loss by enumeration, with the mechanism's pmf built here from the paper's formulas, and the exact pmf of the
implemented sampler for two groups.

The guarantee. Groups ``i = 1..I`` with confidential counts ``y`` and a public total ``T``; neighbouring data sets
move one event from one group to another, the total fixed (Quick 2021, eq. 1). The release is one draw ``z`` of

    p(z | y) ∝ prod_i NegBin(z_i; y~_i + a_i, q_i)   on  {sum z = T, L <= z <= U},   q_i = n_i / (b_i + 2 n_i),

(eqs. 4 and 10; ``y~`` is ``y`` clamped to the box with truncation, ``L = 0, U = T`` without), with the gamma priors
``(a_i, b_i)`` calibrated from public inputs by the default pairwise rule (core.counts_calibration.calibrate). It is
epsilon-DP when ``max |log p(z | y) - log p(z | x)| <= epsilon`` over every ``y`` with total ``T``, every neighbour
``x`` of ``y`` and every ``z``: on small problems all three can be enumerated, which gives the exact epsilon.

Independence from the code under test. The pmf here is scipy's negative binomial (``nbinom(A, 1 - q)`` has pmf
``Gamma(z + A) / (Gamma(A) z!) (1 - q)^A q^z``), conditioned by normalising over the enumerated box; it is compared
with ``core.counts.mechanism_pmf`` and its worst case with ``core.counts.privacy_loss_by_enumeration``, so an error in
either shows as a disagreement and not as a passing audit.

Floating point. The log-pmfs are differences of log-gamma values of a few hundred at most here; computed to a few ulp,
their differences are exact to about 1e-13, so the bound is checked with an absolute slack of 1e-10.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import special, stats

from spatial_privacy.core import counts, counts_calibration

#: Absolute slack of the floating-point comparison (module docstring).
SLACK = 1e-10

#: Small problems: (populations n_i, prior expected counts E_i, total T). Two, three and four groups; the second
#: three-group problem has a prior far from even, so the calibrated a_i differ.
PROBLEMS = {
    "2 groups": (np.array([300.0, 700.0]), np.array([3.6, 8.4]), 12),
    "3 groups": (np.array([200.0, 500.0, 300.0]), np.array([1.8, 4.5, 2.7]), 9),
    "3 groups, uneven prior": (np.array([200.0, 500.0, 300.0]), np.array([0.5, 1.5, 7.0]), 9),
    "4 groups": (np.array([100.0, 400.0, 250.0, 250.0]), np.array([0.7, 2.8, 1.75, 1.75]), 7),
}


def _compositions(total: int, lower, upper) -> np.ndarray:
    """Every integer vector ``lower <= v <= upper`` with ``sum v = total``, by recursion on the first entry."""
    if len(lower) == 1:
        return np.array([[total]]) if lower[0] <= total <= upper[0] else np.zeros((0, 1), dtype=np.int64)
    rows = []
    for first in range(int(lower[0]), int(min(upper[0], total)) + 1):
        rest = _compositions(total - first, lower[1:], upper[1:])
        rows.extend([first, *row] for row in rest)
    return np.array(rows, dtype=np.int64).reshape(-1, len(lower))


def _log_pmf_table(population, cal) -> tuple[np.ndarray, dict]:
    """The synthetic vectors ``z`` and ``log p(z | y)`` for every ``y`` with total ``T`` (module docstring)."""
    groups = cal.groups
    z = _compositions(cal.total, cal.lower, cal.upper)
    q = np.asarray(population, dtype=np.float64) / (cal.b + 2.0 * np.asarray(population, dtype=np.float64))
    table = {}
    for y in _compositions(cal.total, np.zeros(groups, np.int64), np.full(groups, cal.total)):
        kept = np.clip(y, cal.lower, cal.upper) if cal.truncated else y
        lw = stats.nbinom.logpmf(z, kept + cal.a, 1.0 - q).sum(axis=1)
        table[tuple(y)] = lw - special.logsumexp(lw)
    return z, table


def _neighbours(y: tuple):
    """Every ``x`` with one event of ``y`` moved to another group."""
    for i in range(len(y)):
        if y[i] == 0:
            continue
        for j in range(len(y)):
            if j != i:
                x = list(y)
                x[i] -= 1
                x[j] += 1
                yield tuple(x)


def _exact_loss(table: dict) -> float:
    return max(float(np.max(np.abs(lp - table[x]))) for y, lp in table.items() for x in _neighbours(y))


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("truncate", [False, True], ids=["untruncated", "truncated"])
@pytest.mark.parametrize("problem", list(PROBLEMS))
def test_synthetic_counts_are_epsilon_dp_by_enumeration(problem, truncate, epsilon, record_loss):
    n, e, total = PROBLEMS[problem]
    cal = counts_calibration.calibrate(n, e, total, epsilon, truncate=truncate)
    z, table = _log_pmf_table(n, cal)
    loss = _exact_loss(table)
    record_loss(f"dp counts, {problem}, {'truncated' if truncate else 'untruncated'}", loss, epsilon, "exact pmf")
    assert loss <= epsilon + SLACK
    # the pairwise rule's certificate bounds it too (h_i + h_j over the two largest terms)
    assert loss <= counts_calibration.certified_epsilon(cal) + SLACK
    # the library's own enumeration and distribution agree with this one
    assert counts.privacy_loss_by_enumeration(n, cal) == pytest.approx(loss, abs=SLACK)
    for y in (tuple(np.eye(cal.groups, dtype=np.int64)[0] * total), next(iter(table)), tuple(_middle(total, cal))):
        zc, pc = counts.mechanism_pmf(np.array(y), n, cal)
        assert np.array_equal(zc, z)
        assert np.allclose(pc, np.exp(table[y]), rtol=1e-10, atol=1e-15)


def _middle(total: int, cal) -> np.ndarray:
    y = np.full(cal.groups, total // cal.groups)
    y[0] += total - y.sum()
    return y


@pytest.mark.parametrize("problem", ["2 groups", "3 groups", "4 groups"])
def test_the_enumeration_catches_priors_too_weak_for_epsilon(problem, record_loss):
    """The audit has power: the untruncated mechanism with the priors calibrated for 3 epsilon (a prior a third as
    strong: less noise) is not epsilon-DP, and the enumeration says so."""
    n, e, total = PROBLEMS[problem]
    epsilon = 1.0
    weak = counts_calibration.calibrate(n, e, total, 3 * epsilon, truncate=False)
    loss = _exact_loss(_log_pmf_table(n, dataclasses.replace(weak, epsilon=epsilon))[1])
    record_loss(f"dp counts, {problem}, priors for 3 eps (must fail)", loss, epsilon, "exact pmf (too little noise)")
    assert loss > epsilon


class PlannedUniforms:
    """A stand-in for ``numpy.random.Generator`` whose ``random(size)`` returns planned uniforms (the only draw of
    :func:`spatial_privacy.core.counts.synthesize`), so that the real sampler runs on chosen uniforms."""

    def __init__(self, u):
        self.u = np.asarray(u, dtype=np.float64)

    def random(self, size):
        assert int(np.prod(size)) == self.u.size
        return self.u.reshape(size)


_BITS = 53  # numpy's random() is m / 2^53 for a uniform integer m in [0, 2^53)


def _sampler_pmf(y, n, cal) -> np.ndarray:
    """The exact pmf of ``counts.synthesize``'s draw of ``z_1`` for two groups, under numpy's 53-bit uniforms.

    For two groups the sampler's tree has one node, which splits ``T`` by the inverse CDF of ``z_1``: ``z_1`` is a
    non-decreasing function of the uniform ``u = m 2^-53``. Bisection over the integer ``m`` finds, for each ``j``,
    the first ``m`` with ``z_1 >= j``; the pmf is the differences of these over ``2^53``: exactly the probabilities
    with which numpy's uniforms make the implemented sampler output each vector."""
    values = np.arange(int(cal.lower[0]), int(cal.upper[0]) + 2)
    lo = np.zeros(values.size, dtype=np.int64)
    hi = np.full(values.size, 2**_BITS, dtype=np.int64)

    def draw(m):
        u = m.astype(np.float64) * 2.0**-_BITS
        out = counts.synthesize(y, n, cal, u.size, PlannedUniforms(u), chunk=u.size).synthetic
        assert np.all(out.sum(axis=1) == cal.total)
        return out[:, 0]

    for _ in range(_BITS + 1):
        mid = (lo + hi) // 2
        reached = np.where(mid < 2**_BITS, draw(np.minimum(mid, 2**_BITS - 1)) >= values, False)
        hi = np.where(reached, mid, hi)
        lo = np.where(reached, lo, mid + 1)
    first = hi  # first m with z_1 >= values[k] (2^53: never)
    assert np.all(np.diff(first) >= 0)
    inside = (first > 0) & (first < 2**_BITS)
    before = draw(first[inside] - 1)
    assert np.all(before < values[inside]) and np.all(draw(first[inside]) >= values[inside])
    return np.diff(first).astype(np.float64) * 2.0**-_BITS  # P(z_1 = values[k]) for k < len - 1


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
@pytest.mark.parametrize("truncate", [False, True], ids=["untruncated", "truncated"])
def test_the_implemented_sampler_is_epsilon_dp_up_to_double_rounding(truncate, epsilon, record_loss):
    """Beyond the mechanism's distribution: the distribution the real sampler draws from, for two groups, exactly.

    Its probabilities differ from the mechanism's by rounding: the inverse CDF's cumulative weights carry a
    relative error of at most ``(T + 1) 2^-53`` of their total and the uniforms come in steps of ``2^-53``, an
    absolute error below ``(T + 2) 2^-52`` per outcome; the leaf weights ``exp(lgamma(.) - top)`` of arguments
    below ``1e3`` carry a relative error below 1e-12. So ``|P_sampler - P| <= 1e-12 P + (T + 2) 2^-52``. Over the
    outcomes with ``P >= 1e-6`` the sampler's privacy loss is then at most epsilon plus ``2 (1e-12 + (T + 2)
    2^-52 / 1e-6)``, and its hockey-stick delta at epsilon is at most ``(1 + e^eps)`` times the summed errors:
    the "exact up to about 1e-16" that core.counts_sampler documents."""
    n, e, total = PROBLEMS["2 groups"]
    cal = counts_calibration.calibrate(n, e, total, epsilon, truncate=truncate)
    z, table = _log_pmf_table(n, cal)
    absolute = (total + 2) * 2.0**-52
    sampled = {}
    for y in table:
        p_sampler = _sampler_pmf(np.array(y), n, cal)
        p_exact = np.exp(table[y])
        assert np.all(np.abs(p_sampler - p_exact) <= 1e-12 * p_exact + absolute), y
        sampled[y] = p_sampler
    worst, delta = 0.0, 0.0
    e_eps = math.exp(epsilon)
    for y, p in sampled.items():
        for x in _neighbours(y):
            q = sampled[x]
            big = (p >= 1e-6) & (q >= 1e-6)
            worst = max(worst, float(np.max(np.abs(np.log(p[big]) - np.log(q[big])))))
            delta = max(delta, math.fsum(np.maximum(p - e_eps * q, 0.0)))
    slack = 2 * (1e-12 + absolute / 1e-6)
    record_loss(f"dp counts sampler, 2 groups, {'truncated' if truncate else 'untruncated'}", worst, epsilon, "exact")
    record_loss("dp counts sampler: delta at epsilon", delta, (1 + e_eps) * (1e-12 + len(z) * absolute), "exact")
    assert worst <= epsilon + slack
    assert delta <= (1 + e_eps) * (1e-12 + len(z) * absolute)
