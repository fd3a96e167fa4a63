"""Sums over the pairs of points of a planar pattern closer than the largest radius, for the K-function.

For radii ``r_0 < ... < r_m`` these are the sums over ordered pairs ``i != j`` with ``d_ij <= r_k`` of
``w_ij = 1 / (lambda_i lambda_j)`` (or 1 for the homogeneous estimator) times the edge correction: none,
Ripley's isotropic weight ``e_ij`` (:mod:`.edge_correction`), or, for the border (reduced-sample)
correction, the indicator ``r_k <= b_i`` (``b_i`` the distance from ``x_i`` to the window's boundary). A
pair is counted at the first radius it fits; :func:`core.metrics.kfunction.k_function` cumulates them.

Two paths give the same sums up to rounding: a numba kernel over a cell grid of the points
(:func:`pair_sums_numba`) and a vectorised numpy one over k-d tree neighbour lists (:func:`pair_sums_numpy`).
Both take ``progress(fraction, message)``, which may raise to cancel, and report fractions from 0.1 to 1.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from ..jit import njit
from ..progress import report
from .edge_correction import weight_at, weights_numpy

#: Edge-correction modes of the pair sums (``mode`` of :func:`pair_sums_numba` and :func:`pair_sums_numpy`).
MODE_NONE, MODE_ISOTROPIC, MODE_BORDER = 0, 1, 2
#: Ordered pairs handled at once by the numpy path (bounds temporary memory).
_PAIR_CHUNK = 1 << 21


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
                            e = weight_at(i, d, full_angle, start, count, distance, h, sa, sb)
                        if d > b[j]:
                            e += weight_at(j, d, full_angle, start, count, distance, h, sa, sb)
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


def pair_sums_numba(x, y, radii, mode, recip, b, last, near, progress):
    """Pair sums by the numba kernel over a cell grid of the points.

    Args:
        x, y: the points; radii: strictly increasing, >= 0.
        mode: :data:`MODE_NONE`, :data:`MODE_ISOTROPIC` or :data:`MODE_BORDER`.
        recip: ``1 / lambda_i`` per point, or an empty array for unit weights.
        b: distance from each point to the window's boundary (``inf`` when not needed).
        last: per point, the index of the last radius ``<= b_i`` (border correction).
        near: the :class:`.edge_correction.NearEdges` of the points (isotropic correction), else None.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        ``len(radii) + 1`` increments: their cumulative sum up to ``k < len(radii)`` is the pair sum at
        ``radii[k]`` (the last entry only closes the border correction's difference array).
    """
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


def pair_sums_numpy(x, y, radii, mode, recip, b, last, near, progress):
    """Pair sums by numpy over k-d tree neighbour lists, in blocks; arguments and result as :func:`pair_sums_numba`."""
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
        if mode == MODE_NONE:
            out += np.bincount(k, weights=w, minlength=out.size)
        elif mode == MODE_ISOTROPIC:
            e = np.ones(d.size)
            leave = np.flatnonzero(d > b[i])
            if leave.size:
                e[leave] = weights_numpy(i[leave], d[leave], near)
            out += np.bincount(k, weights=w * e, minlength=out.size)
        else:
            ok = last[i] >= k
            out += np.bincount(k[ok], weights=w[ok], minlength=out.size)
            out -= np.bincount(last[i][ok] + 1, weights=w[ok], minlength=out.size)
        report(progress, 0.1 + 0.9 * min(s + block, n) / n, "Counting pairs of points")
    return out
