"""Writing files so that a failure leaves nothing half-written (no qgis, no Qt).

A file (with whatever side files its format adds) is written under its own name into a hidden folder beside
its target and moved onto the target when complete: :func:`replaced_when_done` for one file. Inside
:func:`staged_writes` every such move (and every folder from :meth:`StagedWrites.folder_beside`) waits until
the whole run has succeeded, and then all of them are made together: the files at the targets are first set
aside, then the new ones moved in, and if any move fails the set-aside files are put back. A failure before
that removes what was staged and leaves the targets alone.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
import traceback
from contextlib import contextmanager
from contextvars import ContextVar

#: Files SQLite keeps beside a database while it is open: a staged GeoPackage that still has one was not closed.
_OPEN_MARKERS = ("-journal", "-wal", "-shm")
_PREFIX = ".spatial_privacy-partial-"
#: Each staging folder ``_PREFIX + id`` has a lock file ``_LOCK_PREFIX + id`` beside it, locked while its run
#: lives: a run killed outright (SIGTERM, a crash) leaves both, and the next run writing to that folder removes
#: them (they may hold confidential outputs). Its own prefix keeps the lock files apart from the files a commit
#: sets aside (``_PREFIX + "old-..."``), whatever their names.
_LOCK_PREFIX = ".spatial_privacy-lock-"
#: errors of a lock that another open file holds (EWOULDBLOCK is EAGAIN on Linux; Windows' msvcrt gives EACCES
#: or EDEADLOCK); any other error means the file system cannot lock, and staging goes on without a lock
_HELD = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)}


class _NoLockingError(Exception):
    """The file system offers no locks (some network and FUSE mounts)."""


def _try_lock(fd: int) -> bool:
    """Lock the open file ``fd`` exclusively without waiting: ``False`` if another open file holds the lock.
    The lock goes when ``fd`` is closed or its process ends, however it ends. Raises :class:`_NoLockingError`."""
    try:
        if os.name == "nt":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in _HELD:
            return False
        raise _NoLockingError(str(error)) from None
    return True


def remove_abandoned(folder: str) -> int:
    """Remove the staging folders in ``folder`` whose run is gone (their lock file can be locked), then their
    lock files; returns how many folders went. Folders of live runs, in this process or another, are left alone;
    so is a lock file whose folder does not exist yet (its run is between creating the two)."""
    removed = 0
    try:
        names = [n for n in os.listdir(folder) if n.startswith(_LOCK_PREFIX)]
    except OSError:
        return 0
    for name in names:
        lock_path = os.path.join(folder, name)
        staged = os.path.join(folder, _PREFIX + name[len(_LOCK_PREFIX) :])
        if not os.path.isdir(staged):
            continue
        try:
            fd = os.open(lock_path, os.O_RDWR)
        except OSError:  # removed meanwhile by another run
            continue
        try:
            if not _try_lock(fd):
                continue
            shutil.rmtree(staged, ignore_errors=True)
            if not os.path.lexists(staged):  # a folder that could not go keeps its lock file, for a later run
                _quietly(os.remove, lock_path)
                removed += 1
        except _NoLockingError:
            continue
        finally:
            os.close(fd)
    return removed


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


class StagedWrites:
    """The files one run has written beside their targets, moved onto them together by :meth:`commit`."""

    def __init__(self) -> None:
        self._folders: list[tuple[str, str, tuple[str, ...]]] = []  # (staging folder, target folder, stale files)
        self._locks: dict[str, tuple[int, str]] = {}  # staging folder -> (descriptor holding its lock, lock file)
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
        # the lock file first, locked, then the folder: remove_abandoned skips a lock file without its folder
        fd, lock_path = tempfile.mkstemp(prefix=_LOCK_PREFIX, dir=target_folder)
        folder = os.path.join(target_folder, _PREFIX + os.path.basename(lock_path)[len(_LOCK_PREFIX) :])
        try:
            try:
                if not _try_lock(fd):  # a fresh file nobody else has opened
                    raise OSError(f"{lock_path}: could not be locked")
            except _NoLockingError:
                pass  # no locks here: a killed run's folder then stays, as before locks were used
            os.mkdir(folder, 0o700)
        except OSError:
            os.close(fd)
            _quietly(os.remove, lock_path)
            raise
        self._locks[folder] = (fd, lock_path)
        self._folders.append((folder, target_folder, stale))
        return folder

    def _release(self, folder: str) -> None:
        """Remove ``folder``, then its lock file (kept, with the lock released, if the folder could not go)."""
        shutil.rmtree(folder, ignore_errors=True)
        fd, lock_path = self._locks.pop(folder, (None, None))
        if fd is not None:
            _quietly(os.close, fd)
            if not os.path.lexists(folder):
                _quietly(os.remove, lock_path)

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
