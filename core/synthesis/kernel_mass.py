"""The Gaussian kernel on a polygon window: Diggle's edge correction ``c_h(x) = P(x + hZ in S)``, its gradient, and
exact sampling of ``x + hZ`` restricted to ``S`` (Kim & Lim 2025, "Differentially private synthesis of spatial
point processes", eq. 6; Diggle 1985).

Planar geometry. The window is a :class:`..window.Window` (polygons with holes; exterior rings
counter-clockwise, holes clockwise). All lengths are in coordinate units, areas in squared units.

``c_h`` in closed form. Fan the window from ``x``: ``1_W = sum over edges of the signed triangle (x, a, b)``
(orientation of the rings makes the signs right, holes included). For one edge at perpendicular distance
``d`` from ``x``, with ``p_a < p_b`` the positions of its end points along the edge's line measured from
the foot of the perpendicular, polar coordinates give

    P(x + hZ in triangle) = (1/2pi) int (1 - exp(-d^2 / (2 h^2 cos^2 phi))) dphi
                          = [T(0, t) - T(d/h, t)] evaluated from t = p_a/d to t = p_b/d,

where ``T(k, a) = (1/2pi) int_0^a exp(-k^2 (1 + x^2)/2) / (1 + x^2) dx`` is Owen's T function
(substitute ``x = tan phi``) and ``T(0, t) = atan(t) / 2pi``. Summed over the edges, the ``T(0, .)`` terms
are the winding number ``w(x)`` (1 inside, 0 outside, the interior angle over 2pi on the boundary), so

    c_h(x) = w(x) - sum_edges sign(a x b) [T(d/h, p_b/d) - T(d/h, p_a/d)].

scipy's ``owens_t`` (Patefield & Tandy 2000) is accurate to double precision, so ``c_h`` is exact up to
rounding (absolute error ~1e-15 per edge; tested against the rectangle's product of normal CDF differences).
An edge farther than ``12 h`` from ``x`` changes the sum by less than ``exp(-72) < 1e-31`` and is skipped.
``w(x)`` comes from :meth:`Window.contains`, except within ``1e-9`` (relative) of the boundary, where the
signed angle sum over all edges is used so that ``w`` is consistent with the signs in the sum.

``grad c_h`` in closed form. By the divergence theorem ``grad c_h(x) = -int_{dS} phi_h(s - x) n(s) dl``
(``n`` the outward normal: the right-hand side of each edge with the ring orientations above), and along a
straight edge ``int phi_h(s - x) dl = phi(d/h) / h * [Phi(p_b/h) - Phi(p_a/h)]``.

Sampling (:meth:`KernelMass.sample_offspring`): exact rejection, a draw outside the window is redrawn.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree
from scipy.special import ndtr, owens_t

from .. import mechanisms
from ..errors import ParameterError
from ..progress import Progress, report
from ..window import Window
from .point_arrays import ROUND_DRAWS, as_xy, expand

#: Edges farther than this many bandwidths from a point are skipped in c_h and its gradient (error < 1e-31).
NEAR_BANDWIDTHS = 12.0

_PHI0 = 1.0 / math.sqrt(2.0 * math.pi)  # phi(0), the standard normal density at 0
_TWO_PI = 2.0 * math.pi


def _phi_diff(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``Phi(hi) - Phi(lo)`` for ``lo <= hi`` without cancellation in the upper tail (mirrored when ``lo > 0``)."""
    flip = lo > 0
    return ndtr(np.where(flip, -lo, hi)) - ndtr(np.where(flip, -hi, lo))


