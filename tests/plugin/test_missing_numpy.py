"""Without a required package the plugin still loads, and the algorithm refuses with the notice."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys
    sys.modules["numpy"] = None  # as if numpy were not installed
    from qgis.core import QgsApplication, QgsProcessingException
    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing
    Processing.initialize()
    import processing
    import spatial_privacy
    plugin = spatial_privacy.classFactory(None)
    plugin.initProcessing()  # must not raise
    try:
        processing.run("spatialprivacy:pufferfishgrid", {
            "INPUT": sys.argv[1], "FIELD": "production", "CELL_SIZE": 500, "EPSILON": 1, "INTERVAL": 5,
            "OUTPUT": sys.argv[2]})
    except QgsProcessingException as error:
        print("REFUSED:", error)
    """
)


def test_plugin_loads_and_refuses_without_numpy(tmp_path, data_copy):
    target = tmp_path / "grid.gpkg"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(data_copy / "sdcspatial_enterprises.gpkg"), str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "REFUSED:" in proc.stdout
    assert "numpy (required)" in proc.stdout and "python3 -m pip install numpy" in proc.stdout
    assert not target.exists()
