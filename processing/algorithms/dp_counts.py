"""Processing algorithm ``spatialprivacy:dpcounts``: a thin adapter over core.counts."""

from __future__ import annotations

from qgis.core import (
    NULL,
    QgsFeature,
    QgsFeatureRequest,
    QgsFields,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
)

from ...compat import (
    FIELD_ANY,
    FIELD_NUMERIC,
    NUMBER_DOUBLE,
    NUMBER_INTEGER,
    REQUEST_NO_GEOMETRY,
    SOURCE_SKIP_GEOMETRY_CHECKS,
    SOURCE_VECTOR,
    WKB_NO_GEOMETRY,
    double_field,
    int_field,
)
from ...core.limits import MAX_SAMPLER_VALUES, MIN_EPSILON
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_not_a_shapefile_table, check_outputs, ensure_folders
from ..feedback import FeedbackProgress, cancelled, check_cancel_while_writing
from ..inputs import as_number, numeric_field_index
from ..ledger import add_ledger_parameters, check_release, counts_dataset
from ..parameters import make_rng, optional_number
from ..reports.dp_counts import report_sections
from ..reports.page import write_html_report
from ..sinks import add_features, make_sink, note_closing
from ..styling import ThematicStyle

#: Up to this many synthetic sets are written as fields of the input features; more give a long table.
WIDE_LIMIT = 20
#: At most this many synthetic counts (sets x groups) per run: 200 MB in memory; as a long table, about
#: 25 minutes of writing at the 30,000 rows a second measured here. The paper's L = 1,000 sets of its
#: 47,034 groups (4.7e7) fit.
MAX_SYNTHETIC_VALUES = 50_000_000


