"""Street networks in Processing: spatialprivacy:kfunction and spatialprivacy:dppoints with NETWORK, through
processing.run (and a model and qgis_process) in real headless QGIS, on spatstat's ``chicago`` (feet, no CRS),
John Snow's streets with the cholera deaths (map units of about 100 m, no CRS) and small layers made here.

The core's results are the reference: each run is compared with core.network / core.metrics.network_kfunction /
core.synthesis.network_* on the same GeoPackage read without QGIS (tests/core/conftest.py), and the chicago
K-function with spatstat's values stored in tests/core/test_network_kfunction.py (with their R commands)."""

from __future__ import annotations

import importlib.util
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    NULL,
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingModelAlgorithm,
    QgsProcessingModelChildAlgorithm,
    QgsProcessingModelChildParameterSource,
    QgsProcessingModelOutput,
    QgsProcessingModelParameter,
    QgsProcessingParameterFeatureSource,
    QgsVectorLayer,
)

from spatial_privacy.core.mechanisms import generator
from spatial_privacy.core.metrics.network_kfunction import network_k_function, network_mise
from spatial_privacy.core.network.domain import NetworkDomain
from spatial_privacy.core.network.network import LinearNetwork, build_network
from spatial_privacy.core.network.placement import place_points
from spatial_privacy.core.synthesis.laplace_cox import laplace_guarantee
from spatial_privacy.core.synthesis.network_laplace import NETWORK_TERMS, synthesize_network_laplace
from spatial_privacy.core.synthesis.network_lgcp import synthesize_network_lgcp
from spatial_privacy.processing.raster import write_float_raster

TESTS = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: spatstat's values and their R commands live with the core's tests
SPATSTAT = _load("network_kfunction_reference", TESTS / "core" / "test_network_kfunction.py")
#: the GeoPackage readers of the core's tests (sqlite3 only: no QGIS between the file and the reference)
GPKG = _load("core_conftest_readers", TESTS / "core" / "conftest.py")
#: the qgis_process fixture (the plugin linked into a fresh profile)
qgis_process = _load("qgis_process_fixture", TESTS / "processing" / "test_qgis_process.py").qgis_process

DPPOINTS, KFUNCTION = "spatialprivacy:dppoints", "spatialprivacy:kfunction"
KERNEL, LGCP, LAPLACE = 0, 1, 2
ISOTROPIC, BORDER, NONE, ANG = 0, 1, 2, 3
CHICAGO_PIECE = 164.04  # Kim & Lim's 50 m in feet
SNOW_PIECE = 0.5  # 50 m in Snow's map units
DATA = TESTS / "data"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture
def chicago(data_copy, keep_in_project):
    gpkg = data_copy / "spatstat_chicago.gpkg"
    streets = keep_in_project(QgsVectorLayer(f"{gpkg}|layername=streets", "streets", "ogr"))
    crimes = keep_in_project(QgsVectorLayer(f"{gpkg}|layername=crimes", "crimes", "ogr"))
    assert streets.featureCount() == 503 and crimes.featureCount() == 116
    return streets, crimes


@pytest.fixture
def snow(data_copy, keep_in_project):
    gpkg = data_copy / "snow_cholera.gpkg"
    streets = keep_in_project(QgsVectorLayer(f"{gpkg}|layername=streets", "streets", "ogr"))
    deaths = keep_in_project(QgsVectorLayer(f"{gpkg}|layername=deaths", "deaths", "ogr"))
    assert streets.featureCount() == 528 and deaths.featureCount() == 578
    return streets, deaths


@pytest.fixture(scope="module")
def chicago_core():
    """The chicago network and crimes as the core sees them, read without QGIS."""
    net, _ = build_network(GPKG.read_gpkg_lines(DATA / "spatstat_chicago.gpkg", "streets"), 0.0)
    x, y, _ = GPKG.read_gpkg_points(DATA / "spatstat_chicago.gpkg", "crimes", "fid")
    return net, place_points(net, x, y)[0]


@pytest.fixture(scope="module")
def snow_core():
    net, _ = build_network(GPKG.read_gpkg_lines(DATA / "snow_cholera.gpkg", "streets"), 0.0)
    x, y, _ = GPKG.read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    return net, place_points(net, x, y)[0]


