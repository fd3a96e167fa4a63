"""The layer's data copied into arrays in the main thread (the preview task never touches a QGIS layer), and what
is wrong with a layer for a family, in words that say what to change."""

from __future__ import annotations

import numpy as np
from qgis.core import QgsFeatureRequest, QgsWkbTypes

from ...compat import DISTANCE_DEGREES, GEOMETRY_POINT, GEOMETRY_POLYGON, REQUEST_NO_GEOMETRY
from ...i18n import tr
from .families import COUNTS, POINTS, PUFFERFISH, SWEEP


def layer_problem(family, layer) -> str | None:
    """Why ``layer`` cannot be used for ``family`` and what to do about it, or ``None``."""
    if layer is None:
        if family.key == COUNTS:
            return tr("Add a polygon layer or a table with counts to the project and pick it.")
        return tr("Add a point layer to the project and pick it (the {0} needs points).").format(family.title())
    kind = QgsWkbTypes.geometryType(layer.wkbType())
    if family.key in (PUFFERFISH, POINTS, SWEEP) and kind != GEOMETRY_POINT:
        return tr("{0} needs a point layer: pick one instead of “{1}”.").format(family.title(), layer.name())
    if family.key == COUNTS and kind not in (GEOMETRY_POLYGON,) and layer.isSpatial():
        return tr("DP counts needs polygons or a table: pick one instead of “{0}”.").format(layer.name())
    if layer.featureCount() == 0:
        return tr("The layer “{0}” has no features: pick a layer with data.").format(layer.name())
    if layer.isSpatial() and layer.crs().mapUnits() == DISTANCE_DEGREES:
        return tr(
            "The layer's CRS ({0}) is in degrees: reproject the layer to a projected CRS "
            "(Vector ▸ Data Management Tools ▸ Reproject Layer) and pick the reprojected layer."
        ).format(layer.crs().authid() or layer.crs().description())
    numeric = [f for f in layer.fields() if f.isNumeric()]
    if family.key == PUFFERFISH and not numeric:
        return tr(
            "The layer “{0}” has no numeric field: the Pufferfish map needs a number per point; add one with the "
            "Field Calculator."
        ).format(layer.name())
    if family.key == COUNTS and len(numeric) < 2:
        return tr("The layer “{0}” needs numeric fields for the counts and the population.").format(layer.name())
    return None


def _numbers(layer, name: str, request) -> np.ndarray:
    index = layer.fields().indexOf(name)
    values = [f.attribute(index) for f in layer.getFeatures(request)]
    if any(v is None or (hasattr(v, "isNull") and v.isNull()) for v in values):
        raise ValueError(tr("The field “{0}” has empty (NULL) values: fill or filter them first.").format(name))
    return np.asarray(values, dtype=np.float64)


def read_points(layer, value_field: str | None = None) -> dict:
    """``x``, ``y`` (and ``values`` of ``value_field``) of every point, multipoints split into their parts."""
    xs, ys, vs = [], [], []
    index = layer.fields().indexOf(value_field) if value_field else -1
    for feature in layer.getFeatures():
        geometry = feature.geometry()
        if geometry is None or geometry.isEmpty():
            continue
        parts = geometry.asMultiPoint() if geometry.isMultipart() else [geometry.asPoint()]
        value = feature.attribute(index) if index >= 0 else 0.0
        if index >= 0 and (value is None or (hasattr(value, "isNull") and value.isNull())):
            raise ValueError(
                tr("The field “{0}” has empty (NULL) values: fill or filter them first.").format(value_field)
            )
        for point in parts:
            xs.append(point.x())
            ys.append(point.y())
            vs.append(value)
    if not xs:
        raise ValueError(tr("The layer has no point geometries: pick a layer with points."))
    return {"x": np.asarray(xs), "y": np.asarray(ys), "values": np.asarray(vs, dtype=np.float64)}


def read_counts(layer, count_field: str, population_field: str, rate_field: str | None) -> dict:
    """The confidential counts, the public population and the prior expected counts (rate × population)."""
    request = QgsFeatureRequest().setFlags(REQUEST_NO_GEOMETRY)
    y = _numbers(layer, count_field, request)
    population = _numbers(layer, population_field, request)
    if not rate_field:
        raise ValueError(tr("Pick a prior rate field: the preview needs a prior expected count per group."))
    prior = _numbers(layer, rate_field, request) * population
    return {"y": y, "population": population, "prior_expected": prior}
