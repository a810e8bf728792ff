"""The design's table as an AWS CDK v2 construct, in TypeScript and in Python:
a class taking a scope and an id, with props for what varies per
environment (a table name prefix, the removal policy, on-demand billing for
a provisioned design, the Environment tag, the auto scaling target), that
declares the table, its indexes, capacity, auto scaling, TTL, stream,
point-in-time recovery, encryption, table class, deletion protection and
tags; and, at the end of the same file, a minimal app that instantiates it
in a stack, so the file is both a module to import and an app to synthesise.

Both flavours are written from one description of the construct
(`construct`), each through its own syntax (`syntax`), so they declare the
same table; a test synthesises them and compares the result with the
CloudFormation export property by property.

User text (names, tags, key ARNs) goes through the literal functions of
`literals`, never spliced in as code. Pure Python; nothing here imports
Django."""

from __future__ import annotations

import re

from modeler.design import model as d
from modeler.exporters.cdk.construct import (
    Spec,
    app_statements,
    construct_spec,
    constructor_body,
    wanted_props,
)
from modeler.exporters.cdk.syntax import Python, TypeScript, comment_lines
from modeler.exporters.literals import comment_text

# Pinned in the header's install line; the test synthesises with these.
CDK_VERSION = "2.275.0"
CONSTRUCTS_VERSION = "10.8.1"

WHY_CLASSIC_TABLE = (
    "The classic Table, not TableV2: TableV2 makes an AWS::DynamoDB::GlobalTable, "
    "another resource type than the workbench's CloudFormation and Terraform "
    "exports deploy, and CloudFormation cannot turn one into the other in place "
    "(the table would be replaced, or retained and imported by hand). The "
    "classic Table makes the same AWS::DynamoDB::Table as those exports."
)


def _header(spec: Spec, prefix: str, install: str, run: str) -> list[str]:
    name = comment_text(spec.design.name)
    return [
        f"{prefix} The DynamoDB table of the design '{name}' as an AWS CDK v2 "
        "construct,",
        f"{prefix} exported by the single-table workbench. It makes the same table as",
        f"{prefix} the workbench's CloudFormation export.",
        f"{prefix}",
        f"{prefix} Install: {install}",
        f"{prefix} Deploy:  {run}",
        f"{prefix} Or import the class into your own app and give it props.",
    ]


def export_cdk_typescript(design: d.Design) -> str:
    spec = construct_spec(design)
    ts = TypeScript()
    out = _header(
        spec,
        "//",
        f"npm install aws-cdk-lib@{CDK_VERSION} constructs@{CONSTRUCTS_VERSION} "
        "aws-cdk typescript ts-node @types/node",
        f'npx cdk deploy --app "npx ts-node {typescript_filename(design)}"',
    )
    out += [
        'import * as cdk from "aws-cdk-lib";',
        'import * as dynamodb from "aws-cdk-lib/aws-dynamodb";',
        'import { Construct } from "constructs";',
        "",
        f"export interface {spec.class_name}Props {{",
    ]
    for prop in wanted_props(spec):
        leads = ["  /**", *["   *"] * (len(prop.typescript_doc) - 1)]
        out += [
            f"{lead} {line}"
            for lead, line in zip(leads, prop.typescript_doc, strict=True)
        ]
        out[-1] += " */"
        out.append(f"  readonly {ts.name(prop.name)}?: {prop.typescript_type};")
    out += ["}", ""]
    out += comment_lines("//", WHY_CLASSIC_TABLE, "")
    out += [
        f"export class {spec.class_name} extends Construct {{",
        "  public readonly table: dynamodb.Table;",
        "",
        "  constructor(",
        "    scope: Construct,",
        "    id: string,",
        f"    props: {spec.class_name}Props = {{}},",
        "  ) {",
        "    super(scope, id);",
        *ts.statements(constructor_body(spec), "    "),
        "  }",
        "}",
        "",
        *ts.app_lines(app_statements(spec)),
    ]
    return "\n".join(out) + "\n"


def export_cdk_python(design: d.Design) -> str:
    spec = construct_spec(design)
    py = Python()
    out = _header(
        spec,
        "#",
        f"pip install aws-cdk-lib=={CDK_VERSION} constructs=={CONSTRUCTS_VERSION} "
        "(and npm install -g aws-cdk)",
        f'cdk deploy --app "python3 {python_filename(design)}"',
    )
    out += [
        "from __future__ import annotations",
        "",
        *(["import typing", ""] if spec.overrides_encryption else []),
        "import aws_cdk as cdk",
        "from aws_cdk import aws_dynamodb as dynamodb",
        "from constructs import Construct",
        "",
        "",
    ]
    parameters: list[str] = []
    docs: list[str] = []
    for prop in wanted_props(spec):
        parameters.append(
            f"        {prop.name}: {prop.python_type} = {py.inline(prop.default)},"
        )
        if docs:
            docs[-1] += ";"
        docs += [f"    {line}" for line in prop.python_doc]
    docs[-1] += "."
    out += [f"class {spec.class_name}(Construct):"]
    out += ['    """' + "The design's table, with its indexes and settings."]
    out += ["", *docs, ""]
    out += comment_lines("", WHY_CLASSIC_TABLE, "   ")
    out += ['    """', ""]
    out += ["    def __init__(", "        self,"]
    out += ["        scope: Construct,", "        construct_id: str,", "        *,"]
    out += [*parameters, "    ) -> None:"]
    out.append("        super().__init__(scope, construct_id)")
    out += py.statements(constructor_body(spec), "        ")
    out += ["", "", *py.app_lines(app_statements(spec))]
    return "\n".join(out) + "\n"


def typescript_filename(design: d.Design) -> str:
    """The download's name, as the header's deploy line gives it."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", design.table.name).strip("-.")
    return f"{stem or 'design'}-table.ts"


def python_filename(design: d.Design) -> str:
    """The download's name: a module name, so an app can import it."""
    stem = re.sub(r"[^a-z0-9_]+", "_", design.table.name.lower()).strip("_")
    if not stem or not stem[0].isalpha():
        stem = f"t_{stem}"
    return f"{stem}_table.py"
