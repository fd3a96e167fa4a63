"""Processing algorithms for Walder, Hanks & Slavković's LGCP synthesis: ``synthesizelgcp``, ``disclosurerisk``,
``pmse`` and ``riskutilitysweep``; thin adapters over core.synthesis.risk_utility."""

from __future__ import annotations

import math
import os
import zipfile

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFields,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterDistance,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsWkbTypes,
)

from .base import (
    FeedbackProgress,
    SpatialPrivacyAlgorithm,
    add_features,
    check_outputs,
    check_point_layer,
    crs_key,
    destination_path,
    ensure_folder,
    figure_data_uri,
    make_rng,
    make_sink,
    number_list_help,
    parameter_error,
    parse_number_list,
    read_point_values,
    report_figure,
    write_html_report,
    write_point_sink,
    write_point_table,
)
from .compat import (
    FLAG_OPTIONAL,
    NUMBER_DOUBLE,
    NUMBER_INTEGER,
    SOURCE_POINT,
    SOURCE_POLYGON,
    SOURCE_VECTOR,
    double_field,
    int_field,
    string_field,
)
from .layers import read_window
from .lgcp_fit import read_covariates, warn_about_the_setup
from .styling import ThematicStyle

METHOD_KEYS = ("radial", "ans", "prs")
#: Posterior draws of the confidential fit made here when no model file is given.
FIT_DRAWS = 1000
NAN = float("nan")


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

    def core_names(self) -> dict:
        return {
            "points": self.INPUT,
            "model": self.MODEL,
            "window": self.WINDOW,
            "synthetic": self.SYNTHETIC,
            "radius": self.RADIUS,
            "perturb_radius": self.RADIUS,
            "noise": self.NOISE,
            "noise_variance": self.NOISE,
            "risk_radius": self.RISK_RADIUS,
            "mesh": self.MAX_EDGE,
            "max_edge": self.MAX_EDGE,
            "integration": self.MODEL,  # (fit_laplace_any_rule refits with the degree-3 rule instead)
            "covariates": self.COVARIATES,
            "distance": self.DISTANCE_TO,
            "distance_to": self.DISTANCE_TO,
            "offset": self.OFFSET,
            "theta": self.MODEL,
            "prior_range": self.MODEL,
            "draws": self.DRAWS,
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

    @staticmethod
    def given(parameters, name) -> bool:
        return parameters.get(name) not in (None, "")

    def confidential(self, parameters, context, feedback, rng, progress, points=None, risk_radius=None):
        """The confidential points (``points``, INPUT read in the working CRS, if already read) and their fit
        (model file or fitted here); ``risk_radius``, if given, is checked against the window before the fit."""
        import numpy as np

        from ..core.errors import ParameterError
        from ..core.lgcp import Posterior
        from ..core.lgcp_setup import MIN_POINTS, build_lgcp, default_window, fit_laplace_any_rule
        from ..core.progress import scaled
        from ..core.synthesis.risk_utility import ConfidentialFit, check_risk_radius

        if points is None:
            points = self.input_points(parameters, context, feedback)
        x, y = np.array(points.x), np.array(points.y)
        has_draws = any(p.name() == self.DRAWS for p in self.parameterDefinitions())
        draws = self.parameterAsInt(parameters, self.DRAWS, context) if has_draws else 200
        model_path = self.parameterAsFile(parameters, self.MODEL, context)
        names = self.core_names()
        try:
            if model_path:
                ignored = [
                    n for n in (self.WINDOW, self.DISTANCE_TO, self.OFFSET, self.MAX_EDGE) if self.given(parameters, n)
                ]
                if self.parameterAsLayerList(parameters, self.COVARIATES, context):
                    ignored.append(self.COVARIATES)
                if ignored:
                    feedback.pushWarning(
                        self.tr("{0} ignored: the model file {1} fixes the window, mesh and covariates.").format(
                            ", ".join(ignored), self.MODEL
                        )
                    )
                if not os.path.isfile(model_path):
                    raise QgsProcessingException(self.tr("{0}: no such file: {1}").format(self.MODEL, model_path))
                try:
                    posterior = Posterior.load(model_path)
                except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:  # a truncated file
                    if isinstance(error, ParameterError):
                        raise
                    raise QgsProcessingException(
                        self.tr("{0}: {1} is not a model file of spatialprivacy:fitlgcp ({2}).").format(
                            self.MODEL, model_path, error
                        )
                    ) from None
                posterior.check_source(x, y, crs_key(points.work_crs))
                window = posterior.window()
                if window is None:
                    raise ParameterError("model", "the model file does not record its window: refit it")
                if risk_radius is not None:
                    check_risk_radius(risk_radius, window)
                conf = ConfidentialFit.from_model_file(posterior, x, y, window, draws)
                feedback.pushInfo(self.tr("Model file checked: it was fitted to these {0} points.").format(x.size))
            else:
                window = read_window(self, parameters, self.WINDOW, context, points.work_crs)
                if risk_radius is not None and (window is not None or x.size >= MIN_POINTS):
                    check_risk_radius(risk_radius, window if window is not None else default_window(x, y))
                covariates, offset = read_covariates(self, parameters, context, points.work_crs)
                max_edge = (
                    self.parameterAsDouble(parameters, self.MAX_EDGE, context)
                    if self.given(parameters, self.MAX_EDGE)
                    else None
                )

                def build(scheme):
                    setup = build_lgcp(
                        x,
                        y,
                        window=window,
                        max_edge=max_edge,
                        covariates=tuple(covariates),
                        offset=offset,
                        scheme=scheme,
                        progress=scaled(progress, 0.0, 0.1),
                    )
                    if scheme == "midpoint":  # not again when refitted with the degree-3 rule
                        feedback.pushInfo(
                            self.tr("Fitting the LGCP to the confidential points ({0} mesh nodes).").format(
                                setup.mesh.n_nodes
                            )
                        )
                        warn_about_the_setup(self, setup, feedback)
                    return setup

                setup, posterior, used = fit_laplace_any_rule(
                    build, "midpoint", rng, FIT_DRAWS, scaled(progress, 0.1, 1.0)
                )
                if used != "midpoint":
                    feedback.pushWarning(
                        self.tr(
                            "The edge-midpoint integration was fooled by fields with spikes at single mesh nodes (a "
                            "clustered pattern), so the confidential points were refitted with the degree-3 rule."
                        )
                    )
                conf = ConfidentialFit(setup.model, posterior, setup.window, x, y, tuple(covariates), offset, draws)
        except ParameterError as error:
            raise parameter_error(error, names) from None
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

        from ..core.synthesis.risk_utility import at_locations

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
        from ..core.synthesis.risk_utility import SynthesisSpec

        if method == "radial":
            if not self.given(parameters, self.RADIUS):
                raise QgsProcessingException(
                    self.tr("{0}: radial perturbation needs a radius > 0.").format(self.RADIUS)
                )
            return SynthesisSpec("radial", self.parameterAsDouble(parameters, self.RADIUS, context))
        if method == "ans":
            return SynthesisSpec("ans", self.parameterAsDouble(parameters, self.NOISE, context))
        return SynthesisSpec("prs")

    def parameter_problem(self, parameters, context) -> str | None:
        """A required RISK_RADIUS of 0 (the empty widget's value) is refused before the run starts (text that
        is no number is left to the range check, which names it)."""
        risk = self.parameterDefinition(self.RISK_RADIUS)
        if risk is None or risk.flags() & FLAG_OPTIONAL:
            return None
        try:
            float(parameters.get(self.RISK_RADIUS))
            self.check_radius(parameters, context, self.RISK_RADIUS)
        except (TypeError, ValueError):
            return None
        except QgsProcessingException as error:
            return str(error)
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

    def check_radius(self, parameters, context, name):
        if not self.given(parameters, name):
            raise QgsProcessingException(self.tr("{0}: give a radius > 0 (CRS units).").format(name))
        value = self.parameterAsDouble(parameters, name, context)
        if not (math.isfinite(value) and value > 0):
            raise QgsProcessingException(
                self.tr("{0}: the radius must be a finite number > 0, got {1}.").format(name, value)
            )
        return value

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
        title = self.tr("{0} (CONFIDENTIAL: not for publication)").format(title)
        write_html_report(path, title, [(self.tr("Guarantee"), guarantee)] + sections)
        return {self.OUTPUT_REPORT: path}

    def write_synthetic(self, parameters, context, name, syn, points, rng):
        """A synthetic set as a point layer with syn_id only, in random order (core release_order)."""
        import numpy as np

        from ..core.synthesis.risk_utility import release_order

        order = release_order(syn, rng)
        ids = [("syn_id", np.arange(1, syn.x.size + 1, dtype=np.int64))]
        label = self.tr("Synthetic points ({0})").format(syn.spec.label)
        return write_point_sink(self, parameters, context, name, syn.x[order], syn.y[order], points, ids, label)

    def fit_rows(self, conf):
        tr = self.tr
        rows = [(tr("Confidential points"), conf.n), (tr("Mesh nodes"), conf.mesh.n_nodes)]
        rows += [
            (tr("Posterior mean of κ² (1/length²)"), f"{conf.kappa2:.6g}"),
            (tr("Posterior mean of ξ²"), f"{conf.xi2:.6g}"),
        ]
        rows += [
            (tr("Field variance at those means"), f"{conf.field_variance:.4g}"),
            (tr("Posterior draws used"), conf.n_draws),
        ]
        return rows


# -- synthesizelgcp -------------------------------------------------------------------------------

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
        from ..core.errors import ParameterError
        from ..core.progress import scaled
        from ..core.synthesis.risk_utility import synthesize

        method = METHOD_KEYS[self.parameterAsEnum(parameters, self.METHOD, context)]
        try:
            spec = self.spec(parameters, context, method)
        except ParameterError as error:
            raise parameter_error(error, self.core_names()) from None
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 30.0, 90.0)
        points, conf = self.confidential(parameters, context, feedback, rng, scaled(progress, 0.0, 0.75))
        count = self.parameterAsInt(parameters, self.COUNT, context) if self.given(parameters, self.COUNT) else None
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
            raise parameter_error(
                error, {**self.core_names(), "count": self.COUNT, "n": self.COUNT, **peaked}
            ) from None
        progress.check_cancel()
        feedback.setProgress(90.0)
        dest = self.write_synthetic(parameters, context, self.OUTPUT, syn, points, rng)
        paper_noise = conf.paper_noise_level(spec.value) if method == "ans" else NAN
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
                    (self.tr("Confidential fit"), self.fit_rows(conf)),
                ],
            )
        )
        return results


