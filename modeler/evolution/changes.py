"""Every difference between two designs, classified by what it asks of the
live table: an online table change (UpdateTable), items rewritten, a new
table with a copy, or nothing (the application's side alone)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d
from modeler.evolution.matching import (
    EntityMatch,
    EntityMatching,
    matched,
    same_shape,
)
from modeler.evolution.spec import (
    SCRIPTED_RETYPES,
    moved_attributes,
    needs_copy,
    retype_spec,
)
from modeler.keys.template import Literal, parse_template

ONLINE = "online table change"
REWRITE = "items rewritten"
NEW_TABLE = "new table and copy"
NOTHING = "nothing to do to the table"
CATEGORIES = (NEW_TABLE, ONLINE, REWRITE, NOTHING)


@dataclass(frozen=True)
class Change:
    category: str
    what: str
    scriptable: bool = True
    # Items move to another key: readers must look under both meanwhile.
    moves: bool = False
    # (entity, attribute, old type, new type): readers take both meanwhile.
    retype: tuple[str, str, str, str] | None = None
    # A setting changed in place (the table's, or a GSI's capacity): the
    # plan's step of the table's settings makes it, by `call`.
    setting: bool = False
    # The API call that changes the setting: UpdateTable changes most, not
    # TTL, backups or tags.
    call: str = ""
    # The setting's label ("stream", "TTL attribute", ...), for a setting.
    label: str = ""
    # Made by the script's cleanup alone (items or key attributes removed):
    # the application of the dual-write step still reads them.
    at_cleanup: bool = False


def _key_text(key: d.KeyAttribute | None) -> str:
    return f"{key.name} ({key.type})" if key else "none"


def _index_text(index: d.Index) -> str:
    keys = " + ".join(a.name for a in index.partition_key)
    if index.sort_key:
        keys += " / " + " + ".join(a.name for a in index.sort_key)
    projection = index.projection.type
    if projection == "INCLUDE":
        projection += " " + ", ".join(index.projection.attributes)
    return f"{keys}, {projection}"


def table_changes(before: d.Design, after: d.Design) -> list[Change]:
    old, new = before.table, after.table
    out = []
    if old.key_attributes != new.key_attributes:
        out.append(
            Change(
                NEW_TABLE,
                f"the table's key schema changes from partition key "
                f"{_key_text(old.partition_key)}, sort key {_key_text(old.sort_key)} "
                f"to partition key {_key_text(new.partition_key)}, sort key "
                f"{_key_text(new.sort_key)}: a table's keys cannot change in place",
            )
        )
    old_lsis = {i.name: i for i in old.indexes if not i.is_global}
    new_lsis = {i.name: i for i in new.indexes if not i.is_global}
    for name in sorted(old_lsis.keys() | new_lsis.keys()):
        old_lsi, new_lsi = old_lsis.get(name), new_lsis.get(name)
        if old_lsi == new_lsi:
            continue
        how = (
            "added" if old_lsi is None else "removed" if new_lsi is None else "changed"
        )
        out.append(
            Change(
                NEW_TABLE,
                f"LSI {name} {how}: a local index exists only as created "
                "with its table",
            )
        )
    copying = needs_copy(before, after)
    if not copying:
        out += _gsi_changes(old, new)
    settings = [
        ("billing mode", old.billing_mode, new.billing_mode),
        ("provisioned capacity", old.capacity, new.capacity),
        ("TTL attribute", old.ttl_attribute or "off", new.ttl_attribute or "off"),
        ("stream", old.stream_view_type or "off", new.stream_view_type or "off"),
        (
            "point-in-time recovery",
            old.point_in_time_recovery,
            new.point_in_time_recovery,
        ),
        ("table class", old.table_class, new.table_class),
        ("deletion protection", old.deletion_protection, new.deletion_protection),
        ("encryption", old.encryption, new.encryption),
        ("tags", dict(old.tags), dict(new.tags)),
    ]
    for label, was, now in settings:
        if was == now:
            continue
        what = f"{label}: {_setting(was)} -> {_setting(now)}"
        if label == "billing mode":
            what += " (DynamoDB allows one switch per 24 hours)"
        if label == "TTL attribute" and was != "off" and now != "off":
            what += " (TTL is turned off, then on: each once per hour at most)"
        # A new table is created with the new settings.
        out.append(
            Change(
                NOTHING if copying else ONLINE,
                what,
                setting=not copying,
                call="" if copying else SETTING_CALLS.get(label, "UpdateTable"),
                label=label,
            )
        )
    return out


# The settings UpdateTable does not change, by the API call that does.
SETTING_CALLS = {
    "TTL attribute": "UpdateTimeToLive",
    "point-in-time recovery": "UpdateContinuousBackups",
    "tags": "TagResource/UntagResource",
}


# The table settings a live table's reading may miss, by what the reader
# calls them (`modeler.infra.dynamodb.LiveTable.unread`): the plan's label
# and the field of `d.Table`.
UNREADABLE = {
    "backups": ("point-in-time recovery", "point_in_time_recovery"),
    "deletion protection": ("deletion protection", "deletion_protection"),
    "tags": ("tags", "tags"),
    "TTL": ("TTL attribute", "ttl_attribute"),
}


def unread_settings(
    before: d.Design, after: d.Design, unread: Mapping[str, str]
) -> tuple[d.Design, list[Change]]:
    """`before` with each setting the deployed side did not report (`unread`:
    what, and why) taken as `after` has it, so that no change is planned
    from a value nobody read, and a note per setting that says so."""
    fields: dict[str, Any] = {}
    notes = []
    for what, reason in unread.items():
        if what not in UNREADABLE:
            continue
        label, name = UNREADABLE[what]
        wanted = getattr(after.table, name)
        fields[name] = wanted
        shown = _setting(dict(wanted) if name == "tags" else wanted or "off")
        notes.append(
            Change(
                NOTHING,
                f"{label}: the deployed table did not say ({reason}); no change "
                f"planned: check that it is {shown}, as the new design has it",
            )
        )
    if not fields:
        return before, []
    table = dataclasses.replace(before.table, **fields)
    return dataclasses.replace(before, table=table), notes


def _setting(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "none"
    if isinstance(value, d.Capacity):
        return f"{value.read} RCU / {value.write} WCU"
    if isinstance(value, d.Encryption):
        return value.type + (f" {value.kms_key}" if value.kms_key else "")
    return str(value) if value is not None else "none"


def _gsi_changes(old: d.Table, new: d.Table) -> list[Change]:
    old_gsis = [i for i in old.indexes if i.is_global]
    new_gsis = [i for i in new.indexes if i.is_global]
    pairs = matched(old_gsis, new_gsis)
    out = []
    for position, index in enumerate(old_gsis):
        if position not in pairs:
            out.append(Change(ONLINE, f"GSI {index.name} removed"))
            continue
        now = new_gsis[pairs[position]]
        if not same_shape(index, now):
            out.append(
                Change(
                    ONLINE,
                    f"GSI {index.name} ({_index_text(index)}) becomes {now.name} "
                    f"({_index_text(now)}): removed and created again, since a "
                    "GSI's name, keys and projection cannot change",
                )
            )
        elif index.capacity != now.capacity:
            out.append(
                Change(
                    ONLINE,
                    f"GSI {now.name} capacity: {_setting(index.capacity)} -> "
                    f"{_setting(now.capacity)}",
                    setting=True,
                    call="UpdateTable",
                )
            )
    for position, index in enumerate(new_gsis):
        if position not in pairs.values():
            out.append(Change(ONLINE, f"GSI {index.name} added ({_index_text(index)})"))
    return out


def renamed_template(
    template: str, renames: dict[str, str], padded: frozenset[str] = frozenset()
) -> str:
    """The template with renamed attributes placed under their new names,
    and the format dropped from the `padded` ones: a number retyped to the
    zero-padded string its key showed renders the same key bare."""
    if not renames and not padded:
        return template
    parts = []
    for part in parse_template(template).parts:
        if isinstance(part, Literal):
            parts.append(part.text.replace("{", "{{").replace("}", "}}"))
        else:
            name = renames.get(part.attribute, part.attribute)
            spec = f":{part.format_spec}" if part.format_spec else ""
            parts.append(f"{{{name}{'' if name in padded else spec}}}")
    return "".join(parts)


def entity_changes(
    before: d.Design, after: d.Design, matching: EntityMatching
) -> list[Change]:
    out = []
    for match in matching.matches:
        out += _entity_changes(before, after, match)
    for entity in matching.added:
        out.append(
            Change(
                NOTHING,
                f"entity {entity.name} added: no existing item becomes one; the "
                "new application version writes them",
            )
        )
    return out


def _entity_changes(
    before: d.Design, after: d.Design, match: EntityMatch
) -> list[Change]:
    old, new = match.before, match.after
    if new is None:
        return [
            Change(
                REWRITE,
                f"entity {old.name} removed: its items are deleted",
                at_cleanup=True,
            )
        ]
    out = []
    if match.merged:
        # Its items take the other entity's keys and attributes whole.
        return [
            Change(
                REWRITE,
                f"entity {old.name} merged into {new.name}: its items "
                f"are rewritten as {new.name} items",
                moves=True,
            )
        ]
    elif old.name != new.name:
        out.append(
            Change(
                NOTHING,
                f"entity {old.name} renamed to {new.name}: items carry no entity name",
            )
        )
    moved = moved_attributes(match)
    for split, _ in match.splits:
        out.append(
            Change(
                REWRITE,
                f"entity {split.name} split off from {new.name}: one {split.name} "
                f"item made from each {old.name} item that has its attributes"
                + (
                    f"; {', '.join(moved)} removed from the {new.name} items"
                    if moved
                    else ""
                ),
            )
        )
    renames = match.renamed_attributes()
    for attribute in match.attributes:
        if attribute.renamed:
            out.append(
                Change(
                    REWRITE,
                    f"{new.name}.{attribute.before.name} renamed to "
                    f"{attribute.after.name}: stored under the new name",
                )
            )
        if attribute.retyped:
            types = (attribute.before.type, attribute.after.type)
            padding = retype_spec(old, attribute)[2:4]
            shown = ""
            if padding[0] is not None:
                shown = (
                    f" (zero-padded to {padding[0]} characters, as its keys show it)"
                )
            scriptable = types in SCRIPTED_RETYPES
            if scriptable:
                shown += (
                    ": the old type kept until the cleanup, since the deployed "
                    "version reads it"
                )
            out.append(
                Change(
                    REWRITE,
                    f"{new.name}.{attribute.after.name} retyped from {types[0]} to "
                    f"{types[1]}{shown}",
                    scriptable=scriptable,
                    retype=(new.name, attribute.after.name, *types),
                )
            )
    kept = {m.before.name for m in match.attributes}
    for dropped in old.attributes:
        if dropped.name not in kept and not any(
            dropped.name in {m.before.name for m in ms} for _, ms in match.splits
        ):
            out.append(
                Change(
                    NOTHING,
                    f"{new.name}.{dropped.name} no longer declared: left on "
                    "existing items",
                )
            )
    new_names = {m.after.name for m in match.attributes}
    for added in new.attributes:
        if added.name not in new_names:
            note = " (existing items lack it: the design's patterns must not need it)"
            out.append(
                Change(
                    NOTHING,
                    f"{new.name}.{added.name} added" + (note if added.required else ""),
                )
            )
    padded = frozenset(
        m.after.name
        for m in match.attributes
        if m.retyped and retype_spec(old, m)[2] is not None
    )
    out += _key_changes(before, after, match, renames, padded)
    return out


def _key_changes(
    before: d.Design,
    after: d.Design,
    match: EntityMatch,
    renames: dict[str, str],
    padded: frozenset[str],
) -> list[Change]:
    old, new = match.before, match.after
    if new is None:
        return []
    out = []
    table_keys = {a.name for a in after.table.key_attributes}
    copying = needs_copy(before, after)
    old_table_keys = {a.name for a in before.table.key_attributes}
    new_key_names = {a.name for a in after.table.all_key_attributes()}
    old_key_names = {a.name for a in before.table.all_key_attributes()}
    for name in sorted(
        (old.keys.keys() & old_key_names) | (new.keys.keys() & new_key_names)
    ):
        was = old.keys.get(name) if name in old_key_names else None
        now = new.keys.get(name) if name in new_key_names else None
        was_text = renamed_template(was.template, renames) if was else None
        same = was_text == now.template if now is not None else False
        if was is not None and now is not None and padded:
            same = same or renamed_template(
                was.template, renames, padded
            ) == renamed_template(now.template, {}, padded)
        if was is not None and now is not None and same:
            if (was.when or "") != (now.when or "") and name not in table_keys:
                out.append(
                    Change(
                        REWRITE,
                        f"{new.name} {name}: sparse condition "
                        f"'{was.when or 'always'}' -> '{now.when or 'always'}': "
                        "items gain or lose the index key",
                    )
                )
            continue
        if copying and name in table_keys | old_table_keys:
            continue  # every item is copied under its new table keys
        if name in table_keys and now is not None:
            out.append(
                Change(
                    REWRITE,
                    f"{new.name} {name}: '{was.template if was else '(none)'}' -> "
                    f"'{now.template}': each item written under its new key, the "
                    "old one deleted",
                    moves=True,
                )
            )
        elif now is None:
            out.append(
                Change(
                    REWRITE,
                    f"{new.name} {name}: removed from its items",
                    at_cleanup=True,
                )
            )
        else:
            out.append(
                Change(
                    REWRITE,
                    f"{new.name} {name}: '{was.template if was else '(none)'}' -> "
                    f"'{now.template}': computed from each item's attributes"
                    + (f" while {now.when}" if now.when else ""),
                )
            )
    return out
