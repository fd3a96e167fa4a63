"""Ripley's isotropic edge correction on polygon windows: the length of a circle inside the window, the weight
``e_ij``, and the window edges near each point that the K-function's pair sums compute it from.

``e_ij = 2 pi d_ij / length(W ∩ circle(x_i, d_ij))`` is Ripley's isotropic edge correction weight,
``1 / p(x_i, d_ij)`` in Kim & Lim's notation (eq. 14); as spatstat's ``edge.Ripley`` it is clipped to
``[1, 100]``, and it is exactly 1 when the circle lies inside ``W`` (``d_ij <= b_i``, ``b_i`` the distance
from ``x_i`` to the boundary).

Geometry of the weight: the length of a circle of radius ``r`` about ``c`` inside a
polygon window (exteriors counter-clockwise, holes clockwise) is ``r`` times the angle

    sum over window edges e of [ sweep_e - chord_e ],

where ``sweep_e`` is the signed angle the edge subtends at ``c`` and ``chord_e`` the signed angle
subtended by the part of the edge inside the disc ``|p - c| <= r``. (A point ``c + r u`` of the
circle is inside ``W`` when the ray from it pointing away from ``c`` crosses the boundary with
winding number 1; integrating the signed crossings over the direction ``u`` gives the formula.) The
sweeps of all edges add up to ``2 pi`` for a centre inside ``W``, so only the edges within ``r`` of the
centre need to be visited. Edges collinear with the centre contribute nothing, which also handles
centres on the boundary.

All lengths are in the units of the coordinates (a projected CRS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree

from ..errors import ParameterError
from ..jit import njit
from ..window import Window

#: Largest isotropic edge-correction weight (spatstat's ``edge.Ripley(maxweight=100)``).
MAX_ISOTROPIC_WEIGHT = 100.0
#: An edge counts as collinear with a circle's centre when ``|a x b| <= _COLLINEAR_RTOL |a| |b|``.
_COLLINEAR_RTOL = 1e-12
#: Centres closer than this (relative to the window's coordinate scale) to the boundary get their full edge sum.
_BOUNDARY_RTOL = 1e-9
#: Most pieces the window's edges are cut into for the near-edge search.
_MAX_PIECES = 1 << 16


# -- geometry: angles subtended by window edges ----------------------------------------------------


@njit(cache=True)
def _sweep_angle(ax, ay, bx, by):
    """Signed angle from ``a`` to ``b`` seen from the origin (0 when the segment is collinear with it)."""
    cross = ax * by - ay * bx
    if abs(cross) <= _COLLINEAR_RTOL * math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by)):
        return 0.0
    return math.atan2(cross, ax * bx + ay * by)


@njit(cache=True)
def _chord_angle(ax, ay, bx, by, r):
    """Signed angle subtended at the origin by the part of segment ``a -> b`` inside the disc of radius ``r``.

    In the edge's frame (unit direction ``u``): ``h = a x u`` is the signed distance of the origin
    from the edge's line, ``sa = a . u`` and ``sb = b . u`` the ends' positions from the foot of the
    perpendicular. The part inside the disc runs from ``t1 = max(sa, -w)`` to ``t2 = min(sb, w)``,
    ``w = sqrt(r^2 - h^2)``, and subtends ``atan2((t2 - t1) h, h^2 + t1 t2)``. (Accurate also for
    edges much longer than ``r``, where solving the quadratic in the edge parameter loses digits.)
    """
    aa = ax * ax + ay * ay
    bb = bx * bx + by * by
    cross = ax * by - ay * bx
    if abs(cross) <= _COLLINEAR_RTOL * math.sqrt(aa * bb):
        return 0.0
    dx = bx - ax
    dy = by - ay
    length = math.sqrt(dx * dx + dy * dy)
    ux = dx / length
    uy = dy / length
    h = ax * uy - ay * ux
    w2 = r * r - h * h
    if w2 <= 0.0:
        return 0.0
    w = math.sqrt(w2)
    t1 = max(ax * ux + ay * uy, -w)
    t2 = min(bx * ux + by * uy, w)
    if t1 >= t2:
        return 0.0
    return math.atan2((t2 - t1) * h, h * h + t1 * t2)


@njit(cache=True)
def _inside_angles_kernel(cx, cy, radius, ax, ay, bx, by, out):
    # Full edge sum for each centre: sum_e sweep_e - chord_e (no shortcut; any centre, in or out).
    for i in range(cx.shape[0]):
        total = 0.0
        for e in range(ax.shape[0]):
            px = ax[e] - cx[i]
            py = ay[e] - cy[i]
            qx = bx[e] - cx[i]
            qy = by[e] - cy[i]
            total += _sweep_angle(px, py, qx, qy) - _chord_angle(px, py, qx, qy, radius[i])
        out[i] = min(max(total, 0.0), 2.0 * math.pi)


def _window_edges(window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All ring edges ``a -> b`` of the window, in the rings' orientation."""
    a = np.concatenate(window.rings)
    b = np.concatenate([np.roll(ring, -1, axis=0) for ring in window.rings])
    return (np.ascontiguousarray(a[:, 0]), np.ascontiguousarray(a[:, 1]), np.ascontiguousarray(b[:, 0]),
            np.ascontiguousarray(b[:, 1]))  # fmt: skip


