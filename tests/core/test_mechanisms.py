"""The noise module (core.mechanisms): distributions against their theory."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core import mechanisms
from spatial_privacy.core.errors import ParameterError

ALPHA = 1e-3  # significance of the goodness-of-fit tests below (fixed seeds: deterministic)


def test_laplace_matches_its_distribution():
    rng = np.random.default_rng(20210122)
    draws = mechanisms.laplace(rng, np.full(20_000, 3.7))
    assert stats.kstest(draws, stats.laplace(scale=3.7).cdf).pvalue > ALPHA


def test_laplace_ks_test_has_power_against_a_wrong_scale():
    # The test above could only fail if it can tell scales apart: a 20% error must be rejected.
    rng = np.random.default_rng(20210122)
    draws = mechanisms.laplace(rng, np.full(20_000, 3.7))
    assert stats.kstest(draws, stats.laplace(scale=3.7 * 1.2).cdf).pvalue < ALPHA


def test_laplace_per_entry_scales():
    rng = np.random.default_rng(1)
    scale = np.repeat([0.5, 50.0], 10_000)
    draws = mechanisms.laplace(rng, scale)
    assert stats.kstest(draws / scale, stats.laplace().cdf).pvalue > ALPHA
    # variance 2b^2 for each half. Laplace has kurtosis 6, so Var(s^2) ~ (6 - 1) sigma^4 / n:
    # the standard error of the sample variance is sqrt(5/n) * 2b^2; allow 5 of them.
    for b, part in ((0.5, draws[:10_000]), (50.0, draws[10_000:])):
        se = np.sqrt(5 / 10_000) * 2 * b * b
        assert abs(part.var() - 2 * b * b) < 5 * se


def test_laplace_uses_only_the_given_generator():
    a = mechanisms.laplace(np.random.default_rng(9), np.ones(5))
    np.random.seed(0)  # global state must not matter
    b = mechanisms.laplace(np.random.default_rng(9), np.ones(5))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("scale", [0.0, -1.0, np.inf, np.nan])
def test_laplace_refuses_bad_scales(scale):
    with pytest.raises(ValueError, match="scale"):
        mechanisms.laplace(np.random.default_rng(0), np.array([1.0, scale]))


def test_laplace_cdf_against_closed_form():
    x = np.array([-10.0, -2.0, 0.0, 1.0, 7.5])
    b = 2.0
    assert np.allclose(mechanisms.laplace_cdf(x, b), stats.laplace(scale=b).cdf(x), rtol=1e-12, atol=0)
    # by hand: P(X <= -b ln 4) = 1/8, P(X <= 0) = 1/2
    assert mechanisms.laplace_cdf(-b * np.log(4.0), b) == pytest.approx(0.125, rel=1e-12)
    assert mechanisms.laplace_cdf(0.0, b) == 0.5


def _random_draws_outside_mechanisms(source: str) -> list[str]:
    """Calls of a ``numpy.random.Generator`` method on a generator-like name (``rng``, ``gen``, ...) in
    ``source``: the draws an audit of ``core.mechanisms`` would not see."""
    import ast

    methods = {name for name in dir(np.random.Generator) if not name.startswith("_")} - {"bit_generator"}
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods:
            target = node.func.value
            name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
            if "rng" in name.lower() or "gen" in name.lower():
                found.append(f"line {node.lineno}: {name}.{node.func.attr}(...)")
    return found


def _randomness_made_outside_mechanisms(source: str) -> list[str]:
    """Sources of randomness in ``source`` other than a generator handed in: a call of anything under
    ``numpy.random`` (``default_rng``, ``Generator``, the legacy global draws) and the standard library's
    ``random``, ``secrets`` and ``os.urandom``."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"line {node.lineno}: import {m}" for m in modules if m.split(".")[0] in ("random", "secrets")]
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("numpy.random"):
                found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            chain, target = [node.func.attr], node.func.value
            while isinstance(target, ast.Attribute):
                chain.append(target.attr)
                target = target.value
            if isinstance(target, ast.Name):
                chain.append(target.id)
            dotted = ".".join(reversed(chain))
            if ".random." in f".{dotted}" and dotted.split(".")[0] in ("np", "numpy") or dotted == "os.urandom":
                found.append(f"line {node.lineno}: {dotted}(...)")
    return sorted(found, key=lambda text: int(text.split()[1].rstrip(":")))


