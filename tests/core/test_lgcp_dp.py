"""Kim & Lim's DP condition for the LGCP Cox point synthesizer (Theorem 3.8, Corollary 3.9)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.fields import power_exponential
from spatial_privacy.core.synthesis import lgcp_dp
from spatial_privacy.core.triangulation import lattice, triangulate
from spatial_privacy.core.window import Window

B, N = 10.0, 10
S = B / N


def exact_corollary_sum(sigma, length, p):
    """The first line of Kim & Lim's proof of Corollary 3.9 (Appendix C.1), before 1 - exp(-x) <= x."""
    terms = (
        (N * N, math.sqrt(2)),
        ((N - 1) ** 2, 2.0),
        (6 * N * (N - 1), math.sqrt(5)),
        (4 * (N - 1) ** 2, math.sqrt(8)),
    )
    return sum(count * 2 * sigma**2 * (1 - math.exp(-((k * S / length) ** p))) for count, k in terms)


@pytest.mark.parametrize("alpha", [0.05 * S, 0.3 * S, 0.99 * S / math.sqrt(2)])
def test_pairs_of_the_equal_triangulation_are_the_papers(alpha):
    mesh = lattice(0, 0, B, B, N, N)
    d = lgcp_dp.pair_max_vertex_distances(mesh.nodes, mesh.triangles, alpha)
    values, counts = np.unique(np.round(d / S, 9), return_counts=True)
    expected = {round(math.sqrt(2), 9): N * N, 2.0: (N - 1) ** 2, round(math.sqrt(5), 9): 6 * N * (N - 1)}
    expected[round(math.sqrt(8), 9)] = 4 * (N - 1) ** 2
    assert dict(zip(values.tolist(), counts.tolist())) == expected


@pytest.mark.parametrize(("sigma", "length", "p"), [(1.0, 3.0, 2.0), (0.4, 0.7, 2.0), (2.0, 5.0, 1.0)])
def test_general_sum_equals_the_corollarys_exact_sum_and_its_closed_form_bounds_it(sigma, length, p):
    mesh = lattice(0, 0, B, B, N, N)
    total = lgcp_dp.theorem38_sum(
        mesh.nodes, mesh.triangles, 0.3 * S, lambda d: power_exponential(d, sigma**2, length, p)
    )
    assert total == pytest.approx(exact_corollary_sum(sigma, length, p), rel=1e-12)
    closed = lgcp_dp.corollary39_delta(B, N, 1.0, sigma, length, p)
    assert 4 * total <= closed
    if p == 2:
        assert closed == pytest.approx(544 * B**2 * sigma**2 / length**2, rel=1e-12)


def test_closed_form_is_the_limit_for_long_length_scales_and_fine_lattices():
    # 1 - exp(-x) ~ x for long l, and (N - 1)^2 / N^2 -> 1: the general sum approaches eq. (11)
    n = 40
    mesh = lattice(0, 0, B, B, n, n)
    sigma, length = 1.0, 200.0
    total = lgcp_dp.theorem38_sum(
        mesh.nodes, mesh.triangles, 0.1 * B / n, lambda d: power_exponential(d, 1.0, length, 2)
    )
    closed = lgcp_dp.corollary39_delta(B, n, 1.0, sigma, length)
    assert 0.93 < 4 * total / closed <= 1.0


def test_calibrated_ratio_makes_the_condition_hold_for_every_length_scale_and_is_tight():
    mesh = lattice(0, 0, B, B, N, N)
    eps, delta, alpha = 1.0, 0.01, 0.3 * S
    cal = lgcp_dp.calibrate_ratio(mesh.nodes, mesh.triangles, eps, delta, alpha)
    # Corollary 3.9 bounds the same sum from above, so its ratio is smaller
    assert cal.ratio >= math.sqrt(delta * eps**2 / (544 * B**2))
    for length in (0.1, 1.0, 10.0, 1e3):
        sigma = cal.ratio * length
        rhs = (
            4
            / eps**2
            * lgcp_dp.theorem38_sum(
                mesh.nodes, mesh.triangles, alpha, lambda d, s=sigma, ell=length: power_exponential(d, s * s, ell, 2)
            )
        )
        assert rhs <= delta * (1 + 1e-9)
    # tight: at a long length scale a 1% larger ratio violates the condition
    length = 1e4
    sigma = 1.01 * cal.ratio * length
    rhs = (
        4
        / eps**2
        * lgcp_dp.theorem38_sum(
            mesh.nodes, mesh.triangles, alpha, lambda d: power_exponential(d, sigma * sigma, length, 2)
        )
    )
    assert rhs > delta


def test_condition_on_an_irregular_mesh_counts_each_close_pair_once():
    window = Window.from_polygons([([(0, 0), (6, 0), (6, 3), (3, 3), (3, 6), (0, 6)], [])])
    mesh = triangulate(window, 1.0)
    i, j = lgcp_dp.triangle_pairs_within(mesh.nodes, mesh.triangles, 0.2)
    assert np.all(i < j) and len(set(zip(i.tolist(), j.tolist()))) == i.size
    # every pair of triangles sharing a vertex is in I_alpha
    tri = mesh.triangles
    shared = {(a, b) for a in range(len(tri)) for b in range(a + 1, len(tri)) if set(tri[a]) & set(tri[b])}
    assert shared <= set(zip(i.tolist(), j.tolist()))


