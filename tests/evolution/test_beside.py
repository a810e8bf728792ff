"""An index whose keys change under a pattern the deployed version runs
cannot be rewritten in place: while the script runs, the deployed version's
query of it finds the items in the wrong order. The planner then plans the
next design with the index rebuilt beside itself (a new GSI, filled while
the old one is read, then the old one deleted) and offers it when proven."""

from __future__ import annotations

import dataclasses

from modeler.design import model as d
from modeler.evolution.beside import rebuilt_beside, rekeyed_indexes
from modeler.evolution.plan import plan_migration, plan_text
from tests.evolution import revisions
from tests.evolution.revisions import smaller


def _pattern(design: d.Design, name: str) -> d.AccessPattern:
    return next(p for p in design.access_patterns if p.name == name)


def test_a_resorted_index_is_planned_again_rebuilt_beside_itself() -> None:
    before, after = (
        smaller(revisions.original(), 3),
        smaller(revisions.index_resorted(), 3),
    )
    plan = plan_migration(before, after)
    # The design as asked is refused: the deployed version reads GSI1 in
    # date order while the rewrite re-sorts it by order id.
    assert not plan.proven
    assert "Orders of a customer in a status" in plan.verdict
    # The way that works: GSI1 under a new name, on key attributes of its own.
    assert plan.alternative is not None and plan.alternative.proven
    (rebuilt,) = plan.rebuilt
    assert (rebuilt.index, rebuilt.name) == ("GSI1", "GSI4")
    assert rebuilt.keys == (("GSI1PK", "GSI4PK"), ("GSI1SK", "GSI4SK"))
    assert rebuilt.readers == ("Orders of a customer in a status",)
    design = plan.alternative.after
    assert [i.name for i in design.table.indexes] == ["GSI4", "GSI2", "GSI3"]
    order, customer = design.entity("Order"), design.entity("Customer")
    assert order.keys["GSI4SK"].template == "ORDER#{orderId}"
    assert customer.keys["GSI4PK"].template == "EMAIL#{email}"
    assert not {"GSI1PK", "GSI1SK"} & (order.keys.keys() | customer.keys.keys())
    # The patterns follow: the queries of GSI1, and the update that moves an
    # order between its partitions.
    found = _pattern(design, "Find customer by email")
    assert found.index == "GSI4" and found.key[0].attribute == "GSI4PK"
    ship = _pattern(design, "Ship an order").actions[0]
    assert dict(ship.set)["GSI4PK"] == "CUST#{customerId}#SHIPPED"
    # Nothing else changes.
    assert (
        _pattern(design, "Orders of a customer in a status").expects
        == _pattern(after, "Orders of a customer in a status").expects
    )
    # Its steps: the new index made and filled while the old one is read,
    # then the old one deleted once no version reads it, before the cleanup
    # removes its keys from the items (which would otherwise be index
    # writes too).
    titles = [s.title for s in plan.alternative.steps]
    created = next(n for n, t in enumerate(titles) if "create GSI GSI4" in t)
    deployed = next(n for n, t in enumerate(titles) if "of the new design" in t)
    deleted = next(n for n, t in enumerate(titles) if "delete GSI GSI1" in t)
    cleanup = next(n for n, t in enumerate(titles) if "--cleanup" in t)
    assert created < deployed < deleted < cleanup
    rewrite = next(s for s in plan.alternative.steps if "rewrite the items" in s.title)
    # The cleanup removes what the rewrite added, item for item: no index
    # write of GSI1 on top.
    assert plan.alternative.steps[cleanup].write_units == rewrite.write_units
    text = plan_text(plan)
    assert "A proven way instead:" in text
    assert "GSI GSI1 rebuilt beside itself as GSI4" in text
    assert "  Verdict: proven on the sample data" in text


def test_a_proven_plan_or_one_failing_elsewhere_gets_no_alternative() -> None:
    before = smaller(revisions.original(), 3)
    proven = plan_migration(before, smaller(revisions.sort_key_changed(), 3))
    assert proven.proven and proven.alternative is None
    assert "A proven way instead" not in plan_text(proven)
    # Without the proof there is nothing to tell a re-sort from.
    outline = plan_migration(
        before, smaller(revisions.index_resorted(), 3), proof=False
    )
    assert outline.alternative is None


def test_only_indexes_whose_keys_change_for_their_items_are_rekeyed() -> None:
    before = revisions.original()
    assert rekeyed_indexes(before, revisions.index_resorted()) == ["GSI1"]
    assert rekeyed_indexes(before, revisions.gsi_added()) == []
    # The table's sort key is no index's; customers leaving GSI1 (a sparse
    # condition added) re-sort nothing that stays in it.
    assert rekeyed_indexes(before, revisions.sort_key_changed()) == []
    assert rekeyed_indexes(before, revisions.index_made_sparse()) == []


