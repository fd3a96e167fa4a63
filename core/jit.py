"""numba when it is installed, plain Python otherwise; numba's on-disk cache never breaks a run.

numba is optional: without it the core falls back to vectorised numpy paths (slower, same
results), and the plugin tells the user once how to install it.

``njit(cache=True)`` keeps the compiled code on disk (numba puts it in the module's ``__pycache__``,
or in the user's cache folder when that one is read-only), so that the next session starts fast.
That cache can be unusable: written while the plugin was imported under another package name
(loading it raises ``ModuleNotFoundError``), truncated (a full disk, a killed process), or with no
folder it may be written to (a plugin installed read-only, the user's cache folder read-only too).
None of these breaks a run: the function is compiled afresh (and its cache rewritten where it can
be), and the first such problem of a session is logged with :mod:`logging` and kept for
:func:`take_cache_notes`, so that a caller can show it.
"""

from __future__ import annotations

import logging
import os
import threading

try:  # pragma: no cover - which branch runs depends on the environment
    import numba as _numba
except ImportError:  # numba missing or blocked
    _numba = None

HAVE_NUMBA = _numba is not None

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_noted = []  # the cache problem noted this session: only the first is (one cause makes several)
_notes: list[str] = []  # noted and not yet taken


def njit(*args, **kwargs):
    """``numba.njit`` if numba is available, else return the Python function unchanged. With
    ``cache=True`` the cache is numba's, except that a cache which cannot be read, written or placed
    is done without (see the module's docstring). Signatures given here are compiled at once, without
    the cache."""
    if _numba is None:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda func: func
    if not kwargs.pop("cache", False):
        return _numba.njit(*args, **kwargs)
    if len(args) == 1 and callable(args[0]):
        return _with_cache(_numba.njit(**kwargs)(args[0]))
    return lambda func: _with_cache(_numba.njit(*args, **kwargs)(func))


def resolve_use_numba(use_numba: bool | None) -> bool:
    """Decide whether to run a numba kernel: ``None`` means "if installed"."""
    if use_numba is None:
        return HAVE_NUMBA
    if use_numba and not HAVE_NUMBA:
        raise ValueError("use_numba=True, but numba is not installed")
    return bool(use_numba)


def take_cache_notes() -> list[str]:
    """The cache problem noted since the last call (one a session at most), e.g. to show in a run's log."""
    with _lock:
        notes = list(_notes)
        _notes.clear()
    return notes


def _note(message: str) -> None:
    with _lock:
        if _noted:
            return
        _noted.append(message)
        _notes.append(message)
    _log.warning(message)


def _with_cache(dispatcher):
    """Turn on numba's cache for ``dispatcher``, guarded by :class:`_FallibleCache`; without a cache if there is
    no folder numba may keep it in."""
    if not hasattr(dispatcher, "enable_caching"):  # NUMBA_DISABLE_JIT: the Python function itself
        return dispatcher
    try:
        dispatcher.enable_caching()
    except Exception as error:  # RuntimeError "no locator available": no cache folder can be written
        _note(f"numba cannot keep compiled code on disk ({_describe(error)}): it is compiled in each session")
        return dispatcher
    if getattr(dispatcher, "_cache", None) is not None:
        dispatcher._cache = _FallibleCache(dispatcher._cache, dispatcher.py_func.__module__)
    return dispatcher


class _FallibleCache:
    """numba's cache of one function, made to fail softly. A cache that cannot be read (or was written under
    another module name) is not read again: the function is compiled and the cache rewritten. A cache that cannot
    be written is not written again: the compiled code lasts the session. Anything else goes to numba's cache."""

    def __init__(self, cache, module: str) -> None:
        self._cache = cache
        self._module = module
        self._reading = True
        self._writing = True

    def load_overload(self, sig, target_context):
        if not self._reading:
            return None
        try:
            result = self._cache.load_overload(sig, target_context)
        except Exception as error:  # e.g. ModuleNotFoundError, EOFError, pickle.UnpicklingError, OSError
            self._reading = False
            self._forget_index()
            _note(f"numba's cache in {self._where()} cannot be read ({_describe(error)}): compiling afresh")
            return None
        written_for = getattr(getattr(result, "fndesc", None), "modname", self._module)
        if result is not None and written_for != self._module:  # another copy of the plugin, importable here
            self._reading = False
            _note(f"numba's cache in {self._where()} was written for {written_for}: compiling afresh")
            return None
        return result

    def save_overload(self, sig, data) -> None:
        if not self._writing:
            return
        try:
            self._cache.save_overload(sig, data)
        except Exception as error:  # e.g. a read-only folder, a full disk
            self._writing = False
            _note(f"numba's cache in {self._where()} cannot be written ({_describe(error)}): not kept")

    def _forget_index(self) -> None:
        """Remove the function's cache index (numba reads a missing one as empty): a truncated index would also
        fail the write of the new code, which then starts a new one."""
        index = getattr(getattr(self._cache, "_cache_file", None), "_index_path", None)
        if index:
            try:
                os.remove(index)
            except OSError:
                pass

    def _where(self) -> str:
        try:
            return str(self._cache.cache_path)
        except Exception:
            return "its folder"

    def __getattr__(self, name):
        return getattr(self._cache, name)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"
