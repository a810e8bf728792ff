"""What every import of tables shares: the result (a design per table, the
problems, and what was inferred or not carried over), and the table of a
design read from DynamoDB's own description of a table.

CloudFormation's `AWS::DynamoDB::Table` properties, Terraform's
`aws_dynamodb_table` (once its blocks are named as CloudFormation names
them) and DescribeTable all describe a table in the terms of CreateTable:
KeySchema, AttributeDefinitions, GlobalSecondaryIndexes... `TableReader`
turns such a description into the `table` section of a design document,
and `read_table_design` reads the document with `read_design`, so an
imported design passes exactly the checks a hand-written one does."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import yaml

from modeler.design import model as d
from modeler.design.model import default_max_capacity
from modeler.design.problems import Problem
from modeler.designfile import FORMAT, ReadResult, read_design
from modeler.engine.types import item_from_wire
from modeler.exporters.tabledef import DEFAULT_TARGET_UTILISATION as DEFAULT_TARGET
from modeler.importers.budget import (
    ImportLimitError,
    check_cpu,
    check_nesting,
    nesting_message,
)
from modeler.importers.workbench_infer import EntityBuilder, merge_colliding, plain_json
from modeler.sampledata.recognise import EntityRecogniser

TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,255}$")


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """libyaml's dumper when PyYAML has it (an import of 1,000 items writes
    its document in a tenth of the pure-Python dumper's time), writing an
    object met twice (one key value shared by several items) in full: the
    design reader refuses aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _yaml(doc: dict[str, Any]) -> str:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


@dataclass(frozen=True)
class ImportedTable:
    """One table of the file: its design (None when it cannot be made),
    the problems read_design found, and the notes: what was inferred and
    what was not carried over."""

    table_name: str
    design: d.Design | None
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TablesImport:
    """A file of one or more tables: a NoSQL Workbench model, a
    CloudFormation template, a Terraform configuration."""

    model_name: str = ""
    version: str = ""
    tables: tuple[ImportedTable, ...] = ()
    problems: tuple[Problem, ...] = ()  # about the file as a whole

    @property
    def ok(self) -> bool:
        return (
            not any(p.is_error for p in self.problems)
            and bool(self.tables)
            and all(t.design is not None for t in self.tables)
        )

    @property
    def designs(self) -> list[d.Design]:
        return [t.design for t in self.tables if t.design is not None]

    @property
    def all_problems(self) -> list[Problem]:
        out = list(self.problems)
        for table in self.tables:
            prefix = f"{table.table_name}: " if len(self.tables) > 1 else ""
            out += [
                Problem(p.severity, p.path, prefix + p.message, None)
                for p in table.problems
            ]
        return out


# A target tracking policy's settings beside its target value, by their
# CloudFormation (and API) names, and the design's.
POLICY_SETTINGS = {
    "ScaleInCooldown": "scale_in_cooldown",
    "ScaleOutCooldown": "scale_out_cooldown",
    "DisableScaleIn": "disable_scale_in",
}


@dataclass(frozen=True)
class Scaling:
    """An Application Auto Scaling target of a table or one of its GSIs,
    with the target utilisation of its policy (None when it has none) and
    the policy's other settings (POLICY_SETTINGS, as the file gives them)."""

    dimension: str  # dynamodb:table:ReadCapacityUnits, dynamodb:index:...
    index: str  # "" for the table
    minimum: Any
    maximum: Any
    target: Any = None
    policy: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(  # type: ignore[no-untyped-def]
        cls,
        resource_id: str,
        dimension: Any,
        minimum: Any,
        maximum: Any,
        target: Any,
        policy: dict[str, Any] | None = None,
    ):
        """A target from its ResourceId as the file writes it
        (`table/${Table}/index/GSI1`, `table/${aws_dynamodb_table.t.name}`)."""
        index = re.search(r"/index/([^\"/$]+)", resource_id)
        return cls(
            str(dimension or ""),
            index.group(1) if index else "",
            minimum,
            maximum,
            target,
            policy_settings(policy),
        )

    @property
    def unit(self) -> str:
        return "read" if "Read" in self.dimension else "write"


def policy_settings(config: Any) -> tuple[tuple[str, Any], ...]:
    """The POLICY_SETTINGS a policy's configuration (in CloudFormation's
    names) gives."""
    if not isinstance(config, dict):
        return ()
    return tuple((name, config[name]) for name in POLICY_SETTINGS if name in config)


