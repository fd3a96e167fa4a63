"""The privacy-budget ledger: every differentially private release of a confidential data set, recorded with its
guarantee, and the totals of each data set under sequential composition (no qgis, no Qt).

In the spirit of diffprivlib's ``BudgetAccountant`` (``check`` before spending, ``spend`` to record) and OpenDP's
compositors (only guarantees under the same input metric are added), but kept in a file, so that it spans
releases made months apart, in different QGIS sessions, by concurrent runs:

* a data set is identified by a keyed fingerprint (:mod:`.ledger_fingerprint`) that reveals nothing about it;
* each release states (epsilon, delta) per neighbourhood; totals add up per neighbourhood, and guarantees under
  different neighbourhoods are only combined by the proven rules of :mod:`.ledger_composition`;
* a seeded release is recorded, flagged, and counts as epsilon = infinity: with the seed, anyone recomputes the
  noise, so the release is not private and the budget of its data set is spent;
* the steward may set a budget (epsilon, delta) per data set; every neighbourhood's total is held to it;
* the file (:mod:`.ledger_storage`) is checked line by line, written atomically under a lock, and never
  written when damaged.

How an algorithm uses it::

    ledger = Ledger(path)                       # key file: the ledger's name with .key, made on first use
    dataset = ledger.points_fingerprint(x, y)   # the coordinates as the layer stores them
    release = Release("spatialprivacy:dppoints", "kernel", dataset,
                      (Guarantee(alpha_neighbourhood(50.0, "EPSG:28992"), 1.0, 1e-6),), outputs=(path,))
    found = ledger.check(release)               # before the run: what it adds, the totals, found.exceeds
    ...                                         # compute the release into staged files
    ledger.record(release, refuse_over_budget=True)   # re-checks under the lock, then appends
    ...                                         # move the staged files into place

Recording after the computation and before the outputs are moved into place means a release whose recording
fails (the budget spent meanwhile by a concurrent run, a damaged ledger) publishes nothing, and a ledger never
misses a published release; a run that fails after recording only over-counts.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
from collections.abc import Sequence
from typing import Optional

from . import mechanisms
from .ledger_composition import (
    Budget,
    Check,
    DatasetTotals,
    Guarantee,
    Neighbourhood,
    Release,
    Total,
    add_remove_neighbourhood,
    alpha_neighbourhood,
    check,
    compose,
    counts_move_neighbourhood,
    move_neighbourhood,
    pufferfish_absolute_neighbourhood,
    pufferfish_relative_neighbourhood,
)
from .ledger_fingerprint import counts_fingerprint, key_id, points_fingerprint
from .ledger_storage import (
    LedgerBusyError,
    LedgerDamagedError,
    LedgerError,
    LedgerKeyError,
    LedgerRolledBackError,
    budget_from,
    budget_record,
    check_head,
    encode_line,
    head_file_bytes,
    head_path,
    header,
    key_file_bytes,
    locked,
    parse,
    read_bytes,
    read_head,
    read_key,
    release_from,
    release_record,
    replace_atomically,
    utc_now,
)

__all__ = [  # what the Processing layer needs, from one module
    "CSV_COLUMNS",
    "TOTAL_COLUMNS",
    "Budget",
    "BudgetExceededError",
    "Check",
    "DatasetTotals",
    "Guarantee",
    "Ledger",
    "LedgerBusyError",
    "LedgerDamagedError",
    "LedgerError",
    "LedgerKeyError",
    "LedgerRolledBackError",
    "Neighbourhood",
    "Release",
    "Total",
    "add_remove_neighbourhood",
    "alpha_neighbourhood",
    "counts_move_neighbourhood",
    "csv_text",
    "move_neighbourhood",
    "pufferfish_absolute_neighbourhood",
    "pufferfish_relative_neighbourhood",
]

#: Columns of :meth:`Ledger.rows` and of the CSV export: one row per release and neighbourhood it states.
CSV_COLUMNS = (
    "number",
    "time",
    "dataset",
    "dataset_label",
    "algorithm",
    "mechanism",
    "neighbourhood",
    "neighbourhood_parameter",
    "neighbourhood_units",
    "neighbourhood_text",
    "epsilon",
    "delta",
    "proven",
    "seeded",
    "outputs",
    "note",
)


#: Columns of :meth:`Ledger.total_rows`.
TOTAL_COLUMNS = (
    "dataset",
    "dataset_label",
    "neighbourhood",
    "neighbourhood_parameter",
    "neighbourhood_units",
    "neighbourhood_text",
    "epsilon",
    "delta",
    "releases",
    "not_covered",
    "seeded",
    "nominal",
    "budget_epsilon",
    "budget_delta",
    "exceeds",
)


class BudgetExceededError(LedgerError):
    """:meth:`Ledger.record` with ``refuse_over_budget``: the release would exceed its data set's budget; ``check``
    holds the numbers. Nothing was recorded."""

    def __init__(self, path: str, found: Check):
        super().__init__(
            path,
            f"The release would exceed the privacy budget of its data set in the ledger {path}; it was not "
            f"recorded.\n{found.describe()}",
        )
        self.check = found


class Ledger:
    """A privacy-budget ledger file and its fingerprint key.

    Args:
        path: the ledger file (JSON Lines); made by the first :meth:`record` or :meth:`set_budget`.
        key_path: the key file; default: ``path`` with its extension replaced by ``.key``. Made (readable by its
            owner only) when the first fingerprint is needed and neither it nor the ledger exists. Keep it with the
            ledger and never publish it.
        lock_timeout: seconds to wait for a concurrent run's write before :class:`LedgerBusyError`.
    """

    def __init__(self, path: str, key_path: Optional[str] = None, lock_timeout: float = 60.0):
        self.path = os.path.abspath(os.fspath(path))
        self.key_path = os.path.abspath(os.fspath(key_path)) if key_path else os.path.splitext(self.path)[0] + ".key"
        if self.key_path == self.path:
            raise LedgerKeyError(self.key_path, "The ledger key file cannot be the ledger itself.")
        self.lock_timeout = float(lock_timeout)
        self._key: Optional[bytes] = None

    # -- the key and fingerprints --------------------------------------------------------------------------------

    def key(self) -> bytes:
        """The fingerprint key: read from the key file, or made there if neither it nor the ledger exists. The
        key must be the one the ledger was made with (:class:`LedgerKeyError` otherwise: a new key would make
        every data set look new and restart its budget)."""
        if self._key is None:
            parsed = self._read()[1]
            expected = parsed[0]["key_id"] if parsed is not None else None
            key = read_key(self.key_path)
            if key is None and expected is None:
                with locked(self.key_path, self.lock_timeout):
                    key = read_key(self.key_path)  # made meanwhile by a concurrent run?
                    if key is None:
                        key = mechanisms.random_key()
                        replace_atomically(self.key_path, key_file_bytes(key), mode=0o600)
            if key is None:
                raise LedgerKeyError(
                    self.key_path,
                    f"The ledger {self.path} was made with a key (id {expected}) whose file {self.key_path} is "
                    "missing. Restore the key file (or choose it): a new key would make every data set look new.",
                )
            if expected is not None and key_id(key) != expected:
                raise LedgerKeyError(
                    self.key_path,
                    f"The key file {self.key_path} holds key {key_id(key)}, but the ledger {self.path} was made "
                    f"with key {expected}. Choose the ledger's own key file.",
                )
            self._key = key
        return self._key

    def points_fingerprint(self, x, y, values=None, *, resolution: Optional[float] = None) -> str:
        """:func:`.ledger_fingerprint.points_fingerprint` with this ledger's key."""
        return points_fingerprint(self.key(), x, y, values, resolution=resolution)

    def counts_fingerprint(self, groups: Sequence, counts) -> str:
        """:func:`.ledger_fingerprint.counts_fingerprint` with this ledger's key."""
        return counts_fingerprint(self.key(), groups, counts)

    # -- reading --------------------------------------------------------------------------------------------------

    def _read(self) -> tuple[Optional[bytes], Optional[tuple[dict, list[dict], str]]]:
        """The ledger's bytes and :func:`.ledger_storage.parse` of them (both ``None`` if there is no file), checked
        against its head file (:class:`LedgerRolledBackError` for a ledger cut back to an older version)."""
        head = read_head(self.path)  # before the ledger: a write replaces the ledger first, then its head
        data = read_bytes(self.path)
        parsed = None if data is None else parse(self.path, data)
        check_head(self.path, head, None if parsed is None else parsed[1])
        return data, parsed

    def _load(self) -> list:
        """The ledger's releases and budgets, checked; ``[]`` if there is no file."""
        parsed = self._read()[1]
        return [] if parsed is None else self._interpret(parsed[1])

    def _interpret(self, records: list[dict]) -> list:
        items = []
        for record in records:
            try:
                items.append(release_from(record) if record["record"] == "release" else budget_from(record))
            except (KeyError, TypeError, ValueError) as error:
                raise LedgerDamagedError(
                    self.path, record["number"] + 1, f"the {record['record']} record is invalid ({error!r})"
                ) from None
        return items

    @staticmethod
    def _releases(items: list, dataset: Optional[str] = None) -> list[Release]:
        return [r for r in items if isinstance(r, Release) and (dataset is None or r.dataset == dataset)]

    @staticmethod
    def _budget_for(items: list, dataset: str, budget: Optional[Budget] = None) -> Optional[Budget]:
        """``budget`` if given, else the latest budget set for ``dataset``; ``None`` if that is cleared."""
        if budget is None:
            for item in items:
                if isinstance(item, Budget) and item.dataset == dataset:
                    budget = item
        return budget if budget is not None and budget.epsilon is not None else None

    def releases(self, dataset: Optional[str] = None) -> list[Release]:
        """The recorded releases, oldest first (of ``dataset`` only, if given). Raises
        :class:`LedgerDamagedError` for a damaged file."""
        return self._releases(self._load(), dataset)

    def budgets(self) -> dict[str, Budget]:
        """The budget of each data set that has one (the latest set; a cleared budget is left out)."""
        items = self._load()
        found = {b.dataset: self._budget_for(items, b.dataset) for b in items if isinstance(b, Budget)}
        return {dataset: budget for dataset, budget in found.items() if budget is not None}

    def datasets(self) -> list[str]:
        """The fingerprints of the data sets with a release or a budget, in order of first appearance."""
        return list(dict.fromkeys(item.dataset for item in self._load()))

    def totals(self, dataset: str, budget: Optional[Budget] = None) -> DatasetTotals:
        """The totals of ``dataset`` per neighbourhood, against ``budget`` (default: the one set in the ledger)."""
        items = self._load()
        return compose(dataset, self._releases(items, dataset), self._budget_for(items, dataset, budget))

    def check(self, release: Release, budget: Optional[Budget] = None) -> Check:
        """What ``release`` would add: per neighbourhood, its cost, the totals before and after, and whether they
        exceed ``budget`` (default: the data set's budget in the ledger). Writes nothing."""
        items = self._load()
        return check(release, self._releases(items, release.dataset), self._budget_for(items, release.dataset, budget))

    # -- writing --------------------------------------------------------------------------------------------------

    def _append(self, make_record) -> dict:
        """Under the lock: read and check the ledger, build the next record with ``make_record(items, number,
        time)`` (which may raise to write nothing), append it and replace the file atomically, then its head file
        (:mod:`.ledger_storage`; a missing head file is made here)."""
        with locked(self.path, self.lock_timeout):
            data, parsed = self._read()
            if parsed is None:
                line, previous = encode_line("", header(self.key()))
                data, items = line, []
            else:
                head, records, previous = parsed
                items = self._interpret(records)
                if key_id(self.key()) != head["key_id"]:  # the file was replaced since the key was read
                    self._key = None
                    self.key()
            record = make_record(items, len(items) + 1, utc_now())
            line, digest = encode_line(previous, record)
            replace_atomically(self.path, data + line)
            replace_atomically(head_path(self.path), head_file_bytes(record["number"], digest))
            return record

    def record(self, release: Release, *, refuse_over_budget: bool = False, budget: Optional[Budget] = None) -> Release:
        """Append ``release`` (its time and number set by the ledger) and return it as recorded. With
        ``refuse_over_budget``, a release whose totals would exceed the budget (``budget``, default the data set's
        in the ledger) raises :class:`BudgetExceededError` and nothing is written; the check is made under the
        lock, so concurrent runs cannot both pass it. A damaged ledger raises :class:`LedgerDamagedError` and is
        left unchanged."""

        def make(items, number, now):
            if refuse_over_budget:
                found = check(
                    release, self._releases(items, release.dataset), self._budget_for(items, release.dataset, budget)
                )
                if found.exceeds:
                    raise BudgetExceededError(self.path, found)
            return release_record(dataclasses.replace(release, time=now, number=number))

        return release_from(self._append(make))

    def set_budget(self, dataset: str, epsilon: Optional[float], delta: float = 0.0, note: str = "") -> Budget:
        """Set (or, with ``epsilon=None``, clear) the budget of ``dataset``: every neighbourhood's total is held to
        (epsilon, delta). Recorded in the ledger like a release."""
        Budget(dataset, epsilon, delta, note)  # validates before the lock is taken

        def make(items, number, now):
            return budget_record(Budget(dataset, epsilon, delta, note, now, number))

        return budget_from(self._append(make))

    # -- export ---------------------------------------------------------------------------------------------------

    def rows(self, dataset: Optional[str] = None) -> list[dict]:
        """The releases as flat rows (:data:`CSV_COLUMNS`), one per release and neighbourhood it states: for a
        Processing algorithm that lists the ledger. ``outputs`` is a JSON list of paths."""
        rows = []
        for release in self.releases(dataset):
            for g in release.guarantees:
                n = g.neighbourhood
                rows.append(
                    {
                        "number": release.number,
                        "time": release.time,
                        "dataset": release.dataset,
                        "dataset_label": release.dataset_label,
                        "algorithm": release.algorithm,
                        "mechanism": release.mechanism,
                        "neighbourhood": n.code,
                        "neighbourhood_parameter": n.parameter,
                        "neighbourhood_units": n.units,
                        "neighbourhood_text": n.describe(),
                        "epsilon": g.epsilon,
                        "delta": g.delta,
                        "proven": g.proven,
                        "seeded": release.seeded,
                        "outputs": json.dumps(list(release.outputs), ensure_ascii=False),
                        "note": release.note,
                    }
                )
        return rows

    def total_rows(self) -> list[dict]:
        """One row per data set and neighbourhood (:data:`TOTAL_COLUMNS`): the totals, the budget and whether it is
        exceeded."""
        items = self._load()
        labels: dict[str, str] = {}
        for release in self._releases(items):
            labels[release.dataset] = release.dataset_label or labels.get(release.dataset, "")
        rows = []
        for dataset in dict.fromkeys(item.dataset for item in items):
            totals = compose(dataset, self._releases(items, dataset), self._budget_for(items, dataset))
            for t in totals.totals:
                rows.append(
                    {
                        "dataset": dataset,
                        "dataset_label": labels.get(dataset, ""),
                        "neighbourhood": t.neighbourhood.code,
                        "neighbourhood_parameter": t.neighbourhood.parameter,
                        "neighbourhood_units": t.neighbourhood.units,
                        "neighbourhood_text": t.neighbourhood.describe(),
                        "epsilon": t.epsilon,
                        "delta": t.delta,
                        "releases": len(t.counted),
                        "not_covered": len(t.not_covered),
                        "seeded": len(t.seeded),
                        "nominal": len(t.nominal),
                        "budget_epsilon": None if totals.budget is None else totals.budget.epsilon,
                        "budget_delta": None if totals.budget is None else totals.budget.delta,
                        "exceeds": t.exceeds,
                    }
                )
        return rows

    def export_csv(self, path: str, dataset: Optional[str] = None) -> int:
        """Write :meth:`rows` to the CSV file ``path`` (UTF-8, header row, replaced atomically); returns the number
        of rows."""
        rows = self.rows(dataset)
        replace_atomically(os.fspath(path), csv_text(rows).encode("utf-8"), unique=True)
        return len(rows)


def csv_text(rows: Sequence[dict], columns: Sequence[str] = CSV_COLUMNS) -> str:
    """``rows`` (:meth:`Ledger.rows` or :meth:`Ledger.total_rows`) as CSV text with a header row."""
    stream = io.StringIO(newline="")
    writer = csv.DictWriter(stream, fieldnames=list(columns), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return stream.getvalue()
