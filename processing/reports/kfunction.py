"""Report of the K- and L-function (``kfunction``): the charts of K(r) and L(r) − r and the settings, for the
data steward only."""

from __future__ import annotations

from ...i18n import tr
from ..inputs import crs_label
from .page import figure_data_uri, report_figure


def report_sections(k_ori, k_syn, value, window_text, intensity_text, crs, duplicates) -> list:
    """The CONFIDENTIAL chart page: the (absent) guarantee, the charts of K and L of the input and (if given) the
    synthetic layer (core.metrics.kfunction results), and the settings; ``value`` is the MISE."""
    correction = {
        "isotropic": tr("Isotropic (Ripley)"),
        "border": tr("Border (reduced sample)"),
        "none": tr("None"),
    }[k_ori.correction]
    settings = [
        (tr("Input points"), k_ori.n),
        (tr("Study window"), window_text),
        (tr("Window area"), f"{k_ori.area:g}"),
        (tr("CRS"), crs_label(crs)),
        (tr("Edge correction"), correction),
        (
            tr("Estimator"),
            tr("inhomogeneous (Kim & Lim eq. 14), intensity {0}").format(intensity_text)
            if intensity_text
            else tr("homogeneous (spatstat Kest)"),
        ),
        (tr("Radii"), tr("{0} from {1:g} to {2:g}").format(k_ori.r.size, k_ori.r[0], k_ori.r[-1])),
        (tr("Points repeating another point's location"), duplicates),
    ]
    if k_syn is not None:
        settings += [(tr("Synthetic points"), k_syn.n), (tr("MISE"), f"{value:.6g}")]
    return [
        no_guarantee(),
        (
            tr("Not for publication"),
            tr(
                "The K-function of the input is derived from the confidential points. It is a utility diagnostic "
                "for the data steward: keep this page and the table internal."
            ),
        ),
        (tr("K-function and L-function"), k_chart(k_ori, k_syn)),
        (tr("Settings"), settings),
    ]


def no_guarantee() -> tuple[str, str]:
    """The report row that states kfunction's guarantee: none, as it adds no noise and publishes nothing."""
    return (
        tr("Guarantee"),
        tr(
            "None (no ε or δ): this tool adds no noise and publishes nothing. A synthetic layer is as "
            "private as the tool that made it."
        ),
    )


def k_chart(k_ori, k_syn, theory: str | None = None) -> str:
    """K(r) against its Poisson value (``theory`` names it; π r² in the plane) and L(r) − r against 0, for the input
    and (if given) the synthetic layer. A Poisson value or L that is NaN (on a network without Ang's correction) draws
    nothing."""

    r = k_ori.r
    fig, (left, right) = report_figure(1, 2, figsize=(11, 4.2))
    left.plot(r, k_ori.theoretical, color="grey", linestyle="--", label=theory or tr("Poisson: π r²"))
    right.axhline(0.0, color="grey", linestyle="--", label=tr("Poisson: 0"))
    series = [(k_ori, tr("input"), "black")]
    if k_syn is not None:
        series.append((k_syn, tr("synthetic"), "tab:red"))
    for k, label, color in series:
        left.plot(r, k.K, color=color, label=label)
        right.plot(r, k.L - r, color=color, label=label)
    left.set_xlabel("r")
    left.set_ylabel("K(r)")
    right.set_xlabel("r")
    right.set_ylabel("L(r) − r")
    for ax in (left, right):
        ax.legend()
    fig.tight_layout()
    return figure_data_uri(fig)
