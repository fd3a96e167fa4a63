"""The science of Spatial Privacy: numpy / scipy / numba only, no QGIS and no Qt.

Every public function takes plain arrays and, where it is random, a ``numpy.random.Generator``;
it returns arrays or dataclasses and documents its units. All privacy noise is drawn in
:mod:`.mechanisms`.
"""
