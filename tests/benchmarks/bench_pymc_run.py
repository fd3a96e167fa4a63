#!/usr/bin/env python3
"""PyMC's NUTS on the John Snow LGCP exported by ``bench_pymc_export.py``: the peer's side.

Part of ``tests/benchmarks/bench_pymc.sh`` (not a test, not run by pytest). Run ONLY with the benchmark's
own virtualenv, which has PyMC; this script never imports the plugin, and the plugin never imports PyMC.

It rebuilds from ``model.npz`` the same log posterior as core.mcmc_target.log_joint,

    log p(theta, w, beta | S) = a'w + (sum_k x_k)'beta + sum_k offset_k - sum_i alpha_i exp(eta(u_i))
                                + log N(w; 0, Q^{-1}) + log N(beta; m, diag(s^2)) + log p(theta),

``theta = (log rho, log sigma) ~ N((log rho0, log sigma0), diag(sd^2))``, ``a = A'1`` (A the point
projection), ``Q = L C^{-1} L / xi^2``, ``L = kappa^2 C + G``, ``kappa^2 = 8 / rho^2``,
``xi^2 = 4 pi kappa^2 sigma^2`` (C diagonal: the lumped mass), in the non-centred parameterisation
``w = M(theta) z``, ``z ~ N(0, I)``, with one of two exact maps:

* ``eigen`` (default): with ``C^{-1/2} G C^{-1/2} = U diag(lam) U'`` (computed once; C is diagonal),
  ``Q = C^{1/2} U diag((kappa^2 + lam)^2) U' C^{1/2} / xi^2``, so ``M = C^{-1/2} U diag(xi / (kappa^2 + lam))``:
  one dense matrix-vector product per evaluation.
* ``cholesky``: ``Q`` formed densely for each theta, ``Q = R R'`` (Cholesky), ``M = R^{-T}``.

Before sampling it checks that the model's log density, minus ``log |M(theta)|`` (the Jacobian of
``z -> w``), reproduces ``core.mcmc_target.log_joint`` at the exported test points up to an additive constant,
and that its Q matches ``SPDEMatern.precision`` at one theta. Then it runs NUTS (default tuning,
``--draws`` retained draws per chain) ``--repeats`` times and writes ``pymc.npz`` (draws of log range,
log sigma and the coefficients) and ``pymc.json`` (times, arviz ess_bulk and R-hat of PyMC's draws
and of ours from ``ours.npz``).

    OPENBLAS_NUM_THREADS=1 /tmp/sp-pymc-venv/bin/python tests/benchmarks/bench_pymc_run.py --out DIR [--smoke]

``--smoke`` (``bench_pymc.sh --smoke``): the check and one short NUTS run (50 tuning iterations), for a run of a
few seconds through the same code; its figures mean nothing. Without PyMC the script stops at once and says so.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp

try:
    import arviz as az
    import pymc as pm
    import pytensor
    import pytensor.tensor as pt
    from pytensor.tensor.slinalg import cholesky, solve_triangular
except ImportError as error:  # the project's interpreter: PyMC is never a plugin dependency
    sys.exit(
        f"bench_pymc_run.py needs PyMC ({error}); run it with the benchmark's own virtualenv, which "
        "tests/benchmarks/bench_pymc.sh creates (default /tmp/sp-pymc-venv)"
    )

QUANTITIES = ("log_range", "log_sigma", "intercept", "distance")
#: Largest tolerated spread (max - min over the test points) of log p_PyMC - log p_ours.
LOGP_TOLERANCE = 1e-6


def sparse(data, prefix: str) -> sp.csr_matrix:
    return sp.csr_matrix(
        (data[f"{prefix}_data"], data[f"{prefix}_indices"], data[f"{prefix}_indptr"]),
        shape=tuple(data[f"{prefix}_shape"]),
    )


class SnowModel:
    """The exported LGCP as a PyMC model with the field in the non-centred parameterisation."""

    def __init__(self, path: Path, field: str):
        data = np.load(path)
        self.names = [str(s) for s in data["names"]]
        self.c = data["c"]
        self.g = sparse(data, "g").toarray()
        self.n = self.c.size
        self.p = len(self.names)
        proj = sparse(data, "proj")
        self.a_sum = np.asarray(proj.sum(axis=0)).ravel()
        self.x_sum = data["x_points"].sum(axis=0)
        self.const = float(data["offset_points"].sum())
        self.b = sparse(data, "int_proj").toarray()
        self.alpha = data["int_weights"]
        self.x_int = data["x_int"]
        self.offset_int = data["offset_int"]
        self.beta_mean, self.beta_sd = data["beta_mean"], data["beta_sd"]
        self.range0, self.sigma0, self.sd_log_range, self.sd_log_sigma = (float(v) for v in data["theta_prior"])
        self.tests = {k: data[f"test_{k}"] for k in ("theta", "w", "beta", "logp")}
        self.q_ref = (data["q_ref_theta"], sparse(data, "q_ref").toarray())
        self.field = field
        self.scale = 1.0 / np.sqrt(self.c)
        self.lam, self.u = np.linalg.eigh(self.scale[:, None] * self.g * self.scale[None, :])
        self.k_mat = self.g @ (self.g / self.c[:, None])  # G C^{-1} G
        self.model = self._build()

    # -- the SPDE prior, as numpy (for the checks) ---------------------------------------------------

    @staticmethod
    def coefficients(theta):
        kappa2 = 8.0 * math.exp(-2.0 * theta[0])
        return kappa2, 4.0 * math.pi * kappa2 * math.exp(2.0 * theta[1])

    def precision(self, theta) -> np.ndarray:
        """``Q = (kappa^4 C + 2 kappa^2 G + G C^{-1} G) / xi^2`` formed densely."""
        kappa2, xi2 = self.coefficients(theta)
        return (np.diag(kappa2 * kappa2 * self.c) + 2.0 * kappa2 * self.g + self.k_mat) / xi2

    def whiten(self, theta, w: np.ndarray) -> tuple[np.ndarray, float]:
        """``z = M(theta)^{-1} w`` and ``log |M(theta)|`` for the chosen map."""
        kappa2, xi2 = self.coefficients(theta)
        if self.field == "eigen":
            d = math.sqrt(xi2) / (kappa2 + self.lam)
            return (self.u.T @ (w / self.scale)) / d, float(np.sum(np.log(self.scale)) + np.sum(np.log(d)))
        r = np.linalg.cholesky(self.precision(theta))
        return r.T @ w, -float(np.sum(np.log(np.diag(r))))

    # -- the PyMC model -------------------------------------------------------------------------------

    def _field(self, log_range, log_sigma, z):
        kappa2 = 8.0 * pt.exp(-2.0 * log_range)
        xi2 = 4.0 * math.pi * kappa2 * pt.exp(2.0 * log_sigma)
        if self.field == "eigen":
            d = pt.sqrt(xi2) / (kappa2 + pt.as_tensor(self.lam))
            return pt.as_tensor(self.scale) * pt.dot(pt.as_tensor(self.u), d * z)
        q = (
            pt.as_tensor(np.diag(self.c)) * kappa2**2 + 2.0 * kappa2 * pt.as_tensor(self.g) + pt.as_tensor(self.k_mat)
        ) / xi2
        r = cholesky(q, lower=True)
        return solve_triangular(r.T, z, lower=False)

    def _build(self) -> pm.Model:
        with pm.Model() as model:
            log_range = pm.Normal("log_range", math.log(self.range0), self.sd_log_range)
            log_sigma = pm.Normal("log_sigma", math.log(self.sigma0), self.sd_log_sigma)
            beta = pm.Normal("beta", self.beta_mean, self.beta_sd, shape=self.p)
            z = pm.Normal("z", 0.0, 1.0, shape=self.n)
            w = self._field(log_range, log_sigma, z)
            eta_int = pt.as_tensor(self.offset_int) + pt.dot(pt.as_tensor(self.x_int), beta) + pt.dot(self.b, w)
            pm.Potential(
                "log_likelihood",
                self.const
                + pt.dot(self.a_sum, w)
                + pt.dot(self.x_sum, beta)
                - pt.sum(pt.as_tensor(self.alpha) * pt.exp(eta_int)),
            )
        return model

    # -- the checks -------------------------------------------------------------------------------

    def check(self) -> dict:
        """Cross-check against the exported ``core.mcmc_target.log_joint`` values and the exported precision."""
        theta_ref, q_ref = self.q_ref
        q_err = float(np.max(np.abs(self.precision(theta_ref) - q_ref)) / np.max(np.abs(q_ref)))
        logp_fn = self.model.compile_logp(jacobian=True)
        t = self.tests
        diffs, mine = [], []
        for i in range(t["logp"].size):
            z, log_det_m = self.whiten(t["theta"][i], t["w"][i])
            point = {"log_range": t["theta"][i, 0], "log_sigma": t["theta"][i, 1], "beta": t["beta"][i], "z": z}
            value = float(logp_fn(point)) - log_det_m  # density of w = density of z / |dw/dz|
            mine.append(value)
            diffs.append(value - float(t["logp"][i]))
        diffs = np.array(diffs)
        spread = float(diffs.max() - diffs.min())
        print(f"Log-posterior check ({self.field} field), {diffs.size} test points:")
        print(f"  relative max error of Q against SPDEMatern.precision: {q_err:.2e}")
        for i, (ours, theirs) in enumerate(zip(t["logp"], mine)):
            print(f"  point {i}: ours {ours:.6f}   PyMC - log|dw/dz| {theirs:.6f}   difference {theirs - ours:+.3e}")
        ok = spread < LOGP_TOLERANCE and q_err < 1e-10
        print(
            f"  differences: mean {diffs.mean():+.3e}, spread (max - min) {spread:.3e} "
            f"(tolerance {LOGP_TOLERANCE:g}): {'OK' if ok else 'FAILED'}"
        )
        if not ok:
            raise SystemExit("the PyMC model does not reproduce our log posterior")
        return {"differences": diffs.tolist(), "spread": spread, "q_relative_error": q_err}


def quantity_draws(idata) -> np.ndarray:
    """``(chains, draws, 4)``: log range, log sigma and the coefficients."""
    post = idata.posterior
    beta = post["beta"].values
    return np.concatenate([post["log_range"].values[..., None], post["log_sigma"].values[..., None], beta], axis=-1)


def arviz_diagnostics(draws: np.ndarray) -> dict:
    """arviz ess_bulk and R-hat (rank-normalised split R-hat) of a ``(chains, draws, quantity)`` array."""
    data = az.convert_to_dataset({q: draws[..., k] for k, q in enumerate(QUANTITIES)})
    ess = az.ess(data, method="bulk")
    rhat = az.rhat(data)
    return {
        "ess_bulk": {q: float(ess[q].values) for q in QUANTITIES},
        "rhat": {q: float(rhat[q].values) for q in QUANTITIES},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="directory with model.npz and ours.npz from the export step")
    parser.add_argument("--field", choices=("eigen", "cholesky"), default="eigen")
    parser.add_argument("--draws", type=int, default=None, help="retained draws per chain (default: as ours)")
    parser.add_argument("--tune", type=int, default=1000, help="NUTS tuning iterations per chain (PyMC default)")
    parser.add_argument("--chains", type=int, default=2)
    parser.add_argument("--cores", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.tune, args.repeats = 50, 1
    out = Path(args.out)
    ours = np.load(out / "ours.npz")
    ours_draws = ours["draws"]
    draws = args.draws or ours_draws.shape[2]

    start = time.perf_counter()
    snow = SnowModel(out / "model.npz", args.field)
    build_seconds = time.perf_counter() - start
    print(f"PyMC {pm.__version__}, pytensor {pytensor.__version__}, arviz {az.__version__}")
    print(f"Model: {snow.n} mesh nodes, coefficients {', '.join(snow.names)}; built in {build_seconds:.2f} s")
    check = snow.check()

    runs, sampling, total, divergences, depth, steps = [], [], [], [], [], []
    for r in range(args.repeats):
        t0 = time.perf_counter()
        snow = SnowModel(out / "model.npz", args.field) if r else snow
        with snow.model:
            idata = pm.sample(
                draws=draws,
                tune=args.tune,
                chains=args.chains,
                cores=args.cores,
                random_seed=args.seed + r,
                progressbar=False,
                compute_convergence_checks=False,
            )
        total.append(time.perf_counter() - t0 + (build_seconds if r == 0 else 0.0))
        sampling.append(float(idata.posterior.attrs["sampling_time"]))
        stats = idata.sample_stats
        divergences.append(int(stats["diverging"].values.sum()))
        depth.append(round(float(stats["tree_depth"].values.mean()), 2))
        steps.append(round(float(stats["n_steps"].values.mean()), 1))
        runs.append(quantity_draws(idata))
        ess = arviz_diagnostics(runs[-1])["ess_bulk"]
        print(
            f"  PyMC, run {r + 1}/{args.repeats}: tuning + sampling {sampling[-1]:.1f} s, total {total[-1]:.1f} s, "
            f"{divergences[-1]} divergences, mean tree depth {depth[-1]}, ESS "
            + ", ".join(f"{k} {v:.0f}" for k, v in ess.items()),
            flush=True,
        )

    np.savez(out / "pymc.npz", draws=np.stack(runs), quantities=np.array(QUANTITIES))
    summary = {
        "sampler": "pymc NUTS",
        "versions": {
            "pymc": pm.__version__,
            "pytensor": pytensor.__version__,
            "arviz": az.__version__,
            "numpy": np.__version__,
            "scipy": scipy.__version__,
        },
        "field": args.field,
        "chains": args.chains,
        "cores": args.cores,
        "draws": draws,
        "tune": args.tune,
        "sampling_seconds": sampling,
        "total_seconds": total,
        "divergences": divergences,
        "mean_tree_depth": depth,
        "mean_leapfrog_steps": steps,
        "logp_check": check,
        "arviz_pymc": [arviz_diagnostics(run) for run in runs],
        "arviz_ours": [arviz_diagnostics(run) for run in ours_draws],
    }
    (out / "pymc.json").write_text(json.dumps(summary, indent=1))
    print(f"  wrote {out / 'pymc.npz'}, {out / 'pymc.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
