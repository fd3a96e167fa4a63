"""What the privacy-budget ledger adds up, and what it refuses to add: neighbourhoods, guarantees, releases,
and their totals under basic sequential composition.

Basic sequential composition (Dwork & Roth 2014, "The Algorithmic Foundations of Differential Privacy",
Theorem 3.16, which holds for adaptively chosen mechanisms too): releases that are (epsilon_i, delta_i)-private
under one neighbourhood relation are together (sum epsilon_i, sum delta_i)-private under that relation. The proof
uses nothing about the relation, so it holds for each of the relations below; it says nothing about two
*different* relations, so guarantees are only added after each is turned into a guarantee under one relation
by a proven rule:

* **alpha-neighbourhood** (Kim & Lim: one point moved by at most alpha, the number of points fixed): a
  guarantee for alpha_1 holds for every alpha <= alpha_1 (those neighbours are alpha_1-neighbours too), so
  releases with alpha_1 and alpha_2 add up under min(alpha_1, alpha_2). For a larger alpha, a release made for
  a smaller one gives no bound here (chaining moves would need every intermediate position inside the window,
  and multiplies delta), so it is listed as not covered. Alphas compare only in the same units (CRS).
* **one point moved any distance** (alpha = infinity; the Laplace method's guarantee for every alpha): holds
  for every alpha-neighbourhood.
* **one point added or removed**: epsilon-DP under it gives (2 epsilon, (1 + e^epsilon) delta) when one point
  is moved any distance (remove it, then add it elsewhere: group privacy for two steps, Dwork & Roth 2014,
  Theorem 2.2 for epsilon; chaining the two (epsilon, delta) bounds gives the delta term), hence for every
  alpha. Nothing converts the other way: a moved point keeps n, an added one does not.
* **alpha-neighbourhood along a network** (``alpha-network``, the network LGCP: one point's location on the
  network moved by at most alpha along the network): a guarantee for alpha_1 holds for every alpha <= alpha_1 in
  the same units, as for the planar alpha; one point moved any distance holds for it (a move along the network is
  a move); one point added or removed gives (2 epsilon, (1 + e^epsilon) delta) for it, as above. Planar alpha and
  alpha along the network are not connected either way: the points are first snapped to the network, so a planar
  move by alpha can become a network move of any length (to another street), and a network move by alpha is a
  planar move of up to alpha between snapped positions, not between the data set's own coordinates.
* **one event moved between two groups, total fixed** (the synthetic counts, Quick 2021): adds up with itself.
* **Pufferfish interval secrets** (the grid, ter Steege 2021): Pufferfish guarantees do not compose in general
  (Kifer & Machanavajjhala 2014, "Pufferfish: A framework for mathematical privacy definitions"), but the grid's
  bound holds for every pair of values from the two intervals with every other value fixed (a Laplace mechanism
  whose scale covers the largest change of a cell mean, proof of Theorem 3.1); such pointwise bounds add up, and
  averaging over priors with independent values then gives the Pufferfish guarantee of the sum. Half-width c_1
  covers every c <= c_1 (values less than 4c apart); relative secrets with factor k_1 cover every k >= k_1. The
  attribute (``units``) must be the same: secrets about two attributes are different secrets.
* anything else: only identical neighbourhoods (same code, parameter and units) add up.

Different relations that no rule connects (moving a point versus changing its value, say) are reported
separately, and the totals say so. A seeded release is not private (anyone with the seed recomputes the noise),
so it counts as epsilon = infinity under every neighbourhood of its data set: the budget is spent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Optional

from .errors import ParameterError

ALPHA = "alpha"
#: One point's location on a network moved by at most alpha along the network (the network LGCP's neighbourhood).
ALPHA_NETWORK = "alpha-network"
MOVE = "move"
ADD_REMOVE = "add-remove"
COUNTS_MOVE = "counts-move"
PUFFERFISH_ABSOLUTE = "pufferfish-absolute"
PUFFERFISH_RELATIVE = "pufferfish-relative"
#: Totals within this relative slack of a budget do not exceed it (the rounding of decimal epsilons summed).
BUDGET_SLACK = 1e-12


def _number(value, parameter: str, rule: str, upper: float = math.inf) -> float:
    """``value`` as a float in [0, ``upper``], finite; else :class:`ParameterError` stating ``rule``."""
    try:
        number = float(value) if not isinstance(value, (bool, str, bytes)) else math.nan
    except (TypeError, ValueError):
        number = math.nan
    if not (math.isfinite(number) and 0 <= number <= upper):
        raise ParameterError(parameter, f"{rule}, got {value!r}")
    return number


@dataclass(frozen=True)
class Neighbourhood:
    """Which data sets a guarantee calls neighbours.

    Attributes:
        code: :data:`ALPHA`, :data:`ALPHA_NETWORK`, :data:`MOVE`, :data:`ADD_REMOVE`, :data:`COUNTS_MOVE`,
            :data:`PUFFERFISH_ABSOLUTE`, :data:`PUFFERFISH_RELATIVE`, or another short code (which then adds up only
            with itself).
        parameter: alpha (CRS units), c (value units) or k; ``None`` for the codes without one.
        units: what the parameter is measured in (the CRS, e.g. ``"EPSG:28992"``; for the grid, the value field),
            compared as text.
        text: the neighbourhood in words (not compared).
    """

    code: str
    parameter: Optional[float] = None
    units: str = ""
    text: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.code, str) and self.code.strip()):
            raise ParameterError("neighbourhood", f"a neighbourhood needs a code, got {self.code!r}")
        p = self.parameter
        if p is not None:
            if isinstance(p, bool) or not (isinstance(p, (int, float)) and math.isfinite(p)):
                raise ParameterError("neighbourhood", f"the parameter must be a finite number, got {p!r}")
            p = float(p)
            object.__setattr__(self, "parameter", p)
        if self.code in (ALPHA, ALPHA_NETWORK, PUFFERFISH_ABSOLUTE) and not (p is not None and p > 0):
            raise ParameterError("neighbourhood", f"{self.code} needs a parameter > 0, got {p!r}")
        if self.code == PUFFERFISH_RELATIVE and not (p is not None and 0 < p < 1):
            raise ParameterError("neighbourhood", f"{self.code} needs a factor k in (0, 1), got {p!r}")
        if self.code in (MOVE, ADD_REMOVE, COUNTS_MOVE) and p is not None:
            raise ParameterError("neighbourhood", f"{self.code} takes no parameter, got {p!r}")
        if not isinstance(self.units, str) or not isinstance(self.text, str):
            raise ParameterError("neighbourhood", "units and text must be text")

    @property
    def key(self) -> tuple:
        """What identifies the relation: code, parameter and units (not the text)."""
        return (self.code, self.parameter, self.units)

    def describe(self) -> str:
        return self.text or (
            f"{self.code}" + ("" if self.parameter is None else f" = {self.parameter:g}") + f" {self.units}".rstrip()
        )


def alpha_neighbourhood(alpha: float, units: str = "") -> Neighbourhood:
    """Kim & Lim's alpha-neighbourhood: one point moved by at most ``alpha`` (in ``units``), n fixed."""
    unit_text = f" ({units} units)" if units else " (CRS units)"
    return Neighbourhood(
        ALPHA, float(alpha), units, f"alpha-neighbourhood: one point moved by at most alpha = {alpha:g}{unit_text}"
    )


