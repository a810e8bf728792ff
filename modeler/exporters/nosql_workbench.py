"""Export of a design as a NoSQL Workbench data model (format version 3.0):
the table with its keys, GSIs and billing, a facet per entity whose key
aliases are the entity's key templates and whose table data are the sample
items recognised as that entity's, and every sample item as the table's
data. NoSQL Workbench opens it; `read_workbench` reads it back.

Key templates of index keys, `when` conditions, attribute details
(required, presence, generators), entity descriptions and sample settings
have no place in NoSQL Workbench's own sections. They are written to a
`ModelSchema` section, the one the AWS labs' web modeler adds to model files
(`models.<entity>.<attribute>.value` is a `${attribute}` template there),
which NoSQL Workbench leaves alone. What the
format cannot hold at all is listed by `export_notes`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from modeler.design import model as d
from modeler.designfile import entity_document
from modeler.engine.types import item_from_wire, item_to_json_wire
from modeler.exporters.tabledef import policy_configuration
from modeler.exporters.workbench_format import (
    SCHEMA_NAMES,
    has_placeholder,
    key_texts,
    to_schema_template,
)
from modeler.keys import parse_template
from modeler.sampledata.generate import generate
from modeler.sampledata.recognise import EntityRecogniser

VERSION = "3.0"
MAX_GENERATED = 50  # generated items per entity an export may add


def _carried_index(index: d.Index) -> bool:
    """Whether a model file can describe the index: an LSI always (its
    partition key is the table's, written or not), a GSI with one partition
    key attribute and at most one sort key attribute."""
    if not index.is_global:
        return True
    return len(index.partition_key) == 1 and len(index.sort_key) <= 1


def export_notes(design: d.Design) -> list[str]:
    """What a NoSQL Workbench model cannot hold of this design."""
    table = design.table
    notes = []
    if design.access_patterns:
        notes.append(
            f"{len(design.access_patterns)} access pattern(s): NoSQL Workbench "
            "models have no access patterns"
        )
    dropped = [i.name for i in table.indexes if not _carried_index(i)]
    if dropped:
        notes.append(
            "GSIs with multi-attribute keys, which the model format cannot "
            "describe: " + ", ".join(dropped)
        )
    settings = [
        (bool(table.ttl_attribute), "TTL"),
        (bool(table.stream_view_type), "stream"),
        (table.point_in_time_recovery, "point-in-time recovery"),
        (table.encryption != d.Encryption(), "encryption"),
        (table.table_class != "STANDARD", "table class"),
        (table.deletion_protection, "deletion protection"),
        (bool(table.tags), "tags"),
    ]
    lost = [name for present, name in settings if present]
    if lost:
        notes.append("table settings: " + ", ".join(lost))
    return notes


def carried(design: d.Design) -> d.Design:
    """The part of a design that a NoSQL Workbench model holds: importing
    the export gives exactly this."""
    table = design.table
    # An LSI's partition key is always the table's: the design format may
    # name it or leave it out, and a model file leaves it implied.
    # GSIs and LSIs are two lists in a model file: GSIs come first.
    indexes = tuple(
        i if i.is_global else replace(i, partition_key=())
        for i in sorted(table.indexes, key=lambda i: not i.is_global)
        if _carried_index(i)
    )
    kept_keys = {a.name for a in table.key_attributes} | {
        a.name for i in indexes for a in i.key_attributes
    }
    # A model holds the table's auto scaling, not its GSIs': they keep the
    # default. The default written out reads back as the default.
    indexes = tuple(
        replace(i, capacity=replace(i.capacity, auto_scaling=None)) if i.capacity else i
        for i in indexes
    )
    capacity = table.capacity
    if capacity and capacity.auto_scaling == capacity.default_scaling:
        capacity = replace(capacity, auto_scaling=None)
    bare_table = d.Table(
        name=table.name,
        partition_key=table.partition_key,
        sort_key=table.sort_key,
        billing_mode=table.billing_mode,
        capacity=capacity,
        indexes=indexes,
    )
    table_keys = {a.name for a in table.key_attributes}

    def kept(name: str, key: d.KeyTemplate) -> d.KeyTemplate:
        # A facet names the table's keys only; a name that is the key's
        # own, its template or a template itself is no name.
        if (
            name not in table_keys
            or key.alias in (name, key.template)
            or (has_placeholder(key.alias))
        ):
            return replace(key, alias="")
        return key

    entities = tuple(
        replace(
            e,
            keys=MappingProxyType(
                {k: kept(k, v) for k, v in e.keys.items() if k in kept_keys}
            ),
        )
        for e in design.entities
    )
    return d.Design(
        name=design.name,
        table=bare_table,
        description=design.description,
        entities=entities,
        sample_data=design.sample_data,
    )


def _by_entity(
    design: d.Design, items: list[Any]
) -> tuple[dict[str, list[Any]], list[Any]]:
    """The items (DynamoDB JSON) of each entity, and those of none."""
    recogniser = EntityRecogniser(design)
    by_entity: dict[str, list[Any]] = {e.name: [] for e in design.entities}
    unrecognised = []
    for item in items:
        entity = recogniser.entity_of(item_from_wire(d.thaw(item)))
        if entity is not None:
            by_entity[entity].append(item)
        else:
            unrecognised.append(item)
    return by_entity, unrecognised


def _key(attr: d.KeyAttribute) -> dict[str, str]:
    return {"AttributeName": attr.name, "AttributeType": attr.type}


def _projection(index: d.Index) -> dict[str, Any]:
    spec: dict[str, Any] = {"ProjectionType": index.projection.type}
    if index.projection.type == "INCLUDE":
        spec["NonKeyAttributes"] = list(index.projection.attributes)
    return spec


def generated_items(design: d.Design, per_entity: int) -> list[dict[str, Any]]:
    """Up to `per_entity` items of each entity from the design's generated
    sample data (whole families first), as DynamoDB JSON, so the facets of
    NoSQL Workbench's visualizer show data. Raises SampleDataError."""
    if per_entity <= 0:
        return []
    dataset = generate(design, limit=max(per_entity * len(design.entities) * 20, 200))
    taken: dict[str, int] = {}
    out = []
    for item, entity in zip(dataset.items, dataset.entities, strict=True):
        if taken.get(entity, 0) < per_entity:
            taken[entity] = taken.get(entity, 0) + 1
            out.append(item_to_json_wire(item))
    return out


class WorkbenchExportError(ValueError):
    """The design has an error the model cannot be made with (a key template
    that does not parse)."""


def workbench_model(
    design: d.Design, *, now: datetime | None = None, generated: int = 0
) -> dict[str, Any]:
    """The model file's content. `generated` adds that many generated items
    per entity to the design's own sample items (they come back as sample
    items when the model is imported). Raises WorkbenchExportError."""
    for entity in design.entities:
        for key, template in entity.keys.items():
            try:
                parse_template(template.template)
            except ValueError as exc:
                raise WorkbenchExportError(
                    f"entities.{entity.name}.keys.{key}: {exc}; fix it in the "
                    "editor first"
                ) from None
    table = design.table
    indexes = [i for i in table.indexes if _carried_index(i)]
    key_names = [a.name for a in table.key_attributes]
    index_keys = {a.name for i in indexes for a in i.key_attributes} - set(key_names)
    items = [d.thaw(item) for item in design.sample_data.items]
    # The facets hold each entity's items apart: the order of the design's
    # own items goes in ModelSchema, so that importing gives them back in it.
    order = [key_texts(item, table.key_attributes) for item in items]
    own_keys = {_key_of(design, item) for item in items}
    items += [
        item
        for item in generated_items(design, generated)
        if _key_of(design, item) not in own_keys
    ]
    by_entity, unrecognised = _by_entity(design, items)
    non_key: dict[str, str] = {}
    for name in sorted(index_keys):
        non_key[name] = next(
            a.type for i in indexes for a in i.key_attributes if a.name == name
        )
    for entity in design.entities:
        for attribute in entity.attributes:
            non_key.setdefault(attribute.name, attribute.type)
    facets = []
    models: dict[str, dict[str, Any]] = {}
    entity_extras: dict[str, dict[str, Any]] = {}
    # The entities as the design format writes them (attributes with their
    # generators, sample settings): the ModelSchema section carries them.
    documents = {e.name: entity_document(e) for e in design.entities}
    for entity in design.entities:
        alias: dict[str, str] = {}
        pk = entity.keys.get(table.partition_key.name)
        alias["PartitionKeyAlias"] = (
            (pk.alias or pk.template) if pk else table.partition_key.name
        )
        if table.sort_key:
            sk = entity.keys.get(table.sort_key.name)
            alias["SortKeyAlias"] = (
                (sk.alias or sk.template) if sk else table.sort_key.name
            )
        names = [a.name for a in entity.attributes] + [
            k for k in entity.keys if k in index_keys
        ]
        facets.append(
            {
                "FacetName": entity.name,
                "KeyAttributeAlias": alias,
                "TableData": by_entity[entity.name],
                "NonKeyAttributes": names,
                "DataAccess": {"MySql": {}},
            }
        )
        model: dict[str, Any] = {}
        kept = set(key_names) | index_keys
        for name, key_template in entity.keys.items():
            if name not in kept:
                continue
            spec: dict[str, Any] = {
                "type": "String",
                "value": to_schema_template(key_template.template),
                "template": key_template.template,
            }
            if key_template.when:
                spec["when"] = key_template.when
            model[name] = spec
        for name, spec in documents[entity.name]["attributes"].items():
            model[name] = {**spec, "type": SCHEMA_NAMES.get(spec["type"], spec["type"])}
        models[entity.name] = model
        extra = {"sample": documents[entity.name]["sample"]}
        if entity.description:
            extra["description"] = entity.description
        entity_extras[entity.name] = extra
    data_model: dict[str, Any] = {
        "TableName": table.name,
        "KeyAttributes": {"PartitionKey": _key(table.partition_key)}
        | ({"SortKey": _key(table.sort_key)} if table.sort_key else {}),
        "NonKeyAttributes": [
            {"AttributeName": k, "AttributeType": v} for k, v in non_key.items()
        ],
        "TableFacets": facets,
    }
    gsis: list[dict[str, Any]] = []
    lsis: list[dict[str, Any]] = []
    for index in indexes:
        keys: dict[str, Any] = {
            "PartitionKey": _key(
                index.partition_key[0] if index.is_global else table.partition_key
            )
        }
        if index.sort_key:
            keys["SortKey"] = _key(index.sort_key[0])
        spec = {
            "IndexName": index.name,
            "KeyAttributes": keys,
            "Projection": _projection(index),
        }
        if index.is_global and table.billing_mode == "PROVISIONED" and index.capacity:
            spec["ProvisionedThroughput"] = {
                "ReadCapacityUnits": index.capacity.read,
                "WriteCapacityUnits": index.capacity.write,
            }
        (gsis if index.is_global else lsis).append(spec)
    if gsis:
        data_model["GlobalSecondaryIndexes"] = gsis
    if lsis:
        data_model["LocalSecondaryIndexes"] = lsis
    # As in AWS's own 3.0 models, an entity's items are in its facet only.
    data_model["TableData"] = unrecognised
    data_model["DataAccess"] = {"MySql": {}}
    data_model["BillingMode"] = table.billing_mode
    if table.billing_mode == "PROVISIONED" and table.capacity:
        settings: dict[str, Any] = {
            "ProvisionedThroughput": {
                "ReadCapacityUnits": table.capacity.read,
                "WriteCapacityUnits": table.capacity.write,
            }
        }
        for member, dimension in (
            ("AutoScalingRead", "read"),
            ("AutoScalingWrite", "write"),
        ):
            scaling = table.capacity.scaling(dimension)
            if scaling:
                settings[member] = {
                    "ScalableTargetRequest": {
                        "MinCapacity": scaling.minimum,
                        "MaxCapacity": scaling.maximum,
                        "ServiceRole": "AWSServiceRoleForApplicationAutoScaling_"
                        "DynamoDBTable",
                    },
                    "ScalingPolicyConfiguration": {
                        "TargetValue": scaling.target,
                        **policy_configuration(scaling),
                    },
                }
        data_model["ProvisionedCapacitySettings"] = settings
    # NoSQL Workbench's own way of writing dates: "Jun 23, 2023, 04:36 PM".
    stamp = (now or datetime.now(UTC)).strftime("%b %d, %Y, %I:%M %p")
    return {
        "ModelName": design.name,
        "ModelMetadata": {
            "Author": "",
            "DateCreated": stamp,
            "DateLastModified": stamp,
            "Description": design.description,
            "AWSService": "Amazon DynamoDB",
            "Version": VERSION,
        },
        "DataModel": [data_model],
        "ModelSchema": {
            "models": models,
            "entities": entity_extras,
            "sample_data": {"seed": design.sample_data.seed, "order": order},
        },
    }


def _key_of(design: d.Design, item: dict[str, Any]) -> str:
    return json.dumps(
        [item.get(a.name) for a in design.table.key_attributes], sort_keys=True
    )


def export_workbench(design: d.Design, *, generated: int = 0) -> str:
    model = workbench_model(design, generated=generated)
    return json.dumps(model, indent=2, ensure_ascii=False) + "\n"
