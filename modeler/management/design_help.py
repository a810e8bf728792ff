"""The DESIGN argument's help and how to tell a file from a project, apart
from `design_source` (which imports every reader and the database) so a
command can use them without paying for those imports at start-up
(serve_dynamodb's cold start)."""

from __future__ import annotations

from pathlib import Path

DESIGN_HELP = (
    "a design file (YAML, a NoSQL Workbench model, a CloudFormation template or "
    "a Terraform file: FILE#TABLE for one of several tables), - for stdin, or a "
    "project's id or exact name"
)


def split_table(path: str) -> tuple[str, str]:
    """`model.json#Orders` names one table of a NoSQL Workbench model (or a
    template, a configuration); `-#Orders` one of the file on stdin."""
    if "#" in path and not Path(path).exists():
        file, _, table = path.rpartition("#")
        if file == "-" or Path(file).is_file():
            return file, table
    return path, ""


def is_file_argument(source: str) -> bool:
    """Whether a DESIGN argument names a file (or stdin) rather than a
    project: '-', an existing path, or a design file's extension."""
    file, _ = split_table(source)
    return (
        source == "-"
        or Path(file).exists()
        or source.endswith((".yaml", ".yml", ".json", ".template", ".tf"))
    )
