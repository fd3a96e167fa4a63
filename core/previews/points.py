"""Utility of Kim & Lim's DP point synthesizers against epsilon, from a few draws per epsilon.

At each epsilon the synthesizer runs exactly as ``spatialprivacy:dppoints`` runs it (same calibration, same
defaults: Laplace cells of 1/10 of the window's larger side, delta = 1/n for the kernel and LGCP methods), and
each synthetic pattern is compared with the original by the MISE of their K-functions (Kim & Lim 2021, Section
4.1: ``integral of (K_syn(r) / K_ori(r) - 1)^2 dr``, :mod:`core.metrics.mise`; isotropic edge correction, radii
from 0 to spatstat's default ``rmax``). The series are means over ``draws`` patterns:

* "mise": the mean MISE (length units; 0 is a perfect match);
* "n_points": the mean number of synthetic points.

Every epsilon reuses the same ``draws`` seeds drawn once from the caller's generator (common random numbers), so
the curves are smooth in epsilon. A pattern with more than :data:`MAX_K_POINTS` points is thinned at random to
that many before its K-function is estimated (independent thinning leaves K unchanged, Baddeley et al. 2015,
Section 7.4, and bounds the time); a pattern with fewer than two points has no K-function and no MISE (``nan``).
The kernel method's calibration (:func:`core.synthesis.kernel.calibrate_kernel`, a root search over Theorem 3.6's
left side ``f(h) = (2 alpha B + alpha^2) / (2 h^2) + r_alpha(h)``, each evaluation of ``r_alpha`` 0.03 s on a
rectangle, more on a polygon of many edges) would take a second or more per epsilon. Since ``f`` does not depend on
epsilon (the right side is ``epsilon / k``, ``k`` depending on n and delta only), the curve's bandwidths solve
``f(h) = epsilon / k`` with ``r_alpha`` interpolated (log-log) between the bandwidths the chosen epsilon's exact
calibration evaluated and up to :data:`KERNEL_NODES` more where those leave gaps. An epsilon that would need a
bandwidth beyond the widest node (``max(16 h0(epsilon_min), 4 B)``, ``h0 = sqrt(k (2 alpha B + alpha^2) / (2
epsilon))`` the bound without ``r_alpha``) gives ``nan``. An epsilon at which the synthesizer refuses to run (e.g.
more noise points than it draws) gives ``nan`` and a note.
"""

from __future__ import annotations

import math

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from ..limits import MIN_EPSILON
from ..metrics.kfunction import k_function
from ..metrics.mise import check_radii, default_radii, mise
from ..progress import Progress, scaled
from ..synthesis.domain import PlanarDomain
from ..window import Window
from .curve import Curve, Note, check_chosen, check_epsilons, checkpoint

METHODS = ("laplace", "kernel", "lgcp")
#: Laplace cell size as a fraction of the window's larger side when none is given (as ``dppoints``).
CELL_FRACTION = 0.1
#: Synthetic patterns per epsilon by default.
DEFAULT_DRAWS = 3
#: Radii of the K-functions by default.
DEFAULT_RADII = 50
#: Epsilons and draws per epsilon the explorer uses by default for each method, chosen so that a curve takes
#: under 3 s on John Snow's 578 deaths (tests/benchmarks/bench_previews.py): the kernel's exact calibration at the
#: chosen epsilon and its draws at wide bandwidths make 25 epsilons x 3 draws take about 2 s (13 x 1: 0.6-1.1 s).
PREVIEW_DEFAULTS = {"laplace": (25, 3), "kernel": (13, 1), "lgcp": (13, 1)}
#: Bandwidths at which the kernel curve evaluates Theorem 3.6's r_alpha (besides the chosen epsilon's).
KERNEL_NODES = 6
#: Larger synthetic patterns are thinned to this many points before their K-function is estimated.
MAX_K_POINTS = 5000


