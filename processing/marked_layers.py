"""Reading marked point layers (Quick, Holan, Wikle & Reiter's records): each point's location in the working CRS,
its category marks, its numeric mark and, for a synthetic layer, its set number (the layer synthesizemarked
writes: field ``set``, 1..L)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from qgis.core import NULL, QgsFeatureRequest, QgsGeometryCollection, QgsPoint, QgsProcessingException

from ..compat import TYPE_INT, TYPE_LONGLONG, TYPE_UINT, TYPE_ULONGLONG, field_type_in
from ..i18n import tr
from .feedback import FeedbackProgress
from .inputs import PointValues, as_number, check_point_layer

#: The set number's field in a synthetic layer (the contract with synthesizemarked).
SET_FIELD = "set"


@dataclass
class MarkedLayer:
    """A marked point layer read into plain lists: ``points`` (PointValues: x, y in the working CRS, the CRSs),
    ``columns`` (one list of values per category field, NULL as ``None``), ``numeric`` (floats, or ``None``),
    ``sets`` (ints, or ``None``) and whether the numeric field is an integer field."""

    points: PointValues
    columns: list
    numeric: list | None
    sets: list | None
    numeric_is_integer: bool = False


def _field_index(source, parameter: str, field: str) -> int:
    idx = source.fields().lookupField(field)
    if idx < 0:
        raise QgsProcessingException(tr("{0}: the layer has no field '{1}'.").format(parameter, field))
    return idx


def read_marked_layer(
    alg,
    parameters,
    context,
    feedback,
    name: str,
    category_fields: list,
    numeric_field: str | None,
    with_set: bool,
    source_crs,
    work_crs,
    progress_range: tuple[float, float],
    numeric_parameter: str | None = None,
) -> MarkedLayer:
    """Read the layer of parameter ``name``: its points (transformed from ``source_crs`` to ``work_crs``), the
    values of ``category_fields`` and ``numeric_field`` and, with ``with_set``, of the field ``set``. Refused,
    naming ``name`` (NULL numeric values name ``numeric_parameter`` if given, e.g. the NUMERIC_FIELD of the
    confidential layer): a missing field, features that are not single points, a numeric value or set number that
    is NULL or not a number, a set number that is not a whole number >= 1. NULL categories are kept as ``None``
    (core.marked.combinations names them)."""
    source = alg.parameterAsSource(parameters, name, context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, name))
    check_point_layer(source, name)
    category_idx = [_field_index(source, name, f) for f in category_fields]
    numeric_idx = None if numeric_field is None else _field_index(source, name, numeric_field)
    set_idx = _field_index(source, name, SET_FIELD) if with_set else None
    if set_idx is not None and not source.fields().at(set_idx).isNumeric():
        raise QgsProcessingException(
            tr("{0}: the field '{1}' must hold the set numbers 1..L (whole numbers), but it is {2}.").format(
                name, SET_FIELD, source.fields().at(set_idx).typeName()
            )
        )
    numeric_is_integer = numeric_idx is not None and field_type_in(
        source.fields().at(numeric_idx), TYPE_INT, TYPE_UINT, TYPE_LONGLONG, TYPE_ULONGLONG
    )
    wanted = category_idx + ([numeric_idx] if numeric_idx is not None else []) + ([set_idx] if with_set else [])
    request = QgsFeatureRequest().setSubsetOfAttributes(sorted(set(wanted)))
    if work_crs != source_crs:
        request.setDestinationCrs(work_crs, context.transformContext())
    total = max(source.featureCount(), 1)
    progress = FeedbackProgress(feedback, *progress_range)
    xs, ys, numeric, sets = [], [], [], []
    columns = [[] for _ in category_fields]
    bad_geometry, null_numeric, bad_sets = [], 0, []
    for i, feature in enumerate(source.getFeatures(request)):
        if i % 20000 == 0:
            progress(i / total, tr("Reading {0}").format(name))
        geom = feature.geometry()
        point = None if geom.isNull() or geom.isEmpty() else geom.constGet()
        if isinstance(point, QgsGeometryCollection) and point.numGeometries() == 1:
            point = point.geometryN(0)
        if not isinstance(point, QgsPoint) or not (math.isfinite(point.x()) and math.isfinite(point.y())):
            bad_geometry.append(feature.id())
            continue
        attributes = feature.attributes()
        if numeric_idx is not None:
            value = attributes[numeric_idx]
            if value is None or value == NULL:
                null_numeric += 1
                continue
            numeric.append(as_number(value, name, numeric_field, feature.id()))
        if with_set:
            value = attributes[set_idx]
            number = None if value is None or value == NULL else float(value)
            if number is None or not number.is_integer() or number < 1:
                bad_sets.append(value)
                continue
            sets.append(int(number))
        for column, idx in zip(columns, category_idx):
            value = attributes[idx]
            column.append(None if value is None or value == NULL else value)
        xs.append(point.x())
        ys.append(point.y())
    if bad_geometry:
        raise QgsProcessingException(
            tr(
                "{0}: {1} features are not single points with finite coordinates in the working CRS (e.g. feature "
                "{2}); fix or deselect them."
            ).format(name, len(bad_geometry), bad_geometry[0])
        )
    if null_numeric:
        raise QgsProcessingException(
            tr("{0}: {1} features have a NULL value in '{2}'; fill them in or select only the other features.").format(
                numeric_parameter or name, null_numeric, numeric_field
            )
        )
    if bad_sets:
        raise QgsProcessingException(
            tr(
                "{0}: {1} features have a set number in '{2}' that is NULL or not a whole number >= 1 (e.g. {3}); a "
                "synthetic layer numbers its sets 1..L."
            ).format(name, len(bad_sets), SET_FIELD, bad_sets[0])
        )
    if not xs:
        raise QgsProcessingException(tr("{0}: the layer has no features (or none is selected).").format(name))
    points = PointValues(xs, ys, [], source_crs, work_crs, context.transformContext())
    return MarkedLayer(
        points, columns, numeric if numeric_idx is not None else None, sets if with_set else None, numeric_is_integer
    )
