"""The privacy-budget ledger in Processing (core.ledger): the parameters every differentially private release
algorithm shares, the check before its run and the record before its outputs are committed.

An algorithm adds the parameters in ``initAlgorithm`` and states its release in ``process`` once the guarantee is
known and before the costly work::

    add_ledger_parameters(self)                                  # in initAlgorithm
    ...
    dataset = points_dataset(self, parameters, context, self.INPUT, points)   # in process, after make_rng
    check_release(self, parameters, context, feedback, "kernel", guarantees, dataset, not_private=lost)

A run that loses its guarantee (a fixed SEED, bounds or a window from the data: ``alg.not_private``) is recorded
flagged and counts as ε = ∞, whether that is known at the check or only later in the run.

:meth:`.algorithm.SpatialPrivacyAlgorithm.processAlgorithm` then records the release (:func:`record_release`) after
``process`` has returned and before the staged outputs move onto their targets, so a record that is refused (a
concurrent run spent the budget meanwhile) or fails (a damaged ledger) publishes nothing; the report gets the
check's section from :meth:`~.algorithm.SpatialPrivacyAlgorithm.ledger_report`.

The ledger file is the one given in LEDGER or, by default, ``<project folder>/<project name>.privacy-ledger.jsonl``
beside the saved QGIS project; with neither, no ledger is kept and the log says so. Its key file (the ledger's name
with ``.key``) is made with the first record and must never be published: with it, anyone holding a candidate data
set can test whether it is the one recorded.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Optional

from qgis.core import (
    QgsFeatureRequest,
    QgsGeometryCollection,
    QgsProcessingException,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
)

from ..compat import FILE_BEHAVIOR_FILE, NUMBER_DOUBLE, SOURCE_SKIP_GEOMETRY_CHECKS
from ..i18n import tr
from .destinations import names_folder
from .parameters import given

if TYPE_CHECKING:  # the core's ledger needs numpy, which the plugin must load without (it then says so)
    from ..core.ledger import Check, Ledger, Release

LEDGER = "LEDGER"
BUDGET_EPSILON = "BUDGET_EPSILON"
BUDGET_DELTA = "BUDGET_DELTA"
REFUSE_OVER_BUDGET = "REFUSE_OVER_BUDGET"
#: The default ledger's name after the project's: ``<project name>.privacy-ledger.jsonl`` in the project's folder.
LEDGER_SUFFIX = ".privacy-ledger.jsonl"
#: Coordinates are fingerprinted rounded to this many CRS units, so that a copy of the layer that differs in the
#: last bits (a round trip through a text format) is the same data set; moving a point by less is not a change.
FINGERPRINT_RESOLUTION = 1e-6
#: The dataset field of a release not yet fingerprinted (a ledger made by its first record).
_UNKNOWN = "0" * 64


def ledger_file_filter() -> str:
    return tr("Privacy-budget ledgers (*.jsonl);;All files (*)")


def add_ledger_parameters(alg) -> None:
    """The advanced parameters LEDGER, BUDGET_EPSILON, BUDGET_DELTA and REFUSE_OVER_BUDGET, with their help."""
    alg.add(
        QgsProcessingParameterFile(
            LEDGER,
            tr("Privacy-budget ledger"),
            behavior=FILE_BEHAVIOR_FILE,
            extension="",
            defaultValue=None,
            optional=True,
            fileFilter=ledger_file_filter(),
        ),
        tr(
            "The ledger file this release is recorded in, with its ε, δ and neighbourhood, against a keyed "
            "fingerprint of the confidential data (which reveals nothing about it); made by the first release. "
            "Before the run the log states what the release adds and the total of the data set under sequential "
            "composition. Empty: <project folder>/<project name>{0} beside the saved QGIS project; with no saved "
            "project no ledger is kept (the log says so). The key file beside it (same name, .key) must never be "
            "published. List it with spatialprivacy:privacyledger."
        ).format(LEDGER_SUFFIX),
        advanced=True,
    )
    alg.add(
        QgsProcessingParameterNumber(
            BUDGET_EPSILON, tr("Privacy budget ε of the data set"), NUMBER_DOUBLE, None, True, 0.0
        ),
        tr(
            "The largest total ε the data set may reach under each neighbourhood, this release included. Empty: "
            "the budget set in the ledger for this data set (spatialprivacy:privacyledger), if any. Over budget, "
            "the run warns, or refuses with {0}."
        ).format(REFUSE_OVER_BUDGET),
        advanced=True,
    )
    alg.add(
        QgsProcessingParameterNumber(
            BUDGET_DELTA, tr("Privacy budget δ of the data set"), NUMBER_DOUBLE, None, True, 0.0, 1.0
        ),
        tr("The largest total δ, with {0}. Empty: 0, so any release with δ > 0 exceeds the budget.").format(
            BUDGET_EPSILON
        ),
        advanced=True,
    )
    alg.add(
        QgsProcessingParameterBoolean(REFUSE_OVER_BUDGET, tr("Refuse a release over budget"), False),
        tr(
            "Refuse the run, writing nothing, when the release would take a total over the budget ({0}, or the "
            "one set in the ledger); otherwise the log warns. The ledger checks again under its lock when it "
            "records the release, so two runs started together cannot both pass."
        ).format(BUDGET_EPSILON),
        advanced=True,
    )


def has_ledger(alg) -> bool:
    """Whether ``alg`` has the ledger parameters (:func:`add_ledger_parameters`)."""
    return alg.parameterDefinition(LEDGER) is not None


def ledger_parameter_problem(alg, parameters, context) -> Optional[str]:
    """What is wrong with the ledger parameters, before every run: a LEDGER that is a folder, BUDGET_DELTA without
    BUDGET_EPSILON, a budget that is not a finite number."""
    path = alg.parameterAsFile(parameters, LEDGER, context) if given(parameters, LEDGER) else ""
    if path and names_folder(path):
        return tr("{0}: {1} is a folder; give the ledger's file (e.g. {2}).").format(
            LEDGER, path, os.path.join(path, "releases" + LEDGER_SUFFIX)
        )
    if given(parameters, BUDGET_DELTA) and not given(parameters, BUDGET_EPSILON):
        return tr("{0}: a δ budget needs an ε budget too; give {1} as well.").format(BUDGET_DELTA, BUDGET_EPSILON)
    if given(parameters, BUDGET_EPSILON):
        epsilon = alg.parameterAsDouble(parameters, BUDGET_EPSILON, context)
        if not (math.isfinite(epsilon) and epsilon >= 0):
            return tr("{0}: the budget must be a finite number ≥ 0, got {1}.").format(BUDGET_EPSILON, epsilon)
    return None


def default_ledger_path(context) -> Optional[str]:
    """``<project folder>/<project name>.privacy-ledger.jsonl`` beside the context's saved project, or ``None``
    (no project, a project never saved, or one kept in a database or GeoPackage, which has no folder)."""
    project = context.project() if context is not None else None
    if project is None or not project.fileName() or not project.absolutePath() or not project.baseName():
        return None
    return os.path.join(project.absolutePath(), project.baseName() + LEDGER_SUFFIX)


def ledger_path(alg, parameters, context) -> Optional[str]:
    """The ledger file of this run: LEDGER, else the project's default, else ``None``."""
    if given(parameters, LEDGER):
        path = alg.parameterAsFile(parameters, LEDGER, context)
        if path:
            return os.path.abspath(path)
    return default_ledger_path(context)


