"""The synthetic layer of ``spatialprivacy:synthesizemarked`` (core.marked.synthesis.MarkedSynthesis), written
through the shared staging: one sink with every set (field ``set``), and optionally one GeoPackage per set in a
folder. The layout is the contract ``spatialprivacy:markedrisk`` reads: the field ``set`` (integer, 1..L), the
category fields with the input's names and types and original values, and the numeric field (Real; Integer for
the truncated Poisson model)."""

from __future__ import annotations

import os

from qgis.core import (
    QgsFeature,
    QgsField,
    QgsFields,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsVectorFileWriter,
)

from ..compat import WKB_POINT, double_field, int_field
from ..core.files import replaced_when_done
from ..i18n import tr
from .destinations import ensure_folder, writes_csv
from .feedback import check_cancel_while_writing, run_feedback
from .labels import label_geopackage
from .sinks import WRITE_PROGRESS_EVERY, add_features, make_sink, note_closing


def marked_fields(field_defs, numeric_def, model) -> QgsFields:
    fields = QgsFields()
    fields.append(int_field("set"))
    for definition in field_defs:
        fields.append(QgsField(definition))
    if numeric_def is not None:
        name = numeric_def.name()
        fields.append(int_field(name) if model == "truncated_poisson" else double_field(name))
    return fields


def _features(syn, comb, fields, points, rows, as_csv=False):
    """The QgsFeatures of the records ``rows`` (in the layer's CRS)."""
    import numpy as np

    to_source = points.to_source()
    xs, ys = np.asarray(syn.x[rows], dtype=float).tolist(), np.asarray(syn.y[rows], dtype=float).tolist()
    sets = syn.set[rows].tolist()
    index = syn.index[rows].tolist()
    values = None if syn.numeric is None else syn.numeric[rows].tolist()
    for j, (px, py) in enumerate(zip(xs, ys)):
        geometry = QgsGeometry.fromPointXY(QgsPointXY(px, py))
        if to_source is not None:
            geometry.transform(to_source)
        feature = QgsFeature(fields)
        feature.setGeometry(geometry)
        attributes = [int(sets[j]), *comb.levels[index[j]]]
        if values is not None:
            attributes.append(values[j])
        if as_csv:
            point = geometry.asPoint()
            attributes += [point.x(), point.y()]
        feature.setAttributes(attributes)
        yield feature


def write_marked_layer(alg, parameters, context, name, syn, comb, field_defs, numeric_def, model, points, layer_name):
    """Every set into the sink ``name`` (staged, labelled as the algorithm's outputs are); the bar moves from where
    it is to 100 % and a Cancel stops the write."""
    feedback = run_feedback(context)
    start = feedback.progress() if feedback is not None else 0.0
    fields = marked_fields(field_defs, numeric_def, model)
    as_csv = writes_csv(parameters, name)
    if as_csv:
        fields.append(double_field("x"))
        fields.append(double_field("y"))
    sink, dest = make_sink(alg, parameters, name, context, fields, WKB_POINT, points.source_crs)
    total = int(syn.x.size)
    for k, feature in enumerate(_features(syn, comb, fields, points, slice(None), as_csv)):
        add_features(sink, feature, name)
        if feedback is not None and k % WRITE_PROGRESS_EVERY == 0:
            feedback.setProgress(start + (100.0 - start) * k / max(total, 1))
            check_cancel_while_writing(feedback)
    note_closing(feedback, parameters, name, total)
    if context.willLoadLayerOnCompletion(dest):
        context.layerToLoadOnCompletionDetails(dest).name = layer_name
    return dest


def write_marked_sets(alg, folder, syn, comb, field_defs, numeric_def, model, points, context, feedback):
    """Each set as ``set_<l>.gpkg`` in ``folder``, staged beside their targets (moved there when the run has
    succeeded) and labelled inside like the main output."""
    import numpy as np

    ensure_folder(os.path.join(folder, "set_1.gpkg"), alg.OUTPUT_FOLDER)
    fields = marked_fields(field_defs, numeric_def, model)
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    text = alg.file_label(alg.OUTPUT)
    crs = points.source_crs
    for ell in np.unique(syn.set).tolist():
        target = os.path.join(folder, f"set_{ell}.gpkg")
        with replaced_when_done(target) as partial:
            options.layerName = f"set_{ell}"
            writer = QgsVectorFileWriter.create(partial, fields, WKB_POINT, crs, context.transformContext(), options)
            if writer is None or writer.hasError():
                message = writer.errorMessage() if writer is not None else ""
                raise QgsProcessingException(
                    tr("{0}: {1} could not be written: {2}").format(alg.OUTPUT_FOLDER, target, message)
                )
            for feature in _features(syn, comb, fields, points, np.flatnonzero(syn.set == ell)):
                if not writer.addFeature(feature):
                    raise QgsProcessingException(
                        tr("{0}: {1} could not be written: {2}").format(
                            alg.OUTPUT_FOLDER, target, writer.errorMessage()
                        )
                    )
            del writer  # closes the file
            if text is not None:
                label_geopackage(partial, text)
        check_cancel_while_writing(feedback)
    if feedback is not None:
        feedback.pushInfo(tr("{0}: wrote set_1.gpkg to set_{1}.gpkg.").format(alg.OUTPUT_FOLDER, int(syn.set.max())))
    return folder
