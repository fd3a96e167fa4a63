"""The K-function of a point pattern on a linear network (Kim & Lim, Appendix E.3; spatstat's ``linearK`` and
``linearKinhom``).

For ``n`` points ``x_1..x_n`` on a network ``L`` of total length ``|L|``, shortest-path distances ``d_ij`` and
``m(u, t)`` the number of points of the network at distance exactly ``t`` from ``u``:

Homogeneous (``intensity=None``), as ``linearK``::

    "none" (Okabe & Yamada 2001, Kim & Lim eq. 24):  K(r) = |L| / (n (n - 1)) * sum_{i != j} 1(d_ij <= r)
    "Ang" (Ang, Baddeley & Nair 2012, eq. 25):       K(r) = |L| / (n (n - 1)) * sum_{i != j} 1(d_ij <= r) / m(x_i, d_ij)

Inhomogeneous (``intensity`` given: ``lambda_i = lambda(x_i)``), as ``linearKinhom``: the sums weighted by
``1 / (lambda_i lambda_j)`` and divided by ``sum_i 1 / lambda_i`` (``normalise=True``, ``normpower=1``: Kim & Lim
eq. 27 and spatstat's default), by ``|L| (sum_i 1 / lambda_i / |L|)^2`` (``normpower=2``) or by ``|L|``
(``normalise=False``).

Ang's correction makes the estimator free of the network's geometry: for a Poisson process (and for ``n``
independent uniform points) ``E K(r) = r`` exactly, because ``integral over L of 1(d(u, v) <= r) / m(u, d(u, v)) dv
= r`` for every ``u`` (the coarea formula along the network). Since ``m(x_i, d_ij) >= 1`` (``x_j`` itself lies at
that distance), the corrected estimate never exceeds the uncorrected one. The uncorrected ``K`` has no
network-free Poisson value.

**The L-function.** On a network the corrected ``K`` is already on the scale of ``r`` (its Poisson value is ``r``,
where the planar one is ``pi r^2``), so Besag's transformation is the identity: ``L = K`` for "Ang"; for "none"
there is no such transformation and ``L`` is ``nan``. spatstat has no ``linearL``.

**As spatstat, and where not.** Distances, the count ``m`` (with spatstat's tolerance: a vertex within
``tolerance`` of the perimeter counts as one perimeter point, see :mod:`.network_pair_sums`), the exclusion of
pairs at distance 0 (duplicated points are never a pair, so ``K(0) = 0``, while ``n`` still counts them), of pairs
in different connected components (infinite distance) and the normalisations are those of spatstat.linnet 3.0;
the estimates agree with ``linearK`` / ``linearKinhom`` to rounding. spatstat bins distances on its ``r`` grid and
counts ``d_ij < r`` except at the last radius (``d_ij <= r``); here every radius counts ``d_ij <= r``, as eq. 24-27
write it, so the two differ only where a distance equals a radius exactly. Fewer than 2 points are refused
(spatstat returns zeros).

The radii rule (:func:`default_network_radii`) is ``linearK``'s: up to 0.98 times the network's bounding radius
(:func:`network_bounding_radius`). The MISE between two K-functions is :func:`.mise.mise`
(:func:`network_mise` checks they are comparable).

Lengths are in the units of the coordinates (a projected CRS); ``K`` is in units of length, as ``L``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

import numpy as np
from scipy.sparse.csgraph import dijkstra

from ..errors import ParameterError
from ..jit import resolve_use_numba
from ..network.network import LinearNetwork, NetworkPoints
from ..progress import Progress, report
from .mise import check_radii, mise
from .network_pair_sums import NetworkArrays, default_tolerance, network_pair_sums_numba, network_pair_sums_numpy

#: The geometric corrections :func:`network_k_function` implements (spatstat's names).
CORRECTIONS = ("Ang", "none")

Intensity = Union[np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray], None]


@dataclass(frozen=True)
class NetworkKFunction:
    """An estimated K-function on a linear network.

    Attributes:
        r: the radii, increasing, in coordinate units.
        K: the estimate at each radius, in coordinate units.
        correction: "Ang" or "none".
        n: number of points.
        inhomogeneous: whether the intensity-weighted estimator was used.
        total_length: ``|L|``, the network's total length.
        normalise: inhomogeneous only: the normalisation (spatstat's ``normalise``, ``normpower``).
        normpower: 1 or 2.
    """

    r: np.ndarray
    K: np.ndarray
    correction: str
    n: int
    inhomogeneous: bool
    total_length: float
    normalise: bool = True
    normpower: int = 1

    @property
    def theoretical(self) -> np.ndarray:
        """The value for a Poisson process: ``r`` with Ang's correction; ``nan`` without (it depends on the network)."""
        return self.r.copy() if self.correction == "Ang" else np.full(self.r.shape, np.nan)

    @property
    def L(self) -> np.ndarray:
        """The L-function: ``K`` itself with Ang's correction (already on the scale of ``r``), ``nan`` without."""
        return self.K.copy() if self.correction == "Ang" else np.full(self.r.shape, np.nan)


# -- the estimator -------------------------------------------------------------------------------


def _check_points(net, points) -> None:
    if not isinstance(net, LinearNetwork):
        raise ParameterError("network", f"network must be a LinearNetwork, got {type(net).__name__}")
    if not isinstance(points, NetworkPoints):
        raise ParameterError("points", f"points must be NetworkPoints on the network, got {type(points).__name__}")
    if len(points) < 2:
        raise ParameterError("points", f"the K-function needs at least 2 points, got {len(points)}")
    if points.edge.min() < 0 or points.edge.max() >= net.n_edges:
        raise ParameterError("points", "the points refer to edges the network does not have: place them on it")


def _check_intensity(intensity, net: LinearNetwork, points: NetworkPoints) -> np.ndarray:
    values = intensity(*points.xy(net)) if callable(intensity) else intensity
    try:
        lam = np.broadcast_to(np.asarray(values, dtype=np.float64), (len(points),))
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            "intensity", f"intensity must give one value per point ({len(points)}), got shape {np.shape(values)}"
        ) from exc
    if not np.isfinite(lam).all():
        raise ParameterError("intensity", "intensity values must be finite")
    if not (lam > 0).all():
        raise ParameterError("intensity", f"intensity values must be > 0 at every point, got minimum {lam.min()!r}")
    with np.errstate(over="ignore"):
        recip = 1.0 / lam
    if not np.isfinite(recip).all():
        raise ParameterError(
            "intensity",
            f"the intensity is too small for double precision at some points (smallest value {lam.min():.3g}); it "
            "must be in points per CRS unit of length",
        )
    return np.ascontiguousarray(recip)


