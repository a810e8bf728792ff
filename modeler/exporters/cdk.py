"""The design's table as an AWS CDK v2 construct, in TypeScript and in Python:
a class taking a scope and an id, with props for what varies per
environment (a table name prefix, the removal policy, on-demand billing for
a provisioned design, the Environment tag, the auto scaling target), that
declares the table, its indexes, capacity, auto scaling, TTL, stream,
point-in-time recovery, encryption, table class, deletion protection and
tags; and, at the end of the same file, a minimal app that instantiates it
in a stack, so the file is both a module to import and an app to synthesise.

Both flavours are written from one description of the table (`_Spec`), so
they declare the same table; a test synthesises them and compares the
result with the CloudFormation export property by property.

User text (names, tags, key ARNs) goes through the literal functions of
`literals`, never spliced in as code. Pure Python; nothing here imports
Django."""

from __future__ import annotations

import re
from dataclasses import dataclass

from modeler.design import model as d
from modeler.exporters.literals import comment_text, python_string, typescript_string
from modeler.exporters.tabledef import (
    DEFAULT_TARGET_UTILISATION,
    ScalingTarget,
    logical_id,
    scaling_targets,
)

# Pinned in the header's install line; the test synthesises with these.
CDK_VERSION = "2.275.0"
CONSTRUCTS_VERSION = "10.8.1"

_ATTRIBUTE_TYPES = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}
# The design's encryption that the L2 Table writes as CloudFormation does.
# AWS_OWNED is the Table's default when `encryption` is left out (its
# TableEncryption.DEFAULT would write SSEEnabled: false, which the export
# does not); KMS is set on the resource itself (see _WHY_KMS).
_ENCRYPTION = {"AWS_MANAGED": "AWS_MANAGED"}

WHY_CLASSIC_TABLE = (
    "The classic Table, not TableV2: TableV2 makes an AWS::DynamoDB::GlobalTable, "
    "another resource type than the workbench's CloudFormation and Terraform "
    "exports deploy, and CloudFormation cannot turn one into the other in place "
    "(the table would be replaced, or retained and imported by hand). The "
    "classic Table makes the same AWS::DynamoDB::Table as those exports."
)


@dataclass(frozen=True)
class _Spec:
    """What both flavours write, from the design."""

    class_name: str
    stack_name: str
    design: d.Design
    provisioned: bool
    targets: tuple[ScalingTarget, ...]

    @property
    def table(self) -> d.Table:
        return self.design.table

    @property
    def environment_tag(self) -> bool:
        """Whether the Environment tag comes from a prop (the design sets
        none), as the CloudFormation export's Environment parameter."""
        return "Environment" not in dict(self.table.tags)

    @property
    def target_prop(self) -> bool:
        """Whether some target is left to the export's default utilisation."""
        return any(t.target is None for t in self.targets)


def _spec(design: d.Design) -> _Spec:
    stem = logical_id(design.table.name)
    if not stem[0].isalpha():
        stem = "T" + stem
    return _Spec(
        class_name=f"{stem}Table",
        stack_name=f"{stem}Stack",
        design=design,
        provisioned=design.table.billing_mode == "PROVISIONED",
        targets=tuple(scaling_targets(design.table)),
    )


def _header(spec: _Spec, prefix: str, install: str, run: str) -> list[str]:
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


def _comment_lines(prefix: str, text: str, indent: str, width: int = 88) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(indent) + len(prefix) + 1 + len(line) + 1 + len(word) > width:
            lines.append(f"{indent}{prefix} {line}")
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(f"{indent}{prefix} {line}")
    return lines


# TypeScript