def layer_of(kind: str, wkts, crs="EPSG:28992", name="layer"):
    """A memory layer of ``kind`` ("LineString", "Point", ...) with the given WKT geometries (None: no geometry)."""
    layer = QgsVectorLayer(f"{kind}?crs={crs}" if crs else kind, name, "memory")
    if not crs:
        layer.setCrs(QgsCoordinateReferenceSystem())
    features = []
    for wkt in wkts:
        feature = QgsFeature()
        if wkt is not None:
            feature.setGeometry(QgsGeometry.fromWkt(wkt))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


def points_layer(xy, crs="EPSG:28992"):
    return layer_of("Point", [f"POINT({x!r} {y!r})" for x, y in xy], crs, "points")


def output_xy(path):
    layer = QgsVectorLayer(str(path), "out", "ogr")
    assert layer.isValid(), path
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in layer.getFeatures()])
    return layer, xy.reshape(-1, 2)


def table(path):
    """The K-function table as {field: array}, NULL as NaN."""
    layer = QgsVectorLayer(str(path), "k", "ogr")
    assert layer.isValid(), path
    names = [f.name() for f in layer.fields() if f.name() != "fid"]
    rows = [[math.nan if f[n] is None or f[n] == NULL else float(f[n]) for n in names] for f in layer.getFeatures()]
    return dict(zip(names, np.array(rows).T))


def assert_on(net, xy, extent_fraction=1e-9):
    """Every point lies on a line of ``net`` (to rounding)."""
    _, moved = place_points(net, xy[:, 0], xy[:, 1])
    extent = math.hypot(*np.ptp(net.vertices, axis=0))
    assert moved.max() <= extent_fraction * extent, moved.max()


RADII = ",".join(f"{r:g}" for r in SPATSTAT.CHICAGO_R)


# -- the K-function on a network ------------------------------------------------------------------------------------


@pytest.mark.parametrize("correction, index", [("Ang", ANG), ("none", NONE)])
def test_chicago_k_function_is_spatstats_linear_k(chicago, tmp_path, correction, index):
    streets, crimes = chicago
    chart = tmp_path / "k.html"
    result = processing.run(
        KFUNCTION,
        {
            "INPUT": crimes,
            "NETWORK": streets,
            "CORRECTION": index,
            "RADII": RADII,
            "OUTPUT": str(tmp_path / "k.gpkg"),
            "OUTPUT_CHART": str(chart),
        },
    )
    k = table(result["OUTPUT"])
    np.testing.assert_array_equal(k["r"], SPATSTAT.CHICAGO_R)
    # spatstat 3.0-3: linearK(chicago, r = seq(0, 1000, by = 50), correction = ...)$est (the issue asks for 4
    # significant digits; the core agrees with spatstat to rounding)
    np.testing.assert_allclose(k["K"], SPATSTAT.CHICAGO_K[correction], rtol=1e-10, atol=1e-9)
    if correction == "Ang":  # K(r) = r for a Poisson process on any network, and L = K
        np.testing.assert_array_equal(k["L"], k["K"])
        np.testing.assert_array_equal(k["theo"], k["r"])
    else:  # no L-function and no network-free Poisson value: NULL in the table
        assert np.isnan(k["L"]).all() and np.isnan(k["theo"]).all()
    assert result["N_POINTS"] == 116 and math.isnan(result["MISE"])
    text = chart.read_text(encoding="utf-8")
    assert "linearK" in text and "31150.2" in text and "data:image/png;base64," in text
    assert "largest and mean distance moved onto the network" in text  # the confidential page may say it


def test_chicago_inhomogeneous_k_from_an_intensity_raster_is_spatstats_linear_kinhom(chicago, tmp_path):
    """lambda(x, y) = 0.002 + 0.000004 x as a raster: bilinear interpolation between pixel centres is exact for a
    linear function, so the estimate is spatstat's linearKinhom with that function."""
    streets, crimes = chicago
    x_min, x_max, y_min, y_max, step = -50.0, 1250.0, 50.0, 1350.0, 10.0
    centres = np.arange(x_min + step / 2, x_max, step)
    rows = int(round((y_max - y_min) / step))
    values = np.tile(SPATSTAT.LAMBDA_A + SPATSTAT.LAMBDA_B * centres, (rows, 1))
    raster = tmp_path / "lambda.tif"
    write_float_raster(str(raster), values, x_min, y_max, step, QgsCoordinateReferenceSystem())
    result = processing.run(
        KFUNCTION,
        {
            "INPUT": crimes,
            "NETWORK": streets,
            "CORRECTION": ANG,
            "RADII": RADII,
            "INTENSITY": str(raster),
            "OUTPUT": str(tmp_path / "k.gpkg"),
        },
    )
    k = table(result["OUTPUT"])
    np.testing.assert_allclose(k["K"], SPATSTAT.CHICAGO_KINHOM[("Ang", True, 1)], rtol=1e-9, atol=1e-9)


