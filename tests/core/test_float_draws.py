"""The facts about numpy's double-precision draws on which core.mechanisms' floating-point figures rest (the
delta of grid_laplace derived from numpy's C code and ziggurat tables, the range of the Laplace draw). If numpy
draws differently, these fail, and the figures in core/mechanisms.py and the README must be derived again."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core import mechanisms


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 10.0, 26.0])
def test_numpy_draws_a_geometric_as_the_ceiling_of_its_ziggurat_exponential(epsilon):
    """grid_laplace's geometric draws, for decay d = epsilon / 65 < ln 1.5, are ceil(E / d) of numpy's standard
    exponential E (its ziggurat, the same stream), whose tail E = r - log1p(-U) ends at r + 53 ln 2 = 44.43."""
    decay = epsilon / (mechanisms.GRID_STEPS + 1)
    p = -math.expm1(-decay)
    assert p < 1 / 3  # numpy's inversion branch (a search over one uniform from 1/3 on)
    geometric = np.random.default_rng(7).geometric(p, size=200_000)
    exponential = np.random.default_rng(7).standard_exponential(200_000)
    np.testing.assert_array_equal(geometric, np.ceil(-exponential / np.log1p(-p)).astype(np.int64))


def test_the_stated_ranges_of_numpys_draws():
    """The largest exponential: the ziggurat's r (numpy's ziggurat_exp_r, 7.697) plus -log1p(-U) at the largest
    53-bit uniform U = 1 - 2**-53; the largest Laplace draw: -b log(2 - 2U) at that U, or b log(2U) at the smallest
    nonzero U = 2**-53."""
    largest_uniform = 1.0 - 2.0**-53
    assert -math.log1p(-largest_uniform) == pytest.approx(53 * math.log(2), rel=1e-15)
    assert 7.6971174701310497 + 53 * math.log(2) == pytest.approx(44.43, abs=0.005)
    assert -math.log(2.0 - 2 * largest_uniform) == pytest.approx(36.04, abs=0.005) == -math.log(2 * 2.0**-53)
    draws = np.random.default_rng(3).laplace(0.0, 1.0, size=1_000_000)
    assert np.abs(draws).max() < 36.04


def test_the_grid_noise_docstrings_state_the_floating_point_delta():
    """The guarantee is stated for the distribution sampled; what the double-precision draw changes is stated with
    its figures, not as 'exactly'."""
    module = mechanisms.__doc__
    assert "bounded by ``e^epsilon``\nexactly" not in module and "about 1e-16 at epsilon = 1" in module
    doc = mechanisms.grid_laplace.__doc__
    for figure in ("44.43", "8e-17 at epsilon = 1", "4.5e-20", "5e-15 at", "8e-11 at 20", "2e-3 at 30"):
        assert figure in " ".join(doc.split()), figure
