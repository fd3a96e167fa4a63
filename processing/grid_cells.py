"""Square grid cells as features: their polygon (back in the layer's CRS), their INSPIRE-style identifier, the
location columns a cell carries in a CSV file (which has no geometry), and layers of cells written with them."""

from __future__ import annotations

from qgis.core import QgsCoordinateTransform, QgsFeature, QgsFields, QgsGeometry, QgsPointXY, QgsRectangle

from ..compat import WKB_POLYGON, double_field, string_field
from .destinations import writes_csv
from .feedback import check_cancel_while_writing
from .sinks import add_features, make_sink, note_closing

#: The columns a grid cell written to CSV carries for its location, in the layer's CRS: centre and bounds.
CELL_LOCATION_COLUMNS = ("x", "y", "x_min", "y_min", "x_max", "y_max")


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


def cell_location(x_min: float, y_min: float, size: float, geometry, to_source) -> list[float]:
    """Values of :data:`CELL_LOCATION_COLUMNS` for the cell with lower-left corner ``(x_min, y_min)`` (working
    CRS) and ``geometry`` from :func:`cell_geometry` (layer CRS): the cell centre transformed to the layer's
    CRS, and the bounding box of the cell in the layer's CRS."""
    centre = QgsPointXY(x_min + size / 2.0, y_min + size / 2.0)
    if to_source is not None:
        centre = to_source.transform(centre)
    box = geometry.boundingBox()
    return [centre.x(), centre.y(), box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()]


def write_cell_layers(alg, parameters, context, feedback, spec, ix, iy, layers, crs, to_source) -> dict[str, str]:
    """Write the cells ``(ix, iy)`` of the grid ``spec`` (core.grid.GridSpec, working CRS) as square polygons in
    the layer's CRS ``crs`` (``to_source`` transforms them there, ``None`` if no transform is needed) to each
    output of ``layers``, a list of ``(output name, columns)``: every feature has ``cell_id``, then one field per
    column ``(QgsField, values per cell)``, and, in a CSV file (which has no geometry), the cell's
    :data:`CELL_LOCATION_COLUMNS`. The progress bar moves from 90 to 100 %; a Cancel stops a staged write (a
    layer written in place is finished). Returns each output's destination."""
    import numpy as np

    outputs = []
    for name, columns in layers:
        fields = QgsFields()
        fields.append(string_field("cell_id"))
        for field, _ in columns:
            fields.append(field)
        as_csv = writes_csv(parameters, name)
        if as_csv:
            for column in CELL_LOCATION_COLUMNS:
                fields.append(double_field(column))
        sink, dest = make_sink(alg, parameters, name, context, fields, WKB_POLYGON, crs)
        outputs.append((name, fields, sink, dest, as_csv, [np.asarray(values).tolist() for _, values in columns]))
    any_csv = any(output[4] for output in outputs)
    size = spec.cell_size
    x_min, y_min = spec.cell_lower_left(ix, iy)
    n_cells = len(ix)
    for i in range(n_cells):
        if i % 5000 == 0:
            feedback.setProgress(90.0 + 10.0 * i / n_cells)
            check_cancel_while_writing(feedback)
        geom = cell_geometry(float(x_min[i]), float(y_min[i]), size, to_source)
        ident = cell_id(float(x_min[i]), float(y_min[i]), size)
        location = cell_location(float(x_min[i]), float(y_min[i]), size, geom, to_source) if any_csv else []
        for name, fields, sink, _, as_csv, values in outputs:
            feature = QgsFeature(fields)
            feature.setGeometry(geom)
            feature.setAttributes([ident] + [column[i] for column in values] + (location if as_csv else []))
            add_features(sink, feature, name)
    for name, *_ in outputs:
        note_closing(feedback, parameters, name, n_cells)
    return {name: dest for name, _, _, dest, _, _ in outputs}
