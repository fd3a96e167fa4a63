"""spatialprivacy:pufferfishgrid through processing.run in real headless QGIS, on real data."""

from __future__ import annotations

import math
import re
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeatureSourceDefinition,
    QgsProcessingFeedback,
    QgsProcessingModelAlgorithm,
    QgsProcessingModelChildAlgorithm,
    QgsProcessingModelChildParameterSource,
    QgsProcessingModelOutput,
    QgsProcessingModelParameter,
    QgsProcessingOutputLayerDefinition,
    QgsProcessingParameterFeatureSource,
    QgsProject,
    QgsRasterLayer,
    QgsVectorLayer,
)
from scipy import stats

from spatial_privacy.core.files import replaced_when_done

ALG = "spatialprivacy:pufferfishgrid"
MIN_PRODUCTION = 59.4585041681912  # min of `production` in the enterprises data (the thesis's gamma)


def run(params, **kw):
    return processing.run(ALG, params, **kw)


def base(layer, out: Path, **extra):
    params = {
        "INPUT": layer,
        "FIELD": "production",
        "CELL_SIZE": 500.0,
        "EPSILON": 0.1,
        "INTERVAL": 50.0,
        "OUTPUT": str(out / "grid.gpkg"),
        "REPORT": str(out / "report.html"),
    }
    params.update(extra)
    return params


def features(path):
    layer = QgsVectorLayer(str(path), "out", "ogr")
    assert layer.isValid(), path
    return layer, list(layer.getFeatures())


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


# -- registration and help ---------------------------------------------------------------------


def test_algorithm_is_registered_with_help_for_every_parameter():
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None
    assert alg.provider().name() == "Spatial Privacy"
    names = {p.name() for p in alg.parameterDefinitions()}
    assert {
        "INPUT",
        "FIELD",
        "CELL_SIZE",
        "EPSILON",
        "ERROR_MODEL",
        "INTERVAL",
        "RELATIVE_K",
        "BOUNDED",
        "LOWER_BOUND",
        "UPPER_BOUND",
        "BOUNDS_FROM_DATA",
        "MARGIN",
        "SEED",
        "OUTPUT",
    } <= names
    assert all(p.help() for p in alg.parameterDefinitions()), "every parameter needs help text"
    assert {o.name() for o in alg.outputDefinitions()} >= {"OUTPUT", "DELTA", "EPSILON", "CELLS", "REPORT"}
    help_text = alg.shortHelpString()
    for word in ("Theorem 3.1", "Corollary 3.2", "Not protected", "CELL_SIZE"):
        assert word in help_text
    assert alg.flags() & alg.FlagSupportsBatch


# -- the three mechanisms ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param({}, id="absolute"),
        pytest.param({"ERROR_MODEL": 1, "RELATIVE_K": 0.95}, id="relative"),
        pytest.param({"BOUNDED": True, "LOWER_BOUND": 0.0, "UPPER_BOUND": 120000.0, "MARGIN": 500.0}, id="bounded"),
    ],
)
def test_mechanisms_publish_a_noisy_grid(enterprises, tmp_path, extra):
    params = base(enterprises, tmp_path, CONFIDENTIAL_OUTPUT=str(tmp_path / "confidential.gpkg"), SEED=42, **extra)
    result = run(params)
    layer, feats = features(result["OUTPUT"])
    assert layer.crs().authid() == "EPSG:28992"
    assert [f.name() for f in layer.fields() if f.name() != "fid"] == [
        "cell_id",
        "n",
        "value",
        "noise_scale",
        "delta_max",
    ]
    assert sum(f["n"] for f in feats) == 8348 and result["CELLS"] == len(feats)
    for f in feats:
        geom = f.geometry()
        assert geom.area() == pytest.approx(500.0 * 500.0)
        box = geom.boundingBox()
        assert box.xMinimum() % 500 == 0 and box.yMinimum() % 500 == 0  # snapped to multiples of r
        assert f["cell_id"] == f"RES500N{box.yMinimum():.10g}E{box.xMinimum():.10g}"
    # The confidential comparison: published = true + noise, and every published value differs
    _, secret = features(result["CONFIDENTIAL_OUTPUT"])
    by_id = {f["cell_id"]: f for f in secret}
    values = np.array([f["value"] for f in feats])
    truth = np.array([by_id[f["cell_id"]]["true_value"] for f in feats])
    noise = np.array([by_id[f["cell_id"]]["noise"] for f in feats])
    scale = np.array([f["noise_scale"] for f in feats])
    n = np.array([f["n"] for f in feats])
    assert np.all(values != truth)
    if extra.get("ERROR_MODEL") == 1:
        assert np.allclose(values, truth * np.exp(noise))
        assert np.allclose(scale, -4 * math.log(0.95) / (n * 0.1) * 65 / 64)
        # relative error publishes the geometric mean (Corollary 3.2 protects mean log t): check it from the input
        source = QgsVectorLayer(enterprises, "in", "ogr")
        logs: dict[tuple[float, float], list[float]] = {}
        for point in source.getFeatures():
            xy = point.geometry().asPoint()
            logs.setdefault((math.floor(xy.x() / 500.0), math.floor(xy.y() / 500.0)), []).append(
                math.log(point["production"])
            )
        for f in feats:
            box = f.geometry().boundingBox()
            cell = logs[(round(box.xMinimum() / 500.0), round(box.yMinimum() / 500.0))]
            assert by_id[f["cell_id"]]["true_value"] == pytest.approx(math.exp(np.mean(cell)), rel=1e-9)
        assert "geometric mean" in Path(result["REPORT"]).read_text(encoding="utf-8")
    elif extra.get("BOUNDED"):
        assert np.allclose(values, np.clip(truth + noise, -500.0, 120500.0))
        assert values.min() >= -500.0 and values.max() <= 120500.0
        assert result["DELTA"] == pytest.approx(max(f["delta_max"] for f in feats))
        assert result["DELTA"] > 0
    else:
        assert np.allclose(values, truth + noise)
        assert np.allclose(scale, 4 * 50.0 / (n * 0.1) * 65 / 64)  # Theorem 3.1's b, widened for the grid
        assert result["DELTA"] == 0.0
        # The standardised noise is Laplace(1) (Theorem 3.1): KS at a fixed seed, alpha = 0.001.
        assert stats.kstest((values - truth) / scale, stats.laplace().cdf).pvalue > 1e-3
    assert result["EPSILON"] == 0.1


def test_published_outputs_do_not_reveal_true_values(enterprises, tmp_path):
    result = run(base(enterprises, tmp_path, SEED=1, OUTPUT_RASTER=str(tmp_path / "grid.tif")))
    layer, feats = features(result["OUTPUT"])
    assert not {"true_value", "noise", "error"} & set(layer.fields().names())
    assert "CONFIDENTIAL_OUTPUT" not in result  # off by default
    # the same run with the analyst's comparison: no published value, and no report figure, is a true mean
    again = run(base(enterprises, tmp_path / "again", SEED=1, CONFIDENTIAL_OUTPUT=str(tmp_path / "c.gpkg")))
    truth = {f["cell_id"]: f["true_value"] for f in features(again["CONFIDENTIAL_OUTPUT"])[1]}
    published = {f["cell_id"]: f["value"] for f in feats}
    assert published.keys() == truth.keys() and all(published[k] != truth[k] for k in truth)
    report = Path(result["REPORT"]).read_text(encoding="utf-8")
    assert not any(f"{v:g}" in report for v in truth.values())
    assert "ε-Pufferfish privacy with ε = 0.1" in report
    assert "Locations and counts" in report  # says what is not protected
    # the label travels with the files: the comparison's GeoPackage says CONFIDENTIAL, the map's does not (it says
    # NOT PRIVATE, as the map of any seeded run does: anyone with the seed can subtract the noise)
    import sqlite3
    from contextlib import closing

    def descriptions(path):
        with closing(sqlite3.connect(path)) as database:
            return [row[0] for row in database.execute("SELECT description FROM gpkg_contents")]

    assert descriptions(again["CONFIDENTIAL_OUTPUT"]) == [
        "CONFIDENTIAL: not for publication (Pufferfish-private grid map, CONFIDENTIAL_OUTPUT)"
    ]
    assert descriptions(result["OUTPUT"]) == [
        "NOT PRIVATE (fixed SEED): no privacy guarantee holds (Pufferfish-private grid map, OUTPUT)"
    ]
    assert "fixed seed" in report


