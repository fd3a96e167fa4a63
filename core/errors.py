"""Errors raised by the core."""

from __future__ import annotations


class ParameterError(ValueError):
    """A bad argument, naming the parameter at fault (core name, e.g. ``"epsilon"``).

    The Processing layer maps ``parameter`` to its own parameter name so the user is told which
    field of the dialog to fix.
    """

    def __init__(self, parameter: str, message: str):
        super().__init__(message)
        self.parameter = parameter

    def __reduce__(self):  # pickled with both arguments, so it travels back from a worker process (core.executor)
        return type(self), (self.parameter, str(self))
