"""Tables: CreateTable checks, key checks on writes, sparse and projected
indexes kept up to date, the bulk load, item collections and DescribeTable."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeler.engine import table as table_module
from modeler.engine.engine import Engine
from modeler.engine.schema import table_spec
from modeler.engine.size import item_size
from modeler.engine.table import Table
from tests.engine.helpers import N, S, index, item, raises, table_request

# --- CreateTable --------------------------------------------------------------


def test_attribute_definitions_must_be_exactly_the_key_attributes(
    engine: Engine,
) -> None:
    request = table_request()
    request["AttributeDefinitions"].append(
        {"AttributeName": "status", "AttributeType": "S"}
    )
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Number of attributes in "
        "KeySchema does not exactly match number of attributes defined in "
        "AttributeDefinitions",
    ):
        engine.create_table(request)
    request = table_request(gsis=[index("GSI1", "G1")])
    request["AttributeDefinitions"].append(
        {"AttributeName": "status", "AttributeType": "S"}
    )
    with raises("ValidationException") as error:
        engine.create_table(request)
    assert "Some AttributeDefinitions are not used" in error.value.message


def test_index_key_attributes_must_be_defined(engine: Engine) -> None:
    request = table_request(gsis=[index("GSI1", "G1")])
    request["AttributeDefinitions"] = request["AttributeDefinitions"][:2]
    with raises("ValidationException") as error:
        engine.create_table(request)
    assert "not defined in AttributeDefinitions" in error.value.message


def test_key_types_are_s_n_or_b(engine: Engine) -> None:
    with raises("ValidationException") as error:
        engine.create_table(table_request(types={"SK": "BOOL"}))
    assert "[B, N, S]" in error.value.message


def test_at_most_20_gsis_and_5_lsis(engine: Engine) -> None:
    gsis = [index(f"GSI{n}", f"G{n}") for n in range(21)]
    with raises("ValidationException") as error:
        engine.create_table(table_request(gsis=gsis))
    assert "limit of 20" in error.value.message
    lsis = [index(f"LSI{n}", "PK", f"L{n}") for n in range(6)]
    with raises("ValidationException") as error:
        engine.create_table(table_request(lsis=lsis))
    assert "limit of 5" in error.value.message


def test_lsi_needs_a_table_sort_key_and_the_table_partition_key(engine: Engine) -> None:
    with raises("ValidationException") as error:
        engine.create_table(table_request(sort=None, lsis=[index("LSI1", "PK", "L")]))
    assert "does not have a range key" in error.value.message
    with raises("ValidationException") as error:
        engine.create_table(table_request(lsis=[index("LSI1", "other", "L")]))
    assert "same leading hash key" in error.value.message


def test_gsi_keys_may_have_four_partition_and_four_sort_attributes(
    engine: Engine,
) -> None:
    four = index("Multi", ["a", "b", "c", "d"], ["e", "f", "g", "h"])
    engine.create_table(table_request(gsis=[four]))
    five = index("Multi", ["a", "b", "c", "d", "i"], ["e"])
    with raises("ValidationException") as error:
        engine.create_table(table_request("Other", gsis=[five]))
    assert "at most 4" in error.value.message


def test_include_projection_needs_attributes_and_at_most_100_in_all(
    engine: Engine,
) -> None:
    with raises("ValidationException"):
        engine.create_table(
            table_request(gsis=[index("G", "G1", projection="INCLUDE")])
        )
    many = [
        index(
            f"GSI{n}",
            "G1",
            projection="INCLUDE",
            include=[f"a{n}_{k}" for k in range(51)],
        )
        for n in range(2)
    ]
    with raises("ValidationException") as error:
        engine.create_table(table_request(gsis=many))
    assert "100" in error.value.message


def test_a_table_name_is_created_once(shop: Engine) -> None:
    with raises("ResourceInUseException", "Table already exists: Shop"):
        shop.create_table(table_request())


def test_unknown_tables_are_not_found(engine: Engine) -> None:
    with raises(
        "ResourceNotFoundException",
        "Requested resource not found: Table: Nope not found",
    ):
        engine.describe_table({"TableName": "Nope"})
    with raises("ResourceNotFoundException", "Requested resource not found"):
        engine.get_item({"TableName": "Nope", "Key": {"PK": S("a")}})


# --- Key checks ---------------------------------------------------------------


def test_key_attribute_of_the_wrong_type(shop: Engine) -> None:
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for key PK "
        "expected: S actual: N",
    ):
        shop.put_item({"TableName": "Shop", "Item": {"PK": N(1), "SK": S("a")}})


def test_missing_key_attribute(shop: Engine) -> None:
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Missing the key SK in the item",
    ):
        shop.put_item({"TableName": "Shop", "Item": {"PK": S("a")}})


def test_empty_key_string(shop: Engine) -> None:
    with raises(
        "ValidationException",
        "One or more parameter values are not valid. The AttributeValue for a "
        "key attribute cannot contain an empty string value. Key: PK",
    ):
        shop.put_item({"TableName": "Shop", "Item": {"PK": S(""), "SK": S("a")}})


def test_partition_key_up_to_2048_bytes_sort_key_up_to_1024(shop: Engine) -> None:
    shop.put_item({"TableName": "Shop", "Item": item("é" * 1024, "x" * 1024)})
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Size of hashkey has exceeded "
        "the maximum size limit of2048 bytes",
    ):
        shop.put_item({"TableName": "Shop", "Item": item("x" * 2049, "a")})
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Aggregated size of all range "
        "keys has exceeded the size limit of 1024 bytes",
    ):
        shop.put_item({"TableName": "Shop", "Item": item("a", "é" * 513)})


def test_gsi_key_attribute_of_the_wrong_type(engine: Engine) -> None:
    engine.create_table(table_request(gsis=[index("GSI1", "GSI1PK")]))
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for Index Key "
        "GSI1PK Expected: S Actual: N IndexName: GSI1",
    ):
        engine.put_item({"TableName": "Shop", "Item": item("a", "b", GSI1PK=5)})


def test_items_up_to_400_kb(shop: Engine) -> None:
    # PK + "a" + SK + "b" + "data" = 2 + 1 + 2 + 1 + 4 = 10 bytes besides the value.
    shop.put_item({"TableName": "Shop", "Item": item("a", "b", data="x" * 409_590)})
    with raises(
        "ValidationException", "Item size has exceeded the maximum allowed size"
    ):
        shop.put_item({"TableName": "Shop", "Item": item("a", "b", data="x" * 409_591)})


def test_key_of_a_read_must_match_the_schema(shop: Engine) -> None:
    message = "The provided key element does not match the schema"
    for key in (
        {"PK": S("a")},
        {"PK": S("a"), "SK": N(1)},
        {"PK": S("a"), "SK": S("b"), "x": S("c")},
    ):
        with raises("ValidationException", message):
            shop.get_item({"TableName": "Shop", "Key": key})


# --- Indexes ------------------------------------------------------------------


def _gsi_items(engine: Engine, name: str, pk_attr: str, pk: str) -> list[dict]:
    return engine.query(
        {
            "TableName": "Shop",
            "IndexName": name,
            "KeyConditionExpression": "#k = :v",
            "ExpressionAttributeNames": {"#k": pk_attr},
            "ExpressionAttributeValues": {":v": S(pk)},
        }
    )["Items"]


def test_sparse_index_holds_only_items_with_every_key_attribute(engine: Engine) -> None:
    engine.create_table(table_request(gsis=[index("Open", "openStatus", "due")]))
    engine.put_item(
        {
            "TableName": "Shop",
            "Item": item("1", "a", openStatus="OPEN", due="2024-05-01"),
        }
    )
    engine.put_item({"TableName": "Shop", "Item": item("2", "a", openStatus="OPEN")})
    engine.put_item({"TableName": "Shop", "Item": item("3", "a", due="2024-05-02")})
    assert [i["PK"]["S"] for i in _gsi_items(engine, "Open", "openStatus", "OPEN")] == [
        "1"
    ]
    # A write that removes an index key attribute takes the item out.
    engine.update_item(
        {
            "TableName": "Shop",
            "Key": item("1", "a"),
            "UpdateExpression": "REMOVE openStatus",
        }
    )
    assert _gsi_items(engine, "Open", "openStatus", "OPEN") == []
    # One that adds the missing attribute puts it in.
    engine.update_item(
        {
            "TableName": "Shop",
            "Key": item("2", "a"),
            "UpdateExpression": "SET due = :d",
            "ExpressionAttributeValues": {":d": S("2024-06-01")},
        }
    )
    assert [i["PK"]["S"] for i in _gsi_items(engine, "Open", "openStatus", "OPEN")] == [
        "2"
    ]


def test_index_key_change_moves_the_entry(engine: Engine) -> None:
    engine.create_table(table_request(gsis=[index("ByStatus", "status")]))
    engine.put_item({"TableName": "Shop", "Item": item("1", "a", status="OPEN")})
    engine.update_item(
        {
            "TableName": "Shop",
            "Key": item("1", "a"),
            "UpdateExpression": "SET #s = :s",
            "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": {":s": S("CLOSED")},
        }
    )
    assert _gsi_items(engine, "ByStatus", "status", "OPEN") == []
    assert len(_gsi_items(engine, "ByStatus", "status", "CLOSED")) == 1
    engine.delete_item({"TableName": "Shop", "Key": item("1", "a")})
    assert _gsi_items(engine, "ByStatus", "status", "CLOSED") == []


@pytest.mark.parametrize(
    ("projection", "include", "attributes"),
    [
        ("KEYS_ONLY", None, {"PK", "SK", "G1"}),
        ("INCLUDE", ["name"], {"PK", "SK", "G1", "name"}),
        ("ALL", None, {"PK", "SK", "G1", "name", "secret"}),
    ],
)
def test_index_entries_hold_the_projected_attributes(
    engine: Engine, projection: str, include: list[str] | None, attributes: set[str]
) -> None:
    engine.create_table(
        table_request(
            gsis=[index("GSI1", "G1", projection=projection, include=include)]
        )
    )
    engine.put_item(
        {"TableName": "Shop", "Item": item("1", "a", G1="g", name="Ann", secret="x")}
    )
    (entry,) = _gsi_items(engine, "GSI1", "G1", "g")
    assert set(entry) == attributes


# --- Bulk load ----------------------------------------------------------------


def _spec(**kwargs) -> Table:
    return Table(table_spec(table_request(**kwargs)))


def test_load_gives_the_same_table_as_puts() -> None:
    items = [
        {
            "PK": f"C#{n % 7}",
            "SK": f"O#{n:03d}",
            "G1": f"S#{n % 3}",
            "total": Decimal(n),
        }
        for n in range(60)
    ]
    items[5].pop("G1")
    gsis = [
        index("GSI1", "G1", "SK", projection="KEYS_ONLY"),
        index("GSI2", "G1", "PK"),
        index("GSI3", "G1", projection="INCLUDE", include=["total"]),
    ]
    loaded = _spec(gsis=gsis)
    loaded.load(items)
    put = Engine()
    put.create_table(table_request(gsis=gsis))
    for one in items:
        put.tables["Shop"].write(None, one, put.tables["Shop"].check_item(one))
    assert list(loaded) == list(put.tables["Shop"])
    for name in ("GSI1", "GSI2", "GSI3"):
        stores = (loaded.indexes[name].store, put.tables["Shop"].indexes[name].store)
        assert list(stores[0]) == list(stores[1])
        assert stores[0].bytes == stores[1].bytes
        assert [list(stores[0].sizes(p)) for p in stores[0].partitions.values()] == [
            list(stores[1].sizes(p)) for p in stores[1].partitions.values()
        ]
    assert loaded.store.bytes == put.tables["Shop"].store.bytes
    assert len(loaded) == 60
    assert loaded.indexes["GSI1"].store.count == 59


def test_load_keeps_the_last_of_equal_keys() -> None:
    table = _spec(gsis=[index("GSI1", "G1")])
    table.load(
        [
            {"PK": "a", "SK": "1", "G1": "old"},
            {"PK": "a", "SK": "1", "G1": "new"},
            {"PK": "b", "SK": "1"},
        ]
    )
    assert len(table) == 2
    assert table.get({"PK": "a", "SK": "1"})[0]["G1"] == "new"
    assert [e["G1"] for e in table.indexes["GSI1"].store] == ["new"]


def test_load_checks_keys_and_leaves_the_table_empty_on_error() -> None:
    table = _spec()
    with raises("ValidationException"):
        table.load([{"PK": "a", "SK": "1"}, {"PK": "a", "SK": 1}])
    assert len(table) == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"SK": "1"},  # no partition key
        {"PK": "", "SK": "1"},
        {"PK": "a", "SK": None},
        {"PK": "a" * 2049, "SK": "1"},  # 2,049 bytes of partition key
        {"PK": "a", "SK": "é" * 600},  # 600 characters, 1,200 bytes
        {"PK": "a", "SK": "1", "G1": ""},
        {"PK": "a", "SK": "1", "G1": None},  # NULL, not a missing index key
        {"PK": "a", "SK": "1", "G1": Decimal(1)},
        {"PK": "a", "SK": "1", "G2": "x" * 1025},  # an index sort key
        {"PK": "a", "SK": "1", "v": "x" * 409_600},  # the item too large
    ],
)
def test_load_refuses_an_item_as_a_put_does(bad: dict) -> None:
    # The load's own test of each item lets through only what passes every
    # check of a put; what it doubts, the put's check refuses, or passes.
    gsis = [index("GSI1", "G1", "G2"), index("GSI2", "PK", "G2")]
    with raises("ValidationException") as put:
        _spec(gsis=gsis).check_item(bad)
    table = _spec(gsis=gsis)
    with raises("ValidationException") as loaded:
        table.load([{"PK": "b", "SK": "1", "G2": "x" * 1024}, bad])
    assert loaded.value.message == put.value.message
    assert len(table) == 0


def test_load_takes_items_a_put_takes_that_its_own_test_doubts() -> None:
    # Missing index keys, keys of 1,024 characters: checked again, and kept.
    items = [
        {"PK": "a", "SK": "1"},
        {"PK": "a", "SK": "2", "G1": "g", "G2": "x" * 1024},
        {"PK": "a" * 2048, "SK": "é" * 512},
    ]
    sizes: list[int] = []
    table = _spec(gsis=[index("GSI1", "G1", "G2")])
    table.load(items, sizes)
    assert len(table) == 3
    assert sizes == [item_size(i) for i in items]


def test_load_into_a_table_with_items_puts_one_by_one() -> None:
    table = _spec()
    table.load([{"PK": "a", "SK": "1", "v": "old"}])
    table.load([{"PK": "a", "SK": "1", "v": "new"}, {"PK": "a", "SK": "2"}])
    assert [i.get("v") for i in table] == ["new", None]


def test_load_gives_each_items_size_in_the_items_order() -> None:
    # The review takes these as its item sizes: one per item given, a
    # replaced item's included, on both ways of loading.
    items = [
        {"PK": "a", "SK": "1", "note": "é" * 5},
        {"PK": "b", "SK": "1", "total": Decimal("12.50")},
        {"PK": "a", "SK": "1", "tags": ["x", {"y": True}]},
    ]
    sizes: list[int] = []
    table = _spec()
    table.load(items, sizes)
    assert sizes == [item_size(i) for i in items] == [20, 14, 22]
    more = [{"PK": "c", "SK": "1", "v": "new"}]
    table.load(more, sizes)
    assert sizes[3:] == [item_size(more[0])] == [10]


# --- Item collections ---------------------------------------------------------


def test_item_collection_over_10_gb_with_an_lsi(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_module, "ITEM_COLLECTION_LIMIT", 1000)
    engine.create_table(table_request(lsis=[index("ByDate", "PK", "date")]))
    engine.put_item(
        {"TableName": "Shop", "Item": item("c", "1", date="d", x="y" * 400)}
    )
    engine.put_item({"TableName": "Shop", "Item": item("other", "1", x="y" * 900)})
    with raises("ItemCollectionSizeLimitExceededException"):
        engine.put_item({"TableName": "Shop", "Item": item("c", "2", x="y" * 400)})
    # Shrinking writes are always allowed, and nothing was written above.
    engine.delete_item({"TableName": "Shop", "Key": item("c", "1")})
    assert engine.tables["Shop"].collection_size("c") == 0


def test_item_collection_metrics_on_request(engine: Engine) -> None:
    engine.create_table(table_request(lsis=[index("ByDate", "PK", "date")]))
    response = engine.put_item(
        {
            "TableName": "Shop",
            "Item": item("c", "1", date="d"),
            "ReturnItemCollectionMetrics": "SIZE",
        }
    )
    assert response["ItemCollectionMetrics"] == {
        "ItemCollectionKey": {"PK": S("c")},
        "SizeEstimateRangeGB": [0.0, 1.0],
    }


# --- DescribeTable, ListTables, DeleteTable -----------------------------------


def test_describe_table_counts_items_and_index_entries(engine: Engine) -> None:
    engine.create_table(
        table_request(gsis=[index("GSI1", "G1", projection="KEYS_ONLY")])
    )
    engine.put_item({"TableName": "Shop", "Item": item("a", "1", G1="g", v="xyz")})
    engine.put_item({"TableName": "Shop", "Item": item("a", "2")})
    table = engine.describe_table({"TableName": "Shop"})["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["ItemCount"] == 2
    assert table["TableSizeBytes"] == (2 + 1 + 2 + 1 + 2 + 1 + 1 + 3) + (2 + 1 + 2 + 1)
    (gsi,) = table["GlobalSecondaryIndexes"]
    assert gsi["ItemCount"] == 1
    assert gsi["IndexSizeBytes"] == 2 + 1 + 2 + 1 + 2 + 1
    assert gsi["IndexStatus"] == "ACTIVE"
    assert table["BillingModeSummary"] == {"BillingMode": "PAY_PER_REQUEST"}


def test_list_and_delete_tables(engine: Engine) -> None:
    for name in ("Orders", "Alpha", "Zeta"):
        engine.create_table(table_request(name))
    assert engine.list_tables({})["TableNames"] == ["Alpha", "Orders", "Zeta"]
    page = engine.list_tables({"Limit": 2})
    assert page == {
        "TableNames": ["Alpha", "Orders"],
        "LastEvaluatedTableName": "Orders",
    }
    assert engine.list_tables({"ExclusiveStartTableName": "Orders"})["TableNames"] == [
        "Zeta"
    ]
    deleted = engine.delete_table({"TableName": "Orders"})
    assert deleted["TableDescription"]["TableStatus"] == "DELETING"
    assert engine.list_tables({})["TableNames"] == ["Alpha", "Zeta"]
