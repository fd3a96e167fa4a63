"""Processing algorithm ``spatialprivacy:synthesizemarked``: Quick, Holan, Wikle & Reiter's fully synthetic marked
point data (locations, categories and a numeric mark) from a Bayesian marked point process
(core.marked.model.fit_marked, core.marked.synthesis.synthesize_marked)."""

from __future__ import annotations

from qgis.core import (
    NULL,
    QgsFeatureRequest,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDistance,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
)

from ...compat import FIELD_ANY, FIELD_NUMERIC, NUMBER_INTEGER, REQUEST_NO_GEOMETRY, SOURCE_POINT, SOURCE_POLYGON
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs
from ..feedback import FeedbackProgress
from ..inputs import read_point_values, read_window
from ..lgcp_inputs import read_covariates, setup_warning
from ..marked_output import write_marked_layer, write_marked_sets
from ..parameters import given, make_rng
from ..reports.marked_synthesis import report_sections

#: The NUMERIC_MODEL enum, in core.marked.numeric.MODELS order (new models are appended, never inserted).
NUMERIC_MODELS = ("normal", "truncated_poisson", "log_normal")
#: Default number of synthetic sets L. The combining rules for fully synthetic data estimate a between-set
#: variance from L values: with b_m about twice the within-set variance (expected when every set has N records)
#: their degrees of freedom reach 3 only from about L = 12 (core.marked.combining.UNSTABLE_DF); 20 keeps most
#: coefficients stable and costs little (20 sets of the 8,348 enterprises take under a second after the fit).
DEFAULT_SETS = 20


