"""The parallel executors of :mod:`core.executor`: local worker processes and a Dask cluster.

Both get the task function once per worker (pickled with cloudpickle where it is installed) and one small
message per task (the item and its seed); both return results in the order of the items or raise, never a
partial list.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.spawn
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from .executor import (
    DaskCluster,
    ExecutorError,
    LocalProcesses,
    _Tasks,
    call_task,
    dumps,
    loads,
    python_executable,
    worker_count,
)

#: The task function of this worker process (set once by :func:`_init_worker`).
_WORKER_FN = None

#: The importable name of the plugin's package (``spatial_privacy`` once installed).
PACKAGE = __name__.rpartition(".core.")[0]


def _init_worker(payload: bytes) -> None:
    global _WORKER_FN
    _WORKER_FN = loads(payload)


def _call(item: bytes, seed: int) -> bytes:
    return dumps(call_task(_WORKER_FN, loads(item), seed))


def _spawn_context(executor: LocalProcesses):
    """A ``spawn`` context (a fresh interpreter: no forked threads or Qt state) that starts a real Python.

    ``set_executable`` is process-wide in :mod:`multiprocessing`; it is changed only when ``sys.executable`` is
    not a Python interpreter (inside QGIS), where ``spawn`` could not work at all without it. The children get
    this process's ``sys.path`` from ``spawn``, so they import the plugin's package as it is imported here."""
    context = multiprocessing.get_context("spawn")
    python = python_executable(executor.python)
    if python != sys.executable and multiprocessing.spawn.get_executable() != python:
        context.set_executable(python)
    return context


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the worker processes now (a Cancel must not wait for running tasks)."""
    pool.shutdown(wait=False, cancel_futures=True)
    terminate = getattr(pool, "terminate_workers", None)  # Python >= 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)


def run_processes(fn, tasks: _Tasks, seeds, executor: LocalProcesses) -> list:
    """Run the tasks in local worker processes; after a worker died, the unfinished ones again in a fresh pool
    (at most ``executor.retries`` times)."""
    try:
        payload = dumps(fn)
    except Exception as error:  # plain pickle without cloudpickle cannot take a closure
        raise ExecutorError(
            f"The task cannot be sent to worker processes ({error}); install cloudpickle (it comes with dask) or run "
            "the tasks serially."
        ) from error
    context = _spawn_context(executor)
    retries = max(0, int(executor.retries))
    while True:
        pending = tasks.unfinished()
        pool = ProcessPoolExecutor(
            worker_count(executor, len(pending)), mp_context=context, initializer=_init_worker, initargs=(payload,)
        )
        try:
            futures = {pool.submit(_call, dumps(tasks.items[i]), seeds[i]): i for i in pending}
            while futures:
                done, _ = wait(futures, timeout=0.1, return_when=FIRST_COMPLETED)
                for future in done:
                    index = futures.pop(future)
                    tasks.finished(index, loads(future.result()))
                tasks.poll("local processes")
        except BrokenProcessPool as error:
            _stop(pool)
            if retries == 0:
                raise ExecutorError(
                    f"A local worker process died (killed, or out of memory) while running tasks, and the "
                    f"{len(tasks.unfinished())} unfinished of {tasks.n} tasks were not completed after "
                    f"{executor.retries} retries; nothing was returned."
                ) from error
            retries -= 1
            continue
        except BaseException:
            _stop(pool)
            raise
        pool.shutdown(wait=True)
        return tasks.results()


def _is_lost_work(error: BaseException, distributed) -> bool:
    """An error of the cluster (a worker killed too often, lost data, a closed connection), not of the task."""
    from concurrent.futures import CancelledError

    kinds = (distributed.KilledWorker, CancelledError, OSError, TimeoutError)
    comm = getattr(getattr(distributed, "comm", None), "CommClosedError", None)
    return isinstance(error, kinds + ((comm,) if comm is not None else ()))


def run_dask(fn, tasks: _Tasks, seeds, executor: DaskCluster) -> list:
    """Run the tasks on the Dask cluster at ``executor.address``; the scheduler reruns a lost worker's tasks."""
    try:
        import distributed
    except ImportError as error:
        from .dependencies import DASK, install_message, missing

        raise ExecutorError(
            "A Dask scheduler address is set, but Dask is not installed.\n" + install_message(missing(DASK) or DASK)
        ) from error
    where = f"the Dask scheduler at {executor.address}"
    try:
        client = distributed.Client(executor.address, timeout=executor.connect_timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ExecutorError(f"Cannot connect to {where}: {error}") from error
    futures = []
    try:
        try:
            # once to every worker, not once per task; hash=False: a fresh key, never data of another run
            (shared,) = client.scatter([_Payload(dumps(fn))], broadcast=True, hash=False)
        except (OSError, TimeoutError) as error:
            raise ExecutorError(f"Cannot send the task to the workers of {where}: {error}") from error
        futures = [
            client.submit(_call_dask, shared, dumps(tasks.items[i]), int(seeds[i]), pure=False) for i in range(tasks.n)
        ]
        waiting = dict(enumerate(futures))
        while waiting:
            for index, future in list(waiting.items()):
                if future.status == "pending":
                    continue
                del waiting[index]
                try:
                    value = future.result()
                except Exception as error:
                    if _is_lost_work(error, distributed):
                        raise ExecutorError(
                            f"{where} lost {tasks.name(index)} ({type(error).__name__}: {error}): a worker died "
                            "while running it more often than the scheduler allows (out of memory?), or the "
                            "cluster went away; nothing was returned."
                        ) from error
                    if isinstance(error, ModuleNotFoundError) and PACKAGE and PACKAGE in str(error):
                        raise ExecutorError(
                            f"The workers of {where} cannot import the plugin's package '{PACKAGE}': start them with "
                            "its parent folder on PYTHONPATH."
                        ) from error
                    raise
                tasks.finished(index, loads(value))
            if waiting:
                tasks.poll("Dask cluster")
                time.sleep(0.05)
        return tasks.results()
    except BaseException:
        if futures:
            try:
                client.cancel(futures)
            except Exception:  # noqa: BLE001 - the connection may be gone already; the error that got us here wins
                pass
        raise
    finally:
        client.close()


class _Payload:
    """The pickled task function, scattered once to every worker and unpickled there once."""

    def __init__(self, data: bytes):
        self.data = data
        self._fn = None

    def __getstate__(self):
        return {"data": self.data}

    def __setstate__(self, state):
        self.data, self._fn = state["data"], None

    def function(self):
        if self._fn is None:
            self._fn = loads(self.data)
        return self._fn


def _call_dask(payload: _Payload, item: bytes, seed: int) -> bytes:
    return dumps(call_task(payload.function(), loads(item), seed))