def _range_settings(scaling: Scaling, what: str, notes: list[str]) -> dict[str, Any]:
    """A policy's settings as the design's range holds them: cooldowns in
    whole seconds, scale-in disabled or not. A value that is neither is
    left out with a note (Application Auto Scaling's default stands)."""
    out: dict[str, Any] = {}
    for name, value in scaling.policy:
        if name == "DisableScaleIn":
            flag = _true(value)
            if isinstance(flag, bool):
                if flag:
                    out["disable_scale_in"] = True
                continue
        else:
            seconds = _seconds(value)
            if seconds is not None:
                out[POLICY_SETTINGS[name]] = seconds
                continue
        notes.append(
            f"{name} of {what}'s {scaling.unit}s left out: expected "
            + ("true or false" if name == "DisableScaleIn" else "whole seconds")
            + f", found {value!r}"
        )
    return out


def apply_scaling(
    table: dict[str, Any], scalings: list[Scaling], *, indexes: bool = True
) -> list[str]:
    """The file's auto scaling kept in the design document's table: per
    provisioned capacity (the table's, each GSI's) a range per dimension,
    `false` for a dimension the file does not scale. Ranges that are the
    exports' default (from the capacity to ten times it, at 70%) are left to
    it; without `indexes`, the GSIs' are left to it too (a file that cannot
    hold theirs). Returns the notes that say what was kept and what was
    not."""
    billing = table.get("billing", {})
    if billing.get("mode") != "PROVISIONED":
        return (
            ["auto scaling targets left out: the table is on-demand"]
            if scalings
            else []
        )
    homes: dict[str, dict[str, Any]] = {"": billing}
    for index in table.get("indexes", []) if indexes else ():
        if isinstance(index.get("capacity"), dict):
            homes[index["name"]] = index["capacity"]
    notes: list[str] = []
    ranges: dict[str, dict[str, dict[str, int]]] = {}
    for scaling in scalings:
        what = f"GSI {scaling.index}" if scaling.index else "the table"
        if scaling.index not in homes:
            notes.append(
                f"auto scaling of {what} left out: the table has no such GSI "
                "with capacity of its own"
            )
            continue
        target = DEFAULT_TARGET if scaling.target is None else _whole(scaling.target)
        found = (_whole(scaling.minimum), _whole(scaling.maximum), target)
        if None in found:
            notes.append(
                f"auto scaling of {what}'s {scaling.unit}s left out: expected whole "
                f"numbers, found min {scaling.minimum!r}, max {scaling.maximum!r}, "
                f"target {scaling.target!r}"
            )
            continue
        if scaling.target is None:
            notes.append(
                f"auto scaling of {what}'s {scaling.unit}s has no target tracking "
                f"policy; {DEFAULT_TARGET}% is used"
            )
        minimum, maximum, target = found
        ranges.setdefault(scaling.index, {})[scaling.unit] = {
            "min": minimum,
            "max": maximum,
            "target": target,
            **_range_settings(scaling, what, notes),
        }
    kept = []
    for home, capacity in homes.items():
        what = f"GSI {home}" if home else "the table"
        found = ranges.get(home, {})
        default = {
            unit: {
                "min": capacity[unit],
                "max": default_max_capacity(capacity[unit]),
                "target": DEFAULT_TARGET,
            }
            for unit in ("read", "write")
            if isinstance(capacity.get(unit), int)
        }
        if found == default and len(found) == 2:
            kept.append(
                f"{what}: the exports' default (from the capacity to ten times it)"
            )
            continue
        if not found:
            capacity["auto_scaling"] = False
            kept.append(f"{what}: none (the capacity stays as provisioned)")
            continue
        capacity["auto_scaling"] = {
            unit: found.get(unit, False) for unit in ("read", "write")
        }
        kept.append(
            f"{what}: "
            + ", ".join(
                f"{unit}s {r['min']} to {r['max']} units at {r['target']}%"
                + (f" ({policy})" if (policy := _policy_text(r)) else "")
                if (r := found.get(unit))
                else f"{unit}s not scaled"
                for unit in ("read", "write")
            )
        )
    notes.insert(0, "auto scaling kept: " + "; ".join(kept))
    return notes


