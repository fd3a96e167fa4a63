"""The method families of the explorer: which layers and knobs each takes, the algorithm it runs, the
Processing parameters of a setting and the preview computation (a ``core.previews`` function).

A family sees the dialog's settings as a plain dict (``settings``) and the layer's data as arrays copied in the
main thread (``data``); ``compute(data, settings, progress)`` runs in the preview task and touches no QGIS object.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...compat import LAYER_FILTER_POINT, LAYER_FILTER_POLYGON, LAYER_FILTER_TABLE
from ...i18n import tr

PUFFERFISH, COUNTS, POINTS = "pufferfish", "dpcounts", "dppoints"
METHODS = ("laplace", "kernel", "lgcp")  # the explorer's order of the DP points methods
ALGORITHM_METHOD = {"kernel": 0, "lgcp": 1, "laplace": 2}  # dppoints' METHOD enum


@dataclass(frozen=True)
class Family:
    key: str
    algorithm: str
    layer_filter: object
    knobs: tuple[str, ...]  # the names of the dialog's knob rows this family shows
    fields: tuple[str, ...]  # the field pickers it shows (knob names too)

    def title(self) -> str:
        return {
            PUFFERFISH: tr("Pufferfish grid map"),
            COUNTS: tr("DP synthetic counts"),
            POINTS: tr("DP synthetic points"),
        }[self.key]


FAMILIES = (
    Family(PUFFERFISH, "spatialprivacy:pufferfishgrid", LAYER_FILTER_POINT,
           ("epsilon", "cell_size", "error_model", "interval", "relative_k"), ("value_field",)),
    Family(COUNTS, "spatialprivacy:dpcounts", LAYER_FILTER_POLYGON | LAYER_FILTER_TABLE,
           ("epsilon", "alpha_tail", "c"), ("count_field", "population_field", "rate_field")),
    Family(POINTS, "spatialprivacy:dppoints", LAYER_FILTER_POINT,
           ("epsilon", "method", "delta", "alpha", "cell_size"), ()),
)  # fmt: skip
BY_KEY = {family.key: family for family in FAMILIES}


def parameters(family: Family, layer_source: str, settings: dict, seed=None) -> dict:
    """The Processing parameters of ``settings`` for ``family``'s algorithm (output: a temporary layer)."""
    params = {"INPUT": layer_source, "EPSILON": settings["epsilon"], "OUTPUT": "TEMPORARY_OUTPUT"}
    if family.key == PUFFERFISH:
        params.update({"FIELD": settings["value_field"], "CELL_SIZE": settings["cell_size"]})
        if settings["error_model"] == "absolute":
            params.update({"ERROR_MODEL": 0, "INTERVAL": settings["interval"]})
        else:
            params.update({"ERROR_MODEL": 1, "RELATIVE_K": settings["relative_k"]})
    elif family.key == COUNTS:
        params.update(
            {"COUNT_FIELD": settings["count_field"], "POPULATION_FIELD": settings["population_field"],
             "C": settings["c"]}
        )  # fmt: skip
        if settings.get("rate_field"):
            params["RATE_FIELD"] = settings["rate_field"]
        if settings.get("alpha_tail"):
            params["ALPHA"] = settings["alpha_tail"]
    else:
        method = settings["method"]
        params["METHOD"] = ALGORITHM_METHOD[method]
        if settings.get("alpha"):
            params["ALPHA"] = settings["alpha"]
        if method != "laplace" and settings.get("delta"):
            params["DELTA"] = settings["delta"]
        if method == "laplace" and settings.get("cell_size"):
            params["CELL_SIZE"] = settings["cell_size"]
    if seed is not None:
        params["SEED"] = seed
    return params


def compute(family: Family, data: dict, settings: dict, progress):
    """The preview curve of ``settings`` on ``data`` (arrays); runs in the preview task."""
    from ...core.previews.curve import epsilon_grid

    epsilon = settings["epsilon"]
    grid = epsilon_grid(epsilon)
    if family.key == PUFFERFISH:
        return pufferfish_curve(data, settings, grid, progress)
    from ...core.mechanisms import generator

    rng = generator(settings.get("preview_seed", 20260101))
    if family.key == COUNTS:
        from ...core.previews.counts import counts_error_curve

        return counts_error_curve(
            data["y"], data["population"], data["prior_expected"], grid, epsilon, rng,
            alpha=settings.get("alpha_tail") or None, c=settings["c"], progress=progress,
        )  # fmt: skip
    from ...core.previews.points import PREVIEW_DEFAULTS, points_curve
    from ...core.window import Window

    window = Window.around_points(data["x"], data["y"])
    n_epsilons, draws = PREVIEW_DEFAULTS[settings["method"]]  # the kernel's calibration is slow: fewer points
    return points_curve(
        data["x"], data["y"], window, settings["method"], epsilon_grid(epsilon, n_epsilons), epsilon, rng,
        alpha=settings.get("alpha") or None, delta=settings.get("delta") or None,
        cell_size=settings.get("cell_size") or None, draws=draws, progress=progress,
    )  # fmt: skip


def pufferfish_curve(data: dict, settings: dict, epsilons, progress=None):
    """Expected error per published cell: the cells' public counts (``core.previews.pufferfish.cell_counts``),
    then ``core.previews.pufferfish.pufferfish_error_curve``."""
    from ...core.grid import GridSpec
    from ...core.previews.pufferfish import cell_counts, pufferfish_error_curve

    counts = cell_counts(data["x"], data["y"], GridSpec(settings["cell_size"], 0.0, 0.0))
    absolute = settings["error_model"] == "absolute"
    return pufferfish_error_curve(
        counts, epsilons, settings["epsilon"], error_model=settings["error_model"],
        interval=settings["interval"] if absolute else None, relative_k=None if absolute else settings["relative_k"],
        progress=progress,
    )  # fmt: skip


def series_labels() -> dict[str, str]:
    """Translated labels of the series the core functions return."""
    return {
        "median": tr("Median over the published cells"),
        "p90": tr("90th percentile over the published cells"),
        "delta": tr("Δ (bounded mechanism)"),
        "mean_abs_error": tr("Expected absolute error per group"),
        "p_within_10pct": tr("P(within ±10% of the truth)"),
        "mise": tr("K-function MISE"),
        "n_points": tr("Synthetic points"),
    }


def axis_labels() -> dict[str, str]:
    """Translated labels of the axes, where a series shares its axis with another."""
    error = tr("Expected error per published cell")
    return {"median": error, "p90": error}
