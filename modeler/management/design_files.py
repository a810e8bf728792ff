"""A design FILE argument read: the workbench's YAML, a NoSQL Workbench
model (JSON), a CloudFormation template or a Terraform configuration. A
file with several tables is one design per table: name the table as
`FILE#TABLE` where a command takes one design.

Only the settings are needed here, not the app registry, so
`manage.py serve_dynamodb FILE` reads its designs without django.setup()."""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from modeler.design.findings import advice
from modeler.design.model import Design
from modeler.designfile import ReadResult, read_design
from modeler.importers.sources import YAML, DesignFile, read_design_source, source_kind
from modeler.importers.tables import TableChoice
from modeler.management.design_help import split_table


def _read_bytes(path: str) -> bytes:
    """A file from disk (or stdin for '-'), refusing an oversize file before
    reading it whole."""
    limit = settings.DESIGN_FILE_MAX_BYTES
    if path == "-":
        return sys.stdin.buffer.read(limit + 1)
    file = Path(path)
    if not file.is_file():
        raise CommandError(f"{path}: no such file")
    with file.open("rb") as handle:
        return handle.read(limit + 1)


def read_design_files(path: str) -> DesignFile:
    """Every design of a file: one for YAML, one per table of a NoSQL
    Workbench model, a template or a configuration (at most
    IMPORT_MAX_TABLES), or only the table FILE#TABLE names."""
    file, table = split_table(path)
    return read_design_source(
        _read_bytes(file),
        max_bytes=settings.DESIGN_FILE_MAX_BYTES,
        filename=file,
        choice=TableChoice(table, settings.IMPORT_MAX_TABLES),
    )


def read_design_file(path: str) -> ReadResult:
    """The one design of a file. What an import of a model, a template or a
    configuration inferred or could not carry over is reported as advice."""
    file, table = split_table(path)
    data = _read_bytes(file)
    limit = settings.DESIGN_FILE_MAX_BYTES
    if source_kind(data, filename=file) == YAML:
        return read_design(data, max_bytes=limit)
    found = read_design_source(
        data,
        max_bytes=limit,
        filename=file,
        choice=TableChoice(table, naming=f"name one as {file}#TABLE", one=True),
    )
    problems = list(found.problems) + [
        advice("import-note", found.kind, note) for note in found.notes
    ]
    if not found.ok:
        return ReadResult(None, tuple(problems))
    return ReadResult(found.designs[0], tuple(problems))


def design_from_file(source: str) -> Design:
    """The design of a file; a file with errors stops the command with
    every problem listed."""
    result = read_design_file(source)
    if result.design is None:
        problems = "\n".join(
            f"{source}{':' + str(p.line) if p.line else ''}: {p.severity}: "
            f"{p.path}: {p.message}"
            for p in result.problems
        )
        raise CommandError(f"{problems}\n{source}: fix the errors above", returncode=1)
    return result.design
