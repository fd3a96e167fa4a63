"""Reading the input layers into plain coordinates and core objects, in a projected working CRS: point layers
with a numeric value per point, the working CRS itself (a layer in degrees is refused unless one is picked),
numeric fields, and the layers model-based algorithms need: study windows (polygons), rasters (covariates,
offsets) and features to measure distances to."""

from __future__ import annotations

import math
from dataclasses import dataclass

from qgis.core import (
    NULL,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometryCollection,
    QgsPoint,
    QgsProcessingException,
    QgsUnitTypes,
    QgsWkbTypes,
)

from ..compat import (
    GEOMETRY_LINE,
    GEOMETRY_NULL,
    GEOMETRY_POINT,
    GEOMETRY_POLYGON,
    SOURCE_SKIP_GEOMETRY_CHECKS,
    TYPE_STRING,
    defined_crs,
    field_type_in,
)
from ..i18n import tr
from .feedback import FeedbackProgress, run_feedback
from .parameters import given


@dataclass
class PointValues:
    """Points of a layer with one numeric value each, in a projected working CRS."""

    x: list
    y: list
    values: list
    source_crs: QgsCoordinateReferenceSystem
    work_crs: QgsCoordinateReferenceSystem
    transform_context: object

    def to_source(self) -> QgsCoordinateTransform | None:
        """Transform from the working CRS back to the layer's CRS, or ``None`` if they agree."""
        if not self.source_crs.isValid() or self.source_crs == self.work_crs:
            return None
        return QgsCoordinateTransform(self.work_crs, self.source_crs, self.transform_context)


def working_crs(alg, parameters, context, source, input_name: str, crs_name: str, feedback):
    """The projected CRS to compute in: the layer's own, or the one the user picked.

    A geographic CRS (degrees) is refused unless the user picks a projected working CRS.
    """
    source_crs = defined_crs(source.sourceCrs())
    picked = alg.parameterAsCrs(parameters, crs_name, context) if crs_name in parameters else None
    if picked is not None and picked.isValid():
        if not source_crs.isValid():
            raise QgsProcessingException(
                tr("{0}: {1} has no CRS, so it cannot be transformed; set the layer's CRS or leave {0} empty.").format(
                    crs_name, input_name
                )
            )
        if picked.isGeographic():
            raise QgsProcessingException(
                tr("{0}: pick a projected CRS (metres or feet), not the geographic {1}.").format(
                    crs_name, picked.authid()
                )
            )
        if source_crs.mapUnits() != picked.mapUnits():
            feedback.pushWarning(
                tr("Distances and sizes are read in the units of {0} {1} ({2}), not in the {3} of {4}'s CRS.").format(
                    crs_name,
                    picked.authid(),
                    QgsUnitTypes.toString(picked.mapUnits()),
                    QgsUnitTypes.toString(source_crs.mapUnits()),
                    input_name,
                )
            )
        return source_crs, picked
    if not source_crs.isValid():
        feedback.pushWarning(tr("{0} has no CRS: distances are taken in its coordinate units.").format(input_name))
        return source_crs, source_crs
    if source_crs.isGeographic():
        raise QgsProcessingException(
            tr(
                "{0} is in the geographic CRS {1} (degrees), where distances and areas have no single unit (a "
                "degree of longitude shrinks towards the poles). Pick a projected working CRS in {2} (e.g. a UTM "
                "zone or your national grid), or reproject the layer."
            ).format(input_name, source_crs.authid(), crs_name)
        )
    return source_crs, source_crs


def crs_label(crs) -> str:
    """The CRS's authority id, else its description (e.g. an engineering CRS of a GeoPackage), else 'no CRS'."""
    if not crs.isValid():
        return tr("no CRS")
    return crs.authid() or crs.description() or tr("a custom CRS")


