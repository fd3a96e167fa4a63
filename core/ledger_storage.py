"""The privacy-budget ledger's files: their format, checks, lock and atomic writes (no qgis, no Qt).

The ledger is a UTF-8 JSON Lines file. Line 1 is a header ``{"record": "header", "format":
"spatial-privacy-ledger", "version": 1, "key_id": ..., "created": ...}``; every later line is a ``"release"`` or a
``"budget"`` record with its ``"number"`` (its line number, from 1 after the header). Every line carries a
``"checksum"``: SHA-256 over the previous line's checksum and the line's canonical JSON (sorted keys, no spaces,
without the checksum). A line edited, cut short, or removed or moved from before the last line breaks the chain,
and reading the file then stops with :class:`LedgerDamagedError` naming the file, the line and what is wrong. The
checksums detect damage, not a forger: anyone can recompute them.

The chain alone cannot tell a ledger cut back to an older, shorter version (a restored backup, a cloud-sync revert,
lines removed from the end): every prefix of a valid chain is valid, and such a rollback would undo spent budget.
So every write also records the chain's head, the number of records and the checksum of the last one, in a head
file beside the ledger (``.<name>.head``, JSON ``{"format": "spatial-privacy-ledger-head", "version": 1,
"records": n, "checksum": ...}``), written atomically under the same lock right after the ledger. A ledger with
fewer records than its head file, or whose record at that number is not the one the head file names (replaced by
another version), or that is missing while its head file is there, is refused with :class:`LedgerRolledBackError`
(a :class:`LedgerDamagedError`); a steward who really means to go back to the older version removes the head file.
The head file is read before the ledger and written after it, so a reader never sees a ledger behind its head. The
limit of the check: a ledger without a head file (made before this check existed, or copied without it) is
accepted as it is, and its head file is made by its next write; a ledger rolled back together with its head file
is not detected either.

Writes never touch the file in place: under the ledger's lock, the file is read and checked, the new line is
appended to the bytes read, and the whole is written to a temporary file in the same folder, flushed to disk
(``fsync``) and moved onto the ledger with ``os.replace``, which is atomic. A damaged ledger is never written.
The lock is a lock file beside the ledger (``.<name>.lock``), locked with :mod:`.file_locks`' lock (``flock`` or
``msvcrt``), which threads and processes both respect and which goes when its process ends, however it ends; on
a file system without locks, an exclusive folder (``.<name>.lock.d``) takes its place.

The key file (default: the ledger's name with ``.key``) holds the fingerprint key as JSON ``{"format":
"spatial-privacy-ledger-key", "version": 1, "key": <64 hex digits>}``, readable by its owner only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Optional

from .file_locks import NoLockingError, sync_folder, try_lock
from .ledger_composition import Budget, Guarantee, Neighbourhood, Release
from .ledger_fingerprint import KEY_BYTES, key_id

FORMAT = "spatial-privacy-ledger"
VERSION = 1
KEY_FORMAT = "spatial-privacy-ledger-key"
KEY_VERSION = 1
RECORDS = ("release", "budget")
HEAD_FORMAT = "spatial-privacy-ledger-head"
HEAD_VERSION = 1
_POLL_SECONDS = 0.005
_REPLACE_ATTEMPTS = 50


class LedgerError(ValueError):
    """A ledger (or its key file) that cannot be read or written; ``path`` names the file."""

    def __init__(self, path: str, message: str):
        super().__init__(message)
        self.path = path


class LedgerDamagedError(LedgerError):
    """A ledger file that is not a valid ledger: bad JSON, a bad checksum, an unknown version. It is never
    written to; ``line`` is the first bad line (1-based)."""

    def __init__(self, path: str, line: int, problem: str):
        super().__init__(
            path,
            f"The privacy-budget ledger {path} is damaged at line {line}: {problem}. It was left unchanged, and "
            "nothing will be written to it until it is repaired: restore it from a backup, or move it and its head "
            f"file {head_path(path)} aside and start a new ledger (a new ledger does not know the releases this one "
            "records).",
        )
        self.line = line
        self.problem = problem


class LedgerRolledBackError(LedgerDamagedError):
    """A ledger behind the head its last write recorded (:func:`check_head`): cut back to an older version."""

    def __init__(self, path: str, line: int, problem: str, head_file: str):
        LedgerError.__init__(
            self,
            path,
            f"The privacy-budget ledger {path} is not the latest version: {problem}. Releases recorded since would "
            f"be forgotten and their budget spent again, so nothing will be read from or written to it. Restore "
            f"the newer ledger file (from a backup or another synced copy). If you really mean to go back to this "
            f"older version, remove the head file {head_file}: the ledger is then accepted as it is.",
        )
        self.line = line
        self.problem = problem
        self.head_file = head_file


class LedgerBusyError(LedgerError):
    """The ledger's lock stayed held for longer than the timeout."""


