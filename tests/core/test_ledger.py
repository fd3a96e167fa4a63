"""The privacy-budget ledger (core.ledger and its modules): composition arithmetic, what composes with what,
budgets, fingerprints, concurrent writers and damaged files."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from spatial_privacy.core import ledger_storage, mechanisms
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.ledger import (
    CSV_COLUMNS,
    BudgetExceededError,
    Ledger,
    LedgerBusyError,
    LedgerDamagedError,
    LedgerError,
    LedgerKeyError,
    LedgerRolledBackError,
)
from spatial_privacy.core.ledger_composition import (
    ALPHA_NETWORK,
    Budget,
    Guarantee,
    Neighbourhood,
    Release,
    add_remove_neighbourhood,
    alpha_neighbourhood,
    check,
    compose,
    counts_move_neighbourhood,
    move_neighbourhood,
    pufferfish_absolute_neighbourhood,
    pufferfish_relative_neighbourhood,
)
from spatial_privacy.core.ledger_fingerprint import counts_fingerprint, is_fingerprint, key_id, points_fingerprint

DATA = "d" * 64  # a data set's fingerprint, for the arithmetic tests
KEY = bytes(range(32))


def release(*guarantees, dataset=DATA, seeded=False, number=0, mechanism="kernel"):
    return Release("spatialprivacy:test", mechanism, dataset, guarantees, seeded=seeded, number=number)


def alpha(a, epsilon, delta=0.0, units="EPSG:28992"):
    return Guarantee(alpha_neighbourhood(a, units), epsilon, delta)


def totals_by_code(totals):
    return {(t.neighbourhood.code, t.neighbourhood.parameter, t.neighbourhood.units): t for t in totals.totals}


# -- composition arithmetic -----------------------------------------------------------------------------------------


def test_epsilons_and_deltas_add_up_under_one_neighbourhood():
    """Basic sequential composition: ten releases of (0.1, 1e-7) are (1, 1e-6); the sums are exactly rounded, so a
    budget of exactly 1 is met, not exceeded, and an eleventh release exceeds it."""
    ten = [release(alpha(50, 0.1, 1e-7), number=i) for i in range(1, 11)]
    budget = Budget(DATA, 1.0, 1e-6)
    (total,) = compose(DATA, ten, budget).totals
    assert (total.epsilon, total.delta) == (1.0, pytest.approx(1e-6, rel=1e-12))
    assert total.counted == tuple(range(1, 11)) and not total.exceeds and total.not_covered == ()
    found = check(release(alpha(50, 0.1, 1e-7)), ten, budget)
    assert found.before.totals[0].epsilon == 1.0 and found.after.totals[0].epsilon == pytest.approx(1.1)
    assert found.adds == ((alpha_neighbourhood(50, "EPSG:28992"), (0.1, 1e-7)),)
    assert found.exceeds and "exceed the budget" in found.describe()
    # a delta over budget exceeds too; releases of other data sets do not count
    assert check(release(alpha(50, 0.0, 2e-6)), [], budget).exceeds
    other = release(alpha(50, 5.0), dataset="e" * 64)
    assert compose(DATA, [*ten, other]).totals[0].epsilon == 1.0


def test_an_alpha_guarantee_covers_every_smaller_alpha_and_no_larger_one():
    """Kim & Lim's alpha-neighbours for alpha 50 are alpha-neighbours for 100: releases with alpha 50 and 100 add
    up under alpha 50; under alpha 100 the alpha-50 release proves nothing and is listed as not covered."""
    releases = [release(alpha(50, 1.0, 1e-6), number=1), release(alpha(100, 0.5, 1e-6), number=2)]
    totals = totals_by_code(compose(DATA, releases))
    at50, at100 = totals[("alpha", 50.0, "EPSG:28992")], totals[("alpha", 100.0, "EPSG:28992")]
    assert (at50.epsilon, at50.delta, at50.counted, at50.not_covered) == (1.5, 2e-6, (1, 2), ())
    assert (at100.epsilon, at100.counted, at100.not_covered) == (0.5, (2,), (1,))
    # alphas in other units do not compare
    other_units = [releases[0], release(alpha(100, 0.5, units="EPSG:4326"), number=2)]
    assert all(len(t.counted) == 1 for t in compose(DATA, other_units).totals)


def test_moving_a_point_any_distance_covers_every_alpha_and_add_remove_converts_to_it():
    """The Laplace method's guarantee for every alpha counts under any alpha-neighbourhood; an add/remove guarantee
    (epsilon, delta) counts as (2 epsilon, (1 + e^epsilon) delta) when a point moves (remove, then add), and
    nothing converts a moved point into an added one."""
    laplace = release(Guarantee(move_neighbourhood(), 0.8), Guarantee(add_remove_neighbourhood(), 0.5), number=1)
    kernel = release(alpha(50, 1.0, 1e-6), number=2)
    added = release(Guarantee(add_remove_neighbourhood(), 0.3, 1e-7), number=3)
    totals = totals_by_code(compose(DATA, [laplace, kernel, added]))
    at50 = totals[("alpha", 50.0, "EPSG:28992")]
    assert at50.epsilon == pytest.approx(0.8 + 1.0 + 0.6)
    assert at50.delta == pytest.approx(1e-6 + (1 + math.exp(0.3)) * 1e-7)
    move = totals[("move", None, "")]
    assert move.counted == (1, 3) and move.not_covered == (2,) and move.epsilon == pytest.approx(1.4)
    add_remove = totals[("add-remove", None, "")]
    assert add_remove.counted == (1, 3) and add_remove.not_covered == (2,) and add_remove.epsilon == pytest.approx(0.8)
    # a release counts with the smallest epsilon any of its guarantees proves: here 2 x 0.3 for a move, not 0.8
    sharper = release(Guarantee(move_neighbourhood(), 0.8), Guarantee(add_remove_neighbourhood(), 0.3))
    assert sharper.implied(move_neighbourhood()) == (0.6, 0.0)


def network_alpha(a, epsilon, delta=0.0, units="EPSG:28992"):
    return Guarantee(Neighbourhood(ALPHA_NETWORK, a, units), epsilon, delta, proven=False)


def test_the_network_alpha_is_covered_by_a_move_by_add_remove_and_by_larger_network_alphas():
    """The network LGCP's neighbourhood (one point moved by at most alpha along the network) is a move, so a
    Laplace release (one point moved any distance, epsilon 1) and an LGCP release (epsilon 1) total 2 there and
    exceed a budget of 1; an add/remove guarantee counts as (2 epsilon, (1 + e^epsilon) delta); network alphas 100
    and 50 add up under 50 (2 > budget 1.5), while under 100 the alpha-50 release proves nothing."""
    laplace = release(Guarantee(move_neighbourhood(), 1.0), Guarantee(add_remove_neighbourhood(), 1.0), number=1)
    found = check(release(network_alpha(100, 1.0, 1e-6)), [laplace], Budget(DATA, 1.0, 1e-5))
    at100 = totals_by_code(found.after)[(ALPHA_NETWORK, 100.0, "EPSG:28992")]
    assert (at100.epsilon, at100.counted, at100.not_covered) == (2.0, (1, 0), ()) and found.exceeds
    added = release(Guarantee(add_remove_neighbourhood(), 0.5, 1e-7), number=1)
    assert added.implied(Neighbourhood(ALPHA_NETWORK, 10.0, "m")) == (1.0, pytest.approx((1 + math.exp(0.5)) * 1e-7))

    wide, narrow = release(network_alpha(100, 1.0), number=1), release(network_alpha(50, 1.0), number=2)
    found = check(narrow, [wide], Budget(DATA, 1.5))
    totals = totals_by_code(found.after)
    assert found.exceeds and totals[(ALPHA_NETWORK, 50.0, "EPSG:28992")].epsilon == 2.0
    assert totals[(ALPHA_NETWORK, 100.0, "EPSG:28992")].not_covered == (2,)
    # other units do not compare, and nothing converts a network move into one point moved any distance or added
    assert release(network_alpha(100, 1.0, units="EPSG:4326")).implied(narrow.guarantees[0].neighbourhood) is None
    assert wide.implied(move_neighbourhood()) is None and wide.implied(add_remove_neighbourhood()) is None
    with pytest.raises(ParameterError):
        Neighbourhood(ALPHA_NETWORK, None, "m")


def test_planar_and_network_alphas_are_never_connected():
    """The points are snapped to the network first: a planar move by alpha can be a network move of any length,
    and a network move by alpha moves the snapped position, not the data's own; neither covers the other, even for
    the same alpha and units."""
    planar, network = release(alpha(100, 1.0), number=1), release(network_alpha(100, 1.0), number=2)
    assert planar.implied(network.guarantees[0].neighbourhood) is None
    assert network.implied(planar.guarantees[0].neighbourhood) is None
    totals = totals_by_code(compose(DATA, [planar, network]))
    assert totals[("alpha", 100.0, "EPSG:28992")].not_covered == (2,)
    assert totals[(ALPHA_NETWORK, 100.0, "EPSG:28992")].not_covered == (1,)


def test_different_neighbourhoods_are_reported_apart_and_never_added():
    """A grid release (Pufferfish secrets about a value) and a point release (a moved location) of the same records
    prove nothing under each other's neighbourhood: two totals, each listing the other release as not covered."""
    grid = release(Guarantee(pufferfish_absolute_neighbourhood(5.0, "production"), 1.0), number=1, mechanism="grid")
    points = release(alpha(50, 2.0), number=2)
    totals = compose(DATA, [grid, points])
    by_code = totals_by_code(totals)
    assert by_code[("pufferfish-absolute", 5.0, "production")].epsilon == 1.0
    assert by_code[("pufferfish-absolute", 5.0, "production")].not_covered == (2,)
    assert by_code[("alpha", 50.0, "EPSG:28992")].epsilon == 2.0
    assert by_code[("alpha", 50.0, "EPSG:28992")].not_covered == (1,)
    assert "not added to each other" in totals.describe()
    # counts and custom neighbourhoods add up only with themselves
    counts = [release(Guarantee(counts_move_neighbourhood(), 0.5), number=i) for i in (1, 2)]
    assert [t.epsilon for t in compose(DATA, counts).totals] == [1.0]
    custom = [
        release(Guarantee(Neighbourhood("network-alpha", 10.0, "m"), 1.0), number=1),
        release(Guarantee(Neighbourhood("network-alpha", 20.0, "m"), 1.0), number=2),
    ]
    assert [t.counted for t in compose(DATA, custom).totals] == [(1,), (2,)]


