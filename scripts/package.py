#!/usr/bin/env python3
"""Build the plugin zip QGIS's "Install from ZIP" accepts: one top-level folder spatial_privacy/.

Takes the files git tracks (so nothing stray is shipped) and leaves out what a user does not
need: tests, CI, scripts, build files and editor configuration.

    python3 scripts/package.py [--output dist/spatial_privacy-<version>.zip]
"""

from __future__ import annotations

import argparse
import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "spatial_privacy"
EXCLUDED_DIRS = ("tests/", "scripts/", "docs/", ".ci/", ".github/")
EXCLUDED_FILES = ("Makefile", "pyproject.toml", ".gitignore", ".gitattributes")


def shipped_files() -> list[str]:
    # safe.directory: root may package a clone owned by another user
    tracked = subprocess.run(
        ["git", "-c", f"safe.directory={ROOT}", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    return sorted(
        f for f in tracked if not f.startswith(EXCLUDED_DIRS) and f not in EXCLUDED_FILES and (ROOT / f).is_file()
    )


def version() -> str:
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt", encoding="utf-8")
    return meta["general"]["version"]


def build(output: Path) -> Path:
    output.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in shipped_files():
            archive.write(ROOT / name, f"{NAME}/{name}")
    return output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=ROOT / "dist" / f"{NAME}-{version()}.zip")
    args = parser.parse_args()
    path = build(args.output)
    with zipfile.ZipFile(path) as archive:
        count = len(archive.namelist())
    print(f"{path} ({count} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
