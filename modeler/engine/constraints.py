"""DynamoDB's member constraints, checked together before anything else.

DynamoDB's request framework checks every member of a request against its
constraints (not null, enum, length, pattern) before the operation reads it,
and reports all the failures at once, in its own member order:

    2 validation errors detected: Value 'X' at 'returnConsumedCapacity' failed
    to satisfy constraint: ...; Value null at 'key' failed to satisfy ...

Only when every member passes does the operation check what needs the
table (a ReturnValues that PutItem does not offer, the key's schema).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from modeler.engine.errors import ValidationException

# DynamoDB lists the enums in its own order, not the API model's.
RETURN_VALUES = ("ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW")
RETURN_CONSUMED_CAPACITY = ("INDEXES", "TOTAL", "NONE")
RETURN_ITEM_COLLECTION_METRICS = ("SIZE", "NONE")
CONDITIONAL_OPERATORS = ("OR", "AND")
RETURN_VALUES_ON_FAILURE = ("ALL_OLD", "NONE")
# At most this many failures are reported (DynamoDB stops counting there).
MAX_FAILURES = 10
_NAME_CHARACTERS = re.compile(r"[a-zA-Z0-9_.-]+")


def member_name(name: str) -> str:
    """A parameter as DynamoDB's messages name it: `tableName`."""
    return name[:1].lower() + name[1:]


def joined(failures: list[str]) -> str:
    """`N validation error(s) detected: a; b`."""
    count = len(failures)
    return f"{count} validation error{'s' if count > 1 else ''} detected: " + "; ".join(
        failures
    )


