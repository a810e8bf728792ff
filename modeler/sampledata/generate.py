"""A design's sample data: items of every entity, made from the entity's
attribute generators and key templates, exactly as the design would write
them.

Entities are made parents first: the roots (`sample.count` items each), then
for every item of a parent the children it has (`sample.per`, a count drawn
from a fixed, uniform or Zipf distribution, optionally skewed toward a few
hot parents). The items come out family by family, each parent followed by
its children, so that cutting the list short keeps whole families.

The same design and seed give the same items, byte for byte: each entity
draws its counts, and each of its attributes its values, from a random
generator of its own, seeded by the seed and the names they are drawn under
(`draw_name`: the name, or the first name of a renamed element). Neither a
rename nor the order of entities or attributes changes a value, and adding
or changing an attribute changes no other attribute's values.

An entity's items are kept (`_kept`) under a digest of what they depend on:
the table's key attributes, the entity (not its descriptions), the seed, the
scale and the digests of the entities it is made from (its parent, the
entities it picks from). Generating an edited design makes again only the
entities whose digest changed, and gives exactly the items a generation from
nothing would: kept items are used only when none of their keys meets a key
made before them in this generation and, when they were made, none of their
draws met another entity's key (either would have changed the draws).
"""

from __future__ import annotations

import bisect
import functools
import gc
import hashlib
import itertools
import math
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from operator import call, is_, itemgetter
from random import Random
from typing import Any, ClassVar

from modeler.design import model as d
from modeler.keys import MissingValueError, key_lines, key_writer
from modeler.sampledata.conversions import OMIT
from modeler.sampledata.values import (
    FAKER_POOL,
    SHARED_VALUES,
    Compiler,
    Context,
    Populations,
    SampleDataError,
    even_parts,
    forget_times_of_day,
    pooled_parts,
    position_parts,
    ref_parts,
)

# The most items one generation makes, unless the site allows more
# (`allow_items`: SAMPLE_MAX_ITEMS past a million, for a command such as
# `simulate` at ten million items).
MAX_ITEMS = 1_000_000
_max_items = MAX_ITEMS
# How many times an item is drawn again when its key is already taken.
KEY_TRIES = 8
# How many items of entities are kept between generations, at most.
KEPT_ITEMS = MAX_ITEMS


def allow_items(count: int) -> None:
    """Let a generation make up to `count` items when that is more than a
    million (the site's SAMPLE_MAX_ITEMS); never fewer than a million: the
    design check, not this ceiling, holds a design to the site's limit."""
    global _max_items
    _max_items = max(MAX_ITEMS, count)


def max_items() -> int:
    """The most items one generation makes (see `allow_items`)."""
    return _max_items


# Items an ItemStream makes before it gives them, at most about.
BLOCK_ITEMS = 4096
# Items made between two calls of `generate`'s progress callback.
PROGRESS_EVERY = 2_000


@dataclass
class Dataset:
    """Generated items and, in the same order, the entity of each."""

    items: list[dict[str, Any]]
    entities: list[str]
    # Whether no two items are known to share a table key (see DistinctDataset).
    distinct_keys: ClassVar[bool] = False

    def __len__(self) -> int:
        return len(self.items)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for entity in self.entities:
            out[entity] = out.get(entity, 0) + 1
        return out


class DistinctDataset(Dataset):
    """A Dataset no two of whose items share a table key: a generation that
    drew each key again until it was new says so, and `with_own_items`
    then has no item to drop unless the design has items of its own."""

    distinct_keys: ClassVar[bool] = True


def generate(
    design: d.Design,
    *,
    seed: int | None = None,
    scale: float = 1.0,
    limit: int | None = None,
    items: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep: bool = True,
) -> Dataset:
    """The design's sample data. `scale` multiplies the counts of the root
    entities (children follow); `limit` keeps the first items, whole
    families first; `items` asks for exactly that many items, scaling the
    roots until there are enough (fewer only when the design makes none).
    Raises SampleDataError when the design cannot make its items (the
    message names the entity and attribute), or when they would pass
    `max_items()`. `progress(made, total)` is called every PROGRESS_EVERY items
    made (kept items count as made) and once at the end; it may raise to
    stop the generation. With `keep` false the items made are not kept for
    the next generation (a command that generates once keeps the memory)."""
    # Generating makes millions of containers and no reference cycles: the
    # cyclic garbage collector would only walk them again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        dataset = _generate(design, seed, scale, limit, items, progress, keep)
    finally:
        if collecting:
            gc.enable()
    if not keep:
        # What a generation kept for the next one goes too: a command that
        # generates once holds the memory instead (4 MB of a million items).
        forget_times_of_day()
    return dataset


