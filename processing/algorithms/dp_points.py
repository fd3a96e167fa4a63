"""Processing algorithm ``spatialprivacy:dppoints``: Kim & Lim's differentially private point synthesizers
(kernel, LGCP, Laplace); a thin adapter over core.synthesis."""

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
    QgsProcessingParameterNumber,
)

from ...compat import NUMBER_DOUBLE, NUMBER_INTEGER, SOURCE_POINT, SOURCE_POLYGON, crs_key
from ...core.limits import MIN_EPSILON, WINDOW_MARGIN
from ..algorithm import SpatialPrivacyAlgorithm
from ..destinations import check_outputs, ensure_folders
from ..feedback import FeedbackProgress
from ..inputs import read_point_values, read_window
from ..ledger import add_ledger_parameters, check_release, points_dataset
from ..network_inputs import MAX_SNAP_DISTANCE, NETWORK, network_options_unused
from ..network_synthesis import RESOLUTION, add_network_parameters, network_help, network_problem, synthesize_on_network
from ..parameters import given, make_rng, optional_number
from ..reports.dp_points import report_sections
from ..reports.page import write_html_report
from ..sinks import write_point_sink
from ..synthesis_warnings import warn_about_the_pattern

KERNEL, LGCP, LAPLACE = 0, 1, 2
#: Short method names (log messages, layer names, the report); the enum shows translated long names.
METHOD_KEYS = ("kernel", "LGCP", "Laplace")
#: A δ above this draws a warning (the default 1/n exceeds it below 20 points).
LARGE_DELTA = 0.05
#: Default Laplace cell size as a fraction of the window's larger side (Kim & Lim's 11 x 11 knots: 10 cells).
CELL_FRACTION = 0.1


#: Knots per side of the LGCP method's lattice. Its Gaussian field is dense, so the cost grows steeply: a review
#: measured 2 s with 21, 33 s with 41 and 289 s with 61 knots per side on 100 points; 45 (2,025 knots) took
#: 57 s on the 578 Snow deaths here.
MAX_KNOTS = 45


