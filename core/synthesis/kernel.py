"""Kim & Lim's kernel Poisson point synthesizer (Section 3.2.1, eq. 6, Theorem 3.6).

The synthetic pattern is a Poisson process on the domain ``S`` with the edge-corrected kernel intensity
(Diggle 1985)

    lambda_D(s) = sum_i K_h(s - x_i) / c_h(x_i),   c_h(x) = int_S K_h(s - x) ds = P(x + hZ in S),     (6)

with a Gaussian kernel ``K_h`` (standard deviation ``h`` per coordinate). Each term integrates to exactly 1
over ``S``, so the process is the superposition of ``n`` independent clusters: every original point has
``Poisson(1)`` offspring, each drawn from ``N(x_i, h^2 I)`` conditioned on ``S``
(:meth:`.domain.PlanarDomain.sample_gaussian_offspring`, exact rejection). The number of synthetic
points is ``Poisson(n)``. An offspring is ``x_i + h z``: its coordinates are released rounded to the public
grid of step ``h / 1024`` (:func:`..mechanisms.snap_to_grid`, post-processing), so the low-order bits of
the double do not carry ``x_i`` (Mironov 2012).

Privacy (Theorem 3.6, proof in Appendix B). Under the alpha-neighbourhood (``D ~ D'`` when one point is
moved by at most ``alpha``; Definition 3.1) the synthesizer is (epsilon, delta)-DP if, for an integer
``k`` with ``P(Poisson(n) <= k) >= 1 - delta``,

    (2 alpha B + alpha^2) / (2 h^2) + r_alpha(h) <= epsilon / k,

with ``B`` the diameter of ``S`` and ``r_alpha(h) = max_{x, y in S, d(x, y) <= alpha} |log c_h(x) / c_h(y)|``.
The proof bounds the density ratio of the two Poisson processes on patterns of at most ``k`` points by
``e^epsilon`` (the integrals of ``lambda_D`` and ``lambda_D'`` are both ``n``), and patterns with more points
have probability at most ``delta``. We checked the proof: it is correct as stated.

Public inputs. The calibration uses ``n``, ``epsilon``, ``delta``, ``alpha`` and the window only. Under the
alpha-neighbourhood ``n`` is public: neighbouring data sets have the same number of points (one point is
*moved*), so using ``n`` costs no privacy there; the guarantee says nothing about adding or removing a point.

``r_alpha`` is computed as an upper bound (:meth:`.domain.PlanarDomain.edge_correction_log_ratio_bound`):
``alpha`` times a rigorous branch-and-bound upper bound of ``|grad log c_h|`` over every segment joining two
``alpha``-close points of ``S``. Replacing ``r_alpha`` by an upper bound only makes the condition stronger,
so a bandwidth that satisfies it with the bound is private.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .. import mechanisms
from ..errors import ParameterError
from ..limits import MAX_KERNEL_DRAWS
from ..progress import Progress, report, scaled
from .domain import PlanarDomain

#: Relative width of the final bracket of the calibrated bandwidth.
BANDWIDTH_RTOL = 1e-6
#: The bandwidth search gives up beyond this many window diameters (the kernel is flat over the window there).
MAX_BANDWIDTH_SPREAD = 1e6


@dataclass(frozen=True)
class KernelCalibration:
    """The calibrated kernel synthesizer (Theorem 3.6); every field is public.

    Attributes:
        k: smallest integer with ``P(Poisson(n) <= k) >= 1 - delta``.
        h: smallest bandwidth (coordinate units) with ``lhs <= epsilon / k`` (see :func:`calibrate_kernel`).
        B: diameter of the domain (coordinate units).
        r_alpha: the upper bound of ``r_alpha(h)`` used in ``lhs``.
        lhs: ``(2 alpha B + alpha^2) / (2 h^2) + r_alpha`` at ``h``; ``lhs <= rhs``.
        rhs: ``epsilon / k``.
        epsilon, delta, alpha: the privacy parameters (``alpha`` in coordinate units).
        n: number of original points (public under the alpha-neighbourhood).
    """

    k: int
    h: float
    B: float
    r_alpha: float
    lhs: float
    epsilon: float
    delta: float
    alpha: float
    n: int
    rhs: float

    @property
    def guarantee(self) -> str:
        """One sentence stating the privacy guarantee."""
        return (
            f"({self.epsilon:g}, {self.delta:g})-differential privacy under the alpha-neighbourhood with "
            f"alpha = {self.alpha:g} (one point moved by at most alpha; the number of points, {self.n}, is public): "
            f"bandwidth h = {self.h:.6g}, k = {self.k}, B = {self.B:.6g}, r_alpha(h) <= {self.r_alpha:.4g}, "
            f"(2 alpha B + alpha^2) / (2 h^2) + r_alpha = {self.lhs:.6g} <= epsilon / k = {self.rhs:.6g}"
        )


@dataclass(frozen=True)
class KernelSynthesis:
    """A synthetic pattern of the kernel synthesizer.

    Attributes:
        x, y: synthetic points (coordinate units), sorted by x then y; publishable.
        bandwidth: the bandwidth used (>= ``calibration.h``).
        lhs: left side of Theorem 3.6's inequality at ``bandwidth`` (``<= calibration.rhs``).
        calibration: the calibration.
    """

    x: np.ndarray
    y: np.ndarray
    bandwidth: float
    lhs: float
    calibration: KernelCalibration

    @property
    def grid_step(self) -> float:
        """The public grid the coordinates are released on (:func:`..mechanisms.snap_to_grid`)."""
        return grid_step(self.bandwidth)


def grid_step(bandwidth: float) -> float:
    """The step of the grid kernel offspring are rounded to: the bandwidth / :data:`..mechanisms.SNAP_STEPS`."""
    return bandwidth / mechanisms.SNAP_STEPS


def _check_privacy(n, epsilon, delta, alpha) -> tuple[int, float, float, float]:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ParameterError("points", f"the kernel synthesizer needs at least one point, got n = {n!r}")
    epsilon, delta, alpha = mechanisms.check_epsilon(epsilon), float(delta), float(alpha)
    if not (0 < delta < 1):
        raise ParameterError("delta", f"delta must be in (0, 1), got {delta!r}")
    if not (math.isfinite(alpha) and alpha > 0):
        raise ParameterError("alpha", f"alpha must be a finite number > 0 (coordinate units), got {alpha!r}")
    return int(n), epsilon, delta, alpha


def poisson_k(n: int, delta: float) -> int:
    """Smallest integer ``k >= 0`` with ``P(Y <= k) >= 1 - delta`` for ``Y ~ Poisson(n)`` (Theorem 3.6).

    Computed as the smallest ``k`` with ``P(Y > k) <= delta`` (the same condition, evaluated with the
    survival function so that it stays exact for tiny ``delta``), starting from scipy's ``ppf`` and
    stepping to the exact boundary.
    """
    k = int(stats.poisson.ppf(1.0 - delta, n)) if delta > 1e-12 else int(n + 40 * math.sqrt(n) + 40)
    k = max(k, 0)
    while k > 0 and stats.poisson.sf(k - 1, n) <= delta:
        k -= 1
    while stats.poisson.sf(k, n) > delta:
        k += 1
    return k


def least_draws(domain: PlanarDomain, n: int, h: float) -> float:
    """A lower bound of the expected number of candidate draws the synthesis of ``n`` points takes with bandwidth
    ``h``: ``n`` expected offspring, each drawn by rejection with acceptance ``c_h(x_i)`` at most
    :meth:`.domain.PlanarDomain.largest_mass` (window and ``h`` only: public)."""
    largest = domain.largest_mass(h)
    return n / largest if largest > 0 else math.inf


def check_kernel_draws(domain: PlanarDomain, n: int, h: float, parameter: str = "bandwidth") -> None:
    """Refuse a bandwidth whose rejection sampling is beyond reach: :func:`least_draws` above
    :data:`..limits.MAX_KERNEL_DRAWS` (a kernel far wider than the window). Public inputs only (window, ``n``, ``h``).

    Raises:
        ParameterError(parameter): ``"bandwidth"`` for a bandwidth the caller chose; ``"epsilon"`` for the calibrated
            one (epsilon / k so small that the smallest private bandwidth is far wider than the window).
    """
    draws = least_draws(domain, n, h)
    if draws <= MAX_KERNEL_DRAWS:
        return
    largest = domain.largest_mass(h)
    within = _widest_bandwidth(domain, n)
    xmin, ymin, xmax, ymax = domain.bounds
    cost = (
        f"is far wider than the window ({xmax - xmin:.6g} by {ymax - ymin:.6g}): at most {largest:.2g} of a kernel "
        f"lies inside it, so drawing the about {n} synthetic points by rejection takes at least {draws:.2g} draws, "
        f"more than the {MAX_KERNEL_DRAWS:.0e} that can be done"
    )
    if parameter == "bandwidth":
        raise ParameterError(
            "bandwidth",
            f"bandwidth {h:g} {cost}; use a bandwidth below {within:.3g} (a kernel that wide is as flat over the "
            "window), or leave it unset for the smallest private bandwidth",
        )
    raise ParameterError(
        parameter,
        f"the smallest private bandwidth, {h:.6g}, {cost}; use a larger epsilon or a smaller alpha "
        f"(the bandwidth must stay below {within:.3g})",
    )


def _widest_bandwidth(domain: PlanarDomain, n: int) -> float:
    """The widest bandwidth within :data:`..limits.MAX_KERNEL_DRAWS` (:func:`least_draws` grows with ``h``), rounded
    down to 3 significant digits so that the figure shown stays within."""
    hi = math.sqrt(domain.measure * MAX_KERNEL_DRAWS / (2 * math.pi * n))  # largest_mass <= area / (2 pi h^2)
    lo = hi / 2
    while lo > 1e-300 and least_draws(domain, n, lo) > MAX_KERNEL_DRAWS:
        lo /= 2
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if least_draws(domain, n, mid) <= MAX_KERNEL_DRAWS else (lo, mid)
    scale = 10.0 ** (math.floor(math.log10(lo)) - 2)
    return math.floor(lo / scale) * scale


def kernel_lhs(domain: PlanarDomain, h: float, alpha: float) -> tuple[float, float]:
    """Left side of Theorem 3.6's inequality, ``(2 alpha B + alpha^2) / (2 h^2) + r_alpha(h)``, and the upper
    bound of ``r_alpha(h)`` it uses (dimensionless)."""
    r = domain.edge_correction_log_ratio_bound(h, alpha)
    b = domain.diameter
    return (2 * alpha * b + alpha * alpha) / (2 * h * h) + r, r


def calibrate_kernel(
    n: int,
    epsilon: float,
    delta: float,
    alpha: float,
    domain: PlanarDomain,
    *,
    progress: Progress = None,
) -> KernelCalibration:
    """The smallest Gaussian bandwidth that makes the kernel synthesizer (epsilon, delta)-DP (Theorem 3.6).

    ``k`` is :func:`poisson_k`. The left side ``f(h) = (2 alpha B + alpha^2) / (2 h^2) + r_alpha(h)`` (with the
    upper bound of ``r_alpha``) is at least its first term, so no bandwidth below
    ``h0 = sqrt((2 alpha B + alpha^2) k / (2 epsilon))`` qualifies. A bracket ``[lo, hi]`` with
    ``f(lo) > epsilon / k >= f(hi)`` starts at ``lo = h0`` (``hi = 1.5 h0``, doubled until it qualifies) and is
    narrowed by regula falsi on ``log h`` (Illinois variant, with a bisection every fourth step) until
    ``hi / lo - 1 <= 1e-6``; ``hi`` is returned, with ``f(hi) <= epsilon / k`` checked. About 10-15 evaluations
    of ``r_alpha``.

    What "smallest" means. The returned ``h`` qualifies and a bandwidth ``1e-6`` (relative) below it does
    not. ``f`` decreases with ``h`` in every case we know (the first term falls as ``1/h^2``; ``c_h`` flattens
    as ``h`` grows, so ``r_alpha`` falls too: ``|grad log c_h| = G_1(x/h; S/h) / h`` for the window scaled by
    ``1/h``, about ``1.13/h`` at a right-angled corner and ``B/h^2`` once ``h`` exceeds the window), and then
    ``h`` is the smallest qualifying bandwidth to a relative ``1e-6``. We have no proof of monotonicity for
    every polygon; were ``f`` not monotone, ``h`` would be the upper end of some sign change of
    ``f - epsilon / k`` inside the first bracket that qualifies (``[h0, 1.5 h0]``, then doublings), still
    private but possibly not the globally smallest. ``r_alpha`` is bounded above by ``alpha`` times the
    supremum of ``|grad log c_h|``, which branch and bound finds to a relative ``1e-3``; that bound is itself
    loose when ``alpha`` is not small against ``h`` (an independent brute-force maximisation found the bound
    0.5 % above ``r_alpha`` at ``alpha / h = 0.012``, 2 to 5 % at 0.1 and 15 to 50 % at 0.4), always on the safe
    side. So ``h`` is the smallest bandwidth satisfying the condition with this upper bound of ``r_alpha``, to a
    relative ``1e-6``, not the smallest for the exact ``r_alpha``.

    Args:
        n: number of original points (public under the alpha-neighbourhood: moving a point keeps ``n``).
        epsilon: privacy budget (> 0).
        delta: in (0, 1); the paper's experiments use ``1 / n``.
        alpha: neighbourhood radius (coordinate units, > 0).
        domain: the study domain.
        progress: optional ``progress(fraction, message)``.

    Raises:
        ParameterError("epsilon" / "delta" / "alpha" / "points"): bad values; ``delta`` so large that
            ``k = 0`` (every pattern with a point would be unprotected).
    """
    n, epsilon, delta, alpha = _check_privacy(n, epsilon, delta, alpha)
    k = poisson_k(n, delta)
    if k == 0:
        raise ParameterError(
            "delta", f"delta = {delta:g} is at least P(Poisson({n}) > 0); k would be 0 and the guarantee void"
        )
    rhs = epsilon / k
    b = domain.diameter
    a = (2 * alpha * b + alpha * alpha) / 2
    h0 = math.sqrt(a / rhs)

    def lhs(h: float) -> float:
        return kernel_lhs(domain, h, alpha)[0]

    report(progress, 0.0, "Calibrating the kernel bandwidth")
    cache: dict[float, tuple[float, float]] = {}

    def excess(u: float) -> float:  # f(h) - epsilon / k at h = e^u
        if u not in cache:
            cache[u] = kernel_lhs(domain, math.exp(u), alpha)
            report(progress, min(0.95, 0.06 * len(cache)), f"Bandwidth {math.exp(u):.6g}: {cache[u][0]:.6g}")
        return cache[u][0] - rhs

    # bracket: h0 fails (r_alpha > 0); double until a bandwidth qualifies
    u_lo, g_lo = math.log(h0), math.inf
    u_hi = u_lo + math.log(1.5)
    g_hi = excess(u_hi)
    widest = math.log(MAX_BANDWIDTH_SPREAD * b)
    while g_hi > 0:
        if u_hi > widest:
            # f(h) falls like 1/h^2 in exact arithmetic, but when epsilon / k is tiny the bandwidth needed is so far
            # beyond the window that the computed r_alpha bottoms out at its rounding error (doubling on up to
            # 1e63 took 70 s to find nothing)
            raise ParameterError(
                "epsilon",
                f"no bandwidth up to {math.exp(u_hi):.3g} satisfies Theorem 3.6 (epsilon / k = {rhs:.3g} is below "
                "what can be computed); such a bandwidth would spread the points evenly over the window anyway: use "
                "a larger epsilon or a smaller alpha",
            )
        u_lo, g_lo = u_hi, g_hi
        u_hi += math.log(2.0)
        g_hi = excess(u_hi)
    # Illinois regula falsi on log h, bisecting when the bracket does not shrink fast enough
    tol = math.log1p(BANDWIDTH_RTOL)
    side, width = 0, u_hi - u_lo
    for step in range(200):
        if u_hi - u_lo <= tol:
            break
        if math.isfinite(g_lo) and step % 4 != 3:
            u = (u_lo * g_hi - u_hi * g_lo) / (g_hi - g_lo)
            margin = 1e-3 * (u_hi - u_lo)
            u = min(max(u, u_lo + margin), u_hi - margin)
        else:
            u = 0.5 * (u_lo + u_hi)
        g = excess(u)
        if g > 0:
            u_lo, g_lo = u, g
            if side == -1:
                g_hi *= 0.5
            side = -1
        else:
            u_hi, g_hi = u, g
            if side == +1:
                g_lo *= 0.5
            side = +1
        if step % 4 == 3:
            if u_hi - u_lo > 0.5 * width:
                side = 0
            width = u_hi - u_lo
    hi = math.exp(u_hi)
    value, r = cache[u_hi]
    if not value <= rhs:  # pragma: no cover - u_hi always satisfied it when it was set
        raise RuntimeError("the calibrated bandwidth does not satisfy Theorem 3.6")
    report(progress, 1.0, f"Calibrated bandwidth h = {hi:.6g} ({len(cache)} evaluations)")
    return KernelCalibration(k, hi, b, r, value, epsilon, delta, alpha, n, rhs)


def synthesize_kernel(
    x,
    y,
    domain: PlanarDomain,
    rng: np.random.Generator,
    *,
    epsilon: float,
    delta: float,
    alpha: float,
    bandwidth: float | None = None,
    calibration: KernelCalibration | None = None,
    progress: Progress = None,
) -> KernelSynthesis:
    """Draw a synthetic pattern from the kernel Poisson point synthesizer (eq. 6), (epsilon, delta)-DP under the
    alpha-neighbourhood (Theorem 3.6).

    Args:
        x, y: the original (confidential) points, inside the window (coordinate units).
        domain: the study domain.
        rng: the only source of randomness.
        epsilon, delta, alpha: privacy parameters (see :func:`calibrate_kernel`).
        bandwidth: optional bandwidth (coordinate units); it must be at least the calibrated one and satisfy
            the inequality itself. Default: the calibrated bandwidth.
        calibration: a calibration from :func:`calibrate_kernel` for the same ``n``, epsilon, delta, alpha
            (saves recomputing it).
        progress: optional ``progress(fraction, message)``.

    Raises:
        ParameterError("points"): points outside the window or no points.
        ParameterError("bandwidth"): a bandwidth below the calibrated one, one that fails the inequality, or one so
            much wider than the window that drawing the points is beyond reach (:func:`check_kernel_draws`).
        ParameterError("epsilon"): a calibrated bandwidth that wide.
        ParameterError("calibration"): a calibration for other parameters.
    """
    x, y = domain.check_points(x, y)
    n, epsilon, delta, alpha = _check_privacy(x.size, epsilon, delta, alpha)
    if bandwidth is not None:
        if not (math.isfinite(float(bandwidth)) and float(bandwidth) > 0):
            raise ParameterError("bandwidth", f"the bandwidth must be a finite number > 0, got {bandwidth!r}")
        check_kernel_draws(domain, n, float(bandwidth))  # public inputs: before the calibration's work
    if calibration is None:
        calibration = calibrate_kernel(n, epsilon, delta, alpha, domain, progress=scaled(progress, 0.0, 0.6))
    elif (calibration.n, calibration.epsilon, calibration.delta, calibration.alpha) != (n, epsilon, delta, alpha):
        raise ParameterError("calibration", "the calibration was made for other n, epsilon, delta or alpha")
    h, lhs = calibration.h, calibration.lhs
    if bandwidth is None:
        check_kernel_draws(domain, n, h, "epsilon")
    else:
        h = float(bandwidth)
        if h < calibration.h:
            raise ParameterError(
                "bandwidth",
                f"bandwidth {h:g} is below the smallest private bandwidth {calibration.h:.6g} for "
                f"epsilon = {epsilon:g}, delta = {delta:g}, alpha = {alpha:g}; use at least that",
            )
        lhs = kernel_lhs(domain, h, alpha)[0]
        if not lhs <= calibration.rhs:
            raise ParameterError(
                "bandwidth",
                f"bandwidth {h:g} does not satisfy Theorem 3.6 ({lhs:.6g} > epsilon / k = {calibration.rhs:.6g}); "
                f"use the calibrated bandwidth {calibration.h:.6g}",
            )
    counts = mechanisms.poisson_counts(rng, np.ones(n))
    sx, sy = domain.sample_gaussian_offspring(rng, x, y, h, counts, progress=scaled(progress, 0.6, 1.0))
    # each offspring is "x_i + h z": released on a public grid, not with the low-order bits of a double
    sx, sy = mechanisms.snap_to_grid(sx, sy, grid_step(h), domain.window.contains)
    order = np.lexsort((sy, sx))
    return KernelSynthesis(sx[order], sy[order], h, lhs, calibration)


def kernel_intensity(x, y, domain: PlanarDomain, h: float, sx, sy) -> np.ndarray:
    """The edge-corrected kernel intensity ``lambda_D(s)`` of eq. (6) at points ``s`` (zero outside the window).

    CONFIDENTIAL: it is computed from the original points and is not differentially private; use it only for
    utility measures that are themselves kept confidential. Points per squared coordinate unit; ``O(n m)``.
    """
    x, y = domain.check_points(x, y)
    qx = np.asarray(sx, dtype=np.float64).ravel()
    qy = np.asarray(sy, dtype=np.float64).ravel()
    weight = 1.0 / domain.gaussian_mass(x, y, h)
    out = np.zeros(qx.size)
    for start in range(0, qx.size, 1024):
        bx, by = qx[start : start + 1024, None], qy[start : start + 1024, None]
        d2 = (bx - x[None, :]) ** 2 + (by - y[None, :]) ** 2
        out[start : start + 1024] = np.exp(-0.5 * d2 / (h * h)) @ weight / (2 * math.pi * h * h)
    return np.where(domain.contains(qx, qy), out, 0.0)
