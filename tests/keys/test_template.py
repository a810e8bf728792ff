from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from modeler.keys import MissingValueError, TemplateSyntaxError, parse_template
from modeler.keys.template import Literal, Placeholder


@pytest.mark.parametrize(
    ("source", "parts"),
    [
        ("CUST#{customerId}", (Literal("CUST#", 1), Placeholder("customerId", "", 6))),
        (
            "ORDER#{orderDate}#{orderId}",
            (
                Literal("ORDER#", 1),
                Placeholder("orderDate", "", 7),
                Literal("#", 18),
                Placeholder("orderId", "", 19),
            ),
        ),
        ("{qty:06d}", (Placeholder("qty", "06d", 1, width=6),)),
        (
            "P#{price:010.2f}",
            (Literal("P#", 1), Placeholder("price", "010.2f", 3, width=10, places=2)),
        ),
        ("{{literal}}", (Literal("{literal}", 1),)),
        ("A{{#{a}}}", (Literal("A{#", 1), Placeholder("a", "", 5), Literal("}", 8))),
        ("{address.zip-code}", (Placeholder("address.zip-code", "", 1),)),
        ("PROFILE", (Literal("PROFILE", 1),)),
        ("", ()),
    ],
)
def test_parse(source, parts):
    assert parse_template(source).parts == parts


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("CUST#{customerId", "unclosed '{' at column 6", 6),
        ("A#{}", "empty placeholder at column 3", 3),
        ("{a{b}", "unclosed '{' at column 1", 1),
        ("A}B", "single '}' at column 2: write '}}' for a literal brace", 2),
        ("#{:06d}", "placeholder at column 2 has no attribute name", 2),
        ("X#{order id}", "invalid attribute name 'order id' at column 4", 4),
        ("X#{9lives}", "invalid attribute name '9lives' at column 4", 4),
        (
            "ORDER#{n:x}",
            "unsupported format 'x' at column 10: use 0Nd (zero-padded integer) "
            "or 0N.Mf (zero-padded decimal)",
            10,
        ),
        ("{qty:6d}", "unsupported format '6d' at column 6", 6),
        ("{qty:06.0f}", "unsupported format '06.0f' at column 6", 6),
        ("{qty:>6}", "unsupported format '>6' at column 6", 6),
    ],
)
def test_parse_errors_say_what_and_where(source, message, column):
    with pytest.raises(TemplateSyntaxError) as error:
        parse_template(source)
    assert str(error.value).startswith(message)
    assert error.value.column == column


def test_parsed_templates_are_cached():
    assert parse_template("CUST#{customerId}") is parse_template("CUST#{customerId}")


def test_attributes_are_in_order_and_unique():
    template = parse_template("{b}#{a}#{b:04d}")
    assert template.attributes == ("b", "a")


@pytest.mark.parametrize(
    ("source", "prefix", "constant"),
    [
        ("ORDER#{orderDate}#{orderId}", "ORDER#", False),
        ("{{x}}#{a}", "{x}#", False),
        ("{orderId}", "", False),
        ("PROFILE", "PROFILE", True),
    ],
)
def test_literal_prefix_and_constant(source, prefix, constant):
    template = parse_template(source)
    assert template.literal_prefix == prefix
    assert template.is_constant is constant


@pytest.mark.parametrize(
    ("source", "values", "key"),
    [
        ("CUST#{customerId}", {"customerId": "c-1"}, "CUST#c-1"),
        ("{{#{a}}}", {"a": "x"}, "{#x}"),
        ("N#{n}", {"n": 42}, "N#42"),
        ("N#{n}", {"n": Decimal("10")}, "N#10"),
        ("N#{n}", {"n": Decimal("1.50")}, "N#1.5"),
        ("N#{n}", {"n": Decimal("1E+3")}, "N#1000"),
        ("N#{n}", {"n": Decimal("-0.0")}, "N#0"),
        ("N#{n}", {"n": 10.0}, "N#10"),
        ("N#{n}", {"n": 0.1}, "N#0.1"),
        ("N#{n}", {"n": 1e20}, "N#100000000000000000000"),
        ("B#{flag}", {"flag": True}, "B#true"),
        ("{qty:06d}", {"qty": 42}, "000042"),
        ("{qty:06d}", {"qty": "42"}, "000042"),
        ("{qty:06d}", {"qty": Decimal("42.0")}, "000042"),
        ("{qty:06d}", {"qty": -42}, "-00042"),
        ("{qty:03d}", {"qty": 12345}, "12345"),
        ("{price:010.2f}", {"price": Decimal("12.5")}, "0000012.50"),
        ("{price:010.2f}", {"price": "3.14159"}, "0000003.14"),
        ("{price:010.2f}", {"price": 2.5}, "0000002.50"),
        ("D#{day}", {"day": dt.date(2024, 3, 9)}, "D#2024-03-09"),
        (
            "T#{at}",
            {"at": dt.datetime(2024, 3, 9, 8, 5, 1)},
            "T#2024-03-09T08:05:01Z",
        ),
        (
            "T#{at}",
            {"at": dt.datetime(2024, 3, 9, 8, 5, 1, 250, tzinfo=dt.UTC)},
            "T#2024-03-09T08:05:01.000250Z",
        ),
        (
            "T#{at}",
            {
                "at": dt.datetime(
                    2024, 1, 1, 1, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))
                )
            },
            "T#2023-12-31T23:30:00Z",
        ),
    ],
)
def test_render_string_key(source, values, key):
    assert parse_template(source).render(values) == key