def test_synthetic_comparison_on_the_network_is_the_cores_mise(chicago, chicago_core, tmp_path):
    streets, crimes = chicago
    synthetic = processing.run(
        DPPOINTS,
        {
            "INPUT": crimes,
            "NETWORK": streets,
            "METHOD": LAPLACE,
            "RESOLUTION": CHICAGO_PIECE,
            "EPSILON": 5.0,
            "TOTAL_SHARE": 0.5,
            "SEED": 12,
            "OUTPUT": str(tmp_path / "syn.gpkg"),
        },
    )["OUTPUT"]
    result = processing.run(
        KFUNCTION,
        {"INPUT": crimes, "NETWORK": streets, "CORRECTION": ANG, "RADII": RADII, "SYNTHETIC": synthetic},
    )
    net, crimes_on = chicago_core
    _, sxy = output_xy(synthetic)
    syn_on, _ = place_points(net, sxy[:, 0], sxy[:, 1])
    k_ori = network_k_function(net, crimes_on, SPATSTAT.CHICAGO_R, "Ang")
    k_syn = network_k_function(net, syn_on, SPATSTAT.CHICAGO_R, "Ang")
    assert result["MISE"] == pytest.approx(network_mise(k_syn, k_ori), rel=1e-9)
    assert result["MISE"] > 0


def test_planar_corrections_are_refused_on_a_network_and_ang_without_one(chicago, tmp_path):
    streets, crimes = chicago
    out = tmp_path / "out"
    for correction in (ISOTROPIC, BORDER):
        with pytest.raises(QgsProcessingException, match=r"CORRECTION: the (isotropic|border) correction is for"):
            params = {"INPUT": crimes, "NETWORK": streets, "CORRECTION": correction, "OUTPUT": str(out / "k.gpkg")}
            processing.run(KFUNCTION, params)
    with pytest.raises(QgsProcessingException, match=r"CORRECTION: Ang's correction is for points on a street"):
        processing.run(KFUNCTION, {"INPUT": crimes, "CORRECTION": ANG, "OUTPUT": str(out / "k.gpkg")})
    assert not out.exists()


# -- a street layer whose lines cross without shared vertices ---------------------------------------------------


#: Two streets crossing at (50, 50) without a vertex there, in EPSG:28992 (metres), and points on both.
CROSSING = ["LINESTRING(0 50, 100 50)", "LINESTRING(50 0, 50 100)"]
ON_BOTH = [(10.0, 50.0), (30.0, 50.0), (90.0, 50.0), (50.0, 5.0), (50.0, 70.0), (50.0, 95.0)]


def test_lines_that_cross_without_a_shared_vertex_are_joined_there(tmp_path):
    streets, points = layer_of("LineString", CROSSING), points_layer(ON_BOTH)
    feedback = QgsProcessingFeedback()
    params = {"INPUT": points, "NETWORK": streets, "CORRECTION": NONE, "RADII": "0,20,40,60,80,100,120"}
    result = processing.run(KFUNCTION, {**params, "OUTPUT": str(tmp_path / "k.gpkg")}, feedback=feedback)
    assert "1 crossings without a shared vertex joined" in feedback.textLog()
    # the reference: the same network drawn with the junction, four arms from (50, 50)
    star = LinearNetwork.from_segments(
        [[50, 50], [0, 50], [100, 50], [50, 0], [50, 100]], [[0, 1], [0, 2], [0, 3], [0, 4]]
    )
    xy = np.array(ON_BOTH)
    on_star = place_points(star, xy[:, 0], xy[:, 1])[0]
    expected = network_k_function(star, on_star, [0, 20, 40, 60, 80, 100, 120], "none")
    np.testing.assert_allclose(table(result["OUTPUT"])["K"], expected.K, rtol=1e-12)
    # kept apart (bridges), the two streets are two parts that no path joins: refused unless COMPONENTS says
    out = tmp_path / "apart"
    with pytest.raises(QgsProcessingException, match=r"NETWORK: the network falls apart into 2 parts .*COMPONENTS"):
        processing.run(KFUNCTION, {**params, "SPLIT_CROSSINGS": False, "OUTPUT": str(out / "k.gpkg")})
    assert not out.exists()


