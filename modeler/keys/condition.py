"""Sparse-index conditions: when an entity writes a key attribute.

    status = OPEN
    status = "IN PROGRESS" and priority >= 3
    status in (OPEN, PENDING)
    attribute_exists(shippedAt) and attribute_not_exists(deletedAt)

Clauses are joined by `and` (keywords are case-insensitive). A value is a
bare word, a double-quoted string (`\\"` escapes a quote) or a number; a bare
number compares numerically with a numeric attribute value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from modeler.keys.template import ATTRIBUTE_NAME, number_text

OPERATORS = ("=", "!=", "<", "<=", ">", ">=", "in")
_EXPECTED_OPERATOR = "an operator (=, !=, <, <=, >, >=, in)"
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_SPECIAL = set('"(),=!<>')
_KEYWORDS = ("and", "in", "attribute_exists", "attribute_not_exists")

Value = str | Decimal
# Whether a comparison holds, given -1, 0 or 1 from `_compare`.
_ORDER_TESTS: dict[str, Callable[[int], bool]] = {
    "=": lambda order: order == 0,
    "!=": lambda order: order != 0,
    "<": lambda order: order < 0,
    "<=": lambda order: order <= 0,
    ">": lambda order: order > 0,
    ">=": lambda order: order >= 0,
}


class ConditionSyntaxError(ValueError):
    """A condition that cannot be parsed; `column` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Comparison:
    attribute: str
    operator: str
    values: tuple[Value, ...]

    def __str__(self) -> str:
        if self.operator == "in":
            listed = ", ".join(_value_text(v) for v in self.values)
            return f"{self.attribute} in ({listed})"
        return f"{self.attribute} {self.operator} {_value_text(self.values[0])}"

    def holds(self, values: Mapping[str, Any]) -> bool:
        actual = values.get(self.attribute)
        if actual is None:
            # As in DynamoDB: a missing attribute is unequal to anything and
            # neither greater nor less than anything.
            return self.operator == "!="
        if self.operator == "in":
            return any(_compare(actual, v) == 0 for v in self.values)
        order = _compare(actual, self.values[0])
        if order is None:
            return self.operator == "!="
        return _ORDER_TESTS[self.operator](order)


@dataclass(frozen=True)
class Presence:
    """`attribute_exists(a)` or `attribute_not_exists(a)`."""

    attribute: str
    exists: bool

    def __str__(self) -> str:
        function = "attribute_exists" if self.exists else "attribute_not_exists"
        return f"{function}({self.attribute})"

    def holds(self, values: Mapping[str, Any]) -> bool:
        return (values.get(self.attribute) is not None) == self.exists


Clause = Comparison | Presence


@dataclass(frozen=True)
class Condition:
    clauses: tuple[Clause, ...]

    def __str__(self) -> str:
        return " and ".join(str(c) for c in self.clauses)

    @property
    def attributes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.attribute for c in self.clauses))

    def holds(self, values: Mapping[str, Any]) -> bool:
        return all(c.holds(values) for c in self.clauses)

    def excludes(self, other: Condition) -> bool:
        """True when no item can satisfy both conditions.

        Two entities can be two states of one item (an open and a closed
        order); only conditions that pin an attribute to disjoint values, or
        that require it present and absent, tell them apart for certain.
        """
        return any(
            _clauses_exclude(mine, theirs)
            for mine in self.clauses
            for theirs in other.clauses
            if mine.attribute == theirs.attribute
        )


def _clauses_exclude(a: Clause, b: Clause) -> bool:
    if isinstance(a, Presence) or isinstance(b, Presence):
        return (
            isinstance(a, Presence) and isinstance(b, Presence) and a.exists != b.exists
        )
    a_values, b_values = set(a.values), set(b.values)
    if a.operator in ("=", "in") and b.operator in ("=", "in"):
        return not a_values & b_values
    if {a.operator, b.operator} == {"=", "!="}:
        return a_values == b_values
    return False


def _compare(actual: Any, expected: Value) -> int | None:
    """-1, 0 or 1; None when the two cannot be ordered (a non-number
    attribute value against a number)."""
    if isinstance(expected, Decimal):
        number = _as_number(actual)
        if number is None:
            return None
        return (number > expected) - (number < expected)
    # Strings order by their UTF-8 bytes, as DynamoDB orders them.
    left, right = _as_text(actual).encode(), expected.encode()
    return (left > right) - (left < right)


