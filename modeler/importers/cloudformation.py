"""Import of CloudFormation templates (YAML or JSON): every
`AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable` and SAM's
`AWS::Serverless::SimpleTable` becomes a design.

Intrinsic functions are resolved where the template alone decides them:
`Ref` to a parameter with a default, `Fn::Sub`, `Fn::Join`, `Fn::Select`,
`Fn::FindInMap`, `Fn::If` on conditions made of those, and `AWS::NoValue`.
A value that depends on the stack (a parameter without a default,
`AWS::StackName`, another resource) cannot be known: a table name falls
back to the resource's logical id, a tag is left out, and any other
property is an error that says which parameter needs a default. The YAML
short forms (`!Ref`, `!Sub`, `!GetAtt A.B`...) are read as the long forms
by a safe loader; aliases are refused as in design files.

A template describes a table, not the items in it: the design has the
table's keys, indexes and settings and no entities yet. Auto scaling
resources that point at a table are reported, since a design keeps
provisioned capacity, not scaling policies."""

from __future__ import annotations

import contextlib
import copy
import json
import re
from collections.abc import Callable
from typing import Any

import yaml

from modeler.design.findings import Finding, error
from modeler.designfile import (
    MAX_DEPTH,
    YamlStructureError,
    check_yaml_structure,
    yaml_error_message,
)
from modeler.importers.budget import Budget, ImportLimitError, import_budget, text_size
from modeler.importers.table_reader import TableReader
from modeler.importers.table_scaling import Scaling, apply_scaling, policy_settings
from modeler.importers.tables import (
    ALL_TABLES,
    ImportedTable,
    TableChoice,
    TablesImport,
    design_document,
    failed,
    kind_of,
    load_json,
    read_table_design,
    valid_table_name,
)
from modeler.infra.textfiles import TextFileError, file_text

SIMPLE_TABLE = "AWS::Serverless::SimpleTable"
TABLE_TYPES = ("AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable", SIMPLE_TABLE)
# SAM's PrimaryKey types, and the key it gives a SimpleTable without one.
SIMPLE_TYPES = {"String": "S", "Number": "N", "Binary": "B"}
SIMPLE_KEY = {"Name": "id", "Type": "String"}
FOR_EACH = "Fn::ForEach::"
_SUB = re.compile(r"\$\{([^}!][^}]*)\}")
_NO_VALUE = object()


class Unresolved(Exception):
    """A value the template alone does not decide; the message says why."""


def looks_like_cloudformation(source: str | bytes) -> bool:
    """A template states its format version, or has Resources and names a
    DynamoDB table type, near its start (a design YAML does neither)."""
    head = source[:65536]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    return "AWSTemplateFormatVersion" in head or (
        "Resources" in head
        and bool(
            re.search(
                r"AWS::(DynamoDB::(Global)?Table|Serverless::SimpleTable)\b", head
            )
        )
    )


def read_cloudformation(
    source: str | bytes, *, max_bytes: int, choice: TableChoice = ALL_TABLES
) -> TablesImport:
    """Read a template (the tables `choice` picks); never raises on bad
    input. Within the budget of the import (`import_budget`): past one of
    its limits, the import is refused with a message that names the
    setting."""
    try:
        text = file_text(source, max_bytes=max_bytes, kind="templates")
    except TextFileError as exc:
        return failed(str(exc))
    with import_budget() as budget:
        try:
            return _read_template(text, budget, choice)
        except ImportLimitError as exc:
            return failed(str(exc))


