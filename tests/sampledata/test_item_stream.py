"""ItemStream: a generation's items one at a time, the last entity made as
its items are taken, byte for byte the items `generate` gives."""

from __future__ import annotations

import importlib

import pytest

from modeler.sampledata import ItemStream, SampleDataError, generate, write_jsonl
from tests.sampledata.helpers import design_from, example


def _lines(items):
    return list(write_jsonl(items))


@pytest.mark.parametrize(
    "name", ["order-management", "social-graph", "device-telemetry"]
)
@pytest.mark.parametrize(("seed", "items"), [(None, None), (3, 777), (11, 5_000)])
def test_the_stream_gives_generates_items_in_its_order(name, seed, items):
    design = example(name)
    expected = generate(design, seed=seed, items=items, keep=False)
    stream = ItemStream(design, seed=seed, items=items)

    assert _lines(stream) == _lines(expected.items)
    assert stream.count == len(expected)
    assert stream.distinct_keys


FAMILY = """
    format: single-table-workbench/v1
    name: Shop
    table:
      name: shop
      partition_key: {name: PK, type: S}
      sort_key: {name: SK, type: S}
    entities:
      Product:
        attributes:
          id: {type: S, generator: uuid}
        keys: {PK: "PRODUCT#{id}", SK: "PRODUCT"}
        sample: {count: 30}
      Shop:
        attributes:
          id: {type: S, generator: uuid}
        keys: {PK: "SHOP#{id}", SK: "SHOP"}
        sample: {count: 20}
      Shelf:
        attributes:
          shopId: {type: S, generator: {ref: Shop.id}}
          n: {type: N, generator: sequence}
        keys: {PK: "SHOP#{shopId}", SK: "SHELF#{n:03d}"}
        sample: {per: Shop, count: {zipf: {s: 1.1, max: 9}}, hot: {keys: 2, share: 0.5}}
      Clerk:
        attributes:
          shopId: {type: S, generator: {ref: Shop.id}}
          id: {type: S, generator: ulid}
        keys: {PK: "SHOP#{shopId}", SK: "CLERK#{id}"}
        sample: {per: Shop, count: {uniform: {min: 0, max: 3}}}
      Stock:
        attributes:
          shopId: {type: S, generator: {ref: Shop.id}}
          shelf: {type: N, generator: {ref: Shelf.n}}
          productId: {type: S, generator: {pick: Product.id}}
          n: {type: N, generator: sequence}
        keys: {PK: "SHOP#{shopId}", SK: "STOCK#{shelf}#{n:03d}"}
        sample: {per: Shelf, count: {uniform: {min: 0, max: 4}}}
    """


@pytest.mark.parametrize("items", [None, 150, 2_000])
def test_the_stream_makes_the_last_entity_among_its_parents_and_siblings(items):
    """Stock, made last, is a grandchild with siblings (Clerk) beside its
    parent, parents without children, and a pick from another root."""
    design = design_from(FAMILY)
    expected = generate(design, seed=5, items=items, keep=False)
    stream = ItemStream(design, seed=5, items=items)

    assert _lines(stream) == _lines(expected.items)
    assert "Stock" in expected.entities[: items or None]
    assert stream.count == len(expected)


ROOT_LAST = """
    format: single-table-workbench/v1
    name: Visits
    table:
      name: visits
      partition_key: {name: PK, type: S}
      sort_key: {name: SK, type: S}
    entities:
      Visit:
        attributes:
          shopId: {type: S, generator: {pick: Shop.id}}
          id: {type: S, generator: ulid}
        keys: {PK: "SHOP#{shopId}", SK: "VISIT#{id}"}
        sample: {count: 300}
      Shop:
        attributes:
          id: {type: S, generator: uuid}
        keys: {PK: "SHOP#{id}", SK: "SHOP"}
        sample: {count: 20}
    """


def test_the_stream_of_a_root_made_last():
    """Visit picks from Shop, so it is made last, though it comes first."""
    design = design_from(ROOT_LAST)
    expected = generate(design, seed=2, items=250, keep=False)
    stream = ItemStream(design, seed=2, items=250)

    assert _lines(stream) == _lines(expected.items)
    assert expected.entities[0] == "Visit" and stream.count == 250


def test_the_stream_says_when_keys_ran_out():
    """Eight stock lines a shelf numbered from five: items share keys, and
    the stream says so once read."""
    crowded = design_from(
        FAMILY.replace("{uniform: {min: 0, max: 4}}", "8").replace(
            'n: {type: N, generator: sequence}\n        keys: {PK: "SHOP#{shopId}", '
            'SK: "STOCK',
            "n: {type: N, generator: {int: {min: 1, max: 5}}}\n        keys: "
            '{PK: "SHOP#{shopId}", SK: "STOCK',
        )
    )
    expected = generate(crowded, seed=2, keep=False)
    stream = ItemStream(crowded, seed=2)

    assert _lines(stream) == _lines(expected.items)
    assert not stream.distinct_keys and not expected.distinct_keys


def test_the_stream_refuses_what_generate_refuses():
    design = design_from(
        FAMILY.replace(
            "productId: {type: S, generator: {pick: Product.id}}",
            "productId: {type: S, generator: {faker: {provider: numerify, "
            'text: "#", unique: true}}}',
        )
    )
    with pytest.raises(SampleDataError) as made:
        generate(design, keep=False)
    with pytest.raises(SampleDataError) as streamed:
        list(ItemStream(design))
    assert str(streamed.value) == str(made.value)
    assert "made 10 distinct values" in str(made.value)


@pytest.mark.parametrize("items", [None, 7, 8, 333])
def test_the_stream_in_small_blocks_cuts_where_generate_cuts(items, monkeypatch):
    """Blocks of seven items: runs of parents cut short, the limit met
    inside a block and at its end, a root made last in several blocks."""
    monkeypatch.setattr(
        importlib.import_module(ItemStream.__module__), "BLOCK_ITEMS", 7
    )
    for design in (design_from(FAMILY), design_from(ROOT_LAST)):
        expected = generate(design, seed=9, items=items, keep=False)
        stream = ItemStream(design, seed=9, items=items)

        assert _lines(stream) == _lines(expected.items)
        assert stream.count == len(expected)