def network_k_function(
    net: LinearNetwork,
    points: NetworkPoints,
    radii,
    correction: str = "Ang",
    intensity: Intensity = None,
    *,
    normalise: bool = True,
    normpower: int = 1,
    tolerance: float | None = None,
    use_numba: bool | None = None,
    progress: Progress = None,
) -> NetworkKFunction:
    """Estimate the K-function of a point pattern on a linear network (homogeneous or with a given intensity).

    See the module docstring for the estimators, their normalisation and how they match spatstat's
    ``linearK`` / ``linearKinhom``. Each point is the centre of one Dijkstra search up to the largest radius;
    the cost grows as ``n`` times (the part of the network within ``r_max`` plus ``n``).

    Args:
        net: the linear network.
        points: the pattern's locations on ``net`` (at least 2), e.g. from ``core.network.placement.place_points``.
        radii: distances ``r`` at which to estimate ``K``: finite, >= 0, strictly increasing, in coordinate
            units. See :func:`default_network_radii`.
        correction: "Ang" (Ang, Baddeley & Nair 2012; spatstat's default) or "none" (Okabe & Yamada 2001).
        intensity: ``None`` for the homogeneous estimator; otherwise the intensity ``lambda(x_i) > 0`` at each
            point (points per unit length), as an array of length ``n`` or a callable ``intensity(x, y) -> array``
            of the points' coordinates.
        normalise, normpower: inhomogeneous only, spatstat's normalisation (module docstring); the defaults are
            Kim & Lim's eq. 27.
        tolerance: a vertex this close to the perimeter ``d(u, .) = t`` counts as a perimeter point; ``None`` is
            spatstat's default, 0.001 times the shortest edge.
        use_numba: run the numba kernel (``True``), the numpy path (``False``), or numba if it is installed
            (``None``). Both give the same values up to rounding.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Returns:
        :class:`NetworkKFunction`.

    Raises:
        ParameterError: naming ``network``, ``points`` (fewer than 2, not on the network), ``radii``,
            ``correction``, ``intensity`` (non-positive or wrong length), ``normpower`` or ``tolerance``.
    """
    if correction not in CORRECTIONS:
        raise ParameterError("correction", f"unknown correction {correction!r} on a network; use Ang or none")
    if normpower not in (1, 2):
        raise ParameterError("normpower", f"normpower must be 1 or 2, got {normpower!r}")
    _check_points(net, points)
    r = check_radii(radii)
    if tolerance is None:
        tol = default_tolerance(net)
    else:
        tol = float(tolerance)
        if not (np.isfinite(tol) and tol > 0):
            raise ParameterError("tolerance", f"the tolerance must be a distance > 0, got {tolerance!r}")
    recip = np.zeros(0) if intensity is None else _check_intensity(intensity, net, points)
    n = len(points)
    report(progress, 0.0, "Preparing the network")
    order = np.lexsort((points.t, points.edge))  # points along each edge in turn: nearby in memory
    arrays = NetworkArrays.of(net, points.edge[order], points.t[order])
    recip_s = np.ascontiguousarray(recip[order]) if recip.size else recip
    ang = correction == "Ang"
    report(progress, 0.1, "Counting pairs of points")
    if resolve_use_numba(use_numba):
        increments = network_pair_sums_numba(net, arrays, r, ang, recip_s, tol, progress)
    else:
        increments = network_pair_sums_numpy(net, arrays, r, ang, recip_s, tol, progress)
    sums = np.cumsum(increments)
    length = net.total_length
    if intensity is None:
        k = length / (n * (n - 1.0)) * sums
    elif not normalise:
        k = sums / length
    elif normpower == 1:
        k = sums / float(recip.sum())
    else:
        k = sums / (length * (float(recip.sum()) / length) ** 2)
    if not np.all(np.isfinite(k)):
        raise ParameterError(
            "intensity", "the sums of 1 / (lambda_i lambda_j) overflow: is the intensity per unit length?"
        )
    report(progress, 1.0, "Done")
    return NetworkKFunction(
        r=r,
        K=k,
        correction=correction,
        n=n,
        inhomogeneous=intensity is not None,
        total_length=length,
        normalise=bool(normalise),
        normpower=int(normpower),
    )


