"""Connected components of a network: which part holds which points, and sub-networks.

A street layer often falls apart into pieces (a detached estate, a misdrawn end beyond the snapping
tolerance). Distances between pieces are infinite, so the caller either refuses such a network or keeps the
part holding the points: :func:`component_of` says where the points lie, :func:`largest_component` and
:func:`subnetwork` cut the network, and :meth:`Subnetwork.restrict` carries locations over to the part.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from .network import LinearNetwork, NetworkPoints


@dataclass(frozen=True, eq=False)
class Subnetwork:
    """Part of a network, and where its edges and vertices came from.

    Attributes:
        net: the part, a network of its own (edges in their original order and orientation).
        edge_index: (E',) the original index of each of its edges.
        vertex_index: (V',) the original index of each of its vertices.
    """

    net: LinearNetwork
    edge_index: np.ndarray
    vertex_index: np.ndarray

    def restrict(self, points: NetworkPoints, n_edges: int) -> tuple[NetworkPoints, np.ndarray]:
        """Locations on the original network (of ``n_edges`` edges) carried over to the part.

        Returns:
            The locations that lie on the part, in the part's edge numbering, and a boolean mask (one per given
            location) of those kept; the caller decides what to do with the others, which it must not drop
            silently.
        """
        new_edge = np.full(n_edges, -1, dtype=np.int64)
        new_edge[self.edge_index] = np.arange(self.edge_index.size)
        mapped = new_edge[points.edge]
        keep = mapped >= 0
        return NetworkPoints(mapped[keep], points.t[keep]), keep


def component_of(net: LinearNetwork, points: NetworkPoints) -> np.ndarray:
    """The connected component of each location (labels of :meth:`LinearNetwork.components`: 0 = longest)."""
    return net.edge_components()[points.edge]


def subnetwork(net: LinearNetwork, edge_mask) -> Subnetwork:
    """The network made of the selected edges (a boolean mask or edge indices) and their vertices."""
    edge_index = np.arange(net.n_edges)[np.asarray(edge_mask)]
    edge_index = np.sort(np.asarray(edge_index, dtype=np.int64).reshape(-1))
    if edge_index.size == 0:
        raise ParameterError("edges", "a sub-network needs at least one edge")
    vertex_index, inverse = np.unique(net.edges[edge_index], return_inverse=True)
    part = LinearNetwork(net.vertices[vertex_index], inverse.reshape(-1, 2), net.lengths[edge_index])
    return Subnetwork(part, edge_index, vertex_index)


def components_holding(net: LinearNetwork, points: NetworkPoints) -> Subnetwork:
    """The components that hold at least one of the locations."""
    held = np.zeros(net.n_components, dtype=bool)
    held[component_of(net, points)] = True
    return subnetwork(net, held[net.edge_components()])


def largest_component(net: LinearNetwork) -> Subnetwork:
    """The longest connected component (by total length)."""
    return subnetwork(net, net.edge_components() == 0)
