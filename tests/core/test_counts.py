"""Quick's Poisson-gamma mechanism with prior predictive truncation (core/counts.py, counts_calibration.py,
counts_sampler.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core import counts, counts_calibration, counts_sampler
from spatial_privacy.core.errors import ParameterError

# The paper's Figure 1 example: T = 100 events, prior expectations (15, 85), epsilon = 1.
FIG1_N = np.array([1000.0, 1000.0])
FIG1_E = np.array([15.0, 85.0])


def test_figure1_untruncated_matches_the_paper():
    cal = counts_calibration.calibrate(FIG1_N, FIG1_E, 100, 1.0, truncate=False, rule="paper")
    a1, a2 = cal.a
    # Group 2: r_2 >= 1, so nu_2 = 1 and eq. (7) is a_2 >= T / (e - 1) = 58.198 ("a_2 > 58").
    assert a2 == pytest.approx(100 / (math.e - 1), rel=1e-6)
    # Group 1 solves a_1 = T / (e / nu_1(a_1) - 1) with r_1 = (a_2/85 + 2) / (a_1/15 + 2) ("a_1 > 116").
    r1 = (a2 / 85 + 2) / (a1 / 15 + 2)
    nu1 = (100 * (1 - r1) + a2 + 99) / (a2 + 99)
    assert a1 == pytest.approx(100 / (math.e / nu1 - 1), rel=1e-6)
    assert 116 < a1 < 117
    assert cal.converged and cal.slack >= 0


def test_figure1_truncated_bounds_and_priors():
    # Eq. (9) with the usual inverse CDF min{k: F(k) >= p} at p = alpha/2 and 1 - alpha/2:
    lower, upper = counts_calibration.prior_predictive_bounds(FIG1_E, 1e-4, 1.0, 100)
    assert lower.tolist() == [3, 52]
    assert upper.tolist() == [32, 100]  # Poisson(85)'s quantile 123 is capped at the total
    # The paper's U_1 = 30 is the quantile at 1 - 2 alpha: F(30 | 15) = 0.99980 >= 0.9998 > F(29 | 15).
    assert stats.poisson.ppf(1 - 2e-4, 15) == 30
    # Eq. (14) with (L_1, U_1) = (3, 30) and a_2 at the floor 0.001 gives 14.179, the paper's "a_1 > 14.17".
    need = counts_calibration.truncated_requirement(np.array([0.001]), np.array([3]), np.array([30]), 100, 1.0)
    assert need[0] == pytest.approx(14.179, abs=5e-4)
    # Our calibration with the usual quantile (U_1 = 32): a_2 stays at the floor, and a_1 is eq. (14) written
    # out, (U - L) / (e^eps / nu - 1) - 2L with nu = (2T - 2L + a_2 - 1) / (2T - U - L + a_2 - 1) (= 16.14).
    cal = counts_calibration.calibrate(FIG1_N, FIG1_E, 100, 1.0, alpha=1e-4, rule="paper", allow_dominant=True)
    assert cal.a[1] == pytest.approx(counts_calibration.DEFAULT_FLOOR, rel=1e-6)
    a2 = cal.a[1]
    nu = (200 - 6 + a2 - 1) / (200 - 32 - 3 + a2 - 1)
    assert cal.a[0] == pytest.approx(29 / (math.e / nu - 1) - 6, rel=1e-6)


def test_figure1_paper_priors_are_private_by_enumeration():
    """Eq. (13) for two groups: the exact privacy loss over all y, neighbours x and z stays below epsilon."""
    for truncate in (False, True):
        cal = counts_calibration.calibrate(
            FIG1_N, FIG1_E, 100, 1.0, truncate=truncate, alpha=1e-4, rule="paper", allow_dominant=True
        )
        assert counts.privacy_loss_by_enumeration(FIG1_N, cal) <= 1.0


def _random_problems(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        groups = int(rng.integers(2, 5))
        total = int(rng.integers(4, 20 if groups <= 3 else 10))
        n = rng.uniform(10, 1000, groups)
        e = rng.dirichlet(np.full(groups, 2.0)) * total * rng.uniform(0.7, 1.3)
        yield (
            n,
            e,
            total,
            float(rng.choice([0.5, 1.0, 2.0])),
            float(rng.choice([0.01, 0.1, 0.3])),
            float(rng.choice([1.0, 1.5])),
        )


@pytest.mark.parametrize("truncate", [False, True])
def test_pairwise_priors_are_private_by_enumeration(truncate):
    """The default rule's guarantee, checked exactly (max over y, neighbouring x and z) on small problems."""
    checked = 0
    for n, e, total, eps, alpha, c in _random_problems(1, 25):
        try:
            cal = counts_calibration.calibrate(n, e, total, eps, truncate=truncate, alpha=alpha, c=c)
        except ParameterError as err:  # a box that cannot hold the total is refused, not calibrated
            assert err.parameter == "alpha"
            continue
        assert counts_calibration.certified_epsilon(cal) <= eps * (1 + 1e-9)
        assert counts.privacy_loss_by_enumeration(n, cal) <= eps
        checked += 1
    assert checked >= 15