# -- reproducing the thesis's grid bounds --------------------------------------------------------


@pytest.mark.parametrize(
    "extra, delta",
    [
        pytest.param({"INTERVAL": 50.0}, 0.536, id="absolute c=50 (Figure 6)"),
        pytest.param({"INTERVAL": 100.0}, 0.544, id="absolute c=100 (Figure 7)"),
        pytest.param({"ERROR_MODEL": 1, "RELATIVE_K": 0.95, "MARGIN": 1.25}, 0.496, id="relative k=0.95 (Figure 12)"),
        pytest.param({"ERROR_MODEL": 1, "RELATIVE_K": 0.99, "MARGIN": 1.25}, 0.317, id="relative k=0.99 (Figure 13)"),
    ],
)
def test_thesis_grid_bound_delta(enterprises, tmp_path, extra, delta, thesis_delta_bounds):
    # r = 500, epsilon = 0.1, bounds from data; the absolute margin defaults to gamma = min t = 59.46.
    params = base(enterprises, tmp_path, BOUNDED=True, BOUNDS_FROM_DATA=True, **extra)
    result = run(params)
    low, high = thesis_delta_bounds(delta, epsilon=0.1)
    assert low <= result["DELTA"] <= high
    report = Path(result["REPORT"]).read_text(encoding="utf-8")
    assert "NOT private" in report and "can be recovered from the map" in report
    # the files say so too, not only the loaded layer's name: a copy of the map is not taken for a private one
    assert "<title>NOT PRIVATE (bounds from the data): Pufferfish-private grid map" in report
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(result["OUTPUT"])) as database:
        (description,) = database.execute("SELECT description FROM gpkg_contents").fetchone()
    assert description == (
        "NOT PRIVATE (bounds from the data): no privacy guarantee holds (Pufferfish-private grid map, OUTPUT)"
    )
    if "INTERVAL" in extra:  # gamma = min t; the published delta_max, noise_scale and n give it back, as warned
        feat = features(result["OUTPUT"])[1][0]
        step = 4 * extra["INTERVAL"] / feat["n"] / 64  # the public grid step, sensitivity / 64
        r = math.exp(-step / feat["noise_scale"])
        j = math.log(feat["delta_max"] * math.exp(-0.1) * (1 + r)) / math.log(r)  # delta = e^eps r^j / (1 + r)
        assert j == pytest.approx(round(j), abs=1e-6)
        assert abs(MIN_PRODUCTION - step * round(j)) <= step  # min t to within one step


# -- other outputs -----------------------------------------------------------------------------


def test_raster_output_matches_the_grid(enterprises, tmp_path):
    result = run(base(enterprises, tmp_path, SEED=3, STATISTIC=1, OUTPUT_RASTER=str(tmp_path / "grid.tif")))
    raster = QgsRasterLayer(result["OUTPUT_RASTER"], "r")
    assert raster.isValid() and raster.crs().authid() == "EPSG:28992"
    assert raster.rasterUnitsPerPixelX() == pytest.approx(500.0)
    provider = raster.dataProvider()
    _, feats = features(result["OUTPUT"])
    for f in feats:
        centre = f.geometry().centroid().asPoint()
        value, ok = provider.sample(centre, 1)
        assert ok and value == pytest.approx(f["value"])
    occupied = {
        (round(f.geometry().centroid().asPoint().x()), round(f.geometry().centroid().asPoint().y())) for f in feats
    }
    extent = raster.extent()
    centres = [
        (x + 250, y + 250)
        for x in range(int(extent.xMinimum()), int(extent.xMaximum()), 500)
        for y in range(int(extent.yMinimum()), int(extent.yMaximum()), 500)
    ]
    empty = [c for c in centres if c not in occupied]
    assert len(centres) == raster.width() * raster.height() and len(empty) == len(centres) - len(feats) > 0
    for x, y in empty:
        value, ok = provider.sample(QgsPointXY(x, y), 1)
        assert not ok or math.isnan(value)


def test_netcdf_raster_history_names_the_output_not_the_staging_folder(enterprises, tmp_path):
    # GDAL's netCDF writer records the path it created in the global history attribute; the raster is written
    # in a hidden staging folder and moved, so that path would be one the user never saw
    from osgeo import gdal

    result = run(base(enterprises, tmp_path, SEED=3, OUTPUT_RASTER=str(tmp_path / "grid.nc")))
    dataset = gdal.Open(result["OUTPUT_RASTER"])
    history = dataset.GetMetadataItem("NC_GLOBAL#history")
    assert "grid.nc" in history and ".spatial_privacy-partial-" not in history, history
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_minimum_count_leaves_small_cells_out(enterprises, tmp_path):
    result = run(base(enterprises, tmp_path, MIN_COUNT=10, SEED=5))
    _, feats = features(result["OUTPUT"])
    assert min(f["n"] for f in feats) >= 10
    report = Path(result["REPORT"]).read_text(encoding="utf-8")
    assert re.search(r"left out \(n below the minimum\)</th><td>[1-9]", report)


def test_layer_in_degrees_with_a_working_crs(tmp_path):
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=v:double", "wgs84", "memory")
    feats = []
    for i, (lon, lat) in enumerate([(5.10, 52.09), (5.101, 52.0905), (5.2, 52.1), (5.3, 52.0)]):
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        f.setAttributes([10.0 * (i + 1)])
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    params = {
        "INPUT": layer,
        "FIELD": "v",
        "CELL_SIZE": 1000.0,
        "EPSILON": 1.0,
        "INTERVAL": 5.0,
        "OUTPUT": str(tmp_path / "g.gpkg"),
    }
    with pytest.raises(QgsProcessingException, match="WORK_CRS"):
        run(params)
    assert not (tmp_path / "g.gpkg").exists()
    result = run({**params, "WORK_CRS": QgsCoordinateReferenceSystem("EPSG:28992")})
    out, cells = features(result["OUTPUT"])
    assert out.crs().authid() == "EPSG:4326"  # written back in the layer's CRS
    assert sum(c["n"] for c in cells) == 4 and len(cells) == 3
    # a 1 km RD cell is roughly 0.0147 degrees of longitude wide at 52 N
    assert cells[0].geometry().boundingBox().width() == pytest.approx(0.0147, rel=0.05)


def _cells_by_id(path):
    _, feats = features(path)
    return {f["cell_id"]: f for f in feats}


LOCATION = ["x", "y", "x_min", "y_min", "x_max", "y_max"]


