"""Operands shared by condition and update expressions.

The parser produces the raw forms (a path that may still hold `#name`
placeholders, a `:value` placeholder, a function call); binding them against
ExpressionAttributeNames and ExpressionAttributeValues gives a Path, a
Literal or a Size, which evaluate against an item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modeler.engine.expressions import comparisons
from modeler.engine.expressions.paths import MISSING, Path
from modeler.engine.types import type_of


@dataclass(frozen=True, slots=True)
class NameRef:
    placeholder: str


@dataclass(frozen=True, slots=True)
class RawPath:
    elements: tuple[str | int | NameRef, ...]


@dataclass(frozen=True, slots=True)
class RawValue:
    placeholder: str


@dataclass(frozen=True, slots=True)
class Call:
    """A function call as written: `begins_with(a, :v)`, `list_append(l, :x)`."""

    name: str
    args: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Literal:
    """The value of a `:placeholder` (MISSING when the placeholder is not
    defined; the expression is then refused before it is ever evaluated)."""

    value: Any
    placeholder: str

    def evaluate(self, item: dict[str, Any]) -> Any:
        return self.value


@dataclass(frozen=True, slots=True)
class Size:
    operand: Path | Literal

    def evaluate(self, item: dict[str, Any]) -> Any:
        return comparisons.size(self.operand.evaluate(item))


Operand = Path | Literal | Size


def static_type(operand: Any) -> str | None:
    """The DynamoDB type an operand is known to have before any item is read
    (a literal's, a size's), None for a path, which can be anything."""
    if isinstance(operand, Literal) and operand.value is not MISSING:
        return type_of(operand.value)
    if isinstance(operand, Size):
        return "N"
    return None
