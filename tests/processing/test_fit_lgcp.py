"""spatialprivacy:fitlgcp through processing.run in real headless QGIS, on John Snow's cholera deaths."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsRasterLayer,
    QgsVectorLayer,
)

ALG = "spatialprivacy:fitlgcp"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture
def snow(data_copy, keep_in_project):
    """The deaths layer and a one-feature layer with pump 7 (Broad Street)."""
    gpkg = data_copy / "snow_cholera.gpkg"
    deaths = keep_in_project(QgsVectorLayer(f"{gpkg}|layername=deaths", "deaths", "ogr"))
    pumps = keep_in_project(QgsVectorLayer(f"{gpkg}|layername=pumps", "pumps", "ogr"))
    assert deaths.isValid() and pumps.isValid()
    broad_street = [f for f in pumps.getFeatures() if f["pump"] == 7]
    assert len(broad_street) == 1 and broad_street[0]["label"] == "Broad St"
    pump = QgsVectorLayer("Point", "pump 7", "memory")
    pump.setCrs(QgsCoordinateReferenceSystem())  # like the deaths: no CRS (a memory layer defaults to EPSG:4326)
    feature = QgsFeature()
    feature.setGeometry(broad_street[0].geometry())
    pump.dataProvider().addFeatures([feature])
    return deaths, pump


def test_every_parameter_has_help_and_the_help_says_it_is_not_a_privacy_mechanism():
    from qgis.core import QgsApplication

    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert all(p.help() for p in alg.parameterDefinitions()), [
        p.name() for p in alg.parameterDefinitions() if not p.help()
    ]
    assert "Not a privacy mechanism" in alg.shortHelpString()
    for name in ("OUTPUT_MODEL", "OUTPUT_INTENSITY", "OUTPUT_REPORT"):
        assert "CONFIDENTIAL" in alg.parameterDefinition(name).description()


def test_snow_distance_to_broad_street_pump_is_clearly_negative(snow, tmp_path):
    from spatial_privacy.core.posterior import Posterior

    deaths, pumps = snow
    result = processing.run(
        ALG,
        {
            "INPUT": deaths,
            "DISTANCE_TO": pumps,
            "DRAWS": 500,
            "SEED": 1854,
            "OUTPUT_MODEL": str(tmp_path / "snow.npz"),
            "OUTPUT_INTENSITY": str(tmp_path / "snow.tif"),
            "OUTPUT_REPORT": str(tmp_path / "snow.html"),
        },
    )
    posterior = Posterior.load(result["OUTPUT_MODEL"])
    rows = {row[0]: row for row in posterior.summary()}
    assert posterior.names == ("intercept", "distance")
    assert rows["distance"][4] < 0  # the 95% interval of the distance coefficient lies below 0
    assert posterior.n_draws == 500 and result["NODES"] == posterior.nodes.shape[0] > 500
    # the model file carries the covariates at the mesh nodes for the synthesis tools: the distance column
    # equals the distance from each node to the Broad Street pump (nodes inside the window)
    assert posterior.x_nodes.shape == (posterior.nodes.shape[0], 2) and np.all(posterior.x_nodes[:, 0] == 1)
    pump = next(pumps.getFeatures()).geometry().asPoint()
    node_distance = np.hypot(posterior.nodes[:, 0] - pump.x(), posterior.nodes[:, 1] - pump.y())
    nearest = np.argsort(node_distance)[:50]
    assert np.allclose(posterior.x_nodes[nearest, 1], node_distance[nearest])
    raster = QgsRasterLayer(result["OUTPUT_INTENSITY"], "intensity")
    assert raster.isValid() and raster.bandCount() == 2
    # The raster is the posterior mean intensity: exactly mean_l lambda_l at its pixel centres (recomputed from the
    # model file and the pump), and its sum times the pixel area approximates int_W lambda-bar as the model's
    # quadrature does (mean_l of int_W lambda_l, the same draws: the mean commutes with both sums, so the two differ
    # by discretisation alone, no Monte Carlo error).
    from osgeo import gdal

    from spatial_privacy.core.mesh import Mesh

    source = gdal.Open(result["OUTPUT_INTENSITY"])
    # derived from the confidential points: the file itself says so (gdalinfo, QGIS's layer properties)
    assert source.GetMetadataItem("CONFIDENTIAL") == (
        "CONFIDENTIAL: not for publication (Fit a log-Gaussian Cox process, OUTPUT_INTENSITY)"
    )
    left, h, _, top, _, _ = source.GetGeoTransform()
    band = source.GetRasterBand(1).ReadAsArray()
    source = None
    mesh, window = Mesh(posterior.nodes, posterior.triangles), posterior.window()

    def mean_intensity(x, y):
        design = np.column_stack([np.ones(x.size), np.hypot(x - pump.x(), y - pump.y())])
        return posterior.intensity_summary(mesh.projection(x, y), design)[0]

    def pixel_sum(split):  # the raster's midpoint rule with every pixel split into split x split
        offsets = (np.arange(split) + 0.5) / split
        gx, gy = np.meshgrid(
            left + (np.arange(band.shape[1])[:, None] + offsets).ravel() * h,
            top - (np.arange(band.shape[0])[:, None] + offsets).ravel() * h,
        )
        return mean_intensity(gx.ravel(), gy.ravel()).reshape(gx.shape)

    assert np.all(np.isfinite(band)) and np.allclose(band, pixel_sum(1), rtol=1e-12, atol=0)
    # The pixels (h = half the mesh edge) tile W' = W plus strips along the edges, narrower than h / 2 (every
    # centre lies in the rectangular window): their integrals, width x h x the edge pixels, are taken off.
    x0, y0, x1, y1 = window.bounds
    gaps = np.array([x0 - left, left + band.shape[1] * h - x1, top - y1, y0 - (top - band.shape[0] * h)])
    assert np.all((gaps > -1e-9) & (gaps < h / 2))
    strips = h * float(gaps @ [band[:, 0].sum(), band[:, -1].sum(), band[0].sum(), band[-1].sum()])
    # The model's rule: the edge midpoints of the mesh triangles, A/3 each (exact for quadratics; the mesh follows
    # the window's edge, so no triangle is cut). Each rule is applied again at half its size, pixels and triangles
    # split in four, and changes by D. For a rule of order p >= 1 (the pixel rule has 2, the edge midpoints 3) the
    # changes on further halvings at least halve, so the halved rule errs by at most |D| (and the rule itself by at
    # most 2 |D|). So the halved values, the raster's sum plus D_raster and the model's integral plus D_quadrature,
    # agree within |D_raster| + |D_quadrature| = 8.7 (1.5 %). Here D = -3.9 and +4.9 (further halvings changed them
    # by 0.08, 0.08 and 0.63, 0.05; the quadrature is low because the draws' fields are rough, node differences of
    # sd 2.2 along the edges, where the midpoint rule undershoots exp by about 1 %); the halved values differ by 0.7
    # (the unhalved by 9.4). rel=0.05 allowed 29.
    area = mesh.clipped_moments(window)[0]
    whole = area >= mesh.triangle_areas * (1 - 1e-9)
    assert np.all(whole | (area <= mesh.triangle_areas * 1e-12))
    corners = posterior.nodes[posterior.triangles[whole]]

    def triangle_rule(bary):  # barycentric points (k, 3), weight A / k each, on every triangle in the window
        points = np.einsum("kj,tjd->tkd", bary, corners).reshape(-1, 2)
        return mean_intensity(points[:, 0], points[:, 1]) @ np.repeat(area[whole] / len(bary), len(bary))

    halved = [[3, 1, 0], [2, 1, 1], [3, 0, 1], [1, 3, 0], [1, 2, 1], [0, 3, 1], [1, 0, 3], [1, 1, 2], [0, 1, 3]]
    halved = np.array(halved + [[2, 1, 1], [1, 2, 1], [1, 1, 2]]) / 4  # edge midpoints of the four sub-triangles
    integral = posterior.integrated_intensity().mean()
    model_rule = triangle_rule(np.array([[2, 2, 0], [0, 2, 2], [2, 0, 2]]) / 4)
    assert model_rule == pytest.approx(integral, rel=1e-12)
    # the changes come from the model file's intensity (the two outputs enter only as the values compared)
    raster_change = (pixel_sum(2).sum() / 4 - pixel_sum(1).sum()) * h * h
    quadrature_change = triangle_rule(halved) - model_rule
    stats = raster.dataProvider().bandStatistics(1)
    raster_sum = stats.sum * raster.rasterUnitsPerPixelX() * raster.rasterUnitsPerPixelY()
    halved_difference = (raster_sum + raster_change - strips) - (integral + quadrature_change)
    assert abs(halved_difference) <= abs(raster_change) + abs(quadrature_change)
    report = Path(result["OUTPUT_REPORT"]).read_text(encoding="utf-8")
    assert "distance" in report and "Not for publication" in report and "data:image/png;base64," in report


def memory_points(coords, crs="EPSG:28992"):
    layer = QgsVectorLayer(f"Point?crs={crs}", "pts", "memory")
    feats = []
    for x, y in coords:
        f = QgsFeature()
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def no_crs(layer):
    layer.setCrs(QgsCoordinateReferenceSystem())
    return layer


def square_window(x0, y0, x1, y1, hole=None, crs="EPSG:28992"):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "win", "memory")
    ring = f"({x0} {y0}, {x1} {y0}, {x1} {y1}, {x0} {y1}, {x0} {y0})"
    if hole:
        a, b, c, d = hole
        ring += f", ({a} {b}, {a} {d}, {c} {d}, {c} {b}, {a} {b})"
    f = QgsFeature()
    f.setGeometry(QgsGeometry.fromWkt(f"POLYGON({ring})"))
    layer.dataProvider().addFeatures([f])
    return layer


def spread(n, seed=0, lo=100.0, hi=900.0):
    rng = np.random.default_rng(seed)
    return list(zip(rng.uniform(lo, hi, n), rng.uniform(lo, hi, n)))


def test_window_with_a_hole_and_duplicates_are_handled(tmp_path):
    coords = [(x, y) for x, y in spread(80) if not (400 < x < 600 and 400 < y < 600)]
    coords += coords[:1] * 2 + coords[1:2]  # three people more at two locations (five points share them)
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG,
        {
            "INPUT": memory_points(coords),
            "WINDOW": square_window(0, 0, 1000, 1000, hole=(400, 400, 600, 600)),
            "DRAWS": 100,
            "SEED": 3,
            "OUTPUT_MODEL": str(tmp_path / "m.npz"),
        },
        feedback=feedback,
    )
    from spatial_privacy.core.posterior import Posterior

    posterior = Posterior.load(result["OUTPUT_MODEL"])
    # the quadrature excludes the hole: the weights sum to 1000^2 - 200^2
    assert posterior.int_weights.sum() == pytest.approx(1000**2 - 200**2, rel=1e-9)
    assert "3 points lie at a location another point already takes" in feedback.textLog()


def polygon_layer(*wkts, crs="EPSG:28992"):
    layer = QgsVectorLayer(f"Polygon?crs={crs}", "win", "memory")
    features = []
    for wkt in wkts:
        f = QgsFeature()
        f.setGeometry(QgsGeometry.fromWkt(wkt))
        features.append(f)
    layer.dataProvider().addFeatures(features)
    return layer


def test_overlapping_window_polygons_are_dissolved(tmp_path):
    """Two squares overlapping in a 200 x 1000 strip: the window is their union (area 1000 x 1800), so the
    quadrature weights sum to that area, not to the 2 x 1000^2 of the two features, and points in the overlap
    are inside (the even-odd rule on two raw rings would put them outside)."""
    window = polygon_layer(
        "POLYGON((0 0, 1000 0, 1000 1000, 0 1000, 0 0))", "POLYGON((800 0, 1800 0, 1800 1000, 800 1000, 800 0))"
    )
    coords = (
        spread(40, lo=50.0, hi=950.0)
        + [(900.0, 500.0), (850.0, 300.0)]
        + [(x + 850.0, y) for x, y in spread(20, seed=1, lo=100.0, hi=900.0)]
    )
    result = processing.run(
        ALG,
        {
            "INPUT": memory_points(coords),
            "WINDOW": window,
            "DRAWS": 50,
            "SEED": 3,
            "OUTPUT_MODEL": str(tmp_path / "m.npz"),
        },
    )
    from spatial_privacy.core.posterior import Posterior

    posterior = Posterior.load(result["OUTPUT_MODEL"])
    assert posterior.int_weights.sum() == pytest.approx(1800 * 1000, rel=1e-9)


def test_an_invalid_window_polygon_is_refused_even_when_invalid_geometries_are_skipped(tmp_path):
    """With "skip invalid geometries" QGIS would drop the self-intersecting polygon and fit in the other square
    alone, silently: the window must be refused, naming the parameter."""
    from qgis.core import QgsFeatureRequest, QgsProcessingContext

    window = polygon_layer(
        "POLYGON((0 0, 1000 0, 1000 1000, 0 1000, 0 0))",
        "POLYGON((1000 0, 2000 1000, 2000 0, 1000 1000, 1000 0))",  # a bow tie
    )
    for check in (QgsFeatureRequest.GeometrySkipInvalid, QgsFeatureRequest.GeometryNoCheck):
        context = QgsProcessingContext()
        context.setInvalidGeometryCheck(check)
        with pytest.raises(QgsProcessingException, match=r"WINDOW: the polygon of feature 2 is not valid"):
            processing.run(
                ALG,
                {"INPUT": memory_points(spread(30)), "WINDOW": window, "OUTPUT_MODEL": str(tmp_path / "m.npz")},
                context=context,
            )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "make, pattern",
    [
        pytest.param(
            lambda: {"INPUT": memory_points(spread(5))},
            r"INPUT: an LGCP fit needs at least 10 points",
            id="too few points",
        ),
        pytest.param(
            lambda: {"INPUT": memory_points(spread(30)), "WINDOW": square_window(0, 0, 500, 500)},
            r"WINDOW: \d+ points lie outside the study window",
            id="points outside the window",
        ),
        pytest.param(
            lambda: {"INPUT": memory_points(spread(30)), "DISTANCE_TO": no_crs(memory_points([(1.0, 2.0)]))},
            r"DISTANCE_TO: the layer has no CRS but the points are in EPSG:28992",
            id="covariate layer without CRS",
        ),
        pytest.param(
            lambda: {"INPUT": no_crs(memory_points(spread(30))), "DISTANCE_TO": memory_points([(1.0, 2.0)])},
            r"DISTANCE_TO: the layer is in EPSG:28992 but the points have no CRS",
            id="covariate layer with a CRS beside points without one",
        ),
        pytest.param(
            lambda: {"INPUT": memory_points(spread(30)), "DISTANCE_TO": memory_points(spread(30))},
            r"DISTANCE_TO: covariate 'distance' takes its smallest or largest value over the window at every point",
            id="distance to the points themselves (0 at every point: the coefficient runs off to -inf)",
        ),
        pytest.param(
            lambda: {"INPUT": memory_points(spread(30)), "MAX_EDGE": 2.0},  # about 220,000 nodes (100,000 allowed)
            r"MAX_EDGE: max_edge 2 gives a mesh of (about )?[\d,]+ nodes",
            id="mesh too large to fit (memory)",
        ),
        pytest.param(
            lambda: {"INPUT": memory_points(spread(30)), "PIXEL_SIZE": 0.01},
            r"PIXEL_SIZE: the intensity raster would have \d+ pixels",
            id="intensity raster too large (refused before the fit)",
        ),
        pytest.param(
            lambda: {"INPUT": memory_points([(5 + i * 0.01, 52 + i * 0.01) for i in range(20)], "EPSG:4326")},
            r"geographic CRS EPSG:4326",
            id="geographic CRS",
        ),
    ],
)
def test_bad_input_is_refused_and_nothing_is_written(tmp_path, make, pattern):
    params = {
        **make(),
        "OUTPUT_MODEL": str(tmp_path / "m.npz"),
        "OUTPUT_INTENSITY": str(tmp_path / "i.tif"),
        "OUTPUT_REPORT": str(tmp_path / "r.html"),
    }
    with pytest.raises(QgsProcessingException, match=pattern):
        processing.run(ALG, params)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["model", "model.txt"])
def test_a_model_file_the_other_tools_cannot_read_is_refused_before_the_fit(tmp_path, name):
    params = {"INPUT": memory_points(spread(30)), "OUTPUT_MODEL": str(tmp_path / name)}
    with pytest.raises(QgsProcessingException, match=r"OUTPUT_MODEL: the model file must end in \.npz"):
        processing.run(ALG, params)
    assert list(tmp_path.iterdir()) == []


def test_covariate_raster_that_does_not_cover_the_window_is_refused(tmp_path):
    from qgis.core import QgsCoordinateReferenceSystem

    from spatial_privacy.processing.raster import write_float_raster

    path = str(tmp_path / "cov.tif")
    write_float_raster(path, np.ones((10, 10)), 0.0, 500.0, 50.0, QgsCoordinateReferenceSystem("EPSG:28992"))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(QgsProcessingException, match=r"COVARIATES: \d+ locations lie outside the raster"):
        processing.run(
            ALG, {"INPUT": memory_points(spread(40)), "COVARIATES": [path], "OUTPUT_MODEL": str(out / "m.npz")}
        )
    assert list(out.iterdir()) == []


RASTER_ON_A_FULL_DISK = """
import resource, signal, sys
import numpy as np
from qgis.core import QgsCoordinateReferenceSystem, QgsProcessingException
from spatial_privacy.processing.raster import write_float_raster

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write beyond the limit then fails with EFBIG, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))
noise = np.random.default_rng(0).standard_normal((120, 120))  # 115 KB of doubles that do not compress
try:
    write_float_raster(sys.argv[1], noise, 0.0, 120.0, 1.0, QgsCoordinateReferenceSystem("EPSG:28992"))
