"""Reading and checking parameter values: numbers (as QGIS reads them), lists of numbers typed into a text
parameter, seeds and the random generator they make, and core errors turned into messages that name the
parameter."""

from __future__ import annotations

import math
import numbers
import re

from qgis.core import QgsProcessingException, QgsProperty
from qgis.PyQt.QtCore import QVariant

from ..compat import NUMBER_INTEGER
from ..i18n import tr

# Processing imports a widget_wrapper class from its dotted path; the plugin's package name is whatever QGIS
# imported it as, so the path is built from this module's own package, not written out.
DISTANCE_WIDGET = f"{__package__.rpartition('.')[0]}.ui.distance_widget.DistanceWidget"

#: Largest SEED: QGIS integer parameters are 32-bit.
MAX_SEED = 2**31 - 1
#: A number as text, as QGIS reads it (ASCII digits, a point, an exponent; inf and nan are left to the checks).
NUMBER_TEXT = re.compile(r"\s*[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)\s*", re.I)
#: A whole number as text: ASCII digits only (Python's int() would also take other scripts' digits and '1_000')
WHOLE_NUMBER_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")
#: The metadata key that marks a SEED parameter (SpatialPrivacyAlgorithm.add_seed).
SEED_METADATA = "spatial_privacy_seed"


def given(parameters: dict, name: str) -> bool:
    """Whether the optional parameter ``name`` has a value (neither absent, ``None`` nor an empty string)."""
    return parameters.get(name) not in (None, "")


def optional_number(alg, parameters: dict, name: str, context) -> float | None:
    """The number of the optional parameter ``name``, or ``None`` when it is not given."""
    return alg.parameterAsDouble(parameters, name, context) if given(parameters, name) else None


def _bound(value: float) -> str:
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else f"{value:g}"


def number_range_problem(parameter, value, context) -> str | None:
    """What is allowed, for a number or distance that its parameter refuses (QGIS itself says only "Incorrect
    parameter value for NAME"); ``None`` if the value is acceptable or not given."""
    if parameter.type() not in ("number", "distance") or value is None or isinstance(value, QgsProperty):
        return None
    if parameter.metadata().get(SEED_METADATA):
        return seed_problem(parameter.name(), value)  # the one rule for a seed, which make_rng applies too
    if value == "":
        return None  # not given
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
        span = tr("from {0} to {1}").format(_bound(low), _bound(high))
    elif low > -1e300:
        span = tr("of at least {0}").format(_bound(low))
    elif high < 1e300:
        span = tr("of at most {0}").format(_bound(high))
    kind = tr("a whole number") if integer else tr("a number")
    return tr("{0}: '{1}' is not allowed; give {2}.").format(parameter.name(), value, f"{kind} {span}".strip())


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
            message = not_a_number if not_a_number is not None else tr("{0}: '{1}' is not a number.")
            raise QgsProcessingException(message.format(parameter, item)) from None
    return values


def number_list_help() -> str:
    """The sentence of every list parameter's help that explains :func:`parse_number_list`'s rule."""
    return tr(
        "Separate the numbers with commas ('0.5, 1, 2'), or with semicolons if you write decimals with a comma "
        "('0,5; 1; 2')."
    )


def seed_help() -> str:
    """Help text of every algorithm's SEED parameter."""
    return tr(
        "Seed of the random generator: a whole number from 0 to {0}. Leave empty for a real release: the noise "
        "then comes from the operating system's entropy. A seed makes the output reproducible, which is for testing "
        "only: anyone who knows the seed and the method can recompute the noise and remove it, so the outputs of a "
        "seeded run are labelled NOT PRIVATE: in the layer names, in the report title and inside the files that "
        "can hold a label (a GeoPackage, a GeoJSON file); other formats (a Shapefile, a CSV, FlatGeobuf) cannot, "
        "and the log then warns, naming the output."
    ).format(MAX_SEED)


