"""The sample items a write pattern writes: for each action, items of its
entity for which its condition holds (those an update changes first), and in
a transaction the first item's children where the design has them."""

from __future__ import annotations

import random
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import placeholders
from modeler.engine.expressions import parse_condition
from modeler.engine.types import number
from modeler.simulation.requests import ExpressionBuilder, RequestError
from modeler.simulation.sample import Sample, shuffled

# Items an action writes when its count names a parameter with no value.
DEFAULT_ACTION_COUNT = 3


def choose(
    sample: Sample,
    entity: str,
    count: int,
    rng: random.Random,
    condition: str = "",
    params: Mapping[str, Any] | None = None,
    prefer: Any = None,
) -> list[dict[str, Any]]:
    """`count` items of the entity (for which `condition` holds), those
    for which `prefer(item)` is true first."""
    positions = sample.positions(entity)
    positions = shuffled(positions, rng)
    chosen: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for position in positions:
        item = sample.items[position]
        if condition and not _holds(condition, {**item, **(params or {})}, item):
            continue
        if prefer is not None and not prefer(item):
            if len(others) < count:
                others.append(item)
            continue
        chosen.append(item)
        if len(chosen) == count:
            break
    chosen += others[: count - len(chosen)]
    if not chosen:
        raise RequestError(
            f"no {entity} item in the sample data"
            + (f" for which {condition} holds" if condition else "")
        )
    return chosen


def action_count(action: d.Action, params: Mapping[str, Any]) -> int:
    if not action.count:
        return 1
    if action.count.isdigit():
        return int(action.count)
    names = placeholders(action.count)
    if names and names[0] in params:
        return int(Decimal(str(params[names[0]])))
    return DEFAULT_ACTION_COUNT


def write_plan(
    sample: Sample, pattern: d.AccessPattern, params: dict[str, Any], rng: random.Random
) -> list[tuple[d.Action, dict[str, Any]]]:
    """The sample item each action writes. In a transaction the items of
    later actions are children of the first one's when they can be, as an
    order is placed with its own line items; an action that finds its item
    by its key templates takes the item the values already known name (a
    version's own document), as its request's parameters do."""
    plan: list[tuple[d.Action, dict[str, Any]]] = []
    for action in pattern.actions:
        count = action_count(action, params)
        parent = plan[0][1] if plan else None
        children = (
            _children(sample, action.entity, plan[0][0].entity, parent)
            if (parent is not None)
            else []
        )
        if children:
            items = children[:count]
        elif identified := _identified(
            sample, action, params, [item for _, item in plan]
        ):
            items = identified[:count]
        else:
            condition = action.condition if action.operation != "Put" else ""
            changes = literal_changes(action) if action.operation == "Update" else {}
            # An update is costed on an item it changes: setting a status
            # an item already has writes no index and costs less than the
            # transition the pattern exists for.
            items = choose(
                sample,
                action.entity,
                count,
                rng,
                condition,
                params,
                prefer=(
                    (
                        lambda item, c=changes: any(
                            item.get(a) != v for a, v in c.items()
                        )
                    )
                    if changes
                    else None
                ),
            )
        for name in placeholders(action.count):
            params.setdefault(name, number(len(items)))
        for item in items:
            plan.append((action, item))
        for _, _, template in action.updates():
            for param in placeholders(template):
                if param not in params and param not in items[0]:
                    params[param] = _any_value(sample, action.entity, param, rng)
    for _, item in plan:
        for key, value in item.items():
            params.setdefault(key, value)
    return plan


def _identified(
    sample: Sample,
    action: d.Action,
    params: Mapping[str, Any],
    earlier: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The items of an update, delete or condition check that finds its item
    by its entity's table key templates (no key of its own) whose key
    attributes have the values already known: the parameters drawn, then
    the items of the actions before it (as the parameters are completed
    from them), for which its condition holds; in the data set's order.
    The request sends that item's key, and the parameters its templates
    take say the same: a version saved with an update of its own document,
    not of another one. Empty when no key attribute is known yet, or no
    item has those values."""
    entity = sample.design.entity(action.entity)
    if action.operation == "Put" or action.key or entity is None:
        return []
    known: dict[str, Any] = {}
    for key in sample.design.table.key_attributes:
        template = entity.keys.get(key.name)
        for name in placeholders(template.template) if template else ():
            if name in params:
                known[name] = params[name]
            else:
                found = next((item for item in earlier if name in item), None)
                if found is not None:
                    known[name] = found[name]
    if not known:
        return []
    first, wanted = next(iter(known.items()))
    matching = []
    for position in sample.lookups.with_value(first, wanted, (action.entity,)):
        item = sample.items[position]
        if any(item.get(name) != value for name, value in known.items()):
            continue
        if action.condition and not _holds(action.condition, {**item, **params}, item):
            continue
        matching.append(item)
    return matching


def _children(
    sample: Sample, entity: str, parent_entity: str, parent: Mapping[str, Any]
) -> list[dict[str, Any]]:
    child = sample.design.entity(entity)
    if child is None or child.sample.per != parent_entity:
        return []
    refs = [
        (a.name, str(a.generator.params.get("value", "")).split(".", 1)[1])
        for a in child.attributes
        if a.generator
        and a.generator.kind == "ref"
        and str(a.generator.params.get("value", "")).startswith(parent_entity + ".")
    ]
    if not refs:
        return []
    first, source = refs[0]
    return [
        sample.items[i]
        for i in sample.lookups.with_value(first, parent.get(source), (entity,))
        if all(sample.items[i].get(mine) == parent.get(theirs) for mine, theirs in refs)
    ]


def _any_value(sample: Sample, entity: str, attribute: str, rng: random.Random) -> Any:
    values = [
        sample.items[i][attribute]
        for i in sample.positions(entity)
        if attribute in sample.items[i]
    ]
    if not values:
        raise RequestError(
            f"no value for the parameter '{attribute}': give an example value"
        )
    return rng.choice(values)


def literal_changes(action: d.Action) -> dict[str, Any]:
    """The literal values an update sets (`status: SHIPPED`), by attribute."""
    return {
        attribute: template
        for attribute, template in action.set
        if not placeholders(template)
    }


def _holds(condition: str, params: Mapping[str, Any], item: dict[str, Any]) -> bool:
    """Whether a designer's condition holds for a sample item."""
    builder = ExpressionBuilder.new(params)
    expression = builder.text(condition)
    return parse_condition(expression, builder.names, builder.values).evaluate(item)
