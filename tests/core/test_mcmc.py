"""The exact MCMC sampler (core.mcmc): convergence diagnostics against theory, the sampler against
independent dense computations on a tiny LGCP, and the fast (Laplace) posterior against the sampler."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import special, stats
from scipy.signal import lfilter

from spatial_privacy.core import fields
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.laplace_fit import HyperparameterSearch, fit_laplace
from spatial_privacy.core.lgcp import LGCPDesign, LGCPModel, simulate_points
from spatial_privacy.core.mcmc import fit_mcmc
from spatial_privacy.core.mcmc_diagnostics import check_convergence, effective_sample_size, split_rhat
from spatial_privacy.core.mcmc_target import GaussianApproximation, _Engine, _Target, gaussian_log_density, log_joint
from spatial_privacy.core.posterior import Posterior
from spatial_privacy.core.triangulation import lattice, triangulate
from spatial_privacy.core.window import Window

# -- convergence diagnostics -------------------------------------------------------------------------


def ar1(rng, chains: int, length: int, phi: float) -> np.ndarray:
    """Stationary AR(1) chains with unit variance: lag-t autocorrelation phi^t."""
    e = rng.standard_normal((chains, length)) * math.sqrt(1 - phi * phi)
    e[:, 0] = rng.standard_normal(chains)
    return lfilter([1.0], [1.0, -phi], e, axis=1)


def test_split_rhat_by_hand():
    # halves [0,1] [2,3] [4,5] [6,7]: W = 1/2, variance of the means (0.5, 2.5, 4.5, 6.5) = 20/3, n = 2
    # R = sqrt(((n-1)/n W + B/n) / W) = sqrt((1/4 + 20/3) / (1/2))
    assert split_rhat([[0, 1, 2, 3], [4, 5, 6, 7]]) == pytest.approx(math.sqrt((0.25 + 20 / 3) / 0.5), rel=1e-12)
    assert split_rhat(np.ones((2, 10))) == 1.0


def test_split_rhat_is_one_for_iid_chains_and_flags_shifted_or_drifting_chains():
    rng = np.random.default_rng(1)
    # iid: R - 1 = O(1/n) with fluctuations of the same order; 4 chains of 2000 give |R - 1| < 0.005
    assert abs(split_rhat(rng.standard_normal((4, 2000))) - 1) < 0.005
    # two chains whose means differ by one sd: split means (0, 0, 1, 1) have variance 1/3, R = sqrt(4/3)
    shifted = rng.standard_normal((2, 2000)) + np.array([[0.0], [1.0]])
    assert split_rhat(shifted) == pytest.approx(math.sqrt(4 / 3), abs=0.02)
    assert split_rhat(shifted) > 1.1
    # one chain drifting by 2 sd over its length: only the split reveals it. Halves: means 1 apart
    # (B/n = 1/2), within variance 1 + 1/12, so R = sqrt((13/12 + 1/2) / (13/12)) = 1.209
    drifting = rng.standard_normal((1, 2000)) + np.linspace(0, 2.0, 2000)
    assert split_rhat(drifting) == pytest.approx(math.sqrt((13 / 12 + 0.5) / (13 / 12)), abs=0.05)


def test_effective_sample_size_of_iid_draws_is_the_number_of_draws():
    rng = np.random.default_rng(2)
    draws = rng.standard_normal((4, 10_000))
    assert effective_sample_size(draws) == pytest.approx(40_000, rel=0.10)
    assert effective_sample_size(np.ones((2, 50))) == 100.0


def test_effective_sample_size_of_ar1_chains_is_n_times_one_minus_phi_over_one_plus_phi():
    # integrated autocorrelation time of AR(1): (1 + phi) / (1 - phi) = 9 for phi = 0.8
    rng = np.random.default_rng(3)
    draws = ar1(rng, 4, 20_000, 0.8)
    assert effective_sample_size(draws) == pytest.approx(80_000 * 0.2 / 1.8, rel=0.15)


def test_effective_sample_size_sees_disagreeing_chains():
    # iid chains around different means: var+ includes the between-chain variance, so the ESS drops
    rng = np.random.default_rng(4)
    draws = rng.standard_normal((2, 5000)) + np.array([[0.0], [2.0]])
    assert effective_sample_size(draws) < 0.1 * draws.size


def test_check_convergence_flags_a_stuck_hyperparameter_chain_and_applies_bda3s_rule():
    good = {
        "chains": 2,
        "acceptance_theta": 0.6,
        "rhat": {"log_range": 1.01, "intercept": 1.0},
        "ess": {"log_range": 200.0, "intercept": 400.0},
    }
    assert check_convergence(good).ok
    # a stuck chain repeats one value: R-hat and the ESS look perfect, only the acceptance rate shows it
    constant = np.full((2, 50), 6.0)
    stuck = {
        **good,
        "acceptance_theta": 0.0,
        "rhat": {"log_range": split_rhat(constant)},
        "ess": {"log_range": effective_sample_size(constant)},
    }
    check = check_convergence(stuck)
    assert not check.ok and check.acceptance_theta == 0.0 and not check.high_rhat and not check.low_ess
    assert check_convergence({**good, "acceptance_theta": 0.0099}).acceptance_theta == 0.0099
    assert check_convergence({**good, "acceptance_theta": 0.01}).ok
    assert check_convergence({**good, "acceptance_theta": None}).ok  # fixed hyperparameters: no theta moves
    # BDA3: every split R-hat below 1.1 and at least 10 effective draws per chain (20 for two chains)
    bad = check_convergence(
        {**good, "rhat": {"log_range": 1.16, "intercept": math.nan}, "ess": {"log_range": 19.9, "intercept": 20.0}}
    )
    assert bad.min_ess == 20 and bad.low_ess == {"log_range": 19.9}
    assert bad.high_rhat["log_range"] == 1.16 and math.isnan(bad.high_rhat["intercept"]) and not bad.ok
    assert check_convergence({**good, "chains": 4, "ess": {"log_range": 39.0}}).low_ess == {"log_range": 39.0}


def test_diagnostics_refuse_bad_input():
    with pytest.raises(ParameterError) as info:
        split_rhat(np.zeros((2, 3)))
    assert info.value.parameter == "chains"
    with pytest.raises(ParameterError):
        effective_sample_size([[0.0, 1.0, np.nan, 2.0, 3.0]])


# -- a tiny LGCP and dense reference computations -----------------------------------------------------


def covariate(x, y):
    return (x - 3.0) / 2.0


def tiny_model(seed: int = 2) -> LGCPModel:
    """A 6 x 6 lattice (49 nodes) on [0, 6]^2, vertex quadrature, about 45 points: a posterior that is
    clearly not Gaussian (few points per node)."""
    window = Window.rectangle(0, 0, 6, 6)
    mesh = lattice(0, 0, 6, 6, 6, 6)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    rng = np.random.default_rng(seed)
    w = spde.sample(3.0, 0.8, rng)[0]
    x, y = simulate_points(mesh, window, 0.4 * covariate(*mesh.nodes.T) + w, rng)
    n = mesh.n_nodes
    design = LGCPDesign(
        proj=mesh.projection(x, y),
        x_points=np.column_stack([np.ones(x.size), covariate(x, y)]),
        offset_points=np.zeros(x.size),
        int_proj=sp.identity(n, format="csr"),
        int_weights=mesh.integration_weights(window),
        x_int=np.column_stack([np.ones(n), covariate(*mesh.nodes.T)]),
        offset_int=np.zeros(n),
        names=("intercept", "covariate"),
    )
    prior = fields.LogNormalFieldPrior(range0=3.0, sigma0=1.0, sd_log_range=0.5, sd_log_sigma=0.5)
    return LGCPModel(design, spde, prior, mesh=mesh)


@pytest.fixture(scope="module")
def tiny():
    return tiny_model()


class Dense:
    """The tiny model's exact posterior written out with dense matrices (no code shared with core.mcmc)."""

    def __init__(self, model: LGCPModel):
        d = model.design
        self.points = np.hstack([d.proj.toarray(), d.x_points])  # eta at the points = points @ x
        self.integration = np.hstack([d.int_proj.toarray(), d.x_int])
        self.alpha = d.int_weights
        self.m, self.s = model.beta_prior.mean, model.beta_prior.sd
        self.spde, self.prior = model.spde, model.theta_prior
        self.n, self.p = d.n_nodes, d.n_coef

    def precision(self, theta) -> np.ndarray:
        return self.spde.precision(math.exp(theta[0]), math.exp(theta[1])).toarray()

    def log_post(self, theta, x: np.ndarray, q: np.ndarray | None = None) -> np.ndarray:
        """Exact unnormalised ``log p(theta, w, beta | S)`` for each row ``x = (w, beta)``."""
        q = self.precision(theta) if q is None else q
        x = np.atleast_2d(x)
        w, b = x[:, : self.n], x[:, self.n :]
        loglik = (x @ self.points.T).sum(axis=1) - np.exp(x @ self.integration.T) @ self.alpha
        log_w = (
            0.5 * np.linalg.slogdet(q)[1]
            - 0.5 * np.einsum("ij,jk,ik->i", w, q, w)
            - 0.5 * self.n * math.log(2 * math.pi)
        )
        log_b = stats.norm.logpdf(b, self.m, self.s).sum(axis=1)
        return loglik + log_w + log_b + self.prior.log_density(theta[0], theta[1])

    def mode(self, q: np.ndarray):
        """Newton's method for the mode of p(x | theta, S); returns the mode and the Hessian there."""
        prec = np.zeros((self.n + self.p,) * 2)
        prec[: self.n, : self.n] = q
        prec[self.n :, self.n :] = np.diag(self.s**-2)
        centre = np.concatenate([np.zeros(self.n), self.m])
        x = centre.copy()
        for _ in range(100):
            mu = self.alpha * np.exp(self.integration @ x)
            grad = self.points.sum(axis=0) - self.integration.T @ mu - prec @ (x - centre)
            hess = self.integration.T @ (self.integration * mu[:, None]) + prec
            step = np.linalg.solve(hess, grad)
            x = x + step
            if np.max(np.abs(step)) < 1e-11:
                break
        mu = self.alpha * np.exp(self.integration @ x)
        return x, self.integration.T @ (self.integration * mu[:, None]) + prec

    def importance(self, theta, size: int, rng, df: float = 20.0):
        """Importance draws at theta from a multivariate t around the mode: draws, log weights, mode."""
        q = self.precision(theta)
        centre, hess = self.mode(q)
        chol = np.linalg.cholesky(np.linalg.inv(hess))
        k = centre.size
        scale = np.sqrt(df / rng.chisquare(df, size))
        x = centre + (rng.standard_normal((size, k)) @ chol.T) * scale[:, None]
        u = np.linalg.solve(chol, (x - centre).T)
        log_t = (
            special.gammaln((df + k) / 2)
            - special.gammaln(df / 2)
            - 0.5 * k * math.log(df * math.pi)
            - np.sum(np.log(np.diag(chol)))
            - 0.5 * (df + k) * np.log1p(np.sum(u * u, axis=0) / df)
        )
        return x, self.log_post(theta, x, q) - log_t, centre


