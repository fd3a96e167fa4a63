"""The plugin object QGIS loads: registers the provider, adds a menu entry and a toolbar icon,
loads the translation, and tells the user once what to install if a dependency is missing."""

from __future__ import annotations

from qgis.core import Qgis, QgsApplication, QgsMessageLog
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QAction

from ..core import dependencies
from ..i18n import install_translator, remove_translators, tr

MENU = "&Spatial Privacy"
LOG_TAG = "Spatial Privacy"
_notified = False


def notify_missing_dependencies(iface=None) -> str:
    """Tell the user, once per QGIS session, which packages are missing and how to install them.

    Goes to the message log always and to the message bar when there is one. Returns the message
    ("" if nothing is missing).
    """
    global _notified
    message = dependencies.install_message(dependencies.missing())
    if not message or _notified:
        return message
    _notified = True
    QgsMessageLog.logMessage(message, LOG_TAG, Qgis.Warning)
    if iface is not None:
        first_line, _, details = message.partition("\n")
        iface.messageBar().pushMessage(LOG_TAG, first_line + " " + details.replace("\n", " "), Qgis.Warning, 0)
    return message


class SpatialPrivacyPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.action = None

    def initProcessing(self):  # noqa: N802 (QGIS API name; also called by qgis_process)
        from ..processing.provider import SpatialPrivacyProvider

        install_translator()
        if self.provider is None:
            self.provider = SpatialPrivacyProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)
        notify_missing_dependencies(self.iface)

    def initGui(self):  # noqa: N802 (QGIS API name)
        self.initProcessing()
        from ..processing.provider import ICON

        self.action = QAction(QIcon(str(ICON)), tr("Spatial Privacy algorithms…"), self.iface.mainWindow())
        self.action.setObjectName("spatialPrivacyOpenToolbox")
        self.action.setToolTip(tr("Show the Spatial Privacy algorithms in the Processing toolbox"))
        self.action.triggered.connect(self.open_toolbox)
        self.iface.addPluginToMenu(tr(MENU), self.action)
        self.iface.addToolBarIcon(self.action)

    def unload(self):
        if self.action is not None:
            self.iface.removePluginMenu(tr(MENU), self.action)
            self.iface.removeToolBarIcon(self.action)
            self.action = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        remove_translators()  # a reload installs it again; two would stack

    def open_toolbox(self) -> bool:
        """Show the Processing toolbox filtered to this plugin's algorithms."""
        from ..processing.algorithm import TOOLBOX_TAG

        try:
            from qgis.utils import plugins

            toolbox = plugins["processing"].toolbox
        except (ImportError, KeyError, AttributeError):
            self.iface.messageBar().pushMessage(
                LOG_TAG, tr("Enable the Processing plugin to use the Spatial Privacy algorithms."), Qgis.Warning, 5
            )
            return False
        toolbox.setVisible(True)
        toolbox.raise_()
        toolbox.searchBox.setText(TOOLBOX_TAG)
        return True
