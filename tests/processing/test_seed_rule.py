"""One rule for every SEED (processing.parameters.parse_seed): a whole number from 0 to 2**31 - 1, or none. Anything
else is refused before the run, naming SEED and the range, whatever gives it: QGIS itself reads a Python integer of
2**64 or more as no value (the run was then silently unseeded), one beyond 32 bits as out of range, and text that
is no number as 0."""

from __future__ import annotations

import re

import pytest
from qgis import processing
from qgis.core import (
    NULL,
    QgsApplication,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)

from spatial_privacy.processing.parameters import MAX_SEED, SEED_METADATA, number_range_problem

ALG = "spatialprivacy:pufferfishgrid"


def refused(seed) -> str:
    """The message for ``seed``: it names SEED, the value as given and the range."""
    return r"^(?:.*\n)?SEED: '" + re.escape(str(seed)) + "' is not allowed; give a whole number from 0 to 2147483647"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


def params(enterprises, tmp_path, seed, name="grid"):
    return {
        "INPUT": enterprises,
        "FIELD": "production",
        "CELL_SIZE": 500.0,
        "EPSILON": 1.0,
        "INTERVAL": 50.0,
        "SEED": seed,
        "OUTPUT": str(tmp_path / f"{name}.gpkg"),
        "REPORT": str(tmp_path / f"{name}.html"),
    }


def values(path):
    return [f["value"] for f in QgsVectorLayer(path, "grid", "ogr").getFeatures()]


def test_the_largest_seed_is_taken_and_reproduces_the_run(enterprises, tmp_path):
    assert MAX_SEED == 2**31 - 1
    feedback = QgsProcessingFeedback()
    first = processing.run(ALG, params(enterprises, tmp_path, 2**31 - 1, "a"), feedback=feedback)
    second = processing.run(ALG, params(enterprises, tmp_path, str(2**31 - 1), "b"))
    assert values(first["OUTPUT"]) == values(second["OUTPUT"])
    assert f"SEED = {2**31 - 1}: the outputs are NOT PRIVATE" in feedback.textLog()


@pytest.mark.parametrize(
    "seed",
    [
        pytest.param(2**31, id="2**31"),
        pytest.param(2**63, id="2**63"),
        pytest.param(2**64, id="2**64 (QGIS reads it as no value)"),
        pytest.param(2**100, id="2**100"),
        pytest.param(-1, id="-1"),
        pytest.param(1.5, id="1.5"),
        pytest.param("abc", id="text"),
        pytest.param(str(2**64), id="2**64 as text"),
        pytest.param(1e300, id="1e300"),
        pytest.param(float("nan"), id="nan"),
        pytest.param(True, id="True"),
    ],
)
def test_a_seed_outside_the_range_is_refused_before_the_run(enterprises, tmp_path, seed):
    feedback = QgsProcessingFeedback()
    with pytest.raises(QgsProcessingException, match=refused(seed)):
        processing.run(ALG, params(enterprises, tmp_path, seed), feedback=feedback)
    assert list(tmp_path.iterdir()) == []
    assert "Reading" not in feedback.textLog()  # refused by the checks before the run, not by the run


@pytest.mark.parametrize(
    "seed",
    [
        pytest.param(NULL, id="NULL (PyQGIS and batch runs: an empty optional input)"),
        pytest.param(None, id="None"),
        pytest.param("", id="empty text"),
    ],
)
def test_an_empty_seed_is_no_seed_a_real_release(enterprises, tmp_path, seed):
    feedback = QgsProcessingFeedback()
    result = processing.run(ALG, params(enterprises, tmp_path, seed), feedback=feedback)
    assert len(values(result["OUTPUT"])) > 0
    assert "NOT PRIVATE" not in feedback.textLog(), feedback.textLog()
    assert "NOT PRIVATE" not in (tmp_path / "grid.html").read_text(encoding="utf-8")


def test_every_seed_parameter_follows_the_one_rule(provider):
    """Each algorithm's SEED is checked with the same rule by the check its checkParameterValues makes of every
    number (which QGIS calls before every run, and the plugin also before a model's child runs), so 2**64 can slip
    through none of them."""
    context = QgsProcessingContext()
    seeded = [alg for alg in provider.algorithms() if alg.parameterDefinition("SEED") is not None]
    assert len(seeded) >= 7
    for alg in seeded:
        assert alg.parameterDefinition("SEED").metadata().get(SEED_METADATA), alg.id()
        assert f"0 to {MAX_SEED}" in alg.parameterDefinition("SEED").help(), alg.id()
        for seed in (2**64, 2**31, -1, 1.5, "abc"):
            message = number_range_problem(alg.parameterDefinition("SEED"), seed, context)
            assert message.startswith(f"SEED: '{seed}' is not allowed"), (alg.id(), seed, message)
        assert number_range_problem(alg.parameterDefinition("SEED"), MAX_SEED, context) is None


def test_the_algorithm_refuses_a_bad_seed_even_without_the_checks_before_the_run(enterprises, tmp_path):
    """make_rng applies the same rule when the run starts, for a caller that skipped checkParameterValues."""
    alg = QgsApplication.processingRegistry().createAlgorithmById(ALG)
    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    with pytest.raises(QgsProcessingException, match=refused(2**64)):
        alg.processAlgorithm(params(enterprises, tmp_path, 2**64), context, feedback)
    assert not (tmp_path / "grid.gpkg").exists()
