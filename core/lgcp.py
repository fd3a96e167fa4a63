"""Log-Gaussian Cox processes on a mesh: the model, its Laplace approximation and the fast
(INLA-style) posterior.

Model (Walder et al. eq. 2-3): ``log lambda(s) = offset(s) + x(s)' beta + sum_i phi_i(s) w_i`` with
``w | theta ~ N(0, Q_theta^{-1})`` the SPDE Matérn prior (core.fields), ``theta = (log rho, log sigma)``
and ``beta ~ N(m, diag(s^2))``.

Likelihood: a quadrature of the intensity integral with K integration points ``u_i`` and weights
``alpha_i`` (Walder eqs. 30-31),

    log p(S | w, beta) = sum_k eta(s_k) - sum_i alpha_i exp(eta(u_i)),

where ``eta(s) = offset(s) + x(s)' beta + (B w)(s)`` with B the projection onto the mesh basis:
N + K independent Poisson terms. The dual-mesh scheme of Simpson et al. (2016) puts the points at
the mesh nodes (``B = I``, ``alpha_i = int_W phi_i``); core.quadrature also offers edge midpoints,
which is exact for quadratic log-intensities on each triangle and removes the upward bias in the
range that the vertex rule causes on rough fields (it overestimates ``int exp(eta)`` by 3-9% at
ranges of 3-6 mesh edges, because exp is convex).

Fast posterior: for fixed theta, Newton iterations find the mode ``x*`` of ``p(w, beta | theta, S)``
and its Hessian ``H`` (Gaussian approximation). The Laplace approximation of the hyperparameter
posterior (Rue, Martino & Chopin 2009, eq. 3)

    log p(theta | S) ~ log p(theta) + log p(S | x*) + log p(x* | theta) - 1/2 log |H| + const

is maximised, and a grid around its mode in the eigen-coordinates of its Hessian gives the
integration points and weights. Draws pick a grid point with probability proportional to its weight
and then ``x ~ N(x*, H^{-1})`` exactly, through banded Cholesky factors (core.linalg).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy import optimize

from . import mechanisms
from .errors import ParameterError
from .fields import SPDEMatern
from .files import replaced_when_done
from .linalg import BandedCholesky
from .progress import Progress, report, scaled


@dataclass(frozen=True)
class LGCPDesign:
    """The data of an LGCP fit in the form the likelihood needs (Walder eqs. 30-31).

    Attributes:
        proj: sparse ``(N, n)`` projection ``A_kj = phi_j(s_k)`` of the N points onto the mesh basis.
        x_points: ``(N, p)`` covariates at the points; column 0 is the intercept (ones).
        offset_points: ``(N,)`` log offset at the points (0 without offset).
        int_proj: sparse ``(K, n)`` projection of the K integration points.
        int_weights: ``(K,)`` integration weights (area units), >= 0.
        x_int, offset_int: covariates ``(K, p)`` and log offset ``(K,)`` at the integration points.
        names: the p coefficient names.
    """

    proj: sp.csr_matrix
    x_points: np.ndarray
    offset_points: np.ndarray
    int_proj: sp.csr_matrix
    int_weights: np.ndarray
    x_int: np.ndarray
    offset_int: np.ndarray
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        n_pts, n = self.proj.shape
        k, p = self.x_int.shape
        shapes_ok = (
            self.int_proj.shape == (k, n)
            and self.int_weights.shape == (k,)
            and self.x_points.shape == (n_pts, p)
            and self.offset_points.shape == (n_pts,)
            and self.offset_int.shape == (k,)
            and len(self.names) == p
        )
        if not shapes_ok:
            raise ValueError("inconsistent shapes in LGCPDesign")
        for name in ("int_weights", "x_points", "x_int", "offset_points", "offset_int"):
            if not np.all(np.isfinite(getattr(self, name))):
                raise ParameterError("covariates", f"{name} contains NaN or infinite values")
        if np.any(self.int_weights < 0) or self.int_weights.sum() <= 0:
            raise ParameterError("window", "the integration weights must be >= 0 with a positive total")

    @property
    def n_points(self) -> int:
        return self.proj.shape[0]

    @property
    def n_nodes(self) -> int:
        return self.proj.shape[1]

    @property
    def n_coef(self) -> int:
        return self.x_int.shape[1]

    @property
    def area(self) -> float:
        return float(self.int_weights.sum())


@dataclass(frozen=True)
class NodeCheck:
    """A second integration rule whose points include the mesh nodes (core.quadrature ``cubic``), for
    models whose own rule misses them (edge midpoints).

    Why: with edge midpoints alone the likelihood can be fooled. A field that is very high at one node
    and very low at its neighbours looks moderate at the midpoints (they see only the average of two
    nodes), so ``sum_k eta(s_k)`` grows while the estimated integral stays small. At a large field
    variance the prior no longer stops this, and the Laplace "log marginal" climbs without bound: on the
    first 12 Snow deaths 27 above the hyperparameter mode at log sigma = 4 and 4,700 above it at
    log sigma = 6; on all 578 it is 690 above at log sigma = 4, where the rule with nodes finds 1e295
    times the intensity the midpoints see. Rules with nodes (``cubic``, ``vertex``) bound ``eta`` at every
    point by the values they integrate, so they are immune, except on triangles cut by the window, where
    ``cubic`` too uses only the clipped part's centroid (the mesh follows the window's boundary, so such
    triangles occur only at corners sharper than 90 degrees).

    Attributes:
        int_proj, int_weights, x_int, offset_int: as in :class:`LGCPDesign`, for the check's points.
    """

    int_proj: sp.csr_matrix
    int_weights: np.ndarray
    x_int: np.ndarray
    offset_int: np.ndarray


#: A fit whose rule with nodes (:class:`NodeCheck`) finds more than this times the intensity integral of the
#: model's own rule has spikes the model cannot see: half of its intensity is unseen and its likelihood is
#: meaningless. At the hyperparameter modes of the Snow fits (12 to 578 points, prior median sd 1) the ratio
#: is 1.00 to 1.02, and 1.1 to 1.25 with 12 points and a prior median sd of 500 to 1000; it rises smoothly
#: away from the mode, to 1e4 and far beyond where the likelihood is fooled outright. The ratio is global, so
#: a spike is flagged only once its unseen mass is of the order of the whole integral.
SPIKE_LIMIT = 2.0
#: The mode search pushes back from this ratio on: ``BARRIER_WEIGHT (log ratio - log BARRIER_START)^2`` is
#: added to ``-log p(theta | S)``, a smooth wall (a flat penalty stalled BFGS's finite-difference gradients).
BARRIER_START = 1.25
BARRIER_WEIGHT = 100.0
#: What a user can do about a fit refused for node spikes.
SPIKE_REMEDY = (
    "use an integration rule that includes the mesh nodes (degree 3 or dual mesh), or a prior that keeps the field's "
    "standard deviation smaller"
)


@dataclass(frozen=True)
class BetaPrior:
    """Independent normal priors on the coefficients: ``beta_j ~ N(mean_j, sd_j^2)``."""

    mean: np.ndarray
    sd: np.ndarray

    @classmethod
    def default(cls, design: LGCPDesign, sd: float = 10.0) -> BetaPrior:
        """Wide priors; the intercept is centred on ``log(N / area)``, the homogeneous-Poisson value."""
        mean = np.zeros(design.n_coef)
        mean[0] = math.log(max(design.n_points, 1) / design.area) - float(
            np.average(design.offset_int, weights=design.int_weights)
        )
        return cls(mean, np.full(design.n_coef, float(sd)))


@dataclass
class LaplaceFit:
    """Gaussian approximation of ``p(w, beta | theta, S)`` at one theta."""

    theta: np.ndarray
    w: np.ndarray
    beta: np.ndarray
    h_ww: BandedCholesky | None  # Cholesky of H_ww = Q + B'DB (None once dropped from a cache)
    z: np.ndarray  # H_ww^{-1} H_wb, (n, p)
    s_chol: np.ndarray  # lower Cholesky of the Schur complement S = H_bb - H_bw H_ww^{-1} H_wb
    log_marginal: float  # Laplace approximation of log p(theta | S) + const
    newton_steps: int

    def draw(self, rng: np.random.Generator, size: int, progress: Progress = None) -> tuple[np.ndarray, np.ndarray]:
        """``size`` exact draws from ``N(x*, H^{-1})``: ``beta ~ N(beta*, S^{-1})``, then
        ``w | beta ~ N(w* - Z (beta - beta*), H_ww^{-1})``; ``progress`` is called as blocks of draws are done."""
        p, n = self.beta.size, self.w.size
        zb = mechanisms.standard_normals(rng, (p, size))
        db = np.linalg.solve(self.s_chol.T, zb)  # S^{-1/2}: cov = (L L')^{-1}
        zw = mechanisms.standard_normals(rng, (n, size))
        w = self.w[:, None] - self.z @ db + self.h_ww.whiten_inverse(zw, progress, "Drawing from the posterior")
        return (self.beta[:, None] + db).T, w.T


class LGCPModel:
    """An LGCP on a mesh: SPDE prior, hyperparameter prior, coefficient prior and data."""

    def __init__(
        self,
        design: LGCPDesign,
        spde,
        theta_prior,
        beta_prior: BetaPrior | None = None,
        mesh=None,
        node_check: NodeCheck | None = None,
    ):
        """``spde`` is the Gaussian prior on the weights: an :class:`.fields.SPDEMatern` (sparse, any
        mesh size) or a :class:`.fields.KnotCovarianceField` (dense, small knot sets); ``theta_prior``
        has ``log_density(*theta)`` and ``centre()`` over that field's ``dim`` hyperparameters;
        ``node_check`` (for integration rules that miss the mesh nodes) lets :meth:`spike_ratio` detect
        fits that fool the likelihood."""
        if spde.n != design.n_nodes:
            raise ValueError("the field prior and the design have different numbers of nodes")
        if len(theta_prior.centre()) != spde.dim:
            raise ParameterError("prior", f"the field has {spde.dim} hyperparameters but the prior has another number")
        self.mesh = mesh
        self.design = design
        self.spde = spde
        self.theta_prior = theta_prior
        self.beta_prior = beta_prior or BetaPrior.default(design)
        self.perm = spde.ordering()
        self.node_check = node_check
        d = design
        self._a_sum = np.asarray(d.proj.sum(axis=0)).ravel()
        self._x_sum = d.x_points.sum(axis=0)
        self._const = float(d.offset_points.sum())

    # -- pieces of the log posterior -------------------------------------------------------------

    def eta_int(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """Linear predictor at the K integration points."""
        d = self.design
        return d.offset_int + d.x_int @ beta + d.int_proj @ w

    def expected_counts(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """``mu_i = alpha_i exp(eta(u_i))``: the Poisson means of the integration terms."""
        return self.design.int_weights * np.exp(self.eta_int(w, beta))

    def log_likelihood(self, w: np.ndarray, beta: np.ndarray) -> float:
        """Walder eq. (31): ``sum_k eta(s_k) - sum_i alpha_i exp(eta(u_i))``."""
        mu = self.expected_counts(w, beta)
        return self._const + float(self._x_sum @ beta + self._a_sum @ w - mu.sum())

    def spike_ratio(self, w: np.ndarray, beta: np.ndarray) -> float:
        """The intensity integral by the rule with nodes over the model's own (see :class:`NodeCheck`);
        1.0 without a check. Above :data:`SPIKE_LIMIT` the model's likelihood is fooled by node spikes."""
        c = self.node_check
        if c is None:
            return 1.0
        with np.errstate(over="ignore", invalid="ignore"):
            seen = float(self.expected_counts(w, beta).sum())
            with_nodes = float(c.int_weights @ np.exp(c.offset_int + c.x_int @ beta + c.int_proj @ w))
        if not (math.isfinite(seen) and math.isfinite(with_nodes)):
            return math.inf
        return with_nodes / seen if seen > 0 else math.inf

    def is_spiky(self, w: np.ndarray, beta: np.ndarray) -> bool:
        return self.spike_ratio(w, beta) > SPIKE_LIMIT

    def log_beta_prior(self, beta: np.ndarray) -> float:
        m, s = self.beta_prior.mean, self.beta_prior.sd
        return float(-0.5 * np.sum(((beta - m) / s) ** 2) - np.sum(np.log(s)) - 0.5 * beta.size * math.log(2 * math.pi))

    @property
    def is_spde(self) -> bool:
        return isinstance(self.spde, SPDEMatern)

    def precision(self, theta: np.ndarray) -> sp.csr_matrix:
        return self.spde.precision_at(theta)

    # -- Laplace approximation at fixed theta ----------------------------------------------------

    def laplace(
        self,
        theta: np.ndarray,
        start: tuple[np.ndarray, np.ndarray] | None = None,
        tol: float = 1e-7,
        max_steps: int = 60,
        progress: Progress = None,
    ) -> LaplaceFit:
        """Newton's method for the mode of ``p(w, beta | theta, S)`` with step halving; ``progress`` is called
        (at fraction 0: the number of steps is not known) before each step, so that a caller can cancel."""
        theta = np.asarray(theta, dtype=np.float64)
        d = self.design
        q = self.precision(theta)
        m, s2 = self.beta_prior.mean, self.beta_prior.sd**2
        w, beta = (
            (np.zeros(d.n_nodes), self.beta_prior.mean.copy()) if start is None else (start[0].copy(), start[1].copy())
        )

        def objective(w, beta):
            return self.log_likelihood(w, beta) - 0.5 * float(w @ (q @ w)) - 0.5 * float(np.sum((beta - m) ** 2 / s2))

        current = objective(w, beta)
        steps = 0
        for _ in range(max_steps):
            report(progress, 0.0, "")
            steps += 1
            mu = self.expected_counts(w, beta)
            grad_w = self._a_sum - d.int_proj.T @ mu - q @ w
            grad_b = self._x_sum - d.x_int.T @ mu - (beta - m) / s2
            factor, z, s_chol = self._factor(q, mu)
            step_w, step_b = _block_solve(factor, z, s_chol, grad_w, grad_b)
            t = 1.0
            while True:
                cand_w, cand_b = w + t * step_w, beta + t * step_b
                value = objective(cand_w, cand_b)
                if value >= current - 1e-10 * abs(current) or t < 1e-6:
                    break
                t *= 0.5
            gain = value - current
            w, beta, current = cand_w, cand_b, value
            if max(np.max(np.abs(t * step_w)), np.max(np.abs(t * step_b))) < tol or 0 <= gain < tol * 1e-3:
                break
        mu = self.expected_counts(w, beta)
        factor, z, s_chol = self._factor(q, mu)
        logdet_q = self.spde.logdet_at(theta, self.perm)
        logdet_h = factor.logdet + 2.0 * float(np.sum(np.log(np.diag(s_chol))))
        log_marginal = (
            self.theta_prior.log_density(*theta)
            + self.log_likelihood(w, beta)
            + 0.5 * logdet_q
            - 0.5 * float(w @ (q @ w))
            + self.log_beta_prior(beta)
            + 0.5 * beta.size * math.log(2 * math.pi)
            - 0.5 * logdet_h
        )
        return LaplaceFit(theta, w, beta, factor, z, s_chol, log_marginal, steps)

    def hessian_blocks(self, q: sp.csr_matrix, mu: np.ndarray):
        """Blocks of the negative Hessian of the log posterior in (w, beta), ``D = diag(mu)``:
        ``H_ww = Q + B' D B``, ``H_wb = B' D X``, ``H_bb = X' D X + P_beta``."""
        d = self.design
        b = d.int_proj
        h_ww = sp.csr_matrix(q + b.T @ sp.diags(mu) @ b)
        dx = d.x_int * mu[:, None]
        return h_ww, np.asarray(b.T @ dx), d.x_int.T @ dx + np.diag(1.0 / self.beta_prior.sd**2)

    def _factor(self, q: sp.csr_matrix, mu: np.ndarray):
        """Cholesky pieces of ``H`` (see :meth:`hessian_blocks`) by blocks: banded ``H_ww`` and the
        Schur complement of the coefficients."""
        h_ww, h_wb, h_bb = self.hessian_blocks(q, mu)
        factor = BandedCholesky.factor(h_ww, self.perm)
        z = factor.solve(h_wb)
        schur = h_bb - h_wb.T @ z
        return factor, z, np.linalg.cholesky(0.5 * (schur + schur.T))


