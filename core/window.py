"""The study region (observation window) of a point pattern: polygons with holes.

A window is the region ``W`` on which a point process is observed and synthesised, as spatstat's
``owin`` (Baddeley, Rubak & Turner 2015, ch. 3): one or more polygons, each with optional holes.
It is stored as a flat tuple of rings. Exterior rings run counter-clockwise (positive signed area)
and hole rings clockwise (negative signed area), so that

* the area of ``W`` is the sum of the rings' signed areas (shoelace formula), and
* a point lies in ``W`` when a ray from it crosses the rings an odd number of times (even-odd rule).

Both hold for valid geometries in the OGC simple-features sense: rings are simple (no
self-intersection), holes lie inside their exterior ring, and polygons do not overlap. The
constructors normalise orientation and closing vertices but do not repair invalid geometries.
All lengths are in the units of the coordinates (a projected CRS; areas in squared units).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy.spatial import cKDTree

from .errors import ParameterError
from .limits import WINDOW_MARGIN

#: Relative tolerance (of the window's coordinate scale) within which a point counts as on the boundary.
BOUNDARY_RTOL = 1e-12
#: Most points :meth:`Window.boundary_points` will generate.
MAX_BOUNDARY_POINTS = 20_000_000
#: Candidate (point, edge) pairs handled at once by the vectorised tests (bounds temporary memory).
_PAIR_CHUNK = 1 << 21
#: Extra pieces the boundary is cut into for the nearest-segment search (see ``_SegmentIndex``).
_DISTANCE_PIECES = 1024
#: Windows with at most this many edges measure distances to every edge directly (a rectangle's four edges cut
#: into ``_DISTANCE_PIECES`` pieces made the k-d tree search most of a kernel calibration's time).
_DIRECT_EDGES = 64


def _disc_edge_area(ax, ay, bx, by, r: float) -> np.ndarray:
    """Signed area of ``B_r(0) ∩ triangle(0, a, b)`` (positive when a -> b turns counter-clockwise about 0)."""
    dx, dy = bx - ax, by - ay
    qa = dx * dx + dy * dy  # > 0: disc_area skips zero-length edges
    qb = 2.0 * (ax * dx + ay * dy)
    qc = ax * ax + ay * ay - r * r
    disc = qb * qb - 4.0 * qa * qc
    root = np.sqrt(np.maximum(disc, 0.0))
    hit = disc > 0.0
    # the part of the edge inside the circle: parameters [s1, s2] of a + t (b - a), clipped to [0, 1]; none: s1 = s2
    s1 = np.where(hit, np.clip((-qb - root) / (2.0 * qa), 0.0, 1.0), 1.0)
    s2 = np.where(hit, np.clip((-qb + root) / (2.0 * qa), 0.0, 1.0), 1.0)
    p1x, p1y = ax + s1 * dx, ay + s1 * dy
    p2x, p2y = ax + s2 * dx, ay + s2 * dy

    def sector(ux, uy, vx, vy):
        return 0.5 * r * r * np.arctan2(ux * vy - uy * vx, ux * vx + uy * vy)

    return sector(ax, ay, p1x, p1y) + 0.5 * (p1x * p2y - p1y * p2x) + sector(p2x, p2y, bx, by)


def _ring_signed_area(ring: np.ndarray) -> float:
    """Shoelace signed area of an open ring, in coordinates relative to its first vertex."""
    x = ring[:, 0] - ring[0, 0]
    y = ring[:, 1] - ring[0, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def _normalise_ring(ring, what: str, counter_clockwise: bool) -> np.ndarray:
    """An open float64 ``(k, 2)`` ring without repeated consecutive vertices, in the wanted orientation."""
    try:
        a = np.array(ring, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError("window", f"{what} is not an array of (x, y) vertices") from exc
    if a.ndim != 2 or a.shape[1] != 2:
        raise ParameterError("window", f"{what} must be a (k, 2) array of (x, y) vertices, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ParameterError("window", f"{what} has NaN or infinite coordinates")
    if a.shape[0] > 1 and np.array_equal(a[0], a[-1]):
        a = a[:-1]  # closed ring: drop the repeated first vertex
    if a.shape[0] > 1:
        a = a[np.r_[True, np.any(a[1:] != a[:-1], axis=1)]]
        if a.shape[0] > 1 and np.array_equal(a[0], a[-1]):
            a = a[:-1]
    if a.shape[0] < 3 or np.unique(a, axis=0).shape[0] < 3:
        raise ParameterError("window", f"{what} has fewer than 3 distinct vertices")
    area = _ring_signed_area(a)
    extent = float(np.max(np.ptp(a, axis=0)))
    if not abs(area) > 1e-12 * extent * extent:
        raise ParameterError("window", f"{what} has zero area (its vertices are collinear)")
    if (area > 0) != counter_clockwise:
        a = a[::-1]
    return np.ascontiguousarray(a)


def _split_polygon(polygon, k: int):
    """``(exterior, holes)`` of one polygon given as ``(exterior, [hole, ...])`` or as a bare exterior ring."""
    if isinstance(polygon, (tuple, list)) and len(polygon) == 2:
        try:
            pair = np.ndim(polygon[0]) == 2
        except ValueError:  # a ragged first element: not a ring of (x, y) pairs
            pair = False
        if pair:
            holes = polygon[1]
            if holes is None:
                return polygon[0], ()
            if isinstance(holes, np.ndarray) and holes.ndim == 2:
                raise ParameterError("window", f"the holes of polygon {k} must be a list of rings, not one array")
            return polygon[0], holes
    return polygon, ()


def _segment_distance(px, py, ax, ay, bx, by) -> np.ndarray:
    """Euclidean distance from points ``p`` to segments ``[a, b]`` (broadcasting)."""
    dx = bx - ax
    dy = by - ay
    len2 = dx * dx + dy * dy
    t = ((px - ax) * dx + (py - ay) * dy) / np.where(len2 > 0, len2, 1.0)
    t = np.clip(t, 0.0, 1.0)
    return np.hypot(ax + t * dx - px, ay + t * dy - py)


def _as_points(x, y) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Flattened float64 coordinate arrays and their broadcast shape; refuses non-finite values."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    shape = x.shape
    px, py = x.ravel(), y.ravel()
    if not (np.isfinite(px).all() and np.isfinite(py).all()):
        raise ParameterError("points", "point coordinates contain NaN or infinite values")
    return px, py, shape


def _expand_pairs(counts: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For groups with ``counts[i]`` items starting at ``starts[i]``: the group of each item and its position."""
    group = np.repeat(np.arange(counts.size), counts)
    first = np.cumsum(counts) - counts
    position = np.arange(group.size) - first[group] + starts[group]
    return group, position


