"""The sorted storage against a naive model: after any sequence of writes,
the table and its indexes hold exactly the items they should, in order, with
the right counts and sizes, and scans and queries see them all."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from modeler.engine.engine import Engine
from modeler.engine.expressions import SortCondition
from modeler.engine.schema import table_spec
from modeler.engine.store import Page, Store
from modeler.engine.table import Table
from tests.engine.helpers import (
    N,
    S,
    assert_table_holds,
    index,
    table_request,
    write_like_model,
)

writes = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c", "é"]),  # PK
        st.sampled_from(["1", "2", "10", "9", "z"]),  # SK
        st.one_of(st.none(), st.sampled_from(["x", "y"])),  # G1 (sparse)
        st.integers(-3, 3),  # n: the GSI's numeric sort key
        st.booleans(),  # delete instead of put
        st.booleans(),  # scan before this write (builds the scan order)
    ),
    max_size=40,
)


def _table() -> Table:
    return Table(
        table_spec(
            table_request(
                types={"n": "N"},
                gsis=[index("ByG", "G1", "n", projection="KEYS_ONLY")],
            )
        )
    )


def _item(pk: str, sk: str, g1: str | None, n: int) -> dict[str, Any]:
    item: dict[str, Any] = {"PK": pk, "SK": sk, "n": Decimal(n), "pad": "x" * n * n}
    if g1 is not None:
        item["G1"] = g1
    return item


@settings(max_examples=60, deadline=None)
@given(writes, st.booleans())
def test_writes_keep_table_and_index_in_order(operations: list, bulk: bool) -> None:
    table = _table()
    model: dict[tuple[str, str], dict[str, Any]] = {}
    if bulk:
        loaded = [_item(pk, sk, g1, n) for pk, sk, g1, n, _, _ in operations]
        table.load(loaded)
        for item in loaded:
            model[(item["PK"], item["SK"])] = item
    else:
        for pk, sk, g1, n, delete, scan_first in operations:
            if scan_first:
                list(table)
            write_like_model(table, model, _item(pk, sk, g1, n), delete)

    expected = assert_table_holds(table, model, ("a", "b", "c", "é"))
    assert sorted(table, key=lambda i: (i["PK"], i["SK"])) == expected

    gsi = table.indexes["ByG"]
    entries = [i for i in model.values() if "G1" in i]
    assert gsi.store.count == len(entries)
    assert gsi.store.bytes == sum(gsi.entry_size(i) for i in entries)
    for g1 in ("x", "y"):
        want = sorted(
            (i for i in entries if i["G1"] == g1),
            key=lambda i: (i["n"], i["PK"], i["SK"]),
        )
        assert table.query(gsi, g1, []).items == want
        assert table.query(gsi, g1, [], forward=False).items == want[::-1]
        above = [i for i in want if i["n"] > 0]
        assert table.query(gsi, g1, [SortCondition("n", ">", (Decimal(0),))]).items == (
            above
        )


@settings(max_examples=30, deadline=None)
@given(writes, st.integers(1, 5), st.integers(1, 4))
def test_pages_and_segments_see_every_item_once(
    operations: list, limit: int, segments: int
) -> None:
    table = _table()
    for pk, sk, g1, n, _, _ in operations:
        item = _item(pk, sk, g1, n)
        table.write(table.get(item), item, table.check_item(item))
    seen = []
    for segment in range(segments):
        start = None
        while True:
            page = table.scan(
                None, segment=segment, total_segments=segments, start=start, limit=limit
            )
            seen += page.items
            if page.last is None:
                break
            start = {"PK": page.last["PK"], "SK": page.last["SK"]}
    assert sorted(seen, key=lambda i: (i["PK"], i["SK"])) == sorted(
        table, key=lambda i: (i["PK"], i["SK"])
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=12),
    st.integers(0, 11),
    st.integers(0, 12),
    st.one_of(st.none(), st.integers(1, 14)),
    st.integers(1, 30),
    st.booleans(),
    st.integers(0, 3),
)
def test_a_page_reads_as_the_entry_by_entry_loop_reads(
    sizes: list[int],
    low: int,
    high: int,
    limit: int | None,
    max_bytes: int,
    forward: bool,
    already: int,
) -> None:
    """Reading a run of entries in slices gives what reading them one by
    one gives: the same entries, bytes and last entry, stopping on the
    Limit or on the entry that reaches the page's byte limit."""
    entries = [{"n": n} for n in range(len(sizes))]
    low, high = min(low, len(sizes)), min(high, len(sizes))
    positions = range(low, high) if forward else range(high - 1, low - 1, -1)
    if limit is not None:
        already = min(already, limit - 1)
    pages = []
    for read in (Store._read, _read_one_by_one):
        page = Page(items=[{"before": i} for i in range(already)], bytes=already)
        full = read(None, entries, sizes, positions, page, limit, max_bytes)
        pages.append((full, page))
    assert pages[0] == pages[1]


