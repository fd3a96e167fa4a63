#!/usr/bin/env python3
"""Kim & Lim's Chicago study (Section 4.2, Table 2) with our network synthesizers, and their timings; prints tables
(not a test, not run by pytest).

**Data.** Kim & Lim: crimes reported in 2023 (Chicago Data Portal) in the box [-87.66, -87.655] x [41.80, 41.805]
(about 415 m x 555 m), duplicates removed: 85 distinct locations, on a street network they do not describe. Here:
spatstat's ``chicago`` (spatstat.data; Ang, Baddeley & Nair 2012): the 116 crimes reported in two weeks of 2002 near
the University of Chicago, already on a network of 503 segments (338 vertices, 31,150 ft = 9.5 km) in a box of
about 356 m x 342 m; feet. Other crimes, another year, another box and 36% more events: only the pattern of
Table 2 can be compared, not its numbers.

**Method** (for each epsilon in 0.1, 1, 10; delta = 1/n; ``--sets`` synthetic sets per synthesizer, 30 as in the
paper): the network cut into pieces of at most 50 m = 164.04 ft (514 pieces: 11 edges cut in two; 349 knots).

* LGCP: core/synthesis/network_lgcp.py (exponential correlation in the resistance metric, sigma^2 / l fixed by
  Theorem 3.8 on the pieces within alpha, Laplace-approximated posterior, one draw per set). Kim & Lim do not
  give alpha; ``--alpha`` (default 164.04 ft, one piece).
* Lap: core/synthesis/network_laplace.py on the pieces as they are (``min_piece_fraction = 0``, the paper's
  construction). Chicago's shortest edge is 9.46 ft and the next 10.79 ft, so Delta = 1/9.46 + 1/10.79 = 0.198
  per ft and the noise alone adds about |L| Delta / (2 epsilon) = 3,090 / epsilon events: far more than the paper's
  (1,443.6 - 85 at epsilon 0.1 suggests about 136 pieces of nearly equal length). "Lap (merged)" is the same
  synthesizer with the default ``min_piece_fraction = 0.25`` (pieces under 41 ft merged with a neighbour, 428
  regions, Delta = 0.048 per ft).

**Metric.** MISE (Kim & Lim Section 4.1) of the homogeneous network K-function with Ang's correction (spatstat's
``linearK`` default; core/metrics/network_kfunction.py) of each synthetic set against the original, on 100 radii
from 0 to linearK's default r_max (1,076 ft), averaged over the sets; npoints: mean (sd) of the synthetic counts.
The MISE is an integral over r, in units of length: printed in feet and in metres (the paper's radii are not
given; its units are probably metres). The K-function of a set of ~30,000 events (Lap at epsilon 0.1) takes about
15 s, so a full run takes about 10 minutes.

**Timings.** A Laplace synthesis on the 20,000-segment synthetic street layer of bench_network.py (73 x 73 streets,
10,000 events, 50 m pieces merged as by default; target < 5 s) and an LGCP synthesis on the same generator's layer
with about 4,000 pieces of at most 50 m (1,000 events; target < 60 s). Medians of ``--repeats`` runs.

**Measured** (default run, seed 1; 2 shared cores, load about 3; 10 minutes, 9.5 of them the K-functions of the
30,000-event sets):

      eps method         MISE (ft)  MISE (m)   npoints mean (sd) paper MISE    paper npoints
      0.1 LGCP             110.901    33.803       116.1 (10.27)     24.267     86.4 (10.57)
      0.1 Lap               64.938    19.793   30917.5 (3091.09)      8.288  1443.6 (182.15)
      0.1 Lap (merged)      63.327    19.302     7718.7 (869.41)          -                -
        1 LGCP             113.430    34.573       113.8 (10.29)     18.827     87.7 (12.42)
        1 Lap               65.854    20.072     3049.6 (186.45)      4.013    209.9 (24.55)
        1 Lap (merged)      56.295    17.159       812.5 (60.51)          -                -
       10 LGCP             112.480    34.284       115.4 (14.01)      8.284     83.8 (11.29)
       10 Lap               53.351    16.261       375.2 (32.27)      3.768      91.7 (9.19)
       10 Lap (merged)      41.341    12.601       175.8 (19.65)          -                -

    Laplace, eps 1 (pieces + draw)   20,513 seg., 33,309 pieces   10,000 events   0.052 s (target 5 s)
    LGCP, eps 1, delta 1/n, 50 m     25 x 25 streets, 4,009 pieces, 3,316 knots, 1,000 events   4.7 s (target 60 s)

The paper's pattern holds: Laplace's count explodes as epsilon falls (30,918 for 116 events at epsilon 0.1; the
paper 1,443.6 for 85), far more here because of Chicago's short edges (merging them cuts it by about 4), while
LGCP stays at n; and Laplace's MISE is below LGCP's at every epsilon. Unlike the paper's, our LGCP MISE does not
fall with epsilon: Theorem 3.8 summed over the 8,696 pairs of pieces within alpha leaves sigma = sqrt(kappa l)
below 0.01 even at epsilon 10 (kappa = 1.6e-7 per ft), so every LGCP set is close to a homogeneous Poisson pattern
with n events and its MISE is that of complete spatial randomness against Chicago's clustered crimes. The paper's
MISEs are smaller throughout; its radii and units are not given, and its data differ (above).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/benchmarks/bench_kimlim_chicago.py [--sets 30] [--alpha 164.04]
        [--seed 1] [--repeats 3] [--smoke]

``--smoke``: a run of a few seconds through the same code (epsilon 10 only, 2 sets, 20 radii, small layers); its
figures mean nothing.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "spatstat_chicago.gpkg"
FEET_PER_METRE = 1 / 0.3048
RESOLUTION = 50.0 * FEET_PER_METRE  # 164.04 ft
EPSILONS = (0.1, 1.0, 10.0)
METHODS = ("LGCP", "Lap", "Lap (merged)")
N_RADII = 100
PIECES_TARGET = 4000

#: Kim & Lim Table 2: (MISE, mean npoints, sd npoints); the original pattern has 85 events
PAPER_N = 85
PAPER = {
    (0.1, "LGCP"): (24.267, 86.4, 10.57),
    (0.1, "Lap"): (8.288, 1443.6, 182.15),
    (1.0, "LGCP"): (18.827, 87.7, 12.42),
    (1.0, "Lap"): (4.013, 209.9, 24.55),
    (10.0, "LGCP"): (8.284, 83.8, 11.29),
    (10.0, "Lap"): (3.768, 91.7, 9.19),
}


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chicago():
    """spatstat's chicago: the network and the crimes placed on it."""
    from spatial_privacy.core.network.domain import NetworkDomain
    from spatial_privacy.core.network.network import build_network

    readers = _load("core_conftest", HERE.parent / "core" / "conftest.py")  # the tests' GeoPackage readers
    net, _ = build_network(readers.read_gpkg_lines(DATA, "streets"), 0.0)
    x, y, _ = readers.read_gpkg_points(DATA, "crimes", "fid")
    domain = NetworkDomain(net)
    return domain, domain.place(x, y)