def _generate(
    design: d.Design,
    seed: int | None,
    scale: float,
    limit: int | None,
    item_count: int | None,
    progress: Callable[[int, int], None] | None,
    keep: bool,
) -> Dataset:
    _check_table_keys(design)
    seed = design.sample_data.seed if seed is None else seed
    if item_count is not None:
        scale, limit = _scale_for(design, seed, item_count), item_count
    populations = Populations()
    keys_made: set[int] = set()
    # Per entity: its items, and the position of each one's parent.
    made: dict[str, tuple[list[dict[str, Any]], list[int]]] = {}
    # With a limit the tail is cut off afterwards, so some overshoot is allowed.
    most = max_items()
    budget = most if limit is None else most + most // 4
    counter = None
    if progress is not None:
        planned = _planned_total(design, seed, scale)
        counter = _Counter(progress, planned if limit is None else min(planned, limit))
    digests: dict[str, str] = {}
    distinct = True
    for entity in _parents_first(design):
        digest = digests[entity.name] = _entity_digest(
            design, entity, seed, scale, digests
        )
        kept = _kept.get(digest)
        if kept is not None:
            _check_budget(entity, len(kept), budget)
            items, parents = kept.unpacked()
            hashes = _key_hashes(items, design)
            if not keys_made.isdisjoint(hashes):
                kept = None  # made again: its keys meet keys made before
            else:
                before = len(keys_made)
                keys_made.update(hashes)
                distinct = distinct and len(keys_made) == before + len(hashes)
                if counter is not None:
                    counter.add(len(items))
        if kept is None:
            # Items not kept need no second set of their own keys (see
            # `_DrawnKeys.unkept`): a million adds to it were 0.17 s.
            drawn = _DrawnKeys(keys_made) if keep else _DrawnKeys.unkept(keys_made)
            items, parents = _make_entity(
                design, entity, seed, scale, made, populations, budget, drawn, counter
            )
            if keep and not drawn.met_others:
                _kept.put(digest, _Kept.packed(items, parents))
            distinct = distinct and not drawn.repeated
        budget -= len(items)
        made[entity.name] = (items, parents)
        populations.items[entity.name] = items
    items, entities = _families(design, made)
    if limit is not None and len(items) > limit:
        del items[limit:], entities[limit:]
    if progress is not None:
        progress(len(items), len(items))
    return (DistinctDataset if distinct else Dataset)(items, entities)


class ItemStream:
    """`generate(design, seed=seed, items=items).items`, the same items in
    the same order, one at a time: the entity made last (which no other is
    made from: nothing picks from it, it has no children) is made as its
    items are taken, parent by parent, and its items, most of a design's in
    the usual one (the line items of orders), are never all held. Neither
    the kept items of earlier generations are used nor these kept (they
    would give the same items). Raises SampleDataError as `generate` does,
    some of it only while the items are taken. Once they are all taken,
    `count` is how many there were and `distinct_keys` whether no two
    shared a table key (see DistinctDataset)."""

    def __init__(
        self, design: d.Design, *, seed: int | None = None, items: int | None = None
    ) -> None:
        self.design = design
        self.seed = design.sample_data.seed if seed is None else seed
        self.wanted = items
        self.count = 0
        self.distinct_keys = True

    def __iter__(self) -> Iterator[dict[str, Any]]:
        # The items come in lists (a family, or a run of the last entity's
        # parents with their children): one resumption of the generators
        # per list, not per item.
        return itertools.chain.from_iterable(self._blocks())

    def _blocks(self) -> Iterator[list[dict[str, Any]]]:
        # As `generate`: millions of containers and no reference cycles.
        collecting = gc.isenabled()
        gc.disable()
        try:
            yield from self._made_blocks()
        finally:
            if collecting:
                gc.enable()

    def _made_blocks(self) -> Iterator[list[dict[str, Any]]]:
        design, seed = self.design, self.seed
        _check_table_keys(design)
        scale, limit = 1.0, self.wanted
        if limit is not None:
            scale = _scale_for(design, seed, limit)
        ordered = _parents_first(design)
        if not ordered:
            return
        populations = Populations()
        keys_made: set[int] = set()
        made: dict[str, tuple[list[dict[str, Any]], list[int]]] = {}
        most = max_items()
        budget = most if limit is None else most + most // 4
        for entity in ordered[:-1]:
            drawn = _DrawnKeys.unkept(keys_made)
            items, parents = _make_entity(
                design, entity, seed, scale, made, populations, budget, drawn
            )
            self.distinct_keys = self.distinct_keys and not drawn.repeated
            budget -= len(items)
            made[entity.name] = (items, parents)
            populations.items[entity.name] = items
        drawn = _DrawnKeys.unkept(keys_made)
        last = _MadeWhenTaken(
            design, ordered[-1], seed, scale, made, populations, budget, drawn
        )
        left = limit
        for block in _families_made_when_taken(design, made, last):
            if left is not None and len(block) >= left:
                yield block[:left]
                break
            if left is not None:
                left -= len(block)
            yield block
        self.distinct_keys = self.distinct_keys and not drawn.repeated
        self.count = sum(len(items) for items, _ in made.values()) + last.serial
        if limit is not None:
            self.count = min(self.count, limit)


class _MadeWhenTaken:
    """The items of one entity made a parent's children at a time, the
    parents in order, as `_make_entity` makes them (the same draws: its
    generators see what they would)."""

    def __init__(
        self,
        design: d.Design,
        entity: d.Entity,
        seed: int,
        scale: float,
        made: Mapping[str, tuple[list[dict[str, Any]], list[int]]],
        populations: Populations,
        budget: int,
        keys: _DrawnKeys,
    ) -> None:
        self.design, self.entity, self.made = design, entity, made
        self.make = _item_maker(design, entity, seed, populations, keys)
        self.context = Context()
        self.serial = 0
        sample = entity.sample
        self.per = sample.per
        if not sample.per:
            self.root_count = _root_count(seed, entity.draw_name, sample, scale)
            _check_budget(entity, self.root_count, budget)
            return
        if sample.per not in made:
            raise SampleDataError(
                f"{entity.name}: sample.per names '{sample.per}', "
                "which is not an entity of the design"
            )
        self.counts = _child_counts(
            seed, entity.draw_name, sample, len(made[sample.per][0])
        )
        # The parent entity and the ones above it, worked out once.
        self.lineage = _lineage(design, sample.per)
        _check_budget(entity, sum(self.counts), budget)

    def all(self) -> Iterator[list[dict[str, Any]]]:
        """The items of a root entity, a few thousand at a time."""
        make, context = self.make, self.context
        for start in range(0, self.root_count, BLOCK_ITEMS):
            block = []
            for serial in range(start, min(start + BLOCK_ITEMS, self.root_count)):
                context.serial = serial
                block.append(make(context))
            self.serial = start + len(block)
            yield block

    def children(self, position: int) -> list[dict[str, Any]]:
        """The items of the parent at `position`, the parents taken in order."""
        count = self.counts[position]
        if not count:
            return []
        context, make, serial = self.context, self.make, self.serial
        context.ancestors = _ancestors(self.lineage, position, self.made)
        items = []
        for sibling in range(count):
            context.position = sibling
            context.serial = serial + sibling
            items.append(make(context))
        self.serial = serial + count
        return items


