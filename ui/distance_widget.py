"""The widget of a distance parameter that shows the units the algorithm reads it in.

QGIS's own distance widget takes its units from one parent parameter. Ours are read in the units of
the projected CRS to work in (WORK_CRS) when one is picked, else in the input layer's. Parented to the
layer, QGIS's widget showed "degrees" beside a radius the algorithm reads in the metres of WORK_CRS;
this one follows both parameters and says when a layer in degrees still needs a CRS to work in.

Processing's dialogs build a widget from the parameter's ``widget_wrapper`` metadata by calling
``DistanceWidget(parameter, dialog, row, col, work_crs=...)``. The algorithm dialog gets this module's
wrapper; the batch and model dialogs get QGIS's own widgets, exactly as without the metadata.
"""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsProcessingContext,
    QgsProcessingParameterDefinition,
    QgsProcessingParameters,
    QgsProject,
    QgsUnitTypes,
)
from qgis.gui import QgsAbstractProcessingParameterWidgetWrapper, QgsDoubleSpinBox, QgsGui
from qgis.PyQt.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from ..compat import (
    DISTANCE_CENTIMETERS,
    DISTANCE_DEGREES,
    DISTANCE_FEET,
    DISTANCE_KILOMETERS,
    DISTANCE_METERS,
    DISTANCE_MILES,
    DISTANCE_MILLIMETERS,
    DISTANCE_NAUTICAL_MILES,
    DISTANCE_UNKNOWN,
    DISTANCE_YARDS,
    FLAG_OPTIONAL,
    defined_crs,
    processing_mode,
)
from ..i18n import tr

# The units a user may type a distance in when the CRS's units are linear (as QGIS's distance widget offers).
CHOICES = (
    DISTANCE_METERS,
    DISTANCE_KILOMETERS,
    DISTANCE_FEET,
    DISTANCE_YARDS,
    DISTANCE_MILES,
    DISTANCE_NAUTICAL_MILES,
    DISTANCE_CENTIMETERS,
    DISTANCE_MILLIMETERS,
)
LARGEST = 1e12  # the spin box's upper end (a distance parameter's own maximum is the largest double)


class DistanceWidget:
    """Factory that Processing calls as the ``widget_wrapper`` class of a distance parameter.

    Returns :class:`WorkCrsDistanceWrapper` for the algorithm dialog and QGIS's own widget for any other
    dialog (batch, model), as ``WidgetWrapperFactory.create_wrapper`` would without the metadata.
    """

    def __new__(cls, parameter, dialog, row=0, col=0, work_crs: str = "WORK_CRS"):
        kind = type(dialog).__name__
        registry = QgsGui.processingGuiRegistry()
        if kind == "AlgorithmDialog":
            wrapper = WorkCrsDistanceWrapper(parameter, work_crs)
        elif kind == "ModelerParametersDialog":
            wrapper = registry.createModelerParameterWidget(dialog.model, dialog.childId, parameter, dialog.context)
        else:
            batch = kind == "BatchAlgorithmDialog"
            wrapper = registry.createParameterWidgetWrapper(parameter, processing_mode(batch))
        wrapper.setDialog(dialog)
        return wrapper


def wrapper_crs(wrapper) -> QgsCoordinateReferenceSystem:
    """The CRS that a layer or CRS parameter's widget currently names; invalid if none, or if it is only the
    "Undefined Cartesian SRS" of a GeoPackage without a CRS (which says metres; the algorithms take such a
    layer's distances in its coordinate units)."""
    if wrapper is None:
        return QgsCoordinateReferenceSystem()
    definition = wrapper.parameterDefinition()
    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    values = {definition.name(): wrapper.parameterValue()}
    return defined_crs(QgsProcessingParameters.parameterAsCrs(definition, values, context))