def timed(function, repeats: int):
    """Median seconds of ``repeats`` runs and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def study(args) -> None:
    from spatial_privacy.core.metrics.network_kfunction import default_network_radii, network_k_function, network_mise
    from spatial_privacy.core.synthesis.laplace_cox import laplace_guarantee
    from spatial_privacy.core.synthesis.network_laplace import synthesize_network_laplace
    from spatial_privacy.core.synthesis.network_lgcp import synthesize_network_lgcp

    domain, crimes = chicago()
    net, n = domain.net, len(crimes)
    radii = default_network_radii(net, args.radii)
    k_original = network_k_function(net, crimes, radii)
    partitions = {"Lap": domain.partition(RESOLUTION, 0.0), "Lap (merged)": domain.partition(RESOLUTION)}
    rng = np.random.default_rng(args.seed)
    print(
        f"spatstat chicago: {n} crimes, {net.n_edges} segments, |L| = {net.total_length:,.0f} ft; pieces of at most "
        f"{RESOLUTION:.2f} ft: {len(partitions['Lap'].pieces)} pieces, {partitions['Lap'].n_knots} knots "
        f"({partitions['Lap (merged)'].n_regions} regions merged); {args.sets} sets per method; alpha = "
        f"{args.alpha:g} ft (the paper gives none); delta = 1/n = {1 / n:.4g}; radii 0 .. {radii[-1]:.0f} ft "
        f"({radii.size}); seed {args.seed}"
    )
    print()
    rows, params = [], []
    for eps in args.epsilons:
        start = time.perf_counter()
        result = {}
        for method in METHODS:
            errors, counts, sigmas, kappa, pairs = [], [], [], float("nan"), 0
            for _ in range(args.sets):
                if method == "LGCP":
                    out = synthesize_network_lgcp(
                        crimes, domain, rng, epsilon=eps, delta=1 / n, alpha=args.alpha, resolution=RESOLUTION
                    )
                    kappa, pairs = out.calibration.kappa, out.calibration.pairs
                    sigmas.append(out.sigma)
                else:
                    out = synthesize_network_laplace(crimes, partitions[method], rng, epsilon=eps)
                counts.append(len(out.points))
                if len(out.points) >= 2:
                    errors.append(network_mise(network_k_function(net, out.points, radii), k_original))
            mise = float(np.mean(errors)) if errors else float("nan")
            result[method] = (mise, float(np.mean(counts)), float(np.std(counts)), kappa, pairs, sigmas)
        seconds = time.perf_counter() - start
        for method in METHODS:
            rows.append((eps, method, *result[method][:3]))
        lap = laplace_guarantee(partitions["Lap"].region_measure, eps)
        merged = laplace_guarantee(partitions["Lap (merged)"].region_measure, eps)
        lgcp = result["LGCP"]
        params.append((eps, lgcp[3], lgcp[4], float(np.median(lgcp[5])), lap, merged, seconds))

    header = (
        f"{'eps':>5} {'method':<13} {'MISE (ft)':>10} {'MISE (m)':>9} {'npoints mean (sd)':>19} "
        f"{'paper MISE':>10} {'paper npoints':>16}"
    )
    print(header)
    print("-" * len(header))
    for eps in args.epsilons:
        print(f"{eps:5g} {'Ori':<13} {'-':>10} {'-':>9} {n:>19} {'-':>10} {PAPER_N:>16}")
        for e, method, mise_ft, mean, sd in rows:
            if e != eps:
                continue
            paper = PAPER.get((eps, method))
            paper_mise = f"{paper[0]:10.3f}" if paper else f"{'-':>10}"
            paper_n = f"{paper[1]:.1f} ({paper[2]:.2f})" if paper else "-"
            print(
                f"{eps:5g} {method:<13} {mise_ft:10.3f} {mise_ft / FEET_PER_METRE:9.3f} "
                f"{f'{mean:.1f} ({sd:.2f})':>19} {paper_mise} {paper_n:>16}"
            )
    print()
    header = (
        f"{'eps':>5} {'LGCP kappa':>11} {'LGCP pairs':>10} {'LGCP sigma':>10} {'Lap Delta':>10} {'Lap scale':>10} "
        f"{'merged Delta':>12} {'merged scale':>12} {'seconds':>8}"
    )
    print(header)
    print("-" * len(header))
    for eps, kappa, pairs, sigma, lap, merged, seconds in params:
        print(
            f"{eps:5g} {kappa:11.3g} {pairs:10d} {sigma:10.3g} {lap.sensitivity:10.4g} {lap.noise_scale:10.4g} "
            f"{merged.sensitivity:12.4g} {merged.noise_scale:12.4g} {seconds:8.1f}"
        )
    print(
        "kappa = sigma^2 / l (log-intensity^2 per ft), sigma = sqrt(kappa l) (median over the sets' drawn l); "
        "Delta per ft; scale = Delta / epsilon (events per ft)."
    )
    print()


def timings(args) -> None:
    from bench_network import BLOCK, TOLERANCE, street_layer

    from spatial_privacy.core.network.domain import NetworkDomain
    from spatial_privacy.core.network.network import build_network
    from spatial_privacy.core.network.placement import place_points
    from spatial_privacy.core.synthesis.network_laplace import synthesize_network_laplace
    from spatial_privacy.core.synthesis.network_lgcp import synthesize_network_lgcp

    metres = 50.0

    def layer(streets: int, events: int):
        rng = np.random.default_rng(2024)
        lines = street_layer(streets, rng)
        net, _ = build_network(lines, TOLERANCE)
        side = (streets - 1) * BLOCK
        points, _ = place_points(net, rng.uniform(0, side, events), rng.uniform(0, side, events))
        return lines, NetworkDomain(net), points

    header = f"{'synthesizer':<34} {'network':>42} {'events':>7} {'median s':>9} {'target s':>9} {'drawn':>8}"
    print(header)
    print("-" * len(header))
    lines, domain, points = layer(args.streets, args.events)
    n_segments = sum(len(line) - 1 for line in lines)

    def laplace():
        partition = domain.partition(metres)
        return partition, synthesize_network_laplace(points, partition, np.random.default_rng(1), epsilon=1.0)

    seconds, (partition, out) = timed(laplace, args.repeats)
    size = f"{n_segments:,} seg., {len(partition.pieces):,} pieces"
    drawn = len(out.points)
    print(f"{'Laplace, eps 1 (pieces + draw)':<34} {size:>42} {len(points):>7,} {seconds:9.3f} {5:9d} {drawn:8,}")

    streets = 8 if args.smoke else 12
    while True:  # the generator's smallest layer with at least PIECES_TARGET pieces of at most 50 m
        candidate = layer(streets, 0)[1]
        if args.smoke or len(candidate.partition(metres, 0.0).pieces) >= PIECES_TARGET:
            break
        streets += 1
    lines, domain, points = layer(streets, args.lgcp_events)
    n = len(points)

    def lgcp():
        return synthesize_network_lgcp(
            points, domain, np.random.default_rng(1), epsilon=1.0, delta=1 / n, alpha=metres, resolution=metres
        )

    seconds, out = timed(lgcp, args.repeats)
    pieces = len(out.partition.pieces)
    size = f"{streets}x{streets} streets, {pieces:,} pieces, {out.partition.n_knots:,} kn."
    print(f"{'LGCP, eps 1, delta 1/n, alpha 50 m':<34} {size:>42} {n:>7,} {seconds:9.3f} {60:9d} {len(out.points):8,}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=int, default=30, help="synthetic sets per method and epsilon")
    parser.add_argument("--alpha", type=float, default=RESOLUTION, help="alpha in feet (default: 50 m)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing row")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    args.epsilons, args.radii, args.streets, args.events, args.lgcp_events = EPSILONS, N_RADII, 73, 10_000, 1_000
    if args.smoke:
        args.epsilons, args.sets, args.radii, args.repeats = (10.0,), 2, 20, 1
        args.streets, args.events, args.lgcp_events = 10, 300, 100
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")  # fmt: skip
    print("Kim & Lim's Chicago study (Table 2) on spatstat's chicago; data and method: see the docstring")
    print()
    study(args)
    timings(args)
    if args.smoke:
        print("SMOKE RUN: the figures mean nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