def _as_number(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        value = repr(value)
    if isinstance(value, (int, Decimal)) or (
        isinstance(value, str) and _NUMBER.fullmatch(value)
    ):
        try:
            return Decimal(value)
        except InvalidOperation:
            return None
    return None


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return number_text(Decimal(value))
    return str(value)


def _value_text(value: Value) -> str:
    if isinstance(value, Decimal):
        return str(value)
    bare = (
        value
        and not _NUMBER.fullmatch(value)
        and value.lower() not in _KEYWORDS
        and not any(c.isspace() or c in _SPECIAL or c == "\\" for c in value)
    )
    if bare:
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


@dataclass(frozen=True)
class _Token:
    kind: str  # "word", "string", "operator", "(", ")", ",", "end"
    text: str
    column: int

    def is_word(self, keyword: str) -> bool:
        return self.kind == "word" and self.text.lower() == keyword


def _tokenize(text: str) -> list[_Token]:
    tokens = []
    index = 0
    while index < len(text):
        char = text[index]
        column = index + 1
        if char.isspace():
            index += 1
        elif char in "(),":
            tokens.append(_Token(char, char, column))
            index += 1
        elif char in "=<>!":
            operator = text[index : index + 2]
            if operator not in ("!=", "<=", ">="):
                operator = char
            if operator == "!":
                raise ConditionSyntaxError(
                    f"expected '=' after '!' at column {column + 1}", column + 1
                )
            tokens.append(_Token("operator", operator, column))
            index += len(operator)
        elif char == '"':
            index = _read_string(text, index, tokens)
        else:
            end = index
            while end < len(text) and not (
                text[end].isspace() or text[end] in _SPECIAL
            ):
                end += 1
            tokens.append(_Token("word", text[index:end], column))
            index = end
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


def _read_string(text: str, start: int, tokens: list[_Token]) -> int:
    """Append the string token opened at `start`; return the index after it."""
    chars = []
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            chars.append(text[index + 1])
            index += 2
        elif char == '"':
            tokens.append(_Token("string", "".join(chars), start + 1))
            return index + 1
        else:
            chars.append(char)
            index += 1
    raise ConditionSyntaxError(f"unclosed '\"' at column {start + 1}", start + 1)


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.position = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.position]

    def advance(self) -> _Token:
        token = self.token
        self.position += 1
        return token

    def fail(self, expected: str, after: str = "") -> ConditionSyntaxError:
        token = self.token
        found = "the end" if token.kind == "end" else f"'{token.text}'"
        where = f" after '{after}'" if after else ""
        return ConditionSyntaxError(
            f"expected {expected}{where} at column {token.column}, found {found}",
            token.column,
        )

    def expect(self, kind: str, after: str) -> _Token:
        if self.token.kind != kind:
            raise self.fail(f"'{kind}'", after)
        return self.advance()

    def condition(self) -> Condition:
        if self.token.kind == "end":
            raise ConditionSyntaxError("empty condition at column 1", 1)
        clauses = [self.clause()]
        while self.token.kind != "end":
            if not self.token.is_word("and"):
                raise self.fail("'and' or the end of the condition")
            self.advance()
            clauses.append(self.clause())
        return Condition(tuple(clauses))

    def clause(self) -> Clause:
        for function, exists in (
            ("attribute_exists", True),
            ("attribute_not_exists", False),
        ):
            if self.token.is_word(function):
                self.advance()
                self.expect("(", function)
                attribute = self.attribute()
                self.expect(")", attribute)
                return Presence(attribute, exists)
        attribute = self.attribute()
        if self.token.is_word("in"):
            self.advance()
            self.expect("(", "in")
            values = [self.value("(")]
            while self.token.kind == ",":
                values.append(self.value(self.advance().text))
            if self.token.kind != ")":
                raise self.fail("',' or ')'")
            self.advance()
            return Comparison(attribute, "in", tuple(values))
        if self.token.kind != "operator":
            raise self.fail(_EXPECTED_OPERATOR, attribute)
        operator = self.advance().text
        if operator == "<" and self.token.kind == "operator" and self.token.text == ">":
            # DynamoDB's condition expressions write "not equal" as <>.
            raise self.fail("a value (write 'not equal' as !=)", operator)
        return Comparison(attribute, operator, (self.value(operator),))

    def attribute(self) -> str:
        token = self.token
        if token.kind != "word" or not ATTRIBUTE_NAME.fullmatch(token.text):
            raise self.fail("an attribute name")
        self.advance()
        return token.text

    def value(self, after: str) -> Value:
        token = self.token
        if token.kind == "string":
            self.advance()
            return token.text
        if token.kind != "word":
            raise self.fail("a value", after)
        self.advance()
        if _NUMBER.fullmatch(token.text):
            return Decimal(token.text)
        return token.text


@functools.lru_cache(maxsize=1024)
def parse_condition(text: str) -> Condition:
    """Parse a condition; raises ConditionSyntaxError with the column.

    An empty text is an error: callers treat "" as "no condition" before
    asking. Cached because sample data evaluates the same few conditions for
    every item.
    """
    return _Parser(text).condition()
