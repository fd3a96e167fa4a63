"""Report of ``markedrisk``: the Type S and Type A risks of fully synthetic marked point data (Quick, Holan, Wikle &
Reiter, Section 3.2; the risk scatter of their Fig. 2c), the L-functions with their bands over the synthetic sets
and the regressions with the combining rules (Section 3.1). For the data steward only."""

from __future__ import annotations

import math
from statistics import NormalDist

from ...i18n import tr
from .page import figure_data_uri, report_figure


def _number(value: float, digits: int = 4) -> str:
    return tr("n/a") if value is None or not math.isfinite(value) else f"{value:.{digits}g}"


def risk_scatter(s_median, a_median) -> str:
    """Type S median against Type A median, one dot per confidential record (the paper's Fig. 2c)."""
    import numpy as np

    fig, ax = report_figure(1, 1, figsize=(5.6, 5.2))
    keep = np.isfinite(s_median) & np.isfinite(a_median)
    ax.scatter(s_median[keep], a_median[keep], s=6, alpha=0.4, color="tab:blue", linewidths=0)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(tr("Type S risk (median over the sets)"))
    ax.set_ylabel(tr("Type A risk (median over the sets)"))
    ax.set_aspect("equal")
    fig.tight_layout()
    return figure_data_uri(fig)


def risk_rows(risk, s_quantiles, a_quantiles) -> list:
    """The summary table of the per-record medians and quantiles (core.marked.risk.RiskSummary)."""
    import math

    from ...core.marked.risk import SUMMARY_THRESHOLD, RiskSummary

    rows = []
    for label, quantiles, used in ((tr("Type S"), s_quantiles, risk.sets_s), (tr("Type A"), a_quantiles, risk.sets_a)):
        summary = RiskSummary.of(quantiles, used, risk.sets)
        if not math.isnan(summary.largest_median):
            rows += [
                (tr("{0}: largest median").format(label), _number(summary.largest_median)),
                (tr("{0}: median of the medians").format(label), _number(summary.median_of_medians)),
                (
                    tr("{0}: records with median above {1:g}").format(label, SUMMARY_THRESHOLD),
                    summary.above_threshold,
                ),
                (tr("{0}: largest 95% quantile").format(label), _number(summary.largest_q95)),
            ]
        rows += [
            (tr("{0}: records with no set to estimate it (NaN)").format(label), summary.undefined),
            (tr("{0}: records estimated from fewer than all {1} sets").format(label, risk.sets), summary.fewer_sets),
        ]
    return rows


def l_chart(utility, labels) -> str:
    """``L(r) - r`` of the confidential points (black) against the synthetic mean (red) and the pointwise 95% band
    (shaded), one panel per group (all records, then each combination)."""
    import numpy as np

    bands = utility.bands
    columns = min(3, len(bands))
    rows = int(math.ceil(len(bands) / columns))
    fig, axes = report_figure(rows, columns, figsize=(4.0 * columns, 3.2 * rows), squeeze=False)
    r = utility.r
    for ax, band, label in zip(axes.ravel(), bands, labels):
        if np.isfinite(band.lower).any():
            ax.fill_between(r, band.lower - r, band.upper - r, color="tab:red", alpha=0.2, linewidth=0)
        if np.isfinite(band.mean).any():
            ax.plot(r, band.mean - r, color="tab:red", label=tr("synthetic mean"))
        if np.isfinite(band.original).any():
            ax.plot(r, band.original - r, color="black", label=tr("confidential"))
        ax.axhline(0.0, color="grey", linestyle="--", linewidth=0.8)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("r")
        ax.set_ylabel("L(r) − r")
    for ax in axes.ravel()[len(bands) :]:
        ax.set_visible(False)
    axes.ravel()[0].legend(fontsize=8)
    fig.tight_layout()
    return figure_data_uri(fig)


