"""Messages about a synthetic point pattern that dppoints gives alike in the plane and on a street network."""

from __future__ import annotations

from ..i18n import tr


def warn_about_the_pattern(alg, release: dict, n: int, feedback, network_resolution: str | None = None) -> None:
    """Say how many synthetic points were drawn, and warn when the noise dominates the pattern. Laplace is judged
    against the public expected number of noise points (its guarantee also covers adding a point, so not against
    n; with a noisy total the intensity is rescaled to it and the noise adds no points of its own); the other
    methods against n. ``network_resolution``: the RESOLUTION parameter's name on a network, else ``None``."""
    from ..core.synthesis.laplace_cox import expected_noise_points

    count = release["x"].size
    synthesis = release["core"]
    if network_resolution is None:
        feedback.pushInfo(tr("{0} synthetic points.").format(count))
    else:
        feedback.pushInfo(tr("{0} synthetic points on the network.").format(count))
    if count == 0:
        feedback.pushWarning(tr("The synthetic pattern is empty (no points)."))
    elif release["method"] == "Laplace" and synthesis.noisy_total is None:
        noise = expected_noise_points(synthesis.partition.region_measure, synthesis.guarantee.noise_scale)
        if noise > 0.5 * count and network_resolution is None:
            feedback.pushWarning(
                tr(
                    "The noise alone is expected to add about {0:.0f} of the {1} synthetic points (window area "
                    "× Δ / 2ε): the pattern is mostly noise. A larger {2} or ε gives a usable pattern."
                ).format(noise, count, alg.CELL_SIZE)
            )
        elif noise > 0.5 * count:
            feedback.pushWarning(
                tr(
                    "The noise alone is expected to add about {0:.0f} of the {1} synthetic points (network length × "
                    "Δ / 2ε): the pattern is mostly noise. A larger {2} or ε, or a share of ε for a noisy total "
                    "({3}), gives a usable pattern."
                ).format(noise, count, network_resolution, alg.TOTAL_SHARE)
            )
    elif release["method"] != "Laplace" and count > 10 * n:
        feedback.pushWarning(
            tr(
                "{0} synthetic points, over ten times the original count: the noise dominates. A larger {1} gives a "
                "usable pattern."
            ).format(count, alg.EPSILON)
        )
