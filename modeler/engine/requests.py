"""Checking a request's parameters and parsing its expressions, as DynamoDB
does before it touches any item.

Every operation lists the parameters it accepts; any other is refused. The
legacy parameters that expressions replaced (AttributesToGet, KeyConditions,
QueryFilter, ScanFilter, Expected, AttributeUpdates, ConditionalOperator)
have been rewritten as expressions before (`modeler.engine.legacy`).

`Expressions` parses all the expressions of one request against its
ExpressionAttributeNames and ExpressionAttributeValues and then refuses the
names and values that none of them used, as DynamoDB does.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from modeler.engine.constraints import at_least
from modeler.engine.errors import ValidationException
from modeler.engine.expressions import (
    Condition,
    KeyCondition,
    Projection,
    Update,
    parse_condition,
    parse_key_condition,
    parse_projection,
    parse_update,
)
from modeler.engine.types import from_wire

RETURN_CONSUMED_CAPACITY = ("INDEXES", "TOTAL", "NONE")
RETURN_ITEM_COLLECTION_METRICS = ("SIZE", "NONE")


def check_parameters(
    request: Any,
    allowed: Iterable[str],
    required: Iterable[str] = (),
) -> dict[str, Any]:
    """The request as a dict, after refusing unknown and missing
    parameters."""
    if not isinstance(request, dict):
        raise ValidationException("The request must be a map of parameters")
    if type(allowed) is not frozenset:
        allowed = frozenset(allowed)
    for name in request:
        if name in allowed:
            continue
        raise ValidationException(
            f'Unknown parameter in input: "{name}", must be one of: '
            + ", ".join(sorted(allowed))
        )
    for name in required:
        if request.get(name) is None:
            raise ValidationException(
                f"1 validation error detected: Value null at '{_member(name)}' failed "
                "to satisfy constraint: Member must not be null"
            )
    return request


def _member(name: str) -> str:
    return name[:1].lower() + name[1:]


def enum(
    request: Mapping[str, Any], name: str, choices: tuple[str, ...], default: str
) -> str:
    value = request.get(name, default)
    if value not in choices:
        raise ValidationException(
            f"1 validation error detected: Value '{value}' at '{_member(name)}' failed "
            f"to satisfy constraint: Member must satisfy enum value set: "
            f"[{', '.join(choices)}]"
        )
    return value


def boolean(request: Mapping[str, Any], name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise ValidationException(
            f"1 validation error detected: Value '{value}' at '{_member(name)}' failed "
            "to satisfy constraint: Member must be a boolean"
        )
    return value


def limit(request: Mapping[str, Any]) -> int | None:
    value = request.get("Limit")
    return None if value is None else at_least(value, "Limit", 1)


MAX_TRANSACT_ITEMS = 100


def java_objects(kind: str, count: int) -> str:
    """How DynamoDB's messages show a list of request elements: the Java
    objects' default text, `[com.amazonaws.dynamodb.v20120810.WriteRequest@1a2b,
    ...]` (the hash codes differ from DynamoDB's, the shape does not)."""
    return (
        "["
        + ", ".join(
            f"com.amazonaws.dynamodb.v20120810.{kind}@{0x10000001 + n:x}"
            for n in range(count)
        )
        + "]"
    )


def request_items(request: Mapping[str, Any]) -> dict[str, Any]:
    """BatchGetItem's and BatchWriteItem's RequestItems: a map of at least
    one table."""
    requested = request["RequestItems"]
    if not isinstance(requested, dict) or not requested:
        raise ValidationException(
            "1 validation error detected: Value '{}' at 'requestItems' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1"
        )
    return requested


def transact_items(request: Mapping[str, Any], kind: str) -> list[Any]:
    """TransactGetItems' and TransactWriteItems' TransactItems: a list of 1
    to 100 actions (kind: TransactGetItem or TransactWriteItem)."""
    actions = request["TransactItems"]
    if not isinstance(actions, list) or not actions:
        raise ValidationException(
            "1 validation error detected: Value '[]' at 'transactItems' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1"
        )
    if len(actions) > MAX_TRANSACT_ITEMS:
        raise ValidationException(
            f"1 validation error detected: Value '{java_objects(kind, len(actions))}' "
            "at 'transactItems' failed to satisfy constraint: Member must have "
            f"length less than or equal to {MAX_TRANSACT_ITEMS}"
        )
    return actions


def consumed_capacity_mode(request: Mapping[str, Any]) -> str:
    return enum(request, "ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, "NONE")


@dataclass(slots=True)
class Expressions:
    """The expressions of one request, parsed against its names and values."""

    names: dict[str, str] | None
    values: dict[str, Any] | None
    used_names: set[str] = field(default_factory=set)
    used_values: set[str] = field(default_factory=set)
    count: int = 0

    @classmethod
    def of(cls, request: Mapping[str, Any]) -> Expressions:
        names = request.get("ExpressionAttributeNames")
        values = request.get("ExpressionAttributeValues")
        if names is None and values is None:
            return cls(None, None)  # most reads by key: nothing to check
        if names is not None and (not isinstance(names, dict) or not names):
            raise ValidationException("ExpressionAttributeNames must not be empty")
        _check_placeholders(names, "#", "ExpressionAttributeNames")
        native = None
        if values is not None:
            if not isinstance(values, dict) or not values:
                raise ValidationException("ExpressionAttributeValues must not be empty")
            _check_placeholders(values, ":", "ExpressionAttributeValues")
            native = {}
            for placeholder, wire in values.items():
                try:
                    native[placeholder] = from_wire(wire)
                except ValidationException as exc:
                    raise ValidationException(
                        "ExpressionAttributeValues contains invalid value: "
                        f"{exc.message} for key {placeholder}"
                    ) from None
        return cls(names, native)

    def _used(self, parsed: Any) -> Any:
        self.count += 1
        self.used_names |= parsed.usage.names
        self.used_values |= parsed.usage.values
        return parsed

    def condition(self, text: Any, kind: str) -> Condition:
        return self._used(
            parse_condition(_text(text, kind), self.names, self.values, kind=kind)
        )

    def projection(self, text: Any) -> Projection:
        return self._used(
            parse_projection(_text(text, "ProjectionExpression"), self.names)
        )

    def update(self, text: Any) -> Update:
        return self._used(
            parse_update(_text(text, "UpdateExpression"), self.names, self.values)
        )

    def key_condition(
        self, text: Any, partition: tuple[str, ...], sort: tuple[str, ...]
    ) -> KeyCondition:
        return self._used(
            parse_key_condition(
                _text(text, "KeyConditionExpression"),
                self.names,
                self.values,
                partition,
                sort,
            )
        )

    def check_unused(self) -> None:
        """Refuse names and values that no expression of the request used."""
        if self.names is None and self.values is None:
            return  # nothing given, so nothing unused
        if self.count == 0:
            if self.names is not None:
                raise ValidationException(
                    "ExpressionAttributeNames can only be specified when using "
                    "expressions"
                )
            if self.values is not None:
                raise ValidationException(
                    "ExpressionAttributeValues can only be specified when using "
                    "expressions"
                )
        # The usual request uses all it gives: a subset test says so without
        # building the sorted list the message needs.
        if self.names and not self.used_names.issuperset(self.names):
            unused = sorted(set(self.names) - self.used_names)
            raise ValidationException(
                "Value provided in ExpressionAttributeNames unused in expressions: "
                f"keys: {{{', '.join(unused)}}}"
            )
        if self.values and not self.used_values.issuperset(self.values):
            unused = sorted(set(self.values) - self.used_values)
            raise ValidationException(
                "Value provided in ExpressionAttributeValues unused in expressions: "
                f"keys: {{{', '.join(unused)}}}"
            )


_PLACEHOLDER = re.compile(r"[A-Za-z0-9_]+")


def _check_placeholders(
    mapping: dict[str, Any] | None, prefix: str, parameter: str
) -> None:
    """Every key is `#name` (names) or `:name` (values): a key without its
    prefix is an invalid key, which DynamoDB says before anything else."""
    for key in mapping or ():
        if not _is_placeholder(key, prefix):
            raise ValidationException(
                f'{parameter} contains invalid key: Syntax error; key: "{key}"'
            )


@functools.lru_cache(maxsize=4096)
def _is_placeholder(key: Any, prefix: str) -> bool:
    """Kept per key: a program sends the same few placeholders again and
    again, and a cache look-up is cheaper than the pattern."""
    return (
        isinstance(key, str)
        and key[:1] == prefix
        and _PLACEHOLDER.fullmatch(key, 1) is not None
    )


def _text(text: Any, kind: str) -> str:
    if not isinstance(text, str):
        raise ValidationException(
            f"1 validation error detected: Value '{text}' at '{_member(kind)}' failed "
            "to satisfy constraint: Member must be a string"
        )
    return text