class _Synthesizer:
    """One method's synthesizer with everything that does not depend on epsilon prepared once."""

    def __init__(self, x, y, domain: PlanarDomain, method: str, alpha, delta, cell_size, knots, total_share):
        self.x, self.y, self.domain, self.method = x, y, domain, method
        self.alpha, self.total_share, self.knots = alpha, float(total_share), int(knots)
        if method != "laplace":
            if alpha is None or not (math.isfinite(alpha) and alpha > 0):
                raise ParameterError("alpha", f"the {method} method needs alpha > 0 (coordinate units), got {alpha!r}")
            if delta is None:
                if x.size < 2:
                    raise ParameterError("delta", "one point gives the default delta = 1/n = 1: give a delta")
                delta = 1.0 / x.size  # as dppoints (and Kim & Lim's experiments)
        self.delta = delta
        self.evaluated: dict[float, float] = {}  # bandwidth -> the r_alpha bound, from the kernel calibrations
        self.partition = None
        self.cell_size = None
        if method == "laplace":
            xmin, ymin, xmax, ymax = domain.bounds
            self.cell_size = float(cell_size) if cell_size else CELL_FRACTION * max(xmax - xmin, ymax - ymin)
            self.partition = domain.grid_partition(cell_size=self.cell_size)  # public: the window only

    def prepare(self, epsilon: float, progress: Progress):
        """What a draw at ``epsilon`` needs beyond the generator (the kernel's calibrated bandwidth)."""
        if self.method == "kernel":
            from ..synthesis.kernel import calibrate_kernel

            recorder = _RecordingDomain(self.domain)
            calibration = calibrate_kernel(self.x.size, epsilon, self.delta, self.alpha, recorder, progress=progress)
            self.evaluated.update(recorder.evaluated)
            return calibration
        return None

    def kernel_bandwidths(self, epsilons: np.ndarray, exact, progress: Progress) -> np.ndarray:
        """Bandwidths solving ``f(h) = epsilon / k`` with ``r_alpha`` interpolated (see the module docstring);
        ``exact`` is the chosen epsilon's calibration, one more node. ``nan`` beyond the widest node."""
        from ..synthesis.kernel import kernel_lhs

        k, b, alpha = exact.k, exact.B, self.alpha
        a = (2 * alpha * b + alpha * alpha) / 2
        h0 = np.sqrt(a * k / epsilons)
        known = dict(self.evaluated)
        known[exact.h] = exact.r_alpha
        wanted = np.geomspace(h0.min(), max(16 * h0.max(), 4 * b), KERNEL_NODES)
        spacing = (wanted[1] / wanted[0]) ** 0.5 if wanted.size > 1 else 2.0
        # a wanted node within half a spacing of a bandwidth the calibration evaluated is not needed
        nodes = [h for h in wanted if not any(h / spacing < seen < h * spacing for seen in known)]
        for index, h in enumerate(nodes):
            checkpoint(progress, index, len(nodes), "Calibrating the kernel bandwidths")
            known[float(h)] = kernel_lhs(self.domain, float(h), alpha)[1]
        log_h = np.log(np.array(sorted(known)))
        log_r = np.log(np.maximum(np.array([known[h] for h in sorted(known)]), 1e-300))
        grid = np.linspace(log_h[0], log_h[-1], 4096)
        f = a * np.exp(-2 * grid) + np.exp(np.interp(grid, log_h, log_r))
        # the smallest grid bandwidth from which on f stays <= epsilon / k
        suffix_max = np.maximum.accumulate(f[::-1])[::-1]
        out = np.full(epsilons.size, np.nan)
        for index, epsilon in enumerate(epsilons):
            ok = np.flatnonzero(suffix_max <= epsilon / k)
            if ok.size:
                out[index] = math.exp(grid[ok[0]])
        return out

    def kernel_draw(self, h: float, rng: np.random.Generator):
        """One kernel pattern at bandwidth ``h`` (the draw of :func:`core.synthesis.kernel.synthesize_kernel`)."""
        from ..synthesis.kernel import check_kernel_draws, grid_step

        check_kernel_draws(self.domain, self.x.size, h, "epsilon")
        counts = mechanisms.poisson_counts(rng, np.ones(self.x.size))
        sx, sy = self.domain.sample_gaussian_offspring(rng, self.x, self.y, h, counts)
        return mechanisms.snap_to_grid(sx, sy, grid_step(h), self.domain.window.contains)

    def draw(self, epsilon: float, prepared, rng: np.random.Generator, progress: Progress = None):
        """One synthetic pattern at ``epsilon``: ``(sx, sy)``."""
        if self.method == "laplace":
            from ..synthesis.laplace_cox import synthesize_laplace

            synthesis = synthesize_laplace(
                self.x, self.y, self.partition, rng, epsilon=epsilon, total_share=self.total_share, progress=progress
            )
        elif self.method == "kernel":
            from ..synthesis.kernel import synthesize_kernel

            synthesis = synthesize_kernel(
                self.x,
                self.y,
                self.domain,
                rng,
                epsilon=epsilon,
                delta=self.delta,
                alpha=self.alpha,
                calibration=prepared,
                progress=progress,
            )
        else:
            from ..synthesis.lgcp_dp import synthesize_lgcp

            synthesis = synthesize_lgcp(
                self.x,
                self.y,
                self.domain,
                rng,
                epsilon=epsilon,
                delta=self.delta,
                alpha=self.alpha,
                knots=(self.knots, self.knots),
                progress=progress,
            )
        return synthesis.x, synthesis.y