def _chunks(counts: np.ndarray, budget: int):
    """Consecutive slices of ``counts`` whose sums stay near ``budget`` (at least one item each)."""
    total = np.cumsum(counts)
    start = 0
    while start < counts.size:
        base = total[start - 1] if start else 0
        stop = int(np.searchsorted(total, base + budget, side="right"))
        stop = max(stop, start + 1)
        yield slice(start, stop)
        start = stop


@dataclass(frozen=True)
class _SlabIndex:
    """Ring edges bucketed by horizontal slabs: a point's ray crossings need only its slab's edges."""

    y0: float
    height: float
    n_slabs: int
    start: np.ndarray  # (n_slabs,) first position in ``edges`` of each slab
    count: np.ndarray  # (n_slabs,) number of edges registered in each slab
    edges: np.ndarray  # edge ids, grouped by slab

    def slab_of(self, y: np.ndarray) -> np.ndarray:
        return np.clip(((y - self.y0) / self.height).astype(np.int64), 0, self.n_slabs - 1)


@dataclass(frozen=True)
class _SegmentIndex:
    """The boundary cut into short pieces with a k-d tree on their midpoints (exact nearest-segment search).

    For a point ``p``, any piece ``q`` is at distance ``>= |p - mid_q| - half`` (``half`` is the
    largest half-length of a piece). Querying the ``k`` nearest midpoints and taking the exact
    distance to those pieces therefore gives the true minimum as soon as the ``k``-th midpoint
    distance minus ``half`` is no smaller than it; otherwise ``k`` grows.
    """

    ax: np.ndarray
    ay: np.ndarray
    bx: np.ndarray
    by: np.ndarray
    half: float
    tree: cKDTree


