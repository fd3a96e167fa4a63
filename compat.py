"""Small shims for the QGIS versions the plugin supports (3.22 in Debian 12 through 3.40+), and for QGIS's
spelling of "no CRS".

QGIS 3.36 moved many enums to ``Qgis.*`` and 3.38 moved field types to ``QMetaType``; the old
names still work for a while but warn. Use the names here instead. A GeoPackage layer without a CRS reads as
a valid "Undefined ... SRS": :func:`defined_crs` and :func:`crs_key` treat it as no CRS.

It sits beside every layer above the core (processing/ and ui/ import it) and imports only QGIS.
"""

from __future__ import annotations

from qgis.core import (
    Qgis,
    QgsCoordinateReferenceSystem,
    QgsField,
    QgsProcessing,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterField,
    QgsProcessingParameterNumber,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QVariant

_NUMBER = getattr(Qgis, "ProcessingNumberParameterType", None)
NUMBER_DOUBLE = _NUMBER.Double if _NUMBER else QgsProcessingParameterNumber.Double
NUMBER_INTEGER = _NUMBER.Integer if _NUMBER else QgsProcessingParameterNumber.Integer

_FIELD = getattr(Qgis, "ProcessingFieldParameterDataType", None)
FIELD_NUMERIC = _FIELD.Numeric if _FIELD else QgsProcessingParameterField.Numeric
FIELD_ANY = _FIELD.Any if _FIELD else QgsProcessingParameterField.Any

_SOURCE = getattr(Qgis, "ProcessingSourceType", None)
SOURCE_POINT = _SOURCE.VectorPoint if _SOURCE else QgsProcessing.TypeVectorPoint
SOURCE_POLYGON = _SOURCE.VectorPolygon if _SOURCE else QgsProcessing.TypeVectorPolygon
SOURCE_VECTOR = _SOURCE.Vector if _SOURCE else QgsProcessing.TypeVector  # any vector layer, tables included

_FLAG = getattr(Qgis, "ProcessingParameterFlag", None)
FLAG_ADVANCED = _FLAG.Advanced if _FLAG else QgsProcessingParameterDefinition.FlagAdvanced
FLAG_OPTIONAL = _FLAG.Optional if _FLAG else QgsProcessingParameterDefinition.FlagOptional

_WKB = getattr(Qgis, "WkbType", None)
WKB_POLYGON = _WKB.Polygon if _WKB and hasattr(_WKB, "Polygon") else QgsWkbTypes.Polygon


def _field(name: str, variant, metatype_name: str, length: int = 0, precision: int = 0) -> QgsField:
    if Qgis.QGIS_VERSION_INT >= 33800:
        from qgis.PyQt.QtCore import QMetaType

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
