"""Every benchmark script's ``--smoke`` run: a few seconds on tiny sizes through the same code as the real run,
so that no script rots unnoticed. Each runs in a subprocess with this interpreter, headless Qt and one BLAS
thread, and must exit 0 and print its tables' headers. The benchmarks themselves are named ``bench_*`` so that
pytest does not collect them."""

from __future__ import annotations

import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: script -> the column names of each table it prints (each list must appear, in order, on one line)
HEADERS = {
    "bench_dpcounts.py": [["epsilon", "mechanism", "rule", "seconds", "median a", "max a", "rate corr", "slope"]],
    "bench_draw_store.py": [
        ["draws", "draws MB", "where", "nodes", "fit s", "raster+CPO s", "save s", "load s", "file MB", "peak RSS MB"]
    ],
    "bench_factor.py": [["nodes", "method", "ordering s", "entries", "factor s", "solve x16 s"]],
    "bench_explorer.py": [["preview", "data", "sets", "first s", "total s", "max gap ms", "target ms"]],
    "bench_hyper_integration.py": [
        ["quantity", "truth", "MCMC mean", "grid mean", "CCD mean", "grid diff/MCSE", "CCD diff/MCSE", "MCSE"],
        ["quantity", "MCMC 2.5%", "grid 2.5%", "CCD 2.5%", "MCMC 97.5%", "grid 97.5%", "CCD 97.5%"],
        ["nodes", "points", "method", "Laplace fits", "mode search", "distinct", "Newton steps", "fit s"],
    ],
    "bench_kfunction.py": [["points", "correction", "numba s", "numpy s", "spatstat s", "K(rmax) vs R"]],
    "bench_kimlim_chicago.py": [
        ["eps", "method", "MISE (ft)", "MISE (m)", "npoints mean (sd)", "paper MISE", "paper npoints"],
        ["eps", "LGCP kappa", "LGCP pairs", "LGCP sigma", "Lap Delta", "Lap scale", "seconds"],
        ["synthesizer", "network", "events", "median s", "target s", "drawn"],
    ],
    "bench_kimlim_table1.py": [
        ["lambda", "eps", "method", "pMSE mean (sd)", "npoints", "MISE", "paper pMSE"],
        ["lambda", "eps", "method", "hom", "inhom", "inhom-renorm2", "inhom-own", "paper"],
        ["lambda", "eps", "alpha", "kernel k", "kernel h", "LGCP R", "Lap scale", "seconds"],
    ],
    "bench_large_mesh.py": [
        [
            "nodes",
            "pattern",
            "points",
            "method",
            "factor",
            "build s",
            "fit s",
            "CPU s",
            "Laplace fits",
            "rule",
            "peak RSS MB",
        ],
    ],
    "bench_lgcp.py": [
        ["seed", "seconds", "setup s", "ESS log range", "ESS log sigma", "min ESS", "max R-hat"],
        ["quantity", "fast mean", "MCMC mean", "diff/MCSE", "width fast/MCMC"],
        ["nodes", "points", "setup s", "fit s", "Laplace fits", "peak RSS MB"],
    ],
    "bench_marked.py": [
        ["stage", "seconds"],
        ["combination", "n", "mean share", "mean", "syn mean", "field sd", "noise sd"],
        ["risk", "median of medians", "max median", "undefined"],
    ],
    "bench_network.py": [["step", "size", "median s", "result"]],
    "bench_network_kfunction.py": [
        ["segments", "points", "correction", "numba s", "numpy s", "spatstat s", "K vs R"],
    ],
    "bench_previews.py": [["family", "method", "epsilons", "draws", "first s", "median s", "target s"]],
    "bench_pufferfish.py": [
        ["points", "numba s", "numpy s", "speed-up", "numba Mpts/s", "peak RSS MB"],
        ["cell size", "cells", "first s", "median s"],
    ],
    "bench_sweep.py": [["executor", "workers", "start s", "sweep s", "tasks s", "speed-up", "identical"]],
    "bench_walder_snow.py": [
        ["set", "paper sigma^2", "our sigma^2", "noise var", "max risk", "pMSE"],
        ["parameter", "confidential mean", "95% interval", "PRS mean"],
        ["radius", "baseline", "radial max risk", "ANS x base", "PRS x base"],
        ["mechanism", "mean", "s.e.", "x baseline", "p(>PRS)", "est. s.d."],
    ],
    # bench_pymc_export.py (both steps) and, when PyMC's own virtualenv exists, bench_pymc_run.py
    "bench_pymc.sh": [
        ["quantity", "ESS ours", "ESS/s ours", "ESS PyMC", "ESS/s PyMC", "ratio ours/PyMC"],
        ["quantity", "mean ours", "mean PyMC", "sd ours", "sd PyMC", "z"],
    ],
}
#: scripts run only through another one's smoke run
RUN_BY = {"bench_pymc_export.py": "bench_pymc.sh", "bench_pymc_run.py": "bench_pymc.sh"}
#: smoke runs of more than a few seconds (measured: about 15 s; bench_explorer.py about 11 s, the LGCP fit;
#: bench_sweep.py about 20 s, starting worker processes and a Dask LocalCluster)
SLOW = {"bench_explorer.py", "bench_walder_snow.py", "bench_sweep.py"}


