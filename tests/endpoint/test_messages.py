"""Error messages worded as DynamoDB words them (issue 33's list), seen
through boto3."""

from __future__ import annotations

import http.client
import json
import re

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from tests.endpoint.conftest import create_shop

KEY = [{"AttributeName": "id", "KeyType": "HASH"}]
DEFINITIONS = [{"AttributeName": "id", "AttributeType": "S"}]


def _message(call, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ClientError) as raised:
        call(**kwargs)
    assert raised.value.response["Error"]["Code"] == "ValidationException"
    return raised.value.response["Error"]["Message"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "ab",
            "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3",
        ),
        (
            "a b c",
            "1 validation error detected: Value 'a b c' at 'tableName' failed to "
            "satisfy constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+",
        ),
        (
            "a!",
            "2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy "
            "constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+; Value 'a!' at 'tableName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 3",
        ),
    ],
)
def test_a_table_name_message_names_the_constraints_it_fails(ddb, name, message):
    assert _message(ddb.describe_table, TableName=name) == message


def test_the_key_type_message_names_the_element(ddb):
    message = _message(
        ddb.create_table,
        TableName="Shop",
        AttributeDefinitions=DEFINITIONS,
        KeySchema=[{"AttributeName": "id", "KeyType": "BOTH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    assert message == (
        "1 validation error detected: Value 'BOTH' at 'keySchema.1.member.keyType' "
        "failed to satisfy constraint: Member must satisfy enum value set: "
        "[HASH, RANGE]"
    )


def test_the_select_enum_in_dynamodbs_order(ddb):
    create_shop(ddb)
    message = _message(ddb.scan, TableName="Shop", Select="SOME")
    assert message == (
        "1 validation error detected: Value 'SOME' at 'select' failed to satisfy "
        "constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, "
        "COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"
    )


def _raw(server, operation: str, body: dict) -> dict:  # type: ignore[no-untyped-def]
    """The error answering a request sent as it is, past boto3's own
    parameter checks."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port)
    connection.request(
        "POST",
        "/",
        body=json.dumps(body),
        headers={
            "X-Amz-Target": f"DynamoDB_20120810.{operation}",
            "Content-Type": "application/x-amz-json-1.0",
        },
    )
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    assert response.status == 400, answer
    return answer


RCC = (
    "Value 'X' at 'returnConsumedCapacity' failed to satisfy constraint: Member "
    "must satisfy enum value set: [INDEXES, TOTAL, NONE]"
)
RETURN_VALUES = (
    "Value 'BAD' at 'returnValues' failed to satisfy constraint: Member must satisfy "
    "enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
)
RICM = (
    "Value 'Y' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member "
    "must satisfy enum value set: [SIZE, NONE]"
)
NO_KEY = "Value null at 'key' failed to satisfy constraint: Member must not be null"
EMPTY_NAME = (
    "Value '' at 'tableName' failed to satisfy constraint: Member must have length "
    "greater than or equal to 1"
)


@pytest.mark.parametrize(
    ("operation", "body", "message"),
    [
        (
            "PutItem",
            {
                "TableName": "Shop",
                "Item": {"PK": {"S": "a"}, "SK": {"S": "b"}},
                "ReturnValues": "BAD",
                "ReturnConsumedCapacity": "X",
                "ReturnItemCollectionMetrics": "Y",
            },
            f"3 validation errors detected: {RCC}; {RETURN_VALUES}; {RICM}",
        ),
        (
            # ALL_NEW is a ReturnValues PutItem does not offer: a check made
            # after the member constraints, so the enum is reported alone.
            "PutItem",
            {
                "TableName": "Shop",
                "Item": {"PK": {"S": "a"}, "SK": {"S": "b"}},
                "ReturnValues": "ALL_NEW",
                "ReturnConsumedCapacity": "X",
            },
            f"1 validation error detected: {RCC}",
        ),
        (
            "DeleteItem",
            {
                "TableName": "",
                "ReturnValues": "BAD",
                "ReturnConsumedCapacity": "X",
                "ReturnItemCollectionMetrics": "Y",
            },
            f"5 validation errors detected: {RCC}; {EMPTY_NAME}; {RETURN_VALUES}; "
            f"{RICM}; {NO_KEY}",
        ),
        (
            "UpdateItem",
            {
                "TableName": "",
                "UpdateExpression": "SET a = :a",
                "ExpressionAttributeValues": {":a": {"S": "x"}},
                "ReturnConsumedCapacity": "X",
                "ReturnValues": "BAD",
            },
            f"4 validation errors detected: {RCC}; {EMPTY_NAME}; {RETURN_VALUES}; "
            f"{NO_KEY}",
        ),
        (
            "UpdateItem",
            {
                "TableName": "Missing",
                "AttributeUpdates": {"x": {"Action": "PUT", "Value": {"S": "1"}}},
                "Expected": {"a": {"Exists": False}, "b": {"Exists": False}},
                "ConditionalOperator": "XOR",
            },
            "2 validation errors detected: Value 'XOR' at 'conditionalOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: "
            f"[OR, AND]; {NO_KEY}",
        ),
    ],
)
def test_a_writes_member_failures_are_joined_in_dynamodbs_order(
    ddb, server, operation, body, message
):
    create_shop(ddb)
    answer = _raw(server, operation, body)
    assert answer["__type"].endswith("#ValidationException")
    assert answer["message"] == message


@pytest.mark.parametrize(
    "operation", ["CreateTable", "DeleteTable", "DescribeTable", "DescribeTimeToLive"]
)
def test_a_table_operation_without_a_table_name(server, operation):
    answer = _raw(server, operation, {})
    assert answer["message"] == (
        "The parameter 'TableName' is required but was not present in the request"
    )


def test_update_table_without_a_table_name(server):
    answer = _raw(server, "UpdateTable", {"BillingMode": "PAY_PER_REQUEST"})
    assert answer["message"] == (
        "The parameter 'TableName' is required but was not present in the request"
    )


def test_create_table_joins_its_missing_members(server):
    answer = _raw(server, "CreateTable", {"TableName": "abc;"})
    assert answer["message"] == (
        "3 validation errors detected: Value null at 'attributeDefinitions' failed "
        "to satisfy constraint: Member must not be null; Value 'abc;' at 'tableName' "
        "failed to satisfy constraint: Member must satisfy regular expression "
        "pattern: [a-zA-Z0-9_.-]+; Value null at 'keySchema' failed to satisfy "
        "constraint: Member must not be null"
    )


@pytest.mark.parametrize("operation", ["query", "scan"])
def test_a_limit_below_one_names_the_member_as_the_api_does(ddb, operation):
    create_shop(ddb)
    extra = (
        {
            "KeyConditionExpression": "PK = :p",
            "ExpressionAttributeValues": {":p": {"S": "a"}},
        }
        if operation == "query"
        else {}
    )
    with pytest.raises(ClientError) as raised:
        # boto3 checks the least Limit itself; the server's answer is seen
        # with that check off.
        getattr(_unchecked(ddb), operation)(TableName="Shop", Limit=0, **extra)
    assert raised.value.response["Error"]["Message"] == (
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1"
    )


def test_a_negative_segment(ddb):
    create_shop(ddb)
    with pytest.raises(ClientError) as raised:
        _unchecked(ddb).scan(TableName="Shop", Segment=-1, TotalSegments=4)
    assert raised.value.response["Error"]["Message"] == (
        "1 validation error detected: Value at 'Segment' failed to satisfy "
        "constraint: Member must have value greater than or equal to 0"
    )


def test_list_tables_limit_names_the_bound_it_passed(ddb):
    client = _unchecked(ddb)
    for limit, bound in (
        (0, "greater than or equal to 1"),
        (101, "less than or equal to 100"),
    ):
        with pytest.raises(ClientError) as raised:
            client.list_tables(Limit=limit)
        assert raised.value.response["Error"]["Message"] == (
            f"1 validation error detected: Value '{limit}' at 'limit' failed to "
            f"satisfy constraint: Member must have value {bound}"
        )


def _unchecked(ddb):  # type: ignore[no-untyped-def]
    """A client that sends what botocore's own checks would refuse."""
    return boto3.client(
        "dynamodb",
        endpoint_url=ddb.meta.endpoint_url,
        region_name="eu-west-3",
        aws_access_key_id="anything",
        aws_secret_access_key="anything",
        config=Config(retries={"max_attempts": 1}, parameter_validation=False),
    )


def test_an_empty_binary_set(ddb):
    create_shop(ddb)
    message = _message(
        ddb.put_item,
        TableName="Shop",
        Item={"PK": {"S": "a"}, "SK": {"S": "b"}, "files": {"BS": []}},
    )
    assert message == (
        "One or more parameter values were invalid: Binary sets should not be empty"
    )


def test_too_many_transact_items_show_the_list(ddb):
    create_shop(ddb)
    puts = [
        {"Put": {"TableName": "Shop", "Item": {"PK": {"S": str(n)}, "SK": {"S": "x"}}}}
        for n in range(101)
    ]
    message = _message(_unchecked(ddb).transact_write_items, TransactItems=puts)
    assert re.fullmatch(
        r"1 validation error detected: Value '\[(com\.amazonaws\.dynamodb\.v20120810"
        r"\.TransactWriteItem@[0-9a-f]+, ){100}com\.amazonaws\.dynamodb\.v20120810"
        r"\.TransactWriteItem@[0-9a-f]+\]' at 'transactItems' failed to satisfy "
        r"constraint: Member must have length less than or equal to 100",
        message,
    ), message


def test_too_many_batch_writes_show_the_map(ddb):
    create_shop(ddb)
    puts = [
        {"PutRequest": {"Item": {"PK": {"S": str(n)}, "SK": {"S": "x"}}}}
        for n in range(26)
    ]
    message = _message(ddb.batch_write_item, RequestItems={"Shop": puts})
    assert re.fullmatch(
        r"1 validation error detected: Value '\{Shop=\[(com\.amazonaws\.dynamodb"
        r"\.v20120810\.WriteRequest@[0-9a-f]+, ){25}com\.amazonaws\.dynamodb"
        r"\.v20120810\.WriteRequest@[0-9a-f]+\]\}' at 'requestItems' failed to "
        r"satisfy constraint: Map value must satisfy constraint: \[Member must have "
        r"length less than or equal to 25, Member must have length greater than or "
        r"equal to 1\]",
        message,
    ), message


def test_an_empty_transaction_shows_the_empty_list(ddb):
    message = _message(_unchecked(ddb).transact_get_items, TransactItems=[])
    assert message == (
        "1 validation error detected: Value '[]' at 'transactItems' failed to "
        "satisfy constraint: Member must have length greater than or equal to 1"
    )


def test_a_key_attribute_named_twice(ddb):
    message = _message(
        ddb.create_table,
        TableName="Shop",
        AttributeDefinitions=DEFINITIONS,
        KeySchema=[
            {"AttributeName": "id", "KeyType": "HASH"},
            {"AttributeName": "id", "KeyType": "RANGE"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    assert message == "Invalid KeySchema: Some index key attribute have no definition"


def test_a_transactional_read_of_an_empty_key_cancels_that_action(ddb):
    create_shop(ddb)
    with pytest.raises(ClientError) as raised:
        ddb.transact_get_items(
            TransactItems=[
                {
                    "Get": {
                        "TableName": "Shop",
                        "Key": {"PK": {"S": "a"}, "SK": {"S": "b"}},
                    }
                },
                {"Get": {"TableName": "Shop", "Key": {}}},
            ]
        )
    error = raised.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException"
    assert error["CancellationReasons"] == [
        {"Code": "None"},
        {
            "Code": "ValidationError",
            "Message": "The provided key element does not match the schema",
        },
    ]


def test_a_transaction_joins_its_token_and_enums(server, ddb):
    create_shop(ddb)
    token = "x" * 37
    answer = _raw(
        server,
        "TransactWriteItems",
        {
            "TransactItems": [
                {"Put": {"TableName": "Missing", "Item": {"PK": {"S": "a"}}}}
            ],
            "ClientRequestToken": token,
            "ReturnConsumedCapacity": "X",
        },
    )
    assert answer["message"] == (
        f"2 validation errors detected: Value '{token}' at 'clientRequestToken' "
        "failed to satisfy constraint: Member must have length less than or equal "
        f"to 36; {RCC}"
    )


def test_a_transactional_reads_projection_is_refused_before_its_key(ddb):
    create_shop(ddb)
    message = _message(
        ddb.transact_get_items,
        TransactItems=[
            {"Get": {"TableName": "Shop", "Key": {}, "ProjectionExpression": "!!!"}}
        ],
    )
    assert (
        message == 'Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"'
    )
