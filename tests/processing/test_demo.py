"""The README's main job, scripts/demo.py, writes real outputs."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from qgis.core import QgsRasterLayer, QgsVectorLayer
from qgis.PyQt.QtGui import QImage

from spatial_privacy.core.network.network import build_network
from spatial_privacy.core.network.placement import place_points

REPO = Path(__file__).resolve().parent.parent.parent


def read_gpkg_lines(path: Path, table: str):
    """The line parts of a GeoPackage table, read by the core tests' reader (sqlite3 only)."""
    spec = importlib.util.spec_from_file_location("core_conftest_lines", REPO / "tests" / "core" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.read_gpkg_lines(path, table)


def _data_files():
    data = REPO / "tests" / "data"
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(data.iterdir()) if p.is_file()}


def test_demo_writes_grids_rasters_reports_and_a_map(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    bundled = _data_files()
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "demo.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the demo reads copies: the bundled data are byte-for-byte unchanged and no SQLite journal appears next to them
    assert _data_files() == bundled
    for name in ("absolute", "relative", "bounded"):
        layer = QgsVectorLayer(str(tmp_path / f"{name}.gpkg"), name, "ogr")
        assert layer.isValid() and layer.featureCount() > 100
        assert sum(f["n"] for f in layer.getFeatures()) == 8348
        assert QgsRasterLayer(str(tmp_path / f"{name}.tif"), name).isValid()
        assert "Privacy guarantee" in (tmp_path / f"{name}.html").read_text(encoding="utf-8")
    image = QImage(str(tmp_path / "pufferfish_maps.png"))
    assert image.width() > 1000 and image.height() > 300
    # the map is not blank: many distinct colours were drawn
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(40, image.height(), 7)}
    assert len(colours) > 5
    # the synthetic counts: 95 squares, the public total kept, the confidential count not copied
    counts = QgsVectorLayer(str(tmp_path / "dp_counts.gpkg"), "counts", "ogr")
    assert counts.isValid() and counts.featureCount() == 95
    assert "unemployed" not in counts.fields().names()
    assert sum(f["syn_1"] for f in counts.getFeatures()) == 7331
    assert QImage(str(tmp_path / "dp_counts_map.png")).width() > 300
    assert "CONFIDENTIAL" in (tmp_path / "dp_counts_CONFIDENTIAL_report.html").read_text(encoding="utf-8")
    # the DP point synthesizers: points only (no input attributes), a report stating the guarantee
    for method in ("laplace", "lgcp"):
        points = QgsVectorLayer(str(tmp_path / f"dp_points_{method}.gpkg"), method, "ogr")
        assert points.isValid() and points.featureCount() > 100
        assert points.fields().names() == ["fid", "syn_id"]
        report = (tmp_path / f"dp_points_{method}.html").read_text(encoding="utf-8")
        assert "moved by at most α" in report and "ε" in report
    assert QImage(str(tmp_path / "dp_points_map.png")).width() > 1000
    # on John Snow's street network: synthetic deaths on the streets, a report stating the network guarantee, a map
    net, _ = build_network(read_gpkg_lines(REPO / "tests" / "data" / "snow_cholera.gpkg", "streets"), 0.0)
    network_points = QgsVectorLayer(str(tmp_path / "dp_network.gpkg"), "network", "ogr")
    assert network_points.isValid() and network_points.featureCount() > 100
    assert network_points.fields().names() == ["fid", "syn_id"]
    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in network_points.getFeatures()])
    assert place_points(net, xy[:, 0], xy[:, 1])[1].max() < 1e-9 * 23  # on the lines (extent about 23 map units)
    assert "Theorem 3.10 with the network" in (tmp_path / "dp_network.html").read_text(encoding="utf-8")
    image = QImage(str(tmp_path / "dp_network_map.png"))
    assert image.width() > 600 and image.height() > 600
    colours = {image.pixel(x, y) for x in range(0, image.width(), 5) for y in range(40, image.height(), 5)}
    assert len(colours) > 3  # white, the grey streets, the red points and their anti-aliased edges
    # Quick et al.'s marked synthesis: 20 sets of the 8,348 enterprises with their fields, and the risk report
    marked = QgsVectorLayer(str(tmp_path / "marked_synthetic.gpkg"), "marked", "ogr")
    assert marked.isValid() and marked.featureCount() == 20 * 8348
    assert marked.fields().names() == ["fid", "set", "fined", "production"]
    assert min(f["production"] for f in marked.getFeatures()) > 0  # log-normal
    assert "Type S" in (tmp_path / "marked_risk_CONFIDENTIAL_report.html").read_text(encoding="utf-8")
    # Walder et al.'s sweep: a table of the 7 sets, a report with the chart, the recommended set
    table = QgsVectorLayer(str(tmp_path / "walder_sweep_CONFIDENTIAL_table.gpkg"), "sweep", "ogr")
    assert table.isValid() and table.featureCount() == 7
    rows = [(f["method"], f["max_risk"], f["pmse"], f["recommended"]) for f in table.getFeatures()]
    # the radial sets (50 and 100 m) exceed the demo's 0.02 risk threshold; some model-based set meets it
    assert all(risk > 0.02 for method, risk, _, _ in rows if method == "radial")
    assert sum(r[3] for r in rows) == 1 and next(r for r in rows if r[3])[0] in ("ans", "prs")
    assert QgsVectorLayer(str(tmp_path / "walder_recommended.gpkg"), "rec", "ogr").featureCount() == 578
    sweep_report = (tmp_path / "walder_sweep_CONFIDENTIAL_report.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in sweep_report and "Recommendation" in sweep_report
