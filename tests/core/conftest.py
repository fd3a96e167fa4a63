"""Core tests read the real GeoPackages with sqlite3 alone: no QGIS in the code under test."""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).resolve().parent.parent / "data"
_ENVELOPE_DOUBLES = {0: 0, 1: 4, 2: 6, 3: 6, 4: 8}


def read_gpkg_points(path: Path, table: str, field: str):
    """x, y and one numeric column of a GeoPackage point table (GeoPackage binary + WKB point)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute(f'SELECT geom, "{field}" FROM "{table}"').fetchall()
    finally:
        con.close()
    xs, ys, ts = [], [], []
    for blob, value in rows:
        assert blob[:2] == b"GP"
        flags = blob[3]
        offset = 8 + 8 * _ENVELOPE_DOUBLES[(flags >> 1) & 0b111]
        order = "<" if blob[offset] == 1 else ">"
        (geom_type,) = struct.unpack_from(order + "I", blob, offset + 1)
        assert geom_type % 1000 == 1, "expected WKB points"
        x, y = struct.unpack_from(order + "dd", blob, offset + 5)
        xs.append(x)
        ys.append(y)
        ts.append(value)
    return np.array(xs), np.array(ys), np.array(ts, dtype=float)


@pytest.fixture(scope="session")
def enterprise_arrays():
    return read_gpkg_points(DATA / "sdcspatial_enterprises.gpkg", "enterprises", "production")
