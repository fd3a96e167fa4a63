"""Ripley's K-function and L-function of a point pattern on a polygon window.

Estimators (Baddeley, Rubak & Turner 2015, *Spatial Point Patterns*, ch. 7; spatstat's ``Kest``
and ``Kinhom``), for ``n`` points ``x_1..x_n`` in the window ``W`` with area ``|W|``, pairwise
distances ``d_ij`` and the distance ``b_i`` from ``x_i`` to the boundary of ``W``:

Homogeneous (``intensity=None``), as ``Kest``, which estimates ``lambda^2`` by ``n (n - 1) / |W|^2``::

    "isotropic":  K(r) = |W| / (n (n - 1)) * sum_{i != j} 1(d_ij <= r) e_ij
    "none":       K(r) = |W| / (n (n - 1)) * sum_{i != j} 1(d_ij <= r)
    "border":     K(r) = |W| / n * sum_{i != j} 1(d_ij <= r <= b_i) / #{i : b_i >= r}

Inhomogeneous (``intensity`` given: ``lambda_i = lambda(x_i)``), Kim & Lim eq. 14, which is
``Kinhom(..., renormalise=FALSE)``::

    "isotropic":  K(r) = 1 / |W| * sum_{i != j} 1(d_ij <= r) e_ij / (lambda_i lambda_j)
    "none":       K(r) = 1 / |W| * sum_{i != j} 1(d_ij <= r) / (lambda_i lambda_j)
    "border":     K(r) = sum_{i != j} 1(d_ij <= r <= b_i) / (lambda_i lambda_j) / sum_{i : b_i >= r} 1 / lambda_i

``e_ij = 2 pi d_ij / length(W ∩ circle(x_i, d_ij))`` is Ripley's isotropic edge correction
weight, ``1 / p(x_i, d_ij)`` in Kim & Lim's notation; as spatstat's ``edge.Ripley`` it is clipped
to ``[1, 100]``, and it is exactly 1 when the circle lies inside ``W`` (``d_ij <= b_i``). The
"border" (reduced-sample) estimators are spatstat's ``Kest(correction="border")`` and
``Kinhom(correction="border")``. The L-function is ``L(r) = sqrt(K(r) / pi)``; under complete
spatial randomness ``K(r) = pi r^2`` and ``L(r) = r``.

Differences from spatstat, all of measure zero or documented choices:

* spatstat bins distances on its ``r`` grid and counts ``d_ij < r`` (and, for the border
  estimator, ``b_i`` against the previous grid value); here every radius is evaluated exactly with
  ``d_ij <= r`` and ``b_i >= r``, so the values agree whenever no distance falls between adjacent
  radii in spatstat's (by default fine) grid. In particular duplicated points (``d_ij = 0``) count
  at ``r = 0`` here and not in spatstat.
* spatstat returns ``NA`` for the isotropic estimate at radii beyond the window's bounding radius
  (``Kest``) or half its diameter (``Kinhom``); here the estimate is returned at every radius asked
  for. It is unreliable there, as the weights are then large and rest on few pairs.
* ``Kinhom`` renormalises by default: ``renormalise=TRUE`` multiplies by
  ``(|W| / sum_i 1 / lambda_i)^normpower`` (``normpower=1`` by default, or 2), so that an intensity
  known only up to a constant factor still gives a K-function on the scale of ``pi r^2``; eq. 14
  does not. ``renormalise=True`` here reproduces spatstat's factor (with its default
  ``diagonal=TRUE``).

The isotropic weight is computed in :mod:`.edge_correction` and the pair sums in :mod:`.pair_sums`; the
radii rule and the MISE between K-functions are in :mod:`.mise`.

All lengths are in the units of the coordinates (a projected CRS), ``K`` in squared units, ``L``
in units of length.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

import numpy as np

from ..errors import ParameterError
from ..jit import resolve_use_numba
from ..progress import Progress, report
from ..window import Window
from .edge_correction import near_edges
from .mise import check_radii
from .pair_sums import MODE_BORDER, MODE_ISOTROPIC, MODE_NONE, pair_sums_numba, pair_sums_numpy

#: The edge corrections :func:`k_function` implements.
CORRECTIONS = ("isotropic", "border", "none")

_MODES = {"none": MODE_NONE, "isotropic": MODE_ISOTROPIC, "border": MODE_BORDER}

Intensity = Union[np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray], None]


@dataclass(frozen=True)
class KFunction:
    """An estimated K-function and its L-function.

    Attributes:
        r: the radii, increasing, in coordinate units.
        K: the estimate at each radius, in squared units (``nan`` where the border estimator has no
            point at distance ``>= r`` from the boundary).
        L: ``sqrt(K / pi)``, in coordinate units.
        correction: "isotropic", "border" or "none".
        n: number of points.
        inhomogeneous: whether the intensity-weighted (inhomogeneous) estimator was used.
        area: ``|W|``, the window's area.
        renormalised: whether the inhomogeneous estimate was renormalised as spatstat's ``Kinhom``.
    """

    r: np.ndarray
    K: np.ndarray
    L: np.ndarray
    correction: str
    n: int
    inhomogeneous: bool
    area: float
    renormalised: bool = False

    @property
    def theoretical(self) -> np.ndarray:
        """``pi r^2``, the K-function of a Poisson process."""
        return np.pi * self.r**2


# -- the estimator -------------------------------------------------------------------------------


def _check_points(x, y, window: Window) -> tuple[np.ndarray, np.ndarray]:
    x = np.ascontiguousarray(x, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ParameterError("points", f"x and y must be one-dimensional of the same length, got {x.shape}, {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError("points", "point coordinates contain NaN or infinite values")
    if x.size < 2:
        raise ParameterError("points", f"the K-function needs at least 2 points, got {x.size}")
    if not isinstance(window, Window):
        raise ParameterError("window", f"window must be a Window, got {type(window).__name__}")
    outside = int(np.count_nonzero(~window.contains(x, y)))
    if outside:
        raise ParameterError(
            "points", f"{outside} of {x.size} points lie outside the window; clip the points or enlarge the window"
        )
    return x, y


def _check_intensity(intensity, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    values = intensity(x, y) if callable(intensity) else intensity
    try:
        lam = np.broadcast_to(np.asarray(values, dtype=np.float64), x.shape)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            "intensity", f"intensity must give one value per point ({x.size}), got shape {np.shape(values)}"
        ) from exc
    if not np.isfinite(lam).all():
        raise ParameterError("intensity", "intensity values must be finite")
    if not (lam > 0).all():
        raise ParameterError("intensity", f"intensity values must be > 0 at every point, got minimum {lam.min()!r}")
    return np.ascontiguousarray(lam)


def k_function(
    x,
    y,
    window: Window,
    radii,
    correction: str = "isotropic",
    intensity: Intensity = None,
    *,
    renormalise: bool = False,
    normpower: int = 1,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> KFunction:
    """Estimate Ripley's K-function (homogeneous, or inhomogeneous as Kim & Lim eq. 14) and L-function.

    See the module docstring for the estimators, their normalisation (the homogeneous one is
    spatstat's ``Kest``, with ``lambda^2`` estimated by ``n (n - 1) / |W|^2``; the inhomogeneous one
    is eq. 14, spatstat's ``Kinhom`` with ``renormalise=FALSE``) and the edge corrections.

    Only pairs closer than the largest radius are visited (a cell grid over the points), so the cost
    grows with ``n^2 r_max^2 / |W|``; the isotropic weight is computed only for pairs whose circle
    crosses the boundary, from the window edges within ``r_max`` of the centre.

    Args:
        x, y: point coordinates (one-dimensional, same length, at least 2 points), all in ``window``
            (points on the boundary count as inside).
        window: the study region ``W``.
        radii: distances ``r`` at which to estimate ``K``: finite, >= 0, strictly increasing, in
            coordinate units. See :func:`.mise.default_radii`.
        correction: "isotropic" (Ripley), "border" (reduced sample) or "none".
        intensity: ``None`` for the homogeneous estimator; otherwise the intensity ``lambda(x_i) > 0``
            at each point (points per squared unit), as an array of length ``n`` or a callable
            ``intensity(x, y) -> array``.
        renormalise: inhomogeneous only: multiply by spatstat's renormalisation factor
            ``(|W| / sum 1/lambda_i)^normpower``. False (the default) is eq. 14.
        normpower: 1 or 2, spatstat's ``normpower`` (used only with ``renormalise=True``).
        use_numba: run the numba kernel (``True``), the numpy path (``False``), or numba if it is
            installed (``None``). Both give the same values up to rounding.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        :class:`KFunction`.

    Raises:
        ParameterError: naming ``points`` (fewer than 2, non-finite, outside the window), ``window``,
            ``radii``, ``correction``, ``intensity`` (non-positive or wrong length) or ``normpower``.
    """
    if correction not in _MODES:
        raise ParameterError("correction", f"unknown edge correction {correction!r}; use {', '.join(CORRECTIONS)}")
    if renormalise and normpower not in (1, 2):
        raise ParameterError("normpower", f"normpower must be 1 or 2, got {normpower!r}")
    x, y = _check_points(x, y, window)
    r = check_radii(radii)
    n = x.size
    area = window.area
    lam = None if intensity is None else _check_intensity(intensity, x, y)
    with np.errstate(over="ignore"):  # an intensity too small for doubles is refused below
        recip = np.zeros(0) if lam is None else 1.0 / lam
    numba_path = resolve_use_numba(use_numba)
    mode = _MODES[correction]
    report(progress, 0.0, "Distances to the window boundary")

    r_max = float(r[-1])
    if mode == MODE_NONE:
        b = np.full(n, np.inf)
    else:
        b = window.distance_to_boundary(x, y, upper_bound=r_max)
    last = (np.searchsorted(r, b, side="right") - 1).astype(np.int64)  # last radius <= b_i (border)
    near = near_edges(window, x, y, b, r_max) if mode == MODE_ISOTROPIC else None
    report(progress, 0.1, "Counting pairs of points")
    pair_sums = pair_sums_numba if numba_path else pair_sums_numpy

    def too_small():
        return ParameterError(
            "intensity",
            f"the intensity is too small for double precision at some points (smallest value {lam.min():.3g}): the "
            "sums of 1 / (lambda_i lambda_j) overflow. It must be in points per squared CRS unit; check the raster "
            "there (a log intensity, or a broken pixel?)",
        )

    if lam is not None and not np.all(np.isfinite(recip)):
        raise too_small()
    sums = np.cumsum(pair_sums(x, y, r, mode, recip, b, last, near, progress))[:-1]
    if lam is not None and not np.all(np.isfinite(sums)):
        raise too_small()

    if mode == MODE_BORDER:
        # points with b_i >= r_k: those after the first sorted b_i >= r_k
        order = np.argsort(b, kind="stable")
        first = np.searchsorted(b[order], r, side="left")
        weight = np.ones(n) if lam is None else recip[order]
        tail = np.concatenate([np.cumsum(weight[::-1])[::-1], [0.0]])[first]
        with np.errstate(divide="ignore", invalid="ignore"):
            k = sums / tail if lam is not None else area / n * sums / tail
    elif lam is None:
        k = area / (n * (n - 1.0)) * sums
    else:
        k = sums / area
    if lam is not None and renormalise:
        factor = (area / float(recip.sum())) ** normpower
        k = k * factor
    k = np.where(np.isfinite(k), k, np.nan)
    report(progress, 1.0, "Done")
    return KFunction(
        r=r,
        K=k,
        L=np.sqrt(np.maximum(k, 0.0) / np.pi),
        correction=correction,
        n=n,
        inhomogeneous=lam is not None,
        area=area,
        renormalised=bool(lam is not None and renormalise),
    )
