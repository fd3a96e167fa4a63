#!/usr/bin/env python3
"""Our exact MCMC sampler against PyMC's NUTS on the John Snow LGCP: the plugin's side.

Part of ``tests/benchmarks/bench_pymc.sh`` (not a test, not run by pytest). Run with the project's
virtualenv; PyMC is never imported here (it lives only in the benchmark's own virtualenv, where
``bench_pymc_run.py`` runs).

``export``: builds the John Snow model of ``bench_lgcp.py`` (578 deaths, intercept + distance to the
Broad Street pump, SPDE Matérn field with unknown range and sd, log-normal prior of Walder et al. A.5)
on a coarser mesh (about 400 nodes, so that PyMC's dense linear algebra stays cheap) and writes
``model.npz``: everything needed to evaluate exactly the same log posterior,

    log p(theta, w, beta | S) = sum_k eta(s_k) - sum_i alpha_i exp(eta(u_i))      (Walder eq. 31)
                                + log N(w; 0, Q(rho, sigma)^{-1})                  (eq. 29)
                                + log N(beta; m, diag(s^2)) + log p(theta)        (A.5),

with ``Q = (kappa^2 C + G) C^{-1} (kappa^2 C + G) / xi^2``, ``kappa = sqrt(8) / rho``,
``xi^2 = 4 pi kappa^2 sigma^2`` (core.fields.SPDEMatern.precision), and the value of
``core.mcmc_target.log_joint`` at a few random points for the cross-check. It then runs
``core.mcmc.fit_mcmc`` (2 chains) ``--repeats`` times and writes the draws of the hyperparameters
and coefficients (``ours.npz``) with the wall times and our diagnostics (``ours.json``).

``table``: reads both sides' results and prints the comparison of effective samples per second.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/benchmarks/bench_pymc_export.py export --out DIR [--smoke]
    OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/benchmarks/bench_pymc_export.py table --out DIR [--smoke]

``--smoke`` (``bench_pymc.sh --smoke``): a run of a few seconds through the same code. ``export`` builds a
coarse mesh (about 100 nodes) and runs one short sampler run; ``table``, when ``DIR`` has no PyMC results (the
PyMC step was skipped), puts OUR draws in PyMC's columns so that the table code still runs, and says so. Its
figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

REPO = Path(__file__).resolve().parents[2]
#: Largest mesh edge (window units: the Snow map's, about 12 units across): 395 nodes.
MAX_EDGE = 0.68
QUANTITIES = ("log_range", "log_sigma", "intercept", "distance")
HYPER = ("log_range", "log_sigma")
N_TEST_POINTS = 6
#: ``export --smoke``: largest mesh edge (about 100 nodes), retained draws, warm-up, runs
SMOKE = {"max_edge": 1.5, "draws": 40, "warmup": 20, "repeats": 1}


def build_snow_model(max_edge: float):
    """The John Snow LGCP of bench_lgcp.py, on a mesh with largest edge ``max_edge``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_lgcp import snow_setup

    build, _ = snow_setup(max_edge)
    return build()


def _sparse_parts(prefix: str, matrix) -> dict:
    m = sp.csr_matrix(matrix)
    m.sort_indices()
    return {
        f"{prefix}_data": m.data,
        f"{prefix}_indices": m.indices,
        f"{prefix}_indptr": m.indptr,
        f"{prefix}_shape": np.array(m.shape),
    }


def test_points(model, posterior, rng: np.random.Generator):
    """Points ``(theta, w, beta)`` for the cross-check: posterior draws, half of them perturbed."""
    picks = rng.choice(posterior.n_draws, N_TEST_POINTS, replace=False)
    theta = np.column_stack([posterior.log_range[picks], posterior.log_sigma[picks]])
    w = posterior.w[picks].copy()
    beta = posterior.beta[picks].copy()
    half = N_TEST_POINTS // 2
    theta[half:] += rng.normal(0.0, 0.3, (N_TEST_POINTS - half, 2))
    w[half:] *= rng.uniform(0.5, 1.5, (N_TEST_POINTS - half, 1))
    w[half:] += rng.normal(0.0, 0.05, w[half:].shape)
    beta[half:] += rng.normal(0.0, 0.05, beta[half:].shape)
    return theta, w, beta


