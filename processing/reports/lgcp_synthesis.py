"""Report sections of the LGCP synthesis tools: the confidential fit, the distribution of the risks, and the
sweep's risk-utility chart and per-setting summary."""

from __future__ import annotations

from ...i18n import tr
from .page import figure_data_uri, report_figure


def fit_rows(conf) -> list[tuple[str, object]]:
    """The rows describing the confidential fit (core.synthesis.confidential_fit.ConfidentialFit)."""
    rows = [(tr("Confidential points"), conf.n), (tr("Mesh nodes"), conf.mesh.n_nodes)]
    rows += [
        (tr("Posterior mean of κ² (1/length²)"), f"{conf.kappa2:.6g}"),
        (tr("Posterior mean of ξ²"), f"{conf.xi2:.6g}"),
    ]
    rows += [
        (tr("Field variance at those means"), f"{conf.field_variance:.4g}"),
        (tr("Posterior draws used"), conf.n_draws),
    ]
    return rows


def setting_rows(result) -> list[tuple[str, str]]:
    """One row per setting of a sweep: releases, mean and range of the maximum risk, mean pMSE, releases below
    the baseline (core.synthesis.sweep.summarize_settings)."""
    from ...core.synthesis.sweep import summarize_settings

    rows = []
    for g in summarize_settings(result.evaluations, result.baseline_max):
        text = tr("{0} release(s) | max risk mean {1:.4g}, range {2:.4g}-{3:.4g} | mean pMSE {4:.4g}").format(
            g.sets, g.mean_risk, g.min_risk, g.max_risk, g.mean_pmse
        )
        if g.below_baseline:
            text += " | " + tr("{0} below the baseline (by chance: see the help)").format(g.below_baseline)
        rows.append((g.setting, text))
    return rows


def histogram(values) -> str:
    """The distribution of the per-person risks, as a PNG data URI."""
    fig, ax = report_figure(figsize=(6, 3.5))
    ax.hist(values, bins=40, color="tab:red")
    ax.set_xlabel("disclosure risk")
    ax.set_ylabel("people")
    return figure_data_uri(fig)


def risk_utility_chart(result, best, threshold) -> str:
    """Maximum risk (log scale) against pMSE, one colour per method (cf. Walder et al. Figures 5-6)."""

    colours = {"radial": "tab:red", "ans": "tab:blue", "prs": "tab:green"}
    fig, ax = report_figure(figsize=(7, 4.5))
    for method, colour in colours.items():
        sel = [e for e in result.evaluations if e.spec.method == method]
        if sel:
            ax.scatter(
                [e.pmse for e in sel], [max(e.max_risk, 1e-12) for e in sel], c=colour, s=24, label=method.upper()
            )
            if method != "prs":
                for e in sel:
                    ax.annotate(
                        f"{e.spec.value:g}",
                        (e.pmse, max(e.max_risk, 1e-12)),
                        fontsize=7,
                        xytext=(3, 3),
                        textcoords="offset points",
                    )
    if best is not None:
        e = result.evaluations[best]
        ax.scatter(
            [e.pmse], [max(e.max_risk, 1e-12)], s=160, facecolors="none", edgecolors="black", label="recommended"
        )
    ax.axhline(threshold, color="grey", linestyle="--", linewidth=1, label="risk threshold")
    if result.baseline is not None:
        ax.axhline(result.baseline_max, color="grey", linestyle=":", linewidth=1, label="nothing released")
    ax.set_yscale("log")
    ax.set_xlabel("pMSE (0 = indistinguishable, 0.25 = disjoint)")
    ax.set_ylabel("maximum disclosure risk")
    ax.legend(fontsize=8)
    return figure_data_uri(fig)