def test_a_disconnected_network_uses_the_parts_components_says(tmp_path):
    """A street far from the others: refused by default; its part left out (and said so) when no point lies on
    it; the parts chosen by the points make the release NOT PRIVATE, the largest part does not."""
    streets = layer_of("LineString", CROSSING + ["LINESTRING(500 500, 510 500)"])
    points = points_layer(ON_BOTH)
    base = {"INPUT": points, "NETWORK": streets, "METHOD": LAPLACE, "RESOLUTION": 20.0, "EPSILON": 2.0}
    out = tmp_path / "refused"
    parts = r"NETWORK: the network falls apart into 2 parts that no path joins \(lengths 200 \(4 segments\), 10 "
    with pytest.raises(QgsProcessingException, match=parts):
        processing.run(DPPOINTS, {**base, "OUTPUT": str(out / "s.gpkg")})
    assert not out.exists()
    for choice, lost in ((1, True), (2, False)):
        feedback = QgsProcessingFeedback()
        result = processing.run(
            DPPOINTS, {**base, "COMPONENTS": choice, "OUTPUT": str(tmp_path / f"{choice}.gpkg")}, feedback=feedback
        )
        assert "1 part(s) of total length 10 left out. No point was dropped." in feedback.textLog()
        assert ("network parts chosen by the points" in result["NOT_PRIVATE"]) == lost
        _, xy = output_xy(result["OUTPUT"])
        assert len(xy) == 0 or xy[:, 0].max() <= 100  # nothing on the part left out
    # the largest part only: a point on the other part is refused, without counting the points (Laplace)
    with pytest.raises(QgsProcessingException, match=r"COMPONENTS: some points of INPUT lie on other parts"):
        processing.run(
            DPPOINTS,
            {
                **base,
                "INPUT": points_layer(ON_BOTH + [(505.0, 500.0)]),
                "COMPONENTS": 2,
                "OUTPUT": str(out / "s.gpkg"),
            },
        )
    assert not out.exists()


def test_curved_and_multi_part_lines_and_features_without_geometry(tmp_path):
    """A multi-curve street (a half circle of radius 50 about (0, 0) and a straight part) beside a feature without
    geometry: curves are cut into straight segments, the parts joined, the empty feature reported."""
    streets = layer_of(
        "MultiCurve", ["MULTICURVE(CIRCULARSTRING(-50 0, 0 50, 50 0), (50 0, 150 0))", None], name="curved"
    )
    points = points_layer([(0.0, 51.0), (35.0, 36.0), (100.0, 1.0), (140.0, -1.0)])
    feedback = QgsProcessingFeedback()
    result = processing.run(
        DPPOINTS,
        {
            "INPUT": points,
            "NETWORK": streets,
            "METHOD": LAPLACE,
            "RESOLUTION": 10.0,
            "EPSILON": 2.0,
            "TOTAL_SHARE": 0.5,
            "SEED": 3,
            "OUTPUT": str(tmp_path / "s.gpkg"),
        },
        feedback=feedback,
    )
    log = feedback.textLog()
    assert "NETWORK: 1 features have no geometry and are left out of the network." in log
    assert "NETWORK: 1 features, 2 line parts (1 with curves, cut into straight segments)" in log
    assert "in 1 connected part(s)" in log
    _, xy = output_xy(result["OUTPUT"])
    assert len(xy) > 0
    on_arc = xy[:, 1] > 1e-9
    # the arc is cut into chords a degree apart: points lie within r (1 - cos 0.5°) of the circle, on a chord
    radius = np.hypot(xy[on_arc, 0], xy[on_arc, 1])
    assert np.all((radius <= 50 + 1e-9) & (radius >= 50 * math.cos(math.radians(0.5)) - 1e-9))
    assert np.all((xy[~on_arc, 0] >= -50) & (xy[~on_arc, 0] <= 150) & (np.abs(xy[~on_arc, 1]) < 1e-9))