def parse_seed(value) -> int | None:
    """The one rule for a SEED, whatever gives it (the dialog, processing.run, qgis_process, a model): ``None``
    (no seed: a real release) for ``None``, a null QVariant (``qgis.core.NULL``, which PyQGIS scripts and batch
    runs pass for an empty optional input) or blank text, else a whole number from 0 to :data:`MAX_SEED` given as
    an integer, a whole float or its text. Raises ``ValueError`` for anything else: out of range, a fraction, text
    that is no number, ``True``. The raw value is read here, not through QGIS: a Python integer of 2**64 or more
    fits no QVariant and reaches QGIS as a null value, which QGIS's own range check accepts for an optional number
    and parameterAsString reads as '' (the run was silently unseeded); QGIS 3.22 also reads text that is no number
    as 0."""
    if isinstance(value, QVariant):  # NULL, or a value a caller wrapped: the rule applies to what it holds
        if value.isNull():
            return None
        value = value.value()
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, numbers.Integral):
        seed = int(value)
    elif isinstance(value, float):
        if not (math.isfinite(value) and value == math.floor(value)):
            raise ValueError(value)
        seed = int(value)
    elif isinstance(value, str):
        if not value.strip():
            return None
        if WHOLE_NUMBER_TEXT.fullmatch(value):
            seed = int(value)
        elif NUMBER_TEXT.fullmatch(value):
            return parse_seed(float(value))
        else:
            raise ValueError(value)
    else:
        raise ValueError(value)
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(value)
    return seed


def seed_problem(name: str, value) -> str | None:
    """What is wrong with ``value`` as the seed parameter ``name`` (:func:`parse_seed`), naming the parameter and
    the range, or ``None``."""
    try:
        parse_seed(value)
    except ValueError:
        if isinstance(value, QVariant):  # name what it holds, not the wrapper
            value = value.value()
        return tr(
            "{0}: '{1}' is not allowed; give a whole number from 0 to {2}, or leave it empty for a real release."
        ).format(name, value, MAX_SEED)
    return None


def make_rng(alg, parameters, context, seed_name: str, feedback):
    """``(generator, seed)``: a ``numpy.random.Generator`` (core.mechanisms.generator) from the user's seed (testing
    only; :func:`parse_seed`, which the checks before the run apply too) or from OS entropy (``seed`` ``None``).

    A seed lets anyone regenerate the noise and subtract it: if ``alg.PUBLISHES_DRAWS`` (its publishable outputs
    carry the generator's draws), the run loses its guarantee (``alg.lose_guarantee``), so its files, layer names and
    report title say NOT PRIVATE, and the log says why."""
    from ..core.mechanisms import generator

    value = parameters.get(seed_name)
    if isinstance(value, QgsProperty):  # an expression or a model input: the value it gives, as text
        value = alg.parameterAsString(parameters, seed_name, context)
    problem = seed_problem(seed_name, value)
    if problem is not None:
        raise QgsProcessingException(problem)
    seed = parse_seed(value)
    if seed is None:
        return generator(), None
    if getattr(alg, "PUBLISHES_DRAWS", False):
        alg.lose_guarantee(tr("fixed {0}").format(seed_name))
        feedback.pushWarning(
            tr(
                "{0} = {1}: the outputs are NOT PRIVATE, and their files, layer names and report say so. {0} makes "
                "the noise reproducible: anyone with the seed can subtract it (or redraw a synthesis from the same "
                "model). Leave {0} empty for a real release."
            ).format(seed_name, seed)
        )
    else:
        feedback.pushWarning(
            tr(
                "{0} = {1}: the output is reproducible. Do not publish it; leave the seed empty for a real release."
            ).format(seed_name, seed)
        )
    return generator(seed), seed


def parameter_error(error: ValueError, names: dict[str, str]) -> QgsProcessingException:
    """Turn a core ``ParameterError`` (or ``ValueError``) into a message naming the parameter: ``names`` maps the
    core's parameter names to the algorithm's (``SpatialPrivacyAlgorithm.CORE_NAMES``)."""
    core_name = getattr(error, "parameter", None)
    name = names.get(core_name, core_name)
    return QgsProcessingException(f"{name}: {error}" if name else str(error))
