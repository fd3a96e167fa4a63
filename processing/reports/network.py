"""Report sections on street networks: the synthetic points of ``dppoints`` on a network (the guarantee of the
LGCP and Laplace synthesizers there, the settings, the calibration, the network and a map of it with the points),
and the CONFIDENTIAL K-function page of ``kfunction`` on a network."""

from __future__ import annotations

from ...i18n import tr
from ..network_inputs import MAX_SNAP_DISTANCE, NETWORK, network_rows, placement_rows
from .kfunction import k_chart, no_guarantee
from .page import figure_data_uri, report_figure


def _seed_text(seed) -> str:
    if seed is None:
        return tr("none (operating-system entropy)")
    return tr("fixed by the user (its value is not shown: with it anyone can recompute the noise; NOT for release)")


def _laplace(release) -> tuple[str, list]:
    synthesis, epsilon = release["core"], release["epsilon"]
    g, partition = synthesis.guarantee, synthesis.partition
    add_remove = tr("and {0:.6g}-differential privacy when one point is added or removed ({1})").format(
        g.epsilon_add_remove,
        tr("{0:.6g} for the noisy total + {1:.6g} × {2:.6g} / {3:.6g} for the pieces").format(
            g.epsilon_total, g.epsilon_cells, g.sensitivity_add_remove, g.sensitivity
        )
        if g.total_share > 0
        else f"{epsilon:.6g} × {g.sensitivity_add_remove:.6g} / {g.sensitivity:.6g}",
    )
    guarantee = tr(
        "{0:.6g}-differential privacy when one point is moved any distance (Kim & Lim, Theorem 3.10 with the "
        "network's pieces as the cells, Section 4.2: the proof needs only that the cells partition the domain, so "
        "lengths take the place of areas), {1}. The noise of each piece's intensity is Laplace with scale Δ / ε = "
        "{2:.6g} points per unit length, Δ = max over two pieces p ≠ q of 1/|S_p| + 1/|S_q| = {3:.6g}. δ = 0 for the "
        "distribution sampled (numpy's double-precision draws add a δ of the order of e^(ε−36), below 1e-15 at "
        "ε = 1, not counted). Only the add-or-remove guarantee covers n, so n is not printed in this report."
    ).format(g.epsilon_alpha, add_remove, g.noise_scale, g.sensitivity)
    rows = [
        (tr("Pieces (at most the resolution long)"), str(len(partition.pieces))),
        (tr("Cells after merging short pieces"), str(partition.n_regions)),
        (tr("Pieces merged into a neighbour"), str(partition.merged)),
        (tr("Shortest cell (CRS units)"), f"{float(partition.region_measure.min()):.6g}"),
        (tr("Sensitivity Δ = 1/|S_p| + 1/|S_q| (per unit length)"), f"{g.sensitivity:.6g}"),
        (tr("Laplace noise scale Δ / ε_cells (points per unit length)"), f"{g.noise_scale:.6g}"),
        (tr("ε for the pieces"), f"{g.epsilon_cells:.6g}"),
        (tr("Share of ε for the noisy total"), f"{g.total_share:g}"),
        (tr("ε when a point is added or removed"), f"{g.epsilon_add_remove:.6g}"),
    ]
    if synthesis.noisy_total is not None:
        rows.append((tr("Noisy total"), f"{synthesis.noisy_total:.6g}"))
    rows += [(tr("Note"), note) for note in partition.notes]
    return guarantee, rows


