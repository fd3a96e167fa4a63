"""The labels written inside output files, so that a copy of a file says what it is: CONFIDENTIAL for outputs
that hold or reveal the confidential data, NOT PRIVATE for publishable outputs of a run that lost its
guarantee; and writing such a label into a GeoPackage or a GeoJSON file (the vector formats that can hold one:
:data:`LABELLED_FORMATS`)."""

from __future__ import annotations

import os

from ..i18n import tr

#: The OGR drivers (QgsVectorFileWriter.driverForExtension) whose files carry a label (label_geopackage,
#: label_geojson). The others cannot hold one in GDAL 3.6: a Shapefile, a CSV, FlatGeobuf (its TITLE and
#: DESCRIPTION options came after GDAL 3.6), GeoJSONSeq...
LABELLED_FORMATS = ("GPKG", "GeoJSON")


def confidential_label(alg, name: str) -> str:
    """The label written inside a confidential output file (a GeoPackage's table description, a raster's
    metadata), so that a copy of the file says it is not for publication."""
    return tr("CONFIDENTIAL: not for publication ({0}, {1})").format(alg.displayName(), name)


def not_private_label(alg, name: str, why: str) -> str:
    """The label written inside a publishable output whose run lost its privacy guarantee."""
    return tr("NOT PRIVATE ({0}): no privacy guarantee holds ({1}, {2})").format(why, alg.displayName(), name)


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


def label_geojson(path: str, text: str) -> None:
    """Write ``text`` as the "description" member of the GeoJSON FeatureCollection ``path`` once its writer is
    closed: what GDAL's DESCRIPTION layer creation option writes (which QGIS 3.22's Processing cannot pass) and
    reads back as the layer's DESCRIPTION metadata. The member is put after the opening brace and the rest of the
    file is copied unchanged (coordinates are not re-read and re-printed). Raises ``OSError`` if it cannot."""
    import json
    import shutil

    temporary = path + ".labelled"
    member = ('\n"description": ' + json.dumps(text, ensure_ascii=False) + ",").encode("utf-8")
    try:
        with open(path, "rb") as source:
            head = source.read(4096)
            start = len(head) - len(head.lstrip(b"\xef\xbb\xbf \t\r\n"))
            if head[start : start + 1] != b"{":
                raise OSError("the file does not hold a GeoJSON object")
            with open(temporary, "wb") as target:
                target.write(head[: start + 1] + member + head[start + 1 :])
                shutil.copyfileobj(source, target)
        os.replace(temporary, path)
    except OSError as error:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise OSError(f"{path}: could not be labelled ({error})") from None
