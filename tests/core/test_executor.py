"""core.executor: serial runs, local worker processes and a real ``distributed.LocalCluster`` give identical
results at the same seed; errors, Cancel and lost workers; the risk-utility sweep through each executor."""

from __future__ import annotations

import functools
import os
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from spatial_privacy.core import fields
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.executor import (
    DaskCluster,
    ExecutorError,
    LocalProcesses,
    Serial,
    describe,
    executor_from,
    python_executable,
    run_seeded,
)
from spatial_privacy.core.laplace_fit import fit_laplace
from spatial_privacy.core.lgcp import simulate_points
from spatial_privacy.core.lgcp_setup import Covariate, build_lgcp
from spatial_privacy.core.mechanisms import generator, standard_normals
from spatial_privacy.core.synthesis.confidential_fit import ConfidentialFit
from spatial_privacy.core.synthesis.sweep import sweep, sweep_specs
from spatial_privacy.core.triangulation import triangulate
from spatial_privacy.core.window import Window

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the lost-worker tests kill processes with SIGKILL")

cloudpickle = pytest.importorskip("cloudpickle")
# the helpers below travel by value, as a user's closures do: the workers need not import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WINDOW = Window.rectangle(0, 0, 6, 6)


def noisy(scale, transform, item, seed):
    """A task: three normals from its own generator, shifted by a closure of the item."""
    return transform(item) + scale * standard_normals(generator(seed), 3)


def failing(item, seed):
    if item == 2:
        raise ParameterError("radius", f"item {item} is not allowed")
    return item


def sleeping(item, seed):
    time.sleep(30)
    return item


