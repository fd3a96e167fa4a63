"""Issue 34: one factorisation of the LGCP's Hessian ``H_ww = Q + B'DB`` on meshes of 2,000-100,000 nodes, by the
banded Cholesky (reverse Cuthill-McKee) and by SciPy's SuperLU under two fill-reducing orderings: SuperLU's own
multiple minimum degree (``MMD_AT_PLUS_A``, the sparse factor's ordering before) and nested dissection
(core.ordering, the sparse factor's ordering now).

The Hessian is that of bench_large_mesh.py's clustered points in the 1000 x 1000 square (midpoint rule), at the
prior's median range and standard deviation and the field at 0. Columns: the mesh's nodes, the method, seconds to
compute the ordering (once per sparsity pattern in a fit), entries of the factor (the band's ``n (b + 1)``;
SuperLU's ``L`` plus ``U``), the best of ``--repeats`` factorisations in seconds (a fit makes about five per Laplace
fit, 150-170 in all at 100,000 nodes), and one solve with 16 right-hand sides (a block of draws). ``core.linalg``
uses the banded factor below ``SPARSE_MIN_NODES`` (60,000) and the sparse one from there on.

Run:
    .venv/bin/python tests/benchmarks/bench_factor.py [--sizes 2000,8000,20000,50000,100000] [--repeats 3] [--smoke]

``--smoke``: a few seconds through the same code (a 600-node mesh).
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_large_mesh import FULL, NODE_DENSITY, SIDE, SMOKE, points  # noqa: E402


def hessian(nodes: int, size: dict):
    """``H_ww`` of the clustered points on a mesh of about ``nodes`` nodes (CSC, sorted indices)."""
    import numpy as np
    import scipy.sparse as sp

    from spatial_privacy.core import lgcp_setup
    from spatial_privacy.core.window import Window

    lgcp_setup.MAX_FIT_NODES = max(lgcp_setup.MAX_FIT_NODES, 2 * nodes)
    x, y = points("clustered", size)
    edge = SIDE * math.sqrt(NODE_DENSITY / nodes)
    model = lgcp_setup.build_lgcp(x, y, window=Window.rectangle(0, 0, SIDE, SIDE), max_edge=edge).model
    theta = np.asarray(model.theta_prior.centre(), dtype=np.float64)
    mu = model.expected_counts(np.zeros(model.design.n_nodes), model.beta_prior.mean.copy())
    h = sp.csc_matrix(model.hessian_blocks(model.precision(theta), mu)[0])
    h.sort_indices()
    return h


def best(repeats: int, run) -> tuple[float, object]:
    """The shortest of ``repeats`` timed calls of ``run()`` and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def rows(h, repeats: int):
    """``(method, ordering s, entries, factor s, solve s)`` for each method."""
    import numpy as np
    import scipy.sparse as sp

    from spatial_privacy.core import linalg
    from spatial_privacy.core.ordering import nested_dissection

    rhs = np.random.default_rng(0).standard_normal((h.shape[0], 16))
    start = time.perf_counter()
    rcm = linalg.rcm_permutation(h)
    ordering_s = time.perf_counter() - start
    kept = []  # as in a fit, each factorisation overwrites the previous band (no fresh pages to fault in)

    def banded():
        kept.append(linalg.BandedCholesky.factor(h, rcm, reuse=kept.pop() if kept else None))
        return kept[0]

    factor_s, factor = best(repeats, banded)
    yield (
        "banded (RCM)",
        ordering_s,
        factor.upper.size,
        factor_s,
        best(repeats, functools.partial(factor.solve, rhs))[0],
    )
    kept.clear()
    orderings = {
        "SuperLU, minimum degree": lambda: np.argsort(linalg._superlu(h, "MMD_AT_PLUS_A").perm_c),
        "SuperLU, nested dissection": lambda: nested_dissection(h),
    }
    for name, order in orderings.items():
        start = time.perf_counter()
        perm = order()
        ordering_s = time.perf_counter() - start
        factor_s, lu = best(repeats, functools.partial(linalg._superlu, sp.csc_matrix(h[perm][:, perm]), "NATURAL"))
        yield name, ordering_s, lu.nnz, factor_s, best(repeats, functools.partial(lu.solve, rhs))[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=None, help=f"mesh sizes (default {FULL['sizes']})")
    parser.add_argument("--repeats", type=int, default=3, help="factorisations timed per method (the best counts)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on a tiny mesh (checks that it runs)")
    args = parser.parse_args()
    size = dict(SMOKE if args.smoke else FULL)
    print("One factorisation of the LGCP Hessian H_ww (clustered points, 1000 x 1000 square), best of", args.repeats)
    print(f"{'nodes':>7} {'method':>27} {'ordering s':>11} {'entries':>12} {'factor s':>9} {'solve x16 s':>12}")
    for nodes in [int(s) for s in (args.sizes or size["sizes"]).split(",")]:
        h = hessian(nodes, size)
        for name, ordering_s, entries, factor_s, solve_s in rows(h, args.repeats):
            print(
                f"{h.shape[0]:>7} {name:>27} {ordering_s:>11.2f} {entries:>12,} {factor_s:>9.3f} {solve_s:>12.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
