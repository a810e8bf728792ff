"""Which element of the new design each element of the old one became.

Elements are matched by identity, not by name, so a rename is a rename and
not a removal and an addition: first by uid (revisions of one project carry
them), then by the name their sample data is drawn under (`draw_name`: a
renamed entity or attribute keeps its old name as `seed_name`, which design
files write), then by name.

Entities the new design adds are traced to where their items come from: an
entity whose every attribute an old entity has is split off from it (its
items are made from that entity's items); an old entity that went away and
whose every attribute a new entity has is merged into it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from modeler.design import model as d
from modeler.keys.template import parse_template

Named = TypeVar("Named", d.Entity, d.Attribute, d.AccessPattern, d.Index)


def matched(before: Sequence[Named], after: Sequence[Named]) -> dict[int, int]:
    """Positions in `after` of the elements of `before`, by identity."""
    out: dict[int, int] = {}
    taken: set[int] = set()

    def identity(element: Named, how: str) -> str:
        if how == "uid":
            return element.uid
        if how == "draw":
            return getattr(element, "draw_name", "")
        return element.name

    for how in ("uid", "draw", "name"):
        index: dict[str, int] = {}
        for position, element in enumerate(after):
            if position not in taken and identity(element, how):
                index.setdefault(identity(element, how), position)
        for position, element in enumerate(before):
            if position in out or not identity(element, how):
                continue
            found = index.get(identity(element, how))
            if found is not None and found not in taken:
                out[position] = found
                taken.add(found)
    return out


def same_shape(a: d.Index, b: d.Index) -> bool:
    """The same GSI to DynamoDB: its name, keys and projection, which
    cannot change (its capacity can)."""
    return (
        a.name == b.name
        and a.key_attributes == b.key_attributes
        and a.projection == b.projection
    )


@dataclass(frozen=True)
class AttributeMatch:
    before: d.Attribute
    after: d.Attribute

    @property
    def renamed(self) -> bool:
        return self.before.name != self.after.name

    @property
    def retyped(self) -> bool:
        return self.before.type != self.after.type


@dataclass(frozen=True)
class EntityMatch:
    """An old entity and what its items become in the new design: `after`
    (the entity it is, or the one it was merged into; None when it went
    away with nowhere to go), and the entities split off from it."""

    before: d.Entity
    after: d.Entity | None
    attributes: tuple[AttributeMatch, ...] = ()
    merged: bool = False
    splits: tuple[tuple[d.Entity, tuple[AttributeMatch, ...]], ...] = ()

    def renamed_attributes(self) -> dict[str, str]:
        return {m.before.name: m.after.name for m in self.attributes if m.renamed}


def attribute_matches(before: d.Entity, after: d.Entity) -> tuple[AttributeMatch, ...]:
    pairs = matched(before.attributes, after.attributes)
    return tuple(
        AttributeMatch(before.attributes[b], after.attributes[a])
        for b, a in sorted(pairs.items())
    )


def _covers(source: d.Entity, target: d.Entity) -> tuple[AttributeMatch, ...] | None:
    """The match of every attribute of `target` in `source`, or None when
    `source` lacks one of them."""
    found = attribute_matches(source, target)
    return found if len(found) == len(target.attributes) else None


def _moves(
    covered: tuple[AttributeMatch, ...], source: d.Entity, source_after: d.Entity
) -> bool:
    """Whether some attribute of the new entity left the old one: what
    tells a split (the attributes move to an item of their own) from a new
    entity that merely shares attribute names with an old one."""
    kept = {m.before.name for m in attribute_matches(source, source_after)}
    return any(m.before.name not in kept for m in covered)


def _keyed_by(into: d.Entity, entity: d.Entity, after: d.Design) -> bool:
    """Whether the removed entity's items can take the table keys of the
    entity they would merge into: every attribute those templates place is
    one of theirs."""
    names = {m.after.name for m in attribute_matches(entity, into)}
    for key in after.table.key_attributes:
        template = into.keys.get(key.name)
        if template is None:
            return False
        try:
            placed = parse_template(template.template).attributes
        except ValueError:
            return False
        if not set(placed) <= names:
            return False
    return True


@dataclass(frozen=True)
class EntityMatching:
    matches: tuple[EntityMatch, ...]
    added: tuple[d.Entity, ...]  # new entities no old items make

    def match_of(self, name: str) -> EntityMatch | None:
        return next((m for m in self.matches if m.before.name == name), None)


def entity_matching(before: d.Design, after: d.Design) -> EntityMatching:
    pairs = matched(before.entities, after.entities)
    unmatched_new = [
        e for position, e in enumerate(after.entities) if position not in pairs.values()
    ]
    splits: dict[int, list[tuple[d.Entity, tuple[AttributeMatch, ...]]]] = {}
    added = []
    for entity in unmatched_new:
        sources = [
            (position, covered)
            for position, source in enumerate(before.entities)
            if position in pairs
            and (covered := _covers(source, entity)) is not None
            and _moves(covered, source, after.entities[pairs[position]])
        ]
        if sources and entity.attributes:
            position, covered = sources[0]
            splits.setdefault(position, []).append((entity, covered))
        else:
            added.append(entity)
    matches = []
    for position, entity in enumerate(before.entities):
        if position in pairs:
            new = after.entities[pairs[position]]
            matches.append(
                EntityMatch(
                    entity,
                    new,
                    attribute_matches(entity, new),
                    splits=tuple(splits.get(position, ())),
                )
            )
            continue
        into = next(
            (
                new
                for new in after.entities
                if new not in unmatched_new
                and entity.attributes
                and len(attribute_matches(entity, new)) == len(entity.attributes)
                and _keyed_by(new, entity, after)
            ),
            None,
        )
        matches.append(
            EntityMatch(
                entity,
                into,
                attribute_matches(entity, into) if into else (),
                merged=into is not None,
            )
        )
    return EntityMatching(tuple(matches), tuple(added))
