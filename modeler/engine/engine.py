"""The in-memory DynamoDB: tables by name, one method per operation.

Each method takes the request and returns the response of the DynamoDB API
operation of the same name, in the wire format (DynamoDB JSON:
`{"PK": {"S": "CUST#1"}}`), binary values as bytes as boto3 gives them, and
raises the errors of `modeler.engine.errors` with DynamoDB's codes and
messages. `modeler.engine.client.Client` puts boto3's face on it.

    engine = Engine()
    engine.create_table({"TableName": "Shop", "KeySchema": [...], ...})
    engine.put_item({"TableName": "Shop", "Item": {"PK": {"S": "C#1"}, ...}})
    engine.query({"TableName": "Shop", "KeyConditionExpression": "PK = :pk",
                  "ExpressionAttributeValues": {":pk": {"S": "C#1"}}})

`load_items` is the fast path for sample data: native items (see `types`),
keys checked, no capacity counted.

The engine has no throttling: UnprocessedItems is always empty, and
UnprocessedKeys holds only the keys past BatchGetItem's 16 MB response
limit; tables are ACTIVE as soon as they are created. It is not
thread-safe (reads fill caches too): callers that share one serialize their
calls, as the simulation cache does with a lock per loaded table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from modeler.engine import control, reads, streams, writes
from modeler.engine.constraints import (
    bounded,
    check_create_table,
    check_item_write,
    require_table_name,
)
from modeler.engine.errors import (
    ResourceInUseException,
    ResourceNotFoundException,
    ValidationException,
)
from modeler.engine.legacy import translate
from modeler.engine.requests import check_parameters
from modeler.engine.schema import CREATE_TABLE_PARAMETERS, table_name, table_spec
from modeler.engine.streams import Stream
from modeler.engine.table import Table
from modeler.engine.types import Item
from modeler.engine.wire import item_to_wire

MAX_LIST_TABLES = 100
# How GetItem, Query and Scan give each item they return: DynamoDB JSON by
# default; the endpoint takes the JSON text it sends, without the dicts.
ItemOut = Callable[[Item], Any]


class Engine:
    """Tables by name and the DynamoDB operations on them."""

    def __init__(
        self,
        *,
        region: str = "us-east-1",
        account: str = "123456789012",
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.region = region
        self.account = account
        self.tables: dict[str, Table] = {}
        # Seconds, for the 10 minutes a ClientRequestToken is remembered.
        self.clock = clock
        # ClientRequestToken -> (the request's fingerprint, when it completed).
        self.transaction_tokens: dict[str, tuple[str, float]] = {}
        # Seconds since the epoch: TTL expiry, stream records' times.
        self.wall_clock = wall_clock
        # Every stream, enabled or not, oldest first; the last sequence number.
        self.streams: list[Stream] = []
        self._sequence = 10**20
        self._sequence_lock = threading.Lock()

    def table(self, name: Any) -> Table:
        """The table called `name`, or ResourceNotFoundException."""
        table = self.tables.get(name) if isinstance(name, str) else None
        if table is None:
            table_name(name)
            raise ResourceNotFoundException("Requested resource not found")
        return table

    # --- Tables -------------------------------------------------------------

    def create_table(self, request: dict[str, Any]) -> dict[str, Any]:
        require_table_name(request)
        check_create_table(request)
        check_parameters(
            request,
            CREATE_TABLE_PARAMETERS,
            ("TableName", "AttributeDefinitions", "KeySchema"),
        )
        spec = table_spec(request)
        stream = control.stream_of_create(request)
        tags = control.check_tags(request["Tags"]) if "Tags" in request else []
        if spec.name in self.tables:
            raise ResourceInUseException(f"Table already exists: {spec.name}")
        table = Table(spec, region=self.region, account=self.account)
        table.clock = self.clock
        control.add_tags(table, tags)
        self.tables[spec.name] = table
        if stream:
            self.set_stream(table, stream)
        return {"TableDescription": table.describe()}

    def set_stream(self, table: Table, spec: dict[str, Any] | None) -> None:
        """Enable a table's stream (`spec`: its StreamViewType) or, with
        None, disable it."""
        if table.stream is not None:
            table.stream.close()
            table.stream = None
        if spec:
            stream = Stream(
                table_name=table.name,
                table_arn=table.arn,
                key_schema=table.spec.key.describe(),
                key_attributes=table.key_attributes,
                view_type=spec["StreamViewType"],
                region=self.region,
                wall_clock=self.wall_clock,
                sequence=self.new_sequence,
            )
            table.stream = stream
            self.streams.append(stream)

    def streams_state(self) -> dict[str, Any]:
        """Every stream's state (see `Stream.state`) and the last sequence
        number, for a restart to give them back (`restore_streams`)."""
        return {
            "sequence": self._sequence,
            "streams": [stream.state() for stream in self.streams],
        }

    def restore_streams(self, state: dict[str, Any]) -> None:
        """Replace the streams with those `streams_state` described, each
        enabled one the stream of its table again."""
        self._sequence = state["sequence"]
        self.streams = []
        for saved in state["streams"]:
            stream = Stream.restored(
                saved,
                region=self.region,
                wall_clock=self.wall_clock,
                sequence=self.new_sequence,
            )
            self.streams.append(stream)
            table = self.tables.get(stream.table_name)
            if stream.enabled and table is not None:
                table.stream = stream

    def new_sequence(self) -> int:
        # Streams of different tables may be written at once (the endpoint
        # locks per table): the one counter they share is advanced under
        # its own lock.
        with self._sequence_lock:
            self._sequence += 1
            return self._sequence

    @property
    def next_sequence(self) -> int:
        return self._sequence + 1

    def delete_table(self, request: dict[str, Any]) -> dict[str, Any]:
        require_table_name(request)
        check_parameters(request, ("TableName",), ("TableName",))
        name = request["TableName"]
        if name not in self.tables:
            table_name(name)
            raise ResourceNotFoundException(
                f"Requested resource not found: Table: {name} not found"
            )
        table = self.tables[name]
        if dict(table.spec.extras).get("DeletionProtectionEnabled"):
            raise ValidationException(
                "Resource cannot be deleted as it is currently protected against "
                f"deletion. Disable deletion protection first. Table: {name}"
            )
        del self.tables[name]
        description = table.describe("DELETING")
        self.set_stream(table, None)
        return {"TableDescription": description}

    def describe_table(self, request: dict[str, Any]) -> dict[str, Any]:
        require_table_name(request)
        check_parameters(request, ("TableName",), ("TableName",))
        name = request["TableName"]
        if name not in self.tables:
            table_name(name)
            raise ResourceNotFoundException(
                f"Requested resource not found: Table: {name} not found"
            )
        return {"Table": self.tables[name].describe()}

    def list_tables(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        request = check_parameters(request or {}, ("ExclusiveStartTableName", "Limit"))
        limit = request.get("Limit", MAX_LIST_TABLES)
        limit = bounded(limit, "limit", 1, MAX_LIST_TABLES)
        names = sorted(self.tables)
        start = request.get("ExclusiveStartTableName")
        if start is not None:
            names = [n for n in names if n > start]
        response: dict[str, Any] = {"TableNames": names[:limit]}
        if len(names) > limit:
            response["LastEvaluatedTableName"] = names[limit - 1]
        return response

    def load_items(
        self,
        table_name: str,
        items: Iterable[Item],
        sizes: list[int] | None = None,
    ) -> int:
        """Add native items to a table at once (sample data): keys and
        sizes are checked, no capacity is counted, each item's size is added
        to `sizes` when given (see `Table.load`). Returns how many."""
        return self.table(table_name).load(items, sizes)

    # --- Items --------------------------------------------------------------

    def get_item(
        self, request: dict[str, Any], *, item_out: ItemOut = item_to_wire
    ) -> dict[str, Any]:
        return reads.get_item(self, translate("GetItem", request), item_out=item_out)

    def query(
        self, request: dict[str, Any], *, item_out: ItemOut = item_to_wire
    ) -> dict[str, Any]:
        return reads.query(self, translate("Query", request), item_out=item_out)

    def scan(
        self, request: dict[str, Any], *, item_out: ItemOut = item_to_wire
    ) -> dict[str, Any]:
        return reads.scan(self, translate("Scan", request), item_out=item_out)

    def batch_get_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.batch_get_item(self, translate("BatchGetItem", request))

    def transact_get_items(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.transact_get_items(self, request)

    def put_item(self, request: dict[str, Any]) -> dict[str, Any]:
        check_item_write("Put", request)
        return writes.put_item(self, translate("PutItem", request))

    def update_item(self, request: dict[str, Any]) -> dict[str, Any]:
        check_item_write("Update", request)
        return writes.update_item(self, translate("UpdateItem", request))

    def delete_item(self, request: dict[str, Any]) -> dict[str, Any]:
        check_item_write("Delete", request)
        return writes.delete_item(self, translate("DeleteItem", request))

    def batch_write_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.batch_write_item(self, request)

    def transact_write_items(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.transact_write_items(self, request)

    # --- PartiQL (modeler.engine.partiql) ------------------------------------
    # Imported on the first statement: the parser's import is a tenth of a
    # second of the endpoint's start-up, and most clients never send one.

    def execute_statement(self, request: dict[str, Any]) -> dict[str, Any]:
        from modeler.engine.partiql import operations as partiql

        return partiql.execute_statement(self, request)

    def batch_execute_statement(self, request: dict[str, Any]) -> dict[str, Any]:
        from modeler.engine.partiql import operations as partiql

        return partiql.batch_execute_statement(self, request)

    def execute_transaction(self, request: dict[str, Any]) -> dict[str, Any]:
        from modeler.engine.partiql import operations as partiql

        return partiql.execute_transaction(self, request)

    # --- The control plane (modeler.engine.control) ---------------------------

    def update_table(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.update_table(self, request)

    def update_time_to_live(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.update_time_to_live(self, request)

    def describe_time_to_live(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.describe_time_to_live(self, request)

    def tag_resource(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.tag_resource(self, request)

    def untag_resource(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.untag_resource(self, request)

    def list_tags_of_resource(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.list_tags_of_resource(self, request)

    def describe_limits(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.describe_limits(self, request)

    def describe_endpoints(self, request: dict[str, Any]) -> dict[str, Any]:
        return control.describe_endpoints(self, request)

    def sweep_expired(self) -> list[tuple[str, dict[str, Any]]]:
        """Delete every item whose TTL has passed on the wall clock, as
        DynamoDB's background process does (a stream records each deletion
        as the service's); the (table name, key) of each, in DynamoDB JSON."""
        now = self.wall_clock()
        deleted = []
        for table in self.tables.values():
            for item in control.expired(table, now):
                current = table.get(item)
                if current is None:
                    continue
                table.write(current, None, 0, counted=False, recorded=False)
                if table.stream is not None:
                    table.stream.append(current[0], None, service=True)
                deleted.append((table.name, item_to_wire(table.key_of(item))))
        return deleted

    # --- DynamoDB Streams (modeler.engine.streams) -------------------------------

    def streams_list_streams(self, request: dict[str, Any]) -> dict[str, Any]:
        return streams.list_streams(self, request)

    def streams_describe_stream(self, request: dict[str, Any]) -> dict[str, Any]:
        return streams.describe_stream(self, request)

    def streams_get_shard_iterator(self, request: dict[str, Any]) -> dict[str, Any]:
        return streams.get_shard_iterator(self, request)

    def streams_get_records(self, request: dict[str, Any]) -> dict[str, Any]:
        return streams.get_records(self, request)
