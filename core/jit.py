"""numba when it is installed, plain Python otherwise.

numba is optional: without it the core falls back to vectorised numpy paths (slower, same
results), and the plugin tells the user once how to install it.
"""

from __future__ import annotations

try:  # pragma: no cover - which branch runs depends on the environment
    import numba as _numba
except ImportError:  # numba missing or blocked
    _numba = None

HAVE_NUMBA = _numba is not None


def njit(*args, **kwargs):
    """``numba.njit`` if numba is available, else return the Python function unchanged."""
    if _numba is not None:
        return _numba.njit(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda func: func


def resolve_use_numba(use_numba: bool | None) -> bool:
    """Decide whether to run a numba kernel: ``None`` means "if installed"."""
    if use_numba is None:
        return HAVE_NUMBA
    if use_numba and not HAVE_NUMBA:
        raise ValueError("use_numba=True, but numba is not installed")
    return bool(use_numba)
