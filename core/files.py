"""Writing files so that a failure leaves nothing half-written (no qgis, no Qt).

One file: :func:`replaced_when_done` writes it beside its target and moves it onto the target when complete.
Several files of one run: inside :func:`staged_writes`, every such move (and every folder of staged files from
:meth:`StagedWrites.folder_beside`) waits until the whole run has succeeded; if anything fails, none of the
targets is touched and the staged files are removed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from contextvars import ContextVar

#: Files SQLite keeps beside a database while it is open: a staged GeoPackage that still has one was not closed.
_OPEN_MARKERS = ("-journal", "-wal", "-shm")


class StagedWrites:
    """The files one run has written beside their targets, moved onto them together by :meth:`commit`."""

    def __init__(self) -> None:
        self._moves: list[tuple[str, str]] = []  # (staged file, target)
        self._folders: list[tuple[str, str, tuple[str, ...]]] = []  # (staging folder, target folder, stale files)
        #: staged name -> final name of what a writer reported (a sink's destination), for the run's results
        self.renamed: dict[str, str] = {}
        self._done = False

    def move_later(self, staged: str, target: str) -> None:
        if (staged, target) not in self._moves:  # the same file written twice in one run moves once
            self._moves.append((staged, target))

    def folder_beside(self, target_folder: str, stale: tuple[str, ...] = ()) -> str:
        """A new hidden folder in ``target_folder``: a writer that names its file after the target (a GeoPackage
        names its layer after the file) writes there under the target's own name, and every file found in it
        moves into ``target_folder`` on commit. ``stale`` are target files to remove then (a Shapefile's old
        spatial index, which the new write did not make)."""
        folder = tempfile.mkdtemp(prefix=".spatial_privacy-partial-", dir=target_folder)
        self._folders.append((folder, target_folder, stale))
        return folder

    def commit(self) -> None:
        """Move every staged file onto its target. Raises ``OSError`` (and removes what is left) if a staged file
        is still open or cannot be moved."""
        moves = list(self._moves)
        for folder, target_folder, _ in self._folders:
            names = sorted(os.listdir(folder))
            still_open = [name for name in names if name.endswith(_OPEN_MARKERS)]
            if still_open:
                self.discard()
                raise OSError(f"{os.path.join(target_folder, still_open[0])} was still open when the run ended")
            moves += [(os.path.join(folder, name), os.path.join(target_folder, name)) for name in names]
        try:
            for _, _, stale in self._folders:
                for path in stale:
                    if os.path.lexists(path) and path not in {target for _, target in moves}:
                        os.remove(path)
            for staged, target in moves:
                os.replace(staged, target)
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove every staged file and folder (targets are left as they are)."""
        self._done = True
        for staged, _ in self._moves:
            if os.path.exists(staged):
                os.remove(staged)
        for folder, _, _ in self._folders:
            shutil.rmtree(folder, ignore_errors=True)
        self._moves, self._folders = [], []


_active: ContextVar[StagedWrites | None] = ContextVar("spatial_privacy_staged_writes", default=None)


def active_staging() -> StagedWrites | None:
    """The :class:`StagedWrites` of the run in progress in this thread, or ``None``."""
    return _active.get()


@contextmanager
def staged_writes():
    """Within the block, :func:`replaced_when_done` and writers using :meth:`StagedWrites.folder_beside` leave
    their targets alone; the block's normal end moves every staged file onto its target, an exception removes
    them all."""
    writes = StagedWrites()
    token = _active.set(writes)
    try:
        yield writes
    except BaseException:
        writes.discard()
        raise
    finally:
        _active.reset(token)
    writes.commit()


@contextmanager
def replaced_when_done(path: str, sidecars: tuple[str, ...] = ()):
    """A temporary path beside ``path`` (same extension, so format-by-extension writers still work) that is
    moved onto ``path`` when the block ends without error (or, inside :func:`staged_writes`, when the run does)
    and removed otherwise: a failed write (a full disk) neither leaves a truncated file nor destroys the file
    that was there. ``sidecars`` are suffixes of files the writer may add beside it (GDAL's ``.aux.xml``), which
    follow it."""
    folder, name = os.path.split(os.path.abspath(path))
    stem, ext = os.path.splitext(name)
    partial = os.path.join(folder, f".{stem}.partial-{os.getpid()}{ext}")
    pairs = [(partial, path), *((partial + suffix, path + suffix) for suffix in sidecars)]
    try:
        yield partial
    except BaseException:
        for staged, _ in pairs:
            if os.path.exists(staged):
                os.remove(staged)
        raise
    staging = _active.get()
    for staged, target in pairs:
        if not os.path.exists(staged):
            continue
        if staging is None:
            os.replace(staged, target)
        else:
            staging.move_later(staged, target)