def test_pufferfish_secrets_nest_by_interval_and_stay_apart_by_attribute():
    """Half-width c = 5 covers c = 2 (the secret pairs for c are values less than 4c apart): grid releases add up
    under the smaller interval; relative factor k = 0.8 covers k = 0.9; absolute and relative secrets, and secrets
    about two attributes, are different secrets."""
    wide = release(Guarantee(pufferfish_absolute_neighbourhood(5.0, "production"), 1.0), number=1)
    narrow = release(Guarantee(pufferfish_absolute_neighbourhood(2.0, "production"), 0.5), number=2)
    by_code = totals_by_code(compose(DATA, [wide, narrow]))
    assert by_code[("pufferfish-absolute", 2.0, "production")].epsilon == 1.5
    assert by_code[("pufferfish-absolute", 5.0, "production")].not_covered == (2,)
    loose = release(Guarantee(pufferfish_relative_neighbourhood(0.8, "production"), 1.0), number=3)
    tight = release(Guarantee(pufferfish_relative_neighbourhood(0.9, "production"), 0.5), number=4)
    by_code = totals_by_code(compose(DATA, [wide, loose, tight]))
    assert by_code[("pufferfish-relative", 0.9, "production")].counted == (3, 4)
    assert by_code[("pufferfish-relative", 0.8, "production")].counted == (3,)
    assert by_code[("pufferfish-absolute", 5.0, "production")].not_covered == (3, 4)
    employees = release(Guarantee(pufferfish_absolute_neighbourhood(5.0, "employees"), 1.0), number=5)
    assert all(len(t.counted) == 1 for t in compose(DATA, [wide, employees]).totals)


