"""A rigorous upper bound of ``r_alpha(h) = max_{x, y in S, d(x, y) <= alpha} |log c_h(x) - log c_h(y)|`` on a
polygon window, the edge-correction term of the kernel synthesizer's privacy condition (Kim & Lim 2025,
"Differentially private synthesis of spatial point processes", Theorem 3.6), by branch and bound over
``sup |grad log c_h|`` (:func:`max_log_mass_gradient`).

Bounds used (sharp over all sets ``S``): for any set ``S`` and unit vector ``v``,
``|v . grad c_h| <= int (v . grad phi_h)^+ = phi(0)/h`` and
``|v' (Hess c_h) v| <= (1/h^2) E[(W^2 - 1)^+] = 2 phi(1)/h^2`` (``W ~ N(0, 1)``).

Units: lengths in the window's coordinate units, gradients of ``log c_h`` per coordinate unit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from ..errors import ParameterError
from ..progress import Progress, report
from ..window import Window
from .kernel_mass import NEAR_BANDWIDTHS, KernelMass, check_bandwidth

#: Default relative tolerance of the branch-and-bound maximisation of |grad log c_h|.
GRADIENT_RTOL = 1e-3
#: Most cells the branch and bound evaluates; beyond, it stops refining (the bound stays valid, only looser).
MAX_BOUND_CELLS = 30_000
#: Most halvings of the branch-and-bound cells (the last level's open cells keep their bounds).
_MAX_LEVELS = 48

_PHI0 = 1.0 / math.sqrt(2.0 * math.pi)  # phi(0): bound on h |grad c_h|
_HESS = 2.0 * math.exp(-0.5) / math.sqrt(2.0 * math.pi)  # 2 phi(1): bound on h^2 ||Hess c_h||
_TWO_PI = 2.0 * math.pi


@dataclass(frozen=True)
class GradientBound:
    """Bounds on ``sup |grad log c_h|`` over a region, from :func:`max_log_mass_gradient`.

    Attributes:
        upper: a rigorous upper bound (per coordinate unit) of the supremum.
        lower: the largest value found at a point of the region (a lower bound of the supremum).
        x, y: where ``lower`` was found.
        converged: whether ``upper <= lower * (1 + rtol)`` was reached (otherwise ``upper`` is valid but looser).
        cells: number of cells evaluated.
    """

    upper: float
    lower: float
    x: float
    y: float
    converged: bool
    cells: int


def max_log_mass_gradient(
    kernel: KernelMass,
    hull: np.ndarray,
    hull_window: Window | None,
    seeds: np.ndarray,
    h: float,
    alpha: float,
    rtol: float = GRADIENT_RTOL,
    progress: Progress = None,
) -> GradientBound:
    """Rigorous upper bound of ``sup |grad log c_h|`` over every point of every segment ``[x, y]`` with
    ``x, y`` in the window and ``|x - y| <= alpha`` (branch and bound).

    The region. A point ``z`` of such a segment is within ``alpha/2`` of ``x`` or of ``y`` and lies in the
    convex hull of the window, so the region is ``R = S ∪ ((S ⊕ B(alpha/2)) ∩ conv S)``; for a convex
    window ``R = S``.

    The bound. Cover ``R`` by square cells (start at side ``h/2``). For a cell with centre ``q`` and
    half-diagonal ``rho``, every ``z`` in it has (Taylor, with the sharp bounds of the module docstring)

        |grad c_h(z)| <= min(|grad c_h(q)| + rho 2phi(1)/h^2, phi(0)/h),
        c_h(z) >= c_h(q) - rho |grad c_h(q)| - rho^2 phi(1)/h^2,

    so ``|grad log c_h(z)| = |grad c_h(z)| / c_h(z)`` is at most their ratio (``inf`` if the lower bound
    on ``c_h`` is not positive). For a cell entirely inside the window and at least ``D`` from its
    boundary (``t = D/h``), ``c_h >= 1 - exp(-t^2/2)`` and ``|grad c_h| <= (t exp(-t^2/2) +
    sqrt(2pi) Phi(-t))/h`` (the mass and gradient mass of the kernel beyond ``D``); the smaller bound is
    used. The largest ``|grad log c_h|`` at a centre in ``R`` (and at the vertices of the window's convex
    hull and the maximisers of earlier calls, when they lie in ``R``) is a lower bound ``L`` of the
    supremum; cells whose bound is at most ``L (1 + rtol)`` are final, the others are split in four, until
    none is left. The returned ``upper`` is the largest bound of any final cell or
    ``L (1 + rtol)``, enlarged by ``1e-9`` relative for rounding in ``c_h``, so it bounds the supremum
    from above; with the default ``rtol = 1e-3`` it is within 0.1% of it unless the refinement ran out of
    its budget of ``MAX_BOUND_CELLS`` evaluations (``converged=False``: the worst cells were split first
    and the bound is still valid, only looser). Cells entirely inside the window whose far-mass bound is
    already below ``L (1 + rtol)`` are final without evaluating ``c_h``.

    Args:
        kernel: ``c_h`` and its gradient on the window ``S``.
        hull: ``(k, 2)`` vertices of the window's convex hull; hull_window: the hull as a window, None when the
            window is convex (equal to its hull).
        seeds: ``(j, 2)`` further points to start the lower bound from (maximisers of earlier calls).
        h: bandwidth; alpha: the neighbourhood radius (coordinate units); rtol: relative tolerance.
    """
    h = check_bandwidth(h)
    alpha = float(alpha)
    if not (math.isfinite(alpha) and alpha > 0):
        raise ParameterError("alpha", f"alpha must be a finite number > 0, got {alpha!r}")
    window = kernel.window
    convex = hull_window is None
    pad = 0.0 if convex else 0.5 * alpha
    xmin, ymin, xmax, ymax = window.bounds
    xmin, ymin, xmax, ymax = xmin - pad, ymin - pad, xmax + pad, ymax + pad
    width, height = xmax - xmin, ymax - ymin
    side = max(0.5 * h, math.sqrt(width * height / 20_000.0))
    nx, ny = max(1, math.ceil(width / side)), max(1, math.ceil(height / side))
    sx, sy = width / nx, height / ny
    cx = xmin + sx * (np.arange(nx) + 0.5)
    cy = ymin + sy * (np.arange(ny) + 0.5)
    qx, qy = (a.ravel() for a in np.meshgrid(cx, cy, indexing="ij"))
    hx, hy = 0.5 * sx, 0.5 * sy

    # a first lower bound: the convex hull's vertices (corners of the window, where c_h is smallest) and the
    # maximisers of earlier calls (a calibration evaluates nearby bandwidths), where they lie in the region
    seeds = np.concatenate([hull, np.asarray(seeds, dtype=np.float64).reshape(-1, 2)])
    vx, vy = seeds[:, 0], seeds[:, 1]
    member = window.contains(vx, vy)
    if not convex and not member.all():
        near = window.distance_to_boundary(vx, vy, upper_bound=pad) <= pad
        member |= near & hull_window.contains(vx, vy)
    vx, vy = vx[member], vy[member]
    c_seed, gvx, gvy = kernel.mass_and_gradient(vx, vy, h)
    g_seed = np.hypot(gvx, gvy) / np.maximum(c_seed, 1e-300)
    j = int(np.argmax(g_seed))
    best, best_x, best_y = float(g_seed[j]), float(vx[j]), float(vy[j])
    upper_final = 0.0
    evaluated = 0
    converged = True
    for level in range(_MAX_LEVELS):
        rho = math.hypot(hx, hy)
        inside = window.contains(qx, qy)
        reach = NEAR_BANDWIDTHS * h + rho + pad
        # beyond `reach` the distance is only known to exceed it: use `reach` (a valid lower bound)
        dist = np.minimum(window.distance_to_boundary(qx, qy, upper_bound=reach), reach)
        in_region_box = inside | (dist <= rho + pad)
        if not convex:
            near_hull = hull_window.contains(qx, qy) | (
                hull_window.distance_to_boundary(qx, qy, upper_bound=rho) <= rho
            )
            in_region_box &= inside | (dist <= rho) | near_hull
        qx, qy, inside, dist = qx[in_region_box], qy[in_region_box], inside[in_region_box], dist[in_region_box]
        if qx.size == 0:
            break
        ub = np.full(qx.size, np.inf)
        # cells entirely inside the window, at least dist - rho from its boundary: the kernel's far mass
        far = inside & (dist > rho)
        if np.any(far):
            t = (dist[far] - rho) / h
            tail = np.exp(-0.5 * t * t)
            ub[far] = (t * tail + math.sqrt(_TWO_PI) * ndtr(-t)) / h / np.maximum(1.0 - tail, 1e-300)
        todo = np.flatnonzero(ub > best * (1 + rtol))  # the others are final without evaluating c_h
        evaluated += todo.size
        c, gx, gy = kernel.mass_and_gradient(qx[todo], qy[todo], h)
        g = np.hypot(gx, gy)
        # lower bound: centres that are points of the region
        centre_in_region = inside[todo]
        if not convex:
            centre_in_region = centre_in_region | (dist[todo] <= pad) & hull_window.contains(qx[todo], qy[todo])
        ratio = g / np.maximum(c, 1e-300)
        if np.any(centre_in_region):
            k = int(np.argmax(np.where(centre_in_region, ratio, -1.0)))
            if ratio[k] > best:
                best, best_x, best_y = float(ratio[k]), float(qx[todo][k]), float(qy[todo][k])
        # Taylor bound of |grad c_h| / c_h over each cell
        num = np.minimum(g + rho * _HESS / h**2, _PHI0 / h)
        den = c - rho * g - 0.5 * rho**2 * _HESS / h**2
        ub[todo] = np.minimum(ub[todo], np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf))
        active = np.flatnonzero(ub > best * (1 + rtol))
        room = (MAX_BOUND_CELLS - evaluated) // 4 if level < _MAX_LEVELS - 1 else 0
        if active.size > room:  # out of budget: split the worst cells only, keep the others' bounds
            converged = False
            active = active[np.argsort(ub[active])[::-1][: max(room, 0)]]
        final = np.ones(qx.size, dtype=bool)
        final[active] = False
        upper_final = max(upper_final, float(np.max(ub[final], initial=0.0)))
        report(progress, min(0.99, level / 20), f"r_alpha bound: level {level}, {active.size} cells open")
        if active.size == 0:
            break
        qx, qy = qx[active], qy[active]
        hx, hy = 0.5 * hx, 0.5 * hy
        qx = np.concatenate([qx - hx, qx + hx, qx - hx, qx + hx])
        qy = np.concatenate([qy - hy, qy - hy, qy + hy, qy + hy])
    upper = max(upper_final, best * (1 + rtol)) * (1 + 1e-9)
    return GradientBound(upper, best, best_x, best_y, converged, evaluated)
