"""The layering rules of docs/ARCHITECTURE.md, checked on the source: who may import whom.

| layer          | may not import                                                                          |
|----------------|-----------------------------------------------------------------------------------------|
| core/          | qgis, any Qt binding, QGIS's ``processing``; the plugin's processing, ui, plugin, i18n, compat |
| processing/    | the plugin's plugin/ and ui/                                                            |
| ui/            | the plugin's plugin/ and processing/ (it runs algorithms by id)                         |
| i18n/, compat  | the plugin's core/, processing/, ui/, plugin/ (they sit beside every layer)             |
| plugin/        | anything may be imported                                                                |
Every ``import`` and ``from ... import`` is read with :mod:`ast`, wherever it stands (module level or inside a
function), relative imports are resolved against the file's package, and ``importlib.import_module("...")`` with a
literal name counts too. No QGIS is needed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

QT_BINDINGS = ("PyQt5", "PyQt6", "PySide2", "PySide6", "sip", "qgis.PyQt")

#: layer -> (forbidden third-party top-level names, forbidden plugin layers)
RULES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "core": (("qgis", "processing", *QT_BINDINGS), ("processing", "ui", "plugin", "i18n", "compat")),
    "processing": ((), ("plugin", "ui")),
    "ui": ((), ("plugin", "processing")),
    "i18n": ((), ("core", "processing", "ui", "plugin")),
    "compat": ((), ("core", "processing", "ui", "plugin")),
    "plugin": ((), ()),
}


def layer_of(path: Path, root: Path) -> str | None:
    """The layer a source file belongs to: its first folder below the root (``compat.py`` is its own layer)."""
    parts = path.relative_to(root).parts
    if parts == ("compat.py",):
        return "compat"
    return parts[0] if len(parts) > 1 and parts[0] in RULES else None


def imported_modules(path: Path, root: Path):
    """Yield ``(line, kind, name)`` for each import in ``path``: kind "plugin" with the plugin-relative dotted name
    (``core.window``) for the plugin's own modules, else "external" with the absolute name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = list(path.relative_to(root).parent.parts)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _classify(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield from _classify(node.lineno, node.module or "")
                continue
            if node.level - 1 > len(package):
                yield node.lineno, "external", "<relative import above the plugin package>"
                continue
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                yield node.lineno, "plugin", ".".join([*base, node.module])
            else:  # from . import x, y: each name may be a module
                for alias in node.names:
                    yield node.lineno, "plugin", ".".join([*base, alias.name])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield from _classify(node.lineno, node.args[0].value)


def _classify(line: int, name: str):
    if name == "spatial_privacy" or name.startswith("spatial_privacy."):
        yield line, "plugin", name.partition(".")[2]
    else:
        yield line, "external", name


def violations(root: Path) -> list[str]:
    """Every forbidden import below ``root``, as ``file:line: layer imports name``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in ("tests", "scripts", ".venv", "build", "dist", "docs"):
            continue
        layer = layer_of(path, root)
        if layer is None:
            continue
        external, internal = RULES[layer]
        for line, kind, name in imported_modules(path, root):
            if kind == "external":
                bad = any(name == e or name.startswith(e + ".") for e in external)
            else:
                bad = name.partition(".")[0] in internal
            if bad:
                out.append(f"{rel}:{line}: {layer}/ imports {name}")
    return out


def test_every_layer_imports_only_what_it_may():
    found = violations(ROOT)
    assert not found, "forbidden imports (see docs/ARCHITECTURE.md):\n" + "\n".join(found)


def test_the_layers_exist():
    """The check reads the real tree: every layer it names has Python files (a renamed folder would pass silently)."""
    for layer in ("core", "processing", "ui", "plugin"):
        assert list((ROOT / layer).rglob("*.py")), layer


@pytest.mark.parametrize(
    ("file", "source", "expected"),
    [
        ("core/x.py", "from qgis.core import QgsPoint\n", "core/x.py:1: core/ imports qgis.core"),
        ("core/x.py", "def f():\n    from qgis.PyQt.QtCore import Qt\n", "core/x.py:2: core/ imports qgis.PyQt.QtCore"),
        ("core/sub/x.py", "from ...processing import inputs\n", "core/sub/x.py:1: core/ imports processing"),
        ("core/x.py", "import processing\n", "core/x.py:1: core/ imports processing"),
        ("processing/x.py", "from ..plugin.i18n import tr\n", "processing/x.py:1: processing/ imports plugin.i18n"),
        ("processing/algorithms/x.py", "from ... import ui\n", "processing/algorithms/x.py:1: processing/ imports ui"),
        (
            "processing/x.py",
            "import importlib\nimportlib.import_module('spatial_privacy.plugin.plugin')\n",
            "processing/x.py:2: processing/ imports plugin.plugin",
        ),
        ("ui/x.py", "from ..processing.inputs import read\n", "ui/x.py:1: ui/ imports processing.inputs"),
        ("compat.py", "from .core import limits\n", "compat.py:1: compat/ imports core"),
    ],
)
def test_a_forbidden_import_is_found(tmp_path, file, source, expected):
    for layer in RULES:
        (tmp_path / layer).mkdir(exist_ok=True)
    target = tmp_path / file
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source, encoding="utf-8")
    assert violations(tmp_path) == [expected]


@pytest.mark.parametrize(
    ("file", "source"),
    [
        ("core/x.py", "import numpy as np\nfrom .window import Window\nfrom . import limits\n"),
        ("processing/algorithms/x.py", "from ...core import counts\nfrom ...i18n import tr\nfrom ..inputs import a\n"),
        ("processing/x.py", "from qgis.core import QgsPoint\nfrom ..compat import NUMBER_DOUBLE\n"),
        ("ui/x.py", "from qgis.PyQt.QtWidgets import QDialog\nfrom ..core import limits\nimport processing\n"),
        ("plugin/x.py", "from ..processing.provider import Provider\nfrom ..ui import dialog\n"),
    ],
)
def test_an_allowed_import_passes(tmp_path, file, source):
    target = tmp_path / file
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source, encoding="utf-8")
    assert violations(tmp_path) == []
