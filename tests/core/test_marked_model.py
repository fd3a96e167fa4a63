"""Quick, Holan, Wikle & Reiter's marked point synthesis (core.marked) on real data: the sdcSpatial enterprises
(``fined``, ``production``) and dwellings (``unemployed``, ``consumption``; every 20th dwelling, 4,531 of 90,603,
so that the fit takes seconds) and spatstat's chicago crimes (``marks``: seven types, four with fewer than 10
records). Coarse meshes keep each fit to a few seconds; the benchmark uses the default mesh."""

from __future__ import annotations

import dataclasses
import math
import sqlite3
import struct

import numpy as np
import pytest

from spatial_privacy.core import mechanisms
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.marked.combinations import MAX_LEVELS, combinations, encode
from spatial_privacy.core.marked.model import fit_marked
from spatial_privacy.core.marked.numeric import check_numeric, fit_numeric
from spatial_privacy.core.marked.numeric_field import (
    HYPER_DRAWN,
    HYPER_FIXED,
    HYPER_PARTIAL,
    hyper_laplace,
    normal_posterior,
)
from spatial_privacy.core.marked.synthesis import Candidates, synthesize_marked
from spatial_privacy.core.window import Window

from .conftest import _ENVELOPE_DOUBLES, DATA, read_gpkg_points

#: two-sided 0.999 quantile of Student's t with 9 degrees of freedom: the bound on (original mean - mean of L = 10
#: synthetic set means) / (sd of the set means * sqrt(1 + 1/L)) if the original mean is one more draw of the
#: posterior predictive of a set mean (a posterior predictive check; one in a thousand fails by chance)
T9_999 = 4.781


def chicago():
    con = sqlite3.connect(f"file:{DATA / 'spatstat_chicago.gpkg'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT geom, marks FROM crimes").fetchall()
    finally:
        con.close()
    xs, ys, marks = [], [], []
    for blob, mark in rows:
        offset = 8 + 8 * _ENVELOPE_DOUBLES[(blob[3] >> 1) & 0b111]
        x, y = struct.unpack_from("<dd", blob, offset + 5)
        xs.append(x)
        ys.append(y)
        marks.append(mark)
    return np.array(xs), np.array(ys), marks


@pytest.fixture(scope="module")
def enterprises():
    x, y, fined = read_gpkg_points(DATA / "sdcspatial_enterprises.gpkg", "enterprises", "fined")
    production = read_gpkg_points(DATA / "sdcspatial_enterprises.gpkg", "enterprises", "production")[2]
    comb, index = combinations([fined.astype(int).tolist()], ["fined"])
    fit = fit_marked(x, y, comb, index, mechanisms.generator(11), 10, numeric=production, max_edge=700.0)
    syn = synthesize_marked(fit, mechanisms.generator(12))
    return x, y, production, comb, index, fit, syn


# -- combinations and the Dirichlet-multinomial (eq. 1) --------------------------------------------------


def test_combinations_are_the_observed_ones_sorted_with_labels_and_encode():
    comb, index = combinations([[1, 0, 1, 1, 0], ["b", "a", "a", "b", "b"]], ["fined", "size"])
    assert comb.levels == ((0, "a"), (0, "b"), (1, "a"), (1, "b"))
    assert comb.counts.tolist() == [1, 1, 1, 2] and index.tolist() == [3, 0, 2, 3, 1]
    assert comb.label(1) == "fined=0, size=b"
    # other records: 1.0 and True are the level 1 (QGIS reads a boolean field as bool or int); unseen -> -1
    assert encode([[True, 1.0, 0, 2], ["a", "b", "b", "a"]], comb).tolist() == [2, 3, 1, -1]


