"""What every import of tables shares: the result (a design per table, the
problems, and what was inferred or not carried over), and the table of a
design read from DynamoDB's own description of a table.

CloudFormation's `AWS::DynamoDB::Table` properties, Terraform's
`aws_dynamodb_table` (once its blocks are named as CloudFormation names
them) and DescribeTable all describe a table in the terms of CreateTable:
KeySchema, AttributeDefinitions, GlobalSecondaryIndexes... `TableReader`
turns such a description into the `table` section of a design document,
and `read_table_design` reads the document with `read_design`, so an
imported design passes exactly the checks a hand-written one does."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import yaml

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import FORMAT, ReadResult, read_design
from modeler.engine.types import item_from_wire
from modeler.importers.budget import (
    ImportLimitError,
    check_cpu,
    check_nesting,
    nesting_message,
)
from modeler.importers.workbench_infer import EntityBuilder, merge_colliding, plain_json
from modeler.sampledata.recognise import EntityRecogniser

TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,255}$")


# The base is chosen at import time (libyaml's when PyYAML has it), which a
# checker cannot follow.
class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]  # dynamic base
    """libyaml's dumper when PyYAML has it (an import of 1,000 items writes
    its document in a tenth of the pure-Python dumper's time), writing an
    object met twice (one key value shared by several items) in full: the
    design reader refuses aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _yaml(doc: dict[str, Any]) -> str:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


@dataclass(frozen=True)
class ImportedTable:
    """One table of the file: its design (None when it cannot be made),
    the problems read_design found, and the notes: what was inferred and
    what was not carried over."""

    table_name: str
    design: d.Design | None
    problems: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TablesImport:
    """A file of one or more tables: a NoSQL Workbench model, a
    CloudFormation template, a Terraform configuration."""

    model_name: str = ""
    version: str = ""
    tables: tuple[ImportedTable, ...] = ()
    problems: tuple[Finding, ...] = ()  # about the file as a whole

    @property
    def ok(self) -> bool:
        return (
            not any(p.is_error for p in self.problems)
            and bool(self.tables)
            and all(t.design is not None for t in self.tables)
        )

    @property
    def designs(self) -> list[d.Design]:
        return [t.design for t in self.tables if t.design is not None]

    @property
    def all_problems(self) -> list[Finding]:
        out = list(self.problems)
        for table in self.tables:
            prefix = f"{table.table_name}: " if len(self.tables) > 1 else ""
            out += [
                replace(p, message=prefix + p.message).at_line(None)
                for p in table.problems
            ]
        return out


@dataclass(frozen=True)
class TableChoice:
    """Which tables of a file to read: `table` names one (its name, or its
    resource's name in the file; "" for all) and `max_tables` caps how many
    an import of all of them reads (0: no cap); with `one`, a file of
    several is refused unless it names one (a command that reads one
    design)."""

    table: str = ""
    max_tables: int = 0
    # How the caller names one table: a command's FILE#TABLE, a form's field.
    naming: str = "name one as FILE#TABLE"
    one: bool = False

    def chosen(
        self, found: list[tuple[tuple[str, ...], Any]], what: str
    ) -> list[Any] | TablesImport:
        """Of the file's tables, each given as (its names, what to read it
        from), those to read, or the failed import that says why none is:
        the named table is not there, or there are more than the cap. The
        tables are counted before any is read: reading four thousand takes
        seconds."""
        names = [names[0] for names, _ in found]
        listed = ", ".join(names[:20]) + (
            f" and {len(names) - 20:,} more" if len(names) > 20 else ""
        )
        if self.table:
            picked = [table for names, table in found if self.table in names]
            if picked:
                return picked[:1]
            return failed(
                f"the {what} has no table '{self.table}'; its tables: {listed}"
            )
        if self.one and len(found) > 1:
            return failed(
                f"the {what} has {len(found):,} tables ({listed}); {self.naming} "
                "(import_design imports them all)"
            )
        if self.max_tables and len(found) > self.max_tables:
            return failed(
                f"the {what} has {len(found):,} tables and an import makes at most "
                f"{self.max_tables:,} projects (the setting IMPORT_MAX_TABLES): "
                f"{self.naming} to import it alone, or raise IMPORT_MAX_TABLES"
            )
        return [table for _, table in found]


