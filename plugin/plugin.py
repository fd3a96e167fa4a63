"""The plugin object QGIS loads: registers the provider, adds a menu entry and a toolbar icon,
loads the translation, and tells the user once what to install if a dependency is missing."""

from __future__ import annotations

import os

from qgis.core import Qgis, QgsApplication, QgsMessageLog, QgsProject
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
    QgsMessageLog.logMessage(message, LOG_TAG, Qgis.MessageLevel.Warning)
    if iface is not None:
        first_line, _, details = message.partition("\n")
        iface.messageBar().pushMessage(
            LOG_TAG, first_line + " " + details.replace("\n", " "), Qgis.MessageLevel.Warning, 0
        )
    return message


def project_folders(project=None) -> list[str]:
    """The folders the plugin knows: the project's home folder and the folder of its file (``[]`` without a saved
    project)."""
    project = project if project is not None else QgsProject.instance()
    return [f for f in dict.fromkeys((project.homePath(), project.absolutePath())) if f and os.path.isdir(f)]


def recover_folders(folders) -> list[str]:
    """Finish or undo the commits that runs killed while moving their outputs into ``folders`` left half done, and
    remove their staging folders (core.files.recover); each commit resolved is logged in the QGIS message log.
    Returns the messages. A folder that cannot be looked at is logged and skipped: QGIS starts all the same."""
    from ..core.files import recover

    messages = []
    for folder in folders:
        try:
            found = recover(folder)
        except Exception as error:  # noqa: BLE001 (nothing may stop QGIS from starting)
            QgsMessageLog.logMessage(
                tr("Outputs left half written in {0} could not be checked: {1}").format(folder, error),
                LOG_TAG,
                Qgis.MessageLevel.Warning,
            )
            continue
        for message in found:
            QgsMessageLog.logMessage(message, LOG_TAG, Qgis.MessageLevel.Info)
        messages += found
    return messages


class SpatialPrivacyPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.action = None
        self.explorer_action = None
        self.explorer = None
        self._watching_project = False

    def recover_project_folders(self, *_) -> list[str]:
        """:func:`recover_folders` for the current project's folders (at start, and when another project is
        opened)."""
        return recover_folders(project_folders())

    def initProcessing(self):  # noqa: N802 (QGIS API name; also called by qgis_process)
        from ..processing.provider import SpatialPrivacyProvider

        install_translator()
        if self.provider is None:
            self.provider = SpatialPrivacyProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)
        notify_missing_dependencies(self.iface)
        self.recover_project_folders()

    def initGui(self):  # noqa: N802 (QGIS API name)
        self.initProcessing()
        from ..processing.provider import ICON

        self.action = QAction(QIcon(str(ICON)), tr("Spatial Privacy algorithms…"), self.iface.mainWindow())
        self.action.setObjectName("spatialPrivacyOpenToolbox")
        self.action.setToolTip(tr("Show the Spatial Privacy algorithms in the Processing toolbox"))
        self.action.triggered.connect(self.open_toolbox)
        self.iface.addPluginToMenu(tr(MENU), self.action)
        self.iface.addToolBarIcon(self.action)
        self.explorer_action = QAction(QIcon(str(ICON)), tr("Privacy explorer…"), self.iface.mainWindow())
        self.explorer_action.setObjectName("spatialPrivacyExplorer")
        self.explorer_action.setToolTip(tr("Pick ε and a method's settings while previewing what they cost"))
        self.explorer_action.triggered.connect(self.open_explorer)
        self.iface.addPluginToMenu(tr(MENU), self.explorer_action)
        self.iface.addToolBarIcon(self.explorer_action)
        QgsProject.instance().homePathChanged.connect(self.recover_project_folders)
        self._watching_project = True

    def unload(self):
        if self._watching_project:
            QgsProject.instance().homePathChanged.disconnect(self.recover_project_folders)
            self._watching_project = False
        if self.action is not None:
            self.iface.removePluginMenu(tr(MENU), self.action)
            self.iface.removeToolBarIcon(self.action)
            self.action = None
        if self.explorer is not None:
            self.explorer.close()
            self.explorer.deleteLater()
            self.explorer = None
        if self.explorer_action is not None:
            self.iface.removePluginMenu(tr(MENU), self.explorer_action)
            self.iface.removeToolBarIcon(self.explorer_action)
            self.explorer_action = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        remove_translators()  # a reload installs it again; two would stack

    def open_explorer(self):
        """Show the privacy explorer (one per QGIS session, non-modal) and return it."""
        from ..ui.explorer.dialog import ExplorerDialog

        if self.explorer is None:
            self.explorer = ExplorerDialog(self.iface.mainWindow())
        self.explorer.show()
        self.explorer.raise_()
        self.explorer.activateWindow()
        return self.explorer

    def open_toolbox(self) -> bool:
        """Show the Processing toolbox filtered to this plugin's algorithms."""
        from ..processing.algorithm import TOOLBOX_TAG

        try:
            from qgis.utils import plugins

            toolbox = plugins["processing"].toolbox
        except (ImportError, KeyError, AttributeError):
            self.iface.messageBar().pushMessage(
                LOG_TAG,
                tr("Enable the Processing plugin to use the Spatial Privacy algorithms."),
                Qgis.MessageLevel.Warning,
                5,
            )
            return False
        toolbox.setVisible(True)
        toolbox.raise_()
        toolbox.searchBox.setText(TOOLBOX_TAG)
        return True
