"""Sorted storage of the entries of a table or of one index.

Entries are grouped by partition key value (a tuple for a multi-attribute
key) and each partition is kept sorted as DynamoDB keeps it:

- by the sort key: S by UTF-8 bytes, which is Python's `str` order for every
  valid string (code point order equals UTF-8 byte order), N by numeric value
  (`Decimal`), B by unsigned bytes;
- for an index, entries with the same index sort key (or all entries, when
  the index has no sort key) are then ordered by the table's primary key.

The entries are the item dicts themselves, shared with the table (an index
of any projection references the table's item and projects it when read), so
an index entry costs a list slot and four bytes of size. A partition of one
entry is stored as the bare item; a larger one is a `Partition`: an `array`
of the entries' sizes holding a plain list (a tuple until written) of the
items, searched with `bisect` on the order key.

Scan order is DynamoDB's: partitions in the order of a hash of their key,
entries in sort order; parallel-scan segments are ranges of that hash.
"""

from __future__ import annotations

import hashlib
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain, groupby, islice
from operator import itemgetter, lt
from typing import TYPE_CHECKING, Any, cast, final

from modeler.engine.expressions import SortCondition
from modeler.engine.types import Item, number_text

MAX_PAGE_BYTES = 1_048_576
HASH_SPACE = 1 << 64
# A partition of at least this many entries that a write searches keeps the
# first order attribute of each entry in a list beside them (see `Store`).
KEYED_ENTRIES = 64


# An array of sizes; array[int] only to the checker (not subscriptable
# before Python 3.12).
if TYPE_CHECKING:
    _Sizes = array[int]
else:
    _Sizes = array


# `array.__new__`, which makes a Partition when called with its class.
_array_new: Callable[..., Any] = array.__new__


# Final: no subclass, so that `type(p) is Partition` (faster than
# isinstance on this path) tells the checker `p` is an item.
@final
class Partition(_Sizes):
    """Two or more entries of one partition in order: the array of their
    sizes (`partition[i]`: the size of entry i as read, the item or the
    projected index entry), with the entries' list in `entries`: two
    objects, not a holder of a list and an array (24 bytes less for each
    of the half a million partitions of a million items).

    The entries are an exact list, not a list subclass: `bisect` and
    indexing read a subclass through its `__getitem__` method, which made
    every search of a large partition about half as slow again. A bulk
    load gives a tuple, made a list when the partition is first written
    (`writable`): a tuple is one object, without a list's buffer apart
    (about 20 bytes less for each of the half a million partitions of a
    million items, most of them never written)."""

    __slots__ = ("entries",)
    entries: list[Item] | tuple[Item, ...]

    def __new__(
        cls, entries: list[Item] | tuple[Item, ...], sizes: Iterable[int]
    ) -> Partition:
        # A list or tuple of sizes makes an array of their exact length.
        # The array's own __new__, called as it is: no super() object nor
        # call of `cast` (a fifth of the making of a partition, which a
        # load of a million items makes more than half a million times).
        partition: Partition = _array_new(cls, "I", sizes)
        partition.entries = entries
        return partition

    def writable(self) -> list[Item]:
        """The entries, a list that a write changes in place."""
        entries = self.entries
        if type(entries) is not list:
            entries = self.entries = list(entries)
        return entries


@dataclass
class Page:
    """The entries one request read, in order, and why it stopped."""

    items: list[Item] = field(default_factory=list)
    bytes: int = 0
    last: Item | None = None  # the last entry read, when the page stopped early


def _unordered(item: Item) -> Any:
    """The order of a store without order attributes, whose partitions hold
    one entry each: never called."""
    raise AssertionError("a store without order attributes has no order")


def _after_prefix(prefix: Any) -> Any:
    """`prefix` with its last character (byte) one higher: the values that
    begin with `prefix` are those from `prefix` up to it, excluded. None
    when there is none (empty, or the last is the highest there is)."""
    if type(prefix) is str:
        if prefix and prefix[-1] != "\U0010ffff":
            return prefix[:-1] + chr(ord(prefix[-1]) + 1)
    elif type(prefix) is bytes and prefix and prefix[-1] != 0xFF:
        return prefix[:-1] + bytes((prefix[-1] + 1,))
    return None


