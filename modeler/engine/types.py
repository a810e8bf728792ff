"""DynamoDB values as Python values, and the conversions to and from the
wire format ("DynamoDB JSON": `{"S": "text"}`, `{"N": "12.5"}`...).

Inside the engine and the sample data, an item is a plain dict of native
values, one Python type per DynamoDB type, so that a million items fit in
memory and comparisons are fast:

| DynamoDB | Python                         |
| -------- | ------------------------------ |
| S        | str                            |
| N        | decimal.Decimal                |
| B        | bytes                          |
| BOOL     | bool                           |
| NULL     | None                           |
| L        | list                           |
| M        | dict                           |
| SS/NS/BS | StringSet / NumberSet / BinarySet (frozensets) |

Python's str ordering compares code points, which is the same order as
comparing UTF-8 bytes for every valid Unicode string, the order DynamoDB
sorts S keys by.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from json.encoder import encode_basestring
from operator import call
from typing import Any

from modeler.engine.errors import ValidationException

Item = dict[str, Any]


class StringSet(frozenset):
    __slots__ = ()


class NumberSet(frozenset):
    __slots__ = ()


class BinarySet(frozenset):
    __slots__ = ()


SET_TYPES: dict[type, str] = {StringSet: "SS", NumberSet: "NS", BinarySet: "BS"}
_SET_CLASSES = {"SS": StringSet, "NS": NumberSet, "BS": BinarySet}

# DynamoDB numbers: up to 38 significant digits, magnitude 1E-130 to 9.99E+125.
MAX_NUMBER_DIGITS = 38
MAX_NUMBER_EXPONENT = 125
MIN_NUMBER_EXPONENT = -130
_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def type_of(value: Any) -> str:
    """The DynamoDB type name of a native value."""
    if isinstance(value, str):
        return "S"
    if isinstance(value, bool):
        return "BOOL"
    if isinstance(value, Decimal):
        return "N"
    if isinstance(value, (bytes, bytearray)):
        return "B"
    if value is None:
        return "NULL"
    if isinstance(value, list):
        return "L"
    if isinstance(value, dict):
        return "M"
    set_type = SET_TYPES.get(type(value))
    if set_type:
        return set_type
    if isinstance(value, (int, float)):
        return "N"
    raise TypeError(f"not a DynamoDB value: {value!r}")


def number(text: str | int | float | Decimal) -> Decimal:
    """A DynamoDB number from its text, checked as DynamoDB checks it.

    Leading and trailing zeros are not significant digits: `1` followed by
    38 zeros is one significant digit, and a number written out in full
    (9.99...E+125 as 126 digits) reads back. The range is checked before the
    precision, so `1e99999999999` is an overflow. `number_text` gives the
    text DynamoDB returns."""
    if type(text) is str and len(text) <= MAX_NUMBER_DIGITS and text.isascii():
        # The common case, cheaply: plain digits with an optional sign and
        # point, too short to exceed 38 digits or the range.
        body = text[1:] if text[:1] == "-" else text
        if body.replace(".", "", 1).isdigit():
            return Decimal(text)
    if isinstance(text, Decimal):
        value = text
    else:
        source = str(text)
        if isinstance(text, str) and not _NUMBER_TEXT.fullmatch(source):
            raise ValidationException(
                f"The parameter cannot be converted to a numeric value: {text}"
            )
        try:
            value = Decimal(source)
        except InvalidOperation:
            raise ValidationException(
                f"The parameter cannot be converted to a numeric value: {text}"
            ) from None
    if not value.is_finite():
        raise ValidationException(
            f"The parameter cannot be converted to a numeric value: {text}"
        )
    _sign, digits, places = value.as_tuple()
    # A finite number's exponent is an int ('n', 'N' and 'F' are NaN and
    # infinity's, refused above).
    exponent: int = places  # type: ignore[assignment]
    if not any(digits):
        return value
    trailing = len(digits) - len(bytes(digits).rstrip(b"\0"))
    if trailing:
        digits = digits[: len(digits) - trailing]
        exponent += trailing
    magnitude = exponent + len(digits) - 1
    if magnitude > MAX_NUMBER_EXPONENT:
        raise ValidationException(
            "Number overflow. Attempting to store a number with magnitude larger "
            "than supported range"
        )
    if magnitude < MIN_NUMBER_EXPONENT:
        raise ValidationException(
            "Number underflow. Attempting to store a number with magnitude "
            "smaller than supported range"
        )
    if len(digits) > MAX_NUMBER_DIGITS:
        raise ValidationException(
            "Attempting to store more than 38 significant digits in a Number"
        )
    return value


def number_text(value: Decimal) -> str:
    """The canonical text DynamoDB returns for a number: no exponent, no
    trailing zeros after the point ("1.50" -> "1.5", "1E+2" -> "100")."""
    if value == 0:
        return "0"
    # Not value.normalize(): it rounds to the context's 28 digits, and
    # DynamoDB numbers have up to 38.
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def from_wire(value: Any) -> Any:
    """A native value from DynamoDB JSON (`{"S": "x"}` -> "x")."""
    if not isinstance(value, dict) or len(value) != 1:
        raise ValidationException(
            "Supplied AttributeValue is empty, must contain exactly one of the "
            "supported datatypes"
        )
    ((kind, data),) = value.items()
    if kind == "S":
        if not isinstance(data, str):
            raise ValidationException("Invalid attribute value type for S")
        return data
    if kind == "N":
        if not isinstance(data, str):
            raise ValidationException("Invalid attribute value type for N")
        return number(data)
    if kind == "B":
        return _binary(data)
    if kind == "BOOL":
        if not isinstance(data, bool):
            raise ValidationException("Invalid attribute value type for BOOL")
        return data
    if kind == "NULL":
        if data is not True:
            raise ValidationException(
                "One or more parameter values were invalid: Null attribute value "
                "types must have the value of true"
            )
        return None
    if kind == "L":
        if not isinstance(data, list):
            raise ValidationException("Invalid attribute value type for L")
        return [from_wire(v) for v in data]
    if kind == "M":
        if not isinstance(data, dict):
            raise ValidationException("Invalid attribute value type for M")
        return {str(k): from_wire(v) for k, v in data.items()}
    if kind in _SET_CLASSES:
        if not isinstance(data, list) or not data:
            # DynamoDB's own wordings, double space included; a binary set
            # has a sentence of its own.
            empty = {
                "SS": "An string set  may not be empty",
                "NS": "An number set  may not be empty",
                "BS": "Binary sets should not be empty",
            }[kind]
            raise ValidationException(
                f"One or more parameter values were invalid: {empty}"
            )
        convert = {"SS": _set_string, "NS": number, "BS": _binary}[kind]
        members = [convert(v) for v in data]
        if len(set(members)) != len(members):
            # DynamoDB prints the collection as Java does: [a, a].
            shown = ", ".join(
                base64.b64encode(v).decode() if isinstance(v, bytes) else str(v)
                for v in data
            )
            raise ValidationException(
                "One or more parameter values were invalid: Input collection "
                f"[{shown}] contains duplicates."
            )
        return _SET_CLASSES[kind](members)
    raise ValidationException(
        f"Supplied AttributeValue has an unknown datatype: {kind}"
    )


def _set_string(data: Any) -> str:
    if not isinstance(data, str):
        raise ValidationException("Invalid attribute value type for SS")
    return data


def _binary(data: Any) -> bytes:
    """Binary values arrive as bytes from boto3 and as base64 text in JSON."""
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    if isinstance(data, str):
        try:
            return base64.b64decode(data, validate=True)
        except binascii.Error:
            raise ValidationException("Invalid Binary value: not base64") from None
    raise ValidationException("Invalid attribute value type for B")


def to_wire(value: Any) -> dict[str, Any]:
    """DynamoDB JSON for a native value, as boto3's client returns it
    (binary values as bytes)."""
    kind = type_of(value)
    if kind == "S":
        return {"S": value}
    if kind == "N":
        return {
            "N": number_text(
                Decimal(value) if not isinstance(value, Decimal) else value
            )
        }
    if kind == "B":
        return {"B": bytes(value)}
    if kind == "BOOL":
        return {"BOOL": value}
    if kind == "NULL":
        return {"NULL": True}
    if kind == "L":
        return {"L": [to_wire(v) for v in value]}
    if kind == "M":
        return {"M": {k: to_wire(v) for k, v in value.items()}}
    if kind == "NS":
        return {"NS": sorted(number_text(v) for v in value)}
    if kind == "BS":
        return {"BS": sorted(value)}
    return {kind: sorted(value)}


def item_from_wire(item: Any) -> Item:
    if not isinstance(item, dict):
        raise ValidationException("Item must be a map of attribute names to values")
    return {str(k): from_wire(v) for k, v in item.items()}


def item_to_wire(item: Item) -> dict[str, Any]:
    return {k: to_wire(v) for k, v in item.items()}


def item_read_back(item: Item) -> Item:
    """`item_from_wire(item_to_wire(item))`, what a reader of the engine's
    answer in DynamoDB JSON has once it converts it back (numbers in their
    canonical text: 1.50 is read back as 1.5; lists, maps and sets copies),
    without the JSON: a string, most values, is the same either way and
    kept. For the engine's own readers (`Client.read_items`)."""
    return {
        name: value if type(value) is str else from_wire(to_wire(value))
        for name, value in item.items()
    }