def l_rows(utility, labels) -> list:
    """Per group: its records, the sets used and the radii where the confidential curve leaves the band."""
    import numpy as np

    rows = []
    for band, label in zip(utility.bands, labels):
        if band.note:
            text = tr("{0} confidential records; {1}").format(band.n, band.note)
        else:
            out = int(np.count_nonzero(band.outside))
            text = tr("{0} confidential records, {1} sets; outside the band at {2} of {3} radii").format(
                band.n, band.sets_used, out, utility.r.size
            )
            if out:
                text += tr(" (r from {0:g} to {1:g})").format(
                    float(utility.r[band.outside].min()), float(utility.r[band.outside].max())
                )
        rows.append((label, text))
    return rows


def unstable_text(row) -> str:
    """The flag of a coefficient whose combined interval is unstable (core.marked.combining: nu_f below
    UNSTABLE_DF), with the adjusted interval beside it."""
    from ...core.marked.combining import UNSTABLE_DF

    c = row.combined
    return tr(
        "UNSTABLE: ν_f = {0} < {1}: few synthetic sets for this coefficient, use more SETS; adjusted interval "
        "(T* = (n_syn / n) ū, normal reference, Reiter 2002) [{2}, {3}], overlap J = {4}"
    ).format(
        _number(c.df, 3),
        f"{UNSTABLE_DF:g}",
        _number(c.adjusted_lower),
        _number(c.adjusted_upper),
        _number(row.adjusted_overlap, 3),
    )


def regression_rows(rows) -> list:
    """One table row per coefficient (core.marked.combining.compare): the confidential estimate and 95% interval,
    the synthetic combined estimate and interval, their overlap J and any note; an unstable combination (nu_f
    below core.marked.combining.UNSTABLE_DF) is flagged, with the adjusted interval beside the rule's."""
    out = []
    for row in rows:
        c = row.combined
        text = tr("confidential {0} [{1}, {2}]; synthetic {3} [{4}, {5}] from {6} sets; overlap J = {7}").format(
            _number(row.estimate),
            _number(row.lower),
            _number(row.upper),
            _number(c.qbar),
            _number(c.lower),
            _number(c.upper),
            c.m,
            _number(row.overlap, 3),
        )
        if c.unstable:
            text += " | " + unstable_text(row)
        if row.note:
            text += " (" + row.note + ")"
        out.append((row.name, text))
    return out


def unstable_warning(tables) -> str | None:
    """One log line naming the coefficients whose combined intervals are unstable (``tables`` as
    :func:`report_sections` takes them), or None."""
    from ...core.marked.combining import UNSTABLE_DF

    names = [f"{title}: {row.name}" for title, rows, _ in tables for row in rows if row.combined.unstable]
    if not names:
        return None
    return tr(
        "SETS: the combined interval of {0} coefficients is unstable (ν_f < {1}: the combining rules' t reference "
        "has too few degrees of freedom, so the interval is far too wide): {2}. Use more synthetic sets; the report "
        "gives the adjusted interval (n_syn / n) ū beside each."
    ).format(len(names), f"{UNSTABLE_DF:g}", "; ".join(names))


