"""Privacy audit of the Pufferfish grid maps (ter Steege 2021; core.pufferfish): the exact output pmf of a published
cell for worst-case secret pairs, from the real ``pufferfish_grid``.

The guarantee. For a person ``i`` in a cell of ``n`` contributors, absolute error (Theorem 3.1) protects the secret
pairs "t_i in [x - c, x + c)" against "t_i in [x + c, x + 3c)"; relative error (Corollary 3.2) the pairs
"t_i in [ky, y/k)" against "t_i in [y/k, y/k^3)"; the data evolution scenarios are all laws under which the t_i are
independent. Given a scenario, the cell's output pmf under a secret is a mixture, over the law of ``t_i`` within
its interval and of the others' values, of the pmfs for fixed values, with the same weights for the others under
both secrets; so the worst case is two fixed values ``a`` and ``b`` in the two intervals, everything else fixed.
Their distance is below ``4c`` (below ``4c`` in ``log t`` for relative error), so the cell's mean (or mean of
``log t``) moves by less than the sensitivity ``4c / n``.

The release. ``pufferfish_grid`` publishes ``step (k + Z)`` (``exp`` of it for relative error), ``k`` the true
statistic rounded to the grid of ``step = 4c / (64 n)``, ``Z`` the difference of two geometric draws
(core.mechanisms.grid_laplace); mechanism B clamps it to ``[L, U]`` and a total is ``n`` times the mean. The audit
hands the real code every value ``z`` of ``Z`` in ``[-zmax, zmax]`` through a generator whose ``geometric``
returns planned draws (``PlannedGeometric``), one cell per ``z``, and reads back each published value. With
``P(Z = z) = p (1 - p)^|z| / (2 - p)`` for the ``p`` the code asked for, summing over the ``z`` that give the same
published double gives the exact pmf of the published value; a clamped end collects the whole tail beyond
``zmax`` (``P(Z <= -m) = (1 - p)^m / (2 - p)``).

What is asserted. The largest ``|log P_a(w) - log P_b(w)|`` over the outputs ``w`` is at most epsilon, and at
least ``64 epsilon / 65``: the worst case is reached (the two rounded statistics are 64 grid steps apart, each step
costing ``epsilon / 65``), so the audit looks at the extreme neighbours. Outside ``[-zmax, zmax]`` the pmf ratio of
an unclamped output is the constant ``(1 - p)^(k' - k)`` it has at the ends, so the enumerated range decides the
supremum. Every output of ``a`` from ``|z| <= zmax - 66`` must be an output of ``b`` (``|k - k'| <= 65``): a
release in doubles, ``mean + continuous noise``, fails here (Mironov 2012). For mechanism B, whose enumeration
covers all the mass, the hockey-stick divergence ``sum_w (P_a(w) - e^eps P_b(w))^+`` is the smallest delta the cell
achieves at this epsilon, and must be at most the ``delta_max`` of Theorem 4.4 that the release reports.

Floating point. The log-masses are sums of ``|z| log(1 - p)`` and a few logs, up to about 30 epsilon in size; their
differences are exact up to a few ulp of that, so the bound is checked with a slack of ``1e-12`` relative to the
largest log-mass. Numpy's geometric draws themselves follow the geometric law up to relative errors of about 1e-16
per probability and cannot go beyond about 44 noise scales (core.mechanisms): a delta of that order, which this
exact computation of the ideal law does not see.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core import pufferfish as pf
from spatial_privacy.core.grid import GridSpec

ABS, REL = pf.ErrorModel.ABSOLUTE, pf.ErrorModel.RELATIVE
#: ``|k - k'|`` is at most ``steps + 1 = 65`` for values one sensitivity apart (core.mechanisms.grid_laplace).
MAX_SHIFT = 65
#: Relative slack of the floating-point comparison (module docstring).
SLACK = 1e-12


def _release_for_every_z(values, settings, zmax: int, planned_geometric):
    """``(z, published value of a cell holding `values` for that z, p)`` for ``z = -zmax..zmax``."""
    zs = np.arange(-zmax, zmax + 1)
    n = len(values)
    x = np.repeat(np.arange(zs.size) + 0.5, n)
    t = np.tile(np.asarray(values, dtype=np.float64), zs.size)
    rng = planned_geometric(zs)
    g = pf.pufferfish_grid(x, np.full(x.size, 0.5), t, GridSpec(1.0), settings, rng)
    assert np.array_equal(g.ix, np.arange(zs.size)) and np.all(g.count == n)
    (p,) = set(rng.p)  # one success probability for both draws of every cell
    assert np.all(np.diff(g.value) >= 0), "the published value must be monotone in the noise"
    return zs, g.value, p, g


def _output_pmf(zs, out, p, planned_geometric):
    """Distinct published values and their log-masses; ``closed`` tells whether the enumeration holds all the mass
    (both ends clamped, so each end collects its tail)."""
    lp = planned_geometric.log_pmf(zs, p)
    zmax = int(zs[-1])
    low, high = out[0] == out[1], out[-1] == out[-2]
    if low:
        lp[0] = np.logaddexp(lp[0], planned_geometric.log_tail(zmax + 1, p))
    if high:
        lp[-1] = np.logaddexp(lp[-1], planned_geometric.log_tail(zmax + 1, p))
    values, first = np.unique(out, return_index=True)  # out is sorted: groups are contiguous
    return values, np.logaddexp.reduceat(lp, first), bool(low and high)


def _exact_loss(cell_a, cell_b, settings, zmax, planned_geometric, max_shift=MAX_SHIFT):
    """Exact ``(max |log ratio|, scale of the log-masses, hockey-stick delta at epsilon both ways or None, the
    release of a)``; ``max_shift`` bounds ``|k - k'|`` for the check that both data sets give the same outputs."""
    za, out_a, pa, ga = _release_for_every_z(cell_a, settings, zmax, planned_geometric)
    zb, out_b, pb, _ = _release_for_every_z(cell_b, settings, zmax, planned_geometric)
    assert pa == pb
    va, la, closed_a = _output_pmf(za, out_a, pa, planned_geometric)
    vb, lb, closed_b = _output_pmf(zb, out_b, pb, planned_geometric)
    inner = np.abs(za) <= zmax - (max_shift + 1)
    assert np.isin(out_a[inner], vb).all() and np.isin(out_b[inner], va).all(), "outputs one data set cannot give"
    common = np.intersect1d(va, vb)
    diff = la[np.searchsorted(va, common)] - lb[np.searchsorted(vb, common)]
    scale = max(1.0, float(np.max(np.abs(la))), float(np.max(np.abs(lb))))
    loss = float(np.max(np.abs(diff)))
    delta = None
    if closed_a and closed_b:
        for lp in (la, lb):
            assert math.fsum(np.exp(lp)) == pytest.approx(1.0, abs=1e-12)
        union = np.union1d(va, vb)
        ma, mb = np.zeros(union.size), np.zeros(union.size)
        ma[np.searchsorted(union, va)] = np.exp(la)
        mb[np.searchsorted(union, vb)] = np.exp(lb)
        e = math.exp(settings.epsilon)
        delta = max(math.fsum(np.maximum(ma - e * mb, 0.0)), math.fsum(np.maximum(mb - e * ma, 0.0)))
    return loss, scale, delta, ga


