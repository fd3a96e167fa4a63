"""Model-based pMSE for LGCPs (Walder, Hanks & Slavković, Section 6, eqs. 12-15).

The 2N pooled points ``y_k`` (N confidential, N synthetic, ``P(y_k in S) = 0.5``) are classified by
the two fitted intensities: with paired posterior draws ``lambda^(l)`` (fit to S) and
``lambda^dagger(l)`` (fit to S^dagger),

    p_k^(l) = lambda^(l)(y_k) / (lambda^(l)(y_k) + (Lambda^(l) / Lambda^dagger(l)) lambda^dagger(l)(y_k))   (13)

the probability that ``y_k`` is confidential, i.e. the normalised densities' ratio
``(lambda / Lambda) / (lambda / Lambda + lambda^dagger / Lambda^dagger)``. The probability of a correct
classification is ``p_hat_k = (1/L) sum_l p^x (1 - p)^(1 - x)`` (eq. 14, ``x_k = 1`` for confidential
points) and ``pMSE = (1 / 2N) sum_k (p_hat_k - 1/2)^2`` (eq. 15): 0 when the intensities are the same
up to scale, 1/4 when their supports are disjoint. Since ``|p_hat_k - 1/2|`` is the same whether the
point is scored as confidential or synthetic, the labels change ``p_hat`` but not the pMSE.

Units: intensities per squared CRS unit, integrals dimensionless counts; the pMSE is dimensionless.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from ..errors import ParameterError


@dataclass(frozen=True)
class LGCPpMSE:
    """Result of :func:`pmse`.

    Attributes:
        pmse: eq. (15).
        p_correct: ``(2N,)`` eq. (14), the probability of classifying each pooled point correctly.
        propensity: ``(2N,)`` ``(1/L) sum_l p_k^(l)``, the probability that the point is confidential.
    """

    pmse: float
    p_correct: np.ndarray
    propensity: np.ndarray


def pmse(
    lambda_conf: np.ndarray,
    lambda_syn: np.ndarray,
    integral_conf: np.ndarray,
    integral_syn: np.ndarray,
    is_confidential: np.ndarray,
    log: bool = False,
) -> LGCPpMSE:
    """The model-based pMSE (eqs. 12-15) from L paired draws.

    Args:
        lambda_conf: ``(L, 2N)`` draws of the confidential fit's intensity at the pooled points (>= 0).
        lambda_syn: ``(L, 2N)`` the synthetic fit's draws at the same points, paired by row.
        integral_conf, integral_syn: ``(L,)`` the draws' integrals over the window (> 0).
        is_confidential: ``(2N,)`` booleans, ``x_k`` of eq. (14).
        log: the four arrays are logs (``log lambda``, ``log Lambda``) instead.

    A point where both intensities are 0 gets ``p = 1/2``.
    """
    lc = np.atleast_2d(np.asarray(lambda_conf, dtype=np.float64))
    ls = np.atleast_2d(np.asarray(lambda_syn, dtype=np.float64))
    ic = np.asarray(integral_conf, dtype=np.float64).ravel()
    is_ = np.asarray(integral_syn, dtype=np.float64).ravel()
    label = np.asarray(is_confidential, dtype=bool).ravel()
    if lc.shape != ls.shape or ic.size != lc.shape[0] or is_.size != lc.shape[0] or label.size != lc.shape[1]:
        raise ParameterError("draws", "need (L, K) intensities, (L,) integrals and K labels for both fits")
    if not log:
        if np.any(lc < 0) or np.any(ls < 0) or np.any(ic <= 0) or np.any(is_ <= 0):
            raise ParameterError("draws", "intensities must be >= 0 and integrals > 0")
        with np.errstate(divide="ignore"):
            lc, ls, ic, is_ = np.log(lc), np.log(ls), np.log(ic), np.log(is_)
    with np.errstate(invalid="ignore"):
        logit = (lc - ic[:, None]) - (ls - is_[:, None])
    p = np.where(np.isnan(logit), 0.5, expit(logit))
    propensity = p.mean(axis=0)
    p_correct = np.where(label, propensity, 1.0 - propensity)
    return LGCPpMSE(float(np.mean((p_correct - 0.5) ** 2)), p_correct, propensity)


def pmse_from_draws(conf, syn, x_conf, y_conf, x_syn, y_syn) -> LGCPpMSE:
    """eqs. (12)-(15) from two :class:`core.metrics.intensity_draws.IntensityDraws` (paired by draw index; the first
    ``min(L, L^dagger)`` draws are used) and the two point sets."""
    x = np.concatenate([np.ravel(x_conf), np.ravel(x_syn)]).astype(np.float64)
    y = np.concatenate([np.ravel(y_conf), np.ravel(y_syn)]).astype(np.float64)
    label = np.concatenate([np.ones(np.size(x_conf), dtype=bool), np.zeros(np.size(x_syn), dtype=bool)])
    count = min(conf.n_draws, syn.n_draws)
    return pmse(
        conf.log_intensity(x, y)[:count],
        syn.log_intensity(x, y)[:count],
        conf.log_integrals[:count],
        syn.log_integrals[:count],
        label,
        log=True,
    )
