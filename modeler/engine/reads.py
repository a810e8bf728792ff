"""The read operations: GetItem, Query, Scan, BatchGetItem, TransactGetItems.

A Query or Scan page reads entries in order, counting each into
ScannedCount and into the bytes read, and stops after Limit entries or once
the bytes read reach 1 MB (the entry that reaches it is included); then the
filter is applied, then the projection. LastEvaluatedKey is returned
whenever the page stopped that way, even if nothing is left to read
(DynamoDB does not look ahead), and holds the table's key plus, for an index,
the index's key.

Reading an index returns its projected attributes. A global secondary index
cannot return more: a ProjectionExpression that names an attribute it does
not project is a ValidationException. A local secondary index fetches the
table's item for the attributes it does not project (asked for by
Select=ALL_ATTRIBUTES, the ProjectionExpression or the FilterExpression), and
each fetch costs a read of the whole item, rounded up to 4 KB, reported
against the table.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from modeler.engine.capacity import (
    EVENTUAL,
    STRONG,
    TRANSACTIONAL,
    Consumed,
    read_units,
)
from modeler.engine.constraints import at_least, bounded
from modeler.engine.errors import TransactionCanceledException, ValidationException
from modeler.engine.expressions import Condition, KeyCondition, Projection
from modeler.engine.requests import (
    Expressions,
    boolean,
    check_parameters,
    consumed_capacity_mode,
    enum,
    limit,
    request_items,
    transact_items,
)
from modeler.engine.state import EngineState
from modeler.engine.table import KEY_PYTHON_TYPES, Index, Table
from modeler.engine.types import Item, type_of
from modeler.engine.wire import (
    attributes_to_wire,
    item_from_wire,
    item_to_wire,
    items_to_wire,
)

MAX_BATCH_GET_KEYS = 100
# A BatchGetItem response holds up to 16 MB: the item that reaches it is the
# last returned, and the keys after it come back in UnprocessedKeys.
MAX_BATCH_GET_BYTES = 16 * 1024 * 1024
MAX_TOTAL_SEGMENTS = 1_000_000
# In the order DynamoDB's message lists them.
SELECT = ("SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES")

GET_ITEM_PARAMETERS = frozenset(
    (
        "TableName",
        "Key",
        "ConsistentRead",
        "ProjectionExpression",
        "ExpressionAttributeNames",
        "ReturnConsumedCapacity",
    )
)
_READ_PARAMETERS = (
    "TableName",
    "IndexName",
    "Select",
    "Limit",
    "ConsistentRead",
    "ExclusiveStartKey",
    "ReturnConsumedCapacity",
    "ProjectionExpression",
    "FilterExpression",
    "ExpressionAttributeNames",
    "ExpressionAttributeValues",
)
QUERY_PARAMETERS = frozenset(
    (*_READ_PARAMETERS, "KeyConditionExpression", "ScanIndexForward")
)
SCAN_PARAMETERS = frozenset((*_READ_PARAMETERS, "Segment", "TotalSegments"))
INVALID_START_KEY = (
    "The provided starting key is invalid: The provided key element does not match "
    "the schema"
)


def native_key(table: Table, wire: Any) -> Item:
    """The native key of a request's Key, checked against the table."""
    if not isinstance(wire, dict):
        raise ValidationException("The provided key element does not match the schema")
    key = item_from_wire(wire)
    table.check_key(key)
    return key


def consumed_response(consumed: Consumed, mode: str) -> dict[str, Any]:
    response = consumed.response(mode)
    return {"ConsumedCapacity": response} if response else {}


# --- GetItem ----------------------------------------------------------------


