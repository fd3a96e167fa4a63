"""spatialprivacy:dppoints through processing.run in real headless QGIS, on John Snow's cholera deaths and on
a subset of the (synthetic) enterprises in EPSG:28992."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingModelAlgorithm,
    QgsProcessingModelChildAlgorithm,
    QgsProcessingModelChildParameterSource,
    QgsProcessingModelOutput,
    QgsProcessingModelParameter,
    QgsProcessingParameterFeatureSource,
    QgsProject,
    QgsVectorFileWriter,
    QgsVectorLayer,
)

from spatial_privacy.core.synthesis import kernel, laplace_cox, lgcp_dp
from spatial_privacy.core.synthesis.domain import PlanarDomain
from spatial_privacy.core.window import Window

ALG = "spatialprivacy:dppoints"
KERNEL, LGCP, LAPLACE = 0, 1, 2
#: A rectangle of the enterprises layer (EPSG:28992, metres) with a few hundred points.
BOX = (75000.0, 443000.0, 78000.0, 446000.0)


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture
def deaths(data_copy, keep_in_project):
    layer = keep_in_project(QgsVectorLayer(f"{data_copy / 'snow_cholera.gpkg'}|layername=deaths", "deaths", "ogr"))
    assert layer.isValid() and layer.featureCount() == 578
    return layer


def coordinates(layer):
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in layer.getFeatures()])
    return xy[:, 0], xy[:, 1]


def snow_domain(layer):
    x, y = coordinates(layer)
    return x, y, PlanarDomain(Window.around_points(x, y, margin=0.05))


def memory_points(xy, crs):
    layer = QgsVectorLayer(f"Point?crs={crs}&field=secret:integer", "pts", "memory")
    feats = []
    for k, (x, y) in enumerate(xy):
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        f.setAttributes([k])
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def rectangle_layer(x0, y0, x1, y1, crs="EPSG:28992"):
    layer = QgsVectorLayer(f"Polygon?crs={crs}" if crs else "Polygon", "win", "memory")
    if not crs:
        layer.setCrs(QgsCoordinateReferenceSystem())  # truly none: a memory layer made without one gets EPSG:4326
    f = QgsFeature()
    f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x0} {y0}, {x1} {y0}, {x1} {y1}, {x0} {y1}, {x0} {y0}))"))
    layer.dataProvider().addFeatures([f])
    return layer


@pytest.fixture(scope="module")
def enterprises_box(enterprises):
    """The enterprises inside BOX, as a memory layer in EPSG:28992 (with an attribute that must not be copied)."""
    layer = QgsVectorLayer(enterprises, "enterprises", "ogr")
    x0, y0, x1, y1 = BOX
    xy = [
        (p.x(), p.y())
        for p in (f.geometry().asPoint() for f in layer.getFeatures())
        if x0 < p.x() < x1 and y0 < p.y() < y1
    ]
    assert 100 < len(xy) < 2000
    return memory_points(xy, "EPSG:28992"), np.array(xy)


def output_points(path):
    layer = QgsVectorLayer(str(path), "out", "ogr")
    assert layer.isValid(), path
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in layer.getFeatures()])
    return layer, xy.reshape(-1, 2)


def run(layer, out: Path, feedback=None, **extra):
    params = {"INPUT": layer, "EPSILON": 5.0, "ALPHA": 0.1, "SEED": 1854, "OUTPUT": str(out / "syn.gpkg")}
    params.update(extra)
    return processing.run(ALG, params, feedback=feedback)


def test_registered_with_help_for_every_parameter():
    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None
    missing = [p.name() for p in alg.parameterDefinitions() if not p.help()]
    assert not missing
    text = alg.shortHelpString()
    assert "Not protected" in text and "number of points n" in text and "3.2–3.3" in text and "Kim" in text
    assert "pure ε-DP" in alg.parameterDefinition("DELTA").help()


def test_kernel_bandwidth_is_the_core_calibration_and_nothing_is_copied(deaths, tmp_path):
    report = tmp_path / "kernel.html"
    feedback = QgsProcessingFeedback()
    result = run(deaths, tmp_path, feedback=feedback, METHOD=KERNEL, OUTPUT_REPORT=str(report))
    assert "DELTA empty: using 1/n = 0.00173" in feedback.textLog() and "That is weak" in feedback.textLog()
    x, y, domain = snow_domain(deaths)
    cal = kernel.calibrate_kernel(578, 5.0, 1 / 578, 0.1, domain)
    assert result["BANDWIDTH"] == pytest.approx(cal.h, rel=1e-12)
    assert result["DELTA"] == pytest.approx(1 / 578) and result["ALPHA"] == 0.1 and result["EPSILON"] == 5.0
    assert math.isnan(result["RATIO"]) and math.isnan(result["NOISE_SCALE"])
    layer, xy = output_points(result["OUTPUT"])
    assert set(layer.fields().names()) <= {"fid", "syn_id"}
    assert len(xy) == result["SYNTHETIC_COUNT"] == layer.featureCount()
    assert abs(len(xy) - 578) < 5 * math.sqrt(578)  # Poisson(n) synthetic points
    assert domain.contains(xy[:, 0], xy[:, 1]).all()
    # released on the public grid h/1024 (no low-order bits of x_i + h z), also after the GeoPackage round trip
    step = result["BANDWIDTH"] / 1024
    assert np.array_equal(np.rint(xy / step) * step, xy)
    assert sorted(f["syn_id"] for f in layer.getFeatures()) == list(range(1, len(xy) + 1))
    text = report.read_text(encoding="utf-8")
    words = ("Epsilon (ε)", "Delta (δ)", "Alpha (α", "not protected", "n = 578", f"{cal.h:.6g}", str(cal.k))
    for word in words + (f"rounded to (h/1024, CRS units)</th><td>{step:.6g}",):
        assert word in text, word
    assert "data:image/png;base64," in text
    # the report holds no original point: no original coordinate appears in it
    assert not any(f"{v:.6g}" in text for v in x[:50])
    # nor the seed (1854): with it anyone could recompute the noise; the report says one was fixed
    assert "1854" not in text and "NOT for release" in text


def test_lgcp_ratio_is_the_core_calibration_on_the_same_lattice(deaths, tmp_path):
    from spatial_privacy.core.triangulation import lattice

    report = tmp_path / "lgcp.html"
    result = run(deaths, tmp_path, METHOD=LGCP, KNOTS=7, EPSILON=2.0, DELTA=0.01, OUTPUT_REPORT=str(report))
    _, _, domain = snow_domain(deaths)
    xmin, ymin, xmax, ymax = domain.bounds
    mesh = lattice(xmin, ymin, xmax, ymax, 6, 6)
    side = max(xmax - xmin, ymax - ymin) / 6
    cal = lgcp_dp.calibrate_ratio(mesh.nodes, mesh.triangles, 2.0, 0.01, 0.1, lgcp_dp.NUGGET_PER_R2_S2 * side**2)
    assert result["RATIO"] == pytest.approx(cal.ratio, rel=1e-12)
    assert result["DELTA"] == 0.01 and math.isnan(result["BANDWIDTH"])
    layer, xy = output_points(result["OUTPUT"])
    assert set(layer.fields().names()) <= {"fid", "syn_id"} and len(xy) == result["SYNTHETIC_COUNT"] > 0
    assert domain.contains(xy[:, 0], xy[:, 1]).all()
    text = report.read_text(encoding="utf-8")
    assert "Theorem 3.8" in text and "not protected" in text and f"{cal.ratio:.6g}" in text and str(cal.pairs) in text


def test_laplace_noise_scale_and_composed_guarantee(deaths, tmp_path):
    report = tmp_path / "laplace.html"
    result = run(
        deaths, tmp_path, METHOD=LAPLACE, ALPHA=None, TOTAL_SHARE=0.5, CELL_SIZE=2.0, OUTPUT_REPORT=str(report)
    )
    _, _, domain = snow_domain(deaths)
    guarantee = laplace_cox.laplace_guarantee(domain.grid_partition(cell_size=2.0).region_measure, 5.0, 0.5)
    assert result["NOISE_SCALE"] == pytest.approx(guarantee.noise_scale, rel=1e-12)
    assert result["EPSILON_ADD_REMOVE"] == pytest.approx(guarantee.epsilon_add_remove, rel=1e-12)
    assert result["DELTA"] == 0 and math.isnan(result["ALPHA"]) and math.isnan(result["BANDWIDTH"])
    layer, xy = output_points(result["OUTPUT"])
    assert set(layer.fields().names()) <= {"fid", "syn_id"} and domain.contains(xy[:, 0], xy[:, 1]).all()
    # the noisy total (Laplace scale 1 / 2.5) keeps the synthetic count near n instead of far above it
    assert abs(result["SYNTHETIC_COUNT"] - 578) < 5 * math.sqrt(578)
    text = report.read_text(encoding="utf-8")
    assert "added or removed" in text and "not protected" in text
    # n = 578 is not printed (the noisy total, e.g. 578.078, is the DP release and may start with the same digits)
    assert not re.search(r"(?<![\d.])578(?![\d.])", text)
    # default cells: 1/10 of the window's larger side
    default = run(deaths, tmp_path, METHOD=LAPLACE, OUTPUT=str(tmp_path / "default.gpkg"))
    xmin, ymin, xmax, ymax = domain.bounds
    cells = domain.grid_partition(cell_size=max(xmax - xmin, ymax - ymin) / 10)
    assert default["NOISE_SCALE"] == pytest.approx(laplace_cox.laplace_guarantee(cells.region_measure, 5.0).noise_scale)


def test_window_layer_in_a_projected_crs(enterprises_box, tmp_path):
    layer, xy_in = enterprises_box
    result = run(layer, tmp_path, METHOD=KERNEL, EPSILON=2.0, ALPHA=50.0, WINDOW=rectangle_layer(*BOX))
    domain = PlanarDomain(Window.rectangle(*BOX))
    cal = kernel.calibrate_kernel(len(xy_in), 2.0, 1 / len(xy_in), 50.0, domain)
    assert result["BANDWIDTH"] == pytest.approx(cal.h, rel=1e-12)
    out, xy = output_points(result["OUTPUT"])
    assert out.crs().authid() == "EPSG:28992" and set(out.fields().names()) <= {"fid", "syn_id"}
    assert domain.contains(xy[:, 0], xy[:, 1]).all() and len(xy) == result["SYNTHETIC_COUNT"]


def test_window_saved_without_crs_is_refused_clearly(enterprises_box, tmp_path, keep_in_project):
    # a layer without CRS saved to a GeoPackage reads back with a valid "Undefined ... SRS". Next to points with
    # a CRS it cannot be placed: say so (it used to be transformed from "undefined", making every vertex NaN)
    layer, _ = enterprises_box
    path = str(tmp_path / "window.gpkg")
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    no_crs = rectangle_layer(*BOX, crs="")
    no_crs.setCrs(QgsCoordinateReferenceSystem())  # a memory layer made without a CRS defaults to EPSG:4326
    error = QgsVectorFileWriter.writeAsVectorFormatV2(no_crs, path, QgsProject.instance().transformContext(), options)
    assert error[0] == QgsVectorFileWriter.NoError
    window = keep_in_project(QgsVectorLayer(path, "window", "ogr"))  # see the fixture: avoids a crash at exit
    assert window.isValid() and "Undefined" in window.crs().toWkt()
    with pytest.raises(QgsProcessingException, match=r"WINDOW: the layer has no CRS but the points are in EPSG:28992"):
        run(layer, tmp_path / "out", METHOD=LAPLACE, CELL_SIZE=500.0, WINDOW=window)
    assert not (tmp_path / "out").exists()
    # the same window with its CRS set is used as it is
    window.setCrs(QgsCoordinateReferenceSystem("EPSG:28992"))
    result = run(layer, tmp_path, METHOD=LAPLACE, CELL_SIZE=500.0, WINDOW=window)
    _, xy = output_points(result["OUTPUT"])
    assert len(xy) == result["SYNTHETIC_COUNT"] > 0
    assert PlanarDomain(Window.rectangle(*BOX)).contains(xy[:, 0], xy[:, 1]).all()


def test_geographic_layer_needs_a_working_crs_and_output_is_back_in_degrees(enterprises_box, tmp_path):
    layer, xy_in = enterprises_box
    rd, wgs = QgsCoordinateReferenceSystem("EPSG:28992"), QgsCoordinateReferenceSystem("EPSG:4326")
    forward = QgsCoordinateTransform(rd, wgs, QgsProject.instance())
    degrees = memory_points([(p.x(), p.y()) for p in (forward.transform(QgsPointXY(*v)) for v in xy_in)], "EPSG:4326")
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=r"INPUT is in the geographic CRS EPSG:4326.*WORK_CRS"):
        run(degrees, out, METHOD=LAPLACE, OUTPUT=str(out / "syn.gpkg"))
    assert not out.exists()
    feedback = QgsProcessingFeedback()
    result = run(
        degrees,
        tmp_path,
        METHOD=LAPLACE,
        CELL_SIZE=500.0,
        WORK_CRS="EPSG:28992",
        WINDOW=rectangle_layer(*BOX),
        feedback=feedback,
    )
    # the dialog labels CELL_SIZE in INPUT's degrees; the log says they are metres of WORK_CRS
    assert "read in the units of WORK_CRS EPSG:28992 (meters), not in the degrees of INPUT" in feedback.textLog()
    synthetic, xy = output_points(result["OUTPUT"])
    assert synthetic.crs().authid() == "EPSG:4326" and len(xy) == result["SYNTHETIC_COUNT"] > 0
    assert np.all((xy[:, 0] > 3) & (xy[:, 0] < 8) & (xy[:, 1] > 50) & (xy[:, 1] < 54))  # degrees
    back = QgsCoordinateTransform(wgs, rd, QgsProject.instance())
    rd_xy = np.array([[p.x(), p.y()] for p in (back.transform(QgsPointXY(*v)) for v in xy)])
    x0, y0, x1, y1 = BOX
    assert np.all((rd_xy[:, 0] > x0 - 1) & (rd_xy[:, 0] < x1 + 1) & (rd_xy[:, 1] > y0 - 1) & (rd_xy[:, 1] < y1 + 1))


@pytest.mark.parametrize(
    "extra, pattern",
    [
        pytest.param({"ALPHA": 0.0}, r"ALPHA: must be a distance > 0", id="alpha zero"),
        pytest.param({"ALPHA": -1.0}, r"ALPHA: must be a distance > 0", id="alpha negative"),
        pytest.param({"ALPHA": None}, r"ALPHA: the kernel and LGCP methods need", id="alpha missing"),
        pytest.param({"DELTA": 0.0}, r"DELTA: delta must lie strictly between 0 and 1", id="delta zero"),
        pytest.param({"DELTA": 1.0}, r"DELTA: delta must lie strictly between 0 and 1", id="delta one"),
        pytest.param({"METHOD": LGCP, "DELTA": 1.5}, r"DELTA: delta must lie", id="delta above one"),
        pytest.param(
            {"EPSILON": 0.0}, r"EPSILON: epsilon must be a number of at least 1e-09, got 0", id="epsilon zero"
        ),
        # numpy's geometric draws saturate below about 1e-12 and cancel: the noisy total would be the true n
        pytest.param(
            {"METHOD": LAPLACE, "EPSILON": 1e-20, "TOTAL_SHARE": 0.5},
            r"EPSILON: epsilon must be a number of at least 1e-09, got 1e-20",
            id="epsilon below the smallest",
        ),
        pytest.param(
            {"METHOD": LAPLACE, "EPSILON": 1.0, "TOTAL_SHARE": 1e-12},
            r"TOTAL_SHARE: the total's share of epsilon, 1e-12, is below the smallest epsilon",
            id="share below the smallest epsilon",
        ),
        pytest.param(
            {"METHOD": LAPLACE, "EPSILON": 1.0, "TOTAL_SHARE": 1 - 1e-13},
            r"TOTAL_SHARE: the cells' share of epsilon, 1e-13, is below the smallest epsilon",
            id="cells' share below the smallest epsilon",
        ),
        pytest.param({"METHOD": LAPLACE, "EPSILON": -1.0}, r"EPSILON: epsilon must be", id="epsilon negative"),
        pytest.param({"METHOD": LAPLACE, "TOTAL_SHARE": 1.0}, r"TOTAL_SHARE: the share must lie", id="share one"),
        pytest.param({"BANDWIDTH": 1.0}, r"BANDWIDTH: bandwidth 1 is below the smallest private", id="bandwidth"),
        pytest.param(
            {"WINDOW": "window"}, r"WINDOW: \d+ of the 578 points lie outside the window", id="window misses points"
        ),
        pytest.param(
            {"METHOD": LAPLACE, "WINDOW": "window"},
            r"WINDOW: some points lie outside the window \(how many is not shown",  # n is protected
            id="window laplace",
        ),
    ],
)
def test_bad_input_is_refused_naming_the_parameter_and_nothing_is_written(deaths, tmp_path, extra, pattern):
    if extra.get("WINDOW") == "window":
        extra = {**extra, "WINDOW": rectangle_layer(10, 10, 14, 14, crs="")}
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=pattern):
        run(deaths, out, OUTPUT_REPORT=str(out / "report.html"), **extra)
    assert not (out / "syn.gpkg").exists() and not (out / "report.html").exists()
    assert not out.exists()


def test_seeded_runs_are_reproducible(deaths, tmp_path):
    first = output_points(run(deaths, tmp_path, OUTPUT=str(tmp_path / "a.gpkg"), SEED=7)["OUTPUT"])[1]
    again = output_points(run(deaths, tmp_path, OUTPUT=str(tmp_path / "b.gpkg"), SEED=7)["OUTPUT"])[1]
    other = output_points(run(deaths, tmp_path, OUTPUT=str(tmp_path / "c.gpkg"), SEED=8)["OUTPUT"])[1]
    np.testing.assert_array_equal(first, again)
    assert first.shape != other.shape or not np.array_equal(first, other)


@pytest.mark.parametrize("when", ["before", "during calibration"])
def test_cancel_writes_nothing(deaths, tmp_path, when, cancel_after):
    # past 30% the core is working (reading the points ends there)
    feedback = cancel_after(0 if when == "before" else 30)
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        processing.run(
            ALG,
            {"INPUT": deaths, "ALPHA": 0.1, "OUTPUT": str(out / "s.gpkg"), "OUTPUT_REPORT": str(out / "r.html")},
            feedback=feedback,
        )
    assert not out.exists()


def test_graphical_model_chain(deaths, tmp_path):
    """extract the deaths west of x = 14 -> dppoints (Laplace): the points stay in the extract's window."""
    model = QgsProcessingModelAlgorithm("dp points chain", "tests")
    model.addModelParameter(QgsProcessingParameterFeatureSource("pts", "pts"), QgsProcessingModelParameter("pts"))
    extract = QgsProcessingModelChildAlgorithm("native:extractbyexpression")
    extract.setChildId("extract")
    extract.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromModelParameter("pts")])
    extract.addParameterSources("EXPRESSION", [QgsProcessingModelChildParameterSource.fromStaticValue("$x < 14")])
    model.addChildAlgorithm(extract)
    child = QgsProcessingModelChildAlgorithm(ALG)
    child.setChildId("dp")
    child.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromChildOutput("extract", "OUTPUT")])
    for key, value in {"METHOD": LAPLACE, "EPSILON": 2.0, "SEED": 3}.items():
        child.addParameterSources(key, [QgsProcessingModelChildParameterSource.fromStaticValue(value)])
    out = QgsProcessingModelOutput("synthetic", "synthetic")
    out.setChildOutputName("OUTPUT")
    child.setModelOutputs({"synthetic": out})
    model.addChildAlgorithm(child)
    result = processing.run(model, {"pts": deaths, "dp:synthetic": str(tmp_path / "model.gpkg")})
    layer, xy = output_points(result["dp:synthetic"])
    x, y = coordinates(deaths)
    window = Window.around_points(x[x < 14], y[x < 14], margin=0.05)
    assert layer.featureCount() > 0 and window.contains(xy[:, 0], xy[:, 1]).all()


