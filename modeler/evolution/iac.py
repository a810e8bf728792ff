"""The table changes of a migration as infrastructure code, in stages that
DynamoDB accepts one after the other: the table's settings first (the stream
in an update of its own when the capacity changes too: UpdateTable
changes one of them at a time), then each new GSI in an update of its own
(UpdateTable creates one GSI at a time), then TTL on a new attribute (an
hour after the first stage turned it off: DynamoDB cannot move an enabled
TTL, and takes one TTL change per table per hour), then the removals, one
GSI per update; or, for a new table, the new table itself. Each
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
    # The TTL attribute the stage writes as disabled: the deployed table's,
    # while this stage's table has none (turned off, or not yet on again).
    ttl_off: str = ""


def _other_update_table_settings(old: d.Table, new: d.Table) -> bool:
    """Whether UpdateTable changes more than the stream: the capacity
    (billing mode, throughput) or the rest of the table's own settings,
    leaving aside the GSIs and what other calls change (TTL, backups,
    tags). UpdateTable takes one of the capacity, the stream, a GSI's
    creation or a GSI's removal at a time."""

    def rest(table: d.Table) -> d.Table:
        return dataclasses.replace(
            table,
            indexes=(),
            stream_view_type="",
            ttl_attribute="",
            point_in_time_recovery=False,
            tags=(),
        )

    return rest(old) != rest(new)


def ttl_moved(before: d.Design, after: d.Design) -> bool:
    """The TTL moves from one attribute to another: DynamoDB cannot change
    the attribute of an enabled TTL, and takes one TTL change per table per
    hour, so it is turned off, then on for the new attribute an hour later."""
    was, now = before.table.ttl_attribute, after.table.ttl_attribute
    return bool(was and now and was != now)


def stream_alone(before: d.Design, after: d.Design) -> bool:
    """The stream changes with the capacity or another setting UpdateTable
    makes: it needs an update of its own."""
    if before.table.stream_view_type == after.table.stream_view_type:
        return False
    return (
        stream_retyped(before, after)
        or _other_update_table_settings(before.table, after.table)
        or _capacity_changed(before, after)
    )


def stream_retyped(before: d.Design, after: d.Design) -> bool:
    """The stream's view type changes: UpdateTable cannot enable a stream on
    a table that has one, so it is turned off in an update, then on again
    with the new view type (a new stream, with a new ARN)."""
    was, now = before.table.stream_view_type, after.table.stream_view_type
    return bool(was and now and was != now)


def _gsis(
    before: d.Design, after: d.Design
) -> tuple[list[d.Index], list[d.Index], dict[int, int]]:
    """The deployed GSIs, the new ones, and the positions of those kept (old
    -> new): a GSI whose name, keys and projection stay is kept, its
    capacity being a setting UpdateTable changes in place, with the
    table's."""
    old = [i for i in before.table.indexes if i.is_global]
    new = [i for i in after.table.indexes if i.is_global]
    pairs = matched(old, new)
    return old, new, {p: pairs[p] for p in pairs if same_shape(old[p], new[pairs[p]])}


def gsi_creations(before: d.Design, after: d.Design) -> list[d.Index]:
    """The GSIs of the next design the deployed table lacks (new, or
    changed in keys or projection: made again)."""
    _, new, kept = _gsis(before, after)
    return [i for q, i in enumerate(new) if q not in kept.values()]


def gsi_removals(before: d.Design, after: d.Design) -> list[d.Index]:
    """The deployed GSIs the next design does not keep as they are."""
    old, _, kept = _gsis(before, after)
    return [i for p, i in enumerate(old) if p not in kept]


def remade_gsis(before: d.Design, after: d.Design) -> list[d.Index]:
    """The GSIs of the next design changed under their own names (keys or
    projection): the deployed one is deleted, then this one made."""
    removed = {i.name for i in gsi_removals(before, after)}
    return [i for i in gsi_creations(before, after) if i.name in removed]


