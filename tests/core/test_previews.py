"""The privacy explorer's preview curves (core.previews) against their theory, on the bundled data."""

from __future__ import annotations

import math
import sqlite3
import time

import numpy as np
import pytest

from spatial_privacy.core import mechanisms
from spatial_privacy.core.counts_calibration import prior_expected
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.grid import GridSpec
from spatial_privacy.core.limits import WINDOW_MARGIN
from spatial_privacy.core.metrics.kfunction import k_function
from spatial_privacy.core.metrics.mise import default_radii, mise
from spatial_privacy.core.previews import counts as count_previews
from spatial_privacy.core.previews import points as point_previews
from spatial_privacy.core.previews import pufferfish as puffer_previews
from spatial_privacy.core.previews.curve import epsilon_grid, epsilon_sentence, odds_factor
from spatial_privacy.core.pufferfish import ErrorModel, PufferfishSettings, pufferfish_grid
from spatial_privacy.core.synthesis.domain import PlanarDomain
from spatial_privacy.core.synthesis.kernel import calibrate_kernel, synthesize_kernel
from spatial_privacy.core.synthesis.laplace_cox import expected_noise_points, planned_release, synthesize_laplace
from spatial_privacy.core.window import Window

from .conftest import DATA, read_gpkg_points

EPSILONS = epsilon_grid(1.0)


class CancelledError(Exception):
    pass


def cancel_after(calls: int):
    seen = []

    def progress(fraction, message):
        seen.append(fraction)
        if len(seen) > calls:
            raise CancelledError

    return progress


# -- the epsilon grid and the sentence --------------------------------------------------------------------------


def test_epsilon_grid_is_log_spaced_around_the_chosen_epsilon_and_holds_it_exactly():
    grid = epsilon_grid(0.7)
    assert grid.size == 25 and 0.7 in grid and np.all(np.diff(grid) > 0)
    assert grid[0] == pytest.approx(0.07) and grid[-1] == pytest.approx(7.0)
    assert np.allclose(np.diff(np.log(grid)), math.log(100) / 24)
    assert 0.3 in epsilon_grid(0.3, 10)  # an even count still holds the chosen epsilon


@pytest.mark.parametrize(
    "epsilon, factor",
    [(1.0, "2.7"), (0.01, "1.01"), (0.1, "1.11"), (0.001, "1.001"), (2.0, "7.4"), (5.0, "150"), (20.0, "4.9 × 10^8")],
)
def test_odds_factor_is_e_to_the_epsilon_rounded_for_people(epsilon, factor):
    assert odds_factor(epsilon) == factor
    assert float(factor.replace(" × 10^", "e")) == pytest.approx(math.exp(epsilon), rel=0.05)


def test_epsilon_sentence_states_the_factor_and_delta():
    assert epsilon_sentence(1.0) == (
        "With ε = 1 an attacker's odds about any one person change by at most a factor 2.7."
    )
    assert epsilon_sentence(0.5, 1e-6).endswith("factor 1.65, except with a probability of at most δ = 1e-06.")
    with pytest.raises(ParameterError) as error:
        epsilon_sentence(1.0, 2.0)
    assert error.value.parameter == "delta"
    with pytest.raises(ParameterError):
        epsilon_sentence(0.0)


# -- Pufferfish -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dwellings():
    return read_gpkg_points(DATA / "sdcspatial_dwellings.gpkg", "dwellings", "consumption")


@pytest.fixture(scope="module")
def dwelling_counts(dwellings):
    x, y, _ = dwellings
    return puffer_previews.cell_counts(x, y, GridSpec(500.0))


def grid_abs_error(n, c, epsilon):
    """E|step Z| by summing the two-sided geometric pmf of mechanisms.grid_laplace term by term."""
    step = 4 * c / n / mechanisms.GRID_STEPS
    a = epsilon / (mechanisms.GRID_STEPS + 1)
    z = np.arange(0, 200_000)
    pmf = np.tanh(a / 2) * np.exp(-a * z)  # P(Z = z) = (1 - q) / (1 + q) q^|z|, z >= 0
    return 2 * np.sum(pmf * step * z)


