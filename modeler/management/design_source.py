"""The DESIGN argument of the management commands: a design file, or a
project of the database by id or exact name."""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from modeler.conversion import design_from_project, project_design_queryset
from modeler.design import Design
from modeler.designfile import ReadResult, read_design


def read_design_file(path: str) -> ReadResult:
    """Read a design file from disk (or stdin for '-'), refusing an oversize
    file before reading it whole."""
    limit = settings.DESIGN_FILE_MAX_BYTES
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        file = Path(path)
        if not file.is_file():
            raise CommandError(f"{path}: no such file")
        with file.open("rb") as handle:
            data = handle.read(limit + 1)
    return read_design(data, max_bytes=limit)


def design_from_project_argument(project: str, *, or_file: bool = False) -> Design:
    projects = project_design_queryset()
    found = list(
        projects.filter(pk=int(project)) if project.isdigit()
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


def load_design(source: str) -> Design:
    """A design from a file path (or '-') or else a project id or name;
    a file with errors stops the command with every problem listed."""
    if source == "-" or Path(source).exists() or source.endswith((".yaml", ".yml")):
        result = read_design_file(source)
        if result.design is None:
            problems = "\n".join(
                f"{source}{':' + str(p.line) if p.line else ''}: {p.severity}: "
                f"{p.path}: {p.message}"
                for p in result.problems
            )
            raise CommandError(f"{problems}\n{source}: fix the errors above",
                               returncode=1)
        return result.design
    return design_from_project_argument(source, or_file=True)