def _lgcp(release) -> tuple[str, list]:
    synthesis = release["core"]
    cal = synthesis.calibration
    guarantee = tr(
        "({0:g}, {1:g})-differential privacy under the α-neighbourhood along the network with α = {2:g}: two data "
        "sets are neighbours when one event is moved by at most α along the network's shortest paths; the number of "
        "points n = {3} is the same in both, so it is not protected (it is printed here). Kim & Lim's Theorem 3.8 "
        "on the network's pieces (Section 4.2, Appendix E.2): the log intensity is linear along each piece between "
        "its two end knots, with a Gaussian prior whose correlation is exponential in the resistance metric, and "
        "σ²/l is fixed at κ = {4:.6g} so that the condition holds over the {5} pairs of pieces within α whatever "
        "length scale l the posterior draws. Proven: this prior is valid on every network (Anderes, Møller & "
        "Rasmussen 2020, Theorem 1), and the condition of Theorem 3.8 carries over from triangles to pieces. Not "
        "proven: as in the plane, the theorem is stated for one exact draw from the posterior and its proof has gaps "
        "even there (a bound that must hold for every β; the bad event's probability taken under the prior), Kim & "
        "Lim state no separate proof for networks, and this tool draws from a Laplace approximation of the "
        "posterior. The stated (ε, δ) is therefore nominal, not proven."
    ).format(cal.epsilon, cal.delta, cal.alpha, release["n"], cal.kappa, cal.pairs)
    partition = synthesis.partition
    rows = [
        (tr("κ = σ²/l (fixed by the privacy condition)"), f"{cal.kappa:.6g}"),
        (tr("Pairs of pieces within α along the network, and their Σ d_R,max"), f"{cal.pairs}, {cal.sum_d:.6g}"),
        (tr("Knot pairs of the union bound, and their Σ d_R"), f"{cal.knot_pairs}, {cal.knot_sum_d:.6g}"),
        (tr("Nugget variance"), f"{cal.nugget:.6g}"),
        (tr("Pieces and knots"), f"{len(partition.pieces)}, {partition.n_knots}"),
        (tr("Drawn length scale l (CRS units)"), f"{synthesis.length:.6g}"),
        (tr("Drawn σ = √(κ l), and σ/l"), f"{synthesis.sigma:.6g}, {cal.ratio(synthesis.length):.6g}"),
        (tr("Expected number of points of the drawn intensity"), f"{synthesis.expected_count:.6g}"),
    ]
    return guarantee, rows


def network_sections(release) -> list:
    """The report of a synthetic pattern on a network. ``release`` is the dict network_synthesis assembles
    (method "LGCP" or "Laplace", epsilon, alpha, delta, n, seed, resolution, the core result as "core", the
    placement (network_inputs.NetworkPlacement) as "placement")."""
    method, placement = release["method"], release["placement"]
    guarantee, calibration = _laplace(release) if method == "Laplace" else _lgcp(release)
    alpha = release["alpha"]
    guarantee += " " + tr(
        "The points were first moved to their nearest location on the network and the guarantee is about these "
        "locations. The network ({0}) is public: it is assumed not to be derived from the confidential points."
    ).format(placement.network.layer_name)
    if placement.parts_from_points:
        guarantee += " " + tr(
            "Caveat: the network falls apart, and only the parts on which points lie were used (COMPONENTS). Which "
            "parts those are depends on the confidential points, so the network used, its length and everything "
            "derived from it in this report are NOT covered by this guarantee. Use the largest part, or join the "
            "network, for a release."
        )
    settings = [
        (tr("Method"), tr("{0} on a network").format(method)),
        (tr("Epsilon (ε)"), f"{release['epsilon']:g}"),
        (tr("Delta (δ)"), f"{release['delta']:.6g}"),
        (
            tr("Alpha (α, CRS units)") if method == "Laplace" else tr("Alpha (α, along the network, CRS units)"),
            tr("every α") if alpha is None else f"{alpha:g}",
        ),
        (tr("Resolution: longest piece (CRS units)"), f"{release['resolution']:.6g}"),
        (tr("Synthetic points"), str(release["x"].size)),
        (tr("Seed"), _seed_text(release["seed"])),
    ]
    if method != "Laplace":
        settings.insert(5, (tr("Original points n (public under this guarantee)"), str(release["n"])))
    limit = placement.max_distance
    placed = tr(
        "Each point was moved to the nearest location on a line of the network before the synthesis{0}. How far "
        "the points moved is derived from the confidential points (the largest move singles out the most isolated "
        "point), so neither this report nor the run's log gives it."
    ).format("" if limit is None else tr("; none lay farther than {0} = {1:g}").format(MAX_SNAP_DISTANCE, limit))
    return [
        (tr("Guarantee"), guarantee),
        (tr("Settings"), settings),
        (tr("Calibration"), calibration),
        (tr("Network ({0})").format(NETWORK), network_rows(placement)),
        (tr("Points on the network"), placed),
        (tr("Synthetic points"), synthesis_map(release)),
    ]


