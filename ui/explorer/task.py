"""The background task that computes one preview, so the QGIS window never waits on it."""

from __future__ import annotations

from qgis.core import QgsTask
from qgis.PyQt.QtCore import pyqtSignal


class CanceledError(Exception):
    """Raised by the progress callback inside the computation when the task was canceled."""


class PreviewTask(QgsTask):
    """Runs ``compute(progress)`` in a worker thread; ``result`` or ``error`` holds the outcome.

    ``compute`` gets a ``progress(fraction, message)`` callable (core.progress conventions) that raises
    :class:`CanceledError` once the task is canceled, so a long computation stops at its next report. Listen to
    ``taskCompleted`` / ``taskTerminated`` (emitted in the main thread) for the outcome.

    A computation that finishes in parts (the LGCP sweep, one setting at a time) hands each part to
    :meth:`emit_partial` from the worker thread; ``partial(part)`` carries it, queued, to receivers in the main
    thread (the task object lives there), so a chart can fill in while the task runs.
    """

    partial = pyqtSignal(object)

    def __init__(self, description: str, compute):
        super().__init__(description, QgsTask.Flag.CanCancel)
        self.compute = compute
        self.result = None
        self.error = None

    def progress(self, fraction: float, message: str = "") -> None:
        if self.isCanceled():
            raise CanceledError
        self.setProgress(100.0 * min(max(float(fraction), 0.0), 1.0))

    def check_canceled(self, *_) -> None:
        """A progress callable that only stops the computation once the task is canceled."""
        if self.isCanceled():
            raise CanceledError

    def emit_partial(self, part) -> None:
        if self.isCanceled():
            raise CanceledError
        self.partial.emit(part)

    def run(self) -> bool:
        try:
            self.result = self.compute(self.progress)
        except CanceledError:
            return False
        except Exception as error:  # noqa: BLE001 (shown in the dialog: a preview must never crash QGIS)
            self.error = str(error) or type(error).__name__
            return False
        return not self.isCanceled()
