"""Processing algorithm ``spatialprivacy:pufferfishgrid``: a thin adapter over core.pufferfish."""

from __future__ import annotations

import math

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDistance,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterPoint,
    QgsProcessingParameterRasterDestination,
)

from ...compat import (
    FIELD_NUMERIC,
    NUMBER_DOUBLE,
    NUMBER_INTEGER,
    SOURCE_POINT,
    SOURCE_POLYGON,
    double_field,
    int_field,
)
from ...core import dependencies
from ...core.limits import MIN_EPSILON
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs, ensure_folders
from ..feedback import FeedbackProgress
from ..grid_cells import write_cell_layers
from ..inputs import read_point_values
from ..ledger import add_ledger_parameters, check_release, points_dataset
from ..parameters import given, make_rng
from ..raster import write_float_raster
from ..reports.page import write_html_report
from ..reports.pufferfish import report_sections, statistic_name
from ..styling import ThematicStyle


class PufferfishGridAlgorithm(SpatialPrivacyAlgorithm):
    INPUT = "INPUT"
    FIELD = "FIELD"
    CELL_SIZE = "CELL_SIZE"
    EPSILON = "EPSILON"
    ERROR_MODEL = "ERROR_MODEL"
    INTERVAL = "INTERVAL"
    RELATIVE_K = "RELATIVE_K"
    STATISTIC = "STATISTIC"
    BOUNDED = "BOUNDED"
    LOWER_BOUND = "LOWER_BOUND"
    UPPER_BOUND = "UPPER_BOUND"
    BOUNDS_FROM_DATA = "BOUNDS_FROM_DATA"
    MARGIN = "MARGIN"
    MIN_COUNT = "MIN_COUNT"
    ORIGIN = "ORIGIN"
    WORK_CRS = "WORK_CRS"
    SEED = "SEED"
    OUTPUT = "OUTPUT"
    OUTPUT_RASTER = "OUTPUT_RASTER"
    CONFIDENTIAL_OUTPUT = "CONFIDENTIAL_OUTPUT"
    CONFIDENTIAL_SINKS = (CONFIDENTIAL_OUTPUT,)
    REPORT = "REPORT"
    DELTA = "DELTA"
    CELLS = "CELLS"
    CORE_NAMES = {
        "epsilon": EPSILON,
        "interval": INTERVAL,
        "relative_k": RELATIVE_K,
        "error_model": ERROR_MODEL,
        "lower_bound": LOWER_BOUND,
        "upper_bound": UPPER_BOUND,
        "margin": MARGIN,
        "min_count": MIN_COUNT,
        "statistic": STATISTIC,
        "values": FIELD,
        "cell_size": CELL_SIZE,
        "origin": ORIGIN,
    }

    def name(self):
        return "pufferfishgrid"

    def displayName(self):
        return self.tr("Pufferfish-private grid map")

    def group(self):
        return self.tr("Grid maps")

    def groupId(self):
        return "gridmaps"

    def shortDescription(self):
        return self.tr("Publish a thematic grid map of a point value (mean or total per cell) with Pufferfish privacy.")

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Bins points into square cells and publishes, per cell, the mean (or total) of a "
                "non-negative value with Laplace noise calibrated to the number of contributors n, "
                "following ter Steege (2021), <i>Pufferfish privacy when publishing on thematic maps</i>.</p>"
                "<p><b>Guarantee.</b> Absolute error (Theorem 3.1): for every person in a cell, an attacker "
                "cannot tell from the map whether their value lies in [x−c, x+c) or in the neighbouring "
                "[x+c, x+3c) by more than a factor e<sup>ε</sup>, for any prior under which people's values "
                "are independent. Relative error (Corollary 3.2): the same for the relative intervals "
                "[ky, y/k) and [y/k, y/k³), i.e. for values up to a factor k; the map then shows each "
                "cell's <i>geometric</i> mean, because the proof protects the mean of log t (the thesis's "
                "eq. 12 writes the arithmetic mean, for which one dominant value could shift the map by up to "
                "n times the stated ε). Each person is in "
                "one cell, so the whole map has the same ε. The bounded mechanism (Section 4) clamps the "
                "output to [L, U]. The thesis analyses it as (ε, δ)-Pufferfish with δ ≤ Δ, the largest "
                "δ<sub>max</sub> of a published cell (Theorem 4.4, Corollary 4.5), reported as output DELTA. "
                "When L and U are fixed without looking at the data, clamping is post-processing, so the "
                "map in fact keeps the pure ε guarantee and Δ is a conservative figure. When the bounds are "
                "derived from the data, nothing about the smallest and largest value is private. The noise is "
                "drawn in double precision, which adds a δ that these figures do not count: about 1e-16 at ε = 1, "
                "5e-15 at ε = 10, 8e-11 at ε = 20 and 2e-3 at ε = 30.</p>"
                "<p><b>Not protected:</b> locations and counts. The map shows which cells are occupied and "
                "publishes n exactly; use this tool when the values are sensitive, not presence.</p>"
            )
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Point layer"), [SOURCE_POINT]),
            tr(
                "Points (one per person or enterprise) with the confidential value. "
                "Selected features only, if so chosen."
            ),
        )
        self.add(
            QgsProcessingParameterField(self.FIELD, tr("Value field"), None, self.INPUT, FIELD_NUMERIC),
            tr("Numeric field with each contribution t_i; must be >= 0 (> 0 for relative error) and not NULL."),
        )
        self.add(
            QgsProcessingParameterDistance(self.CELL_SIZE, tr("Cell size r"), 500.0, self.INPUT, False, 0.0),
            tr("Side of a square cell, in the units of the layer's (or working) CRS, e.g. metres."),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.EPSILON, tr("Privacy parameter ε (epsilon)"), NUMBER_DOUBLE, 1.0, False, MIN_EPSILON
            ),
            tr(
                "ε, at least {0:g}. Smaller is more private and noisier: the noise scale is proportional to 1/ε."
            ).format(MIN_EPSILON),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.ERROR_MODEL,
                tr("Error model"),
                [tr("Absolute error (interval c)"), tr("Relative error (factor k)")],
                False,
                0,
            ),
            tr(
                "Absolute: protects which interval of width 2c holds a value (additive noise). Relative: protects "
                "values up to a factor k (multiplicative noise) and publishes each cell's geometric mean, for "
                "skewed values such as turnover."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.INTERVAL, tr("Interval half-width c (absolute error)"), NUMBER_DOUBLE, None, True, 0.0
            ),
            tr(
                "c > 0, in the value's units: an attacker cannot tell t_i in [x−c, x+c) from [x+c, x+3c). "
                "Larger c protects more and adds more noise (Laplace scale 4c/(nε))."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.RELATIVE_K, tr("Relative factor k (relative error)"), NUMBER_DOUBLE, 0.9, True, 0.0, 1.0
            ),
            tr(
                "0 < k < 1: values within a factor k are protected, e.g. 0.9 for 10%. Smaller k protects more "
                "(Laplace scale −4 ln(k)/(nε) on the log scale)."
            ),
        )
        self.add(
            QgsProcessingParameterEnum(self.STATISTIC, tr("Published statistic"), [tr("Mean"), tr("Total")], False, 0),
            tr(
                "Mean (the thesis's statistic: arithmetic for absolute error, geometric for relative error) or, "
                "for absolute error only, total = n × noisy mean, which has the same guarantee because n is "
                "public. A noisy count is not offered: these secrets do not protect counts."
            ),
        )
        self.add(
            QgsProcessingParameterBoolean(self.BOUNDED, tr("Bounded mechanism (clamp to [L, U])"), False),
            tr(
                "Clamp published means to [L, U] (mechanism B), so no value falls below L (0 with the default "
                "margin) or above U. Needs contribution bounds. The thesis's bound Δ on δ is output DELTA. "
                "Without it the noise is unbounded: a cell's published mean can be negative for a positive quantity."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.LOWER_BOUND, tr("Lower bound L_t of a contribution"), NUMBER_DOUBLE, None, True
            ),
            tr(
                "Public lower bound on every t_i (bounded mechanism), known without looking at the data, e.g. 0 "
                "(then give MARGIN > 0: its default, L_t, would be 0)."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.UPPER_BOUND, tr("Upper bound U_t of a contribution"), NUMBER_DOUBLE, None, True
            ),
            tr("Public upper bound on every t_i (bounded mechanism). Values outside [L_t, U_t] are refused."),
        )
        self.add(
            QgsProcessingParameterBoolean(
                self.BOUNDS_FROM_DATA, tr("Derive bounds from the data (not private)"), False
            ),
            tr(
                "Use L_t = min t_i and U_t = max t_i, as the thesis does. NOT private: the clamp limits reveal the "
                "smallest and largest contribution. The report says so."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.MARGIN, tr("Margin γ (absolute) or λ (relative)"), NUMBER_DOUBLE, None, True, 0.0
            ),
            tr(
                "Absolute: γ > 0, L = L_t − γ, U = U_t + γ; empty gives γ = L_t, so L = 0. Relative: λ > 1, "
                "L = L_t/λ, U = λU_t; empty gives λ = 1.25. Larger margins give smaller δ but clamp less."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.MIN_COUNT, tr("Minimum contributors per published cell"), NUMBER_INTEGER, 1, False, 1
            ),
            tr(
                "Publish only cells with n >= this number; others are left out like empty cells. Costs no privacy "
                "under this definition (n is public) and lowers Δ; it does not protect presence."
            ),
        )
        self.add(
            QgsProcessingParameterPoint(self.ORIGIN, tr("Grid origin"), None, True),
            tr(
                "A corner shared by four cells. Empty: (0, 0), so cell edges fall on multiples of r (the national "
                "statistical grid convention)."
            ),
            advanced=True,
        )
        self.add_work_crs(
            tr(
                "Needed only when the layer is in degrees: the grid is built in this CRS; the output is written "
                "back in the layer's CRS."
            )
        )
        self.add_seed()
        add_ledger_parameters(self)
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Pufferfish grid"), SOURCE_POLYGON),
            tr(
                "Publishable grid: cell_id, n, value (the published statistic), noise_scale (scale of the "
                "noise: value units for absolute error, log scale for relative) and delta_max (0 unless bounded). "
                "The noise is Laplace noise on a grid of 1/64 of the sensitivity (4c/n for absolute error, −4 ln k/n "
                "on the log scale for relative error): the statistic rounded to the grid, plus whole steps of "
                "two-sided geometric noise, so no low-order bits of a float carry the true value (Mironov 2012); "
                "noise_scale is 65/64 of the thesis's scale (4c/(nε) or −4 ln k/(nε)) to pay for the rounding. "
                "A CSV file has no geometry, so it also gets each cell's centre x, y and bounds x_min, y_min, "
                "x_max, y_max in the layer's CRS, and a .csvt file beside it with the column types."
            ),
        )
        self.add(
            QgsProcessingParameterRasterDestination(
                self.OUTPUT_RASTER, tr("Published value raster"), None, True, False
            ),
            tr("Optional GeoTIFF of the published value in the working CRS; cells not published are NoData."),
        )
        self.add(
            QgsProcessingParameterFeatureSink(
                self.CONFIDENTIAL_OUTPUT,
                tr("CONFIDENTIAL comparison (true values and noise; do not publish)"),
                SOURCE_POLYGON,
                None,
                True,
                False,
            ),
            tr(
                "For the analyst only, off by default: true_value, noise (the noise added, rounding included) and "
                "error "
                "(published − true) per cell. Publishing it undoes the protection. As CSV, with the cell location "
                "columns and the .csvt file of the grid output."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.REPORT, tr("Report"), tr("HTML files (*.html)"), None, True, True
            ),
            tr("HTML report of the settings and the privacy guarantee (ε, δ, what is protected). Publishable."),
        )
        self.addOutput(QgsProcessingOutputNumber(self.DELTA, tr("Grid bound Δ on δ")))
        self.addOutput(QgsProcessingOutputNumber(self.EPSILON, tr("Privacy parameter ε")))
        self.addOutput(QgsProcessingOutputNumber(self.CELLS, tr("Number of published cells")))

    # -- parameters -> core settings -------------------------------------------------------------

    def _settings(self, parameters, context):
        from ...core.pufferfish import ErrorModel, PufferfishSettings, Statistic

        def number(name):
            value = parameters.get(name, self.parameterDefinition(name).defaultValue())
            if value is None or value == "":
                return None
            return self.parameterAsDouble({name: value}, name, context)

        return PufferfishSettings(
            epsilon=number(self.EPSILON),
            error_model=ErrorModel(self.parameterAsEnum(parameters, self.ERROR_MODEL, context)),
            interval=number(self.INTERVAL),
            relative_k=number(self.RELATIVE_K),
            bounded=self.parameterAsBool(parameters, self.BOUNDED, context),
            lower_bound=number(self.LOWER_BOUND),
            upper_bound=number(self.UPPER_BOUND),
            bounds_from_data=self.parameterAsBool(parameters, self.BOUNDS_FROM_DATA, context),
            margin=number(self.MARGIN),
            min_count=self.parameterAsInt(parameters, self.MIN_COUNT, context),
            statistic=Statistic(self.parameterAsEnum(parameters, self.STATISTIC, context)),
        )

    def _warn_ignored(self, parameters, settings, feedback) -> None:
        """Say which given parameters the chosen settings do not use, so nobody believes they applied."""
        bounds = [name for name in (self.LOWER_BOUND, self.UPPER_BOUND) if given(parameters, name)]
        if not settings.bounded:
            ignored = bounds + [self.BOUNDS_FROM_DATA] * bool(settings.bounds_from_data)
            ignored += [self.MARGIN] * given(parameters, self.MARGIN)
            if ignored:
                feedback.pushWarning(
                    self.tr("{0}: ignored, because {1} is off.").format(", ".join(ignored), self.BOUNDED)
                )
        elif settings.bounds_from_data and bounds:
            feedback.pushWarning(
                self.tr("{0}: ignored, because {1} takes the bounds from the data.").format(
                    ", ".join(bounds), self.BOUNDS_FROM_DATA
                )
            )

    def _grid_spec(self, parameters, context, work_crs):
        from ...core.grid import GridSpec

        size = self.parameterAsDouble(parameters, self.CELL_SIZE, context)
        origin = (0.0, 0.0)
        if given(parameters, self.ORIGIN):
            point = self.parameterAsPoint(parameters, self.ORIGIN, context, work_crs)
            origin = (point.x(), point.y())
        return GridSpec(size, *origin)

    def parameter_problem(self, parameters, context) -> str | None:
        """The cell size and the privacy settings (core.pufferfish.PufferfishSettings checks them), before every
        run."""
        if parameters.get(self.CELL_SIZE) is not None:
            size = self.parameterAsDouble(parameters, self.CELL_SIZE, context)
            if not (math.isfinite(size) and size > 0):
                return self.tr("CELL_SIZE: the cell size must be > 0, got {0}.").format(size)
        if any(d.required for d in dependencies.missing()):
            # processAlgorithm refuses with the install notice; the settings need numpy to be checked.
            return None
        from ...core.errors import ParameterError

        try:
            self._settings(parameters, context)
        except ParameterError as error:
            return str(self.core_error(error).args[0])
        return None

    def _release(self, parameters, context, settings):
        """``(mechanism, guarantees, lost)`` of the map for the privacy-budget ledger: ε-Pufferfish for the
        interval secrets of one person's value in FIELD (Theorem 3.1, Corollary 3.2), δ = 0. The bounded mechanism
        keeps it: clamping to public bounds is post-processing, and Δ is the thesis's conservative figure. With
        bounds from the data the guarantee is lost (``lost`` says why) and the ledger counts the map as ε = ∞."""
        from ...core.ledger import Guarantee, pufferfish_absolute_neighbourhood, pufferfish_relative_neighbourhood
        from ...core.pufferfish import ErrorModel

        field = self.parameterAsString(parameters, self.FIELD, context)
        if settings.error_model == ErrorModel.ABSOLUTE:
            mechanism, secret = "absolute", pufferfish_absolute_neighbourhood(settings.interval, field)
        else:
            mechanism, secret = "relative", pufferfish_relative_neighbourhood(settings.relative_k, field)
        lost = self.tr("bounds from the data") if settings.bounded and settings.bounds_from_data else None
        return mechanism + " bounded" * settings.bounded, [Guarantee(secret, settings.epsilon)], lost

    # -- run ------------------------------------------------------------------------------------

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        from ...core import pufferfish
        from ...core.errors import ParameterError

        try:
            settings = self._settings(parameters, context)
        except ParameterError as error:
            raise self.core_error(error) from None
        self._warn_ignored(parameters, settings, feedback)
        output_files = check_outputs(
            self,
            parameters,
            context,
            sinks=(self.OUTPUT, self.CONFIDENTIAL_OUTPUT),
            rasters=(self.OUTPUT_RASTER,),
            files=(self.REPORT,),
        )
        points = read_point_values(self, parameters, context, feedback, self.INPUT, self.FIELD, self.WORK_CRS)
        try:
            spec = self._grid_spec(parameters, context, points.work_crs)
        except ParameterError as error:
            raise self.core_error(error) from None
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        mechanism, guarantees, lost = self._release(parameters, context, settings)
        dataset = points_dataset(self, parameters, context, self.INPUT, points)
        check_release(self, parameters, context, feedback, mechanism, guarantees, dataset, not_private=lost)
        progress = FeedbackProgress(feedback, 30.0, 90.0)
        try:
            grid = pufferfish.pufferfish_grid(points.x, points.y, points.values, spec, settings, rng, progress=progress)
        except ParameterError as error:
            raise self.core_error(error) from None
        if len(grid.count) == 0:
            raise QgsProcessingException(
                self.tr("{0}: no cell has at least {1} contributors, so nothing would be published.").format(
                    self.MIN_COUNT, settings.min_count
                )
            )
        progress.check_cancel()
        field_name = self.parameterAsString(parameters, self.FIELD, context)
        # Prepare every output, then write: nothing is created until all of it is known to work.
        raster_path = self.parameterAsOutputLayer(parameters, self.OUTPUT_RASTER, context)
        raster = None
        if raster_path:
            from ...core.grid import to_dense

            try:
                raster = to_dense(spec, grid.ix, grid.iy, grid.value)
            except ParameterError as error:
                raise QgsProcessingException(f"{self.OUTPUT_RASTER}: {error}") from None
        report_path = self.parameterAsFileOutput(parameters, self.REPORT, context)
        report = report_sections(grid, field_name, seed, len(points.x)) + self.ledger_report() if report_path else None
        ensure_folders(output_files)
        from_data = grid.limits is not None and grid.limits.from_data
        if from_data:
            feedback.pushWarning(
                self.tr(
                    "{0}: the map is NOT private. The clamp limits come from the smallest and largest value, which "
                    "can be read back from it, so no ε holds for whoever has them; fix the bounds from public "
                    "knowledge before publishing."
                ).format(self.BOUNDS_FROM_DATA)
            )
            self.lose_guarantee(self.tr("bounds from the data"))  # the files say so too (file_label)
        elif grid.delta >= 1:
            feedback.pushWarning(self.tr("Δ = {0:.3g} ≥ 1: the thesis's δ bound says nothing here.").format(grid.delta))
        results = self._write_grid(parameters, context, feedback, grid, points, field_name)
        if raster is not None:
            label = self.file_label(self.OUTPUT_RASTER)
            write_float_raster(raster_path, *raster, spec.cell_size, points.work_crs, not_private=label)
            ThematicStyle.attach(context, raster_path, "")
            results[self.OUTPUT_RASTER] = raster_path
        if report is not None:
            write_html_report(report_path, self.labelled(self.displayName()), report)
            results[self.REPORT] = report_path
        feedback.setProgress(100)
        results.update({self.DELTA: grid.delta, self.EPSILON: settings.epsilon, self.CELLS: int(len(grid.count))})
        return results

    def _write_grid(self, parameters, context, feedback, grid, points, field_name):
        """The publishable grid and, if asked for, the CONFIDENTIAL comparison, named and styled for loading."""
        layers = [
            (
                self.OUTPUT,
                [
                    (int_field("n"), grid.count),
                    (double_field("value"), grid.value),
                    (double_field("noise_scale"), grid.noise_scale),
                    (double_field("delta_max"), grid.delta_max),
                ],
            )
        ]
        if given(parameters, self.CONFIDENTIAL_OUTPUT):
            layers.append(
                (
                    self.CONFIDENTIAL_OUTPUT,
                    [
                        (int_field("n"), grid.count),
                        (double_field("value"), grid.value),
                        (double_field("true_value"), grid.true_value),
                        (double_field("noise"), grid.noise),
                        (double_field("error"), grid.value - grid.true_value),
                    ],
                )
            )
        crs, to_source = points.source_crs, points.to_source()
        results = write_cell_layers(
            self, parameters, context, feedback, grid.spec, grid.ix, grid.iy, layers, crs, to_source
        )
        dest = results[self.OUTPUT]
        if context.willLoadLayerOnCompletion(dest):
            name = self.tr("Pufferfish grid ({0} {1})").format(statistic_name(grid.settings), field_name)
            context.layerToLoadOnCompletionDetails(dest).name = self.labelled(name)
        ThematicStyle.attach(context, dest, "value")
        confidential = results.get(self.CONFIDENTIAL_OUTPUT)
        if confidential and context.willLoadLayerOnCompletion(confidential):
            context.layerToLoadOnCompletionDetails(confidential).name = self.tr(
                "CONFIDENTIAL true values and noise ({0})"
            ).format(field_name)
        return results
