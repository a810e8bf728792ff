"""Import of CloudFormation templates and Terraform configurations: our own
exports read back to the same table, intrinsic functions and variables are
resolved where the file decides them, and what cannot be known before
deploy is said, never guessed."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings

from modeler.design import model as d
from modeler.exporters.cloudformation import (
    export_cloudformation_json,
    export_cloudformation_yaml,
)
from modeler.exporters.terraform import export_terraform
from modeler.importers.sources import (
    CLOUDFORMATION,
    NOSQL_WORKBENCH,
    TERRAFORM,
    YAML,
    read_design_source,
    source_kind,
)
from tests.exporters.helpers import EXAMPLES, FIXTURES, example
from tests.exporters.strategies import designs

EXPORTS = [
    ("template.yaml", export_cloudformation_yaml, CLOUDFORMATION),
    ("template.json", export_cloudformation_json, CLOUDFORMATION),
    ("main.tf", export_terraform, TERRAFORM),
]


def read(text: str, filename: str = ""):  # type: ignore[no-untyped-def]
    return read_design_source(text, filename=filename, max_bytes=1_000_000)


def only_design(text: str, filename: str = "") -> tuple[d.Design, list[str]]:
    found = read(text, filename)
    assert found.ok, found.problems
    assert len(found.designs) == 1
    return found.designs[0], list(found.notes)


def by_name(table: d.Table) -> d.Table:
    """CloudFormation and Terraform list GSIs and LSIs apart, so the
    order of an LSI among GSIs is not in the file."""
    return dataclasses.replace(
        table, indexes=tuple(sorted(table.indexes, key=lambda i: i.name))
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize(("filename", "export", "kind"), EXPORTS, ids=lambda e: "")
def test_our_exports_read_back_to_the_same_table(path, filename, export, kind):
    design = example(path)
    found = read(export(design), filename)
    assert found.kind == kind
    assert found.ok, found.problems
    (imported,) = found.designs
    assert by_name(imported.table) == by_name(design.table)
    assert imported.name == design.table.name
    assert imported.entities == () and imported.access_patterns == ()
    # The Environment tag the exports add from a parameter is per deployment.
    assert any("the tag Environment is set from the" in n for n in found.notes)
    # Their auto scaling is the default the design leaves it to: one note.
    scaling = [n for n in found.notes if "auto scaling" in n]
    if design.table.billing_mode == "PROVISIONED":
        assert scaling == [
            "auto scaling kept: the table: the exports' default (from the capacity "
            "to ten times it); GSI GSI1: the exports' default (from the capacity "
            "to ten times it)"
        ]
    else:
        assert scaling == []
    assert any("add entities with their key templates" in n for n in found.notes)


def test_a_second_round_trip_changes_nothing():
    design = example(EXAMPLES[0])
    once, _ = only_design(export_terraform(design), "main.tf")
    twice, _ = only_design(export_terraform(once), "main.tf")
    assert twice.table == once.table


TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Description: Orders service
Parameters:
  Env:
    Type: String
    Default: prod
  ReadUnits:
    Type: Number
    Default: 40
Mappings:
  Sizes:
    prod: {Write: 25}
    dev: {Write: 1}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Sub "${Env}-orders"
      BillingMode: !If [IsProd, PROVISIONED, PAY_PER_REQUEST]
      ProvisionedThroughput: !If
        - IsProd
        - ReadCapacityUnits: !Ref ReadUnits
          WriteCapacityUnits: !FindInMap [Sizes, !Ref Env, Write]
        - !Ref AWS::NoValue
      AttributeDefinitions:
        - {AttributeName: PK, AttributeType: S}
        - {AttributeName: SK, AttributeType: S}
        - {AttributeName: GSI1PK, AttributeType: S}
        - {AttributeName: amount, AttributeType: N}
      KeySchema:
        - {AttributeName: PK, KeyType: HASH}
        - {AttributeName: SK, KeyType: RANGE}
      GlobalSecondaryIndexes:
        - IndexName: GSI1
          KeySchema:
            - {AttributeName: GSI1PK, KeyType: HASH}
            - {AttributeName: amount, KeyType: RANGE}
          Projection:
            ProjectionType: INCLUDE
            NonKeyAttributes: [PK, status]
          ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 5}
      TimeToLiveSpecification: {AttributeName: expiresAt, Enabled: true}
      StreamSpecification: {StreamViewType: NEW_AND_OLD_IMAGES}
      PointInTimeRecoverySpecification: {PointInTimeRecoveryEnabled: "true"}
      SSESpecification: {SSEEnabled: true, SSEType: KMS, KMSMasterKeyId: alias/orders}
      Tags:
        - {Key: team, Value: commerce}
        - {Key: stack, Value: !Ref AWS::StackName}
  OrdersWriteScaling:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      ResourceId: !Sub table/${Orders}
      ScalableDimension: dynamodb:table:WriteCapacityUnits
      ServiceNamespace: dynamodb
      MinCapacity: 25
      MaxCapacity: 500
  Queue:
    Type: AWS::SQS::Queue
"""