def test_a_seeded_release_spends_the_whole_budget_under_every_neighbourhood():
    """With the seed anyone recomputes the noise: a seeded release counts as epsilon = infinity under every
    neighbourhood of its data set, including ones it states nothing about, and exceeds any budget."""
    grid = release(Guarantee(pufferfish_absolute_neighbourhood(5.0), 0.1), number=1)
    seeded = release(alpha(50, 0.1), seeded=True, number=2)
    totals = compose(DATA, [grid, seeded], Budget(DATA, 1000.0, 0.5))
    assert all(math.isinf(t.epsilon) and t.seeded == (2,) and t.exceeds for t in totals.totals)
    found = check(release(alpha(50, 0.1), seeded=True), [], None)
    assert math.isinf(found.after.totals[0].epsilon) and not found.exceeds  # no budget: reported, not refused
    assert "NOT a private release" in found.describe()


def test_nominal_guarantees_are_counted_and_named():
    lgcp = release(Guarantee(alpha_neighbourhood(50, "EPSG:28992"), 1.0, 1e-6, proven=False), number=1)
    (total,) = compose(DATA, [lgcp, release(alpha(50, 1.0), number=2)]).totals
    assert total.epsilon == 2.0 and total.nominal == (1,) and "nominal" in total.describe()


@pytest.mark.parametrize(
    "make",
    [
        lambda: Guarantee(move_neighbourhood(), -0.1),
        lambda: Guarantee(move_neighbourhood(), math.inf),
        lambda: Guarantee(move_neighbourhood(), 1.0, 1.5),
        lambda: Guarantee(move_neighbourhood(), "1"),
        lambda: alpha_neighbourhood(0.0),
        lambda: pufferfish_relative_neighbourhood(1.0),
        lambda: Neighbourhood("move", 3.0),
        lambda: Neighbourhood(""),
        lambda: Budget(DATA, -1.0),
        lambda: release(),
    ],
)
def test_bad_guarantees_are_refused(make):
    with pytest.raises(ParameterError):
        make()