def test_absolute_pufferfish_curve_is_the_closed_form_from_the_counts(dwelling_counts):
    counts = dwelling_counts
    assert counts.sum() == 90_603
    start = time.perf_counter()
    curve = puffer_previews.pufferfish_error_curve(counts, EPSILONS, 1.0, interval=50.0)
    assert time.perf_counter() - start < 1.0  # the explorer's bar; it takes milliseconds
    assert curve.marked_x == 1.0 and set(curve.series) == {"median", "p90"}
    for index in (0, 12, 24):
        epsilon = EPSILONS[index]
        # the error falls with n, so the median (p90) cell error is that of the cell at the median (10th pct) count
        n_median = np.sort(counts)[math.ceil(0.5 * counts.size) - 1]
        n_p90 = np.sort(counts)[::-1][math.ceil(0.9 * counts.size) - 1]
        assert curve.series["median"][index] == pytest.approx(grid_abs_error(n_median, 50.0, epsilon), rel=1e-9)
        assert curve.series["p90"][index] == pytest.approx(grid_abs_error(n_p90, 50.0, epsilon), rel=1e-9)
        # Theorem 3.1's E|Laplace(4c / (n eps))| = 4c / (n eps), widened by the grid's 65/64; the discrete
        # step / sinh(a) = (step / a)(1 - a^2 / 6 + ...), a = eps / 65
        a = epsilon / 65
        assert curve.series["median"][index] == pytest.approx(
            65 / 64 * 200.0 / (n_median * epsilon), rel=a * a / 6 + 1e-4
        )
    assert curve.marked["median"] == curve.series["median"][12]
    assert np.all(np.diff(curve.series["median"]) < 0) and np.all(curve.series["p90"] >= curve.series["median"])


def test_absolute_error_matches_draws_of_the_grid_mechanism():
    n, c, epsilon = 7, 10.0, 0.8
    settings = PufferfishSettings(epsilon=epsilon, interval=c)
    expected = puffer_previews.expected_absolute_error(settings, np.array([n]))[0]
    release = mechanisms.grid_laplace(np.random.default_rng(5), np.zeros(200_000), 4 * c / n, epsilon)
    errors = np.abs(release.published)
    assert abs(errors.mean() - expected) < 4 * errors.std() / math.sqrt(errors.size)


def test_totals_multiply_the_error_by_the_count(dwelling_counts):
    mean = puffer_previews.pufferfish_error_curve(dwelling_counts, EPSILONS, 1.0, interval=50.0)
    total = puffer_previews.pufferfish_error_curve(dwelling_counts, EPSILONS, 1.0, interval=50.0, statistic="total")
    # n * 4c / (n eps): the total's error is the same in every cell, 65/64 * 4c / eps for small eps
    assert total.marked["median"] == pytest.approx(total.marked["p90"], rel=1e-12)
    assert total.marked["median"] == pytest.approx(65 / 64 * 200.0, rel=1e-2)
    assert mean.marked["median"] < total.marked["median"]


def test_relative_error_matches_draws_and_diverges_when_the_noise_is_too_wide():
    k, epsilon = 0.7, 1.0
    settings = PufferfishSettings(epsilon=epsilon, error_model=ErrorModel.RELATIVE, relative_k=k)
    counts = np.array([1, 6, 20])
    expected = puffer_previews.expected_relative_error(settings, counts)
    b = -4 * math.log(k) / (counts * epsilon)
    assert math.isinf(expected[0])  # b = 1.43 > 1: E e^Y diverges
    assert expected[2] == pytest.approx(b[2] / (1 - b[2] ** 2), rel=0.03)  # the continuous limit b / (1 - b^2)
    release = mechanisms.grid_laplace(np.random.default_rng(8), np.zeros(400_000), -4 * math.log(k) / 6, epsilon)
    errors = np.abs(np.expm1(release.published))
    assert abs(errors.mean() - expected[1]) < 5 * errors.std() / math.sqrt(errors.size)
    curve = puffer_previews.pufferfish_error_curve(counts, EPSILONS, 1.0, error_model="relative", relative_k=k)
    assert math.isinf(curve.series["p90"][0]) and any("infinite" in str(note) for note in curve.notes)


