"""Progress and Cancel: the running algorithm's feedback, the core's ``progress(fraction, message)`` backed by
it, and the error of a cancelled run."""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar

from qgis.core import QgsProcessingException, QgsProcessingFeedback

from ..core.files import active_staging
from ..i18n import tr

#: The feedback QGIS passed to the running algorithm's processAlgorithm (per thread, like the staged writes).
_RUN_FEEDBACK: ContextVar = ContextVar("spatial_privacy_run_feedback", default=None)
#: The highest progress the running algorithm has shown, as a one-item list shared by its FeedbackProgress
#: objects: no later stage (a second layer read, a fit whose range starts at 0) moves the bar back.
_RUN_PROGRESS: ContextVar = ContextVar("spatial_privacy_run_progress", default=None)


@contextmanager
def running(feedback):
    """Make ``feedback`` the running algorithm's (:func:`run_feedback`) and start its progress afresh, for the
    duration of the ``with`` block."""
    token = _RUN_FEEDBACK.set(feedback)
    progress_token = _RUN_PROGRESS.set([-math.inf])
    try:
        yield
    finally:
        _RUN_FEEDBACK.reset(token)
        _RUN_PROGRESS.reset(progress_token)


def run_feedback(context):
    """The running algorithm's own feedback, for helpers that get only the context: ``context.feedback()`` can
    be another one (a batch dialog's feedback for the whole batch, whose progress bar then jumped; none at all
    in qgis_process 3.22)."""
    feedback = _RUN_FEEDBACK.get()
    if feedback is None and context is not None:
        feedback = getattr(context, "feedback", lambda: None)()
    return feedback


def cancelled() -> QgsProcessingException:
    """The error of a cancelled run: this algorithm wrote nothing (in a model, the steps that had finished
    before it committed their outputs, so "nothing was written" would not be true)."""
    return QgsProcessingException(
        tr("Cancelled: this algorithm wrote nothing (in a model, steps that had finished keep their outputs).")
    )


def check_cancel_while_writing(feedback) -> None:
    """Stop writing on Cancel unless the run writes an output in place (which would be left half-written:
    it is finished, see :meth:`SpatialPrivacyAlgorithm.processAlgorithm`); staged files are then removed and
    the targets left as they were."""
    staging = active_staging()
    if feedback is not None and feedback.isCanceled() and staging is not None and not staging.in_place:
        raise cancelled()


class FeedbackProgress:
    """``progress(fraction, message)`` for the core, backed by a Processing feedback.

    Raises ``QgsProcessingException`` when the user has pressed Cancel, which stops the core
    before anything is written.
    """

    def __init__(self, feedback: QgsProcessingFeedback, start: float = 0.0, stop: float = 100.0):
        self.feedback, self.start, self.stop = feedback, start, stop
        self._last_message = None
        # shared by every FeedbackProgress of the running algorithm (its own one outside a run)
        self._highest = _RUN_PROGRESS.get() or [-math.inf]

    def __call__(self, fraction: float, message: str) -> None:
        self.check_cancel()
        # the bar never goes back: work that starts again (an LGCP refitted with another integration rule, a
        # second layer read, a stage whose range starts lower) holds it where it was until it passes that point
        value = self.start + (self.stop - self.start) * fraction
        if value >= self._highest[0]:
            self._highest[0] = value
            self.feedback.setProgress(value)
        if message and message != self._last_message:
            self.feedback.pushInfo(message)
            self._last_message = message

    def check_cancel(self) -> None:
        if self.feedback.isCanceled():
            raise cancelled()
