"""Posterior draws too large for memory (core.draw_store): kept in an unnamed temporary file during the fit,
streamed into the model file and mapped from it on loading, with the same draws and the same summaries as in
memory; the summaries read the draws in blocks, in memory bounded by the block, not by draws x locations."""

from __future__ import annotations

import gc
import os
import sys
import tracemalloc
import zipfile
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import logsumexp

from spatial_privacy.core import draw_store, lgcp, mcmc
from spatial_privacy.core.draw_store import draw_array, on_disk, row_blocks
from spatial_privacy.core.errors import ParameterError
from spatial_privacy.core.laplace_fit import HyperparameterSearch, fit_at_theta, fit_laplace
from spatial_privacy.core.mcmc import fit_mcmc
from spatial_privacy.core.metrics.cpo import log_cpo, log_mean_exp, posterior_cpo
from spatial_privacy.core.metrics.intensity_draws import IntensityDraws
from spatial_privacy.core.posterior import Posterior

from .test_mcmc import tiny_model


@pytest.fixture(scope="module")
def tiny():
    return tiny_model()


@pytest.fixture
def on_disk_always(monkeypatch):
    """Every array of draws (and every model file's draws on loading) goes to disk, however small."""
    monkeypatch.setattr(draw_store, "IN_MEMORY_BYTES", 0)


def test_an_array_beyond_the_limit_lives_in_a_file_that_goes_with_it():
    small = draw_array(10, 10, in_memory_bytes=800)
    assert not on_disk(small) and small.shape == (10, 10)
    before = set(os.listdir("/proc/self/fd")) if sys.platform == "linux" else None
    large = draw_array(10, 11, in_memory_bytes=800)
    assert on_disk(large) and on_disk(np.asarray(large)[2:4]) and large.shape == (10, 11)
    large[:] = 2.5
    assert float(np.asarray(large).sum()) == 275.0
    if before is not None:
        held = set(os.listdir("/proc/self/fd")) - before
        assert len(held) == 1  # the map's own handle; the file has no name in any folder
        assert os.readlink(f"/proc/self/fd/{held.pop()}").endswith("(deleted)")
        del large
        gc.collect()
        assert set(os.listdir("/proc/self/fd")) <= before  # the file is gone with the array
    assert not on_disk(draw_array(0, 10, in_memory_bytes=0))  # nothing to map


def test_row_blocks_cover_the_rows_once_in_order():
    blocks = list(row_blocks(10, 3, values=7))
    assert [(b.start, b.stop) for b in blocks] == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    assert [(b.start, b.stop) for b in row_blocks(10, 100, values=7, minimum=4)] == [(0, 4), (4, 8), (8, 10)]
    assert list(row_blocks(0, 5)) == []


@pytest.mark.parametrize("integration", ["grid", "ccd"])
def test_a_fit_on_disk_gives_exactly_the_draws_of_a_fit_in_memory(tiny, monkeypatch, integration):
    def fit():
        return fit_laplace(tiny, np.random.default_rng(4), draws=300, integration=integration, probes=20)

    memory = fit()
    monkeypatch.setattr(draw_store, "IN_MEMORY_BYTES", 0)
    disk = fit()
    assert not on_disk(memory.w) and on_disk(disk.w)
    for name in ("beta", "w", "log_range", "log_sigma"):
        assert np.array_equal(getattr(memory, name), getattr(disk, name)), name
    fixed = [fit_at_theta(tiny, memory.diagnostics["theta_mode"], np.random.default_rng(5), draws=50) for _ in "ab"]
    monkeypatch.setattr(draw_store, "IN_MEMORY_BYTES", 1 << 30)
    fixed[0] = fit_at_theta(tiny, memory.diagnostics["theta_mode"], np.random.default_rng(5), draws=50)
    assert on_disk(fixed[1].w) and not on_disk(fixed[0].w)
    assert np.array_equal(fixed[0].w, fixed[1].w) and np.array_equal(fixed[0].beta, fixed[1].beta)


def test_draws_in_blocks_use_the_generator_as_one_block_does(tiny, monkeypatch):
    """A draw's normals are consecutive in the generator's stream, so the blocks change only the rounding of the
    solves (here none: each column is solved on its own)."""
    fit = HyperparameterSearch(tiny).fit_at(np.array([1.0, -0.2]))
    beta, w = fit.draw(np.random.default_rng(8), 40)
    monkeypatch.setattr(lgcp, "DRAW_BLOCK_VALUES", 3 * tiny.design.n_nodes)
    monkeypatch.setattr(lgcp, "DRAW_BLOCK_MIN", 1)
    out = np.full((40, tiny.design.n_nodes), np.nan)
    beta_blocks, w_blocks = fit.draw(np.random.default_rng(8), 40, out=out)
    assert w_blocks is out and np.array_equal(beta, beta_blocks)
    assert np.allclose(w, out, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="shape"):
        fit.draw(np.random.default_rng(8), 40, out=out[:39])


