"""Changes beyond the issue's six: none at all, an LSI dropped (a new
table), an entity removed (its items deleted), and a retype no script can
make (refused before anything runs)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.evolution import changes as c
from modeler.evolution.plan import DEPLOY, plan_migration, plan_text
from modeler.evolution.proof import prove
from modeler.evolution.runtime import Migration, Tally
from modeler.examples import example
from tests.evolution import revisions
from tests.evolution.revisions import smaller


def test_the_same_design_needs_nothing_and_is_proven():
    design = smaller(revisions.original())
    plan = plan_migration(design, design)
    assert plan.changes == []
    assert [s.kind for s in plan.steps] == [c.NOTHING]
    assert plan.proven
    assert plan.proof.tally.counts["written"] == 0


def test_a_dropped_lsi_means_a_new_table_and_a_copy():
    before = example("device-telemetry").design
    table = dataclasses.replace(
        before.table,
        indexes=tuple(i for i in before.table.indexes if i.name != "LSI1"),
    )
    entities = tuple(
        dataclasses.replace(e, keys={k: v for k, v in e.keys.items() if k != "LSI1SK"})
        for e in before.entities
    )
    patterns = tuple(p for p in before.access_patterns if p.index != "LSI1")
    after = dataclasses.replace(
        before, table=table, entities=entities, access_patterns=patterns
    )
    plan = plan_migration(before, after)
    assert [ch.what for ch in plan.changes if ch.category == c.NEW_TABLE] == [
        "LSI LSI1 removed: a local index exists only as created with its table"
    ]
    assert plan.spec["target_table"] == "device-telemetry-v2"
    assert plan.proven, plan.verdict
    assert plan.proof.counts_after == plan.proof.counts_before
    assert not any("LSI1SK" in item for item in plan.proof.items_after)
    # A provisioned table pays for the capacity the copy holds while it
    # runs: its units over the run's hours at the prices per unit-hour.
    (copy,) = [s for s in plan.steps if s.write_units]
    assert copy.seconds == copy.write_units / 1000
    hours = Decimal(str(copy.seconds)) / 3600
    expected = hours * (
        Decimal(str(copy.read_units / copy.seconds)) * Decimal("0.00013")
        + Decimal(str(copy.write_units / copy.seconds)) * Decimal("0.00065")
    )
    assert copy.dollars == expected


def _line_items_removed() -> tuple[d.Design, d.Design]:
    before = smaller(revisions.original())
    after = dataclasses.replace(
        before,
        entities=tuple(e for e in before.entities if e.name != "LineItem"),
        access_patterns=tuple(
            p for p in before.access_patterns if "line items" not in p.name
        ),
    )
    return before, after


def test_a_removed_entity_has_its_items_deleted():
    before, after = _line_items_removed()
    plan = plan_migration(before, after)
    assert [ch.what for ch in plan.changes] == [
        "entity LineItem removed: its items are deleted"
    ]
    assert plan.proven, plan.verdict
    assert "LineItem" not in plan.proof.counts_after
    # Deleted only by the cleanup: the dual-writing application still
    # places orders with their line items.
    assert plan.proof.tally.counts["deleted"] == 0
    lines = plan.proof.counts_before["LineItem"]
    assert plan.proof.tally.counts["held"] == lines
    assert plan.proof.cleanup_tally.counts["deleted"] == lines
    # The steps say so: the rewrite lists only its counts, the cleanup the
    # deletion.
    rewrite, cleanup = [s for s in plan.steps if s.kind == "items rewritten"]
    assert rewrite.title.startswith("Run the script: rewrite")
    assert "entity LineItem removed: its items are deleted" not in rewrite.details
    assert cleanup.title.startswith("Run the script with --cleanup")
    assert cleanup.details[0] == "entity LineItem removed: its items are deleted"


def test_a_rewrite_that_deletes_before_the_final_deploy_is_caught():
    before, after = _line_items_removed()
    plan = plan_migration(before, after, proof=False)

    def deletes_early(client: Any, cleanup: bool) -> Tally:
        # A broken plan: the cleanup's deletions at the dual-write step.
        return Migration(plan.spec, client, workers=1, cleanup=True).run()

    plan.proof = prove(before, after, plan.spec, run=deletes_early)
    # The table ends as the new design wants it: only the old design's
    # patterns, at the dual-write step, see what went wrong.
    assert all(passed for _, passed, _ in plan.proof.patterns)
    assert plan.proof.counts_after == plan.proof.counts_expected
    failing = [name for name, passed, _ in plan.proof.old_patterns if not passed]
    assert failing == ["Place an order with its line items"]
    assert not plan.proven
    assert plan.verdict == (
        "not proven: patterns of the deployed design failing at the dual-write "
        "step: Place an order with its line items"
    )
    assert (
        "- at the dual-write step, deployed pattern Place an order with its line "
        "items: fails" in plan_text(plan)
    )


def test_a_retype_no_script_can_make_is_refused_before_anything_runs():
    before = smaller(revisions.original())
    customer = before.entity("Customer")
    attributes = tuple(
        dataclasses.replace(a, type="S", generator=d.Generator("ulid"))
        if a.name == "address"
        else a
        for a in customer.attributes
    )
    after = dataclasses.replace(
        before,
        entities=tuple(
            dataclasses.replace(e, attributes=attributes) if e is customer else e
            for e in before.entities
        ),
    )
    plan = plan_migration(before, after)
    assert plan.proof is None
    assert not plan.proven
    assert plan.verdict == (
        "cannot be proven: cannot be scripted: Customer.address retyped from M to S"
    )


def test_an_entity_merged_back_joins_the_items_it_was_split_from():
    # The split undone: each address goes back into its customer's profile.
    before = smaller(revisions.entity_split())
    after = smaller(revisions.original())
    plan = plan_migration(before, after)
    assert [ch.what for ch in plan.changes if ch.category == c.REWRITE] == [
        "entity CustomerAddress merged into Customer: its items are rewritten as "
        "Customer items"
    ]
    assert plan.proven, plan.verdict
    proof = plan.proof
    assert "CustomerAddress" not in proof.counts_after
    assert proof.counts_after["Customer"] == proof.counts_before["Customer"]
    pairs = zip(proof.items_after, proof.entities_after, strict=True)
    customers = [item for item, name in pairs if name == "Customer"]
    assert all("address" in item and item["SK"] == "PROFILE" for item in customers)


def test_a_new_entity_that_only_shares_names_is_not_a_split():
    before = smaller(revisions.original())
    tag = d.Entity(
        "Tag",
        attributes=(
            d.Attribute("customerId", generator=d.Generator("ulid")),
            d.Attribute("name", generator=d.Generator("ulid")),
        ),
        keys={"PK": d.KeyTemplate("TAG#{name}"), "SK": d.KeyTemplate("{customerId}")},
    )
    after = dataclasses.replace(before, entities=(*before.entities, tag))
    plan = plan_migration(before, after)
    assert [ch.what for ch in plan.changes] == [
        "entity Tag added: no existing item becomes one; the new application "
        "version writes them"
    ]
    assert plan.proven, plan.verdict
    assert "Tag" not in plan.proof.counts_after


def test_a_gsi_capacity_change_is_a_step_of_the_plan():
    low, high = d.Capacity(10, 5), d.Capacity(20, 10)

    def provisioned(gsi1: d.Capacity) -> d.Design:
        design = smaller(revisions.original())
        table = design.table
        indexes = tuple(
            dataclasses.replace(i, capacity=gsi1 if i.name == "GSI1" else low)
            for i in table.indexes
        )
        table = dataclasses.replace(
            table,
            billing_mode="PROVISIONED",
            capacity=d.Capacity(50, 20),
            indexes=indexes,
        )
        return dataclasses.replace(design, table=table)

    plan = plan_migration(provisioned(low), provisioned(high), proof=False)
    what = "GSI GSI1 capacity: 10 RCU / 5 WCU -> 20 RCU / 10 WCU"
    assert [(ch.category, ch.what) for ch in plan.changes] == [(c.ONLINE, what)]
    step = plan.steps[0]
    assert (step.kind, step.title, step.details) == (
        c.ONLINE,
        "UpdateTable: the table's settings",
        (what,),
    )
    assert [s.kind for s in plan.steps] == [c.ONLINE, DEPLOY]
