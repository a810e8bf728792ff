"""The documented DynamoDB examples the workbench relies on (keys and
ordering, key conditions, Limit, secondary indexes, 1 MB pages), each run on
the engine and on moto with identical requests: every page must agree, and
the result must be the documented one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.harness import (
    Design,
    IndexDef,
    KeyDef,
    Pair,
    Wire,
    items_of,
    query_pages,
    query_pages_with_ties,
    scan_pages,
)


def sorted_table(sort_type: str) -> Design:
    return Design(KeyDef("pk", "sk"), {"pk": "S", "sk": sort_type})


def partition(sort_type: str, values: list[Any], **attributes: Wire) -> list[Wire]:
    """Items of partition "P" with these sort key values."""
    return [{"pk": {"S": "P"}, "sk": {sort_type: v}} | attributes for v in values]


def query(name: str, condition: str = "", **request: Any) -> dict[str, Any]:
    """A Query of partition "P", with an optional sort key condition on
    #s, its values given as :names."""
    values = request.pop("values", {})
    return {
        "TableName": name,
        "KeyConditionExpression": "#p = :p"
        + (f" AND {condition}" if condition else ""),
        "ExpressionAttributeNames": {"#p": "pk"} | ({"#s": "sk"} if condition else {}),
        "ExpressionAttributeValues": {":p": {"S": "P"}} | values,
    } | request


def sort_values(pages: list[dict[str, Any]], sort_type: str) -> list[Any]:
    return [item["sk"][sort_type] for item in items_of(pages)]


ORDER_CASES = [
    pytest.param("S", ["z", "¿", "a", "A"], ["A", "a", "z", "¿"], id="S-by-utf8-bytes"),
    pytest.param(
        # U+FF71 is EF BD B1 in UTF-8, U+1F600 is F0 9F 98 80: UTF-8 byte
        # order puts the emoji last, UTF-16 code unit order (D83D) first.
        "S",
        ["😀", "ｱ", "z"],
        ["z", "ｱ", "😀"],
        id="S-utf8-not-utf16",
    ),
    pytest.param(
        "S", ["9", "10", "100", "2"], ["10", "100", "2", "9"], id="S-numbers-as-text"
    ),
    pytest.param(
        "S",
        ["0009", "0010", "0100", "0002"],
        ["0002", "0009", "0010", "0100"],
        id="S-zero-padded",
    ),
    pytest.param("N", ["9", "10", "100", "2"], ["2", "9", "10", "100"], id="N-numeric"),
    pytest.param(
        "N",
        ["10", "-2.5", "0", "0.5", "-10", "-0.001", "3"],
        ["-10", "-2.5", "-0.001", "0", "0.5", "3", "10"],
        id="N-negatives-and-decimals",
    ),
    pytest.param(
        "N",
        ["99999999999999999999999999999999999999", "1" + "0" * 37, "1.5"],
        [
            "1.5",
            "10000000000000000000000000000000000000",
            "99999999999999999999999999999999999999",
        ],
        id="N-38-digits",
    ),
    pytest.param(
        "B",
        [b"\xff", b"\x00\x01", b"\x7f", b"\x80", b"\x00"],
        [b"\x00", b"\x00\x01", b"\x7f", b"\x80", b"\xff"],
        id="B-unsigned-bytes",
    ),
]


@pytest.mark.parametrize("forward", [True, False], ids=["forward", "backward"])
@pytest.mark.parametrize(("sort_type", "stored", "expected"), ORDER_CASES)
def test_items_come_back_in_sort_key_order(
    pair: Pair, sort_type: str, stored: list[Any], expected: list[Any], forward: bool
) -> None:
    """S sorts by UTF-8 bytes ("A" < "a" < "z" < "¿", "10" < "9"), N
    numerically, B by unsigned bytes; ScanIndexForward=false reverses."""
    with pair.table(sorted_table(sort_type), partition(sort_type, stored)) as name:
        pages = query_pages(pair, query(name, ScanIndexForward=forward))
    assert sort_values(pages, sort_type) == (expected if forward else expected[::-1])