def test_a_network_in_degrees_works_in_the_work_crs_and_the_points_come_back_in_degrees(tmp_path):
    """Streets and points in EPSG:4326 (Amsterdam) with WORK_CRS = EPSG:28992 (metres): both are transformed, the
    pieces are 50 m, and the synthetic points are written back in degrees, on the streets."""
    streets = layer_of(
        "LineString", ["LINESTRING(4.89 52.37, 4.90 52.37)", "LINESTRING(4.895 52.365, 4.895 52.375)"], "EPSG:4326"
    )
    points = points_layer([(4.891, 52.37001), (4.897, 52.36999), (4.89501, 52.372), (4.895, 52.366)], "EPSG:4326")
    base = {"INPUT": points, "NETWORK": streets, "METHOD": LAPLACE, "RESOLUTION": 50.0, "EPSILON": 5.0}
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=r"INPUT is in the geographic CRS EPSG:4326"):
        processing.run(DPPOINTS, {**base, "OUTPUT": str(out / "s.gpkg")})
    assert not out.exists()
    feedback = QgsProcessingFeedback()
    result = processing.run(
        DPPOINTS,
        {**base, "WORK_CRS": "EPSG:28992", "TOTAL_SHARE": 0.5, "SEED": 5, "OUTPUT": str(tmp_path / "s.gpkg")},
        feedback=feedback,
    )
    assert "1 crossings without a shared vertex joined" in feedback.textLog()
    layer, xy = output_xy(result["OUTPUT"])
    assert layer.crs().authid() == "EPSG:4326" and len(xy) > 0
    # on one of the two streets, to the precision of a round trip through the Dutch grid (well below a metre)
    off = np.minimum(np.abs(xy[:, 1] - 52.37), np.abs(xy[:, 0] - 4.895))
    assert off.max() < 1e-6 and np.all((xy[:, 0] > 4.8899) & (xy[:, 0] < 4.9001))


# -- synthetic points on a network --------------------------------------------------------------------------------


def test_laplace_on_chicago_is_the_core_release_on_the_lines(chicago, chicago_core, tmp_path):
    streets, crimes = chicago
    report = tmp_path / "laplace.html"
    feedback = QgsProcessingFeedback()
    result = processing.run(
        DPPOINTS,
        {
            "INPUT": crimes,
            "NETWORK": streets,
            "METHOD": LAPLACE,
            "RESOLUTION": CHICAGO_PIECE,
            "EPSILON": 5.0,
            "TOTAL_SHARE": 0.5,
            "SEED": 2023,
            "OUTPUT": str(tmp_path / "syn.gpkg"),
            "OUTPUT_REPORT": str(report),
        },
        feedback=feedback,
    )
    net, crimes_on = chicago_core
    partition = NetworkDomain(net).partition(CHICAGO_PIECE)
    core = synthesize_network_laplace(crimes_on, partition, generator(2023), epsilon=5.0, total_share=0.5)
    layer, xy = output_xy(result["OUTPUT"])
    assert [f.name() for f in layer.fields()] == ["fid", "syn_id"]
    np.testing.assert_array_equal(xy, np.column_stack([core.x, core.y]))  # the core's release, exactly
    assert_on(net, xy)
    # the noisy total (scale 1 / 2.5) keeps the count near n = 116
    assert result["SYNTHETIC_COUNT"] == len(xy) and abs(len(xy) - 116) < 5 * math.sqrt(116)
    guarantee = laplace_guarantee(partition.region_measure, 5.0, 0.5, NETWORK_TERMS)
    assert result["NOISE_SCALE"] == pytest.approx(guarantee.noise_scale, rel=1e-12)
    assert result["EPSILON_ADD_REMOVE"] == pytest.approx(guarantee.epsilon_add_remove, rel=1e-12)
    assert result["DELTA"] == 0 and math.isnan(result["RATIO"]) and math.isnan(result["BANDWIDTH"])
    text = report.read_text(encoding="utf-8")
    for words in ("Theorem 3.10 with the network", "Δ = max over two pieces", "Crossings without a shared vertex",
                  "31150.2", "data:image/png;base64,", f"{guarantee.sensitivity:.6g}"):  # fmt: skip
        assert words in text, words
    # n is protected by the Laplace guarantee: neither the report nor the log shows it, nor the distances moved
    # (the largest singles out the most isolated person): the log says only that all points were placed
    log = feedback.textLog()
    assert not re.search(r"(?<![\d.])116(?![\d.])", text)
    assert not re.search(r"(?<![\d.])116(?![\d.])", log), log
    assert "Placed all points of INPUT on the nearest line of the network." in log, log
    assert not re.search(r"largest move \d", log) and not re.search(r"largest move \d", text)
    assert "so neither this report nor the run" in text


