#!/usr/bin/env python3
"""Benchmark of the K-function on a linear network; prints a table (not a test, not run by pytest).

Network: a street grid of k x k blocks of 100 m whose crossings are jittered by up to 20 m (seeded), k = 40 by
default: 1,681 vertices and 3,280 segments (333 km). Events: independent uniform locations on it. Radii:
100, from 0 to spatstat's default ``r_max`` (0.98 times the bounding radius, 3,606 m here: nearly every pair
counts). Engines: the numba kernel (median of several runs after a warm-up run, which also compiles or loads
numba's cache), the numpy fallback (one run), and spatstat's ``linearK`` (the peer, timed inside R with
``system.time`` when ``Rscript`` with spatstat.linnet is installed; building its ``linnet``, with the dense
matrix of vertex distances ``linearK`` needs, is timed apart). "K vs R" is the largest relative difference
between our K and spatstat's over the radii > 0.

spatstat's Ang correction calls ``countends`` once per point with every other point as a centre, each call
visiting the whole network: its time grows as n^2 times the network's size, about 53 s for 1,000 events here and
an estimated 1.5 hours for 10,000. It is therefore run only up to ``--spatstat-ang-max`` events and extrapolated
(as n^2, marked "est.") beyond. A second part times our kernel alone on a 100 x 100 grid (20,200 segments).

Measured (default run; 2 cores shared with other jobs, load 3-5; numba 0.60, spatstat 3.0-3, R 4.2.2):

    segments  points correction   numba s   numpy s       spatstat s    K vs R
       3,280   1,000       none     0.161     0.553            0.114   2.2e-16
       3,280   1,000        Ang     0.395     2.105           53.354   2.4e-15
       3,280  10,000       none     1.193     9.471           62.553   2.2e-16
       3,280  10,000        Ang     6.310    53.982    ~5,335 (est.)         -
      20,200  10,000       none    11.544         -                -         -
      20,200  10,000        Ang    16.117         -                -         -

spatstat's linnet took 1.93 s more. On a quieter machine the 10,000-event Ang row takes 3.1-3.5 s (numba) and
18.7 s (numpy). spatstat's "none" at 10,000 events is slow for its dense 10,000 x 10,000 distance matrix.

    .venv/bin/python tests/benchmarks/bench_network_kfunction.py [--repeats 3] [--sizes 1000 10000] [--grid 40]
        [--spatstat-ang-max 1000] [--large-grid 100] [--no-spatstat] [--smoke]

``--smoke``: a run of a few seconds through the same code (a 6 x 6 grid, 200 events); its figures mean nothing.
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
JITTER = 0.2
N_RADII = 100
CORRECTIONS = ("none", "Ang")


def grid_network(k: int, seed: int = 1):
    """k x k blocks of BLOCK metres, crossings jittered by up to JITTER * BLOCK."""
    from spatial_privacy.core.network.network import LinearNetwork

    rng = np.random.default_rng(seed)
    i, j = np.meshgrid(np.arange(k + 1), np.arange(k + 1))
    ij = np.column_stack([i.ravel(), j.ravel()]).astype(float)  # vertex j * (k + 1) + i
    vertices = ij * BLOCK + rng.uniform(-JITTER, JITTER, ij.shape) * BLOCK
    index = np.arange((k + 1) ** 2).reshape(k + 1, k + 1)  # [j, i]
    across = np.column_stack([index[:, :-1].ravel(), index[:, 1:].ravel()])
    up = np.column_stack([index[:-1, :].ravel(), index[1:, :].ravel()])
    return LinearNetwork.from_segments(vertices, np.concatenate([across, up]))


def uniform_points(net, n: int, seed: int = 2):
    from spatial_privacy.core.network.network import NetworkPoints

    rng = np.random.default_rng(seed)
    s = rng.uniform(0.0, net.total_length, n)
    ends = np.cumsum(net.lengths)
    edge = np.minimum(np.searchsorted(ends, s, side="right"), net.n_edges - 1)
    t = (s - (ends[edge] - net.lengths[edge])) / net.lengths[edge]
    return NetworkPoints(edge, np.clip(t, 0.0, 1.0))


def time_ours(net, points, radii, correction, use_numba, repeats):
    """Median seconds of ``repeats`` runs (after a warm-up run when ``repeats > 1``) and the last K."""
    from spatial_privacy.core.metrics.network_kfunction import network_k_function

    if repeats > 1:
        network_k_function(net, points, radii, correction, use_numba=use_numba)  # compiles or loads numba's cache
    times = []
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        result = network_k_function(net, points, radii, correction, use_numba=use_numba)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result.K


R_SCRIPT = r"""
suppressMessages(library(spatstat))
a <- commandArgs(trailingOnly = TRUE)
folder <- a[1]; rmax <- as.numeric(a[2]); repeats <- as.integer(a[3])
none_sizes <- as.integer(strsplit(a[4], ",")[[1]]); ang_sizes <- as.integer(strsplit(a[5], ",")[[1]])
v <- read.csv(file.path(folder, "v.csv")); e <- read.csv(file.path(folder, "e.csv"))
p <- read.csv(file.path(folder, "p.csv"))
W <- owin(range(v$x), range(v$y))
build <- system.time(L <- linnet(ppp(v$x, v$y, window = W), edges = as.matrix(e), sparse = FALSE))[["elapsed"]]
cat("linnet", nsegments(L), build, "\n")
r <- seq(0, rmax, length.out = %(nr)d)
run <- function(correction, n, times) {
  X <- lpp(data.frame(seg = p$seg[seq_len(n)], tp = p$tp[seq_len(n)]), L)
  K <- NULL
  t <- replicate(times, system.time(K <<- linearK(X, r = r, correction = correction))[["elapsed"]])
  cat(correction, n, median(t), sprintf("%%.17g", K$est), "\n")
}
for (n in none_sizes) if (n > 1) run("none", n, repeats)
for (n in ang_sizes) if (n > 1) run("Ang", n, 1)
"""


def time_spatstat(net, points, r_max, repeats, none_sizes, ang_sizes):
    """{(correction, n): (median seconds, K)} and the linnet build time from R; ``None`` without R/spatstat."""
    if shutil.which("Rscript") is None:
        return None
    x, y = points.xy(net)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        np.savetxt(folder / "v.csv", net.vertices, delimiter=",", header="x,y", comments="", fmt="%.17g")
        np.savetxt(folder / "e.csv", net.edges + 1, delimiter=",", header="from,to", comments="", fmt="%d")
        table = np.column_stack([x, y, points.edge + 1, points.t])
        np.savetxt(folder / "p.csv", table, delimiter=",", header="x,y,seg,tp", comments="", fmt="%.17g")
        (folder / "k.R").write_text(R_SCRIPT % {"nr": N_RADII})
        sizes = [",".join(str(n) for n in none_sizes) or "0", ",".join(str(n) for n in ang_sizes) or "0"]
        command = ["Rscript", str(folder / "k.R"), str(folder), repr(r_max), str(repeats), *sizes]
        out = subprocess.run(command, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        print("(spatstat peer skipped:", out.stderr.strip().splitlines()[-1:] or out.returncode, ")")
        return None
    rows, build = {}, None
    for line in out.stdout.splitlines():
        words = line.split()
        if words[0] == "linnet":
            build = float(words[2])
        elif words[0] in CORRECTIONS:
            rows[(words[0], int(words[1]))] = (float(words[2]), np.array([float(w) for w in words[3:]]))
    return rows, build


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--grid", type=int, default=40, help="blocks per side of the grid (default %(default)s)")
    parser.add_argument("--spatstat-ang-max", type=int, default=1000, help="most events for spatstat's Ang run")
    parser.add_argument("--large-grid", type=int, default=100, help="blocks per side of the larger grid (0: skip)")
    parser.add_argument("--no-spatstat", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.sizes, args.repeats, args.grid, args.spatstat_ang_max, args.large_grid = [200], 1, 6, 200, 8

    from spatial_privacy.core.metrics.network_kfunction import default_network_radii

    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")  # fmt: skip
    net = grid_network(args.grid)
    radii = default_network_radii(net, N_RADII)
    sizes = sorted(set(args.sizes))
    points = uniform_points(net, max(sizes))
    print(f"grid of {args.grid} x {args.grid} blocks: {net.n_vertices:,} vertices, {net.n_edges:,} segments, "
          f"{net.total_length / 1000:.0f} km; {N_RADII} radii 0..{radii[-1]:.0f} m; numba: median of {args.repeats} "
          "runs, numpy: one run")  # fmt: skip
    ang_sizes = [n for n in sizes if n <= args.spatstat_ang_max] or [min(sizes[0], args.spatstat_ang_max)]
    if args.no_spatstat:
        peer, build = None, None
    else:
        found = time_spatstat(net, points, float(radii[-1]), args.repeats, sizes, ang_sizes)
        peer, build = found if found else (None, None)
    if build is not None:
        print(f"spatstat linnet (with its dense vertex distance matrix): {build:.2f} s")
    header = (
        f"{'segments':>9} {'points':>7} {'correction':>10} {'numba s':>9} {'numpy s':>9} {'spatstat s':>16} "
        f"{'K vs R':>9}"
    )
    print(header)
    largest_ang = max((n for c, n in (peer or {}) if c == "Ang"), default=None)
    for n in sorted(set(sizes) | set(ang_sizes)):
        sub = points.take(np.arange(n))
        for correction in CORRECTIONS:
            fast, k_fast = time_ours(net, sub, radii, correction, True, args.repeats)
            slow, k_slow = time_ours(net, sub, radii, correction, False, 1)
            assert np.allclose(k_fast, k_slow, rtol=1e-9)
            r_text, diff = f"{'-':>16}", f"{'-':>9}"
            if peer and (correction, n) in peer:
                seconds, k_r = peer[(correction, n)]
                r_text = f"{seconds:>16.3f}"
                diff = f"{np.max(np.abs(k_fast[1:] / k_r[1:] - 1)):>9.1e}"
            elif peer and correction == "Ang" and largest_ang:
                estimate = peer[("Ang", largest_ang)][0] * (n / largest_ang) ** 2
                r_text = f"{'~' + format(estimate, ',.0f') + ' (est.)':>16}"
            print(f"{net.n_edges:>9,} {n:>7,} {correction:>10} {fast:>9.3f} {slow:>9.3f} {r_text} {diff}")
    if args.large_grid:
        large = grid_network(args.large_grid)
        radii = default_network_radii(large, N_RADII)
        n = max(sizes)
        sub = uniform_points(large, n)
        print(f"larger grid: {large.n_edges:,} segments, {N_RADII} radii 0..{radii[-1]:.0f} m; numba only")
        print(header)
        for correction in CORRECTIONS:
            fast, _ = time_ours(large, sub, radii, correction, True, max(2, args.repeats // 2))
            print(f"{large.n_edges:>9,} {n:>7,} {correction:>10} {fast:>9.3f} {'-':>9} {'-':>16} {'-':>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
