"""Report of the Pufferfish grid map (``pufferfishgrid``): the guarantee (ter Steege 2021, Theorem 3.1 or
Corollary 3.2, and Section 4 for the bounded mechanism), the settings, and what is not protected."""

from __future__ import annotations

import math

from ...i18n import tr


def statistic_name(settings) -> str:
    """What the map publishes per cell, in words: total, geometric mean or mean."""
    from ...core.pufferfish import ErrorModel, Statistic

    if settings.statistic == Statistic.TOTAL:
        return tr("total")
    return tr("geometric mean") if settings.error_model == ErrorModel.RELATIVE else tr("mean")


def report_sections(grid, field_name, seed, n_points) -> list:
    """The report of a Pufferfish grid (core.pufferfish.PufferfishGrid): the guarantee as the thesis states it,
    the settings, what is not protected, and warnings (bounds from the data, Δ ≥ 1, a fixed seed)."""
    from ...core.pufferfish import ErrorModel

    s = grid.settings
    absolute = s.error_model == ErrorModel.ABSOLUTE
    if absolute:
        secret = tr("whether a person's value lies in [x−c, x+c) or in [x+c, x+3c), for c = {0:g}").format(s.interval)
    else:
        secret = tr("a person's value up to a factor k = {0:g} (relative intervals [ky, y/k))").format(s.relative_k)
    guarantee = tr(
        "ε-Pufferfish privacy with ε = {0:g} (ter Steege 2021, {1}): from the published map an attacker "
        "cannot learn {2} by more than a factor e^ε = {3:.4g}, whatever they believe about the values, as long "
        "as people's values are independent (eq. 5). Each person contributes to one cell, so this holds for "
        "the whole map. Not counted: the noise is drawn in double precision, which adds a δ of about 1e-16 at "
        "ε = 1 (5e-15 at ε = 10, 8e-11 at ε = 20, 2e-3 at ε = 30)."
    ).format(s.epsilon, tr("Theorem 3.1") if absolute else tr("Corollary 3.2"), secret, math.exp(s.epsilon))
    if s.bounded:
        guarantee += " " + tr(
            "Outputs are clamped to [L, U] (mechanism B, Section 4). The thesis analyses this as "
            "(ε, δ)-Pufferfish in its cumulative form (Definition 4.2) with δ ≤ Δ = {0:.4g}, the largest "
            "per-cell bound δ_max of a published cell ({1}). With bounds fixed before looking at the data, "
            "clamping is post-processing and the ε guarantee above holds unchanged; Δ is then a conservative "
            "figure."
        ).format(grid.delta, tr("Theorem 4.4") if absolute else tr("Corollary 4.5"))
        if grid.limits is not None and grid.limits.from_data:
            guarantee = tr(
                "None. The clamp limits were derived from the data (BOUNDS_FROM_DATA): the smallest and largest "
                "value can be read back from the map, and Pufferfish privacy must hold for every person under "
                "every prior, so no ε holds for this map. ε = {0:g} only sets the noise. Fix the bounds from "
                "public knowledge for a release."
            ).format(s.epsilon)
    rows = [
        (tr("Value field"), field_name),
        (tr("Points"), n_points),
        (tr("Cell size r"), f"{grid.spec.cell_size:g}"),
        (tr("Grid origin"), f"({grid.spec.origin_x:g}, {grid.spec.origin_y:g})"),
        (tr("Published statistic"), statistic_name(s)),
        (tr("Error model"), tr("absolute") if absolute else tr("relative")),
        ("ε", f"{s.epsilon:g}"),
        ("c" if absolute else "k", f"{s.interval:g}" if absolute else f"{s.relative_k:g}"),
        (tr("Bounded mechanism"), tr("yes") if s.bounded else tr("no")),
        (tr("Minimum contributors per cell"), s.min_count),
        (tr("Published cells"), len(grid.count)),
        (tr("Occupied cells left out (n below the minimum)"), grid.suppressed_cells),
        (tr("Grid bound Δ on δ"), f"{grid.delta:.4g}"),
    ]
    if s.bounded and grid.limits is not None:
        margin = "γ" if absolute else "λ"
        if grid.limits.from_data:
            rows.append((tr("Contribution bounds"), tr("derived from the data (NOT private)")))
            rows.append(
                (
                    margin,
                    tr("derived from the data") if s.margin is None and absolute else f"{grid.limits.margin:g}",
                )
            )
        else:
            rows += [
                ("L_t, U_t", f"{grid.limits.lower_t:g}, {grid.limits.upper_t:g}"),
                (margin, f"{grid.limits.margin:g}"),
                ("L, U", f"{grid.limits.lower:g}, {grid.limits.upper:g}"),
            ]
    sections = [(tr("Privacy guarantee"), guarantee), (tr("Settings"), rows)]
    sections.append(
        (
            tr("What is not protected"),
            tr(
                "Locations and counts: the map shows which cells are occupied and publishes the number of "
                "contributors n of each cell exactly. The secrets protected are the values only."
            ),
        )
    )
    if s.bounded and grid.limits is not None and grid.limits.from_data:
        sections.append(
            (
                tr("Warning: bounds derived from the data"),
                tr(
                    "The clamp limits L and U were computed from the smallest and largest value in the data. "
                    "Both values can be recovered from the map: from cells published at the limits, and from "
                    "delta_max or Δ together with noise_scale (with the default margin γ = L_t). "
                    "This is not private."
                ),
            )
        )
    if grid.delta >= 1:
        sections.append(
            (
                tr("Warning: Δ ≥ 1"),
                tr("The thesis's bound on δ is at least 1 here, so it guarantees nothing for the clamped map."),
            )
        )
    if seed is not None:
        sections.append(
            (
                tr("Warning: fixed seed"),
                tr(
                    "A random seed was given, so the noise can be recomputed by anyone who knows it. "
                    "Do not publish this map."
                ),
            )
        )
    return sections