def get_item(
    engine: EngineState,
    request: dict[str, Any],
    *,
    item_out: Callable[[Item], Any] = item_to_wire,
) -> dict[str, Any]:
    """GetItem; `item_out` gives the item as the answer holds it (DynamoDB
    JSON, or the endpoint's JSON text)."""
    check_parameters(request, GET_ITEM_PARAMETERS, ("TableName", "Key"))
    table = engine.table(request["TableName"])
    key = native_key(table, request["Key"])
    projection = None
    if len(request) == 2:  # TableName and Key, as most are: nothing more to read
        consistent, mode = False, "NONE"
    else:
        consistent = boolean(request, "ConsistentRead")
        mode = consumed_capacity_mode(request)
        expressions = Expressions.of(request)
        if "ProjectionExpression" in request:
            projection = expressions.projection(request["ProjectionExpression"])
        expressions.check_unused()
    found = table.get(key)
    response: dict[str, Any] = {}
    if found:
        item = projection.apply(found[0]) if projection else found[0]
        response["Item"] = item_out(item)
    if mode != "NONE":
        units = read_units(found[1] if found else 0, STRONG if consistent else EVENTUAL)
        response.update(consumed_response(Consumed(table.name, False, units), mode))
    return response


# --- Query and Scan ---------------------------------------------------------


