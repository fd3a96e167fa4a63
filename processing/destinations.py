"""Output destinations before anything is written: where each output goes (a file, a table in a GeoPackage,
something that is not a local file), the checks that refuse outputs that would clash, overwrite an input or
cannot be written, the folders they need, and the form QGIS writes a GeoPackage table in."""

from __future__ import annotations

import os
import re

from qgis.core import (
    QgsProcessingException,
    QgsProcessingFeatureSourceDefinition,
    QgsProcessingOutputLayerDefinition,
    QgsProperty,
    QgsProviderRegistry,
    QgsVectorFileWriter,
)

from ..compat import FILE_BEHAVIOR_FILE, PROPERTY_STATIC
from ..core.files import active_staging, visible_path
from ..i18n import tr


def _not_writable(folder: str) -> str:
    """Why ``folder`` cannot be written, for the messages: a read-only file system (a mounted disc, a share
    mounted read-only) or missing permission."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return tr("read-only file system")
    except (AttributeError, OSError):  # no statvfs on Windows
        pass
    return tr("no permission")


def ensure_folder(path: str, parameter: str, create: bool = True) -> None:
    """Make sure an output file can be written before anything is: create its folder if needed (only check
    that it could be made with ``create=False``), and refuse, naming the parameter, a path that is a folder,
    or a folder or existing file we cannot write."""
    if not path:
        return
    if names_folder(path):
        raise QgsProcessingException(tr("{0}: {1} is a folder; give a file name.").format(parameter, path))
    folder = os.path.dirname(os.path.abspath(path))
    if not create:
        existing = folder
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        _check_name_length(path, parameter, existing)
        if existing == folder and os.path.isdir(folder) and not os.access(folder, os.W_OK):
            raise QgsProcessingException(
                tr("{0}: the folder {1} cannot be written ({2}).").format(parameter, folder, _not_writable(folder))
            )
        if not os.path.isdir(existing) or not os.access(existing, os.W_OK):
            raise QgsProcessingException(
                tr("{0}: cannot create the folder of {1} inside {2}.").format(parameter, path, existing)
            )
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise QgsProcessingException(
                tr("{0}: {1} cannot be written ({2}).").format(parameter, path, _not_writable(folder))
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
                tr("{0}: cannot create the folder {1} ({2}).").format(parameter, folder, error.strerror)
            ) from None
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise QgsProcessingException(
            tr("{0}: {1} cannot be written ({2}).").format(parameter, path, _not_writable(folder))
        )


#: What SQLite adds to a database's file name for the files it keeps beside it while writing (the longest).
_SQLITE_SIDE_FILE = "-journal"


def _check_name_length(path: str, parameter: str, existing: str) -> None:
    """Refuse, naming the parameter, a file name longer than the file system takes (255 bytes on most), counting the
    files the format writes beside it (a Shapefile's ``.shp.xml``, a GeoPackage's ``-journal`` while it is written):
    the write would fail at once in the hidden staging folder, with a message about a path the user never gave."""
    try:
        limit = os.pathconf(existing, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):  # no pathconf on Windows
        limit = 255
    extra = len(_SQLITE_SIDE_FILE) if path.lower().endswith((".gpkg", ".sqlite", ".db")) else 0
    longest = max(len(os.fsencode(os.path.basename(name))) for name in written_files(path)) + extra
    if longest > limit:
        raise QgsProcessingException(
            tr(
                "{0}: the file name is too long for the file system ({1} bytes with what the format adds; at most "
                "{2}): {3}. Give a shorter name."
            ).format(parameter, longest, limit, path)
        )


def write_error(alg, parameters: dict, context, error: OSError) -> QgsProcessingException:
    """An ``OSError`` met while writing the outputs, as a message naming the output parameter and the user's path
    (a hidden staging or lock path is shown as the file or folder it stands for: :func:`..core.files.visible_path`).
    """
    shown = visible_path(str(error.filename)) if error.filename else ""
    reason = error.strerror or str(error)
    if shown:
        targets = {}
        for definition in alg.destinationParameterDefinitions():
            name = definition.name()
            kind = definition.type()
            if kind == "fileDestination":
                path = alg.parameterAsFileOutput(parameters, name, context)
            elif kind in ("sink", "vectorDestination", "rasterDestination"):
                path = destination_target(parameters, name, sink=kind != "rasterDestination")[0]
            else:
                continue
            if path:
                targets[name] = os.path.abspath(path)
        same = [name for name, path in targets.items() if _key(path) == _key(shown)]
        if same:
            return QgsProcessingException(
                tr("{0}: {1} could not be written ({2}).").format(same[0], targets[same[0]], reason)
            )
        beside = [name for name, path in targets.items() if _key(os.path.dirname(path)) == _key(shown)]
        if beside:
            return QgsProcessingException(
                tr("{0}: the folder {1} cannot be written ({2}).").format(", ".join(beside), shown, reason)
            )
    return QgsProcessingException(
        tr("The outputs could not be written: {0}").format(reason + (f" ({shown})" if shown else ""))
    )


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def names_folder(path: str) -> bool:
    """Whether ``path`` names a folder rather than a file: an existing folder, or a path ending in a separator
    (no file name), even when that folder does not exist yet."""
    return path.endswith(tuple(sep for sep in (os.sep, os.altsep, "/") if sep)) or os.path.isdir(path)


_OGR_DBNAME = re.compile(r"""dbname=(?:'([^']*)'|"([^"]*)"|(\S+))""")
_OGR_TABLE = re.compile(r"""table=(?:"([^"]*)"|'([^']*)'|(\S+))""")