def test_render_number_key_is_a_decimal():
    key = parse_template("{score}").render({"score": 7.5}, "N")
    assert key == Decimal("7.5")
    assert isinstance(key, Decimal)


@pytest.mark.parametrize(
    ("value", "key"),
    [(b"\x00\xff", b"\x00\xff"), (bytearray(b"ab"), b"ab"), ("é", b"\xc3\xa9")],
)
def test_render_binary_key_is_bytes(value, key):
    assert parse_template("{blob}").render({"blob": value}, "B") == key


@pytest.mark.parametrize("key_type", ["N", "B"])
def test_number_and_binary_keys_need_a_single_placeholder(key_type):
    with pytest.raises(ValueError, match="single placeholder"):
        parse_template("S#{score}").render({"score": 1}, key_type)


@pytest.mark.parametrize("values", [{}, {"customerId": None}])
def test_missing_value_names_the_attribute(values):
    with pytest.raises(MissingValueError) as error:
        parse_template("CUST#{customerId}").render(values)
    assert error.value.attribute == "customerId"
    assert str(error.value) == "no value for attribute 'customerId'"


@pytest.mark.parametrize(
    ("source", "values", "key_type", "message"),
    [
        ("{qty:06d}", {"qty": 1.5}, "S", "is not an integer"),
        ("{qty:06d}", {"qty": "many"}, "S", "'many' of 'qty' is not a number"),
        ("{qty:06d}", {"qty": True}, "S", "is a bool"),
        ("{n}", {"n": float("nan")}, "S", "is not finite"),
        ("{n}", {"n": "abc"}, "N", "is not a number"),
        ("{b}", {"b": b""}, "B", "is empty"),
        ("{b}", {"b": 5}, "B", "not bytes"),
        ("{a}", {"a": b"raw"}, "S", "cannot place a bytes value of 'a'"),
        ("{a}", {"a": ""}, "S", "renders an empty key"),
        ("{a}", {"a": "x"}, "SS", "key type must be S, N or B"),
    ],
)
def test_render_refuses_values_a_key_cannot_hold(source, values, key_type, message):
    with pytest.raises((TypeError, ValueError), match=message):
        parse_template(source).render(values, key_type)


@pytest.mark.parametrize(
    ("source", "key", "values"),
    [
        ("CUST#{customerId}", "CUST#c-1", {"customerId": "c-1"}),
        (
            "ORDER#{orderDate}#{orderId}",
            "ORDER#2024-03-09#o-1",
            {"orderDate": "2024-03-09", "orderId": "o-1"},
        ),
        # The last value takes the rest, separators included.
        (
            "ORDER#{orderDate}#{orderId}",
            "ORDER#2024-03-09#o#1#2",
            {"orderDate": "2024-03-09", "orderId": "o#1#2"},
        ),
        ("A#{a}#{b}#END", "A#1#2#3#END", {"a": "1", "b": "2#3"}),
        ("{qty:06d}", "000042", {"qty": "42"}),
        ("{qty:06d}", "-00042", {"qty": "-42"}),
        ("{qty:06d}", "000000", {"qty": "0"}),
        ("{qty:03d}", "12345", {"qty": "12345"}),
        ("{price:010.2f}", "0000012.50", {"price": "12.50"}),
        ("{price:010.2f}", "-000001.50", {"price": "-1.50"}),
        # A padded number needs no separator: it ends where its width ends.
        ("{qty:04d}{id}", "0042abc", {"qty": "42", "id": "abc"}),
        # A repeated attribute must have one value throughout.
        ("{a}#{a}", "x#y#x#y", {"a": "x#y"}),
        ("{a}#{a:04d}", "42#0042", {"a": "42"}),
        ("{{{a}}}", "{x}", {"a": "x"}),
        ("PROFILE", "PROFILE", {}),
    ],
)
def test_match_gives_the_values_back(source, key, values):
    assert parse_template(source).match(key) == values


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ("CUST#{customerId}", "ORDER#1"),
        ("CUST#{customerId}", "CUST#"),
        ("CUST#{customerId}", "cust#1"),
        ("{qty:06d}", "00042"),
        ("{qty:06d}", "00004x"),
        ("{price:010.2f}", "0000012.5"),
        ("{a}#{a}", "x#y"),
        ("{a}#{a:04d}", "42#0043"),
        ("PROFILE", "PROFILES"),
    ],
)
def test_match_returns_none_for_keys_the_template_cannot_render(source, key):
    assert parse_template(source).match(key) is None


@pytest.mark.parametrize(
    ("source", "key", "values"),
    [
        ("{score}", Decimal("7.50"), {"score": "7.5"}),
        ("{score}", 42, {"score": "42"}),
        ("{blob}", b"\x00\x01", {"blob": b"\x00\x01"}),
        ("S#{score}", Decimal(1), None),
        ("S#{blob}", b"S#x", None),
    ],
)
def test_match_number_and_binary_keys(source, key, values):
    assert parse_template(source).match(key) == values
