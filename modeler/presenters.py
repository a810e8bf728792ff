"""Human-readable text for parts of a design, shared by pages and commands."""

from __future__ import annotations

import json
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


# --- Presentation mode: a pattern's result on one screen ----------------------------

# A slide holds this many rows of an item collection (or of returned items),
# and this many lines of a request, so that it fits one 16:9 screen.
SLIDE_ROWS = 8
SLIDE_REQUEST_LINES = 16
SLIDE_LINE_CHARS = 52


def request_lines(
    request: object,
    *,
    width: int = SLIDE_LINE_CHARS,
    max_lines: int = SLIDE_REQUEST_LINES,
) -> list[str]:
    """A request's parameters as JSON on as few lines as read well: an
    object or list that fits in `width` characters on one line, else one
    member a line, and a longer line broken into `width` characters, its
    rest indented under it; past `max_lines`, the last line says how many
    more."""
    lines = [
        part
        for line in _json_lines(request, "", width)
        for part in _broken(line, width)
    ]
    if len(lines) > max_lines:
        hidden = len(lines) - max_lines + 1
        lines = lines[: max_lines - 1] + [f"… {hidden} more lines"]
    return lines


def _broken(line: str, width: int) -> list[str]:
    """`line` in pieces of at most `width` characters, each after the
    first indented four more than the line."""
    if len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    parts, rest = [line[:width]], line[width:]
    step = max(width - len(indent), 1)
    while rest:
        parts.append(indent + rest[:step])
        rest = rest[step:]
    return parts


def _json_lines(value: object, indent: str, width: int, prefix: str = "") -> list[str]:
    one = prefix + json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if (
        len(indent) + len(one) <= width
        or not isinstance(value, (dict, list))
        or (not value)
    ):
        return [indent + one]
    inner = indent + "  "
    members = (
        [(json.dumps(k, ensure_ascii=False) + ": ", v) for k, v in value.items()]
        if isinstance(value, dict)
        else [("", v) for v in value]
    )
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    lines = [indent + prefix + opening]
    for position, (name, member) in enumerate(members):
        member_lines = _json_lines(member, inner, width, name)
        if position < len(members) - 1:
            member_lines[-1] += ","
        lines += member_lines
    return lines + [indent + closing]


@dataclass(frozen=True)
class SlideRow:
    """A row of a slide's item collection: an item, with whether the
    request returned it; or, when `skipped`, that many items left out."""

    entity: str | None = None
    colour: int | None = None
    key: str = ""
    returned: bool = False
    skipped: int = 0
    skipped_returned: int = 0


def collection_rows(
    rows: Iterable[tuple[Mapping, bool]],
    *,
    before: int = 0,
    after: int = 0,
    returned: int | None = None,
    max_rows: int = SLIDE_ROWS,
) -> list[SlideRow]:
    """The item collection a request read, as a slide shows it: every item
    it returned, with one item not returned on either side of them for
    context; each other run of items not returned, and the `before` and
    `after` items outside `rows`, is one row saying how many. Past
    `max_rows`, the last row says how many more. A last row of items left
    out says how many of them were returned, out of `returned` in all (by
    default, those marked in `rows`)."""
    items = [
        SlideRow(
            item.get("entity"), item.get("colour"), item.get("sort_key", ""), bool(r)
        )
        for item, r in rows
    ]
    if returned is None:
        returned = sum(1 for row in items if row.returned)
    near = {
        position + step
        for position, row in enumerate(items)
        if row.returned
        for step in (-1, 0, 1)
    }
    if not near:
        near = set(range(max_rows - 1))
    shown: list[SlideRow] = [SlideRow(skipped=before)] if before else []
    for position, row in enumerate(items):
        if position in near:
            shown.append(row)
        elif shown and shown[-1].skipped:
            shown[-1] = SlideRow(skipped=shown[-1].skipped + 1)
        else:
            shown.append(SlideRow(skipped=1))
    if after:
        if shown and shown[-1].skipped:
            shown[-1] = SlideRow(skipped=shown[-1].skipped + after)
        else:
            shown.append(SlideRow(skipped=after))
    if len(shown) > max_rows:
        rest = shown[max_rows - 1 :]
        shown = shown[: max_rows - 1] + [
            SlideRow(skipped=sum(r.skipped or 1 for r in rest))
        ]
    if shown and shown[-1].skipped:
        marked = sum(1 for row in shown if row.returned)
        shown[-1] = SlideRow(
            skipped=shown[-1].skipped, skipped_returned=max(0, returned - marked)
        )
    return shown