class Failures:
    """The constraint failures of one request, in the order found."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def fail(self, value: Any, member: str, constraint: str) -> None:
        shown = "null" if value is None else f"'{value}'"
        if len(self.messages) < MAX_FAILURES:
            self.messages.append(
                f"Value {shown} at '{member}' failed to satisfy constraint: "
                f"{constraint}"
            )

    def not_null(self, request: Mapping[str, Any], name: str) -> None:
        if request.get(name) is None:
            self.fail(None, member_name(name), "Member must not be null")

    def enum(
        self, request: Mapping[str, Any], name: str, choices: tuple[str, ...]
    ) -> None:
        value = request.get(name)
        if value is not None and value not in choices:
            self.fail(
                value,
                member_name(name),
                f"Member must satisfy enum value set: [{', '.join(choices)}]",
            )

    def table_name(self, value: Any, member: str = "tableName") -> None:
        """A table name (or ARN) given: its pattern, then its length; an
        empty one fails only its least length (1, as an ARN may be given)."""
        if not isinstance(value, str):
            if value is None:
                self.fail(None, member, "Member must not be null")
            return
        shorter = "Member must have length greater than or equal to"
        if value == "":
            self.fail(value, member, f"{shorter} 1")
            return
        if value.startswith("arn:"):
            return
        if not _NAME_CHARACTERS.fullmatch(value):
            self.fail(
                value,
                member,
                "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
            )
        if len(value) < 3:
            self.fail(value, member, f"{shorter} 3")
        elif len(value) > 255:
            longer = "Member must have length less than or equal to"
            self.fail(value, member, f"{longer} 255")

    def check(self) -> None:
        """Raise the joined failures, if any."""
        if self.messages:
            raise ValidationException(joined(self.messages))


def check_item_write(kind: str, request: Any) -> None:
    """PutItem's, DeleteItem's and UpdateItem's members, in DynamoDB's order
    for each (kind: Put, Delete, Update)."""
    if not isinstance(request, dict):
        return
    if _item_write_passes(kind, request):
        return  # nearly every request: no failure to collect and order
    failures = Failures()
    failures.enum(request, "ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY)
    failures.table_name(request.get("TableName"))
    if kind == "Put":
        failures.not_null(request, "Item")
        failures.enum(request, "ConditionalOperator", CONDITIONAL_OPERATORS)
        failures.enum(request, "ReturnValues", RETURN_VALUES)
        failures.enum(
            request, "ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS
        )
    else:
        metrics_first = kind == "Update"
        if metrics_first:
            failures.enum(
                request, "ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS
            )
        failures.enum(request, "ReturnValues", RETURN_VALUES)
        if not metrics_first:
            failures.enum(
                request, "ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS
            )
        failures.enum(request, "ConditionalOperator", CONDITIONAL_OPERATORS)
        failures.not_null(request, "Key")
    failures.enum(
        request, "ReturnValuesOnConditionCheckFailure", RETURN_VALUES_ON_FAILURE
    )
    failures.check()


_ITEM_WRITE_ENUMS = (
    ("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY),
    ("ConditionalOperator", CONDITIONAL_OPERATORS),
    ("ReturnValues", RETURN_VALUES),
    ("ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS),
    ("ReturnValuesOnConditionCheckFailure", RETURN_VALUES_ON_FAILURE),
)
_ITEM_WRITE_ENUM_MEMBERS = frozenset(member for member, _ in _ITEM_WRITE_ENUMS)


# The table names that passed `_item_write_passes`: a program writes to the
# same few tables again and again, and a set look-up costs less than the
# pattern. Emptied when full.
_PASSED_NAMES: set[str] = set()
_PASSED_NAMES_KEPT = 1024


def _item_write_passes(kind: str, request: dict[str, Any]) -> bool:
    """Whether every check of `check_item_write` passes, tested at once."""
    name = request.get("TableName")
    if type(name) is not str:
        return False
    if name not in _PASSED_NAMES:
        if not (
            name.startswith("arn:")
            or (3 <= len(name) <= 255 and _NAME_CHARACTERS.fullmatch(name))
        ):
            return False
        if len(_PASSED_NAMES) >= _PASSED_NAMES_KEPT:
            _PASSED_NAMES.clear()
        _PASSED_NAMES.add(name)
    if request.get("Item" if kind == "Put" else "Key") is None:
        return False
    if request.keys().isdisjoint(_ITEM_WRITE_ENUM_MEMBERS):
        return True  # no enum to check, as in most requests
    for member, choices in _ITEM_WRITE_ENUMS:
        value = request.get(member)
        if value is not None and value not in choices:
            return False
    return True


def bounded(value: Any, member: str, least: int, most: int | None = None) -> int:
    """An integer member within [least, most], or DynamoDB's message naming
    the bound it passed."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < least:
            raise ValidationException(
                f"1 validation error detected: Value '{value}' at '{member}' failed to "
                f"satisfy constraint: Member must have value greater than or equal to "
                f"{least}"
            )
        if most is None or value <= most:
            return value
    raise ValidationException(
        f"1 validation error detected: Value '{value}' at '{member}' failed to "
        f"satisfy constraint: Member must have value less than or equal to {most}"
    )


def at_least(value: Any, member: str, least: int) -> int:
    """Query's and Scan's Limit and Segment: the newer framework's wording,
    which names the member as the API does and does not echo the value."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= least:
        return value
    raise ValidationException(
        f"1 validation error detected: Value at '{member}' failed to satisfy "
        f"constraint: Member must have value greater than or equal to {least}"
    )


def require_table_name(request: Any) -> None:
    """The control plane's table operations (CreateTable, DeleteTable,
    DescribeTable, UpdateTable, DescribeTimeToLive) refuse a request without
    TableName in a sentence of their own, before any other check."""
    if isinstance(request, dict) and request.get("TableName") is None:
        raise ValidationException(
            "The parameter 'TableName' is required but was not present in the request"
        )


def check_create_table(request: Any) -> None:
    """CreateTable's missing members, joined with its table name's
    failures, in DynamoDB's order."""
    if not isinstance(request, dict):
        return
    failures = Failures()
    failures.not_null(request, "AttributeDefinitions")
    name = request.get("TableName")
    if isinstance(name, str) and name:
        failures.table_name(name)
    failures.not_null(request, "KeySchema")
    failures.check()
