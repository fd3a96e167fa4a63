"""Processing algorithm ``spatialprivacy:kfunction``: Ripley's K- and L-function of a point layer, homogeneous or
inhomogeneous, optionally compared with a synthetic layer by the MISE (thin adapter over core.metrics.kfunction)."""

from __future__ import annotations

import math

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFields,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
)

from ...compat import SOURCE_POINT, SOURCE_POLYGON, SOURCE_VECTOR, WKB_NO_GEOMETRY, crs_key, double_field
from ...core.limits import WINDOW_MARGIN
from ...i18n import tr
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs, ensure_folders
from ..feedback import FeedbackProgress
from ..inputs import crs_label, read_point_values, read_raster, read_window
from ..network_inputs import NETWORK, add_network_layer, add_network_options
from ..network_kfunction import correction_problem, k_function_on_network
from ..parameters import given, number_list_help, parse_number_list
from ..reports.kfunction import report_sections
from ..reports.page import write_html_report
from ..sinks import add_features, make_sink

#: The edge corrections, in the order of the CORRECTION enum (the first two planar, the last on a network only).
CORRECTIONS = ("isotropic", "border", "none", "Ang")
#: Number of radii of the default rule (spatstat's rmax, evenly spaced from 0).
DEFAULT_RADII = 100
#: Most radii accepted in RADII.
MAX_RADII = 100_000


def parse_radii(text: str | None) -> list[float] | None:
    """The radii of the RADII parameter; ``None`` when it is empty (the default rule applies).

    Two numbers ``max,steps`` give ``steps + 1`` evenly spaced radii from 0 to ``max``; three or more
    numbers are the radii themselves (>= 0, strictly increasing). The list is read by
    :func:`.parameters.parse_number_list` (``'0; 12,5; 25'`` with decimal commas). Raises ``QgsProcessingException``
    naming RADII.
    """
    text = (text or "").strip()
    if not text:
        return None
    name = KFunctionAlgorithm.RADII
    values = parse_number_list(
        text,
        name,
        tr(
            "{0}: '{1}' is not a number. Give a maximum radius and a number of steps ('500,100') or a list of three "
            "or more radii ('0,50,100,150'); with decimal commas, separate the numbers with ';' ('0; 12,5; 25')."
        ),
    )
    for value in values:
        if not math.isfinite(value):
            raise QgsProcessingException(tr("{0}: '{1}' is not a finite number.").format(name, value))
    if not values:
        raise QgsProcessingException(
            tr("{0}: '{1}' holds no number; leave it empty for the default radii.").format(name, text)
        )
    if len(values) == 1:
        raise QgsProcessingException(
            tr(
                "{0}: give a maximum radius and a number of steps ('500,100') or a list of three or more radii "
                "('0,50,100,150'), not a single number."
            ).format(name)
        )
    if len(values) == 2:
        r_max, steps = values
        if not r_max > 0:
            raise QgsProcessingException(
                tr(
                    "{0}: the maximum radius must be > 0, got {1:g} (two numbers are read as a maximum and a number "
                    "of steps)."
                ).format(name, r_max)
            )
        if steps != int(steps) or not 1 <= steps < MAX_RADII:
            raise QgsProcessingException(
                tr("{0}: the number of steps must be a whole number from 1 to {1}, got {2:g}.").format(
                    name, MAX_RADII - 1, steps
                )
            )
        steps = int(steps)
        return [r_max * k / steps for k in range(steps + 1)]
    if len(values) > MAX_RADII:
        raise QgsProcessingException(tr("{0}: at most {1} radii, got {2}.").format(name, MAX_RADII, len(values)))
    negative = [v for v in values if v < 0]
    if negative:
        raise QgsProcessingException(tr("{0}: radii must be >= 0, got {1:g}.").format(name, negative[0]))
    for before, after in zip(values[:-1], values[1:]):
        if not after > before:
            raise QgsProcessingException(
                tr("{0}: radii must be strictly increasing, but {1:g} follows {2:g}.").format(name, after, before)
            )
    return values


