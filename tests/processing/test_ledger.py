"""The privacy-budget ledger from Processing: every differentially private release recorded through processing.run
(pufferfishgrid, dpcounts, dppoints), the check stated before the run, budgets that warn or refuse, the
spatialprivacy:privacyledger tool (listing, CSV, budgets; in a model), concurrent runs, damaged ledgers, and the
notes of the crash-safe commits shown in a run's log."""

from __future__ import annotations

import csv
import json
import math
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from qgis import processing
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingModelAlgorithm,
    QgsProcessingModelChildAlgorithm,
    QgsProcessingModelChildParameterSource,
    QgsProcessingModelOutput,
    QgsProcessingModelParameter,
    QgsProcessingParameterFile,
    QgsProject,
    QgsVectorFileWriter,
    QgsVectorLayer,
)

from spatial_privacy.core.ledger import Ledger

GRID = "spatialprivacy:pufferfishgrid"
COUNTS = "spatialprivacy:dpcounts"
POINTS = "spatialprivacy:dppoints"
LEDGER_TOOL = "spatialprivacy:privacyledger"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


class Log(QgsProcessingFeedback):
    """A feedback that keeps the log: ``infos`` and ``warnings``."""

    def __init__(self):
        super().__init__()
        self.infos, self.warnings = [], []

    def pushInfo(self, info):  # noqa: N802 (QGIS API name)
        super().pushInfo(info)
        self.infos.append(info)

    def pushWarning(self, warning):  # noqa: N802 (QGIS API name)
        super().pushWarning(warning)
        self.warnings.append(warning)

    @property
    def text(self) -> str:
        return "\n".join(self.infos + self.warnings)


def grid(enterprises, out: Path, name="grid", **extra) -> dict:
    params = {
        "INPUT": enterprises,
        "FIELD": "production",
        "CELL_SIZE": 500.0,
        "EPSILON": 0.5,
        "INTERVAL": 50.0,
        "OUTPUT": str(out / f"{name}.gpkg"),
        "REPORT": str(out / f"{name}.html"),
    }
    params.update(extra)
    return params


def counts(areas, out: Path, name="counts", **extra) -> dict:
    params = {
        "INPUT": areas,
        "COUNT_FIELD": "unemployed",
        "POPULATION_FIELD": "dwellings",
        "RATE_FIELD": "prior_rate",
        "EPSILON": 0.5,
        "SETS": 3,
        "OUTPUT": str(out / f"{name}.gpkg"),
    }
    params.update(extra)
    return params


@pytest.fixture(scope="module")
def areas(data_copy) -> str:
    return str(data_copy / "dwelling_areas.gpkg") + "|layername=areas"


@pytest.fixture
def deaths(data_copy) -> str:
    return f"{data_copy / 'snow_cholera.gpkg'}|layername=deaths"


