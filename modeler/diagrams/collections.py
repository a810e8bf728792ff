"""Item collections as DynamoDB stores them, read from the simulator's
engine: for the table or one index, the partitions with their items in
sort-key byte order, each item projected as the index holds it. Items
without the index's keys are not in it (sparse indexes), so they are
absent here too."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from modeler import design as d
from modeler.diagrams.keymap import projection_text
from modeler.engine.store import Store
from modeler.engine.table import Index as EngineIndex
from modeler.engine.table import Table as EngineTable
from modeler.engine.types import Item, number_text, to_json_wire
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


def key_text(value: Any) -> str:
    """A partition or sort key value; a multi-attribute key's parts joined."""
    if isinstance(value, tuple):
        return " | ".join(value_text(v) for v in value)
    return value_text(value)


class Collections:
    """The item collections of a simulated table and of each index."""

    def __init__(self, simulation: Simulation) -> None:
        self.simulation = simulation
        self.design = simulation.design
        self.table: EngineTable = simulation.client.engine.tables[
            self.design.table.name
        ]
        self.infos = {i.name: i for i in index_infos(self.design)}
        self.colours = {e.name: n % 10 for n, e in enumerate(self.design.entities)}
        self.table_key_names = [a.name for a in self.design.table.key_attributes]
        self.key_names = {a.name for a in self.design.table.all_key_attributes()}

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

    def _selected(
        self,
        index: str,
        *,
        entity: str = "",
        contains: str = "",
        keys: Sequence[str] = (),
    ) -> list[tuple[str, list[Item]]]:
        """The partitions that match, in key order, each with its entries
        (of `entity` only, when given) in sort order."""
        store, _ = self._store(index)
        wanted = set(keys)
        chosen = []
        for pk, partition in store.partitions.items():
            text = key_text(pk)
            if wanted and text not in wanted:
                continue
            if contains and contains not in text:
                continue
            entries = list(store.entries(partition))
            if entity:
                entity_of = self.simulation.entity_of
                entries = [e for e in entries if entity_of(e) == entity]
                if not entries:
                    continue
            chosen.append((_order_key(pk), text, entries))
        chosen.sort(key=lambda c: c[0])
        return [(text, entries) for _, text, entries in chosen]

    def item_view(
        self, item: Item, info: IndexInfo, engine_index: EngineIndex | None
    ) -> ItemView:
        entity = self.simulation.entity_of(item)
        entry = engine_index.project(item) if engine_index is not None else item
        keys = set(info.partition_key) | set(info.sort_key)
        sort_key = (
            key_text(tuple(entry[a] for a in info.sort_key))
            if len(info.sort_key) > 1
            else value_text(entry[info.sort_key[0]])
            if info.sort_key
            else ""
        )
        # The item's own attributes first, then the table's key (in an
        # index), then the keys of other indexes.
        names = [a for a in entry if a not in keys and a not in self.key_names]
        names += [a for a in self.table_key_names if a not in keys and a in entry]
        names += [
            a
            for a in entry
            if a not in keys and a in self.key_names and a not in self.table_key_names
        ]
        return ItemView(
            entity,
            self.colours.get(entity) if entity else None,
            sort_key,
            tuple((name, value_text(entry[name])) for name in names),
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
        item_count = sum(len(entries) for _, entries in selected)
        pages = max(1, -(-item_count // per_page))
        page = min(max(page, 1), pages)
        first, last = (page - 1) * per_page, page * per_page
        partitions = []
        position = 0
        for text, entries in selected:
            end = position + len(entries)
            if end > first and position < last:
                start = max(first - position, 0)
                shown = entries[start : min(len(entries), last - position)]
                partitions.append(
                    PartitionView(
                        text,
                        tuple(self.item_view(e, info, engine_index) for e in shown),
                        len(entries),
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
        views = [
            PartitionView(
                text,
                tuple(
                    self.item_view(e, info, engine_index) for e in entries[:max_items]
                ),
                len(entries),
            )
            for text, entries in selected[:max_partitions]
        ]
        return views, max(0, len(selected) - max_partitions)

    def partition_keys(self, index: str) -> Iterable[str]:
        store, _ = self._store(self.info(index).name)
        return (key_text(pk) for pk in store.partitions)


def _order_key(pk: Any) -> Any:
    """Partitions listed in key order (DynamoDB places them by a hash of
    the key; an order makes them easy to find): strings by code point,
    which is UTF-8 byte order, numbers by value, binaries by bytes."""
    parts = pk if isinstance(pk, tuple) else (pk,)
    return tuple(
        (0, p)
        if isinstance(p, str)
        else (1, p)
        if isinstance(p, bytes)
        else (2, Decimal(p))
        for p in parts
    )
