"""How expressions compare and measure native values.

DynamoDB compares only values of the same type: `=` is false (and `<>`
true) between a string and a number, and `<`, `<=`, `>`, `>=`, BETWEEN order
only S, N and B values, each with the other of its own type (S by code point,
which is UTF-8 byte order; N numerically; B by unsigned bytes). Python would
happily call `True == Decimal(1)` or `[1] == [True]`, so equality here checks
the DynamoDB type first, all the way down lists and maps.
"""

from __future__ import annotations

import base64
from decimal import Decimal
from typing import Any

from modeler.engine.expressions.paths import MISSING
from modeler.engine.types import number_text, type_of

ORDERED_TYPES = frozenset({"S", "N", "B"})
SET_MEMBER_TYPES = {"SS": "S", "NS": "N", "BS": "B"}


def values_equal(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return False
    kind = type_of(a)
    if kind != type_of(b):
        return False
    if kind == "L":
        return len(a) == len(b) and all(map(values_equal, a, b))
    if kind == "M":
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    if kind == "B":
        return bytes(a) == bytes(b)
    return a == b


def compare(a: Any, b: Any) -> int | None:
    """-1, 0 or 1 when `a` and `b` are both S, both N or both B; None when
    they cannot be ordered against each other."""
    if a is MISSING or b is MISSING:
        return None
    kind = type_of(a)
    if kind not in ORDERED_TYPES or kind != type_of(b):
        return None
    if kind == "B":
        a, b = bytes(a), bytes(b)
    return (a > b) - (a < b)


def size(value: Any) -> Any:
    """The size() function: characters of a string, bytes of a binary,
    elements of a set, list or map; MISSING for other types (the comparison
    it feeds is then false). A string's length counts UTF-16 code units, as
    DynamoDB's (Java) implementation does: a character outside the Basic
    Multilingual Plane, such as an emoji, counts 2."""
    if value is MISSING:
        return MISSING
    kind = type_of(value)
    if kind == "S":
        return Decimal(len(value.encode("utf-16-le")) // 2)
    if kind in ("N", "BOOL", "NULL"):
        return MISSING
    return Decimal(len(value))


def begins_with(value: Any, prefix: Any) -> bool:
    if value is MISSING or prefix is MISSING:
        return False
    kind = type_of(value)
    if kind not in ("S", "B") or kind != type_of(prefix):
        return False
    if kind == "B":
        return bytes(value).startswith(bytes(prefix))
    return value.startswith(prefix)


def contains(value: Any, operand: Any) -> bool:
    """A substring of a string (or binary), a member of a set, an element of
    a list."""
    if value is MISSING or operand is MISSING:
        return False
    kind = type_of(value)
    operand_kind = type_of(operand)
    if kind in ("S", "B"):
        if operand_kind != kind:
            return False
        if kind == "B":
            return bytes(operand) in bytes(value)
        return operand in value
    if kind == "L":
        return any(values_equal(element, operand) for element in value)
    if SET_MEMBER_TYPES.get(kind) == operand_kind:
        return operand in value
    return False


def describe(value: Any) -> str:
    """A value as DynamoDB shows it in messages: `{S:abc}`, `{N:12.5}`."""
    kind = type_of(value)
    if kind == "S":
        text = value
    elif kind == "N":
        text = number_text(Decimal(value))
    elif kind == "B":
        text = base64.b64encode(bytes(value)).decode()
    else:
        text = str(value)
    return f"{{{kind}:{text}}}"
