"""QGIS glue: the plugin class, its actions, the dependency notice and translations."""