class DPPointsAlgorithm(SpatialPrivacyAlgorithm):
    REQUIRES = ("numpy", "scipy", "matplotlib")
    INPUT = "INPUT"
    WINDOW = "WINDOW"
    METHOD = "METHOD"
    EPSILON = "EPSILON"
    DELTA = "DELTA"
    ALPHA = "ALPHA"
    CELL_SIZE = "CELL_SIZE"
    KNOTS = "KNOTS"
    BANDWIDTH = "BANDWIDTH"
    TOTAL_SHARE = "TOTAL_SHARE"
    WORK_CRS = "WORK_CRS"
    SEED = "SEED"
    OUTPUT = "OUTPUT"
    OUTPUT_REPORT = "OUTPUT_REPORT"
    SYNTHETIC_COUNT = "SYNTHETIC_COUNT"
    RATIO = "RATIO"
    NOISE_SCALE = "NOISE_SCALE"
    EPSILON_ADD_REMOVE = "EPSILON_ADD_REMOVE"
    CORE_NAMES = {
        "epsilon": EPSILON,
        "delta": DELTA,
        "alpha": ALPHA,
        "bandwidth": BANDWIDTH,
        "cell_size": CELL_SIZE,
        "shape": CELL_SIZE,
        "knots": KNOTS,
        "total_share": TOTAL_SHARE,
        "window": WINDOW,
        "points": INPUT,
    }

    def name(self):
        return "dppoints"

    def displayName(self):
        return self.tr("Differentially private synthetic points (kernel, LGCP, Laplace)")

    def group(self):
        return self.tr("Synthetic points")

    def groupId(self):
        return "syntheticpoints"

    def shortDescription(self):
        return self.tr(
            "Replace a point pattern by synthetic points that are (ε, δ)-differentially private when one point "
            "moves by at most α (for the LGCP method nominally, see the help)."
        )

    def shortHelpString(self):
        return (
            self.tr(
                "<p>Draws a synthetic point pattern with one of the three differentially private synthesizers of "
                "Kim &amp; Lim, <i>Differentially private synthesis of spatial point processes</i> (Sections "
                "3.2–3.3). You state ε, δ and α; the tool derives the smoothing the guarantee needs and reports "
                "it.</p>"
                "<ul><li><b>Kernel</b> (Section 3.2.1, Theorem 3.6): a Poisson process whose intensity is a "
                "Gaussian kernel estimate with Diggle's edge correction. The bandwidth is the smallest one that "
                "satisfies (2αB + α²)/(2h²) + r<sub>α</sub>(h) ≤ ε/k (B: the window's diameter; k: the 1 − δ "
                "quantile of Poisson(n); r<sub>α</sub> is replaced by a safe upper bound). Privacy needs large "
                "bandwidths: the synthetic points keep the broad pattern only. The coordinates are rounded to a "
                "grid of h/1024, so that no low-order bits of a point's position plus noise are published.</li>"
                "<li><b>LGCP</b> (Section 3.3.1, Theorem 3.8): a log-Gaussian Cox process on a right-triangle "
                "lattice of knots, with a Gaussian covariance whose ratio σ/l is fixed by the privacy condition; "
                "one draw of the fitted field, then a Poisson process from it. The theorem is stated for an exact "
                "posterior draw, and even there its proof has gaps (a bound that must hold for every β, and the "
                "bad event's probability taken under the prior rather than the posterior); the draw here comes from "
                "a fast (Laplace) approximation of the posterior. The stated (ε, δ) is therefore <b>nominal, not "
                "proven</b> (Kim &amp; Lim's own draws come from a finite MCMC chain, not exact either).</li>"
                "<li><b>Laplace</b> (Section 3.3.2, Theorem 3.10): points per grid cell divided by the cell area, "
                "plus Laplace noise, clamped at 0; then a Poisson process with that intensity. Pure ε-differential "
                "privacy (δ = 0 for the distribution sampled; numpy's double-precision Laplace draw never exceeds "
                "36 noise scales, which adds a δ of the order of e<sup>ε−36</sup>, below 1e-15 at ε = 1, not "
                "counted) for every α. At small ε the noise in empty cells creates many points; a share of ε "
                "can buy a noisy total the intensity is rescaled to (beyond the paper).</li></ul>"
                "<p><b>Guarantee.</b> (ε, δ)-differential privacy under the α-neighbourhood: two data sets are "
                "neighbours when one point is moved by at most α (in the CRS units). For any such pair, the "
                "probability of any synthetic pattern changes by at most a factor e<sup>ε</sup>, except with "
                "probability δ (for the LGCP method: nominally, see above).</p>"
                "<p><b>Not protected:</b> the number of points n. A neighbour moves a point but never adds or "
                "removes one, so n is public under this guarantee (the kernel and LGCP methods use it, and the "
                "default δ = 1/n reveals it). The Laplace method alone also bounds the effect of adding or removing "
                "a point, which its report states. Every synthetic pattern is a separate release: publishing several "
                "spends the budget several times.</p>"
                "<p>No attribute of the input is copied: the output has only a synthetic identifier.</p>"
            )
            + network_help()
            + self.parameter_help_html()
        )

    def initAlgorithm(self, config=None):
        tr = self.tr
        self.add(
            QgsProcessingParameterFeatureSource(self.INPUT, tr("Point layer"), [SOURCE_POINT]),
            tr("The confidential points (cases, addresses, ...). Only their locations are used."),
        )
        self.add(
            QgsProcessingParameterFeatureSource(self.WINDOW, tr("Study window"), [SOURCE_POLYGON], None, True),
            tr(
                "Polygons of the study region (holes allowed); every point must lie inside. It is public: it "
                "fixes the diameter B, the cells and the lattice. Empty: the points' bounding box enlarged by 5% "
                "of its larger side on each side (which depends on the extreme points, so the layer is named NOT "
                "PRIVATE; give a public window for a real release). Not used with a NETWORK."
            ),
        )
        add_network_parameters(self)
        self.add(
            QgsProcessingParameterEnum(
                self.METHOD,
                tr("Method"),
                [
                    tr("Kernel Poisson synthesizer (Theorem 3.6)"),
                    tr("LGCP Cox synthesizer (Theorem 3.8)"),
                    tr("Laplace Cox synthesizer (Theorem 3.10)"),
                ],
                False,
                KERNEL,
            ),
            tr(
                "Kernel: smooth, needs ε, δ and α. LGCP: model-based, needs ε, δ and α. Laplace: cell counts with "
                "noise, pure ε-DP (δ = 0 for the distribution sampled) for every α."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(self.EPSILON, tr("Epsilon (ε)"), NUMBER_DOUBLE, 1.0, False, MIN_EPSILON),
            tr(
                "The privacy budget ε (at least {0:g}) of one synthetic pattern. Smaller is more private and less "
                "accurate."
            ).format(MIN_EPSILON),
        )
        self.add(
            QgsProcessingParameterNumber(self.DELTA, tr("Delta (δ)"), NUMBER_DOUBLE, None, True, 0.0, 1.0),
            tr(
                "The probability δ in (0, 1) with which the ε bound may fail (kernel and LGCP). Empty: 1/n for n "
                "points, as in Kim & Lim's experiments; that is weak (a mechanism that publishes one random "
                "person's point unprotected meets δ = 1/n), so for a real release give δ well below 1/n, e.g. "
                "1/n² or 1e-6. Not used by the Laplace method, which is pure ε-DP (δ = 0 for the distribution "
                "sampled)."
            ),
        )
        self.add(
            QgsProcessingParameterDistance(
                self.ALPHA, tr("Alpha (α, neighbourhood radius)"), None, self.INPUT, True, 0.0
            ),
            tr(
                "α > 0: how far one point may move between neighbouring data sets, in the units of the layer's (or "
                "working) CRS, e.g. metres. The guarantee hides any one point's location within α; a larger α "
                "needs more smoothing. Required for the kernel and LGCP methods; the Laplace guarantee holds for "
                "every α (a value given is only reported)."
            ),
        )
        self.add(
            QgsProcessingParameterDistance(self.CELL_SIZE, tr("Cell size (Laplace)"), None, self.INPUT, True, 0.0),
            tr(
                "Side of the square cells of the Laplace method, in CRS units. Cells are clipped to the window and "
                "slivers under 1/4 of a cell are merged into a neighbour. Empty: 1/10 of the window's larger side "
                "(Kim & Lim's 11 x 11 knots)."
            ),
        )
        self.add(
            QgsProcessingParameterNumber(
                self.KNOTS, tr("Knots per dimension (LGCP)"), NUMBER_INTEGER, 11, False, 2, MAX_KNOTS
            ),
            tr(
                "Number of lattice knots along each side of the window's bounding box for the LGCP method "
                "(Kim & Lim use 11), at most {0}. More knots give a finer field and a smaller σ/l; the field is "
                "dense, so its cost grows steeply (about 2 s at 21, 30 s at 41, a minute at 45)."
            ).format(MAX_KNOTS),
        )
        self.add(
            QgsProcessingParameterDistance(self.BANDWIDTH, tr("Bandwidth (kernel)"), None, self.INPUT, True, 0.0),
            tr(
                "Standard deviation h of the Gaussian kernel, in CRS units. Empty: the smallest bandwidth that "
                "gives the guarantee (recommended). A larger one is allowed (smoother, still private); a smaller "
                "one is refused."
            ),
            advanced=True,
        )
        self.add(
            QgsProcessingParameterNumber(
                self.TOTAL_SHARE, tr("Share of ε for a noisy total (Laplace)"), NUMBER_DOUBLE, 0.0, False, 0.0, 1.0
            ),
            tr(
                "s in [0, 1): spend s·ε on a noisy count of all points and rescale the intensity to it, which "
                "removes the surplus of points that the clamped noise creates at small ε. The cells get (1 − s)·ε. "
                "0: Kim & Lim's mechanism. The report states the composed guarantee."
            ),
            advanced=True,
        )
        self.add_work_crs(
            tr(
                "Needed only when the layer is in degrees: α, the cell size and the bandwidth are then in this "
                "CRS's units; the output is written back in the layer's CRS."
            )
        )
        self.add_seed()
        add_ledger_parameters(self)
        self.add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Synthetic points"), SOURCE_POINT),
            tr(
                "Publishable: the synthetic points in the layer's CRS, with one field syn_id. No attribute of the "
                "input is copied."
            ),
        )
        self.add(
            QgsProcessingParameterFileDestination(
                self.OUTPUT_REPORT, tr("Report"), tr("HTML files (*.html)"), None, True, False
            ),
            tr(
                "HTML report: the guarantee in words, ε, δ, α, the calibrated quantities, the number of synthetic "
                "points and a map of them. It holds no original point; for the kernel and LGCP methods it prints n, "
                "which this guarantee does not protect."
            ),
        )
        self.addOutput(QgsProcessingOutputNumber(self.EPSILON, tr("Epsilon")))
        self.addOutput(QgsProcessingOutputNumber(self.DELTA, tr("Delta (0 for Laplace)")))
        self.addOutput(QgsProcessingOutputNumber(self.ALPHA, tr("Alpha (NaN if not given for Laplace)")))
        self.addOutput(QgsProcessingOutputNumber(self.SYNTHETIC_COUNT, tr("Number of synthetic points")))
        self.addOutput(QgsProcessingOutputNumber(self.BANDWIDTH, tr("Kernel bandwidth used (NaN for other methods)")))
        self.addOutput(QgsProcessingOutputNumber(self.RATIO, tr("LGCP ratio σ/l (NaN for other methods)")))
        self.addOutput(QgsProcessingOutputNumber(self.NOISE_SCALE, tr("Laplace noise scale (NaN for other methods)")))
        self.addOutput(
            QgsProcessingOutputNumber(
                self.EPSILON_ADD_REMOVE, tr("Laplace ε when a point is added or removed (NaN for other methods)")
            )
        )

    # -- inputs ---------------------------------------------------------------------------------

    def parameter_problem(self, parameters, context) -> str | None:
        """What is wrong with the privacy and distance parameters, or ``None``. Checked before every run, in models too
        (:meth:`SpatialPrivacyAlgorithm.prepareAlgorithm`)."""
        method = self.parameterAsEnum(parameters, self.METHOD, context)
        epsilon = self.parameterAsDouble(parameters, self.EPSILON, context)
        if not (math.isfinite(epsilon) and epsilon >= MIN_EPSILON):
            return self.tr("{0}: epsilon must be a number of at least {1:g}, got {2}.").format(
                self.EPSILON, MIN_EPSILON, epsilon
            )
        delta = optional_number(self, parameters, self.DELTA, context)
        if delta is not None and not (0.0 < delta < 1.0):
            return self.tr("{0}: delta must lie strictly between 0 and 1, got {1}.").format(self.DELTA, delta)
        if not given(parameters, self.ALPHA) and method != LAPLACE:
            return self.tr(
                "{0}: the kernel and LGCP methods need the neighbourhood radius alpha > 0 (in CRS units)."
            ).format(self.ALPHA)
        for name in (self.ALPHA, self.CELL_SIZE, self.BANDWIDTH):
            value = optional_number(self, parameters, name, context)
            if value is not None and not (math.isfinite(value) and value > 0):
                return self.tr("{0}: must be a distance > 0, got {1}.").format(name, value)
        share = self.parameterAsDouble(parameters, self.TOTAL_SHARE, context)
        if not (0.0 <= share < 1.0):
            return self.tr("{0}: the share must lie in [0, 1), got {1}.").format(self.TOTAL_SHARE, share)
        return network_problem(self, parameters, context, METHOD_KEYS[method])

    def _domain(self, parameters, context, x, y, crs, feedback, count_is_private=False):
        """The study domain: the WINDOW polygons, or the points' bounding box plus 5%; refuses points outside."""
        from ...core.errors import ParameterError
        from ...core.synthesis.domain import PlanarDomain
        from ...core.window import Window

        window = read_window(self, parameters, self.WINDOW, context, crs)
        try:
            if window is None:
                window = Window.around_points(x, y, margin=WINDOW_MARGIN)
                feedback.pushWarning(
                    self.tr(
                        "No {0} given: the window is the points' bounding box, so its extent follows the extreme "
                        "confidential points. Give a public {0} for a real release."
                    ).format(self.WINDOW)
                )
            domain = PlanarDomain(window)
        except ParameterError as error:
            raise self.core_error(error) from None
        try:
            domain.check_points(x, y)
        except ParameterError as error:
            if count_is_private:  # "k of the n points": the message would show the protected n
                raise QgsProcessingException(
                    self.tr(
                        "{0}: some points lie outside the window (how many is not shown: the Laplace method "
                        "protects the number of points); clip them to it first."
                    ).format(self.WINDOW)
                ) from None
            raise QgsProcessingException(f"{self.WINDOW}: {error}") from None
        return domain

    # -- run ------------------------------------------------------------------------------------

    def process(self, parameters, context, feedback):
        self.check_dependencies(feedback)
        import numpy as np

        from ...core.errors import ParameterError

        output_files = check_outputs(self, parameters, context, sinks=(self.OUTPUT,), files=(self.OUTPUT_REPORT,))
        method = self.parameterAsEnum(parameters, self.METHOD, context)
        # the Laplace guarantee covers adding or removing a point: n is protected, so not even the log shows it
        points = read_point_values(
            self, parameters, context, feedback, self.INPUT, None, self.WORK_CRS, count_is_private=method == LAPLACE
        )
        if given(parameters, NETWORK):
            key = METHOD_KEYS[method]
            return synthesize_on_network(self, parameters, context, feedback, method, key, points, output_files)
        network_options_unused(self, parameters, feedback, (RESOLUTION, MAX_SNAP_DISTANCE))
        x, y = np.array(points.x), np.array(points.y)
        n = int(x.size)
        domain = self._domain(parameters, context, x, y, points.work_crs, feedback, method == LAPLACE)
        epsilon = self.parameterAsDouble(parameters, self.EPSILON, context)
        alpha = optional_number(self, parameters, self.ALPHA, context)
        delta = optional_number(self, parameters, self.DELTA, context)
        self._warn_unused(parameters, context, method, feedback)
        delta = self._delta(delta, method, n, feedback)
        rng, seed = make_rng(self, parameters, context, self.SEED, feedback)
        progress = FeedbackProgress(feedback, 30.0, 95.0)
        try:
            cells = self._cells(parameters, context, domain) if method == LAPLACE else None
            mechanism, guarantees, lost = self._release(
                parameters, context, method, epsilon, delta, alpha, cells, points
            )
            dataset = points_dataset(self, parameters, context, self.INPUT, points)
            check_release(self, parameters, context, feedback, mechanism, guarantees, dataset, not_private=lost)
            if method == KERNEL:
                release = self._kernel(
                    parameters, context, x, y, domain, rng, epsilon, delta, alpha, progress, feedback
                )
            elif method == LGCP:
                release = self._lgcp(parameters, context, x, y, domain, rng, epsilon, delta, alpha, progress)
            else:
                release = self._laplace(parameters, context, x, y, cells, rng, epsilon, progress)
        except ParameterError as error:
            raise self.core_error(error) from None
        release.update(method=METHOD_KEYS[method], epsilon=epsilon, alpha=alpha, n=n, seed=seed, domain=domain)
        release["window_from_data"] = not given(parameters, self.WINDOW)
        warn_about_the_pattern(self, release, n, feedback)
        progress.check_cancel()
        report_path = self.parameterAsFileOutput(parameters, self.OUTPUT_REPORT, context)
        ensure_folders(output_files)
        report = report_sections(release) + self.ledger_report() if report_path else None
        progress.check_cancel()
        if release.get("window_from_data"):  # the files say so too (file_label)
            self.lose_guarantee(self.tr("window from the data"))
        report = (report_path, self.tr("Differentially private synthetic points"), report)
        return self.publish(parameters, context, points, release, report, epsilon, alpha, feedback)

    def publish(self, parameters, context, points, release, report, epsilon, alpha, feedback) -> dict:
        """Write the synthetic points and the report (``(path, title, sections)``; no path: none) and return the
        outputs, in the plane and on a network alike."""
        results = self._write(parameters, context, points, release)
        report_path, title, sections = report
        if sections is not None:
            write_html_report(report_path, self.labelled(title), sections)
            results[self.OUTPUT_REPORT] = report_path
        feedback.setProgress(100)
        results.update(
            {
                self.EPSILON: epsilon,
                self.DELTA: release["delta"],
                self.ALPHA: math.nan if alpha is None else alpha,
                self.SYNTHETIC_COUNT: int(release["x"].size),
                self.BANDWIDTH: release.get("bandwidth", math.nan),
                self.RATIO: release.get("ratio", math.nan),
                self.NOISE_SCALE: release.get("noise_scale", math.nan),
                self.EPSILON_ADD_REMOVE: release.get("epsilon_add_remove", math.nan),
            }
        )
        return results

    def _delta(self, delta, method, n, feedback):
        """δ of the kernel and LGCP methods: the one given, or 1/n as Kim & Lim's experiments use, with a warning
        when it is weak or large."""
        if method != LAPLACE and delta is None:
            if n < 2:
                raise QgsProcessingException(
                    self.tr("{0}: one point gives the default δ = 1/n = 1, which protects nothing.").format(self.INPUT)
                )
            delta = 1.0 / n
            feedback.pushWarning(
                self.tr(
                    "{0} empty: using 1/n = {1:.6g}, as Kim & Lim's experiments do. That is weak: δ = 1/n allows "
                    "publishing one random person's point unprotected. For a real release give a smaller {0} "
                    "(e.g. 1/n² or 1e-6)."
                ).format(self.DELTA, delta)
            )
        if method != LAPLACE and delta > LARGE_DELTA:
            feedback.pushWarning(
                self.tr(
                    "δ = {0:.3g} is large: the guarantee may fail with probability up to δ, and δ ≥ 1/n allows "
                    "releasing a whole point unprotected. Give a smaller {1} (e.g. well below 1/n)."
                ).format(delta, self.DELTA)
            )
        return delta

    def _warn_unused(self, parameters, context, method, feedback):
        unused = {
            self.DELTA: method == LAPLACE,
            self.CELL_SIZE: method != LAPLACE,
            self.BANDWIDTH: method != KERNEL,
        }
        for name, ignored in unused.items():
            if ignored and given(parameters, name):
                feedback.pushWarning(self.tr("{0} is not used by the {1} method.").format(name, METHOD_KEYS[method]))
        if method != LAPLACE and self.parameterAsDouble(parameters, self.TOTAL_SHARE, context) > 0:
            feedback.pushWarning(
                self.tr("{0} is not used by the {1} method.").format(self.TOTAL_SHARE, METHOD_KEYS[method])
            )

    def _kernel(self, parameters, context, x, y, domain, rng, epsilon, delta, alpha, progress, feedback):
        from ...core.progress import scaled
        from ...core.synthesis.domain import MIN_KERNEL_MASS
        from ...core.synthesis.kernel import calibrate_kernel, check_kernel_draws, synthesize_kernel

        bandwidth = optional_number(self, parameters, self.BANDWIDTH, context)
        if bandwidth:  # window, bandwidth and n are public: a bandwidth beyond reach is refused before the calibration
            check_kernel_draws(domain, x.size, bandwidth)
        calibration = calibrate_kernel(x.size, epsilon, delta, alpha, domain, progress=scaled(progress, 0.0, 0.85))
        h = bandwidth or calibration.h
        if not bandwidth:
            check_kernel_draws(domain, x.size, h, "epsilon")
        largest = domain.largest_mass(h)  # window, bandwidth: public
        narrowest = domain.narrowest_mass(h)
        if largest < MIN_KERNEL_MASS:  # the kernel is far wider than the whole window, not only than a part of it
            feedback.pushWarning(
                self.tr(
                    "The bandwidth {0:.6g} is far wider than the window: at most {1:.2g} of a kernel lies inside it, "
                    "so every synthetic point needs at least {2:.2g} draws; the run may be slow (it can be "
                    "cancelled). {3}"
                ).format(
                    h,
                    largest,
                    1.0 / largest,
                    self.tr("A smaller {0} spreads the points as evenly.").format(self.BANDWIDTH)
                    if bandwidth
                    else self.tr("A larger {0} or a smaller {1} gives a smaller bandwidth.").format(
                        self.EPSILON, self.ALPHA
                    ),
                )
            )
        elif narrowest < MIN_KERNEL_MASS:
            feedback.pushWarning(
                self.tr(
                    "A corner of the window keeps only {0:.2g} of a kernel of bandwidth {1:.6g} inside it (a spike or "
                    "a corridor far narrower than the bandwidth). A point there needs about {2:.2g} draws; the run "
                    "may be slow (it can be cancelled). Simplifying the window avoids it."
                ).format(narrowest, h, 1.0 / max(narrowest, 1e-300))
            )
        synthesis = synthesize_kernel(
            x,
            y,
            domain,
            rng,
            epsilon=epsilon,
            delta=delta,
            alpha=alpha,
            bandwidth=bandwidth,
            calibration=calibration,
            progress=scaled(progress, 0.85, 1.0),
        )
        return {"x": synthesis.x, "y": synthesis.y, "delta": delta, "bandwidth": synthesis.bandwidth, "core": synthesis}

    def _lgcp(self, parameters, context, x, y, domain, rng, epsilon, delta, alpha, progress):
        from ...core.synthesis.lgcp_dp import synthesize_lgcp

        knots = self.parameterAsInt(parameters, self.KNOTS, context)
        synthesis = synthesize_lgcp(
            x, y, domain, rng, epsilon=epsilon, delta=delta, alpha=alpha, knots=(knots, knots), progress=progress
        )
        return {
            "x": synthesis.x,
            "y": synthesis.y,
            "delta": delta,
            "ratio": synthesis.calibration.ratio,
            "knots": knots,
            "core": synthesis,
        }

    def _cells(self, parameters, context, domain):
        """``(cell size, partition)`` of the Laplace method: CELL_SIZE, or 1/10 of the window's larger side."""
        xmin, ymin, xmax, ymax = domain.bounds
        cell = optional_number(self, parameters, self.CELL_SIZE, context) or CELL_FRACTION * max(
            xmax - xmin, ymax - ymin
        )
        return cell, domain.grid_partition(cell_size=cell)

    def _release(self, parameters, context, method, epsilon, delta, alpha, cells, points):
        """``(mechanism, guarantees)`` of the synthetic pattern for the privacy-budget ledger, and why it is not
        private (a window from the data) or ``None``. Kernel (Theorem 3.6) and LGCP (Theorem 3.8, nominal): (ε, δ)
        under the α-neighbourhood in the working CRS's units. Laplace (Theorem 3.10): ε for one point moved any
        distance, and its ε for one point added or removed (core.synthesis.laplace_cox.laplace_guarantee)."""
        from ...core.ledger import Guarantee, add_remove_neighbourhood, alpha_neighbourhood, move_neighbourhood

        lost = None if given(parameters, self.WINDOW) else self.tr("window from the data")
        if method == LAPLACE:
            from ...core.synthesis.laplace_cox import laplace_guarantee

            share = self.parameterAsDouble(parameters, self.TOTAL_SHARE, context)
            g = laplace_guarantee(cells[1].region_measure, epsilon, share)
            guarantees = [
                Guarantee(move_neighbourhood(), g.epsilon_alpha),
                Guarantee(add_remove_neighbourhood(), g.epsilon_add_remove),
            ]
        else:
            units = points.work_crs.authid() or crs_key(points.work_crs)
            guarantees = [Guarantee(alpha_neighbourhood(alpha, units), epsilon, delta, proven=method == KERNEL)]
        return METHOD_KEYS[method], guarantees, lost

    def _laplace(self, parameters, context, x, y, cells, rng, epsilon, progress):
        from ...core.synthesis.laplace_cox import synthesize_laplace

        cell, partition = cells
        synthesis = synthesize_laplace(
            x,
            y,
            partition,
            rng,
            epsilon=epsilon,
            total_share=self.parameterAsDouble(parameters, self.TOTAL_SHARE, context),
            progress=progress,
        )
        g = synthesis.guarantee
        return {
            "x": synthesis.x,
            "y": synthesis.y,
            "delta": 0.0,
            "cell_size": cell,
            "noise_scale": g.noise_scale,
            "epsilon_add_remove": g.epsilon_add_remove,
            "core": synthesis,
        }

    # -- outputs --------------------------------------------------------------------------------

    def _write(self, parameters, context, points, release):
        import numpy as np

        ids = np.arange(1, release["x"].size + 1, dtype=np.int64)
        name = self.tr("DP synthetic points ({0}, ε = {1:g})").format(release["method"], release["epsilon"])
        dest = write_point_sink(
            self,
            parameters,
            context,
            self.OUTPUT,
            release["x"],
            release["y"],
            points,
            [("syn_id", ids)],
            self.labelled(name),
        )
        return {self.OUTPUT: dest}
