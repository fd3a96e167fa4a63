"""core.previews.sweep: the LGCP synthesis preview of the privacy explorer (risk against pMSE per setting)."""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path

import numpy as np
import pytest

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.mechanisms import generator
from spatial_privacy.core.previews.sweep import sweep_preview

DATA = Path(__file__).resolve().parent.parent / "data"


def snow_deaths():
    """John Snow's 578 deaths, read from the GeoPackage's point blobs (header, then little-endian WKB x, y)."""
    with sqlite3.connect(DATA / "snow_cholera.gpkg") as con:
        blobs = [row[0] for row in con.execute("SELECT geom FROM deaths ORDER BY fid")]
    xy = []
    for blob in blobs:
        flags = blob[3]
        envelope = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}[(flags >> 1) & 7]
        wkb = blob[8 + envelope :]
        xy.append(struct.unpack("<dd", wkb[5:21]) if wkb[0] == 1 else struct.unpack(">dd", wkb[5:21]))
    xy = np.array(xy)
    return xy[:, 0], xy[:, 1]


def test_bad_settings_are_refused_before_the_fit():
    x, y = snow_deaths()
    seen = []
    with pytest.raises(ParameterError) as error:
        sweep_preview(x, y, generator(1), progress=lambda f, m="": seen.append(f))
    assert error.value.parameter == "specs" and not seen  # nothing fitted
    with pytest.raises(ParameterError) as error:
        sweep_preview(x, y, generator(1), radii=(1.0,), risk_radius=100.0, progress=lambda f, m="": seen.append(f))
    assert error.value.parameter == "risk_radius"  # wider than the window: refused before the fit


def test_each_setting_is_handed_over_as_it_finishes_and_the_recommendation_follows_the_threshold():
    x, y = snow_deaths()
    assert x.size == 578
    handed = []
    preview = sweep_preview(
        x, y, generator(3), radii=(0.5,), prs_sets=1, risk_radius=0.1, max_risk=0.05, on_point=handed.append
    )
    assert handed == preview.points and [p.method for p in handed] == ["radial", "prs"]
    assert all(0 <= p.max_risk <= 1 and p.pmse >= 0 for p in handed)
    assert 0 < preview.baseline_max < 1
    ok = [i for i, p in enumerate(preview.points) if p.max_risk <= 0.05]
    assert preview.recommended == (min(ok, key=lambda i: preview.points[i].pmse) if ok else None)
