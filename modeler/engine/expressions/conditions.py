"""Condition and filter expressions as a tree that evaluates against an item.

The semantics are DynamoDB's (Developer Guide, "Condition and filter
expressions, operators, and functions"): a comparison involving a missing
attribute, or values of different types, is false, except `<>`, which is the
negation of `=` and so true in both cases; `a IN (...)` is `=` against each
choice; `a BETWEEN b AND c` is `a >= b AND a <= c`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from modeler.engine.expressions import comparisons
from modeler.engine.expressions.operands import Operand
from modeler.engine.expressions.parser import Usage
from modeler.engine.expressions.paths import MISSING, Path
from modeler.engine.types import type_of

_ORDERINGS: dict[str, Callable[[int], bool]] = {
    "<": lambda c: c < 0,
    "<=": lambda c: c <= 0,
    ">": lambda c: c > 0,
    ">=": lambda c: c >= 0,
}


@dataclass(frozen=True, slots=True)
class Comparison:
    operator: str  # = <> < <= > >=
    left: Operand
    right: Operand

    def evaluate(self, item: dict[str, Any]) -> bool:
        left = self.left.evaluate(item)
        right = self.right.evaluate(item)
        if self.operator == "=":
            return comparisons.values_equal(left, right)
        if self.operator == "<>":
            return not comparisons.values_equal(left, right)
        order = comparisons.compare(left, right)
        return order is not None and _ORDERINGS[self.operator](order)


@dataclass(frozen=True, slots=True)
class Between:
    operand: Operand
    low: Operand
    high: Operand

    def evaluate(self, item: dict[str, Any]) -> bool:
        value = self.operand.evaluate(item)
        above = comparisons.compare(value, self.low.evaluate(item))
        below = comparisons.compare(value, self.high.evaluate(item))
        return above is not None and below is not None and above >= 0 >= below


@dataclass(frozen=True, slots=True)
class In:
    operand: Operand
    choices: tuple[Operand, ...]

    def evaluate(self, item: dict[str, Any]) -> bool:
        value = self.operand.evaluate(item)
        return any(
            comparisons.values_equal(value, choice.evaluate(item))
            for choice in self.choices
        )


def _attribute_type(value: Any, type_name: Any) -> bool:
    return value is not MISSING and type_of(value) == type_name


CONDITION_FUNCTIONS: dict[str, Callable[..., bool]] = {
    "attribute_exists": lambda value: value is not MISSING,
    "attribute_not_exists": lambda value: value is MISSING,
    "attribute_type": _attribute_type,
    "begins_with": comparisons.begins_with,
    "contains": comparisons.contains,
}


@dataclass(frozen=True, slots=True)
class Function:
    """attribute_exists, attribute_not_exists, attribute_type, begins_with
    or contains."""

    name: str
    args: tuple[Operand, ...]

    def evaluate(self, item: dict[str, Any]) -> bool:
        return CONDITION_FUNCTIONS[self.name](*(a.evaluate(item) for a in self.args))


@dataclass(frozen=True, slots=True)
class And:
    children: tuple[Node, ...]

    def evaluate(self, item: dict[str, Any]) -> bool:
        return all(child.evaluate(item) for child in self.children)


@dataclass(frozen=True, slots=True)
class Or:
    children: tuple[Node, ...]

    def evaluate(self, item: dict[str, Any]) -> bool:
        return any(child.evaluate(item) for child in self.children)


@dataclass(frozen=True, slots=True)
class Not:
    child: Node

    def evaluate(self, item: dict[str, Any]) -> bool:
        return not self.child.evaluate(item)


Node = Comparison | Between | In | Function | And | Or | Not


@dataclass(frozen=True, eq=False)
class Condition:
    """A parsed ConditionExpression or FilterExpression."""

    text: str
    root: Node
    usage: Usage
    paths: list[Path]  # the attribute paths it reads, each once, in order

    def evaluate(self, item: dict[str, Any]) -> bool:
        return self.root.evaluate(item)