def _read_template(text: str, budget: Budget, choice: TableChoice) -> TablesImport:
    template = _load(text)
    budget.check_cpu()
    if isinstance(template, TablesImport):
        return template
    if not isinstance(template, dict):
        return failed(
            "expected a CloudFormation template (an object with Resources), found "
            + kind_of(template)
        )
    resources = template.get("Resources")
    if not isinstance(resources, dict) or not resources:
        return failed("Resources is missing: a template lists its resources there")
    resolver = _Resolver(template, budget)
    name = template.get("Description")
    name = name.strip()[:200] if isinstance(name, str) and name.strip() else ""
    tables = [
        (logical, resource)
        for logical, resource in resources.items()
        if isinstance(resource, dict) and resource.get("Type") in TABLE_TYPES
    ]
    loops = [name for name in resources if str(name).startswith(FOR_EACH)]
    if loops and not tables:
        return failed(_for_each(loops))
    if not tables:
        types = sorted(
            {
                str(r.get("Type"))
                for r in resources.values()
                if isinstance(r, dict) and r.get("Type")
            }
        )
        untyped = [
            str(name)
            for name, r in resources.items()
            if not (isinstance(r, dict) and isinstance(r.get("Type"), str))
        ]
        return failed(
            "the template has no AWS::DynamoDB::Table, AWS::DynamoDB::GlobalTable "
            "or AWS::Serverless::SimpleTable resource; "
            + (f"its resources are {', '.join(types[:10])}" if types else "")
            + ("; " if types and untyped else "")
            + (
                f"Resources.{', Resources.'.join(untyped[:5])} "
                + ("has" if len(untyped) == 1 else "have")
                + " no Type (a resource is {Type: AWS::..., Properties: {...}})"
                if untyped
                else ""
            )
        )
    chosen = choice.chosen(
        [((*_names(logical, r, resolver),), (logical, r)) for logical, r in tables],
        "CloudFormation template",
    )
    if isinstance(chosen, TablesImport):
        return chosen
    tables = chosen
    scaling = _scalings(resources, resolver)
    imported = []
    for logical, resource in tables:
        imported.append(
            _read_table(logical, resource, resolver, scaling.get(logical, []), name)
        )
    if loops:
        # The loops' tables are missing: every table is told so.
        imported = [
            ImportedTable(
                t.table_name, t.design, t.problems, (*t.notes, _for_each(loops))
            )
            for t in imported
        ]
    return TablesImport(
        name, str(template.get("AWSTemplateFormatVersion", "")), tuple(imported)
    )


def _for_each(loops: list[str]) -> str:
    return (
        f"Resources.{loops[0]}"
        + (f" (and {len(loops) - 1} more)" if len(loops) > 1 else "")
        + ": Fn::ForEach (the AWS::LanguageExtensions transform) is not expanded "
        "by the importer, so the tables it makes are not read: write them out, or "
        "import the template CloudFormation processed (`aws cloudformation "
        "get-template --stack-name STACK --template-stage Processed`)"
    )


def _names(logical: str, resource: dict[str, Any], resolver: _Resolver) -> list[str]:
    """The names FILE#TABLE may give a table by: the name the import gives
    it (its TableName, else its logical id), then its logical id."""
    name = logical
    props = resource.get("Properties")
    if isinstance(props, dict) and props.get("TableName"):
        with contextlib.suppress(Unresolved):
            resolved = resolver.value(props["TableName"])
            if isinstance(resolved, str) and resolved:
                name = resolved
    return [valid_table_name(name, []), name, logical]


