"""One table in memory: its items, its secondary indexes kept up to date on
every write, the key checks DynamoDB makes, and the write units each change
costs the table and each index.

Items are native dicts (see `types`) owned by the table once written: the
engine never changes a stored dict in place, a write stores a new one. An
index stores no copy: its entries are the table's items, projected when read
(`Index.project`), with the entry size (what reading it costs) kept beside.
An item is in an index only while it has every key attribute of the index
(sparse indexes).
"""

from __future__ import annotations

import functools
import gc
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from itertools import compress, repeat
from operator import and_, itemgetter
from typing import Any, Literal, overload

from modeler.engine.capacity import Consumed, write_units
from modeler.engine.errors import (
    ItemCollectionSizeLimitExceededException,
    ValidationException,
)
from modeler.engine.expressions import MISSING, SortCondition
from modeler.engine.memory import release_free_memory
from modeler.engine.schema import IndexSpec, KeySchema, TableSpec
from modeler.engine.size import MAX_ITEM_SIZE, item_size, projection_size, value_size
from modeler.engine.store import Page, Store
from modeler.engine.types import Item, type_of

MAX_PARTITION_KEY_BYTES = 2048
MAX_SORT_KEY_BYTES = 1024
ITEM_COLLECTION_LIMIT = 10 * 1024**3
# The exact Python types of each key type (bool, a subclass of int, is not a
# number).
KEY_PYTHON_TYPES: dict[str, frozenset[type]] = {
    "S": frozenset({str}),
    "N": frozenset({Decimal, int}),
    "B": frozenset({bytes}),
}


