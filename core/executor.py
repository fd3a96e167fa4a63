"""Run independent seeded tasks ``fn(item, seed)`` serially, in local worker processes, or on a Dask cluster, with
the same results whichever runs them.

The seed of every task is drawn from the caller's generator *before* any task is dispatched
(:func:`core.mechanisms.child_seeds`, in :func:`run_seeded`), and each task makes its own generator from its
seed; so a task's result does not depend on which worker runs it, when, or in which order the tasks finish, and
the results (returned in the order of the items) are identical to a serial run at the same seed.

Executors: :class:`Serial`; :class:`LocalProcesses` (the default for the Processing algorithms: one process per
core, started with ``spawn`` from a real Python interpreter, since inside QGIS ``sys.executable`` is the QGIS
program); :class:`DaskCluster` (``distributed.Client`` at a scheduler address; optional: ``dask`` and
``distributed`` need not be installed unless one is used). The task and its arguments travel with cloudpickle, so
closures (the covariate functions of a model file) travel too; the workers must be able to import the plugin's
package under the same name. Every task runs with its BLAS on one thread (:func:`call_task`), so that the last bits
of its results do not depend on where it ran; on machines of another kind (another CPU, another BLAS build) they
still may.

Confidential data travel to the workers: a cluster must sit inside the data steward's trusted environment. The
scheduler address is not part of any result: :func:`describe` names the kind of executor only.

Failures: a task that raises makes the whole call raise that error (no partial list is ever returned). A local
worker process that dies (killed, out of memory) takes its pool with it; the unfinished tasks are run again in a
fresh pool up to ``retries`` times, then :class:`ExecutorError`. On a cluster, the scheduler reruns the tasks of a
lost worker itself (Dask's ``distributed.scheduler.allowed-failures``); a task that kills its workers too often,
an unreachable scheduler or lost data is an :class:`ExecutorError` naming the scheduler. ``progress(fraction,
message)`` is called as tasks finish and every fraction of a second while they run; if it raises (Cancel), the
outstanding tasks are cancelled (local worker processes are terminated) and the error propagates.
"""

from __future__ import annotations

import os
import pickle
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .mechanisms import child_seeds
from .progress import Progress, report, scaled

#: How often (seconds) a parallel run checks its tasks and calls ``progress`` (so that Cancel is seen).
POLL = 0.1


class ExecutorError(RuntimeError):
    """The executor could not run the tasks (a worker died too often, no scheduler, no interpreter)."""


@dataclass(frozen=True)
class Serial:
    """Every task in turn in this process."""


@dataclass(frozen=True)
class LocalProcesses:
    """Local worker processes. ``workers``: how many (``None``: the machine's cores); ``python``: the interpreter
    they run (``None``: :func:`python_executable`); ``retries``: how often the unfinished tasks are run again after
    a worker process died."""

    workers: int | None = None
    python: str | None = None
    retries: int = 1


@dataclass(frozen=True)
class DaskCluster:
    """A Dask cluster at a scheduler ``address`` (e.g. ``tcp://10.0.0.5:8786``; never shown in ``repr``)."""

    address: str = field(repr=False)
    connect_timeout: float = 30.0


Executor = Serial | LocalProcesses | DaskCluster


def executor_from(value: Executor | str | None = None, workers: int | None = None) -> Executor:
    """An executor from a plain value: ``None``, ``""`` or ``"serial"``: :class:`Serial`; ``"processes"``:
    :class:`LocalProcesses` (``workers`` of them); any other string: a Dask scheduler's address."""
    if isinstance(value, (Serial, LocalProcesses, DaskCluster)):
        return value
    text = "" if value is None else str(value).strip()
    if text in ("", "serial"):
        return Serial()
    if text in ("processes", "local"):
        return LocalProcesses(workers)
    return DaskCluster(text)


