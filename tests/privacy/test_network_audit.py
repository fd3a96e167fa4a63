"""Privacy audit of Kim & Lim's synthesizers on a linear network (Section 4.2): the Laplace Cox synthesizer on the
network's pieces (core.synthesis.network_laplace, pure epsilon-DP) and the LGCP synthesizer
(core.synthesis.network_lgcp, a nominal (epsilon, delta)).

**Laplace, exact, on spatstat's chicago** (feet; pieces of at most 50 m = 164.04 ft, merged into regions of at least a
quarter of that by default, and unmerged with ``min_piece_fraction = 0``, where the shortest piece is about 9.5 ft).
The release is the vector ``gamma_i = max(0, count_i / |S_i| + L_i)`` of the regions' noisy intensities, ``L_i``
independent Laplace of scale ``b = Delta / epsilon_cells``, ``Delta = 1/|S_p| + 1/|S_q|`` of the two shortest
regions (the synthetic events are a Poisson process drawn from it: post-processing). Its exact density (an atom at 0
and the Laplace density above; ``ClampedLaplace`` in conftest.py, shared with the planar audit) gives the largest
log-density ratio of the released vector between two data sets: the sum over regions of each region's supremum.

What the audit reads from the real ``synthesize_network_laplace``, on the real crimes: the generator is a stand-in
(:class:`PlannedLaplace`) whose standard Laplace draws are planned, so the release shows the code's own means
``count_i / |S_i|`` (all draws 0: ``gamma = mu``) and its own noise scale (a draw of 1 in a region without events:
``gamma = b`` there, exactly). The ratio is then computed for the data sets D (the crimes and one event in the
shortest region p), D' (that event moved to the second shortest region q: an alpha-neighbour for every alpha) and
D- (that event removed), from the means and the scale the code used, and held to the guarantee the release states:
``epsilon_alpha`` when the event moves (attained exactly: p and q are where Theorem 3.10's bound is tight) and the
regions' share ``epsilon_cells (1/|S_p|) / Delta`` of ``epsilon_add_remove`` when it is added or removed. Every other
pair of regions an event can move between, and every region it can be added to, is checked with the code's scale and
its means of D- (one event in region ``i`` adds ``1/|S_i|``, checked against the code for p): none exceeds the pair
(p, q). The noisy total (``total_share > 0``) is the planar one on ``n``; its exact pmf from the real network
synthesizer, for every value of its integer noise (``PlannedGeometric.release_log_pmf``), costs nothing when an event
moves and at most its share when one is added.

The variant that must fail: the same synthesizer with a generator whose Laplace draws are half as wide (the noise of
``2 epsilon`` while the release still states ``epsilon``): the audit measures ``2 epsilon_cells``.

**LGCP, stochastic.** As test_lgcp_audit.py: one event (``n = 1``), moved by exactly ``alpha`` from one knot to the
next, where the piecewise-linear basis puts its whole weight on one knot's field value; the statistic is the released
log intensity at the two knots, ``T = eta(knot of x) - eta(knot of x')`` (the draw ``log_intensity_knots`` that
Theorem 3.8 protects), events ``{T > tau}`` and ``{T < -tau}`` for fixed ``tau``, and ``epsilon_lower_bounds`` with
delta: false-alarm rate :data:`conftest.FALSE_ALARM` (1e-3). The network is a unit square with a tail of length 1
(pieces of 0.5, 9 knots), the event at the tail's dead end: a knot with half the dual length of the others and the
loosest prior tie to the rest, where one event moves the posterior most (about 30% more than from a corner of the
square, measured). A release costs about a millisecond, so the real synthesizer runs as is. Theorem 3.8's calibration
is conservative (Chebyshev and a union bound over every pair of pieces within alpha): at the calibrated
``kappa = sigma^2 / l`` the spread of ``T`` is about 0.006 and the move shifts it by far less. The variant that must
fail is the synthesizer calibrated for 500 epsilon (``kappa`` 250,000 times larger): ``T`` then moves by about 1.8 of
its standard deviations (measured: the bound is 1.4 to 1.8 over three seeds; at 300 epsilon 0.9 to 1.25, too close;
at 1000 epsilon about one release in 800 draws a field too variable to sample and is refused).

Floating point: the exact log ratios are sums of a few terms of size up to ``mu / b`` (below 10 here), checked with an
absolute slack of ``1e-12``.
"""

from __future__ import annotations

import numpy as np
import pytest

from spatial_privacy.core.network.domain import NetworkDomain
from spatial_privacy.core.network.network import LinearNetwork, NetworkPoints
from spatial_privacy.core.synthesis.network_laplace import synthesize_network_laplace
from spatial_privacy.core.synthesis.network_lgcp import synthesize_network_lgcp