def to_json_wire(value: Any) -> dict[str, Any]:
    """Like `to_wire` but with binary values as base64 text, for JSON files
    (DynamoDB JSON lines, the AWS CLI)."""
    wire = to_wire(value)
    return binaries_as_base64(wire)


def binaries_as_base64(wire: Any) -> Any:
    """Wire values (or requests holding them) with every B value and BS
    member as base64 text, as JSON and the AWS CLI take them."""
    if isinstance(wire, dict):
        return {
            k: (
                base64.b64encode(v).decode()
                if isinstance(v, bytes)
                else [base64.b64encode(b).decode() for b in v]
                if k == "BS" and isinstance(v, list)
                else binaries_as_base64(v)
            )
            for k, v in wire.items()
        }
    if isinstance(wire, list):
        return [binaries_as_base64(v) for v in wire]
    return wire


def item_to_json_wire(item: Item) -> dict[str, Any]:
    return {k: to_json_wire(v) for k, v in item.items()}


def item_json_line(item: Item) -> str:
    """`json.dumps(item_to_json_wire(item), ensure_ascii=False,
    separators=(",", ":"))`, the same text, written in one pass from the
    item's shape: the names of its attributes and the types of their values.
    Items of one entity share a few shapes, so each shape's text around the
    values is made once (`_line_shape`) and an item's line is that text
    filled in by one `%`, its strings escaped by the C encoder in one `map`.
    A file of a million items spent two thirds of its time building wire
    dicts only to serialise them, and half of the rest on a call and a
    concatenation per attribute."""
    values, names = tuple(item.values()), tuple(item)
    shape = _NAMED_SHAPES.get(names)
    if shape is not None:
        # The shape of the last item with these names, whose writers refuse
        # (TypeError) a value of another type than they were made for: the
        # items of an entity have one type per name, and their types need
        # not be read (an eighth of the time of a line item's line).
        try:
            return shape[0] % tuple(map(call, shape[1], values))
        except TypeError:
            pass
    key = (names, tuple(map(type, values)))
    typed = _LINE_SHAPES.get(key)
    if typed is None:
        typed = _line_shape(key)
    if len(_NAMED_SHAPES) >= MAX_LINE_SHAPES:
        _NAMED_SHAPES.clear()
    _NAMED_SHAPES[names] = typed[0], typed[2]
    return typed[0] % tuple(map(call, typed[1], values))


