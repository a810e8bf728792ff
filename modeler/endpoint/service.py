"""Routing a request to the engine: `X-Amz-Target` names the operation
(`DynamoDB_20120810.GetItem`, `DynamoDBStreams_20120810.GetRecords`), the
body is its request. An item operation holds the locks of its tables, any
other the whole engine (see `locks`), so concurrent clients never see an
operation half done, and clients of different tables do not wait on each
other.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection
from typing import Any

from modeler.endpoint.locks import TableLocks
from modeler.endpoint.protocol import (
    ProtocolError,
    decode_request,
    encode_items_response,
    encode_response,
    error_body,
    item_json,
)
from modeler.engine.engine import Engine
from modeler.engine.errors import EngineError

DYNAMODB_PREFIX = "DynamoDB_20120810."
STREAMS_PREFIX = "DynamoDBStreams_20120810."

# DynamoDB's operations and DynamoDB Streams': each is answered by the
# engine's method of the same name in snake case (Streams': `streams_`
# first); the others, and any the engine lacks, are unknown operations.
DYNAMODB_OPERATIONS = frozenset(
    {
        "BatchExecuteStatement",
        "BatchGetItem",
        "BatchWriteItem",
        "CreateTable",
        "DeleteItem",
        "DeleteTable",
        "DescribeEndpoints",
        "DescribeLimits",
        "DescribeTable",
        "DescribeTimeToLive",
        "ExecuteStatement",
        "ExecuteTransaction",
        "GetItem",
        "ListTables",
        "ListTagsOfResource",
        "PutItem",
        "Query",
        "Scan",
        "TagResource",
        "TransactGetItems",
        "TransactWriteItems",
        "UntagResource",
        "UpdateItem",
        "UpdateTable",
        "UpdateTimeToLive",
    }
)
STREAMS_OPERATIONS = frozenset(
    {"DescribeStream", "GetRecords", "GetShardIterator", "ListStreams"}
)
# The operations that change what a restart must restore (see `storage`).
WRITES = frozenset(
    {
        "CreateTable",
        "DeleteTable",
        "UpdateTable",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "BatchWriteItem",
        "TransactWriteItems",
        "UpdateTimeToLive",
        "TagResource",
        "UntagResource",
        "ExecuteStatement",
        "BatchExecuteStatement",
        "ExecuteTransaction",
    }
)


# The operations on items, which hold only their tables' locks.
_ONE_TABLE = frozenset(
    {"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan"}
)
_BATCHES = frozenset({"BatchGetItem", "BatchWriteItem"})
# The reads whose items the engine gives as the JSON text the answer sends
# (see `protocol.item_json`).
_ITEMS_AS_TEXT = frozenset({"GetItem", "Query", "Scan"})
_TRANSACTIONS = frozenset({"TransactGetItems", "TransactWriteItems"})


def tables_of(name: str, request: Any) -> Collection[str]:
    """The tables an item operation touches; none for an operation (or a
    request too malformed to tell) that holds the whole engine."""
    if not isinstance(request, dict):
        return ()
    if name in _ONE_TABLE:
        table = request.get("TableName")
        return (table,) if isinstance(table, str) else ()
    if name in _BATCHES:
        requested = request.get("RequestItems")
        return tuple(requested) if isinstance(requested, dict) else ()
    if name in _TRANSACTIONS and "ClientRequestToken" not in request:
        # (A token is remembered engine-wide: such a transaction holds it.)
        names = set()
        for action in request.get("TransactItems") or ():
            if not isinstance(action, dict) or len(action) != 1:
                return ()
            (spec,) = action.values()
            table = spec.get("TableName") if isinstance(spec, dict) else None
            if not isinstance(table, str):
                return ()
            names.add(table)
        return names
    return ()


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Service:
    """The engine behind DynamoDB's and DynamoDB Streams' targets.

    `on_write(operation, body)` is called, under the lock, after each
    operation of `WRITES` that succeeded (the data directory's journal)."""

    def __init__(
        self,
        engine: Engine | None = None,
        *,
        on_write: Callable[[str, bytes], None] | None = None,
    ) -> None:
        self.engine = engine if engine is not None else Engine()
        # `with service.lock:` holds the whole engine.
        self.lock = TableLocks()
        # Writes to different tables finish side by side; their journal
        # entries are appended one at a time.
        self._journal = threading.Lock()
        self.on_write = on_write
        # Target -> (operation name, the engine's method), as found.
        self._operations: dict[str | None, tuple[str, Callable[..., Any]]] = {}

    def operation(self, target: str | None) -> tuple[str, Callable[..., Any]]:
        """The operation a target names, or UnknownOperationException."""
        found = self._operations.get(target)
        if found is not None:
            return found
        service, _, name = (target or "").partition(".")
        method = None
        if service + "." == DYNAMODB_PREFIX and name in DYNAMODB_OPERATIONS:
            method = getattr(self.engine, _snake(name), None)
        elif service + "." == STREAMS_PREFIX and name in STREAMS_OPERATIONS:
            method = getattr(self.engine, "streams_" + _snake(name), None)
        if method is None:
            raise ProtocolError("UnknownOperationException", "")
        self._operations[target] = name, method
        return name, method

    def handle(self, target: str | None, body: bytes) -> tuple[int, bytes]:
        """The status and body answering one request."""
        try:
            name, method = self._operations.get(target) or self.operation(target)
            request = decode_request(body)
            if name in _ONE_TABLE:  # most requests: `tables_of`, inlined
                table = request.get("TableName")
                tables: Collection[str] = (table,) if type(table) is str else ()
            else:
                tables = tables_of(name, request)
            held = self.lock.hold(tables, self.engine.tables.__contains__)
            if held is not None:
                try:
                    response = self._run(name, method, request, body)
                finally:
                    self.lock.release(held)
            else:
                with self.lock:
                    response = self._run(name, method, request, body)
                    deleted = (
                        request.get("TableName") if name == "DeleteTable" else None
                    )
                    if isinstance(deleted, str):
                        self.lock.forget(deleted)
        except EngineError as error:
            return error_body(error)
        if name in _ITEMS_AS_TEXT:
            return 200, encode_items_response(response)
        return 200, encode_response(response)

    def _run(
        self,
        name: str,
        method: Callable[..., dict[str, Any]],
        request: dict[str, Any],
        body: bytes,
    ) -> dict[str, Any]:
        if name in _ITEMS_AS_TEXT:
            return method(request, item_out=item_json)
        response = method(request)
        if self.on_write is not None and name in WRITES:
            with self._journal:
                self.on_write(name, body)
        return response

    def sweep(self) -> int:
        """Delete the items whose TTL has passed (see `Engine.sweep_expired`);
        how many were deleted. Each deletion is journalled as a DeleteItem."""
        sweeper = getattr(self.engine, "sweep_expired", None)
        if sweeper is None:
            return 0
        with self.lock:
            deleted = sweeper()
            if self.on_write is not None:
                for table_name, key in deleted:
                    self.on_write(
                        "DeleteItem",
                        encode_response({"TableName": table_name, "Key": key}),
                    )
        return len(deleted)
