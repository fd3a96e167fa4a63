"""Regular square grids: binning points with values into cells.

A grid is fixed by its cell side ``r`` and an origin ``(x0, y0)``: cell ``(ix, iy)`` is the
half-open square ``[x0 + ix*r, x0 + (ix+1)*r) x [y0 + iy*r, y0 + (iy+1)*r)``. With the default
origin (0, 0) the cell edges fall on multiples of ``r``, so the grid covering a layer is its
extent snapped outwards to multiples of ``r`` (the convention of national statistical grids such
as the INSPIRE / CBS 500 m squares). All lengths are in the units of the points' coordinates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import ParameterError
from .jit import njit, resolve_use_numba
from .progress import Progress, report

#: Largest dense accumulator (number of cells of the bounding grid) binned with direct indexing;
#: sparser grids fall back to sorting the occupied cell indices.
_DENSE_CELL_LIMIT = 1 << 24


@dataclass(frozen=True)
class GridSpec:
    """A regular grid of square cells.

    Attributes:
        cell_size: side ``r`` of a cell, in coordinate units; finite and > 0.
        origin_x, origin_y: a corner shared by four cells (default 0, 0: edges on multiples of r).
    """

    cell_size: float
    origin_x: float = 0.0
    origin_y: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.cell_size) and self.cell_size > 0):
            raise ParameterError("cell_size", f"cell_size must be a finite number > 0, got {self.cell_size!r}")
        if not (math.isfinite(self.origin_x) and math.isfinite(self.origin_y)):
            raise ParameterError("origin", "the grid origin must be finite")

    def cell_lower_left(self, ix: np.ndarray, iy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Coordinates of the lower-left corner of cells ``(ix, iy)``."""
        r = self.cell_size
        return self.origin_x + np.asarray(ix) * r, self.origin_y + np.asarray(iy) * r


@dataclass(frozen=True)
class CellStats:
    """Per-cell count and sum of the values of the points in the occupied cells.

    Cells are ordered by row then column (``iy`` then ``ix``); cells with no point are absent.

    Attributes:
        spec: the grid.
        ix, iy: integer column and row of each occupied cell.
        count: number of points ``n`` in the cell (>= 1).
        total: sum of the values ``t_i`` of the cell's points.
    """

    spec: GridSpec
    ix: np.ndarray
    iy: np.ndarray
    count: np.ndarray
    total: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        """Mean value per cell, ``total / count``."""
        return self.total / self.count

    def __len__(self) -> int:
        return int(self.count.shape[0])

    def subset(self, keep: np.ndarray) -> CellStats:
        """The cells selected by the boolean mask or index array ``keep``."""
        return CellStats(self.spec, self.ix[keep], self.iy[keep], self.count[keep], self.total[keep])


@njit(cache=True)
def _dense_bin_kernel(x, y, t, x0, y0, r, ix_min, iy_min, nx, count, total):
    # One pass: cell index of each point, accumulate count and sum.
    for i in range(x.shape[0]):
        cx = int(math.floor((x[i] - x0) / r)) - ix_min
        cy = int(math.floor((y[i] - y0) / r)) - iy_min
        k = cy * nx + cx
        count[k] += 1
        total[k] += t[i]


def _cell_indices(coord: np.ndarray, origin: float, r: float) -> np.ndarray:
    return np.floor((coord - origin) / r).astype(np.int64)


#: A point is placed in its cell from ``(coord - origin) / r``: the doubles' rounding of the coordinates and the
#: origin must stay below this fraction of a cell, or points near an edge (or whole columns) land in the wrong cell.
_RESOLUTION = 1e-6


def _check_resolution(coord: np.ndarray, origin: float, r: float) -> None:
    """Refuse a grid whose cells doubles cannot tell apart this far from zero: an origin far from the points
    (ORIGIN = 1e20 put 412 cells' points into 2) or a cell size tiny for coordinates this large."""
    largest = max(abs(float(coord.min())), abs(float(coord.max())))
    if math.ulp(max(largest, abs(origin))) <= _RESOLUTION * r:
        return
    if abs(origin) > largest and math.ulp(largest) <= _RESOLUTION * r:  # the points alone would be resolved
        raise ParameterError(
            "origin",
            f"the grid origin {origin:g} is so far from the points (at most {largest:g} from zero) that doubles "
            f"cannot place them in cells of {r:g}: put the origin near the data",
        )
    raise ParameterError(
        "cell_size",
        f"cell_size {r!r} is far too small for coordinates as large as {largest:g}: doubles cannot "
        "place points in such cells",
    )


def _index_range(coord: np.ndarray, origin: float, r: float) -> tuple[int, int]:
    lo = math.floor((float(coord.min()) - origin) / r)
    hi = math.floor((float(coord.max()) - origin) / r)
    return int(lo), int(hi)