def test_mcmc_cut_short_keeps_each_chains_draws_in_order(tiny, monkeypatch):
    """A time budget leaves gaps in the array of draws (each chain had room for all its draws); closed, the draws
    are exactly those of a run asked for that many draws. A clock that ticks once per reading makes the stop
    deterministic."""
    ticks = iter(range(10**6))

    class Clock:
        @staticmethod
        def perf_counter():
            return float(next(ticks))

    monkeypatch.setattr(mcmc, "time", Clock)
    cut = fit_mcmc(tiny, np.random.default_rng(13), draws=400, chains=2, warmup=10, max_seconds=40)
    kept = cut.diagnostics["draws_per_chain"]
    assert cut.diagnostics["stopped_early"] and 4 <= kept < 200 and cut.n_draws == 2 * kept
    whole = fit_mcmc(tiny, np.random.default_rng(13), draws=2 * kept, chains=2, warmup=10)
    assert not whole.diagnostics["stopped_early"]
    assert np.array_equal(cut.w, whole.w) and np.array_equal(cut.beta, whole.beta)
    assert np.array_equal(cut.log_range, whole.log_range)


def _posterior(draws: int, nodes: int, points: int, seed: int = 0) -> Posterior:
    """Random draws over a random integration design: the arithmetic of the summaries, not a fit."""
    rng = np.random.default_rng(seed)
    proj = sp.random(points, nodes, density=3 / nodes, format="csr", random_state=seed)
    return Posterior(
        method="laplace",
        names=("intercept", "slope"),
        beta=rng.normal([-3.0, 0.2], 0.1, (draws, 2)),
        w=rng.normal(0.0, 0.5, (draws, nodes)),
        log_range=rng.normal(size=draws),
        log_sigma=rng.normal(size=draws),
        nodes=rng.uniform(size=(nodes, 2)),
        triangles=np.zeros((0, 3), dtype=np.int64),
        int_proj=proj,
        int_weights=rng.uniform(0.5, 1.5, points),
        x_int=np.column_stack([np.ones(points), rng.uniform(-1, 1, points)]),
        offset_int=rng.normal(0, 0.1, points),
    )


def test_summaries_read_the_draws_in_blocks_in_bounded_memory():
    post = _posterior(draws=400, nodes=3_000, points=40_000)
    eta = (post.int_proj @ post.w.T).T + post.beta @ post.x_int.T + post.offset_int  # (400, 40,000): 128 MB
    lam = np.exp(eta)
    want_integral, want_mean, want_sd = lam @ post.int_weights, lam.mean(axis=0), lam.std(axis=0, ddof=1)
    a = np.log(want_integral)[:, None] - eta  # eq. (9)'s log Lambda_l - log lambda_l(s_k), by scipy directly
    want_cpo = np.log(400) - logsumexp(a, axis=0), np.exp(2 * logsumexp(a, axis=0) - logsumexp(2 * a, axis=0))
    del eta, lam, a
    points = SimpleNamespace(proj=post.int_proj, x_points=post.x_int, offset_points=post.offset_int)
    tracemalloc.start()
    try:
        integral = post.integrated_intensity()
        mean, sd = post.intensity_summary(post.int_proj, post.x_int, post.offset_int)
        cpo, log_cpo_values, ess = posterior_cpo(post, points)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # a block is about BLOCK_VALUES values (16 MB); the old code held the whole (draws, locations) product, twice
    assert peak < 5 * draw_store.BLOCK_VALUES * 8 < 400 * 40_000 * 8
    assert np.allclose(integral, want_integral, rtol=1e-12, atol=0)
    assert np.allclose(mean, want_mean, rtol=1e-12, atol=0) and np.allclose(sd, want_sd, rtol=1e-10, atol=0)
    assert np.allclose(log_cpo_values, want_cpo[0], rtol=0, atol=1e-12) and np.allclose(cpo, np.exp(want_cpo[0]))
    assert np.allclose(ess, want_cpo[1], rtol=1e-12, atol=0)


