"""A fixed SEED makes a release reversible: anyone with the seed regenerates the noise (or the synthesis) and
removes it. Every algorithm whose publishable outputs carry the generator's draws therefore labels a seeded run's
outputs NOT PRIVATE inside the files (a GeoPackage's description, a raster's NOT_PRIVATE metadata item), in the
loaded layer's name, in the report's title and in its NOT_PRIVATE output, and the log says why; an unseeded run
does none of this. Run through processing.run (and ``alg.run`` with layers to load, as the dialog does) on the
real data in tests/data."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProject,
    QgsVectorLayer,
)

#: what the log says about a seeded release
WHY = "SEED makes the noise reproducible: anyone with the seed can subtract it"
#: the label of a seeded run, as it opens a title, a layer name or a file's description
LABEL = "NOT PRIVATE (fixed SEED)"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture(scope="module")
def snow(data_copy, provider, tmp_path_factory):
    """The cholera deaths (no CRS) and a quick LGCP model file fitted to them, for the synthesis tools."""
    deaths = QgsVectorLayer(f"{data_copy / 'snow_cholera.gpkg'}|layername=deaths", "deaths", "ogr")
    assert deaths.isValid()
    QgsProject.instance().addMapLayer(deaths, False)
    folder = tmp_path_factory.mktemp("seeded_walder")
    fit = processing.run(
        "spatialprivacy:fitlgcp",
        {"INPUT": deaths, "MAX_EDGE": 0.8, "DRAWS": 200, "OUTPUT_MODEL": str(folder / "snow.npz")},
    )
    yield {"deaths": deaths, "model": fit["OUTPUT_MODEL"]}
    QgsProject.instance().removeMapLayer(deaths.id())


def rectangle(x0, y0, x1, y1, crs: str):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "window", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x0} {y0}, {x1} {y0}, {x1} {y1}, {x0} {y1}, {x0} {y0}))"))
    layer.dataProvider().addFeatures([feature])
    return layer


def pufferfish(data, out: Path) -> tuple[str, dict, tuple[str, ...], str, tuple[str, ...]]:
    params = {
        "INPUT": str(data / "sdcspatial_enterprises.gpkg") + "|layername=enterprises",
        "FIELD": "production",
        "CELL_SIZE": 500.0,
        "EPSILON": 1.0,
        "INTERVAL": 50.0,
        "OUTPUT": str(out / "grid.gpkg"),
        "OUTPUT_RASTER": str(out / "grid.tif"),
        "REPORT": str(out / "grid.html"),
    }
    return "spatialprivacy:pufferfishgrid", params, ("OUTPUT",), "REPORT", ("OUTPUT_RASTER",)


def dpcounts(data, out: Path):
    params = {
        "INPUT": str(data / "dwelling_areas.gpkg") + "|layername=areas",
        "COUNT_FIELD": "unemployed",
        "POPULATION_FIELD": "dwellings",
        "RATE_FIELD": "prior_rate",
        "EPSILON": 1.0,
        "SETS": 2,
        "OUTPUT": str(out / "counts.gpkg"),
        "OUTPUT_REPORT": str(out / "counts.html"),
    }
    return "spatialprivacy:dpcounts", params, ("OUTPUT",), "OUTPUT_REPORT", ()


def dppoints(data, out: Path):
    layer = QgsVectorLayer(str(data / "sdcspatial_enterprises.gpkg") + "|layername=enterprises", "e", "ogr")
    extent = layer.extent()
    # a public window (not one from the data, which is a reason of its own): only the seed is at stake here
    window = rectangle(
        extent.xMinimum() - 100, extent.yMinimum() - 100, extent.xMaximum() + 100, extent.yMaximum() + 100, "EPSG:28992"
    )
    params = {
        "INPUT": layer,
        "WINDOW": window,
        "METHOD": 2,  # Laplace: the quickest
        "EPSILON": 1.0,
        "OUTPUT": str(out / "points.gpkg"),
        "OUTPUT_REPORT": str(out / "points.html"),
    }
    return "spatialprivacy:dppoints", params, ("OUTPUT",), "OUTPUT_REPORT", ()


ALGORITHMS = {"pufferfishgrid": pufferfish, "dpcounts": dpcounts, "dppoints": dppoints}


def synthesizelgcp(snow, out: Path):
    params = {
        "INPUT": snow["deaths"],
        "MODEL": snow["model"],
        "METHOD": 2,  # PRS
        "OUTPUT": str(out / "synthetic.gpkg"),
        "OUTPUT_REPORT": str(out / "synthetic.html"),
    }
    return "spatialprivacy:synthesizelgcp", params, ("OUTPUT",), "OUTPUT_REPORT", ()


def riskutilitysweep(snow, out: Path):
    params = {
        "INPUT": snow["deaths"],
        "MODEL": snow["model"],
        "RADII": "0.5",
        "NOISE_LEVELS": "",
        "PRS_SETS": 0,
        "RISK_RADIUS": 0.1,
        "MAX_RISK": 1.0,  # the radial set is recommended
        "OUTPUT_TABLE": str(out / "table.gpkg"),
        "OUTPUT_REPORT": str(out / "sweep.html"),
        "OUTPUT_RECOMMENDED": str(out / "recommended.gpkg"),
    }
    return "spatialprivacy:riskutilitysweep", params, ("OUTPUT_RECOMMENDED",), "OUTPUT_REPORT", ()


SYNTHESES = {"synthesizelgcp": synthesizelgcp, "riskutilitysweep": riskutilitysweep}


def descriptions(path: str) -> list[str]:
    with closing(sqlite3.connect(path)) as database:
        return [row[0] or "" for row in database.execute("SELECT description FROM gpkg_contents")]


def run_and_read(alg_id, params, layers, report, rasters):
    """Run as the dialog does, with the publishable ``layers`` to be loaded; return what each place says: the
    NOT_PRIVATE output, the log, every GeoPackage description and raster NOT_PRIVATE item, the report's title
    and heading, and the loaded layers' names."""
    from osgeo import gdal

    project = QgsProject.instance()
    context = QgsProcessingContext()
    context.setProject(project)
    for name in layers:
        context.addLayerToLoadOnCompletion(params[name], QgsProcessingContext.LayerDetails(name, project, name))
    feedback = QgsProcessingFeedback()
    results, ok = QgsApplication.processingRegistry().createAlgorithmById(alg_id).run(params, context, feedback)
    assert ok, feedback.textLog()
    html = Path(results[report]).read_text(encoding="utf-8")
    return {
        "output": results.get("NOT_PRIVATE"),
        "log": feedback.textLog(),
        "files": [d for name in layers for d in descriptions(results[name])]
        + [gdal.Open(results[name]).GetMetadataItem("NOT_PRIVATE") or "" for name in rasters],
        "titles": re.findall(r"<title>(.*?)</title>", html) + re.findall(r"<h1>(.*?)</h1>", html),
        "names": [context.layerToLoadOnCompletionDetails(results[name]).name for name in layers],
    }


