"""Propensity-score mean squared error (pMSE) of a synthetic point pattern.

The pMSE (Woo et al. 2009; Snoke et al. 2016) measures how well a classifier can tell synthetic
records from original ones. The ``n`` original and ``m`` synthetic records are pooled; each gets a
propensity score ``p_i``, the estimated probability that it is synthetic, and

    pMSE = 1 / (n + m) * sum_{i=1}^{n+m} (p_i - m / (n + m))^2          (Kim & Lim eq. 15)

0 means the classifier cannot do better than the base rate ``c = m / (n + m)`` (indistinguishable
data). A perfect classifier (``p_i = 1`` on synthetic, 0 on original records) scores
``c (1 - c) = n m / (n + m)^2``, which is 0.25 when ``n = m``; no score in [0, 1] can exceed
``max(c, 1 - c)^2``.

For point patterns Kim & Lim (Section 3.4, after Walder et al. 2020) replace the classifier by the
two intensity functions: with ``lambda`` fitted to the original points and ``lambda'`` to the
synthetic ones, each normalised to integrate to 1 over the window,

    p_i = lambda'_norm(x_i) / (lambda_norm(x_i) + lambda'_norm(x_i)),
    lambda_norm = lambda / integral_W lambda,  lambda'_norm = lambda' / integral_W lambda',

evaluated at all ``n + m`` pooled points. Disjoint supports give the perfect-classifier value.
Because the intensities are normalised, the scores ignore the sizes of the two patterns: identical
normalised intensities give ``p_i = 1/2`` and a pMSE of ``(1/2 - m / (n + m))^2``, which is 0 only
when ``n = m`` (eq. 15 as published; a synthesiser that gets the count wrong is penalised through
the base rate).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError


def pmse_from_propensity(p, share: float) -> float:
    """``mean((p_i - share)^2)``: the pMSE of propensity scores ``p`` with base rate ``share``.

    Args:
        p: propensity scores of all pooled records (original and synthetic), each in [0, 1].
        share: the base rate ``m / (n + m)``, the share of synthetic records, in [0, 1].

    Returns:
        the pMSE, between 0 and ``max(share, 1 - share)^2`` (see the module docstring).
    """
    p = np.asarray(p, dtype=np.float64).ravel()
    if p.size == 0:
        raise ParameterError("propensity", "no propensity scores given")
    if not (np.isfinite(p).all() and (p >= 0).all() and (p <= 1).all()):
        raise ParameterError("propensity", "propensity scores must be finite numbers in [0, 1]")
    share = float(share)
    if not (math.isfinite(share) and 0.0 <= share <= 1.0):
        raise ParameterError("share", f"share must be in [0, 1], got {share!r}")
    return float(np.mean((p - share) ** 2))


def propensity_from_intensities(lambda_original, lambda_synthetic, integral_original, integral_synthetic):
    """Propensity scores ``lambda'_norm / (lambda_norm + lambda'_norm)`` at points (Kim & Lim, Section 3.4).

    Args:
        lambda_original: ``lambda(x_i)``, the intensity fitted to the original pattern, at each point
            (>= 0, points per squared unit).
        lambda_synthetic: ``lambda'(x_i)``, the intensity fitted to the synthetic pattern, at the same points.
        integral_original: ``integral_W lambda``, the expected number of points of ``lambda`` (> 0).
        integral_synthetic: ``integral_W lambda'`` (> 0).

    Returns:
        array of scores in [0, 1].

    Raises:
        ParameterError: negative or non-finite intensities, non-positive integrals, or a point where
            both intensities are 0 (its score is undefined).
    """
    lam = np.asarray(lambda_original, dtype=np.float64)
    lam_syn = np.asarray(lambda_synthetic, dtype=np.float64)
    if lam.shape != lam_syn.shape:
        raise ParameterError(
            "lambda_synthetic", f"give both intensities at the same points, got shapes {lam.shape} and {lam_syn.shape}"
        )
    for name, values in (("lambda_original", lam), ("lambda_synthetic", lam_syn)):
        if not (np.isfinite(values).all() and (values >= 0).all()):
            raise ParameterError(name, f"{name} must be finite and >= 0")
    for name, value in (("integral_original", integral_original), ("integral_synthetic", integral_synthetic)):
        value = float(value)
        if not (math.isfinite(value) and value > 0):
            raise ParameterError(name, f"{name} must be a finite number > 0, got {value!r}")
    norm = lam / float(integral_original)
    norm_syn = lam_syn / float(integral_synthetic)
    total = norm + norm_syn
    if not (total > 0).all():
        raise ParameterError(
            "lambda_original", f"{int(np.count_nonzero(total <= 0))} points have zero intensity under both fits"
        )
    return norm_syn / total


def pmse_normalised(
    lambda_original,
    lambda_synthetic,
    integral_original: float,
    integral_synthetic: float,
    n_original: int,
    n_synthetic: int,
) -> float:
    """The intensity-based pMSE of Kim & Lim eq. 15.

    Args:
        lambda_original: ``lambda`` (fitted to the ``n`` original points) at all ``n + m`` pooled
            points, original and synthetic, in any order.
        lambda_synthetic: ``lambda'`` (fitted to the ``m`` synthetic points) at the same pooled points.
        integral_original, integral_synthetic: the integrals of ``lambda`` and ``lambda'`` over the window.
        n_original, n_synthetic: ``n`` and ``m``; ``n + m`` must equal the number of values.

    Returns:
        the pMSE: 0 when ``n = m`` and the normalised intensities agree at every point (otherwise
        ``(1/2 - m / (n + m))^2`` for agreeing intensities); ``n m / (n + m)^2`` (0.25 for ``n = m``)
        when their supports are disjoint.
    """
    n, m = int(n_original), int(n_synthetic)
    if n < 0 or m < 0 or n + m == 0:
        raise ParameterError("n_original", f"need n_original, n_synthetic >= 0 and not both 0, got {n}, {m}")
    p = propensity_from_intensities(lambda_original, lambda_synthetic, integral_original, integral_synthetic).ravel()
    if p.size != n + m:
        raise ParameterError(
            "lambda_original", f"intensities must be given at all n + m = {n + m} pooled points, got {p.size}"
        )
    return pmse_from_propensity(p, m / (n + m))
