"""The fit of Quick, Holan, Wikle & Reiter's marked point process (Section 2) on the SPDE LGCP engine.

* Categories (eq. 1): the observed combinations and their Dirichlet-multinomial (:mod:`.combinations`).
* Locations (eq. 2, Section 2.5): one LGCP is fitted to ALL points (core.lgcp_setup.fit_confidential, the fast
  Laplace posterior, with the user's window, mesh, covariates and offset); its posterior means of the
  hyperparameters give the shared ``theta_hat = (log range, log sigma)`` (core.synthesis.confidential_fit,
  ``ConfidentialFit.theta_hat``). Each combination with at least :data:`MIN_COMBINATION_POINTS` records gets its
  own LGCP ``log lambda_k = x' beta_k + w_k`` on the same mesh and integration design, fitted at ``theta_hat``
  (core.laplace_fit.fit_at_theta): independent surfaces with a shared range and variance, i.e. the paper's
  ``Cov(w) = Psi (x) C`` with ``Psi`` diagonal with a common variance, and the SPDE field instead of the
  paper's predictive-process knots (same model family; a finer approximation). Fixing the hyperparameters at
  the pooled fit is the paper's own shortcut (Section 2.5: phi fixed, per-combination fits).
* Combinations with fewer records borrow strength: their locations come from the pooled model's intensity draw
  (Section 2.5 recommends separate fits only when every n_k is large); :attr:`MarkedFit.borrowed` lists them so
  that the caller can warn.
* The numeric mark (eqs. 4-5): :mod:`.numeric`, with the pooled LGCP's posterior-mean range and each field
  constrained to average zero over the window (the integration weights of the pooled design).

Set l of the synthesis uses posterior draw l of every combination's ``(beta, w)`` (:mod:`.synthesis`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import ParameterError
from ..laplace_fit import fit_at_theta
from ..lgcp import BetaPrior, LGCPDesign, LGCPModel
from ..lgcp_setup import MIN_POINTS, Covariate, fit_confidential
from ..progress import Progress, report, scaled
from ..synthesis.confidential_fit import ConfidentialFit
from ..window import Window
from .combinations import Combinations
from .numeric import NumericFit, check_numeric, fit_numeric

#: A combination needs this many records for its own LGCP: the LGCP's minimum (core.lgcp_setup.MIN_POINTS);
#: below it a separate intensity surface is mostly prior, and the paper recommends borrowing strength instead.
MIN_COMBINATION_POINTS = MIN_POINTS
#: Most synthetic sets L (each needs one posterior draw per combination).
MAX_SETS = 1000


@dataclass
class MarkedFit:
    """The fitted marked point process: the combinations and each record's ``index``; the pooled LGCP
    (``pooled``, a ConfidentialFit: mesh, window, covariates at the nodes, ``theta_hat``); per combination its
    location posterior draws ``beta[k] (L, p)``, ``w[k] (L, nodes)`` (the pooled draws for a borrowed one); the
    numeric mark's fit, if any."""

    comb: Combinations
    index: np.ndarray
    pooled: ConfidentialFit
    beta: list
    w: list
    borrowed: list
    sets: int
    numeric: NumericFit | None = None
    failed: list = field(default_factory=list)  #: combinations whose own fit failed and that borrow as well
    notes: tuple = ()  #: the pooled fit's notes (core.lgcp_setup.FitNote)

    @property
    def theta_hat(self) -> np.ndarray:
        return self.pooled.theta_hat

    @property
    def window(self) -> Window:
        return self.pooled.window

    def eta_nodes(self, k: int, draw: int) -> np.ndarray:
        """Combination k's log-intensity at the mesh nodes for posterior draw ``draw`` (the exact sampler's)."""
        nc = self.pooled.node_covariates
        return nc.offset + nc.x @ self.beta[k][draw] + self.w[k][draw]

    def log_intensity(self, k: int, draw: int, proj, design, offset) -> np.ndarray:
        """Combination k's log-intensity at points with mesh projection ``proj``, covariates ``design`` (with the
        intercept column) and log offset ``offset`` (covariates at the points themselves, Section 3)."""
        return offset + design @ self.beta[k][draw] + proj @ self.w[k][draw]


def check_sets(sets) -> int:
    if isinstance(sets, bool) or int(sets) != sets or not 1 <= int(sets) <= MAX_SETS:
        raise ParameterError("sets", f"the number of synthetic sets must be a whole number from 1 to {MAX_SETS}")
    return int(sets)


def check_window_holds_combinations(comb: Combinations, index: np.ndarray, x, y, window: Window | None) -> None:
    """Refuse a window that holds no record of some combination (naming it and its count), before the general
    refusal of points outside the window."""
    if window is None:
        return
    inside = window.contains(x, y)
    for k in range(comb.k):
        if not inside[index == k].any():
            raise ParameterError(
                "window",
                f"combination {comb.label(k)} has no record inside the study window (all {int(comb.counts[k])} lie "
                "outside): give a window that holds every record (check both layers' CRS)",
            )


