"""Kim & Lim's Laplace Cox point synthesizer (core/synthesis/laplace_cox.py) and the cell partition of the
planar domain (core/synthesis/domain.py, grid_cells.py): clipped areas, sensitivity, exact and empirical privacy
checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.synthesis import laplace_cox as lc
from spatial_privacy.core.synthesis.domain import PlanarDomain
from spatial_privacy.core.window import Window

UNIT = PlanarDomain(Window.from_polygons([[(0, 0), (1, 0), (1, 1), (0, 1)]]))
L_EXTERIOR = [(0, 0), (3, 0), (3, 1), (1, 1), (1, 2.5), (0, 2.5)]
L_HOLE = [(0.3, 0.3), (0.3, 0.7), (0.7, 0.7), (0.7, 0.3)]
L_SHAPE = PlanarDomain(Window.from_polygons([(L_EXTERIOR, [L_HOLE])]))
# [0, 1.05] x [0, 1.03] with 0.1 cells: the last column and row are clipped (0.05 and 0.03 wide).
CLIPPED = PlanarDomain(Window.from_polygons([[(0, 0), (1.05, 0), (1.05, 1.03), (0, 1.03)]]))


def overlap(a0, a1, b0, b1):
    return max(0.0, min(a1, b1) - max(a0, b0))


def l_shape_cell_area(x0, x1, y0, y1):
    """|cell ∩ L|: the rectangles [0,3]x[0,1] and [0,1]x[1,2.5] minus the hole [0.3,0.7]^2."""
    a = overlap(x0, x1, 0, 3) * overlap(y0, y1, 0, 1)
    b = overlap(x0, x1, 0, 1) * overlap(y0, y1, 1, 2.5)
    hole = overlap(x0, x1, 0.3, 0.7) * overlap(y0, y1, 0.3, 0.7)
    return a + b - hole


# -- the partition ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [dict(cell_size=0.1), dict(cell_size=0.35), dict(shape=(7, 5)), dict(cell_size=0.5, origin=(0.05, 0.1))],
)
def test_clipped_cell_areas_are_exact(kwargs):
    part = L_SHAPE.grid_partition(min_cell_fraction=0, **kwargs)
    xl, yl = part.x_lines, part.y_lines
    expected = np.array(
        [[l_shape_cell_area(xl[i], xl[i + 1], yl[j], yl[j + 1]) for j in range(part.ny)] for i in range(part.nx)]
    )
    assert np.max(np.abs(part.cell_area - expected[part.ix, part.iy])) < 1e-15
    dropped = np.ones(expected.shape, dtype=bool)
    dropped[part.ix, part.iy] = False
    assert np.all(expected[dropped] < 1e-12)
    assert part.cell_area.sum() == pytest.approx(L_SHAPE.measure, rel=1e-14)
    assert part.n_regions == part.ix.size and part.merged == 0


def test_clipped_cell_areas_of_a_random_polygon_match_shapely():
    import shapely.geometry as shapely  # a project dependency (python3-shapely): a missing one must fail, not skip

    rng = np.random.default_rng(1)
    angle = np.sort(rng.uniform(0, 2 * math.pi, 40))
    radius = rng.uniform(0.5, 1.5, 40)
    ring = np.column_stack([3 * radius * np.cos(angle) + 1e5, 2 * radius * np.sin(angle) + 5e5])
    dom = PlanarDomain(Window.from_polygons([ring]))
    poly = shapely.Polygon(ring)
    part = dom.grid_partition(cell_size=0.3, min_cell_fraction=0)
    for i, j, a in zip(part.ix, part.iy, part.cell_area):
        cell = shapely.box(part.x_lines[i], part.y_lines[j], part.x_lines[i + 1], part.y_lines[j + 1])
        assert a == pytest.approx(poly.intersection(cell).area, abs=1e-10)  # coordinates ~5e5
    assert part.cell_area.sum() == pytest.approx(poly.area, rel=1e-11)


def test_grid_conventions():
    part = UNIT.grid_partition(shape=(10, 10))  # the paper's 11 x 11 knots
    assert part.n_regions == 100 and np.allclose(part.region_measure, 0.01, rtol=1e-12)
    part = CLIPPED.grid_partition(cell_size=0.1, min_cell_fraction=0)
    assert (part.nx, part.ny) == (11, 11)
    widths = np.sort(np.unique(np.round(part.region_measure, 12)))
    assert widths.tolist() == pytest.approx([0.0015, 0.003, 0.005, 0.01])
    snapped = CLIPPED.grid_partition(cell_size=0.25, origin=(0.1, 0.0), min_cell_fraction=0)
    assert snapped.x_lines[0] == pytest.approx(-0.15) and snapped.x_lines[1] == pytest.approx(0.1)


def test_slivers_merge_into_the_largest_edge_neighbour():
    part = CLIPPED.grid_partition(cell_size=0.1, min_cell_fraction=0.25)
    # the corner cell (0.05 x 0.03 = 15% of a cell) joins its larger edge neighbour, the column cell below it
    assert part.merged == 1 and part.n_regions == 120
    corner = part.region[(part.ix == 10) & (part.iy == 10)][0]
    below = part.region[(part.ix == 10) & (part.iy == 9)][0]
    assert corner == below and part.region_measure[corner] == pytest.approx(0.005 + 0.0015)
    assert any("merged" in note for note in part.notes)


def test_points_on_the_boundary_find_a_cell():
    part = L_SHAPE.grid_partition(cell_size=0.5, min_cell_fraction=0)
    # on the notch edges, whose cell above / to the right lies outside the window
    x = np.array([1.0, 2.0, 1.0, 3.0, 0.0, 0.5])
    y = np.array([1.5, 1.0, 1.0, 1.0, 2.5, 0.3])
    r = part.locate(x, y)
    assert np.all(r >= 0)
    assert part.region_counts(x, y).sum() == 6


# -- sensitivity and guarantee ----------------------------------------------------------------------


def test_sensitivity_of_unequal_cells_uses_the_two_smallest():
    part = CLIPPED.grid_partition(cell_size=0.1, min_cell_fraction=0)
    delta, delta_ar = lc.laplace_sensitivity(part.region_measure)
    assert delta == pytest.approx(1 / 0.0015 + 1 / 0.003)  # the corner cell and a clipped row cell
    assert delta_ar == pytest.approx(1 / 0.0015)
    col = PlanarDomain(Window.from_polygons([[(0, 0), (1.05, 0), (1.05, 1), (0, 1)]]))
    part = col.grid_partition(cell_size=0.1, min_cell_fraction=0)
    assert lc.laplace_sensitivity(part.region_measure)[0] == pytest.approx(2 / 0.005)  # two clipped column cells
    g = lc.laplace_guarantee(part.region_measure, 0.5)
    assert g.noise_scale == pytest.approx(400 / 0.5) and g.epsilon_alpha == 0.5
    assert g.epsilon_add_remove == pytest.approx(0.25)


def test_total_share_guarantee_numbers():
    part = UNIT.grid_partition(shape=(10, 10))
    g = lc.laplace_guarantee(part.region_measure, 1.0, total_share=0.2)
    assert g.sensitivity == pytest.approx(200) and g.sensitivity_add_remove == pytest.approx(100)
    assert g.epsilon_cells == pytest.approx(0.8) and g.epsilon_total == pytest.approx(0.2)
    assert g.epsilon_alpha == pytest.approx(0.8)  # the total is free when a point only moves
    assert g.epsilon_add_remove == pytest.approx(0.2 + 0.8 * 100 / 200)
    assert g.noise_scale == pytest.approx(250)
    assert "0.8-differential privacy" in g.text and "0.6-differential privacy" in g.text


# -- privacy: exact density ratio and Monte Carlo -------------------------------------------------


def neighbouring_data(rng):
    """D and D': a point in the corner cell (0.0015) moved by alpha = 0.02 into the row cell to its left (0.003),
    the two smallest cells, so that the sensitivity bound is attained; other points elsewhere."""
    part = CLIPPED.grid_partition(cell_size=0.1, min_cell_fraction=0)
    x, y = rng.uniform(0, 1.05, 30), rng.uniform(0, 1.03, 30)
    d = (np.r_[x, 1.01], np.r_[y, 1.01])
    d_prime = (np.r_[x, 0.99], np.r_[y, 1.01])
    p = part.locate([1.01], [1.01])[0]
    q = part.locate([0.99], [1.01])[0]
    assert part.region_measure[p] == pytest.approx(0.0015) and part.region_measure[q] == pytest.approx(0.003)
    return part, d, d_prime, p, q


def test_output_density_ratio_is_within_e_epsilon():
    rng = np.random.default_rng(2)
    part, d, d_prime, p, q = neighbouring_data(rng)
    eps = 1.0
    g = lc.laplace_guarantee(part.region_measure, eps)
    mu, mu_prime = lc.cell_means(*d, part), lc.cell_means(*d_prime, part)
    changed = np.flatnonzero(mu != mu_prime)
    assert set(changed) == {p, q}
    # every output of the two changed cells on a grid reaching far into both tails, and the atom at 0
    hi = max(mu[changed].max(), mu_prime[changed].max()) + 20 * g.noise_scale
    grid = np.r_[0.0, np.linspace(1e-9, hi, 1501)]
    gp, gq = np.meshgrid(grid, grid, indexing="ij")
    ratio = (
        lc.noisy_intensity_logpdf(gp, mu[p], g.noise_scale)
        + lc.noisy_intensity_logpdf(gq, mu[q], g.noise_scale)
        - lc.noisy_intensity_logpdf(gp, mu_prime[p], g.noise_scale)
        - lc.noisy_intensity_logpdf(gq, mu_prime[q], g.noise_scale)
    )
    assert np.max(np.abs(ratio)) <= eps * (1 + 1e-12)
    assert np.max(ratio) >= eps * (1 - 1e-9)  # attained: the two smallest cells make Delta tight
    # a point removed (add/remove neighbours): only cell p changes, loss <= eps * (1/|S_p|) / Delta
    mu_removed = lc.cell_means(d[0][:-1], d[1][:-1], part)
    one = lc.noisy_intensity_logpdf(grid, mu[p], g.noise_scale) - lc.noisy_intensity_logpdf(
        grid, mu_removed[p], g.noise_scale
    )
    assert np.max(np.abs(one)) <= g.epsilon_add_remove * (1 + 1e-12)
    assert np.max(np.abs(one)) == pytest.approx(g.epsilon_add_remove, rel=1e-9)


def test_logpdf_is_a_probability_distribution():
    for mean, scale in [(0.0, 1.0), (3.0, 0.5), (0.2, 4.0)]:
        atom = math.exp(lc.noisy_intensity_logpdf(0.0, mean, scale))
        g = np.linspace(1e-12, mean + 60 * scale, 200_001)
        dens = np.exp(lc.noisy_intensity_logpdf(g, mean, scale))
        total = atom + np.trapz(dens, g)
        assert total == pytest.approx(1.0, abs=1e-6)
        rng = np.random.default_rng(3)
        draws = lc.noisy_intensity(rng, np.full(200_000, mean), scale)
        zeros = np.mean(draws == 0)
        assert abs(zeros - atom) < 5 * math.sqrt(atom * (1 - atom) / draws.size)


def binned_privacy_loss(samples_d, samples_dp, edges, eps, z=4.5, min_count=400):
    """Largest (log p_D(bin) - log p_D'(bin)) - eps - z * SE over 2-D bins of two cells' outputs, both ways.

    Bins: the atom at 0 and intervals of positive values, per cell. SE of a log frequency ~ sqrt((1-p)/(M p)).
    A positive value means a violation of e^eps beyond sampling error.
    """

    def bins(s):
        ip = np.where(s[:, 0] == 0, 0, 1 + np.searchsorted(edges[0], s[:, 0]))
        iq = np.where(s[:, 1] == 0, 0, 1 + np.searchsorted(edges[1], s[:, 1]))
        return ip * (len(edges[1]) + 2) + iq

    size = (len(edges[0]) + 2) * (len(edges[1]) + 2)
    a = np.bincount(bins(samples_d), minlength=size).astype(float)
    b = np.bincount(bins(samples_dp), minlength=size).astype(float)
    ok = (a >= min_count) & (b >= min_count)
    pa, pb = a[ok] / len(samples_d), b[ok] / len(samples_dp)
    se = np.sqrt((1 - pa) / a[ok] + (1 - pb) / b[ok])
    loss = np.abs(np.log(pa) - np.log(pb))
    return float(np.max(loss - eps - z * se)), int(ok.sum())


def test_monte_carlo_output_frequencies_are_within_e_epsilon():
    rng = np.random.default_rng(4)
    part, d, d_prime, p, q = neighbouring_data(rng)
    eps, m = 1.0, 400_000
    g = lc.laplace_guarantee(part.region_measure, eps)
    mu, mu_prime = lc.cell_means(*d, part), lc.cell_means(*d_prime, part)

    def draw(mean, scale):
        return np.column_stack(
            [lc.noisy_intensity(rng, np.full(m, mean[p]), scale), lc.noisy_intensity(rng, np.full(m, mean[q]), scale)]
        )

    sd, sdp = draw(mu, g.noise_scale), draw(mu_prime, g.noise_scale)
    pooled = np.r_[sd, sdp]
    edges = [np.quantile(pooled[pooled[:, k] > 0, k], np.linspace(0.1, 0.9, 9)) for k in (0, 1)]
    excess, n_bins = binned_privacy_loss(sd, sdp, edges, eps)
    assert n_bins >= 50
    assert excess <= 0
    # the check can fail: half the noise (the add/remove sensitivity 1/|S_p| used for moved points) breaks it
    half = g.noise_scale * (1 / 0.0015) / g.sensitivity
    sd, sdp = draw(mu, half), draw(mu_prime, half)
    excess, _ = binned_privacy_loss(sd, sdp, edges, eps)
    assert excess > 0.1


# -- the synthesizer ------------------------------------------------------------------------------


def expected_count(mean, measure, scale):
    """E[sum_i Poisson(|S_i| max(0, mu_i + L_i))] = sum_i |S_i| (mu_i + (b/2) exp(-mu_i / b)) for mu_i >= 0."""
    return float(np.sum(measure * (mean + 0.5 * scale * np.exp(-mean / scale))))


def test_synthetic_count_matches_the_clamped_laplace_expectation():
    rng = np.random.default_rng(5)
    part = UNIT.grid_partition(shape=(10, 10))
    x, y = rng.uniform(0, 1, (2, 19))
    reps = 2000
    for eps in (1.0, 10.0):
        g = lc.laplace_guarantee(part.region_measure, eps)
        counts = np.array([lc.synthesize_laplace(x, y, part, rng, epsilon=eps).x.size for _ in range(reps)])
        mean = lc.cell_means(x, y, part)
        expect = expected_count(mean, part.region_measure, g.noise_scale)
        # Var(count) = E[M] + Var(M), M = sum |S_i| gamma_i; Var(gamma_i) <= 2 b^2
        sd = math.sqrt(expect + np.sum(part.region_measure**2) * 2 * g.noise_scale**2)
        assert abs(counts.mean() - expect) < 4.5 * sd / math.sqrt(reps)


def test_total_share_keeps_the_synthetic_count_near_n():
    rng = np.random.default_rng(6)
    part = UNIT.grid_partition(shape=(10, 10))
    n, reps, eps, share = 40, 500, 50.0, 0.5
    x, y = rng.uniform(0, 1, (2, n))
    counts = []
    for _ in range(reps):
        out = lc.synthesize_laplace(x, y, part, rng, epsilon=eps, total_share=share)
        assert np.sum(out.intensity * part.region_measure) == pytest.approx(out.noisy_total, rel=1e-12)
        assert UNIT.contains(out.x, out.y).all()
        counts.append(out.x.size)
    b = 1 / (share * eps) * 65 / 64  # the grid Laplace mechanism's scale (mechanisms.grid_laplace)
    sd = math.sqrt(n + 2 * b * b)  # Poisson(T~) with Var(T~) <= 2 b^2
    assert abs(np.mean(counts) - n) < 4.5 * sd / math.sqrt(reps)
    # without the total the clamped noise inflates the count, to expected_count's figure (n + about 1.3 here):
    # 2,000 releases resolve that inflation (4.5 standard errors are about 0.65)
    reps = 2000
    g = lc.laplace_guarantee(part.region_measure, eps)
    expect = expected_count(lc.cell_means(x, y, part), part.region_measure, g.noise_scale)
    sd = math.sqrt(expect + np.sum(part.region_measure**2) * 2 * g.noise_scale**2)
    tolerance = 4.5 * sd / math.sqrt(reps)
    assert expect - n > 1.5 * tolerance
    plain = np.mean([lc.synthesize_laplace(x, y, part, rng, epsilon=eps).x.size for _ in range(reps)])
    assert abs(plain - expect) < tolerance


def test_points_are_uniform_within_clipped_cells():
    rng = np.random.default_rng(7)
    part = L_SHAPE.grid_partition(cell_size=0.35, min_cell_fraction=0.25)
    rate = 400.0
    sx, sy = part.sample(rng, np.full(part.n_regions, rate))
    assert L_SHAPE.contains(sx, sy).all()
    observed = part.region_counts(sx, sy)
    expected = rate * part.region_measure
    chi2 = np.sum((observed - expected) ** 2 / expected)
    assert chi2 < stats.chi2.ppf(1 - 1e-4, part.n_regions)  # Poisson counts: chi2 with n_regions d.o.f.


# -- bad input ------------------------------------------------------------------------------------


def test_bad_input_names_the_parameter():
    rng = np.random.default_rng(8)
    part = UNIT.grid_partition(shape=(4, 4))
    x, y = [0.2, 0.7], [0.3, 0.9]
    cases = [
        (dict(epsilon=0.0), "epsilon"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(epsilon=math.nan), "epsilon"),
        (dict(epsilon=1.0, total_share=-0.1), "total_share"),
        (dict(epsilon=1.0, total_share=1.0), "total_share"),
        (dict(epsilon=1.0, total_share=1.5), "total_share"),
    ]
    for kwargs, parameter in cases:
        with pytest.raises(ParameterError) as err:
            lc.synthesize_laplace(x, y, part, rng, **kwargs)
        assert err.value.parameter == parameter
    for bx, by in [([0.2, 1.5], [0.3, 0.3]), ([0.2, math.nan], [0.3, 0.3])]:
        with pytest.raises(ParameterError) as err:
            lc.synthesize_laplace(bx, by, part, rng, epsilon=1.0)
        assert err.value.parameter == "points"
    hole = L_SHAPE.grid_partition(cell_size=0.5)
    with pytest.raises(ParameterError) as err:
        lc.synthesize_laplace([0.5], [0.5], hole, rng, epsilon=1.0)  # in the hole
    assert err.value.parameter == "points"
    for kwargs, parameter in [
        (dict(cell_size=0.0), "cell_size"),
        (dict(cell_size=-1.0), "cell_size"),
        (dict(cell_size=0.1, shape=(2, 2)), "cell_size"),
        (dict(), "cell_size"),
        (dict(shape=(0, 3)), "shape"),
        (dict(cell_size=0.1, min_cell_fraction=1.0), "min_cell_fraction"),
    ]:
        with pytest.raises(ParameterError) as err:
            UNIT.grid_partition(**kwargs)
        assert err.value.parameter == parameter
    with pytest.raises(ParameterError) as err:
        lc.synthesize_laplace(x, y, UNIT.grid_partition(cell_size=2.0), rng, epsilon=1.0)  # a single cell
    assert err.value.parameter == "cell_size"


@pytest.mark.parametrize("cell", [2.0, 1e6, 1e12])
def test_cells_far_larger_than_the_window_name_the_cell_size(cell):
    """One cell covers the whole window: the refusal names the cell size (1e12 used to drop that cell as a
    'sliver' of its own nominal area and fail with a numpy ValueError)."""
    points = np.array([0.2, 0.5, 0.7]), np.array([0.3, 0.5, 0.9])
    with pytest.raises(ParameterError) as err:
        lc.synthesize_laplace(*points, UNIT.grid_partition(cell), np.random.default_rng(0), epsilon=1.0)
    assert err.value.parameter == "cell_size"