THETA = np.array([math.log(3.0), math.log(0.8)])


def test_log_joint_and_the_gaussian_map_match_dense_computations(tiny):
    dense = Dense(tiny)
    fit = tiny.laplace(THETA)
    gauss = GaussianApproximation.from_fit(fit)
    rng = np.random.default_rng(5)
    z = rng.standard_normal(dense.n + dense.p)
    w, beta = gauss.colour(z)
    assert np.allclose(gauss.whiten(w, beta), z, atol=1e-10)
    x = np.concatenate([w, beta])
    centre, hess = dense.mode(dense.precision(THETA))
    assert np.allclose(np.concatenate([fit.w, fit.beta]), centre, atol=1e-8)
    reference = stats.multivariate_normal(centre, np.linalg.inv(hess)).logpdf(x)
    assert gaussian_log_density(fit, w, beta) == pytest.approx(reference, abs=1e-8)
    assert log_joint(tiny, THETA, w, beta) == pytest.approx(dense.log_post(THETA, x)[0], abs=1e-8)
    # draws of the map have the Laplace covariance H^{-1}
    draws = np.array([np.concatenate(gauss.colour(v)) for v in rng.standard_normal((4000, z.size))])
    var = np.diag(np.linalg.inv(hess))
    assert np.allclose(draws.var(axis=0), var, rtol=6 * math.sqrt(2 / 4000))


