"""The ValidationExceptions of condition and filter expressions, with
DynamoDB's wording (as the service, DynamoDB Local and dynalite report
them)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import parse_condition

VALUES = {
    ":v": "x",
    ":w": "y",
    ":n": Decimal(1),
    ":m": Decimal(2),
    ":t": True,
    ":null": None,
    ":list": ["x"],
    ":S": "S",
    ":bad_type": "STRING",
    ":b": b"\x00",
}


def refusal(text: str, names=None, values=VALUES, kind="FilterExpression") -> str:
    with pytest.raises(ValidationException) as caught:
        parse_condition(text, names, values, kind=kind)
    assert caught.value.code == "ValidationException"
    return caught.value.message


@pytest.mark.parametrize(
    ("text", "token", "near"),
    [
        ("a = ", "<EOF>", "="),
        ("a == :v", "=", "== :v"),
        ("a = 30", "30", "= 30"),
        ("a-b = :v", "-", "a-b"),
        ("a = :v AND", "<EOF>", "AND"),
        ("(a = :v", "<EOF>", ":v"),
        ("a = :v)", ")", ":v)"),
        ("a = :v b = :w", "b", ":v b ="),
        ("a IN ()", ")", "()"),
        ("a IN :v", ":v", "IN :v"),
        ("a BETWEEN :v", "<EOF>", ":v"),
        ("a BETWEEN :v OR :w", "OR", ":v OR :w"),
        ("attribute_exists()", ")", "()"),
        ("# = :v", "#", "# ="),
        ("a = :", ":", "= :"),
        ("AND = :v", "AND", "AND ="),
        ("a = :v OR OR b = :w", "OR", "OR OR b"),
        ("NOT", "<EOF>", "NOT"),
        ("a[x] = :v", "x", "[x]"),
        ("a[-1] = :v", "-", "[-1"),
        ("café = :v", "é", "café ="),
        ("things are not gonna be ok", "are", "things are not"),
        ("(size(a))[0] > :n", "[", ")[0"),
        ("a", "<EOF>", "a"),
    ],
)
def test_syntax_errors(text, token, near):
    assert refusal(text) == (
        f'Invalid FilterExpression: Syntax error; token: "{token}", near: "{near}"'
    )


@pytest.mark.parametrize("kind", ["ConditionExpression", "FilterExpression"])
def test_the_kind_names_the_expression(kind):
    assert refusal("a = ", kind=kind).startswith(f"Invalid {kind}: Syntax error")


def test_default_kind_is_condition_expression():
    with pytest.raises(ValidationException, match="Invalid ConditionExpression: "):
        parse_condition("a = ", None, None)


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_expression(text):
    assert refusal(text) == (
        "Invalid FilterExpression: The expression can not be empty;"
    )


def test_expression_size_limit_is_4_kb_of_utf8():
    at_limit = "a = :v" + " " * (4096 - 6)
    parse_condition(at_limit, None, VALUES)
    assert refusal(at_limit + " ") == (
        "Invalid FilterExpression: Expression size has exceeded the maximum allowed "
        "size; expression size: 4097"
    )
    # Bytes, not characters: 2,049 two-byte characters are 4,098 bytes.
    assert refusal("é" * 2049).endswith("expression size: 4098")


def test_undefined_value():
    assert refusal("a = :nope") == (
        "Invalid FilterExpression: An expression attribute value used in expression "
        "is not defined; attribute value: :nope"
    )
    assert refusal("a = :v", values=None).endswith("attribute value: :v")


def test_undefined_name():
    assert refusal("#a = :v", names={"#b": "b"}) == (
        "Invalid FilterExpression: An expression attribute name used in the document "
        "path is not defined; attribute name: #a"
    )
    assert refusal("a.#x = :v").endswith("attribute name: #x")


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("status = :v", "status"),
        ("STATUS = :v", "STATUS"),
        ("a.name = :v", "name"),
        ("attribute_exists(size)", "size"),
        ("contains(tags, :v) AND data = :v", "data"),
    ],
)
def test_reserved_words(text, word):
    assert refusal(text) == (
        "Invalid FilterExpression: Attribute name is a reserved keyword; "
        f"reserved keyword: {word}"
    )


def test_function_names_are_not_reserved_words():
    # `contains` is not a reserved word, so it can name an attribute.
    parse_condition("contains = :v", None, VALUES)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("((a = :v))", "The expression has redundant parentheses;"),
        ("((a)) = :v", "The expression has redundant parentheses;"),
        ("a = :v AND ((b = :w))", "The expression has redundant parentheses;"),
        ("foo(a)", "Invalid function name; function: foo"),
        ("ATTRIBUTE_EXISTS(a)", "Invalid function name; function: ATTRIBUTE_EXISTS"),
        (
            "list_append(a, :list) = :list",
            "The function is not allowed in a condition expression; function: "
            "list_append",
        ),
        (
            "if_not_exists(a, :v)",
            "The function is not allowed in a condition expression; function: "
            "if_not_exists",
        ),
        (
            "begins_with(a, :v) = :t",
            "The function is not allowed to be used this way in an expression; "
            "function: begins_with",
        ),
        (
            "size(a)",
            "The function is not allowed to be used this way in an expression; "
            "function: size",
        ),
        (
            "begins_with(a)",
            "Incorrect number of operands for operator or function; operator or "
            "function: begins_with, number of operands: 1",
        ),
        (
            "size(a, b) = :n",
            "Incorrect number of operands for operator or function; operator or "
            "function: size, number of operands: 2",
        ),
        (
            "attribute_exists(:v)",
            "Operator or function requires a document path; operator or function: "
            "attribute_exists",
        ),
        (
            "attribute_not_exists(size(a))",
            "Operator or function requires a document path; operator or function: "
            "attribute_not_exists",
        ),
        (
            "attribute_type(a, :n)",
            "Incorrect operand type for operator or function; operator or function: "
            "attribute_type, operand type: N",
        ),
        (
            "attribute_type(a, b)",
            "Incorrect operand type for operator or function; operator or function: "
            "attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}",
        ),
        (
            "attribute_type(a, :bad_type)",
            "Invalid attribute type name found; type: STRING, valid types: "
            "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
        ),
        (
            "begins_with(a, :n)",
            "Incorrect operand type for operator or function; operator or function: "
            "begins_with, operand type: N",
        ),
        (
            "begins_with(a, size(b))",
            "Incorrect operand type for operator or function; operator or function: "
            "begins_with, operand type: N",
        ),
        (
            "size(:n) > :n",
            "Incorrect operand type for operator or function; operator or function: "
            "size, operand type: N",
        ),
        (
            "a < :t",
            "Incorrect operand type for operator or function; operator or function: "
            "<, operand type: BOOL",
        ),
        (
            "a >= :list",
            "Incorrect operand type for operator or function; operator or function: "
            ">=, operand type: L",
        ),
        (
            "a BETWEEN :null AND :v",
            "Incorrect operand type for operator or function; operator or function: "
            "BETWEEN, operand type: NULL",
        ),
        (
            "a BETWEEN :n AND :v",
            "The BETWEEN operator requires same data type for lower and upper bounds; "
            "lower bound operand: AttributeValue: {N:1}, upper bound operand: "
            "AttributeValue: {S:x}",
        ),
        (
            "a BETWEEN :w AND :v",
            "The BETWEEN operator requires upper bound to be greater than or equal to "
            "lower bound; lower bound operand: AttributeValue: {S:y}, upper bound "
            "operand: AttributeValue: {S:x}",
        ),
        (
            "a = a",
            "The first operand must be distinct from the remaining operands for this "
            "operator or function; operator: =, first operand: [a]",
        ),
        (
            "a.b[1] <> a.b[1]",
            "The first operand must be distinct from the remaining operands for this "
            "operator or function; operator: <>, first operand: [a, b, [1]]",
        ),
        (
            "contains(a, a)",
            "The first operand must be distinct from the remaining operands for this "
            "operator or function; operator: contains, first operand: [a]",
        ),
        (
            "a IN (:v, a)",
            "The first operand must be distinct from the remaining operands for this "
            "operator or function; operator: IN, first operand: [a]",
        ),
    ],
)
def test_semantic_errors(text, message):
    assert refusal(text) == f"Invalid FilterExpression: {message}"


def test_placeholders_that_resolve_to_the_same_path_are_not_distinct():
    assert "first operand: [a]" in refusal("#x = #y", names={"#x": "a", "#y": "a"})


def test_a_comparison_of_two_values_is_allowed():
    assert parse_condition(":v = :v", None, VALUES).evaluate({})


class TestLimits:
    def test_in_takes_up_to_100_operands(self):
        values = {f":v{i}": Decimal(i) for i in range(101)}
        hundred = ", ".join(f":v{i}" for i in range(100))
        assert parse_condition(f"a IN ({hundred})", None, values).evaluate(
            {"a": Decimal(99)}
        )
        assert refusal(f"a IN ({hundred}, :v100)", values=values) == (
            "Invalid FilterExpression: The IN operator is provided with too many "
            "operands; number of operands: 101"
        )

    def test_at_most_300_operators(self):
        # 150 comparisons, 149 ORs and a NOT: 300 operators.
        text = "NOT " + " OR ".join(["a = :v"] * 150)
        parse_condition(text, None, VALUES)
        assert refusal(text + " OR a = :v") == (
            "Invalid FilterExpression: The expression contains too many operators; "
            "operator count: 302"
        )

    def test_functions_and_size_count_as_operators(self):
        text = " AND ".join(["size(a) > :n"] * 100)  # 100 size, 100 >, 99 AND
        parse_condition(text, None, VALUES)
        assert refusal(text + " AND size(a) > :n").endswith("operator count: 302")

    def test_document_paths_nest_at_most_32_levels(self):
        parse_condition(".".join(["a"] * 32) + " = :v", None, VALUES)
        assert refusal(".".join(["a"] * 33) + " = :v") == (
            "Invalid FilterExpression: The document path has too many nesting levels; "
            "nesting levels: 33"
        )

    def test_list_index_range(self):
        parse_condition("a[2147483647] = :v", None, VALUES)
        assert refusal("a[2147483648] = :v") == (
            "Invalid FilterExpression: List index is not within the allowable range; "
            "index: 2147483648"
        )

    def test_deep_parentheses_are_refused_without_recursion_errors(self):
        assert refusal("(" * 1000 + "a = :v" + ")" * 1000) == (
            "Invalid FilterExpression: The expression has redundant parentheses;"
        )
        assert refusal("(" * 2000).startswith(
            'Invalid FilterExpression: Syntax error; token: "<EOF>"'
        )

    def test_deep_nesting_with_operators_counts_them(self):
        text = "a=:v AND (" * 320 + "a=:v" + ")" * 320
        assert refusal(text).endswith("operator count: 641")

    def test_long_not_chains_are_counted_not_recursed(self):
        assert refusal("NOT " * 1000 + "a = :v").endswith("operator count: 1001")

    def test_nesting_within_the_limits_parses(self):
        text = "a = :v AND (" * 140 + "a = :v" + ")" * 140
        assert parse_condition(text, None, VALUES).evaluate({"a": "x"})


class TestErrorOrder:
    """A syntax error is reported before anything else; then redundant
    parentheses, function names, misused functions, reserved words,
    undefined names and values, and operand checks, in that order."""

    def test_syntax_error_first(self):
        assert "Syntax error" in refusal("status = :nope AND")

    def test_reserved_word_before_undefined_value(self):
        assert "reserved keyword: status" in refusal("status = :nope")

    def test_function_name_before_reserved_word(self):
        assert "Invalid function name" in refusal("status = :v AND foo(a)")

    def test_undefined_name_before_operand_checks(self):
        assert "attribute name: #x" in refusal("a < :t AND #x = :v")

    def test_first_operand_problem_in_the_expression_wins(self):
        assert "operator or function: <" in refusal("a < :t AND b > :list")
