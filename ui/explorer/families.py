"""The method families of the explorer: which layers and knobs each takes, the algorithm it runs, the
Processing parameters of a setting and the preview computation (a ``core.previews`` function).

A family sees the dialog's settings as a plain dict (``settings``) and the layer's data as arrays copied in the
main thread (``data``); ``compute(data, settings, progress)`` runs in the preview task and touches no QGIS object.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...compat import LAYER_FILTER_POINT, LAYER_FILTER_POLYGON, LAYER_FILTER_TABLE
from ...i18n import tr

PUFFERFISH, COUNTS, POINTS, SWEEP = "pufferfish", "dpcounts", "dppoints", "lgcpsweep"
METHODS = ("laplace", "kernel", "lgcp")  # the explorer's order of the DP points methods
ALGORITHM_METHOD = {"kernel": 0, "lgcp": 1, "laplace": 2}  # dppoints' METHOD enum
STATISTICS = ("mean", "total")  # pufferfishgrid's STATISTIC enum


@dataclass(frozen=True)
class Family:
    key: str
    algorithm: str
    layer_filter: object
    knobs: tuple[str, ...]  # the names of the dialog's knob rows this family shows
    fields: tuple[str, ...]  # the field pickers it shows (knob names too)
    output: str = "OUTPUT"  # the algorithm's output layer the dialog adds to the project

    def title(self) -> str:
        return {
            PUFFERFISH: tr("Pufferfish grid map"),
            COUNTS: tr("DP synthetic counts"),
            POINTS: tr("DP synthetic points"),
            SWEEP: tr("LGCP synthesis (radial, ANS, PRS)"),
        }[self.key]


FAMILIES = (
    Family(PUFFERFISH, "spatialprivacy:pufferfishgrid", LAYER_FILTER_POINT,
           ("epsilon", "cell_size", "error_model", "interval", "relative_k", "statistic", "min_count", "bounded",
            "lower_bound", "upper_bound", "margin"), ("value_field",)),
    Family(COUNTS, "spatialprivacy:dpcounts", LAYER_FILTER_POLYGON | LAYER_FILTER_TABLE,
           ("epsilon", "sets", "truncate", "alpha_tail", "c", "rate_scale", "rescale_prior"),
           ("count_field", "population_field", "rate_field", "expected_field")),
    Family(POINTS, "spatialprivacy:dppoints", LAYER_FILTER_POINT,
           ("epsilon", "method", "delta", "alpha", "cell_size", "total_share", "knots"), ()),
    Family(SWEEP, "spatialprivacy:riskutilitysweep", LAYER_FILTER_POINT,
           ("radii", "noise_levels", "prs_sets", "risk_radius", "max_risk"), (), "OUTPUT_RECOMMENDED"),
)  # fmt: skip
BY_KEY = {family.key: family for family in FAMILIES}


def parameters(family: Family, layer_source: str, settings: dict, seed=None) -> dict:
    """The Processing parameters of ``settings`` for ``family``'s algorithm (output: a temporary layer)."""
    if family.key == SWEEP:
        params = {
            "INPUT": layer_source, "RADII": list_text(settings["radii"]),
            "NOISE_LEVELS": list_text(settings["noise_levels"]), "PRS_SETS": settings["prs_sets"],
            "RISK_RADIUS": settings["risk_radius"], "MAX_RISK": settings["max_risk"],
            "OUTPUT_RECOMMENDED": "TEMPORARY_OUTPUT",
        }  # fmt: skip
        if seed is not None:
            params["SEED"] = seed
        return params
    params = {"INPUT": layer_source, "EPSILON": settings["epsilon"], "OUTPUT": "TEMPORARY_OUTPUT"}
    if family.key == PUFFERFISH:
        params.update({"FIELD": settings["value_field"], "CELL_SIZE": settings["cell_size"]})
        if settings["error_model"] == "absolute":
            params.update({"ERROR_MODEL": 0, "INTERVAL": settings["interval"]})
            params["STATISTIC"] = STATISTICS.index(settings["statistic"])
        else:
            params.update({"ERROR_MODEL": 1, "RELATIVE_K": settings["relative_k"]})
        params.update({"MIN_COUNT": int(settings["min_count"]), "BOUNDED": bool(settings["bounded"])})
        if settings["bounded"]:
            for name, key in (("lower_bound", "LOWER_BOUND"), ("upper_bound", "UPPER_BOUND"), ("margin", "MARGIN")):
                value = parse_number(settings[name])
                if value is not None:
                    params[key] = value
    elif family.key == COUNTS:
        params.update(
            {"COUNT_FIELD": settings["count_field"], "POPULATION_FIELD": settings["population_field"],
             "C": settings["c"], "TRUNCATE": bool(settings["truncate"]), "SETS": int(settings["sets"]),
             "RESCALE_PRIOR": bool(settings["rescale_prior"])}
        )  # fmt: skip
        if settings.get("rate_field"):
            params.update({"RATE_FIELD": settings["rate_field"], "RATE_SCALE": settings["rate_scale"]})
        elif settings.get("expected_field"):
            params["EXPECTED_FIELD"] = settings["expected_field"]
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
        if method == "laplace":
            params["TOTAL_SHARE"] = settings["total_share"]
        if method == "lgcp":
            params["KNOTS"] = int(settings["knots"])
    if seed is not None:
        params["SEED"] = seed
    return params