def ledger_error(error: ValueError, parameter: str = LEDGER) -> QgsProcessingException:
    """A core ledger error as a message naming the parameter (the core's message names the file)."""
    return QgsProcessingException(f"{parameter}: {error}")


# -- what identifies the confidential data set ------------------------------------------------------------------


def points_dataset(alg, parameters, context, input_name: str, points) -> Callable[[Ledger], str]:
    """The fingerprint of the points of ``input_name`` (locations only, as the layer stores them: in its own CRS,
    before any reprojection into the working CRS), computed only when a ledger is kept. ``points`` is the
    ``inputs.PointValues`` the run read; the layer is read again only when it was reprojected."""

    def fingerprint(ledger: Ledger) -> str:
        import numpy as np

        if points.work_crs == points.source_crs:
            x, y = np.asarray(points.x, dtype=float), np.asarray(points.y, dtype=float)
        else:
            x, y = _stored_coordinates(alg, parameters, context, input_name)
        try:
            return ledger.points_fingerprint(x, y, resolution=FINGERPRINT_RESOLUTION)
        except ValueError:  # coordinates too large for the rounding: their exact doubles
            return ledger.points_fingerprint(x, y)

    return fingerprint


def _stored_coordinates(alg, parameters, context, input_name: str):
    """The coordinates of every point of ``input_name`` in the layer's own CRS (the run refused any feature that
    is not one point, so these are the points it used)."""
    import numpy as np

    source = alg.parameterAsSource(parameters, input_name, context)
    xs, ys = [], []
    for feature in source.getFeatures(QgsFeatureRequest().setNoAttributes()):
        geometry = feature.geometry()
        if geometry.isNull() or geometry.isEmpty():
            continue
        point = geometry.constGet()
        if isinstance(point, QgsGeometryCollection):
            point = point.geometryN(0)
        xs.append(point.x())
        ys.append(point.y())
    return np.array(xs, dtype=float), np.array(ys, dtype=float)


