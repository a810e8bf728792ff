"""Expectations found through lookups built once per data set select the
same items, in the same order, as a pass over every item."""

from __future__ import annotations

import random
import sys
import tracemalloc
from decimal import Decimal
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.sampledata import generate
from modeler.simulation import Simulation
from modeler.simulation.binding import bind_from, bind_ranges
from modeler.simulation.expectations import Lookups, expected_items
from modeler.simulation.sample import KeyPositions, Sample, key_reader

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))
CORPUS = sorted(
    (Path(__file__).resolve().parents[1] / "review" / "corpus").glob("*.yaml")
)


@pytest.mark.parametrize("path", EXAMPLES + CORPUS, ids=lambda p: p.stem)
def test_lookups_select_what_a_full_pass_selects(path: Path) -> None:
    design = read_design(path.read_text()).design
    simulation = Simulation(design)
    rng = random.Random(7)  # noqa: S311 - a seeded choice of items
    compared = 0
    for pattern in design.access_patterns:
        if pattern.expects is None:
            continue
        positions = simulation.positions(pattern.expects.entities[0])
        for position in rng.sample(positions, min(15, len(positions))):
            params = bind_from(simulation, pattern, simulation.items[position], {})
            if params is None:
                continue
            bind_ranges(simulation, pattern, params)
            try:
                full = expected_items(
                    pattern.expects, params, simulation.items, simulation.entities
                )
            except KeyError:
                continue  # a parameter no item gives: the pattern's own example
            looked_up = expected_items(
                pattern.expects,
                params,
                simulation.items,
                simulation.entities,
                simulation.lookups,
            )
            assert looked_up == full, (pattern.name, params)
            compared += 1
    assert compared > 0


def test_an_equal_value_is_found_whatever_type_it_is_written_in() -> None:
    items = [
        {"n": Decimal("5")},
        {"n": "5"},
        {"n": True},
        {"flag": False},
        {"tags": ["a"]},
    ]
    entities = ["T"] * len(items)
    lookups = Lookups(items, entities)

    def select(attribute: str, value: str) -> list[int]:
        expects = d.Expectation(("T",), (d.Predicate(attribute, "=", (value,)),))
        full = expected_items(expects, {}, items, entities)
        assert expected_items(expects, {}, items, entities, lookups) == full
        return full

    # "5" equals the number 5 and the text "5", as the item's type reads it.
    assert select("n", "5") == [0, 1]
    assert select("n", "true") == [2]
    assert select("flag", "no") == [3]
    assert select("tags", "a") == []


def test_items_are_found_by_key_in_a_few_bytes_each() -> None:
    """The simulation finds an item by its key (an expected item's entity,
    a missed item) through 16 bytes an item: a dict of key tuples took 140
    bytes of a simulated item's memory."""
    path = next(p for p in EXAMPLES if p.stem == "order-management")
    design = read_design(path.read_text()).design
    dataset = generate(design, items=20_000)
    tracemalloc.start()
    try:
        sample = Sample(design, dataset)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    lookups = sys.getsizeof(sample.lookups.by_entity) + sum(
        map(sys.getsizeof, sample.lookups.by_entity.values())
    )

    assert (held - lookups) / len(dataset) < 48
    for position in (0, 1, 9_999, 19_999):
        assert sample.position[sample.key_of(dataset.items[position])] == position
    assert sample.entity_of(dataset.items[5]) == dataset.entities[5]
    assert sample.position.get(("no such key", "none")) is None
    assert ("no such key", "none") not in sample.position
    with pytest.raises(KeyError):
        sample.position[("no such key", "none")]


def test_keys_whose_kept_hash_bits_are_the_same_are_told_apart() -> None:
    """The positions keep 30 bits of each key's hash: two keys with the same
    bits are found each at its own position. (Strings are hashed anew in
    each process: a pair is searched for, found in some 40,000 keys.)"""
    first: dict[int, str] = {}
    for n in range(1_000_000):
        key = f"K#{n}"
        bits = hash((key,)) & ((1 << 30) - 1)
        if bits in first:
            pair = (first[bits], key)
            break
        first[bits] = key
    items = [{"PK": pair[0]}, {"PK": "other"}, {"PK": pair[1]}]
    positions = KeyPositions(items, key_reader(("PK",)))
    assert positions.get((pair[0],)) == 0
    assert positions.get((pair[1],)) == 2
    assert positions.get(("other",)) == 1
    assert positions.get(("K#none",)) is None


def test_the_positions_of_each_entity_take_8_bytes_an_item() -> None:
    """Expectations and draws start from an entity's item positions: kept as
    arrays, not lists of int objects (36 bytes an item)."""
    path = next(p for p in EXAMPLES if p.stem == "order-management")
    dataset = generate(read_design(path.read_text()).design, items=20_000)
    tracemalloc.start()
    try:
        lookups = Lookups(dataset.items, dataset.entities)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()

    assert held / len(dataset) < 12
    orders = [i for i, e in enumerate(dataset.entities) if e == "Order"]
    assert list(lookups.of_entities(["Order"])) == orders
    assert list(lookups.of_entities(["LineItem", "Order"])) == sorted(
        i for i, e in enumerate(dataset.entities) if e in ("Order", "LineItem")
    )
    assert list(lookups.of_entities(["Nobody"])) == []
