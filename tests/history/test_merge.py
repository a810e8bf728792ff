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
            lambda b: edits.EntityUpdate("Order", _order_date_renamed(b)).apply(b),
            "renamed attribute Order.orderDate to placedAt and 4 more changes",
        ),
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


def test_an_edit_of_an_entity_renamed_since_follows_it(base):
    theirs = _renamed(base, "Customer", "Client")
    mine = dataclasses.replace(base.entity("Customer"), description="mine", uid="")

    merged = rebase(
        edits.EntityUpdate("Customer", mine).apply, base=base, current=theirs
    )

    assert merged.entity("Customer") is None
    assert merged.entity("Client").description == "mine"
    assert merged.entity("Client").uid == base.entity("Customer").uid
    order = merged.entity("Order")
    assert order.sample.per == theirs.entity("Order").sample.per


def test_an_edit_of_an_entity_removed_since_is_a_clash_without_theirs(base):
    theirs = edits.EntityRemove("Customer").apply(base)
    mine = dataclasses.replace(base.entity("Customer"), description="mine", uid="")

    with pytest.raises(Conflict) as raised:
        rebase(edits.EntityUpdate("Customer", mine).apply, base=base, current=theirs)

    (clash,) = raised.value.clashes
    assert clash.theirs is None
    assert clash.base.label == "entity Customer"
    assert clash.mine.value.description == "mine"


def _attribute_added(design: d.Design, entity: str, attr: d.Attribute) -> d.Design:
    found = design.entity(entity)
    return with_uids(
        edits.EntityUpdate(
            entity,
            dataclasses.replace(found, attributes=(*found.attributes, attr), uid=""),
        ).apply(design),
        design,
    )


def test_separate_changes_to_one_entity_both_land(base):
    """Their new attribute giftWrap stays when I change the description."""
    theirs = _attribute_added(base, "Order", d.Attribute("giftWrap", "BOOL"))

    merged = rebase(lambda x: _described(x, "Order", "mine"), base=base, current=theirs)

    order = merged.entity("Order")
    assert order.description == "mine"
    assert [a.name for a in order.attributes][-1] == "giftWrap"
    assert (
        order.attribute("giftWrap").uid
        == theirs.entity("Order").attribute("giftWrap").uid
    )


def test_attributes_keys_and_generators_merge_one_by_one(base):
    order = base.entity("Order")
    status = order.attribute("status")
    theirs_entity = dataclasses.replace(
        order,
        attributes=tuple(
            dataclasses.replace(
                a, generator=d.Generator("const", d.freeze({"value": "X"}))
            )
            if a.name == "status"
            else a
            for a in order.attributes
        ),
        uid="",
    )
    theirs = edits.EntityUpdate("Order", theirs_entity).apply(base)
    mine_keys = {**order.keys, "SK": d.KeyTemplate("ORDER#{orderId}")}
    mine_entity = dataclasses.replace(
        order,
        attributes=tuple(
            dataclasses.replace(a, required=False) if a.name == "status" else a
            for a in order.attributes
        ),
        keys=d.freeze(mine_keys),
        uid="",
    )

    merged = rebase(
        edits.EntityUpdate("Order", mine_entity).apply, base=base, current=theirs
    )

    got = merged.entity("Order")
    assert got.attribute("status").generator.kind == "const"
    assert got.attribute("status").required is False
    assert got.keys["SK"].template == "ORDER#{orderId}"
    assert got.keys["PK"] == order.keys["PK"]
    assert status.required is True


def test_only_the_fields_both_changed_clash_and_mine_is_merged_with_theirs(base):
    theirs = _attribute_added(base, "Order", d.Attribute("giftWrap", "BOOL"))
    theirs = _described(theirs, "Order", "theirs")

    with pytest.raises(Conflict) as raised:
        rebase(lambda x: _described(x, "Order", "mine"), base=base, current=theirs)

    (clash,) = raised.value.clashes
    [field] = clash.fields
    assert (field.path, field.theirs, field.mine) == ("description", "theirs", "mine")
    # Keeping mine keeps their attribute.
    assert clash.merged.value.description == "mine"
    assert "giftWrap" in [a.name for a in clash.merged.value.attributes]


def test_an_attribute_removed_by_one_and_changed_by_the_other_clashes(base):
    order = base.entity("Order")
    without = dataclasses.replace(
        order,
        attributes=tuple(a for a in order.attributes if a.name != "shippedAt"),
        uid="",
    )
    theirs = edits.EntityUpdate("Order", without).apply(base)
    changed_attr = dataclasses.replace(
        order,
        attributes=tuple(
            dataclasses.replace(a, required=True) if a.name == "shippedAt" else a
            for a in order.attributes
        ),
        uid="",
    )

    with pytest.raises(Conflict) as raised:
        rebase(
            edits.EntityUpdate("Order", changed_attr).apply, base=base, current=theirs
        )

    [field] = raised.value.clashes[0].fields
    assert field.path == "attributes.shippedAt"
    assert field.label == "attribute shippedAt"
    assert field.theirs is None and field.mine.required is True


def test_pattern_clauses_merge_by_attribute(base):
    pattern = base.access_patterns[1]
    theirs = edits.AccessPatternUpdate(
        uid=pattern.uid, pattern=dataclasses.replace(pattern, description="theirs")
    ).apply(base)
    mine = edits.AccessPatternUpdate(
        uid=pattern.uid, pattern=dataclasses.replace(pattern, limit=7)
    )

    merged = rebase(mine.apply, base=base, current=theirs)

    got = merged.access_patterns[1]
    assert (got.description, got.limit) == ("theirs", 7)


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


def _order_date_renamed(design: d.Design) -> d.Entity:
    """Order as its form posts it with orderDate renamed placedAt."""
    order = design.entity("Order")
    return dataclasses.replace(
        order,
        attributes=tuple(
            dataclasses.replace(a, name="placedAt") if a.name == "orderDate" else a
            for a in order.attributes
        ),
    )


def test_an_attribute_renamed_on_a_page_shown_before_a_new_pattern_follows_into_it(
    base,
):
    pattern = dataclasses.replace(
        base.access_patterns[2], name="Orders by date", uid=""
    )
    theirs = edits.AccessPatternAdd(pattern).apply(base)
    mine = _order_date_renamed(base)

    merged = rebase(edits.EntityUpdate("Order", mine).apply, base=base, current=theirs)

    added = next(p for p in merged.access_patterns if p.name == "Orders by date")
    assert added.expects.order_by == ("-placedAt", "-orderId")
    assert merged.entity("Order").keys["SK"].template == "ORDER#{placedAt}#{orderId}"


def test_a_rename_merged_field_by_field_follows_into_their_new_pattern_too(base):
    # They changed a pattern my rename also changes (merged field by field)
    # and added one naming the old name.
    theirs = edits.AccessPatternUpdate(
        pattern=dataclasses.replace(base.access_patterns[2], limit=5),
        uid=base.access_patterns[2].uid,
    ).apply(base)
    added = dataclasses.replace(base.access_patterns[2], name="Orders by date", uid="")
    theirs = edits.AccessPatternAdd(added).apply(theirs)
    mine = _order_date_renamed(base)

    merged = rebase(edits.EntityUpdate("Order", mine).apply, base=base, current=theirs)

    for pattern in (merged.access_patterns[2], merged.access_patterns[-1]):
        assert pattern.expects.order_by == ("-placedAt", "-orderId")
    assert merged.access_patterns[2].limit == 5