def counts_dataset(alg, parameters, context, input_name: str, ids, counts) -> Callable[[Ledger], str]:
    """The fingerprint of a table of counts: each count with its group's geometry (normalised WKB; nothing for a
    table without geometry), whatever the order of the features, their ids or the other fields. Groups with the
    same geometry (an area's strata) are told apart by their counts, so the fingerprint is that of the multiset of
    (geometry, count) pairs; two tables that differ only by counts swapped between such groups count as one data
    set (which over-counts, never under-counts)."""

    def fingerprint(ledger: Ledger) -> str:
        source = alg.parameterAsSource(parameters, input_name, context)
        shapes = {}
        request = QgsFeatureRequest().setNoAttributes().setFilterFids(list(ids))
        for feature in source.getFeatures(request, SOURCE_SKIP_GEOMETRY_CHECKS):
            geometry = feature.geometry()
            if geometry.isNull() or geometry.isEmpty():
                shapes[feature.id()] = b""
                continue
            geometry.convertToMultiType()
            geometry.normalize()
            shapes[feature.id()] = bytes(geometry.asWkb())
        rows = sorted((shapes.get(fid, b""), float(count)) for fid, count in zip(ids, counts))
        groups, values, previous, index = [], [], None, 0
        for shape, count in rows:
            index = index + 1 if shape == previous else 0
            previous = shape
            groups.append(len(shape).to_bytes(8, "little") + shape + index.to_bytes(8, "little"))
            values.append(count)
        return ledger.counts_fingerprint(groups, values)

    return fingerprint


# -- the check before the run and the record before the commit ---------------------------------------------------


@dataclass
class PendingRelease:
    """A release checked before the run, recorded by :func:`record_release` before its outputs are committed.

    Attributes:
        ledger: the ledger, or ``None`` when none is kept.
        release: the release (its ``dataset`` is :data:`_UNKNOWN` until fingerprinted, for a new ledger).
        fingerprint: computes the data set's fingerprint with the ledger's key.
        budget: (epsilon, delta) given in BUDGET_EPSILON/BUDGET_DELTA, or ``None`` for the ledger's own.
        refuse: REFUSE_OVER_BUDGET.
        found: the check before the run.
        budget_source: where the budget came from, for the messages ("" if none).
        lost: why the release is not private, as known at the check (empty when it is).
    """

    ledger: Optional[Ledger]
    release: Release
    fingerprint: Callable[[Ledger], str]
    budget: Optional[tuple[float, float]]
    refuse: bool
    found: Optional[Check]
    budget_source: str = ""
    lost: list = field(default_factory=list)

    def budget_for(self, dataset: str):
        """The budget given in BUDGET_EPSILON/BUDGET_DELTA for ``dataset`` (core.ledger.Budget), or ``None``."""
        from ..core.ledger import Budget

        return None if self.budget is None else Budget(dataset, *self.budget)