@dataclass(frozen=True, eq=False)
class Window:
    """Study region: one or more polygons, each with optional holes, stored as rings.

    Attributes:
        rings: each a ``(k, 2)`` float64 array, open (the first vertex is not repeated). Exterior
            rings are counter-clockwise, hole rings clockwise (the constructors
            :meth:`from_polygons`, :meth:`rectangle` and :meth:`around_points` normalise this;
            building a ``Window`` from rings directly trusts their orientation).

    Windows compare by identity (``eq=False``): the rings are arrays.
    """

    rings: tuple[np.ndarray, ...]

    def __post_init__(self) -> None:
        rings = []
        for k, ring in enumerate(self.rings):
            a = np.array(ring, dtype=np.float64)
            if a.ndim != 2 or a.shape[1] != 2 or a.shape[0] < 3:
                raise ParameterError("window", f"ring {k} must be a (k >= 3, 2) array of vertices, got {a.shape}")
            if not np.isfinite(a).all():
                raise ParameterError("window", f"ring {k} has NaN or infinite coordinates")
            a.setflags(write=False)
            rings.append(a)
        if not rings:
            raise ParameterError("window", "a window needs at least one polygon")
        object.__setattr__(self, "rings", tuple(rings))

    # -- constructors ---------------------------------------------------------------------------

    @classmethod
    def from_polygons(cls, polygons) -> Window:
        """Window from polygons given as ``[(exterior, [hole, ...]), ...]``.

        Each ring is an array-like of ``(x, y)`` vertices, closed (last vertex = first) or open, in
        either orientation; a polygon without holes may also be given as its bare exterior ring.
        Repeated consecutive vertices are dropped. Every hole must lie inside (or touch) its
        exterior ring.

        Raises:
            ParameterError("window"): a ring with fewer than 3 distinct vertices or zero area, a
                hole outside its exterior, or no polygon at all.
        """
        rings: list[np.ndarray] = []
        for k, polygon in enumerate(polygons):
            exterior, holes = _split_polygon(polygon, k)
            outer = _normalise_ring(exterior, f"the exterior ring of polygon {k}", counter_clockwise=True)
            inner = [
                _normalise_ring(hole, f"hole {j} of polygon {k}", counter_clockwise=False)
                for j, hole in enumerate(holes)
            ]
            if inner:
                shell = cls((outer,))
                for j, hole in enumerate(inner):
                    if not shell.contains(hole[:, 0], hole[:, 1]).all():
                        raise ParameterError("window", f"hole {j} of polygon {k} is not inside its exterior ring")
            rings.append(outer)
            rings.extend(inner)
        if not rings:
            raise ParameterError("window", "a window needs at least one polygon")
        return cls(tuple(rings))

    @classmethod
    def rectangle(cls, xmin: float, ymin: float, xmax: float, ymax: float) -> Window:
        """The rectangle ``[xmin, xmax] x [ymin, ymax]``."""
        values = [float(v) for v in (xmin, ymin, xmax, ymax)]
        if not all(math.isfinite(v) for v in values):
            raise ParameterError("window", "the rectangle's bounds must be finite")
        xmin, ymin, xmax, ymax = values
        if not (xmax > xmin and ymax > ymin):
            raise ParameterError("window", f"an empty rectangle: need xmin < xmax and ymin < ymax, got {values}")
        ring = np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]])
        return cls((ring,))

    @classmethod
    def around_points(cls, x, y, margin: float = WINDOW_MARGIN) -> Window:
        """The points' bounding box, enlarged on each side by ``margin * max(width, height)``.

        ``margin`` is a fraction (>= 0) of the larger side of the bounding box.
        """
        px, py, _ = _as_points(x, y)
        if px.size == 0:
            raise ParameterError("points", "there are no points to draw a window around")
        margin = float(margin)
        if not (math.isfinite(margin) and margin >= 0):
            raise ParameterError("margin", f"margin must be a finite number >= 0, got {margin!r}")
        xmin, xmax, ymin, ymax = px.min(), px.max(), py.min(), py.max()
        pad = margin * max(xmax - xmin, ymax - ymin)
        if not (xmax - xmin + 2 * pad > 0 and ymax - ymin + 2 * pad > 0):
            where = "all at one spot" if xmax == xmin and ymax == ymin else "all on one horizontal or vertical line"
            raise ParameterError(
                "points", f"the points' bounding box has zero area ({where}): give a study window explicitly"
            )
        return cls.rectangle(xmin - pad, ymin - pad, xmax + pad, ymax + pad)

    # -- geometry -------------------------------------------------------------------------------

    @cached_property
    def area(self) -> float:
        """Area of the window, holes subtracted (sum of the rings' signed areas), in squared units."""
        return float(sum(_ring_signed_area(ring) for ring in self.rings))

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` of all vertices."""
        allv = np.concatenate(self.rings)
        return float(allv[:, 0].min()), float(allv[:, 1].min()), float(allv[:, 0].max()), float(allv[:, 1].max())

    @property
    def has_holes(self) -> bool:
        """Whether any ring is a hole (clockwise)."""
        return any(_ring_signed_area(ring) < 0 for ring in self.rings)

    @cached_property
    def perimeter(self) -> float:
        """Total length of all rings (exteriors and holes)."""
        ax, ay, bx, by = self._edges
        return float(np.sum(np.hypot(bx - ax, by - ay)))

    def disc_area(self, x, y, radius: float) -> np.ndarray:
        """Area of ``B_radius(x, y) ∩ W`` at each centre (squared units), exactly.

        The area of a disc of radius r centred at c inside a polygon is the sum over the ring edges ``a -> b``
        of the signed area of the disc's intersection with the triangle ``(c, a, b)``: the edge's part inside
        the disc contributes its triangle, the parts outside the circular sector they subtend. Exterior rings
        run counter-clockwise and holes clockwise, so the signs subtract the holes.
        """
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        r = float(radius)
        if not (math.isfinite(r) and r > 0):
            raise ParameterError("radius", f"the radius must be a finite number > 0, got {radius!r}")
        total = np.zeros(np.broadcast(x, y).shape)
        for ax, ay, bx, by in zip(*self._edges):
            if ax != bx or ay != by:
                total += _disc_edge_area(ax - x, ay - y, bx - x, by - y, r)
        return np.clip(total, 0.0, math.pi * r * r)

    @cached_property
    def _edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """All ring edges ``a -> b`` as four coordinate arrays."""
        a = np.concatenate(self.rings)
        b = np.concatenate([np.roll(ring, -1, axis=0) for ring in self.rings])
        return a[:, 0].copy(), a[:, 1].copy(), b[:, 0].copy(), b[:, 1].copy()

    @cached_property
    def _tolerance(self) -> float:
        """Absolute on-boundary tolerance: ``BOUNDARY_RTOL`` times the coordinate scale."""
        xmin, ymin, xmax, ymax = self.bounds
        scale = max(abs(xmin), abs(ymin), abs(xmax), abs(ymax), xmax - xmin, ymax - ymin)
        return BOUNDARY_RTOL * scale

    @cached_property
    def _slabs(self) -> _SlabIndex:
        ax, ay, bx, by = self._edges
        tol = self._tolerance
        _, ymin, _, ymax = self.bounds
        y0 = ymin - tol
        span = ymax - ymin + 2 * tol
        lo = np.minimum(ay, by) - tol
        hi = np.maximum(ay, by) + tol
        n_slabs = int(min(max(ax.size, 1), 16384))
        while True:  # fewer slabs if long edges would be registered in too many of them
            height = span / n_slabs
            s0 = np.clip(((lo - y0) / height).astype(np.int64), 0, n_slabs - 1)
            s1 = np.clip(((hi - y0) / height).astype(np.int64), 0, n_slabs - 1)
            per_edge = s1 - s0 + 1
            if n_slabs == 1 or per_edge.sum() <= 32 * max(ax.size, 1024):
                break
            n_slabs //= 2
        edge_of, slab = _expand_pairs(per_edge, s0)
        order = np.argsort(slab, kind="stable")
        count = np.bincount(slab, minlength=n_slabs).astype(np.int64)
        start = np.cumsum(count) - count
        return _SlabIndex(y0, height, n_slabs, start, count, edge_of[order])

    @cached_property
    def _segments(self) -> _SegmentIndex:
        ax, ay, bx, by = self._edges
        length = np.hypot(bx - ax, by - ay)
        piece = max(float(length.sum()) / _DISTANCE_PIECES, float(length.max()) * 1e-12)
        n = np.maximum(np.ceil(length / piece).astype(np.int64), 1)
        edge, _ = _expand_pairs(n, np.zeros_like(n))
        j = np.arange(edge.size) - (np.cumsum(n) - n)[edge]
        t0, t1 = j / n[edge], (j + 1) / n[edge]
        dx, dy = bx - ax, by - ay
        pax, pay = ax[edge] + t0 * dx[edge], ay[edge] + t0 * dy[edge]
        pbx, pby = ax[edge] + t1 * dx[edge], ay[edge] + t1 * dy[edge]
        half = 0.5 * float(np.max(np.hypot(pbx - pax, pby - pay)))
        tree = cKDTree(np.column_stack([0.5 * (pax + pbx), 0.5 * (pay + pby)]))
        return _SegmentIndex(pax, pay, pbx, pby, half * (1 + 1e-12), tree)

    # -- queries --------------------------------------------------------------------------------

    def contains(self, x, y) -> np.ndarray:
        """Whether points lie in the window (even-odd rule over all rings); boundary points count as inside.

        A point within ``BOUNDARY_RTOL`` (1e-12) times the window's coordinate scale of a ring edge
        is on the boundary. Vectorised: each point is tested against the edges of its horizontal
        slab only.

        Returns:
            boolean array of the broadcast shape of ``x`` and ``y``.
        """
        px, py, shape = _as_points(x, y)
        out = np.zeros(px.size, dtype=bool)
        tol = self._tolerance
        xmin, ymin, xmax, ymax = self.bounds
        candidates = np.flatnonzero((px >= xmin - tol) & (px <= xmax + tol) & (py >= ymin - tol) & (py <= ymax + tol))
        if candidates.size:
            ax, ay, bx, by = self._edges
            slabs = self._slabs
            slab = slabs.slab_of(py[candidates])
            counts = slabs.count[slab]
            for part in _chunks(counts, _PAIR_CHUNK):
                idx = candidates[part]
                group, position = _expand_pairs(counts[part], slabs.start[slab[part]])
                e = slabs.edges[position]
                qx, qy = px[idx][group], py[idx][group]
                x1, y1, x2, y2 = ax[e], ay[e], bx[e], by[e]
                straddles = (y1 > qy) != (y2 > qy)
                denom = np.where(straddles, y2 - y1, 1.0)
                crossing = straddles & (qx < x1 + (qy - y1) * (x2 - x1) / denom)
                on_edge = _segment_distance(qx, qy, x1, y1, x2, y2) <= tol
                n = idx.size
                parity = np.bincount(group, weights=crossing, minlength=n).astype(np.int64) % 2 == 1
                touching = np.bincount(group, weights=on_edge, minlength=n) > 0
                out[idx] = parity | touching
        return out.reshape(shape)

    def distance_to_boundary(self, x, y, upper_bound: float | None = None) -> np.ndarray:
        """Euclidean distance from points to the nearest ring edge (inside or outside), in coordinate units.

        Exact (up to rounding): a k-d tree over short pieces of the boundary narrows the search,
        then distances to the candidate pieces are computed exactly (see ``_SegmentIndex``).
        Memory is bounded by working on chunks of points.

        Args:
            x, y: point coordinates (broadcast together).
            upper_bound: optional; points farther than this from the boundary get ``inf`` (much
                faster when only nearby points matter, as with ``cKDTree.query``'s bound).
        """
        px, py, shape = _as_points(x, y)
        if self._edges[0].size <= _DIRECT_EDGES:
            return self._distance_to_edges(px, py, upper_bound).reshape(shape)
        out = np.empty(px.size)
        seg = self._segments
        n_pieces = seg.ax.size
        chunk = 65536
        for start in range(0, px.size, chunk):
            pending = np.arange(start, min(start + chunk, px.size))
            if upper_bound is not None:
                reach = float(upper_bound) + seg.half
                dmid, _ = seg.tree.query(np.column_stack([px[pending], py[pending]]), k=1, distance_upper_bound=reach)
                far = ~(dmid <= reach)  # no piece midpoint within reach: every piece is farther than upper_bound
                out[pending[far]] = np.inf
                pending = pending[~far]
            k = min(8, n_pieces)
            while pending.size:
                qx, qy = px[pending], py[pending]
                dmid, j = seg.tree.query(np.column_stack([qx, qy]), k=k)
                dmid, j = dmid.reshape(pending.size, k), j.reshape(pending.size, k)
                d = _segment_distance(qx[:, None], qy[:, None], seg.ax[j], seg.ay[j], seg.bx[j], seg.by[j])
                best = d.min(axis=1)
                done = np.ones(pending.size, dtype=bool) if k >= n_pieces else dmid[:, -1] - seg.half >= best
                if upper_bound is not None:
                    best = np.where(best <= upper_bound, best, np.inf)
                out[pending[done]] = best[done]
                pending = pending[~done]
                k = min(4 * k, n_pieces)
        return out.reshape(shape)

    def _distance_to_edges(self, px: np.ndarray, py: np.ndarray, upper_bound: float | None) -> np.ndarray:
        """:meth:`distance_to_boundary` by the distance to every edge (windows of few edges), in chunks of points."""
        ax, ay, bx, by = self._edges
        out = np.empty(px.size)
        step = max(1, _PAIR_CHUNK // (4 * ax.size))
        for start in range(0, px.size, step):
            part = slice(start, start + step)
            d = _segment_distance(px[part, None], py[part, None], ax, ay, bx, by).min(axis=1)
            out[part] = d if upper_bound is None else np.where(d <= upper_bound, d, np.inf)
        return out

    def boundary_points(self, spacing: float) -> np.ndarray:
        """Every ring vertex plus points inserted along each edge, consecutive points ``<= spacing`` apart.

        An edge of length ``L`` is cut into ``ceil(L / spacing)`` equal pieces. Rings follow each
        other in order; within a ring the points run in the ring's direction, starting at its
        first vertex.

        Returns:
            ``(k, 2)`` float64 array.
        """
        spacing = float(spacing)
        if not (math.isfinite(spacing) and spacing > 0):
            raise ParameterError("spacing", f"spacing must be a finite number > 0, got {spacing!r}")
        ax, ay, bx, by = self._edges
        length = np.hypot(bx - ax, by - ay)
        total = float(np.sum(np.ceil(length / spacing)))
        if total > MAX_BOUNDARY_POINTS:
            raise ParameterError(
                "spacing", f"spacing {spacing!r} would put {total:.3g} points on the boundary; use a larger spacing"
            )
        n = np.maximum(np.ceil(length / spacing).astype(np.int64), 1)
        edge, _ = _expand_pairs(n, np.zeros_like(n))
        t = (np.arange(edge.size) - (np.cumsum(n) - n)[edge]) / n[edge]
        return np.column_stack([ax[edge] + t * (bx - ax)[edge], ay[edge] + t * (by - ay)[edge]])