SLACK = 1e-12
RESOLUTION = 164.04  # Kim & Lim's 50 m in feet
#: ``min_piece_fraction`` of the partitions audited: the default (merged regions) and 0 (every piece a region).
FRACTIONS = {"merged": None, "unmerged": 0.0}


class PlannedLaplace:
    """A stand-in for ``numpy.random.Generator`` whose ``laplace(0, 1, size)`` returns ``width x plan`` (the one call
    of :func:`spatial_privacy.core.mechanisms.laplace` in a release); every other method is the wrapped generator's.
    ``width = 1`` is a standard Laplace generator's draw of ``plan``; ``width = 1/2`` a generator whose draws are half
    as wide."""

    def __init__(self, plan, rng: np.random.Generator, width: float = 1.0):
        self._plan = np.asarray(plan, dtype=np.float64)
        self._rng = rng
        self._width = width
        self.calls = 0

    def laplace(self, loc=0.0, scale=1.0, size=None):
        assert loc == 0.0 and scale == 1.0 and tuple(np.atleast_1d(size)) == self._plan.shape, (loc, scale, size)
        self.calls += 1
        return self._width * self._plan

    def __getattr__(self, name):
        return getattr(self._rng, name)


def _join(*points: NetworkPoints) -> NetworkPoints:
    return NetworkPoints(np.concatenate([p.edge for p in points]), np.concatenate([p.t for p in points]))


def _event_in(partition, region: int) -> NetworkPoints:
    """An event in the middle of the first piece of ``region``."""
    piece = int(np.flatnonzero(partition.region == region)[0])
    return partition.pieces.at(np.array([piece]), np.array([0.5]))


@pytest.fixture(scope="module", params=list(FRACTIONS))
def chicago(request, chicago_network):
    """``(name, partition, data)``: chicago's pieces (merged or not) and the data sets D (the crimes and an event in
    the shortest region p), D' (that event in the second shortest q) and D- (the crimes alone)."""
    domain, crimes = chicago_network
    fraction = FRACTIONS[request.param]
    partition = domain.partition(RESOLUTION) if fraction is None else domain.partition(RESOLUTION, fraction)
    assert (partition.merged > 0) == (fraction is None)  # the default does merge short pieces on chicago
    p, q = (int(r) for r in np.argsort(partition.region_measure)[:2])
    data = {
        "D": _join(crimes, _event_in(partition, p)),
        "D'": _join(crimes, _event_in(partition, q)),
        "D-": crimes,
    }
    return request.param, partition, data, p, q


def _read_release(points, partition, epsilon: float, total_share: float, empty: int, width: float = 1.0):
    """``(mu, b, guarantee)`` as the real synthesizer used them: its means (all Laplace draws 0) and its noise scale
    (a draw of 1 in the ``empty`` region, which has no event, so that ``gamma = 0 + 1 x b`` there)."""
    released = []
    for plan in (np.zeros(partition.n_regions), np.eye(partition.n_regions)[empty]):
        rng = PlannedLaplace(plan, np.random.default_rng(5), width)
        release = synthesize_network_laplace(points, partition, rng, epsilon=epsilon, total_share=total_share)
        assert rng.calls == 1
        released.append(release)
    mu = released[0].noisy_intensity
    assert mu[empty] == 0.0
    return mu, float(released[1].noisy_intensity[empty]), released[0].guarantee


def _measured_losses(chicago, clamped_laplace, epsilon: float, total_share: float, width: float = 1.0):
    """The exact largest log-density ratios of the real releases: ``(moved, added, mu, b, guarantee)``, ``moved``
    between D and D' (both directions), ``added`` between D and D- (both directions)."""
    _, partition, data, p, q = chicago
    counts = sum(partition.counts(points) for points in data.values())
    empty = int(np.flatnonzero(counts == 0)[0])
    read = {name: _read_release(points, partition, epsilon, total_share, empty, width) for name, points in data.items()}
    (b,) = {scale for _, scale, _ in read.values()}  # one scale, whatever the data
    mu = {name: values[0] for name, values in read.items()}

    def loss(a: str, c: str) -> float:
        return max(
            float(np.sum(clamped_laplace.sup_log_ratio(mu[a], mu[c], b))),
            float(np.sum(clamped_laplace.sup_log_ratio(mu[c], mu[a], b))),
        )

    return loss("D", "D'"), loss("D", "D-"), mu, b, read["D"][2]