# -- fingerprints ---------------------------------------------------------------------------------------------------


def test_a_fingerprint_does_not_depend_on_the_order_or_the_types(enterprise_arrays):
    x, y, t = enterprise_arrays
    first = points_fingerprint(KEY, x, y)
    order = np.random.default_rng(3).permutation(len(x))
    assert points_fingerprint(KEY, x[order], y[order]) == first
    assert points_fingerprint(KEY, list(x), list(y)) == first
    assert points_fingerprint(KEY, x, y, t) == points_fingerprint(KEY, x[order], y[order], t[order]) != first
    assert points_fingerprint(KEY, [0.0, 1.0], [2, 3]) == points_fingerprint(KEY, [-0.0, 1.0], [2.0, 3.0])
    assert points_fingerprint(KEY, [0, 1], [2, 3], [np.nan, 1]) == points_fingerprint(KEY, [0, 1], [2, 3], [-np.nan, 1])
    assert counts_fingerprint(KEY, ["b", "a"], [4, 3]) == counts_fingerprint(KEY, ["a", "b"], [3.0, 4.0])


def test_any_change_of_the_data_changes_the_fingerprint(enterprise_arrays):
    x, y, t = enterprise_arrays
    first = points_fingerprint(KEY, x, y, t)
    moved = x.copy()
    moved[17] = np.nextafter(moved[17], np.inf)  # one point moved by one unit in the last place
    assert points_fingerprint(KEY, moved, y, t) != first
    changed = t.copy()
    changed[5] += 1
    assert points_fingerprint(KEY, x, y, changed) != first
    assert points_fingerprint(KEY, x[1:], y[1:], t[1:]) != first
    assert counts_fingerprint(KEY, ["a", "b"], [3, 4]) != counts_fingerprint(KEY, ["a", "b"], [4, 3])
    # a resolution ignores what is below it, and not what is above
    assert points_fingerprint(KEY, [100.2], [5.0], resolution=1.0) == points_fingerprint(
        KEY, [100.3], [5.0], resolution=1.0
    )
    assert points_fingerprint(KEY, [100.2], [5.0], resolution=1.0) != points_fingerprint(
        KEY, [101.2], [5.0], resolution=1.0
    )
    assert points_fingerprint(KEY, [100.0], [5.0], resolution=1.0) != points_fingerprint(KEY, [100.0], [5.0])
    # kinds of data never collide: a table of counts is not a point set with the same numbers
    assert counts_fingerprint(KEY, [1.0, 2.0], [3, 4]) != points_fingerprint(KEY, [1.0, 2.0], [3, 4])
    assert counts_fingerprint(KEY, ["1"], [3]) != counts_fingerprint(KEY, [1], [3])


def test_a_fingerprint_is_a_fixed_length_keyed_hash(enterprise_arrays):
    """64 hex digits whatever the size of the data; another key gives an unrelated value, so without the key
    nothing about the data can be tested."""
    x, y, _ = enterprise_arrays
    small = points_fingerprint(KEY, x[:1], y[:1])
    large = points_fingerprint(KEY, np.tile(x, 100), np.tile(y, 100))
    assert is_fingerprint(small) and is_fingerprint(large)
    other_key = bytes(reversed(KEY))
    assert points_fingerprint(other_key, x, y) != points_fingerprint(KEY, x, y)
    assert len(key_id(KEY)) == 16 and key_id(KEY) != key_id(other_key)
    with pytest.raises(ValueError):
        points_fingerprint(KEY[:16], x, y)
    with pytest.raises(ValueError, match="same length"):
        points_fingerprint(KEY, x, y[:-1])
    with pytest.raises(ValueError, match="unique"):
        counts_fingerprint(KEY, ["a", "a"], [1, 2])