def _families_made_when_taken(
    design: d.Design,
    made: Mapping[str, tuple[list[dict[str, Any]], list[int]]],
    last: _MadeWhenTaken,
) -> Iterator[list[dict[str, Any]]]:
    """`_families`' items in lists, those of `last` made as they come: a
    parent's children follow it, and the parents come in order, so each of
    `last`'s parents asks for its children once, in the order
    `_make_entity` makes them. A run of parents of `last` with their
    children is one list of at most about BLOCK_ITEMS items."""
    children: dict[str, list[str]] = {}
    for entity in design.entities:
        if entity.sample.per:
            children.setdefault(entity.sample.per, []).append(entity.name)
    lazy = last.entity.name

    def family(name: str, positions: range) -> Iterator[list[dict[str, Any]]]:
        entity_items = made[name][0]
        below = children.get(name)
        if not below:
            yield entity_items[positions.start : positions.stop]
            return
        if below == [lazy]:  # the parents of the last entity: most items
            block: list[dict[str, Any]] = []
            for position in positions:
                block.append(entity_items[position])
                block += last.children(position)
                if len(block) >= BLOCK_ITEMS:
                    yield block
                    block = []
            yield block
            return
        for position in positions:
            yield [entity_items[position]]
            for child in below:
                if child == lazy:
                    yield last.children(position)
                    continue
                parents = made[child][1]
                start = bisect.bisect_left(parents, position)
                yield from family(  # noqa: F821 - deleted once done, not before
                    child, range(start, bisect.bisect_right(parents, position, start))
                )

    try:
        for entity in design.entities:
            if entity.sample.per:
                continue
            if entity.name == lazy:
                yield from last.all()
            else:
                yield from family(entity.name, range(len(made[entity.name][0])))
    finally:
        # `family` calls itself through its closure: a cycle, which holds
        # the items' lists and their parents' positions (35 MB at a million
        # items) until the cyclic collector finds it. Broken here, they go
        # as soon as the generation is done with them.
        del family


class _Counter:
    """Counts the items made and reports every PROGRESS_EVERY of them."""

    def __init__(self, progress: Callable[[int, int], None], total: int) -> None:
        self.progress, self.total, self.made = progress, total, 0

    def add(self, count: int) -> None:
        before, self.made = self.made, self.made + count
        if self.made // PROGRESS_EVERY > before // PROGRESS_EVERY:
            self.progress(self.made, max(self.total, self.made))

    def counting(self, make: Any) -> Any:
        def counted(context: Context) -> dict[str, Any]:
            item = make(context)
            self.add(1)
            return item

        return counted


@dataclass(frozen=True)
class _Kept:
    """One entity's items as generated and each one's parent position, in
    the least memory that gives them back. Items are told apart by shape
    (their attribute names, in order); of a shape, the values that are one
    object in every item (a constant key, "PROFILE") are kept once, in the
    shape's template, and the others one after the other in one tuple, 8
    bytes each: half an item's dict even once items share their names (see
    `_shape`). Each item's shape and the parents, as runs of equal
    positions, are arrays. A fresh dict is handed out on each use (callers
    may change theirs). The keys' hashes, which a generation needs before
    it reuses the items, are taken from the items given back."""

    # Per shape: a dict of its names in order, with the constant values.
    templates: tuple[dict[str, Any], ...]
    varying: tuple[tuple[str, ...], ...]  # per shape: the names kept per item
    shape_of: array  # per item, its shape's position
    values: tuple[Any, ...]
    parent_runs: array  # of (parent position, how many items in a row)

    @classmethod
    def packed(cls, items: list[dict[str, Any]], parents: list[int]) -> _Kept:
        shapes: dict[tuple[str, ...], int] = {}
        shape_of = [
            shapes.setdefault(shape, len(shapes)) for shape in map(tuple, items)
        ]
        groups: list[list[dict[str, Any]]] = [[] for _ in shapes]
        for item, shape in zip(items, shape_of, strict=True):
            groups[shape].append(item)
        templates, varying = [], []
        for group in groups:
            first = group[0]
            template = dict.fromkeys(first)
            for name, value in first.items():
                if all(map(is_, map(itemgetter(name), group), itertools.repeat(value))):
                    template[name] = value
                else:
                    template[name] = _VARYING
            templates.append(template)
            varying.append(tuple(n for n, v in template.items() if v is _VARYING))
        runs = array("q")
        for parent, run in itertools.groupby(parents):
            runs.append(parent)
            runs.append(sum(1 for _ in run))
        values_of = list(map(_values_getter, varying))
        return cls(
            tuple(templates),
            tuple(varying),
            array("B" if len(shapes) <= 256 else "q", shape_of),
            tuple(
                itertools.chain.from_iterable(
                    map(call, map(values_of.__getitem__, shape_of), items)
                )
            ),
            runs,
        )

    def unpacked(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The items, fresh dicts, and each one's parent position."""
        made = [
            (template, names, len(names), _shape(tuple(template)))
            for template, names in zip(self.templates, self.varying, strict=True)
        ]
        values = self.values
        new = object.__new__
        items: list[dict[str, Any]] = []
        append = items.append
        at = 0
        for template, names, count, shape in map(made.__getitem__, self.shape_of):
            item = new(shape).__dict__
            # The names in order first, then the values of this item (pairs:
            # `update` with a dict would copy the dict's table, not share).
            item.update(template.items())
            item.update(zip(names, values[at : at + count], strict=True))
            append(item)
            at += count
        parents: list[int] = []
        runs = self.parent_runs
        for i in range(0, len(runs), 2):
            parents += itertools.repeat(runs[i], runs[i + 1])
        return items, parents

    def __len__(self) -> int:
        return len(self.shape_of)


# A template's mark for a value kept per item.
_VARYING = object()


def _values_getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple]:
    """A getter of these names' values from an item, as a tuple."""
    if len(names) > 1:
        return itemgetter(*names)
    if names:
        name = names[0]
        return lambda item: (item[name],)
    return lambda item: ()