class Killer:
    """A task (or a covariate function) that kills the worker process it runs in: once, the first time it runs
    while ``armed`` exists in ``folder`` (``killed`` marks that it did), or every time while ``always`` exists.
    Never in the process that made it (the test's)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.parent = os.getpid()

    def kill_here(self) -> None:
        if os.getpid() == self.parent:
            return
        if (self.folder / "always").exists():
            os.kill(os.getpid(), signal.SIGKILL)
        if (self.folder / "armed").exists() and not (self.folder / "killed").exists():
            (self.folder / "killed").touch()
            os.kill(os.getpid(), signal.SIGKILL)

    def __call__(self, item, seed):  # as a task
        self.kill_here()
        return noisy(1.0, float, item, seed)

    def values(self, u, v):  # as a covariate: the easting, scaled
        self.kill_here()
        return np.asarray(u, dtype=np.float64) / 6.0


def test_executor_from_plain_values_and_the_address_is_never_described():
    assert executor_from(None) == executor_from("") == executor_from("serial") == Serial()
    assert executor_from("processes", 3) == LocalProcesses(3)
    cluster = executor_from(" tcp://10.1.2.3:8786 ")
    assert cluster == DaskCluster("tcp://10.1.2.3:8786")
    assert "10.1.2.3" not in repr(cluster) and describe(cluster) == "Dask cluster"
    assert describe(LocalProcesses(2)) == "local processes (2)" and describe(None) == "serial"
    assert Path(python_executable()).name.startswith("python")


def test_only_an_interpreter_of_this_python_is_taken_else_the_tasks_run_in_turn(tmp_path, monkeypatch):
    from spatial_privacy.core import executor as module

    other = tmp_path / "python3.11"  # a shim of another installation, as a pyenv one on the PATH inside QGIS
    other.write_text("#!/bin/sh\necho '(3, 11, 7) /somewhere/else'\n")
    other.chmod(0o755)
    assert not module._is_this_python(other) and module._is_this_python(Path(sys.executable))
    monkeypatch.setattr(module, "_PYTHON", [])
    monkeypatch.setattr(module, "_is_this_python", lambda candidate: False)
    with pytest.raises(ExecutorError, match="No Python interpreter of this installation"):
        python_executable()
    messages = []
    task = functools.partial(noisy, 1.0, float)
    ran = run_seeded(task, [1, 2], generator(2), LocalProcesses(2), progress=lambda f, m: messages.append(m))
    assert all(np.array_equal(a, b) for a, b in zip(ran, run_seeded(task, [1, 2], generator(2), Serial())))
    assert any("The tasks run in turn." in m for m in messages)


def test_local_processes_give_the_serial_results_in_input_order():
    items = [3.0, 1.0, 4.0, 1.5, 9.0]
    task = functools.partial(noisy, 0.5, lambda v: v * 2)  # a lambda: travels with cloudpickle
    serial = run_seeded(task, items, generator(8), Serial())
    finished = []
    local = run_seeded(task, items, generator(8), LocalProcesses(2), on_result=lambda i, value: finished.append(i))
    assert len(local) == len(items) and all(np.array_equal(a, b) for a, b in zip(serial, local))
    assert sorted(finished) == list(range(len(items)))
    # the seeds come from the generator before dispatch: another seed, other values
    other = run_seeded(task, items, generator(9), Serial())
    assert not np.array_equal(other[0], serial[0])


def blas_threads(item, seed):
    from threadpoolctl import threadpool_info

    return sorted({library["num_threads"] for library in threadpool_info()})


def test_every_task_runs_with_one_blas_thread_wherever_it_runs():
    # a multi-threaded BLAS adds up in another order: the last bits would depend on the thread count, which is
    # the machine's cores here and one in Dask's workers (on John Snow an ANS set's maximum risk differed in its
    # 16th digit between a client with two BLAS threads and the workers before tasks were limited to one)
    pytest.importorskip("threadpoolctl")
    for executor in (Serial(), LocalProcesses(2)):
        assert run_seeded(blas_threads, [1, 2], generator(1), executor) == [[1], [1]], executor


def test_a_task_error_travels_back_with_its_parameter():
    with pytest.raises(ParameterError, match="item 2 is not allowed") as caught:
        run_seeded(failing, [0, 1, 2, 3], generator(1), LocalProcesses(2))
    assert caught.value.parameter == "radius"


def test_cancel_ends_the_local_workers_at_once():
    def progress(fraction, message):
        if time.monotonic() - start > 3:
            raise RuntimeError("cancelled")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="cancelled"):
        run_seeded(sleeping, [1, 2, 3], generator(1), LocalProcesses(2), progress=progress)
    assert time.monotonic() - start < 15  # not the tasks' 30 s each


def test_a_killed_local_worker_is_retried_and_the_results_are_complete(tmp_path):
    killer = Killer(tmp_path)
    items = [1.0, 2.0, 3.0, 4.0]
    serial = run_seeded(killer, items, generator(5), Serial())
    (tmp_path / "armed").touch()
    local = run_seeded(killer, items, generator(5), LocalProcesses(2, retries=1))
    assert (tmp_path / "killed").exists()  # a worker did die
    assert len(local) == 4 and all(np.array_equal(a, b) for a, b in zip(serial, local))
    (tmp_path / "always").touch()
    with pytest.raises(ExecutorError, match="worker process died"):
        run_seeded(killer, items, generator(5), LocalProcesses(2, retries=1))


def test_without_dask_a_scheduler_address_fails_and_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ExecutorError, match="pip install distributed"):
        run_seeded(noisy, [1, 2], generator(1), DaskCluster("tcp://127.0.0.1:1"))
    # local processes need no Dask
    assert len(run_seeded(functools.partial(noisy, 1.0, float), [1, 2], generator(1), LocalProcesses(2))) == 2


# --- the risk-utility sweep ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def killer(tmp_path_factory):
    return Killer(tmp_path_factory.mktemp("killer"))


@pytest.fixture(scope="module")
def small_fit(killer):
    """A small LGCP on a 6 x 6 square (about 170 points, 74 nodes) with a covariate function that can kill the
    worker it runs in (never while not armed)."""
    rng = generator(11)
    mesh = triangulate(WINDOW, 1.0)
    w = fields.SPDEMatern(*mesh.fem_matrices()).sample(2.0, 0.8, rng)[0]
    x, y = simulate_points(mesh, WINDOW, 1.5 + w, rng)
    covariates = (Covariate("east", killer.values),)
    setup = build_lgcp(x, y, window=WINDOW, max_edge=1.0, covariates=covariates)
    posterior = fit_laplace(setup.model, rng, draws=100)
    return ConfidentialFit(setup.model, posterior, WINDOW, x, y, covariates, None, draws=50)


SPECS = sweep_specs([0.5], [0.5], 1)  # radial, ANS, PRS


def run_sweep(conf, executor):
    return sweep(conf, SPECS, generator(3), risk_radius=0.3, executor=executor)


def same_sweep(a, b) -> bool:
    """Every number of two sweeps equal: the baseline's risks, each set's points and risks, its pMSE."""
    return (
        np.array_equal(a.baseline.risk, b.baseline.risk)
        and len(a.sets) == len(b.sets) == len(SPECS)
        and all(np.array_equal(s.x, t.x) and np.array_equal(s.y, t.y) for s, t in zip(a.sets, b.sets))
        and all(
            e.spec == f.spec and np.array_equal(e.risk.risk, f.risk.risk) and e.pmse == f.pmse
            for e, f in zip(a.evaluations, b.evaluations)
        )
    )


@pytest.fixture(scope="module")
def serial_sweep(small_fit):
    return run_sweep(small_fit, Serial())


@pytest.fixture(scope="module")
def cluster():
    """A real Dask cluster on this machine: two worker processes (each with its nanny, which restarts a killed
    worker), started and stopped here."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as local:
        yield local