def export_cdk_typescript(design: d.Design) -> str:
    spec = _spec(design)
    table = spec.table
    s = typescript_string
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
        '  /** Put before the table\'s name, e.g. "staging-". */',
        "  readonly tableNamePrefix?: string;",
        "  /** What becomes of the table when the stack no longer holds it: RETAIN",
        "   * by default, so the data outlives the stack. */",
        "  readonly removalPolicy?: cdk.RemovalPolicy;",
    ]
    if spec.provisioned:
        out += [
            "  /** Bill per request rather than the design's provisioned capacity",
            "   * (a stack that takes little traffic): no capacity, no auto "
            "scaling. */",
            "  readonly onDemand?: boolean;",
        ]
    if spec.environment_tag:
        out += [
            '  /** The table\'s Environment tag; "dev" by default. */',
            "  readonly environment?: string;",
        ]
    if spec.target_prop:
        out += [
            "  /** The consumed/provisioned capacity percentage auto scaling keeps;",
            f"   * {DEFAULT_TARGET_UTILISATION} by default. */",
            "  readonly autoScalingTargetUtilization?: number;",
        ]
    out += ["}", ""]
    out += _comment_lines("//", WHY_CLASSIC_TABLE, "")
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
    ]
    if spec.provisioned:
        out.append("    const provisioned = !props.onDemand;")
    out.append('    this.table = new dynamodb.Table(this, "Table", {')
    out.append(f'      tableName: (props.tableNamePrefix ?? "") + {s(table.name)},')
    out.append(f"      partitionKey: {_ts_attribute(table.partition_key)},")
    if table.sort_key:
        out.append(f"      sortKey: {_ts_attribute(table.sort_key)},")
    if spec.provisioned and table.capacity:
        out += [
            "      billingMode: provisioned",
            "        ? dynamodb.BillingMode.PROVISIONED",
            "        : dynamodb.BillingMode.PAY_PER_REQUEST,",
            f"      readCapacity: provisioned ? {table.capacity.read} : undefined,",
            f"      writeCapacity: provisioned ? {table.capacity.write} : undefined,",
        ]
    else:
        out.append("      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,")
    if table.ttl_attribute:
        out.append(f"      timeToLiveAttribute: {s(table.ttl_attribute)},")
    if table.stream_view_type:
        out.append(f"      stream: dynamodb.StreamViewType.{table.stream_view_type},")
    out += [
        "      pointInTimeRecoverySpecification: {",
        "        pointInTimeRecoveryEnabled: "
        f"{_ts_bool(table.point_in_time_recovery)},",
        "      },",
    ]
    if table.encryption.type in _ENCRYPTION:
        kind = _ENCRYPTION[table.encryption.type]
        out.append(f"      encryption: dynamodb.TableEncryption.{kind},")
    out += [
        f"      tableClass: dynamodb.TableClass.{table.table_class},",
        f"      deletionProtection: {_ts_bool(table.deletion_protection)},",
        "      removalPolicy: props.removalPolicy ?? cdk.RemovalPolicy.RETAIN,",
        "    });",
    ]
    for index in table.indexes:
        out += _ts_index(spec, index)
    if table.encryption.type == "KMS":
        out += _comment_lines("//", _WHY_KMS, "    ")
        out += [
            "    const resource = this.table.node.defaultChild as dynamodb.CfnTable;",
            "    resource.sseSpecification = {",
            "      sseEnabled: true,",
            '      sseType: "KMS",',
        ]
        if table.encryption.kms_key:
            out.append(f"      kmsMasterKeyId: {s(table.encryption.kms_key)},")
        out.append("    };")
    if spec.targets:
        out.append("    if (provisioned) {")
        for target in spec.targets:
            out += _ts_scaling(target)
        out.append("    }")
    for key, value in table.tags:
        out.append(f"    cdk.Tags.of(this.table).add({s(key)}, {s(value)});")
    if spec.environment_tag:
        out.append(
            '    cdk.Tags.of(this.table).add("Environment", '
            'props.environment ?? "dev");'
        )
    out += [
        "  }",
        "}",
        "",
        "// The app, when this file is run rather than imported.",
        "if (require.main === module) {",
        "  const app = new cdk.App();",
        f'  const stack = new cdk.Stack(app, "{spec.stack_name}");',
        f'  new {spec.class_name}(stack, "Table");',
        "  app.synth();",
        "}",
    ]
    return "\n".join(out) + "\n"


