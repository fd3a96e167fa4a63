"""Kim & Lim's Laplace-mechanism Cox point synthesizer (Section 3.3.2, eqs. 12-13, Theorem 3.10).

The domain is cut into cells ``S_1..S_N`` (:meth:`.domain.PlanarDomain.grid_partition`: grid cells clipped to
the window, slivers merged). With ``count_i`` original points in ``S_i``,

    gamma_i = max(0, count_i / |S_i| + Lap(Delta / epsilon)),   Delta = max_{p != q} (1/|S_p| + 1/|S_q|),  (13)

and the synthetic pattern is a Poisson process with intensity ``gamma_i`` (points per unit area) on ``S_i``:
``Poisson(gamma_i |S_i|)`` uniform points in each cell.

Reading of eq. (12). The paper writes ``lambda(s) = sum_i gamma_i psi_i(s)`` with ``psi_i = 1/|S_i|`` on
``S_i``, which taken literally divides by the cell area twice (``count / |S|^2``: not an intensity). The
intensity that makes ``gamma_i |S_i| ~ count_i`` is ``lambda = gamma_i`` on ``S_i``; it is the one that
reproduces the paper's Table 1 (S1 = [0, 1]^2, about 19 points, 10 x 10 cells: mean synthetic counts
973.8, 109.4 and 27.5 for epsilon = 0.1, 1, 10), so it is the one used here.

Privacy (Theorem 3.10, Appendix D). Moving one point from ``S_p`` to ``S_q`` changes the vector
``(count_i / |S_i|)`` by ``1/|S_p|`` and ``1/|S_q|`` in two entries: L1 sensitivity ``<= Delta`` (the two
smallest cells), so the Laplace mechanism is epsilon-DP for the vector and, by post-processing (clamping at 0,
drawing the Poisson process; Lemma A.1), for the synthetic pattern, for every alpha (moving a point any
distance). Adding or removing one point changes one entry by ``1/|S_p|``: L1 sensitivity ``1/min |S_p|``,
so the same release is ``epsilon (1/min|S_p|) / Delta``-DP under add/remove neighbours (``epsilon / 2`` for
equal cells).

Beyond the paper: a noisy total (``total_share = s > 0``). The Laplace noise is clamped at 0, which adds
about ``Delta / (2 epsilon)`` points per unit area in every empty cell (the paper's 973.8 synthetic points
for 19 real ones). With ``s > 0``, ``s epsilon`` buys a noisy total ``T~ = max(0, n + Lap(1 / (s epsilon)))``
(released on a grid of 1/64, :func:`..mechanisms.grid_laplace`, so its noise is 65/64 as wide),
the cells get ``(1 - s) epsilon``, and the intensity is rescaled so that its integral is ``T~``
(post-processing). Under the alpha-neighbourhood ``n`` does not change, so the total is free and the release
is ``(1 - s) epsilon``-DP; under add/remove it is ``s epsilon + (1 - s) epsilon (1/min|S_p|) / Delta``-DP
(sequential composition), at most ``epsilon``. :class:`LaplaceGuarantee` carries both.

The mechanism needs nothing of the cells but their measures, so the same functions serve a linear network
(:mod:`.network_laplace`: pieces of the network, lengths instead of areas): :func:`noisy_release` is the whole
release from the counts, and :class:`CellTerms` words its messages for either domain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from ..progress import Progress, report
from .grid_cells import CellPartition


@dataclass(frozen=True)
class CellTerms:
    """How the messages and the guarantee text name the cells of a domain.

    Attributes:
        parameter: the core parameter that sets the cells (named by a refusal about them).
        cell, cells: what a cell and the cells are called.
        measure: the measure of a cell and of the whole domain.
        per_unit: the unit of an intensity.
        domain_measure: the measure of the whole domain, in a formula.
        noise: what the noise of the cells is called in the guarantee text.
        coarser: the remedy when the cells are too small.
        finer: the remedy when there are too few cells.
    """

    parameter: str = "cell_size"
    cell: str = "cell"
    cells: str = "cells"
    measure: str = "area"
    per_unit: str = "per unit area"
    domain_measure: str = "window area"
    noise: str = "Cell noise"
    coarser: str = "larger cells"
    finer: str = "use smaller cells"


#: The planar wording (grid cells of a window).
PLANAR_TERMS = CellTerms()


@dataclass(frozen=True)
class LaplaceGuarantee:
    """What the Laplace Cox synthesizer guarantees, in numbers and in words (all public).

    Attributes:
        epsilon: the total budget requested.
        total_share: share ``s`` of epsilon spent on the noisy total (0: the paper's mechanism).
        epsilon_cells: ``(1 - s) epsilon``, spent on the cells.
        epsilon_total: ``s epsilon``, spent on the noisy total.
        sensitivity: ``Delta = 1/|S_p| + 1/|S_q|`` of the two smallest cells (per unit area): the L1
            sensitivity of the cell intensities when one point moves (Theorem 3.10).
        sensitivity_add_remove: ``1 / min |S_p|``: the L1 sensitivity when one point is added or removed.
        noise_scale: scale of the Laplace noise of each cell, ``Delta / epsilon_cells`` (points per unit area).
        epsilon_alpha: the guarantee under the alpha-neighbourhood, for every alpha (one point moved):
            ``epsilon_cells`` (the noisy total costs nothing: ``n`` does not change).
        epsilon_add_remove: the guarantee when one point is added or removed:
            ``epsilon_total + epsilon_cells * sensitivity_add_remove / sensitivity``.
        text: the guarantee in words, for a report.
    """

    epsilon: float
    total_share: float
    epsilon_cells: float
    epsilon_total: float
    sensitivity: float
    sensitivity_add_remove: float
    noise_scale: float
    epsilon_alpha: float
    epsilon_add_remove: float
    text: str


@dataclass(frozen=True)
class LaplaceCoxSynthesis:
    """A synthetic pattern of the Laplace Cox synthesizer.

    Attributes:
        x, y: synthetic points (coordinate units), sorted by x then y; publishable.
        intensity: the intensity of each region the points were drawn from (points per squared unit):
            ``noisy_intensity``, rescaled to integrate to ``noisy_total`` when a total share is used;
            publishable (a post-processing of the DP release).
        noisy_intensity: ``gamma`` of eq. (13) per region (the DP release itself): publishable as the
            Poisson points drawn from it and as a colour map; its values are continuous Laplace draws in
            doubles, so publishing them as numbers would need :func:`..mechanisms.grid_laplace` (Mironov 2012).
        noisy_total: ``T~`` (or ``None`` without a total share); publishable.
        partition: the cells (public: they depend on the window only).
        guarantee: the privacy guarantee.
    """

    x: np.ndarray
    y: np.ndarray
    intensity: np.ndarray
    noisy_intensity: np.ndarray
    noisy_total: float | None
    partition: CellPartition
    guarantee: LaplaceGuarantee


#: The most synthetic points the Laplace synthesizer draws. More means the noise dominates the pattern, and
#: the points would take memory and minutes to write (about 30 s per million to a GeoPackage here).
MAX_POINTS = 1_000_000


def expected_noise_points(region_measure, noise_scale: float) -> float:
    """Points the clamped noise alone is expected to add: ``E max(0, Lap(b)) = b / 2`` per unit area over the
    window, ``|W| b / 2``. Public: it depends on the cells and epsilon only, not on the data."""
    return float(noise_scale) / 2.0 * float(np.sum(region_measure))


def laplace_sensitivity(region_measure, terms: CellTerms = PLANAR_TERMS) -> tuple[float, float]:
    """``(Delta, Delta_add_remove)``: ``1/|S_p| + 1/|S_q|`` of the two smallest cells (eq. 13, one point moved)
    and ``1 / min |S_p|`` (one point added or removed), in 1 / squared units (1 / length on a network).

    Raises:
        ParameterError(terms.parameter): fewer than two cells, or a cell without area.
    """
    m = np.asarray(region_measure, dtype=np.float64).ravel()
    if m.size < 2:
        raise ParameterError(
            terms.parameter, f"the Laplace synthesizer needs at least two {terms.cells}; {terms.finer}"
        )
    if not np.all(np.isfinite(m)) or np.any(m <= 0):
        raise ParameterError(terms.parameter, f"every {terms.cell} needs a positive, finite {terms.measure}")
    two = np.partition(m, 1)[:2]
    return float(1.0 / two[0] + 1.0 / two[1]), float(1.0 / two[0])


def laplace_guarantee(
    region_measure, epsilon: float, total_share: float = 0.0, terms: CellTerms = PLANAR_TERMS
) -> LaplaceGuarantee:
    """The guarantee of :func:`synthesize_laplace` for these cells and parameters (see the module docstring).

    Raises:
        ParameterError("epsilon"): not a finite number > 0.
        ParameterError("total_share"): not in [0, 1).
    """
    epsilon = mechanisms.check_epsilon(epsilon)
    s = float(total_share)
    if not (0 <= s < 1):
        raise ParameterError("total_share", f"total_share must be in [0, 1), got {total_share!r}")
    if (1 - s) * epsilon < mechanisms.MIN_EPSILON:
        raise ParameterError(
            "total_share",
            f"the cells' share of epsilon, {(1 - s) * epsilon:.3g}, is below the smallest epsilon a release accepts "
            f"({mechanisms.MIN_EPSILON:g}); give a smaller share",
        )
    if 0 < s * epsilon < mechanisms.MIN_EPSILON:
        raise ParameterError(
            "total_share",
            f"the total's share of epsilon, {s * epsilon:.3g}, is below the smallest epsilon a release accepts "
            f"({mechanisms.MIN_EPSILON:g}); give a larger share or 0",
        )
    delta, delta_ar = laplace_sensitivity(region_measure, terms)
    eps_cells, eps_total = (1 - s) * epsilon, s * epsilon
    eps_ar = eps_total + eps_cells * delta_ar / delta
    scale = delta / eps_cells
    if s > 0:
        text = (
            f"{eps_cells:.6g}-differential privacy when one point is moved any distance (alpha-neighbourhood for "
            f"every alpha; the noisy total costs nothing there because the number of points does not change), and "
            f"{eps_ar:.6g}-differential privacy when one point is added or removed "
            f"({eps_total:.6g} for the noisy total + {eps_cells:.6g} x {delta_ar:.6g} / {delta:.6g} for the "
            f"{terms.cells}). {terms.noise}: Laplace with scale Delta / epsilon_cells = {scale:.6g} {terms.per_unit} "
            f"(Delta = {delta:.6g}); total noise: discrete Laplace on a grid of 1/64 point with scale "
            f"{65 / 64 / eps_total:.6g} points."
        )
    else:
        text = (
            f"{epsilon:.6g}-differential privacy when one point is moved any distance (Kim & Lim Theorem 3.10, "
            f"alpha-neighbourhood for every alpha), and {eps_ar:.6g}-differential privacy when one point is added "
            f"or removed ({epsilon:.6g} x {delta_ar:.6g} / {delta:.6g}). {terms.noise}: Laplace with scale "
            f"Delta / epsilon = {scale:.6g} {terms.per_unit} (Delta = {delta:.6g})."
        )
    return LaplaceGuarantee(epsilon, s, eps_cells, eps_total, delta, delta_ar, scale, eps_cells, eps_ar, text)


def cell_means(x, y, partition: CellPartition) -> np.ndarray:
    """``count_i / |S_i|`` per region (points per squared unit). CONFIDENTIAL: the noise-free statistic.

    Raises:
        ParameterError("points"): points outside the window.
    """
    return partition.region_counts(x, y) / partition.region_measure


def noisy_intensity(rng: np.random.Generator, mean: np.ndarray, scale: float) -> np.ndarray:
    """``gamma = max(0, mean + Lap(scale))`` per entry (eq. 13); the noise comes from :mod:`..mechanisms`."""
    mean = np.asarray(mean, dtype=np.float64)
    return np.maximum(0.0, mean + mechanisms.laplace(rng, np.full(mean.shape, float(scale))))


def noisy_intensity_logpdf(gamma, mean, scale: float) -> np.ndarray:
    """Log density of ``gamma = max(0, mean + Lap(scale))`` per entry, given the (confidential) ``mean``.

    The distribution has an atom at 0 with mass ``P(mean + L <= 0)`` and the Laplace density
    ``exp(-|g - mean| / scale) / (2 scale)`` on ``g > 0``; the value at ``gamma = 0`` is the log of the atom's
    mass, elsewhere the log of the density (with respect to "counting measure at 0 plus Lebesgue on
    ``(0, inf)``"). A ratio of these for two data sets is the likelihood ratio a privacy test bounds by
    ``e^epsilon``. ``-inf`` for ``gamma < 0``.
    """
    gamma, mean = np.broadcast_arrays(np.asarray(gamma, dtype=np.float64), np.asarray(mean, dtype=np.float64))
    scale = float(scale)
    atom = np.log(mechanisms.laplace_cdf(-mean, scale))
    dens = -np.abs(gamma - mean) / scale - math.log(2 * scale)
    return np.where(gamma > 0, dens, np.where(gamma == 0, atom, -np.inf))


def planned_release(
    region_measure, epsilon: float, total_share: float = 0.0, terms: CellTerms = PLANAR_TERMS
) -> LaplaceGuarantee:
    """The guarantee of a release on these cells (:func:`laplace_guarantee`), refused when the noise alone would
    add more than :data:`MAX_POINTS` points (:func:`expected_noise_points`, without a noisy total): public, so it is
    checked before the data are read.

    Raises:
        ParameterError("epsilon" / "total_share" / terms.parameter): as :func:`laplace_guarantee`; "epsilon" also for
            too much noise.
    """
    guarantee = laplace_guarantee(region_measure, epsilon, total_share, terms)
    noise_points = expected_noise_points(region_measure, guarantee.noise_scale)
    # without a noisy total the noise adds its points to the pattern; with one, the intensity is rescaled to it
    if guarantee.total_share == 0 and not noise_points <= MAX_POINTS:  # also inf / nan for a vanishing epsilon
        raise ParameterError(
            "epsilon",
            f"with these {terms.cells} the noise alone would add about {noise_points:.3g} points "
            f"({terms.domain_measure} x Delta / (2 epsilon)); at most {MAX_POINTS} can be drawn. Use a larger "
            f"epsilon or {terms.coarser}.",
        )
    return guarantee


def noisy_release(
    rng: np.random.Generator,
    counts,
    region_measure,
    guarantee: LaplaceGuarantee,
    terms: CellTerms = PLANAR_TERMS,
    progress: Progress = None,
) -> tuple[np.ndarray, np.ndarray, float | None]:
    """The DP release from the (confidential) counts per cell: eq. (13) and, with a total share, the noisy total
    and the rescaled intensity (module docstring). The noise comes from :mod:`..mechanisms`.

    Args:
        rng: the only source of randomness.
        counts: original points per cell (CONFIDENTIAL).
        region_measure: ``|S_i|`` per cell (public).
        guarantee: from :func:`planned_release` for the same cells.
        terms: the wording of the refusal.
        progress: optional ``progress(fraction, message)``.

    Returns:
        ``(gamma, intensity, noisy_total)``: eq. (13) per cell, the intensity to draw from (per unit measure) and
        the noisy total (``None`` without a total share); all publishable as post-processing of the release.

    Raises:
        ParameterError("epsilon"): the intensity integrates to more than :data:`MAX_POINTS` points.
    """
    region_measure = np.asarray(region_measure, dtype=np.float64)
    report(progress, 0.0, f"Adding Laplace noise to the intensities of the {terms.cells}")
    mean = np.asarray(counts, dtype=np.float64) / region_measure
    gamma = noisy_intensity(rng, mean, guarantee.noise_scale)
    intensity = gamma
    total = None
    if guarantee.total_share > 0:
        n = float(np.sum(counts))
        # published in the report: the Laplace mechanism on a grid (sensitivity 1 under add/remove), not
        # "n + Laplace" in doubles, whose low bits leak (mechanisms.grid_laplace, Mironov 2012)
        release = mechanisms.grid_laplace(rng, np.array([n]), 1.0, guarantee.epsilon_total)
        total = float(max(0.0, release.published[0]))
        mass = float(np.sum(gamma * region_measure))
        if mass > 0:
            intensity = gamma * (total / mass)
        else:  # every cell clamped to 0: spread the noisy total evenly (post-processing)
            intensity = np.full(gamma.shape, total / float(region_measure.sum()))
    expected = float(np.sum(intensity * region_measure))  # a post-processing of the DP release
    if not expected <= MAX_POINTS:
        raise ParameterError(
            "epsilon",
            f"the noisy intensity integrates to {expected:,.0f} points (the points plus the noise); at most "
            f"{MAX_POINTS:,} can be drawn. With more points than that, synthesize a subset; otherwise use a larger "
            f"epsilon or {terms.coarser}.",
        )
    return gamma, intensity, total


def synthesize_laplace(
    x,
    y,
    partition: CellPartition,
    rng: np.random.Generator,
    *,
    epsilon: float,
    total_share: float = 0.0,
    progress: Progress = None,
) -> LaplaceCoxSynthesis:
    """Draw a synthetic pattern from the Laplace Cox synthesizer (eqs. 12-13), pure epsilon-DP (Theorem 3.10).

    Args:
        x, y: the original (confidential) points, inside the window (coordinate units).
        partition: the cells, from :meth:`.domain.PlanarDomain.grid_partition` (public: window only). Only
            its ``region_measure``, ``region_counts(x, y)`` and ``sample(rng, intensity)`` are used, which a
            linear-network partition provides as well.
        rng: the only source of randomness.
        epsilon: privacy budget (> 0).
        total_share: share of epsilon spent on a noisy total that the intensity is rescaled to (0: the
            paper's mechanism; see the module docstring).
        progress: optional ``progress(fraction, message)``.

    Raises:
        ParameterError("epsilon" / "total_share" / "points" / "cell_size"): bad input; "epsilon" also when the
            noise alone (:func:`expected_noise_points`, without a noisy total) or the noisy intensity would give
            more than :data:`MAX_POINTS` points.
    """
    guarantee = planned_release(partition.region_measure, epsilon, total_share)
    counts = partition.region_counts(x, y)
    gamma, intensity, total = noisy_release(rng, counts, partition.region_measure, guarantee, progress=progress)
    report(progress, 0.3, "Drawing the synthetic points")
    sx, sy = partition.sample(rng, intensity)
    report(progress, 1.0, f"Drew {sx.size} synthetic points")
    return LaplaceCoxSynthesis(sx, sy, intensity, gamma, total, partition, guarantee)
