"""Every part of an ElectroDB or DynamoDB-Toolbox module the design can
hold is carried (index projections stated in ElectroDB), and every part it
cannot hold is named in the notes: nested attributes of maps, lists, sets
and records, Toolbox's unstated projections and table options."""

from __future__ import annotations

import pytest

from modeler.design import model as d
from modeler.importers.jsmodel.sandbox import confinement_problem
from modeler.importers.sources import read_design_source

pytestmark = pytest.mark.skipif(
    bool(confinement_problem()), reason=confinement_problem() or "confined"
)

ELECTRODB = """import {{ Entity }} from "electrodb";
const key = (field, template, composite) =>
  ({{ field, template, composite, casing: "none" }});
export const Order = new Entity({{
  model: {{ entity: "Order", version: "1", service: "shop" }},
  attributes: {{
    orderId: {{ type: "string", required: true }},
    status: {{ type: ["OPEN", "SHIPPED"], required: true }},
    total: {{ type: "number" }},
    note: {{ type: "string" }},
    address: {{
      type: "map",
      properties: {{ street: {{ type: "string" }}, city: {{ type: "string" }} }},
    }},
    lines: {{
      type: "list",
      items: {{ type: "map", properties: {{ sku: {{ type: "string" }} }} }},
    }},
    tags: {{ type: "set", items: ["red", "blue"] }},
    codes: {{ type: "set", items: "number" }},
  }},
  indexes: {{
    byId: {{
      pk: key("PK", "ORDER#${{orderId}}", ["orderId"]),
      sk: key("SK", "ORDER", []),
    }},
    byStatus: {{
      index: "GSI1", {gsi1}
      pk: key("GSI1PK", "STATUS#${{status}}", ["status"]),
      sk: key("GSI1SK", "${{orderId}}", ["orderId"]),
    }},
    all: {{
      index: "GSI2", {gsi2}
      pk: key("GSI2PK", "ALL", []),
      sk: key("GSI2SK", "${{orderId}}", ["orderId"]),
    }},
  }},
}}, {{ table: "shop" }});
{more}
"""
CUSTOMER_ON_GSI1 = """export const Customer = new Entity({{
  model: {{ entity: "Customer", version: "1", service: "shop" }},
  attributes: {{ customerId: {{ type: "string" }}, email: {{ type: "string" }} }},
  indexes: {{
    byId: {{
      pk: key("PK", "CUST#${{customerId}}", ["customerId"]),
      sk: key("SK", "CUST", []),
    }},
    byEmail: {{ index: "GSI1", {projection}
      pk: key("GSI1PK", "EMAIL#${{email}}", ["email"]),
      sk: key("GSI1SK", "CUST", []),
    }},
  }},
}}, {{ table: "shop" }});
"""


def _electrodb(gsi1: str = "", gsi2: str = "", more: str = ""):
    text = ELECTRODB.format(gsi1=gsi1, gsi2=gsi2, more=more)
    return read_design_source(text.encode(), filename="shop.mjs")


def _projections(found) -> dict[str, d.Projection]:
    assert found.ok, found.problems
    (design,) = found.designs
    return {i.name: i.projection for i in design.table.indexes}


def test_electrodb_projections_become_the_indexes_projections():
    found = _electrodb(
        gsi1='projection: ["total", "note", "orderId", "__edb_e__", "__edb_v__"],',
        gsi2='projection: "keys_only",',
    )

    # ElectroDB's own identifiers are left out of INCLUDE (__edb_e__ and
    # __edb_v__ are not carried); orderId, a composite of the keys, is an
    # attribute of its own and stays.
    assert _projections(found) == {
        "GSI1": d.Projection("INCLUDE", ("total", "note", "orderId")),
        "GSI2": d.Projection("KEYS_ONLY"),
    }
    assert not [n for n in found.notes if "projection" in n]


