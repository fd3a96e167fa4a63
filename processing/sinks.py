"""Feature outputs, staged: the sink of an output (written beside its target and moved onto it when the run has
succeeded, see :meth:`.algorithm.SpatialPrivacyAlgorithm.processAlgorithm`), adding features to it, the ``.csvt``
column types of a CSV, and point layers written back in the input layer's CRS."""

from __future__ import annotations

import os
import re

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFeatureSink,
    QgsFields,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsProcessingOutputLayerDefinition,
    QgsProperty,
    QgsProviderRegistry,
    QgsVectorFileWriter,
)

from ..compat import (
    PROPERTY_STATIC,
    TYPE_DOUBLE,
    TYPE_INT,
    TYPE_LONGLONG,
    TYPE_UINT,
    TYPE_ULONGLONG,
    WKB_NO_GEOMETRY,
    WKB_POINT,
    double_field,
    field_type_in,
    int_field,
)
from ..core.files import active_staging, replaced_when_done
from ..i18n import tr
from .destinations import (
    check_not_a_shapefile_table,
    destination_path,
    destination_target,
    ensure_folder,
    writes_csv,
    written_files,
)
from .feedback import check_cancel_while_writing, run_feedback
from .inputs import PointValues
from .labels import label_geojson, label_geopackage

#: What GDAL reads from a GeoPackage whose layer has no CRS (srs_id -1); outputs of layers without a CRS get it.
UNDEFINED_CRS_WKT = 'LOCAL_CS["Undefined Cartesian SRS",UNIT["Meter",1],AXIS["Easting",EAST],AXIS["Northing",NORTH]]'


#: formats whose coordinates are longitude and latitude by definition: a layer without a CRS loads as WGS 84
WGS84_ONLY_FORMATS = (".geojson", ".json", ".geojsonl", ".geojsons", ".kml", ".kmz", ".gpx")


