"""Utility of fully synthetic marked point data for the marks: regressions fitted on the confidential data and on
each synthetic set, the combining rules for fully synthetic data, and the overlap of confidence intervals (Quick,
Holan, Wikle & Reiter, Sections 3.1 and 4).

Regressions (the paper's two analyses of Section 4):

1. The numeric mark on the indicators of the K combinations of the category marks, no intercept. For a normal
   mark, ordinary least squares (``"ols"``): ``beta_k`` is the mean of combination k, its variance ``s^2 / n_k``
   with the pooled residual variance ``s^2 = RSS / (n - K)``. For a count mark (the paper's ages, a truncated
   Poisson), a Poisson regression with log link (``"poisson"``), fitted by iteratively reweighted least squares
   (IRLS); ``exp(beta_k)`` is the mean count of combination k and the variances are the inverse Fisher
   information.
2. A logistic regression (IRLS) of one category field being one chosen level on the indicators of the
   combinations of the other category fields (no intercept), plus the numeric mark, linear, when there is one;
   with no other category field the indicators are replaced by an intercept.

A coefficient that cannot be estimated in a data set is NaN with a reason: a combination (or group) with no
record; a group whose records are all, or none, of the chosen level (complete separation: the maximum-likelihood
estimate is infinite; its records are left out, which is the limit of the other coefficients' estimates); a count
mark that is 0 in every record of a combination; a fit that does not converge in :data:`MAX_ITER` iterations or
whose linear predictor exceeds :data:`MAX_ETA` (separation by the numeric mark); a design that is not of full rank.

Combining rules for fully synthetic data (Raghunathan, Reiter & Rubin 2003), over the m sets where the coefficient
is estimable (m >= 2), with estimates ``q_l`` and variances ``u_l``::

    qbar = mean(q_l),  b_m = var(q_l) (divisor m - 1),  ubar = mean(u_l),
    T_f = (1 + 1/m) b_m - ubar,  nu_f = (m - 1) (1 - m ubar / ((m + 1) b_m))^2,

and the 95% interval ``qbar -/+ t_{nu_f, 0.975} sqrt(T_f)``. ``T_f`` can be negative (or 0); then the adjusted
``T* = (n_syn / n) ubar`` (Reiter 2002) with a normal reference is used, and :attr:`Combined.adjusted` says so.
The confidential estimate's interval is the Wald interval ``q -/+ z_{0.975} sqrt(u)``.

Unstable combinations. ``T_f`` is a difference of two estimates; when ``(1 + 1/m) b_m`` is only a little larger
than ``ubar`` it is close to 0 and so is ``nu_f = (m - 1) r^2``, ``r = T_f / ((1 + 1/m) b_m)``: the t quantile then
explodes (``t_{1, 0.975}`` = 12.7, ``t_{0.25, 0.975}`` about 44,000) and the interval is absurdly wide (a 99%
interval of [-84,800, 91,140] for a mean of about 3,000 was seen). The variance estimator is unstable because m is
small: ``b_m`` is a variance from m values (for normal estimates ``b_m ~ B chi^2_{m-1} / (m - 1)``, relative sd
``sqrt(2 / (m - 1))``, 0.71 for m = 5), so with few sets ``(1 + 1/m) b_m`` often falls near or below ``ubar``.
More synthetic sets make that rarer; for ``T_f <= 0`` Reiter's (2002) adjusted ``T*`` above is the published
fallback. The rule is therefore kept, not replaced: a coefficient with ``nu_f <`` :data:`UNSTABLE_DF` (which is
``T_f < (1 + 1/m) b_m sqrt(UNSTABLE_DF / (m - 1))``) is flagged (:attr:`Combined.unstable`; "unstable: few
synthetic sets for this coefficient, use more SETS") and the adjusted interval ``qbar -/+ z_{0.975} sqrt(T*)``
(:attr:`Combined.adjusted_lower`, :attr:`Combined.adjusted_upper`) is reported beside it, with its overlap J. With
m <= 4 every coefficient is flagged (``nu_f < m - 1``); when the synthetic estimates vary about twice as much as
their within-set variance (``b_m`` about ``2 ubar``, as expected when n_syn = n: the posterior variance plus the
synthetic sample's own), ``nu_f = (m - 1) (m + 2)^2 / (4 (m + 1)^2)`` reaches 3 at m = 12.

Overlap of the two intervals (Karr, Kohnen, Oganian, Reiter & Sanil 2006)::

    J = (overlap / (U_orig - L_orig) + overlap / (U_syn - L_syn)) / 2,  overlap = max(0, min(U) - max(L)),

1 for identical intervals and 0 for disjoint ones (the overlap is not allowed to go negative).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError

#: IRLS iterations before a fit is declared not converged.
MAX_ITER = 50
#: Relative change of the deviance at which IRLS stops (R's glm uses 1e-8).
TOLERANCE = 1e-10
#: Largest |linear predictor| of a converged fit: beyond it the fitted probabilities are 0 or 1 to 13 digits.
MAX_ETA = 30.0
#: Two-sided level of every interval.
LEVEL = 0.95
#: Degrees of freedom nu_f below which a combined interval is flagged unstable (module docstring): below 3 the t
#: quantile grows fast (t_{3, 0.975} = 3.18, t_{2, 0.975} = 4.30, t_{1, 0.975} = 12.7).
UNSTABLE_DF = 3.0

NO_RECORDS = "no record in this data set"


@dataclass(frozen=True)
class Fit:
    """A regression fitted on one data set: ``coef`` and ``var`` (the estimate's variance) per coefficient,
    NaN with ``reasons[j]`` where coefficient j is not estimable; ``n`` records."""

    names: tuple[str, ...]
    coef: np.ndarray
    var: np.ndarray
    reasons: tuple
    n: int
    model: str

    def interval(self, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
        """The Wald interval ``coef -/+ z sqrt(var)``."""
        from scipy.stats import norm

        half = norm.ppf(0.5 + level / 2) * np.sqrt(self.var)
        return self.coef - half, self.coef + half


@dataclass(frozen=True)
class Combined:
    """One coefficient combined over the synthetic sets (module docstring): ``lower``, ``upper`` the rule's
    interval (``T_f`` with ``nu_f = df`` degrees of freedom; the adjusted ``T*`` when ``adjusted``); ``unstable``
    when ``T_f > 0`` but ``nu_f <`` :data:`UNSTABLE_DF`, and ``adjusted_lower``, ``adjusted_upper`` the interval with
    ``T* = (n_syn / n) ubar`` and a normal reference (any m >= 2), to be reported beside an unstable one."""

    qbar: float
    b_m: float
    ubar: float
    total: float
    df: float
    m: int
    adjusted: bool
    lower: float
    upper: float
    reason: str | None = None
    unstable: bool = False
    adjusted_lower: float = np.nan
    adjusted_upper: float = np.nan


# -- model fitting --------------------------------------------------------------------------------------------


def irls(xm: np.ndarray, y: np.ndarray, family: str) -> tuple[np.ndarray, np.ndarray, str | None]:
    """Maximum-likelihood fit of a GLM with canonical link (``"logistic"``: logit, ``"poisson"``: log) by
    iteratively reweighted least squares. Returns ``(beta, covariance, problem)``; ``problem`` is ``None`` or why
    the fit failed (then beta and covariance are NaN)."""
    n, p = xm.shape
    nan = (np.full(p, np.nan), np.full((p, p), np.nan))
    if np.linalg.matrix_rank(xm) < p:
        return (*nan, "the design is not of full rank (a predictor is constant within the groups)")
    if family == "logistic":
        mu = (y + 0.5) / 2.0
        eta = np.log(mu / (1.0 - mu))
    elif family == "poisson":
        mu = y + 0.1
        eta = np.log(mu)
    else:
        raise ValueError(f"unknown family {family!r}")
    deviance_old = np.inf
    for _ in range(MAX_ITER):
        w = mu * (1.0 - mu) if family == "logistic" else mu
        z = eta + (y - mu) / w
        xtwx = xm.T @ (xm * w[:, None])
        try:
            beta = np.linalg.solve(xtwx, xm.T @ (w * z))
        except np.linalg.LinAlgError:
            return (*nan, "the weighted design became singular (separation)")
        eta = np.clip(xm @ beta, -700.0, 700.0)
        if family == "logistic":
            mu = 1.0 / (1.0 + np.exp(-eta))
            with np.errstate(divide="ignore", invalid="ignore"):
                deviance = -2.0 * np.sum(np.where(y > 0, np.log(mu), np.log1p(-mu)))
        else:
            mu = np.exp(eta)
            with np.errstate(divide="ignore", invalid="ignore"):
                deviance = 2.0 * np.sum(np.where(y > 0, y * np.log(y / mu), 0.0) - (y - mu))
        if abs(deviance - deviance_old) <= TOLERANCE * (abs(deviance) + 0.1):
            break
        deviance_old = deviance
    else:
        return (*nan, f"the fit did not converge in {MAX_ITER} iterations (separation by the numeric mark?)")
    if np.abs(eta).max() > MAX_ETA:
        return (*nan, "fitted probabilities of 0 or 1 (separation by the numeric mark?)")
    w = mu * (1.0 - mu) if family == "logistic" else mu
    return beta, np.linalg.inv(xm.T @ (xm * w[:, None])), None


def _indicator_fit(groups: np.ndarray, response: np.ndarray, n_groups: int, extra, family: str, names, bad):
    """Fit ``response`` on the indicators of ``groups`` (0..n_groups-1; or an intercept when ``n_groups == 0``)
    plus the column ``extra`` (or ``None``). ``bad[g]``: a reason to leave group g out (its records too)."""
    p = max(n_groups, 1) + (extra is not None)
    coef, var = np.full(p, np.nan), np.full(p, np.nan)
    reasons: list = [None] * p
    keep_groups = [g for g in range(n_groups) if bad[g] is None]
    for g in range(n_groups):
        reasons[g] = bad[g]
    rows = np.isin(groups, keep_groups) if n_groups else np.ones(groups.size, bool)
    columns = [(groups[rows] == g).astype(float) for g in keep_groups] if n_groups else [np.ones(int(rows.sum()))]
    slots = keep_groups if n_groups else [0]
    scale = 1.0
    if extra is not None:
        values = extra[rows]
        if values.size and np.abs(values).max() > 0:
            scale = float(np.abs(values).max())
        columns.append(values / scale)
        slots = slots + [p - 1]
    if not slots[: len(slots) - (extra is not None)] or not rows.any():
        for j in range(p):
            reasons[j] = reasons[j] or "no group left to fit"
        return Fit(tuple(names), coef, var, tuple(reasons), int(groups.size), family)
    beta, cov, problem = irls(np.column_stack(columns), response[rows], family)
    if problem is None and extra is not None:
        beta = beta.copy()
        beta[-1] /= scale
        cov = cov.copy()
        cov[-1, :] /= scale
        cov[:, -1] /= scale
    for column, slot in enumerate(slots):
        coef[slot] = beta[column]
        var[slot] = cov[column, column]
        reasons[slot] = problem
    return Fit(tuple(names), coef, var, tuple(reasons), int(groups.size), family)


def numeric_regression(index, numeric, labels, model: str) -> Fit:
    """The numeric mark on the indicators of the combinations, no intercept (module docstring, analysis 1).

    Args:
        index: ``(n,)`` combination of each record, 0..K-1.
        numeric: ``(n,)`` numeric mark.
        labels: the K combinations' names.
        model: ``"ols"`` (normal mark) or ``"poisson"`` (count mark: whole numbers >= 0).
    """
    index = np.asarray(index, dtype=np.int64)
    numeric = np.asarray(numeric, dtype=np.float64)
    k = len(labels)
    counts = np.bincount(index, minlength=k)
    if model == "ols":
        coef, var = np.full(k, np.nan), np.full(k, np.nan)
        reasons: list = [None] * k
        sums = np.bincount(index, weights=numeric, minlength=k)
        present = counts > 0
        coef[present] = sums[present] / counts[present]
        df = index.size - int(present.sum())
        rss = float(np.sum((numeric - np.where(present, coef, 0.0)[index]) ** 2))
        for g in range(k):
            if not present[g]:
                reasons[g] = NO_RECORDS
            elif df <= 0:
                reasons[g] = "no residual degrees of freedom (one record per combination): no variance"
            else:
                var[g] = rss / df / counts[g]
        return Fit(tuple(labels), coef, var, tuple(reasons), int(index.size), model)
    if model != "poisson":
        raise ParameterError("model", f"unknown regression model {model!r}; use 'ols' or 'poisson'")
    if (numeric < 0).any() or not np.all(numeric == np.round(numeric)):
        raise ParameterError("numeric", "a Poisson regression needs whole numbers >= 0")
    totals = np.bincount(index, weights=numeric, minlength=k)
    bad = [
        NO_RECORDS
        if counts[g] == 0
        else "the mark is 0 in every record: the estimate is -infinity"
        if totals[g] == 0
        else None
        for g in range(k)
    ]
    return _indicator_fit(index, numeric, k, None, "poisson", labels, bad)


@dataclass(frozen=True)
class LogisticDesign:
    """How the combinations map onto the logistic regression: ``response[k]`` whether combination k has the chosen
    level, ``group[k]`` its group (combination of the other category fields; all 0 with none), ``names`` the
    coefficients' names."""

    response: np.ndarray
    group: np.ndarray
    n_groups: int
    names: tuple[str, ...]
    title: str


def logistic_design(fields, levels, field: str, level, numeric_name: str | None = None) -> LogisticDesign:
    """The logistic regression of ``field == level`` on the other category fields (and the numeric mark).

    Args:
        fields: the category field names; ``levels[k]`` the level tuple of combination k (core.marked.combinations).
        field: the modelled field, one of ``fields``; ``level``: its chosen level (the event).
        numeric_name: the numeric mark's name, or ``None``.
    """
    fields = tuple(fields)
    if field not in fields:
        raise ParameterError("logistic_field", f"'{field}' is not one of the category fields {', '.join(fields)}")
    position = fields.index(field)
    values = {combo[position] for combo in levels}
    if level not in values:
        raise ParameterError(
            "logistic_level", f"'{level}' is not a level of '{field}' (levels: {', '.join(map(str, values))})"
        )
    response = np.array([combo[position] == level for combo in levels], dtype=float)
    others = [j for j in range(len(fields)) if j != position]
    keys: dict = {}
    for combo in levels:
        keys.setdefault(tuple(combo[j] for j in others), len(keys))
    group = np.array([keys[tuple(combo[j] for j in others)] for combo in levels], dtype=np.int64)
    if others:
        names = [", ".join(f"{fields[j]}={v}" for j, v in zip(others, key)) for key in keys]
        n_groups = len(keys)
    else:
        names, n_groups = ["(intercept)"], 0
    if numeric_name is not None:
        names.append(numeric_name)
    title = f"logit P({field}={level})"
    return LogisticDesign(response, group, n_groups, tuple(names), title)


def logistic_regression(design: LogisticDesign, index, numeric=None) -> Fit:
    """The logistic regression of :func:`logistic_design` on one data set (records' combination ``index`` and,
    if the design has it, their ``numeric`` mark)."""
    index = np.asarray(index, dtype=np.int64)
    response = design.response[index]
    groups = design.group[index]
    bad = []
    for g in range(design.n_groups):
        mine = response[groups == g]
        if mine.size == 0:
            bad.append(NO_RECORDS)
        elif mine.min() == mine.max():
            bad.append(
                f"all {mine.size} records {'have' if mine[0] else 'lack'} the level (separation: the estimate is "
                f"{'+' if mine[0] else '-'}infinity)"
            )
        else:
            bad.append(None)
    if design.n_groups == 0 and (response.size == 0 or response.min() == response.max()):
        names = design.names
        reason = NO_RECORDS if response.size == 0 else "every record has the same outcome (separation)"
        nan = np.full(len(names), np.nan)
        return Fit(names, nan, nan.copy(), (reason,) * len(names), int(index.size), "logistic")
    extra = None if numeric is None else np.asarray(numeric, dtype=np.float64)
    return _indicator_fit(groups, response, design.n_groups, extra, "logistic", design.names, bad)


# -- combining rules ------------------------------------------------------------------------------------------


def combine(q: np.ndarray, u: np.ndarray, n_syn: float, n: float, level: float = LEVEL) -> Combined:
    """One coefficient's estimates ``q`` and variances ``u`` over the synthetic sets combined by the rules for
    fully synthetic data (module docstring); NaN entries (not estimable in that set) are left out."""
    from scipy.stats import norm, t

    q = np.asarray(q, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    ok = np.isfinite(q) & np.isfinite(u)
    m = int(ok.sum())
    if m < 2:
        return Combined(*([np.nan] * 5), m, False, np.nan, np.nan, f"estimable in {m} synthetic set(s); 2 needed")
    q, u = q[ok], u[ok]
    qbar, b_m, ubar = float(q.mean()), float(q.var(ddof=1)), float(u.mean())
    adjusted_total = n_syn / n * ubar  # Reiter's (2002) T*, normal reference
    adjusted_half = float(norm.ppf(0.5 + level / 2)) * np.sqrt(adjusted_total)
    adjusted = (qbar - adjusted_half, qbar + adjusted_half)
    total = (1.0 + 1.0 / m) * b_m - ubar
    if total > 0:
        df = (m - 1) * (1.0 - m * ubar / ((m + 1) * b_m)) ** 2
        half = float(t.ppf(0.5 + level / 2, df)) * np.sqrt(total)
        unstable = bool(df < UNSTABLE_DF)
        return Combined(qbar, b_m, ubar, total, df, m, False, qbar - half, qbar + half, None, unstable, *adjusted)
    return Combined(qbar, b_m, ubar, adjusted_total, np.inf, m, True, *adjusted, None, False, *adjusted)


def overlap(lower_orig, upper_orig, lower_syn, upper_syn) -> float:
    """Karr et al.'s (2006) interval overlap J in [0, 1] (module docstring); NaN if an interval is missing or has
    length 0."""
    values = np.array([lower_orig, upper_orig, lower_syn, upper_syn], dtype=np.float64)
    if not np.isfinite(values).all() or upper_orig <= lower_orig or upper_syn <= lower_syn:
        return float("nan")
    common = max(0.0, min(upper_orig, upper_syn) - max(lower_orig, lower_syn))
    return 0.5 * (common / (upper_orig - lower_orig) + common / (upper_syn - lower_syn))


@dataclass(frozen=True)
class RegressionRow:
    """One coefficient: the confidential estimate and interval, the combined synthetic one, and J."""

    name: str
    estimate: float
    lower: float
    upper: float
    combined: Combined
    overlap: float
    note: str | None
    adjusted_overlap: float = np.nan  #: J of the confidential and the adjusted interval (reported when unstable)


def compare(original: Fit, synthetic: list[Fit]) -> list[RegressionRow]:
    """The confidential fit against the synthetic fits combined coefficient by coefficient."""
    lower, upper = original.interval()
    sizes = np.array([fit.n for fit in synthetic], dtype=float)
    rows = []
    for j, name in enumerate(original.names):
        q = np.array([fit.coef[j] for fit in synthetic])
        u = np.array([fit.var[j] for fit in synthetic])
        combined = combine(q, u, float(sizes.mean()), float(original.n))
        notes = []
        if original.reasons[j]:
            notes.append(f"confidential data: {original.reasons[j]}")
        missing = [fit.reasons[j] for fit in synthetic if fit.reasons[j]]
        if missing:
            common = max(set(missing), key=missing.count)
            notes.append(f"not estimable in {len(missing)} of {len(synthetic)} sets (e.g. {common})")
        if combined.reason:
            notes.append(combined.reason)
        if combined.adjusted:
            notes.append("T_f <= 0: adjusted variance (n_syn / n) ubar with a normal reference (Reiter 2002)")
        j_value = overlap(lower[j], upper[j], combined.lower, combined.upper)
        j_adjusted = overlap(lower[j], upper[j], combined.adjusted_lower, combined.adjusted_upper)
        rows.append(
            RegressionRow(
                name,
                float(original.coef[j]),
                float(lower[j]),
                float(upper[j]),
                combined,
                j_value,
                "; ".join(notes) or None,
                j_adjusted,
            )
        )
    return rows


def numeric_model(numeric, syn_numeric, integer_field: bool) -> str:
    """``"poisson"`` for a count mark (an integer field whose values are whole numbers >= 0 in the confidential
    and the synthetic records, as the truncated Poisson model writes them), else ``"ols"``."""
    values = np.concatenate([np.asarray(numeric, dtype=float), np.asarray(syn_numeric, dtype=float)])
    whole = bool(integer_field and (values >= 0).all() and (values == np.round(values)).all())
    return "poisson" if whole else "ols"


def _parts(syn_set, sets: int) -> list:
    syn_set = np.asarray(syn_set)
    return [np.flatnonzero(syn_set == s + 1) for s in range(sets)]


def compare_numeric(index, numeric, syn_index, syn_numeric, syn_set, sets: int, labels, model: str) -> list:
    """Analysis 1 on the confidential records and on each of the ``sets`` synthetic sets (``syn_set`` 1..L),
    combined (:func:`compare`)."""
    original = numeric_regression(index, numeric, labels, model)
    synthetic = [
        numeric_regression(np.asarray(syn_index)[p], np.asarray(syn_numeric)[p], labels, model)
        for p in _parts(syn_set, sets)
    ]
    return compare(original, synthetic)


def compare_logistic(design: LogisticDesign, index, numeric, syn_index, syn_numeric, syn_set, sets: int) -> list:
    """Analysis 2 (:func:`logistic_design`) on the confidential records and on each synthetic set, combined."""
    original = logistic_regression(design, index, numeric)
    synthetic = [
        logistic_regression(
            design, np.asarray(syn_index)[p], None if syn_numeric is None else np.asarray(syn_numeric)[p]
        )
        for p in _parts(syn_set, sets)
    ]
    return compare(original, synthetic)