def check_labels(alg_id, params, layers, report, rasters, tmp_path):
    seeded = run_and_read(alg_id, {**params, "SEED": 42}, layers, report, rasters)
    assert seeded["files"] and all(d.startswith(LABEL + ": no privacy guarantee holds") for d in seeded["files"])
    assert len(seeded["titles"]) == 2 and all(t.startswith(LABEL + ": ") for t in seeded["titles"])
    assert seeded["names"] and all(n.startswith(LABEL + ": ") for n in seeded["names"])
    assert seeded["output"] == "fixed SEED"
    assert WHY in seeded["log"]
    # the same run without a seed (noise from the operating system's entropy) is labelled nowhere
    plain = run_and_read(alg_id, {**params, "SEED": None}, layers, report, rasters)
    assert plain["output"] == "" and WHY not in plain["log"]
    assert not any("NOT PRIVATE" in text for key in ("files", "titles", "names") for text in plain[key])


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_a_seeded_release_says_not_private_everywhere_and_an_unseeded_one_nowhere(name, data_copy, tmp_path):
    check_labels(*ALGORITHMS[name](data_copy, tmp_path), tmp_path)


@pytest.mark.parametrize("name", sorted(SYNTHESES))
def test_a_seeded_synthesis_says_not_private_everywhere_and_an_unseeded_one_nowhere(name, snow, tmp_path):
    """The synthetic points are a function of the model and the generator's draws: with the seed, a radial set gives
    back every confidential location (subtract the regenerated offsets), and a PRS set's draws tell where the
    confidential intensity exceeds each regenerated uniform. The disclosure risks assume unknown draws."""
    check_labels(*SYNTHESES[name](snow, tmp_path), tmp_path)


