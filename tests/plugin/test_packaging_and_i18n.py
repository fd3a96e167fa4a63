"""The plugin zip, the translations, and the dependency notice text."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
TS = REPO / "i18n" / "spatial_privacy_nl.ts"


def test_metadata_has_every_required_field():
    meta = configparser.ConfigParser()
    meta.read(REPO / "metadata.txt", encoding="utf-8")
    general = meta["general"]
    for key in (
        "name",
        "description",
        "version",
        "qgisMinimumVersion",
        "qgisMaximumVersion",
        "author",
        "email",
        "about",
        "tracker",
        "repository",
        "tags",
        "category",
        "icon",
        "hasProcessingProvider",
    ):
        assert general.get(key), key
    assert general["qgisMinimumVersion"] == "3.22" and general["hasProcessingProvider"] == "yes"
    assert (REPO / general["icon"]).is_file()
    assert "GNU GENERAL PUBLIC LICENSE" in (REPO / "LICENSE").read_text()


@pytest.fixture(scope="module")
def plugin_zip(tmp_path_factory) -> Path:
    """The zip `make package` builds."""
    zip_path = tmp_path_factory.mktemp("dist") / "plugin.zip"
    subprocess.run(
        [sys.executable, str(REPO / "scripts" / "package.py"), "--output", str(zip_path)],
        check=True,
        capture_output=True,
    )
    return zip_path


def test_package_is_a_single_folder_without_dev_files(plugin_zip):
    zip_path = plugin_zip
    names = zipfile.ZipFile(zip_path).namelist()
    assert {n.split("/")[0] for n in names} == {"spatial_privacy"}
    for needed in (
        "metadata.txt",
        "__init__.py",
        "LICENSE",
        "icon.svg",
        "core/pufferfish.py",
        "processing/provider.py",
        "plugin/plugin.py",
        "i18n/spatial_privacy_nl.qm",
    ):
        assert f"spatial_privacy/{needed}" in names
    for path in names:
        assert not re.match(r"spatial_privacy/(tests|scripts|\.ci)/", path), path
        assert not path.endswith(("Makefile", "pyproject.toml", ".pyc"))


def test_packaged_metadata_admits_qgis_4(plugin_zip):
    """The zip's metadata.txt lets QGIS 4 (Qt 6) install the plugin, and still QGIS 3.22.

    QGIS 4's plugin manager and plugins.qgis.org take a plugin as QGIS 4 compatible when qgisMaximumVersion is
    4.0 or more, 4.99 for the whole 4.x series (plugins.qgis.org's "Migrate to QGIS 4" guide; QGIS pull request
    65168 removed the installer's supportsQt6 check before 4.0). The Qt 6 builds of QGIS 3.44 still read
    supportsQt6, and the plugin repository asked for it while QGIS 4 was in preview, so it is declared too.
    """
    meta = configparser.ConfigParser()
    with zipfile.ZipFile(plugin_zip) as archive:
        meta.read_string(archive.read("spatial_privacy/metadata.txt").decode("utf-8"))
    general = meta["general"]
    maximum = tuple(int(part) for part in general["qgisMaximumVersion"].split("."))
    assert maximum >= (4, 99), f"qgisMaximumVersion={general['qgisMaximumVersion']}: QGIS 4.x refuses to install it"
    assert general["qgisMinimumVersion"] == "3.22"
    assert general.get("supportsQt6", "").strip().lower() in ("true", "yes"), "metadata.txt lacks supportsQt6=True"


def test_installed_zip_loads_in_qgis(tmp_path, plugin_zip):
    """Unzip as 'Install from ZIP' does, then let qgis_process load it from there."""
    import site

    zip_path = plugin_zip
    plugins = tmp_path / "profile_plugins"
    zipfile.ZipFile(zip_path).extractall(plugins)
    exe = shutil.which("qgis_process.bin") or shutil.which("qgis_process")
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QGIS_PLUGINPATH": str(plugins),
        "QGIS_CUSTOM_CONFIG_PATH": str(tmp_path / "config"),
        "PYTHONPATH": os.pathsep.join(site.getsitepackages()),
    }
    subprocess.run([exe, "plugins", "enable", "spatial_privacy"], env=env, check=True, capture_output=True)
    listing = subprocess.run([exe, "list"], env=env, capture_output=True, text=True, check=True).stdout
    assert "spatialprivacy:pufferfishgrid" in listing


def test_every_string_of_the_code_is_in_the_translation():
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "i18n.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout


def test_translations_keep_placeholders_and_markup():
    for message in ET.parse(TS).getroot().iter("message"):
        source, translation = message.findtext("source"), message.findtext("translation") or ""
        if not translation:
            continue
        assert sorted(re.findall(r"\{[^}]*\}", source)) == sorted(re.findall(r"\{[^}]*\}", translation)), source
        assert sorted(re.findall(r"</?\w+>", source)) == sorted(re.findall(r"</?\w+>", translation)), source


def test_compiled_qm_is_up_to_date(tmp_path):
    fresh = tmp_path / "nl.qm"
    subprocess.run(["lrelease", "-silent", str(TS), "-qm", str(fresh)], check=True)
    assert fresh.read_bytes() == (REPO / "i18n" / "spatial_privacy_nl.qm").read_bytes(), "run scripts/i18n.py"


def test_dutch_translator_translates_the_algorithm(provider):
    from qgis.core import QgsApplication

    from spatial_privacy import i18n

    alg = QgsApplication.processingRegistry().algorithmById("spatialprivacy:pufferfishgrid")
    english = alg.displayName()
    try:
        assert i18n.install_translator("nl").endswith("spatial_privacy_nl.qm")
        assert alg.displayName() != english
        assert i18n.tr("Pufferfish-private grid map") == alg.displayName()
    finally:
        i18n.remove_translators()
    assert alg.displayName() == english
    assert i18n.install_translator("xx") is None  # no such translation: English stays


def test_install_message_names_packages_and_commands():
    from spatial_privacy.core import dependencies

    numba = [d for d in dependencies.DEPENDENCIES if d.module == "numba"]
    text = dependencies.install_message(numba)
    assert "numba (optional)" in text and "python3 -m pip install numba" in text and "python3-numba" in text
    assert dependencies.install_message([]) == ""
    gone = dependencies.missing(find_spec=lambda name: None if name == "numba" else object())
    assert [d.module for d in gone] == ["numba"]
