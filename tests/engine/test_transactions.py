"""TransactWriteItems and TransactGetItems: all or nothing, one reason per
action, one operation per item, at most 100 actions."""

from __future__ import annotations

from typing import Any

from modeler.engine.engine import Engine
from tests.engine.helpers import N, S, index, item, raises, table_request


def _get(engine: Engine, pk: str, sk: str) -> dict | None:
    return engine.get_item(
        {"TableName": "Shop", "Key": {"PK": S(pk), "SK": S(sk)}}
    ).get("Item")


def _put(pk: str, sk: str, condition: str | None = None, **attributes: Any) -> dict:
    spec: dict[str, Any] = {"TableName": "Shop", "Item": item(pk, sk, **attributes)}
    if condition:
        spec["ConditionExpression"] = condition
    return {"Put": spec}


def test_all_actions_apply_together(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "old", n=1)})
    shop.put_item({"TableName": "Shop", "Item": item("c", "stock", qty=5)})
    shop.transact_write_items(
        {
            "TransactItems": [
                _put("c", "order", "attribute_not_exists(PK)"),
                {
                    "Delete": {
                        "TableName": "Shop",
                        "Key": {"PK": S("c"), "SK": S("old")},
                    }
                },
                {
                    "Update": {
                        "TableName": "Shop",
                        "Key": {"PK": S("c"), "SK": S("stock")},
                        "UpdateExpression": "SET qty = qty - :one",
                        "ConditionExpression": "qty >= :one",
                        "ExpressionAttributeValues": {":one": N(1)},
                    }
                },
            ]
        }
    )
    assert _get(shop, "c", "order") == item("c", "order")
    assert _get(shop, "c", "old") is None
    assert _get(shop, "c", "stock") == item("c", "stock", qty=4)


def test_a_failed_condition_cancels_every_action(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "stock", qty=0)})
    with raises(
        "TransactionCanceledException",
        "Transaction cancelled, please refer cancellation reasons for specific "
        "reasons [None, ConditionalCheckFailed]",
    ) as error:
        shop.transact_write_items(
            {
                "TransactItems": [
                    _put("c", "order"),
                    {
                        "ConditionCheck": {
                            "TableName": "Shop",
                            "Key": {"PK": S("c"), "SK": S("stock")},
                            "ConditionExpression": "qty > :zero",
                            "ExpressionAttributeValues": {":zero": N(0)},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                        }
                    },
                ]
            }
        )
    assert error.value.reasons == [
        {"Code": "None"},
        {
            "Code": "ConditionalCheckFailed",
            "Message": "The conditional request failed",
            "Item": item("c", "stock", qty=0),
        },
    ]
    assert error.value.response["CancellationReasons"] == error.value.reasons
    assert _get(shop, "c", "order") is None


def test_an_invalid_update_of_the_stored_item_cancels(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", n="text")})
    with raises("TransactionCanceledException") as error:
        shop.transact_write_items(
            {
                "TransactItems": [
                    _put("c", "2"),
                    {
                        "Update": {
                            "TableName": "Shop",
                            "Key": {"PK": S("c"), "SK": S("1")},
                            "UpdateExpression": "SET n = n + :one",
                            "ExpressionAttributeValues": {":one": N(1)},
                        }
                    },
                ]
            }
        )
    assert [r["Code"] for r in error.value.reasons] == ["None", "ValidationError"]
    assert _get(shop, "c", "2") is None


def test_one_operation_per_item(shop: Engine) -> None:
    with raises(
        "ValidationException",
        "Transaction request cannot include multiple operations on one item",
    ):
        shop.transact_write_items(
            {
                "TransactItems": [
                    _put("c", "1"),
                    {
                        "Delete": {
                            "TableName": "Shop",
                            "Key": {"PK": S("c"), "SK": S("1")},
                        }
                    },
                ]
            }
        )


def test_at_most_100_actions(shop: Engine) -> None:
    shop.transact_write_items(
        {"TransactItems": [_put("c", str(n)) for n in range(100)]}
    )
    with raises("ValidationException") as error:
        shop.transact_write_items(
            {"TransactItems": [_put("d", str(n)) for n in range(101)]}
        )
    assert "less than or equal to 100" in error.value.message


def test_an_action_is_exactly_one_operation(shop: Engine) -> None:
    with raises("ValidationException"):
        shop.transact_write_items(
            {
                "TransactItems": [
                    {
                        **_put("c", "1"),
                        "Delete": {
                            "TableName": "Shop",
                            "Key": {"PK": S("c"), "SK": S("2")},
                        },
                    },
                ]
            }
        )


def test_indexes_follow_a_transaction(engine: Engine) -> None:
    engine.create_table(table_request(gsis=[index("ByStatus", "status")]))
    engine.transact_write_items(
        {
            "TransactItems": [
                _put("c", "1", status="OPEN"),
                _put("c", "2", status="OPEN"),
            ]
        }
    )
    response = engine.query(
        {
            "TableName": "Shop",
            "IndexName": "ByStatus",
            "KeyConditionExpression": "#s = :s",
            "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": {":s": S("OPEN")},
        }
    )
    assert response["Count"] == 2


def test_transact_get_items_returns_one_response_per_action(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("c", "1", a="x", b="y")})
    response = shop.transact_get_items(
        {
            "TransactItems": [
                {
                    "Get": {
                        "TableName": "Shop",
                        "Key": {"PK": S("c"), "SK": S("1")},
                        "ProjectionExpression": "a",
                    }
                },
                {
                    "Get": {
                        "TableName": "Shop",
                        "Key": {"PK": S("c"), "SK": S("missing")},
                    }
                },
            ]
        }
    )
    assert response["Responses"] == [{"Item": {"a": S("x")}}, {}]
    with raises(
        "ValidationException",
        "Transaction request cannot include multiple operations on one item",
    ):
        shop.transact_get_items(
            {
                "TransactItems": [
                    {"Get": {"TableName": "Shop", "Key": {"PK": S("c"), "SK": S("1")}}},
                ]
                * 2
            }
        )