class _EdgeIndex:
    """Window edges cut into pieces with a k-d tree on the piece midpoints: all edges within a radius of points."""

    def __init__(self, ax, ay, bx, by, radius: float):
        length = np.hypot(bx - ax, by - ay)
        piece = max(radius, float(length.sum()) / 200_000.0)
        n = np.maximum(np.ceil(length / piece).astype(np.int64), 1)
        edge, _ = expand(n, np.zeros_like(n))
        j = np.arange(edge.size) - (np.cumsum(n) - n)[edge]
        tm = (j + 0.5) / n[edge]
        mid = np.column_stack([ax[edge] + tm * (bx - ax)[edge], ay[edge] + tm * (by - ay)[edge]])
        self.edge = edge
        self.half = 0.5 * float(np.max(length / n)) * (1 + 1e-9)
        self.tree = cKDTree(mid)
        self.n_edges = ax.size

    def pairs(self, px: np.ndarray, py: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
        """Every (point, edge) pair whose segment distance is <= ``radius`` (and perhaps a few more)."""
        tree = cKDTree(np.column_stack([px, py]))
        hits = tree.sparse_distance_matrix(self.tree, radius + self.half, output_type="ndarray")
        key = np.unique(hits["i"].astype(np.int64) * self.n_edges + self.edge[hits["j"]])
        return key // self.n_edges, key % self.n_edges


class KernelMass:
    """``c_h`` and ``grad c_h`` of a Gaussian kernel (sd ``h`` per coordinate) on a polygon window, and sampling of
    ``x + hZ`` restricted to the window.

    Args:
        window: the window; edges: its ring edges ``(ax, ay, bx, by)``, each ring closed.
    """

    def __init__(self, window: Window, edges: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]):
        self.window = window
        self.edges = edges
        xmin, ymin, xmax, ymax = window.bounds
        self._scale = max(abs(xmin), abs(ymin), abs(xmax), abs(ymax), xmax - xmin, ymax - ymin)
        self._index_cache: dict = {}

    def _near_pairs(self, px, py, h):
        radius = NEAR_BANDWIDTHS * h
        cache = self._index_cache
        index = cache.get(radius)
        if index is None:
            if len(cache) > 16:
                cache.clear()
            index = cache[radius] = _EdgeIndex(*self.edges, radius)
        return index.pairs(px, py, radius)

    def _winding(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Winding number: ``contains`` away from the boundary, the exact signed angle sum next to it."""
        w = self.window.contains(px, py).astype(np.float64)
        tol = 1e-9 * self._scale
        close = np.flatnonzero(self.window.distance_to_boundary(px, py, upper_bound=tol) <= tol)
        if close.size:
            ax, ay, bx, by = self.edges
            for start in range(0, close.size, 256):
                idx = close[start : start + 256]
                qx, qy = px[idx, None], py[idx, None]
                sgn, d, pa, pb = _edge_frame(ax - qx, ay - qy, bx - qx, by - qy)
                angle = np.where(d > 0, sgn * (np.arctan2(pb, d) - np.arctan2(pa, d)), 0.0)
                w[idx] = angle.sum(axis=1) / _TWO_PI
        return w

    def mass_and_gradient(self, px: np.ndarray, py: np.ndarray, h: float, mass: bool = True, gradient: bool = True):
        """``(c_h, dc_h/dx, dc_h/dy)`` at the points (float64 arrays; ``None`` for what is not asked for).

        ``c_h`` is in [0, 1], its gradient per coordinate unit; ``h`` must have passed :func:`check_bandwidth`.

        Pairs of a point and an edge farther than ``NEAR_BANDWIDTHS * h`` apart are skipped (found with a k-d
        tree), unless the window has few edges or every edge is that close, when all pairs are computed densely.
        """
        n = px.size
        c = self._winding(px, py) if mass else None
        gx = np.zeros(n) if gradient else None
        gy = np.zeros(n) if gradient else None
        if n == 0:
            return c, gx, gy
        ax, ay, bx, by = self.edges
        n_edges = ax.size
        xmin, ymin, xmax, ymax = self.window.bounds
        chunk = max(1, (1 << 20) // n_edges)
        for start in range(0, n, chunk):
            sl = slice(start, min(n, start + chunk))
            qx, qy = px[sl], py[sl]
            span = math.hypot(max(xmax, qx.max()) - min(xmin, qx.min()), max(ymax, qy.max()) - min(ymin, qy.min()))
            if n_edges <= 64 or NEAR_BANDWIDTHS * h >= span:  # dense: every (point, edge) pair
                terms = _pair_terms(ax - qx[:, None], ay - qy[:, None], bx - qx[:, None], by - qy[:, None], h)
                if mass:
                    c[sl] -= _sum_terms(terms[0], None, 0)
                if gradient:
                    gx[sl], gy[sl] = _sum_terms(terms[1], None, 0), _sum_terms(terms[2], None, 0)
                continue
            for sub in _point_chunks(sl.stop - sl.start):
                i, e = self._near_pairs(qx[sub], qy[sub], h)
                rx, ry = qx[sub][i], qy[sub][i]
                terms = _pair_terms(ax[e] - rx, ay[e] - ry, bx[e] - rx, by[e] - ry, h, mass, gradient)
                m = sub.stop - sub.start
                where = slice(start + sub.start, start + sub.stop)
                if mass:
                    c[where] -= _sum_terms(terms[0], i, m)
                if gradient:
                    gx[where], gy[where] = _sum_terms(terms[1], i, m), _sum_terms(terms[2], i, m)
        if mass:
            c = np.clip(c, 0.0, 1.0)
        return c, gx, gy

    def sample_offspring(
        self, rng: np.random.Generator, x, y, h: float, counts, progress: Progress = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``counts[i]`` independent draws of ``x_i + h Z`` conditioned on lying in the window (exact rejection).

        Draws come from :func:`..mechanisms.standard_normals`; a draw outside the window is redrawn, so each
        accepted draw has density ``K_h(s - x_i) 1_S(s) / c_h(x_i)``. The expected number of draws per point is
        ``1 / c_h(x_i)``.

        There is no limit on the draws: a refusal or a give-up when some ``c_h(x_i)`` is tiny would depend on one
        confidential location (an alpha-neighbour just across the limit would get synthetic points instead of an
        error: an unbounded privacy loss). A point in a part of the window far narrower than ``h`` costs about
        ``1 / c_h(x_i)`` draws, reported as progress, and can be cancelled.
        :meth:`.domain.PlanarDomain.narrowest_mass` tells from public inputs only whether that can happen.

        Returns:
            ``(x, y)`` of all draws, sorted by x then y (the order carries no information about the parents).
        """
        px, py = as_xy(x, y)
        h = check_bandwidth(h)
        counts = np.asarray(counts, dtype=np.int64).ravel()
        if counts.shape != px.shape or np.any(counts < 0):
            raise ParameterError("counts", "one count >= 0 per point is needed")
        parents = np.flatnonzero(counts > 0)
        if parents.size == 0:
            return np.empty(0), np.empty(0)
        # c_h > 0 inside the window; the floor only keeps 1.5 / mass finite for a mass that underflows
        mass = np.maximum(self.mass_and_gradient(px[parents], py[parents], h, gradient=False)[0], 1e-300)
        parent = np.repeat(parents, counts[parents])
        accept = np.repeat(mass, counts[parents])
        pending = np.arange(parent.size)
        out_x = np.empty(parent.size)
        out_y = np.empty(parent.size)
        total = parent.size
        while pending.size:
            tries = np.minimum(np.ceil(1.5 / accept[pending]).astype(np.int64), ROUND_DRAWS)
            budget = np.cumsum(tries)
            stop = max(1, int(np.searchsorted(budget, ROUND_DRAWS, side="right")))
            batch, rest = pending[:stop], pending[stop:]
            tries = tries[:stop]
            owner, _ = expand(tries, np.zeros_like(tries))
            z = mechanisms.standard_normals(rng, (owner.size, 2))
            p = parent[batch[owner]]
            cx = px[p] + h * z[:, 0]
            cy = py[p] + h * z[:, 1]
            ok = self.window.contains(cx, cy)
            # the first accepted draw of each pending offspring
            first = np.full(batch.size, -1, dtype=np.int64)
            hit = np.flatnonzero(ok)
            first_hit_owner, pos = np.unique(owner[hit], return_index=True)
            first[first_hit_owner] = hit[pos]
            done = first >= 0
            out_x[batch[done]] = cx[first[done]]
            out_y[batch[done]] = cy[first[done]]
            pending = np.concatenate([batch[~done], rest])
            report(progress, 1.0 - pending.size / total, "Drawing kernel offspring")
        order = np.lexsort((out_y, out_x))
        return out_x[order], out_y[order]


def check_bandwidth(h) -> float:
    """The bandwidth as a float; raises ParameterError("bandwidth") unless it is finite and > 0."""
    h = float(h)
    if not (math.isfinite(h) and h > 0):
        raise ParameterError("bandwidth", f"the bandwidth must be a finite number > 0, got {h!r}")
    return h


def _point_chunks(n: int, size: int = 4096):
    for start in range(0, n, size):
        yield slice(start, min(n, start + size))


def _pair_terms(ax, ay, bx, by, h: float, mass: bool = True, gradient: bool = True):
    """Per (point, edge) pair, with the edge ``a -> b`` given relative to the point: the edge's Owen's T term
    ``sign(a x b) [T(d/h, p_b/d) - T(d/h, p_a/d)]`` of ``c_h`` and its two terms of ``grad c_h``."""
    sgn, d, pa, pb = _edge_frame(ax, ay, bx, by)
    t_term = gx = gy = None
    if mass:
        safe = np.where(d > 0, d, 1.0)  # sgn = 0 when d = 0: the pair adds nothing
        k = d / h
        t_term = sgn * (owens_t(k, pb / safe) - owens_t(k, pa / safe))
    if gradient:
        ex, ey = bx - ax, by - ay
        length = np.hypot(ex, ey)
        line = np.exp(-0.5 * (d / h) ** 2) * (_PHI0 / h) * _phi_diff(pa / h, pb / h) / length
        gx, gy = -line * ey, line * ex
    return t_term, gx, gy


def _sum_terms(terms: np.ndarray, owner: np.ndarray | None, n: int) -> np.ndarray:
    """Row sums of dense ``(points, edges)`` terms, or sums per owner of pair terms."""
    if owner is None:
        return terms.sum(axis=1)
    return np.bincount(owner, weights=terms, minlength=n)


def _edge_frame(ax, ay, bx, by):
    """For edges ``a -> b`` given relative to a point: ``sign(a x b)``, the distance ``d`` of the point to the
    edge's line and the positions ``p_a < p_b`` of the end points along the line from the foot of the perpendicular.
    """
    ex, ey = bx - ax, by - ay
    length = np.hypot(ex, ey)
    cross = ax * by - ay * bx
    d = np.abs(cross) / length
    pa = (ax * ex + ay * ey) / length
    pb = (bx * ex + by * ey) / length
    return np.sign(cross), d, pa, pb
