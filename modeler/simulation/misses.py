"""Why a read did not return an item its pattern promises: the item is not
in the index (sparse), sits in another partition, fails the sort key
condition, is left out by the filter, or lies past the Limit or the pages
read. Each step is told by running the pattern's own request again on the
simulation's engine with less of it (no filter, no Limit), so the answer is
DynamoDB's semantics, not a second reading of the expressions."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from modeler.engine.types import from_wire, item_read_back

if TYPE_CHECKING:
    from modeler.simulation.runs import PatternRun
    from modeler.simulation.simulate import Simulation

# Pages one explanation may read (each a 1 MB page of the engine).
MAX_PAGES = 50
_NAME = re.compile(r"#\w+")
_VALUE = re.compile(r":\w+")


@dataclass(frozen=True)
class Miss:
    """A promised item the read did not return, and why."""

    item: Mapping[str, Any]
    entity: str | None
    reason: str


def missed_items(simulation: Simulation, run: PatternRun) -> list[Miss]:
    """The items `run` should have returned and did not (the first few its
    verdict names), each with the reason. Reads told apart by projected
    values rather than keys name no item: none is explained."""
    pattern = run.pattern
    if pattern.operation not in ("GetItem", "Query", "Scan") or not run.calls:
        return []
    request = run.calls[0].request
    misses = []
    for key in run.verdict.missing:
        position = simulation.position.get(key)
        if position is None:
            continue
        item = simulation.items[position]
        misses.append(
            Miss(item, simulation.entities[position], _why(simulation, request, item))
        )
    return misses


def _why(simulation: Simulation, request: dict[str, Any], item: Mapping) -> str:
    design = simulation.design
    index_name = request.get("IndexName")
    index = design.table.index(index_name) if index_name else None
    if index is not None:
        absent = [a.name for a in index.key_attributes if a.name not in item]
        if absent:
            return (
                f"it is not in the index {index.name}: it has no "
                f"{', '.join(absent)}, and an index holds only the items that "
                f"have every key attribute of it"
            )
    if "Key" in request:
        wanted = {name: from_wire(value) for name, value in request["Key"].items()}
        own = {name: item.get(name) for name in wanted}
        return (
            f"GetItem reads the one item whose key is {_pairs(wanted)}; "
            f"this item's key is {_pairs(own)}"
        )
    names = request.get("ExpressionAttributeNames", {})
    values = request.get("ExpressionAttributeValues", {})
    condition = request.get("KeyConditionExpression", "")
    partition = (
        index.partition_key
        if index is not None and index.is_global
        else (design.table.partition_key,)
    )
    for attribute in partition:
        asked = _equal_to(condition, attribute.name, names, values)
        if asked is not None and item.get(attribute.name) != asked:
            return (
                f"it is in another partition: its {attribute.name} is "
                f"{_shown(item.get(attribute.name))}, the request reads "
                f"{_shown(asked)}"
            )
    key = simulation.key_of(item)
    unfiltered = _without(request, "FilterExpression", "Limit")
    if condition and key not in _keys(simulation, unfiltered):
        own = {a.name: item.get(a.name) for a in _sort_key(design, index)}
        return (
            f"it fails the key condition {_spelled(condition, names, values)}: "
            f"its {_pairs(own)}"
        )
    if "FilterExpression" in request and key not in _keys(
        simulation, _without(request, "Limit")
    ):
        return (
            f"the filter {_spelled(request['FilterExpression'], names, values)} "
            f"left it out after reading it"
        )
    if "Limit" in request:
        return (
            f"the request's Limit of {request['Limit']} items stopped before "
            f"it (DynamoDB counts the items it reads, before the filter)"
        )
    return "it is on a page after the ones read"


def _sort_key(design: Any, index: Any) -> tuple:
    if index is None:
        return (design.table.sort_key,) if design.table.sort_key else ()
    return index.sort_key


def _keys(simulation: Simulation, request: dict[str, Any]) -> set[tuple]:
    return {simulation.key_of(item) for item in _pages(simulation, request)}


def _pages(simulation: Simulation, request: dict[str, Any]) -> Iterator[dict]:
    operation = "Query" if "KeyConditionExpression" in request else "Scan"
    for _ in range(MAX_PAGES):
        # Native items, as the simulator's own reads take them.
        response = simulation.client.read_items(operation, item_read_back, request)
        yield from response.get("Items", [])
        start = response.get("LastEvaluatedKey")
        if not start:
            return
        request = {**request, "ExclusiveStartKey": start}


def _without(request: dict[str, Any], *parts: str) -> dict[str, Any]:
    """The request without `parts`, and without the names and values only
    they used (DynamoDB refuses unused ones)."""
    kept = {k: v for k, v in request.items() if k not in parts}
    text = " ".join(str(v) for k, v in kept.items() if k.endswith("Expression") and v)
    used_names = set(_NAME.findall(text))
    used_values = set(_VALUE.findall(text))
    for field, used in (
        ("ExpressionAttributeNames", used_names),
        ("ExpressionAttributeValues", used_values),
    ):
        if field in kept:
            kept[field] = {k: v for k, v in kept[field].items() if k in used}
            if not kept[field]:
                del kept[field]
    return kept


def _equal_to(
    condition: str, attribute: str, names: Mapping, values: Mapping
) -> Any | None:
    """The value the key condition sets `attribute` equal to, if any."""
    spellings = [attribute, *(n for n, a in names.items() if a == attribute)]
    for spelling in spellings:
        found = re.search(rf"(?<![\w#]){re.escape(spelling)}\s*=\s*(:\w+)", condition)
        if found and found.group(1) in values:
            return from_wire(values[found.group(1)])
    return None


def _spelled(expression: str, names: Mapping, values: Mapping) -> str:
    """The expression with its #names and :values written out."""
    text = _NAME.sub(lambda m: names.get(m.group(0), m.group(0)), expression)
    return _VALUE.sub(
        lambda m: (
            _shown(from_wire(values[m.group(0)]))
            if m.group(0) in values
            else m.group(0)
        ),
        text,
    )


def _pairs(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} = {_shown(value)}" for name, value in values.items())


def _shown(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)
