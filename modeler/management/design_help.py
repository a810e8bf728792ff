"""The DESIGN argument's help, apart from `design_source` (which imports
every reader) so a command can name it without paying for those imports
at start-up (serve_dynamodb's cold start)."""

from __future__ import annotations

DESIGN_HELP = (
    "a design file (YAML, a NoSQL Workbench model, a CloudFormation template or "
    "a Terraform file: FILE#TABLE for one of several tables), - for stdin, or a "
    "project's id or exact name"
)
