"""Kim & Lim's Laplace-mechanism Cox point synthesizer on a linear network (Section 4.2 with Section 3.3.2).

The cells are pieces of the network (:meth:`..network.domain.NetworkDomain.partition`: pieces of at most the
resolution, short ones merged into regions); with ``count_i`` original events on region ``S_i`` of length ``|S_i|``,

    gamma_i = max(0, count_i / |S_i| + Lap(Delta / epsilon)),   Delta = max_{p != q} (1/|S_p| + 1/|S_q|),

and the synthetic pattern is a Poisson process on the network with intensity ``gamma_i`` (events per unit length)
on ``S_i``: ``Poisson(gamma_i |S_i|)`` events at uniform positions of the region's pieces, released on the grid of
:func:`..network.domain.sample_on_pieces` (``POSITION_STEPS`` positions per piece), so every synthetic event lies on
a line of the network and its position is a grid point chosen by the release's randomness alone.

The mechanism is the planar one with lengths for areas, and so is its proof: Theorem 3.10 (Appendix D) needs only
that the cells partition the domain, so the release is epsilon-DP when one event moves anywhere on the network
(the alpha-neighbourhood for every alpha), and ``epsilon (1/min|S_p|) / Delta``-DP when one is added or removed; the
optional noisy total (``total_share``) is the planar one too. The noise, the noisy total and the guarantee come from
:mod:`.laplace_cox` (:func:`~.laplace_cox.planned_release`, :func:`~.laplace_cox.noisy_release`), worded for pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..network.domain import NetworkPartition
from ..network.network import NetworkPoints
from ..progress import Progress, report
from .laplace_cox import CellTerms, LaplaceCoxSynthesis, noisy_release, planned_release

#: How the Laplace synthesizer's messages and guarantee name the cells of a network.
NETWORK_TERMS = CellTerms(
    parameter="resolution",
    cell="piece",
    cells="pieces",
    measure="length",
    per_unit="per unit length",
    domain_measure="network length",
    noise="Noise of the pieces",
    coarser="a larger resolution",
    finer="use a smaller resolution",
)


@dataclass(frozen=True)
class NetworkLaplaceSynthesis(LaplaceCoxSynthesis):
    """A synthetic pattern of the Laplace Cox synthesizer on a network: :class:`.laplace_cox.LaplaceCoxSynthesis`
    (``x``, ``y`` on the network lines; intensities per unit length; ``partition`` a
    :class:`..network.domain.NetworkPartition`) and

    Attributes:
        points: the synthetic events as locations on the network (publishable), ordered by edge and position.
    """

    points: NetworkPoints | None = None


def synthesize_network_laplace(
    points: NetworkPoints,
    partition: NetworkPartition,
    rng,
    *,
    epsilon: float,
    total_share: float = 0.0,
    progress: Progress = None,
) -> NetworkLaplaceSynthesis:
    """Draw a synthetic pattern from the Laplace Cox synthesizer on a network (module docstring), pure epsilon-DP.

    Args:
        points: the original (confidential) events, located on the partition's network (e.g. by
            :func:`..network.placement.place_points`).
        partition: the pieces, from :meth:`..network.domain.NetworkDomain.partition` (public: network only).
        rng: the only source of randomness (a ``numpy.random.Generator``).
        epsilon: privacy budget (> 0).
        total_share: share of epsilon spent on a noisy total that the intensity is rescaled to (0: the paper's
            mechanism; :mod:`.laplace_cox`).
        progress: optional ``progress(fraction, message)``.

    Raises:
        ParameterError("epsilon" / "total_share" / "points" / "resolution"): bad input; "epsilon" also when the
            noise or the noisy intensity would give more than :data:`.laplace_cox.MAX_POINTS` events.
    """
    guarantee = planned_release(partition.region_measure, epsilon, total_share, NETWORK_TERMS)
    counts = partition.counts(points)
    gamma, intensity, total = noisy_release(rng, counts, partition.region_measure, guarantee, NETWORK_TERMS, progress)
    report(progress, 0.3, "Drawing the synthetic events on the network")
    synthetic = partition.sample_points(rng, intensity)
    x, y = synthetic.xy(partition.net)
    report(progress, 1.0, f"Drew {len(synthetic)} synthetic events")
    return NetworkLaplaceSynthesis(x, y, intensity, gamma, total, partition, guarantee, points=synthetic)
