"""The road-network path of ``spatialprivacy:dppoints``: Kim & Lim's LGCP and Laplace Cox synthesizers on a street
layer (Section 4.2), with the points first moved onto the network (:mod:`.network_inputs`).

:func:`add_network_parameters` adds NETWORK, RESOLUTION and the network options to the algorithm,
:func:`network_problem` checks them before a run, and :func:`synthesize_on_network` is the run itself, called by
``DPPointsAlgorithm.process`` when NETWORK is given: build the network and cut it into pieces (public), place the
points, state the release to the ledger, synthesize (core.synthesis.network_laplace / network_lgcp), write the
points (exactly on the lines, field syn_id only) and the report (:mod:`.reports.network`).
"""

from __future__ import annotations

import math

from qgis.core import QgsProcessingParameterDistance

from ..compat import crs_key
from ..core.ledger_composition import ALPHA_NETWORK
from ..i18n import tr
from .destinations import ensure_folders
from .feedback import FeedbackProgress
from .ledger import check_release, points_dataset
from .network_inputs import (
    CORE_NAMES,
    NETWORK,
    add_network_layer,
    add_network_options,
    place_on_network,
    read_network,
)
from .parameters import given, make_rng, optional_number
from .reports.network import network_sections
from .synthesis_warnings import warn_about_the_pattern

RESOLUTION = "RESOLUTION"
#: The methods that work on a network (METHOD's short names, dp_points.METHOD_KEYS).
NETWORK_METHODS = ("LGCP", "Laplace")
#: The ledger's name for the LGCP's neighbourhood on a network: one event moved by at most alpha along the network.
#: core.ledger_composition says which guarantees cover it (smaller alphas, one point moved any distance, add/remove).
ALPHA_ALONG_NETWORK = ALPHA_NETWORK


def add_network_parameters(alg) -> None:
    """NETWORK, RESOLUTION and the network options (SNAP_TOLERANCE, SPLIT_CROSSINGS, COMPONENTS,
    MAX_SNAP_DISTANCE), with their help."""
    add_network_layer(
        alg,
        tr(
            "Optional line layer of streets. Given: the points are moved to their nearest location on it and the LGCP "
            "or Laplace synthesizer works on the network (Kim & Lim, Section 4.2): the synthetic points lie exactly "
            "on its lines. The kernel method is not offered on a network. The network is public: it must not be "
            "derived from the confidential points. Same CRS as the points (or both transformed to WORK_CRS). Empty: "
            "the synthesizers work in the plane (WINDOW)."
        ),
    )
    alg.add(
        QgsProcessingParameterDistance(RESOLUTION, tr("Piece length on the network"), None, NETWORK, True, 0.0),
        tr(
            "Needed with NETWORK: the network is cut into pieces of at most this length, in the CRS units (Kim & Lim "
            "use 50 m; 164 ft). Laplace: the pieces are the cells whose counts get noise (pieces shorter than 1/4 of "
            "it are merged with a neighbour; the sensitivity Δ = 1/|S_p| + 1/|S_q| comes from the two shortest "
            "cells, so a larger resolution means less noise). LGCP: the ends of the pieces are the knots of the "
            "field (at most 5,000); σ²/l is fixed by the privacy condition (the report gives it; output RATIO is "
            "σ/l at the drawn length scale l). No default: a street layer's units are not known in advance. A "
            "resolution at least as long as every line of the network is refused (nothing would be cut)."
        ),
    )
    add_network_options(alg, distances_in_log=False)


