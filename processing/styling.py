"""Default styles for outputs loaded into the project: a graduated grid, a pseudocolour raster.

Processing keeps a post-processor only as a raw pointer, so each instance is kept alive in
``_KEEP`` until it has run.
"""

from __future__ import annotations

from qgis.core import (
    QgsClassificationQuantile,
    QgsColorRampShader,
    QgsGraduatedSymbolRenderer,
    QgsProcessingLayerPostProcessorInterface,
    QgsRasterLayer,
    QgsSingleBandPseudoColorRenderer,
    QgsStyle,
    QgsVectorLayer,
)

from ..compat import RASTER_STAT_MAX, RASTER_STAT_MIN, SHADER_QUANTILE

_KEEP: list = []
RAMP = "Viridis"
FALLBACK_RAMP = "Blues"


def _ramp():
    style = QgsStyle.defaultStyle()
    return style.colorRamp(RAMP) or style.colorRamp(FALLBACK_RAMP)


class ThematicStyle(QgsProcessingLayerPostProcessorInterface):
    """Graduated (quantile, 5 classes) on ``field`` for a vector grid; pseudocolour with quantile stops for a
    raster."""

    def __init__(self, field: str, classes: int = 5):
        super().__init__()
        self.field, self.classes = field, classes

    def postProcessLayer(self, layer, context, feedback):  # noqa: N802 (QGIS API name)
        try:
            if isinstance(layer, QgsVectorLayer) and layer.fields().lookupField(self.field) >= 0:
                renderer = QgsGraduatedSymbolRenderer(self.field)
                renderer.setClassificationMethod(QgsClassificationQuantile())
                renderer.updateClasses(layer, self.classes)
                ramp = _ramp()
                if ramp is not None:
                    renderer.updateColorRamp(ramp)
                layer.setRenderer(renderer)
                layer.triggerRepaint()
            elif isinstance(layer, QgsRasterLayer) and layer.isValid():
                stats = layer.dataProvider().bandStatistics(1, RASTER_STAT_MIN | RASTER_STAT_MAX)
                shader = QgsColorRampShader(stats.minimumValue, stats.maximumValue)
                ramp = _ramp()
                if ramp is not None:
                    shader.setSourceColorRamp(ramp)
                # quantile stops like the vector grid: a min-max ramp is one colour when a few cells are extreme
                # (relative-error maps can span many orders of magnitude)
                shader.setClassificationMode(SHADER_QUANTILE)
                shader.classifyColorRamp(self.classes, 1, layer.extent(), layer.dataProvider())
                renderer = QgsSingleBandPseudoColorRenderer(layer.dataProvider(), 1)
                renderer.setShader(_shader_function(shader))
                layer.setRenderer(renderer)
                layer.triggerRepaint()
        finally:
            if self in _KEEP:
                _KEEP.remove(self)

    @classmethod
    def attach(cls, context, dest_id: str, field: str) -> None:
        """Style ``dest_id`` when Processing loads it into the project."""
        if dest_id and context.willLoadLayerOnCompletion(dest_id):
            styler = cls(field)
            _KEEP.append(styler)
            context.layerToLoadOnCompletionDetails(dest_id).setPostProcessor(styler)


def _shader_function(ramp_shader):
    from qgis.core import QgsRasterShader

    shader = QgsRasterShader()
    shader.setRasterShaderFunction(ramp_shader)
    return shader