def numeric_field_index(source, parameter: str, field: str) -> int:
    """Index of ``field`` of ``source`` (matched as QGIS does, ignoring case) for numeric values, or a
    QgsProcessingException naming ``parameter`` if it is missing or neither numeric nor text (processing.run
    and qgis_process do not enforce a field parameter's type filter). Text is allowed because OGR reads CSV
    columns as text; :func:`as_number` then converts each value or names the one that is not a number."""
    idx = source.fields().lookupField(field)
    if idx < 0:
        raise QgsProcessingException(tr("{0}: the layer has no field '{1}'.").format(parameter, field))
    definition = source.fields().at(idx)
    if not (definition.isNumeric() or field_type_in(definition, TYPE_STRING)):
        raise QgsProcessingException(
            tr("{0}: field '{1}' is not numeric (it is {2}); choose a numeric field.").format(
                parameter, definition.name(), definition.typeName()
            )
        )
    return idx


def as_number(value, parameter: str, field: str, feature_id) -> float:
    """``float(value)``, or a QgsProcessingException naming the parameter, the feature and the value."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise QgsProcessingException(
            tr("{0}: feature {1} has '{2}' in '{3}', which is not a number.").format(
                parameter, feature_id, value, field
            )
        ) from None


def check_point_layer(source, input_name: str) -> None:
    """Refuse a layer whose geometry type is not points (unknown types are checked feature by feature when the
    points are read): a table without geometry, such as a CSV file, is told how to load its coordinates."""
    kind = QgsWkbTypes.geometryType(source.wkbType())
    if kind == GEOMETRY_NULL:
        raise QgsProcessingException(
            tr(
                "{0}: the layer has no point geometry (it is a table, such as a CSV file read without its "
                "coordinates). Load a CSV as a delimited text layer (Layer > Add Layer > Add Delimited Text Layer) "
                "with its x and y columns as the point geometry, in the layer's CRS, and give that layer."
            ).format(input_name)
        )
    if kind in (GEOMETRY_LINE, GEOMETRY_POLYGON):
        raise QgsProcessingException(
            tr("{0}: needs a point layer, got {1}.").format(input_name, QgsWkbTypes.displayString(source.wkbType()))
        )


def read_point_values(
    alg,
    parameters,
    context,
    feedback,
    input_name: str,
    field_name: str | None,
    crs_name: str,
    count_is_private=False,
    progress_range: tuple[float, float] = (0.0, 30.0),
) -> PointValues:
    """Read every point and its numeric value; refuse what the methods cannot use. The log says how many were
    read, unless ``count_is_private`` (a guarantee that covers the number of points: the log is not labelled
    confidential). The progress bar moves through ``progress_range`` (percent) as the points are read.

    Refused, with a message naming the parameter: no features, features without geometry,
    multipoints with several parts, coordinates that are not finite (e.g. a point the working CRS cannot
    represent), NULL values. Coordinates are returned in the working CRS.
    """
    source = alg.parameterAsSource(parameters, input_name, context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, input_name))
    field, idx = "", -1
    if field_name is not None:
        field = alg.parameterAsString(parameters, field_name, context)
        idx = numeric_field_index(source, field_name, field)
    check_point_layer(source, input_name)
    source_crs, work_crs = working_crs(alg, parameters, context, source, input_name, crs_name, feedback)
    request = QgsFeatureRequest().setSubsetOfAttributes([idx] if idx >= 0 else [])
    if work_crs != source_crs:
        request.setDestinationCrs(work_crs, context.transformContext())
    total = max(source.featureCount(), 1)
    xs, ys, ts = [], [], []
    null_values = multi = infinite = not_points = 0
    empty = []
    progress = FeedbackProgress(feedback, *progress_range)
    for i, feature in enumerate(source.getFeatures(request)):
        if i % 20000 == 0:
            progress(i / total, tr("Reading points"))
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            empty.append(feature.id())
            continue
        point = geom.constGet()
        if not isinstance(point, QgsPoint):
            # a layer of mixed geometry (GeoJSON, a GeoPackage of type GEOMETRY) reports the first feature's type
            if not isinstance(point, QgsGeometryCollection) or not all(
                isinstance(point.geometryN(k), QgsPoint) for k in range(point.numGeometries())
            ):
                not_points += 1
                continue
            if point.numGeometries() != 1:
                multi += 1
                continue
            point = point.geometryN(0)
        if not (math.isfinite(point.x()) and math.isfinite(point.y())):
            infinite += 1
            continue
        if idx >= 0:
            value = feature[idx]
            if value is None or value == NULL:
                null_values += 1
                continue
            ts.append(as_number(value, field_name, field, feature.id()))
        xs.append(point.x())
        ys.append(point.y())
    untransformed = untransformable(source, empty) if work_crs != source_crs else 0

    def how_many(count: int) -> str:  # a count of all the points would show the protected n
        return tr("some") if count_is_private else str(count)

    problems = []
    if untransformed:
        problems.append(
            tr("{0} features could not be transformed from {1} to {2} (is the layer's CRS right?)").format(
                how_many(untransformed), source_crs.authid() or source_crs.description(), work_crs.authid()
            )
        )
    if len(empty) > untransformed:
        problems.append(tr("{0} features have no geometry").format(how_many(len(empty) - untransformed)))
    if not_points:
        problems.append(tr("{0} features are not points (a layer of mixed geometry)").format(how_many(not_points)))
    if multi:
        problems.append(tr("{0} features are multipoints with several parts").format(how_many(multi)))
    if infinite:
        problems.append(
            tr("{0} features have coordinates that are not finite numbers in {1}").format(
                how_many(infinite), work_crs.authid() or tr("layer units")
            )
        )
    if problems:
        raise QgsProcessingException(
            tr("{0}: {1}. Each feature must be one point; fix or deselect those features.").format(
                input_name, "; ".join(problems)
            )
        )
    if null_values:
        raise QgsProcessingException(
            tr("{0}: {1} features have a NULL value in '{2}'. Fill them in or select only the other features.").format(
                field_name, null_values, field
            )
        )
    if not xs:
        raise QgsProcessingException(tr("{0}: the layer has no features (or none is selected).").format(input_name))
    units = work_crs.authid() or tr("layer units")
    if count_is_private:
        feedback.pushInfo(tr("Read the points in {0} (their number is protected and not shown).").format(units))
    else:
        feedback.pushInfo(tr("Read {0} points in {1}.").format(len(xs), units))
    return PointValues(xs, ys, ts, source_crs, work_crs, context.transformContext())


def untransformable(source, ids) -> int:
    """How many of the features ``ids``, which a request into the working CRS returned without geometry, do have
    one in their own CRS: QGIS clears the geometry of a feature whose transform failed (a layer in EPSG:4326
    holding metres, say)."""
    if not ids:
        return 0
    request = QgsFeatureRequest().setFilterFids(list(ids)).setNoAttributes()
    return sum(1 for f in source.getFeatures(request) if not (f.geometry().isNull() or f.geometry().isEmpty()))


def _refuse_missing_crs(name: str, crs, work_crs) -> None:
    """A layer without CRS next to points with one cannot be placed: its coordinates would be taken as the
    points' (a pump at (10, 12) beside British National Grid points at 530,000 gave a meaningless covariate).
    Nor can a layer with a CRS next to points without one (Dutch RD distances from Snow's map units)."""
    if work_crs.isValid() and not crs.isValid():
        raise QgsProcessingException(
            tr("{0}: the layer has no CRS but the points are in {1}; set its CRS so it can be transformed.").format(
                name, work_crs.authid() or work_crs.description()
            )
        )
    if crs.isValid() and not work_crs.isValid():  # the other way round: the points cannot be placed
        raise QgsProcessingException(
            tr(
                "{0}: the layer is in {1} but the points have no CRS, so its coordinates cannot be matched to "
                "theirs. Give the points' layer its CRS (Layer Properties); or, if this layer's coordinates are in "
                "the points' units, remove its CRS (a memory layer made without one is given EPSG:4326)."
            ).format(name, crs.authid() or crs.description())
        )


def _geometries_in(alg, parameters, name: str, context, work_crs, polygons_only: bool = False):
    """The source of parameter ``name`` and a request for its geometries in the working CRS. With
    ``polygons_only``, a layer of another geometry type is refused first (before its CRS is looked at)."""
    source = alg.parameterAsSource(parameters, name, context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, name))
    kind = QgsWkbTypes.geometryType(source.wkbType())
    if polygons_only and kind in (GEOMETRY_POINT, GEOMETRY_LINE, GEOMETRY_NULL):
        raise QgsProcessingException(
            tr("{0}: needs a polygon layer, got {1}.").format(name, QgsWkbTypes.displayString(source.wkbType()))
        )
    request = QgsFeatureRequest().setSubsetOfAttributes([])
    crs = defined_crs(source.sourceCrs())  # an "Undefined" GeoPackage SRS is no CRS: nothing to transform
    _refuse_missing_crs(name, crs, work_crs)
    if crs.isValid() and work_crs.isValid() and crs != work_crs:
        request.setDestinationCrs(work_crs, context.transformContext())
    return source, request