class WorkCrsDistanceWrapper(QgsAbstractProcessingParameterWidgetWrapper):
    """A number, its units (those of WORK_CRS when set, else of the parent layer) and a choice of unit to type in.

    ``widgetValue`` is always in the CRS's units (what the algorithm reads), converted from the unit chosen.
    """

    def __init__(self, parameter: QgsProcessingParameterDefinition, work_crs: str):
        super().__init__(parameter, processing_mode())
        self.work_crs_name = work_crs
        self.layer_wrapper = self.crs_wrapper = None
        self.base_units = DISTANCE_UNKNOWN
        self.optional = bool(parameter.flags() & FLAG_OPTIONAL)

    # -- widget -------------------------------------------------------------------------------

    def createWidget(self):  # noqa: N802 (QGIS API name)
        parameter = self.parameterDefinition()
        widget = QWidget()
        layout = QHBoxLayout(widget)
        layout.setContentsMargins(0, 0, 0, 0)
        self.spin = QgsDoubleSpinBox()
        self.spin.setDecimals(6)
        self.spin.setMaximum(min(parameter.maximum(), LARGEST))
        low = parameter.minimum()
        if self.optional:
            low -= 1  # the "Not set" position, below every allowed value
            self.spin.setSpecialValueText(tr("Not set"))
        self.spin.setMinimum(low)
        default = parameter.defaultValueForGui()
        self.spin.setClearValue(float(default) if default is not None else low)
        self.spin.setValue(float(default) if default is not None else low)
        self.spin.setToolTip(parameter.toolTip())
        self.units_label = QLabel()
        self.units_combo = QComboBox()
        for index, unit in enumerate(CHOICES):  # the item data is the index: unit enums differ between versions
            self.units_combo.addItem(QgsUnitTypes.toString(unit), index)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        layout.addWidget(self.spin, 1)
        layout.addWidget(self.units_label)
        layout.addWidget(self.units_combo)
        layout.addWidget(self.warning, 1)
        self.spin.valueChanged.connect(lambda _value: self.widgetValueHasChanged.emit(self))
        self.units_combo.currentIndexChanged.connect(lambda _index: self.widgetValueHasChanged.emit(self))
        self.show_units(DISTANCE_UNKNOWN, "")
        return widget

    def setWidgetValue(self, value, context):  # noqa: N802 (QGIS API name)
        self.select_unit(self.base_units)
        try:
            number = float(value)
        except (TypeError, ValueError):  # None, a NULL QVariant or an empty string: not set
            number = self.spin.minimum() if self.optional else self.spin.clearValue()
        self.spin.setValue(number)

    def widgetValue(self):  # noqa: N802 (QGIS API name)
        if self.optional and self.spin.value() == self.spin.minimum():
            return None
        if self.base_units not in CHOICES:  # degrees or unknown units: as typed
            return self.spin.value()
        typed = CHOICES[self.units_combo.currentData()]
        return self.spin.value() * QgsUnitTypes.fromUnitToUnitFactor(typed, self.base_units)

    # -- units ----------------------------------------------------------------------------------

    def postInitialize(self, wrappers):  # noqa: N802 (QGIS API name)
        parent = self.parameterDefinition().parentParameterName()
        for wrapper in wrappers:
            name = wrapper.parameterDefinition().name()
            if name in (parent, self.work_crs_name):
                if name == parent:
                    self.layer_wrapper = wrapper
                else:
                    self.crs_wrapper = wrapper
                wrapper.widgetValueHasChanged.connect(lambda _wrapper: self.update_units())
        self.update_units()

    def update_units(self) -> None:
        """Show the units of WORK_CRS when it is set, else those of the layer."""
        work = wrapper_crs(self.crs_wrapper)
        layer = wrapper_crs(self.layer_wrapper)
        # a CRS given as WKT has no authority id: name it as QGIS's CRS widgets do
        if work.isValid():
            where = tr("in the units of {0}, the CRS to work in").format(work.userFriendlyIdentifier())
            self.show_units(work.mapUnits(), where)
        elif layer.isValid():
            where = tr("in the units of the layer's CRS {0}").format(layer.userFriendlyIdentifier())
            self.show_units(layer.mapUnits(), where)
        else:
            self.show_units(DISTANCE_UNKNOWN, tr("in the units of the layer's CRS"))

    def show_units(self, units, where: str) -> None:
        if units != self.base_units:
            # a unit the user chose stays chosen when the CRS changes between linear units (2 km stays 2 km);
            # otherwise the number is read in the new CRS's units, as QGIS's own widget does
            if not (self.base_units in CHOICES and units in CHOICES):
                self.select_unit(units)
            self.base_units = units
        linear = units in CHOICES
        self.units_combo.setVisible(linear)
        self.units_label.setVisible(not linear)
        known = units != DISTANCE_UNKNOWN
        self.units_label.setText(QgsUnitTypes.toString(units) if known else tr("CRS units"))
        self.units_label.setToolTip(where)
        self.units_combo.setToolTip(where)
        degrees = units == DISTANCE_DEGREES
        self.warning.setVisible(degrees)
        self.warning.setText(tr("pick a projected CRS to work in (Advanced Parameters)") if degrees else "")
        self.warning.setToolTip(
            tr("Distances in degrees are refused: pick a projected CRS to work in, or reproject the layer.")
            if degrees
            else ""
        )

    def select_unit(self, units) -> None:
        if units in CHOICES:
            self.units_combo.setCurrentIndex(self.units_combo.findData(CHOICES.index(units)))
