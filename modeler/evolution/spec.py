"""The item rewrite of a migration as data: what `modeler.evolution.runtime`
runs and the generated script carries. Templates and sparse conditions are
parsed here, with the workbench's own parsers, and handed over as plain
parts and clauses, so the script interprets them and never evaluates text
from the design."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.evolution.matching import AttributeMatch, EntityMatch, EntityMatching
from modeler.keys.condition import Comparison, parse_condition
from modeler.keys.template import Literal, parse_template

# Retypes the script can make of a stored value.
SCRIPTED_RETYPES = {("S", "N"), ("N", "S")}


class PlanError(ValueError):
    """A design the planner cannot read a key template or condition of."""


def key_spec(
    entity: d.Entity, name: str, key: d.KeyTemplate, key_type: str, *, table: bool
) -> dict[str, Any]:
    try:
        template = parse_template(key.template)
    except ValueError as exc:
        raise PlanError(
            f"entity {entity.name}, key {name}: template {key.template!r}: {exc}"
        ) from None
    parts: list[Any] = [
        part.text
        if isinstance(part, Literal)
        else [part.attribute, part.width, part.places]
        for part in template.parts
    ]
    when = None
    if key.when and not table:
        try:
            condition = parse_condition(key.when)
        except ValueError as exc:
            raise PlanError(
                f"entity {entity.name}, key {name}: condition {key.when!r}: {exc}"
            ) from None
        when = [
            [
                "cmp",
                clause.attribute,
                clause.operator,
                [
                    ["N" if isinstance(v, Decimal) else "S", str(v)]
                    for v in clause.values
                ],
            ]
            if isinstance(clause, Comparison)
            else ["exists", clause.attribute, clause.exists]
            for clause in condition.clauses
        ]
    return {"parts": parts, "type": key_type, "when": when, "table": table}


def entity_keys(design: d.Design, entity: d.Entity) -> dict[str, dict[str, Any]]:
    """Every key template of the entity for a key the table or an index has."""
    types = {a.name: a.type for a in design.table.all_key_attributes()}
    table_keys = {a.name for a in design.table.key_attributes}
    return {
        name: key_spec(entity, name, key, types[name], table=name in table_keys)
        for name, key in entity.keys.items()
        if name in types
    }


def table_key_specs(design: d.Design, entity: d.Entity) -> dict[str, dict[str, Any]]:
    keys = entity_keys(design, entity)
    return {a.name: keys[a.name] for a in design.table.key_attributes if a.name in keys}


def key_padding(entity: d.Entity, attribute: str) -> tuple[int, int | None] | None:
    """The zero-padded width (and places) a key template of the entity
    places the attribute with, or None when none pads it: a number that
    becomes a string is written as its keys showed it ("001")."""
    for key in entity.keys.values():
        try:
            template = parse_template(key.template)
        except ValueError:
            continue
        for part in template.placeholders:
            if part.attribute == attribute and part.width is not None:
                return part.width, part.places
    return None


def retype_spec(source: d.Entity, match: AttributeMatch) -> list[Any]:
    """[new name, new type, width, places, old name] of a retyped attribute:
    width and places pad a number that becomes a string as the old keys
    placed it."""
    padding = None
    if (match.before.type, match.after.type) == ("N", "S"):
        padding = key_padding(source, match.before.name)
    width, places = padding or (None, None)
    return [match.after.name, match.after.type, width, places, match.before.name]


def _output(
    after: d.Design,
    entity: d.Entity,
    matches: Any,
    *,
    primary: bool,
    source: d.Entity,
    drop: tuple[str, ...] = (),
    merge: bool = False,
) -> dict[str, Any]:
    return {
        "name": entity.name,
        "primary": primary,
        "merge": merge,
        "renames": [[m.before.name, m.after.name] for m in matches if m.renamed],
        "retypes": [
            retype_spec(source, m)
            for m in matches
            if m.retyped and (m.before.type, m.after.type) in SCRIPTED_RETYPES
        ],
        "required": []
        if primary
        else [m.after.name for m in matches if m.after.required],
        "carry": None if primary else [a.name for a in entity.attributes],
        "drop": list(drop),
        "attributes": [a.name for a in entity.attributes],
        "keys": entity_keys(after, entity),
        "depends": _depends(entity_keys(after, entity)),
    }


def _depends(keys: dict[str, dict[str, Any]]) -> list[str]:
    """The attributes the keys are computed from: what a rewrite read, and
    what its update is guarded on."""
    names = set()
    for key in keys.values():
        names |= {part[0] for part in key["parts"] if not isinstance(part, str)}
        names |= {clause[1] for clause in key["when"] or ()}
    return sorted(names)


def moved_attributes(match: EntityMatch) -> tuple[str, ...]:
    """Attributes of the old entity that went to the entities split off
    from it and that the entity itself no longer has."""
    kept = {m.before.name for m in match.attributes}
    moved = {m.before.name for _, ms in match.splits for m in ms}
    return tuple(sorted(moved - kept)) if match.after is not None else ()


def needs_copy(before: d.Design, after: d.Design) -> bool:
    """A new table is needed: the table's key schema or its LSIs changed,
    neither of which UpdateTable can change."""

    def lsis(design: d.Design) -> set[Any]:
        return {
            (i.name, i.sort_key, i.projection)
            for i in design.table.indexes
            if not i.is_global
        }

    return before.table.key_attributes != after.table.key_attributes or lsis(
        before
    ) != lsis(after)


def target_table_name(before: d.Design, after: d.Design) -> str:
    """The table the items end in: the same one, or for a copy the new
    design's name, with `-v2` when it names the table as the old one does
    (two tables cannot share a name)."""
    if not needs_copy(before, after):
        return before.table.name
    if after.table.name != before.table.name:
        return after.table.name
    return f"{after.table.name}-v2"


def rewrite_spec(
    before: d.Design,
    after: d.Design,
    matching: EntityMatching,
    *,
    wcu_per_second: float,
    title: str,
) -> dict[str, Any]:
    old_keys = [a.name for a in before.table.all_key_attributes()]
    entities: list[dict[str, Any]] = []
    for match in matching.matches:
        outputs = []
        if match.after is not None:
            outputs.append(
                _output(
                    after,
                    match.after,
                    match.attributes,
                    primary=True,
                    source=match.before,
                    drop=moved_attributes(match),
                    merge=match.merged,
                )
            )
        for split, attribute_matches in match.splits:
            outputs.append(
                _output(
                    after,
                    split,
                    attribute_matches,
                    primary=False,
                    source=match.before,
                )
            )
        entities.append(
            {
                "name": match.before.name,
                "table_keys": table_key_specs(before, match.before),
                "old_keys": old_keys,
                "outputs": outputs,
            }
        )
    spec: dict[str, Any] = {
        "title": title,
        "source_table": before.table.name,
        "target_table": target_table_name(before, after),
        "copy": needs_copy(before, after),
        "source_keys": [a.name for a in before.table.key_attributes],
        "target_keys": [a.name for a in after.table.key_attributes],
        "wcu_per_second": wcu_per_second,
        "entities": entities,
        "target_entities": [
            {
                "name": e.name,
                "table_keys": table_key_specs(after, e),
                "keys": entity_keys(after, e),
                # What the cleanup retypes on items already in the new shape:
                # until then they keep the type the old application reads.
                "retypes": list(
                    {
                        r[0]: r
                        for entity in entities
                        for output in entity["outputs"]
                        if output["name"] == e.name
                        for r in output["retypes"]
                    }.values()
                ),
            }
            for e in after.entities
        ],
    }
    spec["fingerprint"] = hashlib.sha256(
        json.dumps(spec, sort_keys=True).encode()
    ).hexdigest()[:16]
    return spec
