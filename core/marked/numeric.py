"""The numeric mark of Quick, Holan, Wikle & Reiter (Section 2.3, eqs. 4-5), per combination of categories, on the
SPDE mesh of the location model.

Three models, chosen by the user:

* ``"normal"`` (eq. 4): ``Y = beta_k + w_k(s) + eps``, ``eps ~ N(0, sigma_k^2)``, with ``w_k`` a Matérn (nu = 1)
  SPDE field on the mesh (Lindgren, Rue & Lindström 2011), the spatial random effect the paper builds with the
  modified predictive process (eq. 5): the same model family, a finite-element field instead of knots (the
  predictive process needs eq. 5's correction because its knots smooth the field; the FEM field is the model
  itself). The range is FIXED at the pooled location LGCP's posterior-mean range (the paper fixes phi_Y too,
  Section 2.5). The field is constrained to average zero over the window (core.marked.numeric_field), so that
  ``beta_k`` is the combination's window-average level: without it a field of window-sized range trades its
  level off against ``beta_k``. Flat prior on ``beta_k``; flat priors on ``log s_k`` (the field's sd) and
  ``log sigma_k``, whose posterior is approximated by a Gaussian at the mode of the exact marginal likelihood
  (sparse banded Cholesky, core.linalg); each synthetic set draws ``(s_k, sigma_k)`` from it and then
  ``(beta_k, w_k)`` from their exact Gaussian posterior given the draw (the paper's Section 3: each set's
  parameters an approximately independent posterior draw).
* ``"truncated_poisson"`` (the paper's age model, Section 4): ``Y ~ Poisson(exp(beta_k + w_k(s)))`` truncated to
  the PUBLIC support ``[lower, upper]`` the user gives (never the data's own minimum and maximum, which are
  confidential), the field constrained in the same way, fitted by a Laplace approximation (Newton on
  ``(w_k, beta_k)``), ``beta_k ~ N(0, 10^2)``; ``log s_k`` (flat prior) drawn per set from the Gaussian
  approximation of its Laplace marginal likelihood, then ``(beta_k, w_k)`` from the Laplace posterior at it.
* ``"log_normal"``: eq. 4 on the logarithm, ``log Y = beta_k + w_k(s) + eps``, for positive, skewed numbers such as
  a turnover or an income (the normal model puts a skewed positive variable's posterior predictive partly below
  zero: about a quarter of the synthetic productions of the sdcSpatial enterprises). Everything is the normal
  model above (constrained field, per-set hyperparameter draws, the small combinations' pooled variance) fitted to
  ``log y``; a synthetic value is ``exp`` of the normal model's posterior predictive draw, so it is positive and
  ``beta_k`` is the window-average of the log: ``exp(beta_k)`` a geometric mean (and the median of the noise).
  The components (:class:`NumericComponent`) then describe ``log y`` (their ``model`` is ``"normal"``; their
  ``mean`` the mean of ``log y``). Values ``<= 0`` are refused (:func:`check_numeric`).

Hyperparameters whose posterior is not peaked (the mode on the search bound, e.g. a field sd of zero) are held
at their mode (:attr:`NumericComponent.hyper`'s note; the caller warns).

Combinations with fewer than :data:`MIN_FIELD_RECORDS` records get no field (their records cannot inform one):
normal: ``Y = beta_k + eps`` with ``eps ~ N(0, sigma^2)`` sharing the pooled within-combination variance over
all records (flat prior: ``sigma^2 | Y ~ SS_within / chi^2_{N-K}``, ``beta_k | sigma^2 ~ N(ybar_k, sigma^2 /
n_k)``, exact draws); truncated Poisson: ``log rate = beta_k`` by a one-dimensional Laplace approximation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy.special import logsumexp

from .. import mechanisms
from ..errors import ParameterError
from .numeric_field import (
    HYPER_DRAWN,
    FieldContext,
    HyperPosterior,
    hyper_laplace,
    normal_posterior,
    tp_laplace,
    tp_table,
)

#: The numeric models, in the order of the processing algorithm's NUMERIC_MODEL enum (new ones are appended).
MODELS = ("normal", "truncated_poisson", "log_normal")
#: A combination needs this many records for its own spatial field (the LGCP's minimum, core.lgcp_setup).
MIN_FIELD_RECORDS = 10
#: Widest public support of the truncated Poisson (its normalising sum runs over every value).
MAX_SUPPORT = 5000


@dataclass
class NumericComponent:
    """The fitted numeric model of one combination: its posterior at the hyperparameters' centre (``fit``, a
    core.marked.numeric_field.ConstrainedGaussian with a field, a core.lgcp.LaplaceFit without), the
    hyperparameters' posterior ``hyper`` (with a field) and their centre ``field_sd``, ``sigma`` (normal), the
    posterior mean ``beta`` (the window-average level with a field), the records' ``mean`` and ``n``; without a
    field, for the normal model, the pooled-variance posterior (``ss_within``, ``df``)."""

    model: str
    spatial: bool
    fit: object = None
    sigma: float = math.nan
    field_sd: float = math.nan
    mean: float = math.nan
    n: int = 0
    ss_within: float = math.nan
    df: int = 0
    beta: float = math.nan
    hyper: HyperPosterior | None = None
    data: tuple | None = None  #: ``(context, projection, values)`` to refit at drawn hyperparameters
    nonnegative: bool = False  #: every confidential value of the combination is >= 0 (for the negative-values warning)

    @property
    def hyper_note(self) -> str:
        return self.hyper.note if self.hyper is not None else HYPER_DRAWN


@dataclass
class NumericFit:
    """Per combination (``components[k]``) the model of the numeric mark; ``support`` for the truncated Poisson.
    For ``model == "log_normal"`` the components are normal models of ``log y`` (module notes)."""

    model: str
    components: list
    support: tuple[int, int] | None
    log_range: float

    def draw_parameters(self, rng: np.random.Generator, sets: int, progress=None) -> list:
        """``sets`` posterior draws of each combination's parameters: ``out[k] = (beta (sets,), w (sets, n) or
        None, sigma (sets,) or None)``; with a field, each set draws its hyperparameters, then ``(beta, w)``
        given them (one sparse factorisation per set and combination)."""
        from ..progress import report

        out = []
        for k, c in enumerate(self.components):
            report(progress, k / len(self.components), "Drawing the numeric mark's parameters")
            if c.spatial:
                ctx, proj, y = c.data
                theta = c.hyper.draw(rng, sets)
                beta, w = np.empty(sets), np.empty((sets, ctx.n))
                for ell in range(sets):
                    if c.model == "normal":
                        post = normal_posterior(ctx, proj, y, theta[ell, 0], theta[ell, 1])[1]
                    else:
                        start = (c.fit.w, c.fit.beta)
                        post = tp_laplace(ctx, theta[ell, 0], proj, y, self.support, start=start)[1]
                    b, ww = post.draw(rng, 1)
                    beta[ell], w[ell] = b[0, 0], ww[0]
                sigma = np.exp(np.ascontiguousarray(theta[:, 1])) if c.model == "normal" else None
                out.append((beta, w, sigma))
            elif c.model == "truncated_poisson":
                beta, _ = c.fit.draw(rng, sets)
                out.append((beta[:, 0], None, None))
            else:  # flat prior, shared variance: sigma^2 = SS / chi^2_df, beta | sigma^2 ~ N(ybar, sigma^2 / n)
                chi = np.array([mechanisms.chi_square(rng, c.df) for _ in range(sets)])
                sigma = np.sqrt(c.ss_within / chi)
                beta = c.mean + sigma / math.sqrt(c.n) * mechanisms.standard_normals(rng, sets)
                out.append((beta, None, sigma))
        return out

    def sample(self, rng, k: int, params, proj) -> np.ndarray:
        """Synthetic values of combination k at locations with mesh projection ``proj``, given one draw
        ``params = (beta, w, sigma)`` (scalars / a vector) of its parameters (Section 3's posterior predictive)."""
        beta, w, sigma = params
        m = proj.shape[0]
        eta = np.full(m, float(beta)) if w is None else float(beta) + proj @ w
        if self.model == "normal":
            return eta + float(sigma) * mechanisms.standard_normals(rng, m)
        if self.model == "log_normal":  # the normal model's posterior predictive of log y, exponentiated
            return np.exp(eta + float(sigma) * mechanisms.standard_normals(rng, m))
        return truncated_poisson_draws(rng, eta, *self.support)

    def negative_shares(self, syn_index: np.ndarray, syn_numeric: np.ndarray) -> list[tuple[int, float]]:
        """The normal model only: ``(k, share)`` for each combination whose confidential values are all >= 0 but
        a ``share`` > 0 of whose synthetic values (``syn_numeric`` of the records with combination ``syn_index``)
        are negative (empty for the other models, whose values cannot be negative). The share is a property of
        the synthetic values, which are published; whether the confidential values are >= 0 is not, and is for
        the data steward's log."""
        if self.model != "normal":
            return []
        out = []
        for k, c in enumerate(self.components):
            values = syn_numeric[syn_index == k]
            if c.nonnegative and values.size and (values < 0).any():
                out.append((k, float(np.mean(values < 0))))
        return out


def synthetic_level(model: str, values: np.ndarray) -> float:
    """The level of synthetic values a report sets beside a combination's fitted one: the geometric mean for the
    log-normal model (whose components describe log(value)), else the mean; NaN without values."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return math.nan
    return float(np.exp(np.mean(np.log(values)))) if model == "log_normal" else float(np.mean(values))


def truncated_poisson_draws(rng: np.random.Generator, eta: np.ndarray, lower: int, upper: int) -> np.ndarray:
    """One draw per entry of ``Poisson(exp(eta))`` truncated to ``{lower..upper}``, by inverting its CDF with
    uniforms (core.mechanisms)."""
    eta = np.asarray(eta, dtype=np.float64)
    j, lg = tp_table(lower, upper)
    u = mechanisms.uniforms(rng, eta.size)
    out = np.empty(eta.size, dtype=np.int64)
    block = max(1, 2_000_000 // j.size)
    for start in range(0, eta.size, block):
        e = eta[start : start + block]
        terms = e[:, None] * j[None, :] - lg[None, :]
        cdf = np.cumsum(np.exp(terms - logsumexp(terms, axis=1)[:, None]), axis=1)
        pick = (cdf < u[start : start + block, None] * cdf[:, -1:]).sum(axis=1)
        out[start : start + block] = lower + np.minimum(pick, j.size - 1)
    return out


# -- fitting -------------------------------------------------------------------------------------------------


def check_numeric(values, model: str, support) -> tuple[np.ndarray, tuple[int, int] | None]:
    """The numeric values as floats, checked for the model: finite; for the truncated Poisson whole numbers in
    the public ``support = (lower, upper)`` (required)."""
    if model not in MODELS:
        raise ParameterError("numeric_model", f"unknown numeric model {model!r}; use one of {MODELS}")
    y = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(y)):
        raise ParameterError("numeric_field", f"{int(np.sum(~np.isfinite(y)))} values are not finite numbers")
    if model == "normal":
        return y, None
    if model == "log_normal":
        bad = y <= 0
        if bad.any():
            raise ParameterError(
                "numeric_field",
                f"{int(bad.sum())} values are zero or negative: the log-normal model is for positive numbers (it "
                "models their logarithm); choose the normal model for numbers that can be zero or negative",
            )
        return y, None
    if support is None:
        raise ParameterError(
            "numeric_range",
            "the truncated Poisson model needs the PUBLIC range of the values (e.g. 0 to 120 for an age): give it; "
            "it is not taken from the data, whose smallest and largest values are confidential",
        )
    lower, upper = support
    if not (float(lower).is_integer() and float(upper).is_integer() and 0 <= lower < upper):
        raise ParameterError("numeric_range", f"the range must be two whole numbers 0 <= lower < upper, got {support}")
    lower, upper = int(lower), int(upper)
    if upper - lower + 1 > MAX_SUPPORT:
        raise ParameterError("numeric_range", f"the range may hold at most {MAX_SUPPORT} values, got {support}")
    whole = y == np.round(y)
    if not whole.all():
        raise ParameterError(
            "numeric_field",
            f"{int((~whole).sum())} values are not whole numbers: the truncated Poisson model is for counts such as "
            "an age in years; choose the normal model for other numbers",
        )
    outside = (y < lower) | (y > upper)
    if outside.any():
        raise ParameterError(
            "numeric_range",
            f"{int(outside.sum())} values lie outside the range {lower} to {upper}: give a range that holds every "
            "possible value",
        )
    return y, (lower, upper)


def _maximise(f, start: np.ndarray, bounds) -> np.ndarray:
    """The mode of ``f`` (a log marginal likelihood of the log hyperparameters) within ``bounds``."""

    def negative(t):
        try:
            value = f(t)
        except (np.linalg.LinAlgError, ValueError, ArithmeticError):
            return 1e300
        return -value if math.isfinite(value) else 1e300

    if start.size == 1:
        result = optimize.minimize_scalar(
            lambda t: negative(np.array([t])), bounds=bounds[0], method="bounded", options={"xatol": 0.01}
        )
        return np.array([float(result.x)])
    result = optimize.minimize(negative, start, method="L-BFGS-B", bounds=bounds, options={"maxiter": 80})
    return np.asarray(result.x, dtype=np.float64)


def _safe(f):
    def g(t):
        try:
            value = f(t)
        except (np.linalg.LinAlgError, ValueError, ArithmeticError):
            return -math.inf
        return value if math.isfinite(value) else -math.inf

    return g


def fit_normal_field(ctx: FieldContext, proj, y: np.ndarray) -> NumericComponent:
    """``y = beta + A w + eps``, ``w ~ N(0, s^2 Q1^{-1})`` given ``a'w = 0``, flat priors on beta, ``log s`` and
    ``log sigma``: the mode of the exact log marginal likelihood in ``(log s, log sigma)``, its Laplace
    approximation (core.marked.numeric_field.hyper_laplace) and the Gaussian posterior of ``(w, beta)`` at the
    centre (module notes)."""
    sd = float(np.std(y)) or 1.0
    f = _safe(lambda t: normal_posterior(ctx, proj, y, t[0], t[1])[0])
    centre = math.log(sd)
    bounds = [(centre - 8.0, centre + 3.0), (centre - 8.0, centre + 1.0)]
    mode = _maximise(f, np.array([centre - 0.5, centre - 0.3]), bounds)
    hyper = hyper_laplace(f, mode, bounds, priority=(1,))
    log_s, log_sigma = hyper.centre
    post = normal_posterior(ctx, proj, y, log_s, log_sigma)[1]
    return NumericComponent(
        "normal",
        True,
        post,
        sigma=math.exp(log_sigma),
        field_sd=math.exp(log_s),
        mean=float(np.mean(y)),
        n=y.size,
        beta=float(post.beta[0]),
        hyper=hyper,
        data=(ctx, proj, y),
    )


def fit_tp_field(ctx: FieldContext, proj, y, support) -> NumericComponent:
    """The truncated Poisson with a constrained field: ``log s`` maximises the Laplace marginal likelihood
    (bounded one-dimensional search), its Laplace approximation, and the Laplace fit at its centre (each fit
    starts from the previous mode)."""
    cache, last = {}, {}

    def at(log_s):
        key = round(float(log_s), 8)
        if key not in cache:
            cache[key] = tp_laplace(ctx, log_s, proj, y, support, start=last.get("start"))
            post = cache[key][1]
            last["start"] = (post.w, post.beta)
        return cache[key]

    f = _safe(lambda t: at(t[0])[0])
    bounds = [(-5.0, 1.5)]
    mode = _maximise(f, np.array([-1.0]), bounds)
    hyper = hyper_laplace(f, mode, bounds, priority=(0,))
    post = at(hyper.centre[0])[1]
    return NumericComponent(
        "truncated_poisson",
        True,
        post,
        field_sd=math.exp(hyper.centre[0]),
        mean=float(np.mean(y)),
        n=y.size,
        beta=float(post.beta[0]),
        hyper=hyper,
        data=(ctx, proj, y),
    )


def fit_numeric(
    model: str,
    y: np.ndarray,
    index: np.ndarray,
    k_total: int,
    spde,
    mesh,
    x,
    yy,
    log_range: float,
    support,
    window_weights: np.ndarray,
    progress=None,
) -> NumericFit:
    """Fit the numeric mark ``y`` per combination (``index``): with a field (range ``exp(log_range)`` fixed,
    averaging zero over the window: ``window_weights`` are the nodes' integrals over the window) when a
    combination has at least :data:`MIN_FIELD_RECORDS` records, else without (module notes). The log-normal
    model is the normal one fitted to ``log y`` (``y`` > 0, checked by :func:`check_numeric`)."""
    from ..progress import report

    ctx = FieldContext.build(spde, log_range, window_weights)
    components = []
    nonnegative = [bool((y[index == k] >= 0).all()) for k in range(k_total)]
    fit_model = "normal" if model == "log_normal" else model
    if model == "log_normal":
        y = np.log(y)
    # the pooled within-combination variance of the normal model's small combinations (flat prior, df N - K)
    means = np.array([y[index == k].mean() for k in range(k_total)])
    ss_within = float(np.sum((y - means[index]) ** 2))
    df = max(y.size - k_total, 1)
    if fit_model == "normal" and ss_within <= 0:
        ss_within = float(np.var(y) * y.size) or 1e-12
    for k in range(k_total):
        report(progress, k / k_total, "Fitting the numeric mark")
        rows = np.flatnonzero(index == k)
        yk = y[rows]
        if rows.size >= MIN_FIELD_RECORDS:
            proj = mesh.projection(x[rows], yy[rows])
            if fit_model == "normal":
                components.append(fit_normal_field(ctx, proj, yk))
            else:
                components.append(fit_tp_field(ctx, proj, yk, support))
        elif fit_model == "normal":
            components.append(
                NumericComponent(
                    "normal",
                    False,
                    mean=float(yk.mean()),
                    n=rows.size,
                    ss_within=ss_within,
                    df=df,
                    beta=float(yk.mean()),
                )
            )
        else:
            post = tp_laplace(None, 0.0, None, yk, support)[1]
            components.append(
                NumericComponent(
                    "truncated_poisson", False, post, mean=float(yk.mean()), n=rows.size, beta=float(post.beta[0])
                )
            )
    for c, flag in zip(components, nonnegative):
        c.nonnegative = flag
    report(progress, 1.0, "Numeric mark fitted")
    return NumericFit(model, components, support, log_range)
