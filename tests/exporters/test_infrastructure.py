"""Terraform, CloudFormation and create-table JSON describe the same table,
the one the design holds, and CloudFormation passes cfn-lint clean."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys

import hcl2
import pytest
import yaml
from cfnlint.api import ManualArgs, lint
from hypothesis import HealthCheck, given, settings

from modeler.design import model as d
from modeler.exporters.cfnlint import lint_template
from modeler.exporters.cli import create_table_input, follow_up_commands
from modeler.exporters.cloudformation import (
    export_cloudformation_json,
    export_cloudformation_yaml,
)
from modeler.exporters.terraform import export_terraform
from tests.exporters.helpers import EXAMPLES, example
from tests.exporters.strategies import designs

LINT = ManualArgs(regions=["us-east-1"])


def lint_findings(text: str) -> list[str]:
    return [
        f"{m.rule.id} line {m.linenumber}: {m.message}" for m in lint(text, config=LINT)
    ]


def described_by_design(design: d.Design) -> dict:
    """The table as the exports must describe it, from the design itself."""
    table = design.table
    return {
        "name": table.name,
        "billing": table.billing_mode,
        "keys": [("HASH", table.partition_key.name)]
        + ([("RANGE", table.sort_key.name)] if table.sort_key else []),
        "capacity": (table.capacity.read, table.capacity.write)
        if table.billing_mode == "PROVISIONED"
        else None,
        "attributes": sorted((a.name, a.type) for a in table.all_key_attributes()),
        "gsis": {
            i.name: (
                [("HASH", a.name) for a in i.partition_key]
                + [("RANGE", a.name) for a in i.sort_key],
                i.projection.type,
                sorted(i.projection.attributes),
                (i.capacity.read, i.capacity.write)
                if table.billing_mode == "PROVISIONED"
                else None,
            )
            for i in table.indexes
            if i.is_global
        },
        "lsis": {
            i.name: (
                [("HASH", table.partition_key.name), ("RANGE", i.sort_key[0].name)],
                i.projection.type,
                sorted(i.projection.attributes),
            )
            for i in table.indexes
            if not i.is_global
        },
        "ttl": table.ttl_attribute or None,
        "stream": table.stream_view_type or None,
        "pitr": table.point_in_time_recovery,
        "sse": None
        if table.encryption.type == "AWS_OWNED"
        else (True, table.encryption.kms_key or None),
        "class": table.table_class,
        "deletion_protection": table.deletion_protection,
        "tags": dict(table.tags)
        | (
            {}
            if "Environment" in dict(table.tags)
            else {"Environment": "<environment>"}
        ),
    }


def described_by_cloudformation(template: dict) -> dict:
    (table,) = [
        r for r in template["Resources"].values() if r["Type"] == "AWS::DynamoDB::Table"
    ]
    props = table["Properties"]
    params = template["Parameters"]

    def keys(schema: list[dict]) -> list[tuple[str, str]]:
        return [(k["KeyType"], k["AttributeName"]) for k in schema]

    def throughput(spec: dict) -> tuple[int, int] | None:
        t = spec.get("ProvisionedThroughput")
        return (t["ReadCapacityUnits"], t["WriteCapacityUnits"]) if t else None

    sse = props.get("SSESpecification")
    return {
        "name": params["TableName"]["Default"],
        "billing": props["BillingMode"],
        "keys": keys(props["KeySchema"]),
        "capacity": throughput(props),
        "attributes": sorted(
            (a["AttributeName"], a["AttributeType"])
            for a in props["AttributeDefinitions"]
        ),
        "gsis": {
            g["IndexName"]: (
                keys(g["KeySchema"]),
                g["Projection"]["ProjectionType"],
                sorted(g["Projection"].get("NonKeyAttributes", [])),
                throughput(g),
            )
            for g in props.get("GlobalSecondaryIndexes", [])
        },
        "lsis": {
            i["IndexName"]: (
                keys(i["KeySchema"]),
                i["Projection"]["ProjectionType"],
                sorted(i["Projection"].get("NonKeyAttributes", [])),
            )
            for i in props.get("LocalSecondaryIndexes", [])
        },
        "ttl": props.get("TimeToLiveSpecification", {}).get("AttributeName"),
        "stream": props.get("StreamSpecification", {}).get("StreamViewType"),
        "pitr": props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"],
        "sse": (sse["SSEEnabled"], sse.get("KMSMasterKeyId")) if sse else None,
        "class": props["TableClass"],
        "deletion_protection": props["DeletionProtectionEnabled"],
        "tags": {
            t["Key"]: "<environment>"
            if t["Value"] == {"Ref": "Environment"}
            else t["Value"]
            for t in props["Tags"]
        },
    }


def hcl_text(raw: str, *, key: bool = False) -> str:
    """python-hcl2 decodes backslash escapes but leaves `$${` and `%%{` as
    written, and keeps the quotes of an object key holding `$${`."""
    if key and "$${" in raw and len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    return raw.replace("$${", "${").replace("%%{", "%{")


def described_by_terraform(text: str) -> dict:
    parsed = hcl2.loads(text)
    (table,) = [
        body
        for resource in parsed["resource"]
        for kind, named in resource.items()
        if kind == "aws_dynamodb_table"
        for body in named.values()
    ]
    variables = {k: v for var in parsed["variable"] for k, v in var.items()}

    def keys(block: dict) -> list[tuple[str, str]]:
        if "key_schema" in block:
            return [(k["key_type"], k["attribute_name"]) for k in block["key_schema"]]
        return [("HASH", block["hash_key"])] + (
            [("RANGE", block["range_key"])] if "range_key" in block else []
        )

    def capacity(block: dict) -> tuple[int, int] | None:
        return (
            (block["read_capacity"], block["write_capacity"])
            if "read_capacity" in block
            else None
        )

    sse = (table.get("server_side_encryption") or [None])[0]
    kms = sse.get("kms_key_arn") if sse else None
    if kms == "${data.aws_kms_alias.table.target_key_arn}":
        kms = [v for data in parsed["data"] for v in data["aws_kms_alias"].values()][0][
            "name"
        ]
    tags = {
        hcl_text(k, key=True): "<environment>"
        if v == "${var.environment}"
        else hcl_text(v)
        for k, v in table["tags"].items()
    }
    ttl = (table.get("ttl") or [{}])[0]
    return {
        "name": variables["table_name"]["default"],
        "billing": table["billing_mode"],
        "keys": keys(table),
        "capacity": capacity(table),
        "attributes": sorted(
            (a["name"], a["type"]) for a in table.get("attribute", [])
        ),
        "gsis": {
            g["name"]: (
                keys(g),
                g["projection_type"],
                sorted(g.get("non_key_attributes", [])),
                capacity(g),
            )
            for g in table.get("global_secondary_index", [])
        },
        "lsis": {
            i["name"]: (
                [("HASH", table["hash_key"]), ("RANGE", i["range_key"])],
                i["projection_type"],
                sorted(i.get("non_key_attributes", [])),
            )
            for i in table.get("local_secondary_index", [])
        },
        "ttl": ttl.get("attribute_name"),
        "stream": table.get("stream_view_type"),
        "pitr": table["point_in_time_recovery"][0]["enabled"],
        "sse": (sse["enabled"], kms) if sse else None,
        "class": table["table_class"],
        "deletion_protection": table["deletion_protection_enabled"],
        "tags": tags,
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_cloudformation_is_lint_clean(path):
    design = example(path)
    assert lint_findings(export_cloudformation_yaml(design)) == []
    assert lint_findings(export_cloudformation_json(design)) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_terraform_and_cloudformation_describe_the_design(path):
    design = example(path)
    expected = described_by_design(design)
    cfn = yaml.safe_load(export_cloudformation_yaml(design))
    assert described_by_cloudformation(cfn) == expected
    assert described_by_terraform(export_terraform(design)) == expected


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(designs())
def test_generated_designs_lint_clean_and_agree(design):
    text = export_cloudformation_yaml(design)
    assert lint_findings(text) == []
    cfn = yaml.safe_load(text)
    assert json.loads(export_cloudformation_json(design)) == cfn
    expected = described_by_design(design)
    assert described_by_cloudformation(cfn) == expected
    assert described_by_terraform(export_terraform(design)) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(designs())
def test_generated_terraform_parses_and_agrees(design):
    assert described_by_terraform(export_terraform(design)) == described_by_design(
        design
    )


def test_provisioned_table_gets_auto_scaling_for_table_and_each_gsi():
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    cfn = yaml.safe_load(export_cloudformation_yaml(design))
    targets = {
        r["Properties"]["ScalableDimension"]: r["Properties"]["ResourceId"]
        for r in cfn["Resources"].values()
        if r["Type"] == "AWS::ApplicationAutoScaling::ScalableTarget"
    }
    assert set(targets) == {
        "dynamodb:table:ReadCapacityUnits",
        "dynamodb:table:WriteCapacityUnits",
        "dynamodb:index:ReadCapacityUnits",
        "dynamodb:index:WriteCapacityUnits",
    }
    assert targets["dynamodb:index:ReadCapacityUnits"] == {
        "Fn::Sub": "table/${Table}/index/GSI1"
    }
    policies = [
        r["Properties"]
        for r in cfn["Resources"].values()
        if r["Type"] == "AWS::ApplicationAutoScaling::ScalingPolicy"
    ]
    assert len(policies) == 4
    assert cfn["Parameters"]["AutoScalingTargetUtilization"]["Default"] == 70
    parsed = hcl2.loads(export_terraform(design))
    kinds = [kind for resource in parsed["resource"] for kind in resource]
    assert kinds.count("aws_appautoscaling_target") == 4
    assert kinds.count("aws_appautoscaling_policy") == 4
    assert "StreamArn" in cfn["Outputs"]


def test_on_demand_table_has_no_auto_scaling_and_no_stream_output():
    design = example([p for p in EXAMPLES if p.stem == "order-management"][0])
    cfn = yaml.safe_load(export_cloudformation_yaml(design))
    assert [r["Type"] for r in cfn["Resources"].values()] == ["AWS::DynamoDB::Table"]
    assert set(cfn["Outputs"]) == {"TableName", "TableArn"}
    assert "aws_appautoscaling" not in export_terraform(design)


def test_terraform_escapes_user_text():
    design = example(EXAMPLES[0])
    table = dataclasses.replace(
        design.table, tags=(('say "hi"', '${file("/etc/passwd")}'), ("pct", "%{x}"))
    )
    text = export_terraform(dataclasses.replace(design, table=table))
    assert '"say \\"hi\\"" = "$${file(\\"/etc/passwd\\")}"' in text
    assert '"%%{x}"' in text
    tags = described_by_terraform(text)["tags"]
    assert tags == {
        'say "hi"': '${file("/etc/passwd")}',
        "pct": "%{x}",
        "Environment": "<environment>",
    }


def test_terraform_aligns_arguments_like_terraform_fmt():
    text = export_terraform(example(EXAMPLES[0]))
    assert "  name                        = var.table_name\n" in text
    assert "  ttl {\n" in text or "  point_in_time_recovery {\n" in text
    assert "\n\n\n" not in text and text.endswith("}\n")
    assert "\t" not in text


def test_create_table_input_matches_cloudformation_keys_and_indexes():
    for path in EXAMPLES:
        design = example(path)
        request = create_table_input(design)
        cfn = yaml.safe_load(export_cloudformation_yaml(design))
        props = cfn["Resources"]["Table"]["Properties"]
        for field in ("KeySchema", "AttributeDefinitions", "BillingMode"):
            assert request[field] == props[field]
        for field in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
            assert request.get(field) == props.get(field)
        assert request["TableName"] == design.table.name


def test_create_table_follow_ups_set_ttl_and_pitr():
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    commands = follow_up_commands(design)
    assert any("update-time-to-live" in c and "expiresAt" in c for c in commands)
    assert any("update-continuous-backups" in c for c in commands)


def test_lint_template_reports_errors_of_a_broken_template():
    broken = (
        'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  T:\n'
        "    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: []\n"
    )
    result = lint_template(broken)
    assert not result.clean
    assert any(f.level == "Error" and f.line == 6 for f in result.findings)
    clean = lint_template(export_cloudformation_yaml(example(EXAMPLES[0])))
    assert clean.clean and clean.findings == ()


def test_lint_template_time_limit_is_reported():
    text = export_cloudformation_yaml(example(EXAMPLES[1])) + "# unique\n"
    result = lint_template(text, timeout=0.001)
    assert result.problem.startswith("cfn-lint timed out")


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare")
def test_cfn_lint_runs_without_network(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(export_cloudformation_yaml(example(EXAMPLES[0])))
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare, "-rn", "true"], check=False)
    if probe.returncode != 0:
        pytest.skip("user namespaces are not available here")
    completed = subprocess.run(
        [
            unshare,
            "-rn",
            sys.executable,
            "-c",
            "import sys; from cfnlint.runner import main; sys.exit(main())",
            str(path),
            "--format",
            "json",
            "--regions",
            "us-east-1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == []
