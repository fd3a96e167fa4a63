"""Exact MCMC for the LGCP of :mod:`.lgcp`: the reference the fast (Laplace) posterior is validated
against.

The chain runs on ``(theta, z)``: the hyperparameters ``theta = (log rho, log sigma)`` and standard normals
``z`` that a Gaussian approximation of ``p(x | theta, S)`` maps to ``x = m(theta) + M(theta) z``; the exact
target density ``pi(theta, z)`` of this whitened parameterisation is defined in :mod:`.mcmc_target`. Two
moves alternate:

1. hyperparameter move (the one-block update of Knorr-Held & Rue 2002, in whitened coordinates):
   ``theta'`` from an independence proposal ``q`` (a mixture of bivariate t kernels on the grid, weighted
   by the Laplace approximation of ``p(theta | S)``, Rue, Martino & Chopin 2009 eq. 3, which it thus
   follows closely, skewness included), and ``z' = r z + sqrt(1 - r^2) xi``, ``xi ~ N(0, I)``. With
   ``r = 0`` this is Knorr-Held & Rue's proposal ``x' ~ N(m(theta'), H(theta')^{-1})``; with ``r`` near 1
   the standardised residual of the field carries over to the new theta, so the non-Gaussian part of the
   target hardly changes and the move is accepted about as often as an independence sampler on
   ``p(theta | S)`` would be. The autoregressive proposal of ``z`` is reversible with respect to
   ``N(0, I)``, so the acceptance probability is

       min(1, pi(theta', z') q(theta) N(z; 0, I) / (pi(theta, z) q(theta') N(z'; 0, I)));

2. field moves at fixed theta, by default Hamiltonian Monte Carlo on ``z`` (Duane et al. 1987; Neal 2011):
   a fresh momentum ``p ~ N(0, I)`` and ``L`` leapfrog steps of the gradient
   ``grad_z log pi = M(theta)' grad_x log p(theta, x | S)`` (``grad_w = A'1 - B'mu - Q w``,
   ``grad_beta = X'1 - X_int'mu - P (beta - m)``; ``M'`` is one banded triangular solve with theta's
   factors), with a step jittered uniformly around the tuned one, accepted with probability
   ``min(1, exp(log pi(z') - |p'|^2 / 2 - log pi(z) + |p|^2 / 2))``. The whitening makes the identity
   mass matrix a good one, and the gradient carries the moves through the non-Gaussian part of the
   target that random-walk proposals cross slowly. The alternative (``field_move="pcn"``) is
   preconditioned Crank-Nicolson ``z' = sqrt(1 - b^2) z + b xi`` (Cotter, Roberts, Stuart & White 2013),
   accepted with probability ``min(1, pi(theta, z') N(z; 0, I) / (pi(theta, z) N(z'; 0, I)))``, cycling
   through a large and a small step, so a state in a heavy tail of the target is left by small moves.

Both moves leave ``pi(theta, z)`` invariant, so the draws of ``(theta, x)`` are exact once the chains
have converged. The field step (HMC leapfrog or pCN) is tuned during warm-up only, and the theta proposal
is then mixed with a t kernel fitted to the warm-up draws of theta; both are frozen afterwards. Chains
start from draws of ``q`` and ``N(0, I)``, each with its own generator seeded from the caller's, and run
in lock-step (one thread: scipy's banded LAPACK wrappers hold the GIL, and worker processes are not safe
inside QGIS), so a time budget truncates them all at the same length.

The convergence diagnostics (split R-hat, effective sample size, :func:`.mcmc_diagnostics.check_convergence`)
are in :mod:`.mcmc_diagnostics`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from . import mcmc_diagnostics, mechanisms
from .draw_store import draw_array
from .errors import ParameterError
from .laplace_fit import HyperparameterSearch, range_error, sigma_too_large
from .lgcp import SPIKE_REMEDY, LGCPModel
from .linalg import sum_log
from .mcmc_target import _Anchor, _Engine, _Target
from .posterior import Posterior
from .progress import Progress, report, scaled

GRID_STEP = 0.5  # spacing of the hyperparameter grid, in standard deviations of the Laplace Gaussian
KERNEL_WIDTH = 1.0  # t-kernel scale of the hyperparameter proposal, in grid steps
PCN_LADDER = (1.0, 0.3)  # field moves cycle through these multiples of the tuned pCN step
PCN_TARGET = 0.3  # acceptance rate the largest pCN step is tuned to during warm-up
HMC_TARGET = 0.7  # mean acceptance probability the HMC leapfrog step is tuned to during warm-up
HMC_JITTER = 0.5  # each trajectory's leapfrog step is the tuned one times U(1 - HMC_JITTER, 1 + HMC_JITTER)
ADAPT_MIN = 100  # warm-up draws of theta (second half, all chains) needed to adapt the theta proposal
ADAPT_WEIGHT = 0.5  # weight of the t kernel fitted to the warm-up draws in the sampling-phase theta proposal


@dataclass
class _ThetaProposal:
    """Independence proposal for theta: a mixture of bivariate t kernels ``t_df(theta_k, chol chol')`` with
    weights ``pi_k`` (a kernel estimate of the Laplace approximation of ``p(theta | S)`` on a grid)."""

    points: np.ndarray
    weights: np.ndarray
    chol: np.ndarray
    df: float = 4.0

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        k = mechanisms.categorical(rng, self.weights)
        t = mechanisms.standard_normals(rng, 2) * math.sqrt(self.df / mechanisms.chi_square(rng, self.df))
        return self.points[k] + self.chol @ t

    def log_density(self, theta: np.ndarray) -> float:
        """Up to a constant that depends on ``df`` alone."""
        u = scipy.linalg.solve_triangular(self.chol, (theta - self.points).T, lower=True)
        terms = np.log(self.weights) - 0.5 * (self.df + 2.0) * np.log1p(np.sum(u * u, axis=0) / self.df)
        terms -= sum_log(np.abs(np.diag(self.chol)))
        top = float(np.max(terms))
        return top + math.log(float(np.sum(np.exp(terms - top))))


@dataclass
class _MixtureProposal:
    """``sum_k p_k q_k`` of :class:`_ThetaProposal` parts with one ``df`` (so their constants agree)."""

    parts: tuple
    probs: np.ndarray

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        return self.parts[mechanisms.categorical(rng, self.probs)].draw(rng)

    def log_density(self, theta: np.ndarray) -> float:
        terms = np.log(self.probs) + np.array([part.log_density(theta) for part in self.parts])
        top = float(np.max(terms))
        return top + math.log(float(np.sum(np.exp(terms - top))))


def _adapted(proposal: _ThetaProposal, history: np.ndarray) -> _ThetaProposal | _MixtureProposal:
    """The proposal for the sampling phase: ``q`` mixed half and half with a t kernel matched to the mean and
    covariance of the warm-up draws ``history`` (fixed from then on, so the chains after warm-up are exact)."""
    if history.shape[0] < ADAPT_MIN:
        return proposal
    cov = np.cov(history.T)
    try:
        chol = np.linalg.cholesky(cov + 1e-12 * np.trace(cov) * np.eye(2))
    except np.linalg.LinAlgError:
        return proposal
    if not np.all(np.isfinite(chol)):
        return proposal
    fitted = _ThetaProposal(history.mean(axis=0)[None, :], np.ones(1), chol, proposal.df)
    return _MixtureProposal((proposal, fitted), np.array([1.0 - ADAPT_WEIGHT, ADAPT_WEIGHT]))


def _explore(target: _Target, scale: np.ndarray, step: float, max_drop: float, max_points: int, progress) -> tuple:
    """The Laplace approximation of ``log p(theta | S)`` on the lattice ``theta = centre + scale (step k)``,
    grown from the centre to every neighbour of a point less than ``max_drop`` below the best one (the grid
    exploration of INLA, Rue et al. 2009, Section 6.1). Adds every anchor's mode as a Newton start."""
    values: dict[tuple[int, int], float] = {}
    queue = [(0, 0)]
    best = -math.inf
    while queue and len(values) < max_points:
        key = queue.pop(0)
        if key in values:
            continue
        theta = target.centre + scale @ (step * np.array(key, dtype=np.float64))
        anchor = target.anchor(theta, tol=1e-6, max_steps=50)
        # (a fit that fools the integration rule, core.lgcp.NodeCheck, has no anchor: it is not posterior mass)
        values[key] = -math.inf if anchor is None else target.laplace_log_marginal(anchor)
        report(progress, len(values) / max_points, "Mapping the hyperparameter posterior")
        if anchor is None:
            continue
        target.add_start(theta, anchor.gauss)
        best = max(best, values[key])
        if values[key] > best - max_drop:
            i, j = key
            queue += [k for k in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)) if k not in values]
    keys = [k for k, v in values.items() if v > best - max_drop - 2.0]
    logs = np.array([values[k] for k in keys])
    points = np.array([target.centre + scale @ (step * np.array(k, dtype=np.float64)) for k in keys])
    weights = np.exp(logs - logs.max())
    return points, weights / weights.sum(), len(values)