def test_intrinsic_functions_are_resolved_from_parameters_conditions_and_maps():
    design, notes = only_design(TEMPLATE)
    table = design.table
    assert table.name == "prod-orders"
    assert table.billing_mode == "PROVISIONED"
    # The template scales the writes only, with no policy: 70% is assumed.
    scaled = d.AutoScaling(write=d.ScalingRange(25, 500, 70))
    assert table.capacity == d.Capacity(40, 25, scaled)
    (gsi,) = table.indexes
    assert gsi.sort_key == (d.KeyAttribute("amount", "N"),)
    # PK is a key attribute: every index projects it, DynamoDB refuses it listed.
    assert gsi.projection == d.Projection("INCLUDE", ("status",))
    assert gsi.capacity == d.Capacity(5, 5, d.AUTO_SCALING_OFF)
    assert table.ttl_attribute == "expiresAt"
    assert table.stream_view_type == "NEW_AND_OLD_IMAGES"
    assert table.point_in_time_recovery is True
    assert table.encryption == d.Encryption("KMS", "alias/orders")
    assert table.tags == (("team", "commerce"),)
    assert (
        design.description == "Imported from a CloudFormation template: Orders service"
    )
    assert any("the tag stack is left out: AWS::StackName" in n for n in notes)
    assert any("key attribute PK left out of its INCLUDE" in n for n in notes)
    assert (
        "auto scaling kept: the table: reads not scaled, writes 25 to 500 units at "
        "70%; GSI GSI1: none (the capacity stays as provisioned)"
    ) in notes
    assert (
        "auto scaling of the table's writes has no target tracking policy; 70% is used"
    ) in notes


def test_the_other_branch_of_a_condition():
    design, _ = only_design(TEMPLATE.replace("Default: prod", "Default: dev"))
    assert design.table.name == "dev-orders"
    assert design.table.billing_mode == "PAY_PER_REQUEST"
    assert design.table.capacity is None
    # A GSI's throughput on an on-demand table is dropped with a note.
    assert design.table.indexes[0].capacity is None


def test_a_name_known_only_at_deploy_falls_back_to_the_logical_id():
    text = TEMPLATE.replace('!Sub "${Env}-orders"', '!Sub "${AWS::StackName}-orders"')
    design, notes = only_design(text)
    assert design.table.name == "Orders"
    assert any(
        "the table name is not known before deploy (AWS::StackName is known only "
        "when the stack is deployed); the design uses the logical id 'Orders'" in n
        for n in notes
    )


def test_a_parameter_without_a_default_is_an_error_that_names_it():
    text = TEMPLATE.replace("    Default: 40\n", "")
    found = read(text)
    assert not found.ok and found.designs == ()
    (problem,) = [p for p in found.problems if p.is_error]
    assert problem.path == "Resources.Orders.Properties.ProvisionedThroughput"
    assert problem.message == (
        "the parameter ReadUnits has no Default; give it one to import"
    )