def _untransformed(name: str, which: str, source, work_crs) -> str:
    """The message for features (``which``: "3 features", "feature 7") whose transform failed."""
    crs = source.sourceCrs()
    return tr(
        "{0}: {1} could not be transformed from {2} to {3}; check the layer's CRS (its coordinates may be in other "
        "units than it says)."
    ).format(name, which, crs.authid() or crs.description(), work_crs.authid() or work_crs.description())


def _check_transformed(name: str, source, request, without: list, work_crs) -> None:
    """Refuse the layer if features came back without geometry because their transform failed: dropping them
    would silently shrink the window, or leave out features to measure distances to."""
    if without and request.destinationCrs().isValid():
        failed = untransformable(source, without)
        if failed:
            raise QgsProcessingException(_untransformed(name, tr("{0} features").format(failed), source, work_crs))


def read_window(alg, parameters, name: str, context, work_crs):
    """The polygons of a polygon layer as a core ``Window`` (``None`` if the parameter is empty).

    The features are dissolved into one area first: overlapping polygons would otherwise count their overlap
    twice in the window's area and leave it outside by the even-odd rule. An invalid polygon is refused whatever
    the context's invalid-geometry setting (skipping it would silently shrink the window, using it as is would
    give a wrong area)."""
    from qgis.core import Qgis, QgsGeometry

    from ..core.errors import ParameterError
    from ..core.window import Window

    if not given(parameters, name):
        return None
    source, request = _geometries_in(alg, parameters, name, context, work_crs, polygons_only=True)
    geometries, without = [], []
    for feature in source.getFeatures(request, SOURCE_SKIP_GEOMETRY_CHECKS):
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            without.append(feature.id())
            continue
        if QgsWkbTypes.geometryType(geom.wkbType()) != GEOMETRY_POLYGON:
            # a layer of mixed geometry reports one type for all its features; a collection of polygons is one
            parts = [QgsGeometry(part.clone()) for part in geom.constParts()]
            if not parts or any(p.type() != GEOMETRY_POLYGON for p in parts):
                raise QgsProcessingException(
                    tr("{0}: feature {1} is a {2}, not a polygon; remove it or select only the polygons.").format(
                        name, feature.id(), QgsWkbTypes.displayString(geom.wkbType())
                    )
                )
            geom = QgsGeometry.collectGeometry(parts)
        if not all(math.isfinite(v.x()) and math.isfinite(v.y()) for v in geom.vertices()):
            raise QgsProcessingException(_untransformed(name, tr("feature {0}").format(feature.id()), source, work_crs))
        if geom.constGet().hasCurvedSegments():
            geom = QgsGeometry(geom.constGet().segmentize())
        errors = geom.validateGeometry(Qgis.GeometryValidationEngine.Geos)
        if errors:
            raise QgsProcessingException(
                tr(
                    "{0}: the polygon of feature {1} is not valid ({2}); repair it first, e.g. with "
                    "Vector geometry ▸ Fix geometries."
                ).format(name, feature.id(), errors[0].what())
            )
        geometries.append(geom)
    _check_transformed(name, source, request, without, work_crs)
    area = QgsGeometry.unaryUnion(geometries) if geometries else QgsGeometry()
    polygons = []
    if not area.isNull():
        parts = area.asMultiPolygon() if area.isMultipart() else [area.asPolygon()]
        for part in parts:
            if part:
                polygons.append(([(p.x(), p.y()) for p in part[0]], [[(p.x(), p.y()) for p in h] for h in part[1:]]))
    if not polygons:
        raise QgsProcessingException(tr("{0}: the layer has no polygons.").format(name))
    try:
        return Window.from_polygons(polygons)
    except ParameterError as error:
        raise QgsProcessingException(f"{name}: {error}") from None


