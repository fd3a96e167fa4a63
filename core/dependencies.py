"""Which Python packages the plugin needs, which are missing, and how to install them.

Pure Python (no QGIS), so every layer may import it: the plugin shows the notice in the message bar and log,
and the Processing algorithms refuse (required package) or run slower (optional one) with the same text.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Dependency:
    module: str  #: import name
    pip_name: str  #: name on PyPI
    debian: str  #: Debian/Ubuntu package
    required: bool  #: algorithms refuse without it (else they run slower)
    purpose: str


DEPENDENCIES = (
    Dependency("numpy", "numpy", "python3-numpy", True, "all computations"),
    Dependency("scipy", "scipy", "python3-scipy", True, "every tool except the Pufferfish grid map"),
    Dependency(
        "matplotlib", "matplotlib", "python3-matplotlib", True, "the report charts of every tool except the grid map"
    ),
    Dependency("numba", "numba", "python3-numba", False, "fast binning (algorithms run slower without it)"),
)

#: Needed only when a Dask scheduler address is set (core.executor), so not in DEPENDENCIES: without them the
#: risk-utility sweep runs in local processes and nothing else changes. The cluster's workers need the same versions.
DASK = (
    Dependency("dask", "dask", "python3-dask", False, "sweeps on a Dask cluster"),
    Dependency("distributed", "distributed", "python3-distributed", False, "sweeps on a Dask cluster"),
    Dependency(
        "threadpoolctl",
        "threadpoolctl",
        "python3-threadpoolctl",
        False,
        "results on a cluster identical to a serial run (BLAS on one thread in every task)",
    ),
)


def missing(
    dependencies: Iterable[Dependency] = DEPENDENCIES,
    find_spec: Callable[[str], object] = importlib.util.find_spec,
) -> list[Dependency]:
    """The dependencies that cannot be imported."""
    out = []
    for dep in dependencies:
        try:
            found = find_spec(dep.module) is not None
        except (ImportError, ValueError):  # a module blocked with sys.modules[name] = None
            found = False
        if not found:
            out.append(dep)
    return out


def install_message(deps: Iterable[Dependency]) -> str:
    """One message that says exactly what to install, for each platform QGIS runs on."""
    deps = list(deps)
    if not deps:
        return ""
    names = ", ".join(d.pip_name for d in deps)
    pip = " ".join(d.pip_name for d in deps)
    debian = " ".join(d.debian for d in deps)
    lines = [f"Spatial Privacy: missing Python package(s): {names}."]
    for d in deps:
        kind = "required" if d.required else "optional"
        lines.append(f"- {d.pip_name} ({kind}): {d.purpose}.")
    lines += [
        "Install, then restart QGIS:",
        f"  Debian/Ubuntu: sudo apt install {debian}",
        f"  Windows (OSGeo4W Shell) or macOS: python3 -m pip install {pip}",
        "  Other Linux: your distribution's package of each (system Pythons such as Debian 12's refuse pip "
        f"installs); pip only into a Python QGIS uses that allows it: python3 -m pip install {pip}",
    ]
    return "\n".join(lines)
