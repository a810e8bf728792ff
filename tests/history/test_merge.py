"""Elements, summaries, merges of concurrent edits and undo, on the
order-management example: what a team sees when two people edit at once."""

from __future__ import annotations

import dataclasses

import pytest

from modeler.design import edits
from modeler.design import model as d
from modeler.history.elements import ITEMS, TABLE, changed, summary, with_uids
from modeler.history.merge import Conflict, rebase, revert
from tests.views.conftest import example_design


@pytest.fixture(scope="module")
def base() -> d.Design:
    return with_uids(example_design("order-management"))


def _described(design: d.Design, entity: str, text: str) -> d.Design:
    found = design.entity(entity)
    edit = edits.EntityUpdate(
        entity, dataclasses.replace(found, description=text, uid="")
    )
    return edit.apply(design)


def _renamed(design: d.Design, entity: str, new: str) -> d.Design:
    found = design.entity(entity)
    return edits.EntityUpdate(
        entity, dataclasses.replace(found, name=new, uid="")
    ).apply(design)


# --- Identity -------------------------------------------------------------------


def test_every_element_gets_a_uid_of_its_own(base):
    uids = (
        [i.uid for i in base.table.indexes]
        + [e.uid for e in base.entities]
        + [a.uid for e in base.entities for a in e.attributes]
        + [p.uid for p in base.access_patterns]
    )
    assert all(uids) and len(set(uids)) == len(uids)


def test_an_element_rebuilt_from_a_form_keeps_its_uid(base):
    renamed = with_uids(_renamed(base, "Order", "Purchase"), base)

    assert renamed.entity("Purchase").uid == base.entity("Order").uid
    assert [a.uid for a in renamed.entity("Purchase").attributes] == [
        a.uid for a in base.entity("Order").attributes
    ]


def test_a_new_element_without_uid_takes_that_of_its_name_else_a_new_one(base):
    stripped = dataclasses.replace(
        base,
        entities=tuple(dataclasses.replace(e, uid="") for e in base.entities)
        + (d.Entity("Invoice"),),
    )

    again = with_uids(stripped, base)

    assert [e.uid for e in again.entities[:3]] == [e.uid for e in base.entities]
    assert again.entity("Invoice").uid not in {e.uid for e in base.entities}


# --- What changed ---------------------------------------------------------------


def test_a_rename_changes_the_entity_and_the_patterns_naming_it(base):
    renamed = _renamed(base, "Order", "Purchase")

    ids = changed(base, renamed)

    assert ids[0] == base.entity("Order").uid
    naming = [
        p.uid
        for p in base.access_patterns
        if p.expects and "Order" in p.expects.entities
    ]
    assert naming and set(naming) <= set(ids)
    assert summary(base, renamed).startswith("renamed entity Order to Purchase and ")


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda b: _described(b, "Customer", "x"),
            "changed entity Customer (description)",
        ),
        (
            lambda b: edits.AccessPatternUpdate(
                uid=b.access_patterns[0].uid,
                pattern=dataclasses.replace(b.access_patterns[0], limit=5),
            ).apply(b),
            "changed access pattern Get customer profile (limit)",
        ),
        (
            lambda b: edits.TableUpdate(
                dataclasses.replace(b.table, ttl_attribute="expiresAt")
            ).apply(b),
            "changed the table's settings (TTL attribute)",
        ),
        (
            lambda b: edits.IndexRemove("GSI2").apply(b),
            "removed index GSI2 and 1 more change",
        ),
        (
            lambda b: edits.EntityAdd(d.Entity("Invoice")).apply(b),
            "added entity Invoice",
        ),
        (lambda b: edits.IndexMove("GSI3", -1).apply(b), "moved index GSI3"),
        (
            lambda b: dataclasses.replace(
                b, sample_data=dataclasses.replace(b.sample_data, seed=9)
            ),
            "set the sample seed to 9",
        ),
    ],
)
def test_summaries_say_what_changed_in_one_line(base, edit, expected):
    assert summary(base, with_uids(edit(base), base)) == expected


def test_a_move_changes_no_element(base):
    uid = base.access_patterns[0].uid
    moved = edits.AccessPatternMove(uid=uid, offset=1).apply(base)
    assert changed(base, moved) == []


# --- Concurrent edits -----------------------------------------------------------


