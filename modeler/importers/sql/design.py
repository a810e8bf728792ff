"""A schema dump, and optionally a query log, made into a design: the
entities of `entities`, the access patterns of `patterns`, one table keyed
PK and SK with no key templates yet (the key-design proposal writes them),
and what was inferred and skipped, line by line, for the user to read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import yaml

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.importers.budget import import_budget
from modeler.importers.sql.entities import design_entities
from modeler.importers.sql.patterns import patterns_from_log
from modeler.importers.sql.schema import read_schema
from modeler.importers.sql.statements import SqlImportError
from modeler.importers.sql_defaults import DEFAULT_PEAK, DEFAULT_WINDOW


@dataclass(frozen=True)
class SqlDesign:
    """The design, what was inferred (one line each), what was skipped or
    not carried (one line each, with the reason), and the statements of
    the query log that became no pattern (with the reason and what to do
    instead)."""

    design: d.Design
    inferred: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = ()
    yaml_text: str = field(default="", repr=False)


def design_from_sql(
    schema_text: str,
    *,
    schema_file: str,
    queries_text: str = "",
    queries_file: str = "",
    window: float = DEFAULT_WINDOW,
    peak: float = DEFAULT_PEAK,
    name: str = "",
) -> SqlDesign:
    """The design of a schema dump and its query log (`queries_file`
    names it; none without). SqlImportError,
    naming the file, the line and the statement, for input that cannot be
    read; ImportLimitError past the import budget."""
    with import_budget():
        schema = read_schema(schema_text, file=schema_file)
        entities = design_entities(schema)
        patterns: list[dict[str, Any]] = []
        unsupported: list[str] = []
        inferred = list(entities.inferred)
        left_out: list[str] = []
        # A query log named but empty is read, and refused as holding no
        # statement: it is not taken for no log at all.
        if queries_text or queries_file:
            found = patterns_from_log(
                queries_text,
                file=queries_file,
                schema=schema,
                names=entities.names,
                specs=entities.specs,
                window=window,
                peak=peak,
            )
            patterns, unsupported = found.patterns, found.unsupported
            inferred += found.inferred
            left_out = found.not_carried
        title = name or _title(schema_file)
        skipped = schema.notes + entities.notes + schema.skipped_notes + left_out
        data: dict[str, Any] = {
            "format": "single-table-workbench/v1",
            "name": title,
            "description": f"From the {schema.dialect} schema "
            f"{PurePath(schema_file).name}"
            + (
                f" and the query log {PurePath(queries_file).name}"
                if queries_text or queries_file
                else ""
            )
            + "; keys to propose."
            + _listed("Skipped or not carried", skipped)
            + _listed("Statements that became no access pattern", unsupported),
            "table": {
                "name": _table_name(title),
                "partition_key": {"name": "PK", "type": "S"},
                "sort_key": {"name": "SK", "type": "S"},
                "billing": {"mode": "PAY_PER_REQUEST"},
            },
            "entities": entities.specs,
            "access_patterns": patterns,
        }
        text = yaml.dump(
            data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100
        )
        result = read_design(text)
        errors = [p for p in result.problems if p.is_error]
        if result.design is None or errors:
            raise SqlImportError(
                "makes a design with problems: "
                + "; ".join(f"{p.path}: {p.message}" for p in errors[:5]),
                file=schema_file,
            )
        return SqlDesign(
            result.design,
            tuple(inferred),
            tuple(skipped),
            tuple(unsupported),
            text,
        )


class _NoAliases(yaml.SafeDumper):
    """Generators shared between attributes are written out each time: a
    design file takes no YAML aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


# The design's description lists at most this many notes of each kind (the
# command prints them all).
_NOTES_IN_DESCRIPTION = 40


def _listed(heading: str, notes: list[str]) -> str:
    """Notes as the description's paragraph: the project keeps what its
    import left out."""
    if not notes:
        return ""
    shown = notes[:_NOTES_IN_DESCRIPTION]
    more = len(notes) - len(shown)
    return (
        f"\n\n{heading}:\n"
        + "\n".join(f"- {note}" for note in shown)
        + (f"\n- and {more} more" if more else "")
    )


def _title(file: str) -> str:
    stem = PurePath(file).stem or "schema"
    return " ".join(re.findall(r"[A-Za-z0-9]+", stem))[:200] or "schema"


def _table_name(title: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", title.lower()).strip("-")
    return (name + "-table")[:255] if len(name) < 3 else name[:255]
