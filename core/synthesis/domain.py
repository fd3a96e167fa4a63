"""The study domain of a point synthesizer: everything a synthesizer needs to know about where points live.

Kim & Lim's synthesizers (Kim & Lim 2025, "Differentially private synthesis of spatial point processes") are
written for a compact domain ``S`` with a distance ``d``. A synthesizer talks to its domain only through the
methods of :class:`Domain`, so a linear-network domain can implement the same methods (lengths instead of areas,
shortest-path distance, network cells) without touching the synthesizers:

* ``measure``, ``diameter`` (``B`` of Theorems 3.6 and 3.10), ``contains``, ``check_points``;
* ``grid_partition`` -> a :class:`Partition` (cells ``S_i`` with their measures ``|S_i|``, point location,
  and sampling of a Poisson process with a piecewise constant intensity, eq. 12);
* the Gaussian-kernel geometry of the kernel synthesizer (eq. 6): the edge-correction factor
  ``c_h(x) = P(x + hZ in S)`` (``gaussian_mass``), an upper bound on ``r_alpha(h)``
  (``edge_correction_log_ratio_bound``), a public warning sign for slow offspring draws (``narrowest_mass``)
  and exact sampling of ``x + hZ`` restricted to ``S`` (``sample_gaussian_offspring``).

:class:`PlanarDomain` implements it for a polygon window (:class:`..window.Window`: polygons with holes,
exterior rings counter-clockwise, holes clockwise) with the Euclidean distance, from

* :mod:`.grid_cells`: grid cells clipped exactly to the window, slivers merged (:class:`.grid_cells.CellPartition`);
* :mod:`.kernel_mass`: ``c_h`` and its gradient in closed form (Owen's T function), and offspring sampling;
* :mod:`.kernel_mass_bound`: the branch-and-bound bound of ``sup |grad log c_h|`` behind ``r_alpha``.

All lengths are in coordinate units, areas in squared units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np
from scipy.spatial import ConvexHull

from ..errors import ParameterError
from ..progress import Progress
from ..window import Window
from . import kernel_mass_bound
from .grid_cells import CellPartition, grid_partition
from .kernel_mass import KernelMass, check_bandwidth
from .kernel_mass_bound import GRADIENT_RTOL, GradientBound
from .point_arrays import as_xy

#: Below this share of a kernel inside the window, drawing offspring by rejection gets slow (1 / share draws):
#: :meth:`PlanarDomain.narrowest_mass` warns of it from public inputs.
MIN_KERNEL_MASS = 1e-6


class Partition(Protocol):
    """Cells ``S_i`` of a domain, merged into regions, for a piecewise constant intensity (Kim & Lim eq. 12)."""

    @property
    def region_measure(self) -> np.ndarray:
        """Measure ``|S_i|`` of each region: areas (squared units), lengths on a network."""

    @property
    def n_regions(self) -> int: ...

    @property
    def notes(self) -> tuple[str, ...]:
        """Human-readable remarks on the construction (e.g. merged cells)."""

    def locate(self, x, y) -> np.ndarray:
        """Region of each point (``-1`` for a point in no region)."""

    def region_counts(self, x, y) -> np.ndarray:
        """Number of points in each region; refuses points outside the domain."""

    def sample(self, rng: np.random.Generator, intensity: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A Poisson process with intensity ``intensity[i]`` on region ``i``: ``(x, y)`` sorted by x then y."""


class Domain(Protocol):
    """What a point synthesizer asks of its domain ``S`` (see the module docstring)."""

    @property
    def measure(self) -> float:
        """``|S|``: area (squared units), length on a network."""

    @property
    def diameter(self) -> float:
        """``B = max d(x, x')`` over ``S`` (coordinate units)."""

    def contains(self, x, y) -> np.ndarray: ...

    def check_points(self, x, y, name: str = "points") -> tuple[np.ndarray, np.ndarray]: ...

    def grid_partition(
        self,
        cell_size: float | None = None,
        shape: tuple[int, int] | None = None,
        origin: tuple[float, float] | None = None,
        min_cell_fraction: float = 0.25,
    ) -> Partition: ...

    def gaussian_mass(self, x, y, h: float) -> np.ndarray: ...

    def narrowest_mass(self, h: float) -> float: ...

    def edge_correction_log_ratio_bound(self, h: float, alpha: float, rtol: float = GRADIENT_RTOL) -> float: ...

    def sample_gaussian_offspring(
        self, rng: np.random.Generator, x, y, h: float, counts, progress: Progress = None
    ) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True, eq=False)