class LedgerKeyError(LedgerError):
    """The key file is missing, unreadable or not the key the ledger was made with."""


def utc_now() -> str:
    """The time now, UTC, ISO 8601 to the microsecond (``2024-05-01T12:00:00.000000Z``)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical_json(record: dict) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def checksum(previous: str, record: dict) -> str:
    """SHA-256 of the previous line's checksum and ``record`` (without its checksum) as canonical JSON."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    return hashlib.sha256((previous + "\n" + canonical_json(body)).encode("utf-8")).hexdigest()


def encode_line(previous: str, record: dict) -> tuple[bytes, str]:
    """One ledger line (with its newline) for ``record``, chained to ``previous``; and its checksum."""
    digest = checksum(previous, record)
    return (canonical_json({**record, "checksum": digest}) + "\n").encode("utf-8"), digest


def header(key: bytes) -> dict:
    return {"record": "header", "format": FORMAT, "version": VERSION, "key_id": key_id(key), "created": utc_now()}


def parse(path: str, data: bytes) -> tuple[dict, list[dict], str]:
    """The header, the records and the last checksum of the ledger bytes ``data``; raises
    :class:`LedgerDamagedError` at the first line that is not right."""
    if not data:
        raise LedgerDamagedError(path, 1, "the file is empty, so it is not a ledger (a ledger starts with a header)")
    if not data.endswith(b"\n"):
        last = data.count(b"\n") + 1
        raise LedgerDamagedError(path, last, "the last line is incomplete (the file was cut short)")
    lines = data[:-1].split(b"\n")
    head: Optional[dict] = None
    records: list[dict] = []
    previous = ""
    for number, raw in enumerate(lines, start=1):
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise LedgerDamagedError(path, number, f"the line is not valid JSON ({error})") from None
        if not isinstance(record, dict):
            raise LedgerDamagedError(path, number, "the line is not a JSON object")
        if number == 1:
            if record.get("record") != "header" or record.get("format") != FORMAT:
                raise LedgerDamagedError(path, 1, f"the first line is not a {FORMAT} header, so this is not a ledger")
            if record.get("version") != VERSION:
                raise LedgerDamagedError(
                    path,
                    1,
                    f"format version {record.get('version')!r} is not known to this plugin, which reads version "
                    f"{VERSION} (a newer plugin may have written it: update the plugin)",
                )
        elif record.get("record") not in RECORDS:
            raise LedgerDamagedError(path, number, f"unknown record type {record.get('record')!r}")
        elif record.get("number") != number - 1:
            raise LedgerDamagedError(path, number, f"the record is numbered {record.get('number')!r}, not {number - 1}")
        stated = record.get("checksum")
        try:
            expected = checksum(previous, record)
        except (TypeError, ValueError) as error:
            raise LedgerDamagedError(path, number, f"the line holds a value JSON cannot hold ({error})") from None
        if stated != expected:
            raise LedgerDamagedError(
                path,
                number,
                "its checksum does not match its content and the line before it (the line was edited or corrupted, "
                "or a line before it was removed or moved)",
            )
        previous = stated
        if number == 1:
            head = record
        else:
            records.append(record)
    return head, records, previous


