"""CloudFormation for a design's table, in YAML and JSON: the
`AWS::DynamoDB::Table` with every key, index and setting, parameters for
the table name and environment, outputs (name, ARN, stream ARN) and, for a
provisioned table, Application Auto Scaling targets and target-tracking
policies for the table and each GSI.

Intrinsic functions are written in their long form (`Ref:`, `Fn::GetAtt:`)
so the YAML is plain YAML that any safe loader reads, and the YAML and the
JSON are the same document."""

from __future__ import annotations

import json
from typing import Any

import yaml

from modeler.design import model as d
from modeler.exporters.tabledef import (
    DEFAULT_TARGET_UTILISATION,
    attribute_definitions,
    logical_id,
    policy_configuration,
    scaling_targets,
)

TABLE = "Table"


def template(
    design: d.Design,
    *,
    target_utilisation: int = DEFAULT_TARGET_UTILISATION,
    ttl_off: str = "",
) -> dict[str, Any]:
    """`ttl_off`: a TTL attribute to write as disabled when the table has no
    TTL (a migration's stage that turns it off)."""
    table = design.table
    parameters: dict[str, Any] = {
        "TableName": {
            "Type": "String",
            "Description": "The name of the DynamoDB table.",
            "Default": table.name,
            "AllowedPattern": "[a-zA-Z0-9_.-]+",
            "MinLength": 3,
            "MaxLength": 255,
        },
    }
    if "Environment" not in dict(table.tags):
        parameters["Environment"] = {
            "Type": "String",
            "Description": "The environment the table belongs to, set as its "
            "Environment tag.",
            "Default": "dev",
        }
    resources: dict[str, Any] = {TABLE: _table(design, ttl_off)}
    targets = scaling_targets(table)
    if any(t.target is None for t in targets):
        parameters["AutoScalingTargetUtilization"] = {
            "Type": "Number",
            "Description": "The consumed/provisioned capacity percentage auto "
            "scaling keeps.",
            "Default": target_utilisation,
            "MinValue": 20,
            "MaxValue": 90,
        }
    used: set[str] = set()
    for target in targets:
        base = (
            "Table" if not target.index else f"Index{logical_id(target.index)}"
        ) + target.dimension.capitalize()
        while base in used:
            base += "X"
        used.add(base)
        # `${` in the index's name is literal text, `${!` to Fn::Sub.
        index_path = f"/index/{target.index}".replace("${", "${!")
        resource_id = f"table/${{{TABLE}}}" + (index_path if target.index else "")
        resources[f"{base}ScalableTarget"] = {
            "Type": "AWS::ApplicationAutoScaling::ScalableTarget",
            "Properties": {
                "MaxCapacity": target.max_capacity,
                "MinCapacity": target.min_capacity,
                "ResourceId": {"Fn::Sub": resource_id},
                "ScalableDimension": target.scalable_dimension,
                "ServiceNamespace": "dynamodb",
            },
        }
        resources[f"{base}ScalingPolicy"] = {
            "Type": "AWS::ApplicationAutoScaling::ScalingPolicy",
            "Properties": {
                "PolicyName": {"Fn::Sub": f"{target.metric}-${{{TABLE}}}-{base}"},
                "PolicyType": "TargetTrackingScaling",
                "ScalingTargetId": {"Ref": f"{base}ScalableTarget"},
                "TargetTrackingScalingPolicyConfiguration": {
                    "TargetValue": target.target
                    if target.target is not None
                    else {"Ref": "AutoScalingTargetUtilization"},
                    "PredefinedMetricSpecification": {
                        "PredefinedMetricType": target.metric
                    },
                    **policy_configuration(target),
                },
            },
        }
    outputs: dict[str, Any] = {
        "TableName": {
            "Description": "The table's name.",
            "Value": {"Ref": TABLE},
            "Export": {"Name": {"Fn::Sub": "${AWS::StackName}-TableName"}},
        },
        "TableArn": {
            "Description": "The table's ARN.",
            "Value": {"Fn::GetAtt": [TABLE, "Arn"]},
            "Export": {"Name": {"Fn::Sub": "${AWS::StackName}-TableArn"}},
        },
    }
    if table.stream_view_type:
        outputs["StreamArn"] = {
            "Description": "The ARN of the table's stream.",
            "Value": {"Fn::GetAtt": [TABLE, "StreamArn"]},
            "Export": {"Name": {"Fn::Sub": "${AWS::StackName}-StreamArn"}},
        }
    description = f"The DynamoDB table of the design '{' '.join(design.name.split())}'"
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": description[:1000],
        "Parameters": parameters,
        "Resources": resources,
        "Outputs": outputs,
    }