def test_the_key_comes_from_the_mechanisms_module_and_differs_each_time():
    keys = {mechanisms.random_key() for _ in range(4)}
    assert len(keys) == 4 and all(len(k) == 32 for k in keys)
    assert len(mechanisms.random_key(48)) == 48
    with pytest.raises(ValueError):
        mechanisms.random_key(8)


# -- the ledger file ------------------------------------------------------------------------------------------------


@pytest.fixture
def ledger(tmp_path):
    return Ledger(str(tmp_path / "ledger.jsonl"))


def points_release(ledger, epsilon=0.5, **kwargs):
    dataset = ledger.points_fingerprint(np.arange(5.0), np.arange(5.0) * 2)
    return Release(
        "spatialprivacy:dppoints",
        "kernel",
        dataset,
        (Guarantee(alpha_neighbourhood(50, "EPSG:28992"), epsilon, 1e-6),),
        outputs=("/out/points.gpkg",),
        **kwargs,
    )


def test_releases_are_recorded_read_back_and_exported(ledger, tmp_path, enterprise_arrays):
    first = ledger.record(points_release(ledger, note="first", dataset_label="enterprises"))
    laplace = Release(
        "spatialprivacy:dppoints",
        "laplace",
        first.dataset,
        (Guarantee(move_neighbourhood(), 0.8), Guarantee(add_remove_neighbourhood(), 0.4)),
        seeded=True,
    )
    second = ledger.record(laplace)
    assert (first.number, second.number) == (1, 2) and first.time.endswith("Z") and first.time <= second.time
    assert ledger.releases() == [first, second] and ledger.datasets() == [first.dataset]
    assert ledger.key_path == str(tmp_path / "ledger.key")
    if os.name == "posix":
        assert os.stat(ledger.key_path).st_mode & 0o077 == 0  # the key is its owner's alone
    rows = ledger.rows()
    assert len(rows) == 3 and [r["seeded"] for r in rows] == [False, True, True]
    assert json.loads(rows[0]["outputs"]) == ["/out/points.gpkg"] and rows[0]["note"] == "first"
    target = tmp_path / "ledger.csv"
    target.write_text("an old export", encoding="utf-8")
    assert ledger.export_csv(str(target)) == 3
    with open(target, newline="", encoding="utf-8") as stream:
        read = list(csv.DictReader(stream))
    assert tuple(read[0]) == CSV_COLUMNS and [r["mechanism"] for r in read] == ["kernel", "laplace", "laplace"]
    assert read[1]["neighbourhood"] == "move" and float(read[2]["epsilon"]) == 0.4
    totals = {r["neighbourhood"]: r for r in ledger.total_rows()}
    assert math.isinf(totals["alpha"]["epsilon"]) and totals["alpha"]["dataset_label"] == "enterprises"
    # the ledger holds no trace of the data, only its keyed fingerprint
    x, y, _ = enterprise_arrays
    enterprises = ledger.record(
        Release(
            "spatialprivacy:pufferfishgrid",
            "mean",
            ledger.points_fingerprint(x, y),
            (Guarantee(move_neighbourhood(), 1.0),),
        )
    )
    text = (tmp_path / "ledger.jsonl").read_text(encoding="utf-8")
    assert enterprises.dataset in text
    assert not any(repr(v) in text or f"{v:.2f}" in text for v in (*x[:20], *y[:20]))


def test_a_budget_refuses_a_release_that_would_exceed_it(ledger):
    release = points_release(ledger)
    ledger.set_budget(release.dataset, 1.0, 1e-5, note="agreed with the data owner")
    ledger.record(release, refuse_over_budget=True)
    ledger.record(release, refuse_over_budget=True)  # 0.5 + 0.5 = 1.0: the budget is met, not exceeded
    before = open(ledger.path, "rb").read()
    assert ledger.check(release).exceeds
    with pytest.raises(BudgetExceededError, match="exceed the privacy budget") as refused:
        ledger.record(release, refuse_over_budget=True)
    assert refused.value.check.after.totals[0].epsilon == 1.5
    assert open(ledger.path, "rb").read() == before
    # warning, not refusing, is the caller's choice: the release is recorded and the totals say so
    ledger.record(release)
    assert ledger.totals(release.dataset).exceeds
    assert not ledger.check(release, budget=Budget(release.dataset, 10.0, 1e-3)).exceeds
    ledger.set_budget(release.dataset, None)  # cleared
    assert not ledger.totals(release.dataset).exceeds and ledger.budgets() == {}
    ledger.set_budget(release.dataset, 3.0)
    assert ledger.budgets()[release.dataset].epsilon == 3.0


