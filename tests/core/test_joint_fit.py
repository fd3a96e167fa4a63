"""Joint fits of confidential and synthetic points for the ANS / PRS disclosure risks (Walder 7.3-7.4)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatial_privacy.core import fields
from spatial_privacy.core.laplace_fit import fit_laplace
from spatial_privacy.core.lgcp import LGCPDesign, LGCPModel, simulate_points
from spatial_privacy.core.metrics import joint_fit
from spatial_privacy.core.quadrature import quadrature
from spatial_privacy.core.triangulation import triangulate
from spatial_privacy.core.window import Window

WINDOW = Window.rectangle(0, 0, 10, 10)


def small_model(x, y, mesh, spde):
    quad = quadrature(mesh, WINDOW, "midpoint")
    design = LGCPDesign(
        mesh.projection(x, y),
        np.ones((x.size, 1)),
        np.zeros(x.size),
        quad.proj,
        quad.weights,
        np.ones((quad.x.size, 1)),
        np.zeros(quad.x.size),
        ("intercept",),
    )
    return LGCPModel(design, spde, fields.LogNormalFieldPrior(range0=3.0, sigma0=1.0), mesh=mesh)


@pytest.mark.parametrize("method", ["ans", "prs"])
def test_joint_prior_is_the_block_diagonal_of_the_two_fields(method):
    mesh = triangulate(WINDOW, 2.0)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    field = joint_fit.JointField(spde, method, 4.0 if method == "ans" else 0.0)
    theta = (math.log(3.0), math.log(0.7))
    q = field.precision_at(theta).toarray()
    q_w = spde.precision(3.0, 0.7).toarray()
    kappa2 = 8.0 / 9.0
    sigma_v = math.sqrt(4.0 / (4 * math.pi * kappa2)) if method == "ans" else 0.7
    q_v = spde.precision(3.0, sigma_v).toarray()
    assert np.allclose(q[0::2, 0::2], q_w) and np.allclose(q[1::2, 1::2], q_v)
    assert np.allclose(q[0::2, 1::2], 0.0)
    assert field.logdet_at(theta) == pytest.approx(np.linalg.slogdet(q)[1], rel=1e-9)
    perm = field.ordering()
    assert sorted(perm.tolist()) == list(range(field.n))


def test_ans_joint_fit_recovers_the_shared_parameters():
    # Confidential and ANS points simulated from eqs. 19-20 with known range, sigma and noise level; the
    # joint fast posterior's 95% intervals must cover each parameter in at least 9 of 12 data sets:
    # P(<= 8 of 12 | coverage 0.95) = 0.002 per parameter, while intervals covering half the time would
    # pass with probability 0.07.
    rho, sigma, noise, intercept = 3.0, 0.8, 6.0, 1.0
    mesh = triangulate(WINDOW, 0.7)
    spde = fields.SPDEMatern(*mesh.fem_matrices())
    sigma_v = math.sqrt(noise / (4 * math.pi)) * rho / math.sqrt(8.0)
    covered = {"intercept": 0, "range": 0, "variance": 0}
    for seed in range(12):
        rng = np.random.default_rng(300 + seed)
        w = spde.sample(rho, sigma, rng)[0]
        v = spde.sample(rho, sigma_v, rng)[0]
        x, y = simulate_points(mesh, WINDOW, intercept + w, rng)
        xs, ys = simulate_points(mesh, WINDOW, intercept + w + v, rng)
        model = small_model(x, y, mesh, spde)
        joint = joint_fit.joint_model(model, xs, ys, np.ones((xs.size, 1)), np.zeros(xs.size), "ans", noise)
        posterior = fit_laplace(joint, rng, draws=400)
        rows = {name: (lo, hi) for name, _, _, lo, hi in posterior.summary()}
        truth = {"intercept": intercept, "range": rho, "variance": sigma**2}
        for name in covered:
            covered[name] += rows[name][0] <= truth[name] <= rows[name][1]
        beta, w_conf = joint_fit.confidential_draws(posterior, mesh.n_nodes)
        assert w_conf.shape == (400, mesh.n_nodes)
    assert all(v >= 9 for v in covered.values()), covered
