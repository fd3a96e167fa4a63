"""QGIS 4 readiness of the QGIS API the plugin calls: QGIS-3-only spellings stay inside the one shim module.

QGIS 4 is built with Qt 6 and sip 6: an enum value is reachable only through its enum
(``QgsFeatureSink.Flag.FastInsert``), never unscoped (``QgsFeatureSink.FastInsert``), and the enums that
QGIS 3.x moved into the ``Qgis`` namespace lost their old homes (``QgsWkbTypes.PointGeometry`` is
``Qgis.GeometryType.Point``). The scoped spelling of an enum that did not move works on QGIS 3.22 as well, so
the plugin simply writes it. An enum that moved after 3.22 has no spelling that both 3.22 and 4 accept: only
``compat.py`` (:data:`SHIM`) may name its QGIS 3 form, as the fallback when ``Qgis`` lacks the new one.

The test reads the plugin with :mod:`ast` (qt6_check.py's reading half) and resolves every attribute chain
that starts at a name imported from ``qgis.core``, ``qgis.gui`` or ``qgis.analysis`` on the running QGIS
(3.22). It fails on a chain that ends in an enum value spelled without its enum, and on any use of an enum
listed below outside the shim, and prints ``file:line: spelling -> QGIS 4 spelling``.

Moved enums (QGIS 4 spelling, the QGIS release that added it, and where this was checked; "doc" rows were
read on the cited page of the QGIS API documentation, "src" rows in QGIS's src/core/qgis.h [10], the header those
pages are generated from, where the stored documentation has no page of the class that shows the move):

==========================================  ========================================  =====  ==========
QGIS 3 (3.22) enum, members                 QGIS 4                                    since  checked
==========================================  ========================================  =====  ==========
QgsWkbTypes.Type (Point, NoGeometry, ...)   Qgis.WkbType (same names)                 3.30   doc [1]
QgsWkbTypes.GeometryType (PointGeometry,    Qgis.GeometryType (Point, Line, Polygon,  3.30   doc [1]
LineGeometry, PolygonGeometry, ...)         Unknown, Null)
QgsUnitTypes.DistanceUnit (DistanceMeters,  Qgis.DistanceUnit (Meters, Kilometers,    3.30   doc [2]
DistanceKilometers, DistanceUnknownUnit)    Unknown, ...)
QgsProcessing.SourceType (TypeVectorPoint,  Qgis.ProcessingSourceType (VectorPoint,   3.36   doc [3]
TypeVector, TypeRaster, TypeFile)           Vector, Raster, File)
QgsProcessingParameterNumber.Type           Qgis.ProcessingNumberParameterType        3.36   doc [4]
(Integer, Double)                           (Integer, Double)
QgsProcessingParameterField.DataType        Qgis.ProcessingFieldParameterDataType     3.36   doc [9]
(Any, Numeric, String)                      (same names)
QgsProcessingParameterDefinition.Flag       Qgis.ProcessingParameterFlag (Advanced,   3.36   src [10]
(FlagAdvanced, FlagOptional, FlagHidden)    Optional, Hidden)
QgsProcessingFeatureSource.Flag             Qgis.ProcessingFeatureSourceFlag          3.36   doc [5]
(FlagSkipGeometryValidityChecks)            (SkipGeometryValidityChecks)
QgsProcessingAlgorithm.Flag (FlagHideFrom   Qgis.ProcessingAlgorithmFlag (HideFrom    3.36   src [10]
Toolbox, FlagNoThreading, ...)              Toolbox, NoThreading, ...)
QgsProcessingParameterFile.Behavior (File,  Qgis.ProcessingFileParameterBehavior      3.36   doc [11]
Folder)                                     (File, Folder)
QgsProcessingGui.WidgetType (Standard,      Qgis.ProcessingMode (Standard, Batch,     3.42+  doc [12]
Batch, Modeler)                             Modeler)
QgsProperty.Type (StaticProperty,           Qgis.PropertyType (Static, Field,         3.36   doc [6]
FieldBasedProperty, ...)                    Expression, Invalid)
QgsFeatureRequest.Flag (NoGeometry, ...)    Qgis.FeatureRequestFlag (same names)      3.36   src [10]
QgsRasterBandStats.Stats (Min, Max, ...)    Qgis.RasterBandStatistic (same names)     3.38   doc [7]
QgsColorRampShader.ClassificationMode       Qgis.ShaderClassificationMethod           3.38   doc [13]
(Continuous, EqualInterval, Quantile)       (same names)
==========================================  ========================================  =====  ==========

Enums that stayed where they were need no shim, only their scope (valid on 3.22 and 4):
``Qgis.Warning`` -> ``Qgis.MessageLevel.Warning`` (``Qgis.Info``, ``Qgis.Critical``, ``Qgis.Success`` alike),
``QgsFeatureSink.FastInsert`` -> ``QgsFeatureSink.Flag.FastInsert`` [8], and the enums QGIS had already moved by
3.22 (``QgsGeometry.ValidatorGeos`` -> ``Qgis.GeometryValidationEngine.Geos``).

[1] QGIS source, python/core/auto_additions/qgis.py: "Prior to 3.30 this was available as QgsWkbTypes.Type",
    ``QgsWkbTypes.Point = Qgis.WkbType.Point``, ``NullGeometry: Qgis.GeometryType.Null``; the 4.0 member list
    https://qgis.org/pyqgis/master/core/QgsWkbTypes-all-members.html has no enum values left.
[2] https://qgis.org/pyqgis/3.40/core/QgsUnitTypes.html ("Prior to QGIS 3.30 this was available as
    QgsUnitTypes.AngleUnit ... Available as QgsUnitTypes.AngleUnknownUnit in older QGIS releases"; distance
    and area units alike).
[3] https://qgis.org/pyqgis/3.34/core/QgsProcessing.html still lists ``SourceType``/``TypeVectorPoint``.
[4] https://qgis.org/pyqgis/3.34/core/QgsProcessingParameterNumber.html (``QgsProcessingParameterNumber.Type``)
    against https://qgis.org/pyqgis/3.38/core/QgsProcessingParameterNumber.html
    (``type: Qgis.ProcessingNumberParameterType``; ``Type`` is an alias of it).
[5] https://qgis.org/pyqgis/3.34/core/QgsProcessingFeatureSource.html (``Flag``) against
    https://qgis.org/pyqgis/3.40/core/QgsProcessingFeatureSource.html (``Flag`` is an alias of the Qgis enum).
[6] https://qgis.org/pyqgis/3.40/core/QgsProperty.html ("Type: alias of PropertyType").
[7] https://qgis.org/pyqgis/4.0/core/QgsRasterBandStats.html ("Stats: alias of RasterBandStatistic", no
    values); the 3.37 C++ member list https://qgis.org/api/classQgsRasterBandStats-members.html has no enum.
[8] https://qgis.org/pyqgis/3.44/core/QgsFeatureSink-all-members.html (``Flag``, ``FastInsert`` stay).
[9] https://qgis.org/pyqgis/3.40/core/QgsProcessingParameterField.html ("DataType: alias of
    ProcessingFieldParameterDataType"; ``type: Qgis.ProcessingFieldParameterDataType``) against the 3.34 page's
    ``QgsProcessingParameterField.DataType``.
[10] QGIS source, src/core/qgis.h, e.g. ``enum class FeatureRequestFlag SIP_MONKEYPATCH_SCOPEENUM_UNNEST(
    QgsFeatureRequest, Flag )`` with "Prior to QGIS 3.36 this was available as QgsFeatureRequest::Flag", and the
    same note for ``ProcessingParameterFlag`` (QgsProcessingParameterDefinition::Flag), ``ProcessingAlgorithmFlag``
    (QgsProcessingAlgorithm::Flag, ``FlagHideFromToolbox`` -> ``HideFromToolbox``) and ``ProcessingFeatureSourceFlag``.
[11] https://qgis.org/pyqgis/3.36/core/QgsProcessingParameterFile.html ("Enums: alias of
    ProcessingFileParameterBehavior"; ``behavior: Qgis.ProcessingFileParameterBehavior``).
[12] https://qgis.org/pyqgis/3.44/gui/QgsProcessingGui.html and https://qgis.org/pyqgis/4.0/gui/QgsProcessingGui.html
    ("WidgetType: alias of ProcessingMode"), while https://www.qgis.org/pyqgis/3.40/gui/QgsProcessingGui.html still
    lists ``WidgetType`` with its own ``Standard = 0``, ``Batch = 1``, ``Modeler = 2``: the move came after 3.40.
[13] https://qgis.org/pyqgis/3.38/core/QgsColorRampShader.html ("ClassificationMode: alias of
    ShaderClassificationMethod") against https://qgis.org/pyqgis/3.16/core/QgsColorRampShader.html
    (``QgsColorRampShader.ClassificationMode``, ``Continuous``/``EqualInterval``/``Quantile``).
"""

