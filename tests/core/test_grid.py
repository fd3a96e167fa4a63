"""Binning points into a regular grid (core.grid)."""

from __future__ import annotations

import numpy as np
import pytest

from spatial_privacy.core import grid
from spatial_privacy.core.grid import GridSpec, bin_points, to_dense
from spatial_privacy.core.jit import HAVE_NUMBA


def brute_force(x, y, t, spec):
    """Reference: a dict of cell -> [count, total], one point at a time."""
    cells = {}
    for xi, yi, ti in zip(x, y, t):
        key = (
            int(np.floor((xi - spec.origin_x) / spec.cell_size)),
            int(np.floor((yi - spec.origin_y) / spec.cell_size)),
        )
        cell = cells.setdefault(key, [0, 0.0])
        cell[0] += 1
        cell[1] += ti
    return cells


def as_dict(stats):
    return {(int(i), int(j)): [int(n), float(s)] for i, j, n, s in zip(stats.ix, stats.iy, stats.count, stats.total)}


@pytest.mark.parametrize("use_numba", [False, True])
def test_matches_brute_force_on_real_data(enterprise_arrays, use_numba):
    x, y, t = enterprise_arrays
    spec = GridSpec(500.0)
    stats = bin_points(x, y, t, spec, use_numba=use_numba)
    expected = brute_force(x, y, t, spec)
    got = as_dict(stats)
    assert got.keys() == expected.keys()
    for key, (n, total) in expected.items():
        assert got[key][0] == n
        assert got[key][1] == pytest.approx(total, rel=1e-12)
    assert stats.count.sum() == x.size
    # ordered by row, then column
    order = np.lexsort((stats.ix, stats.iy))
    assert np.array_equal(order, np.arange(len(stats)))