def centroid_model(tiny: LGCPModel) -> LGCPModel:
    """The tiny data with another quadrature (triangle centroids, so B is not the identity) and an offset."""
    mesh, d = tiny.mesh, tiny.design
    cx, cy = mesh.nodes[mesh.triangles].mean(axis=1).T
    offset = lambda x, y: 0.1 * np.sin(x) - 0.05 * y  # noqa: E731
    px, py = (d.proj @ mesh.nodes).T  # the points (each row of proj interpolates the node coordinates)
    design = LGCPDesign(
        proj=d.proj,
        x_points=d.x_points,
        offset_points=offset(px, py),
        int_proj=mesh.projection(cx, cy),
        int_weights=mesh.triangle_areas,
        x_int=np.column_stack([np.ones(cx.size), covariate(cx, cy)]),
        offset_int=offset(cx, cy),
        names=d.names,
    )
    return LGCPModel(design, tiny.spde, tiny.theta_prior, mesh=mesh)


@pytest.mark.parametrize("quadrature", ["vertex", "centroid"])
def test_fast_proposals_reproduce_the_laplace_approximation(tiny, quadrature):
    # core.mcmc's own Newton iterations and banded assembly give the same mode and Hessian as core.lgcp,
    # and its log density of x given theta is core.lgcp's up to a constant
    model = tiny if quadrature == "vertex" else centroid_model(tiny)
    engine = _Engine(model)
    theta = THETA + 0.2
    fit = model.laplace(theta)
    gauss, _ = engine.gaussian(theta, (np.zeros(engine.n), model.beta_prior.mean), tol=1e-10)
    reference = GaussianApproximation.from_fit(fit)
    assert np.allclose(gauss.w, fit.w, atol=1e-8) and np.allclose(gauss.beta, fit.beta, atol=1e-8)
    assert gauss.half_logdet == pytest.approx(reference.half_logdet, abs=1e-8)
    assert engine.quad_form(theta, fit.w) == pytest.approx(float(fit.w @ (model.precision(theta) @ fit.w)), rel=1e-10)
    w, beta = gauss.colour(np.random.default_rng(16).standard_normal(engine.n + engine.p))
    differences = [
        engine.log_conditional(theta, u, b) - log_joint(model, theta, u, b) for u, b in ((w, beta), (fit.w, fit.beta))
    ]
    assert differences[0] == pytest.approx(differences[1], abs=1e-8)


