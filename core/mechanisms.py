"""All privacy noise of Spatial Privacy is drawn here, and only here.

Keeping every random draw that protects confidential data in one short module makes it
auditable: a reviewer checks this file for the distributions, their parameters and the source of
randomness (always an explicit ``numpy.random.Generator``, made by :func:`generator` from the operating
system's entropy or, for reproducible tests only, from a user's seed; never global state).

Floating-point noise. Mironov (2012, "On significance of the least significant bits for differential
privacy") showed that a value published as ``true + Laplace noise`` in doubles leaks through its low bits:
many doubles one data set can publish cannot come from its neighbour, so the privacy loss is unbounded.
Published values therefore go through :func:`grid_laplace`, the Laplace mechanism on a public grid (the
true value rounded to the grid, plus integer two-sided geometric noise): every grid point within the range
numpy's draw can reach can be published whatever the data, and for the two-sided geometric distribution the
pmf ratio is bounded by ``e^epsilon``. :func:`laplace` is kept for noise that is not published as such (Kim &
Lim's noisy cell intensities only drive a Poisson draw of points).

What floating point leaves is a delta that the stated guarantees do not count. It was derived from numpy's C
code (numpy/random/src/distributions, alike from 1.24 to 2.x) and, for the grid noise, by computing the exact
distribution of the draws from numpy's ziggurat tables (not by sampling):

- :func:`grid_laplace` (see its docstring): about 1e-16 at epsilon = 1, growing with epsilon (5e-15 at 10,
  8e-11 at 20, 2e-3 at 30).
- :func:`laplace`: numpy draws ``b log(2U)`` (or ``-b log(2 - 2U)``) from a 53-bit uniform ``U``, so a draw
  never exceeds ``52 ln 2 = 36.04`` scales: an intensity that only a neighbour can give has probability of the
  order of ``e^(epsilon - 36)`` per cell, below 1e-15 at epsilon = 1.
- :func:`uniforms`: the count synthesizer's inverse-CDF draw gives each choice of a split a whole number of
  multiples of 2**-53 (the uniform's resolution), so each probability is realised to within 1.1e-16; and it
  drops tails below 1e-300 of a node's largest probability. An outcome rarer than about 1e-16 can be drawn more
  or less often than the distribution says: a delta of that order per split.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import ParameterError
from .limits import MIN_EPSILON

#: An upper bound of numpy's standard exponential draw (its ziggurat tail is ``r - log1p(-u)`` with ``u`` a
#: 53-bit double: at most about 7.7 + 53 log 2 = 44.4); a geometric draw of per-trial decay ``d`` is at most
#: ``ceil(this / d)``.
_EXPONENTIAL_MAX = 64.0


def check_epsilon(epsilon, parameter: str = "epsilon") -> float:
    """``epsilon`` as a float, or :class:`ParameterError` naming ``parameter`` if it is not a finite number of
    at least :data:`MIN_EPSILON`."""
    epsilon = float(epsilon)
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ParameterError(parameter, f"epsilon must be a finite number > 0, got {epsilon!r}")
    if epsilon < MIN_EPSILON:
        raise ParameterError(
            parameter,
            f"epsilon must be at least {MIN_EPSILON:g}, got {epsilon:g}: below that the noise no longer fits "
            "the numbers it is drawn and published in",
        )
    return epsilon


def _check_scale(scale: np.ndarray) -> np.ndarray:
    scale = np.asarray(scale, dtype=np.float64)
    if not np.all(np.isfinite(scale)) or np.any(scale <= 0):
        raise ValueError("a noise scale must be finite and > 0")
    return scale


def laplace(rng: np.random.Generator, scale: np.ndarray | float) -> np.ndarray:
    """Draw centred Laplace noise, density ``exp(-|x|/b) / (2b)``, one draw per entry of ``scale``.

    Args:
        rng: the generator; the only source of randomness.
        scale: the scale ``b`` (> 0) of each draw; the variance is ``2 b**2``.

    Returns:
        float64 array of the shape of ``scale``.
    """
    scale = _check_scale(scale)
    return rng.laplace(0.0, 1.0, size=scale.shape) * scale


GRID_STEPS = 64
"""Grid steps per sensitivity in :func:`grid_laplace`: the noise is ``(GRID_STEPS + 1) / GRID_STEPS`` = 1.6 %
wider than the continuous mechanism's and the rounding of the true value is at most 1/128 of the sensitivity."""


