"""The AWS CLI's `create-table` input, for DynamoDB Local and scripts:
`aws dynamodb create-table --cli-input-json file://table.json`."""

from __future__ import annotations

import json
import shlex

from modeler.design import model as d
from modeler.simulation.requests import create_table_request


def create_table_input(design: d.Design) -> dict:
    """CreateTable's parameters (the same request the simulator uses), with
    the settings CreateTable itself takes: streams, encryption, table class,
    deletion protection and tags. TTL and point-in-time recovery are set
    after creation, by `update-time-to-live` and
    `update-continuous-backups`; `export_cli_json` does not hold them."""
    table = design.table
    request = create_table_request(design)
    if table.stream_view_type:
        request["StreamSpecification"] = {
            "StreamEnabled": True,
            "StreamViewType": table.stream_view_type,
        }
    if table.encryption.type == "AWS_MANAGED":
        request["SSESpecification"] = {"Enabled": True, "SSEType": "KMS"}
    elif table.encryption.type == "KMS":
        sse = {"Enabled": True, "SSEType": "KMS"}
        if table.encryption.kms_key:
            sse["KMSMasterKeyId"] = table.encryption.kms_key
        request["SSESpecification"] = sse
    request["TableClass"] = table.table_class
    request["DeletionProtectionEnabled"] = table.deletion_protection
    if table.tags:
        request["Tags"] = [{"Key": k, "Value": v} for k, v in table.tags]
    return request


def export_cli_json(design: d.Design) -> str:
    return json.dumps(create_table_input(design), indent=2, ensure_ascii=False) + "\n"


def follow_up_commands(design: d.Design) -> list[str]:
    """The commands that finish the table after `create-table`: TTL and
    point-in-time recovery cannot be set by CreateTable."""
    table = design.table
    commands = []
    if table.ttl_attribute:
        spec = json.dumps({"Enabled": True, "AttributeName": table.ttl_attribute})
        commands.append(
            f"aws dynamodb update-time-to-live --table-name {shlex.quote(table.name)} "
            f"--time-to-live-specification {shlex.quote(spec)}"
        )
    if table.point_in_time_recovery:
        commands.append(
            "aws dynamodb update-continuous-backups --table-name "
            f"{shlex.quote(table.name)} "
            "--point-in-time-recovery-specification PointInTimeRecoveryEnabled=true"
        )
    return commands
