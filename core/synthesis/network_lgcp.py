"""Kim & Lim's LGCP Cox point synthesizer on a linear network (Section 4.2 with Section 3.3.1, Theorem 3.8 and
Appendix E.2).

**Model.** The knots are the ends of the network's pieces (:meth:`..network.domain.NetworkDomain.partition` with
``min_piece_fraction = 0``: pieces of at most the resolution, Kim & Lim's 50 m). The log intensity is linear along
each piece between its two end knots (Kim & Lim eq. 7: "for the linear network, the basis function is given by the
linear interpolation of the two endpoints of the edge"),

    log lambda(s) = lambda_0 + sum_i beta_i phi_i(s),   lambda_0 = log(n / |L|),

with ``lambda_0`` fixed (Kim & Lim: "we can set lambda_0 = |D| / |S|"; ``n`` is public under the alpha-neighbourhood)
and the prior ``beta ~ N(0, Sigma)``, ``Sigma_ij = sigma^2 exp(-d_R(t_i, t_j) / l) + nu [i = j]``: the exponential
correlation in the resistance metric ``d_R`` of Anderes, Møller & Rasmussen (2020) (:mod:`..network.resistance`;
Kim & Lim Appendix E.2 and Section 4.2, "the exponential correlation function with p = 1") and a small nugget ``nu``.
The likelihood integral is the dual-cell rule of Kim & Lim's Appendix C.2 in one dimension: knot ``i`` carries half
the length of its pieces (:attr:`..network.domain.NetworkPartition.knot_weights`).

**Calibration (Theorem 3.8 on pieces).** ``I_alpha`` holds the pairs of distinct pieces at most ``alpha`` apart along
the network (the shortest-path distance between their closest points: an alpha-neighbour moves one event at most
``alpha`` along the network). For a pair, ``sup_{w, v} Var(eta_p(w) - eta_q(v))`` is reached at a pair of end knots
(the variance of a difference of convex combinations is convex in the weights), where it is
``2 sigma^2 (1 - exp(-d_R / l)) + 2 nu <= 2 (sigma^2 / l) d_R + 2 nu``. The bound does not depend on ``l`` once
``kappa = sigma^2 / l`` is fixed, so the condition ``delta >= 4 / epsilon^2 sum_{I_alpha} sup Var`` holds for every
length scale the posterior draws if

    kappa = delta epsilon^2 / (8 sum_pairs (d_R,max + c s)),   nu = c kappa s,   c = NUGGET_PER_KAPPA_S,

with ``s`` the resolution and ``d_R,max`` the largest resistance between an end knot of one piece and a different end
knot of the other. As in the plane (:mod:`.lgcp_dp`), the sum is the larger of this one over ``I_alpha`` and the
rigorous union bound over the distinct knot pairs of single pieces and of the pairs of ``I_alpha``.

*Why sigma^2 / l and not sigma / l.* In the plane Kim & Lim fix ``R = sigma / l`` because with the Gaussian
correlation (p = 2) the pair variance is at most ``2 R^2 d^2`` for every ``l`` (Corollary 3.9). In the resistance
metric only powers ``p <= 1`` give a valid correlation on every network (Anderes et al. Theorem 1 needs
``exp(-t^p)`` completely monotone), and with ``p = 1`` a fixed ``sigma / l`` gives ``2 R^2 l d_R``, which grows
without bound in ``l``: no fixed ``sigma / l`` certifies the condition over the inverse-gamma prior's support. Fixing
``sigma^2 / l`` does, and at a drawn ``l`` the ratio is ``sigma / l = sqrt(kappa / l)``.

**Fit and draw.** The posterior of the knot values at a given ``l`` is approximated by a Gaussian at its mode
(Newton's method in the covariance parametrisation, Rasmussen & Williams 2006, Algorithms 3.1-3.2: no inverse of the
dense ``Sigma`` is formed; steps by conjugate gradients on ``B = I + W^1/2 Sigma W^1/2``), and the posterior of
``l`` by the Laplace approximation ``log q(y | l)`` on :data:`LENGTH_GRID` values of ``log l`` evenly spaced between
the prior's 1% and 99% quantiles (inverse-gamma prior, as :mod:`.lgcp_dp`). One draw: ``l`` from the grid posterior,
then the knot values from the Gaussian at that ``l``; the synthetic events are the Poisson process of that intensity
(:func:`..network.domain.sample_on_pieces`: log-linear along each piece, thinning, positions on a public grid of each
piece), so they lie on the network lines. The covariance is dense: at most :data:`MAX_KNOTS` knots.

**What is and is not proven on networks.**

* Proven: the prior exists: ``exp(-d_R / l)`` is a strictly positive definite correlation on every linear network
  (Anderes et al. 2020, Theorem 1; Kim & Lim Theorem E.5). Theorem 3.8's argument (Lemma A.2 and Appendix C)
  uses only that the log intensity at a point is a convex combination of knot values of its cell; a piece is such a
  cell with two knots, so the condition carries over with pieces for triangles and network distance for the
  Euclidean one, and with ``sigma^2 / l`` fixed as above it holds for every ``l``.
* Not proven, as in the plane (:mod:`.lgcp_dp`): Lemma A.2 assumes the data follow the model and needs the bound for
  every ``beta``, while Appendix C bounds the probability of the bad event under the prior, not under the posterior;
  and the draw here comes from a Laplace approximation on a grid of ``l`` with an approximate (dual-cell)
  likelihood, not from the exact posterior. Kim & Lim's Section 4.2 states no separate condition or proof for
  networks. The (epsilon, delta) is nominal. Adding or removing an event changes ``n`` and ``lambda_0``: only the
  alpha-neighbourhood (one event moved) is claimed.

Units: lengths and ``alpha`` in the network's coordinate units; ``kappa`` in log-intensity squared per unit length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from scipy import stats

from .. import mechanisms
from ..errors import ParameterError
from ..fields import InverseGammaLengthPrior
from ..linalg import sum_log
from ..network.distances import point_distances
from ..network.domain import NetworkDomain, NetworkPartition, check_resolution, sample_on_pieces
from ..network.network import NetworkPoints
from ..network.resistance import resistance_distances
from ..progress import Progress, report, scaled
from .laplace_cox import MAX_POINTS

#: Nugget variance of the field in units of ``kappa s`` (s: the resolution): it adds 1% of the smallest pair term
#: ``2 kappa s`` to each pair of Theorem 3.8's sum and keeps the covariance well conditioned.
NUGGET_PER_KAPPA_S = 0.01
#: Values of ``log l`` at which the posterior of the length scale is approximated (module docstring).
LENGTH_GRID = 9
#: Prior quantiles spanned by the grid of ``l``.
LENGTH_QUANTILES = (0.01, 0.99)
#: Most knots of the dense covariance (three ``n x n`` matrices: 600 MB at 5,000).
MAX_KNOTS = 5000
#: Most events a drawn intensity may integrate to (as the Laplace synthesizer's :data:`.laplace_cox.MAX_POINTS`).
MAX_EVENTS = MAX_POINTS
#: Pieces whose distances to all knots are found at once (memory: this many rows of ``n`` doubles, twice).
PAIR_BLOCK = 256


@dataclass(frozen=True)
class NetworkLGCPCalibration:
    """The calibrated ``kappa = sigma^2 / l`` of the network LGCP synthesizer and what it rests on.

    Attributes:
        kappa: the largest ``sigma^2 / l`` for which Theorem 3.8 certifies (epsilon, delta) for every ``l``.
        epsilon, delta, alpha: the guarantee (alpha in coordinate units, along the network).
        resolution: the longest piece ``s``.
        nugget: the nugget variance ``nu = NUGGET_PER_KAPPA_S kappa s``.
        pairs: the number of piece pairs in ``I_alpha``; sum_d: their ``sum d_R,max`` (coordinate units).
        knot_pairs, knot_sum_d: the same for the distinct knot pairs of the rigorous union bound.
    """

    kappa: float
    epsilon: float
    delta: float
    alpha: float
    resolution: float
    nugget: float
    pairs: int
    sum_d: float
    knot_pairs: int
    knot_sum_d: float

    def sigma(self, length: float) -> float:
        """``sigma = sqrt(kappa l)`` at a length scale ``l``."""
        return math.sqrt(self.kappa * float(length))

    def ratio(self, length: float) -> float:
        """``sigma / l`` at a length scale ``l``."""
        return self.sigma(length) / float(length)


def piece_pairs_within(partition: NetworkPartition, alpha: float, progress: Progress = None):
    """The pairs ``p < q`` of distinct pieces at most ``alpha`` apart along the network (eq. 9 on pieces): a path
    between two pieces leaves one and enters the other through an end, so their distance is the least
    shortest-path distance between an end knot of each."""
    ends, knots, m = partition.piece_knots, partition.knots, len(partition.pieces)
    found_p, found_q = [], []
    for first in range(0, m, PAIR_BLOCK):
        block = np.arange(first, min(m, first + PAIR_BLOCK))
        rows, inverse = np.unique(ends[block], return_inverse=True)
        d = point_distances(partition.net, knots.take(rows), knots, alpha)  # knots of the block -> all knots
        inverse = inverse.reshape(-1, 2)
        start, end = d[inverse[:, 0]], d[inverse[:, 1]]  # (block, knots)
        near = np.minimum(start, end)
        gap = np.minimum(near[:, ends[:, 0]], near[:, ends[:, 1]])  # (block, pieces)
        p, q = np.nonzero(gap <= alpha)
        p = block[p]
        keep = q > p
        found_p.append(p[keep])
        found_q.append(q[keep])
        report(progress, block[-1] / max(1, m - 1), "Pairs of pieces within alpha")
    return np.concatenate(found_p).astype(np.int64), np.concatenate(found_q).astype(np.int64)


def calibrate_kappa(
    partition: NetworkPartition,
    resistance: np.ndarray,
    epsilon: float,
    delta: float,
    alpha: float,
    progress: Progress = None,
) -> NetworkLGCPCalibration:
    """The largest ``kappa = sigma^2 / l`` that makes Theorem 3.8 hold for every ``l`` (module docstring).

    Args:
        partition: the pieces (unmerged: each region one piece).
        resistance: ``(n_knots, n_knots)`` resistance distances between the knots.
        epsilon, delta, alpha: the guarantee.

    Raises:
        ParameterError("epsilon" / "delta" / "alpha"): bad values.
    """
    epsilon = mechanisms.check_epsilon(epsilon)
    delta, alpha = _check_delta(delta), _check_alpha(alpha)
    s = partition.resolution
    ends = partition.piece_knots
    p, q = piece_pairs_within(partition, alpha, progress)
    a, b = ends[p], ends[q]
    d_pair = np.zeros(p.size)
    for i in range(2):
        for j in range(2):
            d_pair = np.maximum(d_pair, np.where(a[:, i] != b[:, j], resistance[a[:, i], b[:, j]], 0.0))
    own = ends
    first = np.concatenate([np.repeat(a, 2, axis=1).ravel(), own[:, 0]])
    second = np.concatenate([np.tile(b, (1, 2)).ravel(), own[:, 1]])
    distinct = first != second
    lo, hi = np.minimum(first, second)[distinct], np.maximum(first, second)[distinct]
    codes = np.unique(lo * partition.n_knots + hi)
    u, v = codes // partition.n_knots, codes % partition.n_knots
    d_knots = resistance[u, v]
    nugget_term = NUGGET_PER_KAPPA_S * s
    total = max(float(np.sum(d_pair)) + p.size * nugget_term, float(np.sum(d_knots)) + codes.size * nugget_term)
    kappa = delta * epsilon**2 / (8.0 * total)
    return NetworkLGCPCalibration(
        kappa,
        epsilon,
        delta,
        alpha,
        s,
        nugget_term * kappa,
        int(p.size),
        float(np.sum(d_pair)),
        int(codes.size),
        float(np.sum(d_knots)),
    )


def _check_delta(delta) -> float:
    delta = float(delta)
    if not (0 < delta < 1):
        raise ParameterError("delta", f"delta must lie in (0, 1), got {delta!r}")
    return delta


def _check_alpha(alpha) -> float:
    alpha = float(alpha)
    if not (math.isfinite(alpha) and alpha > 0):
        raise ParameterError("alpha", f"alpha must be a finite distance > 0, got {alpha!r}")
    return alpha


def knot_count(net, resolution: float) -> int:
    """The number of knots (piece ends) of ``net`` cut at ``resolution``."""
    cuts = np.maximum(np.ceil(net.lengths / resolution), 1.0) - 1.0
    return int(np.unique(net.edges).size + cuts.sum())


def _check_knots(domain: NetworkDomain, resolution: float) -> None:
    n = knot_count(domain.net, resolution)
    if n <= MAX_KNOTS:
        return
    vertices = np.unique(domain.net.edges).size
    if vertices > MAX_KNOTS:
        raise ParameterError(
            "network",
            f"the network has {vertices:,} vertices; the LGCP synthesizer's dense covariance handles at most "
            f"{MAX_KNOTS:,} knots: use the Laplace synthesizer, or a part of the network",
        )
    lo, hi = resolution, float(domain.net.lengths.max())
    for _ in range(60):  # the smallest resolution with at most MAX_KNOTS knots
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if knot_count(domain.net, mid) > MAX_KNOTS else (lo, mid)
    raise ParameterError(
        "resolution",
        f"a resolution of {resolution:g} gives {n:,} knots; the LGCP synthesizer's dense covariance handles at most "
        f"{MAX_KNOTS:,}: use a resolution of at least {hi:.4g}",
    )


# -- the Gaussian approximation of the posterior at one length scale -------------------------------------------


def _conjugate_gradient(matvec, rhs: np.ndarray, rtol: float = 1e-10, max_iter: int = 200) -> np.ndarray | None:
    """``B^-1 rhs`` for a symmetric positive definite ``B`` given as ``matvec``; ``None`` if not converged."""
    x = np.zeros_like(rhs)
    r = rhs.copy()
    p = r.copy()
    rr = float(r @ r)
    stop = rtol * rtol * rr
    for _ in range(max_iter):
        if rr <= stop:
            return x
        bp = matvec(p)
        step = rr / float(p @ bp)
        x += step * p
        r -= step * bp
        rr, previous = float(r @ r), rr
        p = r + (rr / previous) * p
    return x if rr <= stop else None


@dataclass
class _Mode:
    """The Gaussian approximation at one ``l``: mode ``f`` (``= K a``) and the Laplace ``log q(y | l)``."""

    length: float
    a: np.ndarray
    f: np.ndarray
    log_q: float


class _Posterior:
    """Newton's method for the mode of ``p(f | y, l)`` and the Laplace marginal (Rasmussen & Williams Alg. 3.1)."""

    def __init__(self, resistance, y, weights, offset, kappa, nugget):
        self.resistance, self.y, self.weights, self.offset = resistance, y, weights, offset
        self.kappa, self.nugget = kappa, nugget
        n = y.size
        self.cov = np.empty((n, n))
        self.work = np.empty((n, n))

    def covariance(self, length: float) -> np.ndarray:
        """``K = kappa l exp(-d_R / l) + nu I`` into the reused buffer (``exp(-inf) = 0`` between components)."""
        k = self.cov
        np.divide(self.resistance, -length, out=k)
        np.exp(k, out=k)
        k *= self.kappa * length
        k[np.diag_indices_from(k)] += self.nugget
        return k

    def _psi(self, a, f) -> float:
        """``log p(y | f) - f' K^-1 f / 2`` up to a constant (``-inf`` where the intensity overflows)."""
        with np.errstate(over="ignore", invalid="ignore"):
            value = float(self.y @ f - self.weights @ np.exp(self.offset + f) - 0.5 * (a @ f))
        return value if math.isfinite(value) else -math.inf

    def _b_factor(self, k: np.ndarray, sw: np.ndarray) -> np.ndarray:
        """Lower Cholesky factor of ``B = I + W^1/2 K W^1/2`` (in the work buffer)."""
        b = self.work
        np.multiply(k, sw[:, None], out=b)
        b *= sw[None, :]
        b[np.diag_indices_from(b)] += 1.0
        return scipy.linalg.cholesky(b, lower=True, overwrite_a=True, check_finite=False)

    def mode(self, length: float, start: np.ndarray | None, max_steps: int = 100) -> _Mode:
        k = self.covariance(length)
        n = self.y.size
        a = np.zeros(n) if start is None else start.copy()
        f = k @ a
        current = self._psi(a, f)
        for _ in range(max_steps):
            mu = self.weights * np.exp(self.offset + f)
            sw = np.sqrt(mu)
            b = mu * f + (self.y - mu)
            rhs = sw * (k @ b)
            v = _conjugate_gradient(lambda z, sw=sw: z + sw * (k @ (sw * z)), rhs)
            if v is None:  # slow convergence: solve exactly
                v = scipy.linalg.cho_solve((self._b_factor(k, sw), True), rhs, check_finite=False)
            a_new = b - sw * v
            f_new = k @ a_new
            t = 1.0
            while True:  # step halving: the objective is concave, a short enough step never loses
                a_t, f_t = a + t * (a_new - a), f + t * (f_new - f)
                value = self._psi(a_t, f_t)
                if value >= current - 1e-12 * abs(current):
                    break
                t *= 0.5
                if t < 1e-10:
                    a_t, f_t, value = a, f, current
                    break
            moved = float(np.max(np.abs(f_t - f)))
            gain = value - current
            a, f, current = a_t, f_t, value
            if moved < 1e-9 or 0 <= gain < 1e-12 * max(1.0, abs(current)):
                break
        sw = np.sqrt(self.weights * np.exp(self.offset + f))
        chol = self._b_factor(k, sw)
        log_q = current - sum_log(np.diag(chol))
        return _Mode(length, a, f, log_q)

    def draw(self, rng: np.random.Generator, mode: _Mode) -> np.ndarray:
        """One draw of ``f`` from ``N(f_mode, (K^-1 + W)^-1)``: ``f_mode + g - K W^1/2 B^-1 (W^1/2 g + z)`` with
        ``g ~ N(0, K)`` and ``z ~ N(0, I)`` (normals from :mod:`..mechanisms`)."""
        n = self.y.size
        k = self.covariance(mode.length)
        sw = np.sqrt(self.weights * np.exp(self.offset + mode.f))
        chol_b = self._b_factor(k, sw)
        z = mechanisms.standard_normals(rng, (2, n))
        chol_k = scipy.linalg.cholesky(k, lower=True, overwrite_a=True, check_finite=False)  # K = L L'
        g = chol_k @ z[0]
        v = scipy.linalg.cho_solve((chol_b, True), sw * g + z[1], check_finite=False)
        return mode.f + g - chol_k @ (chol_k.T @ (sw * v))


