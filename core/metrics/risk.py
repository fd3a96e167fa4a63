"""Disclosure risk of synthetic locations by conditional predictive ordinates (Walder, Hanks & Slavković 2020,
"Privacy for spatial point process data", Sections 4 and 7, Appendix A.3-A.4).

Intrusion scenario (Section 7.1): the intruder knows the synthetic data ``S^dagger``, the synthesis
method and every confidential location but ``s_k``, and wants ``s_k`` within a radius r. The risk of
person k is (eq. 16)

    R_k = P(s in B_r(s_k) ∩ W | S_-k, S^dagger) = int_{B_r(s_k) ∩ W} pi(s | S_-k, S^dagger) ds.

The leave-one-out density at the true location is the CPO (Section 4, eqs. 7 and 9; :mod:`.cpo`).

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

Disc integrals use the quadrature of Appendix A.4 (:mod:`.disc_quadrature`). The posterior draws of the
intensity (:class:`.intensity_draws.IntensityDraws`) are draws of ``pi(lambda | S)`` for radial synthesis, and
of the confidential intensity from the joint fit ``pi(lambda, lambda^dagger | S, S^dagger)`` for ANS and PRS
(Sections 7.3-7.4).

Units: coordinates and radii in CRS units, intensities per squared unit, densities per squared unit,
risks are probabilities. Per-person risks are confidential (they point at the people at risk).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from ..errors import ParameterError
from ..progress import Progress, report
from .cpo import effective_sample_size, log_mean_exp
from .disc_quadrature import disc_quadrature
from .intensity_draws import IntensityDraws

METHODS = ("paper", "exact")
#: Target size of the largest ``(draws, disc nodes)`` array of the risk computations (doubles, 256 MB):
#: persons are taken in blocks small enough for it, down to one person (a risk radius far larger than the
#: mesh gives 200^2 nodes per disc, and 1,000 draws of 40 such discs took more than 24 GB).
_BLOCK = 1 << 25


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

    ``kept_inside`` (the default, as :func:`..synthesis.synthetic_sets.synthesize` draws them): the synthetic
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
        dens[k] = np.exp(-log_mean_exp(log_d - log_at, axis=0))
        ess[k] = effective_sample_size(log_d - log_at)
        log_lens = draws.log_intensity(lens.x, lens.y) - log_area(lens.x, lens.y)
        if method == "exact":
            log_j = lens.log_integrate(log_lens)
            risk[k] = _softmax_mean(log_d - log_at, np.exp(log_j - log_d))
        else:
            f_sup = np.exp(-log_mean_exp(log_d[:, support.owner] - log_sup, axis=0))
            f_lens = np.exp(-log_mean_exp(log_d[:, lens.owner] - log_lens, axis=0))
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
        f_window = np.concatenate(
            [
                np.exp(-log_mean_exp(log_int - draws.window_log_intensity(points), axis=0))
                for points in draws.window_blocks()
            ]
        )
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
        dens[k] = np.exp(-log_mean_exp(log_int - log_at, axis=0))
        ess[k] = effective_sample_size(log_int - log_at)
        if method == "exact":
            log_j = disc.log_integrate(log_disc)
            risk[k] = _softmax_mean(log_int - log_at, np.exp(log_j - log_int))
        else:
            risk[k] = disc.integrate(np.exp(-log_mean_exp(log_int - log_disc, axis=0))) / z
    report(progress, 1.0, "Disclosure risk of the synthetic data")
    risk = np.minimum(risk, 1.0)  # a probability: quadrature error can lift a disc covering the window above 1
    return DisclosureRisk(risk, dens, np.full(n, z), method, ess, {"risk_radius": rr, "m": m, "rule": rule})
