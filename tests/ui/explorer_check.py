"""Run inside a real QGIS desktop (``qgis --code``): open the privacy explorer from the plugin's menu, drive it
through the real event loop (QTimer steps, non-modal dialog) and write what it showed to $RESULT as JSON.
Driven by tests/ui/test_explorer.py. Environment: RESULT, ENTERPRISES, SNOW, AREAS (layer sources), SHOTS (a
folder for the screenshots), DOCS (optional: where to save the README's picture), OUTPUT_DIR.
"""

import functools
import json
import os
import time
import traceback

from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer  # noqa: E402
from qgis.PyQt.QtCore import QTimer  # noqa: E402
from qgis.utils import iface, loadPlugin, plugins, startPlugin  # noqa: E402

out = {"steps": []}
state = {}
PATIENCE = 20.0  # seconds a preview may take before the check gives up


def finish():
    if "dialog" in state:
        state["dialog"].close()
    QgsProject.instance().clear()  # else quitting asks whether to save the layers added above
    with open(os.environ["RESULT"], "w", encoding="utf-8") as handle:
        json.dump(out, handle)
    QTimer.singleShot(0, iface.actionExit().trigger)


def memory_layer(uri, name, points=()):
    layer = QgsVectorLayer(uri, name, "memory")
    features = []
    for x, y, *attributes in points:
        feature = QgsFeature(layer.fields())
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        feature.setAttributes(list(attributes))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


def shown(dialog):
    return {"problem": dialog.problem.text() if dialog.problem.isVisibleTo(dialog) else "",
            "run": dialog.run_button.isEnabled()}  # fmt: skip


def curve_data(curve):
    return {"x": curve.x.tolist(), "series": {k: v.tolist() for k, v in curve.series.items()},
            "marked_x": curve.marked_x, "marked": curve.marked}  # fmt: skip


def map_data(dialog):
    """What the map preview shows: its layers (draw first), the draw's provider, features and values."""
    view = dialog.map
    layer = view.layer
    return {
        "layers": [layer.name() for layer in view.canvas.layers()],
        "provider": layer.providerType() if layer else None,
        "features": layer.featureCount() if layer else 0,
        "values": sorted(f["value"] for f in layer.getFeatures()) if layer and layer.fields().indexOf("value") >= 0
        else [],
        "points": sorted((f.geometry().asPoint().x(), f.geometry().asPoint().y()) for f in layer.getFeatures())
        if layer and layer.fields().indexOf("value") < 0 else [],
        "in_project": bool(layer) and layer.id() in QgsProject.instance().mapLayers(),
        "label": view.label.text(),
        "visible": view.canvas.isVisible(),
    }  # fmt: skip


def map_colours(dialog) -> int:
    """Distinct colours on a 40 x 40 sample of the map canvas's pixels (1: blank)."""
    image = dialog.map.canvas.grab().toImage()
    w, h = image.width(), image.height()
    return len({image.pixel(int(w * (i + 0.5) / 40), int(h * (j + 0.5) / 40)) for i in range(40) for j in range(40)})


def wait_preview(then, epsilon):
    """Poll (every 100 ms of the real event loop) until the dialog shows the curve of ``epsilon``."""
    start = time.monotonic()

    def poll():
        try:
            dialog = state["dialog"]
            curve = dialog.chart.curve
            done = dialog.task is None and not dialog.timer.isActive()
            if done and curve is not None and curve.marked_x == epsilon:
                if "seconds" not in state:
                    state["seconds"] = time.monotonic() - start
                    out.setdefault("preview_seconds", []).append(state["seconds"])
                if map_colours(dialog) < 3 and time.monotonic() - start < state["seconds"] + 5:
                    QTimer.singleShot(100, poll)  # the map canvas renders in the background: wait for it
                    return
                del state["seconds"]
                out.setdefault("map_colours", []).append(map_colours(dialog))
                then()
            elif done and dialog.preview_error:
                raise RuntimeError(f"preview failed: {dialog.preview_error}")
            elif time.monotonic() - start > PATIENCE:
                raise RuntimeError(f"no preview after {PATIENCE} s: {dialog.busy.text()} {dialog.problem.text()}")
            else:
                QTimer.singleShot(100, poll)
        except Exception:  # noqa: BLE001
            out["error"] = traceback.format_exc()
            finish()

    QTimer.singleShot(100, poll)


