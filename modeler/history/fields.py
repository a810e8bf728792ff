"""A three-way merge inside one element, field by field.

Two people who change the same entity (one adds the attribute `giftWrap`,
the other rewrites the description) both keep their change: what one side
changed and the other did not is taken from that side. Collections inside an
element merge member by member: an entity's attributes by name, its key
templates by key attribute, a pattern's key clauses by attribute and its
parameters by name. Only a field that both sides changed, to different
values, is a clash; the merged value then holds mine there, so that keeping
mine changes nothing else of theirs.

Pure Python; nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d

# The dataclasses merged field by field; any other value (a generator, a key
# template, a clause) is one value that either side changed.
_INSIDE = (
    d.Entity,
    d.Attribute,
    d.SampleSettings,
    d.AccessPattern,
    d.Traffic,
    d.Index,
    d.Table,
)

# Tuples inside an element whose members merge one by one, each named by
# the key it has in the tuple.
_MEMBERS: dict[tuple[type, str], Callable[[Any], str]] = {
    (d.Entity, "attributes"): lambda attr: attr.name,
    (d.AccessPattern, "key"): lambda clause: clause.attribute,
    (d.AccessPattern, "parameters"): lambda param: param.name,
}

_LABELS = {
    "keys": "key template",
    "attributes": "attribute",
    "key": "key condition on",
    "parameters": "parameter",
}


@dataclass(frozen=True)
class FieldClash:
    """A field both sides changed: `path` names it as the design check
    names a part under the element (`attributes.qty.type`, `keys.PK`,
    `description`); its value as the page showed it (`base`), as saved since
    (`theirs`) and as this edit makes it (`mine`); None where it is absent."""

    path: str
    label: str
    base: Any
    theirs: Any
    mine: Any


def merge_fields(base: Any, theirs: Any, mine: Any) -> tuple[Any, list[FieldClash]]:
    """`base` changed into `theirs` by one side and into `mine` by the
    other, merged: each side's changes that the other did not touch, and
    mine where both changed the same field (those are the clashes)."""
    clashes: list[FieldClash] = []
    merged = _merge(base, theirs, mine, (), clashes)
    return merged, clashes


def _merge(
    base: Any, theirs: Any, mine: Any, path: tuple[str, ...], out: list[FieldClash]
) -> Any:
    if theirs == mine or mine == base:
        return theirs
    if theirs == base:
        return mine
    if (
        isinstance(mine, _INSIDE)
        and type(base) is type(theirs) is type(mine)
        and base is not None
    ):
        return _merge_dataclass(base, theirs, mine, path, out)
    out.append(FieldClash(".".join(path), _label(path), base, theirs, mine))
    return mine


def _merge_dataclass(
    base: Any, theirs: Any, mine: Any, path: tuple[str, ...], out: list[FieldClash]
) -> Any:
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(mine):
        if field.name == "uid" or (
            isinstance(mine, d.Table) and field.name == "indexes"
        ):
            continue
        name = field.name
        values = getattr(base, name), getattr(theirs, name), getattr(mine, name)
        member = _MEMBERS.get((type(mine), name))
        if member is not None:
            merged = _merge_members(*values, member, (*path, name), out)
        elif isinstance(values[2], Mapping):
            merged = d.freeze(_merge_mapping(*values, (*path, name), out))
        else:
            merged = _merge(*values, (*path, name), out)
        changes[name] = merged
    return dataclasses.replace(mine, **changes)


def _merge_members(
    base: tuple,
    theirs: tuple,
    mine: tuple,
    key: Callable[[Any], str],
    path: tuple[str, ...],
    out: list[FieldClash],
) -> tuple:
    merged = _merge_keyed(
        {key(x): x for x in base},
        {key(x): x for x in theirs},
        {key(x): x for x in mine},
        path,
        out,
        order=_order([key(x) for x in theirs], [key(x) for x in mine]),
    )
    return tuple(merged.values())


def _merge_mapping(
    base: Mapping, theirs: Mapping, mine: Mapping, path: tuple[str, ...], out: list
) -> dict:
    return _merge_keyed(
        dict(base),
        dict(theirs),
        dict(mine),
        path,
        out,
        order=_order(list(theirs), list(mine)),
    )


def _merge_keyed(
    base: dict,
    theirs: dict,
    mine: dict,
    path: tuple[str, ...],
    out: list[FieldClash],
    *,
    order: list[str],
) -> dict:
    """Members by key: one added by either side is kept, one removed by
    one side and left alone by the other goes, one changed by both merges."""
    merged = {}
    for name in order:
        if name in theirs and name in mine:
            merged[name] = _merge(
                base.get(name), theirs[name], mine[name], (*path, name), out
            )
            continue
        # On one side only: added there, or removed by the other side.
        ours = name in mine
        kept = mine[name] if ours else theirs[name]
        if name not in base:
            merged[name] = kept
        elif kept != base[name]:
            # Changed by one side, removed by the other: mine decides.
            out.append(
                FieldClash(
                    ".".join((*path, name)),
                    _label((*path, name)),
                    base[name],
                    None if ours else kept,
                    kept if ours else None,
                )
            )
            if ours:
                merged[name] = kept
    return merged


def _order(theirs: list[str], mine: list[str]) -> list[str]:
    """Mine's order, with what only theirs has placed after the member it
    follows there."""
    out = list(mine)
    for position, name in enumerate(theirs):
        if name in out:
            continue
        after = next(
            (theirs[i] for i in range(position - 1, -1, -1) if theirs[i] in out), None
        )
        out.insert(out.index(after) + 1 if after is not None else 0, name)
    return out


def _label(path: tuple[str, ...]) -> str:
    """A clash's field in words: "description", "attribute qty (type)",
    "key template PK"."""
    if not path:
        return "the whole element"
    head = path[0]
    if head in _LABELS and len(path) > 1:
        rest = (
            f" ({', '.join(p.replace('_', ' ') for p in path[2:])})" if path[2:] else ""
        )
        return f"{_LABELS[head]} {path[1]}{rest}"
    return " ".join(p.replace("_", " ") for p in path)
