"""BatchWriteItem (at most 25 puts and deletes) and BatchGetItem (at most 100
keys); no throttling, so nothing is ever left unprocessed."""

from __future__ import annotations

from modeler.engine.engine import Engine
from tests.engine.helpers import S, item, raises, table_request


def _key(pk: str, sk: str) -> dict:
    return {"PK": S(pk), "SK": S(sk)}


def test_batch_write_puts_and_deletes(shop: Engine) -> None:
    shop.create_table(table_request("Audit", sort=None))
    shop.put_item({"TableName": "Shop", "Item": item("c", "gone")})
    response = shop.batch_write_item(
        {
            "RequestItems": {
                "Shop": [
                    {"PutRequest": {"Item": item("c", "1")}},
                    {"DeleteRequest": {"Key": _key("c", "gone")}},
                ],
                "Audit": [{"PutRequest": {"Item": item("event")}}],
            }
        }
    )
    assert response == {"UnprocessedItems": {}}
    scanned = shop.scan({"TableName": "Shop"})
    assert scanned["Items"] == [item("c", "1")]
    assert shop.scan({"TableName": "Audit"})["Count"] == 1


def test_batch_write_at_most_25(shop: Engine) -> None:
    shop.batch_write_item(
        {
            "RequestItems": {
                "Shop": [{"PutRequest": {"Item": item("c", str(n))}} for n in range(25)]
            }
        }
    )
    with raises("ValidationException") as error:
        shop.batch_write_item(
            {
                "RequestItems": {
                    "Shop": [
                        {"PutRequest": {"Item": item("d", str(n))}} for n in range(26)
                    ]
                }
            }
        )
    assert "less than or equal to 25" in error.value.message


def test_batch_write_refuses_two_requests_for_one_item(shop: Engine) -> None:
    with raises(
        "ValidationException", "Provided list of item keys contains duplicates"
    ):
        shop.batch_write_item(
            {
                "RequestItems": {
                    "Shop": [
                        {"PutRequest": {"Item": item("c", "1")}},
                        {"DeleteRequest": {"Key": _key("c", "1")}},
                    ]
                }
            }
        )


def test_batch_write_is_checked_before_anything_is_written(shop: Engine) -> None:
    with raises("ValidationException"):
        shop.batch_write_item(
            {
                "RequestItems": {
                    "Shop": [
                        {"PutRequest": {"Item": item("c", "1")}},
                        {"PutRequest": {"Item": {"PK": S("c")}}},
                    ]
                }
            }
        )
    assert shop.scan({"TableName": "Shop"})["Count"] == 0


def test_batch_get_returns_found_items(shop: Engine) -> None:
    for sk in ("1", "2"):
        shop.put_item({"TableName": "Shop", "Item": item("c", sk, a="x", b="y")})
    response = shop.batch_get_item(
        {
            "RequestItems": {
                "Shop": {
                    "Keys": [_key("c", "1"), _key("c", "2"), _key("c", "3")],
                    "ProjectionExpression": "SK, #b",
                    "ExpressionAttributeNames": {"#b": "b"},
                }
            }
        }
    )
    assert response["UnprocessedKeys"] == {}
    assert sorted(response["Responses"]["Shop"], key=lambda i: i["SK"]["S"]) == [
        {"SK": S("1"), "b": S("y")},
        {"SK": S("2"), "b": S("y")},
    ]


def test_batch_get_at_most_100_keys(shop: Engine) -> None:
    keys = [_key("c", str(n)) for n in range(100)]
    shop.batch_get_item({"RequestItems": {"Shop": {"Keys": keys}}})
    with raises(
        "ValidationException", "Too many items requested for the BatchGetItem call"
    ):
        shop.batch_get_item(
            {"RequestItems": {"Shop": {"Keys": keys + [_key("c", "x")]}}}
        )


def test_batch_get_refuses_duplicate_keys(shop: Engine) -> None:
    with raises(
        "ValidationException", "Provided list of item keys contains duplicates"
    ):
        shop.batch_get_item(
            {"RequestItems": {"Shop": {"Keys": [_key("c", "1"), _key("c", "1")]}}}
        )


def test_batch_get_unknown_table(shop: Engine) -> None:
    with raises("ResourceNotFoundException"):
        shop.batch_get_item({"RequestItems": {"Nope": {"Keys": [_key("c", "1")]}}})