def test_default_window_warns_that_it_follows_the_extreme_points(deaths, tmp_path, enterprises_box):
    """Without a public WINDOW the log, the report and the name of the layer loaded into the project say that
    the release is not covered by the guarantee; with one, none of them does."""
    from qgis.core import QgsProcessingContext, QgsProcessingOutputLayerDefinition

    project = QgsProject.instance()
    alg = QgsApplication.processingRegistry().createAlgorithmById(ALG)

    def run_loaded(layer, name, **extra):
        context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
        context.setProject(project)
        target, report = str(tmp_path / f"{name}.gpkg"), tmp_path / f"{name}.html"
        params = {"INPUT": layer, "METHOD": 2, "OUTPUT_REPORT": str(report), **extra}
        params["OUTPUT"] = QgsProcessingOutputLayerDefinition(target, project)
        results, ok = alg.run(params, context, feedback)
        assert ok, feedback.textLog()
        assert list(context.layersToLoadOnCompletion()) == [target]
        details = context.layerToLoadOnCompletionDetails(target)
        return feedback.textLog(), report.read_text(encoding="utf-8"), details.name

    import sqlite3
    from contextlib import closing

    def description(name):  # the label inside the GeoPackage travels with a copy of the file
        with closing(sqlite3.connect(tmp_path / f"{name}.gpkg")) as database:
            return database.execute("SELECT description FROM gpkg_contents").fetchone()[0]

    log, report, name = run_loaded(deaths, "a")
    assert "No WINDOW given" in log
    assert "NOT covered by this guarantee" in report
    assert name.startswith("NOT PRIVATE (window from the data): DP synthetic points"), name
    assert "<title>NOT PRIVATE (window from the data): Differentially private synthetic points" in report
    assert description("a").startswith("NOT PRIVATE (window from the data): no privacy guarantee holds")
    layer, _ = enterprises_box
    log, report, name = run_loaded(layer, "b", WINDOW=rectangle_layer(*BOX))
    assert "No WINDOW given" not in log
    assert "NOT covered by this guarantee" not in report
    assert name.startswith("DP synthetic points"), name
    assert "NOT PRIVATE" not in report and not description("b")


