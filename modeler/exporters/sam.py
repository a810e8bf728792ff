"""An AWS SAM template of the design's table: the CloudFormation export's
template with SAM's transform and a TableNamePrefix parameter, its table an
`AWS::Serverless::SimpleTable` where the design fits one (a partition key
only, no index, TTL, stream, table class or deletion protection to set) and
the full `AWS::DynamoDB::Table` otherwise, so `sam deploy` makes the same
table as the CloudFormation export.

Pure Python; nothing here imports Django."""

from __future__ import annotations

import copy
from typing import Any

from modeler.design import model as d
from modeler.exporters.cloudformation import TABLE, template, template_yaml

TRANSFORM = "AWS::Serverless-2016-10-31"
_SIMPLE_TYPES = {"S": "String", "N": "Number", "B": "Binary"}


def fits_simple_table(table: d.Table) -> bool:
    """Whether SimpleTable can declare the table: it takes a partition key,
    capacity, point-in-time recovery, encryption, a name and tags, and
    nothing else."""
    return (
        table.sort_key is None
        and not table.indexes
        and not table.ttl_attribute
        and not table.stream_view_type
        and table.table_class == "STANDARD"
        and not table.deletion_protection
    )


def sam_template(design: d.Design) -> dict[str, Any]:
    cfn = template(design)
    parameters = {
        "TableNamePrefix": {
            "Type": "String",
            "Description": "Put before the table's name, such as staging- "
            "(none by default).",
            "Default": "",
            "AllowedPattern": "[a-zA-Z0-9_.-]*",
        },
        **cfn["Parameters"],
    }
    resources = copy.deepcopy(cfn["Resources"])
    table = resources[TABLE]
    table["Properties"]["TableName"] = {"Fn::Sub": "${TableNamePrefix}${TableName}"}
    if fits_simple_table(design.table):
        resources[TABLE] = _simple_table(design.table, table)
    return {
        "AWSTemplateFormatVersion": cfn["AWSTemplateFormatVersion"],
        "Transform": TRANSFORM,
        "Description": cfn["Description"],
        "Parameters": parameters,
        "Resources": resources,
        "Outputs": cfn["Outputs"],
    }


def _simple_table(table: d.Table, resource: dict[str, Any]) -> dict[str, Any]:
    """The SimpleTable that SAM turns into `resource` (the CloudFormation
    export's table): what SimpleTable leaves out is CloudFormation's default
    there (on-demand billing when no throughput is given, the standard
    class, no deletion protection)."""
    props = resource["Properties"]
    simple: dict[str, Any] = {
        "TableName": props["TableName"],
        "PrimaryKey": {
            "Name": table.partition_key.name,
            "Type": _SIMPLE_TYPES[table.partition_key.type],
        },
    }
    if "ProvisionedThroughput" in props:
        simple["ProvisionedThroughput"] = props["ProvisionedThroughput"]
    for name in ("PointInTimeRecoverySpecification", "SSESpecification"):
        if name in props:
            simple[name] = props[name]
    simple["Tags"] = {tag["Key"]: tag["Value"] for tag in props["Tags"]}
    return {
        "Type": "AWS::Serverless::SimpleTable",
        "DeletionPolicy": resource["DeletionPolicy"],
        "UpdateReplacePolicy": resource["UpdateReplacePolicy"],
        "Properties": simple,
    }


def export_sam(design: d.Design) -> str:
    return template_yaml(sam_template(design))
