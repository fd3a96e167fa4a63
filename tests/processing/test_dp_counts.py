"""spatialprivacy:dpcounts through processing.run in real headless QGIS, on real (derived) area counts."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsField,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingModelAlgorithm,
    QgsProcessingModelChildAlgorithm,
    QgsProcessingModelChildParameterSource,
    QgsProcessingModelOutput,
    QgsProcessingModelParameter,
    QgsProcessingParameterFeatureSource,
    QgsProject,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant

ALG = "spatialprivacy:dpcounts"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture(scope="session")
def areas(data_copy) -> str:
    return str(data_copy / "dwelling_areas.gpkg") + "|layername=areas"


@pytest.fixture(scope="session")
def areas_table(data_copy) -> str:
    return str(data_copy / "dwelling_areas.gpkg") + "|layername=areas_table"


def base(layer, out: Path, **extra):
    params = {
        "INPUT": layer,
        "COUNT_FIELD": "unemployed",
        "POPULATION_FIELD": "dwellings",
        "RATE_FIELD": "prior_rate",
        "KEEP_FIELDS": ["area_id", "dwellings"],
        "EPSILON": 1.0,
        "SETS": 5,
        "SEED": 4,
        "OUTPUT": str(out / "synthetic.gpkg"),
    }
    params.update(extra)
    return params


def features(path):
    layer = QgsVectorLayer(str(path), "out", "ogr")
    assert layer.isValid(), path
    return layer, list(layer.getFeatures())


def truth(layer_uri):
    layer = QgsVectorLayer(layer_uri, "in", "ogr")
    return {f["area_id"]: (f["unemployed"], f["dwellings"]) for f in layer.getFeatures()}


def test_registered_with_help_for_every_parameter():
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None
    for parameter in alg.parameterDefinitions():
        assert parameter.help(), parameter.name()
    text = alg.shortHelpString()
    assert "neighbours" in text and "δ = 0" in text and "total" in text


def test_polygon_release(areas, tmp_path):
    params = base(
        areas,
        tmp_path,
        EPSILON=4.0,
        C=4.0,
        KEEP_FIELDS=["area_id", "dwellings", "prior_rate"],
        OUTPUT_REPORT=str(tmp_path / "report.html"),
    )
    result = processing.run(ALG, params)
    layer, feats = features(result["OUTPUT"])
    names = layer.fields().names()
    assert "unemployed" not in names  # the confidential count is never copied
    assert {"area_id", "dwellings", "prior_rate", "syn_1", "syn_5", "syn_mean", "prior_a", "lower", "upper"} <= set(
        names
    )
    assert layer.geometryType() == 2  # polygons
    true = truth(areas)
    total = sum(c for c, _ in true.values())
    for k in range(1, 6):  # every synthetic set keeps the public total
        assert sum(f[f"syn_{k}"] for f in feats) == total
    for f in feats:
        assert f["lower"] <= f["syn_1"] <= f["upper"]
        assert f["prior_a"] > 0 and f["prior_b"] == pytest.approx(
            f["prior_a"] * f["dwellings"] / f["prior_expected"], rel=1e-9
        )
    # Utility: the (simulated) unemployment is very uneven (41 of 95 squares have none), so the uniform prior
    # predicts the counts poorly (correlation 0.40); with c = 4 most true counts lie inside their bounds and
    # the synthetic counts follow the data rather than the prior.
    syn = np.array([f["syn_mean"] for f in feats])
    y = np.array([true[f["area_id"]][0] for f in feats])
    prior = np.array([f["prior_expected"] for f in feats])
    assert np.corrcoef(syn, y)[0, 1] > np.corrcoef(prior, y)[0, 1] + 0.3
    assert result["GROUPS"] == len(feats) == 95
    assert result["EPSILON"] == 4.0 and result["MAX_A"] >= result["MEDIAN_A"] > 0
    assert result["TOTAL_EPSILON"] == 20.0  # five independent sets of ε = 4: sequential composition
    report = Path(result["OUTPUT_REPORT"]).read_text(encoding="utf-8")
    assert "CONFIDENTIAL" in report and "data:image/png;base64," in report and "δ = 0" in report
    assert re.search(r"Epsilon of the output \(L·ε\)</t[hd]><td>20</td>", report)


def test_table_input_and_long_output(areas_table, tmp_path):
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG, base(areas_table, tmp_path, SETS=30, OUTPUT=str(tmp_path / "long.gpkg")), feedback=feedback
    )
    layer, feats = features(result["OUTPUT"])
    assert layer.fields().names()[-3:] == ["group_fid", "set", "syn_count"]
    assert "KEEP_FIELDS: not copied, because more than 20 sets are written as a long table" in feedback.textLog()
    assert len(feats) == 95 * 30
    per_set = {}
    for f in feats:
        per_set[f["set"]] = per_set.get(f["set"], 0) + f["syn_count"]
    total = sum(c for c, _ in truth(areas_table).values())
    assert sorted(per_set) == list(range(1, 31)) and set(per_set.values()) == {total}


def test_expected_field_and_rate_scale_agree(areas, tmp_path):
    """A rate per 100,000 with RATE_SCALE and the same prior as expected counts give the same release. Without
    rescaling to the total (which would cancel any constant factor), a RATE_SCALE that was ignored or applied
    twice would change prior_expected 1e5-fold."""
    layer = QgsVectorLayer(areas, "in", "ogr")
    memory = QgsVectorLayer("Polygon?crs=EPSG:28992", "m", "memory")
    fields = [QgsField("area_id", QVariant.String), QgsField("dwellings", QVariant.Int)]
    fields += [QgsField("unemployed", QVariant.Int), QgsField("per100k", QVariant.Double)]
    fields += [QgsField("expected", QVariant.Double)]
    memory.dataProvider().addAttributes(fields)
    memory.updateFields()
    for f in layer.getFeatures():
        g = QgsFeature(memory.fields())
        g.setGeometry(f.geometry())
        g.setAttributes(
            [f["area_id"], f["dwellings"], f["unemployed"], f["prior_rate"] * 1e5, f["prior_rate"] * f["dwellings"]]
        )
        memory.dataProvider().addFeature(g)
    common = {"RESCALE_PRIOR": False, "C": 4.0}
    a = processing.run(
        ALG,
        base(memory, tmp_path, RATE_FIELD="per100k", RATE_SCALE=1e5, OUTPUT=str(tmp_path / "a.gpkg"), **common),
    )
    b = processing.run(
        ALG,
        base(memory, tmp_path, RATE_FIELD=None, EXPECTED_FIELD="expected", OUTPUT=str(tmp_path / "b.gpkg"), **common),
    )

    def rows(result):
        return [(f["area_id"], f["syn_1"], round(f["prior_a"], 9), round(f["prior_expected"], 9)) for f in result]

    feats_a, feats_b = features(a["OUTPUT"])[1], features(b["OUTPUT"])[1]
    assert rows(feats_a) == rows(feats_b)
    expected = {f["area_id"]: f["prior_rate"] * f["dwellings"] for f in layer.getFeatures()}
    for f in feats_a:  # the prior is the public rate times the population, not rescaled
        assert f["prior_expected"] == pytest.approx(expected[f["area_id"]], rel=1e-12)
        assert f["syn_rate"] == pytest.approx(f["syn_mean"] / f["dwellings"] * 1e5, rel=1e-12)


def test_running_again_onto_an_output_open_in_the_project_replaces_it(areas, tmp_path, keep_in_project):
    """A user reruns with another seed onto the GeoPackage the first run loaded: the file is replaced whole (a
    sound database, no staged or SQLite side file left), and the loaded layer shows the new sets on reload."""
    import sqlite3
    from contextlib import closing

    processing.run(ALG, base(areas, tmp_path, SEED=1))
    target = tmp_path / "synthetic.gpkg"
    loaded = keep_in_project(QgsVectorLayer(str(target), "synthetic", "ogr"))
    first = [f["syn_1"] for f in loaded.getFeatures()]
    processing.run(ALG, base(areas, tmp_path, SEED=2))
    second = [f["syn_1"] for f in features(target)[1]]
    assert len(second) == len(first) and second != first
    loaded.reload()
    assert [f["syn_1"] for f in loaded.getFeatures()] == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["synthetic.gpkg"]
    with closing(sqlite3.connect(target)) as database:
        assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_smaller_epsilon_means_more_informative_priors(areas, tmp_path):
    strict = processing.run(ALG, base(areas, tmp_path, EPSILON=0.1, OUTPUT=str(tmp_path / "s.gpkg")))
    loose = processing.run(ALG, base(areas, tmp_path, EPSILON=4.0, OUTPUT=str(tmp_path / "l.gpkg")))
    assert strict["MEDIAN_A"] > loose["MEDIAN_A"]
    untruncated = processing.run(ALG, base(areas, tmp_path, TRUNCATE=False, OUTPUT=str(tmp_path / "u.gpkg")))
    total = sum(c for c, _ in truth(areas).values())
    # without truncation every a_i must reach T / (e^(eps/2) - 1) (calibrate's pairwise rule)
    assert untruncated["MEDIAN_A"] == pytest.approx(total / np.expm1(0.5), rel=1e-6)


def _small_layer(rows, shapes=None):
    """A memory layer with count y, population n and prior rate; a table, or polygons from ``shapes`` (WKT)."""
    from qgis.core import QgsGeometry

    layer = QgsVectorLayer("None" if shapes is None else "Polygon?crs=EPSG:27700", "small", "memory")
    layer.dataProvider().addAttributes(
        [QgsField("y", QVariant.Double), QgsField("n", QVariant.Double), QgsField("rate", QVariant.Double)]
    )
    layer.updateFields()
    for k, row in enumerate(rows):
        f = QgsFeature(layer.fields())
        if shapes is not None:
            f.setGeometry(QgsGeometry.fromWkt(shapes[k]))
        f.setAttributes(list(row))
        layer.dataProvider().addFeature(f)
    return layer


def _small_params(layer, out: Path, **extra):
    return {
        "INPUT": layer,
        "COUNT_FIELD": "y",
        "POPULATION_FIELD": "n",
        "RATE_FIELD": "rate",
        "EPSILON": 1.0,
        **extra,
        "OUTPUT": str(out / "synthetic.gpkg"),
    }


@pytest.mark.parametrize(
    ("rows", "extra", "message"),
    [
        ([(3, 100, 0.01), (-1, 100, 0.01), (2, 100, 0.01)], {}, r"COUNT_FIELD: counts must be >= 0"),
        ([(3, 100, 0.01), (1.5, 100, 0.01), (2, 100, 0.01)], {}, r"COUNT_FIELD: counts must be whole numbers"),
        # beyond 2^53 no count can be checked to be whole; 1e300 overflowed into the priors and blamed RATE_FIELD
        ([(3, 100, 0.01), (1e300, 100, 0.01), (2, 100, 0.01)], {}, r"^COUNT_FIELD: the counts add up to 1e\+300, more"),
        ([(3, 100, 0.01), (1, 0, 0.01), (2, 100, 0.01)], {}, r"POPULATION_FIELD: every population must be > 0"),
        ([(3, 100, 0.01), (1, None, 0.01), (2, 100, 0.01)], {}, r"POPULATION_FIELD: feature \d+ has no value"),
        ([(3, 100, 0.01), (1, 100, 0.0), (2, 100, 0.01)], {}, r"RATE_FIELD: every prior rate"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"EPSILON": 0.0}, r"EPSILON"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"EPSILON": 1e6}, r"EPSILON: epsilon must be at most"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"RATE_SCALE": float("nan")}, r"RATE_SCALE"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"ALPHA": 0.5}, r"ALPHA"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"C": 0.5}, r"\bC\b"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"EXPECTED_FIELD": "rate"}, r"exactly one"),
        # a published prior or population taken from the confidential counts would publish them
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"POPULATION_FIELD": "Y"}, r"POPULATION_FIELD: 'Y' is th"),
        ([(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)], {"RATE_FIELD": "y"}, r"RATE_FIELD: 'y' is the count"),
        (
            [(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)],
            {"RATE_FIELD": None, "EXPECTED_FIELD": "y"},
            r"EXPECTED_FIELD: 'y' is the count field",
        ),
    ],
)
def test_bad_input_is_refused_and_nothing_written(tmp_path, rows, extra, message):
    out = tmp_path / "out"
    params = _small_params(_small_layer(rows), out, ALPHA=0.2, OUTPUT_REPORT=str(out / "report.html"))
    params.update(extra)
    with pytest.raises(QgsProcessingException, match=message):
        processing.run(ALG, params)
    assert not (tmp_path / "out").exists()


def test_only_the_fields_asked_for_are_copied(tmp_path):
    """A column derived from the counts (here the true rate, which gives back y exactly) must not reach the
    publishable output unless the user names it; the count field itself cannot be named."""
    rows = [(3, 100, 0.01), (1, 100, 0.01), (2, 100, 0.01)]
    layer = _small_layer(rows)
    layer.dataProvider().addAttributes([QgsField("true_rate", QVariant.Double), QgsField("code", QVariant.String)])
    layer.updateFields()
    for f, (y, n, _) in zip(layer.getFeatures(), rows):
        layer.dataProvider().changeAttributeValues({f.id(): {3: y / n, 4: f"A{f.id()}"}})
    result = processing.run(ALG, _small_params(layer, tmp_path, SEED=1))
    out, feats = features(result["OUTPUT"])
    assert [n for n in out.fields().names() if n != "fid"][:2] == ["group_fid", "syn_1"]
    assert sorted(f["group_fid"] for f in feats) == sorted(f.id() for f in layer.getFeatures())
    result = processing.run(ALG, _small_params(layer, tmp_path / "k", SEED=1, KEEP_FIELDS=["code"]))
    assert "code" in features(result["OUTPUT"])[0].fields().names()
    for keep in (["Y"], ["code", "y"]):
        with pytest.raises(QgsProcessingException, match=r"KEEP_FIELDS: '[yY]' is the count field"):
            processing.run(ALG, _small_params(layer, tmp_path / "r", KEEP_FIELDS=keep))
    with pytest.raises(QgsProcessingException, match=r"KEEP_FIELDS"):
        processing.run(ALG, _small_params(layer, tmp_path / "r", KEEP_FIELDS=["nonexistent"]))
    assert not (tmp_path / "r").exists()


def test_count_field_in_another_case_is_still_left_out(areas, tmp_path):
    # QGIS matches field names ignoring case; the confidential count must go whatever the spelling
    result = processing.run(ALG, base(areas, tmp_path, COUNT_FIELD="UNEMPLOYED"))
    layer, feats = features(result["OUTPUT"])
    assert "unemployed" not in [name.lower() for name in layer.fields().names()]
    assert sum(f["syn_1"] for f in feats) == sum(c for c, _ in truth(areas).values())


def test_clashing_and_text_fields_are_refused(tmp_path):
    layer = QgsVectorLayer("None", "bad", "memory")
    layer.dataProvider().addAttributes(
        [
            QgsField("y", QVariant.Double),
            QgsField("n", QVariant.Double),
            QgsField("rate", QVariant.Double),
            QgsField("label", QVariant.String),
            QgsField("prior_expected", QVariant.Double),
        ]
    )
    layer.updateFields()
    for row in [(3, 100, 0.01, "0.01", 1.0), (1, 100, 0.01, "0.01", 1.0), (2, 100, 0.01, "x", 1.0)]:
        f = QgsFeature(layer.fields())
        f.setAttributes(list(row))
        layer.dataProvider().addFeature(f)
    params = {
        "INPUT": layer,
        "COUNT_FIELD": "y",
        "POPULATION_FIELD": "n",
        "RATE_FIELD": "label",
        "EPSILON": 1.0,
        "OUTPUT": str(tmp_path / "out" / "synthetic.gpkg"),
        "OUTPUT_REPORT": str(tmp_path / "out" / "report.html"),  # its folder must not be made either
    }
    # text is allowed (OGR reads CSV columns as text), but every value must be a number
    with pytest.raises(QgsProcessingException, match=r"RATE_FIELD: feature \d+ has 'x' in 'label', which is not a"):
        processing.run(ALG, params)
    params["RATE_FIELD"] = "rate"  # an output column name taken by a copied field would shift the columns
    params["KEEP_FIELDS"] = ["prior_expected"]
    with pytest.raises(
        QgsProcessingException, match=r"KEEP_FIELDS: the kept field 'prior_expected' has the name of an output field"
    ):
        processing.run(ALG, params)
    assert not (tmp_path / "out").exists()


def test_csv_table_with_text_columns_works(areas_table, tmp_path):
    # a CSV given by path: OGR reads every column as text; the numbers in it must still be used
    source = QgsVectorLayer(areas_table, "t", "ogr")
    csv = tmp_path / "areas.csv"
    lines = ["area_id,unemployed,dwellings,prior_rate"]
    lines += [f"{f['area_id']},{f['unemployed']},{f['dwellings']},{f['prior_rate']!r}" for f in source.getFeatures()]
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    layer = QgsVectorLayer(str(csv), "csv", "ogr")
    assert layer.isValid() and layer.fields().field("unemployed").type() == QVariant.String
    result = processing.run(ALG, base(str(csv), tmp_path, OUTPUT=str(tmp_path / "csv_out.gpkg")))
    _, feats = features(result["OUTPUT"])
    assert result["GROUPS"] == 95 and sum(f["syn_1"] for f in feats) == sum(c for c, _ in truth(areas_table).values())
    # written as CSV too, the counts read back as numbers (its .csvt gives the column types)
    again = processing.run(ALG, base(str(csv), tmp_path, OUTPUT=str(tmp_path / "csv_out.csv")))
    layer, rows = features(again["OUTPUT"])
    types = {f.name(): f.typeName() for f in layer.fields()}
    assert types["syn_1"] == "Integer64" and types["syn_rate"] == "Real", types
    assert sorted(f["syn_1"] for f in rows) == sorted(f["syn_1"] for f in feats)


def test_cancel_writes_nothing(areas, tmp_path):
    feedback = QgsProcessingFeedback()
    feedback.cancel()
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        processing.run(ALG, base(areas, tmp_path), feedback=feedback)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("when", ["building the sampler", "drawing the sets"])
def test_cancel_during_the_synthesis_writes_nothing(areas, tmp_path, when):
    class CancelAt(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.messages = []

        def pushInfo(self, text, *args):  # noqa: N802 (QGIS API name)
            super().pushInfo(text, *args)
            self.messages.append(text)
            if (
                when == "building the sampler"
                and "level 2 of" in text
                or when == "drawing the sets"
                and "sets 1-" in text
            ):
                self.cancel()

    feedback = CancelAt()
    out = tmp_path / "out"
    params = base(areas, out, SETS=200, OUTPUT_REPORT=str(out / "report.html"))
    with pytest.raises(QgsProcessingException, match="[Cc]ancel"):
        processing.run(ALG, params, feedback=feedback)
    assert feedback.isCanceled() and not out.exists()


def test_outputs_sharing_a_file_and_too_many_sets_are_refused_before_any_work(areas, tmp_path, monkeypatch):
    from spatial_privacy.processing.algorithms import dp_counts

    out = tmp_path / "out"
    same = str(out / "both.gpkg")
    with pytest.raises(QgsProcessingException, match=r"OUTPUT_REPORT: writes the same file as OUTPUT"):
        processing.run(ALG, base(areas, out, OUTPUT=same, OUTPUT_REPORT=same))
    monkeypatch.setattr(dp_counts, "MAX_SYNTHETIC_VALUES", 95 * 10)
    processing.run(ALG, base(areas, out, SETS=10))  # exactly at the limit
    with pytest.raises(QgsProcessingException, match=r"SETS: 11 sets of 95 groups are 1045 synthetic counts"):
        processing.run(ALG, base(areas, tmp_path / "out2", SETS=11))
    assert not (tmp_path / "out2").exists()


def test_too_many_groups_for_the_memory_limit_are_refused_naming_input(areas, tmp_path, monkeypatch):
    """The exact sampler's size is checked level by level before its memory is taken (500,000 groups had grown
    to 6.4 GB, and a memory limit ended in a raw numpy traceback)."""
    from spatial_privacy.core import counts_sampler as counts

    monkeypatch.setattr(counts, "MAX_SAMPLER_VALUES", 1000)
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=r"^INPUT: 95 groups with these counts and priors need an exact"):
        processing.run(ALG, base(areas, out))
    assert not out.exists()


def test_running_out_of_memory_is_a_message_not_a_traceback(areas, tmp_path, monkeypatch):
    from spatial_privacy.core import counts_sampler as counts

    def no_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 1023. MiB for an array with shape (134047432,) and data type float64")

    monkeypatch.setattr(counts, "_convolve_level", no_memory)
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException) as error:
        processing.run(ALG, base(areas, out))
    assert str(error.value).startswith("Not enough memory for this run (Unable to allocate 1023. MiB")
    assert "Traceback" not in str(error.value) and not out.exists()


def test_graphical_model_and_batch(areas, areas_table, tmp_path):
    """extract (dwellings >= 100) -> dpcounts in a model; then a batch over the polygon layer and the table."""
    model = QgsProcessingModelAlgorithm("dp counts chain", "tests")
    model.addModelParameter(QgsProcessingParameterFeatureSource("areas", "areas"), QgsProcessingModelParameter("areas"))
    extract = QgsProcessingModelChildAlgorithm("native:extractbyexpression")
    extract.setChildId("extract")
    extract.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromModelParameter("areas")])
    extract.addParameterSources(
        "EXPRESSION", [QgsProcessingModelChildParameterSource.fromStaticValue("dwellings >= 100")]
    )
    model.addChildAlgorithm(extract)
    child = QgsProcessingModelChildAlgorithm(ALG)
    child.setChildId("dp")
    child.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromChildOutput("extract", "OUTPUT")])
    statics = {"COUNT_FIELD": "unemployed", "POPULATION_FIELD": "dwellings", "RATE_FIELD": "prior_rate", "SEED": 1}
    for key, value in statics.items():
        child.addParameterSources(key, [QgsProcessingModelChildParameterSource.fromStaticValue(value)])
    out = QgsProcessingModelOutput("synthetic", "synthetic")
    out.setChildOutputName("OUTPUT")
    child.setModelOutputs({"synthetic": out})
    model.addChildAlgorithm(child)
    result = processing.run(model, {"areas": areas, "dp:synthetic": str(tmp_path / "model.gpkg")})
    _, feats = features(result["dp:synthetic"])
    kept = [f for f in QgsVectorLayer(areas, "a", "ogr").getFeatures() if f["dwellings"] >= 100]
    assert len(feats) == len(kept) < 95
    assert sum(f["syn_1"] for f in feats) == sum(f["unemployed"] for f in kept)

    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    context.setProject(QgsProject.instance())
    rows = [base(areas, tmp_path, OUTPUT=str(tmp_path / f"batch{k}.gpkg")) for k in range(2)]
    rows[1]["INPUT"] = areas_table
    results = [processing.run(ALG, row, context=context, feedback=feedback) for row in rows]
    first, second = (features(r["OUTPUT"])[1] for r in results)
    # same data, same seed: the table and the polygon layer give the same synthetic counts
    assert [f["syn_1"] for f in first] == [f["syn_1"] for f in second]
    assert re.search(r"95 groups", feedback.textLog())


def test_in_a_model_a_prior_from_the_count_field_is_still_refused(areas, tmp_path, one_step_model):
    """QGIS does not call checkParameterValues for a model's child algorithms: the run itself must refuse."""
    statics = {"COUNT_FIELD": "unemployed", "POPULATION_FIELD": "dwellings", "EXPECTED_FIELD": "unemployed"}
    model = one_step_model(ALG, {**statics, "RESCALE_PRIOR": False, "SEED": 1})
    feedback = QgsProcessingFeedback()
    with pytest.raises(QgsProcessingException):  # the model reports "Error encountered while running <child>"
        processing.run(model, {"pts": areas, "c:o": str(tmp_path / "out" / "model.gpkg")}, feedback=feedback)
    assert "EXPECTED_FIELD: 'unemployed' is the count field" in feedback.textLog()
    assert not (tmp_path / "out").exists()