def compute(family: Family, data: dict, settings: dict, progress, partial=None):
    """The preview curve of ``settings`` on ``data`` (arrays); runs in the preview task. ``partial(point)``, if
    given, gets each setting of the LGCP sweep as it finishes (from the task's thread)."""
    from ...core.mechanisms import generator
    from ...core.previews.curve import epsilon_grid

    if family.key == SWEEP:
        from ...core.previews.sweep import sweep_preview

        return sweep_preview(
            data["x"], data["y"], generator(settings.get("preview_seed", 20260101)),
            radii=parse_list(settings["radii"]), noise_levels=parse_list(settings["noise_levels"]),
            prs_sets=int(settings["prs_sets"]), risk_radius=settings["risk_radius"],
            max_risk=settings["max_risk"], progress=progress, on_point=partial,
        )  # fmt: skip

    epsilon = settings["epsilon"]
    grid = epsilon_grid(epsilon)
    if family.key == PUFFERFISH:
        return pufferfish_curve(data, settings, grid, progress)
    rng = generator(settings.get("preview_seed", 20260101))
    if family.key == COUNTS:
        from ...core.counts import check_counts
        from ...core.counts_calibration import prior_expected
        from ...core.previews.counts import counts_error_curve

        y = check_counts(data["y"])  # the priors as the algorithm makes them: rates per people, rescaled
        population, prior = prior_expected(
            data["population"], data["prior"], rate_per=settings["rate_scale"] if settings.get("rate_field") else None,
            rescale_to=int(y.sum()) if settings["rescale_prior"] else None,
        )  # fmt: skip
        return counts_error_curve(
            y, population, prior, grid, epsilon, rng, truncate=bool(settings["truncate"]),
            alpha=settings.get("alpha_tail") or None, c=settings["c"], progress=progress,
        )  # fmt: skip
    from ...core.previews.points import PREVIEW_DEFAULTS, points_curve
    from ...core.window import Window

    window = Window.around_points(data["x"], data["y"])
    n_epsilons, draws = PREVIEW_DEFAULTS[settings["method"]]  # the kernel's calibration is slow: fewer points
    return points_curve(
        data["x"], data["y"], window, settings["method"], epsilon_grid(epsilon, n_epsilons), epsilon, rng,
        **_points_options(settings), draws=draws, progress=progress,
    )  # fmt: skip


def _points_options(settings: dict) -> dict:
    """The DP points settings of the preview, as ``core.previews.points`` takes them."""
    return {
        "alpha": settings.get("alpha") or None, "delta": settings.get("delta") or None,
        "cell_size": settings.get("cell_size") or None, "knots": int(settings["knots"]),
        "total_share": settings["total_share"] if settings["method"] == "laplace" else 0.0,
    }  # fmt: skip


def draw(family: Family, data: dict, settings: dict, progress=None):
    """One draw at the chosen setting for the map preview, or ``None`` for a family without one: a Pufferfish grid
    map (``core.previews.pufferfish.preview_draw_grid``) or a synthetic pattern as ``(x, y)``
    (``core.previews.points.preview_draw_points``). Runs in the preview task; for the steward's eyes only."""
    from ...core.mechanisms import generator

    rng = generator(settings.get("preview_seed", 20260101))
    if family.key == PUFFERFISH:
        from ...core.grid import GridSpec
        from ...core.previews.pufferfish import preview_draw_grid

        return preview_draw_grid(
            data["x"], data["y"], data["values"], GridSpec(settings["cell_size"], 0.0, 0.0), settings["epsilon"], rng,
            **_pufferfish_options(settings), min_count=int(settings["min_count"]), progress=progress,
        )  # fmt: skip
    if family.key == POINTS:
        from ...core.previews.points import preview_draw_points
        from ...core.window import Window

        return preview_draw_points(
            data["x"], data["y"], Window.around_points(data["x"], data["y"]), settings["method"],
            settings["epsilon"], rng, **_points_options(settings), progress=progress,
        )  # fmt: skip
    return None


