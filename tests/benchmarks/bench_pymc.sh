#!/usr/bin/env bash
# Our exact MCMC sampler (core.mcmc.fit_mcmc) against PyMC's NUTS on the John Snow LGCP: effective
# samples per second of the hyperparameters and coefficients (not a test; not run by pytest or CI).
#
# PyMC is installed ONLY into this benchmark's own virtualenv (never the project's .venv, never a
# plugin dependency), and the plugin never imports it:
#   1. bench_pymc_export.py export (project venv): build the model on a ~400-node mesh, export it to
#      model.npz with log posterior values at test points, run our sampler --repeats times;
#   2. bench_pymc_run.py (PyMC venv): rebuild the same model in PyMC, check its log posterior against
#      the exported values, run NUTS;
#   3. bench_pymc_export.py table (project venv): print the comparison.
#
#   tests/benchmarks/bench_pymc.sh [--smoke]
#
# --smoke: a run of a few seconds through the same steps (coarse mesh, short runs) in a temporary folder. It never
# creates the PyMC virtualenv: without one, step 2 is skipped with a message and step 3 puts our own draws in
# PyMC's columns (bench_pymc_export.py table --smoke), so the plugin's side and the table code still run.
#
# Environment (all optional):
#   SP_PYMC_VENV     PyMC virtualenv, created if missing         (default /tmp/sp-pymc-venv)
#   SP_PYMC_OUT      directory for the exported model and results (default /tmp/sp-pymc-bench)
#   SP_PYMC_PYTHON   interpreter the PyMC venv is created from    (default python3; 3.10-3.12)
#   SP_PROJECT_PY    the project's interpreter                    (default <repo>/.venv/bin/python)
#   SP_OURS_REPEATS  runs of our sampler                          (default 3)
#   SP_PYMC_REPEATS  runs of NUTS                                 (default 3)
#   SP_DRAWS         retained draws over both chains, both samplers (default 2000)
#   SP_PYMC_FIELD    eigen | cholesky: PyMC's map z -> w          (default eigen)
#   SP_PYMC_TUNE     NUTS tuning iterations per chain             (default 1000, PyMC's default)
set -euo pipefail

SMOKE=""
case "${1:-}" in
    "") ;;
    --smoke) SMOKE="--smoke" ;;
    *) echo "usage: $0 [--smoke]" >&2; exit 2 ;;
esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VENV="${SP_PYMC_VENV:-/tmp/sp-pymc-venv}"
OUT="${SP_PYMC_OUT:-/tmp/sp-pymc-bench}"
BASE_PY="${SP_PYMC_PYTHON:-python3}"
PROJECT_PY="${SP_PROJECT_PY:-$REPO/.venv/bin/python}"
OURS_REPEATS="${SP_OURS_REPEATS:-3}"
PYMC_REPEATS="${SP_PYMC_REPEATS:-3}"
DRAWS="${SP_DRAWS:-2000}"
FIELD="${SP_PYMC_FIELD:-eigen}"
TUNE="${SP_PYMC_TUNE:-1000}"

# One BLAS thread for both samplers (the machine is shared; our sampler is single-threaded by design).
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

# Everything PyMC needs, pinned (the set pip resolves for pymc==5.16.2 on Python 3.11).
PINS=(
    pymc==5.16.2 pytensor==2.25.5 arviz==0.23.4 numpy==1.26.4 scipy==1.17.1 pandas==3.0.6 xarray==2026.9.0
    xarray-einstats==0.9.1 h5netcdf==1.8.2 h5py==3.16.0 matplotlib==3.11.2 contourpy==1.3.3 cycler==0.12.1
    fonttools==4.68.0 kiwisolver==1.5.1 pillow==13.0.0 pyparsing==3.3.3 python-dateutil==4.0.0 tzdata==2026.6
    cachetools==8.0.0 cloudpickle==3.1.2 cons==0.4.7 etuples==0.3.10 filelock==4.2.11 logical-unification==0.4.7
    miniKanren==1.0.5 multipledispatch==1.0.0 toolz==1.2.0 packaging==26.3 platformdirs==4.14.5 rich==15.0.0
    markdown-it-py==4.3.0 mdurl==0.1.2 Pygments==2.21.0 threadpoolctl==3.8.0 typing_extensions==4.16.0
)

project_venv="$(cd "$REPO/.venv" 2>/dev/null && pwd -P || true)"
if [[ -n "$project_venv" && -d "$VENV" && "$(cd "$VENV" && pwd -P)" == "$project_venv" ]]; then
    echo "SP_PYMC_VENV must not be the project's virtualenv ($project_venv): PyMC is not a plugin dependency" >&2
    exit 2
fi

HAVE_PYMC=1
if ! "$VENV/bin/python" -c "import pymc, sys; sys.exit(pymc.__version__ != '5.16.2')" 2>/dev/null; then
    if [[ -n "$SMOKE" ]]; then
        HAVE_PYMC=""
    else
        echo "== creating the PyMC virtualenv $VENV"
        "$BASE_PY" -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet --require-virtualenv "${PINS[@]}"
    fi
fi
# Compiled pytensor code goes with the benchmark's venv, not the user's home.
export PYTENSOR_FLAGS="base_compiledir=$VENV/.pytensor${PYTENSOR_FLAGS:+,$PYTENSOR_FLAGS}"

if "$PROJECT_PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('pymc') is None)" 2>/dev/null; then
    echo "warning: pymc is importable from the project's interpreter $PROJECT_PY; it should not be" >&2
fi

if [[ -n "$SMOKE" ]]; then
    OUT="$(mktemp -d)"
    trap 'rm -rf "$OUT"' EXIT
    OURS_REPEATS=1 PYMC_REPEATS=1
fi
mkdir -p "$OUT"
echo "== 1. export the model and run our sampler ($OURS_REPEATS runs)"
"$PROJECT_PY" "$HERE/bench_pymc_export.py" export --out "$OUT" --draws "$DRAWS" --repeats "$OURS_REPEATS" $SMOKE

if [[ -n "$HAVE_PYMC" ]]; then
    echo "== 2. the same model in PyMC: log-posterior check, then NUTS ($PYMC_REPEATS runs)"
    "$VENV/bin/python" "$HERE/bench_pymc_run.py" --out "$OUT" --field "$FIELD" --tune "$TUNE" \
        --repeats "$PYMC_REPEATS" $SMOKE 2> >(grep -v "Using NumPy C-API based implementation for BLAS" >&2)
else
    echo "== 2. skipped (smoke run): no PyMC 5.16.2 in $VENV, and a smoke run never installs it;"
    echo "   run $0 without --smoke to create that virtualenv and compare with PyMC"
fi

echo "== 3. effective samples per second"
"$PROJECT_PY" "$HERE/bench_pymc_export.py" table --out "$OUT" $SMOKE