def test_bad_privacy_parameters_are_refused():
    mesh = lattice(0, 0, 1, 1, 4, 4)
    with pytest.raises(ParameterError, match="alpha"):
        lgcp_dp.calibrate_ratio(mesh.nodes, mesh.triangles, 1.0, 0.1, 0.0)
    with pytest.raises(ParameterError, match="delta"):
        lgcp_dp.calibrate_ratio(mesh.nodes, mesh.triangles, 1.0, 1.5, 0.1)
    with pytest.raises(ParameterError, match="epsilon"):
        lgcp_dp.calibrate_ratio(mesh.nodes, mesh.triangles, -1.0, 0.1, 0.1)


def test_lgcp_synthesizer_end_to_end_keeps_the_count_and_the_ratio():
    from spatial_privacy.core.synthesis.domain import PlanarDomain

    window = Window.rectangle(-5, -5, 5, 5)
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-5, 5, 60), rng.uniform(-5, 5, 60)
    counts = []
    for seed in range(12):
        out = lgcp_dp.synthesize_lgcp(
            x, y, PlanarDomain(window), np.random.default_rng(seed), epsilon=1.0, delta=1 / 60, alpha=0.1
        )
        assert out.sigma == pytest.approx(out.calibration.ratio * out.length, rel=1e-12)
        assert np.all(window.contains(out.x, out.y))
        counts.append(out.x.size)
    # each count is Poisson given the drawn intensity, whose total has posterior mean ~ n and sd ~ sqrt(n):
    # the count's variance is about 2n, so the mean of 12 lies within 4 sqrt(2n / 12) of n
    assert abs(np.mean(counts) - 60) < 4 * math.sqrt(2 * 60 / 12)
    assert "Theorem 3.8" in out.guarantee and "alpha = 0.1" in out.guarantee


def _brute_force_vertex_pairs(mesh, alpha):
    i, j = lgcp_dp.triangle_pairs_within(mesh.nodes, mesh.triangles, alpha)
    tri = mesh.triangles.tolist()
    pairs = set()
    for a, b in list(zip(i.tolist(), j.tolist())) + [(t, t) for t in range(len(tri))]:
        pairs |= {(min(u, v), max(u, v)) for u in tri[a] for v in tri[b] if u != v}
    return sorted(math.dist(mesh.nodes[u], mesh.nodes[v]) for u, v in pairs)


@pytest.mark.parametrize("irregular", [False, True])
def test_vertex_pairs_of_the_rigorous_union_bound_match_brute_force(irregular):
    if irregular:
        window = Window.from_polygons([([(0, 0), (6, 0), (6, 3), (3, 3), (3, 6), (0, 6)], [])])
        mesh, alpha = triangulate(window, 1.0), 0.2
    else:
        mesh, alpha = lattice(0, 0, B, B, N, N), 0.3 * S
    d = lgcp_dp.vertex_pair_distances(mesh.nodes, mesh.triangles, alpha)
    assert np.sort(d) == pytest.approx(_brute_force_vertex_pairs(mesh, alpha), rel=1e-12)


@pytest.mark.parametrize("irregular", [False, True])
def test_calibrated_ratio_also_satisfies_the_rigorous_union_bound(irregular):
    """Points of one triangle, left out of eq. (9), and the supremum over a triangle pair are covered by a union
    bound over vertex pairs; the ratio must satisfy it as well as the paper's sum (module docstring)."""
    if irregular:
        window = Window.from_polygons([([(0, 0), (6, 0), (6, 3), (3, 3), (3, 6), (0, 6)], [])])
        mesh, alpha = triangulate(window, 1.0), 0.2
    else:
        mesh, alpha = lattice(0, 0, B, B, N, N), 0.3 * S
    eps, delta, nugget = 1.0, 0.01, 0.01
    cal = lgcp_dp.calibrate_ratio(mesh.nodes, mesh.triangles, eps, delta, alpha, nugget)
    vertex = lgcp_dp.vertex_pair_distances(mesh.nodes, mesh.triangles, alpha)
    paper = lgcp_dp.pair_max_vertex_distances(mesh.nodes, mesh.triangles, alpha)
    sums = [float(np.sum(d * d) + d.size * nugget) for d in (vertex, paper)]
    # Var(w_a - w_b) <= 2 R^2 (d^2 + nugget) for every length scale: 4 / eps^2 * sum Var <= delta
    for total in sums:
        assert 8 * cal.ratio**2 * total / eps**2 <= delta * (1 + 1e-12)
    assert 8 * cal.ratio**2 * max(sums) / eps**2 == pytest.approx(delta, rel=1e-12)
    assert (cal.vertex_pairs, cal.vertex_sum_d2) == (vertex.size, pytest.approx(float(np.sum(vertex**2))))
    if not irregular:  # on the lattice the paper's sum is the larger one (about twice), so it decides
        assert sums[1] > 1.8 * sums[0]
