"""A linear network as the domain of Kim & Lim's point synthesizers (Kim & Lim 2025, Section 4.2).

:class:`NetworkDomain` gives a synthesizer what :class:`..synthesis.domain.Domain` asks of a planar window where
it applies to a network: the measure ``|L|`` (total length), membership of points (on a line of the network, within
a tolerance) and a partition into cells, :class:`NetworkPartition`, with lengths in place of areas. The
Gaussian-kernel geometry of the kernel synthesizer (``diameter``, ``gaussian_mass`` ...) has no network form here:
that synthesizer is not offered on networks.

**Cells.** The network is cut into pieces of at most ``resolution`` (:func:`.pieces.discretise`: each edge into
``ceil(length / resolution)`` equal pieces; Kim & Lim's "subsegments" of at most 50 m). An edge shorter than the
resolution stays one piece, so a street layer drawn with many short segments has short pieces, and the Laplace
synthesizer's sensitivity ``1/|S_p| + 1/|S_q|`` is set by the two shortest. As the planar cells merge slivers
(:func:`..synthesis.grid_cells.grid_partition`), a piece shorter than ``min_piece_fraction x resolution`` is merged
with a neighbouring piece (one sharing an end): the shortest region below the threshold joins the shortest region
it touches, again until none is left below it or touches another, so that chains of short pieces become regions of
about the threshold's length. The merged pieces are the *regions* ``S_i``; ``min_piece_fraction = 0`` keeps every
piece (the paper's construction).

**Knots.** The ends of the pieces (the network's vertices and the cuts inside edges) are the knots of Kim & Lim's
piecewise-linear LGCP on a network ("the linear interpolation of the two endpoints of the edge", Section 3.3.1):
:attr:`NetworkPartition.piece_knots` and :attr:`NetworkPartition.knots`.

**Sampling.** :func:`sample_on_pieces` draws a Poisson process on the pieces, with an intensity constant on each
piece or log-linear between its ends, by thinning. Positions are drawn on a public grid of
:data:`POSITION_STEPS` points per piece (a step of the piece's length / 2^20: 0.05 mm on a 50 m piece), so the
released locations are grid positions along the network lines, chosen by the release's randomness alone: they carry
no low-order bits of any original location (the concern of :func:`..mechanisms.snap_to_grid`).

Lengths are in the network's coordinate units; intensities in points per unit length.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from .network import RELATIVE_TOLERANCE, LinearNetwork, NetworkPoints
from .pieces import Pieces, discretise
from .placement import place_points

#: Grid positions per piece on which synthetic points are released (:func:`sample_on_pieces`).
POSITION_STEPS = 2**20


def check_resolution(net: LinearNetwork, resolution: float) -> float:
    """``resolution`` as a float, refused unless it cuts at least one edge of ``net``.

    A resolution at least as long as every edge cuts nothing: the pieces would be the edges as drawn, whatever
    the resolution says (usually a resolution in the wrong units).

    Raises:
        ParameterError("resolution"): not a finite distance > 0, or not below the longest edge.
    """
    try:
        resolution = float(resolution)
    except (TypeError, ValueError):
        raise ParameterError("resolution", f"the resolution must be a distance, got {resolution!r}") from None
    if not (math.isfinite(resolution) and resolution > 0):
        raise ParameterError("resolution", f"the resolution must be a finite distance > 0, got {resolution!r}")
    longest = float(net.lengths.max())
    if resolution >= longest:
        raise ParameterError(
            "resolution",
            f"every line of the network is shorter than the resolution {resolution:g} (the longest is {longest:.6g}, "
            f"the shortest {float(net.lengths.min()):.6g}), so nothing would be cut and the pieces would be the "
            f"network's {net.n_edges} segments as drawn. Give a resolution below {longest:.6g} in the network's "
            "units (check the units: Kim & Lim use 50 m)",
        )
    return resolution


@dataclass(frozen=True, eq=False)
class NetworkDomain:
    """A linear network as the domain of a point synthesizer (see the module docstring).

    Attributes:
        net: the network.
        tolerance: a point (x, y) lies on the network when it is at most this far from a line of it (coordinate
            units); ``None``: ``1e-9`` times the diagonal of the network's bounding box, which rounding alone stays
            within.
    """

    net: LinearNetwork
    tolerance: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.net, LinearNetwork):
            raise ParameterError("network", "a NetworkDomain needs a core.network.LinearNetwork")
        if self.tolerance is None:
            extent = float(np.hypot(*np.ptp(self.net.vertices, axis=0)))
            object.__setattr__(self, "tolerance", RELATIVE_TOLERANCE * max(extent, float(self.net.lengths.max())))
        elif not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise ParameterError("tolerance", f"the tolerance must be a finite distance >= 0, got {self.tolerance!r}")

    @property
    def measure(self) -> float:
        """``|L|``, the total length of the network."""
        return self.net.total_length

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        lo, hi = self.net.vertices.min(axis=0), self.net.vertices.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])

    def distance(self, x, y) -> np.ndarray:
        """Distance from each point to the nearest line of the network."""
        return place_points(self.net, x, y)[1]

    def contains(self, x, y) -> np.ndarray:
        """Whether points lie on the network (within :attr:`tolerance`)."""
        return self.distance(x, y) <= self.tolerance

    def place(self, x, y, name: str = "points") -> NetworkPoints:
        """The locations on the network of points that lie on it (within :attr:`tolerance`).

        Raises:
            ParameterError(name): a missing coordinate, or points off the network.
        """
        try:
            points, moved = place_points(self.net, x, y)
        except ParameterError as exc:
            raise ParameterError(name, str(exc)) from None
        off = moved > self.tolerance
        if np.any(off):
            raise ParameterError(
                name,
                f"{int(off.sum())} of the {moved.size} {name} lie off the network (the farthest "
                f"{float(moved.max()):.3g} from every line); place them on it first",
            )
        return points

    def check_points(self, x, y, name: str = "points") -> tuple[np.ndarray, np.ndarray]:
        """The points as float64 arrays, refused if any lies off the network (see :meth:`place`)."""
        self.place(x, y, name)
        return np.asarray(x, dtype=np.float64).ravel(), np.asarray(y, dtype=np.float64).ravel()

    def check_locations(self, points, name: str = "points") -> NetworkPoints:
        """``points`` if they are locations on this network's edges.

        Raises:
            ParameterError(name): not :class:`.network.NetworkPoints`, or on edges this network does not have.
        """
        if not isinstance(points, NetworkPoints):
            raise ParameterError(name, f"the {name} must be locations on the network (NetworkPoints)")
        if len(points) and (points.edge.min() < 0 or points.edge.max() >= self.net.n_edges):
            raise ParameterError(name, f"some {name} refer to edges the network does not have: place them on it")
        return points

    def partition(self, resolution: float, min_piece_fraction: float = 0.25) -> NetworkPartition:
        """The network cut into pieces of at most ``resolution``, pieces shorter than ``min_piece_fraction x
        resolution`` merged with a neighbour: the cells ``S_i`` of Kim & Lim's eq. 12 on a network.

        Raises:
            ParameterError("resolution"): see :func:`check_resolution`; or more pieces than
                :data:`.pieces.MAX_PIECES`.
            ParameterError("min_piece_fraction"): not in [0, 1).
        """
        resolution = check_resolution(self.net, resolution)
        if isinstance(min_piece_fraction, bool) or not (
            isinstance(min_piece_fraction, (int, float)) and 0 <= min_piece_fraction < 1
        ):
            raise ParameterError(
                "min_piece_fraction", f"min_piece_fraction must be in [0, 1), got {min_piece_fraction!r}"
            )
        pieces = discretise(self.net, resolution)
        ends, knots = piece_knots(self.net, pieces)
        region, notes = _merge_short(ends, pieces.lengths, float(min_piece_fraction) * resolution)
        measure = np.bincount(region, weights=pieces.lengths)
        return NetworkPartition(self, pieces, resolution, region, measure, ends, knots, notes)

    def grid_partition(
        self,
        cell_size: float | None = None,
        shape: tuple[int, int] | None = None,
        origin: tuple[float, float] | None = None,
        min_cell_fraction: float = 0.25,
    ) -> NetworkPartition:
        """:meth:`partition` under the name of :meth:`..synthesis.domain.PlanarDomain.grid_partition`: the cell size
        is the resolution; a network has no grid ``shape`` or ``origin``.

        Raises:
            ParameterError("shape" / "origin"): given; otherwise as :meth:`partition`.
        """
        if shape is not None:
            raise ParameterError("shape", "a network is cut into pieces of at most a resolution, not into a grid")
        if origin is not None:
            raise ParameterError("origin", "a network is cut into pieces of at most a resolution: it has no origin")
        if cell_size is None:
            raise ParameterError("resolution", "give the resolution, the longest piece of the network")
        return self.partition(cell_size, min_cell_fraction)


def piece_knots(net: LinearNetwork, pieces: Pieces) -> tuple[np.ndarray, NetworkPoints]:
    """The knots of the pieces: ``(ends, knots)``, with ``ends[p] = (start knot, end knot)`` of piece ``p`` (in the
    direction of its edge) and ``knots`` their locations. Knots ``0 .. V'-1`` are the network's vertices that lie on
    an edge (in order), then the cuts inside the edges, edge by edge."""
    used = np.unique(net.edges)
    vertex_knot = np.full(net.n_vertices, -1, dtype=np.int64)
    vertex_knot[used] = np.arange(used.size)
    within = np.arange(len(pieces), dtype=np.int64) - pieces.first[pieces.edge]
    count = pieces.count[pieces.edge]
    cut_base = used.size + pieces.first[pieces.edge] - pieces.edge  # knot of the edge's first cut, minus 1
    start = np.where(within == 0, vertex_knot[net.edges[pieces.edge, 0]], cut_base + within - 1)
    end = np.where(within == count - 1, vertex_knot[net.edges[pieces.edge, 1]], cut_base + within)
    interior = within > 0
    vertex_points = NetworkPoints.at_vertices(net, used)
    knots = NetworkPoints(
        np.concatenate([vertex_points.edge, pieces.edge[interior]]),
        np.concatenate([vertex_points.t, pieces.t0[interior]]),
    )
    return np.column_stack([start, end]), knots


def _merge_short(ends: np.ndarray, lengths: np.ndarray, threshold: float) -> tuple[np.ndarray, tuple[str, ...]]:
    """Region of each piece after merging short regions (module docstring), and notes on what was done."""
    m = lengths.size
    small = np.flatnonzero(lengths < threshold)
    if threshold <= 0 or small.size == 0:
        return np.arange(m, dtype=np.int64), ()
    flat = ends.ravel()
    n_knots = int(flat.max()) + 1
    at_knot = np.argsort(flat, kind="stable") // 2  # the pieces at each knot, knot by knot
    ptr = np.concatenate([[0], np.cumsum(np.bincount(flat, minlength=n_knots))])
    parent: dict[int, int] = {}  # a region's root is the piece it was merged into, followed to the end
    size: dict[int, float] = {}
    knots: dict[int, set] = {}

    def find(p: int) -> int:
        while p in parent:
            p = parent[p]
        return p

    def length_of(r: int) -> float:
        return size.get(r, float(lengths[r]))

    heap = [(float(lengths[p]), int(p)) for p in small]
    heapq.heapify(heap)
    alone = 0
    while heap:
        length, r = heapq.heappop(heap)
        if r in parent or length != length_of(r) or length >= threshold:
            continue  # merged already, or a stale entry
        mine = knots.pop(r, None) or {int(ends[r, 0]), int(ends[r, 1])}
        near = {find(int(q)) for k in mine for q in at_knot[ptr[k] : ptr[k + 1]]}
        near.discard(r)
        if not near:
            alone += 1
            knots[r] = mine
            continue
        target = min(near, key=lambda q: (length_of(q), q))
        parent[r] = target
        size[target] = length_of(target) + length
        theirs = knots.pop(target, None) or {int(ends[target, 0]), int(ends[target, 1])}
        knots[target] = theirs | mine if len(theirs) >= len(mine) else mine | theirs
        if size[target] < threshold:
            heapq.heappush(heap, (size[target], target))
    roots = np.arange(m, dtype=np.int64)
    for p in parent:
        roots[p] = find(p)
    _, region = np.unique(roots, return_inverse=True)
    notes = []
    if parent:
        notes.append(f"{len(parent)} piece(s) shorter than the minimum were merged with a neighbouring piece")
    if alone:
        notes.append(f"{alone} short part(s) of the network touch no other piece and stay as they are")
    return region.astype(np.int64).reshape(-1), tuple(notes)


@dataclass(frozen=True, eq=False)
class NetworkPartition:
    """The pieces of a network merged into regions: the cells ``S_i`` of a piecewise constant intensity on a
    network (Kim & Lim eq. 12, lengths for areas). A :class:`..synthesis.domain.Partition`.

    Attributes:
        domain: the network domain.
        pieces: the pieces (:class:`.pieces.Pieces`).
        resolution: the longest piece (coordinate units).
        region: (m,) the region of each piece.
        region_measure: length ``|S_i|`` of each region.
        piece_knots: (m, 2) the knots at the start and the end of each piece (:func:`piece_knots`).
        knots: the knots' locations.
        notes: remarks on the construction (merged pieces).
    """

    domain: NetworkDomain
    pieces: Pieces
    resolution: float
    region: np.ndarray
    region_measure: np.ndarray
    piece_knots: np.ndarray
    knots: NetworkPoints
    notes: tuple[str, ...] = field(default=())

    @property
    def net(self) -> LinearNetwork:
        return self.domain.net

    @property
    def n_regions(self) -> int:
        return int(self.region_measure.size)

    @property
    def n_knots(self) -> int:
        return len(self.knots)

    @property
    def merged(self) -> int:
        """Pieces merged into another piece's region."""
        return len(self.pieces) - self.n_regions

    @cached_property
    def knot_weights(self) -> np.ndarray:
        """Half the length of the pieces at each knot (the 1-D dual cells of Kim & Lim's Appendix C.2); they sum to
        ``|L|``."""
        half = 0.5 * self.pieces.lengths
        return np.bincount(self.piece_knots.ravel(), weights=np.repeat(half, 2), minlength=self.n_knots)

    def locate_points(self, points: NetworkPoints) -> np.ndarray:
        """The region of each location (a location on a cut belongs to the piece after it)."""
        points = self.domain.check_locations(points)
        return self.region[self.pieces.locate(points)]

    def locate(self, x, y) -> np.ndarray:
        """The region of each point, ``-1`` for a point off the network."""
        points, moved = place_points(self.net, x, y)
        return np.where(moved <= self.domain.tolerance, self.region[self.pieces.locate(points)], -1)

    def counts(self, points: NetworkPoints) -> np.ndarray:
        """Number of locations in each region (confidential when the locations are)."""
        return np.bincount(self.locate_points(points), minlength=self.n_regions).astype(np.int64)

    def region_counts(self, x, y) -> np.ndarray:
        """Number of points in each region; refuses points off the network (ParameterError("points"))."""
        return self.counts(self.domain.place(x, y))

    def sample_points(self, rng: np.random.Generator, intensity) -> NetworkPoints:
        """A Poisson process with intensity ``intensity[i]`` (points per unit length) on region ``i``, released on the
        grid of :func:`sample_on_pieces`; ordered by edge and position."""
        intensity = np.asarray(intensity, dtype=np.float64)
        if intensity.shape != (self.n_regions,) or not np.all(np.isfinite(intensity)) or np.any(intensity < 0):
            raise ParameterError("intensity", "the intensity must be one finite value >= 0 per region")
        return sample_on_pieces(rng, self.pieces, intensity[self.region])

    def sample(self, rng: np.random.Generator, intensity) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`sample_points` as coordinates ``(x, y)`` on the network lines."""
        return self.sample_points(rng, intensity).xy(self.net)


def sample_on_pieces(rng: np.random.Generator, pieces: Pieces, start, end=None) -> NetworkPoints:
    """A Poisson process on the pieces: intensity ``start[p]`` on piece ``p`` (``end=None``), or log-linear from
    ``start[p]`` at its start to ``end[p]`` at its end (both > 0; points per unit length).

    ``Poisson(max(start, end) x length)`` candidates per piece (:func:`..mechanisms.poisson_counts`), each at a
    uniform grid position ``u = (j + 1/2) / POSITION_STEPS`` of the piece, kept with probability
    ``lambda(u) / max(start, end)`` (thinning; none are dropped for a constant intensity): the Poisson process of
    the intensity at the grid positions, exact up to the grid. Counts and positions come from
    :mod:`..mechanisms`.

    Returns:
        the locations, ordered by edge and position (the order carries no information).
    """
    start = np.asarray(start, dtype=np.float64)
    top = start if end is None else np.maximum(start, np.asarray(end, dtype=np.float64))
    counts = mechanisms.poisson_counts(rng, top * pieces.lengths)
    piece = np.repeat(np.arange(len(pieces), dtype=np.int64), counts)
    u = (np.floor(mechanisms.uniforms(rng, piece.size) * POSITION_STEPS) + 0.5) / POSITION_STEPS
    if end is not None:
        log_start, log_end = np.log(start[piece]), np.log(np.asarray(end, dtype=np.float64)[piece])
        keep = mechanisms.uniforms(rng, piece.size) < np.exp((1.0 - u) * log_start + u * log_end - np.log(top[piece]))
        piece, u = piece[keep], u[keep]
    points = pieces.at(piece, u)
    return points.take(np.lexsort((points.t, points.edge)))