# -- radii ---------------------------------------------------------------------------------------


def _peaks(net: LinearNetwork, d: np.ndarray) -> np.ndarray:
    """Per edge, the largest distance from the source of ``d`` (distances to the vertices) to a point of the edge."""
    dc, dd, length = d[net.edges[:, 0]], d[net.edges[:, 1]], net.lengths
    return np.where(dd > dc + length, dc + length, np.where(dc > dd + length, dd + length, 0.5 * (dc + dd + length)))


def _spatstat_value(net: LinearNetwork, v: int, peaks: np.ndarray) -> float:
    # spatstat's boundingradius at vertex v: the least, over the edges i at v, of max(l_i / 2, the largest peak of
    # the other edges); it is the eccentricity of v unless its farthest point lies on an edge at v.
    j1 = int(np.argmax(peaks))
    top1 = float(peaks[j1])
    if v not in (net.edges[j1, 0], net.edges[j1, 1]):
        return top1
    top2 = float(np.max(np.delete(peaks, j1), initial=-np.inf))
    return min(top1, max(0.5 * float(net.lengths[j1]), top2))


def network_bounding_radius(net: LinearNetwork) -> float:
    """spatstat's ``boundingradius`` of a linear network: the least, over its vertices ``v``, of the largest
    shortest-path distance from ``v`` to a point of the network (with spatstat's rule that an edge at ``v`` counts
    only half its length there; for a single edge this gives half its length). ``inf`` for a disconnected network.

    Computed by pruned search (Takes & Kosters 2011): the eccentricity ``e(v)`` is 1-Lipschitz along the network,
    so each Dijkstra search bounds every other vertex's; a vertex is searched only while its lower bound may
    beat the best value found. The value at ``v`` is ``e(v)`` whenever ``e(v)`` exceeds the longest edge, and at
    least ``e(v) / 2`` always.
    """
    if net.n_components > 1:
        return np.inf
    if net.n_edges == 1:
        return 0.5 * float(net.lengths[0])
    longest = float(np.max(net.lengths))
    lower = np.zeros(net.n_vertices)
    upper = np.full(net.n_vertices, np.inf)
    candidate = np.ones(net.n_vertices, dtype=bool)
    best = np.inf
    pick_lower = True
    while candidate.any():
        pool = np.flatnonzero(candidate)
        v = int(pool[np.argmin(lower[pool] if pick_lower else upper[pool])])
        pick_lower = not pick_lower
        d = dijkstra(net.graph, indices=v)
        peaks = _peaks(net, d)
        ecc = float(np.max(peaks))
        best = min(best, _spatstat_value(net, v, peaks))
        lower = np.maximum(lower, np.maximum(ecc - d, d))
        upper = np.minimum(upper, ecc + d)
        candidate[v] = False
        bound = np.where(lower > longest, lower, 0.5 * lower)  # a lower bound of the value at each vertex
        candidate &= bound < best
    return float(best)


