"""A design seen as its elements, each with a stable id: the project's name
and description, the table's settings, each index, entity and access
pattern, and the sample data settings.

Revisions record which elements a save changed; a save made from an older
version is merged when the elements it changed are not the ones changed
since; an undo puts back the elements of one revision. Elements are compared
by value without their position: moving an element is applied by replaying
the move, not merged as a change of every element it passed.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d

PROJECT = "project"
TABLE = "table"
SEED = "seed"
ITEMS = "items"
SINGLES = (PROJECT, TABLE, SEED, ITEMS)

# The collections whose members are elements of their own, with their
# labels in summaries.
COLLECTIONS = {"index": "index", "entity": "entity", "pattern": "access pattern"}


@dataclass(frozen=True)
class Element:
    kind: str  # one of SINGLES, or index, entity, pattern
    id: str  # the kind for SINGLES, else the element's uid
    name: str
    value: Any
    position: int = 0

    @property
    def label(self) -> str:
        if self.kind in COLLECTIONS:
            return f"{COLLECTIONS[self.kind]} {self.name}"
        return {
            PROJECT: "the project",
            TABLE: "the table",
            SEED: "the sample seed",
            ITEMS: "the own sample items",
        }[self.kind]


def new_uid() -> str:
    return secrets.token_hex(6)


# --- Identity -------------------------------------------------------------------


def with_uids(design: d.Design, previous: d.Design | None = None) -> d.Design:
    """`design` with a uid on every index, entity, attribute and access
    pattern. An element without one takes the uid of the element of the same
    name in `previous` (an edit that rebuilt it from a form), else a new
    one; uids are unique within the design."""
    previous = previous or d.Design(name="", table=design.table)
    used: set[str] = set()
    indexes = _identified(design.table.indexes, previous.table.indexes, used)
    entities = _identified(design.entities, previous.entities, used)
    entities = tuple(
        dataclasses.replace(
            e,
            attributes=_identified(e.attributes, _attributes_of(previous, e), used),
        )
        for e in entities
    )
    patterns = _identified(design.access_patterns, previous.access_patterns, used)
    return dataclasses.replace(
        design,
        table=dataclasses.replace(design.table, indexes=indexes),
        entities=entities,
        access_patterns=patterns,
    )


def _attributes_of(previous: d.Design, entity: d.Entity) -> tuple[d.Attribute, ...]:
    for candidate in previous.entities:
        if candidate.uid == entity.uid:
            return candidate.attributes
    return ()


def _identified(
    items: tuple[Any, ...], before: tuple[Any, ...], used: set[str]
) -> tuple[Any, ...]:
    """`items` each with a uid: its own, or the uid of the item of the same
    name in `before`, or a new one; none of them in `used`, which gains them."""
    by_name = {item.name: item.uid for item in before if item.uid}
    out = []
    for item in items:
        uid = item.uid
        if not uid or uid in used:
            uid = by_name.get(item.name, "")
            if not uid or uid in used:
                uid = new_uid()
        used.add(uid)
        out.append(item if uid == item.uid else dataclasses.replace(item, uid=uid))
    return tuple(out)


# --- Elements -------------------------------------------------------------------


def elements(design: d.Design) -> dict[str, Element]:
    """The design's elements by id. Elements without a uid (not saved yet)
    are keyed by kind and name."""
    found = {
        PROJECT: Element(
            PROJECT, PROJECT, design.name, (design.name, design.description)
        ),
        TABLE: Element(
            TABLE,
            TABLE,
            design.table.name,
            dataclasses.replace(design.table, indexes=()),
        ),
        SEED: Element(SEED, SEED, "", design.sample_data.seed),
        ITEMS: Element(ITEMS, ITEMS, "", design.sample_data.items),
    }
    members: Iterable[tuple[str, tuple[Any, ...]]] = (
        ("index", design.table.indexes),
        ("entity", design.entities),
        ("pattern", design.access_patterns),
    )
    for kind, items in members:
        for position, item in enumerate(items):
            key = item.uid or f"{kind}:{item.name}"
            found[key] = Element(kind, key, item.name, item, position)
    return found


def element_identities(design: d.Design) -> dict[tuple[str, str], str]:
    """What stays of each named part through renames, by (kind, name) as
    findings locate them: the table, each index, entity, attribute
    (`Entity.attribute`) and access pattern. An element without a uid
    (not saved yet) is known by its name."""
    found = {("table", design.table.name): TABLE}
    for index in design.table.indexes:
        found[("index", index.name)] = index.uid or f"index:{index.name}"
    for entity in design.entities:
        entity_id = entity.uid or f"entity:{entity.name}"
        found[("entity", entity.name)] = entity_id
        for attr in entity.attributes:
            found[("attribute", f"{entity.name}.{attr.name}")] = (
                f"{entity_id}.{attr.uid or attr.name}"
            )
    for pattern in design.access_patterns:
        found[("pattern", pattern.name)] = pattern.uid or f"pattern:{pattern.name}"
    return found


def changed(before: d.Design, after: d.Design) -> list[str]:
    """The ids of the elements added, removed or changed from `before` to
    `after`, in the order of `after` then the removed ones."""
    old, new = elements(before), elements(after)
    ids = [i for i, e in new.items() if i not in old or not _same(old[i], e)]
    return ids + [i for i in old if i not in new]


def _same(a: Element, b: Element) -> bool:
    # uids take no part in equality; an attribute's identity does matter.
    if a.value != b.value:
        return False
    if a.kind == "entity":
        return [x.uid for x in a.value.attributes] == [
            x.uid for x in b.value.attributes
        ]
    return True


def replaced(
    design: d.Design, changes: Mapping[str, Element | None], *, order: d.Design
) -> d.Design:
    """`design` with the given elements set to a value (None: removed).
    An element that `design` lacks is inserted where it stands in `order`."""
    placed = elements(order)
    name, description = design.name, design.description
    table, sample = design.table, design.sample_data
    for key, element in changes.items():
        if key == PROJECT and element is not None:
            name, description = element.value
        elif key == TABLE and element is not None:
            table = dataclasses.replace(element.value, indexes=table.indexes)
        elif key == SEED and element is not None:
            sample = dataclasses.replace(sample, seed=element.value)
        elif key == ITEMS and element is not None:
            sample = dataclasses.replace(sample, items=element.value)

    def collection(kind: str, items: tuple[Any, ...]) -> tuple[Any, ...]:
        out = list(items)
        ids = [current_id(kind, item) for item in items]
        for key, element in changes.items():
            if key in SINGLES:
                continue
            if element is None:
                if key in ids:
                    at = ids.index(key)
                    del out[at], ids[at]
                continue
            if element.kind != kind:
                continue
            if key in ids:
                out[ids.index(key)] = element.value
            else:
                at = min(placed[key].position if key in placed else len(out), len(out))
                out.insert(at, element.value)
                ids.insert(at, key)
        return tuple(out)

    def current_id(kind: str, item: Any) -> str:
        return item.uid or f"{kind}:{item.name}"

    return dataclasses.replace(
        design,
        name=name,
        description=description,
        table=dataclasses.replace(
            table, indexes=collection("index", design.table.indexes)
        ),
        entities=collection("entity", design.entities),
        access_patterns=collection("pattern", design.access_patterns),
        sample_data=sample,
    )


# --- Summaries ------------------------------------------------------------------

_FIELD_LABELS = {
    "keys": "key templates",
    "sample": "sample counts",
    "key": "key condition",
    "expects": "expected result",
    "partition_key": "partition key",
    "sort_key": "sort key",
    "billing_mode": "billing mode",
    "ttl_attribute": "TTL attribute",
    "stream_view_type": "stream",
    "point_in_time_recovery": "point-in-time recovery",
    "table_class": "table class",
    "deletion_protection": "deletion protection",
    **{option.name: option.label for option in d.PATTERN_OPTIONS if option.label},
}


def summary(before: d.Design | None, after: d.Design) -> str:
    """What changed from `before` to `after`, in one line:
    "renamed entity Order to Purchase", "changed access pattern X (limit)",
    "added index GSI2 and 2 more changes"."""
    if before is None:
        return "created the design"
    old, new = elements(before), elements(after)
    phrases = [_phrase(old.get(i), new.get(i)) for i in changed(before, after)]
    # An element added, removed or renamed is what the change was about; the
    # others followed it (templates of a removed index, references to a
    # renamed entity).
    phrases = sorted(
        (p for p in phrases if p), key=lambda p: not p.startswith(_HEADLINES)
    )
    if not phrases:
        moved = _moved(before, after)
        return f"moved {moved}" if moved else "saved without changes"
    if len(phrases) == 1:
        return phrases[0]
    rest = len(phrases) - 1
    return f"{phrases[0]} and {rest} more change{'s' if rest > 1 else ''}"


_HEADLINES = ("added ", "removed ", "renamed ")


def _phrase(old: Element | None, new: Element | None) -> str:
    if old is None:
        return f"added {new.label}" if new else ""
    if new is None:
        return f"removed {old.label}"
    if new.kind == PROJECT:
        if old.value[0] != new.value[0]:
            return f"renamed the project to {new.value[0]}"
        return "changed the project's description"
    if new.kind == SEED:
        return f"set the sample seed to {new.value}"
    if new.kind == ITEMS:
        return f"changed the own sample items ({len(new.value)} now)"
    if old.name != new.name and new.kind in COLLECTIONS:
        return f"renamed {old.label} to {new.name}"
    if new.kind == "entity":
        # What the rest of the design followed (key templates, indexes'
        # projections, patterns): the change is the rename.
        names = {a.uid: a.name for a in old.value.attributes if a.uid}
        renamed = [
            f"{new.name}.{names[a.uid]} to {a.name}"
            for a in new.value.attributes
            if a.uid in names and names[a.uid] != a.name
        ]
        if renamed:
            return f"renamed attribute{'s' if len(renamed) > 1 else ''} " + ", ".join(
                renamed
            )
    fields = _changed_fields(old.value, new.value)
    if new.kind == TABLE and old.name != new.name:
        fields = [f for f in fields if f != "name"]
        head = f"renamed the table to {new.name}"
        return f"{head} ({', '.join(fields)})" if fields else head
    what = "the table's settings" if new.kind == TABLE else new.label
    return f"changed {what} ({', '.join(fields)})" if fields else f"changed {what}"


def changed_fields(old: Element, new: Element) -> list[str]:
    """What changed from one version of an element to another, as field
    labels ("key templates", "description")."""
    if old.kind == PROJECT:
        parts = zip(("name", "description"), old.value, new.value, strict=True)
        return [part for part, was, now in parts if was != now]
    if old.kind in (SEED, ITEMS):
        return [] if old.value == new.value else [old.label.removeprefix("the ")]
    return _changed_fields(old.value, new.value)


def _changed_fields(old: Any, new: Any) -> list[str]:
    names = [
        f.name
        for f in dataclasses.fields(new)
        if f.name not in ("uid", "indexes")
        and getattr(old, f.name) != getattr(new, f.name)
    ]
    reidentified = isinstance(new, d.Entity) and [a.uid for a in old.attributes] != [
        a.uid for a in new.attributes
    ]
    if reidentified and "attributes" not in names:
        names.append("attributes")
    return [_FIELD_LABELS.get(n, n.replace("_", " ")) for n in names]


def _moved(before: d.Design, after: d.Design) -> str:
    pairs = (
        ("index", before.table.indexes, after.table.indexes),
        ("entity", before.entities, after.entities),
        ("access pattern", before.access_patterns, after.access_patterns),
    )
    for label, old, new in pairs:
        old_names, new_names = [x.name for x in old], [x.name for x in new]
        if old_names != new_names:
            for position, name in enumerate(new_names):
                if old_names[position] != name:
                    return f"{label} {name}"
    return ""
