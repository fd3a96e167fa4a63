"""The study domain of a point synthesizer: everything a synthesizer needs to know about where points live.

Kim & Lim's synthesizers (``../shared/papers/kim-lim_dp-point-synthesizers.md``) are written for a compact
domain ``S`` with a distance ``d``. A synthesizer here talks to its domain only through the methods of
:class:`PlanarDomain`, so a linear-network domain can later implement the same methods (lengths instead of
areas, shortest-path distance, network cells) without touching the synthesizers:

* ``measure``, ``diameter`` (``B`` of Theorems 3.6 and 3.10), ``contains``, ``check_points``;
* ``grid_partition`` -> a :class:`CellPartition` (cells ``S_i`` with their measures ``|S_i|``, point location,
  and sampling of a Poisson process with a piecewise constant intensity, eq. 12);
* the Gaussian-kernel geometry of the kernel synthesizer (eq. 6): the edge-correction factor
  ``c_h(x) = P(x + hZ in S)`` (:meth:`PlanarDomain.gaussian_mass`), its gradient, an upper bound on
  ``r_alpha(h)`` (:meth:`PlanarDomain.edge_correction_log_ratio_bound`) and exact sampling of ``x + hZ``
  restricted to ``S`` (:meth:`PlanarDomain.sample_gaussian_offspring`).

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

Bounds used for ``r_alpha`` (see :meth:`PlanarDomain.edge_correction_log_ratio_bound`): for any set
``S`` and unit vector ``v``, ``|v . grad c_h| <= int (v . grad phi_h)^+ = phi(0)/h`` and
``|v' (Hess c_h) v| <= (1/h^2) E[(W^2 - 1)^+] = 2 phi(1)/h^2`` (``W ~ N(0, 1)``), sharp over all sets ``S``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy.spatial import ConvexHull, cKDTree
from scipy.special import ndtr, owens_t

from .. import mechanisms
from ..errors import ParameterError
from ..progress import Progress, report
from ..window import Window

#: Edges farther than this many bandwidths from a point are skipped in c_h and its gradient (error < 1e-31).
NEAR_BANDWIDTHS = 12.0
#: Default relative tolerance of the branch-and-bound maximisation of |grad log c_h|.
GRADIENT_RTOL = 1e-3
#: Most cells the branch and bound evaluates; beyond, it stops refining (the bound stays valid, only looser).
MAX_BOUND_CELLS = 30_000
#: Most halvings of the branch-and-bound cells (the last level's open cells keep their bounds).
_MAX_LEVELS = 48
#: Most base cells a grid partition may have (dense index arrays).
MAX_GRID_CELLS = 4_000_000
#: Below this share of a kernel inside the window, drawing offspring by rejection gets slow (1 / share draws):
#: :meth:`PlanarDomain.narrowest_mass` warns of it from public inputs.
MIN_KERNEL_MASS = 1e-6
#: Most candidate draws per rejection-sampling round.
_ROUND_DRAWS = 1 << 21

_PHI0 = 1.0 / math.sqrt(2.0 * math.pi)  # phi(0): bound on h |grad c_h|
_HESS = 2.0 * math.exp(-0.5) / math.sqrt(2.0 * math.pi)  # 2 phi(1): bound on h^2 ||Hess c_h||
_TWO_PI = 2.0 * math.pi


def _expand(counts: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For groups with ``counts[i]`` items starting at ``starts[i]``: the group of each item and its position."""
    group = np.repeat(np.arange(counts.size), counts)
    first = np.cumsum(counts) - counts
    return group, np.arange(group.size) - first[group] + starts[group]


def _as_xy(x, y, name: str = "points") -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ParameterError(name, f"x and y of the {name} must have the same length")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError(name, f"the {name} have NaN or infinite coordinates")
    return x, y


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
        edge, _ = _expand(n, np.zeros_like(n))
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