def test_seeded_bounds_from_the_data_give_both_reasons(data_copy, tmp_path):
    alg_id, params, layers, report, rasters = pufferfish(data_copy, tmp_path)
    params.update(BOUNDED=True, BOUNDS_FROM_DATA=True, SEED=3)
    labels = run_and_read(alg_id, params, layers, report, rasters)
    assert labels["output"] == "fixed SEED; bounds from the data"
    assert all(n.startswith("NOT PRIVATE (fixed SEED; bounds from the data): ") for n in labels["names"])


def test_the_seed_gives_back_the_true_cell_means_of_a_pufferfish_map(data_copy, tmp_path):
    """Why the label is needed: the noise of a seeded map is regenerated from the seed alone, with the public
    mechanism (core.mechanisms.grid_laplace) and what the map publishes (n per cell, so each cell's sensitivity
    4c/n), and subtracted. What is left is each cell's true mean rounded to the mechanism's public grid (1/64 of the
    sensitivity), which is all the mechanism ever used of it: the noise is recovered exactly, for every cell."""
    from spatial_privacy.core import mechanisms

    seed, epsilon, c = 42, 1.0, 50.0
    result = processing.run(
        "spatialprivacy:pufferfishgrid",
        {
            "INPUT": str(data_copy / "sdcspatial_enterprises.gpkg") + "|layername=enterprises",
            "FIELD": "production",
            "CELL_SIZE": 500.0,
            "EPSILON": epsilon,
            "INTERVAL": c,
            "SEED": seed,
            "OUTPUT": str(tmp_path / "map.gpkg"),
            "CONFIDENTIAL_OUTPUT": str(tmp_path / "truth.gpkg"),
        },
    )
    published = sorted(QgsVectorLayer(result["OUTPUT"], "map", "ogr").getFeatures(), key=lambda f: f.id())
    n = np.array([f["n"] for f in published], dtype=float)
    value = np.array([f["value"] for f in published])
    # the attacker's side: the seed, the method's public parameters and the published map, nothing else
    regenerated = mechanisms.grid_laplace(mechanisms.generator(seed), np.zeros(n.size), 4 * c / n, epsilon)
    step = regenerated.step
    noise_steps = np.rint(regenerated.published / step)
    recovered_steps = np.rint(value / step) - noise_steps
    # the steward's side: the confidential comparison of the same run
    truth = {
        f["cell_id"]: f["true_value"] for f in QgsVectorLayer(result["CONFIDENTIAL_OUTPUT"], "t", "ogr").getFeatures()
    }
    true_mean = np.array([truth[f["cell_id"]] for f in published])
    assert n.size == len(truth) > 400
    np.testing.assert_array_equal(recovered_steps, np.rint(true_mean / step))  # every cell, exactly on the grid
    assert np.all(np.abs(recovered_steps * step - true_mean) <= step / 2 * (1 + 1e-9))
    # without the seed, another generator's noise gives nothing of the kind
    other = mechanisms.grid_laplace(mechanisms.generator(seed + 1), np.zeros(n.size), 4 * c / n, epsilon)
    wrong = np.rint(value / step) - np.rint(other.published / step)
    assert np.mean(wrong == np.rint(true_mean / step)) < 0.05


