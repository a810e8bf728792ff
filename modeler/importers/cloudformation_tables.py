"""A template's table resources (`AWS::DynamoDB::Table`, `GlobalTable`, SAM's
`SimpleTable`) as the `table` section of a design, their tags, and the
auto scaling resources that point at them.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from modeler.design.findings import Finding, error
from modeler.importers.cloudformation_intrinsics import NO_VALUE, Resolver, Unresolved
from modeler.importers.table_reader import TableReader
from modeler.importers.table_scaling import Scaling, apply_scaling, policy_settings
from modeler.importers.tables import (
    ImportedTable,
    design_document,
    kind_of,
    read_table_design,
    valid_table_name,
)

SIMPLE_TABLE = "AWS::Serverless::SimpleTable"
TABLE_TYPES = ("AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable", SIMPLE_TABLE)
# SAM's PrimaryKey types, and the key it gives a SimpleTable without one.
SIMPLE_TYPES = {"String": "S", "Number": "N", "Binary": "B"}
SIMPLE_KEY = {"Name": "id", "Type": "String"}


# --- Tables -----------------------------------------------------------------


def read_table(
    logical: str,
    resource: dict[str, Any],
    resolver: Resolver,
    scaling: list[Scaling],
    description: str,
) -> ImportedTable:
    path = f"Resources.{logical}.Properties"
    problems: list[Finding] = []
    notes: list[str] = []
    raw = resource.get("Properties")
    if raw is None and resource.get("Type") == SIMPLE_TABLE:
        raw = {}  # every property of a SimpleTable has a default
    if not isinstance(raw, dict):
        problems.append(
            error(
                "resource-not-object", path, f"expected an object, found {kind_of(raw)}"
            )
        )
        return read_table_design(logical, {}, problems, notes)
    props: dict[str, Any] = {}
    simple = resource.get("Type") == SIMPLE_TABLE
    for key, value in raw.items():
        if key == "Tags" and simple and isinstance(value, dict):
            value = [{"Key": k, "Value": v} for k, v in value.items()]
        elif key == "Tags" and isinstance(value, dict):
            problems.append(
                error(
                    "tags-as-map",
                    f"{path}.Tags",
                    f"{resource.get('Type')} takes its tags as a list of "
                    "{Key, Value}, found a map (the form of SAM's SimpleTable): "
                    f"write {_tag_list_example(value)}",
                )
            )
            continue
        elif key == "Tags" and simple and isinstance(value, list):
            problems.append(
                error(
                    "tags-as-list",
                    f"{path}.Tags",
                    f"{SIMPLE_TABLE} takes its tags as a map of name to value "
                    "(Tags: {Name: value}), found a list",
                )
            )
            continue
        if key == "Tags" and isinstance(value, list):
            props["Tags"] = _tags(value, resolver, notes)
            continue
        try:
            resolved = resolver.value(value)
        except Unresolved as exc:
            if key == "TableName":
                notes.append(
                    f"the table name is not known before deploy ({exc}); "
                    f"the design uses the logical id '{logical}'"
                )
            elif key == "Tags":
                notes.append(f"tags left out: {exc}")
            else:
                problems.append(error("property-invalid", f"{path}.{key}", str(exc)))
            continue
        if resolved is not NO_VALUE:
            props[key] = resolved
    if resource.get("Condition"):
        notes.append(
            f"the table {logical} exists only under the condition "
            f"{resource['Condition']}; imported as if it holds"
        )
    if resource.get("Type") == "AWS::DynamoDB::GlobalTable":
        scaling = list(scaling)
        props = _as_table(props, notes, scaling)
    elif simple:
        props = _simple_table(props, path, problems)
    if not isinstance(props.get("TableName") or "", str):
        problems.append(
            error(
                "table-name-not-text",
                f"{path}.TableName",
                f"expected the table's name, found {kind_of(props['TableName'])}",
            )
        )
        props.pop("TableName")
    table_name = valid_table_name(str(props.get("TableName") or logical), notes)
    reader = TableReader(path, problems, notes, what="the template")
    table = reader.table(props, table_name) if not problems else None
    if table is None:
        return read_table_design(table_name, {}, problems, notes)
    notes.extend(apply_scaling(table, scaling))
    notes.append(
        "a template describes the table, not its items: add entities with their "
        "key templates, then the access patterns"
    )
    text = "Imported from a CloudFormation template"
    document = design_document(
        table_name,
        table,
        description=f"{text}: {description}" if description else f"{text}.",
    )
    return read_table_design(table_name, document, problems, notes)


def _tags(
    tags: list[Any], resolver: Resolver, notes: list[str]
) -> list[dict[str, Any]]:
    """The tags a design keeps: a tag whose value is a parameter (the
    environment a stack is deployed to, say) differs from one deployment
    to the next, so it is left out with a note, as is one that cannot be
    resolved."""
    out = []
    for tag in tags:
        if not isinstance(tag, dict):
            out.append(tag)  # the table reader says what is wrong with it
            continue
        key = tag.get("Key")
        parameter = resolver.parameter_in(tag.get("Value"))
        try:
            if parameter:
                default = resolver.value(tag.get("Value"))
                notes.append(
                    f"the tag {key} is set from the parameter {parameter} at "
                    f"deploy (default '{default}'); left out of the design"
                )
                continue
            out.append(resolver.value(tag))
        except Unresolved as exc:
            notes.append(f"the tag {key} is left out: {exc}")
    return out


def _tag_list_example(tags: dict[str, Any]) -> str:
    """`[{Key: Name, Value: orders}]` for the map `{Name: orders}`."""
    pairs = [f"{{Key: {k}, Value: {_short(v)}}}" for k, v in list(tags.items())[:2]]
    return "Tags: [" + ", ".join(pairs) + (", ...]" if len(tags) > 2 else "]")


def _short(value: Any) -> str:
    return value if isinstance(value, str) and len(value) <= 40 else "..."


def _simple_table(
    props: dict[str, Any], path: str, problems: list[Finding]
) -> dict[str, Any]:
    """SAM's SimpleTable in AWS::DynamoDB::Table's terms: a partition key
    alone (PrimaryKey, `id` of type String when it is left out), on demand
    unless it gives ProvisionedThroughput."""
    key = props.get("PrimaryKey", SIMPLE_KEY)
    if not isinstance(key, dict) or not isinstance(key.get("Name"), str):
        problems.append(
            error(
                "primary-key-malformed",
                f"{path}.PrimaryKey",
                "expected {Name: NAME, Type: String | Number | Binary}, found "
                + kind_of(key),
            )
        )
        return {}
    kind = key.get("Type", "String")
    if kind not in SIMPLE_TYPES:
        problems.append(
            error(
                "primary-key-type",
                f"{path}.PrimaryKey.Type",
                f"{kind!r} is not one of String, Number, Binary",
            )
        )
        return {}
    out = {
        k: v
        for k, v in props.items()
        if k
        in (
            "TableName",
            "ProvisionedThroughput",
            "SSESpecification",
            "PointInTimeRecoverySpecification",
            "Tags",
        )
    }
    out["AttributeDefinitions"] = [
        {"AttributeName": key["Name"], "AttributeType": SIMPLE_TYPES[kind]}
    ]
    out["KeySchema"] = [{"AttributeName": key["Name"], "KeyType": "HASH"}]
    out["BillingMode"] = (
        "PROVISIONED" if props.get("ProvisionedThroughput") else "PAY_PER_REQUEST"
    )
    return out


def _as_table(
    props: dict[str, Any], notes: list[str], scaling: list[Scaling]
) -> dict[str, Any]:
    """A global table's properties in AWS::DynamoDB::Table's terms: one
    replica's settings stand for the table (the design is one table)."""
    out = {
        k: v
        for k, v in props.items()
        if k
        in (
            "TableName",
            "AttributeDefinitions",
            "KeySchema",
            "BillingMode",
            "LocalSecondaryIndexes",
            "StreamSpecification",
            "TimeToLiveSpecification",
        )
    }
    replicas = [r for r in _list(props.get("Replicas")) if isinstance(r, dict)]
    replica = replicas[0] if replicas else {}
    if replicas:
        regions = ", ".join(str(r.get("Region", "?")) for r in replicas)
        notes.append(
            f"a global table with replicas in {regions}; the design is "
            f"one table with the settings of the replica in {replica.get('Region')}"
        )
    for field in (
        "PointInTimeRecoverySpecification",
        "TableClass",
        "DeletionProtectionEnabled",
        "Tags",
        "ContributorInsightsSpecification",
        "KinesisStreamSpecification",
    ):
        if field in replica:
            out[field] = replica[field]
    sse = dict(_dict(props.get("SSESpecification")))
    replica_sse = _dict(replica.get("SSESpecification"))
    if isinstance(replica_sse, dict) and replica_sse.get("KMSMasterKeyId"):
        sse["KMSMasterKeyId"] = replica_sse["KMSMasterKeyId"]
    if sse:
        out["SSESpecification"] = sse
    provisioned = (props.get("BillingMode") or "PROVISIONED") == "PROVISIONED"
    if provisioned:
        out["ProvisionedThroughput"] = _global_throughput(
            replica.get("ReadProvisionedThroughputSettings"),
            props.get("WriteProvisionedThroughputSettings"),
            "",
            scaling,
        )
    replica_indexes = {
        str(i.get("IndexName")): i
        for i in _list(replica.get("GlobalSecondaryIndexes"))
        if isinstance(i, dict)
    }
    indexes = []
    for spec in _list(props.get("GlobalSecondaryIndexes")):
        if not isinstance(spec, dict):
            continue
        index = {
            k: v
            for k, v in spec.items()
            if k in ("IndexName", "KeySchema", "Projection")
        }
        if provisioned:
            index["ProvisionedThroughput"] = _global_throughput(
                _dict(replica_indexes.get(str(spec.get("IndexName")))).get(
                    "ReadProvisionedThroughputSettings"
                ),
                spec.get("WriteProvisionedThroughputSettings"),
                str(spec.get("IndexName")),
                scaling,
            )
        indexes.append(index)
    if indexes:
        out["GlobalSecondaryIndexes"] = indexes
    return out


