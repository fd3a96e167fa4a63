"""The background task that computes one preview, so the QGIS window never waits on it."""

from __future__ import annotations

from qgis.core import QgsTask


class CanceledError(Exception):
    """Raised by the progress callback inside the computation when the task was canceled."""


class PreviewTask(QgsTask):
    """Runs ``compute(progress)`` in a worker thread; ``result`` or ``error`` holds the outcome.

    ``compute`` gets a ``progress(fraction, message)`` callable (core.progress conventions) that raises
    :class:`CanceledError` once the task is canceled, so a long computation stops at its next report. Listen to
    ``taskCompleted`` / ``taskTerminated`` (emitted in the main thread) for the outcome.
    """

    def __init__(self, description: str, compute):
        super().__init__(description, QgsTask.Flag.CanCancel)
        self.compute = compute
        self.result = None
        self.error = None

    def progress(self, fraction: float, message: str = "") -> None:
        if self.isCanceled():
            raise CanceledError
        self.setProgress(100.0 * min(max(float(fraction), 0.0), 1.0))

    def run(self) -> bool:
        try:
            self.result = self.compute(self.progress)
        except CanceledError:
            return False
        except Exception as error:  # noqa: BLE001 (shown in the dialog: a preview must never crash QGIS)
            self.error = str(error) or type(error).__name__
            return False
        return not self.isCanceled()