def move_neighbourhood() -> Neighbourhood:
    """One point moved any distance, n fixed (every alpha at once)."""
    return Neighbourhood(MOVE, None, "", "one point moved any distance (every alpha), the number of points fixed")


def add_remove_neighbourhood() -> Neighbourhood:
    """One point added or removed."""
    return Neighbourhood(ADD_REMOVE, None, "", "add/remove one point")


def counts_move_neighbourhood() -> Neighbourhood:
    """Quick's neighbourhood of tables of counts: one event moved between two groups, the total fixed."""
    return Neighbourhood(COUNTS_MOVE, None, "", "one event moved between two groups, total fixed")


def pufferfish_absolute_neighbourhood(c: float, attribute: str = "") -> Neighbourhood:
    """ter Steege's absolute secrets: which of [x-c, x+c) and [x+c, x+3c) holds one person's ``attribute``."""
    return Neighbourhood(
        PUFFERFISH_ABSOLUTE,
        float(c),
        attribute,
        f"Pufferfish: one value's interval secret, half-width c = {c:g}" + (f" ({attribute})" if attribute else ""),
    )


def pufferfish_relative_neighbourhood(k: float, attribute: str = "") -> Neighbourhood:
    """ter Steege's relative secrets: which of [ky, y/k) and [y/k, y/k^3) holds one person's ``attribute``."""
    return Neighbourhood(
        PUFFERFISH_RELATIVE,
        float(k),
        attribute,
        f"Pufferfish: one value's relative interval secret, factor k = {k:g}"
        + (f" ({attribute})" if attribute else ""),
    )


