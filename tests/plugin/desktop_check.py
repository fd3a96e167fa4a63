"""Run inside a real QGIS desktop (``qgis --code``): load the plugin as QGIS does, exercise it,
write what was seen to $RESULT as JSON, and quit. Driven by tests/plugin/test_desktop.py.

Environment: RESULT (JSON path), BLOCK_NUMBA=1 to hide numba, INPUT and OUTPUT to also run the
algorithm (SEED 7) through processing.run.
"""

import json
import os
import sys
import traceback

if os.environ.get("BLOCK_NUMBA") == "1":
    sys.modules["numba"] = None  # import numba now raises ImportError, as if it were not installed

from qgis.core import Qgis, QgsApplication  # noqa: E402
from qgis.PyQt.QtCore import QTimer  # noqa: E402
from qgis.utils import iface, loadPlugin, plugins, startPlugin, unloadPlugin  # noqa: E402

out = {}
log = []
QgsApplication.messageLog().messageReceived.connect(lambda msg, tag, level: log.append([tag, msg]))
try:
    out["loaded"] = loadPlugin("spatial_privacy") and startPlugin("spatial_privacy")
    plugin = plugins["spatial_privacy"]
    registry = QgsApplication.processingRegistry()
    provider = registry.providerById("spatialprivacy")
    out["provider"] = provider.name() if provider else None
    out["algorithm"] = registry.algorithmById("spatialprivacy:pufferfishgrid").displayName()
    out["menu"] = [a.text() for a in iface.pluginMenu().actions()]
    out["toolbar"] = plugin.action in iface.pluginToolBar().actions()
    plugin.initProcessing()  # a second call must not repeat the notice
    out["bar"] = [item.text() for item in iface.messageBar().items()]
    out["log"] = [m for t, m in log if t == "Spatial Privacy"]
    plugin.action.trigger()
    toolbox = plugins["processing"].toolbox
    tree = toolbox.algorithmTree
    shown, stack = [], [tree.rootIndex()]
    while stack:  # every algorithm the filtered toolbox shows
        parent = stack.pop()
        for row in range(tree.model().rowCount(parent)):
            index = tree.model().index(row, 0, parent)
            algorithm = tree.algorithmForIndex(index)
            if algorithm is not None:
                shown.append(algorithm.id())
            stack.append(index)
    out["toolbox"] = [toolbox.isVisible(), toolbox.searchBox.text(), sorted(set(shown))]
    if os.environ.get("INPUT"):
        from qgis import processing

        result = processing.run(
            "spatialprivacy:pufferfishgrid",
            {
                "INPUT": os.environ["INPUT"],
                "FIELD": "production",
                "CELL_SIZE": 500,
                "EPSILON": 0.5,
                "INTERVAL": 50,
                "SEED": 7,
                "OUTPUT": os.environ["OUTPUT"],
            },
        )
        out["run"] = result["CELLS"]
    out["unloaded"] = unloadPlugin("spatial_privacy")
    out["provider_after_unload"] = registry.providerById("spatialprivacy") is not None
    out["menu_after_unload"] = [a.text() for a in iface.pluginMenu().actions()]
    out["warning_level"] = int(Qgis.Warning)
except Exception:  # report everything to the test rather than dying silently inside QGIS
    out["error"] = traceback.format_exc()
with open(os.environ["RESULT"], "w", encoding="utf-8") as handle:
    json.dump(out, handle)
QTimer.singleShot(0, iface.actionExit().trigger)