def test_paper_rule_can_exceed_epsilon_with_three_groups():
    """Eq. (14) comes from the two-group reduction; with more groups the exact loss can exceed epsilon.
    This is why the pairwise rule is the default (see counts_calibration.calibrate)."""
    n = np.array([100.0, 100.0, 100.0, 100.0])
    e = np.array([1.66, 1.35, 1.44, 0.55])
    cal = counts_calibration.calibrate(n, e, 5, 1.0, truncate=False, rule="paper")
    assert counts.privacy_loss_by_enumeration(n, cal) > 1.0
    safe = counts_calibration.calibrate(n, e, 5, 1.0, truncate=False)
    assert counts.privacy_loss_by_enumeration(n, safe) <= 1.0


def _goodness_of_fit(draws: np.ndarray, z: np.ndarray, p: np.ndarray) -> float:
    index = {tuple(row): k for k, row in enumerate(z)}
    observed = np.zeros(len(z))
    for row in draws:
        observed[index[tuple(row)]] += 1
    expected = p * len(draws)
    big = expected >= 5  # pool the cells with small expectations into one
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp).pvalue


@pytest.mark.parametrize("truncate", [False, True])
def test_sampler_is_exact(truncate):
    """Draws against the enumerated distribution of eq. (4)/(10): chi-square at a fixed seed (level 0.001)."""
    n = np.array([200.0, 50.0, 400.0, 120.0])
    e = np.array([3.0, 1.0, 5.0, 3.0])
    y = np.array([1, 4, 6, 1])
    cal = counts_calibration.calibrate(n, e, int(y.sum()), 2.0, truncate=truncate, alpha=0.2)
    z, p = counts.mechanism_pmf(y, n, cal)
    release = counts.synthesize(y, n, cal, 20000, np.random.default_rng(7))
    assert np.all(release.synthetic.sum(axis=1) == y.sum())
    assert np.all((release.synthetic >= cal.lower) & (release.synthetic <= cal.upper))
    assert _goodness_of_fit(release.synthetic, z, p) > 1e-3


def test_sampler_is_exact_where_rejection_collapses():
    """True counts far from the prior: eq. (8)'s multinomial lands in the box less than 0.5% of the time, yet the
    sampler's draws still follow the exact distribution."""
    n = np.full(9, 100.0)
    e = np.full(9, 2.0)
    y = np.array([18, 0, 0, 0, 0, 0, 0, 0, 0])
    cal = counts_calibration.calibrate(n, e, 18, 2.0, alpha=0.45)
    shapes = counts.posterior_shapes(y, cal)
    rng = np.random.default_rng(3)
    lam = rng.gamma(shapes, 1.0 / (n + cal.b), size=(20000, 9))  # eq. (8)'s multinomial, unconstrained
    draws = np.array([rng.multinomial(18, row / row.sum()) for row in lam * n])
    inside = np.mean(np.all((draws >= cal.lower) & (draws <= cal.upper), axis=1))
    assert inside < 0.005
    z, p = counts.mechanism_pmf(y, n, cal)
    release = counts.synthesize(y, n, cal, 20000, np.random.default_rng(8))
    assert _goodness_of_fit(release.synthetic, z, p) > 1e-3
    assert release.outside == int(np.sum((y < cal.lower) | (y > cal.upper))) >= 1


