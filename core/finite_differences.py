"""Finite-difference derivatives and Newton's method for functions of a few variables (the Laplace-approximated
``-log p(theta | S)`` of core.laplace_fit, whose every value is a Laplace fit)."""

from __future__ import annotations

import math

import numpy as np


def _central_gradient(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central-difference gradient of a scalar function of a few variables."""
    grad = np.empty(x.size)
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = h
        grad[i] = (f(x + step) - f(x - step)) / (2 * h)
    return grad


def _numerical_hessian(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central-difference Hessian of a scalar function of a few variables."""
    k = x.size
    hess = np.empty((k, k))
    f0 = f(x)
    for i in range(k):
        ei = np.zeros(k)
        ei[i] = h
        hess[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / h**2
        for j in range(i + 1, k):
            ej = np.zeros(k)
            ej[j] = h
            hess[i, j] = hess[j, i] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (4 * h * h)
    return hess


#: Step (in theta, log scale) of the finite-difference Hessian of ``log p(theta | S)`` and of the Newton search.
HESSIAN_STEP = 0.05
#: The Newton search stops when the Newton decrement ``g' H^{-1} g`` (twice the log-density still to gain) is
#: below this: the mode is then within about 0.03 posterior sd of the exact one (log density within 5e-4).
NEWTON_DECREMENT = 1e-3


def _stencil(f, x: np.ndarray, h: float) -> tuple[float, np.ndarray, np.ndarray]:
    """``f(x)``, its central-difference gradient and Hessian from the points of :func:`_numerical_hessian`
    (the same floating-point points, so a cache of ``f`` serves both)."""
    k = x.size
    grad, hess = np.empty(k), np.empty((k, k))
    f0 = f(x)
    for i in range(k):
        ei = np.zeros(k)
        ei[i] = h
        up, down = f(x + ei), f(x - ei)
        grad[i] = (up - down) / (2 * h)
        hess[i, i] = (up - 2 * f0 + down) / h**2
        for j in range(i + 1, k):
            ej = np.zeros(k)
            ej[j] = h
            hess[i, j] = hess[j, i] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (4 * h * h)
    return f0, grad, hess


def _quick_stencil(f, x: np.ndarray, h: float) -> tuple[float, np.ndarray, np.ndarray]:
    """As :func:`_stencil` from ``1 + k + k (k + 1) / 2`` points instead of ``1 + 2 k^2``: the gradient and the
    diagonal of the Hessian by central differences, each cross derivative from the one point ``x + h e_i + h e_j``
    (``(f(x + e_i + e_j) - f(x + e_i) - f(x + e_j) + f(x)) / h^2``, accurate to ``O(h)`` instead of ``O(h^2)``).
    For two variables: 5 new points against 8, enough to steer Newton's method towards the mode."""
    k = x.size
    grad, hess = np.empty(k), np.empty((k, k))
    f0 = f(x)
    ups = []
    for i in range(k):
        ei = np.zeros(k)
        ei[i] = h
        up, down = f(x + ei), f(x - ei)
        ups.append(up)
        grad[i] = (up - down) / (2 * h)
        hess[i, i] = (up - 2 * f0 + down) / h**2
    for i in range(k):
        for j in range(i + 1, k):
            both = np.zeros(k)
            both[[i, j]] = h
            hess[i, j] = hess[j, i] = (f(x + both) - ups[i] - ups[j] + f0) / (h * h)
    return f0, grad, hess


def _newton_search(f, x: np.ndarray, h: float, max_iterations: int = 30):
    """Newton's method for the minimum of ``f`` (a few variables) with finite-difference derivatives
    (:func:`_quick_stencil`) and step halving. A step is at most 1 in theta (a factor e of the range or the sd).
    Where the Hessian is not positive definite (far from the mode) its eigenvalues are replaced by their absolute
    values (at least 1e-3 of the largest) and the step is first cut to 3 sd of that Gaussian; if such a step descends
    at once, it is doubled while it keeps descending (up to the limit of 1), since the cut was only caution. Where
    the Hessian is positive definite the full Newton step is tried: the 3-sd cut made the search on a narrow
    posterior (clustered points, sd 0.024 across its ridge) crawl along the ridge in steps of about 0.05.

    Returns:
        ``(converged, best point, iterations)``: not converged when a step does not descend after 8 halvings,
        ``f`` is 1e12 (a failed fit) at the centre of the stencil, or the iterations run out.
    """
    x = np.asarray(x, dtype=np.float64)
    for iteration in range(max_iterations):
        f0, grad, hess = _quick_stencil(f, x, h)
        if f0 >= 1e12 or not np.all(np.isfinite(grad)) or not np.all(np.isfinite(hess)):
            return False, x, iteration
        eigval, eigvec = np.linalg.eigh(0.5 * (hess + hess.T))
        peaked = bool(np.all(eigval > 0))
        eigval = np.maximum(np.abs(eigval), 1e-3 * max(float(np.abs(eigval).max()), 1e-12))
        step = -eigvec @ ((eigvec.T @ grad) / eigval)
        decrement = float(-grad @ step)
        if peaked and decrement < NEWTON_DECREMENT:
            return True, x, iteration
        guarded = not peaked and 3.0 / math.sqrt(max(decrement, 1e-300)) < 1.0
        step *= min(1.0, 3.0 / math.sqrt(max(decrement, 1e-300)) if guarded else 1.0)
        step *= min(1.0, 1.0 / max(float(np.linalg.norm(step)), 1e-300))
        expand = guarded  # a guarded step that descends at once is doubled while it keeps descending
        for _ in range(8):
            value = f(x + step)
            if value < f0:
                break
            step, expand = 0.5 * step, False
        else:
            return False, x, iteration + 1
        while expand and np.linalg.norm(step) <= 0.5:  # the model was not trusted, but it was right
            further = f(x + 2.0 * step)
            if not further < value:
                break
            step, value = 2.0 * step, further
        x = x + step
    return False, x, max_iterations