class Index:
    """A secondary index: which items it holds, what it projects, what a
    write costs it."""

    def __init__(
        self, spec: IndexSpec, table_key: KeySchema, types: dict[str, str]
    ) -> None:
        self.spec = spec
        self.name = spec.name
        self.is_global = spec.is_global
        self.key = spec.key
        self.types = types
        self.key_attributes = frozenset(spec.key.attributes)
        self.projects_all = spec.projection.type == "ALL"
        projected = dict.fromkeys(
            spec.key.attributes + table_key.attributes + spec.projection.attributes
        )
        # None for ALL: every attribute is projected.
        self.projected: tuple[str, ...] | None = (
            None if self.projects_all else tuple(projected)
        )
        self.projected_set = frozenset(projected) if self.projected else None
        self._projected_name_sizes = tuple(
            (name, len(name.encode("utf-8"))) for name in self.projected or ()
        )
        # The size of an item's entry: the item's for ALL. Every entry of
        # another projection holds the index's key attributes and the
        # table's, with their declared types (the items' are checked before
        # they are stored): those of type S are measured together. The store
        # measures its entries with it (no method between: a call less for
        # each entry a load measures).
        self.entry_size: Callable[[Item], int] = (
            item_size
            if self.projected is None
            else projection_size(
                self._projected_name_sizes,
                tuple(
                    name
                    for name in self.projected
                    if name in spec.key.attributes + table_key.attributes
                    and types.get(name) == "S"
                ),
            )
        )
        self.key_of = itemgetter(*spec.key.attributes)
        self.store = Store(
            spec.key.partition, spec.key.sort, table_key.attributes, self.entry_size
        )
        self.last_key_attributes = tuple(
            dict.fromkeys(table_key.attributes + spec.key.attributes)
        )

    def contains(self, item: Item) -> bool:
        return item.keys() >= self.key_attributes

    def project(self, item: Item) -> Item:
        """The index entry of an item: the attributes the index holds."""
        if self.projected is None:
            return item
        return {a: item[a] for a in self.projected if a in item}

    def unchanged_by(self, touched: frozenset[str] | set[str]) -> bool:
        """Whether a write that changes only the `touched` attributes leaves
        the item's entry as it was: in the index or not, under the same key,
        with the same projected attributes (never for ALL: every attribute
        is projected)."""
        projected = self.projected_set
        return projected is not None and projected.isdisjoint(touched)

    def keeps_its_key(self, touched: frozenset[str] | set[str]) -> bool:
        """Whether a write that changes only the `touched` attributes of an
        item (present before and after) leaves the index key attributes as
        they were: the item is then in the index before and after, under the
        same key, or in neither."""
        return self.key_attributes.isdisjoint(touched)

    def holds(self, attributes: Iterable[str]) -> bool:
        """Whether every one of these attributes is projected."""
        return self.projected_set is None or self.projected_set.issuperset(attributes)

    def _entry_changed(
        self, old: Item, new: Item, touched: frozenset[str] | set[str] | None
    ) -> bool:
        if self.projected is None:
            if touched is None:
                return old != new
            # The other attributes are the old item's own values.
            return any(old.get(a, MISSING) != new.get(a, MISSING) for a in touched)
        return any(old.get(a, MISSING) != new.get(a, MISSING) for a in self.projected)

    def write_units(
        self,
        old: Item | None,
        old_size: int,
        new: Item | None,
        new_size: int,
        touched: frozenset[str] | set[str] | None = None,
    ) -> int:
        """What a table write from `old` to `new` costs this index: nothing
        when neither is in it or the entry is unchanged; one write when the
        item enters, leaves or changes projected attributes; a delete and a
        put when its index key changes. `touched`, when known, holds every
        attribute whose value `new` may not share with `old` (an update's
        top-level attributes)."""
        if touched is not None and self.unchanged_by(touched):
            return 0
        if (
            touched is not None
            and old is not None
            and new is not None
            and self.keeps_its_key(touched)
        ):
            if not self.contains(old) or not self._entry_changed(old, new, touched):
                return 0
            return write_units(
                max(
                    self.entry_size_of(old, old_size), self.entry_size_of(new, new_size)
                )
            )
        held_old = old if old is not None and self.contains(old) else None
        held_new = new if new is not None and self.contains(new) else None
        if held_old is None:
            if held_new is None:
                return 0
            return write_units(self.entry_size_of(held_new, new_size))
        if held_new is None:
            return write_units(self.entry_size_of(held_old, old_size))
        old_entry = self.entry_size_of(held_old, old_size)
        new_entry = self.entry_size_of(held_new, new_size)
        if self.key_of(held_old) != self.key_of(held_new):
            return write_units(old_entry) + write_units(new_entry)
        if self._entry_changed(held_old, held_new, touched):
            return write_units(max(old_entry, new_entry))
        return 0

    def entry_size_of(self, item: Any, table_size: int) -> int:
        """The entry size of an item whose table size is known."""
        return table_size if self.projected is None else self.entry_size(item)

    # (when it starts backfilling, when it turns ACTIVE) on the engine's
    # clock, for an index UpdateTable added; None once it is ACTIVE.
    build: tuple[float, float] | None = None

    def status(self, now: float) -> str:
        """CREATING while an added index is built, ACTIVE after."""
        if self.build is None or now >= self.build[1]:
            self.build = None
            return "ACTIVE"
        return "CREATING"

    def describe(self, now: float = 0.0) -> dict[str, Any]:
        out = self.spec.describe()
        status = self.status(now) if self.is_global else "ACTIVE"
        out.update(
            IndexStatus=status,
            IndexSizeBytes=self.store.bytes,
            ItemCount=self.store.count,
        )
        if self.build is not None:
            out["Backfilling"] = now >= self.build[0]
        return out


_SHORT_KEY = MAX_SORT_KEY_BYTES // 4


