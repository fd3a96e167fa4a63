"""The combinations of categorical marks of Quick, Holan, Wikle & Reiter (Section 2.1) and their
Dirichlet-multinomial (eq. 1; Section 3).

The K combinations are those observed in the confidential data (the cross-classification of the chosen category
fields, sorted by their level tuples): a combination no record has is never synthesised. Publishing the synthetic
data therefore publishes this set exactly, and a combination of one record reveals that such a record exists
(the processing algorithm's help and report say so).

``n | N, theta ~ Mult(N, theta)`` (eq. 1) with the prior ``theta ~ Dir(alpha)``, ``alpha_k = 1/K`` (the paper's
non-informative choice, Section 2.4), so ``theta | n ~ Dir(n + 1/K)``; synthetic set l draws ``theta^(l)`` from it
and ``n^dagger(l) ~ Mult(N, theta^(l))`` (Section 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import mechanisms
from ..errors import ParameterError

#: Most distinct values a category field may have: more is a numeric or identifier field chosen by mistake.
MAX_LEVELS = 50
#: Most combinations: the paper's multinomial needs a few records per combination (it suggests log-linear
#: constraints or mixtures of multinomials for large K, which are not implemented).
MAX_COMBINATIONS = 200


@dataclass(frozen=True)
class Combinations:
    """The observed combinations of the category fields: ``levels[k]`` is the tuple of values (one per field, in
    ``fields``' order) of combination k, ``counts[k]`` its number of confidential records n_k."""

    fields: tuple[str, ...]
    levels: tuple[tuple, ...]
    counts: np.ndarray

    @property
    def k(self) -> int:
        return len(self.levels)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def label(self, k: int) -> str:
        """``"fined=1"``, ``"sex=F, race=B"``."""
        return ", ".join(f"{field}={_text(value)}" for field, value in zip(self.fields, self.levels[k]))

    @property
    def alpha(self) -> np.ndarray:
        """The Dirichlet prior's parameters, ``1/K`` each (Section 2.4)."""
        return np.full(self.k, 1.0 / self.k)

    def posterior_alpha(self) -> np.ndarray:
        """``n + alpha``: the parameters of the posterior ``theta | n`` (Dirichlet, conjugate to eq. 1)."""
        return self.counts.astype(np.float64) + self.alpha

    def draw_counts(self, rng: np.random.Generator, total: int | None = None) -> np.ndarray:
        """One synthetic set's counts: ``theta ~ Dir(n + 1/K)``, ``n^dagger ~ Mult(N, theta)`` (Section 3).

        Returns:
            int64 ``(K,)`` summing to ``total`` (default N).
        """
        theta = mechanisms.dirichlet(rng, self.posterior_alpha())
        return mechanisms.multinomial(rng, self.n if total is None else int(total), theta)

    def share_interval(self, k: int, sets: int = 1, z: float = 3.0) -> tuple[float, float]:
        """``mean -/+ z sd`` of the share of combination k pooled over ``sets`` synthetic sets of N records: under
        the Dirichlet-multinomial, a set's share ``n^dagger_k / N`` has mean ``a_k / A`` and variance
        ``p (1 - p) (N + A) / (N (A + 1))`` with ``a = n + 1/K``, ``A = N + 1``, ``p = a_k / A``; the sets are
        independent draws, so the mean of ``sets`` shares has that variance divided by ``sets``."""
        a = self.posterior_alpha()
        big_a = float(a.sum())
        p = a[k] / big_a
        var = p * (1 - p) * (self.n + big_a) / (self.n * (big_a + 1)) / max(int(sets), 1)
        sd = float(np.sqrt(var))
        return p - z * sd, p + z * sd


def _text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _is_null(value) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and np.isnan(value):
        return True
    # QGIS's NULL is a QVariant that compares equal to None and is falsy with isNull(); the processing layer
    # converts it to None before calling, but test a duck-typed isNull() too
    is_null = getattr(value, "isNull", None)
    return bool(is_null()) if callable(is_null) else False


def _key(value):
    """A sort key that orders numbers numerically and puts them before text."""
    if isinstance(value, (bool, np.bool_)):
        return (0, float(value), "")
    if isinstance(value, (int, float, np.integer, np.floating)):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def combinations(columns: Sequence[Sequence], fields: Sequence[str]) -> tuple[Combinations, np.ndarray]:
    """The observed combinations of the category ``columns`` (one sequence of values per field, all of length N)
    and the combination index of each record.

    Raises:
        ParameterError("category_fields"): no field, a field named twice, columns of different lengths, a NULL
            value (naming the field and how many), a field with a single value, a field with more than
            :data:`MAX_LEVELS` distinct values (e.g. a numeric field chosen as a category), more than
            :data:`MAX_COMBINATIONS` combinations.
    """
    fields = tuple(str(f) for f in fields)
    if not fields:
        raise ParameterError("category_fields", "give at least one category field")
    if len(set(fields)) != len(fields):
        raise ParameterError("category_fields", f"a field is named twice: {', '.join(fields)}")
    if len(columns) != len(fields):
        raise ParameterError("category_fields", f"{len(fields)} fields but {len(columns)} columns of values")
    n = len(columns[0]) if columns else 0
    if n == 0:
        raise ParameterError("category_fields", "there are no records")
    codes = []
    for field, column in zip(fields, columns):
        column = list(column)
        if len(column) != n:
            raise ParameterError("category_fields", f"field '{field}' has {len(column)} values, not {n}")
        nulls = sum(1 for v in column if _is_null(v))
        if nulls:
            raise ParameterError(
                "category_fields",
                f"field '{field}' is NULL in {nulls} records: a category must be known for every record; fill them "
                "in, or select only the other records",
            )
        values = sorted(set(column), key=_key)
        if len(values) < 2:
            raise ParameterError(
                "category_fields",
                f"field '{field}' has a single value ({_text(values[0])}) in every record: it splits nothing; leave "
                "it out",
            )
        if len(values) > MAX_LEVELS:
            raise ParameterError(
                "category_fields",
                f"field '{field}' has {len(values):,} distinct values (at most {MAX_LEVELS} are allowed for a "
                "category): is it a numeric or identifier field? Give it as the numeric field, or group its values "
                "into classes first",
            )
        lookup = {v: i for i, v in enumerate(values)}
        codes.append((values, np.fromiter((lookup[v] for v in column), dtype=np.int64, count=n)))
    radix = np.ones(len(codes), dtype=np.int64)
    for j in range(len(codes) - 2, -1, -1):
        radix[j] = radix[j + 1] * len(codes[j + 1][0])
    flat = sum(r * c for r, (_, c) in zip(radix, codes))
    observed, index, counts = np.unique(flat, return_inverse=True, return_counts=True)
    if observed.size > MAX_COMBINATIONS:
        raise ParameterError(
            "category_fields",
            f"the fields {', '.join(fields)} give {observed.size:,} observed combinations (at most "
            f"{MAX_COMBINATIONS}): the model needs several records per combination; use fewer fields or coarser "
            "classes",
        )
    levels = []
    for code in observed:
        rest, combo = int(code), []
        for r, (values, _) in zip(radix, codes):
            combo.append(values[rest // int(r)])
            rest %= int(r)
        levels.append(tuple(combo))
    return Combinations(fields, tuple(levels), counts.astype(np.int64)), index.astype(np.int64).ravel()


def encode(columns: Sequence[Sequence], comb: Combinations) -> np.ndarray:
    """The combination index in ``comb`` of other records (e.g. a synthetic layer), one column per field of
    ``comb.fields``; ``-1`` for a record whose combination is not in ``comb`` (or has a NULL)."""
    if len(columns) != len(comb.fields):
        raise ParameterError("category_fields", f"{len(comb.fields)} fields but {len(columns)} columns of values")
    lookup = {levels: k for k, levels in enumerate(comb.levels)}
    lookup.update({tuple(_norm(v) for v in levels): k for k, levels in enumerate(comb.levels)})
    rows = zip(*[list(c) for c in columns])
    return np.fromiter((lookup.get(tuple(_norm(v) for v in row), -1) for row in rows), dtype=np.int64)


def _norm(value):
    """Values compared across layers: 1, 1.0 and True are the same level (QGIS reads a boolean or integer field
    alike as int in one layer and as bool in another)."""
    if _is_null(value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return str(value)
