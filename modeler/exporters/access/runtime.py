"""The part of every generated module that does not depend on the design:
the client protocol, the errors, DynamoDB JSON both ways, key text, sparse
conditions and pages. Kept as source text (checked by ruff and mypy
--strict with every module the tests generate)."""

from __future__ import annotations

IMPORTS = """from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Generic, Protocol, TypeVar
"""

HELPERS = '''
Number = Decimal | int
T = TypeVar("T")


class DynamoDBClient(Protocol):
    """What this module uses of boto3's client: boto3.client("dynamodb")."""

    def get_item(self, **request: Any) -> dict[str, Any]: ...
    def put_item(self, **request: Any) -> dict[str, Any]: ...
    def update_item(self, **request: Any) -> dict[str, Any]: ...
    def delete_item(self, **request: Any) -> dict[str, Any]: ...
    def query(self, **request: Any) -> dict[str, Any]: ...
    def scan(self, **request: Any) -> dict[str, Any]: ...
    def batch_write_item(self, **request: Any) -> dict[str, Any]: ...
    def transact_write_items(self, **request: Any) -> dict[str, Any]: ...


class DataAccessError(Exception):
    """A request DynamoDB refused; `code` is its error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class ConditionFailed(DataAccessError):
    """The write's condition did not hold: nothing was written."""


class TransactionCanceled(DataAccessError):
    """The transaction wrote nothing; `reasons` has one code per action
    ("None" for an action that was not the cause)."""

    def __init__(self, code: str, message: str, reasons: list[str]) -> None:
        super().__init__(code, message)
        self.reasons = reasons

    @property
    def condition_failed(self) -> bool:
        """Whether an action's condition did not hold."""
        return "ConditionalCheckFailed" in self.reasons


class UnrecognisedItem(Exception):
    """An item returned that no entity's keys describe, or of an entity
    the pattern does not return."""

    def __init__(self, item: Mapping[str, Any]) -> None:
        super().__init__(f"no entity of the pattern has these keys: {item!r}")
        self.item = dict(item)


class MalformedItem(Exception):
    """An item with an entity's keys that lacks attributes the entity
    requires (written by other code, or before the design required them);
    `missing` names them, `key` is the item's table key."""

    def __init__(
        self,
        entity: str,
        missing: Sequence[str],
        key: Mapping[str, Any],
        item: Mapping[str, Any],
    ) -> None:
        super().__init__(
            f"the {entity} item with key {dict(key)!r} lacks "
            f"{', '.join(missing)}, which the design requires"
        )
        self.entity = entity
        self.missing = list(missing)
        self.key = dict(key)
        self.item = dict(item)


def _complete(
    item: Mapping[str, Any],
    entity: str,
    keys: Mapping[str, object],
    required: Sequence[str],
) -> None:
    """Refuse an item of the entity that lacks an attribute it requires
    (`keys`: the entity's table key patterns, named by key attribute)."""
    missing = [name for name in required if name not in item]
    if missing:
        key = {name: item[name] for name in keys if name in item}
        raise MalformedItem(entity, missing, key, item)


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a Query or Scan: its items, and the key to pass as
    start_key for the next page (None after the last)."""

    items: list[T]
    last_evaluated_key: dict[str, Any] | None = None


def _send(
    operation: Callable[..., dict[str, Any]], request: dict[str, Any]
) -> dict[str, Any]:
    """The response, or the error as one of this module's exceptions."""
    try:
        return operation(**request)
    except Exception as exc:
        response = getattr(exc, "response", None)
        if not isinstance(response, dict):
            raise
        error = response.get("Error") or {}
        code = str(error.get("Code", ""))
        message = str(error.get("Message", ""))
        if code == "ConditionalCheckFailedException":
            raise ConditionFailed(code, message) from exc
        if code == "TransactionCanceledException":
            reasons = [
                str(reason.get("Code", "None"))
                for reason in response.get("CancellationReasons") or []
            ]
            raise TransactionCanceled(code, message, reasons) from exc
        raise


def _number_text(value: Number) -> str:
    """A number as DynamoDB writes it: no exponent, no trailing zeros."""
    text = format(Decimal(value), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _to_attribute(value: Any) -> dict[str, Any]:
    """A Python value as DynamoDB JSON ({"S": "text"}, {"N": "12.5"}...)."""
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, (int, Decimal)):
        return {"N": _number_text(value)}
    if isinstance(value, (bytes, bytearray)):
        return {"B": bytes(value)}
    if value is None:
        return {"NULL": True}
    if isinstance(value, Mapping):
        return {"M": {str(k): _to_attribute(v) for k, v in value.items()}}
    if isinstance(value, (set, frozenset)):
        members = list(value)
        if all(isinstance(m, str) for m in members):
            return {"SS": sorted(members)}
        if all(isinstance(m, (bytes, bytearray)) for m in members):
            return {"BS": sorted(bytes(m) for m in members)}
        return {"NS": sorted(_number_text(m) for m in members)}
    if isinstance(value, (list, tuple)):
        return {"L": [_to_attribute(v) for v in value]}
    raise TypeError(f"not a DynamoDB value: {value!r}")


def _from_attribute(value: Mapping[str, Any]) -> Any:
    """The Python value of DynamoDB JSON: numbers as Decimal, sets as set."""
    ((kind, data),) = value.items()
    if kind in ("S", "BOOL"):
        return data
    if kind == "N":
        return Decimal(data)
    if kind == "B":
        return bytes(data)
    if kind == "NULL":
        return None
    if kind == "L":
        return [_from_attribute(v) for v in data]
    if kind == "M":
        return {k: _from_attribute(v) for k, v in data.items()}
    if kind == "SS":
        return set(data)
    if kind == "NS":
        return {Decimal(m) for m in data}
    if kind == "BS":
        return {bytes(m) for m in data}
    raise TypeError(f"not DynamoDB JSON: {value!r}")


def _to_wire(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _to_attribute(value) for name, value in values.items()}


def _from_wire(item: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _from_attribute(value) for name, value in item.items()}


def _text(value: str | Number | bool) -> str:
    """A value as a string key places it."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return _number_text(value)


def _required(value: T | None, attribute: str) -> T:
    """A value a table key needs: no item can lack it."""
    if value is None:
        raise ValueError(f"{attribute} is part of the table key: it needs a value")
    return value


def _padded(value: Number, spec: str) -> str:
    """A number zero-padded as a key template's 0Nd or 0N.Mf writes it."""
    number = Decimal(value)
    if spec.endswith("f"):
        return format(number, spec)
    if number != number.to_integral_value():
        raise ValueError(f"{value!r} is not a whole number, which {spec} needs")
    return format(int(number), spec)


def _compares(actual: object, operator: str, *values: str | Decimal) -> bool:
    """A sparse-index condition's comparison, as the design evaluates it:
    a missing value equals nothing, numbers compare as numbers, text by
    its UTF-8 bytes."""
    if actual is None:
        return operator == "!="
    outcomes: list[int | None] = []
    for expected in values:
        if isinstance(expected, Decimal):
            if isinstance(actual, bool) or not isinstance(actual, (int, Decimal)):
                outcomes.append(None)
                continue
            number = Decimal(actual)
            outcomes.append((number > expected) - (number < expected))
        else:
            text = _text(actual) if isinstance(actual, (str, int, Decimal)) else ""
            left, right = text.encode(), expected.encode()
            outcomes.append((left > right) - (left < right))
    if operator == "in":
        return 0 in outcomes
    order = outcomes[0]
    if order is None:
        return operator == "!="
    return {
        "=": order == 0,
        "!=": order != 0,
        "<": order < 0,
        "<=": order <= 0,
        ">": order > 0,
        ">=": order >= 0,
    }[operator]


KeyValues = list[tuple[str, re.Pattern[str], list[tuple[str, str]]]]


def _from_keys(item: Mapping[str, Any], templates: KeyValues) -> dict[str, Any]:
    """The attribute values an item's keys were rendered from (a
    projection that leaves the attributes out still has its keys)."""
    values: dict[str, Any] = {}
    for key, pattern, attributes in templates:
        value = item.get(key)
        match = pattern.fullmatch(value) if isinstance(value, str) else None
        if match is None:
            continue
        for text, (attribute, kind) in zip(match.groups(), attributes, strict=True):
            values.setdefault(attribute, Decimal(text) if kind == "N" else text)
    return values


def _matches(
    item: Mapping[str, Any], patterns: Mapping[str, re.Pattern[str] | None]
) -> bool:
    """Whether the item's keys are ones these templates write (None: a
    number or binary key, any value)."""
    for name, pattern in patterns.items():
        value = item.get(name)
        if value is None:
            return False
        if pattern is not None and (
            not isinstance(value, str) or pattern.fullmatch(value) is None
        ):
            return False
    return True
'''
