#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: set-up (scripts/bootstrap.sh), lint, then
# pytest in real headless QGIS. Extra arguments go to pytest (e.g. -k pufferfish).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${SPATIAL_PRIVACY_VENV:-$repo/.venv}"
bash "$repo/scripts/bootstrap.sh"
cd "$repo"
echo "== ruff"
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
echo "== flake8-qgis"  # the QGIS plugin and Qt 6 rules only, configured in pyproject.toml's [tool.flake8]
"$venv/bin/flake8" .
echo "== pytest"
export QT_QPA_PLATFORM=offscreen
exec "$venv/bin/pytest" "$@"
