"""The numbers a review stands on, taken from the simulation: item sizes per
entity, how an entity's items spread over the partition key values of the
table and of each index, and each pattern's simulated run."""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import compress, repeat, starmap
from operator import and_, contains, eq, ge, is_, is_not, itemgetter
from typing import Any

from modeler.design import model as d
from modeler.engine.size import item_size, projected_size, value_size
from modeler.keys import TemplateSyntaxError, parse_template
from modeler.keys.template import Literal
from modeler.simulation import PatternRun

# Names that say an attribute is a period (a day, a month...): a partition
# key made of one is a time bucket that takes every current write.
_TIME_BUCKET_NAME = re.compile(
    r"(?:^|[_a-z])(?:date|day|month|week|year|hour)$", re.IGNORECASE
)
LOW_CARDINALITY = 100  # at most this many live partition key values
# Key values a review weighs per stream of traffic before all of them.
TOP_KEYS = 200
_NOT_MADE = object()
# An attribute an item does not have (None is a value an item can hold), and
# a test that a value is not that, which `filter` applies without Python code.
_ABSENT = object()
_present = partial(is_not, _ABSENT)


@dataclass(frozen=True)
class SizeStats:
    count: int
    average: float
    largest: int


def attribute_cardinality(attribute: d.Attribute | None) -> int | None:
    """How many values an attribute can take, when that is few: a choice,
    a boolean, a constant, a small integer range; None when unbounded."""
    if attribute is None:
        return None
    if attribute.type == "BOOL":
        return 2
    generator = attribute.generator
    if generator is None:
        return None
    params = generator.params
    if generator.kind == "choice":
        options = (
            params["value"] if set(params) == {"value"} else params
        )  # a list of options, or options with their weights
        return len(options) or None
    if generator.kind == "bool":
        return 2
    if generator.kind == "constant":
        return 1
    if generator.kind == "int":
        try:
            span = int(params["max"]) - int(params["min"]) + 1
        except (KeyError, TypeError, ValueError):
            return None
        return span if span <= LOW_CARDINALITY else None
    return None


def is_time_bucket(attribute: d.Attribute | None) -> bool:
    """A date-like attribute: at any moment every new item has the current
    value, so a partition key made of it takes all writes in one place."""
    if attribute is None or attribute.type != "S":
        return False
    kind = attribute.generator.kind if attribute.generator else ""
    if kind == "date":
        return True
    if kind in ("timestamp", "ulid", "uuid", "ref", "pick", "sequence"):
        return False
    return bool(_TIME_BUCKET_NAME.search(attribute.name))


def partition_attributes(table: d.Table, index_name: str) -> tuple[str, ...]:
    """The attributes that choose the partition on the table or an index; an
    LSI shares the table's partitions."""
    index = table.index(index_name)
    if index is None or not index.is_global:
        return (table.partition_key.name,)
    return tuple(a.name for a in index.partition_key)


def partition_home(table: d.Table, index_name: str) -> str:
    """Whose partitions serve a request on `index_name`: an LSI's are the
    table's."""
    index = table.index(index_name)
    return index_name if index is not None and index.is_global else d.TABLE_INDEX