def _reasons(*texts: Optional[str]) -> list[str]:
    """The distinct reasons a run lost its guarantee, from texts that join several with "; " (lose_guarantee)."""
    return list(dict.fromkeys(why for text in texts if text for why in text.split("; ") if why))


def _not_private_note(reason: Optional[str]) -> str:
    return tr("NOT PRIVATE: {0}").format(reason) if reason else ""


def _number(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.6g}"


def _total_text(total) -> str:
    """A total in words (translated), without its neighbourhood."""
    text = tr("ε = {0}, δ = {1} over {2} release(s)").format(
        _number(total.epsilon), _number(total.delta), len(total.counted)
    )
    if total.seeded:
        text += tr("; {0} not private (a seed, or bounds or a window from the data), counted as ε = ∞").format(
            len(total.seeded)
        )
    if total.nominal:
        text += tr("; {0} with a nominal, unproven guarantee").format(len(total.nominal))
    if total.not_covered:
        text += tr("; {0} release(s) give no guarantee under this neighbourhood and are not counted").format(
            len(total.not_covered)
        )
    return text + (tr(" (OVER BUDGET)") if total.exceeds else "")


def _adds_text(cost) -> str:
    if cost is None:
        return tr("nothing (it gives no guarantee here)")
    return tr("ε = {0}, δ = {1}").format(_number(cost[0]), _number(cost[1]))


def check_lines(found: Check) -> list[str]:
    """The check in words: per neighbourhood, what the release adds and the total with it."""
    lines = [
        tr("Under {0}: this release adds {1}; the total becomes {2}.").format(
            neighbourhood.describe(), _adds_text(cost), _total_text(after)
        )
        for (neighbourhood, cost), after in zip(found.adds, found.after.totals)
    ]
    if len(found.after.totals) > 1:
        lines.append(
            tr(
                "Totals under different neighbourhoods are not added to each other: a release counts under another "
                "neighbourhood only where a proven rule carries its guarantee there."
            )
        )
    return lines


def _budget_text(found: Check, pending: PendingRelease) -> str:
    budget = found.budget
    return tr("ε = {0}, δ = {1} per neighbourhood ({2})").format(
        _number(budget.epsilon), _number(budget.delta), pending.budget_source
    )


