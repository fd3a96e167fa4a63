"""Small shims for the QGIS versions the plugin supports (3.22 in Debian 12 through 3.44 and 4.x), and for QGIS's
spelling of "no CRS".

QGIS 3.30 to 3.38 moved many enums into the ``Qgis`` namespace (``QgsWkbTypes.PointGeometry`` became
``Qgis.GeometryType.Point``) and 3.38 moved field types to ``QMetaType``; the old names warn on 3.x and are gone
in QGIS 4 (Qt 6). No spelling works on both 3.22 and 4, so each name here takes the ``Qgis`` enum when the
running QGIS has it and falls back to the 3.22 name; the rest of the plugin uses these names and never the QGIS 3
ones (tests/plugin/test_qgis4_api.py fails otherwise). An enum that did not move is written in its scoped form
(``Qgis.MessageLevel.Warning``, ``QgsFeatureSink.Flag.FastInsert``), which 3.22 accepts too, and needs no shim.
A GeoPackage layer without a CRS reads as a valid "Undefined ... SRS": :func:`defined_crs` and :func:`crs_key`
treat it as no CRS.

Each comment gives the QGIS release that added the ``Qgis`` enum and the page of the QGIS API documentation
that says so (or QGIS's src/core/qgis.h, whose note "Prior to QGIS 3.36 this was available as ..." is what the
documentation pages are built from).

It sits beside every layer above the core (processing/ and ui/ import it) and imports only QGIS and Qt.
"""

from __future__ import annotations