@pytest.mark.parametrize("total_share", [0.0, 0.25])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 4.0])
def test_network_laplace_intensities_are_epsilon_dp_exactly(
    chicago, epsilon, total_share, clamped_laplace, record_loss
):
    name, partition, _, p, q = chicago
    moved, added, mu, b, g = _measured_losses(chicago, clamped_laplace, epsilon, total_share)
    record_loss(f"network laplace, {name}, moved point, share {total_share}", moved, g.epsilon_alpha, "exact density")
    assert moved <= g.epsilon_alpha + SLACK
    assert moved == pytest.approx(g.epsilon_cells, abs=SLACK)  # attained by the two shortest regions
    cells_add_remove = g.epsilon_add_remove - g.epsilon_total
    record_loss(f"network laplace, {name}, added point, share {total_share}", added, cells_add_remove, "exact density")
    assert added <= cells_add_remove + SLACK
    assert added == pytest.approx(cells_add_remove, abs=SLACK)  # attained: p is the shortest region

    # every other pair of regions, and every region, with the code's scale and means: none is worse than (p, q)
    shift = 1.0 / partition.region_measure  # one event in region i adds this to mu_i
    np.testing.assert_allclose(mu["D"] - mu["D-"], np.eye(partition.n_regions)[p] * shift[p], rtol=1e-12, atol=0)
    np.testing.assert_allclose(mu["D'"] - mu["D-"], np.eye(partition.n_regions)[q] * shift[q], rtol=1e-12, atol=0)
    base = mu["D-"]
    up = clamped_laplace.sup_log_ratio(base + shift, base, b)  # region i with the event against without
    down = clamped_laplace.sup_log_ratio(base, base + shift, b)
    pairs = up[:, None] + down[None, :]  # the event in i (first data set) or in j (second), both orders over i, j
    np.fill_diagonal(pairs, -np.inf)
    assert pairs.max() <= moved + SLACK
    assert set(np.unravel_index(np.argmax(pairs), pairs.shape)) == {p, q}
    assert max(up.max(), down.max()) <= added + SLACK


@pytest.mark.parametrize("epsilon", [1.0])
def test_network_laplace_audit_catches_half_the_noise(chicago, epsilon, clamped_laplace, record_loss):
    """Laplace draws half as wide (the noise of 2 epsilon) under a release that states epsilon: the exact loss is
    ``2 epsilon_cells`` when the event moves and twice the regions' share when it is added."""
    name, *_ = chicago
    moved, added, _, _, g = _measured_losses(chicago, clamped_laplace, epsilon, 0.0, width=0.5)
    record_loss(f"network laplace, {name}, half the noise (must fail)", moved, g.epsilon_alpha, "exact density")
    assert moved > g.epsilon_alpha
    assert moved == pytest.approx(2 * g.epsilon_cells, abs=SLACK)
    assert added == pytest.approx(2 * g.epsilon_add_remove, abs=SLACK)


def test_network_noisy_total_adds_its_share_under_add_remove_and_nothing_when_a_point_moves(
    chicago_network, planned_geometric, record_loss
):
    """With a total share, the released total ``max(0, grid Laplace of n)`` from the real network synthesizer, for
    every value of its integer noise: the same pmf when an event moves between the two shortest regions, and a pmf
    ratio between ``n`` and ``n - 1`` events within ``s epsilon`` (64/65 of it: ``n`` is 64 grid steps from ``n - 1``).
    Four crimes and the event, so that the enumeration passes the clamp at 0 cheaply; 200 steps above it, beyond
    which the pmf ratio is the constant it has there."""
    epsilon, share = 1.0, 0.25
    domain, crimes = chicago_network
    partition = domain.partition(RESOLUTION)
    p, q = (int(r) for r in np.argsort(partition.region_measure)[:2])
    others = crimes.take(np.arange(4))
    data = {"D": _join(others, _event_in(partition, p)), "D'": _join(others, _event_in(partition, q)), "D-": others}
    n = len(data["D"])
    zs = np.arange(-64 * (n + 1) - 10, 201)
    pmfs = {}
    for name, points in data.items():

        def total(rng, points=points):
            release = synthesize_network_laplace(points, partition, rng, epsilon=epsilon, total_share=share)
            return release.noisy_total

        pmfs[name] = planned_geometric.release_log_pmf(total, zs, np.random.default_rng(3))
        assert min(pmfs[name]) == 0.0
    g = synthesize_network_laplace(
        data["D"], partition, np.random.default_rng(0), epsilon=epsilon, total_share=share
    ).guarantee
    assert pmfs["D'"] == pmfs["D"]
    common = sorted(set(pmfs["D"]) & set(pmfs["D-"]))
    total_loss = max(abs(pmfs["D"][v] - pmfs["D-"][v]) for v in common)
    record_loss("network laplace noisy total, added point", total_loss, g.epsilon_total, "exact pmf")
    assert total_loss <= g.epsilon_total + SLACK
    assert total_loss >= 64 / 65 * g.epsilon_total - SLACK
    cells = g.epsilon_cells * g.sensitivity_add_remove / g.sensitivity
    assert cells + total_loss <= g.epsilon_add_remove + SLACK