def test_numba_and_numpy_agree_exactly():
    assert HAVE_NUMBA, "numba is pinned in scripts/requirements.txt; run scripts/bootstrap.sh"
    rng = np.random.default_rng(3)
    x, y = rng.uniform(-1e4, 3e4, 50_000), rng.uniform(2e5, 2.4e5, 50_000)
    t = rng.gamma(2.0, 100.0, 50_000)
    spec = GridSpec(250.0, 13.0, -7.0)
    a = bin_points(x, y, t, spec, use_numba=True)
    b = bin_points(x, y, t, spec, use_numba=False)
    for name in ("ix", "iy", "count"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert np.allclose(a.total, b.total, rtol=1e-12)


def test_cells_are_half_open_and_respect_origin():
    spec = GridSpec(10.0, origin_x=5.0, origin_y=0.0)
    # x = 15 is the left edge of cell 1; x = 14.999 is still in cell 0; x = 4.9 is in cell -1
    x = np.array([15.0, 14.999, 4.9, 5.0])
    y = np.array([0.0, 9.999, 10.0, -0.001])
    stats = bin_points(x, y, np.ones(4), spec)
    assert as_dict(stats) == {(0, -1): [1, 1.0], (0, 0): [1, 1.0], (1, 0): [1, 1.0], (-1, 1): [1, 1.0]}
    x0, y0 = spec.cell_lower_left(stats.ix, stats.iy)
    assert set(zip(x0.tolist(), y0.tolist())) == {(5.0, -10.0), (5.0, 0.0), (15.0, 0.0), (-5.0, 10.0)}


def test_sparse_grid_path_equals_dense(monkeypatch):
    rng = np.random.default_rng(5)
    x, y, t = rng.uniform(0, 1e6, 2000), rng.uniform(0, 1e6, 2000), rng.uniform(0, 1, 2000)
    spec = GridSpec(1.0)  # 10^12 cells in the bounding box: the sparse path
    sparse = bin_points(x, y, t, spec)
    assert len(sparse) == 2000
    expected = brute_force(x, y, t, spec)
    assert as_dict(sparse).keys() == expected.keys()
    # the same occupied cells through the sorting path on a grid that would fit densely
    coarse = GridSpec(50_000.0)
    dense = bin_points(x, y, t, coarse)
    monkeypatch.setattr(grid, "_DENSE_CELL_LIMIT", 0)
    forced_sparse = bin_points(x, y, t, coarse)
    assert np.array_equal(dense.ix, forced_sparse.ix) and np.array_equal(dense.iy, forced_sparse.iy)
    assert np.array_equal(dense.count, forced_sparse.count)
    assert np.allclose(dense.total, forced_sparse.total)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(cell_size=0.0), "cell_size"),
        (dict(cell_size=-1.0), "cell_size"),
        (dict(cell_size=float("nan")), "cell_size"),
        (dict(cell_size=1.0, origin_x=float("inf")), "origin"),
    ],
)
def test_bad_grid_spec(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GridSpec(**kwargs)


def test_bad_points():
    spec = GridSpec(1.0)
    with pytest.raises(ValueError, match="no points"):
        bin_points(np.array([]), np.array([]), np.array([]), spec)
    with pytest.raises(ValueError, match="same length"):
        bin_points(np.zeros(2), np.zeros(3), np.zeros(2), spec)
    with pytest.raises(ValueError, match="x contains NaN"):
        bin_points(np.array([np.nan]), np.zeros(1), np.zeros(1), spec)
    with pytest.raises(ValueError, match="far too small"):
        bin_points(np.array([0.0, 1e300]), np.array([0.0, 1e300]), np.zeros(2), spec)
    # cells of 1e-14 at coordinates near 5: doubles (spacing 8.9e-16 there) cannot place points in them
    for use_numba in (False, True):
        with pytest.raises(ValueError, match="far too small"):
            bin_points(np.array([5.0, 6.0]), np.array([5.0, 6.0]), np.zeros(2), GridSpec(1e-14), use_numba=use_numba)


def test_an_origin_too_far_for_doubles_is_refused_and_a_far_resolvable_one_changes_nothing(enterprise_arrays):
    """Moving the origin by whole cells leaves the cells' counts as they are while doubles resolve a cell
    there (ulp(1e12) = 1.2e-4 for cells of 500); at 1e20 they do not (ulp = 16384) and the grid is refused."""
    x, y, t = enterprise_arrays
    near = bin_points(x, y, t, GridSpec(500.0))
    far = bin_points(x, y, t, GridSpec(500.0, 2e12, 2e12))
    assert np.array_equal(np.sort(near.count), np.sort(far.count)) and near.count.size == far.count.size
    with pytest.raises(ValueError, match="origin 1e\\+20 is so far from the points"):
        bin_points(x, y, t, GridSpec(500.0, 1e20, 1e20))
    # cells of 1e-12 are too small for these coordinates wherever the origin is: the cell size is named
    with pytest.raises(ValueError, match="cell_size 1e-12 is far too small"):
        bin_points(x, y, t, GridSpec(1e-12, 1e7, 1e7))


def test_to_dense_is_north_up():
    spec = GridSpec(2.0)
    ix, iy = np.array([0, 2]), np.array([0, 1])
    array, x_min, y_max = to_dense(spec, ix, iy, np.array([1.0, 7.0]))
    assert (x_min, y_max) == (0.0, 4.0)
    assert array.shape == (2, 3)
    assert array[1, 0] == 1.0  # southern row, western column
    assert array[0, 2] == 7.0  # northern row, eastern column
    assert np.isnan(array).sum() == 4


def test_progress_is_reported_and_can_cancel():
    seen = []
    bin_points(np.zeros(3), np.zeros(3), np.ones(3), GridSpec(1.0), progress=lambda f, m: seen.append(f))
    assert seen[0] == 0.0 and seen[-1] == 1.0

    def cancel(fraction, message):
        raise KeyboardInterrupt("cancelled")

    with pytest.raises(KeyboardInterrupt):
        bin_points(np.zeros(3), np.zeros(3), np.ones(3), GridSpec(1.0), progress=cancel)