def piece_segments(net, pieces):
    """(m, 2, 2) end coordinates of each piece."""
    import numpy as np

    start, end = net.edge_starts()[pieces.edge], net.edge_ends()[pieces.edge]
    a = start + pieces.t0[:, None] * (end - start)
    b = start + pieces.t1[:, None] * (end - start)
    return np.stack([a, b], axis=1)


def synthesis_map(release) -> str:
    """The network coloured by the public intensity the points were drawn from, and the synthetic points."""
    import numpy as np

    synthesis = release["core"]
    partition = synthesis.partition
    if release["method"] == "Laplace":
        values = synthesis.intensity[partition.region]
    else:
        ends = np.exp(synthesis.log_intensity_knots)[partition.piece_knots]
        values = ends.mean(axis=1)
    return network_map(partition.net, piece_segments(partition.net, partition.pieces), values, synthesis.x, synthesis.y)


def network_map(net, segments, values, sx, sy) -> str:
    """The network's pieces coloured by ``values`` (points per unit length) with the points on top."""
    from matplotlib.collections import LineCollection

    xmin, ymin = net.vertices.min(axis=0)
    xmax, ymax = net.vertices.max(axis=0)
    aspect = (ymax - ymin) / max(xmax - xmin, 1e-300)
    fig, ax = report_figure(figsize=(6.5, min(max(6.5 * aspect, 3.0), 10.0)))
    lines = LineCollection(segments, array=values, cmap="viridis", linewidths=1.6)
    ax.add_collection(lines)
    fig.colorbar(lines, ax=ax, label=tr("intensity (points per unit length)"))
    ax.scatter(sx, sy, s=4, color="tab:red", zorder=3)
    pad = 0.02 * max(xmax - xmin, ymax - ymin)
    ax.set_xlim(xmin - pad, xmax + pad)
    ax.set_ylim(ymin - pad, ymax + pad)
    ax.set_aspect("equal")
    ax.set_title(tr("{0} synthetic points on the network").format(len(sx)))
    return figure_data_uri(fig)


# -- the K-function on a network ----------------------------------------------------------------------------------


def k_network_sections(k_ori, k_syn, value, intensity_text, placement) -> list:
    """The CONFIDENTIAL chart page of a K-function on a network (core.metrics.network_kfunction results):
    the (absent) guarantee, the charts, the settings, the network and how far the points moved."""
    correction = {"Ang": tr("Ang (geometrically corrected)"), "none": tr("None (Okabe & Yamada)")}[k_ori.correction]
    settings = [
        (tr("Input points"), k_ori.n),
        (tr("Network length |L| (CRS units)"), f"{k_ori.total_length:g}"),
        (tr("Correction"), correction),
        (
            tr("Estimator"),
            tr("inhomogeneous (Kim & Lim eq. 27, spatstat linearKinhom), intensity {0}").format(intensity_text)
            if intensity_text
            else tr("homogeneous (spatstat linearK)"),
        ),
        (tr("Radii"), tr("{0} from {1:g} to {2:g}").format(k_ori.r.size, k_ori.r[0], k_ori.r[-1])),
    ]
    if k_syn is not None:
        settings += [(tr("Synthetic points"), k_syn.n), (tr("MISE"), f"{value:.6g}")]
    note = tr(
        "With Ang's correction a Poisson process has K(r) = r on every network, and L = K. Without it (Okabe & "
        "Yamada) K has no network-free Poisson value and there is no L-function: the table leaves L and theo empty."
    )
    return [
        no_guarantee(),
        (
            tr("Not for publication"),
            tr(
                "The K-function of the input, and how far its points moved onto the network, are derived from the "
                "confidential points. This page is a utility diagnostic for the data steward: keep it and the table "
                "internal."
            ),
        ),
        (tr("K-function and L-function on the network"), k_chart(k_ori, k_syn, theory=tr("Poisson (Ang): r"))),
        (tr("About the estimator"), note),
        (tr("Settings"), settings),
        (tr("Network ({0})").format(NETWORK), network_rows(placement)),
        (tr("Points on the network (CONFIDENTIAL)"), placement_rows(placement)),
    ]
