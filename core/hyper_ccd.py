"""INLA's central composite design (CCD) for the integration over the hyperparameters of the fast posterior.

Rue, Martino & Chopin (2009), "Approximate Bayesian inference for latent Gaussian models by using integrated
nested Laplace approximations", JRSS B 71, Section 6.5. In the standardised coordinates ``z`` of the Gaussian
fitted to ``log p(theta | S)`` at its mode (``theta = mode + V Lambda^{-1/2} z``), the design is the centre and,
on the sphere of radius ``f0 sqrt(m)`` (``f0 = 1.1``), the ``2^m`` factorial points and the ``2m`` star points
(for the ``m = 2`` hyperparameters of the SPDE field: 9 points; for ``m = 1`` the two star points, 3 points).

Skewness (Martins, Simpson, Lindgren & Rue 2013, Section 3.1, as R-INLA does): along each axis ``j`` the
half-axes are stretched by ``s_j^+`` and ``s_j^-`` found from the log-density drop ``d`` at ``z = +/- 2 e_j``:
a Gaussian drops by ``2^2 / 2 = 2`` there, so ``s = 2 / sqrt(2 d)``. The design point ``u`` (unstretched) sits
at ``z = s(u) * u`` (componentwise, the side's ``s``).

Weights (Section 6.5): with density values ``pi_k``, ``int f(theta) pi(theta) dtheta ~ sum_k w_k f(theta_k) pi_k``
where the weight of the centre, ``w_0``, and that of each of the other ``n_p - 1`` points, ``w``, make the
rule exact for the mass and the second moment of a standard Gaussian in ``z``:
``w_0 + (n_p - 1) w e^{-m f0^2 / 2} = (2 pi)^{m/2}`` and ``(n_p - 1) w m f0^2 e^{-m f0^2 / 2} = m (2 pi)^{m/2}``,
so ``w / w_0 = e^{m f0^2 / 2} / ((n_p - 1)(f0^2 - 1))``, the ratio of the paper's weights (R-INLA normalises
them to sum to 1). With the stretch, ``dz = prod_j s_j du``: each weight is multiplied by the product of its
point's ``s`` (a coordinate 0 takes the mean of the two sides).

Draws: a design point is chosen with probability ``w_k J_k pi_k / sum`` (INLA's CCD mixture), and theta is
drawn within a cell of ``u``-space around it whose mass under theta's density is exactly that probability (a
disc at the centre, angular sectors outside it), so that theta's marginal is that density:

- ``m = 2`` (:class:`RadialProfile`, :func:`profile_draws`): a density through the log densities measured at the
  design's ring and at one further ring (:data:`OUTER_RINGS`, 8 more Laplace fits) along the design's eight
  directions. The split Gaussian fitted through ``s^+/-`` (R-INLA's approximation of the hyperparameter
  marginals) is what this gives for a posterior that is Gaussian up to skewness; on a simulated field whose
  posterior is banana-shaped it put the 97.5% quantile of log sigma at 0.34 against the exact sampler's 0.53,
  and this profile at 0.55.
- ``m = 1`` (:func:`cell_draws`): the split Gaussian.

core.laplace_fit takes ``(beta, w)`` from the Laplace fit at the chosen design point, or, for a theta beyond
the middle between the two rings, at the outer ring's point in its direction.
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
from scipy import stats

from . import mechanisms
from .errors import ParameterError

#: Radius of the design's sphere in units of ``sqrt(m)`` (Rue, Martino & Chopin 2009, Section 6.5).
F0 = 1.1
#: Where the stretches ``s_j^+/-`` are measured, in standard deviations.
SKEW_PROBE = 2.0
#: Radii in ``u`` of the further rings of log densities measured along the design's directions for the
#: :class:`RadialProfile` of theta's draws (``m = 2``); the design's own ring is at ``f0 sqrt(2)``.
OUTER_RINGS = (3.0,)
#: Limits on the stretches: a half-axis is not taken as more than 5 or less than 1/5 of the Gaussian's.
STRETCH_LIMITS = (0.2, 5.0)


def unit_design(m: int) -> np.ndarray:
    """The CCD points in unstretched ``u``: the centre first, then the points on the sphere of radius
    ``f0 sqrt(m)`` (``m = 2``: four star and four factorial points, in order of angle from the first axis;
    ``m = 1``: the two star points)."""
    if m == 1:
        return np.array([[0.0], [-F0], [F0]])
    if m != 2:
        raise ParameterError("hyper_integration", f"the central composite design is implemented for 1 or 2 "
                             f"hyperparameters, this model has {m}: use the grid")  # fmt: skip
    radius = F0 * math.sqrt(m)
    star = [radius * np.eye(m)[j] * sign for j in range(m) for sign in (1, -1)]
    factorial = [F0 * np.array(signs) for signs in product((1.0, -1.0), repeat=m)]
    outer = np.array(star + factorial)
    order = np.argsort(np.mod(np.arctan2(outer[:, 1], outer[:, 0]), 2 * math.pi), kind="stable")
    return np.vstack([np.zeros(m), outer[order]])


def ccd_weights(m: int, n_points: int) -> np.ndarray:
    """The CCD weights (centre first) for ``n_points`` design points, normalised so that the centre's is 1:
    ``w = e^{m f0^2 / 2} / ((n_p - 1)(f0^2 - 1))`` for the others (module docstring)."""
    other = math.exp(m * F0 * F0 / 2.0) / ((n_points - 1) * (F0 * F0 - 1.0))
    return np.concatenate([[1.0], np.full(n_points - 1, other)])


def stretch(drop: float, distance: float = SKEW_PROBE) -> float:
    """``s`` from the log-density drop at ``distance`` standard deviations along a half-axis (a Gaussian drops by
    ``distance^2 / 2``), within :data:`STRETCH_LIMITS`."""
    if not (math.isfinite(drop) and drop > 0):
        return STRETCH_LIMITS[1]
    return float(np.clip(distance / math.sqrt(2.0 * drop), *STRETCH_LIMITS))


def stretched(u: np.ndarray, plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """``z`` from ``u`` (rows): each coordinate times its side's stretch."""
    return np.where(u > 0, u * plus, u * minus)