def test_edits_of_two_entities_from_one_version_both_land(base):
    theirs = _described(base, "Order", "theirs")

    merged = rebase(
        lambda x: _described(x, "Customer", "mine"), base=base, current=theirs
    )

    assert merged.entity("Customer").description == "mine"
    assert merged.entity("Order").description == "theirs"


def test_edits_of_one_entity_clash_with_both_values(base):
    theirs = _described(base, "Customer", "theirs")

    with pytest.raises(Conflict) as raised:
        rebase(lambda x: _described(x, "Customer", "mine"), base=base, current=theirs)

    (clash,) = raised.value.clashes
    assert clash.label == "entity Customer"
    assert clash.base.value.description == base.entity("Customer").description
    assert clash.theirs.value.description == "theirs"
    assert clash.mine.value.description == "mine"


def test_the_same_change_made_twice_is_no_clash(base):
    theirs = _described(base, "Customer", "same")

    merged = rebase(
        lambda x: _described(x, "Customer", "same"), base=base, current=theirs
    )

    assert merged == theirs


def test_an_edit_of_an_entity_renamed_since_is_a_clash(base):
    theirs = _renamed(base, "Customer", "Client")
    mine = dataclasses.replace(base.entity("Customer"), description="mine", uid="")

    with pytest.raises(Conflict) as raised:
        rebase(
            edits.EntityUpdate("Customer", mine).apply,
            base=base,
            current=theirs,
        )
    assert raised.value.clashes[0].theirs.name == "Client"


def test_clearing_items_that_someone_added_since_is_a_clash(base):
    item = d.freeze({"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}})
    theirs = dataclasses.replace(
        base, sample_data=dataclasses.replace(base.sample_data, items=(item,))
    )

    def cleared(x: d.Design) -> d.Design:
        return dataclasses.replace(
            x, sample_data=dataclasses.replace(x.sample_data, items=())
        )

    with pytest.raises(Conflict) as raised:
        rebase(cleared, base=base, current=theirs)
    assert [c.id for c in raised.value.clashes] == [ITEMS]


def test_a_pattern_edit_after_a_table_edit_lands_beside_it(base):
    theirs = edits.TableUpdate(
        dataclasses.replace(base.table, billing_mode="PROVISIONED")
    ).apply(base)
    pattern = dataclasses.replace(base.access_patterns[2], description="mine")

    edit = edits.AccessPatternUpdate(uid=pattern.uid, pattern=pattern)
    merged = rebase(edit.apply, base=base, current=theirs)

    assert merged.table.billing_mode == "PROVISIONED"
    assert merged.access_patterns[2].description == "mine"
    assert TABLE not in changed(theirs, merged)


# --- Undo -----------------------------------------------------------------------


def test_undo_of_a_rename_puts_back_the_name_and_the_references(base):
    after = with_uids(_renamed(base, "Order", "Purchase"), base)
    later = with_uids(_described(after, "Customer", "later"), after)

    undone = revert(before=base, after=after, current=later)

    assert undone.entity("Order") is not None and undone.entity("Purchase") is None
    assert undone.access_patterns == base.access_patterns
    assert undone.entity("Customer").description == "later"


def test_undo_of_a_change_that_someone_changed_again_is_a_clash(base):
    after = with_uids(_described(base, "Customer", "first"), base)
    later = with_uids(_described(after, "Customer", "second"), after)

    with pytest.raises(Conflict):
        revert(before=base, after=after, current=later)


@pytest.mark.parametrize(
    "edit",
    [
        lambda b: edits.EntityAdd(d.Entity("Invoice")).apply(b),
        lambda b: edits.IndexRemove("GSI1").apply(b),
        lambda b: edits.AccessPatternRemove(uid=b.access_patterns[3].uid).apply(b),
        lambda b: edits.AccessPatternMove(
            uid=b.access_patterns[5].uid, offset=-3
        ).apply(b),
        lambda b: edits.IndexMove("GSI2", -1).apply(b),
    ],
)
def test_undo_restores_the_design_as_it_was(base, edit):
    after = with_uids(edit(base), base)

    undone = revert(before=base, after=after, current=after)

    assert undone == base
    assert [e.uid for e in undone.entities] == [e.uid for e in base.entities]


def test_redo_is_the_undo_of_the_undo(base):
    after = with_uids(_renamed(base, "Order", "Purchase"), base)
    undone = revert(before=base, after=after, current=after)

    redone = revert(before=after, after=undone, current=undone)

    assert redone == after