def _key_hashes(items: list[dict[str, Any]], design: d.Design) -> list[int]:
    """The hash of each item's table key, as `_item_maker` draws them."""
    names = [a.name for a in design.table.key_attributes]
    if len(names) == 1:
        return list(map(hash, map(itemgetter(names[0]), items)))
    partition, sort = names[0], names[1]
    return [hash((item[partition], item.get(sort))) for item in items]


@functools.lru_cache(maxsize=1024)
def _shape(names: tuple[str, ...]) -> type[Any]:
    """A class of no use but the attribute dicts of its instances
    (`object.__new__(shape).__dict__`): empty dicts whose keys, as they are
    set, go into one table shared by the dicts of the class (CPython's
    split dicts), made for the names an entity's items have. Each is a real
    dict, in its own insertion order and as fast to read, with less than
    half the memory of one made by `{}` (10 attributes: about 200 bytes,
    not 470). Any key may be set: past what the table can share (30 names)
    the dict only turns into an ordinary one."""
    shape: type[Any] = type("ItemShape", (), {"__module__": __name__})
    # The names go into the table now, in order, by a first dict: CPython
    # lets the table take new names only while the class has made few
    # instances, and an item lacking an optional attribute may come first.
    # (One at a time: `update` with a dict copies that dict's own table.)
    first = object.__new__(shape).__dict__
    for name in names:
        first[name] = None
    return shape


class _KeptEntities:
    """The entities' items of recent generations, the least recently used
    dropped past KEPT_ITEMS items; shared by the threads of a process."""

    def __init__(self) -> None:
        self._entries: OrderedDict[str, _Kept] = OrderedDict()
        self._items = 0
        self._lock = threading.Lock()

    def get(self, digest: str) -> _Kept | None:
        with self._lock:
            kept = self._entries.get(digest)
            if kept is not None:
                self._entries.move_to_end(digest)
            return kept

    def put(self, digest: str, kept: _Kept) -> None:
        if len(kept) > KEPT_ITEMS:
            return
        with self._lock:
            old = self._entries.pop(digest, None)
            self._items -= len(old) if old else 0
            self._entries[digest] = kept
            self._items += len(kept)
            while self._items > KEPT_ITEMS:
                _, dropped = self._entries.popitem(last=False)
                self._items -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._items = 0


_kept = _KeptEntities()


def forget_kept_items() -> None:
    """Drops every entity's kept items and counts (tests and benchmarks that
    measure a generation from nothing start here)."""
    _kept.clear()
    _count_draws.cache_clear()


