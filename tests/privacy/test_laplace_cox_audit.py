"""Privacy audit of Kim & Lim's Laplace Cox synthesizer (Theorem 3.10; core.synthesis.laplace_cox).

The guarantee. The release is the vector of noisy cell intensities ``gamma_i = max(0, count_i / |S_i| + L_i)``,
``L_i`` independent Laplace of scale ``b = Delta / epsilon_cells``, ``Delta = 1/|S_p| + 1/|S_q|`` for the two
smallest cells; the synthetic points are a Poisson process drawn from it (post-processing), and with a total share
``s > 0`` a noisy total ``max(0, grid Laplace of n)`` of budget ``s epsilon`` rescales it. It is ``epsilon_cells``-DP
under the alpha-neighbourhood for every alpha (one point moved, across cells if it goes far enough; the total does
not change) and ``epsilon_add_remove``-DP when one point is added or removed (``LaplaceGuarantee``).

Exact part. The density of ``gamma_i`` (an atom ``P(mu + L <= 0) = exp(-mu/b) / 2`` at 0 for ``mu >= 0``, the
Laplace density ``exp(-|g - mu|/b) / (2b)`` above it) is written out from the definition (``ClampedLaplace`` in
conftest.py, shared with the network audit). The cells' noises
are independent, so the largest log-density ratio of the released vector is the sum over cells of each cell's
largest ratio; a cell's log ratio is constant beyond both means and piecewise linear between, so its supremum over
``g > 0`` is among ``g -> 0+``, the two means and any ``g`` beyond both, and the atom is the fourth candidate. This
is computed for every pair of cells a point can move between, and for a point added to or removed from any cell:
the worst pair is the two smallest cells, where the bound is attained. The noisy total's exact pmf comes from the
real synthesizer, run on every value of its integer noise (``PlannedGeometric``).

Stochastic part, through the real ``synthesize_laplace``. For neighbours D (the point in the smallest cell p) and
D' (moved to the second smallest q), the likelihood ratio of the released intensities is exactly ``e^epsilon`` on
the event ``{gamma_p >= mu_p, gamma_q <= mu_q}`` (each coordinate is at its largest ratio there, the atom at 0
included: ``P(mu + L <= 0)`` has ratio ``exp(|mu - mu'|/b)`` for ``mu, mu' >= 0``), which has probability 1/4 under
D: the most telling event there is, so the audit sits exactly at the boundary and checks the implementation's noise
scale tightly (``epsilon_lower_bounds``: false-alarm rate 1e-3). The mirror event tests the other direction; for
add/remove the event ``{gamma_p >= mu_p}``. The audit must flag the same synthesizer with half the noise (run at
``2 epsilon``): its log ratio on those events is ``2 epsilon``.

Floating point. The exact log ratios are sums of a few terms of size up to ``mu / b`` (below 10 here) and are
checked with an absolute slack of ``1e-12``.
"""

from __future__ import annotations

import numpy as np
import pytest

from spatial_privacy.core.synthesis import laplace_cox as lc
from spatial_privacy.core.synthesis.domain import PlanarDomain
from spatial_privacy.core.window import Window

SLACK = 1e-12
#: Releases per data set in the stochastic audit. With the events' probabilities 1/4 and e^-epsilon / 4 this
#: resolves the log ratio to about 0.1 (one standard error), far below the gap to 2 epsilon of the half-noise variant.
RELEASES = 4000

#: A window with a slanted top edge, cut into 0.25 cells: clipped cells of unequal areas (the smallest two are
#: about 0.0170 and 0.0210), one sliver merged into a neighbour.
WINDOW = Window.from_polygons([[(0.0, 0.0), (0.62, 0.0), (0.62, 0.60), (0.0, 0.56)]])
PARTITION = PlanarDomain(WINDOW).grid_partition(cell_size=0.25)
#: The confidential points other than the one that moves (all inside the 0.0625 cells).
OTHERS = np.array([[0.05, 0.05], [0.3, 0.1], [0.1, 0.4], [0.4, 0.4], [0.2, 0.2]])


def _point_in(region: int) -> np.ndarray:
    """A point of the window in ``region`` (the first of a fine lattice)."""
    g = np.linspace(0.001, 0.619, 310)
    gx, gy = (a.ravel() for a in np.meshgrid(g, g))
    inside = WINDOW.contains(gx, gy)
    hit = np.flatnonzero(inside & (PARTITION.locate(gx, gy) == region))
    return np.array([gx[hit[0]], gy[hit[0]]])


