"""A design file of either kind: the workbench's YAML format or a NoSQL
Workbench model (JSON). The commands and the browser import read files
through here, so both kinds are accepted wherever a design file is."""

from __future__ import annotations

from dataclasses import dataclass

from modeler import design as d
from modeler.designfile import DEFAULT_MAX_BYTES, read_design
from modeler.exporters.workbench_import import looks_like_workbench, read_workbench
from modeler.problems import Problem

YAML = "yaml"
NOSQL_WORKBENCH = "nosql-workbench"


@dataclass(frozen=True)
class DesignFile:
    """What a file holds: one design (YAML) or one per table (a NoSQL
    Workbench model), every problem, and what could not be carried over."""

    kind: str
    designs: tuple[d.Design, ...] = ()
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return bool(self.designs) and not any(p.is_error for p in self.problems)

    @property
    def kind_label(self) -> str:
        return (
            "NoSQL Workbench model" if self.kind == NOSQL_WORKBENCH else "design YAML"
        )


def read_design_source(
    source: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, filename: str = ""
) -> DesignFile:
    """Read either kind of file; never raises on bad input. A NoSQL
    Workbench model with any table that cannot be imported gives no design
    at all: an import is all or nothing."""
    if looks_like_workbench(source, filename=filename):
        result = read_workbench(source, max_bytes=max_bytes)
        several = len(result.tables) > 1
        notes = tuple(
            f"{table.table_name}: {note}" if several else note
            for table in result.tables
            for note in table.notes
        )
        return DesignFile(
            NOSQL_WORKBENCH,
            tuple(result.designs) if result.ok else (),
            tuple(result.all_problems),
            notes,
            tuple(t.table_name for t in result.tables),
        )
    result = read_design(source, max_bytes=max_bytes)
    return DesignFile(
        YAML,
        (result.design,) if result.design is not None else (),
        result.problems,
    )