def test_an_index_shared_by_entities_projects_what_they_list_together():
    keys_only = _electrodb(
        gsi1='projection: ["total"],',
        more=CUSTOMER_ON_GSI1.format(projection='projection: "keys_only",'),
    )
    assert _projections(keys_only)["GSI1"] == d.Projection("INCLUDE", ("total",))
    assert not [n for n in keys_only.notes if "index GSI1" in n]

    # A customer stating none projects ALL (ElectroDB's default): so does
    # the index, and the notes say the order listed less.
    unstated = _electrodb(
        gsi1='projection: ["total"],', more=CUSTOMER_ON_GSI1.format(projection="")
    )
    assert _projections(unstated)["GSI1"] == d.Projection("ALL")
    assert (
        "index GSI1: some of its entities project ALL, others less; the design's "
        "index projects ALL" in unstated.notes
    )


def test_a_bad_electrodb_projection_is_named():
    found = _electrodb(gsi2='projection: "some",')

    assert not found.ok
    assert "Order.indexes.all.projection: expected 'all', 'keys_only' or a list" in (
        found.problems[0].message
    )


def test_electrodb_nested_attributes_are_named():
    found = _electrodb()

    assert found.ok, found.problems
    (design,) = found.designs
    order = design.entity("Order")
    assert [order.attribute(a).type for a in ("address", "lines", "tags", "codes")] == [
        "M",
        "L",
        "SS",
        "NS",
    ]
    notes = "\n".join(found.notes)
    assert (
        "Order.attributes.address.properties: the map's attributes (city, street) "
        "are not carried" in notes
    )
    assert "Order.attributes.lines.items: the list's item type is not carried" in notes
    assert (
        "Order.attributes.tags.items: the set's allowed values are not carried" in notes
    )
    assert "Order.attributes.codes" not in notes


TOOLBOX = """import {
  Table, Entity, item, string, number, binary, map, list, set, record,
} from "dynamodb-toolbox";
const table = new Table({
  name: "shop", partitionKey: { name: "PK", type: "string" },
  sortKey: { name: "SK", type: "string" },
  indexes: { GSI1: { type: "global", %(index)s
    partitionKey: { name: "GSI1PK", type: "string" } } },
  %(table)s
});
export const Order = new Entity({ name: "Order", table,
  schema: item({
    orderId: string().key(),
    address: map({ street: string(), city: string() }),
    lines: list(map({ sku: string() })),
    blobs: set(binary()),
    tags: set(string().enum("red", "blue")),
    extra: record(string(), number()),
  }),
  computeKey: ({ orderId }) => ({ PK: `ORDER#${orderId}`, SK: "ORDER" }),
});
"""


def _toolbox(index: str = "", table: str = ""):
    text = TOOLBOX % {"index": index, "table": table}
    return read_design_source(text.encode(), filename="shop.mjs")


def test_toolbox_nested_schemas_and_unstated_projections_are_named():
    found = _toolbox(table='entityAttributeSavedAs: "__et__",')

    assert found.ok, found.problems
    (design,) = found.designs
    order = design.entity("Order")
    assert {a.name: a.type for a in order.attributes} == {
        "orderId": "S",
        "address": "M",
        "lines": "L",
        "blobs": "BS",
        "tags": "SS",
        "extra": "M",
    }
    assert design.table.indexes[0].projection == d.Projection("ALL")
    notes = "\n".join(found.notes)
    for expected in (
        "Toolbox states no index projection: GSI1 project ALL attributes",
        "Order.schema.address: the map's attributes (city, street) are not carried",
        "Order.schema.lines: the list's element schema (map()) is not carried",
        "Order.schema.tags's elements.enum: not carried",
        "Order.schema.extra: the record's key and value schemas are not carried",
        "Table.entityAttributeSavedAs: not carried",
    ):
        assert expected in notes


def test_a_toolbox_key_of_several_attributes_is_refused_by_name():
    found = _toolbox(index='partitionKeys: [{ name: "a", type: "string" }],').problems
    # The index above has partitionKey too: the refusal names partitionKeys.
    assert "Table.indexes.GSI1.partitionKeys: a key of several attributes" in (
        found[0].message
    )