def _smallest_two() -> tuple[int, int]:
    p, q = np.argsort(PARTITION.region_measure)[:2]
    return int(p), int(q)


def _data(*extra) -> tuple[np.ndarray, np.ndarray]:
    pts = np.vstack([OTHERS, *extra]) if extra else OTHERS
    return pts[:, 0], pts[:, 1]


@pytest.mark.parametrize("total_share", [0.0, 0.25])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 4.0])
def test_released_intensities_are_epsilon_dp_exactly(epsilon, total_share, clamped_laplace, record_loss):
    """Every pair of cells a point can move between, and every cell a point can be added to: the exact largest
    log-density ratio of the released intensities is within ``epsilon_alpha`` (``epsilon_cells``) and within the
    cells' share of ``epsilon_add_remove``; the two smallest cells attain ``epsilon_cells``."""

    def _largest_log_ratio(mu_a: np.ndarray, mu_b: np.ndarray, b: float) -> float:
        """``sup log f_a(gamma) / f_b(gamma)`` over released vectors: the sum over cells of each cell's supremum."""
        return float(np.sum(clamped_laplace.sup_log_ratio(mu_a, mu_b, b)))

    g = lc.laplace_guarantee(PARTITION.region_measure, epsilon, total_share)
    b = g.noise_scale
    base = lc.cell_means(*_data(), PARTITION)
    n_regions = PARTITION.n_regions
    shift = 1.0 / PARTITION.region_measure  # one point more in region i adds this to mu_i
    moved = 0.0
    for i in range(n_regions):
        for j in range(n_regions):
            if i != j:
                mu_a, mu_b = base.copy(), base.copy()
                mu_a[i] += shift[i]
                mu_b[j] += shift[j]
                moved = max(moved, _largest_log_ratio(mu_a, mu_b, b), _largest_log_ratio(mu_b, mu_a, b))
    added = 0.0
    for i in range(n_regions):
        mu_a = base.copy()
        mu_a[i] += shift[i]
        added = max(added, _largest_log_ratio(mu_a, base, b), _largest_log_ratio(base, mu_a, b))
    record_loss(f"laplace cox cells, moved point, share {total_share}", moved, g.epsilon_alpha, "exact density")
    assert moved <= g.epsilon_alpha + SLACK
    assert moved == pytest.approx(g.epsilon_cells, abs=SLACK)  # attained by the two smallest cells
    cells_add_remove = g.epsilon_add_remove - g.epsilon_total
    record_loss(f"laplace cox cells, added point, share {total_share}", added, cells_add_remove, "exact density")
    assert added <= cells_add_remove + SLACK


def test_noisy_total_adds_its_share_under_add_remove_and_nothing_when_a_point_moves(planned_geometric, record_loss):
    """With a total share, the released total ``max(0, grid Laplace of n)`` from the real synthesizer, for every
    value of its integer noise: its exact pmf ratio between ``n`` and ``n - 1`` points is within ``s epsilon``
    (64/65 of it: ``n`` is 64 grid steps from ``n - 1``), so cells plus total stay within ``epsilon_add_remove``;
    a moved point leaves the total's distribution unchanged. The enumeration runs past the clamp at 0 for both data
    sets (so it holds the lower tail) and 200 steps above; beyond that the pmf ratio is the constant it has there."""
    epsilon, share = 1.0, 0.25
    g = lc.laplace_guarantee(PARTITION.region_measure, epsilon, share)
    p, q = _smallest_two()
    data = {"D": _data(_point_in(p)), "D moved": _data(_point_in(q)), "D minus": _data()}
    n = len(data["D"][0])
    zs = np.arange(-64 * (n + 1) - 10, 201)
    pmfs = {}
    for name, (x, y) in data.items():

        def total(rng, x=x, y=y):
            return lc.synthesize_laplace(x, y, PARTITION, rng, epsilon=epsilon, total_share=share).noisy_total

        pmfs[name] = planned_geometric.release_log_pmf(total, zs, np.random.default_rng(3))
        assert min(pmfs[name]) == 0.0
    assert pmfs["D moved"] == pmfs["D"]
    common = sorted(set(pmfs["D"]) & set(pmfs["D minus"]))
    total_loss = max(abs(pmfs["D"][v] - pmfs["D minus"][v]) for v in common)
    record_loss("laplace cox noisy total, added point", total_loss, g.epsilon_total, "exact pmf")
    assert total_loss <= g.epsilon_total + SLACK
    assert total_loss >= 64 / 65 * g.epsilon_total - SLACK
    cells = g.epsilon_cells * g.sensitivity_add_remove / g.sensitivity
    assert cells + total_loss <= g.epsilon_add_remove + SLACK