def test_json_template_with_two_tables_and_a_global_table():
    template = {
        "Resources": {
            "Users": {
                "Type": "AWS::DynamoDB::Table",
                "Properties": {
                    "TableName": "users",
                    "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [
                        {"AttributeName": "id", "AttributeType": "S"}
                    ],
                    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
                },
            },
            "Events": {
                "Type": "AWS::DynamoDB::GlobalTable",
                "Properties": {
                    "TableName": "events",
                    "AttributeDefinitions": [
                        {"AttributeName": "pk", "AttributeType": "S"},
                        {"AttributeName": "sk", "AttributeType": "N"},
                    ],
                    "KeySchema": [
                        {"AttributeName": "pk", "KeyType": "HASH"},
                        {"AttributeName": "sk", "KeyType": "RANGE"},
                    ],
                    "BillingMode": "PROVISIONED",
                    "WriteProvisionedThroughputSettings": {
                        "WriteCapacityAutoScalingSettings": {
                            "MinCapacity": 10,
                            "MaxCapacity": 100,
                            "TargetTrackingScalingPolicyConfiguration": {
                                "TargetValue": 70
                            },
                        }
                    },
                    "Replicas": [
                        {
                            "Region": "eu-west-1",
                            "ReadProvisionedThroughputSettings": {
                                "ReadCapacityUnits": 20
                            },
                            "PointInTimeRecoverySpecification": {
                                "PointInTimeRecoveryEnabled": True
                            },
                            "Tags": [{"Key": "team", "Value": "data"}],
                        },
                        {"Region": "us-east-1"},
                    ],
                },
            },
        }
    }
    found = read(json.dumps(template), "stack.json")
    assert found.kind == CLOUDFORMATION
    assert found.ok, found.problems
    users, events = found.designs
    assert found.tables == ("users", "events")
    assert users.table.partition_key == d.KeyAttribute("id", "S")
    assert users.table.sort_key is None
    # A global table's writes are always auto scaled: kept, with their range.
    assert events.table.capacity == d.Capacity(
        20, 10, d.AutoScaling(write=d.ScalingRange(10, 100, 70))
    )
    assert events.table.point_in_time_recovery is True
    assert events.table.tags == (("team", "data"),)
    assert any("replicas in eu-west-1, us-east-1" in n for n in found.notes)
    assert any("writes 10 to 100 units at 70%" in n for n in found.notes)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Resources: {}\nAWSTemplateFormatVersion: '2010-09-09'\n", "Resources is"),
        (
            "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
            "  Q: {Type: AWS::SQS::Queue}\n",
            "no AWS::DynamoDB::Table, AWS::DynamoDB::GlobalTable or "
            "AWS::Serverless::SimpleTable resource; its resources are AWS::SQS::Queue",
        ),
        (
            "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
            "  Q: {Type: AWS::SQS::Queue}\n  Orders: {Properties: {}}\n",
            "its resources are AWS::SQS::Queue; Resources.Orders has no Type (a "
            "resource is {Type: AWS::..., Properties: {...}})",
        ),
        (
            "AWSTemplateFormatVersion: '2010-09-09'\nx: &a [1]\ny: *a\n",
            "aliases (*name) are not allowed in a template",
        ),
        (
            "AWSTemplateFormatVersion: !!python/object:os.system echo\n",
            "not valid YAML at line 1",
        ),
        ('{"AWSTemplateFormatVersion": "2010-09-09",', "not valid JSON at line 1"),
    ],
)
def test_a_broken_template_is_refused_with_what_is_wrong(text, message):
    found = read(text)
    assert found.kind == CLOUDFORMATION and found.designs == ()
    assert message in " ".join(p.message for p in found.problems)