class KFunctionAlgorithm(SpatialPrivacyAlgorithm):
    REQUIRES = ("numpy", "scipy", "matplotlib")
    INPUT = "INPUT"
    WINDOW = "WINDOW"
    RADII = "RADII"
    CORRECTION = "CORRECTION"
    INTENSITY = "INTENSITY"
    SYNTHETIC = "SYNTHETIC"
    WORK_CRS = "WORK_CRS"
    OUTPUT = "OUTPUT"
    CONFIDENTIAL_SINKS = (OUTPUT,)
    TABLE_SINKS = (OUTPUT,)
    OUTPUT_CHART = "OUTPUT_CHART"
    MISE = "MISE"
    N_POINTS = "N_POINTS"
    CORE_NAMES = {"points": INPUT, "window": WINDOW, "radii": RADII, "correction": CORRECTION, "intensity": INTENSITY}

    def name(self):
        return "kfunction"

    def displayName(self):
        return self.tr("K-function and L-function (utility diagnostic)")

    def group(self):
        return self.tr("Utility measures")

    def groupId(self):
        return "utility"

    def shortDescription(self):
        return self.tr(
            "Ripley's K- and L-function of a point layer, homogeneous or inhomogeneous, with edge correction; "
            "compared with a synthetic layer by the MISE."
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Estimates Ripley's K-function of the points in a study window W, at the radii r you ask for: "
                "the expected number of further points within distance r of a typical point, divided by the "
                "intensity. Under complete spatial randomness K(r) = π r² and the L-function L(r) = √(K(r)/π) equals "
                "r; L(r) − r above 0 means clustering at distance r, below 0 regularity.</p>"
                "<p><b>Homogeneous</b> (no intensity raster), as spatstat's <i>Kest</i>: K(r) = |W| / (n (n − 1)) "
                "Σ<sub>i≠j</sub> 1(d<sub>ij</sub> ≤ r) e<sub>ij</sub>. <b>Inhomogeneous</b> (an intensity raster λ), "
                "Kim &amp; Lim eq. 14, which is spatstat's <i>Kinhom</i> without renormalisation: K(r) = 1 / |W| "
                "Σ<sub>i≠j</sub> 1(d<sub>ij</sub> ≤ r) e<sub>ij</sub> / (λ(x<sub>i</sub>) λ(x<sub>j</sub>)).</p>"
                "<p><b>Edge corrections.</b> Points near the boundary of W have neighbours outside W that were not "
                "observed. <i>Isotropic</i> (Ripley): each pair gets the weight e<sub>ij</sub> = 2π d<sub>ij</sub> "
                "divided by the length of the circle about x<sub>i</sub> through x<sub>j</sub> that lies inside W "
                "(1 when the circle is inside W, at most 100), exact for polygon windows with holes. <i>Border</i> "
                "(reduced sample): at radius r only points at least r from the boundary are centres. <i>None</i>: "
                "all weights 1, which underestimates K at larger r.</p>"
                "<p><b>On a street network</b> (NETWORK, Kim &amp; Lim Appendix E.3): the points are moved to "
                "their nearest location on the network, d<sub>ij</sub> is the shortest-path distance along it and "
                "|L| its total length. <i>None</i> is Okabe &amp; Yamada's K(r) = |L| / (n (n − 1)) "
                "Σ<sub>i≠j</sub> 1(d<sub>ij</sub> ≤ r); <i>Ang</i> (Ang, Baddeley &amp; Nair 2012) divides each "
                "pair by the number of network points at distance d<sub>ij</sub> from x<sub>i</sub>, so that "
                "K(r) = r for a Poisson process on any network and L = K. Both agree with spatstat's linearK and "
                "linearKinhom.</p>"
                "<p>With a synthetic layer, its K-function is estimated in the same window, at the same radii, "
                "with the same correction (and intensity), and the MISE of Kim &amp; Lim (Section 4.1) is reported: "
                "the integral over the radii where K of the original is > 0 of (K<sub>syn</sub>(r) / K(r) − 1)², "
                "by the trapezoid rule; 0 for identical K-functions.</p>"
                "<p><b>Not for publication.</b> The K-function of the confidential layer is derived from the "
                "confidential points (at fine radii it reveals their pairwise distances). It is a utility "
                "diagnostic for the data steward; the table and the chart are confidential.</p>"
            )
            + self.tr(
                "<p><b>Guarantee.</b> None (no ε or δ): this tool adds no noise and publishes nothing; it measures "
                "how well a synthetic layer keeps the clustering of the confidential points. A synthetic layer is "
                "as private as the tool that made it (see that tool's help).</p>"
            )
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Point layer (original)"), [SOURCE_POINT]),
            tr("The (confidential) points whose K-function is estimated. At least 2, all inside the window."),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.WINDOW, tr("Study window"), [SOURCE_POLYGON], None, True),
            tr(
                "Polygons of the study region W (holes allowed); every point must lie inside. Its area and "
                "boundary enter the estimate. Empty: the bounding box of the input points enlarged on each side "
                "by 5% of its larger side. Not used with a NETWORK."
            ),
        )
        add_network_layer(
            self,
            tr(
                "Optional line layer of streets. Given: the points (and the synthetic points) are moved to their "
                "nearest location on it and the K-function on the network is estimated with shortest-path distances "
                "(Okabe & Yamada; Ang's correction; spatstat's linearK), instead of the planar one; CORRECTION must "
                "then be Ang or None, and WINDOW is not used. Same CRS as the points (or both transformed to "
                "WORK_CRS)."
            ),
        )
        self.add(
            QgsProcessingParameterString(self.RADII, tr("Radii"), "", False, True),
            tr(
                "Distances r in the layer's CRS units (or the working CRS's). Two numbers 'max,steps' give steps + 1 "
                "evenly spaced radii from 0 to max ('500,100': 0, 5, …, 500); three or more numbers are the radii "
                "themselves ('0,50,100,150'), >= 0 and increasing. Empty: 101 radii (0 and 100 steps) up to "
                "spatstat's default maximum, min(shorter side of the window's bounding box / 4, √(1000 |W| / (π n))); "
                "on a network 101 radii up to spatstat's linearK maximum, 0.98 times the network's bounding radius."
            )
            + " "
            + number_list_help(),
        )
        self.add(
            QgsProcessingParameterEnum(
                self.CORRECTION,
                tr("Edge correction"),
                [tr("Isotropic (Ripley)"), tr("Border (reduced sample)"), tr("None"), tr("Ang (network)")],
                False,
                0,
            ),
            tr(
                "In a window: Isotropic, Ripley's weight for pairs whose circle leaves the window (recommended); "
                "Border, only points at least r from the boundary are centres; None, no correction (biased "
                "downwards). On a NETWORK: Ang (Ang, Baddeley & Nair 2012; recommended), each pair weighted by 1 / "
                "the number of network points at that distance from the centre, so that K(r) = r for a Poisson "
                "process on any network; None, Okabe & Yamada's estimator, whose Poisson value depends on the "
                "network (L is then left empty). Isotropic and Border are refused on a network, Ang without one."
            ),
        )
        self.add(
            QgsProcessingParameterRasterLayer(self.INTENSITY, tr("Intensity raster (inhomogeneous)"), None, True),
            tr(
                "Band 1: the intensity λ in points per squared CRS unit, e.g. a fitted intensity. Sampled at the "
                "points (bilinear between pixel centres); it must be > 0 there and not NoData. Given: the "
                "inhomogeneous K-function of Kim & Lim eq. 14. Empty: the homogeneous K-function. On a NETWORK: "
                "points per CRS unit of length, sampled at the points' locations on the network (Kim & Lim eq. 27, "
                "spatstat's linearKinhom)."
            ),
        )
        self.add(
            QgsProcessingParameterFeatureSource(
                self.SYNTHETIC, tr("Synthetic point layer (comparison)"), [SOURCE_POINT], None, True
            ),
            tr(
                "Optional synthetic points to compare with: adds their K- and L-function to the table and chart "
                "and computes the MISE. Same CRS as the input; every point inside the window (on a NETWORK: placed "
                "on it like the input points)."
            ),
        )
        add_network_options(self)
        self.add_work_crs(
            tr("Needed only when the layers are in degrees; radii and intensity are then in this CRS's units.")
        )
        self.add(
            QgsProcessingParameterFeatureSink(
                self.OUTPUT, tr("K-function table (CONFIDENTIAL)"), SOURCE_VECTOR, None, True, False
            ),
            tr(
                "Table without geometry, one row per radius: r, K, L, theo (π r², K of a Poisson process) and, with "
                "a synthetic layer, K_syn and L_syn. Empty where the border estimator has no point far enough from "
                "the boundary. It reveals pairwise distances of the confidential points, so it is not written "
                "unless asked for."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_CHART,
                tr("Chart (CONFIDENTIAL)"),
                tr("HTML files (*.html)"),
                optional=True,
                createByDefault=False,
            ),  # fmt: skip
            tr("HTML page with the charts of K(r) and L(r) − r (both layers when given) and the settings."),
        )
        self.addOutput(QgsProcessingOutputNumber(self.MISE, tr("MISE of the synthetic K-function")))
        self.addOutput(QgsProcessingOutputNumber(self.N_POINTS, tr("Number of input points")))

    def parameter_problem(self, parameters, context) -> str | None:
        if not self._wants_table(parameters) and not given(parameters, self.OUTPUT_CHART):
            if not given(parameters, self.SYNTHETIC):
                return self.tr(
                    "Nothing to compute: set {0} (the table) or {1} (the chart), or give {2} to get the MISE."
                ).format(self.OUTPUT, self.OUTPUT_CHART, self.SYNTHETIC)
        try:
            parse_radii(self.parameterAsString(parameters, self.RADII, context))
        except QgsProcessingException as error:
            return error.args[0] if error.args else str(error)
        correction = CORRECTIONS[self.parameterAsEnum(parameters, self.CORRECTION, context)]
        return correction_problem(correction, given(parameters, NETWORK), self.CORRECTION)

    # -- inputs ---------------------------------------------------------------------------------

    def _synthetic(self, parameters, context, feedback, source_crs):
        """The synthetic points in the working CRS, or ``None``; refuses a CRS other than the input's."""
        if not given(parameters, self.SYNTHETIC):
            return None
        source = self.parameterAsSource(parameters, self.SYNTHETIC, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.SYNTHETIC))
        if crs_key(source.sourceCrs()) != crs_key(source_crs):  # "no CRS" has several spellings
            raise QgsProcessingException(
                self.tr(
                    "{0} is in {1} but {2} is in {3}: the two patterns must be compared in the same CRS. Reproject "
                    "{0} to the CRS of {2} first."
                ).format(self.SYNTHETIC, crs_label(source.sourceCrs()), self.INPUT, crs_label(source_crs))
            )
        return read_point_values(
            self, parameters, context, feedback, self.SYNTHETIC, None, self.WORK_CRS, progress_range=(15.0, 30.0)
        )

    def _window(self, parameters, context, x, y, crs):
        """The WINDOW polygons, or the input points' bounding box enlarged by 5%."""
        from ...core.errors import ParameterError
        from ...core.window import Window

        window = read_window(self, parameters, self.WINDOW, context, crs)
        if window is not None:
            return window, False
        try:
            return Window.around_points(x, y, margin=WINDOW_MARGIN), True
        except ParameterError as error:
            raise self.core_error(error) from None

    def _check_inside(self, window, x, y, name: str, default_window: bool) -> None:
        outside = int((~window.contains(x, y)).sum())
        if not outside:
            return
        if name == self.INPUT:
            raise QgsProcessingException(
                self.tr("{0}: {1} of the {2} points of {3} lie outside the window; clip them or enlarge it.").format(
                    self.WINDOW, outside, x.size, self.INPUT
                )
            )
        where = self.tr("the bounding box of {0} enlarged by 5%").format(self.INPUT) if default_window else self.WINDOW
        raise QgsProcessingException(
            self.tr(
                "{0}: {1} of its {2} points lie outside the window ({3}); clip them or give a {4} that contains "
                "both layers."
            ).format(name, outside, x.size, where, self.WINDOW)
        )

    def _intensity_at(self, grid, x, y, layer_name: str):
        """The intensity raster at the points of one layer; refuses NoData, outside and values <= 0."""
        import numpy as np

        from ...core.errors import ParameterError

        try:
            values = grid.sample(x, y, name="intensity")
        except ParameterError as error:
            raise QgsProcessingException(
                self.tr("{0} (at the points of {1}): {2}").format(self.INTENSITY, layer_name, error)
            ) from None
        bad = ~(values > 0)
        if bad.any():
            raise QgsProcessingException(
                self.tr(
                    "{0}: the intensity is zero or negative at {1} of the {2} points of {3} (smallest value {4:g}); "
                    "the inhomogeneous K-function divides by it. Use an intensity > 0 at every point."
                ).format(self.INTENSITY, int(bad.sum()), x.size, layer_name, float(np.min(values)))
            )
        return values

    # -- run ------------------------------------------------------------------------------------

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        import numpy as np

        from ...core.errors import ParameterError
        from ...core.metrics.kfunction import k_function
        from ...core.metrics.mise import default_radii, mise

        output_files = check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_CHART,))
        radii = parse_radii(self.parameterAsString(parameters, self.RADII, context))
        given_synthetic = given(parameters, self.SYNTHETIC)
        points = read_point_values(
            self,
            parameters,
            context,
            feedback,
            self.INPUT,
            None,
            self.WORK_CRS,
            progress_range=(0.0, 15.0 if given_synthetic else 30.0),
        )
        crs = points.work_crs
        x, y = np.array(points.x), np.array(points.y)
        synthetic = self._synthetic(parameters, context, feedback, points.source_crs)
        if given(parameters, NETWORK):
            correction = CORRECTIONS[self.parameterAsEnum(parameters, self.CORRECTION, context)]
            return k_function_on_network(
                self, parameters, context, feedback, output_files, radii, points, synthetic, correction
            )
        window, default_window = self._window(parameters, context, x, y, crs)
        self._check_inside(window, x, y, self.INPUT, default_window)
        if synthetic is not None:
            sx, sy = np.array(synthetic.x), np.array(synthetic.y)
            self._check_inside(window, sx, sy, self.SYNTHETIC, default_window)
        r = default_radii(window, x.size, DEFAULT_RADII) if radii is None else np.array(radii)
        xmin, ymin, xmax, ymax = window.bounds
        if r[-1] > min(xmax - xmin, ymax - ymin) / 2:
            feedback.pushWarning(
                self.tr(
                    "{0}: radii up to {1:g} exceed half the window's shorter side; there the estimate rests on few "
                    "pairs and large edge weights."
                ).format(self.RADII, float(r[-1]))
            )
        correction = CORRECTIONS[self.parameterAsEnum(parameters, self.CORRECTION, context)]
        lam = lam_syn = None
        intensity_layer = self.parameterAsRasterLayer(parameters, self.INTENSITY, context)
        if intensity_layer is not None:
            grid = read_raster(self, parameters, intensity_layer, self.INTENSITY, crs)
            lam = self._intensity_at(grid, x, y, self.INPUT)
            if synthetic is not None:
                lam_syn = self._intensity_at(grid, sx, sy, self.SYNTHETIC)
        try:
            k_ori = k_function(
                x,
                y,
                window,
                r,
                correction,
                lam,
                progress=FeedbackProgress(feedback, 30.0, 95.0 if synthetic is None else 65.0),
            )
        except ParameterError as error:
            raise self.core_error(error) from None
        k_syn, value = None, math.nan
        if synthetic is not None:
            try:
                k_syn = k_function(sx, sy, window, r, correction, lam_syn, progress=FeedbackProgress(feedback, 65, 95))
            except ParameterError as error:
                raise self.core_error(error, points=self.SYNTHETIC) from None
            value = float(mise(r, k_syn.K, k_ori.K))
            feedback.pushInfo(self.tr("MISE of the synthetic K-function: {0:.6g}").format(value))
        from ...core.points import repeated_locations

        duplicates = repeated_locations(x, y)
        if duplicates and r[0] == 0:
            feedback.pushWarning(
                self.tr(
                    "{0}: {1} points repeat the location of another point, so K(0) > 0 here (spatstat counts only "
                    "pairs at a distance > 0). A MISE then includes the first radii, where the relative error can "
                    "dominate it; start {2} above 0 to leave them out."
                ).format(self.INPUT, duplicates, self.RADII)
            )
        FeedbackProgress(feedback, 95.0, 100.0).check_cancel()

        chart_path = self.parameterAsFileOutput(parameters, self.OUTPUT_CHART, context)
        ensure_folders(output_files)
        report = None
        if chart_path:
            window_text = (
                self.tr("bounding box of the points enlarged by 5%")
                if default_window
                else self.tr("the WINDOW polygons")
            )
            intensity_text = intensity_layer.name() if intensity_layer is not None else None
            report = report_sections(k_ori, k_syn, value, window_text, intensity_text, crs, duplicates)
        results = self._write(parameters, context, k_ori, k_syn) if self._wants_table(parameters) else {}
        if report is not None:
            write_html_report(chart_path, self.tr("K-function (CONFIDENTIAL utility diagnostic)"), report)
            results[self.OUTPUT_CHART] = chart_path
        feedback.setProgress(100)
        results.update({self.MISE: value, self.N_POINTS: int(x.size)})
        return results

    # -- outputs --------------------------------------------------------------------------------

    def _wants_table(self, parameters) -> bool:
        return given(parameters, self.OUTPUT)

    def _write(self, parameters, context, k_ori, k_syn):
        fields = QgsFields()
        names = ["r", "K", "L", "theo"] + (["K_syn", "L_syn"] if k_syn is not None else [])
        for name in names:
            fields.append(double_field(name))
        sink, dest = make_sink(
            self, parameters, self.OUTPUT, context, fields, WKB_NO_GEOMETRY, QgsCoordinateReferenceSystem()
        )
        columns = [k_ori.r, k_ori.K, k_ori.L, k_ori.theoretical]
        if k_syn is not None:
            columns += [k_syn.K, k_syn.L]
        features = []
        for row in zip(*columns):
            feature = QgsFeature(fields)
            feature.setAttributes([float(v) if math.isfinite(v) else None for v in row])
            features.append(feature)
        add_features(sink, features, self.OUTPUT)
        return {self.OUTPUT: dest}