def test_outputs_on_one_file_are_refused_before_any_work(deaths, tmp_path):
    same = str(tmp_path / "out" / "same.gpkg")
    with pytest.raises(QgsProcessingException, match=r"OUTPUT_REPORT: writes the same file as OUTPUT"):
        processing.run(ALG, {"INPUT": deaths, "METHOD": 2, "OUTPUT": same, "OUTPUT_REPORT": same})
    assert not (tmp_path / "out").exists()


def test_default_delta_is_refused_for_one_point_and_a_large_delta_is_flagged(tmp_path):
    window = rectangle_layer(0, 0, 100, 100, crs="EPSG:28992")
    one = memory_points([(50.0, 50.0)], "EPSG:28992")
    with pytest.raises(QgsProcessingException, match=r"INPUT: one point gives the default δ = 1/n = 1"):
        run(one, tmp_path, METHOD=KERNEL, ALPHA=1.0, WINDOW=window)
    feedback = QgsProcessingFeedback()
    two = memory_points([(40.0, 50.0), (60.0, 50.0)], "EPSG:28992")
    result = run(two, tmp_path, METHOD=KERNEL, ALPHA=1.0, WINDOW=window, feedback=feedback)
    assert result["DELTA"] == 0.5 and "δ = 0.5 is large" in feedback.textLog()


