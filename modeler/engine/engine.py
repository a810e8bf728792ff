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

import time
from collections.abc import Callable, Iterable
from typing import Any

from modeler.engine import reads, writes
from modeler.engine.errors import (
    ResourceInUseException,
    ResourceNotFoundException,
    ValidationException,
)
from modeler.engine.legacy import translate
from modeler.engine.requests import check_parameters
from modeler.engine.schema import CREATE_TABLE_PARAMETERS, table_name, table_spec
from modeler.engine.table import Table
from modeler.engine.types import Item

MAX_LIST_TABLES = 100


class Engine:
    """Tables by name and the DynamoDB operations on them."""

    def __init__(
        self,
        *,
        region: str = "us-east-1",
        account: str = "123456789012",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.region = region
        self.account = account
        self.tables: dict[str, Table] = {}
        # Seconds, for the 10 minutes a ClientRequestToken is remembered.
        self.clock = clock
        # ClientRequestToken -> (the request's fingerprint, when it completed).
        self.transaction_tokens: dict[str, tuple[str, float]] = {}

    def table(self, name: Any) -> Table:
        """The table called `name`, or ResourceNotFoundException."""
        table = self.tables.get(name) if isinstance(name, str) else None
        if table is None:
            table_name(name)
            raise ResourceNotFoundException("Requested resource not found")
        return table

    # --- Tables -------------------------------------------------------------

    def create_table(self, request: dict[str, Any]) -> dict[str, Any]:
        check_parameters(
            request,
            CREATE_TABLE_PARAMETERS,
            ("TableName", "AttributeDefinitions", "KeySchema"),
        )
        spec = table_spec(request)
        if spec.name in self.tables:
            raise ResourceInUseException(f"Table already exists: {spec.name}")
        table = Table(spec, region=self.region, account=self.account)
        self.tables[spec.name] = table
        return {"TableDescription": table.describe()}

    def delete_table(self, request: dict[str, Any]) -> dict[str, Any]:
        check_parameters(request, ("TableName",), ("TableName",))
        name = request["TableName"]
        if name not in self.tables:
            table_name(name)
            raise ResourceNotFoundException(
                f"Requested resource not found: Table: {name} not found"
            )
        table = self.tables.pop(name)
        return {"TableDescription": table.describe("DELETING")}

    def describe_table(self, request: dict[str, Any]) -> dict[str, Any]:
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
        if not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_TABLES:
            raise ValidationException(
                f"1 validation error detected: Value '{limit}' at 'limit' failed to "
                "satisfy constraint: Member must have value less than or equal to "
                f"{MAX_LIST_TABLES}"
            )
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

    def get_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.get_item(self, translate("GetItem", request))

    def query(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.query(self, translate("Query", request))

    def scan(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.scan(self, translate("Scan", request))

    def batch_get_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.batch_get_item(self, translate("BatchGetItem", request))

    def transact_get_items(self, request: dict[str, Any]) -> dict[str, Any]:
        return reads.transact_get_items(self, request)

    def put_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.put_item(self, translate("PutItem", request))

    def update_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.update_item(self, translate("UpdateItem", request))

    def delete_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.delete_item(self, translate("DeleteItem", request))

    def batch_write_item(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.batch_write_item(self, request)

    def transact_write_items(self, request: dict[str, Any]) -> dict[str, Any]:
        return writes.transact_write_items(self, request)