def export(args) -> int:
    from spatial_privacy.core import mcmc, mcmc_target

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    setup = build_snow_model(args.max_edge)
    build_seconds = time.perf_counter() - start
    model = setup.model
    d, spde, prior = model.design, model.spde, model.theta_prior
    print(
        f"John Snow model: {d.n_points} points, {setup.mesh.n_nodes} mesh nodes (max edge {setup.max_edge:g}), "
        f"{d.int_weights.size} integration points, coefficients {', '.join(d.names)}; built in {build_seconds:.2f} s"
    )
    names = list(d.names)
    if tuple(HYPER) + tuple(names) != QUANTITIES:
        raise RuntimeError(f"unexpected coefficients {names}")

    runs, seconds, diagnostics = [], [], []
    for r in range(args.repeats):
        t0 = time.perf_counter()
        post = mcmc.fit_mcmc(
            model, np.random.default_rng(args.seed + r), draws=args.draws, chains=args.chains, warmup=args.warmup
        )
        seconds.append(time.perf_counter() - t0)
        diag = post.diagnostics
        per_chain = diag["draws_per_chain"]
        if post.n_draws != args.chains * per_chain:
            raise RuntimeError("draws must be a multiple of chains for the per-chain layout")
        columns = [post.log_range, post.log_sigma] + [post.beta[:, j] for j in range(d.n_coef)]
        runs.append(np.stack([c.reshape(args.chains, per_chain) for c in columns], axis=-1))
        keys = ("ess", "rhat", "acceptance_theta", "acceptance_field", "setup_seconds")
        diagnostics.append({k: diag[k] for k in keys})
        ess = ", ".join(f"{k} {v:.0f}" for k, v in diag["ess"].items())
        print(f"  ours, run {r + 1}/{args.repeats}: {seconds[-1]:.1f} s, ESS {ess}", flush=True)
        if r == 0:
            first = post

    theta, w, beta = test_points(model, first, np.random.default_rng(args.seed + 1000))
    logp = np.array([mcmc_target.log_joint(model, theta[i], w[i], beta[i]) for i in range(N_TEST_POINTS)])
    rho_ref, sigma_ref = math.exp(theta[0, 0]), math.exp(theta[0, 1])
    arrays = {
        "names": np.array(names),
        "max_edge": np.array(setup.max_edge),
        "x_points": d.x_points,
        "offset_points": d.offset_points,
        "int_weights": d.int_weights,
        "x_int": d.x_int,
        "offset_int": d.offset_int,
        "c": spde.c,
        "beta_mean": model.beta_prior.mean,
        "beta_sd": model.beta_prior.sd,
        "theta_prior": np.array([prior.range0, prior.sigma0, prior.sd_log_range, prior.sd_log_sigma]),
        "test_theta": theta,
        "test_w": w,
        "test_beta": beta,
        "test_logp": logp,
        "q_ref_theta": theta[0],
    }
    arrays.update(_sparse_parts("proj", d.proj))
    arrays.update(_sparse_parts("int_proj", d.int_proj))
    arrays.update(_sparse_parts("g", spde.g))
    arrays.update(_sparse_parts("q_ref", spde.precision(rho_ref, sigma_ref)))
    np.savez(out / "model.npz", **arrays)
    np.savez(out / "ours.npz", draws=np.stack(runs), seconds=np.array(seconds), quantities=np.array(QUANTITIES))
    summary = {
        "sampler": "spatial_privacy.core.mcmc.fit_mcmc",
        "nodes": int(setup.mesh.n_nodes),
        "points": int(d.n_points),
        "integration_points": int(d.int_weights.size),
        "max_edge": float(setup.max_edge),
        "chains": args.chains,
        "draws": args.draws,
        "warmup": args.warmup,
        "repeats": args.repeats,
        "seconds": seconds,
        "diagnostics": diagnostics,
        "threads": os.environ.get("OPENBLAS_NUM_THREADS"),
        "numpy": np.__version__,
    }
    (out / "ours.json").write_text(json.dumps(summary, indent=1, default=float))
    print(f"  wrote {out / 'model.npz'}, {out / 'ours.npz'}, {out / 'ours.json'}")
    print("  log posterior (core.mcmc_target.log_joint) at the test points: " + ", ".join(f"{v:.4f}" for v in logp))
    return 0