def read_raster(alg, parameters, layer, name: str, work_crs):
    """Band 1 of a raster layer as a core ``RasterGrid`` in the working CRS (warped if needed)."""
    import numpy as np
    from osgeo import gdal

    from ..core.covariates import RasterGrid

    dataset = gdal.Open(layer.source())
    if dataset is None:
        raise QgsProcessingException(tr("{0}: GDAL cannot read {1}.").format(name, layer.source()))
    _refuse_missing_crs(name, defined_crs(layer.crs()), work_crs)
    if defined_crs(layer.crs()).isValid() and work_crs.isValid() and layer.crs() != work_crs:
        # srcSRS: the layer's CRS, which the user may have set in QGIS while the file itself has none
        dataset = gdal.Warp(
            "", dataset, format="MEM", srcSRS=layer.crs().toWkt(), dstSRS=work_crs.toWkt(), resampleAlg="bilinear"
        )
    band = dataset.GetRasterBand(1)
    values = band.ReadAsArray().astype(np.float64)
    nodata = band.GetNoDataValue()
    if nodata is not None:
        values[values == nodata] = np.nan
    x0, dx, rx, y0, ry, dy = dataset.GetGeoTransform()
    if rx != 0 or ry != 0 or dy >= 0:
        raise QgsProcessingException(
            tr("{0}: {1} is rotated or not north-up; warp it first.").format(name, layer.name())
        )
    return RasterGrid(values, x0, y0, dx, -dy)


