"""Fast conversions of whole items between native values and DynamoDB JSON,
for the engine's hot paths (every item a Query returns or a write receives).

They give the same results as `types.item_to_wire` and `types.item_from_wire`
(a test holds them to it) but dispatch on the exact type of each value
instead of testing one type after another, which makes a 100-item Query
response several times cheaper to build. Attribute names read from requests
are interned, so a million stored items share one string per name.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
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
    """DynamoDB JSON of a native item (binary values as bytes, as boto3).

    An item is converted by the converter of its shape (`_shape_code`), the
    last one used tried first."""
    out = _last_converter(item)
    if out is None:
        return _convert_by_shape(item)
    return out


def items_to_wire(items: list[Item]) -> list[dict[str, Any]]:
    """`[item_to_wire(item) for item in items]`, by the list converters of
    the items' shapes (`_shape_code`), the last one used tried first: each
    converts items in its own loop until one of another shape, converted by
    its own converter, whose list converter goes on. The items of a Query
    mostly share a shape, and a call per item costs a twentieth of it."""
    out: list[dict[str, Any]] = []
    rest = iter(items)
    refused = _last_list_converter(rest, out)
    while refused is not None:
        out.append(_convert_by_shape(refused))
        refused = _last_list_converter(rest, out)
    return out


def attributes_to_wire(item: Item) -> dict[str, Any]:
    """`item_to_wire` attribute by attribute, without the converters of
    shapes: for a few attributes (a page's LastEvaluatedKey between its
    items, whose converter stays the last one tried; one attribute of an
    item the endpoint writes) and for items with no converter (no
    attributes, or too many)."""
    out = {}
    for name, value in item.items():
        kind = type(value)
        if kind is str:
            out[name] = {"S": value}
        elif kind is Decimal:
            out[name] = {"N": _number_wire_text(value)}
        else:
            out[name] = _TO_WIRE.get(kind, to_wire)(value)
    return out


def _number_wire_text(value: Decimal) -> str:
    """DynamoDB's text of a number, from `_NUMBER_TEXTS` when it is there."""
    try:
        text = _NUMBER_TEXTS.get(value)
    except TypeError:  # a signalling NaN has no hash
        text = None
    if text is None:
        text = _new_number_text(value)
    return text


def _new_number_text(value: Decimal) -> str:
    """`number_text(value)`, kept in `_NUMBER_TEXTS` while it has room."""
    text = str(value)
    # str() is already DynamoDB's canonical text unless it has an exponent,
    # trailing zeros after the point or a negative zero.
    if "E" in text or ("." in text and text[-1] == "0") or text[:2] == "-0":
        text = number_text(value)
    if len(_NUMBER_TEXTS) < _NUMBER_TEXTS_MAX and not value.is_nan():
        _NUMBER_TEXTS[value] = text
    return text


def _value_to_wire(value: Any) -> dict[str, Any]:
    return _TO_WIRE.get(type(value), to_wire)(value)


# A converter of one shape of item: the types of its values in order (the
# names are the item's own, whatever they are). It answers None for an item
# of another shape. The attributes are converted in one expression that
# builds the whole answer, instead of a loop testing each value's type and
# inserting into a growing dict (a 100-item Query's response was nine tenths
# of its time, and the loop a quarter of that).
Converter = Callable[[Item], dict[str, Any] | None]
# The converter of a list: it converts the items of an iterator into a list
# until an item of another shape, which it answers (None once all are).
ListConverter = Callable[[Iterator[Item], list[dict[str, Any]]], Item | None]
# Converters by the types of the values, emptied past a bound: designs have a
# few shapes per entity, arbitrary items may have many.
_CONVERTERS: dict[tuple[type, ...], tuple[Converter, ListConverter]] = {}
MAX_CONVERTERS = 1024
# Items with more attributes are converted by `attributes_to_wire`.
MAX_SHAPED_ATTRIBUTES = 64
# What the converter holds a value of each type to: its kind (a letter), the
# test that refuses another type, and the expression of its wire value. A
# number's text is found before the answer is built (`_number_lines`).
_KINDS: dict[type, str] = {str: "S", Decimal: "N", bool: "T", type(None): "Z"}
_REFUSALS = {
    "S": "{type}(v{n}) is not {str}",
    "N": "{type}(v{n}) is not {Decimal}",
    "T": "{type}(v{n}) is not bool",
    "Z": "v{n} is not None",
}
_WIRE_VALUES = {
    "S": '{{"S": v{n}}}',
    "N": '{{"N": t{n}}}',
    "T": '{{"BOOL": v{n}}}',
    "Z": '{{"NULL": True}}',
    "O": "value(v{n})",  # any other type: `_TO_WIRE`'s converter of it
}


