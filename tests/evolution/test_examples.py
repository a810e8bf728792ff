"""The issue's six migrations of the shipped order-management example,
each planned, scripted and proven on the sample data; the costs of two
of them against a count by hand."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from decimal import Decimal

import pytest

from modeler.design import model as d
from modeler.evolution import changes as c
from modeler.evolution.plan import DEPLOY, Plan, plan_migration, plan_text
from modeler.review.prices import DOCUMENTED_PRICES
from modeler.sampledata import generate
from tests.evolution import revisions
from tests.evolution.revisions import smaller


@functools.cache
def planned(revision: Callable[[], d.Design]) -> Plan:
    return plan_migration(smaller(revisions.original()), smaller(revision()))


def _items_of(plan: Plan, entity: str) -> list[dict]:
    """The migrated table's items of one entity of the new design."""
    proof = plan.proof
    pairs = zip(proof.items_after, proof.entities_after, strict=True)
    return [item for item, name in pairs if name == entity]


def _kinds(plan: Plan) -> list[str]:
    return [step.kind for step in plan.steps]


def _categories(plan: Plan) -> set[str]:
    return {change.category for change in plan.changes}


SIX = (
    revisions.gsi_added,
    revisions.sort_key_changed,
    revisions.index_made_sparse,
    revisions.entity_split,
    revisions.key_attribute_renamed,
    revisions.partition_key_changed,
)


@pytest.mark.parametrize("revision", SIX, ids=lambda r: r.__name__)
def test_each_migration_is_proven(revision):
    plan = planned(revision)
    assert plan.proven, plan_text(plan)
    assert plan.verdict == "proven on the sample data"
    # Every pattern of the new design ran against the migrated table.
    assert [name for name, _, _ in plan.proof.patterns] == [
        p.name for p in revision().access_patterns
    ]
    assert plan.proof.counts_after == plan.proof.counts_expected
    assert "#!/usr/bin/env python3" in plan.script


def test_a_new_gsi_is_computed_then_created_with_its_backfill():
    plan = planned(revisions.gsi_added)
    assert _categories(plan) == {c.ONLINE, c.REWRITE}
    assert _kinds(plan) == [DEPLOY, c.REWRITE, c.ONLINE, DEPLOY]
    assert plan.steps[0].dual_write and not plan.steps[0].dual_read
    assert "create GSI GSI4" in plan.steps[2].title


def test_a_sort_key_change_moves_each_order_under_a_dual_read():
    plan = planned(revisions.sort_key_changed)
    assert _kinds(plan) == [DEPLOY, c.REWRITE, DEPLOY, c.REWRITE]
    assert plan.steps[1].dual_write and plan.steps[1].dual_read
    assert "--cleanup" in plan.steps[3].title
    tally, cleanup = plan.proof.tally, plan.proof.cleanup_tally
    orders = plan.proof.counts_before["Order"]
    assert tally.by_entity == {"Order": orders}
    # The old items go after the final deploy, not while the old version runs.
    assert tally.counts["written"] == tally.counts["held"] == orders
    assert tally.counts["deleted"] == 0
    assert cleanup.counts["written"] == 0
    assert cleanup.counts["deleted"] == orders


def test_a_sparse_index_keeps_only_the_customers_it_promises():
    plan = planned(revisions.index_made_sparse)
    customers = _items_of(plan, "Customer")
    assert customers
    for customer in customers:
        assert ("GSI1PK" in customer) == ("phone" in customer)


def test_a_split_moves_the_address_to_an_item_of_its_own():
    plan = planned(revisions.entity_split)
    proof = plan.proof
    assert proof.counts_after["CustomerAddress"] == proof.counts_before["Customer"]
    assert all("address" not in item for item in _items_of(plan, "Customer"))
    addresses = _items_of(plan, "CustomerAddress")
    assert all(item["SK"] == "ADDRESS" and "address" in item for item in addresses)
    assert all(set(item) == {"PK", "SK", "customerId", "address"} for item in addresses)


def test_a_renamed_key_attribute_is_a_rename_not_a_removal():
    plan = planned(revisions.key_attribute_renamed)
    assert [ch.what for ch in plan.changes] == [
        "Customer.email renamed to emailAddress: stored under the new name"
    ]
    customers = _items_of(plan, "Customer")
    assert all("email" not in item for item in customers)
    assert all(item["GSI1PK"] == f"EMAIL#{item['emailAddress']}" for item in customers)
    # The deployed version finds customers by `email` until the final
    # deploy: the rewrite copies it, the cleanup drops it.
    old = dict((name, passed) for name, passed, _ in plan.proof.old_patterns)
    assert old["Find customer by email"]
    assert all(old.values())
    assert plan.proof.tally.counts["written"] == len(customers)
    assert plan.proof.cleanup_tally.by_entity == {"Customer": len(customers)}


