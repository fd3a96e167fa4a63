"""The knobs of the explorer: ε on a log slider with a spin box and a sentence, distances in the layer's units."""

from __future__ import annotations

import math

from qgis.core import QgsUnitTypes
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QDoubleSpinBox, QHBoxLayout, QLabel, QSlider, QVBoxLayout, QWidget

from ...compat import DISTANCE_UNKNOWN
from ...i18n import tr

LOG_MIN, LOG_MAX, STEPS = -2.0, 2.0, 400  # the slider spans ε from 0.01 to 100


def epsilon_sentence(epsilon: float) -> str:
    from ...core.previews.curve import epsilon_text, odds_factor

    try:
        return tr("With ε = {0} an attacker's odds about any one person change by at most a factor {1}.").format(
            epsilon_text(epsilon), odds_factor(epsilon)
        )
    except ValueError:
        return ""


def number(decimals: int, low: float, high: float, value: float, step: float) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setDecimals(decimals)
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setValue(value)
    return spin


class EpsilonKnob(QWidget):
    """ε on a logarithmic slider and a spin box that follow each other; ``sentence(ε)`` fills the label below.

    ``changed(float)`` is emitted once per change, whichever of the two moved."""

    changed = pyqtSignal(float)

    def __init__(self, sentence, parent=None, value: float = 1.0, minimum: float = 1e-3, maximum: float = 1e3):
        super().__init__(parent)
        self._sentence = sentence
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("epsilonSlider")
        self.slider.setRange(0, STEPS)
        self.spin = QDoubleSpinBox()
        self.spin.setObjectName("epsilonSpin")
        self.spin.setDecimals(4)
        self.spin.setRange(minimum, maximum)
        self.spin.setSingleStep(0.1)
        self.label = QLabel()
        self.label.setObjectName("epsilonSentence")
        self.label.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.slider, 1)
        row.addWidget(self.spin)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.label)
        self.slider.valueChanged.connect(self._slid)
        self.spin.valueChanged.connect(self._typed)
        self.setValue(value)

    def value(self) -> float:
        return float(self.spin.value())

    def setValue(self, value: float) -> None:  # noqa: N802 (Qt naming)
        self.spin.setValue(value)
        self._typed(self.spin.value())

    def _slid(self, position: int) -> None:
        epsilon = 10 ** (LOG_MIN + (LOG_MAX - LOG_MIN) * position / STEPS)
        if abs(math.log10(epsilon) - math.log10(self.spin.value())) > 0.5 * (LOG_MAX - LOG_MIN) / STEPS:
            self.spin.setValue(float(f"{epsilon:.3g}"))  # emits valueChanged -> _typed

    def _typed(self, value: float) -> None:
        position = round((math.log10(max(value, 1e-12)) - LOG_MIN) / (LOG_MAX - LOG_MIN) * STEPS)
        self.slider.blockSignals(True)
        self.slider.setValue(min(max(position, 0), STEPS))
        self.slider.blockSignals(False)
        self.label.setText(self._sentence(value))
        self.changed.emit(float(value))


class DistanceKnob(QWidget):
    """A distance in the layer's CRS units: a spin box and the units' name beside it."""

    def __init__(self, value: float = 0.0, parent=None, optional: bool = False):
        super().__init__(parent)
        self.spin = QDoubleSpinBox()
        self.spin.setDecimals(3)
        self.spin.setRange(0.0, 1e12)
        self.spin.setValue(value)
        if optional:
            self.spin.setSpecialValueText("—")  # 0 shows as "not set": the algorithm chooses
        self.units = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.spin, 1)
        layout.addWidget(self.units)
        self.valueChanged = self.spin.valueChanged

    def value(self) -> float:
        return float(self.spin.value())

    def setValue(self, value: float) -> None:  # noqa: N802 (Qt naming)
        self.spin.setValue(value)

    def set_units(self, unit) -> None:
        """Show the name of ``unit`` (a distance unit of the compat shim), nothing if unknown."""
        self.units.setText("" if unit is None or unit == DISTANCE_UNKNOWN else QgsUnitTypes.toString(unit))
