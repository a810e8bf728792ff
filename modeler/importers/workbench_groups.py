"""The items of a NoSQL Workbench table grouped into entities: by an attribute
that names their type, or by the shapes of their key values; and the items
kept once a primary key, in the order the model lists them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from modeler.design import model as d
from modeler.exporters.workbench_format import key_texts
from modeler.importers.budget import check_cpu
from modeler.importers.workbench_generators import NUMBERED_TEXT

# Attributes that often name an item's type, when a table has no facets.
DISCRIMINATORS = (
    "type",
    "Type",
    "EntityType",
    "entityType",
    "entity_type",
    "_type",
    "__typename",
    "_et",
)


@dataclass
class Group:
    """The items and hints that become one entity."""

    name: str
    items: list[dict[str, dict]] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # key attr -> alias
    schema: dict[str, Any] = field(default_factory=dict)  # ModelSchema model
    declared: list[str] = field(default_factory=list)  # facet NonKeyAttributes
    origin: str = ""
    # A facet this workbench exported: its ModelSchema keys are the design's.
    exported: bool = False


def scalar_text(wire: dict[str, Any]) -> str | None:
    """The text an S or N value shows in a key, else None."""
    if "S" in wire:
        return wire["S"]
    if "N" in wire:
        return wire["N"]
    return None


_CONSTANT = re.compile(r'^[#"A-Za-z_][A-Za-z_ "-]*$')
_KEY_PARTS = re.compile(r"([#|:/])")
_LITERAL = re.compile(r"^[A-Za-z_]{1,40}$")


def _shape(wire: dict[str, Any] | None) -> str | None:
    """What a key value says about its item's kind: `=PROFILE` for a
    constant; the value's skeleton for a value with literal words, its
    values written `*` (`ORDER#*`, `u#*#follower`, `p#*#u#*`); `` for
    anything else (an id, a date, a number); None when absent.

    Words and values alternate: a word after a separator that follows a
    word is a value (`USER#alice`, `STATUS#OPEN`), a word after a value is
    a literal again (`u#12345#follower`), and a part with a digit is a
    value. Values next to each other are one (`ORDER#2023-01-01T10:00:00`
    is `ORDER#*`)."""
    if wire is None:
        return None
    text = wire.get("S") if isinstance(wire, dict) else None
    if not isinstance(text, str):
        return ""
    if _CONSTANT.match(text) and len(text) <= 40:
        return f"={text}"
    pieces = _KEY_PARTS.split(text)
    out: list[str] = []
    previous = ""  # "word", "value" or "" at the start
    literal = False
    for position in range(0, len(pieces), 2):
        part = pieces[position]
        separator = pieces[position + 1] if position + 1 < len(pieces) else ""
        if not part and not out:
            out.append(separator)  # a leading `#`
            continue
        numbered = NUMBERED_TEXT.match(part)
        if previous != "word" and _LITERAL.match(part):
            out.append(part + separator)
            previous, literal = "word", True
        elif not previous and numbered and len(numbered.group(1)) <= 40:
            out.append(f"{numbered.group(1)}*{separator}")  # `G1`, `player001`
            previous, literal = "value", True
        elif previous == "value":
            out[-1] = "*" + separator  # one value with the one before
        else:
            out.append("*" + separator)
            previous = "value"
    return "".join(out) if literal else ""


def _attribute_names(items: list[dict[str, dict]], key_names: list[str]) -> set[str]:
    keys = set(key_names)
    return {name for item in items for name in item if name not in keys}


def _alike(a: set[str], b: set[str]) -> bool:
    """Whether two kinds' attributes look like one kind's: either has none,
    or they share at least half of the smaller set."""
    return not a or not b or 2 * len(a & b) >= min(len(a), len(b))


def key_shape_groups(
    items: list[dict[str, dict]], key_names: list[str], table_keys: int, name: str
) -> list[Group]:
    """Items told apart by the shapes of all their keys together (table and
    index keys, every position): `USER#1 / PROFILE` and `USER#1 / FOLLOWS#2`
    are two kinds though their partition keys look alike, and so are
    `u#1#follower` and `u#1#following`. Kinds whose table keys (the first
    `table_keys` of `key_names`) look alike are one kind, as are kinds that
    differ only by an index's keys being there or not (a sparse index) or by
    one constant against another (an enumerated status in a key) when their
    attributes are alike: `u#1 / info` with a name and `u#1 / count` with
    counters are two kinds."""
    by_shape: dict[tuple, list[dict[str, dict]]] = {}
    for item in items:
        shape = tuple(_shape(item.get(k)) for k in key_names)
        by_shape.setdefault(shape, []).append(item)
    shapes = list(by_shape)
    attributes = [_attribute_names(by_shape[s], key_names) for s in shapes]
    # Kinds by their place in `shapes`; a kind merged into another points
    # at it.
    parent = list(range(len(shapes)))

    def root(kind: int) -> int:
        top = kind
        while parent[top] != top:
            top = parent[top]
        while kind != top:  # the same root, reached at once next time
            parent[kind], kind = top, parent[kind]
        return top

    # Every pair of kinds (6,000 items of 6,000 kinds are 18 million pairs):
    # each pass looks at the import's CPU budget.
    for i in range(len(shapes)):
        check_cpu()
        ra = root(i)  # a root through the pass: only the other is merged away
        a = shapes[ra]
        for j in range(i + 1, len(shapes)):
            if parent[j] == ra:
                continue
            rb = root(j)
            b = shapes[rb]
            if ra != rb and (
                a[:table_keys] == b[:table_keys]
                or _same_kind(a, b, attributes[ra], attributes[rb])
            ):
                parent[rb] = ra
                attributes[ra] = attributes[ra] | attributes[rb]
    groups: dict[tuple, list[dict[str, dict]]] = {}
    for kind, shape in enumerate(shapes):
        groups.setdefault(shapes[root(kind)], []).extend(by_shape[shape])
    if len(groups) < 2:
        return [Group(name, list(items), origin="all items")]
    names = _kind_names(list(groups))
    out = []
    for shape, members in groups.items():
        described = " / ".join(
            (s[1:] if s.startswith("=") else s.replace("*", "…")) if s else "…"
            for s in shape
            if s is not None
        )
        out.append(
            Group(names[shape] or name, members, origin=f"items keyed {described}")
        )
    return out


def _same_kind(
    a: tuple, b: tuple, a_attributes: set[str], b_attributes: set[str]
) -> bool:
    """Two key shapes of one kind: where they differ, one is absent (a
    sparse index), or both are constants (`=OPEN`, `=SHIPPED`) and the
    items' attributes are alike."""
    differs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if not differs:
        return True
    constants = all(
        x is not None and y is not None and x.startswith("=") and y.startswith("=")
        for x, y in differs
    )
    absent = all(x is None or y is None for x, y in differs)
    return absent or (constants and _alike(a_attributes, b_attributes))


