"""Linear networks (street layers): the network object, points on it, distances and the resistance metric.

* :mod:`.network`: :class:`~.network.LinearNetwork` (straight-segment edges between vertices, as spatstat's
  ``linnet``), :class:`~.network.NetworkPoints` (locations on edges) and :func:`~.network.build_network`, which
  turns the parts of a line layer into a network: vertices snapped within a tolerance, line ends joined to the
  lines they touch, crossings split (:mod:`.snapping`, :mod:`.crossings`), with a :class:`~.network.BuildReport`.
* :mod:`.components`: connected components, the largest one and sub-networks, so that a caller can refuse a
  disconnected network or keep the part holding its points.
* :mod:`.placement`: events moved to their nearest location on the network.
* :mod:`.distances`: shortest-path distances from network locations to vertices and between locations.
* :mod:`.resistance`: the resistance metric of Anderes, Møller & Rasmussen (2020) (Kim & Lim, Appendix E.2).
* :mod:`.pieces`: the network cut into pieces of at most a given length (Kim & Lim, Section 4.2).

Distances are in the units of the coordinates (the layer's CRS units).
"""
