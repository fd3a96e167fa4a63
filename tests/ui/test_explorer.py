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
        timeout=480,  # QGIS's start, four previews, a canceled one, the sweep's and three runs, on a shared machine
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
        "STATISTIC": 0,
        "MIN_COUNT": 1,
        "BOUNDED": False,
        "SEED": 7,
    }
    # the run went to a background task: busy and cancelable while it ran, Run disabled, then done
    busy = seen["run_busy"]
    assert busy["text"].startswith("Running “") and busy["text"].endswith("”…"), busy
    assert busy["cancel"] and not busy["run"] and busy["progress"] and busy["task"], busy
    run = seen["run"]
    assert run["cells"] > 0 and run["same"] and run["in_project"]
    assert run["busy"] == "Done: the output was added to the project." and run["run_enabled"]
    assert run["name"] and run["name"] != "OUTPUT"  # named as the toolbox names it
    # the Processing history has the run's command, as the toolbox's dialog writes it
    commands = [entry.replace(" ", "") for entry in run["history"]]
    assert any("'EPSILON':0.5" in entry and "'SEED':7" in entry for entry in commands), run["history"]
    assert seen["remembered"]["family"] == "pufferfish" and seen["remembered"]["epsilon"] == 0.5


def test_a_refused_run_shows_the_algorithms_message_and_adds_nothing(seen):
    assert seen["bounded_parameters"]["BOUNDED"] is True
    assert {k: seen["bounded_parameters"][k] for k in ("LOWER_BOUND", "UPPER_BOUND", "MARGIN")} == {
        "LOWER_BOUND": 0.0, "UPPER_BOUND": 1.0, "MARGIN": 1.0,
    }  # fmt: skip
    failed = seen["failed_run"]
    assert failed["error"] and failed["result"] is None and failed["layers_added"] == 0
    assert failed["busy"] == "The run failed: " + failed["error"]
    assert failed["run_enabled"]


def test_open_in_toolbox_prefills_the_algorithms_dialog_with_the_explorers_choices(seen):
    toolbox = seen["toolbox"]
    assert toolbox["visible"] and toolbox["algorithm"] == "spatialprivacy:pufferfishgrid"
    chosen, values = toolbox["explorer"], toolbox["values"]
    assert chosen["MIN_COUNT"] == 3 and chosen["STATISTIC"] == 1
    for name in ("EPSILON", "FIELD", "CELL_SIZE", "ERROR_MODEL", "INTERVAL", "STATISTIC", "MIN_COUNT", "BOUNDED",
                 "SEED"):  # fmt: skip
        assert values[name] == chosen[name], (name, values[name], chosen[name])
    assert toolbox["input_layer"] in str(values["INPUT"])


def test_points_and_counts_previews_mark_the_chosen_epsilon(seen):
    assert seen["points"]["marked_x"] == 2.0 and set(seen["points"]["series"]) == {"mise", "n_points"}
    assert seen["counts"]["marked_x"] == 1.5 and set(seen["counts"]["series"]) == {"mean_abs_error", "p_within_10pct"}
    assert seen["counts_notes"] == "Monte-Carlo estimates from 20 synthetic data sets per ε."
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


