"""Processing algorithm ``spatialprivacy:fitlgcp``: fit a log-Gaussian Cox process (thin adapter over
core.lgcp_setup.fit_confidential)."""

from __future__ import annotations

import math

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterDistance,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterRasterLayer,
)

from ...compat import NUMBER_DOUBLE, NUMBER_INTEGER, SOURCE_POINT, SOURCE_POLYGON, crs_key
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs, ensure_folders
from ..feedback import FeedbackProgress
from ..inputs import read_point_values, read_window
from ..labels import confidential_label
from ..lgcp_inputs import read_covariates, setup_warning
from ..parameters import given, make_rng, optional_number
from ..raster import write_float_raster
from ..reports.lgcp_fit import convergence_warnings, report_sections
from ..reports.page import write_html_report
from ..sinks import write_point_table
from ..styling import ThematicStyle


class FitLGCPAlgorithm(SpatialPrivacyAlgorithm):
    REQUIRES = ("numpy", "scipy", "matplotlib")
    INPUT = "INPUT"
    WINDOW = "WINDOW"
    COVARIATES = "COVARIATES"
    DISTANCE_TO = "DISTANCE_TO"
    OFFSET = "OFFSET"
    MAX_EDGE = "MAX_EDGE"
    PRIOR_RANGE = "PRIOR_RANGE"
    PRIOR_SIGMA = "PRIOR_SIGMA"
    PRIOR = "PRIOR"
    INTEGRATION = "INTEGRATION"
    METHOD = "METHOD"
    HYPER_INTEGRATION = "HYPER_INTEGRATION"
    DRAWS = "DRAWS"
    PIXEL_SIZE = "PIXEL_SIZE"
    WORK_CRS = "WORK_CRS"
    SEED = "SEED"
    OUTPUT_MODEL = "OUTPUT_MODEL"
    OUTPUT_INTENSITY = "OUTPUT_INTENSITY"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    OUTPUT_CPO = "OUTPUT_CPO"
    CONFIDENTIAL_SINKS = (OUTPUT_CPO,)
    #: every output is confidential (the model, its intensity, the CPO, the report): no draws are published
    PUBLISHES_DRAWS = False
    NODES = "NODES"
    LPML = "LPML"
    CORE_NAMES = {
        "points": INPUT,
        "window": WINDOW,
        "covariates": COVARIATES,
        "distance_to": DISTANCE_TO,
        "offset": OFFSET,
        "max_edge": MAX_EDGE,
        "prior_range": PRIOR_RANGE,
        "prior_sigma": PRIOR_SIGMA,
        "theta": PRIOR_RANGE,
        "mesh": MAX_EDGE,
        "integration": INTEGRATION,
        "hyper_integration": HYPER_INTEGRATION,
        "pixel_size": PIXEL_SIZE,
    }

    def name(self):
        return "fitlgcp"

    def displayName(self):
        return self.tr("Fit a log-Gaussian Cox process")

    def group(self):
        return self.tr("Point process models")

    def groupId(self):
        return "models"

    def shortDescription(self):
        return self.tr("Bayesian fit of an LGCP (SPDE Matérn field, covariates, offset) to a point pattern.")

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Fits log λ(s) = offset(s) + x(s)'β + w(s), where w is a Gaussian field with Matérn "
                "covariance (smoothness 1) represented on a triangular mesh by the SPDE approach (Lindgren et "
                "al. 2011; Walder et al., Appendix A.1), with unknown effective range and marginal variance. "
                "The fast method integrates Laplace approximations over a grid of the two hyperparameters, or "
                "INLA's central composite design (advanced), and draws independent posterior samples. The model file "
                "feeds the synthesis tools.</p>"
                "<p><b>Not a privacy mechanism.</b> The model, intensity map and report are derived from the "
                "confidential points and are for the analyst: do not publish them. Publish synthetic points "
                "made from the model instead.</p>"
            )
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Point layer"), [SOURCE_POINT]),
            tr("The confidential points (cases, crimes, ...). At least 10."),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.WINDOW, tr("Study window"), [SOURCE_POLYGON], None, True),
            tr(
                "Polygons of the study region (holes allowed); every point must lie inside. Empty: the points' "
                "bounding box enlarged by 5%."
            ),
        )
        self.add(
            QgsProcessingParameterMultipleLayers(self.COVARIATES, tr("Covariate rasters"), 3, None, True),
            tr(
                "Rasters (band 1) used as covariates; each must cover the whole window. Reprojected to the "
                "working CRS if needed."
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.DISTANCE_TO, tr("Distance to features"), [-1], None, True),
            tr(
                "Adds the covariate 'distance to the nearest feature of this layer' (points, lines or polygon "
                "boundaries), e.g. John Snow's Broad Street pump."
            ),
        )
        self.add(
            QgsProcessingParameterRasterLayer(self.OFFSET, tr("Offset raster (log scale)"), None, True),
            tr("Known log-intensity offset, e.g. log population density; must cover the window."),
        )
        self.add(
            QgsProcessingParameterDistance(self.MAX_EDGE, tr("Largest mesh edge"), None, self.INPUT, True, 0.0),
            tr(
                "Mesh resolution inside the window, in CRS units. Empty: 1/40 of the window's larger side. "
                "Smaller is more accurate and slower (the number of nodes grows as 1/edge²): the fast method with "
                "1,000 draws took about 3 s for 2,000 nodes, 13 s for 8,000, 40 s for 20,000, under 3 minutes for "
                "50,000 and 6-7 minutes for 100,000 on a 2-core machine (its time grows faster than the nodes); "
                "more than 50,000 nodes draw a warning and more than 100,000 are refused."
            ),
        )
        self.add(
            QgsProcessingParameterDistance(
                self.PRIOR_RANGE, tr("Prior median of the range"), None, self.INPUT, True, 0.0
            ),
            tr(
                "Centre (> 0, in CRS units) of the log-normal prior on the effective range (Walder et al., "
                "Appendix A.5). Empty: 1/5 of the window's larger side."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.PRIOR_SIGMA, tr("Prior median of the field's standard deviation"), NUMBER_DOUBLE, 1.0, False, 0.0
            ),
            tr(
                "Centre (> 0) of the log-normal prior on the marginal standard deviation of the field, which is "
                "on the scale of the log intensity (dimensionless)."
            ),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.PRIOR,
                tr("Prior on range and standard deviation"),
                [tr("Log-normal (Walder et al., Appendix A.5)"), tr("Penalised complexity (Fuglstad et al. 2019)")],
                False,
                0,
            ),
            tr(
                "Log-normal: log-sd 1 around the two medians. Penalised complexity: P(range < median) = 0.5 and "
                "P(sd > median) = 0.05, which shrinks towards a smooth, weak field."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterEnum(
                self.INTEGRATION,
                tr("Integration of the intensity"),
                [
                    tr("Edge midpoints (accurate)"),
                    tr("Mesh nodes (dual mesh, as in the papers)"),
                    tr("Nodes, midpoints and centroids (degree 3)"),
                ],
                False,
                0,
            ),
            tr(
                "Quadrature of the intensity integral in the likelihood. The papers' dual-mesh rule overestimates the "
                "integral of a rough field and so the range; edge midpoints do not. Edge midpoints do not see the "
                "mesh nodes, so a field with spikes at single nodes can fool them: the fit stays away from such "
                "fields (hyperparameters where they occur are left out) and, if the posterior leans into them (a "
                "clustered pattern), the fast method refits with the degree-3 rule and says so (MCMC warns). The "
                "degree-3 rule sees the nodes, but it overestimates the integral of rough fields by 1-3%, which "
                "lengthened the range by one posterior sd on John Snow's data."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterEnum(
                self.METHOD,
                tr("Method"),
                [tr("Fast (Laplace approximations)"), tr("Exact MCMC (slower; reference)")],
                False,
                0,
            ),
            tr(
                "Fast: Laplace approximations integrated over the hyperparameters, independent draws, seconds. "
                "MCMC: exact Metropolis-Hastings sampler (2 chains) with R-hat and effective sample sizes in the "
                "report; minutes."
            ),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.HYPER_INTEGRATION,
                tr("Integration over the range and standard deviation (fast method)"),
                [
                    tr("Grid (about 100 points)"),
                    tr("Central composite design (9 points, INLA)"),
                    # 5,000: core.lgcp_setup.CCD_MIN_NODES
                    tr("Automatic: grid below 5,000 mesh nodes, central composite design from there on"),
                ],
                False,
                2,
            ),
            tr(
                "How the fast method integrates over the field's range and standard deviation. Grid: Laplace fits "
                "on a grid of 0.75-sd steps until the posterior has fallen by e^8 (about 100 points). Central "
                "composite design: INLA's design of 9 points around the mode, stretched for skewness, with a "
                "split-normal posterior for the two hyperparameters: about a third of the grid's Laplace fits and "
                "time, with posterior summaries that agreed with the exact MCMC sampler about as well as the "
                "grid's on John Snow's data and a simulated field. Automatic (default): the grid on meshes below "
                "5,000 nodes, where it takes seconds, and the design on larger ones (8,000 nodes: 11-13 s against "
                "the grid's 39-68 s). "
                "Ignored by MCMC. Either way the model, intensity and report are derived from the confidential "
                "points: no privacy guarantee, do not publish them."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterNumber(self.DRAWS, tr("Posterior draws"), NUMBER_INTEGER, 1000, False, 10, 100000),
            tr(
                "Number of joint posterior draws stored in the model file. Draws of the field larger than 1 GiB (draws "
                "x mesh nodes x 8 bytes) are kept on disk, in a temporary file without a name that is deleted with "
                "the fit, and the tools that read the model read them from the file as they need them: the disk "
                "then needs room for them twice while the model file is written."
            ),
        )
        self.add(
            QgsProcessingParameterDistance(
                self.PIXEL_SIZE, tr("Intensity raster pixel size"), None, self.INPUT, True, 0.0
            ),
            tr("Pixel size (> 0, in CRS units) of the intensity raster. Empty: half the largest mesh edge."),
            advanced=True,
        )
        self.add_work_crs(tr("Needed only when the layer is in degrees."))
        self.add_seed()
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_MODEL, tr("Fitted model (CONFIDENTIAL)"), tr("LGCP model files (*.npz)")
            ),
            tr("The posterior draws, mesh and covariate design, for the synthesis and risk tools."),
        )
        self.add(
            QgsProcessingParameterRasterDestination(
                self.OUTPUT_INTENSITY, tr("Posterior intensity (CONFIDENTIAL)"), None, True, False
            ),
            tr(
                "GeoTIFF: band 1 posterior mean, band 2 posterior sd of the intensity (points per squared CRS "
                "unit); NoData outside the window."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr("Parameter table (mean, sd, 95% interval), settings and a map of the intensity."),
        )
        self.add(
            QgsProcessingParameterFeatureSink(
                self.OUTPUT_CPO, tr("Conditional predictive ordinates (CONFIDENTIAL)"), SOURCE_POINT, None, True, False
            ),
            tr(
                "Model check: the input points with cpo, the leave-one-out predictive density of each point given "
                "all the others (Walder et al. eqs. 7 and 9, per squared CRS unit), log_cpo, and cpo_ess, the "
                "effective number of posterior draws behind it (below about 20 the estimate is unstable). Low "
                "values flag points the model does not expect. Holds the confidential locations."
            ),
        )
        self.addOutput(QgsProcessingOutputNumber(self.NODES, tr("Mesh nodes")))
        self.addOutput(
            QgsProcessingOutputNumber(
                self.LPML, tr("Log pseudo-marginal likelihood (sum of log CPO; higher is better)")
            )
        )

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        import numpy as np

        from ...core.errors import ParameterError
        from ...core.lgcp_setup import NOTE_BUILT, NOTE_DUPLICATES, fit_confidential, intensity_raster, pixel_grid
        from ...core.metrics.cpo import posterior_cpo
        from ...core.synthesis.walder import NodeCovariates

        # every destination is checked before the (possibly long) fit
        model_path = self.parameterAsFileOutput(parameters, self.OUTPUT_MODEL, context)
        if model_path and not model_path.lower().endswith(".npz"):
            raise QgsProcessingException(
                self.tr("{0}: the model file must end in .npz (the other tools read only .npz files), got {1}.").format(
                    self.OUTPUT_MODEL, model_path
                )
            )
        output_files = check_outputs(
            self,
            parameters,
            context,
            sinks=(self.OUTPUT_CPO,),
            rasters=(self.OUTPUT_INTENSITY,),
            files=(self.OUTPUT_MODEL, self.OUTPUT_REPORT),
        )
        points = read_point_values(self, parameters, context, feedback, self.INPUT, None, self.WORK_CRS)
        crs = points.work_crs
        x, y = np.array(points.x), np.array(points.y)
        window = read_window(self, parameters, self.WINDOW, context, crs)
        covariates, offset = read_covariates(self, parameters, context, crs)
        pixel = optional_number(self, parameters, self.PIXEL_SIZE, context)
        if pixel is not None and not pixel > 0:
            raise QgsProcessingException(
                self.tr("{0}: the pixel size must be > 0 (leave it empty for half the mesh edge).").format(
                    self.PIXEL_SIZE
                )
            )
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        raster_path = self.parameterAsOutputLayer(parameters, self.OUTPUT_INTENSITY, context)

        def note(fit_note) -> None:
            if fit_note.kind == NOTE_BUILT:
                if raster_path:  # refuse a raster too large before the fit, not after it
                    pixel_grid(fit_note.setup, pixel)
                feedback.pushInfo(
                    self.tr("Mesh: {0} nodes, largest edge {1:g}.").format(
                        fit_note.setup.mesh.n_nodes, fit_note.setup.max_edge
                    )
                )
            elif fit_note.kind == NOTE_DUPLICATES:
                feedback.pushWarning(
                    self.tr(
                        "{0} points lie at a location another point already takes (several people at one "
                        "address, or copies)."
                    ).format(fit_note.detail)
                )
            elif setup_warning(self, fit_note):
                feedback.pushWarning(setup_warning(self, fit_note))

        try:
            fit = fit_confidential(
                x,
                y,
                rng,
                self.parameterAsInt(parameters, self.DRAWS, context),
                window=window,
                max_edge=optional_number(self, parameters, self.MAX_EDGE, context),
                covariates=covariates,
                offset=offset,
                prior_range=optional_number(self, parameters, self.PRIOR_RANGE, context),
                prior_sigma=self.parameterAsDouble(parameters, self.PRIOR_SIGMA, context),
                prior=("lognormal", "pc")[self.parameterAsEnum(parameters, self.PRIOR, context)],
                scheme=("midpoint", "vertex", "cubic")[self.parameterAsEnum(parameters, self.INTEGRATION, context)],
                method=("laplace", "mcmc")[self.parameterAsEnum(parameters, self.METHOD, context)],
                hyper_integration=("grid", "ccd", "auto")[
                    self.parameterAsEnum(parameters, self.HYPER_INTEGRATION, context)
                ],
                on_note=note,
                progress=FeedbackProgress(feedback, 30.0, 85.0),
                build_share=10.0 / 55.0,  # the mesh to 40 %, the fit to 85 %
            )
            setup, posterior = fit.setup, fit.posterior
            self._warn_about_the_fit(fit, feedback)
            at_nodes = NodeCovariates.from_functions(setup.mesh, setup.window, covariates, offset)
            posterior.x_nodes, posterior.offset_nodes = at_nodes.x, at_nodes.offset
            posterior.record_source(x, y, setup.window, crs_key(crs))
            intensity = None
            if raster_path:
                progress = FeedbackProgress(feedback, 85.0, 95.0)
                intensity = intensity_raster(posterior, setup, pixel, covariates, offset, progress=progress)
        except ParameterError as error:
            raise self.core_error(error) from None
        FeedbackProgress(feedback, 95.0, 100.0).check_cancel()
        cpo = posterior_cpo(posterior, setup.model.design)
        lpml = float(np.sum(cpo[1]))
        if not (math.isfinite(lpml) and np.all(np.isfinite(cpo[0]))):
            # a guard: before core.laplace_fit.GRID_EXCESS, 10-15 points gave field variance ~1e12 and every CPO 0; a
            # collapsed fit can also give densities that overflow (a covariate separating the points from the
            # window, now refused by core.lgcp_setup); no such fit is written
            variance = posterior.summary()[-1][1]
            raise QgsProcessingException(
                self.tr(
                    "{0}: the fit to these {1} points is degenerate (leave-one-out predictive densities of 0 or "
                    "infinity; field variance {2:.3g}), so no model was written. An LGCP needs more points, "
                    "covariates that vary among the points, or a prior that keeps the field smaller ({3}, {4})."
                ).format(self.INPUT, len(x), variance, self.PRIOR_RANGE, self.PRIOR_SIGMA)
            )
        ensure_folders(output_files)
        report_path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        report = report_sections(self, posterior, setup, seed, intensity, cpo) if report_path else None
        posterior.save(model_path)
        results = {self.OUTPUT_MODEL: model_path, self.NODES: setup.mesh.n_nodes, self.LPML: lpml}
        if given(parameters, self.OUTPUT_CPO):
            results[self.OUTPUT_CPO] = write_point_table(
                self,
                parameters,
                context,
                self.OUTPUT_CPO,
                points,
                [("cpo", cpo[0]), ("log_cpo", cpo[1]), ("cpo_ess", cpo[2])],
                self.tr("CPO of the LGCP fit (CONFIDENTIAL)"),
            )
            ThematicStyle.attach(context, results[self.OUTPUT_CPO], "log_cpo")
        if intensity is not None:
            self._write_intensity(context, raster_path, intensity, crs)
            results[self.OUTPUT_INTENSITY] = raster_path
        if report is not None:
            title = self.tr("{0} (CONFIDENTIAL: not for publication)").format(self.displayName())
            write_html_report(report_path, title, report)
            results[self.OUTPUT_REPORT] = report_path
        for name, mean, sd, lower, upper in posterior.summary():
            feedback.pushInfo(f"{name}: {mean:.4g} (sd {sd:.3g}; 95% {lower:.4g} to {upper:.4g})")
        return results

    def _warn_about_the_fit(self, fit, feedback) -> None:
        """What the fit itself says: a refit with the degree-3 rule; for MCMC, chains that have not converged and
        draws with spikes the integration misses; for the fast method, a hyperparameter grid cut short and grid
        (or design) points left out as failed fits."""
        posterior = fit.posterior
        diagnostics = posterior.diagnostics
        if posterior.method == "mcmc":
            for message in convergence_warnings(self, posterior):
                feedback.pushWarning(message)
            if diagnostics.get("spiky_draws"):
                feedback.pushWarning(
                    self.tr(
                        "{0} of {1} draws have a field with spikes at mesh nodes that the integration points do "
                        "not see; refit with the degree-3 integration (INTEGRATION)."
                    ).format(diagnostics["spiky_draws"], posterior.n_draws)
                )
            return
        if fit.refitted:
            feedback.pushWarning(
                self.tr(
                    "{0}: the edge-midpoint rule was fooled by fields with spikes at single mesh nodes (a "
                    "clustered pattern), so the model was refitted with the degree-3 rule, which sees the "
                    "nodes; it overestimates the integral of rough fields by 1-3%, which lengthens the "
                    "estimated range a little."
                ).format(self.INTEGRATION)
            )
        if diagnostics.get("grid_truncated"):
            feedback.pushWarning(
                self.tr(
                    "The posterior of the field's range and standard deviation is too flat for the fast "
                    "method's grid: it reached its {0} points before the posterior fell off, so the draws "
                    "miss part of it and the fit cannot be trusted. Give a {1} nearer the scale of the "
                    "pattern (empty: 1/5 of the window's larger side), or use the MCMC method."
                ).format(diagnostics["grid_points"], self.PRIOR_RANGE)
            )
        if diagnostics.get("ccd_points_rejected"):
            feedback.pushInfo(
                self.tr("{0} of the {1} points of the central composite design were left out as failed fits.").format(
                    diagnostics["ccd_points_rejected"], diagnostics["ccd_points"]
                )
            )
        if diagnostics.get("grid_points_rejected"):
            feedback.pushInfo(
                self.tr("{0} hyperparameter grid points were left out as failed fits.").format(
                    diagnostics["grid_points_rejected"]
                )
            )

    def _write_intensity(self, context, raster_path, intensity, crs) -> None:
        """The CONFIDENTIAL posterior intensity raster (mean and sd), named and styled for loading."""
        bands, x_min, y_max, size = intensity
        write_float_raster(
            raster_path,
            bands,
            x_min,
            y_max,
            size,
            crs,
            descriptions=("posterior mean intensity", "posterior sd of the intensity"),
            parameter=self.OUTPUT_INTENSITY,
            confidential=confidential_label(self, self.OUTPUT_INTENSITY),
        )
        if context.willLoadLayerOnCompletion(raster_path):  # also in a model, whose output names it otherwise
            context.layerToLoadOnCompletionDetails(raster_path).name = self.tr("Posterior intensity (CONFIDENTIAL)")
        ThematicStyle.attach(context, raster_path, "")  # band 1, the posterior mean, in pseudocolour