def _global_throughput(
    read: Any, write: Any, index: str, scalings: list[Scaling]
) -> dict[str, Any]:
    """A global table's capacity (of the table, or of the GSI `index`):
    writes are always auto scaled (their minimum stands for the capacity),
    reads fixed or auto scaled. Their auto scaling is added to
    `scalings`."""
    out: dict[str, Any] = {}
    level = "index" if index else "table"
    for member, data, unit in (
        ("ReadCapacityAutoScalingSettings", read, "ReadCapacityUnits"),
        ("WriteCapacityAutoScalingSettings", write, "WriteCapacityUnits"),
    ):
        if not isinstance(data, dict):
            continue
        if data.get(unit) is not None:
            out[unit] = data[unit]
        scaling = data.get(member)
        if isinstance(scaling, dict):
            out.setdefault(unit, scaling.get("MinCapacity"))
            policy = _dict(scaling.get("TargetTrackingScalingPolicyConfiguration"))
            scalings.append(
                Scaling(
                    f"dynamodb:{level}:{unit}",
                    index,
                    scaling.get("MinCapacity"),
                    scaling.get("MaxCapacity"),
                    policy.get("TargetValue"),
                    policy_settings(policy),
                )
            )
    return out


def table_scalings(
    resources: dict[str, Any], resolver: Resolver
) -> dict[str, list[Scaling]]:
    """Application Auto Scaling targets of the template's tables, by the
    table's logical id."""
    by_name: dict[str, str] = {}
    for logical, resource in resources.items():
        if isinstance(resource, dict) and resource.get("Type") in TABLE_TYPES:
            by_name[logical] = logical
            props = resource.get("Properties")
            if isinstance(props, dict):
                with contextlib.suppress(Unresolved):
                    by_name[str(resolver.value(props.get("TableName")))] = logical
    # A policy's target value and its other settings, by its target.
    targets: dict[str, tuple[Any, dict[str, Any]]] = {}
    for resource in resources.values():
        if not isinstance(resource, dict) or resource.get("Type") != (
            "AWS::ApplicationAutoScaling::ScalingPolicy"
        ):
            continue
        props = _dict(resource.get("Properties"))
        target = _dict(props.get("ScalingTargetId")).get("Ref")
        config = _dict(props.get("TargetTrackingScalingPolicyConfiguration"))
        if isinstance(target, str):
            with contextlib.suppress(Unresolved):
                settings = {}
                for name, value in policy_settings(config):
                    try:
                        settings[name] = resolver.value(value)
                    except Unresolved:
                        settings[name] = value  # named in a note as it is
                targets[target] = (resolver.value(config.get("TargetValue")), settings)
    found: dict[str, list[Scaling]] = {}
    for target_id, resource in resources.items():
        if not isinstance(resource, dict) or resource.get("Type") != (
            "AWS::ApplicationAutoScaling::ScalableTarget"
        ):
            continue
        props = resource.get("Properties") or {}
        if not isinstance(props, dict):
            continue
        text = json.dumps(props.get("ResourceId"), default=str)
        table = next(
            (
                logical
                for name, logical in by_name.items()
                if re.search(r"table/(\$\{)?" + re.escape(name) + r"\b", text)
                or f'"{name}"' in text
            ),
            None,
        )
        if table is None:
            continue
        limits = []
        for name in ("MinCapacity", "MaxCapacity"):
            try:
                limits.append(resolver.value(props.get(name)))
            except Unresolved:
                limits.append(props.get(name))
        minimum, maximum = limits
        value, settings = targets.get(target_id, (None, {}))
        found.setdefault(table, []).append(
            Scaling.of(
                text, props.get("ScalableDimension"), minimum, maximum, value, settings
            )
        )
    return found


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}