def step(function):
    """``function`` as a QTimer callback that reports any exception to the test and quits."""

    @functools.wraps(function)
    def run():
        try:
            out["steps"].append(function.__name__)
            with open(os.environ["RESULT"] + ".partial", "w", encoding="utf-8") as handle:
                json.dump(out, handle, default=str)
            function()
        except Exception:  # noqa: BLE001 (report everything to the test)
            out["error"] = traceback.format_exc()
            finish()

    return run


@step
def open_and_bad_input():
    loadPlugin("spatial_privacy")
    startPlugin("spatial_privacy")
    plugin = plugins["spatial_privacy"]
    project = QgsProject.instance()
    areas = QgsVectorLayer(os.environ["AREAS"], "areas", "ogr")
    project.addMapLayer(areas)
    action = next(a for a in iface.pluginMenu().actions() if a.text() == "&Spatial Privacy").menu()
    explorer = next(a for a in action.actions() if a.objectName() == "spatialPrivacyExplorer")
    out["toolbar"] = explorer in iface.pluginToolBar().actions()
    explorer.trigger()
    dialog = state["dialog"] = plugin.explorer
    out["opened"] = dialog.isVisible()
    seen = out["bad"] = {}
    dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("dppoints"))
    seen["polygons_only_dppoints"] = shown(dialog)
    for name, uri, points in (
        ("geographic", "Point?crs=EPSG:4326&field=v:double", [(5.1, 52.1, 1.0)]),
        ("empty", "Point?crs=EPSG:28992&field=v:double", []),
        ("no_numeric", "Point?crs=EPSG:28992&field=name:string", [(1000.0, 1000.0, "a")]),
    ):
        layer = project.addMapLayer(memory_layer(uri, name, points))
        dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("pufferfish"))
        dialog.layer_combo.setLayer(layer)
        seen[name] = shown(dialog)
        project.removeMapLayer(layer.id())
    enterprises = state["enterprises"] = QgsVectorLayer(os.environ["ENTERPRISES"], "enterprises", "ogr")
    project.addMapLayer(enterprises)
    dialog.layer_combo.setLayer(enterprises)
    dialog.knobs["value_field"].setField("production")
    dialog.knobs["cell_size"].setValue(500.0)
    dialog.knobs["interval"].setValue(50.0)
    dialog.knobs["epsilon"].setValue(0.5)
    out["sentence"] = dialog.knobs["epsilon"].label.text()
    out["units"] = dialog.knobs["cell_size"].units.text()
    wait_preview(pufferfish_preview_and_run, 0.5)


@step
def pufferfish_preview_and_run():
    import numpy as np

    from spatial_privacy.core.grid import GridSpec, bin_points
    from spatial_privacy.core.previews.curve import epsilon_grid
    from spatial_privacy.core.previews.pufferfish import pufferfish_error_curve

    dialog = state["dialog"]
    out["pufferfish"] = curve_data(dialog.chart.curve)
    layer = state["enterprises"]
    xy = np.array(
        [[f.geometry().asPoint().x(), f.geometry().asPoint().y(), f["production"]] for f in layer.getFeatures()]
    )
    cells = bin_points(xy[:, 0], xy[:, 1], xy[:, 2], GridSpec(500.0, 0.0, 0.0))
    expected = pufferfish_error_curve(cells.count, epsilon_grid(0.5), 0.5, error_model="absolute", interval=50.0)
    out["pufferfish_expected"] = curve_data(expected)
    from spatial_privacy.core.mechanisms import generator
    from spatial_privacy.core.previews.pufferfish import preview_draw_grid

    out["pufferfish_map"] = map_data(dialog)
    grid = preview_draw_grid(
        xy[:, 0], xy[:, 1], xy[:, 2], GridSpec(500.0, 0.0, 0.0), 0.5, generator(20260101), interval=50.0
    )
    out["pufferfish_map_expected"] = sorted(grid.value.tolist())
    out["steward_note"] = dialog.chart.figure.axes[0].get_title()
    dialog.grab().save(os.path.join(os.environ["SHOTS"], "pufferfish.png"))
    if os.environ.get("DOCS"):
        dialog.grab().save(os.environ["DOCS"])
    dialog.chart.save_png(os.path.join(os.environ["SHOTS"], "pufferfish_chart.png"))
    dialog.seed = 7
    out["parameters"] = {k: v for k, v in dialog.parameters().items() if k != "INPUT"}
    running = dialog.run()
    # the algorithm runs in a task: busy, cancelable, Run disabled until it ends
    out["run_busy"] = {"text": dialog.busy.text(), "cancel": dialog.cancel_button.isEnabled(),
                       "run": dialog.run_button.isEnabled(), "progress": dialog.progress.isVisible(),
                       "task": running.task is not None}  # fmt: skip
    wait_run(pufferfish_run_done)