ALL_TABLES = TableChoice()


def failed(message: str, line: int | None = None) -> TablesImport:
    return TablesImport(
        problems=(error("source-unreadable", "file", message, line=line),)
    )


def load_json(text: str) -> Any:
    """A file's JSON (numbers with a fraction as Decimal), or the failed
    import that says where it is broken."""
    try:
        data = json.loads(text, parse_float=Decimal)
        # Before any code that recurses walks it.
        check_nesting(data)
    except json.JSONDecodeError as exc:
        return failed(
            f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            exc.lineno,
        )
    except RecursionError:
        return failed(nesting_message())
    except ImportLimitError as exc:
        return failed(str(exc))
    return data


def kind_of(value: Any) -> str:
    """What a value is, for messages: 'an object', "the text 'x'"."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if value is None:
        return "null"
    return f"the value {value!r}"


def valid_table_name(name: str, notes: list[str]) -> str:
    """The name, or a name DynamoDB takes made from it (with a note)."""
    if TABLE_NAME.match(name):
        return name
    fixed = re.sub(r"[^A-Za-z0-9_.-]", "-", name)[:255].ljust(3, "_")
    notes.append(f"the table name '{name}' is not valid in DynamoDB; renamed '{fixed}'")
    return fixed


def read_table_design(
    table_name: str,
    doc: dict[str, Any],
    problems: list[Finding],
    notes: list[str],
) -> ImportedTable:
    """The design document read as a design; nothing when the reading
    before it found errors."""
    if any(p.is_error for p in problems):
        return ImportedTable(table_name, None, tuple(problems), tuple(notes))
    text = _yaml(plain_json(doc))
    result = read_design(text, max_bytes=50_000_000)
    return ImportedTable(
        table_name, result.design, tuple(problems + list(result.problems)), tuple(notes)
    )


def read_inferred_design(
    doc: dict[str, Any], notes: list[str], *, entities: EntityBuilder
) -> ReadResult:
    """A design document with entities inferred from items (by `entities`),
    read: entities whose keys collide are merged (their items could not be
    told apart) and it is read again; items that match no entity are
    counted in a note.

    The readings that look for collisions leave the items out: they make no
    collision and are most of a large model's reading (6,000 items with 300
    colliding entities were read 300 times, for minutes). The last reading
    has them."""
    bare = {**doc, "sample_data": {**doc.get("sample_data", {}), "items": []}}
    for _ in range(len(doc["entities"]) + 1):
        check_cpu()
        found = read_design(_yaml(bare), max_bytes=50_000_000)
        # `bare` shares its entities with `doc`: merges are made in both.
        if not merge_colliding(bare, found.problems, notes, entities):
            break
    check_cpu()
    result = read_design(_yaml(doc), max_bytes=50_000_000)
    if result.design is not None:
        recogniser = EntityRecogniser(result.design)
        unknown = 0
        for item in result.design.sample_data.items:
            check_cpu()
            if recogniser.entity_of(item_from_wire(d.thaw(item))) is None:
                unknown += 1
        if unknown:
            notes.append(
                f"{unknown} of {len(result.design.sample_data.items)} sample "
                "items match no entity's key templates; they are kept as items "
                "of the table"
            )
    return result


def design_document(
    name: str, table: dict[str, Any], *, description: str = ""
) -> dict[str, Any]:
    """A design document of a table alone: infrastructure files describe
    the table, not the items in it."""
    doc: dict[str, Any] = {"format": FORMAT, "name": name[:200]}
    if description:
        doc["description"] = description
    doc["table"] = table
    return doc