def polygon_layer(wkt, crs="EPSG:28992"):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "win", "memory")
    f = QgsFeature()
    f.setGeometry(QgsGeometry.fromWkt(wkt))
    layer.dataProvider().addFeatures([f])
    return layer


def test_a_window_with_a_thin_corridor_warns_that_offspring_drawing_may_be_slow(tmp_path):
    # as in tests/core/test_dp_kernel.py: at the far end of a corridor 1e-4 m wide and 1400 m long, a kernel of
    # the calibrated bandwidth (about 300 m) keeps about 2e-7 of its mass inside the window, below
    # MIN_KERNEL_MASS: the public warning must reach the log. The square alone gives no warning.
    w = 1e-4
    corridor = polygon_layer(
        f"POLYGON((0 0, 100 0, 100 {50 - w / 2}, 1500 {50 - w / 2}, 1500 {50 + w / 2}, 100 {50 + w / 2}, "
        "100 100, 0 100, 0 0))"
    )
    points = memory_points([(10.0 + 20 * i, 10.0 + 20 * j) for i in range(5) for j in range(5)], "EPSG:28992")
    warning = "keeps only"
    feedback = QgsProcessingFeedback()
    result = run(points, tmp_path, feedback=feedback, METHOD=KERNEL, ALPHA=0.1, WINDOW=corridor)
    assert result["SYNTHETIC_COUNT"] > 0
    log = feedback.textLog()
    assert f"{warning} " in log and f"of bandwidth {result['BANDWIDTH']:.6g} inside it" in log, log
    square = rectangle_layer(0, 0, 100, 100)
    feedback = QgsProcessingFeedback()
    run(points, tmp_path / "square", feedback=feedback, METHOD=KERNEL, ALPHA=0.1, WINDOW=square)
    assert warning not in feedback.textLog()


