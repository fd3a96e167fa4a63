#!/usr/bin/env python3
"""Benchmark of the privacy explorer's preview curves (core.previews); prints a table (not a test).

The issue's bars: a Pufferfish curve under 1 s on the 90,603 dwellings (cells of 500 m, counts binned once and
not timed, as the explorer keeps them between knob moves), DP points (Laplace, kernel) under 3 s on John Snow's 578
deaths (window: bounding box + 5 %, alpha = 0.1 map units, about 10 m), for 25 epsilons from chosen/10 to 10 x
chosen around epsilon = 1. Also the DP counts curve on the 95 dwelling areas (20 draws per epsilon) and the LGCP
synthesizer (a few epsilons: each point of its curve fits an LGCP). "first s" includes numba's compilation or
cache load; "median s" is the median of the later runs.

    .venv/bin/python tests/benchmarks/bench_previews.py [--repeats 3] [--smoke]

Measured here (2 cores shared with other jobs, load about 1.5, OPENBLAS_NUM_THREADS=1, median of 2 after a
first run): Pufferfish 0.001 s (absolute) and 0.002 s (relative, bounded, with the delta series); counts 0.17 s;
Laplace 25 epsilons x 3 draws 0.30 s; kernel 25 x 3 draws 5.2 s (the exact calibration at the chosen epsilon
about 1.5 s, the table of Theorem 3.6's r_alpha, and the draws at wide bandwidths, where most offspring fall
outside the window and are redrawn), so the explorer's default for the kernel is 13 x 1 (2.6 s); LGCP 13 x 1
about 2 to 2.6 s. Run the script for this machine's figures.

``--smoke``: a run of a few seconds through the same code (few epsilons, one draw, one run); its figures mean
nothing.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def read_points(path: Path, layer: str, field: str | None = None):
    import numpy as np
    from osgeo import ogr

    source = ogr.Open(str(path))
    xs, ys, values = [], [], []
    for feature in source.GetLayerByName(layer):
        x, y = feature.GetGeometryRef().GetPoint_2D()
        xs.append(x)
        ys.append(y)
        values.append(feature.GetField(field) if field else 0.0)
    return np.array(xs), np.array(ys), np.array(values, dtype=float)


def read_areas():
    import numpy as np

    from spatial_privacy.core.counts_calibration import prior_expected

    con = sqlite3.connect(f"file:{DATA / 'dwelling_areas.gpkg'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT unemployed, dwellings, prior_rate FROM areas_table ORDER BY fid").fetchall()
    finally:
        con.close()
    y, n, rate = (np.array(column, dtype=float) for column in zip(*rows))
    population, expected = prior_expected(n, rate, rate_per=1.0, rescale_to=int(y.sum()))
    return y.astype(np.int64), population, expected


def timed(function, repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats + 1):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times[0], statistics.median(times[1:]) if repeats else times[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    repeats = 0 if args.smoke else args.repeats

    import numpy as np

    from spatial_privacy.core import mechanisms
    from spatial_privacy.core.grid import GridSpec
    from spatial_privacy.core.limits import WINDOW_MARGIN
    from spatial_privacy.core.previews.counts import counts_error_curve
    from spatial_privacy.core.previews.curve import epsilon_grid
    from spatial_privacy.core.previews.points import PREVIEW_DEFAULTS, points_curve
    from spatial_privacy.core.previews.pufferfish import cell_counts, pufferfish_error_curve
    from spatial_privacy.core.window import Window

    dx, dy, _ = read_points(DATA / "sdcspatial_dwellings.gpkg", "dwellings")
    counts = cell_counts(dx, dy, GridSpec(500.0))
    sx, sy, _ = read_points(DATA / "snow_cholera.gpkg", "deaths")
    window = Window.around_points(sx, sy, margin=WINDOW_MARGIN)
    y, population, expected = read_areas()

    def grid(n: int):
        return np.array([1.0, 2.0]) if args.smoke else epsilon_grid(1.0, n)

    rows = [
        ("pufferfish", "absolute", 25, 0, 1.0, lambda: pufferfish_error_curve(counts, grid(25), 1.0, interval=50.0)),
        (
            "pufferfish",
            "relative, bounded",
            25,
            0,
            1.0,
            lambda: pufferfish_error_curve(
                counts, grid(25), 1.0, error_model="relative", relative_k=0.8, bounded=True, lower=1.0, upper=1000.0
            ),
        ),
        (
            "counts",
            "truncated",
            25,
            2 if args.smoke else 20,
            None,
            lambda: counts_error_curve(
                y, population, expected, grid(25), 1.0, mechanisms.generator(1), draws=2 if args.smoke else 20
            ),
        ),
    ]
    settings = [("kernel", 25, 3)] + [(method, *PREVIEW_DEFAULTS[method]) for method in ("laplace", "kernel", "lgcp")]
    for method, n, draws in settings:
        if args.smoke and (method == "lgcp" or (method, n, draws) == ("kernel", 25, 3)):
            continue
        draws = 1 if args.smoke else draws
        rows.append(
            (
                "points",
                method,
                n,
                draws,
                None if method == "lgcp" else 3.0,
                lambda method=method, n=n, draws=draws: points_curve(
                    sx, sy, window, method, grid(n), 1.0, mechanisms.generator(2), alpha=0.1, draws=draws
                ),
            ),
        )
    print(
        f"{'family':<11} {'method':<18} {'epsilons':>8} {'draws':>6} {'first s':>9} {'median s':>9} " f"{'target s':>9}"
    )
    for family, method, n, draws, target, function in rows:
        first, median = timed(function, repeats)
        print(
            f"{family:<11} {method:<18} {grid(n).size:>8} {draws:>6} {first:>9.3f} {median:>9.3f} "
            f"{'' if target is None else f'{target:g}':>9}"
        )


if __name__ == "__main__":
    main()