def _plugin_sources():
    from pathlib import Path

    import spatial_privacy

    root = Path(spatial_privacy.__file__).parent
    for package in ("core", "processing", "plugin", "ui"):
        for path in sorted((root / package).rglob("*.py")):
            yield str(path.relative_to(root)), path.read_text(encoding="utf-8")


def test_every_generator_of_the_plugin_is_made_by_this_module():
    """The audit rule for the source of randomness: only ``mechanisms.generator`` makes a generator (from OS
    entropy or a user's seed), and nothing in the plugin draws from numpy's global state or Python's."""
    offenders = {}
    for name, source in _plugin_sources():
        found = _randomness_made_outside_mechanisms(source)
        if name == "core/mechanisms.py":
            found = [f for f in found if not f.endswith("np.random.default_rng(...)")]  # generator() itself
        if found:
            offenders[name] = found
    assert offenders == {}
    assert mechanisms.generator(7).standard_normal() == np.random.default_rng(7).standard_normal()
    assert mechanisms.generator().standard_normal() != mechanisms.generator().standard_normal()  # fresh entropy
    # the scan itself must see each kind of source
    assert _randomness_made_outside_mechanisms(
        "import random\nfrom numpy.random import default_rng\nrng = np.random.default_rng(1)\n"
        "x = numpy.random.normal()\nb = os.urandom(8)\nimport secrets\ny = np.random.Generator(bits)"
    ) == [
        "line 1: import random",
        "line 2: from numpy.random import ...",
        "line 3: np.random.default_rng(...)",
        "line 4: numpy.random.normal(...)",
        "line 5: os.urandom(...)",
        "line 6: import secrets",
        "line 7: np.random.Generator(...)",
    ]


# -- the Laplace mechanism on a grid (what gets published) ---------------------------------------------------


def test_grid_laplace_noise_is_two_sided_geometric():
    """The integer noise Z = published/step - k has P(Z = z) = (1 - r)/(1 + r) r^|z|, r = e^(-eps/(steps+1)):
    a chi-square goodness-of-fit test over the central values, the tails pooled."""
    rng = np.random.default_rng(4)
    eps, steps, n = 0.7, 8, 100_000
    value = np.full(n, 12.3)
    out = mechanisms.grid_laplace(rng, value, 2.0, eps, steps=steps)
    step = 2.0 / steps
    z = np.rint(out.published / step) - np.rint(12.3 / step)
    r = np.exp(-eps / (steps + 1))
    edges = np.arange(-40, 41)
    pmf = (1 - r) / (1 + r) * r ** np.abs(edges)
    tail = r**41 / (1 + r)  # P(Z <= -41) = P(Z >= 41)
    observed = [np.sum(z < -40), *[np.sum(z == e) for e in edges], np.sum(z > 40)]
    expected = n * np.array([tail, *pmf, tail])
    assert expected.sum() == pytest.approx(n, rel=1e-12)
    assert stats.chisquare(observed, expected).pvalue > ALPHA
    assert out.scale[0] == pytest.approx(step * (steps + 1) / eps, rel=1e-12)


def test_grid_laplace_publishes_only_grid_points_so_neighbours_share_every_output():
    """Mironov's attack needs outputs that one value can produce and its neighbour cannot. On the grid, every
    output is a whole number of steps, and two values at most one sensitivity apart round to grid indices at
    most steps + 1 apart, which bounds the pmf ratio at every output by e^eps."""
    rng = np.random.default_rng(5)
    sensitivity, steps = 200.0, 64
    a = mechanisms.grid_laplace(rng, np.full(50_000, 1000.0), sensitivity, 1.0).published
    b = mechanisms.grid_laplace(rng, np.full(50_000, 1150.0), sensitivity, 1.0).published
    for out in (a, b):
        index = out / (sensitivity / steps)
        assert np.allclose(index, np.rint(index), rtol=0, atol=1e-6)
    values = rng.uniform(-1e6, 1e6, 100_000)
    moved = values + sensitivity * rng.uniform(-1.0, 1.0, values.size)
    step = sensitivity / steps
    assert np.max(np.abs(np.rint(values / step) - np.rint(moved / step))) <= steps + 1