def test_gradient_of_the_whitened_target_matches_finite_differences(tiny):
    # the HMC field move needs grad_z log pi(theta, z) = M' grad_x log p(theta, x | S); central differences
    # of the target's own log density (whose value the gradient routine must reproduce) check it
    engine = _Engine(centroid_model(tiny))
    target = _Target(engine, THETA, np.eye(2))
    anchor = target.anchor(THETA + 0.1, tol=1e-8, max_steps=200)
    z = np.random.default_rng(17).standard_normal(engine.n + engine.p)
    value, grad, w, beta = target.log_density_and_gradient(anchor, z)
    reference, w_ref, beta_ref = target.log_density(anchor, z)
    assert value == pytest.approx(reference, abs=1e-9) and np.array_equal(w, w_ref) and np.array_equal(beta, beta_ref)
    h = 1e-5
    numeric = [
        (target.log_density(anchor, z + h * e)[0] - target.log_density(anchor, z - h * e)[0]) / (2 * h)
        for e in np.eye(z.size)
    ]
    assert np.allclose(grad, numeric, rtol=1e-6, atol=1e-6 * float(np.max(np.abs(grad))))


def mcse(draws: np.ndarray, ess: float) -> float:
    return float(np.std(draws, ddof=1)) / math.sqrt(ess)


