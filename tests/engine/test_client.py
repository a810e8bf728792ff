"""The boto3-compatible client: method names and keyword arguments,
botocore's exceptions, paginators and waiters, ResponseMetadata, and code
written for boto3 running unchanged."""

from __future__ import annotations

import textwrap
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError, ParamValidationError

from modeler.engine.client import Client
from tests.engine.helpers import S, index, item, table_request


@pytest.fixture
def client() -> Client:
    client = Client()
    client.create_table(**table_request(gsis=[index("ByStatus", "status")]))
    return client


def test_responses_carry_response_metadata(client: Client) -> None:
    response = client.put_item(TableName="Shop", Item=item("c", "1"))
    metadata = response["ResponseMetadata"]
    assert metadata["HTTPStatusCode"] == 200
    assert metadata["RetryAttempts"] == 0
    assert metadata["HTTPHeaders"]["x-amzn-requestid"] == metadata["RequestId"]
    assert set(response) == {"ResponseMetadata"}


def test_modeled_errors_are_client_exceptions(client: Client) -> None:
    client.put_item(TableName="Shop", Item=item("c", "1"))
    with pytest.raises(client.exceptions.ConditionalCheckFailedException) as error:
        client.put_item(
            TableName="Shop",
            Item=item("c", "1"),
            ConditionExpression="attribute_not_exists(PK)",
            ReturnValuesOnConditionCheckFailure="ALL_OLD",
        )
    assert isinstance(error.value, ClientError)
    assert error.value.response["Error"] == {
        "Code": "ConditionalCheckFailedException",
        "Message": "The conditional request failed",
    }
    assert error.value.response["Item"] == item("c", "1")
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert error.value.operation_name == "PutItem"
    assert str(error.value) == (
        "An error occurred (ConditionalCheckFailedException) when calling the PutItem "
        "operation: The conditional request failed"
    )
    assert error.value.consumed_capacity["CapacityUnits"] == 1.0
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.describe_table(TableName="Nope")


def test_validation_errors_are_plain_client_errors(client: Client) -> None:
    with pytest.raises(ClientError) as error:
        client.query(
            TableName="Shop",
            IndexName="ByStatus",
            ConsistentRead=True,
            KeyConditionExpression="#s = :s",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":s": S("OPEN")},
        )
    assert type(error.value) is ClientError
    assert error.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Consistent reads are not supported on global secondary indexes",
    }


def test_parameters_are_validated_like_boto3(client: Client) -> None:
    with pytest.raises(ParamValidationError) as error:
        client.get_item(TableName="Shop", Key={"PK": S("c"), "SK": S("1")}, Bogus=1)
    assert 'Unknown parameter in input: "Bogus"' in str(error.value)
    with pytest.raises(ParamValidationError):
        client.query(
            TableName="Shop",
            KeyConditionExpression="PK = :c",
            Limit=0,
            ExpressionAttributeValues={":c": S("c")},
        )


def test_binary_values_given_as_text_are_sent_as_utf8_bytes(client: Client) -> None:
    client.put_item(
        TableName="Shop",
        Item={**item("c", "1"), "blob": {"B": "é"}, "blobs": {"BS": ["a", b"b"]}},
    )
    stored = client.get_item(TableName="Shop", Key={"PK": S("c"), "SK": S("1")})
    assert stored["Item"]["blob"] == {"B": "é".encode()}
    assert sorted(stored["Item"]["blobs"]["BS"]) == [b"a", b"b"]


def test_transaction_cancellation_reasons(client: Client) -> None:
    client.put_item(TableName="Shop", Item=item("c", "1"))
    with pytest.raises(client.exceptions.TransactionCanceledException) as error:
        client.transact_write_items(
            TransactItems=[
                {"Put": {"TableName": "Shop", "Item": item("c", "2")}},
                {
                    "Put": {
                        "TableName": "Shop",
                        "Item": item("c", "1"),
                        "ConditionExpression": "attribute_not_exists(PK)",
                    }
                },
            ]
        )
    assert [r["Code"] for r in error.value.response["CancellationReasons"]] == [
        "None",
        "ConditionalCheckFailed",
    ]


