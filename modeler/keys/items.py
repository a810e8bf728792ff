"""The key attributes of an item, rendered from its other attributes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from modeler.design.model import Design
from modeler.keys.condition import Comparison, Condition, parse_condition
from modeler.keys.template import MissingValueError, parse_template

KeyRenderer = Callable[[Mapping[str, Any]], dict[str, Any]]


def key_renderer(design: Design, entity_name: str) -> KeyRenderer:
    """A function giving every key attribute (table and indexes) an item of
    the entity has, with the templates parsed once: sample data calls it for
    every item it makes.

    A key whose condition does not hold is left out, and so is an index key
    whose template places an attribute the item does not have: either way the
    item is absent from that index, as a sparse index works. A missing value
    for a table key raises MissingValueError, since no item can lack one.
    """
    entity = design.entity(entity_name)
    if entity is None:
        raise KeyError(f"no entity named '{entity_name}'")
    table_keys = {a.name for a in design.table.key_attributes}
    key_types = {a.name: a.type for a in design.table.all_key_attributes()}
    keys = []
    # Keys of one template and type (PK and GSI3PK both "ORDER#{orderId}")
    # share one rendered value: one string in memory instead of two.
    first_of: dict[tuple[str, str], str] = {}
    for name, key in entity.keys.items():
        if name not in key_types:
            continue  # reported by check_entity_keys
        same = (key.template, key_types[name])
        keys.append(
            (
                name,
                parse_template(key.template).renderer(key_types[name]),
                name in table_keys,
                _test(parse_condition(key.when))
                if key.when and name not in table_keys
                else None,
                first_of.setdefault(same, name),
            )
        )

    def render(values: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, render_key, is_table_key, holds, first in keys:
            if holds is not None and not holds(values):
                continue
            if first is not name and first in out:
                out[name] = out[first]
                continue
            try:
                out[name] = render_key(values)
            except MissingValueError:
                if is_table_key:
                    raise
        return out

    return render


def _test(condition: Condition) -> Callable[[Mapping[str, Any]], bool]:
    """`condition.holds`, made quick for the sparse index's usual condition,
    one attribute equal to one word (`status = OPEN`), on a text value."""
    clauses = condition.clauses
    if len(clauses) != 1 or not isinstance(clauses[0], Comparison):
        return condition.holds
    clause = clauses[0]
    if clause.operator != "=" or type(clause.values[0]) is not str:
        return condition.holds
    attribute, expected, holds = clause.attribute, clause.values[0], condition.holds

    def test(values: Mapping[str, Any]) -> bool:
        actual = values.get(attribute)
        # Text compares as its UTF-8 bytes, equal when the text is.
        return actual == expected if type(actual) is str else holds(values)

    return test


def key_values(
    design: Design, entity_name: str, values: Mapping[str, Any]
) -> dict[str, Any]:
    """Every key attribute (table and indexes) an item of the entity has; see
    `key_renderer`."""
    return key_renderer(design, entity_name)(values)
