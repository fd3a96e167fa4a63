"""The road-network path of ``spatialprivacy:kfunction``: the K-function of points on a street layer (Okabe &
Yamada's estimator and Ang's geometrically corrected one; Kim & Lim, Appendix E.3), through
core.metrics.network_kfunction, which agrees with spatstat's ``linearK`` / ``linearKinhom``.

:func:`correction_problem` checks that the correction fits the domain (planar corrections in the plane, Ang on a
network); :func:`k_function_on_network` is the run, called by ``KFunctionAlgorithm.process`` when NETWORK is given,
once the input (and synthetic) points are read.
"""

from __future__ import annotations

import math

from ..i18n import tr
from .destinations import ensure_folders
from .feedback import FeedbackProgress
from .inputs import read_raster
from .network_inputs import CORE_NAMES, NETWORK, place_on_network, read_network
from .parameters import given
from .reports.network import k_network_sections
from .reports.page import write_html_report

#: The corrections of a K-function on a network (core.metrics.network_kfunction.CORRECTIONS).
NETWORK_CORRECTIONS = ("Ang", "none")
#: Radii of the default rule on a network: 0 and 100 steps up to spatstat's r_max of linearK.
DEFAULT_NETWORK_RADII = 101


def correction_problem(correction: str, on_network: bool, correction_name: str) -> str | None:
    """A planar correction (isotropic, border) on a network, or Ang's without one: the message naming CORRECTION."""
    if on_network and correction not in NETWORK_CORRECTIONS:
        return tr(
            "{0}: the {1} correction is for points in a planar window; on a {2} choose Ang's correction (or None)."
        ).format(correction_name, correction, NETWORK)
    if not on_network and correction == "Ang":
        return tr(
            "{0}: Ang's correction is for points on a street network; give {1}, or choose Isotropic, Border or None "
            "for a planar window."
        ).format(correction_name, NETWORK)
    return None


def k_function_on_network(alg, parameters, context, feedback, output_files, radii, points, synthetic, correction):
    """The kfunction run on NETWORK (module docstring); returns the results."""
    import numpy as np

    from ..core.errors import ParameterError
    from ..core.metrics.network_kfunction import default_network_radii, network_k_function, network_mise

    names = {**CORE_NAMES, "radii": alg.RADII, "correction": alg.CORRECTION, "intensity": alg.INTENSITY}
    if given(parameters, alg.WINDOW):
        feedback.pushWarning(tr("{0} is not used on a network: the network is the domain.").format(alg.WINDOW))
    layers = [(alg.INPUT, np.array(points.x), np.array(points.y))]
    if synthetic is not None:
        layers.append((alg.SYNTHETIC, np.array(synthetic.x), np.array(synthetic.y)))
    network = read_network(alg, parameters, context, feedback, points.work_crs, points_name=alg.INPUT)
    placement = place_on_network(alg, parameters, context, feedback, network, layers)
    net = placement.net
    on_net = {name: placement.points[name] for name, _, _ in layers}
    r = default_network_radii(net, DEFAULT_NETWORK_RADII) if radii is None else np.array(radii)
    lam = {name: None for name in on_net}
    intensity_layer = alg.parameterAsRasterLayer(parameters, alg.INTENSITY, context)
    if intensity_layer is not None:  # points per unit length, at the locations on the network
        grid = read_raster(alg, parameters, intensity_layer, alg.INTENSITY, points.work_crs)
        for name, located in on_net.items():
            lam[name] = alg._intensity_at(grid, *located.xy(net), name)
    k_syn, value = None, math.nan
    try:
        k_ori = network_k_function(
            net,
            on_net[alg.INPUT],
            r,
            correction,
            lam[alg.INPUT],
            progress=FeedbackProgress(feedback, 40.0, 95.0 if synthetic is None else 67.0),
        )
    except ParameterError as error:
        raise alg.core_error(error, **names) from None
    if synthetic is not None:
        try:
            k_syn = network_k_function(
                net,
                on_net[alg.SYNTHETIC],
                r,
                correction,
                lam[alg.SYNTHETIC],
                progress=FeedbackProgress(feedback, 67.0, 95.0),
            )
        except ParameterError as error:
            raise alg.core_error(error, **{**names, "points": alg.SYNTHETIC}) from None
        value = float(network_mise(k_syn, k_ori))
        feedback.pushInfo(tr("MISE of the synthetic K-function: {0:.6g}").format(value))
    FeedbackProgress(feedback, 95.0, 100.0).check_cancel()
    chart_path = alg.parameterAsFileOutput(parameters, alg.OUTPUT_CHART, context)
    ensure_folders(output_files)
    report = None
    if chart_path:
        intensity_text = intensity_layer.name() if intensity_layer is not None else None
        report = k_network_sections(k_ori, k_syn, value, intensity_text, placement)
    results = alg._write(parameters, context, k_ori, k_syn) if alg._wants_table(parameters) else {}
    if report is not None:
        write_html_report(chart_path, tr("K-function on a network (CONFIDENTIAL utility diagnostic)"), report)
        results[alg.OUTPUT_CHART] = chart_path
    feedback.setProgress(100)
    results.update({alg.MISE: value, alg.N_POINTS: len(points.x)})
    return results
