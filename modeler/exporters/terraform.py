"""Terraform for a design's table: an `aws_dynamodb_table` with every key,
index and setting, variables for the table name and environment, and for a
provisioned table Application Auto Scaling targets and target-tracking
policies for the table and each GSI. Formatted as `terraform fmt` would."""

from __future__ import annotations

from modeler.design import model as d
from modeler.exporters.hcl import Block, Raw, render
from modeler.exporters.literals import comment_text, hcl_string
from modeler.exporters.tabledef import (
    DEFAULT_TARGET_UTILISATION,
    ScalingTarget,
    attribute_definitions,
    identifier,
    is_kms_arn,
    scaling_targets,
)

AWS_PROVIDER_VERSION = ">= 6.0"


def export_terraform(
    design: d.Design,
    *,
    target_utilisation: int = DEFAULT_TARGET_UTILISATION,
    ttl_off: str = "",
) -> str:
    """`ttl_off`: a TTL attribute to write as disabled when the table has no
    TTL (a migration's stage that turns it off: without the block the
    provider leaves TTL as it is)."""
    table = design.table
    name = identifier(table.name).lower()
    blocks: list[Block] = [_terraform_block()]
    targets = scaling_targets(table)
    blocks += _variables(design, target_utilisation, targets)
    kms_alias = (
        table.encryption.type == "KMS"
        and table.encryption.kms_key
        and not is_kms_arn(table.encryption.kms_key)
    )
    if kms_alias:
        alias = Block("data", ("aws_kms_alias", "table"))
        alias.set("name", table.encryption.kms_key)
        blocks.append(alias)
    blocks.append(_table(design, name, bool(kms_alias), ttl_off))
    for target in targets:
        resource_id = _interpolated(
            "table/",
            Raw(f"aws_dynamodb_table.{name}.name"),
            f"/index/{target.index}" if target.index else "",
        )
        scalable = Block("resource", ("aws_appautoscaling_target", target.label))
        scalable.set("max_capacity", target.max_capacity)
        scalable.set("min_capacity", target.min_capacity)
        scalable.set("resource_id", resource_id)
        scalable.set("scalable_dimension", target.scalable_dimension)
        scalable.set("service_namespace", "dynamodb")
        blocks.append(scalable)
        ref = f"aws_appautoscaling_target.{target.label}"
        policy = Block("resource", ("aws_appautoscaling_policy", target.label))
        policy.set(
            "name",
            _interpolated(f"{target.metric}:", Raw(f"{ref}.resource_id")),
        )
        policy.set("policy_type", "TargetTrackingScaling")
        policy.set("resource_id", Raw(f"{ref}.resource_id"))
        policy.set("scalable_dimension", Raw(f"{ref}.scalable_dimension"))
        policy.set("service_namespace", Raw(f"{ref}.service_namespace"))
        config = policy.block("target_tracking_scaling_policy_configuration")
        metric = config.block("predefined_metric_specification")
        metric.set("predefined_metric_type", target.metric)
        config.blank()
        config.set(
            "target_value",
            target.target
            if target.target is not None
            else Raw("var.autoscaling_target_utilization"),
        )
        if target.disable_scale_in:
            config.set("disable_scale_in", True)
        if target.scale_in_cooldown is not None:
            config.set("scale_in_cooldown", target.scale_in_cooldown)
        if target.scale_out_cooldown is not None:
            config.set("scale_out_cooldown", target.scale_out_cooldown)
        blocks.append(policy)
    blocks += _outputs(name, table)
    header = (
        "# Terraform for the DynamoDB table of the design "
        f"“{comment_text(design.name)}”,\n"
        "# exported by the single-table workbench.\n\n"
    )
    return render(blocks, header)


def _interpolated(*parts: str | Raw) -> Raw:
    """A quoted string of literal text (escaped, whatever a name holds) and
    `${...}` interpolations of the references we wrote."""
    body = "".join(
        f"${{{part.text}}}" if isinstance(part, Raw) else hcl_string(part)[1:-1]
        for part in parts
    )
    return Raw(f'"{body}"')


def _terraform_block() -> Block:
    block = Block("terraform")
    block.set("required_version", ">= 1.5")
    block.blank()
    providers = block.block("required_providers")
    providers.map(
        "aws",
        [("source", "hashicorp/aws"), ("version", AWS_PROVIDER_VERSION)],
    )
    return block