def test_grid_laplace_cdf_against_draws():
    rng = np.random.default_rng(6)
    out = mechanisms.grid_laplace(rng, np.zeros(50_000), 1.0, 0.5, steps=4)
    for x in (-20.0, -3.3, -0.25, 0.0, 0.1, 2.0, 7.5):
        p = float(mechanisms.grid_laplace_cdf(x, out.step[0], out.scale[0]))
        assert abs(np.mean(out.published <= x) - p) < 4 * np.sqrt(p * (1 - p) / out.published.size) + 1e-12


@pytest.mark.parametrize(
    ("value", "sensitivity", "epsilon"),
    [(np.nan, 1.0, 1.0), (1.0, 0.0, 1.0), (1.0, 1.0, 0.0), (1.0, 1.0, np.inf), (1e18, 1.0, 1.0)],
)
def test_grid_laplace_refuses_bad_input(value, sensitivity, epsilon):
    with pytest.raises(ValueError):
        mechanisms.grid_laplace(np.random.default_rng(0), np.array([value]), sensitivity, epsilon)


@pytest.mark.parametrize(("epsilon", "steps"), [(1e-20, 64), (1e-100, 64), (mechanisms.MIN_EPSILON, 10**6)])
def test_grid_laplace_refuses_an_epsilon_whose_noise_a_double_cannot_hold(epsilon, steps):
    """Below about 1e-16 numpy's geometric draws saturate at an int64 limit and cancel (the release was the true
    value with no noise at all); below about 1e-12 the noise no longer fits a double's exact integers. Such an
    epsilon (the floor, 1e-9; or a noise grid so fine that even that is too small) is refused, naming it."""
    with pytest.raises(ParameterError) as raised:
        mechanisms.grid_laplace(np.random.default_rng(0), np.array([5432.739]), 1.0, epsilon, steps=steps)
    assert raised.value.parameter == "epsilon"


def test_grid_laplace_at_the_smallest_epsilon_adds_noise_of_its_scale():
    """At MIN_EPSILON the noise is ``(steps + 1) / epsilon`` grid steps wide and still exact: E|Z| of the two-sided
    geometric is ``2a / (1 - a^2)`` with ``a = exp(-epsilon / (steps + 1))``, and |Z| has about that standard
    deviation, so the mean of n draws lies within 5 / sqrt(n) of it (relative); no draw is zero (P = 8e-12)."""
    n, steps = 4000, mechanisms.GRID_STEPS
    out = mechanisms.grid_laplace(np.random.default_rng(7), np.zeros(n), 1.0, mechanisms.MIN_EPSILON)
    z = out.published / out.step
    a = np.exp(-mechanisms.MIN_EPSILON / (steps + 1))
    expected = 2 * a / -np.expm1(2 * np.log(a))
    assert abs(np.mean(np.abs(z)) / expected - 1) < 5 / np.sqrt(n)
    assert np.all(z != 0) and np.all(z == np.rint(z))


@pytest.mark.parametrize("saturated", [np.iinfo(np.int64).min, np.iinfo(np.int64).max])
def test_a_saturated_geometric_draw_is_never_published(saturated):
    """A geometric draw below 1 or beyond the largest numpy's exponential can reach is a saturated one (int64 min
    before numpy 1.25, int64 max since); two of them cancel, so the release stops instead."""

    class Saturated:
        def geometric(self, p, size):
            return np.full(size, saturated)

    with pytest.raises(RuntimeError, match="overflowed"):
        mechanisms.grid_laplace(Saturated(), np.array([1.0]), 1.0, 1.0)


def test_every_random_draw_of_the_plugin_goes_through_this_module():
    """The architecture's audit rule: all randomness of the plugin (core, processing, plugin, ui) is drawn in
    core/mechanisms.py."""
    offenders = {}
    for name, source in _plugin_sources():
        if name != "core/mechanisms.py":
            found = _random_draws_outside_mechanisms(source)
            if found:
                offenders[name] = found
    assert offenders == {}
    # the scan itself must see a direct draw
    assert _random_draws_outside_mechanisms("x = rng.standard_normal(3)\ny = self.rng.uniform(0, 1)") == [
        "line 1: rng.standard_normal(...)",
        "line 2: rng.uniform(...)",
    ]


