"""spatialprivacy:kfunction through processing.run in real headless QGIS, on John Snow's cholera deaths (no CRS)
and a box of the (synthetic) enterprises in EPSG:28992; every table is checked against core.metrics.kfunction."""

from __future__ import annotations

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
    QgsPointXY,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)

from spatial_privacy.core.metrics.kfunction import k_function
from spatial_privacy.core.metrics.mise import default_radii, mise
from spatial_privacy.core.window import Window
from spatial_privacy.processing.raster import write_float_raster

ALG = "spatialprivacy:kfunction"
CORRECTIONS = ("isotropic", "border", "none")
#: A rectangle of the enterprises layer (EPSG:28992, metres) with 659 points, and its neighbour to the east.
BOX = (75000.0, 443000.0, 78000.0, 446000.0)
SHIFT = 3000.0
NO_CRS = QgsCoordinateReferenceSystem()


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


def memory_points(xy, crs=""):
    """A memory point layer; ``crs`` an authid or a QgsCoordinateReferenceSystem ("" gives QGIS's default)."""
    layer = QgsVectorLayer(f"Point?crs={crs}" if isinstance(crs, str) and crs else "Point", "pts", "memory")
    if not isinstance(crs, str):
        layer.setCrs(crs)
    features = []
    for x, y in xy:
        feature = QgsFeature()
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(float(x), float(y))))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


def rectangle_layer(x0, y0, x1, y1, crs="EPSG:28992"):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "window", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x0} {y0}, {x1} {y0}, {x1} {y1}, {x0} {y1}, {x0} {y0}))"))
    layer.dataProvider().addFeatures([feature])
    return layer


def coordinates(layer):
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in layer.getFeatures()])
    return xy[:, 0], xy[:, 1]


@pytest.fixture
def deaths(data_copy, keep_in_project):
    layer = keep_in_project(QgsVectorLayer(f"{data_copy / 'snow_cholera.gpkg'}|layername=deaths", "deaths", "ogr"))
    assert layer.isValid() and layer.featureCount() == 578 and not layer.crs().authid()  # "Undefined Cartesian SRS"
    return layer


@pytest.fixture
def snow(deaths):
    """Coordinates of the deaths and the default window (bounding box + 5%)."""
    x, y = coordinates(deaths)
    return x, y, Window.around_points(x, y, margin=0.05)


@pytest.fixture(scope="module")
def enterprise_boxes(enterprises):
    """The enterprises in BOX, and those of the box east of it shifted west into BOX (a different pattern)."""
    layer = QgsVectorLayer(enterprises, "enterprises", "ogr")
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in layer.getFeatures()])
    x0, y0, x1, y1 = BOX
    inside = xy[(xy[:, 0] > x0) & (xy[:, 0] < x1) & (xy[:, 1] > y0) & (xy[:, 1] < y1)]
    east = xy[(xy[:, 0] > x0 + SHIFT) & (xy[:, 0] < x1 + SHIFT) & (xy[:, 1] > y0) & (xy[:, 1] < y1)]
    east = east - [SHIFT, 0.0]
    assert len(inside) == 659 and len(east) > 100
    return inside, east


def table(path):
    """The OUTPUT table as {field: array}, NULL as NaN."""
    layer = QgsVectorLayer(str(path), "k", "ogr")
    assert layer.isValid(), path
    names = [f.name() for f in layer.fields() if f.name() != "fid"]
    rows = [[math.nan if f[n] is None or f[n] == NULL else float(f[n]) for n in names] for f in layer.getFeatures()]
    return dict(zip(names, np.array(rows).T))


def run(layer, out: Path, **extra):
    params = {"INPUT": layer, "OUTPUT": str(out / "k.gpkg")}
    params.update(extra)
    return processing.run(ALG, params)


def constant_raster(path, value, window, crs=NO_CRS):
    xmin, ymin, xmax, ymax = window.bounds
    write_float_raster(
        str(path), np.full((20, 20), value), xmin - 1, ymax + 1, (max(xmax - xmin, ymax - ymin) + 2) / 20, crs
    )
    return str(path)


