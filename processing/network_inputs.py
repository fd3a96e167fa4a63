"""A street layer as a linear network, and points placed on it: the NETWORK parameter and its options, shared by
the algorithms that work on road networks (``dppoints``, ``kfunction``).

:func:`read_network` reads the line layer in the working CRS (multi-part lines become their parts, curves are
cut into straight segments) and builds a ``core.network.LinearNetwork`` (snapped within SNAP_TOLERANCE, crossings
joined with SPLIT_CROSSINGS); only the network is read, which is public. :func:`place_on_network` then moves the
points onto their nearest location on it (refusing points farther than MAX_SNAP_DISTANCE) and deals with a
network in several parts as COMPONENTS says. What was snapped, split, dropped and moved is in the log and in the
rows for the reports (:func:`network_rows`, :func:`placement_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qgis.core import (
    QgsFeatureRequest,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterDistance,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsWkbTypes,
)

from ..compat import (
    GEOMETRY_LINE,
    GEOMETRY_NULL,
    GEOMETRY_POINT,
    GEOMETRY_POLYGON,
    SOURCE_LINE,
    SOURCE_SKIP_GEOMETRY_CHECKS,
    crs_key,
)
from ..i18n import tr
from .feedback import FeedbackProgress
from .inputs import crs_label, untransformable, working_crs
from .parameters import given, optional_number

NETWORK = "NETWORK"
SNAP_TOLERANCE = "SNAP_TOLERANCE"
SPLIT_CROSSINGS = "SPLIT_CROSSINGS"
COMPONENTS = "COMPONENTS"
MAX_SNAP_DISTANCE = "MAX_SNAP_DISTANCE"
#: The options of COMPONENTS, in the order of the enum.
REFUSE_PARTS, PARTS_WITH_POINTS, LARGEST_PART = 0, 1, 2
#: The core's parameter names of the network functions -> the Processing names (for ``alg.core_error``).
CORE_NAMES = {
    "lines": NETWORK,
    "network": NETWORK,
    "snap_tolerance": SNAP_TOLERANCE,
    "max_distance": MAX_SNAP_DISTANCE,
}
#: Parts of a disconnected network listed by length in messages and reports.
LISTED_PARTS = 5


def add_network_layer(alg, help_text: str) -> None:
    """The optional NETWORK parameter (a line layer)."""
    alg.add(
        QgsProcessingParameterFeatureSource(NETWORK, tr("Street network (line layer)"), [SOURCE_LINE], None, True),
        help_text,
    )


def add_network_options(alg, points_name: str = "INPUT", *, distances_in_log: bool = True) -> None:
    """The advanced options of a network: SNAP_TOLERANCE, SPLIT_CROSSINGS, COMPONENTS and MAX_SNAP_DISTANCE.
    ``distances_in_log``: the run logs how far the points moved (:func:`place_on_network`'s ``log_distances``)."""
    alg.add(
        QgsProcessingParameterDistance(
            SNAP_TOLERANCE, tr("Snapping tolerance (network)"), 0.0, NETWORK, False, 0.0
        ),  # fmt: skip
        tr(
            "Line ends and vertices of NETWORK closer than this are merged into one junction, and a line end this "
            "close to another line joins it there (a street that stops short of, or overshoots, the street it "
            "meets), in the CRS units. 0: automatic, 1e-9 times the network's extent, so that only ends that "
            "coincide up to rounding meet. The report says how many vertices were snapped and how far."
        ),
        advanced=True,
    )
    alg.add(
        QgsProcessingParameterBoolean(SPLIT_CROSSINGS, tr("Join lines where they cross (network)"), True),
        tr(
            "Checked (default): two lines of NETWORK that cross without a shared vertex are joined at the crossing, "
            "as streets digitised as whole lines through their junctions need (Snow's map, many municipal layers): "
            "there one can turn from one street into the other. Unchecked: such lines pass over each other "
            "(bridges and tunnels), for layers that put a vertex at every junction and keep grade-separated "
            "crossings apart (e.g. OpenStreetMap). Line ends lying on another line join it either way. The report "
            "says how many crossings were joined."
        ),
        advanced=True,
    )
    alg.add(
        QgsProcessingParameterEnum(
            COMPONENTS,
            tr("Disconnected parts of the network"),
            [
                tr("Refuse a network in several parts"),
                tr("Use the parts that hold points"),
                tr("Use the largest part (points elsewhere refused)"),
            ],
            False,
            REFUSE_PARTS,
        ),
        tr(
            "What to do when NETWORK falls apart into parts that no path joins (a detached estate, a line end "
            "beyond the snapping tolerance): refuse it (default; the message lists the parts and their lengths), use "
            "only the parts on which points lie (the other parts are left out of the network and its length; no "
            "point is dropped), or use the largest part and refuse points that lie on another. The log and the "
            "report say how many parts were left out and how long they are. For a private release prefer the "
            "largest part: which parts hold points depends on the confidential points, so a synthesis on them is "
            "labelled NOT PRIVATE."
        ),
        advanced=True,
    )
    alg.add(
        QgsProcessingParameterDistance(
            MAX_SNAP_DISTANCE, tr("Largest distance from a point to the network"), None, NETWORK, True, 0.0
        ),
        tr(
            "Each point of {0} is moved to the nearest location on NETWORK. A point farther than this from every "
            "line is refused (the message names this parameter): a check that the points and the network match "
            "(same area, same CRS). Empty: no limit. {1}"
        ).format(
            points_name,
            tr(
                "The log and the report give the largest and the mean distance moved (derived from the confidential "
                "points, like the other outputs of this tool)."
            )
            if distances_in_log
            else tr(
                "How far the points moved is derived from the confidential points (the largest move singles out the "
                "most isolated point), so neither the log nor the report gives it: the log says only that all points "
                "were placed and, with a limit, that none lay farther."
            ),
        ),
        advanced=True,
    )


def network_options_unused(alg, parameters, feedback, names=(MAX_SNAP_DISTANCE,)) -> None:
    """Warn that network options given without NETWORK are not used (only those without a default)."""
    for name in names:
        if given(parameters, name):
            feedback.pushWarning(tr("{0} is used only with a {1}; it is ignored.").format(name, NETWORK))


# -- reading and building -------------------------------------------------------------------------------------------


@dataclass
class NetworkInput:
    """The network read from NETWORK (public: it holds nothing of the points).

    Attributes:
        net: the network as built from the whole layer.
        build: what building did (core.network.network.BuildReport).
        features: features read; parts: line parts; curved: features with curves, cut into straight segments;
        without_geometry: features without geometry, left out.
        crs: the working CRS.
        split_crossings: whether crossings were joined.
        layer_name: the layer's name.
    """

    net: object
    build: object
    features: int
    parts: int
    curved: int
    without_geometry: int
    crs: object
    split_crossings: bool
    layer_name: str


def _refuse_other_geometry(source) -> None:
    kind = QgsWkbTypes.geometryType(source.wkbType())
    if kind == GEOMETRY_NULL:
        raise QgsProcessingException(
            tr("{0}: the layer has no geometry (a table); give a line layer of streets.").format(NETWORK)
        )
    if kind in (GEOMETRY_POINT, GEOMETRY_POLYGON):
        raise QgsProcessingException(
            tr("{0}: needs a line layer of streets, got {1}.").format(
                NETWORK, QgsWkbTypes.displayString(source.wkbType())
            )
        )


def _network_crs(alg, parameters, context, feedback, source, points_crs, points_name: str, crs_name: str):
    """The network's working CRS, which must be the points': refused naming NETWORK (and WORK_CRS) otherwise."""
    source_crs, work_crs = working_crs(alg, parameters, context, source, NETWORK, crs_name, feedback)
    if crs_key(work_crs) != crs_key(points_crs):
        raise QgsProcessingException(
            tr(
                "{0} is in {1} but {2} is in {3}: the network and the points must be in the same CRS. Reproject "
                "{0} to the CRS of {2}, or pick a projected {4} that both are transformed to."
            ).format(NETWORK, crs_label(work_crs), points_name, crs_label(points_crs), crs_name)
        )
    return source_crs, work_crs


def _read_lines(source, request, progress):
    """The line parts of every feature as (k, 2) arrays, and (features, curved, ids without geometry)."""
    import numpy as np

    lines, without = [], []
    features = curved = 0
    total = max(source.featureCount(), 1)
    for i, feature in enumerate(source.getFeatures(request, SOURCE_SKIP_GEOMETRY_CHECKS)):
        if i % 2000 == 0:
            progress(i / total, tr("Reading the network"))
        geom = feature.geometry()
        if geom.isNull() or geom.isEmpty():
            without.append(feature.id())
            continue
        features += 1
        if geom.constGet().hasCurvedSegments():
            curved += 1
        for part in geom.constParts():
            if QgsWkbTypes.geometryType(part.wkbType()) != GEOMETRY_LINE:
                # a layer of mixed geometry (GeoJSON, a GeoPackage of type GEOMETRY) reports one type for all
                raise QgsProcessingException(
                    tr("{0}: feature {1} is a {2}, not a line; remove it or select only the lines.").format(
                        NETWORK, feature.id(), QgsWkbTypes.displayString(part.wkbType())
                    )
                )
            line = QgsGeometry(part.clone())
            line.convertToStraightSegment()  # curves: a vertex every degree of arc (QGIS's default)
            xy = np.array([(p.x(), p.y()) for p in line.asPolyline()], dtype=np.float64).reshape(-1, 2)
            if not np.all(np.isfinite(xy)):
                raise QgsProcessingException(
                    tr(
                        "{0}: feature {1} has coordinates that are not finite numbers in the working CRS; check the "
                        "layer's CRS."
                    ).format(NETWORK, feature.id())
                )
            lines.append(xy)
    return lines, features, curved, without


def read_network(
    alg,
    parameters,
    context,
    feedback,
    points_crs,
    *,
    points_name: str = "INPUT",
    crs_name: str = "WORK_CRS",
    progress_range: tuple[float, float] = (30.0, 40.0),
) -> NetworkInput:
    """Read NETWORK in the points' working CRS and build the network (module docstring); the log says what was
    snapped, joined and split, and how many parts the network has.

    Refused, naming the parameter: a layer that is not of lines (NETWORK), a network in degrees without a working
    CRS or in another CRS than the points (NETWORK, WORK_CRS), features that cannot be transformed, no line at all,
    a bad SNAP_TOLERANCE. Features without geometry are left out, with a warning."""
    from ..core.errors import ParameterError
    from ..core.network.network import build_network

    source = alg.parameterAsSource(parameters, NETWORK, context)
    if source is None:
        raise QgsProcessingException(alg.invalidSourceError(parameters, NETWORK))
    _refuse_other_geometry(source)
    source_crs, work_crs = _network_crs(alg, parameters, context, feedback, source, points_crs, points_name, crs_name)
    request = QgsFeatureRequest().setNoAttributes()
    if work_crs.isValid() and source_crs.isValid() and work_crs != source_crs:
        request.setDestinationCrs(work_crs, context.transformContext())
    start, stop = progress_range
    progress = FeedbackProgress(feedback, start, start + 0.4 * (stop - start))
    lines, features, curved, without = _read_lines(source, request, progress)
    if without and request.destinationCrs().isValid():
        failed = untransformable(source, without)
        if failed:
            raise QgsProcessingException(
                tr("{0}: {1} features could not be transformed from {2} to {3}; check the layer's CRS.").format(
                    NETWORK, failed, crs_label(source_crs), crs_label(work_crs)
                )
            )
    if without:
        feedback.pushWarning(
            tr("{0}: {1} features have no geometry and are left out of the network.").format(NETWORK, len(without))
        )
    if not lines:
        raise QgsProcessingException(
            tr("{0}: the layer has no lines (or none is selected); give a layer of streets.").format(NETWORK)
        )
    split = alg.parameterAsBoolean(parameters, SPLIT_CROSSINGS, context) if SPLIT_CROSSINGS in parameters else True
    tolerance = alg.parameterAsDouble(parameters, SNAP_TOLERANCE, context) if given(parameters, SNAP_TOLERANCE) else 0
    try:
        net, build = build_network(
            lines, tolerance, split, progress=FeedbackProgress(feedback, start + 0.4 * (stop - start), stop)
        )
    except ParameterError as error:
        raise alg.core_error(error, **CORE_NAMES) from None
    network = NetworkInput(net, build, features, len(lines), curved, len(without), work_crs, split, source.sourceName())
    feedback.pushInfo(build_summary(network))
    return network


def build_summary(network: NetworkInput) -> str:
    """What building the network did, in one paragraph for the log."""
    b = network.build
    crossings = (
        tr("{0} crossings without a shared vertex joined").format(b.crossings_split)
        if network.split_crossings
        else tr("crossings without a shared vertex kept apart ({0} off)").format(SPLIT_CROSSINGS)
    )
    return tr(
        "{0}: {1} features, {2} line parts ({3} with curves, cut into straight segments), {4} straight segments. "
        "Snapping tolerance {5:.6g}: {6} vertices snapped (the farthest by {7:.6g}), {8} line ends joined to the line "
        "they touch, {9}, {10} segments of zero length and {11} duplicates dropped. The network has {12} edges and "
        "{13} vertices, total length {14:.6g}, in {15} connected part(s)."
    ).format(
        NETWORK,
        network.features,
        network.parts,
        network.curved,
        b.input_segments,
        b.tolerance,
        b.vertices_snapped,
        b.max_snap_distance,
        b.ends_joined,
        crossings,
        b.zero_length_dropped,
        b.duplicates_merged,
        network.net.n_edges,
        network.net.n_vertices,
        network.net.total_length,
        b.n_components,
    )


def parts_text(lengths, edges) -> str:
    """The lengths (and edges) of the first parts of a network, largest first."""
    shown = [tr("{0:.6g} ({1} segments)").format(length, count) for length, count in zip(lengths[:LISTED_PARTS], edges)]
    more = len(lengths) - LISTED_PARTS
    return ", ".join(shown) + (tr(" and {0} more").format(more) if more > 0 else "")


# -- placing the points ---------------------------------------------------------------------------------------------


@dataclass
class NetworkPlacement:
    """Points placed on the network.

    Attributes:
        network: the network read (:class:`NetworkInput`).
        net: the network the points lie on: the whole network, or the parts kept (COMPONENTS).
        points: the locations on ``net`` of each layer placed, by parameter name.
        moved: how far each point moved (CONFIDENTIAL: derived from the points), by parameter name.
        parts_left_out: parts of the network not used, and their total length.
        parts_from_points: whether the parts used were chosen by where the points lie (COMPONENTS).
        max_distance: MAX_SNAP_DISTANCE, or ``None``.
    """

    network: NetworkInput
    net: object
    points: dict = field(default_factory=dict)
    moved: dict = field(default_factory=dict)
    parts_left_out: int = 0
    length_left_out: float = 0.0
    parts_from_points: bool = False
    max_distance: float | None = None


def _too_far(name: str, moved, limit: float, count_is_private: bool, show_farthest: bool) -> QgsProcessingException:
    if count_is_private:  # "k of the n points" would show the protected n, and the farthest one's distance
        return QgsProcessingException(
            tr(
                "{0}: some points of {1} lie farther than {2:g} from every line of {3} (how many and how far is not "
                "shown: the Laplace method protects the number of points). Check that the points and the network "
                "match (same area, same CRS), or allow a larger {0}."
            ).format(MAX_SNAP_DISTANCE, name, limit, NETWORK)
        )
    far = int((moved > limit).sum())
    if not show_farthest:  # a release: the farthest distance singles out the most isolated person
        return QgsProcessingException(
            tr(
                "{0}: {1} of the {2} points of {3} lie farther than {4:g} from every line of {5}. Check that the "
                "points and the network match (same area, same CRS), or allow a larger {0}."
            ).format(MAX_SNAP_DISTANCE, far, moved.size, name, limit, NETWORK)
        )
    return QgsProcessingException(
        tr(
            "{0}: {1} of the {2} points of {3} lie farther than {4:g} from every line of {5} (the farthest {6:.6g}). "
            "Check that the points and the network match (same area, same CRS), or allow a larger {0}."
        ).format(MAX_SNAP_DISTANCE, far, moved.size, name, limit, NETWORK, float(moved.max()))
    )


def place_on_network(
    alg,
    parameters,
    context,
    feedback,
    network: NetworkInput,
    layers,
    *,
    count_is_private: bool = False,
    log_distances: bool = True,
) -> NetworkPlacement:
    """Move the points of each of ``layers`` (``(parameter name, x, y)`` in the working CRS) onto the network, then
    keep the network whole or the parts COMPONENTS says. Refused, naming the parameter: points farther than
    MAX_SNAP_DISTANCE; a network in several parts with COMPONENTS = refuse; points off the largest part with
    COMPONENTS = largest. With ``count_is_private`` (the Laplace method protects n) no message or log line counts
    points. With ``log_distances`` (kfunction, whose outputs are CONFIDENTIAL) the log gives the largest and the
    mean distance moved; without it (dppoints, a release) only that all points were placed: the largest move
    singles out the most isolated person."""
    import numpy as np

    from ..core.network.placement import place_points

    net = network.net
    limit = optional_number(alg, parameters, MAX_SNAP_DISTANCE, context)
    placed, moved = {}, {}
    for name, x, y in layers:
        points, distance = place_points(net, np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        if limit is not None and distance.size and distance.max() > limit:
            raise _too_far(name, distance, limit, count_is_private, log_distances)
        placed[name], moved[name] = points, distance
    placement = NetworkPlacement(network, net, placed, moved, max_distance=limit)
    if net.n_components > 1:
        _choose_parts(alg, parameters, context, feedback, placement, count_is_private)
    for name, distance in moved.items():
        if distance.size and not log_distances:
            feedback.pushInfo(
                tr("Placed all points of {0} on the nearest line of the network{1}.").format(
                    name,
                    "" if limit is None else tr("; none lay farther than {0} = {1:g}").format(MAX_SNAP_DISTANCE, limit),
                )
            )
        elif distance.size:
            feedback.pushInfo(
                tr(
                    "Placed the points of {0} on the nearest line of the network: the largest move {1:.6g}, the mean "
                    "{2:.6g} (CRS units). These figures come from the confidential points."
                ).format(name, float(distance.max()), float(distance.mean()))
            )
    return placement


def _choose_parts(alg, parameters, context, feedback, placement: NetworkPlacement, count_is_private: bool) -> None:
    """Keep the parts of a disconnected network that COMPONENTS says, and carry the points over to them."""
    import numpy as np

    from ..core.network.components import components_holding, largest_component
    from ..core.network.network import NetworkPoints

    net, build = placement.net, placement.network.build
    choice = alg.parameterAsEnum(parameters, COMPONENTS, context) if COMPONENTS in parameters else REFUSE_PARTS
    parts = parts_text(build.component_lengths, build.component_edges)
    if choice == REFUSE_PARTS:
        raise QgsProcessingException(
            tr(
                "{0}: the network falls apart into {1} parts that no path joins (lengths {2}). Join them (a larger {3} "
                "joins line ends that nearly meet), or set {4} to use the parts that hold points or the largest part."
            ).format(NETWORK, net.n_components, parts, SNAP_TOLERANCE, COMPONENTS)
        )
    everything = np.concatenate([p.edge for p in placement.points.values()])
    all_points = NetworkPoints(everything, np.zeros(everything.size))
    part = components_holding(net, all_points) if choice == PARTS_WITH_POINTS else largest_component(net)
    for name in list(placement.points):
        kept, keep = part.restrict(placement.points[name], net.n_edges)
        if not keep.all():  # only with the largest part: the parts holding points keep every point
            raise QgsProcessingException(
                tr(
                    "{0}: {1} of {2} lie on other parts of the network than the largest (whose length is {3:.6g}); "
                    "set {0} to use the parts that hold points, or join the parts."
                ).format(
                    COMPONENTS,
                    tr("some points")
                    if count_is_private
                    else tr("{0} of the {1} points").format(int((~keep).sum()), keep.size),
                    name,
                    build.component_lengths[0],
                )
            )
        placement.points[name] = kept
    placement.net = part.net
    placement.parts_left_out = net.n_components - part.net.n_components
    placement.length_left_out = net.total_length - part.net.total_length
    placement.parts_from_points = choice == PARTS_WITH_POINTS
    feedback.pushWarning(
        tr(
            "{0}: the network falls apart into {1} parts (lengths {2}); {3} used ({4} part(s), length {5:.6g}), {6} "
            "part(s) of total length {7:.6g} left out. No point was dropped."
        ).format(
            COMPONENTS,
            net.n_components,
            parts,
            tr("the parts that hold points") if placement.parts_from_points else tr("the largest part"),
            part.net.n_components,
            part.net.total_length,
            placement.parts_left_out,
            placement.length_left_out,
        )
    )


# -- for the reports ------------------------------------------------------------------------------------------------


def network_rows(placement: NetworkPlacement) -> list[tuple[str, str]]:
    """Rows describing the network and how it was built and cut (public: they depend on the network only, except
    which parts were used when the points chose them, which the report then says)."""
    network, b = placement.network, placement.network.build
    rows = [
        (tr("Network layer"), network.layer_name),
        (tr("Features, line parts, with curves"), f"{network.features}, {network.parts}, {network.curved}"),
        (tr("Features without geometry (left out)"), str(network.without_geometry)),
        (tr("Straight segments read"), str(b.input_segments)),
        (tr("Snapping tolerance used (CRS units)"), f"{b.tolerance:.6g}"),
        (tr("Vertices snapped (the farthest move)"), f"{b.vertices_snapped} ({b.max_snap_distance:.6g})"),
        (tr("Line ends joined to the line they touch"), str(b.ends_joined)),
        (
            tr("Crossings without a shared vertex"),
            tr("{0} joined").format(b.crossings_split) if network.split_crossings else tr("kept apart (not searched)"),
        ),
        (tr("Zero-length segments and duplicates dropped"), f"{b.zero_length_dropped}, {b.duplicates_merged}"),
        (tr("Connected parts (lengths)"), f"{b.n_components}: {parts_text(b.component_lengths, b.component_edges)}"),
    ]
    if placement.parts_left_out:
        rows.append(
            (
                tr("Parts left out (total length)"),
                f"{placement.parts_left_out} ({placement.length_left_out:.6g})",
            )
        )
    rows += [
        (tr("Network used: edges, vertices"), f"{placement.net.n_edges}, {placement.net.n_vertices}"),
        (tr("Network used: total length |L| (CRS units)"), f"{placement.net.total_length:.6g}"),
        (tr("CRS"), crs_label(network.crs)),
    ]
    return rows


def placement_rows(placement: NetworkPlacement) -> list[tuple[str, str]]:
    """How far the points moved onto the network (CONFIDENTIAL: derived from the points)."""
    rows = []
    for name, moved in placement.moved.items():
        if moved.size:
            rows.append(
                (
                    tr("{0}: largest and mean distance moved onto the network").format(name),
                    f"{float(moved.max()):.6g}, {float(moved.mean()):.6g}",
                )
            )
    limit = placement.max_distance
    allowed = tr("no limit") if limit is None else f"{limit:g}"
    rows.append((tr("Largest distance allowed ({0})").format(MAX_SNAP_DISTANCE), allowed))
    return rows
