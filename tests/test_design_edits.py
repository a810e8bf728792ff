"""Edits of a Design as values (modeler.design.edits): one part changes,
references follow a rename, and an edit that cannot apply says why."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from modeler.design import edits
from modeler.design import model as d
from modeler.designfile import read_design
from modeler.history.elements import with_uids

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def design() -> d.Design:
    return with_uids(
        read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    )


def test_renaming_an_entity_renames_its_references(design: d.Design) -> None:
    order = dataclasses.replace(design.entity("Order"), name="Purchase")
    edited = edits.EntityUpdate("Order", order).apply(design)
    assert [e.name for e in edited.entities] == ["Customer", "Purchase", "LineItem"]
    line_item = edited.entity("LineItem")
    assert line_item.sample.per == "Purchase"
    assert (
        line_item.attribute("orderId").generator.params["value"] == "Purchase.orderId"
    )
    assert all(
        "Order" not in (p.expects.entities if p.expects else ())
        for p in edited.access_patterns
    )
    assert {a.entity for p in edited.access_patterns for a in p.actions} == {
        "Purchase",
        "LineItem",
    }
    # The customer's reference to nothing named Order is untouched.
    assert edited.entity("Order") is None
    assert edits.entity_dependants(edited, "Purchase")


def test_an_entity_name_is_used_once(design: d.Design) -> None:
    with pytest.raises(edits.EditError, match="already called 'Customer'") as error:
        edits.EntityAdd(d.Entity("Customer")).apply(design)
    assert error.value.field == "name"


def test_dependants_of_an_entity(design: d.Design) -> None:
    assert edits.entity_dependants(design, "Order") == [
        "access pattern 'Orders of a customer, newest first' expects it",
        "access pattern 'Orders of a customer in a status' expects it",
        "access pattern 'Order with its line items' expects it",
        "access pattern 'All open orders, oldest first' expects it",
        "access pattern 'Place an order with its line items' writes it",
        "access pattern 'Ship an order' writes it",
        "entity LineItem's sample data is made per Order",
        "attribute LineItem.orderId draws its values from Order",
    ]
    assert edits.entity_dependants(design, "LineItem") == [
        "access pattern 'Order with its line items' expects it",
        "access pattern 'Place an order with its line items' writes it",
    ]


def test_removing_an_index_removes_the_templates_only_it_used(design: d.Design) -> None:
    edited = edits.IndexRemove("GSI2").apply(design)
    assert [i.name for i in edited.table.indexes] == ["GSI1", "GSI3"]
    assert "GSI2PK" not in edited.entity("Order").keys
    assert "GSI1PK" in edited.entity("Order").keys
    assert edits.index_dependants(design, "GSI2") == [
        "access pattern 'All open orders, oldest first' queries it",
        "entity Order has templates for GSI2PK, GSI2SK, removed with it",
    ]


def test_renaming_an_index_follows_into_patterns(design: d.Design) -> None:
    index = dataclasses.replace(design.table.index("GSI3"), name="ByOrder")
    edited = edits.IndexUpdate("GSI3", index).apply(design)
    assert [
        p.index for p in edited.access_patterns if p.name == "Order with its line items"
    ] == ["ByOrder"]
    with pytest.raises(edits.EditError, match="'table' names the base table"):
        edits.IndexUpdate("GSI3", dataclasses.replace(index, name="table")).apply(
            design
        )


def _pattern_moved(design: d.Design, position: int, offset: int) -> d.Design:
    uid = design.access_patterns[position].uid
    return edits.AccessPatternMove(uid=uid, offset=offset).apply(design)


def test_moves_stay_in_bounds(design: d.Design) -> None:
    moved = _pattern_moved(design, 0, 1)
    assert moved.access_patterns[1] == design.access_patterns[0]
    with pytest.raises(edits.EditError, match="cannot move further"):
        _pattern_moved(design, 0, -1)
    with pytest.raises(edits.EditError, match="cannot move further"):
        edits.IndexMove("GSI3", 1).apply(design)


def test_a_part_someone_removed_is_reported(design: d.Design) -> None:
    with pytest.raises(edits.EditError, match="no longer exists"):
        edits.EntityRemove("Invoice").apply(design)
    with pytest.raises(edits.EditError, match="no longer exists"):
        edits.AccessPatternRemove(uid="gone").apply(design)
    with pytest.raises(edits.EditError, match="no longer exists"):
        edits.IndexRemove("GSI9").apply(design)


def test_table_settings_keep_the_indexes(design: d.Design) -> None:
    table = dataclasses.replace(design.table, indexes=(), ttl_attribute="expiresAt")
    edited = edits.TableUpdate(table).apply(design)
    assert edited.table.ttl_attribute == "expiresAt"
    assert edited.table.indexes == design.table.indexes


def test_renaming_a_key_attribute_renames_templates_and_conditions(
    design: d.Design,
) -> None:
    table = dataclasses.replace(design.table, partition_key=d.KeyAttribute("pk", "S"))
    edited = edits.TableUpdate(table).apply(design)
    assert (
        "pk" in edited.entity("Order").keys and "PK" not in edited.entity("Order").keys
    )
    assert edited.access_patterns[0].key[0].attribute == "pk"
    index = design.table.index("GSI1")
    renamed = dataclasses.replace(index, sort_key=(d.KeyAttribute("GSI1Sort", "S"),))
    edited = edits.IndexUpdate("GSI1", renamed).apply(design)
    assert (
        edited.entity("Order").keys["GSI1Sort"].template
        == "ORDER#{orderDate}#{orderId}"
    )
    assert "GSI1SK" not in edited.entity("Customer").keys


def _action(design: d.Design, pattern: str) -> d.Action:
    return next(p for p in design.access_patterns if p.name == pattern).actions[0]


def test_renaming_a_key_attribute_follows_into_what_the_patterns_write_and_test(
    design: d.Design,
) -> None:
    # "Place an order" puts the order only if no item has its key yet: with
    # the old name left in the condition, no item would ever have it, and a
    # second order with the same key would overwrite the first unseen.
    place = "Place an order with its line items"
    assert _action(design, place).condition == "attribute_not_exists(PK)"
    table = dataclasses.replace(design.table, partition_key=d.KeyAttribute("pk", "S"))
    edited = edits.TableUpdate(table).apply(design)
    assert _action(edited, place).condition == "attribute_not_exists(pk)"
    # "Ship an order" moves the order between GSI1's partitions by setting
    # its GSI1PK, and leaves GSI2 by removing GSI2PK and GSI2SK.
    ship = "Ship an order"
    gsi1 = design.table.index("GSI1")
    gsi2 = design.table.index("GSI2")
    edited = edits.IndexUpdate(
        "GSI1",
        dataclasses.replace(gsi1, partition_key=(d.KeyAttribute("StatusPK", "S"),)),
    ).apply(design)
    edited = edits.IndexUpdate(
        "GSI2",
        dataclasses.replace(
            gsi2, name="Open", sort_key=(d.KeyAttribute("OpenSK", "S"),)
        ),
    ).apply(edited)
    action = _action(edited, ship)
    assert dict(action.set)["StatusPK"] == "CUST#{customerId}#SHIPPED"
    assert "GSI1PK" not in dict(action.set)
    assert action.remove == ("GSI2PK", "OpenSK")
    assert action.condition == 'status = "OPEN"'
    assert edited.entity("Order").keys["StatusPK"].template == (
        "CUST#{customerId}#{status}"
    )


def test_a_key_rename_leaves_an_attribute_of_the_written_entity_alone(
    design: d.Design,
) -> None:
    # An entity with an attribute of its own called like the old key name
    # writes that attribute, not the key.
    order = design.entity("Order")
    order = dataclasses.replace(
        order,
        attributes=(*order.attributes, d.Attribute("GSI1PK", "S", required=False)),
    )
    design = dataclasses.replace(
        design,
        entities=tuple(order if e.name == "Order" else e for e in design.entities),
    )
    gsi1 = design.table.index("GSI1")
    edited = edits.IndexUpdate(
        "GSI1",
        dataclasses.replace(gsi1, partition_key=(d.KeyAttribute("StatusPK", "S"),)),
    ).apply(design)
    assert "GSI1PK" in dict(_action(edited, "Ship an order").set)


STORES = """
format: single-table-workbench/v1
name: Stores
table: {name: stores, partition_key: {name: PK, type: S}, sort_key: {name: SK, type: S}}
entities:
  Store:
    attributes:
      region: {type: S, generator: {choice: [EU, US, AP]}}
      storeNo: {type: N, generator: sequence}
    keys: {PK: "STORE#{region}", SK: "{storeNo:04d}"}
  Sale:
    attributes:
      saleId: {type: S, generator: ulid}
      storeRegion: {type: S, generator: {pick: {from: Store.region, with: storeNo}}}
      storeNo: {type: N, generator: {pick: Store.storeNo}}
      label: {type: S, generator: {template: "{{{storeNo:04d}}}-{saleId}"}}
    keys: {PK: "SALE#{saleId}", SK: "SALE"}
