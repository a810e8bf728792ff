"""A large partition's kept order keys (`Store._keys`): the store's tests of
writes, queries and equal index sort keys again with partitions keyed from
two entries on, and a model of one large index partition under puts,
updates and deletes whose kept keys must follow its entries."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any
from unittest import mock

from modeler.engine import store
from modeler.engine.expressions import SortCondition
from modeler.engine.schema import table_spec
from modeler.engine.store import Partition, Store
from modeler.engine.table import Table
from tests.engine import test_store
from tests.engine.helpers import index, table_request


def test_keyed_partitions_keep_table_and_index_in_order() -> None:
    with mock.patch.object(store, "KEYED_ENTRIES", 2):
        test_store.test_writes_keep_table_and_index_in_order()
        test_store.test_updates_find_their_entry_among_equal_index_sort_keys()
        test_store.test_a_transaction_writes_each_item_in_its_own_place()


def _kept_keys_follow(table_store: Store) -> int:
    """Each kept list holds its partition's first order attributes; the
    number of keyed partitions."""
    for pk, keys in table_store._keys.items():
        partition = table_store.partitions[pk]
        assert type(partition) is Partition
        assert keys == [table_store._first_of(e) for e in partition.entries]
    return len(table_store._keys)


OPERATORS = ("=", "<", "<=", ">", ">=", "BETWEEN", "begins_with")


def test_a_large_index_partition_keeps_its_keys_through_writes() -> None:
    """Two partitions of a few hundred entries, many with equal index sort
    keys, written at random: the table, the index and their kept keys stay
    in order, and every key condition reads what a filter of the model
    reads."""
    rng = random.Random(36)  # noqa: S311 - repeatable writes, not a secret
    table = Table(
        table_spec(table_request(types={"n": "N"}, gsis=[index("ByG", "G1", "n")]))
    )
    days = [f"d{d:02d}" for d in range(40)]
    model: dict[tuple[str, str], dict[str, Any]] = {}
    for step in range(3000):
        pk = rng.choice("ab")
        sk = f"{rng.randrange(400):03d}"
        current = table.get({"PK": pk, "SK": sk})
        roll = rng.random()
        if roll < 0.15:
            table.write(current, None, 0)
            model.pop((pk, sk), None)
            continue
        item = {
            "PK": pk,
            "SK": sk,
            "G1": rng.choice("xy"),
            "n": Decimal(rng.randrange(30)),
            "day": rng.choice(days),
        }
        if current is not None and roll < 0.5:
            # An update of an attribute no key holds: the entries stay put.
            item = {**current[0], "day": rng.choice(days)}
            table.write(current, item, table.check_item(item), {"day"})
        else:
            table.write(current, item, table.check_item(item))
        model[(pk, sk)] = item
        if step % 500 == 499:
            _check(table, model, rng)
    _check(table, model, rng)
    assert _kept_keys_follow(table.store) == 2
    assert _kept_keys_follow(table.indexes["ByG"].store) == 2


def _check(
    table: Table, model: dict[tuple[str, str], dict[str, Any]], rng: Any
) -> None:
    _kept_keys_follow(table.store)
    _kept_keys_follow(table.indexes["ByG"].store)
    for pk in "ab":
        rows = sorted(
            (i for i in model.values() if i["PK"] == pk), key=lambda i: i["SK"]
        )
        assert table.query(None, pk, []).items == rows
        for item in rows[::17]:
            assert table.get({"PK": pk, "SK": item["SK"]}) is not None
        for _ in range(20):
            operator = rng.choice(OPERATORS)
            low, high = sorted(
                f"{rng.randrange(420):03d}"[: rng.choice((2, 3))] for _ in range(2)
            )
            values = (low, high) if operator == "BETWEEN" else (low,)
            condition = SortCondition("SK", operator, values)
            want = [i for i in rows if condition.matches(i["SK"])]
            assert table.query(None, pk, [condition]).items == want
            backwards = table.query(None, pk, [condition], forward=False).items
            assert backwards == want[::-1]
    gsi = table.indexes["ByG"]
    for g1 in "xy":
        rows = sorted(
            (i for i in model.values() if i["G1"] == g1),
            key=lambda i: (i["n"], i["PK"], i["SK"]),
        )
        assert table.query(gsi, g1, []).items == rows
        for _ in range(20):
            operator = rng.choice(OPERATORS[:6])
            low, high = sorted(Decimal(rng.randrange(32)) for _ in range(2))
            values = (low, high) if operator == "BETWEEN" else (low,)
            condition = SortCondition("n", operator, values)
            want = [i for i in rows if condition.matches(i["n"])]
            assert table.query(gsi, g1, [condition]).items == want
            forward = rng.random() < 0.5
            assert _paged(table, gsi, g1, condition, forward) == (
                want if forward else want[::-1]
            )


def _paged(
    table: Table, gsi: Any, g1: str, condition: SortCondition, forward: bool
) -> list[dict[str, Any]]:
    """Every entry a condition reads, in pages of 7 each starting after the
    last entry of the one before (LastEvaluatedKey's attributes)."""
    read: list[dict[str, Any]] = []
    start = None
    while True:
        page = table.query(gsi, g1, [condition], forward=forward, start=start, limit=7)
        read += page.items
        if page.last is None:
            return read
        start = {a: page.last[a] for a in ("PK", "SK", "G1", "n")}
