"""DOT sources of the diagrams, built with the `graphviz` package.

Every piece of user text (names, templates, key values, attribute values)
goes into HTML-like labels, escaped as XML text, so that no name can end a
label, start markup, or reach Graphviz's backslash escapes. Node names are
our own (`p0`, `e1`...), never user text."""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Sequence

import graphviz

from modeler.design import model as d
from modeler.diagrams.collections import IndexInfo, PartitionView
from modeler.diagrams.keymap import index_columns

# The workbench's entity palette (static/css/workbench.css): fill, ink, line.
ENTITY_COLOURS = (
    ("#dbeafe", "#1e3a8a", "#93c5fd"),
    ("#dcfce7", "#14532d", "#86efac"),
    ("#fef3c7", "#78350f", "#fcd34d"),
    ("#e0e7ff", "#312e81", "#a5b4fc"),  # indigo: a red would read as an error
    ("#ede9fe", "#4c1d95", "#c4b5fd"),
    ("#ccfbf1", "#134e4a", "#5eead4"),
    ("#ffedd5", "#7c2d12", "#fdba74"),
    ("#e0f2fe", "#0c4a6e", "#7dd3fc"),
    ("#fae8ff", "#701a75", "#f0abfc"),
    ("#ecfccb", "#365314", "#bef264"),
)
UNKNOWN_COLOURS = ("#f1f5f9", "#334155", "#cbd5e1")
INK = "#0f172a"
MUTED = "#475569"
BORDER = "#94a3b8"
FONT = "Helvetica"
MONO = "Courier"
MAX_TEXT = 48
# An item's attributes, one column each (as an aggregate view shows them),
# before a last column counts the rest; a value wraps onto lines of
# VALUE_WIDTH characters, at most VALUE_LINES of them.
ATTRIBUTES_SHOWN = 10
VALUE_WIDTH = 28
VALUE_LINES = 3
LEFT_BREAK = '<BR ALIGN="LEFT"/>'

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def text(value: str, limit: int = MAX_TEXT) -> str:
    """User text for an HTML-like label: shortened, control characters
    removed, escaped as XML (&, <, >, quotes) and for Graphviz (\\)."""
    value = _CONTROL.sub("", str(value)).replace("\n", " ").replace("\r", " ")
    if len(value) > limit:
        # ASCII: Graphviz sizes boxes from ASCII font metrics.
        value = value[: limit - 3] + "..."
    # Graphviz reads backslash escapes (\N: the node's name) even in
    # HTML-like labels; a doubled backslash is one literal backslash.
    return html.escape(value, quote=True).replace("\\", "\\\\")


def wrapped(value: str, width: int = VALUE_WIDTH, lines: int = VALUE_LINES) -> str:
    """User text for a label's cell, escaped as `text` does, on lines of at
    most `width` characters (broken at a space where there is one), at
    most `lines` of them, the last ending in "..." when it was cut."""
    value = _CONTROL.sub("", str(value)).replace("\n", " ").replace("\r", " ")
    found: list[str] = []
    while value and len(found) < lines:
        if len(value) <= width:
            found.append(value)
            value = ""
            break
        cut = value.rfind(" ", 1, width + 1)
        cut = cut if cut > 0 else width
        found.append(value[:cut].rstrip())
        value = value[cut:].lstrip()
    if value:
        found[-1] = found[-1][: width - 3] + "..."
    return LEFT_BREAK.join(text(line, width) for line in found) + LEFT_BREAK


def _label(table: str) -> str:
    return f"<{table}>"


def _colours(colour: int | None) -> tuple[str, str, str]:
    return ENTITY_COLOURS[colour % 10] if colour is not None else UNKNOWN_COLOURS


