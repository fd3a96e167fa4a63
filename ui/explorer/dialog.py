"""The privacy explorer dialog: pick a layer, a method family and its knobs, see the trade-off against ε in a
chart computed in a background task, then run the matching algorithm by id with exactly those settings."""

from __future__ import annotations

import json

from qgis.core import QgsApplication, QgsProject
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QCheckBox,
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

from ...core.progress import scaled
from ...i18n import tr
from . import chart, families, mapview
from . import data as layer_data
from .chart import Chart
from .knobs import ORDER, knob_labels, knob_sentence, make_knobs
from .mapview import MapPreview
from .runner import AlgorithmRun
from .task import PreviewTask

SCOPE, KEY = "spatial_privacy", "explorer/settings"
DEBOUNCE_MS = 400
#: Share of a preview's progress spent reading the layer (when not read before).
READ_SHARE = 0.3
#: The knobs with a sentence under them (what their value means for a person in the data).
SENTENCES = ("sets", "delta", "alpha", "interval", "relative_k", "min_count", "total_share")


class ExplorerDialog(QDialog):
    """Non-modal. ``seed`` (None: fresh entropy) is handed to the algorithm by :meth:`run`, for tests only; the
    last preview task is ``task``, the last run's results ``last_result`` (or its error ``run_error``);
    ``run_finished(ok)`` is emitted when a run has ended."""

    run_finished = pyqtSignal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.seed = None
        self.task = None  # the running preview task, None when none runs
        self.preview_error = None
        self.last_result = None
        self.sweep_points = []  # the LGCP sweep's settings received so far from the running preview
        self.running = None  # the algorithm run going on (an AlgorithmRun), None when none runs
        self.run_error = None  # the last run's error message
        self.busy_run_text = ""
        self.toolbox_dialog = None
        self._cache = {}  # the layers' data read by earlier previews, by _data_key()
        self._read_errors = {}  # what was wrong with a layer's values, found while reading them, by _data_key()
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
        self.knobs = make_knobs()
        labels = knob_labels()
        grid = QGridLayout()
        grid.addWidget(QLabel(tr("Method family")), 0, 0)
        grid.addWidget(self.family_combo, 0, 1)
        grid.addWidget(QLabel(tr("Confidential layer")), 1, 0)
        grid.addWidget(self.layer_combo, 1, 1)
        self.rows, self.sentences = {}, {}
        row = 2
        for name in ORDER:
            label = QLabel(labels[name])
            grid.addWidget(label, row, 0)
            grid.addWidget(self.knobs[name], row, 1)
            self.rows[name] = (label, self.knobs[name])
            row += 1
            if name in SENTENCES:  # one sentence under the knob: what its value means for a person
                sentence = self.sentences[name] = QLabel()
                sentence.setObjectName(name + "Sentence")
                sentence.setWordWrap(True)
                grid.addWidget(sentence, row, 1)
                row += 1
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
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setObjectName("explorerCancel")
        self.cancel_button.clicked.connect(self.cancel)
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
        for name in ("error_model", "method"):
            self.knobs[name].currentIndexChanged.connect(self._show_rows)
        for name in ("bounded",):
            self.knobs[name].toggled.connect(self._show_rows)
        for name in ("rate_field", "expected_field"):
            self.knobs[name].fieldChanged.connect(self._show_rows)
        for name, widget in self.knobs.items():
            if isinstance(widget, QgsFieldComboBox):
                widget.fieldChanged.connect(self.schedule)
            elif isinstance(widget, QComboBox):
                widget.currentIndexChanged.connect(self.schedule)
            elif isinstance(widget, QLineEdit):
                widget.textChanged.connect(self.schedule)
            elif isinstance(widget, QCheckBox):
                widget.toggled.connect(self.schedule)
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
            elif isinstance(widget, QCheckBox):
                values[name] = widget.isChecked()
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
        for name in ("value_field", "count_field", "population_field", "rate_field", "expected_field"):
            self.knobs[name].setLayer(layer)
        units = layer.crs().mapUnits() if layer is not None and layer.isSpatial() else None
        for name in ("cell_size", "alpha", "risk_radius"):
            self.knobs[name].set_units(units)
        self._show_rows()

    def _show_rows(self, *_) -> None:
        family = self.family()
        shown = set(family.knobs + family.fields)
        method = self.knobs["method"].currentData()
        if family.key == families.PUFFERFISH:
            if self.knobs["error_model"].currentData() == "absolute":
                shown.discard("relative_k")
            else:
                shown -= {"interval", "statistic"}  # a total is published for absolute error only
            if not self.knobs["bounded"].isChecked():
                shown -= {"lower_bound", "upper_bound", "margin"}
        if family.key == families.POINTS:
            shown -= {"laplace": {"delta", "knots"}, "kernel": {"cell_size", "total_share", "knots"},
                      "lgcp": {"cell_size", "total_share"}}[method]  # fmt: skip
        if family.key == families.COUNTS and not self.knobs["rate_field"].currentField():
            shown.discard("rate_scale")
        for name, (label, widget) in self.rows.items():
            label.setVisible(name in shown)
            widget.setVisible(name in shown)
            if name in self.sentences:
                self.sentences[name].setVisible(name in shown)
        self.schedule()

    def _update_sentences(self) -> None:
        settings = self.settings()
        for name, label in self.sentences.items():
            label.setText(knob_sentence(name, settings) if name in settings else "")

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
            elif settings["bounded"]:
                problem = self._bounds_problem(settings)
        if problem is None and self.family().key == families.COUNTS:
            if not (settings["count_field"] and settings["population_field"]):
                problem = tr("Pick the count field and the population field.")
            elif bool(settings["rate_field"]) == bool(settings["expected_field"]):
                problem = tr("Pick exactly one of the prior rate field and the prior expected count field.")
        if problem is None and self.family().key == families.SWEEP:
            problem = self._sweep_problem(settings)
        if problem is None:
            problem = self._read_errors.get(self._data_key())  # found while reading the values in a preview
        if self.running is not None:
            problem = problem or ""  # one run at a time
        self.problem.setText(problem or "")
        self.problem.setVisible(bool(problem))
        for button in (self.run_button, self.toolbox_button):
            button.setEnabled(problem is None)
        self._update_sentences()
        return problem or None

    @staticmethod
    def _bounds_problem(settings: dict) -> str | None:
        try:
            lower, upper = (families.parse_number(settings[name]) for name in ("lower_bound", "upper_bound"))
            families.parse_number(settings["margin"])
        except ValueError as error:
            return str(error)
        if lower is None or upper is None:
            return tr("The bounded mechanism needs public contribution bounds: give L_t and U_t.")
        if not lower < upper:
            return tr("The lower bound L_t must be below the upper bound U_t.")
        return None

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

    def _data_key(self):
        """What the layer's data read for a preview depends on: the layer, the family and its fields."""
        layer, family, settings = self.layer_combo.currentLayer(), self.family(), self.settings()
        if layer is None:
            return None
        return layer.id(), family.key == families.COUNTS, tuple(settings.get(name) for name in family.fields)

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
        family, settings, key = self.family(), self.settings(), self._data_key()
        if self.seed is not None:
            settings["preview_seed"] = self.seed  # tests: the preview's draws equal the run's
        arrays = self._cache.get(key)
        # not read yet: snapshot the features here, read them in the task (the window never waits on a read)
        read = layer_data.reader(self.layer_combo.currentLayer(), family, settings) if arrays is None else None
        size, found = self.chart.render_size(), []
        labels, axis_labels = families.series_labels(), families.axis_labels()

        renderer = []  # the LGCP sweep's chart, made in the task when its first set has finished

        def sweep_chart(points, *finished) -> chart.Rendered:
            if not renderer:
                renderer.append(chart.SweepRenderer(size, settings["max_risk"]))
            return renderer[0].render(points, *finished)

        def add_point(point) -> None:  # the LGCP sweep, one more set: drawn here, in the task, then shown
            task.check_canceled()
            found.append(point)
            task.emit_partial(sweep_chart(found))

        def compute(progress):
            nonlocal read
            data = arrays
            if data is None:
                try:
                    data = task.data = read(scaled(progress, 0.0, READ_SHARE))
                except layer_data.LayerDataError as error:
                    task.read_error = str(error)
                    raise
                finally:
                    read = None  # the snapshot of the features goes here, in the task's thread, once read
                progress = scaled(progress, READ_SHARE, 1.0)
            result = families.compute(family, data, settings, progress, partial=add_point)
            task.draw = families.draw(family, data, settings, task.check_canceled)  # the map preview's draw
            if task.draw is not None and not isinstance(task.draw, tuple):  # a grid: its cells built here too
                task.draw = mapview.grid_features(task.draw)
            task.check_canceled()
            if hasattr(result, "points"):  # the LGCP sweep, finished
                task.rendered = sweep_chart(result.points, result.baseline_max, result.recommended, True)
            else:
                task.rendered = chart.render_curve(result, size, labels, axis_labels)
            return result

        task = PreviewTask(tr("Privacy explorer preview"), compute)
        task.key, task.data, task.read_error, task.draw, task.rendered = key, None, None, None, None
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

    def cancel(self) -> None:
        """Cancel the running algorithm, if any, else the running preview."""
        if self.running is not None:
            self.running.cancel()
        else:
            self.cancel_preview()

    def cancel_preview(self) -> None:
        """Cancel the running preview (its computation stops at its next progress report)."""
        if self.task is not None:
            self.task.cancel()

    def _partial(self, rendered) -> None:
        """One more setting of the LGCP sweep, drawn in the task's thread (queued from there): show it."""
        if self.sender() is not self.task:
            return  # an older preview, superseded
        self.sweep_points = rendered.sweep["points"]
        self.chart.show_rendered(rendered)

    def _finished(self, task: PreviewTask) -> None:
        if task is not self.task:
            return  # an older preview, superseded
        self.task = None  # the task manager deletes the task once it has ended
        self.preview_error = task.error
        if task.data is not None:
            self._cache[task.key] = task.data
        if task.read_error is not None:
            self._read_errors[task.key] = task.read_error
            self.check()  # says what to change and disables Run
        layer = self.layer_combo.currentLayer()
        if task.result is not None and layer is not None and layer.isSpatial():
            self.map.show_draw(layer, task.draw)
        if task.result is not None and hasattr(task.result, "points"):  # the LGCP sweep
            self.chart.show_rendered(task.rendered)
            self.notes.setText(self._sweep_note(task.result))
            self._set_busy(False, "")
        elif task.result is not None:
            self.chart.show_rendered(task.rendered)
            notes = list(dict.fromkeys(families.note_text(note) for note in task.result.notes))
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
        if self.running is not None and not busy:
            busy, text = True, self.busy_run_text  # a run goes on: its busy state stays
        self.busy.setText(text)
        self.progress.setVisible(busy)
        self.progress.setValue(0)
        self.cancel_button.setEnabled(busy)

    # -- actions ------------------------------------------------------------------------------------------------

    def parameters(self) -> dict:
        layer = self.layer_combo.currentLayer()
        return families.parameters(self.family(), layer.id(), self.settings(), self.seed)

    def run(self) -> AlgorithmRun | None:
        """Run the family's algorithm with exactly the chosen settings in the background, as the toolbox does
        (Processing history, outputs loaded into the project); ``run_finished`` tells when it has ended."""
        if self.check() is not None:
            return None
        self.remember()
        self.last_result = self.run_error = None
        try:
            running = AlgorithmRun(self.family().algorithm, self.parameters())
        except ValueError as error:
            self.busy.setText(tr("The run failed: {0}").format(error))
            return None
        self.running = running
        self.busy_run_text = tr("Running “{0}”…").format(running.algorithm.displayName())
        running.progress.connect(self._run_progress)
        running.finished.connect(self._run_finished)  # bound slots: disconnected if the dialog goes first
        self.check()  # disables Run while the algorithm runs
        self._set_busy(True, self.busy_run_text)
        running.start()
        return running

    def _run_progress(self, percent: float) -> None:
        if self.running is not None:
            self.progress.setValue(int(percent))

    def _run_finished(self, ok: bool, outcome) -> None:
        if self.sender() is not self.running:
            return
        self.running = None
        if ok:
            self.last_result = outcome
            self._set_busy(False, tr("Done: the output was added to the project."))
        else:
            self.run_error = outcome
            self._set_busy(False, tr("The run failed: {0}").format(outcome))
        self.check()
        self.run_finished.emit(ok)

    def open_in_toolbox(self):
        """The algorithm's own dialog, prefilled with the chosen settings and shown (not run): the user may change
        anything before running it from there. Returns the dialog (kept in ``toolbox_dialog``)."""
        from qgis import processing

        if self.check() is not None:
            return None
        self.remember()
        self.toolbox_dialog = processing.createAlgorithmDialog(self.family().algorithm, self.parameters())
        if self.toolbox_dialog is not None:
            self.toolbox_dialog.show()
        return self.toolbox_dialog

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
            elif isinstance(widget, QCheckBox) and isinstance(value, bool):
                widget.setChecked(value)
            elif isinstance(widget, QSpinBox) and isinstance(value, int):
                widget.setValue(value)
            elif widget is not None and isinstance(value, (int, float)):
                widget.setValue(float(value))

    def closeEvent(self, event):  # noqa: N802 (Qt naming)
        self.timer.stop()
        self.cancel_preview()  # a run goes on (its outputs still load), as one started from the toolbox
        self.remember()
        super().closeEvent(event)
