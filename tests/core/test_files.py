"""core.files: writing a file so that a failure leaves nothing half-written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spatial_privacy.core.files import replaced_when_done, staged_writes


def test_reports_and_rasters_replace_the_old_file_only_when_complete(tmp_path):
    """Reports, rasters and model files are written beside their target and moved onto it at the end: a write
    that fails half-way (a full disk) keeps the file that was there and leaves no partial file."""
    target = tmp_path / "report.html"
    target.write_text("the previous report", encoding="utf-8")
    with pytest.raises(OSError):
        with replaced_when_done(str(target)) as partial:
            assert Path(partial).name == "report.html" and Path(partial).parent.parent == tmp_path
            Path(partial).write_text("half a rep", encoding="utf-8")
            raise OSError(28, "No space left on device")
    assert target.read_text(encoding="utf-8") == "the previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
    with replaced_when_done(str(target)) as partial:
        Path(partial).write_text("the new report", encoding="utf-8")
    assert target.read_text(encoding="utf-8") == "the new report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_a_run_moves_its_files_only_when_all_are_written(tmp_path):
    """Inside staged_writes every file (and every staged folder) waits for the end of the run: a failure in the
    second output leaves the first output's target as it was, and nothing staged behind."""
    report, model = tmp_path / "report.html", tmp_path / "model.npz"
    report.write_text("old report", encoding="utf-8")
    model.write_bytes(b"old model")
    with pytest.raises(OSError):
        with staged_writes():
            with replaced_when_done(str(report)) as partial:
                Path(partial).write_text("new report", encoding="utf-8")
            assert report.read_text(encoding="utf-8") == "old report"  # complete, but not moved yet
            with replaced_when_done(str(model)) as partial:
                Path(partial).write_bytes(b"half a mod")
                raise OSError(28, "No space left on device")
    assert report.read_text(encoding="utf-8") == "old report" and model.read_bytes() == b"old model"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.npz", "report.html"]
    with staged_writes():
        with replaced_when_done(str(report)) as partial:
            Path(partial).write_text("new report", encoding="utf-8")
        with replaced_when_done(str(model)) as partial:
            Path(partial).write_bytes(b"new model")
    assert report.read_text(encoding="utf-8") == "new report" and model.read_bytes() == b"new model"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.npz", "report.html"]


def test_a_staged_folder_moves_every_file_and_drops_stale_side_files(tmp_path):
    """A layer format writes several files (a Shapefile's .shp, .shx, .dbf...): all of them move onto the
    targets, and a side file of the old layer that the new one does not have (an old spatial index) goes."""
    for name in ("pub.shp", "pub.dbf", "pub.qix"):
        (tmp_path / name).write_bytes(b"old")
    with staged_writes() as writes:
        folder = Path(writes.folder_beside(str(tmp_path), stale=(str(tmp_path / "pub.qix"),)))
        assert folder.parent == tmp_path and folder.name.startswith(".")
        for name in ("pub.shp", "pub.shx", "pub.dbf"):
            (folder / name).write_bytes(b"new")
        assert (tmp_path / "pub.shp").read_bytes() == b"old"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {
        n: b"new" for n in ("pub.shp", "pub.shx", "pub.dbf")
    }


def test_a_staged_database_still_open_at_the_end_is_not_moved(tmp_path):
    """SQLite keeps a -journal (or -wal) file beside an open GeoPackage: moving it then would publish a file
    that is still being written, so the run fails and the target stays."""
    (tmp_path / "out.gpkg").write_bytes(b"old")
    with pytest.raises(OSError, match="still open"):
        with staged_writes() as writes:
            folder = Path(writes.folder_beside(str(tmp_path)))
            (folder / "out.gpkg").write_bytes(b"new")
            (folder / "out.gpkg-journal").write_bytes(b"")
    assert [p.name for p in tmp_path.iterdir()] == ["out.gpkg"] and (tmp_path / "out.gpkg").read_bytes() == b"old"


def test_a_move_that_fails_during_the_commit_puts_every_target_back(tmp_path, monkeypatch):
    """The commit sets the old files aside before it moves the new ones in: if a move fails half-way (on
    Windows, a file open in another program), the files already replaced are restored, and nothing staged or
    set aside is left."""
    from spatial_privacy.core import files

    for name in ("map.gpkg", "report.html"):
        (tmp_path / name).write_text(f"old {name}", encoding="utf-8")
    real_replace = os.replace

    def locked(source, target):
        if str(target).endswith("report.html") and Path(source).parent.name.startswith(".spatial_privacy-partial-"):
            raise PermissionError(13, "Permission denied", str(target))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", locked)
    with pytest.raises(OSError, match=r"Permission denied \(.*report\.html\)"):
        with staged_writes() as writes:
            folder = Path(writes.folder_beside(str(tmp_path)))
            (folder / "map.gpkg").write_text("new map", encoding="utf-8")
            with replaced_when_done(str(tmp_path / "report.html")) as partial:
                Path(partial).write_text("new report", encoding="utf-8")
    assert {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()} == {
        "map.gpkg": "old map.gpkg",
        "report.html": "old report.html",
    }


