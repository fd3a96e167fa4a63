"""Quick, Holan, Wikle & Reiter's fully synthetic data sets (Section 3) from a fitted marked point process
(:mod:`.model`).

For each set l = 1..L, with posterior draw l of every parameter:

1. the combination counts: ``theta^(l) ~ Dir(n + 1/K)``, ``n^dagger(l) ~ Mult(N, theta^(l))``
   (:meth:`.combinations.Combinations.draw_counts`);
2. the locations of combination k: ``n_k^dagger(l)`` points i.i.d. from its drawn intensity ``lambda_k^(l)``
   normalised over the window (the LGCP given its count, Section 3), either exactly (core.synthesis.walder.
   sample_exact: the intensity log-linear on each mesh triangle, covariates interpolated from the nodes) or, with
   a candidate pool (e.g. a layer of addresses), ``P(s_j) = lambda_k^(l)(s_j) / sum_j lambda_k^(l)(s_j)`` over
   the candidates (covariates evaluated at them), with replacement (the paper's recommendation) or without
   (then no candidate is used twice within a set);
3. the numeric mark from its posterior predictive at each synthetic location (:mod:`.numeric`).

The records of a set are returned in random order (combination by combination would show which were drawn
together).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import mechanisms
from ..errors import ParameterError
from ..progress import Progress, report
from ..synthesis.walder import sample_exact
from .model import MarkedFit


@dataclass(frozen=True)
class Candidates:
    """A candidate pool: locations inside the window, with the covariates (intercept column first) and log
    offset at them and their mesh projection."""

    x: np.ndarray
    y: np.ndarray
    design: np.ndarray
    offset: np.ndarray
    proj: object
    outside: int = 0  #: how many candidates given lay outside the window and were left out

    @classmethod
    def build(cls, fit: MarkedFit, x, y) -> Candidates:
        x = np.asarray(x, dtype=np.float64).ravel()
        y = np.asarray(y, dtype=np.float64).ravel()
        inside = fit.window.contains(x, y)
        if not inside.any():
            raise ParameterError("candidates", "no candidate location lies inside the study window (check the CRS)")
        x, y = x[inside], y[inside]
        design, offset = fit.pooled.design_at(x, y, name="candidates")
        return cls(x, y, design, offset, fit.pooled.mesh.projection(x, y), int((~inside).sum()))

    @property
    def size(self) -> int:
        return int(self.x.size)


@dataclass(frozen=True)
class MarkedSynthesis:
    """All L sets: per record its location, ``set`` (1..L), combination ``index`` and numeric value (or None)."""

    x: np.ndarray
    y: np.ndarray
    set: np.ndarray
    index: np.ndarray
    numeric: np.ndarray | None
    counts: np.ndarray  #: (L, K) the synthetic combination counts n^dagger(l)


def _with_replacement(rng, log_weights: np.ndarray, size: int) -> np.ndarray:
    """``size`` indices i.i.d. with probability proportional to ``exp(log_weights)``, by inverting the CDF."""
    weights = np.exp(log_weights - np.max(log_weights))
    cdf = np.cumsum(weights)
    u = mechanisms.uniforms(rng, size) * cdf[-1]
    return np.minimum(np.searchsorted(cdf, u, side="right"), cdf.size - 1)


def synthesize_marked(
    fit: MarkedFit,
    rng: np.random.Generator,
    sets: int | None = None,
    candidates: Candidates | None = None,
    replace: bool = True,
    progress: Progress = None,
) -> MarkedSynthesis:
    """``sets`` (default: the fit's L) fully synthetic data sets of N records each (module notes)."""
    sets = fit.sets if sets is None else int(sets)
    if not 1 <= sets <= fit.sets:
        raise ParameterError("sets", f"the fit holds posterior draws for {fit.sets} sets, asked for {sets}")
    comb, n = fit.comb, fit.comb.n
    if candidates is not None and not replace and candidates.size < n:
        raise ParameterError(
            "candidates",
            f"without replacement every synthetic set needs {n} distinct candidates (one per record), but the pool "
            f"has {candidates.size} inside the window: give more candidates, or sample with replacement",
        )
    params = fit.numeric.draw_parameters(rng, sets) if fit.numeric is not None else None
    xs, ys, set_no, idx, values, counts = [], [], [], [], [], []
    for ell in range(sets):
        report(progress, ell / sets, f"Synthetic set {ell + 1} of {sets}")
        n_dagger = comb.draw_counts(rng)
        counts.append(n_dagger)
        used = np.zeros(candidates.size, dtype=bool) if candidates is not None and not replace else None
        sx, sy, sk, sv = [], [], [], []
        for k in np.flatnonzero(n_dagger):
            m = int(n_dagger[k])
            if candidates is None:
                px, py = sample_exact(fit.pooled.mesh, fit.window, fit.eta_nodes(k, ell), m, rng)
                proj = fit.pooled.mesh.projection(px, py) if params is not None else None
            else:
                log_w = fit.log_intensity(k, ell, candidates.proj, candidates.design, candidates.offset)
                if used is None:
                    pick = _with_replacement(rng, log_w, m)
                else:
                    weights = np.exp(log_w - np.max(log_w[~used]))
                    weights[used] = 0.0
                    if np.count_nonzero(weights) < m:  # underflow of far-off candidates: spread over the rest
                        weights[~used] = np.maximum(weights[~used], np.finfo(float).tiny)
                    pick = mechanisms.choice_without_replacement(rng, weights, m)
                    used[pick] = True
                px, py = candidates.x[pick], candidates.y[pick]
                proj = candidates.proj[pick] if params is not None else None
            sx.append(px)
            sy.append(py)
            sk.append(np.full(m, k, dtype=np.int64))
            if params is not None:
                beta, w, sigma = params[k]
                draw = (beta[ell], None if w is None else w[ell], None if sigma is None else sigma[ell])
                sv.append(fit.numeric.sample(rng, int(k), draw, proj))
        order = mechanisms.permutation(rng, n)
        xs.append(np.concatenate(sx)[order])
        ys.append(np.concatenate(sy)[order])
        idx.append(np.concatenate(sk)[order])
        set_no.append(np.full(n, ell + 1, dtype=np.int64))
        if params is not None:
            values.append(np.concatenate(sv)[order])
    report(progress, 1.0, "Synthetic sets drawn")
    numeric = None if params is None else np.concatenate(values)
    return MarkedSynthesis(
        np.concatenate(xs),
        np.concatenate(ys),
        np.concatenate(set_no),
        np.concatenate(idx),
        numeric,
        np.array(counts, dtype=np.int64),
    )