def _variables(
    design: d.Design, target_utilisation: int, targets: list[ScalingTarget]
) -> list[Block]:
    table_name = Block("variable", ("table_name",))
    table_name.set("description", "The name of the DynamoDB table.")
    table_name.set("type", Raw("string"))
    table_name.set("default", design.table.name)
    environment = Block("variable", ("environment",))
    environment.set(
        "description",
        "The environment the table belongs to, set as its Environment tag.",
    )
    environment.set("type", Raw("string"))
    environment.set("default", "dev")
    out = [table_name]
    if "Environment" not in dict(design.table.tags):
        out.append(environment)
    if any(t.target is None for t in targets):
        target = Block("variable", ("autoscaling_target_utilization",))
        target.set(
            "description",
            "The consumed/provisioned capacity percentage auto scaling keeps.",
        )
        target.set("type", Raw("number"))
        target.set("default", target_utilisation)
        out.append(target)
    return out


def _key_lines(block: Block, index: d.Index) -> None:
    if len(index.partition_key) == 1 and len(index.sort_key) <= 1:
        block.set("hash_key", index.partition_key[0].name)
        if index.sort_key:
            block.set("range_key", index.sort_key[0].name)
    # Multi-attribute keys are written as key_schema blocks (below).


def _projection(block: Block, index: d.Index) -> None:
    block.set("projection_type", index.projection.type)
    if index.projection.type == "INCLUDE":
        block.set("non_key_attributes", list(index.projection.attributes))


def _table(design: d.Design, name: str, kms_alias: bool, ttl_off: str = "") -> Block:
    table = design.table
    block = Block("resource", ("aws_dynamodb_table", name))
    block.set("name", Raw("var.table_name"))
    block.set("billing_mode", table.billing_mode)
    block.set("hash_key", table.partition_key.name)
    if table.sort_key:
        block.set("range_key", table.sort_key.name)
    if table.billing_mode == "PROVISIONED" and table.capacity:
        block.set("read_capacity", table.capacity.read)
        block.set("write_capacity", table.capacity.write)
    if table.stream_view_type:
        block.set("stream_enabled", True)
        block.set("stream_view_type", table.stream_view_type)
    block.set("table_class", table.table_class)
    block.set("deletion_protection_enabled", table.deletion_protection)
    for attribute in attribute_definitions(table):
        child = block.block("attribute")
        child.set("name", attribute.name)
        child.set("type", attribute.type)
    for index in table.indexes:
        if index.is_global:
            child = block.block("global_secondary_index")
            child.set("name", index.name)
            _key_lines(child, index)
            _projection(child, index)
            if table.billing_mode == "PROVISIONED" and index.capacity:
                child.set("read_capacity", index.capacity.read)
                child.set("write_capacity", index.capacity.write)
            if len(index.partition_key) > 1 or len(index.sort_key) > 1:
                parts = (("HASH", index.partition_key), ("RANGE", index.sort_key))
                for kind, attrs in parts:
                    for attribute in attrs:
                        schema = child.block("key_schema")
                        schema.set("attribute_name", attribute.name)
                        schema.set("key_type", kind)
        else:
            child = block.block("local_secondary_index")
            child.set("name", index.name)
            child.set("range_key", index.sort_key[0].name)
            _projection(child, index)
    if table.ttl_attribute:
        ttl = block.block("ttl")
        ttl.set("attribute_name", table.ttl_attribute)
        ttl.set("enabled", True)
    elif ttl_off:
        ttl = block.block("ttl")
        ttl.set("attribute_name", ttl_off)
        ttl.set("enabled", False)
    pitr = block.block("point_in_time_recovery")
    pitr.set("enabled", table.point_in_time_recovery)
    if table.encryption.type != "AWS_OWNED":
        sse = block.block("server_side_encryption")
        sse.set("enabled", True)
        if table.encryption.type == "KMS" and table.encryption.kms_key:
            sse.set(
                "kms_key_arn",
                Raw("data.aws_kms_alias.table.target_key_arn")
                if kms_alias
                else table.encryption.kms_key,
            )
    block.blank()
    tags: list[tuple[str, object]] = list(table.tags)
    if "Environment" not in dict(table.tags):
        tags.append(("Environment", Raw("var.environment")))
    block.map("tags", tags)
    if scaling_targets(table):
        lifecycle = block.block("lifecycle")
        # Auto scaling changes the table's capacity; Terraform must not undo it.
        lifecycle.set("ignore_changes", [Raw("read_capacity"), Raw("write_capacity")])
    return block


def _outputs(name: str, table: d.Table) -> list[Block]:
    outputs = []
    for output, attribute, description in (
        ("table_name", "name", "The table's name."),
        ("table_arn", "arn", "The table's ARN."),
        ("stream_arn", "stream_arn", "The ARN of the table's stream."),
    ):
        if attribute == "stream_arn" and not table.stream_view_type:
            continue
        block = Block("output", (output,))
        block.set("description", description)
        block.set("value", Raw(f"aws_dynamodb_table.{name}.{attribute}"))
        outputs.append(block)
    return outputs
