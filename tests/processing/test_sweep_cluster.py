"""spatialprivacy:riskutilitysweep on the executor the provider's settings ask for (Processing > Options >
Providers > Spatial Privacy): a real ``distributed.LocalCluster`` and local processes give the serial table at the
same SEED; the scheduler's address is written to no output and no log; a cluster that loses the work, or an
address without Dask, fails with a clear message and writes nothing."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from qgis import processing
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProject,
    QgsSettings,
    QgsVectorLayer,
)

from spatial_privacy.processing.executor_settings import DASK_SCHEDULER, LOCAL_WORKERS, SETTINGS_GROUP

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a worker is killed with SIGKILL")

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")
cloudpickle.register_pickle_by_value(sys.modules[__name__])  # kill_worker travels by value to the workers

ALG = "spatialprivacy:riskutilitysweep"


def kill_worker(*args, **kwargs):
    """Stands in for a sweep task: kills the Dask worker it runs in (never the test's process)."""
    if os.getpid() != TEST_PID:
        os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("a sweep task ran in the test's process, not on the cluster")


TEST_PID = os.getpid()


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture
def settings():
    """Set the provider's settings as the options dialog saves them; restored afterwards."""
    store = QgsSettings()
    keys = [SETTINGS_GROUP + name for name in (DASK_SCHEDULER, LOCAL_WORKERS)]
    before = {key: store.value(key, None) for key in keys}

    def set_(scheduler="", workers=0):
        store.setValue(keys[0], scheduler)
        store.setValue(keys[1], workers)

    yield set_
    for key, value in before.items():
        if value is None:
            store.remove(key)
        else:
            store.setValue(key, value)


@pytest.fixture(scope="module")
def snow(data_copy, provider, tmp_path_factory):
    """The deaths and a model file fitted with a covariate (distance to pump 7), whose functions are closures
    (ConfidentialFit.from_model_file) that must travel to the workers."""
    gpkg = data_copy / "snow_cholera.gpkg"
    deaths = QgsVectorLayer(f"{gpkg}|layername=deaths", "deaths", "ogr")
    pumps = QgsVectorLayer(f"{gpkg}|layername=pumps", "pumps", "ogr")
    assert deaths.isValid() and pumps.isValid()
    QgsProject.instance().addMapLayer(deaths, False)
    QgsProject.instance().addMapLayer(pumps, False)
    pump = QgsVectorLayer("Point", "pump 7", "memory")
    pump.setCrs(QgsCoordinateReferenceSystem())
    feature = QgsFeature()
    feature.setGeometry(next(f for f in pumps.getFeatures() if f["pump"] == 7).geometry())
    pump.dataProvider().addFeatures([feature])
    folder = tmp_path_factory.mktemp("sweep_cluster")
    fit = processing.run(
        "spatialprivacy:fitlgcp",
        {
            "INPUT": deaths,
            "DISTANCE_TO": pump,
            "MAX_EDGE": 0.8,
            "DRAWS": 200,
            "SEED": 1,
            "OUTPUT_MODEL": str(folder / "snow.npz"),
        },
    )
    yield {"deaths": deaths, "model": fit["OUTPUT_MODEL"]}
    QgsProject.instance().removeMapLayer(deaths.id())
    QgsProject.instance().removeMapLayer(pumps.id())


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as local:
        yield local


def params(snow, folder: Path, name: str) -> dict:
    return {
        "INPUT": snow["deaths"],
        "MODEL": snow["model"],
        "RADII": "0.5",
        "NOISE_LEVELS": "",
        "PRS_SETS": 1,
        "RISK_RADIUS": 0.1,
        "MAX_RISK": 1.0,
        "SEED": 5,
        "OUTPUT_TABLE": str(folder / f"{name}.gpkg"),
        "OUTPUT_REPORT": str(folder / f"{name}.html"),
        "OUTPUT_RECOMMENDED": str(folder / f"{name}_best.gpkg"),
    }


def run(snow, folder, name):
    feedback = QgsProcessingFeedback()
    result = processing.run(ALG, params(snow, folder, name), feedback=feedback)
    table = QgsVectorLayer(result["OUTPUT_TABLE"], name, "ogr")
    rows = [tuple(f.attributes()[1:]) for f in table.getFeatures()]  # without the fid
    return rows, feedback.textLog()


def test_the_settings_are_in_the_processing_options(provider):
    from processing.core.ProcessingConfig import ProcessingConfig

    for name in (DASK_SCHEDULER, LOCAL_WORKERS):
        assert ProcessingConfig.settings[name].group == provider.name()


def test_cluster_and_local_processes_give_the_serial_table_and_the_address_is_written_nowhere(
    snow, cluster, settings, tmp_path
):
    settings("", 1)  # one local worker: in turn, in this process
    serial, log = run(snow, tmp_path, "serial")
    assert "Independent sets run in: serial." in log and len(serial) == 2
    settings("", 2)
    local, log = run(snow, tmp_path, "local")
    assert "Independent sets run in: local processes (2)." in log and local == serial
    address = cluster.scheduler_address
    settings(address)
    on_cluster, log = run(snow, tmp_path, "cluster")
    assert "Independent sets run in: Dask cluster." in log and on_cluster == serial
    host_port = address.split("://")[-1]
    assert host_port not in log
    for path in tmp_path.iterdir():  # the table, the report, the recommended set (and GeoPackage sidecars)
        if path.is_file() and path.stem.startswith("cluster"):
            assert host_port.encode() not in path.read_bytes(), path.name
    assert "Dask cluster" in (tmp_path / "cluster.html").read_text(encoding="utf-8")


def test_a_cluster_that_loses_the_work_fails_clearly_and_writes_nothing(snow, cluster, settings, tmp_path, monkeypatch):
    from spatial_privacy.core.synthesis import sweep as sweep_module

    monkeypatch.setattr(sweep_module, "_sweep_task", kill_worker)
    allowed, cluster.scheduler.allowed_failures = cluster.scheduler.allowed_failures, 0  # no rerun: give up
    settings(cluster.scheduler_address)
    try:
        with pytest.raises(QgsProcessingException, match="no output was written: the Dask scheduler at .* lost"):
            processing.run(ALG, params(snow, tmp_path, "lost"))
    finally:
        cluster.scheduler.allowed_failures = allowed
    assert not any(tmp_path.iterdir())  # no table, report or recommended set: the outputs were staged


def test_an_address_without_dask_fails_before_the_fit_and_says_what_to_install(snow, settings, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    settings("tcp://127.0.0.1:8786")
    feedback = QgsProcessingFeedback()
    with pytest.raises(QgsProcessingException, match="pip install distributed"):
        processing.run(ALG, params(snow, tmp_path, "nodask"), feedback=feedback)
    assert "Confidential model" not in feedback.textLog() and not any(tmp_path.iterdir())