class _Chain:
    """One chain on ``(theta, z)``; its own generator makes it reproducible whatever the others do."""

    def __init__(self, target: _Target, proposal: _ThetaProposal | None, fixed: _Anchor | None, rng, persistence):
        self.target = target
        self.proposal = proposal
        self.rng = rng
        self.persistence = persistence
        self.pcn = 0.5
        self.hmc = 0.1
        if fixed is not None:
            self.anchor = fixed
        else:
            self.anchor = None
            for _ in range(100):  # overdispersed start: a draw of the t proposal
                self.anchor = target.anchor(proposal.draw(rng))
                if self.anchor is not None:
                    break
            if self.anchor is None:
                raise ParameterError("theta", "the Laplace approximation failed at every starting point")
        self.z = mechanisms.standard_normals(rng, target.engine.n + target.engine.p)
        self.log_pi, self.w, self.beta = target.log_density(self.anchor, self.z)
        self.tries = np.zeros(2, dtype=np.int64)  # theta moves, field moves
        self.accepts = np.zeros(2, dtype=np.int64)
        self.newton_steps = 0

    def theta_move(self) -> None:
        rng, prop = self.rng, self.proposal
        theta = prop.draw(rng)
        r = self.persistence
        z = r * self.z + math.sqrt(1.0 - r * r) * mechanisms.standard_normals(rng, self.z.size)
        log_u = math.log(mechanisms.uniforms(rng, None))
        self.tries[0] += 1
        anchor = self.target.anchor(theta)
        if anchor is None:
            return
        self.newton_steps += anchor.newton_steps
        log_pi, w, beta = self.target.log_density(anchor, z)
        log_ratio = (
            log_pi
            - self.log_pi
            + prop.log_density(self.anchor.theta)
            - prop.log_density(theta)
            + 0.5 * (float(z @ z) - float(self.z @ self.z))
        )
        if log_u < log_ratio:
            self.anchor, self.z, self.log_pi, self.w, self.beta = anchor, z, log_pi, w, beta
            self.accepts[0] += 1

    def field_move(self, b: float) -> bool:
        rng = self.rng
        z = math.sqrt(1.0 - b * b) * self.z + b * mechanisms.standard_normals(rng, self.z.size)
        log_u = math.log(mechanisms.uniforms(rng, None))
        log_pi, w, beta = self.target.log_density(self.anchor, z)
        self.tries[1] += 1
        if log_u < log_pi - self.log_pi + 0.5 * (float(z @ z) - float(self.z @ self.z)):
            self.z, self.log_pi, self.w, self.beta = z, log_pi, w, beta
            self.accepts[1] += 1
            return True
        return False

    def hmc_move(self, eps: float, steps: int) -> float:
        """One Hamiltonian Monte Carlo transition on ``z`` at fixed theta (identity mass matrix: the whitening
        already preconditions): ``steps`` leapfrog steps of size ``eps`` times a uniform jitter, with a fresh
        momentum, accepted with probability ``min(1, exp(-H(z', p') + H(z, p)))``. Returns that probability."""
        rng, target = self.rng, self.target
        momentum = mechanisms.standard_normals(rng, self.z.size)
        eps = eps * ((1.0 - HMC_JITTER) + 2.0 * HMC_JITTER * mechanisms.uniforms(rng, None))
        log_u = math.log(mechanisms.uniforms(rng, None))
        self.tries[1] += 1
        start, grad, _, _ = target.log_density_and_gradient(self.anchor, self.z)
        if not math.isfinite(start):
            return 0.0
        energy = start - 0.5 * float(momentum @ momentum)
        z = self.z.copy()
        momentum = momentum + 0.5 * eps * grad
        for k in range(steps):
            z += eps * momentum
            log_pi, grad, w, beta = target.log_density_and_gradient(self.anchor, z)
            if not (math.isfinite(log_pi) and np.all(np.isfinite(grad))):
                return 0.0  # the reversed trajectory meets the same point: rejecting is exact
            momentum += (0.5 if k == steps - 1 else 1.0) * eps * grad
        log_ratio = log_pi - 0.5 * float(momentum @ momentum) - energy
        if not math.isfinite(log_ratio):
            return 0.0
        if log_u < log_ratio:
            self.z, self.w, self.beta = z, w, beta
            self.log_pi = target.log_density(self.anchor, z)[0]
            self.accepts[1] += 1
        return math.exp(min(0.0, log_ratio))