# -- LGCP --------------------------------------------------------------------------------------------------------

EPSILON, DELTA, ALPHA = 1.0, 0.01, 0.5
#: A unit square (vertices 0-3) with a tail from (0, 0) to the dead end (-1, 0); pieces of 0.5.
TAIL = LinearNetwork.from_segments(
    np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [-1.0, 0.0]]),
    np.array([[0, 1], [1, 2], [2, 3], [3, 0], [4, 0]]),
)
TAIL_DOMAIN = NetworkDomain(TAIL)
LGCP_RESOLUTION = 0.5
#: The event at the dead end (-1, 0) and moved by alpha to the next knot (-0.5, 0).
X, X_MOVED = NetworkPoints([4], [0.0]), NetworkPoints([4], [0.5])
#: Thresholds of the events, fixed before any release is drawn (from below the calibrated spread of T, about 0.006,
#: to the variant's, about 2).
THRESHOLDS = np.array([0.0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 2.0, 3.0])
#: Releases per data set: enough for the variant's events to give a lower bound above epsilon at the Bonferroni level
#: 1e-3 / 40.
RELEASES = 400
#: The variant that must fail: the synthesizer calibrated for this many times epsilon (module docstring).
VARIANT = 500


def _lgcp_release(point, epsilon: float, rng):
    return synthesize_network_lgcp(
        point, TAIL_DOMAIN, rng, epsilon=epsilon, delta=DELTA, alpha=ALPHA, resolution=LGCP_RESOLUTION
    )


@pytest.fixture(scope="module")
def lgcp_contrasts():
    """``T`` of ``RELEASES`` releases for D = {x} and D' = {x'}, at epsilon and at :data:`VARIANT` epsilon."""
    first = _lgcp_release(X, EPSILON, np.random.default_rng(0))
    kx, ky = first.partition.knots.xy(TAIL)
    (i,) = np.flatnonzero((kx == -1.0) & (ky == 0.0))
    (j,) = np.flatnonzero((kx == -0.5) & (ky == 0.0))
    assert X.xy(TAIL) == (kx[[i]], ky[[i]]) and X_MOVED.xy(TAIL) == (kx[[j]], ky[[j]])
    assert first.calibration.alpha == ALPHA == 0.5  # x' is exactly alpha along the network from x
    out = {}
    variant = VARIANT * EPSILON
    runs = [("D", X, EPSILON), ("D'", X_MOVED, EPSILON), ("D", X, variant), ("D'", X_MOVED, variant)]
    for seed, (name, point, epsilon) in enumerate(runs):
        rng = np.random.default_rng(60 + seed)
        releases = [_lgcp_release(point, epsilon, rng).log_intensity_knots for _ in range(RELEASES)]
        out[(name, epsilon)] = np.array([eta[i] - eta[j] for eta in releases])
    return out


def _lgcp_audit(contrasts, epsilon: float, audit_events):
    a, b = contrasts[("D", epsilon)], contrasts[("D'", epsilon)]
    first = [np.sum(a > t) for t in THRESHOLDS] + [np.sum(b < -t) for t in THRESHOLDS]
    second = [np.sum(b > t) for t in THRESHOLDS] + [np.sum(a < -t) for t in THRESHOLDS]
    return audit_events(first, RELEASES, second, RELEASES, delta=DELTA)


def test_network_lgcp_keeps_its_nominal_epsilon_delta(lgcp_contrasts, audit_events, record_loss):
    result = _lgcp_audit(lgcp_contrasts, EPSILON, audit_events)
    record_loss("network lgcp, dead end to next knot (99.9% bound)", result.bound, EPSILON, f"delta {DELTA:g}")
    assert result.bound <= EPSILON


def test_network_lgcp_audit_catches_a_kappa_for_500_epsilon(lgcp_contrasts, audit_events, record_loss):
    result = _lgcp_audit(lgcp_contrasts, VARIANT * EPSILON, audit_events)
    record_loss("network lgcp, kappa for 500 eps (must fail): estimate", result.estimate, EPSILON, f"delta {DELTA:g}")
    record_loss("network lgcp, kappa for 500 eps (must fail): 99.9% bound", result.bound, EPSILON, f"delta {DELTA:g}")
    assert result.bound > EPSILON
