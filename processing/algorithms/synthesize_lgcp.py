"""Processing algorithm ``spatialprivacy:synthesizelgcp``: Walder et al.'s model-based synthetic locations (ANS,
PRS) or radial perturbation, from the LGCP of the confidential points (core.synthesis.synthetic_sets.synthesize)."""

from __future__ import annotations

import math

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
)

from ...compat import NUMBER_INTEGER, SOURCE_POINT
from ..destinations import check_outputs
from ..feedback import FeedbackProgress
from ..lgcp_synthesis_base import METHOD_KEYS, WalderAlgorithm
from ..parameters import given, make_rng
from ..reports.lgcp_synthesis import fit_rows

#: Largest COUNT: a million points took 31-34 s to write here (GeoPackage).
MAX_SYNTHETIC_COUNT = 1_000_000


class SynthesizeLGCPAlgorithm(WalderAlgorithm):
    COUNT = "COUNT"
    SAMPLER = "SAMPLER"
    OUTPUT = "OUTPUT"
    SYNTHETIC_COUNT = "SYNTHETIC_COUNT"
    PAPER_NOISE_LEVEL = "PAPER_NOISE_LEVEL"

    def name(self):
        return "synthesizelgcp"

    def displayName(self):
        return self.tr("Synthetic points from an LGCP (radial, ANS, PRS)")

    def shortDescription(self):
        return self.tr("Walder et al.'s model-based synthetic locations, or radial perturbation as a baseline.")

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Makes a synthetic point pattern from a log-Gaussian Cox process fitted to the confidential points "
                "(Walder, Hanks &amp; Slavković, Section 5): radial perturbation (each point moved uniformly within a "
                "disc, kept inside the window), additive noise synthesis (ANS: posterior-mean intensity times "
                "exp(noise field) with the fitted spatial scale) or posterior resampling synthesis (PRS: a new "
                "random field with the fitted range and variance). ANS and PRS draw exactly COUNT points from the "
                "synthetic intensity inside the window.</p>"
            )
            + self.guarantee_text(self.tr)
            + self.tr(
                "<p>The output has only a synthetic identifier, in random order (so the order of a radial set does not "
                "link it to the input).</p>"
            )
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add_confidential()
        self.add_method()
        self.add(
            QgsProcessingParameterNumber(
                self.COUNT, tr("Number of synthetic points"), NUMBER_INTEGER, None, True, 1, MAX_SYNTHETIC_COUNT
            ),
            tr(
                "ANS and PRS: exactly this many points, at most a million. Empty: as many as the confidential points "
                "(the paper's choice)."
            ),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.SAMPLER,
                tr("Sampler (ANS, PRS)"),
                [tr("Exact (piecewise log-linear intensity)"), tr("Candidates (the paper's scheme)")],
                False,
                0,
            ),
            tr(
                "Exact: i.i.d. points from the synthetic intensity, log-linear on each mesh triangle. Candidates: N "
                "of 100N uniform candidates, weighted by the intensity, without replacement (approximate)."
            ),
            advanced=True,
        )
        self.add_common()
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Synthetic points"), SOURCE_POINT),
            tr("The synthetic points, with one field syn_id, in the layer's CRS. Assess their risk before publishing."),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr("Method, settings and fitted quantities (derived from the confidential data: keep it internal)."),
        )
        self.addOutput(QgsProcessingOutputNumber(self.SYNTHETIC_COUNT, tr("Number of synthetic points")))
        self.addOutput(QgsProcessingOutputNumber(self.PAPER_NOISE_LEVEL, tr("ANS noise level σ² on the paper's scale")))

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_REPORT,))
        from ...core.errors import ParameterError
        from ...core.progress import scaled
        from ...core.synthesis.synthetic_sets import synthesize

        method = METHOD_KEYS[self.parameterAsEnum(parameters, self.METHOD, context)]
        try:
            spec = self.spec(parameters, context, method)
        except ParameterError as error:
            raise self.core_error(error) from None
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 30.0, 90.0)
        points, conf = self.confidential(parameters, context, feedback, rng, scaled(progress, 0.0, 0.75))
        count = self.parameterAsInt(parameters, self.COUNT, context) if given(parameters, self.COUNT) else None
        if method == "radial" and count not in (None, conf.n):
            raise QgsProcessingException(
                self.tr("{0}: radial perturbation moves every point; leave it empty.").format(self.COUNT)
            )
        if method == "radial":
            self.warn_small_radii(conf, [spec.value], self.RADIUS, feedback)
        sampler = ("exact", "candidates")[self.parameterAsEnum(parameters, self.SAMPLER, context)]
        # after the fit (up to 75 % of the range) the bar moves on while drawing, to 90 % for writing
        progress(
            0.8, self.tr("Drawing {0} synthetic points ({1}).").format(conf.n if count is None else count, spec.label)
        )
        try:
            syn = synthesize(conf, spec, rng, count=count, sampler=sampler)
        except ParameterError as error:
            # a log-intensity too peaked to sample comes from a large ANS noise variance
            peaked = {"eta_nodes": self.NOISE} if method == "ans" else {}
            raise self.core_error(error, count=self.COUNT, n=self.COUNT, **peaked) from None
        progress.check_cancel()
        feedback.setProgress(90.0)
        dest = self.write_synthetic(parameters, context, self.OUTPUT, syn, points, rng)
        paper_noise = conf.paper_noise_level(spec.value) if method == "ans" else math.nan
        settings = [
            (self.tr("Method"), spec.label),
            (self.tr("Synthetic points"), syn.x.size),
            (self.tr("Sampler"), sampler),
        ]
        if method == "ans":
            settings.append((self.tr("Noise level σ² on the paper's scale (eq. 10)"), f"{paper_noise:.6g}"))
        settings.append(
            (
                self.tr("Seed"),
                self.tr("none") if seed is None else self.tr("{0} (reproducible: NOT for release)").format(seed),
            )
        )
        results = {self.OUTPUT: dest, self.SYNTHETIC_COUNT: int(syn.x.size), self.PAPER_NOISE_LEVEL: paper_noise}
        results.update(
            self.write_report(
                parameters,
                context,
                self.displayName(),
                [
                    (self.tr("Settings"), settings),
                    (self.tr("Confidential fit"), fit_rows(conf)),
                ],
            )
        )
        return results