def head_path(path: str) -> str:
    """The head file of the ledger ``path``: ``.<name>.head`` beside it."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.head")


def head_file_bytes(records: int, last_checksum: str) -> bytes:
    return (
        canonical_json({"format": HEAD_FORMAT, "version": HEAD_VERSION, "records": records, "checksum": last_checksum})
        + "\n"
    ).encode("utf-8")


def _read_small_json(path: str, name: str, fmt: str, version: int, error, what: str, parse, damaged: str):
    """``parse(content)`` of the small versioned JSON file ``name`` (``None`` if it does not exist), for the ledger
    ``path``; ``error(path, message)`` if it cannot be read or is not a ``fmt`` file of ``version``."""
    try:
        with open(name, "rb") as stream:
            data = stream.read()
    except FileNotFoundError:
        return None
    except OSError as failure:
        raise error(path, f"The ledger {what} {name} cannot be read: {failure.strerror or failure}.") from None
    try:
        content = json.loads(data.decode("utf-8"))
        if content.get("format") != fmt or content.get("version") != version:
            raise ValueError(f"not a ledger {what} of a known version")
        return parse(content)
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as failure:
        raise error(path, f"The ledger {what} {name} is damaged: {failure}. {damaged}") from None


def _head(content: dict) -> tuple[int, str]:
    records, digest = content["records"], content["checksum"]
    if isinstance(records, bool) or not isinstance(records, int) or records < 0 or not isinstance(digest, str):
        raise ValueError("the number of records or the checksum is not valid")
    return records, digest


def read_head(path: str) -> Optional[tuple[int, str]]:
    """The (number of records, checksum of the last) that the head file of the ledger ``path`` records; ``None``
    if there is no head file. A head file that cannot be read raises :class:`LedgerError` naming it."""
    return _read_small_json(
        path,
        head_path(path),
        HEAD_FORMAT,
        HEAD_VERSION,
        LedgerError,
        "head file",
        _head,
        f"Nothing was written. If the ledger {path} is the latest version, remove the head file (the next write "
        "makes it again).",
    )


def check_head(path: str, head: Optional[tuple[int, str]], records: Optional[list[dict]]) -> None:
    """Raise :class:`LedgerRolledBackError` if the ledger's ``records`` (``None``: no ledger file) are behind
    ``head`` (:func:`read_head`) or are not the chain it names. No head file: nothing to check."""
    if head is None:
        return
    count, digest = head
    name = head_path(path)
    if records is None:
        if count > 0:
            raise LedgerRolledBackError(
                path, 1, f"the file is missing, but its head file records {count} record(s)", name
            )
        return
    if len(records) < count:
        missing = count - len(records)
        raise LedgerRolledBackError(
            path,
            len(records) + 2,
            f"it holds {len(records)} record(s), but its last write left {count}: {missing} record(s) are missing "
            "(an older copy was restored or the file was cut short)",
            name,
        )
    if count > 0 and records[count - 1].get("checksum") != digest:
        raise LedgerRolledBackError(
            path,
            count + 1,
            f"record {count} is not the one its last write left (another version of the ledger replaced it)",
            name,
        )


def release_record(release: Release) -> dict:
    """The JSON record of ``release`` (without its checksum)."""
    return {
        "record": "release",
        "number": release.number,
        "time": release.time,
        "algorithm": release.algorithm,
        "mechanism": release.mechanism,
        "dataset": release.dataset,
        "dataset_label": release.dataset_label,
        "guarantees": [
            {
                "neighbourhood": dataclasses.asdict(g.neighbourhood),
                "epsilon": float(g.epsilon),
                "delta": float(g.delta),
                "proven": bool(g.proven),
            }
            for g in release.guarantees
        ],
        "seeded": bool(release.seeded),
        "outputs": list(release.outputs),
        "note": release.note,
    }


def release_from(record: dict) -> Release:
    """The release a checked record holds; ``KeyError``, ``TypeError`` or ``ValueError`` if it holds none."""
    if not isinstance(record["seeded"], bool) or not isinstance(record["outputs"], list):
        raise TypeError("seeded must be true or false and outputs a list")
    guarantees = tuple(
        Guarantee(Neighbourhood(**g["neighbourhood"]), g["epsilon"], g["delta"], g["proven"])
        for g in record["guarantees"]
    )
    return Release(
        record["algorithm"],
        record["mechanism"],
        record["dataset"],
        guarantees,
        tuple(record["outputs"]),
        record["seeded"],
        record["note"],
        record["dataset_label"],
        record["time"],
        record["number"],
    )


def budget_record(budget: Budget) -> dict:
    return {
        "record": "budget",
        "number": budget.number,
        "time": budget.time,
        "dataset": budget.dataset,
        "epsilon": None if budget.epsilon is None else float(budget.epsilon),
        "delta": float(budget.delta),
        "note": budget.note,
    }


def budget_from(record: dict) -> Budget:
    return Budget(
        record["dataset"], record["epsilon"], record["delta"], record["note"], record["time"], record["number"]
    )


def read_bytes(path: str) -> Optional[bytes]:
    """The ledger's bytes, ``None`` if there is no file."""
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise LedgerError(
            path, f"The privacy-budget ledger {path} cannot be read: {error.strerror or error}."
        ) from None


