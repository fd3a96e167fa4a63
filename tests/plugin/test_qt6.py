"""Qt 6 (QGIS 4) readiness of the plugin's Qt code, checked without a QGIS 4 runtime.

qt6_check.py reads every Qt name the plugin uses (imports from ``qgis.PyQt``, attribute chains such as
``Qt.AlignCenter`` or ``QDialog.Accepted``, ``exec_`` calls) and resolves each against PyQt6, pinned in
scripts/requirements.txt, in a process of its own that never imports qgis: this process keeps QGIS's PyQt5.
It fails on ``exec_``, unscoped enums, PyQt5-only modules and classes and direct PyQt5 imports, and names the
Qt 6 spelling where PyQt6 has one. What may stay, and why, is in qt6_check.py (``ALLOWED``: the shim's QVariant
field types for QGIS 3.22).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
HELPER = Path(__file__).resolve().parent / "qt6_check.py"
REQUIREMENTS = REPO / "scripts" / "requirements.txt"


def run_check(root: Path) -> dict:
    """qt6_check.py on ``root`` in its own process (isolated: no user site, no PYTHONPATH), offscreen."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-I", str(HELPER), str(root)], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"qt6_check.py failed (is PyQt6 installed? run scripts/bootstrap.sh):\n{proc.stderr}"
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def plugin_report() -> dict:
    return run_check(REPO)


def test_every_qt_name_of_the_plugin_exists_in_qt6(plugin_report):
    found = plugin_report["violations"]
    assert not found, f"Qt 6 would break here ({len(found)}), as file:line: what -> Qt 6 spelling:\n" + "\n".join(found)


def test_every_allowance_is_still_used(plugin_report):
    assert not plugin_report["unused_allowed"], "remove from qt6_check.ALLOWED: " + ", ".join(
        plugin_report["unused_allowed"]
    )


def test_the_check_used_the_pinned_pyqt6_and_left_qgis_alone(plugin_report):
    pinned = re.search(r"^PyQt6==(\S+)$", REQUIREMENTS.read_text(encoding="utf-8"), re.M)
    assert pinned, "scripts/requirements.txt pins no PyQt6"
    assert plugin_report["pyqt6"] == pinned.group(1)
    assert plugin_report["loaded"] == ["PyQt6"], "the checking process must import neither qgis nor PyQt5"
    assert "PyQt6" not in sys.modules, "PyQt6 was imported into the QGIS test process"


#: A small plugin tree with one kind of use per file, and what the check must say about it.
SAMPLES = {
    "ui/enums.py": """
        from qgis.PyQt.QtCore import Qt
        from qgis.PyQt.QtWidgets import QDialog, QMessageBox, QSizePolicy
        a = Qt.AlignCenter
        b = QDialog.Accepted
        c = QSizePolicy.Expanding
        d = QMessageBox.Yes
        e = Qt.AlignmentFlag.AlignCenter | Qt.AlignmentFlag.AlignTop
        f = QDialog.DialogCode.Accepted
    """,
    "ui/calls.py": """
        def run(dialog):
            return dialog.exec_()
    """,
    "ui/removed.py": """
        from qgis.PyQt.QtCore import QRegExp
        from qgis.PyQt.QtWidgets import QDesktopWidget
        from qgis.PyQt.QtWebKit import QWebView
    """,
    "ui/direct.py": """
        from PyQt5.QtCore import QTimer
    """,
    "ui/variant.py": """
        from qgis.PyQt.QtCore import QVariant
        kind = QVariant.Int
    """,
    "compat.py": """
        from qgis.PyQt.QtCore import QVariant
        allowed = QVariant.Double
        not_allowed = QVariant.Int
    """,
    "plugin/actions.py": """
        from qgis.PyQt import QtCore
        from qgis.PyQt.QtWidgets import QAction
        left = QtCore.Qt.AlignLeft
    """,
    "scripts/picture.py": """
        def draw():
            from qgis.PyQt.QtGui import QImage
            return QImage.Format_ARGB32
    """,
    "tests/test_ignored.py": """
        from qgis.PyQt.QtCore import Qt
        a = Qt.AlignCenter
    """,
}

EXPECTED = [
    "compat.py:4: QVariant.Int: PyQt6 has no QVariant.Type (field types go through compat.py) -> QMetaType.Type.Int",
    "plugin/actions.py:4: QtCore.Qt.AlignLeft: unscoped enum -> QtCore.Qt.AlignmentFlag.AlignLeft",
    "scripts/picture.py:4: QImage.Format_ARGB32: unscoped enum -> QImage.Format.Format_ARGB32",
    "ui/calls.py:3: dialog.exec_: exec_() is gone in PyQt6 -> exec()",
    "ui/direct.py:2: from PyQt5.QtCore import QTimer: QGIS 4 refuses PyQt5 imports -> qgis.PyQt.QtCore",
    "ui/enums.py:4: Qt.AlignCenter: unscoped enum -> Qt.AlignmentFlag.AlignCenter",
    "ui/enums.py:5: QDialog.Accepted: unscoped enum -> QDialog.DialogCode.Accepted",
    "ui/enums.py:6: QSizePolicy.Expanding: unscoped enum -> QSizePolicy.Policy.Expanding",
    "ui/enums.py:7: QMessageBox.Yes: unscoped enum -> QMessageBox.StandardButton.Yes",
    "ui/removed.py:2: from qgis.PyQt.QtCore import QRegExp: QRegExp is gone in Qt 6 -> QRegularExpression",
    "ui/removed.py:3: from qgis.PyQt.QtWidgets import QDesktopWidget: QDesktopWidget is gone in Qt 6"
    " -> QScreen (QGuiApplication.primaryScreen() / screens())",
    "ui/removed.py:4: from qgis.PyQt.QtWebKit import QWebView: PyQt6 has no module QtWebKit"
    " -> qgis.PyQt.QtWebEngineWidgets",
    "ui/variant.py:3: QVariant.Int: PyQt6 has no QVariant.Type (field types go through compat.py)"
    " -> QMetaType.Type.Int",
]


def test_the_check_finds_each_kind_of_qt5_only_use(tmp_path):
    for name, source in SAMPLES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    assert run_check(tmp_path)["violations"] == EXPECTED
