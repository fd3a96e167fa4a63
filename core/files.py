"""Writing files so that a failure, or a crash, leaves nothing half-written (no qgis, no Qt).

A file (with whatever side files its format adds) is written under its own name into a hidden folder beside
its target and moved onto the target when complete: :func:`replaced_when_done` for one file. Inside
:func:`staged_writes` every such move (and every folder from :meth:`StagedWrites.folder_beside`) waits until
the whole run has succeeded, and then all of them are made together: the files at the targets are first set
aside, then the new ones moved in, and if any move fails the set-aside files are put back. A failure before
that removes what was staged and leaves the targets alone. A journal written before the first move lets the
next run in the folder finish or undo a commit whose process was killed (:mod:`.commit_journal`,
:func:`recover`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import traceback
from contextlib import contextmanager
from contextvars import ContextVar

from . import commit_journal
from .commit_journal import Journal, Move
from .file_locks import (
    LOCK_PREFIX,
    PREFIX,
    NoLockingError,
    key,
    mark_released,
    quietly,
    released_by_dead_run,
    try_lock,
)

#: Files SQLite keeps beside a database while it is open: a staged GeoPackage that still has one was not closed.
_OPEN_MARKERS = ("-journal", "-wal", "-shm")
# Each staging folder ``PREFIX + id`` has a lock file ``LOCK_PREFIX + id`` beside it, locked while its run lives: a
# run killed outright (SIGTERM, a crash) leaves both, and the next run writing to that folder removes them (they may
# hold confidential outputs), unless a journal lists the folder (its commit is finished or undone first).


def remove_abandoned(folder: str) -> int:
    """Remove the staging folders in ``folder`` whose run is gone (their lock file can be locked), then their
    lock files; returns how many folders went. Folders of live runs, in this process or another, are left alone;
    so is a folder that a commit journal lists (:func:`recover` resolves it) and a lock file whose folder does not
    exist yet (its run is between creating the two; one whose run died removing its folder goes)."""
    removed = 0
    try:
        names = [n for n in os.listdir(folder) if n.startswith(LOCK_PREFIX)]
    except OSError:
        return 0
    pending = commit_journal.pending_staging(folder) if names else set()
    for name in names:
        lock_path = os.path.join(folder, name)
        staged = os.path.join(folder, PREFIX + name[len(LOCK_PREFIX) :])
        has_folder = os.path.isdir(staged)
        if (has_folder and key(staged) in pending) or (not has_folder and not released_by_dead_run(lock_path)):
            continue
        try:  # never through a link planted under the lock file's name: the lock file is written to
            fd = os.open(lock_path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
        except OSError:  # removed meanwhile by another run, or a link
            continue
        try:
            if not try_lock(fd):
                continue
            if not has_folder:
                quietly(os.remove, lock_path)
                continue
            mark_released(fd)
            shutil.rmtree(staged, ignore_errors=True)
            if not os.path.lexists(staged):  # a folder that could not go keeps its lock file, for a later run
                quietly(os.remove, lock_path)
                removed += 1
        except NoLockingError:
            continue
        finally:
            os.close(fd)
    return removed


def recover(folder: str) -> list[str]:
    """Clean up after the runs that died writing to ``folder``: finish or undo the commits they left half done
    (the targets end all new or all old), then remove their staging folders. Returns one message per commit
    resolved (also logged with :mod:`logging`). Live runs' files are never touched. Every run that stages into
    ``folder`` calls this first; the plugin may call it at start for the folders it knows."""
    messages = commit_journal.recover(folder)
    remove_abandoned(folder)
    return messages


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
        #: what :func:`recover` did while this run staged: commits of dead runs finished or undone (a message each)
        self.recovered: list[str] = []

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
            quietly(os.rmdir, folder)
        self._made = []

    def folder_beside(self, target_folder: str, stale: tuple[str, ...] = ()) -> str:
        """A new hidden folder in ``target_folder``: a writer writes there under the target's own name (a
        GeoPackage names its layer after its file; a format's side files follow that name), and every file
        found in it moves into ``target_folder`` on commit. ``stale`` are target files to remove then if the
        new write did not make them (a Shapefile's old spatial index, a raster's old ``.aux.xml``). What killed
        runs left in ``target_folder`` is cleaned up first (:func:`recover`)."""
        self.recovered += recover(target_folder)
        # the lock file first, locked, then the folder: remove_abandoned skips a lock file without its folder
        try:
            fd, lock_path = tempfile.mkstemp(prefix=LOCK_PREFIX, dir=target_folder)
        except OSError as error:  # the hidden lock file's name means nothing to the user; the folder does
            raise OSError(error.errno, error.strerror, target_folder) from None
        folder = os.path.join(target_folder, PREFIX + os.path.basename(lock_path)[len(LOCK_PREFIX) :])
        try:
            try:
                if not try_lock(fd):  # a fresh file nobody else has opened
                    raise OSError(f"{lock_path}: could not be locked")
            except NoLockingError:
                pass  # no locks here: a killed run's folder then stays, as before locks were used
            os.mkdir(folder, 0o700)
        except OSError as error:
            os.close(fd)
            quietly(os.remove, lock_path)
            raise OSError(error.errno, error.strerror, target_folder) from None
        self._locks[folder] = (fd, lock_path)
        self._folders.append((folder, target_folder, stale))
        return folder

    def _release(self, folder: str) -> None:
        """Remove ``folder``, then its lock file (kept, with the lock released, if the folder could not go)."""
        fd, lock_path = self._locks.pop(folder, (None, None))
        if fd is not None:
            mark_released(fd)
        shutil.rmtree(folder, ignore_errors=True)
        if fd is not None:
            quietly(os.close, fd)
            if not os.path.lexists(folder):
                quietly(os.remove, lock_path)

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
        incoming = {key(target) for _, target in moves}
        stale = [p for _, _, files in self._folders for p in files if os.path.lexists(p) and key(p) not in incoming]
        if not moves and not stale:
            self.discard()
            return
        if len(moves) == 1 and not stale:  # one rename replaces the target at once: nothing to set aside or journal
            try:
                os.replace(*moves[0])
            except OSError as error:
                self.discard()
                raise _naming_targets(error, {moves[0][0]: moves[0][1]}) from None
            self.discard()
            return
        try:
            self._commit_journaled(moves, stale)
        finally:
            self.discard()

    def _commit_journaled(self, moves: list[tuple[str, str]], stale: list[str]) -> None:
        """Set aside every file about to be replaced or removed, then move the new ones in, after writing a journal
        of it all (:mod:`.commit_journal`): a failure puts the old files back; a kill leaves the journal, with which
        the next run in one of these folders finishes or undoes the commit."""
        run_id = os.path.basename(self._folders[0][0])[len(PREFIX) :]
        plan = [*moves, *((None, path) for path in stale)]
        journal = Journal([], [], [folder for folder, _, _ in self._folders])
        for number, (staged, target) in enumerate(plan):
            aside = commit_journal.aside_path(target, run_id, number) if os.path.lexists(target) else None
            journal.moves.append(Move(staged, target, aside))
        for folder, target_folder, _ in self._folders:
            copy = commit_journal.journal_path(target_folder, run_id)
            if key(copy) not in map(key, journal.copies):
                journal.copies.append(copy)
                journal.temp[copy] = os.path.join(folder, os.path.basename(copy) + ".tmp")
        hidden = {m.staged: m.target for m in journal.moves if m.staged is not None}
        hidden.update({m.aside: m.target for m in journal.moves if m.aside is not None})
        try:
            commit_journal.write(journal)
        except OSError as error:
            raise _naming_targets(
                error, {**hidden, **{t: os.path.dirname(c) for c, t in journal.temp.items()}}
            ) from None
        try:
            commit_journal.apply(journal)
        except OSError as error:
            try:
                commit_journal.roll_back(journal)
            except OSError:
                self._abandon()  # the journal and what it lists stay: the next run in these folders undoes it
                raise _naming_targets(error, hidden) from None
            commit_journal.remove_copies(journal)
            raise _naming_targets(error, hidden) from None
        if not commit_journal.remove_set_aside(journal):
            self._abandon()  # the next run in these folders removes the old files left
            return
        commit_journal.remove_copies(journal)

    def _abandon(self) -> None:
        """Release the locks and forget the staging folders, leaving them (and their lock files) to :func:`recover`."""
        for fd, _ in self._locks.values():
            quietly(os.close, fd)
        self._locks = {}
        self._folders = []

    def drop(self, folder: str) -> None:
        """Remove the staged ``folder`` now: its write failed and will not be used."""
        self._folders = [entry for entry in self._folders if entry[0] != folder]
        self._release(folder)

    def discard(self) -> None:
        """Remove every staged file and folder (targets are left as they are), as far as possible."""
        for folder, _, _ in self._folders:
            self._release(folder)
        self._folders = []


def visible_path(path: str) -> str:
    """The user's path for a hidden one of this module: a file staged in ``<folder>/.spatial_privacy-partial-<id>/``
    is its target ``<folder>/<name>``; a staging folder or lock file is the folder it sits in. Other paths are
    returned as they are."""
    folder, name = os.path.split(path)
    if os.path.basename(folder).startswith(PREFIX):
        return os.path.join(os.path.dirname(folder), name)
    if name.startswith((PREFIX, LOCK_PREFIX)):
        return folder
    return path


def _naming_targets(error: OSError, hidden: dict[str, str]) -> OSError:
    """``error`` naming the user's file where it named a hidden staged or set-aside one."""
    name = hidden.get(error.filename, error.filename)
    return OSError(error.errno, f"{error.strerror or error} ({name or ''})")


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
