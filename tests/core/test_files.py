"""core.files: writing a file so that a failure leaves nothing half-written."""

from __future__ import annotations

from pathlib import Path

import pytest

from spatial_privacy.core.files import replaced_when_done


def test_reports_and_rasters_replace_the_old_file_only_when_complete(tmp_path):
    """Reports, rasters and model files are written beside their target and moved onto it at the end: a write
    that fails half-way (a full disk) keeps the file that was there and leaves no partial file."""
    target = tmp_path / "report.html"
    target.write_text("the previous report", encoding="utf-8")
    with pytest.raises(OSError):
        with replaced_when_done(str(target)) as partial:
            assert partial.endswith(".html") and Path(partial).parent == tmp_path
            Path(partial).write_text("half a rep", encoding="utf-8")
            raise OSError(28, "No space left on device")
    assert target.read_text(encoding="utf-8") == "the previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
    with replaced_when_done(str(target)) as partial:
        Path(partial).write_text("the new report", encoding="utf-8")
    assert target.read_text(encoding="utf-8") == "the new report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
