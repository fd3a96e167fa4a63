"""Disclosure risk of synthetic locations by conditional predictive ordinates (Walder, Hanks & Slavković,
Sections 4 and 7, Appendix A.3-A.4).

Intrusion scenario (Section 7.1): the intruder knows the synthetic data ``S^dagger``, the synthesis
method and every confidential location but ``s_k``, and wants ``s_k`` within a radius r. The risk of
person k is (eq. 16)

    R_k = P(s in B_r(s_k) ∩ W | S_-k, S^dagger) = int_{B_r(s_k) ∩ W} pi(s | S_-k, S^dagger) ds.

CPO (Section 4, eqs. 7 and 9): for any Cox process ``pi(s_k | S_-k, N) = 1 / E[int_W lambda / lambda(s_k) | S]``,
estimated from L posterior draws by the harmonic mean ``[(1/L) sum_l Lambda_l / lambda_l(s_k)]^-1``
(:func:`cpo`). Eq. (9) as printed omits the ``1/L``; with it the estimate is the density of s_k.

Densities in s, two readings (``method``):

* ``"exact"`` (default) and ``"paper"``, below. The exact reading estimates eq. (16)'s probability itself
  (tests/core/test_walder.py checks it against the intruder's leave-one-out posterior computed by brute
  force); the paper's reading differs from that probability (on John Snow its maximum risks are 1.4-1.6
  times the exact ones for ANS and PRS sets, 1.6-3.4 times for radial sets) and is kept to reproduce the paper.
* ``"paper"``: the CPO formula evaluated at every s, the paper's eqs. (17)-(18) for radial
  synthesis and (21) for ANS/PRS,

      f_k(s) = [(1/L) sum_l D_lk / lambda_l(s)]^-1,  D_lk = int_{B_rp(s_k^dagger) ∩ W} lambda_l  (radial)
                                                      D_lk = int_W lambda_l                    (ANS, PRS),

  restricted to its support (radial: the disc ``B_rp(s_k^dagger) ∩ W``, the indicator of eq. 32 that
  the paper drops because it is 1 at the true s_k; ANS/PRS: W) and normalised over it by the same
  quadrature (the paper says nothing about either). Without the restriction the radial risk of a
  homogeneous process would be ``|B_rr ∩ W| / |B_rp ∩ W|``, above 1 when ``rr > rp``. Without the
  normalisation the density would integrate to less than 1: by Jensen's inequality (a harmonic mean of
  normalised densities) ``int f_k <= 1``. The normaliser is returned: dividing by it makes ``f_k`` a
  density but inflates its value at ``s_k``, where the unnormalised ``f_k`` is exactly the CPO, by
  ``1 / normaliser``. For the John Snow fit (marginal variance of the field about 3) the normalisers
  were 0.13-0.57, and the maximum risks of the John Snow benchmark's 41 sets were 1.4-3.4 times the exact ones.
* ``"exact"``: the leave-one-out predictive density itself, from the same draws by importance
  weighting (the derivation of Appendix A.3 without plugging s into the CPO):
  ``pi(s | S_-k, S^dagger) = sum_l u_lk lambda_l(s) / D_lk`` on the support, with
  ``u_lk ∝ D_lk / lambda_l(s_k)``. It agrees with the paper's unnormalised density at ``s = s_k``
  (both equal the CPO), integrates to 1 by construction and is the quantity of eq. (16) up to Monte
  Carlo and quadrature error; it costs the same.

Linkage: for radial synthesis the paper's derivation (eqs. 32-34) conditions on which synthetic point
came from person k (``s_k^dagger``, index-linked here), although Section 7.2 says a linkage prior is
avoided; an intruder who does not know the linkage learns less, so the risk computed here is that of
an intruder who does.

Disc integrals use the quadrature of Appendix A.4 (:func:`disc_quadrature`): the change of variables
(eq. 36) to ``[-1, 1]^2`` and the midpoint rule on m x m squares (eq. 37), or a Gauss rule. Parts
outside the window (and outside a second disc) are cut away exactly along each row rather than by
zeroing nodes.

The draws are equally weighted posterior draws: of ``pi(lambda | S)`` for radial synthesis, of the
confidential intensity from the joint fit ``pi(lambda, lambda^dagger | S, S^dagger)`` for ANS and PRS
(Sections 7.3-7.4); :class:`IntensityDraws` evaluates them anywhere in the mesh.

Units: coordinates and radii in CRS units, intensities per squared unit, densities per squared unit,
risks are probabilities. Per-person risks are confidential (they point at the people at risk).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

from ..errors import ParameterError
from ..progress import Progress, report

RULES = ("midpoint", "gauss")
METHODS = ("paper", "exact")
#: Bound on the pairs (row, window edge) examined at once when cutting rows by the window.
_PAIR_CHUNK = 1 << 22
#: Target size of the largest ``(draws, disc nodes)`` array of the risk computations (doubles, 256 MB):
#: persons are taken in blocks small enough for it, down to one person (a risk radius far larger than the
#: mesh gives 200^2 nodes per disc, and 1,000 draws of 40 such discs took more than 24 GB).
_BLOCK = 1 << 25


# -- CPO (eqs. 7 and 9) ---------------------------------------------------------------------------


def log_cpo(log_lambda_at_points: np.ndarray, log_integral: np.ndarray) -> np.ndarray:
    """``log CPO_k = -log[(1/L) sum_l exp(log Lambda_l - log lambda_l(s_k))]`` (eq. 9 with its 1/L), stably.

    Args:
        log_lambda_at_points: ``(L, N)`` log-intensity draws at the N points.
        log_integral: ``(L,)`` log of ``int_W lambda_l``.

    Returns:
        ``(N,)`` log densities (log of 1/area units).
    """
    log_lam = np.atleast_2d(np.asarray(log_lambda_at_points, dtype=np.float64))
    log_int = np.asarray(log_integral, dtype=np.float64).reshape(-1, 1)
    if log_int.shape[0] != log_lam.shape[0]:
        raise ParameterError("draws", "the intensities and integrals have different numbers of draws")
    return -_logmeanexp(log_int - log_lam, axis=0)


def cpo_effective_draws(log_lambda_at_points: np.ndarray, log_integral: np.ndarray) -> np.ndarray:
    """``(N,)`` effective number of draws ``1 / sum_l u_lk^2`` behind each harmonic-mean CPO estimate, with
    ``u_lk ∝ Lambda_l / lambda_l(s_k)`` the estimator's self-normalised weights (arguments as :func:`log_cpo`).
    Below about 20 the estimate rests on a few draws."""
    log_lam = np.atleast_2d(np.asarray(log_lambda_at_points, dtype=np.float64))
    log_int = np.asarray(log_integral, dtype=np.float64).reshape(-1, 1)
    return _ess(log_int - log_lam)


def posterior_cpo(posterior, design) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CPO (eqs. 7 and 9), log CPO and effective draws (:func:`cpo_effective_draws`) of every point of a fit.

    Args:
        posterior: a :class:`core.lgcp.Posterior` (its draws of the linear predictor and of ``int_W lambda``).
        design: the fit's :class:`core.lgcp.LGCPDesign` (projection, covariates and offset at the points).
    """
    log_at = posterior.linear_predictor(design.proj, design.x_points, design.offset_points)  # (L, N)
    log_int = np.log(posterior.integrated_intensity())
    values = log_cpo(log_at, log_int)
    return np.exp(values), values, cpo_effective_draws(log_at, log_int)


