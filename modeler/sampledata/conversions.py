"""Generated values converted to the attribute's declared DynamoDB type
(text, number, binary, boolean, list, map, sets), and a generator's dates
and times read from the design."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from modeler.engine.types import BinarySet, NumberSet, StringSet
from modeler.sampledata.errors import SampleDataError

# What a converter returns for a value DynamoDB cannot store (an empty set):
# the attribute is left out of the item.
OMIT = object()


def _to_text(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value, "f")
    if value is None or isinstance(value, (list, dict)):
        raise SampleDataError(
            f"{where}: the generator makes {type(value).__name__} values, not text (S)"
        )
    return str(value)


def _to_number(value: Any, where: str) -> Decimal:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(str(value))
    try:
        return Decimal(str(value).strip())
    except ArithmeticError:
        raise SampleDataError(
            f"{where}: the generator made {value!r}, not a number (N)"
        ) from None


def _to_bytes(value: Any, where: str) -> bytes:
    if isinstance(value, bytes):
        return value
    return _to_text(value, where).encode()


def _to_bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise SampleDataError(f"{where}: the generator made {value!r}, not a boolean")


def _to_list(value: Any, where: str) -> list:
    return list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]


def _to_map(value: Any, where: str) -> dict:
    if isinstance(value, dict):
        return value
    raise SampleDataError(f"{where}: the generator made {value!r}, not a map (M)")


def _set_of(kind: type, member: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def convert(value: Any, where: str) -> Any:
        members = [member(v, where) for v in _to_list(value, where)]
        # DynamoDB has no empty sets: an empty draw leaves the attribute out.
        return kind(members) if members else OMIT

    return convert


# The Python type of values that need no conversion, by attribute type.
NATIVE_TYPES: dict[str, type] = {
    "S": str,
    "N": Decimal,
    "B": bytes,
    "BOOL": bool,
    "L": list,
    "M": dict,
}
CONVERTERS: dict[str, Callable[[Any, str], Any]] = {
    "S": _to_text,
    "N": _to_number,
    "B": _to_bytes,
    "BOOL": _to_bool,
    "NULL": lambda value, where: None,
    "L": _to_list,
    "M": _to_map,
    "SS": _set_of(StringSet, _to_text),
    "NS": _set_of(NumberSet, _to_number),
    "BS": _set_of(BinarySet, _to_bytes),
}


def to_day(value: Any, where: str) -> dt.date:
    return to_moment(value, where).date()


def to_moment(value: Any, where: str) -> dt.datetime:
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            raise SampleDataError(
                f"{where}: expected an ISO-8601 date or time, found {value!r}"
            ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC)
