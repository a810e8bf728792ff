"""The figures a review derives from the sample data, against the rules
they stand for."""

from __future__ import annotations

from decimal import Decimal

from modeler.designfile import read_design
from modeler.engine.size import item_size
from modeler.review.evidence import Evidence
from tests.review.helpers import HEADER

DESIGN = (
    HEADER
    + """\
  indexes:
    - name: ByName
      kind: global
      partition_key: {name: GPK, type: S}
      sort_key: {name: GSK, type: S}
      projection: {type: KEYS_ONLY}
    - name: ByScore
      kind: global
      partition_key: {name: GPK, type: S}
      sort_key: {name: score, type: N}
      projection: {type: KEYS_ONLY}
    - name: Local
      kind: local
      sort_key: {name: GSK, type: S}
      projection: {type: INCLUDE, attributes: [note]}
entities:
  Thing:
    attributes:
      id: {type: S}
      note: {type: S}
    keys:
      PK: "T#{id}"
      SK: "T"
"""
)


def test_keys_only_entries_weigh_what_their_keys_weigh():
    design = read_design(DESIGN).design
    items = [
        {"PK": "a", "SK": "1", "GPK": "café", "GSK": "ünï", "score": Decimal("12.50")},
        {"PK": "b", "SK": "2", "GPK": "g", "GSK": "h", "note": "x" * 30},
        {"PK": "c", "SK": "3", "GPK": "g", "score": Decimal("-0.001")},
        {"PK": "d", "SK": "4", "note": "no index keys"},
    ]
    evidence = Evidence(design, items, ["Thing"] * len(items), {})
    for index in design.table.indexes:
        names = {a.name for a in index.key_attributes} | {"PK", "SK"}
        if index.projection.type == "INCLUDE":
            names |= set(index.projection.attributes)
        expected = [
            item_size({k: v for k, v in item.items() if k in names})
            if item.keys() >= {a.name for a in index.key_attributes}
            else None
            for item in items
        ]
        assert evidence.entry_sizes(index) == expected, index.name
    # Names and values in UTF-8 bytes: PK a (3), SK 1 (3), GPK café (3 + 5),
    # GSK ünï (3 + 5).
    assert evidence.entry_sizes(design.table.indexes[0])[0] == 3 + 3 + 8 + 8
