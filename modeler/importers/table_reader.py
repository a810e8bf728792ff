"""The `table` section of a design document from a description of a table in
the terms of CreateTable (KeySchema, AttributeDefinitions,
GlobalSecondaryIndexes...), as CloudFormation, Terraform and DescribeTable
give it.
"""

from __future__ import annotations

from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.importers.projections import read_projection
from modeler.importers.table_values import loose_boolean, value_text, whole_number
from modeler.importers.tables import kind_of


class TableReader:
    """The `table` section of a design document from a table described in
    CreateTable's terms. `path` prefixes every problem (the table's place in
    its file: `Resources.Orders.Properties`); problems and notes collect in
    the lists given."""

    def __init__(
        self,
        path: str,
        problems: list[Finding],
        notes: list[str],
        *,
        what: str,
        names: dict[str, str] | None = None,
    ) -> None:
        self.path = path
        self.problems = problems
        self.notes = notes
        self.what = what  # "the template", "the configuration": for notes
        # The file's own names for CreateTable's members, for problem paths.
        self.names = names or {}

    def error(self, path: str, message: str) -> None:
        parts = [
            self.names.get(part.partition("[")[0], part.partition("[")[0])
            + (f"[{part.partition('[')[2]}" if "[" in part else "")
            for part in path.split(".")
        ]
        self.problems.append(
            error("table-definition-invalid", f"{self.path}.{'.'.join(parts)}", message)
        )

    def pair(self, second: str) -> str:
        """{AttributeName, KeyType} in the file's own names."""
        names = [self.names.get(n, n) for n in ("AttributeName", second)]
        return "{" + ", ".join(names) + "}"

    def table(self, props: dict[str, Any], name: str) -> dict[str, Any] | None:
        types = self.attribute_types(props.get("AttributeDefinitions"))
        keys = self.key_schema(props.get("KeySchema"), "KeySchema", types)
        if keys is None:
            return None
        (partition,), sort = keys
        if len(sort) > 1:
            self.error("KeySchema", "a table has at most one RANGE key")
            return None
        billing = props.get("BillingMode") or "PROVISIONED"
        doc: dict[str, Any] = {"name": name, "partition_key": partition}
        if sort:
            doc["sort_key"] = sort[0]
        doc["billing"] = {"mode": billing}
        if billing == "PROVISIONED":
            doc["billing"].update(self.throughput(props, "ProvisionedThroughput"))
        elif props.get("ProvisionedThroughput"):
            self.notes.append(
                "the table's ProvisionedThroughput is not kept: the table is on demand"
            )
        self.on_demand_limits(props, "the table")
        ttl = props.get("TimeToLiveSpecification")
        if isinstance(ttl, dict) and ttl.get("AttributeName"):
            if loose_boolean(ttl.get("Enabled")) is True:
                doc["ttl_attribute"] = ttl["AttributeName"]
            else:
                self.notes.append(
                    f"TTL on {ttl['AttributeName']} is disabled in {self.what}; the "
                    "design has no TTL attribute"
                )
        stream = props.get("StreamSpecification")
        if isinstance(stream, dict) and stream.get("StreamViewType"):
            if stream.get("StreamEnabled") is False:
                self.notes.append(f"the stream is disabled in {self.what}")
            else:
                doc["stream"] = stream["StreamViewType"]
        pitr = props.get("PointInTimeRecoverySpecification")
        if isinstance(pitr, dict):
            doc["point_in_time_recovery"] = loose_boolean(
                pitr.get("PointInTimeRecoveryEnabled")
            )
            days = pitr.get("RecoveryPeriodInDays")
            if days not in (None, 35):
                self.notes.append(
                    f"point-in-time recovery keeps {days} days in {self.what}; the "
                    "design does not model the period (DynamoDB's default is 35)"
                )
        doc["encryption"] = self.encryption(props.get("SSESpecification"))
        if props.get("TableClass"):
            doc["table_class"] = props["TableClass"]
        if "DeletionProtectionEnabled" in props:
            doc["deletion_protection"] = loose_boolean(
                props["DeletionProtectionEnabled"]
            )
        tags = self.tags(props.get("Tags"))
        if tags:
            doc["tags"] = tags
        indexes = self.indexes(props, doc, types, billing)
        if indexes:
            doc["indexes"] = indexes
        unused = sorted(set(types) - _key_names(doc))
        if unused:
            self.notes.append(
                "AttributeDefinitions lists "
                + ", ".join(unused)
                + ", which no key uses (DynamoDB refuses that); left out"
            )
        for field, what in (
            ("ContributorInsightsSpecification", "CloudWatch Contributor Insights"),
            ("KinesisStreamSpecification", "the Kinesis data stream"),
            ("ImportSourceSpecification", "the import from S3"),
            ("ResourcePolicy", "the resource policy"),
        ):
            if props.get(field):
                self.notes.append(f"{what} ({field}) is not part of a design")
        return doc

    # Keys ---------------------------------------------------------------

    def attribute_types(self, data: Any) -> dict[str, str]:
        types: dict[str, str] = {}
        if not isinstance(data, list):
            self.error(
                "AttributeDefinitions",
                f"is required: a list of {self.pair('AttributeType')}, found "
                + kind_of(data),
            )
            return types
        for i, spec in enumerate(data):
            where = f"AttributeDefinitions[{i}]"
            if not isinstance(spec, dict) or not isinstance(
                spec.get("AttributeName"), str
            ):
                self.error(where, f"expected {self.pair('AttributeType')}")
                continue
            kind = spec.get("AttributeType")
            if kind not in d.KEY_TYPES:
                self.error(f"{where}.AttributeType", f"{kind!r} is not one of S, N, B")
                continue
            types[spec["AttributeName"]] = kind
        return types

    def key_schema(
        self, data: Any, where: str, types: dict[str, str]
    ) -> tuple[list[dict], list[dict]] | None:
        """The HASH and RANGE attributes of a key schema, each as a design
        key attribute; None (with the problem) when it is not one."""
        if not isinstance(data, list) or not data:
            self.error(
                where,
                f"is required: a list of {self.pair('KeyType')}, found "
                + kind_of(data),
            )
            return None
        hash_keys: list[dict] = []
        range_keys: list[dict] = []
        for i, spec in enumerate(data):
            at = f"{where}[{i}]"
            if not isinstance(spec, dict) or not isinstance(
                spec.get("AttributeName"), str
            ):
                self.error(at, f"expected {self.pair('KeyType')}")
                return None
            name = spec["AttributeName"]
            if name not in types:
                self.error(
                    f"{at}.AttributeName",
                    f"'{name}' is not in AttributeDefinitions, which gives every "
                    "key attribute its type",
                )
                return None
            kind = spec.get("KeyType")
            if kind not in ("HASH", "RANGE"):
                self.error(f"{at}.KeyType", f"{kind!r} is not HASH or RANGE")
                return None
            (hash_keys if kind == "HASH" else range_keys).append(
                {"name": name, "type": types[name]}
            )
        if not hash_keys:
            self.error(where, "has no HASH (partition) key")
            return None
        return hash_keys, range_keys

    # Indexes ------------------------------------------------------------

    def indexes(
        self,
        props: dict[str, Any],
        table: dict[str, Any],
        types: dict[str, str],
        billing: str,
    ) -> list[dict[str, Any]]:
        out = []
        for kind, member in (
            ("global", "GlobalSecondaryIndexes"),
            ("local", "LocalSecondaryIndexes"),
        ):
            specs = props.get(member) or []
            if not isinstance(specs, list):
                self.error(member, f"expected a list, found {kind_of(specs)}")
                continue
            for i, spec in enumerate(specs):
                where = f"{member}[{i}]"
                if not isinstance(spec, dict) or not isinstance(
                    spec.get("IndexName"), str
                ):
                    self.error(where, "expected an index with IndexName and KeySchema")
                    continue
                keys = self.key_schema(
                    spec.get("KeySchema"), f"{where}.KeySchema", types
                )
                if keys is None:
                    continue
                partition, sort = keys
                name = spec["IndexName"]
                index: dict[str, Any] = {"name": name, "kind": kind}
                if kind == "global":
                    index["partition_key"] = (
                        partition[0] if len(partition) == 1 else partition
                    )
                    if sort:
                        index["sort_key"] = sort[0] if len(sort) == 1 else sort
                else:
                    if partition[0]["name"] != table["partition_key"]["name"]:
                        self.error(
                            f"{where}.KeySchema",
                            f"an LSI's partition key is the table's "
                            f"({table['partition_key']['name']}), not "
                            f"{partition[0]['name']}",
                        )
                        continue
                    if len(sort) != 1:
                        self.error(
                            f"{where}.KeySchema", "an LSI needs exactly one RANGE key"
                        )
                        continue
                    index["sort_key"] = sort[0]
                keys_here = {a["name"] for a in partition + sort} | _key_names(
                    {
                        "partition_key": table["partition_key"],
                        **(
                            {"sort_key": table["sort_key"]}
                            if "sort_key" in table
                            else {}
                        ),
                    }
                )
                index["projection"] = read_projection(
                    spec.get("Projection"),
                    f"{where}.Projection",
                    index=name,
                    keys=keys_here,
                    required=True,
                    fail=self.error,
                    notes=self.notes,
                )
                if kind == "global" and billing == "PROVISIONED":
                    index["capacity"] = self.throughput(
                        spec, "ProvisionedThroughput", index=name, table=table
                    )
                elif kind == "global" and spec.get("ProvisionedThroughput"):
                    self.notes.append(
                        f"GSI {name}: its ProvisionedThroughput is not kept, since "
                        "the table is on demand"
                    )
                if kind == "global":
                    self.on_demand_limits(spec, f"GSI {name}")
                    if spec.get("ContributorInsightsSpecification"):
                        self.notes.append(
                            f"GSI {name}: CloudWatch Contributor Insights is not "
                            "part of a design"
                        )
                out.append(index)
        return out

    # Settings -----------------------------------------------------------

    def throughput(
        self,
        spec: dict[str, Any],
        member: str,
        *,
        index: str = "",
        table: dict[str, Any] | None = None,
    ) -> dict[str, int]:
        data = spec.get(member)
        where = f"the GSI {index}" if index else "the table"
        read = write = None
        if isinstance(data, dict):
            read = whole_number(data.get("ReadCapacityUnits"))
            write = whole_number(data.get("WriteCapacityUnits"))
        if read is not None and write is not None:
            return {"read": read, "write": write}
        fallback = (
            (table["billing"]["read"], table["billing"]["write"])
            if table is not None
            else (5, 5)
        )
        self.notes.append(
            f"{where} is provisioned but {self.what} gives no whole read and write "
            f"capacity; {fallback[0]} read and {fallback[1]} write are used"
        )
        return {"read": read or fallback[0], "write": write or fallback[1]}

    def on_demand_limits(self, spec: dict[str, Any], where: str) -> None:
        for field, what in (
            ("OnDemandThroughput", "maximum on-demand throughput"),
            ("WarmThroughput", "warm throughput"),
        ):
            if spec.get(field):
                self.notes.append(
                    f"{where}: the {what} ({field}) is not part of a design; the "
                    "review checks on-demand load against DynamoDB's defaults"
                )

    def encryption(self, data: Any) -> dict[str, Any]:
        if (
            not isinstance(data, dict)
            or loose_boolean(data.get("SSEEnabled")) is not True
        ):
            return {"type": "AWS_OWNED"}
        key = data.get("KMSMasterKeyId")
        if data.get("SSEType") == "KMS" or key:
            return {"type": "KMS", **({"kms_key": key} if key else {})}
        return {"type": "AWS_MANAGED"}

    def tags(self, data: Any) -> dict[str, str]:
        if not data:
            return {}
        pairs: list[tuple[Any, Any]] = []
        if isinstance(data, dict):
            pairs = list(data.items())
        elif isinstance(data, list):
            for i, tag in enumerate(data):
                if not isinstance(tag, dict) or "Key" not in tag:
                    self.error(f"Tags[{i}]", _tag_error(tag))
                    continue
                pairs.append((tag["Key"], tag.get("Value", "")))
        else:
            self.error(
                "Tags", f"expected a list of {{Key, Value}}, found {kind_of(data)}"
            )
        return {str(k): value_text(v) for k, v in pairs}


def _tag_error(tag: Any) -> str:
    """What is wrong with a tag of a list, and how to write it."""
    expected = "expected a tag {Key: NAME, Value: VALUE}"
    if isinstance(tag, dict) and len(tag) == 1:
        ((name, value),) = tag.items()
        if not isinstance(value, (dict, list)):
            return (
                f"{expected}, found {{{name}: {value}}} (a name and its value): "
                f"write {{Key: {name}, Value: {value}}}"
            )
    return f"{expected}, found {kind_of(tag)}"


def _key_names(table: dict[str, Any]) -> set[str]:
    names = set()
    for key in ("partition_key", "sort_key"):
        value = table.get(key)
        for attribute in value if isinstance(value, list) else [value]:
            if isinstance(attribute, dict):
                names.add(attribute["name"])
    for index in table.get("indexes", ()):
        names |= _key_names(index)
    return names
