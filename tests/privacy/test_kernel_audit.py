"""Privacy audit of Kim & Lim's kernel synthesizer (Theorem 3.6; core.synthesis.kernel): a stochastic audit through
the real ``synthesize_kernel`` on worst-case alpha-neighbours.

The guarantee. With the calibrated bandwidth ``h`` the synthesizer is (epsilon, delta)-DP under the
alpha-neighbourhood: data sets of the same size ``n`` that differ in one point moved by at most ``alpha``.

Worst-case neighbours. ``n = 1``: one point is all the data, so nothing else dilutes its kernel (the intensity is
``K_h(s - x) / c_h(x)``; other points would add to both neighbours' intensities alike), and ``k`` (hence ``h``) is
smallest. The point moves by exactly ``alpha`` in two places: across the window's centre along an axis (the kernel
term of the loss, ``((s - x')^2 - (s - x)^2) / (2 h^2)``, is then largest in size at both far edges) and from where
the calibration found ``|grad log c_h|`` largest (``PlanarDomain.max_log_mass_gradient``: a corner) along that
gradient (the edge-correction term ``r_alpha``).

The statistic. A release is a Poisson process with intensity ``lambda_x(s) = K_h(s - x) / c_h(x)`` (total mass 1),
so its log-likelihood ratio between the neighbours is ``Lambda = sum over the synthetic points s of
log lambda_x(s) / lambda_x'(s)``: the privacy loss random variable itself, whose level sets are the most telling
events (Neyman-Pearson). It is computed here from the definition for the unit square, where the Gaussian mass of the
window factorises, ``c_h(x) = prod_d [Phi((1 - x_d)/h) - Phi(-x_d/h)]`` (independent of the Owen's-T code of
core.synthesis.kernel_mass). The released coordinates are rounded to a grid of ``h / 1024``; ``Lambda`` of the
rounded points is still a statistic of the release, so the DP inequality holds for its events all the same.

The audit. The events ``{Lambda > tau}`` (D against D') and ``{Lambda < -tau}`` (D' against D) for a fixed set of
``tau``, ``RELEASES`` independent releases per data set, and ``epsilon_lower_bounds`` with delta: a false-alarm
rate of 1e-3 per test.

An exact certificate for the centre neighbours. There ``x, x' = (1/2 -+ alpha/2, 1/2)``, the edge corrections are
equal by symmetry, and ``|s - x'|^2 - |s - x|^2 = -2 alpha (s_1 - 1/2)``, so each synthetic point's log ratio lies
within ``+- alpha / (2 h^2)`` and a release of ``N`` points has ``|Lambda| <= N alpha / (2 h^2)``. The loss exceeds
epsilon only if ``N >= m = ceil(2 h^2 epsilon / alpha)``, so the exact delta at epsilon is at most
``P(Poisson(1) >= m)``; at the calibrated bandwidth ``m = 23`` (``P = 1.5e-23``).

Power. The calibration is conservative: Theorem 3.6 charges every one of ``k`` synthetic points the largest
per-point loss at once, so at the calibrated bandwidth the loss of the release stays far below epsilon, and even at
half of it (the calibration for 4 epsilon: ``m = 6``, ``P(N >= 6) = 6e-4 < delta`` by the certificate above) the
synthesizer is still (epsilon, delta)-DP in fact; no audit can fail a mechanism that keeps its guarantee. The
variant that must fail is the synthesizer calibrated for 64 epsilon (a bandwidth of about an eighth, ``m = 1``): its
loss exceeds epsilon on events of probability near 0.2.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import ndtr

from spatial_privacy.core.synthesis import kernel
from spatial_privacy.core.synthesis.domain import PlanarDomain
from spatial_privacy.core.window import Window

EPSILON, DELTA, ALPHA = 1.0, 1e-3, 0.3
DOMAIN = PlanarDomain(Window.rectangle(0.0, 0.0, 1.0, 1.0))
#: Thresholds of the events ``{Lambda > tau}`` and ``{Lambda < -tau}``, fixed before any release is drawn.
THRESHOLDS = np.array([0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0])
#: Releases per data set: enough to resolve events of probability 0.1 to 0.3 (the failing variant's) to a few per cent,
#: so that a log ratio above 2 shows as a lower bound above epsilon at the Bonferroni level 1e-3 / 40.
RELEASES = 4000


def _log_mass(p, h: float) -> float:
    """``log c_h(p)`` on the unit square: the product of the two coordinates' normal masses."""
    return float(sum(math.log(ndtr((1.0 - c) / h) - ndtr(-c / h)) for c in p))


def _log_ratio(sx, sy, a, b, h: float) -> np.ndarray:
    """``log lambda_a(s) / lambda_b(s)`` per synthetic point ``s`` (module docstring)."""
    da = (sx - a[0]) ** 2 + (sy - a[1]) ** 2
    db = (sx - b[0]) ** 2 + (sy - b[1]) ** 2
    return (db - da) / (2 * h * h) + _log_mass(b, h) - _log_mass(a, h)