def test_csv_outputs_carry_the_cell_location_and_numeric_types(enterprises, tmp_path):
    # OGR's CSV writer drops the geometry: the cells must keep their location as columns (centre and bounds,
    # in the layer's CRS), and a .csvt file must make the numbers read back as numbers, not text
    gpkg = run(base(enterprises, tmp_path, SEED=7, CONFIDENTIAL_OUTPUT=str(tmp_path / "c.gpkg")))
    csv = run(
        base(
            enterprises,
            tmp_path,
            SEED=7,
            OUTPUT=str(tmp_path / "grid.csv"),
            CONFIDENTIAL_OUTPUT=str(tmp_path / "c.csv"),
        )
    )
    assert (tmp_path / "grid.csvt").read_text(encoding="utf-8").strip() == ",".join(
        ['"String"', '"Integer64"'] + ['"Real"'] * 9
    )
    for name, columns in (("OUTPUT", ["value", "noise_scale", "delta_max"]), ("CONFIDENTIAL_OUTPUT", ["value"])):
        layer, _ = features(csv[name])
        types = {f.name(): f.typeName() for f in layer.fields()}
        assert types["cell_id"] == "String" and types["n"] == "Integer64"
        assert all(types[c] == "Real" for c in columns + LOCATION), types
        reference, written = _cells_by_id(gpkg[name]), _cells_by_id(csv[name])
        assert set(written) == set(reference) and len(written) == gpkg["CELLS"] > 0
        for ident, cell in written.items():
            geometry = reference[ident].geometry()
            box, centre = geometry.boundingBox(), geometry.centroid().asPoint()
            assert box.width() == box.height() == 500.0
            expected = [centre.x(), centre.y(), box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()]
            assert [cell[c] for c in LOCATION] == pytest.approx(expected, abs=1e-6)
            assert isinstance(cell["n"], int) and cell["n"] == reference[ident]["n"]
            assert cell["value"] == pytest.approx(reference[ident]["value"], rel=1e-12)
    assert {f.name() for f in QgsVectorLayer(csv["CONFIDENTIAL_OUTPUT"], "c", "ogr").fields()} >= {
        "true_value",
        "noise",
    }


def test_csv_output_locates_cells_in_the_layers_crs(tmp_path):
    # a layer in degrees, grid built in RD metres: the CSV's centre and bounds are in degrees, as the geometry is
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=v:double", "wgs84", "memory")
    feats = []
    for i, (lon, lat) in enumerate([(5.10, 52.09), (5.101, 52.0905), (5.2, 52.1)]):
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        f.setAttributes([10.0 * (i + 1)])
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    params = {"INPUT": layer, "FIELD": "v", "CELL_SIZE": 1000.0, "INTERVAL": 5.0, "SEED": 1, "WORK_CRS": "EPSG:28992"}
    reference = _cells_by_id(run({**params, "OUTPUT": str(tmp_path / "g.gpkg")})["OUTPUT"])
    written = _cells_by_id(run({**params, "OUTPUT": str(tmp_path / "g.csv")})["OUTPUT"])
    assert set(written) == set(reference) and len(written) == 2
    for ident, cell in written.items():
        box = reference[ident].geometry().boundingBox()
        assert [cell[c] for c in LOCATION[2:]] == pytest.approx(
            [box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()], abs=1e-9
        )
        assert box.xMinimum() < cell["x"] < box.xMaximum() and box.yMinimum() < cell["y"] < box.yMaximum()
        assert 5.0 < cell["x"] < 5.3 and 52.0 < cell["y"] < 52.2


# -- graphical modeler and batch -----------------------------------------------------------------


def test_graphical_model_chain(enterprises, tmp_path):
    """extract (production > 100) -> pufferfish grid -> centroids, as built in the modeler."""
    model = QgsProcessingModelAlgorithm("pufferfish chain", "tests")
    model.addModelParameter(
        QgsProcessingParameterFeatureSource("points", "points"), QgsProcessingModelParameter("points")
    )
    extract = QgsProcessingModelChildAlgorithm("native:extractbyexpression")
    extract.setChildId("extract")
    extract.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromModelParameter("points")])
    extract.addParameterSources(
        "EXPRESSION", [QgsProcessingModelChildParameterSource.fromStaticValue("production > 100")]
    )
    model.addChildAlgorithm(extract)
    grid = QgsProcessingModelChildAlgorithm(ALG)
    grid.setChildId("grid")
    grid.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromChildOutput("extract", "OUTPUT")])
    statics = {
        "FIELD": "production",
        "CELL_SIZE": 1000.0,
        "EPSILON": 0.5,
        "INTERVAL": 100.0,
        "SEED": 9,
        "BOUNDED": True,
        "BOUNDS_FROM_DATA": True,
    }
    for key, value in statics.items():
        grid.addParameterSources(key, [QgsProcessingModelChildParameterSource.fromStaticValue(value)])
    model.addChildAlgorithm(grid)
    centroids = QgsProcessingModelChildAlgorithm("native:centroids")
    centroids.setChildId("centroids")
    centroids.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromChildOutput("grid", "OUTPUT")])
    out = QgsProcessingModelOutput("centres", "cell centres")
    out.setChildOutputName("OUTPUT")
    centroids.setModelOutputs({"centres": out})
    model.addChildAlgorithm(centroids)
    target = str(tmp_path / "centres.gpkg")
    result = processing.run(model, {"points": enterprises, "centroids:centres": target})
    layer, feats = features(result["centroids:centres"])
    assert len(feats) > 10
    assert all(f.geometry().type() == 0 for f in feats)  # points
    # the extract step really ran: only enterprises with production > 100 were counted
    source = QgsVectorLayer(enterprises, "e", "ogr")
    kept = sum(1 for f in source.getFeatures() if f["production"] > 100)
    assert sum(f["n"] for f in feats) == kept < source.featureCount()


def test_batch_over_two_layers(enterprises, dwellings, tmp_path):
    """The batch dialog runs the algorithm once per row with its own parameters; do the same."""
    rows = [
        base(enterprises, tmp_path, OUTPUT=str(tmp_path / "e.gpkg"), REPORT=str(tmp_path / "e.html")),
        base(
            dwellings,
            tmp_path,
            FIELD="consumption",
            INTERVAL=100.0,
            OUTPUT=str(tmp_path / "d.gpkg"),
            REPORT=str(tmp_path / "d.html"),
        ),
    ]
    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    context.setProject(QgsProject.instance())
    results = [processing.run(ALG, row, context=context, feedback=feedback) for row in rows]
    totals = [sum(f["n"] for f in features(r["OUTPUT"])[1]) for r in results]
    assert totals == [8348, 90603]


# -- refusals: clear message naming the parameter, nothing written --------------------------------


def memory_points(crs="EPSG:28992", values=()):
    layer = QgsVectorLayer(f"Point?crs={crs}&field=production:double", "mem", "memory")
    feats = []
    for i, v in enumerate(values):
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(100000 + 10 * i, 450000)))
        f.setAttributes([v])
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def point_at_infinity():
    layer = memory_points(values=[1.0, 2.0])
    f = QgsFeature(layer.fields())
    f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(math.inf, 450000)))
    f.setAttributes([3.0])
    layer.dataProvider().addFeatures([f])
    return layer


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"SEED": -5}, "SEED: '-5' is not allowed; give a whole number from 0 to 2147483647, or leave it empty"),
        ({"SEED": 3e9}, "SEED: '3000000000.0' is not allowed; give a whole number from 0 to 2147483647, or leave"),
        ({"EPSILON": "abc"}, "EPSILON: 'abc' is not allowed; give a number of at least 1e-09."),
    ],
)
def test_a_number_out_of_its_range_is_told_what_is_allowed(enterprises, tmp_path, extra, message):
    """QGIS's own check says only 'Incorrect parameter value for SEED'; ours says what would be accepted."""
    with pytest.raises(QgsProcessingException) as raised:
        run(base(enterprises, tmp_path, **extra))
    assert message in str(raised.value) and "Incorrect parameter value" not in str(raised.value)
    assert not (tmp_path / "grid.gpkg").exists()


