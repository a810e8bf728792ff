"""A pattern's requests with stand-ins for the values its caller passes.

The simulator's request builder (`modeler.simulation.requests`) makes the
requests; this builder hands it markers instead of values: a parameter, a
key template to render, an update's value, an item put whole. The code
writer turns each marker into the Python expression that computes it, so
the generated function sends what the simulator sent, with the caller's
values in place of the sample data's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.keys import parse_template
from modeler.simulation.requests import (
    ExpressionBuilder,
    read_request,
    write_action_request,
)

_SETS = frozenset({"SS", "NS", "BS"})


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


@dataclass
class SymbolicBuilder(ExpressionBuilder):
    """The simulator's expression builder, keeping markers for the values a
    caller gives; constants are built as the simulator builds them.
    `types`: each parameter's type, as the generated function takes it."""

    types: Mapping[str, str] = field(default_factory=dict)

    def key_value(self, template: str, key_type: str) -> Any:
        if parse_template(template).is_constant:
            return super().key_value(template, key_type)
        return Rendered(template, key_type)

    def update_value(self, template: str, type_name: str) -> Any:
        """The value an update writes, as the simulator makes it from a
        parameter of its type (`types`, as the function declares it): a set
        from one member is a set of that member, a list appended from one
        value a list of it; a parameter of the attribute's own type is
        itself, so that a condition on it shares its placeholder as the
        simulator's equal values do (`SET #score = :score` with `#score <
        :score`, not a second `:newScore`)."""
        parsed = parse_template(template)
        if parsed.is_constant:
            return super().update_value(template, type_name)
        if not parsed.is_single_placeholder:
            return Updated(template, type_name)
        name = parsed.placeholders[0].attribute
        given = self.types.get(name, "S")
        if type_name in _SETS:
            if given in _SETS:
                return Updated(template, type_name)  # the members it holds
            return {Updated(template, type_name[0])}
        if type_name == "L":
            # A list parameter is the list (appended as it is); another is
            # the value itself, which an append makes a list of one.
            return (
                Listed([Updated(template, type_name)]) if given == "L" else Param(name)
            )
        if type_name != "S" and given == type_name:
            return Param(name)
        return Updated(template, type_name)

    def wire(self, values: Mapping[str, Any]) -> Any:
        if isinstance(values, PutItem):
            return WholeItem(values.variable)
        return Wired(dict(values))


def parameter_types(design: d.Design, pattern: d.AccessPattern) -> dict[str, str]:
    """Each parameter's DynamoDB type: declared, else the attribute's it
    takes the place of."""
    declared = {p.name for p in pattern.parameters}
    types = {p.name: p.type for p in pattern_parameters(design, pattern)}
    for action in pattern.actions:
        entity = design.entity(action.entity)
        for _, attribute, template in action.updates():
            parsed = parse_template(template)
            attr = entity.attribute(attribute) if entity else None
            if parsed.is_single_placeholder and attr is not None:
                name = parsed.placeholders[0].attribute
                if name not in declared and not parsed.placeholders[0].format_spec:
                    types[name] = attr.type
    return types


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
    builder = SymbolicBuilder(
        {**item, **params}, {}, {}, parameter_types(design, pattern)
    )
    operation, request = write_action_request(
        design, action, params, item, builder=builder
    )
    return operation, request
