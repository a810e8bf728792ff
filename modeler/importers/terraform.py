"""Import of Terraform configurations: every `aws_dynamodb_table` resource
becomes a design.

The configuration is parsed with python-hcl2 (no Terraform needed), and a
table's arguments and blocks are named as CloudFormation names them, so
one reader (`tables_import.TableReader`) makes the design from either.
Expressions are resolved where the file alone decides them: `var.x` with
a default, `local.x`, text with such interpolations, and the ARN of a
`data "aws_kms_alias"` (read as the alias, which a design keeps). Anything
else (a function call, another resource's attribute, a `dynamic` block) is
known only at plan time: a table name falls back to the resource's name,
tags are left out, and any other argument is an error that says so."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

from modeler.design.findings import Finding, error
from modeler.importers.budget import (
    Budget,
    ImportLimitError,
    check_nesting,
    import_budget,
    nesting_message,
    text_size,
)
from modeler.importers.table_reader import TableReader
from modeler.importers.table_scaling import POLICY_SETTINGS, Scaling, apply_scaling
from modeler.importers.tables import (
    ALL_TABLES,
    ImportedTable,
    TableChoice,
    TablesImport,
    design_document,
    failed,
    kind_of,
    read_table_design,
    valid_table_name,
)
from modeler.infra.textfiles import TextFileError, file_text

TABLE_TYPE = "aws_dynamodb_table"
_REFERENCE = re.compile(r"^(var|local)\.([A-Za-z_][A-Za-z0-9_-]*)$")
_KMS_ALIAS = re.compile(r"^data\.aws_kms_alias\.([A-Za-z_][A-Za-z0-9_-]*)\.\w+$")


# CreateTable's members by the names a configuration gives them.
TERRAFORM_NAMES = {
    "AttributeDefinitions": "attribute",
    "AttributeName": "name",
    "AttributeType": "type",
    "KeySchema": "hash_key/range_key",
    "KeyType": "key_type",
    "GlobalSecondaryIndexes": "global_secondary_index",
    "LocalSecondaryIndexes": "local_secondary_index",
    "Projection": "projection_type",
    "ProjectionType": "projection_type",
    "NonKeyAttributes": "non_key_attributes",
    "Tags": "tags",
}


class Unresolved(Exception):
    """A value the configuration alone does not decide."""


def looks_like_terraform(source: str | bytes, *, filename: str = "") -> bool:
    if filename.lower().endswith(".tf"):
        return True
    head = source[:65536]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    return bool(re.search(r'^\s*resource\s+"aws_dynamodb_table"', head, re.MULTILINE))


def read_terraform(
    source: str | bytes, *, max_bytes: int, choice: TableChoice = ALL_TABLES
) -> TablesImport:
    """Read a configuration (the tables `choice` picks); never raises on bad
    input. Within the budget of the import (`import_budget`): past one of
    its limits, the import is refused with a message that names the
    setting."""
    try:
        text = file_text(source, max_bytes=max_bytes, kind="Terraform files")
    except TextFileError as exc:
        return failed(str(exc))
    with import_budget() as budget:
        try:
            return _read_configuration(text, budget, choice)
        except ImportLimitError as exc:
            return failed(str(exc))


def _read_configuration(text: str, budget: Budget, choice: TableChoice) -> TablesImport:
    config = _parse(text, budget)
    if isinstance(config, TablesImport):
        return config
    check_nesting(config, what="the configuration")
    resolver = _Resolver(config, budget)
    tables: list[tuple[str, dict[str, Any]]] = []
    others: set[str] = set()
    for kind, name, body in labelled_blocks(config, "resource"):
        if kind == TABLE_TYPE:
            tables.append((name, body))
        else:
            others.add(kind)
    if not tables:
        return failed(
            'the configuration has no resource "aws_dynamodb_table"'
            + (
                f"; its resources are {', '.join(sorted(others)[:10])}"
                if others
                else ""
            )
        )
    chosen = choice.chosen(
        [((*_names(name, body, resolver),), (name, body)) for name, body in tables],
        "Terraform configuration",
    )
    if isinstance(chosen, TablesImport):
        return chosen
    tables = chosen
    scaling = _scalings(config, {name for name, _ in tables}, resolver)
    imported = [
        _read_table(name, body, resolver, scaling.get(name, []))
        for name, body in tables
    ]
    if "aws_dynamodb_global_table" in others:
        imported = [
            ImportedTable(
                t.table_name,
                t.design,
                t.problems,
                (
                    *t.notes,
                    "aws_dynamodb_global_table (the 2017 version of global tables) "
                    "is not read; its tables are described by their own resources",
                ),
            )
            for t in imported
        ]
    return TablesImport("", "", tuple(imported))


def _names(name: str, body: dict[str, Any], resolver: _Resolver) -> list[str]:
    """The names FILE#TABLE may give a table by: the name the import gives
    it (its `name`, else the resource's name), then the resource's name."""
    table = name
    if body.get("name"):
        try:
            resolved = resolver.value(body["name"])
        except Unresolved:
            resolved = None
        if isinstance(resolved, str) and resolved:
            table = resolved
    return [valid_table_name(table, []), table, name]


def labelled_blocks(
    config: dict[str, Any], kind: str
) -> Iterator[tuple[str, str, dict]]:
    """(type, name, body) of each `resource "type" "name" { ... }` (or data
    block) as python-hcl2 gives them; anything else under that keyword (an
    argument written `resource = 5`) is passed over."""
    blocks = config.get(kind)
    for block in blocks if isinstance(blocks, list) else []:
        for type_name, named in block.items() if isinstance(block, dict) else ():
            for name, body in named.items() if isinstance(named, dict) else ():
                if isinstance(body, dict):
                    yield str(type_name), str(name), body


def _merged(config: dict[str, Any], kind: str) -> dict[str, Any]:
    """The `variable` or `locals` blocks of a configuration as one mapping."""
    out: dict[str, Any] = {}
    blocks = config.get(kind)
    for block in blocks if isinstance(blocks, list) else []:
        if isinstance(block, dict):
            out.update(block)
    return out


def _parse(text: str, budget: Budget) -> dict[str, Any] | TablesImport:
    from hcl2.parser import parser  # loaded only for Terraform
    from hcl2.transformer import DictTransformer
    from lark.exceptions import LarkError, UnexpectedInput

    try:
        # hcl2.loads, a token at a time: parsing takes some 16 s of CPU a
        # megabyte, so the import's CPU budget is looked at as it goes.
        # (The newline is hcl2's own: a block must end with one.)
        interactive = parser().parse_interactive(text + "\n")
        for count, _token in enumerate(interactive.iter_parse()):
            if count % 256 == 0:
                budget.check_cpu()
        config = DictTransformer().transform(interactive.feed_eof())
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None) or getattr(exc, "char", None)
        found = f": unexpected {str(token).strip()[:40]!r}" if token else ""
        return failed(
            f"not valid HCL at line {exc.line}, column {exc.column}{found}", exc.line
        )
    except RecursionError:
        return failed(nesting_message("the configuration"))
    except (LarkError, ValueError) as exc:
        return failed(f"not valid HCL: {str(exc).splitlines()[0][:200]}")
    if not isinstance(config, dict):
        return failed(f"expected a Terraform configuration, found {kind_of(config)}")
    return config


# --- Expressions ------------------------------------------------------------


class _Resolver:
    """Expressions resolved where the file decides them. Each variable and
    local is evaluated once (locals that refer to one another twice over
    would otherwise ask for work exponential in their number), every value
    evaluated costs a step of the import's budget, and a value past
    IMPORT_MAX_VALUE_BYTES is refused (a local that doubles a text 60 times
    would fill the memory)."""

    def __init__(self, config: dict[str, Any], budget: Budget) -> None:
        self.variables = _merged(config, "variable")
        self.locals = _merged(config, "locals")
        self.kms_aliases = {
            name: body.get("name")
            for kind, name, body in labelled_blocks(config, "data")
            if kind == "aws_kms_alias"
        }
        self.budget = budget
        # var.x and local.x once evaluated: the value and its size, or why
        # it cannot be.
        self._known: dict[str, tuple[Any, int] | Unresolved] = {}
        self._evaluating: list[str] = []  # in the order they refer

    def value(self, data: Any) -> Any:
        """`data` resolved. Raises Unresolved, or ImportLimitError past a
        limit of the import."""
        found = self._value(data)[0]
        # A copy: the values of locals are shared by every use, and the
        # caller may change what it is given.
        return copy.deepcopy(found) if isinstance(found, (dict, list)) else found

    def _value(self, data: Any) -> tuple[Any, int]:
        """`data` resolved, and its size in bytes."""
        self.budget.charge()
        if isinstance(data, str):
            return self._text(data)
        if isinstance(data, list):
            out: Any = []
            size = 0
            for item in data:
                value, item_size = self._value(item)
                out.append(value)
                size += item_size + 1
        elif isinstance(data, dict):
            out, size = {}, 0
            for key, item in data.items():
                value, item_size = self._value(item)
                out[key] = value
                size += text_size(str(key)) + item_size + 1
        else:
            return data, 8
        self.budget.check_size(size, self._what())
        return out, size

    def _what(self) -> str:
        return self._evaluating[-1] if self._evaluating else "a value"

    def _text(self, text: str) -> tuple[Any, int]:
        parts = _interpolations(text)
        if parts is None:
            literal = _unescaped(text)
            return literal, text_size(literal)
        if len(parts) == 1 and isinstance(parts[0], tuple):
            return self._expression(parts[0][0])
        out = []
        size = 0
        for part in parts:
            if isinstance(part, tuple):
                value, _ = self._expression(part[0])
                if isinstance(value, (dict, list)):
                    raise Unresolved(f"${{{part[0]}}} is not a text")
                part = _text(value)
            size += text_size(part)
            self.budget.check_size(size, self._what())
            out.append(part)
        return "".join(out), size

    def _expression(self, expression: str) -> tuple[Any, int]:
        expression = expression.strip()
        match = _REFERENCE.match(expression)
        if match:
            return self._reference(*match.groups())
        alias = _KMS_ALIAS.match(expression)
        if alias and isinstance(self.kms_aliases.get(alias.group(1)), str):
            return self._value(self.kms_aliases[alias.group(1)])
        if expression in ("true", "false"):
            return expression == "true", 8
        if re.fullmatch(r"-?\d+", expression):
            return int(expression), 8
        if re.fullmatch(r'"[^"\\$]*"', expression):
            return expression[1:-1], text_size(expression) - 2
        raise Unresolved(f"${{{expression}}} is known only at plan time")

    def _reference(self, kind: str, name: str) -> tuple[Any, int]:
        key = f"{kind}.{name}"
        known = self._known.get(key)
        if isinstance(known, Unresolved):
            raise Unresolved(*known.args)
        if known is not None:
            return known
        if key in self._evaluating:
            cycle = self._evaluating[self._evaluating.index(key) :]
            if len(cycle) == 1:
                raise Unresolved(f"{key} refers to itself")
            raise Unresolved(
                f"{key} refers to itself through " + " -> ".join([*cycle[1:], key])
            )
        if kind == "var":
            spec = self.variables.get(name)
            if not isinstance(spec, dict):
                raise Unresolved(f"the variable {name} is not declared in the file")
            if "default" not in spec:
                raise Unresolved(
                    f"the variable {name} has no default; give it one to import"
                )
            raw = spec["default"]
        else:
            if name not in self.locals:
                raise Unresolved(f"local.{name} is not in the file's locals")
            raw = self.locals[name]
        self._evaluating.append(key)
        try:
            found = self._known[key] = self._value(raw)
        except Unresolved as exc:
            self._known[key] = exc
            raise
        finally:
            self._evaluating.pop()
        return found


def _unescaped(text: str) -> str:
    """A literal text as HCL writes it: `$${` and `%%{` stand for `${` and
    `%{` (python-hcl2 keeps the escapes)."""
    return re.sub(r"([$%])\1\{", r"\1{", text)


def _interpolations(text: str) -> list[str | tuple[str]] | None:
    """The text split into literal parts and `${...}` expressions (as
    1-tuples), braces and quotes inside an expression counted; None when
    it has none. `$${` is a literal `${`, `%%{` a literal `%{`."""
    if "${" not in text.replace("$${", ""):
        return None
    parts: list[str | tuple[str]] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith(("$${", "%%{"), i):
            literal.append(text[i + 1 : i + 3])
            i += 3
            continue
        if not text.startswith("${", i):
            literal.append(text[i])
            i += 1
            continue
        depth, j, quoted = 1, i + 2, False
        while j < len(text) and depth:
            char = text[j]
            if quoted:
                if char == "\\":
                    j += 1
                elif char == '"':
                    quoted = False
            elif char == '"':
                quoted = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            j += 1
        if depth:
            raise Unresolved(f"an unclosed ${{ in {text[:60]!r}")
        if literal:
            parts.append("".join(literal))
            literal = []
        parts.append((text[i + 2 : j - 1],))
        i = j
    if literal:
        parts.append("".join(literal))
    return parts


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --- Tables -----------------------------------------------------------------


def _read_table(
    name: str, body: dict[str, Any], resolver: _Resolver, scaling: list[Scaling]
) -> ImportedTable:
    path = f'resource.aws_dynamodb_table."{name}"'
    problems: list[Finding] = []
    notes: list[str] = []
    args: dict[str, Any] = {}
    for key, value in body.items():
        if key == "dynamic":
            for block in value:
                for kind in block:
                    problems.append(
                        error(
                            "dynamic-block",
                            f"{path}.dynamic.{kind}",
                            f"dynamic {kind} blocks are made at plan time; write "
                            "them out to import them",
                        )
                    )
            continue
        if key in ("lifecycle", "provider", "depends_on", "timeouts"):
            continue
        if key == "tags" and isinstance(value, dict):
            args[key] = _tags(value, resolver, notes)
            continue
        if key == "tags" and isinstance(value, list):
            # `tags { ... }`: python-hcl2 reads a block as a list of objects.
            written = (
                ", ".join(
                    f"{k} = {json.dumps(v) if isinstance(v, str) else v}"
                    for block in value
                    if isinstance(block, dict)
                    for k, v in list(block.items())[:2]
                )
                or 'Name = "..."'
            )
            problems.append(
                error(
                    "tags-as-block",
                    f"{path}.tags",
                    "written as a block, tags { ... } (Terraform 0.11's syntax), "
                    "which Terraform 0.12 and later refuse: tags is an argument, "
                    f"tags = {{ {written} }}",
                )
            )
            continue
        try:
            args[key] = resolver.value(value)
        except Unresolved as exc:
            if key == "name":
                notes.append(
                    f"the table name is not known before plan ({exc}); the "
                    f"design uses the resource name '{name}'"
                )
            elif key == "tags":
                notes.append(f"tags left out: {exc}")
            else:
                problems.append(error("property-invalid", f"{path}.{key}", str(exc)))
    _check_blocks(args, path, problems)
    for meta in ("count", "for_each"):
        if meta in body:
            notes.append(f"the resource has {meta}; one table is imported for it")
    props = _as_properties(args, notes)
    if not isinstance(props.get("TableName") or "", str):
        problems.append(
            error(
                "table-name-not-text",
                f"{path}.name",
                f"expected the table's name, found {kind_of(props['TableName'])}",
            )
        )
        props.pop("TableName")
    table_name = valid_table_name(str(props.get("TableName") or name), notes)
    reader = TableReader(
        path, problems, notes, what="the configuration", names=TERRAFORM_NAMES
    )
    table = reader.table(props, table_name) if not problems else None
    if table is None:
        return read_table_design(table_name, {}, problems, notes)
    notes.extend(apply_scaling(table, scaling))
    notes.append(
        "a configuration describes the table, not its items: add entities with "
        "their key templates, then the access patterns"
    )
    return read_table_design(
        table_name,
        design_document(
            table_name,
            table,
            description="Imported from a Terraform configuration.",
        ),
        problems,
        notes,
    )


def _tags(tags: dict[str, Any], resolver: _Resolver, notes: list[str]) -> dict:
    """The tags a design keeps: a tag set from a variable (the environment
    a configuration is applied to, say) differs from one deployment to the
    next, so it is left out with a note, as is one known only at plan."""
    out = {}
    for written, value in tags.items():
        # python-hcl2 keeps the quotes of a key that holds `$${` (an escaped
        # `${`), and the escape itself.
        key = written
        if len(key) >= 2 and key[0] == key[-1] == '"':
            key = key[1:-1]
        try:
            key = str(resolver.value(key))
            resolved = resolver.value(value)
        except Unresolved as exc:
            notes.append(f"the tag {key} is left out: {exc}")
            continue
        # A variable in an interpolation, not in escaped text (`$${var.x}`).
        parts = _interpolations(value) if isinstance(value, str) else None
        expressions = [p[0] for p in parts or [] if isinstance(p, tuple)]
        variable = next(
            (
                found
                for expression in expressions
                if (found := re.search(r"\bvar\.([A-Za-z_][A-Za-z0-9_-]*)", expression))
            ),
            None,
        )
        if variable:
            notes.append(
                f"the tag {key} is set from the variable {variable.group(1)} at "
                f"apply (default '{resolved}'); left out of the design"
            )
            continue
        out[key] = resolved
    return out


# The nested blocks of aws_dynamodb_table, and the blocks inside them.
BLOCKS = {
    "attribute": (),
    "key_schema": (),
    "global_secondary_index": ("key_schema", "on_demand_throughput", "warm_throughput"),
    "local_secondary_index": (),
    "ttl": (),
    "point_in_time_recovery": (),
    "server_side_encryption": (),
    "replica": (),
    "on_demand_throughput": (),
    "warm_throughput": (),
    "import_table": (),
}


def _check_blocks(args: dict[str, Any], path: str, problems: list[Finding]) -> None:
    """Blocks are lists of objects once parsed; `ttl = 5` or `attribute =
    "x"` is not a block. Such an argument is an error and is dropped."""

    def check(owner: dict[str, Any], name: str, where: str) -> bool:
        value = owner.get(name)
        if value is None:
            return True
        if isinstance(value, list) and all(isinstance(b, dict) for b in value):
            return True
        problems.append(
            error(
                "blocks-malformed",
                f"{where}.{name}",
                f"expected {name} {{ ... }} blocks, found {kind_of(value)}",
            )
        )
        del owner[name]
        return False

    for name, inner in BLOCKS.items():
        if check(args, name, path):
            for i, block in enumerate(args.get(name) or []):
                for child in inner:
                    check(block, child, f"{path}.{name}[{i}]")


def _block(args: dict[str, Any], name: str) -> dict[str, Any]:
    blocks = args.get(name) or []
    return blocks[0] if isinstance(blocks, list) and blocks else {}


def _key_schema(block: dict[str, Any]) -> list[dict[str, str]]:
    schema = [
        {"AttributeName": s.get("attribute_name"), "KeyType": s.get("key_type")}
        for s in block.get("key_schema") or []
    ]
    if schema:
        return schema
    out = []
    if block.get("hash_key"):
        out.append({"AttributeName": block["hash_key"], "KeyType": "HASH"})
    if block.get("range_key"):
        out.append({"AttributeName": block["range_key"], "KeyType": "RANGE"})
    return out


def _projection(block: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"ProjectionType": block.get("projection_type", "ALL")}
    if block.get("non_key_attributes"):
        out["NonKeyAttributes"] = block["non_key_attributes"]
    return out


def _throughput(block: dict[str, Any]) -> dict[str, Any] | None:
    if "read_capacity" not in block and "write_capacity" not in block:
        return None
    return {
        "ReadCapacityUnits": block.get("read_capacity"),
        "WriteCapacityUnits": block.get("write_capacity"),
    }


def _as_properties(args: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """An aws_dynamodb_table's arguments in AWS::DynamoDB::Table's terms."""
    props: dict[str, Any] = {
        "TableName": args.get("name"),
        "BillingMode": args.get("billing_mode") or "PROVISIONED",
        "AttributeDefinitions": [
            {"AttributeName": a.get("name"), "AttributeType": a.get("type")}
            for a in args.get("attribute") or []
        ],
        "KeySchema": _key_schema(args),
    }
    throughput = _throughput(args)
    if throughput:
        props["ProvisionedThroughput"] = throughput
    gsis = []
    for block in args.get("global_secondary_index") or []:
        spec: dict[str, Any] = {
            "IndexName": block.get("name"),
            "KeySchema": _key_schema(block),
            "Projection": _projection(block),
        }
        throughput = _throughput(block)
        if throughput:
            spec["ProvisionedThroughput"] = throughput
        for field, cfn in (
            ("on_demand_throughput", "OnDemandThroughput"),
            ("warm_throughput", "WarmThroughput"),
        ):
            if block.get(field):
                spec[cfn] = block[field]
        gsis.append(spec)
    if gsis:
        props["GlobalSecondaryIndexes"] = gsis
    lsis = [
        {
            "IndexName": block.get("name"),
            "KeySchema": [
                {"AttributeName": args.get("hash_key"), "KeyType": "HASH"},
                {"AttributeName": block.get("range_key"), "KeyType": "RANGE"},
            ],
            "Projection": _projection(block),
        }
        for block in args.get("local_secondary_index") or []
    ]
    if lsis:
        props["LocalSecondaryIndexes"] = lsis
    ttl = _block(args, "ttl")
    if ttl:
        props["TimeToLiveSpecification"] = {
            "AttributeName": ttl.get("attribute_name"),
            "Enabled": ttl.get("enabled", False),
        }
    if args.get("stream_view_type"):
        props["StreamSpecification"] = {
            "StreamViewType": args["stream_view_type"],
            "StreamEnabled": args.get("stream_enabled", False) in (True, "true"),
        }
    pitr = _block(args, "point_in_time_recovery")
    if pitr:
        props["PointInTimeRecoverySpecification"] = {
            "PointInTimeRecoveryEnabled": pitr.get("enabled", False),
            **(
                {"RecoveryPeriodInDays": pitr["recovery_period_in_days"]}
                if "recovery_period_in_days" in pitr
                else {}
            ),
        }
    sse = _block(args, "server_side_encryption")
    if sse:
        props["SSESpecification"] = {
            "SSEEnabled": sse.get("enabled", False),
            **(
                {"KMSMasterKeyId": sse["kms_key_arn"]} if sse.get("kms_key_arn") else {}
            ),
        }
    for field, cfn in (
        ("table_class", "TableClass"),
        ("deletion_protection_enabled", "DeletionProtectionEnabled"),
        ("tags", "Tags"),
        ("on_demand_throughput", "OnDemandThroughput"),
        ("warm_throughput", "WarmThroughput"),
        ("import_table", "ImportSourceSpecification"),
    ):
        if args.get(field):
            props[cfn] = args[field]
    replicas = [r.get("region_name", "?") for r in args.get("replica") or []]
    if replicas:
        notes.append(
            f"replicas in {', '.join(map(str, replicas))} (a global table); "
            "the design is one table"
        )
    for field in (
        "restore_source_name",
        "restore_source_table_arn",
        "restore_to_latest_time",
    ):
        if args.get(field):
            notes.append(f"{field} (a restore) is not part of a design")
    return props


def _scalings(
    config: dict[str, Any], tables: set[str], resolver: _Resolver
) -> dict[str, list[Scaling]]:
    """aws_appautoscaling_target resources of the file's tables, with the
    target value of the policy that tracks each, by the table's resource
    name."""
    # A policy's target value and its other settings, by its target.
    targets: dict[str, tuple[Any, dict[str, Any]]] = {}
    for kind, _label, body in labelled_blocks(config, "resource"):
        if kind != "aws_appautoscaling_policy":
            continue
        ref = re.search(
            r"aws_appautoscaling_target\.(\w+)\.", str(body.get("resource_id"))
        )
        configs = body.get("target_tracking_scaling_policy_configuration") or [{}]
        config_body = configs[0] if isinstance(configs, list) and configs else {}
        if ref and isinstance(config_body, dict):
            targets[ref.group(1)] = (
                _resolved(resolver, config_body.get("target_value")),
                {
                    name: _resolved(resolver, config_body[argument])
                    for name, argument in POLICY_SETTINGS.items()
                    if argument in config_body
                },
            )
    found: dict[str, list[Scaling]] = {}
    for kind, label, body in labelled_blocks(config, "resource"):
        if kind != "aws_appautoscaling_target":
            continue
        text = str(body.get("resource_id", ""))
        table = next((t for t in tables if f"aws_dynamodb_table.{t}." in text), None)
        if table is None:
            continue
        value, settings = targets.get(label, (None, {}))
        found.setdefault(table, []).append(
            Scaling.of(
                text,
                body.get("scalable_dimension"),
                _resolved(resolver, body.get("min_capacity")),
                _resolved(resolver, body.get("max_capacity")),
                value,
                settings,
            )
        )
    return found


def _resolved(resolver: _Resolver, value: Any) -> Any:
    """A value with its variables and locals resolved, or as written when
    they cannot be."""
    try:
        return resolver.value(value)
    except (Unresolved, ValueError):
        return value