@pytest.mark.parametrize("field_move", ["hmc", "pcn"])
def test_fixed_theta_posterior_of_beta_matches_importance_sampling(tiny, field_move):
    # p(w, beta | theta, S) at fixed theta: MCMC against self-normalised importance sampling with a t
    # proposal (dense code). Both are unbiased up to their Monte Carlo errors, so the means must agree
    # within 4 combined standard errors. The Laplace mode is far from the posterior mean here (checked
    # below), so a sampler that skipped the Metropolis-Hastings correction would fail.
    dense = Dense(tiny)
    x, log_w, centre = dense.importance(THETA, 40_000, np.random.default_rng(6))
    weights = np.exp(log_w - log_w.max())
    weights /= weights.sum()
    beta = x[:, dense.n :]
    is_mean = weights @ beta
    is_se = np.sqrt(np.sum(weights[:, None] ** 2 * (beta - is_mean) ** 2, axis=0))
    assert 1.0 / np.sum(weights**2) > 5000  # the importance sampler itself is reliable
    post = fit_mcmc(
        tiny, np.random.default_rng(7), draws=4000, chains=2, warmup=200, fixed_theta=THETA, field_move=field_move
    )
    assert post.diagnostics["field_move"] == field_move and 0.3 < post.diagnostics["acceptance_field"] < 0.95
    assert post.method == "mcmc" and np.all(post.log_range == THETA[0]) and np.all(post.log_sigma == THETA[1])
    assert set(post.diagnostics["ess"]) == {"intercept", "covariate"}
    for j, name in enumerate(post.names):
        se = math.hypot(mcse(post.beta[:, j], post.diagnostics["ess"][name]), is_se[j])
        assert abs(post.beta[:, j].mean() - is_mean[j]) < 4 * se, (name, post.beta[:, j].mean(), is_mean[j], se)
        if name == "intercept":  # the check has power: the Gaussian approximation's mean (the mode) fails it
            assert abs(centre[dense.n + j] - is_mean[j]) > 8 * se
    is_sd = np.sqrt(weights @ (beta - is_mean) ** 2)
    assert np.allclose(post.beta.std(axis=0), is_sd, rtol=0.08)


@pytest.fixture(scope="module")
def tiny_quadrature(tiny):
    """Posterior means and sds of (log range, log sigma, intercept, covariate) of the tiny model by
    quadrature over the hyperparameters and importance sampling (dense code), with standard errors.

    p(theta | S) on a 25 x 25 grid (step 0.5 sd of the Laplace Gaussian, +-6 sd), the marginal
    likelihood at each grid point by importance sampling; E[f | S] = sum_theta Z(theta) E[f | theta, S] /
    sum_theta Z(theta). The grid sum of a smooth density with spacing 0.5 sd is exact to far below the Monte
    Carlo errors; the importance-sampling error of these ratio estimators is propagated by the delta method.
    """
    dense = Dense(tiny)
    mode, hess = HyperparameterSearch(tiny).mode_and_hessian()
    eigval, eigvec = np.linalg.eigh(hess)
    scale = eigvec / np.sqrt(eigval)
    rng = np.random.default_rng(8)
    steps = np.arange(-6.0, 6.0 + 1e-9, 0.5)
    size = 400
    log_scale, sums, terms = [], [], []
    for a in steps:
        for b in steps:
            theta = mode + scale @ np.array([a, b])
            x, log_w, _ = dense.importance(theta, size, rng)
            top = float(log_w.max())
            values = np.column_stack([np.tile(theta, (size, 1)), x[:, dense.n :]])  # theta, beta
            f = np.column_stack([np.ones(size), values, values**2])
            u = np.exp(log_w - top)[:, None] * f
            log_scale.append(top)
            sums.append(u.mean(axis=0))
            terms.append(u)
    log_scale = np.array(log_scale)
    factor = np.exp(log_scale - log_scale.max())
    totals = factor @ np.array(sums)
    moments = totals[1:] / totals[0]  # E[theta], E[beta], E[theta^2], E[beta^2]
    mass = (np.array(sums)[:, 0] * factor).reshape(steps.size, steps.size)
    assert (mass[[0, -1], :].sum() + mass[:, [0, -1]].sum()) / mass.sum() < 1e-5  # the grid holds the mass
    var = np.zeros(moments.size)
    for k, u in enumerate(terms):
        var += (factor[k] * (u[:, 1:] - u[:, :1] * moments)).var(axis=0) / size
    moment_se = np.sqrt(var) / totals[0]
    mean, second = moments[:4], moments[4:]
    sd = np.sqrt(second - mean**2)
    # sd = sqrt(m2 - m1^2): d sd = (d m2 - 2 m1 d m1) / (2 sd); bound the covariance term by Cauchy-Schwarz
    sd_se = (moment_se[4:] + 2 * np.abs(mean) * moment_se[:4]) / (2 * sd)
    return mean, moment_se[:4], sd, sd_se