@pytest.fixture
def snow_window(deaths, keep_in_project):
    """A public window around Snow's deaths (no CRS, like the deaths), as a memory layer."""
    layer = QgsVectorLayer(deaths, "deaths", "ogr")
    extent = layer.extent()
    extent.grow(1.0)
    window = QgsVectorLayer("Polygon", "window", "memory")
    window.setCrs(QgsCoordinateReferenceSystem())  # none, like the deaths (a memory layer gets EPSG:4326)
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromRect(extent))
    window.dataProvider().addFeatures([feature])
    return keep_in_project(window)


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_every_release_is_recorded_and_the_log_states_what_it_adds_and_the_total(enterprises, tmp_path):
    ledger = tmp_path / "releases.jsonl"
    first, second = Log(), Log()
    processing.run(GRID, grid(enterprises, tmp_path, "a", LEDGER=str(ledger)), feedback=first)
    assert ledger.exists() and (tmp_path / "releases.key").exists()
    if os.name != "nt":  # the key reveals which data set a fingerprint is: its owner only
        assert stat.S_IMODE((tmp_path / "releases.key").stat().st_mode) == 0o600
    assert "new" in first.text and str(tmp_path / "releases.key") in first.text
    assert "this release adds ε = 0.5, δ = 0; the total becomes ε = 0.5, δ = 0 over 1 release(s)" in first.text
    processing.run(GRID, grid(enterprises, tmp_path, "b", LEDGER=str(ledger), EPSILON=0.25), feedback=second)
    assert "this release adds ε = 0.25, δ = 0; the total becomes ε = 0.75, δ = 0 over 2 release(s)" in second.text
    assert "1 earlier release(s)" in second.text and "Recorded as release 2 of data set" in second.text

    one, two = records(ledger)
    assert one["dataset"] == two["dataset"] and one["dataset_label"] == "sdcspatial_enterprises"
    assert one["algorithm"] == GRID and one["mechanism"] == "absolute" and not one["seeded"]
    (guarantee,) = two["guarantees"]
    assert guarantee["neighbourhood"]["code"] == "pufferfish-absolute"
    assert guarantee["neighbourhood"]["parameter"] == 50.0 and guarantee["neighbourhood"]["units"] == "production"
    assert (guarantee["epsilon"], guarantee["delta"], guarantee["proven"]) == (0.25, 0.0, True)
    assert set(two["outputs"]) == {str(tmp_path / "b.gpkg"), str(tmp_path / "b.html")}
    totals = Ledger(str(ledger)).totals(one["dataset"])
    assert totals.totals[0].epsilon == 0.75

    report = (tmp_path / "b.html").read_text(encoding="utf-8")
    assert "<h2>Privacy-budget ledger</h2>" in report and "releases.jsonl" in report
    assert "ε = 0.75, δ = 0 over 2 release(s)" in report
    assert str(tmp_path) not in report.split("Privacy-budget ledger")[-1]  # the ledger's name, not its folder