def test_a_blank_seed_means_no_seed(enterprises, tmp_path):
    """A seed of only spaces is no seed (operating-system entropy, no 'reproducible' warning), not seed 0."""
    values = []
    for name in ("a", "b"):
        feedback = QgsProcessingFeedback()
        params = base(enterprises, tmp_path, SEED="  ", OUTPUT=str(tmp_path / f"{name}.gpkg"), REPORT=None)
        result = run(params, feedback=feedback)
        assert "reproducible" not in feedback.textLog()
        values.append(sorted(f["value"] for f in features(result["OUTPUT"])[1]))
    assert values[0] != values[1]


@pytest.mark.parametrize(
    "make_layer, extra, pattern",
    [
        pytest.param(lambda e: memory_points(), {}, r"INPUT: the layer has no features", id="empty layer"),
        pytest.param(
            lambda e: point_at_infinity(),
            {},
            r"INPUT: 1 features have coordinates that are not finite numbers in EPSG:28992",
            id="infinite coordinate",
        ),
        pytest.param(
            lambda e: memory_points(values=[1e308, 1e308]),
            {},
            r"FIELD: the values in some cells add up to more than a 64-bit float holds",
            id="cell total overflows",
        ),
        pytest.param(
            lambda e: memory_points("EPSG:4326", [1.0, 2.0]),
            {},
            r"geographic CRS EPSG:4326.*WORK_CRS",
            id="geographic CRS",
        ),
        pytest.param(
            lambda e: memory_points(values=[1.0, None, 3.0]),
            {},
            r"FIELD: 1 features have a NULL value",
            id="NULL value",
        ),
        pytest.param(
            lambda e: memory_points(values=[1.0, -2.0]), {}, r"FIELD: 1 values are negative", id="negative value"
        ),
        pytest.param(
            lambda e: e,
            {"INTERVAL": None},
            r"INTERVAL: give the interval half-width c for absolute error: a number > 0 in the values' units",
            id="no interval",
        ),
        pytest.param(lambda e: e, {"INTERVAL": 0.0}, r"INTERVAL: the interval c must be a number > 0", id="interval 0"),
        pytest.param(lambda e: e, {"EPSILON": 0.0}, r"EPSILON: epsilon must be a finite number > 0", id="epsilon 0"),
        pytest.param(lambda e: e, {"EPSILON": -0.5}, r"EPSILON: epsilon must be a finite number > 0", id="epsilon < 0"),
        # numpy's geometric draws saturate below about 1e-12 and cancel: the true means would be published
        pytest.param(
            lambda e: e, {"EPSILON": 1e-100}, r"EPSILON: epsilon must be at least 1e-09, got 1e-100", id="epsilon tiny"
        ),
        pytest.param(
            lambda e: e, {"ERROR_MODEL": 1, "RELATIVE_K": 1.0}, r"RELATIVE_K: k must lie strictly", id="k = 1"
        ),
        pytest.param(
            lambda e: e, {"ERROR_MODEL": 1, "RELATIVE_K": 0.0}, r"RELATIVE_K: k must lie strictly", id="k = 0"
        ),
        pytest.param(
            lambda e: e,
            {"ERROR_MODEL": 1, "STATISTIC": 1},
            r"STATISTIC: relative error publishes each cell's geometric mean",
            id="total with relative error",
        ),
        pytest.param(lambda e: e, {"CELL_SIZE": 0.0}, r"CELL_SIZE: the cell size must be > 0", id="cell size 0"),
        pytest.param(lambda e: e, {"CELL_SIZE": -10.0}, r"CELL_SIZE: the cell size must be > 0", id="cell size < 0"),
        pytest.param(
            lambda e: e,
            {"BOUNDED": True, "LOWER_BOUND": 0.0, "UPPER_BOUND": 1000.0},
            r"UPPER_BOUND: \d+ values lie outside",
            id="values above the bound",
        ),
        pytest.param(lambda e: e, {"MIN_COUNT": 100000}, r"MIN_COUNT: no cell has at least", id="nothing to publish"),
        pytest.param(lambda e: e, {"EPSILON": 1000.0}, r"EPSILON: epsilon must be at most", id="epsilon huge"),
        pytest.param(lambda e: e, {"CELL_SIZE": 1e-12}, r"CELL_SIZE: cell_size .* far too small", id="tiny cell"),
        pytest.param(
            lambda e: e, {"ORIGIN": "1e20,1e20"}, r"ORIGIN: the grid origin 1e\+20 is so far", id="origin far away"
        ),
        pytest.param(
            lambda e: e,
            {"CELL_SIZE": 0.5},
            r"OUTPUT_RASTER: a raster of \d+ x \d+ cells is too large",
            id="raster too large",
        ),
        pytest.param(lambda e: e, {"SEED": -1}, r"SEED", id="negative seed"),
        pytest.param(lambda e: e, {"SEED": 2**40}, r"SEED", id="seed above 32 bits (QGIS would wrap it to 0)"),
        # QGIS 3.22 accepts any text for a number and would read it as 0: a fixed seed the user never chose
        pytest.param(
            lambda e: e, {"SEED": "abc"}, r"SEED: 'abc' is not allowed; give a whole number from 0", id="seed text"
        ),
        pytest.param(
            lambda e: e, {"SEED": "1.5"}, r"SEED: '1.5' is not allowed; give a whole number from 0", id="seed fraction"
        ),
        pytest.param(
            lambda e: memory_points("", [1.0]),
            {"WORK_CRS": "EPSG:28992"},
            r"WORK_CRS: INPUT has no CRS",
            id="no CRS with a working CRS",
        ),
    ],
)
def test_bad_input_is_refused_and_nothing_is_written(enterprises, tmp_path, make_layer, extra, pattern):
    params = base(
        make_layer(enterprises),
        tmp_path,
        OUTPUT_RASTER=str(tmp_path / "grid.tif"),
        CONFIDENTIAL_OUTPUT=str(tmp_path / "confidential.gpkg"),
        **extra,
    )
    with pytest.raises(QgsProcessingException, match=pattern):
        run(params)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("outputs", "pattern"),
    [
        ({"OUTPUT_RASTER": "grid.png"}, r"OUTPUT_RASTER: GDAL cannot create 64-bit float 'png' rasters"),
        ({"OUTPUT_RASTER": "raster.gpkg"}, r"OUTPUT_RASTER: GDAL cannot create 64-bit float 'gpkg' rasters"),
        ({"OUTPUT": "same.gpkg", "OUTPUT_RASTER": "same.gpkg"}, r"OUTPUT_RASTER: writes the same file as OUTPUT"),
        ({"REPORT": "a_folder"}, r"REPORT: .*a_folder is a folder"),
        # QGIS would add .gpkg to a layer output's path and write a hidden a_folder/.gpkg
        ({"OUTPUT": "{out}/a_folder/"}, r"OUTPUT: .*a_folder/ is a folder; give a file name"),
        ({"OUTPUT": "a_folder"}, r"OUTPUT: .*a_folder is a folder; give a file name"),
        ({"CONFIDENTIAL_OUTPUT": "{out}/new_folder/"}, r"CONFIDENTIAL_OUTPUT: .*new_folder/ is a folder"),
        ({"REPORT": "{out}/new_folder/"}, r"REPORT: .*new_folder/ is a folder"),
        ({"REPORT": "report.png"}, r"REPORT: this output is an HTML page; give a file name ending in \.html"),
        # QGIS adds .gpkg to a sink path without extension: the confidential layer would replace the public one
        ({"OUTPUT": "pub", "CONFIDENTIAL_OUTPUT": "pub.gpkg"}, r"CONFIDENTIAL_OUTPUT: writes the same file as OUTPUT"),
        # ... and to one whose extension names no vector format: "pub.foo" is written as "pub.foo.gpkg"
        (
            {"OUTPUT": "pub.foo.gpkg", "CONFIDENTIAL_OUTPUT": "pub.foo"},
            r"CONFIDENTIAL_OUTPUT: writes the same file as OUTPUT",
        ),
        # ... or another extension of a format: "pub.json" is written as "pub.json.geojson", "pub.txt" as .gxt
        (
            {"OUTPUT": "pub.json.geojson", "CONFIDENTIAL_OUTPUT": "pub.json"},
            r"CONFIDENTIAL_OUTPUT: writes the same file as OUTPUT",
        ),
        (
            {"OUTPUT": "pub.txt.gxt", "CONFIDENTIAL_OUTPUT": "pub.txt"},
            r"CONFIDENTIAL_OUTPUT: writes the same file as OUTPUT",
        ),
        # a Shapefile is several files: "pub.SHP" writes pub.dbf too, so the confidential columns would become
        # the attribute table of the publishable pub.shp; a report named pub.dbf would replace that table
        (
            {"OUTPUT": "pub.shp", "CONFIDENTIAL_OUTPUT": "pub.SHP"},
            r"CONFIDENTIAL_OUTPUT: writes the same file as OUTPUT: .*/pub\.SHP \(CONFIDENTIAL_OUTPUT\) and "
            r".*/pub\.shp \(OUTPUT\) both write .*/pub\.(shx|dbf|prj|cpg|qix|qpj|sbn|sbx|shp\.xml);",
        ),
        ({"OUTPUT": "pub.shp", "REPORT": "pub.dbf"}, r"REPORT: writes the same file as OUTPUT"),
        # a CSV comes with its column types in pub.csvt, which a report of that name would replace
        (
            {"OUTPUT": "pub.csv", "REPORT": "pub.csvt"},
            r"REPORT: writes the same file as OUTPUT: .*/pub\.csvt \(REPORT\) and .*/pub\.csv \(OUTPUT\) both "
            r"write .*/pub\.csvt;",
        ),
        # the same path twice: the message quotes it, not a side file (the table's .csvt)
        ({"OUTPUT": "k.csv", "REPORT": "k.csv"}, r"REPORT: writes the same file as OUTPUT \(.*/k\.csv\);"),
        # the dialog's "append a layer to a GeoPackage" form, then the whole file overwritten by another output
        (
            {"OUTPUT": "ogr:dbname='{out}/p.gpkg' table=\"pub\"", "CONFIDENTIAL_OUTPUT": "p.gpkg"},
            r"CONFIDENTIAL_OUTPUT: writes the same file as OUTPUT",
        ),
    ],
)
def test_output_problems_are_refused_before_anything_is_written(enterprises, tmp_path, outputs, pattern):
    out = tmp_path / "out"
    (out / "a_folder").mkdir(parents=True)
    params = base(enterprises, out, CONFIDENTIAL_OUTPUT=str(out / "confidential.gpkg"))
    params.update(
        {name: value.format(out=out) if "{out}" in value else str(out / value) for name, value in outputs.items()}
    )
    with pytest.raises(QgsProcessingException, match=pattern):
        run(params)
    assert [p.name for p in out.iterdir()] == ["a_folder"]
    assert list((out / "a_folder").iterdir()) == []


