"""item_json_line writes items of one set of names by the shape of the last
such item: a value of another type under a name is still written as its
own type."""

from __future__ import annotations

import itertools
import json
from decimal import Decimal

from modeler.engine import types

VALUES = [
    "1",
    Decimal("1"),
    Decimal("1.50"),
    True,
    1,
    0.5,
    None,
    b"\x00",
    {"m": Decimal("2")},
    [True, "x"],
    types.StringSet({"b", "a"}),
]


def _expected(item: dict) -> str:
    return json.dumps(
        types.item_to_json_wire(item), ensure_ascii=False, separators=(",", ":")
    )


def test_each_value_after_each_other_under_one_name_is_written_as_itself():
    for first, then in itertools.product(VALUES, repeat=2):
        for value in (first, then, first):
            item = {"PK": "k", "v": value, "w": "text"}
            assert types.item_json_line(item) == _expected(item), (first, then)
