"""The engine's fast item conversions agree with `types`' reference ones."""

from __future__ import annotations

import json
import sys
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeler.engine import types, wire
from modeler.engine.errors import ValidationException

numbers = st.decimals(
    allow_nan=False,
    allow_infinity=False,
    places=12,
    min_value=-(10**20),
    max_value=10**20,
).map(types.number)
scalars = st.one_of(
    st.text(max_size=8), numbers, st.binary(max_size=4), st.booleans(), st.none()
)
values = st.recursive(
    st.one_of(
        scalars,
        st.frozensets(st.text(max_size=4), min_size=1, max_size=3).map(types.StringSet),
        st.frozensets(numbers, min_size=1, max_size=3).map(types.NumberSet),
        st.frozensets(st.binary(min_size=1, max_size=3), min_size=1, max_size=3).map(
            types.BinarySet
        ),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.text(min_size=1, max_size=4), inner, max_size=3),
    ),
    max_leaves=8,
)
items = st.dictionaries(st.text(min_size=1, max_size=6), values, max_size=6)


@given(items)
def test_to_wire_matches_types(item: dict) -> None:
    assert wire.item_to_wire(item) == types.item_to_wire(item)


@given(items)
def test_from_wire_round_trips(item: dict) -> None:
    assert wire.item_from_wire(types.item_to_wire(item)) == item


@pytest.mark.parametrize(
    "text", ["0", "-0", "1.50", "1E+2", "-0.50", "1E-7", "0.000001", "100", "12.34"]
)
def test_number_text_is_canonical(text: str) -> None:
    assert wire.item_to_wire({"n": Decimal(text)}) == {
        "n": {"N": types.number_text(Decimal(text))}
    }


def test_attribute_names_are_interned() -> None:
    name = "".join(["attr", "ibute"])  # built at run time: not interned yet
    item = wire.item_from_wire({name: {"S": "x"}})
    assert next(iter(item)) is sys.intern("attribute")


def test_from_wire_refuses_what_is_not_an_item() -> None:
    with pytest.raises(ValidationException):
        wire.item_from_wire(["not", "a", "map"])


def test_a_map_key_named_like_a_type_is_just_a_name():
    from modeler.engine.types import item_to_json_wire

    item = {"m": {"BS": "not a binary set", "B": "text"}}
    assert item_to_json_wire(item) == {
        "m": {"M": {"BS": {"S": "not a binary set"}, "B": {"S": "text"}}}
    }


@given(items)
def test_a_json_line_is_the_text_of_the_json_wire_item(item: dict) -> None:
    # The sample_data command writes each line in one pass; the file must
    # read exactly as the wire dicts serialised (binaries in base64, sets
    # sorted, text not escaped to ASCII).
    expected = json.dumps(
        types.item_to_json_wire(item), ensure_ascii=False, separators=(",", ":")
    )
    assert types.item_json_line(item) == expected


def test_a_json_line_writes_python_numbers_and_binaries_as_dynamodb_does() -> None:
    line = types.item_json_line(
        {"n": 3, "f": 0.5, "raw": bytearray(b"\x00\xff"), "t": 'é"\n', "z": None}
    )
    assert json.loads(line) == {
        "n": {"N": "3"},
        "f": {"N": "0.5"},
        "raw": {"B": "AP8="},
        "t": {"S": 'é"\n'},
        "z": {"NULL": True},
    }
    assert "é" in line


@given(st.lists(items, max_size=6))
def test_items_to_wire_matches_types_in_order(batch: list[dict]) -> None:
    converted = wire.items_to_wire(batch)
    assert converted == [types.item_to_wire(item) for item in batch]
    assert [list(w) for w in converted] == [list(item) for item in batch]


def test_one_shape_of_names_after_another() -> None:
    # The converter of the last shape refuses an item whose values have
    # other types, or that has more or fewer attributes.
    batch = [
        {"a": "x", "b": Decimal("1.50")},
        {"a": Decimal("2"), "b": "y"},
        {"a": True, "b": None},
        {"a": None, "b": False},
        {"a": "x", "b": Decimal("-0")},
        {"a": "x"},
        {"a": "x", "b": "y", "c": [Decimal("1E+2")]},
        {"b": "y", "a": "x"},
        {},
    ]
    for converted in (wire.items_to_wire(batch), list(map(wire.item_to_wire, batch))):
        assert converted == [types.item_to_wire(item) for item in batch]
        assert [list(w) for w in converted] == [list(item) for item in batch]


def test_runs_of_one_shape_broken_by_items_of_others() -> None:
    # The list converter of a shape converts a run of its items and stops at
    # the first item of another shape (another type at any place, more or
    # fewer attributes, no converter at all), whose converter goes on.
    shape = {"PK": "p", "n": Decimal("1.50"), "ok": True, "z": None, "s": "x"}
    others = [
        {**shape, "PK": Decimal("3")},
        {**shape, "n": "not a number"},
        {**shape, "ok": None},
        {**shape, "z": False},
        {**shape, "s": types.StringSet({"a", "b"})},
        {**shape, "s": types.NumberSet({Decimal("1E+2")})},
        {**shape, "s": types.BinarySet({b"\x00"})},
        {**shape, "s": b"\x01"},
        {**shape, "s": [Decimal("-0"), "y", {"m": True}]},
        {**shape, "s": {"m": [None]}},
        {**shape, "extra": "y"},
        {"PK": "p"},
        {},
        {f"a{n}": Decimal(n) for n in range(wire.MAX_SHAPED_ATTRIBUTES + 1)},
    ]
    batch = []
    for number, other in enumerate(others):
        batch += [{**shape, "n": Decimal(number) / 4}] * 3 + [other]
    batch += [shape, shape]
    for pages in (batch, batch[::-1], others, others[::-1]):
        converted = wire.items_to_wire(pages)
        assert converted == [types.item_to_wire(item) for item in pages]
        assert [list(w) for w in converted] == [list(item) for item in pages]


def test_converted_items_are_new_each_time() -> None:
    # Callers may change a response: nothing in it is shared with another.
    batch = [{"a": "x", "b": Decimal("2")}] * 2
    first, second = wire.items_to_wire(batch), wire.items_to_wire(batch)
    values = [v for w in first + second for v in w.values()]
    assert len({id(w) for w in first + second}) == 4
    assert len({id(v) for v in values}) == len(values)
