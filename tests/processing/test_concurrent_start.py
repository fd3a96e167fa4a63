"""Five algorithms started at once in worker threads, as QGIS's background tasks start them, in a fresh interpreter
each time (the failure came from first imports racing: two threads importing scipy.spatial and
scipy.spatial.distance at once got a partially initialised module, "cannot import name 'euclidean'")."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

#: Fresh interpreters started one after the other (2 to 4 s each). Without the lock around the first imports
#: (processing.algorithm.import_modules; SPATIAL_PRIVACY_TEST_WITHOUT_IMPORT_LOCK=1 takes it away), 16 of 48 such
#: starts failed, and none of over 70 with it: the chance that 12 starts all pass without the lock is about
#: (2/3)**12, 0.8%.
STARTS = 12

SCRIPT = textwrap.dedent(
    """
    import os, sys, tempfile, threading
    from pathlib import Path
    from qgis.core import QgsApplication, QgsProcessingContext, QgsProcessingFeedback
    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing
    Processing.initialize()
    import processing
    from spatial_privacy.processing import algorithm
    from spatial_privacy.processing.provider import SpatialPrivacyProvider
    if os.environ.get("SPATIAL_PRIVACY_TEST_WITHOUT_IMPORT_LOCK"):  # shows the failure this test guards against
        algorithm.import_modules = lambda: None
    provider = SpatialPrivacyProvider()
    QgsApplication.processingRegistry().addProvider(provider)
    data, out = Path(sys.argv[1]), Path(tempfile.mkdtemp(dir=sys.argv[2]))
    deaths = f"{data / 'snow_cholera.gpkg'}|layername=deaths"
    jobs = {
        "kfunction": {"INPUT": deaths, "RADII": "2,40", "OUTPUT": str(out / "k.gpkg")},
        "dpcounts": {
            "INPUT": f"{data / 'dwelling_areas.gpkg'}|layername=areas", "COUNT_FIELD": "unemployed",
            "POPULATION_FIELD": "dwellings", "RATE_FIELD": "prior_rate", "EPSILON": 1.0, "SETS": 2, "SEED": 4,
            "OUTPUT": str(out / "c.gpkg"),
        },
        "dppoints": {"INPUT": deaths, "EPSILON": 5.0, "ALPHA": 0.1, "SEED": 1, "OUTPUT": str(out / "p.gpkg")},
        "pufferfishgrid": {
            "INPUT": f"{data / 'sdcspatial_enterprises.gpkg'}|layername=enterprises", "FIELD": "production",
            "CELL_SIZE": 500.0, "EPSILON": 0.1, "INTERVAL": 50.0, "OUTPUT": str(out / "g.gpkg"),
        },
        "fitlgcp": {"INPUT": deaths, "MAX_EDGE": 10.0, "DRAWS": 10, "SEED": 1, "OUTPUT_MODEL": str(out / "m.npz")},
    }
    start = threading.Barrier(len(jobs))
    printing = threading.Lock()  # print() writes its pieces separately: two threads' lines could interleave

    def say(line):
        with printing:
            print(line, flush=True)

    def run(name, params):
        context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
        start.wait()
        try:
            processing.run("spatialprivacy:" + name, params, context=context, feedback=feedback)
            say("DONE " + name)
        except BaseException as error:
            say("FAILED " + name + " " + " | ".join(str(error).splitlines()[-3:]))

    threads = [threading.Thread(target=run, args=job) for job in jobs.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    os._exit(0)  # QGIS's exit with layers still held by the threads' contexts is not what this tests
    """
)


def start_five(data_copy, tmp_path, env=None) -> list[str]:
    """Run SCRIPT in a fresh interpreter: one line per algorithm, "DONE name" or "FAILED name why"."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(data_copy), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [line for line in done.stdout.splitlines() if line.startswith(("DONE", "FAILED"))]


def test_five_algorithms_started_at_once_in_threads_never_fail(data_copy, tmp_path):
    failures = []
    for _ in range(STARTS):
        lines = start_five(data_copy, tmp_path)
        assert len(lines) == 5, lines
        failures += [line for line in lines if not line.startswith("DONE")]
    assert failures == []
