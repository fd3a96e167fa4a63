"""Qt 6 readiness of the plugin's source: every Qt name it uses, read with :mod:`ast` and resolved against PyQt6.

Two halves, so that QGIS's PyQt5 and PyQt6 never meet in one process:

- the reading half (:func:`plugin_files`, :func:`imported_uses`, :func:`exec_uses`) is plain :mod:`ast`; the
  tests import it (``test_qgis4_api.py`` reads the QGIS names with it);
- the resolving half runs as a script, ``python -I qt6_check.py ROOT``, in a process of its own with
  ``QT_QPA_PLATFORM=offscreen``. It imports PyQt6 (pinned in scripts/requirements.txt) and never qgis, reads
  the plugin below ROOT, and prints one JSON object: the PyQt6 and Qt versions, the Qt bindings the process
  had loaded, the violations as ``file:line: what -> Qt 6 spelling`` lines, and the allowances no longer used.

What counts as a violation:

- ``x.exec_()`` (and ``def exec_``): PyQt6 has only ``exec()``, which PyQt5 5.15 has too;
- an unscoped enum value (``Qt.AlignCenter``): PyQt6 knows only ``Qt.AlignmentFlag.AlignCenter``, which
  PyQt5 accepts as well; the Qt 6 spelling is found by searching the enum classes of the owner for the member;
- a module, class or member that PyQt6 does not have (QtWebKit, ``QRegExp``, ``QDesktopWidget``,
  ``QVariant.Int``), and any direct ``PyQt5`` import (QGIS 4 refuses those; ``qgis.PyQt`` picks the binding).

Names that ``qgis.PyQt`` itself provides on Qt 6 builds count as present: ``QAction`` and ``QShortcut`` moved
from QtWidgets to QtGui in Qt 6, and QGIS keeps both importable from ``qgis.PyQt.QtWidgets`` (QGIS pull request
55658, "[PyQt6] Fix QAction & QShortcut which live in a different module"; kept for 4.x to ease plugins that
support 3.x and 4.x, as the QGIS maintainers said in qgis/pyqgis4-checker issue 6).
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

#: The one module allowed to spell QGIS-3-only names (its fallbacks for QGIS 3.22). Relative to the plugin root.
SHIM = "compat.py"

#: (file, name) pairs allowed to use a name PyQt6 lacks. Kept tiny, each with its reason.
ALLOWED: frozenset[tuple[str, str]] = frozenset(
    {
        # QgsField takes a QVariant.Type before QGIS 3.38 (3.22 is supported); the shim passes
        # QMetaType.Type from 3.38 on. QGIS's Qt 6 builds patch these QVariant names back in as
        # QMetaType.Type values, so the shim's fallback arguments still evaluate there.
        (SHIM, "QVariant.Double"),
        (SHIM, "QVariant.LongLong"),
        (SHIM, "QVariant.String"),
    }
)

#: Folders below the plugin root that are not the plugin's code.
NOT_PLUGIN = ("tests", ".venv", "venv", "build", "dist", "docs", ".git", ".ci", "__pycache__")

#: qgis.PyQt module -> name -> the PyQt6 module that holds it (qgis.PyQt re-exports it, see the docstring).
QGIS_PYQT_REEXPORTS: dict[str, dict[str, str]] = {"QtWidgets": {"QAction": "QtGui", "QShortcut": "QtGui"}}

#: Names Qt 6 removed, with what replaces them (PyQt6 has no trace of them to search).
REMOVED: dict[str, str] = {
    "QRegExp": "QRegularExpression",
    "QRegExpValidator": "QRegularExpressionValidator",
    "QDesktopWidget": "QScreen (QGuiApplication.primaryScreen() / screens())",
    "qApp": "QApplication.instance()",
    "QtWebKit": "QtWebEngineWidgets",
    "QtWebKitWidgets": "QtWebEngineWidgets",
}

#: Modules searched for a class that is not where the code imports it from.
SEARCHED_MODULES = ("QtCore", "QtGui", "QtWidgets", "QtNetwork", "QtSvg", "QtXml", "QtPrintSupport", "QtSql", "QtTest")


@dataclass(frozen=True)
class Use:
    """One use of an imported name: ``target`` is the full dotted name it stands for (imports resolved),
    ``text`` how the source spells it."""

    file: str
    line: int
    target: str
    text: str


def plugin_files(root: Path) -> list[Path]:
    """Every Python file of the plugin below ``root`` (the repository root is the plugin package): plugin/,
    processing/, core/, ui/, i18n/, scripts/, the root modules; not tests/, virtual environments or builds."""
    out = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts[0] in NOT_PLUGIN or any(p.startswith(".") for p in parts[:-1]):
            continue
        out.append(path)
    return out


def _chain(node: ast.AST) -> list[str] | None:
    """``a.b.c`` -> ``["a", "b", "c"]``; None when the chain does not start at a plain name."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return names[::-1]