class DeadlineFeedback(QgsProcessingFeedback):
    """Presses Cancel at the first progress report after ``seconds``: a run that would hang fails instead."""

    def __init__(self, seconds: float):
        super().__init__()
        self.end = time.monotonic() + seconds

    def setProgress(self, progress):  # noqa: N802 (QGIS API name)
        if time.monotonic() > self.end:
            self.cancel()
        super().setProgress(progress)


def test_a_bandwidth_far_wider_than_the_window_is_refused_up_front_naming_bandwidth(tmp_path):
    """BANDWIDTH = 1e9 on a 2 km window keeps at most 6e-13 of a kernel inside the window (4e13 draws for 25
    points): the run drew offspring for more than 9 minutes, under a warning that blamed the window. Window and
    bandwidth are public: it is refused before any work, naming BANDWIDTH and a bandwidth that would run."""
    window = rectangle_layer(0, 0, 2000, 2000)
    points = memory_points([(200.0 + 400 * i, 200.0 + 400 * j) for i in range(5) for j in range(5)], "EPSG:28992")
    out = tmp_path / "out"
    feedback = DeadlineFeedback(60)
    start = time.monotonic()
    with pytest.raises(
        QgsProcessingException, match=r"^BANDWIDTH: bandwidth 1e\+09 is far wider than the window \(2000 by 2000\)"
    ) as error:
        run(
            points,
            out,
            feedback,
            METHOD=KERNEL,
            ALPHA=1.0,
            WINDOW=window,
            BANDWIDTH=1e9,
            OUTPUT_REPORT=str(out / "r.html"),
        )
    assert time.monotonic() - start < 20
    assert "use a bandwidth below 5.04e+06" in str(error.value)  # sqrt(area * MAX_KERNEL_DRAWS / (2 pi 25))
    assert "corner of the window" not in feedback.textLog() and not out.exists()
    # a hundred times the window's side is fine: at most 1.6e-5 of a kernel inside, 1.6e6 draws
    result = run(points, tmp_path / "wide", METHOD=KERNEL, ALPHA=1.0, WINDOW=window, BANDWIDTH=2e5)
    assert result["BANDWIDTH"] == 2e5
    _, xy = output_points(result["OUTPUT"])
    assert result["SYNTHETIC_COUNT"] == len(xy) > 0 and np.all((xy >= 0) & (xy <= 2000))