@dataclass(frozen=True)
class Guarantee:
    """(epsilon, delta) under one neighbourhood. ``proven=False`` marks a nominal guarantee (the LGCP method's,
    whose theorem the tool's approximate posterior draw does not meet); it is added up all the same, and the
    totals say which releases were nominal."""

    neighbourhood: Neighbourhood
    epsilon: float
    delta: float = 0.0
    proven: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", _number(self.epsilon, "epsilon", "epsilon must be a finite number >= 0"))
        object.__setattr__(self, "delta", _number(self.delta, "delta", "delta must be a number in [0, 1]", 1.0))
        if not isinstance(self.neighbourhood, Neighbourhood):
            raise ParameterError("neighbourhood", "a guarantee needs a Neighbourhood")
        object.__setattr__(self, "proven", bool(self.proven))


def implied(guarantee: Guarantee, wanted: Neighbourhood) -> Optional[tuple[float, float]]:
    """The (epsilon, delta) that ``guarantee`` proves under ``wanted``, by the rules of the module docstring, or
    ``None`` if it proves nothing there."""
    given, eps, delta = guarantee.neighbourhood, guarantee.epsilon, guarantee.delta
    if given.key == wanted.key:
        return eps, delta
    if wanted.code in (ALPHA, ALPHA_NETWORK):  # planar and network alphas are never mixed (module docstring)
        if given.code == MOVE or (
            given.code == wanted.code and given.units == wanted.units and given.parameter >= wanted.parameter
        ):
            return eps, delta
    if wanted.code in (ALPHA, ALPHA_NETWORK, MOVE) and given.code == ADD_REMOVE:
        return 2 * eps, min(1.0, (1 + math.exp(min(eps, 700.0))) * delta)
    if given.code == wanted.code and given.units == wanted.units:
        if given.code == PUFFERFISH_ABSOLUTE and wanted.parameter <= given.parameter:
            return eps, delta
        if given.code == PUFFERFISH_RELATIVE and wanted.parameter >= given.parameter:
            return eps, delta
    return None


@dataclass(frozen=True)
class Release:
    """One release of a confidential data set, as the ledger records it.

    Attributes:
        algorithm: the Processing algorithm's id (e.g. ``"spatialprivacy:dppoints"``).
        mechanism: which mechanism of the algorithm (e.g. ``"kernel"``).
        dataset: the data set's fingerprint (:mod:`.ledger_fingerprint`).
        guarantees: what the release guarantees, one entry per neighbourhood it states a guarantee for (the Laplace
            method states two: one point moved, and one added or removed).
        outputs: the paths of the files written.
        seeded: the noise came from a user's seed: NOT a private release (counted as epsilon = infinity).
        note: free text.
        dataset_label: a name for people (the layer's name); not used to match data sets.
        time: UTC, ISO 8601; the ledger sets it when it records the release.
        number: the release's line in the ledger (0 until recorded).
    """

    algorithm: str
    mechanism: str
    dataset: str
    guarantees: tuple[Guarantee, ...]
    outputs: tuple[str, ...] = ()
    seeded: bool = False
    note: str = ""
    dataset_label: str = ""
    time: str = ""
    number: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "guarantees", tuple(self.guarantees))
        object.__setattr__(self, "outputs", tuple(str(p) for p in self.outputs))
        if not self.guarantees:
            raise ParameterError("guarantees", "a release needs at least one guarantee")
        if not all(isinstance(g, Guarantee) for g in self.guarantees):
            raise ParameterError("guarantees", "every guarantee must be a Guarantee")
        if not (isinstance(self.dataset, str) and self.dataset):
            raise ParameterError("dataset", "a release needs the fingerprint of its data set")
        for name in ("algorithm", "mechanism", "note", "dataset_label", "time"):
            if not isinstance(getattr(self, name), str):
                raise ParameterError(name, f"{name} must be text, got {getattr(self, name)!r}")
        object.__setattr__(self, "seeded", bool(self.seeded))

    def implied(self, wanted: Neighbourhood) -> Optional[tuple[float, float]]:
        """What this release costs under ``wanted``: infinity if seeded, else the smallest (epsilon, then delta)
        any of its guarantees implies there, or ``None``."""
        if self.seeded:
            return math.inf, max((g.delta for g in self.guarantees), default=0.0)
        found = [c for c in (implied(g, wanted) for g in self.guarantees) if c is not None]
        return min(found) if found else None

    def proven_under(self, wanted: Neighbourhood) -> bool:
        """Whether the guarantee behind :meth:`implied` is a proven one."""
        candidates = [(implied(g, wanted), not g.proven) for g in self.guarantees]
        found = [c for c in candidates if c[0] is not None]
        return bool(found) and not min(found)[1]


