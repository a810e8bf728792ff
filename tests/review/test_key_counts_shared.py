"""Key counts of an index whose partition key is another's (a line item's
GSI3PK is its PK): counted once when every item holds the same value for
both, and counted apart as soon as one item differs."""

from __future__ import annotations

from collections import Counter

from modeler.designfile import read_design
from modeler.review.evidence import Evidence
from tests.review.helpers import HEADER

DESIGN = (
    HEADER
    + """\
  indexes:
    - name: Same
      kind: global
      partition_key: {name: GPK, type: S}
      sort_key: {name: SK, type: S}
      projection: {type: ALL}
entities:
  Thing:
    attributes:
      id: {type: S}
    keys:
      PK: "T#{id}"
      SK: "T"
      GPK: "T#{id}"
"""
)


def _items(*pairs: tuple[str, str | None]) -> list[dict[str, str]]:
    items = []
    for pk, gpk in pairs:
        item = {"PK": pk, "SK": "T"}
        if gpk is not None:
            item["GPK"] = pk if gpk == pk else gpk
        items.append(item)
    return items


def _counts(items: list[dict[str, str]]) -> tuple[Counter[str], Counter[str]]:
    design = read_design(DESIGN).design
    evidence = Evidence(design, items, ["Thing"] * len(items), {})
    table = evidence.key_counts("table", ("Thing",), live=True)
    index = evidence.key_counts("Same", ("Thing",), live=True)
    return table, index


def test_an_index_keyed_as_the_table_on_every_item_counts_the_same():
    table, index = _counts(_items(("T#a", "T#a"), ("T#b", "T#b"), ("T#a", "T#a")))
    assert table == Counter({"T#a": 2, "T#b": 1})
    assert list(index.items()) == list(table.items())
    assert index is table  # kept once, and ranked once by top_keys


def test_an_item_whose_index_key_differs_is_counted_as_it_is():
    # An item of the design's own, its keys written by hand.
    table, index = _counts(_items(("T#a", "T#a"), ("T#b", "T#c"), ("T#a", "T#a")))
    assert table == Counter({"T#a": 2, "T#b": 1})
    assert index == Counter({"T#a": 2, "T#c": 1})


def test_an_equal_string_that_is_another_object_counts_the_same():
    items = _items(("T#a", "T#a"), ("T#b", "T#b"))
    items[1]["GPK"] = "".join(["T#", "b"])  # equal, not the same object
    table, index = _counts(items)
    assert index == table == Counter({"T#a": 1, "T#b": 1})


def test_an_item_without_the_index_key_is_not_in_its_counts():
    table, index = _counts(_items(("T#a", "T#a"), ("T#b", None)))
    assert table == Counter({"T#a": 1, "T#b": 1})
    assert index == Counter({"T#a": 1})
