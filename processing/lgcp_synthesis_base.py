"""The base class of Walder, Hanks & Slavković's LGCP synthesis algorithms (``synthesizelgcp``,
``disclosurerisk``, ``pmse`` and ``riskutilitysweep``): their shared parameters, the confidential points and
their fit (a model file, or fitted here), the synthetic layer to assess, and the report every one of them
writes."""

from __future__ import annotations

import math

from qgis.core import (
    QgsProcessingException,
    QgsProcessingParameterDistance,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFile,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
)

from ..compat import FLAG_OPTIONAL, NUMBER_DOUBLE, NUMBER_INTEGER, SOURCE_POINT, SOURCE_POLYGON, crs_key
from .algorithm import SpatialPrivacyAlgorithm
from .destinations import ensure_folder
from .feedback import run_feedback
from .inputs import check_point_layer, read_point_values, read_window
from .lgcp_inputs import load_model, read_covariates, setup_warning
from .parameters import given
from .reports.page import write_html_report
from .sinks import write_point_sink

METHOD_KEYS = ("radial", "ans", "prs")
#: Posterior draws of the confidential fit made here when no model file is given.
FIT_DRAWS = 1000


def _method_options(tr):
    return [
        tr("Radial perturbation (Section 5.1, baseline)"),
        tr("Additive noise synthesis, ANS (Section 5.2, eq. 10)"),
        tr("Posterior resampling synthesis, PRS (Section 5.3, eq. 11)"),
    ]


