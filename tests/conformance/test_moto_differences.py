"""Where moto differs from DynamoDB, the conformance tests do not compare
with it; these tests pin DynamoDB's documented behaviour on the engine
instead. Each docstring says what DynamoDB does and what moto 5.2.5 does.

They run on the engine's Client alone (no moto server needed)."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from modeler.engine.client import Client

TABLE = "Differences"


@pytest.fixture
def client() -> Client:
    """A table keyed by pk (S) and sk (N), with a GSI keyed by the string
    status."""
    client = Client()
    client.create_table(
        TableName=TABLE,
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
            {"AttributeName": "status", "AttributeType": "S"},
        ],
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "ByStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    return client


def put(client: Client, sk: int | str, **attributes: Any) -> None:
    item = {"pk": {"S": "P"}, "sk": {"N": str(sk)}} | attributes
    client.put_item(TableName=TABLE, Item=item)


def query(client: Client, condition: str = "", **request: Any) -> dict[str, Any]:
    values = request.pop("values", {})
    return client.query(
        TableName=TABLE,
        KeyConditionExpression="pk = :p" + (f" AND {condition}" if condition else ""),
        ExpressionAttributeValues={":p": {"S": "P"}} | values,
        **request,
    )


def refused(call: Any, **request: Any) -> str:
    """The message of the ValidationException the call raises."""
    with pytest.raises(ClientError) as error:
        call(**request)
    assert error.value.response["Error"]["Code"] == "ValidationException"
    return error.value.response["Error"]["Message"]


def test_consumed_capacity_counts_the_bytes_read(client: Client) -> None:
    """A Query costs its bytes read rounded up to 4 KB, halved when
    eventually consistent; a filter or Select=COUNT does not reduce it.
    moto reports a fixed 1.0 unit for any Query or Scan (0.5 for an
    UpdateItem), so ConsumedCapacity is never compared with it."""
    for sk in (1, 2, 3):
        put(client, sk, d={"S": "x" * 3000})  # 3,008 bytes each, 9,024 in all
    total = {"ReturnConsumedCapacity": "TOTAL"}
    assert query(client, **total)["ConsumedCapacity"]["CapacityUnits"] == 1.5
    strong = query(client, ConsistentRead=True, **total)
    assert strong["ConsumedCapacity"]["CapacityUnits"] == 3.0
    filtered = query(
        client,
        FilterExpression="d = :none",
        values={":none": {"S": "none"}},
        **total,
    )
    assert filtered["Count"] == 0
    assert filtered["ConsumedCapacity"]["CapacityUnits"] == 1.5
    counted = query(client, Select="COUNT", **total)
    assert counted["ConsumedCapacity"]["CapacityUnits"] == 1.5
    written = client.put_item(
        TableName=TABLE,
        Item={"pk": {"S": "P"}, "sk": {"N": "4"}, "d": {"S": "x" * 3000}},
        **total,
    )
    assert written["ConsumedCapacity"]["CapacityUnits"] == 3.0


def test_a_filter_on_a_key_attribute_is_refused(client: Client) -> None:
    """DynamoDB refuses a Query FilterExpression on the partition or sort
    key (it belongs in the KeyConditionExpression); moto applies it."""
    message = refused(
        query, client=client, FilterExpression="sk > :one", values={":one": {"N": "1"}}
    )
    assert message == (
        "Filter Expression can only contain non-primary key attributes: Primary "
        "key attribute: sk"
    )


def test_unused_expression_names_and_values_are_refused(client: Client) -> None:
    """DynamoDB refuses ExpressionAttributeValues and ExpressionAttributeNames
    that no expression of the request uses; moto ignores them."""
    assert "unused in expressions: keys: {:extra}" in refused(
        query, client=client, values={":extra": {"N": "1"}}
    )
    assert "unused in expressions: keys: {#extra}" in refused(
        query, client=client, ExpressionAttributeNames={"#extra": "d"}
    )


def test_an_index_key_of_the_wrong_type_is_refused(client: Client) -> None:
    """An item whose GSI key attribute has another type than the index
    declares is refused; moto stores it and even lists it in the index."""
    message = refused(
        client.put_item,
        TableName=TABLE,
        Item={"pk": {"S": "P"}, "sk": {"N": "1"}, "status": {"N": "5"}},
    )
    assert "Type mismatch for Index Key status Expected: S Actual: N" in message
    assert client.scan(TableName=TABLE)["Count"] == 0


@pytest.mark.parametrize("operation", ["query", "scan"])
def test_a_page_that_stops_on_its_limit_carries_a_last_evaluated_key(
    client: Client, operation: str
) -> None:
    """DynamoDB stops reading when Limit is reached without looking ahead,
    so a last page that is exactly full still has a LastEvaluatedKey and
    the page after it is empty. moto looks ahead and leaves it out."""
    for sk in (1, 2):
        put(client, sk)
    read = query if operation == "query" else client.scan
    request: dict[str, Any] = {"Limit": 2}
    if operation == "scan":
        request["TableName"] = TABLE
    full = read(**request) if operation == "scan" else query(client, **request)
    assert full["Count"] == 2
    assert full["LastEvaluatedKey"] == {"pk": {"S": "P"}, "sk": {"N": "2"}}
    request["ExclusiveStartKey"] = full["LastEvaluatedKey"]
    after = read(**request) if operation == "scan" else query(client, **request)
    assert (after["Count"], after["ScannedCount"]) == (0, 0)
    assert "LastEvaluatedKey" not in after


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("1.50", "1.5"),
        ("1.0", "1"),
        ("007", "7"),
        ("+3", "3"),
        ("-0.0", "0"),
        ("1E2", "100"),
        ("1.5e2", "150"),
        ("1e-3", "0.001"),
        ("1E-8", "0.00000001"),
    ],
)
def test_numbers_come_back_normalized(client: Client, sent: str, stored: str) -> None:
    """DynamoDB stores numbers in a canonical form: no leading or trailing
    zeros, no sign on zero, no exponent. moto returns a number as it was
    sent (and a projected one, or the result of arithmetic, in Python's
    notation: "1E-8", "-0.90"), so the conformance tests compare moto's
    numbers in canonical form."""
    put(client, 1, n={"N": sent})
    key = {"pk": {"S": "P"}, "sk": {"N": "1"}}
    assert client.get_item(TableName=TABLE, Key=key)["Item"]["n"] == {"N": stored}
    projected = client.get_item(TableName=TABLE, Key=key, ProjectionExpression="n")
    assert projected["Item"] == {"n": {"N": stored}}


def test_between_with_a_greater_low_bound_is_refused(client: Client) -> None:
    """BETWEEN a AND b needs a <= b, else DynamoDB raises a
    ValidationException; moto returns no items."""
    message = refused(
        query,
        client=client,
        condition="sk BETWEEN :a AND :b",
        values={":a": {"N": "3"}, ":b": {"N": "1"}},
    )
    assert "requires upper bound to be greater than or equal to lower bound" in message


def test_begins_with_on_a_number_sort_key_is_refused(client: Client) -> None:
    """begins_with takes S and B sort keys only; on an N sort key DynamoDB
    raises a ValidationException, moto fails with an HTTP 500."""
    message = refused(
        query,
        client=client,
        condition="begins_with(sk, :a)",
        values={":a": {"N": "1"}},
    )
    assert "operator or function: begins_with, operand type: N" in message


@pytest.mark.parametrize(
    ("condition", "values"),
    [
        ("", {":p": {"N": "1"}}),
        ("sk = :s", {":s": {"S": "1"}}),
    ],
    ids=["partition", "sort"],
)
def test_key_condition_values_must_have_the_key_types(
    client: Client, condition: str, values: dict[str, Any]
) -> None:
    """A key condition value of another type than the key attribute is a
    ValidationException in DynamoDB; moto just finds nothing."""
    message = refused(query, client=client, condition=condition, values=values)
    assert message == (
        "One or more parameter values were invalid: Condition parameter type does "
        "not match schema type"
    )


def test_updated_values_are_the_attributes_the_update_names(client: Client) -> None:
    """UPDATED_OLD and UPDATED_NEW return the attributes the update
    expression writes, even when one is set to the value it had, and no
    Attributes at all when there is nothing to return. moto returns only
    the attributes whose value changed, and an empty Attributes map."""
    put(client, 1, a={"S": "same"}, b={"S": "old"})
    key = {"pk": {"S": "P"}, "sk": {"N": "1"}}
    updated = client.update_item(
        TableName=TABLE,
        Key=key,
        UpdateExpression="SET a = :same, b = :new",
        ExpressionAttributeValues={":same": {"S": "same"}, ":new": {"S": "new"}},
        ReturnValues="UPDATED_OLD",
    )
    assert updated["Attributes"] == {"a": {"S": "same"}, "b": {"S": "old"}}
    removed = client.update_item(
        TableName=TABLE,
        Key=key,
        UpdateExpression="REMOVE b",
        ReturnValues="UPDATED_NEW",
    )
    assert "Attributes" not in removed


def test_updated_new_of_a_created_item_leaves_out_the_key(client: Client) -> None:
    """UPDATED_NEW returns the attributes the update wrote, never the key,
    even when the update creates the item; moto returns the key attributes
    of a created item too."""
    created = client.update_item(
        TableName=TABLE,
        Key={"pk": {"S": "P"}, "sk": {"N": "7"}},
        UpdateExpression="SET a = :a",
        ExpressionAttributeValues={":a": {"S": "new"}},
        ReturnValues="UPDATED_NEW",
    )
    assert created["Attributes"] == {"a": {"S": "new"}}


def test_an_update_that_only_removes_does_not_create_the_item(client: Client) -> None:
    """UpdateItem creates a missing item when it sets something, but an
    update that only removes attributes leaves it absent (ScyllaDB's
    DynamoDB compatibility tests record this against DynamoDB). moto
    creates an item holding just the key."""
    key = {"pk": {"S": "P"}, "sk": {"N": "9"}}
    response = client.update_item(
        TableName=TABLE, Key=key, UpdateExpression="REMOVE d", ReturnValues="ALL_NEW"
    )
    assert "Attributes" not in response
    assert "Item" not in client.get_item(TableName=TABLE, Key=key)


def test_number_arithmetic_keeps_38_digits(client: Client) -> None:
    """DynamoDB numbers have 38 significant digits and arithmetic is exact
    within them; a result that needs more is refused. moto computes with
    Python's default 28-digit context: it rounds the first and stores the
    second rounded, in exponent notation."""
    put(client, 1, n={"N": "1234567890123456789012345678.5"})
    key = {"pk": {"S": "P"}, "sk": {"N": "1"}}
    response = client.update_item(
        TableName=TABLE,
        Key=key,
        UpdateExpression="SET n = n + :q",
        ExpressionAttributeValues={":q": {"N": "0.25"}},
        ReturnValues="UPDATED_NEW",
    )
    assert response["Attributes"]["n"] == {"N": "1234567890123456789012345678.75"}
    put(client, 2, n={"N": "12345678901234567890123456789012345678"})
    message = refused(
        client.update_item,
        TableName=TABLE,
        Key={"pk": {"S": "P"}, "sk": {"N": "2"}},
        UpdateExpression="ADD n :half",
        ExpressionAttributeValues={":half": {"N": "0.5"}},
    )
    assert message == "Attempting to store more than 38 significant digits in a Number"


def test_a_page_reads_the_item_that_takes_it_past_1_mb(client: Client) -> None:
    """A page stops once the data read exceeds 1 MB (1,048,576 bytes); the
    item that takes it past is read and returned. moto stops at 1,000,000
    bytes, before the item that would cross it, so with 300 KB items its
    first page holds 3 where DynamoDB's holds 4. The conformance test of
    1 MB pages compares the items over all pages only."""
    for sk in range(1, 6):
        put(client, sk, d={"S": "x" * 300_000})
    first = query(client)
    assert first["Count"] == first["ScannedCount"] == 4
    assert first["LastEvaluatedKey"] == {"pk": {"S": "P"}, "sk": {"N": "4"}}
    rest = query(client, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert [i["sk"]["N"] for i in rest["Items"]] == ["5"]
    assert "LastEvaluatedKey" not in rest


def test_a_gsi_is_not_asked_for_attributes_it_does_not_project() -> None:
    """DynamoDB refuses a ProjectionExpression on a global secondary index
    that names an attribute the index does not project (a GSI cannot fetch
    from the table); moto returns the projected attributes only."""
    client = Client()
    client.create_table(
        TableName="Keys",
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "status", "AttributeType": "S"},
        ],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "ByStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    message = refused(
        client.query,
        TableName="Keys",
        IndexName="ByStatus",
        KeyConditionExpression="#s = :s",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": {"S": "OPEN"}},
        ProjectionExpression="pk, amount",
    )
    assert message == (
        "One or more parameter values were invalid: Global secondary index "
        "ByStatus does not project [amount]"
    )
