"""Type S and Type A risks (core.marked.risk, Quick, Holan, Wikle & Reiter eqs. 8-9) against a brute-force double
loop over records and synthetic records, with ties at exactly eps_s and eps_a and zero denominators of both
kinds; and on the real enterprises against a vectorised count of every pair."""

from __future__ import annotations

import numpy as np
import pytest

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.marked import risk as risk_module
from spatial_privacy.core.marked.risk import marked_risk


def brute_force(x, y, index, numeric, sx, sy, sindex, snumeric, sset, sets, eps_s, eps_a):
    """Eqs. 8-9 by a plain double loop: NaN where the denominator is 0."""
    n = len(x)
    type_s = np.full((n, sets), np.nan)
    type_a = np.full((n, sets), np.nan)
    for i in range(n):
        for s in range(sets):
            close = similar = both = 0
            for j in range(len(sx)):
                if sset[j] != s + 1:
                    continue
                near = np.hypot(sx[j] - x[i], sy[j] - y[i]) <= eps_s
                alike = sindex[j] == index[i] and (numeric is None or abs(snumeric[j] - numeric[i]) <= eps_a)
                close += near
                similar += alike
                both += near and alike
            if close:
                type_s[i, s] = both / close
            if similar:
                type_a[i, s] = both / similar
    return type_s, type_a


@pytest.fixture
def grid_data():
    """Records and 3 synthetic sets on an integer grid (distances such as 3-4-5 and 2 fall exactly on eps_s = 2
    or 5; numeric marks are whole numbers, so differences fall exactly on eps_a = 2). Record 0 lies far from every
    synthetic record (Type S denominator 0 in every set); combination 3 occurs only in set 1 (Type A denominator 0
    in sets 2 and 3)."""
    rng = np.random.default_rng(3)
    n, m, sets = 30, 150, 3
    x = rng.integers(0, 12, n).astype(float)
    y = rng.integers(0, 12, n).astype(float)
    x[0], y[0] = 100.0, 100.0
    index = rng.integers(0, 3, n)
    index[1] = 3
    numeric = rng.integers(0, 8, n).astype(float)
    sx = rng.integers(0, 12, m).astype(float)
    sy = rng.integers(0, 12, m).astype(float)
    sset = np.concatenate([[1, 2, 3], rng.integers(1, sets + 1, m - 3)])
    sindex = rng.integers(0, 3, m)
    sindex[0] = 3  # set 1
    snumeric = rng.integers(0, 8, m).astype(float)
    return x, y, index, numeric, sx, sy, sindex, snumeric, sset, sets


@pytest.mark.parametrize("eps_s", [2.0, 5.0])
@pytest.mark.parametrize("with_numeric", [True, False])
def test_equals_the_double_loop_with_ties_and_zero_denominators(grid_data, eps_s, with_numeric):
    x, y, index, numeric, sx, sy, sindex, snumeric, sset, sets = grid_data
    num, snum, eps_a = (numeric, snumeric, 2.0) if with_numeric else (None, None, None)
    # the ties are there: synthetic records at exactly eps_s from a record, numeric differences of exactly eps_a
    d = np.hypot(sx[None, :] - x[:, None], sy[None, :] - y[:, None])
    assert (d == eps_s).sum() > 20
    assert (np.abs(snumeric[None, :] - numeric[:, None]) == 2.0).sum() > 100
    result = marked_risk(x, y, index, num, sx, sy, sindex, snum, sset, sets, eps_s, eps_a)
    type_s, type_a = brute_force(x, y, index, num, sx, sy, sindex, snum, sset, sets, eps_s, eps_a)
    np.testing.assert_allclose(result.type_s, type_s, rtol=0, atol=1e-15, equal_nan=True)
    np.testing.assert_allclose(result.type_a, type_a, rtol=0, atol=1e-15, equal_nan=True)
    # zero denominators: record 0 has no close synthetic record in any set, record 1 (combination 3) no similar
    # one in sets 2 and 3
    assert np.isnan(result.type_s[0]).all() and result.sets_s[0] == 0 and result.undefined_s >= 1
    assert np.isnan(result.type_a[1, 1:]).all() and result.sets_a[1] <= 1
    assert np.isnan(result.quantiles_s()[0]).all()
    finite = np.isfinite(result.type_s)
    assert ((result.type_s[finite] >= 0) & (result.type_s[finite] <= 1)).all()
    finite = np.isfinite(result.type_a)
    assert ((result.type_a[finite] >= 0) & (result.type_a[finite] <= 1)).all()
    q = result.quantiles_a()
    ok = np.isfinite(q[:, 1])
    assert (q[ok, 0] <= q[ok, 1]).all() and (q[ok, 1] <= q[ok, 2]).all()
    # quantiles over the sets used only (the paper's second option)
    for i in range(x.size):
        used = result.type_s[i][np.isfinite(result.type_s[i])]
        if used.size:
            assert result.quantiles_s()[i, 1] == pytest.approx(np.median(used))