_WHY_KMS = (
    "The KMS key as the design names it (an ARN or an alias, or none for the "
    "AWS managed key): the L2 Table takes only a key object, whose ARN it "
    "would write instead, so the resource's encryption is set directly."
)


def _ts_bool(value: bool) -> str:
    return "true" if value else "false"


def _ts_attribute(attribute: d.KeyAttribute) -> str:
    kind = _ATTRIBUTE_TYPES[attribute.type]
    return (
        f"{{ name: {typescript_string(attribute.name)}, "
        f"type: dynamodb.AttributeType.{kind} }}"
    )


def _ts_keys(one: str, many: str, attributes: tuple[d.KeyAttribute, ...]) -> list[str]:
    if not attributes:
        return []
    if len(attributes) == 1:
        return [f"      {one}: {_ts_attribute(attributes[0])},"]
    # A multi-attribute key: its attributes in order.
    return (
        [f"      {many}: ["]
        + [f"        {_ts_attribute(a)}," for a in attributes]
        + ["      ],"]
    )


def _ts_index(spec: _Spec, index: d.Index) -> list[str]:
    s = typescript_string
    projection = index.projection
    if index.is_global:
        out = ["    this.table.addGlobalSecondaryIndex({"]
        out.append(f"      indexName: {s(index.name)},")
        out += _ts_keys("partitionKey", "partitionKeys", index.partition_key)
        out += _ts_keys("sortKey", "sortKeys", index.sort_key)
    else:
        out = ["    this.table.addLocalSecondaryIndex({"]
        out.append(f"      indexName: {s(index.name)},")
        out += _ts_keys("sortKey", "sortKeys", index.sort_key[:1])
    out.append(f"      projectionType: dynamodb.ProjectionType.{projection.type},")
    if projection.type == "INCLUDE":
        names = ", ".join(s(a) for a in projection.attributes)
        out.append(f"      nonKeyAttributes: [{names}],")
    if index.is_global and spec.provisioned and index.capacity:
        capacity = index.capacity
        out.append(
            "      ...(provisioned ? { "
            f"readCapacity: {capacity.read}, writeCapacity: {capacity.write} "
            "} : {}),"
        )
    out.append("    });")
    return out


def _ts_scaling(target: ScalingTarget) -> list[str]:
    dimension = target.dimension.capitalize()
    limits = (
        f"{{ minCapacity: {target.min_capacity}, maxCapacity: {target.max_capacity} }}"
    )
    if target.index:
        call = (
            f"this.table.autoScaleGlobalSecondaryIndex{dimension}Capacity("
            f"{typescript_string(target.index)}, {limits})"
        )
    else:
        call = f"this.table.autoScale{dimension}Capacity({limits})"
    utilisation = (
        str(target.target)
        if target.target is not None
        else f"props.autoScalingTargetUtilization ?? {DEFAULT_TARGET_UTILISATION}"
    )
    options = [f"targetUtilizationPercent: {utilisation}"]
    if target.scale_in_cooldown is not None:
        options.append(
            f"scaleInCooldown: cdk.Duration.seconds({target.scale_in_cooldown})"
        )
    if target.scale_out_cooldown is not None:
        options.append(
            f"scaleOutCooldown: cdk.Duration.seconds({target.scale_out_cooldown})"
        )
    if target.disable_scale_in:
        options.append("disableScaleIn: true")
    return [
        f"      {call}",
        "        .scaleOnUtilization({",
        *(f"          {option}," for option in options),
        "        });",
    ]


# Python


