"""Triangular meshes for SPDE Gaussian fields and the dual-mesh LGCP likelihood.

A :class:`Mesh` carries the piecewise-linear ("hat") basis functions ``phi_j`` of Lindgren, Rue &
Lindström (2011), Walder et al. eq. (28): ``phi_j`` is 1 at node ``j``, 0 at every other node and
linear on each triangle. On it this module computes

* the projection ``A_ij = phi_j(s_i)`` of points onto the nodes (Walder App. A.2, ``P``);
* the finite-element matrices of Walder App. A.1 / Lindgren et al. (2011) eq. (10): the lumped mass
  ``c_i = int phi_i`` (the diagonal ``C~``) and the stiffness ``G_ij = int grad phi_i . grad phi_j``;
* the integration weights ``alpha_i = int_W phi_i`` of the likelihood's quadrature
  ``int_W lambda(s) ds ~ sum_i alpha_i lambda(s_i)`` (Simpson et al. 2016; Walder eq. 30). For a
  triangle inside ``W`` each corner gets a third of its area, which is the area of the corner's
  barycentric dual cell; triangles cut by the window's boundary are integrated exactly.

Meshes come from :func:`triangulate` (a Delaunay mesh of a window with an outer extension band,
as R-INLA's ``inla.mesh.2d``) or :func:`lattice` (the regular right-triangle lattice of Kim & Lim,
Section 3.3.1 and Figure 1). Lengths are in coordinate units, areas in squared units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from scipy.spatial import Delaunay, cKDTree

from .errors import ParameterError
from .jit import njit
from .window import Window

#: Largest mesh :func:`triangulate` and :func:`lattice` build.
MAX_NODES = 2_000_000
#: A point is in a triangle when all its barycentric coordinates are >= -LOCATE_TOL.
LOCATE_TOL = 1e-10
#: (point, candidate triangle) pairs tested at once by :meth:`Mesh.locate`.
_PAIR_CHUNK = 1 << 21
#: Rounds of Delaunay refinement and steps of Laplacian smoothing :func:`triangulate` applies near the boundary.
_REFINE_ROUNDS = 4
_SMOOTHING_STEPS = 3
#: Circumradius (in units of max_edge) above which a triangle in the window gets its circumcentre inserted.
_REFINE_RADIUS = 0.75
#: Points within this many spacings of the boundary take part in the refinement's triangulations.
_REACH = 5.0


def _expand(counts: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For groups of ``counts[i]`` items starting at ``starts[i]``: each item's group and position."""
    group = np.repeat(np.arange(counts.size), counts)
    position = np.arange(group.size) - (np.cumsum(counts) - counts)[group] + starts[group]
    return group, position


@dataclass(frozen=True)
class _Locator:
    """Triangles bucketed by a uniform grid of cells (by bounding box), with their barycentric maps.

    Coordinates are taken relative to ``origin`` (the mesh's lower-left corner) for accuracy. For
    triangle ``t`` with third vertex ``v3``: ``l1 = a11 (x - x3) + a12 (y - y3)``,
    ``l2 = a21 (x - x3) + a22 (y - y3)``, ``l3 = 1 - l1 - l2``.
    """

    ox: float
    oy: float
    cell: float
    nx: int
    ny: int
    start: np.ndarray  # (nx * ny + 1,) CSR pointer into ``tris``
    tris: np.ndarray
    x3: np.ndarray
    y3: np.ndarray
    a: np.ndarray  # (m, 4): a11, a12, a21, a22