def cpo(lambda_at_points: np.ndarray, integral: np.ndarray) -> np.ndarray:
    """CPO of each point (eqs. 7 and 9): ``[(1/L) sum_l Lambda_l / lambda_l(s_k)]^-1``.

    Args:
        lambda_at_points: ``(L, N)`` intensity draws at the N points (> 0).
        integral: ``(L,)`` draws of ``int_W lambda`` (same draws).

    Returns:
        ``(N,)`` leave-one-out densities of the points (1/area units).
    """
    with np.errstate(divide="ignore"):
        return np.exp(log_cpo(np.log(lambda_at_points), np.log(integral)))


def _logmeanexp(a: np.ndarray, axis: int = 0) -> np.ndarray:
    return logsumexp(a, axis=axis) - math.log(a.shape[axis])


# -- posterior draws of the intensity at arbitrary points -----------------------------------------


class IntensityDraws:
    """L posterior draws of an LGCP intensity (Walder eq. 2-3), evaluable at any points of the mesh.

    ``log lambda_l(s) = log pd(s) + x(s)' beta_l + sum_i phi_i(s) w_li`` with the covariates evaluated
    at s itself (``core.lgcp_setup.Covariate``) and the field interpolated by ``mesh.projection``.
    The window integrals ``Lambda_l = int_W lambda_l`` use the fit's own integration points.

    Args:
        mesh: the :class:`core.mesh.Mesh`.
        beta: ``(L, p)`` coefficient draws (column 0 the intercept); w: ``(L, n)`` mesh weights.
        covariates: the p - 1 covariates; offset: ``(x, y) -> log pd`` or None.
        int_proj, int_weights, x_int, offset_int: the fit's integration design (``Posterior`` fields).
    """

    def __init__(
        self,
        mesh,
        beta: np.ndarray,
        w: np.ndarray,
        covariates=(),
        offset: Callable | None = None,
        int_proj=None,
        int_weights: np.ndarray | None = None,
        x_int: np.ndarray | None = None,
        offset_int: np.ndarray | None = None,
    ):
        self.mesh = mesh
        self.beta = np.atleast_2d(np.asarray(beta, dtype=np.float64))
        self.w = np.atleast_2d(np.asarray(w, dtype=np.float64))
        self.covariates = tuple(covariates)
        self.offset = offset
        if self.beta.shape[0] != self.w.shape[0]:
            raise ParameterError("draws", "beta and w have different numbers of draws")
        if self.w.shape[1] != mesh.n_nodes:
            raise ParameterError("model", "the draws and the mesh have different numbers of nodes")
        if self.beta.shape[1] != len(self.covariates) + 1:
            raise ParameterError(
                "covariates", f"the draws have {self.beta.shape[1] - 1} covariates, got {len(self.covariates)}"
            )
        self.int_proj = None if int_proj is None else sp.csr_matrix(int_proj)
        self.int_weights = None if int_weights is None else np.asarray(int_weights, dtype=np.float64)
        self.x_int = None if x_int is None else np.asarray(x_int, dtype=np.float64)
        self.offset_int = None if offset_int is None else np.asarray(offset_int, dtype=np.float64)

    @classmethod
    def from_posterior(
        cls, posterior, covariates=(), offset: Callable | None = None, mesh=None, draws=None
    ) -> IntensityDraws:
        """From a :class:`core.lgcp.Posterior`; ``covariates`` (``core.lgcp_setup.Covariate``) and ``offset``
        must be the functions the model was built with (the names are checked against ``posterior.names``).

        Args:
            mesh: the fit's mesh; default: rebuilt from ``posterior.nodes`` and ``triangles``.
            draws: None (all), a count (evenly spaced draws) or an index array.
        """
        names = tuple(c.name for c in covariates)
        if names != tuple(posterior.names[1:]):
            raise ParameterError("covariates", f"the fit's covariates are {posterior.names[1:]}, got {names}")
        if offset is None and np.any(np.asarray(posterior.offset_int) != 0):
            raise ParameterError("offset", "the model was fitted with an offset: give the same offset function")
        if mesh is None:
            from ..mesh import Mesh

            mesh = Mesh(posterior.nodes, posterior.triangles)
        total = posterior.beta.shape[0]
        if draws is None:
            index = np.arange(total)
        elif np.isscalar(draws):
            if not 1 <= int(draws) <= total:
                raise ParameterError("draws", f"the number of draws must lie in [1, {total}], got {draws!r}")
            index = np.unique(np.round(np.linspace(0, total - 1, int(draws))).astype(np.int64))
        else:
            index = np.asarray(draws, dtype=np.int64)
        return cls(
            mesh,
            posterior.beta[index],
            posterior.w[index],
            covariates,
            offset,
            posterior.int_proj,
            posterior.int_weights,
            posterior.x_int,
            posterior.offset_int,
        )

    @property
    def n_draws(self) -> int:
        return int(self.beta.shape[0])

    def log_intensity(self, x, y) -> np.ndarray:
        """``(L, k)`` draws of ``log lambda`` at k points (which must lie in the mesh)."""
        x = np.asarray(x, dtype=np.float64).ravel()
        y = np.asarray(y, dtype=np.float64).ravel()
        eta = np.asarray(self.mesh.projection(x, y) @ self.w.T)  # (k, L)
        eta += self.beta[:, 0]
        for j, c in enumerate(self.covariates, start=1):
            values = np.asarray(c.values(x, y), dtype=np.float64)
            if not np.all(np.isfinite(values)):
                raise ParameterError(c.name, f"covariate {c.name!r} is not finite at some points")
            eta += values[:, None] * self.beta[:, j]
        if self.offset is not None:
            off = np.asarray(self.offset(x, y), dtype=np.float64)
            if not np.all(np.isfinite(off)):
                raise ParameterError("offset", "the offset is not finite at some points")
            eta += off[:, None]
        return eta.T

    def window_log_intensity(self) -> np.ndarray:
        """``(L, K)`` log-intensity draws at the fit's K integration points (weights :attr:`int_weights`)."""
        if self.int_proj is None:
            raise ParameterError("model", "these draws carry no integration design for the window")
        return self.offset_int[None, :] + self.beta @ self.x_int.T + np.asarray(self.int_proj @ self.w.T).T

    @cached_property
    def log_integrals(self) -> np.ndarray:
        """``(L,)`` ``log int_W lambda_l`` by the fit's quadrature (Walder eq. 30)."""
        with np.errstate(divide="ignore"):
            return logsumexp(self.window_log_intensity() + np.log(self.int_weights), axis=1)