# -- disclosurerisk -------------------------------------------------------------------------------


class DisclosureRiskAlgorithm(WalderAlgorithm):
    OUTPUT = "OUTPUT"
    #: sinks holding confidential values, labelled so inside a GeoPackage (base.make_sink)
    CONFIDENTIAL_SINKS = (OUTPUT,)
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
        from ..core.errors import ParameterError
        from ..core.progress import scaled
        from ..core.synthesis.risk_utility import SyntheticSet, disclosure_risk, link_radial

        method = METHOD_KEYS[self.parameterAsEnum(parameters, self.METHOD, context)]
        risk_radius = self.check_radius(parameters, context, self.RISK_RADIUS)
        names = self.core_names()
        try:
            spec = self.spec(parameters, context, method)
        except ParameterError as error:
            raise parameter_error(error, names) from None
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
            raise parameter_error(error, names) from None
        progress.check_cancel()
        results = {self.MAX_RISK: risk.maximum, self.MEAN_RISK: float(risk.risk.mean())}
        if self.given(parameters, self.OUTPUT):  # confidential, so never written unless asked for
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
                    (self.tr("Confidential fit"), self.fit_rows(conf)),
                    (self.tr("Distribution of the risks"), _histogram(risk.risk)),
                ],
            )
        )
        return results