def wait_run(then, patience: float = 60.0):
    """Poll (every 100 ms of the real event loop) until the dialog's algorithm run has ended."""
    start = time.monotonic()

    def poll():
        try:
            if state["dialog"].running is None:
                then()
            elif time.monotonic() - start > patience:
                raise RuntimeError(f"the run did not end in {patience} s")
            else:
                QTimer.singleShot(100, poll)
        except Exception:  # noqa: BLE001
            out["error"] = traceback.format_exc()
            finish()

    QTimer.singleShot(100, poll)


def parameter_values(parameters: dict) -> dict:
    return {k: v if isinstance(v, (int, float, str, bool, type(None))) else str(v) for k, v in parameters.items()}


@step
def pufferfish_run_done():
    from processing.core.ProcessingLog import ProcessingLog
    from qgis import processing

    dialog, layer = state["dialog"], state["enterprises"]
    result = dialog.last_result
    mine = {f["cell_id"]: f["value"] for f in result["OUTPUT"].getFeatures()}
    direct = processing.run("spatialprivacy:pufferfishgrid", {**dialog.parameters(), "INPUT": layer.source()})
    theirs = {f["cell_id"]: f["value"] for f in direct["OUTPUT"].getFeatures()}
    out["run"] = {
        "cells": len(mine),
        "same": mine == theirs,
        "in_project": result["OUTPUT"].id() in QgsProject.instance().mapLayers(),
        "name": result["OUTPUT"].name(),
        "busy": dialog.busy.text(),
        "run_enabled": dialog.run_button.isEnabled(),
        "history": [e.text for e in ProcessingLog.getLogEntries() if "spatialprivacy:pufferfishgrid" in e.text],
    }
    out["remembered"] = json.loads(QgsProject.instance().readEntry("spatial_privacy", "explorer/settings", "")[0])
    # "Open in toolbox": the algorithm's own dialog, prefilled with the explorer's choices, not run
    dialog.knobs["min_count"].setValue(3)
    dialog.knobs["statistic"].setCurrentIndex(dialog.knobs["statistic"].findData("total"))
    toolbox = dialog.open_in_toolbox()
    out["toolbox"] = {
        "visible": toolbox.isVisible(),
        "algorithm": toolbox.algorithm().id(),
        "values": parameter_values(toolbox.createProcessingParameters()),
        "explorer": parameter_values(dialog.parameters()),
        "input_layer": layer.id(),
    }
    toolbox.close()
    # a run the algorithm refuses: bounds the data break (values above U_t); its message shown, nothing crashes
    dialog.knobs["min_count"].setValue(1)
    dialog.knobs["statistic"].setCurrentIndex(dialog.knobs["statistic"].findData("mean"))
    dialog.knobs["bounded"].setChecked(True)
    dialog.knobs["lower_bound"].setText("0")
    dialog.knobs["upper_bound"].setText("1")
    dialog.knobs["margin"].setText("1")
    out["bounded_parameters"] = {k: v for k, v in dialog.parameters().items() if k not in ("INPUT", "OUTPUT")}
    state["layers_before_failure"] = len(QgsProject.instance().mapLayers())
    dialog.run()
    wait_run(failed_run_done)


@step
def failed_run_done():
    dialog = state["dialog"]
    out["failed_run"] = {
        "error": dialog.run_error,
        "busy": dialog.busy.text(),
        "result": dialog.last_result,
        "layers_added": len(QgsProject.instance().mapLayers()) - state["layers_before_failure"],
        "run_enabled": dialog.run_button.isEnabled(),
    }
    dialog.knobs["bounded"].setChecked(False)
    snow = state["snow"] = QgsProject.instance().addMapLayer(QgsVectorLayer(os.environ["SNOW"], "deaths", "ogr"))
    dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("dppoints"))
    dialog.layer_combo.setLayer(snow)
    dialog.knobs["method"].setCurrentIndex(dialog.knobs["method"].findData("laplace"))
    dialog.knobs["cell_size"].setValue(1.0)  # John Snow's map has no CRS: its units span about 20
    dialog.knobs["epsilon"].setValue(2.0)
    wait_preview(points_preview, 2.0)