def _below(value: float) -> float:
    return float(np.nextafter(value, -np.inf))


def _above(value: float) -> float:
    return float(np.nextafter(value, np.inf))


def _absolute_pairs(c: float, n: int, centre: float, others: float, offsets: int = 8):
    """Secret pairs ``a = x - c`` and ``b`` just below ``x + 3c`` (the two ends: ``b - a`` is as close to ``4c`` as
    doubles allow), with ``x`` stepped through a grid step of the mean so that every rounding of the two means to
    the noise grid is met."""
    step = 4 * c / (64 * n)
    for k in range(offsets):
        x = centre + (k / offsets + 0.0137) * n * step
        yield [x - c] + [others] * (n - 1), [_below(x + 3 * c)] + [others] * (n - 1)


def _relative_pairs(k: float, n: int, y0: float, others: float, offsets: int = 8):
    """Relative secret pairs ``a = k y`` and ``b`` just below ``y / k^3``, with ``y`` stepped through a grid step
    of the mean of ``log t``."""
    step = -4 * math.log(k) / (64 * n)
    for j in range(offsets):
        y = y0 * math.exp((j / offsets + 0.0137) * n * step)
        yield [k * y] + [others] * (n - 1), [_below(y / k**3)] + [others] * (n - 1)


def _audit(pairs, settings, zmax, planned_geometric, max_shift=MAX_SHIFT):
    worst, scale, deltas, release = 0.0, 1.0, [], None
    for cell_a, cell_b in pairs:
        loss, sc, delta, release = _exact_loss(cell_a, cell_b, settings, zmax, planned_geometric, max_shift)
        worst, scale = max(worst, loss), max(scale, sc)
        if delta is not None:
            deltas.append(delta)
    return worst, scale, (max(deltas) if deltas else None), release


