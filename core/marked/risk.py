"""Inferential disclosure risks of fully synthetic marked point data: Type S and Type A (Quick, Holan, Wikle &
Reiter, Section 3.2, eqs. 8-9).

For a confidential record i at ``s_i`` with combination ``k_i`` of the category marks and numeric mark ``y_i``,
and a synthetic data set l (records ``j`` with ``s_j``, ``k_j``, ``y_j``):

* *spatially close*: ``||s_j - s_i|| <= eps_s``, evaluated as ``dx^2 + dy^2 <= eps_s^2`` in double precision
  (a closed disc: a synthetic record at exactly ``eps_s`` is close; the paper writes "less than", which differs
  only for distances exactly equal to ``eps_s``, e.g. candidate locations on a grid);
* *similar attributes*: ``k_j == k_i`` and, with a numeric mark, ``|y_j - y_i| <= eps_a``, evaluated as
  ``y_i - eps_a <= y_j <= y_i + eps_a`` (closed too);
* ``C = #{j close and similar}``, ``D_S = #{j close}``, ``D_A = #{j similar}`` in set l;
* Type S risk (eq. 8), the share of the synthetic records near ``s_i`` that have ``i``'s attributes:
  ``p_S^(l) = C / D_S``; Type A risk (eq. 9), the share of the synthetic records with ``i``'s attributes that lie
  near ``s_i``: ``p_A^(l) = C / D_A``. Both lie in [0, 1].

Zero denominators (the paper's second option): a set with ``D_S = 0`` (no synthetic record near ``s_i``) gives no
Type S value for ``i`` and is left out of ``i``'s quantiles, likewise ``D_A = 0`` for Type A; the number of sets
used is kept per record. A record with no set at all gets NaN (counted in :attr:`MarkedRisk.undefined_s` and
:attr:`MarkedRisk.undefined_a`).

Quantiles over the sets used: numpy's default (linear interpolation, R's type 7); the median is the 0.5 quantile.

Cost: per set one k-d tree of its records and one query of all confidential points at ``eps_s`` (in blocks of
bounded memory), and per set and combination one sort of the numeric marks (``D_A`` by binary search); the
8,348 enterprises with L = 20 sets take a few seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from ..progress import Progress, report

#: Most (confidential, synthetic) pairs within eps_s held in memory at once (about 40 bytes each).
PAIR_BUDGET = 4_000_000
#: Quantiles reported per record.
QUANTILES = (0.05, 0.5, 0.95)


@dataclass(frozen=True)
class MarkedRisk:
    """Per-record Type S (eq. 8) and Type A (eq. 9) risks over the L synthetic sets.

    Attributes:
        type_s, type_a: ``(N, L)`` risks, NaN where the set's denominator is 0 (the set is not used for that
            record).
        close: ``(N, L)`` ``D_S``, synthetic records of the set within eps_s of the record.
        similar: ``(N, L)`` ``D_A``, synthetic records of the set with similar attributes.
        spatial_tolerance, attribute_tolerance: eps_s and eps_a (``None`` without a numeric mark).
    """

    type_s: np.ndarray
    type_a: np.ndarray
    close: np.ndarray
    similar: np.ndarray
    spatial_tolerance: float
    attribute_tolerance: float | None

    @property
    def n(self) -> int:
        return int(self.type_s.shape[0])

    @property
    def sets(self) -> int:
        return int(self.type_s.shape[1])

    @property
    def sets_s(self) -> np.ndarray:
        """Per record, the number of sets with a synthetic record within eps_s (used for Type S)."""
        return np.count_nonzero(np.isfinite(self.type_s), axis=1)

    @property
    def sets_a(self) -> np.ndarray:
        """Per record, the number of sets with a synthetic record of similar attributes (used for Type A)."""
        return np.count_nonzero(np.isfinite(self.type_a), axis=1)

    @property
    def undefined_s(self) -> int:
        """Records with no synthetic record within eps_s in any set: Type S risk NaN."""
        return int(np.count_nonzero(self.sets_s == 0))

    @property
    def undefined_a(self) -> int:
        """Records with no synthetic record of similar attributes in any set: Type A risk NaN."""
        return int(np.count_nonzero(self.sets_a == 0))

    def quantiles_s(self) -> np.ndarray:
        """``(N, 3)``: the 5%, 50% and 95% quantiles of the Type S risk over the sets used (NaN if none)."""
        return _quantiles(self.type_s)

    def quantiles_a(self) -> np.ndarray:
        """``(N, 3)``: the 5%, 50% and 95% quantiles of the Type A risk over the sets used (NaN if none)."""
        return _quantiles(self.type_a)


#: A record whose median risk exceeds this is counted in :class:`RiskSummary` (the paper's Fig. 2c keeps every
#: record of the Durham data below it).
SUMMARY_THRESHOLD = 0.2


@dataclass(frozen=True)
class RiskSummary:
    """One risk type over the records: from the per-record quantiles (:meth:`MarkedRisk.quantiles_s` or ``_a``),
    the largest median, the median of the medians, the records whose median exceeds :data:`SUMMARY_THRESHOLD`
    and the largest 95% quantile (NaN with no finite median); the records with no set to estimate the risk, and
    those estimated from fewer than all the sets."""

    largest_median: float
    median_of_medians: float
    above_threshold: int
    largest_q95: float
    undefined: int
    fewer_sets: int

    @classmethod
    def of(cls, quantiles: np.ndarray, sets_used: np.ndarray, sets: int) -> RiskSummary:
        median = quantiles[:, 1]
        finite = median[np.isfinite(median)]
        some = finite.size > 0
        return cls(
            float(finite.max()) if some else math.nan,
            float(np.median(finite)) if some else math.nan,
            int(np.count_nonzero(finite > SUMMARY_THRESHOLD)),
            float(np.nanmax(quantiles[:, 2])) if some else math.nan,
            int(np.count_nonzero(sets_used == 0)),
            int(np.count_nonzero(sets_used < sets)),
        )


def _quantiles(values: np.ndarray) -> np.ndarray:
    out = np.full((values.shape[0], len(QUANTILES)), np.nan)
    some = np.isfinite(values).any(axis=1)
    if some.any():
        out[some] = np.nanquantile(values[some], QUANTILES, axis=1).T
    return out


def _coordinates(x, y, name: str) -> tuple[np.ndarray, np.ndarray]:
    x = np.ascontiguousarray(x, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ParameterError(name, f"x and y must be one-dimensional of the same length, got {x.shape}, {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError(name, "coordinates contain NaN or infinite values")
    return x, y


def _indices(index, size: int, name: str) -> np.ndarray:
    index = np.asarray(index)
    if index.shape != (size,) or (index.size and index.dtype.kind not in "iu"):
        raise ParameterError(name, f"expected {size} whole-number combination indices, got shape {index.shape}")
    return index.astype(np.int64)


def _numeric(values, size: int, name: str) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    if values.shape != (size,):
        raise ParameterError(name, f"expected {size} numeric values, got shape {values.shape}")
    if not np.isfinite(values).all():
        raise ParameterError(name, f"{int(np.count_nonzero(~np.isfinite(values)))} numeric values are NaN or infinite")
    return values


def _check(x, y, index, numeric, syn_x, syn_y, syn_index, syn_numeric, syn_set, sets, eps_s, eps_a):
    x, y = _coordinates(x, y, "points")
    syn_x, syn_y = _coordinates(syn_x, syn_y, "synthetic")
    index = _indices(index, x.size, "index")
    syn_index = _indices(syn_index, syn_x.size, "syn_index")
    if index.size and index.min() < 0:
        raise ParameterError("index", "a confidential record has no combination (index -1)")
    unknown = int(np.count_nonzero(syn_index < 0))
    if unknown:
        raise ParameterError(
            "syn_index", f"{unknown} synthetic records have a combination of categories that no confidential record has"
        )
    if (numeric is None) != (syn_numeric is None):
        raise ParameterError("numeric", "give the numeric mark for both the confidential and the synthetic records")
    if numeric is not None:
        numeric = _numeric(numeric, x.size, "numeric")
        syn_numeric = _numeric(syn_numeric, syn_x.size, "syn_numeric")
        if eps_a is None or not (np.isfinite(eps_a) and eps_a >= 0):
            raise ParameterError("attribute_tolerance", f"the attribute tolerance must be a number >= 0, got {eps_a!r}")
        eps_a = float(eps_a)
    elif eps_a is not None:
        raise ParameterError("attribute_tolerance", "an attribute tolerance needs a numeric mark")
    if not (isinstance(sets, (int, np.integer)) and sets >= 1):
        raise ParameterError("sets", f"the number of synthetic sets must be a whole number >= 1, got {sets!r}")
    syn_set = np.asarray(syn_set)
    if syn_set.shape != (syn_x.size,) or (syn_set.size and syn_set.dtype.kind not in "iu"):
        raise ParameterError("syn_set", f"expected {syn_x.size} whole-number set numbers, got shape {syn_set.shape}")
    syn_set = syn_set.astype(np.int64)
    if syn_set.size and (syn_set.min() < 1 or syn_set.max() > sets):
        raise ParameterError("syn_set", f"set numbers must lie in 1..{sets}, got {syn_set.min()}..{syn_set.max()}")
    empty = sorted(set(range(1, int(sets) + 1)) - set(np.unique(syn_set).tolist()))
    if empty:
        raise ParameterError("syn_set", f"sets {', '.join(map(str, empty[:10]))} have no record")
    if not (np.isfinite(eps_s) and eps_s > 0):
        raise ParameterError("spatial_tolerance", f"the spatial tolerance must be a number > 0, got {eps_s!r}")
    return x, y, index, numeric, syn_x, syn_y, syn_index, syn_numeric, syn_set, float(eps_s), eps_a


def _close_pairs(tree, x, y, sx, sy, eps_s: float):
    """Yield ``(i, j)`` arrays of the pairs (confidential i, synthetic j) with ``dx^2 + dy^2 <= eps_s^2``, in
    blocks of confidential records of at most about :data:`PAIR_BUDGET` pairs. The tree is queried a hair beyond
    eps_s and the pairs are filtered by the predicate itself, so that ties at exactly eps_s follow the stated rule
    whatever rounding the tree uses."""
    from scipy.spatial import cKDTree

    reach = eps_s * (1.0 + 1e-9) + 1e-300
    points = np.column_stack([x, y])
    counts = np.cumsum(tree.query_ball_point(points, reach, return_length=True))
    limit = eps_s * eps_s
    a = 0
    while a < x.size:
        done = counts[a - 1] if a else 0
        b = max(int(np.searchsorted(counts, done + PAIR_BUDGET, side="right")), a + 1)
        pairs = cKDTree(points[a:b]).sparse_distance_matrix(tree, reach, output_type="ndarray")
        i = pairs["i"].astype(np.int64) + a
        j = pairs["j"].astype(np.int64)
        dx = sx[j] - x[i]
        dy = sy[j] - y[i]
        keep = dx * dx + dy * dy <= limit
        yield i[keep], j[keep]
        a = b


def marked_risk(
    x,
    y,
    index,
    numeric,
    syn_x,
    syn_y,
    syn_index,
    syn_numeric,
    syn_set,
    sets: int,
    spatial_tolerance: float,
    attribute_tolerance: float | None,
    progress: Progress = None,
) -> MarkedRisk:
    """Type S (eq. 8) and Type A (eq. 9) risk of every confidential record in every synthetic set.

    See the module docstring for the definitions, the closed tolerances and the zero denominators.

    Args:
        x, y: the N confidential locations (projected coordinates).
        index: ``(N,)`` combination index of each confidential record (core.marked.combinations).
        numeric: ``(N,)`` numeric mark, or ``None``.
        syn_x, syn_y, syn_index, syn_numeric: the same for the synthetic records of all sets (``syn_index`` from
            ``combinations.encode``: -1, a combination no confidential record has, is refused).
        syn_set: ``(M,)`` the set of each synthetic record, 1..``sets``; every set must have a record.
        sets: L.
        spatial_tolerance: eps_s > 0, in coordinate units.
        attribute_tolerance: eps_a >= 0 in the numeric mark's units; required with a numeric mark, else ``None``.
        progress: optional ``progress(fraction, message)``; may raise to cancel.

    Raises:
        ParameterError: naming ``points``, ``synthetic``, ``index``, ``syn_index``, ``numeric``, ``syn_numeric``,
            ``syn_set``, ``sets``, ``spatial_tolerance`` or ``attribute_tolerance``.
    """
    from scipy.spatial import cKDTree

    (x, y, index, numeric, syn_x, syn_y, syn_index, syn_numeric, syn_set, eps_s, eps_a) = _check(
        x,
        y,
        index,
        numeric,
        syn_x,
        syn_y,
        syn_index,
        syn_numeric,
        syn_set,
        sets,
        spatial_tolerance,
        attribute_tolerance,
    )
    n, n_comb = x.size, int(max(index.max(initial=-1), syn_index.max(initial=-1)) + 1)
    type_s = np.full((n, sets), np.nan)
    type_a = np.full((n, sets), np.nan)
    close = np.zeros((n, sets), dtype=np.int64)
    similar = np.zeros((n, sets), dtype=np.int64)
    by_comb = [np.flatnonzero(index == k) for k in range(n_comb)]
    for l in range(sets):  # noqa: E741 (the paper's l)
        report(progress, l / sets, f"Risks against synthetic set {l + 1} of {sets}")
        members = np.flatnonzero(syn_set == l + 1)
        sx, sy, sk = syn_x[members], syn_y[members], syn_index[members]
        sv = None if syn_numeric is None else syn_numeric[members]
        both = np.zeros(n, dtype=np.int64)
        tree = cKDTree(np.column_stack([sx, sy]))
        for i, j in _close_pairs(tree, x, y, sx, sy, eps_s):
            close[:, l] += np.bincount(i, minlength=n)
            same = sk[j] == index[i]
            if sv is not None:
                same &= (sv[j] >= numeric[i] - eps_a) & (sv[j] <= numeric[i] + eps_a)
            both += np.bincount(i[same], minlength=n)
        # D_A: synthetic records of the same combination (and numeric mark within eps_a)
        syn_by_comb = np.bincount(sk, minlength=n_comb)
        for k, rows in enumerate(by_comb):
            if rows.size == 0:
                continue
            if sv is None:
                similar[rows, l] = syn_by_comb[k]
            else:
                values = np.sort(sv[sk == k])
                y_k = numeric[rows]
                similar[rows, l] = np.searchsorted(values, y_k + eps_a, side="right") - np.searchsorted(
                    values, y_k - eps_a, side="left"
                )
        with np.errstate(divide="ignore", invalid="ignore"):
            type_s[:, l] = np.where(close[:, l] > 0, both / close[:, l], np.nan)
            type_a[:, l] = np.where(similar[:, l] > 0, both / similar[:, l], np.nan)
    report(progress, 1.0, "Risks done")
    return MarkedRisk(type_s, type_a, close, similar, eps_s, eps_a)