def test_a_key_missing_from_the_attribute_definitions_names_its_place():
    text = TEMPLATE.replace("        - {AttributeName: amount, AttributeType: N}\n", "")
    found = read(text)
    assert not found.ok
    (problem,) = [p for p in found.problems if p.is_error]
    assert problem.path == (
        "Resources.Orders.Properties.GlobalSecondaryIndexes[0].KeySchema[1]"
        ".AttributeName"
    )
    assert "'amount' is not in AttributeDefinitions" in problem.message


TERRAFORM_FILE = """\
variable "env" {
  type    = string
  default = "staging"
}

variable "gsis" {
  type = list(string)
}

locals {
  prefix = "${var.env}-shop"
}

data "aws_kms_alias" "orders" {
  name = "alias/orders"
}

resource "aws_dynamodb_table" "orders" {
  name           = "${local.prefix}-orders"
  billing_mode   = "PROVISIONED"
  read_capacity  = 10
  write_capacity = 4
  hash_key       = "PK"
  range_key      = "SK"

  attribute {
    name = "PK"
    type = "S"
  }
  attribute {
    name = "SK"
    type = "S"
  }
  attribute {
    name = "LSI1SK"
    type = "N"
  }

  local_secondary_index {
    name            = "LSI1"
    range_key       = "LSI1SK"
    projection_type = "KEYS_ONLY"
  }

  ttl {
    attribute_name = "expiresAt"
    enabled        = true
  }

  server_side_encryption {
    enabled     = true
    kms_key_arn = data.aws_kms_alias.orders.target_key_arn
  }

  deletion_protection_enabled = true
  table_class                 = "STANDARD_INFREQUENT_ACCESS"

  tags = {
    team        = "shop"
    Environment = var.env
  }
}

resource "aws_dynamodb_table" "carts" {
  name         = "carts-${replace(var.env, "-", "")}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"

  attribute {
    name = "id"
    type = "S"
  }
}
"""


def test_terraform_variables_locals_and_a_kms_alias_are_resolved():
    found = read(TERRAFORM_FILE, "main.tf")
    assert found.kind == TERRAFORM
    assert found.ok, found.problems
    orders, carts = found.designs
    table = orders.table
    assert table.name == "staging-shop-orders"
    # A provisioned table with no auto scaling keeps its capacity fixed.
    assert table.capacity == d.Capacity(10, 4, d.AUTO_SCALING_OFF)
    (lsi,) = table.indexes
    assert (lsi.kind, lsi.sort_key, lsi.projection.type) == (
        "local",
        (d.KeyAttribute("LSI1SK", "N"),),
        "KEYS_ONLY",
    )
    assert table.ttl_attribute == "expiresAt"
    assert table.encryption == d.Encryption("KMS", "alias/orders")
    assert table.deletion_protection is True
    assert table.table_class == "STANDARD_INFREQUENT_ACCESS"
    assert table.tags == (("team", "shop"),)
    assert any(
        "the tag Environment is set from the variable env at apply (default "
        "'staging')" in n
        for n in found.notes
    )
    # A function call is known only at plan: the resource's own name stands in.
    assert carts.table.name == "carts"
    assert any("the design uses the resource name 'carts'" in n for n in found.notes)


def test_terraform_dynamic_blocks_and_variables_without_defaults_are_errors():
    text = TERRAFORM_FILE.replace(
        "  deletion_protection_enabled = true\n",
        "  deletion_protection_enabled = var.gsis\n"
        '  dynamic "global_secondary_index" {\n'
        "    for_each = var.gsis\n"
        "    content {\n"
        "      name = global_secondary_index.value\n"
        "    }\n"
        "  }\n",
    )
    found = read(text, "main.tf")
    assert not found.ok and found.designs == ()
    messages = {p.path: p.message for p in found.problems if p.is_error}
    assert messages == {
        'resource.aws_dynamodb_table."orders".dynamic.global_secondary_index': (
            "staging-shop-orders: dynamic global_secondary_index blocks are made "
            "at plan time; write them out to import them"
        ),
        'resource.aws_dynamodb_table."orders".deletion_protection_enabled': (
            "staging-shop-orders: the variable gsis has no default; give it one "
            "to import"
        ),
    }