def collections_dot(
    *,
    design_name: str,
    info: IndexInfo,
    partitions: Sequence[PartitionView],
    more_partitions: int = 0,
    columns: int = 1,
) -> str:
    """Item collections: one box per partition holding its items in sort
    order, `+N more` for the items and partitions left out; `columns`
    boxes a row (one: a box is as wide as its items' attributes)."""
    graph = graphviz.Digraph("collections")
    graph.attr(
        rankdir="TB",
        nodesep="0.3",
        ranksep="0.35",
        fontname=FONT,
        fontsize="14",
        labelloc="t",
        labeljust="l",
        bgcolor="white",
        label=_label(_title_for(design_name, info)),
    )
    graph.attr("node", shape="plaintext", fontname=FONT, fontsize="11", margin="0")
    graph.attr("edge", style="invis")
    for position, partition in enumerate(partitions):
        # A long partition wraps into several boxes side by side, so that
        # one fits a screen or a projector at a readable size.
        boxes = _wrapped(partition)
        names = [f"p{position}"] + [
            f"p{position}_{n}" for n in range(2, len(boxes) + 1)
        ]
        with graph.subgraph(name=f"partition{position}") as row:
            row.attr(rank="same")
            for name, box in zip(names, boxes, strict=True):
                last = box is boxes[-1]
                row.node(name, label=_label(_partition_table(info, box, last=last)))
        if position >= columns:
            graph.edge(f"p{position - columns}", f"p{position}")
    if more_partitions:
        graph.node(
            "more",
            label=_label(
                f'<TABLE BORDER="1" COLOR="{BORDER}" CELLBORDER="0" CELLPADDING="8" '
                f'STYLE="dashed"><TR><TD><FONT COLOR="{MUTED}">+{more_partitions:,} '
                f"more partition{'s' if more_partitions != 1 else ''}</FONT>"
                "</TD></TR></TABLE>"
            ),
        )
        if partitions:
            graph.edge(f"p{len(partitions) - 1}", "more")
    return graph.source


ROWS_PER_BOX = 15  # items in one partition box before it wraps


def _wrapped(partition: PartitionView) -> list[PartitionView]:
    """The partition as boxes of at most ROWS_PER_BOX items: the first with
    the partition's own heading, the next ones continuing it (`start`)."""
    items = partition.items
    if len(items) <= ROWS_PER_BOX:
        return [partition]
    return [
        dataclasses.replace(
            partition,
            items=items[start : start + ROWS_PER_BOX],
            start=partition.start + start,
        )
        for start in range(0, len(items), ROWS_PER_BOX)
    ]


def _title_for(design_name: str, info: IndexInfo) -> str:
    where = "table" if info.kind == "table" else f"{info.kind} index {text(info.name)}"
    keys = "PK " + text(" | ".join(info.partition_key))
    if info.sort_key:
        keys += ", SK " + text(" | ".join(info.sort_key))
    return (
        '<TABLE BORDER="0" CELLPADDING="1" CELLSPACING="0"><TR><TD ALIGN="LEFT">'
        f'<FONT POINT-SIZE="16"><B>{text(design_name)}</B></FONT></TD></TR>'
        f'<TR><TD ALIGN="LEFT"><FONT COLOR="{MUTED}">'
        f"Item collections of the {where} ({keys}), "
        f"projection {text(info.projection)}</FONT></TD></TR></TABLE>"
    )


