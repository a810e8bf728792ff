"""A boto3-compatible DynamoDB client over the in-memory engine.

Code written for boto3 runs unchanged against the simulator: swap
`boto3.client('dynamodb')` for `modeler.engine.client.Client()`. The client
has boto3's method names, keyword arguments and return shapes, and behaves
as boto3 does around the engine:

- parameters are validated against DynamoDB's service model with botocore's
  own validator, so a misspelt or mistyped parameter raises
  `botocore.exceptions.ParamValidationError`, as boto3 does before sending;
  binary values given as text are sent as their UTF-8 bytes, as botocore
  serializes them;
- errors are raised as `botocore.exceptions.ClientError` subclasses built by
  botocore from the same service model: `except
  client.exceptions.ConditionalCheckFailedException` and `except ClientError as
  e: e.response["Error"]["Code"]` both work (ValidationException, which
  DynamoDB's model does not list, arrives as a plain ClientError, as with
  boto3). `e.response` also carries DynamoDB's extras: `Item` with
  ReturnValuesOnConditionCheckFailure=ALL_OLD, `CancellationReasons` for a
  cancelled transaction. A failed conditional write still consumes capacity;
  the units are on the exception as `e.consumed_capacity`;
- every response carries `ResponseMetadata` (RequestId, HTTPStatusCode 200,
  HTTPHeaders, RetryAttempts);
- `get_paginator("query" | "scan" | "list_tables")` returns botocore's own
  paginator, so `paginate(...)` yields the same pages (and honours
  PaginationConfig: MaxItems, PageSize, StartingToken);
- `get_waiter("table_exists" | "table_not_exists")` returns botocore's waiter;
  tables are ACTIVE as soon as they are created, so `wait` returns at once.

Operations: create_table, delete_table, describe_table, list_tables,
put_item, get_item, update_item, delete_item, query, scan, batch_get_item,
batch_write_item, transact_get_items, transact_write_items, and PartiQL's
execute_statement, batch_execute_statement, execute_transaction. Values are
DynamoDB JSON as with boto3's client (`{"S": "x"}`, `{"N": "12.5"}`, binary
as bytes). There is no throttling: UnprocessedItems is always empty, and
UnprocessedKeys holds only what is past BatchGetItem's 16 MB response.

Beyond boto3: `Client(engine)` shares an existing `Engine` (`client.engine`
is the one in use); `Client(validate=False)` skips the parameter validation
(a quick check of botocore's rules, botocore's own validator for what it
cannot pass), which costs some microseconds a call; `load_items(table_name, items)`
adds native items (see `modeler.engine.types`) in bulk without capacity
accounting, for sample data; `read_items` answers a read with its items
as a given function makes them of the native items.

The engine follows DynamoDB where moto, the usual mock, does not: a Query or
Scan page that stops on its Limit carries a LastEvaluatedKey even when
nothing is left (the next page is empty), and a page reads the item that
takes it past 1 MB (1,048,576 bytes) before it stops.

Usage:

    from botocore.exceptions import ClientError
    from modeler.engine.client import Client

    client = Client()  # instead of boto3.client("dynamodb")
    client.create_table(
        TableName="Shop",
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                              {"AttributeName": "SK", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName="Shop")
    client.put_item(TableName="Shop",
                    Item={"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#2024-05-01"}})
    try:
        client.put_item(TableName="Shop",
                        Item={"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#2024-05-01"}},
                        ConditionExpression="attribute_not_exists(PK)")
    except client.exceptions.ConditionalCheckFailedException:
        pass  # the order exists
    try:
        client.query(TableName="Shop", KeyConditionExpression="SK = :sk",
                     ExpressionAttributeValues={":sk": {"S": "ORDER#2024-05-01"}})
    except ClientError as error:
        error.response["Error"]["Code"]  # "ValidationException": no PK condition
    response = client.query(
        TableName="Shop",
        KeyConditionExpression="PK = :pk AND begins_with(SK, :order)",
        ExpressionAttributeValues={":pk": {"S": "CUST#1"}, ":order": {"S": "ORDER#"}},
        ScanIndexForward=False,
        ReturnConsumedCapacity="TOTAL",
    )
    response["Items"], response["Count"], response["ConsumedCapacity"]
    for page in client.get_paginator("scan").paginate(TableName="Shop"):
        ...
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from random import getrandbits
from types import SimpleNamespace
from typing import Any

from botocore.errorfactory import ClientExceptionsFactory
from botocore.exceptions import ParamValidationError
from botocore.hooks import HierarchicalEmitter
from botocore.model import ServiceModel
from botocore.paginate import Paginator
from botocore.session import get_session
from botocore.validate import ParamValidator
from botocore.waiter import WaiterModel, create_waiter_with_client

from modeler.engine.engine import Engine
from modeler.engine.errors import EngineError
from modeler.engine.types import Item
from modeler.engine.validation import passes

_OPERATIONS = {
    "create_table": "CreateTable",
    "delete_table": "DeleteTable",
    "describe_table": "DescribeTable",
    "list_tables": "ListTables",
    "put_item": "PutItem",
    "get_item": "GetItem",
    "update_item": "UpdateItem",
    "delete_item": "DeleteItem",
    "query": "Query",
    "scan": "Scan",
    "batch_get_item": "BatchGetItem",
    "batch_write_item": "BatchWriteItem",
    "transact_get_items": "TransactGetItems",
    "transact_write_items": "TransactWriteItems",
    "execute_statement": "ExecuteStatement",
    "batch_execute_statement": "BatchExecuteStatement",
    "execute_transaction": "ExecuteTransaction",
}
_PAGINATED = {"query": "Query", "scan": "Scan", "list_tables": "ListTables"}
_WAITERS = {"table_exists": "TableExists", "table_not_exists": "TableNotExists"}
# The reads `read_items` answers: the engine's method of each.
_READS = {"GetItem": "get_item", "Query": "query", "Scan": "scan"}


@functools.cache
def _models() -> tuple[ServiceModel, Any, WaiterModel, Any]:
    """DynamoDB's service, paginator and waiter models and botocore's client
    exceptions, loaded once per process (about a quarter of a second)."""
    session = get_session()
    service = session.get_service_model("dynamodb")
    exceptions = ClientExceptionsFactory().create_client_exceptions(service)
    return (
        service,
        session.get_paginator_model("dynamodb"),
        session.get_waiter_model("dynamodb"),
        exceptions,
    )


@functools.cache
def _quick_check(operation: str) -> Callable[[Any], bool]:
    """True for parameters botocore's validator would accept (False: it
    decides, and words the errors). Compiled on an operation's first call,
    from the shapes the operations compiled before had left (about a
    millisecond for the first, tens of microseconds for the next ones)."""
    return passes(_models()[0].operation_model(operation).input_shape, _COMPILED)


# The quick checks of DynamoDB's shapes by name, shared by the operations.
_COMPILED: dict[str, Callable[[Any], bool]] = {}


class Client:
    """boto3's DynamoDB client, answered by the in-memory engine."""

    def __init__(
        self,
        engine: Engine | None = None,
        *,
        region_name: str = "us-east-1",
        validate: bool = True,
    ) -> None:
        self.engine = engine if engine is not None else Engine(region=region_name)
        self._validate = validate
        service, _, _, exceptions = _models()
        self.exceptions = exceptions
        self.meta = SimpleNamespace(
            region_name=region_name,
            service_model=service,
            endpoint_url="memory://dynamodb",
            method_to_api_mapping=dict(_OPERATIONS),
            events=HierarchicalEmitter(),
        )
        self._validator = ParamValidator()

    def _call(
        self,
        operation: str,
        method: Callable[[dict[str, Any]], dict[str, Any]],
        params: dict[str, Any],
    ) -> dict[str, Any]:
        if self._validate and _quick_check(operation)(params):
            request = params  # the quick check passes no binary value as text
        else:
            if self._validate:
                shape = self.meta.service_model.operation_model(operation).input_shape
                report = self._validator.validate(params, shape)
                if report.has_errors():
                    raise ParamValidationError(report=report.generate_report())
            request = _text_blobs_as_bytes(params)
        # 32 random hex digits, as uuid4().hex gave: from the random module
        # (reseeded in a forked worker), not os.urandom's system call; the
        # bytes' hex is f"{bits:032X}" at half the cost.
        request_id = getrandbits(128).to_bytes(16).hex().upper()
        try:
            response = method(request)
        except EngineError as exc:
            error = exc.response
            error["ResponseMetadata"] = _metadata(request_id, 400)
            raised = self.exceptions.from_code(exc.code)(error, operation)
            raised.consumed_capacity = getattr(exc, "consumed_capacity", None)
            raise raised from None
        response["ResponseMetadata"] = _metadata(request_id, 200)
        return response

    # --- Operations (boto3's names and keyword arguments) ----------------------

    def create_table(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("CreateTable", self.engine.create_table, kwargs)

    def update_table(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("UpdateTable", self.engine.update_table, kwargs)

    def delete_table(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("DeleteTable", self.engine.delete_table, kwargs)

    def describe_table(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("DescribeTable", self.engine.describe_table, kwargs)

    def list_tables(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("ListTables", self.engine.list_tables, kwargs)

    def put_item(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("PutItem", self.engine.put_item, kwargs)

    def get_item(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("GetItem", self.engine.get_item, kwargs)

    def update_item(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("UpdateItem", self.engine.update_item, kwargs)

    def delete_item(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("DeleteItem", self.engine.delete_item, kwargs)

    def query(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("Query", self.engine.query, kwargs)

    def scan(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("Scan", self.engine.scan, kwargs)

    def batch_get_item(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("BatchGetItem", self.engine.batch_get_item, kwargs)

    def batch_write_item(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("BatchWriteItem", self.engine.batch_write_item, kwargs)

    def transact_get_items(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("TransactGetItems", self.engine.transact_get_items, kwargs)

    def transact_write_items(self, **kwargs: Any) -> dict[str, Any]:
        return self._call(
            "TransactWriteItems", self.engine.transact_write_items, kwargs
        )

    def execute_statement(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("ExecuteStatement", self.engine.execute_statement, kwargs)

    def batch_execute_statement(self, **kwargs: Any) -> dict[str, Any]:
        return self._call(
            "BatchExecuteStatement", self.engine.batch_execute_statement, kwargs
        )

    def execute_transaction(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("ExecuteTransaction", self.engine.execute_transaction, kwargs)

    # --- Paginators and waiters ------------------------------------------------

    def can_paginate(self, operation_name: str) -> bool:
        return operation_name in _PAGINATED

    def get_paginator(self, operation_name: str) -> Paginator:
        if operation_name not in _PAGINATED:
            raise ValueError(f"Operation cannot be paginated: {operation_name}")
        service, paginators, _, _ = _models()
        name = _PAGINATED[operation_name]
        return Paginator(
            getattr(self, operation_name),
            paginators.get_paginator(name),
            service.operation_model(name),
        )

    @property
    def waiter_names(self) -> list[str]:
        return sorted(_WAITERS)

    def get_waiter(self, waiter_name: str) -> Any:
        if waiter_name not in _WAITERS:
            raise ValueError(f"Waiter does not exist: {waiter_name}")
        _, _, waiters, _ = _models()
        return create_waiter_with_client(_WAITERS[waiter_name], waiters, self)

    # --- Beyond boto3 -------------------------------------------------------------

    def load_items(
        self,
        table_name: str,
        items: Iterable[Item],
        sizes: list[int] | None = None,
    ) -> int:
        """Add native items to a table in bulk, without capacity accounting
        (see `Table.load`). Returns how many were loaded."""
        try:
            return self.engine.load_items(table_name, items, sizes)
        except EngineError as exc:
            raise self.exceptions.from_code(exc.code)(
                exc.response, "LoadItems"
            ) from None

    def read_items(
        self,
        operation: str,
        item_out: Callable[[Item], Any],
        request: dict[str, Any],
    ) -> dict[str, Any]:
        """GetItem, Query or Scan ("GetItem", "Query", "Scan") with the
        request's boto3 parameters, answered as the client's method answers
        but with each item as `item_out` makes it of the engine's native item
        rather than in DynamoDB JSON (`types.item_read_back`: as that JSON
        converted back gives it): for the simulator, which reads native
        items and would otherwise convert each one to JSON and back."""
        read = getattr(self.engine, _READS[operation])
        return self._call(
            operation, lambda params: read(params, item_out=item_out), request
        )

    def close(self) -> None:
        """boto3 clients can be closed; there is nothing to release here."""


_TEXTUAL = frozenset({"S", "N", "BOOL", "NULL", "SS", "NS"})


def _text_blobs_as_bytes(value: Any) -> Any:
    """The request with binary values given as text encoded to UTF-8 bytes,
    as botocore serializes them (`{"B": "abc"}` sends the bytes b"abc");
    `value` itself when it has none."""
    if isinstance(value, dict):
        if len(value) == 1:
            ((kind, data),) = value.items()
            if not isinstance(data, dict):  # an attribute value, not a map
                if kind in _TEXTUAL:
                    return value
                if kind == "B" and isinstance(data, str):
                    return {"B": data.encode("utf-8")}
                if kind == "BS" and isinstance(data, list):
                    return {
                        "BS": [
                            m.encode("utf-8") if isinstance(m, str) else m for m in data
                        ]
                    }
        changed = None
        for key, element in value.items():
            converted = _text_blobs_as_bytes(element)
            if converted is not element:
                changed = changed if changed is not None else dict(value)
                changed[key] = converted
        return value if changed is None else changed
    if isinstance(value, list):
        converted_list = [_text_blobs_as_bytes(element) for element in value]
        if any(a is not b for a, b in zip(converted_list, value, strict=True)):
            return converted_list
    return value


def _metadata(request_id: str, status: int) -> dict[str, Any]:
    return {
        "RequestId": request_id,
        "HTTPStatusCode": status,
        "HTTPHeaders": {
            "server": "Server",
            "content-type": "application/x-amz-json-1.0",
            "x-amzn-requestid": request_id,
        },
        "RetryAttempts": 0,
    }
