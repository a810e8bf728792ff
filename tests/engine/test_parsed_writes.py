"""A write's parsed expressions, kept by what they depend on (`writes._PARSED`):
a request sent again with other keys finds them, and one whose texts, names,
values (by type and text) or table's key differ is parsed and checked anew,
so that every answer and error is the one the request gets alone; likewise
the table names a write's quick check keeps."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.engine import constraints, writes
from modeler.engine.engine import Engine
from tests.engine.helpers import N, S, item, raises, table_request


@pytest.fixture
def engine() -> Engine:
    writes._PARSED.clear()
    engine = Engine()
    engine.create_table(table_request())
    engine.create_table(table_request("Other", partition="id", sort=None))
    return engine


def _update(engine: Engine, table: str, key: dict, **request: Any) -> dict:
    return engine.update_item(
        {"TableName": table, "Key": key, "ReturnValues": "ALL_NEW", **request}
    )["Attributes"]


def test_the_same_expression_with_other_values_and_keys(engine: Engine) -> None:
    add = {
        "UpdateExpression": "SET #t = if_not_exists(#t, :zero) + :d",
        "ExpressionAttributeNames": {"#t": "total"},
    }
    values = {":zero": N(0), ":d": N(1)}
    for sk in ("1", "2", "1"):
        key = {"PK": S("c"), "SK": S(sk)}
        _update(engine, "Shop", key, **add, ExpressionAttributeValues=values)
    assert len(writes._PARSED) == 1
    other = {":zero": N(0), ":d": N("2.5")}
    new = _update(
        engine,
        "Shop",
        {"PK": S("c"), "SK": S("1")},
        **add,
        ExpressionAttributeValues=other,
    )
    assert new["total"] == N("4.5")
    # The same text as a string is another value: a number plus a string.
    with raises(
        "ValidationException",
        "Invalid UpdateExpression: Incorrect operand type for operator or function; "
        "operator or function: +, operand type: S",
    ):
        _update(
            engine,
            "Shop",
            {"PK": S("c"), "SK": S("1")},
            **add,
            ExpressionAttributeValues={":zero": N(0), ":d": S("1")},
        )
    assert len(writes._PARSED) == 2  # refused as it is parsed: not kept


def test_a_key_attribute_is_refused_on_its_own_table_only(engine: Engine) -> None:
    request = {
        "UpdateExpression": "SET PK = :v",
        "ExpressionAttributeValues": {":v": S("x")},
    }
    for _ in range(2):
        assert _update(engine, "Other", {"id": S("a")}, **request)["PK"] == S("x")
        with raises(
            "ValidationException",
            "One or more parameter values were invalid: Cannot update attribute PK. "
            "This attribute is part of the key",
        ):
            _update(engine, "Shop", {"PK": S("c"), "SK": S("1")}, **request)


def test_refused_expressions_are_refused_again(engine: Engine) -> None:
    key = {"PK": S("c"), "SK": S("1")}
    unused = {
        "UpdateExpression": "SET a = :a",
        "ExpressionAttributeValues": {":a": N(1), ":b": N(2)},
    }
    bad_number = {
        "UpdateExpression": "SET a = :a",
        "ExpressionAttributeValues": {":a": N("one")},
    }
    for _ in range(2):
        with raises(
            "ValidationException",
            "Value provided in ExpressionAttributeValues unused in expressions: "
            "keys: {:b}",
        ):
            _update(engine, "Shop", key, **unused)
        with raises("ValidationException") as error:
            _update(engine, "Shop", key, **bad_number)
        assert "cannot be converted to a numeric value" in str(error.value)
        with raises("ValidationException"):
            _update(engine, "Shop", key, UpdateExpression=None)
    assert writes._PARSED == {}


def test_conditions_are_kept_with_their_values(engine: Engine) -> None:
    engine.put_item({"TableName": "Shop", "Item": item("c", "1", n=5)})
    request = {"ConditionExpression": "n = :n", "Item": item("c", "1", n=6)}
    with raises("ConditionalCheckFailedException"):
        engine.put_item(
            {"TableName": "Shop", **request, "ExpressionAttributeValues": {":n": N(4)}}
        )
    engine.put_item(
        {"TableName": "Shop", **request, "ExpressionAttributeValues": {":n": N(5)}}
    )
    with raises("ConditionalCheckFailedException"):
        engine.put_item(
            {"TableName": "Shop", **request, "ExpressionAttributeValues": {":n": N(4)}}
        )
    assert len(writes._PARSED) == 2  # a put with no expression is not kept


def test_table_names_are_checked_until_they_pass(engine: Engine) -> None:
    """The names that passed are kept (`constraints._PASSED_NAMES`); one that
    does not pass is refused every time, after a valid one too."""
    for _ in range(2):
        engine.put_item({"TableName": "Shop", "Item": item("c", "1")})
        for name, failure in (
            ("ab", "Member must have length greater than or equal to 3"),
            ("bad name!", "Member must satisfy regular expression pattern"),
        ):
            with raises("ValidationException") as error:
                engine.put_item({"TableName": name, "Item": item("c", "1")})
            assert failure in str(error.value)
    assert "Shop" in constraints._PASSED_NAMES
    assert "ab" not in constraints._PASSED_NAMES
