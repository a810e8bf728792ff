"""Import of CloudFormation templates (YAML or JSON): every
`AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable` and SAM's
`AWS::Serverless::SimpleTable` becomes a design.

Intrinsic functions are resolved where the template alone decides them:
`Ref` to a parameter with a default, `Fn::Sub`, `Fn::Join`, `Fn::Select`,
`Fn::FindInMap`, `Fn::If` on conditions made of those, and `AWS::NoValue`.
A value that depends on the stack (a parameter without a default,
`AWS::StackName`, another resource) cannot be known: a table name falls
back to the resource's logical id, a tag is left out, and any other
property is an error that says which parameter needs a default. The YAML
short forms (`!Ref`, `!Sub`, `!GetAtt A.B`...) are read as the long forms
by a safe loader; aliases are refused as in design files.

A template describes a table, not the items in it: the design has the
table's keys, indexes and settings and no entities yet. Auto scaling
resources that point at a table are reported, since a design keeps
provisioned capacity, not scaling policies."""

from __future__ import annotations

import contextlib
import re
from typing import Any

from modeler.importers.budget import Budget, ImportLimitError, import_budget
from modeler.importers.cloudformation_intrinsics import (
    Resolver,
    Unresolved,
    load_template,
)
from modeler.importers.cloudformation_tables import (
    TABLE_TYPES,
    read_table,
    table_scalings,
)
from modeler.importers.tables import (
    ALL_TABLES,
    ImportedTable,
    TableChoice,
    TablesImport,
    failed,
    kind_of,
    valid_table_name,
)
from modeler.infra.textfiles import TextFileError, file_text

FOR_EACH = "Fn::ForEach::"


def looks_like_cloudformation(source: str | bytes) -> bool:
    """A template states its format version, or has Resources and names a
    DynamoDB table type, near its start (a design YAML does neither)."""
    head = source[:65536]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    return "AWSTemplateFormatVersion" in head or (
        "Resources" in head
        and bool(
            re.search(
                r"AWS::(DynamoDB::(Global)?Table|Serverless::SimpleTable)\b", head
            )
        )
    )


def read_cloudformation(
    source: str | bytes, *, max_bytes: int, choice: TableChoice = ALL_TABLES
) -> TablesImport:
    """Read a template (the tables `choice` picks); never raises on bad
    input. Within the budget of the import (`import_budget`): past one of
    its limits, the import is refused with a message that names the
    setting."""
    try:
        text = file_text(source, max_bytes=max_bytes, kind="templates")
    except TextFileError as exc:
        return failed(str(exc))
    with import_budget() as budget:
        try:
            return _read_template(text, budget, choice)
        except ImportLimitError as exc:
            return failed(str(exc))


def _read_template(text: str, budget: Budget, choice: TableChoice) -> TablesImport:
    template = load_template(text)
    budget.check_cpu()
    if isinstance(template, TablesImport):
        return template
    if not isinstance(template, dict):
        return failed(
            "expected a CloudFormation template (an object with Resources), found "
            + kind_of(template)
        )
    resources = template.get("Resources")
    if not isinstance(resources, dict) or not resources:
        return failed("Resources is missing: a template lists its resources there")
    resolver = Resolver(template, budget)
    name = template.get("Description")
    name = name.strip()[:200] if isinstance(name, str) and name.strip() else ""
    tables = [
        (logical, resource)
        for logical, resource in resources.items()
        if isinstance(resource, dict) and resource.get("Type") in TABLE_TYPES
    ]
    loops = [name for name in resources if str(name).startswith(FOR_EACH)]
    if loops and not tables:
        return failed(_for_each(loops))
    if not tables:
        types = sorted(
            {
                str(r.get("Type"))
                for r in resources.values()
                if isinstance(r, dict) and r.get("Type")
            }
        )
        untyped = [
            str(name)
            for name, r in resources.items()
            if not (isinstance(r, dict) and isinstance(r.get("Type"), str))
        ]
        return failed(
            "the template has no AWS::DynamoDB::Table, AWS::DynamoDB::GlobalTable "
            "or AWS::Serverless::SimpleTable resource; "
            + (f"its resources are {', '.join(types[:10])}" if types else "")
            + ("; " if types and untyped else "")
            + (
                f"Resources.{', Resources.'.join(untyped[:5])} "
                + ("has" if len(untyped) == 1 else "have")
                + " no Type (a resource is {Type: AWS::..., Properties: {...}})"
                if untyped
                else ""
            )
        )
    chosen = choice.chosen(
        [((*_names(logical, r, resolver),), (logical, r)) for logical, r in tables],
        "CloudFormation template",
    )
    if isinstance(chosen, TablesImport):
        return chosen
    tables = chosen
    scaling = table_scalings(resources, resolver)
    imported = []
    for logical, resource in tables:
        imported.append(
            read_table(logical, resource, resolver, scaling.get(logical, []), name)
        )
    if loops:
        # The loops' tables are missing: every table is told so.
        imported = [
            ImportedTable(
                t.table_name, t.design, t.problems, (*t.notes, _for_each(loops))
            )
            for t in imported
        ]
    return TablesImport(
        name, str(template.get("AWSTemplateFormatVersion", "")), tuple(imported)
    )


def _for_each(loops: list[str]) -> str:
    return (
        f"Resources.{loops[0]}"
        + (f" (and {len(loops) - 1} more)" if len(loops) > 1 else "")
        + ": Fn::ForEach (the AWS::LanguageExtensions transform) is not expanded "
        "by the importer, so the tables it makes are not read: write them out, or "
        "import the template CloudFormation processed (`aws cloudformation "
        "get-template --stack-name STACK --template-stage Processed`)"
    )


def _names(logical: str, resource: dict[str, Any], resolver: Resolver) -> list[str]:
    """The names FILE#TABLE may give a table by: the name the import gives
    it (its TableName, else its logical id), then its logical id."""
    name = logical
    props = resource.get("Properties")
    if isinstance(props, dict) and props.get("TableName"):
        with contextlib.suppress(Unresolved):
            resolved = resolver.value(props["TableName"])
            if isinstance(resolved, str) and resolved:
                name = resolved
    return [valid_table_name(name, []), name, logical]
