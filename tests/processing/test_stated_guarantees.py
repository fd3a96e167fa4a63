"""Claims no stronger than the code: the reports, help texts and README state δ = 0 for the distribution sampled and
say, with figures, what the double-precision draw changes (core/mechanisms.py derives them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from qgis import processing
from qgis.core import QgsApplication

README = Path(__file__).resolve().parent.parent.parent / "README.md"


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


def test_the_dpcounts_report_states_delta_for_the_distribution_sampled_and_the_draw(data_copy, tmp_path):
    result = processing.run(
        "spatialprivacy:dpcounts",
        {
            "INPUT": str(data_copy / "dwelling_areas.gpkg") + "|layername=areas",
            "COUNT_FIELD": "unemployed",
            "POPULATION_FIELD": "dwellings",
            "RATE_FIELD": "prior_rate",
            "EPSILON": 1.0,
            "SETS": 1,
            "OUTPUT": str(tmp_path / "counts.gpkg"),
            "OUTPUT_REPORT": str(tmp_path / "counts.html"),
        },
    )
    report = Path(result["OUTPUT_REPORT"]).read_text(encoding="utf-8")
    row = re.search(r"<tr><th>δ</th><td>(.*?)</td></tr>", report).group(1)
    assert row != "0"  # a bare 0 says more than a floating-point sampler does
    assert row.startswith("0 for the distribution sampled") and "1.1e-16" in row
    help_text = QgsApplication.processingRegistry().algorithmById("spatialprivacy:dpcounts").shortHelpString()
    assert "δ = 0 for the distribution sampled" in help_text and "1e-16" in help_text


def test_the_help_of_the_grid_and_the_laplace_points_states_the_floating_point_delta():
    registry = QgsApplication.processingRegistry()
    grid = registry.algorithmById("spatialprivacy:pufferfishgrid").shortHelpString()
    assert "double precision" in grid and "about 1e-16 at ε = 1" in grid
    points = registry.algorithmById("spatialprivacy:dppoints").shortHelpString()
    assert "(δ = 0)" not in points and "δ = 0 for the distribution sampled" in points and "36 noise scales" in points


def test_the_readme_states_the_figures_instead_of_exactly():
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "holds exactly" not in text
    assert "δ ≈ 1e-16 at ε = 1" in text and "5e-15 at ε = 10" in text and "never exceeds 44.43" in text
    assert "The sampler is exact (a" not in text and "realised to within 2^-53 ≈ 1.1e-16" in text
