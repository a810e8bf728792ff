"""Item collections read from the engine: partitions grouped, items in sort
key byte order, sparse indexes without the items that lack their keys,
projections honoured, filters and pages."""

from __future__ import annotations

import gc
import weakref
from collections import defaultdict
from dataclasses import replace

import pytest

from modeler.design import model as d
from modeler.diagrams import Collections, UnknownIndexError, collections_for
from modeler.simulation import Simulation
from tests.diagrams.helpers import example, simulation
from tests.diagrams.helpers import hostile as hostile_design


@pytest.fixture(scope="module")
def orders() -> Collections:
    return Collections(simulation("order-management"))


@pytest.fixture(scope="module")
def hostile() -> Collections:
    return Collections(simulation("hostile"))


def _expected(items, pk: str, sk: str, table_keys=("PK", "SK")):
    """Partitions and sort keys computed from the items themselves: UTF-8
    byte order of the sort key, then the table key."""
    groups = defaultdict(list)
    for item in items:
        if pk in item and sk in item:
            groups[item[pk]].append(item)
    return {
        key: [
            i[sk]
            for i in sorted(
                entries,
                key=lambda i: (i[sk].encode(), *(i[k].encode() for k in table_keys)),
            )
        ]
        for key, entries in groups.items()
    }


@pytest.mark.parametrize(
    "index, pk, sk",
    [("table", "PK", "SK"), ("GSI1", "GSI1PK", "GSI1SK"), ("GSI2", "GSI2PK", "GSI2SK")],
)
def test_every_partition_holds_its_items_in_byte_order(orders, index, pk, sk):
    expected = _expected(simulation("order-management").items, pk, sk)
    views, more = orders.partitions(index=index, max_partitions=10**6, max_items=10**6)
    assert more == 0
    assert {v.key: [i.sort_key for i in v.items] for v in views} == expected
    keys = [v.key for v in views]
    assert keys == sorted(keys, key=str.encode)


def test_a_sparse_index_leaves_out_items_without_its_keys(orders):
    page = orders.page(index="GSI2", per_page=10_000)
    open_orders = [
        i
        for i, e in zip(
            simulation("order-management").items,
            simulation("order-management").entities,
            strict=True,
        )
        if e == "Order" and i["status"] == "OPEN"
    ]
    assert page.item_count == page.index_items == len(open_orders)
    assert page.absent == len(simulation("order-management").items) - len(open_orders)
    assert [p.key for p in page.partitions] == ["OPEN"]
    assert {i.entity for i in page.partitions[0].items} == {"Order"}


def test_projections_are_honoured(orders):
    keys_only = orders.page(index="GSI2", per_page=5).partitions[0].items[0]
    assert [name for name, _ in keys_only.attributes] == ["PK", "SK"]
    include = (
        orders.page(index="GSI1", entity="Order", per_page=5).partitions[0].items[0]
    )
    # The table's key first: which item it is.
    names = [n for n, _ in include.attributes]
    assert names[:2] == ["PK", "SK"]
    assert set(names[2:]) == {"orderDate", "status", "total"}
    everything = (
        orders.page(index="table", entity="Order", per_page=5).partitions[0].items[0]
    )
    names = [n for n, _ in everything.attributes]
    assert names[:3] == ["customerId", "orderId", "orderDate"]
    assert "GSI3PK" in names and names.index("GSI3PK") > names.index("total")


def test_filter_by_entity_and_partition_key(orders):
    page = orders.page(index="table", entity="LineItem", per_page=1000)
    assert page.item_count == simulation("order-management").entities.count("LineItem")
    assert all(p.key.startswith("ORDER#") for p in page.partitions)
    assert all(
        i.entity == "LineItem" and i.colour == 2
        for p in page.partitions
        for i in p.items
    )
    some = page.partitions[3].key
    one = orders.page(index="table", contains=some)
    assert [p.key for p in one.partitions] == [some]
    assert orders.page(index="table", contains="no such key").item_count == 0


def test_pages_cut_partitions_and_continue_them(orders):
    first = orders.page(index="table", per_page=7)
    second = orders.page(index="table", per_page=7, page=2)
    assert first.pages == -(-len(simulation("order-management").items) // 7)
    shown = [
        (p.key, i.sort_key)
        for page in (first, second)
        for p in page.partitions
        for i in p.items
    ]
    assert len(shown) == 14
    whole = orders.page(index="table", per_page=14)
    assert shown == [(p.key, i.sort_key) for p in whole.partitions for i in p.items]
    if second.partitions[0].key == first.partitions[-1].key:
        assert second.partitions[0].start > 0
    last = orders.page(index="table", per_page=7, page=10**6)
    assert last.page == last.pages


def test_an_unknown_index_is_refused(orders):
    with pytest.raises(UnknownIndexError, match="no index named 'GSI9'"):
        orders.page(index="GSI9")


def test_hostile_values_are_kept_as_they_are(hostile):
    page = hostile.page(index="table")
    assert page.partitions[0].key == 'H#"><img src=x onerror=alert(1)>'
    assert page.partitions[0].items[0].sort_key.startswith('\\"}]; <x>#')
    note = hostile.page(index="ByNote").partitions[0].items[0]
    assert dict(note.attributes)["note"] == '\\"}<b>&amp;</b>]; \\l \\N'
    assert "secret" not in dict(note.attributes)


def test_collections_are_kept_per_simulation_and_let_it_go():
    kept = Simulation(hostile_design())
    assert collections_for(kept) is collections_for(kept)
    assert collections_for(kept) is not collections_for(simulation("hostile"))
    gone = weakref.ref(kept)
    del kept
    gc.collect()
    assert gone() is None


def test_a_local_index_regroups_nothing_but_resorts_and_projects():
    telemetry = simulation("device-telemetry")
    collections = collections_for(telemetry)
    expected = _expected(telemetry.items, "PK", "LSI1SK")
    views, _ = collections.partitions(
        index="LSI1", max_partitions=10**6, max_items=10**6
    )
    assert {v.key: [i.sort_key for i in v.items] for v in views} == expected
    reading = next(i for v in views for i in v.items if i.entity == "Reading")
    assert {name for name, _ in reading.attributes} == {"value", "unit", "SK"}
    assert collections.info("LSI1").partition_key == ("PK",)


def test_the_partitions_of_the_users_own_items_come_first():
    # An imported model's items are the user's own: they are shown before
    # the generated ones though their keys sort after them.
    design = example("order-management")
    own = {
        "PK": {"S": "~CUSTOMER#imported"},
        "SK": {"S": "PROFILE"},
        "GSI1PK": {"S": "~imported"},
        "GSI1SK": {"S": "x"},
    }
    design = replace(
        design, sample_data=replace(design.sample_data, items=(d.freeze(own),))
    )
    collections = Collections(Simulation(design))
    page = collections.page(index="table", per_page=5)
    assert page.partitions[0].key == "~CUSTOMER#imported"
    assert [p.key for p in page.partitions[1:]] == sorted(
        p.key for p in page.partitions[1:]
    )
    gsi = collections.page(index="GSI1", per_page=5)
    assert gsi.partitions[0].key == "~imported"
    # An index that does not hold the item keeps its own order.
    gsi2 = collections.page(index="GSI2", per_page=50)
    keys = [p.key for p in gsi2.partitions]
    assert keys == sorted(keys)