def _kind_names(shapes: list[tuple]) -> dict[tuple, str]:
    """A name for each kind of key shape: the word of its first key (the
    partition key, then the sort key, then the index keys) that no other
    kind has in that position. Where two kinds get one name, the one named
    by its partition key (the collection it sits in: `ORDER#` of an order's
    line items) takes its next word (`ITEM#`). A kind with no key of its
    own is named by a constant of its table keys (sort key first) that no
    other kind is named by, else by the words of both its table keys (an
    edge between two kinds)."""
    # How many kinds have each part in each position: a part only one kind
    # has is its own.
    held = Counter((position, part) for s in shapes for position, part in enumerate(s))
    candidates: dict[tuple, list[tuple[int, str]]] = {}
    for shape in shapes:
        candidates[shape] = [
            (position, _word_of(part))
            for position, part in enumerate(shape)
            if part and held[(position, part)] == 1
        ]
    chosen = {shape: 0 for shape in shapes}

    def name(shape: tuple) -> tuple[int, str]:
        options = candidates[shape]
        return options[chosen[shape]] if chosen[shape] < len(options) else (-1, "")

    for _ in range(len(shapes[0]) if shapes else 0):
        by_name: dict[str, list[tuple]] = {}
        for shape in shapes:
            by_name.setdefault(name(shape)[1], []).append(shape)
        moved = False
        for word, same in by_name.items():
            if word and len(same) > 1:
                for shape in same:
                    if name(shape)[0] == 0 and chosen[shape] + 1 < len(
                        candidates[shape]
                    ):
                        chosen[shape] += 1
                        moved = True
        if not moved:
            break
    out: dict[tuple, str] = {}
    taken: set[str] = {name(shape)[1] for shape in shapes}
    given: set[str] = set()
    # The Xs a label is known to need: a label given stays given, so the
    # next kind of that label starts its search there.
    suffixes: dict[str, int] = {}
    for shape in shapes:
        check_cpu()
        label = name(shape)[1]
        if not label:
            words = [_word_of(p) for p in shape[1::-1] if p and p.startswith("=")]
            label = next((w for w in words if w and w not in taken), "")
            pair = [_word_of(p) for p in shape[:2] if p]
            if not label and len(pair) == 2 and all(pair):
                # An item of its own (`G1 / G1` is G) or an edge (`G1 / U1`
                # is G_U).
                label = pair[0] if pair[0] == pair[1] else "_".join(pair)
        if label:
            base = label
            label += "X" * suffixes.get(base, 0)
            while label in given:
                label += "X"
            suffixes[base] = len(label) - len(base)
        given.add(label)
        taken.add(label)
        out[shape] = label
    return out


