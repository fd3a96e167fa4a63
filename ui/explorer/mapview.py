"""The map preview of the explorer: the confidential layer and one draw at the chosen setting (a Pufferfish grid
map or a synthetic pattern) in a small map canvas, so the steward sees what the public would see.

The draw lives in a memory layer that is never added to the project and never written to disk."""

from __future__ import annotations

from qgis.core import (
    QgsFeature,
    QgsFields,
    QgsFillSymbol,
    QgsGeometry,
    QgsMarkerSymbol,
    QgsPointXY,
    QgsRectangle,
    QgsSingleSymbolRenderer,
    QgsVectorLayer,
)
from qgis.gui import QgsMapCanvas
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import QLabel, QVBoxLayout, QWidget

from ...compat import double_field
from ...i18n import tr

GRID_STYLE = {"color": "255,140,0,150", "outline_color": "140,60,0,255", "outline_width": "0.26"}
POINT_STYLE = {"name": "cross2", "color": "200,0,120,255", "outline_color": "200,0,120,255", "size": "2.2"}


class MapPreview(QWidget):
    """A map canvas with the confidential layer under the preview draw (``layer``, a memory layer, or ``None``)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("explorerMap")
        self.layer = None  # the draw's memory layer: kept here only, never in the project
        self.canvas = QgsMapCanvas()
        self.canvas.setObjectName("explorerMapCanvas")
        self.canvas.setCanvasColor(QColor("white"))
        self.canvas.setMinimumSize(300, 300)
        self.label = QLabel(tr("One preview draw: for the steward only."))
        self.label.setObjectName("explorerMapLabel")
        self.label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.label)

    def clear(self) -> None:
        self.canvas.setLayers([])
        self.layer = None
        self.canvas.refresh()

    def show_draw(self, confidential, draw) -> None:
        """Show ``confidential`` (a QGIS layer) and ``draw``: a ``core.pufferfish.PufferfishGrid`` (its published
        values only) or its :func:`grid_features`, or ``(x, y)`` arrays of synthetic points, in ``confidential``'s
        CRS; ``None``: the layer alone."""
        crs = confidential.crs()
        if draw is None:
            self.layer = None
        else:
            self.layer = points_layer(*draw, crs) if isinstance(draw, tuple) else grid_layer(draw, crs)
        layers = [confidential] if self.layer is None else [self.layer, confidential]
        self.canvas.setDestinationCrs(crs)
        self.canvas.setLayers(layers)
        extent = QgsRectangle(confidential.extent())
        if self.layer is not None:
            extent.combineExtentWith(self.layer.extent())
        extent.scale(1.05)
        self.canvas.setExtent(extent)
        self.canvas.refresh()


def _memory_layer(kind: str, crs, name: str, fields: QgsFields) -> QgsVectorLayer:
    uri = kind + ("?crs=" + crs.authid() if crs.isValid() and crs.authid() else "")
    layer = QgsVectorLayer(uri, name, "memory")
    if crs.isValid():
        layer.setCrs(crs)
    layer.dataProvider().addAttributes(list(fields))
    layer.updateFields()
    return layer


class GridFeatures(list):
    """A grid's cells as features (a list), built away from the main thread by :func:`grid_features`."""


def _grid_fields() -> QgsFields:
    fields = QgsFields()
    fields.append(double_field("value"))
    return fields


def grid_features(grid) -> GridFeatures:
    """The grid's published cells as square features with their published ``value`` (nothing confidential).
    Touches no layer: the preview task builds them, so the main thread only adds them to a memory layer."""
    fields = _grid_fields()
    x0, y0 = grid.spec.cell_lower_left(grid.ix, grid.iy)
    r = grid.spec.cell_size
    features = GridFeatures()
    for x, y, value in zip(x0.tolist(), y0.tolist(), grid.value.tolist()):
        feature = QgsFeature(fields)
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, y, x + r, y + r)))
        feature.setAttributes([float(value)])
        features.append(feature)
    return features


def grid_layer(grid, crs) -> QgsVectorLayer:
    """The grid's published cells (a ``PufferfishGrid`` or its :func:`grid_features`) in a memory layer."""
    layer = _memory_layer("Polygon", crs, tr("Preview grid (for the steward only)"), _grid_fields())
    features = grid if isinstance(grid, GridFeatures) else grid_features(grid)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    layer.setRenderer(QgsSingleSymbolRenderer(QgsFillSymbol.createSimple(GRID_STYLE)))
    return layer


def points_layer(x, y, crs) -> QgsVectorLayer:
    """The synthetic points (no attributes)."""
    layer = _memory_layer("Point", crs, tr("Preview synthetic points (for the steward only)"), QgsFields())
    features = []
    for px, py in zip(x.tolist(), y.tolist()):
        feature = QgsFeature(layer.fields())
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(px, py)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    layer.setRenderer(QgsSingleSymbolRenderer(QgsMarkerSymbol.createSimple(POINT_STYLE)))
    return layer
