"""Ripley's K-function and L-function of a point pattern on a polygon window, and the MISE between K-functions.

Estimators (Baddeley, Rubak & Turner 2015, *Spatial Point Patterns*, ch. 7; spatstat's ``Kest``
and ``Kinhom``), for ``n`` points ``x_1..x_n`` in the window ``W`` with area ``|W|``, pairwise
distances ``d_ij`` and the distance ``b_i`` from ``x_i`` to the boundary of ``W``:

Homogeneous (``intensity=None``), as ``Kest``, which estimates ``lambda^2`` by ``n (n - 1) / |W|^2``::

    "isotropic":  K(r) = |W| / (n (n - 1)) * sum_{i != j} 1(d_ij <= r) e_ij
    "none":       K(r) = |W| / (n (n - 1)) * sum_{i != j} 1(d_ij <= r)
    "border":     K(r) = |W| / n * sum_{i != j} 1(d_ij <= r <= b_i) / #{i : b_i >= r}

Inhomogeneous (``intensity`` given: ``lambda_i = lambda(x_i)``), Kim & Lim eq. 14, which is
``Kinhom(..., renormalise=FALSE)``::

    "isotropic":  K(r) = 1 / |W| * sum_{i != j} 1(d_ij <= r) e_ij / (lambda_i lambda_j)
    "none":       K(r) = 1 / |W| * sum_{i != j} 1(d_ij <= r) / (lambda_i lambda_j)
    "border":     K(r) = sum_{i != j} 1(d_ij <= r <= b_i) / (lambda_i lambda_j) / sum_{i : b_i >= r} 1 / lambda_i

``e_ij = 2 pi d_ij / length(W ∩ circle(x_i, d_ij))`` is Ripley's isotropic edge correction
weight, ``1 / p(x_i, d_ij)`` in Kim & Lim's notation; as spatstat's ``edge.Ripley`` it is clipped
to ``[1, 100]``, and it is exactly 1 when the circle lies inside ``W`` (``d_ij <= b_i``). The
"border" (reduced-sample) estimators are spatstat's ``Kest(correction="border")`` and
``Kinhom(correction="border")``. The L-function is ``L(r) = sqrt(K(r) / pi)``; under complete
spatial randomness ``K(r) = pi r^2`` and ``L(r) = r``.

Differences from spatstat, all of measure zero or documented choices:

* spatstat bins distances on its ``r`` grid and counts ``d_ij < r`` (and, for the border
  estimator, ``b_i`` against the previous grid value); here every radius is evaluated exactly with
  ``d_ij <= r`` and ``b_i >= r``, so the values agree whenever no distance falls between adjacent
  radii in spatstat's (by default fine) grid. In particular duplicated points (``d_ij = 0``) count
  at ``r = 0`` here and not in spatstat.
* spatstat returns ``NA`` for the isotropic estimate at radii beyond the window's bounding radius
  (``Kest``) or half its diameter (``Kinhom``); here the estimate is returned at every radius asked
  for. It is unreliable there, as the weights are then large and rest on few pairs.
* ``Kinhom`` renormalises by default: ``renormalise=TRUE`` multiplies by
  ``(|W| / sum_i 1 / lambda_i)^normpower`` (``normpower=1`` by default, or 2), so that an intensity
  known only up to a constant factor still gives a K-function on the scale of ``pi r^2``; eq. 14
  does not. ``renormalise=True`` here reproduces spatstat's factor (with its default
  ``diagonal=TRUE``).

Geometry of the isotropic weight: the length of a circle of radius ``r`` about ``c`` inside a
polygon window (exteriors counter-clockwise, holes clockwise) is ``r`` times the angle

    sum over window edges e of [ sweep_e - chord_e ],

where ``sweep_e`` is the signed angle the edge subtends at ``c`` and ``chord_e`` the signed angle
subtended by the part of the edge inside the disc ``|p - c| <= r``. (A point ``c + r u`` of the
circle is inside ``W`` when the ray from it pointing away from ``c`` crosses the boundary with
winding number 1; integrating the signed crossings over the direction ``u`` gives the formula.) The
sweeps of all edges add up to ``2 pi`` for a centre inside ``W``, so only the edges within ``r`` of the
centre need to be visited. Edges collinear with the centre contribute nothing, which also handles
centres on the boundary.

All lengths are in the units of the coordinates (a projected CRS), ``K`` in squared units, ``L``
in units of length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Union

import numpy as np
from scipy.spatial import cKDTree

from ..errors import ParameterError
from ..jit import njit, resolve_use_numba
from ..progress import Progress, report
from ..window import Window

#: The edge corrections :func:`k_function` implements.
CORRECTIONS = ("isotropic", "border", "none")
#: Largest isotropic edge-correction weight (spatstat's ``edge.Ripley(maxweight=100)``).
MAX_ISOTROPIC_WEIGHT = 100.0
#: An edge counts as collinear with a circle's centre when ``|a x b| <= _COLLINEAR_RTOL |a| |b|``.
_COLLINEAR_RTOL = 1e-12
#: Centres closer than this (relative to the window's coordinate scale) to the boundary get their full edge sum.
_BOUNDARY_RTOL = 1e-9
#: Most pieces the window's edges are cut into for the near-edge search.
_MAX_PIECES = 1 << 16
#: Ordered pairs handled at once by the numpy path (bounds temporary memory).
_PAIR_CHUNK = 1 << 21

_NONE, _ISOTROPIC, _BORDER = 0, 1, 2
_MODES = {"none": _NONE, "isotropic": _ISOTROPIC, "border": _BORDER}

Intensity = Union[np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray], None]


@dataclass(frozen=True)
class KFunction:
    """An estimated K-function and its L-function.

    Attributes:
        r: the radii, increasing, in coordinate units.
        K: the estimate at each radius, in squared units (``nan`` where the border estimator has no
            point at distance ``>= r`` from the boundary).
        L: ``sqrt(K / pi)``, in coordinate units.
        correction: "isotropic", "border" or "none".
        n: number of points.
        inhomogeneous: whether the intensity-weighted (inhomogeneous) estimator was used.
        area: ``|W|``, the window's area.
        renormalised: whether the inhomogeneous estimate was renormalised as spatstat's ``Kinhom``.
    """

    r: np.ndarray
    K: np.ndarray
    L: np.ndarray
    correction: str
    n: int
    inhomogeneous: bool
    area: float
    renormalised: bool = False

    @property
    def theoretical(self) -> np.ndarray:
        """``pi r^2``, the K-function of a Poisson process."""
        return np.pi * self.r**2


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
class _NearEdges:
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


def _near_edges(window: Window, x: np.ndarray, y: np.ndarray, b: np.ndarray, r_max: float) -> _NearEdges:
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
    return _NearEdges(start, count, distance, h, sa, sb, full_angle)


# -- pair sums: numba kernel ---------------------------------------------------------------------


def _radius_lookup(radii: np.ndarray) -> tuple[np.ndarray, float]:
    """Table for :func:`_first_at_least`: ``table[c]``, the first radius >= the start of cell ``c`` of [0, r_max]."""
    r_max = float(radii[-1])
    cells = int(min(max(8 * radii.size, 1024), 1 << 16))
    if r_max <= 0:
        return np.zeros(1, dtype=np.int64), 0.0
    edges = np.arange(cells) * (r_max / cells) * (1.0 - 1e-12)  # a little low: never skip a radius
    return np.searchsorted(radii, edges, side="left").astype(np.int64), cells / r_max


@njit(cache=True)
def _first_at_least(radii, table, per_cell, d):
    # first k with radii[k] >= d (numpy.searchsorted side="left"), for 0 <= d <= radii[-1]:
    # start from the table entry of d's cell (a lower bound) and step up, usually not at all.
    c = min(int(d * per_cell), table.shape[0] - 1)
    k = table[c]
    while radii[k] < d:
        k += 1
    return k


@njit(cache=True)
def _weight_at(i, d, full_angle, start, count, distance, h, sa, sb):
    # 2 pi / (inside angle), the inside angle being the full sweep minus the chords (see _NearEdges)
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


@njit(cache=True, nogil=True)  # other Python threads (the QGIS GUI's) run while it counts
def _pair_kernel(
    xs, ys, cell, cell_start, ncx, ncy, reach, radii, table, per_cell, mode, recip, b, last, full_angle, start,
    count, distance, h, sa, sb, i0, i1, out,
):  # fmt: skip
    # Unordered pairs i < j (points sorted by grid cell) within radii[-1]; each adds both ordered pairs.
    # none/isotropic: out[k] += weight of pairs whose distance first fits radius k (cumulated later).
    # border: out is a difference array over the radii k with d <= r_k <= b_i (cumulated later).
    r_max = radii[radii.shape[0] - 1]
    r_max2 = r_max * r_max * (1.0 + 4e-16)  # a little generous: the exact test is on d below
    weighted = recip.shape[0] > 0
    for i in range(i0, i1):
        c = cell[i]
        gx = c % ncx
        gy = c // ncx
        xi = xs[i]
        yi = ys[i]
        for oy in range(0, reach + 1):
            yy = gy + oy
            if yy >= ncy:
                break
            for ox in range(-reach if oy > 0 else 0, reach + 1):
                xx = gx + ox
                if xx < 0 or xx >= ncx:
                    continue
                cc = yy * ncx + xx
                j_end = cell_start[cc + 1]
                for j in range(i + 1 if cc == c else cell_start[cc], j_end):
                    dx = xs[j] - xi
                    dy = ys[j] - yi
                    d2 = dx * dx + dy * dy
                    if d2 > r_max2:
                        continue
                    d = math.sqrt(d2)
                    if d > r_max:
                        continue
                    k = _first_at_least(radii, table, per_cell, d)
                    w = recip[i] * recip[j] if weighted else 1.0
                    if mode == 0:
                        out[k] += 2.0 * w
                    elif mode == 1:
                        e = 1.0
                        if d > b[i]:
                            e = _weight_at(i, d, full_angle, start, count, distance, h, sa, sb)
                        if d > b[j]:
                            e += _weight_at(j, d, full_angle, start, count, distance, h, sa, sb)
                        else:
                            e += 1.0
                        out[k] += w * e
                    else:
                        if last[i] >= k:
                            out[k] += w
                            out[last[i] + 1] -= w
                        if last[j] >= k:
                            out[k] += w
                            out[last[j] + 1] -= w


def _pair_sums_numba(x, y, radii, mode, recip, b, last, near, progress):
    n = x.size
    r_max = float(radii[-1])
    xmin, xmax, ymin, ymax = x.min(), x.max(), y.min(), y.max()
    span = max(xmax - xmin, ymax - ymin, 1e-300)
    # cells of side r_max / 2 (reach 2), but no more cells than about 4 per point
    side = max(r_max / 2.0, span / max(math.sqrt(4.0 * n), 1.0), span * 1e-9)
    ncx = int((xmax - xmin) / side) + 1
    ncy = int((ymax - ymin) / side) + 1
    reach = max(1, int(math.ceil(r_max / side)))
    gx = np.minimum(((x - xmin) / side).astype(np.int64), ncx - 1)
    gy = np.minimum(((y - ymin) / side).astype(np.int64), ncy - 1)
    cell = gy * ncx + gx
    order = np.argsort(cell, kind="stable")
    cell = np.ascontiguousarray(cell[order])
    cell_start = np.zeros(ncx * ncy + 1, dtype=np.int64)
    np.cumsum(np.bincount(cell, minlength=ncx * ncy), out=cell_start[1:])
    xs, ys = np.ascontiguousarray(x[order]), np.ascontiguousarray(y[order])
    recip_s = np.ascontiguousarray(recip[order]) if recip.size else recip
    b_s = np.ascontiguousarray(b[order])
    last_s = np.ascontiguousarray(last[order])
    if near is None:
        full_angle, start, count = np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        distance = h = sa = sb = np.zeros(0)
    else:
        full_angle = np.ascontiguousarray(near.full_angle[order])
        start = np.ascontiguousarray(near.start[order])
        count = np.ascontiguousarray(near.count[order])
        distance, h, sa, sb = near.distance, near.h, near.sa, near.sb
    table, per_cell = _radius_lookup(radii)
    out = np.zeros(radii.size + 1)
    # blocks of at most about 1,000 points: a Cancel is seen within a block (0.94 s for 20 blocks of 90,603 points)
    blocks = np.linspace(0, n, min(n, max(20, n // 1000)) + 1).astype(np.int64)
    for k in range(blocks.size - 1):
        i0, i1 = int(blocks[k]), int(blocks[k + 1])
        _pair_kernel(xs, ys, cell, cell_start, ncx, ncy, reach, radii, table, per_cell, mode, recip_s, b_s, last_s,
                     full_angle, start, count, distance, h, sa, sb, i0, i1, out)  # fmt: skip
        report(progress, 0.1 + 0.9 * (k + 1) / (blocks.size - 1), "Counting pairs of points")
    return out


# -- pair sums: numpy path -----------------------------------------------------------------------


def _weights_np(i, d, near: _NearEdges) -> np.ndarray:
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


def _pair_sums_numpy(x, y, radii, mode, recip, b, last, near, progress):
    n = x.size
    r_max = float(radii[-1])
    points = np.column_stack([x, y])
    tree = cKDTree(points)
    out = np.zeros(radii.size + 1)
    expected = max(1.0, n * np.mean(tree.query_ball_point(points[: min(n, 200)], r_max, return_length=True)))
    block = int(max(1, min(n, _PAIR_CHUNK * n // expected)))
    for s in range(0, n, block):
        idx = np.arange(s, min(s + block, n))
        lists = tree.query_ball_point(points[idx], r_max)
        sizes = np.fromiter((len(item) for item in lists), dtype=np.int64, count=idx.size)
        i = np.repeat(idx, sizes)
        j = np.fromiter((q for item in lists for q in item), dtype=np.int64, count=int(sizes.sum()))
        i, j = i[i != j], j[i != j]
        d = np.hypot(x[j] - x[i], y[j] - y[i])
        i, j, d = i[d <= r_max], j[d <= r_max], d[d <= r_max]
        k = np.searchsorted(radii, d, side="left")
        w = recip[i] * recip[j] if recip.size else np.ones(d.size)
        if mode == _NONE:
            out += np.bincount(k, weights=w, minlength=out.size)
        elif mode == _ISOTROPIC:
            e = np.ones(d.size)
            leave = np.flatnonzero(d > b[i])
            if leave.size:
                e[leave] = _weights_np(i[leave], d[leave], near)
            out += np.bincount(k, weights=w * e, minlength=out.size)
        else:
            ok = last[i] >= k
            out += np.bincount(k[ok], weights=w[ok], minlength=out.size)
            out -= np.bincount(last[i][ok] + 1, weights=w[ok], minlength=out.size)
        report(progress, 0.1 + 0.9 * min(s + block, n) / n, "Counting pairs of points")
    return out


# -- the estimator -------------------------------------------------------------------------------


def _check_radii(radii) -> np.ndarray:
    try:
        r = np.array(radii, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError("radii", "radii must be a sequence of numbers") from exc
    if r.ndim != 1 or r.size == 0:
        raise ParameterError("radii", f"radii must be a non-empty one-dimensional sequence, got shape {r.shape}")
    if not np.isfinite(r).all():
        raise ParameterError("radii", "radii must be finite")
    if (r < 0).any():
        raise ParameterError("radii", f"radii must be >= 0, got a smallest value of {r.min()!r}")
    if r.size > 1 and not (np.diff(r) > 0).all():
        raise ParameterError("radii", "radii must be strictly increasing")
    return r


def _check_points(x, y, window: Window) -> tuple[np.ndarray, np.ndarray]:
    x = np.ascontiguousarray(x, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ParameterError("points", f"x and y must be one-dimensional of the same length, got {x.shape}, {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError("points", "point coordinates contain NaN or infinite values")
    if x.size < 2:
        raise ParameterError("points", f"the K-function needs at least 2 points, got {x.size}")
    if not isinstance(window, Window):
        raise ParameterError("window", f"window must be a Window, got {type(window).__name__}")
    outside = int(np.count_nonzero(~window.contains(x, y)))
    if outside:
        raise ParameterError(
            "points", f"{outside} of {x.size} points lie outside the window; clip the points or enlarge the window"
        )
    return x, y


def _check_intensity(intensity, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    values = intensity(x, y) if callable(intensity) else intensity
    try:
        lam = np.broadcast_to(np.asarray(values, dtype=np.float64), x.shape)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            "intensity", f"intensity must give one value per point ({x.size}), got shape {np.shape(values)}"
        ) from exc
    if not np.isfinite(lam).all():
        raise ParameterError("intensity", "intensity values must be finite")
    if not (lam > 0).all():
        raise ParameterError("intensity", f"intensity values must be > 0 at every point, got minimum {lam.min()!r}")
    return np.ascontiguousarray(lam)


def k_function(
    x,
    y,
    window: Window,
    radii,
    correction: str = "isotropic",
    intensity: Intensity = None,
    *,
    renormalise: bool = False,
    normpower: int = 1,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> KFunction:
    """Estimate Ripley's K-function (homogeneous, or inhomogeneous as Kim & Lim eq. 14) and L-function.

    See the module docstring for the estimators, their normalisation (the homogeneous one is
    spatstat's ``Kest``, with ``lambda^2`` estimated by ``n (n - 1) / |W|^2``; the inhomogeneous one
    is eq. 14, spatstat's ``Kinhom`` with ``renormalise=FALSE``) and the edge corrections.

    Only pairs closer than the largest radius are visited (a cell grid over the points), so the cost
    grows with ``n^2 r_max^2 / |W|``; the isotropic weight is computed only for pairs whose circle
    crosses the boundary, from the window edges within ``r_max`` of the centre.

    Args:
        x, y: point coordinates (one-dimensional, same length, at least 2 points), all in ``window``
            (points on the boundary count as inside).
        window: the study region ``W``.
        radii: distances ``r`` at which to estimate ``K``: finite, >= 0, strictly increasing, in
            coordinate units. See :func:`default_radii`.
        correction: "isotropic" (Ripley), "border" (reduced sample) or "none".
        intensity: ``None`` for the homogeneous estimator; otherwise the intensity ``lambda(x_i) > 0``
            at each point (points per squared unit), as an array of length ``n`` or a callable
            ``intensity(x, y) -> array``.
        renormalise: inhomogeneous only: multiply by spatstat's renormalisation factor
            ``(|W| / sum 1/lambda_i)^normpower``. False (the default) is eq. 14.
        normpower: 1 or 2, spatstat's ``normpower`` (used only with ``renormalise=True``).
        use_numba: run the numba kernel (``True``), the numpy path (``False``), or numba if it is
            installed (``None``). Both give the same values up to rounding.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        :class:`KFunction`.

    Raises:
        ParameterError: naming ``points`` (fewer than 2, non-finite, outside the window), ``window``,
            ``radii``, ``correction``, ``intensity`` (non-positive or wrong length) or ``normpower``.
    """
    if correction not in _MODES:
        raise ParameterError("correction", f"unknown edge correction {correction!r}; use {', '.join(CORRECTIONS)}")
    if renormalise and normpower not in (1, 2):
        raise ParameterError("normpower", f"normpower must be 1 or 2, got {normpower!r}")
    x, y = _check_points(x, y, window)
    r = _check_radii(radii)
    n = x.size
    area = window.area
    lam = None if intensity is None else _check_intensity(intensity, x, y)
    with np.errstate(over="ignore"):  # an intensity too small for doubles is refused below
        recip = np.zeros(0) if lam is None else 1.0 / lam
    numba_path = resolve_use_numba(use_numba)
    mode = _MODES[correction]
    report(progress, 0.0, "Distances to the window boundary")

    r_max = float(r[-1])
    if mode == _NONE:
        b = np.full(n, np.inf)
    else:
        b = window.distance_to_boundary(x, y, upper_bound=r_max)
    last = (np.searchsorted(r, b, side="right") - 1).astype(np.int64)  # last radius <= b_i (border)
    near = _near_edges(window, x, y, b, r_max) if mode == _ISOTROPIC else None
    report(progress, 0.1, "Counting pairs of points")
    pair_sums = _pair_sums_numba if numba_path else _pair_sums_numpy

    def too_small():
        return ParameterError(
            "intensity",
            f"the intensity is too small for double precision at some points (smallest value {lam.min():.3g}): the "
            "sums of 1 / (lambda_i lambda_j) overflow. It must be in points per squared CRS unit; check the raster "
            "there (a log intensity, or a broken pixel?)",
        )

    if lam is not None and not np.all(np.isfinite(recip)):
        raise too_small()
    sums = np.cumsum(pair_sums(x, y, r, mode, recip, b, last, near, progress))[:-1]
    if lam is not None and not np.all(np.isfinite(sums)):
        raise too_small()

    if mode == _BORDER:
        # points with b_i >= r_k: those after the first sorted b_i >= r_k
        order = np.argsort(b, kind="stable")
        first = np.searchsorted(b[order], r, side="left")
        weight = np.ones(n) if lam is None else recip[order]
        tail = np.concatenate([np.cumsum(weight[::-1])[::-1], [0.0]])[first]
        with np.errstate(divide="ignore", invalid="ignore"):
            k = sums / tail if lam is not None else area / n * sums / tail
    elif lam is None:
        k = area / (n * (n - 1.0)) * sums
    else:
        k = sums / area
    if lam is not None and renormalise:
        factor = (area / float(recip.sum())) ** normpower
        k = k * factor
    k = np.where(np.isfinite(k), k, np.nan)
    report(progress, 1.0, "Done")
    return KFunction(
        r=r,
        K=k,
        L=np.sqrt(np.maximum(k, 0.0) / np.pi),
        correction=correction,
        n=n,
        inhomogeneous=lam is not None,
        area=area,
        renormalised=bool(lam is not None and renormalise),
    )


def default_radii(window: Window, n: int, count: int = 100) -> np.ndarray:
    """``count`` evenly spaced radii from 0 to spatstat's default ``rmax`` for the K-function.

    ``rmax = min(shortside / 4, sqrt(1000 / (pi lambda)))`` (spatstat's ``rmax.rule("K")``) with
    ``shortside`` the shorter side of the window's bounding box and ``lambda = n / |W|``.
    """
    if count < 2:
        raise ParameterError("count", f"count must be at least 2, got {count!r}")
    xmin, ymin, xmax, ymax = window.bounds
    rmax = min(xmax - xmin, ymax - ymin) / 4.0
    if n > 0:
        rmax = min(rmax, math.sqrt(1000.0 / (math.pi * n / window.area)))
    return np.linspace(0.0, rmax, int(count))


# -- MISE ----------------------------------------------------------------------------------------


def mise(r, k_synthetic, k_original) -> np.ndarray | float:
    """Integrated squared relative error of a K-function, Kim & Lim Section 4.1.

    ``integral over {r : K_ori(r) > 0} of (K_syn(r) / K_ori(r) - 1)^2 dr``, by the trapezoid rule on
    the given radii: an interval ``[r_k, r_k+1]`` is included when ``K_ori > 0`` at both ends (as ``K``
    is non-decreasing, the domain is the radii from the first with ``K_ori > 0`` on; the part of
    the first interval where ``K_ori`` turns positive is left out). 0 means identical K-functions.

    Args:
        r: the radii (one-dimensional, strictly increasing).
        k_synthetic: K of the synthetic pattern(s), shape ``(..., len(r))``.
        k_original: K of the original pattern, broadcastable against ``k_synthetic``.

    Returns:
        the integral (in units of length), a float or an array of the leading shape. ``nan`` when
        ``K_syn`` is ``nan`` inside the domain.
    """
    r = _check_radii(r)
    if r.size < 2:
        raise ParameterError("radii", "the MISE needs at least two radii")
    k_syn = np.asarray(k_synthetic, dtype=np.float64)
    k_ori = np.asarray(k_original, dtype=np.float64)
    if k_syn.shape[-1:] != r.shape or k_ori.shape[-1:] != r.shape:
        raise ParameterError(
            "k_synthetic", f"K-functions must have len(r) = {r.size} values last, got {k_syn.shape} and {k_ori.shape}"
        )
    k_syn, k_ori = np.broadcast_arrays(k_syn, k_ori)
    domain = k_ori > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(domain, (k_syn / np.where(domain, k_ori, 1.0) - 1.0) ** 2, 0.0)
    both = domain[..., 1:] & domain[..., :-1]
    value = np.sum(np.where(both, 0.5 * (f[..., 1:] + f[..., :-1]) * np.diff(r), 0.0), axis=-1)
    return float(value) if value.ndim == 0 else value


def mean_mise(r, k_synthetic, k_original) -> float:
    """The MISE averaged over several synthetic sets (and originals), Kim & Lim Section 4.1.

    ``k_synthetic`` has shape ``(n_syn, len(r))`` for one original ``k_original`` of shape ``(len(r),)``,
    or ``(n_ori, n_syn, len(r))`` with ``k_original`` of shape ``(n_ori, len(r))`` (each original is
    compared with its own synthetic sets): ``1 / (n_ori n_syn) sum_j sum_k MISE_jk``.
    """
    k_syn = np.asarray(k_synthetic, dtype=np.float64)
    k_ori = np.asarray(k_original, dtype=np.float64)
    if k_ori.ndim == 2 and k_syn.ndim == 3:
        k_ori = k_ori[:, None, :]
    elif not (k_ori.ndim == 1 and k_syn.ndim == 2):
        raise ParameterError(
            "k_synthetic",
            "give k_synthetic (n_syn, len(r)) with k_original (len(r),), "
            f"or (n_ori, n_syn, len(r)) with (n_ori, len(r)); got {k_syn.shape} and {k_ori.shape}",
        )
    return float(np.mean(mise(r, k_syn, k_ori)))
