"""Progress reporting for long-running core functions.

A core function that may take long accepts ``progress(fraction, message)``; the caller's
implementation may raise any exception to cancel (the Processing adapter raises when the user
presses Cancel). ``None`` means "no reporting".
"""

from __future__ import annotations

from typing import Callable, Optional

Progress = Optional[Callable[[float, str], None]]


def report(progress: Progress, fraction: float, message: str) -> None:
    """Call ``progress`` if one was given; fractions are clipped to [0, 1]."""
    if progress is not None:
        progress(min(1.0, max(0.0, float(fraction))), message)


def scaled(progress: Progress, start: float, stop: float) -> Progress:
    """Map a sub-task's fractions [0, 1] onto [start, stop] of ``progress``."""
    if progress is None:
        return None
    return lambda fraction, message: progress(start + (stop - start) * fraction, message)
