"""What the LGCP algorithms (``fitlgcp`` and the four synthesis tools) read and say alike: the model's covariates
and offset, a model file of ``fitlgcp``, and the warnings of a confidential fit's notes
(core.lgcp_setup.fit_confidential)."""

from __future__ import annotations

import os
import zipfile

from qgis.core import QgsProcessingException

from ..i18n import tr
from .inputs import read_distance_features, read_raster


def read_covariates(alg, parameters, context, crs, rasters="COVARIATES", distance_to="DISTANCE_TO", offset="OFFSET"):
    """The model's covariates (core.lgcp_setup.Covariate: rasters, then 'distance' to features) and log offset
    function from the parameters of those names (each optional; a name the algorithm lacks is skipped)."""
    from ..core.covariates import distance_to_points, distance_to_segments
    from ..core.lgcp_setup import Covariate

    names = {p.name() for p in alg.parameterDefinitions()}
    covariates = []
    if rasters in names:
        for layer in alg.parameterAsLayerList(parameters, rasters, context):
            grid = read_raster(alg, parameters, layer, rasters, crs)
            covariates.append(Covariate(layer.name(), lambda u, v, g=grid: g.sample(u, v, name="covariates")))
    target = read_distance_features(alg, parameters, distance_to, context, crs) if distance_to in names else None
    if target is not None:
        kind, data = target
        if kind == "points":
            func = lambda u, v, p=data: distance_to_points(u, v, *p)  # noqa: E731
        else:
            func = lambda u, v, s=data: distance_to_segments(u, v, s)  # noqa: E731
        covariates.append(Covariate("distance", func, parameter="distance_to"))
    log_offset = None
    offset_layer = alg.parameterAsRasterLayer(parameters, offset, context) if offset in names else None
    if offset_layer is not None:
        grid = read_raster(alg, parameters, offset_layer, offset, crs)
        log_offset = lambda u, v, g=grid: g.sample(u, v, name="offset")  # noqa: E731
    return tuple(covariates), log_offset


def load_model(alg, path: str, name: str = "MODEL"):
    """The posterior of the model file ``path`` (parameter ``name``), refusing a missing file or one that is not a
    model file of spatialprivacy:fitlgcp (a truncated one, say); the core's own refusals (``ParameterError``)
    pass through for the caller to name."""
    from ..core.errors import ParameterError
    from ..core.posterior import Posterior

    if not os.path.isfile(path):
        raise QgsProcessingException(tr("{0}: no such file: {1}").format(name, path))
    try:
        return Posterior.load(path)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:  # a truncated file
        if isinstance(error, ParameterError):
            raise
        raise QgsProcessingException(
            tr("{0}: {1} is not a model file of spatialprivacy:fitlgcp ({2}).").format(name, path, error)
        ) from None


def setup_warning(alg, note) -> str | None:
    """The warning for a note of core.lgcp_setup.fit_confidential about the built model that its fit would not
    give: a mesh too coarse for any pattern or so fine that the fit takes many minutes (MAX_EDGE), points far
    from the rest that stretch a window drawn around them (WINDOW); ``None`` for the other notes."""
    from ..core.lgcp_setup import FAR, NOTE_ISOLATED, NOTE_TOO_COARSE, NOTE_TOO_FINE

    if note.kind in (NOTE_TOO_COARSE, NOTE_TOO_FINE):
        return f"{alg.MAX_EDGE}: {note.detail}"
    if note.kind == NOTE_ISOLATED:
        return tr(
            "{0} points lie far from the rest (more than {1:g} times the median distance from the points' "
            "centre) and more than double the size of the window drawn around the points: a geocoding error, "
            "or points from elsewhere? Check them, or give a {2}."
        ).format(note.detail, FAR, alg.WINDOW)
    return None