@pytest.mark.parametrize(
    "kernel",
    [
        pytest.param(dict(draws=4000), id="default"),
        # pCN field moves, and two hyperparameter moves per iteration
        pytest.param(dict(draws=4000, field_move="pcn", theta_moves=2), id="pcn"),
        # hyperparameter moves alone, each with a fresh x' ~ N(x*(theta'), H^-1): Knorr-Held & Rue's one-block update
        pytest.param(dict(field_steps=0, persistence=0.0, draws=8000), id="one-block-only"),
    ],
)
def test_full_posterior_matches_quadrature_over_the_hyperparameters(tiny, tiny_quadrature, kernel):
    # Means and sds must agree within 4 combined standard errors (MCMC: sd / sqrt(ESS) for the mean, and
    # for the sd the delta method with the ESS of the squared deviations).
    mean, mean_se, sd, sd_se = tiny_quadrature
    options = dict(draws=6000, chains=2, warmup=200)
    options.update(kernel)
    post = fit_mcmc(tiny, np.random.default_rng(9), **options)
    diag = post.diagnostics
    columns = {
        "log_range": post.log_range,
        "log_sigma": post.log_sigma,
        "intercept": post.beta[:, 0],
        "covariate": post.beta[:, 1],
    }
    for k, (name, v) in enumerate(columns.items()):
        se = math.hypot(mcse(v, diag["ess"][name]), mean_se[k])
        assert abs(v.mean() - mean[k]) < 4 * se, (name, v.mean(), mean[k], se)
        dev2 = (v - v.mean()) ** 2
        sd_mc = math.sqrt(dev2.mean())
        dev_se = mcse(dev2, effective_sample_size(dev2.reshape(2, -1))) / (2 * sd_mc)
        assert abs(sd_mc - sd[k]) < 4 * math.hypot(dev_se, sd_se[k]), (name, sd_mc, sd[k], dev_se, sd_se[k])
        assert diag["rhat"][name] < 1.01
    assert 0.2 < diag["acceptance_theta"] < 1.0


def test_same_seed_same_draws_and_the_posterior_carries_the_design(tiny, tmp_path):
    a = fit_mcmc(tiny, np.random.default_rng(10), draws=60, chains=3, warmup=20, thin=2)
    b = fit_mcmc(tiny, np.random.default_rng(10), draws=60, chains=3, warmup=20, thin=2)
    c = fit_mcmc(tiny, np.random.default_rng(11), draws=60, chains=3, warmup=20, thin=2)
    assert np.array_equal(a.w, b.w) and np.array_equal(a.log_range, b.log_range)
    assert not np.array_equal(a.w, c.w)
    assert a.n_draws == 60 and a.w.shape == (60, tiny.design.n_nodes) and a.beta.shape == (60, 2)
    assert a.names == ("intercept", "covariate") and a.nodes.shape == (49, 2)
    assert np.array_equal(a.int_weights, tiny.design.int_weights)
    d = a.diagnostics
    assert d["chains"] == 3 and d["draws_per_chain"] == 20 and not d["stopped_early"]
    assert set(d["rhat"]) == set(d["ess"]) == {"log_range", "log_sigma", "intercept", "covariate"}
    assert d["seconds"] > 0 and 0 < d["acceptance_field"] <= 1
    a.save(str(tmp_path / "mcmc.npz"))
    again = Posterior.load(str(tmp_path / "mcmc.npz"))
    assert again.method == "mcmc" and np.array_equal(again.w, a.w) and again.diagnostics["ess"] == d["ess"]


