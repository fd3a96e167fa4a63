"""Spatial covariates for point-process models, evaluated at points and mesh nodes.

* Raster covariates (e.g. elevation, log population density as an offset) are sampled bilinearly
  from a north-up grid given by its array and GDAL-style geotransform.
* "Distance to the nearest feature" (e.g. John Snow's Broad Street pump, Walder et al. Section 8)
  for point features (k-d tree) or line and polygon-boundary features (segments).

All distances are in the coordinate units of the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree

from .errors import ParameterError


@dataclass(frozen=True)
class RasterGrid:
    """A single-band north-up raster: ``values[row, col]`` with NaN for NoData.

    ``x_min, y_max`` is the upper-left corner and ``dx, dy`` the (positive) pixel sizes.
    """

    values: np.ndarray
    x_min: float
    y_max: float
    dx: float
    dy: float

    @property
    def x_max(self) -> float:
        return self.x_min + self.values.shape[1] * self.dx

    @property
    def y_min(self) -> float:
        return self.y_max - self.values.shape[0] * self.dy

    def sample(self, x: np.ndarray, y: np.ndarray, name: str = "raster") -> np.ndarray:
        """Bilinear interpolation between pixel centres (nearest pixel within half a pixel of an edge).

        Raises ``ParameterError(name)`` if a location lies outside the raster or on NoData.
        """
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        rows, cols = self.values.shape
        outside = (x < self.x_min) | (x > self.x_max) | (y < self.y_min) | (y > self.y_max)
        if np.any(outside):
            raise ParameterError(
                name,
                f"{int(outside.sum())} locations lie outside the raster, which must cover " "the whole study window",
            )
        # continuous pixel coordinates with pixel centres at integers
        u = np.clip((x - self.x_min) / self.dx - 0.5, 0, cols - 1)
        v = np.clip((self.y_max - y) / self.dy - 0.5, 0, rows - 1)
        c0 = np.minimum(np.floor(u).astype(np.int64), max(cols - 2, 0))
        r0 = np.minimum(np.floor(v).astype(np.int64), max(rows - 2, 0))
        c1, r1 = np.minimum(c0 + 1, cols - 1), np.minimum(r0 + 1, rows - 1)
        fu, fv = u - c0, v - r0
        val = self.values
        out = (
            val[r0, c0] * (1 - fu) * (1 - fv)
            + val[r0, c1] * fu * (1 - fv)
            + val[r1, c0] * (1 - fu) * fv
            + val[r1, c1] * fu * fv
        )
        if np.any(~np.isfinite(out)):
            raise ParameterError(name, f"{int((~np.isfinite(out)).sum())} locations fall on NoData cells of the raster")
        return out


def distance_to_points(x: np.ndarray, y: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Distance from each location to the nearest of the points ``(px, py)``."""
    if len(px) == 0:
        raise ParameterError("distance_to", "the layer to measure distances to has no features")
    tree = cKDTree(np.column_stack([px, py]))
    dist, _ = tree.query(np.column_stack([x, y]))
    return dist


def distance_to_segments(x: np.ndarray, y: np.ndarray, segments: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """Distance from each location to the nearest of ``segments`` (``(k, 4)``: x0, y0, x1, y1)."""
    segments = np.asarray(segments, dtype=np.float64)
    if segments.size == 0:
        raise ParameterError("distance_to", "the layer to measure distances to has no features")
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    ax, ay, bx, by = segments.T
    dx, dy = bx - ax, by - ay
    length2 = np.maximum(dx * dx + dy * dy, 1e-300)
    out = np.empty(x.size)
    for start in range(0, x.size, chunk):
        px, py = x[start : start + chunk, None], y[start : start + chunk, None]
        t = np.clip(((px - ax) * dx + (py - ay) * dy) / length2, 0.0, 1.0)
        out[start : start + chunk] = np.sqrt(np.min((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2, axis=1))
    return out