# -- the table ------------------------------------------------------------------------------------


def _medians(ess_runs: list[dict], seconds: list[float]) -> dict:
    """Per quantity: (median ESS, median ESS per second) over the runs."""
    return {
        q: (
            statistics.median(run[q] for run in ess_runs),
            statistics.median(run[q] / s for run, s in zip(ess_runs, seconds)),
        )
        for q in QUANTITIES
    }


def _print_block(title: str, ours: dict, pymc: dict) -> None:
    print()
    print(f"ESS: {title}; medians over runs")
    print(
        f"{'quantity':<10} {'ESS ours':>9} {'ESS/s ours':>11} {'ESS PyMC':>9} {'ESS/s PyMC':>11} "
        f"{'ratio ours/PyMC':>16}"
    )
    for q in QUANTITIES:
        a, b = ours[q], pymc[q]
        print(f"{q:<10} {a[0]:>9.0f} {a[1]:>11.1f} {b[0]:>9.0f} {b[1]:>11.2f} {a[1] / b[1]:>16.1f}")
    low_a = min(ours[q][1] for q in HYPER)
    low_b = min(pymc[q][1] for q in HYPER)
    print(f"{'min hyper':<10} {'':>9} {low_a:>11.1f} {'':>9} {low_b:>11.2f} {low_a / low_b:>16.1f}")


def peer_stand_in(ours: dict, ours_draws: np.ndarray) -> tuple[dict, np.ndarray]:
    """For ``table --smoke`` without PyMC results: our own runs in PyMC's place, our Geyer ESS and split R-hat
    in arviz's, so that the table code runs; the figures compare ours with ours."""
    from spatial_privacy.core.mcmc_diagnostics import effective_sample_size, split_rhat

    def diagnostics(run):
        return {
            "ess_bulk": {q: effective_sample_size(run[..., k]) for k, q in enumerate(QUANTITIES)},
            "rhat": {q: split_rhat(run[..., k]) for k, q in enumerate(QUANTITIES)},
        }

    arviz = [diagnostics(run) for run in ours_draws]
    theirs = {
        "versions": {"pymc": "(not run: smoke stand-in)"},
        "field": "none",
        "tune": 0,
        "cores": 1,
        "sampling_seconds": ours["seconds"],
        "total_seconds": ours["seconds"],
        "divergences": [0] * len(ours["seconds"]),
        "mean_tree_depth": [0] * len(ours["seconds"]),
        "mean_leapfrog_steps": [0] * len(ours["seconds"]),
        "arviz_ours": arviz,
        "arviz_pymc": arviz,
    }
    return theirs, ours_draws