def test_lgcp_on_chicago_is_the_core_release_with_n_near_116(chicago, chicago_core, tmp_path):
    streets, crimes = chicago
    report = tmp_path / "lgcp.html"
    result = processing.run(
        DPPOINTS,
        {
            "INPUT": crimes,
            "NETWORK": streets,
            "METHOD": LGCP,
            "RESOLUTION": CHICAGO_PIECE,
            "ALPHA": CHICAGO_PIECE,
            "EPSILON": 1.0,
            "DELTA": 0.01,
            "SEED": 7,
            "OUTPUT": str(tmp_path / "syn.gpkg"),
            "OUTPUT_REPORT": str(report),
        },
    )
    net, crimes_on = chicago_core
    core = synthesize_network_lgcp(
        crimes_on, NetworkDomain(net), generator(7), epsilon=1.0, delta=0.01, alpha=CHICAGO_PIECE,
        resolution=CHICAGO_PIECE,
    )  # fmt: skip
    _, xy = output_xy(result["OUTPUT"])
    np.testing.assert_array_equal(xy, np.column_stack([core.x, core.y]))
    assert_on(net, xy)
    assert abs(core.expected_count / 116 - 1) < 0.05 and abs(len(xy) - 116) < 5 * math.sqrt(116) + 6
    assert result["RATIO"] == pytest.approx(core.calibration.ratio(core.length), rel=1e-12)
    assert result["DELTA"] == 0.01 and math.isnan(result["NOISE_SCALE"])
    text = report.read_text(encoding="utf-8")
    for words in ("nominal, not proven", "resistance metric", "n = 116", f"{core.calibration.kappa:.6g}",
                  "along the network"):  # fmt: skip
        assert words in text, words


@pytest.mark.parametrize("method", [LAPLACE, LGCP])
def test_snow_deaths_on_the_street_network(snow, snow_core, tmp_path, method):
    streets, deaths = snow
    report = tmp_path / "snow.html"
    feedback = QgsProcessingFeedback()
    result = processing.run(
        DPPOINTS,
        {
            "INPUT": deaths,
            "NETWORK": streets,
            "METHOD": method,
            "RESOLUTION": SNOW_PIECE,
            "ALPHA": 0.5,
            "EPSILON": 2.0,
            "TOTAL_SHARE": 0.2 if method == LAPLACE else 0.0,
            "SEED": 1854,
            "OUTPUT": str(tmp_path / "snow.gpkg"),
            "OUTPUT_REPORT": str(report),
        },
        feedback=feedback,
    )
    net, _ = snow_core
    layer, xy = output_xy(result["OUTPUT"])
    assert [f.name() for f in layer.fields()] == ["fid", "syn_id"]
    assert_on(net, xy)
    # LGCP: the intensity integrates to about n; Laplace: rescaled to a noisy total (scale 1 / 0.4)
    assert abs(len(xy) - 578) < 5 * math.sqrt(578) + 0.05 * 578
    log = feedback.textLog()
    assert "in 1 connected part(s)" in log and "0 crossings without a shared vertex joined" in log
    # the deaths lie up to 0.42 map units (mean 0.12) from the street centre lines (Tobler's digitisation): a
    # release says neither, only that every death was placed (and, with a limit, that none lay farther)
    assert "Placed all points of INPUT on the nearest line of the network." in log, log
    text = report.read_text(encoding="utf-8")
    for figure in ("0.419", "0.120", "largest move 0"):
        assert figure not in log and figure not in text, figure
    assert "data:image/png;base64," in text


def test_a_release_on_a_network_with_a_limit_says_only_that_no_point_lay_farther(snow, tmp_path):
    streets, deaths = snow
    feedback = QgsProcessingFeedback()
    params = {"INPUT": deaths, "NETWORK": streets, "METHOD": LAPLACE, "RESOLUTION": SNOW_PIECE, "EPSILON": 2.0}
    processing.run(
        DPPOINTS,
        {**params, "MAX_SNAP_DISTANCE": 0.5, "SEED": 1, "OUTPUT": str(tmp_path / "snow.gpkg")},
        feedback=feedback,
    )
    log = feedback.textLog()
    assert "Placed all points of INPUT on the nearest line of the network; none lay farther than " in log, log
    assert "MAX_SNAP_DISTANCE = 0.5." in log and "0.419" not in log and "0.120" not in log


