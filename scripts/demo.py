#!/usr/bin/env python3
"""Demo: Pufferfish-private grid maps of the bundled enterprise data, run headless in QGIS.

Runs spatialprivacy:pufferfishgrid three ways (absolute, relative and bounded mechanisms, the
settings of ter Steege 2021 Figures 6, 12 and 6-bounded) on tests/data/sdcspatial_enterprises.gpkg
and writes, into the output folder:

* ``<mechanism>.gpkg``  the publishable grid (cell_id, n, value, noise_scale, delta_max);
* ``<mechanism>.tif``   the published value as a raster;
* ``<mechanism>.html``  the report stating the guarantee;
* ``pufferfish_maps.png`` the three published maps side by side, styled and rendered by QGIS;
* ``dp_counts.gpkg``, ``dp_counts_map.png`` and ``dp_counts_CONFIDENTIAL_report.html``: spatialprivacy:dpcounts
  (epsilon = 1, 10 synthetic sets) on unemployment per 1 km square of tests/data/dwelling_areas.gpkg;
* ``dp_points_<method>.gpkg``, ``dp_points_<method>.html`` and ``dp_points_map.png``: spatialprivacy:dppoints
  (Laplace and LGCP synthesizers, epsilon = 1, alpha = 0.1 map units) on John Snow's cholera deaths;
* ``dp_network.gpkg``, ``dp_network.html`` and ``dp_network_map.png``: spatialprivacy:dppoints (Laplace, epsilon =
  2, pieces of 50 m) with NETWORK = John Snow's streets: synthetic deaths on the street network;
* ``walder_sweep_CONFIDENTIAL_table.gpkg``, ``walder_sweep_CONFIDENTIAL_report.html`` and ``walder_recommended.gpkg``:
  spatialprivacy:riskutilitysweep (Walder et al.: radial 50/100 m, ANS noise 0.5/1, 3 PRS sets, risk radius 10 m)
  on the same deaths with distance to the Broad Street pump as covariate.

    .venv/bin/python scripts/demo.py [output-folder]     (default: demo_output/)
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
_SCRATCH = tempfile.TemporaryDirectory(prefix="spatial_privacy_demo_")


def data(name: str) -> Path:
    """A private copy of a bundled data set (tests/data): OGR opens GeoPackages for update (WAL journal), so the
    tracked files are never opened in place."""
    copy = Path(_SCRATCH.name) / name
    if not copy.exists():
        shutil.copy2(REPO / "tests" / "data" / name, copy)
    return copy


RUNS = [
    ("absolute", "Absolute error, c = 50 (Algorithm 1)", {"ERROR_MODEL": 0, "INTERVAL": 50.0}),
    ("relative", "Relative error, k = 0.99: geometric mean (Algorithm 2)", {"ERROR_MODEL": 1, "RELATIVE_K": 0.99}),
    (
        "bounded",
        "Bounded, absolute c = 50 (mechanism B)",
        {
            "ERROR_MODEL": 0,
            "INTERVAL": 50.0,
            "BOUNDED": True,
            "LOWER_BOUND": 0.0,
            "UPPER_BOUND": 120000.0,
            "MARGIN": 1000.0,
        },
    ),
]


def render(layers_and_titles, path: Path, width: int = 520, height: int = 380) -> None:
    """Render each styled layer into one PNG, side by side, with a title above each. A panel may also be a list of
    layers, drawn top first, framed on the last."""
    from qgis.core import QgsMapRendererCustomPainterJob, QgsMapSettings
    from qgis.PyQt.QtCore import QRectF, QSize, Qt
    from qgis.PyQt.QtGui import QColor, QFont, QImage, QPainter

    title_height = 34
    image = QImage(QSize(width * len(layers_and_titles), height + title_height), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(QFont("Sans", 11))
    for i, (layer, title) in enumerate(layers_and_titles):
        layers = layer if isinstance(layer, list) else [layer]
        frame = layers[-1]
        settings = QgsMapSettings()
        settings.setLayers(layers)
        settings.setDestinationCrs(frame.crs())
        settings.setOutputSize(QSize(width, height))
        settings.setExtent(frame.extent().buffered(frame.extent().width() * 0.03))
        settings.setBackgroundColor(QColor("white"))
        painter.save()
        painter.translate(i * width, title_height)
        job = QgsMapRendererCustomPainterJob(settings, painter)
        job.start()
        job.waitForFinished()
        painter.restore()
        painter.setPen(QColor("black"))
        painter.drawText(QRectF(i * width, 0, width, title_height), Qt.AlignmentFlag.AlignCenter, title)
    painter.end()
    if not image.save(str(path)):
        raise RuntimeError(f"could not write {path}")


def run(alg_id: str, params: dict, load_as: str | None = None):
    """Run one of the plugin's algorithms headless in the current project. Returns ``(results, context,
    feedback)``;
    ``results`` is None (and the log is printed to stderr) if the run failed. ``load_as`` names the OUTPUT
    layer to load on completion (so the algorithm's styling applies)."""
    from qgis.core import QgsApplication, QgsProcessingContext, QgsProcessingFeedback, QgsProject

    alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    context.setProject(QgsProject.instance())
    if load_as:
        context.addLayerToLoadOnCompletion(
            params["OUTPUT"], QgsProcessingContext.LayerDetails(load_as, QgsProject.instance(), "OUTPUT")
        )
    results, ok = alg.run(params, context, feedback)
    if not ok:
        print(feedback.textLog(), file=sys.stderr)
        return None, context, feedback
    return results, context, feedback


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "demo_output"
    out.mkdir(parents=True, exist_ok=True)

    from qgis.core import (
        QgsApplication,
        QgsProject,
        QgsVectorLayer,
    )

    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing

    Processing.initialize()
    from spatial_privacy.processing.provider import SpatialPrivacyProvider

    provider = SpatialPrivacyProvider()
    QgsApplication.processingRegistry().addProvider(provider)

    rendered = []
    enterprises = data("sdcspatial_enterprises.gpkg")
    print(f"Input: {enterprises.name} (8,348 enterprises, field 'production'), cell size 500 m, epsilon = 0.1")
    print(f"{'mechanism':<10} {'cells':>6} {'delta bound':>12}  outputs")
    for name, title, extra in RUNS:
        params = {
            "INPUT": f"{enterprises}|layername=enterprises",
            "FIELD": "production",
            "CELL_SIZE": 500.0,
            "EPSILON": 0.1,
            "OUTPUT": str(out / f"{name}.gpkg"),
            "OUTPUT_RASTER": str(out / f"{name}.tif"),
            "REPORT": str(out / f"{name}.html"),
            **extra,
        }
        for suffix in (".gpkg", ".tif", ".html"):
            (out / f"{name}{suffix}").unlink(missing_ok=True)
        results, context, feedback = run("spatialprivacy:pufferfishgrid", params, load_as=name)
        if results is None:
            return 1
        layer = QgsVectorLayer(results["OUTPUT"], name, "ogr")
        QgsProject.instance().addMapLayer(layer)
        details = context.layerToLoadOnCompletionDetails(results["OUTPUT"])
        details.postProcessor().postProcessLayer(layer, context, feedback)  # the plugin's default style
        rendered.append((layer, title))
        print(f"{name:<10} {results['CELLS']:>6} {results['DELTA']:>12.3f}  {name}.gpkg {name}.tif {name}.html")
    png = out / "pufferfish_maps.png"
    render(rendered, png)
    print(f"Map: {png}")
    if not synthetic_counts(out, render):
        return 1
    if not synthetic_points(out, render):
        return 1
    if not network_points(out, render):
        return 1
    if not lgcp_sweep(out):
        return 1
    if not marked_points(out):
        return 1
    print(f"All outputs are in {out}")
    QgsProject.instance().clear()
    QgsApplication.processingRegistry().removeProvider(provider)
    return 0


def synthetic_counts(out: Path, render) -> bool:
    """spatialprivacy:dpcounts on unemployment per 1 km square (tests/data/dwelling_areas.gpkg), epsilon = 1."""
    from qgis.core import QgsProject, QgsVectorLayer

    areas = data("dwelling_areas.gpkg")
    params = {
        "INPUT": f"{areas}|layername=areas",
        "COUNT_FIELD": "unemployed",
        "POPULATION_FIELD": "dwellings",
        "RATE_FIELD": "prior_rate",
        "KEEP_FIELDS": ["area_id", "dwellings"],  # public: the square's code and its dwellings
        "EPSILON": 1.0,
        "C": 4.0,
        "SETS": 10,
        "OUTPUT": str(out / "dp_counts.gpkg"),
        "OUTPUT_REPORT": str(out / "dp_counts_CONFIDENTIAL_report.html"),
    }
    for name in ("dp_counts.gpkg", "dp_counts_CONFIDENTIAL_report.html"):
        (out / name).unlink(missing_ok=True)
    results, context, feedback = run("spatialprivacy:dpcounts", params, load_as="dp counts")
    if results is None:
        return False
    layer = QgsVectorLayer(results["OUTPUT"], "dp counts", "ogr")
    QgsProject.instance().addMapLayer(layer)
    details = context.layerToLoadOnCompletionDetails(results["OUTPUT"])
    details.postProcessor().postProcessLayer(layer, context, feedback)
    render([(layer, "Synthetic unemployment rate, mean of 10 sets (ε = 1)")], out / "dp_counts_map.png")
    print(
        f"DP counts: {results['GROUPS']} squares, epsilon = 1, median prior shape a = {results['MEDIAN_A']:.3g}: "
        "dp_counts.gpkg, dp_counts_map.png, dp_counts_CONFIDENTIAL_report.html (for the steward only)"
    )
    return True


def synthetic_points(out: Path, render) -> bool:
    """spatialprivacy:dppoints on John Snow's cholera deaths (578 points), epsilon = 1, alpha = 0.1 map units
    (about 10 m): the Laplace and LGCP synthesizers of Kim & Lim. The window is public: the extent of the
    streets map, not the deaths' own bounding box (which would follow the extreme confidential points)."""
    from qgis.core import QgsFeature, QgsGeometry, QgsProject, QgsVectorLayer

    snow = data("snow_cholera.gpkg")
    streets = QgsVectorLayer(f"{snow}|layername=streets", "streets", "ogr")
    window = QgsVectorLayer("Polygon", "Snow map extent", "memory")
    window.setCrs(streets.crs())  # none, like the deaths (a memory layer made without a CRS is given EPSG:4326)
    frame = QgsFeature()
    frame.setGeometry(QgsGeometry.fromRect(streets.extent()))
    window.dataProvider().addFeatures([frame])
    layers = []
    for method, index in (("laplace", 2), ("lgcp", 1)):
        params = {
            "INPUT": f"{snow}|layername=deaths",
            "WINDOW": window,
            "METHOD": index,
            "EPSILON": 1.0,
            "ALPHA": 0.1,
            "SEED": 2026,
            "OUTPUT": str(out / f"dp_points_{method}.gpkg"),
            "OUTPUT_REPORT": str(out / f"dp_points_{method}.html"),
        }
        for suffix in (".gpkg", ".html"):
            (out / f"dp_points_{method}{suffix}").unlink(missing_ok=True)
        results, _, _ = run("spatialprivacy:dppoints", params)
        if results is None:
            return False
        layer = QgsVectorLayer(results["OUTPUT"], method, "ogr")
        QgsProject.instance().addMapLayer(layer)
        layers.append((layer, f"{method.upper() if method == 'lgcp' else 'Laplace'}: {layer.featureCount()} points"))
        print(
            f"DP points ({method}): {results['SYNTHETIC_COUNT']} synthetic points from 578 deaths, epsilon = 1, "
            f"alpha = 0.1: dp_points_{method}.gpkg, dp_points_{method}.html"
        )
    render(layers, out / "dp_points_map.png")
    return True


def network_points(out: Path, render) -> bool:
    """spatialprivacy:dppoints (Laplace) on John Snow's street network: the deaths are moved onto the streets, the
    network is cut into pieces of 0.5 map units (50 m, as Kim & Lim), and synthetic deaths are drawn on the streets
    (epsilon = 2, a fifth of it for a noisy total, so that the pattern has about as many points as deaths)."""
    from qgis.core import QgsLineSymbol, QgsMarkerSymbol, QgsProject, QgsVectorLayer

    snow = data("snow_cholera.gpkg")
    names = ("dp_network.gpkg", "dp_network.html", "dp_network_map.png")
    for name in names:
        (out / name).unlink(missing_ok=True)
    params = {
        "INPUT": f"{snow}|layername=deaths",
        "NETWORK": f"{snow}|layername=streets",
        "METHOD": 2,
        "RESOLUTION": 0.5,
        "EPSILON": 2.0,
        "TOTAL_SHARE": 0.2,
        "SEED": 2026,
        "OUTPUT": str(out / names[0]),
        "OUTPUT_REPORT": str(out / names[1]),
    }
    results, _, _ = run("spatialprivacy:dppoints", params)
    if results is None:
        return False
    streets = QgsVectorLayer(f"{snow}|layername=streets", "streets", "ogr")
    streets.renderer().setSymbol(QgsLineSymbol.createSimple({"color": "120,120,120", "width": "0.3"}))
    points = QgsVectorLayer(results["OUTPUT"], "synthetic deaths", "ogr")
    points.renderer().setSymbol(
        QgsMarkerSymbol.createSimple({"name": "circle", "color": "200,30,30", "size": "1.4", "outline_style": "no"})
    )
    for layer in (streets, points):
        QgsProject.instance().addMapLayer(layer, False)
    title = f"Laplace on the streets (50 m pieces, ε = 2): {results['SYNTHETIC_COUNT']} synthetic deaths"
    render([([points, streets], title)], out / names[2], width=680, height=640)
    print(
        f"DP points on the street network (Laplace): {results['SYNTHETIC_COUNT']} synthetic deaths on Snow's streets, "
        "epsilon = 2: " + ", ".join(names)
    )
    return True


def lgcp_sweep(out: Path) -> bool:
    """spatialprivacy:riskutilitysweep on John Snow's deaths (Walder et al. Section 8, a small version): the LGCP is
    fitted on the spot with distance to pump 7 as covariate; map units are about 100 m."""
    from qgis.core import QgsProject, QgsVectorLayer

    snow = data("snow_cholera.gpkg")
    pump = QgsVectorLayer(f"{snow}|layername=pumps", "pumps", "ogr")
    pump.setSubsetString('"pump" = 7')
    QgsProject.instance().addMapLayer(pump, False)
    names = ("walder_sweep_CONFIDENTIAL_table.gpkg", "walder_sweep_CONFIDENTIAL_report.html", "walder_recommended.gpkg")
    for name in names:
        (out / name).unlink(missing_ok=True)
    params = {
        "INPUT": f"{snow}|layername=deaths",
        "DISTANCE_TO": pump,
        "RADII": "0.5, 1.0",
        "NOISE_LEVELS": "0.5, 1",
        "PRS_SETS": 3,
        "RISK_RADIUS": 0.1,
        "MAX_RISK": 0.02,
        "SEED": 1854,
        "OUTPUT_TABLE": str(out / names[0]),
        "OUTPUT_REPORT": str(out / names[1]),
        "OUTPUT_RECOMMENDED": str(out / names[2]),
    }
    results, _, _ = run("spatialprivacy:riskutilitysweep", params)
    if results is None:
        return False
    print(
        f"LGCP synthesis sweep: {results['SETS']} sets; nothing released: max risk {results['BASELINE_MAX_RISK']:.3g}; "
        f"recommended pMSE {results['RECOMMENDED_PMSE']:.3g} at max risk {results['RECOMMENDED_MAX_RISK']:.3g}: "
        + ", ".join(names)
    )
    return True


def marked_points(out: Path) -> bool:
    """spatialprivacy:synthesizemarked then spatialprivacy:markedrisk on the enterprises (Quick, Holan, Wikle &
    Reiter): 20 fully synthetic sets of 8,348 records with `fined` and a log-normal `production`, then the Type S
    and Type A risks within 100 m and 500 of production, with the L-function and regression checks."""
    enterprises = f"{data('sdcspatial_enterprises.gpkg')}|layername=enterprises"
    names = ("marked_synthetic.gpkg", "marked_synthetic.html", "marked_risk_CONFIDENTIAL_report.html")
    for name in names:
        (out / name).unlink(missing_ok=True)
    fields = {"CATEGORY_FIELDS": ["fined"], "NUMERIC_FIELD": "production"}
    params = {
        "INPUT": enterprises,
        **fields,
        "NUMERIC_MODEL": 2,  # log-normal: production is positive and skewed
        "SETS": 20,
        "SEED": 2013,
        "OUTPUT": str(out / names[0]),
        "OUTPUT_REPORT": str(out / names[1]),
    }
    synthesis, _, _ = run("spatialprivacy:synthesizemarked", params)
    if synthesis is None:
        return False
    params = {
        "INPUT": enterprises,
        "SYNTHETIC": synthesis["OUTPUT"],
        **fields,
        "SPATIAL_TOLERANCE": 100.0,
        "ATTRIBUTE_TOLERANCE": 500.0,
        "OUTPUT_REPORT": str(out / names[2]),
    }
    risk, _, _ = run("spatialprivacy:markedrisk", params)
    if risk is None:
        return False
    print(
        f"Marked synthesis: {synthesis['SYNTHETIC_COUNT']} synthetic records in {risk['SETS']} sets; largest median "
        f"Type S risk {risk['MAX_TYPE_S']:.3g}, Type A {risk['MAX_TYPE_A']:.3g}: " + ", ".join(names)
    )
    return True


if __name__ == "__main__":
    try:
        code = main()
    finally:
        _SCRATCH.cleanup()
    sys.exit(code)
