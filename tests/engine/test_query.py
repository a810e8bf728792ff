"""Query: key conditions, direction, Limit, pages, start keys, filters,
projections and Select, on the table and on its indexes."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.engine.engine import Engine
from tests.engine.helpers import N, S, index, item, raises, sks, table_request


def _query(engine: Engine, condition: str = "PK = :p", **values: Any) -> dict:
    request: dict[str, Any] = {"TableName": "Shop", "KeyConditionExpression": condition}
    options = {k: values.pop(k) for k in list(values) if k[0].isupper()}
    request["ExpressionAttributeValues"] = {
        ":p": S(values.pop("p", "p")),
        **{f":{k}": v for k, v in values.items()},
    }
    request.update(options)
    return engine.query(request)


@pytest.fixture
def letters(shop: Engine) -> Engine:
    """Partition "p" with sort keys a..j, partition "q" with x."""
    for sk in "abcdefghij":
        shop.put_item({"TableName": "Shop", "Item": item("p", sk, n=ord(sk) - 96)})
    shop.put_item({"TableName": "Shop", "Item": item("q", "x")})
    return shop


@pytest.mark.parametrize(
    ("condition", "values", "expected"),
    [
        ("SK = :a", {"a": S("c")}, ["c"]),
        ("SK < :a", {"a": S("c")}, ["a", "b"]),
        ("SK <= :a", {"a": S("c")}, ["a", "b", "c"]),
        ("SK > :a", {"a": S("h")}, ["i", "j"]),
        ("SK >= :a", {"a": S("h")}, ["h", "i", "j"]),
        ("SK BETWEEN :a AND :b", {"a": S("c"), "b": S("e")}, ["c", "d", "e"]),
        ("SK BETWEEN :a AND :b", {"a": S("c"), "b": S("c")}, ["c"]),
        ("begins_with(SK, :a)", {"a": S("d")}, ["d"]),
        (":a < SK", {"a": S("h")}, ["i", "j"]),
    ],
)
def test_sort_key_conditions(
    letters: Engine, condition: str, values: dict, expected: list[str]
) -> None:
    response = _query(letters, f"PK = :p AND {condition}", **values)
    assert sks(response) == expected


def test_between_is_inclusive_and_refuses_a_greater_low_bound(letters: Engine) -> None:
    assert sks(
        _query(letters, "PK = :p AND SK BETWEEN :a AND :b", a=S("a"), b=S("j"))
    ) == list("abcdefghij")
    with raises("ValidationException") as error:
        _query(letters, "PK = :p AND SK BETWEEN :a AND :b", a=S("e"), b=S("c"))
    assert (
        "BETWEEN operator requires upper bound to be greater than or equal to lower "
        "bound" in error.value.message
    )


def test_begins_with_is_for_strings_and_binaries(engine: Engine) -> None:
    engine.create_table(table_request(types={"SK": "N"}))
    with raises("ValidationException") as error:
        _query(engine, "PK = :p AND begins_with(SK, :a)", a=N(1))
    assert "begins_with" in error.value.message
    engine.create_table(table_request("Files", types={"SK": "B"}))
    for blob in (b"\x01\x02", b"\x01\x03", b"\x02"):
        engine.put_item(
            {"TableName": "Files", "Item": {"PK": S("p"), "SK": {"B": blob}}}
        )
    response = engine.query(
        {
            "TableName": "Files",
            "KeyConditionExpression": "PK = :p AND begins_with(SK, :b)",
            "ExpressionAttributeValues": {":p": S("p"), ":b": {"B": b"\x01"}},
        }
    )
    assert sks(response) == [b"\x01\x02", b"\x01\x03"]


def test_the_partition_key_is_always_equality(letters: Engine) -> None:
    with raises("ValidationException", "Query key condition not supported"):
        _query(letters, "PK > :p")
    with raises("ValidationException", "Query condition missed key schema element: PK"):
        _query(letters, "SK = :p")


def test_condition_values_must_have_the_key_type(letters: Engine) -> None:
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Condition parameter type "
        "does not match schema type",
    ):
        _query(letters, "PK = :p AND SK > :a", a=N(1))


def test_scan_index_forward_false_reverses(letters: Engine) -> None:
    response = _query(letters, "PK = :p AND SK > :a", a=S("f"), ScanIndexForward=False)
    assert sks(response) == ["j", "i", "h", "g"]


def test_limit_caps_items_evaluated_not_items_returned(letters: Engine) -> None:
    response = _query(letters, FilterExpression="n > :three", three=N(3), Limit=5)
    # a..e were read, d and e passed the filter.
    assert response["ScannedCount"] == 5
    assert response["Count"] == 2
    assert sks(response) == ["d", "e"]
    assert response["LastEvaluatedKey"] == {"PK": S("p"), "SK": S("e")}


def test_last_evaluated_key_when_the_limit_is_reached_even_if_nothing_is_left(
    letters: Engine,
) -> None:
    """DynamoDB stops when Limit is reached without looking ahead, so the last
    page of a collection read with Limit equal to its size carries a
    LastEvaluatedKey and the next page is empty (moto, which looks ahead,
    differs)."""
    response = _query(letters, Limit=10)
    assert response["Count"] == 10
    assert response["LastEvaluatedKey"] == {"PK": S("p"), "SK": S("j")}
    following = _query(
        letters, Limit=10, ExclusiveStartKey=response["LastEvaluatedKey"]
    )
    assert following["Count"] == 0
    assert "LastEvaluatedKey" not in following
    assert "LastEvaluatedKey" not in _query(letters, Limit=11)


@pytest.mark.parametrize("forward", [True, False])
def test_pages_resume_after_the_exclusive_start_key(
    letters: Engine, forward: bool
) -> None:
    seen: list[str] = []
    start = None
    for _ in range(10):
        options: dict[str, Any] = {"Limit": 3, "ScanIndexForward": forward}
        if start:
            options["ExclusiveStartKey"] = start
        response = _query(letters, **options)
        seen += sks(response)
        start = response.get("LastEvaluatedKey")
        if not start:
            break
    assert seen == (list("abcdefghij") if forward else list("jihgfedcba"))


def test_start_key_must_be_a_key_of_the_table(letters: Engine) -> None:
    message = (
        "The provided starting key is invalid: The provided key element does not "
        "match the schema"
    )
    for start in (
        {"PK": S("p")},
        {"PK": S("p"), "SK": N(1)},
        {"PK": S("p"), "SK": S("a"), "n": N(1)},
    ):
        with raises("ValidationException", message):
            _query(letters, ExclusiveStartKey=start)


def test_start_key_must_lie_in_the_queried_partition(letters: Engine) -> None:
    with raises("ValidationException") as error:
        _query(letters, ExclusiveStartKey={"PK": S("q"), "SK": S("x")})
    assert "starting key" in error.value.message


def test_limit_below_one_is_refused(letters: Engine) -> None:
    with raises("ValidationException") as error:
        _query(letters, Limit=0)
    assert "greater than or equal to 1" in error.value.message


def test_pages_stop_at_1_mb_including_the_item_that_reaches_it(shop: Engine) -> None:
    """DynamoDB reads until the page holds 1 MB (1,048,576 bytes): the item
    that takes the data read to 1 MB or past it is read and returned, and
    the page ends there with a LastEvaluatedKey. (A Scan page of 1 KB items
    costs 128.5 units eventually consistent, 257 blocks of 4 KB: more than
    1 MB was read. moto stops before the item that would cross 1,000,000.)"""
    for n in range(12):
        # 2 + 1 + 2 + 2 + 4 + 100_000 = 100_011 bytes
        shop.put_item(
            {"TableName": "Shop", "Item": item("p", f"{n:02d}", data="x" * 100_000)}
        )
    first = _query(shop)
    # 10 items hold 1,000,110 bytes, the 11th reaches 1,100,121.
    assert first["Count"] == 11
    assert first["LastEvaluatedKey"] == {"PK": S("p"), "SK": S("10")}
    second = _query(shop, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert sks(second) == ["11"]
    assert "LastEvaluatedKey" not in second


def test_one_mb_counts_items_read_before_the_filter(shop: Engine) -> None:
    for n in range(12):
        shop.put_item(
            {"TableName": "Shop", "Item": item("p", f"{n:02d}", data="x" * 100_000)}
        )
    response = _query(shop, FilterExpression="SK2 = :none", none=S("x"))
    assert response["Count"] == 0
    assert response["ScannedCount"] == 11
    assert "LastEvaluatedKey" in response


def test_filter_runs_after_the_read_and_cannot_use_key_attributes(
    letters: Engine,
) -> None:
    response = _query(
        letters, FilterExpression="n BETWEEN :lo AND :hi", lo=N(2), hi=N(3)
    )
    assert sks(response) == ["b", "c"]
    assert response["ScannedCount"] == 10
    with raises(
        "ValidationException",
        "Filter Expression can only contain non-primary key attributes: Primary "
        "key attribute: SK",
    ):
        _query(letters, FilterExpression="SK = :a", a=S("a"))


def test_unused_names_and_values_are_refused(letters: Engine) -> None:
    with raises(
        "ValidationException",
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}",
    ):
        _query(letters, x=S("a"))
    with raises(
        "ValidationException",
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}",
    ):
        _query(letters, ExpressionAttributeNames={"#n": "n"})
    # A name used by the projection only counts as used.
    response = _query(
        letters,
        ExpressionAttributeNames={"#n": "n"},
        ProjectionExpression="#n",
        Limit=1,
    )
    assert response["Items"] == [{"n": N(1)}]


def test_select_count_returns_counts_only(letters: Engine) -> None:
    response = _query(letters, Select="COUNT")
    assert "Items" not in response
    assert (response["Count"], response["ScannedCount"]) == (10, 10)


def test_select_checks(letters: Engine) -> None:
    with raises("ValidationException") as error:
        _query(letters, Select="ALL_PROJECTED_ATTRIBUTES")
    assert "only when Querying using an IndexName" in error.value.message
    with raises("ValidationException") as error:
        _query(letters, Select="SPECIFIC_ATTRIBUTES")
    assert "Must specify the AttributesToGet or ProjectionExpression" in (
        error.value.message
    )
    with raises("ValidationException") as error:
        _query(letters, Select="ALL_ATTRIBUTES", ProjectionExpression="n")
    assert "Cannot specify the ProjectionExpression" in error.value.message


def test_projection_expression(letters: Engine) -> None:
    response = _query(letters, ProjectionExpression="SK, n", Limit=2)
    assert response["Items"] == [{"SK": S("a"), "n": N(1)}, {"SK": S("b"), "n": N(2)}]


def test_unknown_parameters_and_mixed_legacy_ones_are_refused(
    letters: Engine,
) -> None:
    with raises("ValidationException") as error:
        _query(letters, Bogus=1)
    assert 'Unknown parameter in input: "Bogus"' in error.value.message
    with raises("ValidationException") as error:
        _query(letters, AttributesToGet=["n"])
    assert error.value.message == (
        "Can not use both expression and non-expression parameters in the same "
        "request: Non-expression parameters: {AttributesToGet} Expression "
        "parameters: {KeyConditionExpression, ExpressionAttributeValues}"
    )


# --- Indexes ------------------------------------------------------------------


@pytest.fixture
def indexed(engine: Engine) -> Engine:
    engine.create_table(
        table_request(
            gsis=[
                index("ByStatus", "status", "day", projection="KEYS_ONLY"),
                index("Everything", "status", "day"),
            ],
            lsis=[index("ByDay", "PK", "day", projection="INCLUDE", include=["total"])],
        )
    )
    for n in range(6):
        engine.put_item(
            {
                "TableName": "Shop",
                "Item": item(
                    "c",
                    f"o{n}",
                    status="OPEN" if n % 2 else "DONE",
                    day=f"2024-05-0{6 - n}",
                    total=n * 10,
                    note="x" * 500,
                ),
            }
        )
    return engine


def _index_query(engine: Engine, name: str, condition: str, **values: Any) -> dict:
    options = {k: values.pop(k) for k in list(values) if k[0].isupper()}
    request: dict[str, Any] = {
        "TableName": "Shop",
        "IndexName": name,
        "KeyConditionExpression": condition,
        "ExpressionAttributeValues": {f":{k}": v for k, v in values.items()},
        **options,
    }
    return engine.query(request)


def test_gsi_reads_are_eventually_consistent_only(indexed: Engine) -> None:
    with raises(
        "ValidationException",
        "Consistent reads are not supported on global secondary indexes",
    ):
        _index_query(
            indexed,
            "ByStatus",
            "#s = :s",
            s=S("OPEN"),
            ConsistentRead=True,
            ExpressionAttributeNames={"#s": "status"},
        )
    response = _index_query(indexed, "ByDay", "PK = :c", c=S("c"), ConsistentRead=True)
    assert response["Count"] == 6


def test_gsi_query_returns_projected_attributes_and_index_keys_in_the_start_key(
    indexed: Engine,
) -> None:
    response = _index_query(
        indexed,
        "ByStatus",
        "#s = :s",
        s=S("OPEN"),
        Limit=2,
        ExpressionAttributeNames={"#s": "status"},
    )
    assert [set(i) for i in response["Items"]] == [{"PK", "SK", "status", "day"}] * 2
    assert sks(response, "day") == ["2024-05-01", "2024-05-03"]
    assert response["LastEvaluatedKey"] == {
        "PK": S("c"),
        "SK": S("o3"),
        "status": S("OPEN"),
        "day": S("2024-05-03"),
    }
    rest = _index_query(
        indexed,
        "ByStatus",
        "#s = :s",
        s=S("OPEN"),
        ExpressionAttributeNames={"#s": "status"},
        ExclusiveStartKey=response["LastEvaluatedKey"],
    )
    assert sks(rest, "day") == ["2024-05-05"]


def test_gsi_cannot_return_unprojected_attributes(indexed: Engine) -> None:
    """API Reference, Query, Select: a query of a global secondary index can
    only request attributes projected into the index."""
    response = _index_query(
        indexed,
        "ByStatus",
        "#s = :s",
        s=S("OPEN"),
        ExpressionAttributeNames={"#s": "status"},
        ProjectionExpression="SK",
    )
    assert response["Items"] == [{"SK": S("o5")}, {"SK": S("o3")}, {"SK": S("o1")}]
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Global secondary index "
        "ByStatus does not project [note]",
    ):
        _index_query(
            indexed,
            "ByStatus",
            "#s = :s",
            s=S("OPEN"),
            ExpressionAttributeNames={"#s": "status"},
            ProjectionExpression="SK, note",
        )
    with raises(
        "ValidationException",
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES "
        "is not supported for global secondary index ByStatus because its "
        "projection type is not ALL",
    ):
        _index_query(
            indexed,
            "ByStatus",
            "#s = :s",
            s=S("OPEN"),
            Select="ALL_ATTRIBUTES",
            ExpressionAttributeNames={"#s": "status"},
        )
    everything = _index_query(
        indexed,
        "Everything",
        "#s = :s",
        s=S("OPEN"),
        Select="ALL_ATTRIBUTES",
        ExpressionAttributeNames={"#s": "status"},
    )
    assert "note" in everything["Items"][0]


def test_lsi_fetches_unprojected_attributes_from_the_table(indexed: Engine) -> None:
    projected = _index_query(
        indexed,
        "ByDay",
        "PK = :c AND #d < :d",
        c=S("c"),
        d=S("2024-05-03"),
        ExpressionAttributeNames={"#d": "day"},
        ReturnConsumedCapacity="INDEXES",
    )
    assert [set(i) for i in projected["Items"]] == [{"PK", "SK", "day", "total"}] * 2
    fetched = _index_query(
        indexed,
        "ByDay",
        "PK = :c AND #d < :d",
        c=S("c"),
        d=S("2024-05-03"),
        ExpressionAttributeNames={"#d": "day", "#t": "total"},
        ProjectionExpression="note, #t",
        ReturnConsumedCapacity="INDEXES",
    )
    assert fetched["Items"][0] == {"note": S("x" * 500), "total": N(50)}
    # The index read, then one read of each whole item from the table.
    assert fetched["ConsumedCapacity"]["LocalSecondaryIndexes"] == {
        "ByDay": {"CapacityUnits": 0.5}
    }
    assert fetched["ConsumedCapacity"]["Table"]["CapacityUnits"] == 1.0
    assert projected["ConsumedCapacity"]["Table"]["CapacityUnits"] == 0.0


def test_unknown_index(indexed: Engine) -> None:
    with raises(
        "ValidationException", "The table does not have the specified index: Nope"
    ):
        _index_query(indexed, "Nope", "PK = :c", c=S("c"))


def test_sparse_gsi_query_skips_items_without_the_key(indexed: Engine) -> None:
    indexed.put_item({"TableName": "Shop", "Item": item("c", "plain", status="OPEN")})
    response = _index_query(
        indexed,
        "ByStatus",
        "#s = :s",
        s=S("OPEN"),
        ExpressionAttributeNames={"#s": "status"},
    )
    assert "plain" not in sks(response)


def test_multi_attribute_keys(engine: Engine) -> None:
    engine.create_table(
        table_request(
            types={"round": "N"},
            gsis=[index("Matches", ["tournament", "region"], ["round", "bracket"])],
        )
    )
    for n, (region, round_, bracket) in enumerate(
        [
            ("NA", 1, "UPPER"),
            ("NA", 2, "LOWER"),
            ("NA", 2, "UPPER"),
            ("EU", 2, "UPPER"),
            ("NA", 3, "UPPER"),
        ]
    ):
        engine.put_item(
            {
                "TableName": "Shop",
                "Item": {
                    "PK": S(f"m{n}"),
                    "SK": S("match"),
                    "tournament": S("WINTER"),
                    "region": S(region),
                    "round": N(round_),
                    "bracket": S(bracket),
                },
            }
        )
    engine.put_item(
        {
            "TableName": "Shop",
            "Item": {  # no region: not in the index
                "PK": S("m9"),
                "SK": S("match"),
                "tournament": S("WINTER"),
                "round": N(2),
                "bracket": S("UPPER"),
            },
        }
    )

    def matches(condition: str, **values: Any) -> list[str]:
        response = _index_query(
            engine,
            "Matches",
            condition,
            t=S("WINTER"),
            r=S("NA"),
            ExpressionAttributeNames={"#r": "region"},
            **values,
        )
        return sks(response, "PK")

    base = "tournament = :t AND #r = :r"
    assert matches(base) == ["m0", "m1", "m2", "m4"]
    assert matches(base + " AND round = :n", n=N(2)) == ["m1", "m2"]
    assert matches(base + " AND round >= :n", n=N(2)) == ["m1", "m2", "m4"]
    assert matches(base + " AND round = :n AND bracket = :b", n=N(2), b=S("UPPER")) == [
        "m2"
    ]
    assert matches(
        base + " AND round = :n AND begins_with(bracket, :b)", n=N(2), b=S("LO")
    ) == ["m1"]
    with raises("ValidationException") as error:
        matches(base + " AND bracket = :b", b=S("UPPER"))
    assert "must have equality conditions" in error.value.message
    with raises(
        "ValidationException", "Query condition missed key schema element: region"
    ):
        _index_query(engine, "Matches", "tournament = :t", t=S("WINTER"))


@pytest.mark.parametrize("forward", [True, False])
def test_a_page_after_the_only_item_of_a_partition_key_only_table_is_empty(
    engine: Engine, forward: bool
) -> None:
    """Without a sort key a partition holds one item; a Query that stopped on
    it (Limit=1) resumes after it to an empty last page, in either
    direction."""
    engine.create_table(table_request(sort=None))
    engine.put_item({"TableName": "Shop", "Item": item("p")})
    request: dict[str, Any] = {"Limit": 1, "ScanIndexForward": forward}
    first = _query(engine, **request)
    assert first["Items"] == [item("p")]
    assert first["LastEvaluatedKey"] == {"PK": S("p")}
    following = _query(engine, **request, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert following["Items"] == []
    assert following["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in following