def test_a_bandwidth_wider_than_the_window_warns_naming_bandwidth_not_the_window(tmp_path):
    """A kernel 500 times the window's side keeps at most 6.4e-7 of its mass inside it (5e6 draws for 3 points, within
    the limit): the run goes on with a warning that names BANDWIDTH, not a corner or corridor of the window."""
    window = rectangle_layer(0, 0, 2000, 2000)
    points = memory_points([(500.0, 500.0), (1500.0, 800.0), (1000.0, 1600.0)], "EPSG:28992")
    feedback = DeadlineFeedback(60)
    result = run(points, tmp_path, feedback, METHOD=KERNEL, ALPHA=1.0, WINDOW=window, BANDWIDTH=1e6)
    log = feedback.textLog()
    assert result["BANDWIDTH"] == 1e6
    assert "The bandwidth 1e+06 is far wider than the window: at most 6.4e-07 of a kernel lies inside it" in log, log
    assert "A smaller BANDWIDTH spreads the points as evenly." in log and "corner of the window" not in log


def test_line_layers_are_refused_naming_the_parameter(tmp_path, deaths):
    # processing.run and qgis_process do not enforce the dialog's geometry filters
    lines = QgsVectorLayer("LineString?crs=EPSG:28992", "lines", "memory")
    f = QgsFeature()
    f.setGeometry(QgsGeometry.fromWkt("LINESTRING(0 0, 10 10)"))
    lines.dataProvider().addFeatures([f])
    with pytest.raises(QgsProcessingException, match=r"INPUT: needs a point layer, got LineString"):
        run(lines, tmp_path, METHOD=LAPLACE)
    with pytest.raises(QgsProcessingException, match=r"WINDOW: needs a polygon layer, got LineString"):
        run(deaths, tmp_path, METHOD=LAPLACE, WINDOW=lines)


