"""A bulk load with `trusted_keys` (sample data generated for the table's
key schema): the same table as the checking load, its sizes measured and
held to the 400 KB limit, only the keys not checked again."""

from __future__ import annotations

from decimal import Decimal

from modeler.engine.schema import table_spec
from modeler.engine.table import Table
from tests.engine.helpers import index, raises, table_request


def _table() -> Table:
    gsis = [
        index("GSI1", "G1", "SK", projection="KEYS_ONLY"),
        index("GSI2", "G1", projection="INCLUDE", include=["total"]),
        index("GSI3", "G3", "SK"),
    ]
    return Table(table_spec(table_request(gsis=gsis)))


def _items() -> list[dict]:
    items = [
        {
            "PK": f"C#{n % 7}",
            "SK": f"O#{n:03d}",
            "G1": f"S#{n % 3}",
            "G3": f"O#{n // 4}",
            "total": Decimal(n),
            "note": "é" * (n % 5),
        }
        for n in range(60)
    ]
    items[5].pop("G1")
    # A key given twice: the later item replaces the earlier.
    items.append({"PK": "C#1", "SK": "O#001", "G3": "O#0", "note": "again"})
    return items


def _state(table: Table) -> list:
    stores = [table.store] + [i.store for i in table.indexes.values()]
    return [
        (
            list(store),
            store.count,
            store.bytes,
            [list(store.sizes(p)) for p in store.partitions.values()],
        )
        for store in stores
    ]


def test_a_trusted_load_gives_the_table_and_sizes_of_the_checking_load() -> None:
    checked, trusted = _table(), _table()
    checked_sizes: list[int] = []
    trusted_sizes: list[int] = []
    assert checked.load(_items(), checked_sizes) == 60
    assert trusted.load(_items(), trusted_sizes, trusted_keys=True) == 60
    assert trusted_sizes == checked_sizes
    assert _state(trusted) == _state(checked)


def test_a_trusted_load_still_refuses_an_item_past_the_size_limit() -> None:
    table = _table()
    big = {"PK": "a", "SK": "1", "blob": "x" * 409_600}
    with raises(
        "ValidationException", "Item size has exceeded the maximum allowed size"
    ):
        table.load([{"PK": "b", "SK": "1"}, big], trusted_keys=True)
    assert len(table) == 0


def test_a_trusted_load_tells_a_bad_key_before_a_large_item_as_checking_does() -> None:
    # Past the size limit the items are checked as the checking load checks
    # them, keys included: the first problem in the items' order is told.
    table = _table()
    items = [
        {"PK": "", "SK": "1"},
        {"PK": "a", "SK": "1", "blob": "x" * 409_600},
    ]
    with raises(
        "ValidationException",
        "One or more parameter values are not valid. The AttributeValue for a "
        "key attribute cannot contain an empty string value. Key: PK",
    ):
        table.load(items, trusted_keys=True)
    assert len(table) == 0
