"""The DESIGN argument of the management commands: a design file, or a
project of the database by id or exact name.

A design file is the workbench's YAML, a NoSQL Workbench model (JSON), a
CloudFormation template or a Terraform configuration. A file with several
tables is one design per table: name the table as `FILE#TABLE` where a
command takes one design."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from modeler.conversion import design_from_project, project_design_queryset
from modeler.design.findings import advice
from modeler.design.model import Design
from modeler.designfile import ReadResult, read_design
from modeler.importers.sources import YAML, DesignFile, read_design_source, source_kind
from modeler.importers.tables import TableChoice
from modeler.management.design_help import DESIGN_HELP


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


def _split_table(path: str) -> tuple[str, str]:
    """`model.json#Orders` names one table of a NoSQL Workbench model (or a
    template, a configuration); `-#Orders` one of the file on stdin."""
    if "#" in path and not Path(path).exists():
        file, _, table = path.rpartition("#")
        if file == "-" or Path(file).is_file():
            return file, table
    return path, ""


def read_design_files(path: str) -> DesignFile:
    """Every design of a file: one for YAML, one per table of a NoSQL
    Workbench model, a template or a configuration (at most
    IMPORT_MAX_TABLES), or only the table FILE#TABLE names."""
    file, table = _split_table(path)
    return read_design_source(
        _read_bytes(file),
        max_bytes=settings.DESIGN_FILE_MAX_BYTES,
        filename=file,
        choice=TableChoice(table, settings.IMPORT_MAX_TABLES),
    )


def read_design_file(path: str) -> ReadResult:
    """The one design of a file. What an import of a model, a template or a
    configuration inferred or could not carry over is reported as advice."""
    file, table = _split_table(path)
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


def design_from_project_argument(project: str, *, or_file: bool = False) -> Design:
    projects = project_design_queryset()
    found = list(
        projects.filter(pk=int(project))
        if project.isdigit()
        else projects.filter(name=project)
    )
    if not found:
        what = "design file or project" if or_file else "project"
        raise CommandError(f"no {what} with id or name '{project}'")
    if len(found) > 1:
        ids = ", ".join(str(p.pk) for p in found)
        raise CommandError(
            f"{len(found)} projects are called '{project}' (ids {ids}); give the id"
        )
    return design_from_project(found[0])


def add_design_arguments(parser: ArgumentParser, *, seed: bool = False) -> None:
    """The DESIGN argument every command that reads a design takes, and with
    `seed` the sample data's --seed."""
    parser.add_argument("design", metavar="DESIGN", help=DESIGN_HELP)
    if seed:
        parser.add_argument(
            "--seed",
            type=int,
            default=None,
            help="sample data seed (default: the design's)",
        )


def add_endpoint_arguments(parser: ArgumentParser) -> None:
    """--endpoint-url and --region of the commands that talk to DynamoDB
    (credentials come from boto3's standard chain)."""
    parser.add_argument(
        "--endpoint-url",
        default=settings.DYNAMODB_ENDPOINT_URL,
        help="e.g. http://localhost:8000 for DynamoDB Local; default: AWS",
    )
    parser.add_argument("--region", default=settings.AWS_REGION)


def is_file_argument(source: str) -> bool:
    """Whether a DESIGN argument names a file (or stdin) rather than a
    project: '-', an existing path, or a design file's extension."""
    file, _ = _split_table(source)
    return (
        source == "-"
        or Path(file).exists()
        or source.endswith((".yaml", ".yml", ".json", ".template", ".tf"))
    )


def load_design(source: str) -> Design:
    """A design from a file path (or '-') or else a project id or name;
    a file with errors stops the command with every problem listed."""
    if is_file_argument(source):
        result = read_design_file(source)
        if result.design is None:
            problems = "\n".join(
                f"{source}{':' + str(p.line) if p.line else ''}: {p.severity}: "
                f"{p.path}: {p.message}"
                for p in result.problems
            )
            raise CommandError(
                f"{problems}\n{source}: fix the errors above", returncode=1
            )
        return result.design
    return design_from_project_argument(source, or_file=True)
