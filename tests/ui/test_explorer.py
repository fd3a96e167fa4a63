"""The privacy explorer (issue 32) in a real QGIS desktop under Xvfb: opened from the plugin's menu, driven
through its widgets by explorer_check.py, its previews checked against core.previews and its Run against
processing.run with the same parameters and seed."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def _desktop_helpers():
    """tests/plugin/test_desktop.py's ``run_desktop`` (one copy of the Xvfb launcher; tests/ is no package)."""
    spec = importlib.util.spec_from_file_location("desktop_helpers", HERE.parent / "plugin" / "test_desktop.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run_desktop = _desktop_helpers().run_desktop


@pytest.fixture(scope="module")
def seen(tmp_path_factory, data_copy):
    tmp = tmp_path_factory.mktemp("explorer")
    shots = tmp / "shots"
    shots.mkdir()
    out = run_desktop(
        tmp,
        "--lang",
        "en",
        script=HERE / "explorer_check.py",
        ENTERPRISES=str(data_copy / "sdcspatial_enterprises.gpkg") + "|layername=enterprises",
        SNOW=str(data_copy / "snow_cholera.gpkg") + "|layername=deaths",
        AREAS=str(data_copy / "dwelling_areas.gpkg") + "|layername=areas",
        SHOTS=str(shots),
        # the README picture is refreshed only on request: SPATIAL_PRIVACY_README_SHOTS=1 .venv/bin/pytest tests/ui
        DOCS=str(REPO / "docs" / "explorer.png") if os.environ.get("SPATIAL_PRIVACY_README_SHOTS") else "",
    )
    out["shots"] = shots
    return out


def test_opens_from_the_menu_and_the_toolbar(seen):
    assert seen["opened"] and seen["toolbar"]


def test_bad_input_says_what_to_change_and_disables_run(seen):
    bad = seen["bad"]
    assert "point layer" in bad["polygons_only_dppoints"]["problem"]
    assert "degrees" in bad["geographic"]["problem"] and "Reproject" in bad["geographic"]["problem"]
    assert "no features" in bad["empty"]["problem"]
    assert "no numeric field" in bad["no_numeric"]["problem"]
    assert not any(state["run"] for state in bad.values())


def test_pufferfish_preview_is_the_core_curve_at_the_chosen_epsilon(seen):
    got, expected = seen["pufferfish"], seen["pufferfish_expected"]
    assert got["marked_x"] == 0.5
    assert got["x"] == pytest.approx(expected["x"], rel=1e-12)
    assert set(got["series"]) == {"median", "p90"}
    for name, values in expected["series"].items():
        assert got["series"][name] == pytest.approx(values, rel=1e-12)
        assert got["marked"][name] == pytest.approx(expected["marked"][name], rel=1e-12)
    assert seen["steward_note"] == "Computed from the confidential data: for the steward only."
    assert seen["sentence"].startswith("With ε = 0.5 an attacker's odds") and "1.6" in seen["sentence"]
    assert seen["units"] == "meters"
    assert max(seen["preview_seconds"][:1]) < 10


def test_run_gives_what_processing_run_gives_with_the_same_parameters_and_seed(seen):
    assert seen["parameters"] == {
        "EPSILON": 0.5,
        "OUTPUT": "TEMPORARY_OUTPUT",
        "FIELD": "production",
        "CELL_SIZE": 500.0,
        "ERROR_MODEL": 0,
        "INTERVAL": 50.0,
        "SEED": 7,
    }
    assert seen["run"]["cells"] > 0 and seen["run"]["same"] and seen["run"]["in_project"]
    assert seen["remembered"]["family"] == "pufferfish" and seen["remembered"]["epsilon"] == 0.5


def test_points_and_counts_previews_mark_the_chosen_epsilon(seen):
    assert seen["points"]["marked_x"] == 2.0 and set(seen["points"]["series"]) == {"mise", "n_points"}
    assert seen["counts"]["marked_x"] == 1.5 and set(seen["counts"]["series"]) == {"mean_abs_error", "p_within_10pct"}
    points, counts = seen["points"]["marked"], seen["counts"]["marked"]
    assert points["mise"] > 0 and points["n_points"] > 0, seen["points"]
    assert counts["mean_abs_error"] > 0 and 0 <= counts["p_within_10pct"] <= 1
    for family in ("pufferfish", "dppoints", "dpcounts"):
        assert (seen["shots"] / f"{family}.png").stat().st_size > 10_000


def test_a_canceled_preview_ends(seen):
    assert seen["long_running_before_cancel"]
    cancel = seen["cancel"]
    assert cancel["ended"] and cancel["terminated"] and cancel["seconds"] < 10
    assert cancel["busy"] == "Preview canceled."
