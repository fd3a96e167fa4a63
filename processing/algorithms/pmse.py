"""Processing algorithm ``spatialprivacy:pmse``: the model-based pMSE of a synthetic set, Walder et al. eqs.
12-15 (core.synthesis.assessment.utility)."""

from __future__ import annotations

from qgis.core import QgsProcessingException, QgsProcessingOutputNumber, QgsProcessingParameterFileDestination

from ..destinations import check_outputs
from ..feedback import FeedbackProgress
from ..lgcp_synthesis_base import WalderAlgorithm
from ..parameters import make_rng


class PMSEAlgorithm(WalderAlgorithm):
    PMSE = "PMSE"
    #: a score of a synthetic set, not a release: its random draws protect nothing
    PUBLISHES_DRAWS = False

    def name(self):
        return "pmse"

    def displayName(self):
        return self.tr("Utility of synthetic points (model-based pMSE)")

    def shortDescription(self):
        return self.tr(
            "How well an LGCP fit tells the synthetic points from the confidential ones (0 best, 0.25 worst)."
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Walder, Hanks &amp; Slavković, Section 6 (eqs. 12-15): an LGCP is fitted to the synthetic points "
                "on the confidential model's mesh and covariates; for every pooled point the two fitted densities, "
                "draw by draw, give the probability that it is confidential; pMSE is the mean squared distance of the "
                "probability of a correct classification from 1/2. 0: the synthetic points are indistinguishable; "
                "0.25: fully distinguishable. The synthetic layer must have as many points as the confidential one.</p>"
            )
            + self.guarantee_text(self.tr)
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add_confidential()
        self.add_synthetic()
        self.add_fit_options()
        self.add_common()
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr(
                "The pMSE, its scale and the settings. It holds no location, but it describes the confidential "
                "points (their number, the fit to them): keep it with the steward's files."
            ),
        )
        self.addOutput(QgsProcessingOutputNumber(self.PMSE, tr("pMSE")))

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        check_outputs(self, parameters, context, files=(self.OUTPUT_REPORT,))
        self.check_synthetic(parameters, context)
        from ...core.errors import ParameterError
        from ...core.progress import scaled
        from ...core.synthesis.assessment import utility

        rng, _ = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 20.0, 95.0)
        points = self.input_points(parameters, context, feedback, (0.0, 10.0))
        xs, ys = self.synthetic_points(parameters, context, feedback, points)
        if xs.size != len(points.x):
            raise QgsProcessingException(
                self.tr("{0}: the pMSE compares sets of equal size: {1} synthetic points, {2} confidential.").format(
                    self.SYNTHETIC, xs.size, len(points.x)
                )
            )
        points, conf = self.confidential(parameters, context, feedback, rng, scaled(progress, 0.0, 0.7), points)
        try:
            score = utility(conf, xs, ys, rng, self.hyper(parameters, context), scaled(progress, 0.7, 1.0))
        except ParameterError as error:
            raise self.core_error(error) from None
        progress.check_cancel()
        feedback.pushInfo(
            self.tr("pMSE = {0:.4g} (0 indistinguishable, 0.25 fully distinguishable).").format(score.pmse)
        )
        results = {self.PMSE: score.pmse}
        rows = [
            (self.tr("pMSE"), f"{score.pmse:.5g}"),
            (self.tr("Points per set"), conf.n),
            (self.tr("Hyperparameters"), self.hyper(parameters, context)),
            (self.tr("Posterior draws used"), conf.n_draws),
        ]
        results.update(self.write_report(parameters, context, self.displayName(), [(self.tr("Utility"), rows)]))
        return results