@dataclass(frozen=True)
class TableChoice:
    """Which tables of a file to read: `table` names one (its name, or its
    resource's name in the file; "" for all) and `max_tables` caps how many
    an import of all of them reads (0: no cap); with `one`, a file of
    several is refused unless it names one (a command that reads one
    design)."""

    table: str = ""
    max_tables: int = 0
    # How the caller names one table: a command's FILE#TABLE, a form's field.
    naming: str = "name one as FILE#TABLE"
    one: bool = False

    def chosen(
        self, found: list[tuple[tuple[str, ...], Any]], what: str
    ) -> list[Any] | TablesImport:
        """Of the file's tables, each given as (its names, what to read it
        from), those to read, or the failed import that says why none is:
        the named table is not there, or there are more than the cap. The
        tables are counted before any is read: reading four thousand takes
        seconds."""
        names = [names[0] for names, _ in found]
        listed = ", ".join(names[:20]) + (
            f" and {len(names) - 20:,} more" if len(names) > 20 else ""
        )
        if self.table:
            picked = [table for names, table in found if self.table in names]
            if picked:
                return picked[:1]
            return failed(
                f"the {what} has no table '{self.table}'; its tables: {listed}"
            )
        if self.one and len(found) > 1:
            return failed(
                f"the {what} has {len(found):,} tables ({listed}); {self.naming} "
                "(import_design imports them all)"
            )
        if self.max_tables and len(found) > self.max_tables:
            return failed(
                f"the {what} has {len(found):,} tables and an import makes at most "
                f"{self.max_tables:,} projects (the setting IMPORT_MAX_TABLES): "
                f"{self.naming} to import it alone, or raise IMPORT_MAX_TABLES"
            )
        return [table for _, table in found]


ALL_TABLES = TableChoice()


def failed(message: str, line: int | None = None) -> TablesImport:
    return TablesImport(problems=(Problem("error", "file", message, line),))


def load_json(text: str) -> Any:
    """A file's JSON (numbers with a fraction as Decimal), or the failed
    import that says where it is broken."""
    try:
        data = json.loads(text, parse_float=Decimal)
        # Before any code that recurses walks it.
        check_nesting(data)
    except json.JSONDecodeError as exc:
        return failed(
            f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            exc.lineno,
        )
    except RecursionError:
        return failed(nesting_message())
    except ImportLimitError as exc:
        return failed(str(exc))
    return data


