"""Report of an LGCP fit (``fitlgcp``): the posterior summary, the settings, the MCMC convergence and the maps,
all derived from the confidential points; and the convergence warnings, which the log shows too."""

from __future__ import annotations

import math

from ...i18n import tr
from .page import figure_data_uri, report_figure


def convergence_warnings(alg, posterior) -> list[str]:
    """What :func:`core.mcmc_diagnostics.check_convergence` found wrong with an MCMC fit, as messages that say what to
    change; empty when the chains look converged (and for the fast method)."""
    from ...core.mcmc_diagnostics import MAX_RHAT, MIN_THETA_ACCEPTANCE, check_convergence

    if posterior.method != "mcmc":
        return []
    check = check_convergence(posterior.diagnostics)
    messages = []
    if check.acceptance_theta is not None:
        messages.append(
            tr(
                "The hyperparameter chain is stuck: it accepted {0:.2%} of its moves (fewer than {1:.0%}), so "
                "the range and standard deviation repeat a few values and the fit cannot be trusted, whatever "
                "R-hat and the effective sample sizes say. Give a {2} nearer the scale of the pattern (empty: "
                "1/5 of the window's larger side), or use the fast method."
            ).format(check.acceptance_theta, MIN_THETA_ACCEPTANCE, alg.PRIOR_RANGE)
        )
    names = list(dict.fromkeys([*check.high_rhat, *check.low_ess]))
    if names:
        rhat, ess = posterior.diagnostics.get("rhat", {}), posterior.diagnostics.get("ess", {})
        details = "; ".join(
            f"{name}: R-hat {rhat.get(name, math.nan):.3f}, ESS {ess.get(name, math.nan):.0f}" for name in names
        )
        messages.append(
            tr(
                "The MCMC chains have not converged ({0}). BDA3 asks for R-hat below {1:g} and at least {2:.0f} "
                "effective draws of every parameter before the draws are used. Ask for more {3}, or give a {4} "
                "nearer the scale of the pattern (empty: 1/5 of the window's larger side)."
            ).format(details, MAX_RHAT, check.min_ess, alg.DRAWS, alg.PRIOR_RANGE)
        )
    return messages


def rule_name(scheme) -> str:
    """The integration rule ``scheme`` of core.quadrature, in words."""
    names = {
        "midpoint": tr("edge midpoints"),
        "vertex": tr("dual mesh"),
        "cubic": tr("degree 3 (nodes, midpoints and centroids)"),
    }
    return names[scheme]


def report_sections(alg, posterior, setup, seed, intensity, cpo) -> list:
    """The CONFIDENTIAL report of an LGCP fit: the posterior summary, the settings, the MCMC convergence (with
    trace plots) and a map of the posterior mean intensity (core.lgcp_setup.intensity_raster), if made."""
    rows = [
        (name, f"{mean:.4g}", f"{sd:.3g}", f"{lower:.4g} – {upper:.4g}")
        for name, mean, sd, lower, upper in posterior.summary()
    ]
    table = [(tr("parameter"), tr("mean | sd | 95% interval"))] + [(r[0], " | ".join(r[1:])) for r in rows]
    settings = [
        (tr("Points"), setup.model.design.n_points),
        (tr("Mesh nodes"), setup.mesh.n_nodes),
        (tr("Largest mesh edge"), f"{setup.max_edge:g}"),
        (tr("Window area"), f"{setup.window.area:g}"),
        (tr("Posterior draws"), posterior.n_draws),
        (tr("Integration rule"), rule_name(posterior.diagnostics["integration"])),
        (tr("Hyperparameter grid points"), posterior.diagnostics.get("grid_points")),
        (tr("Points at a location another point already takes"), setup.duplicates),
        (tr("Log pseudo-marginal likelihood (sum of log CPO)"), f"{float(cpo[1].sum()):.6g}"),
        (tr("Points whose CPO rests on fewer than 20 effective draws"), int((cpo[2] < 20).sum())),
    ]
    if "grid_points_rejected" in posterior.diagnostics:
        rejected = posterior.diagnostics["grid_points_rejected"]
        settings.insert(6, (tr("Grid points left out as failed fits"), rejected))
    if posterior.diagnostics.get("grid_truncated"):
        settings.insert(6, (tr("Warning"), tr("the hyperparameter grid was cut short at its limit")))
    sections = [
        (
            tr("Not for publication"),
            tr(
                "This fit is derived from the confidential points. Keep the report, "
                "the model file and the intensity map internal."
            ),
        ),
        (tr("Posterior summary"), table),
        (tr("Settings"), settings),
    ]
    if seed is not None:
        sections.append((tr("Seed"), tr("A fixed seed was used (reproducible run).")))
    if posterior.method == "mcmc":
        diagnostics = posterior.diagnostics
        rows = [
            (
                name,
                f"R-hat {diagnostics.get('rhat', {}).get(name, float('nan')):.3f}, "
                f"ESS {diagnostics.get('ess', {}).get(name, float('nan')):.0f}",
            )
            for name in ("log_range", "log_sigma") + tuple(posterior.names)
        ]
        rows.append((tr("Draws with spikes at mesh nodes the integration misses"), diagnostics.get("spiky_draws")))
        if diagnostics.get("acceptance_theta") is not None:
            rows.append((tr("Accepted hyperparameter moves"), f"{diagnostics['acceptance_theta']:.1%}"))
        sections.append((tr("MCMC convergence"), rows))
        for message in convergence_warnings(alg, posterior):
            sections.append((tr("Warning: the MCMC has not converged"), message))
        sections.append((tr("Trace plots"), trace_png(posterior)))
    if intensity is not None:
        sections.append((tr("Posterior mean intensity"), intensity_png(intensity)))
    return sections


def intensity_png(intensity) -> str:
    """A small PNG map of the posterior mean intensity, as an ``<img>`` data URI marker for the report."""

    bands, x_min, y_max, size = intensity
    rows, cols = bands.shape[1:]
    fig, ax = report_figure(figsize=(6, 6 * rows / max(cols, 1) + 0.5))
    image = ax.imshow(bands[0], extent=(x_min, x_min + cols * size, y_max - rows * size, y_max), cmap="viridis")
    fig.colorbar(image, ax=ax, label="intensity")
    return figure_data_uri(fig)


def trace_png(posterior) -> str:
    """Trace plots of the hyperparameters and coefficients (draws in stored order), as a data URI."""

    series = [("log range", posterior.log_range), ("log sigma", posterior.log_sigma)]
    series += [(name, posterior.beta[:, j]) for j, name in enumerate(posterior.names)]
    fig, axes = report_figure(len(series), 1, figsize=(7, 1.6 * len(series)), sharex=True)
    for ax, (name, values) in zip(axes, series):
        ax.plot(values, linewidth=0.5)
        ax.set_ylabel(name)
    axes[-1].set_xlabel("draw")
    return figure_data_uri(fig)
