"""The design of a plan: each entity's key templates, the indexes, each
read's key condition and each write's index maintenance."""

from __future__ import annotations

from dataclasses import replace

from modeler.design import model as d
from modeler.keys.template import parse_template
from modeler.solver.layouts import KeyPlan, Keys
from modeler.solver.needs import Need
from modeler.solver.projections import slim_projection
from modeler.solver.search import IndexPlan, Plan


def index_key_names(plan: IndexPlan, table: d.Table) -> tuple[str, str]:
    if plan.kind == "table":
        return table.partition_key.name, (
            table.sort_key.name if table.sort_key else "SK"
        )
    if plan.kind == "local":
        return table.partition_key.name, f"{plan.name}SK"
    return f"{plan.name}PK", f"{plan.name}SK"


def build(base: d.Design, plan: Plan, keys: Keys, needs: list[Need]) -> d.Design:
    table = base.table
    if table.sort_key is None:
        table = replace(table, sort_key=d.KeyAttribute("SK", "S"))
    entities = []
    for entity in base.entities:
        templates: dict[str, d.KeyTemplate] = {}
        for index in plan.indexes:
            layout = index.layouts.get(entity.name)
            if layout is None:
                continue
            pk_name, sk_name = index_key_names(index, table)
            if index.kind != "local":
                templates[pk_name] = d.KeyTemplate(
                    keys.pk_template(layout), layout.when
                )
            templates[sk_name] = d.KeyTemplate(keys.sk_template(layout), layout.when)
        entities.append(replace(entity, keys=templates))
    indexes = tuple(_index(index, table, base, needs) for index in plan.secondary)
    table = replace(table, indexes=indexes)
    slim = replace(base, table=table, entities=tuple(entities))
    table = replace(
        table,
        indexes=tuple(
            replace(index, projection=slim_projection(slim, index))
            if index.projection.type == "ALL"
            else index
            for index in indexes
        ),
    )
    by_position = {n.position: n for n in needs}
    patterns = []
    for position, pattern in enumerate(base.access_patterns):
        if position in plan.reads:
            name, key_plan = plan.reads[position]
            index = next(i for i in plan.indexes if i.name == name)
            patterns.append(_read(pattern, index, key_plan, table))
        elif by_position.get(position) is None and not pattern.is_read:
            patterns.append(_write(pattern, plan, keys, table))
        else:
            patterns.append(pattern)
    return replace(
        base, table=table, entities=tuple(entities), access_patterns=tuple(patterns)
    )


def _index(
    index: IndexPlan, table: d.Table, base: d.Design, needs: list[Need]
) -> d.Index:
    pk_name, sk_name = index_key_names(index, table)
    served = [n for n in needs if n.position in index.serves]
    projection = d.Projection("ALL")
    if served and all(n.pattern.projection for n in served):
        keys = {a.name for a in table.key_attributes} | {pk_name, sk_name}
        wanted = sorted({name for n in served for name in n.pattern.projection} - keys)
        projection = (
            d.Projection("INCLUDE", tuple(wanted))
            if wanted
            else d.Projection("KEYS_ONLY")
        )
    capacity = table.capacity if index.kind == "global" else None
    return d.Index(
        name=index.name,
        kind=index.kind,
        partition_key=(d.KeyAttribute(pk_name, "S"),) if index.kind == "global" else (),
        sort_key=(d.KeyAttribute(sk_name, "S"),),
        projection=projection,
        capacity=capacity,
    )


def _read(
    pattern: d.AccessPattern, index: IndexPlan, plan: KeyPlan, table: d.Table
) -> d.AccessPattern:
    pk_name, sk_name = index_key_names(index, table)
    names = {"pk": pk_name, "sk": sk_name}
    clauses = tuple(
        d.KeyClause(names[which], operator, values)
        for which, operator, values in plan.clauses
    )
    return replace(
        pattern,
        operation=plan.operation,
        index=d.TABLE_INDEX if index.kind == "table" else index.name,
        key=clauses,
        scan_forward=plan.scan_forward,
        limit=None if plan.operation == "GetItem" else pattern.limit,
    )


def _write(
    pattern: d.AccessPattern, plan: Plan, keys: Keys, table: d.Table
) -> d.AccessPattern:
    """An update that changes an attribute an index key is made of writes
    that key again; one that takes an item out of a sparse index's working
    set removes the index's keys."""
    actions = []
    for action in pattern.actions:
        if action.operation != "Update":
            actions.append(action)
            continue
        changed = dict(action.set)
        set_keys: list[tuple[str, str]] = []
        removed: list[str] = []
        for index in plan.secondary:
            layout = index.layouts.get(action.entity)
            if layout is None:
                continue
            touched = layout.attributes & set(action.updated)
            if not touched:
                continue
            pk_name, sk_name = index_key_names(index, table)
            names = [sk_name] if index.kind == "local" else [pk_name, sk_name]
            # A status set from a parameter leaves the working set too: the
            # update that moves an item on is what it is for, and an item
            # kept would stay in the index whatever its status.
            if (
                layout.sparse is not None
                and layout.sparse[0] in touched
                and changed.get(layout.sparse[0]) != layout.sparse[1]
            ):
                removed.extend(names)
                continue
            templates = {
                pk_name: keys.pk_template(layout),
                sk_name: keys.sk_template(layout),
            }
            for name in names:
                template = templates[name]
                if set(parse_template(template).attributes) & touched:
                    set_keys.append((name, keys.filled(template, changed)))
        actions.append(
            replace(
                action,
                set=action.set + tuple(set_keys),
                remove=action.remove + tuple(removed),
            )
        )
    return replace(pattern, actions=tuple(actions))