# -- quadrature over discs (Appendix A.4) ---------------------------------------------------------


@dataclass(frozen=True)
class DiscQuadrature:
    """Nodes and weights for integrals over D regions (discs, possibly cut by a window or a second disc).

    Attributes:
        x, y: ``(K,)`` node coordinates; weights: ``(K,)`` weights (squared units);
        owner: ``(K,)`` index of the region each node belongs to; n_discs: D.
    """

    x: np.ndarray
    y: np.ndarray
    weights: np.ndarray
    owner: np.ndarray
    n_discs: int

    @cached_property
    def _matrix(self) -> sp.csr_matrix:
        k = self.x.size
        return sp.csr_matrix((self.weights, (np.arange(k), self.owner)), shape=(k, self.n_discs))

    def integrate(self, values: np.ndarray) -> np.ndarray:
        """``(..., D)`` integrals of ``values`` ``(..., K)`` given at the nodes."""
        values = np.asarray(values, dtype=np.float64)
        flat = values.reshape(-1, values.shape[-1])
        return np.asarray(self._matrix.T @ flat.T).T.reshape(values.shape[:-1] + (self.n_discs,))

    def log_integrate(self, log_values: np.ndarray) -> np.ndarray:
        """``(L, D)`` logs of the integrals of ``exp(log_values)`` ``(L, K)``, shifted per row against overflow
        (an empty region gives ``-inf``)."""
        log_values = np.atleast_2d(np.asarray(log_values, dtype=np.float64))
        if log_values.shape[1] == 0:
            return np.full((log_values.shape[0], self.n_discs), -np.inf)
        shift = np.max(log_values, axis=1, keepdims=True)
        shift = np.where(np.isfinite(shift), shift, 0.0)
        with np.errstate(divide="ignore"):
            return np.log(self.integrate(np.exp(log_values - shift))) + shift


