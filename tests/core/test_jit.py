"""core.jit: a numba cache that cannot be read, written or placed never breaks a run.

Each case runs a numba-backed algorithm (grid binning) in a fresh interpreter on a copy of the plugin in a temporary
folder, so numba's cache there is the test's own: the plugin's real ``__pycache__`` is not touched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spatial_privacy.core.jit import HAVE_NUMBA

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed")

PLUGIN = Path(__file__).resolve().parents[2]

BIN_POINTS = """
import importlib, json, sys
import numpy as np

grid = importlib.import_module(sys.argv[1] + ".core.grid")
jit = importlib.import_module(sys.argv[1] + ".core.jit")
if len(sys.argv) > 2:  # the cache folder numba picked at import stops being one before the first compilation
    import shutil
    shutil.rmtree(sys.argv[2])
    open(sys.argv[2], "w").close()
rng = np.random.default_rng(7)
x, y, t = rng.uniform(0, 100, 500), rng.uniform(0, 100, 500), rng.uniform(0, 1, 500)
spec = grid.GridSpec(10.0)
fast, slow = (grid.bin_points(x, y, t, spec, use_numba=use) for use in (True, False))
same = all(np.array_equal(getattr(fast, k), getattr(slow, k)) for k in ("ix", "iy", "count", "total"))
print(json.dumps({"same": bool(same), "notes": getattr(jit, "take_cache_notes", list)()}))
"""


@pytest.fixture
def plugin_copy(tmp_path):
    """A copy of the plugin's core as ``tmp/a/spatial_privacy``, and an environment whose numba caches are in
    ``tmp`` (``XDG_CACHE_HOME`` for numba's user-wide folder)."""
    package = tmp_path / "a" / "spatial_privacy"
    package.mkdir(parents=True)
    shutil.copy(PLUGIN / "__init__.py", package / "__init__.py")
    shutil.copytree(PLUGIN / "core", package / "core", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    return package, env


def _run(path: Path, env: dict, name: str = "spatial_privacy", *extra: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", BIN_POINTS, name, *extra],
        capture_output=True,
        text=True,
        timeout=300,
        env={**env, "PYTHONPATH": str(path)},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["same"]
    # the one log line of each note, on stderr through logging's last resort
    assert [line for line in done.stderr.splitlines() if "numba" in line] == result["notes"], done.stderr
    return result


def _cache_files(package: Path, suffix: str) -> list[Path]:
    return sorted((package / "core" / "__pycache__").glob(f"grid._dense_bin_kernel-*{suffix}"))


def test_a_cache_written_under_another_package_name_is_compiled_afresh(plugin_copy, tmp_path):
    """The plugin imported once as ``other_name`` (a second install, a development link) leaves a cache in its
    ``__pycache__`` whose loading imports ``other_name``: under ``spatial_privacy`` the run compiles afresh with
    one note, rewrites the cache, and the next session is quiet."""
    package, env = plugin_copy
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "other_name").symlink_to(package, target_is_directory=True)
    assert _run(tmp_path / "b", env, "other_name")["notes"] == []
    assert _cache_files(package, ".nbi")
    notes = _run(tmp_path / "a", env)["notes"]
    assert len(notes) == 1 and "other_name" in notes[0] and "compiling afresh" in notes[0]
    assert _run(tmp_path / "a", env)["notes"] == []


@pytest.mark.parametrize(
    "damage",
    ["index emptied", "index garbage", "code truncated"],
)
def test_a_corrupt_cache_is_compiled_afresh_and_rewritten(plugin_copy, tmp_path, damage):
    """A cache truncated by a full disk or a killed process, or overwritten with garbage: one note, the same
    result, and the cache is whole again for the next session."""
    package, env = plugin_copy
    assert _run(tmp_path / "a", env)["notes"] == []
    files = _cache_files(package, ".nbi" if damage.startswith("index") else ".nbc")
    assert files
    for path in files:
        data = path.read_bytes()
        path.write_bytes(
            b"" if damage == "index emptied" else bytes(range(256))[:50] if "garbage" in damage else data[:100]
        )
    notes = _run(tmp_path / "a", env)["notes"]
    assert len(notes) == 1 and "cannot be read" in notes[0]
    assert _run(tmp_path / "a", env)["notes"] == []


def _not_writable(path: Path, how: str) -> None:
    if how == "read-only":
        path.mkdir(parents=True, exist_ok=True)
        path.chmod(0o555)
    else:  # a file where the folder would be: what root, who may write anywhere, cannot make a folder of either
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")


@pytest.mark.parametrize("how", ["read-only", "not a folder"])
def test_without_any_writable_cache_folder_the_code_is_compiled_each_session(plugin_copy, tmp_path, how):
    """A plugin folder installed read-only, and the user's cache folder read-only too: numba has nowhere to keep its
    cache (it refuses to even set up the function); the run compiles without a cache, with one note."""
    if how == "read-only" and hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    package, env = plugin_copy
    _not_writable(package / "core" / "__pycache__", how)
    _not_writable(tmp_path / "user-cache", how)
    try:
        for _ in range(2):
            notes = _run(tmp_path / "a", env)["notes"]
            assert len(notes) == 1 and "cannot keep compiled code on disk" in notes[0]
    finally:
        for path in (package / "core" / "__pycache__", tmp_path / "user-cache"):
            if path.is_dir():
                path.chmod(0o755)


def test_a_cache_folder_that_stops_being_writable_is_not_written(plugin_copy, tmp_path):
    """``NUMBA_CACHE_DIR`` usable when the plugin is imported, gone before the first compilation (a removed or
    read-only mount): the run goes on without writing the cache, with one note."""
    package, env = plugin_copy
    cache = tmp_path / "numba-cache"
    env["NUMBA_CACHE_DIR"] = str(cache)
    notes = _run(tmp_path / "a", env, "spatial_privacy", str(cache))["notes"]
    assert len(notes) == 1 and str(cache) in notes[0]  # it can be neither read nor written: one note says so
    assert not list((package / "core").glob("__pycache__/*.nbi"))