def fit_mcmc(
    model: LGCPModel,
    rng: np.random.Generator,
    draws: int = 1000,
    chains: int = 2,
    warmup: int = 500,
    thin: int = 1,
    max_seconds: float | None = None,
    progress: Progress = None,
    fixed_theta=None,
    field_steps: int = 10,
    persistence: float = 0.999,
    field_move: str = "hmc",
    theta_moves: int = 2,
) -> Posterior:
    """Exact posterior draws of an LGCP by MCMC (module docstring), the reference for :func:`.laplace_fit.fit_laplace`.

    Args:
        model: the LGCP.
        rng: the only source of randomness (each chain gets its own generator seeded from it).
        draws: number of retained draws, over all chains.
        chains: number of chains (>= 1; >= 2 for a meaningful R-hat).
        warmup: iterations per chain discarded while the proposals are tuned.
        thin: keep every ``thin``-th iteration after warm-up.
        max_seconds: optional wall-time budget for the whole call (seconds); when it runs out all chains
            stop at the same length and fewer draws are returned (``diagnostics["stopped_early"]``).
        progress: optional ``progress(fraction, message)``; may raise to cancel.
        fixed_theta: optional ``(log rho, log sigma)``: sample ``p(w, beta | theta, S)`` at these
            hyperparameters instead of the full posterior.
        field_steps: per iteration, leapfrog steps of the one HMC field move (``field_move="hmc"``) or the
            number of pCN field moves (``"pcn"``); >= 0, >= 1 with ``fixed_theta``.
        persistence: ``r`` of the hyperparameter move, in [0, 1); 0 is Knorr-Held & Rue's one-block update.
        field_move: ``"hmc"`` (Hamiltonian Monte Carlo in the whitened coordinates) or ``"pcn"``.
        theta_moves: hyperparameter moves per iteration (>= 1; ignored with ``fixed_theta``).

    Returns:
        A :class:`.posterior.Posterior` with ``method="mcmc"``; the draws are in chain order (chain 0 first,
        ``diagnostics["draws_per_chain"]`` each, the last chain cut to make ``draws`` in all).
        ``diagnostics`` holds the acceptance rates of both moves (``acceptance_theta``,
        ``acceptance_field``), the tuned field steps (``hmc_step``, ``pcn_step``), split R-hat and ESS
        (``rhat``, ``ess``: dicts over ``log_range``, ``log_sigma`` and the coefficient names), the wall
        time (``seconds``, of which ``setup_seconds`` before sampling) and the settings.

    Raises:
        ParameterError: a bad argument (named), a hyperparameter posterior without a clear mode, or a
            time budget too short for 4 draws per chain.
    """
    if not model.is_spde:
        raise ParameterError("method", "the MCMC sampler supports the SPDE field prior only; use the fast method")
    for name, value, low in (("draws", draws, 1), ("chains", chains, 1), ("warmup", warmup, 0), ("thin", thin, 1)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ParameterError(name, f"{name} must be an integer >= {low}, got {value!r}")
    if isinstance(field_steps, bool) or int(field_steps) != field_steps or field_steps < 0:
        raise ParameterError("field_steps", f"field_steps must be an integer >= 0, got {field_steps!r}")
    if fixed_theta is not None and field_steps < 1:
        raise ParameterError("field_steps", "with fixed hyperparameters the field moves are the only moves: use >= 1")
    if not 0.0 <= persistence < 1.0:
        raise ParameterError("persistence", f"persistence must lie in [0, 1), got {persistence!r}")
    if isinstance(theta_moves, bool) or int(theta_moves) != theta_moves or theta_moves < 1:
        raise ParameterError("theta_moves", f"theta_moves must be an integer >= 1, got {theta_moves!r}")
    theta_moves = int(theta_moves)
    if field_move not in ("hmc", "pcn"):
        raise ParameterError("field_move", f"field_move must be 'hmc' or 'pcn', got {field_move!r}")
    if max_seconds is not None and not max_seconds > 0:
        raise ParameterError("max_seconds", f"max_seconds must be > 0, got {max_seconds!r}")
    draws, chains, warmup, thin, field_steps = int(draws), int(chains), int(warmup), int(thin), int(field_steps)
    started = time.perf_counter()
    d = model.design
    seeds = mechanisms.child_seeds(rng, chains)
    try:
        engine = _Engine(model)
    except ArithmeticError:  # the self-check's sigma^2 or kappa^2 = 8 / range^2 overflows at the prior's medians
        log_range, log_sigma = model.theta_prior.centre()
        if HyperparameterSearch(model).fits_at((log_range, 0.0)):  # at a standard deviation of 1 it works
            raise sigma_too_large(math.exp(log_sigma)) from None
        raise range_error(model, "the field's precision cannot be computed") from None
    except np.linalg.LinAlgError:  # the self-check factorises kappa^2 C + G at the prior's median range
        raise range_error(model, "the field's precision cannot be factorised: it is numerically singular") from None
    if fixed_theta is None:
        search = HyperparameterSearch(model, scaled(progress, 0.0, 0.05))
        mode, hess = search.mode_and_hessian()
        eigval, eigvec = np.linalg.eigh(0.5 * (hess + hess.T))
        scale = eigvec / np.sqrt(eigval)  # theta = mode + scale u, u ~ N(0, I) under the Laplace Gaussian
        target = _Target(engine, mode, np.linalg.inv(scale))
        centre = search.fit_at(mode)
        target.starts, target.start_u = [(centre.w, centre.beta)], np.zeros((1, 2))
        points, weights, n_grid = _explore(target, scale, GRID_STEP, 9.0, 600, scaled(progress, 0.05, 0.1))
        target.starts, target.start_u = target.starts[1:], target.start_u[1:]  # grid modes only from now on
        proposal = _ThetaProposal(points, weights, GRID_STEP * KERNEL_WIDTH * scale)
        fixed = None
    else:
        theta = np.asarray(fixed_theta, dtype=np.float64)
        if theta.shape != (2,) or not np.all(np.isfinite(theta)):
            raise ParameterError("fixed_theta", f"fixed_theta must be two finite numbers, got {fixed_theta!r}")
        target = _Target(engine, theta, np.eye(2))
        fixed = target.anchor(theta, tol=1e-8, max_steps=200)
        if fixed is None and target.last_spiky:
            raise ParameterError(
                "integration",
                "at these hyperparameters the fit has spikes at single mesh nodes that the integration points do "
                f"not see: {SPIKE_REMEDY}",
            )
        if fixed is None:
            raise ParameterError("fixed_theta", "the Laplace approximation failed at these hyperparameters")
        proposal, mode, hess, n_grid = None, theta, None, 0
    setup_seconds = time.perf_counter() - started
    runs = [_Chain(target, proposal, fixed, mechanisms.generator(int(s)), persistence) for s in seeds]
    per_chain = -(-draws // chains)
    total_iter = warmup + per_chain * thin
    n, p = d.n_nodes, d.n_coef
    keep_theta: list[np.ndarray] = []  # one (chains, ...) array per retained iteration
    keep_beta: list[np.ndarray] = []
    keep_w = draw_array(chains * per_chain, n)  # chain c's k-th draw in row c * per_chain + k; on disk when large
    kept = 0
    history: list[np.ndarray] = []  # theta in the second half of warm-up, for the sampling-phase proposal
    stopped_early = False
    report(progress, 0.1, "Sampling")
    for it in range(total_iter):
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            stopped_early = True
            break
        for chain in runs:
            for _ in range(0 if fixed is not None else theta_moves):
                chain.theta_move()
            if field_move == "hmc":
                if field_steps:
                    rate = chain.hmc_move(chain.hmc, field_steps)
                    if it < warmup:  # Robbins-Monro tuning of the leapfrog step towards HMC_TARGET acceptance
                        chain.hmc = float(
                            np.clip(chain.hmc * math.exp((rate - HMC_TARGET) / math.sqrt(it + 1)), 1e-4, 2.0)
                        )
                continue
            moved = [chain.field_move(chain.pcn * PCN_LADDER[k % len(PCN_LADDER)]) for k in range(field_steps)]
            if it < warmup and moved:  # Robbins-Monro tuning of the largest pCN step towards PCN_TARGET acceptance
                rate = float(np.mean(moved[:: len(PCN_LADDER)]))
                chain.pcn = float(np.clip(chain.pcn * math.exp((rate - PCN_TARGET) / math.sqrt(it + 1)), 1e-3, 1.0))
        if fixed is None and warmup // 2 <= it < warmup:
            history.extend(chain.anchor.theta for chain in runs)
        if it == warmup - 1:
            if fixed is None:
                adapted = _adapted(proposal, np.array(history))
                for chain in runs:
                    chain.proposal = adapted
            for chain in runs:
                chain.tries[:] = 0
                chain.accepts[:] = 0
                chain.newton_steps = 0
        if it >= warmup and (it - warmup) % thin == thin - 1:
            keep_theta.append(np.array([chain.anchor.theta for chain in runs]))
            keep_beta.append(np.array([chain.beta for chain in runs]))
            for c, chain in enumerate(runs):
                keep_w[c * per_chain + kept] = chain.w
            kept += 1
        if it % 10 == 0:
            report(progress, 0.1 + 0.9 * (it + 1) / total_iter, "Sampling" if it >= warmup else "Warming up")
    if kept < 4:
        raise ParameterError("max_seconds", "the time budget ran out before 4 draws per chain were retained")
    keep_theta, keep_beta = (np.stack(v, axis=1) for v in (keep_theta, keep_beta))
    for c in range(1, chains if kept < per_chain else 0):  # close the gaps a time budget left: chain after chain
        for k in range(kept):
            keep_w[c * kept + k] = keep_w[c * per_chain + k]
    keep_w = keep_w[: chains * kept]
    diagnostics = _diagnostics(keep_theta, keep_beta, d.names, runs, fixed is not None)
    diagnostics.update(
        {
            "chains": chains,
            "warmup": warmup,
            "thin": thin,
            "draws_per_chain": kept,
            "stopped_early": stopped_early,
            "field_steps": field_steps,
            "persistence": persistence,
            "field_move": field_move,
            "pcn_step": [chain.pcn for chain in runs],
            "hmc_step": [chain.hmc for chain in runs],
            "theta_mode": np.asarray(mode).tolist(),
            "theta_hessian": None if hess is None else np.asarray(hess).tolist(),
            "grid_points": n_grid,
            "newton_steps_per_theta_move": float(
                sum(chain.newton_steps for chain in runs) / max(1, sum(int(chain.tries[0]) for chain in runs))
            ),
            "fixed_theta": fixed is not None,
            # draws whose field fools the integration rule (core.lgcp.NodeCheck); should be 0
            "spiky_draws": int(
                sum(model.is_spiky(w, b) for w, b in zip(keep_w[: min(draws, chains * kept)], keep_beta.reshape(-1, p)))
            ),
            "setup_seconds": setup_seconds,
            "seconds": time.perf_counter() - started,
        }
    )
    total = min(draws, chains * kept)
    report(progress, 1.0, "Done")
    theta_draws = keep_theta.reshape(-1, keep_theta.shape[-1])[:total]
    return Posterior.from_model(
        model, "mcmc", keep_beta.reshape(-1, p)[:total], keep_w[:total], theta_draws, diagnostics
    )


def _diagnostics(theta, beta, names, runs, fixed: bool) -> dict:
    columns = [] if fixed else [("log_range", theta[..., 0]), ("log_sigma", theta[..., 1])]
    columns += [(name, beta[..., j]) for j, name in enumerate(names)]
    tries = sum(chain.tries for chain in runs)
    accepts = sum(chain.accepts for chain in runs)
    return {
        "acceptance_theta": None if fixed else float(accepts[0] / max(tries[0], 1)),
        "acceptance_field": float(accepts[1] / max(tries[1], 1)),
        "rhat": {name: mcmc_diagnostics.split_rhat(v) for name, v in columns},
        "ess": {name: mcmc_diagnostics.effective_sample_size(v) for name, v in columns},
    }
