"""The sample data as the simulator reads it: the items in the order they
were loaded, each one's entity, lookups of them by value, and their
positions in a seeded random order (for choosing the items a pattern is run
on)."""

from __future__ import annotations

import math
import random
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import repeat
from operator import and_, itemgetter
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.engine.types import number
from modeler.sampledata import Dataset
from modeler.simulation.expectations import Lookups

# Past this many items of an entity, a random sample of this many is
# searched rather than a shuffle of them all (a shuffle of a million
# positions costs half a second; the search stops after a few dozen).
SHUFFLED = 50_000


class Sample:
    """A design's sample items (its own items included), with their
    entities and the lookups expectations are found through."""

    def __init__(self, design: d.Design, dataset: Dataset) -> None:
        self.design = design
        self.key_names = tuple(a.name for a in design.table.key_attributes)
        self.items, self.entities = dataset.items, dataset.entities
        # Not the bound key_of: what keeps the positions (the diagrams'
        # collections, by a weak key on the simulation) would keep the
        # simulation too.
        self.position = KeyPositions(self.items, key_reader(self.key_names))
        self.lookups = Lookups(self.items, self.entities)

    def key_of(self, item: Mapping[str, Any]) -> tuple:
        return tuple(map(item.get, self.key_names))

    def entity_of(self, item: Mapping[str, Any]) -> str | None:
        position = self.position.get(self.key_of(item))
        return self.entities[position] if position is not None else None

    def examples(self, pattern: d.AccessPattern) -> dict[str, Any]:
        """The example values the designer gave for the pattern's parameters."""
        return {
            p.name: number(p.example) if p.type == "N" else p.example
            for p in pattern_parameters(self.design, pattern)
            if p.example
        }

    def positions(self, entity: str | None) -> list[int]:
        """Positions of the entity's items (of every item for None), a list
        of the caller's own to shuffle."""
        if entity is None:
            return list(range(len(self.items)))
        return list(self.lookups.by_entity.get(entity, ()))


def key_reader(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple]:
    """An item's table key: its values of `names`, a tuple."""

    def key_of(item: Mapping[str, Any]) -> tuple:
        return tuple(map(item.get, names))

    key_of.names = names  # type: ignore[attr-defined]  # for _key_hashes
    return key_of


# The bits of a key's hash that `KeyPositions` keeps: 30, one digit of a
# Python int, which the sort of a million of them compares in C without a
# call (a sixth quicker than of whole hashes) and an array holds in 4 bytes.
# Keys whose kept bits are the same are told apart by the keys themselves,
# as keys whose whole hashes are: a few hundred pairs in a million.
_HASH_BITS = (1 << 30) - 1


def _key_hashes(
    items: Sequence[Mapping[str, Any]], key_of: Callable[[Mapping[str, Any]], tuple]
) -> list[int]:
    """The kept bits (`_HASH_BITS`) of the hash of each item's `key_of`. Of a
    key of two or more names, through `itemgetter` (in C: a third of the
    time), whose tuple is `key_of`'s when the item has every name; an item
    without one of them makes the whole list through `key_of` (its None in
    the key)."""
    names = getattr(key_of, "names", ())
    bits = repeat(_HASH_BITS)
    if len(names) > 1:
        try:
            return list(map(and_, map(hash, map(itemgetter(*names), items)), bits))
        except KeyError:
            pass
    return list(map(and_, map(hash, map(key_of, items)), bits))


# Of the positions in the order of their hashes, `KeyPositions` keeps the
# hash of every 16th apart as well, a quarter of a byte an item.
_EVERY = 16


class KeyPositions:
    """Each item's position by its table key (`Sample.key_of`), as a dict
    of them would give it, in two arrays: the positions in the order of
    their keys' hashes (their kept bits) and each item's hash, 8 bytes an
    item (a dict of key tuples took 140), and a third of every 16th hash in
    that order (`_EVERY`). A key is found by a search of the positions for
    its hash, then compared with the item's own key (hashes may collide);
    of items with the same key, the last."""

    def __init__(
        self,
        items: Sequence[Mapping[str, Any]],
        key_of: Callable[[Mapping[str, Any]], tuple],
    ) -> None:
        self._items, self._key_of = items, key_of
        hashes = _key_hashes(items, key_of)
        # A stable sort: the positions of equal hashes stay in order.
        order = sorted(range(len(hashes)), key=hashes.__getitem__)
        self._positions = array("I", order)  # 4 bytes: positions < 2**32
        # In the items' order, not the sorted one: a search reads the hash
        # of each position it compares through the position, and the
        # hashes are not gathered in sorted order (a million reads of
        # scattered ints, 0.15 s).
        self._hashes = array("I", hashes)
        # The hashes of every _EVERY-th position in that order, gathered (a
        # sixteenth of the reads): a search of them in C leaves _EVERY
        # positions to search through their hashes. A search of all of them
        # so took twice as long as one of gathered hashes (the 35,000 gets of
        # check_design at a million items, 0.08 s more; with these, 0.04).
        self._every = array("I", list(map(hashes.__getitem__, order[::_EVERY])))

    def get(self, key: tuple, default: int | None = None) -> int | None:
        wanted = hash(key) & _HASH_BITS
        hashes, positions = self._hashes, self._positions
        found = default
        # The first position whose hash is not below `wanted` is at most
        # the kept one first not below it, and past the kept one before.
        j = bisect_left(self._every, wanted) * _EVERY
        lo, hi = max(j - _EVERY + 1, 0), min(j, len(positions))
        i = bisect_left(positions, wanted, lo, hi, key=hashes.__getitem__)
        while i < len(positions) and hashes[positions[i]] == wanted:
            position = positions[i]
            if self._key_of(self._items[position]) == key:
                found = position
            i += 1
        return found

    def __getitem__(self, key: tuple) -> int:
        position = self.get(key)
        if position is None:
            raise KeyError(key)
        return position

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and self.get(key) is not None

    def __len__(self) -> int:
        return len(self._positions)


def shuffled(positions: list[int], rng: random.Random) -> list[int]:
    """The positions in a random order, or a random sample of SHUFFLED of
    them when there are more."""
    if len(positions) > SHUFFLED:
        return rng.sample(positions, SHUFFLED)
    rng.shuffle(positions)
    return positions


def drawn(positions: list[int], rng: random.Random) -> Iterator[int]:
    """The positions `shuffled` returns, in the same order, drawn one at a
    time: for a search that stops after a few dozen and has no further use
    for `rng`. Past SHUFFLED positions, a sample's first positions are
    known before the rest are drawn (a shuffle's are not), so the tens of
    thousands it would draw and not read are never drawn. The sample is
    `random.Random.sample`'s own algorithm, step by step (a test holds it
    to `sample`); `positions` is the caller's to use as its pool."""
    n = len(positions)
    if n <= SHUFFLED:
        yield from shuffled(positions, rng)
        return
    randbelow = rng._randbelow  # type: ignore[attr-defined]  # as sample draws
    # As `sample` decides: a pool of the positions, or a set of the chosen
    # indexes when the pool would be the larger.
    setsize = 21 + 4 ** math.ceil(math.log(SHUFFLED * 3, 4))
    if n <= setsize:
        for i in range(SHUFFLED):
            j = randbelow(n - i)
            yield positions[j]
            positions[j] = positions[n - i - 1]
    else:
        chosen: set[int] = set()
        for _ in range(SHUFFLED):
            j = randbelow(n)
            while j in chosen:
                j = randbelow(n)
            chosen.add(j)
            yield positions[j]
