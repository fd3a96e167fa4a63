"""Report sections of ``spatialprivacy:synthesizemarked`` (Quick, Holan, Wikle & Reiter): the guarantee, the
settings, the combinations (confidential counts against the synthetic ones), the shared location model and the
numeric mark's fits."""

from __future__ import annotations

import math

from ...i18n import tr


def report_sections(alg, fit, syn, sets, numeric_model, numeric_field, seed, candidates, replace):
    comb = fit.comb
    guarantee = tr(
        "No differential-privacy guarantee (no ε or δ). Published exactly: the number of records N = {0} (every "
        "set has N) and the {1} category combinations that occur in the data (one of a single record reveals that "
        "such a record exists). Measure the inferential risks (Type S and Type A) with spatialprivacy:markedrisk "
        "before publishing."
    ).format(comb.n, comb.k)
    sampler = tr("exact, from the intensity over the window")
    if candidates is not None:
        sampler = tr("{0} candidates, {1}").format(
            candidates.size, tr("with replacement") if replace else tr("without replacement")
        )
    settings = [
        (tr("Category fields"), ", ".join(comb.fields)),
        (tr("Numeric field"), numeric_field or tr("none")),
        (tr("Synthetic sets (L)"), sets),
        (tr("Records per set (N)"), comb.n),
        (tr("Locations drawn"), sampler),
        (tr("Seed"), tr("none") if seed is None else tr("{0} (reproducible: NOT for release)").format(seed)),
    ]
    if numeric_model is not None:
        settings.append((tr("Numeric model"), numeric_model.replace("_", "-")))
        if fit.numeric.support is not None:
            settings.append((tr("Public range"), tr("{0} to {1}").format(*fit.numeric.support)))
    log_range, log_sigma = fit.theta_hat
    location = [
        (tr("Mesh nodes"), fit.pooled.mesh.n_nodes),
        (tr("Shared effective range (posterior mean of the fit to all points)"), f"{math.exp(log_range):.6g}"),
        (tr("Shared field standard deviation"), f"{math.exp(log_sigma):.4g}"),
        (tr("Combinations with their own surface"), comb.k - len(fit.borrowed)),
        (
            tr("Combinations borrowing the surface of all points"),
            ", ".join(comb.label(k) for k in fit.borrowed) or tr("none"),
        ),
    ]
    shares = syn.counts.mean(axis=0) / comb.n
    rows = []
    for k in range(comb.k):
        low, high = comb.share_interval(k, sets=1, z=1.96)
        text = tr(
            "{0} records ({1:.2%}); synthetic mean share {2:.2%} (one set's 95% range {3:.2%} to {4:.2%})"
        ).format(int(comb.counts[k]), comb.counts[k] / comb.n, shares[k], max(low, 0.0), min(high, 1.0))
        if k in fit.borrowed:
            text += " | " + tr("locations from the surface of all points")
        rows.append((comb.label(k), text))
    sections = [
        (tr("Guarantee"), guarantee),
        (tr("Settings"), settings),
        (tr("Combinations (eq. 1; CONFIDENTIAL counts)"), rows),
        (tr("Location model (eq. 2)"), location),
    ]
    if fit.numeric is not None:
        sections.append((tr("Numeric mark (eqs. 4-5; CONFIDENTIAL)"), numeric_rows(fit, syn)))
    return sections


def numeric_rows(fit, syn) -> list:
    """Per combination: the confidential and synthetic mean (geometric means for the log-normal model, whose
    components describe log(value)), the fitted level and standard deviations, and for the normal model the share
    of negative synthetic values of a combination whose values are all >= 0."""
    from ...core.marked.numeric import synthetic_level

    comb, log_normal = fit.comb, fit.numeric.model == "log_normal"
    negative = dict(fit.numeric.negative_shares(syn.index, syn.numeric))
    rows = []
    if log_normal:
        note = tr(
            "the normal model of log(value); every synthetic value is exp of a draw, so positive. β and the standard "
            "deviations are on the log scale; exp(β) is a geometric mean."
        )
        rows.append((tr("Log-normal model"), note))
    for k, c in enumerate(fit.numeric.components):
        syn_mean = synthetic_level(fit.numeric.model, syn.numeric[syn.index == k])
        if log_normal:
            text = tr("geometric mean {0:.4g}, synthetic geometric mean {1:.4g}").format(math.exp(c.mean), syn_mean)
        else:
            text = tr("mean {0:.4g}, synthetic mean {1:.4g}").format(c.mean, syn_mean)
        if c.spatial:
            detail = tr("window-average level β {0:.4g}, spatial field sd {1:.4g}").format(c.beta, c.field_sd)
            if c.model == "normal":
                detail += ", " + tr("noise sd {0:.4g}").format(c.sigma)
            if c.hyper_note != "drawn":
                detail += " | " + tr("some standard deviations held at their estimates (posterior not peaked)")
        else:
            detail = tr("no spatial field (fewer than 10 records)")
        if k in negative:
            detail += " | " + tr(
                "{0:.1%} of the synthetic values negative though every value is ≥ 0: consider the log-normal model"
            ).format(negative[k])
        rows.append((comb.label(k), text + "; " + detail))
    return rows
