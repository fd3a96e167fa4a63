"""The fast (INLA-style) posterior of an LGCP: Laplace approximations integrated over the hyperparameters.

For fixed theta, :meth:`.lgcp.LGCPModel.laplace` finds the mode ``x*`` of ``p(w, beta | theta, S)`` and its
Hessian ``H`` (Gaussian approximation). The Laplace approximation of the hyperparameter posterior (Rue,
Martino & Chopin 2009, "Approximate Bayesian inference for latent Gaussian models by using integrated nested
Laplace approximations", eq. 3)

    log p(theta | S) ~ log p(theta) + log p(S | x*) + log p(x* | theta) - 1/2 log |H| + const

is maximised (:class:`HyperparameterSearch`), and a grid around its mode in the eigen-coordinates of its
Hessian gives the integration points and weights (:func:`fit_laplace`). Draws pick a grid point with
probability proportional to its weight and then ``x ~ N(x*, H^{-1})`` exactly, through banded Cholesky
factors (core.linalg).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from . import hyper_ccd, mechanisms
from .draw_store import draw_array, row_blocks
from .errors import ParameterError
from .finite_differences import HESSIAN_STEP, _central_gradient, _newton_search, _numerical_hessian
from .lgcp import SPIKE_LIMIT, SPIKE_REMEDY, LaplaceFit, LGCPModel, block_solve
from .posterior import Posterior
from .progress import Progress, report, scaled

#: The mode search pushes back from this ratio on: ``BARRIER_WEIGHT (log ratio - log BARRIER_START)^2`` is
#: added to ``-log p(theta | S)``, a smooth wall (a flat penalty stalled BFGS's finite-difference gradients).
BARRIER_START = 1.25
BARRIER_WEIGHT = 100.0


#: A grid cell whose Laplace log marginal exceeds the mode's by more than this is a failed fit, not mass
#: (the backstop for models without a :class:`.lgcp.NodeCheck`).
GRID_EXCESS = 5.0


def fit_laplace(
    model: LGCPModel,
    rng: np.random.Generator,
    draws: int = 1000,
    grid_step: float = 0.75,
    max_drop: float = 8.0,
    max_points: int = 400,
    progress: Progress = None,
    correction: str = "mean",
    probes: int = 200,
    integration: str = "grid",
    start: np.ndarray | None = None,
) -> Posterior:
    """The fast posterior: Laplace approximations integrated over the hyperparameters.

    ``integration="grid"`` (default): the grid lives in the eigen-coordinates ``z`` of the Gaussian fitted to
    ``log p(theta | S)`` at its mode (``theta = mode + V Lambda^{-1/2} z``, INLA's grid strategy, Rue, Martino &
    Chopin 2009, Section 6.5). It grows outwards from the mode, neighbour by neighbour, while the log density
    stays within ``max_drop`` of the mode, so skewed posteriors are covered. A draw picks a grid cell with
    probability proportional to its density, takes theta uniformly within the cell (so theta is not confined to
    the grid points) and ``x ~ N(x*, H^{-1})`` from the cell's Laplace fit. Checked against the exact MCMC
    sampler (core.mcmc): 1-sd steps and a drop of 6 gave hyperparameter intervals 15-30% too narrow.

    ``integration="ccd"``: INLA's central composite design (Rue, Martino & Chopin 2009, Section 6.5; core.hyper_ccd:
    the mode and 8 points at 1.56 sd for two hyperparameters, stretched for skewness, with the paper's weights),
    after a Newton search for the mode (``start``) whose finite-difference Hessian is also the integration's, plus a
    ring of 8 points at 3 sd that maps the tails of ``p(theta | S)``: about a third of the grid's Laplace fits. A draw
    picks a design point with probability proportional to its CCD weight times its density, theta within that
    point's cell from a density interpolated through the measured ones (:class:`.hyper_ccd.RadialProfile`), and
    ``(beta, w)`` from the Laplace fit at the design point (or at the outer ring's point for a theta beyond
    2.3 sd): the approximation is that ``p(beta, w | theta, S)`` is constant over each cell, as the grid assumes
    over its ~100 cells. Agreed with the exact sampler about as well as the grid on John Snow's data and a
    simulated field (tests/benchmarks/bench_hyper_integration.py).

    Args:
        model: the LGCP.
        rng: source of the posterior draws.
        draws: number of joint draws of (beta, w, theta).
        grid_step: spacing of the grid in standard deviations.
        max_drop: cells whose log density is more than this below the mode's are not explored.
        max_points: upper limit on the number of grid points (a safeguard for flat posteriors). A grid that
            reaches it with cells still to explore is cut short (``diagnostics["grid_truncated"]``): the
            posterior of the hyperparameters is flatter than the grid covers, and the draws miss its far part.
        progress: optional ``progress(fraction, message)``; may raise to cancel.
        correction: ``"mean"`` (default) shifts each grid cell's Gaussian by the first-order skewness
            correction of :func:`skewness_shift`; ``"none"`` draws from the plain Gaussian approximation.
        probes: Gaussian draws per grid cell used by the correction to estimate the variances of eta.
        integration: ``"grid"`` or ``"ccd"`` (above); ``grid_step``, ``max_drop`` and ``max_points`` are the
            grid's.
        start: where the search for the mode of ``p(theta | S)`` starts (default: the prior's centre), e.g. the mode
            on a coarser mesh (core.lgcp_setup's pilot fit): the search ends at the same mode, in fewer Laplace fits.
    """
    if correction not in ("mean", "none"):
        raise ParameterError("correction", f"correction must be 'mean' or 'none', got {correction!r}")
    if integration not in INTEGRATIONS:
        raise ParameterError(
            "hyper_integration", f"the hyperparameter integration must be 'grid' or 'ccd', got {integration!r}"
        )
    search = HyperparameterSearch(model, progress)
    mode, hess = search.mode_and_hessian(method="newton" if integration == "ccd" else "bfgs", start=start)
    eigval, eigvec = np.linalg.eigh(0.5 * (hess + hess.T))
    scale = eigvec / np.sqrt(eigval)  # theta = mode + scale @ z
    search_fits = search.fits
    if integration == "grid":
        points, logs, facts = _grid_points(search, mode, scale, grid_step, max_drop, max_points, progress)
    else:
        points, logs, facts, cells = _ccd_points(search, mode, scale, progress)
    logs = np.array(logs)
    probs = np.exp(logs - logs.max())
    probs /= probs.sum()
    counts = mechanisms.multinomial(rng, draws, probs)
    d = model.design
    dim = mode.size
    beta = np.empty((draws, d.n_coef))
    w = draw_array(draws, d.n_nodes)  # on disk when too large for memory (core.draw_store)
    theta_draws = np.empty((draws, dim))
    if integration == "ccd":
        _ccd_draws(model, search, rng, probs, counts, cells, mode, scale, facts, correction, probes, progress,
                   (beta, w, theta_draws))  # fmt: skip
    filled = 0
    for k, (theta, count) in enumerate(zip(points, counts) if integration == "grid" else ()):
        report(progress, 0.8 + 0.2 * k / len(points), "Drawing from the posterior")
        if count == 0:
            continue
        fit = search.fit_at(theta)
        here = scaled(progress, 0.8 + 0.2 * k / len(points), 0.8 + 0.2 * k / len(points))  # Cancel is seen
        beta[filled : filled + count] = fit.draw(rng, int(count), progress=here, out=w[filled : filled + count])[0]
        if correction == "mean":
            _shift(model, fit, rng, probes, here, beta[filled : filled + count], w[filled : filled + count])
        jitter = (-0.5 + mechanisms.uniforms(rng, (int(count), dim))) * grid_step  # U(-1/2, 1/2) per axis
        theta_draws[filled : filled + count] = theta + jitter @ scale.T
        filled += count
    order = mechanisms.permutation(rng, draws)
    report(progress, 1.0, "Done")
    return Posterior.from_model(
        model,
        "laplace",
        beta[order],
        permute_rows(w, order),
        theta_draws[order],
        {
            "theta_mode": mode.tolist(),
            "theta_hessian": hess.tolist(),
            **facts,
            "hyper_integration": integration,
            "laplace_evaluations": len(search.cache),
            "laplace_fits": search.fits,
            "laplace_fits_mode_search": search_fits,
            "newton_steps": search.newton_steps,
            "optimizer_iterations": search.iterations,
            "correction": correction,
        },
    )


def _shift(model, fit, rng, probes, progress, beta: np.ndarray, w: np.ndarray) -> None:
    """Add :func:`skewness_shift` to draws ``beta`` and ``w`` (views of a fit's draws) in place."""
    shift_w, shift_b = skewness_shift(model, fit, rng, probes, progress=progress)
    beta += shift_b
    for rows in row_blocks(len(w), w.shape[1]):
        w[rows] += shift_w


def permute_rows(a: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``a[order]`` computed in ``a`` itself (and returned), one row at a time along the cycles of ``order``: the
    draws of ``w`` on a mesh of 100,000 nodes are 800 MB, which ``a[order]`` would copy."""
    done = np.zeros(len(order), dtype=bool)
    for i in range(len(order)):
        if done[i] or order[i] == i:
            continue
        first = a[i].copy()
        j = i
        while order[j] != i:
            a[j] = a[order[j]]
            done[j] = True
            j = order[j]
        a[j] = first
        done[j] = True
    return a


#: The integrations over the hyperparameters that :func:`fit_laplace` offers.
INTEGRATIONS = ("grid", "ccd")


def _ccd_draws(model, search, rng, probs, counts, cells, mode, scale, facts, correction, probes, progress, out) -> None:
    """The draws of :func:`fit_laplace` with ``integration="ccd"`` into ``out = (beta, w, theta)``: ``counts[k]``
    draws of ``u`` in design point ``k``'s cell (core.hyper_ccd), theta from them, and ``(beta, w)`` from the
    Laplace fit at the design point, or, for ``u`` beyond the middle between the design's ring and the next
    (:data:`.hyper_ccd.OUTER_RINGS`), at that ring's point in the same direction (where the fit there worked)."""
    design, profile, outer = cells
    plus, minus = np.array(facts["ccd_stretch_plus"]), np.array(facts["ccd_stretch_minus"])
    if profile is None:
        units = hyper_ccd.cell_draws(rng, probs, counts, design, plus, minus)
    else:
        units = hyper_ccd.profile_draws(rng, probs, counts, design, profile)
    split = 0.5 * (hyper_ccd.F0 * math.sqrt(design.shape[1]) + hyper_ccd.OUTER_RINGS[0]) if outer else math.inf
    groups = []  # (theta of the fit, u of its draws)
    for k, u in enumerate(units):
        far = np.linalg.norm(u, axis=1) > split if k and outer and outer[k - 1] is not None else np.zeros(len(u), bool)
        groups.append((outer[k - 1] if far.any() else None, u[far]))
        groups.append((mode + scale @ hyper_ccd.stretched(design[k], plus, minus), u[~far]))
    beta, w, theta_draws = out
    filled = 0
    for k, (theta, u) in enumerate(groups):
        count = len(u)
        report(progress, 0.8 + 0.2 * k / len(groups), "Drawing from the posterior")
        if count == 0:
            continue
        fit = search.fit_at(theta)
        here = scaled(progress, 0.8 + 0.2 * k / len(groups), 0.8 + 0.2 * k / len(groups))  # Cancel is seen
        beta[filled : filled + count] = fit.draw(rng, count, progress=here, out=w[filled : filled + count])[0]
        if correction == "mean":
            _shift(model, fit, rng, probes, here, beta[filled : filled + count], w[filled : filled + count])
        theta_draws[filled : filled + count] = mode + hyper_ccd.stretched(u, plus, minus) @ scale.T
        filled += count


def _failed_or_spiky(search, theta, top: float) -> tuple[float, bool]:
    """The log density at theta and whether it is a failed fit, not posterior mass: a fit that fools the
    integration rule (NodeCheck: with 12 points from log sigma ~ 3 on, 27 to 1e5 above the mode), or one far
    above the mode the optimiser found for another reason (a model without a check)."""
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            value = search.log_marginal(theta)
            spiky = search.spiky(theta)
    except (np.linalg.LinAlgError, ArithmeticError, ValueError):
        value, spiky = math.nan, True
    return value, bool(not np.isfinite(value) or value - top > GRID_EXCESS or spiky)


def _grid_points(search, mode, scale, grid_step, max_drop, max_points, progress):
    """The grid of :func:`fit_laplace`: its points, their log densities and its diagnostics."""
    top = search.log_marginal(mode)
    dim = mode.size
    seen = {(0,) * dim}
    frontier = [(0,) * dim]
    points, logs = [], []
    rejected = 0
    while frontier and len(points) < max_points:
        cell = frontier.pop(0)
        report(progress, 0.4 + 0.4 * min(1.0, len(points) / 120), "Integrating over the hyperparameters")
        theta = mode + scale @ (grid_step * np.array(cell, dtype=np.float64))
        value, failed = _failed_or_spiky(search, theta, top)
        if failed:  # left out and not grown from
            rejected += 1
            continue
        if top - value > max_drop:
            continue
        points.append(theta)
        logs.append(value)
        for axis in range(dim):
            for sign in (-1, 1):
                neighbour = tuple(c + sign * (i == axis) for i, c in enumerate(cell))
                if neighbour not in seen:
                    seen.add(neighbour)
                    frontier.append(neighbour)
    facts = {
        "grid_points": len(points),
        "grid_points_rejected": rejected,
        "grid_truncated": bool(frontier),
        "grid_step": grid_step,
        "max_drop": max_drop,
    }
    return points, logs, facts


def _ccd_points(search, mode, scale, progress):
    """The central composite design of :func:`fit_laplace` (core.hyper_ccd): its points, their log masses
    (log weight + log Jacobian + log density), its diagnostics and the unstretched design (for the cells)."""
    report(progress, 0.4, "Integrating over the hyperparameters")
    top = search.log_marginal(mode)
    dim = mode.size
    plus, minus = np.ones(dim), np.ones(dim)
    for j in range(dim):
        for sign, out in ((1.0, plus), (-1.0, minus)):
            for distance in (hyper_ccd.SKEW_PROBE, hyper_ccd.SKEW_PROBE / 2):  # nearer if the far probe fails
                value, failed = _failed_or_spiky(search, mode + sign * distance * scale[:, j], top)
                if not failed:
                    out[j] = hyper_ccd.stretch(top - value, distance)
                    break
    design = hyper_ccd.unit_design(dim)
    weights = hyper_ccd.ccd_weights(dim, design.shape[0]) * hyper_ccd.jacobians(design, plus, minus)
    points, drops = [], []
    for k, u in enumerate(design):
        report(progress, 0.4 + 0.4 * k / design.shape[0], "Integrating over the hyperparameters")
        theta = mode + scale @ hyper_ccd.stretched(u, plus, minus)
        value, failed = _failed_or_spiky(search, theta, top) if k else (top, False)
        points.append(theta)
        drops.append(-math.inf if failed else value - top)  # a failed fit: no mass, no draws
    drops = np.array(drops)
    profile, outer = None, []
    if dim == 2:  # further rings along the design's directions, for the density of theta's draws
        rings = [-drops[1:]]
        for ring, radius in enumerate(hyper_ccd.OUTER_RINGS):
            falls = []
            for u in design[1:]:
                theta = mode + scale @ hyper_ccd.stretched(u * radius / np.linalg.norm(u), plus, minus)
                value, failed = _failed_or_spiky(search, theta, top)
                falls.append(math.inf if failed else top - value)
                if ring == 0:
                    outer.append(None if failed else theta)
            rings.append(np.array(falls))
        sectors = np.array([[math.cos((i + 0.5) * math.pi / 8), math.sin((i + 0.5) * math.pi / 8)] for i in range(16)])
        radii = [hyper_ccd.F0 * math.sqrt(2), *hyper_ccd.OUTER_RINGS]
        profile = hyper_ccd.RadialProfile(radii, np.column_stack(rings), hyper_ccd.jacobians(sectors, plus, minus))
    facts = {
        "ccd_points": design.shape[0],
        "ccd_points_rejected": int(np.sum(~np.isfinite(drops))),
        "ccd_misfit": hyper_ccd.misfit(design, drops),
        "ccd_stretch_plus": plus.tolist(),
        "ccd_stretch_minus": minus.tolist(),
        "ccd_f0": hyper_ccd.F0,
    }
    return points, np.log(weights) + drops, facts, (design, profile, outer)


def fit_at_theta(
    model: LGCPModel,
    theta,
    rng: np.random.Generator,
    draws: int = 200,
    correction: str = "mean",
    probes: int = 200,
    progress: Progress = None,
) -> Posterior:
    """Posterior draws of ``(beta, w)`` with the hyperparameters fixed at ``theta`` (empirical Bayes):
    one Laplace fit (the Gaussian approximation of ``p(w, beta | theta, S)``), shifted by
    :func:`skewness_shift` unless ``correction="none"``.

    A plug-in shortcut for repeated fits that share hyperparameters with a fit already made (the
    synthesis tools fit the synthetic and the joint models at the confidential posterior mean of
    theta): about 1/20 of :func:`fit_laplace`'s time, but it ignores the uncertainty in theta.

    Args:
        model: the LGCP; theta: the hyperparameters (for the SPDE field ``(log rho, log sigma)``).
        rng: source of the draws; draws: their number.
        correction, probes: as in :func:`fit_laplace`.
        progress: optional ``progress(fraction, message)``, called during the fit and the draws.
    """
    if correction not in ("mean", "none"):
        raise ParameterError("correction", f"correction must be 'mean' or 'none', got {correction!r}")
    theta = np.asarray(theta, dtype=np.float64).ravel()
    if theta.size != model.spde.dim or not np.all(np.isfinite(theta)):
        raise ParameterError("theta", f"theta must be {model.spde.dim} finite numbers, got {theta!r}")
    draws = int(draws)
    if draws < 1:
        raise ParameterError("draws", f"the number of draws must be >= 1, got {draws}")
    with np.errstate(over="ignore", invalid="ignore"):
        fit = model.laplace(theta, progress=scaled(progress, 0.0, 0.3))
    if not (np.all(np.isfinite(fit.w)) and np.all(np.isfinite(fit.beta))):
        raise ParameterError("theta", "the Laplace fit failed (overflow) at these hyperparameters")
    beta, w = fit.draw(rng, draws, progress=scaled(progress, 0.3, 0.85), out=draw_array(draws, fit.w.size))
    if correction == "mean":
        _shift(model, fit, rng, probes, scaled(progress, 0.85, 1.0), beta, w)
    return Posterior.from_model(
        model,
        "laplace-fixed-theta",
        beta,
        w,
        np.tile(theta, (draws, 1)),
        {"theta_fixed": theta.tolist(), "correction": correction, "newton_steps": fit.newton_steps},
    )


def skewness_shift(
    model: LGCPModel, fit: LaplaceFit, rng: np.random.Generator, probes: int = 200, progress: Progress = None
):
    """First-order correction of the Gaussian approximation's mean for the skewness of the Poisson
    likelihood (the idea behind INLA's simplified Laplace approximation, Rue, Martino & Chopin 2009,
    Section 3.2.3, applied to the joint mean).

    With ``x = (w, beta)``, ``eta_i = a_i' x`` at the K integration points and the likelihood term
    ``-alpha_i exp(eta_i)`` (third derivative ``-mu_i``), expanding the log posterior to third order
    about its mode ``x*`` gives ``E[x] - x* ~ -1/2 H^{-1} sum_i a_i mu_i v_i`` with
    ``v_i = a_i' H^{-1} a_i`` the approximate posterior variance of ``eta_i``. The v_i are estimated
    from ``probes`` Gaussian draws; the shift is one solve with the existing factor.

    Why: where the data are sparse the exact posterior of the field is skewed (its upper tail is cut by
    ``-alpha exp(eta)``) and its mean lies below the mode. On the John Snow model the plain Gaussian
    approximation put the distance coefficient at -0.936 and ``E[int lambda]`` at 786 (N = 578) against
    MCMC's -1.123 and 576; with this shift the coefficient is -1.114.

    Returns:
        ``(shift_w, shift_b)`` to add to draws of ``w`` and ``beta``.
    """
    d = model.design
    b, w = fit.draw(rng, max(int(probes), 2), progress=progress)
    # each integration point's probes in a row, less its value at the mode (so that the one-pass variance does not
    # cancel): 0.05 s against numpy's var's 0.4-1.2 s on 300,000 points (100,000 nodes) and 200 probes
    dev = d.int_proj @ w.T + d.x_int @ b.T
    dev -= model.eta_int(fit.w, fit.beta)[:, None]
    size = dev.shape[1]
    mean = dev.mean(axis=1)
    v = (np.einsum("ij,ij->i", dev, dev) - size * mean * mean) / (size - 1)
    r = model.expected_counts(fit.w, fit.beta) * v
    shift_w, shift_b = block_solve(fit.h_ww, fit.z, fit.s_chol, -0.5 * (d.int_proj.T @ r), -0.5 * (d.x_int.T @ r))
    return shift_w, shift_b


def sigma_too_large(smallest_failed: float) -> ParameterError:
    """The error for a prior median of the field's standard deviation so large that the field's precision cannot be
    computed (down to ``smallest_failed``), while it can at a standard deviation of 1 and the prior's median range."""
    return ParameterError(
        "prior_sigma",
        f"the field's precision cannot be computed at a standard deviation of {smallest_failed:.3g} (where the prior "
        "puts it) or above, and it can at 1: the log-intensity would vary by factors of e^sigma. Give a smaller prior "
        "standard deviation.",
    )


def range_error(model, failure: str) -> ParameterError:
    """The error for a prior median range at which the field's precision fails (``failure`` says how): such a range
    is many orders of magnitude larger or smaller than the window (the mesh's extent), and the advice says which."""
    log_range = model.theta_prior.centre()[0]
    mesh = getattr(model, "mesh", None)
    extent = float(np.ptp(mesh.nodes, axis=0).max()) if mesh is not None else math.inf
    larger = not math.isfinite(extent) or log_range >= math.log(extent)
    return ParameterError(
        "prior_range",
        f"{failure} at the prior's median range ({math.exp(log_range):.3g}), as for a range many orders of magnitude "
        f"{'larger' if larger else 'smaller'} than the window"
        + (f" (its mesh spans {extent:.3g})" if math.isfinite(extent) else "")
        + f". Give a {'smaller' if larger else 'larger'} prior range.",
    )


class HyperparameterSearch:
    """Laplace approximations over theta, cached and warm-started, and the mode of
    ``log p(theta | S)`` with its (numerical) Hessian."""

    def __init__(self, model: LGCPModel, progress: Progress = None):
        self.model = model
        self.progress = progress
        self.cache: dict[tuple, LaplaceFit] = {}
        self.iterations = 0
        self.fits = 0  # calls of LGCPModel.laplace, re-factorisations of cached points included
        self.newton_steps = 0  # their Newton steps (each a factorisation)

    def fit_at(self, theta) -> LaplaceFit:
        """The Laplace fit at theta. Only its mode and log marginal are cached (a factor of a large mesh
        takes megabytes); asking again for the full fit re-factorises from the cached mode."""
        key = tuple(np.round(np.asarray(theta, dtype=np.float64), 10))
        cached = self.cache.get(key)
        if cached is not None and cached.h_ww is not None:
            return cached
        theta = np.asarray(theta, dtype=np.float64)
        if cached is None and self.cache:  # start from the mode at the nearest theta fitted so far
            thetas = np.array(list(self.cache))
            cached = list(self.cache.values())[int(np.argmin(np.sum((thetas - theta) ** 2, axis=1)))]
        start = (cached.w, cached.beta) if cached is not None else None
        fit = self.model.laplace(theta, start=start)
        self.fits += 1
        self.newton_steps += fit.newton_steps
        self.cache[key] = LaplaceFit(fit.theta, fit.w, fit.beta, None, None, None, fit.log_marginal, fit.newton_steps)
        return fit

    def log_marginal(self, theta) -> float:
        key = tuple(np.round(np.asarray(theta, dtype=np.float64), 10))
        cached = self.cache.get(key)
        return cached.log_marginal if cached is not None else self.fit_at(theta).log_marginal

    def spike_ratio(self, theta) -> float:
        """:meth:`LGCPModel.spike_ratio` at the Laplace mode at theta (1.0 without a :class:`.lgcp.NodeCheck`)."""
        if self.model.node_check is None:
            return 1.0
        key = tuple(np.round(np.asarray(theta, dtype=np.float64), 10))
        fit = self.cache.get(key) or self.fit_at(theta)
        return self.model.spike_ratio(fit.w, fit.beta)

    def spiky(self, theta) -> bool:
        """Whether the Laplace mode at theta fools the model's integration rule (:class:`.lgcp.NodeCheck`)."""
        return self.spike_ratio(theta) > SPIKE_LIMIT

    def fits_at(self, theta) -> bool:
        """Whether the Laplace fit at ``theta`` gives a finite log marginal (no overflow, no failed factorisation)."""
        try:
            with np.errstate(over="ignore", invalid="ignore"):
                return math.isfinite(self.log_marginal(np.asarray(theta, dtype=np.float64)))
        except (np.linalg.LinAlgError, ArithmeticError, ValueError):
            return False

    def mode_and_hessian(self, method: str = "bfgs", start: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Mode of the Laplace-approximated ``log p(theta | S)`` and the Hessian of its negative there.

        ``method="bfgs"``: BFGS with central-difference gradients, then a finite-difference Hessian.
        ``"newton"``: Newton's method with finite-difference derivatives from 6 points (core.finite_differences), whose
        last stencil's points are 6 of the 9 of the returned Hessian (cached); it falls back on BFGS from its best
        point when a step does not descend or the iterations run out. Measured on 5,000 points in a square: from the
        prior's centre, 27 Laplace fits to the mode with clustered points (20,128 nodes; a narrow ridge) against 73
        when BFGS to a loose tolerance came first, and 67 with uniform points (66 with BFGS first, 8,169 nodes); from a
        pilot fit's mode on a coarser mesh (core.lgcp_setup.pilot_mode) 9-21. ``start``: where the search starts
        (default and fallback: the prior's centre; a start where the fit fails or shows node spikes is not used)."""
        report(self.progress, 0.0, "Finding the mode of the hyperparameter posterior")

        def plain(theta):
            """``-log p(theta | S)`` (Laplace); a point where the fit overflows or fails counts as improbable."""
            report(self.progress, min(0.4, 0.004 * len(self.cache)), "Finding the mode of the hyperparameter posterior")
            if not np.all(np.isfinite(theta)):
                return 1e12
            try:
                with np.errstate(over="ignore", invalid="ignore"):
                    value = -self.log_marginal(theta)
            except (np.linalg.LinAlgError, ArithmeticError, ValueError):  # e.g. exp(theta) over- or underflows
                return 1e12
            return value if math.isfinite(value) else 1e12

        def barrier(theta) -> float:
            """A smooth wall before node spikes fool the likelihood (NodeCheck); 0 where the ratio <= BARRIER_START."""
            try:
                excess = max(0.0, math.log(self.spike_ratio(theta)) - math.log(BARRIER_START))
            except (np.linalg.LinAlgError, ArithmeticError, ValueError):
                return 1e12
            return min(1e12, BARRIER_WEIGHT * excess * excess)

        def negative(theta):
            value = plain(theta)
            return value if value >= 1e12 else min(1e12, value + barrier(theta))

        centre = np.array(self.model.theta_prior.centre(), dtype=np.float64)
        if start is not None:  # a given start where the fit works and shows no node spikes, or else the prior's centre
            start = np.asarray(start, dtype=np.float64).ravel()
            usable = start.shape == centre.shape and np.all(np.isfinite(start)) and negative(start) < 1e12
            start = start if usable and not self.spiky(start) else None
        if start is None and self.model.node_check is not None and centre.size == 2:
            start = centre
            # a prior centred on a huge field sd can put the start where node spikes fool the likelihood, and the
            # barrier is flat out there: start at the first smaller sigma (log sigma lowered 1 at a time) that is not
            failed_fits = 0
            for _ in range(13):
                if negative(start) < 1e12 and not self.spiky(start):
                    break
                failed_fits += plain(start) >= 1e12
                start = start - np.array([0.0, 1.0])
            else:
                if failed_fits == 13:  # no fit at all, spikes or not: the field's precision itself fails
                    if self.fits_at((start[0], 0.0)):  # at a standard deviation of 1 it works
                        raise sigma_too_large(math.exp(start[1] + 1.0))
                    raise range_error(
                        self.model,
                        "the Laplace fit fails numerically at every field standard deviation tried, from the prior's "
                        "median down: the field's precision is numerically singular",
                    )
                raise ParameterError(
                    "integration",
                    "every field standard deviation tried, from the prior's median down, gives fields with spikes at "
                    f"single mesh nodes that the integration points do not see: {SPIKE_REMEDY}",
                )
        start = centre if start is None else start
        newton = _newton_search(negative, start, HESSIAN_STEP) if method == "newton" else None
        if newton is not None and newton[0]:
            result = optimize.OptimizeResult(x=newton[1], nit=newton[2])
        else:  # BFGS with central-difference gradients: about a third of the Laplace fits Nelder-Mead needs
            result = optimize.minimize(
                negative,
                start if newton is None else newton[1],
                method="BFGS",
                jac=lambda t: _central_gradient(negative, t, 1e-4),
                options={"gtol": 1e-3, "maxiter": 100},
            )
            result.nit += 0 if newton is None else newton[2]
        self.iterations = int(result.nit)
        # the Hessian of the posterior itself: the barrier's kink at BARRIER_START would bend it near the wall (after
        # a Newton search its points are all cached: no new Laplace fit unless the barrier was active there)
        hess = _numerical_hessian(plain, result.x, HESSIAN_STEP)
        peaked = bool(np.all(np.linalg.eigvalsh(0.5 * (hess + hess.T)) > 0))
        ratio = self.spike_ratio(result.x)
        if peaked and SPIKE_LIMIT >= ratio > BARRIER_START:
            # the barrier is active: is it holding the point against the posterior? One Newton step of the
            # posterior alone estimates its own mode; if node spikes fool the integration there, it is
            ahead = result.x - np.linalg.solve(0.5 * (hess + hess.T), _central_gradient(plain, result.x, 1e-4))
            try:
                with np.errstate(over="ignore", invalid="ignore"):
                    ratio = max(ratio, self.spike_ratio(ahead))
            except (np.linalg.LinAlgError, ArithmeticError, ValueError):
                ratio = math.inf
        if ratio > SPIKE_LIMIT:
            raise ParameterError(
                "integration",
                "the fit leans towards fields with spikes at single mesh nodes that the integration points do not "
                f"see (there the intensity integral is underestimated {ratio:.3g}-fold), so its likelihood cannot be "
                f"trusted: {SPIKE_REMEDY}",
            )
        if not peaked:
            raise ParameterError("theta", "the hyperparameter posterior is not peaked: try a more informative prior")
        return result.x, hess
