"""Spatial Privacy QGIS plugin."""


def classFactory(iface):  # noqa: N802 (QGIS entry point)
    from .plugin.plugin import SpatialPrivacyPlugin

    return SpatialPrivacyPlugin(iface)