def _partition_table(
    info: IndexInfo, partition: PartitionView, *, last: bool = True
) -> str:
    """One partition box, an item a row: its sort key, its entity, then
    each attribute in a column of its own, its name above its value;
    `last`: the partition's last box (a wrapped partition's others say
    nothing of the items left out)."""
    shown = max(
        (
            min(len(item.attributes), ATTRIBUTES_SHOWN)
            + (len(item.attributes) > ATTRIBUTES_SHOWN)
            for item in partition.items
        ),
        default=0,
    )
    columns = (2 if info.sort_key else 1) + max(shown, 1)
    count = (
        f"{partition.total:,} item{'s' if partition.total != 1 else ''}"
        if partition.start == 0
        else f"continued, items {partition.start + 1:,}–"
        f"{partition.start + len(partition.items):,}"
    )
    rows = [
        f'<TR><TD COLSPAN="{columns}" BGCOLOR="#1e293b" ALIGN="LEFT" CELLPADDING="5">'
        f'<FONT COLOR="white" FACE="{MONO}"><B>{text(partition.key, 60)}</B></FONT>'
        f'<FONT COLOR="#cbd5e1">  {count}</FONT></TD></TR>'
    ]
    for item in partition.items:
        fill, ink, _ = _colours(item.colour)
        cells = []
        if info.sort_key:
            cells.append(
                f'<TD ALIGN="LEFT" VALIGN="TOP" BGCOLOR="{fill}">'
                f'<FONT FACE="{MONO}" COLOR="{INK}">{wrapped(item.sort_key, 44)}'
                "</FONT></TD>"
            )
        cells.append(
            f'<TD ALIGN="LEFT" VALIGN="TOP" BGCOLOR="{fill}"><FONT COLOR="{ink}"><B>'
            f"{text(item.entity or 'unrecognised', 24)}</B></FONT></TD>"
        )
        for name, value in item.attributes[:ATTRIBUTES_SHOWN]:
            cells.append(
                f'<TD ALIGN="LEFT" VALIGN="TOP" BALIGN="LEFT" BGCOLOR="#f8fafc">'
                f'<FONT COLOR="{MUTED}" POINT-SIZE="9">{text(name, VALUE_WIDTH)}'
                f'</FONT>{LEFT_BREAK}<FONT FACE="{MONO}" COLOR="{INK}" '
                f'POINT-SIZE="10">{wrapped(value)}</FONT></TD>'
            )
        extra = len(item.attributes) - ATTRIBUTES_SHOWN
        if extra > 0:
            cells.append(
                f'<TD ALIGN="LEFT" VALIGN="TOP"><FONT COLOR="{MUTED}" '
                f'POINT-SIZE="9">+{extra} more</FONT></TD>'
            )
        rows.append(f"<TR>{''.join(cells)}</TR>")
    more = partition.more if last else 0
    if more > 0:
        rows.append(
            f'<TR><TD COLSPAN="{columns}" ALIGN="LEFT"><FONT COLOR="{MUTED}">'
            f"+{more:,} more item{'s' if more != 1 else ''}</FONT></TD></TR>"
        )
    return (
        f'<TABLE BORDER="1" COLOR="{BORDER}" CELLBORDER="0" CELLSPACING="1" '
        f'CELLPADDING="3">{"".join(rows)}</TABLE>'
    )


