"""Reading the layers that model-based algorithms need into core objects, in the working CRS:
study windows (polygons), rasters (covariates, offsets) and features to measure distances to."""

from __future__ import annotations

import math

from qgis.core import QgsFeatureRequest, QgsProcessingException, QgsWkbTypes

from ..plugin.i18n import tr
from .base import defined_crs, run_feedback, untransformable


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
    if polygons_only and kind in (QgsWkbTypes.PointGeometry, QgsWkbTypes.LineGeometry, QgsWkbTypes.NullGeometry):
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
    from qgis.core import QgsGeometry, QgsProcessingFeatureSource

    from ..core.errors import ParameterError
    from ..core.window import Window

    if parameters.get(name) in (None, ""):
        return None
    source, request = _geometries_in(alg, parameters, name, context, work_crs, polygons_only=True)
    geometries, without = [], []
    for feature in source.getFeatures(request, QgsProcessingFeatureSource.FlagSkipGeometryValidityChecks):
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            without.append(feature.id())
            continue
        if QgsWkbTypes.geometryType(geom.wkbType()) != QgsWkbTypes.PolygonGeometry:
            # a layer of mixed geometry reports one type for all its features; a collection of polygons is one
            parts = [QgsGeometry(part.clone()) for part in geom.constParts()]
            if not parts or any(p.type() != QgsWkbTypes.PolygonGeometry for p in parts):
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
        errors = geom.validateGeometry(QgsGeometry.ValidatorGeos)
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

    if parameters.get(name) in (None, ""):
        return None
    source, request = _geometries_in(alg, parameters, name, context, work_crs)
    is_point = QgsWkbTypes.geometryType(source.wkbType()) == QgsWkbTypes.PointGeometry
    px, py, segments, without = [], [], [], []
    for feature in source.getFeatures(request):
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            without.append(feature.id())
            continue
        kinds = (QgsWkbTypes.PointGeometry,) if is_point else (QgsWkbTypes.LineGeometry, QgsWkbTypes.PolygonGeometry)
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
                    if QgsWkbTypes.geometryType(part.wkbType()) == QgsWkbTypes.LineGeometry
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
