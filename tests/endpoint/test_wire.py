"""The wire protocol through boto3: every data-plane operation, binary
values, errors with their codes and extras, the headers the SDKs check."""

from __future__ import annotations

import http.client
import json
import socket
import zlib
from urllib.parse import urlsplit

import pytest
from botocore.exceptions import ClientError

from modeler.endpoint.service import DYNAMODB_OPERATIONS, STREAMS_OPERATIONS
from tests.endpoint.conftest import create_shop


def test_put_get_query_scan_delete(ddb):
    create_shop(ddb)
    ddb.put_item(
        TableName="Shop",
        Item={"PK": {"S": "C#1"}, "SK": {"S": "O#1"}, "total": {"N": "12.50"}},
    )
    ddb.put_item(TableName="Shop", Item={"PK": {"S": "C#1"}, "SK": {"S": "O#2"}})
    got = ddb.get_item(TableName="Shop", Key={"PK": {"S": "C#1"}, "SK": {"S": "O#1"}})
    assert got["Item"]["total"] == {"N": "12.5"}
    page = ddb.query(
        TableName="Shop",
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": "C#1"}},
        ScanIndexForward=False,
        ReturnConsumedCapacity="TOTAL",
    )
    assert [i["SK"]["S"] for i in page["Items"]] == ["O#2", "O#1"]
    assert page["ConsumedCapacity"] == {"TableName": "Shop", "CapacityUnits": 0.5}
    assert ddb.scan(TableName="Shop", Limit=1)["LastEvaluatedKey"] == {
        "PK": {"S": "C#1"},
        "SK": {"S": "O#1"},
    }
    old = ddb.delete_item(
        TableName="Shop",
        Key={"PK": {"S": "C#1"}, "SK": {"S": "O#2"}},
        ReturnValues="ALL_OLD",
    )
    assert old["Attributes"]["SK"] == {"S": "O#2"}
    assert ddb.scan(TableName="Shop")["Count"] == 1


def test_binary_values_round_trip(ddb):
    ddb.create_table(
        TableName="Blobs",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "B"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    key = {"id": {"B": b"\x00\xffkey"}}
    ddb.put_item(
        TableName="Blobs",
        Item={**key, "data": {"B": b"\x01\x02"}, "set": {"BS": [b"a", b"\xfe"]}},
    )
    item = ddb.get_item(TableName="Blobs", Key=key)["Item"]
    assert item["id"] == {"B": b"\x00\xffkey"}
    assert item["data"] == {"B": b"\x01\x02"}
    assert sorted(item["set"]["BS"]) == [b"a", b"\xfe"]


def test_update_and_condition_failure_with_the_old_item(ddb):
    create_shop(ddb)
    key = {"PK": {"S": "C#1"}, "SK": {"S": "P"}}
    updated = ddb.update_item(
        TableName="Shop",
        Key=key,
        UpdateExpression="ADD visits :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
        ReturnValues="UPDATED_NEW",
    )
    assert updated["Attributes"] == {"visits": {"N": "1"}}
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException) as failed:
        ddb.put_item(
            TableName="Shop",
            Item=key,
            ConditionExpression="attribute_not_exists(PK)",
            ReturnValuesOnConditionCheckFailure="ALL_OLD",
        )
    assert failed.value.response["Error"]["Message"] == "The conditional request failed"
    assert failed.value.response["Item"]["visits"] == {"N": "1"}


def test_batches_and_transactions(ddb):
    create_shop(ddb)
    ddb.batch_write_item(
        RequestItems={
            "Shop": [
                {"PutRequest": {"Item": {"PK": {"S": "C#1"}, "SK": {"S": str(n)}}}}
                for n in range(5)
            ]
        }
    )
    got = ddb.batch_get_item(
        RequestItems={
            "Shop": {
                "Keys": [{"PK": {"S": "C#1"}, "SK": {"S": str(n)}} for n in (1, 3)]
            }
        }
    )
    assert len(got["Responses"]["Shop"]) == 2
    assert got["UnprocessedKeys"] == {}
    ddb.transact_write_items(
        TransactItems=[
            {
                "Put": {
                    "TableName": "Shop",
                    "Item": {"PK": {"S": "T"}, "SK": {"S": "1"}},
                }
            },
            {
                "Delete": {
                    "TableName": "Shop",
                    "Key": {"PK": {"S": "C#1"}, "SK": {"S": "0"}},
                }
            },
        ]
    )
    read = ddb.transact_get_items(
        TransactItems=[
            {"Get": {"TableName": "Shop", "Key": {"PK": {"S": "T"}, "SK": {"S": "1"}}}},
            {
                "Get": {
                    "TableName": "Shop",
                    "Key": {"PK": {"S": "C#1"}, "SK": {"S": "0"}},
                }
            },
        ]
    )
    assert read["Responses"][0]["Item"]["PK"] == {"S": "T"}
    assert read["Responses"][1] == {}
    with pytest.raises(ddb.exceptions.TransactionCanceledException) as cancelled:
        ddb.transact_write_items(
            TransactItems=[
                {
                    "ConditionCheck": {
                        "TableName": "Shop",
                        "Key": {"PK": {"S": "T"}, "SK": {"S": "1"}},
                        "ConditionExpression": "attribute_not_exists(PK)",
                    }
                }
            ]
        )
    reasons = cancelled.value.response["CancellationReasons"]
    assert reasons[0]["Code"] == "ConditionalCheckFailed"