@dataclass(frozen=True)
class GridLaplace:
    """A release of :func:`grid_laplace`.

    ``published`` = ``step * (k + Z)``: ``k`` the true value rounded to the grid, ``Z`` the integer noise with
    ``P(Z = z)`` proportional to ``exp(-|z| * step / scale)``. ``step`` and ``scale`` are public (functions of the
    sensitivity and epsilon); ``scale`` is the width of that noise in value units, ``(steps + 1) / steps`` times
    the continuous mechanism's ``sensitivity / epsilon``.
    """

    published: np.ndarray
    step: np.ndarray
    scale: np.ndarray


def grid_laplace(
    rng: np.random.Generator,
    value: np.ndarray,
    sensitivity: np.ndarray | float,
    epsilon: float,
    steps: int = GRID_STEPS,
) -> GridLaplace:
    """The Laplace mechanism released on a grid, epsilon-DP for ``|value - value'| <= sensitivity``.

    The grid step is ``g = sensitivity / steps``. The true value is rounded to ``k = rint(value / g)``, so
    neighbouring values give ``|k - k'| <= steps + 1``, and the release is ``g * (k + Z)`` with ``Z`` the
    two-sided geometric ("discrete Laplace") noise ``P(Z = z) ∝ exp(-epsilon |z| / (steps + 1))``: for every
    grid point ``y`` the ratio of its probabilities under the two values is at most ``e^epsilon`` (the
    discrete Laplace mechanism of Ghosh, Roughgarden & Sundararajan 2012, sensitivity ``steps + 1``). Unlike
    ``value + continuous Laplace`` in doubles (Mironov 2012), the set of possible outputs is the same for every
    input, up to the ends of the range numpy's draw reaches.

    Floating point, not counted in the guarantee. numpy (1.24 to 2.x) draws each geometric as ``ceil(E / d)``,
    with ``d = epsilon / (steps + 1)`` and ``E`` its ziggurat standard exponential, as long as ``d < ln 1.5``
    (epsilon < 26.4 at 64 steps). ``E`` is a double: inside the ziggurat's layers it lies on a lattice of
    spacing below 1e-15, so each noise value's probability is the geometric's up to a relative error of about
    1e-15 / d (6e-14 at epsilon = 1); in the ziggurat's tail ``E = r - log1p(-U)`` with ``r = 7.697`` and ``U`` a
    53-bit uniform, so ``E <= r + 53 ln 2 = 44.43``: the noise never exceeds ``ceil(44.43 / d)`` steps, and its
    last few scales are drawn coarsely. The pmf of ``Z`` computed exactly from numpy's tables (wedges of the
    ziggurat taken as exact) gives the delta by which the ratio bound ``e^epsilon`` fails: 8e-17 at epsilon = 1
    (6e-19 if epsilon + 1e-14 is allowed instead; 4.5e-20 of it because the range ends), 4e-16 at 5, 5e-15 at
    10, 8e-11 at 20 and 2e-8 at 26. From 26.4 numpy draws by a search over one uniform, whose range ends at
    ``36.7 / d`` steps: 7e-5 at 26.5, 2e-3 at 30, 0.6 at 40. Above epsilon = 20 the delta is no longer
    negligible.

    Args:
        rng: the generator; the only source of randomness.
        value: the true values (finite).
        sensitivity: the largest change of a value between neighbours (> 0), per value or one for all.
        epsilon: the privacy parameter (at least :data:`MIN_EPSILON`).
        steps: grid steps per sensitivity (>= 1).

    Raises:
        ParameterError("epsilon"): epsilon below :data:`MIN_EPSILON`, or so small for ``steps`` that the noise
            would leave the exact integers of a double.
        ValueError: a non-finite value, a value beyond 2**52 grid steps (doubles no longer hold the grid
            index exactly), or bad parameters.
    """
    value = np.asarray(value, dtype=np.float64)
    sensitivity = np.broadcast_to(_check_scale(sensitivity), value.shape)
    epsilon = check_epsilon(epsilon)
    if int(steps) != steps or steps < 1:
        raise ValueError("steps must be a whole number >= 1")
    if not np.all(np.isfinite(value)):
        raise ValueError("a value to publish is not finite")
    step = sensitivity / steps
    k = np.rint(value / step)
    decay = epsilon / (steps + 1)  # per grid step
    if _EXPONENTIAL_MAX / decay >= 2.0**52:  # the noise itself would leave the exact integers of a double
        raise ParameterError("epsilon", f"epsilon {epsilon:g} is too small for a noise grid of {steps} steps")
    p = -math.expm1(-decay)  # success probability of each geometric draw
    first, second = rng.geometric(p, size=value.shape), rng.geometric(p, size=value.shape)
    # a draw outside [1, the largest numpy can reach] saturated (int64 min before numpy 1.25, max since): two
    # saturated draws cancel, so never publish them
    reach = math.ceil(_EXPONENTIAL_MAX / decay) + 1
    if any(np.any((draw < 1) | (draw > reach)) for draw in (first, second)):
        raise RuntimeError("a geometric noise draw overflowed")
    z = (first - second).astype(np.float64)
    if not np.all(np.abs(k) + np.abs(z) < 2.0**52):
        raise ValueError("a value is too large for its noise grid (more than 2**52 steps from 0)")
    return GridLaplace(published=step * (k + z), step=step, scale=step / decay)


