"""Covariance families and hyperparameter priors (core.fields); SPDE checks are in test_lgcp.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, special

from spatial_privacy.core import fields
from spatial_privacy.core.errors import ParameterError


def test_matern_half_is_exponential_and_nu_one_is_walder_eq5():
    d = np.linspace(0, 30, 61)
    # nu = 1/2: K_{1/2} has a closed form, covariance sigma^2 exp(-kappa d) with kappa = sqrt(8 * 0.5) / rho
    assert np.allclose(fields.matern(d, 2.0, 10.0, nu=0.5), 2.0 * np.exp(-2.0 * d / 10.0), rtol=1e-10)
    # nu = 1 (Walder eq. 5): sigma^2 (kappa d) K_1(kappa d); at the effective range, kappa d = sqrt(8) and the
    # correlation is about 0.14 (Lindgren et al. 2011). scipy's k1 is a separate implementation from kv.
    kd = math.sqrt(8.0) * d[1:] / 10.0
    assert np.allclose(fields.matern(d[1:], 1.0, 10.0), kd * special.k1(kd), rtol=1e-12)
    assert 0.13 < fields.matern(np.array([10.0]), 1.0, 10.0)[0] < 0.15
    assert fields.matern(np.array([0.0]), 3.0, 10.0)[0] == 3.0


def test_power_exponential_family():
    d = np.linspace(0, 5, 11)
    assert np.allclose(fields.power_exponential(d, 1.5, 2.0, 1.0), fields.exponential(d, 1.5, 2.0))
    assert np.allclose(fields.power_exponential(d, 1.0, 2.0, 2.0), np.exp(-((d / 2.0) ** 2)))
    for bad in (0.0, 2.5):
        with pytest.raises(ParameterError):
            fields.power_exponential(d, 1.0, 1.0, bad)


@pytest.mark.parametrize(
    "prior",
    [
        fields.LogNormalFieldPrior(range0=5.0, sigma0=0.7, sd_log_range=0.8, sd_log_sigma=1.2),
        fields.PCFieldPrior(range0=5.0, alpha_range=0.1, sigma0=2.0, alpha_sigma=0.05),
    ],
)
def test_priors_are_proper_densities_on_the_log_scale(prior):
    total, _ = integrate.dblquad(lambda b, a: math.exp(prior.log_density(a, b)), -12, 12, -12, 8, epsabs=1e-7)
    assert total == pytest.approx(1.0, abs=1e-4)


def test_pc_prior_tail_probabilities():
    prior = fields.PCFieldPrior(range0=5.0, alpha_range=0.1, sigma0=2.0, alpha_sigma=0.05)
    # P(rho < range0) = alpha_range, integrating the joint density over log sigma and log rho < log range0
    p_range, _ = integrate.dblquad(lambda b, a: math.exp(prior.log_density(a, b)), -15, math.log(5.0), -15, 8)
    p_sigma, _ = integrate.dblquad(lambda b, a: math.exp(prior.log_density(a, b)), -15, 15, math.log(2.0), 8)
    assert p_range == pytest.approx(0.1, abs=1e-4) and p_sigma == pytest.approx(0.05, abs=1e-4)