@dataclass(frozen=True, eq=False)
class Mesh:
    """A triangulation carrying piecewise-linear basis functions.

    Attributes:
        nodes: ``(n, 2)`` float64 node coordinates.
        triangles: ``(m, 3)`` int64 node indices, counter-clockwise (clockwise triangles given to
            the constructor are reversed; triangles of zero area are refused).

    Meshes compare by identity (``eq=False``). Derived quantities are computed once and cached.
    """

    nodes: np.ndarray
    triangles: np.ndarray

    def __post_init__(self) -> None:
        nodes = np.array(self.nodes, dtype=np.float64)
        if nodes.ndim != 2 or nodes.shape[1] != 2 or nodes.shape[0] < 3:
            raise ParameterError("mesh", f"nodes must be an (n >= 3, 2) array, got shape {nodes.shape}")
        if not np.isfinite(nodes).all():
            raise ParameterError("mesh", "node coordinates contain NaN or infinite values")
        tri = np.asarray(self.triangles)
        if tri.ndim != 2 or tri.shape[1] != 3 or tri.shape[0] < 1:
            raise ParameterError("mesh", f"triangles must be an (m >= 1, 3) array, got shape {tri.shape}")
        if not np.issubdtype(tri.dtype, np.integer):
            raise ParameterError("mesh", f"triangles must hold integer node indices, got dtype {tri.dtype}")
        tri = np.array(tri, dtype=np.int64)
        if tri.min() < 0 or tri.max() >= nodes.shape[0]:
            raise ParameterError("mesh", f"triangle node indices must lie in [0, {nodes.shape[0] - 1}]")
        doubled = _doubled_areas(nodes, tri)
        e = nodes[tri[:, [1, 2, 0]]] - nodes[tri]
        longest2 = np.max(np.sum(e * e, axis=2), axis=1)
        flat = ~(np.abs(doubled) > 1e-12 * longest2)
        if flat.any():
            raise ParameterError(
                "mesh", f"{int(flat.sum())} triangles have zero area (e.g. triangle {np.argmax(flat)})"
            )
        clockwise = doubled < 0
        tri[clockwise] = tri[clockwise][:, [0, 2, 1]]
        nodes.setflags(write=False)
        tri.setflags(write=False)
        object.__setattr__(self, "nodes", nodes)
        object.__setattr__(self, "triangles", tri)

    # -- sizes and measures ----------------------------------------------------------------------

    @property
    def n_nodes(self) -> int:
        """Number of nodes ``n``."""
        return int(self.nodes.shape[0])

    @property
    def n_triangles(self) -> int:
        """Number of triangles ``m``."""
        return int(self.triangles.shape[0])

    @cached_property
    def triangle_areas(self) -> np.ndarray:
        """``(m,)`` area of each triangle (positive), in squared units."""
        out = 0.5 * _doubled_areas(self.nodes, self.triangles)
        out.setflags(write=False)
        return out

    @property
    def area(self) -> float:
        """Total area covered by the mesh."""
        return float(self.triangle_areas.sum())

    @cached_property
    def edges(self) -> np.ndarray:
        """``(e, 2)`` unique edges as node pairs ``(i, j)`` with ``i < j``, sorted."""
        pairs = self.triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
        lo, hi = pairs.min(axis=1), pairs.max(axis=1)
        key = np.unique(lo * np.int64(self.n_nodes) + hi)
        out = np.column_stack(np.divmod(key, np.int64(self.n_nodes)))
        out.setflags(write=False)
        return out

    @property
    def edge_lengths(self) -> np.ndarray:
        """``(e,)`` lengths of the unique edges (same order as :attr:`edges`)."""
        d = self.nodes[self.edges[:, 1]] - self.nodes[self.edges[:, 0]]
        return np.hypot(d[:, 0], d[:, 1])

    def min_angles(self) -> np.ndarray:
        """``(m,)`` smallest interior angle of each triangle, in degrees (a quality measure)."""
        p = self.nodes[self.triangles]
        lengths = np.linalg.norm(p[:, [1, 2, 0]] - p, axis=2)  # side k runs from corner k to k+1
        a, b, c = lengths[:, 1], lengths[:, 2], lengths[:, 0]  # opposite corners 0, 1, 2
        doubled = 2.0 * self.triangle_areas
        # angle at corner k from its two adjacent sides: sin = 2A / (product), cos from the law of cosines
        angles = np.column_stack(
            [
                np.arctan2(doubled, (b * b + c * c - a * a) / 2.0),
                np.arctan2(doubled, (c * c + a * a - b * b) / 2.0),
                np.arctan2(doubled, (a * a + b * b - c * c) / 2.0),
            ]
        )
        return np.degrees(angles.min(axis=1))

    # -- point location and projection ------------------------------------------------------------

    @cached_property
    def _locator(self) -> _Locator:
        nodes, tri = self.nodes, self.triangles
        ox, oy = float(nodes[:, 0].min()), float(nodes[:, 1].min())
        p = nodes - np.array([ox, oy])
        width, height = float(p[:, 0].max()), float(p[:, 1].max())
        m = tri.shape[0]
        cell = float(np.median(self.edge_lengths))
        while (math.floor(width / cell) + 1) * (math.floor(height / cell) + 1) > 4 * m + 16:
            cell *= 1.5
        nx, ny = math.floor(width / cell) + 1, math.floor(height / cell) + 1
        corner = p[tri]  # (m, 3, 2)
        lo = np.floor(corner.min(axis=1) / cell).astype(np.int64)
        hi = np.floor(corner.max(axis=1) / cell).astype(np.int64)
        lo[:, 0], hi[:, 0] = np.clip(lo[:, 0], 0, nx - 1), np.clip(hi[:, 0], 0, nx - 1)
        lo[:, 1], hi[:, 1] = np.clip(lo[:, 1], 0, ny - 1), np.clip(hi[:, 1], 0, ny - 1)
        span_x = hi[:, 0] - lo[:, 0] + 1
        span_y = hi[:, 1] - lo[:, 1] + 1
        t, k = _expand(span_x * span_y, np.zeros(m, dtype=np.int64))
        cx = lo[t, 0] + k % span_x[t]
        cy = lo[t, 1] + k // span_x[t]
        cells = cy * nx + cx
        order = np.argsort(cells, kind="stable")
        start = np.zeros(nx * ny + 1, dtype=np.int64)
        start[1:] = np.cumsum(np.bincount(cells, minlength=nx * ny))
        x1, y1 = corner[:, 0, 0], corner[:, 0, 1]
        x2, y2 = corner[:, 1, 0], corner[:, 1, 1]
        x3, y3 = corner[:, 2, 0], corner[:, 2, 1]
        det = (y2 - y3) * (x1 - x3) + (x3 - x2) * (y1 - y3)
        a = np.column_stack([(y2 - y3) / det, (x3 - x2) / det, (y3 - y1) / det, (x1 - x3) / det])
        return _Locator(ox, oy, cell, nx, ny, start, t[order], x3, y3, a)

    def locate(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        """Triangle holding each point and the point's barycentric coordinates in it.

        A point on an edge shared by two triangles is given to one of them. Points outside the
        mesh (by more than ``LOCATE_TOL`` in barycentric terms) get triangle ``-1`` and
        coordinates 0. Barycentric coordinates are clipped to [0, 1] and sum to 1.

        Returns:
            ``(triangle, bary)``: ``(k,)`` int64 triangle indices and ``(k, 3)`` float64 weights of
            the triangle's nodes ``triangles[triangle]``.
        """
        px = np.asarray(x, dtype=np.float64).ravel()
        py = np.asarray(y, dtype=np.float64).ravel()
        if px.shape != py.shape:
            raise ParameterError("points", "x and y must have the same length")
        if not (np.isfinite(px).all() and np.isfinite(py).all()):
            raise ParameterError("points", "point coordinates contain NaN or infinite values")
        loc = self._locator
        qx, qy = px - loc.ox, py - loc.oy
        tri_of = np.full(px.size, -1, dtype=np.int64)
        bary = np.zeros((px.size, 3))
        slack = loc.cell * 1e-9
        inside_box = (qx >= -slack) & (qy >= -slack) & (qx <= loc.nx * loc.cell) & (qy <= loc.ny * loc.cell)
        idx = np.flatnonzero(inside_box)
        cx = np.clip((qx[idx] / loc.cell).astype(np.int64), 0, loc.nx - 1)
        cy = np.clip((qy[idx] / loc.cell).astype(np.int64), 0, loc.ny - 1)
        cells = cy * loc.nx + cx
        counts = loc.start[cells + 1] - loc.start[cells]
        total = np.cumsum(counts)
        begin = 0
        while begin < idx.size:  # chunks of about _PAIR_CHUNK candidate pairs
            base = total[begin - 1] if begin else 0
            end = max(int(np.searchsorted(total, base + _PAIR_CHUNK, side="right")), begin + 1)
            part = slice(begin, end)
            begin = end
            has = counts[part] > 0
            pts = idx[part][has]
            if pts.size == 0:
                continue
            group, position = _expand(counts[part][has], loc.start[cells[part][has]])
            t = loc.tris[position]
            dx = qx[pts][group] - loc.x3[t]
            dy = qy[pts][group] - loc.y3[t]
            a = loc.a[t]
            l1 = a[:, 0] * dx + a[:, 1] * dy
            l2 = a[:, 2] * dx + a[:, 3] * dy
            l3 = 1.0 - l1 - l2
            worst = np.minimum(np.minimum(l1, l2), l3)
            firsts = np.cumsum(counts[part][has]) - counts[part][has]
            best = np.maximum.reduceat(worst, firsts)
            hit = np.flatnonzero(worst == best[group])
            _, first_hit = np.unique(group[hit], return_index=True)
            chosen = hit[first_hit]  # one pair per point: the triangle the point is deepest inside
            ok = best >= -LOCATE_TOL
            chosen, owners = chosen[ok], pts[ok]
            lam = np.clip(np.column_stack([l1[chosen], l2[chosen], l3[chosen]]), 0.0, 1.0)
            bary[owners] = lam / lam.sum(axis=1, keepdims=True)
            tri_of[owners] = t[chosen]
        return tri_of, bary

    def projection(self, x, y) -> sp.csr_matrix:
        """Sparse ``(k, n)`` projection matrix ``A_ij = phi_j(s_i)`` of points ``s_i = (x_i, y_i)``.

        Each row holds the barycentric coordinates of the point in its triangle (3 stored entries,
        summing to 1), so ``A @ w`` interpolates node values linearly (Walder App. A.2, ``P``).

        Raises:
            ParameterError("points"): some points lie outside the mesh.
        """
        tri, bary = self.locate(x, y)
        outside = tri < 0
        if outside.any():
            first = int(np.argmax(outside))
            px = np.asarray(x, dtype=np.float64).ravel()
            py = np.asarray(y, dtype=np.float64).ravel()
            raise ParameterError(
                "points",
                f"{int(outside.sum())} points lie outside the mesh (the first at ({px[first]:.6g}, {py[first]:.6g})); "
                "build the mesh over a window that contains every point",
            )
        k = tri.size
        rows = np.repeat(np.arange(k), 3)
        cols = self.triangles[tri].ravel()
        return sp.csr_matrix((bary.ravel(), (rows, cols)), shape=(k, self.n_nodes))

    # -- finite elements ------------------------------------------------------------------------

    def fem_matrices(self) -> tuple[np.ndarray, sp.csr_matrix]:
        """Lumped mass diagonal ``c`` and stiffness matrix ``G`` (Lindgren et al. 2011, eq. 10; Walder App. A.1).

        * ``c_i = int phi_i ds = sum over triangles T at node i of |T| / 3`` (the diagonal
          lumped mass matrix ``C~``; also the area of node i's barycentric dual cell);
        * ``G_ij = int grad phi_i . grad phi_j ds``: on triangle ``T`` with edge vectors
          ``e_k`` opposite corner ``k`` (counter-clockwise), ``G^T_kl = e_k . e_l / (4 |T|)``.

        ``G`` is symmetric positive semi-definite with rows summing to 0 (constants are in its
        null space). Units: ``c`` in squared units, ``G`` dimensionless.

        Returns:
            ``(c, G)``: ``(n,)`` float64 array and ``(n, n)`` CSR matrix.
        """
        tri = self.triangles
        n = self.n_nodes
        area = self.triangle_areas
        p = self.nodes[tri]  # (m, 3, 2)
        e = p[:, [2, 0, 1]] - p[:, [1, 2, 0]]  # e_k = p_{k+2} - p_{k+1}: the edge opposite corner k
        local = np.einsum("mik,mjk->mij", e, e) / (4.0 * area)[:, None, None]
        rows = np.repeat(tri, 3, axis=1).ravel()
        cols = np.tile(tri, (1, 3)).ravel()
        g = sp.coo_matrix((local.ravel(), (rows, cols)), shape=(n, n)).tocsr()
        g.sum_duplicates()
        c = np.bincount(tri.ravel(), weights=np.repeat(area / 3.0, 3), minlength=n)
        return c, g

    def integration_weights(self, window: Window) -> np.ndarray:
        """Integration weights ``alpha_i = int over (W ∩ mesh) of phi_i(s) ds`` (Walder eq. 30), exact.

        Triangles inside the window give a third of their area to each corner; triangles outside
        give nothing. For a triangle cut by the window's boundary, ``int phi_i`` over its part in
        the window follows from that part's area and first moments (:meth:`clipped_moments`)
        because ``phi_i`` is linear on the triangle: ``int phi_i = area * phi_i(centroid)``.

        ``sum(alpha) = area(W ∩ mesh)``, and ``sum(alpha * f(nodes)) = int_W f`` for every ``f``
        linear on each triangle, up to rounding. For a mesh whose triangles follow the window's
        boundary (as :func:`triangulate`'s do), ``alpha_i`` is the area of node i's barycentric
        dual cell within the window. Units: squared coordinate units.

        Returns:
            ``(n,)`` float64 array, >= 0.
        """
        area, mx, my = self._local_moments(window)
        corner = self.nodes[self.triangles]
        v1 = corner[:, 1] - corner[:, 0]
        v2 = corner[:, 2] - corner[:, 0]
        det = v1[:, 0] * v2[:, 1] - v1[:, 1] * v2[:, 0]
        # about corner 0: phi_1(s) = cross(s, v2) / det, phi_2(s) = cross(v1, s) / det, phi_0 = 1 - phi_1 - phi_2
        w1 = (mx * v2[:, 1] - my * v2[:, 0]) / det
        w2 = (v1[:, 0] * my - v1[:, 1] * mx) / det
        contrib = np.column_stack([area - w1 - w2, w1, w2])
        weights = np.bincount(self.triangles.ravel(), weights=contrib.ravel(), minlength=self.n_nodes)
        return np.maximum(weights, 0.0)  # clipping can leave -1e-17 where the true value is 0

    def clipped_moments(self, window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Area and first moments of each triangle's part in the window, ``W ∩ T``, exact.

        Returns:
            ``(area, mx, my)``, each ``(m,)``: ``|W ∩ T|`` (squared units) and ``int x ds``,
            ``int y ds`` over ``W ∩ T`` (cubed units, absolute coordinates), so the centroid of
            the part is ``(mx / area, my / area)`` where ``area > 0``. Triangles outside give 0.
        """
        area, mx, my = self._local_moments(window)
        origin = self.nodes[self.triangles[:, 0]]
        return area, mx + origin[:, 0] * area, my + origin[:, 1] * area

    def _local_moments(self, window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(area, mx, my)`` of ``W ∩ T`` per triangle, moments about the triangle's corner 0.

        A triangle cut by the window's boundary is intersected with the window exactly: each ring is
        clipped against the (convex) triangle with Sutherland-Hodgman; clipping a closed curve
        against a half-plane keeps its winding number inside the half-plane, so the signed areas
        keep holes negative. To keep the work local for windows with many vertices, the window is
        first cut into rectangular tiles (again by Sutherland-Hodgman, see ``_WindowTiles``); a
        triangle is clipped against the pieces of the tiles its bounding box meets, and only when
        one of them may be crossed by the boundary. Moments about a corner keep the sums accurate
        for large coordinates.
        """
        if not isinstance(window, Window):
            raise ParameterError("window", "a Window is needed")
        tri, nodes = self.triangles, self.nodes
        m = tri.shape[0]
        corner = nodes[tri]
        tmin, tmax = corner.min(axis=1), corner.max(axis=1)
        wx0, wy0, wx1, wy1 = window.bounds
        meets = (tmax[:, 0] >= wx0) & (tmin[:, 0] <= wx1) & (tmax[:, 1] >= wy0) & (tmin[:, 1] <= wy1)
        moments = np.zeros((m, 3))
        cand = np.flatnonzero(meets)
        if cand.size == 0:
            return moments[:, 0], moments[:, 1], moments[:, 2]
        tiles = _WindowTiles.build(window, cand.size)
        i0, i1, j0, j1 = tiles.block(tmin[cand], tmax[cand])
        cut = tiles.count(tiles.mixed_sum, i0, i1, j0, j1) > 0
        whole = cand[~cut & (tiles.count(tiles.full_sum, i0, i1, j0, j1) > 0)]
        moments[whole, 0] = self.triangle_areas[whole]
        moments[whole, 1:] = (
            self.triangle_areas[whole, None] * (corner[whole, 1] + corner[whole, 2] - 2 * corner[whole, 0]) / 3
        )
        if cut.any():
            k = cand[cut]
            out = np.zeros((k.size, 3))
            _clipped_moments(
                corner[k, :, 0].copy(),
                corner[k, :, 1].copy(),
                i0[cut],
                i1[cut],
                j0[cut],
                j1[cut],
                tiles.kind,
                tiles.x0,
                tiles.y0,
                tiles.tw,
                tiles.th,
                tiles.nx,
                tiles.ring_ptr,
                tiles.vert_ptr,
                tiles.vx,
                tiles.vy,
                tiles.max_ring,
                out,
            )
            moments[k] = out
        return moments[:, 0], moments[:, 1], moments[:, 2]


def _doubled_areas(nodes: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Twice the signed area of each triangle (positive when counter-clockwise)."""
    p0, p1, p2 = nodes[tri[:, 0]], nodes[tri[:, 1]], nodes[tri[:, 2]]
    return (p1[:, 0] - p0[:, 0]) * (p2[:, 1] - p0[:, 1]) - (p1[:, 1] - p0[:, 1]) * (p2[:, 0] - p0[:, 0])


# -- exact intersection of triangles with a polygonal window ----------------------------------------


@njit(cache=True)
def _clip_halfplane(xs, ys, n, u, v, w, outx, outy):
    """Sutherland-Hodgman against the half-plane ``u x + v y + w >= 0``; returns the output length."""
    m = 0
    if n == 0:
        return 0
    px = xs[n - 1]
    py = ys[n - 1]
    sp_ = u * px + v * py + w
    for i in range(n):
        qx = xs[i]
        qy = ys[i]
        sq = u * qx + v * qy + w
        if sq >= 0.0:
            if sp_ < 0.0:
                t = sp_ / (sp_ - sq)
                outx[m] = px + t * (qx - px)
                outy[m] = py + t * (qy - py)
                m += 1
            outx[m] = qx
            outy[m] = qy
            m += 1
        elif sp_ >= 0.0:
            t = sp_ / (sp_ - sq)
            outx[m] = px + t * (qx - px)
            outy[m] = py + t * (qy - py)
            m += 1
        px = qx
        py = qy
        sp_ = sq
    return m


@njit(cache=True)
def _clip_to_box(xs, ys, x0, y0, x1, y1):
    """A ring clipped to the rectangle ``[x0, x1] x [y0, y1]`` (Sutherland-Hodgman, four half-planes)."""
    n = xs.shape[0]
    size = 6 * n + 16  # each half-plane clip at most multiplies the length by 1.5
    ax = np.empty(size)
    ay = np.empty(size)
    bx = np.empty(size)
    by = np.empty(size)
    for i in range(n):
        ax[i] = xs[i]
        ay[i] = ys[i]
    m = _clip_halfplane(ax, ay, n, 1.0, 0.0, -x0, bx, by)
    m = _clip_halfplane(bx, by, m, -1.0, 0.0, x1, ax, ay)
    m = _clip_halfplane(ax, ay, m, 0.0, 1.0, -y0, bx, by)
    m = _clip_halfplane(bx, by, m, 0.0, -1.0, y1, ax, ay)
    return ax[:m].copy(), ay[:m].copy()


@njit(cache=True)
def _triangle_clip_moments(xs, ys, n, tx, ty, bufx, bufy, tmpx, tmpy):
    """Signed area and first moments of a ring (local coordinates) clipped to the triangle ``(tx, ty)``."""
    for i in range(n):
        bufx[i] = xs[i]
        bufy[i] = ys[i]
    m = n
    for k in range(3):
        ax, ay = tx[k], ty[k]
        bx, by = tx[(k + 1) % 3], ty[(k + 1) % 3]
        # left of a -> b: (bx - ax) (y - ay) - (by - ay) (x - ax) >= 0
        u = -(by - ay)
        v = bx - ax
        w = (by - ay) * ax - (bx - ax) * ay
        if k % 2 == 0:
            m = _clip_halfplane(bufx, bufy, m, u, v, w, tmpx, tmpy)
        else:
            m = _clip_halfplane(tmpx, tmpy, m, u, v, w, bufx, bufy)
    # after three clips the result is in tmp (k = 0, 2 wrote to tmp)
    a = 0.0
    mx = 0.0
    my = 0.0
    for i in range(m):
        j = i + 1 if i + 1 < m else 0
        cr = tmpx[i] * tmpy[j] - tmpx[j] * tmpy[i]
        a += cr
        mx += (tmpx[i] + tmpx[j]) * cr
        my += (tmpy[i] + tmpy[j]) * cr
    return a / 2.0, mx / 6.0, my / 6.0


@njit(cache=True)
def _clipped_moments(cx, cy, i0, i1, j0, j1, kind, gx0, gy0, tw, th, ntx, ring_ptr, vert_ptr, vx, vy, max_ring, out):
    """Area and first moments (about corner 0) of ``W ∩ T`` for triangles ``T`` with corners ``(cx, cy)``."""
    size = 8 * max(max_ring, 4) + 16
    ringx = np.empty(size)
    ringy = np.empty(size)
    bufx = np.empty(size)
    bufy = np.empty(size)
    tmpx = np.empty(size)
    tmpy = np.empty(size)
    tx = np.empty(3)
    ty = np.empty(3)
    for t in range(cx.shape[0]):
        ox = cx[t, 0]
        oy = cy[t, 0]
        for k in range(3):
            tx[k] = cx[t, k] - ox
            ty[k] = cy[t, k] - oy
        a = 0.0
        mx = 0.0
        my = 0.0
        for j in range(j0[t], j1[t] + 1):
            for i in range(i0[t], i1[t] + 1):
                tile = j * ntx + i
                if kind[tile] == 0:
                    continue
                if kind[tile] == 1:  # the whole tile is in the window: clip its rectangle
                    xa = gx0 + i * tw - ox
                    xb = gx0 + (i + 1) * tw - ox
                    ya = gy0 + j * th - oy
                    yb = gy0 + (j + 1) * th - oy
                    ringx[0] = xa
                    ringy[0] = ya
                    ringx[1] = xb
                    ringy[1] = ya
                    ringx[2] = xb
                    ringy[2] = yb
                    ringx[3] = xa
                    ringy[3] = yb
                    da, dmx, dmy = _triangle_clip_moments(ringx, ringy, 4, tx, ty, bufx, bufy, tmpx, tmpy)
                    a += da
                    mx += dmx
                    my += dmy
                    continue
                for r in range(ring_ptr[tile], ring_ptr[tile + 1]):
                    n = 0
                    for q in range(vert_ptr[r], vert_ptr[r + 1]):
                        ringx[n] = vx[q] - ox
                        ringy[n] = vy[q] - oy
                        n += 1
                    da, dmx, dmy = _triangle_clip_moments(ringx, ringy, n, tx, ty, bufx, bufy, tmpx, tmpy)
                    a += da
                    mx += dmx
                    my += dmy
        out[t, 0] = a
        out[t, 1] = mx
        out[t, 2] = my


@dataclass(frozen=True)
class _WindowTiles:
    """The window's bounding box cut into ``nx x ny`` tiles, each empty (0), full (1) or mixed (2).

    A tile is mixed when the window's boundary may meet it (closed tile; a conservative test:
    boundary sample points no further apart than half a tile mark their tile and its 8 neighbours).
    A block of tiles without a mixed one is all inside or all outside the window. Mixed tiles
    keep the window's rings clipped to them (CSR: tile -> rings ``ring_ptr``, ring -> vertices
    ``vert_ptr``); clipping a closed curve to a convex tile preserves its winding number inside
    the tile, so the pieces of all tiles add up to the window.
    """

    x0: float
    y0: float
    tw: float
    th: float
    nx: int
    ny: int
    kind: np.ndarray
    mixed_sum: np.ndarray  # (ny + 1, nx + 1) summed-area table of mixed tiles
    full_sum: np.ndarray
    ring_ptr: np.ndarray
    vert_ptr: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    max_ring: int

    @classmethod
    def build(cls, window: Window, n_triangles: int) -> _WindowTiles:
        x0, y0, x1, y1 = window.bounds
        width, height = x1 - x0, y1 - y0
        target = int(min(max(math.sqrt(2.0 * n_triangles), 1.0), 4096.0))
        side = math.sqrt(width * height / target)
        nx = max(1, min(4096, math.ceil(width / side)))
        ny = max(1, min(4096, math.ceil(height / side)))
        while window.perimeter / (0.5 * min(width / nx, height / ny)) > 4e6 and max(nx, ny) > 1:
            nx, ny = max(1, nx // 2), max(1, ny // 2)  # fewer boundary samples for very long, thin windows
        tw, th = width / nx, height / ny
        # mixed tiles: the tile of every boundary sample and its neighbours
        samples = window.boundary_points(0.5 * min(tw, th))
        si = np.clip(((samples[:, 0] - x0) / tw).astype(np.int64), 0, nx - 1)
        sj = np.clip(((samples[:, 1] - y0) / th).astype(np.int64), 0, ny - 1)
        mixed = np.zeros((ny, nx), dtype=bool)
        for dj in (-1, 0, 1):
            for di in (-1, 0, 1):
                mixed[np.clip(sj + dj, 0, ny - 1), np.clip(si + di, 0, nx - 1)] = True
        jj, ii = np.divmod(np.arange(nx * ny), nx)
        centre_in = window.contains(x0 + (ii + 0.5) * tw, y0 + (jj + 0.5) * th).reshape(ny, nx)
        kind = np.where(mixed, 2, np.where(centre_in, 1, 0)).astype(np.int8)
        # the rings clipped to each mixed tile
        ring_ptr = np.zeros(nx * ny + 1, dtype=np.int64)
        vert_ptr = [0]
        vx: list[np.ndarray] = []
        vy: list[np.ndarray] = []
        ring_boxes = [(r[:, 0].min(), r[:, 1].min(), r[:, 0].max(), r[:, 1].max()) for r in window.rings]
        ring_xy = [(np.ascontiguousarray(r[:, 0]), np.ascontiguousarray(r[:, 1])) for r in window.rings]
        flat_kind = kind.ravel()
        count = 0
        for tile in range(nx * ny):
            if flat_kind[tile] == 2:
                j, i = divmod(tile, nx)
                bx0, by0 = x0 + i * tw, y0 + j * th
                bx1, by1 = bx0 + tw, by0 + th
                for (rx0, ry0, rx1, ry1), (rx, ry) in zip(ring_boxes, ring_xy):
                    if rx1 < bx0 or rx0 > bx1 or ry1 < by0 or ry0 > by1:
                        continue
                    cx, cy = _clip_to_box(rx, ry, bx0, by0, bx1, by1)
                    if cx.size >= 3:
                        vx.append(cx)
                        vy.append(cy)
                        vert_ptr.append(vert_ptr[-1] + cx.size)
                        count += 1
            ring_ptr[tile + 1] = count
        vx_all = np.concatenate(vx) if vx else np.zeros(0)
        vy_all = np.concatenate(vy) if vy else np.zeros(0)
        max_ring = max((v.size for v in vx), default=4)

        def table(mask):
            out = np.zeros((ny + 1, nx + 1), dtype=np.int64)
            out[1:, 1:] = np.cumsum(np.cumsum(mask, axis=0), axis=1)
            return out

        return cls(
            x0,
            y0,
            tw,
            th,
            nx,
            ny,
            kind.ravel(),
            table(kind == 2),
            table(kind == 1),
            ring_ptr,
            np.asarray(vert_ptr, dtype=np.int64),
            vx_all,
            vy_all,
            int(max_ring),
        )

    def block(self, lo: np.ndarray, hi: np.ndarray):
        """Tile index ranges ``i0..i1, j0..j1`` met by boxes ``[lo, hi]`` (clipped to the grid)."""
        i0 = np.clip(np.floor((lo[:, 0] - self.x0) / self.tw), 0, self.nx - 1).astype(np.int64)
        i1 = np.clip(np.floor((hi[:, 0] - self.x0) / self.tw), 0, self.nx - 1).astype(np.int64)
        j0 = np.clip(np.floor((lo[:, 1] - self.y0) / self.th), 0, self.ny - 1).astype(np.int64)
        j1 = np.clip(np.floor((hi[:, 1] - self.y0) / self.th), 0, self.ny - 1).astype(np.int64)
        return i0, i1, j0, j1

    @staticmethod
    def count(table: np.ndarray, i0, i1, j0, j1) -> np.ndarray:
        """Number of flagged tiles in each block (from a summed-area table)."""
        return table[j1 + 1, i1 + 1] - table[j0, i1 + 1] - table[j1 + 1, i0] + table[j0, i0]


# -- mesh construction ----------------------------------------------------------------------------


def _hex_lattice(xmin: float, ymin: float, xmax: float, ymax: float, spacing: float) -> np.ndarray:
    """Equilateral-triangle lattice points of the given spacing covering a box (centred in it)."""
    dy = spacing * math.sqrt(3.0) / 2.0
    ny = int(math.floor((ymax - ymin) / dy)) + 1
    nx = int(math.floor((xmax - xmin) / spacing)) + 2
    y = ymin + (ymax - ymin - (ny - 1) * dy) / 2.0 + np.arange(ny) * dy
    x = xmin + (xmax - xmin - (nx - 2) * spacing) / 2.0 - 0.25 * spacing + np.arange(nx) * spacing
    xx = x[None, :] + np.where(np.arange(ny) % 2 == 1, 0.5 * spacing, 0.0)[:, None]
    yy = np.broadcast_to(y[:, None], xx.shape)
    pts = np.column_stack([xx.ravel(), yy.ravel()])
    return pts[(pts[:, 0] >= xmin) & (pts[:, 0] <= xmax)]


@njit(cache=True)
def _greedy_drop(n, first, second):
    """Drop ``second[k]`` whenever ``first[k]`` is kept, visiting pairs by increasing ``first``."""
    dropped = np.zeros(n, dtype=np.bool_)
    for k in range(first.shape[0]):
        if not dropped[first[k]]:
            dropped[second[k]] = True
    return dropped


def _drop_close(points: np.ndarray, radius: float) -> np.ndarray:
    """Keep a point unless it is within ``radius`` of an earlier kept point (input order is priority)."""
    if points.shape[0] < 2:
        return points
    pairs = cKDTree(points).query_pairs(radius, output_type="ndarray")
    if pairs.size == 0:
        return points
    pairs = np.sort(pairs, axis=1)
    pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]
    return points[~_greedy_drop(points.shape[0], pairs[:, 0].copy(), pairs[:, 1].copy())]


def _box_margin(points: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Distance from points inside a box to the box's nearest edge (negative outside)."""
    x, y = points[:, 0], points[:, 1]
    return np.minimum(np.minimum(x - box[0], y - box[1]), np.minimum(box[2] - x, box[3] - y))


def _apex_layer(window: Window, h: float) -> np.ndarray:
    """One row of points at height ``sqrt(3)/2 h`` inside each boundary piece of length >= h / 2.

    With the boundary points they form near-equilateral triangles along the boundary. Points
    within h / 2 of the boundary (near corners) are dropped, and so are points closer than
    0.6 h to an earlier one.
    """
    rows = []
    for ring in window.rings:  # interior on the left of every ring (exteriors CCW, holes CW)
        b = Window((ring,)).boundary_points(h)
        d = np.roll(b, -1, axis=0) - b
        length = np.hypot(d[:, 0], d[:, 1])
        use = length >= 0.5 * h
        normal = np.column_stack([-d[use, 1], d[use, 0]]) / length[use, None]
        rows.append(b[use] + 0.5 * d[use] + (math.sqrt(3.0) / 2.0) * h * normal)
    apex = np.concatenate(rows)
    apex = apex[window.contains(apex[:, 0], apex[:, 1])]
    apex = apex[window.distance_to_boundary(apex[:, 0], apex[:, 1], upper_bound=h) > 0.5 * h]
    return _drop_close(apex, 0.6 * h)


def _circumcircles(points: np.ndarray, simplices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Circumcentres ``(m, 2)`` and circumradii ``(m,)`` of triangles."""
    p = points[simplices]
    a = p[:, 1] - p[:, 0]
    b = p[:, 2] - p[:, 0]
    d = 2.0 * (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
    a2 = np.sum(a * a, axis=1)
    b2 = np.sum(b * b, axis=1)
    ux = (b[:, 1] * a2 - a[:, 1] * b2) / d
    uy = (a[:, 0] * b2 - b[:, 0] * a2) / d
    return p[:, 0] + np.column_stack([ux, uy]), np.hypot(ux, uy)


def _neighbour_mean(points: np.ndarray, simplices: np.ndarray) -> np.ndarray:
    """Mean position of each point's neighbours in a triangulation."""
    n = points.shape[0]
    pairs = simplices[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2).astype(np.int64)
    key = np.unique(np.minimum(pairs[:, 0], pairs[:, 1]) * np.int64(n) + np.maximum(pairs[:, 0], pairs[:, 1]))
    i, j = np.divmod(key, np.int64(n))
    degree = np.maximum(np.bincount(i, minlength=n) + np.bincount(j, minlength=n), 1)
    out = np.empty_like(points)
    for axis in (0, 1):
        total = np.bincount(i, weights=points[j, axis], minlength=n) + np.bincount(
            j, weights=points[i, axis], minlength=n
        )
        out[:, axis] = total / degree
    return out


def _in_window_points(window: Window, h: float) -> np.ndarray:
    """Steps 1-2 of :func:`triangulate`: the apex row and the hexagonal lattice filling the window."""
    xmin, ymin, xmax, ymax = window.bounds
    apex = _apex_layer(window, h)
    pts = _hex_lattice(xmin, ymin, xmax, ymax, h)
    pts = pts[window.contains(pts[:, 0], pts[:, 1])]
    pts = pts[window.distance_to_boundary(pts[:, 0], pts[:, 1], upper_bound=h) > 0.5 * h]
    if apex.shape[0] and pts.shape[0]:
        gap, _ = cKDTree(apex).query(pts, k=1, distance_upper_bound=0.75 * h)
        pts = pts[~(gap <= 0.75 * h)]
    return np.concatenate([apex, pts])


def _improve_near_boundary(window, h, big_h, box, fixed, inner, outer, centre):
    """Step 4 of :func:`triangulate`: refine, then smooth, the points within a few spacings of the boundary.

    Only the points within ``_REACH`` spacings of the boundary are triangulated here (the lattice
    beyond is regular already); those within 3 spacings may move, and triangles made of them only
    may be refined.
    """
    d_in = window.distance_to_boundary(inner[:, 0], inner[:, 1], upper_bound=_REACH * h)
    d_out = window.distance_to_boundary(outer[:, 0], outer[:, 1], upper_bound=_REACH * big_h)
    near_in, near_out = np.isfinite(d_in), np.isfinite(d_out)
    band_in, band_out = inner[near_in], outer[near_out]
    free_in, free_out = d_in[near_in] < 3.0 * h, d_out[near_out] < 3.0 * big_h
    n_fixed = fixed.shape[0]
    # Delaunay refinement (Chew 1989; Shewchuk 2002): insert the circumcentre of every triangle in the
    # window whose circumradius exceeds 0.75 h (an equilateral triangle of side h has h / sqrt(3)),
    # unless it falls within h / 2 of the boundary (which keeps every boundary piece a mesh edge).
    for _ in range(_REFINE_ROUNDS):
        points = np.concatenate([fixed, band_in, band_out])
        simplices = Delaunay(points - centre).simplices
        movable = np.concatenate([np.ones(n_fixed, dtype=bool), free_in, np.zeros(band_out.shape[0], dtype=bool)])
        ccentre, radius = _circumcircles(points, simplices)
        big = (radius > _REFINE_RADIUS * h) & movable[simplices].all(axis=1)
        cent = points[simplices[big]].mean(axis=1)
        ccentre, radius = ccentre[big], radius[big]
        keep = window.contains(cent[:, 0], cent[:, 1]) & window.contains(ccentre[:, 0], ccentre[:, 1])
        ccentre, radius = ccentre[keep], radius[keep]
        keep = window.distance_to_boundary(ccentre[:, 0], ccentre[:, 1], upper_bound=h) > 0.5 * h
        ccentre = ccentre[keep][np.argsort(-radius[keep], kind="stable")]  # largest circles first
        if ccentre.shape[0] == 0:
            break
        ccentre = _drop_close(ccentre, 0.5 * h)
        band_in = np.concatenate([band_in, ccentre])
        free_in = np.concatenate([free_in, np.ones(ccentre.shape[0], dtype=bool)])
    # constrained Laplacian smoothing: a point moves to the mean of its neighbours if it stays on
    # its side of the boundary at its distance (> h / 2 inside, > h outside) and inside the box
    for _ in range(_SMOOTHING_STEPS):
        points = np.concatenate([fixed, band_in, band_out])
        mean = _neighbour_mean(points, Delaunay(points - centre).simplices)
        moved = mean[n_fixed : n_fixed + band_in.shape[0]][free_in]
        ok = window.contains(moved[:, 0], moved[:, 1])
        ok &= window.distance_to_boundary(moved[:, 0], moved[:, 1], upper_bound=h) > 0.5 * h
        band_in = band_in.copy()
        band_in[np.flatnonzero(free_in)[ok]] = moved[ok]
        if band_out.shape[0]:
            moved = mean[n_fixed + band_in.shape[0] :][free_out]
            ok = ~window.contains(moved[:, 0], moved[:, 1])
            ok &= window.distance_to_boundary(moved[:, 0], moved[:, 1], upper_bound=2 * h) > h
            ok &= _box_margin(moved, box) > 0.25 * big_h
            band_out = band_out.copy()
            band_out[np.flatnonzero(free_out)[ok]] = moved[ok]
    outer = outer.copy()
    outer[near_out] = band_out
    return np.concatenate([inner[~near_in], band_in]), outer


def estimate_nodes(window: Window, max_edge: float, extension: float | None = None, outer: float | None = None):
    """About how many nodes :func:`triangulate` makes (its lattices and boundary points, before refinement), from
    the window's area and perimeter alone: for refusing a mesh that is too fine before it is built."""
    h = float(max_edge)
    xmin, ymin, xmax, ymax = window.bounds
    width, height = xmax - xmin, ymax - ymin
    ext = 0.2 * max(width, height) if extension is None else float(extension)
    big_h = 3.0 * h if outer is None else float(outer)
    cell = math.sqrt(3.0) / 2.0  # area per point of a hexagonal lattice of spacing 1
    return (
        window.area / (cell * h * h)
        + window.perimeter / h
        + (width + 2 * ext) * (height + 2 * ext) / (cell * big_h * big_h)
        + 2 * (width + height + 4 * ext) / big_h
    )


def triangulate(
    window: Window, max_edge: float, extension: float | None = None, outer_max_edge: float | None = None
) -> Mesh:
    """A good-quality Delaunay mesh of the window with an outer extension band (as R-INLA's ``inla.mesh.2d``).

    Construction (distances in coordinate units; ``h = max_edge``, ``H = outer_max_edge``):

    1. the boundary: every ring vertex plus points so consecutive points are ``<= h`` apart
       (:meth:`Window.boundary_points`); these points never move;
    2. inside the window: a row of points at height ``sqrt(3)/2 h`` over the boundary pieces, then
       an equilateral (hexagonal) lattice of spacing ``h``, keeping points more than ``h / 2`` from
       the boundary and ``0.75 h`` from that row;
    3. outside: a hexagonal lattice of spacing ``H`` in the band between the window and its
       bounding box enlarged by ``extension`` (points more than ``max(h, H / 2)`` from the window,
       more than ``H / 2`` inside the box; holes and gaps between polygons get them too), and
       points ``<= H`` apart along the box's edges;
    4. near the boundary: Delaunay refinement (circumcentres of the window's triangles with
       circumradius above ``0.75 h``) and three steps of constrained Laplacian smoothing;
    5. the Delaunay triangulation (scipy.spatial / Qhull) of all points.

    Every point of the window lies in the mesh: the window's vertices are nodes, so the mesh holds
    their convex hull. No node other than the boundary points comes within ``h / 2`` of the
    boundary while boundary pieces are ``<= h`` long, so every piece's diametral circle is empty:
    it is a mesh edge (a Gabriel edge), and the triangles follow the boundary wherever the window
    has no corner sharper than 90 degrees. Triangles in the window then have edges of at most
    about ``1.4 h`` and angles of at least about 30 degrees (the tests check 1.5 h and 20
    degrees); corners sharper than that, and rings whose vertices are closer than ``h``, give
    smaller angles there. The outer band, which keeps the SPDE's boundary effects away from the
    window (Lindgren et al. 2011, Section 2.3: they reach about one range), is coarser. An
    extension below ``h / 2`` gives no band.

    Args:
        window: the study region.
        max_edge: target edge length ``h`` inside the window (> 0).
        extension: width of the outer band (>= 0); default ``0.2 * max(width, height)`` of the window.
        outer_max_edge: spacing ``H`` in the band (>= max_edge); default ``3 * max_edge``.

    Raises:
        ParameterError("max_edge"): max_edge <= 0, or a mesh of more than 2,000,000 nodes.
    """
    h = float(max_edge)
    if not (math.isfinite(h) and h > 0):
        raise ParameterError("max_edge", f"max_edge must be a finite number > 0, got {max_edge!r}")
    xmin, ymin, xmax, ymax = window.bounds
    width, height = xmax - xmin, ymax - ymin
    ext = 0.2 * max(width, height) if extension is None else float(extension)
    if not (math.isfinite(ext) and ext >= 0):
        raise ParameterError("extension", f"extension must be a finite number >= 0, got {extension!r}")
    big_h = 3.0 * h if outer_max_edge is None else float(outer_max_edge)
    if not (math.isfinite(big_h) and big_h >= h):
        raise ParameterError("outer_max_edge", f"outer_max_edge must be finite and >= max_edge, got {outer_max_edge!r}")
    box = (xmin - ext, ymin - ext, xmax + ext, ymax + ext)
    cell = math.sqrt(3.0) / 2.0  # area per point of a hexagonal lattice of spacing 1
    estimate = estimate_nodes(window, h, ext, big_h)
    if estimate > MAX_NODES or width * height / (cell * h * h) > 5 * MAX_NODES:
        raise ParameterError(
            "max_edge",
            f"max_edge {h:g} would give a mesh of about {estimate:,.0f} nodes (at most {MAX_NODES:,}); "
            "use a larger max_edge",
        )
    scale = max(abs(v) for v in box) + max(width, height)
    fixed = [window.boundary_points(h)]  # 1.
    inner = _in_window_points(window, h)  # 2.
    outer = np.zeros((0, 2))
    if ext > 0.5 * h:  # 3.
        outer = _hex_lattice(*box, big_h)
        outer = outer[_box_margin(outer, box) > 0.5 * big_h]
        outer = outer[~window.contains(outer[:, 0], outer[:, 1])]
        gap = max(h, 0.5 * big_h)
        outer = outer[window.distance_to_boundary(outer[:, 0], outer[:, 1], upper_bound=gap) > gap]
        edge = Window.rectangle(*box).boundary_points(big_h)
        edge = edge[~window.contains(edge[:, 0], edge[:, 1])]
        fixed.append(edge[window.distance_to_boundary(edge[:, 0], edge[:, 1], upper_bound=h) > 0.5 * h])
    fixed_pts = _drop_close(np.concatenate(fixed), 1e-9 * scale)  # shared vertices of touching rings
    centre = np.array([(xmin + xmax) / 2.0, (ymin + ymax) / 2.0])  # Qhull works in centred coordinates
    inner, outer = _improve_near_boundary(window, h, big_h, box, fixed_pts, inner, outer, centre)  # 4.
    points = np.concatenate([fixed_pts, inner, outer])
    simplices = Delaunay(points - centre).simplices.astype(np.int64)  # 5.
    e = points[simplices[:, [1, 2, 0]]] - points[simplices]
    flat = ~(np.abs(_doubled_areas(points, simplices)) > 1e-12 * np.max(np.sum(e * e, axis=2), axis=1))
    simplices = simplices[~flat]  # Qhull may return flat triangles on collinear hull points
    used = np.zeros(points.shape[0], dtype=bool)
    used[simplices.ravel()] = True  # and may leave (near-)duplicate points out
    renumber = np.cumsum(used) - 1
    return Mesh(points[used], renumber[simplices])


def lattice(xmin: float, ymin: float, xmax: float, ymax: float, nx: int, ny: int) -> Mesh:
    """The regular right-triangle lattice of Kim & Lim (Section 3.3.1, Figure 1).

    The rectangle ``[xmin, xmax] x [ymin, ymax]`` is cut into ``nx x ny`` equal cells (so there are
    ``nx + 1`` knots per row; Kim & Lim count knots, ``n_x = nx + 1``), and each cell into two
    triangles by its diagonal from lower-left to upper-right: ``(nx + 1) (ny + 1)`` nodes and
    ``2 nx ny`` triangles. Node ``(i, j)`` (column i, row j) has index ``j * (nx + 1) + i``.
    """
    values = [float(v) for v in (xmin, ymin, xmax, ymax)]
    if not all(math.isfinite(v) for v in values) or not (values[2] > values[0] and values[3] > values[1]):
        raise ParameterError("window", f"need finite xmin < xmax and ymin < ymax, got {values}")
    for name, value in (("nx", nx), ("ny", ny)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise ParameterError(name, f"{name} must be an integer >= 1, got {value!r}")
    nx, ny = int(nx), int(ny)
    if (nx + 1) * (ny + 1) > MAX_NODES:
        raise ParameterError("nx", f"a lattice of {(nx + 1) * (ny + 1):,} nodes is too large (at most {MAX_NODES:,})")
    xs = np.linspace(values[0], values[2], nx + 1)
    ys = np.linspace(values[1], values[3], ny + 1)
    gx, gy = np.meshgrid(xs, ys)
    nodes = np.column_stack([gx.ravel(), gy.ravel()])
    j, i = np.divmod(np.arange(nx * ny), nx)
    a = j * (nx + 1) + i  # lower-left corner of each cell
    b, c, d = a + 1, a + nx + 2, a + nx + 1
    triangles = np.concatenate([np.column_stack([a, b, c]), np.column_stack([a, c, d])])
    return Mesh(nodes, triangles)
