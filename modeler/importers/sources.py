"""A design file of any kind: the workbench's YAML format, a NoSQL
Workbench model (JSON), a OneTable schema (JSON), an ElectroDB or
DynamoDB-Toolbox module (JavaScript), a CloudFormation template (YAML or
JSON), a Terraform configuration or a SQL schema dump. The
commands and the browser import read files through here, so every kind
is accepted wherever a design file is."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import DEFAULT_MAX_BYTES, read_design
from modeler.importers.budget import ImportLimitError
from modeler.importers.jsmodel import ELECTRODB, TOOLBOX, js_library, read_js_module
from modeler.importers.sql_defaults import DEFAULT_PEAK, DEFAULT_WINDOW
from modeler.importers.tables import ALL_TABLES, TableChoice, TablesImport

# The readers of the other kinds are imported where a file of their kind
# is read (or told apart from the others): a design YAML, told by its
# first lines, needs none of them, and importing them all (the SQL one
# with sqlglot) was a tenth of a second of every command that reads one.

YAML = "yaml"
NOSQL_WORKBENCH = "nosql-workbench"
CLOUDFORMATION = "cloudformation"
TERRAFORM = "terraform"
SQL_SCHEMA = "sql-schema"
ONETABLE = "onetable"
MCP_MODEL = "mcp-data-model"
KIND_LABELS = {
    ELECTRODB: "ElectroDB module",
    TOOLBOX: "DynamoDB-Toolbox module",
    MCP_MODEL: "DynamoDB MCP server data model",
    ONETABLE: "OneTable schema",
    SQL_SCHEMA: "SQL schema",
    YAML: "design YAML",
    NOSQL_WORKBENCH: "NoSQL Workbench model",
    CLOUDFORMATION: "CloudFormation template",
    TERRAFORM: "Terraform configuration",
}


@dataclass(frozen=True)
class DesignFile:
    """What a file holds: one design (YAML) or one per table (a NoSQL
    Workbench model), every problem, and what could not be carried over."""

    kind: str
    designs: tuple[d.Design, ...] = ()
    problems: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return bool(self.designs) and not any(p.is_error for p in self.problems)

    @property
    def kind_label(self) -> str:
        return KIND_LABELS[self.kind]


def source_kind(source: str | bytes, *, filename: str = "") -> str:
    """Which kind of file this is, by what it holds and then by its name;
    a design YAML unless it looks like one of the others."""
    if filename.lower().endswith(".tf"):
        return TERRAFORM
    if _DESIGN_FORMAT.search(_head(source)):
        return YAML
    from modeler.importers.cloudformation import looks_like_cloudformation
    from modeler.importers.mcp_model import looks_like_mcp_model
    from modeler.importers.onetable import looks_like_onetable
    from modeler.importers.terraform import looks_like_terraform
    from modeler.importers.workbench import looks_like_workbench

    library = js_library(source, filename=filename)
    if library:  # by content: imports electrodb or dynamodb-toolbox
        return library
    if filename.lower().endswith(".sql") or _SQL_SCHEMA.search(_head(source)):
        return SQL_SCHEMA
    if looks_like_onetable(source):  # by content: models and indexes
        return ONETABLE
    if looks_like_mcp_model(source):  # by content: tables and access_patterns
        return MCP_MODEL
    if looks_like_workbench(source):  # by content: DataModel or ModelName
        return NOSQL_WORKBENCH
    if looks_like_cloudformation(source):
        return CLOUDFORMATION
    if looks_like_workbench(source, filename=filename):  # any .json file
        return NOSQL_WORKBENCH
    if looks_like_terraform(source, filename=filename):
        return TERRAFORM
    return YAML


_DESIGN_FORMAT = re.compile(r"^format:\s*[\"']?single-table-workbench/", re.MULTILINE)
# What a schema dump starts with: its header comment, or a statement.
_SQL_SCHEMA = re.compile(
    r"\A\s*(?:-- (?:PostgreSQL database dump|MySQL dump|MariaDB dump)"
    r"|(?:--[^\n]*\n\s*)*(?:CREATE|SET|ALTER)\s+\w)",
    re.IGNORECASE,
)


def _head(source: str | bytes) -> str:
    head = source[:4096]
    return head.decode("utf-8", "replace") if isinstance(head, bytes) else head


def _table_reader(kind: str) -> Callable[..., TablesImport] | None:
    """The reader of a file of tables of this kind, or None."""
    if kind == NOSQL_WORKBENCH:
        from modeler.importers.workbench import read_workbench

        return read_workbench
    if kind == CLOUDFORMATION:
        from modeler.importers.cloudformation import read_cloudformation

        return read_cloudformation
    if kind == TERRAFORM:
        from modeler.importers.terraform import read_terraform

        return read_terraform
    return None


def read_design_source(
    source: str | bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    filename: str = "",
    choice: TableChoice = ALL_TABLES,
    queries: str | bytes = "",
    queries_filename: str = "",
    window: float = DEFAULT_WINDOW,
    peak: float = DEFAULT_PEAK,
) -> DesignFile:
    """Read any kind of file (of a file of tables, those `choice` picks;
    of a SQL schema, with its query log `queries`); never raises on bad
    input. A file of tables with any table that cannot be imported gives
    no design at all: an import is all or nothing."""
    kind = source_kind(source, filename=filename)
    if kind == SQL_SCHEMA:
        return _sql_file(
            source, filename, queries, queries_filename, window=window, peak=peak
        )
    if queries:
        return DesignFile(
            kind,
            problems=(
                error(
                    "queries-without-schema",
                    queries_filename or "queries",
                    "a query log is read with a SQL schema (pg_dump --schema-only "
                    f"or mysqldump --no-data), not with a {KIND_LABELS[kind]}",
                ),
            ),
        )
    if kind in (ONETABLE, ELECTRODB, TOOLBOX):
        from modeler.importers.onetable import read_onetable

        # Model-as-code: one design, with notes of what it could not carry.
        reader = read_onetable if kind == ONETABLE else read_js_module
        found = reader(source, filename=filename, max_bytes=max_bytes)
        return DesignFile(
            kind,
            (found.design,) if found.design is not None else (),
            found.problems,
            found.notes,
        )
    if kind == MCP_MODEL:
        from modeler.importers.mcp_model import read_mcp_model

        return _tables_file(
            kind,
            read_mcp_model(
                source, filename=filename, max_bytes=max_bytes, choice=choice
            ),
        )
    table_reader = _table_reader(kind)
    if table_reader is not None:
        return _tables_file(
            kind, table_reader(source, max_bytes=max_bytes, choice=choice)
        )
    result = read_design(source, max_bytes=max_bytes)
    return DesignFile(
        YAML,
        (result.design,) if result.design is not None else (),
        result.problems,
    )


def _sql_file(
    source: str | bytes,
    filename: str,
    queries: str | bytes,
    queries_filename: str,
    *,
    window: float,
    peak: float,
) -> DesignFile:
    from modeler.importers.sql import SqlImportError, design_from_sql

    schema_file = filename or "the schema"
    queries_file = (queries_filename or "the query log") if queries else ""
    try:
        found = design_from_sql(
            _text(source, schema_file),
            schema_file=schema_file,
            queries_text=_text(queries, queries_file),
            queries_file=queries_file,
            window=window,
            peak=peak,
        )
    except SqlImportError as exc:
        message = (
            (f"row {exc.row}: " if exc.row else "")
            + exc.message
            + (f" (statement: {exc.statement})" if exc.statement else "")
        )
        problem = error("sql-unreadable", exc.file, message, line=exc.line)
        return DesignFile(SQL_SCHEMA, problems=(problem,))
    except ImportLimitError as exc:
        return DesignFile(
            SQL_SCHEMA, problems=(error("import-limit", schema_file, str(exc)),)
        )
    return DesignFile(
        SQL_SCHEMA, (found.design,), notes=found.skipped + found.unsupported
    )


def _text(source: str | bytes, file: str) -> str:
    from modeler.importers.sql import SqlImportError

    if isinstance(source, str):
        return source
    try:
        return source.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SqlImportError(
            f"is not UTF-8 text (byte {exc.start:,})", file=file
        ) from None


def _tables_file(kind: str, result: TablesImport) -> DesignFile:
    several = len(result.tables) > 1
    notes = tuple(
        f"{table.table_name}: {note}" if several else note
        for table in result.tables
        for note in table.notes
    )
    return DesignFile(
        kind,
        tuple(result.designs) if result.ok else (),
        tuple(result.all_problems),
        notes,
        tuple(t.table_name for t in result.tables),
    )
