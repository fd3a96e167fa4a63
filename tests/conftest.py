"""Shared fixtures. pytest-qgis starts one headless QgsApplication for the whole session.

The plugin is imported by its real name, ``spatial_privacy`` (scripts/bootstrap.sh links the
repository into the venv's path), never through the checkout's folder.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"

# `python -m pytest` from the checkout puts it on sys.path, where our processing/ would shadow
# QGIS's own `processing` module. Take it off before anything imports `processing`.
sys.path[:] = [p for p in sys.path if p not in ("", ".") and Path(p or ".").resolve() != REPO]
if "processing" in sys.modules and Path(sys.modules["processing"].__file__).resolve().is_relative_to(REPO):
    raise RuntimeError("the checkout's processing/ was imported as QGIS's processing; run tests with .venv/bin/pytest")
ALG = "spatialprivacy:pufferfishgrid"


@pytest.fixture(scope="session")
def provider(qgis_processing):
    """The plugin's Processing provider, registered once in the session's QGIS."""
    from qgis.core import QgsApplication

    from spatial_privacy.processing.provider import SpatialPrivacyProvider

    registry = QgsApplication.processingRegistry()
    existing = registry.providerById("spatialprivacy")
    if existing is not None:
        return existing
    instance = SpatialPrivacyProvider()
    assert registry.addProvider(instance)
    _keep.append(instance)  # the registry does not keep the Python wrapper alive
    return instance


_keep: list = []


@pytest.fixture(scope="session")
def data_copy(tmp_path_factory) -> Path:
    """A writable copy of tests/data (GeoPackages get -wal files when opened)."""
    target = tmp_path_factory.mktemp("data")
    for path in DATA.glob("*.gpkg"):
        shutil.copy(path, target / path.name)
        (target / path.name).chmod(0o644)  # SQLite needs to write its journal
    return target


@pytest.fixture(scope="session")
def enterprises(data_copy) -> str:
    return str(data_copy / "sdcspatial_enterprises.gpkg") + "|layername=enterprises"


@pytest.fixture(scope="session")
def dwellings(data_copy) -> str:
    return str(data_copy / "sdcspatial_dwellings.gpkg") + "|layername=dwellings"


@pytest.fixture(scope="session", autouse=True)
def _release_leaked_frames(qgis_app):
    """Free QGIS objects still held by leaked frames before pytest-qgis calls exitQgis().

    When an algorithm raises inside processAlgorithm, the Python exception crosses sip into C++
    and its traceback is never released; through ``f_back`` it keeps every calling frame alive,
    test functions included. A QgsVectorLayer in such a frame would then be destroyed only at
    interpreter exit, after QGIS has shut down, and crash the process. This fixture tears down
    before ``qgis_app``: it clears finished frames of the tests and of QGIS's processing module.
    """
    yield
    import gc
    import inspect
    import types

    keep = (str(REPO / "tests"), "/usr/share/qgis/python/plugins/processing")
    gc.collect()
    for obj in gc.get_objects():
        if isinstance(obj, types.FrameType) and obj.f_code.co_filename.startswith(keep):
            if obj.f_code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
                continue
            try:
                obj.clear()
            except RuntimeError:  # still executing
                pass
    gc.collect()


@pytest.fixture
def keep_in_project():
    """Hand file-backed layers that a test passes to ``processing.run`` to the project, and remove them at
    teardown. A fixture-held OGR layer that Python destroys after such a run crashes the interpreter
    (QGIS 3.22); the project's layer store owns and deletes it cleanly."""
    from qgis.core import QgsProject

    ids = []

    def keep(layer):
        QgsProject.instance().addMapLayer(layer, False)
        ids.append(layer.id())
        return layer

    yield keep
    for layer_id in ids:
        QgsProject.instance().removeMapLayer(layer_id)


@pytest.fixture
def run_loading():
    """``run_loading(alg_id, params, names=("OUTPUT",))``: run an algorithm as its dialog does, with the outputs
    ``names`` set to load into the project on completion, so that the name and the style the algorithm gives a
    loaded layer can be checked. Returns ``(results, context, feedback)``. ``run_loading.loaded(context, target,
    layer, feedback)`` applies the target's post-processor (its style) to ``layer`` and returns the layer's name."""
    from qgis.core import QgsApplication, QgsProcessingContext, QgsProcessingFeedback, QgsProject

    def run(alg_id: str, params: dict, names=("OUTPUT",)):
        project = QgsProject.instance()
        context = QgsProcessingContext()
        context.setProject(project)
        for name in names:
            context.addLayerToLoadOnCompletion(params[name], QgsProcessingContext.LayerDetails(name, project, name))
        feedback = QgsProcessingFeedback()
        results, ok = QgsApplication.processingRegistry().createAlgorithmById(alg_id).run(params, context, feedback)
        assert ok, feedback.textLog()
        return results, context, feedback

    def loaded(context, target: str, layer, feedback) -> str:
        details = context.layerToLoadOnCompletionDetails(target)
        if layer is not None:
            details.postProcessor().postProcessLayer(layer, context, feedback)
        return details.name

    run.loaded = loaded
    return run


