"""A design document an importer built (OneTable, ElectroDB,
DynamoDB-Toolbox), read as a design file is, so an imported design passes
exactly the checks a hand-written one does. Imports no Django."""

from __future__ import annotations

from typing import Any

import yaml

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import read_design


def read_built_document(
    document: dict[str, Any],
) -> tuple[d.Design | None, tuple[Finding, ...]]:
    """The design and the problems of reading it; None when any is an error.
    An error names its place in the imported design rather than a line: the
    user's file has no line of the document built from it."""
    result = read_design(
        yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    )
    problems = tuple(
        error(p.code, f"the imported design: {p.path}", p.message, line=None)
        if p.is_error
        else p
        for p in result.problems
    )
    if result.design is None or any(p.is_error for p in problems):
        return None, problems
    return result.design, problems
