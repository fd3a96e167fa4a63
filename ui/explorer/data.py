"""The layer's data read into arrays inside the preview task, from a snapshot of its features taken in the main
thread (the task never touches the QGIS layer), and what is wrong with a layer for a family, in words that say
what to change."""

from __future__ import annotations

import functools

import numpy as np
from qgis.core import QgsFeatureRequest, QgsVectorLayerFeatureSource, QgsWkbTypes

from ...compat import DISTANCE_DEGREES, GEOMETRY_POINT, GEOMETRY_POLYGON, REQUEST_NO_GEOMETRY
from ...core.progress import report
from ...i18n import tr
from .families import COUNTS, POINTS, PUFFERFISH, SWEEP

#: Features read between two progress reports (each may cancel the read).
CHUNK = 2000


class LayerDataError(ValueError):
    """What is wrong with the layer's values (found while reading them in the preview task), in words that say
    what to change."""


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


def _null(value) -> bool:
    return value is None or (hasattr(value, "isNull") and value.isNull())


def reader(layer, family, settings: dict):
    """A reader of ``layer``'s data for ``family``: the features are snapshotted here, in the main thread (a
    ``QgsVectorLayerFeatureSource``, as QGIS's own tasks do), and read by calling the result in the preview
    task, ``read(progress)`` (``progress(fraction, message)`` may raise to cancel), so that reading 90,000
    features never blocks the QGIS window. The reader touches no layer: the layer may go while it runs."""
    source = QgsVectorLayerFeatureSource(layer)
    fields = layer.fields()
    total = max(layer.featureCount(), 1)
    if family.key == COUNTS:
        names = {name: settings.get(name) or "" for name in ("count_field", "population_field")}
        names["prior"] = settings.get("rate_field") or settings.get("expected_field") or ""
        index = {name: fields.indexOf(field) for name, field in names.items() if field}
        return functools.partial(_read_counts, source, names, index, total)
    value_field = settings.get("value_field") or ""
    return functools.partial(_read_points, source, value_field, fields.indexOf(value_field), total)


def _read_points(source, value_field: str, index: int, total: int, progress) -> dict:
    """``x``, ``y`` (and ``values`` of ``value_field``) of every point, multipoints split into their parts."""
    xs, ys, vs = [], [], []
    request = QgsFeatureRequest()
    if index >= 0:
        request.setSubsetOfAttributes([index])
    else:
        request.setNoAttributes()
    for count, feature in enumerate(source.getFeatures(request)):
        if count % CHUNK == 0:
            report(progress, count / total, tr("Reading the layer"))
        geometry = feature.geometry()
        if geometry is None or geometry.isEmpty():
            continue
        parts = geometry.asMultiPoint() if geometry.isMultipart() else [geometry.asPoint()]
        value = feature.attribute(index) if index >= 0 else 0.0
        if index >= 0 and _null(value):
            raise LayerDataError(
                tr("The field “{0}” has empty (NULL) values: fill or filter them first.").format(value_field)
            )
        for point in parts:
            xs.append(point.x())
            ys.append(point.y())
            vs.append(value)
    if not xs:
        raise LayerDataError(tr("The layer has no point geometries: pick a layer with points."))
    return {"x": np.asarray(xs), "y": np.asarray(ys), "values": np.asarray(vs, dtype=np.float64)}


def _read_counts(source, names: dict, index: dict, total: int, progress) -> dict:
    """The confidential counts ``y``, the public ``population`` and the public ``prior`` (rates or expected
    counts, whichever field the user picked: the preview task turns them into expected counts as the algorithm
    does), one value per feature."""
    request = QgsFeatureRequest().setFlags(REQUEST_NO_GEOMETRY).setSubsetOfAttributes(list(index.values()))
    values = {name: [] for name in index}
    for count, feature in enumerate(source.getFeatures(request)):
        if count % CHUNK == 0:
            report(progress, count / total, tr("Reading the layer"))
        for name, at in index.items():
            value = feature.attribute(at)
            if _null(value):
                raise LayerDataError(
                    tr("The field “{0}” has empty (NULL) values: fill or filter them first.").format(names[name])
                )
            values[name].append(value)
    arrays = {name: np.asarray(found, dtype=np.float64) for name, found in values.items()}
    return {"y": arrays["count_field"], "population": arrays["population_field"], "prior": arrays["prior"]}