_WORKER = r"""
import os, sys, time
import numpy as np
from spatial_privacy.core.ledger import BudgetExceededError, Ledger
from spatial_privacy.core.ledger_composition import Guarantee, Release, alpha_neighbourhood

path, go, worker, count, refuse = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
while not os.path.exists(go):
    time.sleep(0.001)
ledger = Ledger(path)
dataset = ledger.points_fingerprint(np.arange(5.0), np.arange(5.0))
recorded = refused = 0
for i in range(count):
    guarantee = Guarantee(alpha_neighbourhood(10.0), 0.5, 0.0)
    try:
        entry = Release("test:worker", "w", dataset, (guarantee,), note=f"{worker}-{i}")
        ledger.check(entry)  # a read without the lock, while the others write
        ledger.record(entry, refuse_over_budget=refuse)
        recorded += 1
    except BudgetExceededError:
        refused += 1
print(dataset, recorded, refused)
"""


def run_workers(tmp_path, workers, count, refuse=False, before=None):
    path, go = str(tmp_path / "ledger.jsonl"), str(tmp_path / "go")
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, path, go, str(w), str(count), "1" if refuse else "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    if before is not None:
        before(Ledger(path))
    time.sleep(0.3)  # let the interpreters start, so that they begin together
    open(go, "w").close()
    outputs = [p.communicate(timeout=300) for p in processes]
    assert all(p.returncode == 0 for p in processes), [err for _, err in outputs]
    return [line.split() for line, _ in outputs], Ledger(path)


def test_concurrent_processes_append_without_losing_or_corrupting_a_release(tmp_path):
    """8 processes x 25 releases, all started together on a ledger (and key) that does not exist yet: 200 valid,
    consecutively numbered releases, every worker's 25 among them, and one key (one fingerprint) for all."""
    results, ledger = run_workers(tmp_path, 8, 25)
    assert len({dataset for dataset, _, _ in results}) == 1
    releases = ledger.releases()
    assert [r.number for r in releases] == list(range(1, 201))
    assert sorted(r.note for r in releases) == sorted(f"{w}-{i}" for w in range(8) for i in range(25))
    assert ledger.totals(releases[0].dataset).totals[0].epsilon == 100.0
    last = json.loads(open(ledger.path, "rb").read().splitlines()[-1])
    assert ledger_storage.read_head(ledger.path) == (200, last["checksum"])


def test_concurrent_processes_cannot_overspend_a_budget(tmp_path):
    """The budget check is made under the lock: 4 processes x 6 releases of epsilon 0.5 against a budget of 5
    record exactly 10 releases and refuse 14."""

    def set_budget(ledger):
        ledger.set_budget(ledger.points_fingerprint(np.arange(5.0), np.arange(5.0)), 5.0)

    results, ledger = run_workers(tmp_path, 4, 6, refuse=True, before=set_budget)
    assert sum(int(r) for _, r, _ in results) == 10 and sum(int(f) for _, _, f in results) == 14
    assert ledger.totals(results[0][0]).totals[0].epsilon == 5.0


def test_concurrent_threads_append_without_losing_a_release(ledger):
    release = points_release(ledger)

    def work(worker):
        mine = Ledger(ledger.path)
        for i in range(10):
            mine.record(
                Release(release.algorithm, release.mechanism, release.dataset, release.guarantees, note=f"{worker}-{i}")
            )

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(work, range(8)))
    releases = ledger.releases()
    assert [r.number for r in releases] == list(range(1, 81)) and len({r.note for r in releases}) == 80


def test_a_held_lock_makes_a_writer_wait_then_give_up_naming_the_lock(ledger):
    release = points_release(ledger)
    ledger.record(release)
    before = open(ledger.path, "rb").read()
    with ledger_storage.locked(ledger.path, 1.0):
        waiting = Ledger(ledger.path, lock_timeout=0.2)
        with pytest.raises(LedgerBusyError, match=r"\.ledger\.jsonl\.lock"):
            waiting.record(release)
    assert open(ledger.path, "rb").read() == before
    ledger.record(release)  # the lock went with the block
    assert len(ledger.releases()) == 2


def test_a_failed_write_leaves_the_ledger_as_it_was(ledger, monkeypatch):
    release = points_release(ledger)
    ledger.record(release)
    before = open(ledger.path, "rb").read()

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ledger_storage.os, "replace", full_disk)
    with pytest.raises(LedgerError, match="No space left"):
        ledger.record(release)
    monkeypatch.undo()
    assert open(ledger.path, "rb").read() == before
    assert not [name for name in os.listdir(os.path.dirname(ledger.path)) if name.endswith(".writing")]