class Table:
    """A table's items and indexes."""

    def __init__(
        self,
        spec: TableSpec,
        *,
        region: str = "us-east-1",
        account: str = "123456789012",
    ) -> None:
        self.spec = spec
        self.name = spec.name
        self.key = spec.key
        self.types = spec.attribute_types
        self.key_attributes = spec.key.attributes
        self._key_names = frozenset(self.key_attributes)
        self.partition_key = spec.key.partition[0]
        self.sort_key = spec.key.sort[0] if spec.key.sort else None
        self.store = Store(spec.key.partition, spec.key.sort, (), item_size)
        self.indexes = {i.name: Index(i, spec.key, self.types) for i in spec.indexes}
        self.local_indexes = [i for i in self.indexes.values() if not i.is_global]
        # Bytes per partition key value (items and LSI entries), with LSIs only.
        self.collections: dict[Any, int] | None = {} if self.local_indexes else None
        self.created = datetime.now(UTC)
        self.id = str(uuid.uuid4())
        self.arn = f"arn:aws:dynamodb:{region}:{account}:table/{self.name}"
        # The control plane's state (see modeler.engine.control and streams).
        self.tags: dict[str, str] = {}
        self.ttl_attribute: str | None = None
        self.stream: Any = None  # the enabled stream, a streams.Stream
        self.decreases_today = 0
        self.clock: Callable[[], float] = time.monotonic
        self.last_increase: datetime | None = None
        self.last_decrease: datetime | None = None
        self._derive_key_checks()

    def _derive_key_checks(self) -> None:
        self._key_checks = self._compile_key_checks()
        # (attribute, whether an item may lack it: an index key) per S key.
        self._string_keys = tuple(
            (c[0], bool(c[3])) for c in self._key_checks if c[1] == "S"
        )
        self._other_key_checks = [c for c in self._key_checks if c[1] != "S"]
        self._checks_by_attribute = {c[0]: c for c in self._key_checks}

    def add_index(
        self, spec: IndexSpec, *, build: tuple[float, float] | None = None
    ) -> Index:
        """A global secondary index added to the table (UpdateTable), filled
        with the items that have its key attributes; `build`: see
        `Index.build`."""
        index = Index(spec, self.key, self.types)
        holds = _holding(list(self.store), spec.key.attributes)
        entries = list(compress(list(self.store), holds))
        index.store.load(
            entries, list(map(item_size, entries)) if index.projects_all else None
        )
        index.build = build
        self.indexes[spec.name] = index
        self._derive_key_checks()
        return index

    def remove_index(self, name: str) -> Index:
        index = self.indexes.pop(name)
        self._derive_key_checks()
        return index

    # --- Keys ---------------------------------------------------------------

    def _compile_key_checks(self) -> list[tuple[str, str, int, str]]:
        """(attribute, DynamoDB type, max bytes, index name or "") for every
        key attribute of the table and its indexes."""
        checks = []
        keys = [(self.key, "")] + [(i.key, i.name) for i in self.indexes.values()]
        for key, index_name in keys:
            for attr in key.attributes:
                if index_name and attr in self.key_attributes:
                    continue
                limit = (
                    MAX_PARTITION_KEY_BYTES
                    if attr in key.partition
                    else MAX_SORT_KEY_BYTES
                )
                checks.append((attr, self.types[attr], limit, index_name))
        return checks

    def check_item(
        self, item: Item, *, update: bool = False, size: int | None = None
    ) -> int:
        """Check an item's key attributes and size as a write does; return
        its size (`size`, when the caller knows it already)."""
        get = item.get
        # String keys first, as most are: present, not empty, and short
        # enough for their byte length not to matter (at most 4 bytes a
        # character, 1024 bytes for a sort key).
        for attr, optional in self._string_keys:
            value = get(attr, MISSING)
            if type(value) is not str or not value or len(value) > _SHORT_KEY:
                if optional and value is MISSING:
                    continue  # the item is not in that index
                _check_key_attribute(
                    *self._checks_by_attribute[attr], value=value, update=update
                )
        for attr, kind, limit, index_name in self._other_key_checks:
            value = get(attr, MISSING)
            if type(value) not in KEY_PYTHON_TYPES[kind] or (
                kind == "B" and (not value or len(value) > limit)
            ):
                _check_key_attribute(
                    attr, kind, limit, index_name, value=value, update=update
                )
        if size is None:
            size = item_size(item)
        if size > MAX_ITEM_SIZE:
            raise ValidationException(
                "Item size to update has exceeded the maximum allowed size"
                if update
                else "Item size has exceeded the maximum allowed size"
            )
        return size

    def check_key(self, key: Item) -> None:
        """Check the Key of GetItem, UpdateItem, DeleteItem...: exactly the
        table's key attributes, with their declared types."""
        if key.keys() != self._key_names:  # exactly these names, in C
            raise ValidationException(
                "The provided key element does not match the schema"
            )
        for attr in self.key_attributes:
            value = key[attr]
            kind = self.types[attr]
            if type(value) not in KEY_PYTHON_TYPES[kind]:
                raise ValidationException(
                    "The provided key element does not match the schema"
                )
            if kind != "N" and not value:
                what = "string" if kind == "S" else "binary"
                raise ValidationException(
                    "One or more parameter values are not valid. The AttributeValue "
                    f"for a key attribute cannot contain an empty {what} value. Key: "
                    f"{attr}"
                )

    def key_of(self, item: Item) -> Item:
        return {a: item[a] for a in self.key_attributes}

    def index(self, name: str) -> Index:
        index = self.indexes.get(name)
        if index is None:
            raise ValidationException(
                f"The table does not have the specified index: {name}"
            )
        if index.build is not None and index.status(self.clock()) != "ACTIVE":
            raise ValidationException(
                f"Cannot read from backfilling global secondary index: {name}"
            )
        return index

    # --- Reads --------------------------------------------------------------

    def get(self, key: Item) -> tuple[Item, int] | None:
        """The stored item with this key and its size, or None."""
        return self.store.find(key)

    def query(
        self,
        index: Index | None,
        partition_key: Any,
        conditions: Sequence[SortCondition],
        **options: Any,
    ) -> Page:
        store = index.store if index else self.store
        return store.query(partition_key, conditions, **options)

    def scan(self, index: Index | None, **options: Any) -> Page:
        store = index.store if index else self.store
        return store.scan(**options)

    def __len__(self) -> int:
        return self.store.count

    def __iter__(self) -> Iterator[Item]:
        return iter(self.store)

    # --- Writes -------------------------------------------------------------

    def write_cost(
        self,
        current: tuple[Item, int] | None,
        new: Item | None,
        new_size: int,
        touched: frozenset[str] | set[str] | None = None,
    ) -> Consumed:
        """The write units of replacing `current` (as `get` returned it) by
        `new` (None deletes), for the table and each index it touches
        (`touched`: see `Index.write_units`)."""
        old, old_size = current if current else (None, 0)
        cost = Consumed(
            self.name, write=True, table=write_units(max(old_size, new_size))
        )
        for index in self.indexes.values():
            units = index.write_units(old, old_size, new, new_size, touched)
            if units:
                group = cost.global_indexes if index.is_global else cost.local_indexes
                group[index.name] = float(units)
        return cost

    @overload
    def write(
        self,
        current: tuple[Item, int] | None,
        new: Item | None,
        new_size: int,
        touched: frozenset[str] | set[str] | None = None,
        *,
        counted: Literal[True] = True,
        recorded: bool = True,
    ) -> Consumed: ...

    @overload
    def write(
        self,
        current: tuple[Item, int] | None,
        new: Item | None,
        new_size: int,
        touched: frozenset[str] | set[str] | None = None,
        *,
        counted: bool,
        recorded: bool = True,
    ) -> Consumed | None: ...

    def write(
        self,
        current: tuple[Item, int] | None,
        new: Item | None,
        new_size: int,
        touched: frozenset[str] | set[str] | None = None,
        *,
        counted: bool = True,
        recorded: bool = True,
    ) -> Consumed | None:
        """Replace `current` (as `get` returned it, or None) by `new` (None
        deletes) in the table and its indexes; return the units consumed
        (None unless `counted`: a request that returns no ConsumedCapacity
        need not weigh every index's entries). `touched`, when known, holds
        every attribute whose value `new` may not share with the current
        item (an update's top-level attributes): the indexes that project
        none of them keep their entry as it is."""
        cost = self.write_cost(current, new, new_size, touched) if counted else None
        old = current[0] if current else None
        if old is None and new is None:  # deleting a missing item: a no-op
            return cost
        if self.collections is not None:
            self._account_collection(old, current[1] if current else 0, new, new_size)
        if old is not None and new is not None:
            self.store.replace(old, new, new_size)
        elif old is not None:
            self.store.remove(old)
        elif new is not None:
            self.store.insert(new, new_size)
        for index in self.indexes.values():
            # `keeps_its_key`, `contains`, `unchanged_by` and `entry_size_of`
            # written out: an update of attributes no index key holds, the
            # usual one, tests each index in these lines.
            key_attributes = index.key_attributes
            if (
                touched is not None
                and old is not None
                and new is not None
                and key_attributes.isdisjoint(touched)
            ):
                if not old.keys() >= key_attributes:
                    continue
                projected = index.projected_set
                if projected is not None and projected.isdisjoint(touched):
                    index.store.swap(old, new)
                else:
                    index.store.replace(
                        old,
                        new,
                        new_size if projected is None else index.entry_size(new),
                    )
                continue
            held_old = old if old is not None and index.contains(old) else None
            held_new = new if new is not None and index.contains(new) else None
            if (
                held_old is not None
                and held_new is not None
                and index.key_of(held_old) == index.key_of(held_new)
            ):
                index.store.replace(
                    held_old, held_new, index.entry_size_of(held_new, new_size)
                )
                continue
            if held_old is not None:
                index.store.remove(held_old)
            if held_new is not None:
                index.store.insert(held_new, index.entry_size_of(held_new, new_size))
        if self.stream is not None and recorded:
            self.stream.append(old, new)
        return cost

    def _account_collection(
        self, old: Item | None, old_size: int, new: Item | None, new_size: int
    ) -> None:
        collections = self.collections
        item = old if old is not None else new
        if collections is None or item is None:  # no LSI, or a no-op
            return

        def footprint(item: Item | None, size: int) -> int:
            if item is None:
                return 0
            return size + sum(
                i.entry_size_of(item, size)
                for i in self.local_indexes
                if i.contains(item)
            )

        pk = item[self.partition_key]
        delta = footprint(new, new_size) - footprint(old, old_size)
        total = collections.get(pk, 0) + delta
        if delta > 0 and total > ITEM_COLLECTION_LIMIT:
            raise ItemCollectionSizeLimitExceededException(
                "Item collection size limit exceeded for partition key "
                f"{self.partition_key}; the limit is 10 GB per partition key value "
                "on a table with local secondary indexes"
            )
        if total:
            collections[pk] = total
        else:
            collections.pop(pk, None)

    def collection_size(self, partition_key: Any) -> int:
        """Bytes of one item collection (items and LSI entries), or 0."""
        return (self.collections or {}).get(partition_key, 0)

    def load(self, items: Iterable[Item], sizes: list[int] | None = None) -> int:
        """Add many items at once: keys and sizes are checked, no capacity is
        counted, each partition is sorted once at the end. A later item with
        the key of an earlier one replaces it, as a put would. Into a table
        that already has items, the items are put one by one. The table
        keeps the item dicts, which must not be changed afterwards. Each
        item's size, in the items' order, is added to `sizes` when given:
        the load measures every item, and a caller that needs the sizes too
        (the review) need not measure them again."""
        if self.store.count:
            count = 0
            for item in items:
                size = self.check_item(item)
                self.write(self.get(item), item, size, counted=False, recorded=False)
                if sizes is not None:
                    sizes.append(size)
                count += 1
            return count
        # The load creates millions of containers and no reference cycles:
        # the cyclic garbage collector would only walk them again and again.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._bulk_load(items, sizes)
        finally:
            if collecting:
                gc.enable()
            # What the load's temporaries (and the making of the items
            # before it) took and left free, back to the system.
            release_free_memory()

    def _bulk_load(self, items: Iterable[Item], measured: list[int] | None) -> int:
        # Checked first (a bad item stops the load before anything is
        # stored), then each store built by one pass over its entries.
        entries = items if type(items) is list else list(items)
        check = (
            _load_check(self._string_keys)(self.check_item)
            if not self._other_key_checks
            else self.check_item
        )
        # One int object per distinct size, as the items' sizes are kept (the
        # caller's `measured`): most are past the 256 small ints Python
        # shares, and a million items have a few hundred distinct sizes
        # (8 bytes an item less than an int each).
        distinct: dict[int, int] = {}
        same = distinct.setdefault
        sizes = [same(size, size) for size in map(check, entries)]
        if measured is not None:
            measured.extend(sizes)
        replaced = self.store.load(entries, sizes, unique=True)
        self.store.set_bytes(sum(sizes) - sum(map(item_size, replaced)))
        if replaced:
            gone = {id(item) for item in replaced}
            kept = [id(item) not in gone for item in entries]
            entries = list(compress(entries, kept))
            sizes = list(compress(sizes, kept))
        for index in self.indexes.values():
            holds = _holding(entries, index.key.attributes)
            held = list(compress(sizes, holds)) if index.projects_all else None
            index.store.load(list(compress(entries, holds)), held)
            if held is not None:  # its entries' sizes are the items' own
                index.store.set_bytes(sum(held))
        if self.collections is not None:
            self._recount_collections()
        return len(entries)

    def _recount_collections(self) -> None:
        collections: dict[Any, int] = {}
        for pk, partition in self.store.partitions.items():
            entries = self.store.entries(partition)
            sizes = self.store.sizes(partition)
            collections[pk] = sum(sizes) + sum(
                i.entry_size_of(e, s)
                for e, s in zip(entries, sizes, strict=True)
                for i in self.local_indexes
                if i.contains(e)
            )
        self.collections = collections

    # --- Description --------------------------------------------------------

    def describe(self, status: str | None = None) -> dict[str, Any]:
        spec = self.spec
        now = self.clock()
        gsis = [i for i in self.indexes.values() if i.is_global]
        building = any(i.status(now) != "ACTIVE" for i in gsis)
        throughput: dict[str, Any] = {"NumberOfDecreasesToday": self.decreases_today}
        if self.last_increase is not None:
            throughput["LastIncreaseDateTime"] = self.last_increase
        if self.last_decrease is not None:
            throughput["LastDecreaseDateTime"] = self.last_decrease
        throughput["ReadCapacityUnits"] = (spec.throughput or {}).get(
            "ReadCapacityUnits", 0
        )
        throughput["WriteCapacityUnits"] = (spec.throughput or {}).get(
            "WriteCapacityUnits", 0
        )
        out: dict[str, Any] = {
            "AttributeDefinitions": [
                {"AttributeName": a, "AttributeType": t}
                for a, t in spec.attribute_types.items()
            ],
            "TableName": self.name,
            "KeySchema": spec.key.describe(),
            "TableStatus": status or ("UPDATING" if building else "ACTIVE"),
            "CreationDateTime": self.created,
            "ProvisionedThroughput": throughput,
            "TableSizeBytes": self.store.bytes,
            "ItemCount": self.store.count,
            "TableArn": self.arn,
            "TableId": self.id,
        }
        if spec.billing_mode == "PAY_PER_REQUEST":
            out["BillingModeSummary"] = {"BillingMode": "PAY_PER_REQUEST"}
        elif self.last_increase or self.last_decrease:
            out["BillingModeSummary"] = {"BillingMode": "PROVISIONED"}
        if self.local_indexes:
            out["LocalSecondaryIndexes"] = [
                {**i.describe(now), "IndexArn": f"{self.arn}/index/{i.name}"}
                for i in self.local_indexes
            ]
            for entry in out["LocalSecondaryIndexes"]:
                entry.pop("IndexStatus")
        if gsis:
            out["GlobalSecondaryIndexes"] = [
                {**i.describe(now), "IndexArn": f"{self.arn}/index/{i.name}"}
                for i in gsis
            ]
            for entry, index in zip(out["GlobalSecondaryIndexes"], gsis, strict=True):
                entry.setdefault(
                    "ProvisionedThroughput",
                    {
                        "NumberOfDecreasesToday": 0,
                        "ReadCapacityUnits": (index.spec.throughput or {}).get(
                            "ReadCapacityUnits", 0
                        ),
                        "WriteCapacityUnits": (index.spec.throughput or {}).get(
                            "WriteCapacityUnits", 0
                        ),
                    },
                )
                entry["ProvisionedThroughput"].setdefault("NumberOfDecreasesToday", 0)
        if self.stream is not None:
            out["StreamSpecification"] = {
                "StreamEnabled": True,
                "StreamViewType": self.stream.view_type,
            }
            out["LatestStreamLabel"] = self.stream.label
            out["LatestStreamArn"] = self.stream.arn
        for name, value in spec.extras:
            if name != "StreamSpecification":
                out.setdefault(name, value)
        return out


