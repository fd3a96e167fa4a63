"""Issue 33's acceptance test, end to end in real headless QGIS: spatialprivacy:synthesizemarked on the 8,348
sdcSpatial enterprises (category ``fined``, numeric ``production``, L = 10 sets, fixed seed), then
spatialprivacy:markedrisk on its output. The ORIGINAL data's combination shares, per-combination means of
``production`` (the least-squares regression of production on the ``fined`` groups) and the logistic regression of
``fined`` (intercept and production) must lie within the synthetic sets' combined intervals (Raghunathan, Reiter &
Rubin 2003, core.marked.combining.combine); every risk lies in [0, 1].

Tolerance. For a coefficient Q, the synthetic set l's estimate q_l is a posterior predictive draw: given the data,
E[q_l] ~ q_obs (the original estimate) and var(q_l) = b ~ u + u (posterior variance of Q plus the sampling variance
u of a new data set of size N). The fully synthetic combining rules' variance T_f = (1 + 1/m) b_m - ubar then
estimates b/m + (b - u) ~ u + b/m, while q_obs - qbar has variance b/m only: the combined interval for Q holds
q_obs with at least its nominal probability (it also allows for q_obs's own sampling error). With a 99% interval a
correct model fails at most 1% of the time per coefficient at a fixed seed (6 coefficients: at most 6% for the
test), and a model whose synthetic estimates are off by more than about 2.6 combined sds fails."""

from __future__ import annotations

import math
import sqlite3
import time

import numpy as np
import pytest
from qgis import processing
from qgis.core import QgsVectorLayer

from spatial_privacy.core.marked.combinations import combinations, encode
from spatial_privacy.core.marked.combining import combine, logistic_design, logistic_regression, numeric_regression

SYNTHESIZE, RISK = "spatialprivacy:synthesizemarked", "spatialprivacy:markedrisk"
SETS = 10
#: the combined intervals' level (module docstring)
LEVEL = 0.99
#: a coarse mesh (about 400 nodes over the enterprises' 14 x 9 km) keeps the fit to seconds
MAX_EDGE = 700.0


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


def columns(layer, names):
    rows = [
        (f.geometry().asPoint().x(), f.geometry().asPoint().y(), *[f[n] for n in names]) for f in layer.getFeatures()
    ]
    return [np.array(c) for c in zip(*rows)]


@pytest.fixture(scope="module")
def runs(enterprises, tmp_path_factory):
    folder = tmp_path_factory.mktemp("marked_end_to_end")
    start = time.perf_counter()
    syn = processing.run(
        SYNTHESIZE,
        {
            "INPUT": enterprises,
            "CATEGORY_FIELDS": ["fined"],
            "NUMERIC_FIELD": "production",
            "MAX_EDGE": MAX_EDGE,
            "SETS": SETS,
            "SEED": 2024,
            "OUTPUT": str(folder / "syn.gpkg"),
        },
    )
    risk = processing.run(
        RISK,
        {
            "INPUT": enterprises,
            "SYNTHETIC": syn["OUTPUT"],
            "CATEGORY_FIELDS": ["fined"],
            "NUMERIC_FIELD": "production",
            "SPATIAL_TOLERANCE": 100.0,
            "ATTRIBUTE_TOLERANCE": 500.0,
            "OUTPUT": str(folder / "risk.gpkg"),
        },
    )
    elapsed = time.perf_counter() - start
    source = QgsVectorLayer(enterprises, "enterprises", "ogr")
    _, _, fined, production = columns(source, ["fined", "production"])
    _, _, sets, sfined, sproduction = columns(
        QgsVectorLayer(syn["OUTPUT"], "syn", "ogr"), ["set", "fined", "production"]
    )
    comb, index = combinations([fined.tolist()], ["fined"])
    return {
        "comb": comb,
        "index": index,
        "production": production.astype(float),
        "set": sets.astype(int),
        "syn_index": encode([sfined.tolist()], comb),
        "syn_production": sproduction.astype(float),
        "risk": risk,
        "elapsed": elapsed,
    }


def parts(run):
    return [np.flatnonzero(run["set"] == s) for s in range(1, SETS + 1)]


def assert_within(name, original, q, u, n):
    combined = combine(np.asarray(q), np.asarray(u), n, n, level=LEVEL)
    assert combined.m == SETS, name
    assert combined.lower <= original <= combined.upper, (name, original, combined)


def test_every_set_has_n_records_of_known_combinations(runs):
    n = runs["index"].size
    assert np.bincount(runs["set"]).tolist()[1:] == [n] * SETS
    assert (runs["syn_index"] >= 0).all()


def test_combination_shares_lie_within_the_combined_intervals(runs):
    n = runs["index"].size
    for k in range(runs["comb"].k):
        q = np.array([np.mean(runs["syn_index"][p] == k) for p in parts(runs)])
        # a share's estimate from one data set of n records and its binomial variance
        assert_within(runs["comb"].label(k), np.mean(runs["index"] == k), q, q * (1 - q) / n, float(n))


def test_production_means_by_fined_lie_within_the_combined_intervals(runs):
    labels = [runs["comb"].label(k) for k in range(runs["comb"].k)]
    original = numeric_regression(runs["index"], runs["production"], labels, "ols")
    fits = [numeric_regression(runs["syn_index"][p], runs["syn_production"][p], labels, "ols") for p in parts(runs)]
    for k, label in enumerate(labels):
        q, u = [f.coef[k] for f in fits], [f.var[k] for f in fits]
        assert_within(f"mean production, {label}", original.coef[k], q, u, float(original.n))


def test_logistic_regression_of_fined_lies_within_the_combined_intervals(runs):
    comb = runs["comb"]
    event = comb.levels[-1][0]
    design = logistic_design(comb.fields, comb.levels, "fined", event, "production")
    original = logistic_regression(design, runs["index"], runs["production"])
    fits = [logistic_regression(design, runs["syn_index"][p], runs["syn_production"][p]) for p in parts(runs)]
    assert design.names == ("(intercept)", "production")
    for j, name in enumerate(design.names):
        q, u = [f.coef[j] for f in fits], [f.var[j] for f in fits]
        assert_within(f"logit P(fined), {name}", original.coef[j], q, u, float(original.n))


def test_risks_lie_in_the_unit_interval(runs):
    risk = runs["risk"]
    assert risk["SETS"] == SETS
    with sqlite3.connect(risk["OUTPUT"].split("|")[0]) as db:
        table = db.execute("SELECT table_name FROM gpkg_contents").fetchone()[0]
        rows = db.execute(f'SELECT s_median, s_q05, s_q95, a_median, a_q05, a_q95 FROM "{table}"').fetchall()
    values = np.array([[math.nan if v is None else v for v in row] for row in rows], dtype=float)
    assert values.shape == (runs["index"].size, 6)
    finite = values[np.isfinite(values)]
    assert finite.size > 0.9 * values.size and finite.min() >= 0.0 and finite.max() <= 1.0
    assert 0.0 <= risk["MAX_TYPE_S"] <= 1.0 and 0.0 <= risk["MAX_TYPE_A"] <= 1.0
    assert runs["elapsed"] < 60, runs["elapsed"]