def _read_one_by_one(
    store: Any,
    entries: list[Any],
    sizes: list[int],
    positions: range,
    page: Page,
    limit: int | None,
    max_bytes: int,
) -> bool:
    items = page.items
    for i in positions:
        items.append(entries[i])
        page.bytes += sizes[i]
        if page.bytes >= max_bytes or (limit is not None and len(items) == limit):
            page.last = entries[i]
            return True
    return False


def _partition(engine: Engine, index_name: str | None = None) -> list[dict]:
    request = {
        "TableName": "Shop",
        "KeyConditionExpression": "#p = :p",
        "ExpressionAttributeNames": {"#p": "G" if index_name else "PK"},
        "ExpressionAttributeValues": {":p": S("g" if index_name else "c")},
    }
    if index_name:
        request["IndexName"] = index_name
    return engine.query(request)["Items"]


def test_updates_find_their_entry_among_equal_index_sort_keys() -> None:
    """Every entry of the index partition has the same sort key: each update
    changes its own item's entry, not a neighbour's."""
    engine = Engine()
    engine.create_table(
        table_request(
            gsis=[index("ByDay", "G", "day"), index("Keys", "G", "day", "KEYS_ONLY")]
        )
    )
    sks = [f"{n:02d}" for n in range(12)]
    for sk in sks:
        engine.put_item(
            {
                "TableName": "Shop",
                "Item": {
                    "PK": S("c"),
                    "SK": S(sk),
                    "G": S("g"),
                    "day": S("same"),
                    "n": N(0),
                },
            }
        )
    for step, sk in enumerate(reversed(sks), start=1):
        engine.update_item(
            {
                "TableName": "Shop",
                "Key": {"PK": S("c"), "SK": S(sk)},
                "UpdateExpression": "SET n = :n",
                "ExpressionAttributeValues": {":n": N(step)},
            }
        )
    expected = [
        {"PK": S("c"), "SK": S(sk), "G": S("g"), "day": S("same"), "n": N(12 - i)}
        for i, sk in enumerate(sks)
    ]
    assert _partition(engine) == expected
    assert _partition(engine, "ByDay") == expected
    assert _partition(engine, "Keys") == [
        {k: v for k, v in item.items() if k != "n"} for item in expected
    ]


def test_a_transaction_writes_each_item_in_its_own_place() -> None:
    """A transaction reads every item first, then writes: a Put that lands
    before an updated item in its partition moves it along, and the update
    still replaces that item."""
    engine = Engine()
    engine.create_table(table_request())
    for sk in ("b", "c"):
        engine.put_item({"TableName": "Shop", "Item": {"PK": S("c"), "SK": S(sk)}})
    engine.transact_write_items(
        {
            "TransactItems": [
                {"Put": {"TableName": "Shop", "Item": {"PK": S("c"), "SK": S("a")}}},
                {
                    "Update": {
                        "TableName": "Shop",
                        "Key": {"PK": S("c"), "SK": S("c")},
                        "UpdateExpression": "SET x = :x",
                        "ExpressionAttributeValues": {":x": N(1)},
                    }
                },
            ]
        }
    )
    assert _partition(engine) == [
        {"PK": S("c"), "SK": S("a")},
        {"PK": S("c"), "SK": S("b")},
        {"PK": S("c"), "SK": S("c"), "x": N(1)},
    ]