def coefficient_chart(rows, title: str, standardise: bool = False) -> str:
    """The confidential and synthetic estimates with their intervals, side by side (the paper's Fig. 2a-b). With
    ``standardise`` (coefficients on different scales, e.g. group log odds and a slope per unit of the numeric
    mark), each is drawn as its difference from the confidential estimate in the confidential standard errors."""
    import numpy as np

    fig, ax = report_figure(1, 1, figsize=(max(5.0, 0.5 * len(rows) + 2.0), 3.6))
    at = np.arange(len(rows))
    centre = np.array([r.estimate if standardise else 0.0 for r in rows], dtype=float)
    width = 2 * NormalDist().inv_cdf(0.975)  # a Wald 95% interval is this many standard errors wide
    unit = np.array([(r.upper - r.lower) / width if standardise else 1.0 for r in rows], dtype=float)
    bounds = []  # the ends the axis shows: all but the unstable rule intervals, which may be absurdly wide
    for offset, color, label, values in (
        (-0.15, "black", tr("confidential"), [(r.estimate, r.lower, r.upper) for r in rows]),
        (
            0.15,
            "tab:red",
            tr("synthetic (combined)"),
            [(r.combined.qbar, r.combined.lower, r.combined.upper) for r in rows],
        ),
    ):
        est, lo, hi = ((np.array([v[j] for v in values], dtype=float) - centre) / unit for j in range(3))
        ax.errorbar(at + offset, est, yerr=[est - lo, hi - est], fmt="o", color=color, label=label, markersize=4)
        keep = np.array([not (offset > 0 and r.combined.unstable) for r in rows], dtype=bool)
        bounds += [lo[keep], hi[keep]]
    unstable = np.array([r.combined.unstable for r in rows], dtype=bool)
    if unstable.any():  # the adjusted interval beside each unstable one (module core.marked.combining)
        values = [(r.combined.qbar, r.combined.adjusted_lower, r.combined.adjusted_upper) for r in rows]
        est, lo, hi = ((np.array([v[j] for v in values], dtype=float) - centre) / unit for j in range(3))
        ax.errorbar(
            at[unstable] + 0.3,
            est[unstable],
            yerr=[(est - lo)[unstable], (hi - est)[unstable]],
            fmt="s",
            color="tab:orange",
            label=tr("synthetic, adjusted (unstable: use more SETS)"),
            markersize=4,
        )
        ends = np.concatenate(bounds + [lo[unstable], hi[unstable]])
        ends = ends[np.isfinite(ends)]
        if ends.size:  # the unstable rule intervals run off the axis; the table gives them
            pad = 0.1 * max(float(ends.max() - ends.min()), 1e-12)
            ax.set_ylim(float(ends.min()) - pad, float(ends.max()) + pad)
    ax.set_xticks(at)
    ax.set_xticklabels([r.name for r in rows], rotation=45, ha="right", fontsize=8)
    ax.set_title(title, fontsize=10)
    if standardise:
        ax.set_ylabel(tr("difference from the confidential estimate (its standard errors)"), fontsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return figure_data_uri(fig)


def guarantee() -> tuple[str, str]:
    return (
        tr("Guarantee"),
        tr(
            "None (no ε or δ): this tool measures the inferential disclosure risk of fully synthetic records "
            "empirically and publishes nothing. The synthetic sets are as private as these risks say."
        ),
    )


def not_for_publication() -> tuple[str, str]:
    return (
        tr("Not for publication"),
        tr(
            "This page is computed from the confidential records: the L-functions and regression estimates of the "
            "confidential data and the risk of each record. Keep it with the steward's files."
        ),
    )


def report_sections(comb, risk, s_q, a_q, utility, tables, eps_s, eps_a, window, n) -> list:
    """The report's sections: the (absent) guarantee, the settings, the risks (table and scatter), the L-function
    bands and the regression tables ``[(title, rows, standardise)]`` (their charts standardised when the
    coefficients have different scales)."""
    labels = [tr("All records")] + [comb.label(k) for k in range(comb.k)]
    settings = [
        (tr("Confidential records"), n),
        (tr("Combinations of categories"), comb.k),
        (tr("Synthetic sets"), risk.sets),
        (tr("Spatial tolerance ε_s (distance ≤ ε_s)"), f"{eps_s:g}"),
        (tr("Attribute tolerance ε_a (|difference| ≤ ε_a)"), tr("none") if eps_a is None else f"{eps_a:g}"),
        (tr("Zero denominators"), tr("sets left out per record (the paper's second option)")),
        (tr("Study window area"), f"{window.area:g}"),
        (tr("Radii of the L-functions"), tr("{0} from 0 to {1:g}").format(utility.r.size, float(utility.r[-1]))),
    ]
    sections = [
        guarantee(),
        not_for_publication(),
        (tr("Settings"), settings),
        (tr("Risks per record (medians over the sets)"), risk_rows(risk, s_q, a_q)),
        (tr("Type S against Type A risk"), risk_scatter(s_q[:, 1], a_q[:, 1])),
        (tr("L-functions: confidential against the synthetic band"), l_chart(utility, labels)),
        (tr("L-functions per group"), l_rows(utility, labels)),
    ]
    for title, rows, standardise in tables:
        sections.append((title, regression_rows(rows)))
        sections.append((title + tr(" (chart)"), coefficient_chart(rows, title, standardise)))
    return sections