def test_broken_terraform_says_where():
    found = read('resource "aws_dynamodb_table" "t" {\n  name = \n}\n', "main.tf")
    assert not found.ok
    assert found.problems[0].message == (
        "not valid HCL at line 2, column 10: unexpected '}'"
    )
    assert found.problems[0].line == 2
    found = read('resource "aws_s3_bucket" "b" {\n}\n', "main.tf")
    assert found.problems[0].message == (
        'the configuration has no resource "aws_dynamodb_table"; its resources '
        "are aws_s3_bucket"
    )


@pytest.mark.parametrize(
    ("text", "filename", "kind"),
    [
        (TEMPLATE, "", CLOUDFORMATION),
        (TEMPLATE, "orders.yaml", CLOUDFORMATION),
        (TERRAFORM_FILE, "", TERRAFORM),
        (TERRAFORM_FILE, "tables.tf", TERRAFORM),
        ((EXAMPLES[0]).read_text(), "", YAML),
        ((EXAMPLES[0]).read_text(), "x.yaml", YAML),
        ((FIXTURES / "BankModel.json").read_text(), "", NOSQL_WORKBENCH),
        ((FIXTURES / "BankModel.json").read_text(), "bank.json", NOSQL_WORKBENCH),
    ],
)
def test_the_kind_of_file_is_told_by_what_it_holds(text, filename, kind):
    assert source_kind(text, filename=filename) == kind


def _as_held(table: d.Table) -> d.Table:
    """The table as a file holds it: auto scaling spelled out as the
    exports' default reads back as the default, and an LSI's partition key
    is the table's, named or not."""

    def plain(capacity: d.Capacity | None) -> d.Capacity | None:
        if capacity and capacity.auto_scaling == capacity.default_scaling:
            return dataclasses.replace(capacity, auto_scaling=None)
        return capacity

    return dataclasses.replace(
        by_name(table),
        capacity=plain(table.capacity),
        indexes=tuple(
            dataclasses.replace(
                i,
                capacity=plain(i.capacity),
                partition_key=i.partition_key if i.is_global else (),
            )
            for i in by_name(table).indexes
        ),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(designs())
@pytest.mark.parametrize(("filename", "export", "kind"), EXPORTS, ids=lambda e: "")
def test_any_table_reads_back_with_its_auto_scaling(filename, export, kind, design):
    (imported,) = read(export(design), filename).designs
    assert _as_held(imported.table) == _as_held(design.table)


def test_auto_scaling_ranges_and_a_fixed_capacity_are_exported_as_they_are():
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    table = design.table
    scaled = d.AutoScaling(d.ScalingRange(2, 80, 50), None)
    table = dataclasses.replace(
        table,
        capacity=dataclasses.replace(table.capacity, auto_scaling=scaled),
        indexes=tuple(
            dataclasses.replace(
                i,
                capacity=dataclasses.replace(
                    i.capacity, auto_scaling=d.AUTO_SCALING_OFF
                ),
            )
            if i.capacity
            else i
            for i in table.indexes
        ),
    )
    design = dataclasses.replace(design, table=table)
    hcl = export_terraform(design)
    # One target, its policy's target written out: no variable to set.
    assert hcl.count('resource "aws_appautoscaling_target"') == 1
    assert "min_capacity       = 2" in hcl and "max_capacity       = 80" in hcl
    assert "target_value = 50" in hcl
    assert "autoscaling_target_utilization" not in hcl
    template = json.loads(export_cloudformation_json(design))
    assert "AutoScalingTargetUtilization" not in template["Parameters"]
    (policy,) = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::ApplicationAutoScaling::ScalingPolicy"
    ]
    assert policy["TargetTrackingScalingPolicyConfiguration"]["TargetValue"] == 50
    for filename, export, _ in EXPORTS:
        imported, notes = only_design(export(design), filename)
        assert by_name(imported.table) == by_name(table), filename
        assert (
            "auto scaling kept: the table: reads 2 to 80 units at 50%, writes not "
            "scaled; GSI GSI1: none (the capacity stays as provisioned)"
        ) in notes