# A few tables' layouts of keys in a process (each design has one).
@functools.lru_cache(maxsize=64)
def _load_check(
    string_keys: tuple[tuple[str, bool], ...],
) -> Callable[[Callable[[Item], int]], Callable[[Item], int]]:
    """`Table.check_item` as the bulk load calls it for every item, for a
    table whose keys are all strings (`string_keys`: each one's name and
    whether an item may lack it), given `check_item` itself: each key's
    test written out in a line of its own, its name a constant (the loop
    over the pairs and their unpacking were a third of a check's time). A
    key that an item may lack is tested by `in` before it is read, without a
    call of the item's get: most items lack most of a table's index keys (a
    line item four of eight). An item that any test doubts is checked by
    `check_item`, which raises its error (or finds nothing wrong, and gives
    the same size)."""
    tests = "".join(
        f"""
        if {name!r} in item:
            value = item[{name!r}]
            if type(value) is not str or not value or len(value) > SHORT:
                return check_item(item)"""
        if optional
        else f"""
        value = item.get({name!r}, MISSING)
        if type(value) is not str or not value or len(value) > SHORT:
            return check_item(item)"""
        for name, optional in string_keys
    )
    source = f"""
def make(check_item):
    def check(item):{tests}
        size = item_size(item)
        if size > MAX_ITEM_SIZE:
            return check_item(item)
        return size

    return check
"""
    namespace: dict[str, Any] = {
        "MISSING": MISSING,
        "SHORT": _SHORT_KEY,
        "MAX_ITEM_SIZE": MAX_ITEM_SIZE,
        "item_size": item_size,
    }
    exec(compile(source, f"<load check of {len(string_keys)} keys>", "exec"), namespace)  # noqa: S102 - our own source
    make: Callable[[Callable[[Item], int]], Callable[[Item], int]] = namespace["make"]
    return make


