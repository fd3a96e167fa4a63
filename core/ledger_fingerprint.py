"""Keyed fingerprints that identify a confidential data set in the privacy-budget ledger without revealing it.

A fingerprint is HMAC-SHA256 (Krawczyk, Bellare & Canetti 1997, RFC 2104) keyed with the ledger's secret key,
over a canonical serialisation of the records a mechanism reads. Canonical means that the same records give the
same bytes whatever their order and however the numbers were typed:

* every number becomes a float64 (an integer count and the same count read as a double agree), ``-0.0``
  becomes ``0.0`` and every NaN one NaN;
* with a ``resolution`` (in CRS units), coordinates are first rounded to the nearest multiple of it, so
  that copies of a layer that differ in the last bits (a round trip through another format) agree; without
  one, the coordinates' exact doubles count;
* the rows are sorted (by their bit patterns, which is a total order, NaN included);
* a header names the kind of data, the columns, the number of rows and the resolution, so a point set and a
  table of counts can never give the same bytes.

What a fingerprint reveals: it is a fixed-length (64 hex digits) pseudo-random value; without the key, nothing
about the data can be learnt from it (HMAC is a pseudo-random function). With the key, someone who holds a
candidate data set can test whether it is exactly the one recorded, so the key file stays with the steward and is
never published. A data set that changes (one record added, one point moved) is a new data set for the ledger.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import Sequence

import numpy as np

#: Bytes of a ledger key.
KEY_BYTES = 32
#: Version of the canonical serialisation; part of every fingerprint's header.
FINGERPRINT_VERSION = 1
_MAGIC = b"spatial-privacy ledger fingerprint\x00"
_KEY_ID_MESSAGE = b"spatial-privacy ledger key id\x00"
_CANONICAL_NAN = np.uint64(0x7FF8000000000000)
_CHUNK_ROWS = 65_536


def check_key(key: bytes) -> bytes:
    """``key`` as bytes, refused unless it has :data:`KEY_BYTES` bytes."""
    if not isinstance(key, (bytes, bytearray)) or len(key) != KEY_BYTES:
        raise ValueError(f"a ledger key is {KEY_BYTES} bytes, got {type(key).__name__} of length {len(key)}")
    return bytes(key)


def key_id(key: bytes) -> str:
    """A short public name of ``key`` (16 hex digits), stored in the ledger so that a ledger opened with another
    key is refused: its fingerprints would all differ, and every data set would look new."""
    return hmac.new(check_key(key), _KEY_ID_MESSAGE, hashlib.sha256).hexdigest()[:16]


def _float_bits(values, name: str, *, resolution: float | None = None) -> np.ndarray:
    """The canonical float64 bit patterns (uint64) of a 1-D column of numbers."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.dtype.kind in "iu":
        if array.size and np.max(np.abs(array.astype(np.float64))) > 2.0**53:
            raise ValueError(f"{name} holds integers beyond 2**53, which a double cannot hold exactly")
    elif array.dtype.kind not in "fb":
        raise ValueError(f"{name} must hold numbers, got dtype {array.dtype}")
    doubles = array.astype(np.float64)
    if resolution is not None:
        if not np.all(np.isfinite(doubles)):
            raise ValueError(f"{name} holds a coordinate that is not a finite number")
        doubles = np.rint(doubles / resolution)
        if doubles.size and np.max(np.abs(doubles)) > 2.0**53:
            raise ValueError(f"{name}: the resolution {resolution:g} is too fine for coordinates this large")
    doubles = doubles + 0.0  # -0.0 + 0.0 is 0.0
    bits = doubles.astype("<f8").view("<u8").copy()
    bits[np.isnan(doubles)] = _CANONICAL_NAN
    return bits


def _header(kind: str, columns: Sequence[str], rows: int, resolution: float | None) -> bytes:
    description = {
        "version": FINGERPRINT_VERSION,
        "kind": kind,
        "columns": list(columns),
        "rows": int(rows),
        "resolution": None if resolution is None else float(resolution),
    }
    return _MAGIC + json.dumps(description, sort_keys=True, separators=(",", ":")).encode("utf-8") + b"\x00"