def test_a_large_model_file_is_streamed_in_and_mapped_out(tiny, tmp_path, on_disk_always):
    post = fit_laplace(tiny, np.random.default_rng(6), draws=200, integration="ccd", probes=20)
    assert on_disk(post.w)
    path = str(tmp_path / "model.npz")
    post.save(path)
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("w.npy")
        assert info.compress_type == zipfile.ZIP_STORED and archive.testzip() is None
        assert archive.getinfo("beta.npy").compress_type == zipfile.ZIP_DEFLATED
    with np.load(path) as plain:  # still an ordinary .npz to numpy
        assert np.array_equal(plain["w"], post.w)
    again = Posterior.load(path)
    assert on_disk(again.w) and again.w.flags.aligned and not again.w.flags.writeable
    assert again.w.ctypes.data % 64 == 0  # the padding put the array on a 64-byte boundary of the file
    assert np.array_equal(again.w, post.w) and np.array_equal(again.beta, post.beta)
    assert np.array_equal(again.integrated_intensity(), post.integrated_intensity())
    proj = tiny.design.proj
    assert np.array_equal(
        again.intensity_summary(proj, tiny.design.x_points)[1], post.intensity_summary(proj, tiny.design.x_points)[1]
    )


def test_a_small_model_file_is_read_into_memory(tiny, tmp_path):
    post = fit_laplace(tiny, np.random.default_rng(6), draws=50, integration="ccd", probes=20)
    path = str(tmp_path / "model.npz")
    post.save(path)
    again = Posterior.load(path)
    assert not on_disk(again.w) and np.array_equal(again.w, post.w)


def test_a_mapped_model_file_with_damaged_draws_is_refused(tmp_path, on_disk_always):
    post = _posterior(draws=30, nodes=50, points=60)
    post.w[17, 3] = np.nan
    path = str(tmp_path / "damaged.npz")
    post.save(path)
    with pytest.raises(ParameterError, match="draws of the field hold values that are not finite"):
        Posterior.load(path)


def test_cpo_sums_by_blocks_keep_scipys_infinities():
    """A zero intensity at a point in one draw (log -inf) makes that point's CPO 0, in one block (log_cpo) or in
    several (posterior_cpo on a mesh of 100,000 nodes: 20 draws a block), as scipy's logsumexp has it."""
    rng = np.random.default_rng(3)
    log_lam = rng.normal(0.0, 3.0, (50, 4))
    log_lam[37, 1] = -np.inf  # in the second block
    a = -log_lam  # log Lambda_l = 0 below: an integral of 1
    want = np.log(50) - logsumexp(a, axis=0)
    with np.errstate(invalid="ignore"):
        want_ess = np.exp(2 * logsumexp(a, axis=0) - logsumexp(2 * a, axis=0))
    assert want[1] == -np.inf and np.allclose(log_cpo(log_lam, np.zeros(50)), want, rtol=0, atol=1e-12)
    post = _posterior(draws=50, nodes=100_000, points=1)
    post.w[:, :4], post.beta[:] = log_lam, 0.0  # nodes 0-3 are the points: log lambda there is w
    post.int_proj, post.x_int, post.offset_int = sp.csr_matrix((1, 100_000)), np.zeros((1, 2)), np.zeros(1)
    post.int_weights = np.ones(1)
    design = SimpleNamespace(
        proj=sp.csr_matrix((np.ones(4), (np.arange(4), np.arange(4))), shape=(4, 100_000)),
        x_points=np.zeros((4, 2)),
        offset_points=None,
    )
    assert len(list(row_blocks(50, 100_000))) == 3
    cpo, values, ess = posterior_cpo(post, design)
    assert values[1] == -np.inf and cpo[1] == 0.0 and np.allclose(values, want, rtol=0, atol=1e-12)
    assert np.allclose(ess[[0, 2, 3]], want_ess[[0, 2, 3]], rtol=1e-12, atol=0)


def test_the_risks_window_integrals_read_the_draws_in_blocks_in_bounded_memory():
    """The disclosure risk's ``log int_W lambda_l`` and, for eq. (21) as printed, the CPO density at every
    integration point (core.metrics.risk.synthesis_risk), by blocks against the whole (draws, points) array."""
    post = _posterior(draws=400, nodes=3_000, points=40_000)
    draws = IntensityDraws(
        SimpleNamespace(n_nodes=3_000),
        post.beta[:, :1],
        post.w,
        int_proj=post.int_proj,
        int_weights=post.int_weights,
        x_int=post.x_int[:, :1],
        offset_int=post.offset_int,
    )
    whole = draws.window_log_intensity()  # (400, 40,000): 128 MB
    want_integrals = logsumexp(whole + np.log(post.int_weights), axis=1)
    want_density = np.exp(-log_mean_exp(want_integrals[:, None] - whole, axis=0))
    del whole
    tracemalloc.start()
    try:
        integrals = draws.log_integrals
        density = np.concatenate(
            [
                np.exp(-log_mean_exp(integrals[:, None] - draws.window_log_intensity(points), axis=0))
                for points in draws.window_blocks()
            ]
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5 * draw_store.BLOCK_VALUES * 8 < 400 * 40_000 * 8
    assert np.allclose(integrals, want_integrals, rtol=0, atol=1e-12)
    assert np.allclose(density, want_density, rtol=1e-12, atol=0)
