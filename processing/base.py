"""What every Spatial Privacy algorithm shares: layer -> arrays in a projected CRS, feedback ->
core progress, seeds, core errors -> messages naming the parameter, and the HTML report.

No statistics live here.
"""

from __future__ import annotations

import html
import math
import os
import re
from contextvars import ContextVar
from dataclasses import dataclass

from qgis.core import (
    NULL,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsFeatureRequest,
    QgsFeatureSink,
    QgsFields,
    QgsGeometry,
    QgsGeometryCollection,
    QgsPoint,
    QgsPointXY,
    QgsProcessingAlgorithm,
    QgsProcessingException,
    QgsProcessingFeatureSourceDefinition,
    QgsProcessingFeedback,
    QgsProcessingOutputLayerDefinition,
    QgsProcessingParameterCrs,
    QgsProcessingParameterDistance,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProperty,
    QgsProviderRegistry,
    QgsRectangle,
    QgsUnitTypes,
    QgsVectorFileWriter,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QVariant

from ..core.files import active_staging, replaced_when_done, staged_writes
from ..plugin import dependencies
from ..plugin.i18n import tr as _tr
from .compat import FLAG_ADVANCED, NUMBER_INTEGER, double_field, int_field

# Processing imports a widget_wrapper class from its dotted path; the plugin's package name is whatever QGIS
# imported it as, so the path is built from this module's own package, not written out.
DISTANCE_WIDGET = f"{__package__.rpartition('.')[0]}.ui.distance_widget.DistanceWidget"

#: Largest SEED: QGIS integer parameters are 32-bit.
MAX_SEED = 2**31 - 1

#: Tag on every algorithm, so the toolbox search (and the plugin's menu entry) finds them all.
TOOLBOX_TAG = "spatialprivacy"


def _bound(value: float) -> str:
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else f"{value:g}"


def cancelled() -> QgsProcessingException:
    """The error of a cancelled run: this algorithm wrote nothing (in a model, the steps that had finished
    before it committed their outputs, so "nothing was written" would not be true)."""
    return QgsProcessingException(
        _tr("Cancelled: this algorithm wrote nothing (in a model, steps that had finished keep their outputs).")
    )


#: A number as text, as QGIS reads it (ASCII digits, a point, an exponent; inf and nan are left to the checks).
NUMBER_TEXT = re.compile(r"\s*[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)\s*", re.I)
#: The metadata key that marks a SEED parameter (add_seed).
SEED_METADATA = "spatial_privacy_seed"


def number_range_problem(parameter, value, context) -> str | None:
    """What is allowed, for a number or distance that its parameter refuses (QGIS itself says only "Incorrect
    parameter value for NAME"); ``None`` if the value is acceptable or not given."""
    if parameter.type() not in ("number", "distance") or value is None or isinstance(value, QgsProperty):
        return None
    if value == "" or (isinstance(value, str) and not value.strip() and parameter.metadata().get(SEED_METADATA)):
        return None  # not given (a blank SEED is no seed: make_rng)
    # QGIS 3.22 accepts any text for an optional number (and reads it as 0), and rounds 1.5 for an integer;
    # Python's float() would take '1_000' and other digits than 0-9, which QGIS also reads as 0
    number = None
    if isinstance(value, str):
        if NUMBER_TEXT.fullmatch(value):
            number = float(value)
    elif isinstance(value, (int, float)):
        number = float(value)
    integer = parameter.dataType() == NUMBER_INTEGER if parameter.type() == "number" else False
    not_whole = integer and number is not None and not (math.isfinite(number) and number == math.floor(number))
    wrong = isinstance(value, (str, int, float)) and (number is None or not_whole)
    if not wrong and parameter.checkValueIsAcceptable(value, context):
        return None
    low, high = parameter.minimum(), parameter.maximum()
    span = ""
    if low > -1e300 and high < 1e300:
        span = _tr("from {0} to {1}").format(_bound(low), _bound(high))
    elif low > -1e300:
        span = _tr("of at least {0}").format(_bound(low))
    elif high < 1e300:
        span = _tr("of at most {0}").format(_bound(high))
    kind = _tr("a whole number") if integer else _tr("a number")
    return _tr("{0}: '{1}' is not allowed; give {2}.").format(parameter.name(), value, f"{kind} {span}".strip())


def _not_writable(folder: str) -> str:
    """Why ``folder`` cannot be written, for the messages: a read-only file system (a mounted disc, a share
    mounted read-only) or missing permission."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return _tr("read-only file system")
    except (AttributeError, OSError):  # no statvfs on Windows
        pass
    return _tr("no permission")


def seed_help() -> str:
    """Help text of every algorithm's SEED parameter."""
    return _tr(
        "Seed of the random generator. Leave empty for a real release: the noise then comes from the "
        "operating system's entropy. A seed makes the output reproducible, which is for testing only: "
        "anyone who knows the seed and the method can recompute the noise and remove it."
    )


#: The feedback QGIS passed to the running algorithm's processAlgorithm (per thread, like the staged writes).
_RUN_FEEDBACK: ContextVar = ContextVar("spatial_privacy_run_feedback", default=None)
#: The highest progress the running algorithm has shown, as a one-item list shared by its FeedbackProgress
#: objects: no later stage (a second layer read, a fit whose range starts at 0) moves the bar back.
_RUN_PROGRESS: ContextVar = ContextVar("spatial_privacy_run_progress", default=None)


def run_feedback(context):
    """The running algorithm's own feedback, for helpers that get only the context: ``context.feedback()`` can
    be another one (a batch dialog's feedback for the whole batch, whose progress bar then jumped; none at all
    in qgis_process 3.22)."""
    feedback = _RUN_FEEDBACK.get()
    if feedback is None and context is not None:
        feedback = getattr(context, "feedback", lambda: None)()
    return feedback


class SpatialPrivacyAlgorithm(QgsProcessingAlgorithm):
    """Base class: translation, instance creation, parameter help and dependency checks."""

    #: Python packages this algorithm cannot run without (others only make it faster).
    REQUIRES: tuple[str, ...] = ("numpy",)
    #: Feature sinks that hold confidential values: written to a GeoPackage, its tables are described as
    #: CONFIDENTIAL (make_sink), so a copy of the file says so too.
    CONFIDENTIAL_SINKS: tuple[str, ...] = ()
    #: feature outputs that are always tables (no geometry): refused as Shapefiles before any work
    TABLE_SINKS: tuple[str, ...] = ()

    def tr(self, text: str) -> str:
        return _tr(text)

    def createInstance(self):
        return type(self)()

    def parameter_problem(self, parameters, context) -> str | None:
        """An algorithm's own parameter checks: what is wrong (naming the parameter), or ``None``."""
        return None

    #: set by an algorithm's run when its publishable outputs lost their guarantee (bounds or a window taken from
    #: the data): why, e.g. "bounds from the data"; the output files then say "NOT PRIVATE" inside (file_label)
    not_private: str | None = None

    def file_label(self, name: str) -> str | None:
        """The label written inside the file of output ``name`` (a GeoPackage's table description): CONFIDENTIAL
        for the confidential sinks, NOT PRIVATE for publishable ones of a run that lost its guarantee."""
        if name in self.CONFIDENTIAL_SINKS:
            return confidential_label(self, name)
        if self.not_private:
            return not_private_label(self, name, self.not_private)
        return None

    def labelled(self, title: str) -> str:
        """``title`` (a loaded layer's name, a report's title) marked NOT PRIVATE when the run lost its guarantee."""
        return self.tr("NOT PRIVATE ({0}): {1}").format(self.not_private, title) if self.not_private else title

    def checkParameterValues(self, parameters, context):  # noqa: N802 (QGIS API name)
        problem = self.parameter_problem(parameters, context)
        for parameter in self.parameterDefinitions():
            if problem is None:
                problem = number_range_problem(parameter, parameters.get(parameter.name()), context)
        if problem is not None:
            return False, problem
        return super().checkParameterValues(parameters, context)

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 (QGIS API name)
        """Run :meth:`process` with every output staged: layers (:func:`make_sink`), reports, rasters and model
        files are written beside their targets and moved onto them only when the whole run has succeeded. A
        failure, or a Cancel that came at any time (even while the outputs were being written), leaves every
        target as it was and no partial file, unless an output that cannot be staged was already being written
        in place: then every output is finished, with a warning."""
        parameters = gpkg_table_destinations(self, parameters)
        self.not_private = None  # an instance can run again (the dialog's): nothing carries over from a run
        if feedback is not None:
            warn_publishable_beside_confidential(self, parameters, context, feedback)
        token = _RUN_FEEDBACK.set(feedback)
        progress_token = _RUN_PROGRESS.set([-math.inf])
        try:
            with staged_writes() as writes:
                results = self.process(parameters, context, feedback)
                if feedback is not None and feedback.isCanceled():
                    if not writes.in_place:
                        raise cancelled()
                    # an output written in place cannot be taken back: it was finished, and so are the others
                    feedback.pushWarning(
                        _tr(
                            "Cancel came after {0} had been written in place (such outputs cannot be staged); "
                            "it was finished so that no half-written layer is left, and the other outputs were "
                            "written too."
                        ).format(", ".join(name for name, _ in writes.in_place))
                    )
        except OSError as error:
            detail = f"{error.strerror or error}" + (f" ({error.filename})" if error.filename else "")
            raise QgsProcessingException(_tr("The outputs could not be written: {0}").format(detail)) from None
        except MemoryError as error:  # numpy's says how much it wanted: "Unable to allocate 1023. MiB for ..."
            raise QgsProcessingException(
                _tr(
                    "Not enough memory for this run ({0}). Give fewer features or coarser settings, or close other "
                    "programs."
                ).format(str(error) or type(error).__name__)
            ) from None
        finally:
            _RUN_FEEDBACK.reset(token)
            _RUN_PROGRESS.reset(progress_token)
        if feedback is not None:
            feedback.setProgress(100.0)  # every output is at its target
        return results

    def process(self, parameters, context, feedback) -> dict:
        """The algorithm's work (``processAlgorithm`` of a plain QGIS algorithm)."""
        raise NotImplementedError

    def prepareAlgorithm(self, parameters, context, feedback):  # noqa: N802 (QGIS API name)
        """Check the parameters (ranges, and each algorithm's own checks) before every run. QGIS does so for the
        dialog, processing.run and qgis_process, but not for a model's child algorithms, which could otherwise
        run with values the algorithm refuses (a COUNT above its maximum, a prior field equal to the counts)."""
        ok, message = self.checkParameterValues(parameters, context)
        if not ok:
            raise QgsProcessingException(message or _tr("Invalid parameter values."))
        return True

    def tags(self):
        return [TOOLBOX_TAG, self.tr("privacy"), self.tr("disclosure control")]

    def helpUrl(self):
        return "https://github.com/spatial-privacy/spatial_privacy#readme"

    def add(self, parameter, help_text: str, advanced: bool = False):
        """Add ``parameter`` with its help text (shown as tooltip and in the help panel).

        A distance gets the plugin's widget in the algorithm dialog, which shows the units of WORK_CRS when
        one is picked and else the layer's (QGIS's own follows the layer only; see ui.distance_widget)."""
        parameter.setHelp(help_text)
        if isinstance(parameter, QgsProcessingParameterDistance):
            parameter.setMetadata({"widget_wrapper": {"class": DISTANCE_WIDGET, "work_crs": "WORK_CRS"}})
        if advanced:
            parameter.setFlags(parameter.flags() | FLAG_ADVANCED)
        self.addParameter(parameter)
        return parameter

    def add_seed(self, name: str = "SEED"):
        """The advanced, optional SEED parameter every randomised algorithm has (integer >= 0)."""
        parameter = QgsProcessingParameterNumber(
            name, self.tr("Random seed (testing only)"), NUMBER_INTEGER, None, True, 0, MAX_SEED
        )
        parameter.setMetadata({SEED_METADATA: True})
        return self.add(parameter, seed_help(), advanced=True)

    def add_work_crs(self, help_text: str, name: str = "WORK_CRS"):
        """The advanced, optional projected CRS to work in when a layer is in degrees (see :func:`working_crs`)."""
        return self.add(
            QgsProcessingParameterCrs(name, self.tr("Projected CRS to work in"), None, True), help_text, advanced=True
        )

    def parameter_help_html(self) -> str:
        """Every parameter's description and help, as HTML for ``shortHelpString``."""

        def text(value: str) -> str:  # quotes stay as they are: qgis_process prints this HTML as it is
            return html.escape(value, quote=False)

        rows = [
            f"<li><b>{text(p.description())}</b> ({p.name()}): {text(p.help())}</li>"
            for p in self.parameterDefinitions()
            if p.help()
        ]
        return "<h3>" + self.tr("Parameters") + "</h3><ul>" + "".join(rows) + "</ul>"

    def check_dependencies(self, feedback: QgsProcessingFeedback | None = None) -> None:
        """Refuse if a required package is missing; warn once if an optional one is."""
        absent = dependencies.missing()
        if any(d.module in self.REQUIRES for d in absent):
            raise QgsProcessingException(dependencies.install_message(absent))
        if absent and feedback is not None:
            feedback.pushWarning(dependencies.install_message(absent))


class FeedbackProgress:
    """``progress(fraction, message)`` for the core, backed by a Processing feedback.

    Raises ``QgsProcessingException`` when the user has pressed Cancel, which stops the core
    before anything is written.
    """

    def __init__(self, feedback: QgsProcessingFeedback, start: float = 0.0, stop: float = 100.0):
        self.feedback, self.start, self.stop = feedback, start, stop
        self._last_message = None
        # shared by every FeedbackProgress of the running algorithm (its own one outside a run)
        self._highest = _RUN_PROGRESS.get() or [-math.inf]

    def __call__(self, fraction: float, message: str) -> None:
        self.check_cancel()
        # the bar never goes back: work that starts again (an LGCP refitted with another integration rule, a
        # second layer read, a stage whose range starts lower) holds it where it was until it passes that point
        value = self.start + (self.stop - self.start) * fraction
        if value >= self._highest[0]:
            self._highest[0] = value
            self.feedback.setProgress(value)
        if message and message != self._last_message:
            self.feedback.pushInfo(message)
            self._last_message = message

    def check_cancel(self) -> None:
        if self.feedback.isCanceled():
            raise cancelled()


@dataclass
class PointValues:
    """Points of a layer with one numeric value each, in a projected working CRS."""

    x: list
    y: list
    values: list
    source_crs: QgsCoordinateReferenceSystem
    work_crs: QgsCoordinateReferenceSystem
    transform_context: object

    def to_source(self) -> QgsCoordinateTransform | None:
        """Transform from the working CRS back to the layer's CRS, or ``None`` if they agree."""
        if not self.source_crs.isValid() or self.source_crs == self.work_crs:
            return None
        return QgsCoordinateTransform(self.work_crs, self.source_crs, self.transform_context)


def working_crs(alg, parameters, context, source, input_name: str, crs_name: str, feedback):
    """The projected CRS to compute in: the layer's own, or the one the user picked.

    A geographic CRS (degrees) is refused unless the user picks a projected working CRS.
    """
    source_crs = defined_crs(source.sourceCrs())
    picked = alg.parameterAsCrs(parameters, crs_name, context) if crs_name in parameters else None
    if picked is not None and picked.isValid():
        if not source_crs.isValid():
            raise QgsProcessingException(
                _tr("{0}: {1} has no CRS, so it cannot be transformed; set the layer's CRS or leave {0} empty.").format(
                    crs_name, input_name
                )
            )
        if picked.isGeographic():
            raise QgsProcessingException(
                _tr("{0}: pick a projected CRS (metres or feet), not the geographic {1}.").format(
                    crs_name, picked.authid()
                )
            )
        if source_crs.mapUnits() != picked.mapUnits():
            feedback.pushWarning(
                _tr("Distances and sizes are read in the units of {0} {1} ({2}), not in the {3} of {4}'s CRS.").format(
                    crs_name,
                    picked.authid(),
                    QgsUnitTypes.toString(picked.mapUnits()),
                    QgsUnitTypes.toString(source_crs.mapUnits()),
                    input_name,
                )
            )
        return source_crs, picked
    if not source_crs.isValid():
        feedback.pushWarning(_tr("{0} has no CRS: distances are taken in its coordinate units.").format(input_name))
        return source_crs, source_crs
    if source_crs.isGeographic():
        raise QgsProcessingException(
            _tr(
                "{0} is in the geographic CRS {1} (degrees), where distances and areas have no single unit (a "
                "degree of longitude shrinks towards the poles). Pick a projected working CRS in {2} (e.g. a UTM "
                "zone or your national grid), or reproject the layer."
            ).format(input_name, source_crs.authid(), crs_name)
        )
    return source_crs, source_crs


def numeric_field_index(source, parameter: str, field: str) -> int:
    """Index of ``field`` of ``source`` (matched as QGIS does, ignoring case) for numeric values, or a
    QgsProcessingException naming ``parameter`` if it is missing or neither numeric nor text (processing.run
    and qgis_process do not enforce a field parameter's type filter). Text is allowed because OGR reads CSV
    columns as text; :func:`as_number` then converts each value or names the one that is not a number."""
    idx = source.fields().lookupField(field)
    if idx < 0:
        raise QgsProcessingException(_tr("{0}: the layer has no field '{1}'.").format(parameter, field))
    definition = source.fields().at(idx)
    if not (definition.isNumeric() or definition.type() == QVariant.String):
        raise QgsProcessingException(
            _tr("{0}: field '{1}' is not numeric (it is {2}); choose a numeric field.").format(
                parameter, definition.name(), definition.typeName()
            )
        )
    return idx


def as_number(value, parameter: str, field: str, feature_id) -> float:
    """``float(value)``, or a QgsProcessingException naming the parameter, the feature and the value."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise QgsProcessingException(
            _tr("{0}: feature {1} has '{2}' in '{3}', which is not a number.").format(
                parameter, feature_id, value, field
            )
        ) from None


def check_point_layer(source, input_name: str) -> None:
    """Refuse a layer whose geometry type is not points (unknown types are checked feature by feature when the
    points are read): a table without geometry, such as a CSV file, is told how to load its coordinates."""
    kind = QgsWkbTypes.geometryType(source.wkbType())
    if kind == QgsWkbTypes.NullGeometry:
        raise QgsProcessingException(
            _tr(
                "{0}: the layer has no point geometry (it is a table, such as a CSV file read without its "
                "coordinates). Load a CSV as a delimited text layer (Layer > Add Layer > Add Delimited Text Layer) "
                "with its x and y columns as the point geometry, in the layer's CRS, and give that layer."
            ).format(input_name)
        )
    if kind in (QgsWkbTypes.LineGeometry, QgsWkbTypes.PolygonGeometry):
        raise QgsProcessingException(
            _tr("{0}: needs a point layer, got {1}.").format(input_name, QgsWkbTypes.displayString(source.wkbType()))
        )


def read_point_values(
    alg,
    parameters,
    context,
    feedback,
    input_name: str,
    field_name: str | None,
    crs_name: str,
    count_is_private=False,
    progress_range: tuple[float, float] = (0.0, 30.0),
) -> PointValues:
    """Read every point and its numeric value; refuse what the methods cannot use. The log says how many were
    read, unless ``count_is_private`` (a guarantee that covers the number of points: the log is not labelled
    confidential). The progress bar moves through ``progress_range`` (percent) as the points are read.

    Refused, with a message naming the parameter: no features, features without geometry,
    multipoints with several parts, coordinates that are not finite (e.g. a point the working CRS cannot
    represent), NULL values. Coordinates are returned in the working CRS.
    """
    source = alg.parameterAsSource(parameters, input_name, context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, input_name))
    field, idx = "", -1
    if field_name is not None:
        field = alg.parameterAsString(parameters, field_name, context)
        idx = numeric_field_index(source, field_name, field)
    check_point_layer(source, input_name)
    source_crs, work_crs = working_crs(alg, parameters, context, source, input_name, crs_name, feedback)
    request = QgsFeatureRequest().setSubsetOfAttributes([idx] if idx >= 0 else [])
    if work_crs != source_crs:
        request.setDestinationCrs(work_crs, context.transformContext())
    total = max(source.featureCount(), 1)
    xs, ys, ts = [], [], []
    null_values = multi = infinite = not_points = 0
    empty = []
    progress = FeedbackProgress(feedback, *progress_range)
    for i, feature in enumerate(source.getFeatures(request)):
        if i % 20000 == 0:
            progress(i / total, _tr("Reading points"))
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            empty.append(feature.id())
            continue
        point = geom.constGet()
        if not isinstance(point, QgsPoint):
            # a layer of mixed geometry (GeoJSON, a GeoPackage of type GEOMETRY) reports the first feature's type
            if not isinstance(point, QgsGeometryCollection) or not all(
                isinstance(point.geometryN(k), QgsPoint) for k in range(point.numGeometries())
            ):
                not_points += 1
                continue
            if point.numGeometries() != 1:
                multi += 1
                continue
            point = point.geometryN(0)
        if not (math.isfinite(point.x()) and math.isfinite(point.y())):
            infinite += 1
            continue
        if idx >= 0:
            value = feature[idx]
            if value is None or value == NULL:
                null_values += 1
                continue
            ts.append(as_number(value, field_name, field, feature.id()))
        xs.append(point.x())
        ys.append(point.y())
    untransformed = untransformable(source, empty) if work_crs != source_crs else 0

    def how_many(count: int) -> str:  # a count of all the points would show the protected n
        return _tr("some") if count_is_private else str(count)

    problems = []
    if untransformed:
        problems.append(
            _tr("{0} features could not be transformed from {1} to {2} (is the layer's CRS right?)").format(
                how_many(untransformed), source_crs.authid() or source_crs.description(), work_crs.authid()
            )
        )
    if len(empty) > untransformed:
        problems.append(_tr("{0} features have no geometry").format(how_many(len(empty) - untransformed)))
    if not_points:
        problems.append(_tr("{0} features are not points (a layer of mixed geometry)").format(how_many(not_points)))
    if multi:
        problems.append(_tr("{0} features are multipoints with several parts").format(how_many(multi)))
    if infinite:
        problems.append(
            _tr("{0} features have coordinates that are not finite numbers in {1}").format(
                how_many(infinite), work_crs.authid() or _tr("layer units")
            )
        )
    if problems:
        raise QgsProcessingException(
            _tr("{0}: {1}. Each feature must be one point; fix or deselect those features.").format(
                input_name, "; ".join(problems)
            )
        )
    if null_values:
        raise QgsProcessingException(
            _tr("{0}: {1} features have a NULL value in '{2}'. Fill them in or select only the other features.").format(
                field_name, null_values, field
            )
        )
    if not xs:
        raise QgsProcessingException(_tr("{0}: the layer has no features (or none is selected).").format(input_name))
    units = work_crs.authid() or _tr("layer units")
    if count_is_private:
        feedback.pushInfo(_tr("Read the points in {0} (their number is protected and not shown).").format(units))
    else:
        feedback.pushInfo(_tr("Read {0} points in {1}.").format(len(xs), units))
    return PointValues(xs, ys, ts, source_crs, work_crs, context.transformContext())


def untransformable(source, ids) -> int:
    """How many of the features ``ids``, which a request into the working CRS returned without geometry, do have
    one in their own CRS: QGIS clears the geometry of a feature whose transform failed (a layer in EPSG:4326
    holding metres, say)."""
    if not ids:
        return 0
    request = QgsFeatureRequest().setFilterFids(list(ids)).setNoAttributes()
    return sum(1 for f in source.getFeatures(request) if not (f.geometry().isNull() or f.geometry().isEmpty()))


def parse_number_list(text: str | None, parameter: str, not_a_number: str | None = None) -> list[float]:
    """The numbers of a list typed into a text parameter, by the one rule every such parameter follows: if the
    text contains ';', the items are separated by ';' and a ',' inside an item is a decimal comma
    (``'1,5; 2,5'`` is ``[1.5, 2.5]``, for locales that write decimals with a comma); otherwise the items are
    separated by ',' (``'1.5, 2.5'``; ``'1,5'`` is then ``[1.0, 5.0]``). Whitespace around an item and empty
    items (a trailing separator) are ignored; an empty text gives ``[]``. Values are not range-checked (``inf``
    and ``nan`` pass): the caller does that.

    Raises ``QgsProcessingException`` with ``not_a_number.format(parameter, item)`` (default
    ``"{0}: '{1}' is not a number."``) for an item that is not a number, quoting the item as typed.
    """
    text = text or ""
    decimal_comma = ";" in text
    values = []
    for item in text.split(";" if decimal_comma else ","):
        item = item.strip()
        if not item:
            continue
        try:
            values.append(float(item.replace(",", ".") if decimal_comma else item))
        except ValueError:
            message = not_a_number if not_a_number is not None else _tr("{0}: '{1}' is not a number.")
            raise QgsProcessingException(message.format(parameter, item)) from None
    return values


def number_list_help() -> str:
    """The sentence of every list parameter's help that explains :func:`parse_number_list`'s rule."""
    return _tr(
        "Separate the numbers with commas ('0.5, 1, 2'), or with semicolons if you write decimals with a comma "
        "('0,5; 1; 2')."
    )


def make_rng(alg, parameters, context, seed_name: str, feedback):
    """A ``numpy.random.Generator`` (core.mechanisms.generator): from the user's seed (testing only) or from OS
    entropy."""
    from ..core.mechanisms import generator

    if parameters.get(seed_name) is None:
        return generator(), None
    # read as text and parse strictly: QGIS 3.22 accepts any string for a number parameter and converts
    # text that is no number to 0, which would silently fix the seed (and let anyone recompute the noise)
    text = (alg.parameterAsString(parameters, seed_name, context) or "").strip()
    if not text:
        return generator(), None
    try:
        value = float(text)
    except ValueError:
        raise QgsProcessingException(
            _tr("{0}: the seed must be a whole number from 0 to {1} (or empty for a real release), got '{2}'.").format(
                seed_name, MAX_SEED, text
            )
        ) from None
    if not (math.isfinite(value) and 0 <= value <= MAX_SEED and value == int(value)):
        # QGIS's integer conversion wraps large values to 0, which would silently repeat another seed
        raise QgsProcessingException(
            _tr("{0}: the seed must be a whole number from 0 to {1}, got {2}.").format(seed_name, MAX_SEED, value)
        )
    seed = int(value)
    feedback.pushWarning(
        _tr(
            "{0} = {1}: the output is reproducible. Do not publish it; leave the seed empty for a real release."
        ).format(seed_name, seed)
    )
    return generator(seed), seed


def parameter_error(error: ValueError, names: dict[str, str]) -> QgsProcessingException:
    """Turn a core ``ParameterError`` (or ``ValueError``) into a message naming the parameter."""
    core_name = getattr(error, "parameter", None)
    name = names.get(core_name, core_name)
    return QgsProcessingException(f"{name}: {error}" if name else str(error))


def cell_geometry(x_min: float, y_min: float, size: float, to_source: QgsCoordinateTransform | None):
    """A square cell as polygon, transformed back to the layer's CRS (edges densified) if needed."""
    geom = QgsGeometry.fromRect(QgsRectangle(x_min, y_min, x_min + size, y_min + size))
    if to_source is not None:
        geom = geom.densifyByCount(7)
        geom.transform(to_source)
    return geom


def cell_id(x_min: float, y_min: float, size: float) -> str:
    """A stable, readable cell identifier in the INSPIRE grid style: resolution, north, east."""
    return f"RES{size:g}N{y_min:.10g}E{x_min:.10g}"


def ensure_folder(path: str, parameter: str, create: bool = True) -> None:
    """Make sure an output file can be written before anything is: create its folder if needed (only check
    that it could be made with ``create=False``), and refuse, naming the parameter, a path that is a folder,
    or a folder or existing file we cannot write."""
    if not path:
        return
    if names_folder(path):
        raise QgsProcessingException(_tr("{0}: {1} is a folder; give a file name.").format(parameter, path))
    folder = os.path.dirname(os.path.abspath(path))
    if not create:
        existing = folder
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        if existing == folder and os.path.isdir(folder) and not os.access(folder, os.W_OK):
            raise QgsProcessingException(
                _tr("{0}: the folder {1} cannot be written ({2}).").format(parameter, folder, _not_writable(folder))
            )
        if not os.path.isdir(existing) or not os.access(existing, os.W_OK):
            raise QgsProcessingException(
                _tr("{0}: cannot create the folder of {1} inside {2}.").format(parameter, path, existing)
            )
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise QgsProcessingException(
                _tr("{0}: {1} cannot be written ({2}).").format(parameter, path, _not_writable(folder))
            )
        return
    if not os.path.isdir(folder):
        staging = active_staging()
        try:
            if staging is not None:
                staging.make_folders(folder)  # removed again if the run fails
            else:
                os.makedirs(folder, exist_ok=True)
        except OSError as error:
            raise QgsProcessingException(
                _tr("{0}: cannot create the folder {1} ({2}).").format(parameter, folder, error.strerror)
            ) from None
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise QgsProcessingException(
            _tr("{0}: {1} cannot be written ({2}).").format(parameter, path, _not_writable(folder))
        )


def names_folder(path: str) -> bool:
    """Whether ``path`` names a folder rather than a file: an existing folder, or a path ending in a separator
    (no file name), even when that folder does not exist yet."""
    return path.endswith(tuple(sep for sep in (os.sep, os.altsep, "/") if sep)) or os.path.isdir(path)


_OGR_DBNAME = re.compile(r"""dbname=(?:'([^']*)'|"([^"]*)"|(\S+))""")
_OGR_TABLE = re.compile(r"""table=(?:"([^"]*)"|'([^']*)'|(\S+))""")


_LAYERNAME = re.compile(r"^(?P<path>[^|]+)\|layername=(?P<table>[^|]+)$")


def _check_table_file(name: str, path: str) -> None:
    """QGIS writes a table into a file with the format it finds from everything after the first dot of the file's
    name (``survey.2020.gpkg``: "2020.gpkg", none), and only after the work: refuse such a name before it."""
    base = os.path.basename(path)
    suffix = base.split(".", 1)[1] if "." in base else ""
    if not QgsVectorFileWriter.driverForExtension(suffix):
        raise QgsProcessingException(
            _tr(
                "{0}: QGIS finds the format of {1} from all that follows its first dot ('{2}') when it writes a table "
                "into it, and knows none for that: rename the file without the extra dots."
            ).format(name, base, suffix)
        )


def gpkg_table_destinations(alg, parameters: dict) -> dict:
    """``parameters`` with each feature output given as ``f.gpkg|layername=t`` turned into the form QGIS writes as
    a table in that GeoPackage, ``ogr:dbname='f.gpkg' table="t" (geom)`` (QGIS 3.22 would write a new file named
    ``f.gpkg|layername=t.gpkg``); any other ``|`` option in an output path is refused, naming the parameter, and
    so is a file name QGIS cannot write a table into (both forms)."""
    changed = dict(parameters)
    for definition in alg.destinationParameterDefinitions():
        name = definition.name()
        if definition.type() != "sink" or name not in parameters:
            continue
        value = parameters[name]
        raw = value.sink.staticValue() if isinstance(value, QgsProcessingOutputLayerDefinition) else value
        if not isinstance(raw, str):
            continue
        if raw.startswith("ogr:"):
            path, table = output_target(raw, sink=True)
            if path and table:
                _check_table_file(name, path)
            continue
        if "|" not in raw or re.match(r"^(.{3,}?):", raw):
            continue
        match = _LAYERNAME.match(raw)
        if match is None or not match["path"].lower().endswith(".gpkg"):
            raise QgsProcessingException(
                _tr(
                    "{0}: an output path cannot carry '|' options ({1}). To write a table into a GeoPackage, give "
                    "file.gpkg|layername=table or ogr:dbname='file.gpkg' table=\"table\"."
                ).format(name, raw)
            )
        path, table = match["path"], match["table"]
        if "'" in path or '"' in table:
            raise QgsProcessingException(
                _tr(
                    "{0}: QGIS cannot write a table into a GeoPackage whose path holds a ' or a table whose name holds "
                    'a " ({1}); rename it.'
                ).format(name, raw)
            )
        _check_table_file(name, path)
        # QGIS reads the dbname as a data source URI, in which "\\" stands for "\" (a UNC path's "\\\\server")
        escaped = path.replace("\\", "\\\\")
        form = f"ogr:dbname='{escaped}' table=\"{table}\" (geom)"
        if isinstance(value, QgsProcessingOutputLayerDefinition):
            value = QgsProcessingOutputLayerDefinition(value)
            value.sink = QgsProperty.fromValue(form)
            changed[name] = value
        else:
            changed[name] = form
    return changed


def warn_publishable_beside_confidential(alg, parameters, context, feedback) -> None:
    """Warn when a publishable feature output is written as a table into a file that also holds confidential
    data (the INPUT layer, or a confidential output): whoever releases that file releases both."""

    def key(path: str) -> str:
        return os.path.normcase(os.path.realpath(path))

    holders = {}
    for name, path, _, _ in input_files(alg, parameters, context):
        if name == "INPUT":
            holders.setdefault(key(path), name)
    for name in alg.CONFIDENTIAL_SINKS:
        path = destination_target(parameters, name)[0]
        if path:
            holders.setdefault(key(path), name)
    for definition in alg.destinationParameterDefinitions():
        name = definition.name()
        if definition.type() != "sink" or name in alg.CONFIDENTIAL_SINKS:
            continue
        path, table = destination_target(parameters, name)
        if path and table and key(path) in holders:
            feedback.pushWarning(
                _tr(
                    "{0} is written as the table {1} of {2}, which also holds confidential data ({3}). Release the "
                    "layer, not the file: save it to a file of its own (Export ▸ Save Features As) first."
                ).format(name, table, path, holders[key(path)])
            )


def output_target(value: str, sink: bool = False) -> tuple[str, str | None]:
    """``(file, layer)`` an output destination writes: ``layer`` is ``None`` when the whole file is (re)written,
    a table name for the dialog's "append to GeoPackage" form ``ogr:dbname='f.gpkg' table="t"``. ``("", None)``
    for what is not a local file (temporary, memory and database outputs). For a feature ``sink``, the file QGIS
    really writes (:func:`_sink_file`: ``pub.foo`` becomes ``pub.foo.gpkg``, ``pub.json`` ``pub.json.geojson``);
    rasters and files are written at the path as given."""
    if not value or value == "TEMPORARY_OUTPUT" or value.startswith(("memory:", "postgres:", "postgis:")):
        return "", None
    if value.startswith("ogr:"):
        db, table = _OGR_DBNAME.search(value), _OGR_TABLE.search(value)
        if db is None:
            return "", None
        # a data source URI: QGIS (and its own dialogs, which write these) read "\\" as "\"
        path = next(g for g in db.groups() if g is not None).replace("\\\\", "\\")
        return path, (next(g for g in table.groups() if g is not None) if table else None)
    if "://" in value or value.startswith("spatialite:"):
        return "", None
    path = value.split("|")[0]
    if sink and not names_folder(path):  # a folder keeps its name, for ensure_folder to refuse it
        path = _sink_file(path)
    return path, None


def _sink_file(path: str) -> str:
    """The file QGIS writes for a sink path: ``.gpkg`` appended when the extension names no vector format, and
    the format's own extension appended when the path ends in another one it accepts (``a.json`` is written as
    ``a.json.geojson``, ``b.txt`` as ``b.txt.gxt``), as QgsVectorFileWriter does."""
    driver = QgsVectorFileWriter.driverForExtension(os.path.splitext(path)[1].lstrip("."))
    if not driver:
        return f"{path}.gpkg"
    meta = QgsVectorFileWriter.MetaData()
    if (
        QgsVectorFileWriter.driverMetadata(driver, meta)
        and meta.ext
        and not path.lower().endswith(f".{meta.ext}".lower())
    ):
        return f"{path}.{meta.ext}"
    return path


def destination_target(parameters: dict, name: str, sink: bool = True) -> tuple[str, str | None]:
    """:func:`output_target` of a sink (or, ``sink=False``, raster) parameter, read from the raw value (a string
    or a QgsProcessingOutputLayerDefinition) without resolving it: resolving registers the layer to load on
    completion, which must happen once, when the sink is made."""
    value = parameters.get(name)
    if isinstance(value, QgsProcessingOutputLayerDefinition):
        value = value.sink.staticValue()
    if not isinstance(value, str):
        return "", None
    return output_target(value, sink)


def destination_path(parameters: dict, name: str) -> str:
    """The local file a sink parameter writes, or ""."""
    return destination_target(parameters, name)[0]


def check_outputs(alg, parameters, context, sinks=(), files=(), rasters=()) -> dict[str, str]:
    """Before any work (creating nothing): refuse outputs that share a file or cannot be written, and rasters
    in a format GDAL cannot write as Float64. ``sinks``, ``files`` and ``rasters`` are feature-sink,
    file-destination and raster-destination names. Returns each output's local file ("" if none), for
    :func:`ensure_folder` when the writing starts."""
    from .raster import check_raster_path

    targets = {name: destination_target(parameters, name) for name in sinks}
    targets.update({name: destination_target(parameters, name, sink=False) for name in rasters})
    targets.update({name: (alg.parameterAsFileOutput(parameters, name, context), None) for name in files})
    check_distinct_outputs(targets)
    check_inputs_not_overwritten(targets, input_files(alg, parameters, context))
    for name in alg.TABLE_SINKS:
        check_not_a_shapefile_table(name, targets.get(name, ("", None))[0])
    for name, (path, _) in targets.items():
        ensure_folder(path, name, create=False)
        if path and name in rasters:
            check_raster_path(path, name)
    for name in files:
        path = targets[name][0]
        definition = alg.parameterDefinition(name)
        if path and "*.html" in (definition.fileFilter() if definition is not None else ""):
            if not path.lower().endswith((".html", ".htm")):
                raise QgsProcessingException(
                    _tr("{0}: this output is an HTML page; give a file name ending in .html (got {1}).").format(
                        name, os.path.basename(path)
                    )
                )
    return {name: path for name, (path, _) in targets.items()}


def ensure_folders(output_files: dict[str, str]) -> None:
    """:func:`ensure_folder` for every output :func:`check_outputs` returned, when the writing starts."""
    for name, path in output_files.items():
        ensure_folder(path, name)


def check_distinct_outputs(outputs: dict) -> None:
    """Refuse two outputs that would write the same file (one would destroy the other), naming both parameters
    and the path given for the second (and, when the clash is in a file a format writes beside the one named,
    such as a CSV's .csvt, that file too). ``outputs`` maps a parameter to a resolved path or to a
    ``(file, layer)`` target; two layers appended to one GeoPackage under different names do not clash."""
    seen: dict[str, list[tuple[str, str | None, str]]] = {}
    for parameter, destination in outputs.items():
        path, layer = destination if isinstance(destination, tuple) else output_target(destination)
        if not path:
            continue
        files = {os.path.realpath(file): file for file in written_files(path)}
        for key in sorted(files):
            for other, other_layer, other_path in seen.get(key, []):
                if not (layer is None or other_layer is None or layer == other_layer):
                    continue
                if os.path.realpath(path) == os.path.realpath(other_path):
                    raise QgsProcessingException(
                        _tr("{0}: writes the same file as {1} ({2}); choose another file.").format(
                            parameter, other, path
                        )
                    )
                raise QgsProcessingException(
                    _tr(
                        "{0}: writes the same file as {1}: {2} ({0}) and {3} ({1}) both write {4}; choose another "
                        "file."
                    ).format(parameter, other, path, other_path, files[key])
                )
        for key in files:
            seen.setdefault(key, []).append((parameter, layer, path))


#: Parameter types whose value is a layer (a feature source, vector, raster or any map layer).
_LAYER_INPUTS = ("source", "vector", "raster", "layer")


def input_files(alg, parameters, context) -> list[tuple[str, str, str | None, bool]]:
    """``(parameter, file, layer name, is_layer)`` for every input layer, raster or file of ``alg`` that is read
    from a local file; the layer name (``|layername=``) is ``None`` when the source does not give one. Layers
    given by path are loaded into the context's layer store, where the algorithm finds them again."""
    found = []
    registry = QgsProviderRegistry.instance()
    for definition in alg.parameterDefinitions():
        name = definition.name()
        value = parameters.get(name)
        if definition.isDestination() or value is None or value == "":
            continue
        kind = definition.type()
        if kind == "file":
            if definition.behavior() == QgsProcessingParameterFile.File:
                path = alg.parameterAsFile(parameters, name, context)
                if path:
                    found.append((name, path, None, False))
            continue
        if kind == "multilayer":
            layers = alg.parameterAsLayerList(parameters, name, context)
        elif kind in _LAYER_INPUTS:
            if isinstance(value, QgsProcessingFeatureSourceDefinition):  # parameterAsLayer does not unwrap it
                static = value.source.propertyType() == QgsProperty.StaticProperty
                value = value.source.staticValue() if static else None
            layers = [alg.parameterAsLayer({name: value}, name, context)] if value else []
        else:
            continue
        for layer in layers:
            if layer is None:
                continue
            parts = registry.decodeUri(layer.providerType(), layer.source())
            path, layer_name = parts.get("path"), parts.get("layerName")
            if isinstance(path, str) and path:
                found.append((name, path, layer_name if isinstance(layer_name, str) and layer_name else None, True))
    return found


def check_inputs_not_overwritten(targets: dict, inputs: list) -> None:
    """Refuse an output that would replace an input before it is read: a whole file (or one a format writes
    beside it) that is, or belongs to, an input's file (a GeoPackage holds other layers too), or a table
    appended to a GeoPackage under the name of the input layer it would replace. ``targets`` maps an output
    parameter to its ``(file, layer)`` (:func:`output_target`), ``inputs`` is :func:`input_files`."""
    for name, (path, layer) in targets.items():
        if not path:
            continue
        written = {os.path.realpath(file) for file in written_files(path)}
        for source, source_path, source_layer, is_layer in inputs:
            if layer is None and written & {os.path.realpath(file) for file in written_files(source_path)}:
                if is_layer:
                    raise QgsProcessingException(
                        _tr(
                            "{0}: {1} is the file of {2}; writing it would replace that layer and every other layer "
                            "in the file. Choose another file."
                        ).format(name, path, source)
                    )
                raise QgsProcessingException(
                    _tr(
                        "{0}: {1} is the file of {2}; writing it would replace that input. Choose another file."
                    ).format(name, path, source)
                )
            if (
                layer is not None
                and source_layer is not None
                and layer.lower() == source_layer.lower()
                and os.path.realpath(path) == os.path.realpath(source_path)
            ):
                raise QgsProcessingException(
                    _tr(
                        "{0}: the table {1} in {2} is the layer of {3}; writing it would replace that layer. Choose "
                        "another table name."
                    ).format(name, layer, path, source)
                )


# Files a format writes beside the one named: a Shapefile's attribute table (.dbf) is a file of its own, so
# ``pub.shp`` and ``pub.dbf`` as two outputs would give the publishable points the other output's columns.
_SIDECARS = {
    ".shp": (".shx", ".dbf", ".prj", ".cpg", ".qix", ".qpj", ".sbn", ".sbx", ".shp.xml"),
    ".tab": (".dat", ".map", ".id", ".ind"),
    ".csv": (".csvt",),  # the column types, see write_csv_types
}


def written_files(path: str) -> list[str]:
    """``path`` and the files its format writes beside it (a Shapefile's ``.shx``, ``.dbf``, ``.prj``...)."""
    stem, ext = os.path.splitext(path)
    return [path, *(stem + sidecar for sidecar in _SIDECARS.get(ext.lower(), ()))]


def writes_csv(parameters: dict, name: str) -> bool:
    """Whether the sink ``name`` writes a CSV file, which has no geometry column: the caller then adds the
    location as columns (x, y for points, see :func:`write_point_sink`; :data:`CELL_LOCATION_COLUMNS` for grid
    cells). :func:`make_sink` writes the column types (:func:`write_csv_types`)."""
    return destination_path(parameters, name).lower().endswith(".csv")


#: The columns a grid cell written to CSV carries for its location, in the layer's CRS: centre and bounds.
CELL_LOCATION_COLUMNS = ("x", "y", "x_min", "y_min", "x_max", "y_max")


def cell_location(x_min: float, y_min: float, size: float, geometry, to_source) -> list[float]:
    """Values of :data:`CELL_LOCATION_COLUMNS` for the cell with lower-left corner ``(x_min, y_min)`` (working
    CRS) and ``geometry`` from :func:`cell_geometry` (layer CRS): the cell centre transformed to the layer's
    CRS, and the bounding box of the cell in the layer's CRS."""
    centre = QgsPointXY(x_min + size / 2.0, y_min + size / 2.0)
    if to_source is not None:
        centre = to_source.transform(centre)
    box = geometry.boundingBox()
    return [centre.x(), centre.y(), box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()]


def _csv_type(field) -> str:
    if field.type() in (QVariant.LongLong, QVariant.ULongLong):
        return "Integer64"
    if field.type() in (QVariant.Int, QVariant.UInt):
        return "Integer"
    if field.type() == QVariant.Double:
        return "Real"
    return "String"


def write_csv_types(path: str, fields: QgsFields) -> None:
    """Write the ``.csvt`` file beside the CSV ``path`` that GDAL's CSV driver reads for the column types
    (``"String","Integer64","Real"``...), so that numbers read back as numbers and not as text. QGIS's sinks
    do not pass GDAL's CREATE_CSVT option, hence this file of our own; its columns are ``fields`` in order, as
    the CSV writer writes them."""
    stem = os.path.splitext(path)[0]
    with replaced_when_done(stem + ".csvt") as partial, open(partial, "w", encoding="utf-8") as handle:
        handle.write(",".join(f'"{_csv_type(field)}"' for field in fields) + "\n")


def write_html_report(path: str, title: str, sections: list[tuple[str, object]]) -> None:
    """Write a small self-contained HTML report.

    ``sections`` is a list of ``(heading, body)``; a body is a string (a paragraph) or a list of
    ``(label, value)`` rows (a table). Text is escaped.
    """
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em}"
        "td,th{border-bottom:1px solid #ccc;padding:.2em .8em;text-align:left}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
    ]
    for heading, body in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        if isinstance(body, str) and body.startswith("data:image/png;base64,"):
            parts.append(f"<p><img alt='{html.escape(heading)}' src='{body}'></p>")
        elif isinstance(body, str):
            parts.append(f"<p>{html.escape(body)}</p>")
        else:
            rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>" for k, v in body)
            parts.append(f"<table>{rows}</table>")
    parts.append("</body></html>")
    with replaced_when_done(path) as partial, open(partial, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts))