def test_a_scaling_policys_cooldowns_and_scale_in_are_exported_and_read_back():
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    reads = d.ScalingRange(2, 80, 50, 300, 0, True)
    writes = d.ScalingRange(1, 20, 70, scale_out_cooldown=60)
    table = dataclasses.replace(
        design.table,
        capacity=dataclasses.replace(
            design.table.capacity, auto_scaling=d.AutoScaling(reads, writes)
        ),
    )
    design = dataclasses.replace(design, table=table)
    template = json.loads(export_cloudformation_json(design))["Resources"]
    config = template["TableReadScalingPolicy"]["Properties"][
        "TargetTrackingScalingPolicyConfiguration"
    ]
    assert (
        config["DisableScaleIn"],
        config["ScaleInCooldown"],
        config["ScaleOutCooldown"],
    ) == (True, 300, 0)
    config = template["TableWriteScalingPolicy"]["Properties"][
        "TargetTrackingScalingPolicyConfiguration"
    ]
    assert config["ScaleOutCooldown"] == 60
    assert "DisableScaleIn" not in config and "ScaleInCooldown" not in config
    terraform = export_terraform(design)
    for line in ("disable_scale_in   = true", "scale_in_cooldown  = 300"):
        assert line in terraform
    for filename, export, _ in EXPORTS:
        imported, notes = only_design(export(design), filename)
        assert imported.table.capacity == table.capacity, filename
        assert any(
            "reads 2 to 80 units at 50% (never scales in, 300 s between scale-ins, "
            "0 s between scale-outs), writes 1 to 20 units at 70% (60 s between "
            "scale-outs)" in n
            for n in notes
        )


POLICY_TEMPLATE = """\
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PROVISIONED
      ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 5}
      AttributeDefinitions: [{AttributeName: PK, AttributeType: S}]
      KeySchema: [{AttributeName: PK, KeyType: HASH}]
  ReadTarget:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      MinCapacity: 5
      MaxCapacity: 100
      ResourceId: !Sub table/${Orders}
      ScalableDimension: dynamodb:table:ReadCapacityUnits
      ServiceNamespace: dynamodb
  ReadPolicy:
    Type: AWS::ApplicationAutoScaling::ScalingPolicy
    Properties:
      PolicyName: reads
      PolicyType: TargetTrackingScaling
      ScalingTargetId: !Ref ReadTarget
      TargetTrackingScalingPolicyConfiguration:
        TargetValue: 60
        DisableScaleIn: "true"
        ScaleInCooldown: COOLDOWN
        ScaleOutCooldown: 30
        PredefinedMetricSpecification:
          PredefinedMetricType: DynamoDBReadCapacityUtilization
"""


def test_a_templates_scaling_policy_settings_are_kept_or_named():
    design, notes = only_design(POLICY_TEMPLATE.replace("COOLDOWN", "600"))
    assert design.table.capacity.auto_scaling == d.AutoScaling(
        d.ScalingRange(5, 100, 60, 600, 30, True), None
    )
    # A value Application Auto Scaling would refuse is left out, and said.
    design, notes = only_design(POLICY_TEMPLATE.replace("COOLDOWN", "soon"))
    assert design.table.capacity.auto_scaling == d.AutoScaling(
        d.ScalingRange(5, 100, 60, None, 30, True), None
    )
    assert (
        "ScaleInCooldown of the table's reads left out: expected whole seconds, "
        "found 'soon'"
    ) in notes


def test_a_terraform_scaling_policys_settings_are_kept():
    text = TERRAFORM_FILE_SCALED
    design, _ = only_design(text, "main.tf")
    assert design.table.capacity.auto_scaling == d.AutoScaling(
        None, d.ScalingRange(5, 50, 70, None, 45, True)
    )


