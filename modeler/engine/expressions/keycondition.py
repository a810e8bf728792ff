"""Key condition expressions: the part of a Query that picks the items by
key.

A key condition is a condition expression restricted to key attributes:
conditions joined by AND, an equality on every partition key attribute, and
optionally one of =, <, <=, >, >=, BETWEEN, begins_with on the sort key. A
multi-attribute sort key (a GSI keyed on up to four sort attributes) takes
conditions on a prefix of its attributes, with equality on all but the last
one named.

The checks and messages follow DynamoDB's order: the expression is first
checked as any condition expression ("Invalid KeyConditionExpression: ..."),
then for operators a key condition cannot use, then against the key schema.
Whether the values' types match the key attributes' types ("Condition
parameter type does not match schema type") is left to the caller, which
knows the attribute definitions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import comparisons
from modeler.engine.expressions.condition_parser import ConditionParser
from modeler.engine.expressions.conditions import (
    And,
    Between,
    Comparison,
    In,
    Node,
    Not,
    Or,
)
from modeler.engine.expressions.operands import Literal, Size
from modeler.engine.expressions.parser import Usage, kept_names
from modeler.engine.expressions.paths import MISSING, Path

_FLIPPED = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_ORDERINGS = {
    "<": lambda c: c < 0,
    "<=": lambda c: c <= 0,
    ">": lambda c: c > 0,
    ">=": lambda c: c >= 0,
}


@dataclass(frozen=True, slots=True)
class SortCondition:
    attribute: str
    operator: str  # = < <= > >= BETWEEN begins_with
    values: tuple[Any, ...]

    def matches(self, value: Any) -> bool:
        if self.operator == "=":
            return comparisons.values_equal(value, self.values[0])
        if self.operator == "begins_with":
            return comparisons.begins_with(value, self.values[0])
        if self.operator == "BETWEEN":
            above = comparisons.compare(value, self.values[0])
            below = comparisons.compare(value, self.values[1])
            return above is not None and below is not None and above >= 0 >= below
        order = comparisons.compare(value, self.values[0])
        return order is not None and _ORDERINGS[self.operator](order)


@dataclass(frozen=True, eq=False)
class KeyCondition:
    """A parsed KeyConditionExpression, checked against a key schema."""

    text: str
    partition: tuple[tuple[str, Any], ...]
    sort: tuple[SortCondition, ...]
    usage: Usage

    def matches(self, item: dict[str, Any]) -> bool:
        return all(
            comparisons.values_equal(item.get(name, MISSING), value)
            for name, value in self.partition
        ) and all(
            condition.attribute in item and condition.matches(item[condition.attribute])
            for condition in self.sort
        )


def parse_key_condition(
    text: str,
    names: Mapping[str, str] | None,
    values: Mapping[str, Any] | None,
    partition_keys: Sequence[str],
    sort_keys: Sequence[str],
    *,
    kind: str = "KeyConditionExpression",
) -> KeyCondition:
    key = _template_key(text, kind, names, values, partition_keys, sort_keys)
    if key is not None:
        template = _templates.get(key)
        if template is not None and values is not None:
            bound = template.bind(values)
            if bound is not None:
                return bound
    condition = ConditionParser.parse(text, names, values, kind)
    found: dict[str, tuple[str, tuple[Literal, ...]]] = {}
    _collect(condition.root, found)
    if len(found) > max(2, len(partition_keys) + len(sort_keys)):
        raise ValidationException("Conditions can be of length 1 or 2 only")
    partition = _partition(found, partition_keys)
    sort = _sort(found, partition_keys, sort_keys)
    if key is not None:
        if len(_templates) >= TEMPLATES_KEPT:
            _templates.clear()
        _templates[key] = _Template(
            text,
            tuple((name, found[name][1][0].placeholder) for name in partition_keys),
            tuple(
                (
                    c.attribute,
                    c.operator,
                    tuple(v.placeholder for v in found[c.attribute][1]),
                )
                for c in sort
            ),
            condition.usage,
        )
    return KeyCondition(text, partition, sort, condition.usage)


@dataclass(frozen=True, slots=True)
class _Template:
    """A key condition read once, by placeholder: the same text, names, key
    schema and placeholders, with values of the same types, make the same
    key condition with the request's values (binding checks only the
    values' types, and the key attributes do not depend on them), unless
    BETWEEN's bounds are out of order, which the whole reading refuses."""

    text: str
    partition: tuple[tuple[str, str], ...]  # attribute, placeholder
    sort: tuple[tuple[str, str, tuple[str, ...]], ...]  # attribute, operator
    usage: Usage

    def bind(self, values: Mapping[str, Any]) -> KeyCondition | None:
        sort = []
        for attribute, operator, placeholders in self.sort:
            bounds = tuple([values[p] for p in placeholders])
            if operator == "BETWEEN" and (comparisons.compare(*bounds) or 0) > 0:
                return None
            sort.append(SortCondition(attribute, operator, bounds))
        partition = tuple([(name, values[p]) for name, p in self.partition])
        return KeyCondition(self.text, partition, tuple(sort), self.usage)