def network_problem(alg, parameters, context, method_key: str) -> str | None:
    """What is wrong with the network parameters of a dppoints run, or ``None``: the kernel method on a network,
    a missing or non-positive RESOLUTION."""
    if not given(parameters, NETWORK):
        return None
    if method_key not in NETWORK_METHODS:
        return tr(
            "{0}: the kernel synthesizer works in the plane only (its Gaussian kernel and Theorem 3.6 have no network "
            "form here); on a {1} choose the LGCP or the Laplace synthesizer, or leave {1} empty."
        ).format(alg.METHOD, NETWORK)
    resolution = optional_number(alg, parameters, RESOLUTION, context)
    if resolution is None:
        return tr(
            "{0}: give the longest piece the network is cut into, in the units of the CRS of {1} (Kim & Lim use 50 m)."
        ).format(RESOLUTION, NETWORK)
    if not (math.isfinite(resolution) and resolution > 0):
        return tr("{0}: must be a distance > 0, got {1}.").format(RESOLUTION, resolution)
    return None


def _warn_unused(alg, parameters, context, method_key: str, feedback) -> None:
    unused = [alg.WINDOW, alg.CELL_SIZE, alg.BANDWIDTH] + ([alg.DELTA] if method_key == "Laplace" else [])
    for name in unused:
        if given(parameters, name):
            feedback.pushWarning(
                tr("{0} is not used on a network (the network and {1} set the domain and its pieces).").format(
                    name, RESOLUTION
                )
            )
    knots = alg.parameterDefinition(alg.KNOTS).defaultValue()
    if given(parameters, alg.KNOTS) and alg.parameterAsInt(parameters, alg.KNOTS, context) != knots:
        feedback.pushWarning(
            tr("{0} is not used on a network: the knots are the ends of the pieces.").format(alg.KNOTS)
        )
    if method_key != "Laplace" and alg.parameterAsDouble(parameters, alg.TOTAL_SHARE, context) > 0:
        feedback.pushWarning(tr("{0} is not used by the {1} method.").format(alg.TOTAL_SHARE, method_key))


def _guarantees(method_key: str, partition, epsilon, delta, alpha, share, units):
    """The release's guarantees for the privacy-budget ledger. Laplace (Theorem 3.10 on pieces): epsilon for one
    point moved any distance, and its epsilon for one point added or removed. LGCP (Theorem 3.8 on pieces,
    nominal): (epsilon, delta) when one event moves by at most alpha along the network."""
    from ..core.ledger import Guarantee, add_remove_neighbourhood, move_neighbourhood
    from ..core.ledger_composition import Neighbourhood
    from ..core.synthesis.laplace_cox import laplace_guarantee
    from ..core.synthesis.network_laplace import NETWORK_TERMS

    if method_key == "Laplace":
        g = laplace_guarantee(partition.region_measure, epsilon, share, NETWORK_TERMS)
        return [
            Guarantee(move_neighbourhood(), g.epsilon_alpha),
            Guarantee(add_remove_neighbourhood(), g.epsilon_add_remove),
        ]
    unit_text = f"{units} units" if units else "CRS units"
    text = f"alpha-neighbourhood along a network: one event moved by at most alpha = {alpha:g} ({unit_text})"
    return [Guarantee(Neighbourhood(ALPHA_ALONG_NETWORK, alpha, units, text), epsilon, delta, proven=False)]


