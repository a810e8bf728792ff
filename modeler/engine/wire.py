"""Fast conversions of whole items between native values and DynamoDB JSON,
for the engine's hot paths (every item a Query returns or a write receives).

They give the same results as `types.item_to_wire` and `types.item_from_wire`
(a test holds them to it) but dispatch on the exact type of each value
instead of testing one type after another, which makes a 100-item Query
response several times cheaper to build. Attribute names read from requests
are interned, so a million stored items share one string per name.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from modeler.engine.errors import ValidationException
from modeler.engine.types import (
    BinarySet,
    Item,
    NumberSet,
    StringSet,
    from_wire,
    number,
    number_text,
    to_wire,
)

_intern = sys.intern


def _string(value: str) -> dict[str, Any]:
    return {"S": value}


def _number(value: Decimal) -> dict[str, Any]:
    text = str(value)
    # str() is already DynamoDB's canonical text unless it has an exponent,
    # trailing zeros after the point or a negative zero.
    if "E" in text or ("." in text and text[-1] == "0") or text[:2] == "-0":
        return {"N": number_text(value)}
    return {"N": text}


def _binary(value: bytes) -> dict[str, Any]:
    return {"B": bytes(value)}


def _bool(value: bool) -> dict[str, Any]:
    return {"BOOL": value}


def _null(value: None) -> dict[str, Any]:
    return {"NULL": True}


def _list(value: list) -> dict[str, Any]:
    return {"L": [_TO_WIRE.get(type(v), to_wire)(v) for v in value]}


def _map(value: dict) -> dict[str, Any]:
    return {"M": {k: _TO_WIRE.get(type(v), to_wire)(v) for k, v in value.items()}}


_TO_WIRE: dict[type, Callable[[Any], dict[str, Any]]] = {
    str: _string,
    Decimal: _number,
    bytes: _binary,
    bool: _bool,
    type(None): _null,
    list: _list,
    dict: _map,
    StringSet: to_wire,
    NumberSet: to_wire,
    BinarySet: to_wire,
}


# The canonical texts of numbers already written, by value: DynamoDB's text
# of a number depends on its value alone (1.50, 1.5 and 15E-1 all answer
# "1.5"), and a Decimal keeps its hash once computed, so finding the text
# costs less than str() and its checks, and reads less of a stored number
# (a GSI Query's items lie far apart in memory). The first values written
# stay, up to a bound, so that it stays small: unique numbers such as
# timestamps are not kept.
_NUMBER_TEXTS: dict[Decimal, str] = {}
_NUMBER_TEXTS_MAX = 1 << 14


def item_to_wire(item: Item) -> dict[str, Any]:
    """DynamoDB JSON of a native item (binary values as bytes, as boto3)."""
    out = {}
    texts = _NUMBER_TEXTS
    for name, value in item.items():
        kind = type(value)
        if kind is str:
            out[name] = {"S": value}
        elif kind is Decimal:
            # _number, inlined: a call costs as much as the conversion.
            try:
                text = texts.get(value)
            except TypeError:  # a signalling NaN has no hash
                text = None
            if text is None:
                text = str(value)
                # str() is already DynamoDB's canonical text unless it has an
                # exponent, trailing zeros after the point or a negative zero.
                if "E" in text or ("." in text and text[-1] == "0") or text[:2] == "-0":
                    text = number_text(value)
                if len(texts) < _NUMBER_TEXTS_MAX and not value.is_nan():
                    texts[value] = text
            out[name] = {"N": text}
        else:
            out[name] = _TO_WIRE.get(kind, to_wire)(value)
    return out


def item_from_wire(item: Any) -> Item:
    """A native item from DynamoDB JSON, with interned attribute names."""
    if not isinstance(item, dict):
        raise ValidationException("Item must be a map of attribute names to values")
    out: Item = {}
    for name, value in item.items():
        if type(value) is dict and len(value) == 1:
            # Strings and numbers, nearly every value, without from_wire's
            # tests of every other type.
            text = value.get("S")
            if type(text) is str:
                out[_intern(name)] = text
                continue
            text = value.get("N")
            if type(text) is str:
                out[_intern(str(name))] = number(text)
                continue
        out[_intern(str(name))] = from_wire(value)
    return out