@step
def points_preview():
    dialog = state["dialog"]
    out["points"] = curve_data(dialog.chart.curve)
    out["points_map"] = map_data(dialog)
    import numpy as np

    from spatial_privacy.core.mechanisms import generator
    from spatial_privacy.core.previews.points import preview_draw_points
    from spatial_privacy.core.window import Window

    xy = np.array([[f.geometry().asPoint().x(), f.geometry().asPoint().y()] for f in state["snow"].getFeatures()])
    sx, sy = preview_draw_points(
        xy[:, 0], xy[:, 1], Window.around_points(xy[:, 0], xy[:, 1]), "laplace", 2.0, generator(7),
        alpha=None, cell_size=1.0,
    )  # fmt: skip
    out["points_map_expected"] = sorted(zip(sx.tolist(), sy.tolist()))
    dialog.grab().save(os.path.join(os.environ["SHOTS"], "dppoints.png"))
    dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("dpcounts"))
    areas = QgsProject.instance().mapLayersByName("areas")[0]
    dialog.layer_combo.setLayer(areas)
    dialog.knobs["count_field"].setField("unemployed")
    dialog.knobs["population_field"].setField("dwellings")
    dialog.knobs["rate_field"].setField("prior_rate")
    dialog.knobs["epsilon"].setValue(1.5)
    wait_preview(counts_preview, 1.5)


@step
def counts_preview():
    dialog = state["dialog"]
    out["counts"] = curve_data(dialog.chart.curve)
    dialog.grab().save(os.path.join(os.environ["SHOTS"], "dpcounts.png"))
    # dpcounts runs with a prior expected count field instead of rates: so does the preview (a table here)
    areas = QgsProject.instance().mapLayersByName("areas")[0]
    table = QgsVectorLayer("None?field=dwellings:double&field=unemployed:integer&field=expected:double", "table",
                           "memory")  # fmt: skip
    rows = []
    for feature in areas.getFeatures():
        row = QgsFeature(table.fields())
        row.setAttributes([feature["dwellings"], feature["unemployed"], feature["prior_rate"] * feature["dwellings"]])
        rows.append(row)
    table.dataProvider().addFeatures(rows)
    QgsProject.instance().addMapLayer(table)
    dialog.layer_combo.setLayer(table)
    dialog.knobs["count_field"].setField("unemployed")
    dialog.knobs["population_field"].setField("dwellings")
    dialog.knobs["rate_field"].setField("")
    dialog.knobs["expected_field"].setField("expected")
    out["counts_expected_rows"] = sorted(name for name, (label, widget) in dialog.rows.items()
                                         if widget.isVisibleTo(dialog))  # fmt: skip
    out["counts_expected_state"] = shown(dialog)
    out["counts_expected_parameters"] = {k: v for k, v in dialog.parameters().items() if k not in ("INPUT", "OUTPUT")}
    dialog.knobs["sets"].setValue(4)
    out["sets_sentence"] = dialog.sentences["sets"].text()
    dialog.knobs["sets"].setValue(1)
    wait_preview(counts_expected_preview, 1.5)


@step
def counts_expected_preview():
    dialog = state["dialog"]
    out["counts_expected"] = curve_data(dialog.chart.curve)
    out["counts_notes"] = dialog.notes.text()
    # a long preview (LGCP on John Snow's deaths), canceled while it runs
    dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("dppoints"))
    dialog.layer_combo.setLayer(state["snow"])
    dialog.knobs["method"].setCurrentIndex(dialog.knobs["method"].findData("lgcp"))
    dialog.knobs["alpha"].setValue(20.0)
    dialog.knobs["epsilon"].setValue(3.0)
    state["long"] = dialog.start_preview()
    state["cancel_at"] = time.monotonic()
    QTimer.singleShot(500, cancel)