def test_paginator_and_waiter(ddb):
    create_shop(ddb)
    ddb.get_waiter("table_exists").wait(TableName="Shop")
    for n in range(7):
        ddb.put_item(TableName="Shop", Item={"PK": {"S": "P"}, "SK": {"S": f"{n:02d}"}})
    pages = ddb.get_paginator("query").paginate(
        TableName="Shop",
        KeyConditionExpression="PK = :p",
        ExpressionAttributeValues={":p": {"S": "P"}},
        PaginationConfig={"PageSize": 3},
    )
    assert [p["Count"] for p in pages] == [3, 3, 1]
    assert ddb.list_tables()["TableNames"] == ["Shop"]
    ddb.delete_table(TableName="Shop")
    ddb.get_waiter("table_not_exists").wait(TableName="Shop")


def test_errors_have_dynamodb_codes_and_messages(ddb):
    with pytest.raises(ddb.exceptions.ResourceNotFoundException) as missing:
        ddb.get_item(TableName="Nope", Key={"PK": {"S": "x"}})
    assert missing.value.response["Error"]["Message"] == "Requested resource not found"
    assert missing.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    create_shop(ddb)
    with pytest.raises(ClientError) as invalid:
        ddb.get_item(TableName="Shop", Key={"PK": {"S": "x"}})
    assert invalid.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "The provided key element does not match the schema",
    }
    with pytest.raises(ddb.exceptions.ResourceInUseException):
        create_shop(ddb)