def test_disc_lattice_offsets_are_uniform_on_the_disc():
    """Uniform on the disc of radius r (in lattice steps): the distance d has P(d <= t) = (t / r)^2 and the angle
    is uniform, so a KS test of (d / r)^2 and of the angle against U(0, 1) must pass (the lattice's resolution,
    1 / 65,536, is far below what 20,000 draws resolve); a distance uniform in [0, r] (the common mistake) is
    rejected. Every offset is a lattice point within the disc."""
    rng = np.random.default_rng(51)
    steps = mechanisms.DISC_STEPS
    i, j = mechanisms.disc_lattice_offsets(rng, 20_000)
    assert i.dtype == j.dtype == np.int64 and i.size == j.size == 20_000
    assert np.all(i * i + j * j <= (steps - 1) ** 2)
    d = np.hypot(i, j) / steps
    assert stats.kstest(d**2, "uniform").pvalue > ALPHA
    assert stats.kstest((np.arctan2(j, i) / (2 * np.pi)) % 1.0, "uniform").pvalue > ALPHA
    assert stats.kstest(d, "uniform").pvalue < ALPHA  # power against uniform-in-distance
    # a small lattice: every one of its points is reached, about equally often (chi-square)
    i, j = mechanisms.disc_lattice_offsets(rng, 24_000, steps=3)  # i^2 + j^2 <= 4: 13 points
    points, counts = np.unique(np.column_stack([i, j]), axis=0, return_counts=True)
    assert len(points) == 13 and stats.chisquare(counts).pvalue > ALPHA  # all 13 reached, equally often
    with pytest.raises(ValueError, match="at least 2"):
        mechanisms.disc_lattice_offsets(rng, 3, steps=1)


def _on_grid(values, step):
    return np.array_equal(np.rint(values / step) * step, values)


def test_snap_to_grid_releases_grid_points_inside_the_window():
    """Every released coordinate is a whole number of steps of the public grid, inside the window; a draw that
    rounds out of the window goes to a corner of its cell inside it, and one in a sliver narrower than the step
    to a finer grid."""
    from spatial_privacy.core.window import Window

    # a square with edges off the grid lines and an island [0.503, 0.508] x [1.2, 1.5] narrower than the step
    island = [(0.503, 1.2), (0.508, 1.2), (0.508, 1.5), (0.503, 1.5)]
    a, b = 0.0025, 0.9975
    window = Window.from_polygons([[(a, a), (b, a), (b, b), (a, b)], island])
    rng = np.random.default_rng(21)
    x, y = rng.uniform(a, b, 5000), rng.uniform(a, b, 5000)
    # draws hugging the edges, where plain rounding leaves the window, and draws on the island
    x = np.concatenate([x, [0.0028, 0.9972, 0.5, 0.5035, 0.5075]])
    y = np.concatenate([y, [0.0028, 0.9972, 0.9973, 1.3, 1.4]])
    assert window.contains(x, y).all()
    step = 0.01
    sx, sy = mechanisms.snap_to_grid(x, y, step, window.contains)
    assert window.contains(sx, sy).all()
    assert _on_grid(sx[:5003], step) and _on_grid(sy[:5003], step)
    moved = np.hypot(sx[:5003] - x[:5003], sy[:5003] - y[:5003])
    assert np.max(moved) <= step * np.sqrt(2)  # a corner of the draw's grid cell at worst
    assert np.mean(moved <= step / np.sqrt(2) + 1e-12) > 0.98  # mostly the nearest grid point
    # the island draws went to the first halving with grid points on the island
    assert _on_grid(sx[5003:], step / 2) and _on_grid(sy[5003:], step / 2) and not _on_grid(sx[5003:], step)
    # the plain rounding of the edge draws left the window; the corner rule kept them in
    assert not window.contains(np.rint(x[5000:5003] / step) * step, np.rint(y[5000:5003] / step) * step).any()


def test_snap_to_grid_refuses_a_bad_step():
    with pytest.raises(ValueError, match="grid step"):
        mechanisms.snap_to_grid(np.zeros(1), np.zeros(1), 0.0, lambda x, y: np.ones(x.size, bool))