@pytest.mark.parametrize("statistic", [pf.Statistic.MEAN, pf.Statistic.TOTAL], ids=["mean", "total"])
@pytest.mark.parametrize(("epsilon", "n"), [(0.1, 1), (1.0, 3), (5.0, 2)])
def test_absolute_error_cell_is_epsilon_pufferfish_exactly(epsilon, n, statistic, planned_geometric, record_loss):
    """Theorem 3.1's mechanism as published (unbounded): the exact loss is at most epsilon and reaches 64/65 of it.
    ``zmax = 300`` covers the shift of at most 65 steps with room; the ratio is constant beyond."""
    c = 2.0
    settings = pf.PufferfishSettings(epsilon=epsilon, error_model=ABS, interval=c, statistic=statistic)
    loss, scale, _, _ = _audit(_absolute_pairs(c, n, 50.0, 40.0), settings, 300, planned_geometric)
    record_loss(f"pufferfish absolute {statistic.name.lower()} n={n}", loss, epsilon, "exact pmf")
    assert loss <= epsilon + SLACK * scale
    assert loss >= 64 / 65 * epsilon - SLACK * scale


def test_the_exact_audit_measures_a_loss_beyond_the_protected_pairs(planned_geometric, record_loss):
    """The audit reports the loss there is, not the epsilon it is told: values in intervals two apart (``b - a``
    close to ``8c``, a pair the guarantee does not protect) move the rounded mean by 128 steps, a loss of
    ``128 epsilon / 65``."""
    c, epsilon = 2.0, 1.0
    settings = pf.PufferfishSettings(epsilon=epsilon, error_model=ABS, interval=c)
    wide = ([[x - c], [_below(x + 7 * c)]] for x in (50.0 + 0.0137 * 0.125 * j for j in range(4)))
    loss, scale, _, _ = _audit(wide, settings, 400, planned_geometric, max_shift=2 * MAX_SHIFT)
    record_loss("pufferfish absolute, pair two intervals apart", loss, 2 * epsilon, "exact pmf (unprotected)")
    assert loss > epsilon
    assert loss == pytest.approx(128 / 65 * epsilon, abs=SLACK * scale + epsilon / 65)


@pytest.mark.parametrize(("epsilon", "n"), [(0.5, 1), (2.0, 2)])
def test_relative_error_cell_is_epsilon_pufferfish_exactly(epsilon, n, planned_geometric, record_loss):
    """Corollary 3.2's mechanism as published (the noisy geometric mean): exact loss in [64/65, 1] epsilon."""
    k = 0.9
    settings = pf.PufferfishSettings(epsilon=epsilon, error_model=REL, relative_k=k)
    loss, scale, _, _ = _audit(_relative_pairs(k, n, 100.0, 50.0), settings, 300, planned_geometric)
    record_loss(f"pufferfish relative geometric mean n={n}", loss, epsilon, "exact pmf")
    assert loss <= epsilon + SLACK * scale
    assert loss >= 64 / 65 * epsilon - SLACK * scale