def test_a_pattern_swamped_by_noise_is_flagged(deaths, tmp_path):
    feedback = QgsProcessingFeedback()
    result = run(deaths, tmp_path, feedback=feedback, METHOD=LAPLACE, ALPHA=None, EPSILON=0.2, CELL_SIZE=0.2)
    # judged against the public expected noise (|W| Delta / 2 eps), not against the true n
    assert result["SYNTHETIC_COUNT"] > 10 * 578 and "the pattern is mostly noise" in feedback.textLog()
    assert "original count" not in feedback.textLog()
    feedback = QgsProcessingFeedback()
    run(deaths, tmp_path, feedback=feedback, METHOD=LAPLACE, ALPHA=None, OUTPUT=str(tmp_path / "b.gpkg"))
    assert "mostly noise" not in feedback.textLog()


@pytest.mark.parametrize("epsilon", [1e-6, 1e-9])
def test_laplace_noise_beyond_a_million_points_is_refused_before_drawing(deaths, tmp_path, epsilon):
    out = tmp_path / "out"
    with pytest.raises(QgsProcessingException, match=r"EPSILON: with these cells the noise alone would add about"):
        run(deaths, out, METHOD=LAPLACE, ALPHA=None, EPSILON=epsilon)
    assert not out.exists()


def test_the_log_of_the_laplace_method_does_not_show_the_number_of_points(deaths, tmp_path):
    """The Laplace guarantee covers adding or removing a point, so n (578 deaths) is protected: the report leaves it
    out, and so must the log, which is not labelled confidential. The other methods treat n as public."""
    feedback = QgsProcessingFeedback()
    run(
        deaths,
        tmp_path,
        feedback=feedback,
        METHOD=LAPLACE,
        ALPHA=None,
        TOTAL_SHARE=0.2,
        OUTPUT=str(tmp_path / "l.gpkg"),
    )
    assert "their number is protected and not shown" in feedback.textLog()
    assert not re.search(r"\b578\b", feedback.textLog()), feedback.textLog()
    feedback = QgsProcessingFeedback()
    run(deaths, tmp_path, feedback=feedback, OUTPUT=str(tmp_path / "k.gpkg"))
    assert "Read 578 points" in feedback.textLog()


def test_a_noisy_total_lets_a_small_epsilon_through_without_a_noise_warning(deaths, tmp_path):
    # with TOTAL_SHARE the intensity is rescaled to the noisy total, so the noise adds no points of its own:
    # epsilon = 1e-5 is refused without a total (about 1e7 noise points) and runs with one
    with pytest.raises(QgsProcessingException, match=r"EPSILON: with these cells the noise alone would add"):
        run(deaths, tmp_path / "refused", METHOD=LAPLACE, ALPHA=None, EPSILON=1e-5)
    feedback = QgsProcessingFeedback()
    result = run(deaths, tmp_path, feedback=feedback, METHOD=LAPLACE, ALPHA=None, EPSILON=1e-5, TOTAL_SHARE=0.5)
    assert 0 <= result["SYNTHETIC_COUNT"] < 1_000_000
    assert "mostly noise" not in feedback.textLog() and "original count" not in feedback.textLog()


def test_csv_output_keeps_the_coordinates(deaths, tmp_path):
    # OGR's CSV writer drops the geometry; the synthetic points must still be there, as x and y columns
    import csv

    path = tmp_path / "syn.csv"
    result = run(deaths, tmp_path, METHOD=LAPLACE, ALPHA=None, OUTPUT=str(path))
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == result["SYNTHETIC_COUNT"] > 0 and set(rows[0]) == {"syn_id", "x", "y"}
    _, _, domain = snow_domain(deaths)
    xy = np.array([[float(r["x"]), float(r["y"])] for r in rows])
    assert domain.contains(xy[:, 0], xy[:, 1]).all()
    # the .csvt file beside it gives the column types, so OGR reads numbers, not text
    layer = QgsVectorLayer(str(path), "syn", "ogr")
    assert {f.name(): f.typeName() for f in layer.fields()} == {"syn_id": "Integer64", "x": "Real", "y": "Real"}


def geojson_layer(path: Path, geometries: list[str], crs="EPSG:28992") -> str:
    """A GeoJSON file of the given geometries (GeoJSON dicts as text): QGIS reports such a layer with the first
    feature's geometry type, whatever the others are (a layer of mixed geometry)."""
    features = ",".join(f'{{"type": "Feature", "properties": {{}}, "geometry": {g}}}' for g in geometries)
    name = crs.replace(":", "::")
    path.write_text(
        f'{{"type": "FeatureCollection", "crs": {{"type": "name", "properties": {{"name": "urn:ogc:def:crs:{name}"}}}},'
        f' "features": [{features}]}}',
        encoding="utf-8",
    )
    return str(path)