def test_a_failing_step_before_the_moves_leaves_every_target_and_nothing_staged(tmp_path):
    """``before_moving`` runs once the staged files are closed (to label a confidential GeoPackage): it sees the
    staged file, and if it fails the commit fails, the old target stays and nothing staged is left."""
    (tmp_path / "risk.gpkg").write_bytes(b"old")
    seen = []

    def label_fails(path):
        seen.append(Path(path).read_bytes())
        raise OSError(5, "could not be labelled", str(path))

    with pytest.raises(OSError, match="could not be labelled"):
        with staged_writes() as writes:
            folder = Path(writes.folder_beside(str(tmp_path)))
            (folder / "risk.gpkg").write_bytes(b"new")
            writes.before_moving.append(lambda: label_fails(folder / "risk.gpkg"))
    assert seen == [b"new"]
    assert [p.name for p in tmp_path.iterdir()] == ["risk.gpkg"] and (tmp_path / "risk.gpkg").read_bytes() == b"old"


def test_a_side_file_of_the_old_target_goes_unless_the_new_write_makes_one(tmp_path):
    """GDAL keeps statistics in ``grid.tif.aux.xml``: the old raster's must not stay beside a new raster that
    has none, and a new one replaces it."""
    target, aux = tmp_path / "grid.tif", tmp_path / "grid.tif.aux.xml"
    target.write_bytes(b"old")
    aux.write_bytes(b"old statistics")
    with replaced_when_done(str(target), stale=(str(aux),)) as partial:
        Path(partial).write_bytes(b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grid.tif"] and target.read_bytes() == b"new"
    with replaced_when_done(str(target), stale=(str(aux),)) as partial:
        Path(partial).write_bytes(b"newer")
        Path(partial + ".aux.xml").write_bytes(b"new statistics")
    assert aux.read_bytes() == b"new statistics" and target.read_bytes() == b"newer"


def test_folders_made_for_a_failed_run_are_removed_but_not_those_that_hold_other_files(tmp_path):
    """make_folders remembers the folders it created; a failed run removes them, innermost first, as far as
    they are empty (another program may have put a file in one meanwhile); a successful run keeps them."""
    deep, other = tmp_path / "a" / "b" / "c", tmp_path / "a" / "keep.txt"
    with pytest.raises(OSError):
        with staged_writes() as writes:
            writes.make_folders(str(deep))
            assert deep.is_dir()
            with replaced_when_done(str(deep / "report.html")) as partial:
                Path(partial).write_text("half", encoding="utf-8")
            other.write_text("not ours", encoding="utf-8")
            raise OSError(28, "No space left on device")
    assert not (tmp_path / "a" / "b").exists() and other.exists()
    with staged_writes() as writes:
        writes.make_folders(str(deep))
        with replaced_when_done(str(deep / "report.html")) as partial:
            Path(partial).write_text("whole", encoding="utf-8")
    assert (deep / "report.html").read_text(encoding="utf-8") == "whole"


def test_failure_steps_run_when_the_run_fails_and_do_not_hide_its_error(tmp_path):
    """Steps for outputs written in place run when the run fails (not when it succeeds); one that fails itself
    does not replace the run's own error, and the others still run."""
    done = []

    def broken():
        raise OSError("cannot label")

    with pytest.raises(ValueError, match="the run's own error"):
        with staged_writes() as writes:
            writes.on_failure += [broken, lambda: done.append("labelled")]
            raise ValueError("the run's own error")
    assert done == ["labelled"]
    with staged_writes() as writes:
        writes.on_failure.append(lambda: done.append("again"))
    assert done == ["labelled"]


KILLED_RUN = """
import os, sys
from pathlib import Path
from spatial_privacy.core.files import staged_writes, replaced_when_done

with staged_writes():
    with replaced_when_done(sys.argv[1]) as partial:
        Path(partial).write_text("a confidential model", encoding="utf-8")
    print(Path(partial).parent, flush=True)
    os._exit(9)  # killed outright (SIGTERM, a crash): no cleanup runs
"""


def test_a_staging_folder_left_by_a_killed_run_is_removed_by_the_next_run_but_a_live_one_is_kept(tmp_path):
    """A run killed outright leaves its hidden staging folder (which may hold a confidential output) beside the
    target; the next run writing to that folder removes it. A folder whose run is still going is left alone."""
    import subprocess
    import sys

    target = tmp_path / "model.npz"
    done = subprocess.run([sys.executable, "-c", KILLED_RUN, str(target)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    left = Path(done.stdout.strip())
    lock = tmp_path / left.name.replace(".spatial_privacy-partial-", ".spatial_privacy-lock-")
    assert left.parent == tmp_path and (left / "model.npz").exists() and lock.exists()
    assert not target.exists()
    # what is not a killed run's: a file a dead commit set aside (whatever its name) and a lock file whose folder
    # is not made yet (its run is starting)
    aside = tmp_path / ".spatial_privacy-partial-old-0-notes.lock"
    aside.write_text("the user's old file", encoding="utf-8")
    starting = tmp_path / ".spatial_privacy-lock-starting"
    starting.write_bytes(b"")
    with staged_writes():
        with replaced_when_done(str(tmp_path / "other.html")) as live:
            Path(live).write_text("a live run's report", encoding="utf-8")
            assert not left.exists() and not lock.exists()  # the killed run's leftovers went
            assert aside.exists() and starting.exists()
            with replaced_when_done(str(target)) as partial:  # a second write while the first is staged
                Path(partial).write_text("the new model", encoding="utf-8")
                assert Path(live).exists()  # the live staging folder was not taken for abandoned
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([aside.name, starting.name, "model.npz", "other.html"])