TERRAFORM_FILE_SCALED = """\
resource "aws_dynamodb_table" "orders" {
  name           = "orders"
  billing_mode   = "PROVISIONED"
  read_capacity  = 5
  write_capacity = 5
  hash_key       = "PK"
  attribute {
    name = "PK"
    type = "S"
  }
}
resource "aws_appautoscaling_target" "writes" {
  max_capacity       = 50
  min_capacity       = 5
  resource_id        = "table/${aws_dynamodb_table.orders.name}"
  scalable_dimension = "dynamodb:table:WriteCapacityUnits"
  service_namespace  = "dynamodb"
}
resource "aws_appautoscaling_policy" "writes" {
  name               = "writes"
  policy_type        = "TargetTrackingScaling"
  resource_id        = aws_appautoscaling_target.writes.resource_id
  scalable_dimension = aws_appautoscaling_target.writes.scalable_dimension
  service_namespace  = aws_appautoscaling_target.writes.service_namespace
  target_tracking_scaling_policy_configuration {
    predefined_metric_specification {
      predefined_metric_type = "DynamoDBWriteCapacityUtilization"
    }
    target_value       = 70
    disable_scale_in   = true
    scale_out_cooldown = 45
  }
}
"""


SAM_TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage: {Type: String, Default: dev}
Resources:
  Sessions:
    Type: AWS::Serverless::SimpleTable
    Properties:
      TableName: !Sub "sessions-${Stage}"
      PrimaryKey: {Name: sessionId, Type: String}
      ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 2}
      SSESpecification: {SSEEnabled: true}
      Tags:
        team: identity
        Stage: !Ref Stage
  Counters:
    Type: AWS::Serverless::SimpleTable
    Properties:
      PrimaryKey: {Name: n, Type: Number}
  Defaults:
    Type: AWS::Serverless::SimpleTable
"""


def test_sam_simple_tables_are_read():
    found = read(SAM_TEMPLATE)
    assert found.kind == CLOUDFORMATION and found.ok, found.problems
    sessions, counters, defaults = (design.table for design in found.designs)
    assert sessions.name == "sessions-dev"
    assert sessions.key_attributes == (d.KeyAttribute("sessionId", "S"),)
    assert sessions.billing_mode == "PROVISIONED"
    assert (sessions.capacity.read, sessions.capacity.write) == (5, 2)
    assert sessions.encryption == d.Encryption("AWS_MANAGED")
    # Tags are a map in SAM; the one set from a parameter is per deployment.
    assert sessions.tags == (("team", "identity"),)
    assert any(
        "the tag Stage is set from the parameter Stage" in n for n in found.notes
    )
    # Without ProvisionedThroughput a SimpleTable is on demand, and without
    # PrimaryKey its key is id, a String.
    assert counters.key_attributes == (d.KeyAttribute("n", "N"),)
    assert counters.billing_mode == "PAY_PER_REQUEST"
    assert defaults.key_attributes == (d.KeyAttribute("id", "S"),)
    assert defaults.billing_mode == "PAY_PER_REQUEST"


@pytest.mark.parametrize(
    ("old", "new", "path", "message"),
    [
        (
            "{Name: n, Type: Number}",
            "{Name: n, Type: Integer}",
            "Resources.Counters.Properties.PrimaryKey.Type",
            "Counters: 'Integer' is not one of String, Number, Binary",
        ),
        (
            "        team: identity\n        Stage: !Ref Stage\n",
            "        - {Key: team, Value: identity}\n",
            "Resources.Sessions.Properties.Tags",
            "sessions-dev: AWS::Serverless::SimpleTable takes its tags as a map of "
            "name to value "
            "(Tags: {Name: value}), found a list",
        ),
    ],
)
def test_a_simple_table_that_sam_refuses_says_what_it_takes(old, new, path, message):
    found = read(SAM_TEMPLATE.replace(old, new))
    assert [(p.path, p.message) for p in found.problems if p.is_error] == [
        (path, message)
    ]


FOR_EACH = """\
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::LanguageExtensions
Parameters:
  Names: {Type: CommaDelimitedList, Default: "orders,users"}
