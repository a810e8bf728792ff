"""The key attributes of an item, rendered from its other attributes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modeler.design import Design
from modeler.keys.condition import parse_condition
from modeler.keys.template import MissingValueError, parse_template


def key_values(
    design: Design, entity_name: str, values: Mapping[str, Any]
) -> dict[str, Any]:
    """Every key attribute (table and indexes) an item of the entity has.

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
    keys: dict[str, Any] = {}
    for name, key in entity.keys.items():
        if name not in key_types:
            continue  # reported by check_entity_keys
        is_table_key = name in table_keys
        if (
            key.when
            and not is_table_key
            and not parse_condition(key.when).holds(values)
        ):
            continue
        try:
            keys[name] = parse_template(key.template).render(values, key_types[name])
        except MissingValueError:
            if is_table_key:
                raise
    return keys