"""


def _attributes_renamed(entity: d.Entity, renamed: dict[str, str]) -> d.Entity:
    """The entity as the form posts it after a rename: each renamed row
    keeps its attribute's uid, the other rows as they were."""
    return dataclasses.replace(
        entity,
        attributes=tuple(
            dataclasses.replace(a, name=renamed.get(a.name, a.name))
            for a in entity.attributes
        ),
    )


def test_renaming_an_attribute_follows_into_the_generators_that_name_it() -> None:
    from modeler.design_check import check_design

    design = with_uids(read_design(STORES).design)
    sale = _attributes_renamed(design.entity("Sale"), {"storeNo": "shopNo"})

    edited = edits.EntityUpdate("Sale", sale).apply(design)

    generators = {
        a.name: d.thaw(a.generator.params) for a in edited.entity("Sale").attributes
    }
    assert generators["storeRegion"] == {"from": "Store.region", "with": "shopNo"}
    # The format is kept, and the braces written as text stay text.
    assert generators["label"] == {"value": "{{{shopNo:04d}}}-{saleId}"}
    assert check_design(edited) == []
    # Undone, both name storeNo again.
    undone = edits.Revert(before=design, after=edited, line="").apply(edited)
    assert undone.entity("Sale") == design.entity("Sale")


