"""Kim & Lim's Cox point synthesizers on a linear network (Section 4.2): the network domain and its pieces
(core/network/domain.py), the Laplace synthesizer (core/synthesis/network_laplace.py) and the LGCP synthesizer
(core/synthesis/network_lgcp.py), on spatstat's ``chicago`` (feet; 50 m = 164.04 ft)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.network.distances import point_distances
from spatial_privacy.core.network.domain import POSITION_STEPS, NetworkDomain, sample_on_pieces
from spatial_privacy.core.network.network import LinearNetwork, NetworkPoints, build_network
from spatial_privacy.core.network.pieces import discretise
from spatial_privacy.core.network.resistance import resistance_distances
from spatial_privacy.core.synthesis import laplace_cox, network_lgcp
from spatial_privacy.core.synthesis.network_laplace import NetworkLaplaceSynthesis, synthesize_network_laplace
from spatial_privacy.core.synthesis.network_lgcp import synthesize_network_lgcp

RESOLUTION = 164.04  # 50 m in feet


@pytest.fixture(scope="module")
def chicago(chicago_streets, chicago_crimes):
    net, _ = build_network(chicago_streets, 0.0)
    domain = NetworkDomain(net)
    return domain, domain.place(*chicago_crimes)


def on_grid(partition_pieces, points: NetworkPoints) -> np.ndarray:
    """Each location's position within its piece in grid steps, minus the grid's half step (whole numbers on the
    release grid)."""
    piece = partition_pieces.locate(points)
    u = (points.t - partition_pieces.t0[piece]) / (partition_pieces.t1[piece] - partition_pieces.t0[piece])
    return u * POSITION_STEPS - 0.5


def assert_on_the_network(domain: NetworkDomain, synthesis) -> None:
    x, y = synthesis.points.xy(domain.net)
    np.testing.assert_array_equal(synthesis.x, x)
    np.testing.assert_array_equal(synthesis.y, y)
    extent = math.hypot(*np.ptp(domain.net.vertices, axis=0))
    assert np.all(domain.distance(synthesis.x, synthesis.y) < 1e-9 * extent)


# -- the domain and its pieces --------------------------------------------------------------------------------


def test_pieces_partition_the_network_and_their_knots_are_their_ends(chicago):
    domain, _ = chicago
    part = domain.partition(RESOLUTION, 0.0)
    pieces = part.pieces
    assert part.n_regions == len(pieces) == np.ceil(domain.net.lengths / RESOLUTION).sum()
    np.testing.assert_array_equal(part.region_measure, pieces.lengths)
    assert part.region_measure.sum() == pytest.approx(domain.measure, rel=1e-13)
    assert np.all(pieces.lengths <= RESOLUTION * (1 + 1e-12))
    # knots: the network's 338 vertices and one knot per cut inside an edge, at the pieces' ends
    assert part.n_knots == domain.net.n_vertices + int(np.sum(pieces.count - 1))
    kx, ky = part.knots.xy(domain.net)
    for column, u in ((0, 0.0), (1, 1.0)):
        ex, ey = pieces.at(np.arange(len(pieces)), np.full(len(pieces), u)).xy(domain.net)
        np.testing.assert_allclose(kx[part.piece_knots[:, column]], ex, rtol=0, atol=1e-9)
        np.testing.assert_allclose(ky[part.piece_knots[:, column]], ey, rtol=0, atol=1e-9)
    assert part.knot_weights.sum() == pytest.approx(domain.measure, rel=1e-13)


def test_short_pieces_merge_into_connected_regions_of_at_least_the_minimum(chicago):
    domain, crimes = chicago
    plain = domain.partition(RESOLUTION, 0.0)
    for fraction in (0.25, 0.5):
        part = domain.partition(RESOLUTION, fraction)
        minimum = fraction * RESOLUTION
        assert part.region_measure.min() >= minimum
        assert part.n_regions < plain.n_regions and part.merged == plain.n_regions - part.n_regions
        assert part.notes and str(part.merged) in part.notes[0]
        assert part.region_measure.sum() == pytest.approx(domain.measure, rel=1e-12)
        # each region is connected: its pieces are linked through shared knots
        for r in range(part.n_regions):
            members = np.flatnonzero(part.region == r)
            reached, frontier = {members[0]}, [members[0]]
            while frontier:
                knots = set(part.piece_knots[frontier].ravel())
                frontier = [p for p in members if p not in reached and knots & set(part.piece_knots[p])]
                reached.update(frontier)
            assert len(reached) == members.size
        assert part.counts(crimes).sum() == len(crimes)
        np.testing.assert_array_equal(part.counts(crimes), part.region_counts(*crimes.xy(domain.net)))


def test_constant_and_log_linear_sampling_follow_the_intensity():
    net = LinearNetwork.from_segments([[0.0, 0.0], [30.0, 0.0], [30.0, 40.0]], [[0, 1], [1, 2]])
    pieces = discretise(net, 10.0)  # 3 pieces of 10, 4 of 10
    rng = np.random.default_rng(11)
    # constant: Poisson counts per piece
    rate = np.linspace(5.0, 40.0, len(pieces))
    counts = np.zeros(len(pieces))
    for _ in range(20):
        counts += np.bincount(pieces.locate(sample_on_pieces(rng, pieces, rate)), minlength=len(pieces))
    expected = 20 * rate * pieces.lengths
    assert np.sum((counts - expected) ** 2 / expected) < stats.chi2.ppf(1 - 1e-4, len(pieces))
    # log-linear from 1 to e^3 per unit length along each piece: the mean position within a piece
    start, end = np.full(len(pieces), 20.0), np.full(len(pieces), 20.0 * math.e**3)
    located = sample_on_pieces(rng, pieces, start, end)
    piece = pieces.locate(located)
    u = (located.t - pieces.t0[piece]) / (pieces.t1[piece] - pieces.t0[piece])
    c = 3.0
    mean_u = 1 / (1 - math.exp(-c)) - 1 / c
    var_u = (math.exp(c) * (1 - 2 / c + 2 / c**2) - 2 / c**2) / (math.exp(c) - 1) - mean_u**2
    assert abs(u.mean() - mean_u) < 4 * math.sqrt(var_u / u.size)
    total = 20.0 * (math.e**3 - 1) / c * pieces.lengths.sum()
    assert abs(u.size - total) < 4 * math.sqrt(total)


# -- the Laplace synthesizer ----------------------------------------------------------------------------------


def test_laplace_sensitivity_is_the_brute_force_max_over_pairs_of_pieces(chicago):
    domain, _ = chicago
    for fraction in (0.0, 0.25):
        part = domain.partition(RESOLUTION, fraction)
        inverse = 1.0 / part.region_measure
        pair = inverse[:, None] + inverse[None, :]
        np.fill_diagonal(pair, -np.inf)
        g = laplace_cox.laplace_guarantee(part.region_measure, 1.0)
        assert g.sensitivity == pytest.approx(pair.max(), rel=1e-15)
        assert g.sensitivity_add_remove == pytest.approx(inverse.max(), rel=1e-15)
        assert g.epsilon_add_remove == pytest.approx(inverse.max() / pair.max(), rel=1e-15)
    # the paper's pieces: the 9.46 ft edge and the next shortest set Delta
    assert laplace_cox.laplace_guarantee(domain.partition(RESOLUTION, 0.0).region_measure, 1.0).sensitivity > 0.19


def test_laplace_events_lie_on_the_network_at_grid_positions(chicago):
    domain, crimes = chicago
    part = domain.partition(RESOLUTION)
    out = synthesize_network_laplace(crimes, part, np.random.default_rng(3), epsilon=1.0)
    assert isinstance(out, NetworkLaplaceSynthesis) and isinstance(out, laplace_cox.LaplaceCoxSynthesis)
    assert len(out.points) > len(crimes)
    assert_on_the_network(domain, out)
    steps = on_grid(part.pieces, out.points)
    np.testing.assert_allclose(steps, np.rint(steps), rtol=0, atol=1e-4)
    assert "per unit length" in out.guarantee.text and "Noise of the pieces" in out.guarantee.text


def _clamped_laplace_moments(mean, scale):
    """Mean and variance of max(0, m + Laplace(b)) for m >= 0: m + b e^(-m/b) / 2 and
    m^2 + 2 b^2 - b^2 e^(-m/b) - mean^2."""
    tail = np.exp(-mean / scale)
    first = mean + 0.5 * scale * tail
    return first, mean**2 + 2 * scale**2 - scale**2 * tail - first**2


def test_laplace_count_is_n_plus_the_noise_mass(chicago):
    domain, crimes = chicago
    part = domain.partition(RESOLUTION)
    eps, reps = 1.0, 200
    g = laplace_cox.laplace_guarantee(part.region_measure, eps)
    m = part.counts(crimes) / part.region_measure
    mean, var = _clamped_laplace_moments(m, g.noise_scale)
    expected = float(np.sum(part.region_measure * mean))  # n plus the noise's mass
    assert expected == pytest.approx(len(crimes) + float(np.sum(part.region_measure * 0.5 * g.noise_scale *
                                                                   np.exp(-m / g.noise_scale))))  # fmt: skip
    sd = math.sqrt(expected + float(np.sum(part.region_measure**2 * var)))  # Poisson given gamma, plus gamma's
    rng = np.random.default_rng(4)
    counts = [len(synthesize_network_laplace(crimes, part, rng, epsilon=eps).points) for _ in range(reps)]
    assert abs(np.mean(counts) - expected) < 4 * sd / math.sqrt(reps)
    assert expected > 5 * len(crimes)  # the count explodes, as in Kim & Lim's Table 2


def test_laplace_noisy_total_keeps_the_count_near_n(chicago):
    domain, crimes = chicago
    part = domain.partition(RESOLUTION)
    rng = np.random.default_rng(5)
    reps, eps, share = 100, 1.0, 0.2
    counts = []
    for _ in range(reps):
        out = synthesize_network_laplace(crimes, part, rng, epsilon=eps, total_share=share)
        assert out.noisy_total is not None and len(out.points) == pytest.approx(out.noisy_total, abs=6 * 30)
        counts.append(len(out.points))
    scale = 65 / 64 / (share * eps)
    sd = math.sqrt(len(crimes) + 2 * scale**2)
    assert abs(np.mean(counts) - len(crimes)) < 4 * sd / math.sqrt(reps)


def test_laplace_seed_reproduces_the_release(chicago):
    domain, crimes = chicago
    part = domain.partition(RESOLUTION)
    a, b, c = (synthesize_network_laplace(crimes, part, np.random.default_rng(s), epsilon=2.0) for s in (7, 7, 8))
    np.testing.assert_array_equal(a.points.edge, b.points.edge)
    np.testing.assert_array_equal(a.points.t, b.points.t)
    np.testing.assert_array_equal(a.noisy_intensity, b.noisy_intensity)
    assert not np.array_equal(a.noisy_intensity, c.noisy_intensity)


# -- the LGCP synthesizer -------------------------------------------------------------------------------------


def test_lgcp_events_lie_on_the_network_and_their_count_is_near_n(chicago):
    domain, crimes = chicago
    n, reps = len(crimes), 30
    counts, expected = [], []
    for seed in range(reps):
        out = synthesize_network_lgcp(
            crimes, domain, np.random.default_rng(seed), epsilon=1.0, delta=1 / n, alpha=RESOLUTION,
            resolution=RESOLUTION,
        )  # fmt: skip
        counts.append(len(out.points))
        expected.append(out.expected_count)
    assert_on_the_network(domain, out)
    steps = on_grid(out.partition.pieces, out.points)
    np.testing.assert_allclose(steps, np.rint(steps), rtol=0, atol=1e-4)
    # the intercept is log(n / |L|) and the calibrated field is small: the drawn intensity integrates to about n
    assert np.all(np.abs(np.array(expected) / n - 1) < 0.05)
    # given the intensity the count is Poisson: the mean of 30 counts lies within 4 standard errors
    assert abs(np.mean(counts) - np.mean(expected)) < 4 * math.sqrt(np.mean(expected) / reps)
    assert out.calibration.pairs > 0 and "nominal, not proven" in out.guarantee
    assert out.length_probabilities.sum() == pytest.approx(1.0)


def test_lgcp_calibration_satisfies_theorem_38_by_brute_force(chicago):
    """Theorem 3.8 on pieces, summed by brute force: all pairs of pieces within alpha along the network (dense
    shortest paths between all knots), each pair's largest variance of a difference over its end knots with the
    exact exponential covariance in the resistance metric; 4 / eps^2 times the sum is at most delta at every l and
    reaches it as l grows."""
    domain, crimes = chicago
    eps, delta, alpha = 2.0, 1 / len(crimes), 300.0
    part = domain.partition(RESOLUTION, 0.0)
    knots, ends = part.knots, part.piece_knots
    resistance = resistance_distances(domain.net, knots, knots)
    cal = network_lgcp.calibrate_kappa(part, resistance, eps, delta, alpha)
    shortest = point_distances(domain.net, knots, knots)
    gap = np.full((len(part.pieces),) * 2, np.inf)
    for i in range(2):
        for j in range(2):
            gap = np.minimum(gap, shortest[np.ix_(ends[:, i], ends[:, j])])
    p, q = np.nonzero(np.triu(gap <= alpha, k=1))
    assert cal.pairs == p.size

    def condition(length, limit=False):
        sigma2 = cal.kappa * length
        worst = np.zeros(p.size)
        for i in range(2):
            for j in range(2):
                a, b = ends[p, i], ends[q, j]
                d = resistance[a, b]
                var = 2 * cal.kappa * d if limit else 2 * sigma2 * -np.expm1(-d / length)
                worst = np.maximum(worst, np.where(a != b, var + 2 * cal.nugget, 0.0))
        return 4 / eps**2 * worst.sum()

    for length in (10.0, 300.0, 1e4, 1e7):
        assert condition(length) <= delta * (1 + 1e-12)
    assert condition(10.0) < condition(1e4) < condition(1e7)  # increasing in l towards the l-free bound
    pair_share = (cal.sum_d + cal.pairs * network_lgcp.NUGGET_PER_KAPPA_S * RESOLUTION) / max(
        cal.sum_d + cal.pairs * network_lgcp.NUGGET_PER_KAPPA_S * RESOLUTION,
        cal.knot_sum_d + cal.knot_pairs * network_lgcp.NUGGET_PER_KAPPA_S * RESOLUTION,
    )
    assert condition(1.0, limit=True) == pytest.approx(delta * pair_share, rel=1e-9)
    # the drawn sigma / l at any l follows from kappa
    assert cal.ratio(400.0) == pytest.approx(math.sqrt(cal.kappa * 400.0) / 400.0)


def test_lgcp_seed_reproduces_the_release(chicago):
    domain, crimes = chicago
    kw = dict(epsilon=5.0, delta=0.01, alpha=RESOLUTION, resolution=RESOLUTION)
    a, b, c = (synthesize_network_lgcp(crimes, domain, np.random.default_rng(s), **kw) for s in (1, 1, 2))
    np.testing.assert_array_equal(a.log_intensity_knots, b.log_intensity_knots)
    np.testing.assert_array_equal(a.points.t, b.points.t)
    assert not np.array_equal(a.log_intensity_knots, c.log_intensity_knots)


# -- bad input ------------------------------------------------------------------------------------------------


def test_a_resolution_that_cuts_nothing_is_refused(chicago):
    domain, crimes = chicago
    longest = float(domain.net.lengths.max())
    for resolution in (longest, 1e6):
        with pytest.raises(ParameterError, match="every line of the network is shorter than the resolution") as err:
            domain.partition(resolution)
        assert err.value.parameter == "resolution"
        with pytest.raises(ParameterError) as err:
            synthesize_network_lgcp(
                crimes, domain, np.random.default_rng(0), epsilon=1.0, delta=0.01, alpha=10.0, resolution=resolution
            )
        assert err.value.parameter == "resolution"
    assert len(domain.partition(0.999 * longest).pieces) == domain.net.n_edges + 1
    for resolution in (0.0, -5.0, math.nan, math.inf):
        with pytest.raises(ParameterError) as err:
            domain.partition(resolution)
        assert err.value.parameter == "resolution"


def test_too_many_knots_for_the_lgcp_are_refused_with_a_resolution_that_fits(chicago):
    domain, crimes = chicago
    with pytest.raises(ParameterError) as err:
        synthesize_network_lgcp(
            crimes, domain, np.random.default_rng(0), epsilon=1.0, delta=0.01, alpha=10.0, resolution=5.0
        )
    assert err.value.parameter == "resolution"
    suggested = float(str(err.value).rsplit("at least ", 1)[1])
    assert network_lgcp.knot_count(domain.net, suggested) <= network_lgcp.MAX_KNOTS
    assert network_lgcp.knot_count(domain.net, 0.99 * suggested) > network_lgcp.MAX_KNOTS


def test_bad_input_names_the_parameter(chicago):
    domain, crimes = chicago
    rng = np.random.default_rng(0)
    part = domain.partition(RESOLUTION)
    good = dict(epsilon=1.0, delta=0.01, alpha=RESOLUTION, resolution=RESOLUTION)
    for change, parameter in [
        (dict(epsilon=0.0), "epsilon"),
        (dict(delta=0.0), "delta"),
        (dict(delta=1.0), "delta"),
        (dict(alpha=0.0), "alpha"),
        (dict(alpha=math.inf), "alpha"),
        (dict(length_prior=(0.0, 1.0)), "length_prior"),
    ]:
        with pytest.raises(ParameterError) as err:
            synthesize_network_lgcp(crimes, domain, rng, **{**good, **change})
        assert err.value.parameter == parameter
    for points in (crimes.xy(domain.net), NetworkPoints([10_000], [0.5]), crimes.take(np.zeros(0, dtype=int))):
        with pytest.raises(ParameterError) as err:
            synthesize_network_lgcp(points, domain, rng, **good)
        assert err.value.parameter == "points"
    with pytest.raises(ParameterError) as err:
        synthesize_network_laplace(crimes.xy(domain.net), part, rng, epsilon=1.0)
    assert err.value.parameter == "points"
    for kwargs, parameter in [(dict(epsilon=0.0), "epsilon"), (dict(epsilon=1.0, total_share=1.0), "total_share")]:
        with pytest.raises(ParameterError) as err:
            synthesize_network_laplace(crimes, part, rng, **kwargs)
        assert err.value.parameter == parameter
    x, y = crimes.xy(domain.net)
    with pytest.raises(ParameterError, match="lie off the network") as err:
        part.region_counts(x + 1.0, y)
    assert err.value.parameter == "points"
    assert np.all(part.locate(x + 1.0, y) == -1) and np.all(part.locate(x, y) >= 0)
    for kwargs, parameter in [
        (dict(cell_size=RESOLUTION, shape=(2, 2)), "shape"),
        (dict(cell_size=RESOLUTION, origin=(0.0, 0.0)), "origin"),
        (dict(), "resolution"),
        (dict(cell_size=RESOLUTION, min_cell_fraction=1.0), "min_piece_fraction"),
    ]:
        with pytest.raises(ParameterError) as err:
            domain.grid_partition(**kwargs)
        assert err.value.parameter == parameter
    with pytest.raises(ParameterError) as err:
        NetworkDomain("not a network")
    assert err.value.parameter == "network"


def test_a_field_beyond_the_gaussian_approximation_is_refused(chicago):
    """A huge epsilon and delta allow a field so variable that the posterior's Gaussian approximation draws an
    intensity of millions of events: refused (naming epsilon) before any event is drawn."""
    domain, _ = chicago
    rng = np.random.default_rng(5)
    edges = rng.choice(domain.net.n_edges, 10, replace=False)
    clustered = NetworkPoints(rng.choice(edges, 300), rng.random(300))
    with pytest.raises(ParameterError, match="beyond the Gaussian approximation") as err:
        synthesize_network_lgcp(
            clustered, domain, np.random.default_rng(1), epsilon=1000.0, delta=0.5, alpha=1.0, resolution=RESOLUTION
        )
    assert err.value.parameter == "epsilon"
