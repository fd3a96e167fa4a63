"""The provider's settings of where independent tasks run (Processing > Options > Providers > Spatial Privacy): a
Dask scheduler's address (empty: local worker processes) and the number of local worker processes; read by the
risk-utility sweep (:func:`sweep_executor`) into a :mod:`core.executor` executor.

The settings are registered with QGIS's Processing options (``ProcessingConfig``, as QGIS's own providers do)
when the provider loads, and read back from ``QgsSettings`` under ``Processing/Configuration/`` where the options
dialog saves them, so a run (also in ``qgis_process``) sees the saved value. The address is never written to an
output or a report, which name the kind of executor only (:func:`core.executor.describe`); the log names it only in
the error of a cluster that cannot be reached or lost the work.
"""

from __future__ import annotations

from qgis.core import QgsProcessingException, QgsSettings

from ..i18n import tr

#: Setting names (keys under ``Processing/Configuration/``).
DASK_SCHEDULER = "SPATIALPRIVACY_DASK_SCHEDULER"
LOCAL_WORKERS = "SPATIALPRIVACY_LOCAL_WORKERS"
SETTINGS_GROUP = "Processing/Configuration/"


def register(provider) -> None:
    """Add the settings to the Processing options, under the provider's name. Without QGIS's ``processing``
    plugin (no options dialog) nothing is added; the settings are still read from ``QgsSettings``."""
    try:
        from processing.core.ProcessingConfig import ProcessingConfig, Setting
    except ImportError:  # pragma: no cover - QGIS's processing plugin is part of every QGIS with Python
        return
    group = provider.name()
    ProcessingConfig.settingIcons[group] = provider.icon()
    ProcessingConfig.addSetting(
        Setting(
            group,
            DASK_SCHEDULER,
            tr(
                "Dask scheduler address for risk-utility sweeps (e.g. tcp://10.0.0.5:8786; empty: local processes). "
                "Confidential data travel to its workers: only a cluster inside your trusted environment"
            ),
            "",
            valuetype=Setting.STRING,
        )
    )
    ProcessingConfig.addSetting(
        Setting(group, LOCAL_WORKERS, tr("Local worker processes for risk-utility sweeps (0: one per core)"), 0)
    )
    ProcessingConfig.readSettings()


def unregister() -> None:
    """Take the settings off the Processing options (the provider unloads)."""
    try:
        from processing.core.ProcessingConfig import ProcessingConfig
    except ImportError:  # pragma: no cover
        return
    for name in (DASK_SCHEDULER, LOCAL_WORKERS):
        ProcessingConfig.settings.pop(name, None)


def scheduler_address() -> str:
    """The saved Dask scheduler address, stripped; ``""`` for none."""
    value = QgsSettings().value(SETTINGS_GROUP + DASK_SCHEDULER, "")
    return "" if value is None else str(value).strip()


def local_workers() -> int | None:
    """The saved number of local worker processes; ``None`` (one per core) for 0, empty or not a number."""
    value = QgsSettings().value(SETTINGS_GROUP + LOCAL_WORKERS, 0)
    try:
        count = int(str(value).strip() or 0)
    except ValueError:
        return None
    return count if count > 0 else None


def sweep_executor(feedback=None):
    """The executor the settings ask for: a :class:`core.executor.DaskCluster` at the saved address, else
    :class:`core.executor.LocalProcesses`. With an address but no Dask installed: a QgsProcessingException that
    says what to install, before any long work. The log names the kind of executor, not the address."""
    from ..core import dependencies
    from ..core.executor import DaskCluster, LocalProcesses, describe

    address = scheduler_address()
    if address:
        absent = dependencies.missing(dependencies.DASK)
        if absent:
            raise QgsProcessingException(
                tr(
                    "A Dask scheduler address is set in Processing > Options > Providers > Spatial Privacy, but Dask "
                    "is not installed. Install it, or clear the address to run in local processes."
                )
                + "\n"
                + dependencies.install_message(absent)
            )
        executor = DaskCluster(address)
    else:
        executor = LocalProcesses(local_workers())
    if feedback is not None:
        feedback.pushInfo(tr("Independent sets run in: {0}.").format(describe(executor)))
    return executor