def run_smoke(script: str, cwd: Path, **env) -> subprocess.CompletedProcess:
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "OPENBLAS_NUM_THREADS": "1", **env}
    command = ["bash"] if script.endswith(".sh") else [sys.executable]
    return subprocess.run(
        [*command, str(HERE / script), "--smoke"],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def has_header(stdout: str, columns: list[str]) -> bool:
    for line in stdout.splitlines():
        position = 0
        for column in columns:
            position = line.find(column, position)
            if position < 0:
                break
            position += len(column)
        else:
            return True
    return False


def test_every_benchmark_has_a_smoke_run():
    scripts = {p.name for p in HERE.iterdir() if p.suffix in (".py", ".sh") and p.name != Path(__file__).name}
    assert scripts == set(HEADERS) | set(RUN_BY)
    # and none is collected as a test module (pytest's default patterns: test_*.py, *_test.py)
    assert all(name.startswith("bench_") and not name.endswith("_test.py") for name in scripts)


@pytest.mark.parametrize(
    "script", [pytest.param(name, marks=[pytest.mark.slow] if name in SLOW else []) for name in sorted(HEADERS)]
)
def test_smoke_run(script, tmp_path):
    # The PyMC comparison never installs PyMC in a smoke run: with no PyMC virtualenv here, its step 2 is
    # skipped and the table repeats our own draws; what runs is the plugin's side (export, our sampler, table).
    env = {"SP_PROJECT_PY": sys.executable, "SP_PYMC_VENV": str(tmp_path / "no-pymc-venv")}
    result = run_smoke(script, tmp_path, **env)
    output = f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    assert result.returncode == 0, output
    for columns in HEADERS[script]:
        assert has_header(result.stdout, columns), (columns, output)
    if script == "bench_pymc.sh":
        assert "2. skipped (smoke run): no PyMC" in result.stdout, output
        assert "SMOKE RUN WITHOUT PyMC" in result.stdout, output
        assert not (tmp_path / "no-pymc-venv").exists()  # a smoke run never creates the PyMC virtualenv


def test_pymc_peer_says_it_needs_pymc(tmp_path):
    """bench_pymc_run.py runs only in the benchmark's own PyMC virtualenv (bench_pymc.sh --smoke runs its smoke
    mode when that exists); PyMC is never a plugin dependency, so here it must compile and, run with the
    project's interpreter, stop at once with a message that says where to run it."""
    script = HERE / "bench_pymc_run.py"
    py_compile.compile(str(script), cfile=str(tmp_path / "bench_pymc_run.pyc"), doraise=True)
    result = subprocess.run(
        [sys.executable, str(script), "--smoke", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode == 0:
        pytest.fail("PyMC is importable from the project's interpreter; it must not be a plugin dependency")
    assert "bench_pymc_run.py needs PyMC" in result.stderr and "bench_pymc.sh" in result.stderr, result.stderr
