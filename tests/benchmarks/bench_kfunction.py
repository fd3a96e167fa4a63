#!/usr/bin/env python3
"""Benchmark of the K-function estimator; prints a table (not a test, not run by pytest).

Uniform points in a regular 12-gon of circumradius 1,000 m (area 3 km^2), 100 radii from 0 to
500 m (a quarter of the bounding box's short side, spatstat's larger default), each edge
correction; median of several runs after a warm-up run (which also compiles or loads numba's
cache). Engines: the numba kernel, the numpy fallback, and spatstat's ``Kest`` / ``Kinhom`` (the
peer, timed inside R with ``system.time`` if ``Rscript`` with spatstat is installed). The last
column is the relative difference between our K and spatstat's at the largest radius. (For
isotropic at 10,000 points it is ~2e-9, not ~1e-15: for 3 of the 8.8 million pairs the circle passes
within 1e-5 m of a polygon vertex, where spatstat 3.0-3's edge.Ripley (C ripleypoly) is off, e.g.
1.1423 instead of 1.2000 as dense sampling of the circle with Window.contains confirms.)

    .venv/bin/python tests/benchmarks/bench_kfunction.py [--repeats 5] [--sizes 1000 10000] [--rmax 500] [--no-spatstat]
        [--smoke]

``--smoke``: a run of a few seconds through the same code (300 points, one run); its figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
RADIUS = 1000.0
R_MAX = 500.0
N_RADII = 100
CASES = [("none", False), ("border", False), ("isotropic", False), ("isotropic", True)]


def polygon() -> np.ndarray:
    angle = 2 * np.pi * np.arange(12) / 12
    return np.column_stack([RADIUS * np.cos(angle), RADIUS * np.sin(angle)])


def intensity(x, y):
    """An inhomogeneous intensity for the Kinhom rows (points per m^2; only its shape matters here)."""
    return 1e-3 * np.exp(x / 1000.0)


def make_points(window, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    xs, ys = np.zeros(0), np.zeros(0)
    while xs.size < n:
        x = rng.uniform(-RADIUS, RADIUS, 2 * n)
        y = rng.uniform(-RADIUS, RADIUS, 2 * n)
        keep = window.contains(x, y)
        xs, ys = np.concatenate([xs, x[keep]]), np.concatenate([ys, y[keep]])
    return xs[:n], ys[:n]


def time_ours(x, y, window, radii, correction, inhom, use_numba, repeats):
    from spatial_privacy.core.metrics.kfunction import k_function

    lam = intensity if inhom else None
    result = k_function(x, y, window, radii, correction, lam, use_numba=use_numba)  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = k_function(x, y, window, radii, correction, lam, use_numba=use_numba)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result.K


R_SCRIPT = r"""
suppressMessages(library(spatstat))
args <- commandArgs(trailingOnly = TRUE)
pts <- read.csv(args[1]); poly <- read.csv(args[2]); repeats <- as.integer(args[3])
W <- owin(poly = list(x = poly$x, y = poly$y))
X <- ppp(pts$x, pts$y, window = W, check = FALSE)
r <- seq(0, %(rmax)s, length.out = %(nr)s)
lam <- 1e-3 * exp(pts$x / 1000)
run <- function(correction, inhom) {
  f <- if (inhom) function() Kinhom(X, lambda = lam, r = r, correction = correction, renormalise = FALSE)
       else function() Kest(X, r = r, correction = correction)
  K <- f()
  t <- replicate(repeats, system.time(K <- f())[["elapsed"]])
  column <- c(isotropic = "iso", none = "un", border = "border")[[correction]]
  cat(correction, inhom, median(t), sprintf("%%.15g", K[[column]][length(r)]), "\n")
}
run("none", FALSE); run("border", FALSE); run("isotropic", FALSE); run("isotropic", TRUE)
"""


def time_spatstat(x, y, r_max, repeats):
    """Median seconds per case from R, and K at the largest radius; ``None`` when R/spatstat is unavailable."""
    if shutil.which("Rscript") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        pts, poly, script = Path(tmp, "pts.csv"), Path(tmp, "poly.csv"), Path(tmp, "k.R")
        np.savetxt(pts, np.column_stack([x, y]), delimiter=",", header="x,y", comments="", fmt="%.17g")
        np.savetxt(poly, polygon(), delimiter=",", header="x,y", comments="", fmt="%.17g")
        script.write_text(R_SCRIPT % {"rmax": repr(r_max), "nr": N_RADII})
        out = subprocess.run(
            ["Rscript", str(script), str(pts), str(poly), str(repeats)], capture_output=True, text=True, check=False
        )
    if out.returncode != 0:
        print("(spatstat peer skipped:", out.stderr.strip().splitlines()[-1:] or out.returncode, ")")
        return None
    rows = {}
    for line in out.stdout.splitlines():
        correction, inhom, seconds, k_last = line.split()
        rows[(correction, inhom == "TRUE")] = (float(seconds), float(k_last))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rmax", type=float, default=R_MAX, help="largest radius, m (default %(default)s)")
    parser.add_argument("--no-spatstat", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.sizes, args.repeats = [300], 1

    from spatial_privacy.core.window import Window

    window = Window.from_polygons([polygon()])
    radii = np.linspace(0.0, args.rmax, N_RADII)
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")  # fmt: skip
    area = window.area / 1e6
    print(f"12-gon, area {area:.2f} km^2, {N_RADII} radii 0..{args.rmax:.0f} m; median of {args.repeats} runs")
    print(f"{'points':>7} {'correction':>16} {'numba s':>9} {'numpy s':>9} {'spatstat s':>11} {'K(rmax) vs R':>14}")
    for n in args.sizes:
        x, y = make_points(window, n)
        peer = None if args.no_spatstat else time_spatstat(x, y, args.rmax, args.repeats)
        for correction, inhom in CASES:
            fast, k_fast = time_ours(x, y, window, radii, correction, inhom, True, args.repeats)
            slow, k_slow = time_ours(x, y, window, radii, correction, inhom, False, max(1, args.repeats // 2))
            assert np.allclose(k_fast, k_slow, rtol=1e-9, equal_nan=True)
            label = correction + (" inhom" if inhom else "")
            if peer and (correction, inhom) in peer:
                seconds, k_last = peer[(correction, inhom)]
                r_text, diff = f"{seconds:>11.3f}", f"{abs(k_fast[-1] / k_last - 1):>14.1e}"
            else:
                r_text, diff = f"{'-':>11}", f"{'-':>14}"
            print(f"{n:>7,} {label:>16} {fast:>9.3f} {slow:>9.3f} {r_text} {diff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