NUMBERS = ["1", "2", "3", "4", "5"]
CONDITION_CASES = [
    pytest.param("N", NUMBERS, "#s = :a", {":a": "3"}, ["3"], id="="),
    pytest.param("N", NUMBERS, "#s < :a", {":a": "3"}, ["1", "2"], id="<"),
    pytest.param("N", NUMBERS, "#s <= :a", {":a": "3"}, ["1", "2", "3"], id="<="),
    pytest.param("N", NUMBERS, "#s > :a", {":a": "3"}, ["4", "5"], id=">"),
    pytest.param("N", NUMBERS, "#s >= :a", {":a": "3"}, ["3", "4", "5"], id=">="),
    pytest.param(
        "N",
        NUMBERS,
        "#s BETWEEN :a AND :b",
        {":a": "2", ":b": "4"},
        ["2", "3", "4"],
        id="BETWEEN-inclusive",
    ),
    pytest.param(
        "N",
        NUMBERS,
        "#s BETWEEN :a AND :b",
        {":a": "3", ":b": "3"},
        ["3"],
        id="BETWEEN-equal-bounds",
    ),
    pytest.param(
        "S",
        ["A", "a", "z", "¿"],
        "#s BETWEEN :a AND :b",
        {":a": "a", ":b": "¿"},
        ["a", "z", "¿"],
        id="BETWEEN-utf8",
    ),
    pytest.param(
        "S",
        ["10", "100", "2", "9"],
        "#s > :a",
        {":a": "10"},
        ["100", "2", "9"],
        id="S-compares-as-text",
    ),
    pytest.param(
        "S",
        ["ORDER#", "ORDER#2024-01", "ORDER#2024-02", "ORDERS", "RETURN#1"],
        "begins_with(#s, :a)",
        {":a": "ORDER#"},
        ["ORDER#", "ORDER#2024-01", "ORDER#2024-02"],
        id="begins_with-S",
    ),
    pytest.param(
        "B",
        [b"\x00\x01", b"\x01\x02", b"\x01\xff", b"\x02"],
        "begins_with(#s, :a)",
        {":a": b"\x01"},
        [b"\x01\x02", b"\x01\xff"],
        id="begins_with-B",
    ),
    pytest.param(
        "B",
        [b"\x00", b"\x7f", b"\x80", b"\xff"],
        "#s > :a",
        {":a": b"\x7f"},
        [b"\x80", b"\xff"],
        id="B-unsigned",
    ),
]


@pytest.mark.parametrize(
    ("sort_type", "stored", "condition", "values", "expected"), CONDITION_CASES
)
def test_sort_key_conditions(
    pair: Pair,
    sort_type: str,
    stored: list[Any],
    condition: str,
    values: dict[str, Any],
    expected: list[Any],
) -> None:
    """The sort key conditions: =, <, <=, >, >=, BETWEEN (both bounds
    included) and begins_with (S and B)."""
    wire_values = {k: {sort_type: v} for k, v in values.items()}
    with pair.table(sorted_table(sort_type), partition(sort_type, stored)) as name:
        pages = query_pages(pair, query(name, condition, values=wire_values))
    assert sort_values(pages, sort_type) == expected


def test_limit_counts_items_read_before_the_filter(pair: Pair) -> None:
    """Limit caps the items evaluated, not the items returned: a page can
    return nothing and still carry a LastEvaluatedKey."""
    items = [
        {"pk": {"S": "P"}, "sk": {"N": n}, "state": {"S": state}}
        for n, state in zip(
            NUMBERS, ["DONE", "DONE", "OPEN", "DONE", "OPEN"], strict=True
        )
    ]
    with pair.table(sorted_table("N"), items) as name:
        request = query(
            name,
            Limit=2,
            FilterExpression="#st = :open",
            values={":open": {"S": "OPEN"}},
        )
        request["ExpressionAttributeNames"]["#st"] = "state"
        pages = query_pages(pair, request)
    assert [(p["Count"], p["ScannedCount"]) for p in pages] == [(0, 2), (1, 2), (1, 1)]
    assert pages[0]["Items"] == []
    assert pages[0]["LastEvaluatedKey"] == {"pk": {"S": "P"}, "sk": {"N": "2"}}
    assert sort_values(pages, "N") == ["3", "5"]