def test_a_refused_feature_is_an_error_not_a_silent_loss():
    """A sink that refuses a feature (here a real memory provider given a polygon for a point layer) must end
    the run with a message naming the output, not report success with features missing."""
    from spatial_privacy.processing.sinks import add_features

    layer = QgsVectorLayer("Point?crs=EPSG:28992&field=a:integer", "sink", "memory")
    point, polygon = QgsFeature(layer.fields()), QgsFeature(layer.fields())
    point.setGeometry(QgsGeometry.fromWkt("POINT (1 1)"))
    polygon.setGeometry(QgsGeometry.fromWkt("POLYGON ((0 0, 1 0, 1 1, 0 0))"))
    add_features(layer.dataProvider(), [point, point], "OUTPUT")
    assert layer.featureCount() == 2
    with pytest.raises(QgsProcessingException, match=r"^OUTPUT: the output could not be written: .*Polygon"):
        add_features(layer.dataProvider(), polygon, "OUTPUT")
    assert layer.featureCount() == 2


@pytest.fixture
def own_input(data_copy, tmp_path):
    """A copy of the enterprises GeoPackage of the test's own, with a second layer (tables) beside the points."""
    path = tmp_path / "in" / "enterprises.gpkg"
    path.parent.mkdir()
    shutil.copy(data_copy / "sdcspatial_enterprises.gpkg", path)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT)")
        db.execute("INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES ('notes', 'attributes', 'n')")
    assert gpkg_tables(path) == ["enterprises", "notes"]
    return path


def gpkg_tables(path) -> list[str]:
    with sqlite3.connect(path) as db:
        return sorted(name for (name,) in db.execute("SELECT table_name FROM gpkg_contents"))


@pytest.mark.parametrize(
    ("input_form", "output", "target", "pattern"),
    [
        ("path", "OUTPUT", "{gpkg}", r"^OUTPUT: .*enterprises\.gpkg is the file of INPUT; writing it would replace"),
        ("layer", "CONFIDENTIAL_OUTPUT", "{gpkg}", r"^CONFIDENTIAL_OUTPUT: .*enterprises\.gpkg is the file of INPUT"),
        ("selected", "OUTPUT", "{gpkg}", r"^OUTPUT: .*enterprises\.gpkg is the file of INPUT"),
        ("path", "REPORT", "{gpkg}", r"^REPORT: .*enterprises\.gpkg is the file of INPUT"),
        ("path", "OUTPUT", "{folder}/../in/enterprises.gpkg", r"^OUTPUT: .*enterprises\.gpkg is the file of INPUT"),
        (
            "path",
            "OUTPUT",
            "ogr:dbname='{gpkg}' table=\"enterprises\" (geom)",
            r"^OUTPUT: the table enterprises in .*enterprises\.gpkg is the layer of INPUT",
        ),
    ],
)
def test_an_output_on_an_input_file_is_refused_before_anything_is_written(
    own_input, tmp_path, keep_in_project, input_form, output, target, pattern
):
    """Writing the input's GeoPackage as a whole would replace it, with every other layer in it."""
    source = f"{own_input}|layername=enterprises"
    layer = {
        "path": source,
        "layer": keep_in_project(QgsVectorLayer(source, "enterprises", "ogr")),
        "selected": QgsProcessingFeatureSourceDefinition(source, False),
    }[input_form]
    out = tmp_path / "out"
    params = base(layer, out, **{output: target.format(gpkg=own_input, folder=own_input.parent)})
    with pytest.raises(QgsProcessingException, match=pattern):
        run(params)
    assert gpkg_tables(own_input) == ["enterprises", "notes"]
    assert QgsVectorLayer(source, "check", "ogr").featureCount() == 8348
    assert not out.exists()


def test_a_table_appended_to_the_input_geopackage_is_allowed(own_input, tmp_path):
    source = f"{own_input}|layername=enterprises"
    feedback = QgsProcessingFeedback()
    run(
        base(source, tmp_path, SEED=3, OUTPUT=f"ogr:dbname='{own_input}' table=\"published\" (geom)"), feedback=feedback
    )
    assert gpkg_tables(own_input) == ["enterprises", "notes", "published"]
    # whoever releases that file releases the confidential input with it
    assert "OUTPUT is written as the table published of" in feedback.textLog()
    assert "which also holds confidential data (INPUT)" in feedback.textLog()
    feedback = QgsProcessingFeedback()  # a GeoPackage of its own: no warning
    own = tmp_path / "own.gpkg"
    run(base(source, tmp_path, SEED=3, OUTPUT=f"ogr:dbname='{own}' table=\"published\" (geom)"), feedback=feedback)
    assert "confidential data" not in feedback.textLog()
    assert QgsVectorLayer(source, "check", "ogr").featureCount() == 8348
    assert QgsVectorLayer(f"{own_input}|layername=published", "published", "ogr").featureCount() > 0