def export_cdk_python(design: d.Design) -> str:
    spec = _spec(design)
    table = spec.table
    s = python_string
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
        *(["import typing", ""] if table.encryption.type == "KMS" else []),
        "import aws_cdk as cdk",
        "from aws_cdk import aws_dynamodb as dynamodb",
        "from constructs import Construct",
        "",
        "",
    ]
    parameters = [
        "        scope: Construct,",
        "        construct_id: str,",
        "        *,",
        '        table_name_prefix: str = "",',
        "        removal_policy: cdk.RemovalPolicy = cdk.RemovalPolicy.RETAIN,",
    ]
    docs = [
        '    table_name_prefix goes before the table\'s name ("staging-");',
        "    removal_policy says what becomes of the table when the stack no longer",
        "    holds it (RETAIN: the data outlives the stack)",
    ]
    if spec.provisioned:
        parameters.append("        on_demand: bool = False,")
        docs[-1] += ";"
        docs += [
            "    on_demand bills per request rather than the design's provisioned",
            "    capacity (no capacity, no auto scaling)",
        ]
    if spec.environment_tag:
        parameters.append('        environment: str = "dev",')
        docs[-1] += ";"
        docs.append("    environment is the table's Environment tag")
    if spec.target_prop:
        parameters.append(
            "        auto_scaling_target_utilization: int = "
            f"{DEFAULT_TARGET_UTILISATION},"
        )
        docs[-1] += ";"
        docs += [
            "    auto_scaling_target_utilization is the consumed/provisioned",
            "    capacity percentage auto scaling keeps",
        ]
    docs[-1] += "."
    out += [f"class {spec.class_name}(Construct):"]
    out += ['    """' + "The design's table, with its indexes and settings."]
    out += ["", *docs, ""]
    out += _comment_lines("", WHY_CLASSIC_TABLE, "   ")
    out += ['    """', ""]
    out += ["    def __init__(", "        self,", *parameters, "    ) -> None:"]
    out.append("        super().__init__(scope, construct_id)")
    if spec.provisioned:
        out.append("        provisioned = not on_demand")
    out += [
        "        self.table = dynamodb.Table(",
        "            self,",
        '            "Table",',
        f"            table_name=table_name_prefix + {s(table.name)},",
        f"            partition_key={_py_attribute(table.partition_key)},",
    ]
    if table.sort_key:
        out.append(f"            sort_key={_py_attribute(table.sort_key)},")
    if spec.provisioned and table.capacity:
        out += [
            "            billing_mode=dynamodb.BillingMode.PROVISIONED",
            "            if provisioned",
            "            else dynamodb.BillingMode.PAY_PER_REQUEST,",
            f"            read_capacity={table.capacity.read} if provisioned "
            "else None,",
            f"            write_capacity={table.capacity.write} if provisioned "
            "else None,",
        ]
    else:
        out.append("            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,")
    if table.ttl_attribute:
        out.append(f"            time_to_live_attribute={s(table.ttl_attribute)},")
    if table.stream_view_type:
        out.append(
            f"            stream=dynamodb.StreamViewType.{table.stream_view_type},"
        )
    out += [
        "            point_in_time_recovery_specification=(",
        "                dynamodb.PointInTimeRecoverySpecification(",
        "                    point_in_time_recovery_enabled="
        f"{table.point_in_time_recovery}",
        "                )",
        "            ),",
    ]
    if table.encryption.type in _ENCRYPTION:
        kind = _ENCRYPTION[table.encryption.type]
        out.append(f"            encryption=dynamodb.TableEncryption.{kind},")
    out += [
        f"            table_class=dynamodb.TableClass.{table.table_class},",
        f"            deletion_protection={table.deletion_protection},",
        "            removal_policy=removal_policy,",
        "        )",
    ]
    for index in table.indexes:
        out += _py_index(spec, index)
    if table.encryption.type == "KMS":
        out += _comment_lines("#", _WHY_KMS, "        ")
        out += [
            "        resource = typing.cast(dynamodb.CfnTable, "
            "self.table.node.default_child)",
            "        resource.sse_specification = "
            "dynamodb.CfnTable.SSESpecificationProperty(",
            "            sse_enabled=True,",
            '            sse_type="KMS",',
        ]
        if table.encryption.kms_key:
            out.append(f"            kms_master_key_id={s(table.encryption.kms_key)},")
        out.append("        )")
    if spec.targets:
        out.append("        if provisioned:")
        for target in spec.targets:
            out += _py_scaling(target)
    for key, value in table.tags:
        out.append(f"        cdk.Tags.of(self.table).add({s(key)}, {s(value)})")
    if spec.environment_tag:
        out.append('        cdk.Tags.of(self.table).add("Environment", environment)')
    out += [
        "",
        "",
        "# The app, when this file is run rather than imported.",
        'if __name__ == "__main__":',
        "    app = cdk.App()",
        f'    stack = cdk.Stack(app, "{spec.stack_name}")',
        f'    {spec.class_name}(stack, "Table")',
        "    app.synth()",
    ]
    return "\n".join(out) + "\n"