@pytest.mark.parametrize(
    "columns, fields, match",
    [
        ([[1, 1, 1]], ["flag"], "field 'flag' has a single value"),
        ([[1, None, 0, None]], ["flag"], "field 'flag' is NULL in 2 records"),
        ([[float("nan"), 1.0, 0.0]], ["flag"], "NULL in 1 records"),
        ([list(range(MAX_LEVELS + 1))], ["income"], "51 distinct values"),
        ([list(range(20)) * 11, [i // 20 for i in range(220)]], ["a", "b"], "220 observed combinations"),
    ],
)
def test_bad_category_fields_are_refused_naming_the_parameter(columns, fields, match):
    with pytest.raises(ParameterError, match=match) as error:
        combinations(columns, fields)
    assert error.value.parameter == "category_fields"


def test_dirichlet_draws_have_the_dirichlet_mean():
    # mean alpha / A, sd sqrt(p (1 - p) / (A + 1)): 4,000 draws put the mean within 4 sd / sqrt(4000)
    alpha = np.array([5.0, 0.2, 1.3])
    rng = mechanisms.generator(0)
    draws = np.array([mechanisms.dirichlet(rng, alpha) for _ in range(4000)])
    p = alpha / alpha.sum()
    sd = np.sqrt(p * (1 - p) / (alpha.sum() + 1))
    assert np.allclose(draws.sum(axis=1), 1.0)
    assert np.all(np.abs(draws.mean(axis=0) - p) < 4 * sd / math.sqrt(4000))


def test_synthetic_counts_follow_the_dirichlet_multinomial():
    _, _, marks = chicago()
    comb, _ = combinations([marks], ["marks"])
    rng = mechanisms.generator(1)
    counts = np.array([comb.draw_counts(rng) for _ in range(3000)])
    assert np.all(counts.sum(axis=1) == comb.n)
    shares = counts.mean(axis=0) / comb.n
    for k in range(comb.k):  # the mean of 3,000 independent shares within 4 of its sds (share_interval)
        low, high = comb.share_interval(k, sets=3000, z=4.0)
        assert low <= shares[k] <= high, comb.label(k)
    # the prior 1/K: posterior mean share (n_k + 1/K) / (N + 1)
    assert comb.share_interval(0, sets=10**9, z=0)[0] == pytest.approx((comb.counts[0] + 1 / 7) / (comb.n + 1))


# -- the fit and the sets -------------------------------------------------------------------------------


def test_enterprise_sets_have_n_records_and_the_combination_shares(enterprises):
    x, _, _, comb, _, fit, syn = enterprises
    assert fit.borrowed == [] and fit.sets == 10
    for ell in range(1, 11):
        in_set = syn.set == ell
        assert int(in_set.sum()) == x.size
        for k in range(comb.k):  # one set's share within 4 sds of the Dirichlet-multinomial (share_interval)
            low, high = comb.share_interval(k, sets=1, z=4.0)
            assert low <= np.mean(syn.index[in_set] == k) <= high
    assert fit.window.contains(syn.x, syn.y).all()


def test_enterprise_numeric_means_agree_with_their_posterior_predictive(enterprises):
    _, _, production, comb, index, fit, syn = enterprises
    for k in range(comb.k):
        component = fit.numeric.components[k]
        assert component.spatial and component.sigma > 0 and component.field_sd > 0
        means = np.array([syn.numeric[(syn.set == ell) & (syn.index == k)].mean() for ell in range(1, 11)])
        spread = means.std(ddof=1) * math.sqrt(1 + 1 / means.size)
        assert abs(production[index == k].mean() - means.mean()) <= T9_999 * spread, comb.label(k)


def test_dwellings_subsample_unemployed_and_consumption():
    x, y, unemployed = read_gpkg_points(DATA / "sdcspatial_dwellings.gpkg", "dwellings", "unemployed")
    consumption = read_gpkg_points(DATA / "sdcspatial_dwellings.gpkg", "dwellings", "consumption")[2]
    keep = np.arange(0, x.size, 20)
    x, y, unemployed, consumption = x[keep], y[keep], unemployed[keep], consumption[keep]
    comb, index = combinations([unemployed.astype(int).tolist()], ["unemployed"])
    xmin, ymin, xmax, ymax = x.min(), y.min(), x.max(), y.max()
    fit = fit_marked(
        x, y, comb, index, mechanisms.generator(2), 10, numeric=consumption, max_edge=max(xmax - xmin, ymax - ymin) / 20
    )
    syn = synthesize_marked(fit, mechanisms.generator(3))
    assert np.bincount(syn.set).tolist()[1:] == [x.size] * 10
    for k in range(comb.k):
        means = np.array([syn.numeric[(syn.set == ell) & (syn.index == k)].mean() for ell in range(1, 11)])
        spread = means.std(ddof=1) * math.sqrt(1 + 1 / means.size)
        assert abs(consumption[index == k].mean() - means.mean()) <= T9_999 * spread, comb.label(k)


def test_truncated_poisson_values_are_whole_and_in_the_public_range(enterprises):
    x, y, production, comb, index, _, _ = enterprises
    counts = np.round(np.log2(production))  # whole numbers 6 to 17
    with pytest.raises(ParameterError, match="needs the PUBLIC range") as error:
        fit_marked(x, y, comb, index, mechanisms.generator(4), 2, numeric=counts, numeric_model="truncated_poisson")
    assert error.value.parameter == "numeric_range"
    with pytest.raises(ParameterError, match="not whole numbers") as error:
        fit_marked(
            x,
            y,
            comb,
            index,
            mechanisms.generator(4),
            2,
            numeric=production,
            numeric_model="truncated_poisson",
            numeric_range=(0, 200),
        )
    assert error.value.parameter == "numeric_field"
    fit = fit_marked(
        x,
        y,
        comb,
        index,
        mechanisms.generator(4),
        5,
        numeric=counts,
        numeric_model="truncated_poisson",
        numeric_range=(0, 20),
        max_edge=700.0,
    )
    syn = synthesize_marked(fit, mechanisms.generator(5))
    assert syn.numeric.dtype.kind == "i" and syn.numeric.min() >= 0 and syn.numeric.max() <= 20
    for k in range(comb.k):
        means = np.array([syn.numeric[(syn.set == ell) & (syn.index == k)].mean() for ell in range(1, 6)])
        # t with 4 degrees of freedom, two-sided 0.999: 8.61
        assert abs(counts[index == k].mean() - means.mean()) <= 8.61 * means.std(ddof=1) * math.sqrt(1.2)


def test_log_normal_production_is_positive_and_keeps_the_geometric_means(enterprises):
    """production (skewness 6, all > 0): the normal model puts about a quarter of the synthetic values below zero
    and says so per combination; the log-normal model (the normal model of log y) makes them all positive. Its
    per-combination geometric mean exp(mean log y) passes the posterior predictive check of the normal model on the
    log scale: if mean(log y_k) is one more draw of a set's mean of log values, then (mean(log y_k) - mean of the
    L = 10 sets' means) / (sd of the set means * sqrt(1 + 1/L)) is t with 9 degrees of freedom, so |.| <= T9_999
    (one in a thousand fails by chance); on the original scale the two geometric means' ratio lies within
    exp(-/+ T9_999 * that spread)."""
    x, y, production, comb, index, fit, syn = enterprises
    shares = fit.numeric.negative_shares(syn.index, syn.numeric)
    assert [k for k, _ in shares] == list(range(comb.k))  # every combination's values are >= 0
    for k, share in shares:
        assert share == pytest.approx(np.mean(syn.numeric[syn.index == k] < 0))
        assert share > 0.1  # about 23% at this seed: the normal model's posterior predictive is far too wide at 0
    design = fit.pooled.fit_model.design
    weights = np.asarray(design.int_proj.T @ design.int_weights).ravel()
    spde, mesh, log_range = fit.pooled.model.spde, fit.pooled.mesh, float(fit.theta_hat[0])
    numeric = fit_numeric("log_normal", production, index, comb.k, spde, mesh, x, y, log_range, None, weights)
    log_fit = dataclasses.replace(fit, numeric=numeric)
    log_syn = synthesize_marked(log_fit, mechanisms.generator(12))
    assert log_syn.numeric.size == 10 * x.size and log_syn.numeric.min() > 0
    assert numeric.negative_shares(log_syn.index, log_syn.numeric) == []
    for k in range(comb.k):
        component = numeric.components[k]
        assert component.model == "normal" and component.mean == pytest.approx(np.log(production[index == k]).mean())
        logs = np.array(
            [np.log(log_syn.numeric[(log_syn.set == ell) & (log_syn.index == k)]).mean() for ell in range(1, 11)]
        )
        spread = logs.std(ddof=1) * math.sqrt(1 + 1 / logs.size)
        geometric = math.exp(component.mean)
        ratio = geometric / math.exp(logs.mean())
        assert math.exp(-T9_999 * spread) <= ratio <= math.exp(T9_999 * spread), comb.label(k)
    with pytest.raises(ParameterError, match="2 values are zero or negative") as error:
        check_numeric(np.r_[production[:10], 0.0, -3.0], "log_normal", None)
    assert error.value.parameter == "numeric_field"


def test_chicago_small_types_borrow_and_candidates_without_replacement_are_distinct():
    x, y, marks = chicago()
    comb, index = combinations([marks], ["marks"])
    fit = fit_marked(x, y, comb, index, mechanisms.generator(6), 3, max_edge=80.0)
    assert sorted(comb.label(k) for k in fit.borrowed) == [
        "marks=burglary",
        "marks=cartheft",
        "marks=robbery",
        "marks=trespass",
    ]
    xmin, ymin, xmax, ymax = fit.window.bounds
    gx, gy = np.meshgrid(np.linspace(xmin, xmax, 30), np.linspace(ymin, ymax, 30))
    pool = Candidates.build(fit, gx.ravel(), gy.ravel())
    syn = synthesize_marked(fit, mechanisms.generator(7), candidates=pool, replace=False)
    for ell in (1, 2, 3):
        in_set = syn.set == ell
        assert in_set.sum() == comb.n
        assert np.unique(syn.x[in_set] + 1j * syn.y[in_set]).size == comb.n  # no candidate twice in a set
    small = Candidates.build(fit, gx.ravel()[:100], gy.ravel()[:100])
    with pytest.raises(ParameterError, match="needs 116 distinct candidates") as error:
        synthesize_marked(fit, mechanisms.generator(7), candidates=small, replace=False)
    assert error.value.parameter == "candidates"
    with_replacement = synthesize_marked(fit, mechanisms.generator(8), candidates=small, replace=True)
    assert with_replacement.x.size == 3 * comb.n


def test_a_window_without_a_combination_is_refused_naming_it():
    x, y, marks = chicago()
    comb, index = combinations([marks], ["marks"])
    robbery = np.array([m == "robbery" for m in marks])
    others = ~robbery
    # a window around the other crimes only, with holes around the robberies
    box = [
        (x[others].min() - 1, y[others].min() - 1),
        (x[others].max() + 1, y[others].min() - 1),
        (x[others].max() + 1, y[others].max() + 1),
        (x[others].min() - 1, y[others].max() + 1),
    ]
    holes = [
        [(px - 2, py - 2), (px + 2, py - 2), (px + 2, py + 2), (px - 2, py + 2)]
        for px, py in zip(x[robbery], y[robbery])
    ]
    window = Window.from_polygons([(box, holes)])
    with pytest.raises(ParameterError, match="marks=robbery has no record inside the study window") as error:
        fit_marked(x, y, comb, index, mechanisms.generator(9), 2, window=window)
    assert error.value.parameter == "window"


# -- the numeric mark's constrained field and its hyperparameters (core.marked.numeric_field) --------------------


def test_the_constrained_marginal_likelihood_and_level_equal_a_dense_computation(enterprises):
    """On 60 fined enterprises, the sparse kriging formulas against the dense Gaussian algebra: with
    ``V = s^2 A S A' + sigma^2 I``, ``S = Q1^{-1} - Q1^{-1} a a' Q1^{-1} / (a' Q1^{-1} a)`` (the field given
    a'w = 0) and a flat prior on beta, ``log p(y) = -(n-1)/2 log 2 pi - 1/2 log|V| - 1/2 log(1'V^-1 1) - 1/2 y'Py``
    and the posterior mean of beta is the GLS estimate; equal to rounding."""
    _, _, _, _, _, fit, _ = enterprises
    ctx, proj, y = fit.numeric.components[1].data
    proj, y = proj[:60], y[:60]
    log_s, log_sigma = math.log(3000.0), math.log(1500.0)
    log_ml, post = normal_posterior(ctx, proj, y, log_s, log_sigma)
    q1_inv = np.linalg.inv(ctx.q1.toarray())
    qa = q1_inv @ ctx.a
    s_c = q1_inv - np.outer(qa, qa) / (ctx.a @ qa)
    a_dense = proj.toarray()
    v = math.exp(2 * log_s) * a_dense @ s_c @ a_dense.T + math.exp(2 * log_sigma) * np.eye(y.size)
    v_inv = np.linalg.inv(v)
    one = np.ones(y.size)
    info = one @ v_inv @ one
    gls = (one @ v_inv @ y) / info
    r = y - gls
    dense = -0.5 * (y.size - 1) * math.log(2 * math.pi) - 0.5 * np.linalg.slogdet(v)[1] - 0.5 * math.log(info)
    dense -= 0.5 * r @ v_inv @ r
    assert log_ml == pytest.approx(dense, abs=1e-6 * abs(dense))
    assert post.beta[0] == pytest.approx(gls, rel=1e-7)
    assert abs(ctx.a @ post.w) < 1e-9 * np.abs(post.w).max()


def test_each_set_draws_its_hyperparameters_and_fields_that_average_zero(enterprises):
    _, _, _, comb, _, fit, _ = enterprises
    params = fit.numeric.draw_parameters(mechanisms.generator(8), 6)
    for k in range(comb.k):
        c = fit.numeric.components[k]
        ctx = c.data[0]
        assert c.hyper.note == HYPER_DRAWN and c.hyper.free == (0, 1)
        beta, w, sigma = params[k]
        assert np.all(np.abs(w @ ctx.a) < 1e-9 * np.abs(w).max(axis=1))
        assert np.unique(sigma).size == 6  # drawn per set, not plugged in
        # the Gaussian approximation: one step along a Cholesky column of the covariance lowers the log marginal
        # likelihood by 1/2 for an exactly quadratic one; with hundreds of records the cubic term is a few per cent
        f0 = normal_posterior(ctx, c.data[1], c.data[2], *c.hyper.centre)[0]
        for j in range(2):
            t = c.hyper.centre + c.hyper.chol[:, j]
            drop = normal_posterior(ctx, c.data[1], c.data[2], *t)[0] - f0
            assert -0.6 <= drop <= -0.4, (comb.label(k), j, drop)


def test_hyper_laplace_draws_a_peaked_posterior_and_holds_the_rest():
    cov = np.array([[0.04, 0.01], [0.01, 0.09]])
    prec = np.linalg.inv(cov)
    centre = np.array([1.0, -2.0])

    def quadratic(t):
        d = t - centre
        return -0.5 * d @ prec @ d

    bounds = [(-5.0, 5.0), (-5.0, 5.0)]
    got = hyper_laplace(quadratic, centre + 0.01, bounds, priority=(1,))  # off the mode: one Newton step back
    assert got.note == HYPER_DRAWN
    np.testing.assert_allclose(got.centre, centre, atol=1e-8)
    np.testing.assert_allclose(got.chol @ got.chol.T, cov, rtol=1e-6)
    # the first coordinate's mode on its bound (a field sd of zero): only the second is drawn
    on_bound = hyper_laplace(lambda t: quadratic(t) + 3 * t[0], np.array([-5.0, -2.0]), bounds, priority=(1,))
    assert on_bound.note == HYPER_PARTIAL and on_bound.free == (1,)
    draws = on_bound.draw(mechanisms.generator(3), 4000)
    assert np.all(draws[:, 0] == -5.0)
    # the conditional sd of the second coordinate, 1 / sqrt(prec[1, 1]), within 5 standard errors (sd / sqrt(2n))
    sd = 1 / math.sqrt(prec[1, 1])
    assert abs(draws[:, 1].std() - sd) < 5 * sd / math.sqrt(2 * 4000)
    flat = hyper_laplace(lambda t: 0.0 * t[0], np.array([0.0, 0.0]), bounds, priority=(1,))
    assert flat.note == HYPER_FIXED and np.all(flat.draw(mechanisms.generator(1), 3) == 0.0)


def test_a_mark_without_spatial_structure_holds_the_field_sd_and_draws_sigma(enterprises):
    """Independent N(100, 10^2) values: the marginal likelihood has a plateau as the field sd tends to zero, not a
    peak; the field sd is held at its estimate (note "partial"), sigma still drawn per set, and the synthetic mean
    stays within 4.78 (t_9, 0.999) combined sds of the original's."""
    x, y, _, comb, index, _, _ = enterprises
    values = 100 + 10 * mechanisms.standard_normals(mechanisms.generator(3), x.size)
    fit = fit_marked(x, y, comb, index, mechanisms.generator(1), 10, numeric=values, max_edge=700.0)
    params = fit.numeric.draw_parameters(mechanisms.generator(4), 10)
    for k in range(comb.k):
        c = fit.numeric.components[k]
        assert c.hyper.note == HYPER_PARTIAL and c.hyper.free == (1,), (comb.label(k), c.hyper)
        assert c.field_sd < 0.1 and abs(c.sigma - 10) < 1
        assert np.unique(params[k][2]).size == 10
    syn = synthesize_marked(fit, mechanisms.generator(5))
    for k in range(comb.k):
        means = np.array([syn.numeric[(syn.set == ell) & (syn.index == k)].mean() for ell in range(1, 11)])
        spread = means.std(ddof=1) * math.sqrt(1 + 1 / means.size)
        assert abs(values[index == k].mean() - means.mean()) <= T9_999 * spread, comb.label(k)
