"""The ``spatialprivacy`` Processing provider: it registers the algorithms and its settings (executor_settings)."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from ..i18n import tr
from .algorithms.disclosure_risk import DisclosureRiskAlgorithm
from .algorithms.dp_counts import DPCountsAlgorithm
from .algorithms.dp_points import DPPointsAlgorithm
from .algorithms.fit_lgcp import FitLGCPAlgorithm
from .algorithms.kfunction import KFunctionAlgorithm
from .algorithms.marked_risk import MarkedRiskAlgorithm
from .algorithms.pmse import PMSEAlgorithm
from .algorithms.privacy_ledger import PrivacyLedgerAlgorithm
from .algorithms.pufferfish_grid import PufferfishGridAlgorithm
from .algorithms.risk_utility_sweep import RiskUtilitySweepAlgorithm
from .algorithms.synthesize_lgcp import SynthesizeLGCPAlgorithm
from .algorithms.synthesize_marked import SynthesizeMarkedAlgorithm
from .executor_settings import register as register_settings
from .executor_settings import unregister as unregister_settings

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

    def load(self):
        register_settings(self)  # Processing > Options > Providers: where a sweep's sets run
        self.refreshAlgorithms()
        return True

    def unload(self):
        unregister_settings()

    def loadAlgorithms(self):
        for algorithm in (
            PufferfishGridAlgorithm(),
            FitLGCPAlgorithm(),
            DPCountsAlgorithm(),
            DPPointsAlgorithm(),
            KFunctionAlgorithm(),
            SynthesizeLGCPAlgorithm(),
            SynthesizeMarkedAlgorithm(),
            DisclosureRiskAlgorithm(),
            PMSEAlgorithm(),
            RiskUtilitySweepAlgorithm(),
            PrivacyLedgerAlgorithm(),
            MarkedRiskAlgorithm(),
        ):
            self.addAlgorithm(algorithm)
