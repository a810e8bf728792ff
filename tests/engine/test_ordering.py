"""Sort order within a partition: S by UTF-8 bytes, N numerically, B by
unsigned bytes; index entries with equal keys by the table's primary key."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from modeler.engine.engine import Engine
from tests.engine.helpers import B, N, S, index, sks, table_request


def _partition(engine: Engine, sort_type: str, values: list, **extra) -> list:
    engine.create_table(table_request(types={"SK": sort_type}, **extra))
    shuffled = list(values)
    random.Random(7).shuffle(shuffled)  # noqa: S311 - a fixed shuffle, not a secret
    wire = {"S": S, "N": N, "B": B}[sort_type]
    for value in shuffled:
        engine.put_item(
            {"TableName": "Shop", "Item": {"PK": S("p"), "SK": wire(value)}}
        )
    response = engine.query(
        {
            "TableName": "Shop",
            "KeyConditionExpression": "PK = :p",
            "ExpressionAttributeValues": {":p": S("p")},
        }
    )
    return sks(response)


def test_strings_sort_by_utf8_bytes(engine: Engine) -> None:
    # "A" 0x41 < "a" 0x61 < "z" 0x7A < "¿" 0xC2 0xBF
    assert _partition(engine, "S", ["¿", "z", "a", "A"]) == ["A", "a", "z", "¿"]


def test_numbers_written_into_strings_sort_as_text(engine: Engine) -> None:
    assert _partition(engine, "S", ["9", "10", "100", "09"]) == ["09", "10", "100", "9"]


def test_numbers_sort_numerically(engine: Engine) -> None:
    values = ["9", "10", "-1", "0.5", "-20", "1E+2", "100.5"]
    assert _partition(engine, "N", values) == [
        "-20",
        "-1",
        "0.5",
        "9",
        "10",
        "100",
        "100.5",
    ]


def test_binary_sorts_by_unsigned_bytes(engine: Engine) -> None:
    values = [b"\xff", b"\x80", b"\x7f", b"\x01", b"\x01\x00"]
    assert _partition(engine, "B", values) == [
        b"\x01",
        b"\x01\x00",
        b"\x7f",
        b"\x80",
        b"\xff",
    ]


def test_scan_index_forward_false_reverses_the_order(shop: Engine) -> None:
    for sk in ("b", "c", "a"):
        shop.put_item({"TableName": "Shop", "Item": {"PK": S("p"), "SK": S(sk)}})
    response = shop.query(
        {
            "TableName": "Shop",
            "KeyConditionExpression": "PK = :p",
            "ExpressionAttributeValues": {":p": S("p")},
            "ScanIndexForward": False,
        }
    )
    assert sks(response) == ["c", "b", "a"]


def test_index_entries_with_equal_keys_sort_by_the_table_key(engine: Engine) -> None:
    engine.create_table(table_request(gsis=[index("ByStatus", "status", "day")]))
    for pk, sk in [("b", "2"), ("a", "9"), ("b", "1"), ("a", "1")]:
        engine.put_item(
            {
                "TableName": "Shop",
                "Item": {
                    "PK": S(pk),
                    "SK": S(sk),
                    "status": S("OPEN"),
                    "day": S("2024-05-01"),
                },
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
    assert [(i["PK"]["S"], i["SK"]["S"]) for i in response["Items"]] == [
        ("a", "1"),
        ("a", "9"),
        ("b", "1"),
        ("b", "2"),
    ]


def test_multi_attribute_sort_key_orders_by_each_attribute_in_turn(
    engine: Engine,
) -> None:
    engine.create_table(
        table_request(
            types={"round": "N"},
            gsis=[index("Matches", ["tournament", "region"], ["round", "bracket"])],
        )
    )
    rows = [(2, "UPPER"), (1, "LOWER"), (10, "A"), (1, "UPPER"), (2, "LOWER")]
    for n, (round_, bracket) in enumerate(rows):
        engine.put_item(
            {
                "TableName": "Shop",
                "Item": {
                    "PK": S(f"m{n}"),
                    "SK": S("x"),
                    "tournament": S("WINTER"),
                    "region": S("NA"),
                    "round": N(round_),
                    "bracket": S(bracket),
                },
            }
        )
    response = engine.query(
        {
            "TableName": "Shop",
            "IndexName": "Matches",
            "KeyConditionExpression": "tournament = :t AND #r = :r",
            "ExpressionAttributeNames": {"#r": "region"},
            "ExpressionAttributeValues": {":t": S("WINTER"), ":r": S("NA")},
        }
    )
    assert [(int(i["round"]["N"]), i["bracket"]["S"]) for i in response["Items"]] == [
        (1, "LOWER"),
        (1, "UPPER"),
        (2, "LOWER"),
        (2, "UPPER"),
        (10, "A"),
    ]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=25, unique=True))
def test_any_strings_come_back_in_utf8_byte_order(values: list[str]) -> None:
    engine = Engine()
    assert _partition(engine, "S", values) == sorted(
        values, key=lambda v: v.encode("utf-8")
    )


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.decimals(
            allow_nan=False,
            allow_infinity=False,
            places=3,
            min_value=-(10**6),
            max_value=10**6,
        ),
        min_size=1,
        max_size=25,
        unique_by=lambda d: d.normalize(),
    )
)
def test_any_numbers_come_back_in_numeric_order(values: list[Decimal]) -> None:
    engine = Engine()
    returned = _partition(engine, "N", [str(v) for v in values])
    assert [Decimal(v) for v in returned] == sorted(values)
