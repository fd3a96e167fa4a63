"""From points, a window and covariates to a ready-to-fit LGCP (mesh, quadrature, priors), its fit, and the
posterior intensity on a raster.

This is the one place that turns a user's choices into an :class:`~.lgcp.LGCPModel`, and
:func:`fit_confidential` the one that builds and fits (or takes a model file of) the confidential points'
LGCP, so the fitting algorithm and the synthesis tools build and fit models the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import fields
from .errors import ParameterError
from .laplace_fit import INTEGRATIONS, HyperparameterSearch, fit_laplace
from .lgcp import BetaPrior, LGCPDesign, LGCPModel, NodeCheck
from .limits import WINDOW_MARGIN
from .points import repeated_locations
from .posterior import Posterior
from .progress import Progress, report, scaled
from .quadrature import quadrature
from .triangulation import estimate_nodes, lattice, triangulate
from .window import Window

#: An LGCP needs enough points to say anything about a spatial field.
MIN_POINTS = 10
#: Default mesh resolution: this many edges across the larger side of the window.
EDGES_ACROSS = 40


@dataclass(frozen=True)
class Covariate:
    """A named spatial covariate: ``values(x, y)`` returns its value at each location; ``parameter`` is the core
    name of the parameter it came from (errors name it)."""

    name: str
    values: Callable[[np.ndarray, np.ndarray], np.ndarray]
    parameter: str = "covariates"


@dataclass(frozen=True)
class LGCPSetup:
    """The model and what it was built from."""

    model: LGCPModel
    window: Window
    mesh: object
    max_edge: float
    duplicates: int
    #: points far from the rest that stretch a window drawn around the points (see :func:`isolated`)
    isolated: int = 0

    def too_fine(self) -> str | None:
        """A warning if the mesh has more than :data:`SLOW_FIT_NODES` nodes: the fit's time grows faster than the
        number of nodes (tests/benchmarks/bench_large_mesh.py, 5,000 points in a square, 1,000 draws, the central
        composite design that ``"auto"`` picks on such meshes, on a 2-core machine: 8,169 nodes 11-13 s, 20,128 nodes
        34-39 s, 50,223 nodes 146-163 s, 100,198 nodes (the sparse factor, nested dissection) 351-406 s; the grid took
        39-68 s at 8,169 nodes and 333 s at 20,128)."""
        if self.mesh.n_nodes <= SLOW_FIT_NODES:
            return None
        return (
            f"max_edge {self.max_edge:g} gives a mesh of {self.mesh.n_nodes:,} nodes: the fit will take many minutes "
            "(its time grows faster than the number of nodes: on a 2-core machine, with the central composite design, "
            "50,000 nodes took under 3 minutes and 100,000 up to 7; the grid takes five to ten times as long); a "
            "larger max_edge is much faster"
        )

    def too_coarse(self) -> str | None:
        """A warning if max_edge leaves fewer than :data:`COARSE_EDGES_ACROSS` edges across the window's larger
        side (a max_edge typed in the wrong units, say): the field then cannot show a pattern smaller than the
        window."""
        xmin, ymin, xmax, ymax = self.window.bounds
        side = max(xmax - xmin, ymax - ymin)
        if self.max_edge * COARSE_EDGES_ACROSS <= side:
            return None
        return (
            f"max_edge {self.max_edge:g} leaves fewer than {COARSE_EDGES_ACROSS} edges across the window "
            f"({side:.4g} across; the mesh has {self.mesh.n_nodes} nodes): the field cannot show any pattern "
            "smaller than about an edge; give a smaller max_edge (in the units of the CRS)"
        )


#: Fewer edges than this across the window's larger side draw a warning (the default mesh has EDGES_ACROSS).
COARSE_EDGES_ACROSS = 5

#: More mesh nodes than this draw a warning that the fit will be slow (see :meth:`LGCPSetup.too_fine`): under 3
#: minutes with the central composite design (it was 20,000 at 77 s before the pilot fits and cheaper factorisations,
#: and 15,000 when every fit used the grid: 9 minutes at 18,886).
SLOW_FIT_NODES = 50_000

#: Largest mesh an LGCP fit accepts: 100,198 nodes took 351-406 s and 2.8 GB with the central composite design and
#: the sparse factor of core.linalg (tests/benchmarks/bench_large_mesh.py, 2-core machine); 185,000 nodes had taken
#: 5.4 GB with banded factors.
MAX_FIT_NODES = 100_000

#: ``hyper_integration="auto"`` (the default of :func:`fit_confidential`) integrates over the hyperparameters with
#: the grid below this many mesh nodes and with the central composite design from there on: the design needs a
#: fifth to a half of the grid's Laplace fits (tests/benchmarks/bench_large_mesh.py, 5,000 points in a square,
#: 1,000 draws, CPU seconds on a 2-core machine: 2,062 nodes 3-4 s against the grid's 8-15 s, 8,169 nodes 25 s
#: against 139 s) with summaries that agreed with the exact sampler about as well as the grid's
#: (tests/benchmarks/bench_hyper_integration.py); small meshes (John Snow's 1,900 nodes) keep the grid, whose fits
#: take seconds there.
CCD_MIN_NODES = 5_000
#: The choices of ``hyper_integration``: :data:`.laplace_fit.INTEGRATIONS` and ``"auto"``.
HYPER_INTEGRATIONS = (*INTEGRATIONS, "auto")


def resolve_integration(hyper_integration: str, n_nodes: int) -> str:
    """The integration :func:`.laplace_fit.fit_laplace` runs for ``hyper_integration`` on a mesh of ``n_nodes``:
    ``"auto"`` is ``"ccd"`` from :data:`CCD_MIN_NODES` nodes on and ``"grid"`` below; the others are themselves."""
    if hyper_integration == "auto":
        return "ccd" if n_nodes >= CCD_MIN_NODES else "grid"
    return hyper_integration


def default_window(x, y) -> Window:
    """The window :func:`build_lgcp` draws when none is given: the points' bounding box enlarged by 5%."""
    return Window.around_points(x, y, margin=WINDOW_MARGIN)