@pytest.fixture
def cancel_after():
    """``cancel_after(percent)``: a feedback that presses Cancel once progress passes ``percent`` (0 cancels before
    the run starts), for the "a cancelled run writes nothing" tests."""
    from qgis.core import QgsProcessingFeedback

    class CancelAfter(QgsProcessingFeedback):
        def __init__(self, percent: float):
            super().__init__()
            self.percent = percent
            if percent <= 0:
                self.cancel()

        def setProgress(self, progress):  # noqa: N802 (QGIS API name)
            super().setProgress(progress)
            if progress > self.percent:
                self.cancel()

    return CancelAfter


@pytest.fixture
def recording_feedback():
    """A feedback class whose instances record every progress value set on them in ``.values``."""
    from qgis.core import QgsProcessingFeedback

    class Recording(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.values = []

        def setProgress(self, progress):  # noqa: N802 (QGIS API name)
            super().setProgress(progress)
            self.values.append(progress)

    return Recording


@pytest.fixture
def one_step_model():
    """``one_step_model(alg_id, statics)``: a graphical model whose one child runs ``alg_id`` on the model input
    ``pts`` with the static parameter values ``statics``; the child's OUTPUT is the model output ``c:o``. For the
    checks that must also hold inside models (QGIS does not call checkParameterValues for child algorithms)."""
    from qgis.core import (
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource,
        QgsProcessingModelOutput,
        QgsProcessingModelParameter,
        QgsProcessingParameterFeatureSource,
    )

    def build(alg_id: str, statics: dict):
        model = QgsProcessingModelAlgorithm("one step", "tests")
        model.addModelParameter(QgsProcessingParameterFeatureSource("pts", "pts"), QgsProcessingModelParameter("pts"))
        source = QgsProcessingModelChildParameterSource
        child = QgsProcessingModelChildAlgorithm(alg_id)
        child.setChildId("c")
        child.addParameterSources("INPUT", [source.fromModelParameter("pts")])
        for key, value in statics.items():
            child.addParameterSources(key, [source.fromStaticValue(value)])
        out = QgsProcessingModelOutput("o", "o")
        out.setChildOutputName("OUTPUT")
        child.setModelOutputs({"o": out})
        model.addChildAlgorithm(child)
        return model

    return build


@pytest.fixture
def thesis_delta_bounds():
    """:func:`delta_bounds_for_grid_noise`, for tests that compare Delta with ter Steege's figures."""
    return delta_bounds_for_grid_noise


def delta_bounds_for_grid_noise(delta: float, epsilon: float) -> tuple[float, float]:
    """Where the grid Laplace mechanism's Delta must lie for a thesis figure ``delta`` (ter Steege, rounded to 3
    decimals, for continuous Laplace noise: delta = e^eps exp(-gamma/b) / 2). Ours is on a grid of step
    s = b eps / 64 with decay eps / 65 per step, the rounding of the mean adding up to s/2 (core.mechanisms.
    grid_laplace): delta = e^eps r^|j| / (1 + r), r = e^(-eps/65), |j| within 1/2 of gamma/s. The ratio of the
    two is 2/(1 + r) exp(gamma/b - |j| eps/65), between exp(gamma/(65 b) - eps/130) and
    2/(1 + r) exp(gamma/(65 b) + eps/130)."""
    import math

    g_over_b = -math.log(2 * delta * math.exp(-epsilon))
    r = math.exp(-epsilon / 65)
    low = (delta - 5e-4) * math.exp(g_over_b / 65 - epsilon / 130)
    high = (delta + 5e-4) * 2 / (1 + r) * math.exp(g_over_b / 65 + epsilon / 130)
    return low, high


@pytest.fixture
def integrates_to_about_n():
    """:func:`assert_integrates_to_about_n`, for the core and the processing tests of an LGCP fit."""
    return assert_integrates_to_about_n


def assert_integrates_to_about_n(posterior, beta_prior, n_points: int, total=None) -> None:
    """E[int lambda | S] against N. At the mode the intercept's score is N - Lambda - (beta_0 - m) / s^2 = 0
    (prior N(m, s^2) on beta_0, ``beta_prior.mean[0]`` and ``beta_prior.sd[0]``), so
    Lambda_mode = N - (beta_0 - m) / s^2; the posterior mean of Lambda exceeds its value at the mode by about
    Lambda Var(log Lambda) / 2 = 1/2 (Var(log Lambda) ~ 1/N), and the draws add a Monte Carlo error of
    sd(Lambda) / sqrt(draws). (A tolerance of 3 sqrt(N) took the posterior sd of Lambda for the error of its
    mean, and let a 20 % bias of the quadrature pass.) ``total``: the draws of Lambda (default: the
    posterior's own, ``posterior.integrated_intensity()``)."""
    import math

    import numpy as np

    total = posterior.integrated_intensity() if total is None else np.asarray(total)
    m, s = beta_prior.mean[0], beta_prior.sd[0]
    score_shift = abs(posterior.beta[:, 0].mean() - m) / s**2
    tolerance = score_shift + 1.0 + 4.0 * total.std() / math.sqrt(total.size)
    assert abs(total.mean() - n_points) < tolerance, (total.mean(), n_points, tolerance)
    # and each draw's integral is the quadrature of its own log intensity
    eta = posterior.offset_int + posterior.x_int @ posterior.beta[0] + posterior.int_proj @ posterior.w[0]
    assert total[0] == pytest.approx(float(np.exp(eta) @ posterior.int_weights), rel=1e-12)