def test_an_index_sharing_a_key_attribute_is_not_rebuilt() -> None:
    after = revisions.index_resorted()
    gsi1 = after.table.index("GSI1")
    assert gsi1 is not None
    shared = dataclasses.replace(
        gsi1, name="GSI9", sort_key=(), projection=d.Projection("KEYS_ONLY")
    )
    after = dataclasses.replace(
        after,
        table=dataclasses.replace(after.table, indexes=(*after.table.indexes, shared)),
    )
    assert rebuilt_beside(revisions.original(), after, ["GSI1"], {}, ["GSI1"]) is None


def test_the_new_names_are_free_in_both_designs() -> None:
    before = revisions.original()
    after = revisions.index_resorted()
    # GSI4 and GSI4PK already exist on the deployed side (the example with
    # a GSI4 added); the rebuilt index takes the next free names.
    made = rebuilt_beside(revisions.gsi_added(), after, ["GSI1"], {}, ["GSI1"])
    assert made is not None
    design, (rebuilt,) = made
    assert rebuilt.name == "GSI5"
    assert dict(rebuilt.keys) == {"GSI1PK": "GSI5PK", "GSI1SK": "GSI5SK"}
    assert design.table.index("GSI5") is not None
    made = rebuilt_beside(before, after, ["GSI1"], {}, ["GSI1"])
    assert made is not None and made[1][0].name == "GSI4"


def test_an_index_made_again_under_its_name_is_deleted_first_and_offered_beside():
    # GSI2's projection changes: DynamoDB makes it again. Under its own name
    # it is deleted first (it cannot be created while it exists), and the
    # deployed version's query of it fails until the new one is ACTIVE.
    before = smaller(revisions.original(), 3)
    plan = plan_migration(before, smaller(revisions.index_reprojected(), 3))
    assert plan.proven
    titles = [s.title for s in plan.steps]
    assert titles[0].startswith(
        "UpdateTable: delete GSI GSI2, to make it again next (DynamoDB cannot "
        "change a GSI's keys or projection in place); until the new one is "
        "ACTIVE the deployed version's queries of it fail: All open orders, "
        "oldest first"
    )
    assert titles[1].startswith("UpdateTable: create GSI GSI2")
    assert not any("delete GSI GSI2 (no version reads it" in t for t in titles)
    # The way without the outage: a GSI4 on the same key attributes (their
    # values stay: nothing to rewrite), made before the deploy that reads
    # it, GSI2 deleted after.
    assert plan.alternative is not None and plan.alternative.proven
    (rebuilt,) = plan.rebuilt
    assert (rebuilt.index, rebuilt.name, rebuilt.keys) == ("GSI2", "GSI4", ())
    gsi4 = plan.alternative.after.table.index("GSI4")
    assert gsi4 is not None and gsi4.projection.type == "ALL"
    assert [a.name for a in gsi4.key_attributes] == ["GSI2PK", "GSI2SK"]
    assert [s.title.split(" and ")[0] for s in plan.alternative.steps] == [
        "UpdateTable: create GSI GSI4",
        "Deploy the application version of the new design (its access patterns; "
        "writes in the new shape only)",
        "UpdateTable: delete GSI GSI2 (no version reads it any more)",
    ]
    text = plan_text(plan)
    assert "A way without the outage, proven:" in text
    assert (
        "GSI GSI2 rebuilt beside itself as GSI4: made again under its own name, it "
        "would be missing while the deployed version reads it (All open orders, "
        "oldest first)"
    ) in text


class _Stop(Exception):
    pass


def test_a_caller_that_stops_the_alternative_keeps_the_plan_asked_for() -> None:
    # A worker past its budget stops the proof through its progress: once
    # the plan asked for is made, stopping the alternative's proof leaves
    # that plan, without an alternative.
    phases: list[str] = []

    def progress(phase: str, done: int, total: int) -> None:
        phases.append(phase)
        if phase == "beside:generating":
            raise _Stop

    before = smaller(revisions.original(), 3)
    plan = plan_migration(
        before, smaller(revisions.index_resorted(), 3), progress=progress
    )
    assert not plan.proven and "Orders of a customer in a status" in plan.verdict
    assert plan.alternative is None and plan.rebuilt == []
    # The alternative's phases are told as its own.
    assert phases.count("generating") == 1
    assert phases[-1] == "beside:generating"
