#!/usr/bin/env python3
"""Benchmark of the linear-network core; prints a table (not a test, not run by pytest).

The street layer is synthetic but built like a real one: a grid of 73 x 73 streets, 100 m blocks, every
intersection moved by N(0, 8 m) and a vertex in the middle of every block (moved by N(0, 2 m)); each street is
drawn as several line features of about eight blocks whose ends meet only within 1e-3 m (so they must be
snapped: tolerance 0.01 m); one north-south street in ten is drawn with its vertices between the intersections,
so it crosses the east-west streets without shared vertices, and three diagonal avenues of 19 segments cross
everything without shared vertices. That is 20,513 input segments (22,318 edges once the crossings are split).
10,000 points are uniform in the layer's bounding box and placed on their nearest street.

Rows: building the network (snapping, joining, splitting crossings); placing the points; the resistance metric
between 1,000 and 1,000 other points (the sparse factorisation included: a new network each run) and between
1,000 pairs; shortest-path distances for the 10,000 points (dense 10,000 x 10,000, numba searches; 1,000 x
10,000 by scipy's Dijkstra, the fallback without numba) and all pairs within 500 m (what a K-function needs);
and the peer, spatstat's ``pairdist`` on the same network and points (``linnet`` from our vertices and edges,
``lpp`` from our edge and position of each point), timed inside R if ``Rscript`` with spatstat.linnet is
installed (one run), with the largest difference from our distances. Medians of several runs after a warm-up run (which
also compiles or loads numba's cache).

    .venv/bin/python tests/benchmarks/bench_network.py [--repeats 3] [--streets 73] [--points 10000]
        [--no-spatstat] [--smoke]

Measured here (2 shared cores, OPENBLAS_NUM_THREADS=1, median of 3): build 0.11 s (1,379 vertices snapped, 904
crossings split); placing 10,000 points 0.07 s; resistance metric 1,000 x 1,000 with its factorisation 0.54 s, so
build + resistance 1.2 s against the 30 s target; 1,000 pairs 0.16 s; shortest paths 10,000 x 10,000 dense 17.8 s
(numba; scipy's Dijkstra 9.9 s for 1,000 x 10,000), all 961,556 pairs within 500 m 0.26 s; spatstat's pairdist on
the same network and points 69.1 s, agreeing to 6e-11 m.

``--smoke``: a run of a few seconds through the same code (12 x 12 streets, 300 points, one run); its figures
mean nothing.
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

BLOCK = 100.0
TOLERANCE = 0.01
LIMIT = 500.0


def street_layer(n_streets: int, rng) -> list[np.ndarray]:
    """The synthetic street layer of the module docstring: a list of (k, 2) polylines (metres)."""
    n = n_streets
    grid = np.stack(np.meshgrid(np.arange(n) * BLOCK, np.arange(n) * BLOCK, indexing="ij"), -1)
    grid = grid + rng.normal(0, 0.08 * BLOCK, (n, n, 2))
    lines = []

    def street(points: np.ndarray, between: bool) -> list[np.ndarray]:
        if between:  # vertices only between the intersections: crosses the others without a shared vertex
            return [np.vstack([points[0], 0.5 * (points[1:] + points[:-1]), points[-1]])]
        middle = 0.5 * (points[1:] + points[:-1]) + rng.normal(0, 0.02 * BLOCK, (len(points) - 1, 2))
        vertices = np.empty((2 * len(points) - 1, 2))
        vertices[0::2], vertices[1::2] = points, middle
        cuts = np.sort(rng.choice(np.arange(2, len(vertices) - 2, 2), size=max(1, len(vertices) // 16), replace=False))
        parts = []
        for index in np.split(np.arange(len(vertices)), cuts):
            if index[-1] + 1 < len(vertices):
                index = np.append(index, index[-1] + 1)
            part = vertices[index].copy()
            part[0] += rng.normal(0, 1e-3, 2)  # features meet only within the snapping tolerance
            parts.append(part)
        return parts

    for j in range(n):
        lines += street(grid[:, j], False)
    for i in range(n):
        lines += street(grid[i, :], rng.random() < 0.1)
    side = (n - 1) * BLOCK
    for k in range(3):
        lines.append(np.linspace([0.0, k * side / 3], [side, side - k * side / 6], 20))
    return lines


def timed(function, repeats: int):
    """Median seconds of ``repeats`` runs after a warm-up run, and the last result."""
    result = function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


R_SCRIPT = r"""
suppressMessages(library(spatstat.linnet))
args <- commandArgs(trailingOnly = TRUE)
v <- read.csv(args[1]); e <- read.csv(args[2]); p <- read.csv(args[3]); repeats <- as.integer(args[4])
W <- owin(range(v$x), range(v$y))
L <- linnet(ppp(v$x, v$y, window = W, check = FALSE), edges = as.matrix(e), sparse = TRUE)
X <- lpp(data.frame(x = p$x, y = p$y, seg = p$seg, tp = p$tp), L)
t <- numeric(repeats)
for (k in seq_len(repeats)) t[k] <- system.time(D <- pairdist(X))[["elapsed"]]
write.table(D[1:min(200, nrow(D)), ], args[5], sep = ",", row.names = FALSE, col.names = FALSE)
cat(median(t), "\n")
"""


def spatstat_pairdist(net, points, repeats: int):
    """Median seconds of spatstat's pairdist on the same network and points, and its first rows; or None."""
    if shutil.which("Rscript") is None:
        return None
    x, y = points.xy(net)
    with tempfile.TemporaryDirectory() as tmp:
        files = [Path(tmp, name) for name in ("v.csv", "e.csv", "p.csv", "d.csv", "pairdist.R")]
        np.savetxt(files[0], net.vertices, delimiter=",", header="x,y", comments="", fmt="%.17g")
        np.savetxt(files[1], net.edges + 1, delimiter=",", header="a,b", comments="", fmt="%d")
        table = np.column_stack([x, y, points.edge + 1, points.t])
        np.savetxt(files[2], table, delimiter=",", header="x,y,seg,tp", comments="", fmt="%.17g")
        files[4].write_text(R_SCRIPT)
        command = ["Rscript", str(files[4]), *map(str, files[:3]), str(repeats), str(files[3])]
        out = subprocess.run(command, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            print("(spatstat peer skipped:", out.stderr.strip().splitlines()[-1:] or out.returncode, ")")
            return None
        return float(out.stdout.split()[0]), np.loadtxt(files[3], delimiter=",", ndmin=2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--streets", type=int, default=73, help="streets each way (default %(default)s)")
    parser.add_argument("--points", type=int, default=10_000)
    parser.add_argument("--no-spatstat", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.streets, args.points, args.repeats = 12, 300, 1

    from spatial_privacy.core.network.distances import point_distances, point_pairs_within
    from spatial_privacy.core.network.network import build_network
    from spatial_privacy.core.network.placement import place_points
    from spatial_privacy.core.network.resistance import resistance_distances, resistance_pairs

    rng = np.random.default_rng(2024)
    lines = street_layer(args.streets, rng)
    n_in = sum(len(line) - 1 for line in lines)
    net, report = build_network(lines, TOLERANCE)
    side = (args.streets - 1) * BLOCK
    points, moved = place_points(net, rng.uniform(0, side, args.points), rng.uniform(0, side, args.points))
    m = min(1000, args.points // 2)
    a, b = points.take(np.arange(m)), points.take(np.arange(m, 2 * m))

    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")  # fmt: skip
    print(
        f"street layer: {len(lines):,} line features, {n_in:,} segments -> {net.n_vertices:,} vertices, "
        f"{net.n_edges:,} edges, {net.total_length / 1000:.1f} km; {report.vertices_snapped:,} vertices snapped, "
        f"{report.crossings_split:,} crossings split, {report.ends_joined} ends joined, {net.n_components} component(s)"
    )
    print(f"{args.points:,} points moved {moved.mean():.1f} m on average; median of {args.repeats} runs")
    print(f"{'step':<46} {'size':>22} {'median s':>9} {'result':>28}")

    def row(step, size, seconds, result=""):
        print(f"{step:<46} {size:>22} {seconds:>9.3f} {result:>28}")

    build_s, _ = timed(lambda: build_network(lines, TOLERANCE), args.repeats)
    row("build: snap, join, split crossings", f"{n_in:,} segments", build_s, f"{net.n_edges:,} edges")

    place_s, _ = timed(lambda: place_points(net, *points.xy(net)), args.repeats)
    row("place points on the nearest street", f"{args.points:,} points", place_s, f"max moved {moved.max():.1f} m")

    def build_and_resistance():
        fresh, _ = build_network(lines, TOLERANCE)  # a new network: the factorisation is not cached
        start = time.perf_counter()
        return resistance_distances(fresh, a, b), time.perf_counter() - start

    total_s, (r, resistance_s) = timed(build_and_resistance, args.repeats)
    row("resistance metric (with factorisation)", f"{m:,} x {m:,}", resistance_s, f"median {np.median(r):.0f} m")
    row("build + resistance metric (target < 30 s)", f"{n_in:,} seg., {m:,}^2", total_s, "")
    pairs_s, pairs = timed(lambda: resistance_pairs(net, a, b), args.repeats)
    assert np.allclose(pairs, np.diag(r), rtol=1e-9)
    row("resistance metric between pairs (cached)", f"{m:,} pairs", pairs_s, f"median {np.median(pairs):.0f} m")

    dense_s, dense = timed(lambda: point_distances(net, points, points), args.repeats)
    row(
        "shortest paths, dense (numba)",
        f"{args.points:,} x {args.points:,}",
        dense_s,
        f"median {np.median(dense):.0f} m",
    )
    head = points.take(np.arange(m))
    scipy_s, rows = timed(lambda: point_distances(net, head, points, use_numba=False), max(1, args.repeats // 2))
    assert np.allclose(rows, dense[:m], rtol=1e-12)
    row("shortest paths, dense (scipy Dijkstra)", f"{m:,} x {args.points:,}", scipy_s, "same as numba")
    within_s, (i, _, _) = timed(lambda: point_pairs_within(net, points, points, LIMIT), args.repeats)
    row(f"shortest paths, pairs within {LIMIT:.0f} m", f"{args.points:,} points", within_s, f"{len(i):,} pairs")
    peer = None if args.no_spatstat else spatstat_pairdist(net, points, 1)  # about a minute a run at full size
    if peer is not None:
        seconds, first_rows = peer
        gap = np.abs(first_rows - dense[: len(first_rows)]).max()
        row("peer: spatstat pairdist", f"{args.points:,} x {args.points:,}", seconds, f"max diff {gap:.1e} m")
    return 0


if __name__ == "__main__":
    sys.exit(main())