def parse_list(text: str) -> list[float]:
    """The numbers of a list typed as in the algorithm's dialog: '50, 100' (or '0,5; 1' with decimal commas).

    Raises:
        ValueError: with what to change, for a value that is no number.
    """
    text = (text or "").strip()
    parts = text.split(";") if ";" in text else text.split(",")
    values = []
    for part in (p.strip() for p in parts):
        if not part:
            continue
        try:
            values.append(float(part.replace(",", ".")))
        except ValueError:
            raise ValueError(
                tr("“{0}” is not a number: separate the values with commas (semicolons with decimal commas).").format(
                    part
                )
            ) from None
    return values


def parse_number(text: str) -> float | None:
    """One number typed in an optional field ('' gives ``None``), with a decimal point or comma.

    Raises:
        ValueError: with what to change, for text that is no number.
    """
    text = (text or "").strip()
    if not text:
        return None
    try:
        return float(text.replace(",", "."))
    except ValueError:
        raise ValueError(tr("“{0}” is not a number.").format(text)) from None


def list_text(text: str) -> str:
    """The list ``text`` as the algorithm reads it (each number in Python's notation, comma-separated)."""
    return ", ".join(repr(value) for value in parse_list(text))


def pufferfish_curve(data: dict, settings: dict, epsilons, progress=None):
    """Expected error per published cell: the cells' public counts (``core.previews.pufferfish.cell_counts``),
    then ``core.previews.pufferfish.pufferfish_error_curve``."""
    from ...core.grid import GridSpec
    from ...core.previews.pufferfish import cell_counts, pufferfish_error_curve

    counts = cell_counts(data["x"], data["y"], GridSpec(settings["cell_size"], 0.0, 0.0), int(settings["min_count"]))
    return pufferfish_error_curve(counts, epsilons, settings["epsilon"], **_pufferfish_options(settings),
                                  progress=progress)  # fmt: skip


def _pufferfish_options(settings: dict) -> dict:
    """The Pufferfish settings of the preview, as ``core.previews.pufferfish`` takes them."""
    absolute = settings["error_model"] == "absolute"
    bounded = bool(settings["bounded"])
    return {
        "error_model": settings["error_model"], "interval": settings["interval"] if absolute else None,
        "relative_k": None if absolute else settings["relative_k"],
        "statistic": settings["statistic"] if absolute else "mean", "bounded": bounded,
        **{name: parse_number(settings[key]) if bounded else None
           for name, key in (("lower", "lower_bound"), ("upper", "upper_bound"), ("margin", "margin"))},
    }  # fmt: skip


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


def note_text(note) -> str:
    """A preview's note (``core.previews.curve.Note``) in the user's language: the same template as core's
    English one, translated here (core has no translation)."""
    templates = {
        "counts_draws": tr("Monte-Carlo estimates from {draws} synthetic data sets per ε."),
        "pufferfish_public_counts": tr(
            "Errors of the noise on each published cell, from the public counts alone; clamping (bounded "
            "mechanism) can only make them smaller."
        ),
        "pufferfish_relative_infinite": tr(
            "Where the relative error is infinite, the noise on the log scale is too wide for the "
            "cell's count: raise epsilon or k, or the minimum count."
        ),
        "points_draws": tr("Means over {draws} synthetic patterns per ε."),
        "points_default_delta": tr("δ = 1/n = {delta:.3g} (the default of the algorithm)."),
        "points_bandwidth_beyond": tr(
            "ε = {epsilon:.3g}: the bandwidth lies beyond the widest one computed for the preview"
        ),
        "points_refused": tr("ε = {epsilon:.3g}: {reason}"),
        "sweep_nothing_recommended": tr("No setting has maximum risk at or below {max_risk:g}: nothing recommended."),
    }
    template = templates.get(getattr(note, "key", None))
    if template is None:
        return str(note)
    try:
        return template.format(**note.values)
    except (KeyError, IndexError, ValueError):  # a translation with a broken placeholder: the English text
        return str(note)