def _holding(items: list[Item], attributes: Sequence[str]) -> list[bool]:
    """Whether each item has every one of the attributes (an index holds
    the items that have all its key attributes: sparse indexes). One test
    of membership per item and attribute, in C loops: twice as quick as
    comparing each item's keys view with the set of them."""
    first, *others = attributes
    holds = map(dict.__contains__, items, repeat(first))
    for attribute in others:
        holds = map(and_, holds, map(dict.__contains__, items, repeat(attribute)))
    return list(holds)


def _check_key_attribute(
    attr: str, kind: str, limit: int, index_name: str, *, value: Any, update: bool
) -> None:
    """Raise DynamoDB's error for a bad key attribute of an item (a missing
    index key attribute is fine: the item is not in that index); `update`
    when the item is the result of an UpdateExpression."""
    if value is MISSING:
        if index_name:
            return
        raise ValidationException(
            f"One or more parameter values were invalid: Missing the key {attr} in the "
            "item"
        )
    if type(value) not in KEY_PYTHON_TYPES[kind]:
        actual = _type_name(value)
        if index_name:
            raise ValidationException(
                "One or more parameter values were invalid: Type mismatch for Index "
                f"Key {attr} Expected: {kind} Actual: {actual} IndexName: {index_name}"
            )
        raise ValidationException(
            "One or more parameter values were invalid: Type mismatch for key "
            f"{attr} expected: {kind} actual: {actual}"
        )
    if kind == "N":
        return
    if not value:
        what = "string" if kind == "S" else "binary"
        if index_name and update:
            raise ValidationException(
                "One or more parameter values are not valid. The update expression "
                "attempted to update a secondary index key to a value that is not "
                "supported. The AttributeValue for a key attribute cannot contain an "
                f"empty {what} value."
            )
        if index_name:
            raise ValidationException(
                "One or more parameter values are not valid. A value specified for a "
                "secondary index key is not supported. The AttributeValue for a key "
                f"attribute cannot contain an empty {what} value. IndexName: "
                f"{index_name}, IndexKey: {attr}"
            )
        raise ValidationException(
            "One or more parameter values are not valid. The AttributeValue for a key "
            f"attribute cannot contain an empty {what} value. Key: {attr}"
        )
    if value_size(value) > limit:
        _key_too_long(limit)


def _type_name(value: Any) -> str:
    try:
        return type_of(value)
    except TypeError:
        return type(value).__name__


def _key_too_long(limit: int) -> None:
    if limit == MAX_PARTITION_KEY_BYTES:
        # DynamoDB's wording, missing space included.
        raise ValidationException(
            "One or more parameter values were invalid: Size of hashkey has exceeded "
            f"the maximum size limit of{MAX_PARTITION_KEY_BYTES} bytes"
        )
    raise ValidationException(
        "One or more parameter values were invalid: Aggregated size of all range keys "
        f"has exceeded the size limit of {MAX_SORT_KEY_BYTES} bytes"
    )
