"""Processing algorithm ``spatialprivacy:privacyledger``: list a privacy-budget ledger's releases and the totals of
each data set per neighbourhood, export them as CSV, and set or clear a data set's budget (core.ledger)."""

from __future__ import annotations

import math
import os

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFields,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...compat import FILE_BEHAVIOR_FILE, NUMBER_DOUBLE, WKB_NO_GEOMETRY, double_field, int_field, string_field
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs, ensure_folders
from ..ledger import LEDGER_SUFFIX, ledger_error, ledger_file_filter, ledger_path
from ..parameters import given
from ..sinks import add_features, make_sink

#: Columns of the two tables that hold numbers; ``*_INT`` are whole numbers (booleans as 0/1), the rest text.
_DOUBLE = ("neighbourhood_parameter", "epsilon", "delta", "budget_epsilon", "budget_delta")
_INT = ("number", "proven", "seeded", "releases", "not_covered", "nominal", "exceeds")
#: Text columns that can be long (no length limit in the file).
_LONG_TEXT = ("neighbourhood_text", "outputs", "note", "dataset_label", "neighbourhood_units")
#: Fewest hex digits of a fingerprint that DATASET may give.
MIN_PREFIX = 6


class PrivacyLedgerAlgorithm(SpatialPrivacyAlgorithm):
    LEDGER = "LEDGER"
    DATASET = "DATASET"
    BUDGET_EPSILON = "BUDGET_EPSILON"
    BUDGET_DELTA = "BUDGET_DELTA"
    CLEAR_BUDGET = "CLEAR_BUDGET"
    BUDGET_NOTE = "BUDGET_NOTE"
    OUTPUT = "OUTPUT"
    OUTPUT_TOTALS = "OUTPUT_TOTALS"
    OUTPUT_CSV = "OUTPUT_CSV"
    RELEASES = "RELEASES"
    DATASETS = "DATASETS"
    TABLE_SINKS = (OUTPUT, OUTPUT_TOTALS)
    REQUIRES = ("numpy",)

    def name(self):
        return "privacyledger"

    def displayName(self):
        return self.tr("Privacy-budget ledger: list releases, set a budget")

    def group(self):
        return self.tr("Privacy budget")

    def groupId(self):
        return "privacybudget"

    def shortDescription(self):
        return self.tr(
            "List the releases a privacy-budget ledger records and each data set's total ε and δ per neighbourhood; "
            "export them as CSV; set or clear a data set's budget."
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>The differentially private tools (pufferfishgrid, dpcounts, dppoints) record every release in a "
                "privacy-budget ledger: the algorithm, the mechanism, ε and δ under the neighbourhood they hold for, "
                "whether the run was seeded or lost its guarantee, the output files, and the confidential data set "
                "it came from, identified by a keyed fingerprint that reveals nothing about the data. This tool "
                "lists those releases and adds them up per data set under sequential composition (Dwork &amp; Roth "
                "2014, Theorem 3.16): totals under one neighbourhood are sums; a release counts under another "
                "neighbourhood only where a proven rule carries its guarantee there (a guarantee for a larger α "
                "holds for a smaller one; one point added or removed gives 2ε for one point moved), and totals "
                "under different neighbourhoods are never added to each other. A seeded release, or one whose "
                "guarantee was lost (bounds or a window from the data), counts as ε = ∞.</p>"
                "<p>It can also set the budget of a data set (by its fingerprint, as the release tools' log and this "
                "tool's table show it): every later release of that data set states whether it stays within it, "
                "and with REFUSE_OVER_BUDGET is refused when it would not.</p>"
                "<p><b>Not a privacy mechanism:</b> it reads and writes the ledger only. The tables hold no "
                "confidential value, but they show what was released from which data set and where it was written: "
                "keep them with the steward's files. The ledger's key file (its name with .key) must never be "
                "published.</p>"
            )
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFile(
                self.LEDGER,
                tr("Privacy-budget ledger"),
                behavior=FILE_BEHAVIOR_FILE,
                extension="",
                defaultValue=None,
                optional=True,
                fileFilter=ledger_file_filter(),
            ),
            tr(
                "The ledger file. Empty: <project folder>/<project name>{0} beside the saved QGIS project, the one "
                "the release tools use by default."
            ).format(LEDGER_SUFFIX),
        )
        self.add(
            QgsProcessingParameterString(self.DATASET, tr("Data set (fingerprint)"), None, False, True),
            tr(
                "Only this data set: its fingerprint (64 hex digits, as the release tools' log shows it), its first "
                "{0} or more digits, or its name as recorded (the layer's name). Needed to set a budget. Empty: "
                "every data set."
            ).format(MIN_PREFIX),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.BUDGET_EPSILON, tr("Set the budget ε of the data set"), NUMBER_DOUBLE, None, True, 0.0
            ),
            tr(
                "Record this budget for DATASET in the ledger: the largest total ε under each neighbourhood. The "
                "release tools use it unless their own BUDGET_EPSILON is given. Empty: the budget stays as it is."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.BUDGET_DELTA, tr("Budget δ of the data set"), NUMBER_DOUBLE, None, True, 0.0, 1.0
            ),
            tr("The largest total δ, with {0}. Empty: 0.").format(self.BUDGET_EPSILON),
        )
        self.add(
            QgsProcessingParameterBoolean(self.CLEAR_BUDGET, tr("Clear the budget of the data set"), False),
            tr("Remove the budget of DATASET (recorded in the ledger as a budget cleared; nothing is erased)."),
        )
        self.add(
            QgsProcessingParameterString(self.BUDGET_NOTE, tr("Note on the budget"), None, False, True),
            tr("Free text recorded with the budget, e.g. who decided it and why."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Releases")),
            tr(
                "A table (no geometry), one row per release and neighbourhood it states: number, time (UTC), data "
                "set, its name, algorithm, mechanism, neighbourhood, its parameter, units and text, epsilon, delta, "
                "proven (0 for a nominal guarantee), seeded (1: not private, counted as ε = ∞), outputs, note."
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT_TOTALS, tr("Totals per data set and neighbourhood")),
            tr(
                "A table (no geometry), one row per data set and neighbourhood: the total epsilon and delta under "
                "sequential composition, how many releases were added up, not covered (no guarantee there), seeded "
                "and nominal, the budget and whether it is exceeded (1)."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_CSV, tr("Releases as CSV"), tr("CSV files (*.csv)"), None, True, False
            ),
            tr("The releases table as a CSV file (UTF-8, a header row), e.g. for a spreadsheet or an audit."),
        )
        self.addOutput(QgsProcessingOutputNumber(self.RELEASES, tr("Number of releases listed")))
        self.addOutput(QgsProcessingOutputNumber(self.DATASETS, tr("Number of data sets listed")))

    def parameter_problem(self, parameters, context) -> str | None:
        setting = given(parameters, self.BUDGET_EPSILON)
        clearing = self.parameterAsBool(parameters, self.CLEAR_BUDGET, context)
        if setting and clearing:
            return self.tr("{0} / {1}: give a budget or clear it, not both.").format(
                self.BUDGET_EPSILON, self.CLEAR_BUDGET
            )
        if (setting or clearing) and not (self.parameterAsString(parameters, self.DATASET, context) or "").strip():
            return self.tr("{0}: give the data set whose budget to {1}.").format(
                self.DATASET, self.tr("set") if setting else self.tr("clear")
            )
        return None

    # -- run ------------------------------------------------------------------------------------

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        from ...core.ledger import CSV_COLUMNS, TOTAL_COLUMNS, Ledger, csv_text

        output_files = check_outputs(
            self, parameters, context, sinks=(self.OUTPUT, self.OUTPUT_TOTALS), files=(self.OUTPUT_CSV,)
        )
        path = ledger_path(self, parameters, context)
        if path is None:
            raise QgsProcessingException(
                self.tr("{0}: give the ledger file (the QGIS project is not saved, so there is no default).").format(
                    self.LEDGER
                )
            )
        ledger = Ledger(path)
        for name, output in output_files.items():
            if output and {os.path.realpath(output)} & {
                os.path.realpath(ledger.path),
                os.path.realpath(ledger.key_path),
            }:
                raise QgsProcessingException(
                    self.tr("{0}: {1} is the ledger or its key file; choose another file.").format(name, output)
                )
        setting = given(parameters, self.BUDGET_EPSILON)
        clearing = self.parameterAsBool(parameters, self.CLEAR_BUDGET, context)
        if not os.path.exists(ledger.path) and not (setting or clearing):
            raise QgsProcessingException(
                self.tr("{0}: {1} does not exist (no release has been recorded there yet).").format(
                    self.LEDGER, ledger.path
                )
            )
        try:
            dataset = self._dataset(parameters, context, ledger)
            if setting or clearing:
                epsilon = self.parameterAsDouble(parameters, self.BUDGET_EPSILON, context) if setting else None
                delta = (
                    self.parameterAsDouble(parameters, self.BUDGET_DELTA, context)
                    if given(parameters, self.BUDGET_DELTA)
                    else 0.0
                )
                note = self.parameterAsString(parameters, self.BUDGET_NOTE, context) or ""
                # the ledger's own atomic write, after every check: the tables below then show the new budget
                budget = ledger.set_budget(dataset, epsilon, delta if setting else 0.0, note)
                if setting:
                    feedback.pushInfo(
                        self.tr("Budget of data set {0} set to ε = {1:g}, δ = {2:g} per neighbourhood.").format(
                            dataset, budget.epsilon, budget.delta
                        )
                    )
                else:
                    feedback.pushInfo(self.tr("Budget of data set {0} cleared.").format(dataset))
            rows = ledger.rows(dataset)
            totals = [row for row in ledger.total_rows() if dataset is None or row["dataset"] == dataset]
        except ValueError as error:  # a LedgerError (damaged, key, unwritable) or a budget the core refuses
            raise self.ledger_problem(error) from None
        self._log_totals(totals, feedback)
        ensure_folders(output_files)
        results = {
            self.OUTPUT: self._table(parameters, context, self.OUTPUT, CSV_COLUMNS, rows),
            self.OUTPUT_TOTALS: self._table(parameters, context, self.OUTPUT_TOTALS, TOTAL_COLUMNS, totals),
        }
        csv_path = output_files.get(self.OUTPUT_CSV)
        if csv_path:
            from ...core.files import replaced_when_done

            with replaced_when_done(csv_path) as partial, open(partial, "w", encoding="utf-8", newline="") as stream:
                stream.write(csv_text(rows))
            results[self.OUTPUT_CSV] = csv_path
        results[self.RELEASES] = len({row["number"] for row in rows})
        results[self.DATASETS] = len({row["dataset"] for row in totals})
        return results

    def ledger_problem(self, error: ValueError) -> QgsProcessingException:
        from ...core.errors import ParameterError

        if isinstance(error, ParameterError):  # the budget's numbers
            names = {"epsilon": self.BUDGET_EPSILON, "delta": self.BUDGET_DELTA, "dataset": self.DATASET}
            return self.core_error(error, **names)
        return ledger_error(error, self.LEDGER)

    def _dataset(self, parameters, context, ledger) -> str | None:
        """The fingerprint DATASET names: a whole fingerprint, a unique prefix of one in the ledger, or the name
        recorded with one; ``None`` when DATASET is empty."""
        from ...core.ledger_fingerprint import is_fingerprint

        text = (self.parameterAsString(parameters, self.DATASET, context) or "").strip()
        if not text:
            return None
        if is_fingerprint(text.lower()):
            return text.lower()
        known = ledger.datasets() if os.path.exists(ledger.path) else []
        labels = {release.dataset: release.dataset_label for release in ledger.releases()} if known else {}
        found = [d for d in known if len(text) >= MIN_PREFIX and d.startswith(text.lower())]
        found = found or [d for d in known if labels.get(d) and labels[d] == text]
        if len(found) == 1:
            return found[0]
        if not found:
            raise QgsProcessingException(
                self.tr(
                    "{0}: no data set in the ledger {1} has the fingerprint or name '{2}' (give the whole fingerprint, "
                    "or at least its first {3} digits)."
                ).format(self.DATASET, ledger.path, text, MIN_PREFIX)
            )
        raise QgsProcessingException(
            self.tr("{0}: '{1}' matches several data sets ({2}); give more of the fingerprint.").format(
                self.DATASET, text, ", ".join(d[:16] for d in found)
            )
        )

    def _log_totals(self, totals, feedback) -> None:
        for row in totals:
            budget = (
                ""
                if row["budget_epsilon"] is None
                else self.tr("; budget ε = {0:g}, δ = {1:g}").format(row["budget_epsilon"], row["budget_delta"])
            )
            feedback.pushInfo(
                self.tr("Data set {0} ({1}), under {2}: ε = {3}, δ = {4} over {5} release(s){6}{7}.").format(
                    row["dataset"][:16],
                    row["dataset_label"] or self.tr("no name"),
                    row["neighbourhood_text"],
                    "∞" if math.isinf(row["epsilon"]) else f"{row['epsilon']:.6g}",
                    f"{row['delta']:.6g}",
                    row["releases"],
                    budget,
                    self.tr(" - OVER BUDGET") if row["exceeds"] else "",
                )
            )

    def _table(self, parameters, context, name, columns, rows) -> str:
        fields = QgsFields()
        for column in columns:
            if column in _DOUBLE:
                fields.append(double_field(column))
            elif column in _INT:
                fields.append(int_field(column))
            else:
                fields.append(string_field(column, 0 if column in _LONG_TEXT else 64))
        sink, dest = make_sink(self, parameters, name, context, fields, WKB_NO_GEOMETRY, QgsCoordinateReferenceSystem())
        for row in rows:
            feature = QgsFeature(fields)
            feature.setAttributes([_value(row[column]) for column in columns])
            add_features(sink, feature, name)
        return dest


def _value(value):
    """A table cell: booleans as 0/1, ``None`` as NULL, numbers and text as they are."""
    if isinstance(value, bool):
        return int(value)
    return value
