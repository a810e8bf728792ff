"""A pattern's requests with stand-ins for the values its caller passes.

The simulator's request builder (`modeler.simulation.requests`) makes the
requests; this builder hands it markers instead of values: a parameter, a
key template to render, an update's value, an item put whole. The code
writer turns each marker into the Python expression that computes it, so
the generated function sends what the simulator sent, with the caller's
values in place of the sample data's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.keys import parse_template
from modeler.simulation.requests import (
    ExpressionBuilder,
    read_request,
    write_action_request,
)

# The types whose update value from one placeholder is not simply the
# parameter: a string is rendered as text, a set is made of its members, a
# list may be appended to (`Listed`).
_CONVERTED = frozenset({"S", "L", "SS", "NS", "BS"})


@dataclass(frozen=True)
class Param:
    """A parameter's value; `owner` names the entity object a Put takes
    when the value is one of its attributes."""

    name: str
    owner: str = ""


@dataclass(frozen=True)
class Rendered:
    """A key template rendered with the parameters."""

    template: str
    key_type: str


@dataclass(frozen=True)
class Updated:
    """The value an update writes, from its template."""

    template: str
    type_name: str


class Listed(list[Any]):
    """An append's members given by one parameter: the list itself."""


@dataclass(frozen=True)
class Wired:
    """Values turned into DynamoDB JSON at run time."""

    values: Mapping[str, Any]


@dataclass(frozen=True)
class WholeItem:
    """The item a Put writes: the entity object's `to_item()`."""

    variable: str


class PutItem(dict[str, Any]):
    """A Put's item: its attributes as parameters of the entity object."""

    def __init__(self, variable: str, values: Mapping[str, Any]) -> None:
        super().__init__(values)
        self.variable = variable


class SymbolicBuilder(ExpressionBuilder):
    """The simulator's expression builder, keeping markers for the values a
    caller gives; constants are built as the simulator builds them."""

    def key_value(self, template: str, key_type: str) -> Any:
        if parse_template(template).is_constant:
            return super().key_value(template, key_type)
        return Rendered(template, key_type)

    def update_value(self, template: str, type_name: str) -> Any:
        parsed = parse_template(template)
        if parsed.is_constant:
            return super().update_value(template, type_name)
        if parsed.is_single_placeholder and type_name not in _CONVERTED:
            # The parameter itself, as the simulator writes it: a condition
            # on the same parameter then shares its placeholder, as the
            # simulator's equal values do (`SET #score = :score` with
            # `#score < :score`, not a second `:newScore`).
            return Param(parsed.placeholders[0].attribute)
        if type_name == "L" and parsed.is_single_placeholder:
            return Listed([Updated(template, type_name)])
        return Updated(template, type_name)

    def wire(self, values: Mapping[str, Any]) -> Any:
        if isinstance(values, PutItem):
            return WholeItem(values.variable)
        return Wired(dict(values))


def parameters(names: list[str]) -> dict[str, Param]:
    return {name: Param(name) for name in names}


def read(design: d.Design, pattern: d.AccessPattern) -> dict[str, Any]:
    """The GetItem, Query or Scan request of a read pattern."""
    names = [p.name for p in pattern_parameters(design, pattern)]
    params = parameters(names)
    builder = SymbolicBuilder.new(params)
    request = read_request(design, pattern, params, builder=builder)
    request.pop("ReturnConsumedCapacity", None)
    return request


def write(
    design: d.Design,
    pattern: d.AccessPattern,
    action: d.Action,
    variable: str,
) -> tuple[str, dict[str, Any]]:
    """One write action's (operation, request). A Put writes the entity
    object named `variable`; another action finds its item by the key its
    entity's table key templates render from the parameters."""
    names = [p.name for p in pattern_parameters(design, pattern)]
    entity = design.entity(action.entity)
    attributes = [a.name for a in entity.attributes] if entity else []
    if action.operation == "Put":
        item: dict[str, Any] = PutItem(
            variable, {a: Param(a, variable) for a in attributes}
        )
    else:
        item = {a: Param(a) for a in attributes}
        for key in design.table.key_attributes:
            template = entity.keys.get(key.name) if entity else None
            if template is not None:
                item[key.name] = Rendered(template.template, key.type)
    params = parameters(names)
    builder = SymbolicBuilder.new({**item, **params})
    operation, request = write_action_request(
        design, action, params, item, builder=builder
    )
    return operation, request