def test_cancel_while_writing_leaves_the_previous_outputs(areas_table, tmp_path):
    """The outputs are staged: a Cancel while the long table is being written stops it, and the files that
    were at the targets are still there, unchanged, with no partial file beside them."""

    class CancelWhileWriting(QgsProcessingFeedback):
        def setProgress(self, progress):  # noqa: N802 (QGIS API name)
            super().setProgress(progress)
            if progress > 86.0:  # past 85 %: the long table is being written
                self.cancel()

    params = base(
        areas_table,
        tmp_path,
        SETS=3,
        SEED=1,
        OUTPUT=str(tmp_path / "long.gpkg"),
        OUTPUT_REPORT=str(tmp_path / "r.html"),
    )
    previous = processing.run(ALG, params)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(before) == {"long.gpkg", "r.html"}
    feedback = CancelWhileWriting()
    with pytest.raises(QgsProcessingException, match="Cancelled: this algorithm wrote nothing"):
        processing.run(ALG, {**params, "SETS": 30}, feedback=feedback)
    assert feedback.progress() < 100.0  # stopped while writing, not after
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    _, feats = features(previous["OUTPUT"])
    assert len(feats) == 95  # the previous run's layer: one row per area, its 3 sets as columns


def test_a_skip_invalid_geometries_setting_does_not_drop_an_area(tmp_path):
    # a self-intersecting ("bow-tie") area is still an area with a count: with QGIS's "skip features with invalid
    # geometries" setting it must be neither dropped from the output nor make the run fail
    from qgis.core import QgsFeatureRequest

    shapes = [
        "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))",
        "POLYGON((20 0, 30 10, 30 0, 20 10, 20 0))",  # bow-tie: invalid
        "POLYGON((40 0, 50 0, 50 10, 40 10, 40 0))",
    ]
    layer = _small_layer([(3, 100, 0.02), (5, 120, 0.02), (1, 80, 0.02)], shapes)
    assert not next(layer.getFeatures(QgsFeatureRequest().setFilterFid(2))).geometry().isGeosValid()
    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    context.setInvalidGeometryCheck(QgsFeatureRequest.GeometrySkipInvalid)
    result = processing.run(ALG, _small_params(layer, tmp_path, SETS=2, SEED=1), context=context)
    _, feats = features(result["OUTPUT"])
    assert len(feats) == 3
    wkts = sorted(f.geometry().asWkt(0) for f in feats)
    assert any("30 10" in w for w in wkts)  # the bow-tie came through unchanged


