"""Utility of fully synthetic marked points: the combining rules and the interval overlap against hand computations,
the IRLS fits against closed forms and the score equations, separation and empty groups, and the L-function bands
(core.marked.combining, core.marked.utility)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm, t

from spatial_privacy.core.marked.combining import (
    NO_RECORDS,
    UNSTABLE_DF,
    Fit,
    combine,
    compare,
    logistic_design,
    logistic_regression,
    numeric_regression,
    overlap,
)
from spatial_privacy.core.marked.utility import l_function_bands
from spatial_privacy.core.metrics.kfunction import k_function
from spatial_privacy.core.window import Window

# -- combining rules ------------------------------------------------------------------------------------------


def test_combining_rules_by_hand():
    # q = 1, 2, 3 and u = 0.5 each: qbar = 2, b_m = ((1-2)^2 + 0 + (3-2)^2) / 2 = 1, ubar = 0.5,
    # T_f = (1 + 1/3) * 1 - 0.5 = 5/6, nu_f = 2 (1 - 3 * 0.5 / (4 * 1))^2 = 2 * 0.625^2 = 0.78125
    c = combine([1.0, 2.0, 3.0], [0.5, 0.5, 0.5], 100, 100)
    assert (c.qbar, c.b_m, c.ubar, c.m, c.adjusted) == (2.0, 1.0, 0.5, 3, False)
    assert c.total == pytest.approx(5 / 6) and c.df == pytest.approx(0.78125)
    half = t.ppf(0.975, 0.78125) * math.sqrt(5 / 6)
    assert (c.lower, c.upper) == (pytest.approx(2 - half), pytest.approx(2 + half))
    # q = 1, 1.1, 0.9 and u = 1: b_m = 0.01, T_f = 4/3 * 0.01 - 1 < 0: T* = (n_syn / n) ubar = (50 / 100) * 1
    c = combine([1.0, 1.1, 0.9], [1.0, 1.0, 1.0], 50, 100)
    assert c.adjusted and c.total == pytest.approx(0.5) and c.df == math.inf
    assert c.upper - c.qbar == pytest.approx(norm.ppf(0.975) * math.sqrt(0.5))
    # a set where the coefficient is not estimable is left out; fewer than 2 sets: no combination
    c = combine([1.0, np.nan, 3.0], [0.5, np.nan, 0.5], 100, 100)
    assert c.m == 2 and c.qbar == 2.0
    assert math.isnan(combine([1.0, np.nan], [0.5, np.nan], 1, 1).qbar)


def test_unstable_combination_is_flagged_with_the_adjusted_interval_beside_it():
    """(1 + 1/m) b_m only a little above ubar: T_f near 0, nu_f collapses and the t interval explodes.
    m = 5, q = 3000 + 20 (-2, -1, 0, 1, 2), u = 800, 850, ..., 1000 (n_syn = n = 8348), by hand:
    qbar = 3000, b_m = (1600 + 400 + 0 + 400 + 1600) / 4 = 1000, ubar = 900, T_f = 1.2 * 1000 - 900 = 300,
    nu_f = 4 (1 - 5 * 900 / (6 * 1000))^2 = 4 * 0.25^2 = 0.25 < 3: unstable; the rule's interval is
    3000 -/+ t_{0.25, 0.975} sqrt(300) = 3000 -/+ 43,640.15 * 17.32 (about -/+ 755,900), kept as it is; the adjusted
    T* = (n_syn / n) ubar = 900, interval 3000 -/+ 1.959964 * 30 = [2941.2, 3058.8]."""
    q = 3000.0 + 20.0 * np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    u = np.array([800.0, 850.0, 900.0, 950.0, 1000.0])
    c = combine(q, u, 8348, 8348)
    assert (c.qbar, c.b_m, c.ubar, c.m, c.adjusted) == (3000.0, 1000.0, 900.0, 5, False)
    assert c.total == pytest.approx(300.0) and c.df == pytest.approx(0.25)
    assert c.unstable and UNSTABLE_DF == 3.0
    half = t.ppf(0.975, 0.25) * math.sqrt(300.0)
    assert half == pytest.approx(43640.149 * math.sqrt(300.0), rel=1e-6)  # the rule, not replaced
    assert (c.lower, c.upper) == (pytest.approx(3000.0 - half), pytest.approx(3000.0 + half))
    assert (c.adjusted_lower, c.adjusted_upper) == (
        pytest.approx(3000.0 - 1.959964 * 30.0, abs=1e-4),
        pytest.approx(3000.0 + 1.959964 * 30.0, abs=1e-4),
    )
    # the same estimates 10 times less variable within the sets: ubar = 90, nu_f = 4 (1 - 450 / 6000)^2 = 3.4225
    stable = combine(q, u / 10.0, 8348, 8348)
    assert stable.df == pytest.approx(3.4225) and not stable.unstable
    # T_f <= 0 keeps its adjusted rule and is not flagged as well
    assert not combine([1.0, 1.1, 0.9], [1.0, 1.0, 1.0], 50, 100).unstable
    # in the comparison: the confidential Wald interval 3010 -/+ 1.959964 * 20 lies inside the adjusted one, so
    # J_adjusted = (1 + (2 * 1.959964 * 20) / (2 * 1.959964 * 30)) / 2 = (1 + 2/3) / 2 = 5/6; against the rule's
    # interval J = (1 + 39.2 / 755,900) / 2, about 1/2
    original = Fit(("fined=0",), np.array([3010.0]), np.array([400.0]), (None,), 8348, "ols")
    synthetic = [Fit(("fined=0",), np.array([qi]), np.array([ui]), (None,), 8348, "ols") for qi, ui in zip(q, u)]
    (row,) = compare(original, synthetic)
    assert row.combined.unstable and row.adjusted_overlap == pytest.approx(5 / 6)
    assert row.overlap == pytest.approx(0.5 * (1 + 1.959964 * 20 / half), rel=1e-5)


def test_overlap_by_hand():
    # [0, 2] and [1, 4]: the overlap [1, 2] has length 1, J = (1/2 + 1/3) / 2
    assert overlap(0, 2, 1, 4) == pytest.approx(5 / 12)
    assert overlap(0, 2, 0, 2) == 1.0
    assert overlap(0, 1, 2, 3) == 0.0  # disjoint: 0, not negative
    assert overlap(-1, 3, 0, 1) == pytest.approx((1 / 4 + 1) / 2)  # one inside the other
    assert math.isnan(overlap(0, np.nan, 0, 1))


# -- regressions ----------------------------------------------------------------------------------------------


def test_logistic_fit_of_a_saturated_model_is_the_group_log_odds():
    """Indicators of the groups of the other field, no intercept: the MLE is the group's log odds log(a/b) with
    variance 1/a + 1/b (a, b: records with and without the level)."""
    levels = (("A", "x"), ("A", "y"), ("B", "x"), ("B", "y"), ("C", "x"), ("C", "y"))
    rng = np.random.default_rng(2)
    index = rng.choice(6, 900, p=[0.1, 0.2, 0.25, 0.05, 0.3, 0.1])
    design = logistic_design(("g", "e"), levels, "e", "y")
    assert design.names == ("g=A", "g=B", "g=C") and design.title == "logit P(e=y)"
    fit = logistic_regression(design, index)
    for g, (no, yes) in enumerate([(0, 1), (2, 3), (4, 5)]):
        a, b = (index == yes).sum(), (index == no).sum()
        assert fit.coef[g] == pytest.approx(math.log(a / b), abs=1e-10)
        assert fit.var[g] == pytest.approx(1 / a + 1 / b, rel=1e-8)
    # one field only: the intercept is the overall log odds
    single = logistic_design(("e",), (("x",), ("y",)), "e", "y")
    fit = logistic_regression(single, index % 2)
    a, b = (index % 2 == 1).sum(), (index % 2 == 0).sum()
    assert single.names == ("(intercept)",) and fit.coef[0] == pytest.approx(math.log(a / b), abs=1e-10)


def test_logistic_fit_with_a_numeric_mark_solves_the_score_equations():
    levels = (("A", 0), ("A", 1), ("B", 0), ("B", 1))
    rng = np.random.default_rng(4)
    n = 2000
    group = rng.integers(0, 2, n)
    z = rng.normal(50.0, 10.0, n)
    p = 1 / (1 + np.exp(-(np.where(group == 0, -2.0, 1.0) + 0.03 * z)))
    event = (rng.random(n) < p).astype(int)
    index = 2 * group + event
    design = logistic_design(("g", "e"), levels, "e", 1, "z")
    fit = logistic_regression(design, index, z)
    xm = np.column_stack([group == 0, group == 1, z]).astype(float)
    mu = 1 / (1 + np.exp(-xm @ fit.coef))
    score = xm.T @ (event - mu)
    assert np.abs(score / np.abs(xm).sum(axis=0)).max() < 1e-9  # the MLE's estimating equations hold
    info = xm.T @ (xm * (mu * (1 - mu))[:, None])
    np.testing.assert_allclose(fit.var, np.diag(np.linalg.inv(info)), rtol=1e-6)
    # the truth lies within 4 standard errors (a 6e-5 chance per coefficient of failing for a correct fit)
    assert (np.abs(fit.coef - [-2.0, 1.0, 0.03]) < 4 * np.sqrt(fit.var)).all()


def test_separation_and_empty_groups_give_nan_with_a_reason():
    levels = (("A", 0), ("A", 1), ("B", 0), ("B", 1), ("C", 0), ("C", 1))
    design = logistic_design(("g", "e"), levels, "e", 1)
    index = np.array([0, 1, 1, 0, 2, 2, 2] + [0, 1] * 5)  # B: all without the level; C: no record
    fit = logistic_regression(design, index)
    assert math.isfinite(fit.coef[0]) and fit.reasons[0] is None
    assert math.isnan(fit.coef[1]) and "separation" in fit.reasons[1] and "-infinity" in fit.reasons[1]
    assert math.isnan(fit.coef[2]) and fit.reasons[2] == NO_RECORDS
    # the estimable coefficient is that of the fit without the separated group
    alone = logistic_regression(design, index[index < 2])
    assert fit.coef[0] == pytest.approx(alone.coef[0])
    # combined over sets: an empty group in one set is left out there
    original = logistic_regression(design, np.array([0, 1, 1, 0, 2, 3, 2, 3, 4, 5, 5, 4, 4]))
    rows = compare(original, [fit, original, original])
    assert rows[1].combined.m == 2 and "not estimable in 1 of 3 sets" in rows[1].note


def test_numeric_regressions_are_group_means_and_log_means():
    rng = np.random.default_rng(6)
    index = rng.integers(0, 3, 400)
    index[:3] = [0, 1, 2]
    y = rng.poisson(np.array([4.0, 7.0, 20.0])[index]).astype(float)
    labels = ["a", "b", "c", "d"]  # d: no record
    ols = numeric_regression(index, y, labels, "ols")
    s2 = sum(((y[index == k] - y[index == k].mean()) ** 2).sum() for k in range(3)) / (400 - 3)
    for k in range(3):
        assert ols.coef[k] == pytest.approx(y[index == k].mean())
        assert ols.var[k] == pytest.approx(s2 / (index == k).sum())
    assert math.isnan(ols.coef[3]) and ols.reasons[3] == NO_RECORDS
    poisson = numeric_regression(index, y, labels, "poisson")
    for k in range(3):  # Poisson MLE on indicators: log of the group mean, variance 1 / (group total)
        assert poisson.coef[k] == pytest.approx(math.log(y[index == k].mean()), abs=1e-10)
        assert poisson.var[k] == pytest.approx(1 / y[index == k].sum(), rel=1e-8)
    assert math.isnan(poisson.coef[3]) and poisson.reasons[3] == NO_RECORDS


# -- L-function bands -----------------------------------------------------------------------------------------


def _csr(rng, n):
    return rng.random(n), rng.random(n)


def test_band_of_sets_from_the_same_process_contains_the_truth():
    """Confidential and 39 synthetic sets are Poisson patterns of 200 points on the unit square, each point's mark
    0 or 1 with probability 1/2, so every group is a Poisson pattern and L(r) = r. The band is the 2.5% and
    97.5% quantiles of 39 estimates (between the 1st-2nd and 38th-39th order statistics), so r falls outside it
    only if at least 38 of the 39 estimates lie on one side of r. For r from 0.03 on, a group of ~100 points has
    ~28 expected ordered pairs within r, and P(L_hat < r) is within 0.5 +/- 0.1 (Poisson-like pair counts; the
    isotropic estimator is unbiased for K, the square root biases L by far less than its spread), so that
    probability is below 2 * 40 * 0.6^38 ~ 3e-7 per radius and group: 20 radii x 3 groups give < 2e-5."""
    rng = np.random.default_rng(12)
    sets, n = 39, 200
    x, y = _csr(rng, n)
    index = rng.integers(0, 2, n)
    sx, sy = _csr(rng, sets * n)
    sindex = rng.integers(0, 2, sets * n)
    sset = np.repeat(np.arange(1, sets + 1), n)
    window = Window.rectangle(0.0, 0.0, 1.0, 1.0)
    radii = np.linspace(0.03, 0.25, 20)
    result = l_function_bands(x, y, index, sx, sy, sindex, sset, sets, window, radii)
    assert len(result.bands) == 3 and [b.group for b in result.bands] == [-1, 0, 1]
    for band in result.bands:
        assert band.sets_used == sets and band.note is None
        assert ((band.lower <= radii) & (radii <= band.upper)).all()
    # the band and mean are those of the sets' own K-functions
    overall = result.bands[0]
    first = k_function(sx[sset == 1], sy[sset == 1], window, radii).L
    np.testing.assert_allclose(overall.synthetic[0], first)
    np.testing.assert_allclose(overall.mean, overall.synthetic.mean(axis=0))
    np.testing.assert_allclose(overall.original, k_function(x, y, window, radii).L)


def test_clustered_sets_leave_the_band():
    """Synthetic sets clustered into a quarter of the window: L_l(r) - r ~ 2r > 0.1 at r > 0.05, far outside the
    spread of the Poisson confidential pattern's L (sd ~ 0.005), so the confidential curve is flagged there."""
    rng = np.random.default_rng(13)
    sets, n = 19, 200
    x, y = _csr(rng, n)
    sx, sy = 0.5 * rng.random(sets * n), 0.5 * rng.random(sets * n)
    sset = np.repeat(np.arange(1, sets + 1), n)
    window = Window.rectangle(0.0, 0.0, 1.0, 1.0)
    radii = np.linspace(0.05, 0.2, 10)
    result = l_function_bands(x, y, np.zeros(n, int), sx, sy, np.zeros(sets * n, int), sset, sets, window, radii)
    assert result.bands[0].outside.all()


def test_small_groups_and_points_outside_the_window():
    rng = np.random.default_rng(14)
    x, y = _csr(rng, 50)
    index = np.zeros(50, int)
    index[0] = 1  # combination 1: a single confidential record
    sx, sy = _csr(rng, 100)
    sindex = np.zeros(100, int)
    sindex[[0, 1, 2]] = 1  # two records of combination 1 in set 1, one in set 2
    sset = np.repeat([1, 2], 50)
    window = Window.rectangle(0.0, 0.0, 1.0, 1.0)
    result = l_function_bands(x, y, index, sx, sy, sindex, sset, 2, window)
    band = result.bands[2]
    assert band.n == 1 and "no K-function" in band.note and np.isnan(band.original).all()
    assert band.sets_used == 1 and not band.outside.any()
    assert result.r[-1] == pytest.approx(0.25)  # spatstat's rule: min(1/4, sqrt(1000 / (pi 50)))
    from spatial_privacy.core.errors import ParameterError

    with pytest.raises(ParameterError) as raised:
        l_function_bands(x, y, index, sx + 0.5, sy, sindex, sset, 2, window)
    assert raised.value.parameter == "synthetic"