def test_large_release_respects_total_and_box():
    rng = np.random.default_rng(11)
    groups = 3000
    n = rng.lognormal(7, 1.2, groups)
    rate = rng.lognormal(-7, 0.8, groups)
    y = rng.poisson(n * rate)
    e = n * rate * y.sum() / (n * rate).sum()
    cal = counts_calibration.calibrate(n, e, int(y.sum()), 1.0)
    release = counts.synthesize(y, n, cal, 50, np.random.default_rng(12))
    assert release.synthetic.shape == (50, groups)
    assert np.all(release.synthetic.sum(axis=1) == y.sum())
    assert np.all((release.synthetic >= cal.lower) & (release.synthetic <= cal.upper))
    # Posterior predictive means: a group with more events gets more synthetic events on average.
    syn_mean = release.synthetic.mean(axis=0)
    assert stats.spearmanr(syn_mean, y).statistic > 0.5


def sampler_inputs(groups: int, seed: int):
    """Shapes, q, box and total of :class:`counts_sampler.ExactSampler` for ``groups`` groups of a 3000-group-like
    release."""
    rng = np.random.default_rng(seed)
    n = rng.lognormal(7, 1.2, groups)
    rate = rng.lognormal(-7, 0.8, groups)
    y = rng.poisson(n * rate)
    cal = counts_calibration.calibrate(n, n * rate * y.sum() / (n * rate).sum(), int(y.sum()), 1.0)
    return counts.posterior_shapes(y, cal), counts.predictive_q(n, cal), cal.lower, cal.upper, cal.total


def test_the_tree_reports_progress_within_its_levels_and_stops_when_progress_raises(monkeypatch):
    """Each level's convolutions run in blocks (a wide pair in ranges of its values) with a progress call after
    each: the sampler is the same whatever the blocks, the fractions rise, and an exception raised in a call (a
    Cancel) stops the build."""
    args = sampler_inputs(3000, 21)
    whole = counts_sampler.ExactSampler(*args)
    monkeypatch.setattr(counts_sampler, "_CONVOLVE_BLOCK", 2000)  # far below one top-level pair's work
    calls = []
    blocks = counts_sampler.ExactSampler(*args, progress=lambda fraction, message: calls.append((fraction, message)))
    for name in ("lo", "hi", "offsets", "values", "left", "right"):
        assert np.array_equal(getattr(blocks, name), getattr(whole, name)), name
    levels = math.ceil(math.log2(3000))
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and 0.0 <= fractions[0] and fractions[-1] <= 1.0
    assert sum(m == f"Building the exact sampler: level {levels} of {levels}" for _, m in calls) > 10

    class CancelledError(Exception):
        pass

    def cancel_at_the_top(fraction, message):
        if message.endswith(f"level {levels} of {levels}") and fraction > (levels - 1) / levels:
            raise CancelledError

    with pytest.raises(CancelledError):
        counts_sampler.ExactSampler(*args, progress=cancel_at_the_top)


def test_a_sampler_larger_than_the_memory_limit_is_refused_naming_the_groups(monkeypatch):
    args = sampler_inputs(3000, 21)
    size = counts_sampler.ExactSampler(*args).values.size
    monkeypatch.setattr(counts_sampler, "MAX_SAMPLER_VALUES", size // 2)
    with pytest.raises(
        ParameterError,
        match=r"3,000 groups .* larger than the [\d.]+ GB one run may use \(it passed that at level \d+ of 12",
    ) as err:
        counts_sampler.ExactSampler(*args)
    assert err.value.parameter == "groups"


def test_seed_reproduces_and_differs():
    y = np.array([3, 5, 2, 7])
    n = np.array([100.0, 200.0, 150.0, 300.0])
    e = n * y.sum() / n.sum()
    cal = counts_calibration.calibrate(n, e, int(y.sum()), 1.0, alpha=0.1)
    a = counts.synthesize(y, n, cal, 10, np.random.default_rng(5)).synthetic
    b = counts.synthesize(y, n, cal, 10, np.random.default_rng(5)).synthetic
    c = counts.synthesize(y, n, cal, 10, np.random.default_rng(6)).synthetic
    assert np.array_equal(a, b) and not np.array_equal(a, c)


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        (dict(epsilon=0.0), "epsilon"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(alpha=0.0), "alpha"),
        (dict(alpha=0.5), "alpha"),
        (dict(c=0.9), "c"),
        (dict(population=[100.0, 0.0, 50.0]), "population"),
        (dict(population=[100.0, np.nan, 50.0]), "population"),
        (dict(expected=[1.0, 0.0, 2.0]), "prior"),
    ],
)
def test_bad_settings_name_the_parameter(kwargs, parameter):
    args = dict(population=[100.0, 80.0, 50.0], expected=[3.0, 2.0, 1.0], total=6, epsilon=1.0, alpha=0.1, c=1.0)
    args.update(kwargs)
    with pytest.raises(ParameterError) as err:
        counts_calibration.calibrate(**args)
    assert err.value.parameter == parameter


