"""Generating an edited design makes again only the entities whose items
depend on the edit, and gives exactly what a generation from nothing gives."""

from __future__ import annotations

import importlib
import sys
import textwrap
import tracemalloc
from dataclasses import replace
from types import MappingProxyType

import pytest

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.sampledata import generate
from tests.sampledata.helpers import example

module = importlib.import_module("modeler.sampledata.generate")


@pytest.fixture
def made(monkeypatch) -> list[str]:
    """The entities made (not reused) by the generations of the test, which
    starts with nothing kept."""
    module.forget_kept_items()
    names: list[str] = []
    make_entity = module._make_entity

    def recording(design, entity, *args, **kwargs):
        names.append(entity.name)
        return make_entity(design, entity, *args, **kwargs)

    monkeypatch.setattr(module, "_make_entity", recording)
    yield names
    module.forget_kept_items()


def fresh(design: d.Design, **options) -> module.Dataset:
    module.forget_kept_items()
    return generate(design, **options)


def with_entity(design: d.Design, name: str, **changes) -> d.Design:
    entities = tuple(
        replace(e, **changes) if e.name == name else e for e in design.entities
    )
    return replace(design, entities=entities)


def test_generating_the_same_data_again_makes_nothing_again(made):
    orders = example("order-management")
    first = generate(orders)
    assert made == ["Customer", "Order", "LineItem"]

    # A pattern, its traffic or a description is no part of the data.
    edited = replace(
        with_entity(orders, "Customer", description="Who buys."),
        access_patterns=orders.access_patterns[1:],
    )
    second = generate(edited)

    assert made == ["Customer", "Order", "LineItem"]
    assert second.items == first.items and second.entities == first.entities
    # The items handed out are the caller's own: changing them changes no
    # later generation.
    second.items[0]["name"] = "changed"
    assert generate(orders).items == first.items


def test_an_edited_entity_is_made_again_with_the_entities_made_from_it(made):
    orders = example("order-management")
    generate(orders)
    made.clear()
    order = orders.entity("Order")
    status = order.attribute("status")
    edited = with_entity(
        orders,
        "Order",
        attributes=tuple(
            replace(a, generator=d.Generator("choice", d.freeze({"value": ["OPEN"]})))
            if a is status
            else a
            for a in order.attributes
        ),
    )

    dataset = generate(edited)

    assert made == ["Order", "LineItem"]
    assert {
        i["status"]
        for i, e in zip(dataset.items, dataset.entities, strict=True)
        if e == "Order"
    } == {"OPEN"}
    expected = fresh(edited)
    assert dataset.items == expected.items and dataset.entities == expected.entities


def test_a_new_seed_or_scale_makes_everything_again(made):
    orders = example("order-management")
    generate(orders)
    made.clear()

    generate(orders, seed=orders.sample_data.seed + 1)
    assert made == ["Customer", "Order", "LineItem"]
    made.clear()
    generate(orders, scale=2)
    assert made == ["Customer", "Order", "LineItem"]


TWO_KINDS = """
    format: single-table-workbench/v1
    name: Two kinds
    table: {{name: two-kinds, partition_key: {{name: PK, type: S}}}}
    entities:
      First:
        attributes:
          n: {{type: N, generator: sequence}}
        keys: {{PK: "{first}#{{n}}"}}
        sample: {{count: 50}}
      Second:
        attributes:
          n: {{type: N, generator: {{int: {{min: 0, max: 30}}}}}}
        keys: {{PK: "X#{{n}}"}}
        sample: {{count: 5}}
    """


def two_kinds(first: str) -> d.Design:
    """With `first` X, the two entities can write the same key: the design
    check calls that an error (so the design is built here, not read), but
    the data can still be made, and Second's draws then go round First's
    keys."""
    design = read_design(textwrap.dedent(TWO_KINDS.format(first="A"))).design
    keys = MappingProxyType({"PK": d.KeyTemplate(f"{first}#{{n}}")})
    return with_entity(design, "First", keys=keys)


def test_kept_items_whose_keys_an_edit_now_takes_are_made_again(made):
    apart = two_kinds("A")
    generate(apart)
    made.clear()

    # First now makes X#0 to X#49: Second's kept keys are taken, so Second
    # draws again, as a generation from nothing would.
    clashing = two_kinds("X")
    dataset = generate(clashing)

    assert made == ["First", "Second"]
    expected = fresh(clashing)
    assert dataset.items == expected.items


def test_items_whose_draws_met_another_entitys_keys_are_not_kept(made):
    clashing = two_kinds("X")
    generate(clashing)
    made.clear()

    # Second's draws went round First's keys: with First's keys elsewhere
    # they would have been others, so Second is made again.
    apart = two_kinds("A")
    dataset = generate(apart)

    assert made == ["First", "Second"]
    assert dataset.items == fresh(apart).items


def test_kept_items_take_less_memory_than_the_items(made):
    """What a process keeps between generations of 20,000 items (the memory
    forgetting them frees) is well under what the item dicts take: it was
    dict copies and a set of key hashes, a third of a simulation's memory
    per item."""
    orders = example("order-management")
    tracemalloc.start()
    try:
        items = generate(orders, items=20_000).items
        dicts = sum(map(sys.getsizeof, items))
        holding = tracemalloc.get_traced_memory()[0]
        module.forget_kept_items()
        kept = holding - tracemalloc.get_traced_memory()[0]
        assert len(items) == 20_000
    finally:
        tracemalloc.stop()

    # The dicts take about 300 bytes an item; their kept form about 140,
    # sharing the values with the items.
    assert kept < dicts * 0.6, (kept, dicts)


def test_a_generation_that_keeps_nothing_leaves_the_next_to_make_everything(made):
    orders = example("order-management")
    once = generate(orders, keep=False)
    again = generate(orders)

    assert made == ["Customer", "Order", "LineItem"] * 2
    assert again.items == once.items


def test_generated_items_take_half_the_memory_of_plain_dicts(made):
    """Items share the table of their attribute names, made or reused: a
    million items of order-management took 320 bytes each as dicts, the
    largest part of a simulation's memory."""
    orders = example("order-management")
    made_items = generate(orders, items=5_000).items
    reused = generate(orders, items=5_000).items
    assert made == ["Customer", "Order", "LineItem"]  # the second reused them

    for items in (made_items, reused):
        compact = sum(map(sys.getsizeof, items))
        plain = sum(sys.getsizeof(dict(item.items())) for item in items)
        assert compact < plain * 0.55, (compact, plain)
    assert reused == made_items
    assert [list(item) for item in reused] == [list(item) for item in made_items]