def test_progress_is_reported_and_can_cancel(tiny):
    seen = []
    fit_mcmc(tiny, np.random.default_rng(12), draws=40, warmup=10, progress=lambda f, m: seen.append(f))
    assert seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen) and seen == sorted(seen)

    class CancelledError(Exception):
        pass

    def cancel(fraction, message):
        if fraction > 0.5:
            raise CancelledError

    with pytest.raises(CancelledError):
        fit_mcmc(tiny, np.random.default_rng(12), draws=400, warmup=10, progress=cancel)


def test_time_budget_stops_all_chains_at_the_same_length(tiny):
    post = fit_mcmc(tiny, np.random.default_rng(13), draws=10**6, chains=2, warmup=10, max_seconds=2.0)
    d = post.diagnostics
    assert d["stopped_early"] and post.n_draws == 2 * d["draws_per_chain"] < 10**6
    assert d["seconds"] >= 2.0  # it stopped because the budget ran out (an upper bound would time the machine)


@pytest.mark.parametrize(
    "kw, parameter",
    [
        (dict(draws=0), "draws"),
        (dict(chains=1.5), "chains"),
        (dict(thin=0), "thin"),
        (dict(warmup=-1), "warmup"),
        (dict(max_seconds=0), "max_seconds"),
        (dict(fixed_theta=(1.0,)), "fixed_theta"),
        (dict(persistence=1.0), "persistence"),
        (dict(field_steps=-1), "field_steps"),
        (dict(fixed_theta=(1.0, 0.0), field_steps=0), "field_steps"),
        (dict(field_move="mala"), "field_move"),
        (dict(theta_moves=0), "theta_moves"),
    ],
)
def test_bad_arguments_are_refused(tiny, kw, parameter):
    with pytest.raises(ParameterError) as info:
        fit_mcmc(tiny, np.random.default_rng(0), **kw)
    assert info.value.parameter == parameter


# -- the fast posterior against the sampler ---------------------------------------------------------------


@pytest.fixture(scope="module")
def moderate():
    """546 nodes on [0, 10]^2, 495 points from intercept 0.7, slope 0.3, range 3, sigma 0.8."""
    window = Window.rectangle(0, 0, 10, 10)
    mesh = triangulate(window, 0.5)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    rng = np.random.default_rng(3)
    slope = lambda x, y: (x - 5.0) / 3.0  # noqa: E731
    w = spde.sample(3.0, 0.8, rng)[0]
    x, y = simulate_points(mesh, window, 0.7 + 0.3 * slope(*mesh.nodes.T) + w, rng)
    n = mesh.n_nodes
    design = LGCPDesign(
        proj=mesh.projection(x, y),
        x_points=np.column_stack([np.ones(x.size), slope(x, y)]),
        offset_points=np.zeros(x.size),
        int_proj=sp.identity(n, format="csr"),
        int_weights=mesh.integration_weights(window),
        x_int=np.column_stack([np.ones(n), slope(*mesh.nodes.T)]),
        offset_int=np.zeros(n),
        names=("intercept", "covariate"),
    )
    model = LGCPModel(design, spde, fields.LogNormalFieldPrior(range0=4.0, sigma0=1.0), mesh=mesh)
    assert 300 <= x.size <= 600
    return model, fit_mcmc(model, np.random.default_rng(14), draws=2000, chains=2, warmup=200)