from qgis.core import (
    Qgis,
    QgsColorRampShader,
    QgsCoordinateReferenceSystem,
    QgsFeatureRequest,
    QgsField,
    QgsFieldProxyModel,
    QgsMapLayerProxyModel,
    QgsProcessing,
    QgsProcessingFeatureSource,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProperty,
    QgsRasterBandStats,
    QgsUnitTypes,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QMetaType, QVariant

# Qgis.ProcessingNumberParameterType, QGIS 3.36: https://qgis.org/pyqgis/3.38/core/QgsProcessingParameterNumber.html
_NUMBER = getattr(Qgis, "ProcessingNumberParameterType", None)
NUMBER_DOUBLE = _NUMBER.Double if _NUMBER else QgsProcessingParameterNumber.Double
NUMBER_INTEGER = _NUMBER.Integer if _NUMBER else QgsProcessingParameterNumber.Integer

# Qgis.ProcessingFieldParameterDataType, QGIS 3.36: https://qgis.org/pyqgis/3.40/core/QgsProcessingParameterField.html
# ("DataType: alias of ProcessingFieldParameterDataType")
_FIELD = getattr(Qgis, "ProcessingFieldParameterDataType", None)
FIELD_NUMERIC = _FIELD.Numeric if _FIELD else QgsProcessingParameterField.Numeric
FIELD_ANY = _FIELD.Any if _FIELD else QgsProcessingParameterField.Any

# Qgis.ProcessingSourceType, QGIS 3.36 (https://qgis.org/pyqgis/3.34/core/QgsProcessing.html still has TypeVector*;
# src/core/qgis.h: "Prior to QGIS 3.36 this was available as QgsProcessing::SourceType")
_SOURCE = getattr(Qgis, "ProcessingSourceType", None)
SOURCE_POINT = _SOURCE.VectorPoint if _SOURCE else QgsProcessing.TypeVectorPoint
SOURCE_POLYGON = _SOURCE.VectorPolygon if _SOURCE else QgsProcessing.TypeVectorPolygon
SOURCE_LINE = _SOURCE.VectorLine if _SOURCE else QgsProcessing.TypeVectorLine
SOURCE_VECTOR = _SOURCE.Vector if _SOURCE else QgsProcessing.TypeVector  # any vector layer, tables included

# Qgis.ProcessingParameterFlag, QGIS 3.36 (src/core/qgis.h: "Prior to QGIS 3.36 this was available as
# QgsProcessingParameterDefinition::Flag")
_FLAG = getattr(Qgis, "ProcessingParameterFlag", None)
FLAG_ADVANCED = _FLAG.Advanced if _FLAG else QgsProcessingParameterDefinition.FlagAdvanced
FLAG_OPTIONAL = _FLAG.Optional if _FLAG else QgsProcessingParameterDefinition.FlagOptional

# Qgis.ProcessingFileParameterBehavior, QGIS 3.36: https://qgis.org/pyqgis/3.36/core/QgsProcessingParameterFile.html
# ("Behavior: alias of ProcessingFileParameterBehavior")
_FILE = getattr(Qgis, "ProcessingFileParameterBehavior", None)
FILE_BEHAVIOR_FILE = _FILE.File if _FILE else QgsProcessingParameterFile.File

# Qgis.ProcessingFeatureSourceFlag, QGIS 3.36: https://qgis.org/pyqgis/3.40/core/QgsProcessingFeatureSource.html
# ("Flag: alias of ProcessingFeatureSourceFlag")
_SOURCE_FLAG = getattr(Qgis, "ProcessingFeatureSourceFlag", None)
SOURCE_SKIP_GEOMETRY_CHECKS = (
    _SOURCE_FLAG.SkipGeometryValidityChecks
    if _SOURCE_FLAG
    else QgsProcessingFeatureSource.FlagSkipGeometryValidityChecks
)

# Qgis.FeatureRequestFlag, QGIS 3.36 (src/core/qgis.h: "Prior to QGIS 3.36 this was available as
# QgsFeatureRequest::Flag"; https://qgis.org/pyqgis/3.20/core/QgsFeatureRequest.html has the old Flag)
_REQUEST = getattr(Qgis, "FeatureRequestFlag", None)
REQUEST_NO_GEOMETRY = _REQUEST.NoGeometry if _REQUEST else QgsFeatureRequest.NoGeometry

# Qgis.PropertyType, QGIS 3.36: https://qgis.org/pyqgis/3.40/core/QgsProperty.html ("Type: alias of PropertyType")
_PROPERTY = getattr(Qgis, "PropertyType", None)
PROPERTY_STATIC = _PROPERTY.Static if _PROPERTY else QgsProperty.StaticProperty

# Qgis.WkbType, QGIS 3.30 (src/core/qgis.h: "Prior to 3.30 this was available as QgsWkbTypes.Type"); the member list
# https://qgis.org/pyqgis/master/core/QgsWkbTypes-all-members.html of QGIS 4 has no enum values left
_WKB = getattr(Qgis, "WkbType", None)
WKB_POINT = _WKB.Point if _WKB else QgsWkbTypes.Point
WKB_POLYGON = _WKB.Polygon if _WKB else QgsWkbTypes.Polygon
WKB_NO_GEOMETRY = _WKB.NoGeometry if _WKB else QgsWkbTypes.NoGeometry  # a table

# Qgis.GeometryType, QGIS 3.30 (src/core/qgis.h: "Prior to 3.30 this was available as QgsWkbTypes.GeometryType";
# PointGeometry -> Point, LineGeometry -> Line, PolygonGeometry -> Polygon, NullGeometry -> Null)
_GEOMETRY = getattr(Qgis, "GeometryType", None)
GEOMETRY_POINT = _GEOMETRY.Point if _GEOMETRY else QgsWkbTypes.PointGeometry
GEOMETRY_LINE = _GEOMETRY.Line if _GEOMETRY else QgsWkbTypes.LineGeometry
GEOMETRY_POLYGON = _GEOMETRY.Polygon if _GEOMETRY else QgsWkbTypes.PolygonGeometry
GEOMETRY_NULL = _GEOMETRY.Null if _GEOMETRY else QgsWkbTypes.NullGeometry  # no geometry (a table)

# Qgis.DistanceUnit, QGIS 3.30: https://qgis.org/pyqgis/3.40/core/QgsUnitTypes.html ("Prior to QGIS 3.30 this was
# available as QgsUnitTypes.DistanceUnit"; DistanceMeters -> Meters, DistanceUnknownUnit -> Unknown)
_DISTANCE = getattr(Qgis, "DistanceUnit", None)
DISTANCE_METERS = _DISTANCE.Meters if _DISTANCE else QgsUnitTypes.DistanceMeters
DISTANCE_KILOMETERS = _DISTANCE.Kilometers if _DISTANCE else QgsUnitTypes.DistanceKilometers
DISTANCE_FEET = _DISTANCE.Feet if _DISTANCE else QgsUnitTypes.DistanceFeet
DISTANCE_YARDS = _DISTANCE.Yards if _DISTANCE else QgsUnitTypes.DistanceYards
DISTANCE_MILES = _DISTANCE.Miles if _DISTANCE else QgsUnitTypes.DistanceMiles
DISTANCE_NAUTICAL_MILES = _DISTANCE.NauticalMiles if _DISTANCE else QgsUnitTypes.DistanceNauticalMiles
DISTANCE_CENTIMETERS = _DISTANCE.Centimeters if _DISTANCE else QgsUnitTypes.DistanceCentimeters
DISTANCE_MILLIMETERS = _DISTANCE.Millimeters if _DISTANCE else QgsUnitTypes.DistanceMillimeters
DISTANCE_DEGREES = _DISTANCE.Degrees if _DISTANCE else QgsUnitTypes.DistanceDegrees
DISTANCE_UNKNOWN = _DISTANCE.Unknown if _DISTANCE else QgsUnitTypes.DistanceUnknownUnit

# Qgis.RasterBandStatistic, QGIS 3.38 at the latest: https://qgis.org/pyqgis/4.0/core/QgsRasterBandStats.html
# ("Stats: alias of RasterBandStatistic"); https://qgis.org/pyqgis/3.34/core/QgsRasterBandStats.html has Stats.Min
_STATISTIC = getattr(Qgis, "RasterBandStatistic", None)
RASTER_STAT_MIN = _STATISTIC.Min if _STATISTIC else QgsRasterBandStats.Min
RASTER_STAT_MAX = _STATISTIC.Max if _STATISTIC else QgsRasterBandStats.Max

# Qgis.ShaderClassificationMethod, QGIS 3.38 at the latest: https://qgis.org/pyqgis/3.38/core/QgsColorRampShader.html
# ("ClassificationMode: alias of ShaderClassificationMethod"), against the 3.34 page's own ClassificationMode
_SHADER = getattr(Qgis, "ShaderClassificationMethod", None)
SHADER_QUANTILE = _SHADER.Quantile if _SHADER else QgsColorRampShader.Quantile

# Qgis.LayerFilter, QGIS 3.34 (src/core/qgis.h: "Prior to QGIS 3.34 this was available as
# QgsMapLayerProxyModel::Filter"); Qgis.FieldProxyModelFilter, QGIS 3.34 ("... as QgsFieldProxyModel::Filter")
_LAYER_FILTER = getattr(Qgis, "LayerFilter", None)
LAYER_FILTER_POINT = _LAYER_FILTER.PointLayer if _LAYER_FILTER else QgsMapLayerProxyModel.PointLayer
LAYER_FILTER_POLYGON = _LAYER_FILTER.PolygonLayer if _LAYER_FILTER else QgsMapLayerProxyModel.PolygonLayer
LAYER_FILTER_TABLE = _LAYER_FILTER.NoGeometry if _LAYER_FILTER else QgsMapLayerProxyModel.NoGeometry
_FIELD_FILTER = getattr(Qgis, "FieldProxyModelFilter", None)
FIELD_FILTER_NUMERIC = _FIELD_FILTER.Numeric if _FIELD_FILTER else QgsFieldProxyModel.Numeric


def processing_mode(batch: bool = False):
    """The kind of Processing dialog a parameter widget is made for: the standard dialog or, with ``batch``, the
    batch dialog. ``Qgis.ProcessingMode`` (in qgis.core) from QGIS 3.42 or 3.44, ``QgsProcessingGui.WidgetType``
    (qgis.gui) before: https://qgis.org/pyqgis/3.44/gui/QgsProcessingGui.html ("WidgetType: alias of
    ProcessingMode") against https://www.qgis.org/pyqgis/3.40/gui/QgsProcessingGui.html (WidgetType with its own
    Standard, Batch and Modeler). A function, so that only the widgets, not Processing, import qgis.gui."""
    mode = getattr(Qgis, "ProcessingMode", None)
    if mode is not None:
        return mode.Batch if batch else mode.Standard
    from qgis.gui import QgsProcessingGui

    return QgsProcessingGui.Batch if batch else QgsProcessingGui.Standard


def field_type_in(field: QgsField, *types) -> bool:
    """Whether ``field``'s type is one of ``types``, given as ``QMetaType.Type`` values (``QMetaType.Type.QString``,
    ``QMetaType.Type.LongLong``...). QgsField.type() is a ``QVariant.Type`` before QGIS 3.38 and a
    ``QMetaType.Type`` from 3.38 on (https://qgis.org/pyqgis/3.40/core/QgsField.html); Qt 5 numbers the built-in
    types of both alike (``QVariant::String == QMetaType::QString``), and Qt 6 has only ``QMetaType.Type``, so one
    comparison with the ``QMetaType.Type`` value serves every QGIS."""
    kind = field.type()
    return any(kind == wanted for wanted in types)


#: Field types for :func:`field_type_in` (``QMetaType.Type`` in Qt 5 and Qt 6 alike).
TYPE_STRING = QMetaType.Type.QString
TYPE_INT = QMetaType.Type.Int
TYPE_UINT = QMetaType.Type.UInt
TYPE_LONGLONG = QMetaType.Type.LongLong
TYPE_ULONGLONG = QMetaType.Type.ULongLong
TYPE_DOUBLE = QMetaType.Type.Double


def _field(name: str, variant, metatype_name: str, length: int = 0, precision: int = 0) -> QgsField:
    if Qgis.QGIS_VERSION_INT >= 33800:
        return QgsField(name, getattr(QMetaType.Type, metatype_name), "", length, precision)
    return QgsField(name, variant, "", length, precision)


def double_field(name: str) -> QgsField:
    return _field(name, QVariant.Double, "Double")


def int_field(name: str) -> QgsField:
    return _field(name, QVariant.LongLong, "LongLong", 18)


def string_field(name: str, length: int = 64) -> QgsField:
    return _field(name, QVariant.String, "QString", length)


def crs_key(crs: QgsCoordinateReferenceSystem) -> str:
    """A string naming a CRS for comparisons and model files: its authority id, else its WKT, else ''."""
    if crs is None or not crs.isValid():
        return ""
    if crs.authid():
        return crs.authid()
    wkt = crs.toWkt()
    # a GeoPackage without a CRS reads as the valid "Undefined Cartesian SRS": the same as no CRS
    return "" if "Undefined" in wkt.split(",")[0] else wkt


def defined_crs(crs: QgsCoordinateReferenceSystem) -> QgsCoordinateReferenceSystem:
    """``crs``, or an invalid CRS when it only says "undefined" (a GeoPackage's srs_id 0 or -1 reads as a
    valid "Undefined ... SRS"), so that such layers are treated as having no CRS rather than transformed."""
    return crs if crs_key(crs) else QgsCoordinateReferenceSystem()