def test_a_seeded_geojson_carries_the_label_and_a_shapefile_gets_a_warning(data_copy, tmp_path):
    """GeoJSON holds the label as its FeatureCollection's "description" (GDAL's DESCRIPTION, read back as the layer's
    DESCRIPTION metadata), the features unchanged; a Shapefile cannot hold one, so the log says so, naming the
    output. An unseeded run writes no label and no warning."""
    from osgeo import ogr

    alg_id, params, _, _, _ = pufferfish(data_copy, tmp_path)
    del params["OUTPUT_RASTER"]

    def run(seed, output, confidential=None):
        feedback = QgsProcessingFeedback()
        extra = {} if confidential is None else {"CONFIDENTIAL_OUTPUT": str(tmp_path / confidential)}
        out = {**params, **extra, "SEED": seed, "OUTPUT": str(tmp_path / output), "REPORT": str(tmp_path / "r.html")}
        return processing.run(alg_id, out, feedback=feedback), feedback.textLog()

    def description(path):
        dataset = ogr.Open(path)
        assert dataset is not None, path
        return dataset.GetLayer(0).GetMetadataItem("DESCRIPTION")

    def cells(path):
        return sorted((f["cell_id"], f["n"], f["value"]) for f in QgsVectorLayer(path, "grid", "ogr").getFeatures())

    seeded, log = run(42, "grid.geojson", "truth.geojson")
    assert description(seeded["OUTPUT"]).startswith(LABEL + ": no privacy guarantee holds"), seeded["OUTPUT"]
    assert description(seeded["CONFIDENTIAL_OUTPUT"]).startswith("CONFIDENTIAL: not for publication")
    collection = json.loads(Path(seeded["OUTPUT"]).read_text(encoding="utf-8"))  # still valid JSON
    assert collection["type"] == "FeatureCollection" and collection["description"] == description(seeded["OUTPUT"])
    assert "cannot hold the label" not in log
    reference, _ = run(42, "grid.gpkg")
    written, expected = cells(seeded["OUTPUT"]), cells(reference["OUTPUT"])
    assert len(written) > 400 and [c[:2] for c in written] == [c[:2] for c in expected]
    # GDAL's GeoJSON writes 15 significant digits: the same values to that precision
    np.testing.assert_allclose([c[2] for c in written], [c[2] for c in expected], rtol=1e-14)
    plain, log = run(None, "plain.geojson")
    assert description(plain["OUTPUT"]) is None and "cannot hold the label" not in log

    shapefile, log = run(42, "grid.shp")
    assert re.search(r"OUTPUT: grid\.shp cannot hold the label 'NOT PRIVATE \(fixed SEED\): no privacy", log), log
    assert len(cells(shapefile["OUTPUT"])) == len(cells(reference["OUTPUT"]))
    _, log = run(None, "plain.shp")
    assert "cannot hold the label" not in log


@pytest.mark.parametrize("given, written", [("grid.json", "grid.json.geojson"), ("grid.foo", "grid.foo.gpkg")])
def test_the_label_goes_into_the_file_qgis_wrote_under_another_name(data_copy, tmp_path, given, written):
    """QGIS writes grid.json as GeoJSON named grid.json.geojson, and grid.foo (no vector format) as a GeoPackage
    named grid.foo.gpkg: the label goes into that file, by its format, and no warning says it cannot."""
    from osgeo import ogr

    alg_id, params, _, _, _ = pufferfish(data_copy, tmp_path)
    del params["OUTPUT_RASTER"]
    feedback = QgsProcessingFeedback()
    result = processing.run(alg_id, {**params, "SEED": 5, "OUTPUT": str(tmp_path / given)}, feedback=feedback)
    assert result["OUTPUT"] == str(tmp_path / written)
    dataset = ogr.Open(result["OUTPUT"])  # kept: its layer is valid only while the dataset is open
    label = dataset.GetLayer(0).GetMetadataItem("DESCRIPTION")
    assert label.startswith(LABEL + ": no privacy guarantee holds"), label
    assert "cannot hold the label" not in feedback.textLog()