# An item's shape -> the text of its line with a `%s` per value, and the
# function writing each value. Designs have a few shapes per entity; a file
# of arbitrary items could have many, so the table is emptied past a bound.
_LINE_SHAPES: dict[tuple[tuple[str, ...], tuple[type, ...]], Any] = {}
MAX_LINE_SHAPES = 4096
# An item's names -> the text of the last line of items with these names,
# and writers refusing a value of another type than that item's.
_NAMED_SHAPES: dict[tuple[str, ...], tuple[str, tuple[Callable[[Any], str], ...]]] = {}


def _line_shape(
    key: tuple[tuple[str, ...], tuple[type, ...]],
) -> tuple[str, tuple[Callable[[Any], str], ...], tuple[Callable[[Any], str], ...]]:
    """The text of the line with a `%s` per value, the writers of the
    values, and writers of them that refuse another type (TypeError):
    the C encoder refuses all but text; numbers are checked."""
    parts: list[str] = []
    writers: list[Callable[[Any], str]] = []
    strict: list[Callable[[Any], str]] = []
    for name, kind in zip(*key, strict=True):
        head = encode_basestring(name).replace("%", "%%") + ":"
        if kind is str:
            parts.append(head + '{"S":%s}')
            writers.append(encode_basestring)
            strict.append(encode_basestring)
        elif kind is Decimal:
            parts.append(head + '{"N":"%s"}')
            writers.append(_number_json_text)
            strict.append(_decimal_json_text)
        else:
            parts.append(head + "%s")
            writers.append(_json_value)
            strict.append(_json_value)
    shape = "{" + ",".join(parts) + "}", tuple(writers), tuple(strict)
    if len(_LINE_SHAPES) >= MAX_LINE_SHAPES:
        _LINE_SHAPES.clear()
    _LINE_SHAPES[key] = shape
    return shape


