"""The ``spatialprivacy`` Processing provider: it only registers the algorithms."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from ..plugin.i18n import tr
from .dp_counts import DPCountsAlgorithm
from .dp_points import DPPointsAlgorithm
from .kfunction import KFunctionAlgorithm
from .lgcp_fit import FitLGCPAlgorithm
from .lgcp_synthesis import (
    DisclosureRiskAlgorithm,
    PMSEAlgorithm,
    RiskUtilitySweepAlgorithm,
    SynthesizeLGCPAlgorithm,
)
from .pufferfish_grid import PufferfishGridAlgorithm

ICON = Path(__file__).resolve().parent.parent / "icon.svg"


class SpatialPrivacyProvider(QgsProcessingProvider):
    def id(self):
        return "spatialprivacy"

    def name(self):
        return tr("Spatial Privacy")

    def longName(self):
        return tr("Spatial Privacy: private maps and synthetic points")

    def icon(self):
        return QIcon(str(ICON))

    def svgIconPath(self):
        return str(ICON)

    def loadAlgorithms(self):
        for algorithm in (
            PufferfishGridAlgorithm(),
            FitLGCPAlgorithm(),
            DPCountsAlgorithm(),
            DPPointsAlgorithm(),
            KFunctionAlgorithm(),
            SynthesizeLGCPAlgorithm(),
            DisclosureRiskAlgorithm(),
            PMSEAlgorithm(),
            RiskUtilitySweepAlgorithm(),
        ):
            self.addAlgorithm(algorithm)
