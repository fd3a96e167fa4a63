"""Import every module a run may need once, one thread at a time, before any run starts (:func:`import_all`).

QGIS runs algorithms in worker threads (background tasks, several at once). When two threads import the same
package for the first time, each from a different submodule (scipy.spatial and scipy.spatial.distance, say),
Python's per-module import locks can meet in a cycle; Python then breaks the deadlock by handing one thread a
partially initialised module, and that run fails with "cannot import name ... from partially initialized module".
Importing everything under one process-wide lock before any run does its own imports leaves every later import a
lookup in ``sys.modules``.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import threading
from collections.abc import Iterable

#: Third-party modules the core imports inside functions (so that importing the core stays fast); walking the
#: core's package does not reach them.
CORE_LAZY_IMPORTS = ("scipy.optimize", "scipy.spatial")

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_imported: set[str] = set()  # names import_all has imported (or tried to: a missing package stays missing)


def import_all(packages: Iterable[str] = (), modules: Iterable[str] = ()) -> None:
    """Import every module of ``packages`` (with their subpackages) and ``modules`` (absolute names), once in the
    process and under a process-wide lock, so that no two threads go through the same first import at once.

    A module that cannot be imported (a missing optional package) is skipped and logged at debug level: the run
    that needs it imports it again and reports the missing package as it always does."""
    packages, modules = tuple(packages), tuple(modules)
    if all(name in _imported for name in (*packages, *modules)):
        return
    with _lock:
        for package in packages:
            if package not in _imported:
                for name in _package_modules(package):
                    _import(name)
                _imported.add(package)
        for name in modules:
            if name not in _imported:
                _import(name)
                _imported.add(name)


def core_package() -> str:
    """The core's package name (``spatial_privacy.core`` when installed under that name)."""
    return __name__.rpartition(".")[0]


def _package_modules(package: str) -> list[str]:
    module = _import(package)
    if module is None or not hasattr(module, "__path__"):
        return []
    found = pkgutil.walk_packages(module.__path__, package + ".", onerror=lambda name: None)
    return [package] + [info.name for info in found]


def _import(name: str):
    try:
        return importlib.import_module(name)
    except Exception as error:  # noqa: BLE001 - anything a broken optional package raises; the run reports it
        _log.debug("could not import %s ahead of a run: %s", name, error)
        return None