def _block_solve(factor, z, s_chol, r_w, r_b):
    """Solve ``H [dw; db] = [r_w; r_b]`` with the block factorisation of :meth:`LGCPModel._factor`."""
    y = factor.solve(r_w)
    rhs = r_b - z.T @ r_w
    db = np.linalg.solve(s_chol.T, np.linalg.solve(s_chol, rhs))
    return y - z @ db, db


# -- the fast posterior ---------------------------------------------------------------------------


#: The member of a model file (a zip of .npy arrays) that labels it, seen by ``unzip -l`` or any zip viewer.
MODEL_FILE_LABEL = "CONFIDENTIAL_not_for_publication"


@dataclass
class Posterior:
    """Posterior draws of an LGCP fit, with everything needed to evaluate the intensity.

    Attributes:
        method: ``"laplace"`` (fast) or ``"mcmc"``.
        names: coefficient names (``beta`` columns).
        beta: ``(L, p)`` draws; w: ``(L, n)`` draws of the mesh weights;
        log_range, log_sigma: ``(L,)`` draws of ``theta``.
        nodes, triangles: the mesh; int_proj, int_weights, x_int, offset_int: the integration design.
        diagnostics: method-specific facts (grid, effective sample sizes, timings).
    """

    method: str
    names: tuple[str, ...]
    beta: np.ndarray
    w: np.ndarray
    log_range: np.ndarray
    log_sigma: np.ndarray
    nodes: np.ndarray
    triangles: np.ndarray
    int_proj: sp.csr_matrix
    int_weights: np.ndarray
    x_int: np.ndarray
    offset_int: np.ndarray
    diagnostics: dict = field(default_factory=dict)
    x_nodes: np.ndarray | None = None  # (n, p) covariates at the mesh nodes, for synthesis (optional)
    offset_nodes: np.ndarray | None = None  # (n,) log offset at the mesh nodes (optional)
    window_xy: np.ndarray | None = None  # (k, 2) vertices of the study window's rings, concatenated (optional)
    window_lengths: np.ndarray | None = None  # vertices per ring (optional)

    @property
    def n_draws(self) -> int:
        return self.beta.shape[0]

    # -- what the model was fitted to (for the synthesis tools' checks) ---------------------------

    def record_source(self, x, y, window, crs: str = "") -> None:
        """Store the study window and a fingerprint of the confidential points (count, SHA-256 of the
        sorted coordinates, CRS), so a tool given this model and a point layer can tell whether the
        layer is the one the model was fitted to. The fingerprint is no safer than the model file itself:
        both are confidential."""
        self.diagnostics["source"] = {"n_points": int(np.size(x)), "digest": points_digest(x, y), "crs": str(crs)}
        self.window_xy = np.concatenate([np.asarray(r, dtype=np.float64) for r in window.rings])
        self.window_lengths = np.array([len(r) for r in window.rings], dtype=np.int64)

    def check_source(self, x, y, crs: str = "") -> None:
        """Refuse points that are not the ones the model was fitted to (see :meth:`record_source`)."""
        source = self.diagnostics.get("source")
        if source is None:
            raise ParameterError("model", "the model file does not record its points: refit it with this version")
        n = int(np.size(x))
        if source["n_points"] != n:
            raise ParameterError(
                "model", f"the model was fitted to {source['n_points']} points, but the point layer has {n}"
            )
        refit = (
            "points reprojected (or rounded) count as different points, even at the same places: fit the model on "
            "the layer as it is given here, in the same CRS and working CRS (WORK_CRS)"
        )
        if source.get("crs", "") != str(crs):
            raise ParameterError(
                "model",
                f"the model was fitted in CRS {source.get('crs') or 'none'!r}, the points are in {crs or 'none'!r}; "
                f"{refit}",
            )
        if source["digest"] != points_digest(x, y):
            raise ParameterError(
                "model", f"the model was fitted to other points (same count, different locations); {refit}"
            )

    def window(self):
        """The study window stored by :meth:`record_source` (a :class:`core.window.Window`), or None."""
        if self.window_xy is None:
            return None
        from .window import Window

        ends = np.cumsum(self.window_lengths)
        return Window(tuple(self.window_xy[e - k : e] for e, k in zip(ends, self.window_lengths)))

    @property
    def range(self) -> np.ndarray:
        """Effective range ``rho`` per draw (distance units)."""
        return np.exp(self.log_range)

    @property
    def sigma(self) -> np.ndarray:
        """Marginal standard deviation of the field per draw."""
        return np.exp(self.log_sigma)

    def summary(self) -> list[tuple[str, float, float, float, float]]:
        """Rows ``(name, mean, sd, 2.5%, 97.5%)`` for the coefficients, the effective range and the
        marginal variance of the field."""
        columns = [(name, self.beta[:, j]) for j, name in enumerate(self.names)]
        columns += [("range", self.range), ("variance", self.sigma**2)]
        return [
            (
                name,
                float(np.mean(v)),
                float(np.std(v, ddof=1)),
                float(np.quantile(v, 0.025)),
                float(np.quantile(v, 0.975)),
            )
            for name, v in columns
        ]

    def linear_predictor(self, proj: sp.spmatrix, x: np.ndarray, offset: np.ndarray | None = None) -> np.ndarray:
        """``(L, k)`` draws of ``log lambda`` at k locations with projection ``proj`` and covariates ``x``."""
        eta = self.beta @ np.asarray(x, dtype=np.float64).T + (proj @ self.w.T).T
        return eta if offset is None else eta + offset

    def intensity_summary(
        self,
        proj: sp.spmatrix,
        x: np.ndarray,
        offset: np.ndarray | None = None,
        chunk: int | None = None,
        progress: Progress = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and sd of ``lambda`` at k locations, in chunks of about two million values (locations
        times draws) to bound memory, reporting ``progress`` (which may raise to cancel) after each."""
        proj = sp.csr_matrix(proj)
        k = proj.shape[0]
        chunk = chunk or max(1, 2_000_000 // max(1, self.n_draws))
        mean, sd = np.empty(k), np.empty(k)
        for start in range(0, k, chunk):
            report(progress, start / max(k, 1), "Posterior intensity")
            stop = min(k, start + chunk)
            off = None if offset is None else offset[start:stop]
            lam = np.exp(self.linear_predictor(proj[start:stop], x[start:stop], off))
            mean[start:stop] = lam.mean(axis=0)
            sd[start:stop] = lam.std(axis=0, ddof=1)
        return mean, sd

    def integrated_intensity(self) -> np.ndarray:
        """``int_W lambda`` per draw by the dual-mesh quadrature (Walder eq. 30)."""
        eta = self.offset_int[None, :] + self.beta @ self.x_int.T + (self.int_proj @ self.w.T).T
        return np.exp(eta) @ self.int_weights

    @classmethod
    def from_model(
        cls, model: LGCPModel, method: str, beta: np.ndarray, w: np.ndarray, theta: np.ndarray, diagnostics: dict
    ) -> Posterior:
        """Draws of ``(beta, w, theta)`` together with the model's mesh and integration design, as every
        fitting method returns them. The field maps theta to (log range, log sigma): for the SPDE prior
        theta is exactly that; for a knot covariance the "range" is its length scale ``l``."""
        d = model.design
        mesh = model.mesh
        log_range, log_sigma = model.spde.range_sigma(theta)
        diagnostics = {"field": type(model.spde).__name__, **diagnostics}
        return cls(
            method=method,
            names=d.names,
            beta=beta,
            w=w,
            log_range=log_range,
            log_sigma=log_sigma,
            nodes=np.asarray(mesh.nodes) if mesh is not None else np.empty((0, 2)),
            triangles=np.asarray(mesh.triangles) if mesh is not None else np.empty((0, 3), dtype=np.int64),
            int_proj=d.int_proj,
            int_weights=d.int_weights,
            x_int=d.x_int,
            offset_int=d.offset_int,
            diagnostics=diagnostics,
        )

    _ARRAYS = ("beta", "w", "log_range", "log_sigma", "nodes", "triangles", "int_weights", "x_int", "offset_int")

    def save(self, path: str) -> None:
        """Write to a compressed ``.npz`` file that :meth:`load` reads back."""
        arrays = {k: getattr(self, k) for k in self._ARRAYS}
        if self.x_nodes is not None:
            arrays.update(x_nodes=self.x_nodes, offset_nodes=self.offset_nodes)
        if self.window_xy is not None:
            arrays.update(window_xy=self.window_xy, window_lengths=self.window_lengths)
        proj = sp.csr_matrix(self.int_proj)
        arrays.update(
            int_proj_data=proj.data,
            int_proj_indices=proj.indices,
            int_proj_indptr=proj.indptr,
            int_proj_shape=np.array(proj.shape),
        )
        meta = json.dumps(
            {
                "method": self.method,
                "names": list(self.names),
                "diagnostics": self.diagnostics,
                "format": "spatial_privacy.lgcp.Posterior/1",
            },
            default=float,
        )
        # written beside the target and moved onto it when complete: a failed write (a full disk) must not
        # leave a truncated model where a good one was
        # the file holds the confidential points' posterior: a member named so says it to anyone who lists it
        label = {MODEL_FILE_LABEL: np.array("fitted to confidential points; not for publication")}
        with replaced_when_done(path) as partial, open(partial, "wb") as handle:
            np.savez_compressed(handle, meta=np.array(meta), **label, **arrays)

    @classmethod
    def load(cls, path: str) -> Posterior:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != "spatial_privacy.lgcp.Posterior/1":
                raise ParameterError("model", f"{path} is not a Spatial Privacy LGCP model file")
            arrays = {k: data[k] for k in cls._ARRAYS}
            if "x_nodes" in data.files:
                arrays.update(x_nodes=data["x_nodes"], offset_nodes=data["offset_nodes"])
            if "window_xy" in data.files:
                arrays.update(window_xy=data["window_xy"], window_lengths=data["window_lengths"])
            proj = sp.csr_matrix(
                (data["int_proj_data"], data["int_proj_indices"], data["int_proj_indptr"]),
                shape=tuple(data["int_proj_shape"]),
            )
        return cls(
            method=meta["method"], names=tuple(meta["names"]), diagnostics=meta["diagnostics"], int_proj=proj, **arrays
        )


def points_digest(x, y) -> str:
    """SHA-256 of the points' coordinates (float64), sorted so the order of the features does not matter."""
    import hashlib

    xy = np.column_stack([np.asarray(x, dtype=np.float64).ravel(), np.asarray(y, dtype=np.float64).ravel()])
    xy = xy[np.lexsort((xy[:, 1], xy[:, 0]))]
    return hashlib.sha256(np.ascontiguousarray(xy).tobytes()).hexdigest()


def _central_gradient(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central-difference gradient of a scalar function of a few variables."""
    grad = np.empty(x.size)
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = h
        grad[i] = (f(x + step) - f(x - step)) / (2 * h)
    return grad


def _numerical_hessian(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central-difference Hessian of a scalar function of a few variables."""
    k = x.size
    hess = np.empty((k, k))
    f0 = f(x)
    for i in range(k):
        ei = np.zeros(k)
        ei[i] = h
        hess[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / h**2
        for j in range(i + 1, k):
            ej = np.zeros(k)
            ej[j] = h
            hess[i, j] = hess[j, i] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (4 * h * h)
    return hess


#: A grid cell whose Laplace log marginal exceeds the mode's by more than this is a failed fit, not mass
#: (the backstop for models without a :class:`NodeCheck`).
GRID_EXCESS = 5.0


def fit_laplace(
    model: LGCPModel,
    rng: np.random.Generator,
    draws: int = 1000,
    grid_step: float = 0.75,
    max_drop: float = 8.0,
    max_points: int = 400,
    progress: Progress = None,
    correction: str = "mean",
    probes: int = 200,
) -> Posterior:
    """The fast posterior: Laplace approximations integrated over a grid of hyperparameters.

    The grid lives in the eigen-coordinates ``z`` of the Gaussian fitted to ``log p(theta | S)`` at its
    mode (``theta = mode + V Lambda^{-1/2} z``, INLA's grid strategy, Rue, Martino & Chopin 2009, Section
    6.5). It grows outwards from the mode, neighbour by neighbour, while the log density stays within
    ``max_drop`` of the mode, so skewed posteriors are covered. A draw picks a grid cell with probability
    proportional to its density, takes theta uniformly within the cell (so theta is not confined to the
    grid points) and ``x ~ N(x*, H^{-1})`` from the cell's Laplace fit. Checked against the exact MCMC
    sampler (core.mcmc): 1-sd steps and a drop of 6 gave hyperparameter intervals 15-30% too narrow.

    Args:
        model: the LGCP.
        rng: source of the posterior draws.
        draws: number of joint draws of (beta, w, theta).
        grid_step: spacing of the grid in standard deviations.
        max_drop: cells whose log density is more than this below the mode's are not explored.
        max_points: upper limit on the number of grid points (a safeguard for flat posteriors). A grid that
            reaches it with cells still to explore is cut short (``diagnostics["grid_truncated"]``): the
            posterior of the hyperparameters is flatter than the grid covers, and the draws miss its far part.
        progress: optional ``progress(fraction, message)``; may raise to cancel.
        correction: ``"mean"`` (default) shifts each grid cell's Gaussian by the first-order skewness
            correction of :func:`skewness_shift`; ``"none"`` draws from the plain Gaussian approximation.
        probes: Gaussian draws per grid cell used by the correction to estimate the variances of eta.
    """
    if correction not in ("mean", "none"):
        raise ParameterError("correction", f"correction must be 'mean' or 'none', got {correction!r}")
    search = HyperparameterSearch(model, progress)
    mode, hess = search.mode_and_hessian()
    fit_at = search.fit_at
    cache = search.cache
    eigval, eigvec = np.linalg.eigh(0.5 * (hess + hess.T))
    scale = eigvec / np.sqrt(eigval)  # theta = mode + scale @ z
    top = search.log_marginal(mode)
    dim = mode.size
    seen = {(0,) * dim}
    frontier = [(0,) * dim]
    points, logs = [], []
    rejected = 0
    while frontier and len(points) < max_points:
        cell = frontier.pop(0)
        report(progress, 0.4 + 0.4 * min(1.0, len(points) / 120), "Integrating over the hyperparameters")
        theta = mode + scale @ (grid_step * np.array(cell, dtype=np.float64))
        try:
            with np.errstate(over="ignore", invalid="ignore"):
                value = search.log_marginal(theta)
                spiky = search.spiky(theta)
        except (np.linalg.LinAlgError, ArithmeticError, ValueError):
            value, spiky = math.nan, True
        if not np.isfinite(value) or value - top > GRID_EXCESS or spiky:
            # a fit that fools the integration rule (NodeCheck: with 12 points from log sigma ~ 3 on, 27 to 1e5
            # above the mode), or far above the mode the optimiser found for another reason (a model without
            # a check): a failed fit, not posterior mass, so the cell is left out and not grown from
            rejected += 1
            continue
        if top - value > max_drop:
            continue
        points.append(theta)
        logs.append(value)
        for axis in range(dim):
            for sign in (-1, 1):
                neighbour = tuple(c + sign * (i == axis) for i, c in enumerate(cell))
                if neighbour not in seen:
                    seen.add(neighbour)
                    frontier.append(neighbour)
    logs = np.array(logs)
    probs = np.exp(logs - logs.max())
    probs /= probs.sum()
    counts = mechanisms.multinomial(rng, draws, probs)
    d = model.design
    beta = np.empty((draws, d.n_coef))
    w = np.empty((draws, d.n_nodes))
    theta_draws = np.empty((draws, dim))
    filled = 0
    for k, (theta, count) in enumerate(zip(points, counts)):
        report(progress, 0.8 + 0.2 * k / len(points), "Drawing from the posterior")
        if count == 0:
            continue
        fit = fit_at(theta)
        here = scaled(progress, 0.8 + 0.2 * k / len(points), 0.8 + 0.2 * k / len(points))  # Cancel is seen
        b, ww = fit.draw(rng, int(count), progress=here)
        if correction == "mean":
            shift_w, shift_b = skewness_shift(model, fit, rng, probes, progress=here)
            b, ww = b + shift_b, ww + shift_w
        beta[filled : filled + count], w[filled : filled + count] = b, ww
        jitter = (-0.5 + mechanisms.uniforms(rng, (int(count), dim))) * grid_step  # U(-1/2, 1/2) per axis
        theta_draws[filled : filled + count] = theta + jitter @ scale.T
        filled += count
    order = mechanisms.permutation(rng, draws)
    report(progress, 1.0, "Done")
    return Posterior.from_model(
        model,
        "laplace",
        beta[order],
        w[order],
        theta_draws[order],
        {
            "theta_mode": mode.tolist(),
            "theta_hessian": hess.tolist(),
            "grid_points": len(points),
            "grid_points_rejected": rejected,
            "grid_truncated": bool(frontier),
            "grid_step": grid_step,
            "max_drop": max_drop,
            "laplace_evaluations": len(cache),
            "optimizer_iterations": search.iterations,
            "correction": correction,
        },
    )


def fit_at_theta(
    model: LGCPModel,
    theta,
    rng: np.random.Generator,
    draws: int = 200,
    correction: str = "mean",
    probes: int = 200,
    progress: Progress = None,
) -> Posterior:
    """Posterior draws of ``(beta, w)`` with the hyperparameters fixed at ``theta`` (empirical Bayes):
    one Laplace fit (the Gaussian approximation of ``p(w, beta | theta, S)``), shifted by
    :func:`skewness_shift` unless ``correction="none"``.

    A plug-in shortcut for repeated fits that share hyperparameters with a fit already made (the
    synthesis tools fit the synthetic and the joint models at the confidential posterior mean of
    theta): about 1/20 of :func:`fit_laplace`'s time, but it ignores the uncertainty in theta.

    Args:
        model: the LGCP; theta: the hyperparameters (for the SPDE field ``(log rho, log sigma)``).
        rng: source of the draws; draws: their number.
        correction, probes: as in :func:`fit_laplace`.
        progress: optional ``progress(fraction, message)``, called during the fit and the draws.
    """
    if correction not in ("mean", "none"):
        raise ParameterError("correction", f"correction must be 'mean' or 'none', got {correction!r}")
    theta = np.asarray(theta, dtype=np.float64).ravel()
    if theta.size != model.spde.dim or not np.all(np.isfinite(theta)):
        raise ParameterError("theta", f"theta must be {model.spde.dim} finite numbers, got {theta!r}")
    draws = int(draws)
    if draws < 1:
        raise ParameterError("draws", f"the number of draws must be >= 1, got {draws}")
    with np.errstate(over="ignore", invalid="ignore"):
        fit = model.laplace(theta, progress=scaled(progress, 0.0, 0.3))
    if not (np.all(np.isfinite(fit.w)) and np.all(np.isfinite(fit.beta))):
        raise ParameterError("theta", "the Laplace fit failed (overflow) at these hyperparameters")
    beta, w = fit.draw(rng, draws, progress=scaled(progress, 0.3, 0.85))
    if correction == "mean":
        shift_w, shift_b = skewness_shift(model, fit, rng, probes, progress=scaled(progress, 0.85, 1.0))
        beta, w = beta + shift_b, w + shift_w
    return Posterior.from_model(
        model,
        "laplace-fixed-theta",
        beta,
        w,
        np.tile(theta, (draws, 1)),
        {"theta_fixed": theta.tolist(), "correction": correction, "newton_steps": fit.newton_steps},
    )


def skewness_shift(
    model: LGCPModel, fit: LaplaceFit, rng: np.random.Generator, probes: int = 200, progress: Progress = None
):
    """First-order correction of the Gaussian approximation's mean for the skewness of the Poisson
    likelihood (the idea behind INLA's simplified Laplace approximation, Rue, Martino & Chopin 2009,
    Section 3.2.3, applied to the joint mean).

    With ``x = (w, beta)``, ``eta_i = a_i' x`` at the K integration points and the likelihood term
    ``-alpha_i exp(eta_i)`` (third derivative ``-mu_i``), expanding the log posterior to third order
    about its mode ``x*`` gives ``E[x] - x* ~ -1/2 H^{-1} sum_i a_i mu_i v_i`` with
    ``v_i = a_i' H^{-1} a_i`` the approximate posterior variance of ``eta_i``. The v_i are estimated
    from ``probes`` Gaussian draws; the shift is one solve with the existing factor.

    Why: where the data are sparse the exact posterior of the field is skewed (its upper tail is cut by
    ``-alpha exp(eta)``) and its mean lies below the mode. On the John Snow model the plain Gaussian
    approximation put the distance coefficient at -0.936 and ``E[int lambda]`` at 786 (N = 578) against
    MCMC's -1.123 and 576; with this shift the coefficient is -1.114.

    Returns:
        ``(shift_w, shift_b)`` to add to draws of ``w`` and ``beta``.
    """
    d = model.design
    b, w = fit.draw(rng, max(int(probes), 2), progress=progress)
    eta = (d.int_proj @ w.T).T + b @ d.x_int.T
    v = eta.var(axis=0, ddof=1)
    r = model.expected_counts(fit.w, fit.beta) * v
    shift_w, shift_b = _block_solve(fit.h_ww, fit.z, fit.s_chol, -0.5 * (d.int_proj.T @ r), -0.5 * (d.x_int.T @ r))
    return shift_w, shift_b


class HyperparameterSearch:
    """Laplace approximations over theta, cached and warm-started, and the mode of
    ``log p(theta | S)`` with its (numerical) Hessian."""

    def __init__(self, model: LGCPModel, progress: Progress = None):
        self.model = model
        self.progress = progress
        self.cache: dict[tuple, LaplaceFit] = {}
        self._last = None
        self.iterations = 0

    def fit_at(self, theta) -> LaplaceFit:
        """The Laplace fit at theta. Only its mode and log marginal are cached (a factor of a large mesh
        takes megabytes); asking again for the full fit re-factorises from the cached mode."""
        key = tuple(np.round(np.asarray(theta, dtype=np.float64), 10))
        cached = self.cache.get(key)
        if cached is not None and cached.h_ww is not None:
            return cached
        start = (cached.w, cached.beta) if cached is not None else self._last
        fit = self.model.laplace(np.asarray(theta, dtype=np.float64), start=start)
        self._last = (fit.w, fit.beta)
        self.cache[key] = LaplaceFit(fit.theta, fit.w, fit.beta, None, None, None, fit.log_marginal, fit.newton_steps)
        return fit

    def log_marginal(self, theta) -> float:
        key = tuple(np.round(np.asarray(theta, dtype=np.float64), 10))
        cached = self.cache.get(key)
        return cached.log_marginal if cached is not None else self.fit_at(theta).log_marginal

    def spike_ratio(self, theta) -> float:
        """:meth:`LGCPModel.spike_ratio` at the Laplace mode at theta (1.0 without a :class:`NodeCheck`)."""
        if self.model.node_check is None:
            return 1.0
        key = tuple(np.round(np.asarray(theta, dtype=np.float64), 10))
        fit = self.cache.get(key) or self.fit_at(theta)
        return self.model.spike_ratio(fit.w, fit.beta)

    def spiky(self, theta) -> bool:
        """Whether the Laplace mode at theta fools the model's integration rule (:class:`NodeCheck`)."""
        return self.spike_ratio(theta) > SPIKE_LIMIT

    def mode_and_hessian(self) -> tuple[np.ndarray, np.ndarray]:
        """Mode of the Laplace-approximated ``log p(theta | S)`` and the Hessian of its negative there."""
        report(self.progress, 0.0, "Finding the mode of the hyperparameter posterior")

        def plain(theta):
            """``-log p(theta | S)`` (Laplace); a point where the fit overflows or fails counts as improbable."""
            report(self.progress, min(0.4, 0.004 * len(self.cache)), "Finding the mode of the hyperparameter posterior")
            if not np.all(np.isfinite(theta)):
                return 1e12
            try:
                with np.errstate(over="ignore", invalid="ignore"):
                    value = -self.log_marginal(theta)
            except (np.linalg.LinAlgError, ArithmeticError, ValueError):  # e.g. exp(theta) over- or underflows
                return 1e12
            return value if math.isfinite(value) else 1e12

        def barrier(theta) -> float:
            """A smooth wall before node spikes fool the likelihood (NodeCheck); 0 where the ratio <= BARRIER_START."""
            try:
                excess = max(0.0, math.log(self.spike_ratio(theta)) - math.log(BARRIER_START))
            except (np.linalg.LinAlgError, ArithmeticError, ValueError):
                return 1e12
            return min(1e12, BARRIER_WEIGHT * excess * excess)

        def negative(theta):
            value = plain(theta)
            return value if value >= 1e12 else min(1e12, value + barrier(theta))

        start = np.array(self.model.theta_prior.centre(), dtype=np.float64)
        if self.model.node_check is not None and start.size == 2:
            # a prior centred on a huge field sd can put the start where node spikes fool the likelihood, and the
            # barrier is flat out there: start at the first smaller sigma (log sigma lowered 1 at a time) that is not
            failed_fits = 0
            for _ in range(13):
                if negative(start) < 1e12 and not self.spiky(start):
                    break
                failed_fits += plain(start) >= 1e12
                start = start - np.array([0.0, 1.0])
            else:
                if failed_fits == 13:  # no fit at all, spikes or not: the field's precision itself fails
                    raise ParameterError(
                        "prior_range",
                        "the Laplace fit fails numerically at every field standard deviation tried, from the prior's "
                        "median down: the field's precision is numerically singular at the prior's median range, as "
                        "for a range many orders of magnitude larger than the window. Give a smaller prior range.",
                    )
                raise ParameterError(
                    "integration",
                    "every field standard deviation tried, from the prior's median down, gives fields with spikes at "
                    f"single mesh nodes that the integration points do not see: {SPIKE_REMEDY}",
                )
        # BFGS with central-difference gradients: about a third of the Laplace fits Nelder-Mead needs
        result = optimize.minimize(
            negative,
            start,
            method="BFGS",
            jac=lambda t: _central_gradient(negative, t, 1e-4),
            options={"gtol": 1e-3, "maxiter": 100},
        )
        self.iterations = int(result.nit)
        # the Hessian of the posterior itself: the barrier's kink at BARRIER_START would bend it near the wall
        hess = _numerical_hessian(plain, result.x, 0.05)
        peaked = bool(np.all(np.linalg.eigvalsh(0.5 * (hess + hess.T)) > 0))
        ratio = self.spike_ratio(result.x)
        if peaked and SPIKE_LIMIT >= ratio > BARRIER_START:
            # the barrier is active: is it holding the point against the posterior? One Newton step of the
            # posterior alone estimates its own mode; if node spikes fool the integration there, it is
            ahead = result.x - np.linalg.solve(0.5 * (hess + hess.T), _central_gradient(plain, result.x, 1e-4))
            try:
                with np.errstate(over="ignore", invalid="ignore"):
                    ratio = max(ratio, self.spike_ratio(ahead))
            except (np.linalg.LinAlgError, ArithmeticError, ValueError):
                ratio = math.inf
        if ratio > SPIKE_LIMIT:
            raise ParameterError(
                "integration",
                "the fit leans towards fields with spikes at single mesh nodes that the integration points do not "
                f"see (there the intensity integral is underestimated {ratio:.3g}-fold), so its likelihood cannot be "
                f"trusted: {SPIKE_REMEDY}",
            )
        if not peaked:
            raise ParameterError("theta", "the hyperparameter posterior is not peaked: try a more informative prior")
        return result.x, hess


def simulate_points(mesh, window, eta_nodes: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Exact draw of a Poisson process on ``window`` whose log intensity is piecewise linear on ``mesh``
    with values ``eta_nodes`` at the nodes (the LGCP of eq. 2-3 given its weights).

    Thinning per triangle: ``exp`` of a linear function is largest at a vertex, so with
    ``lambda_T = max_vertex exp(eta)`` draw ``Poisson(lambda_T * area(T))`` uniform points in T and keep
    each with probability ``lambda(s) / lambda_T`` if it lies in the window. Its random draws come from
    core.mechanisms because the DP LGCP synthesizer (core.synthesis.lgcp_dp) releases such a pattern.
    """
    eta_nodes = np.asarray(eta_nodes, dtype=np.float64)
    tri = mesh.triangles
    corner = mesh.nodes[tri]  # (m, 3, 2)
    eta_tri = eta_nodes[tri]
    top = eta_tri.max(axis=1)
    counts = mechanisms.poisson_counts(rng, np.exp(top) * mesh.triangle_areas)
    which = np.repeat(np.arange(tri.shape[0]), counts)
    r1, r2 = mechanisms.uniforms(rng, which.size), mechanisms.uniforms(rng, which.size)
    flip = r1 + r2 > 1
    r1[flip], r2[flip] = 1 - r1[flip], 1 - r2[flip]
    bary = np.column_stack([1 - r1 - r2, r1, r2])
    xy = np.einsum("kj,kjd->kd", bary, corner[which])
    log_ratio = np.einsum("kj,kj->k", bary, eta_tri[which]) - top[which]
    keep = (np.log(mechanisms.uniforms(rng, which.size)) < log_ratio) & window.contains(xy[:, 0], xy[:, 1])
    return xy[keep, 0], xy[keep, 1]
