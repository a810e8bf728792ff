"""A bulk load, whatever the order of its items (runs of one partition's
items, in order or not, partitions met again later, keys given twice), then
writes into the partitions it made: the table and its indexes hold what a
naive model holds, in order, with the right counts and sizes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from modeler.engine.schema import table_spec
from modeler.engine.store import Partition
from modeler.engine.table import Table
from tests.engine.helpers import (
    assert_table_holds,
    index,
    table_request,
    write_like_model,
)

PKS = ["a", "b", "c"]
SKS = ["1", "2", "3", "4", "5"]

loads = st.lists(
    st.tuples(
        st.sampled_from(PKS),
        st.lists(st.sampled_from(SKS), min_size=1, max_size=5),  # a run's sort keys
        st.sampled_from(["x", "y"]),  # G1 of the run's items
    ),
    max_size=12,
)
writes = st.lists(
    st.tuples(
        st.sampled_from(PKS),
        st.sampled_from(SKS),
        st.sampled_from(["x", "y"]),
        st.booleans(),  # delete instead of put
    ),
    max_size=20,
)


def _table() -> Table:
    return Table(
        table_spec(
            table_request(
                gsis=[
                    index("All", "G1", "SK"),  # its entries' sizes are the items'
                    index("Keys", "G1", projection="KEYS_ONLY"),
                ],
            )
        )
    )


def _item(pk: str, sk: str, g1: str, n: int) -> dict[str, Any]:
    return {"PK": pk, "SK": sk, "G1": g1, "n": Decimal(n), "pad": "x" * (n % 7)}


@settings(max_examples=80, deadline=None)
@given(loads, writes)
def test_a_bulk_load_in_any_order_then_writes(runs: list, operations: list) -> None:
    table = _table()
    loaded = [
        _item(pk, sk, g1, n)
        for n, (pk, sk, g1) in enumerate(
            (pk, sk, g1) for pk, sks, g1 in runs for sk in sks
        )
    ]
    table.load(loaded)
    model: dict[tuple[str, str], dict[str, Any]] = {}
    for item in loaded:  # a later item with an earlier one's key replaces it
        model[(item["PK"], item["SK"])] = item
    for n, (pk, sk, g1, delete) in enumerate(operations, start=len(loaded)):
        write_like_model(table, model, _item(pk, sk, g1, n), delete)

    assert_table_holds(table, model, PKS)
    for name, order in (("All", ("SK", "PK")), ("Keys", ("PK", "SK"))):
        gsi = table.indexes[name]
        assert gsi.store.count == len(model)
        assert gsi.store.bytes == sum(gsi.entry_size(i) for i in model.values())
        for g1 in ("x", "y"):
            want = sorted(
                (i for i in model.values() if i["G1"] == g1),
                key=lambda i: tuple(i[a] for a in order),
            )
            assert table.query(gsi, g1, []).items == want


def test_a_partition_loaded_in_order_is_written_as_a_list():
    table = _table()
    table.load([_item("a", sk, "x", 0) for sk in ("1", "2", "3")])
    partition = table.store.partitions["a"]
    assert type(partition) is Partition and type(partition.entries) is tuple

    item = _item("a", "4", "x", 1)
    table.write(None, item, table.check_item(item))

    assert type(partition.entries) is list
    assert [i["SK"] for i in table.query(None, "a", []).items] == ["1", "2", "3", "4"]