def _released(x, y, epsilon: float, seed: int) -> np.ndarray:
    """``RELEASES`` releases of the real synthesizer: their noisy intensities, one row per release."""
    rng = np.random.default_rng(seed)
    return np.array(
        [lc.synthesize_laplace(x, y, PARTITION, rng, epsilon=epsilon).noisy_intensity for _ in range(RELEASES)]
    )


@pytest.fixture(scope="module")
def releases():
    """Releases from D (the point in the smallest cell p), D moved (in the second smallest q), D minus (the point
    removed), at epsilon = 1 and, for the half-noise variant, at 2."""
    p, q = _smallest_two()
    data = {"D": _data(_point_in(p)), "D moved": _data(_point_in(q)), "D minus": _data()}
    out = {(name, 1.0): _released(*xy, 1.0, seed) for seed, (name, xy) in enumerate(data.items(), start=10)}
    out.update({(name, 2.0): _released(*data[name], 2.0, seed) for seed, name in enumerate(("D", "D moved"), 20)})
    means = {name: lc.cell_means(*xy, PARTITION) for name, xy in data.items()}
    return out, means, p, q


def _moved_point_audit(releases, run_epsilon: float, audit_events):
    out, means, p, q = releases
    a, b = out[("D", run_epsilon)], out[("D moved", run_epsilon)]
    mu_a, mu_b = means["D"], means["D moved"]
    towards_a = lambda r: (r[:, p] >= mu_a[p]) & (r[:, q] <= mu_a[q])  # noqa: E731
    towards_b = lambda r: (r[:, p] <= mu_b[p]) & (r[:, q] >= mu_b[q])  # noqa: E731
    hits_first = [towards_a(a).sum(), towards_b(b).sum()]
    hits_second = [towards_a(b).sum(), towards_b(a).sum()]
    return audit_events(hits_first, RELEASES, hits_second, RELEASES)


def test_the_real_synthesizer_keeps_epsilon_when_a_point_moves(releases, audit_events, record_loss):
    epsilon = 1.0
    result = _moved_point_audit(releases, epsilon, audit_events)
    record_loss("laplace cox synthesizer, moved point (estimate)", result.estimate, epsilon, "true ratio: e^eps")
    record_loss("laplace cox synthesizer, moved point (99.9% bound)", result.bound, epsilon, "releases")
    assert result.bound <= epsilon


def test_the_real_synthesizer_keeps_its_add_remove_epsilon(releases, audit_events, record_loss):
    out, means, p, _ = releases
    g = lc.laplace_guarantee(PARTITION.region_measure, 1.0)
    a, b = out[("D", 1.0)], out[("D minus", 1.0)]
    hits_first = [(a[:, p] >= means["D"][p]).sum(), (b[:, p] <= means["D minus"][p]).sum()]
    hits_second = [(b[:, p] >= means["D"][p]).sum(), (a[:, p] <= means["D minus"][p]).sum()]
    result = audit_events(hits_first, RELEASES, hits_second, RELEASES)
    record_loss("laplace cox synthesizer, added (estimate)", result.estimate, g.epsilon_add_remove, "true ratio: e^eps")
    record_loss("laplace cox synthesizer, added point (99.9% bound)", result.bound, g.epsilon_add_remove, "releases")
    assert result.bound <= g.epsilon_add_remove


def test_the_audit_catches_half_the_noise(releases, audit_events, record_loss):
    """The synthesizer run at 2 epsilon (noise scale Delta / (2 epsilon), half the calibrated one), audited at
    epsilon: the log ratio on the audit's events is 2 epsilon, and the lower confidence bound must exceed
    epsilon."""
    epsilon = 1.0
    result = _moved_point_audit(releases, 2 * epsilon, audit_events)
    record_loss("laplace cox, half the noise (must fail): 99.9% bound", result.bound, epsilon, "releases")
    assert result.bound > epsilon