def test_a_new_partition_key_copies_every_item_to_a_new_table():
    plan = planned(revisions.partition_key_changed)
    assert c.NEW_TABLE in _categories(plan)
    assert _kinds(plan) == [c.NEW_TABLE, DEPLOY, c.NEW_TABLE, DEPLOY, c.ONLINE]
    assert plan.spec["target_table"] == "order-management-v2"
    proof = plan.proof
    assert proof.counts_after == proof.counts_before
    assert all("pk" in i and "PK" not in i and "SK" not in i for i in proof.items_after)


# --- Costs by hand -----------------------------------------------------------------


def _bound(item: dict) -> int:
    """More than the item's size by DynamoDB's rules: every name and value
    at its full text length (a number's text is longer than its stored
    size, a map's JSON longer than its stored size)."""
    return sum(
        len(name.encode()) + len(json.dumps(value, default=str).encode()) + 3
        for name, value in item.items()
    )


def _sample() -> tuple[list[dict], list[str]]:
    dataset = generate(smaller(revisions.original()))
    return dataset.items, dataset.entities


def _money(read_units: float, write_units: float) -> Decimal:
    million = Decimal(1_000_000)
    return (
        Decimal(str(read_units)) / million * DOCUMENTED_PRICES.read_request_per_million
        + Decimal(str(write_units))
        / million
        * DOCUMENTED_PRICES.write_request_per_million
    )


def _scan_bounds(items: list[dict]) -> tuple[float, float]:
    """An eventually consistent Scan in pages of 100 items over 4 segments
    costs half a unit per 4 KB read, rounded up once per page."""
    total = sum(_bound(i) for i in items)
    pages = math.ceil(len(items) / 100) + 4
    return 0.0, total / 4096 * 0.5 + pages * 0.5


def test_costs_of_the_new_gsi_by_hand():
    items, entities = _sample()
    line_items = [i for i, e in zip(items, entities, strict=True) if e == "LineItem"]
    # Each line item (well under 1 KB, with its new keys) is updated once:
    # 1 WCU on the table and 1 on GSI3, whose ALL entry changes; GSI1 and
    # GSI2 do not hold line items. The backfill writes one GSI4 entry each.
    assert max(_bound(i) + 120 for i in line_items) < 1024
    rewrite_writes = 2 * len(line_items)
    backfill_writes = len(line_items)
    plan = planned(revisions.gsi_added)
    rewrite, create = plan.steps[1], plan.steps[2]
    assert rewrite.write_units == rewrite_writes
    low, high = _scan_bounds(items)
    assert low < rewrite.read_units <= high
    assert rewrite.dollars == _money(rewrite.read_units, rewrite_writes)
    assert rewrite.seconds == rewrite_writes / 1000
    assert create.write_units == backfill_writes
    assert create.dollars == Decimal(backfill_writes) / 1_000_000 * Decimal("0.625")
    assert plan.write_units == rewrite_writes + backfill_writes


def test_costs_of_the_sparse_index_by_hand():
    items, entities = _sample()
    customers = [i for i, e in zip(items, entities, strict=True) if e == "Customer"]
    leaving = [item for item in customers if "phone" not in item]
    assert 0 < len(leaving) < len(customers)
    # A customer without a phone loses its GSI1 keys: 1 WCU to update the
    # item (under 1 KB) and 1 to delete its GSI1 entry. The others stay.
    assert max(_bound(item) for item in customers) < 1024
    plan = planned(revisions.index_made_sparse)
    # The deployed version still queries GSI1 for them: they lose their
    # keys in the cleanup after the final deploy, not in the rewrite.
    rewrite, cleanup = [s for s in plan.steps if s.kind == c.REWRITE]
    assert rewrite.write_units == 0
    assert plan.proof.tally.by_entity == {}
    assert "--cleanup" in cleanup.title
    assert cleanup.write_units == 2 * len(leaving)
    assert plan.proof.cleanup_tally.by_entity == {"Customer": len(leaving)}
    assert cleanup.dollars == _money(cleanup.read_units, 2 * len(leaving))
