"""The table changes of a migration as infrastructure code, in stages that
DynamoDB accepts one after the other: the table's settings first, then
each new GSI in an update of its own (UpdateTable creates one GSI at a
time), then the removals; or, for a new table, the new table itself. Each
stage is the whole table as the existing exporters write it, to apply in
turn (Terraform) or to update the stack with (CloudFormation), waiting for
the table to be ACTIVE between stages."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from modeler.design import model as d
from modeler.evolution.matching import matched, same_shape
from modeler.evolution.spec import needs_copy, target_table_name
from modeler.exporters.cloudformation import export_cloudformation_yaml
from modeler.exporters.terraform import export_terraform

FORMATS = {
    "terraform": (export_terraform, "tf"),
    "cloudformation": (export_cloudformation_yaml, "yaml"),
}


@dataclass(frozen=True)
class Stage:
    title: str
    table: d.Table


def table_stages(before: d.Design, after: d.Design) -> list[Stage]:
    if needs_copy(before, after):
        name = target_table_name(before, after)
        return [
            Stage(
                f"create table {name}",
                dataclasses.replace(after.table, name=name),
            )
        ]
    old = [i for i in before.table.indexes if i.is_global]
    new = [i for i in after.table.indexes if i.is_global]
    pairs = matched(old, new)
    # A GSI whose name, keys and projection stay is kept: its capacity is a
    # setting UpdateTable changes in place, with the table's.
    kept = {p: pairs[p] for p in pairs if same_shape(old[p], new[pairs[p]])}
    removed = [i for p, i in enumerate(old) if p not in kept]
    added = [i for p, i in enumerate(new) if p not in kept.values()]
    lsis = tuple(i for i in before.table.indexes if not i.is_global)
    current = [new[kept[p]] for p in sorted(kept)]
    stages = []

    def table() -> d.Table:
        return dataclasses.replace(after.table, indexes=lsis + tuple(current + gone))

    gone = list(removed)
    settings_changed = dataclasses.replace(
        before.table, indexes=()
    ) != dataclasses.replace(after.table, indexes=()) or any(
        old[p].capacity != new[kept[p]].capacity for p in kept
    )
    if settings_changed:
        stages.append(Stage("the table's settings", table()))
    added_names = {i.name for i in added}
    for index in [i for i in gone if i.name in added_names]:
        gone.remove(index)
        stages.append(Stage(f"delete GSI {index.name} (created again next)", table()))
    for index in added:
        current.append(index)
        stages.append(Stage(f"create GSI {index.name}", table()))
    if gone:
        title = "delete " + ", ".join(f"GSI {i.name}" for i in gone)
        gone.clear()
        stages.append(Stage(title, table()))
    return stages


def iac_files(
    before: d.Design, after: d.Design, format_name: str
) -> list[tuple[str, str]]:
    """(file name, text) per stage, numbered in the order to apply them."""
    export, extension = FORMATS[format_name]
    files = []
    for number, stage in enumerate(table_stages(before, after), start=1):
        design = dataclasses.replace(after, table=stage.table)
        slug = "".join(c if c.isalnum() else "-" for c in stage.title.lower())
        files.append((f"{number:02d}-{slug.strip('-')}.{extension}", export(design)))
    return files
