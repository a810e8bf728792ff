"""PutItem, UpdateItem, DeleteItem: conditions, return values and checks."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.engine.engine import Engine
from tests.engine.helpers import N, S, index, item, raises, table_request

KEY = {"PK": S("c"), "SK": S("1")}


def _get(engine: Engine, key: dict = KEY) -> dict | None:
    return engine.get_item({"TableName": "Shop", "Key": key}).get("Item")


def _update(engine: Engine, expression: str, **options: Any) -> dict:
    return engine.update_item(
        {"TableName": "Shop", "Key": KEY, "UpdateExpression": expression, **options}
    )


def test_put_get_delete(shop: Engine) -> None:
    assert shop.put_item({"TableName": "Shop", "Item": item("c", "1", n=1)}) == {}
    assert _get(shop) == item("c", "1", n=1)
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", m=2)})
    assert _get(shop) == item("c", "1", m=2)  # a put replaces the whole item
    assert shop.delete_item({"TableName": "Shop", "Key": KEY}) == {}
    assert _get(shop) is None
    shop.delete_item({"TableName": "Shop", "Key": KEY})  # deleting nothing is fine


def test_put_and_delete_return_the_old_item(shop: Engine) -> None:
    first = shop.put_item(
        {"TableName": "Shop", "Item": item("c", "1", n=1), "ReturnValues": "ALL_OLD"}
    )
    assert "Attributes" not in first
    second = shop.put_item(
        {"TableName": "Shop", "Item": item("c", "1", n=2), "ReturnValues": "ALL_OLD"}
    )
    assert second["Attributes"] == item("c", "1", n=1)
    deleted = shop.delete_item(
        {"TableName": "Shop", "Key": KEY, "ReturnValues": "ALL_OLD"}
    )
    assert deleted["Attributes"] == item("c", "1", n=2)
    with raises("ValidationException", "Return values set to invalid value"):
        shop.put_item(
            {"TableName": "Shop", "Item": item("c", "1"), "ReturnValues": "ALL_NEW"}
        )


def test_get_item_projection(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", a="x", b="y")})
    response = shop.get_item(
        {
            "TableName": "Shop",
            "Key": KEY,
            "ProjectionExpression": "a, #b",
            "ExpressionAttributeNames": {"#b": "b"},
        }
    )
    assert response["Item"] == {"a": S("x"), "b": S("y")}


@pytest.mark.parametrize(
    ("mode", "attributes"),
    [
        ("NONE", None),
        ("ALL_OLD", item("c", "1", n=1, keep="k", gone="g")),
        ("ALL_NEW", item("c", "1", n=2, keep="k", added="v")),
        ("UPDATED_OLD", {"n": N(1), "gone": S("g")}),
        ("UPDATED_NEW", {"n": N(2), "added": S("v")}),
    ],
)
def test_update_return_values(shop: Engine, mode: str, attributes: dict | None) -> None:
    shop.put_item(
        {"TableName": "Shop", "Item": item("c", "1", n=1, keep="k", gone="g")}
    )
    response = _update(
        shop,
        "SET n = n + :one, added = :v REMOVE gone",
        ExpressionAttributeValues={":one": N(1), ":v": S("v")},
        ReturnValues=mode,
    )
    assert response.get("Attributes") == attributes


def test_updated_new_returns_only_the_updated_nested_parts(shop: Engine) -> None:
    shop.put_item(
        {
            "TableName": "Shop",
            "Item": item("c", "1", m={"M": {"a": S("x"), "b": S("y")}}),
        }
    )
    response = _update(
        shop,
        "SET m.a = :z",
        ExpressionAttributeValues={":z": S("z")},
        ReturnValues="UPDATED_NEW",
    )
    assert response["Attributes"] == {"m": {"M": {"a": S("z")}}}


def test_update_creates_a_missing_item(shop: Engine) -> None:
    _update(shop, "SET n = :n", ExpressionAttributeValues={":n": N(5)})
    assert _get(shop) == item("c", "1", n=5)


@pytest.mark.parametrize("mode", ["ALL_NEW", "UPDATED_NEW", "ALL_OLD", "NONE"])
def test_an_update_that_only_removes_does_not_create_a_missing_item(
    shop: Engine, mode: str
) -> None:
    """DynamoDB creates a missing item for an update that sets something,
    but one that only removes attributes leaves it absent and returns no
    Attributes (as ScyllaDB's DynamoDB compatibility tests, run against
    DynamoDB, record); a stray key-only item would show in counts, scans
    and sizes. The request still consumes a write unit."""
    response = _update(
        shop,
        "REMOVE gone, extra",
        ReturnValues=mode,
        ReturnConsumedCapacity="TOTAL",
    )
    assert "Attributes" not in response
    assert response["ConsumedCapacity"]["CapacityUnits"] == 1.0
    assert _get(shop) is None
    assert shop.scan({"TableName": "Shop"})["Count"] == 0


def test_deleting_a_missing_item_of_a_table_with_a_local_index(
    engine: Engine,
) -> None:
    """A delete of an absent item is a no-op, also where local secondary
    indexes make the table track item collection sizes (it used to fail
    there with a TypeError)."""
    engine.create_table(table_request(lsis=[index("ByDay", "PK", "day")]))
    response = engine.delete_item(
        {"TableName": "Shop", "Key": KEY, "ReturnItemCollectionMetrics": "SIZE"}
    )
    assert response["ItemCollectionMetrics"]["SizeEstimateRangeGB"] == [0.0, 1.0]
    engine.put_item({"TableName": "Shop", "Item": item("c", "2", day="d")})
    engine.batch_write_item(
        {"RequestItems": {"Shop": [{"DeleteRequest": {"Key": KEY}}]}}
    )
    assert engine.scan({"TableName": "Shop"})["Count"] == 1


def test_update_cannot_change_key_attributes(shop: Engine) -> None:
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Cannot update attribute SK. "
        "This attribute is part of the key",
    ):
        _update(shop, "SET SK = :v", ExpressionAttributeValues={":v": S("2")})


def test_update_may_change_index_keys_and_checks_their_types(engine: Engine) -> None:
    engine.create_table(table_request(gsis=[index("GSI1", "GSI1PK")]))
    engine.put_item({"TableName": "Shop", "Item": item("c", "1", GSI1PK="a")})
    _update(engine, "SET GSI1PK = :v", ExpressionAttributeValues={":v": S("b")})
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for Index Key "
        "GSI1PK Expected: S Actual: N IndexName: GSI1",
    ):
        _update(engine, "SET GSI1PK = :v", ExpressionAttributeValues={":v": N(1)})
    with raises("ValidationException") as error:
        _update(engine, "SET GSI1PK = :v", ExpressionAttributeValues={":v": S("")})
    assert "update a secondary index key" in error.value.message
    assert _get(engine)["GSI1PK"] == S("b")


def test_update_past_400_kb(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", a="x" * 300_000)})
    with raises(
        "ValidationException",
        "Item size to update has exceeded the maximum allowed size",
    ):
        _update(shop, "SET b = :v", ExpressionAttributeValues={":v": S("x" * 200_000)})


def test_conditional_writes(shop: Engine) -> None:
    create = {
        "TableName": "Shop",
        "Item": item("c", "1", v=1),
        "ConditionExpression": "attribute_not_exists(PK)",
    }
    shop.put_item(create)
    with raises("ConditionalCheckFailedException", "The conditional request failed"):
        shop.put_item(create)
    with raises("ConditionalCheckFailedException"):
        _update(
            shop,
            "SET v = :two",
            ConditionExpression="v = :zero",
            ExpressionAttributeValues={":two": N(2), ":zero": N(0)},
        )
    _update(
        shop,
        "SET v = :two",
        ConditionExpression="v = :one",
        ExpressionAttributeValues={":two": N(2), ":one": N(1)},
    )
    with raises("ConditionalCheckFailedException"):
        shop.delete_item(
            {
                "TableName": "Shop",
                "Key": KEY,
                "ConditionExpression": "v = :one",
                "ExpressionAttributeValues": {":one": N(1)},
            }
        )
    assert _get(shop) == item("c", "1", v=2)


def test_condition_failure_can_return_the_item(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", v=1)})
    with raises("ConditionalCheckFailedException") as error:
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": item("c", "1"),
                "ConditionExpression": "attribute_not_exists(PK)",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        )
    assert error.value.response["Item"] == item("c", "1", v=1)


def test_condition_on_a_missing_item_sees_no_attributes(shop: Engine) -> None:
    with raises("ConditionalCheckFailedException"):
        _update(
            shop,
            "SET v = :v",
            ConditionExpression="attribute_exists(PK)",
            ExpressionAttributeValues={":v": N(1)},
        )
    assert _get(shop) is None


def test_expression_names_and_values_only_with_expressions(shop: Engine) -> None:
    with raises(
        "ValidationException",
        "ExpressionAttributeValues can only be specified when using expressions",
    ):
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": item("c", "1"),
                "ExpressionAttributeValues": {":v": N(1)},
            }
        )
    with raises("ValidationException", "ExpressionAttributeValues must not be empty"):
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": item("c", "1"),
                "ConditionExpression": "attribute_not_exists(PK)",
                "ExpressionAttributeValues": {},
            }
        )
    with raises(
        "ValidationException",
        "Value provided in ExpressionAttributeValues unused in expressions: "
        "keys: {:a, :b}",
    ):
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": item("c", "1"),
                "ConditionExpression": "attribute_not_exists(PK)",
                "ExpressionAttributeValues": {":a": N(1), ":b": N(2)},
            }
        )


def test_invalid_values_are_refused(shop: Engine) -> None:
    with raises("ValidationException"):
        shop.put_item(
            {
                "TableName": "Shop",
                "Item": {"PK": S("c"), "SK": S("1"), "n": {"N": "abc"}},
            }
        )
    with raises("ValidationException"):
        shop.put_item(
            {"TableName": "Shop", "Item": {"PK": S("c"), "SK": S("1"), "s": {"SS": []}}}
        )