def test_two_layers_in_one_geopackage_are_allowed(enterprises, tmp_path):
    db = tmp_path / "both.gpkg"
    params = base(
        enterprises,
        tmp_path,
        SEED=5,
        OUTPUT=f"ogr:dbname='{db}' table=\"published\" (geom)",
        CONFIDENTIAL_OUTPUT=f"ogr:dbname='{db}' table=\"confidential\" (geom)",
    )
    feedback = QgsProcessingFeedback()
    run(params, feedback=feedback)
    assert "which also holds confidential data (CONFIDENTIAL_OUTPUT)" in feedback.textLog()
    public = QgsVectorLayer(f"{db}|layername=published", "p", "ogr")
    secret = QgsVectorLayer(f"{db}|layername=confidential", "c", "ogr")
    assert public.isValid() and secret.isValid() and public.featureCount() == secret.featureCount() > 0
    assert "true_value" not in public.fields().names() and "true_value" in secret.fields().names()
    # each table written in place is labelled: CONFIDENTIAL, or NOT PRIVATE for the map of a seeded run
    with sqlite3.connect(db) as database:
        labels = dict(database.execute("SELECT table_name, description FROM gpkg_contents"))
    assert labels == {
        "published": "NOT PRIVATE (fixed SEED): no privacy guarantee holds (Pufferfish-private grid map, OUTPUT)",
        "confidential": "CONFIDENTIAL: not for publication (Pufferfish-private grid map, CONFIDENTIAL_OUTPUT)",
    }


@pytest.mark.parametrize("wrapped", [False, True])
def test_layername_outputs_are_written_as_tables_of_the_geopackage(enterprises, tmp_path, wrapped):
    """QGIS 3.22 would write "both.gpkg|layername=published" as a new file of that name; the plugin writes the
    table into the GeoPackage, as the ogr:dbname form does, beside the layers already there."""
    db = tmp_path / "both.gpkg"
    shutil.copy(Path(enterprises.split("|")[0]), db)
    before = gpkg_tables(db)

    def destination(table):
        value = f"{db}|layername={table}"
        return QgsProcessingOutputLayerDefinition(value) if wrapped else value

    result = run(
        base(enterprises, tmp_path, SEED=5, OUTPUT=destination("published"), CONFIDENTIAL_OUTPUT=destination("secret"))
    )
    assert gpkg_tables(db) == sorted(before + ["published", "secret"])
    # no file named "…|layername=…" (QGIS may still hold the GeoPackage open, with its -wal and -shm files)
    names = {p.name for p in tmp_path.iterdir()} - {"both.gpkg-wal", "both.gpkg-shm"}
    assert names == {"both.gpkg", "report.html"}
    # the file alone holds the new tables: nothing is left only in its write-ahead log
    alone = tmp_path / "copy" / "both.gpkg"
    alone.parent.mkdir()
    shutil.copy(db, alone)
    assert gpkg_tables(alone) == sorted(before + ["published", "secret"])
    assert QgsVectorLayer(result["OUTPUT"], "p", "ogr").featureCount() > 0
    with sqlite3.connect(db) as database:
        labels = dict(database.execute("SELECT table_name, description FROM gpkg_contents"))
    assert labels["secret"].startswith("CONFIDENTIAL") and labels["published"].startswith("NOT PRIVATE (fixed SEED)")


def test_the_layername_form_keeps_windows_and_unc_paths_as_qgis_reads_them():
    """QGIS reads the dbname of the ogr: form as a data source URI, where a doubled backslash stands for one: a UNC
    path (\\\\server\\share) is escaped in the rewritten form, and the plugin's own checks read it back the same."""
    from qgis.core import QgsApplication, QgsDataSourceUri

    from spatial_privacy.processing.destinations import gpkg_table_destinations, output_target

    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    for path in (r"\\server\share\maps\f.gpkg", r"C:\data\f.gpkg", "/home/me/my maps/f.GPKG"):
        form = gpkg_table_destinations(alg, {"OUTPUT": f"{path}|layername=pub lay"})["OUTPUT"]
        assert form.startswith("ogr:") and QgsDataSourceUri(form[len("ogr:") :]).database() == path
        assert output_target(form, sink=True) == (path, "pub lay")


@pytest.mark.parametrize(
    "target, pattern",
    [
        (
            "{d}/survey.2020.gpkg|layername=pub",
            r"^OUTPUT: QGIS finds the format of survey\.2020\.gpkg from all that follows",
        ),
        ("ogr:dbname='{d}/survey.2020.gpkg' table=\"pub\" (geom)", r"^OUTPUT: QGIS finds the format of survey\.2020"),
        (
            "{d}/O'Brien.gpkg|layername=pub",
            r"^OUTPUT: QGIS cannot write a table into a GeoPackage whose path holds a '",
        ),
    ],
)
def test_table_files_qgis_cannot_write_are_refused_before_any_work(enterprises, tmp_path, target, pattern):
    """QGIS would fail only after the work, with "OGR driver for '' not found"."""
    with pytest.raises(QgsProcessingException, match=pattern):
        run(base(enterprises, tmp_path, OUTPUT=target.format(d=tmp_path)))
    assert list(tmp_path.iterdir()) == []


def test_other_options_in_an_output_path_are_refused(enterprises, tmp_path):
    with pytest.raises(QgsProcessingException, match=r"^OUTPUT: an output path cannot carry '\|' options"):
        run(base(enterprises, tmp_path, OUTPUT=f"{tmp_path / 'g.shp'}|layername=grid"))
    assert list(tmp_path.iterdir()) == []


def test_defaults_apply_when_parameters_are_omitted(enterprises, tmp_path):
    # EPSILON defaults to 1 and RELATIVE_K to 0.9, also through processing.run and qgis_process
    params = {
        "INPUT": enterprises,
        "FIELD": "production",
        "CELL_SIZE": 500.0,
        "ERROR_MODEL": 1,
        "SEED": 1,
        "OUTPUT": str(tmp_path / "g.gpkg"),
    }
    result = run(params)
    assert result["EPSILON"] == 1.0
    feat = features(result["OUTPUT"])[1][0]
    assert feat["noise_scale"] == pytest.approx(-4 * math.log(0.9) / feat["n"] * 65 / 64)


def test_report_folder_is_created(enterprises, tmp_path):
    result = run(base(enterprises, tmp_path, REPORT=str(tmp_path / "new" / "folder" / "report.html")))
    assert Path(result["REPORT"]).is_file()


def test_cancel_writes_nothing(enterprises, tmp_path):
    feedback = QgsProcessingFeedback()
    feedback.cancel()
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        run(base(enterprises, tmp_path), feedback=feedback)
    assert list(tmp_path.iterdir()) == []


def test_a_failing_output_leaves_every_earlier_output_as_it_was(enterprises, tmp_path, monkeypatch):
    """Every output is staged and moved onto its target only when all are written: a disk that fills up while
    the report (the last output) is written leaves the map, the confidential layer and the raster of the
    previous run in place, and no partial file beside them."""
    from spatial_privacy.processing.algorithms import pufferfish_grid

    params = base(
        enterprises,
        tmp_path,
        SEED=1,
        CONFIDENTIAL_OUTPUT=str(tmp_path / "confidential.gpkg"),
        OUTPUT_RASTER=str(tmp_path / "grid.tif"),
    )
    run(params)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(before) >= {"grid.gpkg", "confidential.gpkg", "grid.tif", "report.html"}

    def full_disk(path, title, sections):
        with replaced_when_done(path) as partial, open(partial, "w", encoding="utf-8") as handle:
            handle.write("<!DOCTYPE html><html><head>")
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(pufferfish_grid, "write_html_report", full_disk)
    with pytest.raises(QgsProcessingException, match="No space left on device"):
        run({**params, "SEED": 2})
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    monkeypatch.undo()
    run({**params, "SEED": 2})
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(after) == set(before) and after["grid.gpkg"] != before["grid.gpkg"]