def _edit_epsilon(lines):
    lines[1] = lines[1].replace(b'"epsilon":0.5', b'"epsilon":0.1')
    return lines


def _newer_version(lines):
    head = json.loads(lines[0])
    head["version"] = 2
    lines[0] = json.dumps(head).encode()
    return lines


@pytest.mark.parametrize(
    "damage, line, words",
    [
        (lambda data: data[:-20], 4, "incomplete"),
        (lambda data: b"\n".join(_edit_epsilon(data.split(b"\n"))), 2, "checksum does not match"),
        (lambda data: b"\n".join(_newer_version(data.split(b"\n"))), 1, "version 2 is not known"),
        (lambda data: b"\n".join(data.split(b"\n")[:1] + data.split(b"\n")[2:]), 2, "numbered 2, not 1"),
        (lambda data: data.replace(b"{", b"[", 1), 1, "not valid JSON"),
        (lambda data: b"", 1, "empty"),
        (lambda data: b"number,epsilon\n1,0.5\n", 1, "not valid JSON"),
    ],
    ids=["truncated", "edited", "newer-version", "line-removed", "not-json", "empty", "a-csv-file"],
)
def test_a_damaged_ledger_is_named_and_never_written(ledger, damage, line, words):
    release = points_release(ledger)
    for _ in range(3):
        ledger.record(release)
    damaged = damage(open(ledger.path, "rb").read())
    with open(ledger.path, "wb") as stream:
        stream.write(damaged)
    fresh = Ledger(ledger.path)
    for attempt in (
        fresh.releases,
        lambda: fresh.totals(release.dataset),
        lambda: fresh.check(release),
        lambda: fresh.record(release),
        lambda: fresh.set_budget(release.dataset, 10.0),
        lambda: fresh.export_csv(ledger.path + ".csv"),
    ):
        with pytest.raises(LedgerDamagedError) as error:
            attempt()
        assert error.value.line == line and words in str(error.value) and ledger.path in str(error.value)
        assert "left unchanged" in str(error.value)
    assert open(ledger.path, "rb").read() == damaged
    assert not os.path.exists(ledger.path + ".csv")


def test_a_missing_or_foreign_key_is_refused_and_never_replaced(ledger, tmp_path):
    """A new key would make every data set look new and restart its budget: a ledger whose key file is missing
    or holds another key refuses to fingerprint or record, and no key is made in its place."""
    release = points_release(ledger)
    ledger.record(release)
    before = open(ledger.path, "rb").read()
    other = Ledger(str(tmp_path / "other.jsonl"))
    other.record(points_release(other))
    foreign = Ledger(ledger.path, key_path=other.key_path)
    with pytest.raises(LedgerKeyError, match="made with key"):
        foreign.points_fingerprint([1.0], [2.0])
    with pytest.raises(LedgerKeyError):
        foreign.record(release)
    os.remove(ledger.key_path)
    lost = Ledger(ledger.path)
    with pytest.raises(LedgerKeyError, match="missing"):
        lost.points_fingerprint([1.0], [2.0])
    with pytest.raises(LedgerKeyError, match="missing"):
        lost.record(release)
    assert not os.path.exists(ledger.key_path) and open(ledger.path, "rb").read() == before
    with open(ledger.key_path, "w", encoding="utf-8") as stream:
        stream.write("not a key")
    with pytest.raises(LedgerKeyError, match="damaged"):
        Ledger(ledger.path).points_fingerprint([1.0], [2.0])
    assert open(ledger.key_path, encoding="utf-8").read() == "not a key"


def test_without_file_locks_an_exclusive_folder_takes_their_place(ledger, monkeypatch):
    """Some network mounts offer no locks: the ledger then locks with a folder only one run can make, removed at
    the end; one left by a killed run makes a writer give up, naming it."""
    from spatial_privacy.core.file_locks import NoLockingError

    def no_locks(fd):
        raise NoLockingError("locks not supported")

    monkeypatch.setattr(ledger_storage, "try_lock", no_locks)
    release = points_release(ledger)
    ledger.record(release)
    lock_folder = os.path.join(os.path.dirname(ledger.path), ".ledger.jsonl.lock.d")
    assert len(ledger.releases()) == 1 and not os.path.exists(lock_folder)
    os.mkdir(lock_folder)
    with pytest.raises(LedgerBusyError, match="remove that folder"):
        Ledger(ledger.path, lock_timeout=0.1).record(release)
    assert len(ledger.releases()) == 1


