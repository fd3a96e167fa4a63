"""spatialprivacy:markedrisk through processing.run in real headless QGIS, on the sdcSpatial enterprises (category
`fined`, numeric `production`) and spatstat's chicago crimes (`marks`, seven types, no numeric mark), with
synthetic layers built here at a fixed seed from jittered and permuted records (the contract's layout: field
`set` 1..L, the category and numeric fields under their names). The per-record risks are checked against
core.marked.risk on the same arrays; bad inputs are refused naming the parameter, with nothing written."""

from __future__ import annotations

import math
import re
import sqlite3
import time

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    NULL,
    QgsApplication,
    QgsFeature,
    QgsField,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsProject,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant

from spatial_privacy.core.marked.combinations import combinations, encode
from spatial_privacy.core.marked.risk import marked_risk

ALG = "spatialprivacy:markedrisk"
SETS = 4


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


def read_layer(layer, fields):
    """x, y and the values of ``fields`` of every feature, in feature order."""
    rows = [
        (f.geometry().asPoint().x(), f.geometry().asPoint().y(), *[f[name] for name in fields])
        for f in layer.getFeatures()
    ]
    columns = list(zip(*rows))
    return np.array(columns[0]), np.array(columns[1]), [list(c) for c in columns[2:]]


def synthetic_layer(x, y, columns, types, crs, seed, sets=SETS, jitter=50.0, numeric=None, drop_set=None):
    """A memory layer of ``sets`` synthetic sets: each a random permutation of the records (their categories and
    numeric value kept together) at its own location jittered by N(0, jitter^2) per coordinate, with the numeric
    value times exp(N(0, 0.1^2)). Fields: ``set``, then ``columns`` (name -> values) with QVariant ``types``."""
    rng = np.random.default_rng(seed)
    layer = QgsVectorLayer(f"Point?crs={crs}" if isinstance(crs, str) else "Point", "synthetic", "memory")
    if not isinstance(crs, str):
        layer.setCrs(crs)
    fields = [QgsField("set", QVariant.Int)] + [QgsField(name, types[name]) for name in columns]
    layer.dataProvider().addAttributes(fields)
    layer.updateFields()
    features = []
    for s in range(1, sets + 1):
        if s == drop_set:
            continue
        order = rng.permutation(x.size)
        dx, dy = rng.normal(0.0, jitter, (2, x.size))
        scale = np.exp(rng.normal(0.0, 0.1, x.size))
        for k, i in enumerate(order.tolist()):
            feature = QgsFeature(layer.fields())
            feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x[k] + dx[k], y[k] + dy[k])))
            values = [columns[name][i] for name in columns]
            if numeric is not None:
                values = [v * float(scale[k]) if name == numeric else v for name, v in zip(columns, values)]
            feature.setAttributes([s, *values])
            features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


def owned_by_project(*layers):
    """Hand layers that tests pass to processing.run to the project (see tests/conftest.py keep_in_project: a
    Python-owned layer destroyed after such a run crashes the interpreter at exit, QGIS 3.22); returns their ids."""
    for layer in layers:
        QgsProject.instance().addMapLayer(layer, False)
    return [layer.id() for layer in layers]


@pytest.fixture(scope="module")
def enterprise_layers(enterprises):
    layer = QgsVectorLayer(enterprises, "enterprises", "ogr")
    x, y, (fined, production) = read_layer(layer, ["fined", "production"])
    fined = [int(v) for v in fined]
    # the locations of the permuted records stay inside the data's bounding box + 5% (jitter 50 m, margin 700 m)
    syn = synthetic_layer(
        x,
        y,
        {"fined": fined, "production": production},
        {"fined": QVariant.Int, "production": QVariant.Double},
        "EPSG:28992",
        seed=11,
        numeric="production",
    )
    ids = owned_by_project(layer, syn)
    yield layer, syn, (x, y, fined, np.array(production, dtype=float))
    QgsProject.instance().removeMapLayers(ids)


@pytest.fixture(scope="module")
def chicago(data_copy):
    layer = QgsVectorLayer(f"{data_copy / 'spatstat_chicago.gpkg'}|layername=crimes", "crimes", "ogr")
    assert layer.featureCount() == 116
    x, y, (marks,) = read_layer(layer, ["marks"])
    ids = owned_by_project(layer)
    yield layer, x, y, marks
    QgsProject.instance().removeMapLayers(ids)


def chicago_synthetic(chicago, seed=5, **kwargs):
    layer, x, y, marks = chicago
    return synthetic_layer(x, y, {"marks": marks}, {"marks": QVariant.String}, layer.crs(), seed, jitter=20.0, **kwargs)


