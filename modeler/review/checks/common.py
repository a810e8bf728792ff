"""Locations and small helpers the checks share."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from modeler.design import model as d
from modeler.design.findings import Location
from modeler.simulation.writes import DEFAULT_ACTION_COUNT


def table_location(table: d.Table) -> Location:
    return Location("table", kind="table", name=table.name)


def index_location(table: d.Table, name: str) -> Location:
    """The index, or the table for requests served by the table's
    partitions."""
    for position, index in enumerate(table.indexes):
        if index.name == name:
            return Location(
                f"table.indexes[{position}]", kind="index", name=name, position=position
            )
    return table_location(table)


def entity_location(entity: str, key: str = "") -> Location:
    path = f"entities.{entity}" + (f".keys.{key}" if key else "")
    return Location(path, kind="entity", name=entity)


def attribute_location(entity: str, attribute: str) -> Location:
    return Location(
        f"entities.{entity}.attributes.{attribute}",
        kind="attribute",
        name=f"{entity}.{attribute}",
    )


def pattern_location(design: d.Design, position: int) -> Location:
    return Location(
        f"access_patterns[{position}]",
        kind="pattern",
        name=design.access_patterns[position].name,
        position=position,
    )


def action_count(pattern: d.AccessPattern, action: d.Action) -> int:
    """How many items an action writes or reads: its literal count, the
    example of its count parameter, or the simulator's default."""
    text = action.count
    if not text:
        return 1
    if text.isdigit():
        return int(text)
    name = text.strip("{}").split(":")[0]
    for parameter in pattern.parameters:
        if parameter.name == name and parameter.example:
            try:
                return int(Decimal(parameter.example))
            except (InvalidOperation, ValueError):
                break
    return DEFAULT_ACTION_COUNT


def plural(count: float, word: str, many: str = "") -> str:
    shown = f"{count:,.0f}" if float(count).is_integer() else f"{count:,.2f}"
    return f"{shown} {word if count == 1 else (many or word + 's')}"


def units(value: float) -> str:
    """A number of capacity units as people write it: 0.5, 12, 1,250."""
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def percent(share: float) -> str:
    if share >= 0.1:
        return f"{share:.0%}"
    return f"{share:.1%}"