class DPCountsAlgorithm(SpatialPrivacyAlgorithm):
    REQUIRES = ("numpy", "scipy", "matplotlib")
    INPUT = "INPUT"
    COUNT_FIELD = "COUNT_FIELD"
    POPULATION_FIELD = "POPULATION_FIELD"
    RATE_FIELD = "RATE_FIELD"
    EXPECTED_FIELD = "EXPECTED_FIELD"
    KEEP_FIELDS = "KEEP_FIELDS"
    RATE_SCALE = "RATE_SCALE"
    RESCALE_PRIOR = "RESCALE_PRIOR"
    EPSILON = "EPSILON"
    TRUNCATE = "TRUNCATE"
    ALPHA = "ALPHA"
    C = "C"
    SETS = "SETS"
    SEED = "SEED"
    OUTPUT = "OUTPUT"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    TOTAL_EPSILON = "TOTAL_EPSILON"
    GROUPS = "GROUPS"
    MEDIAN_A = "MEDIAN_A"
    MAX_A = "MAX_A"
    #: "prior" and "expected" name whichever of RATE_FIELD and EXPECTED_FIELD is given (process)
    CORE_NAMES = {
        "counts": COUNT_FIELD,
        "groups": INPUT,
        "population": POPULATION_FIELD,
        "epsilon": EPSILON,
        "rate_per": RATE_SCALE,
        "alpha": ALPHA,
        "c": C,
        "sets": SETS,
    }

    def name(self):
        return "dpcounts"

    def displayName(self):
        return self.tr("Differentially private synthetic counts (Poisson-gamma)")

    def group(self):
        return self.tr("Synthetic counts")

    def groupId(self):
        return "syntheticcounts"

    def shortDescription(self):
        return self.tr("Replace counts per area (or area x stratum) by ε-differentially private synthetic counts.")

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Replaces the event count of every group (an area, or one row per area and stratum such as "
                "age or sex) by synthetic counts drawn from a Poisson-gamma posterior predictive distribution, "
                "following Quick (2021), <i>Improving the utility of Poisson-distributed, differentially private "
                "synthetic data via prior predictive truncation</i>. Each group's prior rate comes from public "
                "information (e.g. national rates); the gamma priors are made just informative enough for the "
                "release to be ε-differentially private. With truncation, each synthetic count is kept within a "
                "plausible range computed from the prior alone (eq. 9), which makes the priors far less "
                "informative, so the synthetic counts keep more of the real geographic differences.</p>"
                "<p><b>Guarantee.</b> ε-differential privacy for each synthetic data set: two data sets are "
                "neighbours when "
                "one event (one person) is moved from one group to another, the total staying the same. For any "
                "such pair, the probability of any set of synthetic counts changes by at most a factor "
                "e<sup>ε</sup> (δ = 0 for the distribution sampled; the double-precision draw gives each "
                "probability only to within about 1e-16, so an outcome rarer than that can be drawn more or less "
                "often than it should: a δ of that order per split of the sampler's tree, not counted). The priors "
                "are calibrated with a bound proven for any number of groups "
                "(the loss from the group that loses the event plus the group that gains it, each at most ε/2); "
                "the paper's own rule (eqs. 7 and 14) comes from a two-group argument and can exceed ε with more "
                "groups, so it is not used. Populations, prior rates, the bounds and the priors are public and "
                "are written to the output, so they must be fixed without looking at the confidential counts "
                "(for example rates from an earlier census or a national rate); a prior or population field "
                "that is the count field itself is refused.</p>"
                "<p><b>Several sets cost more.</b> The L synthetic data sets are independent draws, so the output, "
                "which holds all L of them and their mean, is (L·ε)-differentially private (sequential "
                "composition). The result TOTAL_EPSILON, the layer name and the report give L·ε. (The paper draws "
                "L = 1,000 sets to average its utility measures; publishing them all would cost 1,000·ε.)</p>"
                "<p><b>Not protected:</b> the total of all counts is published exactly (the mechanism keeps it "
                "invariant).</p>"
                "<p>The quality of the synthetic counts depends on the quality of the prior rates: a group whose "
                "true count lies far outside its prior range is pulled into it.</p>"
            )
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Areas (polygon layer or table)"), [SOURCE_VECTOR]),
            tr(
                "One feature per group: an area, or an area and stratum (e.g. a table with one row per "
                "county, age group and sex). Geometry is optional and copied to the output. The exact sampler "
                "may use at most {0} GB of memory (50,000 groups took 0.7 GB in a test); a release that needs more "
                "is refused."
            ).format(f"{MAX_SAMPLER_VALUES * 8 / 1e9:.1f}"),
        )
        self.add(
            QgsProcessingParameterField(
                self.COUNT_FIELD, tr("Count field (confidential)"), None, self.INPUT, FIELD_NUMERIC
            ),
            tr("The confidential number of events per group: whole numbers >= 0. It is not copied to the output."),
        )
        self.add(
            QgsProcessingParameterField(self.POPULATION_FIELD, tr("Population field"), None, self.INPUT, FIELD_NUMERIC),
            tr("The public population at risk of each group (> 0), e.g. census or bridged-race estimates."),
        )
        self.add(
            QgsProcessingParameterField(
                self.RATE_FIELD, tr("Prior rate field"), None, self.INPUT, FIELD_NUMERIC, optional=True
            ),
            tr(
                "A public prior event rate per group (> 0), e.g. the national rate of the group's stratum, per "
                "'Rate per' people. Give this or the expected count field."
            ),
        )
        self.add(
            QgsProcessingParameterField(
                self.EXPECTED_FIELD, tr("Prior expected count field"), None, self.INPUT, FIELD_NUMERIC, optional=True
            ),
            tr("A public prior expected number of events per group (> 0). Give this or the prior rate field."),
        )
        self.add(
            QgsProcessingParameterField(
                self.KEEP_FIELDS,
                tr("Fields to copy to the output"),
                None,
                self.INPUT,
                FIELD_ANY,
                allowMultiple=True,
                optional=True,
            ),
            tr(
                "Input fields copied to the publishable output, e.g. an area code and name. The output is published "
                "as it is, so leave out everything derived from the confidential counts (rates, percentages, "
                "counts by subgroup); the count field itself is refused. Empty: none; every output row has "
                "group_fid, the input feature's id, to join on. The long table (more than {0} sets) has only "
                "group_fid."
            ).format(WIDE_LIMIT),
        )
        self.add(
            QgsProcessingParameterNumber(self.RATE_SCALE, tr("Rate per (people)"), NUMBER_DOUBLE, 1.0, minValue=1e-12),
            tr("The population the prior rates refer to: 1 for a rate per person, 100000 for a rate per 100,000."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterBoolean(self.RESCALE_PRIOR, tr("Rescale prior to the total"), True),
            tr(
                "Scale the prior expected counts so they add up to the published total, as the paper does with "
                "national rates. This uses only the total, which is public."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterNumber(self.EPSILON, tr("Epsilon (ε)"), NUMBER_DOUBLE, 1.0, minValue=MIN_EPSILON),
            tr(
                "The privacy budget ε (at least {0:g}) of one synthetic data set; the output with L sets costs L·ε "
                "in all. Smaller is more private and less accurate."
            ).format(MIN_EPSILON),
        )
        self.add(
            QgsProcessingParameterBoolean(self.TRUNCATE, tr("Prior predictive truncation"), True),
            tr(
                "Restrict each synthetic count to the range [L, U] of eq. (9), computed from the prior only "
                "(Quick 2021). Strongly recommended: without it the priors must be so informative that the "
                "synthetic counts mostly repeat the prior."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.ALPHA,
                tr("Alpha (tail probability of the bounds)"),
                NUMBER_DOUBLE,
                None,
                optional=True,
                minValue=0.0,
                maxValue=0.5,
            ),  # fmt: skip
            tr(
                "α in (0, 1/2): L and U are the α/2 and 1 − α/2 quantiles of Poisson prior predictive "
                "distributions (eq. 9). Smaller α gives wider ranges and more informative priors. Empty: 1/I "
                "for I ≥ 3 groups (the paper's rule of thumb), 1/3 for two (α must stay below 1/2)."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(self.C, tr("c (widening of the bounds)"), NUMBER_DOUBLE, 1.0, minValue=1.0),
            tr(
                "c >= 1 widens the range: L uses the expected count divided by c, U the expected count times c. "
                "Use c > 1 when the prior rates may miss large real differences (e.g. urban versus rural)."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.SETS, tr("Synthetic data sets"), NUMBER_INTEGER, 1, minValue=1, maxValue=100000
            ),
            tr(
                "How many independent synthetic data sets L to draw; publishing them costs L·ε. Up to {0} are "
                "written as fields syn_1 … syn_L of the input features; more are written as a long table "
                "(fields group_fid, set, syn_count) without geometry. Sets × groups may be at most {1}."
            ).format(WIDE_LIMIT, f"{MAX_SYNTHETIC_VALUES:,}"),
        )
        self.add_seed()
        add_ledger_parameters(self)
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Synthetic counts")),
            tr(
                "Publishable: the input features' geometry, group_fid and the fields in 'Fields to copy' (never "
                "the count field), with the synthetic counts, their mean and mean rate (per 'Rate per' people), "
                "and the public prior of every group: expected count, gamma shape a and rate b, and bounds L and U."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT,
                tr("Report (CONFIDENTIAL)"),
                tr("HTML files (*.html)"),
                optional=True,
                createByDefault=False,
            ),  # fmt: skip
            tr(
                "CONFIDENTIAL HTML report for the data steward: settings, the guarantee, prior informativeness, "
                "how many true counts fell outside their bounds, and true versus synthetic rates. Do not publish."
            ),
        )
        self.addOutput(QgsProcessingOutputNumber(self.EPSILON, tr("Epsilon of one synthetic data set")))
        self.addOutput(QgsProcessingOutputNumber(self.TOTAL_EPSILON, tr("Epsilon of the whole output (L·ε)")))
        self.addOutput(QgsProcessingOutputNumber(self.GROUPS, tr("Number of groups")))
        self.addOutput(QgsProcessingOutputNumber(self.MEDIAN_A, tr("Median prior shape a")))
        self.addOutput(QgsProcessingOutputNumber(self.MAX_A, tr("Largest prior shape a")))

    # -- inputs ---------------------------------------------------------------------------------

    def parameter_problem(self, parameters, context) -> str | None:
        """What is wrong with the field and alpha choices, or ``None``. Checked before every run, in models too
        (:meth:`SpatialPrivacyAlgorithm.prepareAlgorithm`)."""
        rate = self.parameterAsString(parameters, self.RATE_FIELD, context)
        expected = self.parameterAsString(parameters, self.EXPECTED_FIELD, context)
        if bool(rate) == bool(expected):
            return self.tr("{0} / {1}: give exactly one of the prior rate field and the expected count field.").format(
                self.RATE_FIELD, self.EXPECTED_FIELD
            )
        count = self.parameterAsString(parameters, self.COUNT_FIELD, context)
        for field in self.parameterAsFields(parameters, self.KEEP_FIELDS, context):
            if count and field.lower() == count.lower():
                return self.tr(
                    "{0}: '{1}' is the count field; the confidential counts are never copied to the output."
                ).format(self.KEEP_FIELDS, field)
        for name in (self.POPULATION_FIELD, self.RATE_FIELD, self.EXPECTED_FIELD):
            field = self.parameterAsString(parameters, name, context)
            if count and field and field.lower() == count.lower():
                return self.tr(
                    "{0}: '{1}' is the count field. The prior and the populations are published, so they must "
                    "not come from the confidential counts; use public rates or populations."
                ).format(name, field)
        value = optional_number(self, parameters, self.ALPHA, context)
        if value is not None and not (0.0 < value < 0.5):
            return self.tr("{0}: alpha must lie strictly between 0 and 1/2, got {1}.").format(self.ALPHA, value)
        return None

    def _read(self, parameters, context, feedback):
        source = self.parameterAsSource(parameters, self.INPUT, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.INPUT))
        names = {
            self.COUNT_FIELD: self.parameterAsString(parameters, self.COUNT_FIELD, context),
            self.POPULATION_FIELD: self.parameterAsString(parameters, self.POPULATION_FIELD, context),
        }
        rate_field = self.parameterAsString(parameters, self.RATE_FIELD, context)
        prior_param = self.RATE_FIELD if rate_field else self.EXPECTED_FIELD
        names[prior_param] = rate_field or self.parameterAsString(parameters, self.EXPECTED_FIELD, context)
        index = {param: numeric_field_index(source, param, field) for param, field in names.items()}
        ids, values = [], {param: [] for param in names}
        request = QgsFeatureRequest().setFlags(REQUEST_NO_GEOMETRY)
        # every area counts, whatever its geometry: a "skip invalid geometries" setting must not drop one here
        # (the output below copies every geometry as it is)
        no_check = SOURCE_SKIP_GEOMETRY_CHECKS
        for feature in source.getFeatures(request, no_check):
            if feedback.isCanceled():
                raise cancelled()
            ids.append(feature.id())
            for param in names:
                value = feature.attribute(index[param])
                if value is None or value == NULL:
                    raise QgsProcessingException(
                        self.tr("{0}: feature {1} has no value in '{2}'.").format(param, feature.id(), names[param])
                    )
                values[param].append(as_number(value, param, names[param], feature.id()))
        if len(ids) < 2:
            raise QgsProcessingException(self.tr("{0}: need at least two groups (features).").format(self.INPUT))
        return source, ids, values, prior_param, names

    # -- run ------------------------------------------------------------------------------------

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        from ...core import counts, counts_calibration
        from ...core.errors import ParameterError

        output_files = check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_REPORT,))
        source, ids, values, prior_param, names = self._read(parameters, context, feedback)
        epsilon = self.parameterAsDouble(parameters, self.EPSILON, context)
        truncate = self.parameterAsBool(parameters, self.TRUNCATE, context)
        alpha = optional_number(self, parameters, self.ALPHA, context)
        c = self.parameterAsDouble(parameters, self.C, context)
        sets = self.parameterAsInt(parameters, self.SETS, context)
        if sets * len(ids) > MAX_SYNTHETIC_VALUES:
            raise QgsProcessingException(
                self.tr(
                    "{0}: {1} sets of {2} groups are {3} synthetic counts; at most {4} can be made in one run."
                ).format(self.SETS, sets, len(ids), sets * len(ids), f"{MAX_SYNTHETIC_VALUES:,}")
            )
        if sets > WIDE_LIMIT or source.wkbType() == WKB_NO_GEOMETRY:  # a long table, or a table's copy
            check_not_a_shapefile_table(self.OUTPUT, output_files[self.OUTPUT])
        fields, kept = self._output_fields(parameters, context, source, sets, feedback)
        try:
            y = counts.check_counts(values[self.COUNT_FIELD])
            total = int(y.sum())
            population, prior = counts_calibration.prior_expected(
                values[self.POPULATION_FIELD],
                values[prior_param],
                rate_per=self.parameterAsDouble(parameters, self.RATE_SCALE, context)
                if prior_param == self.RATE_FIELD
                else None,
                rescale_to=total if self.parameterAsBool(parameters, self.RESCALE_PRIOR, context) else None,
            )
            cal = counts_calibration.calibrate(population, prior, total, epsilon, truncate=truncate, alpha=alpha, c=c)
            feedback.pushInfo(
                self.tr("{0} groups, total {1}: median prior shape a = {2:.4g}, largest {3:.4g}.").format(
                    len(ids), total, cal.median_a, float(cal.a.max())
                )
            )
            rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
            dataset = counts_dataset(self, parameters, context, self.INPUT, ids, y)
            check_release(self, parameters, context, feedback, *self._release(truncate, sets, epsilon), dataset)
            release = counts.synthesize(y, population, cal, sets, rng, progress=FeedbackProgress(feedback, 10.0, 85.0))
        except ParameterError as error:
            raise self.core_error(error, prior=prior_param, expected=prior_param) from None
        FeedbackProgress(feedback).check_cancel()
        report_path = output_files[self.OUTPUT_REPORT]
        report = report_sections(release, y, population, seed, names) + self.ledger_report() if report_path else None
        FeedbackProgress(feedback).check_cancel()
        ensure_folders(output_files)
        results = self._write(parameters, context, feedback, source, ids, release, population, fields, kept)
        if report is not None:
            title = self.labelled(self.tr("CONFIDENTIAL: DP synthetic counts, steward's report"))
            write_html_report(report_path, title, report)
            results[self.OUTPUT_REPORT] = report_path
        feedback.setProgress(100)
        results.update(
            {
                self.EPSILON: epsilon,
                self.TOTAL_EPSILON: sets * epsilon,
                self.GROUPS: len(ids),
                self.MEDIAN_A: cal.median_a,
                self.MAX_A: float(cal.a.max()),
            }
        )
        return results

    @staticmethod
    def _release(truncate, sets, epsilon):
        """``(mechanism, guarantees)`` for the privacy-budget ledger: the L sets together are (L·ε)-DP when one
        event moves between two groups, the total fixed (Quick 2021; sequential composition of the L draws)."""
        from ...core.ledger import Guarantee, counts_move_neighbourhood

        mechanism = "Poisson-gamma, truncated" if truncate else "Poisson-gamma"
        return mechanism, [Guarantee(counts_move_neighbourhood(), sets * epsilon)]

    def _output_fields(self, parameters, context, source, sets, feedback):
        """``(fields, kept)`` of the output (``kept``: indices of the input fields copied), before any work: a
        missing field or a name clash is refused up front."""
        # the index QGIS matched (ignoring case), so the true counts are never copied whatever the spelling
        count_index = source.fields().lookupField(self.parameterAsString(parameters, self.COUNT_FIELD, context))
        kept = []
        for name in self.parameterAsFields(parameters, self.KEEP_FIELDS, context):
            index = source.fields().lookupField(name)
            if index < 0:
                raise QgsProcessingException(
                    self.tr("{0}: the layer has no field '{1}'.").format(self.KEEP_FIELDS, name)
                )
            if index == count_index:
                raise QgsProcessingException(
                    self.tr(
                        "{0}: '{1}' is the count field; the confidential counts are never copied to the output."
                    ).format(self.KEEP_FIELDS, name)
                )
            if index not in kept:
                kept.append(index)
        wide = sets <= WIDE_LIMIT
        if kept and not wide:
            feedback.pushWarning(
                self.tr(
                    "{0}: not copied, because more than {1} sets are written as a long table (join on group_fid)."
                ).format(self.KEEP_FIELDS, WIDE_LIMIT)
            )
        fields = QgsFields()
        if wide:
            fields.append(int_field("group_fid"))
            taken = set()
            for i in kept:
                fields.append(source.fields().at(i))
                taken.add(source.fields().at(i).name().lower())
            added = (
                ["group_fid"]
                + [f"syn_{k + 1}" for k in range(sets)]
                + [
                    "syn_mean",
                    "syn_rate",
                    "prior_expected",
                    "prior_a",
                    "prior_b",
                    "lower",
                    "upper",
                ]
            )
            clash = [name for name in added if name in taken]
            if clash:
                raise QgsProcessingException(
                    self.tr(
                        "{0}: the kept field '{1}' has the name of an output field; leave it out or rename it first."
                    ).format(self.KEEP_FIELDS, clash[0])
                )
            for k in range(sets):
                fields.append(int_field(f"syn_{k + 1}"))
            for name in ("syn_mean", "syn_rate", "prior_expected", "prior_a", "prior_b"):
                fields.append(double_field(name))
            fields.append(int_field("lower"))
            fields.append(int_field("upper"))
        else:
            for field in (int_field("group_fid"), int_field("set"), int_field("syn_count")):
                fields.append(field)
        return fields, kept

    def _write(self, parameters, context, feedback, source, ids, release, population, fields, kept):
        cal = release.calibration
        synthetic = release.synthetic
        sets = synthetic.shape[0]
        rate_scale = self.parameterAsDouble(parameters, self.RATE_SCALE, context)
        wide = sets <= WIDE_LIMIT
        geometry_type = source.wkbType() if wide else WKB_NO_GEOMETRY
        crs = source.sourceCrs()
        sink, dest = make_sink(self, parameters, self.OUTPUT, context, fields, geometry_type, crs)
        mean = synthetic.mean(axis=0)
        # A Cancel stops a staged write (make_sink); a layer written in place is finished.
        if wide:
            row = {fid: k for k, fid in enumerate(ids)}
            # geometries are copied as they are: a "skip invalid geometries" setting must not drop a group
            no_check = SOURCE_SKIP_GEOMETRY_CHECKS
            for written, feature in enumerate(source.getFeatures(QgsFeatureRequest(), no_check)):
                k = row[feature.id()]
                out = QgsFeature(fields)
                out.setGeometry(feature.geometry())
                attributes = [int(feature.id())] + [feature.attribute(i) for i in kept]
                attributes += [int(v) for v in synthetic[:, k]]
                attributes += [
                    float(mean[k]),
                    float(mean[k] / population[k] * rate_scale),
                    float(cal.expected[k]),
                    float(cal.a[k]),
                    float(cal.b[k]),
                    int(cal.lower[k]),
                    int(cal.upper[k]),
                ]
                out.setAttributes(attributes)
                add_features(sink, out, self.OUTPUT)
                if written % 1000 == 0:
                    feedback.setProgress(85.0 + 15.0 * written / len(ids))
                    check_cancel_while_writing(feedback)
            if source.wkbType() != WKB_NO_GEOMETRY:
                note_closing(feedback, parameters, self.OUTPUT, len(ids))
                ThematicStyle.attach(context, dest, "syn_rate")
        else:
            for k, fid in enumerate(ids):
                feedback.setProgress(85.0 + 15.0 * k / len(ids))  # per group: a group is `sets` rows
                check_cancel_while_writing(feedback)
                for s in range(sets):
                    out = QgsFeature(fields)
                    out.setAttributes([int(fid), s + 1, int(synthetic[s, k])])
                    add_features(sink, out, self.OUTPUT)
        if context.willLoadLayerOnCompletion(dest):
            name = self.tr("DP synthetic counts (ε = {0:g})").format(cal.epsilon)
            if sets > 1:
                name = self.tr("DP synthetic counts (total ε = {0:g}: {1} sets of ε = {2:g})").format(
                    sets * cal.epsilon, sets, cal.epsilon
                )
            context.layerToLoadOnCompletionDetails(dest).name = self.labelled(name)
        return {self.OUTPUT: dest}