def test_kfunction_gives_the_distances_moved_in_its_confidential_log_and_report(snow, tmp_path):
    """The K-function's outputs are CONFIDENTIAL: there the steward sees how far the deaths moved onto the streets."""
    streets, deaths = snow
    feedback = QgsProcessingFeedback()
    chart = tmp_path / "k.html"
    params = {"INPUT": deaths, "NETWORK": streets, "CORRECTION": ANG, "RADII": "1, 2"}
    processing.run(
        KFUNCTION, {**params, "OUTPUT": str(tmp_path / "k.gpkg"), "OUTPUT_CHART": str(chart)}, feedback=feedback
    )
    log = feedback.textLog()
    assert re.search(r"the largest move 0\.419\d*, the mean 0\.120\d*", log), log
    assert re.search(r"largest and mean distance moved onto the network.*0\.419\d*, 0\.120", chart.read_text()), chart


def test_the_network_path_of_a_model_chain(snow, tmp_path):
    """extract the deaths west of x = 14 -> dppoints (Laplace) on the streets, both given to the model."""
    streets, deaths = snow
    model = QgsProcessingModelAlgorithm("network chain", "tests")
    for name in ("pts", "streets"):
        model.addModelParameter(QgsProcessingParameterFeatureSource(name, name), QgsProcessingModelParameter(name))
    source = QgsProcessingModelChildParameterSource
    extract = QgsProcessingModelChildAlgorithm("native:extractbyexpression")
    extract.setChildId("extract")
    extract.addParameterSources("INPUT", [source.fromModelParameter("pts")])
    extract.addParameterSources("EXPRESSION", [source.fromStaticValue("$x < 14")])
    model.addChildAlgorithm(extract)
    child = QgsProcessingModelChildAlgorithm(DPPOINTS)
    child.setChildId("dp")
    child.addParameterSources("INPUT", [source.fromChildOutput("extract", "OUTPUT")])
    child.addParameterSources("NETWORK", [source.fromModelParameter("streets")])
    for key, value in {"METHOD": LAPLACE, "RESOLUTION": SNOW_PIECE, "EPSILON": 2.0, "TOTAL_SHARE": 0.2}.items():
        child.addParameterSources(key, [source.fromStaticValue(value)])
    out = QgsProcessingModelOutput("synthetic", "synthetic")
    out.setChildOutputName("OUTPUT")
    child.setModelOutputs({"synthetic": out})
    model.addChildAlgorithm(child)
    result = processing.run(model, {"pts": deaths, "streets": streets, "dp:synthetic": str(tmp_path / "m.gpkg")})
    layer, xy = output_xy(result["dp:synthetic"])
    assert layer.featureCount() > 0
    net, _ = build_network(GPKG.read_gpkg_lines(DATA / "snow_cholera.gpkg", "streets"), 0.0)
    assert_on(net, xy)


def test_qgis_process_runs_dppoints_on_a_network(qgis_process, data_copy, tmp_path):
    target = tmp_path / "synthetic.gpkg"
    gpkg = data_copy / "snow_cholera.gpkg"
    code, out, err = qgis_process(
        "--json",
        "run",
        DPPOINTS,
        "--",
        f"INPUT={gpkg}|layername=deaths",
        f"NETWORK={gpkg}|layername=streets",
        "METHOD=2",
        f"RESOLUTION={SNOW_PIECE}",
        "EPSILON=2",
        "TOTAL_SHARE=0.2",
        f"OUTPUT={target}",
    )
    assert code == 0, err
    results = json.loads(out)["results"]
    assert results["EPSILON"] == 2 and results["DELTA"] == 0 and results["NOISE_SCALE"] > 0
    layer = QgsVectorLayer(str(target))
    assert layer.featureCount() == results["SYNTHETIC_COUNT"] > 0
    assert [f.name() for f in layer.fields() if f.name() != "fid"] == ["syn_id"]
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in layer.getFeatures()])
    net, _ = build_network(GPKG.read_gpkg_lines(DATA / "snow_cholera.gpkg", "streets"), 0.0)
    assert_on(net, xy)


def test_cancel_while_the_network_is_built_writes_nothing(snow, tmp_path, cancel_after):
    streets, deaths = snow
    out = tmp_path / "out"
    feedback = cancel_after(30)  # reading the points ends at 30%: Cancel comes as the network is built
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        processing.run(
            DPPOINTS,
            {
                "INPUT": deaths,
                "NETWORK": streets,
                "METHOD": LAPLACE,
                "RESOLUTION": SNOW_PIECE,
                "OUTPUT": str(out / "s.gpkg"),
                "OUTPUT_REPORT": str(out / "r.html"),
            },
            feedback=feedback,
        )
    assert "Snapping vertices" in feedback.textLog() and "Network built" not in feedback.textLog()
    assert not out.exists()