def default_max_edge(window: Window) -> float:
    xmin, ymin, xmax, ymax = window.bounds
    return max(xmax - xmin, ymax - ymin) / EDGES_ACROSS


def build_lgcp(
    x: np.ndarray,
    y: np.ndarray,
    window: Window | None = None,
    max_edge: float | None = None,
    covariates: tuple[Covariate, ...] = (),
    offset: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    prior_range: float | None = None,
    prior_sigma: float = 1.0,
    prior: str = "lognormal",
    scheme: str = "midpoint",
    progress: Progress = None,
) -> LGCPSetup:
    """Build the LGCP of Walder et al. eq. (2)-(3) for points ``(x, y)``.

    Args:
        x, y: the points (projected coordinates).
        window: the study region; default: the points' bounding box enlarged by 5%.
        max_edge: largest mesh edge inside the window; default: 1/40 of the window's larger side.
        covariates: spatial covariates (an intercept is always included).
        offset: log offset ``log o(s)`` as a function of location (e.g. log population density).
        prior_range: prior median of the effective range; default: 1/5 of the window's larger side.
        prior_sigma: prior median of the field's marginal standard deviation.
        prior: ``"lognormal"`` (Walder Appendix A.5, log-sd 1 for both) or ``"pc"`` (penalised
            complexity: P(range < prior_range) = 0.5, P(sigma > prior_sigma) = 0.05).
        scheme: integration scheme, see core.quadrature.
        progress: optional ``progress(fraction, message)``.

    Raises:
        ParameterError: too few points, points outside the window, covariates that are not
            finite where needed, bad mesh settings.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.size < MIN_POINTS:
        raise ParameterError("points", f"an LGCP fit needs at least {MIN_POINTS} points, got {x.size}")
    around_points = window is None
    if around_points:
        window = default_window(x, y)
    outside = int(np.count_nonzero(~window.contains(x, y)))
    if outside:
        raise ParameterError(
            "window",
            f"{outside} points lie outside the study window: give a window that holds every point (check both "
            "layers' CRS), or none for the points' bounding box enlarged by 5%",
        )
    duplicates = repeated_locations(x, y)
    if max_edge is None:
        max_edge = default_max_edge(window)

    def too_many(nodes: str) -> ParameterError:
        return ParameterError(
            "max_edge",
            f"max_edge {max_edge:g} gives a mesh of {nodes} nodes; the fit's time grows faster than the number of "
            f"nodes (on a 2-core machine 20,000 nodes took 40 s, 50,000 under 3 minutes and 100,000 up to 7), so "
            f"at most "
            f"{MAX_FIT_NODES:,} are allowed: use a larger max_edge, or simplify the window if it has many vertices "
            "(each one is a mesh node)",
        )

    # a mesh far beyond the limit is refused before it is built (1.6 million nodes took 27 s to build); the
    # estimate ignores refinement near the boundary, so the built mesh is checked again
    estimate = estimate_nodes(window, max_edge) if math.isfinite(float(max_edge)) and max_edge > 0 else 0.0
    if estimate > 2 * MAX_FIT_NODES:
        raise too_many(f"about {estimate:,.0f}")
    report(progress, 0.0, "Building the mesh")
    mesh = triangulate(window, max_edge)
    if mesh.n_nodes > MAX_FIT_NODES:
        raise too_many(f"{mesh.n_nodes:,}")
    report(progress, 0.3, f"Mesh of {mesh.n_nodes} nodes; computing FEM matrices and integration points")
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    design, node_check = _design(mesh, window, scheme, x, y, covariates, offset)
    xmin, ymin, xmax, ymax = window.bounds
    if prior_range is None:
        prior_range = max(xmax - xmin, ymax - ymin) / 5.0
    if not (math.isfinite(prior_range) and prior_range > 0):
        raise ParameterError("prior_range", f"the prior range must be > 0, got {prior_range!r}")
    if not (math.isfinite(prior_sigma) and prior_sigma > 0):
        raise ParameterError("prior_sigma", f"the prior standard deviation must be > 0, got {prior_sigma!r}")
    if prior == "lognormal":
        theta_prior = fields.LogNormalFieldPrior(range0=prior_range, sigma0=prior_sigma)
    elif prior == "pc":
        theta_prior = fields.PCFieldPrior(range0=prior_range, alpha_range=0.5, sigma0=prior_sigma, alpha_sigma=0.05)
    else:
        raise ParameterError("prior", f"unknown prior {prior!r}; use 'lognormal' or 'pc'")
    model = LGCPModel(design, spde, theta_prior, BetaPrior.default(design), mesh=mesh, node_check=node_check)
    report(progress, 1.0, "Model ready")
    far = isolated(x, y) if around_points else 0
    return LGCPSetup(model, window, mesh, float(max_edge), int(duplicates), far)


#: Meshes of at least this many nodes start the search for the hyperparameters' mode at the mode on a coarser
#: mesh (:func:`pilot_mode`).
PILOT_MIN_NODES = 10_000
#: A pilot mesh has 1/:data:`PILOT_SHRINK` of the nodes, and at least :data:`PILOT_NODES` (whose fit takes about a
#: second on a 2-core machine); a pilot of :data:`PILOT_MIN_NODES` or more has its own pilot.
PILOT_SHRINK = 8
PILOT_NODES = 2_500


def pilot_mode(build: Callable[[str, float], LGCPSetup], rule: str, setup: LGCPSetup, progress: Progress = None):
    """The mode of ``p(theta | S)`` on a coarser mesh of the same model (``build(rule, max_edge)``, see
    :data:`PILOT_SHRINK`), to start the search on ``setup``'s mesh from, or ``None`` if the mesh is smaller than
    :data:`PILOT_MIN_NODES` nodes or the coarse fit fails (the search then starts at the prior's centre).

    Why: from the prior's centre, the search on a fine mesh takes 27-67 Laplace fits (5,000 points in a square,
    20,128 nodes), each costing as much as the whole coarse search. The coarse mode differs from the fine one by
    what the mesh's resolution does to the posterior (uniform points: 0.1 in log range from 2,608 to 20,128 nodes,
    0.01 from 12,614 to 100,198), and the search on the fine mesh still ends at the fine mesh's own mode (within its
    Newton tolerance): only the start changes. On 100,198 nodes the search took 21 fits (202 s) after a pilot of 2,608
    nodes, and 9 (123 s, the pilots' 10 s included) after pilots of 12,614 and 2,608."""
    nodes = setup.mesh.n_nodes
    if nodes < PILOT_MIN_NODES:
        return None
    try:
        coarse = build(rule, setup.max_edge * math.sqrt(nodes / max(PILOT_NODES, nodes / PILOT_SHRINK)))
        start = pilot_mode(build, rule, coarse, progress)
        mode, _ = HyperparameterSearch(coarse.model, scaled(progress, 0.0, 0.0)).mode_and_hessian("newton", start)
    except (ParameterError, np.linalg.LinAlgError, ArithmeticError, ValueError):
        return None
    return mode


def fit_laplace_any_rule(
    build: Callable[..., LGCPSetup],
    scheme: str,
    rng: np.random.Generator,
    draws: int,
    progress: Progress = None,
    hyper_integration: str = "grid",
) -> tuple[LGCPSetup, Posterior, str]:
    """``build(scheme)`` and :func:`.lgcp.fit_laplace` it; if the edge-midpoint rule is fooled by fields with
    spikes at single mesh nodes (the fit's ``ParameterError("integration")``, see core.quadrature), build again
    with the degree-3 rule, which sees the nodes, and fit that. Clustered patterns with repeated locations (300
    of the enterprises, 30 of them duplicates) meet this at the default settings; the refit costs one more fit
    (the failure shows early, in the hyperparameter search). ``hyper_integration`` is :func:`.laplace_fit.fit_laplace`'s
    ``integration`` (``"grid"`` or ``"ccd"``), or ``"auto"`` (:func:`resolve_integration`). ``build(rule, max_edge)``
    builds the same model on another mesh, for :func:`pilot_mode`.

    Returns:
        the setup, its posterior (``diagnostics["integration"]`` names the rule used) and that rule.
    """

    def fit(rule: str) -> tuple[LGCPSetup, Posterior]:
        setup = build(rule)
        integration = resolve_integration(hyper_integration, setup.mesh.n_nodes)
        start = pilot_mode(build, rule, setup, progress)
        posterior = fit_laplace(setup.model, rng, draws=draws, progress=progress, integration=integration, start=start)
        posterior.diagnostics["pilot_mode"] = None if start is None else start.tolist()
        return setup, posterior

    try:
        setup, posterior = fit(scheme)
    except ParameterError as error:
        if error.parameter != "integration" or scheme != "midpoint":
            raise
        scheme = "cubic"
        setup, posterior = fit(scheme)
    posterior.diagnostics["integration"] = scheme
    return setup, posterior, scheme


#: The kinds of :class:`FitNote` that :func:`fit_confidential` gives, in the order they come.
NOTE_BUILT = "built"  #: the model is built (before the fit)
NOTE_TOO_COARSE = "too_coarse"  #: ``detail``: :meth:`LGCPSetup.too_coarse`'s warning
NOTE_TOO_FINE = "too_fine"  #: ``detail``: :meth:`LGCPSetup.too_fine`'s warning
NOTE_ISOLATED = "isolated"  #: ``detail``: how many points lie far from the rest (:func:`isolated`)
NOTE_DUPLICATES = "duplicates"  #: ``detail``: how many points repeat another point's location
NOTE_REFITTED = "refitted"  #: the edge-midpoint rule was fooled: refitted with the degree-3 rule (after the fit)


@dataclass(frozen=True)
class FitNote:
    """Something the caller of :func:`fit_confidential` should tell the user: ``kind`` is one of the ``NOTE_``
    constants, ``setup`` the model it is about, ``detail`` a count or a warning text (see the constants)."""

    kind: str
    setup: LGCPSetup
    detail: object = None


@dataclass(frozen=True)
class ConfidentialLGCP:
    """The LGCP of the confidential points: ``setup`` is ``None`` for a model file (its ``posterior`` holds what
    was built); ``window`` is the study window either way; ``notes`` are what :func:`fit_confidential` said."""

    setup: LGCPSetup | None
    posterior: Posterior
    window: Window
    notes: tuple[FitNote, ...] = ()

    @property
    def refitted(self) -> bool:
        """Whether the fit was redone with the degree-3 rule (:data:`NOTE_REFITTED`)."""
        return any(note.kind == NOTE_REFITTED for note in self.notes)


def fit_confidential(
    x: np.ndarray,
    y: np.ndarray,
    rng: np.random.Generator,
    draws: int,
    *,
    model: Posterior | None = None,
    crs: str = "",
    window: Window | None = None,
    max_edge: float | None = None,
    covariates: tuple[Covariate, ...] = (),
    offset: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    prior_range: float | None = None,
    prior_sigma: float = 1.0,
    prior: str = "lognormal",
    scheme: str = "midpoint",
    method: str = "laplace",
    hyper_integration: str = "auto",
    check_window: Callable[[Window], object] | None = None,
    on_note: Callable[[FitNote], None] | None = None,
    progress: Progress = None,
    build_share: float = 0.1,
) -> ConfidentialLGCP:
    """Build and fit the LGCP of the confidential points ``(x, y)``, or take a fitted ``model`` for them.

    With ``model`` (a model file's posterior): nothing is fitted; the model must have been fitted to these very
    points in the CRS named ``crs`` (:meth:`.posterior.Posterior.check_source`) and record its window.

    Otherwise the model is built with :func:`build_lgcp` (``window`` ... ``scheme`` as there) and fitted with
    ``draws`` posterior draws: ``method="laplace"`` integrates Laplace approximations over the hyperparameters,
    and when the edge-midpoint rule is fooled by fields with spikes at single mesh nodes it builds and fits again
    with the degree-3 rule (:func:`fit_laplace_any_rule`, note :data:`NOTE_REFITTED`); ``method="mcmc"`` runs
    the exact sampler on the model as built. ``hyper_integration`` chooses how the fast method integrates over the
    hyperparameters (:func:`.laplace_fit.fit_laplace`'s ``integration``: ``"grid"`` or ``"ccd"``, INLA's central
    composite design with about a third of the grid's Laplace fits; ``"auto"``, the default: the grid below
    :data:`CCD_MIN_NODES` mesh nodes, the design from there on). The setup's notes (:data:`NOTE_BUILT`, then its
    warnings) come once, after the first build and before the fit; ``progress`` runs through ``build_share`` while
    building.

    ``check_window(window)``, if given, is called with the study window before anything is built or fitted
    (with no window given, the default window of :func:`build_lgcp`, unless there are too few points for a
    fit: that refusal comes first); ``on_note(note)`` with each note as it comes. Both may raise, to refuse
    (a radius or an output that the window or mesh makes impossible) before a long fit.

    Raises:
        ParameterError: as :func:`build_lgcp` and the fit; ``"model"`` for a model file of other points or
            without its window.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if hyper_integration not in HYPER_INTEGRATIONS:
        raise ParameterError(
            "hyper_integration",
            f"the hyperparameter integration must be 'grid', 'ccd' or 'auto', got {hyper_integration!r}",
        )
    if model is not None:
        model.check_source(x, y, crs)
        recorded = model.window()
        if recorded is None:
            raise ParameterError("model", "the model file does not record its window: refit it")
        if check_window is not None:
            check_window(recorded)
        return ConfidentialLGCP(None, model, recorded)
    if check_window is not None and (window is not None or x.size >= MIN_POINTS):
        check_window(window if window is not None else default_window(x, y))
    notes: list[FitNote] = []

    def note(kind: str, setup: LGCPSetup, detail: object = None) -> None:
        notes.append(FitNote(kind, setup, detail))
        if on_note is not None:
            on_note(notes[-1])

    def build(rule: str, edge: float | None = None) -> LGCPSetup:
        """The model with integration rule ``rule``; on a mesh of largest edge ``edge`` (a pilot fit's coarser mesh,
        built without progress or notes) instead of ``max_edge`` if given."""
        pilot = edge is not None
        setup = build_lgcp(
            x,
            y,
            window=window,
            max_edge=edge if pilot else max_edge,
            covariates=tuple(covariates),
            offset=offset,
            prior_range=prior_range,
            prior_sigma=prior_sigma,
            prior=prior,
            scheme=rule,
            progress=None if pilot else scaled(progress, 0.0, build_share),
        )
        if pilot:
            return setup
        if not notes:  # a refit builds again: its notes were given
            note(NOTE_BUILT, setup)
            for kind, detail in (
                (NOTE_TOO_COARSE, setup.too_coarse()),
                (NOTE_TOO_FINE, setup.too_fine()),
                (NOTE_ISOLATED, setup.isolated),
                (NOTE_DUPLICATES, setup.duplicates),
            ):
                if detail:
                    note(kind, setup, detail)
        return setup

    fit_progress = scaled(progress, build_share, 1.0)
    if method == "mcmc":
        from .mcmc import fit_mcmc

        setup = build(scheme)
        posterior = fit_mcmc(setup.model, rng, draws=draws, progress=fit_progress)
        posterior.diagnostics["integration"] = scheme
    elif method == "laplace":
        setup, posterior, used = fit_laplace_any_rule(build, scheme, rng, draws, fit_progress, hyper_integration)
        if used != scheme:
            note(NOTE_REFITTED, setup)
    else:
        raise ParameterError("method", f"unknown fitting method {method!r}; use 'laplace' or 'mcmc'")
    return ConfidentialLGCP(setup, posterior, setup.window, tuple(notes))


#: Largest intensity raster :func:`intensity_raster` makes (pixels).
MAX_PIXELS = 4_000_000


def pixel_grid(setup: LGCPSetup, pixel: float | None) -> tuple[float, int, int]:
    """``(pixel, cols, rows)`` of the intensity raster over the window (``pixel`` defaults to half the largest
    mesh edge); refuses more than :data:`MAX_PIXELS` pixels."""
    pixel = pixel or setup.max_edge / 2.0
    xmin, ymin, xmax, ymax = setup.window.bounds
    cols, rows = max(1, math.ceil((xmax - xmin) / pixel)), max(1, math.ceil((ymax - ymin) / pixel))
    if cols * rows > MAX_PIXELS:
        raise ParameterError(
            "pixel_size",
            f"the intensity raster would have {cols * rows} pixels (at most {MAX_PIXELS}); use a larger pixel size",
        )
    return pixel, cols, rows


def intensity_raster(
    posterior: Posterior,
    setup: LGCPSetup,
    pixel: float | None,
    covariates: tuple[Covariate, ...] = (),
    offset: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    progress: Progress = None,
) -> tuple[np.ndarray, float, float, float]:
    """Posterior mean and sd of the intensity (points per squared unit) on the pixels of :func:`pixel_grid`, NaN
    outside the window: ``(bands (2, rows, cols) with rows north to south, x_min, y_max, pixel)``."""
    pixel, cols, rows = pixel_grid(setup, pixel)
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


def build_knot_lgcp(
    x: np.ndarray,
    y: np.ndarray,
    window: Window,
    knots: tuple[int, int] = (11, 11),
    family: str = "power_exponential",
    power: float = 2.0,
    ratio: float | None = None,
    length_prior: tuple[float, float] | None = None,
    prior_sigma: float = 1.0,
    nugget: float = 1e-6,
    nugget_variance: float | None = None,
    covariates: tuple[Covariate, ...] = (),
    offset: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    scheme: str = "vertex",
) -> LGCPSetup:
    """Build Kim & Lim's LGCP (Section 3.3.1, eq. 7-8): piecewise-linear basis on the regular
    right-triangle lattice of ``knots = (n_x, n_y)`` knots over the window's bounding box, a dense
    covariance on the knot weights (:class:`.fields.KnotCovarianceField`) and the dual-mesh
    (Voronoi) quadrature of their Appendix C.2 (``scheme="vertex"``).

    Args:
        x, y: the points (projected coordinates), inside ``window``.
        window: the study region; the lattice covers its bounding box.
        knots: knots per dimension, >= 2 each (Kim & Lim use 11 x 11).
        family, power: covariance family and power-exponential power (Kim & Lim eq. 8).
        ratio: fix ``sigma = ratio * l`` (Kim & Lim's DP ratio R); then the only hyperparameter is ``l``.
        length_prior: ``(shape, scale)`` of the inverse-gamma prior on ``l``; default: shape 2 and scale
            set so that the prior mode of ``log l`` is a fifth of the window's larger side. With a free
            ``sigma`` (no ratio) the log-normal prior of Walder A.5 is used with medians ``scale / shape``
            and ``prior_sigma``.
        nugget, nugget_variance: relative or absolute nugget of the knot covariance (see the field's docstring).
        covariates, offset, scheme: as in :func:`build_lgcp`.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.size < 1:
        raise ParameterError("points", "there are no points to fit")
    outside = int(np.count_nonzero(~window.contains(x, y)))
    if outside:
        raise ParameterError(
            "window",
            f"{outside} points lie outside the study window: give a window that holds every point (check both "
            "layers' CRS)",
        )
    nx, ny = knots
    for name, value in (("knots", nx), ("knots", ny)):
        if isinstance(value, bool) or int(value) != value or value < 2:
            raise ParameterError(name, f"need at least 2 knots per dimension, got {knots!r}")
    xmin, ymin, xmax, ymax = window.bounds
    mesh = lattice(xmin, ymin, xmax, ymax, int(nx) - 1, int(ny) - 1)
    field = fields.KnotCovarianceField(
        mesh.nodes, family=family, power=power, ratio=ratio, nugget=nugget, nugget_variance=nugget_variance
    )
    if length_prior is None:
        length_prior = (2.0, 2.0 * max(xmax - xmin, ymax - ymin) / 5.0)
    shape, scale = length_prior
    if ratio is not None:
        theta_prior = fields.InverseGammaLengthPrior(shape, scale)
    else:
        theta_prior = fields.LogNormalFieldPrior(range0=scale / shape, sigma0=prior_sigma)
    design, node_check = _design(mesh, window, scheme, x, y, covariates, offset)
    model = LGCPModel(design, field, theta_prior, BetaPrior.default(design), mesh=mesh, node_check=node_check)
    duplicates = repeated_locations(x, y)
    return LGCPSetup(model, window, mesh, float(max((xmax - xmin) / (nx - 1), (ymax - ymin) / (ny - 1))), duplicates)


def _design(mesh, window: Window, scheme: str, x, y, covariates, offset) -> tuple[LGCPDesign, NodeCheck | None]:
    """The LGCP's design on ``mesh``: intercept and covariates at the points and at the integration points of
    ``scheme`` (with their offsets), each covariate checked to separate points from window, and the node check."""
    quad = quadrature(mesh, window, scheme)
    names = ("intercept",) + tuple(c.name for c in covariates)
    x_points = np.column_stack([np.ones(x.size)] + [_evaluate(c, x, y) for c in covariates])
    x_int = np.column_stack([np.ones(quad.x.size)] + [_evaluate(c, quad.x, quad.y) for c in covariates])
    off_points = np.zeros(x.size) if offset is None else np.asarray(offset(x, y), dtype=np.float64)
    off_int = np.zeros(quad.x.size) if offset is None else np.asarray(offset(quad.x, quad.y), dtype=np.float64)
    for j, covariate in enumerate(covariates, start=1):
        _check_separation(covariate, x_points[:, j], x_int[:, j])
    design = LGCPDesign(mesh.projection(x, y), x_points, off_points, quad.proj, quad.weights, x_int, off_int, names)
    return design, _node_check(mesh, window, scheme, covariates, offset)


def _node_check(mesh, window: Window, scheme: str, covariates, offset) -> NodeCheck | None:
    """For the edge-midpoint rule, which misses the mesh nodes, a degree-3 rule that sees them
    (core.lgcp.NodeCheck); None for rules that include the nodes."""
    if scheme != "midpoint":
        return None
    check = quadrature(mesh, window, "cubic")
    return NodeCheck(
        check.proj,
        check.weights,
        np.column_stack([np.ones(check.x.size)] + [_evaluate(c, check.x, check.y) for c in covariates]),
        np.zeros(check.x.size) if offset is None else np.asarray(offset(check.x, check.y), dtype=np.float64),
    )


def isolated(x: np.ndarray, y: np.ndarray) -> int:
    """How many points lie far from the rest and stretch a window drawn around the points: those more than
    :data:`FAR` times the median distance from the points' (coordinate-wise) median, when they are at most
    :data:`MOST_ISOLATED` of the points (a far cluster is data) and leaving them out shrinks the points' extent
    (larger side) by more than half. One geocoding error 100 km away made the others a speck in a corner of the
    fitted window (the hyperparameter posterior then failed to peak, blaming the prior). A uniform pattern has
    no point beyond about twice the median distance."""
    if x.size < 3:
        return 0
    distance = np.hypot(x - np.median(x), y - np.median(y))
    typical = float(np.median(distance))
    far = distance > FAR * typical
    if typical <= 0 or not far.any() or far.sum() > MOST_ISOLATED * x.size:  # a far cluster is data, not error
        return 0

    def extent(keep):
        return max(float(np.ptp(x[keep])), float(np.ptp(y[keep])))

    return int(far.sum()) if 2 * extent(~far) < extent(np.ones(x.size, dtype=bool)) else 0


#: See :func:`isolated`: how far, in median distances from the centre, and at most what share of the points.
FAR = 10.0
MOST_ISOLATED = 0.1


def _check_separation(covariate: Covariate, at_points: np.ndarray, over_window: np.ndarray) -> None:
    """Refuse a covariate whose value at every point is at (or beyond) its smallest or largest value over the
    window's integration points: the likelihood then grows without bound as its coefficient goes to -inf (or
    +inf), like a perfectly separated logistic regression, and the fit collapses (a distance to a layer that
    holds the points themselves is 0 at every point: posterior mean coefficient -1.3e4, CPO overflowing)."""
    low, high = float(over_window.min()), float(over_window.max())
    # bilinear sampling of a constant raster rounds to within a few ulps of its value: compare with a tolerance
    tol = 1e-9 * max(high - low, abs(low), abs(high), 1e-300)
    if high - low <= tol:
        raise ParameterError(
            covariate.parameter,
            f"covariate '{covariate.name}' is constant over the window ({low:.6g}): it duplicates the intercept, so "
            "neither coefficient can be estimated; leave it out",
        )
    if at_points.max() <= low + tol or at_points.min() >= high - tol:
        raise ParameterError(
            covariate.parameter,
            f"covariate '{covariate.name}' takes its smallest or largest value over the window at every point "
            f"({at_points.min():.6g} to {at_points.max():.6g}, against {over_window.min():.6g} to "
            f"{over_window.max():.6g} over the window), so its coefficient would run off to infinity: use a "
            "covariate that varies among the points (a distance to the points' own layer is 0 at every point)",
        )


def _evaluate(covariate: Covariate, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    values = np.asarray(covariate.values(x, y), dtype=np.float64)
    if values.shape != x.shape or not np.all(np.isfinite(values)):
        raise ParameterError("covariates", f"covariate '{covariate.name}' is not finite at every location")
    return values
