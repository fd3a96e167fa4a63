"""Building meshes (:class:`.mesh.Mesh`) for SPDE Gaussian fields.

* :func:`triangulate`: a good-quality Delaunay mesh of a window with an outer extension band, as
  R-INLA's ``inla.mesh.2d`` (boundary points, hexagonal lattices, Delaunay refinement and smoothing
  near the boundary);
* :func:`lattice`: the regular right-triangle lattice of Kim & Lim (Section 3.3.1 and Figure 1);
* :func:`estimate_nodes`: about how many nodes :func:`triangulate` makes, to refuse a mesh that is too
  fine before it is built.

Lengths are in coordinate units, areas in squared units.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import Delaunay, cKDTree

from .errors import ParameterError
from .jit import njit
from .mesh import Mesh, doubled_areas
from .window import Window

#: Largest mesh :func:`triangulate` and :func:`lattice` build.
MAX_NODES = 2_000_000
#: Rounds of Delaunay refinement and steps of Laplacian smoothing :func:`triangulate` applies near the boundary.
_REFINE_ROUNDS = 4
_SMOOTHING_STEPS = 3
#: Circumradius (in units of max_edge) above which a triangle in the window gets its circumcentre inserted.
_REFINE_RADIUS = 0.75
#: Points within this many spacings of the boundary take part in the refinement's triangulations.
_REACH = 5.0


def _hex_lattice(xmin: float, ymin: float, xmax: float, ymax: float, spacing: float) -> np.ndarray:
    """Equilateral-triangle lattice points of the given spacing covering a box (centred in it)."""
    dy = spacing * math.sqrt(3.0) / 2.0
    ny = int(math.floor((ymax - ymin) / dy)) + 1
    nx = int(math.floor((xmax - xmin) / spacing)) + 2
    y = ymin + (ymax - ymin - (ny - 1) * dy) / 2.0 + np.arange(ny) * dy
    x = xmin + (xmax - xmin - (nx - 2) * spacing) / 2.0 - 0.25 * spacing + np.arange(nx) * spacing
    xx = x[None, :] + np.where(np.arange(ny) % 2 == 1, 0.5 * spacing, 0.0)[:, None]
    yy = np.broadcast_to(y[:, None], xx.shape)
    pts = np.column_stack([xx.ravel(), yy.ravel()])
    return pts[(pts[:, 0] >= xmin) & (pts[:, 0] <= xmax)]


@njit(cache=True)
def _greedy_drop(n, first, second):
    """Drop ``second[k]`` whenever ``first[k]`` is kept, visiting pairs by increasing ``first``."""
    dropped = np.zeros(n, dtype=np.bool_)
    for k in range(first.shape[0]):
        if not dropped[first[k]]:
            dropped[second[k]] = True
    return dropped


def _drop_close(points: np.ndarray, radius: float) -> np.ndarray:
    """Keep a point unless it is within ``radius`` of an earlier kept point (input order is priority)."""
    if points.shape[0] < 2:
        return points
    pairs = cKDTree(points).query_pairs(radius, output_type="ndarray")
    if pairs.size == 0:
        return points
    pairs = np.sort(pairs, axis=1)
    pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]
    return points[~_greedy_drop(points.shape[0], pairs[:, 0].copy(), pairs[:, 1].copy())]


def _box_margin(points: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Distance from points inside a box to the box's nearest edge (negative outside)."""
    x, y = points[:, 0], points[:, 1]
    return np.minimum(np.minimum(x - box[0], y - box[1]), np.minimum(box[2] - x, box[3] - y))


