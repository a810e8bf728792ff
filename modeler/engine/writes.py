"""The write operations: PutItem, UpdateItem, DeleteItem, BatchWriteItem,
TransactWriteItems.

Every write is first planned (`Write`: the parameters checked, the
expressions parsed), then resolved against the stored item (the condition
evaluated, the new item computed and checked), then applied. A transaction
resolves every action before it applies any, so it is all-or-nothing.

Capacity: a write costs the table ceil(max(old size, new size) / 1 KB)
units, and each index it changes its own units (see `Index.write_units`). A
write whose condition fails writes nothing but still costs the table's units
(on the stored item, or the new item of a put if larger); the engine attaches
them to the exception as `consumed_capacity`, since DynamoDB's error response
does not carry them. Transactional writes cost twice, a ConditionCheck as
much as a write of the item it checks.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from modeler.engine.capacity import (
    STRONG,
    TRANSACTIONAL,
    Consumed,
    read_units,
    write_units,
)
from modeler.engine.constraints import RETURN_CONSUMED_CAPACITY, Failures
from modeler.engine.errors import (
    ConditionalCheckFailedException,
    EngineError,
    IdempotentParameterMismatchException,
    TransactionCanceledException,
    ValidationException,
)
from modeler.engine.expressions import MISSING, Condition, Projection, Update, Usage
from modeler.engine.expressions.parser import MAX_KEPT_VALUE
from modeler.engine.expressions.paths import path_tree
from modeler.engine.reads import consumed_response, key_identity, native_key
from modeler.engine.requests import (
    RETURN_ITEM_COLLECTION_METRICS,
    Expressions,
    check_parameters,
    consumed_capacity_mode,
    enum,
    java_objects,
    request_items,
    transact_items,
)
from modeler.engine.size import (
    attribute_size,
    known_number_size,
    number_size,
    value_size,
)
from modeler.engine.state import EngineState
from modeler.engine.table import Table
from modeler.engine.types import Item
from modeler.engine.wire import item_from_wire, item_to_wire

MAX_BATCH_WRITE_ITEMS = 25
MAX_TRANSACTION_BYTES = 4 * 1024 * 1024
GIGABYTE = 1024**3

_COMMON = (
    "TableName",
    "ConditionExpression",
    "ExpressionAttributeNames",
    "ExpressionAttributeValues",
    "ReturnValuesOnConditionCheckFailure",
)
_SINGLE = ("ReturnValues", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics")
PUT_PARAMETERS = (*_COMMON, "Item")
UPDATE_PARAMETERS = (*_COMMON, "Key", "UpdateExpression")
DELETE_PARAMETERS = (*_COMMON, "Key")
CONDITION_CHECK_PARAMETERS = (*_COMMON, "Key")
# The parameters of each kind of write, as sets (checked on every write):
# within a transaction or a batch, and alone (PutItem, UpdateItem...).
_ALLOWED = {
    "Put": frozenset(PUT_PARAMETERS),
    "Update": frozenset(UPDATE_PARAMETERS),
    "Delete": frozenset(DELETE_PARAMETERS),
    "ConditionCheck": frozenset(CONDITION_CHECK_PARAMETERS),
}
_ALLOWED_SINGLE = {
    kind: frozenset(parameters | set(_SINGLE))
    for kind, parameters in _ALLOWED.items()
    if kind != "ConditionCheck"
}
# A BatchWriteItem's members, as frozensets: check_parameters makes one of
# any other collection, on each of up to 25 entries.
_WRITE_REQUEST = frozenset(("PutRequest", "DeleteRequest"))
_PUT_REQUEST = frozenset(("Item",))
_DELETE_REQUEST = frozenset(("Key",))
RETURN_VALUES = {
    "Put": ("NONE", "ALL_OLD"),
    "Delete": ("NONE", "ALL_OLD"),
    "Update": ("NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"),
}


@dataclass(slots=True)
class Write:
    """One item write, checked and parsed, not yet resolved."""

    kind: str  # Put, Update, Delete, ConditionCheck
    table: Table
    key: Item
    condition: Condition | None = None
    item: Item | None = None  # the new item of a Put
    item_size: int = 0
    update: Update | None = None
    on_failure: str = "NONE"

    @property
    def identity(self) -> tuple[Any, ...]:
        return (self.table.name, key_identity(self.table, self.key))


@dataclass(slots=True)
class Resolved:
    """A write against the stored item: what it replaces, with what."""

    write: Write
    current: tuple[Item, int] | None
    new: Item | None
    new_size: int
    # An update's top-level attributes: the only ones whose values `new`
    # does not share with the current item (None: any may differ).
    touched: frozenset[str] | set[str] | None = None

    @property
    def old(self) -> Item | None:
        return self.current[0] if self.current else None


def plan(engine: EngineState, kind: str, spec: Any, *, known: bool = False) -> Write:
    """Check one write's parameters (a request, or an element of a
    transaction) and parse its expressions. `known`: the caller refused
    every parameter the write does not take already (a PutItem, UpdateItem
    or DeleteItem request without the response's options)."""
    required: tuple[str, ...] = (
        ("TableName", "Item") if kind == "Put" else ("TableName", "Key")
    )
    if kind == "ConditionCheck":
        required += ("ConditionExpression",)
    # A known request still goes through the check when it lacks TableName,
    # Item or Key, which the check refuses in DynamoDB's words.
    if not known or spec.get(required[0]) is None or spec.get(required[1]) is None:
        spec = check_parameters(spec, _ALLOWED[kind], required)
    table = engine.table(spec["TableName"])
    if kind == "Put":
        write = put_write(table, spec["Item"])
    else:
        write = Write(kind, table, native_key(table, spec["Key"]))
    if len(spec) == 2:  # TableName and Item (or Key): no option, no expression
        return write
    if "ReturnValuesOnConditionCheckFailure" in spec:  # NONE when not sent
        write.on_failure = enum(
            spec, "ReturnValuesOnConditionCheckFailure", ("ALL_OLD", "NONE"), "NONE"
        )
    kept = _parsed_key(table, spec)
    parsed = _PARSED.get(kept) if kept is not None else None
    if parsed is not None:
        write.update, write.condition = parsed
        return write
    expressions = Expressions.of(spec)
    if "UpdateExpression" in spec:
        write.update = expressions.update(spec["UpdateExpression"])
    if "ConditionExpression" in spec:
        write.condition = expressions.condition(
            spec["ConditionExpression"], "ConditionExpression"
        )
    expressions.check_unused()
    if write.update is not None:
        for attribute in table.key_attributes:
            if attribute in write.update.top_level_attributes:
                raise ValidationException(
                    "One or more parameter values were invalid: Cannot update "
                    f"attribute {attribute}. This attribute is part of the key"
                )
    if kept is not None:
        if len(_PARSED) >= PARSED_KEPT:
            _PARSED.clear()
        _PARSED[kept] = (write.update, write.condition)
    return write


def put_write(table: Table, item: Any) -> Write:
    """The Put of the Item `item` (DynamoDB JSON), checked, without options."""
    if not isinstance(item, dict):
        raise ValidationException("Item must be a map of attribute names to values")
    native = item_from_wire(item)
    size = table.check_item(native)
    return Write("Put", table, table.key_of(native), item=native, item_size=size)


# A write's parsed expressions, checked (the names and values used, no key
# attribute updated), by what they depend on: the table's key attributes,
# the expressions' texts and the request's names and values as sent. A
# program sends the same few expressions again and again with other keys: a
# look-up of them costs less than converting the values and finding the
# parsed expressions (the parser keeps them, by the converted values). Only
# expressions that passed every check are kept; emptied when full.
PARSED_KEPT = 1024
_PARSED: dict[tuple[Any, ...], tuple[Update | None, Condition | None]] = {}
_KEPT_DATA = frozenset({str, bytes, bool})
_ABSENT = object()


def _parsed_key(table: Table, spec: dict[str, Any]) -> tuple[Any, ...] | None:
    """The key of a write's parsed expressions in `_PARSED`, or None when
    they are not kept: a text or name that is not a string, a value that is
    not one string, number, binary, boolean or null (a set, a list or a map
    is converted and checked anew), or one longer than the parser keeps."""
    update = spec.get("UpdateExpression", _ABSENT)
    condition = spec.get("ConditionExpression", _ABSENT)
    if (update is not _ABSENT and type(update) is not str) or (
        condition is not _ABSENT and type(condition) is not str
    ):
        return None
    names = spec.get("ExpressionAttributeNames", _ABSENT)
    named: tuple[Any, ...] | None = None
    if names is not _ABSENT:
        if type(names) is not dict:
            return None
        named = tuple(names.items())
        for placeholder, name in named:
            if type(placeholder) is not str or type(name) is not str:
                return None
    values = spec.get("ExpressionAttributeValues", _ABSENT)
    valued: list[tuple[str, str, Any]] | None = None
    if values is not _ABSENT:
        if type(values) is not dict:
            return None
        valued = []
        for placeholder, wire in values.items():
            if type(placeholder) is not str or type(wire) is not dict or len(wire) != 1:
                return None
            ((kind, data),) = wire.items()
            if (
                type(kind) is not str
                or type(data) not in _KEPT_DATA
                or (type(data) is not bool and len(data) > MAX_KEPT_VALUE)
            ):
                return None
            valued.append((placeholder, kind, data))
    return (
        table.key_attributes,
        update,
        condition,
        named,
        tuple(valued) if valued is not None else None,
    )


def resolve(write: Write, factor: float = 1.0) -> Resolved:
    """Evaluate the condition on the stored item and compute the new one;
    ConditionalCheckFailedException (with the units it consumed) when the
    condition fails, ValidationException when the new item is invalid."""
    table = write.table
    current = table.store.find(write.key)  # table.get's look-up
    old, old_size = current if current else (None, 0)
    if write.condition is not None and not write.condition.evaluate(
        old if old is not None else {}
    ):
        item = item_to_wire(old) if write.on_failure == "ALL_OLD" and old else None
        error = ConditionalCheckFailedException(item=item)
        spent = Consumed(
            table.name,
            True,
            write_units(max(current[1] if current else 0, write.item_size)) * factor,
        )
        error.consumed_capacity = spent.response("INDEXES")
        raise error
    if write.kind == "Put":
        return Resolved(write, current, write.item, write.item_size)
    if write.kind == "Delete":
        return Resolved(write, current, None, 0)
    if write.kind == "ConditionCheck":
        return Resolved(write, current, old, current[1] if current else 0)
    update = write.update
    base = old if old is not None else dict(write.key)
    new = update.apply(base) if update is not None else base
    if old is None:
        if update is not None and len(new) == len(write.key):
            # An UpdateExpression that only removes (REMOVE, DELETE) does not
            # create a missing item: DynamoDB leaves it absent.
            return Resolved(write, None, None, 0)
        return Resolved(write, current, new, table.check_item(new, update=True))
    if update is None:
        return Resolved(write, current, new, table.check_item(new, update=True))
    # Only the updated attributes change the size (an item's size is the
    # sum of its attributes' sizes).
    touched = update.top_level_attributes
    size = old_size
    for name in touched:
        before, after = old.get(name, MISSING), new.get(name, MISSING)
        if type(before) is Decimal and type(after) is Decimal:
            # value_size of two numbers, as most updated values are, from
            # the sizes known (number_size, written out).
            size_after = known_number_size(after)
            size_before = known_number_size(before)
            size += (number_size(after) if size_after is None else size_after) - (
                number_size(before) if size_before is None else size_before
            )
            continue
        if before is not MISSING and after is not MISSING:
            # The name's size is counted before and after alike.
            size += value_size(after) - value_size(before)
            continue
        if before is not MISSING:
            size -= attribute_size(name, before)
        if after is not MISSING:
            size += attribute_size(name, after)
    size = table.check_item(new, update=True, size=size)
    return Resolved(write, current, new, size, touched)


def returned_attributes(mode: str, resolved: Resolved) -> Item | None:
    """The Attributes of ReturnValues=`mode`."""
    old, new = resolved.old, resolved.new
    if mode == "ALL_OLD":
        return old
    if mode == "ALL_NEW":
        return new
    if mode in ("UPDATED_OLD", "UPDATED_NEW"):
        update = resolved.write.update
        source = old if mode == "UPDATED_OLD" else new
        if update is None or source is None:
            return None
        paths = update.paths
        written = Projection("", paths, Usage(), path_tree((p, None) for p in paths))
        return written.apply(source) or None
    return None


def collection_metrics(table: Table, key: Item) -> dict[str, Any]:
    """ItemCollectionMetrics of the item collection of `key`."""
    pk = key[table.partition_key]
    gigabytes = table.collection_size(pk) / GIGABYTE
    low = float(int(gigabytes))
    return {
        "ItemCollectionKey": item_to_wire({table.partition_key: pk}),
        "SizeEstimateRangeGB": [low, low + 1.0],
    }


# --- PutItem, UpdateItem, DeleteItem -----------------------------------------


def _single(engine: EngineState, kind: str, request: dict[str, Any]) -> dict[str, Any]:
    spec = request
    # The defaults, for a request with no unknown parameter and none of the
    # response's options, as most are, or with two parameters only (TableName
    # and Item or Key, or a request missing one, which plan refuses).
    return_values = mode = metrics = "NONE"
    if type(request) is not dict or not request.keys() <= _ALLOWED[kind]:
        check_parameters(request, _ALLOWED_SINGLE[kind])
        if len(request) != 2:
            return_values = request.get("ReturnValues", "NONE")
            if return_values not in RETURN_VALUES[kind]:
                raise ValidationException("Return values set to invalid value")
            mode = consumed_capacity_mode(request)
            metrics = enum(
                request,
                "ReturnItemCollectionMetrics",
                RETURN_ITEM_COLLECTION_METRICS,
                "NONE",
            )
            if not request.keys().isdisjoint(_SINGLE):
                spec = {k: v for k, v in request.items() if k not in _SINGLE}
    write = plan(engine, kind, spec, known=True)
    resolved = resolve(write)
    consumed = write.table.write(
        resolved.current,
        resolved.new,
        resolved.new_size,
        resolved.touched,
        counted=mode != "NONE",
    )
    response: dict[str, Any] = {}
    attributes = (
        returned_attributes(return_values, resolved)
        if return_values != "NONE"
        else None
    )
    if attributes:
        response["Attributes"] = item_to_wire(attributes)
    if consumed is not None:
        response.update(consumed_response(consumed, mode))
    if metrics == "SIZE" and write.table.collections is not None:
        response["ItemCollectionMetrics"] = collection_metrics(write.table, write.key)
    return response


def put_item(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    return _single(engine, "Put", request)


def update_item(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    return _single(engine, "Update", request)


def delete_item(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    return _single(engine, "Delete", request)


# --- BatchWriteItem -----------------------------------------------------------


def batch_write_item(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request,
        ("RequestItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"),
        ("RequestItems",),
    )
    mode = consumed_capacity_mode(request)
    metrics = enum(
        request, "ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS, "NONE"
    )
    requested = request_items(request)
    lists = [v for v in requested.values() if isinstance(v, list)]
    if (
        len(lists) < len(requested)
        or not all(lists)
        or sum(map(len, lists)) > MAX_BATCH_WRITE_ITEMS
    ):
        shown = ", ".join(
            f"{name}={java_objects('WriteRequest', len(value))}"
            for name, value in requested.items()
            if isinstance(value, list)
        )
        raise ValidationException(
            f"1 validation error detected: Value '{{{shown}}}' at 'requestItems' "
            "failed to satisfy constraint: Map value must satisfy constraint: "
            "[Member must have length less than or equal to "
            f"{MAX_BATCH_WRITE_ITEMS}, Member must have length greater than or "
            "equal to 1]"
        )
    writes: list[Write] = []
    for name, entries in requested.items():
        table: Table | None = None  # looked up at the first Put
        for entry in entries:
            check_parameters(entry, _WRITE_REQUEST)
            if len(entry) != 1:
                raise ValidationException(
                    "A WriteRequest must contain exactly one of PutRequest or "
                    "DeleteRequest"
                )
            if "PutRequest" in entry:
                spec = check_parameters(entry["PutRequest"], _PUT_REQUEST, ("Item",))
                # `plan` of {"TableName": name, **spec}, without its checks
                # of what a PutRequest cannot hold.
                if table is None:
                    table = engine.table(name)
                writes.append(put_write(table, spec["Item"]))
            else:
                spec = check_parameters(
                    entry["DeleteRequest"], _DELETE_REQUEST, ("Key",)
                )
                writes.append(plan(engine, "Delete", {"TableName": name, **spec}))
    identities = [w.identity for w in writes]
    if len(set(identities)) != len(identities):
        raise ValidationException("Provided list of item keys contains duplicates")
    consumed: dict[str, Consumed] = {}
    collections: dict[str, list[Any]] = {}
    for write in writes:
        resolved = resolve(write)
        spent = write.table.write(
            resolved.current,
            resolved.new,
            resolved.new_size,
            resolved.touched,
            counted=mode != "NONE",
        )
        if spent is not None:
            consumed.setdefault(write.table.name, Consumed(write.table.name, True)).add(
                spent
            )
        if metrics == "SIZE" and write.table.collections is not None:
            collections.setdefault(write.table.name, []).append(
                collection_metrics(write.table, write.key)
            )
    response: dict[str, Any] = {"UnprocessedItems": {}}
    if mode != "NONE":
        response["ConsumedCapacity"] = [c.response(mode) for c in consumed.values()]
    if metrics == "SIZE":
        response["ItemCollectionMetrics"] = collections
    return response


# --- TransactWriteItems -------------------------------------------------------


def transact_write_items(
    engine: EngineState, request: dict[str, Any]
) -> dict[str, Any]:
    check_parameters(
        request,
        (
            "TransactItems",
            "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics",
            "ClientRequestToken",
        ),
        ("TransactItems",),
    )
    # The token's length and the enums are reported together, in this order.
    failures = Failures()
    token = request.get("ClientRequestToken")
    if isinstance(token, str) and len(token) > MAX_TOKEN_LENGTH:
        failures.fail(
            token,
            "clientRequestToken",
            f"Member must have length less than or equal to {MAX_TOKEN_LENGTH}",
        )
    failures.enum(request, "ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY)
    failures.enum(
        request, "ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS
    )
    failures.check()
    mode = consumed_capacity_mode(request)
    metrics = enum(
        request, "ReturnItemCollectionMetrics", RETURN_ITEM_COLLECTION_METRICS, "NONE"
    )
    actions = transact_items(request, "TransactWriteItem")
    writes: list[Write] = []
    for action in actions:
        check_parameters(action, ("ConditionCheck", "Put", "Delete", "Update"))
        if len(action) != 1:
            raise ValidationException(
                "TransactItems can only contain one of Check, Put, Update or Delete"
            )
        ((kind, spec),) = action.items()
        writes.append(plan(engine, kind, spec))
    token = client_request_token(request)
    if token is not None and _repeated(engine, token, request):
        return _repeat_response(writes, mode)
    identities = [w.identity for w in writes]
    if len(set(identities)) != len(identities):
        raise ValidationException(
            "Transaction request cannot include multiple operations on one item"
        )
    if sum(w.item_size for w in writes) > MAX_TRANSACTION_BYTES:
        raise ValidationException(
            "Transaction request size has exceeded the maximum allowed size of 4 MB"
        )
    reasons: list[dict[str, Any]] = []
    resolved: list[Resolved] = []
    for write in writes:
        try:
            resolved.append(resolve(write, TRANSACTIONAL))
            reasons.append({"Code": "None"})
        except ConditionalCheckFailedException as exc:
            reason: dict[str, Any] = {
                "Code": "ConditionalCheckFailed",
                "Message": exc.message,
            }
            if exc.item is not None:
                reason["Item"] = exc.item
            reasons.append(reason)
        except ValidationException as exc:
            reasons.append({"Code": "ValidationError", "Message": exc.message})
    if len(resolved) != len(writes):
        raise TransactionCanceledException(reasons)
    consumed: dict[str, Consumed] = {}
    applied: list[Resolved] = []
    streams = {id(s): s for s in (one.write.table.stream for one in resolved) if s}
    marks = [(stream, stream.mark()) for stream in streams.values()]
    try:
        for one in resolved:
            table = one.write.table
            if one.write.kind == "ConditionCheck":
                spent = Consumed(table.name, True, write_units(one.new_size))
            else:
                spent = table.write(one.current, one.new, one.new_size, one.touched)
                applied.append(one)
            consumed.setdefault(table.name, Consumed(table.name, True)).add(
                spent.scaled(TRANSACTIONAL)
            )
    except EngineError:
        _undo(applied)
        for stream, mark in marks:
            stream.truncate(mark)
        raise
    if token is not None:
        _remember(engine, token, request)
    response: dict[str, Any] = {}
    if mode != "NONE":
        response["ConsumedCapacity"] = [
            c.response(mode, transaction=True) for c in consumed.values()
        ]
    if metrics == "SIZE":
        collections: dict[str, list[Any]] = {}
        for write in writes:
            if write.table.collections is not None and write.kind != "ConditionCheck":
                collections.setdefault(write.table.name, []).append(
                    collection_metrics(write.table, write.key)
                )
        response["ItemCollectionMetrics"] = collections
    return response


# A ClientRequestToken makes a TransactWriteItems idempotent for 10 minutes
# after the first call with it completed: the same call again changes nothing
# and succeeds, reporting the read units of reading its items; the same token
# with other parameters is IdempotentParameterMismatchException. (API
# Reference, TransactWriteItems, ClientRequestToken.)
TOKEN_LIFETIME = 600.0
MAX_TOKEN_LENGTH = 36
_RESPONSE_ONLY = (
    "ClientRequestToken",
    "ReturnConsumedCapacity",
    "ReturnItemCollectionMetrics",
)


def client_request_token(request: dict[str, Any]) -> str | None:
    token = request.get("ClientRequestToken")
    if token is None:
        return None
    if not isinstance(token, str) or not 1 <= len(token) <= MAX_TOKEN_LENGTH:
        raise ValidationException(
            f"1 validation error detected: Value '{token}' at 'clientRequestToken' "
            "failed to satisfy constraint: Member must have length less than or "
            f"equal to {MAX_TOKEN_LENGTH}"
        )
    return token


def _fingerprint(request: dict[str, Any]) -> str:
    """What the request does, as one stable text: its parameters other than
    the token and those that only shape the response (capacity, metrics)."""
    rest = {k: v for k, v in request.items() if k not in _RESPONSE_ONLY}
    text = json.dumps(rest, sort_keys=True, default=_bytes_text)
    return hashlib.sha256(text.encode()).hexdigest()


def _bytes_text(value: Any) -> str:
    if isinstance(value, (bytes, bytearray)):
        return "b64:" + base64.b64encode(value).decode()
    raise TypeError(f"not a request value: {value!r}")


def _repeated(engine: EngineState, token: str, request: dict[str, Any]) -> bool:
    """Whether a call with this token completed in the last 10 minutes;
    IdempotentParameterMismatchException if it had other parameters."""
    known = engine.transaction_tokens.get(token)
    if known is None:
        return False
    fingerprint, completed = known
    if engine.clock() - completed > TOKEN_LIFETIME:
        del engine.transaction_tokens[token]
        return False
    if fingerprint != _fingerprint(request):
        raise IdempotentParameterMismatchException(
            "Request parameters do not match the parameters of the original "
            "request with the same ClientRequestToken"
        )
    return True


def _remember(engine: EngineState, token: str, request: dict[str, Any]) -> None:
    now = engine.clock()
    tokens = engine.transaction_tokens
    if len(tokens) >= 10_000:  # forget the expired ones now and then
        for old in [t for t, (_, at) in tokens.items() if now - at > TOKEN_LIFETIME]:
            del tokens[old]
    tokens[token] = (_fingerprint(request), now)


def _repeat_response(writes: list[Write], mode: str) -> dict[str, Any]:
    """What a repeated call returns: no change, and the read units of
    reading its items if capacity was asked for."""
    response: dict[str, Any] = {}
    if mode != "NONE":
        consumed: dict[str, Consumed] = {}
        for write in writes:
            found = write.table.get(write.key)
            spent = consumed.setdefault(
                write.table.name, Consumed(write.table.name, False)
            )
            spent.table += read_units(found[1] if found else 0, STRONG)
        response["ConsumedCapacity"] = [
            c.response(mode, transaction=True) for c in consumed.values()
        ]
    return response


def _undo(applied: list[Resolved]) -> None:
    """Put back what the writes of a failed transaction replaced."""
    for one in reversed(applied):
        table = one.write.table
        old = one.old
        table.write(
            table.get(one.write.key),
            old,
            one.current[1] if one.current else 0,
            counted=False,
            recorded=False,
        )
