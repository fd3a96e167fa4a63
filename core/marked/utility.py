"""Utility of fully synthetic marked point data for the locations: the L-function of the confidential points
against the pointwise band of the L synthetic sets (Quick, Holan, Wikle & Reiter, Section 3.1, eqs. 6-7), overall
and per combination of the category marks.

The paper estimates K by eq. (6), ``|D| / N^2 sum_{i != j} 1(d_ij <= h)``, and notes that it is biased by edge
effects. Here K is the edge-corrected estimator of :func:`core.metrics.kfunction.k_function` (Ripley's isotropic
correction, spatstat's ``Kest``: ``|W| / (n (n - 1)) sum_{i != j} 1(d_ij <= r) e_ij``), which removes that bias;
``L(r) = sqrt(K(r) / pi)`` and the report draws ``L(r) - r``, the paper's eq. (7).

For each group (all records, then each combination k of the category marks) and each radius r of a grid common to
every group (spatstat's default rule for all N records, :func:`core.metrics.mise.default_radii`):

* the confidential curve ``L(r)`` of the group's confidential points;
* ``L_l(r)`` of the group's records in each synthetic set l; their mean ``Lbar(r)`` (the paper's average over the
  sets) and the pointwise empirical 95% band, the 2.5% and 97.5% quantiles over the sets (numpy's linear
  interpolation; with 20 sets they lie between the two smallest and the two largest values);
* ``outside(r)``: the confidential curve lies outside the band at r.

A group needs at least 2 points for a K-function: a combination with fewer than 2 confidential records has no
curve (its note says so); a set with fewer than 2 records of the combination contributes nothing to its band
(the number of sets used is kept), and a band needs at least 2 sets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from ..metrics.kfunction import k_function
from ..metrics.mise import check_radii, default_radii
from ..progress import Progress, report, scaled
from ..window import Window

#: Radii in the default grid.
RADII = 50
#: Quantiles of the pointwise band.
BAND = (0.025, 0.975)


@dataclass(frozen=True)
class LBand:
    """The L-functions of one group (all records, or one combination).

    Attributes:
        group: -1 for all records, else the combination index k.
        n: the group's confidential records.
        original: ``(R,)`` ``L(r)`` of the confidential points (NaN if ``n < 2``).
        synthetic: ``(L, R)`` ``L_l(r)`` of each synthetic set (a row of NaN for a set with fewer than 2 records).
        mean, lower, upper: ``(R,)`` the mean over the sets used and the pointwise 2.5% and 97.5% quantiles.
        outside: ``(R,)`` True where ``original`` lies outside ``[lower, upper]``.
        sets_used: sets with at least 2 records of the group.
        note: why the group has no curve or no band, else ``None``.
    """

    group: int
    n: int
    original: np.ndarray
    synthetic: np.ndarray
    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    outside: np.ndarray
    sets_used: int
    note: str | None = None


@dataclass(frozen=True)
class LUtility:
    """The L-function bands on the common radii ``r``: ``bands[0]`` for all records, then one per combination."""

    r: np.ndarray
    bands: tuple[LBand, ...]
    correction: str = "isotropic"


def _band(group: int, n: int, original: np.ndarray, synthetic: np.ndarray, note: str | None) -> LBand:
    used = np.isfinite(synthetic).all(axis=1)
    nan = np.full(synthetic.shape[1], np.nan)
    if used.sum() >= 2:
        mean = synthetic[used].mean(axis=0)
        lower, upper = np.quantile(synthetic[used], BAND, axis=0)
    else:
        mean = synthetic[used].mean(axis=0) if used.any() else nan
        lower = upper = nan
        note = note or f"{int(used.sum())} synthetic sets have 2 or more records of the group: no band"
    with np.errstate(invalid="ignore"):
        outside = (original < lower) | (original > upper)
    return LBand(group, n, original, synthetic, mean, lower, upper, outside, int(used.sum()), note)


def l_function_bands(
    x,
    y,
    index,
    syn_x,
    syn_y,
    syn_index,
    syn_set,
    sets: int,
    window: Window,
    radii=None,
    progress: Progress = None,
) -> LUtility:
    """The L-functions of the confidential points and of each synthetic set, overall and per combination, with
    the pointwise 95% bands over the sets (module docstring).

    Args:
        x, y: the N confidential locations, all inside ``window``.
        index: ``(N,)`` combination index of each confidential record (core.marked.combinations).
        syn_x, syn_y, syn_index: the synthetic records of all sets (``syn_index`` >= 0).
        syn_set: ``(M,)`` the set of each synthetic record, 1..``sets``.
        sets: L.
        window: the study window; every synthetic point must lie inside it too.
        radii: the common radii (strictly increasing, >= 0); default :data:`RADII` radii from 0 to spatstat's
            rule for all N records.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Raises:
        ParameterError: naming ``points`` (outside the window, fewer than 2), ``synthetic`` (outside the window),
            ``syn_set`` or ``radii``.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    syn_x = np.asarray(syn_x, dtype=np.float64)
    syn_y = np.asarray(syn_y, dtype=np.float64)
    index = np.asarray(index, dtype=np.int64)
    syn_index = np.asarray(syn_index, dtype=np.int64)
    syn_set = np.asarray(syn_set, dtype=np.int64)
    if syn_set.size and (syn_set.min() < 1 or syn_set.max() > sets):
        raise ParameterError("syn_set", f"set numbers must lie in 1..{sets}, got {syn_set.min()}..{syn_set.max()}")
    outside = int(np.count_nonzero(~window.contains(syn_x, syn_y)))
    if outside:
        raise ParameterError(
            "synthetic",
            f"{outside} of {syn_x.size} synthetic points lie outside the study window; give the window the sets were "
            "synthesised in",
        )
    r = default_radii(window, x.size, RADII) if radii is None else check_radii(radii)
    n_comb = int(max(index.max(initial=-1), syn_index.max(initial=-1)) + 1)
    groups = [-1] + list(range(n_comb))
    bands = []
    calls, done = len(groups) * (sets + 1), 0

    def curve(px, py) -> np.ndarray:
        nonlocal done
        step = scaled(progress, done / calls, (done + 1) / calls)
        done += 1
        if px.size < 2:
            return np.full(r.size, np.nan)
        quiet = None if step is None else (lambda fraction, _message: step(fraction, ""))  # one message per group
        return k_function(px, py, window, r, "isotropic", progress=quiet).L

    for group in groups:
        report(progress, done / calls, "L-functions of all records" if group < 0 else f"L-functions of group {group}")
        mine = np.ones(x.size, bool) if group < 0 else index == group
        theirs = np.ones(syn_x.size, bool) if group < 0 else syn_index == group
        n = int(mine.sum())
        note = None if n >= 2 else f"{n} confidential record(s): no K-function"
        if group < 0 and n < 2:
            raise ParameterError("points", f"the L-function needs at least 2 points, got {n}")
        original = curve(x[mine], y[mine])
        synthetic = np.vstack(
            [curve(syn_x[theirs & (syn_set == s + 1)], syn_y[theirs & (syn_set == s + 1)]) for s in range(sets)]
        )
        bands.append(_band(group, n, original, synthetic, note))
    report(progress, 1.0, "L-functions done")
    return LUtility(r, tuple(bands))
