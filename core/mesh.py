"""Triangular meshes carrying the piecewise-linear basis of SPDE Gaussian fields.

A :class:`Mesh` carries the piecewise-linear ("hat") basis functions ``phi_j`` of Lindgren, Rue &
Lindström (2011), Walder et al. eq. (28): ``phi_j`` is 1 at node ``j``, 0 at every other node and
linear on each triangle. This module locates points in the mesh and computes the projection
``A_ij = phi_j(s_i)`` of points onto the nodes (Walder App. A.2, ``P``). The finite-element matrices
and the likelihood's integration weights are computed in :mod:`.fem` (also reachable as methods of a
:class:`Mesh`); meshes are built by :mod:`.triangulation`. Lengths are in coordinate units, areas in
squared units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from . import fem
from .errors import ParameterError
from .window import Window

#: A point is in a triangle when all its barycentric coordinates are >= -LOCATE_TOL.
LOCATE_TOL = 1e-10
#: (point, candidate triangle) pairs tested at once by :meth:`Mesh.locate`.
_PAIR_CHUNK = 1 << 21


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
        doubled = doubled_areas(nodes, tri)
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
        out = 0.5 * doubled_areas(self.nodes, self.triangles)
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

    # -- finite elements (core.fem) ---------------------------------------------------------------

    def fem_matrices(self) -> tuple[np.ndarray, sp.csr_matrix]:
        """Lumped mass diagonal ``c`` and stiffness matrix ``G``: :func:`.fem.fem_matrices` of this mesh."""
        return fem.fem_matrices(self)

    def integration_weights(self, window: Window) -> np.ndarray:
        """Integration weights ``alpha_i = int over (W ∩ mesh) of phi_i(s) ds``: :func:`.fem.integration_weights`."""
        return fem.integration_weights(self, window)

    def clipped_moments(self, window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Area and first moments of each triangle's part in the window: :func:`.fem.clipped_moments`."""
        return fem.clipped_moments(self, window)


def doubled_areas(nodes: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Twice the signed area of each triangle (positive when counter-clockwise)."""
    p0, p1, p2 = nodes[tri[:, 0]], nodes[tri[:, 1]], nodes[tri[:, 2]]
    return (p1[:, 0] - p0[:, 0]) * (p2[:, 1] - p0[:, 1]) - (p1[:, 1] - p0[:, 1]) * (p2[:, 0] - p0[:, 0])
