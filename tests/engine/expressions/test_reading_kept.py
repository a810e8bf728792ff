"""The reading of an expression text is kept and bound again per request:
the same text with other values or names gives that request's results, and
nothing bound by one request reaches another. A binding to the same names
and scalar values is kept whole."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import (
    Path,
    parse_condition,
    parse_key_condition,
    parse_projection,
    parse_update,
)
from modeler.engine.expressions.parser import _reading

D = Decimal
ITEM = {"PK": "A", "SK": "ORDER#2", "amount": D(5), "name": "x", "size": D(1)}


def test_same_text_with_other_values_gives_each_requests_result() -> None:
    text = "amount > :v"
    assert parse_condition(text, None, {":v": D(4)}).evaluate(ITEM)
    assert not parse_condition(text, None, {":v": D(5)}).evaluate(ITEM)
    assert parse_condition(text, None, {":v": D(4)}).evaluate(ITEM)


def test_same_key_condition_with_other_values() -> None:
    text = "PK = :p AND begins_with(SK, :s)"
    first = parse_key_condition(text, None, {":p": "A", ":s": "ORDER#"}, ["PK"], ["SK"])
    second = parse_key_condition(text, None, {":p": "B", ":s": "INV#"}, ["PK"], ["SK"])
    assert first.partition == (("PK", "A"),)
    assert first.sort[0].values == ("ORDER#",)
    assert second.partition == (("PK", "B"),)
    assert second.sort[0].values == ("INV#",)
    assert first.matches(ITEM) and not second.matches(ITEM)


def test_same_update_with_other_values() -> None:
    text = "SET #t = #t + :d"
    names = {"#t": "amount"}
    assert parse_update(text, names, {":d": D(1)}).apply(ITEM)["amount"] == 6
    assert parse_update(text, names, {":d": D(10)}).apply(ITEM)["amount"] == 15
    assert ITEM["amount"] == 5


def test_same_text_with_other_names_reads_other_attributes() -> None:
    text = "#a = :v"
    on_name = parse_condition(text, {"#a": "name"}, {":v": "x"})
    on_pk = parse_condition(text, {"#a": "PK"}, {":v": "x"})
    assert on_name.evaluate(ITEM) and not on_pk.evaluate(ITEM)
    projected = parse_projection("#a, SK", {"#a": "amount"})
    assert projected.paths == [Path(("amount",)), Path(("SK",))]
    assert parse_projection("#a, SK", {"#a": "PK"}).paths[0] == Path(("PK",))


def test_values_of_an_earlier_request_do_not_leak() -> None:
    text = "amount = :v AND #n = :w"
    parsed = parse_condition(text, {"#n": "name"}, {":v": D(5), ":w": "x"})
    assert parsed.usage.values == {":v", ":w"} and parsed.usage.names == {"#n"}
    with pytest.raises(ValidationException) as raised:
        parse_condition(text, {"#n": "name"}, {":v": D(5)})
    assert "attribute value: :w" in raised.value.message
    with pytest.raises(ValidationException) as raised:
        parse_condition(text, None, {":v": D(5), ":w": "x"})
    assert "attribute name: #n" in raised.value.message
    again = parse_condition(text, {"#n": "name"}, {":v": D(6), ":w": "x"})
    assert not again.evaluate(ITEM)
    assert parsed.usage is not again.usage


def test_problems_found_while_reading_are_raised_every_time() -> None:
    for _ in range(2):
        with pytest.raises(ValidationException, match="reserved keyword: size"):
            parse_condition("size = :v", None, {":v": D(1)})
        with pytest.raises(ValidationException, match="redundant parentheses"):
            parse_condition("((amount = :v))", None, {":v": D(1)})
        with pytest.raises(ValidationException, match="Syntax error"):
            parse_condition("amount = = :v", None, {":v": D(1)})


def test_problems_of_binding_are_the_requests_own() -> None:
    text = "amount BETWEEN :a AND :b"
    with pytest.raises(ValidationException, match="upper bound"):
        parse_condition(text, None, {":a": D(9), ":b": D(1)})
    assert parse_condition(text, None, {":a": D(1), ":b": D(9)}).evaluate(ITEM)


def test_a_text_is_read_once() -> None:
    text = "attribute_exists(#kept_once_test)"
    before = _reading.cache_info()
    parse_condition(text, {"#kept_once_test": "PK"}, None)
    parse_condition(text, {"#kept_once_test": "SK"}, None)
    after = _reading.cache_info()
    assert after.misses == before.misses + 1
    assert after.hits == before.hits + 1


def test_the_same_names_and_values_give_the_kept_binding() -> None:
    text = "SET #t = #t + :d"
    first = parse_update(text, {"#t": "amount"}, {":d": D(1)})
    assert parse_update(text, {"#t": "amount"}, {":d": D(1)}) is first
    assert parse_update(text, {"#t": "size"}, {":d": D(1)}) is not first
    assert parse_update(text, {"#t": "amount"}, {":d": D(2)}) is not first


def test_equal_numbers_written_apart_are_bound_apart() -> None:
    # 1 and 1.0 are equal, but a SET stores the number as it was written.
    one = parse_update("SET n = :v", None, {":v": D("1")})
    one_point_zero = parse_update("SET n = :v", None, {":v": D("1.0")})
    assert str(one.apply({})["n"]) == "1"
    assert str(one_point_zero.apply({})["n"]) == "1.0"


def test_a_boolean_is_not_bound_as_a_number() -> None:
    text = "flag = :v"
    assert parse_condition(text, None, {":v": True}).evaluate({"flag": True})
    assert not parse_condition(text, None, {":v": D(1)}).evaluate({"flag": True})


@pytest.mark.parametrize(
    "value",
    [["a"], {"a": D(1)}, "x" * 1000],
    ids=["list", "map", "long text"],
)
def test_documents_and_long_values_are_bound_each_time(value: object) -> None:
    text = "SET v = :v"
    assert parse_update(text, None, {":v": value}) is not parse_update(
        text, None, {":v": value}
    )


def test_a_kept_key_condition_is_read_again_for_another_key_schema() -> None:
    # The same binding read against another key: its own answer, or its
    # own error, every time.
    text = "PK = :p AND SK = :s"
    values = {":p": "A", ":s": "ORDER#2"}
    for _ in range(2):
        on_table = parse_key_condition(text, None, values, ["PK"], ["SK"])
        assert on_table.partition == (("PK", "A"),)
        assert [c.attribute for c in on_table.sort] == ["SK"]
        on_both = parse_key_condition(text, None, values, ["PK", "SK"], [])
        assert on_both.partition == (("PK", "A"), ("SK", "ORDER#2"))
        assert on_both.sort == ()
        with pytest.raises(ValidationException, match="missed key schema element: G"):
            parse_key_condition(text, None, values, ["G"], ["SK"])


def test_a_key_condition_read_before_is_bound_to_each_requests_values() -> None:
    # Read once, then bound again: the values that a reading refuses are
    # refused as the first time, whatever was read before.
    text = "#p = :p AND #s BETWEEN :low AND :high"
    names = {"#p": "PK", "#s": "SK"}

    def parsed(low: object, high: object, p: object = "A") -> object:
        values = {":p": p, ":low": low, ":high": high}
        return parse_key_condition(text, names, values, ["PK"], ["SK"])

    def refusal(low: object, high: object, p: object = "A") -> str:
        with pytest.raises(ValidationException) as raised:
            parsed(low, high, p)
        return raised.value.message

    reversed_bounds = refusal("B", "A")
    mixed_types = refusal("A", D(1))
    for low, high in (("A", "B"), ("C", "D"), ("A", "A")):
        condition = parsed(low, high, p=low)
        assert condition.partition == (("PK", low),)
        assert condition.sort[0].operator == "BETWEEN"
        assert condition.sort[0].values == (low, high)
        assert refusal("B", "A") == reversed_bounds
        assert refusal(D(2), D(1)) == reversed_bounds.replace(
            "AttributeValue: {S:B}", "AttributeValue: {N:2}"
        ).replace("AttributeValue: {S:A}", "AttributeValue: {N:1}")
        assert refusal("A", D(1)) == mixed_types
    assert "upper bound to be greater" in reversed_bounds
    assert "same data type" in mixed_types
    assert parsed(D(1), D(2), p=D(5)).partition == (("PK", D(5)),)


def test_a_key_condition_read_before_with_other_names_or_types() -> None:
    text = "#k = :p AND begins_with(SK, :o)"
    on_pk = parse_key_condition(
        text, {"#k": "PK"}, {":p": "A", ":o": "O#"}, ["PK"], ["SK"]
    )
    assert on_pk.partition == (("PK", "A"),)
    with pytest.raises(ValidationException, match="missed key schema element: PK"):
        parse_key_condition(text, {"#k": "G"}, {":p": "A", ":o": "O#"}, ["PK"], ["SK"])
    with pytest.raises(ValidationException, match="operand type: N"):
        parse_key_condition(text, {"#k": "PK"}, {":p": "A", ":o": D(1)}, ["PK"], ["SK"])
    with pytest.raises(ValidationException, match="attribute value: :o"):
        parse_key_condition(text, {"#k": "PK"}, {":p": "A", ":q": "O#"}, ["PK"], ["SK"])
    again = parse_key_condition(
        text, {"#k": "PK"}, {":p": "B", ":o": "X#"}, ["PK"], ["SK"]
    )
    assert again.partition == (("PK", "B"),)
    assert again.sort[0].values == ("X#",)
    assert on_pk.sort[0].values == ("O#",)
