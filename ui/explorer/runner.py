"""Run a Processing algorithm by id in the background, as the Processing toolbox does: in a
``QgsProcessingAlgRunnerTask`` (the QGIS window stays responsive, the run can be canceled), its command in the
Processing history, and on success its outputs loaded into the project with the toolbox's names and styles."""

from __future__ import annotations

from qgis.core import (
    QgsApplication,
    QgsProcessingAlgRunnerTask,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputLayerDefinition,
    QgsProject,
)
from qgis.PyQt.QtCore import QObject, pyqtSignal

from ...i18n import tr


class _Feedback(QgsProcessingFeedback):
    """Keeps the errors the algorithm reports (the task reports an exception's message here)."""

    def __init__(self):
        super().__init__()
        self.errors = []

    def reportError(self, error, fatalError=False):  # noqa: N802, N803 (QGIS naming)
        self.errors.append(error)
        super().reportError(error, fatalError)


#: The runs going on: each keeps itself (its context and feedback, which the task uses in its thread) alive here
#: until its task has ended, whatever happens to the dialog that started it.
_RUNNING = set()


class AlgorithmRun(QObject):
    """One run of ``algorithm_id`` with ``parameters``. The context and the feedback live as long as this object,
    which lives (in ``_RUNNING``, without a parent) until its task has ended.

    ``finished(ok, results_or_error)``: on success the algorithm's results, each output layer loaded into the
    project and given as the layer itself; on failure the algorithm's error message (or "canceled").
    ``progress(percent)`` follows the run."""

    finished = pyqtSignal(bool, object)
    progress = pyqtSignal(float)

    def __init__(self, algorithm_id: str, parameters: dict):
        super().__init__()
        self.algorithm = QgsApplication.processingRegistry().createAlgorithmById(algorithm_id)
        if self.algorithm is None:
            raise ValueError(tr("The algorithm {0} is not installed.").format(algorithm_id))
        self.project = QgsProject.instance()
        self.parameters = dict(parameters)
        for definition in self.algorithm.destinationParameterDefinitions():
            value = self.parameters.get(definition.name())
            if isinstance(value, str) and definition.type() not in ("fileDestination", "folderDestination"):
                # an output layer the toolbox would open: loaded into the project once the run has ended
                self.parameters[definition.name()] = QgsProcessingOutputLayerDefinition(value, self.project)
        self.context = QgsProcessingContext()
        self.context.setProject(self.project)
        self.feedback = _Feedback()
        self.feedback.progressChanged.connect(self.progress)  # queued: the feedback reports from the task
        self.task = None
        self.ok = None

    def start(self) -> None:
        """Add the run to the Processing history and start it in QGIS's task manager."""
        command = self.algorithm.asPythonCommand(self.parameters, self.context)
        if command:
            _add_to_history(self.algorithm, command, self.parameters, self.context)
        self.task = QgsProcessingAlgRunnerTask(self.algorithm, self.parameters, self.context, self.feedback)
        self.task.executed.connect(self._executed)
        _RUNNING.add(self)
        QgsApplication.taskManager().addTask(self.task)

    def cancel(self) -> None:
        self.feedback.cancel()
        if self.task is not None:
            self.task.cancel()

    def _executed(self, ok: bool, results: dict) -> None:
        self.task = None
        self.ok = bool(ok)
        _RUNNING.discard(self)
        if not ok:
            if self.feedback.errors:  # before "canceled": a refusal in prepareAlgorithm cancels the task too
                message = "\n".join(self.feedback.errors)
            elif self.feedback.isCanceled():
                message = tr("canceled")
            else:
                message = tr("the algorithm failed (see the log messages)")
            self.finished.emit(False, message)
            return
        from processing.gui.Postprocessing import handleAlgorithmResults  # the toolbox's own loading of outputs

        handleAlgorithmResults(self.algorithm, self.context, self.feedback, False, self.parameters)
        loaded = {}
        for key, value in results.items():
            layer = self.project.mapLayer(value) if isinstance(value, str) else None
            loaded[key] = layer if layer is not None else value
        self.finished.emit(True, loaded)


def _add_to_history(algorithm, command: str, parameters: dict, context) -> None:
    """The run's Python command in the Processing history, as the toolbox's dialog adds it (QGIS >= 3.24: the
    history provider registry; before: Processing's log)."""
    from qgis.gui import QgsGui

    registry = getattr(QgsGui, "historyProviderRegistry", None)
    if registry is not None:
        registry().addEntry(
            "processing",
            {"python_command": command, "algorithm_id": algorithm.id(),
             "parameters": algorithm.asMap(parameters, context) if hasattr(algorithm, "asMap") else {}},
        )  # fmt: skip
    else:
        from processing.core.ProcessingLog import ProcessingLog

        ProcessingLog.addToLog(command)
    QgsGui.instance().processingRecentAlgorithmLog().push(algorithm.id())