# -- pmse -----------------------------------------------------------------------------------------


class PMSEAlgorithm(WalderAlgorithm):
    PMSE = "PMSE"

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
        from ..core.errors import ParameterError
        from ..core.progress import scaled
        from ..core.synthesis.risk_utility import utility

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
            raise parameter_error(error, self.core_names()) from None
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


# -- riskutilitysweep -----------------------------------------------------------------------------


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

        from ..core.errors import ParameterError
        from ..core.progress import scaled
        from ..core.synthesis.risk_utility import recommend, summarize_settings, sweep, sweep_specs

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
        risk_radius = self.check_radius(parameters, context, self.RISK_RADIUS)
        threshold = self.parameterAsDouble(parameters, self.MAX_RISK, context)
        if not (0 < threshold <= 1):
            raise QgsProcessingException(
                self.tr("{0}: the threshold must lie in (0, 1], got {1}.").format(self.MAX_RISK, threshold)
            )
        rng, _ = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 30.0, 95.0)  # after reading INPUT (0-30 %)
        names = {
            **self.core_names(),
            "radius": self.RADII,
            "noise": self.NOISE_LEVELS,
            "eta_nodes": self.NOISE_LEVELS,  # an intensity too peaked to sample: a large ANS noise variance
            "prs_replicates": self.PRS_SETS,
            "replicates": self.REPLICATES,
        }
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
            )
        except ParameterError as error:
            raise parameter_error(error, names) from None
        best = recommend(result.evaluations, threshold, whole_setting=True)
        progress.check_cancel()
        results = {
            self.SETS: len(specs),
            self.RECOMMENDED_PMSE: NAN,
            self.RECOMMENDED_MAX_RISK: NAN,
            self.BASELINE_MAX_RISK: result.baseline_max,
        }
        if parameters.get(self.OUTPUT_TABLE) not in (None, ""):  # confidential: only when asked for
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
            if self.given(parameters, self.OUTPUT_RECOMMENDED):
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
                    self.tr("Nothing recommended (no set meets the threshold)"),
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
            if self.given(parameters, self.OUTPUT_RECOMMENDED):
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
                    (self.tr("Risk-utility chart"), _chart(result, best, threshold)),
                    (self.tr("Settings over their releases"), self._setting_rows(result, summarize_settings)),
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
                        ],
                    ),
                    (self.tr("Confidential fit"), self.fit_rows(conf)),
                ],
            )
        )
        return results

    def _setting_rows(self, result, summarize_settings):
        """One row per setting: releases, mean and range of the maximum risk, mean pMSE, releases below the
        baseline (core.synthesis.risk_utility.summarize_settings)."""
        rows = []
        for g in summarize_settings(result.evaluations, result.baseline_max):
            text = self.tr("{0} release(s) | max risk mean {1:.4g}, range {2:.4g}-{3:.4g} | mean pMSE {4:.4g}").format(
                g.sets, g.mean_risk, g.min_risk, g.max_risk, g.mean_pmse
            )
            if g.below_baseline:
                text += " | " + self.tr("{0} below the baseline (by chance: see the help)").format(g.below_baseline)
            rows.append((g.setting, text))
        return rows

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
            self, parameters, self.OUTPUT_TABLE, context, fields, QgsWkbTypes.NoGeometry, QgsCoordinateReferenceSystem()
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