def test_renaming_an_attribute_follows_into_a_template_and_an_expiry() -> None:
    from modeler.design_check import check_design

    design = with_uids(
        read_design((EXAMPLES / "device-telemetry.yaml").read_bytes()).design
    )
    reading = _attributes_renamed(
        design.entity("Reading"), {"day": "date", "readingAt": "takenAt"}
    )
    keys = {
        name: dataclasses.replace(
            key, template=key.template.replace("readingAt", "takenAt")
        )
        for name, key in reading.keys.items()
    }
    reading = dataclasses.replace(
        reading, keys=d.freeze({**keys, "GSI1PK": d.KeyTemplate("DAY#{date}#{shard}")})
    )

    edited = edits.EntityUpdate("Reading", reading).apply(design)

    renamed = edited.entity("Reading")
    assert renamed.attribute("takenAt").generator.params["value"] == "{date}T{clock}Z"
    assert renamed.attribute("expiresAt").generator.params["from"] == "takenAt"
    assert [
        f for f in check_design(edited) if "template" in f.code or "expires" in f.code
    ] == []


def test_an_old_name_another_attribute_took_is_not_followed() -> None:
    design = with_uids(read_design(STORES).design)
    sale = design.entity("Sale")
    # storeNo becomes shopNo and a new storeNo is added: `with` still
    # names an attribute, the one now called storeNo.
    sale = _attributes_renamed(sale, {"storeNo": "shopNo"})
    sale = dataclasses.replace(
        sale, attributes=(*sale.attributes, d.Attribute("storeNo", "N"))
    )

    edited = edits.EntityUpdate("Sale", sale).apply(design)

    partner = edited.entity("Sale").attribute("storeRegion").generator.params
    assert partner["with"] == "storeNo"


