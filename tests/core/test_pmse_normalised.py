"""The intensity-based pMSE of Kim & Lim eq. 15 (core.metrics.pmse)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.metrics import pmse


def test_identical_normalised_intensities_give_zero_when_n_equals_m():
    # lambda' = 3 lambda with integrals 30 and 10: the normalised intensities agree, p_i = 1/2 = m / (n + m).
    lam = np.array([0.5, 1.0, 2.0, 4.0, 0.1, 7.0])
    assert pmse.pmse_normalised(lam, 3 * lam, 10.0, 30.0, n_original=3, n_synthetic=3) == 0.0


def test_identical_intensities_with_n_not_m_leave_the_base_rate_gap():
    # Eq. 15 as published: normalised intensities ignore the counts, so p_i = 1/2 while the base rate
    # is m / (n + m) = 1/4: pMSE = (1/2 - 1/4)^2.
    lam = np.ones(8)
    assert pmse.pmse_normalised(lam, lam, 5.0, 5.0, n_original=6, n_synthetic=2) == pytest.approx(1 / 16)


@pytest.mark.parametrize(("n", "m"), [(4, 4), (100, 100), (3, 9)])
def test_disjoint_supports_give_the_perfect_classifier_score(n, m):
    # original points only where lambda > 0, synthetic only where lambda' > 0: p = 0 on the n originals,
    # 1 on the m synthetic points: pMSE = (n (m/(n+m))^2 + m (n/(n+m))^2) / (n + m) = n m / (n + m)^2.
    lam = np.r_[np.full(n, 2.0), np.zeros(m)]
    lam_syn = np.r_[np.zeros(n), np.full(m, 5.0)]
    value = pmse.pmse_normalised(lam, lam_syn, 8.0, 20.0, n_original=n, n_synthetic=m)
    assert value == pytest.approx(n * m / (n + m) ** 2, rel=1e-14)
    if n == m:
        assert value == pytest.approx(0.25, rel=1e-14)


def test_small_example_by_hand():
    # n = 2, m = 1. lambda = (2, 1, 0.5) with integral 4 -> (1/2, 1/4, 1/8);
    # lambda' = (1, 1, 3) with integral 2 -> (1/2, 1/2, 3/2).
    # p = (1/2, 2/3, 12/13); base rate 1/3: pMSE = ((1/6)^2 + (1/3)^2 + (23/39)^2) / 3.
    expected = (Fraction(1, 6) ** 2 + Fraction(1, 3) ** 2 + Fraction(23, 39) ** 2) / 3
    p = pmse.propensity_from_intensities([2.0, 1.0, 0.5], [1.0, 1.0, 3.0], 4.0, 2.0)
    np.testing.assert_allclose(p, [1 / 2, 2 / 3, 12 / 13], rtol=1e-15)
    value = pmse.pmse_normalised([2.0, 1.0, 0.5], [1.0, 1.0, 3.0], 4.0, 2.0, n_original=2, n_synthetic=1)
    assert value == pytest.approx(float(expected), rel=1e-14)


def test_pmse_from_propensity_by_hand_and_bounds():
    assert pmse.pmse_from_propensity([0.2, 0.6, 0.7], 0.5) == pytest.approx((0.09 + 0.01 + 0.04) / 3)
    rng = np.random.default_rng(0)
    for share in (0.1, 0.5, 0.8):
        p = rng.uniform(0, 1, 1000)
        assert 0 <= pmse.pmse_from_propensity(p, share) <= max(share, 1 - share) ** 2
    # the largest possible value: every score at the far end
    assert pmse.pmse_from_propensity([0.0, 0.0], 0.8) == pytest.approx(0.64)


def test_pmse_grows_as_the_synthetic_intensity_moves_away():
    # Original: uniform on [0, 1]; synthetic: density 1 + a (x - 1/2), a in [0, 2). The pMSE at a grid
    # of pooled points must increase with a (a more distinguishable synthetic intensity).
    x = (np.arange(200) + 0.5) / 200
    values = [pmse.pmse_normalised(np.ones(200), 1 + a * (x - 0.5), 1.0, 1.0, 100, 100) for a in (0, 0.5, 1, 1.9)]
    assert values[0] == 0.0 and np.all(np.diff(values) > 0)


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: pmse.pmse_from_propensity([0.2, 1.2], 0.5), "propensity"),
        (lambda: pmse.pmse_from_propensity([], 0.5), "propensity"),
        (lambda: pmse.pmse_from_propensity([0.2], 1.5), "share"),
        (lambda: pmse.propensity_from_intensities([1.0, -1.0], [1.0, 1.0], 1.0, 1.0), "lambda_original"),
        (lambda: pmse.propensity_from_intensities([1.0, 1.0], [1.0, np.nan], 1.0, 1.0), "lambda_synthetic"),
        (lambda: pmse.propensity_from_intensities([1.0], [1.0, 1.0], 1.0, 1.0), "lambda_synthetic"),
        (lambda: pmse.propensity_from_intensities([1.0], [1.0], 0.0, 1.0), "integral_original"),
        (lambda: pmse.propensity_from_intensities([1.0], [1.0], 1.0, -2.0), "integral_synthetic"),
        (lambda: pmse.propensity_from_intensities([0.0, 1.0], [0.0, 1.0], 1.0, 1.0), "lambda_original"),
        (lambda: pmse.pmse_normalised([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], 1.0, 1.0, 1, 1), "lambda_original"),
        (lambda: pmse.pmse_normalised([1.0], [1.0], 1.0, 1.0, 0, 0), "n_original"),
    ],
)
def test_bad_arguments_name_the_parameter(call, parameter):
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
