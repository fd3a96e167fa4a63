"""The plugin under qgis_process: QGIS loads it headless and calls initProcessing()."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
from pathlib import Path

import pytest
from qgis.core import QgsVectorLayer

REPO = Path(__file__).resolve().parent.parent.parent
# Debian 12's /usr/bin/qgis_process wrapper passes --noversioncheck, which 3.22's
# qgis_process.bin rejects; the binary itself works.
EXE = shutil.which("qgis_process.bin") or shutil.which("qgis_process")
assert EXE is not None, "run scripts/bootstrap.sh (Debian's qgis package provides qgis_process)"


@pytest.fixture
def qgis_process(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "spatial_privacy").symlink_to(REPO)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QGIS_PLUGINPATH": str(plugins),
        "QGIS_CUSTOM_CONFIG_PATH": str(tmp_path / "config"),
        "PYTHONPATH": os.pathsep.join(site.getsitepackages()),
    }

    def call(*args):
        proc = subprocess.run([EXE, *args], env=env, capture_output=True, text=True, timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    code, out, err = call("plugins", "enable", "spatial_privacy")
    assert code == 0, err
    return call


def test_listed_and_helped(qgis_process):
    code, out, _ = qgis_process("list")
    assert code == 0 and "spatialprivacy:pufferfishgrid" in out
    code, out, _ = qgis_process("help", "spatialprivacy:pufferfishgrid")
    assert code == 0
    for name in ("EPSILON", "INTERVAL", "RELATIVE_K", "BOUNDS_FROM_DATA", "DELTA"):
        assert name in out
    # the help is HTML, which qgis_process prints as it is: quotes are not turned into entities
    assert "the layer's (or working) CRS" in out and "&#x27;" not in out


def test_every_algorithm_states_its_guarantee_or_that_it_is_no_privacy_mechanism(provider):
    # the project's rule: each algorithm's help states the guarantee (or its absence)
    algorithms = provider.algorithms()
    assert len(algorithms) == 12
    missing = [
        a.name()
        for a in algorithms
        if "<b>Guarantee" not in a.shortHelpString() and "Not a privacy mechanism" not in a.shortHelpString()
    ]
    assert missing == []


def grid_args(data_copy, target, epsilon):
    return [
        "spatialprivacy:pufferfishgrid",
        "--",
        f"INPUT={data_copy / 'sdcspatial_enterprises.gpkg'}",
        "FIELD=production",
        "CELL_SIZE=500",
        f"EPSILON={epsilon}",
        "INTERVAL=50",
        f"OUTPUT={target}",
    ]


def test_run_reproduces_the_thesis_delta(qgis_process, data_copy, tmp_path, thesis_delta_bounds):
    target = tmp_path / "grid.gpkg"
    code, out, err = qgis_process(
        "--json", "run", *grid_args(data_copy, target, 0.1), "BOUNDED=true", "BOUNDS_FROM_DATA=true"
    )
    assert code == 0, err
    results = json.loads(out)["results"]
    low, high = thesis_delta_bounds(0.536, epsilon=0.1)  # Figure 6, for our grid noise
    assert low <= results["DELTA"] <= high
    assert QgsVectorLayer(str(target)).featureCount() == results["CELLS"] > 0


def test_bad_parameter_fails_with_its_name(qgis_process, data_copy, tmp_path):
    target = tmp_path / "grid.gpkg"
    code, out, err = qgis_process("run", *grid_args(data_copy, target, 0))
    assert code != 0 and "EPSILON" in out + err
    assert not target.exists()


def test_dpcounts_headless_on_a_table(qgis_process, data_copy, tmp_path):
    target = tmp_path / "synthetic.gpkg"
    code, out, err = qgis_process(
        "--json",
        "run",
        "spatialprivacy:dpcounts",
        "--",
        f"INPUT={data_copy / 'dwelling_areas.gpkg'}|layername=areas_table",
        "COUNT_FIELD=unemployed",
        "POPULATION_FIELD=dwellings",
        "RATE_FIELD=prior_rate",
        "EPSILON=2",
        "SETS=3",
        f"OUTPUT={target}",
    )
    assert code == 0, err
    results = json.loads(out)["results"]
    assert results["GROUPS"] == 95 and results["EPSILON"] == 2
    layer = QgsVectorLayer(str(target))
    assert layer.featureCount() == 95
    assert sum(f["syn_3"] for f in layer.getFeatures()) == 7331


def test_dppoints_headless_laplace(qgis_process, data_copy, tmp_path):
    target = tmp_path / "synthetic.gpkg"
    code, out, err = qgis_process(
        "--json",
        "run",
        "spatialprivacy:dppoints",
        "--",
        f"INPUT={data_copy / 'snow_cholera.gpkg'}|layername=deaths",
        "METHOD=2",
        "EPSILON=2",
        "TOTAL_SHARE=0.2",
        f"OUTPUT={target}",
    )
    assert code == 0, err
    results = json.loads(out)["results"]
    assert results["EPSILON"] == 2 and results["DELTA"] == 0 and results["NOISE_SCALE"] > 0
    layer = QgsVectorLayer(str(target))
    assert layer.featureCount() == results["SYNTHETIC_COUNT"] > 0
    assert [f.name() for f in layer.fields() if f.name() != "fid"] == ["syn_id"]


def test_lgcp_synthesis_chain_headless(qgis_process, data_copy, tmp_path):
    """fitlgcp -> synthesizelgcp (PRS) -> disclosurerisk, each a separate qgis_process call sharing the model file."""
    deaths = f"{data_copy / 'snow_cholera.gpkg'}|layername=deaths"
    model = tmp_path / "snow.npz"

    def run(*args):
        code, out, err = qgis_process("--json", "run", *args)
        assert code == 0, err
        return json.loads(out)["results"]

    fit = run("spatialprivacy:fitlgcp", "--", f"INPUT={deaths}", "MAX_EDGE=0.8", "DRAWS=200", f"OUTPUT_MODEL={model}")
    assert fit["NODES"] > 100 and model.exists()
    syn = run(
        "spatialprivacy:synthesizelgcp",
        "--",
        f"INPUT={deaths}",
        f"MODEL={model}",
        "METHOD=2",
        f"OUTPUT={tmp_path / 'prs.gpkg'}",
    )
    assert syn["SYNTHETIC_COUNT"] == 578
    risk = run(
        "spatialprivacy:disclosurerisk",
        "--",
        f"INPUT={deaths}",
        f"MODEL={model}",
        f"SYNTHETIC={tmp_path / 'prs.gpkg'}",
        "METHOD=2",
        "RISK_RADIUS=0.1",
        f"OUTPUT={tmp_path / 'risk.gpkg'}",
    )
    assert 0 < risk["MEAN_RISK"] <= risk["MAX_RISK"] < 1
    assert QgsVectorLayer(str(tmp_path / "risk.gpkg")).featureCount() == 578


def test_warnings_about_the_output_format_reach_qgis_process(qgis_process, data_copy, tmp_path):
    """qgis_process 3.22 gives the algorithm a context without feedback: the warnings written while the output
    is made (a Shapefile's field names cut to 10 characters) must still reach its log."""
    target = tmp_path / "grid.shp"
    code, out, err = qgis_process("run", *grid_args(data_copy, target, 1.0))
    assert code == 0, err
    assert "a Shapefile keeps only 10 characters of a field name (noise_scale → noise_scal" in out + err


def test_a_seed_outside_the_range_is_refused_by_qgis_process_too(qgis_process, data_copy, tmp_path):
    """The one SEED rule (processing.parameters.parse_seed) holds for qgis_process, which passes every value as text;
    the largest seed in the range is taken, and its outputs say NOT PRIVATE."""
    target = tmp_path / "grid.gpkg"
    code, out, err = qgis_process("run", *grid_args(data_copy, target, 1.0), f"SEED={2**64}")
    assert code != 0
    assert f"SEED: '{2**64}' is not allowed; give a whole number from 0 to 2147483647" in out + err
    assert not target.exists()
    code, out, err = qgis_process("--json", "run", *grid_args(data_copy, target, 1.0), f"SEED={2**31 - 1}")
    assert code == 0, err
    assert json.loads(out)["results"]["NOT_PRIVATE"] == "fixed SEED"


def test_two_runs_at_once_share_a_ledger_and_privacyledger_lists_it(qgis_process, data_copy, tmp_path):
    """Two qgis_process runs started together record both releases in one ledger (its lock and atomic writes);
    spatialprivacy:privacyledger lists them headless, and a damaged ledger stops a run naming LEDGER."""
    from concurrent.futures import ThreadPoolExecutor

    ledger = tmp_path / "releases.jsonl"
    targets = [tmp_path / "a.gpkg", tmp_path / "b.gpkg"]
    with ThreadPoolExecutor(2) as pool:
        runs = list(
            pool.map(
                lambda target: qgis_process("run", *grid_args(data_copy, target, 0.5), f"LEDGER={ledger}"), targets
            )
        )
    for code, out, err in runs:
        assert code == 0, err
        assert "Recorded as release" in out + err
    code, out, err = qgis_process("list")
    assert "spatialprivacy:privacyledger" in out
    code, out, err = qgis_process(
        "--json",
        "run",
        "spatialprivacy:privacyledger",
        "--",
        f"LEDGER={ledger}",
        f"OUTPUT={tmp_path / 'releases.gpkg'}",
        f"OUTPUT_TOTALS={tmp_path / 'totals.gpkg'}",
        f"OUTPUT_CSV={tmp_path / 'releases.csv'}",
    )
    assert code == 0, err
    results = json.loads(out)["results"]
    assert (results["RELEASES"], results["DATASETS"]) == (2, 1)
    (total,) = list(QgsVectorLayer(str(tmp_path / "totals.gpkg")).getFeatures())
    assert (total["epsilon"], total["releases"]) == (1.0, 2)
    assert {str(t) for t in targets} <= set((tmp_path / "releases.csv").read_text(encoding="utf-8").split('"'))

    ledger.write_bytes(ledger.read_bytes()[:-5])  # cut short, as a full disk would
    damaged = ledger.read_bytes()
    code, out, err = qgis_process("run", *grid_args(data_copy, tmp_path / "c.gpkg", 0.5), f"LEDGER={ledger}")
    assert code != 0 and f"LEDGER: The privacy-budget ledger {ledger} is damaged" in out + err
    assert ledger.read_bytes() == damaged and not (tmp_path / "c.gpkg").exists()