def _post(url: str, target: str | None, body: bytes):  # type: ignore[no-untyped-def]
    """A raw request, unsigned: status, headers and body."""
    headers = {"Content-Type": "application/x-amz-json-1.0"}
    if target:
        headers["X-Amz-Target"] = target
    connection = http.client.HTTPConnection(urlsplit(url).netloc)
    try:
        connection.request("POST", "/", body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def test_headers_the_sdks_check_and_unsigned_requests(server):
    status, headers, body = _post(server.url, "DynamoDB_20120810.ListTables", b"{}")
    assert status == 200
    assert json.loads(body) == {"TableNames": []}
    assert headers["Content-Type"] == "application/x-amz-json-1.0"
    assert int(headers["x-amz-crc32"]) == zlib.crc32(body)
    assert len(headers["x-amzn-RequestId"]) == 52


def test_every_answer_has_its_own_request_id(server):
    ids = {
        _post(server.url, "DynamoDB_20120810.ListTables", b"{}")[1]["x-amzn-RequestId"]
        for _ in range(3)
    }
    assert len(ids) == 3
    assert all(len(i) == 52 and i.isalnum() and i == i.upper() for i in ids)


@pytest.mark.parametrize(
    "target",
    [
        "DynamoDB_20120810.RestoreTableFromBackup",
        "DynamoDB_20120810.table",
        "Foo",
        None,
    ],
)
def test_unknown_operations(server, target):
    status, _, body = _post(server.url, target, b"{}")
    assert status == 400
    assert json.loads(body)["__type"] == (
        "com.amazon.coral.service#UnknownOperationException"
    )


def test_a_body_that_is_not_json(server):
    status, _, body = _post(server.url, "DynamoDB_20120810.ListTables", b"{nope")
    assert status == 400
    assert json.loads(body)["__type"].endswith("#SerializationException")


def _raw(server, *pieces: bytes) -> bytes:  # type: ignore[no-untyped-def]
    """What the server answers to a request sent in `pieces` (each its own
    send, so a head may arrive whole or a line at a time), read until the
    server closes the connection."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for piece in pieces:
            connection.sendall(piece)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def _list_tables_request(*, connection: str = "close") -> list[bytes]:
    body = b"{}"
    return [
        b"POST / HTTP/1.1\r\n",
        b"Host: localhost\r\n",
        b"X-Amz-Target:  DynamoDB_20120810.ListTables \r\n",
        b"content-type: application/x-amz-json-1.0\r\n",
        f"CONTENT-LENGTH: {len(body)}\r\n".encode(),
        f"Connection: {connection}\r\n".encode(),
        b"\r\n",
        body,
    ]


@pytest.mark.parametrize("sent", ["whole", "a line at a time", "bare LF"])
def test_a_head_whole_or_a_line_at_a_time(server, sent):
    pieces = _list_tables_request()
    if sent == "bare LF":
        # Lines ended by LF alone (no CRLF CRLF to find): read line by line.
        pieces = [piece.replace(b"\r\n", b"\n") for piece in pieces]
    answer = _raw(server, *(pieces if sent != "whole" else [b"".join(pieces)]))
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"\r\nConnection: close" in head
    assert json.loads(body) == {"TableNames": []}
    assert f"x-amz-crc32: {zlib.crc32(body)}".encode() in head


# The API Reference's operations DynamoDB Local does not offer (backups,
# point-in-time recovery, global tables, exports and imports, Kinesis
# destinations, contributor insights, resource policies, replica scaling).
NOT_OFFERED = [
    "CreateBackup",
    "DeleteBackup",
    "DescribeBackup",
    "ListBackups",
    "RestoreTableFromBackup",
    "RestoreTableToPointInTime",
    "DescribeContinuousBackups",
    "UpdateContinuousBackups",
    "CreateGlobalTable",
    "DescribeGlobalTable",
    "DescribeGlobalTableSettings",
    "ListGlobalTables",
    "UpdateGlobalTable",
    "UpdateGlobalTableSettings",
    "ExportTableToPointInTime",
    "DescribeExport",
    "ListExports",
    "ImportTable",
    "DescribeImport",
    "ListImports",
    "DescribeKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "DisableKinesisStreamingDestination",
    "UpdateKinesisStreamingDestination",
    "DescribeContributorInsights",
    "ListContributorInsights",
    "UpdateContributorInsights",
    "GetResourcePolicy",
    "PutResourcePolicy",
    "DeleteResourcePolicy",
    "DescribeTableReplicaAutoScaling",
    "UpdateTableReplicaAutoScaling",
]


@pytest.mark.parametrize("operation", NOT_OFFERED)
def test_operations_dynamodb_local_lacks_are_unknown(server, operation):
    status, _, body = _post(server.url, f"DynamoDB_20120810.{operation}", b"{}")
    assert (status, json.loads(body)["__type"]) == (
        400,
        "com.amazon.coral.service#UnknownOperationException",
    )


@pytest.mark.parametrize(
    "target",
    [f"DynamoDB_20120810.{name}" for name in sorted(DYNAMODB_OPERATIONS)]
    + [f"DynamoDBStreams_20120810.{name}" for name in sorted(STREAMS_OPERATIONS)],
)
def test_every_offered_operation_is_answered(server, target):
    # An empty request: answered, or refused for what it lacks, never unknown.
    status, _, body = _post(server.url, target, b"{}")
    assert "UnknownOperationException" not in json.loads(body).get("__type", "")
    assert status in (200, 400)


def test_requests_sent_together_are_answered_in_order(server):
    """Two requests in one segment (pipelined): both answered, in order."""
    first = b"".join(_list_tables_request(connection="keep-alive"))
    body = b'{"TableName": "nope"}'
    second = (
        b"POST / HTTP/1.1\r\nHost: localhost\r\n"
        b"X-Amz-Target: DynamoDB_20120810.DescribeTable\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    answer = _raw(server, first + second)
    assert answer.count(b"HTTP/1.1 ") == 2
    one, _, two = answer.partition(b"HTTP/1.1 400 ")
    assert b'{"TableNames":[]}' in one
    assert b"ResourceNotFoundException" in two


def test_a_body_that_comes_in_pieces_is_read_whole(server):
    """A large body, sent in several segments after its head."""
    item = {"PK": {"S": "big"}, "note": {"S": "x" * 200_000}}
    body = json.dumps({"TableName": "Pieces", "Item": item}).encode()
    head = (
        b"POST / HTTP/1.1\r\nHost: localhost\r\n"
        b"X-Amz-Target: DynamoDB_20120810.PutItem\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
    )
    answer = _raw(server, head, body[:70_000], body[70_000:140_000], body[140_000:])
    # The table does not exist: the whole body was read and decoded.
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert b"ResourceNotFoundException" in answer


def test_too_many_header_fields_or_too_long_a_body_are_refused(server):
    many = b"POST / HTTP/1.1\r\n" + b"X-Filler: 1\r\n" * 101 + b"\r\n"
    assert _raw(server, many).startswith(b"HTTP/1.1 431 ")
    huge = (
        b"POST / HTTP/1.1\r\nHost: localhost\r\n"
        + f"Content-Length: {64 * 1024 * 1024}\r\n\r\n".encode()
    )
    assert _raw(server, huge).startswith(b"HTTP/1.1 413 ")
    bad = b"POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n"
    assert _raw(server, bad).startswith(b"HTTP/1.1 400 ")