def _numeric_fingerprint(key: bytes, kind: str, names: Sequence[str], columns: list[np.ndarray], resolution) -> str:
    """HMAC of a table of numeric columns (uint64 bit patterns), its rows sorted."""
    rows = len(columns[0]) if columns else 0
    mac = hmac.new(check_key(key), _header(kind, names, rows, resolution), hashlib.sha256)
    if rows:
        order = np.lexsort(columns[::-1])  # the first column is the primary key
        table = np.stack([column[order] for column in columns], axis=1).astype("<u8", copy=False)
        for start in range(0, rows, _CHUNK_ROWS):
            mac.update(np.ascontiguousarray(table[start : start + _CHUNK_ROWS]).tobytes())
    return mac.hexdigest()


def _check_resolution(resolution: float | None) -> float | None:
    if resolution is None:
        return None
    resolution = float(resolution)
    if not (math.isfinite(resolution) and resolution > 0):
        raise ValueError(f"resolution must be a number > 0 (CRS units) or None, got {resolution!r}")
    return resolution


def points_fingerprint(key: bytes, x, y, values=None, *, resolution: float | None = None) -> str:
    """The fingerprint (64 hex digits) of a point data set: the coordinates ``x``, ``y`` (CRS units) and, if
    given, ``values`` (1-D, or 2-D with one column per attribute) of each point.

    ``resolution`` (CRS units) rounds the coordinates first (see the module docstring); values are never
    rounded. The order of the points does not matter; moving one point (by more than the resolution), adding
    or removing one, or changing one value gives another fingerprint.

    Identify a point layer by its locations alone (``values=None``) when several mechanisms read different
    attributes of the same records (the grid reads a value, the point synthesizers only the locations): the
    records are the people whose privacy the ledger adds up, and a fingerprint that includes the attribute would
    file the releases of each attribute under a different data set. Fingerprint the coordinates as the layer stores
    them (its own CRS, before any reprojection), so that choosing another working CRS does not make the data set
    look new; the neighbourhood's ``units`` name the CRS its distances are measured in. A copy of the data in
    another CRS is another data set to the ledger.
    """
    resolution = _check_resolution(resolution)
    xs = _float_bits(x, "x", resolution=resolution)
    ys = _float_bits(y, "y", resolution=resolution)
    if len(xs) != len(ys):
        raise ValueError(f"x and y must have the same length, got {len(xs)} and {len(ys)}")
    columns, names = [xs, ys], ["x", "y"]
    if values is not None:
        table = np.asarray(values)
        table = table.reshape(-1, 1) if table.ndim == 1 else table
        if table.ndim != 2 or table.shape[0] != len(xs):
            raise ValueError(f"values must have one row per point ({len(xs)}), got shape {np.shape(values)}")
        for j in range(table.shape[1]):
            columns.append(_float_bits(table[:, j], f"values column {j}"))
            names.append(f"value{j}")
    return _numeric_fingerprint(key, "points", names, columns, resolution)


def _group_bytes(group) -> bytes:
    """A group identifier as bytes that say its type: text, raw bytes, or a number (as a canonical double)."""
    if isinstance(group, str):
        return b"s" + group.encode("utf-8")
    if isinstance(group, (bytes, bytearray)):
        return b"b" + bytes(group)
    if isinstance(group, (bool, np.bool_)) or not isinstance(group, (int, float, np.integer, np.floating)):
        raise ValueError(f"a group identifier must be text, bytes or a number, got {type(group).__name__}")
    return b"n" + _float_bits(np.array([group]), "group").tobytes()


def counts_fingerprint(key: bytes, groups: Sequence, counts) -> str:
    """The fingerprint (64 hex digits) of a table of counts: ``groups`` identifies each row (text, bytes or
    numbers: a stable key such as a code field or the area's geometry as WKB, not a feature id that changes
    from one export to the next) and ``counts`` holds its confidential count. The order of the rows does not
    matter; moving one event from one group to another gives another fingerprint."""
    counts_bits = _float_bits(counts, "counts")
    groups = list(groups)
    if len(groups) != len(counts_bits):
        raise ValueError(f"groups and counts must have the same length, got {len(groups)} and {len(counts_bits)}")
    rows = sorted(zip((_group_bytes(g) for g in groups), counts_bits.tolist()))
    for (a, _), (b, _) in zip(rows, rows[1:]):
        if a == b:
            raise ValueError("groups must be unique: two rows have the same group identifier")
    mac = hmac.new(check_key(key), _header("counts", ["group", "count"], len(rows), None), hashlib.sha256)
    for group, count in rows:
        mac.update(len(group).to_bytes(8, "little") + group + int(count).to_bytes(8, "little"))
    return mac.hexdigest()


def is_fingerprint(text: str) -> bool:
    """Whether ``text`` has the form of a fingerprint: 64 lower-case hex digits."""
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)