@dataclass(frozen=True)
class Budget:
    """The steward's budget for one data set; ``epsilon=None`` clears it."""

    dataset: str
    epsilon: Optional[float]
    delta: float = 0.0
    note: str = ""
    time: str = ""
    number: int = 0

    def __post_init__(self) -> None:
        if self.epsilon is not None:
            epsilon = _number(self.epsilon, "epsilon", "the budget's epsilon must be a finite number >= 0")
            object.__setattr__(self, "epsilon", epsilon)
        object.__setattr__(self, "delta", _number(self.delta, "delta", "the budget's delta must be in [0, 1]", 1.0))
        if not (isinstance(self.dataset, str) and self.dataset):
            raise ParameterError("dataset", "a budget needs the fingerprint of its data set")

    def exceeded_by(self, epsilon: float, delta: float) -> bool:
        if self.epsilon is None:
            return False
        return epsilon > self.epsilon * (1 + BUDGET_SLACK) or delta > self.delta * (1 + BUDGET_SLACK)


@dataclass(frozen=True)
class Total:
    """Releases of one data set added up under one neighbourhood.

    Attributes:
        neighbourhood: the relation.
        epsilon, delta: the sums (epsilon is infinity when a seeded release is among them).
        counted: numbers of the releases added up (0 for a release not yet recorded).
        not_covered: releases that prove nothing under this neighbourhood (left out of the sums).
        seeded: counted releases that were seeded.
        nominal: counted releases whose guarantee here is nominal, not proven.
        exceeds: the sums exceed the data set's budget.
    """

    neighbourhood: Neighbourhood
    epsilon: float
    delta: float
    counted: tuple[int, ...]
    not_covered: tuple[int, ...]
    seeded: tuple[int, ...]
    nominal: tuple[int, ...]
    exceeds: bool

    def summary(self) -> str:
        """The sums and what they leave out, in words (without the neighbourhood)."""
        text = f"epsilon = {self.epsilon:g}, delta = {self.delta:g} over {len(self.counted)} release(s)"
        if self.seeded:
            text += f"; {len(self.seeded)} seeded (not private: counted as epsilon = infinity)"
        if self.nominal:
            text += f"; {len(self.nominal)} with a nominal guarantee"
        if self.not_covered:
            text += (
                f"; {len(self.not_covered)} release(s) give no guarantee under this neighbourhood and are not counted"
            )
        return text + (" - EXCEEDS THE BUDGET" if self.exceeds else "")

    def describe(self) -> str:
        return f"{self.neighbourhood.describe()}: {self.summary()}"


def neighbourhoods_of(releases: Sequence[Release]) -> list[Neighbourhood]:
    """The distinct neighbourhoods the releases state guarantees for, in order of first appearance."""
    seen: dict[tuple, Neighbourhood] = {}
    for release in releases:
        for g in release.guarantees:
            seen.setdefault(g.neighbourhood.key, g.neighbourhood)
    return list(seen.values())


