"""Processing algorithm ``spatialprivacy:fitlgcp``: fit a log-Gaussian Cox process (thin adapter
over core.lgcp_setup / core.lgcp)."""

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

from ..plugin.i18n import tr as _tr
from .base import (
    FeedbackProgress,
    SpatialPrivacyAlgorithm,
    check_outputs,
    confidential_label,
    crs_key,
    ensure_folders,
    figure_data_uri,
    make_rng,
    parameter_error,
    read_point_values,
    report_figure,
    write_html_report,
    write_point_table,
)
from .compat import NUMBER_DOUBLE, NUMBER_INTEGER, SOURCE_POINT, SOURCE_POLYGON
from .layers import read_distance_features, read_raster, read_window
from .raster import write_float_raster
from .styling import ThematicStyle

CORE_NAMES = {
    "points": "INPUT",
    "window": "WINDOW",
    "covariates": "COVARIATES",
    "distance_to": "DISTANCE_TO",
    "max_edge": "MAX_EDGE",
    "prior_range": "PRIOR_RANGE",
    "prior_sigma": "PRIOR_SIGMA",
    "theta": "PRIOR_RANGE",
    "mesh": "MAX_EDGE",
    "integration": "INTEGRATION",
    "pixel_size": "PIXEL_SIZE",
}
#: Largest intensity raster written (pixels).
MAX_PIXELS = 4_000_000


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
    DRAWS = "DRAWS"
    PIXEL_SIZE = "PIXEL_SIZE"
    WORK_CRS = "WORK_CRS"
    SEED = "SEED"
    OUTPUT_MODEL = "OUTPUT_MODEL"
    OUTPUT_INTENSITY = "OUTPUT_INTENSITY"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    OUTPUT_CPO = "OUTPUT_CPO"
    CONFIDENTIAL_SINKS = (OUTPUT_CPO,)
    NODES = "NODES"
    LPML = "LPML"

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
                "The fast method integrates Laplace approximations over a grid of the two hyperparameters "
                "(INLA-style) and draws independent posterior samples. The model file feeds the synthesis "
                "tools.</p>"
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
                "Smaller is more accurate and slower (the number of nodes grows as 1/edge²)."
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
                [tr("Fast (Laplace + hyperparameter grid)"), tr("Exact MCMC (slower; reference)")],
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
            QgsProcessingParameterNumber(self.DRAWS, tr("Posterior draws"), NUMBER_INTEGER, 1000, False, 10, 100000),
            tr("Number of joint posterior draws stored in the model file."),
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

        from ..core.errors import ParameterError
        from ..core.lgcp_setup import build_lgcp, fit_laplace_any_rule
        from ..core.metrics.risk import posterior_cpo

        # every destination is checked before the (possibly long) fit
        model_file = self.parameterAsFileOutput(parameters, self.OUTPUT_MODEL, context)
        if model_file and not model_file.lower().endswith(".npz"):
            raise QgsProcessingException(
                self.tr("{0}: the model file must end in .npz (the other tools read only .npz files), got {1}.").format(
                    self.OUTPUT_MODEL, model_file
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
        optional = {
            name: self.parameterAsDouble(parameters, name, context) if parameters.get(name) not in (None, "") else None
            for name in (self.MAX_EDGE, self.PRIOR_RANGE, self.PIXEL_SIZE)
        }
        if optional[self.PIXEL_SIZE] is not None and not optional[self.PIXEL_SIZE] > 0:
            raise QgsProcessingException(
                self.tr("{0}: the pixel size must be > 0 (leave it empty for half the mesh edge).").format(
                    self.PIXEL_SIZE
                )
            )
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        names = {**CORE_NAMES, "offset": self.OFFSET}
        raster_path = self.parameterAsOutputLayer(parameters, self.OUTPUT_INTENSITY, context)
        chosen = ("midpoint", "vertex", "cubic")[self.parameterAsEnum(parameters, self.INTEGRATION, context)]

        def build(scheme):
            setup = build_lgcp(
                x,
                y,
                window=window,
                max_edge=optional[self.MAX_EDGE],
                covariates=tuple(covariates),
                offset=offset,
                prior_range=optional[self.PRIOR_RANGE],
                prior_sigma=self.parameterAsDouble(parameters, self.PRIOR_SIGMA, context),
                prior=("lognormal", "pc")[self.parameterAsEnum(parameters, self.PRIOR, context)],
                scheme=scheme,
                progress=FeedbackProgress(feedback, 30.0, 40.0),
            )
            if raster_path:  # refuse a raster too large before the fit, not after it
                _pixel_grid(setup, optional[self.PIXEL_SIZE])
            if scheme == chosen:  # not again when rebuilt with the degree-3 rule
                feedback.pushInfo(
                    self.tr("Mesh: {0} nodes, largest edge {1:g}.").format(setup.mesh.n_nodes, setup.max_edge)
                )
                warn_about_the_setup(self, setup, feedback)
                if setup.duplicates:
                    feedback.pushWarning(
                        self.tr(
                            "{0} points lie at a location another point already takes (several people at one "
                            "address, or copies)."
                        ).format(setup.duplicates)
                    )
            return setup

        try:
            draws = self.parameterAsInt(parameters, self.DRAWS, context)
            fit_progress = FeedbackProgress(feedback, 40.0, 85.0)
            if self.parameterAsEnum(parameters, self.METHOD, context) == 1:
                from ..core.mcmc import fit_mcmc

                setup = build(chosen)
                posterior = fit_mcmc(setup.model, rng, draws=draws, progress=fit_progress)
                posterior.diagnostics["integration"] = chosen
                for message in self._convergence_warnings(posterior):
                    feedback.pushWarning(message)
                if posterior.diagnostics.get("spiky_draws"):
                    feedback.pushWarning(
                        self.tr(
                            "{0} of {1} draws have a field with spikes at mesh nodes that the integration points do "
                            "not see; refit with the degree-3 integration (INTEGRATION)."
                        ).format(posterior.diagnostics["spiky_draws"], posterior.n_draws)
                    )
            else:
                setup, posterior, used = fit_laplace_any_rule(build, chosen, rng, draws, fit_progress)
                if used != chosen:
                    feedback.pushWarning(
                        self.tr(
                            "{0}: the edge-midpoint rule was fooled by fields with spikes at single mesh nodes (a "
                            "clustered pattern), so the model was refitted with the degree-3 rule, which sees the "
                            "nodes; it overestimates the integral of rough fields by 1-3%, which lengthens the "
                            "estimated range a little."
                        ).format(self.INTEGRATION)
                    )
                if posterior.diagnostics.get("grid_truncated"):
                    feedback.pushWarning(
                        self.tr(
                            "The posterior of the field's range and standard deviation is too flat for the fast "
                            "method's grid: it reached its {0} points before the posterior fell off, so the draws "
                            "miss part of it and the fit cannot be trusted. Give a {1} nearer the scale of the "
                            "pattern (empty: 1/5 of the window's larger side), or use the MCMC method."
                        ).format(posterior.diagnostics["grid_points"], self.PRIOR_RANGE)
                    )
                if posterior.diagnostics.get("grid_points_rejected"):
                    feedback.pushInfo(
                        self.tr("{0} hyperparameter grid points were left out as failed fits.").format(
                            posterior.diagnostics["grid_points_rejected"]
                        )
                    )
            from ..core.synthesis.walder import NodeCovariates

            at_nodes = NodeCovariates.from_functions(setup.mesh, setup.window, tuple(covariates), offset)
            posterior.x_nodes, posterior.offset_nodes = at_nodes.x, at_nodes.offset
            posterior.record_source(x, y, setup.window, crs_key(crs))
            intensity = None
            if raster_path:
                intensity = self._intensity(
                    posterior,
                    setup,
                    optional[self.PIXEL_SIZE],
                    covariates,
                    offset,
                    FeedbackProgress(feedback, 85.0, 95.0),
                )
        except ParameterError as error:
            raise parameter_error(error, names) from None
        FeedbackProgress(feedback, 95.0, 100.0).check_cancel()
        model_path = self.parameterAsFileOutput(parameters, self.OUTPUT_MODEL, context)
        report_path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        cpo = posterior_cpo(posterior, setup.model.design)
        lpml = float(np.sum(cpo[1]))
        if not (math.isfinite(lpml) and np.all(np.isfinite(cpo[0]))):
            # a guard: before core.lgcp.GRID_EXCESS, 10-15 points gave field variance ~1e12 and every CPO 0; a
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
        report = self._report(posterior, setup, seed, intensity, cpo) if report_path else None
        posterior.save(model_path)
        results = {self.OUTPUT_MODEL: model_path, self.NODES: setup.mesh.n_nodes, self.LPML: lpml}
        if parameters.get(self.OUTPUT_CPO) not in (None, ""):
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
            results[self.OUTPUT_INTENSITY] = raster_path
            if context.willLoadLayerOnCompletion(raster_path):  # also in a model, whose output names it otherwise
                context.layerToLoadOnCompletionDetails(raster_path).name = self.tr("Posterior intensity (CONFIDENTIAL)")
            ThematicStyle.attach(context, raster_path, "")  # band 1, the posterior mean, in pseudocolour
        if report is not None:
            title = self.tr("{0} (CONFIDENTIAL: not for publication)").format(self.displayName())
            write_html_report(report_path, title, report)
            results[self.OUTPUT_REPORT] = report_path
        for name, mean, sd, lower, upper in posterior.summary():
            feedback.pushInfo(f"{name}: {mean:.4g} (sd {sd:.3g}; 95% {lower:.4g} to {upper:.4g})")
        return results

    def _intensity(self, posterior, setup, pixel, covariates, offset, progress):
        """Posterior mean and sd of the intensity on a pixel grid over the window."""
        import numpy as np

        pixel, cols, rows = _pixel_grid(setup, pixel)
        xmin, ymin, xmax, ymax = setup.window.bounds
        cx = xmin + (np.arange(cols) + 0.5) * pixel
        cy = ymin + rows * pixel - (np.arange(rows) + 0.5) * pixel
        gx, gy = np.meshgrid(cx, cy)
        gx, gy = gx.ravel(), gy.ravel()
        inside = setup.window.contains(gx, gy)
        px, py = gx[inside], gy[inside]
        design = np.column_stack([np.ones(px.size)] + [c.values(px, py) for c in covariates])
        off = None if offset is None else offset(px, py)
        mean, sd = posterior.intensity_summary(setup.mesh.projection(px, py), design, off, progress=progress)
        bands = np.full((2, rows * cols), np.nan)
        bands[0, inside], bands[1, inside] = mean, sd
        return bands.reshape(2, rows, cols), xmin, ymin + rows * pixel, pixel

    def _convergence_warnings(self, posterior) -> list[str]:
        """What :func:`core.mcmc.check_convergence` found wrong with an MCMC fit, as messages that say what to
        change; empty when the chains look converged (and for the fast method)."""
        from ..core.mcmc import MAX_RHAT, MIN_THETA_ACCEPTANCE, check_convergence

        if posterior.method != "mcmc":
            return []
        check = check_convergence(posterior.diagnostics)
        messages = []
        if check.acceptance_theta is not None:
            messages.append(
                self.tr(
                    "The hyperparameter chain is stuck: it accepted {0:.2%} of its moves (fewer than {1:.0%}), so "
                    "the range and standard deviation repeat a few values and the fit cannot be trusted, whatever "
                    "R-hat and the effective sample sizes say. Give a {2} nearer the scale of the pattern (empty: "
                    "1/5 of the window's larger side), or use the fast method."
                ).format(check.acceptance_theta, MIN_THETA_ACCEPTANCE, self.PRIOR_RANGE)
            )
        names = list(dict.fromkeys([*check.high_rhat, *check.low_ess]))
        if names:
            rhat, ess = posterior.diagnostics.get("rhat", {}), posterior.diagnostics.get("ess", {})
            details = "; ".join(
                f"{name}: R-hat {rhat.get(name, math.nan):.3f}, ESS {ess.get(name, math.nan):.0f}" for name in names
            )
            messages.append(
                self.tr(
                    "The MCMC chains have not converged ({0}). BDA3 asks for R-hat below {1:g} and at least {2:.0f} "
                    "effective draws of every parameter before the draws are used. Ask for more {3}, or give a {4} "
                    "nearer the scale of the pattern (empty: 1/5 of the window's larger side)."
                ).format(details, MAX_RHAT, check.min_ess, self.DRAWS, self.PRIOR_RANGE)
            )
        return messages

    def _rule_name(self, scheme) -> str:
        names = {
            "midpoint": self.tr("edge midpoints"),
            "vertex": self.tr("dual mesh"),
            "cubic": self.tr("degree 3 (nodes, midpoints and centroids)"),
        }
        return names[scheme]

    def _report(self, posterior, setup, seed, intensity, cpo):
        tr = self.tr
        rows = [
            (name, f"{mean:.4g}", f"{sd:.3g}", f"{lower:.4g} – {upper:.4g}")
            for name, mean, sd, lower, upper in posterior.summary()
        ]
        table = [(tr("parameter"), tr("mean | sd | 95% interval"))] + [(r[0], " | ".join(r[1:])) for r in rows]
        settings = [
            (tr("Points"), setup.model.design.n_points),
            (tr("Mesh nodes"), setup.mesh.n_nodes),
            (tr("Largest mesh edge"), f"{setup.max_edge:g}"),
            (tr("Window area"), f"{setup.window.area:g}"),
            (tr("Posterior draws"), posterior.n_draws),
            (tr("Integration rule"), self._rule_name(posterior.diagnostics["integration"])),
            (tr("Hyperparameter grid points"), posterior.diagnostics.get("grid_points")),
            (tr("Points at a location another point already takes"), setup.duplicates),
            (tr("Log pseudo-marginal likelihood (sum of log CPO)"), f"{float(cpo[1].sum()):.6g}"),
            (tr("Points whose CPO rests on fewer than 20 effective draws"), int((cpo[2] < 20).sum())),
        ]
        if "grid_points_rejected" in posterior.diagnostics:
            rejected = posterior.diagnostics["grid_points_rejected"]
            settings.insert(6, (tr("Grid points left out as failed fits"), rejected))
        if posterior.diagnostics.get("grid_truncated"):
            settings.insert(6, (tr("Warning"), tr("the hyperparameter grid was cut short at its limit")))
        sections = [
            (
                tr("Not for publication"),
                tr(
                    "This fit is derived from the confidential points. Keep the report, "
                    "the model file and the intensity map internal."
                ),
            ),
            (tr("Posterior summary"), table),
            (tr("Settings"), settings),
        ]
        if seed is not None:
            sections.append((tr("Seed"), tr("A fixed seed was used (reproducible run).")))
        if posterior.method == "mcmc":
            diagnostics = posterior.diagnostics
            rows = [
                (
                    name,
                    f"R-hat {diagnostics.get('rhat', {}).get(name, float('nan')):.3f}, "
                    f"ESS {diagnostics.get('ess', {}).get(name, float('nan')):.0f}",
                )
                for name in ("log_range", "log_sigma") + tuple(posterior.names)
            ]
            rows.append((tr("Draws with spikes at mesh nodes the integration misses"), diagnostics.get("spiky_draws")))
            if diagnostics.get("acceptance_theta") is not None:
                rows.append((tr("Accepted hyperparameter moves"), f"{diagnostics['acceptance_theta']:.1%}"))
            sections.append((tr("MCMC convergence"), rows))
            for message in self._convergence_warnings(posterior):
                sections.append((tr("Warning: the MCMC has not converged"), message))
            sections.append((tr("Trace plots"), _trace_png(posterior)))
        if intensity is not None:
            sections.append((tr("Posterior mean intensity"), _png_data_uri(intensity)))
        return sections


def warn_about_the_setup(alg, setup, feedback) -> None:
    """Warnings on a built LGCP (core.lgcp_setup.LGCPSetup) that its fit would not give: a mesh too coarse for
    any pattern or so fine that the fit takes many minutes (MAX_EDGE), points far from the rest that stretch a
    window drawn around them (WINDOW)."""
    from ..core.lgcp_setup import FAR

    for problem in (setup.too_coarse(), setup.too_fine()):
        if problem:
            feedback.pushWarning(f"{alg.MAX_EDGE}: {problem}")
    if setup.isolated:
        feedback.pushWarning(
            _tr(
                "{0} points lie far from the rest (more than {1:g} times the median distance from the points' "
                "centre) and more than double the size of the window drawn around the points: a geocoding error, "
                "or points from elsewhere? Check them, or give a {2}."
            ).format(setup.isolated, FAR, alg.WINDOW)
        )


def read_covariates(alg, parameters, context, crs, rasters="COVARIATES", distance_to="DISTANCE_TO", offset="OFFSET"):
    """The model's covariates (core.lgcp_setup.Covariate: rasters, then 'distance' to features) and log offset
    function from the parameters of those names (each optional; a name the algorithm lacks is skipped)."""
    from ..core.covariates import distance_to_points, distance_to_segments
    from ..core.lgcp_setup import Covariate

    names = {p.name() for p in alg.parameterDefinitions()}
    covariates = []
    if rasters in names:
        for layer in alg.parameterAsLayerList(parameters, rasters, context):
            grid = read_raster(alg, parameters, layer, rasters, crs)
            covariates.append(Covariate(layer.name(), lambda u, v, g=grid: g.sample(u, v, name="covariates")))
    target = read_distance_features(alg, parameters, distance_to, context, crs) if distance_to in names else None
    if target is not None:
        kind, data = target
        if kind == "points":
            func = lambda u, v, p=data: distance_to_points(u, v, *p)  # noqa: E731
        else:
            func = lambda u, v, s=data: distance_to_segments(u, v, s)  # noqa: E731
        covariates.append(Covariate("distance", func, parameter="distance_to"))
    log_offset = None
    offset_layer = alg.parameterAsRasterLayer(parameters, offset, context) if offset in names else None
    if offset_layer is not None:
        grid = read_raster(alg, parameters, offset_layer, offset, crs)
        log_offset = lambda u, v, g=grid: g.sample(u, v, name="offset")  # noqa: E731
    return covariates, log_offset


def _png_data_uri(intensity) -> str:
    """A small PNG map of the posterior mean intensity, as an ``<img>`` data URI marker for the report."""

    bands, x_min, y_max, size = intensity
    rows, cols = bands.shape[1:]
    fig, ax = report_figure(figsize=(6, 6 * rows / max(cols, 1) + 0.5))
    image = ax.imshow(bands[0], extent=(x_min, x_min + cols * size, y_max - rows * size, y_max), cmap="viridis")
    fig.colorbar(image, ax=ax, label="intensity")
    return figure_data_uri(fig)


def _trace_png(posterior) -> str:
    """Trace plots of the hyperparameters and coefficients (draws in stored order), as a data URI."""

    series = [("log range", posterior.log_range), ("log sigma", posterior.log_sigma)]
    series += [(name, posterior.beta[:, j]) for j, name in enumerate(posterior.names)]
    fig, axes = report_figure(len(series), 1, figsize=(7, 1.6 * len(series)), sharex=True)
    for ax, (name, values) in zip(axes, series):
        ax.plot(values, linewidth=0.5)
        ax.set_ylabel(name)
    axes[-1].set_xlabel("draw")
    return figure_data_uri(fig)


def _pixel_grid(setup, pixel):
    """``(pixel, cols, rows)`` of the intensity raster over the window (pixel defaults to half the largest mesh
    edge); refuses more than MAX_PIXELS pixels."""
    from ..core.errors import ParameterError

    pixel = pixel or setup.max_edge / 2.0
    xmin, ymin, xmax, ymax = setup.window.bounds
    cols, rows = max(1, math.ceil((xmax - xmin) / pixel)), max(1, math.ceil((ymax - ymin) / pixel))
    if cols * rows > MAX_PIXELS:
        raise ParameterError(
            "pixel_size",
            f"the intensity raster would have {cols * rows} pixels (at most {MAX_PIXELS}); use a larger pixel size",
        )
    return pixel, cols, rows