def test_query_paginator_yields_pages_like_boto3(client: Client) -> None:
    for n in range(25):
        client.put_item(TableName="Shop", Item=item("c", f"{n:02d}"))
    paginator = client.get_paginator("query")
    pages = list(
        paginator.paginate(
            TableName="Shop",
            KeyConditionExpression="PK = :c",
            ExpressionAttributeValues={":c": S("c")},
            PaginationConfig={"PageSize": 10},
        )
    )
    assert [p["Count"] for p in pages] == [10, 10, 5]
    assert all("ResponseMetadata" in p for p in pages)
    full = paginator.paginate(
        TableName="Shop",
        KeyConditionExpression="PK = :c",
        ExpressionAttributeValues={":c": S("c")},
        PaginationConfig={"MaxItems": 12},
    ).build_full_result()
    assert len(full["Items"]) == 12
    assert "NextToken" in full
    assert client.can_paginate("scan")
    assert (
        sum(
            p["Count"]
            for p in client.get_paginator("scan").paginate(
                TableName="Shop", PaginationConfig={"PageSize": 7}
            )
        )
        == 25
    )


def test_waiters_return_at_once(client: Client) -> None:
    client.get_waiter("table_exists").wait(TableName="Shop")
    client.delete_table(TableName="Shop")
    client.get_waiter("table_not_exists").wait(TableName="Shop")


def test_load_items_takes_native_items(client: Client) -> None:
    assert (
        client.load_items(
            "Shop", [{"PK": "c", "SK": str(n), "status": "OPEN"} for n in range(3)]
        )
        == 3
    )
    response = client.query(
        TableName="Shop",
        IndexName="ByStatus",
        KeyConditionExpression="#s = :s",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": S("OPEN")},
    )
    assert response["Count"] == 3


def test_the_module_example_runs() -> None:
    """The usage example of the module docstring (the README's) works."""
    from modeler.engine import client as module

    example = module.__doc__.split("Usage:\n", 1)[1]
    code = textwrap.dedent(example).replace("        ...", "        pass")
    exec(compile(code, "client-example", "exec"), {})  # noqa: S102 - our own text


def _boto3_program(dynamodb: Any) -> list[Any]:
    """Code written for boto3's client, run against any client."""
    dynamodb.create_table(**table_request("Orders", gsis=[index("ByStatus", "status")]))
    dynamodb.get_waiter("table_exists").wait(TableName="Orders")
    seen: list[Any] = []
    for n in range(12):
        dynamodb.put_item(
            TableName="Orders",
            Item={
                **item("c", f"o{n:02d}", status="OPEN" if n % 3 else "DONE"),
                "total": {"N": str(n * 10)},
            },
        )
    try:
        dynamodb.put_item(
            TableName="Orders",
            Item=item("c", "o00"),
            ConditionExpression="attribute_not_exists(PK)",
        )
    except dynamodb.exceptions.ConditionalCheckFailedException as error:
        seen.append(error.response["Error"]["Code"])
    dynamodb.update_item(
        TableName="Orders",
        Key={"PK": S("c"), "SK": S("o01")},
        UpdateExpression="SET #t = #t + :d",
        ExpressionAttributeNames={"#t": "total"},
        ExpressionAttributeValues={":d": {"N": "5"}},
    )
    for page in dynamodb.get_paginator("query").paginate(
        TableName="Orders",
        KeyConditionExpression="PK = :c AND SK > :s",
        FilterExpression="#t > :min",
        ScanIndexForward=False,
        ExpressionAttributeNames={"#t": "total"},
        ExpressionAttributeValues={":c": S("c"), ":s": S("o02"), ":min": {"N": "30"}},
        PaginationConfig={"PageSize": 4},
    ):
        seen.append((page["Count"], page["ScannedCount"], page["Items"]))
    by_status = dynamodb.query(
        TableName="Orders",
        IndexName="ByStatus",
        KeyConditionExpression="#s = :s",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": S("DONE")},
    )
    seen.append(by_status["Items"])
    seen.append(
        dynamodb.get_item(TableName="Orders", Key={"PK": S("c"), "SK": S("o01")})[
            "Item"
        ]
    )
    try:
        dynamodb.query(
            TableName="Orders",
            IndexName="ByStatus",
            ConsistentRead=True,
            KeyConditionExpression="#s = :s",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":s": S("DONE")},
        )
    except ClientError as error:
        seen.append(error.response["Error"])
    return seen


def test_boto3_code_runs_unchanged_and_agrees_with_moto(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from moto import mock_aws

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        expected = _boto3_program(boto3.client("dynamodb", region_name="us-east-1"))
    actual = _boto3_program(Client())
    # moto looks ahead and ends the last page without a LastEvaluatedKey;
    # DynamoDB (and the simulator) return one page more, empty, when the
    # previous page ended exactly on its Limit. Pages with items agree.
    assert [p for p in actual if not (isinstance(p, tuple) and p[0] == 0)] == [
        p for p in expected if not (isinstance(p, tuple) and p[0] == 0)
    ]
