"""Covariates at points (core.covariates)."""

from __future__ import annotations

import numpy as np
import pytest

from spatial_privacy.core.covariates import RasterGrid, distance_to_points, distance_to_segments
from spatial_privacy.core.errors import ParameterError


def linear_raster():
    # 20 x 30 pixels of 2 x 1 units, upper-left (100, 50); value = 3x - 2y + 1 at pixel centres
    cols, rows = np.meshgrid(np.arange(30), np.arange(20))
    xc, yc = 100 + (cols + 0.5) * 2.0, 50 - (rows + 0.5) * 1.0
    return RasterGrid(3 * xc - 2 * yc + 1, 100.0, 50.0, 2.0, 1.0)


def test_bilinear_sampling_reproduces_a_linear_surface():
    grid = linear_raster()
    rng = np.random.default_rng(0)
    x, y = rng.uniform(101, 159, 500), rng.uniform(30.5, 49.5, 500)  # between the outermost pixel centres
    assert np.allclose(grid.sample(x, y), 3 * x - 2 * y + 1, rtol=1e-12)


def test_outside_and_nodata_are_refused_naming_the_parameter():
    grid = linear_raster()
    with pytest.raises(ParameterError, match="outside the raster") as info:
        grid.sample(np.array([99.0]), np.array([40.0]), name="covariates")
    assert info.value.parameter == "covariates"
    values = grid.values.copy()
    values[5, 5] = np.nan
    holed = RasterGrid(values, 100.0, 50.0, 2.0, 1.0)
    with pytest.raises(ParameterError, match="NoData"):
        holed.sample(np.array([111.0]), np.array([44.5]))


def test_distance_to_points_matches_brute_force():
    rng = np.random.default_rng(1)
    x, y = rng.uniform(0, 10, 200), rng.uniform(0, 10, 200)
    px, py = rng.uniform(0, 10, 13), rng.uniform(0, 10, 13)
    brute = np.sqrt((x[:, None] - px) ** 2 + (y[:, None] - py) ** 2).min(axis=1)
    assert np.allclose(distance_to_points(x, y, px, py), brute)


def test_distance_to_segments_by_hand():
    segments = np.array([[0.0, 0.0, 10.0, 0.0], [20.0, -5.0, 20.0, 5.0]])
    x = np.array([5.0, -3.0, 14.0, 20.0, 25.0])
    y = np.array([2.0, 4.0, 0.0, 9.0, 0.0])
    # above the middle of the first; beyond its end (3-4-5); between both; above the second's end; right of it
    assert np.allclose(distance_to_segments(x, y, segments), [2.0, 5.0, 4.0, 4.0, 5.0])
    with pytest.raises(ParameterError):
        distance_to_segments(x, y, np.empty((0, 4)))
