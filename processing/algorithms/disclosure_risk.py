"""Processing algorithm ``spatialprivacy:disclosurerisk``: each confidential person's disclosure risk from a
synthetic set, Walder et al. eq. 16 (core.synthesis.assessment.disclosure_risk)."""

from __future__ import annotations

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFileDestination,
)

from ...compat import SOURCE_POINT
from ..destinations import check_outputs
from ..feedback import FeedbackProgress
from ..lgcp_synthesis_base import METHOD_KEYS, WalderAlgorithm
from ..parameters import given, make_rng
from ..reports.lgcp_synthesis import fit_rows, histogram
from ..sinks import write_point_table
from ..styling import ThematicStyle


class DisclosureRiskAlgorithm(WalderAlgorithm):
    OUTPUT = "OUTPUT"
    #: sinks holding confidential values, labelled so inside a GeoPackage (sinks.make_sink)
    CONFIDENTIAL_SINKS = (OUTPUT,)
    #: every output is a confidential score, not a release: its random draws protect nothing
    PUBLISHES_DRAWS = False
    MAX_RISK = "MAX_RISK"
    MEAN_RISK = "MEAN_RISK"

    def name(self):
        return "disclosurerisk"

    def displayName(self):
        return self.tr("Disclosure risk of synthetic points (CPO)")

    def shortDescription(self):
        return self.tr("Per-person probability that an intruder locates each confidential point from a synthetic set.")

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Walder, Hanks &amp; Slavković, Section 7: the intruder knows the synthetic points, the method and "
                "every confidential location but one, and wants that one within the risk radius. The risk of person k "
                "is the mass of the leave-one-out predictive density π(s | S₋ₖ, S†) on the disc of the risk radius "
                "around the truth (eq. 16), from conditional predictive ordinates: for radial sets from the "
                "confidential posterior (eqs. 17-18; each person is linked to their synthetic point by a minimal "
                "assignment within the radius, as such an intruder could; as the radial points were redrawn until "
                "inside the window, their density 1/|B_r(s) ∩ W| replaces the paper's 1/(πr²), which otherwise "
                "misstates the risk of people near the boundary), for ANS and PRS from the joint fit of the "
                "confidential and synthetic points (eqs. 19-21), with the disc quadrature of Appendix A.4.</p>"
                "<p>Give the same METHOD, RADIUS and NOISE as were used to make the synthetic set.</p>"
            )
            + self.guarantee_text(self.tr)
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add_confidential()
        self.add_synthetic()
        self.add_method()
        self.add_risk_options()
        self.add_common()
        self.add(
            QgsProcessingParameterFeatureSink(
                self.OUTPUT, tr("Risk per person (CONFIDENTIAL)"), SOURCE_POINT, None, True, False
            ),
            tr(
                "The CONFIDENTIAL points with risk (probability), cpo (leave-one-out density at the true location, "
                "per squared CRS unit) and cpo_ess (effective draws behind it; below about 20 it is unstable). It "
                "shows where the people at risk live: never publish it."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr("Maximum and mean risk, settings and a histogram of the risks."),
        )
        self.addOutput(QgsProcessingOutputNumber(self.MAX_RISK, tr("Maximum disclosure risk")))
        self.addOutput(QgsProcessingOutputNumber(self.MEAN_RISK, tr("Mean disclosure risk")))

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_REPORT,))
        self.check_synthetic(parameters, context)
        from ...core.errors import ParameterError
        from ...core.progress import scaled
        from ...core.synthesis.assessment import disclosure_risk
        from ...core.synthesis.synthetic_sets import SyntheticSet, link_radial

        method = METHOD_KEYS[self.parameterAsEnum(parameters, self.METHOD, context)]
        risk_radius = self.parameterAsDouble(parameters, self.RISK_RADIUS, context)  # checked: parameter_problem
        try:
            spec = self.spec(parameters, context, method)
        except ParameterError as error:
            raise self.core_error(error) from None
        rng, _ = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 20.0, 95.0)
        points = self.input_points(parameters, context, feedback, (0.0, 10.0))
        xs, ys = self.synthetic_points(parameters, context, feedback, points)
        if method == "radial" and xs.size != len(points.x):
            raise QgsProcessingException(
                self.tr(
                    "{0}: a radial set has one point per confidential point: {1} synthetic, {2} confidential."
                ).format(self.SYNTHETIC, xs.size, len(points.x))
            )
        points, conf = self.confidential(
            parameters, context, feedback, rng, scaled(progress, 0.0, 0.5), points, risk_radius
        )
        try:
            if method == "radial":
                order = link_radial(conf.x, conf.y, xs, ys, spec.value)
                xs, ys = xs[order], ys[order]
            else:
                conf.check_synthetic(xs, ys)
                if xs.size != conf.n:
                    feedback.pushWarning(
                        self.tr(
                            "{0} has {1} points and {2} has {3}; the paper's sets have as many as the data."
                        ).format(self.SYNTHETIC, xs.size, self.INPUT, conf.n)
                    )
            risk = disclosure_risk(
                conf,
                SyntheticSet(spec, xs, ys),
                rng,
                risk_radius,
                self.risk_method(parameters, context),
                self.hyper(parameters, context),
                scaled(progress, 0.5, 1.0),
            )
        except ParameterError as error:
            raise self.core_error(error) from None
        progress.check_cancel()
        results = {self.MAX_RISK: risk.maximum, self.MEAN_RISK: float(risk.risk.mean())}
        if given(parameters, self.OUTPUT):  # confidential, so never written unless asked for
            results[self.OUTPUT] = write_point_table(
                self,
                parameters,
                context,
                self.OUTPUT,
                points,
                [("risk", risk.risk), ("cpo", risk.cpo), ("cpo_ess", risk.ess)],
                self.tr("Disclosure risk (CONFIDENTIAL)"),
            )
            ThematicStyle.attach(context, results[self.OUTPUT], "risk")
        feedback.pushInfo(self.tr("Maximum risk {0:.4g}, mean {1:.4g}.").format(risk.maximum, float(risk.risk.mean())))
        unstable = int((risk.ess < 20).sum())
        if unstable:
            feedback.pushWarning(
                self.tr("{0} risks rest on fewer than 20 effective draws; raise {1}.").format(unstable, self.DRAWS)
            )
        rows = [
            (self.tr("Method"), spec.label),
            (self.tr("Risk radius"), f"{risk_radius:g}"),
            (self.tr("Risk density"), risk.method),
            (self.tr("Hyperparameters"), self.hyper(parameters, context)),
            (self.tr("Maximum risk"), f"{risk.maximum:.4g}"),
            (self.tr("Mean risk"), f"{float(risk.risk.mean()):.4g}"),
            (self.tr("Risks resting on < 20 effective draws"), unstable),
        ]
        results.update(
            self.write_report(
                parameters,
                context,
                self.displayName(),
                [
                    (self.tr("Not for publication"), self.tr("Per-person risks point at the people at risk.")),
                    (self.tr("Risk"), rows),
                    (self.tr("Confidential fit"), fit_rows(conf)),
                    (self.tr("Distribution of the risks"), histogram(risk.risk)),
                ],
            )
        )
        return results
