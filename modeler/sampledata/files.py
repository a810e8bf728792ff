"""Sample items in files: DynamoDB JSON lines out, and in from DynamoDB JSON
lines, CSV or a NoSQL Workbench model's table data.

Reading checks every item before returning any (each has the table's
primary key with the right types and fits in 400 KB) and reports every
problem with the file name and line, so an import is all or nothing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from modeler.design import model as d
from modeler.engine.errors import ValidationException
from modeler.engine.size import MAX_ITEM_SIZE, item_size
from modeler.engine.types import (
    Item,
    from_wire,
    item_from_wire,
    item_json_line,
    type_of,
)
from modeler.importers.budget import (
    ImportLimitError,
    check_cpu,
    check_nesting,
    import_budget,
    nesting_message,
)

MAX_ITEMS_READ = 100_000


@dataclass(frozen=True)
class FileProblem:
    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


class ItemsFileError(ValueError):
    """A file of items that cannot be imported; `problems` lists each one."""

    def __init__(self, problems: list[FileProblem]) -> None:
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(shown + more)


def write_jsonl(items: Iterable[Item]) -> Iterator[str]:
    """One line of DynamoDB JSON per item (binary values in base64), the form
    `aws dynamodb put-item --item` takes."""
    for item in items:
        yield item_json_line(item)


def write_jsonl_blocks(items: Iterable[Item], *, lines: int = 4096) -> Iterator[str]:
    """`write_jsonl`'s lines, each ending in a newline, joined `lines` at a
    time: a file is written in large blocks, one call per block rather than
    per line, and never holds more than one block of text."""
    written = map(item_json_line, items)
    while block := list(islice(written, lines)):
        block.append("")
        yield "\n".join(block)


def read_items(text: str, *, design: d.Design, source: str) -> list[Item]:
    """The items of a file, whatever its kind: a NoSQL Workbench model (a
    JSON document with `DataModel`), DynamoDB JSON lines, or CSV with a
    header row. Raises ItemsFileError, also when the reading passes the
    CPU seconds of an import (`import_budget`)."""
    stripped = text.lstrip()
    with import_budget():
        if stripped.startswith("{") and '"DataModel"' in stripped[:4096]:
            return read_workbench_table_data(text, design=design, source=source)
        if stripped.startswith("{"):
            return read_jsonl(text, design=design, source=source)
        return read_csv(text, design=design, source=source)


def read_jsonl(text: str, *, design: d.Design, source: str) -> list[Item]:
    """DynamoDB JSON lines: `{"PK": {"S": "A"}, ...}` per line, or the
    `{"Item": {...}}` lines of a DynamoDB export to S3."""
    items: list[tuple[int, Any]] = []
    problems: list[FileProblem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = _json(line)
        except json.JSONDecodeError as exc:
            problems.append(
                FileProblem(
                    source,
                    number,
                    f"not JSON: {exc.msg.removesuffix(' at')} at column {exc.colno}",
                )
            )
            continue
        except ImportLimitError as exc:
            problems.append(FileProblem(source, number, str(exc)))
            continue
        if isinstance(data, dict) and set(data) == {"Item"}:
            data = data["Item"]
        items.append((number, data))
    return _checked(items, problems, design, source)


def read_workbench_table_data(
    text: str, *, design: d.Design, source: str
) -> list[Item]:
    """The `TableData` of the NoSQL Workbench model's table that has this
    design's table name, or of its only table."""
    try:
        model = _json(text, what="the model")
    except json.JSONDecodeError as exc:
        raise ItemsFileError(
            [FileProblem(source, exc.lineno, f"not JSON: {exc.msg}")]
        ) from None
    except ImportLimitError as exc:
        raise ItemsFileError([FileProblem(source, 1, str(exc))]) from None
    tables = model.get("DataModel") if isinstance(model, dict) else None
    if not isinstance(tables, list) or not tables:
        raise ItemsFileError(
            [
                FileProblem(
                    source,
                    1,
                    "a NoSQL Workbench model needs a DataModel list of tables",
                )
            ]
        )
    named = [
        t
        for t in tables
        if isinstance(t, dict) and t.get("TableName") == design.table.name
    ]
    if not named and len(tables) > 1:
        names = ", ".join(
            str(t.get("TableName")) for t in tables if isinstance(t, dict)
        )
        raise ItemsFileError(
            [
                FileProblem(
                    source,
                    1,
                    f"the model has the tables {names}, none named "
                    f"'{design.table.name}': rename one or the design's table",
                )
            ]
        )
    table = (named or tables)[0]
    data = table.get("TableData", []) if isinstance(table, dict) else []
    # JSON gives no line per item; the position in TableData stands for it.
    return _checked(
        list(enumerate(data, start=1)), [], design, source, where="TableData item"
    )