def gpkg_rows(path, columns):
    with sqlite3.connect(str(path)) as db:
        table = db.execute("SELECT table_name, description FROM gpkg_contents").fetchone()
        rows = db.execute(f'SELECT {", ".join(columns)} FROM "{table[0]}" ORDER BY fid').fetchall()
    return table[1], np.array([[math.nan if v is None else v for v in row] for row in rows], dtype=float)


def test_registered_with_help_for_every_parameter():
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None
    assert not [p.name() for p in alg.parameterDefinitions() if not p.help()]
    text = alg.shortHelpString()
    for phrase in (
        "eq. 8",
        "eq. 9",
        "second option",
        "<b>Guarantee.</b> None (no ε or δ)",
        "Raghunathan",
        "Reiter 2002",
        "Karr",
        "isotropic edge correction",
        "bounds included",
    ):
        assert phrase in text, phrase
    for name in ("OUTPUT", "OUTPUT_REPORT"):
        assert "CONFIDENTIAL" in alg.parameterDefinition(name).description()


def test_enterprises_risks_equal_the_core_and_are_labelled(enterprise_layers, tmp_path):
    layer, syn, (x, y, fined, production) = enterprise_layers
    out, page = tmp_path / "risk.gpkg", tmp_path / "risk.html"
    start = time.perf_counter()
    result = processing.run(
        ALG,
        {
            "INPUT": layer,
            "SYNTHETIC": syn,
            "CATEGORY_FIELDS": ["fined"],
            "NUMERIC_FIELD": "production",
            "SPATIAL_TOLERANCE": 250.0,
            "ATTRIBUTE_TOLERANCE": 500.0,
            "OUTPUT": str(out),
            "OUTPUT_REPORT": str(page),
        },
    )
    elapsed = time.perf_counter() - start
    assert result["SETS"] == SETS
    sx, sy, (sets, sfined, sprod) = read_layer(syn, ["set", "fined", "production"])
    comb, index = combinations([fined], ["fined"])
    core = marked_risk(
        x,
        y,
        index,
        production,
        sx,
        sy,
        encode([sfined], comb),
        np.array(sprod, float),
        np.array(sets),
        SETS,
        250.0,
        500.0,
    )
    label, rows = gpkg_rows(out, ["s_median", "s_q05", "s_q95", "s_sets", "a_median", "a_q05", "a_q95", "a_sets"])
    assert "CONFIDENTIAL" in label
    assert rows.shape == (8348, 8)
    expected = np.column_stack(
        [core.quantiles_s()[:, [1, 0, 2]], core.sets_s, core.quantiles_a()[:, [1, 0, 2]], core.sets_a]
    )
    np.testing.assert_allclose(rows, expected, rtol=1e-12, equal_nan=True)
    finite = rows[np.isfinite(rows)]
    assert finite.min() >= 0 and rows[:, [0, 1, 2, 4, 5, 6]][np.isfinite(rows[:, [0, 1, 2, 4, 5, 6]])].max() <= 1
    assert result["MAX_TYPE_S"] == pytest.approx(np.nanmax(core.quantiles_s()[:, 1]))
    html = page.read_text(encoding="utf-8")
    for phrase in (
        "CONFIDENTIAL",
        "Type S against Type A",
        "Least-squares regression of production",
        "overlap J",
        "data:image/png",
    ):
        assert phrase in html, phrase
    # the boolean field reads as True/False in QGIS (1/0 in older versions); the second level is modelled
    assert re.search(r"fined=(1|True)", html) and re.search(r"logit P\(fined=(1|True)\)", html)
    assert elapsed < 60, elapsed


def test_an_unstable_combined_interval_is_flagged_in_the_table_the_chart_and_the_log():
    """The constructed case of tests/core/test_marked_utility.py (m = 5, nu_f = 0.25): the table keeps the rule's
    interval (about -/+ 755,900) and adds the flag with the adjusted interval [2941, 3059] and its J = 5/6."""
    from spatial_privacy.core.marked.combining import Fit, compare
    from spatial_privacy.processing.reports.marked_risk import coefficient_chart, regression_rows, unstable_warning

    q = 3000.0 + 20.0 * np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    u = np.array([800.0, 850.0, 900.0, 950.0, 1000.0])
    original = Fit(
        ("fined=0", "fined=1"), np.array([3010.0, 2000.0]), np.array([400.0, 100.0]), (None,) * 2, 8348, "ols"
    )
    synthetic = [
        Fit(
            ("fined=0", "fined=1"),
            np.array([qi, 2000.0 + (qi - 3000.0)]),
            np.array([ui, ui / 10]),
            (None,) * 2,
            8348,
            "ols",
        )
        for qi, ui in zip(q, u)
    ]
    rows = compare(original, synthetic)
    assert [r.combined.unstable for r in rows] == [True, False]  # nu_f = 0.25, and 3.4225 with u / 10
    (name, text), (_, stable) = regression_rows(rows)
    assert name == "fined=0" and "synthetic 3000 [-7.529e+05, 7.589e+05]" in text
    assert "UNSTABLE: ν_f = 0.25 < 3: few synthetic sets for this coefficient, use more SETS" in text
    assert "[2941, 3059], overlap J = 0.833" in text
    assert "UNSTABLE" not in stable
    warning = unstable_warning([("Least-squares regression of production", rows, False)])
    assert warning.startswith("SETS: the combined interval of 1 coefficients is unstable")
    assert "Least-squares regression of production: fined=0" in warning and "fined=1" not in warning
    assert unstable_warning([("t", rows[1:], False)]) is None
    assert coefficient_chart(rows, "t").startswith("data:image/png")


