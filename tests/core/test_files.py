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


# --- a commit killed during its moves ------------------------------------------------------------------------------
# A pufferfishgrid-like run over existing files: a layer and a confidential layer staged as folders, a raster with an
# old side file the new one lacks, a report, and a new file in a second folder. The child counts the file-system steps
# of the commit (renames and removals) and is killed outright (SIGKILL) before step KILL_AT, or pauses there.
COMMIT_KILLED_AT = r"""
import os, signal, sys
from pathlib import Path
from spatial_privacy.core.files import staged_writes, replaced_when_done

folder, kill_at, pause_at, fail = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "fail"
steps = [0]


def counted(real):
    def step(*args):
        if steps[0] == kill_at:
            os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
        if steps[0] == pause_at:
            print("paused", flush=True)
            sys.stdin.readline()
        steps[0] += 1
        moving_in = real.__name__ == "replace" and Path(args[0]).parent.name.startswith(".spatial_privacy-partial-")
        if fail and moving_in and str(args[1]).endswith("report.html"):  # a target open in another program
            raise PermissionError(13, "Permission denied", str(args[1]))
        return real(*args)

    return step


try:
    with staged_writes() as writes:
        layer = Path(writes.folder_beside(str(folder)))
        (layer / "out.gpkg").write_text("new out", encoding="utf-8")
        with replaced_when_done(str(folder / "grid.tif"), stale=(str(folder / "grid.tif.aux.xml"),)) as partial:
            Path(partial).write_text("new grid", encoding="utf-8")
        with replaced_when_done(str(folder / "report.html")) as partial:
            Path(partial).write_text("new report", encoding="utf-8")
        confidential = Path(writes.folder_beside(str(folder)))
        (confidential / "confidential.gpkg").write_text("new confidential", encoding="utf-8")
        with replaced_when_done(str(folder / "sub" / "extra.csv")) as partial:
            Path(partial).write_text("new extra", encoding="utf-8")
        os.replace, os.remove = counted(os.replace), counted(os.remove)
except PermissionError:
    pass
print(steps[0], flush=True)
"""

OLD = {
    "out.gpkg": "old out",
    "grid.tif": "old grid",
    "grid.tif.aux.xml": "old grid statistics",
    "report.html": "old report",
    "confidential.gpkg": "OLD CONFIDENTIAL",
}
NEW = {
    "out.gpkg": "new out",
    "grid.tif": "new grid",
    "report.html": "new report",
    "confidential.gpkg": "new confidential",
    "sub/extra.csv": "new extra",
}


def _old_files(folder: Path) -> None:
    (folder / "sub").mkdir(parents=True)
    for name, text in OLD.items():
        (folder / name).write_text(text, encoding="utf-8")


def _files(folder: Path) -> dict[str, str]:
    """Every file under ``folder``, hidden ones too, with its text (empty lock files included)."""
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _commit(folder: Path, kill_at: int = -1, pause_at: int = -1, fail: bool = False, **popen):
    import subprocess
    import sys

    command = [sys.executable, "-c", COMMIT_KILLED_AT, str(folder), str(kill_at), str(pause_at), str(fail and "fail")]
    if popen:
        return subprocess.Popen(command, text=True, **popen)
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def _steps_of_a_whole_commit(tmp_path: Path, fail: bool = False) -> int:
    folder = tmp_path / "whole"
    _old_files(folder)
    done = _commit(folder, fail=fail)
    assert done.returncode == 0, done.stderr
    assert _files(folder) == (OLD if fail else NEW)  # nothing hidden left by a whole commit or a failed one
    return int(done.stdout.split()[-1])


def _next_run_in(folder: Path) -> None:
    """A later run that writes other files into both folders: staging there recovers first."""
    with staged_writes():
        for name in ("next.txt", "sub/next.txt"):
            with replaced_when_done(str(folder / name)) as partial:
                Path(partial).write_text("next run", encoding="utf-8")