def read_csv(text: str, *, design: d.Design, source: str) -> list[Item]:
    """CSV with a header row of attribute names; each cell's type comes from
    the design (key types, then the entities' attribute types; S when no
    entity declares it), or from the header, written `total (N)`. An empty
    cell leaves the attribute out. L, M and set values are JSON text."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise ItemsFileError([FileProblem(source, 1, "the file is empty")]) from None
    columns = [_column(name, design) for name in header]
    items: list[tuple[int, Any]] = []
    problems: list[FileProblem] = []
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(columns):
            problems.append(
                FileProblem(
                    source,
                    line,
                    f"{len(row)} cells under a header of {len(columns)} columns",
                )
            )
            continue
        item = {}
        for (name, kind), cell in zip(columns, row, strict=False):
            if cell == "":
                continue
            try:
                item[name] = _csv_value(cell, kind)
            except ValueError as exc:
                problems.append(FileProblem(source, line, f"column '{name}': {exc}"))
        items.append((line, item))
    return _checked(items, problems, design, source, wire=False)


def _column(header: str, design: d.Design) -> tuple[str, str]:
    name, _, declared = header.strip().partition(" (")
    if declared.endswith(")") and declared[:-1] in d.ATTRIBUTE_TYPES:
        return name, declared[:-1]
    for key in design.table.all_key_attributes():
        if key.name == name:
            return name, key.type
    for entity in design.entities:
        attribute = entity.attribute(name)
        if attribute is not None:
            return name, attribute.type
    return name, "S"


def _csv_value(cell: str, kind: str) -> Any:
    if kind == "S":
        return cell
    if kind in ("N", "B", "BOOL", "NULL"):
        value: Any = {"BOOL": cell.strip().lower() == "true", "NULL": True}.get(
            kind, cell.strip()
        )
        if kind == "BOOL" and cell.strip().lower() not in ("true", "false"):
            raise ValueError(f"expected true or false, found '{cell}'")
        return _from_wire({kind: value})
    try:
        data = _json(cell, what="the value")
    except json.JSONDecodeError:
        raise ValueError(f"a {kind} value is written as JSON, found '{cell}'") from None
    except ImportLimitError as exc:
        raise ValueError(str(exc)) from None
    if kind in ("SS", "NS", "BS") and isinstance(data, list):
        data = [str(v) for v in data]
    return _from_wire({kind: data} if kind != "M" or not _is_wire_map(data) else data)


def _json(text: str, *, what: str = "the item") -> Any:
    """JSON text nested no deeper than the code that reads items recurses
    safely; ImportLimitError when `what` is deeper."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ImportLimitError(nesting_message(what)) from None
    check_nesting(data, what=what)
    return data


def _is_wire_map(data: Any) -> bool:
    return isinstance(data, dict) and set(data) == {"M"}


def _from_wire(value: Any) -> Any:
    try:
        return from_wire(value)
    except ValidationException as exc:
        raise ValueError(exc.message) from None


def _checked(
    entries: list[tuple[int, Any]],
    problems: list[FileProblem],
    design: d.Design,
    source: str,
    *,
    wire: bool = True,
    where: str = "",
) -> list[Item]:
    if len(entries) > MAX_ITEMS_READ:
        raise ItemsFileError(
            [
                FileProblem(
                    source,
                    entries[MAX_ITEMS_READ][0],
                    f"more than {MAX_ITEMS_READ:,} items",
                )
            ]
        )
    keys = design.table.key_attributes
    items: list[Item] = []
    for line, data in entries:
        label = f"{where} {line}: " if where else ""
        try:
            check_cpu()
        except ImportLimitError as exc:
            raise ItemsFileError([FileProblem(source, line, str(exc))]) from None
        try:
            item = item_from_wire(data) if wire else data
        except ValidationException as exc:
            problems.append(
                FileProblem(
                    source, line, f"{label}not an item in DynamoDB JSON: {exc.message}"
                )
            )
            continue
        for key in keys:
            if key.name not in item:
                problems.append(
                    FileProblem(
                        source, line, f"{label}has no '{key.name}', the table's key"
                    )
                )
            elif type_of(item[key.name]) != key.type:
                problems.append(
                    FileProblem(
                        source,
                        line,
                        f"{label}'{key.name}' is "
                        f"{type_of(item[key.name])}; the table's key is {key.type}",
                    )
                )
        for name in _names_with_nul(item):
            problems.append(
                FileProblem(
                    source,
                    line,
                    f"{label}'{name}' holds a NUL character (\\0), which cannot be "
                    "stored",
                )
            )
        try:
            size = item_size(item)
        except ValidationException as exc:
            problems.append(
                FileProblem(
                    source,
                    line,
                    f"{label}{exc.message}: DynamoDB nests an item's values at "
                    "most 32 levels",
                )
            )
            continue
        if size > MAX_ITEM_SIZE:
            problems.append(
                FileProblem(
                    source,
                    line,
                    f"{label}the item has {size:,} "
                    f"bytes; DynamoDB's limit is {MAX_ITEM_SIZE:,}",
                )
            )
        items.append(item)
    if problems:
        raise ItemsFileError(sorted(problems, key=lambda p: p.line))
    return items


def _names_with_nul(item: Item) -> list[str]:
    """The attributes whose name or text (at any depth) holds a NUL
    character: PostgreSQL cannot store it in JSON. Binary values may."""
    return [name for name, value in item.items() if "\x00" in name or _has_nul(value)]


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any("\x00" in k or _has_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_has_nul(v) for v in value)
    return False