def make_sink(alg, parameters, name: str, context, fields, geometry_type, crs):
    """``alg.parameterAsSink`` for the output ``name``, staged when it is a local file written whole: QGIS writes
    it under its own name into a hidden folder beside the target (a GeoPackage's layer is named after its file),
    and :meth:`SpatialPrivacyAlgorithm.processAlgorithm` moves it, with any side files, onto the target when
    the run has succeeded; a CSV gets its ``.csvt`` of column types. Outputs that are not plain files (a table
    in a GeoPackage, ``|layername=``, databases, expressions, memory layers) are written in place and, except
    memory layers, recorded in ``StagedWrites.in_place``. Returns ``(sink, destination)``; the destination is
    the target, which is also the key of the layer QGIS loads on completion."""
    path, _ = destination_target(parameters, name)
    if (crs is None or not crs.isValid()) and geometry_type != WKB_NO_GEOMETRY:
        # QGIS would make a memory layer without a CRS EPSG:4326 (and a GeoPackage "Undefined geographic SRS"):
        # write it as QGIS's own tools write a layer whose GeoPackage has no CRS (a table keeps none)
        crs = QgsCoordinateReferenceSystem.fromWkt(UNDEFINED_CRS_WKT)
        if path.lower().endswith(WGS84_ONLY_FORMATS) and run_feedback(context) is not None:
            run_feedback(context).pushWarning(
                tr(
                    "{0}: the layer has no CRS, which {1} cannot say: readers will take its coordinates as longitude "
                    "and latitude (WGS 84). Write a GeoPackage, or give the input layer its CRS."
                ).format(name, os.path.basename(path))
            )
    staging = active_staging()
    if geometry_type == WKB_NO_GEOMETRY:
        check_not_a_shapefile_table(name, path)
    long_names = [f for f in fields.names() if len(f) > 10]
    if path.lower().endswith(".shp") and long_names and run_feedback(context) is not None:
        run_feedback(context).pushWarning(
            tr(
                "{0}: a Shapefile keeps only 10 characters of a field name ({1}); names that then clash are numbered "
                "(_1, _2), so check which column is which, or write a GeoPackage to keep the names."
            ).format(name, ", ".join(f"{f} → {f[:10]}" for f in long_names))
        )
    value = parameters.get(name)
    raw = value
    if isinstance(value, QgsProcessingOutputLayerDefinition):
        static = value.sink.propertyType() == PROPERTY_STATIC and not value.useRemapping()
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
            text = alg.file_label(name)
            if table and gpkg.lower().endswith(".gpkg") and os.path.isfile(gpkg):
                staging.before_moving.append(lambda: label_geopackage(gpkg, text, table))
                if text is not None:  # the table stays if the run fails later: labelled even then
                    staging.on_failure.append(lambda: label_geopackage(gpkg, text, table))
            elif text is not None and run_feedback(context) is not None:  # a database, another format
                run_feedback(context).pushWarning(
                    tr(
                        "{0}: {1} cannot hold the label '{2}' inside it (only a GeoPackage or a GeoJSON file can); the "
                        "layer name and the report say it, but the table alone does not. Write a GeoPackage or a "
                        "GeoJSON file to keep the label with the data."
                    ).format(name, os.path.basename(gpkg) if gpkg else tr("the data source"), text)  # no credentials
                )
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
    try:
        sink, staged_dest = alg.parameterAsSink(
            {**parameters, name: definition}, name, context, fields, geometry_type, crs
        )
    except QgsProcessingException as error:  # QGIS names the staged file: name the target, in the user's folder
        message = str(error).replace(folder + os.sep, target_folder + os.sep).replace(folder, target_folder)
        raise QgsProcessingException(f"{name}: {message}") from None
    if sink is None:
        raise QgsProcessingException(alg.invalidSinkError(parameters, name))
    if path.lower().endswith(".csv"):  # a CSV keeps no column types: numbers would read back as text
        write_csv_types(path, fields)
    text = alg.file_label(name)
    # the file QGIS wrote, whose name may differ from the one given: grid.json is written as grid.json.geojson,
    # grid.foo (no vector format) as grid.foo.gpkg
    written = QgsProviderRegistry.instance().decodeUri("ogr", staged_dest).get("path") or staged_value
    driver = QgsVectorFileWriter.driverForExtension(os.path.splitext(written)[1][1:])
    if text is not None and driver == "GPKG":
        # the label travels with the file, not only in the parameter's and the loaded layer's names
        staging.before_moving.append(lambda: label_geopackage(written, text))
    elif text is not None and driver == "GeoJSON":
        staging.before_moving.append(lambda: label_geojson(written, text))
    elif text is not None and run_feedback(context) is not None:
        run_feedback(context).pushWarning(
            tr(
                "{0}: {1} cannot hold the label '{2}' inside the file (only a GeoPackage or a GeoJSON file can); the "
                "layer name and the report say it, but a copy of the file alone does not. Write a GeoPackage or a "
                "GeoJSON file to keep the label with the data."
            ).format(name, os.path.basename(written), text)
        )
    dest = os.path.join(target_folder, os.path.relpath(staged_dest, folder))
    layers = context.layersToLoadOnCompletion()
    if staged_dest in layers:  # load the target, not the staged file (nothing is attached to the entry yet)
        context.setLayersToLoadOnCompletion(
            {(dest if key == staged_dest else key): details for key, details in layers.items() if key != dest}
        )
    return sink, dest


def add_features(sink, features, name: str) -> None:
    """Add ``features`` (one QgsFeature or a list) to ``sink``, raising a QgsProcessingException naming the
    output ``name`` if the data provider refuses them: a write that failed must not end as a success."""
    if isinstance(features, QgsFeature):
        ok = sink.addFeature(features, QgsFeatureSink.Flag.FastInsert)
    else:
        ok = sink.addFeatures(features, QgsFeatureSink.Flag.FastInsert)
    if not ok:
        error = sink.lastError() if hasattr(sink, "lastError") else ""
        raise QgsProcessingException(tr("{0}: the output could not be written: {1}").format(name, error))


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
            tr(
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
        feedback.pushInfo(tr("Writing {0} points.").format(len(x)))
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
    sink, dest = make_sink(alg, parameters, name, context, fields, WKB_POINT, points.source_crs)
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


def _csv_type(field) -> str:
    if field_type_in(field, TYPE_LONGLONG, TYPE_ULONGLONG):
        return "Integer64"
    if field_type_in(field, TYPE_INT, TYPE_UINT):
        return "Integer"
    if field_type_in(field, TYPE_DOUBLE):
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