@pytest.mark.parametrize("bad", [[1, -1, 3], [1.5, 2, 3], [1, np.nan, 3], [0, 0, 0]])
def test_bad_counts(bad):
    with pytest.raises(ParameterError) as err:
        counts.check_counts(bad)
    assert err.value.parameter == "counts"


def test_dominating_group_refused_by_the_paper_rule():
    with pytest.raises(ParameterError, match="Stratify further") as err:
        counts_calibration.calibrate(FIG1_N, FIG1_E, 100, 1.0, alpha=1e-4, rule="paper")
    assert err.value.parameter == "expected"


def test_box_that_cannot_hold_the_total_is_refused():
    with pytest.raises(ParameterError, match="cannot hold the total") as err:
        counts_calibration.calibrate([100.0, 100.0, 100.0], [1.0, 1.0, 1.0], 60, 1.0, alpha=0.01)
    assert err.value.parameter == "alpha"


def test_total_must_match_the_calibration():
    n = np.array([100.0, 100.0, 100.0])
    cal = counts_calibration.calibrate(n, [2.0, 2.0, 2.0], 6, 1.0, alpha=0.1)
    with pytest.raises(ParameterError, match="add up to"):
        counts.synthesize([1, 2, 4], n, cal, 1, np.random.default_rng(0))


def test_summary_of_a_release_that_repeats_the_truth():
    """A release equal to the true counts has rate correlation 1 and no count difference."""
    y = np.array([3, 5, 2, 7])
    n = np.array([100.0, 200.0, 150.0, 300.0])
    cal = counts_calibration.calibrate(n, n * y.sum() / n.sum(), int(y.sum()), 1.0, alpha=0.1)
    exact = counts.Release(synthetic=np.tile(y, (3, 1)).astype(np.int32), calibration=cal, outside=0)
    summary = counts.summarize(exact, y, n)
    assert summary.rate_correlation == pytest.approx(1.0)
    assert summary.mean_abs_difference == 0.0
    assert summary.min_a <= summary.median_a <= summary.max_a
    assert 0 < summary.prior_weight < 1
    assert summary.certified_epsilon <= 1.0 + 1e-9
    shifted = counts.Release(synthetic=np.tile(y[::-1], (3, 1)).astype(np.int32), calibration=cal, outside=0)
    assert counts.summarize(shifted, y, n).mean_abs_difference == pytest.approx(np.mean(np.abs(y[::-1] - y)))


def test_a_total_beyond_32_bits_is_synthesised_exactly():
    """A total of three billion (one huge group among small ones): the sampler's work space follows the groups'
    bounds, not the total (it used to allocate total + 1 doubles: MemoryError near 1e9), and the counts are
    64-bit (int32 would wrap above 2**31 - 1). Every set sums to the public total."""
    y = np.array([1, 3, 0, 2, 4, 3_000_000_000 - 10])
    n = np.array([100.0] * 5 + [1e11])
    e = n * 0.03
    e = e * y.sum() / e.sum()
    cal = counts_calibration.calibrate(n, e, int(y.sum()), 1.0)
    release = counts.synthesize(y, n, cal, 3, np.random.default_rng(2))
    assert release.synthetic.dtype == np.int64
    assert np.all(release.synthetic.sum(axis=1) == y.sum())
    assert np.all(release.synthetic[:, -1] > 2**31)