Resources:
  Fn::ForEach::Tables:
    - Name
    - !Ref Names
    - "${Name}Table":
        Type: AWS::DynamoDB::Table
        Properties:
          TableName: !Ref Name
          BillingMode: PAY_PER_REQUEST
          AttributeDefinitions: [{AttributeName: PK, AttributeType: S}]
          KeySchema: [{AttributeName: PK, KeyType: HASH}]
"""
FOR_EACH_MESSAGE = (
    "Resources.Fn::ForEach::Tables: Fn::ForEach (the AWS::LanguageExtensions "
    "transform) is not expanded by the importer, so the tables it makes are not "
    "read: write them out, or import the template CloudFormation processed (`aws "
    "cloudformation get-template --stack-name STACK --template-stage Processed`)"
)


def test_a_fn_for_each_loop_says_it_is_not_expanded_and_what_to_do():
    found = read(FOR_EACH)
    assert [p.message for p in found.problems] == [FOR_EACH_MESSAGE]
    # Beside a table written out, the loop's tables are missing: a note says so.
    text = FOR_EACH + (
        "  Plain:\n    Type: AWS::DynamoDB::Table\n    Properties:\n"
        "      BillingMode: PAY_PER_REQUEST\n"
        "      AttributeDefinitions: [{AttributeName: PK, AttributeType: S}]\n"
        "      KeySchema: [{AttributeName: PK, KeyType: HASH}]\n"
    )
    design, notes = only_design(text)
    assert design.table.name == "Plain"
    assert FOR_EACH_MESSAGE in notes


TAGGED = """\
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{AttributeName: PK, AttributeType: S}]
      KeySchema: [{AttributeName: PK, KeyType: HASH}]
      Tags:
"""
TAGGED_TF = """\
resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "PK"
  attribute {
    name = "PK"
    type = "S"
  }
  TAGS
}
"""


@pytest.mark.parametrize(
    ("text", "filename", "errors"),
    [
        (
            TAGGED + "        - Name: orders\n        - {Key: team, Value: data}\n",
            "",
            [
                (
                    "Resources.Orders.Properties.Tags[0]",
                    "expected a tag {Key: NAME, Value: VALUE}, found {Name: orders} "
                    "(a name and its value): write {Key: Name, Value: orders}",
                )
            ],
        ),
        (
            TAGGED + "        Name: orders\n        team: data\n",
            "",
            [
                (
                    "Resources.Orders.Properties.Tags",
                    "AWS::DynamoDB::Table takes its tags as a list of {Key, Value}, "
                    "found a map (the form of SAM's SimpleTable): write Tags: "
                    "[{Key: Name, Value: orders}, {Key: team, Value: data}]",
                )
            ],
        ),
        (
            TAGGED_TF.replace("TAGS", 'tags {\n    Name = "orders"\n  }'),
            "main.tf",
            [
                (
                    'resource.aws_dynamodb_table."orders".tags',
                    "written as a block, tags { ... } (Terraform 0.11's syntax), "
                    "which Terraform 0.12 and later refuse: tags is an argument, "
                    'tags = { Name = "orders" }',
                )
            ],
        ),
    ],
    ids=["CloudFormation name: value", "CloudFormation map", "Terraform 0.11 block"],
)
def test_tags_in_a_form_the_resource_refuses_name_the_form_it_takes(
    text, filename, errors
):
    found = read(text, filename)
    assert [(p.path, p.message) for p in found.problems if p.is_error] == errors


def test_tags_in_the_form_the_resource_takes_are_read():
    design, _ = only_design(TAGGED + "        - {Key: team, Value: data}\n")
    assert design.table.tags == (("team", "data"),)
    design, _ = only_design(
        TAGGED_TF.replace("TAGS", 'tags = { team = "data" }'), "main.tf"
    )
    assert design.table.tags == (("team", "data"),)
