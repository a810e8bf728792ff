"""Which entity an item belongs to, told from its table keys.

Items a user typed or imported carry no entity name: the keys say it. Each
entity's partition and sort key templates are matched against the item's
keys; the values they give back must agree with the item's own attributes,
and where several entities match, the one whose templates fix the most
literal text wins (`ORDER#{orderId}` over `{anyId}`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from operator import itemgetter
from typing import Any

from modeler.design import model as d
from modeler.engine.types import Item, item_from_wire
from modeler.keys import Template, parse_template
from modeler.keys.template import Literal
from modeler.sampledata.generate import Dataset, DistinctDataset


class EntityRecogniser:
    def __init__(self, design: d.Design) -> None:
        self.key_names = tuple(a.name for a in design.table.key_attributes)
        self.candidates: list[tuple[int, str, tuple[Template, ...]]] = []
        for entity in design.entities:
            if not all(name in entity.keys for name in self.key_names):
                continue
            templates = tuple(
                parse_template(entity.keys[n].template) for n in self.key_names
            )
            specificity = sum(
                len(p.text)
                for t in templates
                for p in t.parts
                if isinstance(p, Literal)
            )
            self.candidates.append((specificity, entity.name, templates))
        self.candidates.sort(key=lambda c: -c[0])
        # The candidates by the literal text their first key starts with: a
        # text key is matched against those whose start it has, not against
        # every entity (6,000 items of a model of 300 entities were).
        self._by_start: dict[str, list[int]] = {}
        for position, (_, _, templates) in enumerate(self.candidates):
            parts = templates[0].parts if templates else ()
            start = parts[0].text if parts and isinstance(parts[0], Literal) else ""
            self._by_start.setdefault(start, []).append(position)
        self._start_lengths = sorted({len(start) for start in self._by_start})

    def _candidates_for(self, key: Any) -> list[tuple[int, str, tuple[Template, ...]]]:
        """The candidates that can have made a first key, in their order."""
        if not isinstance(key, str):
            return self.candidates
        positions: list[int] = []
        for length in self._start_lengths:
            if length > len(key):
                break
            positions += self._by_start.get(key[:length], ())
        return [self.candidates[p] for p in sorted(positions)]

    def entity_of(self, item: Mapping[str, Any]) -> str | None:
        """The entity whose table key templates made this item's keys, or
        None when no entity's could have."""
        keys: list[Any] = [item.get(name) for name in self.key_names]
        if any(k is None for k in keys):
            return None
        for _, name, templates in self._candidates_for(keys[0] if keys else None):
            values: dict[str, Any] = {}
            for template, key in zip(templates, keys, strict=True):
                matched = template.match(key)
                if matched is None or not _agrees(values, matched):
                    break
                values.update(matched)
            else:
                if _agrees(values, item):
                    return name
        return None


def with_own_items(design: d.Design, dataset: Dataset) -> Dataset:
    """The generated items followed by the items the user typed or imported
    (`design.sample_data.items`), each recognised to its entity, and each
    table key once: a later item replaces an earlier one with its key, as
    loading them in order would, so a user's item wins."""
    if dataset.distinct_keys and not design.sample_data.items:
        # Nothing to add and no key twice: no key to read (0.2 s of CPU
        # for `sample_data --items 300000`, a twentieth of the command).
        return DistinctDataset(list(dataset.items), list(dataset.entities))
    items, entities = list(dataset.items), list(dataset.entities)
    recogniser = EntityRecogniser(design)
    for wire in design.sample_data.items:
        item = item_from_wire(d.thaw(wire))
        items.append(item)
        # An item no entity's templates made has None (Dataset types its
        # entities as names); the one caller reads the items only.
        entities.append(recogniser.entity_of(item))  # type: ignore[arg-type]  # see above
    names = recogniser.key_names
    try:
        # Every item has the table's key (generated items always do): one
        # getter in C per item, not a tuple built by a Python loop.
        keys = list(map(itemgetter(*names), items))
    except KeyError:
        keys = [tuple(map(item.get, names)) for item in items]
    last = dict(zip(keys, range(len(items)), strict=True))
    if len(last) == len(items):
        return Dataset(items, entities)
    keep = sorted(last.values())
    return Dataset([items[i] for i in keep], [entities[i] for i in keep])


class OwnItemsAfter:
    """`with_own_items(design, dataset).items` for generated items no two
    of which share a table key (`ItemStream.distinct_keys`), taken one at a
    time: the generated items but those whose key an item of the design's
    own has, then the design's own items, the later of two with one key.
    `count` is how many were given, once all were."""

    def __init__(self, design: d.Design, generated: Iterable[Item]) -> None:
        self.names = tuple(a.name for a in design.table.key_attributes)
        own = [item_from_wire(d.thaw(wire)) for wire in design.sample_data.items]
        last = {self._key(item): n for n, item in enumerate(own)}
        self.own = [item for n, item in enumerate(own) if last[self._key(item)] == n]
        self.generated = generated
        self.dropped = 0

    def _key(self, item: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(map(item.get, self.names))

    def __iter__(self) -> Iterator[Item]:
        if not self.own:
            return iter(self.generated)
        return itertools.chain(self._generated_kept(), self.own)

    def _generated_kept(self) -> Iterator[Item]:
        own_keys, key = set(map(self._key, self.own)), self._key
        for item in self.generated:
            if key(item) in own_keys:
                self.dropped += 1
            else:
                yield item


def _agrees(values: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    """Whether the values parsed from keys match the item's own attributes.
    Keys hold numbers as text, unpadded by the match: "0042" and 42 agree."""
    return all(
        name not in item or _same(item[name], value) for name, value in values.items()
    )


def _same(a: Any, b: Any) -> bool:
    if a == b:
        return True
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except ArithmeticError:
        return False