from __future__ import annotations

import ast
import enum
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
HELPER = Path(__file__).resolve().parent / "qt6_check.py"
QGIS_MODULES = ("qgis.core", "qgis.gui", "qgis.analysis")


def _load_helper():
    spec = importlib.util.spec_from_file_location("spatial_privacy_tests_qt6_check", HELPER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


qt6_check = _load_helper()
SHIM = qt6_check.SHIM


def _strip(prefix: str = "", suffix: str = "", **renamed: str):
    def rename(member: str) -> str:
        if member in renamed:
            return renamed[member]
        if prefix and member.startswith(prefix):
            member = member[len(prefix) :]
        if suffix and member.endswith(suffix):
            member = member[: -len(suffix)]
        return member

    return rename


#: QGIS 3 enum (its qualified name on 3.22) -> (QGIS 4 enum, member renaming). See the module docstring.
MOVED = {
    "QgsWkbTypes.Type": ("Qgis.WkbType", _strip()),
    "QgsWkbTypes.GeometryType": ("Qgis.GeometryType", _strip(suffix="Geometry")),
    "QgsUnitTypes.DistanceUnit": ("Qgis.DistanceUnit", _strip(prefix="Distance", DistanceUnknownUnit="Unknown")),
    "QgsProcessing.SourceType": ("Qgis.ProcessingSourceType", _strip(prefix="Type")),
    "QgsProcessingParameterNumber.Type": ("Qgis.ProcessingNumberParameterType", _strip()),
    "QgsProcessingParameterField.DataType": ("Qgis.ProcessingFieldParameterDataType", _strip()),
    "QgsProcessingParameterDefinition.Flag": ("Qgis.ProcessingParameterFlag", _strip(prefix="Flag")),
    "QgsProcessingFeatureSource.Flag": ("Qgis.ProcessingFeatureSourceFlag", _strip(prefix="Flag")),
    "QgsProcessingAlgorithm.Flag": ("Qgis.ProcessingAlgorithmFlag", _strip(prefix="Flag")),
    "QgsProcessingParameterFile.Behavior": ("Qgis.ProcessingFileParameterBehavior", _strip()),
    "QgsProcessingGui.WidgetType": ("Qgis.ProcessingMode", _strip()),
    "QgsProperty.Type": (
        "Qgis.PropertyType",
        _strip(suffix="Property", FieldBasedProperty="Field", ExpressionBasedProperty="Expression"),
    ),
    "QgsFeatureRequest.Flag": ("Qgis.FeatureRequestFlag", _strip()),
    "QgsRasterBandStats.Stats": ("Qgis.RasterBandStatistic", _strip()),
    "QgsColorRampShader.ClassificationMode": ("Qgis.ShaderClassificationMethod", _strip()),
}


def _enum_type(value):
    """The enum class of ``value`` when it is an enum value (a sip enum of QGIS 3.22 or a Python enum), else None."""
    kind = type(value)
    if isinstance(value, enum.Enum) or type(kind).__name__ == "enumtype":
        return kind
    return None


def _is_enum_class(obj) -> bool:
    return isinstance(obj, enum.EnumMeta) or type(obj).__name__ == "enumtype"


def _qgis4_spelling(qualname: str, member: str) -> str:
    if qualname in MOVED:
        new, rename = MOVED[qualname]
        return f"{new}.{rename(member)}"
    return f"{qualname}.{member}"


def check_chain(target: str) -> str | None:
    """None when ``target`` (``qgis.core.QgsWkbTypes.PointGeometry``) is spelled as QGIS 4 accepts it, else the
    problem and the QGIS 4 spelling."""
    module_name = next(m for m in QGIS_MODULES if target == m or target.startswith(m + "."))
    names = target[len(module_name) + 1 :].split(".") if target != module_name else []
    obj = importlib.import_module(module_name)
    previous = None
    for i, name in enumerate(names):
        try:
            value = getattr(obj, name)
        except AttributeError:
            return f"not in QGIS {running_qgis()}"
        kind = _enum_type(value)
        if kind is not None:
            member = value.name if isinstance(value, enum.Enum) else name
            qualname = kind.__qualname__
            scoped = previous is not None and obj is kind
            if not scoped or qualname in MOVED:
                why = "QGIS 3 enum" if qualname in MOVED else "unscoped enum value"
                return f"{why} -> {_qgis4_spelling(qualname, member)}"
            return None
        if _is_enum_class(value) and value.__qualname__ in MOVED and i == len(names) - 1:
            return f"QGIS 3 enum -> {MOVED[value.__qualname__][0]}"
        previous, obj = obj, value
    return None


def running_qgis() -> str:
    """The running QGIS's version, ``3.22.16``."""
    from qgis.core import Qgis

    return Qgis.QGIS_VERSION.split("-")[0]


def violations(root: Path) -> list[str]:
    """Every QGIS-3-only spelling below ``root`` outside :data:`SHIM`, as ``file:line: spelling: problem``."""
    found = set()
    for path in qt6_check.plugin_files(root):
        rel = path.relative_to(root).as_posix()
        if rel == SHIM:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for use in qt6_check.imported_uses(tree, rel, QGIS_MODULES):
            problem = check_chain(use.target)
            if problem:
                found.add((rel, use.line, f"{use.text}: {problem}"))
    return [f"{file}:{line}: {message}" for file, line, message in sorted(found)]


def test_qgis_3_only_api_stays_in_the_shim():
    found = violations(REPO)
    assert not found, (
        f"QGIS 4 spells these differently; use the scoped spelling, or a name from {SHIM} where QGIS 3.22 and 4 "
        f"differ ({len(found)}):\n" + "\n".join(found)
    )


def test_the_shim_exists_and_every_name_it_offers_resolves_on_this_qgis():
    """Each public name the shim defines exists on the running QGIS (3.22 here) and is not None, and its functions
    are callable: the QGIS 3 fallbacks it picks really are there."""
    assert (REPO / SHIM).is_file(), f"the shim module {SHIM} is missing"
    tree = ast.parse((REPO / SHIM).read_text(encoding="utf-8"))
    functions, constants = [], []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            functions.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            constants += [t.id for t in targets if isinstance(t, ast.Name)]
    functions = [n for n in functions if not n.startswith("_")]
    constants = [n for n in constants if not n.startswith("_")]
    assert functions or constants, f"{SHIM} offers no names"
    shim = importlib.import_module("spatial_privacy." + SHIM.removesuffix(".py").replace("/", "."))
    for name in constants:
        assert getattr(shim, name, None) is not None, f"{SHIM}: {name} does not resolve on QGIS {running_qgis()}"
    for name in functions:
        assert callable(getattr(shim, name, None)), f"{SHIM}: {name} is not callable on QGIS {running_qgis()}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = QgsWkbTypes.PointGeometry\n", "QGIS 3 enum -> Qgis.GeometryType.Point"),
        ("x = QgsWkbTypes.GeometryType.PointGeometry\n", "QGIS 3 enum -> Qgis.GeometryType.Point"),
        ("x = QgsWkbTypes.NoGeometry\n", "QGIS 3 enum -> Qgis.WkbType.NoGeometry"),
        ("x = QgsUnitTypes.DistanceUnknownUnit\n", "QGIS 3 enum -> Qgis.DistanceUnit.Unknown"),
        ("x = QgsUnitTypes.DistanceMeters\n", "QGIS 3 enum -> Qgis.DistanceUnit.Meters"),
        ("x = QgsProcessing.TypeVectorPoint\n", "QGIS 3 enum -> Qgis.ProcessingSourceType.VectorPoint"),
        ("x = QgsProcessingParameterNumber.Double\n", "QGIS 3 enum -> Qgis.ProcessingNumberParameterType.Double"),
        ("x = Qgis.Warning\n", "unscoped enum value -> Qgis.MessageLevel.Warning"),
        ("x = QgsFeatureSink.FastInsert\n", "unscoped enum value -> QgsFeatureSink.Flag.FastInsert"),
        ("x = QgsGeometry.ValidatorGeos\n", "unscoped enum value -> Qgis.GeometryValidationEngine.Geos"),
        ("def f(u: QgsUnitTypes.DistanceUnit): pass\n", "QGIS 3 enum -> Qgis.DistanceUnit"),
        ("x = Qgis.MessageLevel.Warning\n", None),
        ("x = QgsFeatureSink.Flag.FastInsert\n", None),
        ("x = QgsWkbTypes.geometryType(QgsWkbTypes.Type.Point)\n", "QGIS 3 enum -> Qgis.WkbType.Point"),
        ("x = QgsWkbTypes.displayString(1)\ny = Qgis.QGIS_VERSION_INT\n", None),
    ],
)
def test_a_qgis_3_spelling_is_found(tmp_path, source, expected):
    imports = "from qgis.core import Qgis, QgsFeatureSink, QgsGeometry, QgsProcessing\n"
    imports += "from qgis.core import QgsProcessingParameterNumber, QgsUnitTypes, QgsWkbTypes\n"
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "x.py").write_text(imports + source, encoding="utf-8")
    found = violations(tmp_path)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith("ui/x.py:3: ") and found[0].endswith(expected), found


def test_the_shim_may_spell_qgis_3_names(tmp_path):
    (tmp_path / SHIM).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / SHIM).write_text("from qgis.core import QgsWkbTypes\nX = QgsWkbTypes.PointGeometry\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text("from qgis.core import Qgis\nx = Qgis.Warning\n", encoding="utf-8")
    assert violations(tmp_path) == []