def describe(executor: Executor | str | None) -> str:
    """The kind of executor, for a log or a report; never the scheduler's address."""
    executor = executor_from(executor)
    if isinstance(executor, DaskCluster):
        return "Dask cluster"
    if isinstance(executor, LocalProcesses) and worker_count(executor) > 1:
        return f"local processes ({worker_count(executor)})"
    return "serial"


def worker_count(executor: LocalProcesses, tasks: int | None = None) -> int:
    """The local worker processes to start: ``executor.workers`` or the machine's cores, at most ``tasks``."""
    count = executor.workers if executor.workers else (os.cpu_count() or 1)
    return max(1, min(int(count), tasks)) if tasks is not None else max(1, int(count))


def python_executable(explicit: str | None = None) -> str:
    """A Python interpreter of this very installation for spawned worker processes.

    Inside QGIS ``sys.executable`` is the QGIS program, or whatever ``python3`` the embedded interpreter found on
    the PATH (a pyenv shim, another Python version), so each candidate is asked for its version and prefix and
    taken only if they are this Python's: ``sys.executable``, ``pythonX.Y`` (Windows: ``python.exe``) beside this
    Python's prefixes, ``pythonX.Y`` on the PATH. The answer is kept for the session."""
    if explicit:
        return str(explicit)
    if _PYTHON:
        return _PYTHON[0]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [Path(sys.executable)] if Path(sys.executable).name.lower().startswith("python") else []
    for prefix in dict.fromkeys((sys.exec_prefix, sys.base_exec_prefix, sys.prefix)):
        base = Path(prefix)
        if os.name == "nt":
            candidates += [base / "python.exe", base / "bin" / "python.exe"]
        else:
            candidates += [base / "bin" / version, base / version]
    found = shutil.which(version)
    if found:
        candidates.append(Path(found))
    for candidate in dict.fromkeys(candidates):
        if candidate.is_file() and os.access(candidate, os.X_OK) and _is_this_python(candidate):
            _PYTHON.append(str(candidate))
            return str(candidate)
    raise ExecutorError(
        f"No Python interpreter of this installation ({version}, {sys.base_exec_prefix}) found for local worker "
        "processes."
    )


_PYTHON: list[str] = []  # the interpreter python_executable found


