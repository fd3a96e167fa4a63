"""Report of the differentially private synthetic counts (``dpcounts``): the guarantee, the settings, the
priors' informativeness and the CONFIDENTIAL comparison with the true counts."""

from __future__ import annotations

from ...i18n import tr
from .page import figure_data_uri, report_figure


def report_sections(release, y, population, seed, names) -> list:
    """The steward's CONFIDENTIAL report of a release (core.counts.synthesize): the guarantee (Quick 2021, with
    the pairwise calibration), the settings, how informative the priors are, and the comparison with the true
    counts ``y``; ``names`` maps each field parameter to the field read."""
    from ...core import counts

    cal = release.calibration
    summary = counts.summarize(release, y, population)
    settings = [
        (tr("Epsilon (ε) of one synthetic data set"), f"{cal.epsilon:g}"),
        (tr("Epsilon of the output (L·ε)"), f"{release.synthetic.shape[0] * cal.epsilon:g}"),
        (
            tr("δ"),
            tr(
                "0 for the distribution sampled; not counted: the double-precision draw gives each probability to "
                "within 1.1e-16 (2^-53), a δ of that order per split of the sampler's tree"
            ),
        ),
        (tr("Mechanism"), tr("truncated (Quick 2021)") if cal.truncated else tr("untruncated (Quick 2019)")),
        (tr("Alpha"), "—" if cal.alpha is None else f"{cal.alpha:.4g}"),
        (tr("c"), f"{cal.c:g}"),
        (tr("Groups"), str(cal.groups)),
        (tr("Public total"), str(cal.total)),
        (tr("Synthetic data sets"), str(release.synthetic.shape[0])),
        (tr("Certified ε of the priors (two largest loss terms)"), f"{summary.certified_epsilon:.6g}"),
        (tr("Seed"), tr("none (operating-system entropy)") if seed is None else f"{seed} (NOT for release)"),
        (tr("Fields"), ", ".join(f"{k} = {v}" for k, v in names.items())),
    ]
    informativeness = [
        (tr("Median a"), f"{summary.median_a:.4g}"),
        (tr("Largest a"), f"{summary.max_a:.4g}"),
        (tr("Smallest a"), f"{summary.min_a:.4g}"),
        (tr("Median weight of the prior, a / (a + E)"), f"{summary.prior_weight:.3f}"),
    ]
    confidential = [
        (tr("True counts outside their bounds [L, U]"), f"{summary.outside} of {cal.groups}"),
        (tr("Correlation of true and mean synthetic rates"), f"{summary.rate_correlation:.3f}"),
        (tr("Mean absolute difference of counts (mean synthetic − true)"), f"{summary.mean_abs_difference:.3g}"),
    ]
    return [
        (
            tr("Guarantee"),
            tr(
                "ε-differential privacy (δ = 0 for the distribution sampled; its double-precision draw adds a δ of "
                "the order of 1e-16 per split of the sampler's tree, not counted) for each synthetic data set: "
                "moving one event from one group to "
                "another (the total unchanged) changes the probability of any output by at most a factor e^ε. "
                "The L sets together (and their mean) are (L·ε)-differentially private. The total is published "
                "exactly. Priors calibrated with the pairwise bound (each of the two groups involved contributes "
                "at most ε/2); they and the populations must not be derived from the confidential counts."
            ),
        ),
        (tr("Settings"), settings),
        (tr("Prior informativeness"), informativeness),
        (tr("CONFIDENTIAL: comparison with the true counts (do not publish)"), confidential),
        (tr("CONFIDENTIAL: true versus synthetic rates"), rates_chart(summary.true_rate, summary.synthetic_rate)),
    ]


def rates_chart(true_rate, syn_rate) -> str:
    """True against mean synthetic rates, as a PNG data URI."""
    fig, ax = report_figure(figsize=(5.5, 5))
    ax.scatter(true_rate, syn_rate, s=8, alpha=0.6)
    top = float(max(true_rate.max(), syn_rate.max())) or 1.0
    ax.plot([0, top], [0, top], color="grey", linewidth=0.8)
    ax.set_xlabel("true rate (events per person)")
    ax.set_ylabel("mean synthetic rate")
    ax.set_title("CONFIDENTIAL")
    return figure_data_uri(fig)