class Evidence:
    """A simulated design's sample items and pattern runs, with the derived
    figures the checks share."""

    def __init__(
        self,
        design: d.Design,
        items: list[dict[str, Any]],
        entities: Sequence[str | None],
        runs: Mapping[int, PatternRun],
        derived: dict[tuple, Any] | None = None,
        sizes: list[int] | None = None,
        index_totals: Callable[[d.Index], tuple[int, int] | None] | None = None,
        of_entities: Callable[[tuple[str, ...]], Sequence[int]] | None = None,
    ) -> None:
        """`derived` keeps the figures that depend on the data alone (item
        and entry sizes, key counts) for the next review of the same data:
        a simulation's, shared by the versions of a design whose edits left
        the data as it was. `sizes`, the items' sizes when they are known
        already (the load measured them); `index_totals(index)`, an index's
        entry count and size when the loaded table knows them (or None);
        `of_entities(names)`, the positions of the items of those entities
        in order, when they are known already (a simulation's lookups keep
        each entity's)."""
        self.design = design
        self.items = items
        self.entities = entities
        self.runs = runs
        self._derived = {} if derived is None else derived
        self._sizes = sizes
        self._index_totals = index_totals
        self._of_entities = of_entities

    def kept(self, key: tuple, make: Any) -> Any:
        """`make()`, a figure that depends on the data alone, made once for
        the data set under `key`."""
        found = self._derived.get(key, _NOT_MADE)
        if found is _NOT_MADE:
            found = self._derived[key] = make()
        return found

    @property
    def sizes(self) -> list[int]:
        if self._sizes is not None:
            return self._sizes
        return self.kept(("sizes",), lambda: [item_size(i) for i in self.items])

    @property
    def entity_sizes(self) -> dict[str, SizeStats]:
        def make() -> dict[str, SizeStats]:
            # Each entity's sizes taken in a C loop over the items, where a
            # loop of Python over a million items took 0.4 s.
            sizes, entities = self.sizes, self.entities
            if len(sizes) != len(entities):
                raise ValueError("an item's size or entity is missing")
            totals: dict[str, list[int]] = {}
            for entity in dict.fromkeys(entities):
                totals.setdefault(entity or "", []).extend(
                    compress(sizes, map(eq, entities, repeat(entity)))
                )
            return {
                name: SizeStats(len(values), sum(values) / len(values), max(values))
                for name, values in totals.items()
            }

        return self.kept(("entity_sizes",), make)

    def positions(self, entities: tuple[str, ...] | None) -> list[int]:
        if not entities:
            return list(range(len(self.items)))

        def make() -> list[int]:
            if self._of_entities is not None and len(set(entities)) == 1:
                # The positions the simulation keeps for an entity, copied:
                # a pass over every item's entity took 0.04 s at a million
                # items. (Several entities' it merges by a sort, which the
                # pass below beats.)
                return list(self._of_entities(entities))
            # In C loops: a loop of Python over a million entities took 0.1 s.
            within = map(set(entities).__contains__, self.entities)
            return list(compress(range(len(self.entities)), within))

        return self.kept(("positions", tuple(entities)), make)

    def key_counts(
        self, index_name: str, entities: tuple[str, ...] | None, *, live: bool
    ) -> Counter[str]:
        """Items of the entities per partition key value of the table or an
        index. With `live`, time-bucket parts of a key are merged into one
        ("<current day>"), since new items all go to the current bucket."""
        return self.kept(
            ("key_counts", index_name, entities, live),
            lambda: self._count_keys(index_name, entities, live),
        )

    def _added_counts(
        self, index_name: str, entities: tuple[str, ...], live: bool
    ) -> Counter[str]:
        """`key_counts` of several entities: each entity's own counts (kept:
        the checks ask for most entities' alone too) added, where counting
        their items together passed over them all again (a third of the
        key counting of a review of a million items). The same counts; the
        keys in entity order rather than first seen, which no reader of
        several entities' counts depends on (they look keys up, total them
        and take the largest by count and key)."""
        counts: Counter[str] = Counter()
        for entity in dict.fromkeys(entities):
            counts.update(self.key_counts(index_name, (entity,), live=live))
        return counts

    def top_keys(
        self,
        index_name: str,
        entities: tuple[str, ...] | None,
        *,
        live: bool,
        count: int = TOP_KEYS,
    ) -> tuple[tuple[str, int], ...]:
        """The `count` key values with the most items (`key_counts`), most
        first, ties in key order. Made once for each object of counts: the
        table's and an index's keys of the same items, the same counts
        (see `_count_keys`), are ranked once. The counts are kept with the
        data, so their id names them as long as this is kept."""
        counts = self.key_counts(index_name, entities, live=live)
        return self.kept(("top_keys", id(counts), count), lambda: _top(counts, count))

    def _count_keys(
        self, index_name: str, entities: tuple[str, ...] | None, live: bool
    ) -> Counter[str]:
        if entities is not None and len(set(entities)) > 1:
            return self._added_counts(index_name, entities, live)
        names = partition_attributes(self.design.table, index_name)
        needed = set(names)
        # Each entity's time-bucketed key parts, worked out once.
        parts_of = {
            entity: self._bucketed_parts(entity or "", names) if live else None
            for entity in set(self.entities)
        }
        items, item_entities = self.items, self.entities
        counts: Counter[str] = Counter()
        positions = self.positions(entities)
        if len(names) == 1 and all(parts is None for parts in parts_of.values()):
            # One attribute, taken whole: each item's value is counted in one
            # pass in C (the same counts, first seen first), where building
            # each key in Python was a third of a review of a large data set.
            # The same items counted by another attribute that holds the
            # same object on every one of them (or that both lack), as the
            # keys of one template do (a line item's PK and its GSI3PK):
            # the same counts, the very object (no reader changes counts),
            # without counting or copying them again.
            counted = self.kept(("counted", entities), dict)
            for other, other_counts in counted.items():
                if _same_values(items, positions, names[0], other):
                    return other_counts
            values = _values_at(items, positions, names[0])
            counts.update(map(str, filter(_present, values)))
            counted[names[0]] = counts
            return counts
        for position in positions:
            item = items[position]
            if not item.keys() >= needed:
                continue  # not in this (sparse) index
            parts = parts_of[item_entities[position]]
            if parts is None:
                counts["#".join([str(item[n]) for n in names])] += 1
            else:
                counts[
                    "".join(
                        [
                            part if literal else str(item.get(part, ""))
                            for part, literal in parts
                        ]
                    )
                ] += 1
        return counts

    def _bucketed_parts(
        self, entity_name: str, names: tuple[str, ...]
    ) -> tuple[tuple[str, bool], ...] | None:
        """The entity's key templates for `names` as (text, is literal)
        parts with time-bucket placeholders made literal ("<current day>"), or
        None when the key has no time bucket."""
        return self.kept(
            ("parts", entity_name, names),
            lambda: self._make_bucketed_parts(entity_name, names),
        )

    def _make_bucketed_parts(
        self, entity_name: str, names: tuple[str, ...]
    ) -> tuple[tuple[str, bool], ...] | None:
        entity = self.design.entity(entity_name)
        if entity is None:
            return None
        parts: list[tuple[str, bool]] = []
        bucketed = False
        for position, name in enumerate(names):
            key = entity.keys.get(name)
            try:
                template = parse_template(key.template) if key else None
            except TemplateSyntaxError:
                template = None
            if template is None:
                parts, bucketed = [], False
                break
            if position:
                parts.append(("#", True))
            for part in template.parts:
                if isinstance(part, Literal):
                    parts.append((part.text, True))
                elif is_time_bucket(entity.attribute(part.attribute)):
                    parts.append((f"<current {part.attribute}>", True))
                    bucketed = True
                else:
                    parts.append((part.attribute, False))
        return tuple(parts) if bucketed else None

    def entry_sizes(self, index: d.Index) -> list[int | None]:
        """The size of each item's entry in the index (None where an item
        is not in it), by position."""
        return self.kept(("entry_sizes", index), lambda: self._entry_sizes(index))

    def _entry_sizes(self, index: d.Index) -> list[int | None]:
        needed, projected = self._entry_attributes(index)
        held = _holding(self.items, needed)
        if projected is None:  # the whole item: its size, known
            return [
                size if holds else None
                for holds, size in zip(held, self.sizes, strict=True)
            ]
        size_of = self._entry_size_of(needed, projected)
        return [
            size_of(item) if holds else None
            for item, holds in zip(self.items, held, strict=True)
        ]

    def entry_sizes_at(self, index: d.Index, positions: list[int]) -> list[int | None]:
        """`entry_sizes(index)` at `positions` only (not kept): the entries
        of a few items, without measuring every item's."""
        kept = self._derived.get(("entry_sizes", index), _NOT_MADE)
        if kept is not _NOT_MADE:
            return [kept[p] for p in positions]
        items = [self.items[p] for p in positions]
        needed, projected = self._entry_attributes(index)
        held = _holding(items, needed)
        if projected is None:
            sizes = self.sizes
            return [
                sizes[p] if holds else None
                for p, holds in zip(positions, held, strict=True)
            ]
        size_of = self._entry_size_of(needed, projected)
        return [
            size_of(item) if holds else None
            for item, holds in zip(items, held, strict=True)
        ]

    def _entry_size_of(
        self, needed: set[str], projected: set[str]
    ) -> Callable[[Mapping[str, Any]], int]:
        """How to size the entry of an item that is in the index."""
        if not projected <= needed | self._table_keys:
            return partial(projected_size, _name_sizes(projected))
        # Keys only: every item in the index has each of them, so the entry's
        # size is their names' and values' without building the entry (half
        # of a first review of a large data set was that).
        names = tuple(sorted(projected))
        base = sum(len(name.encode("utf-8")) for name in names)
        values = (
            itemgetter(*names) if len(names) > 1 else lambda item: (item[names[0]],)
        )
        types = self._key_types
        if all(types[name] == "S" for name in names):
            # String keys (the load refused any other value): their UTF-8
            # length in one piece, as item_size measures strings.
            return lambda item: base + value_size("".join(values(item)))
        return lambda item: base + sum(map(value_size, values(item)))

    @property
    def _table_keys(self) -> set[str]:
        return {a.name for a in self.design.table.key_attributes}

    @property
    def _key_types(self) -> dict[str, str]:
        """The declared type of every key attribute of the table and its
        indexes."""
        table = self.design.table
        attributes = [*table.key_attributes]
        for index in table.indexes:
            attributes.extend(index.key_attributes)
        return {a.name: a.type for a in attributes}

    def entry_totals(self, index: d.Index) -> tuple[int, int]:
        """How many items have an entry in the index, and their entries'
        total size."""

        def make() -> tuple[int, int]:
            known = self._index_totals(index) if self._index_totals else None
            if known is not None:
                # The loaded index's own count: no entry measured again.
                return known
            sizes = [size for size in self.entry_sizes(index) if size is not None]
            return len(sizes), sum(sizes)

        return self.kept(("entry_totals", index), make)

    @property
    def total_size(self) -> int:
        """The sum of the items' sizes."""
        return self.kept(("total_size",), lambda: sum(self.sizes))

    def _entry_attributes(self, index: d.Index) -> tuple[set[str], set[str] | None]:
        """The attributes an item needs to be in the index, and those its
        entry holds (None: all of the item's)."""
        table = self.design.table
        needed = {a.name for a in index.key_attributes}
        if not index.is_global:
            needed.add(table.partition_key.name)
        if index.projection.type == "ALL":
            return needed, None
        projected = self._table_keys | needed
        if index.projection.type == "INCLUDE":
            projected |= set(index.projection.attributes)
        return needed, projected