def grid_laplace_cdf(x: np.ndarray | float, step: np.ndarray | float, scale: np.ndarray | float) -> np.ndarray:
    """``P(step * Z <= x)`` for the integer noise ``Z`` of :func:`grid_laplace` with that ``step`` and
    ``scale``: for ``j = floor(x / step)``, ``e^(-a|j|) / (1 + e^(-a))`` if ``j < 0`` and one minus
    ``e^(-a(j+1)) / (1 + e^(-a))`` otherwise, with ``a = step / scale``."""
    x = np.asarray(x, dtype=np.float64)
    step = _check_scale(step)
    a = step / _check_scale(scale)
    j = np.floor(x / step)
    below = np.exp(-a * np.abs(np.minimum(j, 0.0))) / (1.0 + np.exp(-a))
    above = 1.0 - np.exp(-a * (np.maximum(j, 0.0) + 1.0)) / (1.0 + np.exp(-a))
    return np.where(j < 0, below, above)


def laplace_cdf(x: np.ndarray | float, scale: np.ndarray | float) -> np.ndarray:
    """``P(X <= x)`` for centred Laplace ``X`` with scale ``b``."""
    x = np.asarray(x, dtype=np.float64)
    scale = _check_scale(scale)
    z = x / scale
    return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0.0)), 1.0 - 0.5 * np.exp(-np.maximum(z, 0.0)))


