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


def read_gpkg_lines(path: Path, table: str) -> list[np.ndarray]:
    """The parts of a GeoPackage line table: one (k, 2) array per linestring (multi-linestrings split into parts)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute(f'SELECT geom FROM "{table}"').fetchall()
    finally:
        con.close()
    parts = []
    for (blob,) in rows:
        assert blob[:2] == b"GP"
        offset = 8 + 8 * _ENVELOPE_DOUBLES[(blob[3] >> 1) & 0b111]
        order = "<" if blob[offset] == 1 else ">"
        (geom_type,) = struct.unpack_from(order + "I", blob, offset + 1)
        if geom_type == 2:
            strings = [offset]
        else:
            assert geom_type == 5, "expected 2D WKB linestrings or multi-linestrings"
            (count,) = struct.unpack_from(order + "I", blob, offset + 5)
            strings, position = [], offset + 9
            for _ in range(count):
                strings.append(position)
                (n,) = struct.unpack_from(("<" if blob[position] == 1 else ">") + "I", blob, position + 5)
                position += 9 + 16 * n
        for start in strings:
            part_order = "<" if blob[start] == 1 else ">"
            (n,) = struct.unpack_from(part_order + "I", blob, start + 5)
            xy = np.frombuffer(blob, dtype=part_order + "f8", count=2 * n, offset=start + 9)
            parts.append(xy.reshape(n, 2).astype(np.float64))
    return parts


@pytest.fixture(scope="session")
def chicago_streets():
    """spatstat's ``chicago`` network: 503 segments, feet."""
    return read_gpkg_lines(DATA / "spatstat_chicago.gpkg", "streets")


@pytest.fixture(scope="session")
def chicago_crimes():
    """spatstat's ``chicago`` crimes (116 points on the streets, in spatstat's order): x, y."""
    x, y, _ = read_gpkg_points(DATA / "spatstat_chicago.gpkg", "crimes", "fid")
    return x, y


@pytest.fixture(scope="session")
def snow_streets():
    """John Snow's streets (Tobler's digitisation, HistData): 528 polylines, map units of about 100 m."""
    return read_gpkg_lines(DATA / "snow_cholera.gpkg", "streets")


@pytest.fixture(scope="session")
def snow_deaths():
    """John Snow's 578 deaths: x, y."""
    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    return x, y
