"""The noise module (core.mechanisms): distributions against their theory."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from spatial_privacy.core import mechanisms

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


def test_every_random_draw_of_the_core_goes_through_this_module():
    """The architecture's audit rule: all randomness of the core is drawn in core/mechanisms.py."""
    from pathlib import Path

    import spatial_privacy.core as core

    root = Path(core.__file__).parent
    offenders = {}
    for path in sorted(root.rglob("*.py")):
        if path.name != "mechanisms.py":
            found = _random_draws_outside_mechanisms(path.read_text(encoding="utf-8"))
            if found:
                offenders[str(path.relative_to(root))] = found
    assert offenders == {}
    # the scan itself must see a direct draw
    assert _random_draws_outside_mechanisms("x = rng.standard_normal(3)\ny = self.rng.uniform(0, 1)") == [
        "line 1: rng.standard_normal(...)",
        "line 2: rng.uniform(...)",
    ]
