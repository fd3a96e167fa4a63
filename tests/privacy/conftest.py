"""The privacy audit: each differentially private (or Pufferfish-private) mechanism of the plugin, run on
worst-case neighbouring data sets as its guarantee defines them, with the privacy loss measured against the
epsilon (and delta) the mechanism states.

What is audited, and how:

* Pufferfish grid maps (ter Steege 2021; core.pufferfish): the EXACT pmf of the published cell value (mean or
  total, clamped or not, absolute or relative error), by running the real code on every value of the integer
  noise (test_pufferfish_audit.py).
* DP synthetic counts (Quick 2021; core.counts*): the EXACT pmf of the mechanism by enumeration, built
  independently from the negative binomial predictive distributions, and the exact pmf of the implemented
  sampler for two groups, by bisection on its uniforms (test_counts_audit.py).
* Kim & Lim's Laplace Cox synthesizer (Theorem 3.10; core.synthesis.laplace_cox): the exact log-density ratio of
  the released noisy cell intensities, and a stochastic audit through the real synthesizer
  (test_laplace_cox_audit.py).
* Kim & Lim's kernel synthesizer (Theorem 3.6) and LGCP synthesizer (Theorem 3.8, a nominal guarantee):
  stochastic audits through the real synthesizers (test_kernel_audit.py, test_lgcp_audit.py).
* Kim & Lim's synthesizers on a linear network (core.synthesis.network_laplace, network_lgcp): the exact log-density
  ratio of the Laplace synthesizer's released piece intensities on spatstat's chicago, with the means and the noise
  scale read from the real synthesizer, and its noisy total's exact pmf; a stochastic audit of the network LGCP
  synthesizer (test_network_audit.py).

Not audited: Walder et al.'s synthesis methods (core.synthesis.walder: model-based LGCP synthesis, additive
noise, radial and candidate-based perturbation). They state no differential privacy guarantee, only risk and
utility measures, so there is no epsilon to hold them to.

Every stochastic audit has a stated false-alarm rate: :func:`epsilon_lower_bounds` turns event frequencies into a
lower confidence bound on the privacy loss that exceeds the stated epsilon with probability at most
:data:`FALSE_ALARM` when the mechanism keeps its guarantee; each one also runs a variant with too little noise
and asserts that the audit catches it, so that a passing audit is not a powerless one. Seeds are fixed, so every
run gives the same figures.

A table of the measured privacy losses against the stated epsilons is printed at the end of the run.
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

#: False-alarm rate of each stochastic audit: the probability, for a mechanism that keeps its stated guarantee,
#: that :func:`epsilon_lower_bounds` reports a privacy loss above the stated epsilon.
FALSE_ALARM = 1e-3

_LOSSES: list[tuple[str, str, float, float, str]] = []


def clopper_pearson(hits: np.ndarray, trials: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Clopper-Pearson bounds ``(lower, upper)`` on binomial probabilities from ``hits`` of ``trials``:
    ``P(p < lower) <= level`` and ``P(p > upper) <= level`` for every true ``p`` (exact, conservative)."""
    hits = np.asarray(hits, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        lower = np.where(hits > 0, stats.beta.ppf(level, hits, trials - hits + 1), 0.0)
        upper = np.where(hits < trials, stats.beta.ppf(1 - level, hits + 1, trials - hits), 1.0)
    return lower, upper


@dataclass(frozen=True)
class EventAudit:
    """The result of :func:`epsilon_lower_bounds`.

    Attributes:
        lower: per event, ``log((L - delta) / U)``, a lower confidence bound on the privacy loss (``-inf`` where
            ``L <= delta``).
        bound: the largest of them: with probability at least ``1 - false_alarm`` it is at most the true epsilon.
        estimate: the largest point estimate ``log((p_a - delta) / p_b)`` over the events that ``a`` hits at least
            ``min_hits`` times and ``b`` at least ``min_hits / 5`` times (``nan`` if there is none): the "empirical
            privacy loss" for the report.
    """

    lower: np.ndarray
    bound: float
    estimate: float


def epsilon_lower_bounds(
    hits_a, trials_a: int, hits_b, trials_b: int, delta: float = 0.0, false_alarm: float = FALSE_ALARM, min_hits=50
) -> EventAudit:
    """A lower confidence bound on a mechanism's privacy loss from how often its releases fall in fixed events.

    ``hits_a[e]`` of ``trials_a`` independent releases from data set ``a`` and ``hits_b[e]`` of ``trials_b`` from
    its neighbour ``b`` fell in event ``e`` (events fixed before the releases were drawn; swap ``a`` and ``b``, as
    separate events, to test both directions). An (epsilon, delta)-DP mechanism has
    ``p_a(e) <= e^epsilon p_b(e) + delta`` for every event.

    Derivation of the false-alarm rate. With ``K`` events, take the one-sided Clopper-Pearson bounds
    ``L_e <= p_a(e)`` and ``p_b(e) <= U_e`` at level ``false_alarm / (2K)`` each. By the union bound all 2K of
    them hold together with probability at least ``1 - false_alarm``, and then, for a mechanism that keeps its
    guarantee, ``L_e - delta <= p_a(e) - delta <= e^epsilon p_b(e) <= e^epsilon U_e`` for every ``e``, that is
    ``log((L_e - delta) / U_e) <= epsilon``. So ``bound = max_e log((L_e - delta) / U_e)`` exceeds the true
    epsilon with probability at most ``false_alarm``: asserting ``bound <= epsilon`` is a test of that level.
    """
    hits_a = np.asarray(hits_a, dtype=np.float64)
    hits_b = np.asarray(hits_b, dtype=np.float64)
    level = false_alarm / (2 * hits_a.size)
    lo_a, _ = clopper_pearson(hits_a, trials_a, level)
    _, hi_b = clopper_pearson(hits_b, trials_b, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.where(lo_a > delta, np.log((lo_a - delta) / hi_b), -np.inf)
        p_a, p_b = hits_a / trials_a, hits_b / trials_b
        enough = (hits_a >= min_hits) & (hits_b >= min_hits / 5) & (p_a > delta)
        point = np.where(enough, np.log((p_a - delta) / p_b), -np.inf)
    estimate = float(point.max()) if np.any(enough) else math.nan
    return EventAudit(lower, float(lower.max()), estimate)


@pytest.fixture
def audit_events():
    """:func:`epsilon_lower_bounds` (the stochastic audit's test statistic)."""
    return epsilon_lower_bounds


@pytest.fixture
def record_loss(request):
    """``record_loss(mechanism, measured, epsilon, how)``: add a line to the audit table printed after the run."""

    def record(mechanism: str, measured: float, epsilon: float, how: str) -> None:
        _LOSSES.append((request.node.name, mechanism, float(measured), float(epsilon), how))

    return record


def pytest_terminal_summary(terminalreporter):
    if not _LOSSES:
        return
    terminalreporter.section("privacy audit: measured privacy loss against the stated epsilon (or delta)")
    terminalreporter.write_line(f"{'mechanism and neighbours':<62} {'measured':>10} {'stated':>10}  how")
    for test, mechanism, measured, epsilon, how in _LOSSES:
        terminalreporter.write_line(f"{mechanism:<62} {measured:>10.5g} {epsilon:>10.5g}  {how}  [{test}]")


class PlannedGeometric:
    """A stand-in for ``numpy.random.Generator`` whose ``geometric`` returns planned draws, so that the real code
    computes its release for every value of its integer noise ``Z = first - second`` (the two geometric draws of
    :func:`spatial_privacy.core.mechanisms.grid_laplace`). Every other method is the wrapped generator's.

    ``plan``: the values of ``Z``, one per entry of the draw (a 1-D array), or a list of such arrays, one per pair
    of ``geometric`` calls. ``first = 1 + max(Z, 0)``, ``second = 1 - min(Z, 0)``. Records each success
    probability ``p`` it was asked for in ``self.p``: the audit computes the pmf of ``Z`` from the ``p`` the code
    really used, ``P(Z = z) = p (1 - p)^|z| / (2 - p)`` for two independent geometric draws on ``{1, 2, ...}``.
    """

    def __init__(self, plan, rng: np.random.Generator | None = None):
        self._plans = [np.asarray(plan, dtype=np.int64)] if not isinstance(plan, list) else list(plan)
        self._rng = rng
        self._calls = 0
        self.p: list[float] = []

    def geometric(self, p, size=None):
        self.p.append(float(p))
        z = self._plans[(self._calls // 2) % len(self._plans)]
        first = self._calls % 2 == 0
        self._calls += 1
        out = 1 + np.maximum(z, 0) if first else 1 - np.minimum(z, 0)
        assert size is None or tuple(np.atleast_1d(size)) == out.shape, (size, out.shape)
        return out.copy()

    def __getattr__(self, name):
        if self._rng is None:
            raise AttributeError(name)
        return getattr(self._rng, name)

    @staticmethod
    def log_pmf(z, p: float) -> np.ndarray:
        """``log P(Z = z)`` for ``Z`` the difference of two independent geometric draws on ``{1, 2, ...}`` with
        success probability ``p``: ``P(Z = z) = sum_g p (1-p)^(g+|z|-1) p (1-p)^(g-1) = p (1 - p)^|z| / (2 - p)``."""
        return math.log(p) - math.log(2.0 - p) + np.abs(np.asarray(z, dtype=np.float64)) * math.log1p(-p)

    @staticmethod
    def log_tail(m: int, p: float) -> float:
        """``log P(Z <= -m) = log P(Z >= m) = log((1 - p)^m / (2 - p))`` for ``m >= 0`` (summing the pmf)."""
        return m * math.log1p(-p) - math.log(2.0 - p)

    @classmethod
    def release_log_pmf(cls, release, zs: np.ndarray, rng: np.random.Generator) -> dict[float, float]:
        """The exact log pmf of a scalar release whose only geometric noise is one pair of draws (one integer noise
        ``Z``): ``release(generator)`` is run with every value of ``zs`` (consecutive integers) planned, the mass
        ``P(Z < zs[0])`` goes to the first value, and the masses of equal released values are summed. The release
        must be nondecreasing in ``Z`` and clamped at ``zs[0]`` (its first two values equal: checked), so that the
        lumped lower tail has the first value; beyond ``zs[-1]`` the pmf is the caller's to reason about.
        ``rng`` serves every other draw of the release. Returns ``{value: log probability}``."""
        values, ps = [], set()
        for z in zs:
            planned = cls(np.array([z]), rng)
            values.append(release(planned))
            ps.update(planned.p)
        (prob,) = ps
        values = np.array(values, dtype=np.float64)
        assert np.all(np.diff(values) >= 0) and values[0] == values[1]
        lp = cls.log_pmf(zs, prob)
        lp[0] = np.logaddexp(lp[0], cls.log_tail(int(-zs[0]) + 1, prob))
        unique, first = np.unique(values, return_index=True)
        return dict(zip(unique.tolist(), np.logaddexp.reduceat(lp, first)))


@pytest.fixture
def planned_geometric():
    """:class:`PlannedGeometric` (the class: call it with a plan)."""
    return PlannedGeometric


class ClampedLaplace:
    """The exact density of Kim & Lim's noisy cell intensity ``gamma = max(0, mu + L)``, ``L`` Laplace of scale
    ``b`` and ``mu >= 0``, written out from the definition (not from the code under audit): an atom
    ``P(mu + L <= 0) = exp(-mu/b) / 2`` at 0 and the Laplace density ``exp(-|g - mu|/b) / (2b)`` above it.

    The cells' noises are independent, so the largest log-density ratio of a released vector between two data sets
    is the sum over cells of each cell's largest ratio (:meth:`sup_log_ratio`). A cell's log ratio is constant
    beyond both means and piecewise linear between, so its supremum over ``g > 0`` is among ``g -> 0+``, the two
    means and any ``g`` beyond both; the atom is the fourth candidate. Used by the planar and the network audits of
    the Laplace Cox synthesizer (test_laplace_cox_audit.py, test_network_audit.py)."""

    @staticmethod
    def log_density(g, mu, b: float) -> np.ndarray:
        """Log density of ``max(0, mu + Laplace(b))`` at ``g`` (``mu >= 0``), the atom's log mass at ``g = 0``."""
        g, mu = np.broadcast_arrays(np.asarray(g, dtype=np.float64), np.asarray(mu, dtype=np.float64))
        atom = math.log(0.5) - mu / b
        return np.where(g > 0, -np.abs(g - mu) / b - math.log(2 * b), atom)

    @classmethod
    def sup_log_ratio(cls, mu_a, mu_b, b: float) -> np.ndarray:
        """Per cell, ``sup_g log f_a(g) / f_b(g)`` for the means ``mu_a`` and ``mu_b`` (arrays of the cells); the
        released vector's largest log ratio is their sum."""
        mu_a, mu_b = np.asarray(mu_a, dtype=np.float64), np.asarray(mu_b, dtype=np.float64)
        far = np.maximum(mu_a, mu_b) + 1.0
        g = np.stack([np.zeros_like(mu_a), np.full_like(mu_a, 1e-300), mu_a, mu_b, far])
        return np.max(cls.log_density(g, mu_a, b) - cls.log_density(g, mu_b, b), axis=0)


@pytest.fixture
def clamped_laplace():
    """:class:`ClampedLaplace` (the class)."""
    return ClampedLaplace


def _core_test_readers():
    """The core tests' GeoPackage readers (tests/core/conftest.py: sqlite3 only, no QGIS), loaded from their file:
    under pytest's importlib mode a conftest cannot be imported by name."""
    path = Path(__file__).resolve().parent.parent / "core" / "conftest.py"
    spec = importlib.util.spec_from_file_location("privacy_core_conftest_readers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def chicago_network():
    """spatstat's ``chicago`` (feet): ``(domain, crimes)``, the network domain of its 503 street segments and its
    116 crimes located on it (tests/data/spatstat_chicago.gpkg)."""
    from spatial_privacy.core.network.domain import NetworkDomain
    from spatial_privacy.core.network.network import build_network

    readers = _core_test_readers()
    gpkg = readers.DATA / "spatstat_chicago.gpkg"
    net, _ = build_network(readers.read_gpkg_lines(gpkg, "streets"), 0.0)
    x, y, _ = readers.read_gpkg_points(gpkg, "crimes", "fid")
    domain = NetworkDomain(net)
    return domain, domain.place(x, y)