def uniforms(rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """Independent ``U(0, 1)`` draws: the randomness of the posterior-predictive count synthesizer
    (:mod:`.counts`), whose exact sampler turns one uniform per split of its tree into a draw of the
    synthetic counts by the inverse-CDF method. The privacy of that mechanism comes from its output
    distribution (Quick 2021, eqs. 4 and 10), which the sampler reproduces up to double rounding (see the
    module docstring). Also the
    Metropolis-Hastings acceptance draws and step jitter of the posterior samplers (:mod:`.mcmc`) and the
    within-cell jitter of the hyperparameters drawn from a grid posterior (:mod:`.lgcp`), whose released
    posterior draws are the output of posterior-sampling mechanisms (Kim & Lim Theorem 3.8).

    Args:
        rng: the generator; the only source of randomness.
        size: shape of the returned array.

    Returns:
        float64 array of draws in [0, 1).
    """
    return rng.random(size)


def poisson_counts(rng: np.random.Generator, mean: np.ndarray | float) -> np.ndarray:
    """Independent ``Poisson(mean)`` counts, one per entry of ``mean`` (>= 0, finite): the number of
    synthetic points of a Poisson point synthesizer in each region (Kim & Lim Definition 3.2), whose
    privacy comes from the distribution of the released pattern itself.

    Returns:
        int64 array of the shape of ``mean``.
    """
    mean = np.asarray(mean, dtype=np.float64)
    if not np.all(np.isfinite(mean)) or np.any(mean < 0):
        raise ValueError("a Poisson mean must be finite and >= 0")
    return rng.poisson(mean).astype(np.int64)


def standard_normals(rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """Independent ``N(0, 1)`` draws: the raw material of Gaussian noise fields (e.g. Walder et al.'s
    additive noise synthesis, eq. 10, and the Gaussian kernel jitter of a Poisson point synthesizer),
    coloured by the caller with a covariance factor.

    Returns:
        float64 array of the given shape.
    """
    return rng.standard_normal(size)


#: Grid steps per kernel bandwidth for :func:`snap_to_grid`: fine against the noise, coarse against a double.
SNAP_STEPS = 1024


def snap_to_grid(x: np.ndarray, y: np.ndarray, step: float, inside) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates ``true location + continuous noise`` rounded to the public grid ``step * Z^2`` before release.

    The planar form of :func:`grid_laplace`'s rounding. A location published as ``x_i + h z`` in doubles shows
    its low-order bits, and which doubles are reachable depends on ``x_i`` (Mironov 2012); rounded to a public
    grid whose step is far above a double's resolution, every grid point near ``x_i`` is reachable from any
    neighbouring location too, with the probability of the ideal (continuous) mechanism up to rounding of the
    order of a double's resolution over ``step``. The rounding is a deterministic function of the released
    draw (post-processing), so the ideal mechanism's guarantee is unchanged.

    A rounded point that ``inside`` (a vectorised ``(x, y) -> bool`` test of the window) rejects is moved to
    the first corner of its grid cell that lies inside (in a fixed order), then to a grid of half the step, up
    to 20 halvings; a point no such grid point inside the window is near (a sliver thinner than
    ``step / 2^20``) is left as drawn.

    Args:
        x, y: the drawn coordinates (inside the window).
        step: the grid step (> 0, public: e.g. the bandwidth / :data:`SNAP_STEPS`).
        inside: the window test.

    Returns:
        the rounded coordinates, inside the window.
    """
    if not (math.isfinite(step) and step > 0):
        raise ValueError("the grid step must be a finite number > 0")
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    out_x, out_y = x.copy(), y.copy()
    pending = np.arange(x.size)
    for _ in range(21):
        if pending.size == 0:
            break
        px, py = x[pending] / step, y[pending] / step
        done = np.zeros(pending.size, dtype=bool)
        for gx, gy in (
            (np.rint(px), np.rint(py)),
            (np.floor(px), np.floor(py)),
            (np.ceil(px), np.floor(py)),
            (np.floor(px), np.ceil(py)),
            (np.ceil(px), np.ceil(py)),
        ):
            todo = np.flatnonzero(~done)
            if todo.size == 0:
                break
            cx, cy = gx[todo] * step, gy[todo] * step
            ok = np.asarray(inside(cx, cy), dtype=bool)
            out_x[pending[todo[ok]]] = cx[ok]
            out_y[pending[todo[ok]]] = cy[ok]
            done[todo[ok]] = True
        pending = pending[~done]
        step /= 2.0
    return out_x, out_y


#: Lattice steps per radius of :func:`disc_lattice_offsets`: radial synthesis releases points on a lattice of step
#: ``r / DISC_STEPS`` (1.5 mm for a 100 m radius).
DISC_STEPS = 65_536


def disc_lattice_offsets(
    rng: np.random.Generator, count: int, steps: int = DISC_STEPS
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` integer offsets ``(i, j)``, each uniform on the lattice points of the disc
    ``i^2 + j^2 <= (steps - 1)^2``: the perturbation of radial synthesis (Walder et al. Section 5.1) in units of
    ``r / steps``, by rejection from the square (acceptance about pi / 4).

    Uniform on the lattice points is uniform in area up to the lattice's resolution (``P(d <= t) = (t / r)^2``
    within about ``1 / steps``). Offsets on a lattice, added to the true location rounded to the same lattice,
    give a release whose possible values do not depend on the true location's low bits, unlike
    ``x + r sqrt(U) cos(2 pi V)`` in doubles (the floating-point leak of Mironov 2012, see :func:`grid_laplace`).

    Returns:
        two int64 arrays of length ``count``.
    """
    steps = int(steps)
    if steps < 2:
        raise ValueError("the disc needs at least 2 lattice steps per radius")
    count = int(count)
    limit = (steps - 1) ** 2
    out_i = np.empty(count, np.int64)
    out_j = np.empty(count, np.int64)
    filled = 0
    while filled < count:
        batch = max(16, int((count - filled) * 1.35))
        ij = rng.integers(-(steps - 1), steps, size=(2, batch), dtype=np.int64)
        inside = ij[0] * ij[0] + ij[1] * ij[1] <= limit
        take = min(int(np.count_nonzero(inside)), count - filled)
        out_i[filled : filled + take] = ij[0][inside][:take]
        out_j[filled : filled + take] = ij[1][inside][:take]
        filled += take
    return out_i, out_j


def choice_without_replacement(rng: np.random.Generator, weights: np.ndarray, size: int) -> np.ndarray:
    """``size`` distinct indices drawn sequentially with probability proportional to ``weights``
    (the weighted sampling without replacement of Walder et al. Section 5's candidate scheme).

    Returns:
        int64 array of ``size`` indices into ``weights``.
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 1 or not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("weights must be a 1-D array of finite numbers >= 0")
    if size > np.count_nonzero(weights):
        raise ValueError("cannot draw more distinct indices than there are positive weights")
    return rng.choice(weights.size, size=size, replace=False, p=weights / weights.sum()).astype(np.int64)


def multinomial(rng: np.random.Generator, n: int, probs: np.ndarray) -> np.ndarray:
    """How many of ``n`` draws fall in each category of ``probs`` (>= 0, summing to 1): the split of
    posterior draws over the cells of a hyperparameter grid (:func:`.laplace_fit.fit_laplace`).

    Returns:
        int64 array of the shape of ``probs``.
    """
    probs = np.asarray(probs, dtype=np.float64)
    if probs.ndim != 1 or not np.all(np.isfinite(probs)) or np.any(probs < 0):
        raise ValueError("probabilities must be a 1-D array of finite numbers >= 0")
    return rng.multinomial(int(n), probs).astype(np.int64)


def dirichlet(rng: np.random.Generator, alpha: np.ndarray) -> np.ndarray:
    """One draw of ``Dirichlet(alpha)`` (every ``alpha_k`` finite and > 0), as independent ``Gamma(alpha_k, 1)``
    draws divided by their sum: the posterior draw of the category probabilities ``theta^(l)`` in Quick, Holan,
    Wikle & Reiter's synthesis of categorical marks (Section 3; :mod:`.marked.combinations`). Tiny shapes (the
    paper's ``1/K`` for a combination never seen would be one) can make every gamma draw underflow to 0; the
    draw then falls back on ``rng.dirichlet``, which handles that case.

    Returns:
        float64 array of the shape of ``alpha``, >= 0, summing to 1.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.ndim != 1 or alpha.size == 0 or not np.all(np.isfinite(alpha)) or np.any(alpha <= 0):
        raise ValueError("alpha must be a non-empty 1-D array of finite numbers > 0")
    g = rng.standard_gamma(alpha)
    total = float(g.sum())
    if total > 0 and math.isfinite(total):
        return g / total
    return rng.dirichlet(alpha)


def categorical(rng: np.random.Generator, probs: np.ndarray) -> int:
    """One index drawn with probability ``probs`` (>= 0, summing to 1): the mixture component of an
    independence proposal in :mod:`.mcmc`."""
    probs = np.asarray(probs, dtype=np.float64)
    return int(rng.choice(probs.size, p=probs))


def chi_square(rng: np.random.Generator, df: float) -> float:
    """One chi-square draw with ``df`` > 0 degrees of freedom (a Student-t proposal in :mod:`.mcmc`)."""
    return float(rng.chisquare(df))


def permutation(rng: np.random.Generator, n: int) -> np.ndarray:
    """A uniformly random order of ``range(n)`` (shuffling posterior draws grouped by grid cell)."""
    return rng.permutation(int(n))


def generator(seed: int | None = None) -> np.random.Generator:
    """The plugin's only way to make a random generator (PCG64): from fresh operating-system entropy when
    ``seed`` is ``None`` (a real release), else from ``seed`` (a reproducible run, not to be published; also
    each MCMC chain's generator from :func:`child_seeds`)."""
    return np.random.default_rng(None if seed is None else int(seed))


def random_key(size: int = 32) -> bytes:
    """``size`` secret random bytes: the key of the privacy-budget ledger's data-set fingerprints
    (:mod:`.ledger_fingerprint`). Not noise: nothing published depends on it. It is made here because this module
    is the plugin's only source of randomness (the audit rule): each 16 bytes come from a fresh :func:`generator`,
    seeded with 128 bits of operating-system entropy, so a 32-byte key holds 256 bits of entropy."""
    size = int(size)
    if size < 16:
        raise ValueError(f"a key needs at least 16 bytes, got {size}")
    return b"".join(generator().bytes(16) for _ in range(-(-size // 16)))[:size]


def child_seeds(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` seeds for independent child generators (one per MCMC chain), drawn from ``rng``."""
    return rng.integers(0, 2**63 - 1, size=int(count))
