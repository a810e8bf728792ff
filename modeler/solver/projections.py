"""What each index of a proposal projects, what a month of it costs, and
the sentences that say why."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from modeler.design import model as d
from modeler.keys.template import parse_template
from modeler.review.cost import Cost


def projection_options(design: d.Design, index: d.Index) -> list[d.Projection]:
    """INCLUDE of the entities' own attributes but those their keys in the
    index and the table already hold (parsed back from the key), INCLUDE of
    all their own attributes, and KEYS_ONLY."""
    table_keys = {a.name for a in design.table.key_attributes}
    index_keys = {a.name for a in index.key_attributes}
    keyed = [e for e in design.entities if any(k in e.keys for k in index_keys)]
    own = {a.name for e in keyed for a in e.attributes} - table_keys - index_keys
    options = [d.Projection("ALL"), d.Projection("KEYS_ONLY")]
    if own and len(own) <= 20:
        options.insert(1, d.Projection("INCLUDE", tuple(sorted(own))))
    return [option for option in options if option != index.projection]


def slim_projection(design: d.Design, index: d.Index) -> d.Projection:
    """The attributes of the index's entities that their keys there and in
    the table do not already hold (an application parses those from the
    keys): whole items for the index's queries without copying the other
    indexes' keys into it. ALL when that would list more than 20."""
    table_keys = {a.name for a in design.table.key_attributes}
    index_keys = {a.name for a in index.key_attributes}
    keyed = [e for e in design.entities if any(k in e.keys for k in index_keys)]
    wanted: set[str] = set()
    for entity in keyed:
        # Per entity: a driver's id in a driver's key is no trip's driver id.
        placed = {
            name
            for key, template in entity.keys.items()
            if key in table_keys | index_keys and not template.when
            for name in parse_template(template.template).attributes
        }
        wanted |= {a.name for a in entity.attributes} - placed
    names = sorted(wanted - table_keys - index_keys)
    if len(names) > 20:
        return d.Projection("ALL")
    return d.Projection("INCLUDE", tuple(names)) if names else d.Projection("KEYS_ONLY")


def with_projection(design: d.Design, name: str, projection: d.Projection) -> d.Design:
    indexes = tuple(
        replace(i, projection=projection) if i.name == name else i
        for i in design.table.indexes
    )
    return replace(design, table=replace(design.table, indexes=indexes))


def design_monthly_cost(design: d.Design, cost: Cost) -> Decimal:
    """What a month costs at the stated traffic: on demand, or provisioned
    for a provisioned table, and the storage."""
    if design.table.billing_mode == "PROVISIONED":
        return cost.provisioned_total + cost.storage_monthly
    return cost.on_demand + cost.storage_monthly


def projection_note(projection: d.Projection, saving: Decimal) -> str:
    if projection.type == "KEYS_ONLY":
        return (
            f"it projects KEYS_ONLY: a second read of each item its queries "
            f"return costs ${saving:,.2f} a month less than copying the items "
            "into it"
        )
    return (
        "it projects its entities' own attributes ("
        + ", ".join(projection.attributes)
        + f"), not the other indexes' keys: ${saving:,.2f} a month less than ALL"
    )


def projection_reasons(design: d.Design, notes: dict[str, str]) -> tuple[str, ...]:
    lines = []
    for index in design.table.indexes:
        projection = index.projection
        if index.name in notes:
            text = notes[index.name]
        elif projection.type == "ALL":
            text = (
                "it projects ALL: projecting less costs more in second reads, "
                "or leaves out what its queries return"
            )
        elif projection.type == "INCLUDE":
            text = (
                "it projects "
                + ", ".join(projection.attributes)
                + ": what its queries read beyond what the keys hold, without "
                "copying the other indexes' keys into it"
            )
        else:
            text = "it projects KEYS_ONLY: the keys hold all that its queries read"
        lines.append(f"{index.name}: {text}.")
    return tuple(lines)
