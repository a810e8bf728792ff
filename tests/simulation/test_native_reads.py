"""The simulator reads native items from the engine (`Client.read_items`):
each as the client's DynamoDB JSON answer converted back would give it."""

from decimal import Decimal

from modeler.engine.client import Client
from modeler.engine.types import (
    NumberSet,
    StringSet,
    item_from_wire,
    item_read_back,
    item_to_wire,
)

ITEM = {
    "PK": "A",
    "SK": "1",
    "price": Decimal("12.50"),
    "big": Decimal("1E+2"),
    "flag": True,
    "none": None,
    "data": b"\x00\x01",
    "tags": StringSet({"x", "y"}),
    "sizes": NumberSet({Decimal("1.0"), Decimal("2")}),
    "lines": [Decimal("3.10"), "s", {"n": Decimal("0.50")}],
}


def _client() -> Client:
    client = Client(validate=False)
    client.create_table(
        TableName="Things",
        AttributeDefinitions=[
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
        ],
        KeySchema=[
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    client.load_items("Things", [ITEM])
    return client


def test_an_item_is_returned_as_its_json_read_back():
    expected = item_from_wire(item_to_wire(ITEM))
    returned = item_read_back(ITEM)
    assert returned == expected
    assert {k: repr(v) for k, v in returned.items()} == {
        k: repr(v) for k, v in expected.items()
    }
    assert returned["lines"] is not ITEM["lines"]  # a copy, not the engine's


def test_read_items_answers_as_the_client_with_native_items():
    client = _client()
    request = {
        "TableName": "Things",
        "KeyConditionExpression": "PK = :p",
        "ExpressionAttributeValues": {":p": {"S": "A"}},
        "ReturnConsumedCapacity": "INDEXES",
    }
    wire = client.query(**request)
    native = client.read_items("Query", item_read_back, request)
    assert [repr(i) for i in native["Items"]] == [
        repr(item_from_wire(i)) for i in wire["Items"]
    ]
    for name in ("Count", "ScannedCount", "ConsumedCapacity"):
        assert native[name] == wire[name]
    got = client.read_items(
        "GetItem",
        item_read_back,
        {"TableName": "Things", "Key": {"PK": {"S": "A"}, "SK": {"S": "1"}}},
    )
    assert repr(got["Item"]) == repr(item_from_wire(wire["Items"][0]))