class _Read:
    """What Query and Scan share: the target, Select, Limit, the filter,
    the projection and the start key, checked."""

    def __init__(
        self,
        engine: EngineState,
        request: dict[str, Any],
        operation: str,
        allowed: frozenset[str],
        item_out: Callable[[Item], Any] = item_to_wire,
    ) -> None:
        check_parameters(request, allowed, ("TableName",))
        self.item_out = item_out
        self.table = table = engine.table(request["TableName"])
        self.index: Index | None = None
        if "IndexName" in request:
            self.index = table.index(request["IndexName"])
        self.consistent = boolean(request, "ConsistentRead")
        if self.consistent and self.index is not None and self.index.is_global:
            raise ValidationException(
                "Consistent reads are not supported on global secondary indexes"
            )
        self.mode = consumed_capacity_mode(request)
        self.limit = limit(request)
        self.expressions = Expressions.of(request)
        self.key_condition: KeyCondition | None = None
        if operation == "Query":
            if "KeyConditionExpression" not in request:
                raise ValidationException(
                    "Either the KeyConditions or KeyConditionExpression parameter must "
                    "be specified in the request."
                )
            key = self.key_schema
            self.key_condition = self.expressions.key_condition(
                request["KeyConditionExpression"], key.partition, key.sort
            )
        self.filter: Condition | None = None
        if "FilterExpression" in request:
            self.filter = self.expressions.condition(
                request["FilterExpression"], "FilterExpression"
            )
        self.projection: Projection | None = None
        if "ProjectionExpression" in request:
            self.projection = self.expressions.projection(
                request["ProjectionExpression"]
            )
        self.expressions.check_unused()
        self.select = self._select(request)
        self.start = (
            self._start_key(request["ExclusiveStartKey"])
            if request.get("ExclusiveStartKey") is not None
            else None
        )
        self.fetch = self._fetches()

    @property
    def key_schema(self) -> Any:
        return self.index.key if self.index else self.table.key

    def _select(self, request: dict[str, Any]) -> str:
        default = (
            "SPECIFIC_ATTRIBUTES"
            if self.projection
            else ("ALL_PROJECTED_ATTRIBUTES" if self.index else "ALL_ATTRIBUTES")
        )
        select = enum(request, "Select", SELECT, default)
        prefix = "1 validation error detected: "
        if select == "SPECIFIC_ATTRIBUTES" and not self.projection:
            raise ValidationException(
                f"{prefix}Must specify the AttributesToGet or ProjectionExpression "
                "when choosing to get SPECIFIC_ATTRIBUTES"
            )
        if select != "SPECIFIC_ATTRIBUTES" and self.projection:
            what = "only the Count" if select == "COUNT" else select
            raise ValidationException(
                f"{prefix}Cannot specify the ProjectionExpression when choosing to get "
                f"{what}"
            )
        if select == "ALL_PROJECTED_ATTRIBUTES" and self.index is None:
            raise ValidationException(
                f"{prefix}ALL_PROJECTED_ATTRIBUTES can be used only when Querying "
                "using an IndexName"
            )
        index = self.index
        if (
            select == "ALL_ATTRIBUTES"
            and index is not None
            and index.is_global
            and not index.projects_all
        ):
            raise ValidationException(
                "One or more parameter values were invalid: Select type ALL_ATTRIBUTES "
                f"is not supported for global secondary index {index.name} because its "
                "projection type is not ALL"
            )
        if (
            self.projection
            and index is not None
            and index.is_global
            and not index.projects_all
        ):
            # A GSI cannot fetch from the table: asking it for an attribute it
            # does not project is an error (API Reference, Query, Select).
            missing = sorted(
                {p.attribute for p in self.projection.paths}
                - set(index.projected_set or ())
            )
            if missing:
                raise ValidationException(
                    "One or more parameter values were invalid: Global secondary "
                    f"index {index.name} does not project [{', '.join(missing)}]"
                )
        return select

    def _start_key(self, wire: Any) -> Item:
        if not isinstance(wire, dict):
            raise ValidationException(INVALID_START_KEY)
        start = item_from_wire(wire)
        table = self.table
        required = (
            self.index.last_key_attributes if self.index else table.key_attributes
        )
        if len(start) != len(required) or any(a not in start for a in required):
            raise ValidationException(INVALID_START_KEY)
        for attr in required:
            if type(start[attr]) not in KEY_PYTHON_TYPES[table.types[attr]]:
                raise ValidationException(INVALID_START_KEY)
        return start

    def _fetches(self) -> bool:
        """Whether a local index read needs the table's items."""
        index = self.index
        if index is None or index.is_global or index.projects_all:
            return False
        if self.select == "ALL_ATTRIBUTES":
            return True
        wanted = [p.attribute for p in self.projection.paths] if self.projection else []
        if self.filter:
            wanted += [p.attribute for p in self.filter.paths]
        return not index.holds(wanted)

    def respond(
        self, entries: list[Item], read_bytes: int, last: Item | None
    ) -> dict[str, Any]:
        index = self.index
        if index is None or self.fetch or index.projects_all:
            items = entries
        else:
            items = [index.project(e) for e in entries]
        if self.filter is not None:
            evaluate = self.filter.evaluate
            items = [item for item in items if evaluate(item)]
        response: dict[str, Any] = {}
        if self.select != "COUNT":
            if self.projection is not None:
                apply = self.projection.apply
                items = [apply(item) for item in items]
            item_out = self.item_out
            if item_out is item_to_wire:
                response["Items"] = items_to_wire(items)
            else:
                response["Items"] = [item_out(item) for item in items]
        response["Count"] = len(items)
        response["ScannedCount"] = len(entries)
        if last is not None:
            attributes = (
                index.last_key_attributes if index else self.table.key_attributes
            )
            response["LastEvaluatedKey"] = attributes_to_wire(
                {a: last[a] for a in attributes}
            )
        if self.mode != "NONE":
            # Only counted when asked for: a local index's fetches weigh
            # every item in the table again.
            response.update(
                consumed_response(self._consumed(entries, read_bytes), self.mode)
            )
        return response

    def _consumed(self, entries: list[Item], read_bytes: int) -> Consumed:
        factor = STRONG if self.consistent else EVENTUAL
        units = read_units(read_bytes, factor)
        index = self.index
        consumed = Consumed(self.table.name, False)
        if index is None:
            consumed.table = units
            return consumed
        group = consumed.global_indexes if index.is_global else consumed.local_indexes
        group[index.name] = units
        if self.fetch:
            consumed.table = sum(
                read_units(self._table_size(e), factor) for e in entries
            )
        return consumed

    def _table_size(self, item: Item) -> int:
        found = self.table.get(item)
        return found[1] if found else 0


