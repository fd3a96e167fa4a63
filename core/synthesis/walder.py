"""Walder, Hanks & Slavković's synthesizers of location-only data, and exact-size samplers.

* :func:`radial`: radial perturbation (Section 5.1), each point moved uniformly within a disc.
* :func:`ans_weights`: additive noise synthesis, ANS (Section 5.2, eq. 10): the posterior-mean field
  plus a Matérn noise field ``v ~ N(0, sigma^2 Q_kappa^-1)`` at the posterior-mean spatial scale.
* :func:`prs_weights`: posterior resampling synthesis, PRS (Section 5.3, eq. 11): a new field
  ``w* ~ N(0, xi^2 Q_kappa^-1)`` at the posterior means of ``xi^2`` and ``kappa^2``.
* :func:`sample_candidates` (the paper's scheme: N of N* >> N uniform candidates, without
  replacement, weights proportional to the intensity) and :func:`sample_exact` (exactly N i.i.d.
  points from the normalised piecewise log-linear intensity on the mesh, restricted to the window).

Parameterisation of the field (Walder eq. 4 and Appendix A.1, core.fields): the mesh weights are
``w ~ N(0, xi^2 Q_kappa^-1)`` with ``Q_kappa = L C^-1 L``, ``L = kappa^2 C + G`` (``xi^2`` factored out),
effective range ``rho = sqrt(8) / kappa`` and marginal variance ``sigma_m^2 = xi^2 / (4 pi kappa^2)``
(eq. 38). :meth:`core.fields.SPDEMatern.precision` takes ``(rho, sigma_m)`` and returns
``Q_kappa / xi^2`` with ``xi^2 = 4 pi kappa^2 sigma_m^2``, so a field with variance parameter ``xi^2``
at scale ``kappa^2`` is ``precision(sqrt(8 / kappa^2), sqrt(xi^2 / (4 pi kappa^2)))``.

Units: coordinates and radii in the layer's CRS units; ``kappa^2`` in 1/length^2; ``xi^2`` and the
ANS noise level ``sigma^2`` in 1/length^2 as well (they are ``4 pi kappa^2`` times a dimensionless
marginal variance). The paper's noise levels (0.5-10) therefore depend on its coordinate units; use
:func:`noise_variance_for_marginal` to set the noise by the marginal variance of ``v`` instead.

All randomness comes from :mod:`core.mechanisms` through an explicit ``numpy.random.Generator``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.spatial import cKDTree

from .. import mechanisms
from ..errors import ParameterError
from ..linalg import BandedCholesky

#: Series expansion of the exp divided difference below this spread of the log values.
_SERIES_SPREAD = 0.1
_SERIES_TERMS = 12


# -- radial perturbation (Section 5.1) ------------------------------------------------------------


def radial(
    x: np.ndarray,
    y: np.ndarray,
    radius: float,
    rng: np.random.Generator,
    window=None,
    keep_inside: bool = False,
    max_rounds: int = 10_000,
) -> tuple[np.ndarray, np.ndarray]:
    """Radial perturbation: ``s_i^dagger ~ U(B_r(s_i))``, uniform on the disc of radius r (Section 5.1), released
    on a lattice of step ``r / DISC_STEPS`` (:func:`core.mechanisms.disc_lattice_offsets`): ``s_i`` rounded to
    the lattice plus a lattice offset uniform on the disc, so that no published coordinate carries low bits of
    the true location, and every point lies strictly within r of it.

    At the window's edge the paper does not clip: a perturbed point may fall outside the study
    window, and the risk formula (eqs. 17-18, Appendix A.3) assumes exactly this mechanism, whose
    density ``1 / (pi r^2)`` on the disc does not depend on the window. With ``keep_inside=True``
    points that fall outside are redrawn until they lie in the window: ``s^dagger`` is then uniform on
    ``B_r(s) ∩ W``, with density ``1 / |B_r(s) ∩ W|`` that depends on ``s``, which
    :func:`core.metrics.risk.radial_risk` accounts for (``kept_inside=True``, its default).

    Args:
        x, y: the confidential points (CRS units).
        radius: perturbation radius r (> 0, CRS units).
        rng: the only source of randomness (through :mod:`core.mechanisms`).
        window: the study window; needed only with ``keep_inside``.
        keep_inside: redraw points that fall outside the window (not the paper's mechanism).
        max_rounds: safeguard on the number of redraw rounds.

    Returns:
        ``(x_dagger, y_dagger)``, index-linked to the input (point i moved to point i).
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ParameterError("points", "x and y must have the same length")
    radius = float(radius)
    if not (math.isfinite(radius) and radius > 0):
        raise ParameterError("radius", f"the perturbation radius must be a finite number > 0, got {radius!r}")
    if keep_inside and window is None:
        raise ParameterError("window", "keep_inside needs the study window")

    # released on the lattice of step r / DISC_STEPS: the true location rounded to it (by at most 0.71 step), plus
    # a lattice offset within (DISC_STEPS - 1) steps, stays strictly within r of the truth
    step = radius / mechanisms.DISC_STEPS
    kx, ky = np.rint(x / step), np.rint(y / step)
    largest = float(max(np.max(np.abs(kx), initial=0.0), np.max(np.abs(ky), initial=0.0)))
    if not largest + mechanisms.DISC_STEPS < 2.0**52:  # doubles hold the lattice index exactly
        raise ParameterError(
            "radius",
            f"the radius {radius:g} is too small for coordinates as large as {largest * step:g}: the points are "
            f"released on a lattice of radius / {mechanisms.DISC_STEPS}, which doubles cannot hold there",
        )

    def moved(index):
        i, j = mechanisms.disc_lattice_offsets(rng, index.size)
        return step * (kx[index] + i), step * (ky[index] + j)

    out_x, out_y = moved(np.arange(x.size))
    if keep_inside:
        todo = np.flatnonzero(~window.contains(out_x, out_y))
        rounds = 0
        while todo.size:
            rounds += 1
            if rounds > max_rounds:
                raise ParameterError(
                    "radius",
                    f"{todo.size} points could not be kept inside the window after {max_rounds} redraws: the radius "
                    f"{radius:g} is much larger than the window around them (or they lie outside it)",
                )
            out_x[todo], out_y[todo] = moved(todo)
            todo = todo[~window.contains(out_x[todo], out_y[todo])]
    return out_x, out_y


# -- covariates at the mesh nodes -----------------------------------------------------------------


@dataclass(frozen=True)
class NodeCovariates:
    """Covariates and log offset at the mesh nodes, for a log-intensity that is linear on each triangle.

    ``eta_nodes = offset + x @ beta + w`` (Walder App. A.2, ``X~``) interpolated linearly over each
    triangle is the piecewise log-linear intensity that :func:`sample_exact` samples exactly. The
    covariate part is then an interpolation of ``x(s)' beta``; the paper's eq. (10) uses the covariate
    at s itself, which :meth:`SyntheticField.log_intensity` evaluates (for :func:`sample_candidates`).

    Attributes:
        x: ``(n, p)`` covariates, column 0 the intercept (ones).
        offset: ``(n,)`` log offset (0 without one).
    """

    x: np.ndarray
    offset: np.ndarray

    @classmethod
    def from_functions(cls, mesh, window, covariates=(), offset: Callable | None = None) -> NodeCovariates:
        """Evaluate covariate functions (``core.lgcp_setup.Covariate``) and the offset at the nodes.

        Nodes in the window (boundary included) must get finite values. Nodes outside it (the mesh's
        outer band, and corners of triangles cut by the boundary) are evaluated too, and where that
        fails or gives NaN (e.g. outside a raster) they take the value of the nearest node inside.
        """
        nodes = mesh.nodes
        inside = window.contains(nodes[:, 0], nodes[:, 1])
        if not inside.any():
            raise ParameterError("window", "no mesh node lies in the window")
        columns = [np.ones(mesh.n_nodes)] + [_evaluate_at_nodes(c.name, c.values, nodes, inside) for c in covariates]
        off = np.zeros(mesh.n_nodes) if offset is None else _evaluate_at_nodes("offset", offset, nodes, inside)
        return cls(np.column_stack(columns), off)

    @classmethod
    def from_posterior(cls, posterior) -> NodeCovariates:
        """Read them from the model file if the fit stored them (``Posterior.x_nodes``), else from a fit
        whose integration points are the mesh nodes (the ``vertex`` / dual-mesh
        scheme of Walder eq. 30, where ``x_int`` holds ``x`` at every node with a positive weight).

        With the default ``midpoint`` scheme the integration points are edge midpoints and the
        covariate functions are needed: use :meth:`from_functions`. Nodes without an integration
        point (outside the window) take the values of the nearest node that has one.
        """
        if getattr(posterior, "x_nodes", None) is not None:  # stored by spatialprivacy:fitlgcp
            return cls(np.asarray(posterior.x_nodes, dtype=np.float64), np.asarray(posterior.offset_nodes, float))
        proj = posterior.int_proj.tocsr()
        counts = np.diff(proj.indptr)
        if not (np.all(counts == 1) and np.allclose(proj.data, 1.0)):
            raise ParameterError(
                "covariates",
                "the model's integration points are not the mesh nodes (midpoint scheme): "
                "give the covariate functions (NodeCovariates.from_functions)",
            )
        n = posterior.nodes.shape[0]
        cols = proj.indices
        have = np.zeros(n, dtype=bool)
        have[cols] = True
        x = np.zeros((n, posterior.x_int.shape[1]))
        off = np.zeros(n)
        x[cols], off[cols] = posterior.x_int, posterior.offset_int
        if not have.all():
            _, nearest = cKDTree(posterior.nodes[have]).query(posterior.nodes[~have])
            source = np.flatnonzero(have)[nearest]
            x[~have], off[~have] = x[source], off[source]
        return cls(x, off)


def _evaluate_at_nodes(name: str, func: Callable, nodes: np.ndarray, inside: np.ndarray) -> np.ndarray:
    out = np.empty(nodes.shape[0])
    values = np.asarray(func(nodes[inside, 0], nodes[inside, 1]), dtype=np.float64)
    if values.shape != (int(inside.sum()),) or not np.all(np.isfinite(values)):
        raise ParameterError(name, f"covariate {name!r} is not finite at every mesh node in the window")
    out[inside] = values
    outside = ~inside
    if outside.any():
        try:
            far = np.asarray(func(nodes[outside, 0], nodes[outside, 1]), dtype=np.float64)
        except ValueError:  # includes ParameterError, e.g. a raster that covers the window only
            far = np.full(int(outside.sum()), np.nan)
        bad = ~np.isfinite(far)
        if bad.any():
            _, nearest = cKDTree(nodes[inside]).query(nodes[outside][bad])
            far[bad] = values[nearest]
        out[outside] = far
    return out


# -- ANS and PRS fields (eqs. 10-11) --------------------------------------------------------------


def posterior_kappa2(posterior) -> float:
    """``E[kappa^2 | S] = E[8 / rho^2 | S]`` over the posterior draws (1/length^2)."""
    return float(np.mean(8.0 * np.exp(-2.0 * np.asarray(posterior.log_range))))


def posterior_xi2(posterior) -> float:
    """``E[xi^2 | S] = E[4 pi kappa^2 sigma_m^2 | S]`` over the posterior draws (1/length^2, eq. 38)."""
    kappa2 = 8.0 * np.exp(-2.0 * np.asarray(posterior.log_range))
    return float(np.mean(4.0 * math.pi * kappa2 * np.exp(2.0 * np.asarray(posterior.log_sigma))))


def noise_variance_for_marginal(marginal_variance: float, kappa2: float) -> float:
    """The ANS noise level ``sigma^2`` (the paper's, on the ``xi^2`` scale) that gives the noise field
    ``v`` the marginal variance ``marginal_variance`` (dimensionless): ``sigma^2 = 4 pi kappa^2 var``."""
    return 4.0 * math.pi * float(kappa2) * float(marginal_variance)


def spde_noise(spde, kappa2: float, xi2: float, rng: np.random.Generator, size: int = 1) -> np.ndarray:
    """``size`` exact draws of ``N(0, xi2 Q_kappa2^-1)`` on the mesh nodes (Walder eqs. 4, 29).

    Args:
        spde: the mesh's :class:`core.fields.SPDEMatern`.
        kappa2: spatial scale ``kappa^2`` (> 0, 1/length^2).
        xi2: variance parameter ``xi^2`` (> 0, 1/length^2); the marginal variance is ``xi2 / (4 pi kappa2)``.
        rng: the generator (standard normals from :func:`core.mechanisms.standard_normals`).

    Returns:
        ``(size, n)`` array.
    """
    if not (math.isfinite(kappa2) and kappa2 > 0):
        raise ParameterError("kappa2", f"kappa^2 must be finite and > 0, got {kappa2!r}")
    if not (math.isfinite(xi2) and xi2 > 0):
        raise ParameterError("noise_variance", f"the variance parameter must be finite and > 0, got {xi2!r}")
    rho = math.sqrt(8.0 / kappa2)
    sigma_m = math.sqrt(xi2 / (4.0 * math.pi * kappa2))
    factor = BandedCholesky.factor(spde.precision(rho, sigma_m), spde.ordering())
    z = mechanisms.standard_normals(rng, (spde.n, int(size)))
    return factor.whiten_inverse(z).T


@dataclass(frozen=True)
class SyntheticField:
    """The synthetic log-intensity ``log pd(s) + x(s)' beta + sum_i phi_i(s) w_i`` of eq. (10) or (11).

    Attributes:
        method: ``"ans"`` or ``"prs"``.
        beta: ``(p,)`` posterior-mean coefficients.
        w: ``(n,)`` mesh weights of the synthetic field: ``w_hat + v`` (ANS) or ``w*`` (PRS).
        noise: ``(n,)`` the random part, ``v`` (ANS) or ``w*`` (PRS). For ANS it is confidential:
            with it, the published intensity reveals the posterior-mean field of the confidential data.
        kappa2: the posterior mean of ``kappa^2`` used for the noise's scale (1/length^2).
        xi2: the noise's variance parameter: ANS ``sigma^2``, PRS ``E[xi^2 | S]`` (1/length^2).
    """

    method: str
    beta: np.ndarray
    w: np.ndarray
    noise: np.ndarray
    kappa2: float
    xi2: float

    @property
    def noise_marginal_variance(self) -> float:
        """Marginal variance of the random part, ``xi2 / (4 pi kappa2)`` (dimensionless)."""
        return self.xi2 / (4.0 * math.pi * self.kappa2)

    def eta_nodes(self, node_covariates: NodeCovariates) -> np.ndarray:
        """``(n,)`` log-intensity at the nodes: ``offset + x @ beta + w`` (for :func:`sample_exact`)."""
        return node_covariates.offset + node_covariates.x @ self.beta + self.w

    def log_intensity(self, mesh, x, y, covariates=(), offset: Callable | None = None) -> np.ndarray:
        """``log lambda^dagger`` at points, with the covariates evaluated at the points (eq. 10 / 11)."""
        x = np.asarray(x, dtype=np.float64).ravel()
        y = np.asarray(y, dtype=np.float64).ravel()
        if len(covariates) + 1 != self.beta.size:
            raise ParameterError("covariates", f"the fit has {self.beta.size - 1} covariates, got {len(covariates)}")
        eta = mesh.projection(x, y) @ self.w + self.beta[0]
        for c, b in zip(covariates, self.beta[1:]):
            eta = eta + b * np.asarray(c.values(x, y), dtype=np.float64)
        if offset is not None:
            eta = eta + np.asarray(offset(x, y), dtype=np.float64)
        if not np.all(np.isfinite(eta)):
            raise ParameterError("covariates", "the covariates or the offset are not finite at some points")
        return eta


def _posterior_means(posterior, spde) -> tuple[np.ndarray, np.ndarray]:
    if posterior.w.shape[1] != spde.n:
        raise ParameterError("model", "the posterior and the SPDE model have different numbers of mesh nodes")
    return np.asarray(posterior.beta).mean(axis=0), np.asarray(posterior.w).mean(axis=0)


def ans_weights(posterior, spde, noise_variance: float, rng: np.random.Generator) -> SyntheticField:
    """Additive noise synthesis (Walder Section 5.2, eq. 10): ``w^dagger = w_hat + v``, ``beta_hat``.

    ``w_hat`` and ``beta_hat`` are posterior means; ``v ~ N(0, sigma^2 Q_kappa_hat^-1)`` with
    ``kappa_hat^2 = E[kappa^2 | S] = E[8 / rho^2 | S]`` and ``Q`` the paper's ``xi``-free precision, so
    ``sigma^2`` adds to the field's variance parameter ``xi^2`` (``w + v ~ N(0, (xi^2 + sigma^2) Q^-1)``)
    and ``v`` has marginal variance ``sigma^2 / (4 pi kappa_hat^2)``. ``noise_variance = 0`` gives the
    plug-in synthesis of Quick et al. (2015).

    Args:
        posterior: a :class:`core.posterior.Posterior` of the confidential fit.
        spde: the mesh's :class:`core.fields.SPDEMatern` (``model.spde``).
        noise_variance: the paper's noise level ``sigma^2 >= 0`` (1/length^2; see the module notes and
            :func:`noise_variance_for_marginal`).
        rng: the generator.
    """
    noise_variance = float(noise_variance)
    if not (math.isfinite(noise_variance) and noise_variance >= 0):
        raise ParameterError("noise_variance", f"the noise level must be finite and >= 0, got {noise_variance!r}")
    beta, w_hat = _posterior_means(posterior, spde)
    kappa2 = posterior_kappa2(posterior)
    noise = np.zeros(spde.n) if noise_variance == 0 else spde_noise(spde, kappa2, noise_variance, rng)[0]
    return SyntheticField("ans", beta, w_hat + noise, noise, kappa2, noise_variance)


def prs_weights(posterior, spde, rng: np.random.Generator) -> SyntheticField:
    """Posterior resampling synthesis (Walder Section 5.3, eq. 11): ``w* ~ N(0, xi_hat^2 Q_kappa_hat^-1)``
    with ``kappa_hat^2 = E[kappa^2 | S]``, ``xi_hat^2 = E[xi^2 | S]`` and ``beta_hat = E[beta | S]``."""
    beta, _ = _posterior_means(posterior, spde)
    kappa2, xi2 = posterior_kappa2(posterior), posterior_xi2(posterior)
    w_star = spde_noise(spde, kappa2, xi2, rng)[0]
    return SyntheticField("prs", beta, w_star, w_star, kappa2, xi2)


# -- synthetic locations --------------------------------------------------------------------------


def _uniform_in_window(window, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``count`` uniform points in the window, by rejection from its bounding box."""
    xmin, ymin, xmax, ymax = window.bounds
    fill = max(window.area / ((xmax - xmin) * (ymax - ymin)), 1e-6)
    xs, ys, have = [], [], 0
    while have < count:
        batch = int(min(max(1.2 * (count - have) / fill, 64), 4_000_000))
        u = mechanisms.uniforms(rng, (2, batch))
        px, py = xmin + (xmax - xmin) * u[0], ymin + (ymax - ymin) * u[1]
        keep = window.contains(px, py)
        xs.append(px[keep])
        ys.append(py[keep])
        have += int(keep.sum())
    return np.concatenate(xs)[:count], np.concatenate(ys)[:count]


def sample_candidates(
    window,
    log_intensity: Callable[[np.ndarray, np.ndarray], np.ndarray],
    n: int,
    rng: np.random.Generator,
    n_candidates: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The paper's scheme (Section 5.2): ``N*`` uniform candidates in the window, each with probability
    ``lambda^dagger(s*_k) / sum_j lambda^dagger(s*_j)``, and N of them drawn without replacement.

    The result follows the intensity only approximately (sampling without replacement flattens it a
    little; the error vanishes as ``N* / N`` grows). :func:`sample_exact` is exact.

    Args:
        window: the study window.
        log_intensity: ``(x, y) -> log lambda^dagger`` (e.g. :meth:`SyntheticField.log_intensity`).
        n: number of synthetic points N.
        rng: the generator.
        n_candidates: ``N*``; default ``max(100 N, 10000)``.
    """
    n = _check_count(n)
    n_candidates = max(100 * n, 10_000) if n_candidates is None else int(n_candidates)
    if n_candidates < n:
        raise ParameterError("n_candidates", f"need at least N = {n} candidates, got {n_candidates}")
    cx, cy = _uniform_in_window(window, n_candidates, rng)
    eta = np.asarray(log_intensity(cx, cy), dtype=np.float64)
    if eta.shape != cx.shape or np.any(np.isnan(eta)) or np.any(eta == np.inf):
        raise ParameterError("intensity", "the log-intensity must be finite (or -inf) at every candidate")
    weights = np.exp(eta - eta.max())
    pick = mechanisms.choice_without_replacement(rng, weights, n)
    return cx[pick], cy[pick]


def _expm1_over_x(x: np.ndarray) -> np.ndarray:
    safe = np.where(x == 0, 1.0, x)
    return np.where(x == 0, 1.0, np.expm1(x) / safe)


def log_exp_divided_difference(e: np.ndarray) -> np.ndarray:
    """``log exp[e1, e2, e3]``, the second divided difference of exp, for rows of ``e`` (k, 3).

    ``int_T exp(eta) ds = 2 |T| exp[e1, e2, e3]`` for ``eta`` linear on a triangle T with vertex values
    ``e``. Computed about the largest value (no overflow) and by its Taylor series
    ``sum_n h_n / (n + 2)!`` (complete homogeneous polynomials) when the values are within 0.1 of each
    other, where the difference formula would cancel.
    """
    s = np.sort(np.asarray(e, dtype=np.float64), axis=1)
    top = s[:, 2]
    a = s[:, 0] - top  # a <= b <= 0
    b = s[:, 1] - top
    small = -a < _SERIES_SPREAD
    # direct: exp[0, b, a] = (exp[b, a] - exp[0, b]) / a
    direct = (np.exp(b) * _expm1_over_x(a - b) - _expm1_over_x(b)) / np.where(small, 1.0, a)
    h = np.ones_like(a)
    power = np.ones_like(a)
    series = np.full_like(a, 0.5)
    factorial = 2.0
    for k in range(1, _SERIES_TERMS + 1):
        power = power * b
        h = a * h + power
        factorial *= k + 2
        series = series + h / factorial
    return top + np.log(np.where(small, series, direct))


def triangle_log_masses(mesh, eta_nodes: np.ndarray) -> np.ndarray:
    """``log int_T exp(eta)`` for every triangle of the mesh, ``eta`` linear with node values ``eta_nodes``."""
    e = np.asarray(eta_nodes, dtype=np.float64)[mesh.triangles]
    return np.log(2.0 * mesh.triangle_areas) + log_exp_divided_difference(e)


def sample_exact(
    mesh, window, eta_nodes: np.ndarray, n: int, rng: np.random.Generator, max_rounds: int = 10_000
) -> tuple[np.ndarray, np.ndarray]:
    """Exactly N i.i.d. points from the density proportional to ``exp(eta(s))`` on the window, with ``eta``
    linear on each mesh triangle (values ``eta_nodes`` at the nodes).

    A triangle is chosen with probability proportional to ``int_T exp(eta)`` (closed form, via
    :func:`log_exp_divided_difference`) among the triangles that overlap the window, then a point is
    drawn exactly from ``exp(eta)`` on that triangle by rejection (uniform points, each kept with
    probability ``exp(eta(s) - max_vertex eta)``, redrawn in the same triangle until one is kept; a
    restart with a new triangle here would favour flat triangles). For a triangle cut by the window's
    boundary the whole draw is restarted when the point falls outside, so triangle T ends up chosen
    with probability proportional to ``int_{T ∩ W} exp(eta)``. Attempts are independent, so the
    accepted points are i.i.d. from ``exp(eta) 1_W / int_W exp(eta)``; the first N are returned.

    Args:
        mesh: the :class:`core.mesh.Mesh`; window: the :class:`core.window.Window`.
        eta_nodes: ``(n_nodes,)`` log-intensity at the nodes (e.g. :meth:`SyntheticField.eta_nodes`);
            it must be finite at the corners of every triangle that overlaps the window.
        n: number of points; rng: the generator (uniforms from :mod:`core.mechanisms`).
    """
    n = _check_count(n)
    eta_nodes = np.asarray(eta_nodes, dtype=np.float64)
    if eta_nodes.shape != (mesh.n_nodes,):
        raise ParameterError("eta_nodes", f"need one value per mesh node ({mesh.n_nodes}), got {eta_nodes.shape}")
    area = mesh.clipped_moments(window)[0]
    full = mesh.triangle_areas
    meets = np.flatnonzero(area > full * 1e-12)
    if meets.size == 0:
        raise ParameterError("window", "the window does not overlap the mesh")
    e_tri = eta_nodes[mesh.triangles[meets]]
    if not np.all(np.isfinite(e_tri)):
        raise ParameterError("eta_nodes", "the log-intensity is not finite at every node of the window's triangles")
    whole = area[meets] >= full[meets] * (1 - 1e-9)
    log_mass = triangle_log_masses(mesh, eta_nodes)[meets]
    cdf = np.cumsum(np.exp(log_mass - log_mass.max()))
    top = e_tri.max(axis=1)
    corner = mesh.nodes[mesh.triangles[meets]]
    xs, ys, have, rate = [], [], 0, 0.5
    for _ in range(max_rounds):
        batch = int(min(max(1.2 * (n - have) / rate, 64), 2_000_000))
        u = mechanisms.uniforms(rng, batch)
        t = np.minimum(np.searchsorted(cdf, u * cdf[-1], side="right"), meets.size - 1)
        px, py = _point_in_triangles(corner[t], e_tri[t], top[t], rng, max_rounds)
        ok = np.ones(batch, dtype=bool)
        cut = ~whole[t]
        ok[cut] = window.contains(px[cut], py[cut])
        rate = max(float(ok.mean()), 1e-3)
        xs.append(px[ok])
        ys.append(py[ok])
        have += int(ok.sum())
        if have >= n:
            return np.concatenate(xs)[:n], np.concatenate(ys)[:n]
    raise ParameterError("eta_nodes", _too_peaked(e_tri))


def _too_peaked(e_tri: np.ndarray) -> str:
    spread = float(np.max(e_tri.max(axis=1) - e_tri.min(axis=1)))
    return (
        f"the synthetic intensity is too peaked to sample (its log varies by up to {spread:.3g} within one mesh "
        "triangle); a smaller noise variance, or a finer mesh, gives a usable intensity"
    )


def _point_in_triangles(corner, e_tri, top, rng, max_rounds):
    """One exact draw per row from the density proportional to ``exp(eta)`` on triangle ``corner`` (k, 3, 2),
    ``eta`` linear with vertex values ``e_tri``: uniform points kept with probability ``exp(eta - top)``,
    redrawn in the same triangle until kept."""
    k = corner.shape[0]
    px, py = np.empty(k), np.empty(k)
    todo = np.arange(k)
    for _ in range(max_rounds):
        u = mechanisms.uniforms(rng, (3, todo.size))
        r1, r2 = u[0], u[1]
        flip = r1 + r2 > 1
        r1, r2 = np.where(flip, 1 - r1, r1), np.where(flip, 1 - r2, r2)
        bary = np.column_stack([1 - r1 - r2, r1, r2])
        eta = np.einsum("kj,kj->k", bary, e_tri[todo])
        ok = u[2] * np.exp(top[todo] - eta) < 1.0  # U < exp(eta - top), without overflow
        done = todo[ok]
        px[done] = np.einsum("kj,kj->k", bary[ok], corner[done, :, 0])
        py[done] = np.einsum("kj,kj->k", bary[ok], corner[done, :, 1])
        todo = todo[~ok]
        if todo.size == 0:
            return px, py
    raise ParameterError("eta_nodes", _too_peaked(e_tri))


def _check_count(n) -> int:
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ParameterError("n", f"the number of synthetic points must be an integer >= 1, got {n!r}")
    return int(n)
