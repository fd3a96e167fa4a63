#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: set-up (scripts/bootstrap.sh), then the demo, which
# runs the plugin's algorithms headless in QGIS on the bundled data and writes GeoPackages,
# GeoTIFFs, HTML reports and a PNG map into the folder given (default: demo_output/).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${SPATIAL_PRIVACY_VENV:-$repo/.venv}"
bash "$repo/scripts/bootstrap.sh"
export QT_QPA_PLATFORM=offscreen
exec "$venv/bin/python" "$repo/scripts/demo.py" "${1:-$repo/demo_output}"