# -- the synthesizer --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NetworkLGCPSynthesis:
    """A synthetic pattern of the LGCP synthesizer on a network and what it was drawn from.

    Attributes:
        points: the synthetic events on the network (publishable), ordered by edge and position.
        x, y: their coordinates, on the network lines.
        calibration: the calibrated ``kappa`` and the privacy parameters.
        length, sigma: the drawn length scale and ``sigma = sqrt(kappa l)``.
        log_intensity_knots: the drawn log intensity at the knots (the DP-protected draw; publishable).
        expected_count: the integral of the drawn intensity over the network.
        lengths, length_probabilities: the grid of ``l`` and its approximate posterior probabilities.
        partition: the pieces and knots.
        n: the number of original events (public under the alpha-neighbourhood).
    """

    points: NetworkPoints
    x: np.ndarray
    y: np.ndarray
    calibration: NetworkLGCPCalibration
    length: float
    sigma: float
    log_intensity_knots: np.ndarray
    expected_count: float
    lengths: np.ndarray
    length_probabilities: np.ndarray
    partition: NetworkPartition
    n: int

    @property
    def guarantee(self) -> str:
        c = self.calibration
        return (
            f"({c.epsilon:g}, {c.delta:g})-differential privacy under the alpha-neighbourhood with alpha = "
            f"{c.alpha:g} along the network (one event moved by at most alpha; the number of events, {self.n}, is "
            f"public) by Kim & Lim's Theorem 3.8 on the network's pieces: exponential correlation in the resistance "
            f"metric with sigma^2 / l fixed at {c.kappa:.6g} over {c.pairs} pairs of pieces within alpha (at the drawn "
            f"l = {self.length:.6g}, sigma / l = {c.ratio(self.length):.6g}). The condition carries over from the "
            f"plane to pieces of a network, but the theorem is stated for one exact draw from the posterior and its "
            f"proof has gaps even there (Lemma A.2 needs a bound for every beta; Appendix C takes the bad event's "
            f"probability under the prior); this tool draws from a Laplace approximation of the posterior. "
            f"(epsilon, delta) is nominal, not proven."
        )