def test_registered_with_help_for_every_parameter():
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None
    assert not [p.name() for p in alg.parameterDefinitions() if not p.help()]
    text = alg.shortHelpString()
    for phrase in (
        "Kest",
        "Kinhom",
        "eq. 14",
        "Isotropic",
        "Border",
        "MISE",
        "Not for publication",
        "data steward",
        "<b>Guarantee.</b> None (no ε or δ)",
    ):
        assert phrase in text, phrase
    for name in ("OUTPUT", "OUTPUT_CHART"):
        assert "CONFIDENTIAL" in alg.parameterDefinition(name).description()
    assert "5%" in alg.parameterDefinition("WINDOW").help()
    assert {o.name() for o in alg.outputDefinitions()} >= {"OUTPUT", "OUTPUT_CHART", "MISE", "N_POINTS"}


def test_csv_table_reads_back_as_numbers(deaths, tmp_path):
    # a CSV table gets a .csvt file of column types: the radii and estimates read back as numbers, not text
    gpkg = run(deaths, tmp_path, OUTPUT=str(tmp_path / "k.gpkg"))
    csv = run(deaths, tmp_path, OUTPUT=str(tmp_path / "k.csv"))
    layer = QgsVectorLayer(csv["OUTPUT"], "k", "ogr")
    assert layer.isValid() and {f.typeName() for f in layer.fields()} == {"Real"}
    written, reference = table(csv["OUTPUT"]), table(gpkg["OUTPUT"])
    assert set(written) == set(reference)
    for name, values in reference.items():
        np.testing.assert_allclose(written[name], values, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("correction", range(3), ids=CORRECTIONS)
def test_table_is_the_core_estimate_for_each_correction(deaths, snow, tmp_path, correction):
    x, y, window = snow
    result = run(deaths, tmp_path, RADII="2,40", CORRECTION=correction)
    got = table(result["OUTPUT"])
    assert set(got) == {"r", "K", "L", "theo"}
    expected = k_function(x, y, window, np.linspace(0, 2, 41), CORRECTIONS[correction])
    np.testing.assert_allclose(got["r"], expected.r, rtol=0, atol=1e-15)
    np.testing.assert_allclose(got["K"], expected.K, rtol=1e-13, atol=0)
    np.testing.assert_allclose(got["L"], expected.L, rtol=1e-13, atol=0)
    np.testing.assert_allclose(got["theo"], np.pi * expected.r**2, rtol=1e-15)
    assert result["N_POINTS"] == 578 and math.isnan(result["MISE"])
    assert got["K"][-1] > np.pi * 4  # the deaths cluster around the Broad Street pump
    assert "OUTPUT_CHART" not in result or not result["OUTPUT_CHART"]


@pytest.mark.parametrize(
    "text, radii",
    [
        pytest.param("", None, id="empty: spatstat's rule"),
        pytest.param(" 1.5 , 3 ", np.linspace(0, 1.5, 4), id="max,steps"),
        pytest.param("0,0.25,0.5,1", [0, 0.25, 0.5, 1], id="list"),
        pytest.param("0.1, 0.2, 0.4", [0.1, 0.2, 0.4], id="list not from 0"),
        # with ';' between the numbers, a ',' is a decimal comma
        pytest.param("0; 0,25; 0,5; 1", [0, 0.25, 0.5, 1], id="list with decimal commas"),
        pytest.param("1,5;3", np.linspace(0, 1.5, 4), id="max;steps with a decimal comma"),
    ],
)
def test_radii(deaths, snow, tmp_path, text, radii):
    x, y, window = snow
    got = table(run(deaths, tmp_path, RADII=text)["OUTPUT"])
    expected = default_radii(window, 578, 100) if radii is None else radii
    np.testing.assert_allclose(got["r"], expected, rtol=1e-15, atol=0)
    np.testing.assert_allclose(got["K"], k_function(x, y, window, expected).K, rtol=1e-13)


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("-1,0,1", r"RADII: radii must be >= 0, got -1"),
        ("0,2,1", r"RADII: radii must be strictly increasing, but 1 follows 2"),
        ("0,1,1", r"RADII: radii must be strictly increasing"),
        ("0,1,x", r"RADII: 'x' is not a number"),
        ("0;1,5;x", r"RADII: 'x' is not a number\. .*separate the numbers with ';'"),
        ("0; 1,5,2; 3", r"RADII: '1,5,2' is not a number"),
        (";", r"RADII: ';' holds no number"),
        ("5", r"RADII: give a maximum radius and a number of steps"),
        ("0,10", r"RADII: the maximum radius must be > 0"),
        ("5,2.5", r"RADII: the number of steps must be a whole number"),
        ("5,0", r"RADII: the number of steps must be a whole number"),
        ("0,1,inf", r"RADII: 'inf' is not a finite number"),
    ],
)
def test_bad_radii_are_refused_and_nothing_is_written(deaths, tmp_path, text, pattern):
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=pattern):
        run(deaths, out, RADII=text, OUTPUT_CHART=str(out / "chart.html"))
    assert not out.exists()


