"""Translations: one Qt context for the whole plugin, and the loader of the ``.qm`` files beside this module.

Every layer above the core (processing/, ui/, plugin/) imports :func:`tr` from here, so none of them reaches
into another for it. Strings are marked with :func:`tr`; ``scripts/i18n.py`` extracts every ``tr("...")`` and
``self.tr("...")`` literal into ``i18n/spatial_privacy_<lang>.ts`` under the context below, and ``lrelease``
compiles those into the ``.qm`` files loaded here.
"""

from __future__ import annotations

from pathlib import Path

from qgis.PyQt.QtCore import QCoreApplication, QLocale, QSettings, QTranslator

CONTEXT = "SpatialPrivacy"
I18N_DIR = Path(__file__).resolve().parent
_installed: list[QTranslator] = []


def tr(text: str) -> str:
    """Translate ``text`` in the plugin's context."""
    return QCoreApplication.translate(CONTEXT, text)


def user_locale() -> str:
    """QGIS's interface language (``locale/userLocale``), e.g. ``nl`` or ``de_DE``."""
    value = QSettings().value("locale/userLocale", "", type=str)
    value = value or QLocale.system().name()
    return value or "en"


def install_translator(locale: str | None = None) -> str | None:
    """Load the plugin's translation for ``locale`` (default: QGIS's), once per process.

    Returns the path of the ``.qm`` file loaded, or ``None`` when there is none for the locale.
    """
    lang = (locale or user_locale())[:2].lower()
    qm = I18N_DIR / f"spatial_privacy_{lang}.qm"
    if not qm.is_file():
        return None
    for translator in _installed:
        if translator.objectName() == str(qm):
            return str(qm)
    translator = QTranslator()
    if not translator.load(str(qm)):
        return None
    translator.setObjectName(str(qm))
    QCoreApplication.installTranslator(translator)
    _installed.append(translator)
    return str(qm)


def remove_translators() -> None:
    """Uninstall the translators this module installed (plugin unload, tests)."""
    while _installed:
        QCoreApplication.removeTranslator(_installed.pop())