class PlanarDomain:
    """A polygon window as the domain of a point synthesizer (Euclidean distance): a :class:`Domain`.

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

    def contains(self, x, y) -> np.ndarray:
        """Whether points lie in the window (boundary included)."""
        return self.window.contains(x, y)

    def check_points(self, x, y, name: str = "points") -> tuple[np.ndarray, np.ndarray]:
        """The points as float64 arrays; refuses non-finite coordinates and points outside the window.

        Raises:
            ParameterError(name): coordinates of different lengths, NaN/inf, or points outside the window.
        """
        x, y = as_xy(x, y, name)
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

        Give either ``cell_size`` (square cells of that side, starting at ``origin`` snapped down to the window's
        lower-left corner) or ``shape = (nx, ny)`` (the bounding box cut into ``nx`` columns and ``ny`` rows).
        Clipped cells smaller than ``min_cell_fraction`` of a full cell are merged into a neighbour
        (:func:`.grid_cells.grid_partition` has the details).

        Raises:
            ParameterError("cell_size" / "shape" / "min_cell_fraction"): bad values or too many cells.
        """
        return grid_partition(self.window, self._edges, cell_size, shape, origin, min_cell_fraction)

    # -- the Gaussian kernel on the window --------------------------------------------------------

    @cached_property
    def _kernel(self) -> KernelMass:
        return KernelMass(self.window, self._edges)

    @cached_property
    def _argmax_seeds(self) -> list:
        return []

    def gaussian_mass(self, x, y, h: float) -> np.ndarray:
        """Diggle's edge correction ``c_h(x) = int_S K_h(s - x) ds = P(x + hZ in S)`` (Gaussian ``K_h``, sd ``h``).

        Exact up to rounding (Owen's T closed form, see :mod:`.kernel_mass`); defined for any point of the
        plane (not only inside the window).

        Args:
            x, y: points (coordinate units).
            h: bandwidth, the standard deviation of each coordinate of the kernel (coordinate units).

        Returns:
            float64 array of ``c_h`` per point, in [0, 1].
        """
        px, py = as_xy(x, y)
        return self._kernel.mass_and_gradient(px, py, check_bandwidth(h), gradient=False)[0]

    def narrowest_mass(self, h: float) -> float:
        """The smallest ``c_h`` at the window's vertices: a public indication (window and bandwidth only) of
        whether some location keeps so little of its kernel inside that drawing its offspring is slow (below
        ``MIN_KERNEL_MASS``: the tip of a spike or a corridor much narrower than ``h``). Not a bound over the
        whole window; it only decides a warning."""
        vertices = np.concatenate(self.window.rings)
        return float(self.gaussian_mass(vertices[:, 0], vertices[:, 1], h).min())

    def largest_mass(self, h: float) -> float:
        """An upper bound of ``c_h(x)`` over every point ``x`` of the plane, from the window and ``h`` only (public):
        the least of 1, ``area / (2 pi h^2)`` (the kernel's density is at most ``1 / (2 pi h^2)``) and
        ``erf(w / (2 sqrt(2) h)) erf(t / (2 sqrt(2) h))`` for the bounding box's sides ``w`` and ``t`` (the window
        lies in its box, and a centred box holds the most of a Gaussian: Anderson 1955). Exact for a rectangle at
        its centre; when ``h`` is far larger than the window, both bounds tend to ``area / (2 pi h^2)``."""
        h = check_bandwidth(h)
        xmin, ymin, xmax, ymax = self.bounds
        scale = 2.0 * math.sqrt(2.0) * h
        box = math.erf((xmax - xmin) / scale) * math.erf((ymax - ymin) / scale)
        return min(1.0, self.measure / (2.0 * math.pi * h * h), box)

    def gaussian_mass_gradient(self, x, y, h: float) -> tuple[np.ndarray, np.ndarray]:
        """``grad c_h(x) = -sum_edges n_e phi(d/h)/h [Phi(p_b/h) - Phi(p_a/h)]`` (divergence theorem), per point.

        Returns:
            ``(gx, gy)`` arrays (per coordinate unit).
        """
        px, py = as_xy(x, y)
        _, gx, gy = self._kernel.mass_and_gradient(px, py, check_bandwidth(h), mass=False)
        return gx, gy

    def max_log_mass_gradient(
        self, h: float, alpha: float, rtol: float = GRADIENT_RTOL, progress: Progress = None
    ) -> GradientBound:
        """Rigorous upper bound of ``sup |grad log c_h|`` over every point of every segment ``[x, y]`` with
        ``x, y`` in the window and ``|x - y| <= alpha`` (branch and bound,
        :func:`.kernel_mass_bound.max_log_mass_gradient`).

        The maximisers of the last 8 calls seed the next call's lower bound (a calibration evaluates nearby
        bandwidths).
        """
        bound = kernel_mass_bound.max_log_mass_gradient(
            self._kernel,
            self._hull,
            None if self.is_convex else self._hull_window,
            np.array(self._argmax_seeds),
            h,
            alpha,
            rtol,
            progress,
        )
        self._argmax_seeds.append((bound.x, bound.y))
        del self._argmax_seeds[:-8]
        return bound

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
        """``counts[i]`` independent draws of ``x_i + h Z`` conditioned on lying in the window (exact rejection,
        with no limit on the draws: :meth:`.kernel_mass.KernelMass.sample_offspring`).

        Returns:
            ``(x, y)`` of all draws, sorted by x then y (the order carries no information about the parents).
        """
        return self._kernel.sample_offspring(rng, x, y, h, counts, progress)