def test_local_processes_sweep_gives_the_serial_results(small_fit, serial_sweep):
    assert same_sweep(serial_sweep, run_sweep(small_fit, LocalProcesses(2)))


def test_dask_sweep_gives_the_serial_results(small_fit, serial_sweep, cluster):
    finished = []
    result = sweep(
        small_fit,
        SPECS,
        generator(3),
        risk_radius=0.3,
        executor=DaskCluster(cluster.scheduler_address),
        on_result=lambda syn, e: finished.append(e.spec),
    )
    assert same_sweep(serial_sweep, result) and sorted(finished, key=SPECS.index) == SPECS


def test_a_worker_killed_mid_sweep_is_retried_or_the_sweep_fails_clearly(small_fit, serial_sweep, cluster, killer):
    (killer.folder / "armed").touch()
    try:
        result = run_sweep(small_fit, DaskCluster(cluster.scheduler_address))
    finally:
        (killer.folder / "armed").unlink()
    assert (killer.folder / "killed").exists()  # a worker died mid-sweep; the scheduler reran its task
    assert same_sweep(serial_sweep, result)  # nothing lost, nothing duplicated
    # no rerun allowed: the scheduler gives the task up, and the sweep fails naming the scheduler
    allowed, cluster.scheduler.allowed_failures = cluster.scheduler.allowed_failures, 0
    (killer.folder / "always").touch()
    try:
        with pytest.raises(ExecutorError, match=f"Dask scheduler at {cluster.scheduler_address} lost"):
            run_sweep(small_fit, DaskCluster(cluster.scheduler_address))
    finally:
        (killer.folder / "always").unlink()
        cluster.scheduler.allowed_failures = allowed


def test_an_unreachable_scheduler_is_a_clear_error(small_fit):
    pytest.importorskip("distributed")
    with pytest.raises(ExecutorError, match="Cannot connect to the Dask scheduler at tcp://127.0.0.1:9"):
        run_sweep(small_fit, DaskCluster("tcp://127.0.0.1:9", connect_timeout=2))


def napping(item, seed):
    time.sleep(4)
    return item


def test_cancel_on_a_cluster_cancels_the_outstanding_tasks(cluster):
    def progress(fraction, message):
        if time.monotonic() - start > 1:
            raise RuntimeError("cancelled")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="cancelled"):
        run_seeded(napping, list(range(6)), generator(1), DaskCluster(cluster.scheduler_address), progress=progress)
    assert time.monotonic() - start < 4  # not even the first task's 4 s
    deadline = time.monotonic() + 10
    while cluster.scheduler.tasks and time.monotonic() < deadline:  # the scheduler forgets cancelled tasks
        time.sleep(0.1)
    assert not cluster.scheduler.tasks
