"""Run inside a real QGIS desktop (``qgis --code``): build every algorithm's dialogs (algorithm, batch,
model child) and read what the distance widgets show; write it to $RESULT as JSON and quit.
Driven by tests/plugin/test_desktop.py. Environment: RESULT, INPUT (a projected point layer's source), NO_CRS
(a point layer whose GeoPackage has no CRS).

No event loop is run (processEvents with a dialog open can block under Xvfb): the widgets update through
direct signal connections.
"""

import json
import os
import traceback

from qgis.core import QgsApplication, QgsProcessingModelAlgorithm, QgsProject, QgsVectorLayer  # noqa: E402
from qgis.PyQt.QtCore import QTimer  # noqa: E402
from qgis.PyQt.QtWidgets import QComboBox, QLabel  # noqa: E402
from qgis.utils import iface, loadPlugin, startPlugin  # noqa: E402


def shown(wrapper) -> dict:
    """The unit label, unit choice and warning a distance widget shows, and its parameter value."""
    widget = wrapper.wrappedWidget()
    return {
        "class": type(wrapper).__name__,
        "labels": [label.text() for label in widget.findChildren(QLabel) if label.isVisibleTo(widget)],
        "combos": [combo.currentText() for combo in widget.findChildren(QComboBox) if combo.isVisibleTo(widget)],
        "value": wrapper.parameterValue(),
        "units_tip": next(c.toolTip() for c in widget.findChildren(QComboBox)),
    }


out = {}
try:
    loadPlugin("spatial_privacy")
    startPlugin("spatial_privacy")
    from processing.gui.BatchAlgorithmDialog import BatchAlgorithmDialog
    from processing.modeler.ModelerParametersDialog import ModelerParametersDialog
    from qgis import processing

    projected = QgsVectorLayer(os.environ["INPUT"], "projected", "ogr")
    degrees = processing.run(
        "native:reprojectlayer", {"INPUT": projected, "TARGET_CRS": "EPSG:4326", "OUTPUT": "memory:"}
    )["OUTPUT"]
    degrees.setName("degrees")
    no_crs = QgsVectorLayer(os.environ["NO_CRS"], "no CRS", "ogr")  # a GeoPackage layer with srs_id -1
    QgsProject.instance().addMapLayers([projected, degrees, no_crs])
    registry = QgsApplication.processingRegistry()
    ids = sorted(a.id() for a in registry.providerById("spatialprivacy").algorithms())

    built, kept = {}, []
    for alg_id in ids:  # every dialog a user can open on each algorithm builds
        dialog = processing.createAlgorithmDialog(alg_id)
        batch = BatchAlgorithmDialog(registry.createAlgorithmById(alg_id), parent=iface.mainWindow())
        child = ModelerParametersDialog(registry.createAlgorithmById(alg_id), QgsProcessingModelAlgorithm())
        built[alg_id] = [type(d).__name__ for d in (dialog, batch, child)]
        distances = [p.name() for p in registry.algorithmById(alg_id).parameterDefinitions() if p.type() == "distance"]
        built[alg_id].append(
            {
                name: [
                    type(dialog.mainWidget().wrappers[name]).__name__,
                    type(child.widget.widget.wrappers[name]).__name__,
                ]
                for name in distances
            }
        )
        for d in (dialog, batch, child):
            d.close()
        # kept until QGIS quits: a dialog Python let go of here (the model-child dialog has no parent) left QGIS
        # 3.22 to crash in QgsProject.clear() below, in about half the runs once there were ten algorithms
        kept.append((dialog, batch, child))
    out["built"] = built

    # The distance widgets of synthesizelgcp as a user sees them
    seen = {}
    dialog = processing.createAlgorithmDialog("spatialprivacy:synthesizelgcp")
    wrappers = dialog.mainWidget().wrappers
    context = dialog.mainWidget().processing_context
    wrappers["INPUT"].setParameterValue(projected.id(), context)
    seen["projected"] = shown(wrappers["RADIUS"])
    wrappers["INPUT"].setParameterValue(degrees.id(), context)
    seen["degrees"] = shown(wrappers["RADIUS"])
    wrappers["WORK_CRS"].setParameterValue("EPSG:28992", context)
    seen["degrees_work_crs"] = shown(wrappers["RADIUS"])
    wrappers["RADIUS"].setParameterValue(250, context)
    seen["set_250"] = shown(wrappers["RADIUS"])
    combo = wrappers["RADIUS"].wrappedWidget().findChild(QComboBox)
    combo.setCurrentIndex(combo.currentIndex() + 1)  # the unit after metres: kilometres
    seen["250_km"] = shown(wrappers["RADIUS"])
    seen["parameters_km"] = dialog.mainWidget().createProcessingParameters()["RADIUS"]
    wrappers["WORK_CRS"].setParameterValue("EPSG:2229", context)  # a CRS in US survey feet: still 250 km
    seen["250_km_in_feet"] = shown(wrappers["RADIUS"])
    wrappers["WORK_CRS"].setParameterValue(None, context)
    seen["work_crs_cleared"] = shown(wrappers["RADIUS"])
    wrappers["RADIUS"].setParameterValue(None, context)
    seen["not_set"] = shown(wrappers["RADIUS"])
    wrappers["INPUT"].setParameterValue(no_crs.id(), context)
    seen["no_crs"] = shown(wrappers["RADIUS"])
    dialog.close()
    # prepopulated as "Edit parameters" or a history entry does
    dialog = processing.createAlgorithmDialog(
        "spatialprivacy:pufferfishgrid", {"INPUT": degrees.id(), "WORK_CRS": "EPSG:28992", "CELL_SIZE": 750}
    )
    seen["prepopulated"] = shown(dialog.mainWidget().wrappers["CELL_SIZE"])
    dialog.close()
    out["seen"] = seen
except Exception:  # report everything to the test rather than dying silently inside QGIS
    out["error"] = traceback.format_exc()
QgsProject.instance().clear()  # else quitting asks whether to save the layers added above
with open(os.environ["RESULT"], "w", encoding="utf-8") as handle:
    json.dump(out, handle)
QTimer.singleShot(0, iface.actionExit().trigger)
