"""Capacity units, pinned to the documented rules and examples."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.engine.capacity import read_units, write_units
from modeler.engine.engine import Engine
from tests.engine.helpers import S, index, item, raises, table_request

KEY = {"PK": S("c"), "SK": S("1")}


def _sized(size: int, pk: str = "c", sk: str = "1", **extra: Any) -> dict:
    """A wire item of exactly `size` bytes: PK + pk + SK + sk + data + value."""
    overhead = (
        2 + len(pk) + 2 + len(sk) + 4 + sum(len(k) + len(v) for k, v in extra.items())
    )
    return item(pk, sk, data="x" * (size - overhead), **extra)


def _units(response: dict) -> float:
    return response["ConsumedCapacity"]["CapacityUnits"]


def test_units_round_up() -> None:
    assert read_units(0, 0.5) == 0.5
    assert read_units(4096, 1.0) == 1.0
    assert read_units(4097, 1.0) == 2.0
    assert write_units(1) == 1
    assert write_units(1024) == 1
    assert write_units(1025) == 2


@pytest.mark.parametrize(("consistent", "units"), [(True, 2.0), (False, 1.0)])
def test_get_item_of_4_5_kb(shop: Engine, consistent: bool, units: float) -> None:
    shop.put_item({"TableName": "Shop", "Item": _sized(4608)})
    response = shop.get_item(
        {
            "TableName": "Shop",
            "Key": KEY,
            "ConsistentRead": consistent,
            "ReturnConsumedCapacity": "TOTAL",
        }
    )
    assert response["ConsumedCapacity"] == {
        "TableName": "Shop",
        "CapacityUnits": units,
    }


@pytest.mark.parametrize(("consistent", "units"), [(False, 0.5), (True, 1.0)])
def test_get_item_of_a_missing_item_costs_the_minimum(
    shop: Engine, consistent: bool, units: float
) -> None:
    response = shop.get_item(
        {
            "TableName": "Shop",
            "Key": KEY,
            "ConsistentRead": consistent,
            "ReturnConsumedCapacity": "TOTAL",
        }
    )
    assert "Item" not in response
    assert _units(response) == units


@pytest.fixture
def hundred(shop: Engine) -> Engine:
    """Partition "c": 100 items of 300 bytes."""
    for n in range(100):
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": _sized(300, sk=f"{n:03d}", kind="odd" if n % 2 else "ev"),
            }
        )
    return shop


def _query(engine: Engine, **options: Any) -> dict:
    values = {":c": S("c"), **options.pop("values", {})}
    return engine.query(
        {
            "TableName": "Shop",
            "KeyConditionExpression": "PK = :c",
            "ExpressionAttributeValues": values,
            "ReturnConsumedCapacity": "TOTAL",
            **options,
        }
    )


def test_query_of_100_items_of_300_bytes(hundred: Engine) -> None:
    # ceil(30,000 / 4,096) = 8 units, halved for an eventually consistent read.
    assert _units(_query(hundred)) == 4.0
    assert _units(_query(hundred, ConsistentRead=True)) == 8.0


def test_filter_projection_and_count_do_not_reduce_the_cost(hundred: Engine) -> None:
    filtered = _query(hundred, FilterExpression="kind = :k", values={":k": S("none")})
    assert filtered["Count"] == 0
    assert _units(filtered) == 4.0
    assert _units(_query(hundred, ProjectionExpression="SK")) == 4.0
    assert _units(_query(hundred, Select="COUNT")) == 4.0


def test_query_that_reads_nothing_costs_the_minimum(hundred: Engine) -> None:
    response = _query(hundred, values={":c": S("nobody")})
    assert _units(response) == 0.5


def test_limit_reduces_what_is_read(hundred: Engine) -> None:
    # 10 items: 3,000 bytes, one unit of 4 KB.
    assert _units(_query(hundred, Limit=10)) == 0.5


def test_scan_page_of_1_kb_items_costs_128_5_units(shop: Engine) -> None:
    """A full 1 MB page reads past 1 MB (the item that reaches it is read):
    257 blocks of 4 KB, 128.5 units eventually consistent, the figure
    DynamoDB reports for Scan pages of ~1 KB items."""
    for n in range(1100):
        shop.put_item({"TableName": "Shop", "Item": _sized(1000, pk=f"{n:04d}")})
    response = shop.scan({"TableName": "Shop", "ReturnConsumedCapacity": "TOTAL"})
    assert response["ScannedCount"] == 1049  # 1,049,000 bytes >= 1,048,576
    assert _units(response) == 128.5


def test_batch_get_rounds_each_item(shop: Engine) -> None:
    for sk in ("1", "2"):
        shop.put_item({"TableName": "Shop", "Item": _sized(100, sk=sk)})
    response = shop.batch_get_item(
        {
            "RequestItems": {
                "Shop": {
                    "Keys": [
                        KEY,
                        {"PK": S("c"), "SK": S("2")},
                        {"PK": S("c"), "SK": S("3")},
                    ]
                }
            },
            "ReturnConsumedCapacity": "TOTAL",
        }
    )
    # Three reads of at most 4 KB each, eventually consistent.
    assert response["ConsumedCapacity"] == [{"TableName": "Shop", "CapacityUnits": 1.5}]


def test_put_of_1_5_kb_costs_2_units(shop: Engine) -> None:
    response = shop.put_item(
        {"TableName": "Shop", "Item": _sized(1536), "ReturnConsumedCapacity": "TOTAL"}
    )
    assert response["ConsumedCapacity"] == {
        "TableName": "Shop",
        "CapacityUnits": 2.0,
    }


def test_writes_charge_the_larger_of_old_and_new(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": _sized(3000)})
    small = shop.put_item(
        {"TableName": "Shop", "Item": _sized(100), "ReturnConsumedCapacity": "TOTAL"}
    )
    assert _units(small) == 3.0
    update = shop.update_item(
        {
            "TableName": "Shop",
            "Key": KEY,
            "UpdateExpression": "SET big = :b",
            "ExpressionAttributeValues": {":b": S("x" * 2000)},
            "ReturnConsumedCapacity": "TOTAL",
        }
    )
    assert _units(update) == 3.0  # 100 bytes before, 2,103 after
    deleted = shop.delete_item(
        {"TableName": "Shop", "Key": KEY, "ReturnConsumedCapacity": "TOTAL"}
    )
    assert _units(deleted) == 3.0
    nothing = shop.delete_item(
        {"TableName": "Shop", "Key": KEY, "ReturnConsumedCapacity": "TOTAL"}
    )
    assert _units(nothing) == 1.0


def test_failed_conditional_write_still_consumes(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": _sized(1536)})
    with raises("ConditionalCheckFailedException") as error:
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": _sized(100),
                "ConditionExpression": "attribute_not_exists(PK)",
                "ReturnConsumedCapacity": "TOTAL",
            }
        )
    assert error.value.consumed_capacity["CapacityUnits"] == 2.0


@pytest.fixture
def indexed(engine: Engine) -> Engine:
    engine.create_table(
        table_request(
            gsis=[
                index("ByStatus", "status", projection="KEYS_ONLY"),
                index("ByEmail", "email"),
            ]
        )
    )
    return engine


def _write(engine: Engine, operation: str, **request: Any) -> dict:
    request = {"TableName": "Shop", "ReturnConsumedCapacity": "INDEXES", **request}
    return getattr(engine, operation)(request)["ConsumedCapacity"]


def test_a_put_costs_each_index_it_enters(indexed: Engine) -> None:
    consumed = _write(
        indexed, "put_item", Item=item("c", "1", status="OPEN", email="a@b.c")
    )
    assert consumed == {
        "TableName": "Shop",
        "CapacityUnits": 3.0,
        "Table": {"CapacityUnits": 1.0},
        "GlobalSecondaryIndexes": {
            "ByStatus": {"CapacityUnits": 1.0},
            "ByEmail": {"CapacityUnits": 1.0},
        },
    }
    sparse = _write(indexed, "put_item", Item=item("c", "2", status="OPEN"))
    assert set(sparse["GlobalSecondaryIndexes"]) == {"ByStatus"}


def _update(engine: Engine, expression: str, values: dict | None = None) -> dict:
    request: dict[str, Any] = {
        "Key": KEY,
        "UpdateExpression": expression,
        "ExpressionAttributeNames": {"#s": "status"},
    }
    if "#s" not in expression:
        del request["ExpressionAttributeNames"]
    if values:
        request["ExpressionAttributeValues"] = values
    return _write(engine, "update_item", **request)


def test_index_key_change_costs_a_delete_and_a_put(indexed: Engine) -> None:
    indexed.put_item(
        {"TableName": "Shop", "Item": item("c", "1", status="OPEN", email="a@b.c")}
    )
    consumed = _update(indexed, "SET #s = :s", {":s": S("DONE")})
    assert consumed["GlobalSecondaryIndexes"]["ByStatus"]["CapacityUnits"] == 2.0
    # ByEmail projects everything: its entry changed, one write.
    assert consumed["GlobalSecondaryIndexes"]["ByEmail"]["CapacityUnits"] == 1.0


def test_unprojected_attribute_change_costs_the_index_nothing(indexed: Engine) -> None:
    indexed.put_item(
        {"TableName": "Shop", "Item": item("c", "1", status="OPEN", email="a@b.c")}
    )
    consumed = _update(indexed, "SET note = :n", {":n": S("hello")})
    assert set(consumed["GlobalSecondaryIndexes"]) == {"ByEmail"}
    assert consumed["CapacityUnits"] == 2.0


def test_leaving_a_sparse_index_costs_one_write(indexed: Engine) -> None:
    indexed.put_item({"TableName": "Shop", "Item": item("c", "1", status="OPEN")})
    consumed = _update(indexed, "REMOVE #s")
    assert consumed["GlobalSecondaryIndexes"] == {"ByStatus": {"CapacityUnits": 1.0}}


def test_index_writes_are_sized_by_the_index_entry(indexed: Engine) -> None:
    big = item("c", "1", status="OPEN", email="a@b.c", data="x" * 3000)
    consumed = _write(indexed, "put_item", Item=big)
    # 3,030 bytes: 3 units for the table and for the index that projects all.
    assert consumed["Table"]["CapacityUnits"] == 3.0
    assert consumed["GlobalSecondaryIndexes"]["ByStatus"]["CapacityUnits"] == 1.0
    assert consumed["GlobalSecondaryIndexes"]["ByEmail"]["CapacityUnits"] == 3.0


def test_gsi_query_reads_index_entry_sizes(indexed: Engine) -> None:
    for n in range(5):
        indexed.put_item(
            {
                "TableName": "Shop",
                "Item": item(
                    "c", str(n), status="OPEN", email=f"{n}@b.c", data="x" * 3000
                ),
            }
        )
    response = indexed.query(
        {
            "TableName": "Shop",
            "IndexName": "ByStatus",
            "KeyConditionExpression": "#s = :s",
            "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": {":s": S("OPEN")},
            "ReturnConsumedCapacity": "INDEXES",
        }
    )
    # Entries of keys only: ~25 bytes each, one unit of 4 KB.
    assert response["ConsumedCapacity"] == {
        "TableName": "Shop",
        "CapacityUnits": 0.5,
        "Table": {"CapacityUnits": 0.0},
        "GlobalSecondaryIndexes": {"ByStatus": {"CapacityUnits": 0.5}},
    }


def test_transactions_cost_twice(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": _sized(1536)})
    read = shop.transact_get_items(
        {
            "TransactItems": [{"Get": {"TableName": "Shop", "Key": KEY}}],
            "ReturnConsumedCapacity": "TOTAL",
        }
    )
    assert read["ConsumedCapacity"] == [
        {"TableName": "Shop", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}
    ]
    write = shop.transact_write_items(
        {
            "TransactItems": [{"Put": {"TableName": "Shop", "Item": _sized(1536)}}],
            "ReturnConsumedCapacity": "TOTAL",
        }
    )
    assert write["ConsumedCapacity"] == [
        {"TableName": "Shop", "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}
    ]


def test_no_consumed_capacity_unless_asked(shop: Engine) -> None:
    assert shop.put_item({"TableName": "Shop", "Item": item("c", "1")}) == {}
    response = shop.get_item(
        {"TableName": "Shop", "Key": KEY, "ReturnConsumedCapacity": "NONE"}
    )
    assert "ConsumedCapacity" not in response


def test_batch_write_sums_the_units_of_each_table(indexed: Engine) -> None:
    consumed = indexed.batch_write_item(
        {
            "RequestItems": {
                "Shop": [
                    {"PutRequest": {"Item": item("c", str(n), status="OPEN")}}
                    for n in range(3)
                ]
            },
            "ReturnConsumedCapacity": "INDEXES",
        }
    )["ConsumedCapacity"]
    assert consumed == [
        {
            "TableName": "Shop",
            "CapacityUnits": 6.0,
            "Table": {"CapacityUnits": 3.0},
            "GlobalSecondaryIndexes": {"ByStatus": {"CapacityUnits": 3.0}},
        }
    ]