@pytest.mark.parametrize("fail", [False, True], ids=["commit", "commit failing on a locked target"])
def test_a_commit_killed_at_any_step_is_finished_or_undone_by_the_next_run(tmp_path, fail):
    """Killed (SIGKILL) before each rename or removal of the commit, in turn: the next run staging into those folders
    (or recover() on them, in either order, as the plugin may call at start) leaves every target all new or all
    old as a set, no hidden staged, set-aside, journal or lock file, and the old confidential output nowhere."""
    from spatial_privacy.core.files import recover

    total = _steps_of_a_whole_commit(tmp_path, fail)
    assert total >= 10  # the journal, the old files set aside, the new ones moved in, the set-aside ones removed
    outcomes = set()
    for kill_at in range(total):  # each way of recovering in turn (a subprocess each: about 0.1 s)
        how = ("next run", "recover", "recover sub first")[kill_at % 3]
        folder = tmp_path / f"{how}-{kill_at}"
        _old_files(folder)
        done = _commit(folder, kill_at=kill_at, fail=fail)
        assert done.returncode != 0, f"step {kill_at}: not killed"
        if how == "next run":
            _next_run_in(folder)
        else:
            order = (folder, folder / "sub") if how == "recover" else (folder / "sub", folder)
            for one in order:
                recover(str(one))
        after = _files(folder)
        after.pop("next.txt", None), after.pop("sub/next.txt", None)
        assert after in (OLD, NEW), f"killed at step {kill_at}, then {how}: {after}"
        assert not any(".spatial_privacy" in p for p in _files(folder)), (kill_at, how)
        assert after == OLD or "OLD CONFIDENTIAL" not in _files(folder).values()
        outcomes.add(after == NEW)
    assert outcomes == {True, False}  # some kills came before the commit point, some after


def test_a_killed_commit_whose_new_file_is_lost_is_undone(tmp_path):
    """When a staged file of a dead commit is gone (removed by hand), the commit cannot be finished: the old files
    come back, all of them."""
    from spatial_privacy.core import files

    folder = tmp_path / "lost"
    _old_files(folder)
    # 2 journal copies written, 5 old files set aside, 2 of the 5 new files moved in
    assert _commit(folder, kill_at=9).returncode != 0
    staged = [p for p in folder.rglob("*") if p.is_file() and p.parent.name.startswith(".spatial_privacy-partial-")]
    assert len(staged) == 3 and (folder / "out.gpkg").read_text(encoding="utf-8") == "new out"
    staged[0].unlink()
    messages = files.recover(str(folder)) + files.recover(str(folder / "sub"))
    assert _files(folder) == OLD
    assert len(messages) == 1 and "undone" in messages[0] and "report.html" in messages[0]