def imported_uses(tree: ast.AST, file: str, prefixes: tuple[str, ...]) -> list[Use]:
    """Every import of a module below one of ``prefixes`` and every attribute chain (``Qt.AlignCenter``,
    ``QtCore.Qt.AlignCenter``) that starts at a name such an import bound. Relative imports are the plugin's
    own and are skipped; a chain is taken whole (``Qt.AlignmentFlag.AlignCenter``, not its prefixes)."""

    def wanted(name: str) -> bool:
        return any(name == p or name.startswith(p + ".") for p in prefixes)

    bound: dict[str, str] = {}
    uses: list[Use] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if wanted(alias.name) or any(p.startswith(alias.name + ".") for p in prefixes):
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound[alias.name.partition(".")[0]] = alias.name.partition(".")[0]
                if wanted(alias.name):
                    uses.append(Use(file, node.lineno, alias.name, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if wanted(target):
                    bound[alias.asname or alias.name] = target
                    uses.append(Use(file, node.lineno, target, f"from {node.module} import {alias.name}"))
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            continue  # only the whole chain
        names = _chain(node)
        if not names or names[0] not in bound:
            continue
        target = ".".join([bound[names[0]], *names[1:]])
        if wanted(target):
            uses.append(Use(file, node.lineno, target, ".".join(names)))
    return uses


def exec_uses(tree: ast.AST, file: str) -> list[Use]:
    """Every ``.exec_`` attribute and ``def exec_`` (PyQt6 has only ``exec``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "exec_":
            names = _chain(node)
            out.append(Use(file, node.lineno, "exec_", ".".join(names) if names else "….exec_"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "exec_":
            out.append(Use(file, node.lineno, "exec_", "def exec_"))
    return out


# --- the resolving half: only ever run in its own process (``python -I qt6_check.py ROOT``) -----------------


def _qt_query(target: str) -> tuple[str | None, list[str], bool]:
    """``qgis.PyQt.QtCore.Qt.AlignCenter`` -> ("QtCore", ["Qt", "AlignCenter"], direct PyQt5 import?)."""
    parts = target.split(".")
    if parts[:2] == ["qgis", "PyQt"]:
        rest = parts[2:]
        return (rest[0] if rest else None), rest[1:], False
    return (parts[1] if len(parts) > 1 else None), parts[2:], True


def _enum_scopes(owner, member: str) -> list[str]:
    """The names of the enum classes reachable from ``owner`` (its own and inherited) that hold ``member``."""
    import enum

    found = []
    for name in dir(owner):
        value = getattr(owner, name, None)
        if isinstance(value, enum.EnumMeta) and member in value.__members__ and name not in found:
            found.append(name)
    return sorted(found)


def _metatype_name(member: str) -> str | None:
    from PyQt6.QtCore import QMetaType

    for name in (member, "Q" + member):
        if hasattr(QMetaType.Type, name):
            return name
    return None


def resolve(module: str | None, attrs: list[str]) -> tuple[str, str | None] | None:
    """None when ``qgis.PyQt.<module>.<attrs>`` exists on Qt 6, else (problem, Qt 6 spelling or None)."""
    import importlib

    if module is None:
        return None
    try:
        mod = importlib.import_module(f"PyQt6.{module}")
    except ImportError:
        return f"PyQt6 has no module {module}", REMOVED.get(module) and f"qgis.PyQt.{REMOVED[module]}"
    if not attrs:
        return None
    first, obj = attrs[0], getattr(mod, attrs[0], None)
    if obj is None and first in QGIS_PYQT_REEXPORTS.get(module, {}):
        obj = getattr(importlib.import_module(f"PyQt6.{QGIS_PYQT_REEXPORTS[module][first]}"), first, None)
    if obj is None:
        if first in REMOVED:
            return f"{first} is gone in Qt 6", REMOVED[first]
        for other in SEARCHED_MODULES:
            try:
                if other != module and hasattr(importlib.import_module(f"PyQt6.{other}"), first):
                    return f"{first} is not in {module} in Qt 6", f"from qgis.PyQt.{other} import {first}"
            except ImportError:
                continue
        return f"PyQt6.{module} has no {first}", None
    spelled = [first]
    for name in attrs[1:]:
        value = getattr(obj, name, None)
        if value is None:
            owner = ".".join(spelled)
            scopes = _enum_scopes(obj, name)
            if scopes:
                return "unscoped enum", " or ".join(f"{owner}.{scope}.{name}" for scope in scopes)
            if spelled == ["QVariant"]:
                meta = _metatype_name(name)
                return (
                    "PyQt6 has no QVariant.Type (field types go through compat.py)",
                    f"QMetaType.Type.{meta}" if meta else None,
                )
            if name == "exec_":
                return "exec_() is gone in PyQt6", f"{owner}.exec()"
            return f"{owner} has no {name} in PyQt6", None
        obj = value
        spelled.append(name)
    return None


def check(root: Path) -> tuple[list[str], list[str]]:
    """Every Qt 6 violation in the plugin below ``root``, as ``file:line: text: problem -> Qt 6 spelling``, and
    the :data:`ALLOWED` pairs that no longer occur (an allowance outlives its use only by mistake)."""
    found: set[tuple[str, int, str]] = set()
    allowed_used: set[tuple[str, str]] = set()
    cache: dict[str, tuple[str, str | None] | None] = {}
    for path in plugin_files(root):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for use in exec_uses(tree, rel):
            found.add((rel, use.line, f"{use.text}: exec_() is gone in PyQt6 -> exec()"))
        for use in imported_uses(tree, rel, ("qgis.PyQt", "PyQt5")):
            module, attrs, direct = _qt_query(use.target)
            if direct:
                spelling = f"qgis.PyQt.{module}" if module else "qgis.PyQt"
                found.add((rel, use.line, f"{use.text}: QGIS 4 refuses PyQt5 imports -> {spelling}"))
            if "exec_" in attrs:
                attrs = attrs[: attrs.index("exec_")]  # reported once, by exec_uses
            written = ".".join(attrs)
            if (rel, written) in ALLOWED:
                allowed_used.add((rel, written))
                continue
            key = f"{module}:{written}"
            if key not in cache:
                cache[key] = resolve(module, attrs)
            if cache[key] is not None:
                problem, qt6 = cache[key]
                prefix = use.text[: -len(written)] if written and use.text.endswith("." + written) else ""
                if qt6 and prefix and qt6.startswith(attrs[0] + "."):  # spell it as the source does: QtCore.Qt...
                    qt6 = " or ".join(prefix + part for part in qt6.split(" or "))
                found.add((rel, use.line, f"{use.text}: {problem}" + (f" -> {qt6}" if qt6 else "")))
    unused = [f"{file}: {name}" for file, name in sorted(ALLOWED - allowed_used)]
    return [f"{file}:{line}: {message}" for file, line, message in sorted(found)], unused


def main(argv: list[str]) -> int:
    from PyQt6.QtCore import PYQT_VERSION_STR, qVersion

    violations, unused_allowed = check(Path(argv[1]).resolve())
    loaded = sorted({m.partition(".")[0] for m in sys.modules if m.partition(".")[0] in ("PyQt5", "qgis", "PyQt6")})
    report = {"pyqt6": PYQT_VERSION_STR, "qt": qVersion(), "loaded": loaded, "violations": violations}
    print(json.dumps({**report, "unused_allowed": unused_allowed}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
