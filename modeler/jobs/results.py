"""A pattern's run and the sample data's counts as JSON, stored with a
simulation job and rendered by the Simulation section's templates as they
rendered the run itself. Plain Python: nothing here imports Django."""

from __future__ import annotations

import base64
import json
from collections import Counter
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.diagrams.collections import collections_for, key_text, shortened
from modeler.engine.types import item_from_wire, item_to_json_wire
from modeler.simulation import PatternRun, Simulation
from modeler.simulation.misses import missed_items

MAX_ITEMS_SHOWN = 25
# The items of the collection a read returned from, kept with its result.
COLLECTION_ITEMS = 60


def pattern_result(
    design: d.Design, simulation: Simulation, run: PatternRun
) -> dict[str, Any]:
    """What the pattern result template shows of `run`: its verdict, counts,
    capacity, the parameters the pattern names, its requests, the first
    items it returned and the item collection it read, as JSON values.
    Call it holding the simulation's lock."""
    pattern = run.pattern
    draw = run.failed_draw
    result = {
        "verdict": verdict_of(run),
        "run": {
            "error": run.error,
            "passed": run.passed,
            "draws": run.draws,
            "pattern": {"expects": bool(pattern.expects), "is_read": pattern.is_read},
            "verdict": {"passed": run.verdict.passed, "reasons": run.verdict.reasons},
            "failed_draw": None
            if draw is None
            else {
                "kind": draw.kind,
                "listed": [(name, _text(value)) for name, value in draw.listed],
                "verdict": {
                    "broken": draw.verdict.broken,
                    "missing": draw.verdict.missing,
                    "extra": draw.verdict.extra,
                },
            },
            "misses": [
                {
                    "entity": miss.entity,
                    "reason": miss.reason,
                    "attributes": _attributes(miss.item, simulation.key_names),
                }
                for miss in missed_items(simulation, run)
            ],
            "pages": run.pages,
            "count": run.count,
            "scanned_count": run.scanned_count,
            "capacity": {"read": run.capacity.read, "write": run.capacity.write},
        },
        # Lists rather than dicts: a template would read `.items` of a dict
        # with a parameter or index named "items" as that entry. A write
        # binds every attribute of its item; only the pattern's own
        # parameters are worth showing.
        "parameters": [
            (p.name, _text(run.parameters[p.name]))
            for p in pattern_parameters(design, pattern)
            if p.name in run.parameters
        ],
        "capacity_by_index": list(run.capacity.by_index.items()),
        "table": _item_table(run, simulation.key_names, design),
        "requests": [
            {
                "operation": c.operation,
                "json": json.dumps(c.request, indent=2, default=_json_default),
                "cli": c.cli,
            }
            for c in run.calls
        ],
        "collection": returned_collection(design, simulation, run),
    }
    # Through JSON once, so that what is stored is what is rendered.
    return json.loads(json.dumps(result, default=_json_default))


def returned_collection(
    design: d.Design, simulation: Simulation, run: PatternRun
) -> dict[str, Any] | None:
    """The item collection a GetItem or Query read from (the partition of
    its first item, in the table or index it used), from the item before
    the first it returned, each item marked when the pattern returned it,
    for the presentation mode; None for other operations or no items. Call
    it holding the simulation's lock."""
    pattern = run.pattern
    if not run.items or pattern.operation not in ("GetItem", "Query"):
        return None
    collections = collections_for(simulation)
    info = collections.info(pattern.index)

    def key(item: dict[str, Any], names: tuple[str, ...]) -> str:
        values = tuple(item.get(name) for name in names)
        return key_text(values[0] if len(values) == 1 else values)

    returned = {key(item, info.sort_key) for item in run.items}
    view = collections.partition_around(
        index=pattern.index,
        key=key(run.items[0], info.partition_key),
        sort_keys=returned,
        max_items=COLLECTION_ITEMS,
    )
    if view is None:
        return None
    return {
        "index": info.name,
        "partition": {"key": view.key, "more": view.more, "start": view.start},
        "rows": [
            (
                {"entity": i.entity, "colour": i.colour, "sort_key": i.sort_key},
                not info.sort_key or i.sort_key in returned,
            )
            for i in view.items
        ],
    }


def verdict_of(run: PatternRun) -> str:
    if run.error:
        return "error"
    return "pass" if run.passed else "fail"


def entity_counts(design: d.Design, simulation: Simulation) -> list[dict[str, Any]]:
    """Per entity, the generated items and the user's own in the simulated
    table (an own item replaces a generated one with the same key), with
    the entity's colour; the user's items no entity recognises last."""
    own_positions = {
        simulation.position[simulation.key_of(item_from_wire(d.thaw(wire)))]
        for wire in design.sample_data.items
    }
    own = Counter(simulation.entities[i] for i in own_positions)
    generated = Counter(simulation.entities) - own
    counts = [
        {
            "name": e.name,
            "colour": i % 10,
            "generated": generated[e.name],
            "own": own[e.name],
        }
        for i, e in enumerate(design.entities)
    ]
    if own[None]:
        counts.append({"name": "", "colour": None, "generated": 0, "own": own[None]})
    return counts


def _text(value: Any) -> Any:
    """A parameter's value as the page shows it."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return str(value)


def _attributes(item: Any, key_names: tuple[str, ...]) -> list[tuple[str, Any]]:
    """An item's attributes as (name, text), its key attributes first."""
    names = [*key_names, *sorted(n for n in item if n not in key_names)]
    return [(name, _text(item[name])) for name in names if name in item]


def _json_default(value: object) -> object:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


def _item_table(
    run: PatternRun, key_names: tuple[str, ...], design: d.Design
) -> dict[str, Any]:
    """The returned items as rows under key-first columns, with the entity
    colour of each row."""
    colours = {e.name: i % 10 for i, e in enumerate(design.entities)}
    index_keys = [
        a.name for a in design.table.all_key_attributes() if a.name not in key_names
    ]
    shown = run.items[:MAX_ITEMS_SHOWN]
    others: dict[str, None] = {}
    for item in shown:
        for name in item:
            if name not in key_names and name not in index_keys:
                others.setdefault(name, None)
    columns = (
        list(key_names)
        + [k for k in index_keys if any(k in i for i in shown)]
        + list(others)
    )
    rows = []
    for item, entity in zip(shown, run.item_entities, strict=False):
        wire = item_to_json_wire(item)
        rows.append(
            {
                "entity": entity,
                "colour": colours.get(entity or ""),
                "cells": [_cell(wire.get(c)) for c in columns],
            }
        )
    return {
        "columns": columns,
        "rows": rows,
        "more": len(run.items) - len(shown),
        "key_count": len(key_names),
    }


def _cell(wire: dict | None) -> str:
    if wire is None:
        return ""
    ((kind, value),) = wire.items()
    if kind in ("S", "N"):
        return shortened(str(value))
    if kind == "NULL":
        return "null"
    if kind == "BOOL":
        return "true" if value else "false"
    return shortened(json.dumps(value, separators=(",", ":")))
