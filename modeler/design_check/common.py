"""What the design's checks share: numbers and dates as the sample data
reads them, a parent's chain, an entity's names and the expression syntax
of filters and conditions."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import TypeGuard

from modeler.design import model as d
from modeler.engine.errors import ValidationException
from modeler.engine.types import number


def is_number_text(text: str) -> bool:
    """Whether DynamoDB reads `text` as a number."""
    try:
        number(text)
    except ValidationException:
        return False
    return True


def is_number(value: object) -> TypeGuard[int | float]:
    """A finite int or float: YAML reads .inf and .nan as floats."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
    )


def parse_iso(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
    except ValueError:
        return None


def ancestors(design: d.Design, entity: d.Entity) -> list[str]:
    chain: list[str] = []
    current: d.Entity | None = entity
    while (
        current is not None and current.sample.per and (current.sample.per not in chain)
    ):
        chain.append(current.sample.per)
        current = design.entity(current.sample.per)
    return chain


def entity_attribute_names(design: d.Design, entities: list[d.Entity]) -> set[str]:
    names = {a.name for e in entities for a in e.attributes}
    for entity in entities:
        names.update(entity.keys)
    return names


class _AnyParameter(dict):
    """Parameters with a value for every name: an expression is checked for
    its syntax, whatever the values turn out to be."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> str:
        return "x"


def expression_problem(text: str, kind: str) -> str | None:
    """What DynamoDB would say of a filter or condition, or None: written
    as the request's expression and parsed as the engine parses it."""
    from modeler.engine.errors import ValidationException
    from modeler.engine.expressions import parse_condition
    from modeler.simulation.requests import ExpressionBuilder, RequestError

    builder = ExpressionBuilder.new(_AnyParameter())
    try:
        expression = builder.text(text)
        parse_condition(expression, builder.names, builder.values, kind=kind)
    except RequestError as exc:
        return str(exc)
    except ValidationException as exc:
        return exc.message  # DynamoDB's words: "Invalid FilterExpression: ..."
    return None