# Key conditions read before, by text, kind, names, placeholders and the
# types of their values, and key schema (`_template_key`): a program's
# Query of another partition value binds the one it read before, instead of
# reading it again (about 20 µs of a Query). Emptied when full.
TEMPLATES_KEPT = 4096
_templates: dict[tuple[Any, ...], _Template] = {}


def _template_key(
    text: str,
    kind: str,
    names: Mapping[str, str] | None,
    values: Mapping[str, Any] | None,
    partition_keys: Sequence[str],
    sort_keys: Sequence[str],
) -> tuple[Any, ...] | None:
    """What a key condition read depends on, but the values themselves; None
    when it cannot be kept (a name that is not text)."""
    named = kept_names(names)
    if named is None:
        return None
    typed: tuple[tuple[str, type], ...] = ()
    if values:
        typed = tuple([(p, type(value)) for p, value in values.items()])
    return (text, kind, named, typed, tuple(partition_keys), tuple(sort_keys))


def _collect(node: Node, found: dict[str, tuple[str, tuple[Literal, ...]]]) -> None:
    """The condition on each key attribute, from a tree of ANDs."""
    if isinstance(node, And):
        for child in node.children:
            _collect(child, found)
        return
    if isinstance(node, (Or, Not, In)):
        operator = {Or: "OR", Not: "NOT", In: "IN"}[type(node)]
        raise _invalid_operator(operator)
    operands: tuple[Path | Literal | Size, ...]
    if isinstance(node, Comparison):
        if node.operator == "<>":
            raise _invalid_operator("<>")
        operator, operands = node.operator, (node.left, node.right)
    elif isinstance(node, Between):
        operator, operands = "BETWEEN", (node.operand, node.low, node.high)
    else:  # a Function
        if node.name != "begins_with":
            raise _invalid_operator(node.name)
        operator, operands = "begins_with", node.args
    if operator in ("BETWEEN", "begins_with") and not isinstance(operands[0], Path):
        raise ValidationException(
            f"Invalid condition in KeyConditionExpression: {operator} operator must "
            "have the key attribute as its first operand"
        )
    attribute: Path | None = None
    for operand in operands:
        if isinstance(operand, Path):
            if attribute is not None:
                raise ValidationException(
                    "Invalid condition in KeyConditionExpression: Multiple attribute "
                    "names used in one condition"
                )
            if len(operand.elements) > 1:
                raise ValidationException(
                    "KeyConditionExpressions cannot have conditions on nested "
                    "attributes"
                )
            attribute = operand
        elif isinstance(operand, Size):
            raise ValidationException(
                "KeyConditionExpressions cannot contain nested operations"
            )
    if attribute is None:
        raise ValidationException(
            "Invalid condition in KeyConditionExpression: No key attribute specified"
        )
    if attribute.attribute in found:
        raise ValidationException(
            "KeyConditionExpressions must only contain one condition per key"
        )
    if operands[0] is not attribute:
        operator = _FLIPPED[operator]
    literals = tuple(o for o in operands if isinstance(o, Literal))
    found[attribute.attribute] = (operator, literals)


def _invalid_operator(operator: str) -> ValidationException:
    return ValidationException(
        f"Invalid operator used in KeyConditionExpression: {operator}"
    )


def _partition(
    found: dict[str, tuple[str, tuple[Literal, ...]]], partition_keys: Sequence[str]
) -> tuple[tuple[str, Any], ...]:
    for name in partition_keys:
        if name not in found:
            raise ValidationException(
                f"Query condition missed key schema element: {name}"
            )
    for name in partition_keys:
        if found[name][0] != "=":
            raise ValidationException("Query key condition not supported")
    return tuple((name, found[name][1][0].value) for name in partition_keys)


def _sort(
    found: dict[str, tuple[str, tuple[Literal, ...]]],
    partition_keys: Sequence[str],
    sort_keys: Sequence[str],
) -> tuple[SortCondition, ...]:
    if any(name not in partition_keys and name not in sort_keys for name in found):
        missing = [name for name in sort_keys if name not in found]
        if missing:
            raise ValidationException(
                f"Query condition missed key schema element: {missing[0]}"
            )
        raise ValidationException("Query key condition not supported")
    for later_index, later in enumerate(sort_keys):
        if later not in found:
            continue
        for prior in sort_keys[:later_index]:
            if prior not in found or found[prior][0] != "=":
                raise ValidationException(
                    f"RANGE key attributes {prior} must have equality conditions "
                    "specified in the query because a condition is present on key "
                    f"attribute {later}"
                )
    return tuple(
        SortCondition(name, found[name][0], tuple(v.value for v in found[name][1]))
        for name in sort_keys
        if name in found
    )