def _privacy_losses(point, other, calibration, seed: int) -> np.ndarray:
    """``Lambda`` (point against other) of ``RELEASES`` releases of the real synthesizer for the data set
    ``{point}``."""
    rng = np.random.default_rng(seed)
    xs, ys, owner = [], [], []
    for r in range(RELEASES):
        s = kernel.synthesize_kernel(
            [point[0]], [point[1]], DOMAIN, rng, epsilon=calibration.epsilon, delta=DELTA, alpha=ALPHA,
            calibration=calibration,
        )  # fmt: skip
        xs.append(s.x)
        ys.append(s.y)
        owner.append(np.full(s.x.size, r))
    sx, sy, owner = np.concatenate(xs), np.concatenate(ys), np.concatenate(owner)
    per_point = _log_ratio(sx, sy, point, other, calibration.h)
    return np.bincount(owner, weights=per_point, minlength=RELEASES)


def _audit(a, b, calibration, seeds, audit_events):
    """Both directions' events for the neighbours ``{a}`` and ``{b}``."""
    lam_a = _privacy_losses(a, b, calibration, seeds[0])  # log lambda_a / lambda_b under a
    lam_b = _privacy_losses(b, a, calibration, seeds[1])  # log lambda_b / lambda_a under b
    first = [np.sum(lam_a > t) for t in THRESHOLDS] + [np.sum(lam_b > t) for t in THRESHOLDS]
    second = [np.sum(-lam_b > t) for t in THRESHOLDS] + [np.sum(-lam_a > t) for t in THRESHOLDS]
    return audit_events(first, RELEASES, second, RELEASES, delta=DELTA), lam_a, lam_b


@pytest.fixture(scope="module")
def calibration():
    return kernel.calibrate_kernel(1, EPSILON, DELTA, ALPHA, DOMAIN)


def _centre_pair():
    return np.array([0.5 - ALPHA / 2, 0.5]), np.array([0.5 + ALPHA / 2, 0.5])


def _corner_pair(h: float):
    """The point where the calibration's bound of ``|grad log c_h|`` was attained, moved by alpha along the
    gradient of ``log c_h``."""
    found = DOMAIN.max_log_mass_gradient(h, ALPHA)
    a = np.array([found.x, found.y])
    gx, gy = DOMAIN.gaussian_mass_gradient([a[0]], [a[1]], h)
    direction = np.array([gx[0], gy[0]]) / math.hypot(gx[0], gy[0])
    b = a + ALPHA * direction
    assert DOMAIN.contains([b[0]], [b[1]])[0]
    return a, b


@pytest.mark.parametrize("place", ["centre", "corner"])
def test_kernel_synthesizer_keeps_epsilon_delta(place, calibration, audit_events, record_loss):
    a, b = _centre_pair() if place == "centre" else _corner_pair(calibration.h)
    assert math.dist(a, b) == pytest.approx(ALPHA, rel=1e-12)
    result, lam_a, lam_b = _audit(a, b, calibration, (31, 32) if place == "centre" else (33, 34), audit_events)
    worst = max(np.max(np.abs(lam_a)), np.max(np.abs(lam_b)))
    record_loss(f"kernel synthesizer, {place}, largest |Lambda| seen", worst, EPSILON, f"{RELEASES} releases each")
    record_loss(f"kernel synthesizer, {place} (99.9% bound)", result.bound, EPSILON, f"delta {DELTA:g}")
    assert result.bound <= EPSILON


@pytest.mark.parametrize("budget", [1, 4])
def test_centre_neighbours_exact_delta_certificate(budget, record_loss):
    """The certificate of the module docstring: with the bandwidth calibrated for ``budget`` epsilon (1: the
    synthesizer as calibrated; 4: half its bandwidth), the loss of the centre neighbours exceeds epsilon only for
    ``N >= m = ceil(2 h^2 epsilon / alpha)`` synthetic points, which has probability at most delta."""
    h = kernel.calibrate_kernel(1, budget * EPSILON, DELTA, ALPHA, DOMAIN).h
    m = math.ceil(2 * h * h * EPSILON / ALPHA)
    delta_bound = float(stats.poisson.sf(m - 1, 1.0))
    record_loss(f"kernel, centre, bandwidth for {budget} eps: exact delta bound", delta_bound, DELTA, f"N >= {m}")
    assert delta_bound <= DELTA


def test_the_audit_catches_a_bandwidth_an_eighth_of_the_calibrated_one(audit_events, record_loss):
    """The synthesizer calibrated for 64 epsilon (about an eighth of the bandwidth), audited at epsilon."""
    leaky = kernel.calibrate_kernel(1, 64 * EPSILON, DELTA, ALPHA, DOMAIN)
    a, b = _centre_pair()
    result, _, _ = _audit(a, b, leaky, (35, 36), audit_events)
    record_loss("kernel, bandwidth for 64 eps (must fail): estimate", result.estimate, EPSILON, f"delta {DELTA:g}")
    record_loss("kernel, bandwidth for 64 eps (must fail): 99.9% bound", result.bound, EPSILON, f"delta {DELTA:g}")
    assert result.bound > EPSILON
