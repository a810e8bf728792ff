"""A table's key schema and indexes, read from a CreateTable request and
checked as DynamoDB checks them, and described back as DescribeTable does.

A key is a tuple of partition attributes and a tuple of sort attributes.
Tables and local secondary indexes have one partition attribute and at most
one sort attribute; a global secondary index may have up to four of each
(multi-attribute keys), given in KeySchema order: all HASH entries, then all
RANGE entries.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any

from modeler.engine.errors import ValidationException

KEY_TYPES = ("S", "N", "B")
PROJECTION_TYPES = ("ALL", "KEYS_ONLY", "INCLUDE")
MAX_GSIS = 20
MAX_LSIS = 5
MAX_PROJECTED_ATTRIBUTES = 100
MAX_MULTI_ATTRIBUTE_KEY = 4
_NAME = re.compile(r"^[a-zA-Z0-9_.-]{3,255}$")


@dataclass(frozen=True)
class Projection:
    type: str = "ALL"
    attributes: tuple[str, ...] = ()

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ProjectionType": self.type}
        if self.type == "INCLUDE":
            out["NonKeyAttributes"] = list(self.attributes)
        return out


@dataclass(frozen=True)
class KeySchema:
    """The partition and sort attributes of the table or of one index."""

    partition: tuple[str, ...]
    sort: tuple[str, ...] = ()

    @property
    def attributes(self) -> tuple[str, ...]:
        return self.partition + self.sort

    def describe(self) -> list[dict[str, str]]:
        return [{"AttributeName": a, "KeyType": "HASH"} for a in self.partition] + [
            {"AttributeName": a, "KeyType": "RANGE"} for a in self.sort
        ]


@dataclass(frozen=True)
class IndexSpec:
    name: str
    is_global: bool
    key: KeySchema
    projection: Projection
    throughput: dict[str, int] | None = None

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "IndexName": self.name,
            "KeySchema": self.key.describe(),
            "Projection": self.projection.describe(),
        }
        if self.is_global and self.throughput:
            out["ProvisionedThroughput"] = dict(self.throughput)
        return out


@dataclass(frozen=True)
class TableSpec:
    name: str
    key: KeySchema
    attribute_types: dict[str, str]
    indexes: tuple[IndexSpec, ...] = ()
    billing_mode: str = "PAY_PER_REQUEST"
    throughput: dict[str, int] | None = None
    extras: tuple[tuple[str, Any], ...] = ()

    @property
    def global_indexes(self) -> tuple[IndexSpec, ...]:
        return tuple(i for i in self.indexes if i.is_global)

    @property
    def local_indexes(self) -> tuple[IndexSpec, ...]:
        return tuple(i for i in self.indexes if not i.is_global)

    def index(self, name: str) -> IndexSpec | None:
        return next((i for i in self.indexes if i.name == name), None)


CREATE_TABLE_PARAMETERS = {
    "TableName",
    "AttributeDefinitions",
    "KeySchema",
    "LocalSecondaryIndexes",
    "GlobalSecondaryIndexes",
    "BillingMode",
    "ProvisionedThroughput",
    "StreamSpecification",
    "SSESpecification",
    "Tags",
    "TableClass",
    "DeletionProtectionEnabled",
    "WarmThroughput",
    "ResourcePolicy",
    "OnDemandThroughput",
}
# Accepted and echoed by DescribeTable; they change nothing in the simulator.
_EXTRAS = (
    "StreamSpecification",
    "SSESpecification",
    "TableClass",
    "DeletionProtectionEnabled",
    "OnDemandThroughput",
    "WarmThroughput",
)


_NAME_CHARACTERS = re.compile(r"^[a-zA-Z0-9_.-]+$")


def table_name(value: Any, member: str = "tableName") -> str:
    """The name, or DynamoDB's message naming each constraint it fails (the
    pattern first, then the length)."""
    if isinstance(value, str) and _NAME.match(value):
        return value
    if not isinstance(value, str):
        raise ValidationException(
            f"1 validation error detected: Value null at '{member}' failed to satisfy "
            "constraint: Member must not be null"
        )
    failed = []
    if not _NAME_CHARACTERS.match(value):
        failed.append("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
    if len(value) < 3:
        failed.append("Member must have length greater than or equal to 3")
    elif len(value) > 255:
        failed.append("Member must have length less than or equal to 255")
    count = f"{len(failed)} validation error{'s' if len(failed) > 1 else ''}"
    raise ValidationException(
        f"{count} detected: "
        + "; ".join(
            f"Value '{value}' at '{member}' failed to satisfy constraint: {constraint}"
            for constraint in failed
        )
    )


def table_spec(request: dict[str, Any]) -> TableSpec:
    """The TableSpec of a CreateTable request, or ValidationException."""
    name = table_name(request.get("TableName"))
    definitions = request.get("AttributeDefinitions")
    if not isinstance(definitions, list) or not definitions:
        raise ValidationException(
            "1 validation error detected: Value null at 'attributeDefinitions' "
            "failed to satisfy constraint: Member must not be null"
        )
    types: dict[str, str] = {}
    for definition in definitions:
        attribute = definition.get("AttributeName")
        kind = definition.get("AttributeType")
        if kind not in KEY_TYPES:
            raise ValidationException(
                f"1 validation error detected: Value '{kind}' at "
                "'attributeDefinitions.member.attributeType' failed to satisfy "
                "constraint: Member must satisfy enum value set: [B, N, S]"
            )
        if attribute in types:
            raise ValidationException(
                "Cannot have two attributes with the same name. Attribute name: "
                f"{attribute}"
            )
        types[sys.intern(attribute)] = kind

    schema = request.get("KeySchema")
    if isinstance(schema, list) and len(types) < len(schema) <= 2:
        # DynamoDB counts before it matches names: a key attribute named
        # twice, [pk HASH, pk RANGE] with pk defined once, is one definition
        # short before it is a duplicate.
        raise ValidationException(
            "Invalid KeySchema: Some index key attribute have no definition"
        )
    key = _key_schema(schema, types, where="")
    if len(key.partition) != 1 or len(key.sort) > 1:
        raise ValidationException(
            "1 validation error detected: Value at 'keySchema' failed to satisfy "
            "constraint: Member must have length less than or equal to 2"
        )
    billing = request.get("BillingMode", "PROVISIONED")
    if billing not in ("PROVISIONED", "PAY_PER_REQUEST"):
        raise ValidationException(
            f"1 validation error detected: Value '{billing}' at 'billingMode' failed "
            "to satisfy constraint: Member must satisfy enum value set: "
            "[PROVISIONED, PAY_PER_REQUEST]"
        )
    throughput = request.get("ProvisionedThroughput")
    if billing == "PROVISIONED" and not throughput:
        raise ValidationException(
            "One or more parameter values were invalid: ReadCapacityUnits and "
            "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"
        )
    if billing == "PAY_PER_REQUEST" and throughput:
        raise ValidationException(
            "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
            "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"
        )

    indexes: list[IndexSpec] = []
    gsis = request.get("GlobalSecondaryIndexes") or []
    lsis = request.get("LocalSecondaryIndexes") or []
    if len(gsis) > MAX_GSIS:
        raise ValidationException(
            "One or more parameter values were invalid: GlobalSecondaryIndex count "
            f"exceeds the per-table limit of {MAX_GSIS}"
        )
    if len(lsis) > MAX_LSIS:
        raise ValidationException(
            "One or more parameter values were invalid: Number of "
            f"LocalSecondaryIndexes exceeds per-table limit of {MAX_LSIS}"
        )
    for spec in lsis:
        indexes.append(_index(spec, types, key, is_global=False, billing=billing))
    for spec in gsis:
        indexes.append(_index(spec, types, key, is_global=True, billing=billing))
    names = [i.name for i in indexes]
    for index_name in names:
        if names.count(index_name) > 1:
            raise ValidationException(
                "One or more parameter values were invalid: Duplicate index name: "
                f"{index_name}"
            )
    projected = sum(len(i.projection.attributes) for i in indexes)
    if projected > MAX_PROJECTED_ATTRIBUTES:
        raise ValidationException(
            "One or more parameter values were invalid: The number of attributes in "
            "key schema and projection of all secondary indexes exceeds the limit of "
            f"{MAX_PROJECTED_ATTRIBUTES}"
        )
    used = set(key.attributes)
    for index in indexes:
        used.update(index.key.attributes)
    if set(types) != used:
        if not indexes:
            raise ValidationException(
                "One or more parameter values were invalid: Number of attributes in "
                "KeySchema does not exactly match number of attributes defined in "
                "AttributeDefinitions"
            )
        raise ValidationException(
            "One or more parameter values were invalid: Some AttributeDefinitions are "
            f"not used. AttributeDefinitions: [{', '.join(sorted(types))}], keys used: "
            f"[{', '.join(sorted(used))}]"
        )
    extras = tuple((k, request[k]) for k in _EXTRAS if k in request)
    return TableSpec(
        name=name,
        key=key,
        attribute_types=types,
        indexes=tuple(indexes),
        billing_mode=billing,
        throughput=dict(throughput) if throughput else None,
        extras=extras,
    )


def _key_schema(schema: Any, types: dict[str, str], *, where: str) -> KeySchema:
    if not isinstance(schema, list) or not schema:
        raise ValidationException(
            f"1 validation error detected: Value null at '{where}keySchema' failed to "
            "satisfy constraint: Member must not be null"
        )
    partition: list[str] = []
    sort: list[str] = []
    for position, element in enumerate(schema, 1):
        attribute = element.get("AttributeName")
        kind = element.get("KeyType")
        if attribute not in types:
            raise ValidationException(
                "One or more parameter values were invalid: Some index key attributes "
                "are not defined in AttributeDefinitions. Keys: "
                f"[{', '.join(e.get('AttributeName', '') for e in schema)}], "
                f"AttributeDefinitions: [{', '.join(types)}]"
            )
        if kind == "HASH":
            if sort:
                raise ValidationException(
                    "Invalid KeySchema: The HASH key attributes must be listed before "
                    "the RANGE key attributes"
                )
            partition.append(sys.intern(attribute))
        elif kind == "RANGE":
            sort.append(sys.intern(attribute))
        else:
            raise ValidationException(
                f"1 validation error detected: Value '{kind}' at '{where}keySchema."
                f"{position}.member.keyType' failed to satisfy constraint: Member "
                "must satisfy enum value set: [HASH, RANGE]"
            )
    if not partition:
        raise ValidationException(
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"
        )
    if len(set(partition + sort)) != len(partition + sort):
        raise ValidationException(
            "Both the Hash Key and the Range Key element in the KeySchema have the "
            "same name"
        )
    return KeySchema(tuple(partition), tuple(sort))


def _index(
    spec: dict[str, Any],
    types: dict[str, str],
    table_key: KeySchema,
    *,
    is_global: bool,
    billing: str,
) -> IndexSpec:
    name = table_name(spec.get("IndexName"), "indexName")
    key = _key_schema(spec.get("KeySchema"), types, where="")
    if is_global:
        if (
            len(key.partition) > MAX_MULTI_ATTRIBUTE_KEY
            or len(key.sort) > MAX_MULTI_ATTRIBUTE_KEY
        ):
            raise ValidationException(
                "One or more parameter values were invalid: A global secondary index "
                f"key may have at most {MAX_MULTI_ATTRIBUTE_KEY} partition key and "
                f"{MAX_MULTI_ATTRIBUTE_KEY} sort key attributes. IndexName: {name}"
            )
    else:
        if not table_key.sort:
            raise ValidationException(
                "One or more parameter values were invalid: Table KeySchema does not "
                "have a range key, which is required when specifying a "
                "LocalSecondaryIndex"
            )
        if key.partition != table_key.partition or len(key.sort) != 1:
            raise ValidationException(
                "One or more parameter values were invalid: Index KeySchema does not "
                "have the same leading hash key as table KeySchema for index: "
                f"{name}. index hash key: {key.partition[0]}, table hash key: "
                f"{table_key.partition[0]}"
            )
    projection = _projection(spec.get("Projection"), name)
    throughput = spec.get("ProvisionedThroughput")
    if is_global and billing == "PROVISIONED" and not throughput:
        raise ValidationException(
            "One or more parameter values were invalid: ProvisionedThroughput must be "
            f"specified for index: {name}"
        )
    if is_global and billing == "PAY_PER_REQUEST" and throughput:
        raise ValidationException(
            "One or more parameter values were invalid: ProvisionedThroughput should "
            "not be specified for index: "
            f"{name} when BillingMode is PAY_PER_REQUEST"
        )
    return IndexSpec(
        name, is_global, key, projection, dict(throughput) if throughput else None
    )


def _projection(spec: Any, index_name: str) -> Projection:
    if not isinstance(spec, dict) or "ProjectionType" not in spec:
        raise ValidationException(
            "1 validation error detected: Value null at 'projection' failed to satisfy "
            "constraint: Member must not be null"
        )
    kind = spec["ProjectionType"]
    attributes = spec.get("NonKeyAttributes")
    if kind not in PROJECTION_TYPES:
        raise ValidationException(
            f"1 validation error detected: Value '{kind}' at "
            "'projection.projectionType' failed to satisfy constraint: Member must "
            "satisfy enum value set: "
            "[ALL, INCLUDE, KEYS_ONLY]"
        )
    if kind == "INCLUDE":
        if not attributes:
            raise ValidationException(
                "One or more parameter values were invalid: NonKeyAttributes must be "
                f"specified for ProjectionType INCLUDE. IndexName: {index_name}"
            )
        if len(set(attributes)) != len(attributes):
            raise ValidationException(
                "One or more parameter values were invalid: Duplicate attributes in "
                f"NonKeyAttributes for index {index_name}"
            )
        return Projection("INCLUDE", tuple(sys.intern(a) for a in attributes))
    if attributes:
        raise ValidationException(
            "One or more parameter values were invalid: ProjectionType is "
            f"{kind}, but NonKeyAttributes is specified"
        )
    return Projection(kind)