def synthesize_network_lgcp(
    points: NetworkPoints,
    domain: NetworkDomain,
    rng: np.random.Generator,
    *,
    epsilon: float,
    delta: float,
    alpha: float,
    resolution: float,
    length_prior: tuple[float, float] | None = None,
    progress: Progress = None,
) -> NetworkLGCPSynthesis:
    """Kim & Lim's LGCP Cox point synthesizer on a network (module docstring): calibrate ``kappa = sigma^2 / l``,
    approximate the posterior, take one draw and return the Poisson process on the network drawn from it.

    Args:
        points: the original (confidential) events, located on ``domain``'s network.
        domain: the network.
        rng: the only source of randomness.
        epsilon, delta, alpha: the guarantee; alpha in coordinate units along the network.
        resolution: the longest piece (Kim & Lim: 50 m); the knots are the pieces' ends.
        length_prior: ``(shape, scale)`` of the inverse-gamma prior on ``l``; default shape 2 and a mode of
            ``log l`` at a fifth of the larger side of the network's bounding box (as :mod:`.lgcp_dp`).
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Raises:
        ParameterError("points" / "epsilon" / "delta" / "alpha" / "resolution" / "length_prior" / "network").
    """
    points = domain.check_locations(points)
    n = len(points)
    if n < 1:
        raise ParameterError("points", "the LGCP synthesizer needs at least one event")
    epsilon = mechanisms.check_epsilon(epsilon)
    delta, alpha = _check_delta(delta), _check_alpha(alpha)
    resolution = check_resolution(domain.net, resolution)
    _check_knots(domain, resolution)
    xmin, ymin, xmax, ymax = domain.bounds
    try:
        shape, scale = length_prior if length_prior is not None else (2.0, 2.0 * max(xmax - xmin, ymax - ymin) / 5.0)
        prior = InverseGammaLengthPrior(float(shape), float(scale))
    except (ParameterError, TypeError, ValueError) as exc:
        raise ParameterError("length_prior", f"the prior on l must be (shape, scale), both > 0: {exc}") from None
    partition = domain.partition(resolution, 0.0)

    report(progress, 0.0, "Resistance metric between the knots")
    knots = partition.knots
    resistance = resistance_distances(partition.net, knots, knots, progress=scaled(progress, 0.0, 0.15))
    report(progress, 0.15, "Calibrating sigma^2 / l (Theorem 3.8)")
    cal = calibrate_kappa(partition, resistance, epsilon, delta, alpha, scaled(progress, 0.15, 0.25))

    ends = partition.piece_knots
    piece = partition.pieces.locate(points)
    u = (points.t - partition.pieces.t0[piece]) / (partition.pieces.t1[piece] - partition.pieces.t0[piece])
    y = np.bincount(ends[piece, 0], weights=1.0 - u, minlength=partition.n_knots)
    y += np.bincount(ends[piece, 1], weights=u, minlength=partition.n_knots)
    offset = math.log(n / domain.measure)
    posterior = _Posterior(resistance, y, partition.knot_weights, offset, cal.kappa, cal.nugget)

    lo, hi = (stats.invgamma.ppf(q, prior.shape, scale=prior.scale) for q in LENGTH_QUANTILES)
    lengths = np.exp(np.linspace(math.log(lo), math.log(hi), LENGTH_GRID))
    modes, start = [], None
    for i, length in enumerate(lengths):
        report(progress, 0.25 + 0.6 * i / LENGTH_GRID, f"Posterior at length scale {length:.4g}")
        mode = posterior.mode(float(length), start)
        modes.append(mode)
        start = mode.a
    log_post = np.array([prior.log_density(math.log(m.length)) + m.log_q for m in modes])
    log_post[~np.isfinite(log_post)] = -np.inf
    if not np.isfinite(log_post).any():
        raise ParameterError(
            "epsilon", "the posterior could not be approximated at any length scale: use a smaller epsilon or delta"
        )
    probs = np.exp(log_post - log_post.max())
    probs /= probs.sum()
    report(progress, 0.85, "Drawing from the posterior")
    chosen = modes[mechanisms.categorical(rng, probs)]
    eta = offset + posterior.draw(rng, chosen)
    del posterior, resistance

    start_eta, end_eta = eta[ends[:, 0]], eta[ends[:, 1]]
    diff = end_eta - start_eta
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        mean_exp = np.where(np.abs(diff) > 1e-12, np.expm1(diff) / diff, 1.0 + 0.5 * diff)
        expected = float(np.sum(partition.pieces.lengths * np.exp(start_eta) * mean_exp))
    if not expected <= MAX_EVENTS:  # a post-processing of the draw: refusing reveals no more than the draw
        raise ParameterError(
            "epsilon",
            f"the drawn intensity integrates to {expected:.3g} events (sigma = {cal.sigma(chosen.length):.3g} at the "
            f"drawn length scale): a field this variable is beyond the Gaussian approximation of the posterior. Use "
            f"a smaller epsilon or delta.",
        )
    report(progress, 0.95, "Drawing the synthetic events on the network")
    synthetic = sample_on_pieces(rng, partition.pieces, np.exp(start_eta), np.exp(end_eta))
    x, y_out = synthetic.xy(partition.net)
    report(progress, 1.0, f"Drew {len(synthetic)} synthetic events")
    return NetworkLGCPSynthesis(
        synthetic,
        x,
        y_out,
        cal,
        chosen.length,
        cal.sigma(chosen.length),
        eta,
        expected,
        lengths,
        probs,
        partition,
        n,
    )