def replace_atomically(path: str, data: bytes, mode: int = 0o666, unique: bool = False) -> None:
    """Write ``data`` to ``path`` all or nothing: a temporary file beside it, flushed to disk, then moved onto it.
    A new file gets ``mode`` (less the umask); an existing one keeps its permissions. The temporary file's name is
    fixed (a killed run's is overwritten by the next), so call this under the file's lock, or with ``unique``
    (the name then holds the process and thread)."""
    folder, name = os.path.split(os.path.abspath(path))
    tag = f".{os.getpid()}-{threading.get_ident()}" if unique else ""
    partial = os.path.join(folder, f".{name}{tag}.writing")
    try:
        try:
            kept = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            kept = None
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if kept is not None:
            os.chmod(partial, kept)
        for attempt in range(_REPLACE_ATTEMPTS):
            try:
                os.replace(partial, path)
                break
            except PermissionError:  # Windows: a reader has the file open for a moment
                if os.name != "nt" or attempt == _REPLACE_ATTEMPTS - 1:
                    raise
                time.sleep(0.02)
        sync_folder(folder)
    except OSError as error:
        try:
            os.remove(partial)
        except OSError:
            pass
        raise LedgerError(
            path, f"The file {path} could not be written ({error.strerror or error}); it was left unchanged."
        ) from None


@contextmanager
def locked(path: str, timeout: float):
    """Hold the lock of ``path`` (a ledger or key file) for the block: waits up to ``timeout`` seconds, then
    raises :class:`LedgerBusyError` naming the lock."""
    folder, name = os.path.split(os.path.abspath(path))
    lock_path = os.path.join(folder, f".{name}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        raise LedgerError(
            path,
            f"The lock file {lock_path} could not be made ({error.strerror or error}): does the folder exist, and "
            "may this user write in it?",
        ) from None
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                if try_lock(fd):
                    break
            except NoLockingError:
                os.close(fd)
                fd = -1
                with _folder_locked(path, lock_path + ".d", deadline):
                    yield
                return
            if time.monotonic() > deadline:
                raise LedgerBusyError(
                    path, f"The file {path} stayed locked by another run for {timeout:g} s (lock file {lock_path})."
                )
            time.sleep(_POLL_SECONDS)
        yield
    finally:
        if fd >= 0:
            os.close(fd)  # releases the lock; the lock file stays (removing it would race with a waiting run)


@contextmanager
def _folder_locked(path: str, lock_folder: str, deadline: float):
    """The lock where the file system has no file locks: a folder only one run can make. A run killed while
    holding it leaves it behind, and the message says to remove it."""
    while True:
        try:
            os.mkdir(lock_folder)
            break
        except FileExistsError:
            if time.monotonic() > deadline:
                raise LedgerBusyError(
                    path,
                    f"The file {path} stayed locked by another run (lock folder {lock_folder}); if no run is "
                    "writing to it, remove that folder.",
                ) from None
            time.sleep(_POLL_SECONDS)
        except OSError as error:
            raise LedgerError(path, f"The lock {lock_folder} could not be made ({error.strerror or error}).") from None
    try:
        yield
    finally:
        try:
            os.rmdir(lock_folder)
        except OSError:
            pass


def _key(content: dict) -> bytes:
    key = bytes.fromhex(content["key"])
    if len(key) != KEY_BYTES:
        raise ValueError(f"the key has {len(key)} bytes, not {KEY_BYTES}")
    return key


def read_key(path: str) -> Optional[bytes]:
    """The key in the key file ``path``, ``None`` if there is no such file; :class:`LedgerKeyError` if it is not
    a key file."""
    return _read_small_json(
        path, path, KEY_FORMAT, KEY_VERSION, LedgerKeyError, "key file", _key, "It was left unchanged."
    )


def key_file_bytes(key: bytes) -> bytes:
    return (json.dumps({"format": KEY_FORMAT, "version": KEY_VERSION, "key": key.hex()}) + "\n").encode("utf-8")