def _load(text: str) -> Any:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return load_json(text)
    try:
        check_yaml_structure(text, what="a template")
        return yaml.load(text, Loader=TemplateLoader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        return failed(yaml_error_message(exc))
    except RecursionError:
        return failed(f"the document is nested more than {MAX_DEPTH} levels deep")
    except YamlStructureError as exc:
        return failed(str(exc))


class TemplateLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader with CloudFormation's short forms: `!Ref X` is
    `{Ref: X}`, `!GetAtt A.B` is `{Fn::GetAtt: [A, B]}`, `!Sub ...` is
    `{Fn::Sub: ...}` and so on. libyaml's when PyYAML has it: a template of
    a megabyte loads in a third of the pure-Python loader's CPU time, which
    counts against the import's budget."""


def _short_form(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if suffix in ("Ref", "Condition"):
        return {suffix: value}
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{suffix}": value}


TemplateLoader.add_multi_constructor("!", _short_form)


# --- Intrinsic functions ----------------------------------------------------


class _Resolver:
    """Intrinsic functions resolved where the template decides them. Each
    condition and each mapping entry is evaluated once (conditions that
    each refer to the one before twice over would otherwise ask for work
    exponential in their number), every value evaluated costs a step of the
    import's budget, and a value past IMPORT_MAX_VALUE_BYTES is refused
    (an Fn::Join or Fn::Sub can multiply a text)."""

    def __init__(self, template: dict[str, Any], budget: Budget) -> None:
        parameters = template.get("Parameters")
        self.parameters = parameters if isinstance(parameters, dict) else {}
        mappings = template.get("Mappings")
        self.mappings = mappings if isinstance(mappings, dict) else {}
        conditions = template.get("Conditions")
        self.conditions = conditions if isinstance(conditions, dict) else {}
        resources = template.get("Resources")
        self.resources = resources if isinstance(resources, dict) else {}
        self.defaults_used: dict[str, Any] = {}
        self.budget = budget
        # Conditions, mapping entries and parameters once evaluated: the
        # value (with its size), or why it cannot be.
        self._known: dict[str, Any] = {}
        self._evaluating: list[str] = []  # in the order they refer

    def value(self, data: Any) -> Any:
        """`data` with every intrinsic function resolved; properties that
        resolve to AWS::NoValue are left out. Raises Unresolved, or
        ImportLimitError past a limit of the import."""
        found = self._value(data)[0]
        # A copy: mapping entries are shared by every use, and the caller
        # may change what it is given.
        return copy.deepcopy(found) if isinstance(found, (dict, list)) else found

    def _value(self, data: Any) -> tuple[Any, int]:
        """`data` resolved, and its size in bytes."""
        self.budget.charge()
        if isinstance(data, str):
            return data, text_size(data)
        if isinstance(data, list):
            out: Any = []
            size = 0
            for item in data:
                value, item_size = self._value(item)
                if value is not _NO_VALUE:
                    out.append(value)
                    size += item_size + 1
        elif isinstance(data, dict):
            if len(data) == 1:
                ((key, arg),) = data.items()
                if key == "Ref":
                    return self._ref(arg)
                if isinstance(key, str) and (
                    key.startswith("Fn::") or key == "Condition"
                ):
                    return self._function(key, arg)
            out, size = {}, 0
            for key, item in data.items():
                value, item_size = self._value(item)
                if value is not _NO_VALUE:
                    out[key] = value
                    size += text_size(str(key)) + item_size + 1
        else:
            return data, 8
        self.budget.check_size(size, self._what("a list or object"))
        return out, size

    def _what(self, what: str) -> str:
        """What is being evaluated, for a message: the condition, mapping
        entry or parameter, else `what`."""
        return self._evaluating[-1] if self._evaluating else what

    def _measure(self, value: Any) -> int:
        """The size of a value evaluated already (one item of a list), a step
        a member."""
        size = 0
        stack = [value]
        while stack:
            self.budget.charge()
            item = stack.pop()
            if isinstance(item, str):
                size += text_size(item)
            elif isinstance(item, list):
                stack.extend(item)
                size += len(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
                size += sum(text_size(str(k)) + 1 for k in item)
            else:
                size += 8
        return size

    def _once(self, label: str, evaluate: Callable[[], Any]) -> Any:
        """What `evaluate` gives, evaluated on the first use of `label` (a
        condition, a mapping entry) and remembered, its Unresolved too; a
        label met again while it is evaluated refers to itself."""
        known = self._known.get(label)
        if isinstance(known, Unresolved):
            raise Unresolved(*known.args)
        if label in self._known:
            return known
        if label in self._evaluating:
            cycle = self._evaluating[self._evaluating.index(label) :]
            if len(cycle) == 1:
                raise Unresolved(f"{label} refers to itself")
            raise Unresolved(
                f"{label} refers to itself through " + " -> ".join([*cycle[1:], label])
            )
        self._evaluating.append(label)
        try:
            found = self._known[label] = evaluate()
        except Unresolved as exc:
            self._known[label] = exc
            raise
        finally:
            self._evaluating.pop()
        return found

    def parameter_in(self, data: Any) -> str | None:
        """The first template parameter `data` refers to, if any."""
        if isinstance(data, list):
            return next(filter(None, map(self.parameter_in, data)), None)
        if not isinstance(data, dict):
            return None
        if len(data) == 1:
            ((key, arg),) = data.items()
            if key == "Ref" and isinstance(arg, str) and arg in self.parameters:
                return str(arg)
            if key == "Fn::Sub":
                text = arg[0] if isinstance(arg, list) and arg else arg
                for match in _SUB.finditer(text if isinstance(text, str) else ""):
                    if match.group(1).strip() in self.parameters:
                        return match.group(1).strip()
        return next(filter(None, map(self.parameter_in, data.values())), None)

    def _ref(self, name: Any) -> tuple[Any, int]:
        if name == "AWS::NoValue":
            return _NO_VALUE, 0
        if not isinstance(name, str):
            raise Unresolved(f"Ref of {kind_of(name)}")
        if name in self.parameters:
            spec = self.parameters[name]
            if isinstance(spec, dict) and "Default" in spec:
                default = spec["Default"]
                self.defaults_used[name] = default
                return self._once(f"the parameter {name}", lambda: self._default(spec))
            raise Unresolved(
                f"the parameter {name} has no Default; give it one to import"
            )
        if name.startswith("AWS::"):
            raise Unresolved(f"{name} is known only when the stack is deployed")
        if name in self.resources:
            raise Unresolved(f"Ref {name} is another resource's id, known at deploy")
        raise Unresolved(f"Ref {name} names no parameter or resource")

    def _default(self, spec: dict[str, Any]) -> tuple[Any, int]:
        default = spec["Default"]
        if isinstance(spec.get("Type"), str) and "List" in spec["Type"]:
            default = [p.strip() for p in str(default).split(",")]
        return default, self._measure(default)

    def _function(self, key: str, arg: Any) -> tuple[Any, int]:
        if key == "Fn::Sub":
            return self._sub(arg)
        if key == "Fn::Join":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise Unresolved("Fn::Join takes [delimiter, [values]]")
            delimiter, values = self.text_of(arg[0]), self._value(arg[1])[0]
            if not isinstance(values, list):
                raise Unresolved("Fn::Join's values are not a list")
            texts = [_plain(v) for v in values]
            # Measured before it is made: a long delimiter between many
            # values is a long text.
            size = sum(map(text_size, texts)) + text_size(delimiter) * max(
                len(texts) - 1, 0
            )
            self.budget.check_size(size, self._what("Fn::Join"))
            return delimiter.join(texts), size
        if key == "Fn::Select":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise Unresolved("Fn::Select takes [index, [values]]")
            index, values = self._value(arg[0])[0], self._value(arg[1])[0]
            try:
                found = values[int(index)]
            except (ValueError, TypeError, IndexError, KeyError):
                raise Unresolved(
                    f"Fn::Select index {index!r} is out of range"
                ) from None
            return found, self._measure(found)
        if key == "Fn::Split":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise Unresolved("Fn::Split takes [delimiter, text]")
            delimiter = self.text_of(arg[0])
            if not delimiter:
                raise Unresolved("Fn::Split's delimiter is empty")
            parts = self.text_of(arg[1]).split(delimiter)
            return parts, sum(map(text_size, parts)) + len(parts)
        if key == "Fn::FindInMap":
            if not (isinstance(arg, list) and len(arg) in (3, 4)):
                raise Unresolved("Fn::FindInMap takes [map, top key, second key]")
            names = [_plain(self._value(a)[0]) for a in arg[:3]]
            try:
                entry = self.mappings[names[0]][names[1]][names[2]]
            except (KeyError, TypeError):
                if len(arg) == 4 and isinstance(arg[3], dict):
                    return self._value(arg[3].get("DefaultValue"))
                raise Unresolved(
                    "Fn::FindInMap finds nothing at " + " / ".join(names)
                ) from None
            return self._once(
                "the mapping entry " + " / ".join(names), lambda: self._value(entry)
            )
        if key == "Fn::If":
            if not (isinstance(arg, list) and len(arg) == 3):
                raise Unresolved("Fn::If takes [condition, if true, if false]")
            return self._value(arg[1] if self.condition(arg[0]) else arg[2])
        if key in ("Fn::Equals", "Fn::And", "Fn::Or", "Fn::Not", "Condition"):
            return self.logical(key, arg), 8
        if key == "Fn::GetAtt":
            target = arg[0] if isinstance(arg, list) and arg else arg
            raise Unresolved(f"Fn::GetAtt of {target} is known only at deploy")
        if key == "Fn::ImportValue":
            raise Unresolved("Fn::ImportValue reads another stack's output at deploy")
        raise Unresolved(f"{key} is not resolved by the importer")

    def text_of(self, data: Any) -> str:
        """A value resolved and written as text (lists and objects as Python
        writes them, as `str` does)."""
        return str(self._value(data)[0])

    def _sub(self, arg: Any) -> tuple[str, int]:
        variables: dict[str, Any] = {}
        if isinstance(arg, list) and len(arg) == 2 and isinstance(arg[1], dict):
            arg, variables = arg[0], arg[1]
        if not isinstance(arg, str):
            raise Unresolved("Fn::Sub takes a text (or [text, {variables}])")
        # Each variable is evaluated once however often the text names it,
        # and the text measured as it is made.
        values: dict[str, str] = {}
        out: list[str] = []
        size = position = 0
        for match in _SUB.finditer(arg):
            name = match.group(1).strip()
            if name not in values:
                if name in variables:
                    values[name] = _plain(self._value(variables[name])[0])
                elif "." in name and not name.startswith("AWS::"):
                    raise Unresolved(f"${{{name}}} is another resource's attribute")
                else:
                    values[name] = _plain(self._ref(name)[0])
            literal = arg[position : match.start()]
            size += text_size(literal) + text_size(values[name])
            self.budget.check_size(size, self._what("Fn::Sub"))
            out += (literal, values[name])
            position = match.end()
        out.append(arg[position:])
        # ${!Literal} stands for the text ${Literal}.
        text = "".join(out).replace("${!", "${")
        return text, text_size(text)

    def condition(self, name: Any) -> bool:
        if not isinstance(name, str) or name not in self.conditions:
            raise Unresolved(f"the condition {name!r} is not in Conditions")
        return self._once(
            f"the condition {name}",
            lambda: bool(self._value(self.conditions[name])[0]),
        )

    def logical(self, key: str, arg: Any) -> bool:
        if key == "Condition":
            return self.condition(arg)
        if not isinstance(arg, list):
            raise Unresolved(f"{key} takes a list")
        if key == "Fn::Equals":
            if len(arg) != 2:
                raise Unresolved("Fn::Equals takes two values")
            return _plain(self._value(arg[0])[0]) == _plain(self._value(arg[1])[0])
        values = [bool(self._value(a)[0]) for a in arg]
        if key == "Fn::Not":
            return not values[0] if values else True
        return all(values) if key == "Fn::And" else any(values)


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        raise Unresolved(f"{kind_of(value)} where a text was expected")
    return str(value)


# --- Tables -----------------------------------------------------------------


def _read_table(
    logical: str,
    resource: dict[str, Any],
    resolver: _Resolver,
    scaling: list[Scaling],
    description: str,
):  # type: ignore[no-untyped-def]
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
        if resolved is not _NO_VALUE:
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
    tags: list[Any], resolver: _Resolver, notes: list[str]
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


def _scalings(
    resources: dict[str, Any], resolver: _Resolver
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
        value, settings = targets.get(target_id, (None, {}))
        found.setdefault(table, []).append(
            Scaling.of(text, props.get("ScalableDimension"), *limits, value, settings)
        )
    return found


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}