@dataclass(frozen=True)
class GradientBound:
    """Bounds on ``sup |grad log c_h|`` over a region, from :meth:`PlanarDomain.max_log_mass_gradient`.

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
        x, y = _as_xy(x, y)
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
        x, y = _as_xy(x, y)
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
            stop = max(start + 1, int(np.searchsorted(budget, base + _ROUND_DRAWS, side="right")))
            block = cells[start:stop]
            c, _ = _expand(counts[block], np.zeros_like(block))
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


@dataclass(frozen=True, eq=False)
class PlanarDomain:
    """A polygon window as the domain of a point synthesizer (Euclidean distance).

    Attributes:
        window: the study region (:class:`..window.Window`).
    """

    window: Window

    def __post_init__(self) -> None:
        if not isinstance(self.window, Window):
            raise ParameterError("window", "a PlanarDomain needs a core.window.Window")
        if not self.window.area > 0:
            raise ParameterError("window", "the window has no area")

    # -- geometry -------------------------------------------------------------------------------

    @property
    def measure(self) -> float:
        """Area of the window (squared units)."""
        return self.window.area

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return self.window.bounds

    @cached_property
    def _edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        a = np.concatenate(self.window.rings)
        b = np.concatenate([np.roll(ring, -1, axis=0) for ring in self.window.rings])
        return a[:, 0].copy(), a[:, 1].copy(), b[:, 0].copy(), b[:, 1].copy()

    @cached_property
    def _vertices(self) -> np.ndarray:
        return np.concatenate(self.window.rings)

    @cached_property
    def _hull(self) -> np.ndarray:
        v = self._vertices
        return v[ConvexHull(v).vertices]

    @cached_property
    def diameter(self) -> float:
        """``B = max d(x, x')`` over the window: the largest distance between two hull vertices (exact)."""
        hull = self._hull
        best = 0.0
        for start in range(0, hull.shape[0], 2048):
            block = hull[start : start + 2048]
            d2 = (block[:, None, 0] - hull[None, :, 0]) ** 2 + (block[:, None, 1] - hull[None, :, 1]) ** 2
            best = max(best, float(d2.max()))
        return math.sqrt(best)

    @cached_property
    def is_convex(self) -> bool:
        """Whether the window is one polygon without holes equal to its convex hull."""
        if len(self.window.rings) != 1:
            return False
        hull = self._hull
        x, y = hull[:, 0] - hull[0, 0], hull[:, 1] - hull[0, 1]
        hull_area = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
        return abs(hull_area - self.window.area) <= 1e-12 * hull_area

    @cached_property
    def _hull_window(self) -> Window:
        return Window.from_polygons([self._hull])

    @cached_property
    def _scale(self) -> float:
        xmin, ymin, xmax, ymax = self.window.bounds
        return max(abs(xmin), abs(ymin), abs(xmax), abs(ymax), xmax - xmin, ymax - ymin)

    def contains(self, x, y) -> np.ndarray:
        """Whether points lie in the window (boundary included)."""
        return self.window.contains(x, y)

    def check_points(self, x, y, name: str = "points") -> tuple[np.ndarray, np.ndarray]:
        """The points as float64 arrays; refuses non-finite coordinates and points outside the window.

        Raises:
            ParameterError(name): coordinates of different lengths, NaN/inf, or points outside the window.
        """
        x, y = _as_xy(x, y, name)
        outside = ~self.contains(x, y)
        if np.any(outside):
            raise ParameterError(
                name, f"{int(outside.sum())} of the {x.size} {name} lie outside the window; clip them to it first"
            )
        return x, y

    # -- cells ----------------------------------------------------------------------------------

    def grid_partition(
        self,
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

        Raises:
            ParameterError("cell_size" / "shape" / "min_cell_fraction"): bad values or too many cells.
        """
        xmin, ymin, xmax, ymax = self.window.bounds
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
        area = _clipped_cell_areas(self._edges, x_lines, y_lines)
        keep = area > 1e-9 * min(nominal, self.window.area)  # a cell larger than the whole window is no sliver
        if not keep.any():
            raise ParameterError("cell_size", "no cell overlaps the window by more than a sliver; use smaller cells")
        ix, iy = np.nonzero(keep)
        cell_area = area[ix, iy]
        region, merged, notes = _merge_slivers(ix, iy, cell_area, min_cell_fraction * nominal, area.shape)
        n_regions = int(region.max()) + 1
        region_measure = np.bincount(region, weights=cell_area, minlength=n_regions)
        return CellPartition(
            self.window, x_lines, y_lines, ix, iy, cell_area, region, region_measure, float(nominal), merged, notes
        )

    # -- the Gaussian kernel on the window --------------------------------------------------------

    @cached_property
    def _index_cache(self) -> dict:
        return {}

    @cached_property
    def _argmax_seeds(self) -> list:
        return []

    def _near_pairs(self, px, py, h):
        radius = NEAR_BANDWIDTHS * h
        cache = self._index_cache
        index = cache.get(radius)
        if index is None:
            if len(cache) > 16:
                cache.clear()
            index = cache[radius] = _EdgeIndex(*self._edges, radius)
        return index.pairs(px, py, radius)

    def _winding(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Winding number: ``contains`` away from the boundary, the exact signed angle sum next to it."""
        w = self.window.contains(px, py).astype(np.float64)
        tol = 1e-9 * self._scale
        close = np.flatnonzero(self.window.distance_to_boundary(px, py, upper_bound=tol) <= tol)
        if close.size:
            ax, ay, bx, by = self._edges
            for start in range(0, close.size, 256):
                idx = close[start : start + 256]
                qx, qy = px[idx, None], py[idx, None]
                sgn, d, pa, pb = _edge_frame(ax - qx, ay - qy, bx - qx, by - qy)
                angle = np.where(d > 0, sgn * (np.arctan2(pb, d) - np.arctan2(pa, d)), 0.0)
                w[idx] = angle.sum(axis=1) / _TWO_PI
        return w

    def gaussian_mass(self, x, y, h: float) -> np.ndarray:
        """Diggle's edge correction ``c_h(x) = int_S K_h(s - x) ds = P(x + hZ in S)`` (Gaussian ``K_h``, sd ``h``).

        Exact up to rounding (Owen's T closed form, see the module docstring); defined for any point of the
        plane (not only inside the window).

        Args:
            x, y: points (coordinate units).
            h: bandwidth, the standard deviation of each coordinate of the kernel (coordinate units).

        Returns:
            float64 array of ``c_h`` per point, in [0, 1].
        """
        px, py = _as_xy(x, y)
        return self._mass_and_gradient(px, py, _check_h(h), gradient=False)[0]

    def narrowest_mass(self, h: float) -> float:
        """The smallest ``c_h`` at the window's vertices: a public indication (window and bandwidth only) of
        whether some location keeps so little of its kernel inside that drawing its offspring is slow (below
        ``MIN_KERNEL_MASS``: the tip of a spike or a corridor much narrower than ``h``). Not a bound over the
        whole window; it only decides a warning."""
        vertices = np.concatenate(self.window.rings)
        return float(self.gaussian_mass(vertices[:, 0], vertices[:, 1], h).min())

    def gaussian_mass_gradient(self, x, y, h: float) -> tuple[np.ndarray, np.ndarray]:
        """``grad c_h(x) = -sum_edges n_e phi(d/h)/h [Phi(p_b/h) - Phi(p_a/h)]`` (divergence theorem), per point.

        Returns:
            ``(gx, gy)`` arrays (per coordinate unit).
        """
        px, py = _as_xy(x, y)
        _, gx, gy = self._mass_and_gradient(px, py, _check_h(h), mass=False)
        return gx, gy

    def _mass_and_gradient(self, px: np.ndarray, py: np.ndarray, h: float, mass: bool = True, gradient: bool = True):
        """``(c_h, dc_h/dx, dc_h/dy)`` at the points (``None`` for what is not asked for).

        Pairs of a point and an edge farther than ``NEAR_BANDWIDTHS * h`` apart are skipped (found with a k-d
        tree), unless the window has few edges or every edge is that close, when all pairs are computed densely.
        """
        n = px.size
        c = self._winding(px, py) if mass else None
        gx = np.zeros(n) if gradient else None
        gy = np.zeros(n) if gradient else None
        if n == 0:
            return c, gx, gy
        ax, ay, bx, by = self._edges
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

    def max_log_mass_gradient(
        self, h: float, alpha: float, rtol: float = GRADIENT_RTOL, progress: Progress = None
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
        """
        h = _check_h(h)
        alpha = float(alpha)
        if not (math.isfinite(alpha) and alpha > 0):
            raise ParameterError("alpha", f"alpha must be a finite number > 0, got {alpha!r}")
        convex = self.is_convex
        pad = 0.0 if convex else 0.5 * alpha
        xmin, ymin, xmax, ymax = self.window.bounds
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
        seeds = np.concatenate([self._hull, np.array(self._argmax_seeds).reshape(-1, 2)])
        vx, vy = seeds[:, 0], seeds[:, 1]
        member = self.window.contains(vx, vy)
        if not convex and not member.all():
            near = self.window.distance_to_boundary(vx, vy, upper_bound=pad) <= pad
            member |= near & self._hull_window.contains(vx, vy)
        vx, vy = vx[member], vy[member]
        c_seed, gvx, gvy = self._mass_and_gradient(vx, vy, h)
        g_seed = np.hypot(gvx, gvy) / np.maximum(c_seed, 1e-300)
        j = int(np.argmax(g_seed))
        best, best_x, best_y = float(g_seed[j]), float(vx[j]), float(vy[j])
        upper_final = 0.0
        evaluated = 0
        converged = True
        for level in range(_MAX_LEVELS):
            rho = math.hypot(hx, hy)
            inside = self.window.contains(qx, qy)
            reach = NEAR_BANDWIDTHS * h + rho + pad
            # beyond `reach` the distance is only known to exceed it: use `reach` (a valid lower bound)
            dist = np.minimum(self.window.distance_to_boundary(qx, qy, upper_bound=reach), reach)
            in_region_box = inside | (dist <= rho + pad)
            if not convex:
                hull = self._hull_window
                near_hull = hull.contains(qx, qy) | (hull.distance_to_boundary(qx, qy, upper_bound=rho) <= rho)
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
            c, gx, gy = self._mass_and_gradient(qx[todo], qy[todo], h)
            g = np.hypot(gx, gy)
            # lower bound: centres that are points of the region
            centre_in_region = inside[todo]
            if not convex:
                centre_in_region = centre_in_region | (dist[todo] <= pad) & self._hull_window.contains(
                    qx[todo], qy[todo]
                )
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
        self._argmax_seeds.append((best_x, best_y))
        del self._argmax_seeds[:-8]
        return GradientBound(upper, best, best_x, best_y, converged, evaluated)

    def edge_correction_log_ratio_bound(self, h: float, alpha: float, rtol: float = GRADIENT_RTOL) -> float:
        """An upper bound of ``r_alpha(h) = max_{x, y in S, d(x, y) <= alpha} |log c_h(x) - log c_h(y)|``.

        ``|log c_h(x) - log c_h(y)| = |int_0^1 grad log c_h(x + t(y - x)) . (y - x) dt| <= |x - y| sup |grad
        log c_h|`` over the segment, and :meth:`max_log_mass_gradient` bounds that supremum over every such
        segment from above; so ``alpha * upper`` bounds ``r_alpha(h)`` from above. It is tight when ``alpha``
        is small against ``h`` (the gradient barely changes over a distance ``alpha``), which holds for any
        calibrated bandwidth (``h >= sqrt(k alpha B / epsilon) >> alpha``).
        """
        return float(alpha) * self.max_log_mass_gradient(h, alpha, rtol).upper

    def sample_gaussian_offspring(
        self, rng: np.random.Generator, x, y, h: float, counts, progress: Progress = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``counts[i]`` independent draws of ``x_i + h Z`` conditioned on lying in the window (exact rejection).

        Draws come from :func:`..mechanisms.standard_normals`; a draw outside the window is redrawn, so each
        accepted draw has density ``K_h(s - x_i) 1_S(s) / c_h(x_i)``. The expected number of draws per point is
        ``1 / c_h(x_i)``.

        There is no limit on the draws: a refusal or a give-up when some ``c_h(x_i)`` is tiny would depend on one
        confidential location (an alpha-neighbour just across the limit would get synthetic points instead of an
        error: an unbounded privacy loss). A point in a part of the window far narrower than ``h`` costs about
        ``1 / c_h(x_i)`` draws, reported as progress, and can be cancelled. :meth:`narrowest_mass` tells from
        public inputs only whether that can happen.

        Returns:
            ``(x, y)`` of all draws, sorted by x then y (the order carries no information about the parents).
        """
        px, py = _as_xy(x, y)
        h = _check_h(h)
        counts = np.asarray(counts, dtype=np.int64).ravel()
        if counts.shape != px.shape or np.any(counts < 0):
            raise ParameterError("counts", "one count >= 0 per point is needed")
        parents = np.flatnonzero(counts > 0)
        if parents.size == 0:
            return np.empty(0), np.empty(0)
        # c_h > 0 inside the window; the floor only keeps 1.5 / mass finite for a mass that underflows
        mass = np.maximum(self.gaussian_mass(px[parents], py[parents], h), 1e-300)
        parent = np.repeat(parents, counts[parents])
        accept = np.repeat(mass, counts[parents])
        pending = np.arange(parent.size)
        out_x = np.empty(parent.size)
        out_y = np.empty(parent.size)
        total = parent.size
        while pending.size:
            tries = np.minimum(np.ceil(1.5 / accept[pending]).astype(np.int64), _ROUND_DRAWS)
            budget = np.cumsum(tries)
            stop = max(1, int(np.searchsorted(budget, _ROUND_DRAWS, side="right")))
            batch, rest = pending[:stop], pending[stop:]
            tries = tries[:stop]
            owner, _ = _expand(tries, np.zeros_like(tries))
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


# -- helpers ----------------------------------------------------------------------------------------


def _check_h(h) -> float:
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
        edge, pos = _expand(count, first)
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
        edge, li = _expand(count, first)
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
        which, m = _expand(n_mid, m_start)
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
        warnings.warn(notes[-1], stacklevel=3)
    return region.astype(np.int64), merged, tuple(notes)
