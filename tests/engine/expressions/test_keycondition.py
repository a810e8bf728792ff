"""Key condition expressions (Developer Guide, "Key condition expressions
for the Query operation"; DOMAIN.md, "Keys and ordering")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import SortCondition, Usage, parse_key_condition

D = Decimal

VALUES = {
    ":pk": "USER#1",
    ":other_pk": "USER#2",
    ":sk": "ORDER#2024-01-15",
    ":prefix": "ORDER#",
    ":a": "a",
    ":b": "b",
    ":one": D(1),
    ":ten": D(10),
    ":b01": b"\x01",
    ":x": "x",
    ":S": "S",
}

TABLE = (["PK"], ["SK"])


def parse(text: str, keys=TABLE, names=None, values=VALUES):
    return parse_key_condition(text, names, values, *keys)


def refusal(text: str, keys=TABLE, names=None, values=VALUES) -> str:
    with pytest.raises(ValidationException) as caught:
        parse(text, keys, names, values)
    return caught.value.message


@pytest.mark.parametrize(
    ("text", "sort"),
    [
        ("PK = :pk", ()),
        ("PK = :pk AND SK = :sk", (SortCondition("SK", "=", ("ORDER#2024-01-15",)),)),
        ("PK = :pk AND SK < :sk", (SortCondition("SK", "<", ("ORDER#2024-01-15",)),)),
        ("PK = :pk AND SK <= :one", (SortCondition("SK", "<=", (D(1),)),)),
        ("PK = :pk AND SK > :one", (SortCondition("SK", ">", (D(1),)),)),
        ("PK = :pk AND SK >= :one", (SortCondition("SK", ">=", (D(1),)),)),
        (
            "PK = :pk AND SK BETWEEN :a AND :b",
            (SortCondition("SK", "BETWEEN", ("a", "b")),),
        ),
        (
            "PK = :pk AND begins_with(SK, :prefix)",
            (SortCondition("SK", "begins_with", ("ORDER#",)),),
        ),
        (
            "PK = :pk AND begins_with(SK, :b01)",
            (SortCondition("SK", "begins_with", (b"\x01",)),),
        ),
        # Either order, any letter case, parentheses.
        ("SK > :one AND PK = :pk", (SortCondition("SK", ">", (D(1),)),)),
        ("(PK = :pk) and (SK > :one)", (SortCondition("SK", ">", (D(1),)),)),
        # A value on the left: the comparison turns around.
        (":pk = PK AND :one < SK", (SortCondition("SK", ">", (D(1),)),)),
        (":pk = PK AND :one >= SK", (SortCondition("SK", "<=", (D(1),)),)),
    ],
)
def test_conditions(text, sort):
    condition = parse(text)
    assert condition.partition == (("PK", "USER#1"),)
    assert condition.sort == sort


def test_placeholders_and_usage():
    condition = parse(
        "#p = :pk AND begins_with(#s, :prefix)",
        names={"#p": "PK", "#s": "SK"},
    )
    assert condition.partition == (("PK", "USER#1"),)
    assert condition.sort == (SortCondition("SK", "begins_with", ("ORDER#",)),)
    assert condition.usage == Usage(names={"#p", "#s"}, values={":pk", ":prefix"})


def test_multi_attribute_keys():
    keys = (["tenant", "area"], ["yr", "mo", "dd"])
    condition = parse("area = :b AND tenant = :a AND yr = :one AND mo > :ten", keys)
    assert condition.partition == (("tenant", "a"), ("area", "b"))
    assert condition.sort == (
        SortCondition("yr", "=", (D(1),)),
        SortCondition("mo", ">", (D(10),)),
    )
    assert parse("tenant = :a AND area = :b", keys).sort == ()


class TestMatches:
    def test_partition_and_sort(self):
        condition = parse("PK = :pk AND SK BETWEEN :a AND :b")
        assert condition.matches({"PK": "USER#1", "SK": "a"})
        assert condition.matches({"PK": "USER#1", "SK": "az"})
        assert condition.matches({"PK": "USER#1", "SK": "b"})
        assert not condition.matches({"PK": "USER#1", "SK": "ba"})
        assert not condition.matches({"PK": "USER#2", "SK": "a"})
        assert not condition.matches({"PK": "USER#1"})

    @pytest.mark.parametrize(
        ("operator", "value", "stored", "expected"),
        [
            ("=", "b", "b", True),
            ("<", "b", "a", True),
            ("<", "b", "b", False),
            ("<=", "b", "b", True),
            (">", "b", "c", True),
            (">=", "b", "b", True),
            (">", D(9), D(10), True),  # numbers numerically
            (">", "9", "10", False),  # a number written as text sorts as text
            ("<", "z", "¿", False),  # UTF-8 order: "z" 0x7A < "¿" 0xC2BF
            (">", "z", "¿", True),
            ("<", "a", D(1), False),  # never across types
            ("begins_with", "OR", "ORDER#1", True),
            ("begins_with", "or", "ORDER#1", False),
            ("begins_with", b"\x01", b"\x01\x02", True),
            ("begins_with", b"\x02", b"\x01\x02", False),
        ],
    )
    def test_sort_operators(self, operator, value, stored, expected):
        assert SortCondition("SK", operator, (value,)).matches(stored) is expected

    def test_between_is_inclusive(self):
        between = SortCondition("SK", "BETWEEN", (D(1), D(3)))
        assert [between.matches(D(n)) for n in range(5)] == [
            False,
            True,
            True,
            True,
            False,
        ]


class TestErrors:
    @pytest.mark.parametrize(
        ("text", "operator"),
        [
            ("PK = :pk OR SK = :sk", "OR"),
            ("NOT PK = :pk", "NOT"),
            ("PK IN (:pk, :other_pk)", "IN"),
            ("PK <> :pk", "<>"),
            ("PK = :pk AND attribute_exists(SK)", "attribute_exists"),
            ("PK = :pk AND attribute_not_exists(SK)", "attribute_not_exists"),
            ("PK = :pk AND contains(SK, :a)", "contains"),
            ("PK = :pk AND attribute_type(SK, :S)", "attribute_type"),
        ],
    )
    def test_invalid_operators(self, text, operator):
        assert refusal(text) == (
            f"Invalid operator used in KeyConditionExpression: {operator}"
        )

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("SK = :sk", "Query condition missed key schema element: PK"),
            ("begins_with(PK, :a)", "Query key condition not supported"),
            ("PK > :pk", "Query key condition not supported"),
            ("PK BETWEEN :a AND :b", "Query key condition not supported"),
            # A non-key attribute: DynamoDB names the sort key it is missing,
            # and when none is missing refuses the condition.
            (
                "PK = :pk AND other_ = :a",
                "Query condition missed key schema element: SK",
            ),
            ("other_ = :a", "Query condition missed key schema element: PK"),
            (
                "PK = :pk AND SK = :sk AND other_ = :a",
                "Conditions can be of length 1 or 2 only",
            ),
            (
                "PK = :pk AND SK > :a AND SK < :b",
                "KeyConditionExpressions must only contain one condition per key",
            ),
            (
                "PK = :pk AND PK = :other_pk",
                "KeyConditionExpressions must only contain one condition per key",
            ),
            (
                "PK = :pk AND SK = PK",
                "Invalid condition in KeyConditionExpression: Multiple attribute names "
                "used in one condition",
            ),
            (
                "PK = :pk AND SK.x = :a",
                "KeyConditionExpressions cannot have conditions on nested attributes",
            ),
            (
                "PK = :pk AND SK[0] = :a",
                "KeyConditionExpressions cannot have conditions on nested attributes",
            ),
            (
                "PK = :pk AND size(SK) > :one",
                "KeyConditionExpressions cannot contain nested operations",
            ),
            (
                "PK = :pk AND :a = :b",
                "Invalid condition in KeyConditionExpression: No key attribute "
                "specified",
            ),
            (
                "PK = :pk AND :a BETWEEN SK AND :b",
                "Invalid condition in KeyConditionExpression: BETWEEN operator must "
                "have the key attribute as its first operand",
            ),
            (
                "PK = :pk AND begins_with(:a, SK)",
                "Invalid condition in KeyConditionExpression: begins_with operator "
                "must have the key attribute as its first operand",
            ),
        ],
    )
    def test_schema_and_shape(self, text, message):
        assert refusal(text) == message

    def test_a_table_without_sort_key(self):
        assert parse("PK = :pk", (["PK"], [])).sort == ()
        assert refusal("PK = :pk AND SK = :sk", (["PK"], [])) == (
            "Query key condition not supported"
        )

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "The expression can not be empty;"),
            ("PK = :pk AND", 'Syntax error; token: "<EOF>", near: "AND"'),
            (
                "PK = :pk AND SK = :type",
                "An expression attribute value used in "
                "expression is not defined; attribute value: :type",
            ),
            (
                "#p = :pk",
                "An expression attribute name used in the document path is "
                "not defined; attribute name: #p",
            ),
            (
                "PK = :pk AND status = :a",
                "Attribute name is a reserved keyword; reserved keyword: status",
            ),
            (
                "PK = :pk AND SK BETWEEN :b AND :a",
                "The BETWEEN operator requires upper bound to be greater than or equal "
                "to lower bound; lower bound operand: AttributeValue: {S:b}, upper "
                "bound operand: AttributeValue: {S:a}",
            ),
            (
                "PK = :pk AND SK BETWEEN :one AND :a",
                "The BETWEEN operator requires same data type for lower and upper "
                "bounds; lower bound operand: AttributeValue: {N:1}, upper bound "
                "operand: AttributeValue: {S:a}",
            ),
            (
                "PK = :pk AND begins_with(SK, :one)",
                "Incorrect operand type for operator or function; operator or "
                "function: begins_with, operand type: N",
            ),
        ],
    )
    def test_condition_expression_errors_come_first(self, text, message):
        assert refusal(text) == f"Invalid KeyConditionExpression: {message}"

    def test_multi_attribute_partition_keys_all_need_equality(self):
        keys = (["tenant", "area"], ["yr"])
        assert refusal("tenant = :a", keys) == (
            "Query condition missed key schema element: area"
        )
        assert refusal("tenant = :a AND area > :b", keys) == (
            "Query key condition not supported"
        )

    @pytest.mark.parametrize(
        ("text", "prior", "later"),
        [
            # A gap in the sort key attributes.
            ("yr = :one AND dd = :one", "mo", "dd"),
            ("mo = :one", "yr", "mo"),
            # A range condition before the last attribute named.
            ("yr > :one AND mo = :one", "yr", "mo"),
            ("yr = :one AND mo > :one AND dd = :one", "mo", "dd"),
        ],
    )
    def test_multi_attribute_sort_keys_take_a_prefix(self, text, prior, later):
        keys = (["tenant"], ["yr", "mo", "dd"])
        assert refusal(f"tenant = :a AND {text}", keys) == (
            f"RANGE key attributes {prior} must have equality conditions specified in "
            f"the query because a condition is present on key attribute {later}"
        )
