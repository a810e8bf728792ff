from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeler.keys import ConditionSyntaxError, parse_condition
from modeler.keys.condition import Comparison, Condition, Presence


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("status = OPEN", "status = OPEN"),
        ("status=OPEN", "status = OPEN"),
        ('status = "IN PROGRESS"', 'status = "IN PROGRESS"'),
        ('status = "OPEN"', "status = OPEN"),
        ('title = "say \\"hi\\""', 'title = "say \\"hi\\""'),
        ("status != CLOSED", "status != CLOSED"),
        ("status IN (OPEN,PENDING)", "status in (OPEN, PENDING)"),
        ("attribute_exists(shippedAt)", "attribute_exists(shippedAt)"),
        ("Attribute_Not_Exists( deletedAt )", "attribute_not_exists(deletedAt)"),
        ("priority >= 3", "priority >= 3"),
        ("priority<-1.5", "priority < -1.5"),
        ('code = "3"', 'code = "3"'),
        ('word = "and"', 'word = "and"'),
        ("type = ORDER#1", "type = ORDER#1"),
        (
            "status = OPEN AND attribute_exists(shippedAt) and priority > 2",
            "status = OPEN and attribute_exists(shippedAt) and priority > 2",
        ),
    ],
)
def test_parse_and_canonical_text(text, canonical):
    assert str(parse_condition(text)) == canonical


def test_parsed_structure():
    condition = parse_condition('status in (OPEN, "ON HOLD") and priority >= 3')
    assert condition == Condition(
        (
            Comparison("status", "in", ("OPEN", "ON HOLD")),
            Comparison("priority", ">=", (Decimal(3),)),
        )
    )
    assert condition.attributes == ("status", "priority")


def test_attributes_are_unique():
    condition = parse_condition("attribute_exists(a) and a != X and b = 1")
    assert condition.attributes == ("a", "b")
    assert parse_condition("attribute_exists(a)").clauses == (Presence("a", True),)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (
            "status OPEN",
            "expected an operator (=, !=, <, <=, >, >=, in) after 'status' "
            "at column 8, found 'OPEN'",
            8,
        ),
        ("status", "expected an operator", 7),
        ("status =", "expected a value after '=' at column 9, found the end", 9),
        ("status = OPEN or x = 1", "expected 'and' or the end of the condition", 15),
        ("status = OPEN and", "expected an attribute name at column 18", 18),
        ("= OPEN", "expected an attribute name at column 1, found '='", 1),
        ('status = "OPEN', "unclosed '\"' at column 10", 10),
        ("status ! OPEN", "expected '=' after '!' at column 9", 9),
        ("status in OPEN", "expected '(' after 'in' at column 11", 11),
        ("status in (OPEN PENDING)", "expected ',' or ')' at column 17", 17),
        ("status in ()", "expected a value after '(' at column 12", 12),
        ("attribute_exists shippedAt", "expected '(' after 'attribute_exists'", 18),
        ("attribute_exists(shippedAt", "expected ')' after 'shippedAt'", 27),
        ("", "empty condition at column 1", 1),
        ("   ", "empty condition at column 1", 1),
    ],
)
def test_syntax_errors_say_what_was_expected_and_where(text, message, column):
    with pytest.raises(ConditionSyntaxError) as error:
        parse_condition(text)
    assert str(error.value).startswith(message)
    assert error.value.column == column


@pytest.mark.parametrize(
    ("text", "values", "holds"),
    [
        ("status = OPEN", {"status": "OPEN"}, True),
        ("status = OPEN", {"status": "open"}, False),
        ("status = OPEN", {}, False),
        ("status = OPEN", {"status": None}, False),
        ('status = "IN PROGRESS"', {"status": "IN PROGRESS"}, True),
        ("status != CLOSED", {"status": "OPEN"}, True),
        ("status != CLOSED", {"status": "CLOSED"}, False),
        # As in DynamoDB, a missing attribute is unequal to any value.
        ("status != CLOSED", {}, True),
        ("status in (OPEN, PENDING)", {"status": "PENDING"}, True),
        ("status in (OPEN, PENDING)", {"status": "CLOSED"}, False),
        ("attribute_exists(shippedAt)", {"shippedAt": "2024-01-01"}, True),
        ("attribute_exists(shippedAt)", {}, False),
        ("attribute_not_exists(deletedAt)", {}, True),
        ("attribute_not_exists(deletedAt)", {"deletedAt": "x"}, False),
        # Numbers compare as numbers, also when the item holds numeric text.
        ("priority >= 3", {"priority": 10}, True),
        ("priority >= 3", {"priority": Decimal("2.5")}, False),
        ("priority >= 3", {"priority": "10"}, True),
        ("priority = 3", {"priority": 3.0}, True),
        ("priority < 3", {"priority": "high"}, False),
        ("priority != 3", {"priority": "high"}, True),
        # A quoted number is text: "10" sorts before "9".
        ('code > "9"', {"code": "10"}, False),
        # Text compares by UTF-8 bytes: "Z" < "a".
        ("name < a", {"name": "Z"}, True),
        ("active = true", {"active": True}, True),
        ("status = OPEN and priority > 2", {"status": "OPEN", "priority": 3}, True),
        ("status = OPEN and priority > 2", {"status": "OPEN", "priority": 1}, False),
    ],
)
def test_holds(text, values, holds):
    assert parse_condition(text).holds(values) is holds


@pytest.mark.parametrize(
    ("a", "b", "exclusive"),
    [
        ("status = OPEN", "status = CLOSED", True),
        ("status = OPEN", "status = OPEN", False),
        ("status = OPEN", "state = CLOSED", False),
        ("status in (OPEN, PENDING)", "status = CLOSED", True),
        ("status in (OPEN, PENDING)", "status in (PENDING, CLOSED)", False),
        ("status = OPEN", "status != OPEN", True),
        ("attribute_exists(deletedAt)", "attribute_not_exists(deletedAt)", True),
        ("status = OPEN and kind = A", "kind = B", True),
        ("priority > 3", "priority < 2", False),
    ],
)
def test_excludes(a, b, exclusive):
    assert parse_condition(a).excludes(parse_condition(b)) is exclusive
    assert parse_condition(b).excludes(parse_condition(a)) is exclusive


NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,8}", fullmatch=True).filter(
    lambda name: (
        name.lower() not in ("and", "in", "attribute_exists", "attribute_not_exists")
    )
)
VALUES = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
    st.decimals(-1000, 1000, places=2),
)
CLAUSES = st.one_of(
    st.builds(Presence, NAMES, st.booleans()),
    st.builds(
        Comparison,
        NAMES,
        st.sampled_from(["=", "!=", "<", "<=", ">", ">="]),
        st.tuples(VALUES),
    ),
    st.builds(
        Comparison,
        NAMES,
        st.just("in"),
        st.lists(VALUES, min_size=1, max_size=3).map(tuple),
    ),
)


@given(st.lists(CLAUSES, min_size=1, max_size=4).map(tuple).map(Condition))
def test_canonical_text_parses_back_to_the_same_condition(condition):
    assert parse_condition(str(condition)) == condition