def test_renaming_an_attribute_its_keys_use_follows_through_the_design(
    design: d.Design,
) -> None:
    from modeler.design_check import check_design

    order = _attributes_renamed(design.entity("Order"), {"orderDate": "placedAt"})

    edited = edits.EntityUpdate("Order", order).apply(design)

    keys = edited.entity("Order").keys
    assert keys["SK"].template == "ORDER#{placedAt}#{orderId}"
    assert keys["GSI1SK"].template == "ORDER#{placedAt}#{orderId}"
    assert keys["GSI2SK"].template == "{placedAt}#{orderId}"
    gsi1 = next(i for i in edited.table.indexes if i.name == "GSI1")
    assert gsi1.projection.attributes == ("placedAt", "status", "total", "shippedAt")
    orders = {p.name: p.expects for p in edited.access_patterns if p.expects}
    assert orders["Orders of a customer, newest first"].order_by == (
        "-placedAt",
        "-orderId",
    )
    assert orders["All open orders, oldest first"].order_by == ("placedAt", "orderId")
    assert check_design(edited) == check_design(design)
    undone = edits.Revert(before=design, after=edited, line="").apply(edited)
    assert undone == design


def test_renaming_a_sparse_condition_attribute_follows_into_conditions_and_writes(
    design: d.Design,
) -> None:
    from modeler.design_check import check_design

    order = _attributes_renamed(design.entity("Order"), {"status": "state"})

    edited = edits.EntityUpdate("Order", order).apply(design)

    keys = edited.entity("Order").keys
    assert keys["GSI1PK"].template == "CUST#{customerId}#{state}"
    assert (keys["GSI2PK"].when, keys["GSI2SK"].when) == ("state = OPEN",) * 2
    patterns = {p.name: p for p in edited.access_patterns}
    ship = patterns["Ship an order"].actions[0]
    assert dict(ship.set)["state"] == "SHIPPED" and "status" not in dict(ship.set)
    # The parameter keeps its name; the attribute it is compared with is renamed.
    assert ship.condition == 'state = "OPEN"'
    in_status = patterns["Orders of a customer in a status"].expects
    assert [(w.attribute, w.values) for w in in_status.where] == [
        ("customerId", ("{customerId}",)),
        ("state", ("{status}",)),
    ]
    assert patterns["All open orders, oldest first"].expects.where[0].attribute == (
        "state"
    )
    assert check_design(edited) == check_design(design)


def test_renaming_an_attribute_others_refer_to_follows_into_their_refs(
    design: d.Design,
) -> None:
    order = _attributes_renamed(design.entity("Order"), {"orderId": "orderNo"})

    edited = edits.EntityUpdate("Order", order).apply(design)

    line_item = edited.entity("LineItem")
    assert d.thaw(line_item.attribute("orderId").generator.params) == {
        "value": "Order.orderNo"
    }
    # LineItem still has an orderId: the pattern expecting both keeps it.
    both = next(
        p for p in edited.access_patterns if p.name == "Order with its line items"
    )
    assert both.expects.where[0].attribute == "orderId"
    assert edited.entity("Order").keys["GSI3PK"].template == "ORDER#{orderNo}"


def test_renaming_an_entity_and_its_attribute_at_once_follows_both(
    design: d.Design,
) -> None:
    order = _attributes_renamed(design.entity("Order"), {"orderId": "orderNo"})
    order = dataclasses.replace(order, name="Purchase")

    edited = edits.EntityUpdate("Order", order).apply(design)

    ref = edited.entity("LineItem").attribute("orderId").generator.params
    assert ref["value"] == "Purchase.orderNo"


def test_a_filter_names_the_new_attribute_but_not_in_text_or_placeholders(
    design: d.Design,
) -> None:
    newest = dataclasses.replace(
        design.access_patterns[2],
        filter=(
            "orderDate >= {from} AND size(orderDate) > :n AND "
            "address.orderDate = \"orderDate\" AND #orderDate <> 'orderDate'"
        ),
    )
    patterns = list(design.access_patterns)
    patterns[2] = newest
    design = dataclasses.replace(design, access_patterns=tuple(patterns))
    order = _attributes_renamed(design.entity("Order"), {"orderDate": "placedAt"})

    edited = edits.EntityUpdate("Order", order).apply(design)

    assert edited.access_patterns[2].filter == (
        "placedAt >= {from} AND size(placedAt) > :n AND "
        "address.orderDate = \"orderDate\" AND #orderDate <> 'orderDate'"
    )
