"""Pufferfish mechanisms (core.pufferfish) against ter Steege (2021)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core import pufferfish as pf
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.grid import GridSpec, bin_points

ALPHA = 1e-3
ABS, REL = pf.ErrorModel.ABSOLUTE, pf.ErrorModel.RELATIVE


def settings(**kw):
    base = dict(epsilon=1.0, error_model=ABS, interval=10.0)
    base.update(kw)
    return pf.PufferfishSettings(**base)


# -- noise scales and delta bounds against hand calculations -----------------------------------


def test_absolute_noise_scale_theorem_3_1():
    # b = 4c / (n eps): c = 50, eps = 0.5, n = 4 -> 100; n = 1 -> 400
    s = settings(epsilon=0.5, interval=50.0)
    assert pf.noise_scale(s, np.array([4, 1])) == pytest.approx([100.0, 400.0], rel=1e-15)


def test_relative_noise_scale_corollary_3_2():
    # b = -4 ln k / (n eps): k = 0.9, eps = 1, n = 2 -> 2 * 0.1053605... = 0.2107210
    s = settings(error_model=REL, relative_k=0.9, interval=None)
    assert pf.noise_scale(s, np.array([2]))[0] == pytest.approx(0.21072103131565256, rel=1e-12)


def test_delta_max_absolute_theorem_4_4_by_hand():
    # eps = ln 2 (e^eps = 2), c = 1, n = 4 -> b = 1/ln 2; gamma = 2 -> P(X <= -2) = exp(-2 ln 2)/2 = 1/8
    s = settings(epsilon=math.log(2.0), interval=1.0, bounded=True, lower_bound=10.0, upper_bound=20.0, margin=2.0)
    limits = pf.clamp_limits(s, np.array([12.0]))
    assert (limits.lower, limits.upper) == (8.0, 22.0)
    scale = pf.noise_scale(s, np.array([4]))
    assert scale[0] == pytest.approx(1 / math.log(2.0))
    # the grid mechanism's noise instead (sensitivity b*eps = 1, step 1/64, decay ln 2 / 65 per step): the
    # added noise is <= -2 only if step*Z <= -2 + step/2, i.e. Z <= -128: delta = 2 * r^128 / (1 + r), r = 2^(-1/65)
    step, decay = 1 / 64, math.log(2.0) / 65
    r = 2.0 ** (-1 / 65)
    assert pf.delta_max(s, np.array([step]), np.array([step / decay]), limits)[0] == pytest.approx(
        2 * r**128 / (1 + r), rel=1e-12
    )
    assert 2 * r**128 / (1 + r) == pytest.approx(0.25, rel=0.03)  # near the continuous 1/4


def test_delta_max_relative_corollary_4_5_by_hand():
    # eps = ln 2, k = e^(-1/4), n = 1 -> b = 1/ln 2; lambda = e^2 -> P(Y <= -2) = 1/8 -> delta = 1/4
    s = settings(
        epsilon=math.log(2.0),
        error_model=REL,
        relative_k=math.exp(-0.25),
        interval=None,
        bounded=True,
        lower_bound=1.0,
        upper_bound=5.0,
        margin=math.exp(2.0),
    )
    limits = pf.clamp_limits(s, np.array([2.0]))
    assert limits.lower == pytest.approx(math.exp(-2.0)) and limits.upper == pytest.approx(5 * math.exp(2.0))
    scale = pf.noise_scale(s, np.array([1]))
    assert scale[0] == pytest.approx(1 / math.log(2.0))
    # on the grid (sensitivity -4 ln k = 1, as above): log-noise <= -2 only if Z <= -128
    step, decay = 1 / 64, math.log(2.0) / 65
    r = 2.0 ** (-1 / 65)
    assert pf.delta_max(s, np.array([step]), np.array([step / decay]), limits)[0] == pytest.approx(
        2 * r**128 / (1 + r), rel=1e-12
    )


def test_default_margins_follow_the_thesis():
    values = np.array([59.46, 100.0, 1000.0])
    absolute = pf.clamp_limits(settings(bounded=True, bounds_from_data=True), values)
    assert (absolute.margin, absolute.lower, absolute.upper) == (59.46, 0.0, 1059.46)  # gamma = min t: L = 0
    relative = pf.clamp_limits(settings(error_model=REL, relative_k=0.95, bounded=True, bounds_from_data=True), values)
    assert relative.margin == 1.25
    assert (relative.lower, relative.upper) == pytest.approx((59.46 / 1.25, 1250.0))


# -- the mechanisms' output distributions ------------------------------------------------------


@pytest.fixture(scope="module")
def fine_grid(enterprise_arrays):
    x, y, t = enterprise_arrays
    return x, y, t, GridSpec(250.0)


def test_absolute_noise_is_laplace_with_the_cell_scale(fine_grid):
    x, y, t, spec = fine_grid
    s = settings(epsilon=0.5, interval=50.0)
    g = pf.pufferfish_grid(x, y, t, spec, s, np.random.default_rng(11))
    truth = bin_points(x, y, t, spec)
    assert np.array_equal(g.count, truth.count) and np.allclose(g.true_value, truth.mean)
    z = (g.value - truth.mean) / g.noise_scale
    assert len(z) > 500
    assert stats.kstest(z, stats.laplace().cdf).pvalue > ALPHA
    # the grid mechanism's scale: Theorem 3.1's b = 4c / (n eps) widened by (64 + 1) / 64
    assert np.allclose(g.noise_scale, 4 * 50.0 / (truth.count * 0.5) * 65 / 64)
    # every published mean is a whole number of grid steps (4c/n) / 64, whatever the data (Mironov 2012)
    steps = g.value / (4 * 50.0 / truth.count / 64)
    assert np.allclose(steps, np.rint(steps), rtol=0, atol=1e-6)  # continuous noise: fractions spread over [0, 1)


def test_relative_noise_is_multiplicative_log_laplace_on_the_geometric_mean(fine_grid):
    x, y, t, spec = fine_grid
    s = settings(epsilon=2.0, error_model=REL, relative_k=0.95, interval=None)
    g = pf.pufferfish_grid(x, y, t, spec, s, np.random.default_rng(12))
    log_means = bin_points(x, y, np.log(t), spec)
    assert np.allclose(g.true_value, np.exp(log_means.mean), rtol=1e-12)  # the geometric mean of each cell
    z = np.log(g.value / g.true_value) / g.noise_scale
    assert stats.kstest(z, stats.laplace().cdf).pvalue > ALPHA
    assert np.allclose(np.log(g.value / g.true_value), g.noise)
    assert np.all(g.value > 0)


@pytest.mark.parametrize("n_others", [0, 9, 99])
def test_relative_guarantee_holds_when_one_value_dominates_its_cell(n_others):
    # Corollary 3.2's pairs: t_1 in [ky, y/k) or in the neighbouring [y/k, y/k^3). Its proof (Theorem 3.1 on
    # log t with c = -ln k) bounds the privacy loss by (|log t_1 - log y| + |log t_1' - log y|) / (n b) <= 4c / (n b)
    # = epsilon. With the same Laplace draw (same seed) the published log values of the two data sets differ by
    # exactly the shift of the statistic, so the loss at every output is |shift| / b; take t_1 at the far ends.
    k, y0, eps = 0.9, 1000.0, 1.0
    c = -math.log(k)
    low, high = k * y0, y0 / k**3
    others = np.full(n_others, 1.0)
    n = n_others + 1
    s = settings(epsilon=eps, error_model=REL, relative_k=k, interval=None)
    out = []
    for t1 in (low, high * (1 - 1e-12)):
        t = np.concatenate([[t1], others])
        g = pf.pufferfish_grid(np.full(n, 5.0), np.full(n, 5.0), t, GridSpec(10.0), s, np.random.default_rng(3))
        out.append(g)
    assert out[0].noise_scale[0] == pytest.approx(4 * c / (n * eps) * 65 / 64, rel=1e-12)
    # on the grid of step 4c/(64 n) the two rounded statistics are at most 65 steps apart, each step costing
    # eps / 65 (mechanisms.grid_laplace); the shift of 4c is 64 steps, so the loss is within 2 steps of eps
    shift = abs(math.log(out[1].value[0]) - math.log(out[0].value[0]))
    loss = shift / out[0].noise_scale[0]
    assert loss <= eps * (1 + 1e-9)
    assert loss == pytest.approx(eps, abs=2 * eps / 65)  # the worst case is (nearly) attained at the ends
    # why not eq. (12): the log of the arithmetic mean moves by nearly the whole 4c here, so the same noise gives a
    # loss near n * epsilon (the previous code gave 9.92 for n = 10 and 91.8 for n = 100, failing the bound above)


def test_bounded_clamps_and_its_lower_jump_matches_theorem_4_4():
    # Worst case of the proof: every contribution equals L_t, one per cell. Then the probability of
    # publishing exactly L is P(X <= -gamma) = delta_max / e^eps. 20,000 cells: binomial tolerance.
    cells = 20_000
    x = np.arange(cells) * 10.0 + 5.0
    y = np.full(cells, 5.0)
    t = np.full(cells, 10.0)
    s = settings(epsilon=1.0, interval=2.0, bounded=True, lower_bound=10.0, upper_bound=30.0, margin=5.0)
    g = pf.pufferfish_grid(x, y, t, GridSpec(10.0), s, np.random.default_rng(13))
    assert np.all((g.value >= 5.0) & (g.value <= 35.0))
    # sensitivity 4c/n = 8, grid step 1/8 (t = 10 is on the grid), decay eps/65 per step: the noise is <= -5
    # when Z <= -40, P = r^40 / (1 + r) with r = e^(-1/65) (near the continuous 0.5 e^(-5/8))
    r = math.exp(-1 / 65)
    p = r**40 / (1 + r)
    assert p == pytest.approx(0.5 * math.exp(-5.0 / 8.0), rel=0.02)
    assert g.delta == pytest.approx(math.e * p, rel=1e-12)
    frac = np.mean(g.value == 5.0)
    assert abs(frac - p) < 4 * math.sqrt(p * (1 - p) / cells)


def test_total_is_n_times_the_noisy_mean(fine_grid):
    x, y, t, spec = fine_grid
    mean = pf.pufferfish_grid(x, y, t, spec, settings(interval=25.0), np.random.default_rng(5))
    total = pf.pufferfish_grid(
        x, y, t, spec, settings(interval=25.0, statistic=pf.Statistic.TOTAL), np.random.default_rng(5)
    )
    assert np.allclose(total.value, mean.count * mean.value, rtol=1e-12)
    assert np.allclose(total.true_value, bin_points(x, y, t, spec).total)
    assert np.allclose(total.noise_scale, mean.noise_scale * mean.count)
    # relative error publishes the geometric mean, from which no total follows
    with pytest.raises(ParameterError) as err:
        settings(error_model=REL, relative_k=0.9, interval=None, statistic=pf.Statistic.TOTAL)
    assert err.value.parameter == "statistic"


def test_total_noise_has_scale_n_times_b_and_bounded_total_is_n_times_clamped_mean(fine_grid):
    x, y, t, spec = fine_grid
    total = pf.pufferfish_grid(
        x, y, t, spec, settings(epsilon=0.5, interval=50.0, statistic=pf.Statistic.TOTAL), np.random.default_rng(21)
    )
    # absolute error on the total: (published - true total) / (4c/eps * 65/64) is close to Laplace(1) (the grid
    # mechanism's steps are 1/130 of its scale, far below what 2,000 cells can resolve)
    scaled = (total.value - total.true_value) / (4 * 50.0 / 0.5 * 65 / 64)
    assert stats.kstest(scaled, stats.laplace().cdf).pvalue > ALPHA
    bounded = dict(epsilon=0.5, interval=50.0, bounded=True, lower_bound=0.0, upper_bound=120_000.0, margin=100.0)
    mean = pf.pufferfish_grid(x, y, t, spec, settings(**bounded), np.random.default_rng(22))
    total = pf.pufferfish_grid(
        x, y, t, spec, settings(statistic=pf.Statistic.TOTAL, **bounded), np.random.default_rng(22)
    )
    assert np.all((total.value >= -100.0 * total.count) & (total.value <= 120_100.0 * total.count))
    assert np.allclose(total.value, total.count * mean.value)
    assert total.delta == mean.delta > 0


def test_relative_error_never_publishes_infinity(enterprise_arrays):
    # epsilon = 0.01 and k = 0.5 give noise scales up to 277 on the log scale: e^Y overflows doubles
    x, y, t = enterprise_arrays
    g = pf.pufferfish_grid(
        x,
        y,
        t,
        GridSpec(500.0),
        settings(epsilon=0.01, error_model=REL, relative_k=0.5, interval=None),
        np.random.default_rng(2),
    )
    assert np.any(np.abs(g.noise) > 709.8)  # the case that used to overflow occurs at this seed
    assert np.all(np.isfinite(g.value)) and np.all(g.value > 0)


def test_minimum_count_suppresses_small_cells_and_lowers_delta(fine_grid):
    x, y, t, spec = fine_grid
    truth = bin_points(x, y, t, spec)
    kw = dict(epsilon=0.1, interval=50.0, bounded=True, bounds_from_data=True)
    everything = pf.pufferfish_grid(x, y, t, spec, settings(**kw), np.random.default_rng(1))
    five = pf.pufferfish_grid(x, y, t, spec, settings(min_count=5, **kw), np.random.default_rng(1))
    assert len(five.count) == np.count_nonzero(truth.count >= 5)
    assert five.suppressed_cells == np.count_nonzero(truth.count < 5)
    assert five.count.min() >= 5
    assert five.delta < everything.delta
    # Delta is delta_max of the smallest published n: the added noise (grid step g = 4c/(64 n), rounding up
    # to g/2 included) is <= -gamma = -min(t) when Z <= floor((-min(t) + g/2) / g); P = r^|j| / (1 + r)
    step = 4 * 50.0 / five.count.min() / 64
    j = math.floor((-t.min() + step / 2) / step)
    r = math.exp(-0.1 / 65)
    assert five.delta == pytest.approx(math.exp(0.1) * r ** abs(j) / (1 + r), rel=1e-9)


def test_unbounded_is_pure_epsilon():
    g = pf.pufferfish_grid(np.zeros(3), np.zeros(3), np.ones(3), GridSpec(1.0), settings(), np.random.default_rng(0))
    assert g.delta == 0.0 and np.all(g.delta_max == 0.0) and g.limits is None


def test_same_seed_same_map_other_seed_other_map(fine_grid):
    x, y, t, spec = fine_grid
    a = pf.pufferfish_grid(x, y, t, spec, settings(), np.random.default_rng(3))
    b = pf.pufferfish_grid(x, y, t, spec, settings(), np.random.default_rng(3))
    c = pf.pufferfish_grid(x, y, t, spec, settings(), np.random.default_rng(4))
    assert np.array_equal(a.value, b.value) and not np.array_equal(a.value, c.value)


# -- refusals naming the parameter -------------------------------------------------------------


@pytest.mark.parametrize(
    "kw, parameter",
    [
        (dict(epsilon=0.0), "epsilon"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(epsilon=float("nan")), "epsilon"),
        (dict(epsilon=701.0), "epsilon"),
        (dict(epsilon=1e-310), "epsilon"),
        (dict(interval=0.0), "interval"),
        (dict(interval=None), "interval"),
        (dict(interval=1e308), "interval"),  # 4c/(n eps) overflows because of c, not epsilon
        (dict(error_model=REL, relative_k=1.0), "relative_k"),
        (dict(error_model=REL, relative_k=0.0), "relative_k"),
        (dict(error_model=REL, relative_k=None), "relative_k"),
        (dict(min_count=0), "min_count"),
        (dict(bounded=True, lower_bound=1.0), "upper_bound"),
        (dict(bounded=True, lower_bound=5.0, upper_bound=1.0), "lower_bound"),
        (dict(bounded=True, lower_bound=-1.0, upper_bound=1.0), "lower_bound"),
        (dict(bounded=True, bounds_from_data=True, margin=0.0), "margin"),
        (dict(error_model=REL, relative_k=0.9, bounded=True, bounds_from_data=True, margin=1.0), "margin"),
        (dict(error_model=REL, relative_k=0.9, bounded=True, lower_bound=0.0, upper_bound=1.0), "lower_bound"),
    ],
)
def test_settings_refuse_bad_parameters(kw, parameter):
    with pytest.raises(ParameterError) as info:
        settings(**kw)
    assert info.value.parameter == parameter


@pytest.mark.parametrize(
    "kw, values, parameter, words",
    [
        (dict(), [1.0, -2.0], "values", "negative"),
        (dict(error_model=REL, relative_k=0.9), [1.0, 0.0], "values", "0"),
        (dict(), [1.0, np.nan], "values", "NaN"),
        (dict(), [1e308, 1e308], "values", "add up to more"),  # one cell's total overflows to inf
        (dict(bounded=True, lower_bound=0.0, upper_bound=10.0), [1.0, 11.0], "upper_bound", "outside"),
        (dict(bounded=True, lower_bound=2.0, upper_bound=10.0), [1.0, 3.0], "lower_bound", "outside"),
        (dict(bounded=True, bounds_from_data=True), [0.0, 3.0], "margin", "gamma"),
        # a mean beyond 2**52 noise-grid steps from 0: the step grows with c (absolute) and with -log k (relative)
        (dict(interval=1e-12), [1e6, 1e6], "values", "too large for the interval c; rescale them or raise c"),
        (dict(error_model=REL, relative_k=1 - 1e-12), [1e300, 1e300], "relative_k", "k is too near 1; lower it"),
    ],
)
def test_values_the_theory_does_not_cover_are_refused(kw, values, parameter, words):
    n = len(values)
    with pytest.raises(ParameterError, match=words) as info:
        pf.pufferfish_grid(
            np.zeros(n), np.zeros(n), np.array(values), GridSpec(1.0), settings(**kw), np.random.default_rng(0)
        )
    assert info.value.parameter == parameter
