"""Item collections as DynamoDB stores them, read from the simulator's
engine: for the table or one index, the partitions with their items in
sort-key byte order, each item projected as the index holds it. Items
without the index's keys are not in it (sparse indexes), so they are
absent here too."""

from __future__ import annotations

import base64
import json
import threading
import weakref
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.diagrams.keymap import projection_text
from modeler.engine.store import Store
from modeler.engine.table import Index as EngineIndex
from modeler.engine.table import Table as EngineTable
from modeler.engine.types import Item, item_from_wire, number_text, to_json_wire
from modeler.simulation import Simulation


class UnknownIndexError(LookupError):
    """The table has no index of that name."""


@dataclass(frozen=True)
class IndexInfo:
    name: str  # "table" for the base table
    kind: str  # "table", "global" or "local"
    partition_key: tuple[str, ...]
    sort_key: tuple[str, ...]
    projection: str


@dataclass(frozen=True)
class ItemView:
    entity: str | None
    colour: int | None
    sort_key: str  # "" when the index has no sort key
    attributes: tuple[tuple[str, str], ...]  # the projected non-key attributes


@dataclass(frozen=True)
class PartitionView:
    key: str
    items: tuple[ItemView, ...]
    total: int  # the partition's items (of the chosen entity)
    start: int = 0  # the position of the first item shown in the partition

    @property
    def more(self) -> int:
        return self.total - self.start - len(self.items)


@dataclass(frozen=True)
class CollectionPage:
    index: IndexInfo
    partitions: tuple[PartitionView, ...]
    partition_count: int  # partitions that match the filters
    item_count: int  # items that match the filters
    index_items: int  # items in the index, unfiltered
    table_items: int
    page: int
    pages: int
    per_page: int

    @property
    def absent(self) -> int:
        """Items of the table that are not in this index (sparse)."""
        return self.table_items - self.index_items

    @property
    def attribute_columns(self) -> int:
        """The most attributes an item on the page has: the columns a page
        that shows an attribute a column needs after the keys."""
        return max(
            (len(i.attributes) for p in self.partitions for i in p.items), default=0
        )


_kept: weakref.WeakKeyDictionary[Simulation, Collections] = weakref.WeakKeyDictionary()
_kept_guard = threading.Lock()


def collections_for(simulation: Simulation) -> Collections:
    """The Collections of a simulation, kept as long as the simulation is
    (its entity lookup and sorted partition keys are built once)."""
    with _kept_guard:
        collections = _kept.get(simulation)
        if collections is None:
            collections = _kept[simulation] = Collections(simulation)
        return collections


def index_infos(design: d.Design) -> list[IndexInfo]:
    table = design.table
    infos = [
        IndexInfo(
            "table",
            "table",
            (table.partition_key.name,),
            (table.sort_key.name,) if table.sort_key else (),
            "ALL",
        )
    ]
    for index in table.indexes:
        partition = index.partition_key or (table.partition_key,)
        infos.append(
            IndexInfo(
                index.name,
                index.kind,
                tuple(a.name for a in partition),
                tuple(a.name for a in index.sort_key),
                projection_text(index.projection),
            )
        )
    return infos


def value_text(value: Any) -> str:
    """A value as a reader expects it: strings bare, numbers as DynamoDB
    writes them, everything else as compact DynamoDB JSON content."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (Decimal, int)):
        return number_text(Decimal(value))
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if value is None:
        return "null"
    ((_, inner),) = to_json_wire(value).items()
    return json.dumps(inner, separators=(",", ":"), ensure_ascii=False)


# Longer values (a document, an image) are shown by their start and length.
SHOWN_CHARACTERS = 200


def shortened(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """`text`, or its start and its length when it is longer than `limit`."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}… ({len(text):,} characters)"


def key_text(value: Any) -> str:
    """A partition or sort key value; a multi-attribute key's parts joined."""
    if isinstance(value, tuple):
        return " | ".join(value_text(v) for v in value)
    return value_text(value)