def default_network_radii(net: LinearNetwork, count: int = 100) -> np.ndarray:
    """``count`` evenly spaced radii from 0 to spatstat's default ``r_max`` for ``linearK``.

    ``r_max = 0.98 * boundingradius(L)`` (:func:`network_bounding_radius`); for a disconnected network spatstat
    falls back to the diameter of the network's window, here the diagonal of the vertices' bounding box. (spatstat
    uses 513 radii; the count here is the caller's.)
    """
    if count < 2:
        raise ParameterError("count", f"count must be at least 2, got {count!r}")
    r_max = 0.98 * network_bounding_radius(net)
    if not np.isfinite(r_max):
        r_max = float(np.hypot(*np.ptp(net.vertices, axis=0)))
    return np.linspace(0.0, r_max, int(count))


# -- MISE ----------------------------------------------------------------------------------------


def network_mise(synthetic: NetworkKFunction, original: NetworkKFunction) -> float:
    """The MISE of a synthetic pattern's network K-function against the original's (Kim & Lim, Section 4.1 and
    Table 2): :func:`.mise.mise` over their radii, which must be the same, as must the correction and weighting."""
    if synthetic.r.shape != original.r.shape or not np.array_equal(synthetic.r, original.r):
        raise ParameterError("radii", "the two K-functions must be estimated at the same radii")
    if synthetic.correction != original.correction:
        raise ParameterError(
            "correction",
            f"the two K-functions use different corrections: {synthetic.correction}, {original.correction}",
        )
    if synthetic.inhomogeneous != original.inhomogeneous:
        raise ParameterError("intensity", "compare two homogeneous or two inhomogeneous K-functions, not one of each")
    return float(mise(original.r, synthetic.K, original.K))