def _is_this_python(candidate: Path) -> bool:
    """Whether ``candidate`` runs this Python (same version, same installation)."""
    import subprocess

    probe = "import sys; print(sys.version_info[:3], sys.base_exec_prefix)"
    try:
        answer = subprocess.run(
            [str(candidate), "-I", "-c", probe], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    want = f"{tuple(sys.version_info[:3])} {sys.base_exec_prefix}"
    return answer.returncode == 0 and answer.stdout.strip() == want


def run_seeded(
    fn: Callable[..., Any],
    items: Iterable[Any],
    rng,
    executor: Executor | str | None = None,
    progress: Progress = None,
    on_result: Callable[[int, Any], None] | None = None,
    describe_item: Callable[[Any], str] | None = None,
    task_progress: bool = False,
) -> list:
    """Draw one seed per item from ``rng`` (:func:`core.mechanisms.child_seeds`), then :func:`run_tasks`."""
    items = list(items)
    return run_tasks(
        fn, items, child_seeds(rng, len(items)), executor, progress, on_result, describe_item, task_progress
    )


def run_tasks(
    fn: Callable[..., Any],
    items: Sequence[Any],
    seeds: Sequence[int],
    executor: Executor | str | None = None,
    progress: Progress = None,
    on_result: Callable[[int, Any], None] | None = None,
    describe_item: Callable[[Any], str] | None = None,
    task_progress: bool = False,
) -> list:
    """``[fn(item, seed) for item, seed in zip(items, seeds)]``, run by ``executor``, in the order of the items.

    ``on_result(index, result)`` is called in this process as each task finishes (in the order they finish).
    ``describe_item(item)`` names a task in the progress messages. With ``task_progress`` a serial run passes
    ``progress=`` (a scaled :data:`Progress`) to ``fn``, so that a long task reports and can be cancelled
    midway; workers of the other executors report as their tasks finish.

    Raises:
        ExecutorError: as described in the module's docstring; any error a task raised, as it was raised.
    """
    items, seeds = list(items), [int(s) for s in seeds]
    if len(items) != len(seeds):
        raise ValueError(f"{len(items)} items but {len(seeds)} seeds")
    if not items:
        return []
    executor = executor_from(executor)
    tasks = _Tasks(items, progress, on_result, describe_item)
    if isinstance(executor, LocalProcesses) and worker_count(executor, len(items)) > 1:
        try:
            python_executable(executor.python)
        except ExecutorError as error:  # the same results in turn, only slower
            report(progress, 0.0, f"{error} The tasks run in turn.")
        else:
            from .executor_pools import run_processes

            return run_processes(fn, tasks, seeds, executor)
    if isinstance(executor, DaskCluster):
        from .executor_pools import run_dask

        return run_dask(fn, tasks, seeds, executor)
    for i, (item, seed) in enumerate(zip(items, seeds)):
        report(progress, i / len(items), tasks.starting(i))
        if task_progress:
            value = call_task(fn, item, seed, progress=scaled(progress, i / len(items), (i + 1) / len(items)))
        else:
            value = call_task(fn, item, seed)
        tasks.finished(i, value)
    return tasks.results()


def call_task(fn: Callable[..., Any], item, seed: int, **kwargs):
    """``fn(item, seed, **kwargs)`` with the BLAS and OpenMP libraries on one thread (threadpoolctl, when installed),
    in every executor. A multi-threaded BLAS may add up in another order, so the last bits of its results depend on
    its thread count, which differs between this process and the workers (Dask's workers start with one thread);
    one thread everywhere makes the results identical. The tasks themselves are the parallelism."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # the results may then differ in their last bits between executors
        return fn(item, seed, **kwargs)
    with threadpool_limits(limits=1):
        return fn(item, seed, **kwargs)


class _Tasks:
    """The bookkeeping of one run: which tasks finished, their results, progress and ``on_result``."""

    def __init__(self, items, progress, on_result, describe_item):
        self.items = items
        self.progress = progress
        self.on_result = on_result
        self.describe_item = describe_item
        self.values: dict[int, Any] = {}
        self.last_poll = 0.0

    @property
    def n(self) -> int:
        return len(self.items)

    def name(self, index: int) -> str:
        if self.describe_item is not None:
            return self.describe_item(self.items[index])
        return f"task {index + 1} of {self.n}"

    def starting(self, index: int) -> str:
        return f"Running {self.name(index)}"

    def unfinished(self) -> list[int]:
        return [i for i in range(self.n) if i not in self.values]

    def finished(self, index: int, value) -> None:
        self.values[index] = value
        report(
            self.progress, len(self.values) / self.n, f"Finished {self.name(index)} ({len(self.values)} of {self.n})"
        )
        if self.on_result is not None:
            self.on_result(index, value)

    def poll(self, where: str) -> None:
        """Call ``progress`` (which may raise to cancel) at most every :data:`POLL` seconds while tasks run."""
        now = time.monotonic()
        if now - self.last_poll >= POLL:
            self.last_poll = now
            report(self.progress, len(self.values) / self.n, f"{len(self.values)} of {self.n} finished ({where})")

    def results(self) -> list:
        missing = self.unfinished()
        if missing:  # never a partial list
            raise ExecutorError(f"{len(missing)} of {self.n} tasks did not finish")
        return [self.values[i] for i in range(self.n)]


def dumps(value) -> bytes:
    """``value`` pickled with cloudpickle (closures and lambdas too), or with pickle if cloudpickle is missing."""
    try:
        import cloudpickle
    except ImportError:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes):
    return pickle.loads(data)