def test_layers_of_mixed_geometry_are_refused_naming_the_parameter(enterprises_box, tmp_path):
    """A point layer holding a line, and a window layer holding a line or a point, are refused with the feature
    that is wrong, not with a Python error; nothing is written."""
    layer, xy = enterprises_box
    x0, y0, x1, y1 = BOX
    points = [f'{{"type": "Point", "coordinates": [{x}, {y}]}}' for x, y in xy[:30]]
    line = f'{{"type": "LineString", "coordinates": [[{x0}, {y0}], [{x1}, {y1}]]}}'
    ring = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
    box = f'{{"type": "Polygon", "coordinates": [{ring}]}}'
    mixed_points = geojson_layer(tmp_path / "points.geojson", points + [line])
    for alg, extra, count in (
        (ALG, {"EPSILON": 5.0, "ALPHA": 0.1, "METHOD": LAPLACE}, "some"),  # counts of points are protected
        ("spatialprivacy:kfunction", {"RADII": "500,10"}, "1"),
    ):
        with pytest.raises(
            QgsProcessingException, match=rf"^INPUT: {count} features are not points \(a layer of mixed"
        ):
            processing.run(alg, {"INPUT": mixed_points, "OUTPUT": str(tmp_path / "out" / "o.gpkg"), **extra})
    for other in (line, f'{{"type": "Point", "coordinates": [{x0}, {y0}]}}'):
        window = geojson_layer(tmp_path / "window.geojson", [box, other])
        with pytest.raises(QgsProcessingException, match=r"^WINDOW: feature 1 is a (LineString|Point), not a polygon"):
            run(layer, tmp_path / "out", METHOD=KERNEL, WINDOW=window)
    assert not (tmp_path / "out").exists()
    # a collection of polygons is a polygon window
    collection = QgsVectorLayer("GeometryCollection", "win", "memory")
    collection.setCrs(QgsCoordinateReferenceSystem("EPSG:28992"))  # QGIS 3.22 ignores a crs= for this type
    feature = QgsFeature()
    rectangle = f"({x0} {y0}, {x1} {y0}, {x1} {y1}, {x0} {y1}, {x0} {y0})"
    feature.setGeometry(QgsGeometry.fromWkt(f"GEOMETRYCOLLECTION(POLYGON({rectangle}))"))
    assert collection.dataProvider().addFeatures([feature])[0]
    result = run(layer, tmp_path / "out", METHOD=LAPLACE, WINDOW=collection)
    assert result["SYNTHETIC_COUNT"] > 0


def test_points_outside_the_window_are_counted_except_by_the_laplace_method(enterprises_box, tmp_path):
    """The Laplace guarantee protects the number of points: "k of the n points lie outside" would show it."""
    layer, xy = enterprises_box
    x0, y0, x1, y1 = BOX
    half = rectangle_layer(x0, y0, (x0 + x1) / 2, y1)
    outside = int(np.count_nonzero(xy[:, 0] >= (x0 + x1) / 2))
    with pytest.raises(QgsProcessingException, match=rf"^WINDOW: {outside} of the {len(xy)} points lie outside"):
        run(layer, tmp_path, METHOD=KERNEL, WINDOW=half)
    with pytest.raises(QgsProcessingException) as refused:
        run(layer, tmp_path, METHOD=LAPLACE, WINDOW=half)
    message = str(refused.value)
    assert message.startswith("WINDOW: some points lie outside the window (how many is not shown")
    assert not re.search(rf"\b({len(xy)}|{outside})\b", message)


def test_points_whose_crs_is_wrong_are_refused_as_untransformable(enterprises_box, tmp_path):
    """Metres in a layer that says EPSG:4326 cannot be transformed to a working CRS: the message says so (QGIS
    gives such features no geometry, which read as "features have no geometry"), without n for Laplace; a window
    whose CRS is wrong likewise, rather than as an invalid polygon."""
    _, xy = enterprises_box
    mislabelled = memory_points([tuple(p) for p in xy], "EPSG:4326")
    transform = r"could not be transformed from EPSG:4326 to EPSG:28992"
    with pytest.raises(QgsProcessingException, match=rf"^INPUT: {len(xy)} features {transform}"):
        run(mislabelled, tmp_path, METHOD=KERNEL, WORK_CRS="EPSG:28992")
    with pytest.raises(QgsProcessingException, match=rf"^INPUT: some features {transform}"):
        run(mislabelled, tmp_path, METHOD=LAPLACE, WORK_CRS="EPSG:28992")
    layer, _ = enterprises_box
    window = rectangle_layer(*BOX, crs="EPSG:4326")
    with pytest.raises(QgsProcessingException, match=rf"^WINDOW: feature \d+ {transform}"):
        run(layer, tmp_path, METHOD=KERNEL, WINDOW=window)
    assert list(tmp_path.iterdir()) == []
