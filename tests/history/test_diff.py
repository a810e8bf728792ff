"""The semantic diff of two designs: each changed element with its two
versions as the design file writes them, the changed key-map cells, and the
text to download."""

from __future__ import annotations

import dataclasses

from modeler.history.diff import design_diff, diff_text
from modeler.history.elements import with_uids
from tests.views.conftest import example_design


def _order() -> object:
    return with_uids(example_design("order-management"))


def test_a_changed_entity_shows_its_fields_and_both_versions():
    before = _order()
    order = before.entity("Order")
    keys = dict(order.keys)
    keys["SK"] = dataclasses.replace(keys["SK"], template="ORDER#{orderId}")
    after = dataclasses.replace(
        before,
        entities=tuple(
            dataclasses.replace(e, keys=keys, description="Changed.")
            if e.name == "Order"
            else e
            for e in before.entities
        ),
    )

    diff = design_diff(before, after)

    [change] = diff.changes
    assert (change.label, change.change) == ("entity Order", "changed")
    assert set(change.fields) == {"description", "key templates"}
    assert "SK: ORDER#{orderDate}#{orderId}" in change.before
    assert "SK: ORDER#{orderId}" in change.after
    assert diff.key_cells == frozenset({("Order", "SK")})
    assert diff.summary.startswith("changed entity Order")


def test_added_and_removed_elements_and_no_change():
    before = _order()
    after = dataclasses.replace(
        before,
        entities=tuple(e for e in before.entities if e.name != "LineItem"),
        access_patterns=before.access_patterns[:2],
    )
    diff = design_diff(before, after)
    kinds = {(c.change, c.label) for c in diff.changes}
    assert ("removed", "entity LineItem") in kinds
    assert all(c.after == "" for c in diff.changes if c.change == "removed")
    assert ("LineItem", "PK") in diff.key_cells
    assert design_diff(before, before).is_empty
    assert design_diff(before, before).summary == "no change"
    back = design_diff(after, before)
    assert ("added", "entity LineItem") in {(c.change, c.label) for c in back.changes}


def test_the_text_diff_is_a_unified_diff_of_the_design_files():
    before = _order()
    after = dataclasses.replace(before, description="Another description.")
    text = diff_text(before, after, title="Order management: revision 1 to 2")
    assert text.startswith("Order management: revision 1 to 2\n\nChanges: ")
    assert "\n- changed the project (description)\n" in text
    assert "--- before.yaml\n+++ after.yaml\n" in text
    assert "+description: Another description." in text