def test_a_failed_run_removes_the_folders_it_created_for_its_outputs(enterprises, tmp_path, monkeypatch):
    """Output folders that do not exist yet are created when the writing starts; if the run then fails, they
    are removed again, so a failed run leaves the disk as it found it."""
    from spatial_privacy.processing.algorithms import pufferfish_grid

    def full_disk(path, title, sections):
        with replaced_when_done(path) as partial, open(partial, "w", encoding="utf-8") as handle:
            handle.write("<!DOCTYPE html>")
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(pufferfish_grid, "write_html_report", full_disk)
    new = tmp_path / "new folder" / "maps"
    params = {**base(enterprises, tmp_path, SEED=1), "OUTPUT": str(new / "grid.gpkg"), "REPORT": str(new / "r.html")}
    with pytest.raises(QgsProcessingException, match="No space left on device"):
        run(params)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    run(params)
    assert sorted(p.name for p in new.iterdir()) == ["grid.gpkg", "r.html"]


@pytest.mark.parametrize(
    "given, written",
    [
        ("grid.shp", ["grid.dbf", "grid.prj", "grid.shp", "grid.shx"]),
        ("grid.foo", ["grid.foo.gpkg"]),  # QGIS appends .gpkg to an extension that names no vector format
        ("grid.json", ["grid.json.geojson"]),
    ],
)
def test_staged_layers_arrive_whole_in_any_format(enterprises, tmp_path, given, written):
    """A staged layer moves with every file its format wrote, under the name QGIS gives it, and nothing staged
    is left behind."""
    result = run(base(enterprises, tmp_path, SEED=3, OUTPUT=str(tmp_path / given), REPORT=None))
    assert result["OUTPUT"] == str(tmp_path / written[-1] if len(written) == 1 else tmp_path / given)
    assert sorted(p.name for p in tmp_path.iterdir()) == written
    layer = QgsVectorLayer(result["OUTPUT"], "grid", "ogr")
    assert layer.isValid() and layer.featureCount() == result["CELLS"]


def test_cancel_while_a_table_is_appended_in_place_finishes_every_output_and_says_so(enterprises, tmp_path):
    """A table added to a GeoPackage (the dialog's "append" form) is written in place and cannot be staged:
    a Cancel while it is written would leave it half-written, so it is finished, the other outputs are written
    too, and the log says so (instead of a false "nothing was written")."""

    class CancelWhileWriting(QgsProcessingFeedback):
        def setProgress(self, progress):  # noqa: N802 (QGIS API name)
            super().setProgress(progress)
            if progress >= 90.0 and database.exists():  # the table has been created: the cells are being written
                self.cancel()

    database = tmp_path / "shared.gpkg"
    output = f"ogr:dbname='{database}' table=\"pub\" (geom)"
    feedback = CancelWhileWriting()
    result = run(base(enterprises, tmp_path, SEED=4, OUTPUT=output), feedback=feedback)
    assert feedback.isCanceled()
    assert "Cancel came after OUTPUT had been written in place" in feedback.textLog()
    layer = QgsVectorLayer(f"{database}|layername=pub", "pub", "ogr")
    assert layer.isValid() and layer.featureCount() == result["CELLS"] > 0
    assert (tmp_path / "report.html").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_layer_loaded_on_completion_is_the_target_not_the_staged_file(enterprises, tmp_path):
    """The dialog's form of an output (a layer definition that loads the result into the project): the layer
    QGIS loads on completion is the target, under its name and with its style, not the staged file."""
    from qgis.core import QgsProcessingOutputLayerDefinition

    project = QgsProject.instance()
    context = QgsProcessingContext()
    context.setProject(project)
    feedback = QgsProcessingFeedback()
    target = str(tmp_path / "grid.gpkg")
    params = base(enterprises, tmp_path, OUTPUT=QgsProcessingOutputLayerDefinition(target, project))
    alg = QgsApplication.processingRegistry().createAlgorithmById(ALG)
    results, ok = alg.run(params, context, feedback)
    assert ok, feedback.textLog()
    assert results["OUTPUT"] == target
    assert list(context.layersToLoadOnCompletion()) == [target]
    details = context.layerToLoadOnCompletionDetails(target)
    assert details.name.startswith("Pufferfish grid") and details.postProcessor() is not None
    assert QgsVectorLayer(target, "grid", "ogr").featureCount() > 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    # bounds taken from the data make the map not private (the smallest value can be read back): the layer
    # says so in its name, not only the help, the log and the report
    params.update(BOUNDED=True, BOUNDS_FROM_DATA=True, OUTPUT_RASTER=str(tmp_path / "grid.tif"))
    results, ok = alg.run(params, context, feedback)
    assert ok, feedback.textLog()
    assert context.layerToLoadOnCompletionDetails(target).name.startswith("NOT PRIVATE (bounds from the data)")
    from osgeo import gdal

    assert gdal.Open(results["OUTPUT_RASTER"]).GetMetadataItem("NOT_PRIVATE").startswith("NOT PRIVATE (bounds")
    # run again with the bounds given: its files carry no label from the run before
    params.update(BOUNDS_FROM_DATA=False, LOWER_BOUND=50.0, UPPER_BOUND=1e6)
    results, ok = alg.run(params, context, feedback)
    assert ok, feedback.textLog()
    assert gdal.Open(results["OUTPUT_RASTER"]).GetMetadataItem("NOT_PRIVATE") is None


# -- loading into a project applies a style ------------------------------------------------------


def test_loaded_outputs_are_styled(enterprises, tmp_path, run_loading):
    from qgis.core import QgsGraduatedSymbolRenderer, QgsSingleBandPseudoColorRenderer

    project = QgsProject.instance()
    project.clear()
    params = base(enterprises, tmp_path, SEED=2, OUTPUT_RASTER=str(tmp_path / "grid.tif"))
    results, context, feedback = run_loading(ALG, params, ("OUTPUT", "OUTPUT_RASTER"))
    for layer_id in context.layersToLoadOnCompletion():
        layer = QgsVectorLayer(layer_id) if layer_id.endswith(".gpkg") else QgsRasterLayer(layer_id)
        assert layer.isValid()
        project.addMapLayer(layer)
        run_loading.loaded(context, layer_id, layer, feedback)
        if isinstance(layer, QgsVectorLayer):
            assert isinstance(layer.renderer(), QgsGraduatedSymbolRenderer)
            assert layer.renderer().classAttribute() == "value" and len(layer.renderer().ranges()) == 5
        else:
            assert isinstance(layer.renderer(), QgsSingleBandPseudoColorRenderer)
            # quantile stops, as for the grid: the middle stop is near the median (an equal-interval ramp puts it
            # at (min + max) / 2, here near the upper quartile)
            from osgeo import gdal

            data = gdal.Open(layer_id).ReadAsArray()
            data = data[np.isfinite(data)]
            stops = [item.value for item in layer.renderer().shader().rasterShaderFunction().colorRampItemList()]
            middle = stops[len(stops) // 2]
            assert np.quantile(data, 0.4) <= middle <= np.quantile(data, 0.6)
            assert not np.quantile(data, 0.4) <= (data.min() + data.max()) / 2 <= np.quantile(data, 0.6)
    name = context.layerToLoadOnCompletionDetails(results["OUTPUT"]).name
    assert name.startswith("NOT PRIVATE (fixed SEED): Pufferfish grid (mean")  # a seeded run
    project.clear()


@pytest.mark.parametrize(
    ("extra", "warning"),
    [
        (
            {"LOWER_BOUND": 0.0, "UPPER_BOUND": 1e9, "MARGIN": 5.0},
            "LOWER_BOUND, UPPER_BOUND, MARGIN: ignored, because BOUNDED is off.",
        ),
        (
            {"BOUNDED": True, "BOUNDS_FROM_DATA": True, "LOWER_BOUND": 0.0},
            "LOWER_BOUND: ignored, because BOUNDS_FROM_DATA takes the bounds from the data.",
        ),
    ],
)
def test_parameters_the_settings_do_not_use_are_named_in_the_log(enterprises, tmp_path, extra, warning):
    feedback = QgsProcessingFeedback()
    run(base(enterprises, tmp_path, SEED=1, **extra), feedback=feedback)
    assert warning in feedback.textLog()


def test_a_read_only_folder_is_named_as_such(enterprises, tmp_path, monkeypatch):
    """The tests may run as root, for whom every folder is writable: the permission is taken away in os.access.
    An existing folder without write permission is not a folder that "cannot be created"."""
    import os

    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == str(locked) else real_access(p, mode))
    with pytest.raises(
        QgsProcessingException, match=r"^OUTPUT: the folder .*locked cannot be written \(no permission\)"
    ):
        run(base(enterprises, tmp_path, OUTPUT=str(locked / "g.gpkg")))
    with pytest.raises(QgsProcessingException, match=r"^OUTPUT: cannot create the folder of .*new.* inside .*locked"):
        run(base(enterprises, tmp_path, OUTPUT=str(locked / "new" / "g.gpkg")))
    assert list(locked.iterdir()) == []