def jacobians(u: np.ndarray, plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """``dz / du`` at the rows of ``u``: the product of the sides' stretches (the mean of both at a 0)."""
    side = np.where(u > 0, plus, np.where(u < 0, minus, 0.5 * (plus + minus)))
    return np.prod(side, axis=1)


def cell_draws(
    rng: np.random.Generator, probs: np.ndarray, counts: np.ndarray, design: np.ndarray, plus, minus
) -> list:
    """For ``m = 1``: draws of ``u`` from the split Gaussian restricted to each design point's cell, ``counts[k]``
    in cell ``k`` (for ``m = 2`` see :func:`profile_draws`).

    The split Gaussian (continuous density ``exp(-(z / s)^2 / 2)`` in ``z``, ``s`` the side's stretch) is, in
    ``u = z / s``, the standard Gaussian with each side's mass proportional to its stretch. The cells are the
    three intervals (left, centre, right) with masses ``probs`` (centre first, then the points of
    :func:`unit_design`) in its distribution function. Returns a list of ``(counts[k], 1)`` arrays."""
    probs = np.asarray(probs, dtype=np.float64) / np.sum(probs)
    left = float(minus[0]) / float(plus[0] + minus[0])
    edges = np.concatenate([[0.0], np.cumsum(probs[[1, 0, 2]])])  # left, centre, right
    edges[-1] = 1.0
    out = []
    for k, slot in zip(range(3), (1, 0, 2)):
        lo, hi = edges[slot], edges[slot + 1]
        t = lo + (hi - lo) * mechanisms.uniforms(rng, int(counts[k]))
        q = np.where(t < left, t / (2 * left), 0.5 + (t - left) / (2 * (1 - left)))  # each side's half-normal
        out.append(stats.norm.ppf(np.clip(q, 1e-300, 1 - 1e-16))[:, None])
    return out


def misfit(design: np.ndarray, logs: np.ndarray) -> float:
    """The largest gap between the log density at a design point (relative to the mode's) and the split
    Gaussian's, ``-|u|^2 / 2``: 0 for a Gaussian posterior (stretches 1) or one whose only departure is the skew
    the stretches capture; large where the posterior is curved (a banana), which the split Gaussian misses.
    Failed points (``-inf``) are left out."""
    gaps = np.asarray(logs) + 0.5 * np.sum(design * design, axis=1)
    gaps = gaps[np.isfinite(gaps)]
    return float(np.max(np.abs(gaps))) if gaps.size else math.inf


#: Limits on the slope of ``-log p`` against ``|u|^2`` between the rings of :class:`RadialProfile` (a Gaussian's is
#: 1/2): no flatter than a Gaussian 5 times as wide, no steeper than one 1/5 as wide.
SLOPE_LIMITS = (0.02, 12.5)
#: Beyond the last ring :class:`RadialProfile` continues ``-log p`` linearly in ``|u|`` with the last segment's
#: slope, at least this (an e-fold fall of the density per unit of ``|u|``).
TAIL_SLOPE_MIN = 0.5
#: The radial tables of :class:`RadialProfile`: ``|u|`` from 0 to the last ring plus this, in this many steps.
TABLE_REACH, TABLE_STEPS = 60.0, 12000


class RadialProfile:
    """A density for theta in ``u`` (``m = 2``) through the log densities measured along the design's eight
    directions. The plane is cut into 16 sectors of angle pi / 8, each belonging to its nearest direction; in a
    sector, ``f = -log p(theta(u) | S) + log p(mode | S)`` is that direction's profile, interpolated linearly in
    ``|u|^2`` through 0 at the mode and the measured drops at the rings' radii, and continued beyond the last ring
    linearly in ``|u|`` with the last segment's slope (at least :data:`TAIL_SLOPE_MIN`): exact for a Gaussian up
    to the last ring, and an exponential tail beyond it, which follows the heavy tails seen along curved
    (banana-shaped) posteriors better than a Gaussian continuation. The density of ``u`` is ``e^{-f}`` times the
    sector's Jacobian ``prod s`` (its quadrant's stretches).

    Args:
        radii: the rings' radii in ``u``, increasing; drops: ``(8, rings)`` drops of the log density from the mode
            along the directions of :func:`unit_design` (``inf`` where the fit failed); jac: the 16 sectors'
            Jacobians (sector ``i`` spans angles ``i pi / 8`` to ``(i + 1) pi / 8``).
    """

    def __init__(self, radii, drops: np.ndarray, jac: np.ndarray):
        radii = np.asarray(radii, dtype=np.float64)
        breaks = np.concatenate([[0.0], radii**2])
        values = np.column_stack([np.zeros(8), np.asarray(drops, dtype=np.float64)])
        slopes = np.diff(values, axis=1) / np.diff(breaks)
        slopes = np.clip(np.nan_to_num(slopes, nan=SLOPE_LIMITS[1], posinf=SLOPE_LIMITS[1]), *SLOPE_LIMITS)
        values = np.column_stack([np.zeros(8), np.cumsum(slopes * np.diff(breaks), axis=1)])
        tail = np.maximum(slopes[:, -1] * 2 * radii[-1], TAIL_SLOPE_MIN)
        self.r = np.linspace(0.0, radii[-1] + TABLE_REACH, TABLE_STEPS + 1)
        f = np.empty((8, self.r.size))
        for k in range(8):
            inside = np.interp(self.r**2, breaks, values[k])
            f[k] = np.where(self.r <= radii[-1], inside, values[k, -1] + tail[k] * (self.r - radii[-1]))
        density = self.r * np.exp(-f)  # the radial density in the plane
        cumulative = np.concatenate(
            [np.zeros((8, 1)), np.cumsum(0.5 * (density[:, 1:] + density[:, :-1]) * np.diff(self.r), axis=1)], axis=1
        )
        owner = (np.arange(1, 17) // 2) % 8
        self.cdf = cumulative[owner] * (np.asarray(jac, dtype=np.float64) * math.pi / 8)[:, None]  # (16, table)

    def mass(self, i: int, radius: float) -> float:
        """The (unnormalised) mass of sector ``i`` within ``|u| < radius``."""
        return float(np.interp(radius, self.r, self.cdf[i]))

    def radius(self, i: int, lo: float, hi: float, v: np.ndarray) -> np.ndarray:
        """``|u|`` of draws in sector ``i`` restricted to ``lo <= |u| < hi`` (``v`` uniform in [0, 1))."""
        start, stop = self.mass(i, lo), self.mass(i, hi)
        return np.clip(np.interp(start + (stop - start) * v, self.cdf[i], self.r), lo, min(hi, self.r[-1]))


def profile_draws(
    rng: np.random.Generator, probs: np.ndarray, counts: np.ndarray, design: np.ndarray, profile: RadialProfile
) -> list:
    """As :func:`cell_draws` for ``m = 2``, with :class:`RadialProfile` in place of the split Gaussian: a disc of
    mass ``probs[0]`` and angular sectors of the rest, both measured in the profile's distribution."""
    probs = np.asarray(probs, dtype=np.float64) / np.sum(probs)
    totals = profile.cdf[:, -1]
    disc = float(np.interp(probs[0] * totals.sum(), profile.cdf.sum(axis=0), profile.r))
    inner = np.array([profile.mass(i, disc) for i in range(16)])
    outer = np.maximum(totals - inner, 0.0)
    fractions = np.linspace(0.0, 1.0, 17)
    levels = np.concatenate([[0.0], np.cumsum(outer) / outer.sum()])
    levels[-1] = 1.0
    widths = probs[1:] / max(1.0 - probs[0], 1e-300)
    marks = levels[0:16:2]  # the design's directions are the even sectors' first edges
    middles = np.cumsum(widths) - widths / 2
    turn = float(np.angle(np.sum(np.exp(2j * math.pi * (marks - middles))))) / (2 * math.pi)
    starts = turn + np.cumsum(widths) - widths
    out = []
    for k in range(design.shape[0]):
        n = int(counts[k])
        v = mechanisms.uniforms(rng, (n, 2))
        if k == 0:
            shares = np.concatenate([[0.0], np.cumsum(inner) / max(inner.sum(), 1e-300)])
            shares[-1] = 1.0
            fraction = np.interp(v[:, 1], shares, fractions)
            lo, hi = 0.0, disc
        else:
            fraction = np.interp(np.mod(starts[k - 1] + widths[k - 1] * v[:, 1], 1.0), levels, fractions)
            lo, hi = disc, math.inf
        sector = np.minimum((fraction * 16).astype(int), 15)
        radius = np.empty(n)
        for i in range(16):
            here = sector == i
            radius[here] = profile.radius(i, lo, hi, v[here, 0])
        angle = 2 * math.pi * fraction
        out.append(np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]))
    return out