except QgsProcessingException as error:
    print("REFUSED", error)
else:
    print("WRITTEN")
"""


def test_a_raster_cut_off_by_a_full_disk_is_an_error_and_leaves_no_file(tmp_path):
    # GDAL reports a write that fails as the file closes only through its error state: the run must fail naming
    # the output, not report a truncated GeoTIFF as written. A file-size limit stands in for a full disk.
    import subprocess
    import sys

    target = tmp_path / "intensity.tif"
    done = subprocess.run(
        [sys.executable, "-c", RASTER_ON_A_FULL_DISK, str(target)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "REFUSED OUTPUT_RASTER: writing" in done.stdout and "failed" in done.stdout, done.stdout
    assert list(tmp_path.iterdir()) == []  # neither the truncated file nor its hidden staging folder


def test_a_point_far_from_all_others_is_flagged(tmp_path):
    """One geocoding error 100 km away stretches the window drawn around the points, and the fit then fails
    blaming the prior: the log first says that a point lies far from every other one, naming WINDOW."""
    feedback = QgsProcessingFeedback()
    params = {"INPUT": memory_points(spread(49) + [(100_000.0, 100_000.0)]), "DRAWS": 20, "SEED": 1}
    try:
        processing.run(ALG, {**params, "OUTPUT_MODEL": str(tmp_path / "m.npz")}, feedback=feedback)
    except QgsProcessingException:
        pass  # the fit itself may fail; the warning comes before it
    assert "1 points lie far from the rest (more than 10 times the median distance" in feedback.textLog()
    assert "give a WINDOW" in feedback.textLog()
    # with a WINDOW given, the window is not stretched: no warning
    feedback = QgsProcessingFeedback()
    try:
        processing.run(
            ALG,
            {**params, "WINDOW": square_window(0, 0, 200_000, 200_000), "OUTPUT_MODEL": str(tmp_path / "w.npz")},
            feedback=feedback,
        )
    except QgsProcessingException:
        pass
    assert "Mesh:" in feedback.textLog() and "far from the rest" not in feedback.textLog()


def test_a_constant_covariate_raster_is_refused_naming_it(tmp_path):
    """A raster of one value duplicates the intercept (the fit ran, with an intercept sd of 9); its bilinear
    samples differ from the value by rounding, so an exact comparison missed it."""
    from qgis.core import QgsCoordinateReferenceSystem

    from spatial_privacy.processing.raster import write_float_raster

    path = str(tmp_path / "cov.tif")
    write_float_raster(path, np.full((25, 25), 3.0), 0.0, 1000.0, 40.0, QgsCoordinateReferenceSystem("EPSG:28992"))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(QgsProcessingException, match=r"COVARIATES: covariate 'cov' is constant over the window \(3\)"):
        processing.run(
            ALG,
            {
                "INPUT": memory_points(spread(40)),
                "WINDOW": square_window(0, 0, 1000, 1000),
                "COVARIATES": [path],
                "MAX_EDGE": 100.0,
                "OUTPUT_MODEL": str(out / "m.npz"),
            },
        )
    assert list(out.iterdir()) == []


NOT_CONVERGED = ("The MCMC chains have not converged", "The hyperparameter chain is stuck")


def test_mcmc_method_reports_convergence(tmp_path):
    from spatial_privacy.core.posterior import Posterior

    coords = spread(120, seed=5)
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG,
        {
            "INPUT": memory_points(coords),
            "WINDOW": square_window(0, 0, 1000, 1000),
            "METHOD": 1,
            "DRAWS": 400,
            "SEED": 11,
            "OUTPUT_MODEL": str(tmp_path / "m.npz"),
            "OUTPUT_REPORT": str(tmp_path / "r.html"),
        },
        feedback=feedback,
    )
    posterior = Posterior.load(result["OUTPUT_MODEL"])
    assert posterior.method == "mcmc" and posterior.n_draws == 400
    assert max(posterior.diagnostics["rhat"].values()) < 1.1
    report = Path(result["OUTPUT_REPORT"]).read_text(encoding="utf-8")
    assert "MCMC convergence" in report and "R-hat" in report and report.count("data:image/png;base64,") >= 1
    assert "Accepted hyperparameter moves" in report
    # the default prior mixes well: no convergence warning in the log or the report
    assert not any(text in feedback.textLog() or text in report for text in NOT_CONVERGED)
    assert "Warning: the MCMC has not converged" not in report


def coarse_fit(tmp_path, **extra) -> dict:
    """fitlgcp parameters for 120 points in a 1 km square on a coarse mesh (100 m edges): quick fits."""
    return {
        "INPUT": memory_points(spread(120, seed=5)),
        "WINDOW": square_window(0, 0, 1000, 1000),
        "MAX_EDGE": 100.0,
        "OUTPUT_MODEL": str(tmp_path / "m.npz"),
        **extra,
    }


def test_a_mesh_with_fewer_than_five_edges_across_the_window_is_flagged(tmp_path):
    """MAX_EDGE typed in the wrong units (say 300 for 0.3 km in a 1 km window) gives a mesh of a few nodes, on
    which a field cannot show any pattern: the fit runs, and the log says so, naming MAX_EDGE."""
    logs = {}
    for edge in (100.0, 300.0):
        feedback = QgsProcessingFeedback()
        processing.run(ALG, coarse_fit(tmp_path, MAX_EDGE=edge, DRAWS=20, SEED=1), feedback=feedback)
        logs[edge] = feedback.textLog()
    assert "MAX_EDGE: max_edge" not in logs[100.0]
    assert "MAX_EDGE: max_edge 300 leaves fewer than 5 edges across the window (1000 across" in logs[300.0]


def test_the_central_composite_design_is_chosen_recorded_and_needs_fewer_laplace_fits(tmp_path):
    """HYPER_INTEGRATION = 1 runs the fast method with INLA's central composite design (core.hyper_ccd): the model
    file says which integration was used, and the design's 9 points need fewer Laplace fits than the grid's ~100
    (each drawn grid cell is also refitted for the draws)."""
    from spatial_privacy.core.posterior import Posterior

    fits = {}
    for choice, name in ((0, "grid"), (1, "ccd")):
        path = tmp_path / f"{name}.npz"
        processing.run(ALG, coarse_fit(tmp_path, DRAWS=50, SEED=1, HYPER_INTEGRATION=choice, OUTPUT_MODEL=str(path)))
        fits[name] = Posterior.load(str(path)).diagnostics
        assert fits[name]["hyper_integration"] == name
    assert fits["ccd"]["ccd_points"] == 9 and "grid_points" not in fits["ccd"]
    assert fits["ccd"]["laplace_fits"] < fits["grid"]["laplace_fits"] / 2, (fits["ccd"], fits["grid"])


@pytest.mark.parametrize(
    "method, message",
    [
        # MCMC: the field's precision is numerically singular; this was a raw LinAlgError traceback
        (1, r"^PRIOR_RANGE: .*numerically singular.*smaller prior range"),
        # fast: every Laplace fit failed and the run blamed node spikes, naming INTEGRATION
        (0, r"^PRIOR_RANGE: the Laplace fit fails numerically.*smaller prior range"),
    ],
    ids=["mcmc", "fast"],
)
def test_an_absurd_prior_range_is_refused_naming_it(tmp_path, method, message):
    # a prior median range of 1e12 m in a 1 km window: a message naming PRIOR_RANGE, and nothing is written
    with pytest.raises(QgsProcessingException, match=message):
        processing.run(ALG, coarse_fit(tmp_path, METHOD=method, DRAWS=10, PRIOR_RANGE=1e12))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("method", [0, 1], ids=["fast", "mcmc"])
def test_a_prior_range_far_below_the_window_is_refused_asking_for_a_larger_one(tmp_path, method):
    """A prior median range of 1e-200 m: the fast fit asked for a smaller prior range, the MCMC gave a raw
    OverflowError (kappa^2 = 8 / range^2)."""
    with pytest.raises(QgsProcessingException, match=r"^PRIOR_RANGE: .*smaller than the window.*larger prior range"):
        processing.run(ALG, coarse_fit(tmp_path, METHOD=method, DRAWS=10, PRIOR_RANGE=1e-200))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("method", [0, 1], ids=["fast", "mcmc"])
def test_an_absurd_prior_sigma_is_refused_naming_it(tmp_path, method):
    """A prior median of 1e300 for the field's standard deviation: the fast fit blamed PRIOR_RANGE (its message said
    the range was too large), the MCMC gave a raw OverflowError. The precision can be computed at a standard
    deviation of 1, so PRIOR_SIGMA is named, and nothing is written."""
    with pytest.raises(QgsProcessingException, match=r"^PRIOR_SIGMA: the field's precision cannot be computed at a "):
        processing.run(ALG, coarse_fit(tmp_path, METHOD=method, DRAWS=10, PRIOR_SIGMA=1e300))
    assert list(tmp_path.iterdir()) == []


def test_mcmc_chains_too_short_to_judge_are_flagged_in_the_log_and_the_report(tmp_path):
    # 10 draws in 2 chains cannot give the 20 effective draws BDA3's rule asks for (10 per chain): the user is
    # told, with what to change (a coarse mesh keeps the 500 warm-up iterations quick)
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG,
        coarse_fit(tmp_path, METHOD=1, DRAWS=10, SEED=11, OUTPUT_REPORT=str(tmp_path / "r.html")),
        feedback=feedback,
    )
    log = feedback.textLog()
    assert "The MCMC chains have not converged (" in log and "at least 20 effective draws" in log, log
    assert "Ask for more DRAWS, or give a PRIOR_RANGE" in log
    report = Path(result["OUTPUT_REPORT"]).read_text(encoding="utf-8")
    assert "Warning: the MCMC has not converged" in report and "The MCMC chains have not converged (" in report


def test_a_fast_fit_whose_hyperparameter_grid_is_cut_short_warns(tmp_path, monkeypatch):
    """The fast method maps the hyperparameters' posterior on a grid of at most 400 points. A posterior flatter
    than that (measured: PRIOR_RANGE 1e7 m for 120 points in a 1 km square on the default mesh reaches the 400
    points in about 50 s) is cut short and the draws miss part of it: the user is told. Here the same cut is
    reached quickly by a limit of 30 points on a coarse mesh, whose full grid takes about 120 points."""
    import functools

    from spatial_privacy.core import laplace_fit as lgcp
    from spatial_privacy.core import lgcp_setup

    params = coarse_fit(tmp_path, PRIOR_RANGE=1e7, SEED=1, OUTPUT_REPORT=str(tmp_path / "r.html"))
    feedback = QgsProcessingFeedback()
    processing.run(ALG, params, feedback=feedback)
    assert "too flat for the fast method's grid" not in feedback.textLog()
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "cut short" not in html
    assert "<h1>Fit a log-Gaussian Cox process (CONFIDENTIAL: not for publication)</h1>" in html, html[:300]
    # the fast method's fit is lgcp_setup.fit_laplace_any_rule's call of core.lgcp.fit_laplace
    monkeypatch.setattr(lgcp_setup, "fit_laplace", functools.partial(lgcp.fit_laplace, max_points=30))
    feedback = QgsProcessingFeedback()
    processing.run(ALG, params, feedback=feedback)
    assert "too flat for the fast method's grid: it reached its 30 points" in feedback.textLog()
    assert "Give a PRIOR_RANGE nearer the scale of the pattern" in feedback.textLog()
    assert "the hyperparameter grid was cut short at its limit" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_twelve_points_fit_and_a_degenerate_fit_is_never_written(snow, tmp_path, keep_in_project, monkeypatch):
    # 12 deaths used to give a "successful" fit with field variance ~5e11 and every CPO 0 (LPML -inf): grid
    # cells where the Laplace fit was fooled by node spikes took all the mass (core.lgcp.NodeCheck: now left out)
    deaths, _ = snow
    twelve = keep_in_project(QgsVectorLayer(deaths.source(), "twelve", "ogr"))
    twelve.setSubsetString('"fid" <= 12')
    assert twelve.featureCount() == 12
    params = {"INPUT": twelve, "OUTPUT_MODEL": str(tmp_path / "m.npz"), "SEED": 1}
    result = processing.run(ALG, params)
    assert math.isfinite(result["LPML"])
    # should a fit still come out degenerate (every leave-one-out density 0), no model is written: the guard is
    # exercised by making the CPO computation report that outcome
    from spatial_privacy.core.metrics import cpo

    def degenerate(posterior, design):
        n = design.x_points.shape[0]
        return np.zeros(n), np.full(n, -np.inf), np.zeros(n)

    monkeypatch.setattr(cpo, "posterior_cpo", degenerate)
    out = tmp_path / "out"
    params.update(OUTPUT_MODEL=str(out / "m.npz"), OUTPUT_REPORT=str(out / "r.html"))
    with pytest.raises(QgsProcessingException, match=r"INPUT: the fit to these 12 points is degenerate"):
        processing.run(ALG, params)
    assert not out.exists()


def test_a_fit_that_fools_the_edge_midpoints_is_refitted_with_the_degree_3_rule(
    snow, tmp_path, keep_in_project, integrates_to_about_n
):
    # a prior median of 1e6 for the field's sd pulls 12 points towards fields with a spike on single mesh nodes
    # that the edge midpoints do not see (core.lgcp.NodeCheck): such a likelihood cannot be trusted, so the fast
    # method refits with the degree-3 rule, which sees the nodes, and says so; that fit has E[int lambda | S]
    # about N = 12
    from spatial_privacy.core.lgcp import BetaPrior
    from spatial_privacy.core.posterior import Posterior

    deaths, _ = snow
    twelve = keep_in_project(QgsVectorLayer(deaths.source(), "twelve", "ogr"))
    twelve.setSubsetString('"fid" <= 12')
    out = tmp_path / "out"
    params = {"INPUT": twelve, "PRIOR_SIGMA": 1e6, "OUTPUT_MODEL": str(out / "m.npz"), "SEED": 1}
    feedback = QgsProcessingFeedback()
    result = processing.run(ALG, {**params, "OUTPUT_REPORT": str(out / "r.html")}, feedback=feedback)
    assert "INTEGRATION: the edge-midpoint rule was fooled" in feedback.textLog()
    assert "degree 3 (nodes, midpoints and centroids)" in (out / "r.html").read_text(encoding="utf-8")
    posterior = Posterior.load(result["OUTPUT_MODEL"])
    assert posterior.diagnostics["integration"] == "cubic"
    # E[int lambda | S] by the intercept's score identity (tests/conftest.py): E[Lambda] = N - E[beta_0 - m] / s^2
    # plus the Laplace fit's mode-to-mean gap (~1/2) and the draws' Monte Carlo error, about 1.5 here. The old
    # 3 sqrt(N) = 10.4 took the posterior sd of Lambda for the error of its mean and let it be 87 % off.
    # The intercept's prior is core.lgcp.BetaPrior.default: N(log(N / |W|), 10^2), no offset.
    prior = BetaPrior(np.array([math.log(12 / posterior.int_weights.sum())]), np.array([10.0]))
    integrates_to_about_n(posterior, prior, 12)


def test_clustered_points_with_repeated_locations_fit_with_the_defaults(
    enterprises, tmp_path, keep_in_project, integrates_to_about_n
):
    """300 of the enterprises (30 repeated locations, tight clusters) fool the edge midpoints at every setting;
    with the defaults the run must still give a model (refitted with the degree-3 rule, with a warning), since
    the synthesis tools fit with the defaults when no MODEL is given. The fitted intensity then integrates to
    about the number of points (the intercept's score identity, tests/conftest.py)."""
    from spatial_privacy.core.lgcp import BetaPrior
    from spatial_privacy.core.posterior import Posterior

    layer = keep_in_project(QgsVectorLayer(enterprises, "first 300", "ogr"))
    layer.setSubsetString('"fid" <= 300')
    assert layer.featureCount() == 300
    feedback = QgsProcessingFeedback()
    result = processing.run(
        ALG, {"INPUT": layer, "DRAWS": 100, "SEED": 1, "OUTPUT_MODEL": str(tmp_path / "m.npz")}, feedback=feedback
    )
    assert "refitted with the degree-3 rule" in feedback.textLog()
    posterior = Posterior.load(result["OUTPUT_MODEL"])
    assert posterior.diagnostics["integration"] == "cubic"
    prior = BetaPrior(np.array([math.log(300 / posterior.int_weights.sum())]), np.array([10.0]))
    integrates_to_about_n(posterior, prior, 300)


def test_raster_whose_crs_is_set_only_in_qgis_is_warped_from_it(tmp_path):
    # a GeoTIFF without SRS whose layer CRS the user set in QGIS: the warp must start from the layer's CRS
    # (GDAL alone sees no SRS and silently keeps the coordinates)
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject

    from spatial_privacy.processing.inputs import read_raster
    from spatial_privacy.processing.raster import write_float_raster

    path = str(tmp_path / "no_srs.tif")
    write_float_raster(path, np.ones((10, 10)), 530000.0, 181000.0, 100.0, QgsCoordinateReferenceSystem())
    layer = QgsRasterLayer(path, "cov")
    layer.setCrs(QgsCoordinateReferenceSystem("EPSG:27700"))
    web = QgsCoordinateReferenceSystem("EPSG:3857")
    grid = read_raster(None, {}, layer, "COVARIATES", web)
    corner = QgsCoordinateTransform(layer.crs(), web, QgsProject.instance()).transform(QgsPointXY(530000.0, 181000.0))
    assert grid.x_min == pytest.approx(corner.x(), abs=200.0) and grid.y_max == pytest.approx(corner.y(), abs=200.0)


def test_loaded_intensity_and_cpo_are_styled(snow, tmp_path, run_loading):
    """The intensity raster has two bands (mean, sd): QGIS would show it as an RGB composite. Loaded into a
    project, band 1 (the posterior mean) is shown in pseudocolour and the CPO points graduated on log_cpo."""
    from qgis.core import QgsGraduatedSymbolRenderer, QgsSingleBandPseudoColorRenderer

    deaths, _ = snow
    params = {
        "INPUT": deaths,
        "MAX_EDGE": 1.0,
        "DRAWS": 20,
        "SEED": 3,
        "OUTPUT_MODEL": str(tmp_path / "m.npz"),
        "OUTPUT_INTENSITY": str(tmp_path / "i.tif"),
        "OUTPUT_CPO": str(tmp_path / "cpo.gpkg"),
    }
    results, context, feedback = run_loading(ALG, params, ("OUTPUT_INTENSITY", "OUTPUT_CPO"))
    raster = QgsRasterLayer(params["OUTPUT_INTENSITY"], "i")
    points = QgsVectorLayer(params["OUTPUT_CPO"], "c", "ogr")
    assert raster.isValid() and raster.bandCount() == 2 and points.isValid()
    names = [
        run_loading.loaded(context, params[name], layer, feedback)
        for layer, name in ((raster, "OUTPUT_INTENSITY"), (points, "OUTPUT_CPO"))
    ]
    # both are named as confidential, whatever the dialog or a model had called them (a model's output name)
    assert names == ["Posterior intensity (CONFIDENTIAL)", "CPO of the LGCP fit (CONFIDENTIAL)"]
    assert isinstance(raster.renderer(), QgsSingleBandPseudoColorRenderer) and raster.renderer().band() == 1
    assert isinstance(points.renderer(), QgsGraduatedSymbolRenderer)
    assert points.renderer().classAttribute() == "log_cpo" and len(points.renderer().ranges()) == 5


def test_a_distance_layer_of_mixed_geometry_is_refused_naming_the_feature(tmp_path):
    """QGIS reports a GeoJSON layer with its first feature's type: a polygon layer that also holds a point (or
    a point layer that holds a line) would otherwise fail with a Python error, or measure to a line's vertices."""
    square = '{"type": "Polygon", "coordinates": [[[0, 0], [100, 0], [100, 100], [0, 100], [0, 0]]]}'
    point = '{"type": "Point", "coordinates": [50, 50]}'
    line = '{"type": "LineString", "coordinates": [[0, 0], [100, 100]]}'
    crs = '"crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::28992"}}'
    for first, other, kind in ((square, point, "Point in a layer of lines or polygons"), (point, line, "LineString")):
        path = tmp_path / "layers" / f"{kind.split()[0]}.geojson"
        path.parent.mkdir(exist_ok=True)
        features = ", ".join(f'{{"type": "Feature", "properties": {{}}, "geometry": {g}}}' for g in (first, other))
        path.write_text(f'{{"type": "FeatureCollection", {crs}, "features": [{features}]}}', encoding="utf-8")
        params = {"INPUT": memory_points(spread(30)), "DISTANCE_TO": str(path), "OUTPUT_MODEL": str(tmp_path / "m.npz")}
        with pytest.raises(QgsProcessingException, match=rf"^DISTANCE_TO: feature 1 is a {kind}"):
            processing.run(ALG, params)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layers"]


def test_distance_features_without_geometry_are_reported(tmp_path):
    """INPUT refuses features without geometry; DISTANCE_TO leaves them out, and the log says how many (the run
    is cancelled at the warning, before the fit)."""

    class CancelAtTheWarning(QgsProcessingFeedback):
        def pushWarning(self, warning):  # noqa: N802 (QGIS API name)
            super().pushWarning(warning)
            if warning.startswith("DISTANCE_TO"):
                self.cancel()

    targets = memory_points([(300.0, 300.0), (700.0, 650.0)])
    targets.dataProvider().addFeatures([QgsFeature(), QgsFeature()])  # two features without geometry
    feedback = CancelAtTheWarning()
    params = {"INPUT": memory_points(spread(30)), "DISTANCE_TO": targets, "OUTPUT_MODEL": str(tmp_path / "m.npz")}
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        processing.run(ALG, params, feedback=feedback)
    assert "DISTANCE_TO: 2 features have no geometry; the distances are to the other features." in feedback.textLog()
    assert not list(tmp_path.iterdir())


def test_a_mesh_so_fine_that_the_fit_takes_many_minutes_is_flagged(tmp_path):
    """A mesh of more than 50,000 nodes (SLOW_FIT_NODES; a MAX_EDGE of 4.5 m in a 1 km window gives about 63,000) is
    allowed, but its fit takes many minutes: the log says so, naming MAX_EDGE, before the fit starts (this run is
    cancelled at the warning)."""

    class CancelAtTheWarning(QgsProcessingFeedback):
        def pushWarning(self, warning):  # noqa: N802 (QGIS API name)
            super().pushWarning(warning)
            if warning.startswith("MAX_EDGE"):
                self.cancel()

    feedback = CancelAtTheWarning()
    with pytest.raises(QgsProcessingException, match="Cancelled"):
        processing.run(ALG, coarse_fit(tmp_path, MAX_EDGE=4.5, DRAWS=20, SEED=1), feedback=feedback)
    assert re.search(
        r"MAX_EDGE: max_edge 4.5 gives a mesh of [\d,]+ nodes: the fit will take many minutes", feedback.textLog()
    )
    assert not list(tmp_path.iterdir())
