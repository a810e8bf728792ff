"""The actions of write patterns and multi-item reads: the operations each
takes, their keys, updates, conditions and item counts."""

from __future__ import annotations

from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.findings import Finding, error, warning
from modeler.design.parameters import placeholders
from modeler.design_check.common import (
    entity_attribute_names,
    expression_problem,
    is_number_text,
)
from modeler.design_check.pattern_keys import check_full_key, table_keys
from modeler.simulation.requests import expression_attributes

MAX_TRANSACTION_ITEMS = 100
MAX_BATCH_GET_ITEMS = 100
MAX_BATCH_WRITE_ITEMS = 25


def check_actions(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Finding]:
    op = pattern.operation
    if op in d.MULTI_ITEM_OPERATIONS and not pattern.actions:
        yield error(
            "actions-required", f"{path}.actions", f"{op} needs a list of actions"
        )
    allowed = {
        "BatchGetItem": ("Get",),
        "TransactGetItems": ("Get",),
        "BatchWriteItem": ("Put", "Delete"),
        "TransactWriteItems": ("Put", "Update", "Delete", "ConditionCheck"),
    }.get(op)
    fixed_total = 0
    single = op in ("PutItem", "UpdateItem", "DeleteItem")
    for i, action in enumerate(pattern.actions):
        apath = path if single else f"{path}.actions[{i}]"
        if allowed and action.operation not in allowed:
            yield error(
                "action-operation",
                f"{apath}.operation",
                f"{op} takes "
                + ", ".join(allowed)
                + f" actions, not {action.operation}",
            )
        entity = design.entity(action.entity)
        if entity is None:
            yield error(
                "action-unknown-entity",
                f"{apath}.entity",
                f"unknown entity '{action.entity}'",
            )
            continue
        if action.key:
            yield from check_full_key(action.key, table_keys(design), f"{apath}.key")
        known = entity_attribute_names(design, [entity])
        if action.operation != "Update" and action.updated:
            yield error(
                "update-ways-outside-update",
                apath,
                ", ".join(d.UPDATE_WAYS) + " and remove belong to Update actions",
            )
        yield from _check_updates(design, entity, action, known, apath)
        if action.condition:
            problem = expression_problem(action.condition, "ConditionExpression")
            if problem:
                yield error("condition-invalid", f"{apath}.condition", problem)
            else:
                yield from _check_condition_names(design, entity, action, known, apath)
        if action.count:
            if action.count.isdigit():
                fixed_total += int(action.count)
            elif not placeholders(action.count):
                yield error(
                    "action-count",
                    f"{apath}.count",
                    "expected a whole number or a parameter such as '{itemCount}'",
                )
        else:
            fixed_total += 1
    limit = {
        "TransactWriteItems": MAX_TRANSACTION_ITEMS,
        "TransactGetItems": MAX_TRANSACTION_ITEMS,
        "BatchGetItem": MAX_BATCH_GET_ITEMS,
        "BatchWriteItem": MAX_BATCH_WRITE_ITEMS,
    }.get(op)
    if limit and fixed_total > limit:
        yield error(
            "too-many-action-items",
            f"{path}.actions",
            f"{fixed_total} items; {op} takes at most {limit}",
        )


def _check_condition_names(
    design: d.Design,
    entity: d.Entity,
    action: d.Action,
    known: set[str],
    apath: str,
) -> Iterator[Finding]:
    """Each attribute the condition names is one the item can have: its
    entity's, or a key attribute. Another (a key attribute renamed since,
    a typo) is on no item: attribute_not_exists of it always holds, which
    guards nothing, and a comparison with it never does."""
    keys = {a.name for a in design.table.all_key_attributes()}
    for name in expression_attributes(action.condition):
        if name not in known and name not in keys:
            yield warning(
                "condition-unknown-attribute",
                f"{apath}.condition",
                f"'{name}' is no attribute of {entity.name} nor a key attribute, "
                f"so no item has it: attribute_not_exists({name}) always holds "
                "and a comparison with it never does",
            )


def _check_updates(
    design: d.Design,
    entity: d.Entity,
    action: d.Action,
    known: set[str],
    apath: str,
) -> Iterator[Finding]:
    """Each attribute an update writes or removes: one the item has, not a
    table key, written one way only, of a type that way takes."""
    key_names = {a.name for a in design.table.key_attributes}
    index_keys = {a.name for a in design.table.all_key_attributes()}
    for name in action.remove:
        if name in key_names:
            yield error(
                "key-removed",
                f"{apath}.remove",
                f"'{name}' is a key of the table and cannot be removed",
            )
        elif name not in known and name not in index_keys:
            yield error(
                "action-unknown-attribute",
                f"{apath}.remove",
                f"no attribute '{name}' on {entity.name}",
            )
    seen: dict[str, str] = {name: "remove" for name in action.remove}
    for how, name, value in action.updates():
        where = f"{apath}.{how}.{name}"
        if name in key_names:
            yield error(
                "key-updated",
                where,
                "the table's key attributes "
                "cannot be updated; delete and put the item instead",
            )
            continue
        if name not in known and name not in index_keys:
            yield error(
                "action-unknown-attribute",
                where,
                f"no attribute '{name}' on {entity.name}",
            )
            continue
        if name in seen:
            yield error(
                "attribute-written-twice",
                where,
                f"'{name}' is already written by {seen[name]}; an update "
                "writes an attribute one way only (DynamoDB refuses "
                "overlapping paths)",
            )
        seen.setdefault(name, how)
        attribute = entity.attribute(name)
        types = d.UPDATE_WAY_TYPES.get(how)
        if types and attribute is not None and attribute.type not in types:
            yield error(
                "update-way-type",
                where,
                f"{how} takes an attribute of type {' or '.join(types)}; "
                f"'{name}' is {attribute.type}",
            )
        elif (
            how == "add"
            and attribute is not None
            and attribute.type == "N"
            and not placeholders(value)
            and not is_number_text(value)
        ):
            yield error(
                "add-not-number",
                where,
                f"expected a number to add, such as 1 or -1, found '{value}'",
            )