def circle_length_inside(window: Window, x, y, radius) -> np.ndarray:
    """Length of the circle of ``radius`` about ``(x, y)`` that lies inside the window.

    Exact for polygon windows with holes and several polygons (intersects the circle with every
    edge; see the module docstring), for any centre, inside the window or not. ``radius`` 0 gives 0.

    Args:
        window: the window.
        x, y: circle centres (broadcast with ``radius``).
        radius: radii, >= 0, in coordinate units.

    Returns:
        array of the broadcast shape, in coordinate units (between 0 and ``2 pi radius``).
    """
    x, y, radius = np.broadcast_arrays(
        np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64), np.asarray(radius, dtype=np.float64)
    )
    shape = x.shape
    cx, cy, rr = (np.ascontiguousarray(a.ravel()) for a in (x, y, radius))
    if not (np.isfinite(cx).all() and np.isfinite(cy).all()):
        raise ParameterError("points", "circle centres contain NaN or infinite values")
    if not (np.isfinite(rr).all() and (rr >= 0).all()):
        raise ParameterError("radius", "radii must be finite and >= 0")
    angles = np.empty(cx.size)
    _inside_angles_kernel(cx, cy, rr, *_window_edges(window), angles)
    return (angles * rr).reshape(shape)


def isotropic_weights(window: Window, x, y, distance) -> np.ndarray:
    """Ripley's isotropic edge-correction weight ``2 pi d / length(W ∩ circle((x, y), d))``, clipped to [1, 100].

    The weight ``e_ij = 1 / p(x_i, d_ij)`` of Kim & Lim eq. 14, as spatstat's ``edge.Ripley``
    (whose default ``maxweight`` is 100). Distances of 0 get weight 1.
    """
    x, y, d = np.broadcast_arrays(
        np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64), np.asarray(distance, dtype=np.float64)
    )
    length = circle_length_inside(window, x, y, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(d > 0, 2.0 * np.pi * d / length, 1.0)
    return np.clip(np.nan_to_num(w, nan=MAX_ISOTROPIC_WEIGHT, posinf=MAX_ISOTROPIC_WEIGHT), 1.0, MAX_ISOTROPIC_WEIGHT)


# -- window edges near each point (for the isotropic correction) ----------------------------------


@dataclass(frozen=True)
class NearEdges:
    """For each point, the window edges within ``r_max`` of it (CSR lists), in the point's frame.

    In the frame of an edge seen from centre ``c``, the part of the edge inside the disc of radius
    ``d`` runs from ``t1 = max(sa, -w)`` to ``t2 = min(sb, w)`` along it, ``w = sqrt(d^2 - h^2)``, and
    subtends the signed angle ``atan2((t2 - t1) h, h^2 + t1 t2)``, as in :func:`_chord_angle`.
    Edges collinear with the point (by the rule of :func:`_sweep_angle`) contribute nothing and are left out.
    """

    start: np.ndarray  # (n,) first position in the lists below of each point's entries
    count: np.ndarray  # (n,) number of entries of each point
    distance: np.ndarray  # distance from the point to the edge (segment)
    h: np.ndarray  # signed distance from the point to the edge's line: (a - c) x u, u the edge's unit direction
    sa: np.ndarray  # position of the edge's start along u, from the foot of the perpendicular: (a - c) . u
    sb: np.ndarray  # position of the edge's end: (b - c) . u
    full_angle: np.ndarray  # (n,) sum of the sweeps of all edges seen from each point (2 pi inside W)


def _segment_distance(px, py, ax, ay, bx, by) -> np.ndarray:
    dx = bx - ax
    dy = by - ay
    len2 = dx * dx + dy * dy
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / np.where(len2 > 0, len2, 1.0), 0.0, 1.0)
    return np.hypot(ax + t * dx - px, ay + t * dy - py)


