"""Coordinate arrays and grouped index arrays shared by the planar domain's modules (cells, kernel mass, sampling).

Units: coordinates in the window's coordinate units.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError

#: Most candidate points a sampler draws in one round (bounds the memory of a round).
ROUND_DRAWS = 1 << 21


def expand(counts: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For groups with ``counts[i]`` items starting at ``starts[i]``: the group of each item and its position."""
    group = np.repeat(np.arange(counts.size), counts)
    first = np.cumsum(counts) - counts
    return group, np.arange(group.size) - first[group] + starts[group]


def as_xy(x, y, name: str = "points") -> tuple[np.ndarray, np.ndarray]:
    """The coordinates as flat float64 arrays.

    Raises:
        ParameterError(name): x and y of different lengths, or NaN / infinite coordinates.
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ParameterError(name, f"x and y of the {name} must have the same length")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError(name, f"the {name} have NaN or infinite coordinates")
    return x, y
