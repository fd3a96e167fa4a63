"""The journal that keeps the commit of staged writes all-or-nothing when the process is killed during it.

A run's outputs are staged beside their targets and committed by moves (:mod:`.files`): every file at a target
is first set aside, then each new file is moved onto its target. Before the first move the commit writes a
journal listing every move, fsync'd and renamed into place, into every folder the run writes to. The copy in the
first of these folders, the *primary*, is written last and removed first: it exists exactly while the moves may
be half done. A process killed during the moves leaves the journal, its staged files and the set-aside old
files. The next run that stages into one of those folders (or the plugin at start, :func:`.files.recover`) finds
the journal and, once it holds the dead run's lock,

* rolls the commit forward when every new file is still there (staged, or already at its target): each staged
  file is moved onto its target, stale files are removed and the set-aside old files deleted;
* rolls it back otherwise, or when the run had begun to undo it: each set-aside file is put back.

Either way the targets end all new or all old, as a set, and the journal, staged and set-aside files go. Every
step can be repeated after another kill. A journal whose run still holds its lock is never touched. No qgis, no
Qt.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import dataclass, field
from typing import Optional

from .file_locks import (
    JOURNAL_PREFIX,
    LOCK_PREFIX,
    PREFIX,
    NoLockingError,
    key,
    mark_released,
    quietly,
    sync_folder,
    try_lock,
)

_SUFFIX = ".json"
_FORMAT = 1
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Move:
    """One target of a commit: ``staged`` is moved onto ``target`` (``None``: the target, a stale side file, is
    removed), and the file at ``target`` is first set aside as ``aside`` (``None``: there was none)."""

    staged: Optional[str]
    target: str
    aside: Optional[str]


@dataclass
class Journal:
    """Every move of one commit, where the journal's copies are, and the run's staging folders (the first one's
    lock file, in the primary copy's folder, tells whether the run lives)."""

    moves: list[Move]
    copies: list[str]  # the primary first
    staging: list[str]
    rolling_back: bool = False
    temp: dict[str, str] = field(default_factory=dict, compare=False)  # copy -> where it is written first

    @property
    def primary(self) -> str:
        return self.copies[0]


def journal_path(folder: str, run_id: str) -> str:
    return os.path.join(folder, f"{JOURNAL_PREFIX}{run_id}{_SUFFIX}")


def aside_path(target: str, run_id: str, number: int) -> str:
    """Where a commit sets the old ``target`` aside: a short name (a long target name would not fit a prefix)."""
    return os.path.join(os.path.dirname(target), f"{PREFIX}old-{run_id}-{number}")


def lock_path(staging_folder: str) -> str:
    return os.path.join(os.path.dirname(staging_folder), LOCK_PREFIX + os.path.basename(staging_folder)[len(PREFIX) :])


# --- reading and writing -------------------------------------------------------------------------------------------
# Paths are stored relative to the copy's folder, so a folder moved (a drive mounted elsewhere) still recovers.


def _encode(journal: Journal, folder: str) -> bytes:
    def relative(path):
        if path is None:
            return None
        try:
            return os.path.relpath(path, folder)
        except ValueError:  # another drive (Windows)
            return path

    data = {
        "format": _FORMAT,
        "rolling_back": journal.rolling_back,
        "moves": [[relative(m.staged), relative(m.target), relative(m.aside)] for m in journal.moves],
        "copies": [relative(p) for p in journal.copies],
        "staging": [relative(p) for p in journal.staging],
    }
    return json.dumps(data, indent=0).encode("utf-8")


def load(path: str) -> Journal:
    """The journal at ``path``; ``ValueError`` if it is not one this code wrote, ``OSError`` if unreadable."""
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, "rb") as handle:
        try:
            data = json.loads(handle.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"not a journal: {error}") from None

    def absolute(value, optional=False):
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value:
            raise ValueError(f"not a journal: {value!r} is not a path")
        return os.path.normpath(os.path.join(folder, value))

    try:
        if data.get("format") != _FORMAT:
            raise ValueError(f"journal format {data.get('format')!r} is not {_FORMAT}")
        moves = [Move(absolute(s, True), absolute(t), absolute(a, True)) for s, t, a in data["moves"]]
        copies = [absolute(p) for p in data["copies"]]
        staging = [absolute(p) for p in data["staging"]]
        rolling_back = bool(data["rolling_back"])
    except (AttributeError, KeyError, TypeError) as error:
        raise ValueError(f"not a journal: {error!r}") from None
    if not copies or not staging:
        raise ValueError("not a journal: no copies or staging folders")
    return Journal(moves, copies, staging, rolling_back)