def kind_of(value: Any) -> str:
    """What a value is, for messages: 'an object', "the text 'x'"."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if value is None:
        return "null"
    return f"the value {value!r}"


def valid_table_name(name: str, notes: list[str]) -> str:
    """The name, or a name DynamoDB takes made from it (with a note)."""
    if TABLE_NAME.match(name):
        return name
    fixed = re.sub(r"[^A-Za-z0-9_.-]", "-", name)[:255].ljust(3, "_")
    notes.append(f"the table name '{name}' is not valid in DynamoDB; renamed '{fixed}'")
    return fixed


def read_table_design(
    table_name: str,
    doc: dict[str, Any],
    problems: list[Problem],
    notes: list[str],
) -> ImportedTable:
    """The design document read as a design; nothing when the reading
    before it found errors."""
    if any(p.is_error for p in problems):
        return ImportedTable(table_name, None, tuple(problems), tuple(notes))
    text = _yaml(plain_json(doc))
    result = read_design(text, max_bytes=50_000_000)
    return ImportedTable(
        table_name, result.design, tuple(problems + list(result.problems)), tuple(notes)
    )


def read_inferred_design(
    doc: dict[str, Any], notes: list[str], *, entities: EntityBuilder
) -> ReadResult:
    """A design document with entities inferred from items (by `entities`),
    read: entities whose keys collide are merged (their items could not be
    told apart) and it is read again; items that match no entity are
    counted in a note.

    The readings that look for collisions leave the items out: they make no
    collision and are most of a large model's reading (6,000 items with 300
    colliding entities were read 300 times, for minutes). The last reading
    has them."""
    bare = {**doc, "sample_data": {**doc.get("sample_data", {}), "items": []}}
    for _ in range(len(doc["entities"]) + 1):
        check_cpu()
        found = read_design(_yaml(bare), max_bytes=50_000_000)
        # `bare` shares its entities with `doc`: merges are made in both.
        if not merge_colliding(bare, found.problems, notes, entities):
            break
    check_cpu()
    result = read_design(_yaml(doc), max_bytes=50_000_000)
    if result.design is not None:
        recogniser = EntityRecogniser(result.design)
        unknown = 0
        for item in result.design.sample_data.items:
            check_cpu()
            if recogniser.entity_of(item_from_wire(d.thaw(item))) is None:
                unknown += 1
        if unknown:
            notes.append(
                f"{unknown} of {len(result.design.sample_data.items)} sample "
                "items match no entity's key templates; they are kept as items "
                "of the table"
            )
    return result


def design_document(
    name: str, table: dict[str, Any], *, description: str = ""
) -> dict[str, Any]:
    """A design document of a table alone: infrastructure files describe
    the table, not the items in it."""
    doc: dict[str, Any] = {"format": FORMAT, "name": name[:200]}
    if description:
        doc["description"] = description
    doc["table"] = table
    return doc


class TableReader:
    """The `table` section of a design document from a table described in
    CreateTable's terms. `path` prefixes every problem (the table's place in
    its file: `Resources.Orders.Properties`); problems and notes collect in
    the lists given."""

    def __init__(
        self,
        path: str,
        problems: list[Problem],
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
            Problem("error", f"{self.path}.{'.'.join(parts)}", message)
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
            if _true(ttl.get("Enabled")) is True:
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
            doc["point_in_time_recovery"] = _true(
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
            doc["deletion_protection"] = _true(props["DeletionProtectionEnabled"])
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
                index["projection"] = self.projection(
                    spec.get("Projection"), f"{where}.Projection", name, keys_here
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

    def projection(self, data: Any, where: str, index: str, keys: set[str]) -> Any:
        if data is None:
            self.error(
                where, "is required: {ProjectionType: ALL | KEYS_ONLY | INCLUDE}"
            )
            return "ALL"
        if not isinstance(data, dict):
            self.error(where, f"expected an object, found {kind_of(data)}")
            return "ALL"
        kind = data.get("ProjectionType", "ALL")
        if kind not in d.PROJECTION_TYPES:
            self.error(
                f"{where}.ProjectionType",
                f"{kind!r} is not one of ALL, KEYS_ONLY, INCLUDE",
            )
            return "ALL"
        if kind != "INCLUDE":
            return kind
        attrs = data.get("NonKeyAttributes") or []
        if not isinstance(attrs, list) or not all(isinstance(a, str) for a in attrs):
            self.error(f"{where}.NonKeyAttributes", "expected a list of names")
            return "ALL"
        listed = [a for a in attrs if a in keys]
        kept = [a for a in attrs if a not in keys]
        if listed:
            self.notes.append(
                f"index {index}: the key attribute{'s' * (len(listed) > 1)} "
                f"{', '.join(listed)} left out of its INCLUDE projection, as every "
                "index projects the keys"
            )
        if not kept:
            self.notes.append(
                f"index {index}: an INCLUDE projection of no other attribute is "
                "read as KEYS_ONLY"
            )
            return "KEYS_ONLY"
        return {"type": "INCLUDE", "attributes": kept}

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
            read = _whole(data.get("ReadCapacityUnits"))
            write = _whole(data.get("WriteCapacityUnits"))
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
        if not isinstance(data, dict) or _true(data.get("SSEEnabled")) is not True:
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
        return {str(k): _text(v) for k, v in pairs}


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


def _true(value: Any) -> Any:
    """CloudFormation and Terraform write booleans as true or as 'true'; any
    other value is kept, for the design check to name."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():  # not inf or nan
        value = int(value)
    return str(value)


def _policy_text(found: dict[str, Any]) -> str:
    """A range's policy settings in the words the pages use."""
    return d.ScalingRange(
        found["min"],
        found["max"],
        scale_in_cooldown=found.get("scale_in_cooldown"),
        scale_out_cooldown=found.get("scale_out_cooldown"),
        disable_scale_in=found.get("disable_scale_in", False),
    ).policy_text


def _seconds(value: Any) -> int | None:
    """A cooldown: whole seconds, 0 included."""
    if isinstance(value, str) and value.strip() == "0":
        return 0
    if not isinstance(value, bool) and value == 0:
        return 0
    return _whole(value)


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and not value.is_integer():  # inf and nan too
        return None
    if isinstance(value, Decimal) and not (
        value.is_finite() and value == value.to_integral_value()
    ):
        return None
    if isinstance(value, (int, float, Decimal)) and value >= 1:
        return int(value)
    return None