def _number_json_text(value: Decimal) -> str:
    """`number_text(value)`: Decimal's own text when it is already the
    canonical one (no exponent, no trailing zero after the point, not
    zero), as most numbers of sample data are."""
    text = str(value)
    if "E" in text or ("." in text and text[-1] == "0") or not value:
        return number_text(value)
    return text


def _decimal_json_text(value: Any) -> str:
    """`_number_json_text` of a Decimal, TypeError for any other value (a
    bool or an int, equal to a number, is not written as one here)."""
    if type(value) is not Decimal:
        raise TypeError("not a Decimal")
    # `_number_json_text`, written out: one call less for every number.
    text = str(value)
    if "E" in text or ("." in text and text[-1] == "0") or not value:
        return number_text(value)
    return text


def _json_value(value: Any) -> str:
    write = _JSON_WRITERS.get(type(value))
    if write is None:
        # A subclass (or an int or float's cousin): the slower, general way.
        return _JSON_WRITERS[_CANONICAL_TYPES[type_of(value)]](value)
    return write(value)


def _json_number(value: Any) -> str:
    return (
        '{"N":"'
        + number_text(value if isinstance(value, Decimal) else Decimal(value))
        + '"}'
    )


def _base64(value: bytes) -> str:
    return base64.b64encode(value).decode()


_JSON_WRITERS: dict[type, Callable[[Any], str]] = {
    str: lambda v: '{"S":' + encode_basestring(v) + "}",
    Decimal: _json_number,
    int: _json_number,
    float: _json_number,
    bool: lambda v: '{"BOOL":true}' if v else '{"BOOL":false}',
    type(None): lambda v: '{"NULL":true}',
    bytes: lambda v: '{"B":"' + _base64(v) + '"}',
    bytearray: lambda v: '{"B":"' + _base64(bytes(v)) + '"}',
    list: lambda v: '{"L":[' + ",".join(_json_value(x) for x in v) + "]}",
    dict: lambda v: '{"M":' + item_json_line(v) + "}",
    StringSet: lambda v: (
        '{"SS":[' + ",".join(encode_basestring(x) for x in sorted(v)) + "]}"
    ),
    NumberSet: lambda v: (
        '{"NS":[' + ",".join(f'"{t}"' for t in sorted(number_text(x) for x in v)) + "]}"
    ),
    BinarySet: lambda v: (
        '{"BS":[' + ",".join(f'"{_base64(x)}"' for x in sorted(v)) + "]}"
    ),
}
# The type whose writer serves each DynamoDB type, for subclasses.
_CANONICAL_TYPES = {
    "S": str,
    "N": Decimal,
    "B": bytes,
    "BOOL": bool,
    "NULL": type(None),
    "L": list,
    "M": dict,
    "SS": StringSet,
    "NS": NumberSet,
    "BS": BinarySet,
}