def removed_before_cleanup(before: d.Design, after: d.Design) -> list[str]:
    """The GSIs the next design removes, not made again under their names:
    deleted once the next version is deployed, before the script's cleanup
    (whose writes they would take otherwise)."""
    remade = {i.name for i in remade_gsis(before, after)}
    return [i.name for i in gsi_removals(before, after) if i.name not in remade]


def _capacity_changed(before: d.Design, after: d.Design) -> bool:
    """Whether a kept GSI's capacity changes."""
    old, new, kept = _gsis(before, after)
    return any(old[p].capacity != new[q].capacity for p, q in kept.items())


def interim_capacities(before: d.Design, after: d.Design) -> dict[str, d.Capacity]:
    """The capacity each GSI the next design removes is given meanwhile,
    by name, when the table turns provisioned before it is deleted: every
    GSI of a provisioned table needs its own, and the removed one (an
    on-demand index, with none) is still written by every version until
    its deletion, so it takes the table's, which its writes never pass
    (an index short of write capacity throttles the table's writes)."""
    table = after.table
    if table.billing_mode != "PROVISIONED" or table.capacity is None:
        return {}
    if needs_copy(before, after):
        return {}
    old, _, kept = _gsis(before, after)
    return {
        index.name: table.capacity
        for position, index in enumerate(old)
        if position not in kept and index.capacity is None
    }


def table_stages(before: d.Design, after: d.Design) -> list[Stage]:
    if needs_copy(before, after):
        name = target_table_name(before, after)
        return [
            Stage(
                f"create table {name}",
                dataclasses.replace(after.table, name=name),
            )
        ]
    old, new, kept = _gsis(before, after)
    interim = interim_capacities(before, after)
    removed = [
        dataclasses.replace(i, capacity=interim[i.name]) if i.name in interim else i
        for p, i in enumerate(old)
        if p not in kept
    ]
    added = [i for p, i in enumerate(new) if p not in kept.values()]
    lsis = tuple(i for i in before.table.indexes if not i.is_global)
    current = [new[kept[p]] for p in sorted(kept)]
    stages = []
    moving_ttl = ttl_moved(before, after)
    ttl = "" if moving_ttl else after.table.ttl_attribute
    separate_stream = stream_alone(before, after)
    stream = (
        before.table.stream_view_type
        if separate_stream
        else after.table.stream_view_type
    )

    def table() -> d.Table:
        return dataclasses.replace(
            after.table,
            indexes=lsis + tuple(current + gone),
            ttl_attribute=ttl,
            stream_view_type=stream,
        )

    def stage(title: str) -> Stage:
        return Stage(title, table(), "" if ttl else before.table.ttl_attribute)

    gone = list(removed)
    settings_changed = dataclasses.replace(
        before.table, indexes=()
    ) != dataclasses.replace(table(), indexes=()) or _capacity_changed(before, after)
    if settings_changed:
        stages.append(stage("the table's settings"))
    if separate_stream:
        if stream_retyped(before, after):
            stream = ""
            stages.append(stage("the table's stream off (on again next)"))
        stream = after.table.stream_view_type
        stages.append(stage("the table's stream"))
    added_names = {i.name for i in added}
    for index in [i for i in gone if i.name in added_names]:
        gone.remove(index)
        stages.append(stage(f"delete GSI {index.name} (created again next)"))
    for index in added:
        current.append(index)
        stages.append(stage(f"create GSI {index.name}"))
    if moving_ttl:
        ttl = after.table.ttl_attribute
        stages.append(stage(f"enable TTL on {ttl} at least an hour later"))
    # UpdateTable deletes one GSI at a time, as it creates one.
    while gone:
        index = gone.pop(0)
        stages.append(stage(f"delete GSI {index.name}"))
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
        text = export(design, ttl_off=stage.ttl_off)
        files.append((f"{number:02d}-{slug.strip('-')}.{extension}", text))
    return files