def _entity_digest(
    design: d.Design,
    entity: d.Entity,
    seed: int,
    scale: float,
    digests: Mapping[str, str],
) -> str:
    """What the entity's items depend on (see the module's docstring); the
    entities it is made from come first, so their digests are known."""
    table = design.table
    bare = replace(
        entity,
        description="",
        attributes=tuple(replace(a, description="") for a in entity.attributes),
    )
    parts = (
        table.key_attributes,
        table.all_key_attributes(),
        bare,
        seed,
        scale,
        sorted((n, digests.get(n, "")) for n in _dependencies(entity)),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


class _DrawnKeys:
    """The hashes of the keys made so far in a generation (`taken`), those of
    the entity being made (`own`), whether one of its draws met a key of
    another entity, and whether an item kept a key made before, when every
    draw met one (`repeated`: its item replaces the earlier one)."""

    def __init__(self, taken: set[int]) -> None:
        self.taken = taken
        self.own: set[int] = set()
        self.met_others = False
        self.repeated = False

    @classmethod
    def unkept(cls, taken: set[int]) -> _DrawnKeys:
        """For items not kept, where whether a draw met another entity's
        key does not matter: the entity's own keys are not told apart from
        the others' (no second set of a million keys)."""
        keys = cls(taken)
        keys.own = taken
        return keys


def _check_table_keys(design: d.Design) -> None:
    """Every entity's items need the table's key: an entity written before
    its keys (a design stated by what its patterns need) makes none."""
    for entity in design.entities:
        missing = [
            a.name for a in design.table.key_attributes if a.name not in entity.keys
        ]
        if len(missing) == len(design.table.key_attributes):
            raise SampleDataError(
                f"{entity.name} has no table key yet: propose keys, or write "
                f"its key templates for {' and '.join(missing)}"
            )
        if missing:
            raise SampleDataError(
                f"{entity.name} has no template for the table key "
                f"{' and '.join(missing)} yet"
            )


def _scale_for(design: d.Design, seed: int, wanted: int) -> float:
    """The smallest scale found, in a few proportional steps, at which the
    design makes at least `wanted` items. Counts are drawn from their own
    random generators, so planning them gives exactly what generating will."""
    scale, planned = 1.0, _planned_total(design, seed, 1.0)
    for _ in range(8):
        if planned >= wanted or planned == 0:
            break
        scale *= min(wanted / planned * 1.01, 1000)
        planned = _planned_total(design, seed, scale)
    return scale


def _planned_total(design: d.Design, seed: int, scale: float) -> int:
    # Past twice the maximum the scale is known to be too large.
    total, _ = planned_items(design, seed=seed, scale=scale, stop_after=max_items() * 2)
    return total


def planned_items(
    design: d.Design,
    *,
    stop_after: int,
    seed: int | None = None,
    scale: float = 1.0,
) -> tuple[int, str]:
    """How many items `generate` makes, from the counts alone (drawn from
    their own random generators, as generating draws them), and the last
    entity counted. Stops as soon as the total passes `stop_after`, so the
    work is bounded by it, whatever the counts say."""
    counts = planned_counts(design, stop_after=stop_after, seed=seed, scale=scale)
    return sum(counts.values()), next(reversed(counts), "")


def planned_counts(
    design: d.Design,
    *,
    stop_after: int,
    seed: int | None = None,
    scale: float = 1.0,
) -> dict[str, int]:
    """`planned_items` per entity, in the order they are made."""
    seed = design.sample_data.seed if seed is None else seed
    counts: dict[str, int] = {}
    total = 0
    for entity in _parents_first(design):
        sample = entity.sample
        parents = counts.get(sample.per, 0) if sample.per else 0
        counts[entity.name] = _planned_count(
            seed, entity.draw_name, sample, parents, scale
        )
        total += counts[entity.name]
        if total > stop_after:
            break
    return counts


@functools.lru_cache(maxsize=4096)
def _planned_count(
    seed: int, name: str, sample: d.SampleSettings, parents: int, scale: float
) -> int:
    """How many items of one entity `generate` makes: the same draws from
    the entity's own generator of counts, kept, since every save of a design
    plans its sample data again (the limits check) and most saves change no
    count."""
    if not sample.per:
        return _root_count(seed, name, sample, scale)
    if sample.count.distribution == "fixed" and not sample.hot_keys:
        # Every parent has the same number of children: no draw needed.
        return parents * sample.count.value
    return sum(_child_counts(seed, name, sample, parents))


def _parents_first(design: d.Design) -> list[d.Entity]:
    """Entities ordered so that each comes after its parent and after the
    entities it picks values from."""
    needs = {e.name: _dependencies(e) for e in design.entities}
    ordered: list[d.Entity] = []
    done: set[str] = set()
    pending = list(design.entities)
    while pending:
        ready = [
            e
            for e in pending
            if all(n in done or design.entity(n) is None for n in needs[e.name])
        ]
        if not ready:
            names = ", ".join(e.name for e in pending)
            raise SampleDataError(
                f"the entities {names} depend on each other (through sample.per "
                "or pick), so none can be made first"
            )
        for entity in ready:
            ordered.append(entity)
            done.add(entity.name)
        pending = [e for e in pending if e.name not in done]
    return ordered


def _dependencies(entity: d.Entity) -> set[str]:
    needs = {entity.sample.per} if entity.sample.per else set()
    for attr in entity.attributes:
        if attr.generator is not None:
            needs |= _picked_entities(attr.generator)
    needs.discard(entity.name)
    return needs


def _picked_entities(generator: d.Generator) -> set[str]:
    params = generator.params
    if generator.kind == "pick":
        source = params.get("value", params.get("from"))
        if isinstance(source, Mapping):
            source = source.get("from")
        return {str(source).partition(".")[0]}
    inner = []
    if generator.kind == "list":
        inner = [params.get("of")]
    elif generator.kind == "map":
        inner = list((params.get("fields") or {}).values())
    found: set[str] = set()
    for spec in inner:
        if isinstance(spec, Mapping) and len(spec) == 1:
            kind, value = next(iter(spec.items()))
            value = value if isinstance(value, Mapping) else {"value": value}
            found |= _picked_entities(d.Generator(str(kind), value))
    return found


def _make_entity(
    design: d.Design,
    entity: d.Entity,
    seed: int,
    scale: float,
    made: Mapping[str, tuple[list[dict[str, Any]], list[int]]],
    populations: Populations,
    budget: int,
    keys: _DrawnKeys,
    counter: _Counter | None = None,
) -> tuple[list[dict[str, Any]], list[int]]:
    """The items of one entity and the position of each one's parent;
    refuses before making them when they would pass `budget`."""
    making = _MadeWhenTaken(
        design, entity, seed, scale, made, populations, budget, keys
    )
    if counter is not None:
        making.make = counter.counting(making.make)
    if not making.per:
        items = list(itertools.chain.from_iterable(making.all()))
        return items, [-1] * len(items)
    items = []
    parents: list[int] = []
    for position, count in enumerate(making.counts):
        if count:
            items += making.children(position)
            parents += [position] * count
    return items, parents


def _root_count(seed: int, name: str, sample: d.SampleSettings, scale: float) -> int:
    rng = Random(f"{seed}:{name}:counts")
    return max(0, round(_draw_count(sample.count, rng) * scale))


def _child_counts(
    seed: int, name: str, sample: d.SampleSettings, parents: int
) -> list[int]:
    """How many children each of the parents has."""
    counts = _count_draws(seed, name, sample.count).first(parents)
    _skew_toward_hot_parents(counts, sample.hot_keys, sample.hot_share)
    return counts


class _CountDraws:
    """The counts an entity's generator of counts draws, one per parent in
    order, kept: the counts of n parents are the first n of more, so the
    plans at each scale `_scale_for` tries and the generation after them
    draw each count once between them (it was a tenth of the time a
    million items took)."""

    def __init__(self, seed: int, name: str, count: d.Count) -> None:
        self._rng = Random(f"{seed}:{name}:counts")
        self._count = count
        self._drawn: list[int] = []
        self._lock = threading.Lock()

    def first(self, parents: int) -> list[int]:
        with self._lock:
            missing = parents - len(self._drawn)
            if missing > 0:
                count, rng = self._count, self._rng
                self._drawn.extend(_draw_counts(count, rng, missing))
            return self._drawn[:parents]


# Few entries: each holds a count per parent, up to millions of them.
@functools.lru_cache(maxsize=8)
def _count_draws(seed: int, name: str, count: d.Count) -> _CountDraws:
    return _CountDraws(seed, name, count)


def _check_budget(entity: d.Entity, count: int, budget: int) -> None:
    if count > budget:
        raise SampleDataError(
            f"the sample data would hold more than {max_items():,} items "
            f"({entity.name} alone would have {count:,}); lower the counts"
        )


def _lineage(design: d.Design, entity_name: str) -> tuple[str, ...]:
    """The entity and the entities above it, parent by parent, up to a root
    (or to an entity named again: a loop of `per`)."""
    names: list[str] = []
    while entity_name and entity_name not in names:
        names.append(entity_name)
        entity = design.entity(entity_name)
        entity_name = entity.sample.per if entity else ""
    return tuple(names)


def _ancestors(
    lineage: tuple[str, ...],
    position: int,
    made: Mapping[str, tuple[list[dict[str, Any]], list[int]]],
) -> dict[str, Mapping[str, Any]]:
    """The item at `position` of the first entity of `lineage` (see
    `_lineage`) and the items above it."""
    chain: dict[str, Mapping[str, Any]] = {}
    for entity_name in lineage:
        if position < 0:
            break
        items, parents = made[entity_name]
        chain[entity_name] = items[position]
        position = parents[position]
    return chain


def _draw_counts(count: d.Count, rng: Random, n: int) -> list[int]:
    """`n` draws of `_draw_count`, the same numbers from the same state: a
    uniform count as `randint(low, high)` draws it, `low` plus
    `_randbelow(high - low + 1)` (what randint's `randrange` returns for a
    range of whole numbers), without the two calls around it for each
    parent (a quarter of a million at a million items); a Zipf count from
    its table, looked up once."""
    if count.distribution == "uniform":
        low, high = count.low, max(count.low, count.high)
        if type(low) is int and type(high) is int:
            # randrange's own draw; private, and not in the type stubs.
            below = rng._randbelow  # type: ignore[attr-defined]
            width = high - low + 1
            return [low + below(width) for _ in range(n)]
    if count.distribution == "zipf":
        draw = _zipf_table(count.s, count.high)
        return [draw(rng) for _ in range(n)]
    return [_draw_count(count, rng) for _ in range(n)]


def _draw_count(count: d.Count, rng: Random) -> int:
    if count.distribution == "uniform":
        return rng.randint(count.low, max(count.low, count.high))
    if count.distribution == "zipf":
        return _zipf_table(count.s, count.high)(rng)
    return count.value


_ZIPF_TABLES: dict[tuple[float, int], Any] = {}


def _zipf_table(s: float, high: int) -> Any:
    """Draws k in 1..high with probability proportional to 1 / k**s."""
    key = (s, high)
    if key not in _ZIPF_TABLES:
        cumulative = list(
            itertools.accumulate(1 / (k**s) for k in range(1, max(high, 1) + 1))
        )
        total = cumulative[-1]
        _ZIPF_TABLES[key] = lambda rng: (
            bisect.bisect_right(cumulative, rng.random() * total) + 1
        )
    return _ZIPF_TABLES[key]


def _skew_toward_hot_parents(counts: list[int], hot_keys: int, share: float) -> None:
    """Give the first `hot_keys` parents `share` of all the children between
    them, the others keeping what they drew."""
    hot = min(hot_keys, len(counts))
    if not hot or share <= 0:
        return
    cold_total = sum(counts[hot:])
    if share >= 1 or not cold_total:
        hot_total = sum(counts)
        for i in range(hot, len(counts)):
            counts[i] = 0
    else:
        hot_total = math.ceil(share * cold_total / (1 - share))
    for i in range(hot):
        counts[i] = hot_total // hot + (1 if i < hot_total % hot else 0)


def _item_maker(
    design: d.Design,
    entity: d.Entity,
    seed: int,
    populations: Populations,
    keys: _DrawnKeys,
) -> Any:
    """A function making one item of the entity: its attributes, then its
    keys; drawn again (a few times) when its primary key was made before:
    an item written under a key already taken would replace the earlier
    one, and the data set would hold fewer items than counted. Keys are
    remembered by their hash, which is all a check needs.

    Each attribute draws from a random generator of its own (see the
    module's docstring)."""
    compiler = Compiler(design, entity, seed, populations)
    draws = []
    for attr in in_build_order(entity.attributes):
        draw = compiler.attribute(attr)
        if not attr.required and attr.name not in compiler.primary_key_attributes:
            draw = _present_by_chance(draw, attr.presence)
        rng = Random(f"{seed}:{entity.draw_name}.{attr.draw_name}")
        draws.append((attr.name, draw, rng))
    # The keys written in the maker's own code (a call less an item), or
    # by a writer where they cannot be (see `key_lines`).
    lines = key_lines(design, entity.name, populations.keys)
    write_keys = (
        key_writer(design, entity.name, populations.keys) if lines is None else None
    )
    names = [a.name for a in design.table.key_attributes]

    def keys_failed(exc: Exception) -> SampleDataError:
        if isinstance(exc, MissingValueError):
            return SampleDataError(
                f"{entity.name}: a table key template places "
                f"'{exc.attribute}', which {entity.name} items do not "
                "have: declare it as an attribute"
            )
        return SampleDataError(f"{entity.name}: {exc}")

    # The items share the table of their names (see _shape).
    shape = _shape((*(name for name, _, _ in draws), *entity.keys))
    # The even draws (numbers, days, "PRD-#####"), done in the maker's own
    # code: a call less for each.
    # So are the refs (a line item's order id).
    evens = [even_parts(draw) for _, draw, _ in draws]
    # And the sequences among siblings (a line item's number).
    refs = [ref_parts(draw) for _, draw, _ in draws]
    positions = [position_parts(draw) for _, draw, _ in draws]
    # And the later draws of a Faker pool (a line item's product name).
    pools = [pooled_parts(draw) for _, draw, _ in draws]
    kinds = tuple(
        "even"
        if e is not None
        else "ref"
        if r is not None
        else "position"
        if p is not None
        else "pooled"
        if f is not None
        else ""
        for e, r, p, f in zip(evens, refs, positions, pools, strict=True)
    )
    if lines is None:
        body, key_names = None, {}
        # The item's key as read back from it.
        key = (
            "hash((item[partition], item.get(sort)))"
            if len(names) > 1
            else "hash(item[partition])"
        )
    else:
        body, key_names = lines.body, lines.names
        # The same, from the variables the lines leave the keys in.
        key = (
            f"hash(({lines.values[names[0]]}, {lines.values[names[1]]}))"
            if len(names) > 1
            else f"hash({lines.values[names[0]]})"
        )
    code = _maker_code(
        len(draws), kinds, body, tuple(key_names), key, keys.own is not keys.taken
    )
    return code(
        shape,
        draws,
        evens,
        refs,
        positions,
        pools,
        keys.taken,
        keys.own,
        keys,
        write_keys,
        key_names,
        keys_failed,
        names[0],
        names[1] if len(names) > 1 else None,
    )


# An item maker's lines for each kind of draw (`_maker_code`): those that
# store their value at once, and those whose value is found in a `try` and
# stored by `_STORED_IF_FOUND` (a template over an attribute this item
# lacks, or OMIT, stores nothing).
_STORING_STEPS = {
    "even": """
            drawn = int(random{n}() * size{n})
            value = table{n}[drawn]
            if value is None:
                value = table{n}[drawn] = make{n}(drawn)
            item[name{n}] = value""",
    "position": """
            drawn = context.position
            if drawn < SHARED_VALUES:
                value = shared{n}[drawn]
                if value is None:
                    value = shared{n}[drawn] = count{n}(drawn)
            else:
                value = count{n}(drawn)
            item[name{n}] = value""",
}
_FINDING_STEPS = {
    "ref": """
                source = context.ancestors.get(parent{n})
                if source is None:
                    value = draw{n}(rng{n}, context)  # says what is wrong
                else:
                    value = source.get(attribute{n})
                    if convert{n} is not None and type(value) is not native{n}:
                        value = convert{n}(value, where{n})""",
    "pooled": """
                if made{n}[0] < FAKER_POOL:
                    value = draw{n}(rng{n}, context)
                else:
                    value = values{n}[int(random{n}() * FAKER_POOL)]
                    if (
                        native{n} is not None
                        and type(value) is not native{n}
                        and value is not OMIT
                    ):
                        value = convert{n}(value, where{n})""",
    "": """
                value = draw{n}(rng{n}, context)""",
}
_STORED_IF_FOUND = """
            except MissingValueError:
                pass  # a template over an attribute this item lacks
            else:
                if value is not OMIT:
                    item[name{n}] = value"""


def _step_lines(n: int, kind: str) -> str:
    """The lines of the item maker's n-th draw, of this kind."""
    if kind in _STORING_STEPS:
        return _STORING_STEPS[kind].format(n=n)
    return f"""
            try:{_FINDING_STEPS[kind].format(n=n)}{_STORED_IF_FOUND.format(n=n)}"""


# Few: one for each entity's draws and keys, with the key names in the
# source, seen by a process serving many designs' pages.
@functools.lru_cache(maxsize=256)
def _maker_code(
    attributes: int,
    kinds: tuple[str, ...],
    key_body: str | None,
    key_names: tuple[str, ...],
    key: str,
    own_apart: bool,
) -> Any:
    """The compiled code of an item maker for `attributes` draws: each draw
    called in its own line, with its name, function and random generator in
    local variables, rather than a loop over a list of triples (its
    unpacking, and the loop itself, were a fifth of the time of a line
    item). A draw of `_evenly` with a table (`kinds`: "even") and a ref
    ("ref") are done as they do them, in the maker's own lines. No name of
    the design's is in the draws' lines; the keys' lines (`key_body`, see
    `key_lines`, calling the objects `key_names`) name the keys they write,
    and are the maker's own too (a call less for each of a million items);
    without them (None) the maker calls `write_keys`. `key`: the
    expression of the hash of the item's table key. With `own_apart` false
    the entity's keys are not told apart from the others' (`own` is
    `taken`: see `_DrawnKeys.unkept`), and are added to the one set."""
    steps = "".join(_step_lines(n, kinds[n]) for n in range(attributes))
    unpacked = "".join(
        f"    name{n}, draw{n}, rng{n} = draws[{n}]\n"
        + (
            f"    table{n}, size{n}, make{n} = evens[{n}]\n"
            f"    random{n} = rng{n}.random\n"
            if kinds[n] == "even"
            else f"    parent{n}, attribute{n}, native{n}, convert{n}, where{n}"
            f" = refs[{n}]\n"
            if kinds[n] == "ref"
            else f"    shared{n}, count{n} = positions[{n}]\n"
            if kinds[n] == "position"
            else f"    made{n}, values{n}, native{n}, convert{n}, where{n}"
            f" = pools[{n}]\n    random{n} = rng{n}.random\n"
            if kinds[n] == "pooled"
            else ""
        )
        for n in range(attributes)
    )
    unpacked += "".join(f"    {name} = key_names[{name!r}]\n" for name in key_names)
    writing = (
        "write_keys(item)"
        if key_body is None
        else "\n".join(" " * 16 + line for line in key_body.splitlines()).lstrip()
    )
    # The entity's own keys, apart from the others' or not.
    met = (
        """
            if key not in own:
                keys.met_others = True"""
        if own_apart
        else ""
    )
    added = "\n        own.add(key)" if own_apart else ""
    source = f"""
def maker(
    shape, draws, evens, refs, positions, pools, taken, own, keys, write_keys,
    key_names, keys_failed, partition, sort,
):
{unpacked}
    def make(context):
        for _ in TRIES:
            item = new(shape).__dict__
            context.item = item{steps}
            try:
                {writing}
            except (MissingValueError, ValueError) as exc:
                raise keys_failed(exc) from None
            key = {key}
            if key not in taken:
                break{met}
        else:
            keys.repeated = True
        taken.add(key){added}
        return item

    return make
"""
    namespace = {
        "MissingValueError": MissingValueError,
        "OMIT": OMIT,
        "TRIES": range(KEY_TRIES),
        "SHARED_VALUES": SHARED_VALUES,
        "FAKER_POOL": FAKER_POOL,
        "new": object.__new__,
    }
    exec(compile(source, f"<item maker of {attributes} attributes>", "exec"), namespace)  # noqa: S102 - our own source
    return namespace["maker"]


def _present_by_chance(draw: Any, presence: float) -> Any:
    """`draw` for the share `presence` of the items, OMIT for the others."""
    if presence >= 1:
        return draw

    def sometimes(rng: Random, context: Context) -> Any:
        if rng.random() >= presence:
            return OMIT
        return draw(rng, context)

    return sometimes


def in_build_order(attributes: tuple[d.Attribute, ...]) -> list[d.Attribute]:
    """Attributes built from others' values come after those values: the
    picks `with` another pick, the templates, then the expiry times
    (counted from a template's time)."""

    def rank(attribute: d.Attribute) -> float:
        generator = attribute.generator
        kind = generator.kind if generator else ""
        if generator is not None and kind == "pick" and _pick_partner(generator):
            return 0.5
        return {"template": 1, "expires": 2}.get(kind, 0)

    return sorted(attributes, key=rank)


def _families(
    design: d.Design, made: Mapping[str, tuple[list[dict[str, Any]], list[int]]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """Every item and its entity, each parent followed by its children,
    depth first."""
    children: dict[str, list[str]] = {}
    for entity in design.entities:
        if entity.sample.per:
            children.setdefault(entity.sample.per, []).append(entity.name)
    items: list[dict[str, Any]] = []
    entities: list[str] = []

    def family(name: str, positions: range) -> None:
        entity_items = made[name][0]
        below = children.get(name)
        if not below:  # the leaves, most items: taken a family at a time
            items.extend(entity_items[positions.start : positions.stop])
            entities.extend([name] * len(positions))
            return
        if not any(map(children.get, below)):
            # Parents of leaves only (the orders of line items): each
            # parent's children taken here, without a call a parent. The
            # run of the parent at `position` starts where the one before
            # it ended (the parents' positions are whole numbers in order).
            leaves = [(made[child][0], made[child][1], child) for child in below]
            ends = [
                bisect.bisect_left(parents, positions.start) for _, parents, _ in leaves
            ]
            for position in positions:
                items.append(entity_items[position])
                entities.append(name)
                for n, (child_items, parents, child) in enumerate(leaves):
                    start = ends[n]
                    end = ends[n] = bisect.bisect_right(parents, position, start)
                    items.extend(child_items[start:end])
                    entities.extend([child] * (end - start))
            return
        for position in positions:
            items.append(entity_items[position])
            entities.append(name)
            for child in below:
                # Children are made parent by parent, so the positions of
                # one parent's children are a run of the parents' list:
                # found by two searches, with no list per parent.
                parents = made[child][1]
                start = bisect.bisect_left(parents, position)
                family(  # noqa: F821 - deleted once done, not before
                    child, range(start, bisect.bisect_right(parents, position, start))
                )

    for entity in design.entities:
        if not entity.sample.per:
            family(entity.name, range(len(made[entity.name][0])))
    del family  # a cycle through its closure (see _families_made_when_taken)
    return items, entities


def _pick_partner(generator: d.Generator) -> str:
    """The attribute a pick draws `with` (from the same item), or ''."""
    value = generator.params.get("value")
    spec = value if isinstance(value, Mapping) else generator.params
    partner = spec.get("with")
    return partner if isinstance(partner, str) else ""