@step
def cancel():
    dialog, task = state["dialog"], state["long"]
    out["long_running_before_cancel"] = dialog.task is task and task.status() in (
        task.TaskStatus.Queued,
        task.TaskStatus.Running,
    )
    ended = []
    task.taskTerminated.connect(lambda: ended.append("terminated"))
    task.taskCompleted.connect(lambda: ended.append("completed"))
    dialog.cancel_button.click()
    start = time.monotonic()

    def poll():
        if ended and dialog.task is None:
            out["cancel"] = {
                "ended": True,
                "seconds": time.monotonic() - start,
                "busy": dialog.busy.text(),
                "terminated": ended == ["terminated"],
                "chart_cleared": dialog.chart.curve is None,
            }
            QTimer.singleShot(0, sweep_preview)
        elif time.monotonic() - start > PATIENCE:
            out["cancel"] = {"ended": False}
            finish()
        else:
            QTimer.singleShot(50, poll)

    QTimer.singleShot(50, poll)


def sweep_data(sweep):
    import dataclasses

    return {**sweep, "points": [dataclasses.asdict(p) for p in sweep["points"]]}


@step
def sweep_preview():
    """The LGCP synthesis family on John Snow's deaths: a small sweep (2 radii, 1 noise variance, 1 PRS set),
    filled in as each setting finishes while the event loop keeps ticking, then Run with the same seed."""
    dialog = state["dialog"]
    dialog.seed = 7
    dialog.family_combo.setCurrentIndex(dialog.family_combo.findData("lgcpsweep"))
    dialog.layer_combo.setLayer(state["snow"])
    dialog.knobs["radii"].setText("0.5, 1")
    dialog.knobs["noise_levels"].setText("0.5")
    dialog.knobs["prs_sets"].setValue(1)
    dialog.knobs["risk_radius"].setValue(0.1)
    dialog.knobs["max_risk"].setValue(0.05)
    out["sweep_rows"] = sorted(name for name, (label, widget) in dialog.rows.items() if widget.isVisibleTo(dialog))
    task = dialog.start_preview()
    start = time.monotonic()
    partials, ticks = [], [start]
    task.partial.connect(
        lambda point: partials.append(
            {"seconds": time.monotonic() - start, "drawn": len(dialog.chart.sweep["points"]),
             "finished": dialog.chart.sweep["finished"], "running": dialog.task is task}
        )
    )  # fmt: skip
    ticker = QTimer()
    ticker.setInterval(10)
    ticker.timeout.connect(lambda: ticks.append(time.monotonic()))
    ticker.start()
    state["ticker"] = ticker

    def poll():
        try:
            if dialog.task is None:
                ticker.stop()
                gaps = [b - a for a, b in zip(ticks, ticks[1:])]
                out["sweep"] = {
                    "partials": partials, "seconds": time.monotonic() - start, "max_gap": max(gaps),
                    "chart": sweep_data(dialog.chart.sweep), "error": dialog.preview_error,
                    "notes": dialog.notes.text(), "parameters": {k: v for k, v in dialog.parameters().items()
                                                                  if k != "INPUT"},
                }  # fmt: skip
                dialog.grab().save(os.path.join(os.environ["SHOTS"], "lgcpsweep.png"))
                QTimer.singleShot(0, sweep_run)
            elif time.monotonic() - start > 120:
                raise RuntimeError("the sweep preview did not finish in 120 s")
            else:
                QTimer.singleShot(100, poll)
        except Exception:  # noqa: BLE001
            out["error"] = traceback.format_exc()
            finish()

    QTimer.singleShot(100, poll)


@step
def sweep_run():
    from qgis.core import QgsSettings

    # the sweep's sets in this process (Processing > Options > Providers > Spatial Privacy > local worker
    # processes = 1): worker processes would each import numba and scipy again on a small shared test machine
    QgsSettings().setValue("Processing/Configuration/SPATIALPRIVACY_LOCAL_WORKERS", 1)
    state["dialog"].run()
    wait_run(sweep_run_done, 240)  # the confidential fit and four sets again (the sets in worker processes)


@step
def sweep_run_done():
    result = state["dialog"].last_result
    out["sweep_run"] = {
        key: result[key] for key in ("SETS", "RECOMMENDED_PMSE", "RECOMMENDED_MAX_RISK", "BASELINE_MAX_RISK")
    }
    layer = result["OUTPUT_RECOMMENDED"]
    out["sweep_run"]["recommended_points"] = layer.featureCount()
    out["sweep_run"]["in_project"] = layer.id() in QgsProject.instance().mapLayers()
    finish()


QTimer.singleShot(0, open_and_bad_input)
