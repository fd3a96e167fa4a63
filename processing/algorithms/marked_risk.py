"""Processing algorithm ``spatialprivacy:markedrisk``: the inferential disclosure risks (Type S and Type A, eqs.
8-9) and the utility (L-function bands, regressions with the combining rules) of fully synthetic marked point
data, Quick, Holan, Wikle & Reiter Sections 3.1-3.2 (core.marked.risk, utility, combining)."""

from __future__ import annotations

import math

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterDistance,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...compat import FIELD_ANY, FIELD_NUMERIC, NUMBER_DOUBLE, SOURCE_POINT, SOURCE_POLYGON, crs_key
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs, ensure_folder
from ..feedback import FeedbackProgress
from ..inputs import numeric_field_index, read_window, working_crs
from ..marked_layers import SET_FIELD, read_marked_layer
from ..parameters import given
from ..reports import marked_risk as report
from ..reports.page import write_html_report
from ..sinks import write_point_table
from ..styling import ThematicStyle


def _level_key(value):
    """Levels in sorted order: numbers (and booleans) by value before text."""
    if isinstance(value, (bool, int, float)):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def _level_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _matches(value, text: str) -> bool:
    """Whether the typed LOGISTIC_LEVEL ``text`` names the level ``value`` (1/true and 0/false name booleans)."""
    text = text.strip()
    if isinstance(value, bool):
        return text.lower() in (("1", "true") if value else ("0", "false"))
    return text == _level_text(value) or text == str(value)