def _refuse_all(item: Item) -> None:
    return None


def _refuse_all_of(rest: Iterator[Item], out: list[dict[str, Any]]) -> Item | None:
    return next(rest, None)


_last_converter: Converter = _refuse_all
_last_list_converter: ListConverter = _refuse_all_of


def _convert_by_shape(item: Item) -> dict[str, Any]:
    global _last_converter, _last_list_converter
    count = len(item)
    if not count or count > MAX_SHAPED_ATTRIBUTES:
        return attributes_to_wire(item)
    types = tuple(map(type, item.values()))
    converters = _CONVERTERS.get(types)
    if converters is None:
        kinds = "".join([_KINDS.get(kind, "O") for kind in types])
        make = _shape_code(kinds)
        converters = make(_NUMBER_TEXTS.get, _new_number_text, _value_to_wire)
        if len(_CONVERTERS) >= MAX_CONVERTERS:
            _CONVERTERS.clear()
        _CONVERTERS[types] = converters
    convert = converters[0]
    out = convert(item)
    if out is None:  # never: the converter is made for this item's types
        raise AssertionError("an item refused by the converter of its shape")
    _last_converter, _last_list_converter = converters
    return out


@functools.lru_cache(maxsize=256)
def _shape_code(kinds: str) -> Callable[..., tuple[Converter, ListConverter]]:
    """The maker of the converters (of an item, of a list) of items whose
    values have these kinds, one letter each (`_KINDS`, "O" for any other
    type)."""
    count = len(kinds)
    names = "".join(f"k{n}, " for n in range(count))
    values = "".join(f"v{n}, " for n in range(count))

    def refusals(**names: str) -> str:
        tests = [
            _REFUSALS[kind].format(n=n, **names)
            for n, kind in enumerate(kinds)
            if kind in _REFUSALS
        ]
        return " or ".join(tests) or "False"

    numbers = "".join(_number_lines(n) for n, kind in enumerate(kinds) if kind == "N")
    answer = ", ".join(
        f"k{n}: " + _WIRE_VALUES[kind].format(n=n) for n, kind in enumerate(kinds)
    )
    # The list converter's loop reads the types it tests from its locals.
    source = f"""
def make(known_text, new_text, value):
    def convert(item):
        if len(item) != {count}:
            return None
        {values}= item.values()
        if {refusals(type="type", str="str", Decimal="Decimal")}:
            return None{numbers}
        {names}= item
        return {{{answer}}}

    def convert_list(rest, out):
        append = out.append
        type_of, text, number = type, str, Decimal
        for item in rest:
            if len(item) != {count}:
                return item
            {values}= item.values()
            if {refusals(type="type_of", str="text", Decimal="number")}:
                return item{numbers.replace(chr(10), chr(10) + "    ")}
            {names}= item
            append({{{answer}}})
        return None

    return convert, convert_list
"""
    namespace: dict[str, Any] = {"Decimal": Decimal}
    exec(compile(source, f"<converters of {kinds}>", "exec"), namespace)  # noqa: S102 - our own source
    return namespace["make"]


def _number_lines(n: int) -> str:
    """`t{n} = _number_wire_text(v{n})`, written out: a call costs as much as
    finding the text."""
    return f"""
        try:
            t{n} = known_text(v{n})
        except TypeError:  # a signalling NaN has no hash
            t{n} = None
        if t{n} is None:
            t{n} = new_text(v{n})"""


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
