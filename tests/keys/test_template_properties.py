"""Render then match gives the values back, for any template whose literal
separators cannot occur inside the values placed between them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from modeler.keys import parse_template

# Values never contain '#'; every literal between two placeholders does, so a
# separator is always found where the template put it.
VALUE_TEXT = st.text(
    st.characters(blacklist_characters="#", blacklist_categories=("Cs",)), min_size=1
)
LITERAL_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=4)
SEPARATOR = st.tuples(LITERAL_TEXT, LITERAL_TEXT).map(lambda p: f"{p[0]}#{p[1]}")
ATTRIBUTE_KINDS = {
    "name": "",
    "code": "",
    "qty": "05d",
    "price": "09.2f",
}


def escape(literal: str) -> str:
    return literal.replace("{", "{{").replace("}", "}}")


@st.composite
def templates(draw):
    """A template source with the values to render it with, and the values
    `match` must give back (padding removed, decimals at their places)."""
    attributes = draw(
        st.lists(st.sampled_from(sorted(ATTRIBUTE_KINDS)), min_size=1, max_size=5)
    )
    source = escape(draw(LITERAL_TEXT))
    for position, name in enumerate(attributes):
        if position:
            source += escape(draw(SEPARATOR))
        spec = ATTRIBUTE_KINDS[name]
        source += f"{{{name}:{spec}}}" if spec else f"{{{name}}}"
    source += escape(draw(LITERAL_TEXT))
    values, expected = {}, {}
    for name in set(attributes):
        spec = ATTRIBUTE_KINDS[name]
        if spec.endswith("d"):
            number = draw(st.integers(-(10**8), 10**8))
            values[name], expected[name] = number, str(number)
        elif spec.endswith("f"):
            number = draw(st.decimals(-(10**6), 10**6, places=2))
            values[name], expected[name] = number, str(number)
        else:
            values[name] = expected[name] = draw(VALUE_TEXT)
    return source, values, expected


@given(templates())
def test_render_then_match_gives_the_values_back(case):
    source, values, expected = case
    template = parse_template(source)
    assert template.match(template.render(values)) == expected


@given(st.datetimes(timezones=st.just(dt.UTC)), VALUE_TEXT)
def test_timestamps_round_trip(moment, order_id):
    template = parse_template("ORDER#{createdAt}#{orderId}")
    values = template.match(template.render({"createdAt": moment, "orderId": order_id}))
    assert dt.datetime.fromisoformat(values["createdAt"]) == moment
    assert values["orderId"] == order_id


@given(st.lists(st.integers(0, 10**6), min_size=2, max_size=20))
def test_zero_padded_numbers_sort_as_numbers(numbers):
    template = parse_template("QTY#{qty:07d}")
    keyed = sorted((template.render({"qty": n}).encode(), n) for n in numbers)
    assert [n for _, n in keyed] == sorted(numbers)


@given(st.decimals(-(10**12), 10**12, places=6))
def test_number_keys_match_back_to_an_equal_number(number):
    template = parse_template("{score}")
    matched = template.match(template.render({"score": number}, "N"))
    assert Decimal(matched["score"]) == number


KEY_VALUES = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=6),
    st.integers(-(10**6), 10**6),
    st.decimals(-(10**6), 10**6, places=2),
    st.booleans(),
    st.none(),
)


@given(
    st.lists(
        st.one_of(LITERAL_TEXT.map(escape), st.sampled_from(["{a}", "{b}", "{n:04d}"])),
        max_size=5,
    ),
    st.fixed_dictionaries(
        {}, optional={"a": KEY_VALUES, "b": KEY_VALUES, "n": KEY_VALUES}
    ),
)
def test_the_quick_renderer_agrees_with_render(pieces, values):
    """Sample data renders keys through `renderer`; whatever the values, it
    gives what `render` gives, or raises what `render` raises."""
    template = parse_template("".join(pieces) or "K")

    def outcome(render):
        try:
            return "key", render(values)
        except Exception as exc:  # the same error, by type and message
            return type(exc).__name__, str(exc)

    assert outcome(template.renderer()) == outcome(template.render)


@given(
    st.sampled_from(["{a}", "K#{a}", "{a}#", "ITEM#{n:03d}", "{n:02d}"]),
    st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                # Few distinct values, so that they meet again.
                "a": st.one_of(st.sampled_from(["x", "y", ""]), KEY_VALUES),
                "n": st.one_of(
                    st.integers(-2, 3),
                    st.sampled_from([Decimal("1"), Decimal("1.0"), Decimal("1.5")]),
                    KEY_VALUES,
                ),
            },
        ),
        max_size=12,
    ),
)
def test_one_quick_renderer_agrees_with_render_call_after_call(source, calls):
    """A renderer keeps the keys it made to share them (the last value's, the
    padded numbers'): whatever came before, each call gives what `render`
    gives, or raises what `render` raises."""
    template = parse_template(source)
    quick = template.renderer()
    # Values that repeat, as siblings' do: the same object, then an equal one.
    calls = [c for values in calls for c in (values, values, dict(values))]

    def outcome(render, values):
        try:
            return "key", render(values)
        except Exception as exc:  # the same error, by type and message
            return type(exc).__name__, str(exc)

    for values in calls:
        assert outcome(quick, values) == outcome(template.render, values)


def test_a_renderer_gives_each_value_its_own_key_after_others():
    numbers = [1, 2, 1, Decimal("2"), Decimal("2.0"), -1, 0, 1000, 2, Decimal("-1")]
    padded = parse_template("ITEM#{n:03d}")
    quick = padded.renderer()
    assert [quick({"n": n}) for n in numbers] == [
        padded.render({"n": n}) for n in numbers
    ]
    texts = ["x", "y", "y", "x", "", "x"]
    placed = parse_template("K#{a}")
    quick = placed.renderer()
    assert [quick({"a": a}) for a in texts] == [placed.render({"a": a}) for a in texts]
