#!/usr/bin/env python3
"""Benchmark of the LGCP engine; prints tables (not a test, not run by pytest).

1. John Snow model (578 deaths, intercept + distance to the Broad Street pump, range and variance
   unknown, mesh of about 1,500-2,000 nodes): setup and fast posterior with 1,000 draws, median of
   several runs; and, if core.mcmc is present, the MCMC sampler's effective sample sizes per second.
2. Scale: fast-posterior time and peak memory (process peak RSS, each size in a fresh process)
   against mesh size, on a 1000 x 1000 square with 10^4-10^5 uniform points.

    .venv/bin/python tests/benchmarks/bench_lgcp.py [--repeats 3] [--sizes 500,2000,8000,20000] [--smoke]

``--smoke``: a run of a few seconds through the same code (a coarse Snow mesh, 100 fast-posterior draws, one
short MCMC run, one 200-node scale run on 1,000 points); its figures mean nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: the run's sizes: Snow mesh (largest edge, units; None: build_lgcp's default), fast-posterior draws, MCMC draws,
#: warm-up and seeds, scale-table mesh sizes and points per size (None: 10^4 up to 2,000 nodes, more above)
FULL = {
    "max_edge": None,
    "draws": 1000,
    "mcmc_draws": 4000,
    "warmup": 300,
    "seeds": 3,
    "sizes": "500,2000,8000,20000",
    "points": None,
}
SMOKE = {
    "max_edge": 1.5,
    "draws": 100,
    "mcmc_draws": 100,
    "warmup": 50,
    "seeds": 1,
    "sizes": "200",
    "points": 1000,
}


def snow_setup(max_edge: float | None = None):
    import numpy as np

    from spatial_privacy.core.covariates import distance_to_points
    from spatial_privacy.core.lgcp_setup import Covariate, build_lgcp

    spec = importlib.util.spec_from_file_location("core_conftest", REPO / "tests" / "core" / "conftest.py")
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    gpkg = REPO / "tests" / "data" / "snow_cholera.gpkg"
    x, y, _ = helpers.read_gpkg_points(gpkg, "deaths", "case")
    px, py, label = helpers.read_gpkg_points(gpkg, "pumps", "pump")
    pump = label == 7
    covariate = Covariate("distance", lambda u, v: distance_to_points(u, v, px[pump], py[pump]))
    options = {} if max_edge is None else {"max_edge": max_edge}
    return lambda: build_lgcp(x, y, covariates=(covariate,), **options), np


def snow_table(repeats: int, size: dict) -> None:
    from spatial_privacy.core.laplace_fit import fit_laplace

    build, np = snow_setup(size["max_edge"])
    build_times, fit_times = [], []
    for i in range(repeats):
        start = time.perf_counter()
        setup = build()
        build_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        posterior = fit_laplace(setup.model, np.random.default_rng(i), draws=size["draws"])
        fit_times.append(time.perf_counter() - start)
    print(
        f"John Snow model: {setup.model.design.n_points} points, {setup.mesh.n_nodes} mesh nodes, "
        f"{posterior.diagnostics['laplace_evaluations']} Laplace fits, median of {repeats} runs"
    )
    print(
        f"  setup (mesh, FEM, quadrature, covariates) {statistics.median(build_times):.2f} s; "
        f"fast posterior with {size['draws']:,} draws {statistics.median(fit_times):.2f} s"
    )
    for name, mean, sd, lower, upper in posterior.summary():
        print(f"  {name:<10} mean {mean:8.4g}  sd {sd:8.3g}  95% [{lower:.4g}, {upper:.4g}]")
    if importlib.util.find_spec("spatial_privacy.core.mcmc") is None:
        print("  MCMC: core.mcmc not present")
        return
    from spatial_privacy.core import mcmc

    print()
    print(
        f"MCMC on the same model (target: ESS >= 1,000 for every hyperparameter in under 120 s), "
        f"{size['mcmc_draws']:,} draws in 2 chains after {size['warmup']} warm-up iterations each, "
        f"{size['seeds']} seeds"
    )
    print(
        f"{'seed':>5} {'seconds':>8} {'setup s':>8} {'ESS log range':>14} {'ESS log sigma':>14} "
        f"{'min ESS':>8} {'max R-hat':>10}"
    )
    runs = []
    for seed in range(size["seeds"]):
        start = time.perf_counter()
        chain = mcmc.fit_mcmc(
            setup.model,
            np.random.default_rng(100 + seed),
            draws=size["mcmc_draws"],
            chains=2,
            warmup=size["warmup"],
        )
        seconds = time.perf_counter() - start
        ess, rhat = chain.diagnostics["ess"], chain.diagnostics["rhat"]
        print(
            f"{seed:>5} {seconds:>8.1f} {chain.diagnostics['setup_seconds']:>8.1f} {ess['log_range']:>14.0f} "
            f"{ess['log_sigma']:>14.0f} {min(ess.values()):>8.0f} {max(rhat.values()):>10.4f}"
        )
        runs.append((chain, seconds))
    print(f"  median wall time {statistics.median(s for _, s in runs):.1f} s")
    compare_fast_and_mcmc(posterior, [c for c, _ in runs])


def compare_fast_and_mcmc(fast, chains) -> None:
    """Fast posterior against the pooled MCMC runs: difference of means in Monte Carlo standard errors
    of the MCMC mean (sd / sqrt(ESS), ESS summed over runs) and the ratio of 95% interval widths."""
    import numpy as np

    print()
    print("Fast posterior vs pooled MCMC (the exact reference)")
    print(f"{'quantity':<10} {'fast mean':>10} {'MCMC mean':>10} {'diff/MCSE':>10} {'width fast/MCMC':>16}")
    columns = {
        **{name: (fast.beta[:, j], [c.beta[:, j] for c in chains]) for j, name in enumerate(fast.names)},
        "log range": (fast.log_range, [c.log_range for c in chains]),
        "log sigma": (fast.log_sigma, [c.log_sigma for c in chains]),
    }
    keys = {"log range": "log_range", "log sigma": "log_sigma"}
    for name, (f, parts) in columns.items():
        pooled = np.concatenate(parts)
        ess = sum(c.diagnostics["ess"][keys.get(name, name)] for c in chains)
        mcse = np.std(pooled, ddof=1) / np.sqrt(ess)
        width_f = np.diff(np.quantile(f, [0.025, 0.975]))[0]
        width_m = np.diff(np.quantile(pooled, [0.025, 0.975]))[0]
        print(
            f"{name:<10} {np.mean(f):>10.4g} {np.mean(pooled):>10.4g} {(np.mean(f) - np.mean(pooled)) / mcse:>10.2f} "
            f"{width_f / width_m:>16.3f}"
        )


def scale_once(nodes: int, points: int, draws: int) -> dict:
    import numpy as np

    from spatial_privacy.core.laplace_fit import fit_laplace
    from spatial_privacy.core.lgcp_setup import build_lgcp
    from spatial_privacy.core.window import Window

    rng = np.random.default_rng(0)
    x, y = rng.uniform(0, 1000, points), rng.uniform(0, 1000, points)
    edge = 1000 / math.sqrt(nodes / 1.6)
    start = time.perf_counter()
    setup = build_lgcp(x, y, window=Window.rectangle(0, 0, 1000, 1000), max_edge=edge)
    build = time.perf_counter() - start
    start = time.perf_counter()
    posterior = fit_laplace(setup.model, rng, draws=draws)
    fit = time.perf_counter() - start
    return {
        "nodes": setup.mesh.n_nodes,
        "points": points,
        "build": build,
        "fit": fit,
        "evaluations": posterior.diagnostics["laplace_evaluations"],
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def scale_table(sizes: list[int], size: dict) -> None:
    print()
    print(f"Scale: uniform points on a 1000 x 1000 square, fast posterior with {size['draws']:,} draws, one run each")
    print(f"{'nodes':>7} {'points':>8} {'setup s':>8} {'fit s':>8} {'Laplace fits':>13} {'peak RSS MB':>12}")
    for nodes in sizes:
        points = size["points"] or (10_000 if nodes <= 2000 else 30_000 if nodes <= 8000 else 100_000)
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(nodes), str(points), str(size["draws"])],
            capture_output=True,
            text=True,
            check=True,
        )
        row = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"{row['nodes']:>7} {row['points']:>8} {row['build']:>8.2f} {row['fit']:>8.1f} {row['evaluations']:>13} "
            f"{row['peak_mb']:>12.0f}"
        )


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(scale_once(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", default=None, help=f"mesh sizes of the scale table (default {FULL['sizes']})")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    size = SMOKE if args.smoke else FULL
    repeats = 1 if args.smoke else args.repeats
    snow_table(repeats, size)
    scale_table([int(s) for s in (args.sizes or size["sizes"]).split(",")], size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
