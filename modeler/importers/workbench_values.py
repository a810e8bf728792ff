"""Values in NoSQL Workbench model files, as the design stores them
(DynamoDB JSON): model files write numbers as JSON numbers and map or list
members as plain JSON; both are accepted and normalised."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Any


class BadValue(ValueError):
    pass


def wire_value(value: Any) -> dict[str, Any]:
    """A DynamoDB JSON value as the design stores it, accepting what model
    files hold: numbers as JSON numbers, and map (or list) members written
    as plain JSON instead of DynamoDB JSON."""
    if isinstance(value, dict) and len(value) == 1:
        kind, inner = next(iter(value.items()))
        if kind == "S" and isinstance(inner, str):
            return {"S": inner}
        if (
            kind == "N"
            and isinstance(inner, (str, int, Decimal))
            and not isinstance(inner, bool)
        ):
            return {"N": _number_text(inner)}
        if kind == "B" and isinstance(inner, str):
            return {"B": inner}
        if kind == "BOOL" and isinstance(inner, bool):
            return {"BOOL": inner}
        if kind == "NULL":
            return {"NULL": True}
        if kind in ("SS", "BS") and isinstance(inner, list):
            return {kind: [str(v) for v in inner]}
        if kind == "NS" and isinstance(inner, list):
            return {"NS": [_number_text(v) for v in inner]}
        if kind == "L" and isinstance(inner, list):
            return {"L": [_member(v) for v in inner]}
        if kind == "M" and isinstance(inner, dict):
            return {"M": {str(k): _member(v) for k, v in inner.items()}}
    raise BadValue(f"not a DynamoDB JSON value: {json.dumps(value, default=str)[:80]}")


def _member(value: Any) -> dict[str, Any]:
    try:
        return wire_value(value)
    except BadValue:
        return _plain(value)


def _plain(value: Any) -> dict[str, Any]:
    """Plain JSON as DynamoDB JSON."""
    if isinstance(value, bool):
        return {"BOOL": value}
    if value is None:
        return {"NULL": True}
    if isinstance(value, (int, Decimal)):
        return {"N": _number_text(value)}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, list):
        return {"L": [_plain(v) for v in value]}
    if isinstance(value, dict):
        return {"M": {str(k): _plain(v) for k, v in value.items()}}
    raise BadValue(f"not a JSON value: {value!r}")


def _number_text(value: Any) -> str:
    if isinstance(value, bool):
        raise BadValue(f"not a number: {value!r}")
    text = str(value).strip()
    try:
        Decimal(text)
    except InvalidOperation:
        raise BadValue(f"not a number: {text!r}") from None
    return text


def is_number(text: str) -> bool:
    try:
        Decimal(text)
    except InvalidOperation:
        return False
    return True
