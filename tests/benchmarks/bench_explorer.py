#!/usr/bin/env python3
"""Benchmark of the privacy explorer's responsiveness (issue 32's bar: the QGIS window never freezes); prints a
table (not a test).

The real dialog (ui.explorer.dialog.ExplorerDialog) in a QgsApplication (offscreen is fine) drives its previews
exactly as a knob move does (``start_preview`` from the event loop), while a QTimer in the main thread ticks every
10 ms; "max gap ms" is the longest time between two ticks from the start of the preview until its chart and map
are shown (the longest the event loop was blocked: target under 100 ms), "first s" the time to the first result
(for the LGCP sweep: its first setting drawn; target under 15 s), "total s" until the preview is shown.

Rows: Pufferfish on the 90,603 dwellings (cells of 500 m, value ``consumption``, interval 50, epsilon 1): the first
preview, which reads the layer into arrays in the preview task (from a feature-source snapshot taken in the main
thread), then one after an epsilon change (the arrays cached); DP points (Laplace, cells of 1 map unit; kernel,
alpha 0.5) on John Snow's 578 deaths at epsilon 2; DP counts on the 95 areas (prior rates); the LGCP synthesis sweep
on John Snow's 578 deaths at the dialog's defaults (radii 0.5 and 1, ANS noise variances 0.25, 0.5, 1, 2, 5 PRS
sets: 11 sets; risk radius 0.1 map units), its confidential fit and every set in the preview task. The charts are
drawn (matplotlib, Agg) in the task too; what remains in the main thread is showing the image and the map. A gap can
also be the task holding the GIL: a C call that does not release it, or a garbage collection of the whole process
(the first preview's imports trigger some).

    .venv/bin/python tests/benchmarks/bench_explorer.py [--smoke]

``--smoke``: the first 3,000 dwellings, no kernel row and a sweep of one radius; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
TICK_MS = 10


def measure(app, dialog, start, done, patience: float) -> dict:
    """Call ``start()`` from the event loop with a 10 ms QTimer ticking; run until ``done()`` or ``patience``
    seconds. Returns the longest gap between ticks, the time to the dialog's first sweep setting and the total."""
    from qgis.PyQt.QtCore import QEventLoop, QTimer

    ticks, first = [], []
    ticker = QTimer()
    ticker.setInterval(TICK_MS)
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    loop = QEventLoop()

    def poll():
        if dialog.chart.sweep and dialog.chart.sweep["points"] and not first:
            first.append(time.perf_counter())
        if done() or time.perf_counter() - began > patience:
            loop.quit()
        else:
            QTimer.singleShot(5, poll)

    began = time.perf_counter()
    ticks.append(began)
    ticker.start()
    QTimer.singleShot(0, start)
    QTimer.singleShot(5, poll)
    loop.exec()
    end = time.perf_counter()
    ticker.stop()
    ticks.append(end)
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    if os.environ.get("BENCH_EXPLORER_GAPS"):  # where the event loop was blocked (seconds from the start)
        print([(round(a - began, 2), round(1000 * (b - a))) for a, b in zip(ticks, ticks[1:]) if b - a > 0.05])
    return {
        "max_gap_ms": 1000 * max(gaps),
        "first": (first[0] - began) if first else end - began,
        "total": end - began,
        "ok": done(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, a few seconds")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from qgis.core import QgsApplication, QgsProject, QgsVectorLayer

    QgsApplication.setPrefixPath(os.environ.get("QGIS_PREFIX_PATH", "/usr"), True)
    app = QgsApplication([], True)
    app.initQgis()
    from spatial_privacy.ui.explorer.dialog import ExplorerDialog

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("sdcspatial_dwellings.gpkg", "snow_cholera.gpkg", "dwelling_areas.gpkg"):  # copies: SQLite
            # writes beside a GeoPackage
            shutil.copy(DATA / name, Path(tmp) / name)
        project = QgsProject.instance()
        dwellings = QgsVectorLayer(str(Path(tmp) / "sdcspatial_dwellings.gpkg") + "|layername=dwellings", "dw", "ogr")
        if args.smoke:
            dwellings.setSubsetString("fid <= 3000")
        deaths = QgsVectorLayer(str(Path(tmp) / "snow_cholera.gpkg") + "|layername=deaths", "deaths", "ogr")
        areas = QgsVectorLayer(str(Path(tmp) / "dwelling_areas.gpkg") + "|layername=areas", "areas", "ogr")
        project.addMapLayers([dwellings, deaths, areas])
        dialog = ExplorerDialog()
        dialog.timer.setInterval(10**9)  # knob moves only: the benchmark starts each preview itself
        dialog.show()
        app.processEvents()

        def shown():
            return dialog.task is None and (dialog.chart.curve is not None or dialog.chart.sweep is not None)

        dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("pufferfish"))
        dialog.layer_combo.setLayer(dwellings)
        dialog.knobs["value_field"].setField("consumption")
        dialog.knobs["cell_size"].setValue(500.0)
        dialog.knobs["interval"].setValue(50.0)
        dialog.knobs["epsilon"].setValue(1.0)
        n = dwellings.featureCount()
        dialog._cache.clear()  # the first preview reads the layer (in its task)
        result = measure(app, dialog, dialog.start_preview, shown, 60)
        rows.append(("Pufferfish, layer read", f"{n} dwellings", "-", result))
        dialog.knobs["epsilon"].setValue(2.0)
        result = measure(app, dialog, dialog.start_preview, shown, 60)
        rows.append(("Pufferfish, epsilon moved", f"{n} dwellings", "-", result))

        dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("dppoints"))
        dialog.layer_combo.setLayer(deaths)
        dialog.knobs["alpha"].setValue(0.5)
        dialog.knobs["cell_size"].setValue(1.0)  # John Snow's map units span about 20
        for method in ("laplace",) if args.smoke else ("laplace", "kernel"):
            dialog.knobs["method"].setCurrentIndex(dialog.knobs["method"].findData(method))
            result = measure(app, dialog, dialog.start_preview, shown, 120)
            rows.append((f"DP points, {method}", f"{deaths.featureCount()} deaths", "-", result))

        dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("dpcounts"))
        dialog.layer_combo.setLayer(areas)
        dialog.knobs["count_field"].setField("unemployed")
        dialog.knobs["population_field"].setField("dwellings")
        dialog.knobs["rate_field"].setField("prior_rate")
        result = measure(app, dialog, dialog.start_preview, shown, 60)
        rows.append(("DP counts", f"{areas.featureCount()} areas", "-", result))

        dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("lgcpsweep"))
        dialog.layer_combo.setLayer(deaths)
        if args.smoke:
            dialog.knobs["radii"].setText("1")
            dialog.knobs["noise_levels"].setText("")
            dialog.knobs["prs_sets"].setValue(0)
        dialog.knobs["risk_radius"].setValue(0.1)
        result = measure(app, dialog, dialog.start_preview, lambda: dialog.task is None and dialog.chart.sweep, 600)
        sets = len(dialog.chart.sweep["points"]) if dialog.chart.sweep else 0
        rows.append(("LGCP sweep", f"{deaths.featureCount()} deaths", sets, result))
        failed = dialog.preview_error
        dialog.close()
        project.clear()

    print(
        f"{'preview':<26} {'data':<16} {'sets':>5} {'first s':>8} {'total s':>8} {'max gap ms':>11} {'target ms':>10}"
    )
    for name, data, sets, r in rows:
        print(
            f"{name:<26} {data:<16} {sets:>5} {r['first']:>8.2f} {r['total']:>8.2f} {r['max_gap_ms']:>11.0f} "
            f"{100:>10}{'' if r['ok'] else '  (did not finish)'}"
        )
    if failed:
        print("preview failed:", failed, file=sys.stderr)
    app.exitQgis()
    return 1 if failed or not all(r["ok"] for *_, r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
