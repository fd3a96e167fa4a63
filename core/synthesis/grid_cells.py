"""Grid cells of a polygon window: the cells ``S_i`` of a piecewise constant intensity (Kim & Lim 2025,
"Differentially private synthesis of spatial point processes", eq. 12).

:func:`grid_partition` cuts the window's bounding box into grid cells, clips them to the window exactly (area of
cell ∩ window by Green's theorem along the ring edges and the grid lines), drops cells with no area and merges
slivers along the boundary into a neighbour. The result, a :class:`CellPartition`, locates points in the cells,
counts them, and samples a Poisson process with a piecewise constant intensity on the cells.

Units: coordinates and cell sizes in the window's coordinate units, areas in squared units, intensities in
points per squared unit.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from ..window import Window
from .point_arrays import ROUND_DRAWS, as_xy, expand

#: Most base cells a grid partition may have (dense index arrays).
MAX_GRID_CELLS = 4_000_000


@dataclass(frozen=True, eq=False)
class CellPartition:
    """Cells ``S_i`` of a domain for a piecewise constant intensity (Kim & Lim eq. 12).

    Base cells are the grid cells of the window's bounding box clipped to the window; cells with no area
    are dropped, and cells smaller than ``min_cell_fraction`` of a full cell (slivers along the boundary)
    are merged into a neighbouring cell. The merged cells are the *regions* the synthesizer works with.

    Attributes:
        window: the window.
        x_lines, y_lines: the grid lines, ``nx + 1`` and ``ny + 1`` increasing coordinates.
        ix, iy: column and row of each kept base cell.
        cell_area: clipped area of each kept base cell (squared units).
        region: the region of each kept base cell.
        region_measure: area of each region, ``|S_i|`` (a network partition gives lengths here).
        nominal_cell_area: area of a full grid cell.
        merged: number of base cells merged into a neighbour.
        notes: human-readable remarks (merged slivers, small regions left alone).
    """

    window: Window
    x_lines: np.ndarray
    y_lines: np.ndarray
    ix: np.ndarray
    iy: np.ndarray
    cell_area: np.ndarray
    region: np.ndarray
    region_measure: np.ndarray
    nominal_cell_area: float
    merged: int
    notes: tuple[str, ...] = field(default=())

    @property
    def nx(self) -> int:
        return self.x_lines.size - 1

    @property
    def ny(self) -> int:
        return self.y_lines.size - 1

    @property
    def n_regions(self) -> int:
        return int(self.region_measure.size)

    @cached_property
    def _lookup(self) -> np.ndarray:
        table = np.full((self.nx, self.ny), -1, dtype=np.int64)
        table[self.ix, self.iy] = np.arange(self.ix.size)
        return table

    def locate(self, x, y) -> np.ndarray:
        """Region of each point (``-1`` for a point in no kept cell, e.g. outside the window).

        A point on a grid line belongs to the cell above / to the right; if that cell was dropped (no
        area: the point is on the window's boundary), to the nearest kept cell of the 3 x 3 block around it.
        """
        x, y = as_xy(x, y)
        nx, ny = self.nx, self.ny
        cx = np.clip(np.searchsorted(self.x_lines, x, side="right") - 1, 0, nx - 1)
        cy = np.clip(np.searchsorted(self.y_lines, y, side="right") - 1, 0, ny - 1)
        inside_box = (x >= self.x_lines[0]) & (x <= self.x_lines[-1]) & (y >= self.y_lines[0]) & (y <= self.y_lines[-1])
        cell = np.where(inside_box, self._lookup[cx, cy], -1)
        missing = np.flatnonzero(inside_box & (cell < 0))
        for p in missing:  # rare: points on the boundary next to a dropped cell
            best, best_d = -1, np.inf
            for ox in (-1, 0, 1):
                for oy in (-1, 0, 1):
                    jx, jy = cx[p] + ox, cy[p] + oy
                    if 0 <= jx < nx and 0 <= jy < ny and self._lookup[jx, jy] >= 0:
                        dx = max(self.x_lines[jx] - x[p], 0.0, x[p] - self.x_lines[jx + 1])
                        dy = max(self.y_lines[jy] - y[p], 0.0, y[p] - self.y_lines[jy + 1])
                        d = math.hypot(dx, dy)
                        if d < best_d:
                            best, best_d = int(self._lookup[jx, jy]), d
            cell[p] = best
        return np.where(cell >= 0, self.region[np.maximum(cell, 0)], -1)

    def region_counts(self, x, y) -> np.ndarray:
        """Number of points in each region (confidential when the points are).

        Raises:
            ParameterError("points"): non-finite coordinates, or points outside the window.
        """
        x, y = as_xy(x, y)
        outside = ~self.window.contains(x, y)
        if np.any(outside):
            raise ParameterError("points", f"{int(outside.sum())} point(s) lie outside the window; clip them first")
        r = self.locate(x, y)
        if np.any(r < 0):  # pragma: no cover - a point of the window always has a kept cell next to it
            raise ParameterError("points", f"{int(np.sum(r < 0))} point(s) lie outside the window's cells")
        return np.bincount(r, minlength=self.n_regions).astype(np.int64)

    def sample(self, rng: np.random.Generator, intensity: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A Poisson process with intensity ``intensity[i]`` (points per squared unit) on region ``i``.

        For each kept base cell of region ``i``: a Poisson process of intensity ``intensity[i]`` on the
        cell's whole rectangle (``Poisson(intensity[i] * width * height)`` uniform points), restricted to
        the window. Restricting a Poisson process to a subset is again a Poisson process with the same
        intensity, so this is exact, needs no redraws, and does not depend on the computed clipped areas.
        Counts and positions come from :mod:`..mechanisms`.

        Returns:
            ``(x, y)`` of the points, sorted by x then y (the order carries no information).
        """
        intensity = np.asarray(intensity, dtype=np.float64)
        if intensity.shape != (self.n_regions,) or not np.all(np.isfinite(intensity)) or np.any(intensity < 0):
            raise ParameterError("intensity", "the intensity must be one finite value >= 0 per region")
        x0, x1 = self.x_lines[self.ix], self.x_lines[self.ix + 1]
        y0, y1 = self.y_lines[self.iy], self.y_lines[self.iy + 1]
        rect = (x1 - x0) * (y1 - y0)
        full = self.cell_area >= rect * (1 - 1e-12)
        counts = mechanisms.poisson_counts(rng, intensity[self.region] * rect)
        xs, ys = [], []
        cells = np.flatnonzero(counts)
        budget = np.cumsum(counts[cells])
        start = 0
        while start < cells.size:
            base = budget[start - 1] if start else 0
            stop = max(start + 1, int(np.searchsorted(budget, base + ROUND_DRAWS, side="right")))
            block = cells[start:stop]
            c, _ = expand(counts[block], np.zeros_like(block))
            c = block[c]
            u = mechanisms.uniforms(rng, (c.size, 2))
            px = x0[c] + u[:, 0] * (x1 - x0)[c]
            py = y0[c] + u[:, 1] * (y1 - y0)[c]
            check = ~full[c]
            ok = np.ones(c.size, dtype=bool)
            if np.any(check):
                ok[check] = self.window.contains(px[check], py[check])
            xs.append(px[ok])
            ys.append(py[ok])
            start = stop
        x = np.concatenate(xs) if xs else np.empty(0)
        y = np.concatenate(ys) if ys else np.empty(0)
        order = np.lexsort((y, x))
        return x[order], y[order]


def grid_partition(
    window: Window,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    cell_size: float | None = None,
    shape: tuple[int, int] | None = None,
    origin: tuple[float, float] | None = None,
    min_cell_fraction: float = 0.25,
) -> CellPartition:
    """Square (or ``nx x ny``) grid cells clipped to the window, slivers merged: the cells ``S_i`` of eq. 12.

    Give either ``cell_size`` (square cells of that side; the grid starts at ``origin`` snapped down to
    the window's lower-left corner, by default the corner itself, and the last column and row are
    clipped by the window) or ``shape = (nx, ny)`` (the bounding box cut into ``nx`` columns and ``ny``
    rows; the paper's ``11 x 11`` knots are ``shape=(10, 10)``).

    Cells are clipped exactly (area of cell ∩ window by Green's theorem along the ring edges and the grid
    lines). Cells with no area are dropped. A clipped cell smaller than ``min_cell_fraction`` of a full
    cell would make the Laplace synthesizer's sensitivity ``1/|S_p| + 1/|S_q|`` huge (a cell of 1% of a
    full cell multiplies the noise by up to ~50), so it is merged into the nearest cell that is not small
    (an edge neighbour first, then a diagonal one, then the nearest within 3 cells; ties to the larger
    cell); one that has no such neighbour stays on its own and a note says so. ``min_cell_fraction = 0``
    keeps every clipped cell as it is (the paper's construction).

    Args:
        window: the window; edges: its ring edges ``(ax, ay, bx, by)``, each ring closed (``b`` of the last
            edge of a ring is ``a`` of its first).

    Raises:
        ParameterError("cell_size" / "shape" / "min_cell_fraction"): bad values or too many cells.
    """
    xmin, ymin, xmax, ymax = window.bounds
    if (cell_size is None) == (shape is None):
        raise ParameterError("cell_size", "give either a cell size or a grid shape (nx, ny), not both")
    if not (isinstance(min_cell_fraction, (int, float)) and 0 <= min_cell_fraction < 1):
        raise ParameterError("min_cell_fraction", f"min_cell_fraction must be in [0, 1), got {min_cell_fraction!r}")
    if cell_size is not None:
        r = float(cell_size)
        if not (math.isfinite(r) and r > 0):
            raise ParameterError("cell_size", f"cell_size must be a finite number > 0, got {cell_size!r}")
        ox, oy = (xmin, ymin) if origin is None else (float(origin[0]), float(origin[1]))
        if not (math.isfinite(ox) and math.isfinite(oy)):
            raise ParameterError("origin", "the grid origin must be finite")
        x0 = ox + math.floor((xmin - ox) / r + 1e-9) * r
        y0 = oy + math.floor((ymin - oy) / r + 1e-9) * r
        x0, y0 = min(x0, xmin), min(y0, ymin)
        nx = max(1, math.ceil((xmax - x0) / r - 1e-9))
        ny = max(1, math.ceil((ymax - y0) / r - 1e-9))
        if nx * ny > MAX_GRID_CELLS:
            raise ParameterError("cell_size", f"cell_size {r!r} gives {nx * ny} cells; use a larger cell size")
        x_lines = x0 + r * np.arange(nx + 1)
        y_lines = y0 + r * np.arange(ny + 1)
        x_lines[-1] = max(x_lines[-1], xmax)
        y_lines[-1] = max(y_lines[-1], ymax)
        nominal = r * r
    else:
        try:
            nx, ny = (int(v) for v in shape)
        except (TypeError, ValueError) as exc:
            raise ParameterError("shape", "shape must be a pair of integers (nx, ny)") from exc
        if nx < 1 or ny < 1 or nx * ny > MAX_GRID_CELLS:
            raise ParameterError("shape", f"shape must be two integers >= 1 with at most {MAX_GRID_CELLS} cells")
        x_lines = np.linspace(xmin, xmax, nx + 1)
        y_lines = np.linspace(ymin, ymax, ny + 1)
        nominal = (xmax - xmin) / nx * (ymax - ymin) / ny
    area = _clipped_cell_areas(edges, x_lines, y_lines)
    keep = area > 1e-9 * min(nominal, window.area)  # a cell larger than the whole window is no sliver
    if not keep.any():
        raise ParameterError("cell_size", "no cell overlaps the window by more than a sliver; use smaller cells")
    ix, iy = np.nonzero(keep)
    cell_area = area[ix, iy]
    region, merged, notes = _merge_slivers(ix, iy, cell_area, min_cell_fraction * nominal, area.shape)
    n_regions = int(region.max()) + 1
    region_measure = np.bincount(region, weights=cell_area, minlength=n_regions)
    return CellPartition(
        window, x_lines, y_lines, ix, iy, cell_area, region, region_measure, float(nominal), merged, notes
    )


def _clipped_cell_areas(edges, x_lines: np.ndarray, y_lines: np.ndarray) -> np.ndarray:
    """Area of (cell ∩ window) for every cell of the grid given by its lines, shape ``(nx, ny)``; exact.

    Green's theorem per cell: ``|C ∩ W| = ∮ (x - X_i) dy`` around ``∂(C ∩ W)``, which is made of the pieces of
    the window's edges inside ``C`` and of the parts of ``∂C`` inside ``W``. With the local coordinate ``x - X_i``
    the left side of the cell adds nothing, horizontal pieces add nothing, and the right side adds its width
    times the length of the line ``x = X_{i+1}`` inside the window. Grid lines are taken as shifted by an
    infinitesimal amount right/up, which settles window edges lying on a grid line (an edge on ``x = X_i``
    belongs to the cell on its left, and a line meets an edge when ``min x <= X < max x``).
    """
    ax, ay, bx, by = edges
    nx, ny = x_lines.size - 1, y_lines.size - 1
    n_edges = ax.size
    ts, es = [np.zeros(n_edges), np.ones(n_edges)], [np.arange(n_edges), np.arange(n_edges)]
    for p0, p1, lines in ((ax, bx, x_lines[1:-1]), (ay, by, y_lines[1:-1])):
        lo, hi = np.minimum(p0, p1), np.maximum(p0, p1)
        first = np.searchsorted(lines, lo, side="left")
        count = np.searchsorted(lines, hi, side="right") - first
        count = np.where(p0 == p1, 0, np.maximum(count, 0))
        edge, pos = expand(count, first)
        ts.append(np.clip((lines[pos] - p0[edge]) / (p1[edge] - p0[edge]), 0.0, 1.0))
        es.append(edge)
    t, e = np.concatenate(ts), np.concatenate(es)
    order = np.lexsort((t, e))
    t, e = t[order], e[order]
    same = e[1:] == e[:-1]
    t0, t1, ee = t[:-1][same], t[1:][same], e[:-1][same]
    dx, dy = (bx - ax)[ee], (by - ay)[ee]
    xs, xe = ax[ee] + t0 * dx, ax[ee] + t1 * dx
    ys, ye = ay[ee] + t0 * dy, ay[ee] + t1 * dy
    mx, my = 0.5 * (xs + xe), 0.5 * (ys + ye)
    ix = np.clip(np.searchsorted(x_lines, mx, side="left") - 1, 0, nx - 1)
    iy = np.clip(np.searchsorted(y_lines, my, side="left") - 1, 0, ny - 1)
    area = np.bincount(ix * ny + iy, weights=(mx - x_lines[ix]) * (ye - ys), minlength=nx * ny).reshape(nx, ny)

    # right sides: length of each interior vertical line x = X_i (i = 1..nx-1) inside the window, per row
    if nx > 1:
        lines = x_lines[1:-1]
        lo, hi = np.minimum(ax, bx), np.maximum(ax, bx)
        first = np.searchsorted(lines, lo, side="left")
        count = np.maximum(np.searchsorted(lines, hi, side="left") - first, 0)
        edge, li = expand(count, first)
        yc = ay[edge] + (lines[li] - ax[edge]) * (by - ay)[edge] / (bx - ax)[edge]
        order = np.lexsort((yc, li))
        li, yc = li[order], yc[order]
        group_first = np.searchsorted(li, li, side="left")
        even = (np.arange(li.size) - group_first) % 2 == 0
        s, f, line = yc[even], yc[~even], li[even]
        # cumulative inside length below each y line: G[i, m] = sum over intervals of clip(Y_m - s, 0, f - s)
        cum = np.zeros((nx - 1, ny + 2))
        m_end = np.searchsorted(y_lines, f, side="left")  # first Y_m >= f
        np.add.at(cum, (line, m_end), f - s)
        cum = np.cumsum(cum, axis=1)[:, : ny + 1]
        m_start = np.searchsorted(y_lines, s, side="right")  # first Y_m > s
        n_mid = np.maximum(m_end - m_start, 0)
        which, m = expand(n_mid, m_start)
        np.add.at(cum, (line[which], m), y_lines[m] - s[which])
        length = np.diff(cum, axis=1)
        area[:-1, :] += (x_lines[1:-1] - x_lines[:-2])[:, None] * length
    return area


def _merge_slivers(ix, iy, cell_area, threshold, shape) -> tuple[np.ndarray, int, tuple[str, ...]]:
    """Region of each kept cell after merging cells below ``threshold`` into the nearest larger neighbour."""
    n = ix.size
    region = np.arange(n)
    small = cell_area < threshold
    notes: list[str] = []
    if threshold <= 0 or not np.any(small):
        return region, 0, ()
    if np.all(small):
        notes.append("every cell is smaller than min_cell_fraction of a full cell; nothing was merged")
        return region, 0, tuple(notes)
    lookup = np.full(shape, -1, dtype=np.int64)
    lookup[ix, iy] = np.arange(n)
    target = np.full(n, -1, dtype=np.int64)
    offsets = [(1, [(-1, 0), (1, 0), (0, -1), (0, 1)]), (1, [(-1, -1), (-1, 1), (1, -1), (1, 1)])]
    for radius in (2, 3):
        offsets.append((radius, [(a, b) for a in range(-radius, radius + 1) for b in range(-radius, radius + 1)]))
    alone = 0
    for c in np.flatnonzero(small):
        for _, ring in offsets:
            best, best_area = -1, -1.0
            for ox, oy in ring:
                jx, jy = ix[c] + ox, iy[c] + oy
                if 0 <= jx < shape[0] and 0 <= jy < shape[1]:
                    j = lookup[jx, jy]
                    if j >= 0 and not small[j] and cell_area[j] > best_area:
                        best, best_area = int(j), float(cell_area[j])
            if best >= 0:
                target[c] = best
                break
        if target[c] < 0:
            alone += 1
    merged_cells = target >= 0
    region[merged_cells] = target[merged_cells]
    _, region = np.unique(region, return_inverse=True)
    merged = int(merged_cells.sum())
    if merged:
        notes.append(f"{merged} boundary cell(s) smaller than the minimum fraction were merged into a neighbour")
    if alone:
        notes.append(f"{alone} small cell(s) have no larger cell within 3 cells and stay on their own")
        warnings.warn(notes[-1], stacklevel=4)  # the caller of PlanarDomain.grid_partition
    return region.astype(np.int64), merged, tuple(notes)