class MarkedRiskAlgorithm(SpatialPrivacyAlgorithm):
    REQUIRES = ("numpy", "scipy", "matplotlib")
    #: a CONFIDENTIAL layer: the confidential locations with their risks
    CONFIDENTIAL_SINKS = ("OUTPUT",)
    #: no random draw at all
    PUBLISHES_DRAWS = False
    INPUT = "INPUT"
    SYNTHETIC = "SYNTHETIC"
    CATEGORY_FIELDS = "CATEGORY_FIELDS"
    NUMERIC_FIELD = "NUMERIC_FIELD"
    SPATIAL_TOLERANCE = "SPATIAL_TOLERANCE"
    ATTRIBUTE_TOLERANCE = "ATTRIBUTE_TOLERANCE"
    LOGISTIC_FIELD = "LOGISTIC_FIELD"
    LOGISTIC_LEVEL = "LOGISTIC_LEVEL"
    WINDOW = "WINDOW"
    WORK_CRS = "WORK_CRS"
    OUTPUT = "OUTPUT"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    MAX_TYPE_S = "MAX_TYPE_S"
    MAX_TYPE_A = "MAX_TYPE_A"
    SETS = "SETS"

    CORE_NAMES = {
        "category_fields": CATEGORY_FIELDS,
        "points": INPUT,
        "index": INPUT,
        "numeric": NUMERIC_FIELD,
        "synthetic": SYNTHETIC,
        "syn_index": SYNTHETIC,
        "syn_numeric": SYNTHETIC,
        "syn_set": SYNTHETIC,
        "sets": SYNTHETIC,
        "spatial_tolerance": SPATIAL_TOLERANCE,
        "attribute_tolerance": ATTRIBUTE_TOLERANCE,
        "logistic_field": LOGISTIC_FIELD,
        "logistic_level": LOGISTIC_LEVEL,
        "window": WINDOW,
        "radii": WINDOW,
    }

    def name(self):
        return "markedrisk"

    def displayName(self):
        return self.tr("Risk and utility of synthetic marked points")

    def group(self):
        return self.tr("Synthetic points")

    def groupId(self):
        return "syntheticpoints"

    def shortDescription(self):
        return self.tr(
            "Type S and Type A disclosure risk of every confidential record, L-function bands and regressions of "
            "fully synthetic records with categories and a number."
        )

    def guarantee_text(self) -> str:
        return self.tr(
            "<p><b>Guarantee.</b> None (no ε or δ): fully synthetic records are protected empirically, and this "
            "tool measures that protection. Type S risk (eq. 8): of the synthetic records within the spatial "
            "tolerance of a confidential record, the share with its attributes (an intruder who knows where someone "
            "lives learns their attributes). Type A risk (eq. 9): of the synthetic records with its attributes, the "
            "share within the spatial tolerance (an intruder who knows someone's attributes learns where they "
            "live). Publish the synthetic sets only if these risks are acceptable; never publish this tool's "
            "outputs.</p>"
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Quick, Holan, Wikle &amp; Reiter, Sections 3.1-3.2, for the output of "
                "spatialprivacy:synthesizemarked (one layer holding all L sets, numbered 1..L in the field 'set').</p>"
                "<p><b>Risks.</b> For each confidential record and each set: the Type S and Type A risks, with "
                "'spatially close' meaning at a distance ≤ the spatial tolerance and 'similar attributes' the same "
                "combination of categories and, with a numeric field, a value within ± the attribute tolerance (both "
                "bounds included; the paper writes 'less than', which differs only for exact ties). A set with no "
                "synthetic record close to the record (Type S) or with its attributes (Type A) has a zero "
                "denominator and is left out of that record's estimate, the paper's second option; a record with "
                "no set left gets no value (NULL), and the report counts them. The output holds per record the "
                "median and the 5% and 95% quantiles over the sets used, and their number.</p>"
                "<p><b>Utility.</b> The L-function of the confidential points against the mean and pointwise 95% band "
                "of the synthetic sets (2.5% and 97.5% quantiles over the sets), overall and per combination, "
                "plotted as L(r) − r (eq. 7) with Ripley's isotropic edge correction rather than the paper's biased "
                "eq. 6; radii from 0 to spatstat's default for all records. Two regressions, fitted on the "
                "confidential records and on each set and combined with the rules for fully synthetic data "
                "(Raghunathan, Reiter &amp; Rubin 2003; when their variance T_f is not positive, the adjusted "
                "(n_syn / n) ū with a normal reference, Reiter 2002, as the report says; when their degrees of "
                "freedom ν_f are below 3 the interval is absurdly wide and flagged unstable (use more SETS), with "
                "the adjusted interval beside it), with the overlap J of the "
                "95% intervals (Karr et al. 2006): the numeric field on the combinations' indicators (least squares; "
                "a Poisson regression, as the paper's ages, when the numeric field is an integer field with whole "
                "numbers ≥ 0 in both layers), and a logistic regression of one category field's level on the "
                "combinations of the other category fields and the numeric field. A coefficient that cannot be "
                "estimated in a set (no record, or all records of a group with the same outcome) is left out of the "
                "combination there, as the report notes.</p>"
            )
            + self.guarantee_text()
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Confidential points"), [SOURCE_POINT]),
            tr("The confidential records: points with the category fields and, if given, the numeric field."),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.SYNTHETIC, tr("Synthetic sets"), [SOURCE_POINT]),
            tr(
                "The synthetic records of all L sets in one layer with the field 'set' (1..L), the category fields "
                "and the numeric field under the same names: the output of spatialprivacy:synthesizemarked. Same "
                "CRS as the confidential layer; every combination of categories must occur in the confidential data."
            ),
        )
        self.add(
            QgsProcessingParameterField(
                self.CATEGORY_FIELDS, tr("Category fields"), None, self.INPUT, FIELD_ANY, allowMultiple=True
            ),
            tr(
                "The categorical marks (e.g. sex, race, a flag); their observed combinations are the groups of the "
                "risks, the L-functions and the regressions. The same fields as given to synthesizemarked."
            ),
        )
        self.add(
            QgsProcessingParameterField(
                self.NUMERIC_FIELD, tr("Numeric field"), None, self.INPUT, FIELD_NUMERIC, optional=True
            ),
            tr("The numeric mark (e.g. age, consumption), if the sets have one. Requires the attribute tolerance."),
        )
        self.add(
            QgsProcessingParameterDistance(self.SPATIAL_TOLERANCE, tr("Spatial tolerance (ε_s)"), None, self.INPUT),
            tr(
                "ε_s > 0, in the layer's units: a synthetic record at most this far from a confidential record is "
                "'spatially close' to it, e.g. the size of a block (the paper used about a quarter of a mile)."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.ATTRIBUTE_TOLERANCE, tr("Attribute tolerance (ε_a)"), NUMBER_DOUBLE, None, True, 0.0
            ),
            tr(
                "ε_a ≥ 0, in the numeric field's units: numeric values at most this far apart are 'similar' (the "
                "paper used 5 years of age). Required with a numeric field."
            ),
        )
        self.add(
            QgsProcessingParameterField(
                self.LOGISTIC_FIELD, tr("Field of the logistic regression"), None, self.INPUT, FIELD_ANY, optional=True
            ),
            tr(
                "One of the category fields, modelled by the logistic regression on the other category fields (and "
                "the numeric field). Empty: the first category field."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterString(
                self.LOGISTIC_LEVEL, tr("Level of the logistic regression"), None, False, True
            ),
            tr(
                "The value of that field whose probability is modelled, as text (1 or true for a boolean). Empty: "
                "the second of its two levels in sorted order (e.g. 1 of 0/1); a field with more than two levels "
                "needs it, else the logistic regression is skipped."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.WINDOW, tr("Study window"), [SOURCE_POLYGON], None, True),
            tr(
                "The region of the L-functions (its area and edges); every confidential and synthetic point must "
                "lie inside it. Empty: the confidential points' bounding box enlarged by 5%, as the LGCP tools draw "
                "it. Give the window the sets were synthesised in."
            ),
        )
        self.add_work_crs(self.tr("Needed only when the layers are in degrees; ε_s is then in this CRS's units."))
        self.add(
            QgsProcessingParameterFeatureSink(
                self.OUTPUT, tr("Risk per record (CONFIDENTIAL)"), SOURCE_POINT, None, True, False
            ),
            tr(
                "The CONFIDENTIAL locations with s_median, s_q05, s_q95, s_sets (Type S risk: median, 5% and 95% "
                "quantiles over the sets used, and their number) and a_median, a_q05, a_q95, a_sets (Type A). It "
                "shows where the people at risk live: never publish it."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr(
                "The risk scatter (Type S against Type A, the paper's Fig. 2c), the risk summaries, the L-function "
                "bands and the regression table. It describes the confidential records: never publish it."
            ),
        )
        self.addOutput(QgsProcessingOutputNumber(self.MAX_TYPE_S, tr("Largest median Type S risk")))
        self.addOutput(QgsProcessingOutputNumber(self.MAX_TYPE_A, tr("Largest median Type A risk")))
        self.addOutput(QgsProcessingOutputNumber(self.SETS, tr("Number of synthetic sets")))

    def parameter_problem(self, parameters, context) -> str | None:
        if given(parameters, self.NUMERIC_FIELD) and not given(parameters, self.ATTRIBUTE_TOLERANCE):
            return self.tr("{0}: required with a numeric field ({1}).").format(
                self.ATTRIBUTE_TOLERANCE, self.NUMERIC_FIELD
            )
        if given(parameters, self.ATTRIBUTE_TOLERANCE) and not given(parameters, self.NUMERIC_FIELD):
            return self.tr("{0}: given without a numeric field ({1}); leave it empty or give the field.").format(
                self.ATTRIBUTE_TOLERANCE, self.NUMERIC_FIELD
            )
        try:
            float(parameters.get(self.SPATIAL_TOLERANCE))
        except (TypeError, ValueError):
            return None  # missing, or text that is no number: QGIS's own checks name it
        value = self.parameterAsDouble(parameters, self.SPATIAL_TOLERANCE, context)
        if not (math.isfinite(value) and value > 0):
            return self.tr("{0}: the tolerance must be a finite number > 0, got {1}.").format(
                self.SPATIAL_TOLERANCE, value
            )
        return None

    # -- the run ------------------------------------------------------------------------------------------------

    def _fields(self, parameters, context):
        fields = self.parameterAsFields(parameters, self.CATEGORY_FIELDS, context)
        if not fields:
            raise QgsProcessingException(self.tr("{0}: give at least one category field.").format(self.CATEGORY_FIELDS))
        numeric = (
            self.parameterAsString(parameters, self.NUMERIC_FIELD, context)
            if given(parameters, self.NUMERIC_FIELD)
            else None
        )
        if numeric is not None and numeric in fields:
            raise QgsProcessingException(
                self.tr("{0}: '{1}' is also a category field; a field is either a category or the number.").format(
                    self.NUMERIC_FIELD, numeric
                )
            )
        logistic = (
            self.parameterAsString(parameters, self.LOGISTIC_FIELD, context)
            if given(parameters, self.LOGISTIC_FIELD)
            else fields[0]
        )
        if logistic not in fields:
            raise QgsProcessingException(
                self.tr("{0}: '{1}' is not one of the category fields ({2}).").format(
                    self.LOGISTIC_FIELD, logistic, ", ".join(fields)
                )
            )
        return list(fields), numeric, logistic

    def _sources(self, parameters, context, feedback):
        source = self.parameterAsSource(parameters, self.INPUT, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.INPUT))
        synthetic = self.parameterAsSource(parameters, self.SYNTHETIC, context)
        if synthetic is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.SYNTHETIC))
        if crs_key(synthetic.sourceCrs()) != crs_key(source.sourceCrs()):
            raise QgsProcessingException(
                self.tr(
                    "{0}: the synthetic layer's CRS ({1}) differs from the confidential layer's ({2}). Reproject it "
                    "to the same CRS first."
                ).format(
                    self.SYNTHETIC,
                    synthetic.sourceCrs().authid() or self.tr("none"),
                    source.sourceCrs().authid() or self.tr("none"),
                )
            )
        return working_crs(self, parameters, context, source, self.INPUT, self.WORK_CRS, feedback)

    def _encode_synthetic(self, syn, comb):
        import numpy as np

        from ...core.marked.combinations import encode

        syn_index = encode(syn.columns, comb)
        unknown = np.flatnonzero(syn_index < 0)
        if unknown.size:
            example = ", ".join(
                f"{field}={_level_text(column[unknown[0]])}" for field, column in zip(comb.fields, syn.columns)
            )
            raise QgsProcessingException(
                self.tr(
                    "{0}: {1} synthetic records have a combination of categories that no confidential record has "
                    "(e.g. {2}), or a NULL category. Give the synthetic sets made from this confidential layer with "
                    "the same category fields."
                ).format(self.SYNTHETIC, unknown.size, example)
            )
        return syn_index

    def _set_numbers(self, syn, n, feedback):
        import numpy as np

        sets = np.asarray(syn.sets, dtype=np.int64)
        count = int(sets.max())
        sizes = np.bincount(sets, minlength=count + 1)[1:]
        missing = np.flatnonzero(sizes == 0) + 1
        if missing.size:
            raise QgsProcessingException(
                self.tr(
                    "{0}: the field '{1}' must number the sets 1..L without gaps; set(s) {2} of 1..{3} have no record."
                ).format(self.SYNTHETIC, SET_FIELD, ", ".join(map(str, missing[:10])), count)
            )
        if count < 2:
            feedback.pushWarning(
                self.tr("{0} holds a single set: the combining rules and the bands need at least 2.").format(
                    self.SYNTHETIC
                )
            )
        if (sizes != n).any():
            feedback.pushWarning(
                self.tr(
                    "{0}: sets of {1} to {2} records, the confidential layer has {3}; the paper's sets have as many "
                    "records as the data (the combining rules assume it)."
                ).format(self.SYNTHETIC, int(sizes.min()), int(sizes.max()), n)
            )
        return sets, count

    def _logistic_level(self, parameters, context, comb, field, feedback):
        position = comb.fields.index(field)
        values = sorted({levels[position] for levels in comb.levels}, key=_level_key)
        if given(parameters, self.LOGISTIC_LEVEL):
            text = self.parameterAsString(parameters, self.LOGISTIC_LEVEL, context)
            found = [v for v in values if _matches(v, text)]
            if not found:
                raise QgsProcessingException(
                    self.tr("{0}: '{1}' is not a level of '{2}' (its levels: {3}).").format(
                        self.LOGISTIC_LEVEL, text, field, ", ".join(_level_text(v) for v in values)
                    )
                )
            return found[0]
        if len(values) == 2:
            return values[1]
        feedback.pushWarning(
            self.tr("'{0}' has {1} levels: give {2} to fit the logistic regression; it is skipped.").format(
                field, len(values), self.LOGISTIC_LEVEL
            )
        )
        return None

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_REPORT,))
        import numpy as np

        from ...core.errors import ParameterError
        from ...core.lgcp_setup import default_window
        from ...core.marked.combinations import combinations
        from ...core.marked.risk import marked_risk
        from ...core.marked.utility import l_function_bands
        from ...core.progress import scaled

        fields, numeric_field, logistic_field = self._fields(parameters, context)
        if numeric_field is not None:
            numeric_field_index(
                self.parameterAsSource(parameters, self.INPUT, context), self.NUMERIC_FIELD, numeric_field
            )
        eps_s = self.parameterAsDouble(parameters, self.SPATIAL_TOLERANCE, context)
        eps_a = self.parameterAsDouble(parameters, self.ATTRIBUTE_TOLERANCE, context) if numeric_field else None
        source_crs, work_crs = self._sources(parameters, context, feedback)
        conf = read_marked_layer(
            self,
            parameters,
            context,
            feedback,
            self.INPUT,
            fields,
            numeric_field,
            False,
            source_crs,
            work_crs,
            (0.0, 8.0),
            numeric_parameter=self.NUMERIC_FIELD,
        )
        syn = read_marked_layer(
            self,
            parameters,
            context,
            feedback,
            self.SYNTHETIC,
            fields,
            numeric_field,
            True,
            source_crs,
            work_crs,
            (8.0, 16.0),
        )
        x, y = np.array(conf.points.x), np.array(conf.points.y)
        sx, sy = np.array(syn.points.x), np.array(syn.points.y)
        numeric = None if numeric_field is None else np.array(conf.numeric, dtype=float)
        syn_numeric = None if numeric_field is None else np.array(syn.numeric, dtype=float)
        try:
            comb, index = combinations(conf.columns, fields)
        except ParameterError as error:
            raise self.core_error(error) from None
        syn_index = self._encode_synthetic(syn, comb)
        syn_set, sets = self._set_numbers(syn, x.size, feedback)
        feedback.pushInfo(
            self.tr("{0} confidential records in {1} combinations; {2} synthetic sets of {3} records in all.").format(
                x.size, comb.k, sets, sx.size
            )
        )
        window = (
            read_window(self, parameters, self.WINDOW, context, work_crs)
            if given(parameters, self.WINDOW)
            else default_window(x, y)
        )
        outside = int(np.count_nonzero(~window.contains(x, y)))
        if outside:
            raise QgsProcessingException(
                self.tr("{0}: {1} confidential points lie outside the study window ({2}).").format(
                    self.WINDOW, outside, self.WINDOW
                )
            )
        progress = FeedbackProgress(feedback, 16.0, 92.0)
        try:
            risk = marked_risk(
                x,
                y,
                index,
                numeric,
                sx,
                sy,
                syn_index,
                syn_numeric,
                syn_set,
                sets,
                eps_s,
                eps_a,
                scaled(progress, 0.0, 0.35),
            )
            utility = l_function_bands(
                x, y, index, sx, sy, syn_index, syn_set, sets, window, progress=scaled(progress, 0.35, 0.9)
            )
        except ParameterError as error:
            if error.parameter == "synthetic" and not given(parameters, self.WINDOW):
                raise QgsProcessingException(
                    self.tr(
                        "{0}: {1}; the default window is the confidential points' bounding box + 5%: give {2}."
                    ).format(self.SYNTHETIC, error, self.WINDOW)
                ) from None
            raise self.core_error(error) from None
        progress(0.9, self.tr("Regressions"))
        arrays = (index, numeric, syn_index, syn_numeric, syn_set, sets)
        tables = self._regressions(parameters, context, feedback, comb, conf, arrays, logistic_field)
        unstable = report.unstable_warning(tables)  # nu_f below 3: flagged, the adjusted interval in the report
        if unstable:
            feedback.pushWarning(unstable)
        progress.check_cancel()
        s_q, a_q = risk.quantiles_s(), risk.quantiles_a()
        results = {
            self.MAX_TYPE_S: float(np.nanmax(s_q[:, 1])) if np.isfinite(s_q[:, 1]).any() else float("nan"),
            self.MAX_TYPE_A: float(np.nanmax(a_q[:, 1])) if np.isfinite(a_q[:, 1]).any() else float("nan"),
            self.SETS: sets,
        }
        feedback.pushInfo(
            self.tr("Largest median Type S risk {0:.4g}, Type A {1:.4g}.").format(
                results[self.MAX_TYPE_S], results[self.MAX_TYPE_A]
            )
        )
        for label, undefined in ((self.tr("Type S"), risk.undefined_s), (self.tr("Type A"), risk.undefined_a)):
            if undefined:
                feedback.pushWarning(
                    self.tr("{0}: {1} records have no set with a non-zero denominator; their risk is NULL.").format(
                        label, undefined
                    )
                )
        if given(parameters, self.OUTPUT):  # confidential, so never written unless asked for
            columns = [
                ("s_median", s_q[:, 1]),
                ("s_q05", s_q[:, 0]),
                ("s_q95", s_q[:, 2]),
                ("s_sets", risk.sets_s),
                ("a_median", a_q[:, 1]),
                ("a_q05", a_q[:, 0]),
                ("a_q95", a_q[:, 2]),
                ("a_sets", risk.sets_a),
            ]
            results[self.OUTPUT] = self._write_layer(parameters, context, conf.points, columns)
        if given(parameters, self.OUTPUT_REPORT):
            sections = report.report_sections(comb, risk, s_q, a_q, utility, tables, eps_s, eps_a, window, x.size)
            results.update(self._report(parameters, context, sections))
        return results

    def _write_layer(self, parameters, context, points, columns):
        """The CONFIDENTIAL risk layer; a risk that no set could estimate (NaN) is written as NULL."""
        import numpy as np

        class _Nullable(list):  # write_point_sink makes a double field of values whose dtype is not whole numbers
            dtype = np.dtype(float)

        typed = [
            (
                name,
                _Nullable(None if np.isnan(v) else v for v in values.tolist()) if values.dtype.kind == "f" else values,
            )
            for name, values in columns
        ]
        dest = write_point_table(
            self, parameters, context, self.OUTPUT, points, typed, self.tr("Marked disclosure risk (CONFIDENTIAL)")
        )
        ThematicStyle.attach(context, dest, "s_median")
        return dest

    def _regressions(self, parameters, context, feedback, comb, conf, arrays, logistic_field):
        """The regression tables ``[(title, rows, standardise)]`` (core.marked.combining.compare_numeric and
        compare_logistic); a chart is standardised when its coefficients have different scales."""
        from ...core.errors import ParameterError
        from ...core.marked.combining import compare_logistic, compare_numeric, logistic_design, numeric_model

        index, numeric, syn_index, syn_numeric, syn_set, sets = arrays
        numeric_name = self.parameterAsString(parameters, self.NUMERIC_FIELD, context) if numeric is not None else None
        tables = []
        if numeric is not None:
            model = numeric_model(numeric, syn_numeric, conf.numeric_is_integer)
            title = (
                self.tr("Poisson regression of {0} on the combinations (log scale)")
                if model == "poisson"
                else self.tr("Least-squares regression of {0} on the combinations")
            ).format(numeric_name)
            labels = [comb.label(k) for k in range(comb.k)]
            rows = compare_numeric(index, numeric, syn_index, syn_numeric, syn_set, sets, labels, model)
            tables.append((title, rows, False))
        level = self._logistic_level(parameters, context, comb, logistic_field, feedback)
        if level is not None:
            try:
                design = logistic_design(comb.fields, comb.levels, logistic_field, level, numeric_name)
            except ParameterError as error:
                raise self.core_error(error) from None
            rows = compare_logistic(design, index, numeric, syn_index, syn_numeric, syn_set, sets)
            tables.append((self.tr("Logistic regression: {0}").format(design.title), rows, numeric is not None))
        return tables

    def _report(self, parameters, context, sections):
        path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        if not path:
            return {}
        ensure_folder(path, self.OUTPUT_REPORT)
        title = self.tr("{0} (CONFIDENTIAL: not for publication)").format(self.displayName())
        write_html_report(path, title, sections)
        return {self.OUTPUT_REPORT: path}
