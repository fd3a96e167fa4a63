"""Exact area and first moments of triangles intersected with a polygonal window.

Each ring of the window is clipped against the (convex) triangle with Sutherland-Hodgman; clipping a
closed curve against a half-plane keeps its winding number inside the half-plane, so the signed areas
keep holes negative. To keep the work local for windows with many vertices, the window is first cut
into rectangular tiles (:class:`_WindowTiles`). These moments give the exact integration weights of
:mod:`.fem`. Lengths are in coordinate units, areas in squared units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import ParameterError
from .jit import njit
from .window import Window


def triangle_window_moments(
    corner: np.ndarray, areas: np.ndarray, window: Window
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(area, mx, my)`` of ``W ∩ T`` per triangle, moments about the triangle's corner 0.

    The triangles are given by their corners ``corner`` (``(m, 3, 2)``, counter-clockwise) and their
    areas ``areas`` (``(m,)``). ``area`` is ``|W ∩ T|`` (squared units), ``mx`` and ``my`` are
    ``int (x - x0) ds`` and ``int (y - y0) ds`` over ``W ∩ T`` with ``(x0, y0)`` the corner 0.

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
    m = corner.shape[0]
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
    moments[whole, 0] = areas[whole]
    moments[whole, 1:] = areas[whole, None] * (corner[whole, 1] + corner[whole, 2] - 2 * corner[whole, 0]) / 3
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