class _RecordingDomain:
    """A domain that remembers the r_alpha bounds a kernel calibration evaluates (and is otherwise the domain)."""

    def __init__(self, domain: PlanarDomain):
        self._domain = domain
        self.evaluated: dict[float, float] = {}

    def edge_correction_log_ratio_bound(self, h: float, alpha: float, **options) -> float:
        value = self._domain.edge_correction_log_ratio_bound(h, alpha, **options)
        self.evaluated[float(h)] = float(value)
        return value

    def __getattr__(self, name: str):
        return getattr(self._domain, name)


def _method(method: str) -> str:
    key = str(method).lower()
    if key not in METHODS:
        raise ParameterError("method", f"method must be one of {', '.join(METHODS)}, got {method!r}")
    return key


def _window(window) -> Window:
    if not isinstance(window, Window):
        raise ParameterError("window", "give the study window as a core.window.Window")
    return window


def synthetic_k(sx, sy, window: Window, radii: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """K-function of a synthetic pattern (thinned to :data:`MAX_K_POINTS`), ``None`` below two points."""
    if sx.size < 2:
        return None
    if sx.size > MAX_K_POINTS:
        keep = mechanisms.permutation(rng, sx.size)[:MAX_K_POINTS]
        sx, sy = sx[keep], sy[keep]
    return k_function(sx, sy, window, radii).K


def points_curve(
    x,
    y,
    window: Window,
    method: str,
    epsilons,
    chosen: float,
    rng: np.random.Generator,
    *,
    alpha: float | None,
    delta: float | None = None,
    cell_size: float | None = None,
    knots: int = 11,
    total_share: float = 0.0,
    draws: int = DEFAULT_DRAWS,
    radii=None,
    progress: Progress = None,
) -> Curve:
    """K-function MISE and the number of synthetic points against epsilon, for one of Kim & Lim's synthesizers.

    Args:
        x, y: the confidential points (projected coordinates), inside ``window``.
        window: the study window (:class:`core.window.Window`; e.g. ``Window.around_points(x, y,
            margin=core.limits.WINDOW_MARGIN)`` as ``dppoints`` does without a WINDOW).
        method: "laplace" (Theorem 3.10), "kernel" (Theorem 3.6) or "lgcp" (Theorem 3.8).
        epsilons, chosen: the curve's epsilons and the chosen one (computed exactly, with the same seeds).
        rng: the only source of randomness.
        alpha: the alpha-neighbourhood radius (kernel, LGCP; coordinate units); unused by Laplace.
        delta: kernel and LGCP; ``None`` gives 1/n as ``dppoints``.
        cell_size: Laplace cell side (``None``: 1/10 of the window's larger side); total_share: as ``dppoints``.
        knots: LGCP lattice knots per side.
        draws: synthetic patterns per epsilon (>= 1).
        radii: radii of the K-functions (default: :data:`DEFAULT_RADII` from 0 to spatstat's ``rmax``).
        progress: ``progress(fraction, message)``, may raise to cancel.
    """
    method = _method(method)
    window = _window(window)
    domain = PlanarDomain(window)
    x, y = domain.check_points(x, y)
    if x.size < 2:
        raise ParameterError("points", "the K-function needs at least two points")
    if int(draws) != draws or draws < 1:
        raise ParameterError("draws", f"the number of draws must be a whole number >= 1, got {draws!r}")
    xs = check_epsilons(epsilons)
    chosen = check_chosen(chosen)
    r = check_radii(default_radii(window, x.size, DEFAULT_RADII) if radii is None else radii)
    synthesizer = _Synthesizer(x, y, domain, method, alpha, delta, cell_size, knots, total_share)
    k_original = k_function(x, y, window, r).K
    seeds = [int(seed) for seed in mechanisms.child_seeds(rng, int(draws))]
    values = np.full((xs.size + 1, 2), np.nan)
    refused: list[Note] = []
    bandwidths = None
    start = 0.0
    if method == "kernel":  # the chosen epsilon exactly, then the curve's bandwidths from a table
        start = 0.4
        exact = synthesizer.prepare(chosen, scaled(progress, 0.0, 0.2))
        bandwidths = np.append(synthesizer.kernel_bandwidths(xs, exact, scaled(progress, 0.2, start)), exact.h)
    steps = xs.size + 1
    for index, epsilon in enumerate(np.append(xs, chosen)):
        checkpoint(scaled(progress, start, 1.0), index, steps, f"Synthetic points at ε = {epsilon:.3g}")
        step = scaled(progress, start + (1 - start) * index / steps, start + (1 - start) * (index + 1) / steps)
        if bandwidths is not None and not np.isfinite(bandwidths[index]):
            refused.append(Note("points_bandwidth_beyond", {"epsilon": float(epsilon)}))
            continue
        try:
            errors, counts = [], []
            for number, seed in enumerate(seeds):
                draw_rng = mechanisms.generator(seed)
                if bandwidths is not None:
                    sx, sy = synthesizer.kernel_draw(float(bandwidths[index]), draw_rng)
                else:  # Laplace and LGCP need nothing prepared; an LGCP fit reports (and cancels) inside
                    within = scaled(step, number / len(seeds), (number + 1) / len(seeds))
                    sx, sy = synthesizer.draw(float(epsilon), None, draw_rng, within)
                counts.append(sx.size)
                k_synthetic = synthetic_k(sx, sy, window, r, draw_rng)
                errors.append(np.nan if k_synthetic is None else mise(r, k_synthetic, k_original))
        except ParameterError as error:  # this epsilon cannot be run; the others still can
            refused.append(Note("points_refused", {"epsilon": float(epsilon), "reason": str(error)}))
            continue
        values[index] = (np.mean(errors), np.mean(counts))
    checkpoint(progress, steps, steps, "Done")
    notes = [Note("points_draws", {"draws": int(draws)})]
    if synthesizer.delta is not None and delta is None:
        notes.append(Note("points_default_delta", {"delta": float(synthesizer.delta)}))
    notes.extend(refused)
    return Curve(
        x=xs,
        series={"mise": values[:-1, 0], "n_points": values[:-1, 1]},
        marked_x=chosen,
        marked={"mise": float(values[-1, 0]), "n_points": float(values[-1, 1])},
        x_label="ε",
        y_labels={"mise": "MISE of the K-function", "n_points": "synthetic points"},
        notes=tuple(notes),
    )


def preview_draw_points(
    x,
    y,
    window: Window,
    method: str,
    epsilon: float,
    rng: np.random.Generator,
    *,
    alpha: float | None,
    delta: float | None = None,
    cell_size: float | None = None,
    knots: int = 11,
    total_share: float = 0.0,
    progress: Progress = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One synthetic pattern at the chosen setting, for the map preview (the steward's eyes only)."""
    method = _method(method)
    domain = PlanarDomain(_window(window))
    x, y = domain.check_points(x, y)
    epsilon = max(MIN_EPSILON, check_chosen(epsilon))
    synthesizer = _Synthesizer(x, y, domain, method, alpha, delta, cell_size, knots, total_share)
    prepared = synthesizer.prepare(epsilon, scaled(progress, 0.0, 0.5))
    return synthesizer.draw(epsilon, prepared, rng, scaled(progress, 0.5, 1.0))
