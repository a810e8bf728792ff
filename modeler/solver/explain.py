"""Why a proposal is as it is: one sentence per index and per read."""

from __future__ import annotations

from modeler.design import model as d
from modeler.solver.layouts import KeyPlan, Keys, Layout
from modeler.solver.needs import Need
from modeler.solver.search import Plan


def explain(built: d.Design, plan: Plan, keys: Keys, needs: list[Need]) -> list[str]:
    """One sentence per choice: each index, and how each read is served."""
    lines: list[str] = []
    table = plan.table
    shared: dict[tuple, list[str]] = {}
    for entity, layout in table.layouts.items():
        shared.setdefault(keys.partition_shape(layout), []).append(entity)
    for entities in shared.values():
        if len(entities) > 1:
            layout = table.layouts[entities[0]]
            lines.append(
                f"{_and(entities)} share the partition "
                f"{keys.pk_template(layout)}: one item collection, so reading "
                "them together or one after the other stays in one partition."
            )
    by_position = {n.position: n for n in needs}
    for index in plan.secondary:
        layouts = index.layouts
        what = (
            f"{index.name} is a local index: the table's partitions sorted another way"
            if index.kind == "local"
            else f"{index.name} is a global index"
        )
        if len(layouts) > 1:
            what += (
                f" overloaded with {_and(sorted(layouts))}, told apart by "
                "their sort key's first word"
            )
        inverted = [
            entity
            for entity, layout in layouts.items()
            if _turned_around(table.layouts.get(entity), layout)
        ]
        if inverted:
            what += (
                f"; it is inverted: {_and(inverted)}'s keys turned around, so "
                "each edge is found from its other end"
            )
        sparse = [layout for layout in layouts.values() if layout.sparse]
        if sparse:
            what += (
                f"; it is sparse: a {sparse[0].entity} is in it only while "
                f"{sparse[0].when}, "
                "so it holds the working set alone"
            )
        serves = [by_position[p].name for p in index.serves]
        if serves:
            what += ". It serves " + _and([f"'{n}'" for n in serves])
        lines.append(what + ".")
    for position, (name, key_plan) in sorted(plan.reads.items()):
        need = by_position[position]
        lines.append(_read_reason(need, name, key_plan, plan, keys))
    lines.extend(_exits(built, plan))
    return lines


def _exits(built: d.Design, plan: Plan) -> list[str]:
    """A sentence per update that sets a sparse index's attribute from a
    parameter: it removes the index's keys, since whatever it sets but the
    one value takes the item out of the working set."""
    lines = []
    for index in plan.secondary:
        for layout in index.layouts.values():
            if layout.sparse is None:
                continue
            attribute, value = layout.sparse
            for pattern in built.access_patterns:
                for action in pattern.actions:
                    set_to = dict(action.set).get(attribute, "")
                    if action.entity != layout.entity or "{" not in set_to:
                        continue
                    removed = [n for n in action.remove if n.startswith(index.name)]
                    lines.append(
                        f"'{pattern.name}' sets {attribute} from {set_to} and "
                        f"removes {_and(removed)}: an item it moves on "
                        f"leaves {index.name}, which holds {attribute} = {value} "
                        f"alone; setting {attribute} back to {value} is its own "
                        "update, which writes them again."
                    )
    return lines


def _turned_around(table: Layout | None, layout: Layout) -> bool:
    """The index's layout partitions by what the table sorts by, and sorts
    by what the table partitions by (a many-to-many edge seen from its
    other end)."""
    if table is None or not table.pk or not layout.pk or not table.sk:
        return False
    return set(layout.pk) <= set(table.sk) and set(table.pk) <= set(layout.sk)


def _read_reason(
    need: Need, index_name: str, key_plan: KeyPlan, plan: Plan, keys: Keys
) -> str:
    index = next(i for i in plan.indexes if i.name == index_name)
    where = "the table" if index.kind == "table" else index_name
    layout: Layout = index.layouts[need.entities[0]]
    pk = keys.pk_template(layout)
    if key_plan.operation == "GetItem":
        return (
            f"'{need.name}' is one GetItem: {need.entities[0]}'s key "
            f"{pk} / {keys.sk_template(layout)} is made of what it fixes."
        )
    if len(need.entities) > 1:
        return (
            f"'{need.name}' is one Query of {where}: {_and(list(need.entities))} "
            f"share the partition {pk}."
        )
    sk = keys.sk_template(layout)
    text = (
        f"'{need.name}' is one Query of {where}: {need.entities[0]}'s partition is {pk}"
    )
    if need.sorted_by:
        text += (
            f" and its sort key {sk} goes on with "
            + ", ".join(need.sorted_by)
            + (", read in reverse for newest first" if need.descending else "")
        )
    elif layout.sk:
        text += f", its sort key {sk}"
    return text + "."


def _and(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