def report_figure(nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float], **kwargs):
    """A matplotlib figure for a report and its axes (as ``Figure.subplots`` returns them), drawn on its own Agg
    canvas without pyplot: a run leaves matplotlib's global state alone (``matplotlib.use`` would switch the
    backend of the QGIS session and close the user's open figures, from a worker thread in a background task)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, dpi=90)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def figure_data_uri(fig) -> str:
    """A figure from :func:`report_figure` as a PNG ``data:`` URI for :func:`write_html_report`."""
    import base64
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


#: What GDAL reads from a GeoPackage whose layer has no CRS (srs_id -1); outputs of layers without a CRS get it.
UNDEFINED_CRS_WKT = 'LOCAL_CS["Undefined Cartesian SRS",UNIT["Meter",1],AXIS["Easting",EAST],AXIS["Northing",NORTH]]'


def defined_crs(crs: QgsCoordinateReferenceSystem) -> QgsCoordinateReferenceSystem:
    """``crs``, or an invalid CRS when it only says "undefined" (a GeoPackage's srs_id 0 or -1 reads as a
    valid "Undefined ... SRS"), so that such layers are treated as having no CRS rather than transformed."""
    return crs if crs_key(crs) else QgsCoordinateReferenceSystem()


def crs_key(crs: QgsCoordinateReferenceSystem) -> str:
    """A string naming a CRS for comparisons and model files: its authority id, else its WKT, else ''."""
    if crs is None or not crs.isValid():
        return ""
    if crs.authid():
        return crs.authid()
    wkt = crs.toWkt()
    # a GeoPackage without a CRS reads as the valid "Undefined Cartesian SRS": the same as no CRS
    return "" if "Undefined" in wkt.split(",")[0] else wkt


#: formats whose coordinates are longitude and latitude by definition: a layer without a CRS loads as WGS 84
WGS84_ONLY_FORMATS = (".geojson", ".json", ".geojsonl", ".geojsons", ".kml", ".kmz", ".gpx")


def check_not_a_shapefile_table(name: str, path: str) -> None:
    """A table written as a Shapefile is only its .dbf (QGIS reports a .shp that does not exist, and a path
    ending in .dbf becomes .dbf.dbf): refused, naming formats that hold a table."""
    if path.lower().endswith((".shp", ".dbf")):
        raise QgsProcessingException(
            _tr(
                "{0}: this output is a table without geometry, which a Shapefile cannot hold (only its .dbf would be "
                "written). Give a .gpkg, .csv or .xlsx file."
            ).format(name)
        )


def make_sink(alg, parameters, name: str, context, fields, geometry_type, crs):
    """``alg.parameterAsSink`` for the output ``name``, staged when it is a local file written whole: QGIS writes
    it under its own name into a hidden folder beside the target (a GeoPackage's layer is named after its file),
    and :meth:`SpatialPrivacyAlgorithm.processAlgorithm` moves it, with any side files, onto the target when
    the run has succeeded; a CSV gets its ``.csvt`` of column types. Outputs that are not plain files (a table
    in a GeoPackage, ``|layername=``, databases, expressions, memory layers) are written in place and, except
    memory layers, recorded in ``StagedWrites.in_place``. Returns ``(sink, destination)``; the destination is
    the target, which is also the key of the layer QGIS loads on completion."""
    path, _ = destination_target(parameters, name)
    if (crs is None or not crs.isValid()) and geometry_type != QgsWkbTypes.NoGeometry:
        # QGIS would make a memory layer without a CRS EPSG:4326 (and a GeoPackage "Undefined geographic SRS"):
        # write it as QGIS's own tools write a layer whose GeoPackage has no CRS (a table keeps none)
        crs = QgsCoordinateReferenceSystem.fromWkt(UNDEFINED_CRS_WKT)
        if path.lower().endswith(WGS84_ONLY_FORMATS) and run_feedback(context) is not None:
            run_feedback(context).pushWarning(
                _tr(
                    "{0}: the layer has no CRS, which {1} cannot say: readers will take its coordinates as longitude "
                    "and latitude (WGS 84). Write a GeoPackage, or give the input layer its CRS."
                ).format(name, os.path.basename(path))
            )
    staging = active_staging()
    if geometry_type == QgsWkbTypes.NoGeometry:
        check_not_a_shapefile_table(name, path)
    long_names = [f for f in fields.names() if len(f) > 10]
    if path.lower().endswith(".shp") and long_names and run_feedback(context) is not None:
        run_feedback(context).pushWarning(
            _tr(
                "{0}: a Shapefile keeps only 10 characters of a field name ({1}); names that then clash are numbered "
                "(_1, _2), so check which column is which, or write a GeoPackage to keep the names."
            ).format(name, ", ".join(f"{f} → {f[:10]}" for f in long_names))
        )
    value = parameters.get(name)
    raw = value
    if isinstance(value, QgsProcessingOutputLayerDefinition):
        static = value.sink.propertyType() == QgsProperty.StaticProperty and not value.useRemapping()
        raw = value.sink.staticValue() if static else None
    # only what QGIS writes as a whole file by its path: no "provider:" prefix (ogr:, memory:, postgis:...; a
    # Windows drive letter is one character), no "|layername=", no expression, no append to a layer
    plain = isinstance(raw, str) and bool(raw) and "|" not in raw and not re.match(r"^(.{3,}?):", raw)
    if staging is None or not path or not plain:
        sink, dest = alg.parameterAsSink(parameters, name, context, fields, geometry_type, crs)
        if sink is None:
            raise QgsProcessingException(alg.invalidSinkError(parameters, name))
        if staging is not None and dest and context.temporaryLayerStore().mapLayer(dest) is None:
            staging.in_place.append((name, dest))
            # a table written into a GeoPackage ("Save to GeoPackage..."): labelled if confidential, and in the
            # main file in any case (see label_geopackage)
            parts = QgsProviderRegistry.instance().decodeUri("ogr", dest)
            table, gpkg = parts.get("layerName"), parts.get("path") or ""
            if table and gpkg.lower().endswith(".gpkg") and os.path.isfile(gpkg):
                text = alg.file_label(name)
                staging.before_moving.append(lambda: label_geopackage(gpkg, text, table))
                if text is not None:  # the table stays if the run fails later: labelled even then
                    staging.on_failure.append(lambda: label_geopackage(gpkg, text, table))
        return sink, dest
    target_folder = os.path.dirname(os.path.abspath(path))
    ensure_folder(path, name)
    folder = staging.folder_beside(target_folder, stale=tuple(written_files(path)[1:]))
    staged_value = os.path.join(folder, os.path.basename(raw))
    if isinstance(value, QgsProcessingOutputLayerDefinition):
        definition = QgsProcessingOutputLayerDefinition(value)
        definition.sink = QgsProperty.fromValue(staged_value)
    else:
        definition = staged_value
    sink, staged_dest = alg.parameterAsSink({**parameters, name: definition}, name, context, fields, geometry_type, crs)
    if sink is None:
        raise QgsProcessingException(alg.invalidSinkError(parameters, name))
    if path.lower().endswith(".csv"):  # a CSV keeps no column types: numbers would read back as text
        write_csv_types(path, fields)
    text = alg.file_label(name)
    if text is not None and staged_value.lower().endswith(".gpkg"):
        # the label travels with the file, not only in the parameter's and the loaded layer's names
        staging.before_moving.append(lambda: label_geopackage(staged_value, text))
    dest = os.path.join(target_folder, os.path.relpath(staged_dest, folder))
    layers = context.layersToLoadOnCompletion()
    if staged_dest in layers:  # load the target, not the staged file (nothing is attached to the entry yet)
        context.setLayersToLoadOnCompletion(
            {(dest if key == staged_dest else key): details for key, details in layers.items() if key != dest}
        )
    return sink, dest


def confidential_label(alg, name: str) -> str:
    """The label written inside a confidential output file (a GeoPackage's table description, a raster's
    metadata), so that a copy of the file says it is not for publication."""
    return _tr("CONFIDENTIAL: not for publication ({0}, {1})").format(alg.displayName(), name)


def not_private_label(alg, name: str, why: str) -> str:
    """The label written inside a publishable output whose run lost its privacy guarantee."""
    return _tr("NOT PRIVATE ({0}): no privacy guarantee holds ({1}, {2})").format(why, alg.displayName(), name)


def label_geopackage(path: str, text: str | None, table: str | None = None) -> None:
    """Write ``text`` (if any) as the description (gpkg_contents) of ``table``, or of every table, of the
    GeoPackage ``path`` once its writer is closed, and move what QGIS left in the file's write-ahead log into the
    file itself: QGIS opens GeoPackages in WAL mode and may keep a connection open, so a copy of the .gpkg alone
    would lack the new table. Raises ``OSError`` if it cannot."""
    import sqlite3
    from contextlib import closing

    try:
        with closing(sqlite3.connect(path)) as database:
            if text is None:
                pass
            elif table is None:
                database.execute("UPDATE gpkg_contents SET description = ?", (text,))
            else:
                changed = database.execute(
                    "UPDATE gpkg_contents SET description = ? WHERE table_name = ?", (text, table)
                ).rowcount
                if changed != 1:
                    raise sqlite3.Error(f"no table {table!r} in gpkg_contents")
            database.commit()
            database.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # a no-op for a file not in WAL mode
    except sqlite3.Error as error:
        raise OSError(f"{path}: could not be labelled ({error})") from None


def check_cancel_while_writing(feedback) -> None:
    """Stop writing on Cancel unless the run writes an output in place (which would be left half-written:
    it is finished, see :meth:`SpatialPrivacyAlgorithm.processAlgorithm`); staged files are then removed and
    the targets left as they were."""
    staging = active_staging()
    if feedback is not None and feedback.isCanceled() and staging is not None and not staging.in_place:
        raise cancelled()


def add_features(sink, features, name: str) -> None:
    """Add ``features`` (one QgsFeature or a list) to ``sink``, raising a QgsProcessingException naming the
    output ``name`` if the data provider refuses them: a write that failed must not end as a success."""
    if isinstance(features, QgsFeature):
        ok = sink.addFeature(features, QgsFeatureSink.FastInsert)
    else:
        ok = sink.addFeatures(features, QgsFeatureSink.FastInsert)
    if not ok:
        error = sink.lastError() if hasattr(sink, "lastError") else ""
        raise QgsProcessingException(_tr("{0}: the output could not be written: {1}").format(name, error))


#: The progress bar moves every this many features written.
WRITE_PROGRESS_EVERY = 5000
#: From this many features on, the log says that closing a GeoPackage output takes a while (note_closing).
SLOW_CLOSE_FEATURES = 100_000


def note_closing(feedback, parameters, name: str, count: int) -> None:
    """Say, once a large GeoPackage layer's features are written, that GDAL now builds its spatial index as the
    file is closed: 10-20 s per million features here (677,000 grid cells, a million points), during which
    the bar stays where it is and a Cancel waits. Building the index ourselves with progress was no faster
    (15-19 s per million points with SQLite's R*Tree)."""
    path = destination_path(parameters, name)
    if feedback is not None and count >= SLOW_CLOSE_FEATURES and path.lower().endswith(".gpkg"):
        feedback.pushInfo(
            _tr(
                "{0}: {1} features written; the GeoPackage now builds their spatial index as {2} is closed (10-20 s "
                "per million features), and the progress bar and Cancel wait until it is done."
            ).format(name, count, os.path.basename(path))
        )


def write_point_sink(alg, parameters, context, name: str, x, y, points: PointValues, columns, layer_name: str):
    """Write points given in the working CRS to the sink ``name`` in the input layer's CRS.

    ``columns`` is a list of ``(field name, values)``; integer arrays become integer fields, others doubles.
    The progress bar moves from where it is to 100 % as the points are written (a million take about half a
    minute). A Cancel stops a staged write (nothing reaches the target); an output written in place (appended
    to a GeoPackage) is finished, since a half-written layer would be worse.
    """
    import numpy as np

    feedback = run_feedback(context)
    start = feedback.progress() if feedback is not None else 0.0
    if feedback is not None and len(x) >= WRITE_PROGRESS_EVERY:
        feedback.pushInfo(_tr("Writing {0} points.").format(len(x)))
    fields = QgsFields()
    for field_name, values in columns:
        kind = getattr(values, "dtype", None)
        fields.append(int_field(field_name) if kind is not None and kind.kind in "iu" else double_field(field_name))
    path = destination_path(parameters, name)
    ensure_folder(path, name)
    as_csv = writes_csv(parameters, name)
    if as_csv:  # a CSV sink drops the geometry: keep the coordinates (in the layer's CRS) as columns
        fields.append(double_field("x"))
        fields.append(double_field("y"))
    sink, dest = make_sink(alg, parameters, name, context, fields, QgsWkbTypes.Point, points.source_crs)
    to_source = points.to_source()
    lists = [np.asarray(values).tolist() for _, values in columns]
    for k, (px, py) in enumerate(zip(np.asarray(x, dtype=float).tolist(), np.asarray(y, dtype=float).tolist())):
        geometry = QgsGeometry.fromPointXY(QgsPointXY(px, py))
        if to_source is not None:
            geometry.transform(to_source)
        feature = QgsFeature(fields)
        feature.setGeometry(geometry)
        attributes = [values[k] for values in lists]
        if as_csv:
            point = geometry.asPoint()
            attributes += [point.x(), point.y()]
        feature.setAttributes(attributes)
        add_features(sink, feature, name)
        if feedback is not None and k % WRITE_PROGRESS_EVERY == 0:
            feedback.setProgress(start + (100.0 - start) * k / len(x))
            check_cancel_while_writing(feedback)
    note_closing(feedback, parameters, name, len(x))
    if context.willLoadLayerOnCompletion(dest):
        context.layerToLoadOnCompletionDetails(dest).name = layer_name
    return dest


def write_point_table(alg, parameters, context, name: str, points: PointValues, columns, layer_name: str):
    """Write the input points themselves (working CRS -> layer CRS) with extra columns, e.g. per-person
    risks. Such a layer holds the confidential locations: describe its parameter as CONFIDENTIAL."""
    return write_point_sink(alg, parameters, context, name, points.x, points.y, points, columns, layer_name)