def check_release(
    alg,
    parameters,
    context,
    feedback,
    mechanism: str,
    guarantees,
    fingerprint: Callable[[Ledger], str],
    *,
    not_private: Optional[str] = None,
    input_name: str = "INPUT",
) -> PendingRelease:
    """Check the release ``alg`` is about to make against its data set's totals in the ledger, before the run.

    The log states the ledger, what the release adds and the total under each neighbourhood; over budget it
    warns, or, with REFUSE_OVER_BUDGET, raises naming BUDGET_EPSILON (nothing is written). A release that has
    lost its guarantee (``alg.not_private``: a fixed SEED; or ``not_private``, known before the run: bounds or a
    window from the data) is recorded flagged and counts as ε = ∞. Nothing is written to the ledger here; the
    pending release is kept on ``alg`` for :func:`record_release`. Raises ``QgsProcessingException`` naming LEDGER
    for a ledger that cannot be read (a damaged file, a missing key file)."""
    from ..core.ledger import Ledger, Release
    from ..core.ledger_composition import check as check_against

    guarantees = tuple(guarantees)
    label = ""
    source = alg.parameterAsSource(parameters, input_name, context)
    if source is not None:
        label = source.sourceName()
    lost = _reasons(getattr(alg, "not_private", None), not_private)  # a fixed SEED (make_rng); bounds or a window
    reason = "; ".join(lost) or None
    release = Release(
        f"spatialprivacy:{alg.name()}",
        mechanism,
        _UNKNOWN,
        guarantees,
        seeded=bool(reason),
        note=_not_private_note(reason),
        dataset_label=label,
    )
    budget = None
    if given(parameters, BUDGET_EPSILON):
        budget_delta = (
            alg.parameterAsDouble(parameters, BUDGET_DELTA, context) if given(parameters, BUDGET_DELTA) else 0.0
        )
        budget = (alg.parameterAsDouble(parameters, BUDGET_EPSILON, context), budget_delta)
    refuse = alg.parameterAsBool(parameters, REFUSE_OVER_BUDGET, context)
    path = ledger_path(alg, parameters, context)
    ledger = Ledger(path) if path else None
    pending = PendingRelease(ledger, release, fingerprint, budget, refuse, None, lost=lost)
    alg.ledger_release = pending
    stated = pending.budget_for(_UNKNOWN)
    if ledger is None:
        feedback.pushInfo(
            tr(
                "No privacy-budget ledger is kept for this release: no {0} was given and the QGIS project is not "
                "saved. Give {0} (or save the project) to add up the privacy spent on this data set."
            ).format(LEDGER)
        )
        found = check_against(release, [], stated)
    else:
        try:
            if not os.path.exists(ledger.path) and not os.path.exists(ledger.key_path):
                # an empty ledger: its key is made with the first record, not by a run that may still fail
                feedback.pushInfo(
                    tr(
                        "Privacy-budget ledger {0}: new; it and its key file {1} (never to be published) are made "
                        "when this release is recorded."
                    ).format(ledger.path, ledger.key_path)
                )
                found = check_against(release, [], stated)
            else:
                release = pending.release = replace(release, dataset=fingerprint(ledger))
                found = ledger.check(release, pending.budget_for(release.dataset))
                feedback.pushInfo(
                    tr("Privacy-budget ledger {0}: data set {1} ({2}), {3} earlier release(s).").format(
                        ledger.path, release.dataset, label or tr("no name"), found.before.releases
                    )
                )
        except ValueError as error:  # a LedgerError (damaged, key) or a data set it cannot fingerprint
            raise ledger_error(error) from None
    pending.found = found
    if found.budget is not None:
        pending.budget_source = (
            tr("{0}, {1}").format(BUDGET_EPSILON, BUDGET_DELTA) if budget is not None else tr("set in the ledger")
        )
    for line in check_lines(found):
        feedback.pushInfo(line)
    if release.seeded:
        feedback.pushWarning(
            tr(
                "This release is not private ({0}): it is recorded flagged and counts as ε = ∞, which spends the whole "
                "budget of its data set."
            ).format(reason)
        )
    if found.exceeds:
        message = tr("With this release the data set's totals exceed its privacy budget: {0}.").format(
            _budget_text(found, pending)
        )
        if refuse:
            raise QgsProcessingException(
                tr(
                    "{0}: {1} Nothing was written. Raise {0} (or {2}) if the budget allows it, or release less "
                    "(a smaller ε); {3} refused the run."
                ).format(BUDGET_EPSILON, message, BUDGET_DELTA, REFUSE_OVER_BUDGET)
            )
        feedback.pushWarning(message + " " + tr("Set {0} to refuse such runs.").format(REFUSE_OVER_BUDGET))
    elif refuse and found.budget is None:
        feedback.pushInfo(
            tr("{0}: no budget is set for this data set ({1} is empty and the ledger sets none).").format(
                REFUSE_OVER_BUDGET, BUDGET_EPSILON
            )
        )
    return pending


