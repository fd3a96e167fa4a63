"""Radii at which to estimate and compare K-functions, and the MISE between two K-functions (Kim & Lim,
Section 4.1).

Nothing here depends on how the K-functions were estimated: :func:`mise` and :func:`mean_mise` take the
radii and the values, and :func:`check_radii` is the rule every K-function estimator applies to its radii.
:func:`default_radii` is spatstat's rule for a planar window (``rmax.rule("K")``).

Radii are in the units of the coordinates (a projected CRS), ``K`` in squared units.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from ..window import Window

# -- radii ---------------------------------------------------------------------------------------


def check_radii(radii) -> np.ndarray:
    """``radii`` as a float array, refused (naming ``radii``) unless one-dimensional, non-empty, finite, >= 0 and
    strictly increasing."""
    try:
        r = np.array(radii, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError("radii", "radii must be a sequence of numbers") from exc
    if r.ndim != 1 or r.size == 0:
        raise ParameterError("radii", f"radii must be a non-empty one-dimensional sequence, got shape {r.shape}")
    if not np.isfinite(r).all():
        raise ParameterError("radii", "radii must be finite")
    if (r < 0).any():
        raise ParameterError("radii", f"radii must be >= 0, got a smallest value of {r.min()!r}")
    if r.size > 1 and not (np.diff(r) > 0).all():
        raise ParameterError("radii", "radii must be strictly increasing")
    return r


def default_radii(window: Window, n: int, count: int = 100) -> np.ndarray:
    """``count`` evenly spaced radii from 0 to spatstat's default ``rmax`` for the K-function.

    ``rmax = min(shortside / 4, sqrt(1000 / (pi lambda)))`` (spatstat's ``rmax.rule("K")``) with
    ``shortside`` the shorter side of the window's bounding box and ``lambda = n / |W|``.
    """
    if count < 2:
        raise ParameterError("count", f"count must be at least 2, got {count!r}")
    xmin, ymin, xmax, ymax = window.bounds
    rmax = min(xmax - xmin, ymax - ymin) / 4.0
    if n > 0:
        rmax = min(rmax, math.sqrt(1000.0 / (math.pi * n / window.area)))
    return np.linspace(0.0, rmax, int(count))


# -- MISE ----------------------------------------------------------------------------------------


def mise(r, k_synthetic, k_original) -> np.ndarray | float:
    """Integrated squared relative error of a K-function, Kim & Lim Section 4.1.

    ``integral over {r : K_ori(r) > 0} of (K_syn(r) / K_ori(r) - 1)^2 dr``, by the trapezoid rule on
    the given radii: an interval ``[r_k, r_k+1]`` is included when ``K_ori > 0`` at both ends (as ``K``
    is non-decreasing, the domain is the radii from the first with ``K_ori > 0`` on; the part of
    the first interval where ``K_ori`` turns positive is left out). 0 means identical K-functions.

    Args:
        r: the radii (one-dimensional, strictly increasing).
        k_synthetic: K of the synthetic pattern(s), shape ``(..., len(r))``.
        k_original: K of the original pattern, broadcastable against ``k_synthetic``.

    Returns:
        the integral (in units of length), a float or an array of the leading shape. ``nan`` when
        ``K_syn`` is ``nan`` inside the domain.
    """
    r = check_radii(r)
    if r.size < 2:
        raise ParameterError("radii", "the MISE needs at least two radii")
    k_syn = np.asarray(k_synthetic, dtype=np.float64)
    k_ori = np.asarray(k_original, dtype=np.float64)
    if k_syn.shape[-1:] != r.shape or k_ori.shape[-1:] != r.shape:
        raise ParameterError(
            "k_synthetic", f"K-functions must have len(r) = {r.size} values last, got {k_syn.shape} and {k_ori.shape}"
        )
    k_syn, k_ori = np.broadcast_arrays(k_syn, k_ori)
    domain = k_ori > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(domain, (k_syn / np.where(domain, k_ori, 1.0) - 1.0) ** 2, 0.0)
    both = domain[..., 1:] & domain[..., :-1]
    value = np.sum(np.where(both, 0.5 * (f[..., 1:] + f[..., :-1]) * np.diff(r), 0.0), axis=-1)
    return float(value) if value.ndim == 0 else value


def mean_mise(r, k_synthetic, k_original) -> float:
    """The MISE averaged over several synthetic sets (and originals), Kim & Lim Section 4.1.

    ``k_synthetic`` has shape ``(n_syn, len(r))`` for one original ``k_original`` of shape ``(len(r),)``,
    or ``(n_ori, n_syn, len(r))`` with ``k_original`` of shape ``(n_ori, len(r))`` (each original is
    compared with its own synthetic sets): ``1 / (n_ori n_syn) sum_j sum_k MISE_jk``.
    """
    k_syn = np.asarray(k_synthetic, dtype=np.float64)
    k_ori = np.asarray(k_original, dtype=np.float64)
    if k_ori.ndim == 2 and k_syn.ndim == 3:
        k_ori = k_ori[:, None, :]
    elif not (k_ori.ndim == 1 and k_syn.ndim == 2):
        raise ParameterError(
            "k_synthetic",
            "give k_synthetic (n_syn, len(r)) with k_original (len(r),), "
            f"or (n_ori, n_syn, len(r)) with (n_ori, len(r)); got {k_syn.shape} and {k_ori.shape}",
        )
    return float(np.mean(mise(r, k_syn, k_ori)))
