#!/usr/bin/env python3
"""The risk-utility sweep (core.synthesis.sweep.sweep) on John Snow's cholera deaths through each executor of
core.executor: serial, local worker processes, and a Dask ``LocalCluster`` started here; prints the times and
checks that every run gives exactly the serial results (not a test).

Data and model as bench_walder_snow.py (578 deaths, distance to pump 7 as a closure covariate, fast posterior);
``--sets`` synthetic sets (a third radial, a third ANS, the rest PRS) plus the baseline, each a task of its own.
"start s" is the time to start the workers (the cluster; the local pool's start is inside its sweep time);
"sweep s" the sweep itself, with the confidential fit's data sent to every worker; "tasks s" the sets' own
scoring times added up (Evaluation.seconds, measured where each ran), so that "sweep s" / "tasks s" shows the
parallel gain net of what else the machine was running (the load average is printed first).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/benchmarks/bench_sweep.py [--sets 16] [--workers 2]
        [--max-edge E] [--draws 400] [--risk-draws 200] [--seed 1]

Measured (2026-11-27, this 2-core machine shared with other jobs, load average about 2 before the runs; 1,924
nodes, 16 sets + the baseline): serial 20.5 s; local processes (2) 11.2 s, 1.84 times faster; Dask LocalCluster (2)
12.0 s (+0.3 s to start), 1.71 times; all three identical. With 8 sets and the load at 1.6, local processes were only
1.14 times faster (the pool's start and the uneven tasks weigh more), and with other jobs taking both cores (load
3.5-7) nothing was gained.

``--smoke``: a run of a few seconds through the same code (coarse mesh, few draws, three sets); its figures mean
nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SMOKE = {"sets": 3, "max_edge": 1.2, "draws": 100, "risk_draws": 30}


def busy(result) -> float:
    """The sets' scoring times added up (each measured in the process that ran it)."""
    return float(sum(e.seconds for e in result.evaluations))


def same(a, b) -> bool:
    import numpy as np

    return (
        np.array_equal(a.baseline.risk, b.baseline.risk)
        and all(np.array_equal(s.x, t.x) and np.array_equal(s.y, t.y) for s, t in zip(a.sets, b.sets))
        and all(e.max_risk == f.max_risk and e.pmse == f.pmse for e, f in zip(a.evaluations, b.evaluations))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-edge", type=float, default=None, help="mesh edge (units); default build_lgcp's")
    parser.add_argument("--draws", type=int, default=400)
    parser.add_argument("--risk-draws", type=int, default=200)
    parser.add_argument("--risk-radius", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.sets, args.max_edge, args.draws, args.risk_draws = (
            SMOKE["sets"],
            SMOKE["max_edge"],
            SMOKE["draws"],
            SMOKE["risk_draws"],
        )
    if args.sets < 1 or args.workers < 1:
        parser.error("--sets and --workers must be >= 1")

    sys.path.insert(0, str(HERE))
    from bench_walder_snow import snow_data

    from spatial_privacy.core.executor import DaskCluster, LocalProcesses, Serial
    from spatial_privacy.core.laplace_fit import fit_laplace
    from spatial_privacy.core.lgcp_setup import build_lgcp
    from spatial_privacy.core.mechanisms import generator
    from spatial_privacy.core.synthesis.confidential_fit import ConfidentialFit
    from spatial_privacy.core.synthesis.sweep import sweep, sweep_specs

    start = time.perf_counter()
    x, y, covariate, _ = snow_data()
    setup = build_lgcp(x, y, max_edge=args.max_edge, covariates=(covariate,))
    posterior = fit_laplace(setup.model, generator(args.seed), draws=args.draws)
    conf = ConfidentialFit(setup.model, posterior, setup.window, x, y, (covariate,), None, draws=args.risk_draws)
    radial = args.sets // 3
    ans = (args.sets - radial) // 2
    specs = sweep_specs(
        [0.5 * (k + 1) for k in range(radial)], [0.5 * (k + 1) for k in range(ans)], args.sets - radial - ans
    )
    print(
        f"John Snow: {conf.n} points, {setup.mesh.n_nodes} mesh nodes, fit {time.perf_counter() - start:.1f} s; "
        f"{len(specs)} sets + the baseline, risk radius {args.risk_radius:g}, {args.risk_draws} risk draws"
    )

    def timed(executor):
        began = time.perf_counter()
        result = sweep(conf, specs, generator(args.seed + 1), args.risk_radius, executor=executor)
        return result, time.perf_counter() - began

    print(f"load average before the runs: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    rows = []
    serial, serial_s = timed(Serial())
    rows.append(("serial", 1, 0.0, serial_s, busy(serial), True))
    local, local_s = timed(LocalProcesses(args.workers))
    rows.append(("local processes", args.workers, 0.0, local_s, busy(local), same(serial, local)))
    try:
        import distributed
    except ImportError:
        distributed = None
        print("Dask is not installed: no LocalCluster row")
    if distributed is not None:
        import dask

        began = time.perf_counter()
        # as the README advises: without the nanny's MALLOC_TRIM_THRESHOLD_ (which also fixes glibc's mmap threshold,
        # so that every large temporary array is a fresh mmap) the sets scored about twice as fast in the workers
        with (
            dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}),
            distributed.LocalCluster(
                n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
            ) as cluster,
        ):
            start_s = time.perf_counter() - began
            on_cluster, cluster_s = timed(DaskCluster(cluster.scheduler_address))
        rows.append(("Dask LocalCluster", args.workers, start_s, cluster_s, busy(on_cluster), same(serial, on_cluster)))

    print()
    header = ("executor", "workers", "start s", "sweep s", "tasks s", "speed-up", "identical")
    print(f"{header[0]:<18} {header[1]:>7} {header[2]:>8} {header[3]:>8} {header[4]:>8} {header[5]:>8} {header[6]:>9}")
    for name, workers, start_s, seconds, tasks_s, identical in rows:
        print(
            f"{name:<18} {workers:>7} {start_s:>8.1f} {seconds:>8.1f} {tasks_s:>8.1f} {serial_s / seconds:>8.2f} "
            f"{'yes' if identical else 'NO':>9}"
        )
    if not all(row[-1] for row in rows):
        print("An executor did not reproduce the serial results.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
