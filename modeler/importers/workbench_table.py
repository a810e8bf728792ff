"""One table of a NoSQL Workbench model read as a design document: its keys
and indexes, billing and capacity (with the table's auto scaling), its
items, and its entities (from the facets, the ModelSchema section, or
inferred from the items), written in the workbench's own format and read
with `read_inferred_design`. What cannot be carried over goes to `notes`."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import FORMAT, ReadResult
from modeler.importers.budget import check_cpu
from modeler.importers.projections import read_projection
from modeler.importers.table_scaling import Scaling, apply_scaling, policy_settings
from modeler.importers.tables import (
    ImportedTable,
    kind_of,
    read_inferred_design,
    valid_table_name,
)
from modeler.importers.workbench_groups import (
    Group,
    discriminator,
    in_listed_order,
    item_groups,
    scalar_text,
    unique_items,
)
from modeler.importers.workbench_infer import (
    EntityBuilder,
    plain_json,
    schema_extras,
    schema_models,
)
from modeler.importers.workbench_values import BadValue, is_number, wire_value

# NoSQL Workbench's sample data formats with a generator of the same kind.
SAMPLE_FORMATS: dict[tuple[str, str], Any] = {
    ("identifiers", "UUID"): "uuid",
    ("identifiers", "Email"): {"faker": "email"},
    ("identifiers", "Username"): {"faker": "user_name"},
    ("identifiers", "URL"): {"faker": "url"},
    ("identifiers", "IPv4"): {"faker": "ipv4"},
    ("identifiers", "Phone number"): {"faker": "phone_number"},
    ("names", "First name"): {"faker": "first_name"},
    ("names", "Last name"): {"faker": "last_name"},
    ("names", "Full name"): {"faker": "name"},
    ("names", "Company name"): {"faker": "company"},
    ("location", "City"): {"faker": "city"},
    ("location", "Country"): {"faker": "country"},
    ("location", "Street address"): {"faker": "street_address"},
    ("location", "Zip code"): {"faker": "postcode"},
    ("date", "ISO 8601 date and time"): {
        "timestamp": {"from": "2024-01-01", "to": "2026-12-31"}
    },
    ("date", "ISO 8601 date"): {"date": {"from": "2024-01-01", "to": "2026-12-31"}},
    ("date", "Epoch"): {"int": {"min": 1704067200, "max": 1798761599}},
    ("dataTypes", "Boolean"): "bool",
    ("text", "Sentence"): {"faker": "sentence"},
    ("text", "Paragraph"): {"faker": "paragraph"},
    ("text", "Word"): {"faker": "word"},
}


def model_error(path: str, message: str) -> Finding:
    return error("workbench-model-invalid", path, message)


class TableReader:
    """One table of a model file (at `path`), read into an `ImportedTable`."""

    def __init__(
        self, model: dict, table: Any, path: str, model_name: str, several: bool
    ) -> None:
        self.model = model
        self.table = table
        self.path = path
        self.model_name = model_name
        self.several = several
        self.problems: list[Finding] = []
        self.notes: list[str] = []
        self.scalings: list[Scaling] = []  # the table's auto scaling

    def error(self, path: str, message: str) -> None:
        self.problems.append(model_error(path, message))

    def read(self, common_notes: list[str]) -> ImportedTable:
        table = self.table
        if not isinstance(table, dict):
            self.error(self.path, f"expected a table object, found {kind_of(table)}")
            return ImportedTable("", None, tuple(self.problems))
        name = table.get("TableName")
        if not isinstance(name, str) or not name:
            self.error(f"{self.path}.TableName", "is required: the table's name")
            name = ""
        keys = self.key_attributes(
            table.get("KeyAttributes"), f"{self.path}.KeyAttributes"
        )
        if keys is None or self.problems:
            return ImportedTable(name, None, tuple(self.problems))
        partition, sort = keys
        self.notes = list(common_notes)
        doc, entities = self.document(name, partition, sort)
        if self.problems:
            return ImportedTable(name, None, tuple(self.problems), tuple(self.notes))
        result = self.finish(doc, entities)
        return ImportedTable(
            name,
            result.design,
            tuple(result.problems),
            tuple(self.notes),
        )

    # Shape --------------------------------------------------------------

    def key_attribute(self, data: Any, path: str) -> d.KeyAttribute | None:
        if not isinstance(data, dict):
            self.error(
                path,
                "expected an object with AttributeName and AttributeType, found "
                + kind_of(data),
            )
            return None
        name, kind = data.get("AttributeName"), data.get("AttributeType", "S")
        if not isinstance(name, str) or not name:
            self.error(f"{path}.AttributeName", "is required")
            return None
        if kind not in d.KEY_TYPES:
            self.error(f"{path}.AttributeType", f"{kind!r} is not one of S, N, B")
            return None
        return d.KeyAttribute(name, kind)

    def key_attributes(
        self, data: Any, path: str
    ) -> tuple[d.KeyAttribute, d.KeyAttribute | None] | None:
        if not isinstance(data, dict):
            self.error(path, "is required: an object with PartitionKey (and SortKey)")
            return None
        if "PartitionKey" not in data:
            self.error(f"{path}.PartitionKey", "is required")
            return None
        partition = self.key_attribute(data["PartitionKey"], f"{path}.PartitionKey")
        sort = (
            self.key_attribute(data["SortKey"], f"{path}.SortKey")
            if data.get("SortKey") is not None
            else None
        )
        if partition is None or (data.get("SortKey") is not None and sort is None):
            return None
        return partition, sort

    def list_of(self, data: Any, path: str) -> list:
        if data is None:
            return []
        if not isinstance(data, list):
            self.error(path, f"expected a list, found {kind_of(data)}")
            return []
        return data

    # The design document ------------------------------------------------

    def document(
        self, table_name: str, partition: d.KeyAttribute, sort: d.KeyAttribute | None
    ) -> tuple[dict, EntityBuilder]:
        """The design document, and the inference of its entities (which
        infers an entity again when two must be merged)."""
        table = self.table
        path = self.path
        key_types: dict[str, str] = {partition.name: partition.type}
        if sort:
            key_types[sort.name] = sort.type
        table_name = valid_table_name(table_name, self.notes)
        billing, capacity = self.billing(table)
        indexes = []
        index_keys: dict[str, list[str]] = {}
        for kind, member in (
            ("global", "GlobalSecondaryIndexes"),
            ("local", "LocalSecondaryIndexes"),
        ):
            for i, spec in enumerate(
                self.list_of(table.get(member), f"{path}.{member}")
            ):
                where = f"{path}.{member}[{i}]"
                if not isinstance(spec, dict) or not isinstance(
                    spec.get("IndexName"), str
                ):
                    self.error(
                        where, "expected an index with IndexName and KeyAttributes"
                    )
                    continue
                keys = self.key_attributes(
                    spec.get("KeyAttributes"), f"{where}.KeyAttributes"
                )
                if keys is None:
                    continue
                ipk, isk = keys
                clash = [
                    a
                    for a in (ipk, isk)
                    if a and key_types.get(a.name, a.type) != a.type
                ]
                if clash:
                    self.error(
                        f"{where}.KeyAttributes",
                        f"'{clash[0].name}' is {clash[0].type} here but "
                        f"{key_types[clash[0].name]} elsewhere; DynamoDB gives an "
                        "attribute one type",
                    )
                    continue
                for a in (ipk, isk):
                    if a:
                        key_types[a.name] = a.type
                index: dict[str, Any] = {"name": spec["IndexName"], "kind": kind}
                if kind == "global":
                    index["partition_key"] = {"name": ipk.name, "type": ipk.type}
                    if isk:
                        index["sort_key"] = {"name": isk.name, "type": isk.type}
                else:
                    if ipk.name != partition.name:
                        self.notes.append(
                            f"LSI {spec['IndexName']}: its partition key "
                            f"{ipk.name} is not the table's; it uses {partition.name}"
                        )
                    if isk is None:
                        self.error(
                            f"{where}.KeyAttributes.SortKey", "an LSI needs a sort key"
                        )
                        continue
                    index["sort_key"] = {"name": isk.name, "type": isk.type}
                index["projection"] = read_projection(
                    spec.get("Projection"),
                    f"{where}.Projection",
                    index=spec["IndexName"],
                    keys={partition.name, *(a.name for a in (sort, ipk, isk) if a)},
                    required=False,
                    fail=self.error,
                    notes=self.notes,
                )
                if kind == "global" and billing == "PROVISIONED":
                    index["capacity"] = self.index_capacity(spec, capacity, where)
                elif kind == "global" and spec.get("ProvisionedThroughput"):
                    self.notes.append(
                        f"GSI {spec['IndexName']}: its provisioned throughput is not "
                        "kept, since the table is on demand"
                    )
                indexes.append(index)
                index_keys[spec["IndexName"]] = [a.name for a in (ipk, isk) if a]
        table_doc: dict[str, Any] = {
            "name": table_name,
            "partition_key": {"name": partition.name, "type": partition.type},
        }
        if sort:
            table_doc["sort_key"] = {"name": sort.name, "type": sort.type}
        table_doc["billing"] = {
            "mode": billing,
            **(
                {"read": capacity[0], "write": capacity[1]}
                if billing == "PROVISIONED"
                else {}
            ),
        }
        if indexes:
            table_doc["indexes"] = indexes
        # A model holds the table's auto scaling only: its GSIs keep the
        # exports' default.
        self.notes.extend(apply_scaling(table_doc, self.scalings, indexes=False))
        self.unread(table)
        declared_types = self.declared_types(table, key_types)
        items = self.items(
            table.get("TableData"), f"{path}.TableData", key_types, partition, sort
        )
        groups = self.groups(table, items, key_types, partition, sort)
        formats = self.sample_formats(table.get("SampleDataFormats"))
        builder = EntityBuilder(
            key_types,
            [k for k in (partition, sort) if k],
            index_keys,
            declared_types,
            formats,
            self.notes,
        )
        entities = builder.build(groups)
        all_items = unique_items(
            items + [i for g in groups for i in g.items], (partition, sort), self.notes
        )
        name = self.model_name
        if self.several:
            name = f"{self.model_name} — {table.get('TableName')}"
        doc: dict[str, Any] = {"format": FORMAT, "name": name[:200]}
        description = self.model.get("ModelMetadata", {}).get("Description")
        if isinstance(description, str) and description.strip():
            doc["description"] = description
        doc["table"] = table_doc
        extras = schema_extras(self.model)
        for entity_name, extra in extras.get("entities", {}).items():
            if entity_name in entities and isinstance(extra, dict):
                for field_name in ("description", "sample"):
                    if field_name in extra:
                        entities[entity_name][field_name] = plain_json(
                            extra[field_name]
                        )
        doc["entities"] = entities
        doc["access_patterns"] = []
        listed = extras.get("sample_data", {})
        all_items = in_listed_order(all_items, listed.get("order"), (partition, sort))
        doc["sample_data"] = {
            "seed": plain_json(listed.get("seed", 1)),
            "items": all_items,
        }
        return doc, builder

    def unread(self, table: dict) -> None:
        known = {
            "TableName",
            "KeyAttributes",
            "NonKeyAttributes",
            "TableFacets",
            "GlobalSecondaryIndexes",
            "LocalSecondaryIndexes",
            "TableData",
            "DataAccess",
            "BillingMode",
            "ProvisionedCapacitySettings",
            "SampleDataFormats",
        }
        extra = sorted(k for k in table if k not in known)
        if extra:
            self.notes.append(
                f"table {table.get('TableName')}: fields not read: " + ", ".join(extra)
            )
        access = table.get("DataAccess")
        if isinstance(access, dict) and any(access.values()):
            self.notes.append(
                f"table {table.get('TableName')}: the DataAccess (MySQL import) "
                "settings are not kept"
            )

    def billing(self, table: dict) -> tuple[str, tuple[int, int]]:
        mode = table.get("BillingMode") or "PAY_PER_REQUEST"
        if mode not in d.BILLING_MODES:
            self.error(
                f"{self.path}.BillingMode",
                f"{mode!r} is not one of " + ", ".join(d.BILLING_MODES),
            )
            return "PAY_PER_REQUEST", (1, 1)
        settings = table.get("ProvisionedCapacitySettings") or {}
        if not isinstance(settings, dict):
            self.error(f"{self.path}.ProvisionedCapacitySettings", "expected an object")
            return mode, (1, 1)
        throughput = self.throughput(
            settings.get("ProvisionedThroughput"),
            f"{self.path}.ProvisionedCapacitySettings.ProvisionedThroughput",
        )
        if throughput is None:
            return mode, (1, 1)
        read = _whole(throughput.get("ReadCapacityUnits"))
        write = _whole(throughput.get("WriteCapacityUnits"))
        if mode == "PROVISIONED" and (read is None or write is None):
            self.notes.append(
                "the table is provisioned but gives no read and write capacity; "
                "5 and 5 are used"
            )
        for member, unit in (
            ("AutoScalingRead", "ReadCapacityUnits"),
            ("AutoScalingWrite", "WriteCapacityUnits"),
        ):
            spec = settings.get(member)
            if not isinstance(spec, dict):
                continue
            target = spec.get("ScalableTargetRequest") or {}
            policy = spec.get("ScalingPolicyConfiguration") or {}
            if isinstance(target, dict) and isinstance(policy, dict):
                self.scalings.append(
                    Scaling(
                        f"dynamodb:table:{unit}",
                        "",
                        target.get("MinCapacity"),
                        target.get("MaxCapacity"),
                        policy.get("TargetValue"),
                        policy_settings(policy),
                    )
                )
        return mode, (read or 5, write or 5)

    def throughput(self, data: Any, path: str) -> dict | None:
        """A ProvisionedThroughput object ({} when there is none), or None
        with an error when it is not an object."""
        if not data:
            return {}
        if not isinstance(data, dict):
            self.error(
                path,
                "expected an object with ReadCapacityUnits and WriteCapacityUnits, "
                f"found {kind_of(data)}",
            )
            return None
        return data

    def index_capacity(
        self, spec: dict, table: tuple[int, int], where: str
    ) -> dict[str, int]:
        throughput = self.throughput(
            spec.get("ProvisionedThroughput"), f"{where}.ProvisionedThroughput"
        )
        if throughput is None:
            return {"read": table[0], "write": table[1]}
        read = _whole(throughput.get("ReadCapacityUnits"))
        write = _whole(throughput.get("WriteCapacityUnits"))
        if read is None or write is None:
            self.notes.append(
                f"GSI {spec.get('IndexName')} has no capacity of its own; it is "
                f"given the table's ({table[0]} read, {table[1]} write)"
            )
            return {"read": table[0], "write": table[1]}
        return {"read": read, "write": write}

    def declared_types(self, table: dict, key_types: dict[str, str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for i, spec in enumerate(
            self.list_of(table.get("NonKeyAttributes"), f"{self.path}.NonKeyAttributes")
        ):
            if isinstance(spec, dict) and isinstance(spec.get("AttributeName"), str):
                kind = spec.get("AttributeType", "S")
                if kind not in d.ATTRIBUTE_TYPES:
                    self.notes.append(
                        f"attribute {spec['AttributeName']}: type {kind!r} is "
                        "unknown; read as S"
                    )
                    kind = "S"
                out[spec["AttributeName"]] = kind
            elif isinstance(spec, str):
                out[spec] = "S"
            else:
                self.error(
                    f"{self.path}.NonKeyAttributes[{i}]",
                    "expected an object with AttributeName and AttributeType",
                )
        return out

    def sample_formats(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            return {}
        out = {}
        for attribute, spec in data.items():
            pair = (
                tuple(spec[:2]) if isinstance(spec, list) and len(spec) >= 2 else None
            )
            generator = SAMPLE_FORMATS.get(pair) if pair else None
            if generator is not None:
                out[attribute] = generator
            elif pair and pair[0] != "dataTypes":
                self.notes.append(
                    f"sample data format of {attribute} ({' / '.join(map(str, pair))}) "
                    "has no matching generator; the default one is used"
                )
        return out

    def items(
        self,
        data: Any,
        path: str,
        key_types: dict[str, str],
        partition: d.KeyAttribute,
        sort: d.KeyAttribute | None,
    ) -> list[dict[str, dict]]:
        out = []
        skipped: list[str] = []
        for i, raw in enumerate(self.list_of(data, path)):
            check_cpu()
            if not isinstance(raw, dict):
                skipped.append(f"item {i + 1} is not an object")
                continue
            item: dict[str, dict] = {}
            bad = ""
            for name, value in raw.items():
                try:
                    item[str(name)] = wire_value(value)
                except BadValue as exc:
                    bad = f"item {i + 1}, attribute {name}: {exc}"
                    break
            for key in (partition, sort):
                if bad or key is None:
                    continue
                if key.name not in item:
                    bad = f"item {i + 1} has no {key.name}, the table's key"
                elif key.type not in item[key.name]:
                    # Model files often hold numbers as text: take them.
                    text = scalar_text(item[key.name])
                    if key.type == "N" and text is not None and is_number(text):
                        item[key.name] = {"N": text}
                    elif key.type == "S" and text is not None:
                        item[key.name] = {"S": text}
                    else:
                        bad = (
                            f"item {i + 1}: {key.name} is "
                            f"{next(iter(item[key.name]))}, the key is {key.type}"
                        )
            for name, kind in key_types.items():
                if bad or name not in item or kind in item[name]:
                    continue
                text = scalar_text(item[name])
                if kind == "S" and text is not None:
                    item[name] = {"S": text}
                elif kind == "N" and text is not None and is_number(text):
                    item[name] = {"N": text}
                else:
                    found = next(iter(item[name]))
                    bad = f"item {i + 1}: {name} is {found}, the key is {kind}"
            if bad:
                skipped.append(bad)
            else:
                out.append(item)
        if skipped:
            self.notes.append(
                f"{path}: {len(skipped)} item(s) left out: "
                + "; ".join(skipped[:5])
                + (" ..." if len(skipped) > 5 else "")
            )
        return out

    def groups(
        self,
        table: dict,
        items: list[dict[str, dict]],
        key_types: dict[str, str],
        partition: d.KeyAttribute,
        sort: d.KeyAttribute | None,
    ) -> list[Group]:
        facets = self.list_of(table.get("TableFacets"), f"{self.path}.TableFacets")
        models = schema_models(self.model, table)
        # The entities this workbench exported: their keys are taken as the
        # design had them, not inferred again from the items.
        exported = schema_extras(self.model).get("entities", {})
        groups: list[Group] = []
        if facets:
            for i, facet in enumerate(facets):
                where = f"{self.path}.TableFacets[{i}]"
                if not isinstance(facet, dict) or not isinstance(
                    facet.get("FacetName"), str
                ):
                    self.error(where, "expected a facet with a FacetName")
                    continue
                alias = facet.get("KeyAttributeAlias") or {}
                aliases = {}
                if isinstance(alias, dict):
                    if isinstance(alias.get("PartitionKeyAlias"), str):
                        aliases[partition.name] = alias["PartitionKeyAlias"]
                    if sort and isinstance(alias.get("SortKeyAlias"), str):
                        aliases[sort.name] = alias["SortKeyAlias"]
                group = Group(
                    facet["FacetName"],
                    self.items(
                        facet.get("TableData"),
                        f"{where}.TableData",
                        key_types,
                        partition,
                        sort,
                    ),
                    aliases,
                    models.get(facet["FacetName"], {}),
                    [
                        a
                        for a in self.list_of(
                            facet.get("NonKeyAttributes"), f"{where}.NonKeyAttributes"
                        )
                        if isinstance(a, str)
                    ],
                    f"facet {facet['FacetName']}",
                    exported=facet["FacetName"] in exported,
                )
                groups.append(group)
                extra = sorted(
                    k
                    for k in facet
                    if k
                    not in (
                        "FacetName",
                        "KeyAttributeAlias",
                        "TableData",
                        "NonKeyAttributes",
                        "DataAccess",
                    )
                )
                if extra:
                    self.notes.append(
                        f"facet {facet['FacetName']}: fields not read: "
                        + ", ".join(extra)
                    )
            return groups
        type_attribute = discriminator(items)
        if models:
            by_name = {
                name: Group(name, [], {}, spec, [], f"model {name}")
                for name, spec in models.items()
            }
            rest = []
            for item in items:
                value = scalar_text(item.get(type_attribute or "type", {}))
                if value in by_name:
                    by_name[value].items.append(item)
                else:
                    rest.append(item)
            groups = list(by_name.values())
            if rest:
                groups.append(
                    Group(
                        table.get("TableName", "Item"), rest, origin="items of no model"
                    )
                )
            return groups
        return item_groups(
            items,
            list(key_types),
            2 if sort else 1,
            str(table.get("TableName") or "Item"),
            self.notes,
        )

    # Read the document as a design ------------------------------------

    def finish(self, doc: dict, entities: EntityBuilder) -> ReadResult:
        return read_inferred_design(doc, self.notes, entities=entities)


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Decimal)) and value == int(value) and value >= 1:
        return int(value)
    return None