class SynthesizeMarkedAlgorithm(SpatialPrivacyAlgorithm):
    REQUIRES = ("numpy", "scipy")
    INPUT = "INPUT"
    CATEGORY_FIELDS = "CATEGORY_FIELDS"
    NUMERIC_FIELD = "NUMERIC_FIELD"
    NUMERIC_MODEL = "NUMERIC_MODEL"
    NUMERIC_RANGE = "NUMERIC_RANGE"
    WINDOW = "WINDOW"
    MAX_EDGE = "MAX_EDGE"
    COVARIATES = "COVARIATES"
    DISTANCE_TO = "DISTANCE_TO"
    OFFSET = "OFFSET"
    CANDIDATES = "CANDIDATES"
    CANDIDATES_REPLACE = "CANDIDATES_REPLACE"
    SETS = "SETS"
    WORK_CRS = "WORK_CRS"
    SEED = "SEED"
    OUTPUT = "OUTPUT"
    OUTPUT_FOLDER = "OUTPUT_FOLDER"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    SYNTHETIC_COUNT = "SYNTHETIC_COUNT"

    CORE_NAMES = {
        "points": "INPUT",
        "category_fields": "CATEGORY_FIELDS",
        "numeric_field": "NUMERIC_FIELD",
        "numeric_model": "NUMERIC_MODEL",
        "numeric_range": "NUMERIC_RANGE",
        "window": "WINDOW",
        "mesh": "MAX_EDGE",
        "max_edge": "MAX_EDGE",
        "integration": "MAX_EDGE",
        "covariates": "COVARIATES",
        "distance": "DISTANCE_TO",
        "distance_to": "DISTANCE_TO",
        "offset": "OFFSET",
        "candidates": "CANDIDATES",
        "sets": "SETS",
        "theta": "INPUT",
        "prior_range": "WINDOW",
        "prior_sigma": "INPUT",
        "eta_nodes": "MAX_EDGE",
    }

    def name(self):
        return "synthesizemarked"

    def displayName(self):
        return self.tr("Synthetic marked points (locations, categories, a number)")

    def group(self):
        return self.tr("Synthetic points")

    def groupId(self):
        return "syntheticpoints"

    def shortDescription(self):
        return self.tr(
            "Quick, Holan, Wikle & Reiter's fully synthetic records: locations with their categories and a number."
        )

    @staticmethod
    def guarantee_text(tr) -> str:
        return tr(
            "<p><b>Guarantee.</b> None in the sense of differential privacy (no ε or δ). What the synthetic data "
            "publish exactly: the number of records N (every set has N) and the set of category combinations that "
            "occur in the data (a combination of a single record reveals that such a record exists). Everything "
            "else is drawn from a model fitted to the confidential data, and can still let an intruder infer "
            "locations or attributes: run spatialprivacy:markedrisk, which measures the paper's two inferential "
            "risks (Type S: attributes given a location; Type A: a location given the attributes), before "
            "publishing.</p>"
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Makes L fully synthetic data sets of N records, each a location with the category fields and, if "
                "given, a numeric field, from a Bayesian marked point process (Quick, Holan, Wikle &amp; Reiter, "
                "Sections 2-3).</p><ul>"
                "<li><b>Categories</b> (eq. 1): the combinations of the category fields that occur in the data; per "
                "set, probabilities θ ~ Dirichlet(n + 1/K) (the paper's α = 1/K) and counts ~ Multinomial(N, θ).</li>"
                "<li><b>Locations</b> (eq. 2): one log-Gaussian Cox process per combination, with the range and "
                "variance of the spatial field shared: they are estimated by an LGCP fitted to all points (fast "
                "Laplace posterior), and each combination's surface is then fitted at them; the surfaces are "
                "independent (the paper's Ψ diagonal with a common variance). The field is an SPDE field on a mesh "
                "instead of the paper's predictive-process knots: the same model family, a better approximation. "
                "Combinations with fewer than 10 records are too small for a surface of their own: their locations "
                "come from the surface of all points (the paper's borrowing of strength), with a warning naming "
                "them. Synthetic locations are drawn from the combination's drawn intensity in the window, exactly, "
                "or from a layer of CANDIDATES (e.g. addresses) with probability proportional to it.</li>"
                "<li><b>Numeric mark</b> (eqs. 4-5), per combination: normal, Y = β + w(s) + ε, with a spatial field "
                "w of the locations' range (fixed, as the paper fixes it); or a Poisson truncated to a public range "
                "(the paper's age model), log rate β + w(s); or log-normal, for positive skewed numbers such as a "
                "turnover or an income: the normal model fitted to log(value), each synthetic value exp of its draw, "
                "so that every synthetic value is positive and exp(β) is a geometric mean (the normal model puts "
                "part of a skewed positive variable below zero). The field is constrained to average zero over the "
                "window, so that β is the combination's window-average level (without the constraint a field of "
                "window-sized range trades its level off against β). The field's standard deviation and σ have "
                "flat priors on their logarithms; each set draws them from the Gaussian (Laplace) approximation of "
                "their posterior, then β and the field from their posterior given them (the paper's Section 3: "
                "every parameter a posterior draw). A standard deviation whose posterior is not peaked (e.g. no "
                "spatial variation: a field sd of zero) is held at its estimate, with a warning. Combinations with "
                "fewer than 10 records get no field (normal: a common noise variance over all combinations, drawn "
                "from its exact posterior).</li></ul>"
                "<p>Set l uses posterior draw l of every parameter.</p>"
            )
            + self.guarantee_text(self.tr)
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Confidential points"), [SOURCE_POINT]),
            tr("The confidential records: one point each, with their category fields and, optionally, a number."),
        )
        self.add(
            QgsProcessingParameterField(
                self.CATEGORY_FIELDS, tr("Category fields"), None, self.INPUT, FIELD_ANY, True, False
            ),
            tr(
                "One or more fields of categories (sex, race, a 0/1 flag...). Their combinations that occur in the "
                "data are the paper's K combinations; each field needs 2 to 50 values and no NULL. The set of "
                "combinations is published exactly."
            ),
        )
        self.add(
            QgsProcessingParameterField(
                self.NUMERIC_FIELD, tr("Numeric field"), None, self.INPUT, FIELD_NUMERIC, False, True
            ),
            tr("Optional: a number per record (an income, an age) synthesised per combination. No NULL."),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.NUMERIC_MODEL,
                tr("Model of the numeric field"),
                [
                    tr("Normal with a spatial field (eq. 4)"),
                    tr("Truncated Poisson with a spatial field (whole numbers)"),
                    tr("Log-normal with a spatial field (positive numbers)"),
                ],
                False,
                0,
            ),
            tr(
                "Normal: any number (its synthetic values can be negative even if the data are not: the log says "
                "how many). Truncated Poisson: whole numbers within NUMERIC_RANGE, e.g. an age (the paper's Section 4 "
                "model). Log-normal: positive numbers (every value > 0), e.g. a turnover or an income: the normal "
                "model of their logarithm, synthetic values always positive. The same guarantee for all three: "
                "none beyond the published N and combinations."
            ),
        )
        self.add(
            QgsProcessingParameterString(
                self.NUMERIC_RANGE, tr("Public range of the numeric field"), None, False, True
            ),
            tr(
                "Truncated Poisson only, and required for it: 'lower, upper', two whole numbers that every possible "
                "value lies between, known publicly (e.g. 0, 120 for an age). It is never taken from the data: their "
                "smallest and largest values are confidential."
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.WINDOW, tr("Study window"), [SOURCE_POLYGON], None, True),
            tr(
                "Polygons of the study region; every record must lie inside, and synthetic locations are drawn "
                "inside it. Empty: the points' bounding box enlarged by 5% (then derived from the data)."
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.DISTANCE_TO, tr("Distance to features"), [-1], None, True),
            tr("Adds the covariate 'distance to the nearest feature of this layer' to every intensity surface."),
        )
        self.add(
            QgsProcessingParameterMultipleLayers(self.COVARIATES, tr("Covariate rasters"), 3, None, True),
            tr("Rasters (band 1) used as covariates of every intensity surface; they must cover the window."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterRasterLayer(self.OFFSET, tr("Offset raster (log scale)"), None, True),
            tr("Known log-intensity offset of every surface, e.g. log population density."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterDistance(self.MAX_EDGE, tr("Largest mesh edge"), None, self.INPUT, True, 0.0),
            tr("Mesh resolution (CRS units). Empty: 1/40 of the window's larger side."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.CANDIDATES, tr("Candidate locations"), [SOURCE_POINT], None, True),
            tr(
                "Optional points (e.g. all addresses) that synthetic locations are drawn from, with probability "
                "proportional to the drawn intensity there (Section 3); those outside the window are left out. "
                "Empty: locations are drawn exactly from the intensity over the window."
            ),
        )
        self.add(
            QgsProcessingParameterBoolean(self.CANDIDATES_REPLACE, tr("Draw candidates with replacement"), True),
            tr(
                "With replacement (the paper's recommendation): a candidate can be drawn more than once. Without: no "
                "candidate is used twice within a set, and the pool must hold at least N candidates."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.SETS, tr("Number of synthetic sets (L)"), NUMBER_INTEGER, DEFAULT_SETS, False, 1, 1000
            ),
            tr(
                "How many synthetic data sets of N records to make (the utility and risk summaries combine them). "
                "With fewer than about 12 sets the combined intervals of markedrisk are often unstable (flagged)."
            ),
        )
        self.add_work_crs(tr("Needed only when the layer is in degrees; distances are then in this CRS's units."))
        self.add_seed()
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Synthetic records (all sets)"), SOURCE_POINT),
            tr(
                "All L sets in one layer, with the field 'set' (1..L), the category fields (same names and types) "
                "and the numeric field. Assess it with spatialprivacy:markedrisk before publishing."
            ),
        )
        self.add(
            QgsProcessingParameterFolderDestination(
                self.OUTPUT_FOLDER, tr("One GeoPackage per set (folder)"), None, True, False
            ),
            tr("Optional: also write each set as set_1.gpkg ... set_L.gpkg in this folder, with the same fields."),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report (CONFIDENTIAL)"), tr("HTML files (*.html)"), None, True, False
            ),
            tr("Settings, combinations and fitted quantities (derived from the confidential data: keep it internal)."),
        )
        self.addOutput(QgsProcessingOutputNumber(self.SYNTHETIC_COUNT, tr("Number of synthetic records (all sets)")))

    # -- inputs ---------------------------------------------------------------------------------------------

    def numeric_range(self, parameters, context, model):
        from ..parameters import parse_number_list

        if model != "truncated_poisson":
            return None
        if not given(parameters, self.NUMERIC_RANGE):
            raise QgsProcessingException(
                self.tr(
                    "{0}: the truncated Poisson model needs the public range of the values, e.g. '0, 120' for an age "
                    "(never the data's own minimum and maximum, which are confidential)."
                ).format(self.NUMERIC_RANGE)
            )
        values = parse_number_list(self.parameterAsString(parameters, self.NUMERIC_RANGE, context), self.NUMERIC_RANGE)
        if len(values) != 2:
            raise QgsProcessingException(
                self.tr("{0}: give two whole numbers, lower and upper, e.g. '0, 120'.").format(self.NUMERIC_RANGE)
            )
        return values[0], values[1]

    def read_categories(self, parameters, context, fields, count):
        """The category fields' values, one list per field, in the order the points were read."""
        source = self.parameterAsSource(parameters, self.INPUT, context)
        layer_fields = source.fields()
        indices = []
        for field in fields:
            idx = layer_fields.lookupField(field)
            if idx < 0:
                raise QgsProcessingException(
                    self.tr("{0}: the layer has no field '{1}'.").format(self.CATEGORY_FIELDS, field)
                )
            indices.append(idx)
        request = QgsFeatureRequest().setFlags(REQUEST_NO_GEOMETRY).setSubsetOfAttributes(indices)
        columns = [[] for _ in fields]
        for feature in source.getFeatures(request):
            for column, idx in zip(columns, indices):
                value = feature[idx]
                column.append(None if value is None or value == NULL else value)
        if len(columns[0]) != count:
            raise QgsProcessingException(
                self.tr("{0}: the layer changed while it was read; try again.").format(self.INPUT)
            )
        return columns, [layer_fields.at(i) for i in indices]

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_REPORT,))
        import numpy as np

        from ...core.errors import ParameterError
        from ...core.lgcp_setup import NOTE_BUILT
        from ...core.marked.combinations import combinations
        from ...core.marked.model import fit_marked
        from ...core.marked.synthesis import Candidates, synthesize_marked
        from ...core.progress import scaled

        fields = self.parameterAsFields(parameters, self.CATEGORY_FIELDS, context)
        numeric_field = (
            self.parameterAsString(parameters, self.NUMERIC_FIELD, context)
            if given(parameters, self.NUMERIC_FIELD)
            else ""
        )
        if not fields:
            raise QgsProcessingException(
                self.tr("{0}: choose at least one category field.").format(self.CATEGORY_FIELDS)
            )
        if numeric_field and numeric_field in fields:
            raise QgsProcessingException(
                self.tr("{0}: '{1}' is also a category field; a field is either a category or the number.").format(
                    self.NUMERIC_FIELD, numeric_field
                )
            )
        for name, values in ((self.CATEGORY_FIELDS, fields), (self.NUMERIC_FIELD, [numeric_field])):
            if "set" in [v.lower() for v in values if v]:
                raise QgsProcessingException(
                    self.tr("{0}: a field named 'set' would clash with the output's set number; rename it.").format(
                        name
                    )
                )
        model = NUMERIC_MODELS[self.parameterAsEnum(parameters, self.NUMERIC_MODEL, context)]
        support = self.numeric_range(parameters, context, model) if numeric_field else None
        if given(parameters, self.NUMERIC_RANGE) and support is None:
            feedback.pushWarning(
                self.tr("{0} ignored: it is used only by the truncated Poisson model of a numeric field.").format(
                    self.NUMERIC_RANGE
                )
            )
        sets = self.parameterAsInt(parameters, self.SETS, context)
        replace = self.parameterAsBoolean(parameters, self.CANDIDATES_REPLACE, context)
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        points = read_point_values(
            self,
            parameters,
            context,
            feedback,
            self.INPUT,
            self.NUMERIC_FIELD if numeric_field else None,
            self.WORK_CRS,
            progress_range=(0.0, 10.0),
        )
        columns, field_defs = self.read_categories(parameters, context, fields, len(points.x))
        x, y = np.array(points.x), np.array(points.y)
        numeric = np.array(points.values, dtype=float) if numeric_field else None
        numeric_def = None
        if numeric_field:
            source = self.parameterAsSource(parameters, self.INPUT, context)
            numeric_def = source.fields().at(source.fields().lookupField(numeric_field))
        try:
            comb, index = combinations(columns, fields)
            window = read_window(self, parameters, self.WINDOW, context, points.work_crs)
            covariates, offset = read_covariates(self, parameters, context, points.work_crs)
            cand_xy = None
            if given(parameters, self.CANDIDATES):
                cand = read_point_values(
                    self,
                    parameters,
                    context,
                    feedback,
                    self.CANDIDATES,
                    None,
                    self.WORK_CRS,
                    progress_range=(10.0, 12.0),
                )
                if cand.work_crs != points.work_crs:
                    raise QgsProcessingException(
                        self.tr("{0}: read in another CRS than {1}.").format(self.CANDIDATES, self.INPUT)
                    )
                cand_xy = (np.array(cand.x), np.array(cand.y))
                if not replace and len(cand.x) < x.size:
                    raise QgsProcessingException(
                        self.tr(
                            "{0}: without replacement every set needs N = {1} distinct candidates, but the layer has "
                            "{2}: give more candidates or draw with replacement ({3})."
                        ).format(self.CANDIDATES, x.size, len(cand.x), self.CANDIDATES_REPLACE)
                    )

            def note(fit_note):
                if fit_note.kind == NOTE_BUILT:
                    feedback.pushInfo(
                        self.tr("Fitting the LGCP of all points ({0} mesh nodes).").format(fit_note.setup.mesh.n_nodes)
                    )
                warning = setup_warning(self, fit_note)
                if warning:
                    feedback.pushWarning(warning)

            progress = FeedbackProgress(feedback, 12.0, 90.0)
            fit = fit_marked(
                x,
                y,
                comb,
                index,
                rng,
                sets,
                numeric=numeric,
                numeric_model=model,
                numeric_range=support,
                window=window,
                max_edge=self.parameterAsDouble(parameters, self.MAX_EDGE, context)
                if given(parameters, self.MAX_EDGE)
                else None,
                covariates=covariates,
                offset=offset,
                on_note=note,
                progress=scaled(progress, 0.0, 0.8),
            )
            self.warn_small(fit, feedback)
            candidates = None
            if cand_xy is not None:
                candidates = Candidates.build(fit, *cand_xy)
                if candidates.outside:
                    feedback.pushWarning(
                        self.tr("{0}: {1} candidates lie outside the study window and are left out.").format(
                            self.CANDIDATES, candidates.outside
                        )
                    )
            syn = synthesize_marked(
                fit, rng, candidates=candidates, replace=replace, progress=scaled(progress, 0.8, 1.0)
            )
        except ParameterError as error:
            raise self.core_error(error) from None
        progress.check_cancel()
        self.warn_negative(fit, syn, feedback)
        feedback.setProgress(90.0)
        if window is None:
            feedback.pushWarning(
                self.tr(
                    "No {0}: the window is the points' bounding box enlarged by 5%, derived from the confidential "
                    "data; give a public study region for a release."
                ).format(self.WINDOW)
            )
        feedback.pushInfo(
            self.tr(
                "{0} is not recorded in a privacy-budget ledger: this synthesis has no ε or δ to add up. A ledger's "
                "totals for these points do not cover it."
            ).format(self.OUTPUT)
        )
        layer_name = self.labelled(self.tr("Synthetic marked points ({0} sets)").format(sets))
        dest = write_marked_layer(
            self, parameters, context, self.OUTPUT, syn, comb, field_defs, numeric_def, model, points, layer_name
        )
        results = {self.OUTPUT: dest, self.SYNTHETIC_COUNT: int(syn.x.size)}
        folder = (
            self.parameterAsString(parameters, self.OUTPUT_FOLDER, context)
            if given(parameters, self.OUTPUT_FOLDER)
            else ""
        )
        if folder:
            results[self.OUTPUT_FOLDER] = write_marked_sets(
                self, folder, syn, comb, field_defs, numeric_def, model, points, context, feedback
            )
        path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        if path:
            from ..destinations import ensure_folder
            from ..reports.page import write_html_report

            ensure_folder(path, self.OUTPUT_REPORT)
            title = self.labelled(self.tr("{0} (CONFIDENTIAL: not for publication)").format(self.displayName()))
            write_html_report(
                path,
                title,
                report_sections(
                    self, fit, syn, sets, model if numeric_field else None, numeric_field, seed, candidates, replace
                ),
            )
            results[self.OUTPUT_REPORT] = path
        return results

    def warn_small(self, fit, feedback) -> None:
        comb = fit.comb
        from ...core.marked.model import MIN_COMBINATION_POINTS
        from ...core.marked.numeric_field import HYPER_DRAWN

        small = [k for k in fit.borrowed if k not in fit.failed]
        if small:
            feedback.pushWarning(
                self.tr(
                    "{0}: {1} have fewer than {2} records each, too few for an intensity surface of their own: their "
                    "synthetic locations follow the surface of all points (the paper's borrowing of strength), and "
                    "their numeric mark has no spatial field. Their existence is published by the synthetic data."
                ).format(
                    self.CATEGORY_FIELDS,
                    "; ".join(self.tr("{0} ({1} records)").format(comb.label(k), int(comb.counts[k])) for k in small),
                    MIN_COMBINATION_POINTS,
                )
            )
        if fit.failed:
            feedback.pushWarning(
                self.tr(
                    "{0}: the intensity fit of {1} failed at the shared hyperparameters; their locations follow the "
                    "surface of all points."
                ).format(self.CATEGORY_FIELDS, "; ".join(comb.label(k) for k in fit.failed))
            )
        held = [
            k
            for k, c in enumerate(fit.numeric.components if fit.numeric is not None else [])
            if c.hyper_note != HYPER_DRAWN
        ]
        if held:
            feedback.pushWarning(
                self.tr(
                    "{0}: for {1} the posterior of the numeric mark's standard deviations is not peaked (e.g. no "
                    "spatial variation, a field sd of zero): those not peaked are held at their estimates instead of "
                    "drawn per set, so the synthetic values understate their uncertainty."
                ).format(self.NUMERIC_FIELD, "; ".join(comb.label(k) for k in held))
            )
        single = [k for k in range(comb.k) if comb.counts[k] == 1]
        if single:
            feedback.pushWarning(
                self.tr(
                    "{0}: {1} occur in a single record; the synthetic data reveal that such a record exists."
                ).format(self.CATEGORY_FIELDS, "; ".join(comb.label(k) for k in single))
            )

    def warn_negative(self, fit, syn, feedback) -> None:
        """One warning for the normal model's combinations whose confidential values are all >= 0 but some of
        whose synthetic values are negative, with their share (core.marked.numeric.NumericFit.negative_shares)."""
        shares = fit.numeric.negative_shares(syn.index, syn.numeric) if fit.numeric is not None else []
        if shares:
            feedback.pushWarning(
                self.tr(
                    "{0}: the normal model made negative synthetic values in combinations whose values are all "
                    "≥ 0 ({1}). For a positive, skewed number choose the log-normal model ({2}), whose synthetic "
                    "values are all positive."
                ).format(
                    self.NUMERIC_FIELD,
                    "; ".join(
                        self.tr("{0}: {1:.1%} of its synthetic values").format(fit.comb.label(k), share)
                        for k, share in shares
                    ),
                    self.NUMERIC_MODEL,
                )
            )
