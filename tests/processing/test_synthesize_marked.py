"""spatialprivacy:synthesizemarked (Quick, Holan, Wikle & Reiter) through processing.run in real headless QGIS, on
the sdcSpatial enterprises and spatstat's chicago crimes: the layer contract markedrisk reads, labels, the
one-layer-per-set folder, and bad inputs refused naming the parameter with nothing written."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    NULL,
    QgsApplication,
    QgsFeature,
    QgsFeatureRequest,
    QgsField,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant

ALG = "spatialprivacy:synthesizemarked"
#: a coarse mesh (about 400 nodes over the enterprises' 14 x 9 km) keeps each fit to a second or two
MAX_EDGE = 700.0
#: the same for chicago's crimes (feet): about 300 nodes
CHICAGO_EDGE = 80.0


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


def layer_of(path):
    layer = QgsVectorLayer(str(path), "out", "ogr")
    assert layer.isValid(), path
    return layer


def test_help_states_the_guarantee_and_every_parameter_has_help():
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None
    assert all(p.help() for p in alg.parameterDefinitions())
    text = alg.shortHelpString()
    assert "<b>Guarantee" in text and "markedrisk" in text and "SPDE" in text and "Dirichlet" in text
    assert not alg.parameterDefinition("OUTPUT_REPORT").createByDefault()


def test_enterprises_sets_follow_the_contract_and_are_labelled_when_seeded(enterprises, tmp_path):
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG,
        {
            "INPUT": enterprises,
            "CATEGORY_FIELDS": ["fined"],
            "NUMERIC_FIELD": "production",
            "MAX_EDGE": MAX_EDGE,
            "SETS": 3,
            "SEED": 5,
            "OUTPUT": str(tmp_path / "syn.gpkg"),
            "OUTPUT_FOLDER": str(tmp_path / "sets"),
            "OUTPUT_REPORT": str(tmp_path / "syn.html"),
        },
        feedback=feedback,
    )
    source = layer_of(enterprises)
    layer = layer_of(result["OUTPUT"])
    n = source.featureCount()
    assert result["SYNTHETIC_COUNT"] == layer.featureCount() == 3 * n
    names = [f.name() for f in layer.fields() if f.name() != "fid"]
    assert names == ["set", "fined", "production"]
    fined_in = source.fields().field("fined")
    assert layer.fields().field("fined").type() == fined_in.type()  # the input's type, kept
    assert layer.fields().field("production").typeName().lower() in ("real", "double")
    sets = np.array([f["set"] for f in layer.getFeatures()])
    assert sorted(np.unique(sets).tolist()) == [1, 2, 3]
    assert all(int((sets == s).sum()) == n for s in (1, 2, 3))  # every set has N records
    levels = {f["fined"] for f in layer.getFeatures()}
    assert levels <= {f["fined"] for f in source.getFeatures()}
    assert result["NOT_PRIVATE"] == "fixed SEED" and "NOT PRIVATE" in feedback.textLog()
    for s in (1, 2, 3):
        one = layer_of(tmp_path / "sets" / f"set_{s}.gpkg")
        assert one.featureCount() == n and [f.name() for f in one.fields() if f.name() != "fid"] == names
        with closing(sqlite3.connect(str(tmp_path / "sets" / f"set_{s}.gpkg"))) as con:
            (description,) = con.execute("SELECT description FROM gpkg_contents").fetchone()
        assert description.startswith("NOT PRIVATE (fixed SEED)"), description
    report = (tmp_path / "syn.html").read_text(encoding="utf-8")
    assert "NOT PRIVATE" in report and "fined=True" in report and "markedrisk" in report
    # production is > 0 but skewed: the normal model makes negative values, and the log says how many, once
    warnings = [line for line in feedback.textLog().splitlines() if "negative synthetic values" in line]
    assert len(warnings) == 1 and "NUMERIC_FIELD" in warnings[0] and "log-normal" in warnings[0]
    assert "fined=True: " in warnings[0] and "% of its synthetic values" in warnings[0]
    assert "negative though every value is ≥ 0" in report


def test_log_normal_values_are_positive_and_reported(enterprises, tmp_path):
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG,
        {
            "INPUT": enterprises,
            "CATEGORY_FIELDS": ["fined"],
            "NUMERIC_FIELD": "production",
            "NUMERIC_MODEL": 2,
            "MAX_EDGE": MAX_EDGE,
            "SETS": 2,
            "SEED": 6,
            "OUTPUT": str(tmp_path / "log.gpkg"),
            "OUTPUT_REPORT": str(tmp_path / "log.html"),
        },
        feedback=feedback,
    )
    layer = layer_of(result["OUTPUT"])
    assert layer.fields().field("production").typeName().lower() in ("real", "double")
    values = np.array([f["production"] for f in layer.getFeatures()], dtype=float)
    assert values.size == 2 * layer_of(enterprises).featureCount() and values.min() > 0
    assert "negative synthetic values" not in feedback.textLog()
    report = (tmp_path / "log.html").read_text(encoding="utf-8")
    assert "log-normal" in report and "geometric mean" in report
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert "log-normal" in alg.shortHelpString() and "Log-normal" in alg.parameterDefinition("NUMERIC_MODEL").help()


def chicago_with(data_copy, edit=None):
    """The chicago crimes as a memory layer (with ``edit(layer)`` applied): field ``marks``, 7 types."""
    crimes = QgsVectorLayer(str(data_copy / "spatstat_chicago.gpkg") + "|layername=crimes", "crimes", "ogr")
    layer = crimes.materialize(QgsFeatureRequest())
    if edit is not None:
        layer.startEditing()
        edit(layer)
        assert layer.commitChanges()
    return layer


def test_chicago_small_types_borrow_strength_with_a_warning(data_copy, tmp_path):
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG,
        {
            "INPUT": str(data_copy / "spatstat_chicago.gpkg") + "|layername=crimes",
            "CATEGORY_FIELDS": ["marks"],
            "MAX_EDGE": CHICAGO_EDGE,
            "SETS": 2,
            "SEED": 1,
            "OUTPUT": str(tmp_path / "chicago.gpkg"),
        },
        feedback=feedback,
    )
    layer = layer_of(result["OUTPUT"])
    assert layer.featureCount() == 2 * 116
    log = feedback.textLog()
    for small in (
        "marks=burglary (5 records)",
        "marks=robbery (4 records)",
        "marks=trespass (6 records)",
        "marks=cartheft (7 records)",
    ):
        assert small in log
    assert "marks=theft (" not in log  # 38 records: its own surface


def test_truncated_poisson_needs_a_public_range_and_integers(enterprises, tmp_path, data_copy):
    base = {
        "INPUT": enterprises,
        "CATEGORY_FIELDS": ["fined"],
        "NUMERIC_FIELD": "production",
        "NUMERIC_MODEL": 1,
        "MAX_EDGE": MAX_EDGE,
        "SETS": 1,
        "OUTPUT": str(tmp_path / "tp.gpkg"),
    }
    with pytest.raises(QgsProcessingException, match="NUMERIC_RANGE"):
        processing.run(ALG, base)
    with pytest.raises(QgsProcessingException, match="NUMERIC_FIELD.*not whole numbers"):
        processing.run(ALG, {**base, "NUMERIC_RANGE": "0, 4000"})
    assert not (tmp_path / "tp.gpkg").exists()

    # whole numbers: the chicago crimes with a made-up count 0..9 by type
    def add_count(layer):
        layer.addAttribute(QgsField("count", QVariant.Int))
        idx = layer.fields().indexFromName("count")
        for i, feature in enumerate(layer.getFeatures()):
            layer.changeAttributeValue(feature.id(), idx, i % 10)

    layer = chicago_with(data_copy, add_count)
    result = processing.run(
        ALG,
        {
            "INPUT": layer,
            "CATEGORY_FIELDS": ["marks"],
            "NUMERIC_FIELD": "count",
            "NUMERIC_MODEL": 1,
            "NUMERIC_RANGE": "0, 12",
            "MAX_EDGE": CHICAGO_EDGE,
            "SETS": 2,
            "SEED": 3,
            "OUTPUT": str(tmp_path / "tp_ok.gpkg"),
        },
    )
    out = layer_of(result["OUTPUT"])
    values = np.array([f["count"] for f in out.getFeatures()])
    assert out.fields().field("count").isNumeric() and values.dtype.kind in "iu"
    assert values.min() >= 0 and values.max() <= 12


@pytest.mark.parametrize(
    "case, match",
    [
        ("single", "CATEGORY_FIELDS.*single value"),
        ("many", "CATEGORY_FIELDS.*distinct values"),
        ("null_category", "CATEGORY_FIELDS.*NULL in 1 records"),
        ("null_numeric", "NUMERIC_FIELD.*NULL"),
        ("log_normal_zero", "NUMERIC_FIELD.*1 values are zero or negative"),
        ("window", "WINDOW.*marks=robbery has no record inside"),
    ],
)
def test_bad_inputs_are_refused_naming_the_parameter_and_nothing_is_written(data_copy, tmp_path, case, match):
    params = {"CATEGORY_FIELDS": ["marks"], "SETS": 1, "OUTPUT": str(tmp_path / "bad.gpkg")}

    def numeric(layer):
        layer.addAttribute(QgsField("value", QVariant.Double))
        layer.addAttribute(QgsField("same", QVariant.String))
        v, s = layer.fields().indexFromName("value"), layer.fields().indexFromName("same")
        for i, feature in enumerate(layer.getFeatures()):
            layer.changeAttributeValue(feature.id(), v, NULL if (case == "null_numeric" and i == 3) else 1.5 * i)
            layer.changeAttributeValue(feature.id(), s, "x")
        if case == "null_category":
            first = next(layer.getFeatures())
            layer.changeAttributeValue(first.id(), layer.fields().indexFromName("marks"), NULL)

    layer = chicago_with(data_copy, numeric)
    params["INPUT"] = layer
    if case == "single":
        params["CATEGORY_FIELDS"] = ["marks", "same"]
    elif case == "many":
        params["CATEGORY_FIELDS"] = ["value"]
    elif case in ("null_numeric", "log_normal_zero"):  # value = 1.5 i: one 0
        params["NUMERIC_FIELD"] = "value"
        params["NUMERIC_MODEL"] = 2 if case == "log_normal_zero" else 0
    elif case == "window":
        # a window around everything but the robberies
        robbery = [f.geometry().asPoint() for f in layer.getFeatures() if f["marks"] == "robbery"]
        others = [f.geometry().asPoint() for f in layer.getFeatures() if f["marks"] != "robbery"]
        window = QgsVectorLayer("Polygon", "w", "memory")
        window.setCrs(layer.crs())
        feature = QgsFeature()
        box = QgsGeometry.fromMultiPointXY(others).boundingBox()
        box.grow(1.0)
        geometry = QgsGeometry.fromRect(box)
        for p in robbery:
            geometry = geometry.difference(QgsGeometry.fromPointXY(p).buffer(5.0, 8))
        feature.setGeometry(geometry)
        window.dataProvider().addFeatures([feature])
        params["WINDOW"] = window
    with pytest.raises(QgsProcessingException, match=match):
        processing.run(ALG, params)
    assert not (tmp_path / "bad.gpkg").exists()


def test_candidates_with_and_without_replacement(enterprises, tmp_path):
    base = {
        "INPUT": enterprises,
        "CATEGORY_FIELDS": ["fined"],
        "MAX_EDGE": MAX_EDGE,
        "SETS": 2,
        "CANDIDATES": enterprises,  # a pool of exactly N locations (every address): each used once per set
        "CANDIDATES_REPLACE": False,
        "OUTPUT": str(tmp_path / "cand.gpkg"),
    }
    result = processing.run(ALG, base)
    layer = layer_of(result["OUTPUT"])
    source = layer_of(enterprises)
    pool = sorted(
        (round(f.geometry().asPoint().x(), 3), round(f.geometry().asPoint().y(), 3)) for f in source.getFeatures()
    )
    for s in (1, 2):
        drawn = sorted(
            (round(f.geometry().asPoint().x(), 3), round(f.geometry().asPoint().y(), 3))
            for f in layer.getFeatures()
            if f["set"] == s
        )
        assert drawn == pool  # without replacement from a pool of N: the pool itself, in a new assignment
    assert result["NOT_PRIVATE"] == ""  # unseeded


def test_cancel_during_the_fit_writes_nothing(enterprises, tmp_path, cancel_after):
    out = tmp_path / "cancelled.gpkg"
    with pytest.raises(QgsProcessingException, match="Cancel"):
        processing.run(
            ALG,
            {
                "INPUT": enterprises,
                "CATEGORY_FIELDS": ["fined"],
                "MAX_EDGE": MAX_EDGE,
                "SETS": 2,
                "OUTPUT": str(out),
                "OUTPUT_REPORT": str(tmp_path / "cancelled.html"),
            },
            feedback=cancel_after(30),
        )
    assert not out.exists() and not (tmp_path / "cancelled.html").exists()


def test_a_numeric_field_without_spatial_structure_warns_that_its_field_sd_is_held(enterprises, tmp_path):
    """Production replaced by independent N(100, 10^2) values: the field sd's posterior is a plateau at zero, not
    a peak, so it is held at its estimate instead of drawn per set, and the log says so."""
    layer = QgsVectorLayer(enterprises, "enterprises", "ogr").materialize(QgsFeatureRequest())
    column = layer.fields().lookupField("production")
    values = 100 + 10 * np.random.default_rng(3).standard_normal(layer.featureCount())
    changes = {f.id(): {column: float(v)} for f, v in zip(layer.getFeatures(), values)}
    assert layer.dataProvider().changeAttributeValues(changes)
    feedback = QgsProcessingFeedback()
    processing.run(
        ALG,
        {
            "INPUT": layer,
            "CATEGORY_FIELDS": ["fined"],
            "NUMERIC_FIELD": "production",
            "MAX_EDGE": MAX_EDGE,
            "SETS": 2,
            "SEED": 3,
            "OUTPUT": str(tmp_path / "syn.gpkg"),
        },
        feedback=feedback,
    )
    log = feedback.textLog()
    assert "NUMERIC_FIELD" in log and "not peaked" in log and "held at their estimates" in log