def test_chicago_without_numeric_mark(chicago, tmp_path):
    layer = chicago[0]
    page = tmp_path / "chicago.html"
    result = processing.run(
        ALG,
        {
            "INPUT": layer,
            "SYNTHETIC": chicago_synthetic(chicago),
            "CATEGORY_FIELDS": ["marks"],
            "SPATIAL_TOLERANCE": 60.0,
            "LOGISTIC_LEVEL": "theft",
            "OUTPUT": str(tmp_path / "c.gpkg"),
            "OUTPUT_REPORT": str(page),
        },
    )
    assert 0 <= result["MAX_TYPE_S"] <= 1 and 0 <= result["MAX_TYPE_A"] <= 1
    _, rows = gpkg_rows(tmp_path / "c.gpkg", ["s_median", "a_median", "s_sets", "a_sets"])
    assert rows.shape == (116, 4)
    assert (rows[:, 3] == SETS).all()  # every type occurs in every set: the Type A denominators are never 0
    html = page.read_text(encoding="utf-8")
    assert "logit P(marks=theft)" in html and "(intercept)" in html and "marks=robbery" in html


def _run_bad(tmp_path, **params):
    out, page = tmp_path / "never.gpkg", tmp_path / "never.html"
    with pytest.raises(QgsProcessingException) as raised:
        processing.run(ALG, {**params, "OUTPUT": str(out), "OUTPUT_REPORT": str(page)})
    assert not out.exists() and not page.exists()
    return str(raised.value)


def test_bad_inputs_are_refused_naming_the_parameter(chicago, tmp_path):
    layer = chicago[0]
    base = {"INPUT": layer, "CATEGORY_FIELDS": ["marks"], "SPATIAL_TOLERANCE": 60.0}
    # a crime type the confidential data do not have
    syn = chicago_synthetic(chicago)
    syn.startEditing()
    first = next(syn.getFeatures())
    syn.changeAttributeValue(first.id(), syn.fields().lookupField("marks"), "arson")
    syn.commitChanges()
    message = _run_bad(tmp_path, **base, SYNTHETIC=syn)
    assert "SYNTHETIC" in message and "marks=arson" in message
    # set numbers with a gap: set 2 of 1..4 missing
    message = _run_bad(tmp_path, **base, SYNTHETIC=chicago_synthetic(chicago, drop_set=2))
    assert "SYNTHETIC" in message and "2" in message and "'set'" in message
    # no field 'set': the confidential layer given as the synthetic one
    message = _run_bad(tmp_path, **base, SYNTHETIC=layer)
    assert "SYNTHETIC" in message and "'set'" in message
    # another CRS
    other = synthetic_layer(chicago[1], chicago[2], {"marks": chicago[3]}, {"marks": QVariant.String}, "EPSG:28992", 3)
    assert "SYNTHETIC" in _run_bad(tmp_path, **base, SYNTHETIC=other)
    # a spatial tolerance of 0
    assert "SPATIAL_TOLERANCE" in _run_bad(tmp_path, **{**base, "SPATIAL_TOLERANCE": 0.0}, SYNTHETIC=syn)
    # a logistic level that does not exist
    assert "LOGISTIC_LEVEL" in _run_bad(tmp_path, **base, SYNTHETIC=chicago_synthetic(chicago), LOGISTIC_LEVEL="arson")
    # a window that leaves the synthetic points outside
    window = QgsVectorLayer("Polygon", "w", "memory")
    window.setCrs(layer.crs())
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromWkt("POLYGON((50 220, 990 220, 990 1270, 50 1270, 50 220))"))
    window.dataProvider().addFeatures([feature])
    far = chicago_synthetic(chicago, seed=9)
    far.startEditing()
    first = next(far.getFeatures())
    far.changeGeometry(first.id(), QgsGeometry.fromPointXY(QgsPointXY(5000.0, 5000.0)))
    far.commitChanges()
    assert "SYNTHETIC" in _run_bad(tmp_path, **base, SYNTHETIC=far, WINDOW=window)