def overview_dot(design: d.Design) -> str:
    """The design at a glance: entities with their key templates in the
    table and each index they are in, the indexes, and the access patterns
    that read (or write) them."""
    graph = graphviz.Digraph("overview")
    graph.attr(
        rankdir="LR",
        nodesep="0.25",
        ranksep="1.1",
        fontname=FONT,
        bgcolor="white",
        labelloc="t",
        labeljust="l",
        label=_label(f'<FONT POINT-SIZE="18"><B>{text(design.name)}</B></FONT>'),
    )
    graph.attr("node", shape="plaintext", fontname=FONT, fontsize="11", margin="0")
    graph.attr("edge", color="#64748b", arrowsize="0.7", fontname=FONT, fontsize="10")
    groups = index_columns(design)
    index_ids = {group.name: f"i{n}" for n, (group, _) in enumerate(groups)}
    with graph.subgraph(name="entities") as entities:
        entities.attr(rank="same")
        for n, entity in enumerate(design.entities):
            entities.node(f"e{n}", label=_label(_entity_table(entity, n, groups)))
    with graph.subgraph(name="indexes") as indexes:
        indexes.attr(rank="same")
        for group, columns in groups:
            name = group.name
            keys = "<BR/>".join(
                f"{'PK' if c.role == 'partition' else 'SK'} "
                f"{text(c.attribute)} ({c.type})"
                for c in columns
            )
            kind = "base table" if group.kind == "table" else f"{group.kind} index"
            projection = (
                f'<TR><TD ALIGN="LEFT"><FONT COLOR="{MUTED}" POINT-SIZE="10">projects '
                f"{text(group.projection, 60)}</FONT></TD></TR>"
                if group.projection
                else ""
            )
            indexes.node(
                index_ids[group.name],
                label=_label(
                    f'<TABLE BORDER="1" COLOR="#334155" CELLBORDER="0" CELLPADDING="4" '
                    f'BGCOLOR="#f8fafc"><TR><TD ALIGN="LEFT"><B>'
                    f"{text(design.table.name if group.kind == 'table' else name)}"
                    f'</B> <FONT COLOR="{MUTED}">{kind}</FONT></TD></TR>'
                    f'<TR><TD ALIGN="LEFT"><FONT FACE="{MONO}">{keys}</FONT></TD></TR>'
                    f"{projection}</TABLE>"
                ),
            )
    for n, entity in enumerate(design.entities):
        for group, columns in groups:
            if all(c.attribute in entity.keys for c in columns):
                graph.edge(f"e{n}:{index_ids[group.name]}", index_ids[group.name])
    with graph.subgraph(name="patterns") as patterns:
        patterns.attr(rank="same")
        for n, pattern in enumerate(design.access_patterns):
            scan = pattern.operation == "Scan"
            fill = "#fef2f2" if scan else "#eff6ff" if pattern.is_read else "#f0fdf4"
            patterns.node(
                f"a{n}",
                label=_label(
                    f'<TABLE BORDER="1" COLOR="{"#b91c1c" if scan else BORDER}" '
                    f'CELLBORDER="0" CELLPADDING="4" BGCOLOR="{fill}">'
                    f'<TR><TD ALIGN="LEFT">'
                    f"{text(pattern.name, 60)}</TD></TR>"
                    f'<TR><TD ALIGN="LEFT"><FONT COLOR="{MUTED}" POINT-SIZE="10">'
                    f"{text(pattern.operation_label)}"
                    f"{': reads every item' if scan else ''}"
                    f"</FONT></TD></TR></TABLE>"
                ),
            )
    for n, pattern in enumerate(design.access_patterns):
        if not pattern.keyed:
            continue  # no table or index serves it yet
        if pattern.is_read:
            target = index_ids.get(pattern.index)
            if target is not None:
                graph.edge(
                    target,
                    f"a{n}",
                    color="#b91c1c" if pattern.operation == "Scan" else "#2563eb",
                )
        else:
            graph.edge(
                index_ids["table"], f"a{n}", dir="back", style="dashed", color="#15803d"
            )
    return graph.source


def _entity_table(entity: d.Entity, colour: int, groups: list) -> str:
    fill, ink, line = _colours(colour)
    rows = [
        f'<TR><TD ALIGN="LEFT" BGCOLOR="{line}" COLSPAN="2"><FONT COLOR="{ink}" '
        f'POINT-SIZE="13"><B>{text(entity.name)}</B></FONT></TD></TR>'
    ]
    for n, (group, columns) in enumerate(groups):
        if not all(c.attribute in entity.keys for c in columns):
            continue
        keys = []
        for column in columns:
            key = entity.keys[column.attribute]
            value = text(key.template, 40)
            if key.when:
                value += f' <FONT COLOR="{MUTED}">when {text(key.when, 40)}</FONT>'
            keys.append(value)
        rows.append(
            f'<TR><TD ALIGN="LEFT" VALIGN="TOP" BGCOLOR="{fill}"><FONT COLOR="{MUTED}">'
            f"{text(group.name)}</FONT></TD>"
            f'<TD ALIGN="LEFT" BALIGN="LEFT" BGCOLOR="{fill}" PORT="i{n}">'
            f'<FONT FACE="{MONO}">'
            f"{LEFT_BREAK.join(keys)}</FONT></TD></TR>"
        )
    return (
        f'<TABLE BORDER="1" COLOR="{line}" CELLBORDER="0" CELLSPACING="0" '
        f'CELLPADDING="4">{"".join(rows)}</TABLE>'
    )
