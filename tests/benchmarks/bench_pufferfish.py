#!/usr/bin/env python3
"""Benchmark of Pufferfish grid maps; prints tables (not a test, not run by pytest).

1. Core: bin and noise N points (N = 10^5 .. 10^7, uniform over 100 km x 100 km, r = 500 m,
   40,000 cells), numba kernel against the numpy fallback (the peer), median of several runs,
   and peak memory (process peak RSS, measured in a fresh child process per N).
2. Processing: spatialprivacy:pufferfishgrid on the 90,603 dwellings end to end (read the
   GeoPackage, compute, write a GeoPackage grid and the report), median of several runs.

    .venv/bin/python tests/benchmarks/bench_pufferfish.py [--repeats 5] [--max-exponent 7] [--smoke]

The processing part starts its own headless QGIS (QT_QPA_PLATFORM defaults to offscreen) and reads a copy of
the dwellings in a temporary folder, where it also writes its outputs. ``--smoke``: a run of a few seconds
through the same code (10^4 points in the core table, one run per cell size after the first); its figures
mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def make_points(n: int, seed: int = 0):
    import numpy as np

    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 100_000.0, n)
    y = rng.uniform(300_000.0, 400_000.0, n)
    t = rng.gamma(2.0, 500.0, n)
    return x, y, t


def core_once(n: int, use_numba: bool, repeats: int) -> dict:
    """Time pufferfish_grid on n points (in this process); report the median and peak RSS."""
    import numpy as np

    from spatial_privacy.core import pufferfish as pf
    from spatial_privacy.core.grid import GridSpec

    x, y, t = make_points(n)
    spec = GridSpec(500.0)
    settings = pf.PufferfishSettings(epsilon=1.0, interval=50.0, bounded=True, bounds_from_data=True)
    pf.pufferfish_grid(x[:1000], y[:1000], t[:1000], spec, settings, np.random.default_rng(0), use_numba=use_numba)
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        grid = pf.pufferfish_grid(x, y, t, spec, settings, np.random.default_rng(i), use_numba=use_numba)
        times.append(time.perf_counter() - start)
    return {
        "median": statistics.median(times),
        "min": min(times),
        "cells": len(grid.count),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def core_table(exponents: range, repeats: int) -> None:
    print("Core: bin + noise, uniform points, r = 500 m (40,000 cells); median of", repeats, "runs")
    print(f"{'points':>12} {'numba s':>9} {'numpy s':>9} {'speed-up':>9} {'numba Mpts/s':>13} {'peak RSS MB':>12}")
    previous = None
    for exponent in exponents:
        n = 10**exponent
        row = {}
        for engine in ("numba", "numpy"):
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(n), engine, str(repeats)],
                capture_output=True,
                text=True,
                check=True,
            )
            row[engine] = json.loads(out.stdout.strip().splitlines()[-1])
        fast, slow = row["numba"]["median"], row["numpy"]["median"]
        growth = f"  x{fast / previous:.1f} time for x10 points" if previous else ""
        print(
            f"{n:>12,} {fast:>9.3f} {slow:>9.3f} {slow / fast:>9.1f} {n / fast / 1e6:>13.1f} "
            f"{row['numba']['peak_rss_mb']:>12.0f}{growth}"
        )
        previous = fast


def processing_table(repeats: int) -> None:
    from qgis.core import QgsApplication

    QgsApplication.setPrefixPath(os.environ.get("QGIS_PREFIX_PATH", "/usr"), True)
    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing

    Processing.initialize()
    from qgis import processing  # run() is added to qgis.processing by Processing.initialize()

    from spatial_privacy.processing.provider import SpatialPrivacyProvider

    provider = SpatialPrivacyProvider()
    QgsApplication.processingRegistry().addProvider(provider)
    print()
    print("Processing: spatialprivacy:pufferfishgrid on dwellings (90,603 points), GeoPackage in and out;")
    print("median of", repeats, "runs (the first run, which also loads numba's cache, is reported separately)")
    print(f"{'cell size':>10} {'cells':>7} {'first s':>8} {'median s':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "dwellings.gpkg")  # a copy: SQLite writes beside a GeoPackage it opens
        shutil.copyfile(REPO / "tests" / "data" / "sdcspatial_dwellings.gpkg", source)
        for size in (500.0, 100.0):
            times, cells = [], 0
            for i in range(repeats + 1):
                params = {
                    "INPUT": f"{source}|layername=dwellings",
                    "FIELD": "consumption",
                    "CELL_SIZE": size,
                    "EPSILON": 1.0,
                    "INTERVAL": 100.0,
                    "BOUNDED": True,
                    "LOWER_BOUND": 0.0,
                    "UPPER_BOUND": 1e6,
                    "MARGIN": 100.0,
                    "OUTPUT": f"{tmp}/grid_{size}_{i}.gpkg",
                    "REPORT": f"{tmp}/report_{size}_{i}.html",
                }
                start = time.perf_counter()
                result = processing.run("spatialprivacy:pufferfishgrid", params)
                times.append(time.perf_counter() - start)
                cells = result["CELLS"]
            print(f"{size:>10.0f} {cells:>7} {times[0]:>8.2f} {statistics.median(times[1:]):>9.2f}")
    QgsApplication.processingRegistry().removeProvider(provider)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        n, engine, repeats = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
        print(json.dumps(core_once(n, engine == "numba", repeats)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--max-exponent", type=int, default=7)
    parser.add_argument("--skip-processing", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.repeats = 1
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    core_table(range(4, 5) if args.smoke else range(5, args.max_exponent + 1), args.repeats)
    if not args.skip_processing:
        processing_table(args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