def total(releases: Sequence[Release], wanted: Neighbourhood, budget: Optional[Budget] = None) -> Total:
    """The releases added up under ``wanted`` (basic sequential composition)."""
    epsilons, deltas, counted, not_covered, seeded, nominal = [], [], [], [], [], []
    for release in releases:
        cost = release.implied(wanted)
        if cost is None:
            not_covered.append(release.number)
            continue
        epsilons.append(cost[0])
        deltas.append(cost[1])
        counted.append(release.number)
        if release.seeded:
            seeded.append(release.number)
        elif not release.proven_under(wanted):
            nominal.append(release.number)
    eps = math.inf if any(math.isinf(e) for e in epsilons) else math.fsum(epsilons)
    delta = math.fsum(deltas)
    return Total(
        wanted,
        eps,
        delta,
        tuple(counted),
        tuple(not_covered),
        tuple(seeded),
        tuple(nominal),
        budget is not None and budget.exceeded_by(eps, delta),
    )


@dataclass(frozen=True)
class DatasetTotals:
    """Every total of one data set: one per neighbourhood its releases state, each against its budget."""

    dataset: str
    budget: Optional[Budget]
    totals: tuple[Total, ...]
    releases: int

    @property
    def exceeds(self) -> bool:
        return any(t.exceeds for t in self.totals)

    def describe(self) -> str:
        lines = [f"Data set {self.dataset[:16]}: {self.releases} release(s)"]
        if self.budget is not None and self.budget.epsilon is not None:
            lines.append(f"budget: epsilon = {self.budget.epsilon:g}, delta = {self.budget.delta:g} per neighbourhood")
        lines += [t.describe() for t in self.totals]
        if len(self.totals) > 1:
            lines.append(
                "Totals under different neighbourhoods are not added to each other: a release counts under another "
                "neighbourhood only where a proven rule carries its guarantee there."
            )
        return "\n".join(lines)


def compose(dataset: str, releases: Sequence[Release], budget: Optional[Budget] = None) -> DatasetTotals:
    """The totals of the releases of ``dataset`` (releases of other data sets are ignored)."""
    mine = [r for r in releases if r.dataset == dataset]
    return DatasetTotals(dataset, budget, tuple(total(mine, n, budget) for n in neighbourhoods_of(mine)), len(mine))


@dataclass(frozen=True)
class Check:
    """What a release would add to its data set's totals.

    Attributes:
        release: the release checked.
        before, after: the data set's totals without and with it.
        adds: per neighbourhood of ``after``, what the release adds there (``None``: it proves nothing there and
            is not counted).
        exceeds: a total with the release exceeds the budget (warn or refuse: the caller's choice).
    """

    release: Release
    before: DatasetTotals
    after: DatasetTotals
    adds: tuple[tuple[Neighbourhood, Optional[tuple[float, float]]], ...]

    @property
    def exceeds(self) -> bool:
        return self.after.exceeds

    @property
    def budget(self) -> Optional[Budget]:
        return self.after.budget

    def describe(self) -> str:
        lines = []
        for (neighbourhood, cost), after in zip(self.adds, self.after.totals):
            adds = "nothing (no guarantee there)" if cost is None else f"epsilon {cost[0]:g}, delta {cost[1]:g}"
            lines.append(f"Under {neighbourhood.describe()}: this release adds {adds}; total {after.summary()}")
        if self.release.seeded:
            lines.append("The release is seeded: NOT a private release; it spends the whole budget.")
        if self.exceeds:
            lines.append("The total would exceed the budget set for this data set.")
        return "\n".join(lines)


def check(release: Release, earlier: Sequence[Release], budget: Optional[Budget] = None) -> Check:
    """What ``release`` adds to the totals of the ``earlier`` releases of its data set."""
    before = compose(release.dataset, earlier, budget)
    after = compose(release.dataset, [*earlier, release], budget)
    adds = tuple((t.neighbourhood, release.implied(t.neighbourhood)) for t in after.totals)
    return Check(release, before, after, adds)