# -- bad input ----------------------------------------------------------------------------------------------------


def test_help_states_the_network_guarantee_and_every_new_parameter_has_help():
    registry = QgsApplication.processingRegistry()
    dppoints, kfunction = registry.algorithmById(DPPOINTS), registry.algorithmById(KFUNCTION)
    for alg, names in (
        (dppoints, ("NETWORK", "RESOLUTION", "SNAP_TOLERANCE", "SPLIT_CROSSINGS", "COMPONENTS", "MAX_SNAP_DISTANCE")),
        (kfunction, ("NETWORK", "SNAP_TOLERANCE", "SPLIT_CROSSINGS", "COMPONENTS", "MAX_SNAP_DISTANCE")),
    ):
        for name in names:
            assert alg.parameterDefinition(name) is not None and alg.parameterDefinition(name).help(), name
    text = dppoints.shortHelpString()
    assert "On a street network" in text and "σ²/l" in text and "nominal, not proven" in text
    assert "Ang" in kfunction.shortHelpString() and "linearK" in kfunction.shortHelpString()


def polygon_network():
    return layer_of("Polygon", ["POLYGON((0 0, 100 0, 100 100, 0 100, 0 0))"])


@pytest.mark.parametrize(
    "extra, pattern",
    [
        pytest.param({"NETWORK": "polygons"}, r"NETWORK: needs a line layer of streets, got Polygon", id="polygons"),
        pytest.param({"NETWORK": "points"}, r"NETWORK: needs a line layer of streets, got Point", id="points"),
        pytest.param({"NETWORK": "empty"}, r"NETWORK: the layer has no lines", id="empty network"),
        pytest.param(
            {"NETWORK": "degrees"},
            r"NETWORK is in the geographic CRS EPSG:4326 \(degrees\).*Pick a projected working CRS in WORK_CRS",
            id="network in degrees",
        ),
        pytest.param(
            {"NETWORK": "other crs"},
            r"NETWORK is in EPSG:3857 but INPUT is in EPSG:28992: the network and the points must be in the same CRS",
            id="network in another CRS",
        ),
        pytest.param(
            {"MAX_SNAP_DISTANCE": 5.0},
            # a release: the farthest distance (20) is not shown, it singles out the most isolated person
            r"MAX_SNAP_DISTANCE: 1 of the 7 points of INPUT lie farther than 5 from every line of NETWORK\. Check",
            id="points far from the streets",
        ),
        pytest.param(
            {"METHOD": LAPLACE, "MAX_SNAP_DISTANCE": 5.0},
            r"MAX_SNAP_DISTANCE: some points of INPUT lie farther than 5 .*how many and how far is not shown",
            id="far points, Laplace",
        ),
        pytest.param(
            {"RESOLUTION": 100.0},
            r"RESOLUTION: every line of the network is shorter than the resolution 100",
            id="every edge shorter than the resolution",
        ),
        pytest.param({"RESOLUTION": None}, r"RESOLUTION: give the longest piece", id="no resolution"),
        pytest.param({"METHOD": KERNEL}, r"METHOD: the kernel synthesizer works in the plane only", id="kernel"),
    ],
)
def test_bad_network_input_is_refused_naming_the_parameter_and_nothing_is_written(tmp_path, extra, pattern):
    streets = {
        "polygons": polygon_network(),
        "points": points_layer([(0.0, 0.0)]),
        "empty": layer_of("LineString", []),
        "degrees": layer_of("LineString", ["LINESTRING(5 52, 5.001 52)"], crs="EPSG:4326"),
        "other crs": layer_of("LineString", ["LINESTRING(0 0, 100 0)"], crs="EPSG:3857"),
    }.get(extra.get("NETWORK"), layer_of("LineString", CROSSING))
    points = points_layer(ON_BOTH + [(70.0, 70.0)])  # 20 from both streets
    params = {
        "INPUT": points,
        "NETWORK": streets,
        "METHOD": LGCP,
        "ALPHA": 10.0,
        "DELTA": 0.01,
        "RESOLUTION": 20.0,
        "EPSILON": 2.0,
        **extra,
    }
    params["NETWORK"] = streets
    out = tmp_path / "out"
    params.update(OUTPUT=str(out / "s.gpkg"), OUTPUT_REPORT=str(out / "r.html"))
    with pytest.raises(QgsProcessingException, match=pattern):
        processing.run(DPPOINTS, params)
    assert not out.exists()