def combination_model(pooled: ConfidentialFit, x, y) -> LGCPModel:
    """The LGCP of one combination's points on the pooled model's mesh, integration design (the degree-3 rule
    that sees the nodes, ``ConfidentialFit.fit_model``), covariates and priors; the intercept's prior centred on
    ``log(n_k / area)`` (core.lgcp.BetaPrior.default)."""
    d = pooled.fit_model.design
    x_points, off = pooled.design_at(x, y, name="points")
    design = LGCPDesign(
        pooled.mesh.projection(x, y), x_points, off, d.int_proj, d.int_weights, d.x_int, d.offset_int, d.names
    )
    m = pooled.model
    return LGCPModel(design, m.spde, m.theta_prior, BetaPrior.default(design), mesh=pooled.mesh)


def fit_marked(
    x: np.ndarray,
    y: np.ndarray,
    comb: Combinations,
    index: np.ndarray,
    rng: np.random.Generator,
    sets: int,
    *,
    numeric=None,
    numeric_model: str = "normal",
    numeric_range: tuple[int, int] | None = None,
    window: Window | None = None,
    max_edge: float | None = None,
    covariates: tuple[Covariate, ...] = (),
    offset: Callable | None = None,
    on_note: Callable | None = None,
    progress: Progress = None,
) -> MarkedFit:
    """Fit the marked point process (module notes) with ``sets`` posterior draws per combination.

    Args:
        x, y: the confidential locations (projected); comb, index: :func:`.combinations.combinations`.
        rng: the generator of the posterior draws; sets: L.
        numeric: the numeric mark's values (or None); numeric_model: ``"normal"``, ``"truncated_poisson"`` or
            ``"log_normal"`` (values > 0); numeric_range: the truncated Poisson's PUBLIC support ``(lower, upper)``.
        window, max_edge, covariates, offset: as core.lgcp_setup.fit_confidential.
        on_note: called with each note of the pooled fit.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    index = np.asarray(index, dtype=np.int64)
    sets = check_sets(sets)
    if index.shape != x.shape or x.shape != y.shape or comb.n != x.size:
        raise ParameterError("points", "the locations and the combinations do not have the same records")
    values = None
    if numeric is not None:
        values, numeric_range = check_numeric(numeric, numeric_model, numeric_range)
        if values.shape != x.shape:
            raise ParameterError("numeric_field", "the numeric values do not match the records")
    check_window_holds_combinations(comb, index, x, y, window)
    report(progress, 0.0, "Fitting the LGCP of all points")
    fit = fit_confidential(
        x,
        y,
        rng,
        max(sets, 100),
        window=window,
        max_edge=max_edge,
        covariates=tuple(covariates),
        offset=offset,
        on_note=on_note,
        progress=scaled(progress, 0.0, 0.55),
    )
    pooled = ConfidentialFit(
        fit.setup.model, fit.posterior, fit.window, x, y, covariates, offset, draws=min(fit.posterior.n_draws, 200)
    )
    theta = pooled.theta_hat
    betas, ws, borrowed, failed = [], [], [], []
    pooled_beta, pooled_w = np.asarray(fit.posterior.beta)[:sets], np.asarray(fit.posterior.w)[:sets]
    fits_done = scaled(progress, 0.55, 0.85 if values is not None else 1.0)
    for k in range(comb.k):
        report(fits_done, k / comb.k, f"Fitting the LGCP of combination {comb.label(k)}")
        rows = index == k
        if int(rows.sum()) < MIN_COMBINATION_POINTS:
            borrowed.append(k)
            betas.append(pooled_beta)
            ws.append(pooled_w)
            continue
        model = combination_model(pooled, x[rows], y[rows])
        try:
            post = fit_at_theta(model, theta, rng, draws=sets, progress=scaled(fits_done, k / comb.k, (k + 1) / comb.k))
        except ParameterError as error:
            if error.parameter != "theta":
                raise
            failed.append(k)
            borrowed.append(k)
            betas.append(pooled_beta)
            ws.append(pooled_w)
            continue
        betas.append(np.asarray(post.beta))
        ws.append(np.asarray(post.w))
    numeric_fit = None
    if values is not None:
        design = pooled.fit_model.design  # the nodes' integrals over the window: the fields average zero there
        window_weights = np.asarray(design.int_proj.T @ design.int_weights).ravel()
        numeric_fit = fit_numeric(
            numeric_model,
            values,
            index,
            comb.k,
            pooled.model.spde,
            pooled.mesh,
            x,
            y,
            float(theta[0]),
            numeric_range,
            window_weights,
            progress=scaled(progress, 0.85, 1.0),
        )
    report(progress, 1.0, "Fitted")
    return MarkedFit(comb, index, pooled, betas, ws, borrowed, sets, numeric_fit, failed, fit.notes)


def field_summary(fit: MarkedFit) -> list[tuple[str, float]]:
    """The shared hyperparameters: effective range and the field's standard deviation at the pooled means."""
    log_range, log_sigma = fit.theta_hat
    return [("range", math.exp(log_range)), ("sigma", math.exp(log_sigma))]
