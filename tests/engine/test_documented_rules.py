"""Documented behaviours where the engine once answered otherwise than
DynamoDB (issue 17). Each test names the rule and where it is written:
DOMAIN.md is the project's summary of the Developer Guide; the API
Reference pages are named by operation."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeler.engine.engine import Engine
from modeler.engine.types import number, number_text
from tests.engine.helpers import N, S, index, item, raises, table_request

KEY = {"PK": S("c"), "SK": S("1")}


@pytest.fixture
def indexed(engine: Engine) -> Engine:
    """Shop (PK, SK) with a GSI ByStatus (status) projecting everything."""
    engine.create_table(table_request(gsis=[index("ByStatus", "status")]))
    return engine


# --- Numbers ------------------------------------------------------------------
# Developer Guide, "Supported data types": numbers have up to 38 digits of
# precision; leading and trailing zeros are trimmed; the range is 1E-130 to
# 9.9999999999999999999999999999999999999E+125 (positive and negative).


@pytest.mark.parametrize(
    "text",
    [
        "1" + "0" * 38,  # one significant digit, 39 digits written
        "0000000000000000000000000000000000000000012",  # leading zeros
        "1.50000000000000000000000000000000000000000000",  # trailing zeros
        "9" * 38 + "0" * 88,  # 9.99...E+125 written out, as the engine returns it
        "0." + "0" * 129 + "1",  # 1E-130, the smallest magnitude
        "-" + "9" * 38,
    ],
)
def test_zeros_at_either_end_are_not_significant_digits(text: str) -> None:
    assert number(text) == Decimal(text)


def test_a_number_the_engine_returns_is_accepted_back(shop: Engine) -> None:
    largest = "9.9999999999999999999999999999999999999E+125"
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", n=N(largest))})
    returned = shop.get_item({"TableName": "Shop", "Key": KEY})["Item"]["n"]["N"]
    assert returned == "9" * 38 + "0" * 88
    shop.put_item({"TableName": "Shop", "Item": item("c", "2", n=N(returned))})
    again = shop.get_item({"TableName": "Shop", "Key": {**KEY, "SK": S("2")}})
    assert again["Item"]["n"]["N"] == returned


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1" * 39, "Attempting to store more than 38 significant digits in a Number"),
        ("1.00000000000000000000000000000000000001", "more than 38 significant"),
        ("1e99999999999", "Number overflow"),
        ("1e126", "Number overflow"),
        ("-1e126", "Number overflow"),
        ("1e-131", "Number underflow"),
        ("1_000", "cannot be converted to a numeric value"),
        (" 1", "cannot be converted to a numeric value"),
        ("Infinity", "cannot be converted to a numeric value"),
        ("0x10", "cannot be converted to a numeric value"),
    ],
)
def test_numbers_dynamodb_refuses_and_why(text: str, message: str) -> None:
    with raises("ValidationException") as error:
        number(text)
    assert message in error.value.message


def test_arithmetic_is_refused_only_when_the_result_needs_39_digits(
    shop: Engine,
) -> None:
    nines = "9" * 38
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", v=N(nines))})

    def add(value: str) -> dict:
        return shop.update_item(
            {
                "TableName": "Shop",
                "Key": KEY,
                "UpdateExpression": "SET v = v + :d",
                "ExpressionAttributeValues": {":d": N(value)},
                "ReturnValues": "UPDATED_NEW",
            }
        )

    # 38 nines + 1 = 1E+38: one significant digit.
    assert add("1")["Attributes"]["v"]["N"] == "1" + "0" * 38
    # 1E+38 + 0.5 needs 39 digits.
    with raises(
        "ValidationException",
        "Attempting to store more than 38 significant digits in a Number",
    ):
        add("0.5")
    assert number_text(Decimal("1E+38")) == "1" + "0" * 38


# --- ConsumedCapacity -----------------------------------------------------------
# API Reference, ConsumedCapacity: CapacityUnits is the total; DynamoDB sends
# ReadCapacityUnits/WriteCapacityUnits beside it only for transactions.


def test_capacity_units_alone_outside_transactions(indexed: Engine) -> None:
    put = indexed.put_item(
        {
            "TableName": "Shop",
            "Item": item("c", "1", status="OPEN"),
            "ReturnConsumedCapacity": "INDEXES",
        }
    )["ConsumedCapacity"]
    assert put == {
        "TableName": "Shop",
        "CapacityUnits": 2.0,
        "Table": {"CapacityUnits": 1.0},
        "GlobalSecondaryIndexes": {"ByStatus": {"CapacityUnits": 1.0}},
    }
    got = indexed.get_item(
        {"TableName": "Shop", "Key": KEY, "ReturnConsumedCapacity": "TOTAL"}
    )["ConsumedCapacity"]
    assert got == {"TableName": "Shop", "CapacityUnits": 0.5}


def test_transactions_also_give_read_or_write_units(indexed: Engine) -> None:
    write = indexed.transact_write_items(
        {
            "TransactItems": [
                {"Put": {"TableName": "Shop", "Item": item("c", "1", status="A")}}
            ],
            "ReturnConsumedCapacity": "INDEXES",
        }
    )["ConsumedCapacity"]
    assert write == [
        {
            "TableName": "Shop",
            "CapacityUnits": 4.0,
            "WriteCapacityUnits": 4.0,
            "Table": {"CapacityUnits": 2.0, "WriteCapacityUnits": 2.0},
            "GlobalSecondaryIndexes": {
                "ByStatus": {"CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}
            },
        }
    ]
    read = indexed.transact_get_items(
        {
            "TransactItems": [{"Get": {"TableName": "Shop", "Key": KEY}}],
            "ReturnConsumedCapacity": "TOTAL",
        }
    )["ConsumedCapacity"]
    assert read == [
        {"TableName": "Shop", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}
    ]


# --- BatchGetItem: 16 MB ----------------------------------------------------------
# DOMAIN.md: BatchGetItem, 100 items, 16 MB. API Reference, BatchGetItem: "A
# single operation can retrieve up to 16 MB of data ... returns a partial
# result" with the rest in UnprocessedKeys.


def test_batch_get_stops_at_16_mb_and_returns_the_rest_as_unprocessed(
    shop: Engine,
) -> None:
    blob = b"x" * (350 * 1024)
    for n in range(50):
        shop.put_item({"TableName": "Shop", "Item": item("c", f"{n:02}", blob=blob)})
    keys = [{"PK": S("c"), "SK": S(f"{n:02}")} for n in range(50)]
    request = {
        "RequestItems": {
            "Shop": {
                "Keys": keys,
                "ProjectionExpression": "PK, SK, #b",
                "ExpressionAttributeNames": {"#b": "blob"},
            }
        }
    }
    response = shop.batch_get_item(request)
    returned = response["Responses"]["Shop"]
    # 46 items of 350 KB stay under 16 MB; the 47th reaches it and is the last.
    assert len(returned) == 47
    unprocessed = response["UnprocessedKeys"]["Shop"]
    assert unprocessed["Keys"] == keys[47:]
    assert unprocessed["ProjectionExpression"] == "PK, SK, #b"
    # Asking again for the unprocessed keys gets the rest.
    rest = shop.batch_get_item({"RequestItems": response["UnprocessedKeys"]})
    assert len(rest["Responses"]["Shop"]) == 3
    assert rest["UnprocessedKeys"] == {}


# --- TransactWriteItems idempotency -----------------------------------------------
# API Reference, TransactWriteItems, ClientRequestToken: a repeat within 10
# minutes of the first completed call has no effect and succeeds; the same
# token with other parameters is IdempotentParameterMismatchException.


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clocked() -> tuple[Engine, Clock]:
    clock = Clock()
    engine = Engine(clock=clock)
    engine.create_table(table_request())
    return engine, clock


def _counter_transaction(token: str, amount: str = "1") -> dict:
    return {
        "ClientRequestToken": token,
        "TransactItems": [
            {
                "Update": {
                    "TableName": "Shop",
                    "Key": KEY,
                    "UpdateExpression": "ADD votes :n",
                    "ExpressionAttributeValues": {":n": N(amount)},
                }
            }
        ],
    }


def _votes(engine: Engine) -> str:
    return engine.get_item({"TableName": "Shop", "Key": KEY})["Item"]["votes"]["N"]


def test_a_repeated_token_changes_nothing_within_10_minutes(clocked) -> None:
    engine, clock = clocked
    engine.transact_write_items(_counter_transaction("vote-1"))
    clock.now += 599
    repeat = engine.transact_write_items(
        _counter_transaction("vote-1") | {"ReturnConsumedCapacity": "TOTAL"}
    )
    assert _votes(engine) == "1"
    # The repeat reports the reads of its item, not writes.
    assert repeat["ConsumedCapacity"] == [
        {"TableName": "Shop", "CapacityUnits": 1.0, "ReadCapacityUnits": 1.0}
    ]
    engine.transact_write_items(_counter_transaction("vote-2"))
    assert _votes(engine) == "2"


def test_a_token_is_forgotten_after_10_minutes(clocked) -> None:
    engine, clock = clocked
    engine.transact_write_items(_counter_transaction("vote-1"))
    clock.now += 601
    engine.transact_write_items(_counter_transaction("vote-1"))
    assert _votes(engine) == "2"


def test_the_same_token_with_other_parameters_is_a_mismatch(clocked) -> None:
    engine, _clock = clocked
    engine.transact_write_items(_counter_transaction("vote-1"))
    with raises("IdempotentParameterMismatchException"):
        engine.transact_write_items(_counter_transaction("vote-1", amount="5"))
    assert _votes(engine) == "1"


def test_a_cancelled_transaction_does_not_keep_its_token(clocked) -> None:
    engine, _clock = clocked
    failing = _counter_transaction("vote-1")
    failing["TransactItems"][0]["Update"]["ConditionExpression"] = (
        "attribute_exists(PK)"
    )
    with raises("TransactionCanceledException"):
        engine.transact_write_items(failing)
    engine.put_item({"TableName": "Shop", "Item": item("c", "1")})
    engine.transact_write_items(failing)
    assert _votes(engine) == "1"


def test_a_token_is_at_most_36_characters(clocked) -> None:
    engine, _clock = clocked
    with raises("ValidationException"):
        engine.transact_write_items(_counter_transaction("x" * 37))


# --- Legacy conditional parameters ---------------------------------------------------
# Developer Guide, "Legacy conditional parameters": AttributesToGet,
# KeyConditions, QueryFilter, ScanFilter, Expected, AttributeUpdates and
# ConditionalOperator still work; a request may not mix them with expression
# parameters. Code written against boto3 years ago runs on the Client as is.


@pytest.fixture
def client():
    from modeler.engine.client import Client

    client = Client()
    client.create_table(**{k: v for k, v in table_request().items()})
    for n, (status, tags) in enumerate(
        [("OPEN", ["a", "b"]), ("SHIPPED", ["b"]), ("OPEN", ["c"]), ("LOST", None)]
    ):
        extra = {"tags": {"SS": tags}} if tags else {}
        client.put_item(
            TableName="Shop",
            Item=item("c", f"ORDER#{n}", status=status, total=N(10 * n)) | extra,
        )
    return client


def _sks(response: dict) -> list[str]:
    return [i["SK"]["S"] for i in response["Items"]]


def test_legacy_query_key_conditions_filter_and_attributes(client) -> None:
    response = client.query(
        TableName="Shop",
        KeyConditions={
            "PK": {"AttributeValueList": [S("c")], "ComparisonOperator": "EQ"},
            "SK": {
                "AttributeValueList": [S("ORDER#1"), S("ORDER#3")],
                "ComparisonOperator": "BETWEEN",
            },
        },
        QueryFilter={
            "status": {
                "AttributeValueList": [S("OPEN"), S("LOST")],
                "ComparisonOperator": "IN",
            },
            "total": {"AttributeValueList": [N(20)], "ComparisonOperator": "GE"},
        },
        AttributesToGet=["SK", "status"],
    )
    assert response["Items"] == [
        {"SK": S("ORDER#2"), "status": S("OPEN")},
        {"SK": S("ORDER#3"), "status": S("LOST")},
    ]
    assert (response["Count"], response["ScannedCount"]) == (2, 3)


def test_legacy_scan_filter_with_or(client) -> None:
    response = client.scan(
        TableName="Shop",
        ScanFilter={
            "tags": {"AttributeValueList": [S("c")], "ComparisonOperator": "CONTAINS"},
            "status": {"ComparisonOperator": "NULL"},
        },
        ConditionalOperator="OR",
    )
    assert _sks(response) == ["ORDER#2"]
    response = client.scan(
        TableName="Shop",
        ScanFilter={
            "tags": {"ComparisonOperator": "NOT_NULL"},
            "SK": {
                "AttributeValueList": [S("ORDER#0")],
                "ComparisonOperator": "NE",
            },
        },
    )
    assert _sks(response) == ["ORDER#1", "ORDER#2"]


def test_legacy_get_item_and_batch_get_attributes_to_get(client) -> None:
    key = {"PK": S("c"), "SK": S("ORDER#0")}
    got = client.get_item(TableName="Shop", Key=key, AttributesToGet=["total"])
    assert got["Item"] == {"total": N(0)}
    batch = client.batch_get_item(
        RequestItems={"Shop": {"Keys": [key], "AttributesToGet": ["status"]}}
    )
    assert batch["Responses"]["Shop"] == [{"status": S("OPEN")}]


def test_legacy_expected_on_put_and_delete(client) -> None:
    key = {"PK": S("c"), "SK": S("ORDER#0")}
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.put_item(
            TableName="Shop",
            Item=item("c", "ORDER#0"),
            Expected={"PK": {"Exists": False}},
        )
    client.put_item(
        TableName="Shop",
        Item=item("c", "ORDER#9"),
        Expected={"PK": {"Exists": False}},
    )
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.delete_item(
            TableName="Shop",
            Key=key,
            Expected={
                "status": {"Value": S("SHIPPED")},
                "total": {"AttributeValueList": [N(5)], "ComparisonOperator": "GT"},
            },
            ConditionalOperator="OR",
        )
    client.delete_item(
        TableName="Shop",
        Key=key,
        Expected={"status": {"Value": S("OPEN"), "Exists": True}},
    )
    assert "Item" not in client.get_item(TableName="Shop", Key=key)


def test_legacy_attribute_updates(client) -> None:
    key = {"PK": S("c"), "SK": S("ORDER#0")}
    response = client.update_item(
        TableName="Shop",
        Key=key,
        AttributeUpdates={
            "status": {"Value": S("PAID")},  # PUT is the default action
            "total": {"Action": "ADD", "Value": N(5)},
            "tags": {"Action": "DELETE", "Value": {"SS": ["a"]}},
            "notes": {"Action": "ADD", "Value": {"L": [S("first")]}},
            "gone": {"Action": "DELETE"},
        },
        Expected={"status": {"Value": S("OPEN")}},
        ReturnValues="ALL_NEW",
    )
    assert response["Attributes"] == {
        "PK": S("c"),
        "SK": S("ORDER#0"),
        "status": S("PAID"),
        "total": N(5),
        "tags": {"SS": ["b"]},
        "notes": {"L": [S("first")]},
    }


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (
            {
                "KeyConditionExpression": "PK = :p",
                "ExpressionAttributeValues": {":p": S("c")},
                "QueryFilter": {"status": {"ComparisonOperator": "NULL"}},
            },
            "Can not use both expression and non-expression parameters in the same "
            "request: Non-expression parameters: {QueryFilter} Expression "
            "parameters: {KeyConditionExpression, ExpressionAttributeValues}",
        ),
        (
            {
                "KeyConditions": {
                    "PK": {"AttributeValueList": [S("c")], "ComparisonOperator": "EQ"}
                },
                "QueryFilter": {
                    "status": {
                        "AttributeValueList": [S("a"), S("b")],
                        "ComparisonOperator": "EQ",
                    }
                },
            },
            "One or more parameter values were invalid: Invalid number of "
            "argument(s) for the EQ ComparisonOperator",
        ),
        (
            {
                "KeyConditions": {
                    "PK": {
                        "AttributeValueList": [S("c")],
                        "ComparisonOperator": "CONTAINS",
                    }
                }
            },
            "Attempted conditional constraint is not an indexable operation",
        ),
    ],
)
def test_legacy_parameters_refused_as_dynamodb_refuses_them(
    shop: Engine, request_: dict, message: str
) -> None:
    with raises("ValidationException", message):
        shop.query({"TableName": "Shop", **request_})


# --- Item size of numbers ----------------------------------------------------------
# Developer Guide, "Item sizes and formats": a number is 1 byte per two
# significant digits plus 1, leading and trailing zeros trimmed, whatever its
# sign or point; a set is the sum of its members; an item may be 400 KB
# (409,600 bytes) and not one byte more.

NUMBERS = ["-1.5", "0.25", "-0.001", "-12345.6789", "1000", "-0.50"]
# Significant digits 2, 2, 1, 9, 1, 1 -> 2 + 2 + 2 + 6 + 2 + 2 = 16 bytes.
NS_BYTES = 16


def _sized_item(total: int) -> dict:
    fixed = len("PK") + 1 + len("SK") + 1 + len("ns") + NS_BYTES + len("pad")
    return item("c", "1", ns={"NS": NUMBERS}, pad="x" * (total - fixed))


def test_an_item_of_exactly_400_kb_with_numbers_in_a_set_is_accepted(
    shop: Engine,
) -> None:
    shop.put_item({"TableName": "Shop", "Item": _sized_item(409_600)})
    with raises(
        "ValidationException", "Item size has exceeded the maximum allowed size"
    ):
        shop.put_item({"TableName": "Shop", "Item": _sized_item(409_601)})


def test_an_update_to_exactly_400_kb_is_accepted_and_one_byte_more_refused(
    shop: Engine,
) -> None:
    start = _sized_item(409_600)
    start["ns"]["NS"] = NUMBERS[:-1]  # without -0.50 (2 bytes): 409,598 bytes
    shop.put_item({"TableName": "Shop", "Item": start})

    def add(value: str) -> None:
        shop.update_item(
            {
                "TableName": "Shop",
                "Key": KEY,
                "UpdateExpression": "ADD ns :n",
                "ExpressionAttributeValues": {":n": {"NS": [value]}},
            }
        )

    with raises(
        "ValidationException",
        "Item size to update has exceeded the maximum allowed size",
    ):
        add("-0.123")  # 3 significant digits: 3 bytes, one too many
    add("-0.50")  # 2 bytes: exactly 400 KB
    stored = shop.get_item({"TableName": "Shop", "Key": KEY})["Item"]
    assert sorted(stored["ns"]["NS"]) == sorted(
        ["-1.5", "0.25", "-0.001", "-12345.6789", "1000", "-0.5"]
    )


# --- Messages -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameter", "mapping", "message"),
    [
        (
            "ExpressionAttributeNames",
            {"status": "status"},
            "ExpressionAttributeNames contains invalid key: Syntax error; "
            'key: "status"',
        ),
        (
            "ExpressionAttributeValues",
            {"v": S("x")},
            'ExpressionAttributeValues contains invalid key: Syntax error; key: "v"',
        ),
    ],
)
def test_a_placeholder_without_its_prefix_is_an_invalid_key(
    shop: Engine, parameter: str, mapping: dict, message: str
) -> None:
    """A name placeholder starts with #, a value placeholder with :
    (Developer Guide, "Expression attribute names" and "values"); DynamoDB
    says the key is invalid before it looks for unused ones."""
    request = {
        "TableName": "Shop",
        "KeyConditionExpression": "PK = :p",
        "ExpressionAttributeValues": {":p": S("c")},
    }
    request[parameter] = {**request.get(parameter, {}), **mapping}
    with raises("ValidationException", message):
        shop.query(request)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ({"SS": ["a", "b", "a"]}, "[a, b, a]"),
        ({"NS": ["1", "1.0"]}, "[1, 1.0]"),
    ],
)
def test_set_duplicates_are_printed_as_dynamodb_prints_them(
    shop: Engine, value: dict, shown: str
) -> None:
    with raises(
        "ValidationException",
        f"One or more parameter values were invalid: Input collection {shown} "
        "contains duplicates.",
    ):
        shop.put_item({"TableName": "Shop", "Item": item("c", "1", tags=value)})


# --- What a failed condition and a collection return --------------------------------
# API Reference, PutItem/UpdateItem/DeleteItem: ReturnValuesOnConditionCheckFailure
# ALL_OLD returns the item with the ConditionalCheckFailedException;
# ReturnItemCollectionMetrics SIZE returns metrics only for a table with a
# local secondary index.


@pytest.mark.parametrize("operation", ["update_item", "delete_item"])
def test_the_old_item_comes_with_a_failed_condition(operation: str) -> None:
    from modeler.engine.client import Client

    client = Client()
    client.create_table(**table_request())
    stored = item("c", "1", status="OPEN")
    client.put_item(TableName="Shop", Item=stored)
    request = {
        "TableName": "Shop",
        "Key": KEY,
        "ConditionExpression": "#s = :shipped",
        "ExpressionAttributeNames": {"#s": "status"},
        "ExpressionAttributeValues": {":shipped": S("SHIPPED")},
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
    }
    if operation == "update_item":
        request["UpdateExpression"] = "SET #s = :shipped"
    with pytest.raises(client.exceptions.ConditionalCheckFailedException) as error:
        getattr(client, operation)(**request)
    assert error.value.response["Item"] == stored


def test_item_collection_metrics_only_with_a_local_index(engine: Engine) -> None:
    engine.create_table(table_request(lsis=[index("ByDay", "PK", "day")]))
    engine.create_table(table_request("Plain"))
    for table in ("Shop", "Plain"):
        put = engine.put_item(
            {
                "TableName": table,
                "Item": item("c", "1", day="d"),
                "ReturnItemCollectionMetrics": "SIZE",
            }
        )
        updated = engine.update_item(
            {
                "TableName": table,
                "Key": KEY,
                "UpdateExpression": "SET note = :n",
                "ExpressionAttributeValues": {":n": S("x")},
                "ReturnItemCollectionMetrics": "SIZE",
            }
        )
        if table == "Shop":
            for response in (put, updated):
                assert response["ItemCollectionMetrics"] == {
                    "ItemCollectionKey": {"PK": S("c")},
                    "SizeEstimateRangeGB": [0.0, 1.0],
                }
        else:
            assert "ItemCollectionMetrics" not in put
            assert "ItemCollectionMetrics" not in updated
