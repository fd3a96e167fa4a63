"""The plugin in a real QGIS desktop (qgis.bin under Xvfb), loaded exactly as QGIS loads plugins."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
from pathlib import Path

import pytest
from qgis.core import QgsCoordinateReferenceSystem, QgsUnitTypes, QgsVectorLayer

REPO = Path(__file__).resolve().parent.parent.parent
SCRIPT = Path(__file__).resolve().parent / "desktop_check.py"
DIALOGS = Path(__file__).resolve().parent / "dialogs_check.py"

# scripts/bootstrap.sh installs Debian's qgis and xvfb: their absence is a broken set-up, not a skip.
assert shutil.which("qgis.bin") and shutil.which("xvfb-run"), "run scripts/bootstrap.sh (qgis, xvfb)"


def run_desktop(tmp_path: Path, *args: str, script: Path = SCRIPT, timeout: float = 180, **env: str) -> dict:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "spatial_privacy").symlink_to(REPO)
    result = tmp_path / "result.json"
    # QGIS runs Debian's python3; give it the venv's packages (numba) as a user's install would.
    site_packages = os.pathsep.join(site.getsitepackages())
    environment = {
        **os.environ,
        "QGIS_PLUGINPATH": str(plugins),
        "RESULT": str(result),
        "PYTHONPATH": site_packages,
        **env,
    }
    environment.pop("QT_QPA_PLATFORM", None)  # a real (virtual) screen
    cmd = [
        "xvfb-run",
        "-a",
        "qgis.bin",
        "--noversioncheck",
        "--nologo",
        "--profiles-path",
        str(tmp_path / "profiles"),
        *args,
        "--code",
        str(script),
    ]
    proc = subprocess.run(cmd, env=environment, capture_output=True, text=True, timeout=timeout)
    assert result.exists(), f"QGIS wrote no result (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    out = json.loads(result.read_text())
    assert "error" not in out, out["error"]
    return out


def test_plugin_loads_registers_opens_toolbox_and_unloads(tmp_path):
    out = run_desktop(tmp_path)
    assert out["loaded"]
    assert out["provider"] == "Spatial Privacy"
    assert "&Spatial Privacy" in out["menu"] and out["toolbar"]
    assert out["toolbox"] == [
        True,
        "spatialprivacy",
        [
            "spatialprivacy:disclosurerisk",
            "spatialprivacy:dpcounts",
            "spatialprivacy:dppoints",
            "spatialprivacy:fitlgcp",
            "spatialprivacy:kfunction",
            "spatialprivacy:markedrisk",
            "spatialprivacy:pmse",
            "spatialprivacy:privacyledger",
            "spatialprivacy:pufferfishgrid",
            "spatialprivacy:riskutilitysweep",
            "spatialprivacy:synthesizelgcp",
            "spatialprivacy:synthesizemarked",
        ],
    ]
    assert not any("Spatial Privacy" in text for text in out["bar"]), "no notice when nothing is missing"
    assert out["unloaded"] and not out["provider_after_unload"]
    assert "&Spatial Privacy" not in out["menu_after_unload"]


def test_without_numba_it_says_what_to_install_once_and_still_runs(tmp_path, data_copy, provider):
    gpkg = str(data_copy / "sdcspatial_enterprises.gpkg") + "|layername=enterprises"
    out = run_desktop(tmp_path, BLOCK_NUMBA="1", INPUT=gpkg, OUTPUT=str(tmp_path / "slow.gpkg"))
    notices = [text for text in out["bar"] if "numba" in text]
    assert len(notices) == 1, out["bar"]
    assert "pip install numba" in notices[0] and "apt install python3-numba" in notices[0]
    assert len([m for m in out["log"] if "numba" in m]) == 1
    assert out["provider"] == "Spatial Privacy" and out["run"] > 0
    # same seed with numba, in this process: the numpy fallback publishes the identical map
    from qgis import processing

    fast = processing.run(
        "spatialprivacy:pufferfishgrid",
        {
            "INPUT": gpkg,
            "FIELD": "production",
            "CELL_SIZE": 500,
            "EPSILON": 0.5,
            "INTERVAL": 50,
            "SEED": 7,
            "OUTPUT": str(tmp_path / "fast.gpkg"),
        },
    )
    slow = {f["cell_id"]: f["value"] for f in QgsVectorLayer(str(tmp_path / "slow.gpkg")).getFeatures()}
    quick = {f["cell_id"]: f["value"] for f in QgsVectorLayer(fast["OUTPUT"]).getFeatures()}
    assert slow.keys() == quick.keys() and all(slow[k] == pytest.approx(quick[k], rel=1e-12) for k in slow)


def dutch(source: str) -> str:
    import xml.etree.ElementTree as ET

    for message in ET.parse(REPO / "i18n" / "spatial_privacy_nl.ts").getroot().iter("message"):
        if message.findtext("source") == source:
            return message.findtext("translation")
    raise KeyError(source)


def test_dutch_interface(tmp_path):
    out = run_desktop(tmp_path, "--lang", "nl")
    assert out["algorithm"] == dutch("Pufferfish-private grid map") != "Pufferfish-private grid map"


def test_dialogs_build_and_distances_show_the_units_they_are_read_in(tmp_path, data_copy):
    """Every algorithm's dialog, batch dialog and model-child dialog builds; a distance shows the units of the
    CRS to work in when one is picked, else the layer's (QGIS's own widget showed the layer's degrees)."""
    gpkg = str(data_copy / "sdcspatial_enterprises.gpkg") + "|layername=enterprises"
    snow = str(data_copy / "snow_cholera.gpkg") + "|layername=deaths"
    out = run_desktop(tmp_path, "--lang", "en", script=DIALOGS, INPUT=gpkg, NO_CRS=snow)
    built = out["built"]
    assert len(built) == 12
    for alg_id, (standard, batch, child, distances) in built.items():
        assert (standard, batch, child) == ("AlgorithmDialog", "BatchAlgorithmDialog", "ModelerParametersDialog")
        for name, (in_dialog, in_model) in distances.items():
            assert in_dialog == "WorkCrsDistanceWrapper", (alg_id, name)
            assert in_model == "QgsProcessingModelerParameterWidget", (alg_id, name)
    assert set(built["spatialprivacy:synthesizelgcp"][3]) == {"MAX_EDGE", "RADIUS"}
    assert set(built["spatialprivacy:pufferfishgrid"][3]) == {"CELL_SIZE"}

    seen = out["seen"]
    assert seen["projected"]["combos"] == ["meters"] and seen["projected"]["labels"] == []
    # a layer in degrees: the widget says so and asks for a CRS to work in
    assert seen["degrees"]["combos"] == []
    assert seen["degrees"]["labels"][0] == "degrees" and "projected CRS" in seen["degrees"]["labels"][1]
    # with WORK_CRS (metres) the widget shows metres, as the algorithm reads the radius
    same = ("labels", "combos")
    assert {k: seen["degrees_work_crs"][k] for k in same} == {k: seen["projected"][k] for k in same}
    # named as QGIS names a CRS (a CRS given as WKT has no authority id to show)
    tip = "in the units of EPSG:28992 - Amersfoort / RD New, the CRS to work in"
    assert seen["degrees_work_crs"]["units_tip"] == tip
    assert seen["degrees_work_crs"]["value"] is None  # RADIUS is optional and not set yet
    assert seen["set_250"]["value"] == pytest.approx(250)
    # typed in kilometres, handed to the algorithm in the CRS's metres
    assert seen["250_km"]["combos"] == ["kilometers"]
    assert seen["250_km"]["value"] == pytest.approx(250_000) == seen["parameters_km"]
    # a change of WORK_CRS between linear units keeps the unit typed in: 250 km in US survey feet
    assert seen["250_km_in_feet"]["combos"] == ["kilometers"]
    feet = QgsCoordinateReferenceSystem("EPSG:2229").mapUnits()
    per_km = QgsUnitTypes.fromUnitToUnitFactor(QgsUnitTypes.DistanceKilometers, feet)
    assert per_km > 3000 and seen["250_km_in_feet"]["value"] == pytest.approx(250 * per_km, rel=1e-12)
    assert seen["work_crs_cleared"]["labels"][0] == "degrees"
    assert seen["not_set"]["value"] is None
    # a layer whose GeoPackage has no CRS: QGIS reads "Undefined Cartesian SRS" (metres), the algorithms take
    # its coordinate units, and so does the widget (no unit to convert from)
    assert seen["no_crs"]["combos"] == [] and seen["no_crs"]["labels"] == ["CRS units"]
    assert seen["prepopulated"]["combos"] == ["meters"] and seen["prepopulated"]["value"] == pytest.approx(750)