def test_blocks_of_pairs_give_the_same_risks(grid_data, monkeypatch):
    x, y, index, numeric, sx, sy, sindex, snumeric, sset, sets = grid_data
    whole = marked_risk(x, y, index, numeric, sx, sy, sindex, snumeric, sset, sets, 5.0, 1.0)
    monkeypatch.setattr(risk_module, "PAIR_BUDGET", 7)
    blocks = marked_risk(x, y, index, numeric, sx, sy, sindex, snumeric, sset, sets, 5.0, 1.0)
    np.testing.assert_array_equal(whole.type_s, blocks.type_s)
    np.testing.assert_array_equal(whole.type_a, blocks.type_a)
    np.testing.assert_array_equal(whole.close, blocks.close)


def test_enterprises_against_a_vectorised_count(enterprise_arrays):
    """500 real enterprises (production as the numeric mark, a 3-level category from it) against 4 sets made of
    permuted, jittered records: every pair counted with a full distance matrix."""
    x, y, production = enterprise_arrays
    rng = np.random.default_rng(8)
    keep = rng.choice(x.size, 500, replace=False)
    x, y, production = x[keep], y[keep], production[keep]
    index = np.digitize(production, np.quantile(production, [1 / 3, 2 / 3]))
    sets = 4
    order = np.concatenate([rng.permutation(x.size) for _ in range(sets)])
    sx = x[order] + rng.normal(0, 300, order.size)
    sy = y[order] + rng.normal(0, 300, order.size)
    sindex, snum = index[order], production[order] * np.exp(rng.normal(0, 0.2, order.size))
    sset = np.repeat(np.arange(1, sets + 1), x.size)
    eps_s, eps_a = 400.0, 300.0
    result = marked_risk(x, y, index, production, sx, sy, sindex, snum, sset, sets, eps_s, eps_a)
    for s in range(sets):
        mine = sset == s + 1
        near = np.hypot(sx[mine][None, :] - x[:, None], sy[mine][None, :] - y[:, None]) <= eps_s
        alike = (sindex[mine][None, :] == index[:, None]) & (np.abs(snum[mine][None, :] - production[:, None]) <= eps_a)
        both = (near & alike).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            np.testing.assert_allclose(
                result.type_s[:, s], np.where(near.any(1), both / near.sum(1), np.nan), equal_nan=True, rtol=1e-14
            )
            np.testing.assert_allclose(
                result.type_a[:, s], np.where(alike.any(1), both / alike.sum(1), np.nan), equal_nan=True, rtol=1e-14
            )
    assert 0 < np.nanmax(result.type_s) <= 1


@pytest.mark.parametrize(
    "change, parameter",
    [
        ({"syn_index": np.array([-1, 0, 1, 0])}, "syn_index"),
        ({"syn_set": np.array([1, 2, 3, 2])}, "syn_set"),
        ({"syn_set": np.array([1, 1, 1, 1])}, "syn_set"),  # set 2 has no record
        ({"attribute_tolerance": None}, "attribute_tolerance"),
        ({"spatial_tolerance": 0.0}, "spatial_tolerance"),
        ({"numeric": None}, "numeric"),
        ({"syn_numeric": np.array([1.0, np.nan, 2.0, 3.0])}, "syn_numeric"),
    ],
)
def test_bad_arguments_name_the_parameter(change, parameter):
    args = dict(
        x=[0.0, 1.0],
        y=[0.0, 1.0],
        index=np.array([0, 1]),
        numeric=np.array([1.0, 2.0]),
        syn_x=[0.0, 1.0, 2.0, 3.0],
        syn_y=[0.0, 1.0, 2.0, 3.0],
        syn_index=np.array([0, 1, 1, 0]),
        syn_numeric=np.array([1.0, 2.0, 2.0, 3.0]),
        syn_set=np.array([1, 2, 1, 2]),
        sets=2,
        spatial_tolerance=1.0,
        attribute_tolerance=1.0,
    )
    args.update(change)
    with pytest.raises(ParameterError) as raised:
        marked_risk(**args)
    assert raised.value.parameter == parameter


def test_risk_summary_counts_by_hand():
    """RiskSummary of three records' (q05, median, q95): one with no set (NaN), one estimated from 1 of 2 sets."""
    import math

    from spatial_privacy.core.marked.risk import RiskSummary

    quantiles = np.array([[0.0, 0.1, 0.3], [0.2, 0.5, 0.9], [np.nan, np.nan, np.nan]])
    summary = RiskSummary.of(quantiles, np.array([2, 1, 0]), 2)
    assert (summary.largest_median, summary.median_of_medians, summary.largest_q95) == (0.5, 0.3, 0.9)
    assert (summary.above_threshold, summary.undefined, summary.fewer_sets) == (1, 1, 2)
    empty = RiskSummary.of(np.full((2, 3), np.nan), np.array([0, 0]), 2)
    assert math.isnan(empty.largest_median) and empty.undefined == 2


def test_synthetic_level_is_the_geometric_mean_for_the_log_normal_model():
    from spatial_privacy.core.marked.numeric import synthetic_level

    assert synthetic_level("log_normal", np.array([1.0, 100.0])) == pytest.approx(10.0)
    assert synthetic_level("normal", np.array([1.0, 100.0])) == 50.5
    assert np.isnan(synthetic_level("normal", np.array([])))
