"""Merging vertices closer than a tolerance (the snapping step of :func:`.network.build_network`).

Pairs of points within the tolerance come from a k-d tree; the clusters are the connected components of
that "close" relation (single linkage), so a chain of points each within the tolerance of the next is one
vertex. Each cluster keeps the position of its first point, so exactly coincident ends never move.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree


def merge_close(points: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Clusters of points within ``tolerance`` of each other (single linkage).

    Args:
        points: (n, 2) coordinates.
        tolerance: distance at or below which two points are merged (>= 0).

    Returns:
        ``label`` (n,): cluster of each point, clusters numbered in order of their first point; and
        ``representative`` (k,): index of the first point of each cluster (increasing).
    """
    points = np.asarray(points, dtype=np.float64)
    n = points.shape[0]
    pairs = cKDTree(points).query_pairs(tolerance, output_type="ndarray")
    if pairs.shape[0] == 0:
        return np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)
    close = sparse.coo_matrix((np.ones(pairs.shape[0]), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _, component = connected_components(close, directed=False)
    # the first point of each component, and components renumbered in the order of those points
    first = np.full(component.max() + 1, n, dtype=np.int64)
    np.minimum.at(first, component, np.arange(n))
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[component].astype(np.int64), first[order]