def _bounded_cases():
    # (error model, statistic, epsilon, n, lower_t, upper_t, margin, interval c or k)
    yield pytest.param(ABS, pf.Statistic.MEAN, 0.5, 1, 10.0, 30.0, 2.0, 1.0, id="absolute-mean-0.5-n1")
    yield pytest.param(ABS, pf.Statistic.MEAN, 2.0, 3, 10.0, 30.0, 2.0, 1.0, id="absolute-mean-2-n3")
    yield pytest.param(ABS, pf.Statistic.TOTAL, 1.0, 3, 10.0, 30.0, 0.5, 1.0, id="absolute-total-1-n3")
    yield pytest.param(REL, pf.Statistic.MEAN, 1.0, 2, 10.0, 1000.0, 1.25, 0.9, id="relative-1-n2")
    yield pytest.param(REL, pf.Statistic.MEAN, 3.0, 1, 10.0, 1000.0, 1.05, 0.9, id="relative-3-n1")


@pytest.mark.parametrize(("model", "statistic", "epsilon", "n", "lower_t", "upper_t", "margin", "c"), _bounded_cases())
def test_bounded_cell_with_its_clamp_keeps_epsilon_and_its_delta(
    model, statistic, epsilon, n, lower_t, upper_t, margin, c, planned_geometric, record_loss
):
    """Mechanism B (eq. 15) with contribution bounds ``[L_t, U_t]``: the published value clamped to ``[L, U]``.

    Worst cases of Theorem 4.4's proof: every contribution at a bound, the secret holder's pair at that bound (its
    mean as close to the clamp as the data allow), and pairs in the middle stepped through the rounding grid. The
    enumeration runs ``200`` steps past the clamp at both ends, so it holds all the mass (checked to sum to 1).

    The clamp is a function of the grid release (post-processing), and the lower tail of the two-sided geometric
    noise has ``P(Z <= -m) / P(Z <= -m - d) = (1 - p)^-d``, the same ratio as its pmf: so the atoms at ``L`` and
    ``U`` keep the ratio below ``e^epsilon`` as well, and the exact hockey-stick delta is 0, within Theorem 4.4's
    ``delta_max`` (which the thesis derives for clamping without using that the clamp is post-processing)."""
    relative = model == REL
    kw = dict(relative_k=c) if relative else dict(interval=c)
    settings = pf.PufferfishSettings(
        epsilon=epsilon, error_model=model, bounded=True, lower_bound=lower_t, upper_bound=upper_t, margin=margin,
        statistic=statistic, **kw,
    )  # fmt: skip
    limits = pf.clamp_limits(settings, np.array([lower_t, upper_t]))
    if relative:
        sensitivity = -4 * math.log(c) / n
        span = math.log(limits.upper / limits.lower)
        k = c
        pairs = [
            ([lower_t] * n, [_below(lower_t / k**4)] + [lower_t] * (n - 1)),
            ([_above(upper_t * k**4)] + [upper_t] * (n - 1), [upper_t] * n),
            *_relative_pairs(k, n, math.sqrt(lower_t * upper_t), math.sqrt(lower_t * upper_t), offsets=4),
        ]
    else:
        sensitivity = 4 * c / n
        span = limits.upper - limits.lower
        pairs = [
            ([lower_t] * n, [_below(lower_t + 4 * c)] + [lower_t] * (n - 1)),
            ([_above(upper_t - 4 * c)] + [upper_t] * (n - 1), [upper_t] * n),
            *_absolute_pairs(c, n, 0.5 * (lower_t + upper_t), 0.5 * (lower_t + upper_t), offsets=4),
        ]
    zmax = math.ceil(span / (sensitivity / 64)) + 200
    loss, scale, delta, release = _audit(pairs, settings, zmax, planned_geometric)
    record_loss(
        f"pufferfish bounded {model.name.lower()} {statistic.name.lower()} n={n}", loss, epsilon, "exact pmf, clamped"
    )
    record_loss(
        f"pufferfish bounded {model.name.lower()} {statistic.name.lower()} n={n}: delta",
        delta,
        release.delta,
        "hockey-stick vs delta_max",
    )
    assert loss <= epsilon + SLACK * scale
    assert loss >= 64 / 65 * epsilon - SLACK * scale
    assert release.delta > 0  # the delta_max the release reports
    assert delta <= release.delta
