"""Human-readable text for parts of a design, shared by pages and commands."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from modeler.design import model as d
from modeler.designfile import dump_element
from modeler.history.elements import changed_fields
from modeler.history.merge import Clash


def _quoted(value: str) -> str:
    return '"' + value.replace('"', '\\"') + '"'


def clause_text(clause: d.KeyClause | d.Predicate) -> str:
    name, values = clause.attribute, [_quoted(v) for v in clause.values]
    if clause.operator == "between":
        return f"{name} BETWEEN {' AND '.join(values)}"
    if clause.operator == "begins_with":
        return f"begins_with({name}, {values[0] if values else ''})"
    if clause.operator == "in":
        return f"{name} IN ({', '.join(values)})"
    if clause.operator == "exists":
        return f"attribute_exists({name})"
    if clause.operator == "not_exists":
        return f"attribute_not_exists({name})"
    return f"{name} {clause.operator} {values[0] if values else ''}"


def key_condition_text(clauses: tuple[d.KeyClause, ...]) -> str:
    return " AND ".join(clause_text(c) for c in clauses)


def expectation_text(expects: d.Expectation | None) -> str:
    if expects is None:
        return ""
    text = " and ".join(expects.entities)
    if expects.where:
        text += " where " + " AND ".join(clause_text(p) for p in expects.where)
    if expects.order_by:
        order = [
            f"{name[1:]} descending" if name.startswith("-") else name.lstrip("+")
            for name in expects.order_by
        ]
        text += ", ordered by " + ", ".join(order)
    return text


def key_schema_text(attrs: tuple[d.KeyAttribute, ...]) -> str:
    return " + ".join(f"{a.name} ({a.type})" for a in attrs)


@dataclass(frozen=True)
class TheirVersion:
    """One element of an edit conflict as the other person saved it."""

    label: str  # entity Customer
    who: str  # bob, or "you" (another tab)
    changed: list[str]  # what they changed: field labels
    yaml: str  # their version, as the design file writes it; "" if removed


def their_versions(
    clashes: Iterable[Clash], authors: Mapping[str, list[str]]
) -> list[TheirVersion]:
    """What the other person did to each clashing element, to show beside
    the user's own input."""
    out = []
    for clash in clashes:
        theirs, base = clash.theirs, clash.base
        changed = changed_fields(base, theirs) if base is not None and theirs else []
        out.append(
            TheirVersion(
                label=clash.label,
                who=" and ".join(authors.get(clash.id, [])) or "someone",
                changed=changed,
                yaml=dump_element(theirs.kind, theirs.value) if theirs else "",
            )
        )
    return out


def key_map_rows(
    design: d.Design, changed: frozenset[tuple[str, str]] = frozenset()
) -> tuple[list[str], list[dict]]:
    """The key attributes of the table and its indexes, and a row per
    entity with its template for each ('' where it has none), marking the
    (entity, attribute) cells in `changed`."""
    names = [k.name for k in design.table.all_key_attributes()]
    rows = [
        {
            "entity": entity.name,
            "cells": [
                {
                    "template": entity.keys[name].template
                    if name in entity.keys
                    else "",
                    "changed": (entity.name, name) in changed,
                }
                for name in names
            ],
        }
        for entity in design.entities
    ]
    return names, rows