def test_a_live_run_s_commit_is_never_touched(tmp_path):
    """A run paused in the middle of its commit (it holds its lock) keeps its journal, staged and set-aside files
    while other runs stage into the same folders and recover() runs there; then it completes."""
    import subprocess

    from spatial_privacy.core.files import recover

    # paused with the journal written; with 2 of 5 new files moved in; removing the set-aside old files
    for pause_at in (2, 9, 14):
        folder = tmp_path / f"live-{pause_at}"
        _old_files(folder)
        child = _commit(folder, pause_at=pause_at, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        try:
            assert child.stdout.readline().strip() == "paused"
            before = _files(folder)
            assert any(".spatial_privacy-journal-" in p for p in before)
            assert recover(str(folder)) == [] and recover(str(folder / "sub")) == []
            _next_run_in(folder)
            after = _files(folder)
            assert after.pop("next.txt") == "next run" and after.pop("sub/next.txt") == "next run"
            assert after == before
            child.stdin.write("\n")
            child.stdin.flush()
            assert child.wait(timeout=60) == 0
        finally:
            child.kill()
        after = _files(folder)
        after.pop("next.txt"), after.pop("sub/next.txt")
        assert after == NEW


def test_an_unreadable_journal_is_left_alone_and_logged(tmp_path, caplog):
    """A journal damaged by hand is not guessed at: it stays, a log line names it, and runs still write there."""
    from spatial_privacy.core.files import recover

    journal = tmp_path / ".spatial_privacy-journal-abc.json"
    journal.write_text("{not json", encoding="utf-8")
    with caplog.at_level("WARNING"):
        assert recover(str(tmp_path)) == []
    assert journal.exists() and str(journal) in caplog.text
    with replaced_when_done(str(tmp_path / "report.html")) as partial:
        Path(partial).write_text("new", encoding="utf-8")
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == "new"


def test_a_lock_file_left_without_its_folder_goes_once_its_run_is_known_dead(tmp_path):
    """A run writes into its lock file before removing its staging folder: if it is killed in between, the lock file
    is a dead run's and the next run removes it. An empty one is a starting run's (the lock file comes before the
    folder) and stays, unless it is too old for that."""
    import time

    from spatial_privacy.core.file_locks import STARTING_SECONDS
    from spatial_privacy.core.files import recover

    released, starting, stale = (tmp_path / f".spatial_privacy-lock-{name}" for name in ("released", "starting", "old"))
    released.write_bytes(b"released\n")
    starting.write_bytes(b"")
    stale.write_bytes(b"")
    long_ago = time.time() - 2 * STARTING_SECONDS
    os.utime(stale, (long_ago, long_ago))
    recover(str(tmp_path))
    assert [p.name for p in tmp_path.iterdir()] == [starting.name]


def test_an_output_that_is_a_folder_replaces_the_old_one_whole(tmp_path):
    """Some formats write a folder (a FileGDB's ``.gdb``): the old folder is set aside and removed like a file."""
    old = tmp_path / "layers.gdb"
    old.mkdir()
    (old / "a0000001.gdbtable").write_text("old", encoding="utf-8")
    (tmp_path / "report.html").write_text("old report", encoding="utf-8")
    with staged_writes() as writes:
        folder = Path(writes.folder_beside(str(tmp_path)))
        (folder / "layers.gdb").mkdir()
        (folder / "layers.gdb" / "a0000009.gdbtable").write_text("new", encoding="utf-8")
        with replaced_when_done(str(tmp_path / "report.html")) as partial:
            Path(partial).write_text("new report", encoding="utf-8")
    assert _files(tmp_path) == {"layers.gdb/a0000009.gdbtable": "new", "report.html": "new report"}


def test_a_write_failing_in_the_staging_names_the_users_file_or_folder_not_the_hidden_one(tmp_path):
    """A file staged in ``<folder>/.spatial_privacy-partial-<id>/<name>`` stands for ``<folder>/<name>``, and a lock
    file or staging folder for its folder: messages show those (visible_path). A folder where no file can be
    created fails naming that folder, not the lock file the staging tried to make in it."""
    from spatial_privacy.core.files import visible_path

    target = tmp_path / "report.html"
    with pytest.raises(OSError) as error:
        with replaced_when_done(str(target)) as partial:
            os.mkdir(partial)
            open(partial, "w").close()  # fails, naming the staged path
    assert ".spatial_privacy-partial-" in error.value.filename
    assert visible_path(error.value.filename) == str(target)
    assert visible_path(str(tmp_path / ".spatial_privacy-lock-abc")) == str(tmp_path)
    assert visible_path(str(tmp_path / ".spatial_privacy-partial-abc")) == str(tmp_path)
    assert visible_path(str(target)) == str(target)
    missing = tmp_path / "gone"
    with pytest.raises(OSError) as error:
        with replaced_when_done(str(missing / "x.gpkg")):
            pass
    assert error.value.filename == str(missing) and ".spatial_privacy" not in str(error.value)


# --- journals that do not have the shape a commit writes: recovery must not follow them ------------------------------

_JOURNAL = ".spatial_privacy-journal-y.json"
_STAGING = ".spatial_privacy-partial-y"
_PLANTED = {  # journal file name -> its moves, copies and staging folders (paths as _encode writes them)
    "a staged file moved onto a file outside": (
        _JOURNAL,
        {"moves": [["payload", "../home/.bashrc", None]], "copies": [_JOURNAL], "staging": [_STAGING]},
    ),
    "a folder outside removed as a staging folder": (
        ".spatial_privacy-journal-z.json",
        {"moves": [], "copies": ["../elsewhere/x.json"], "staging": ["../victim"]},
    ),
    "an absolute target": (
        _JOURNAL,
        {"moves": [[f"{_STAGING}/.bashrc", "HOME/.bashrc", None]], "copies": [_JOURNAL], "staging": [_STAGING]},
    ),
    "a staged path outside the staging folders": (
        _JOURNAL,
        {"moves": [["../elsewhere/secret.txt", "secret.txt", None]], "copies": [_JOURNAL], "staging": [_STAGING]},
    ),
    "a set-aside file with a foreign name": (
        _JOURNAL,
        {"moves": [[None, "report.html", "keep.txt"]], "copies": [_JOURNAL], "staging": [_STAGING]},
    ),
    "a set-aside file outside": (
        _JOURNAL,
        {"moves": [[None, "report.html", "../home/.bashrc"]], "copies": [_JOURNAL], "staging": [_STAGING]},
    ),
    "a staging folder outside every copy's folder": (
        _JOURNAL,
        {"moves": [], "copies": [_JOURNAL], "staging": [_STAGING, "../elsewhere/.spatial_privacy-partial-q"]},
    ),
    "a folder listed where no copy of the journal is": (
        _JOURNAL,
        {
            "moves": [[None, "../home/.bashrc", None]],
            "copies": [_JOURNAL, f"../home/{_JOURNAL}"],
            "staging": [_STAGING, "../home/.spatial_privacy-partial-z"],
        },
    ),
}


def _tree(folder: Path) -> dict[str, object]:
    """Every file (with its bytes), folder and link under ``folder``."""
    tree: dict[str, object] = {}
    for p in sorted(folder.rglob("*")):
        name = p.relative_to(folder).as_posix()
        tree[name] = os.readlink(p) if p.is_symlink() else "folder" if p.is_dir() else p.read_bytes()
    return tree


def _planted_layout(tmp_path: Path) -> Path:
    """A project folder beside other folders of the user's, with files a planted journal might aim at."""
    project = tmp_path / "proj"
    for folder in ("proj", "home", "victim", "elsewhere", "elsewhere/.spatial_privacy-partial-q", "proj/" + _STAGING):
        (tmp_path / folder).mkdir()
    for name, text in {
        "home/.bashrc": "the user's settings",
        "victim/data.txt": "kept",
        "elsewhere/secret.txt": "stays here",
        "elsewhere/.spatial_privacy-partial-q/out.gpkg": "another run's",
        "proj/payload": "payload",
        "proj/keep.txt": "kept",
        "proj/report.html": "old report",
        f"proj/{_STAGING}/.bashrc": "payload",
    }.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return project


@pytest.mark.parametrize("case", list(_PLANTED))
def test_a_journal_whose_paths_a_commit_does_not_write_is_left_alone(tmp_path, case, caplog):
    """Recovery at plugin start follows the journals in the project folders: one that aims outside the folders and
    names a commit writes (a path outside, absolute or with ``..``, a foreign set-aside name, a staging folder where
    no copy is, a folder it lists without a copy of it there) is refused and logged, and nothing is touched."""
    import json

    from spatial_privacy.core.files import recover

    project = _planted_layout(tmp_path)
    name, lists = _PLANTED[case]
    lists = json.loads(json.dumps(lists).replace("HOME", (tmp_path / "home").as_posix()))
    (project / name).write_text(json.dumps({"format": 1, "rolling_back": False, **lists}), encoding="utf-8")
    before = _tree(tmp_path)
    with caplog.at_level("WARNING"):
        assert recover(str(project)) == []
    assert _tree(tmp_path) == before
    assert str(project / name) in caplog.text


def _valid_journal(project: Path) -> Path:
    """A journal as a commit killed before its moves leaves it: its staged report.html replaces the old one."""
    import json

    journal = project / _JOURNAL
    moves = [[f"{_STAGING}/report.html", "report.html", ".spatial_privacy-partial-old-y-0"]]
    data = {"format": 1, "rolling_back": False, "moves": moves, "copies": [_JOURNAL], "staging": [_STAGING]}
    journal.write_text(json.dumps(data), encoding="utf-8")
    (project / _STAGING / "report.html").write_text("new report", encoding="utf-8")
    return journal


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a file to another user needs root")
def test_a_journal_of_another_user_is_left_alone(tmp_path):
    """In a shared folder another user could leave a journal: only the current user's journals are followed."""
    from spatial_privacy.core.files import recover

    project = _planted_layout(tmp_path)
    journal = _valid_journal(project)
    os.chown(journal, 4321, 4321)
    before = _tree(tmp_path)
    assert recover(str(project)) == []
    assert _tree(tmp_path) == before
    os.chown(journal, os.getuid(), os.getgid())  # the same journal, the user's: the commit is finished
    assert len(recover(str(project))) == 1
    assert (project / "report.html").read_text(encoding="utf-8") == "new report" and not journal.exists()


@pytest.mark.skipif(os.name == "nt", reason="links need privileges on Windows")
@pytest.mark.parametrize("with_journal", [True, False], ids=["a dead commit's lock", "an abandoned staging's lock"])
def test_a_lock_file_that_is_a_link_is_not_written_through(tmp_path, with_journal):
    """Recovery writes into a dead run's lock file before removing its folder: a link planted under a lock file's
    name must not make it write into the file the link points to."""
    from spatial_privacy.core.files import recover

    project = _planted_layout(tmp_path)
    if with_journal:
        _valid_journal(project)
    (project / ".spatial_privacy-lock-y").symlink_to(tmp_path / "home" / ".bashrc")
    recover(str(project))
    assert (tmp_path / "home" / ".bashrc").read_text(encoding="utf-8") == "the user's settings"