def test_bounded_delta_is_the_grid_delta_of_the_mechanism(dwellings, dwelling_counts):
    x, y, t = dwellings
    settings = PufferfishSettings(
        epsilon=1.0, interval=50.0, bounded=True, lower_bound=0.0, upper_bound=float(t.max()) + 1, margin=200.0
    )
    grid = pufferfish_grid(x, y, t, GridSpec(500.0), settings, np.random.default_rng(1))
    curve = puffer_previews.pufferfish_error_curve(
        dwelling_counts, EPSILONS, 1.0, interval=50.0, bounded=True, lower=0.0, upper=float(t.max()) + 1, margin=200.0
    )
    assert curve.marked["delta"] == pytest.approx(grid.delta, rel=1e-12) and grid.delta > 0
    assert curve.series["delta"][12] == curve.marked["delta"]
    # Theorem 4.4, e^eps P(X <= -gamma), is largest at the smallest count: for the grid noise (step, 65/64 b)
    # P(step Z <= -gamma + step / 2), close to the continuous e^eps / 2 exp(-gamma / b) while the step is small
    b = 4 * 50.0 / (dwelling_counts.min() * EPSILONS)
    step = b * EPSILONS / 64
    grid_delta = np.exp(EPSILONS) * mechanisms.grid_laplace_cdf(-200.0 + step / 2, step, 65 / 64 * b)
    assert np.allclose(curve.series["delta"], grid_delta, rtol=1e-12)
    small = EPSILONS <= 1.0
    assert np.allclose(curve.series["delta"][small], (np.exp(EPSILONS) / 2 * np.exp(-200.0 / b))[small], rtol=0.05)
    # the draw for the map preview is the algorithm's grid
    again = puffer_previews.preview_draw_grid(
        x,
        y,
        t,
        GridSpec(500.0),
        1.0,
        np.random.default_rng(1),
        interval=50.0,
        bounded=True,
        lower=0.0,
        upper=float(t.max()) + 1,
        margin=200.0,
    )
    assert np.array_equal(again.value, grid.value)


def test_pufferfish_curve_refuses_bad_input_and_cancels():
    with pytest.raises(ParameterError) as error:
        puffer_previews.pufferfish_error_curve([0, 3], EPSILONS, 1.0, interval=1.0)
    assert error.value.parameter == "counts"
    with pytest.raises(ParameterError) as error:
        puffer_previews.pufferfish_error_curve([2, 3], EPSILONS, 1.0)
    assert error.value.parameter == "interval"
    with pytest.raises(ParameterError) as error:
        puffer_previews.pufferfish_error_curve([2, 3], EPSILONS, 1.0, interval=1.0, error_model="squared")
    assert error.value.parameter == "error_model"
    with pytest.raises(CancelledError):
        puffer_previews.pufferfish_error_curve([2, 3], EPSILONS, 1.0, interval=1.0, progress=cancel_after(3))


# -- DP counts --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def areas():
    con = sqlite3.connect(f"file:{DATA / 'dwelling_areas.gpkg'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT unemployed, dwellings, prior_rate FROM areas_table ORDER BY fid").fetchall()
    finally:
        con.close()
    y, n, rate = (np.array(column, dtype=float) for column in zip(*rows))
    population, expected = prior_expected(n, rate, rate_per=1.0, rescale_to=int(y.sum()))
    return y.astype(np.int64), population, expected


def test_counts_curve_gains_accuracy_with_epsilon(areas):
    y, population, expected = areas
    epsilons = epsilon_grid(1.0, 9)
    curve = count_previews.counts_error_curve(y, population, expected, epsilons, 1.0, mechanisms.generator(11))
    error, within = curve.series["mean_abs_error"], curve.series["p_within_10pct"]
    assert np.all((within >= 0) & (within <= 1))
    # common random numbers: more epsilon, less prior shrinkage, a draw nearer the truth
    # (at fixed seed: 75.4 falling to 69.6 events; 5.5 % rising to 22 % within 10 %)
    assert error[-1] < 0.95 * error[0] and np.all(np.diff(error) <= 0.01 * error[0])
    assert within[-1] > within[0] + 0.1 and np.all(np.diff(within) >= -0.01)
    # the marked values are a direct computation at the chosen epsilon with the curve's seed
    seed = int(mechanisms.child_seeds(mechanisms.generator(11), 1)[0])
    direct = count_previews.counts_accuracy(y, population, expected, 1.0, mechanisms.generator(seed))
    assert curve.marked == {"mean_abs_error": direct[0], "p_within_10pct": direct[1]}
    assert curve.series["mean_abs_error"][4] == direct[0]  # 1.0 is the grid's middle


