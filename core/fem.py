"""Finite-element quantities of a mesh's piecewise-linear basis (:class:`.mesh.Mesh`).

* the finite-element matrices of Walder App. A.1 / Lindgren, Rue & Lindström (2011) eq. (10): the lumped
  mass ``c_i = int phi_i`` (the diagonal ``C~``) and the stiffness ``G_ij = int grad phi_i . grad phi_j``;
* the integration weights ``alpha_i = int_W phi_i`` of the likelihood's quadrature
  ``int_W lambda(s) ds ~ sum_i alpha_i lambda(s_i)`` (Simpson et al. 2016; Walder eq. 30). For a
  triangle inside ``W`` each corner gets a third of its area, which is the area of the corner's
  barycentric dual cell; triangles cut by the window's boundary are integrated exactly (:mod:`.clipping`).

Lengths are in coordinate units, areas in squared units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from .clipping import triangle_window_moments
from .window import Window

if TYPE_CHECKING:
    from .mesh import Mesh


def fem_matrices(mesh: Mesh) -> tuple[np.ndarray, sp.csr_matrix]:
    """Lumped mass diagonal ``c`` and stiffness matrix ``G`` (Lindgren et al. 2011, eq. 10; Walder App. A.1).

    * ``c_i = int phi_i ds = sum over triangles T at node i of |T| / 3`` (the diagonal
      lumped mass matrix ``C~``; also the area of node i's barycentric dual cell);
    * ``G_ij = int grad phi_i . grad phi_j ds``: on triangle ``T`` with edge vectors
      ``e_k`` opposite corner ``k`` (counter-clockwise), ``G^T_kl = e_k . e_l / (4 |T|)``.

    ``G`` is symmetric positive semi-definite with rows summing to 0 (constants are in its
    null space). Units: ``c`` in squared units, ``G`` dimensionless.

    Returns:
        ``(c, G)``: ``(n,)`` float64 array and ``(n, n)`` CSR matrix.
    """
    tri = mesh.triangles
    n = mesh.n_nodes
    area = mesh.triangle_areas
    p = mesh.nodes[tri]  # (m, 3, 2)
    e = p[:, [2, 0, 1]] - p[:, [1, 2, 0]]  # e_k = p_{k+2} - p_{k+1}: the edge opposite corner k
    local = np.einsum("mik,mjk->mij", e, e) / (4.0 * area)[:, None, None]
    rows = np.repeat(tri, 3, axis=1).ravel()
    cols = np.tile(tri, (1, 3)).ravel()
    g = sp.coo_matrix((local.ravel(), (rows, cols)), shape=(n, n)).tocsr()
    g.sum_duplicates()
    c = np.bincount(tri.ravel(), weights=np.repeat(area / 3.0, 3), minlength=n)
    return c, g


def integration_weights(mesh: Mesh, window: Window) -> np.ndarray:
    """Integration weights ``alpha_i = int over (W ∩ mesh) of phi_i(s) ds`` (Walder eq. 30), exact.

    Triangles inside the window give a third of their area to each corner; triangles outside
    give nothing. For a triangle cut by the window's boundary, ``int phi_i`` over its part in
    the window follows from that part's area and first moments (:func:`clipped_moments`)
    because ``phi_i`` is linear on the triangle: ``int phi_i = area * phi_i(centroid)``.

    ``sum(alpha) = area(W ∩ mesh)``, and ``sum(alpha * f(nodes)) = int_W f`` for every ``f``
    linear on each triangle, up to rounding. For a mesh whose triangles follow the window's
    boundary (as :func:`.triangulation.triangulate`'s do), ``alpha_i`` is the area of node i's barycentric
    dual cell within the window. Units: squared coordinate units.

    Returns:
        ``(n,)`` float64 array, >= 0.
    """
    area, mx, my = _local_moments(mesh, window)
    corner = mesh.nodes[mesh.triangles]
    v1 = corner[:, 1] - corner[:, 0]
    v2 = corner[:, 2] - corner[:, 0]
    det = v1[:, 0] * v2[:, 1] - v1[:, 1] * v2[:, 0]
    # about corner 0: phi_1(s) = cross(s, v2) / det, phi_2(s) = cross(v1, s) / det, phi_0 = 1 - phi_1 - phi_2
    w1 = (mx * v2[:, 1] - my * v2[:, 0]) / det
    w2 = (v1[:, 0] * my - v1[:, 1] * mx) / det
    contrib = np.column_stack([area - w1 - w2, w1, w2])
    weights = np.bincount(mesh.triangles.ravel(), weights=contrib.ravel(), minlength=mesh.n_nodes)
    return np.maximum(weights, 0.0)  # clipping can leave -1e-17 where the true value is 0


def clipped_moments(mesh: Mesh, window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Area and first moments of each triangle's part in the window, ``W ∩ T``, exact.

    Returns:
        ``(area, mx, my)``, each ``(m,)``: ``|W ∩ T|`` (squared units) and ``int x ds``,
        ``int y ds`` over ``W ∩ T`` (cubed units, absolute coordinates), so the centroid of
        the part is ``(mx / area, my / area)`` where ``area > 0``. Triangles outside give 0.
    """
    area, mx, my = _local_moments(mesh, window)
    origin = mesh.nodes[mesh.triangles[:, 0]]
    return area, mx + origin[:, 0] * area, my + origin[:, 1] * area


def _local_moments(mesh: Mesh, window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(area, mx, my)`` of ``W ∩ T`` per triangle, moments about the triangle's corner 0 (:mod:`.clipping`)."""
    return triangle_window_moments(mesh.nodes[mesh.triangles], mesh.triangle_areas, window)
