#!/usr/bin/env python3
"""Benchmark of the fast posterior's integration over the hyperparameters: today's grid against INLA's central
composite design (core.laplace_fit.fit_laplace, ``integration="grid"`` / ``"ccd"``); prints tables (not a test).

1. Accuracy against the exact MCMC sampler (core.mcmc.fit_mcmc), on the John Snow model (578 deaths, distance
   to the Broad Street pump) and on an LGCP simulated with known parameters (an L-shaped window, as in
   tests/core/test_lgcp.py): posterior means as ``(fast - MCMC) / MCSE`` (MCSE = MCMC sd / sqrt(ESS), as
   tests/benchmarks/bench_lgcp.py reports it) and the 2.5% and 97.5% quantiles, for log range, log sigma, the
   coefficients and the intensity integral.
2. Cost: Laplace fits (all calls, re-factorisations for the draws included; those of the mode search;
   distinct hyperparameters), Newton steps (each a sparse factorisation) and seconds, grid against CCD, on
   uniform points in a 1000 x 1000 square at a few mesh sizes.

    .venv/bin/python tests/benchmarks/bench_hyper_integration.py [--sizes 2000,8000] [--mcmc-draws 4000] [--smoke]

``--smoke``: a few seconds through the same code (coarse meshes, 100 draws, a short MCMC run); its figures mean
nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FULL = {"snow_edge": None, "sim_edge": 0.5, "draws": 2000, "mcmc_draws": 4000, "warmup": 300, "sizes": "2000,8000"}
SMOKE = {"snow_edge": 1.5, "sim_edge": 1.5, "draws": 100, "mcmc_draws": 100, "warmup": 50, "sizes": "200"}
METHODS = ("grid", "ccd")
SIM_TRUTH = {"intercept": 1.2, "covariate": 0.25, "log range": math.log(3.0), "log sigma": 0.5 * math.log(0.6)}


def _bench_lgcp():
    spec = importlib.util.spec_from_file_location("bench_lgcp", HERE / "bench_lgcp.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def snow_model(max_edge):
    build, _ = _bench_lgcp().snow_setup(max_edge)
    return build().model


def simulated_model(max_edge: float):
    """The LGCP of tests/core/test_lgcp.py (``simulate_and_fit``, seed 107): intercept 1.2, covariate 0.25,
    range 3, variance 0.6, on an L-shaped window, midpoint quadrature."""
    from spatial_privacy.core import fields
    from spatial_privacy.core.lgcp import LGCPDesign, LGCPModel, simulate_points
    from spatial_privacy.core.quadrature import quadrature
    from spatial_privacy.core.triangulation import triangulate
    from spatial_privacy.core.window import Window

    window = Window.from_polygons([([(0, 0), (12, 0), (12, 5), (6, 5), (6, 10), (0, 10)], [])])
    rng = np.random.default_rng(107)
    mesh = triangulate(window, max_edge)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    w = spde.sample(3.0, math.sqrt(0.6), rng)[0]
    covariate = lambda x, y: (x - 6.0) / 3.0  # noqa: E731
    x, y = simulate_points(mesh, window, 1.2 + 0.25 * covariate(*mesh.nodes.T) + w, rng)
    quad = quadrature(mesh, window, "midpoint")
    design = LGCPDesign(
        mesh.projection(x, y),
        np.column_stack([np.ones(x.size), covariate(x, y)]),
        np.zeros(x.size),
        quad.proj,
        quad.weights,
        np.column_stack([np.ones(quad.x.size), covariate(quad.x, quad.y)]),
        np.zeros(quad.x.size),
        ("intercept", "covariate"),
    )
    return LGCPModel(design, spde, fields.LogNormalFieldPrior(range0=4.0, sigma0=1.0), mesh=mesh)


def columns(posterior) -> dict:
    out = {name: posterior.beta[:, j] for j, name in enumerate(posterior.names)}
    out["log range"], out["log sigma"] = posterior.log_range, posterior.log_sigma
    out["int lambda"] = posterior.integrated_intensity()
    return out


def accuracy(title: str, model, size: dict, truth: dict | None = None) -> None:
    from spatial_privacy.core.laplace_fit import fit_laplace
    from spatial_privacy.core.mcmc import fit_mcmc
    from spatial_privacy.core.mcmc_diagnostics import effective_sample_size

    fast, seconds = {}, {}
    for method in METHODS:
        start = time.perf_counter()
        fast[method] = fit_laplace(model, np.random.default_rng(1), draws=size["draws"], integration=method)
        seconds[method] = time.perf_counter() - start
    start = time.perf_counter()
    exact = fit_mcmc(model, np.random.default_rng(2), draws=size["mcmc_draws"], chains=2, warmup=size["warmup"])
    mcmc_seconds = time.perf_counter() - start
    print()
    print(f"{title}: {model.design.n_points} points, {model.design.n_nodes} mesh nodes")
    for method in METHODS:
        d = fast[method].diagnostics
        print(
            f"  {method}: {d['laplace_fits']} Laplace fits ({d['laplace_fits_mode_search']} in the mode search, "
            f"{d['laplace_evaluations']} distinct theta), {d['newton_steps']} Newton steps, {seconds[method]:.1f} s"
        )
    print(f"  MCMC: {exact.n_draws} draws in 2 chains, {mcmc_seconds:.0f} s, max R-hat "
          f"{max(exact.diagnostics['rhat'].values()):.3f}")  # fmt: skip
    reference = columns(exact)
    keys = {"log range": "log_range", "log sigma": "log_sigma"}
    ess = dict(exact.diagnostics["ess"])
    ess["int lambda"] = effective_sample_size(reference["int lambda"].reshape(2, -1))
    got = {method: columns(fast[method]) for method in METHODS}
    print(f"{'quantity':<11} {'truth':>7} {'MCMC mean':>10} {'grid mean':>10} {'CCD mean':>10} "
          f"{'grid diff/MCSE':>15} {'CCD diff/MCSE':>14} {'MCSE':>8}")  # fmt: skip
    for name, exact_draws in reference.items():
        mcse = np.std(exact_draws, ddof=1) / math.sqrt(ess[keys.get(name, name)])
        means = [np.mean(got[m][name]) for m in METHODS]
        shown = f"{truth[name]:>7.3g}" if truth and name in truth else f"{'':>7}"
        print(
            f"{name:<11} {shown} {np.mean(exact_draws):>10.4g} {means[0]:>10.4g} {means[1]:>10.4g} "
            f"{(means[0] - np.mean(exact_draws)) / mcse:>15.2f} {(means[1] - np.mean(exact_draws)) / mcse:>14.2f} "
            f"{mcse:>8.2g}"
        )
    print(f"{'quantity':<11} {'MCMC 2.5%':>10} {'grid 2.5%':>10} {'CCD 2.5%':>10} "
          f"{'MCMC 97.5%':>11} {'grid 97.5%':>11} {'CCD 97.5%':>10}")  # fmt: skip
    for name, exact_draws in reference.items():
        q = [np.quantile(v, [0.025, 0.975]) for v in (exact_draws, got["grid"][name], got["ccd"][name])]
        print(
            f"{name:<11} {q[0][0]:>10.4g} {q[1][0]:>10.4g} {q[2][0]:>10.4g} {q[0][1]:>11.4g} {q[1][1]:>11.4g} "
            f"{q[2][1]:>10.4g}"
        )


def cost(sizes: list[int], size: dict) -> None:
    from spatial_privacy.core.laplace_fit import fit_laplace
    from spatial_privacy.core.lgcp_setup import build_lgcp
    from spatial_privacy.core.window import Window

    print()
    print(f"Cost: uniform points on a 1000 x 1000 square, fast posterior with {size['draws']:,} draws, one run each")
    print(f"{'nodes':>7} {'points':>7} {'method':>6} {'Laplace fits':>13} {'mode search':>12} {'distinct':>9} "
          f"{'Newton steps':>13} {'fit s':>7}")  # fmt: skip
    for nodes in sizes:
        points = 1000 if nodes < 1000 else 10_000 if nodes <= 2000 else 30_000
        rng = np.random.default_rng(0)
        x, y = rng.uniform(0, 1000, points), rng.uniform(0, 1000, points)
        setup = build_lgcp(x, y, window=Window.rectangle(0, 0, 1000, 1000), max_edge=1000 / math.sqrt(nodes / 1.6))
        for method in METHODS:
            start = time.perf_counter()
            d = fit_laplace(setup.model, np.random.default_rng(1), draws=size["draws"], integration=method).diagnostics
            seconds = time.perf_counter() - start
            print(
                f"{setup.mesh.n_nodes:>7} {points:>7} {method:>6} {d['laplace_fits']:>13} "
                f"{d['laplace_fits_mode_search']:>12} {d['laplace_evaluations']:>9} {d['newton_steps']:>13} "
                f"{seconds:>7.1f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=None, help=f"mesh sizes of the cost table (default {FULL['sizes']})")
    parser.add_argument("--mcmc-draws", type=int, default=None, help="MCMC draws (2 chains) of the reference")
    parser.add_argument("--skip-snow", action="store_true", help="leave out the John Snow comparison")
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    size = dict(SMOKE if args.smoke else FULL)
    if args.mcmc_draws:
        size["mcmc_draws"] = args.mcmc_draws
    if not args.skip_snow:
        accuracy("John Snow", snow_model(size["snow_edge"]), size)
    accuracy("Simulated LGCP (truth known)", simulated_model(size["sim_edge"]), size, SIM_TRUTH)
    cost([int(s) for s in (args.sizes or size["sizes"]).split(",")], size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