@pytest.mark.parametrize(
    "sets, name",
    [(1, "DP synthetic counts (ε = 0.5)"), (3, "DP synthetic counts (total ε = 1.5: 3 sets of ε = 0.5)")],
)
def test_the_loaded_layer_names_the_guarantee_of_the_whole_output(areas, tmp_path, run_loading, sets, name):
    params = base(areas, tmp_path, EPSILON=0.5, SETS=sets, SEED=None)  # a real release: a seeded one is NOT PRIVATE
    results, context, feedback = run_loading(ALG, params)
    assert run_loading.loaded(context, params["OUTPUT"], None, feedback) == name


def test_a_long_table_as_a_shapefile_is_refused_before_the_synthesis(areas, tmp_path):
    """More than 20 sets are written as a table without geometry, which a Shapefile cannot hold (QGIS would write
    the .dbf alone and report a .shp that does not load)."""
    feedback = QgsProcessingFeedback()
    with pytest.raises(QgsProcessingException, match=r"^OUTPUT: this output is a table without geometry"):
        processing.run(ALG, base(areas, tmp_path, SETS=30, OUTPUT=str(tmp_path / "long.shp")), feedback=feedback)
    assert "Synthetic data sets" not in feedback.textLog() and list(tmp_path.iterdir()) == []
    result = processing.run(ALG, base(areas, tmp_path, SETS=5, OUTPUT=str(tmp_path / "wide.shp")))
    layer = QgsVectorLayer(result["OUTPUT"], "wide", "ogr")
    assert layer.featureCount() == 95
    # the counts read back as integers: a .dbf number column wider than 18 digits would read as Real
    types = {field.name(): field.typeName() for field in layer.fields()}
    assert all(
        types[name] == "Integer64" for name in ["group_fid", "lower", "upper"] + [f"syn_{k}" for k in range(1, 6)]
    )
