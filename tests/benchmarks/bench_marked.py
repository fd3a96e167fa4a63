#!/usr/bin/env python3
"""Benchmark of Quick, Holan, Wikle & Reiter's marked point synthesis (core.marked) on the 8,348 sdcSpatial
enterprises (category ``fined``, numeric ``production``, normal model); prints tables (not a test, not run by
pytest).

Stages: the LGCP of all points (fast Laplace posterior, default mesh), the per-combination LGCPs at the shared
hyperparameters, the numeric mark's fits, L = 20 synthetic sets (exact sampler), and the Type S / Type A risks of
core.marked.risk (eps_s = 100 m, eps_a = 500 production units). Target: under 3 minutes in all.

    .venv/bin/python tests/benchmarks/bench_marked.py [--sets 20] [--smoke]

``--smoke``: a run of a few seconds through the same code (the first 1,000 enterprises, a coarse mesh, 2 sets);
its figures mean nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FULL = {"records": None, "max_edge": None, "sets": 20}
SMOKE = {"records": 1000, "max_edge": 1000.0, "sets": 2}
#: the risks' tolerances: 100 m, and 500 units of production (its median is about 1,900)
EPS_S, EPS_A = 100.0, 500.0
TARGET_SECONDS = 180.0


def load():
    spec = importlib.util.spec_from_file_location("core_conftest", REPO / "tests" / "core" / "conftest.py")
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    path = helpers.DATA / "sdcspatial_enterprises.gpkg"
    x, y, fined = helpers.read_gpkg_points(path, "enterprises", "fined")
    production = helpers.read_gpkg_points(path, "enterprises", "production")[2]
    return x, y, fined, production


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", type=int, default=None)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    sizes = dict(SMOKE if args.smoke else FULL)
    if args.sets:
        sizes["sets"] = args.sets

    import numpy as np

    from spatial_privacy.core import mechanisms
    from spatial_privacy.core.marked.combinations import combinations
    from spatial_privacy.core.marked.model import fit_marked
    from spatial_privacy.core.marked.synthesis import synthesize_marked

    x, y, fined, production = load()
    if sizes["records"]:
        x, y, fined, production = (a[: sizes["records"]] for a in (x, y, fined, production))
    sets = sizes["sets"]
    times = {}
    stages = []

    def stage(fraction, message):
        stages.append((time.perf_counter(), message))

    start = time.perf_counter()
    comb, index = combinations([fined.astype(int).tolist()], ["fined"])
    fit = fit_marked(
        x, y, comb, index, mechanisms.generator(1), sets, numeric=production, max_edge=sizes["max_edge"], progress=stage
    )
    end_fit = time.perf_counter()
    # split the fit's time by its progress messages
    first_comb = next((t for t, m in stages if m.startswith("Fitting the LGCP of combination")), end_fit)
    first_numeric = next((t for t, m in stages if m.startswith("Fitting the numeric mark")), end_fit)
    times["LGCP of all points"] = first_comb - start
    times["LGCPs per combination"] = first_numeric - first_comb
    times["numeric mark"] = end_fit - first_numeric
    t0 = time.perf_counter()
    syn = synthesize_marked(fit, mechanisms.generator(2))
    times[f"{sets} synthetic sets"] = time.perf_counter() - t0
    risk = None
    try:
        from spatial_privacy.core.marked.risk import marked_risk
    except ImportError:
        marked_risk = None
    if marked_risk is not None:
        t0 = time.perf_counter()
        risk = marked_risk(x, y, index, production, syn.x, syn.y, syn.index, syn.numeric, syn.set, sets, EPS_S, EPS_A)
        times["Type S and A risks"] = time.perf_counter() - t0
    total = time.perf_counter() - start

    print(
        f"Marked synthesis of {x.size} enterprises (fined x production), mesh of {fit.pooled.mesh.n_nodes} nodes, "
        f"L = {sets}{' (SMOKE RUN: figures mean nothing)' if args.smoke else ''}"
    )
    print(f"{'stage':<28}{'seconds':>10}")
    for name, seconds in times.items():
        print(f"{name:<28}{seconds:>10.2f}")
    print(f"{'total':<28}{total:>10.2f}   (target {TARGET_SECONDS:.0f} s)")
    print()
    print(f"{'combination':<14}{'n':>7}{'mean share':>12}{'mean':>10}{'syn mean':>10}{'field sd':>10}{'noise sd':>10}")
    shares = syn.counts.mean(axis=0) / comb.n
    for k in range(comb.k):
        c = fit.numeric.components[k]
        print(
            f"{comb.label(k):<14}{int(comb.counts[k]):>7}{shares[k]:>12.4f}{production[index == k].mean():>10.1f}"
            f"{syn.numeric[syn.index == k].mean():>10.1f}{c.field_sd:>10.1f}{c.sigma:>10.1f}"
        )
    if risk is not None:
        print()
        print(f"{'risk':<10}{'median of medians':>20}{'max median':>12}{'undefined':>11}")
        for name, q, undefined in (
            ("Type S", risk.quantiles_s(), risk.undefined_s),
            ("Type A", risk.quantiles_a(), risk.undefined_a),
        ):
            print(f"{name:<10}{np.nanmedian(q[:, 1]):>20.4f}{np.nanmax(q[:, 1]):>12.4f}{undefined:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