class WalderAlgorithm(SpatialPrivacyAlgorithm):
    """Shared parameters and inputs of the four LGCP synthesis tools."""

    REQUIRES = ("numpy", "scipy", "matplotlib")
    INPUT = "INPUT"
    MODEL = "MODEL"
    WINDOW = "WINDOW"
    DISTANCE_TO = "DISTANCE_TO"
    COVARIATES = "COVARIATES"
    OFFSET = "OFFSET"
    MAX_EDGE = "MAX_EDGE"
    SYNTHETIC = "SYNTHETIC"
    METHOD = "METHOD"
    RADIUS = "RADIUS"
    NOISE = "NOISE"
    RISK_RADIUS = "RISK_RADIUS"
    RISK_METHOD = "RISK_METHOD"
    HYPER = "HYPER"
    DRAWS = "DRAWS"
    WORK_CRS = "WORK_CRS"
    SEED = "SEED"
    OUTPUT_REPORT = "OUTPUT_REPORT"

    def group(self):
        return self.tr("Synthetic points")

    def groupId(self):
        return "syntheticpoints"

    @staticmethod
    def guarantee_text(tr) -> str:
        return tr(
            "<p><b>Guarantee.</b> None in the sense of differential privacy (no ε or δ): Walder et al. measure "
            "protection empirically. The disclosure risk of person k is the probability that an intruder who knows "
            "every other confidential location, the synthetic points and the method places k within the risk "
            "radius of the truth (eq. 16). Run spatialprivacy:disclosurerisk (or the sweep) before publishing, and "
            "publish only the synthetic points.</p>"
        )

    CORE_NAMES = {
        "points": "INPUT",
        "model": "MODEL",
        "window": "WINDOW",
        "synthetic": "SYNTHETIC",
        "radius": "RADIUS",
        "perturb_radius": "RADIUS",
        "noise": "NOISE",
        "noise_variance": "NOISE",
        "risk_radius": "RISK_RADIUS",
        "mesh": "MAX_EDGE",
        "max_edge": "MAX_EDGE",
        "integration": "MODEL",  # (fit_confidential refits with the degree-3 rule instead)
        "covariates": "COVARIATES",
        "distance": "DISTANCE_TO",
        "distance_to": "DISTANCE_TO",
        "offset": "OFFSET",
        "theta": "MODEL",
        "prior_range": "MODEL",
        "draws": "DRAWS",
    }

    # -- parameters ---------------------------------------------------------------------------

    def add_confidential(self):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Confidential points"), [SOURCE_POINT]),
            tr("The confidential points (cases, crimes, ...). Only their locations are used. At least 10."),
        )
        self.add(
            QgsProcessingParameterFile(
                self.MODEL, tr("Fitted model (from 'Fit a log-Gaussian Cox process')"), 0, "npz", None, True
            ),
            tr(
                "The .npz model file written by spatialprivacy:fitlgcp for this very layer (checked: same number of "
                "points, same locations, same CRS). It fixes the window, mesh and covariates. Empty: the model is "
                "fitted here with the fast method and the options below."
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.WINDOW, tr("Study window"), [SOURCE_POLYGON], None, True),
            tr(
                "Used only when no model file is given: polygons of the study region; every point must lie inside. "
                "Empty: the points' bounding box enlarged by 5%."
            )
            + (
                " " + tr("Synthetic points are drawn inside it.")
                if self.name() in ("synthesizelgcp", "riskutilitysweep")
                else " " + tr("The synthetic points must lie inside it.")
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.DISTANCE_TO, tr("Distance to features"), [-1], None, True),
            tr(
                "Used only when no model file is given: adds the covariate 'distance to the nearest feature of this "
                "layer', e.g. John Snow's Broad Street pump."
            ),
        )
        self.add(
            QgsProcessingParameterMultipleLayers(self.COVARIATES, tr("Covariate rasters"), 3, None, True),
            tr(
                "Used only when no model file is given: rasters (band 1) used as covariates; they must cover the "
                "window."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterRasterLayer(self.OFFSET, tr("Offset raster (log scale)"), None, True),
            tr("Used only when no model file is given: known log-intensity offset, e.g. log population density."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterDistance(self.MAX_EDGE, tr("Largest mesh edge"), None, self.INPUT, True, 0.0),
            tr(
                "Used only when no model file is given: mesh resolution (CRS units). Empty: 1/40 of the window's "
                "larger side."
            ),
            advanced=True,
        )

    def add_synthetic(self):
        self.add(
            QgsProcessingParameterFeatureSource(self.SYNTHETIC, self.tr("Synthetic points"), [SOURCE_POINT]),
            self.tr(
                "The synthetic points to assess, e.g. the output of spatialprivacy:synthesizelgcp. Must be in the "
                "same CRS as the confidential layer and inside the model's window."
            ),
        )

    def add_method(self):
        tr = self.tr
        self.add(
            QgsProcessingParameterEnum(self.METHOD, tr("Synthesis method"), _method_options(tr), False, 2),
            tr(
                "Radial: each point moved uniformly within RADIUS (the usual practice). ANS: the posterior-mean "
                "intensity times exp(noise field) with the fitted spatial scale. PRS: a fresh random field with the "
                "fitted range and variance (Walder et al. recommend it: lowest risk)."
            ),
        )
        self.add(
            QgsProcessingParameterDistance(
                self.RADIUS, tr("Perturbation radius (radial)"), None, self.INPUT, True, 0.0
            ),
            tr(
                "Radius r > 0 of the uniform disc of radial perturbation, in CRS units. Required for radial. The "
                "moved points lie on a lattice of r / 65,536 (1.5 mm for 100 m), so that their coordinates carry "
                "none of the true locations' low digits."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.NOISE, tr("Noise variance (ANS)"), NUMBER_DOUBLE, 1.0, False, 0.0, 1000.0
            ),
            tr(
                "Marginal variance of the ANS noise field added to the log intensity (dimensionless; 0 = Quick et "
                "al.'s plug-in synthesis). Walder et al.'s noise level σ² (eq. 10) is on the scale of the field's "
                "variance parameter ξ², which depends on the CRS unit; σ² = 4πκ̂² × this value, which the report "
                "prints. More noise: lower utility and, usually, lower risk."
            ),
        )

    def add_risk_options(self, radius_required=True):
        tr = self.tr
        self.add(
            QgsProcessingParameterDistance(
                self.RISK_RADIUS, tr("Risk radius"), None, self.INPUT, not radius_required, 0.0
            ),
            tr(
                "Radius r > 0 (CRS units) within which the intruder must place a person for a disclosure (eq. 16), "
                "e.g. the size of a house or plot."
            ),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.RISK_METHOD,
                tr("Risk density"),
                [tr("Paper: normalised CPO density (eqs. 17-18, 21)"), tr("Exact leave-one-out density")],
                False,
                1,
            ),
            tr(
                "Exact (default): the intruder's leave-one-out predictive density π(s | S₋ₖ, S†) of eq. 16, from "
                "the same posterior draws by importance weighting; it integrates to 1 and gives eq. 16's "
                "probability. Paper: the CPO formula evaluated at every location, then normalised over its support "
                "(the paper prints no normalisation), as the paper computes it; on John Snow's deaths its maximum "
                "risks are 1.4-1.6 times the exact ones for ANS and PRS, up to 3.4 times for radial sets. Choose it "
                "to compare with the paper."
            ),
            advanced=True,
        )
        self.add_fit_options()

    def add_fit_options(self):
        tr = self.tr
        self.add(
            QgsProcessingParameterEnum(
                self.HYPER,
                tr("Hyperparameters of the synthetic and joint fits"),
                [
                    tr("Fixed at the confidential posterior means (fast)"),
                    tr("Integrated (as the paper; 20-80x slower)"),
                ],
                False,
                0,
            ),
            tr(
                "Fixed: one Laplace fit at the confidential posterior means of κ² and ξ² (about half a second on "
                "1,900 mesh nodes); it ignores their uncertainty. Integrated: the full fast posterior."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterNumber(self.DRAWS, tr("Posterior draws used"), NUMBER_INTEGER, 200, False, 20, 5000),
            {
                "disclosurerisk": tr("Posterior draws behind the risk estimates (Monte Carlo averages over them)."),
                "pmse": tr("Posterior draws behind the pMSE estimate (Monte Carlo averages over them)."),
            }.get(
                self.name(), tr("Posterior draws behind the risk and pMSE estimates (Monte Carlo averages over them).")
            ),
            advanced=True,
        )

    def add_common(self):
        self.add_work_crs(self.tr("Needed only when the layer is in degrees; radii are then in this CRS's units."))
        self.add_seed()

    # -- inputs -------------------------------------------------------------------------------

    def confidential(self, parameters, context, feedback, rng, progress, points=None, risk_radius=None):
        """The confidential points (``points``, INPUT read in the working CRS, if already read) and their fit
        (model file or fitted here, core.lgcp_setup.fit_confidential); ``risk_radius``, if given, is checked
        against the window before the fit."""
        import functools

        import numpy as np

        from ..core.errors import ParameterError
        from ..core.lgcp_setup import NOTE_BUILT, fit_confidential
        from ..core.synthesis.assessment import check_risk_radius
        from ..core.synthesis.confidential_fit import ConfidentialFit

        if points is None:
            points = self.input_points(parameters, context, feedback)
        x, y = np.array(points.x), np.array(points.y)
        has_draws = any(p.name() == self.DRAWS for p in self.parameterDefinitions())
        draws = self.parameterAsInt(parameters, self.DRAWS, context) if has_draws else 200
        model_path = self.parameterAsFile(parameters, self.MODEL, context)
        model, window, covariates, offset = None, None, (), None

        def note(fit_note) -> None:
            if fit_note.kind == NOTE_BUILT:
                feedback.pushInfo(
                    self.tr("Fitting the LGCP to the confidential points ({0} mesh nodes).").format(
                        fit_note.setup.mesh.n_nodes
                    )
                )
            warning = setup_warning(self, fit_note)
            if warning:
                feedback.pushWarning(warning)

        try:
            if model_path:
                ignored = [
                    n for n in (self.WINDOW, self.DISTANCE_TO, self.OFFSET, self.MAX_EDGE) if given(parameters, n)
                ]
                if self.parameterAsLayerList(parameters, self.COVARIATES, context):
                    ignored.append(self.COVARIATES)
                if ignored:
                    feedback.pushWarning(
                        self.tr("{0} ignored: the model file {1} fixes the window, mesh and covariates.").format(
                            ", ".join(ignored), self.MODEL
                        )
                    )
                model = load_model(self, model_path, self.MODEL)
            else:
                window = read_window(self, parameters, self.WINDOW, context, points.work_crs)
                covariates, offset = read_covariates(self, parameters, context, points.work_crs)
            fit = fit_confidential(
                x,
                y,
                rng,
                FIT_DRAWS,
                model=model,
                crs=crs_key(points.work_crs),
                window=window,
                max_edge=self.parameterAsDouble(parameters, self.MAX_EDGE, context)
                if given(parameters, self.MAX_EDGE)
                else None,
                covariates=covariates,
                offset=offset,
                check_window=None if risk_radius is None else functools.partial(check_risk_radius, risk_radius),
                on_note=note,
                progress=progress,
            )
            if model is not None:
                conf = ConfidentialFit.from_model_file(model, x, y, fit.window, draws)
                feedback.pushInfo(self.tr("Model file checked: it was fitted to these {0} points.").format(x.size))
            else:
                if fit.refitted:
                    feedback.pushWarning(
                        self.tr(
                            "The edge-midpoint integration was fooled by fields with spikes at single mesh nodes (a "
                            "clustered pattern), so the confidential points were refitted with the degree-3 rule."
                        )
                    )
                conf = ConfidentialFit(fit.setup.model, fit.posterior, fit.window, x, y, covariates, offset, draws)
        except ParameterError as error:
            raise self.core_error(error) from None
        if has_draws and conf.n_draws < draws:
            feedback.pushWarning(
                self.tr("{0} = {1}, but the model holds {2} posterior draws: all {2} are used.").format(
                    self.DRAWS, draws, conf.n_draws
                )
            )
        return points, conf

    def check_synthetic(self, parameters, context):
        """Refuse a SYNTHETIC layer without point geometry (geometry first: a CSV table has no CRS either) or in
        another CRS than INPUT; cheap, so the assessments call it before the (long) fit."""
        source = self.parameterAsSource(parameters, self.SYNTHETIC, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.SYNTHETIC))
        check_point_layer(source, self.SYNTHETIC)
        confidential = self.parameterAsSource(parameters, self.INPUT, context)
        if confidential is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.INPUT))
        if crs_key(source.sourceCrs()) != crs_key(confidential.sourceCrs()):
            raise QgsProcessingException(
                self.tr(
                    "{0}: the synthetic layer's CRS ({1}) differs from the confidential layer's ({2}). Reproject it to "
                    "the same CRS first."
                ).format(
                    self.SYNTHETIC,
                    source.sourceCrs().authid() or self.tr("none"),
                    confidential.sourceCrs().authid() or self.tr("none"),
                )
            )

    def input_points(self, parameters, context, feedback, progress_range=(0.0, 30.0)):
        """The INPUT layer's points (PointValues) in the working CRS; the bar moves through ``progress_range``."""
        return read_point_values(
            self, parameters, context, feedback, self.INPUT, None, self.WORK_CRS, progress_range=progress_range
        )

    def synthetic_points(self, parameters, context, feedback, points):
        """The SYNTHETIC layer's points in the working CRS (after :meth:`check_synthetic`), read before the
        confidential fit. Refused if every one lies on a location of the confidential ``points`` (the
        confidential layer given twice would otherwise be scored as a release), with a warning if some do."""
        import numpy as np

        from ..core.synthesis.confidential_fit import at_locations

        syn = read_point_values(
            self, parameters, context, feedback, self.SYNTHETIC, None, self.WORK_CRS, progress_range=(10.0, 20.0)
        )
        xs, ys = np.array(syn.x), np.array(syn.y)
        same = at_locations(np.array(points.x), np.array(points.y), xs, ys)
        if same and same == xs.size:
            raise QgsProcessingException(
                self.tr(
                    "{0}: all {1} of its points are confidential locations: it is the confidential layer (or part "
                    "of it), not a synthetic set. Pick the synthetic layer."
                ).format(self.SYNTHETIC, same)
            )
        if same:
            feedback.pushWarning(
                self.tr(
                    "{0}: {1} of its {2} points lie exactly on confidential locations, which synthesizers rarely do "
                    "by chance; check that it is the synthetic layer you mean and that it was not edited with the "
                    "data."
                ).format(self.SYNTHETIC, same, xs.size)
            )
        return xs, ys

    def hyper(self, parameters, context) -> str:
        return ("fixed", "full")[self.parameterAsEnum(parameters, self.HYPER, context)]

    def risk_method(self, parameters, context) -> str:
        return ("paper", "exact")[self.parameterAsEnum(parameters, self.RISK_METHOD, context)]

    def spec(self, parameters, context, method):
        """The SynthesisSpec of METHOD / RADIUS / NOISE (radius required for radial)."""
        from ..core.synthesis.synthetic_sets import SynthesisSpec

        if method == "radial":
            if not given(parameters, self.RADIUS):
                raise QgsProcessingException(
                    self.tr("{0}: radial perturbation needs a radius > 0.").format(self.RADIUS)
                )
            return SynthesisSpec("radial", self.parameterAsDouble(parameters, self.RADIUS, context))
        if method == "ans":
            return SynthesisSpec("ans", self.parameterAsDouble(parameters, self.NOISE, context))
        return SynthesisSpec("prs")

    def parameter_problem(self, parameters, context) -> str | None:
        """The one check of RISK_RADIUS on its own (the core checks it against the window): a required radius must
        be a finite number > 0, so 0 (the empty widget's value) is refused before every run (text that is no
        number is left to the range check, which names it)."""
        risk = self.parameterDefinition(self.RISK_RADIUS)
        if risk is None or risk.flags() & FLAG_OPTIONAL:
            return None
        try:
            float(parameters.get(self.RISK_RADIUS))
        except (TypeError, ValueError):
            return None
        value = self.parameterAsDouble(parameters, self.RISK_RADIUS, context)
        if not (math.isfinite(value) and value > 0):
            return self.tr("{0}: the radius must be a finite number > 0, got {1}.").format(self.RISK_RADIUS, value)
        return None

    def warn_small_radii(self, conf, radii, name, feedback) -> None:
        """A warning for radial radii below half the median spacing of the confidential locations: each moved
        point then stays nearer its own person than the typical neighbour, and points back to them."""
        spacing = conf.spacing()
        small = sorted({r for r in radii if r < spacing / 2})
        if small:
            feedback.pushWarning(
                self.tr(
                    "{0}: radius {1} is below half the median distance between neighbouring confidential locations "
                    "({2:.4g}): most moved points stay nearer their own person than any neighbour. Its disclosure "
                    "risk will show it; consider larger radii."
                ).format(name, ", ".join(f"{r:g}" for r in small), spacing)
            )

    def write_report(self, parameters, context, title, sections):
        """The HTML report, if asked for; every report opens with the (absence of a) privacy guarantee."""
        path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        if not path:
            return {}
        ensure_folder(path, self.OUTPUT_REPORT)
        guarantee = self.tr(
            "No differential-privacy guarantee: assess the disclosure risk (eq. 16) "
            "with spatialprivacy:disclosurerisk before publishing."
        )
        title = self.labelled(self.tr("{0} (CONFIDENTIAL: not for publication)").format(title))
        write_html_report(path, title, [(self.tr("Guarantee"), guarantee)] + sections)
        return {self.OUTPUT_REPORT: path}

    def write_synthetic(self, parameters, context, name, syn, points, rng):
        """A synthetic set as a point layer with syn_id only, in random order (core release_order). It is not
        recorded in a privacy-budget ledger, which adds up (ε, δ) guarantees: this synthesis has none, and a
        figure recorded for it would read as one; the log says so instead."""
        import numpy as np

        feedback = run_feedback(context)
        if feedback is not None:
            feedback.pushInfo(
                self.tr(
                    "{0} is not recorded in a privacy-budget ledger: this synthesis has no ε or δ to add up. A "
                    "ledger's totals for these points do not cover it; publishing it beside differentially private "
                    "releases of the same points leaves them no combined guarantee."
                ).format(name)
            )

        from ..core.synthesis.synthetic_sets import release_order

        order = release_order(syn, rng)
        ids = [("syn_id", np.arange(1, syn.x.size + 1, dtype=np.int64))]
        label = self.labelled(self.tr("Synthetic points ({0})").format(syn.spec.label))
        return write_point_sink(self, parameters, context, name, syn.x[order], syn.y[order], points, ids, label)