@pytest.mark.slow
@pytest.mark.parametrize(
    "grid",
    [
        pytest.param(dict(grid_step=0.5, max_drop=10.0), id="fine-grid"),
        pytest.param(dict(), id="default-grid"),
    ],
)
def test_fast_posterior_agrees_with_mcmc(moderate, grid):
    # Tolerance for the means: 4 combined Monte Carlo standard errors (MCMC: sd / sqrt(ESS); fast method:
    # sd / sqrt(draws), its draws are independent) plus the fast method's approximation error. Its Gaussian
    # approximation centres p(w, beta | theta, S) on the mode rather than the mean; for a log-intensity
    # informed by n Poisson counts the mean-mode gap is about 1 / (2 sqrt(n)) posterior sd (log of a
    # Gamma(n) posterior), i.e. about 0.1 sd for the few dozen points per correlation range here (0.4 sd
    # with the 45 points of the tiny model above), so 0.15 sd is allowed. The hyperparameter grid adds a
    # discretisation error that the fine grid keeps below that. Interval widths must agree within 20%.
    model, exact = moderate
    fast = fit_laplace(model, np.random.default_rng(15), draws=4000, **grid)
    ess = exact.diagnostics["ess"]
    assert min(ess.values()) > 800 and max(exact.diagnostics["rhat"].values()) < 1.01
    pairs = {
        "log_range": (exact.log_range, fast.log_range),
        "log_sigma": (exact.log_sigma, fast.log_sigma),
        "intercept": (exact.beta[:, 0], fast.beta[:, 0]),
        "covariate": (exact.beta[:, 1], fast.beta[:, 1]),
    }
    for name, (a, b) in pairs.items():
        sd = float(np.std(a, ddof=1))
        se = math.hypot(mcse(a, ess[name]), float(np.std(b, ddof=1)) / math.sqrt(b.size))
        assert abs(a.mean() - b.mean()) < 4 * se + 0.15 * sd, (name, a.mean(), b.mean(), se, sd)
        width_a = np.diff(np.quantile(a, [0.025, 0.975]))[0]
        width_b = np.diff(np.quantile(b, [0.025, 0.975]))[0]
        assert width_b == pytest.approx(width_a, rel=0.20), (name, width_a, width_b)


def test_twelve_points_stay_out_of_the_region_where_node_spikes_fool_the_edge_midpoints():
    # with 12 points the discretised likelihood with edge-midpoint integration grows without bound at large field
    # variances (core.lgcp.NodeCheck); the sampler used to go there: field variance 6e16, int lambda 1e13, R-hat
    # 3-10. Those hyperparameters are left out of the map the proposal is built from, so no draw is spiky and
    # E[int lambda | S] is within 3 posterior sd (about sqrt(N)) of N; the lognormal prior (sd 1 on log sigma,
    # median 1) puts 99.9% of sigma^2 below exp(2 * 3.09) = 483.
    from spatial_privacy.core.lgcp_setup import build_lgcp

    from .conftest import DATA, read_gpkg_points

    x, y, _ = read_gpkg_points(DATA / "snow_cholera.gpkg", "deaths", "case")
    setup = build_lgcp(x[:12], y[:12])
    posterior = fit_mcmc(setup.model, np.random.default_rng(1), draws=200)
    assert posterior.diagnostics["spiky_draws"] == 0
    # For the exact posterior the intercept's score has mean 0: E[Lambda | S] = N - E[beta_0 - m] / s^2 exactly
    # (prior N(m, s^2)); the chain adds a Monte Carlo error of sd(Lambda) / sqrt(ESS), ESS from the chain's
    # own autocorrelation of Lambda
    from spatial_privacy.core.mcmc_diagnostics import effective_sample_size

    total = posterior.integrated_intensity()
    m, s = setup.model.beta_prior.mean[0], setup.model.beta_prior.sd[0]
    expected = 12 - (posterior.beta[:, 0].mean() - m) / s**2
    assert abs(total.mean() - expected) < 4 * total.std() / math.sqrt(effective_sample_size(total))
    assert np.quantile(posterior.sigma**2, 0.975) < math.exp(2 * stats.norm.ppf(0.999))
    # the target itself is truncated: an anchor at hyperparameters whose fit fools the midpoints does not exist
    model = build_lgcp(x[:12], y[:12]).model
    target = _Target(_Engine(model), np.array(posterior.diagnostics["theta_mode"]), np.eye(2))
    assert target.anchor(np.array(posterior.diagnostics["theta_mode"])) is not None and not target.last_spiky
    assert target.anchor(np.array([-0.25, 5.0])) is None and target.last_spiky
    with pytest.raises(ParameterError, match="spikes at single mesh nodes") as info:
        fit_mcmc(model, np.random.default_rng(1), draws=10, fixed_theta=(-0.25, 5.0))
    assert info.value.parameter == "integration"
