"""Report of the differentially private synthetic points (``dppoints``): the guarantee of the method used, the
settings, the calibration and a map of the synthetic points over the intensity they were drawn from."""

from __future__ import annotations

from ...i18n import tr
from .page import figure_data_uri, report_figure


def report_sections(release) -> list:
    """The report of a synthetic pattern: the guarantee of its method in words (Kim & Lim, Theorems 3.6, 3.8 and
    3.10), the settings, the calibrated quantities and a map. ``release`` is the dict the algorithm assembles
    (method: "kernel", "LGCP" or "Laplace", epsilon, alpha, n, seed, domain, the core result as "core", and the
    method's own values)."""
    method, epsilon, alpha, n = release["method"], release["epsilon"], release["alpha"], release["n"]
    domain, synthesis = release["domain"], release["core"]
    alpha_text = tr("every α") if alpha is None else f"{alpha:g}"
    settings = [
        (tr("Method"), method),
        (tr("Epsilon (ε)"), f"{epsilon:g}"),
        (tr("Delta (δ)"), f"{release['delta']:.6g}"),
        (tr("Alpha (α, CRS units)"), alpha_text),
        (tr("Window area (squared CRS units)"), f"{domain.measure:.6g}"),
        (tr("Window diameter B (CRS units)"), f"{domain.diameter:.6g}"),
        (tr("Synthetic points"), str(release["x"].size)),
        (
            tr("Seed"),
            tr("none (operating-system entropy)")
            if release["seed"] is None
            else tr(
                "fixed by the user (its value is not shown: with it anyone can recompute the noise; NOT for " "release)"
            ),
        ),
    ]
    if method != "Laplace":
        settings.insert(6, (tr("Original points n (public under this guarantee)"), str(n)))
    neighbourhood = tr(
        "Two data sets are neighbours when one point is moved by at most α; the number of points n is the same "
        "in both, so n is not protected by this guarantee."
    )
    if method == "kernel":
        cal = synthesis.calibration
        guarantee = tr(
            "({0:g}, {1:g})-differential privacy under the α-neighbourhood with α = {2:g} (Kim & Lim, Theorem "
            "3.6): for any synthetic pattern, its probability changes by at most a factor e^ε between "
            "neighbouring data sets, except with probability δ. {3} The number of points n = {4} is printed in "
            "this report and is public under this guarantee."
        ).format(epsilon, cal.delta, cal.alpha, neighbourhood, n)
        calibration = [
            (tr("Bandwidth used h (CRS units)"), f"{synthesis.bandwidth:.6g}"),
            (tr("Smallest private bandwidth (CRS units)"), f"{cal.h:.6g}"),
            (tr("k: 1 − δ quantile of Poisson(n)"), str(cal.k)),
            (tr("B: window diameter"), f"{cal.B:.6g}"),
            (tr("Upper bound of r_α(h) at the smallest bandwidth"), f"{cal.r_alpha:.6g}"),
            (tr("(2αB + α²)/(2h²) + r_α(h) at the bandwidth used"), f"{synthesis.lhs:.6g}"),
            (tr("ε / k"), f"{cal.rhs:.6g}"),
            (
                tr("Grid the coordinates are rounded to (h/1024, CRS units)"),
                f"{synthesis.grid_step:.6g}",
            ),
        ]
        background = None
    elif method == "LGCP":
        cal = synthesis.calibration
        guarantee = tr(
            "({0:g}, {1:g})-differential privacy under the α-neighbourhood with α = {2:g} (Kim & Lim, Theorem "
            "3.8): for any synthetic pattern, its probability changes by at most a factor e^ε between "
            "neighbouring data sets, except with probability δ. {3} The number of points n = {4} is printed in "
            "this report and is public under this guarantee. The theorem is stated for one exact draw from the "
            "posterior, and its proof has gaps even there (a bound that must hold for every β; the bad event's "
            "probability taken under the prior); this tool draws from a fast (Laplace) approximation of the "
            "posterior. The stated (ε, δ) is therefore nominal, not proven."
        ).format(epsilon, cal.delta, cal.alpha, neighbourhood, n)
        calibration = [
            (tr("Ratio R = σ/l"), f"{cal.ratio:.6g}"),
            (tr("Triangle pairs within α"), str(cal.pairs)),
            (tr("Sum over pairs of the largest squared vertex distance"), f"{cal.sum_d2:.6g}"),
            (
                tr("Vertex pairs of the union bound that also covers points in one triangle, and their Σd²"),
                f"{cal.vertex_pairs}, {cal.vertex_sum_d2:.6g}",
            ),
            (tr("Knots per dimension"), str(release["knots"])),
            (tr("Drawn length scale l (CRS units)"), f"{synthesis.length:.6g}"),
            (tr("Drawn σ = R l"), f"{synthesis.sigma:.6g}"),
        ]
        background = ("lgcp", synthesis)
    else:
        g = synthesis.guarantee
        partition = synthesis.partition
        if g.total_share > 0:
            guarantee = tr(
                "{0:.6g}-differential privacy when one point is moved any distance (Kim & Lim, Theorem 3.10, "
                "for every α; the noisy total costs nothing there because n does not change), and {1:.6g}-"
                "differential privacy when one point is added or removed ({2:.6g} for the noisy total plus "
                "{3:.6g} × {4:.6g} / {5:.6g} for the cells). δ = 0 for the distribution sampled (numpy's "
                "double-precision draws add a δ of the order of e^(ε−36), below 1e-15 at ε = 1, not counted). {6} "
                "Only the add-or-remove guarantee covers n, so n is not printed in this report."
            ).format(
                g.epsilon_alpha,
                g.epsilon_add_remove,
                g.epsilon_total,
                g.epsilon_cells,
                g.sensitivity_add_remove,
                g.sensitivity,
                neighbourhood,
            )
        else:
            guarantee = tr(
                "{0:.6g}-differential privacy when one point is moved any distance (Kim & Lim, Theorem 3.10, "
                "for every α), and {1:.6g}-differential privacy when one point is added or removed "
                "({0:.6g} × {2:.6g} / {3:.6g}). δ = 0 for the distribution sampled (numpy's double-precision "
                "draws add a δ of the order of e^(ε−36), below 1e-15 at ε = 1, not counted). {4} Only the "
                "add-or-remove guarantee covers n, so n is not printed in this report."
            ).format(g.epsilon, g.epsilon_add_remove, g.sensitivity_add_remove, g.sensitivity, neighbourhood)
        calibration = [
            (tr("Cell size (CRS units)"), f"{release['cell_size']:.6g}"),
            (tr("Cells (after merging slivers)"), str(partition.n_regions)),
            (tr("Slivers merged into a neighbour"), str(partition.merged)),
            (tr("Sensitivity Δ = 1/|S_p| + 1/|S_q| (per squared unit)"), f"{g.sensitivity:.6g}"),
            (tr("Laplace noise scale Δ / ε_cells (points per squared unit)"), f"{g.noise_scale:.6g}"),
            (tr("ε for the cells"), f"{g.epsilon_cells:.6g}"),
            (tr("Share of ε for the noisy total"), f"{g.total_share:g}"),
            (tr("ε when a point is added or removed"), f"{g.epsilon_add_remove:.6g}"),
        ]
        if synthesis.noisy_total is not None:
            calibration.append((tr("Noisy total"), f"{synthesis.noisy_total:.6g}"))
        calibration += [(tr("Note"), note) for note in partition.notes]
        background = ("laplace", synthesis)
    if release.get("window_from_data"):
        guarantee += " " + tr(
            "Caveat: no WINDOW was given, so the window is the confidential points' bounding box enlarged by "
            "5%. Its extent, and the window area, diameter and sizes derived from it in this report and in the "
            "map, follow the extreme points and are NOT covered by this guarantee. Give a public WINDOW for a "
            "release."
        )
    return [
        (tr("Guarantee"), guarantee),
        (tr("Settings"), settings),
        (tr("Calibration"), calibration),
        (tr("Synthetic points"), synthetic_map(domain, release["x"], release["y"], background)),
    ]


