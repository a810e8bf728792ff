"""A GSI rebuilt beside itself: the way through when the next design
changes the keys an index groups or sorts its items by, and the deployed
version reads that index.

Rewritten in place, the index holds items under the old keys and the new
at once while the script runs, so the deployed version's query of it
finds items in the wrong order or the wrong partition (the proof's
dual-write step says so). DynamoDB's way is a new index beside the old
one: the script fills the new index's key attributes while the deployed
version still reads the old index, the next version reads the new one,
and the old is deleted once no version reads it. `rebuilt_beside` makes
that next design from the one asked for: each such index under a free
name with key attributes of its own, the patterns that query it following.
The planner proposes it when it proves where the design asked for does
not, and where the design asked for makes an index the deployed version
reads again under its own name (deleted first: its queries fail until the
new one is ACTIVE), which needs no new key attributes (`plan.plan_migration`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from modeler.design import model as d
from modeler.design.renames import key_attributes_renamed
from modeler.evolution.changes import renamed_template
from modeler.evolution.matching import EntityMatch, entity_matching


@dataclass(frozen=True)
class Rebuilt:
    """An index of the next design rebuilt beside itself as `name`, with
    `keys` (old key attribute name to new; none when it keeps its key
    attributes), because the deployed version's `readers` query it."""

    index: str
    name: str
    keys: tuple[tuple[str, str], ...]
    readers: tuple[str, ...]

    @property
    def text(self) -> str:
        renamed = ", ".join(f"{old} -> {new}" for old, new in self.keys)
        why = (
            "its keys change while the deployed version reads it"
            if self.keys
            else "made again under its own name, it would be missing while "
            "the deployed version reads it"
        )
        return (
            f"GSI {self.index} rebuilt beside itself as {self.name}"
            + (f" ({renamed})" if renamed else "")
            + f": {why} ("
            + ", ".join(self.readers)
            + ")"
        )


def rekeyed_indexes(before: d.Design, after: d.Design) -> list[str]:
    """The GSIs of both designs, keyed by the same attributes, whose key
    templates change for an entity that was in it (its items re-sorted or
    regrouped in place by the rewrite)."""
    out = []
    matches = entity_matching(before, after).matches
    for index in after.table.indexes:
        old = before.table.index(index.name)
        if not (index.is_global and old is not None and old.is_global):
            continue
        names = [a.name for a in index.key_attributes]
        if names != [a.name for a in old.key_attributes]:
            continue
        if any(_rekeyed(match, names) for match in matches):
            out.append(index.name)
    return out


def _rekeyed(match: EntityMatch, names: list[str]) -> bool:
    old, new = match.before, match.after
    if new is None or not all(name in old.keys for name in names):
        return False
    renames = match.renamed_attributes()
    for name in names:
        was, now = old.keys[name], new.keys.get(name)
        if now is None:
            continue  # the entity leaves the index: no wrong order meanwhile
        if renamed_template(was.template, renames) != now.template:
            return True
    return False


def rebuilt_beside(
    before: d.Design,
    after: d.Design,
    names: Iterable[str],
    readers: Mapping[str, Iterable[str]],
    rekeyed: Collection[str] = (),
) -> tuple[d.Design, list[Rebuilt]] | None:
    """The next design with each of the GSIs `names` under a new name (free
    in both designs: the old index and the new live side by side
    meanwhile); those `rekeyed` also on new key attributes, since the old
    index still reads the old values of its own. None when one of those
    shares a key attribute with the table or another index (renaming it
    would move the others too). `readers` names the deployed patterns that
    query each."""
    taken = _names(before) | _names(after)
    rebuilt = []
    design = after
    for name in names:
        index = design.table.index(name)
        if index is None:
            return None
        own = {a.name for a in index.key_attributes}
        others = {
            a.name
            for i in design.table.indexes
            if i.name != name
            for a in i.key_attributes
        } | {a.name for a in design.table.key_attributes}
        if name in rekeyed and own & others:
            return None
        new_name = _free(name, taken)
        taken.add(new_name)
        keys = {}
        for attribute in index.key_attributes if name in rekeyed else ():
            base = (
                new_name + attribute.name[len(name) :]
                if attribute.name.startswith(name)
                else attribute.name
            )
            keys[attribute.name] = _free(base, taken)
            taken.add(keys[attribute.name])
        new_index = dataclasses.replace(
            index,
            name=new_name,
            partition_key=_keys_renamed(index.partition_key, keys),
            sort_key=_keys_renamed(index.sort_key, keys),
            uid="",
        )
        table = dataclasses.replace(
            design.table,
            indexes=tuple(
                new_index if i.name == name else i for i in design.table.indexes
            ),
        )
        design = key_attributes_renamed(dataclasses.replace(design, table=table), keys)
        design = dataclasses.replace(
            design,
            access_patterns=tuple(
                dataclasses.replace(p, index=new_name) if p.index == name else p
                for p in design.access_patterns
            ),
        )
        rebuilt.append(
            Rebuilt(name, new_name, tuple(keys.items()), tuple(readers.get(name, ())))
        )
    return design, rebuilt


def _keys_renamed(
    keys: tuple[d.KeyAttribute, ...], renamed: Mapping[str, str]
) -> tuple[d.KeyAttribute, ...]:
    return tuple(dataclasses.replace(a, name=renamed.get(a.name, a.name)) for a in keys)


def _names(design: d.Design) -> set[str]:
    return (
        {i.name for i in design.table.indexes}
        | {a.name for a in design.table.all_key_attributes()}
        | {a.name for e in design.entities for a in e.attributes}
        | {name for e in design.entities for name in e.keys}
    )


def _free(base: str, taken: set[str]) -> str:
    """`base` if no name of `taken` is it, else with its number counted up
    (GSI1 -> GSI2 -> ...), or a number added, until none is."""
    if base not in taken:
        return base
    found = re.fullmatch(r"(.*?)(\d+)", base)
    stem, number = (found.group(1), int(found.group(2))) if found else (base, 1)
    while True:
        number += 1
        name = f"{stem}{number}"
        if name not in taken:
            return name
