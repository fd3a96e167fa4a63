"""The privacy explorer dialog: pick a layer, a method family and its knobs, see the trade-off against ε in a
chart computed in a background task, then run the matching algorithm by id with exactly those settings."""

from __future__ import annotations

import json

from qgis.core import QgsApplication, QgsMapLayer, QgsProcessingFeedback, QgsProject
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from ...compat import FIELD_FILTER_NUMERIC
from ...i18n import tr
from . import data as layer_data
from . import families
from .chart import Chart
from .knobs import DistanceKnob, EpsilonKnob, epsilon_sentence, number
from .mapview import MapPreview
from .task import PreviewTask

SCOPE, KEY = "spatial_privacy", "explorer/settings"
DEBOUNCE_MS = 400


class ExplorerDialog(QDialog):
    """Non-modal. ``seed`` (None: fresh entropy) is handed to the algorithm by :meth:`run`, for tests only; the
    last preview task is ``task``, the last run's results ``last_result``."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.seed = None
        self.task = None  # the running preview task, None when none runs
        self.preview_error = None
        self.last_result = None
        self.sweep_points = []  # the LGCP sweep's settings received so far from the running preview
        self._cache = {}
        self.setObjectName("privacyExplorer")
        self.setWindowTitle(tr("Privacy explorer"))
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.start_preview)
        self._build()
        self.restore()
        self.family_changed()

    # -- widgets ------------------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.family_combo = QComboBox()
        for family in families.FAMILIES:
            self.family_combo.addItem(family.title(), family.key)
        self.layer_combo = QgsMapLayerComboBox()
        self.knobs = {
            "epsilon": EpsilonKnob(epsilon_sentence),
            "cell_size": DistanceKnob(500.0),
            "error_model": QComboBox(),
            "interval": number(4, 0.0, 1e15, 50.0, 1.0),
            "relative_k": number(3, 0.001, 0.999, 0.9, 0.01),
            "alpha_tail": number(4, 0.0, 0.4999, 0.0, 0.01),
            "c": number(3, 1.0, 1e6, 1.0, 0.1),
            "method": QComboBox(),
            "delta": number(9, 0.0, 0.999, 0.0, 1e-4),
            "alpha": DistanceKnob(0.0, optional=True),
            "value_field": QgsFieldComboBox(),
            "count_field": QgsFieldComboBox(),
            "population_field": QgsFieldComboBox(),
            "rate_field": QgsFieldComboBox(),
            "radii": QLineEdit("0.5, 1"),
            "noise_levels": QLineEdit("0.25, 0.5, 1, 2"),
            "prs_sets": QSpinBox(),
            "risk_radius": DistanceKnob(0.0),
            "max_risk": number(4, 0.0001, 1.0, 0.05, 0.01),
        }
        self.knobs["prs_sets"].setRange(0, 1000)
        self.knobs["prs_sets"].setValue(5)
        self.knobs["error_model"].addItem(tr("Absolute error (interval c)"), "absolute")
        self.knobs["error_model"].addItem(tr("Relative error (factor k)"), "relative")
        for key, text in (("laplace", tr("Laplace")), ("kernel", tr("Kernel")), ("lgcp", tr("LGCP"))):
            self.knobs["method"].addItem(text, key)
        self.knobs["alpha_tail"].setSpecialValueText(tr("default (1/groups)"))
        self.knobs["delta"].setSpecialValueText(tr("default (1/n)"))
        for name in ("value_field", "count_field", "population_field", "rate_field"):
            self.knobs[name].setFilters(FIELD_FILTER_NUMERIC)
        self.knobs["rate_field"].setAllowEmptyFieldName(True)
        labels = {
            "epsilon": tr("Privacy parameter ε"),
            "cell_size": tr("Cell size"),
            "error_model": tr("Error model"),
            "interval": tr("Interval half-width c"),
            "relative_k": tr("Relative factor k"),
            "alpha_tail": tr("α (tail probability)"),
            "c": tr("c (widening of the bounds)"),
            "method": tr("Method"),
            "delta": tr("δ"),
            "alpha": tr("α (neighbourhood radius)"),
            "value_field": tr("Value field"),
            "count_field": tr("Count field (confidential)"),
            "population_field": tr("Population field"),
            "rate_field": tr("Prior rate field"),
            "radii": tr("Radial radii (comma-separated)"),
            "noise_levels": tr("ANS noise variances (comma-separated)"),
            "prs_sets": tr("PRS replicates"),
            "risk_radius": tr("Risk radius"),
            "max_risk": tr("Maximum acceptable risk"),
        }
        grid = QGridLayout()
        grid.addWidget(QLabel(tr("Method family")), 0, 0)
        grid.addWidget(self.family_combo, 0, 1)
        grid.addWidget(QLabel(tr("Confidential layer")), 1, 0)
        grid.addWidget(self.layer_combo, 1, 1)
        self.rows = {}
        order = ("value_field", "count_field", "population_field", "rate_field", "method", "epsilon", "delta")
        order += ("alpha", "alpha_tail", "c", "cell_size", "error_model", "interval", "relative_k")
        order += ("radii", "noise_levels", "prs_sets", "risk_radius", "max_risk")
        for row, name in enumerate(order, start=2):
            label = QLabel(labels[name])
            grid.addWidget(label, row, 0)
            grid.addWidget(self.knobs[name], row, 1)
            self.rows[name] = (label, self.knobs[name])
        self.problem = QLabel()
        self.problem.setObjectName("explorerProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020;")
        self.chart = Chart(self)
        self.map = MapPreview(self)
        self.notes = QLabel()
        self.notes.setObjectName("explorerNotes")
        self.notes.setWordWrap(True)
        self.busy = QLabel()
        self.busy.setObjectName("explorerBusy")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.cancel_button = QPushButton(tr("Cancel preview"))
        self.cancel_button.clicked.connect(self.cancel_preview)
        status = QHBoxLayout()
        status.addWidget(self.busy, 1)
        status.addWidget(self.progress)
        status.addWidget(self.cancel_button)
        steward = QLabel(tr("Computed from the confidential data: for the steward only."))
        steward.setWordWrap(True)
        self.run_button = QPushButton(tr("Run"))
        self.run_button.setObjectName("explorerRun")
        self.toolbox_button = QPushButton(tr("Open in toolbox"))
        self.save_button = QPushButton(tr("Save chart as PNG…"))
        close = QPushButton(tr("Close"))
        self.run_button.clicked.connect(self.run)
        self.toolbox_button.clicked.connect(self.open_in_toolbox)
        self.save_button.clicked.connect(self.save_chart_dialog)
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        for button in (self.save_button, self.toolbox_button, self.run_button, close):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.problem)
        layout.addWidget(steward)
        views = QHBoxLayout()
        views.addWidget(self.chart, 3)
        views.addWidget(self.map, 2)
        layout.addLayout(views, 1)
        layout.addWidget(self.notes)
        layout.addLayout(status)
        layout.addLayout(buttons)
        self._set_busy(False, "")
        self.family_combo.currentIndexChanged.connect(self.family_changed)
        self.layer_combo.layerChanged.connect(self.layer_changed)
        self.knobs["epsilon"].changed.connect(self.schedule)
        self.knobs["error_model"].currentIndexChanged.connect(self._show_rows)
        self.knobs["method"].currentIndexChanged.connect(self._show_rows)
        for name, widget in self.knobs.items():
            if isinstance(widget, QgsFieldComboBox):
                widget.fieldChanged.connect(self.schedule)
            elif isinstance(widget, QComboBox):
                widget.currentIndexChanged.connect(self.schedule)
            elif isinstance(widget, QLineEdit):
                widget.textChanged.connect(self.schedule)
            elif name != "epsilon":
                widget.valueChanged.connect(self.schedule)

    # -- state --------------------------------------------------------------------------------------------------

    def family(self) -> families.Family:
        return families.BY_KEY[self.family_combo.currentData()]

    def settings(self) -> dict:
        """The knobs of the current family as plain values (what the preview and the run use)."""
        values = {}
        for name in self.family().knobs + self.family().fields:
            widget = self.knobs[name]
            if isinstance(widget, QgsFieldComboBox):
                values[name] = widget.currentField()
            elif isinstance(widget, QComboBox):
                values[name] = widget.currentData()
            elif isinstance(widget, QLineEdit):
                values[name] = widget.text()
            else:
                values[name] = widget.value()
        return values

    def family_changed(self, *_) -> None:
        layer = self.layer_combo.currentLayer()
        self.layer_combo.setFilters(self.family().layer_filter)
        if layer is not None and self.layer_combo.currentLayer() is None:
            self.layer_combo.setLayer(None)
        self.layer_changed(self.layer_combo.currentLayer())

    def layer_changed(self, layer) -> None:
        for name in ("value_field", "count_field", "population_field", "rate_field"):
            self.knobs[name].setLayer(layer)
        units = layer.crs().mapUnits() if layer is not None and layer.isSpatial() else None
        for name in ("cell_size", "alpha", "risk_radius"):
            self.knobs[name].set_units(units)
        self._show_rows()

    def _show_rows(self, *_) -> None:
        family = self.family()
        shown = set(family.knobs + family.fields)
        settings = {
            "error_model": self.knobs["error_model"].currentData(),
            "method": self.knobs["method"].currentData(),
        }
        if family.key == families.PUFFERFISH:
            shown.discard("relative_k" if settings["error_model"] == "absolute" else "interval")
        if family.key == families.POINTS:
            shown.discard("delta" if settings["method"] == "laplace" else "cell_size")
        for name, (label, widget) in self.rows.items():
            label.setVisible(name in shown)
            widget.setVisible(name in shown)
        self.schedule()

    def check(self) -> str | None:
        """What the user must change before a preview or a run, or ``None``; shown, and Run disabled, if any."""
        problem = layer_data.layer_problem(self.family(), self.layer_combo.currentLayer())
        settings = self.settings()
        if problem is None and self.family().key == families.PUFFERFISH:
            if not settings["value_field"]:
                problem = tr("Pick the value field.")
            elif settings["cell_size"] <= 0:
                problem = tr("Set a cell size > 0.")
            elif settings["error_model"] == "absolute" and settings["interval"] <= 0:
                problem = tr("Set the interval half-width c > 0, in the value's units.")
        if problem is None and self.family().key == families.COUNTS:
            if not (settings["count_field"] and settings["population_field"]):
                problem = tr("Pick the count field and the population field.")
        if problem is None and self.family().key == families.SWEEP:
            problem = self._sweep_problem(settings)
        if problem is None:
            try:
                self.layer_arrays()
            except ValueError as error:
                problem = str(error)
        self.problem.setText(problem or "")
        self.problem.setVisible(bool(problem))
        for button in (self.run_button, self.toolbox_button):
            button.setEnabled(problem is None)
        return problem

    @staticmethod
    def _sweep_problem(settings: dict) -> str | None:
        try:
            radii = families.parse_list(settings["radii"])
            noise = families.parse_list(settings["noise_levels"])
        except ValueError as error:
            return str(error)
        if any(not value > 0 for value in radii):
            return tr("Radial radii must be > 0.")
        if any(not value >= 0 for value in noise):
            return tr("ANS noise variances must be >= 0.")
        if not (radii or noise or settings["prs_sets"]):
            return tr("Give at least one radius, noise variance or PRS replicate.")
        if settings["risk_radius"] <= 0:
            return tr("Set the risk radius > 0: how close the intruder must place a person (e.g. a house's size).")
        return None

    def layer_arrays(self) -> dict:
        """The layer's data as arrays, read in this (the main) thread once per layer and fields."""
        layer, family, settings = self.layer_combo.currentLayer(), self.family(), self.settings()
        fields = tuple(settings.get(name) for name in family.fields)
        key = (layer.id(), family.key, fields)
        if key not in self._cache:
            if family.key == families.COUNTS:
                self._cache[key] = layer_data.read_counts(layer, *fields)
            else:
                self._cache[key] = layer_data.read_points(layer, settings.get("value_field"))
        return self._cache[key]

    # -- preview ------------------------------------------------------------------------------------------------

    def schedule(self, *_) -> None:
        """Say at once what must change (Run disabled), and restart the debounce timer: the preview starts once
        the knobs stop moving."""
        self.check()
        self.timer.start()

    def start_preview(self) -> PreviewTask | None:
        self.timer.stop()
        self.cancel_preview()
        if self.check() is not None:
            self.chart.clear(self.problem.text())
            return None
        family, settings, arrays = self.family(), self.settings(), self.layer_arrays()
        if self.seed is not None:
            settings["preview_seed"] = self.seed  # tests: the preview's draws equal the run's

        def compute(progress):
            result = families.compute(family, arrays, settings, progress, partial=task.emit_partial)
            task.draw = families.draw(family, arrays, settings, task.check_canceled)  # the map preview's draw
            return result

        task = PreviewTask(tr("Privacy explorer preview"), compute)
        task.draw = None
        task.partial.connect(self._partial)
        self.sweep_points = []
        task.taskCompleted.connect(lambda: self._finished(task))
        task.taskTerminated.connect(lambda: self._finished(task))
        task.progressChanged.connect(lambda value: self.progress.setValue(int(value)))
        self.task = task
        self.chart.clear()
        self.map.clear()
        self.notes.clear()
        self._set_busy(True, tr("Computing the preview…"))
        QgsApplication.taskManager().addTask(task)
        return task

    def cancel_preview(self) -> None:
        """Cancel the running preview (its computation stops at its next progress report)."""
        if self.task is not None:
            self.task.cancel()

    def _partial(self, point) -> None:
        """One more setting of the LGCP sweep (queued from the task's thread): draw it at once."""
        if self.sender() is not self.task:
            return  # an older preview, superseded
        self.sweep_points.append(point)
        self.chart.show_sweep(self.sweep_points, self.settings()["max_risk"])

    def _finished(self, task: PreviewTask) -> None:
        if task is not self.task:
            return  # an older preview, superseded
        self.task = None  # the task manager deletes the task once it has ended
        self.preview_error = task.error
        layer = self.layer_combo.currentLayer()
        if task.result is not None and layer is not None and layer.isSpatial():
            self.map.show_draw(layer, task.draw)
        if task.result is not None and hasattr(task.result, "points"):  # the LGCP sweep
            result = task.result
            self.chart.show_sweep(result.points, result.max_risk, result.baseline_max, result.recommended, True)
            self.notes.setText(self._sweep_note(result))
            self._set_busy(False, "")
        elif task.result is not None:
            self.chart.show_curve(task.result, families.series_labels(), families.axis_labels())
            notes = list(dict.fromkeys(task.result.notes))
            self.notes.setText("\n".join(notes[:3] + ["…"] * (len(notes) > 3)))
            self._set_busy(False, "")
        elif task.error:
            self.chart.clear(task.error)
            self._set_busy(False, tr("The preview failed: {0}").format(task.error))
        else:
            self._set_busy(False, tr("Preview canceled."))

    @staticmethod
    def _sweep_note(result) -> str:
        if result.recommended is None:
            return tr("No setting has maximum risk at or below {0:g}: nothing recommended.").format(result.max_risk)
        best = result.points[result.recommended]
        return tr("Recommended: {0} (pMSE {1:.4g}, maximum risk {2:.4g}); risk with nothing released {3:.4g}.").format(
            best.label, best.pmse, best.max_risk, result.baseline_max
        )

    def _set_busy(self, busy: bool, text: str) -> None:
        self.busy.setText(text)
        self.progress.setVisible(busy)
        self.progress.setValue(0)
        self.cancel_button.setEnabled(busy)

    # -- actions ------------------------------------------------------------------------------------------------

    def parameters(self) -> dict:
        layer = self.layer_combo.currentLayer()
        return families.parameters(self.family(), layer.id(), self.settings(), self.seed)

    def run(self):
        """Run the family's algorithm with exactly the chosen settings; the outputs are added to the project."""
        from qgis import processing

        if self.check() is not None:
            return None
        self.remember()
        feedback = QgsProcessingFeedback()
        try:
            self.last_result = processing.run(self.family().algorithm, self.parameters(), feedback=feedback)
        except Exception as error:  # noqa: BLE001 (the algorithm says what is wrong: show it, never crash)
            self.busy.setText(tr("The run failed: {0}").format(error))
            return None
        output = self.last_result.get(self.family().output)
        if isinstance(output, QgsMapLayer):
            QgsProject.instance().addMapLayer(output)
        self.busy.setText(tr("Done: the output was added to the project."))
        return self.last_result

    def open_in_toolbox(self) -> None:
        from qgis import processing

        if self.check() is None:
            self.remember()
            processing.execAlgorithmDialog(self.family().algorithm, self.parameters())

    def save_chart_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Save chart as PNG"), "", tr("PNG images (*.png)"))
        if path:
            self.chart.save_png(path if path.lower().endswith(".png") else path + ".png")

    def remember(self) -> None:
        stored = {"family": self.family().key, **{k: v for k, v in self.settings().items() if not k.endswith("field")}}
        QgsProject.instance().writeEntry(SCOPE, KEY, json.dumps(stored))

    def restore(self) -> None:
        text, found = QgsProject.instance().readEntry(SCOPE, KEY, "")
        try:
            stored = json.loads(text) if found and text else {}
        except ValueError:
            stored = {}
        index = self.family_combo.findData(stored.pop("family", None))
        if index >= 0:
            self.family_combo.setCurrentIndex(index)
        for name, value in stored.items():
            widget = self.knobs.get(name)
            if isinstance(widget, QComboBox):
                found_at = widget.findData(value)
                widget.setCurrentIndex(max(found_at, 0))
            elif isinstance(widget, QLineEdit) and isinstance(value, str):
                widget.setText(value)
            elif isinstance(widget, QSpinBox) and isinstance(value, int):
                widget.setValue(value)
            elif widget is not None and isinstance(value, (int, float)):
                widget.setValue(float(value))

    def closeEvent(self, event):  # noqa: N802 (Qt naming)
        self.timer.stop()
        self.cancel_preview()
        self.remember()
        super().closeEvent(event)