def synthetic_map(domain, sx, sy, background) -> str:
    """The window, the public intensity the points were drawn from (LGCP, Laplace) and the synthetic points."""
    import numpy as np

    xmin, ymin, xmax, ymax = domain.bounds
    aspect = (ymax - ymin) / max(xmax - xmin, 1e-300)
    fig, ax = report_figure(figsize=(6.5, min(max(6.5 * aspect, 3.0), 10.0)))
    image = None
    if background is not None and background[0] == "laplace":
        synthesis = background[1]
        part = synthesis.partition
        grid = np.full((part.nx, part.ny), np.nan)
        grid[part.ix, part.iy] = synthesis.intensity[part.region]
        image = ax.pcolormesh(part.x_lines, part.y_lines, grid.T, cmap="viridis", alpha=0.8)
    elif background is not None and background[0] == "lgcp":
        synthesis = background[1]
        nodes = synthesis.nodes
        image = ax.tripcolor(
            nodes[:, 0],
            nodes[:, 1],
            synthesis.triangles,
            np.exp(synthesis.log_intensity_nodes),
            cmap="viridis",
            shading="gouraud",
        )
    if image is not None:
        fig.colorbar(image, ax=ax, label="intensity (points per squared unit)")
    for ring in domain.window.rings:
        closed = np.vstack([ring, ring[:1]])
        ax.plot(closed[:, 0], closed[:, 1], color="black", linewidth=0.8)
    ax.scatter(sx, sy, s=4, color="tab:red")
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    ax.set_aspect("equal")
    ax.set_title(f"{sx.size} synthetic points")
    return figure_data_uri(fig)