class Store:
    """The entries of a table or of one index, by partition, in order."""

    def __init__(
        self,
        partition_attributes: tuple[str, ...],
        sort_attributes: tuple[str, ...],
        tiebreak_attributes: tuple[str, ...],
        entry_size: Callable[[Item], int],
    ) -> None:
        self.partition_attributes = partition_attributes
        self.sort_attributes = sort_attributes
        self.partition_of = itemgetter(*partition_attributes)
        order = (
            sort_attributes
            + tuple(a for a in tiebreak_attributes if a not in sort_attributes)
            if sort_attributes
            else tiebreak_attributes
        )
        self.order_attributes = order
        self.order_of: Callable[[Item], Any] | None = (
            itemgetter(*order) if order else None
        )
        # The getter where a partition holds two entries or more, which only
        # a store with order attributes makes.
        self._order: Callable[[Item], Any] = self.order_of or _unordered
        # The first order attribute alone: finding a stored entry by it
        # builds no tuple per step, and compares one value.
        self._first_of = itemgetter(order[0]) if len(order) > 1 else self._order
        self._single_order = len(order) == 1
        # The first order attribute of each entry of a large partition
        # (KEYED_ENTRIES or more) that a write has searched, by partition
        # key, in the entries' order: a search of it is `bisect` comparing
        # the values themselves in C, without reading each probed entry's
        # dict (a GSI's partitions of thousands of items lie far apart in
        # memory). A list slot per entry, for the partitions written only.
        self._keys: dict[Any, list[Any]] = {}
        # Where `find` last found an entry: a write that follows finds it
        # there again without a search (checked: the entry must be there).
        self._found: tuple[Partition, int] | None = None
        # Getters of the first k sort attributes, for key conditions on a
        # prefix of a multi-attribute sort key.
        self._prefix = [
            itemgetter(*sort_attributes[:k]) for k in range(1, len(sort_attributes) + 1)
        ]
        self.entry_size = entry_size
        self.partitions: dict[Any, Item | Partition] = {}
        self.count = 0
        # The sum of entry sizes, or None until asked for after a bulk load.
        self._bytes: int | None = 0
        # The partitions in Scan order (their hashes, sorted, and their
        # keys), made when first scanned, then kept up to date.
        self._scan: tuple[array, list[Any]] | None = None

    # --- Lookup -------------------------------------------------------------

    def entries(self, partition: Item | Partition) -> Sequence[Item]:
        return partition.entries if type(partition) is Partition else (partition,)

    def sizes(self, partition: Item | Partition) -> Sequence[int]:
        if type(partition) is Partition:
            return partition
        return (self.entry_size(partition),)

    def find(self, key: Item) -> tuple[Item, int] | None:
        """The entry with this key (its partition and order attributes) and
        its size, or None."""
        pk = self.partition_of(key)
        partition = self.partitions.get(pk)
        if partition is None:
            return None
        order = self.order_of
        if type(partition) is not Partition:
            if order is None or order(partition) == order(key):
                return partition, self.entry_size(partition)
            return None
        order = self._order
        target = order(key)
        entries = partition.entries
        keys = self._keys.get(pk)
        if keys is None:
            i = bisect_left(entries, target, key=order)
        elif self._single_order:  # `_bisect_keyed`'s search, written out
            i = bisect_left(keys, target)
        else:
            i = self._bisect_keyed(keys, entries, key, target, right=False)
        if i < len(entries) and order(entries[i]) == target:
            self._found = (partition, i)
            return entries[i], partition[i]
        return None

    def _keyed(self, pk: Any, partition: Partition) -> list[Any] | None:
        """The partition's list of first order attributes, made when it is
        large enough to keep one; None for a smaller one."""
        keys = self._keys.get(pk)
        if keys is None and len(partition.entries) >= KEYED_ENTRIES:
            keys = self._keys[pk] = list(map(self._first_of, partition.entries))
        return keys

    def _bisect_keyed(
        self,
        keys: list[Any],
        entries: Sequence[Item],
        entry: Item,
        target: Any,
        *,
        right: bool,
    ) -> int:
        """`bisect_left` (`bisect_right` with `right`) of the order key
        `target` of `entry` (an entry or a key) among the entries, searching
        their first order attributes `keys` first."""
        first = self._first_of(entry)
        lo = bisect_left(keys, first)
        if self._single_order:
            return bisect_right(keys, first, lo) if right else lo
        hi = bisect_right(keys, first, lo)
        if lo == hi:
            return lo
        search = bisect_right if right else bisect_left
        return search(entries, target, lo, hi, key=self._order)

    # --- Changes ------------------------------------------------------------

    def insert(self, item: Item, size: int) -> None:
        """Add an entry; no entry with the same key may be present."""
        pk = self.partition_of(item)
        partition = self.partitions.get(pk)
        if partition is None:
            self.partitions[pk] = item
            self._scan_add(pk)
        elif type(partition) is not Partition:
            order = self._order
            first_size = self.entry_size(partition)
            if order(item) < order(partition):
                self.partitions[pk] = Partition([item, partition], (size, first_size))
            else:
                self.partitions[pk] = Partition([partition, item], (first_size, size))
        else:
            order = self._order
            keys = self._keyed(pk, partition)
            if keys is None:
                i = bisect_right(partition.entries, order(item), key=order)
            else:
                i = self._bisect_keyed(
                    keys, partition.entries, item, order(item), right=True
                )
                keys.insert(i, self._first_of(item))
            partition.writable().insert(i, item)
            partition.insert(i, size)
        self.count += 1
        if self._bytes is not None:
            self._bytes += size

    def remove(self, item: Item) -> None:
        """Remove the entry `item` (the stored object itself)."""
        pk = self.partition_of(item)
        partition = self.partitions[pk]
        if type(partition) is not Partition:
            del self.partitions[pk]
            self._scan_remove(pk)
            self.count -= 1
            if self._bytes is not None:
                self._bytes -= self.entry_size(partition)
            return
        i = self._position(pk, partition, item)
        del partition.writable()[i]
        size = partition.pop(i)
        keys = self._keys.get(pk)
        if keys is not None:
            del keys[i]
        if self._bytes is not None:
            self._bytes -= size
        self.count -= 1
        if len(partition.entries) == 1:
            self.partitions[pk] = partition.entries[0]
            self._keys.pop(pk, None)

    def replace(self, old: Item, new: Item, size: int) -> None:
        """Put `new` in the place of `old`: same partition, same order key."""
        pk = self.partition_of(old)
        partition = self.partitions[pk]
        if type(partition) is not Partition:
            if self._bytes is not None:
                self._bytes += size - self.entry_size(partition)
            self.partitions[pk] = new
            return
        i = self._position(pk, partition, old)
        entries = partition.entries
        if type(entries) is not list:
            entries = partition.writable()
        entries[i] = new
        if self._bytes is not None:
            self._bytes += size - partition[i]
        partition[i] = size
        # The kept first order attribute of entry i, now `new`'s (an equal
        # value: the list keeps no value of an item the store dropped).
        keys = self._keys.get(pk)
        if keys is not None:
            keys[i] = self._first_of(new)

    def swap(self, old: Item, new: Item) -> None:
        """Put `new` in the place of `old`, whose entry it leaves as it was:
        same key, same size."""
        pk = self.partition_of(old)
        partition = self.partitions[pk]
        if type(partition) is not Partition:
            self.partitions[pk] = new
        else:
            i = self._position(pk, partition, old)
            entries = partition.entries
            if type(entries) is not list:
                entries = partition.writable()
            entries[i] = new
            keys = self._keys.get(pk)  # as `replace` keeps it
            if keys is not None:
                keys[i] = self._first_of(new)

    def _position(self, pk: Any, partition: Partition, item: Item) -> int:
        entries = partition.entries
        found = self._found
        if found is not None and found[0] is partition:
            i = found[1]
            if i < len(entries) and entries[i] is item:
                return i
        first = self._first_of
        keys = self._keys.get(pk)
        if keys is None:
            keys = self._keyed(pk, partition)
        if keys is None:
            i = bisect_left(entries, first(item), key=first)
        else:
            i = bisect_left(keys, first(item))
        if entries[i] is item:
            return i
        # Entries that share the first order attribute: search the rest.
        order = self._order
        i = bisect_left(entries, order(item), lo=i, key=order)
        while entries[i] is not item:  # never more than one step: keys are unique
            i += 1
        return i

    @property
    def bytes(self) -> int:
        """The sum of the entries' sizes (DescribeTable's size)."""
        if self._bytes is None:
            self._bytes = sum(
                sum(p) if type(p) is Partition else self.entry_size(p)
                for p in self.partitions.values()
            )
        return self._bytes

    def set_bytes(self, total: int) -> None:
        self._bytes = total

    def load(
        self,
        entries: list[Item],
        sizes: list[int] | None = None,
        *,
        unique: bool = False,
    ) -> list[Item]:
        """Replace the contents at once with `entries` and their sizes (None:
        measured with `entry_size` where a partition keeps them). Entries are
        grouped by partition key and each partition sorted once (a stable
        sort: entries with equal keys keep their order); with `unique`, only
        the last of entries with equal keys is kept and the others are
        returned.

        The load makes no object per entry that it then drops: the groups
        hold the entries and their sizes themselves (no position numbers,
        one int object each), and a partition's order keys (a tuple each
        for an index) are made while it is sorted. Objects made a million
        at a time and dropped at the end leave the memory they took spread
        among what is kept, held by the process (about a third again of
        what a simulation keeps). Each partition's entries (a tuple) and
        sizes are made at their exact length."""
        partition_of, order = self.partition_of, self.order_of
        first_of, single = self._first_of, self._single_order
        # The first entry of each partition, then the others in groups
        # (with the sizes, when given, each entry's after it: one list a
        # partition, not two; the groups, all held at once, are most of
        # what the load takes above what it keeps).
        heads: dict[Any, Item] = {}
        groups: dict[Any, list[Any]] = {}
        first = heads.setdefault
        if sizes is None:
            for item, pk in zip(entries, map(partition_of, entries), strict=True):
                head = first(pk, item)
                if head is not item:
                    group = groups.get(pk)
                    if group is None:
                        groups[pk] = [head, item]
                    else:
                        group.append(item)
        else:
            # By runs of a partition's entries: most partitions of a large
            # load are made with no group (see `_load_runs`).
            made = self._load_runs(entries, sizes, heads, groups)
        # The partitions of one entry keep it bare; the others become theirs.
        partitions = cast(dict[Any, Item | Partition], heads)
        dropped: list[Item] = []
        count = len(partitions) if sizes is None else made
        group_sizes: list[int] | None = None
        # Each group is taken out as its partition is made, and freed: the
        # memory it took holds the next partitions (groups all freed at the
        # end left it free among them: 4 MB of a million items).
        while groups:
            pk, group = groups.popitem()
            if sizes is not None:
                group, group_sizes = group[::2], group[1::2]
            if order is None:  # no sort key: one item per partition key
                dropped += group[:-1]
                partitions[pk] = group[-1]
                continue
            # The first order attribute alone first (an index's order is a
            # tuple an entry): when it ascends strictly, so do the whole keys.
            keys = list(map(first_of, group))
            ascending = _ascending(keys)
            if not ascending and not single:
                keys = list(map(order, group))
                ascending = _ascending(keys)
            if ascending:
                # In order already, no key twice (a family's items come so):
                # the entries as they are, with no sort and no positions.
                count += len(group) - 1
                partitions[pk] = Partition(
                    tuple(group),
                    list(map(self.entry_size, group))
                    if group_sizes is None
                    else group_sizes,
                )
                continue
            places = sorted(range(len(group)), key=keys.__getitem__)
            # Equal keys are next to each other in the sorted order: when
            # the sorted keys ascend strictly (most groups, tested in C),
            # no key is there twice and none is looked for.
            if unique and not _ascending(list(map(keys.__getitem__, places))):
                last = len(places) - 1
                kept = [
                    i
                    for n, i in enumerate(places)
                    if n == last or keys[places[n + 1]] != keys[i]
                ]
                if len(kept) < len(places):
                    held = set(kept)
                    dropped += (group[i] for i in places if i not in held)
                    places = kept
            count += len(places) - 1
            if len(places) == 1:
                partitions[pk] = group[places[0]]
                continue
            # A tuple, made at its exact length (a list grown by appending,
            # or made from an iterator, keeps room to grow).
            items = tuple(map(group.__getitem__, places))
            measured = (
                list(map(self.entry_size, items))
                if group_sizes is None
                else list(map(group_sizes.__getitem__, places))
            )
            partitions[pk] = Partition(items, measured)
        self.partitions = partitions
        self._keys = {}
        self.count = count
        self._bytes = None
        self._scan = None
        return dropped

    def _load_runs(
        self,
        entries: list[Item],
        sizes: list[int],
        heads: dict[Any, Any],
        groups: dict[Any, list[Any]],
    ) -> int:
        """`load`'s grouping of entries with their sizes, a run of entries
        of one partition at a time: a partition whose entries come one
        after the other and in order (an order's line items in the table,
        an order and its line items in an index by order) is made at once,
        with no group; the others are grouped in `groups` (entry, size,
        entry, size...; the first entry in `heads`, where each partition's
        is). Returns how many entries the partitions made hold, the first
        entries of the groups counted.

        The runs are found from the entries' keys alone and taken as
        slices of the entries and the sizes: no tuple per entry (a third of
        the grouping's time at a million items)."""
        order = self.order_of
        first_of, single = self._first_of, self._single_order
        first_size: dict[Any, int] = {}
        count = 0
        if len(sizes) != len(entries):
            raise ValueError("a size for each entry, no more")
        end = 0
        # Each run's key and length (a list of the run's keys, counted): a
        # list of every entry's key, or of where each run ends, held all at
        # once, raised the load's peak (by 5 MB at a million items).
        for pk, run in groupby(map(self.partition_of, entries)):
            start = end
            end = start + len(list(run))
            if pk not in heads:
                count += 1
                if end - start == 1:
                    heads[pk] = entries[start]
                    first_size[pk] = sizes[start]
                    continue
                if order is not None:
                    items = tuple(entries[start:end])
                    # The first order attribute alone first, as `load` tests.
                    if _ascending(list(map(first_of, items))) or (
                        not single and _ascending(list(map(order, items)))
                    ):
                        # `Partition.__new__` written out: the call of the
                        # class, through its __new__ in Python, took 0.03
                        # to 0.04 s more of each store's grouping (0.6 to
                        # 0.8 s at a million items, a partition a run).
                        made = heads[pk] = _array_new(Partition, "I", sizes[start:end])
                        made.entries = items
                        count += end - start - 1
                        continue
                heads[pk] = entries[start]
                groups[pk] = list(
                    chain.from_iterable(
                        zip(entries[start:end], sizes[start:end], strict=True)
                    )
                )
                continue
            group = groups.get(pk)
            if group is None:
                made = heads[pk]
                if type(made) is Partition:
                    # Made from its first run: grouped again with the rest
                    # (and made again from the group).
                    count -= len(made.entries) - 1
                    group = list(
                        chain.from_iterable(zip(made.entries, made, strict=True))
                    )
                else:
                    group = [made, first_size[pk]]
                groups[pk] = group
            if end - start == 1:
                group += (entries[start], sizes[start])
            else:
                group += chain.from_iterable(
                    zip(entries[start:end], sizes[start:end], strict=True)
                )
        return count

    # --- Reads --------------------------------------------------------------

    def bounds(
        self,
        entries: Sequence[Any],
        conditions: Sequence[SortCondition],
        keys: list[Any] | None = None,
    ) -> tuple[int, int]:
        """The slice of a partition's entries that satisfy key conditions on
        the first len(conditions) sort attributes (all but the last `=`);
        `keys`: the partition's first order attributes, when kept."""
        n = len(entries)
        if not conditions:
            return 0, n
        k = len(conditions)
        get: Callable[[Any], Any] | None = self._prefix[k - 1]
        if keys is not None and k == 1:
            # The first sort attribute is the first order attribute: its
            # values are searched themselves.
            entries, get = keys, None
        prefix = tuple(c.values[0] for c in conditions[:-1])
        if k > 1:
            outer = self._prefix[k - 2]
            bound = prefix if k > 2 else prefix[0]
            low = bisect_left(entries, bound, key=outer)
            high = bisect_right(entries, bound, low, n, key=outer)
        else:
            low, high = 0, n
        last = conditions[-1]
        op = last.operator

        def at(value: Any) -> Any:
            return prefix + (value,) if k > 1 else value

        if op == "=":
            lo = bisect_left(entries, at(last.values[0]), low, high, key=get)
            return lo, bisect_right(entries, at(last.values[0]), lo, high, key=get)
        if op == "<":
            return low, bisect_left(entries, at(last.values[0]), low, high, key=get)
        if op == "<=":
            return low, bisect_right(entries, at(last.values[0]), low, high, key=get)
        if op == ">":
            return bisect_right(entries, at(last.values[0]), low, high, key=get), high
        if op == ">=":
            return bisect_left(entries, at(last.values[0]), low, high, key=get), high
        if op == "BETWEEN":
            lo = bisect_left(entries, at(last.values[0]), low, high, key=get)
            return lo, bisect_right(entries, at(last.values[1]), lo, high, key=get)
        if op == "begins_with":
            start = last.values[0]
            lo = bisect_left(entries, at(start), low, high, key=get)
            after = _after_prefix(start)
            if after is not None:
                # The values that begin with `start` are those from `start`
                # up to the first value past them: a search in C, not a
                # test of each probed entry.
                return lo, bisect_left(entries, at(after), lo, high, key=get)
            if get is None:
                hi = bisect_left(
                    entries, True, lo, high, key=lambda v: not v.startswith(start)
                )
                return lo, hi
            value_of = itemgetter(self.sort_attributes[k - 1])
            hi = bisect_left(
                entries, True, lo, high, key=lambda e: not value_of(e).startswith(start)
            )
            return lo, hi
        raise ValueError(f"unknown key condition operator {op}")

    def query(
        self,
        partition_key: Any,
        conditions: Sequence[SortCondition],
        *,
        forward: bool = True,
        start: Item | None = None,
        limit: int | None = None,
        max_bytes: int = MAX_PAGE_BYTES,
    ) -> Page:
        """Read one partition's entries that satisfy the key conditions, in
        order (reversed unless `forward`), after the entry `start` (a key),
        until `limit` entries or `max_bytes` have been read."""
        page = Page()
        partition = self.partitions.get(partition_key)
        if partition is None:
            return page
        entries = self.entries(partition)
        keys = self._keys.get(partition_key) if type(partition) is Partition else None
        lo, hi = self.bounds(entries, conditions, keys)
        if start is not None and lo < hi:
            order = self.order_of
            if order is None:
                # No sort key: the partition's one entry is the start key's.
                return page
            if keys is not None:
                # The search over the whole partition, held to the bounds:
                # what the search within them finds.
                at = self._bisect_keyed(
                    keys, entries, start, order(start), right=forward
                )
                if forward:
                    lo = min(max(at, lo), hi)
                else:
                    hi = max(min(at, hi), lo)
            elif forward:
                lo = bisect_right(entries, order(start), lo, hi, key=order)
            else:
                hi = bisect_left(entries, order(start), lo, hi, key=order)
        positions = range(lo, hi) if forward else range(hi - 1, lo - 1, -1)
        self._read(entries, self.sizes(partition), positions, page, limit, max_bytes)
        return page

    def _read(
        self,
        entries: Sequence[Item],
        sizes: Sequence[int],
        positions: range,
        page: Page,
        limit: int | None,
        max_bytes: int,
    ) -> bool:
        """Append entries to the page; True when it is full (Limit or 1 MB).
        The entry that takes the page to 1 MB or past it is included, as
        DynamoDB reads it before it stops."""
        items = page.items
        total = page.bytes
        room = len(positions) if limit is None else limit - len(items)
        taken = positions[:room]
        if taken:
            # Most pages stop on their Limit or at the partition's end, far
            # from 1 MB: the whole run is taken in slices.
            if taken.step == 1:
                run = slice(taken.start, taken.stop)
            else:
                run = slice(taken.start, taken.stop if taken.stop >= 0 else None, -1)
            run_bytes = sum(sizes[run])
            if total + run_bytes < max_bytes:
                items += entries[run]
                page.bytes = total + run_bytes
                if limit is not None and len(taken) == room:
                    page.last = items[-1]
                    return True
                return False
        for i in positions:
            item = entries[i]
            items.append(item)
            total += sizes[i]
            room -= 1
            if total >= max_bytes or (room == 0 and limit is not None):
                page.bytes = total
                page.last = item
                return True
        page.bytes = total
        return False

    def scan(
        self,
        *,
        segment: int = 0,
        total_segments: int = 1,
        start: Item | None = None,
        limit: int | None = None,
        max_bytes: int = MAX_PAGE_BYTES,
    ) -> Page:
        """Read entries in scan order (partitions by key hash, entries in
        sort order) within one segment, after the entry `start`."""
        page = Page()
        hashes, keys = self._scan_order()
        low = _segment_start(segment, total_segments)
        high_hash = _segment_start(segment + 1, total_segments)
        end = (
            bisect_left(hashes, high_hash)
            if segment + 1 < total_segments
            else len(keys)
        )
        position = bisect_left(hashes, low)
        if start is not None:
            pk = self.partition_of(start)
            position = bisect_left(hashes, partition_hash(pk))
            while (
                position < len(keys)
                and hashes[position] == partition_hash(pk)
                and (keys[position] != pk)
            ):
                position += 1
            if position < len(keys) and keys[position] == pk:
                partition = self.partitions[pk]
                entries = self.entries(partition)
                # Without a sort key, the partition's one entry is the start
                # key's: nothing of it is left to read.
                lo = len(entries)
                if self.order_of is not None:
                    lo = bisect_right(entries, self.order_of(start), key=self.order_of)
                if self._read(
                    entries,
                    self.sizes(partition),
                    range(lo, len(entries)),
                    page,
                    limit,
                    max_bytes,
                ):
                    return page
                position += 1
        for i in range(position, end):
            partition = self.partitions[keys[i]]
            entries = self.entries(partition)
            if self._read(
                entries,
                self.sizes(partition),
                range(len(entries)),
                page,
                limit,
                max_bytes,
            ):
                return page
        return page

    def segment_of(self, key: Item, total_segments: int) -> int:
        """The parallel-scan segment of the partition of an entry or key."""
        return partition_hash(self.partition_of(key)) * total_segments >> 64

    def __iter__(self) -> Iterator[Item]:
        """Every entry, in scan order."""
        _, keys = self._scan_order()
        for pk in keys:
            yield from self.entries(self.partitions[pk])

    # --- Scan order ---------------------------------------------------------

    def _scan_order(self) -> tuple[array, list[Any]]:
        if self._scan is None:
            hashed = sorted(
                (partition_hash(pk), i, pk) for i, pk in enumerate(self.partitions)
            )
            self._scan = (
                array("Q", (h for h, _, _ in hashed)),
                [pk for _, _, pk in hashed],
            )
        return self._scan

    def _scan_add(self, pk: Any) -> None:
        if self._scan is not None:
            hashes, keys = self._scan
            h = partition_hash(pk)
            i = bisect_right(hashes, h)
            hashes.insert(i, h)
            keys.insert(i, pk)

    def _scan_remove(self, pk: Any) -> None:
        if self._scan is not None:
            hashes, keys = self._scan
            i = bisect_left(hashes, partition_hash(pk))
            while keys[i] != pk:
                i += 1
            del hashes[i]
            del keys[i]


def partition_hash(pk: Any) -> int:
    """A stable 64-bit hash of a partition key value (DynamoDB spreads and
    scans partitions by a hash of the key; this one is ours)."""
    parts = pk if type(pk) is tuple else (pk,)
    digest = hashlib.blake2b(digest_size=8)
    for part in parts:
        if type(part) is str:
            digest.update(b"S" + part.encode("utf-8"))
        elif type(part) is bytes:
            digest.update(b"B" + part)
        else:
            digest.update(b"N" + number_text(Decimal(part)).encode())
        digest.update(b"\x00")
    return int.from_bytes(digest.digest(), "big")


def _segment_start(segment: int, total: int) -> int:
    """The lowest hash of a parallel-scan segment: segment s of T holds the
    partitions whose hash h satisfies s <= h * T / 2**64 < s + 1."""
    return -(-(segment * HASH_SPACE) // total)


def _ascending(keys: list[Any]) -> bool:
    """Whether each key is less than the next (False where two cannot be
    compared: the sort then finds that out as it did)."""
    try:
        return all(map(lt, keys, islice(keys, 1, None)))
    except TypeError:
        return False