def _top(counts: Counter[str], count: int) -> tuple[tuple[str, int], ...]:
    """The `count` keys with the most items, most first, ties in key order:
    `heapq.nsmallest` by (-items, key) over the keys that can be among them
    (items at least the count-th largest, found by a sort of the counts in
    C), not over the hundreds of thousands of keys of a large data set."""
    if count <= 0 or not counts:
        return ()
    ranked = sorted(counts.values())
    least = ranked[-count] if count <= len(ranked) else ranked[0]
    return tuple(
        heapq.nsmallest(
            count,
            compress(counts.items(), map(ge, counts.values(), repeat(least))),
            key=lambda pair: (-pair[1], pair[0]),
        )
    )


def _values_at(
    items: Sequence[dict[str, Any]], positions: Sequence[int], name: str
) -> Iterator[Any]:
    """The `name` of the items at `positions`, `_ABSENT` where one lacks it:
    one look at each item, in C loops."""
    return map(
        dict.get, map(items.__getitem__, positions), repeat(name), repeat(_ABSENT)
    )


def _same_values(
    items: Sequence[dict[str, Any]], positions: Sequence[int], name: str, other: str
) -> bool:
    """Whether the items at `positions` hold the same object as their
    `name` and their `other` (or lack both). Both values taken in one
    look at each item (an item read once is most of the time), where each
    item has both; through `get`, with a mark for an absent value, when
    one does not."""
    chosen = map(items.__getitem__, positions)
    try:
        return all(starmap(is_, map(itemgetter(name, other), chosen)))
    except KeyError:
        pass
    return all(
        map(
            is_,
            _values_at(items, positions, name),
            _values_at(items, positions, other),
        )
    )


def _holding(items: Sequence[Mapping[str, Any]], names: set[str]) -> list[bool]:
    """Whether each item has every one of `names` (is in the index whose
    key they are): one test of membership per item and name, in C loops,
    where comparing each item's keys view with the set took twice as long."""
    first, *others = sorted(names)
    holds = map(contains, items, repeat(first))
    for name in others:
        holds = map(and_, holds, map(contains, items, repeat(name)))
    return list(holds)


def _name_sizes(names: set[str]) -> tuple[tuple[str, int], ...]:
    return tuple((name, len(name.encode("utf-8"))) for name in sorted(names))
