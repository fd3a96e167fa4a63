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
step can be repeated after another kill. A journal whose run still holds its lock is never touched. Nor is one
that is not the current user's, that does not have the shape a commit gives it (:func:`load`), or whose copies are
not all there alike (a folder it lists without its copy is not one the commit wrote to): it could name any file,
so it is left and logged. No qgis, no Qt.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import stat
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
#: a run's id: the random part of its staging folder's name (``tempfile.mkstemp``'s letters, digits and ``_``)
_ID = re.compile(r"[A-Za-z0-9_]+")
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
    """The journal at ``path``; ``ValueError`` if it is not one this code wrote for the current user (another
    user's file, not a regular file, or paths a commit does not write: :func:`_check_shape`), ``OSError`` if
    unreadable. Recovery acts on nothing else: a journal planted in a folder must not move or remove files."""
    return _read(path, own=True)


def _read(path: str, own: bool) -> Journal:
    folder = os.path.dirname(os.path.abspath(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise ValueError("not a journal: not a regular file")
        if own and hasattr(os, "getuid") and status.st_uid != os.getuid():
            raise ValueError("not a journal of this user: the file belongs to another user")
        try:
            data = json.loads(handle.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"not a journal: {error}") from None

    def absolute(value, optional=False):
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value:
            raise ValueError(f"not a journal: {value!r} is not a path")
        return _resolved(value, folder)

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
    journal = Journal(moves, copies, staging, rolling_back)
    _check_shape(journal, path)
    return journal


def _resolved(value: str, folder: str) -> str:
    """``value`` as :func:`_encode` writes it (relative to ``folder``, normalized, ``..`` only leading; absolute only
    on another drive), made absolute; ``ValueError`` otherwise."""
    if os.path.isabs(value) or os.path.splitdrive(value)[0]:
        try:
            os.path.relpath(value, folder)
        except ValueError:  # another drive (Windows): _encode wrote it whole
            if os.path.isabs(value) and os.path.normpath(value) == value:
                return value
        raise ValueError(f"not a journal: {value!r} is absolute")
    parts = value.replace(os.altsep or os.sep, os.sep).split(os.sep)
    while parts and parts[0] == os.pardir:
        parts.pop(0)
    if os.path.normpath(value) != value or not parts or any(p in ("", os.curdir, os.pardir) for p in parts):
        raise ValueError(f"not a journal: {value!r} is not a path a commit writes")
    return os.path.normpath(os.path.join(folder, value))


def _check_shape(journal: Journal, path: str) -> None:
    """``ValueError`` unless ``journal`` (read from ``path``) has the shape :meth:`.files.StagedWrites.commit` gives
    it: copies ``JOURNAL_PREFIX + id + ".json"`` with the run's ``id``, ``path`` one of them, one a folder; staging
    folders ``PREFIX + id'`` directly in those folders, the first one the run's; each staged file directly in a
    staging folder, its target the file of that name in the staging folder's folder; each stale target in a copy's
    folder; each set-aside file ``PREFIX + "old-" + id + "-" + n`` beside its target, ``n`` its move's number.
    Every path is thus in a folder the journal lists, or in a staging folder of one."""

    def refuse(why):
        raise ValueError(f"not a journal a commit writes: {why}")

    name = os.path.basename(journal.primary)
    run_id = name[len(JOURNAL_PREFIX) : -len(_SUFFIX)]
    if not (name.startswith(JOURNAL_PREFIX) and name.endswith(_SUFFIX) and _ID.fullmatch(run_id)):
        refuse(f"{journal.primary} is not named as a journal")
    copies = [key(c) for c in journal.copies]
    if any(os.path.basename(c) != name for c in journal.copies) or len(set(copies)) != len(copies):
        refuse("its copies are not one run's, one a folder")
    if key(path) not in copies:
        refuse(f"{path} is not one of its copies")
    folders = {key(os.path.dirname(c)) for c in journal.copies}
    staging = [key(s) for s in journal.staging]
    for number, folder in enumerate(journal.staging):
        base = os.path.basename(folder)
        if not (base.startswith(PREFIX) and _ID.fullmatch(base[len(PREFIX) :])):
            refuse(f"{folder} is not named as a staging folder")
        if key(os.path.dirname(folder)) not in folders:
            refuse(f"{folder} is not in a folder that holds a copy")
        if number == 0 and staging[0] != key(os.path.join(os.path.dirname(journal.primary), PREFIX + run_id)):
            refuse(f"{folder} is not the run's staging folder beside its first copy")
    if len(set(staging)) != len(staging) or {key(os.path.dirname(s)) for s in journal.staging} != folders:
        refuse("its staging folders are not one each, beside its copies")
    for number, move in enumerate(journal.moves):
        if move.staged is not None:
            if key(os.path.dirname(move.staged)) not in staging:
                refuse(f"{move.staged} is not in a staging folder")
            beside = os.path.join(os.path.dirname(os.path.dirname(move.staged)), os.path.basename(move.staged))
            if key(move.target) != key(beside):
                refuse(f"{move.target} is not where {move.staged} goes")
        elif key(os.path.dirname(move.target)) not in folders:
            refuse(f"{move.target} is not in a folder that holds a copy")
        if os.path.basename(move.target).startswith((PREFIX, LOCK_PREFIX, JOURNAL_PREFIX)):
            refuse(f"{move.target} is a hidden file of staged writes")
        if move.aside is not None and key(move.aside) != key(aside_path(move.target, run_id, number)):
            refuse(f"{move.aside} is not where {move.target} is set aside")


def _agreeing(journal: Journal) -> list[str]:
    """The copies of ``journal`` that exist as the current user's journals listing the same moves, copies and
    staging folders (a copy's folder is one the journal may act in)."""
    agreeing = []
    for path in journal.copies:
        try:
            copy = load(path)
        except (OSError, ValueError):
            continue
        if _listing(copy) == _listing(journal):
            agreeing.append(path)
    return agreeing


def _listing(journal: Journal) -> tuple:
    def keyed(path):
        return None if path is None else key(path)

    moves = [(keyed(m.staged), key(m.target), keyed(m.aside)) for m in journal.moves]
    return moves, [key(c) for c in journal.copies], [key(s) for s in journal.staging]


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
    one not resolved yet, needs them. Another user's journals count too: their folders are not this user's to
    remove."""
    pending: set[str] = set()
    for path in _journals_in(folder):
        try:
            pending.update(key(p) for p in _read(path, own=False).staging)
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
    nofollow = getattr(os, "O_NOFOLLOW", 0)  # a lock file is written to: never through a link planted in its place
    try:
        fd = os.open(lock, os.O_RDWR | nofollow)
    except FileNotFoundError:  # removed by hand: the run is dead; lock a new one so one recovery resolves it
        try:
            fd, created = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_EXCL | nofollow, 0o600), True
        except OSError:
            return None
    except OSError:
        return None
    refused = False
    try:
        if not try_lock(fd):  # the run lives (it may be committing now), or another recovery holds it
            return None
        return _resolve(path, journal, fd)
    except NoLockingError:  # a live run cannot be told from a dead one: leave it
        return None
    except _RefusedError as error:
        refused = True
        _log.warning("%s cannot be followed (%s): a crashed run's commit there stays as it is", path, error)
        return None
    finally:
        os.close(fd)
        if created and (refused or not os.path.lexists(path)):
            quietly(os.remove, lock)


class _RefusedError(ValueError):
    """A journal that does not vouch for the folders it lists: it is left alone."""


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
            # removed first): no move is half done, only files to remove, in the folders that hold a copy
            _remove_run(journal, lock_fd, _agreeing(journal))
            return None
        except (OSError, ValueError) as error:
            _log.warning("%s cannot be read (%s): a crashed run's commit stays as it is", journal.primary, error)
            return None
    # the primary exists, so every copy does (written before it, removed after it): a folder without one was not
    # written to by this commit, and nothing there is touched
    agreeing = _agreeing(journal)
    if len(agreeing) != len(journal.copies):
        missing = ", ".join(c for c in journal.copies if c not in agreeing)
        raise _RefusedError(f"its copies {missing} are missing or differ")
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
    _remove_run(journal, lock_fd, agreeing)
    if forward:
        return f"A run killed while moving its outputs into place was completed: {targets}"
    return f"A run killed while moving its outputs into place was undone, the previous files put back: {targets}"


def _remove_run(journal: Journal, lock_fd: int, copies: list[str]) -> None:
    """Remove a dead run's journal ``copies`` (its copies that agree with it), then its staging folders in their
    folders and their lock files (a folder that cannot go keeps its lock file, for a later run; one elsewhere is
    left to :func:`.files.remove_abandoned` there); ``lock_fd`` holds the first one's lock."""
    folders = {key(os.path.dirname(c)) for c in copies}
    remove_copies(Journal([], [c for c in journal.copies if c in copies], []))
    for number, folder in enumerate(journal.staging):
        if key(os.path.dirname(folder)) not in folders:
            continue
        if number == 0:
            mark_released(lock_fd)
        else:
            try:
                fd = os.open(lock_path(folder), os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                pass
            else:
                mark_released(fd)
                os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)
        if not os.path.lexists(folder):
            quietly(os.remove, lock_path(folder))