def test_the_default_ledger_is_beside_the_saved_project_and_none_is_kept_without_one(enterprises, tmp_path):
    project = QgsProject.instance()
    log = Log()
    processing.run(GRID, grid(enterprises, tmp_path, "none"), feedback=log)
    assert "No privacy-budget ledger is kept" in log.text and "LEDGER" in log.text
    assert not list(tmp_path.glob("*.jsonl")) and not list(tmp_path.glob("*.key"))
    report = (tmp_path / "none.html").read_text(encoding="utf-8")
    assert "None was kept for this release" in report

    folder = tmp_path / "study"
    folder.mkdir()
    project.setFileName(str(folder / "survey.qgz"))
    try:
        processing.run(GRID, grid(enterprises, tmp_path, "saved"))
        processing.run(
            LEDGER_TOOL, {"OUTPUT": QgsProcessing.TEMPORARY_OUTPUT, "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT}
        )
    finally:
        project.setFileName("")
    assert len(records(folder / "survey.privacy-ledger.jsonl")) == 1
    assert (folder / "survey.privacy-ledger.key").exists()


def test_over_budget_the_run_warns_or_refuses_naming_budget_epsilon_and_writes_nothing(enterprises, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    processing.run(GRID, grid(enterprises, tmp_path, "first", LEDGER=str(ledger)))
    before = ledger.read_bytes()
    out = tmp_path / "refused"
    params = grid(enterprises, out, LEDGER=str(ledger), BUDGET_EPSILON=0.8, REFUSE_OVER_BUDGET=True)
    with pytest.raises(QgsProcessingException, match=r"^BUDGET_EPSILON: .*exceed.*ε = 0.8.*Nothing was written"):
        processing.run(GRID, params)
    assert ledger.read_bytes() == before and not out.exists()

    # within the budget it runs; δ left empty is a δ budget of 0, which this pure-ε release meets
    processing.run(GRID, {**params, "BUDGET_EPSILON": 1.0, "OUTPUT": str(out / "within.gpkg")})
    assert len(records(ledger)) == 2

    log = Log()
    processing.run(GRID, {**params, "REFUSE_OVER_BUDGET": False, "OUTPUT": str(out / "warned.gpkg")}, feedback=log)
    assert any("exceed its privacy budget" in w and "REFUSE_OVER_BUDGET" in w for w in log.warnings)
    assert "OVER BUDGET" in log.text and len(records(ledger)) == 3  # a warning: recorded all the same

    with pytest.raises(QgsProcessingException, match="BUDGET_DELTA: a δ budget needs an ε budget too"):
        processing.run(GRID, grid(enterprises, out, LEDGER=str(ledger), BUDGET_DELTA=1e-6))
    with pytest.raises(QgsProcessingException, match="BUDGET_EPSILON: the budget must be a finite number"):
        processing.run(GRID, grid(enterprises, out, LEDGER=str(ledger), BUDGET_EPSILON="inf"))
    assert not (out / "grid.gpkg").exists() and len(records(ledger)) == 3


def test_seeded_runs_and_bounds_from_the_data_are_recorded_as_not_private(enterprises, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    log = Log()
    processing.run(GRID, grid(enterprises, tmp_path, "seeded", LEDGER=str(ledger), SEED=3), feedback=log)
    assert any("counts as ε = ∞" in w for w in log.warnings)
    processing.run(
        GRID,
        grid(enterprises, tmp_path, "from_data", LEDGER=str(ledger), BOUNDED=True, BOUNDS_FROM_DATA=True, MARGIN=10.0),
    )
    seeded, from_data = records(ledger)
    assert seeded["seeded"] and "SEED" in seeded["note"]
    assert from_data["seeded"] and "bounds from the data" in from_data["note"]
    assert from_data["mechanism"] == "absolute bounded"
    (total,) = Ledger(str(ledger)).totals(seeded["dataset"]).totals
    assert math.isinf(total.epsilon) and total.seeded == (1, 2)


def test_a_damaged_ledger_is_refused_naming_ledger_and_the_file_and_is_never_written(enterprises, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    processing.run(GRID, grid(enterprises, tmp_path, "first", LEDGER=str(ledger)))
    lines = ledger.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace('"epsilon":0.5', '"epsilon":0.05')  # a release edited by hand
    ledger.write_text("".join(lines), encoding="utf-8")
    damaged = ledger.read_bytes()
    out = tmp_path / "out"
    for tool, params in (
        (GRID, grid(enterprises, out, LEDGER=str(ledger))),
        (
            LEDGER_TOOL,
            {"LEDGER": str(ledger), "OUTPUT": str(out / "list.gpkg"), "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT},
        ),
    ):
        with pytest.raises(QgsProcessingException) as raised:
            processing.run(tool, params)
        message = str(raised.value)
        assert message.startswith("LEDGER: ") and str(ledger) in message and "line 2" in message, message
        assert ledger.read_bytes() == damaged and not out.exists()

    # a ledger whose key file is missing cannot tell its data sets: refused, not restarted with a new key
    ledger.write_bytes(damaged.replace(b'"epsilon":0.05', b'"epsilon":0.5'))
    (tmp_path / "ledger.key").rename(tmp_path / "elsewhere.key")
    with pytest.raises(QgsProcessingException, match=r"^LEDGER: .*ledger\.key is missing"):
        processing.run(GRID, grid(enterprises, out, LEDGER=str(ledger)))
    assert not (tmp_path / "ledger.key").exists() and not out.exists()


def test_an_output_cannot_replace_the_ledger_or_its_key(enterprises, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    processing.run(GRID, grid(enterprises, tmp_path, LEDGER=str(ledger)))
    before = ledger.read_bytes(), (tmp_path / "ledger.key").read_bytes()
    listing = {
        "LEDGER": str(ledger),
        "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT,
        "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT,
    }
    with pytest.raises(QgsProcessingException, match=r"OUTPUT_CSV: .*ledger\.key is the ledger or its key file"):
        processing.run(LEDGER_TOOL, {**listing, "OUTPUT_CSV": str(tmp_path / "ledger.key")})
    with pytest.raises(QgsProcessingException, match=r"OUTPUT_CSV: .*ledger\.jsonl is the file of LEDGER"):
        processing.run(LEDGER_TOOL, {**listing, "OUTPUT_CSV": str(ledger)})
    assert (ledger.read_bytes(), (tmp_path / "ledger.key").read_bytes()) == before
    with pytest.raises(QgsProcessingException, match="LEDGER: .* is a folder"):
        processing.run(GRID, grid(enterprises, tmp_path, "again", LEDGER=str(tmp_path)))
    assert not (tmp_path / "again.gpkg").exists()


def test_the_data_set_is_the_points_as_the_layer_stores_them(
    enterprises, deaths, snow_window, tmp_path, keep_in_project
):
    """Working in another CRS does not make the points another data set; the grid (values) and the point
    synthesizers (locations) of the same points are one data set, under neighbourhoods that are not added up."""
    ledger = tmp_path / "ledger.jsonl"
    processing.run(GRID, grid(enterprises, tmp_path, "native", LEDGER=str(ledger)))
    processing.run(GRID, grid(enterprises, tmp_path, "utm", LEDGER=str(ledger), WORK_CRS="EPSG:32631"))
    native, utm = records(ledger)
    assert native["dataset"] == utm["dataset"]
    log = Log()
    extent = QgsVectorLayer(enterprises, "enterprises", "ogr").extent()
    extent.grow(1000.0)
    window = QgsVectorLayer("Polygon?crs=EPSG:28992", "window", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromRect(extent))
    window.dataProvider().addFeatures([feature])
    laplace = {"INPUT": enterprises, "METHOD": 2, "EPSILON": 1.0, "CELL_SIZE": 5000.0, "LEDGER": str(ledger)}
    processing.run(
        POINTS, {**laplace, "WINDOW": keep_in_project(window), "OUTPUT": str(tmp_path / "l.gpkg")}, feedback=log
    )
    laplace = records(ledger)[2]
    assert laplace["dataset"] == native["dataset"] and not laplace["seeded"]
    assert "are not added to each other" in log.text
    totals = {t.neighbourhood.code: t for t in Ledger(str(ledger)).totals(native["dataset"]).totals}
    assert totals["pufferfish-absolute"].epsilon == 1.0 and totals["pufferfish-absolute"].not_covered == (3,)
    assert totals["move"].epsilon == 1.0 and totals["move"].not_covered == (1, 2)

    # a copy in another format, its points in the reverse order, is the same data set
    layer = QgsVectorLayer(deaths, "deaths", "ogr")
    reversed_layer = QgsVectorLayer("Point", "reversed", "memory")
    reversed_layer.setCrs(QgsCoordinateReferenceSystem())
    reversed_layer.dataProvider().addFeatures([QgsFeature(f) for f in layer.getFeatures()][::-1])
    copy = tmp_path / "deaths_copy.shp"
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "ESRI Shapefile"
    error = QgsVectorFileWriter.writeAsVectorFormatV3(
        reversed_layer, str(copy), QgsProject.instance().transformContext(), options
    )
    assert error[0] == QgsVectorFileWriter.WriterError.NoError, error
    for source, name in ((deaths, "a"), (str(copy), "b")):
        processing.run(
            POINTS,
            {
                "INPUT": source,
                "WINDOW": snow_window,
                "METHOD": 2,
                "EPSILON": 1.0,
                "LEDGER": str(ledger),
                "OUTPUT": str(tmp_path / f"snow_{name}.gpkg"),
            },
        )
    a, b = records(ledger)[3:]
    assert a["dataset"] == b["dataset"] != native["dataset"]


def test_dppoints_records_the_guarantee_of_its_method(deaths, snow_window, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    common = {"INPUT": deaths, "WINDOW": snow_window, "LEDGER": str(ledger)}
    processing.run(
        POINTS,
        {**common, "METHOD": 0, "EPSILON": 5.0, "ALPHA": 0.1, "DELTA": 1e-4, "OUTPUT": str(tmp_path / "kernel.gpkg")},
    )
    processing.run(
        POINTS, {**common, "METHOD": 2, "EPSILON": 1.0, "TOTAL_SHARE": 0.2, "OUTPUT": str(tmp_path / "laplace.gpkg")}
    )
    kernel, laplace = records(ledger)
    (alpha,) = kernel["guarantees"]
    assert alpha["neighbourhood"]["code"] == "alpha" and alpha["neighbourhood"]["parameter"] == 0.1
    assert (alpha["epsilon"], alpha["delta"], alpha["proven"]) == (5.0, 1e-4, True) and kernel["mechanism"] == "kernel"
    move, add_remove = laplace["guarantees"]
    assert move["neighbourhood"]["code"] == "move" and move["epsilon"] == pytest.approx(0.8)  # (1 - s) ε
    assert add_remove["neighbourhood"]["code"] == "add-remove" and add_remove["epsilon"] > 0.2
    totals = {t.neighbourhood.code: t for t in Ledger(str(ledger)).totals(kernel["dataset"]).totals}
    assert totals["alpha"].epsilon == pytest.approx(5.8)  # the Laplace move guarantee holds for every alpha
    assert totals["move"].not_covered == (1,)  # an alpha guarantee says nothing about a move of any distance


def test_dppoints_lgcp_is_recorded_as_nominal(deaths, snow_window, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    processing.run(
        POINTS,
        {
            "INPUT": deaths,
            "WINDOW": snow_window,
            "LEDGER": str(ledger),
            "METHOD": 1,
            "EPSILON": 5.0,
            "ALPHA": 0.1,
            "DELTA": 1e-4,
            "KNOTS": 5,
            "OUTPUT": str(tmp_path / "lgcp.gpkg"),
        },
    )
    (lgcp,) = records(ledger)
    assert lgcp["mechanism"] == "LGCP" and lgcp["guarantees"][0]["proven"] is False


def test_dpcounts_records_l_epsilon_for_the_counts_in_any_order(areas, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    log = Log()
    processing.run(COUNTS, counts(areas, tmp_path, "a", LEDGER=str(ledger)), feedback=log)
    assert "one event moved between two groups, total fixed: this release adds ε = 1.5" in log.text
    # the same areas and counts, the features in reverse order in another file: the same data set
    layer = QgsVectorLayer(areas, "areas", "ogr")
    reversed_layer = QgsVectorLayer(f"MultiPolygon?crs={layer.crs().authid()}", "reversed", "memory")
    reversed_layer.dataProvider().addAttributes(layer.fields().toList())
    reversed_layer.updateFields()
    features = list(layer.getFeatures())
    for feature in features:
        feature.setFields(reversed_layer.fields(), False)
    reversed_layer.dataProvider().addFeatures(features[::-1])
    QgsProject.instance().addMapLayer(reversed_layer, False)
    try:
        processing.run(COUNTS, counts(reversed_layer, tmp_path, "b", LEDGER=str(ledger), SETS=1))
        # one event moved between two areas: another data set
        moved = QgsVectorLayer(f"MultiPolygon?crs={layer.crs().authid()}", "moved", "memory")
        moved.dataProvider().addAttributes(layer.fields().toList())
        moved.updateFields()
        index = layer.fields().indexOf("unemployed")
        changed = [QgsFeature(f) for f in features]
        donor = next(f for f in changed if f["unemployed"] > 0)
        donor.setAttribute(index, donor["unemployed"] - 1)
        taker = next(f for f in changed if f.id() != donor.id())
        taker.setAttribute(index, taker["unemployed"] + 1)
        moved.dataProvider().addFeatures(changed)
        QgsProject.instance().addMapLayer(moved, False)
        processing.run(COUNTS, counts(moved, tmp_path, "c", LEDGER=str(ledger), SETS=1))
    finally:
        QgsProject.instance().removeMapLayer(reversed_layer.id())
        QgsProject.instance().removeMapLayer(moved.id())
    a, b, c = records(ledger)
    assert a["dataset"] == b["dataset"] != c["dataset"]
    assert a["guarantees"][0]["neighbourhood"]["code"] == "counts-move" and a["guarantees"][0]["epsilon"] == 1.5
    assert a["mechanism"] == "Poisson-gamma, truncated"
    assert Ledger(str(ledger)).totals(a["dataset"]).totals[0].epsilon == 2.0


def test_privacyledger_lists_exports_and_sets_a_budget_that_the_release_tools_enforce(enterprises, areas, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    processing.run(GRID, grid(enterprises, tmp_path, "g1", LEDGER=str(ledger)))
    processing.run(GRID, grid(enterprises, tmp_path, "g2", LEDGER=str(ledger), SEED=1))
    processing.run(COUNTS, counts(areas, tmp_path, LEDGER=str(ledger)))
    grid_set, _, counts_set = (r["dataset"] for r in records(ledger))

    log = Log()
    listed = processing.run(
        LEDGER_TOOL,
        {
            "LEDGER": str(ledger),
            "OUTPUT": str(tmp_path / "releases.gpkg"),
            "OUTPUT_TOTALS": str(tmp_path / "totals.csv"),
            "OUTPUT_CSV": str(tmp_path / "releases.csv"),
        },
        feedback=log,
    )
    assert (listed["RELEASES"], listed["DATASETS"]) == (3, 2)
    table = QgsVectorLayer(listed["OUTPUT"], "releases", "ogr")
    rows = sorted((f["number"], f["dataset"], f["epsilon"], f["seeded"]) for f in table.getFeatures())
    assert rows == [(1, grid_set, 0.5, 0), (2, grid_set, 0.5, 1), (3, counts_set, 1.5, 0)]
    with open(tmp_path / "totals.csv", encoding="utf-8", newline="") as stream:
        totals = {row["dataset"]: row for row in csv.DictReader(stream)}
    assert float(totals[grid_set]["epsilon"]) == math.inf and totals[counts_set]["epsilon"] == "1.5"
    with open(tmp_path / "releases.csv", encoding="utf-8", newline="") as stream:
        exported = list(csv.DictReader(stream))
    assert [row["number"] for row in exported] == ["1", "2", "3"] and exported[2]["neighbourhood"] == "counts-move"
    assert f"Data set {grid_set[:16]} (sdcspatial_enterprises)" in log.text

    # a budget for the counts, by the first digits of its fingerprint; the next release over it is refused
    processing.run(
        LEDGER_TOOL,
        {
            "LEDGER": str(ledger),
            "DATASET": counts_set[:8],
            "BUDGET_EPSILON": 2.0,
            "BUDGET_NOTE": "board, May",
            "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT,
            "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT,
        },
    )
    assert Ledger(str(ledger)).budgets()[counts_set].epsilon == 2.0
    before = ledger.read_bytes()
    with pytest.raises(QgsProcessingException, match=r"^BUDGET_EPSILON: .*ε = 2, δ = 0 per neighbourhood \(set in the"):
        processing.run(COUNTS, counts(areas, tmp_path / "x", LEDGER=str(ledger), REFUSE_OVER_BUDGET=True))
    assert ledger.read_bytes() == before and not (tmp_path / "x").exists()
    log = Log()
    processing.run(COUNTS, counts(areas, tmp_path, "within", LEDGER=str(ledger), SETS=1), feedback=log)
    assert "ε = 2, δ = 0 over 2 release(s)" in log.text and not log.warnings

    # cleared; a data set named by its layer name; names that match nothing or several are refused
    processing.run(
        LEDGER_TOOL,
        {
            "LEDGER": str(ledger),
            "DATASET": "sdcspatial_enterprises",
            "CLEAR_BUDGET": True,
            "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT,
            "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT,
        },
    )
    for dataset, message in (("ffffffffff", "no data set in the ledger"), ("", "give the data set whose budget")):
        with pytest.raises(QgsProcessingException, match=f"DATASET: .*{message}"):
            processing.run(
                LEDGER_TOOL,
                {
                    "LEDGER": str(ledger),
                    "DATASET": dataset,
                    "BUDGET_EPSILON": 1.0,
                    "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT,
                    "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT,
                },
            )
    with pytest.raises(QgsProcessingException, match=r"LEDGER: .*missing\.jsonl does not exist"):
        processing.run(
            LEDGER_TOOL,
            {
                "LEDGER": str(tmp_path / "missing.jsonl"),
                "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT,
                "OUTPUT_TOTALS": QgsProcessing.TEMPORARY_OUTPUT,
            },
        )


def test_the_ledger_in_models(enterprises, tmp_path, one_step_model):
    """A release made in a model is recorded (the model's child refuses over budget as a run does); the ledger file
    is an input a model can take, and the listing a model output."""
    ledger = tmp_path / "ledger.jsonl"
    statics = {"FIELD": "production", "CELL_SIZE": 500.0, "EPSILON": 0.5, "INTERVAL": 50.0, "LEDGER": str(ledger)}
    processing.run(one_step_model(GRID, statics), {"pts": enterprises, "c:o": str(tmp_path / "grid.gpkg")})
    strict = one_step_model(GRID, {**statics, "BUDGET_EPSILON": 0.6, "REFUSE_OVER_BUDGET": True})
    log = Log()
    with pytest.raises(QgsProcessingException):
        processing.run(strict, {"pts": enterprises, "c:o": str(tmp_path / "refused.gpkg")}, feedback=log)
    assert "BUDGET_EPSILON: With this release the data set's totals exceed its privacy budget" in log.textLog()
    assert not (tmp_path / "refused.gpkg").exists() and len(records(ledger)) == 1
    model = QgsProcessingModelAlgorithm("ledger listing", "tests")
    model.addModelParameter(
        QgsProcessingParameterFile("ledger", "ledger", extension="jsonl"), QgsProcessingModelParameter("ledger")
    )
    child = QgsProcessingModelChildAlgorithm(LEDGER_TOOL)
    child.setChildId("list")
    child.addParameterSources("LEDGER", [QgsProcessingModelChildParameterSource.fromModelParameter("ledger")])
    out = QgsProcessingModelOutput("totals", "totals")
    out.setChildOutputName("OUTPUT_TOTALS")
    child.setModelOutputs({"totals": out})
    model.addChildAlgorithm(child)
    result = processing.run(model, {"ledger": str(ledger), "list:totals": str(tmp_path / "totals.gpkg")})
    (row,) = list(QgsVectorLayer(result["list:totals"], "t", "ogr").getFeatures())
    assert (row["epsilon"], row["releases"], row["neighbourhood"]) == (0.5, 1, "pufferfish-absolute")


CONCURRENT = textwrap.dedent(
    """
    import os, sys, threading
    from qgis.core import QgsApplication, QgsProcessingContext, QgsProcessingFeedback
    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing
    Processing.initialize()
    import processing
    from spatial_privacy.processing.provider import SpatialPrivacyProvider
    provider = SpatialPrivacyProvider()  # kept: the registry does not keep the Python object alive
    QgsApplication.processingRegistry().addProvider(provider)
    enterprises, out, ledger, budget = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    start, lines = threading.Barrier(4), []

    def run(k):
        params = {
            "INPUT": enterprises, "FIELD": "production", "CELL_SIZE": 500.0, "EPSILON": 0.5, "INTERVAL": 50.0,
            "OUTPUT": os.path.join(out, f"grid{k}.gpkg"), "LEDGER": ledger,
        }
        if budget != "none":
            params.update(BUDGET_EPSILON=float(budget), REFUSE_OVER_BUDGET=True)
        start.wait()
        try:
            processing.run("spatialprivacy:pufferfishgrid", params, context=QgsProcessingContext(),
                           feedback=QgsProcessingFeedback())
            lines.append(f"DONE {k}")
        except BaseException as error:
            lines.append(f"FAILED {k} {str(error).splitlines()[0]}")

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("\\n".join(lines), flush=True)
    os._exit(0)
    """
)


def _four_at_once(data_copy, tmp_path, ledger, budget) -> list[str]:
    out = tmp_path / f"out-{budget}"
    out.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            CONCURRENT,
            # with |layername: four threads opening a bare GeoPackage path at once can hang QGIS 3.22
            f"{data_copy / 'sdcspatial_enterprises.gpkg'}|layername=enterprises",
            str(out),
            str(ledger),
            budget,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        cwd=tmp_path,  # not the checkout, whose processing/ would shadow QGIS's
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return sorted(line for line in done.stdout.splitlines() if line.startswith(("DONE", "FAILED")))


def test_concurrent_runs_all_record_and_a_budget_lets_only_as_many_through_as_it_allows(data_copy, tmp_path):
    """Four runs started together in threads: each release is recorded once in a valid ledger; with a budget for
    two, the ledger's check under its lock lets exactly two through, and the others write nothing."""
    ledger = tmp_path / "ledger.jsonl"
    lines = _four_at_once(data_copy, tmp_path, ledger, "none")
    assert lines == [f"DONE {k}" for k in range(4)]
    recorded = Ledger(str(ledger)).releases()  # parses and checks every line's checksum
    assert [r.number for r in recorded] == [1, 2, 3, 4] and len({r.dataset for r in recorded}) == 1

    budgeted = tmp_path / "budgeted.jsonl"
    lines = _four_at_once(data_copy, tmp_path, budgeted, "1.0")
    done = [line for line in lines if line.startswith("DONE")]
    failed = [line for line in lines if line.startswith("FAILED")]
    assert len(done) == 2 and len(failed) == 2, lines
    assert all("BUDGET_EPSILON" in line for line in failed)
    assert len(Ledger(str(budgeted)).releases()) == 2
    assert len(list((tmp_path / "out-1.0").glob("grid*.gpkg"))) == 2  # the refused runs published nothing


KILLED_COMMIT = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from spatial_privacy.core.files import replaced_when_done, staged_writes

    folder = Path(sys.argv[1])
    real, steps = os.replace, [0]

    def killing(*args):
        if steps[0] == 4:  # the journal written, some old files set aside: killed in the middle of the commit
            os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
        steps[0] += 1
        return real(*args)

    with staged_writes():
        for name in ("a.html", "b.html", "c.html"):
            with replaced_when_done(str(folder / name)) as partial:
                Path(partial).write_text("new", encoding="utf-8")
        os.replace = killing
    """
)


def _half_committed(folder: Path) -> None:
    """Leave in ``folder`` a commit killed halfway, as a crash would."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("a.html", "b.html", "c.html"):
        (folder / name).write_text("old", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", KILLED_COMMIT, str(folder)], capture_output=True, timeout=60, cwd=folder
    )
    assert done.returncode != 0
    assert any(p.name.startswith(".spatial_privacy-journal-") for p in folder.iterdir())


def test_commits_recovered_and_numba_cache_notes_are_shown_in_the_log(enterprises, tmp_path):
    from spatial_privacy.core import jit

    folder = tmp_path / "outputs"
    _half_committed(folder)
    with jit._lock:  # as core.jit notes a cache it could not use
        jit._notes.append("numba cannot keep compiled code on disk (a test): it is compiled in each session")
    log = Log()
    processing.run(GRID, grid(enterprises, folder), feedback=log)
    assert any("numba cannot keep compiled code on disk (a test)" in line for line in log.infos)
    recovered = [line for line in log.infos if "a.html" in line or "b.html" in line or "c.html" in line]
    assert recovered, log.infos
    contents = {(folder / name).read_text(encoding="utf-8") for name in ("a.html", "b.html", "c.html")}
    assert len(contents) == 1  # all old or all new
    assert not any(p.name.startswith(".spatial_privacy-") for p in folder.iterdir())


def test_the_plugin_recovers_the_project_folder_at_start(tmp_path):
    from qgis.core import QgsApplication

    from spatial_privacy.plugin.plugin import SpatialPrivacyPlugin

    folder = tmp_path / "project"
    _half_committed(folder)
    logged = []

    def keep(message, tag, level):
        if tag == "Spatial Privacy":
            logged.append(message)

    QgsApplication.messageLog().messageReceived.connect(keep)
    project = QgsProject.instance()
    project.setFileName(str(folder / "study.qgz"))
    try:
        messages = SpatialPrivacyPlugin(None).recover_project_folders()
    finally:
        project.setFileName("")
        QgsApplication.messageLog().messageReceived.disconnect(keep)
    assert messages and all(message in logged for message in messages)
    assert not any(p.name.startswith(".spatial_privacy-") for p in folder.iterdir())
    assert len({(folder / n).read_text(encoding="utf-8") for n in ("a.html", "b.html", "c.html")}) == 1