def synthesize_on_network(alg, parameters, context, feedback, method: int, method_key: str, points, output_files):
    """The dppoints run on NETWORK (module docstring), after the points were read; returns the results."""
    import numpy as np

    from ..core.errors import ParameterError
    from ..core.network.domain import NetworkDomain, check_resolution
    from ..core.synthesis.network_laplace import synthesize_network_laplace
    from ..core.synthesis.network_lgcp import synthesize_network_lgcp

    laplace = method_key == "Laplace"
    names = {**CORE_NAMES, "resolution": RESOLUTION}
    x, y = np.array(points.x), np.array(points.y)
    n = int(x.size)
    _warn_unused(alg, parameters, context, method_key, feedback)
    network = read_network(alg, parameters, context, feedback, points.work_crs, points_name=alg.INPUT)
    resolution = alg.parameterAsDouble(parameters, RESOLUTION, context)
    try:
        check_resolution(network.net, resolution)  # the network is public: refused before the points are placed
    except ParameterError as error:
        raise alg.core_error(error, **names) from None
    placement = place_on_network(
        alg, parameters, context, feedback, network, [(alg.INPUT, x, y)], count_is_private=laplace, log_distances=False
    )
    epsilon = alg.parameterAsDouble(parameters, alg.EPSILON, context)
    alpha = optional_number(alg, parameters, alg.ALPHA, context)
    delta = alg._delta(optional_number(alg, parameters, alg.DELTA, context), method, n, feedback)
    share = alg.parameterAsDouble(parameters, alg.TOTAL_SHARE, context) if laplace else 0.0
    rng, seed = make_rng(alg, parameters, context, alg.SEED, feedback)
    progress = FeedbackProgress(feedback, 45.0, 95.0)
    domain = NetworkDomain(placement.net)
    lost = tr("network parts chosen by the points") if placement.parts_from_points else None
    located = placement.points[alg.INPUT]
    try:
        partition = domain.partition(resolution) if laplace else None
        units = points.work_crs.authid() or crs_key(points.work_crs)
        guarantees = _guarantees(method_key, partition, epsilon, delta, alpha, share, units)
        dataset = points_dataset(alg, parameters, context, alg.INPUT, points)
        check_release(alg, parameters, context, feedback, method_key, guarantees, dataset, not_private=lost)
        if laplace:
            synthesis = synthesize_network_laplace(
                located, partition, rng, epsilon=epsilon, total_share=share, progress=progress
            )
        else:
            synthesis = synthesize_network_lgcp(
                located, domain, rng, epsilon=epsilon, delta=delta, alpha=alpha, resolution=resolution,
                progress=progress,
            )  # fmt: skip
    except ParameterError as error:
        raise alg.core_error(error, **names) from None
    release = {
        "x": synthesis.x,
        "y": synthesis.y,
        "method": method_key,
        "epsilon": epsilon,
        "alpha": alpha,
        "delta": 0.0 if laplace else delta,
        "n": n,
        "seed": seed,
        "resolution": resolution,
        "core": synthesis,
        "placement": placement,
    }
    if laplace:
        g = synthesis.guarantee
        release.update(noise_scale=g.noise_scale, epsilon_add_remove=g.epsilon_add_remove)
    else:
        release["ratio"] = synthesis.calibration.ratio(synthesis.length)
    warn_about_the_pattern(alg, release, n, feedback, RESOLUTION)
    progress.check_cancel()
    report_path = alg.parameterAsFileOutput(parameters, alg.OUTPUT_REPORT, context)
    ensure_folders(output_files)
    report = network_sections(release) + alg.ledger_report() if report_path else None
    progress.check_cancel()
    if lost:  # the files and the report's title say so too
        alg.lose_guarantee(lost)
    title = tr("Differentially private synthetic points on a street network")
    return alg.publish(parameters, context, points, release, (report_path, title, report), epsilon, alpha, feedback)


def network_help() -> str:
    """The paragraph of dppoints' help on street networks."""
    return tr(
        "<p><b>On a street network</b> (NETWORK, Kim &amp; Lim Section 4.2): the points are moved to their nearest "
        "location on the network, which is cut into pieces of at most RESOLUTION, and the synthetic points are drawn "
        "on its lines. <i>Laplace</i>: the pieces are the cells, with lengths for areas, "
        "Δ = max<sub>p≠q</sub> 1/|S<sub>p</sub>| + 1/|S<sub>q</sub>|; pure ε-DP for one point moved any distance, "
        "as in the plane (Theorem 3.10 needs only that the cells partition the domain). <i>LGCP</i>: the log "
        "intensity is linear along each piece between its end knots, with an exponential correlation in the "
        "resistance metric (Appendix E.2); σ²/l (not σ/l: only that ratio bounds the privacy condition for every "
        "length scale in this metric) is fixed by Theorem 3.8 summed over the pieces within α along the network. "
        "The prior is valid on every network (proven); the guarantee is nominal, not proven, for the reasons given "
        "above for the plane. The kernel method is not offered on a network. The network is public: it must not "
        "be derived from the confidential points.</p>"
    )