def table(args) -> int:
    from spatial_privacy.core.mcmc_diagnostics import effective_sample_size, split_rhat

    out = Path(args.out)
    ours = json.loads((out / "ours.json").read_text())
    ours_draws = np.load(out / "ours.npz")["draws"]  # (runs, chains, draws per chain, quantity)
    if args.smoke and not (out / "pymc.json").exists():
        print()
        print("SMOKE RUN WITHOUT PyMC: the PyMC step was skipped, so the PyMC columns below repeat OUR draws")
        print("(and our ESS and R-hat stand in for arviz's); they only check that the table code runs.")
        theirs, pymc_draws = peer_stand_in(ours, ours_draws)
    else:
        theirs = json.loads((out / "pymc.json").read_text())
        pymc_draws = np.load(out / "pymc.npz")["draws"]

    def ours_estimator(draws, fn):
        return [{q: fn(run[..., k]) for k, q in enumerate(QUANTITIES)} for run in draws]

    t_ours = ours["seconds"]
    t_pymc = theirs["sampling_seconds"]  # tuning + sampling, compilation excluded
    t_total = theirs["total_seconds"]
    print()
    print(
        f"John Snow LGCP: {ours['nodes']} mesh nodes (max edge {ours['max_edge']:g}), {ours['points']} points, "
        f"{ours['integration_points']} integration points; {ours['chains']} chains x "
        f"{ours['draws'] // ours['chains']} retained draws each for both; OPENBLAS_NUM_THREADS={ours['threads']}"
    )
    print(
        f"ours: core.mcmc.fit_mcmc (warm-up {ours['warmup']}), whole call (mode search, grid, warm-up, sampling) "
        f"median {statistics.median(t_ours):.1f} s over {len(t_ours)} runs: " + ", ".join(f"{t:.1f}" for t in t_ours)
    )
    print(
        f"PyMC {theirs['versions']['pymc']} NUTS ({theirs['field']} field map), tune {theirs['tune']}, "
        f"cores {theirs['cores']}: tuning + sampling median {statistics.median(t_pymc):.1f} s over {len(t_pymc)} runs: "
        + ", ".join(f"{t:.1f}" for t in t_pymc)
        + f"; total incl. model build and compilation median {statistics.median(t_total):.1f} s"
    )
    print(
        f"PyMC: divergences {theirs['divergences']}, mean tree depth {theirs['mean_tree_depth']}, "
        f"mean leapfrog steps {theirs['mean_leapfrog_steps']}"
    )
    print("ESS/s uses ours' whole call and PyMC's tuning + sampling time (compilation excluded)")
    arviz_ours = [r["ess_bulk"] for r in theirs["arviz_ours"]]
    arviz_pymc = [r["ess_bulk"] for r in theirs["arviz_pymc"]]
    _print_block(
        "arviz ess_bulk (rank-normalised, split chains) for both",
        _medians(arviz_ours, t_ours),
        _medians(arviz_pymc, t_pymc),
    )
    _print_block(
        "our diagnostics (core.mcmc_diagnostics.effective_sample_size: Geyer, not rank-normalised) for both",
        _medians(ours_estimator(ours_draws, effective_sample_size), t_ours),
        _medians(ours_estimator(pymc_draws, effective_sample_size), t_pymc),
    )
    low_total = min(_medians(arviz_pymc, t_total)[q][1] for q in HYPER)
    low_ours = min(_medians(arviz_ours, t_ours)[q][1] for q in HYPER)
    print()
    print(
        f"with PyMC's total time instead (compilation included), arviz ess_bulk: min hyper ESS/s PyMC "
        f"{low_total:.2f}, ratio ours/PyMC {low_ours / low_total:.1f}"
    )
    print()
    print("R-hat, max over runs (arviz rank-normalised split R-hat / core.mcmc_diagnostics.split_rhat):")
    rh_ours = ours_estimator(ours_draws, split_rhat)
    rh_pymc = ours_estimator(pymc_draws, split_rhat)
    print(f"{'quantity':<10} {'ours':>17} {'PyMC':>17}")
    for q in QUANTITIES:
        a = f"{max(r['rhat'][q] for r in theirs['arviz_ours']):.4f} / {max(r[q] for r in rh_ours):.4f}"
        b = f"{max(r['rhat'][q] for r in theirs['arviz_pymc']):.4f} / {max(r[q] for r in rh_pymc):.4f}"
        print(f"{q:<10} {a:>17} {b:>17}")
    print()
    print("Same posterior? Means and sds over all runs' draws; z = mean difference / combined Monte Carlo error")
    print(f"{'quantity':<10} {'mean ours':>10} {'mean PyMC':>10} {'sd ours':>9} {'sd PyMC':>9} {'z':>6}")
    for k, q in enumerate(QUANTITIES):
        rows = []
        for draws in (ours_draws, pymc_draws):
            values = draws[..., k]
            ess = sum(effective_sample_size(run) for run in values)
            rows.append((float(values.mean()), float(values.std(ddof=1)), float(values.std(ddof=1)) / math.sqrt(ess)))
        (m_a, s_a, e_a), (m_b, s_b, e_b) = rows
        z = (m_a - m_b) / math.hypot(e_a, e_b)
        print(f"{q:<10} {m_a:>10.4f} {m_b:>10.4f} {s_a:>9.4f} {s_b:>9.4f} {z:>6.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("export", "table"))
    parser.add_argument("--out", required=True, help="directory for model.npz, ours.npz/json and pymc.npz/json")
    parser.add_argument("--max-edge", type=float, default=MAX_EDGE)
    parser.add_argument("--draws", type=int, default=2000, help="retained draws over all chains")
    parser.add_argument("--chains", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        for key, value in SMOKE.items():
            setattr(args, key, value)
    return export(args) if args.step == "export" else table(args)


if __name__ == "__main__":
    sys.exit(main())