def test_a_chart_on_the_table_is_refused_naming_both_outputs_and_the_path_given(deaths, tmp_path):
    """The table and the chart given one path: the message quotes that path, not the table's .csvt beside it."""
    out = tmp_path / "o"
    path = str(out / "k.csv")
    with pytest.raises(
        QgsProcessingException, match=rf"^OUTPUT_CHART: writes the same file as OUTPUT \({re.escape(path)}\);"
    ):
        run(deaths, out, RADII="2,40", OUTPUT=path, OUTPUT_CHART=path)
    assert not out.exists()


def test_synthetic_equal_to_the_input_has_mise_zero_and_a_chart(deaths, tmp_path):
    chart = tmp_path / "chart" / "k.html"
    result = run(deaths, tmp_path, RADII="2,40", SYNTHETIC=deaths, OUTPUT_CHART=str(chart))
    got = table(result["OUTPUT"])
    assert set(got) == {"r", "K", "L", "theo", "K_syn", "L_syn"}
    np.testing.assert_array_equal(got["K_syn"], got["K"])
    np.testing.assert_array_equal(got["L_syn"], got["L"])
    assert result["MISE"] == 0.0 and result["N_POINTS"] == 578
    html = chart.read_text(encoding="utf-8")
    assert result["OUTPUT_CHART"] == str(chart)
    for phrase in (
        "Guarantee",
        "no ε or δ",
        "data:image/png;base64,",
        "Not for publication",
        "MISE",
        "bounding box of the points enlarged",
    ):
        assert phrase in html, phrase


def test_a_chart_leaves_the_sessions_matplotlib_alone(deaths, tmp_path):
    """The report's chart is drawn on its own canvas: a user's pyplot backend and open figures (in QGIS's Python
    console) stay as they were; matplotlib.use("Agg") had switched the backend and closed them."""
    import matplotlib
    from matplotlib import pyplot as plt

    previous = matplotlib.get_backend()
    plt.close("all")
    matplotlib.use("svg")
    try:
        figure = plt.figure()
        run(deaths, tmp_path, RADII="2,40", OUTPUT_CHART=str(tmp_path / "k.html"))
        assert matplotlib.get_backend() == "svg" and plt.get_fignums() == [figure.number]
        assert "data:image/png;base64," in (tmp_path / "k.html").read_text(encoding="utf-8")
    finally:
        plt.close("all")
        matplotlib.use(previous)


def test_the_confidential_table_is_written_only_when_asked_for(deaths, tmp_path):
    """The table reveals pairwise distances of the confidential points, so (like every confidential output) it
    is not a default: a run with a synthetic layer and no output gives only the MISE; a run that would compute
    nothing at all is refused, naming the outputs."""
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    table_parameter = alg.parameterDefinition("OUTPUT")
    assert table_parameter.flags() & table_parameter.FlagOptional and not table_parameter.createByDefault()
    result = processing.run(ALG, {"INPUT": deaths, "SYNTHETIC": deaths, "RADII": "2,40"})
    assert result["MISE"] == 0.0 and result.get("OUTPUT") is None
    with pytest.raises(QgsProcessingException, match="OUTPUT.*OUTPUT_CHART.*SYNTHETIC"):
        processing.run(ALG, {"INPUT": deaths, "RADII": "2,40"})


def test_synthetic_subset_mise_is_the_core_mise(deaths, snow, tmp_path):
    x, y, window = snow
    subset = memory_points(list(zip(x[::2], y[::2])), deaths.crs())
    result = run(deaths, tmp_path, RADII="2,40", CORRECTION=2, SYNTHETIC=subset)
    got = table(result["OUTPUT"])
    r = np.linspace(0, 2, 41)
    k_ori = k_function(x, y, window, r, "none")  # the window is the deaths' one, not the subset's
    k_sub = k_function(x[::2], y[::2], window, r, "none")
    np.testing.assert_allclose(got["K_syn"], k_sub.K, rtol=1e-13)
    assert result["MISE"] > 0
    assert result["MISE"] == pytest.approx(mise(r, k_sub.K, k_ori.K), rel=1e-12)