def _py_attribute(attribute: d.KeyAttribute) -> str:
    kind = _ATTRIBUTE_TYPES[attribute.type]
    return (
        f"dynamodb.Attribute(name={python_string(attribute.name)}, "
        f"type=dynamodb.AttributeType.{kind})"
    )


def _py_keys(one: str, many: str, attributes: tuple[d.KeyAttribute, ...]) -> list[str]:
    if not attributes:
        return []
    if len(attributes) == 1:
        return [f"            {one}={_py_attribute(attributes[0])},"]
    return (
        [f"            {many}=["]
        + [f"                {_py_attribute(a)}," for a in attributes]
        + ["            ],"]
    )


def _py_index(spec: _Spec, index: d.Index) -> list[str]:
    s = python_string
    projection = index.projection
    if index.is_global:
        out = ["        self.table.add_global_secondary_index("]
        out.append(f"            index_name={s(index.name)},")
        out += _py_keys("partition_key", "partition_keys", index.partition_key)
        out += _py_keys("sort_key", "sort_keys", index.sort_key)
    else:
        out = ["        self.table.add_local_secondary_index("]
        out.append(f"            index_name={s(index.name)},")
        out += _py_keys("sort_key", "sort_keys", index.sort_key[:1])
    out.append(
        f"            projection_type=dynamodb.ProjectionType.{projection.type},"
    )
    if projection.type == "INCLUDE":
        names = ", ".join(s(a) for a in projection.attributes)
        out.append(f"            non_key_attributes=[{names}],")
    if index.is_global and spec.provisioned and index.capacity:
        capacity = index.capacity
        out.append(
            f"            read_capacity={capacity.read} if provisioned else None,"
        )
        out.append(
            f"            write_capacity={capacity.write} if provisioned else None,"
        )
    out.append("        )")
    return out


def _py_scaling(target: ScalingTarget) -> list[str]:
    dimension = target.dimension
    limits = f"min_capacity={target.min_capacity}, max_capacity={target.max_capacity}"
    if target.index:
        call = (
            f"self.table.auto_scale_global_secondary_index_{dimension}_capacity("
            f"{python_string(target.index)}, {limits})"
        )
    else:
        call = f"self.table.auto_scale_{dimension}_capacity({limits})"
    utilisation = (
        str(target.target)
        if target.target is not None
        else "auto_scaling_target_utilization"
    )
    options = [f"target_utilization_percent={utilisation}"]
    if target.scale_in_cooldown is not None:
        options.append(
            f"scale_in_cooldown=cdk.Duration.seconds({target.scale_in_cooldown})"
        )
    if target.scale_out_cooldown is not None:
        options.append(
            f"scale_out_cooldown=cdk.Duration.seconds({target.scale_out_cooldown})"
        )
    if target.disable_scale_in:
        options.append("disable_scale_in=True")
    return [
        f"            {call}.scale_on_utilization(",
        *(f"                {option}," for option in options),
        "            )",
    ]


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