@pytest.mark.parametrize("output", ["OUTPUT", "REPORT"])
def test_a_file_name_too_long_is_refused_naming_the_parameter_and_the_users_path(enterprises, tmp_path, output):
    """A 300-character file name cannot be created (at most 255 bytes on most file systems): it used to fail in the
    hidden staging folder, with a message showing that folder's path and naming no parameter."""
    long = str(tmp_path / ("x" * 300 + (".gpkg" if output == "OUTPUT" else ".html")))
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException) as error:
        run(base(enterprises, out, **{output: long}))
    message = str(error.value)
    assert message.startswith(f"{output}: the file name is too long for the file system") and long in message
    assert ".spatial_privacy" not in message and list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc, where no file can be created")
def test_a_folder_where_no_file_can_be_created_is_named_with_the_parameter(enterprises, tmp_path):
    """/proc looks writable to root (os.access says so) but takes no new file: the message named the hidden lock
    file the staging tried to create there (/proc/.spatial_privacy-lock-...), and no parameter."""
    with pytest.raises(QgsProcessingException) as error:
        run(base(enterprises, tmp_path, OUTPUT="/proc/x.gpkg"))
    message = str(error.value)
    assert message.startswith("OUTPUT: the folder /proc cannot be written (") and ".spatial_privacy" not in message
    assert list(tmp_path.iterdir()) == []  # the report, staged beside its target, went too


def test_overwriting_a_shapefile_removes_its_old_indexes_and_metadata(enterprises, tmp_path):
    """An old spatial index (.qix, ArcGIS's .sbn/.sbx) or metadata (.shp.xml) describes the old layer: they go
    when the layer is replaced, the new layer's own files stay."""
    out = tmp_path / "grid.shp"
    run(base(enterprises, tmp_path, SEED=1, OUTPUT=str(out)))
    for stale in ("grid.qix", "grid.sbn", "grid.sbx", "grid.shp.xml"):
        (tmp_path / stale).write_bytes(b"old")
    result = run(base(enterprises, tmp_path, SEED=2, OUTPUT=str(out)))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert not any(n.endswith((".qix", ".sbn", ".sbx", ".xml")) for n in names), names
    assert {"grid.shp", "grid.shx", "grid.dbf", "grid.prj"} <= set(names)
    assert QgsVectorLayer(result["OUTPUT"], "g", "ogr").featureCount() > 0
    feedback = QgsProcessingFeedback()  # the map's noise_scale becomes noise_scal: the log says so
    run(base(enterprises, tmp_path, SEED=2, OUTPUT=str(out)), feedback=feedback)
    assert (
        "OUTPUT: a Shapefile keeps only 10 characters of a field name (noise_scale → noise_scal" in feedback.textLog()
    )


def test_a_confidential_table_written_in_place_is_labelled_even_when_a_later_output_fails(
    enterprises, tmp_path, monkeypatch
):
    """A table written into a GeoPackage in place cannot be taken back when the run fails after it (here the
    report, the last output, meets a full disk): it stays, and is labelled CONFIDENTIAL all the same."""
    from spatial_privacy.processing.algorithms import pufferfish_grid

    def full_disk(path, title, sections):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pufferfish_grid, "write_html_report", full_disk)
    db = tmp_path / "tables.gpkg"
    params = base(enterprises, tmp_path, SEED=1, CONFIDENTIAL_OUTPUT=f"ogr:dbname='{db}' table=\"secret\" (geom)")
    with pytest.raises(QgsProcessingException, match="No space left on device"):
        run(params)
    with sqlite3.connect(db) as database:
        labels = dict(database.execute("SELECT table_name, description FROM gpkg_contents"))
    assert labels == {"secret": "CONFIDENTIAL: not for publication (Pufferfish-private grid map, CONFIDENTIAL_OUTPUT)"}
    assert not (tmp_path / "grid.gpkg").exists()  # the staged map was not published


def test_a_large_geopackage_says_its_spatial_index_is_built_as_it_closes(enterprises, tmp_path, monkeypatch):
    """GDAL builds a GeoPackage's spatial index when the writer closes (10-20 s per million features, with the bar
    and Cancel waiting): from SLOW_CLOSE_FEATURES features on the log says so, for each GeoPackage output; a
    CSV has no index and no such line."""
    from spatial_privacy.processing import sinks as processing_base

    monkeypatch.setattr(processing_base, "SLOW_CLOSE_FEATURES", 50)
    feedback = QgsProcessingFeedback()
    params = base(enterprises, tmp_path, CONFIDENTIAL_OUTPUT=str(tmp_path / "c.gpkg"), SEED=1)
    result = run(params, feedback=feedback)
    cells = features(result["OUTPUT"])[0].featureCount()
    assert cells >= 50
    log = feedback.textLog()
    for name, file in (("OUTPUT", "grid.gpkg"), ("CONFIDENTIAL_OUTPUT", "c.gpkg")):
        assert f"{name}: {cells} features written; the GeoPackage now builds their spatial index as {file}" in log
    feedback = QgsProcessingFeedback()
    run({**params, "OUTPUT": str(tmp_path / "csv" / "grid.csv"), "CONFIDENTIAL_OUTPUT": None}, feedback=feedback)
    assert "spatial index" not in feedback.textLog()


def test_a_table_in_a_database_that_cannot_hold_the_label_is_warned_about(enterprises, tmp_path):
    """A SpatiaLite table written in place (ogr:dbname=...sqlite) has no description to hold NOT PRIVATE: the log
    says so, naming the output, as it does for a Shapefile."""
    db = tmp_path / "release.sqlite"
    from osgeo import ogr

    ogr.GetDriverByName("SQLite").CreateDataSource(str(db), options=["SPATIALITE=YES"]).FlushCache()
    feedback = QgsProcessingFeedback()
    run(base(enterprises, tmp_path, SEED=3, OUTPUT=f"ogr:dbname='{db}' table=\"published\" (geom)"), feedback=feedback)
    assert QgsVectorLayer(f"{db}|layername=published", "p", "ogr").featureCount() > 0
    assert "OUTPUT: release.sqlite cannot hold the label 'NOT PRIVATE (fixed SEED)" in feedback.textLog()