def bin_points(
    x: np.ndarray,
    y: np.ndarray,
    values: np.ndarray,
    spec: GridSpec,
    *,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> CellStats:
    """Bin points with values into the cells of ``spec``; return the occupied cells.

    Args:
        x, y: point coordinates (same length, finite), in the grid's units.
        values: the value ``t_i`` of each point (finite).
        spec: the grid.
        use_numba: run the numba kernel (``True``), the numpy path (``False``), or numba if it is
            installed (``None``). Both give identical results.
        progress: optional ``progress(fraction, message)`` callable.

    Returns:
        :class:`CellStats` of the cells holding at least one point, ordered by (iy, ix).
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    t = np.ascontiguousarray(values, dtype=np.float64)
    if not (x.ndim == y.ndim == t.ndim == 1 and x.shape == y.shape == t.shape):
        raise ValueError("x, y and values must be one-dimensional arrays of the same length")
    if x.size == 0:
        raise ValueError("there are no points to bin")
    for name, arr in (("x", x), ("y", y), ("values", t)):
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains NaN or infinite entries")
    numba_on = resolve_use_numba(use_numba)
    r = spec.cell_size
    report(progress, 0.0, "Binning points into grid cells")
    for coord, origin in ((x, spec.origin_x), (y, spec.origin_y)):
        _check_resolution(coord, origin, r)
    ix_min, ix_max = _index_range(x, spec.origin_x, r)
    iy_min, iy_max = _index_range(y, spec.origin_y, r)
    nx, ny = ix_max - ix_min + 1, iy_max - iy_min + 1
    # cell indices must fit int64 (the kernels' arithmetic), not only the bounding grid's size
    if nx * ny >= 2**62 or max(abs(ix_min), abs(ix_max), abs(iy_min), abs(iy_max)) >= 2**62:
        raise ParameterError("cell_size", f"cell_size {r!r} is far too small for the extent of the points")
    if nx * ny <= _DENSE_CELL_LIMIT:
        count = np.zeros(nx * ny, dtype=np.int64)
        total = np.zeros(nx * ny, dtype=np.float64)
        if numba_on:
            _dense_bin_kernel(x, y, t, spec.origin_x, spec.origin_y, r, ix_min, iy_min, nx, count, total)
        else:
            k = (_cell_indices(y, spec.origin_y, r) - iy_min) * nx + (_cell_indices(x, spec.origin_x, r) - ix_min)
            count += np.bincount(k, minlength=nx * ny)
            total += np.bincount(k, weights=t, minlength=nx * ny)
        occupied = np.flatnonzero(count)
        count, total = count[occupied], total[occupied]
    else:  # a huge, sparse bounding grid: sort the occupied cell indices instead
        k = (_cell_indices(y, spec.origin_y, r) - iy_min) * nx + (_cell_indices(x, spec.origin_x, r) - ix_min)
        occupied, inverse = np.unique(k, return_inverse=True)
        count = np.bincount(inverse).astype(np.int64)
        total = np.bincount(inverse, weights=t)
    report(progress, 1.0, f"Binned {x.size} points into {occupied.size} occupied cells")
    iy, ix = np.divmod(occupied, nx)
    return CellStats(spec, ix + ix_min, iy + iy_min, count, total)


#: Largest raster (in cells) :func:`to_dense` lays out: 2e8 float64 cells are 1.6 GB.
MAX_DENSE_CELLS = 200_000_000


def dense_shape(ix: np.ndarray, iy: np.ndarray) -> tuple[int, int]:
    """Rows and columns of the bounding rectangle of cells ``(ix, iy)``."""
    return int(np.max(iy)) - int(np.min(iy)) + 1, int(np.max(ix)) - int(np.min(ix)) + 1


def to_dense(
    spec: GridSpec, ix: np.ndarray, iy: np.ndarray, values: np.ndarray, fill: float = np.nan
) -> tuple[np.ndarray, float, float]:
    """Lay per-cell ``values`` of cells ``(ix, iy)`` out on their bounding rectangle, north up.

    Returns:
        ``(array, x_min, y_max)``: a ``(rows, cols)`` float64 array whose row 0 is the northern
        edge, with ``fill`` where no cell is given, and the coordinates of its upper-left corner.
    """
    ix, iy = np.asarray(ix), np.asarray(iy)
    if ix.size == 0:
        raise ValueError("there are no cells to lay out")
    rows, cols = dense_shape(ix, iy)
    if rows * cols > MAX_DENSE_CELLS:
        raise ParameterError(
            "cell_size", f"a raster of {rows} x {cols} cells is too large; use a larger cell size or no raster"
        )
    ix0, ix1 = int(ix.min()), int(ix.max())
    iy0, iy1 = int(iy.min()), int(iy.max())
    out = np.full((iy1 - iy0 + 1, ix1 - ix0 + 1), fill, dtype=np.float64)
    out[iy1 - iy, ix - ix0] = values
    x_min = spec.origin_x + ix0 * spec.cell_size
    y_max = spec.origin_y + (iy1 + 1) * spec.cell_size
    return out, float(x_min), float(y_max)