def query(
    engine: EngineState,
    request: dict[str, Any],
    *,
    item_out: Callable[[Item], Any] = item_to_wire,
) -> dict[str, Any]:
    read = _Read(engine, request, "Query", QUERY_PARAMETERS, item_out)
    forward = request.get("ScanIndexForward", True)
    if not isinstance(forward, bool):
        boolean(request, "ScanIndexForward")
    condition = read.key_condition
    if condition is None:  # never: _Read refuses a Query without one
        raise AssertionError("a Query without a key condition")
    table = read.table
    for attr, value in condition.partition:
        _check_condition_type(table, attr, value)
    for sort in condition.sort:
        for value in sort.values:
            _check_condition_type(table, sort.attribute, value)
    if read.filter is not None:
        keys = read.key_schema.attributes
        for path in read.filter.paths:
            if path.attribute in keys:
                raise ValidationException(
                    "Filter Expression can only contain non-primary key attributes: "
                    f"Primary key attribute: {path.attribute}"
                )
    values = tuple(value for _, value in condition.partition)
    partition_key = values if len(values) > 1 else values[0]
    start = read.start
    if start is not None:
        store = read.index.store if read.index else table.store
        if store.partition_of(start) != partition_key:
            raise ValidationException(
                "The provided starting key is outside query boundaries based on "
                "provided conditions"
            )
        for sort in condition.sort:
            if not sort.matches(start[sort.attribute]):
                raise ValidationException(
                    "The provided starting key does not match the range key predicate"
                )
    page = table.query(
        read.index,
        partition_key,
        condition.sort,
        forward=forward,
        start=start,
        limit=read.limit,
    )
    return read.respond(page.items, page.bytes, page.last)


def _check_condition_type(table: Table, attribute: str, value: Any) -> None:
    if type(value) not in KEY_PYTHON_TYPES[table.types[attribute]]:
        raise ValidationException(
            "One or more parameter values were invalid: Condition parameter type does "
            "not match schema type"
        )


def scan(
    engine: EngineState,
    request: dict[str, Any],
    *,
    item_out: Callable[[Item], Any] = item_to_wire,
) -> dict[str, Any]:
    read = _Read(engine, request, "Scan", SCAN_PARAMETERS, item_out)
    segment, total = request.get("Segment"), request.get("TotalSegments")
    if segment is not None and total is None:
        raise ValidationException(
            "The TotalSegments parameter is required but was not present in the "
            "request when Segment parameter is present"
        )
    if total is not None and segment is None:
        raise ValidationException(
            "The Segment parameter is required but was not present in the request when "
            "parameter TotalSegments is present"
        )
    if total is None:
        segment, total = 0, 1
    total = bounded(total, "totalSegments", 1, MAX_TOTAL_SEGMENTS)
    segment = at_least(segment, "Segment", 0)
    if segment >= total:
        raise ValidationException(
            "The Segment parameter is zero-based and must be less than parameter "
            f"TotalSegments: Segment: {segment} is not less than TotalSegments: {total}"
        )
    store = read.index.store if read.index else read.table.store
    if read.start is not None and store.segment_of(read.start, total) != segment:
        raise ValidationException(
            "The provided Exclusive start key does not map to the provided Segment and "
            "TotalSegments values."
        )
    page = read.table.scan(
        read.index,
        segment=segment,
        total_segments=total,
        start=read.start,
        limit=read.limit,
    )
    return read.respond(page.items, page.bytes, page.last)


# --- BatchGetItem and TransactGetItems --------------------------------------


