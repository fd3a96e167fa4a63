"""The knobs of the explorer: ε on a log slider with a spin box and a sentence, distances in the layer's units."""

from __future__ import annotations

import math

from qgis.core import QgsUnitTypes
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

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


def _odds(epsilon: float) -> str | None:
    from ...core.previews.curve import odds_factor

    try:
        return odds_factor(epsilon)
    except ValueError:
        return None


def knob_sentence(name: str, settings: dict) -> str:
    """What the value of the privacy knob ``name`` means for a person in the data, computed from ``settings`` (the
    family's knob values), or "" for a knob without a sentence."""
    epsilon = settings.get("epsilon", 1.0)
    if name == "sets":
        total = settings["sets"] * epsilon
        factor = _odds(total)
        if factor is None:
            return tr("Publishing {0} sets costs L·ε = {1:.4g}: too large to protect anyone.").format(
                settings["sets"], total
            )
        return tr(
            "Publishing {0} sets costs L·ε = {1:.4g}: an attacker's odds about any one person change by at most a "
            "factor {2}."
        ).format(settings["sets"], total, factor)
    if name == "delta" and settings.get("method") != "laplace":
        if settings["delta"] > 0:
            return tr("The odds bound may fail for a person with a probability of at most δ = {0:.3g}.").format(
                settings["delta"]
            )
        return tr(
            "Empty: δ = 1/n for n points, which is weak (publishing one random person's point unprotected meets "
            "it): give δ well below 1/n for a release."
        )
    if name == "alpha" and settings.get("method") != "laplace":
        if settings["alpha"] > 0:
            return tr("A person's location is hidden within {0:g} map units: moves beyond are not covered.").format(
                settings["alpha"]
            )
        return tr("The kernel and LGCP methods need α > 0: how far one person's point is hidden.")
    if name == "interval" and settings.get("error_model") == "absolute":
        c = settings["interval"]
        return tr(
            "An attacker cannot tell whether a person's value lies in [x−{0:g}, x+{0:g}) or in [x+{0:g}, x+{1:g}) "
            "beyond the factor e^ε."
        ).format(c, 3 * c)
    if name == "relative_k" and settings.get("error_model") == "relative":
        return tr(
            "An attacker cannot tell a person's value from one {0:.0f}% smaller (a factor {1:g}) beyond the "
            "factor e^ε."
        ).format(100 * (1 - settings["relative_k"]), settings["relative_k"])
    if name == "min_count":
        return tr(
            "Cells with fewer than {0} contributors are not published: the counts are public, so this costs no "
            "privacy, but it does not hide who is present."
        ).format(settings["min_count"])
    if name == "total_share" and settings.get("method") == "laplace" and settings["total_share"] > 0:
        share = settings["total_share"]
        return tr("ε = {0:.4g} buys a noisy total of the points; the cells get ε = {1:.4g}. Together: ε.").format(
            share * epsilon, (1 - share) * epsilon
        )
    return ""