class Warnings(QgsProcessingFeedback):
    def __init__(self):
        super().__init__()
        self.warnings = []

    def pushWarning(self, warning):  # noqa: N802 (QGIS API name)
        self.warnings.append(warning)
        super().pushWarning(warning)


@pytest.mark.parametrize("text, warned", [("0,0.5,1", True), ("0.01,0.5,1", False)])
def test_duplicated_locations_are_pointed_out_when_the_radii_start_at_zero(deaths, snow, tmp_path, text, warned):
    x, y, _ = snow
    assert len(np.unique(np.column_stack([x, y]), axis=0)) == 575  # three deaths repeat an address
    feedback = Warnings()
    chart = tmp_path / "chart.html"
    params = {"INPUT": deaths, "RADII": text, "OUTPUT": str(tmp_path / "k.gpkg"), "OUTPUT_CHART": str(chart)}
    processing.run(ALG, params, feedback=feedback)
    matching = [w for w in feedback.warnings if "INPUT: 3 points repeat the location of another point" in w]
    assert len(matching) == int(warned)
    assert "repeating another point&#x27;s location</th><td>3</td>" in chart.read_text(encoding="utf-8")


def test_window_layer_and_another_pattern_in_a_projected_crs(enterprise_boxes, tmp_path):
    inside, east = enterprise_boxes
    window = Window.rectangle(*BOX)
    result = run(
        memory_points(inside, "EPSG:28992"),
        tmp_path,
        WINDOW=rectangle_layer(*BOX),
        SYNTHETIC=memory_points(east, "EPSG:28992"),
        RADII="600,60",
    )
    got = table(result["OUTPUT"])
    r = np.linspace(0, 600, 61)
    k_ori = k_function(inside[:, 0], inside[:, 1], window, r)
    k_east = k_function(east[:, 0], east[:, 1], window, r)
    np.testing.assert_allclose(got["K"], k_ori.K, rtol=1e-12)
    np.testing.assert_allclose(got["K_syn"], k_east.K, rtol=1e-12)
    assert result["MISE"] > 0.01
    assert result["MISE"] == pytest.approx(mise(r, k_east.K, k_ori.K), rel=1e-12)


@pytest.mark.parametrize("correction", range(3), ids=CORRECTIONS)
def test_constant_intensity_n_over_area_rescales_the_homogeneous_estimate(deaths, snow, tmp_path, correction):
    """With lambda = n / |W| everywhere, eq. 14 is S / (|W| lambda^2) = |W| S / n^2 against Kest's |W| S / (n (n - 1)):
    K_inhom = K_hom (n - 1) / n for the isotropic and no correction. The border estimators are
    (S_b / lambda^2) / (N_r / lambda) = |W| S_b / (n N_r), which is exactly Kest's: K_inhom = K_hom."""
    x, y, window = snow
    n = 578
    raster = constant_raster(tmp_path / "lambda.tif", n / window.area, window)
    hom = table(run(deaths, tmp_path, RADII="2,40", CORRECTION=correction)["OUTPUT"])
    inhom = table(
        run(deaths, tmp_path, RADII="2,40", CORRECTION=correction, INTENSITY=raster, OUTPUT=str(tmp_path / "i.gpkg"))[
            "OUTPUT"
        ]
    )
    factor = 1.0 if CORRECTIONS[correction] == "border" else (n - 1) / n
    finite = np.isfinite(hom["K"])
    assert finite.sum() > 30
    np.testing.assert_allclose(inhom["K"][finite], factor * hom["K"][finite], rtol=1e-12)
    assert np.array_equal(np.isfinite(inhom["K"]), finite)