def _write_copy(journal: Journal, path: str, temp: str) -> None:
    with open(temp, "wb") as handle:
        handle.write(_encode(journal, os.path.dirname(path)))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    sync_folder(os.path.dirname(path))


def write(journal: Journal) -> None:
    """Write every copy, each first as ``journal.temp[copy]`` then renamed; the primary last (it is the commit
    point). On failure the copies already written are removed and the ``OSError`` raised."""
    written = []
    try:
        for path in journal.copies[1:] + journal.copies[:1]:
            _write_copy(journal, path, journal.temp[path])
            written.append(path)
    except OSError:
        for path in reversed(written):
            quietly(os.remove, path)
        raise


def remove_copies(journal: Journal) -> None:
    """Remove the journal, the primary first: the moves are over."""
    for path in journal.copies:
        quietly(os.remove, path)
        quietly(os.remove, path + ".tmp")


def pending_staging(folder: str) -> set[str]:
    """The staging folders (as :func:`key`) that journals in ``folder`` list: a commit of a live run, or a dead
    one not resolved yet, needs them."""
    pending: set[str] = set()
    for path in _journals_in(folder):
        try:
            pending.update(key(p) for p in load(path).staging)
        except (OSError, ValueError):
            pass
    return pending


def _journals_in(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in sorted(names) if n.startswith(JOURNAL_PREFIX) and n.endswith(_SUFFIX)]


# --- the moves -----------------------------------------------------------------------------------------------------


def apply(journal: Journal) -> None:
    """The live commit: set every old file aside (on Windows a file open elsewhere fails here, before any new file
    is in place), then move each new one in. Raises the first ``OSError``."""
    for m in journal.moves:
        if m.aside is not None:
            os.replace(m.target, m.aside)
    for m in journal.moves:
        if m.staged is not None:
            os.replace(m.staged, m.target)
    for folder in {os.path.dirname(m.target) for m in journal.moves}:
        sync_folder(folder)


def new_files_complete(journal: Journal) -> bool:
    """Every new file is still there: staged, or moved onto its target (a staged file is gone only once moved, and
    it is moved only after every old file was set aside, so a target whose staged file is gone is new)."""
    return all(m.staged is None or os.path.lexists(m.staged) or os.path.lexists(m.target) for m in journal.moves)


def roll_forward(journal: Journal) -> None:
    """Move every staged file still there onto its target and remove the stale files still in place (the old
    files set aside are removed by :func:`remove_set_aside`). Raises the first ``OSError``."""
    for m in journal.moves:
        if m.staged is not None and os.path.lexists(m.staged):
            os.replace(m.staged, m.target)
    for m in journal.moves:
        if m.staged is None and not (m.aside is not None and os.path.lexists(m.aside)) and os.path.lexists(m.target):
            _remove(m.target)  # a stale file never set aside
    for folder in {os.path.dirname(m.target) for m in journal.moves}:
        sync_folder(folder)


def remove_set_aside(journal: Journal) -> bool:
    """Remove the old files the commit set aside (it is complete); ``False`` if one could not go."""
    for m in journal.moves:
        if m.aside is not None:
            quietly(_remove, m.aside)
    return not any(m.aside is not None and os.path.lexists(m.aside) for m in journal.moves)


def roll_back(journal: Journal) -> None:
    """Put every set-aside file back onto its target, after moving a new file found there back to where it was
    staged (so that a kill during the undo still leaves every new file, for a roll forward). The primary copy
    first records that the commit is being undone. Raises the first ``OSError``."""
    if not journal.rolling_back:
        journal.rolling_back = True
        try:
            _write_copy(journal, journal.primary, journal.primary + ".tmp")
        except OSError:  # the undo goes on: each of its steps keeps the new files complete or the old ones
            quietly(os.remove, journal.primary + ".tmp")
    for m in journal.moves:
        if m.staged is not None and not os.path.lexists(m.staged) and os.path.lexists(m.target):
            # the new file is at the target when the old one was set aside, or when there was none
            if m.aside is None or os.path.lexists(m.aside):
                try:
                    os.replace(m.target, m.staged)
                except OSError:  # its staging folder is gone
                    _remove(m.target)
        if m.aside is not None and os.path.lexists(m.aside):
            os.replace(m.aside, m.target)
    for folder in {os.path.dirname(m.target) for m in journal.moves}:
        sync_folder(folder)