def test_counts_accuracy_is_the_mean_over_draws_and_groups():
    y = np.array([10, 0, 50])
    synthetic = np.array([[11, 0, 40], [10, 2, 56]])
    error, within = count_previews._accuracy(y, synthetic)
    assert error == pytest.approx((1 + 0 + 10 + 0 + 2 + 6) / 6)
    assert within == pytest.approx((1.0 + 0.5 + 0.0) / 3)  # 11 and 10 of 10; 0 of 0; neither 40 nor 56 of 50


def test_counts_curve_cancels_and_refuses_bad_input(areas):
    y, population, expected = areas
    with pytest.raises(CancelledError):
        count_previews.counts_error_curve(
            y, population, expected, EPSILONS, 1.0, mechanisms.generator(1), progress=cancel_after(2)
        )
    with pytest.raises(ParameterError) as error:
        count_previews.counts_error_curve(y, population, expected, EPSILONS, 1.0, mechanisms.generator(1), draws=0)
    assert error.value.parameter == "draws"


# -- DP points --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def snow(snow_deaths):
    x, y = snow_deaths
    return x, y, Window.around_points(x, y, margin=WINDOW_MARGIN)


def test_laplace_curve_counts_the_points_and_the_noise(snow):
    x, y, window = snow
    epsilons = np.array([0.2, 1.0, 5.0])
    draws = 4
    curve = point_previews.points_curve(
        x, y, window, "laplace", epsilons, 1.0, mechanisms.generator(3), alpha=None, draws=draws
    )
    partition = PlanarDomain(window).grid_partition(cell_size=0.1 * max(np.ptp(x), np.ptp(y)) * 1.1)
    area = partition.region_measure
    density = partition.region_counts(x, y) / area
    for index, epsilon in enumerate(epsilons):
        b = planned_release(area, epsilon, 0.0).noise_scale
        # eq. (13): E max(0, lambda + L) = lambda + (b/2) e^(-lambda/b); at most n + |W| b / 2 in all
        expected = float(np.sum(area * (density + b / 2 * np.exp(-density / b))))
        assert expected <= x.size + expected_noise_points(area, b) + 1e-6
        # Var N = E N + Var(sum |S| gamma) <= E N + sum |S|^2 2 b^2 (max(0, .) is 1-Lipschitz)
        sd = math.sqrt(expected + np.sum(area**2) * 2 * b * b)
        assert abs(curve.series["n_points"][index] - expected) < 4 * sd / math.sqrt(draws)
    assert curve.series["mise"][0] > curve.series["mise"][-1]
    # the marked values: the same seeds drawn directly at the chosen epsilon
    seeds = mechanisms.child_seeds(mechanisms.generator(3), draws)
    r = default_radii(window, x.size, point_previews.DEFAULT_RADII)
    k_original = k_function(x, y, window, r).K
    errors, counts = [], []
    for seed in seeds:
        rng = mechanisms.generator(int(seed))
        synthesis = synthesize_laplace(x, y, partition, rng, epsilon=1.0)
        counts.append(synthesis.x.size)
        errors.append(mise(r, k_function(synthesis.x, synthesis.y, window, r).K, k_original))
    assert curve.marked == {"mise": pytest.approx(np.mean(errors), rel=1e-12), "n_points": np.mean(counts)}
    assert curve.series["n_points"][1] == curve.marked["n_points"]


