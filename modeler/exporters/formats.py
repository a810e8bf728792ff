"""The export formats, by the names the commands and the Export section
use: what each is called, the file it downloads as, and how it is made."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from modeler import design as d
from modeler.designfile import dump_design
from modeler.exporters.cli import export_cli_json
from modeler.exporters.cloudformation import (
    export_cloudformation_json,
    export_cloudformation_yaml,
)
from modeler.exporters.iam import export_iam_policy
from modeler.exporters.terraform import export_terraform


@dataclass(frozen=True)
class ExportFormat:
    name: str  # as on the command line: cloudformation-yaml
    label: str
    suffix: str  # the download's file name ends with this
    language: str  # for highlighting: yaml, json, hcl
    media_type: str
    render: Callable[[d.Design], str]
    description: str

    def filename(self, design: d.Design) -> str:
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", design.table.name).strip("-.")
        return f"{stem or 'design'}{self.suffix}"


def _workbench(design: d.Design) -> str:
    from modeler.exporters.nosql_workbench import export_workbench

    return export_workbench(design)


EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat(
            "yaml",
            "Design YAML",
            ".design.yaml",
            "yaml",
            "application/yaml",
            dump_design,
            "The whole design in the workbench's own format; import it again "
            "with import_design.",
        ),
        ExportFormat(
            "terraform",
            "Terraform",
            ".tf",
            "hcl",
            "text/plain",
            export_terraform,
            "aws_dynamodb_table with its indexes and settings, variables for the "
            "table name and environment, auto scaling when provisioned.",
        ),
        ExportFormat(
            "cloudformation-yaml",
            "CloudFormation (YAML)",
            ".cfn.yaml",
            "yaml",
            "application/yaml",
            export_cloudformation_yaml,
            "AWS::DynamoDB::Table with parameters and outputs, auto scaling "
            "when provisioned.",
        ),
        ExportFormat(
            "cloudformation-json",
            "CloudFormation (JSON)",
            ".cfn.json",
            "json",
            "application/json",
            export_cloudformation_json,
            "The same template as JSON.",
        ),
        ExportFormat(
            "cli-json",
            "AWS CLI create-table",
            ".create-table.json",
            "json",
            "application/json",
            export_cli_json,
            "Input for aws dynamodb create-table --cli-input-json, for "
            "DynamoDB Local or scripts.",
        ),
        ExportFormat(
            "nosql-workbench",
            "NoSQL Workbench model",
            ".nosql-workbench.json",
            "json",
            "application/json",
            _workbench,
            "A version 3.0 data model with a facet per entity and the sample "
            "items, which NoSQL Workbench opens.",
        ),
        ExportFormat(
            "iam-policy",
            "IAM policy",
            ".iam-policy.json",
            "json",
            "application/json",
            export_iam_policy,
            "The least-privilege policy for the application: the actions the "
            "access patterns use, on the table and index ARNs.",
        ),
    )
}
