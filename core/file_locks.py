"""The hidden names staged writes use beside their targets, and the locks that tell a live run from a dead one.

A run stages each output in a folder ``PREFIX + id`` beside its target, with a lock file ``LOCK_PREFIX + id``
beside that, locked while the run lives (:mod:`.files`). Its commit sets the old targets aside as
``PREFIX + "old-" + id + "-" + n`` and lists every move in ``JOURNAL_PREFIX + id + ".json"`` (:mod:`.commit_journal`).
A lock goes when its descriptor is closed or its process ends, however it ends: a lock file that can be locked
belongs to a dead run. :func:`sync_folder` makes renames in a folder durable. No qgis, no Qt.
"""

from __future__ import annotations

import errno
import os
import time

PREFIX = ".spatial_privacy-partial-"
#: Lock files have their own prefix, apart from the files a commit sets aside (``PREFIX + "old-..."``), whatever
#: their names.
LOCK_PREFIX = ".spatial_privacy-lock-"
JOURNAL_PREFIX = ".spatial_privacy-journal-"
#: errors of a lock that another open file holds (EWOULDBLOCK is EAGAIN on Linux; Windows' msvcrt gives EACCES
#: or EDEADLOCK); any other error means the file system cannot lock, and staging goes on without a lock
_HELD = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)}
#: A run writes this into its lock file before it removes its staging folder, so that a lock file it leaves without
#: its folder (killed in between) is known as a dead run's; an empty one without its folder is a starting run's (it
#: creates the lock file, then the folder) unless it is older than ``STARTING_SECONDS``.
_RELEASED = b"released\n"
STARTING_SECONDS = 600.0


class NoLockingError(Exception):
    """The file system offers no locks (some network and FUSE mounts)."""


def try_lock(fd: int) -> bool:
    """Lock the open file ``fd`` exclusively without waiting: ``False`` if another open file holds the lock (in
    this process or another). The lock goes when ``fd`` is closed or its process ends. Raises
    :class:`NoLockingError`."""
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
        raise NoLockingError(str(error)) from None
    return True


def mark_released(fd: int) -> None:
    """Write into the lock file open as ``fd`` that its staging folder is about to be removed."""
    quietly(os.write, fd, _RELEASED)


def released_by_dead_run(lock_path: str) -> bool:
    """A lock file without its staging folder was left by a dead run: marked released, or too old to be starting."""
    try:
        status = os.stat(lock_path)
    except OSError:
        return False
    return status.st_size > 0 or time.time() - status.st_mtime > STARTING_SECONDS


def key(path: str) -> str:
    """``path`` in the form two names of one file compare equal in."""
    return os.path.normcase(os.path.abspath(path))


def quietly(function, *args) -> None:
    """``function(*args)``, ignoring an ``OSError`` (a file already gone, a folder not empty)."""
    try:
        function(*args)
    except OSError:
        pass


def sync_folder(folder: str) -> None:
    """Make the renames in ``folder`` durable (POSIX; Windows cannot open a folder, and NTFS logs renames)."""
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
