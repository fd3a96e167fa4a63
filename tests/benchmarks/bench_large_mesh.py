"""Issue 34: the fast LGCP posterior on large meshes (2,000-100,000 nodes), time and peak memory.

For each mesh size, point pattern and hyperparameter integration, a fresh process builds the LGCP of points in a
1000 x 1000 square and fits it with 1,000 posterior draws through core.lgcp_setup.fit_confidential (the path of
the fitlgcp algorithm; the degree-3 refit if the midpoint rule is fooled, as there). Columns: the mesh's nodes, the
points, the integration (``grid``: today's grid; ``ccd``: the central composite design), the factorisation of
``H_ww`` (banded or sparse: core.linalg.cholesky), build seconds (mesh, FEM matrices, integration points), fit
seconds (mode search, Laplace fits, draws), the process's CPU seconds (user + system: the figure to compare when
other work shares the machine), Laplace fits (distinct hyperparameters), and the process's peak RSS
(``resource.getrusage``, so each size runs in its own process).

Point patterns: ``uniform`` (5,000 uniform points) and ``clustered`` (a Thomas process: 100 parents uniform in the
square, Poisson(50) children each, normal offsets with sd 20, children outside the square dropped), drawn through
core.mechanisms at seed 0. Issue targets: 20,000 nodes under 60 s and 100,000 nodes under 10 minutes, both within
4 GB.

Run:
    .venv/bin/python tests/benchmarks/bench_large_mesh.py [--sizes 2000,8000,20000] [--methods ccd,grid]
        [--patterns uniform,clustered] [--grid-max 20000] [--timeout 900] [--smoke]

``--grid-max``: the grid integration runs only up to this many nodes (it needs 3-6 times the CCD's Laplace fits);
larger sizes print ``skipped``. ``--timeout``: seconds after which a child is stopped and its row says so.
``--smoke``: a few seconds through the same code (a small mesh, 100 draws).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time

SIDE = 1000.0
FULL = {"sizes": "2000,8000,20000,50000,100000", "draws": 1000, "uniform": 5000, "parents": 100, "children": 50.0}
SMOKE = {"sizes": "600", "draws": 100, "uniform": 300, "parents": 10, "children": 30.0}
#: nodes of a mesh of max_edge ``e`` on the square: about ``NODE_DENSITY (SIDE / e)^2`` (measured: 98,855 nodes at
#: e = 3.6 on a 1000-side square, with the refinement along the boundary)
NODE_DENSITY = 1.28


def points(pattern: str, size: dict):
    import numpy as np

    from spatial_privacy.core import mechanisms

    rng = np.random.default_rng(0)
    if pattern == "uniform":
        n = size["uniform"]
        return SIDE * mechanisms.uniforms(rng, n), SIDE * mechanisms.uniforms(rng, n)
    parents = SIDE * mechanisms.uniforms(rng, (size["parents"], 2))
    counts = mechanisms.poisson_counts(rng, np.full(size["parents"], size["children"]))
    xy = np.repeat(parents, counts, axis=0) + 20.0 * mechanisms.standard_normals(rng, (int(counts.sum()), 2))
    inside = np.all((xy > 0) & (xy < SIDE), axis=1)
    return xy[inside, 0], xy[inside, 1]


def fit_square(nodes: int, pattern: str, method: str, draws: int, size: dict, on_note=None):
    """core.lgcp_setup.fit_confidential on the points of ``pattern`` in the square, on a mesh of about ``nodes``
    nodes (beyond the algorithm's limit if need be), at seed 1; returns the points' x and the fit."""
    import numpy as np

    from spatial_privacy.core import lgcp_setup
    from spatial_privacy.core.window import Window

    lgcp_setup.MAX_FIT_NODES = max(lgcp_setup.MAX_FIT_NODES, 2 * nodes)  # measure beyond the algorithm's limit
    x, y = points(pattern, size)
    fit = lgcp_setup.fit_confidential(
        x,
        y,
        np.random.default_rng(1),
        draws,
        window=Window.rectangle(0, 0, SIDE, SIDE),
        max_edge=SIDE * math.sqrt(NODE_DENSITY / nodes),
        hyper_integration=method,
        on_note=on_note,
    )
    return x, fit


def child(nodes: int, pattern: str, method: str, draws: int, size: dict) -> dict:
    from spatial_privacy.core import lgcp_setup
    from spatial_privacy.core.linalg import SPARSE_MIN_NODES

    built = []
    start = time.perf_counter()
    x, result = fit_square(
        nodes,
        pattern,
        method,
        draws,
        size,
        lambda note: built.append(time.perf_counter()) if note.kind == lgcp_setup.NOTE_BUILT else None,
    )
    end = time.perf_counter()
    n = result.setup.mesh.n_nodes
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "nodes": n,
        "points": int(x.size),
        "factor": "sparse" if n >= SPARSE_MIN_NODES else "banded",
        "build": built[0] - start,
        "fit": end - built[0],
        "fits": result.posterior.diagnostics.get("laplace_evaluations", -1),
        "refit": result.posterior.diagnostics.get("integration", ""),
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
    }


def table(sizes: list[int], methods: list[str], patterns: list[str], grid_max: int, timeout: float, size: dict):
    print(f"Fast posterior, {size['draws']:,} draws, points in a {SIDE:g} x {SIDE:g} square, one run each")
    print(f"{'nodes':>7} {'pattern':>9} {'points':>7} {'method':>6} {'factor':>7} {'build s':>8} {'fit s':>8} "
          f"{'CPU s':>7} {'Laplace fits':>13} {'rule':>9} {'peak RSS MB':>12}", flush=True)  # fmt: skip
    for nodes in sizes:
        for pattern in patterns:
            for method in methods:
                if method == "grid" and nodes > grid_max:
                    print(f"{nodes:>7} {pattern:>9} {'':>7} {method:>6} skipped (grid above --grid-max {grid_max:,})")
                    continue
                command = [sys.executable, __file__, "--child", json.dumps([nodes, pattern, method, size])]
                try:
                    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=timeout)
                except subprocess.TimeoutExpired:
                    print(f"{nodes:>7} {pattern:>9} {'':>7} {method:>6} stopped after {timeout:g} s", flush=True)
                    continue
                except subprocess.CalledProcessError as error:
                    last = (error.stderr.strip().splitlines() or ["?"])[-1]
                    print(f"{nodes:>7} {pattern:>9} {'':>7} {method:>6} failed: {last}", flush=True)
                    continue
                r = json.loads(out.stdout.strip().splitlines()[-1])
                print(
                    f"{r['nodes']:>7} {pattern:>9} {r['points']:>7} {method:>6} {r['factor']:>7} {r['build']:>8.1f} "
                    f"{r['fit']:>8.1f} {r.get('cpu', math.nan):>7.0f} {r['fits']:>13} {r['refit']:>9} "
                    f"{r['peak_mb']:>12.0f}",
                    flush=True,
                )


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        nodes, pattern, method, size = json.loads(sys.argv[2])
        print(json.dumps(child(int(nodes), pattern, method, int(size["draws"]), size)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=None, help=f"mesh sizes (default {FULL['sizes']})")
    parser.add_argument("--methods", default="ccd,grid", help="hyperparameter integrations (default ccd,grid)")
    parser.add_argument("--patterns", default="uniform,clustered", help="point patterns (default both)")
    parser.add_argument("--grid-max", type=int, default=20_000, help="largest mesh fitted with the grid")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per run before it is stopped")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on a tiny mesh (checks that it runs)")
    args = parser.parse_args()
    size = dict(SMOKE if args.smoke else FULL)
    sizes = [int(s) for s in (args.sizes or size["sizes"]).split(",")]
    table(sizes, args.methods.split(","), args.patterns.split(","), args.grid_max, args.timeout, size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