def _word_of(part: str) -> str:
    """The word a key shape names its kind by: a constant, or the last
    literal word of a skeleton (`ITEM` of `ORDER#*#ITEM#*`)."""
    if part.startswith("="):
        word = part[1:].strip('#"')
    else:
        words = [
            w.rstrip("*")
            for w in _KEY_PARTS.split(part)
            if _LITERAL.match(w.rstrip("*"))
        ]
        word = words[-1] if words else ""
    word = word.replace(" ", "_").replace("-", "_").replace('"', "")
    if word.isupper():
        return word[:1] + word[1:].lower()
    return word[:1].upper() + word[1:] if word.islower() else word


def item_groups(
    items: list[dict[str, dict]],
    key_names: list[str],
    table_keys: int,
    name: str,
    notes: list[str],
) -> list[Group]:
    """Items with nothing but their values to say what they are: grouped by
    a type attribute when one holds a few values (`type`, `EntityType`...),
    else by the shapes of their keys (`key_shape_groups`)."""
    type_attribute = discriminator(items)
    if not type_attribute:
        return key_shape_groups(items, key_names, table_keys, name)
    by_value: dict[str, Group] = {}
    rest = []
    for item in items:
        value = scalar_text(item.get(type_attribute, {}))
        if value:
            by_value.setdefault(
                value, Group(value, origin=f"items with {type_attribute} = {value}")
            ).items.append(item)
        else:
            rest.append(item)
    groups = list(by_value.values())
    if rest:
        groups.append(Group(name, rest, origin=f"items without {type_attribute}"))
    notes.append(
        f"no facets: entities are the values of the attribute {type_attribute}"
    )
    return groups


def discriminator(items: list[dict[str, dict]]) -> str | None:
    if len(items) < 2:
        return None
    for name in DISCRIMINATORS:
        values = [scalar_text(i[name]) for i in items if name in i and "S" in i[name]]
        if len(values) >= 0.8 * len(items) and 1 <= len(set(values)) <= 30:
            return name
    return None


def unique_items(
    items: list[dict[str, dict]],
    keys: tuple[d.KeyAttribute, d.KeyAttribute | None],
    notes: list[str],
) -> list[dict[str, dict]]:
    seen: dict[tuple, dict] = {}
    differing = 0
    for item in items:
        key = tuple(json.dumps(item[k.name], sort_keys=True) for k in keys if k)
        if key in seen:
            if seen[key] != item:
                differing += 1
            continue
        seen[key] = item
    if differing:
        notes.append(
            f"{differing} item(s) share a primary key with an earlier item; the "
            "first is kept, as DynamoDB would keep one"
        )
    return list(seen.values())


def in_listed_order(
    items: list[dict[str, dict]],
    order: Any,
    keys: tuple[d.KeyAttribute, d.KeyAttribute | None],
) -> list[dict[str, dict]]:
    """The items in the order this workbench's export listed their keys
    (ModelSchema's `sample_data.order`), since a model holds an entity's
    items in its facet and so loses how the design interleaved them; items
    it does not list (added in NoSQL Workbench) follow in the model's
    order."""
    if not isinstance(order, list) or not order:
        return items
    position = {
        json.dumps(key): n for n, key in enumerate(order) if isinstance(key, list)
    }
    unlisted = len(position)
    return sorted(
        items,
        key=lambda item: position.get(json.dumps(key_texts(item, keys)), unlisted),
    )
