"""Parsing condition, filter and key condition expressions.

Grammar (Developer Guide), by increasing precedence: OR, AND, NOT, then a
parenthesized condition, a function, or a comparison of operands:

    condition  ::= conjunct (OR conjunct)*
    conjunct   ::= negation (AND negation)*
    negation   ::= NOT* primary
    primary    ::= ( condition )
                 | operand comparator operand
                 | operand BETWEEN operand AND operand
                 | operand IN ( operand (, operand)* )
                 | function ( operand (, operand)* )
    operand    ::= ( operand ) | size ( operand ) | :value | path

A parenthesis at the start of a primary opens a condition unless the token
after its closing parenthesis is a comparator, BETWEEN or IN, in which case
it wraps the left operand (`(a) = :v`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modeler.engine.expressions.comparisons import ORDERED_TYPES, compare, describe
from modeler.engine.expressions.conditions import (
    CONDITION_FUNCTIONS,
    And,
    Between,
    Comparison,
    Condition,
    Function,
    In,
    Node,
    Not,
    Or,
)
from modeler.engine.expressions.operands import (
    Call,
    Literal,
    RawPath,
    RawValue,
    Size,
    static_type,
)
from modeler.engine.expressions.parser import Parser
from modeler.engine.expressions.paths import MISSING, Path
from modeler.engine.expressions.tokens import COMPARATORS, Kind
from modeler.engine.types import type_of

MAX_IN_OPERANDS = 100
UPDATE_FUNCTIONS = frozenset({"if_not_exists", "list_append"})
ITERABLE_TYPES = frozenset({"S", "B", "SS", "NS", "BS", "L", "M"})
ATTRIBUTE_TYPES = frozenset({"S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"})
_ATTRIBUTE_TYPES_TEXT = "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}"
_ANY_TYPE_TEXT = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
_ARITY = {
    "attribute_exists": 1,
    "attribute_not_exists": 1,
    "attribute_type": 2,
    "begins_with": 2,
    "contains": 2,
    "size": 1,
}
# The operand types each operator accepts (None: any), checked against
# operands whose type is known before reading an item.
_OPERAND_TYPES: dict[str, frozenset[str] | None] = {
    "=": None,
    "<>": None,
    "<": ORDERED_TYPES,
    "<=": ORDERED_TYPES,
    ">": ORDERED_TYPES,
    ">=": ORDERED_TYPES,
    "BETWEEN": ORDERED_TYPES,
    "IN": None,
    "attribute_exists": None,
    "attribute_not_exists": None,
    "attribute_type": None,
    "begins_with": frozenset({"S", "B"}),
    "contains": None,
    "size": ITERABLE_TYPES,
}


class ConditionParser(Parser):
    keywords = frozenset({"AND", "OR", "NOT", "BETWEEN", "IN"})
    error_order = (
        "parens",
        "function",
        "misused",
        "reserved",
        "name",
        "value",
        "operator",
        "limit",
    )

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        # Nodes that were written inside parentheses, by id (kept alive
        # here), to spot a second pair around the same thing.
        self._parenthesized: dict[int, object] = {}
        self._paths: dict[Path, None] = {}

    def read(self) -> Any:
        raw = self._condition()
        self.expect_end()
        return raw

    def finish(self, raw: Any) -> Condition:
        root = self.bind(raw)
        self.raise_problems()
        return Condition(self.text, root, self.usage, list(self._paths))

    # Parsing

    def _condition(self) -> Any:
        conjuncts = [self._conjunct()]
        while self.at_keyword("OR"):
            self.advance()
            conjuncts.append(self._conjunct())
        return conjuncts[0] if len(conjuncts) == 1 else Or(tuple(conjuncts))

    def _conjunct(self) -> Any:
        negations = [self._negation()]
        while self.at_keyword("AND"):
            self.advance()
            negations.append(self._negation())
        return negations[0] if len(negations) == 1 else And(tuple(negations))

    def _negation(self) -> Any:
        count = 0
        while self.at_keyword("NOT"):
            self.advance()
            count += 1
        node = self._primary()
        for _ in range(count):
            node = Not(node)
        return node

    def _primary(self) -> Any:
        if self.peek().kind is Kind.LPAREN and not self._starts_predicate(
            self.token_after_group()
        ):
            self.advance()
            inner = self._condition()
            self.expect(Kind.RPAREN)
            return self._parenthesize(inner)
        return self._predicate()

    def _starts_predicate(self, token: Any) -> bool:
        return token is not None and (
            token.kind in COMPARATORS
            or token.is_keyword("BETWEEN")
            or token.is_keyword("IN")
        )

    def _predicate(self) -> Any:
        left = self._operand()
        token = self.peek()
        if token.kind in COMPARATORS:
            self.advance()
            return Comparison(token.text, left, self._operand())
        if token.is_keyword("BETWEEN"):
            self.advance()
            low = self._operand()
            self.expect_keyword("AND")
            return Between(left, low, self._operand())
        if token.is_keyword("IN"):
            self.advance()
            self.expect(Kind.LPAREN)
            choices = [self._operand()]
            while self.peek().kind is Kind.COMMA:
                self.advance()
                choices.append(self._operand())
            self.expect(Kind.RPAREN)
            return In(left, tuple(choices))
        if isinstance(left, Call):
            return left
        raise self.syntax_error(token)

    def _operand(self) -> Any:
        token = self.peek()
        if token.kind is Kind.LPAREN:
            self.advance()
            inner = self._operand()
            self.expect(Kind.RPAREN)
            return self._parenthesize(inner)
        if self.at_call():
            return self._call()
        if token.kind is Kind.VALUE_REF:
            return self.parse_value()
        return self.parse_path()

    def _call(self) -> Call:
        return self.parse_call(
            self._operand,
            allowed=_ARITY,
            elsewhere=UPDATE_FUNCTIONS,
            expression="a condition expression",
        )

    def _parenthesize(self, node: Any) -> Any:
        if id(node) in self._parenthesized:
            self.defer("parens", "The expression has redundant parentheses")
        self._parenthesized[id(node)] = node
        return node

    # Binding and validation

    def bind(self, node: Any) -> Node:
        """The node with its placeholders substituted, after checking what
        DynamoDB checks before evaluating anything."""
        if isinstance(node, (And, Or)):
            children = tuple(self.bind(child) for child in node.children)
            self.operators += len(children) - 1
            return type(node)(children)
        if isinstance(node, Not):
            # Iteratively: a chain of NOTs can be longer than Python recurses.
            count = 0
            while isinstance(node, Not):
                count += 1
                node = node.child
            self.operators += count
            bound = self.bind(node)
            for _ in range(count):
                bound = Not(bound)
            return bound
        if isinstance(node, Comparison):
            left, right = self._bind_operand(node.left), self._bind_operand(node.right)
            self._check_operator(node.operator, (left, right))
            return Comparison(node.operator, left, right)
        if isinstance(node, Between):
            bound = Between(
                *(self._bind_operand(o) for o in (node.operand, node.low, node.high))
            )
            self._check_operator("BETWEEN", (bound.operand, bound.low, bound.high))
            self._check_bounds(bound.low, bound.high)
            return bound
        if isinstance(node, In):
            operand = self._bind_operand(node.operand)
            choices = tuple(self._bind_operand(choice) for choice in node.choices)
            self._check_operator("IN", (operand, *choices))
            if len(choices) > MAX_IN_OPERANDS:
                self.defer(
                    "operator",
                    "The IN operator is provided with too many operands",
                    ("number of operands", len(choices)),
                )
            return In(operand, choices)
        return self._bind_function(node)

    def _bind_function(self, call: Call) -> Node:
        args = tuple(self._bind_operand(arg) for arg in call.args)
        if call.name == "size":
            self.defer(
                "misused",
                "The function is not allowed to be used this way in an expression",
                ("function", "size"),
            )
        elif call.name in CONDITION_FUNCTIONS:
            self._check_operator(call.name, args)
            self._check_function(call.name, args)
        return Function(call.name, args)

    def _check_function(self, name: str, args: tuple[Any, ...]) -> None:
        if len(args) != _ARITY[name]:
            return
        if name in ("attribute_exists", "attribute_not_exists"):
            if not isinstance(args[0], Path):
                self.defer(
                    "operator",
                    "Operator or function requires a document path",
                    ("operator or function", name),
                )
        elif name == "attribute_type":
            type_name = args[1]
            if not isinstance(type_name, Literal) or static_type(type_name) != "S":
                self.defer(
                    "operator",
                    "Incorrect operand type for operator or function",
                    ("operator or function", name),
                    ("operand type", static_type(type_name) or _ANY_TYPE_TEXT),
                )
            elif type_name.value not in ATTRIBUTE_TYPES:
                self.defer(
                    "operator",
                    "Invalid attribute type name found",
                    ("type", type_name.value),
                    ("valid types", _ATTRIBUTE_TYPES_TEXT),
                )

    def _bind_operand(self, operand: Any) -> Any:
        if isinstance(operand, RawPath):
            path = self.bind_path(operand)
            self._paths.setdefault(path)
            return path
        if isinstance(operand, RawValue):
            return self.bind_value(operand)
        args = tuple(self._bind_operand(arg) for arg in operand.args)
        if operand.name != "size":
            if operand.name in CONDITION_FUNCTIONS:
                self.defer(
                    "misused",
                    "The function is not allowed to be used this way in an expression",
                    ("function", operand.name),
                )
            return Literal(MISSING, operand.name)
        self._check_operator("size", args)
        return Size(args[0])

    def _check_operator(self, name: str, operands: tuple[Any, ...]) -> None:
        """DynamoDB's checks for every operator and function, in its order:
        number of operands, types of the operands known in advance, and a
        first operand that is a path must not be repeated."""
        self.count_operator()
        arity = _ARITY.get(name)
        if arity is not None and len(operands) != arity:
            self.defer(
                "operator",
                "Incorrect number of operands for operator or function",
                ("operator or function", name),
                ("number of operands", len(operands)),
            )
            return
        allowed = _OPERAND_TYPES[name]
        for operand in operands:
            kind = static_type(operand)
            if allowed is not None and kind is not None and kind not in allowed:
                self.defer(
                    "operator",
                    "Incorrect operand type for operator or function",
                    ("operator or function", name),
                    ("operand type", kind),
                )
                return
        first = operands[0]
        if isinstance(first, Path) and first in operands[1:]:
            self.defer(
                "operator",
                "The first operand must be distinct from the remaining operands for "
                "this operator or function",
                ("operator", name),
                ("first operand", first),
            )

    def _check_bounds(self, low: Any, high: Any) -> None:
        if not (isinstance(low, Literal) and isinstance(high, Literal)):
            return
        if low.value is MISSING or high.value is MISSING:
            return
        bounds = (
            ("lower bound operand", f"AttributeValue: {describe(low.value)}"),
            ("upper bound operand", f"AttributeValue: {describe(high.value)}"),
        )
        if type_of(low.value) != type_of(high.value):
            self.defer(
                "operator",
                "The BETWEEN operator requires same data type for lower and upper "
                "bounds",
                *bounds,
            )
        elif (compare(low.value, high.value) or 0) > 0:
            self.defer(
                "operator",
                "The BETWEEN operator requires upper bound to be greater than or "
                "equal to lower bound",
                *bounds,
            )


def parse_condition(
    text: str,
    names: Mapping[str, str] | None,
    values: Mapping[str, Any] | None,
    *,
    kind: str = "ConditionExpression",
) -> Condition:
    """A ConditionExpression or, with kind="FilterExpression", a filter."""
    return ConditionParser.parse(text, names, values, kind)