def test_lgcp_sweep_fills_in_as_settings_finish_and_run_gives_its_recommendation(seen):
    sweep, run = seen["sweep"], seen["sweep_run"]
    assert sweep["error"] is None, sweep
    assert seen["sweep_rows"] == ["max_risk", "noise_levels", "prs_sets", "radii", "risk_radius"]
    assert sweep["parameters"] == {
        "RADII": "0.5, 1.0", "NOISE_LEVELS": "0.5", "PRS_SETS": 1, "RISK_RADIUS": 0.1, "MAX_RISK": 0.05,
        "OUTPUT_RECOMMENDED": "TEMPORARY_OUTPUT", "SEED": 7,
    }  # fmt: skip
    # progressive: each setting was drawn as it finished, while the task still ran
    partials = sweep["partials"]
    assert [p["drawn"] for p in partials] == [1, 2, 3, 4]
    assert all(p["running"] and not p["finished"] for p in partials)
    assert partials[0]["seconds"] < sweep["seconds"]
    chart = sweep["chart"]
    assert chart["finished"] and chart["threshold"] == 0.05
    assert [p["method"] for p in chart["points"]] == ["radial", "radial", "ans", "prs"]
    # the fit and the sweep ran in the task: the event loop kept ticking (a generous bound for a shared machine)
    assert sweep["max_gap"] < 1.0, sweep["max_gap"]
    assert sweep["seconds"] < 60
    # the preview used the run's seed: Run (processing.run of riskutilitysweep) recommends the very set it ringed
    best = chart["points"][chart["recommended"]]
    assert run["SETS"] == 4
    assert run["RECOMMENDED_PMSE"] == pytest.approx(best["pmse"], rel=1e-9)
    assert run["RECOMMENDED_MAX_RISK"] == pytest.approx(best["max_risk"], rel=1e-9)
    assert run["BASELINE_MAX_RISK"] == pytest.approx(chart["baseline_max"], rel=1e-9)
    assert best["max_risk"] <= 0.05 and run["recommended_points"] == 578 and run["in_project"]
    assert "Recommended: " + best["label"] in sweep["notes"]
    assert (seen["shots"] / "lgcpsweep.png").stat().st_size > 10_000


def test_the_map_preview_shows_one_draw_beside_the_confidential_layer_in_memory_only(seen):
    grid, points = seen["pufferfish_map"], seen["points_map"]
    assert grid["layers"] == ["Preview grid (for the steward only)", "enterprises"]
    assert points["layers"] == ["Preview synthetic points (for the steward only)", "deaths"]
    for shown in (grid, points):
        assert shown["provider"] == "memory" and not shown["in_project"] and shown["visible"]
        assert "for the steward only" in shown["label"]
    # the draw is the core's at the preview's seed (the published values only)
    assert grid["features"] == len(seen["pufferfish_map_expected"]) > 0
    assert grid["values"] == pytest.approx(seen["pufferfish_map_expected"], rel=1e-12)
    expected = seen["points_map_expected"]
    assert points["features"] == len(expected) > 0
    assert min(seen["map_colours"][:2]) >= 3, seen["map_colours"]  # the canvas drew the layers
    assert [c for p in points["points"] for c in p] == pytest.approx([c for p in expected for c in p], rel=1e-12)


def test_counts_preview_runs_with_an_expected_count_field_as_dpcounts_does(seen):
    # dpcounts takes a prior rate field or a prior expected count field; so does the preview. Expected counts equal
    # to rate x population give the very same priors (both rescaled to the total), so the same curve at one seed.
    assert not seen["counts_expected_state"]["problem"] and seen["counts_expected_state"]["run"]
    assert "expected_field" in seen["counts_expected_rows"] and "rate_scale" not in seen["counts_expected_rows"]
    parameters = seen["counts_expected_parameters"]
    assert parameters["EXPECTED_FIELD"] == "expected" and "RATE_FIELD" not in parameters
    assert parameters["TRUNCATE"] is True and parameters["SETS"] == 1 and parameters["RESCALE_PRIOR"] is True
    expected, rates = seen["counts_expected"], seen["counts"]
    assert expected["x"] == rates["x"] and expected["marked_x"] == 1.5
    for name in rates["series"]:
        assert expected["series"][name] == pytest.approx(rates["series"][name], rel=1e-9)
    # L sets cost L·ε: the sentence under the knob says so, with e^(4 x 1.5) = 403, to two significant figures
    sentence = seen["sets_sentence"]
    assert sentence.startswith("Publishing 4 sets costs L·ε = 6") and "factor 400." in sentence, sentence
