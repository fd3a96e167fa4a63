"""The one rule for numbers typed as a list into a text parameter (processing.parameters.parse_number_list), used by
spatialprivacy:kfunction's RADII and spatialprivacy:riskutilitysweep's RADII and NOISE_LEVELS."""

from __future__ import annotations

import math

import pytest
from qgis.core import QgsApplication, QgsProcessingException

from spatial_privacy.processing.algorithms.kfunction import parse_radii
from spatial_privacy.processing.parameters import parse_number_list


@pytest.mark.parametrize(
    "text, values",
    [
        pytest.param("", [], id="empty"),
        pytest.param(None, [], id="None"),
        pytest.param("1.5, 2.5", [1.5, 2.5], id="commas"),
        pytest.param(" 1 ,2,  3 ", [1.0, 2.0, 3.0], id="whitespace around items"),
        pytest.param("1,5", [1.0, 5.0], id="without ';' a comma separates"),
        pytest.param("1,5; 2,5", [1.5, 2.5], id="with ';' a comma is a decimal comma"),
        pytest.param("1,5;2.5;3", [1.5, 2.5, 3.0], id="decimal comma and dot mixed"),
        pytest.param("0,25;", [0.25], id="one number with a decimal comma"),
        pytest.param("1,2,", [1.0, 2.0], id="trailing separator"),
        pytest.param("-1e3; 1,5e-2", [-1000.0, 0.015], id="signs and exponents"),
    ],
)
def test_parse_number_list(text, values):
    assert parse_number_list(text, "P") == values


@pytest.mark.parametrize(
    "text, item",
    [("1, x", "x"), ("1,5; 2,5,3", "2,5,3"), ("1.5; 2.000,5", "2.000,5"), ("1 2", "1 2"), ("1;;a b", "a b")],
)
def test_bad_items_are_named_with_the_parameter_as_typed(text, item):
    with pytest.raises(QgsProcessingException, match=f"^P: '{item}' is not a number"):
        parse_number_list(text, "P")
    with pytest.raises(QgsProcessingException, match=f"^P: '{item}' - try again"):
        parse_number_list(text, "P", "{0}: '{1}' - try again")


def test_inf_and_nan_are_left_to_the_caller():
    inf, nan = parse_number_list("inf; nan", "P")
    assert inf == math.inf and math.isnan(nan)


@pytest.mark.parametrize(
    "text, radii",
    [
        ("0,1,2", [0, 1, 2]),
        ("0; 0,5; 1", [0, 0.5, 1]),
        ("1,5; 3", [0, 0.5, 1, 1.5]),
        ("1,5", [0.0, 0.2, 0.4, 0.6, 0.8, 1]),
    ],
)
def test_kfunction_radii_follow_the_rule(text, radii):
    assert parse_radii(text) == pytest.approx(radii, rel=1e-15)


def test_list_parameters_explain_the_rule(provider):
    registry = QgsApplication.processingRegistry()
    for alg, names in (("kfunction", ["RADII"]), ("riskutilitysweep", ["RADII", "NOISE_LEVELS"])):
        algorithm = registry.algorithmById(f"spatialprivacy:{alg}")
        for name in names:
            assert "semicolons if you write decimals with a comma ('0,5; 1; 2')" in (
                algorithm.parameterDefinition(name).help()
            ), (alg, name)