def _key_schema(
    partition: tuple[d.KeyAttribute, ...], sort: tuple[d.KeyAttribute, ...]
) -> list[dict[str, str]]:
    return [{"AttributeName": a.name, "KeyType": "HASH"} for a in partition] + [
        {"AttributeName": a.name, "KeyType": "RANGE"} for a in sort
    ]


def _projection(index: d.Index) -> dict[str, Any]:
    spec: dict[str, Any] = {"ProjectionType": index.projection.type}
    if index.projection.type == "INCLUDE":
        spec["NonKeyAttributes"] = list(index.projection.attributes)
    return spec


def _throughput(capacity: d.Capacity) -> dict[str, int]:
    return {"ReadCapacityUnits": capacity.read, "WriteCapacityUnits": capacity.write}


def _table(design: d.Design, ttl_off: str = "") -> dict[str, Any]:
    table = design.table
    provisioned = table.billing_mode == "PROVISIONED"
    props: dict[str, Any] = {
        "TableName": {"Ref": "TableName"},
        "BillingMode": table.billing_mode,
        "AttributeDefinitions": [
            {"AttributeName": a.name, "AttributeType": a.type}
            for a in attribute_definitions(table)
        ],
        "KeySchema": _key_schema(
            (table.partition_key,), (table.sort_key,) if table.sort_key else ()
        ),
    }
    if provisioned and table.capacity:
        props["ProvisionedThroughput"] = _throughput(table.capacity)
    gsis, lsis = [], []
    for index in table.indexes:
        if index.is_global:
            spec = {
                "IndexName": index.name,
                "KeySchema": _key_schema(index.partition_key, index.sort_key),
                "Projection": _projection(index),
            }
            if provisioned and index.capacity:
                spec["ProvisionedThroughput"] = _throughput(index.capacity)
            gsis.append(spec)
        else:
            lsis.append(
                {
                    "IndexName": index.name,
                    "KeySchema": _key_schema((table.partition_key,), index.sort_key),
                    "Projection": _projection(index),
                }
            )
    if gsis:
        props["GlobalSecondaryIndexes"] = gsis
    if lsis:
        props["LocalSecondaryIndexes"] = lsis
    if table.ttl_attribute:
        props["TimeToLiveSpecification"] = {
            "AttributeName": table.ttl_attribute,
            "Enabled": True,
        }
    elif ttl_off:
        # AttributeName is required while TTL is enabled, as it is until then.
        props["TimeToLiveSpecification"] = {"AttributeName": ttl_off, "Enabled": False}
    if table.stream_view_type:
        props["StreamSpecification"] = {"StreamViewType": table.stream_view_type}
    props["PointInTimeRecoverySpecification"] = {
        "PointInTimeRecoveryEnabled": table.point_in_time_recovery
    }
    if table.encryption.type == "AWS_MANAGED":
        props["SSESpecification"] = {"SSEEnabled": True}
    elif table.encryption.type == "KMS":
        sse: dict[str, Any] = {"SSEEnabled": True, "SSEType": "KMS"}
        if table.encryption.kms_key:
            sse["KMSMasterKeyId"] = table.encryption.kms_key
        props["SSESpecification"] = sse
    props["TableClass"] = table.table_class
    props["DeletionProtectionEnabled"] = table.deletion_protection
    tags: list[dict[str, Any]] = [{"Key": k, "Value": v} for k, v in table.tags]
    if "Environment" not in dict(table.tags):
        tags.append({"Key": "Environment", "Value": {"Ref": "Environment"}})
    props["Tags"] = tags
    return {
        "Type": "AWS::DynamoDB::Table",
        # The data outlives the stack: deleting or replacing the stack keeps it.
        "DeletionPolicy": "Retain",
        "UpdateReplacePolicy": "Retain",
        "Properties": props,
    }


def export_cloudformation_json(design: d.Design, **options: Any) -> str:
    return json.dumps(template(design, **options), indent=2, ensure_ascii=False) + "\n"


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def export_cloudformation_yaml(design: d.Design, **options: Any) -> str:
    return template_yaml(template(design, **options))


def template_yaml(document: dict[str, Any]) -> str:
    """A template as YAML: long-form intrinsics, keys in their order, no
    anchors."""
    return yaml.dump(
        document,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=88,
    )
