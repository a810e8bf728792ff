"""The arguments a design may give a Faker provider, and the values it may
make.

`{faker: {provider: pystr, max_chars: 50000000}}` would make every sample
value 50 MB. A design's Faker arguments are checked before any value is
made: each must be one the provider takes, sizes (characters, words,
elements, rows, digits) at most MAX_SIZE_ARGUMENT, texts and lists at most
MAX_TEXT_ARGUMENT characters or items, no nested structures; then the
provider is called once with them, and what it makes must be a plain value
of at most MAX_VALUE_CHARS characters (or bytes). Generating sample data
checks each value's size again.
"""

from __future__ import annotations

import datetime as dt
import functools
import inspect
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from modeler.sampledata.fakers import faker_class

MAX_SIZE_ARGUMENT = 1_000
MAX_TEXT_ARGUMENT = 1_000
MAX_VALUE_CHARS = 10_000
# Arguments that bound a value rather than set a size: any number goes.
_VALUE_ARGUMENTS = frozenset(
    {
        "min",
        "max",
        "min_value",
        "max_value",
        "step",
        "number",
        "day",
        "month",
        "build_from",
        "build_to",
        "minimum_age",
        "maximum_age",
        "radius",
        "center",
        "precision",
        "hue",
        "chance_of_getting_true",
        "truth_probability",
        "number_system_digit",
    }
)
# Numbers past DynamoDB's 38 digits cannot be stored anyway.
_LARGEST_VALUE = 10**38
_SCALARS = (str, int, float, Decimal, bool, dt.date)


def faker_arguments_problem(provider: str, arguments: Mapping[str, Any]) -> str:
    """What is wrong with calling `provider` with `arguments`, or "" when
    nothing is. Cached: designs repeat the same few providers."""
    try:
        key = tuple(sorted((k, _hashable(v)) for k, v in arguments.items()))
    except TypeError:
        return "the arguments of a Faker provider are numbers, texts or lists"
    return _problem(provider, key)


def value_size_problem(value: Any) -> str:
    """ "" for a value of at most MAX_VALUE_CHARS characters (or bytes, or
    for a list or map, summed over its elements), else why not."""
    size = _size(value)
    if size <= MAX_VALUE_CHARS:
        return ""
    return (
        f"makes values of {size:,} characters; sample values are limited to "
        f"{MAX_VALUE_CHARS:,}"
    )


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, Mapping):
        raise TypeError("a mapping")
    hash(value)
    return value


@functools.lru_cache(maxsize=1024)
def _problem(provider: str, arguments: tuple[tuple[str, Any], ...]) -> str:
    method = getattr(_faker(), provider, None)
    if not callable(method):
        return f"'{provider}' is not a Faker provider"
    given = dict(arguments)
    accepted: Mapping[str, inspect.Parameter]
    try:
        accepted = inspect.signature(method).parameters
    except (TypeError, ValueError):
        accepted = {}
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    for name, value in given.items():
        if name not in accepted and not takes_any:
            names = ", ".join(n for n in accepted if n not in ("args", "kwargs"))
            return f"{provider} takes no argument '{name}'" + (
                f" (it takes {names})" if names else " (it takes none)"
            )
        problem = _argument_problem(name, value)
        if problem:
            return f"{provider}: {problem}"
    try:
        value = method(
            **{k: list(v) if isinstance(v, tuple) else v for k, v in given.items()}
        )
    except Exception as exc:  # any provider error is the design's
        return f"{provider} fails with these arguments: {type(exc).__name__}: {exc}"
    if not _plain(value):
        return f"{provider} makes a {type(value).__name__}, not a text, number or date"
    size = value_size_problem(value)
    return f"{provider} {size}" if size else ""


def _argument_problem(name: str, value: Any) -> str:
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, (int, float, Decimal)):
        if name in _VALUE_ARGUMENTS:
            # abs() of the union is typed object; of each member, a number.
            if abs(value) > _LARGEST_VALUE:  # type: ignore[operator]  # see above
                return f"{name} is past DynamoDB's 38 digits"
            return ""
        if not 0 <= value <= MAX_SIZE_ARGUMENT:
            return f"{name} is a size from 0 to {MAX_SIZE_ARGUMENT:,}, not {value:,}"
        return ""
    if isinstance(value, str):
        if len(value) > MAX_TEXT_ARGUMENT:
            return (
                f"{name} has {len(value):,} characters; at most {MAX_TEXT_ARGUMENT:,}"
            )
        return ""
    if isinstance(value, tuple):
        if len(value) > MAX_TEXT_ARGUMENT:
            return f"{name} has {len(value):,} items; at most {MAX_TEXT_ARGUMENT:,}"
        for item in value:
            if not isinstance(item, (str, int, float)) or isinstance(item, tuple):
                return f"{name} is a list of texts or numbers"
            if isinstance(item, str) and len(item) > MAX_TEXT_ARGUMENT:
                return (
                    f"an item of {name} has more than {MAX_TEXT_ARGUMENT:,} characters"
                )
        return ""
    return f"{name} is a number, a text or a list"


def _plain(value: Any) -> bool:
    if isinstance(value, (list, tuple, set)):
        return all(isinstance(v, _SCALARS) for v in value)
    return isinstance(value, (*_SCALARS, bytes))


def _size(value: Any) -> int:
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, (list, tuple, set)):
        return sum(_size(v) for v in value)
    if isinstance(value, Mapping):
        return sum(len(str(k)) + _size(v) for k, v in value.items())
    return len(str(value))


@functools.cache
def _faker() -> Any:
    fake = faker_class()("en_US")
    fake.seed_instance(0)
    return fake