def read_distance_features(alg, parameters, name: str, context, work_crs):
    """``(kind, data)`` for distances to the features of a layer: ``("points", (px, py))`` or
    ``("segments", array (k, 4))`` for lines and polygon boundaries; ``None`` if the parameter is empty."""
    import numpy as np

    if not given(parameters, name):
        return None
    source, request = _geometries_in(alg, parameters, name, context, work_crs)
    is_point = QgsWkbTypes.geometryType(source.wkbType()) == GEOMETRY_POINT
    px, py, segments, without = [], [], [], []
    for feature in source.getFeatures(request):
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            without.append(feature.id())
            continue
        kinds = (GEOMETRY_POINT,) if is_point else (GEOMETRY_LINE, GEOMETRY_POLYGON)
        if any(QgsWkbTypes.geometryType(p.wkbType()) not in kinds for p in geom.constParts()):
            # a layer of mixed geometry reports one type for all its features
            raise QgsProcessingException(
                tr(
                    "{0}: feature {1} is a {2} in a layer of {3}; give points and lines or polygons as separate "
                    "layers."
                ).format(
                    name,
                    feature.id(),
                    QgsWkbTypes.displayString(geom.wkbType()),
                    tr("points") if is_point else tr("lines or polygons"),
                )
            )
        if is_point:
            for vertex in geom.vertices():
                px.append(vertex.x())
                py.append(vertex.y())
        else:
            for part in geom.constParts():
                rings = (
                    [part]
                    if QgsWkbTypes.geometryType(part.wkbType()) == GEOMETRY_LINE
                    else [part.exteriorRing()] + [part.interiorRing(i) for i in range(part.numInteriorRings())]
                )
                for ring in rings:
                    coords = [(v.x(), v.y()) for v in ring.vertices()]
                    segments.extend(a + b for a, b in zip(coords[:-1], coords[1:]))
    _check_transformed(name, source, request, without, work_crs)
    if without and run_feedback(context) is not None:  # INPUT refuses such features; here they measure nothing
        run_feedback(context).pushWarning(
            tr("{0}: {1} features have no geometry; the distances are to the other features.").format(
                name, len(without)
            )
        )
    if is_point and not px or not is_point and not segments:
        raise QgsProcessingException(tr("{0}: the layer has no features to measure distances to.").format(name))
    return ("points", (np.array(px), np.array(py))) if is_point else ("segments", np.array(segments))