_LAYERNAME = re.compile(r"^(?P<path>[^|]+)\|layername=(?P<table>[^|]+)$")


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


def writes_csv(parameters: dict, name: str) -> bool:
    """Whether the sink ``name`` writes a CSV file, which has no geometry column: the caller then adds the
    location as columns (x, y for points, see :func:`write_point_sink`; :data:`CELL_LOCATION_COLUMNS` for grid
    cells). :func:`make_sink` writes the column types (:func:`write_csv_types`)."""
    return destination_path(parameters, name).lower().endswith(".csv")


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


def check_not_a_shapefile_table(name: str, path: str) -> None:
    """A table written as a Shapefile is only its .dbf (QGIS reports a .shp that does not exist, and a path
    ending in .dbf becomes .dbf.dbf): refused, naming formats that hold a table."""
    if path.lower().endswith((".shp", ".dbf")):
        raise QgsProcessingException(
            tr(
                "{0}: this output is a table without geometry, which a Shapefile cannot hold (only its .dbf would be "
                "written). Give a .gpkg, .csv or .xlsx file."
            ).format(name)
        )


def _check_table_file(name: str, path: str) -> None:
    """QGIS writes a table into a file with the format it finds from everything after the first dot of the file's
    name (``survey.2020.gpkg``: "2020.gpkg", none), and only after the work: refuse such a name before it."""
    base = os.path.basename(path)
    suffix = base.split(".", 1)[1] if "." in base else ""
    if not QgsVectorFileWriter.driverForExtension(suffix):
        raise QgsProcessingException(
            tr(
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
                tr(
                    "{0}: an output path cannot carry '|' options ({1}). To write a table into a GeoPackage, give "
                    "file.gpkg|layername=table or ogr:dbname='file.gpkg' table=\"table\"."
                ).format(name, raw)
            )
        path, table = match["path"], match["table"]
        if "'" in path or '"' in table:
            raise QgsProcessingException(
                tr(
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
                tr(
                    "{0} is written as the table {1} of {2}, which also holds confidential data ({3}). Release the "
                    "layer, not the file: save it to a file of its own (Export ▸ Save Features As) first."
                ).format(name, table, path, holders[key(path)])
            )


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
                    tr("{0}: this output is an HTML page; give a file name ending in .html (got {1}).").format(
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
                        tr("{0}: writes the same file as {1} ({2}); choose another file.").format(
                            parameter, other, path
                        )
                    )
                raise QgsProcessingException(
                    tr(
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
            if definition.behavior() == FILE_BEHAVIOR_FILE:
                path = alg.parameterAsFile(parameters, name, context)
                if path:
                    found.append((name, path, None, False))
            continue
        if kind == "multilayer":
            layers = alg.parameterAsLayerList(parameters, name, context)
        elif kind in _LAYER_INPUTS:
            if isinstance(value, QgsProcessingFeatureSourceDefinition):  # parameterAsLayer does not unwrap it
                static = value.source.propertyType() == PROPERTY_STATIC
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
                        tr(
                            "{0}: {1} is the file of {2}; writing it would replace that layer and every other layer "
                            "in the file. Choose another file."
                        ).format(name, path, source)
                    )
                raise QgsProcessingException(
                    tr("{0}: {1} is the file of {2}; writing it would replace that input. Choose another file.").format(
                        name, path, source
                    )
                )
            if (
                layer is not None
                and source_layer is not None
                and layer.lower() == source_layer.lower()
                and os.path.realpath(path) == os.path.realpath(source_path)
            ):
                raise QgsProcessingException(
                    tr(
                        "{0}: the table {1} in {2} is the layer of {3}; writing it would replace that layer. Choose "
                        "another table name."
                    ).format(name, layer, path, source)
                )
