"""Processing algorithm ``spatialprivacy:riskutilitysweep``: many synthetic sets scored by maximum disclosure risk
and pMSE, and the recommended one, Walder et al. Section 8 (core.synthesis.sweep.sweep)."""

from __future__ import annotations

import math

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFields,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ...compat import (
    NUMBER_DOUBLE,
    NUMBER_INTEGER,
    SOURCE_POINT,
    SOURCE_VECTOR,
    WKB_NO_GEOMETRY,
    double_field,
    int_field,
    string_field,
)
from ..destinations import check_outputs, destination_path, ensure_folder
from ..feedback import FeedbackProgress
from ..lgcp_synthesis_base import WalderAlgorithm
from ..parameters import given, make_rng, number_list_help, parse_number_list
from ..reports.lgcp_synthesis import fit_rows, risk_utility_chart, setting_rows
from ..sinks import add_features, make_sink, write_point_sink


class RiskUtilitySweepAlgorithm(WalderAlgorithm):
    RADII = "RADII"
    NOISE_LEVELS = "NOISE_LEVELS"
    PRS_SETS = "PRS_SETS"
    REPLICATES = "REPLICATES"
    MAX_RISK = "MAX_RISK"
    OUTPUT_TABLE = "OUTPUT_TABLE"
    OUTPUT_RECOMMENDED = "OUTPUT_RECOMMENDED"
    CONFIDENTIAL_SINKS = (OUTPUT_TABLE,)
    TABLE_SINKS = (OUTPUT_TABLE,)
    SETS = "SETS"
    RECOMMENDED_PMSE = "RECOMMENDED_PMSE"
    RECOMMENDED_MAX_RISK = "RECOMMENDED_MAX_RISK"
    BASELINE_MAX_RISK = "BASELINE_MAX_RISK"

    def name(self):
        return "riskutilitysweep"

    def displayName(self):
        return self.tr("Risk-utility sweep of LGCP synthesis (radial, ANS, PRS)")

    def shortDescription(self):
        return self.tr(
            "Makes many synthetic sets, scores each by maximum disclosure risk and pMSE, and recommends one."
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Walder, Hanks &amp; Slavković's study (Section 8, Figures 5-6): for each radius (radial "
                "perturbation), each ANS noise variance and each PRS replicate, one synthetic set is made and scored "
                "by its maximum disclosure risk (eq. 16) and its pMSE (eq. 15). The recommended set has the lowest "
                "pMSE among those whose maximum risk is at most the threshold, counting a setting (a radius, a noise "
                "variance, or PRS) only if every one of its releases is. The table and report list every set; the "
                "chart plots risk against pMSE.</p>"
                "<p>A set's risk is the risk of that one release. A noisy release (ANS, PRS) can by chance thin the "
                "riskiest cluster and mislead the intruder, scoring below the risk with nothing released (the "
                "baseline); another release of the same setting may score higher. With several releases per setting "
                "(REPLICATES) the report summarises each setting by its mean and worst risk: judge a setting by "
                "those, not by its luckiest release.</p>"
                "<p>The sets are independent and run in parallel: in local worker processes (one per core), or on a "
                "Dask cluster when a scheduler address is set in Processing &gt; Options &gt; Providers &gt; Spatial "
                "Privacy. Each set's random seed is drawn before any set runs, so the results are identical whichever "
                "runs them. The confidential points and model travel to the workers: use only a cluster inside the "
                "data steward's trusted environment. The address is never written to the table or the report (the "
                "log names it only when the cluster cannot be reached or loses the work).</p>"
            )
            + self.guarantee_text(self.tr)
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add_confidential()
        self.add(
            QgsProcessingParameterString(self.RADII, tr("Radial radii"), "", False, True),
            tr("Perturbation radii in CRS units, e.g. '50, 100, 200'. Empty: no radial sets.")
            + " "
            + number_list_help(),
        )
        self.add(
            QgsProcessingParameterString(self.NOISE_LEVELS, tr("ANS noise variances"), "0.25, 0.5, 1, 2", False, True),
            tr(
                "Marginal variances of the ANS noise field (>= 0). Default '0.25, 0.5, 1, 2'; clear it (an empty "
                "string) for no ANS sets."
            )
            + " "
            + number_list_help(),
        )
        self.add(
            QgsProcessingParameterNumber(self.PRS_SETS, tr("PRS replicates"), NUMBER_INTEGER, 5, False, 0, 1000),
            tr("Number of PRS sets (each a fresh random field). Default 5; 0 for none."),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.REPLICATES, tr("Releases per radius and noise variance"), NUMBER_INTEGER, 1, False, 1, 100
            ),
            tr(
                "Independent synthetic sets made for each radius and each ANS noise variance (>= 1), to show how "
                "much the risk and pMSE of one setting vary between releases."
            ),
        )
        self.add_risk_options()
        self.add(
            QgsProcessingParameterNumber(
                self.MAX_RISK, tr("Maximum acceptable risk"), NUMBER_DOUBLE, 0.05, False, 0.0, 1.0
            ),
            tr("Threshold on the maximum disclosure risk for the recommendation, in (0, 1]."),
        )
        self.add_common()
        self.add(
            QgsProcessingParameterFeatureSink(
                self.OUTPUT_TABLE, tr("Sets and scores (CONFIDENTIAL)"), SOURCE_VECTOR, None, True, False
            ),
            tr(
                "CONFIDENTIAL: one row per synthetic set: label, method, value (radius or noise variance), "
                "replicate, max_risk, pmse, recommended. The scores are computed from the confidential points; keep "
                "the table internal, like the report. Not made unless asked for."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr("The table, the risk-utility chart and the recommendation (derived from the confidential data)."),
        )
        self.add(
            QgsProcessingParameterFeatureSink(
                self.OUTPUT_RECOMMENDED, tr("Recommended synthetic points"), SOURCE_POINT, None, True, False
            ),
            tr(
                "The recommended synthetic set (syn_id only, random order); an empty layer if no set meets the "
                "threshold."
            ),
        )
        self.addOutput(QgsProcessingOutputNumber(self.SETS, tr("Number of synthetic sets")))
        self.addOutput(
            QgsProcessingOutputNumber(self.RECOMMENDED_PMSE, tr("pMSE of the recommended set (NaN if none)"))
        )
        self.addOutput(
            QgsProcessingOutputNumber(
                self.RECOMMENDED_MAX_RISK, tr("Maximum risk of the recommended set (NaN if none)")
            )
        )
        self.addOutput(
            QgsProcessingOutputNumber(
                self.BASELINE_MAX_RISK, tr("Maximum risk with nothing released (what the other points alone reveal)")
            )
        )

    def _numbers(self, parameters, context, name, minimum_exclusive):
        values = parse_number_list(self.parameterAsString(parameters, name, context), name)
        for value in values:
            if not math.isfinite(value) or value < 0 or (minimum_exclusive and value == 0):
                raise QgsProcessingException(
                    self.tr(
                        "{0}: {1} is not allowed (radii must be > 0, noise variances >= 0; separate values with "
                        "commas, or with semicolons if you write decimals with a comma)."
                    ).format(name, value)
                )
        return values

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        check_outputs(
            self, parameters, context, sinks=(self.OUTPUT_TABLE, self.OUTPUT_RECOMMENDED), files=(self.OUTPUT_REPORT,)
        )

        from ...core.errors import ParameterError
        from ...core.executor import ExecutorError, describe
        from ...core.progress import scaled
        from ...core.synthesis.sweep import recommend, sweep, sweep_specs
        from ..executor_settings import sweep_executor

        executor = sweep_executor(feedback)  # before the long fit: an address without Dask fails here

        radii = self._numbers(parameters, context, self.RADII, True)
        noise = self._numbers(parameters, context, self.NOISE_LEVELS, False)
        prs = self.parameterAsInt(parameters, self.PRS_SETS, context)
        replicates = self.parameterAsInt(parameters, self.REPLICATES, context)
        if replicates < 1:
            raise QgsProcessingException(
                self.tr("{0}: make at least one release per setting, got {1}.").format(self.REPLICATES, replicates)
            )
        if not (radii or noise or prs):
            raise QgsProcessingException(
                self.tr("{0}, {1}, {2}: give at least one radius, noise variance or PRS replicate.").format(
                    self.RADII, self.NOISE_LEVELS, self.PRS_SETS
                )
            )
        risk_radius = self.parameterAsDouble(parameters, self.RISK_RADIUS, context)  # checked: parameter_problem
        threshold = self.parameterAsDouble(parameters, self.MAX_RISK, context)
        if not (0 < threshold <= 1):
            raise QgsProcessingException(
                self.tr("{0}: the threshold must lie in (0, 1], got {1}.").format(self.MAX_RISK, threshold)
            )
        rng, _ = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 30.0, 95.0)  # after reading INPUT (0-30 %)
        points, conf = self.confidential(
            parameters, context, feedback, rng, scaled(progress, 0.0, 0.2), risk_radius=risk_radius
        )
        self.warn_small_radii(conf, radii, self.RADII, feedback)
        try:
            specs = sweep_specs(radii, noise, prs, replicates)
            result = sweep(
                conf,
                specs,
                rng,
                risk_radius,
                self.risk_method(parameters, context),
                self.hyper(parameters, context),
                progress=scaled(progress, 0.2, 1.0),
                on_result=lambda syn, e: feedback.pushInfo(
                    f"{e.spec.label}: max risk {e.max_risk:.4g}, pMSE {e.pmse:.4g}"
                ),
                executor=executor,
            )
        except ExecutorError as error:  # nothing is written: the outputs are staged
            raise QgsProcessingException(
                self.tr("The sweep could not be completed, and no output was written: {0}").format(error)
            ) from None
        except ParameterError as error:
            raise self.core_error(
                error,
                radius=self.RADII,
                noise=self.NOISE_LEVELS,
                eta_nodes=self.NOISE_LEVELS,  # an intensity too peaked to sample: a large ANS noise variance
                prs_replicates=self.PRS_SETS,
                replicates=self.REPLICATES,
            ) from None
        best = recommend(result.evaluations, threshold, whole_setting=True)
        progress.check_cancel()
        results = {
            self.SETS: len(specs),
            self.RECOMMENDED_PMSE: math.nan,
            self.RECOMMENDED_MAX_RISK: math.nan,
            self.BASELINE_MAX_RISK: result.baseline_max,
        }
        if given(parameters, self.OUTPUT_TABLE):  # confidential: only when asked for
            results[self.OUTPUT_TABLE] = self._table(parameters, context, result, best)
        if best is None:
            feedback.pushWarning(
                self.tr("No setting has every release at or below {0:g}: nothing recommended.").format(threshold)
            )
            if threshold < result.baseline_max:
                feedback.pushWarning(
                    self.tr(
                        "{0} = {1:g} is below the maximum risk with nothing released ({2:.4g}, what the other points "
                        "alone reveal), which no synthetic set can be expected to beat; choose a threshold above it."
                    ).format(self.MAX_RISK, threshold, result.baseline_max)
                )
            if given(parameters, self.OUTPUT_RECOMMENDED):
                # an empty layer, not no file: one an earlier run left at this path must not pass for a set that
                # meets this threshold
                import numpy as np

                results[self.OUTPUT_RECOMMENDED] = write_point_sink(
                    self,
                    parameters,
                    context,
                    self.OUTPUT_RECOMMENDED,
                    np.zeros(0),
                    np.zeros(0),
                    points,
                    [("syn_id", np.zeros(0, dtype=np.int64))],
                    self.labelled(self.tr("Nothing recommended (no set meets the threshold)")),
                )
                feedback.pushWarning(
                    self.tr("{0} is written empty: no set meets the threshold.").format(self.OUTPUT_RECOMMENDED)
                )
        else:
            chosen, scores = result.sets[best], result.evaluations[best]
            results[self.RECOMMENDED_PMSE], results[self.RECOMMENDED_MAX_RISK] = scores.pmse, scores.max_risk
            feedback.pushInfo(
                self.tr("Recommended: {0} (pMSE {1:.4g}, max risk {2:.4g}).").format(
                    chosen.spec.label, scores.pmse, scores.max_risk
                )
            )
            if given(parameters, self.OUTPUT_RECOMMENDED):
                results[self.OUTPUT_RECOMMENDED] = self.write_synthetic(
                    parameters, context, self.OUTPUT_RECOMMENDED, chosen, points, rng
                )
        rows = [
            (
                e.spec.label,
                f"max risk {e.max_risk:.4g} | pMSE {e.pmse:.4g}"
                + (" | " + self.tr("recommended") if i == best else ""),
            )
            for i, e in enumerate(result.evaluations)
        ]
        recommendation = (
            self.tr("No setting has every release at or below the threshold {0:g}.").format(threshold)
            if best is None
            else self.tr(
                "{0}: lowest pMSE ({1:.4g}) among the sets of settings whose every release has maximum risk at "
                "most {2:g} (its risk: {3:.4g})."
            ).format(
                result.sets[best].spec.label,
                result.evaluations[best].pmse,
                threshold,
                result.evaluations[best].max_risk,
            )
        )
        results.update(
            self.write_report(
                parameters,
                context,
                self.displayName(),
                [
                    (self.tr("Recommendation"), recommendation),
                    (self.tr("Risk-utility chart"), risk_utility_chart(result, best, threshold)),
                    (self.tr("Settings over their releases"), setting_rows(result)),
                    (self.tr("Sets"), rows),
                    (
                        self.tr("Settings"),
                        [
                            (self.tr("Risk radius"), f"{risk_radius:g}"),
                            (self.tr("Risk threshold"), f"{threshold:g}"),
                            (self.tr("Releases per radius and noise variance"), replicates),
                            (
                                self.tr("Maximum risk with nothing released (baseline)"),
                                f"{result.baseline_max:.4g}",
                            ),
                            (self.tr("Risk density"), self.risk_method(parameters, context)),
                            (self.tr("Hyperparameters"), self.hyper(parameters, context)),
                            (self.tr("Sets run in"), describe(executor)),  # never the scheduler's address
                        ],
                    ),
                    (self.tr("Confidential fit"), fit_rows(conf)),
                ],
            )
        )
        return results

    def _table(self, parameters, context, result, best):
        fields = QgsFields()
        for f in (
            string_field("label"),
            string_field("method", 16),
            double_field("value"),
            int_field("replicate"),
            double_field("max_risk"),
            double_field("pmse"),
            int_field("recommended"),
        ):
            fields.append(f)
        ensure_folder(destination_path(parameters, self.OUTPUT_TABLE), self.OUTPUT_TABLE)
        sink, dest = make_sink(
            self, parameters, self.OUTPUT_TABLE, context, fields, WKB_NO_GEOMETRY, QgsCoordinateReferenceSystem()
        )
        for i, e in enumerate(result.evaluations):
            feature = QgsFeature(fields)
            feature.setAttributes(
                [
                    e.spec.label,
                    e.spec.method,
                    float(e.spec.value),
                    int(e.spec.replicate),
                    float(e.max_risk),
                    float(e.pmse),
                    int(i == best),
                ]
            )
            add_features(sink, feature, self.OUTPUT_TABLE)
        return dest
