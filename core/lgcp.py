"""Log-Gaussian Cox processes on a mesh: the model and its Gaussian (Laplace) approximation at fixed
hyperparameters.

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

At fixed theta, Newton iterations find the mode ``x*`` of ``p(w, beta | theta, S)`` and its Hessian ``H``
(:meth:`LGCPModel.laplace`, a :class:`LaplaceFit` that draws ``x ~ N(x*, H^{-1})`` exactly through banded
Cholesky factors, core.linalg). core.laplace_fit integrates these approximations over theta (the fast
posterior), core.mcmc samples the exact posterior; both return a core.posterior.Posterior.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from . import mechanisms
from .draw_store import row_blocks
from .errors import ParameterError
from .fields import SPDEMatern
from .linalg import BandedCholesky, SparseCholesky, cholesky, sum_log
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
#: What a user can do about a fit refused for node spikes.
SPIKE_REMEDY = (
    "use an integration rule that includes the mesh nodes (degree 3 or dual mesh), or a prior that keeps the field's "
    "standard deviation smaller"
)


#: Newton's method in :meth:`LGCPModel.laplace` stops before a step smaller than this times ``tol`` (in every
#: coordinate) and keeps the factorisation at the point it has, which is then the mode to within that step;
#: larger steps are taken, and the point they reach is factorised once more. The log marginal's logdet term is
#: first-order in the distance to the mode (``d log|H| = sum_i mu_i v_i d eta_i``), so the step must be small.
FINAL_STEP = 0.01


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


#: :meth:`LaplaceFit.draw` draws the field in blocks of about this many values (64 MB of doubles), and at least
#: :data:`DRAW_BLOCK_MIN` draws a block (the banded factor's blocked solve needs that many columns to pay).
DRAW_BLOCK_VALUES = 8_000_000
DRAW_BLOCK_MIN = 256


@dataclass
class LaplaceFit:
    """Gaussian approximation of ``p(w, beta | theta, S)`` at one theta."""

    theta: np.ndarray
    w: np.ndarray
    beta: np.ndarray
    h_ww: BandedCholesky | SparseCholesky | None  # Cholesky of H_ww = Q + B'DB (None once dropped from a cache)
    z: np.ndarray  # H_ww^{-1} H_wb, (n, p)
    s_chol: np.ndarray  # lower Cholesky of the Schur complement S = H_bb - H_bw H_ww^{-1} H_wb
    log_marginal: float  # Laplace approximation of log p(theta | S) + const
    newton_steps: int

    def draw(
        self, rng: np.random.Generator, size: int, progress: Progress = None, out: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``size`` exact draws from ``N(x*, H^{-1})``: ``beta ~ N(beta*, S^{-1})``, then
        ``w | beta ~ N(w* - Z (beta - beta*), H_ww^{-1})``, returned as ``(beta, w)`` of shapes ``(size, p)`` and
        ``(size, n)``. ``w`` is written into ``out`` when it is given (e.g. rows of a :func:`.draw_store.draw_array`
        on disk), block by block (:func:`.draw_store.row_blocks`); the blocks, and the order in which the draws use
        ``rng``, depend only on ``size`` and the mesh, so ``out`` changes nothing in the draws. ``progress`` is
        called as blocks of draws are done."""
        p, n = self.beta.size, self.w.size
        zb = mechanisms.standard_normals(rng, (p, size))
        db = np.linalg.solve(self.s_chol.T, zb)  # S^{-1/2}: cov = (L L')^{-1}
        w = np.empty((size, n)) if out is None else out
        if w.shape != (size, n):
            raise ValueError(f"out must have shape {(size, n)}, got {w.shape}")
        for rows in row_blocks(size, n, DRAW_BLOCK_VALUES, minimum=DRAW_BLOCK_MIN):
            zw = mechanisms.standard_normals(rng, (rows.stop - rows.start, n)).T  # a draw's normals are consecutive
            done = scaled(progress, rows.start / size, rows.stop / size)
            block = self.h_ww.whiten_inverse(zw, done, "Drawing from the posterior")
            del zw  # in place from here: on a large mesh each (n, block) array is tens of MB
            block -= self.z @ db[:, rows]
            block += self.w[:, None]
            w[rows] = block.T
        return (self.beta[:, None] + db).T, w


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
        factor = None  # each step's factor is overwritten by the next (core.linalg.cholesky's reuse)
        at_point = False  # whether factor, z and s_chol are those at (w, beta)
        for _ in range(max_steps):
            report(progress, 0.0, "")
            steps += 1
            mu = self.expected_counts(w, beta)
            grad_w = self._a_sum - d.int_proj.T @ mu - q @ w
            grad_b = self._x_sum - d.x_int.T @ mu - (beta - m) / s2
            factor, z, s_chol = self._factor(q, mu, reuse=factor)
            step_w, step_b = block_solve(factor, z, s_chol, grad_w, grad_b)
            if max(np.max(np.abs(step_w)), np.max(np.abs(step_b))) < FINAL_STEP * tol:
                at_point = True  # (w, beta) is the mode to within the step: its factor is the fit's
                break
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
        if not at_point:
            factor, z, s_chol = self._factor(q, self.expected_counts(w, beta), reuse=factor)
        logdet_q = self.spde.logdet_at(theta, self.perm)
        logdet_h = factor.logdet + 2.0 * sum_log(np.diag(s_chol))
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

    def _factor(self, q: sp.csr_matrix, mu: np.ndarray, reuse=None):
        """Cholesky pieces of ``H`` (see :meth:`hessian_blocks`) by blocks: ``H_ww`` (banded, or sparse on large
        meshes: core.linalg.cholesky, overwriting the no longer needed factor ``reuse``) and the Schur complement of
        the coefficients."""
        h_ww, h_wb, h_bb = self.hessian_blocks(q, mu)
        factor = cholesky(h_ww, self.perm, reuse=reuse)
        z = factor.solve(h_wb)
        schur = h_bb - h_wb.T @ z
        return factor, z, np.linalg.cholesky(0.5 * (schur + schur.T))


def block_solve(factor, z, s_chol, r_w, r_b):
    """Solve ``H [dw; db] = [r_w; r_b]`` with the block factorisation of :meth:`LGCPModel._factor`."""
    y = factor.solve(r_w)
    rhs = r_b - z.T @ r_w
    db = np.linalg.solve(s_chol.T, np.linalg.solve(s_chol, rhs))
    return y - z @ db, db


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
