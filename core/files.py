"""Writing files so that a failure leaves nothing half-written (no qgis, no Qt).

A file (with whatever side files its format adds) is written under its own name into a hidden folder beside
its target and moved onto the target when complete: :func:`replaced_when_done` for one file. Inside
:func:`staged_writes` every such move (and every folder from :meth:`StagedWrites.folder_beside`) waits until
the whole run has succeeded, and then all of them are made together: the files at the targets are first set
aside, then the new ones moved in, and if any move fails the set-aside files are put back. A failure before
that removes what was staged and leaves the targets alone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import traceback
from contextlib import contextmanager
from contextvars import ContextVar

#: Files SQLite keeps beside a database while it is open: a staged GeoPackage that still has one was not closed.
_OPEN_MARKERS = ("-journal", "-wal", "-shm")
_PREFIX = ".spatial_privacy-partial-"
#: Each staging folder has a lock file of its name plus this beside it, locked while its run lives: a run killed
#: outright (SIGTERM, a crash) leaves both, and the next run writing to that folder removes them (they may hold
#: confidential outputs).
_LOCK = ".lock"


def _lock(path: str, fd: int | None = None) -> int | None:
    """``path`` opened (or ``fd``) and locked exclusively without waiting; ``None`` if another open holds it.
    The lock goes when its descriptor is closed or its process ends, however it ends."""
    fd = os.open(path, os.O_RDWR) if fd is None else fd
    try:
        if os.name == "nt":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def remove_abandoned(folder: str) -> int:
    """Remove the staging folders in ``folder`` whose run is gone (their lock file can be locked), with their
    lock files; returns how many. Folders of live runs, in this process or another, are left alone."""
    removed = 0
    try:
        names = [n for n in os.listdir(folder) if n.startswith(_PREFIX) and n.endswith(_LOCK)]
    except OSError:
        return 0
    for name in names:
        lock_path = os.path.join(folder, name)
        try:
            fd = _lock(lock_path)
        except OSError:  # removed meanwhile by another run
            continue
        if fd is None:
            continue
        shutil.rmtree(lock_path[: -len(_LOCK)], ignore_errors=True)
        os.close(fd)
        _quietly(os.remove, lock_path)
        removed += 1
    return removed


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


class StagedWrites:
    """The files one run has written beside their targets, moved onto them together by :meth:`commit`."""

    def __init__(self) -> None:
        self._folders: list[tuple[str, str, tuple[str, ...]]] = []  # (staging folder, target folder, stale files)
        self._locks: dict[str, int] = {}  # staging folder -> the descriptor holding its lock file
        #: outputs written in place (they cannot be staged), as (parameter, destination)
        self.in_place: list[tuple[str, str]] = []
        self._made: list[str] = []  # folders this run created for its targets, outermost first
        #: called on commit, once every staged file is closed and before any is moved (e.g. to label a staged
        #: file); each raises ``OSError`` on failure, which fails the commit
        self.before_moving: list = []
        #: called, as far as they can be, when the run fails: what must happen to outputs written in place even
        #: then (they stay; e.g. label a confidential one); an ``OSError`` here does not hide the run's error
        self.on_failure: list = []

    def make_folders(self, folder: str) -> None:
        """Create ``folder`` and its missing parents, remembered so that a failed run removes them again."""
        missing = []
        folder = os.path.abspath(folder)
        while not os.path.isdir(folder):
            missing.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        os.makedirs(missing[0] if missing else folder, exist_ok=True)
        self._made += reversed(missing)

    def remove_made_folders(self) -> None:
        """Remove the folders :meth:`make_folders` created, innermost first, as far as they are still empty."""
        for folder in reversed(self._made):
            _quietly(os.rmdir, folder)
        self._made = []

    def folder_beside(self, target_folder: str, stale: tuple[str, ...] = ()) -> str:
        """A new hidden folder in ``target_folder``: a writer writes there under the target's own name (a
        GeoPackage names its layer after its file; a format's side files follow that name), and every file
        found in it moves into ``target_folder`` on commit. ``stale`` are target files to remove then if the
        new write did not make them (a Shapefile's old spatial index, a raster's old ``.aux.xml``). Staging
        folders that killed runs left in ``target_folder`` are removed first (:func:`remove_abandoned`)."""
        remove_abandoned(target_folder)
        fd, lock_path = tempfile.mkstemp(prefix=_PREFIX, suffix=_LOCK, dir=target_folder)
        folder = lock_path[: -len(_LOCK)]
        try:
            if _lock(lock_path, fd) is None:
                raise OSError(f"{lock_path}: could not be locked")
            os.mkdir(folder, 0o700)
        except OSError:
            _quietly(os.close, fd)
            _quietly(os.remove, lock_path)
            raise
        self._locks[folder] = fd
        self._folders.append((folder, target_folder, stale))
        return folder

    def _release(self, folder: str) -> None:
        """Remove ``folder`` and then its lock file."""
        shutil.rmtree(folder, ignore_errors=True)
        fd = self._locks.pop(folder, None)
        if fd is not None:
            _quietly(os.close, fd)
            _quietly(os.remove, folder + _LOCK)

    def commit(self) -> None:
        """Move every staged file onto its target, all or none: raises ``OSError`` naming the file (and leaves
        the targets as they were) if a staged file is still open or a target cannot be replaced."""
        for folder, target_folder, _ in self._folders:
            still_open = [name for name in sorted(os.listdir(folder)) if name.endswith(_OPEN_MARKERS)]
            if still_open:
                self.discard()
                raise OSError(f"{os.path.join(target_folder, still_open[0])} was still open when the run ended")
        try:
            for finish in self.before_moving:
                finish()
        except OSError:
            self.discard()
            raise
        moves = []
        for folder, target_folder, _ in self._folders:
            names = sorted(os.listdir(folder))
            moves += [(os.path.join(folder, name), os.path.join(target_folder, name)) for name in names]
        incoming = {_key(target) for _, target in moves}
        stale = [p for _, _, files in self._folders for p in files if os.path.lexists(p) and _key(p) not in incoming]
        # set aside every file about to be replaced or removed (on Windows a file open elsewhere fails here,
        # before anything has changed), then move the new ones in; on any failure undo both
        aside: list[tuple[str, str]] = []
        moved: list[str] = []
        try:
            for path in [target for _, target in moves if os.path.lexists(target)] + stale:
                backup = os.path.join(os.path.dirname(path), f"{_PREFIX}old-{len(aside)}-{os.path.basename(path)}")
                os.replace(path, backup)
                aside.append((backup, path))
            for staged, target in moves:
                os.replace(staged, target)
                moved.append(target)
        except OSError as error:
            for target in moved:
                _quietly(os.remove, target)
            for backup, path in aside:
                _quietly(os.replace, backup, path)
            self.discard()
            raise OSError(error.errno, f"{error.strerror or error} ({error.filename or ''})") from None
        for backup, _ in aside:
            _quietly(os.remove, backup)
        self.discard()

    def drop(self, folder: str) -> None:
        """Remove the staged ``folder`` now: its write failed and will not be used."""
        self._folders = [entry for entry in self._folders if entry[0] != folder]
        self._release(folder)

    def discard(self) -> None:
        """Remove every staged file and folder (targets are left as they are), as far as possible."""
        for folder, _, _ in self._folders:
            self._release(folder)
        self._folders = []


def _quietly(function, *args) -> None:
    try:
        function(*args)
    except OSError:
        pass


_active: ContextVar[StagedWrites | None] = ContextVar("spatial_privacy_staged_writes", default=None)


def active_staging() -> StagedWrites | None:
    """The :class:`StagedWrites` of the run in progress in this thread, or ``None``."""
    return _active.get()


@contextmanager
def staged_writes():
    """Within the block, :func:`replaced_when_done` and writers using :meth:`StagedWrites.folder_beside` leave
    their targets alone; the block's normal end moves every staged file onto its target, an exception removes
    them all (and the folders the run created for its targets with :meth:`StagedWrites.make_folders`)."""
    writes = StagedWrites()
    token = _active.set(writes)
    try:
        yield writes
    except BaseException as error:
        # the failed frames still hold the open writers (a layer sink closes when it is deleted): let them go
        # before their files are removed
        traceback.clear_frames(error.__traceback__)
        writes.discard()
        writes.remove_made_folders()
        for finish in writes.on_failure:
            try:
                finish()
            except OSError:
                pass
        raise
    finally:
        _active.reset(token)
    try:
        writes.commit()
    except OSError:
        writes.remove_made_folders()
        raise


@contextmanager
def replaced_when_done(path: str, stale: tuple[str, ...] = ()):
    """A path with the target's own name in a hidden folder beside ``path`` (so format-by-extension writers,
    and the side files a format adds under the same name, still work). Every file written there is moved next
    to ``path`` when the block ends without error (or, inside :func:`staged_writes`, when the run does), and
    removed otherwise: a failed write (a full disk) neither leaves a truncated file nor destroys the file that
    was there. ``stale`` are files beside the target to remove if the new write did not make them."""
    folder = os.path.dirname(os.path.abspath(path))
    staging = _active.get()
    writes = staging if staging is not None else StagedWrites()
    partial = os.path.join(writes.folder_beside(folder, stale), os.path.basename(path))
    try:
        yield partial
    except BaseException:
        writes.drop(os.path.dirname(partial))
        raise
    if staging is None:
        writes.commit()