class Collections:
    """The item collections of a simulated table and of each index."""

    def __init__(self, simulation: Simulation) -> None:
        # No reference to the simulation itself, so that one Collections can
        # be kept per simulation for as long as the simulation lives.
        self.design = simulation.design
        self._key_names = simulation.key_names
        self._position = simulation.position
        self._item_entities = simulation.entities
        self.table: EngineTable = simulation.client.engine.tables[
            self.design.table.name
        ]
        self.infos = {i.name: i for i in index_infos(self.design)}
        self.colours = {e.name: n % 10 for n, e in enumerate(self.design.entities)}
        self.table_key_names = [a.name for a in self.design.table.key_attributes]
        self.key_names = {a.name for a in self.design.table.all_key_attributes()}
        # The entity of each stored item, by identity: the simulator's
        # lookup builds a key per item, too slow for a filter over 100,000.
        self._entities = {
            id(item): entity
            for item, entity in zip(simulation.items, simulation.entities, strict=True)
        }
        self._sorted: dict[str, list[Any]] = {}
        # The user's own items (typed, imported): their partitions come
        # first, so that an imported model shows its own data.
        own_positions = {
            simulation.position.get(simulation.key_of(item_from_wire(d.thaw(wire))))
            for wire in self.design.sample_data.items
        }
        self._own_items = [
            simulation.items[i]
            for i in sorted(p for p in own_positions if p is not None)
        ]

    def info(self, index: str) -> IndexInfo:
        info = self.infos.get(index)
        if info is None:
            raise UnknownIndexError(f"the table has no index named '{index}'")
        return info

    def _store(self, index: str) -> tuple[Store, EngineIndex | None]:
        if index == "table":
            return self.table.store, None
        engine_index = self.table.indexes[index]
        return engine_index.store, engine_index

    def _entity_of(self, item: Item) -> str | None:
        if id(item) in self._entities:
            return self._entities[id(item)]
        position = self._position.get(tuple(item.get(n) for n in self._key_names))
        return self._item_entities[position] if position is not None else None

    def _selected(
        self,
        index: str,
        *,
        entity: str = "",
        contains: str = "",
        keys: Sequence[str] = (),
    ) -> list[tuple[Any, str, int]]:
        """The partitions that match, in the order of `_sorted_keys`, as
        (key, text, count of its items of `entity`, or of all)."""
        store, _ = self._store(index)
        wanted = set(keys)
        chosen = []
        for pk in self._sorted_keys(index, store):
            partition = store.partitions[pk]
            text = key_text(pk)
            if wanted and text not in wanted:
                continue
            if contains and contains not in text:
                continue
            if entity:
                entity_of = self._entity_of
                count = sum(
                    1 for e in store.entries(partition) if entity_of(e) == entity
                )
                if not count:
                    continue
            else:
                count = len(store.entries(partition))
            chosen.append((pk, text, count))
        return chosen

    def _sorted_keys(self, index: str, store: Store) -> list[Any]:
        """Partition keys in key order (DynamoDB places partitions by a hash
        of the key; an order makes them easy to find), those that hold the
        user's own items first. A key attribute has one type, so Python's
        order is DynamoDB's: strings by code point, which is UTF-8 byte
        order, numbers by value, binaries by unsigned bytes, multi-attribute
        keys part by part."""
        keys = self._sorted.get(index)
        if keys is None or len(keys) != len(store.partitions):
            keys = sorted(store.partitions)
            own = self._own_partitions(index, store)
            if own:
                keys = sorted(own) + [k for k in keys if k not in own]
            self._sorted[index] = keys
        return keys

    def _own_partitions(self, index: str, store: Store) -> set[Any]:
        _, engine_index = self._store(index)
        return {
            store.partition_of(item)
            for item in self._own_items
            if engine_index is None or engine_index.contains(item)
        }

    def _entries(self, index: str, pk: Any, entity: str) -> list[Item]:
        store, _ = self._store(index)
        entries = list(store.entries(store.partitions[pk]))
        if entity:
            entries = [e for e in entries if self._entity_of(e) == entity]
        return entries

    def item_view(
        self, item: Item, info: IndexInfo, engine_index: EngineIndex | None
    ) -> ItemView:
        entity = self._entity_of(item)
        entry = engine_index.project(item) if engine_index is not None else item
        keys = set(info.partition_key) | set(info.sort_key)
        sort_key = (
            key_text(tuple(entry[a] for a in info.sort_key))
            if len(info.sort_key) > 1
            else value_text(entry[info.sort_key[0]])
            if info.sort_key
            else ""
        )
        # Key columns first: in an index, the table's key (which item it
        # is); then the item's own attributes; then the keys of other
        # indexes.
        names = [a for a in self.table_key_names if a not in keys and a in entry]
        names += [a for a in entry if a not in keys and a not in self.key_names]
        names += [
            a
            for a in entry
            if a not in keys and a in self.key_names and a not in self.table_key_names
        ]
        return ItemView(
            entity,
            self.colours.get(entity) if entity else None,
            sort_key,
            tuple((name, shortened(value_text(entry[name]))) for name in names),
        )

    def page(
        self,
        *,
        index: str,
        entity: str = "",
        contains: str = "",
        page: int = 1,
        per_page: int = 50,
    ) -> CollectionPage:
        """One page of `per_page` items, grouped under their partitions (a
        partition cut by a page boundary continues on the next page)."""
        info = self.info(index)
        store, engine_index = self._store(index)
        selected = self._selected(index, entity=entity, contains=contains)
        item_count = sum(count for _, _, count in selected)
        pages = max(1, -(-item_count // per_page))
        page = min(max(page, 1), pages)
        first, last = (page - 1) * per_page, page * per_page
        partitions = []
        position = 0
        for pk, text, count in selected:
            end = position + count
            if end > first and position < last:
                entries = self._entries(index, pk, entity)
                start = max(first - position, 0)
                shown = entries[start : min(count, last - position)]
                partitions.append(
                    PartitionView(
                        text,
                        tuple(self.item_view(e, info, engine_index) for e in shown),
                        count,
                        start,
                    )
                )
            position = end
            if position >= last:
                break
        return CollectionPage(
            index=info,
            partitions=tuple(partitions),
            partition_count=len(selected),
            item_count=item_count,
            index_items=store.count,
            table_items=len(self.table),
            page=page,
            pages=pages,
            per_page=per_page,
        )

    def partitions(
        self,
        *,
        index: str,
        entity: str = "",
        contains: str = "",
        keys: Sequence[str] = (),
        max_partitions: int = 10,
        max_items: int = 20,
    ) -> tuple[list[PartitionView], int]:
        """The first `max_partitions` matching partitions, each with at most
        `max_items` items, and how many more partitions matched."""
        info = self.info(index)
        _, engine_index = self._store(index)
        selected = self._selected(index, entity=entity, contains=contains, keys=keys)
        views = []
        for pk, text, count in selected[:max_partitions]:
            entries = self._entries(index, pk, entity)[:max_items]
            views.append(
                PartitionView(
                    text,
                    tuple(self.item_view(e, info, engine_index) for e in entries),
                    count,
                )
            )
        return views, max(0, len(selected) - max_partitions)

    def partition_around(
        self,
        *,
        index: str,
        key: str,
        sort_keys: Collection[str],
        max_items: int = 20,
    ) -> PartitionView | None:
        """The partition whose key reads `key`, shown from the item before
        the first whose sort key is one of `sort_keys` (the items a request
        returned, wherever they sit in a long partition), at most
        `max_items` items; None when no partition has that key."""
        info = self.info(index)
        _, engine_index = self._store(index)
        found = self._selected(index, keys=[key])
        if not found:
            return None
        pk, text, count = found[0]
        entries = self._entries(index, pk, "")
        names = info.sort_key
        first = next(
            (
                position
                for position, entry in enumerate(entries)
                if names
                and key_text(
                    tuple(entry[a] for a in names)
                    if len(names) > 1
                    else entry[names[0]]
                )
                in sort_keys
            ),
            0,
        )
        start = max(0, first - 1)
        shown = entries[start : start + max_items]
        return PartitionView(
            text,
            tuple(self.item_view(e, info, engine_index) for e in shown),
            count,
            start,
        )

    def partition_keys(self, index: str) -> Iterable[str]:
        store, _ = self._store(self.info(index).name)
        return (key_text(pk) for pk in store.partitions)
