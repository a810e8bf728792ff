"""Sample data depends on what an element is, not on its name or its
place: a rename, a reordering or an unrelated edit changes no value of
another element (issue 39: a pure rename reported a cost change)."""

from __future__ import annotations

import dataclasses

import pytest

from modeler.design import edits
from modeler.design import model as d
from modeler.designfile import dump_design, read_design
from modeler.history.elements import with_uids
from modeler.sampledata import generate
from tests.sampledata.helpers import design_from, example

EXAMPLE_ENTITIES = [
    ("order-management", "Customer"),
    ("order-management", "Order"),
    ("order-management", "LineItem"),
    ("social-graph", "User"),
    ("social-graph", "Follow"),
    ("device-telemetry", "Device"),
    ("device-telemetry", "Reading"),
]


def saved(name: str) -> d.Design:
    """The example as a project holds it: every element with its uid."""
    return with_uids(example(name))


def renamed_entity(design: d.Design, name: str, new: str) -> d.Design:
    entity = design.entity(name)
    return edits.EntityUpdate(name, dataclasses.replace(entity, name=new)).apply(design)


def by_key(dataset) -> dict[tuple, dict]:
    return {(item["PK"], item.get("SK")): item for item in dataset.items}


@pytest.mark.parametrize(("name", "entity"), EXAMPLE_ENTITIES)
def test_renaming_an_entity_changes_no_item(name: str, entity: str):
    design = saved(name)
    after = renamed_entity(design, entity, f"{entity}Renamed")
    assert after.entity(f"{entity}Renamed").seed_name == entity
    before_items, after_items = generate(design), generate(after)
    assert after_items.items == before_items.items
    assert after_items.entities == [
        f"{entity}Renamed" if e == entity else e for e in before_items.entities
    ]


def test_renaming_back_gives_the_entity_as_it_was():
    design = saved("order-management")
    there = renamed_entity(design, "Order", "Purchase")
    back = renamed_entity(there, "Purchase", "Order")
    assert back.entity("Order").seed_name == ""
    assert back == design


def test_a_renamed_entity_keeps_its_draws_through_the_design_file():
    design = renamed_entity(saved("order-management"), "Order", "Purchase")
    text = dump_design(design)
    assert "seed_name: Order" in text
    read = read_design(text).design
    assert read == design
    assert generate(read).items == generate(example("order-management")).items


def test_a_seed_name_equal_to_the_name_is_none():
    design = design_from("""
        format: single-table-workbench/v1
        name: T
        table: {name: things, partition_key: {name: PK, type: S}}
        entities:
          Thing:
            seed_name: Thing
            attributes:
              id: {type: S, generator: ulid, seed_name: id}
            keys: {PK: "T#{id}"}
        """)
    thing = design.entity("Thing")
    assert thing.seed_name == "" and thing.attributes[0].seed_name == ""


def test_renaming_an_attribute_changes_only_its_name_in_the_items():
    design = saved("order-management")
    customer = design.entity("Customer")
    attributes = tuple(
        dataclasses.replace(a, name="fullName") if a.name == "name" else a
        for a in customer.attributes
    )
    after = edits.EntityUpdate(
        "Customer", dataclasses.replace(customer, attributes=attributes)
    ).apply(design)
    assert after.entity("Customer").attribute("fullName").seed_name == "name"
    expected = [
        {("fullName" if k == "name" else k): v for k, v in item.items()}
        for item in generate(design).items
    ]
    assert generate(after).items == expected


def test_the_order_of_entities_and_attributes_changes_no_item():
    design = saved("order-management")
    moved = dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(e, attributes=tuple(reversed(e.attributes)))
            for e in reversed(design.entities)
        ),
    )
    assert by_key(generate(moved)) == by_key(generate(design))


def test_the_order_of_a_choice_s_options_and_a_map_s_fields_changes_no_item():
    def things(status: str, address: str) -> d.Design:
        return design_from(f"""
            format: single-table-workbench/v1
            name: T
            table: {{name: things, partition_key: {{name: PK, type: S}}}}
            entities:
              Thing:
                attributes:
                  id: {{type: S, generator: ulid}}
                  status: {{type: S, generator: {{choice: {status}}}}}
                  address: {{type: M, generator: {{map: {{fields: {address}}}}}}}
                keys: {{PK: "T#{{id}}"}}
                sample: {{count: 300}}
            """)

    first = things(
        "{OPEN: 2, SHIPPED: 3, DELIVERED: 8}",
        "{street: {faker: street_address}, city: {faker: city}}",
    )
    second = things(
        "{DELIVERED: 8, OPEN: 2, SHIPPED: 3}",
        "{city: {faker: city}, street: {faker: street_address}}",
    )
    first_items, second_items = generate(first).items, generate(second).items
    assert first_items == second_items
    # The map keeps the order the design gives its fields.
    assert list(second_items[0]["address"]) == ["city", "street"]


def test_adding_an_attribute_changes_no_other_value():
    design = saved("order-management")
    order = design.entity("Order")
    note = d.Attribute(
        "note", generator=d.Generator("int", d.freeze({"min": 1, "max": 9}))
    )
    after = edits.EntityUpdate(
        "Order",
        dataclasses.replace(order, attributes=(note, *order.attributes)),
    ).apply(design)
    before_items, after_items = generate(design), generate(after)
    assert [
        {k: v for k, v in item.items() if k != "note"} for item in after_items.items
    ] == before_items.items
    assert all(
        "note" in item
        for item, entity in zip(after_items.items, after_items.entities, strict=True)
        if entity == "Order"
    )