def _histogram(values) -> str:
    fig, ax = report_figure(figsize=(6, 3.5))
    ax.hist(values, bins=40, color="tab:red")
    ax.set_xlabel("disclosure risk")
    ax.set_ylabel("people")
    return figure_data_uri(fig)


def _chart(result, best, threshold) -> str:
    """Maximum risk (log scale) against pMSE, one colour per method (cf. Walder et al. Figures 5-6)."""

    colours = {"radial": "tab:red", "ans": "tab:blue", "prs": "tab:green"}
    fig, ax = report_figure(figsize=(7, 4.5))
    for method, colour in colours.items():
        sel = [e for e in result.evaluations if e.spec.method == method]
        if sel:
            ax.scatter(
                [e.pmse for e in sel], [max(e.max_risk, 1e-12) for e in sel], c=colour, s=24, label=method.upper()
            )
            if method != "prs":
                for e in sel:
                    ax.annotate(
                        f"{e.spec.value:g}",
                        (e.pmse, max(e.max_risk, 1e-12)),
                        fontsize=7,
                        xytext=(3, 3),
                        textcoords="offset points",
                    )
    if best is not None:
        e = result.evaluations[best]
        ax.scatter(
            [e.pmse], [max(e.max_risk, 1e-12)], s=160, facecolors="none", edgecolors="black", label="recommended"
        )
    ax.axhline(threshold, color="grey", linestyle="--", linewidth=1, label="risk threshold")
    if result.baseline is not None:
        ax.axhline(result.baseline_max, color="grey", linestyle=":", linewidth=1, label="nothing released")
    ax.set_yscale("log")
    ax.set_xlabel("pMSE (0 = indistinguishable, 0.25 = disjoint)")
    ax.set_ylabel("maximum disclosure risk")
    ax.legend(fontsize=8)
    return figure_data_uri(fig)
