"""A live table as a design: DescribeTable (with its TTL, backups and tags)
and a sample of its items become a design whose entities, key templates
and attributes are inferred from the items, as for a NoSQL Workbench model
without facets: by a type attribute when the items have one, else by the
shapes of all their keys together, and key templates from the values
(`CUST#123` and `CUST#456` give `CUST#{custId}`).

This module reads what `modeler.infra.dynamodb` fetched; it makes no request.
"""

from __future__ import annotations

from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding
from modeler.importers.table_reader import TableReader
from modeler.importers.table_scaling import Scaling, apply_scaling
from modeler.importers.tables import (
    ImportedTable,
    TablesImport,
    design_document,
    read_inferred_design,
    valid_table_name,
)
from modeler.importers.workbench_groups import Group, item_groups, unique_items
from modeler.importers.workbench_infer import EntityBuilder


def table_properties(
    description: dict[str, Any],
    *,
    ttl: dict[str, Any] | None = None,
    backups: dict[str, Any] | None = None,
    tags: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """DescribeTable's answer (and DescribeTimeToLive's, DescribeContinuous
    Backups', ListTagsOfResource's) in CreateTable's terms."""
    billing = (description.get("BillingModeSummary") or {}).get(
        "BillingMode", "PROVISIONED"
    )
    provisioned = billing == "PROVISIONED"
    props: dict[str, Any] = {
        key: description[key]
        for key in ("TableName", "AttributeDefinitions", "KeySchema")
        if key in description
    }
    props["BillingMode"] = billing
    if provisioned:
        props["ProvisionedThroughput"] = _throughput(description)
    gsis = []
    for index in description.get("GlobalSecondaryIndexes") or []:
        spec = {
            k: index[k] for k in ("IndexName", "KeySchema", "Projection") if k in index
        }
        if provisioned:
            spec["ProvisionedThroughput"] = _throughput(index)
        gsis.append(spec)
    if gsis:
        props["GlobalSecondaryIndexes"] = gsis
    lsis = [
        {k: index[k] for k in ("IndexName", "KeySchema", "Projection") if k in index}
        for index in description.get("LocalSecondaryIndexes") or []
    ]
    if lsis:
        props["LocalSecondaryIndexes"] = lsis
    stream = description.get("StreamSpecification")
    if stream:
        props["StreamSpecification"] = stream
    sse = description.get("SSEDescription") or {}
    if sse.get("Status") in ("ENABLED", "ENABLING", "UPDATING"):
        props["SSESpecification"] = {
            "SSEEnabled": True,
            "SSEType": sse.get("SSEType", "KMS"),
            **(
                {"KMSMasterKeyId": sse["KMSMasterKeyArn"]}
                if sse.get("KMSMasterKeyArn")
                else {}
            ),
        }
    table_class = (description.get("TableClassSummary") or {}).get("TableClass")
    if table_class:
        props["TableClass"] = table_class
    if "DeletionProtectionEnabled" in description:
        props["DeletionProtectionEnabled"] = description["DeletionProtectionEnabled"]
    ttl = ttl or {}
    if ttl.get("AttributeName"):
        props["TimeToLiveSpecification"] = {
            "AttributeName": ttl["AttributeName"],
            "Enabled": ttl.get("TimeToLiveStatus") in ("ENABLED", "ENABLING"),
        }
    pitr = ((backups or {}).get("PointInTimeRecoveryDescription")) or {}
    if pitr:
        props["PointInTimeRecoverySpecification"] = {
            "PointInTimeRecoveryEnabled": pitr.get("PointInTimeRecoveryStatus")
            == "ENABLED",
            **(
                {"RecoveryPeriodInDays": pitr["RecoveryPeriodInDays"]}
                if "RecoveryPeriodInDays" in pitr
                else {}
            ),
        }
    if tags:
        props["Tags"] = list(tags)
    return props


def _throughput(description: dict[str, Any]) -> dict[str, Any]:
    throughput = description.get("ProvisionedThroughput") or {}
    return {
        "ReadCapacityUnits": throughput.get("ReadCapacityUnits"),
        "WriteCapacityUnits": throughput.get("WriteCapacityUnits"),
    }


def read_live_table(
    props: dict[str, Any],
    items: list[dict[str, dict]],
    *,
    keep: int,
    notes: list[str] | None = None,
    replicas: list[str] | None = None,
    scaling: list[dict[str, Any]] | None = None,
) -> TablesImport:
    """The design of a live table from its properties (`table_properties`)
    and a sample of its items in DynamoDB JSON. At most `keep` of the items
    stay with the design as its own items, taken in turn from each entity so
    that every entity keeps some. `scaling` are its Application Auto
    Scaling targets (None when they could not be read: the design keeps the
    exports' default), as DescribeScalableTargets gives them with their
    policy's TargetValue."""
    notes = list(notes or [])
    problems: list[Finding] = []
    name = valid_table_name(str(props.get("TableName") or "table"), notes)
    if replicas:
        notes.append(
            f"a global table with replicas in {', '.join(replicas)}; the design is "
            "one table"
        )
    reader = TableReader(f"table {name}", problems, notes, what="the table")
    table = reader.table(props, name)
    if table is None:
        return TablesImport(
            name, "", (ImportedTable(name, None, tuple(problems), tuple(notes)),)
        )
    if scaling is not None:
        targets = [
            Scaling.of(
                str(t.get("ResourceId")),
                t.get("ScalableDimension"),
                t.get("MinCapacity"),
                t.get("MaxCapacity"),
                t.get("TargetValue"),
                t,
            )
            for t in scaling
        ]
        notes.extend(apply_scaling(table, targets))
    key_types = {
        a["AttributeName"]: a["AttributeType"] for a in props["AttributeDefinitions"]
    }
    partition = d.KeyAttribute(
        table["partition_key"]["name"], table["partition_key"]["type"]
    )
    sort = (
        d.KeyAttribute(table["sort_key"]["name"], table["sort_key"]["type"])
        if "sort_key" in table
        else None
    )
    index_keys = {
        index["name"]: [
            a["name"]
            for part in ("partition_key", "sort_key")
            for a in _attributes(index.get(part))
        ]
        for index in table.get("indexes", [])
    }
    items = unique_items(
        [i for i in items if partition.name in i and (sort is None or sort.name in i)],
        (partition, sort),
        notes,
    )
    key_names = list(
        dict.fromkeys(
            [k.name for k in (partition, sort) if k]
            + [n for names in index_keys.values() for n in names]
        )
    )
    groups = (
        item_groups(items, key_names, 2 if sort else 1, name, notes) if items else []
    )
    builder = EntityBuilder(
        key_types, [k for k in (partition, sort) if k], index_keys, {}, {}, notes
    )
    entities = builder.build(groups)
    kept = _kept(groups, keep)
    if len(kept) < len(items):
        notes.append(
            f"{len(items):,} items sampled; {len(kept):,} of them kept as the "
            "project's own items (the generated sample data gives the volume)"
        )
    if not items:
        notes.append("the table has no items: add entities with their key templates")
    doc = design_document(
        name, table, description=f"Imported from the live table {name}."
    )
    doc["entities"] = entities
    doc["access_patterns"] = []
    doc["sample_data"] = {"seed": 1, "items": kept}
    result = read_inferred_design(doc, notes, entities=builder)
    return TablesImport(
        name,
        "",
        (
            ImportedTable(
                name,
                result.design,
                tuple(problems + list(result.problems)),
                tuple(notes),
            ),
        ),
    )


def _attributes(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list):
        return value
    return [value] if isinstance(value, dict) else []


def _kept(groups: list[Group], keep: int) -> list[dict[str, dict]]:
    """Up to `keep` items, one from each group in turn."""
    kept: list[dict[str, dict]] = []
    position = 0
    while len(kept) < keep:
        added = False
        for group in groups:
            if position < len(group.items) and len(kept) < keep:
                kept.append(group.items[position])
                added = True
        if not added:
            break
        position += 1
    return kept
