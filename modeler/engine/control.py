"""The control plane beyond CreateTable: UpdateTable (a global secondary
index created or deleted, billing mode, capacity, the stream), Time to Live
(and the sweep that deletes expired items), tags, DescribeLimits and
DescribeEndpoints, with DynamoDB's states and messages.

An index UpdateTable creates is CREATING (Backfilling false, then true) for
INDEX_BUILD_SECONDS on the engine's clock, then ACTIVE; the table is
UPDATING meanwhile, a Query on the index is refused, and no other index may
be created or deleted, as DynamoDB allows one at a time.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from modeler.engine.constraints import require_table_name
from modeler.engine.errors import (
    EngineError,
    ResourceInUseException,
    ResourceNotFoundException,
    ValidationException,
)
from modeler.engine.requests import check_parameters
from modeler.engine.schema import (
    KEY_TYPES,
    MAX_GSIS,
    _index,
    table_name,
)
from modeler.engine.state import EngineState
from modeler.engine.streams import VIEW_TYPES

if TYPE_CHECKING:
    from modeler.engine.table import Table

INDEX_BUILD_SECONDS = 1.0
# TTL leaves alone an item whose expiry is more than five years past (a
# number that is not an epoch time in seconds), as DynamoDB does.
TTL_OLDEST = 5 * 365 * 24 * 3600
MAX_TAGS = 50
LIMITS = {
    "AccountMaxReadCapacityUnits": 80000,
    "AccountMaxWriteCapacityUnits": 80000,
    "TableMaxReadCapacityUnits": 40000,
    "TableMaxWriteCapacityUnits": 40000,
}
UPDATE_TABLE_PARAMETERS = (
    "TableName",
    "AttributeDefinitions",
    "BillingMode",
    "ProvisionedThroughput",
    "GlobalSecondaryIndexUpdates",
    "StreamSpecification",
    "SSESpecification",
    "ReplicaUpdates",
    "TableClass",
    "DeletionProtectionEnabled",
    "OnDemandThroughput",
    "WarmThroughput",
    "MultiRegionConsistency",
    "GlobalTableWitnessUpdates",
)


class LimitExceededException(EngineError):
    code = "LimitExceededException"


def _table(engine: EngineState, name: Any) -> Table:
    table = engine.tables.get(name) if isinstance(name, str) else None
    if table is None:
        table_name(name)
        raise ResourceNotFoundException(
            f"Requested resource not found: Table: {name} not found"
        )
    return table


# --- UpdateTable -------------------------------------------------------------


def update_table(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    require_table_name(request)
    check_parameters(request, UPDATE_TABLE_PARAMETERS, ("TableName",))
    table = _table(engine, request["TableName"])
    changes = [
        k
        for k in (
            "ProvisionedThroughput",
            "BillingMode",
            "StreamSpecification",
            "GlobalSecondaryIndexUpdates",
            "SSESpecification",
            "ReplicaUpdates",
            "TableClass",
            "DeletionProtectionEnabled",
            "OnDemandThroughput",
            "WarmThroughput",
        )
        if k in request
    ]
    if not changes:
        raise ValidationException(
            "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
            "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is "
            "required"
        )
    now = engine.clock()
    if any(i.status(now) != "ACTIVE" for i in table.indexes.values()):
        if "GlobalSecondaryIndexUpdates" in request:
            raise LimitExceededException(
                "Subscriber limit exceeded: Only 1 online index can be created or "
                "deleted simultaneously per table"
            )
        raise ResourceInUseException(
            f"Attempt to change a resource which is still in use: Table is being "
            f"updated: {table.name}"
        )
    billing = request.get("BillingMode", table.spec.billing_mode)
    if billing not in ("PROVISIONED", "PAY_PER_REQUEST"):
        raise ValidationException(
            f"1 validation error detected: Value '{billing}' at 'billingMode' failed "
            "to satisfy constraint: Member must satisfy enum value set: "
            "[PROVISIONED, PAY_PER_REQUEST]"
        )
    types = _new_attribute_types(table, request.get("AttributeDefinitions"))
    throughput = _new_throughput(table, request, billing)
    updates = request.get("GlobalSecondaryIndexUpdates") or []
    if not isinstance(updates, list):
        raise ValidationException("GlobalSecondaryIndexUpdates must be a list")
    creates = [u["Create"] for u in updates if isinstance(u, dict) and "Create" in u]
    deletes = [u["Delete"] for u in updates if isinstance(u, dict) and "Delete" in u]
    index_throughput = [
        u["Update"] for u in updates if isinstance(u, dict) and "Update" in u
    ]
    if len(creates) + len(deletes) > 1:
        raise LimitExceededException(
            "Subscriber limit exceeded: Only 1 online index can be created or deleted "
            "simultaneously per table"
        )
    stream = _stream_change(table, request.get("StreamSpecification"))

    # Everything checked: apply.
    spec = table.spec
    new_indexes = list(spec.indexes)
    for delete in deletes:
        name = delete.get("IndexName")
        if name not in table.indexes or not table.indexes[name].is_global:
            raise ResourceNotFoundException(
                f"Requested resource not found: Index: {name} not found"
            )
    created = None
    for create in creates:
        name = create.get("IndexName")
        if name in table.indexes:
            raise ValidationException(
                "One or more parameter values were invalid: Index already exists: "
                f"{name}"
            )
        if len(spec.global_indexes) >= MAX_GSIS:
            raise LimitExceededException(
                "One or more parameter values were invalid: GlobalSecondaryIndex count "
                f"exceeds the per-table limit of {MAX_GSIS}"
            )
        created = _index(create, types, spec.key, is_global=True, billing=billing)
        new_indexes.append(created)
    index_specs = {i.name: i for i in new_indexes}
    for update in index_throughput:
        name = update.get("IndexName")
        if name not in index_specs:
            raise ResourceNotFoundException(
                f"Requested resource not found: Index: {name} not found"
            )
        index_specs[name] = dataclasses.replace(
            index_specs[name],
            throughput=dict(update.get("ProvisionedThroughput") or {}),
        )
    if billing == "PAY_PER_REQUEST":
        index_specs = {
            n: dataclasses.replace(i, throughput=None) for n, i in index_specs.items()
        }
    names_deleted = {d.get("IndexName") for d in deletes}
    extras = dict(spec.extras)
    for name in ("SSESpecification", "TableClass", "DeletionProtectionEnabled"):
        if name in request:
            extras[name] = request[name]
    table.spec = dataclasses.replace(
        spec,
        attribute_types=types,
        indexes=tuple(i for n, i in index_specs.items() if n not in names_deleted),
        billing_mode=billing,
        throughput=throughput,
        extras=tuple(extras.items()),
    )
    table.types.update(types)
    for name in names_deleted:
        table.remove_index(name)
    for name, index_spec in index_specs.items():
        if name in table.indexes:
            table.indexes[name].spec = index_spec
    if created is not None:
        table.add_index(
            created, build=(now + INDEX_BUILD_SECONDS / 2, now + INDEX_BUILD_SECONDS)
        )
    if stream is not None:
        engine.set_stream(table, stream or None)
    description = table.describe()
    for entry in description.get("GlobalSecondaryIndexes", []):
        if entry["IndexName"] in names_deleted:
            entry["IndexStatus"] = "DELETING"
    if names_deleted:
        description["TableStatus"] = "UPDATING"
        description.setdefault("GlobalSecondaryIndexes", []).extend(
            {"IndexName": n, "IndexStatus": "DELETING"} for n in sorted(names_deleted)
        )
    return {"TableDescription": description}


def _new_attribute_types(table: Table, definitions: Any) -> dict[str, str]:
    types = dict(table.spec.attribute_types)
    for definition in definitions or []:
        name = definition.get("AttributeName")
        kind = definition.get("AttributeType")
        if kind not in KEY_TYPES:
            raise ValidationException(
                f"1 validation error detected: Value '{kind}' at "
                "'attributeDefinitions.1.member.attributeType' failed to satisfy "
                "constraint: Member must satisfy enum value set: [B, N, S]"
            )
        if name in types and types[name] != kind:
            raise ValidationException(
                "One or more parameter values were invalid: Cannot change the type of "
                f"an existing attribute: {name}"
            )
        types[name] = kind
    return types


def _new_throughput(
    table: Table, request: dict[str, Any], billing: str
) -> dict[str, int] | None:
    requested = request.get("ProvisionedThroughput")
    current = table.spec.throughput
    if billing == "PAY_PER_REQUEST":
        if requested:
            raise ValidationException(
                "One or more parameter values were invalid: Neither ReadCapacityUnits "
                "nor WriteCapacityUnits can be specified when BillingMode is "
                "PAY_PER_REQUEST"
            )
        return None
    if requested is None:
        if table.spec.billing_mode == "PAY_PER_REQUEST":
            raise ValidationException(
                "One or more parameter values were invalid: ProvisionedThroughput must "
                "be specified when BillingMode is PROVISIONED"
            )
        return current
    read = requested.get("ReadCapacityUnits")
    write = requested.get("WriteCapacityUnits")
    for name, value in (("readCapacityUnits", read), ("writeCapacityUnits", write)):
        if not isinstance(value, int) or value < 1:
            raise ValidationException(
                f"1 validation error detected: Value '{value}' at "
                f"'provisionedThroughput.{name}' failed to satisfy constraint: Member "
                "must have value greater than or equal to 1"
            )
    if (
        current
        and table.spec.billing_mode == "PROVISIONED"
        and current.get("ReadCapacityUnits") == read
        and current.get("WriteCapacityUnits") == write
        and "GlobalSecondaryIndexUpdates" not in request
        and "StreamSpecification" not in request
    ):
        raise ValidationException(
            "The provisioned throughput for the table will not change. The requested "
            "value equals the current value. Current ReadCapacityUnits provisioned for "
            f"the table: {read}. Requested ReadCapacityUnits: {read}. Current "
            f"WriteCapacityUnits provisioned for the table: {write}. Requested "
            f"WriteCapacityUnits: {write}. Refer to the Amazon DynamoDB Developer "
            "Guide for current limits and how to request higher limits."
        )
    if current:
        now = datetime.now(UTC)
        if read > current.get("ReadCapacityUnits", 0) or write > current.get(
            "WriteCapacityUnits", 0
        ):
            table.last_increase = now
        if read < current.get("ReadCapacityUnits", 0) or write < current.get(
            "WriteCapacityUnits", 0
        ):
            table.last_decrease = now
            table.decreases_today += 1
    return {"ReadCapacityUnits": read, "WriteCapacityUnits": write}


def _stream_change(table: Table, spec: Any) -> dict[str, Any] | None:
    """The new stream specification ({} to disable), None for no change."""
    if spec is None:
        return None
    enabled = spec.get("StreamEnabled")
    if not isinstance(enabled, bool):
        raise ValidationException(
            "1 validation error detected: Value null at "
            "'streamSpecification.streamEnabled' failed to satisfy constraint: Member "
            "must not be null"
        )
    if enabled:
        if table.stream is not None:
            raise ValidationException(
                f"Table already has an enabled stream: TableName: {table.name}"
            )
        view = spec.get("StreamViewType")
        if view not in VIEW_TYPES:
            raise ValidationException(
                "One or more parameter values were invalid: StreamViewType is required "
                "when StreamEnabled is true"
                if view is None
                else f"1 validation error detected: Value '{view}' at "
                "'streamSpecification.streamViewType' failed to satisfy constraint: "
                f"Member must satisfy enum value set: [{', '.join(VIEW_TYPES)}]"
            )
        return {"StreamViewType": view}
    if "StreamViewType" in spec:
        raise ValidationException(
            "One or more parameter values were invalid: StreamViewType should not be "
            "specified when StreamEnabled is false"
        )
    if table.stream is None:
        raise ValidationException(
            f"Table already has no stream enabled: TableName: {table.name}"
        )
    return {}


def stream_of_create(request: dict[str, Any]) -> dict[str, Any] | None:
    """The stream a CreateTable request enables, or None."""
    spec = request.get("StreamSpecification")
    if not isinstance(spec, dict) or not spec.get("StreamEnabled"):
        return None
    view = spec.get("StreamViewType")
    if view not in VIEW_TYPES:
        raise ValidationException(
            "One or more parameter values were invalid: StreamViewType is required "
            "when StreamEnabled is true"
        )
    return {"StreamViewType": view}


# --- Time to Live --------------------------------------------------------------


def update_time_to_live(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request,
        ("TableName", "TimeToLiveSpecification"),
        ("TableName", "TimeToLiveSpecification"),
    )
    table = _table(engine, request["TableName"])
    spec = request["TimeToLiveSpecification"]
    enabled = spec.get("Enabled") if isinstance(spec, dict) else None
    attribute = spec.get("AttributeName") if isinstance(spec, dict) else None
    if not isinstance(enabled, bool):
        raise ValidationException(
            "1 validation error detected: Value null at "
            "'timeToLiveSpecification.enabled' failed to satisfy constraint: Member "
            "must not be null"
        )
    if not isinstance(attribute, str) or not 1 <= len(attribute) <= 255:
        raise ValidationException(
            "1 validation error detected: Value null at "
            "'timeToLiveSpecification.attributeName' failed to satisfy constraint: "
            "Member must not be null"
            if attribute is None
            else f"1 validation error detected: Value '{attribute}' at "
            "'timeToLiveSpecification.attributeName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 1"
        )
    if enabled and table.ttl_attribute is not None:
        raise ValidationException("TimeToLive is already enabled")
    if not enabled:
        if table.ttl_attribute is None:
            raise ValidationException("TimeToLive is already disabled")
        if table.ttl_attribute != attribute:
            raise ValidationException(
                "TimeToLive is active on a different AttributeName: current "
                f"AttributeName is {table.ttl_attribute}"
            )
    table.ttl_attribute = attribute if enabled else None
    return {"TimeToLiveSpecification": {"Enabled": enabled, "AttributeName": attribute}}


def describe_time_to_live(
    engine: EngineState, request: dict[str, Any]
) -> dict[str, Any]:
    require_table_name(request)
    check_parameters(request, ("TableName",), ("TableName",))
    table = _table(engine, request["TableName"])
    if table.ttl_attribute is None:
        return {"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}}
    return {
        "TimeToLiveDescription": {
            "TimeToLiveStatus": "ENABLED",
            "AttributeName": table.ttl_attribute,
        }
    }


def expired(table: Table, now: float) -> list[dict[str, Any]]:
    """The items of a table whose TTL attribute (a number of seconds since
    the epoch) is at or before `now`, and not more than five years before."""
    attribute = table.ttl_attribute
    if attribute is None:
        return []
    found = []
    for item in table:
        value = item.get(attribute)
        if (type(value) is Decimal or type(value) is int) and (
            now - TTL_OLDEST <= value <= now
        ):
            found.append(item)
    return found


# --- Tags ---------------------------------------------------------------------


def _table_of_arn(engine: EngineState, arn: Any) -> Table:
    if not isinstance(arn, str) or not arn.startswith("arn:"):
        raise ValidationException(
            f"Invalid TableArn: Invalid ResourceArn provided as input {arn}"
        )
    _, _, name = arn.rpartition(":table/")
    table = engine.tables.get(name.split("/")[0])
    if table is None or table.arn != arn:
        raise ResourceNotFoundException(
            f"Requested resource not found: ResourceArn: {arn} not found"
        )
    return table


def check_tags(tags: Any) -> list[dict[str, str]]:
    if not isinstance(tags, list):
        raise ValidationException("Tags must be a list")
    for tag in tags:
        key = tag.get("Key") if isinstance(tag, dict) else None
        value = tag.get("Value") if isinstance(tag, dict) else None
        if not isinstance(key, str) or not 1 <= len(key) <= 128:
            raise ValidationException(
                "One or more parameter values were invalid: Tag keys must be between "
                "1 and 128 characters in length"
            )
        if not isinstance(value, str) or len(value) > 256:
            raise ValidationException(
                "One or more parameter values were invalid: Tag values must be between "
                "0 and 256 characters in length"
            )
        if key.startswith("aws:"):
            raise ValidationException(
                "One or more parameter values were invalid: Tag keys starting with "
                "'aws:' are reserved for system use"
            )
    return tags


def add_tags(table: Table, tags: list[dict[str, str]]) -> None:
    merged = dict(table.tags)
    merged.update({t["Key"]: t["Value"] for t in tags})
    if len(merged) > MAX_TAGS:
        raise LimitExceededException(
            f"One or more parameter values were invalid: The number of tags exceeds "
            f"the limit of {MAX_TAGS}"
        )
    table.tags = merged


def tag_resource(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(request, ("ResourceArn", "Tags"), ("ResourceArn", "Tags"))
    table = _table_of_arn(engine, request["ResourceArn"])
    add_tags(table, check_tags(request["Tags"]))
    return {}


def untag_resource(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(request, ("ResourceArn", "TagKeys"), ("ResourceArn", "TagKeys"))
    table = _table_of_arn(engine, request["ResourceArn"])
    keys = request["TagKeys"]
    if not isinstance(keys, list):
        raise ValidationException("TagKeys must be a list")
    table.tags = {k: v for k, v in table.tags.items() if k not in keys}
    return {}


def list_tags_of_resource(
    engine: EngineState, request: dict[str, Any]
) -> dict[str, Any]:
    check_parameters(request, ("ResourceArn", "NextToken"), ("ResourceArn",))
    table = _table_of_arn(engine, request["ResourceArn"])
    return {"Tags": [{"Key": k, "Value": v} for k, v in table.tags.items()]}


# --- Limits and endpoints ---------------------------------------------------------


def describe_limits(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(request, ())
    return dict(LIMITS)


def describe_endpoints(engine: EngineState, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(request, ())
    return {
        "Endpoints": [
            {
                "Address": f"dynamodb.{engine.region}.amazonaws.com",
                "CachePeriodInMinutes": 1440,
            }
        ]
    }