def disc_quadrature(cx, cy, radius, m: int = 20, window=None, within=None, rule: str = "midpoint") -> DiscQuadrature:
    """Quadrature over discs ``B_r(c_d)`` (Walder Appendix A.4), optionally cut by a window and a second disc.

    ``rule="midpoint"`` is the paper's: with ``ỹ = (y - y_c) / r`` and ``x̃ = (x - x_c) / g(y)``,
    ``g(y) = sqrt(r^2 - (y - y_c)^2)``, the disc becomes ``[-1, 1]^2`` with Jacobian ``r g`` (eq. 36),
    and the integral is the sum over the centres of ``M = m^2`` equal squares of area ``A_xy = 4 / M``
    (eq. 37): m rows and m nodes per row. Its error decreases like ``m^-1.5`` (the row integrals have
    square-root ends), or like ``1 / m`` where a cut puts a jump into the row integrals (a window edge
    parallel to the rows inside the window's bounding box, e.g. the edge of a hole). When the disc is
    cut by the window's bounding box or by the second disc, the m rows are spread evenly over the
    heights they share instead (so a disc much larger than the window still gets m rows in it);
    for a disc inside them this is exactly eq. (37).

    ``rule="gauss"``: rows at Gauss-Legendre nodes in ``phi`` with ``y = y_c + r sin(phi)`` (which makes
    the disc's own ends smooth), on separate pieces between the heights where the cut region changes
    shape (window vertices inside the disc, crossings of window edges with the circles, the second
    disc's top and bottom and its crossings with the first); Gauss-Legendre along each row. It
    integrates smooth functions over a disc to machine precision with m of 10-20 and keeps high order
    on cut discs.

    Cutting (both rules): each row's chord ``[x_c - g, x_c + g]`` is intersected with the window's
    intervals on that row (even-odd rule over all rings, so holes are honoured) and with the chord of
    ``within``'s disc, and the x-rule is applied to every remaining interval; so ``B_r ∩ W`` is
    integrated without the bias of zeroing nodes outside.

    Args:
        cx, cy: ``(D,)`` centres; radius: scalar or ``(D,)`` radii (> 0), CRS units.
        m: rows (per piece for ``"gauss"``) and nodes per row.
        window: optional :class:`core.window.Window` to cut by.
        within: optional ``(cx2, cy2, r2)`` second discs (broadcast to D) to intersect with.
        rule: ``"midpoint"`` (the paper's) or ``"gauss"``.
    """
    cx = np.atleast_1d(np.asarray(cx, dtype=np.float64)).ravel()
    cy = np.atleast_1d(np.asarray(cy, dtype=np.float64)).ravel()
    d_count = cx.size
    r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (d_count,))
    if cy.shape != cx.shape:
        raise ParameterError("points", "x and y must have the same length")
    if not (np.all(np.isfinite(r)) and np.all(r > 0)):
        raise ParameterError("radius", "radii must be finite and > 0")
    if isinstance(m, bool) or int(m) != m or m < 1:
        raise ParameterError("m", f"m must be an integer >= 1, got {m!r}")
    if rule not in RULES:
        raise ParameterError("rule", f"unknown quadrature rule {rule!r}; use one of {RULES}")
    m = int(m)
    second = None
    if within is not None:
        second = tuple(np.broadcast_to(np.asarray(v, dtype=np.float64), (d_count,)) for v in within)
    ylo, yhi = _row_range(cy, r, window, second)
    if rule == "midpoint":  # eq. (37): centres of m x m equal squares of [-1, 1]^2 (rows within the range)
        tx = -1.0 + (2.0 * np.arange(m) + 1.0) / m
        wx = np.full(m, 2.0 / m)
        disc = np.repeat(np.flatnonzero(yhi > ylo), m)
        span = (yhi - ylo)[disc]
        yrow = ylo[disc] + span * 0.5 * (np.tile(tx, disc.size // m) + 1.0)
        half = np.sqrt(np.maximum(r[disc] ** 2 - (yrow - cy[disc]) ** 2, 0.0))
        row_weight = span / m
    else:
        tx, wx = np.polynomial.legendre.leggauss(m)
        disc, lo_phi, hi_phi = _pieces(cx, cy, r, window, second, ylo, yhi)
        mid, half_phi = 0.5 * (lo_phi + hi_phi), 0.5 * (hi_phi - lo_phi)
        phi = (mid[:, None] + half_phi[:, None] * tx[None, :]).ravel()
        disc = np.repeat(disc, m)
        yrow = cy[disc] + r[disc] * np.sin(phi)
        half = r[disc] * np.cos(phi)
        row_weight = (r[disc] * np.cos(phi)) * (half_phi[:, None] * wx[None, :]).ravel()
    lo, hi = cx[disc] - half, cx[disc] + half
    if second is not None:
        c2x, c2y, r2 = second
        dy = yrow - c2y[disc]
        half2 = np.sqrt(np.maximum(r2[disc] ** 2 - dy * dy, 0.0))
        lo = np.maximum(lo, c2x[disc] - half2)
        hi = np.minimum(hi, c2x[disc] + half2)
    if window is not None:
        row, a, b = _window_intervals(window, yrow)
        lo, hi = np.maximum(lo[row], a), np.minimum(hi[row], b)
    else:
        row = np.arange(yrow.size)
    keep = hi > lo
    row, lo, hi = row[keep], lo[keep], hi[keep]
    mid_x, half_len = 0.5 * (lo + hi), 0.5 * (hi - lo)
    x = (mid_x[:, None] + half_len[:, None] * tx[None, :]).ravel()
    w = (row_weight[row, None] * half_len[:, None] * wx[None, :]).ravel()
    y = np.repeat(yrow[row], m)
    owner = np.repeat(disc[row], m)
    return DiscQuadrature(x, y, w, owner, d_count)


def _row_range(cy, r, window, second) -> tuple[np.ndarray, np.ndarray]:
    """Heights the rows of each disc span: the disc's, within the window's bounding box and the second disc."""
    ylo, yhi = cy - r, cy + r
    if window is not None:
        _, wy0, _, wy1 = window.bounds
        ylo, yhi = np.maximum(ylo, wy0), np.minimum(yhi, wy1)
    if second is not None:
        _, c2y, r2 = second
        ylo, yhi = np.maximum(ylo, c2y - r2), np.minimum(yhi, c2y + r2)
    return ylo, yhi


def _pieces(cx, cy, r, window, second, ylo, yhi) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pieces ``[phi_a, phi_b]`` of the rows' range per disc (``y = cy + r sin(phi)``), split at the heights
    where the cut region changes shape: ``(disc, phi_a, phi_b)``."""
    d_count = cx.size
    owners, levels = [np.arange(d_count)] * 3, [cy, ylo, yhi]
    circles = [(cx, cy, r)]
    if second is not None:
        c2x, c2y, r2 = second
        circles.append((c2x, c2y, r2))
        for sign in (-1.0, 1.0):
            owners.append(np.arange(d_count))
            levels.append(c2y + sign * r2)
        i, yy = _circle_circle_levels(cx, cy, r, c2x, c2y, r2)
        owners.append(i)
        levels.append(yy)
    if window is not None:
        a = np.concatenate(window.rings)
        b = np.concatenate([np.roll(ring, -1, axis=0) for ring in window.rings])
        i, v = _pairs_near(cx, cy, r, a[:, 0], a[:, 1], a[:, 0], a[:, 1])
        owners.append(i)
        levels.append(a[v, 1])
        for ccx, ccy, cr in circles:
            i, yy = _edge_circle_levels(ccx, ccy, cr, a[:, 0], a[:, 1], b[:, 0], b[:, 1])
            owners.append(i)
            levels.append(yy)
    owner, level = np.concatenate(owners), np.concatenate(levels)
    s = np.clip((level - cy[owner]) / r[owner], -1.0, 1.0)
    phi = np.arcsin(s)
    inner = np.abs(phi) < 0.5 * math.pi * (1 - 1e-12)
    owner = np.concatenate([owner[inner], np.arange(d_count), np.arange(d_count)])
    phi = np.concatenate([phi[inner], np.full(d_count, -0.5 * math.pi), np.full(d_count, 0.5 * math.pi)])
    order = np.lexsort((phi, owner))
    owner, phi = owner[order], phi[order]
    same = owner[1:] == owner[:-1]
    lo, hi = phi[:-1][same], phi[1:][same]
    disc = owner[:-1][same]
    y_mid = cy[disc] + r[disc] * np.sin(0.5 * (lo + hi))
    keep = (hi - lo > 1e-12) & (y_mid > ylo[disc]) & (y_mid < yhi[disc])
    return disc[keep], lo[keep], hi[keep]


def _pairs_near(cx, cy, r, ax, ay, bx, by) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (disc, segment) whose bounding boxes overlap, chunked over discs."""
    sx0, sx1 = np.minimum(ax, bx), np.maximum(ax, bx)
    sy0, sy1 = np.minimum(ay, by), np.maximum(ay, by)
    per_chunk = max(1, _PAIR_CHUNK // max(ax.size, 1))
    discs, segs = [], []
    for start in range(0, cx.size, per_chunk):
        d = slice(start, start + per_chunk)
        near = (
            (sx1[None, :] >= (cx[d] - r[d])[:, None])
            & (sx0[None, :] <= (cx[d] + r[d])[:, None])
            & (sy1[None, :] >= (cy[d] - r[d])[:, None])
            & (sy0[None, :] <= (cy[d] + r[d])[:, None])
        )
        i, j = np.nonzero(near)
        discs.append(i + start)
        segs.append(j)
    return np.concatenate(discs), np.concatenate(segs)


def _edge_circle_levels(ccx, ccy, cr, ax, ay, bx, by) -> tuple[np.ndarray, np.ndarray]:
    """Heights where window edges (segments a -> b) cross the circles ``(ccx, ccy, cr)``: ``(circle, y)``."""
    i, e = _pairs_near(ccx, ccy, cr, ax, ay, bx, by)
    dx, dy = bx[e] - ax[e], by[e] - ay[e]
    fx, fy = ax[e] - ccx[i], ay[e] - ccy[i]
    qa = dx * dx + dy * dy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - cr[i] ** 2
    disc = qb * qb - 4 * qa * qc
    ok = (disc >= 0) & (qa > 0)
    root = np.sqrt(np.where(ok, disc, 0.0))
    out_i, out_y = [], []
    for sign in (-1.0, 1.0):
        t = (-qb + sign * root) / (2 * np.where(qa > 0, qa, 1.0))
        hit = ok & (t >= 0) & (t <= 1)
        out_i.append(i[hit])
        out_y.append(ay[e][hit] + t[hit] * dy[hit])
    return np.concatenate(out_i), np.concatenate(out_y)


def _circle_circle_levels(c1x, c1y, r1, c2x, c2y, r2) -> tuple[np.ndarray, np.ndarray]:
    """Heights of the crossings of circle 1 and circle 2 (same index)."""
    d = np.hypot(c2x - c1x, c2y - c1y)
    ok = (d > np.abs(r1 - r2)) & (d < r1 + r2) & (d > 0)
    idx = np.flatnonzero(ok)
    d, ux, uy = d[idx], (c2x - c1x)[idx], (c2y - c1y)[idx]
    a = (r1[idx] ** 2 - r2[idx] ** 2 + d * d) / (2 * d)
    h = np.sqrt(np.maximum(r1[idx] ** 2 - a * a, 0.0))
    base_y = c1y[idx] + a * uy / d
    return np.concatenate([idx, idx]), np.concatenate([base_y + h * ux / d, base_y - h * ux / d])


def _window_intervals(window, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The window's intervals on horizontal lines: ``(row, x_lo, x_hi)`` for each interval of each line.

    Crossings of each line with the ring edges (half-open in y, so a line through a vertex is counted
    once) are sorted along the line; by the even-odd rule they alternate entering and leaving."""
    a = np.concatenate(window.rings)
    b = np.concatenate([np.roll(ring, -1, axis=0) for ring in window.rings])
    sloped = a[:, 1] != b[:, 1]
    ax, ay, bx, by = a[sloped, 0], a[sloped, 1], b[sloped, 0], b[sloped, 1]
    elo, ehi = np.minimum(ay, by), np.maximum(ay, by)
    order = np.argsort(y, kind="stable")
    per_chunk = max(1, _PAIR_CHUNK // max(ax.size, 1))
    rows, xs = [], []
    for start in range(0, y.size, per_chunk):
        part = order[start : start + per_chunk]
        yp = y[part]
        cand = np.flatnonzero((ehi >= yp.min()) & (elo <= yp.max()))
        if cand.size == 0:
            continue
        straddle = (ay[cand][None, :] > yp[:, None]) != (by[cand][None, :] > yp[:, None])
        i, j = np.nonzero(straddle)
        e = cand[j]
        rows.append(part[i])
        xs.append(ax[e] + (yp[i] - ay[e]) * (bx[e] - ax[e]) / (by[e] - ay[e]))
    if not rows:
        empty = np.zeros(0)
        return np.zeros(0, dtype=np.int64), empty, empty
    rows_all, xs_all = np.concatenate(rows), np.concatenate(xs)
    sort = np.lexsort((xs_all, rows_all))
    rows_all, xs_all = rows_all[sort], xs_all[sort]
    return rows_all[0::2], xs_all[0::2], xs_all[1::2]


# -- disclosure risk (eqs. 16-18 and 21) ----------------------------------------------------------


@dataclass(frozen=True)
class DisclosureRisk:
    """Per-person disclosure risk (eq. 16). Confidential: it points at the people at risk.

    Attributes:
        risk: ``(N,)`` probability that the intruder's leave-one-out density puts person k within the
            risk radius of the truth.
        cpo: ``(N,)`` the leave-one-out density at the true location (eq. 18 or 21 at ``s = s_k``),
            per squared unit.
        normaliser: ``(N,)`` integral of the unnormalised ``"paper"`` density over its support (<= 1 by
            Jensen's inequality up to quadrature error); ones for ``"exact"``.
        method: ``"paper"`` or ``"exact"``.
        ess: ``(N,)`` effective sample size ``1 / sum_l u_lk^2`` of the leave-one-out importance weights
            ``u_lk ∝ D_lk / lambda_l(s_k)`` behind the CPO (both methods): a small value (say below 20)
            means the estimate rests on a few draws, the known weakness of harmonic-mean estimators.
        details: radii, rows per disc and rule.
    """

    risk: np.ndarray
    cpo: np.ndarray
    normaliser: np.ndarray
    method: str
    ess: np.ndarray
    details: dict = field(default_factory=dict)

    @property
    def maximum(self) -> float:
        """The maximum individual risk (the paper's summary, Section 8)."""
        return float(np.max(self.risk))

    @property
    def argmax(self) -> int:
        return int(np.argmax(self.risk))


def default_m(mesh, radius: float, least: int = 20, most: int = 200) -> int:
    """Rows per disc: the paper's 20, or enough for rows about half a mesh edge apart, since the
    intensity varies on the scale of the mesh (``ceil(4 r / h)`` with h the median edge length)."""
    edge = float(np.median(mesh.edge_lengths))
    return int(min(most, max(least, math.ceil(4.0 * radius / edge))))


def _persons_per_block(chunk: int, n_draws: int, m: int) -> int:
    """``chunk``, lowered so that one block's ``(L, m^2 chunk)`` arrays stay within :data:`_BLOCK` doubles."""
    return int(max(1, min(int(chunk), _BLOCK // max(1, n_draws * m * m))))


def _check_points(x, y, name: str) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape or x.size == 0:
        raise ParameterError(name, "x and y must be non-empty and of the same length")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ParameterError(name, "coordinates contain NaN or infinite values")
    return x, y


def _check_radius(value, name: str) -> float:
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ParameterError(name, f"{name} must be a finite number > 0, got {value!r}")
    return value


def _check_method(method: str) -> None:
    if method not in METHODS:
        raise ParameterError("method", f"unknown method {method!r}; use one of {METHODS}")


def _ess(log_weights: np.ndarray) -> np.ndarray:
    """Effective sample size of self-normalised weights ``exp(log_weights)`` over axis 0."""
    u = np.exp(log_weights - logsumexp(log_weights, axis=0))
    return 1.0 / np.sum(u * u, axis=0)


def _softmax_mean(log_weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``sum_l softmax_l(log_weights) * values`` over axis 0."""
    return np.sum(np.exp(log_weights - logsumexp(log_weights, axis=0)) * values, axis=0)


def radial_risk(
    draws: IntensityDraws,
    x,
    y,
    x_syn,
    y_syn,
    perturb_radius: float,
    risk_radius: float,
    window,
    m: int | None = None,
    rule: str = "midpoint",
    method: str = "exact",
    chunk: int = 32,
    progress: Progress = None,
    kept_inside: bool = True,
) -> DisclosureRisk:
    """Disclosure risk of radial synthesis (Walder Section 7.2, eqs. 16-18, Appendix A.3).

    Person k's synthetic point ``s_k^dagger`` (same index) was drawn uniformly on ``B_rp(s_k)``, so the
    intruder's leave-one-out density of s_k lives on ``B_rp(s_k^dagger) ∩ W``; the risk is its mass on
    ``B_rr(s_k)`` (see the module notes for the two readings of eq. 17 and the linkage assumption).

    ``kept_inside`` (the default, as :func:`..synthesis.risk_utility.synthesize` draws them): the synthetic
    point was drawn uniformly on ``B_rp(s_k) ∩ W`` (redrawn until inside), with density ``1 / a(s_k)``,
    ``a(u) = |B_rp(u) ∩ W|``, instead of the paper's ``1 / (pi rp^2)``. Appendix A.3's derivation then goes
    through with ``lambda(u) / a(u)`` in place of ``lambda(u)`` in eqs. (17)-(18) (eq. 33's integral over
    ``s_k`` carries the factor), so that is what is integrated; away from the boundary ``a`` is constant and
    cancels. Near it the paper's formula understates the risk (by 1.9x at a corner of a square). ``False``:
    the paper's unclipped mechanism.

    Args:
        draws: L draws from ``pi(lambda | S)`` of the confidential fit (the synthetic data carry no further
            information about lambda under radial synthesis).
        x, y: the confidential points s_k; x_syn, y_syn: their radially perturbed points (index-linked).
        perturb_radius: the perturbation radius rp; risk_radius: the intruder's radius rr (CRS units).
        window: the study window W.
        m: quadrature rows and nodes per row (``M = m^2`` nodes per disc, eq. 37); default (None): the
            paper's 20, or more where a disc is large for the mesh (see :func:`default_m`).
        rule: ``"midpoint"`` (eq. 37) or ``"gauss"``; method: ``"paper"`` or ``"exact"``.
        chunk: persons per block (memory ``~ 2 L m^2 chunk`` doubles); lowered so that a block's largest
            ``(L, nodes)`` array stays under :data:`_BLOCK` doubles where one person allows it.
        progress: optional ``progress(fraction, message)``.
    """
    x, y = _check_points(x, y, "points")
    xs, ys = _check_points(x_syn, y_syn, "synthetic points")
    if xs.size != x.size:
        raise ParameterError("synthetic points", "radial synthesis gives one synthetic point per person")
    rp, rr = _check_radius(perturb_radius, "perturb_radius"), _check_radius(risk_radius, "risk_radius")
    _check_method(method)
    far = np.hypot(x - xs, y - ys) > rp * (1 + 1e-9)
    if far.any():
        raise ParameterError("perturb_radius", f"{int(far.sum())} synthetic points lie farther than rp from theirs")
    m_support = default_m(draws.mesh, rp) if m is None else m
    m_lens = default_m(draws.mesh, min(rp, rr)) if m is None else m
    n = x.size
    n_draws = draws.beta.shape[0]
    step = _persons_per_block(chunk, n_draws, max(m_support, m_lens))
    risk, dens, norm, ess = np.empty(n), np.empty(n), np.ones(n), np.empty(n)

    def log_area(u, v):  # log a(u) of the kept-inside mechanism (a constant cancels: 0 for the paper's)
        if not kept_inside:
            return 0.0
        return np.log(np.maximum(window.disc_area(u, v, rp), 1e-300))

    start = 0
    while start < n:
        report(progress, start / n, "Disclosure risk of radial synthesis")
        k = slice(start, min(n, start + step))
        support = disc_quadrature(xs[k], ys[k], rp, m_support, window, rule=rule)
        if rr <= rp:
            lens = disc_quadrature(x[k], y[k], rr, m_lens, window, within=(xs[k], ys[k], rp), rule=rule)
        else:
            lens = disc_quadrature(xs[k], ys[k], rp, m_lens, window, within=(x[k], y[k], rr), rule=rule)
        if step > 1 and n_draws * max(support.x.size, lens.x.size) > _BLOCK:
            step //= 2  # a window of many parts puts m nodes on each part of a row: fewer persons per block
            continue
        start = k.stop
        log_sup = draws.log_intensity(support.x, support.y) - log_area(support.x, support.y)
        log_d = support.log_integrate(log_sup)  # (L, D): log int_{B_rp(s^dagger) ∩ W} lambda_l / a
        log_at = draws.log_intensity(x[k], y[k]) - log_area(x[k], y[k])
        dens[k] = np.exp(-_logmeanexp(log_d - log_at, axis=0))
        ess[k] = _ess(log_d - log_at)
        log_lens = draws.log_intensity(lens.x, lens.y) - log_area(lens.x, lens.y)
        if method == "exact":
            log_j = lens.log_integrate(log_lens)
            risk[k] = _softmax_mean(log_d - log_at, np.exp(log_j - log_d))
        else:
            f_sup = np.exp(-_logmeanexp(log_d[:, support.owner] - log_sup, axis=0))
            f_lens = np.exp(-_logmeanexp(log_d[:, lens.owner] - log_lens, axis=0))
            z = support.integrate(f_sup)
            norm[k] = z
            risk[k] = lens.integrate(f_lens) / z
    report(progress, 1.0, "Disclosure risk of radial synthesis")
    details = {
        "perturb_radius": rp,
        "risk_radius": rr,
        "m": (m_support, m_lens),
        "rule": rule,
        "kept_inside": kept_inside,
    }
    risk = np.minimum(risk, 1.0)  # a probability: quadrature error can lift a disc covering the window above 1
    return DisclosureRisk(risk, dens, norm, method, ess, details)


def synthesis_risk(
    draws: IntensityDraws,
    x,
    y,
    risk_radius: float,
    window,
    m: int | None = None,
    rule: str = "midpoint",
    method: str = "exact",
    chunk: int = 64,
    progress: Progress = None,
) -> DisclosureRisk:
    """Disclosure risk of ANS and PRS (Walder Sections 7.3-7.4, eqs. 16 and 21).

    The CPO density ``f(s) = [(1/L) sum_l Lambda_l / lambda_l(s)]^-1`` of eq. (21) (``"paper"``:
    normalised over W with the fit's integration points) or the exact leave-one-out density
    (``"exact"``), integrated over ``B_rr(s_k) ∩ W`` by the quadrature of Appendix A.4.

    Args:
        draws: L draws of the confidential intensity lambda from the joint fit ``pi(lambda, lambda^dagger |
            S, S^dagger)`` (building that fit is the caller's business); they must carry the window
            integration design (:meth:`IntensityDraws.from_posterior` does).
        x, y: the confidential points; risk_radius: rr (CRS units); window: W.
        m, rule, method, chunk, progress: as in :func:`radial_risk`.
    """
    x, y = _check_points(x, y, "points")
    rr = _check_radius(risk_radius, "risk_radius")
    _check_method(method)
    m = default_m(draws.mesh, rr) if m is None else m
    log_int = draws.log_integrals[:, None]  # (L, 1)
    n = x.size
    n_draws = draws.beta.shape[0]
    step = _persons_per_block(chunk, n_draws, m)
    risk, dens, ess = np.empty(n), np.empty(n), np.empty(n)
    z = 1.0
    if method == "paper":
        f_window = np.exp(-_logmeanexp(log_int - draws.window_log_intensity(), axis=0))
        z = float(f_window @ draws.int_weights)
    start = 0
    while start < n:
        report(progress, start / n, "Disclosure risk of the synthetic data")
        k = slice(start, min(n, start + step))
        disc = disc_quadrature(x[k], y[k], rr, m, window, rule=rule)
        if step > 1 and n_draws * disc.x.size > _BLOCK:
            step //= 2  # a window of many parts puts m nodes on each part of a row: fewer persons per block
            continue
        start = k.stop
        log_disc = draws.log_intensity(disc.x, disc.y)
        log_at = draws.log_intensity(x[k], y[k])
        dens[k] = np.exp(-_logmeanexp(log_int - log_at, axis=0))
        ess[k] = _ess(log_int - log_at)
        if method == "exact":
            log_j = disc.log_integrate(log_disc)
            risk[k] = _softmax_mean(log_int - log_at, np.exp(log_j - log_int))
        else:
            risk[k] = disc.integrate(np.exp(-_logmeanexp(log_int - log_disc, axis=0))) / z
    report(progress, 1.0, "Disclosure risk of the synthetic data")
    risk = np.minimum(risk, 1.0)  # a probability: quadrature error can lift a disc covering the window above 1
    return DisclosureRisk(risk, dens, np.full(n, z), method, ess, {"risk_radius": rr, "m": m, "rule": rule})