def test_intensity_gradient_gives_the_inhomogeneous_estimate(enterprise_boxes, tmp_path):
    """A raster linear in x (between pixel centres bilinear sampling is exact): eq. 14 with the exact lambda."""
    inside, east = enterprise_boxes
    x0, y0, x1, y1 = BOX
    size = 100.0
    cols = rows = int((x1 - x0) / size) + 2  # one pixel beyond the box on every side
    centres = x0 - size + (np.arange(cols) + 0.5) * size
    density = 659 / ((x1 - x0) * (y1 - y0))

    def lam(x):
        return density * (0.5 + (x - x0) / (x1 - x0))

    path = str(tmp_path / "gradient.tif")
    write_float_raster(
        path, np.tile(lam(centres), (rows, 1)), x0 - size, y1 + size, size, QgsCoordinateReferenceSystem("EPSG:28992")
    )
    layer = memory_points(inside, "EPSG:28992")
    synthetic = memory_points(east, "EPSG:28992")
    result = run(layer, tmp_path, WINDOW=rectangle_layer(*BOX), INTENSITY=path, RADII="500,25", SYNTHETIC=synthetic)
    got = table(result["OUTPUT"])
    r = np.linspace(0, 500, 26)
    window = Window.rectangle(*BOX)
    expected = k_function(inside[:, 0], inside[:, 1], window, r, intensity=lam(inside[:, 0]))
    np.testing.assert_allclose(got["K"], expected.K, rtol=1e-9)
    expected_syn = k_function(east[:, 0], east[:, 1], window, r, intensity=lam(east[:, 0]))
    np.testing.assert_allclose(got["K_syn"], expected_syn.K, rtol=1e-9)
    assert result["MISE"] == pytest.approx(mise(r, expected_syn.K, expected.K), rel=1e-8)
    homogeneous = k_function(inside[:, 0], inside[:, 1], Window.rectangle(*BOX), r)
    assert not np.allclose(got["K"][1:], homogeneous.K[1:], rtol=1e-3)


@pytest.mark.parametrize(
    "value, cover, pattern",
    [
        pytest.param(0.0, True, r"INTENSITY: the intensity is zero or negative at 578 of the 578 points", id="zero"),
        pytest.param(-1.0, True, r"INTENSITY: the intensity is zero or negative", id="negative"),
        pytest.param(
            math.nan, True, r"INTENSITY \(at the points of INPUT\): 578 locations fall on NoData", id="nodata"
        ),
        pytest.param(
            1.0, False, r"INTENSITY \(at the points of INPUT\): \d+ locations lie outside the raster", id="outside"
        ),
    ],
)
def test_bad_intensity_is_refused_and_nothing_is_written(deaths, snow, tmp_path, value, cover, pattern):
    x, y, window = snow
    raster = tmp_path / "lambda.tif"
    if cover:
        constant_raster(raster, value, window)
    else:
        write_float_raster(str(raster), np.ones((4, 4)), 8.0, 12.0, 1.0, NO_CRS)
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=pattern):
        run(deaths, out, INTENSITY=str(raster), OUTPUT_CHART=str(out / "chart.html"))
    assert not out.exists()


def test_geographic_layer_is_refused_unless_a_working_crs_is_given(enterprise_boxes, tmp_path):
    from qgis.core import QgsCoordinateTransform, QgsProject

    inside, _ = enterprise_boxes
    to_wgs84 = QgsCoordinateTransform(
        QgsCoordinateReferenceSystem("EPSG:28992"), QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance()
    )
    degrees = [to_wgs84.transform(QgsPointXY(*p)) for p in inside]
    layer = memory_points([(p.x(), p.y()) for p in degrees], "EPSG:4326")
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=r"INPUT is in the geographic CRS EPSG:4326"):
        run(layer, out, OUTPUT_CHART=str(out / "chart.html"))
    assert not out.exists()
    got = table(run(layer, tmp_path, WORK_CRS="EPSG:28992", RADII="500,25")["OUTPUT"])
    # the points in the working CRS, transformed back as the algorithm does (the round trip moves them by
    # far less than a millimetre, but enough to move pairs at integer distances across a radius)
    back = QgsCoordinateTransform(to_wgs84.destinationCrs(), to_wgs84.sourceCrs(), QgsProject.instance())
    xy = np.array([[q.x(), q.y()] for q in (back.transform(p) for p in degrees)])
    assert np.abs(xy - inside).max() < 1e-3
    x, y = xy[:, 0], xy[:, 1]
    expected = k_function(x, y, Window.around_points(x, y, margin=0.05), np.linspace(0, 500, 26))
    np.testing.assert_allclose(got["K"], expected.K, rtol=1e-12)


