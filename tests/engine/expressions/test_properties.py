"""Rules that hold for all inputs, checked with hypothesis."""

from __future__ import annotations

import copy
from decimal import Decimal

from hypothesis import assume, given
from hypothesis import strategies as st

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import parse_condition, parse_projection, parse_update
from modeler.engine.types import BinarySet, NumberSet, StringSet, type_of

numbers = st.decimals(
    min_value=-(10**9), max_value=10**9, places=3, allow_nan=False, allow_infinity=False
)
strings = st.text(max_size=8)
binaries = st.binary(max_size=6)
ordered_scalars = st.one_of(numbers, strings, binaries)
scalars = st.one_of(ordered_scalars, st.booleans(), st.none())
sets = st.one_of(
    st.frozensets(strings, min_size=1, max_size=3).map(StringSet),
    st.frozensets(numbers, min_size=1, max_size=3).map(NumberSet),
    st.frozensets(binaries, min_size=1, max_size=3).map(BinarySet),
)
values = st.recursive(
    st.one_of(scalars, sets),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(["k", "m", "x"]), children, max_size=3),
    ),
    max_leaves=6,
)
# An item whose attribute `a` may be missing.
items = st.fixed_dictionaries(
    {"pk": strings},
    optional={
        "a": values,
        "l": st.lists(values, max_size=4),
        "m": st.dictionaries(st.sampled_from(["k", "x"]), values, max_size=2),
        "n": numbers,
        "s": st.frozensets(strings, min_size=1, max_size=3).map(StringSet),
    },
)
ORDERINGS = ["<", "<=", ">", ">="]


@st.composite
def comparisons(draw):
    """A comparison `a <op> :v` that DynamoDB accepts (ordering operators
    take S, N or B values only)."""
    operator = draw(st.sampled_from(["=", "<>", *ORDERINGS]))
    value = draw(ordered_scalars if operator in ORDERINGS else values)
    return f"a {operator} :v", {":v": value}


def holds(text: str, item: dict, literals: dict) -> bool:
    return parse_condition(text, None, literals).evaluate(item)


@given(comparisons(), items)
def test_not_negates(comparison, item):
    text, literals = comparison
    assert holds(f"NOT ({text})", item, literals) is not holds(text, item, literals)


@given(values, items)
def test_not_equal_is_the_negation_of_equal(value, item):
    literals = {":v": value}
    assert holds("a <> :v", item, literals) is not holds("a = :v", item, literals)


@given(items, st.data())
def test_between_is_two_comparisons(item, data):
    low = data.draw(ordered_scalars)
    high = data.draw(ordered_scalars)
    assume(type_of(low) == type_of(high))
    low, high = sorted([low, high])
    literals = {":lo": low, ":hi": high}
    assert holds("a BETWEEN :lo AND :hi", item, literals) is holds(
        "a >= :lo AND a <= :hi", item, literals
    )


@given(items, values, values)
def test_in_is_a_disjunction_of_equalities(item, x, y):
    literals = {":x": x, ":y": y}
    assert holds("a IN (:x, :y)", item, literals) is holds(
        "a = :x OR a = :y", item, literals
    )


@given(strings, strings)
def test_strings_order_by_utf8_bytes(stored, given_value):
    item = {"a": stored}
    expected = stored.encode("utf-8") < given_value.encode("utf-8")
    assert holds("a < :v", item, {":v": given_value}) is expected


@given(binaries, binaries)
def test_binaries_order_as_unsigned_bytes(stored, given_value):
    expected = list(stored) < list(given_value)
    assert holds("a < :v", {"a": stored}, {":v": given_value}) is expected


@given(numbers, numbers)
def test_numbers_order_numerically(stored, given_value):
    assert holds("a < :v", {"a": stored}, {":v": given_value}) is (stored < given_value)


@given(ordered_scalars, ordered_scalars)
def test_values_of_different_types_never_compare(stored, given_value):
    assume(type_of(stored) != type_of(given_value))
    for operator in ["=", *ORDERINGS]:
        assert not holds(f"a {operator} :v", {"a": stored}, {":v": given_value})


UPDATES = [
    "SET a = :v",
    "SET m.k = :v",
    "SET l[0] = :v, l[7] = :v",
    "SET l = list_append(l, :list)",
    "SET a = if_not_exists(a, :v)",
    "SET n = n + :one",
    "REMOVE a, l[0], l[2], m.k",
    "ADD n :one",
    "ADD s :set",
    "DELETE s :set",
    "SET a = l REMOVE l[1]",
]


@given(items, st.sampled_from(UPDATES), values)
def test_updates_never_change_their_input(item, text, value):
    literals = {
        ":v": value,
        ":list": [value],
        ":one": Decimal(1),
        ":set": StringSet({"x"}),
    }
    update = parse_update(text, None, literals)
    before = copy.deepcopy(item)
    try:
        after = update.apply(item)
    except ValidationException:
        after = None
    assert item == before
    assert after is not item


@given(items, values)
def test_set_then_read_back(item, value):
    after = parse_update("SET a = :v", None, {":v": value}).apply(item)
    assert holds("a = :v", after, {":v": value})
    assert after["a"] is not value or type_of(value) not in ("L", "M")


@given(items)
def test_remove_then_absent(item):
    after = parse_update("REMOVE a", None, None).apply(item)
    assert holds("attribute_not_exists(a)", after, {})
    assert {k: v for k, v in item.items() if k != "a"} == after


@given(numbers, numbers, numbers)
def test_add_accumulates(start, x, y):
    item = {"n": start}
    once = parse_update("ADD n :x", None, {":x": x}).apply(item)
    twice = parse_update("ADD n :y", None, {":y": y}).apply(once)
    assert twice["n"] == start + x + y


@given(items)
def test_projection_keeps_what_it_names(item):
    projected = parse_projection("pk, a, n, nope", None).apply(item)
    assert projected == {k: v for k, v in item.items() if k in ("pk", "a", "n")}
