#!/usr/bin/env bash
# Set up everything the demo and the tests need on a fresh Debian 12 machine:
# Debian's QGIS (python3-qgis, qgis_process), a virtual environment that can see it
# (--system-site-packages) and the pinned pip packages in scripts/requirements.txt.
# Running it again is fast and harmless: each step is skipped when already done.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${SPATIAL_PRIVACY_VENV:-$repo/.venv}"
apt_packages=(python3-qgis qgis qgis-providers python3-venv python3-pip python3-numpy
              python3-scipy python3-shapely python3-pyproj python3-matplotlib python3-gdal
              qttools5-dev-tools xvfb xauth git)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "These Debian packages are missing: ${missing[*]}" >&2
    echo "Run this as root, then run this command again:" >&2
    echo "  $cmd" >&2
    echo "(with sudo: sudo sh -c '$cmd')" >&2
    exit 1
  fi
  echo "Installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# QGIS's Python bindings are built for Debian's own interpreter, so the venv must use it. A venv made
# with another Python (or left half-made by an interrupted run) cannot import QGIS or pip: remake it.
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import qgis.core, pip' >/dev/null 2>&1; then
  echo "Recreating $venv: it cannot import QGIS or pip (made with another Python, or interrupted)"
  /usr/bin/python3 -m venv --clear --system-site-packages "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "Creating virtual environment $venv (with system site packages, so QGIS imports)"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$repo/scripts/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing pinned Python packages"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$repo/scripts/requirements.txt"
  echo "$want" > "$stamp"
fi

# The repository root is the plugin package. Expose it as `spatial_privacy` through a link
# in a folder of the venv, so tests import it by its real name and the checkout's own folder
# never lands on sys.path (its processing/ would shadow QGIS's processing module).
pkgdir="$venv/plugin_path"
mkdir -p "$pkgdir"
ln -sfn "$repo" "$pkgdir/spatial_privacy"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
printf '%s\n%s\n' "$pkgdir" "/usr/share/qgis/python/plugins" > "$site/spatial_privacy_dev.pth"

"$venv/bin/python" - <<'PY'
import importlib
import numpy, scipy, qgis.core  # noqa: F401  (fail loudly here, not inside a test)
for name in ("numba", "pytest", "pytest_qgis"):
    importlib.import_module(name)
print("environment ready: QGIS", qgis.core.Qgis.QGIS_VERSION, "numpy", numpy.__version__)
PY