def make_knobs() -> dict:
    """The knob widgets of every family by name (the dialog shows those of the chosen family)."""
    from qgis.gui import QgsFieldComboBox

    from ...compat import FIELD_FILTER_NUMERIC

    knobs = {
        "epsilon": EpsilonKnob(epsilon_sentence),
        "cell_size": DistanceKnob(500.0),
        "error_model": QComboBox(),
        "interval": number(4, 0.0, 1e15, 50.0, 1.0),
        "relative_k": number(3, 0.001, 0.999, 0.9, 0.01),
        "statistic": QComboBox(),
        "min_count": QSpinBox(),
        "bounded": QCheckBox(),
        "lower_bound": QLineEdit(),
        "upper_bound": QLineEdit(),
        "margin": QLineEdit(),
        "sets": QSpinBox(),
        "truncate": QCheckBox(),
        "alpha_tail": number(4, 0.0, 0.4999, 0.0, 0.01),
        "c": number(3, 1.0, 1e6, 1.0, 0.1),
        "rate_scale": number(3, 1e-3, 1e12, 1.0, 1.0),
        "rescale_prior": QCheckBox(),
        "method": QComboBox(),
        "delta": number(9, 0.0, 0.999, 0.0, 1e-4),
        "alpha": DistanceKnob(0.0, optional=True),
        "total_share": number(3, 0.0, 0.99, 0.0, 0.05),
        "knots": QSpinBox(),
        "value_field": QgsFieldComboBox(),
        "count_field": QgsFieldComboBox(),
        "population_field": QgsFieldComboBox(),
        "rate_field": QgsFieldComboBox(),
        "expected_field": QgsFieldComboBox(),
        "radii": QLineEdit("0.5, 1"),
        "noise_levels": QLineEdit("0.25, 0.5, 1, 2"),
        "prs_sets": QSpinBox(),
        "risk_radius": DistanceKnob(0.0),
        "max_risk": number(4, 0.0001, 1.0, 0.05, 0.01),
    }
    for name, low, high, value in (("prs_sets", 0, 1000, 5), ("min_count", 1, 10**6, 1), ("sets", 1, 100000, 1),
                                   ("knots", 2, 45, 11)):  # fmt: skip
        knobs[name].setRange(low, high)
        knobs[name].setValue(value)
    for name in ("truncate", "rescale_prior"):
        knobs[name].setChecked(True)
    for name in ("lower_bound", "upper_bound", "margin"):
        knobs[name].setPlaceholderText(tr("empty: not set"))
    knobs["error_model"].addItem(tr("Absolute error (interval c)"), "absolute")
    knobs["error_model"].addItem(tr("Relative error (factor k)"), "relative")
    knobs["statistic"].addItem(tr("Mean"), "mean")
    knobs["statistic"].addItem(tr("Total"), "total")
    for key, text in (("laplace", tr("Laplace")), ("kernel", tr("Kernel")), ("lgcp", tr("LGCP"))):
        knobs["method"].addItem(text, key)
    knobs["alpha_tail"].setSpecialValueText(tr("default (1/groups)"))
    knobs["delta"].setSpecialValueText(tr("default (1/n)"))
    for name in ("value_field", "count_field", "population_field", "rate_field", "expected_field"):
        knobs[name].setFilters(FIELD_FILTER_NUMERIC)
    for name in ("rate_field", "expected_field"):
        knobs[name].setAllowEmptyFieldName(True)
    return knobs


def knob_labels() -> dict:
    """The translated label of each knob."""
    return {
        "epsilon": tr("Privacy parameter ε"),
        "cell_size": tr("Cell size"),
        "error_model": tr("Error model"),
        "interval": tr("Interval half-width c"),
        "relative_k": tr("Relative factor k"),
        "statistic": tr("Published statistic"),
        "min_count": tr("Minimum contributors per published cell"),
        "bounded": tr("Bounded mechanism (clamp to [L, U])"),
        "lower_bound": tr("Lower bound L_t of a contribution"),
        "upper_bound": tr("Upper bound U_t of a contribution"),
        "margin": tr("Margin γ (absolute) or λ (relative)"),
        "sets": tr("Synthetic data sets L"),
        "truncate": tr("Prior predictive truncation"),
        "alpha_tail": tr("α (tail probability)"),
        "c": tr("c (widening of the bounds)"),
        "rate_scale": tr("Rate per (people)"),
        "rescale_prior": tr("Rescale prior to the total"),
        "method": tr("Method"),
        "delta": tr("δ"),
        "alpha": tr("α (neighbourhood radius)"),
        "total_share": tr("Share of ε for a noisy total"),
        "knots": tr("Knots per dimension"),
        "value_field": tr("Value field"),
        "count_field": tr("Count field (confidential)"),
        "population_field": tr("Population field"),
        "rate_field": tr("Prior rate field"),
        "expected_field": tr("Prior expected count field"),
        "radii": tr("Radial radii (comma-separated)"),
        "noise_levels": tr("ANS noise variances (comma-separated)"),
        "prs_sets": tr("PRS replicates"),
        "risk_radius": tr("Risk radius"),
        "max_risk": tr("Maximum acceptable risk"),
    }


#: The order of the knob rows in the dialog.
ORDER = (
    "value_field", "count_field", "population_field", "rate_field", "expected_field", "method", "epsilon", "sets",
    "delta", "alpha", "alpha_tail", "c", "truncate", "rate_scale", "rescale_prior", "cell_size", "total_share",
    "knots", "error_model", "interval", "relative_k", "statistic", "min_count", "bounded", "lower_bound",
    "upper_bound", "margin", "radii", "noise_levels", "prs_sets", "risk_radius", "max_risk",
)  # fmt: skip


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