def _remove(path: str) -> None:
    """Remove a file, or a folder that a format writes as one output (a FileGDB's ``.gdb``)."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.remove(path)


# --- recovery ------------------------------------------------------------------------------------------------------


def recover(folder: str) -> list[str]:
    """Finish or undo the commits that dead runs left half done in ``folder`` (see the module's docstring); returns
    one message per commit resolved (each also logged). A journal that cannot be read, or whose commit cannot be
    resolved now (a target open in another program), is left for a later run and logged."""
    messages = []
    for path in _journals_in(folder):
        message = _recover(path)
        if message:
            _log.warning(message)
            messages.append(message)
    return messages


def _recover(path: str) -> Optional[str]:
    try:
        journal = load(path)
    except FileNotFoundError:  # resolved meanwhile
        return None
    except (OSError, ValueError) as error:
        _log.warning("%s cannot be read (%s): a crashed run's commit there stays as it is", path, error)
        return None
    lock, created = lock_path(journal.staging[0]), False
    try:
        fd = os.open(lock, os.O_RDWR)
    except FileNotFoundError:  # removed by hand: the run is dead; lock a new one so one recovery resolves it
        try:
            fd, created = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600), True
        except OSError:
            return None
    except OSError:
        return None
    try:
        if not try_lock(fd):  # the run lives (it may be committing now), or another recovery holds it
            return None
        return _resolve(path, journal, fd)
    except NoLockingError:  # a live run cannot be told from a dead one: leave it
        return None
    finally:
        os.close(fd)
        if created and not os.path.lexists(path):
            quietly(os.remove, lock)


def _resolve(path: str, journal: Journal, lock_fd: int) -> Optional[str]:
    """Roll ``journal``'s commit forward or back, holding its run's lock (``lock_fd``); the message, or ``None`` if
    nothing was to be done or it must wait."""
    if not os.path.lexists(path):
        return None  # resolved by another recovery before the lock was ours
    if key(path) != key(journal.primary):
        try:
            journal = load(journal.primary)
        except FileNotFoundError:
            # the run died before its commit point (the primary is written last) or after its end (the primary is
            # removed first): no move is half done, only files to remove
            _remove_run(journal, lock_fd)
            return None
        except (OSError, ValueError) as error:
            _log.warning("%s cannot be read (%s): a crashed run's commit stays as it is", journal.primary, error)
            return None
    targets = ", ".join(m.target for m in journal.moves if m.staged is not None)
    forward = not journal.rolling_back and new_files_complete(journal)
    if forward:
        try:
            roll_forward(journal)
        except OSError as error:
            _log.warning("A crashed run's outputs could not be completed (%s): its previous files are put back", error)
            forward = False
    if not forward:
        try:
            roll_back(journal)
        except OSError as error:
            _log.warning("A crashed run's previous files could not be put back yet (%s): %s", error, targets)
            return None
    elif not remove_set_aside(journal):
        _log.warning("The previous versions a crashed run set aside could not be removed yet: %s", targets)
        return None
    _remove_run(journal, lock_fd)
    if forward:
        return f"A run killed while moving its outputs into place was completed: {targets}"
    return f"A run killed while moving its outputs into place was undone, the previous files put back: {targets}"


def _remove_run(journal: Journal, lock_fd: int) -> None:
    """Remove a dead run's journal, then its staging folders and their lock files (a folder that cannot go keeps
    its lock file, for a later run); ``lock_fd`` holds the first one's lock."""
    remove_copies(journal)
    for number, folder in enumerate(journal.staging):
        if number == 0:
            mark_released(lock_fd)
        else:
            try:
                fd = os.open(lock_path(folder), os.O_WRONLY | os.O_APPEND)
            except OSError:
                pass
            else:
                mark_released(fd)
                os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)
        if not os.path.lexists(folder):
            quietly(os.remove, lock_path(folder))