def record_release(alg, results: dict, feedback, writes) -> None:
    """Record ``alg``'s pending release (:func:`check_release`) in its ledger, with the outputs in ``results``;
    called after the run's work and before its staged outputs are committed (``writes``: the run's
    ``core.files.StagedWrites``). A refusal or failure raises ``QgsProcessingException`` naming BUDGET_EPSILON or
    LEDGER, and the staged outputs are then discarded; an output already written in place (a table appended to a
    database) cannot be, so such a release is recorded whatever the budget says, with a warning."""
    pending = getattr(alg, "ledger_release", None)
    if pending is None or pending.ledger is None:
        return
    from ..core.ledger import BudgetExceededError, LedgerError

    ledger = pending.ledger
    outputs = tuple(str(v) for v in results.values() if isinstance(v, str) and v)
    in_place = bool(writes is not None and writes.in_place)
    try:
        release = pending.release
        if release.dataset == _UNKNOWN:
            release = replace(release, dataset=pending.fingerprint(ledger))
        lost = _reasons("; ".join(pending.lost), getattr(alg, "not_private", None))  # lost during the run too
        if lost != pending.lost:
            release = replace(release, seeded=True, note=_not_private_note("; ".join(lost)))
        release = replace(release, outputs=outputs)
        refuse = pending.refuse and not in_place
        recorded = ledger.record(release, refuse_over_budget=refuse, budget=pending.budget_for(release.dataset))
    except BudgetExceededError as error:
        lines = " ".join(check_lines(error.check))
        raise QgsProcessingException(
            tr(
                "{0}: another run recorded a release of the same data set in the ledger {1} meanwhile; with it, this "
                "release would exceed the budget, so it was not recorded and nothing was written. {2}"
            ).format(BUDGET_EPSILON, ledger.path, lines)
        ) from None
    except ValueError as error:  # a LedgerError (damaged, busy, unwritable, key) or a data set it cannot fingerprint
        detail = (
            tr("The outputs written in place ({0}) stay, NOT recorded.").format(
                ", ".join(name for name, _ in writes.in_place)
            )
            if in_place
            else tr("Nothing was written.")
        )
        raise QgsProcessingException(f"{LEDGER}: {error} {detail}") from None
    pending.release = recorded
    feedback.pushInfo(
        tr("Recorded as release {0} of data set {1} in the privacy-budget ledger {2}.").format(
            recorded.number, recorded.dataset, ledger.path
        )
    )
    if pending.refuse and in_place:
        try:
            over = ledger.totals(recorded.dataset, pending.budget_for(recorded.dataset)).exceeds
        except LedgerError:
            over = False
        if over:
            feedback.pushWarning(
                tr(
                    "With releases recorded meanwhile by another run, the data set is now over its budget; {0} could "
                    "not refuse this run because {1} had been written in place."
                ).format(REFUSE_OVER_BUDGET, ", ".join(name for name, _ in writes.in_place))
            )


def report_sections(pending: Optional[PendingRelease]) -> list:
    """The report's ledger section: the ledger's name (not its folder), what the release adds and the totals as
    checked before the run. The totals are the data set's privacy guarantee, which a release may state."""
    if pending is None or pending.found is None:
        return []
    if pending.ledger is None:
        return [
            (tr("Privacy-budget ledger"), tr("None was kept for this release (no ledger file and no saved project)."))
        ]
    rows = [(tr("Ledger"), os.path.basename(pending.ledger.path))]
    for (neighbourhood, cost), after in zip(pending.found.adds, pending.found.after.totals):
        rows.append((tr("Adds under {0}").format(neighbourhood.describe()), _adds_text(cost)))
        rows.append((tr("Total of the data set (checked before the run)"), _total_text(after)))
    if pending.found.budget is not None:
        rows.append((tr("Budget"), _budget_text(pending.found, pending)))
    if pending.release.seeded:
        rows.append((tr("Recorded as"), tr("not private: counted as ε = ∞")))
    return [(tr("Privacy-budget ledger"), rows)]