def _ledger_lines(path):
    with open(path, "rb") as stream:
        return stream.read()


def test_a_ledger_cut_back_to_an_older_version_is_refused_until_the_newer_is_restored(ledger):
    """Every prefix of a valid chain is valid, so only the head file tells a restored backup (or lines cut from the
    end) from the latest ledger: it is refused, named, with the number of records missing and what to do; the
    newer file restored, it works again; the head file removed, the steward's rollback is accepted."""
    release = points_release(ledger)
    ledger.record(release)
    ledger.record(release)
    backup = _ledger_lines(ledger.path)
    ledger.record(release)
    newest = _ledger_lines(ledger.path)
    head_file = ledger_storage.head_path(ledger.path)
    for older in (backup, b"".join(newest.splitlines(keepends=True)[:2])):
        with open(ledger.path, "wb") as stream:
            stream.write(older)
        fresh = Ledger(ledger.path)
        for attempt in (
            fresh.releases,
            lambda fresh=fresh: fresh.totals(release.dataset),
            lambda fresh=fresh: fresh.check(release),
            lambda fresh=fresh: fresh.record(release),
            lambda fresh=fresh: fresh.set_budget(release.dataset, 10.0),
            lambda fresh=fresh: fresh.export_csv(ledger.path + ".csv"),
            lambda: Ledger(ledger.path).points_fingerprint([1.0], [2.0]),
        ):
            with pytest.raises(LedgerRolledBackError) as error:
                attempt()
            assert isinstance(error.value, LedgerDamagedError)
            text = str(error.value)
            missing = 3 - (len(older.splitlines()) - 1)
            assert ledger.path in text and f"{missing} record(s) are missing" in text and head_file in text
            assert "Restore the newer ledger file" in text
        assert _ledger_lines(ledger.path) == older and not os.path.exists(ledger.path + ".csv")
    with open(ledger.path, "wb") as stream:
        stream.write(newest)
    assert len(Ledger(ledger.path).releases()) == 3
    # the steward means it: the head file removed, the older version is accepted and carries on from there
    with open(ledger.path, "wb") as stream:
        stream.write(backup)
    os.remove(head_file)
    assert Ledger(ledger.path).record(release).number == 3


def test_a_ledger_replaced_or_removed_behind_its_head_file_is_refused(ledger, tmp_path):
    """Another version of the same length (or longer) whose record at the head's number is not the head's, and a
    ledger deleted while its head file stays, are refused too; nothing is written."""
    release = points_release(ledger)
    ledger.record(release)
    ledger.record(release)
    forked = Ledger(str(tmp_path / "fork.jsonl"), key_path=ledger.key_path)
    for note in ("a", "b", "c"):
        forked.record(dataclasses.replace(release, note=note))
    other = _ledger_lines(forked.path)
    with open(ledger.path, "wb") as stream:
        stream.write(other)
    with pytest.raises(LedgerRolledBackError, match="another version of the ledger replaced it"):
        Ledger(ledger.path).record(release)
    assert _ledger_lines(ledger.path) == other
    os.remove(ledger.path)
    with pytest.raises(LedgerRolledBackError, match=r"the file is missing, but its head file records 2 record"):
        Ledger(ledger.path).record(release)
    assert not os.path.exists(ledger.path)


def test_a_missing_head_file_is_accepted_and_made_again_by_the_next_write(ledger):
    """Ledgers from before the head file (or copied without it) are read as they are; the next write makes the
    head file, and from then on a cut-back version is refused. A damaged head file is named, never overwritten."""
    release = points_release(ledger)
    ledger.record(release)
    ledger.record(release)
    head_file = ledger_storage.head_path(ledger.path)
    assert os.path.basename(head_file) == ".ledger.jsonl.head"
    os.remove(head_file)
    assert len(Ledger(ledger.path).releases()) == 2 and not os.path.exists(head_file)
    Ledger(ledger.path).record(release)
    last = json.loads(_ledger_lines(ledger.path).splitlines()[-1])
    assert ledger_storage.read_head(ledger.path) == (3, last["checksum"])
    with open(head_file, "w", encoding="utf-8") as stream:
        stream.write("not a head")
    with pytest.raises(LedgerError, match="head file .* is damaged") as error:
        Ledger(ledger.path).record(release)
    assert head_file in str(error.value) and len(_ledger_lines(ledger.path).splitlines()) == 4
    assert open(head_file, encoding="utf-8").read() == "not a head"