def test_numeric_mark_needs_its_tolerance_and_a_real_category(enterprise_layers, tmp_path):
    layer, syn, _ = enterprise_layers
    base = {"INPUT": layer, "SYNTHETIC": syn, "SPATIAL_TOLERANCE": 250.0}
    message = _run_bad(tmp_path, **base, CATEGORY_FIELDS=["fined"], NUMERIC_FIELD="production")
    assert "ATTRIBUTE_TOLERANCE" in message
    # a numeric field chosen as a category: thousands of distinct values
    message = _run_bad(tmp_path, **base, CATEGORY_FIELDS=["production"])
    assert "CATEGORY_FIELDS" in message and "production" in message and "distinct values" in message
    # NULL categories in the confidential layer
    nulls = QgsVectorLayer("Point?crs=EPSG:28992", "c", "memory")
    nulls.dataProvider().addAttributes([QgsField("fined", QVariant.Int)])
    nulls.updateFields()
    features = []
    for k, value in enumerate([0, 1, NULL, 1, 0]):
        feature = QgsFeature(nulls.fields())
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(75000.0 + 10 * k, 445000.0)))
        feature.setAttributes([value])
        features.append(feature)
    nulls.dataProvider().addFeatures(features)
    message = _run_bad(tmp_path, **{**base, "INPUT": nulls}, CATEGORY_FIELDS=["fined"])
    assert "CATEGORY_FIELDS" in message and "NULL" in message
    # a NULL numeric value in the confidential layer names NUMERIC_FIELD
    nulls.dataProvider().addAttributes([QgsField("production", QVariant.Double)])
    nulls.updateFields()
    nulls.dataProvider().changeAttributeValues({f.id(): {0: 1, 1: 5.0} for f in nulls.getFeatures()})
    nulls.dataProvider().changeAttributeValues({next(nulls.getFeatures()).id(): {1: NULL}})
    message = _run_bad(
        tmp_path,
        **{**base, "INPUT": nulls},
        CATEGORY_FIELDS=["fined"],
        NUMERIC_FIELD="production",
        ATTRIBUTE_TOLERANCE=1.0,
    )
    assert message.startswith("NUMERIC_FIELD") and "NULL" in message


def test_end_to_end_from_synthesizemarked(data_copy, tmp_path):
    """synthesizemarked's layer (the contract: field `set`, the category field under its name) read as it is."""
    crimes = str(data_copy / "spatstat_chicago.gpkg") + "|layername=crimes"
    synthetic = processing.run(
        "spatialprivacy:synthesizemarked",
        {"INPUT": crimes, "CATEGORY_FIELDS": ["marks"], "SETS": 3, "SEED": 2, "OUTPUT": str(tmp_path / "syn.gpkg")},
    )["OUTPUT"]
    result = processing.run(
        ALG,
        {
            "INPUT": crimes,
            "SYNTHETIC": synthetic,
            "CATEGORY_FIELDS": ["marks"],
            "SPATIAL_TOLERANCE": 100.0,
            "LOGISTIC_LEVEL": "damage",
            "OUTPUT": str(tmp_path / "risk.gpkg"),
            "OUTPUT_REPORT": str(tmp_path / "risk.html"),
        },
    )
    assert result["SETS"] == 3
    _, rows = gpkg_rows(tmp_path / "risk.gpkg", ["s_median", "a_median", "s_sets", "a_sets"])
    assert rows.shape == (116, 4)
    risks = rows[:, :2][np.isfinite(rows[:, :2])]
    assert risks.size and risks.min() >= 0 and risks.max() <= 1
    assert "logit P(marks=damage)" in (tmp_path / "risk.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("percent", [20, 60])
def test_cancel_writes_nothing(chicago, tmp_path, cancel_after, percent):
    """Cancel during the risks (from 16%) or the L-functions (from 43%): no output is written."""
    out, page = tmp_path / "cancelled.gpkg", tmp_path / "cancelled.html"
    with pytest.raises(QgsProcessingException, match="Cancel"):
        processing.run(
            ALG,
            {
                "INPUT": chicago[0],
                "SYNTHETIC": chicago_synthetic(chicago),
                "CATEGORY_FIELDS": ["marks"],
                "SPATIAL_TOLERANCE": 60.0,
                "OUTPUT": str(out),
                "OUTPUT_REPORT": str(page),
            },
            feedback=cancel_after(percent),
        )
    assert not out.exists() and not page.exists()