def test_backward_pages_resume_after_their_start_key(pair: Pair) -> None:
    """ScanIndexForward=false with Limit pages from the end of the
    partition to its start."""
    with pair.table(sorted_table("N"), partition("N", NUMBERS)) as name:
        pages = query_pages(pair, query(name, ScanIndexForward=False, Limit=2))
    assert [[i["sk"]["N"] for i in p["Items"]] for p in pages] == [
        ["5", "4"],
        ["3", "2"],
        ["1"],
    ]


SPARSE = Design(
    KeyDef("pk", "sk"),
    {"pk": "S", "sk": "S", "openBy": "S", "openSince": "S"},
    (IndexDef("OpenOrders", KeyDef("openBy", "openSince"), "KEYS_ONLY"),),
)


def test_a_sparse_index_holds_only_items_with_all_its_key_attributes(
    pair: Pair,
) -> None:
    """An item is in an index only if it has every key attribute of the
    index; a KEYS_ONLY index returns the index and table keys only."""
    items = [
        {"pk": {"S": "C#1"}, "sk": {"S": "O#1"}, "note": {"S": "x"}},
        {"pk": {"S": "C#1"}, "sk": {"S": "O#2"}, "openBy": {"S": "ann"}},
        {
            "pk": {"S": "C#1"},
            "sk": {"S": "O#3"},
            "openBy": {"S": "ann"},
            "openSince": {"S": "2024-05-02"},
            "note": {"S": "y"},
        },
        {
            "pk": {"S": "C#2"},
            "sk": {"S": "O#4"},
            "openBy": {"S": "ann"},
            "openSince": {"S": "2024-05-01"},
        },
    ]
    with pair.table(SPARSE, items) as name:
        scanned = scan_pages(
            pair, {"TableName": name, "IndexName": "OpenOrders"}, SPARSE.indexes[0].key
        )
        pages = query_pages(
            pair,
            {
                "TableName": name,
                "IndexName": "OpenOrders",
                "KeyConditionExpression": "openBy = :who",
                "ExpressionAttributeValues": {":who": {"S": "ann"}},
            },
        )
    assert sum(p["Count"] for p in scanned) == 2
    assert items_of(pages) == [
        {key: items[3][key] for key in ("pk", "sk", "openBy", "openSince")},
        {key: items[2][key] for key in ("pk", "sk", "openBy", "openSince")},
    ]


def test_pages_through_equal_index_keys_return_every_item_once(pair: Pair) -> None:
    """Index keys need not be unique: paging one item at a time through
    entries that share their index key returns each exactly once."""
    design = Design(
        KeyDef("pk", "sk"),
        {"pk": "S", "sk": "N", "status": "S"},
        (IndexDef("ByStatus", KeyDef("status"), "ALL"),),
    )
    items = [
        {"pk": {"S": f"C#{n % 3}"}, "sk": {"N": str(n)}, "status": {"S": "OPEN"}}
        for n in range(7)
    ]
    with pair.table(design, items) as name:
        pages = query_pages_with_ties(
            pair,
            {
                "TableName": name,
                "IndexName": "ByStatus",
                "KeyConditionExpression": "#st = :s",
                "ExpressionAttributeNames": {"#st": "status"},
                "ExpressionAttributeValues": {":s": {"S": "OPEN"}},
                "Limit": 1,
            },
            ("status",),
        )
    read = sorted(int(item["sk"]["N"]) for item in items_of(pages))
    assert read == list(range(7))


def test_pages_stop_at_1_mb_and_carry_a_last_evaluated_key(pair: Pair) -> None:
    """A Query page stops once about 1 MB has been read and returns a
    LastEvaluatedKey; paging on returns the rest in order. (Where exactly
    the page stops differs from moto: see test_moto_differences.)"""
    big = "x" * 300_000
    items = partition("N", NUMBERS, d={"S": big})
    with pair.table(sorted_table("N"), items) as name:
        request = query(name)
        ours = [pair.engine.query(**request)]
        theirs = [pair.moto.query(**request)]
        for pages, client in ((ours, pair.engine), (theirs, pair.moto)):
            while "LastEvaluatedKey" in pages[-1]:
                start = pages[-1]["LastEvaluatedKey"]
                pages.append(client.query(**request, ExclusiveStartKey=start))
    for pages in (ours, theirs):
        assert len(pages) == 2
        assert sort_values(pages, "N") == NUMBERS
        assert items_of(pages) == items