def _apex_layer(window: Window, h: float) -> np.ndarray:
    """One row of points at height ``sqrt(3)/2 h`` inside each boundary piece of length >= h / 2.

    With the boundary points they form near-equilateral triangles along the boundary. Points
    within h / 2 of the boundary (near corners) are dropped, and so are points closer than
    0.6 h to an earlier one.
    """
    rows = []
    for ring in window.rings:  # interior on the left of every ring (exteriors CCW, holes CW)
        b = Window((ring,)).boundary_points(h)
        d = np.roll(b, -1, axis=0) - b
        length = np.hypot(d[:, 0], d[:, 1])
        use = length >= 0.5 * h
        normal = np.column_stack([-d[use, 1], d[use, 0]]) / length[use, None]
        rows.append(b[use] + 0.5 * d[use] + (math.sqrt(3.0) / 2.0) * h * normal)
    apex = np.concatenate(rows)
    apex = apex[window.contains(apex[:, 0], apex[:, 1])]
    apex = apex[window.distance_to_boundary(apex[:, 0], apex[:, 1], upper_bound=h) > 0.5 * h]
    return _drop_close(apex, 0.6 * h)


def _circumcircles(points: np.ndarray, simplices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Circumcentres ``(m, 2)`` and circumradii ``(m,)`` of triangles."""
    p = points[simplices]
    a = p[:, 1] - p[:, 0]
    b = p[:, 2] - p[:, 0]
    d = 2.0 * (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
    a2 = np.sum(a * a, axis=1)
    b2 = np.sum(b * b, axis=1)
    ux = (b[:, 1] * a2 - a[:, 1] * b2) / d
    uy = (a[:, 0] * b2 - b[:, 0] * a2) / d
    return p[:, 0] + np.column_stack([ux, uy]), np.hypot(ux, uy)


def _neighbour_mean(points: np.ndarray, simplices: np.ndarray) -> np.ndarray:
    """Mean position of each point's neighbours in a triangulation."""
    n = points.shape[0]
    pairs = simplices[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2).astype(np.int64)
    key = np.unique(np.minimum(pairs[:, 0], pairs[:, 1]) * np.int64(n) + np.maximum(pairs[:, 0], pairs[:, 1]))
    i, j = np.divmod(key, np.int64(n))
    degree = np.maximum(np.bincount(i, minlength=n) + np.bincount(j, minlength=n), 1)
    out = np.empty_like(points)
    for axis in (0, 1):
        total = np.bincount(i, weights=points[j, axis], minlength=n) + np.bincount(
            j, weights=points[i, axis], minlength=n
        )
        out[:, axis] = total / degree
    return out


def _in_window_points(window: Window, h: float) -> np.ndarray:
    """Steps 1-2 of :func:`triangulate`: the apex row and the hexagonal lattice filling the window."""
    xmin, ymin, xmax, ymax = window.bounds
    apex = _apex_layer(window, h)
    pts = _hex_lattice(xmin, ymin, xmax, ymax, h)
    pts = pts[window.contains(pts[:, 0], pts[:, 1])]
    pts = pts[window.distance_to_boundary(pts[:, 0], pts[:, 1], upper_bound=h) > 0.5 * h]
    if apex.shape[0] and pts.shape[0]:
        gap, _ = cKDTree(apex).query(pts, k=1, distance_upper_bound=0.75 * h)
        pts = pts[~(gap <= 0.75 * h)]
    return np.concatenate([apex, pts])


def _improve_near_boundary(window, h, big_h, box, fixed, inner, outer, centre):
    """Step 4 of :func:`triangulate`: refine, then smooth, the points within a few spacings of the boundary.

    Only the points within ``_REACH`` spacings of the boundary are triangulated here (the lattice
    beyond is regular already); those within 3 spacings may move, and triangles made of them only
    may be refined.
    """
    d_in = window.distance_to_boundary(inner[:, 0], inner[:, 1], upper_bound=_REACH * h)
    d_out = window.distance_to_boundary(outer[:, 0], outer[:, 1], upper_bound=_REACH * big_h)
    near_in, near_out = np.isfinite(d_in), np.isfinite(d_out)
    band_in, band_out = inner[near_in], outer[near_out]
    free_in, free_out = d_in[near_in] < 3.0 * h, d_out[near_out] < 3.0 * big_h
    n_fixed = fixed.shape[0]
    # Delaunay refinement (Chew 1989; Shewchuk 2002): insert the circumcentre of every triangle in the
    # window whose circumradius exceeds 0.75 h (an equilateral triangle of side h has h / sqrt(3)),
    # unless it falls within h / 2 of the boundary (which keeps every boundary piece a mesh edge).
    for _ in range(_REFINE_ROUNDS):
        points = np.concatenate([fixed, band_in, band_out])
        simplices = Delaunay(points - centre).simplices
        movable = np.concatenate([np.ones(n_fixed, dtype=bool), free_in, np.zeros(band_out.shape[0], dtype=bool)])
        ccentre, radius = _circumcircles(points, simplices)
        big = (radius > _REFINE_RADIUS * h) & movable[simplices].all(axis=1)
        cent = points[simplices[big]].mean(axis=1)
        ccentre, radius = ccentre[big], radius[big]
        keep = window.contains(cent[:, 0], cent[:, 1]) & window.contains(ccentre[:, 0], ccentre[:, 1])
        ccentre, radius = ccentre[keep], radius[keep]
        keep = window.distance_to_boundary(ccentre[:, 0], ccentre[:, 1], upper_bound=h) > 0.5 * h
        ccentre = ccentre[keep][np.argsort(-radius[keep], kind="stable")]  # largest circles first
        if ccentre.shape[0] == 0:
            break
        ccentre = _drop_close(ccentre, 0.5 * h)
        band_in = np.concatenate([band_in, ccentre])
        free_in = np.concatenate([free_in, np.ones(ccentre.shape[0], dtype=bool)])
    # constrained Laplacian smoothing: a point moves to the mean of its neighbours if it stays on
    # its side of the boundary at its distance (> h / 2 inside, > h outside) and inside the box
    for _ in range(_SMOOTHING_STEPS):
        points = np.concatenate([fixed, band_in, band_out])
        mean = _neighbour_mean(points, Delaunay(points - centre).simplices)
        moved = mean[n_fixed : n_fixed + band_in.shape[0]][free_in]
        ok = window.contains(moved[:, 0], moved[:, 1])
        ok &= window.distance_to_boundary(moved[:, 0], moved[:, 1], upper_bound=h) > 0.5 * h
        band_in = band_in.copy()
        band_in[np.flatnonzero(free_in)[ok]] = moved[ok]
        if band_out.shape[0]:
            moved = mean[n_fixed + band_in.shape[0] :][free_out]
            ok = ~window.contains(moved[:, 0], moved[:, 1])
            ok &= window.distance_to_boundary(moved[:, 0], moved[:, 1], upper_bound=2 * h) > h
            ok &= _box_margin(moved, box) > 0.25 * big_h
            band_out = band_out.copy()
            band_out[np.flatnonzero(free_out)[ok]] = moved[ok]
    outer = outer.copy()
    outer[near_out] = band_out
    return np.concatenate([inner[~near_in], band_in]), outer


def estimate_nodes(window: Window, max_edge: float, extension: float | None = None, outer: float | None = None):
    """About how many nodes :func:`triangulate` makes (its lattices and boundary points, before refinement), from
    the window's area and perimeter alone: for refusing a mesh that is too fine before it is built."""
    h = float(max_edge)
    xmin, ymin, xmax, ymax = window.bounds
    width, height = xmax - xmin, ymax - ymin
    ext = 0.2 * max(width, height) if extension is None else float(extension)
    big_h = 3.0 * h if outer is None else float(outer)
    cell = math.sqrt(3.0) / 2.0  # area per point of a hexagonal lattice of spacing 1
    return (
        window.area / (cell * h * h)
        + window.perimeter / h
        + (width + 2 * ext) * (height + 2 * ext) / (cell * big_h * big_h)
        + 2 * (width + height + 4 * ext) / big_h
    )


def triangulate(
    window: Window, max_edge: float, extension: float | None = None, outer_max_edge: float | None = None
) -> Mesh:
    """A good-quality Delaunay mesh of the window with an outer extension band (as R-INLA's ``inla.mesh.2d``).

    Construction (distances in coordinate units; ``h = max_edge``, ``H = outer_max_edge``):

    1. the boundary: every ring vertex plus points so consecutive points are ``<= h`` apart
       (:meth:`Window.boundary_points`); these points never move;
    2. inside the window: a row of points at height ``sqrt(3)/2 h`` over the boundary pieces, then
       an equilateral (hexagonal) lattice of spacing ``h``, keeping points more than ``h / 2`` from
       the boundary and ``0.75 h`` from that row;
    3. outside: a hexagonal lattice of spacing ``H`` in the band between the window and its
       bounding box enlarged by ``extension`` (points more than ``max(h, H / 2)`` from the window,
       more than ``H / 2`` inside the box; holes and gaps between polygons get them too), and
       points ``<= H`` apart along the box's edges;
    4. near the boundary: Delaunay refinement (circumcentres of the window's triangles with
       circumradius above ``0.75 h``) and three steps of constrained Laplacian smoothing;
    5. the Delaunay triangulation (scipy.spatial / Qhull) of all points.

    Every point of the window lies in the mesh: the window's vertices are nodes, so the mesh holds
    their convex hull. No node other than the boundary points comes within ``h / 2`` of the
    boundary while boundary pieces are ``<= h`` long, so every piece's diametral circle is empty:
    it is a mesh edge (a Gabriel edge), and the triangles follow the boundary wherever the window
    has no corner sharper than 90 degrees. Triangles in the window then have edges of at most
    about ``1.4 h`` and angles of at least about 30 degrees (the tests check 1.5 h and 20
    degrees); corners sharper than that, and rings whose vertices are closer than ``h``, give
    smaller angles there. The outer band, which keeps the SPDE's boundary effects away from the
    window (Lindgren et al. 2011, Section 2.3: they reach about one range), is coarser. An
    extension below ``h / 2`` gives no band.

    Args:
        window: the study region.
        max_edge: target edge length ``h`` inside the window (> 0).
        extension: width of the outer band (>= 0); default ``0.2 * max(width, height)`` of the window.
        outer_max_edge: spacing ``H`` in the band (>= max_edge); default ``3 * max_edge``.

    Raises:
        ParameterError("max_edge"): max_edge <= 0, or a mesh of more than 2,000,000 nodes.
    """
    h = float(max_edge)
    if not (math.isfinite(h) and h > 0):
        raise ParameterError("max_edge", f"max_edge must be a finite number > 0, got {max_edge!r}")
    xmin, ymin, xmax, ymax = window.bounds
    width, height = xmax - xmin, ymax - ymin
    ext = 0.2 * max(width, height) if extension is None else float(extension)
    if not (math.isfinite(ext) and ext >= 0):
        raise ParameterError("extension", f"extension must be a finite number >= 0, got {extension!r}")
    big_h = 3.0 * h if outer_max_edge is None else float(outer_max_edge)
    if not (math.isfinite(big_h) and big_h >= h):
        raise ParameterError("outer_max_edge", f"outer_max_edge must be finite and >= max_edge, got {outer_max_edge!r}")
    box = (xmin - ext, ymin - ext, xmax + ext, ymax + ext)
    cell = math.sqrt(3.0) / 2.0  # area per point of a hexagonal lattice of spacing 1
    estimate = estimate_nodes(window, h, ext, big_h)
    if estimate > MAX_NODES or width * height / (cell * h * h) > 5 * MAX_NODES:
        raise ParameterError(
            "max_edge",
            f"max_edge {h:g} would give a mesh of about {estimate:,.0f} nodes (at most {MAX_NODES:,}); "
            "use a larger max_edge",
        )
    scale = max(abs(v) for v in box) + max(width, height)
    fixed = [window.boundary_points(h)]  # 1.
    inner = _in_window_points(window, h)  # 2.
    outer = np.zeros((0, 2))
    if ext > 0.5 * h:  # 3.
        outer = _hex_lattice(*box, big_h)
        outer = outer[_box_margin(outer, box) > 0.5 * big_h]
        outer = outer[~window.contains(outer[:, 0], outer[:, 1])]
        gap = max(h, 0.5 * big_h)
        outer = outer[window.distance_to_boundary(outer[:, 0], outer[:, 1], upper_bound=gap) > gap]
        edge = Window.rectangle(*box).boundary_points(big_h)
        edge = edge[~window.contains(edge[:, 0], edge[:, 1])]
        fixed.append(edge[window.distance_to_boundary(edge[:, 0], edge[:, 1], upper_bound=h) > 0.5 * h])
    fixed_pts = _drop_close(np.concatenate(fixed), 1e-9 * scale)  # shared vertices of touching rings
    centre = np.array([(xmin + xmax) / 2.0, (ymin + ymax) / 2.0])  # Qhull works in centred coordinates
    inner, outer = _improve_near_boundary(window, h, big_h, box, fixed_pts, inner, outer, centre)  # 4.
    points = np.concatenate([fixed_pts, inner, outer])
    simplices = Delaunay(points - centre).simplices.astype(np.int64)  # 5.
    e = points[simplices[:, [1, 2, 0]]] - points[simplices]
    flat = ~(np.abs(doubled_areas(points, simplices)) > 1e-12 * np.max(np.sum(e * e, axis=2), axis=1))
    simplices = simplices[~flat]  # Qhull may return flat triangles on collinear hull points
    used = np.zeros(points.shape[0], dtype=bool)
    used[simplices.ravel()] = True  # and may leave (near-)duplicate points out
    renumber = np.cumsum(used) - 1
    return Mesh(points[used], renumber[simplices])


def lattice(xmin: float, ymin: float, xmax: float, ymax: float, nx: int, ny: int) -> Mesh:
    """The regular right-triangle lattice of Kim & Lim (Section 3.3.1, Figure 1).

    The rectangle ``[xmin, xmax] x [ymin, ymax]`` is cut into ``nx x ny`` equal cells (so there are
    ``nx + 1`` knots per row; Kim & Lim count knots, ``n_x = nx + 1``), and each cell into two
    triangles by its diagonal from lower-left to upper-right: ``(nx + 1) (ny + 1)`` nodes and
    ``2 nx ny`` triangles. Node ``(i, j)`` (column i, row j) has index ``j * (nx + 1) + i``.
    """
    values = [float(v) for v in (xmin, ymin, xmax, ymax)]
    if not all(math.isfinite(v) for v in values) or not (values[2] > values[0] and values[3] > values[1]):
        raise ParameterError("window", f"need finite xmin < xmax and ymin < ymax, got {values}")
    for name, value in (("nx", nx), ("ny", ny)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise ParameterError(name, f"{name} must be an integer >= 1, got {value!r}")
    nx, ny = int(nx), int(ny)
    if (nx + 1) * (ny + 1) > MAX_NODES:
        raise ParameterError("nx", f"a lattice of {(nx + 1) * (ny + 1):,} nodes is too large (at most {MAX_NODES:,})")
    xs = np.linspace(values[0], values[2], nx + 1)
    ys = np.linspace(values[1], values[3], ny + 1)
    gx, gy = np.meshgrid(xs, ys)
    nodes = np.column_stack([gx.ravel(), gy.ravel()])
    j, i = np.divmod(np.arange(nx * ny), nx)
    a = j * (nx + 1) + i  # lower-left corner of each cell
    b, c, d = a + 1, a + nx + 2, a + nx + 1
    triangles = np.concatenate([np.column_stack([a, b, c]), np.column_stack([a, c, d])])
    return Mesh(nodes, triangles)