def batch_get_item(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request, ("RequestItems", "ReturnConsumedCapacity"), ("RequestItems",)
    )
    mode = consumed_capacity_mode(request)
    requested = request_items(request)
    plans = []
    total_keys = 0
    for name, spec in requested.items():
        check_parameters(
            spec,
            (
                "Keys",
                "ConsistentRead",
                "ProjectionExpression",
                "ExpressionAttributeNames",
            ),
            ("Keys",),
        )
        table = engine.table(name)
        wire_keys = spec["Keys"]
        if not isinstance(wire_keys, list) or not wire_keys:
            raise ValidationException(
                "1 validation error detected: Value at 'requestItems."
                f"{name}.member.keys' failed to satisfy constraint: Member must have "
                "length greater than or equal to 1"
            )
        total_keys += len(wire_keys)
        if total_keys > MAX_BATCH_GET_KEYS:
            raise ValidationException(
                "Too many items requested for the BatchGetItem call"
            )
        keys = [native_key(table, k) for k in wire_keys]
        if len({key_identity(table, k) for k in keys}) != len(keys):
            raise ValidationException("Provided list of item keys contains duplicates")
        expressions = Expressions.of(spec)
        projection = (
            expressions.projection(spec["ProjectionExpression"])
            if "ProjectionExpression" in spec
            else None
        )
        expressions.check_unused()
        factor = STRONG if boolean(spec, "ConsistentRead") else EVENTUAL
        plans.append((name, spec, table, keys, projection, factor))
    responses: dict[str, list[Any]] = {}
    unprocessed: dict[str, Any] = {}
    consumed = []
    returned = 0
    for name, spec, table, keys, projection, factor in plans:
        found_items = responses[name] = []
        spent = Consumed(table.name, False)
        for index, key in enumerate(keys):
            if returned >= MAX_BATCH_GET_BYTES:
                unprocessed[name] = {**spec, "Keys": spec["Keys"][index:]}
                break
            found = table.get(key)
            spent.table += read_units(found[1] if found else 0, factor)
            if found:
                item = projection.apply(found[0]) if projection else found[0]
                found_items.append(item_to_wire(item))
                returned += found[1]
        if spent.table:
            consumed.append(spent)
    response: dict[str, Any] = {"Responses": responses, "UnprocessedKeys": unprocessed}
    if mode != "NONE":
        response["ConsumedCapacity"] = [c.response(mode) for c in consumed]
    return response


# The type names of key values by their Python type, looked up before
# `type_of` is asked (every key of a checked request is one of these).
_KEY_KINDS = {str: "S", Decimal: "N", int: "N", bytes: "B"}


def key_identity(table: Table, key: Item) -> tuple[Any, ...]:
    """A hashable identity of a key, telling 1 (N) from "1" (S)."""
    kinds = _KEY_KINDS
    identity = []
    for attribute in table.key_attributes:
        value = key[attribute]
        identity.append((kinds.get(type(value)) or type_of(value), value))
    return tuple(identity)


def transact_get_items(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request, ("TransactItems", "ReturnConsumedCapacity"), ("TransactItems",)
    )
    mode = consumed_capacity_mode(request)
    actions = transact_items(request, "TransactGetItem")
    plans: list[tuple[Table, Item, Projection | None]] = []
    key_errors: dict[int, str] = {}
    seen = set()
    for action in actions:
        check_parameters(action, ("Get",), ("Get",))
        spec = check_parameters(
            action["Get"],
            (
                "TableName",
                "Key",
                "ProjectionExpression",
                "ExpressionAttributeNames",
            ),
            ("TableName", "Key"),
        )
        table = engine.table(spec["TableName"])
        # The expressions are the request's to refuse, before any key.
        expressions = Expressions.of(spec)
        projection = (
            expressions.projection(spec["ProjectionExpression"])
            if "ProjectionExpression" in spec
            else None
        )
        expressions.check_unused()
        try:
            key = native_key(table, spec["Key"])
        except ValidationException as error:
            # A transactional read reports a key that does not fit the
            # table (an empty Key, a missing or mistyped attribute) as
            # that action's cancellation reason, not as the request's error.
            key_errors[len(plans)] = error.message
            plans.append((table, {}, None))
            continue
        identity = (table.name, key_identity(table, key))
        if identity in seen:
            raise ValidationException(
                "Transaction request cannot include multiple operations on one item"
            )
        seen.add(identity)
        plans.append((table, key, projection))
    if key_errors:
        raise TransactionCanceledException(
            [
                {"Code": "ValidationError", "Message": key_errors[n]}
                if n in key_errors
                else {"Code": "None"}
                for n in range(len(plans))
            ]
        )
    results = []
    consumed: dict[str, Consumed] = {}
    for table, key, projection in plans:
        found = table.get(key)
        spent = consumed.setdefault(table.name, Consumed(table.name, False))
        spent.table += read_units(found[1] if found else 0, TRANSACTIONAL)
        if found:
            item = projection.apply(found[0]) if projection else found[0]
            results.append({"Item": item_to_wire(item)})
        else:
            results.append({})
    response: dict[str, Any] = {"Responses": results}
    if mode != "NONE":
        response["ConsumedCapacity"] = [
            c.response(mode, transaction=True) for c in consumed.values()
        ]
    return response