def near_edges(window: Window, x: np.ndarray, y: np.ndarray, b: np.ndarray, r_max: float) -> NearEdges:
    """List, per point, the window edges within ``r_max`` of it.

    Only points closer than ``r_max`` to the boundary get a list (the others never need a weight).
    The search cuts the edges into pieces no longer than about ``r_max`` and queries a k-d tree of
    their midpoints. Points within ``_BOUNDARY_RTOL`` of the boundary get their full sweep sum
    (about ``pi`` on an edge, the interior angle at a vertex); the others ``2 pi``.
    """
    ax, ay, bx, by = _window_edges(window)
    length = np.hypot(bx - ax, by - ay)
    piece_len = max(r_max, float(length.sum()) / _MAX_PIECES, float(length.max()) * 1e-12)
    k = np.maximum(np.ceil(length / piece_len).astype(np.int64), 1)
    piece_edge = np.repeat(np.arange(k.size), k)
    j = np.arange(piece_edge.size) - np.repeat(np.cumsum(k) - k, k)
    t0, t1 = j / k[piece_edge], (j + 1) / k[piece_edge]
    dx, dy = (bx - ax)[piece_edge], (by - ay)[piece_edge]
    mx = ax[piece_edge] + 0.5 * (t0 + t1) * dx
    my = ay[piece_edge] + 0.5 * (t0 + t1) * dy
    half = 0.5 * float(np.max(length / k))

    n = x.size
    start = np.zeros(n, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    distance = h = sa = sb = np.zeros(0)
    near = np.flatnonzero(b < r_max)
    if near.size:
        tree = cKDTree(np.column_stack([mx, my]))
        lists = tree.query_ball_point(np.column_stack([x[near], y[near]]), r_max + half * (1 + 1e-9) + 1e-300)
        sizes = np.fromiter((len(item) for item in lists), dtype=np.int64, count=near.size)
        owner = np.repeat(near, sizes)
        cand = piece_edge[np.fromiter((p for item in lists for p in item), dtype=np.int64, count=int(sizes.sum()))]
        pairs = np.unique(owner * k.size + cand)  # one entry per (point, edge), sorted by point
        owner, cand = pairs // k.size, pairs % k.size
        dist = _segment_distance(x[owner], y[owner], ax[cand], ay[cand], bx[cand], by[cand])
        pax, pay = ax[cand] - x[owner], ay[cand] - y[owner]
        pbx, pby = bx[cand] - x[owner], by[cand] - y[owner]
        cross = pax * pby - pay * pbx
        collinear = np.abs(cross) <= _COLLINEAR_RTOL * np.sqrt((pax * pax + pay * pay) * (pbx * pbx + pby * pby))
        keep = (dist <= r_max) & ~collinear
        length = np.where(keep, length[cand], 1.0)
        ux, uy = (pbx - pax) / length, (pby - pay) / length
        owner, distance = owner[keep], dist[keep]
        h = (pax * uy - pay * ux)[keep]
        sa = (pax * ux + pay * uy)[keep]
        sb = (pbx * ux + pby * uy)[keep]
        count = np.bincount(owner, minlength=n).astype(np.int64)
        start = np.cumsum(count) - count

    full_angle = np.full(n, 2.0 * np.pi)
    xmin, ymin, xmax, ymax = window.bounds
    scale = max(abs(xmin), abs(ymin), abs(xmax), abs(ymax), xmax - xmin, ymax - ymin)
    on_boundary = np.flatnonzero(b <= _BOUNDARY_RTOL * scale)
    if on_boundary.size:
        zero = np.zeros(on_boundary.size)
        angles = np.empty(on_boundary.size)
        # radius 0: no chord, so the kernel returns the plain sum of sweeps
        _inside_angles_kernel(x[on_boundary], y[on_boundary], zero, ax, ay, bx, by, angles)
        full_angle[on_boundary] = angles
    return NearEdges(start, count, distance, h, sa, sb, full_angle)


# -- the weight of a pair, from the edges near its centre ------------------------------------------


@njit(cache=True)
def weight_at(i, d, full_angle, start, count, distance, h, sa, sb):
    """Isotropic weight of the pair (centre ``i``, distance ``d``) from the fields of a :class:`NearEdges`.

    ``2 pi / (inside angle)``, the inside angle being the full sweep minus the chords, clipped to [1, 100].
    """
    angle = full_angle[i]
    for q in range(start[i], start[i] + count[i]):
        if distance[q] < d:  # farther edges do not reach the disc
            hq = h[q]
            w = math.sqrt(max(d * d - hq * hq, 0.0))
            t1 = max(sa[q], -w)
            t2 = min(sb[q], w)
            if t1 < t2:
                angle -= math.atan2((t2 - t1) * hq, hq * hq + t1 * t2)
    if angle * MAX_ISOTROPIC_WEIGHT <= 2.0 * math.pi:
        return MAX_ISOTROPIC_WEIGHT
    return max(2.0 * math.pi / angle, 1.0)


def weights_numpy(i, d, near: NearEdges) -> np.ndarray:
    """Isotropic weights of ordered pairs (centre ``i``, distance ``d``) whose circle leaves the window."""
    counts = near.count[i]
    group = np.repeat(np.arange(i.size), counts)
    q = np.arange(group.size) - np.repeat(np.cumsum(counts) - counts, counts) + near.start[i][group]
    dq, h = d[group], near.h[q]
    w = np.sqrt(np.maximum(dq * dq - h * h, 0.0))
    t1 = np.maximum(near.sa[q], -w)
    t2 = np.minimum(near.sb[q], w)
    chord = np.where((near.distance[q] < dq) & (t1 < t2), np.arctan2((t2 - t1) * h, h * h + t1 * t2), 0.0)
    angle = near.full_angle[i] - np.bincount(group, weights=chord, minlength=i.size)
    with np.errstate(divide="ignore"):
        weight = np.where(angle * MAX_ISOTROPIC_WEIGHT <= 2.0 * np.pi, MAX_ISOTROPIC_WEIGHT, 2.0 * np.pi / angle)
    return np.maximum(weight, 1.0)