def test_synthetic_in_another_crs_or_outside_the_window_is_refused(enterprise_boxes, tmp_path):
    inside, east = enterprise_boxes
    layer = memory_points(inside, "EPSG:28992")
    out = tmp_path / "out"
    other_crs = memory_points(inside, "EPSG:3857")
    with pytest.raises(QgsProcessingException, match=r"SYNTHETIC is in EPSG:3857 but INPUT is in EPSG:28992"):
        run(layer, out, SYNTHETIC=other_crs, OUTPUT_CHART=str(out / "chart.html"))
    without_crs = memory_points(inside, NO_CRS)
    with pytest.raises(QgsProcessingException, match=r"SYNTHETIC is in no CRS but INPUT is in EPSG:28992"):
        run(layer, out, SYNTHETIC=without_crs)
    beyond = memory_points(np.vstack([east, [[x0 + 10.0 * SHIFT, 444000.0] for x0 in (BOX[0],)]]), "EPSG:28992")
    with pytest.raises(
        QgsProcessingException, match=r"SYNTHETIC: 1 of its \d+ points lie outside the window \(WINDOW\)"
    ):
        run(layer, out, WINDOW=rectangle_layer(*BOX), SYNTHETIC=beyond)
    with pytest.raises(QgsProcessingException, match=r"WINDOW: 659 of the 659 points of INPUT lie outside"):
        run(layer, out, WINDOW=rectangle_layer(0, 0, 10, 10))
    assert not out.exists()


@pytest.mark.parametrize("when", ["before", "while counting pairs"])
def test_cancel_writes_nothing(deaths, tmp_path, when, cancel_after):
    # past 30% the core is working (reading the points ends there)
    feedback = cancel_after(0 if when == "before" else 30)
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        processing.run(
            ALG,
            {"INPUT": deaths, "SYNTHETIC": deaths, "OUTPUT": str(out / "k.gpkg"), "OUTPUT_CHART": str(out / "c.html")},
            feedback=feedback,
        )
    assert not out.exists()


def test_the_table_of_a_layer_without_crs_is_written_without_one(deaths, tmp_path):
    """Point outputs of a layer without a CRS get the 'Undefined Cartesian SRS' (else QGIS makes them EPSG:4326);
    a table has no geometry and gets no CRS at all (a GeoPackage "attributes" table, with no geometry column)."""
    import sqlite3

    result = run(deaths, tmp_path, RADII="0,0.25,0.5", OUTPUT=str(tmp_path / "k.gpkg"))
    with sqlite3.connect(tmp_path / "k.gpkg") as database:
        assert database.execute("SELECT data_type FROM gpkg_contents").fetchall() == [("attributes",)]
        assert database.execute("SELECT count(*) FROM gpkg_geometry_columns").fetchone() == (0,)
    assert QgsVectorLayer(result["OUTPUT"], "k", "ogr").featureCount() == 3


@pytest.mark.parametrize("name", ["k.shp", "k.dbf"])
def test_a_table_as_a_shapefile_is_refused_before_any_work(deaths, tmp_path, name):
    """QGIS writes a table given as k.shp as k.dbf alone and reports k.shp (which does not load); k.dbf becomes
    k.dbf.dbf. The K table is refused as a Shapefile, naming formats that hold it; a CSV is written."""
    with pytest.raises(QgsProcessingException, match=r"^OUTPUT: this output is a table without geometry"):
        run(deaths, tmp_path, RADII="1,5", OUTPUT=str(tmp_path / name))
    assert list(tmp_path.iterdir()) == []
    result = run(deaths, tmp_path, RADII="1,5", OUTPUT=str(tmp_path / "k.csv"))
    assert QgsVectorLayer(result["OUTPUT"], "k", "ogr").featureCount() == 6


def test_reading_two_large_layers_never_moves_the_bar_back(dwellings, tmp_path, keep_in_project, recording_feedback):
    """Layers are read 20,000 points at a time with progress: SYNTHETIC's read comes after INPUT's on the bar
    (it had restarted at 0)."""
    first, second = (keep_in_project(QgsVectorLayer(dwellings, name, "ogr")) for name in ("first", "second"))
    first.setSubsetString('"fid" % 2 = 0')
    second.setSubsetString('"fid" % 2 = 1')
    params = {"INPUT": first, "SYNTHETIC": second, "RADII": "0, 50, 100", "OUTPUT": str(tmp_path / "k.gpkg")}
    feedback = recording_feedback()
    result = processing.run(ALG, params, feedback=feedback)
    values = feedback.values
    assert result["MISE"] >= 0.0
    assert values == sorted(values) and values[-1] == 100.0
    assert any(0.0 < v < 15.0 for v in values) and any(15.0 < v < 30.0 for v in values)  # both reads move it