def test_kernel_curve_bandwidths_follow_the_calibration_and_the_marked_draw_is_the_algorithms(snow):
    x, y, window = snow
    domain = PlanarDomain(window)
    alpha, delta = 0.1, 1 / x.size
    synthesizer = point_previews._Synthesizer(x, y, domain, "kernel", alpha, None, None, 11, 0.0)
    assert synthesizer.delta == delta
    exact = calibrate_kernel(x.size, 1.0, delta, alpha, domain)
    table = synthesizer.kernel_bandwidths(np.array([0.3, 1.0, 4.0]), exact, None)
    assert table[1] == pytest.approx(exact.h, rel=2e-3)
    assert table[0] == pytest.approx(calibrate_kernel(x.size, 0.3, delta, alpha, domain).h, rel=0.03)
    assert table[2] == pytest.approx(calibrate_kernel(x.size, 4.0, delta, alpha, domain).h, rel=0.03)
    curve = point_previews.points_curve(
        x, y, window, "kernel", np.array([0.3, 4.0]), 1.0, mechanisms.generator(2), alpha=alpha, draws=1
    )
    (seed,) = mechanisms.child_seeds(mechanisms.generator(2), 1)
    rng = mechanisms.generator(int(seed))
    synthesis = synthesize_kernel(x, y, domain, rng, epsilon=1.0, delta=delta, alpha=alpha, calibration=exact)
    r = default_radii(window, x.size, point_previews.DEFAULT_RADII)
    direct = mise(r, k_function(synthesis.x, synthesis.y, window, r).K, k_function(x, y, window, r).K)
    assert curve.marked["n_points"] == synthesis.x.size
    assert curve.marked["mise"] == pytest.approx(direct, rel=1e-9)
    # a Poisson(1) number of offspring per point: E N = n
    assert abs(curve.series["n_points"].mean() - x.size) < 4 * math.sqrt(x.size)
    assert curve.series["mise"][0] > curve.series["mise"][1]  # a wider kernel blurs the clustering


def test_points_curve_cancels_refuses_and_previews_one_draw(snow):
    x, y, window = snow
    with pytest.raises(CancelledError):
        point_previews.points_curve(
            x, y, window, "laplace", EPSILONS, 1.0, mechanisms.generator(1), alpha=None, progress=cancel_after(2)
        )
    with pytest.raises(ParameterError) as error:
        point_previews.points_curve(x, y, window, "kernel", EPSILONS, 1.0, mechanisms.generator(1), alpha=None)
    assert error.value.parameter == "alpha"
    with pytest.raises(ParameterError) as error:
        point_previews.points_curve(x, y, window, "voronoi", EPSILONS, 1.0, mechanisms.generator(1), alpha=0.1)
    assert error.value.parameter == "method"
    sx, sy = point_previews.preview_draw_points(x, y, window, "laplace", 2.0, mechanisms.generator(4), alpha=None)
    partition = PlanarDomain(window).grid_partition(cell_size=0.1 * max(np.ptp(x), np.ptp(y)) * 1.1)
    synthesis = synthesize_laplace(x, y, partition, mechanisms.generator(4), epsilon=2.0)
    assert np.array_equal(sx, synthesis.x) and np.array_equal(sy, synthesis.y)


def test_lgcp_curve_marks_the_algorithms_draw(snow):
    from spatial_privacy.core.synthesis.lgcp_dp import synthesize_lgcp

    x, y, window = snow
    curve = point_previews.points_curve(
        x, y, window, "lgcp", np.array([2.0]), 1.0, mechanisms.generator(6), alpha=0.1, draws=1
    )
    (seed,) = mechanisms.child_seeds(mechanisms.generator(6), 1)
    synthesis = synthesize_lgcp(
        x, y, PlanarDomain(window), mechanisms.generator(int(seed)), epsilon=1.0, delta=1 / x.size, alpha=0.1
    )
    r = default_radii(window, x.size, point_previews.DEFAULT_RADII)
    direct = mise(r, k_function(synthesis.x, synthesis.y, window, r).K, k_function(x, y, window, r).K)
    assert curve.marked == {"mise": pytest.approx(direct, rel=1e-12), "n_points": synthesis.x.size}
    assert np.isfinite(curve.series["mise"]).all() and curve.series["n_points"][0] > 0
