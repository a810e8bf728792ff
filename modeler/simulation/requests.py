"""The real DynamoDB requests of an access pattern.

A pattern is written in the designer's terms: key templates with
`{parameters}`, and filters and conditions with bare attribute names,
"quoted" constants and `{parameters}`. Given parameter values, this module
builds the request boto3's client would send: expressions with every name
aliased (`#status`, so reserved words never bite), values as DynamoDB JSON,
and the same request as an AWS CLI command.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.engine.types import SET_TYPES, binaries_as_base64, number, to_wire
from modeler.keys import parse_template

CLI_OPERATIONS = {
    "GetItem": "get-item",
    "Query": "query",
    "Scan": "scan",
    "BatchGetItem": "batch-get-item",
    "TransactGetItems": "transact-get-items",
    "PutItem": "put-item",
    "UpdateItem": "update-item",
    "DeleteItem": "delete-item",
    "BatchWriteItem": "batch-write-item",
    "TransactWriteItems": "transact-write-items",
}
# The boto3 client's method (and the engine client's) for each operation.
CLIENT_METHODS = {
    operation: command.replace("-", "_")
    for operation, command in CLI_OPERATIONS.items()
}

_FUNCTIONS = {
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "size",
    "if_not_exists",
    "list_append",
}
_KEYWORDS = {"and", "or", "not", "between", "in"}
# attribute_type's second argument.
_TYPE_NAMES = {"S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"}
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<param>\{[A-Za-z_][A-Za-z0-9_.-]*(?::[^{}]*)?\})
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>-?\d+(?:\.\d+)?(?![A-Za-z_]))
  | (?P<name>[A-Za-z_][A-Za-z0-9_-]*)
  | (?P<other><>|<=|>=|[=<>(),.\[\]+\-])
  | (?P<index>\d+)
    """,
    re.VERBOSE,
)


class RequestError(ValueError):
    """A pattern cannot be turned into a request: a parameter has no value,
    or a filter or condition cannot be read."""


@dataclass
class ExpressionBuilder:
    """Collects the names and values of a request's expressions, so one
    request's expressions share `#name` and `:value` placeholders."""

    params: Mapping[str, Any]
    names: dict[str, str]
    values: dict[str, Any]

    @classmethod
    def new(cls, params: Mapping[str, Any]) -> ExpressionBuilder:
        return cls(params, {}, {})

    # The values of a request come through these three: the generated
    # data-access code (`modeler.exporters.access`) builds the same request
    # with stand-ins for the values its callers pass at run time.
    def key_value(self, template: str, key_type: str) -> Any:
        """A key template rendered with the parameters."""
        return render(template, self.params, key_type)

    def update_value(self, template: str, type_name: str) -> Any:
        """The value an update writes from its template."""
        return _update_value(template, self.params, type_name)

    def wire(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Values (an item, a key, the expression values) as DynamoDB JSON."""
        return _wire(values)

    def name(self, attribute: str) -> str:
        alias = "#" + re.sub(r"[^A-Za-z0-9_]", "_", attribute)
        while self.names.get(alias, attribute) != attribute:
            alias += "_"
        self.names[alias] = attribute
        return alias

    def value(self, value: Any, hint: str = "v") -> str:
        for placeholder, existing in self.values.items():
            if existing == value and type(existing) is type(value):
                return placeholder
        base = ":" + re.sub(r"[^A-Za-z0-9_]", "_", hint)
        placeholder, n = base, 1
        while placeholder in self.values:
            n += 1
            placeholder = f"{base}{n}"
        self.values[placeholder] = value
        return placeholder

    def text(self, source: str) -> str:
        """A designer's filter or condition as a DynamoDB expression."""
        out: list[str] = []
        position = 0
        previous = ""
        while position < len(source):
            match = _TOKEN.match(source, position)
            if not match:
                hint = (
                    "; DynamoDB writes 'not equal' as <>"
                    if source.startswith("!=", position)
                    else ""
                )
                raise RequestError(
                    f"cannot read {source!r} at column {position + 1}{hint}"
                )
            kind, token = match.lastgroup, match.group()
            position = match.end()
            if kind == "space":
                out.append(" ")
                continue
            if kind == "param":
                name = token[1:-1].split(":")[0]
                out.append(self.value(param_value(self.params, name), name))
            elif kind == "string":
                out.append(self.value(json.loads(token), "s"))
            elif kind == "number" and previous != "[":
                out.append(self.value(number(token), "n"))
            elif kind == "name":
                following = source[position:].lstrip()[:1]
                if token.lower() in _KEYWORDS:
                    out.append(token.upper())
                elif token in ("true", "false"):
                    out.append(self.value(token == "true", "b"))  # noqa: S105 (a keyword)
                elif token in _FUNCTIONS and following == "(":
                    out.append(token)
                elif token in _TYPE_NAMES and previous == ",":
                    out.append(self.value(token, "type"))
                else:
                    out.append(self.name(token))
            else:
                out.append(token)
            previous = token
        return re.sub(r"\s+", " ", "".join(out)).strip()


def expression_attributes(source: str) -> list[str]:
    """The attributes a designer's filter or condition names at the top of
    its paths (`address` of `address.city`, `tags` of `tags[0]`), in order,
    each once; none when it cannot be read (`ExpressionBuilder.text` says
    why)."""
    names: dict[str, None] = {}
    position = 0
    previous = ""
    while position < len(source):
        match = _TOKEN.match(source, position)
        if not match:
            return []
        kind, token = match.lastgroup, match.group()
        position = match.end()
        if kind == "space":
            continue
        following = source[position:].lstrip()[:1]
        if (
            kind == "name"
            and previous != "."
            and token.lower() not in _KEYWORDS
            and token not in ("true", "false")
            and not (token in _FUNCTIONS and following == "(")
            and not (token in _TYPE_NAMES and previous == ",")
        ):
            names.setdefault(token)
        previous = token
    return list(names)


def param_value(params: Mapping[str, Any], name: str) -> Any:
    if name not in params:
        raise RequestError(f"no value for the parameter '{name}'")
    return params[name]


def render(template: str, params: Mapping[str, Any], key_type: str = "S") -> Any:
    """A key template or value template rendered with parameter values; a
    literal (`4` in `SK >= 4`) is the value itself, of the key's type."""
    parsed = parse_template(template)
    try:
        if parsed.is_constant and key_type == "N":
            return number(template)
        if parsed.is_constant and key_type == "B":
            return template.encode()
        return parsed.render(params, key_type)
    except KeyError as exc:
        name = getattr(exc, "attribute", exc.args[0] if exc.args else "")
        raise RequestError(f"no value for the parameter '{name}'") from None
    except (ValueError, ArithmeticError, TypeError) as exc:
        raise RequestError(f"the key value '{template}': {exc}") from None


def typed_value(text: str, type_name: str) -> Any:
    """A value the designer wrote (`SHIPPED`, `3`) as the attribute's type."""
    if type_name == "N":
        return number(text)
    if type_name == "BOOL":
        return text.lower() == "true"
    if type_name == "B":
        return text.encode()
    return text


def _key_types(design: d.Design) -> dict[str, str]:
    return {a.name: a.type for a in design.table.all_key_attributes()}


def key_condition(
    design: d.Design, clauses: tuple[d.KeyClause, ...], builder: ExpressionBuilder
) -> str:
    types = _key_types(design)
    parts = []
    for clause in clauses:
        name = builder.name(clause.attribute)
        values = [
            builder.value(
                builder.key_value(v, types.get(clause.attribute, "S")),
                clause.attribute,
            )
            for v in clause.values
        ]
        if clause.operator == "between":
            parts.append(f"{name} BETWEEN {values[0]} AND {values[1]}")
        elif clause.operator == "begins_with":
            parts.append(f"begins_with({name}, {values[0]})")
        else:
            parts.append(f"{name} {clause.operator} {values[0]}")
    return " AND ".join(parts)


def key_of(
    design: d.Design, clauses: tuple[d.KeyClause, ...], params: Mapping[str, Any]
) -> dict[str, Any]:
    """A primary key from '=' clauses, as native values."""
    types = _key_types(design)
    return {
        c.attribute: render(c.values[0], params, types.get(c.attribute, "S"))
        for c in clauses
    }


def _key_request(
    design: d.Design, clauses: tuple[d.KeyClause, ...], builder: ExpressionBuilder
) -> dict[str, Any]:
    """A request's Key from '=' clauses, through the builder."""
    types = _key_types(design)
    return builder.wire(
        {
            c.attribute: builder.key_value(c.values[0], types.get(c.attribute, "S"))
            for c in clauses
        }
    )


def entity_key(
    design: d.Design, entity_name: str, values: Mapping[str, Any]
) -> dict[str, Any]:
    """The table key of an entity's item from its attribute values."""
    entity = design.entity(entity_name)
    if entity is None:
        raise RequestError(f"unknown entity '{entity_name}'")
    key = {}
    for attr in design.table.key_attributes:
        template = entity.keys.get(attr.name)
        if template is None:
            raise RequestError(f"{entity_name} has no template for {attr.name}")
        key[attr.name] = render(template.template, values, attr.type)
    return key


def _wire(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: to_wire(v) for k, v in item.items()}


def _finish(request: dict[str, Any], builder: ExpressionBuilder) -> dict[str, Any]:
    if builder.names:
        request["ExpressionAttributeNames"] = dict(builder.names)
    if builder.values:
        request["ExpressionAttributeValues"] = builder.wire(builder.values)
    return request


def read_request(
    design: d.Design,
    pattern: d.AccessPattern,
    params: Mapping[str, Any],
    *,
    builder: ExpressionBuilder | None = None,
) -> dict[str, Any]:
    """The GetItem, Query or Scan request of a read pattern (boto3 client
    parameters). Batch and transaction reads are built from their actions
    by the simulator, which chooses the items. `builder`: one of the
    caller's own over `params`."""
    builder = builder or ExpressionBuilder.new(params)
    request: dict[str, Any] = {"TableName": design.table.name}
    if pattern.operation == "GetItem":
        request["Key"] = _key_request(design, pattern.key, builder)
    elif pattern.operation == "Query":
        request["KeyConditionExpression"] = key_condition(design, pattern.key, builder)
    if pattern.index != d.TABLE_INDEX:
        request["IndexName"] = pattern.index
    if pattern.filter:
        request["FilterExpression"] = builder.text(pattern.filter)
    if pattern.projection:
        request["ProjectionExpression"] = ", ".join(
            builder.name(a) for a in pattern.projection
        )
    if pattern.operation == "Query" and not pattern.scan_forward:
        request["ScanIndexForward"] = False
    if pattern.limit is not None:
        request["Limit"] = pattern.limit
    if pattern.consistent_read:
        request["ConsistentRead"] = True
    request["ReturnConsumedCapacity"] = "INDEXES"
    return _finish(request, builder)


def write_action_request(
    design: d.Design,
    action: d.Action,
    params: Mapping[str, Any],
    item: Mapping[str, Any],
    *,
    builder: ExpressionBuilder | None = None,
) -> tuple[str, dict[str, Any]]:
    """One write action as (operation, request parameters): `item` is the
    entity item the action puts, or whose key it updates or deletes.
    `builder`: one of the caller's own over the item's values and
    `params`."""
    builder = builder or ExpressionBuilder.new({**item, **params})
    request: dict[str, Any] = {"TableName": design.table.name}
    if action.operation == "Put":
        request["Item"] = builder.wire(item)
    elif action.key:
        request["Key"] = _key_request(design, action.key, builder)
    else:
        request["Key"] = builder.wire(
            {a.name: item[a.name] for a in design.table.key_attributes}
        )
    if action.operation == "Update":
        request["UpdateExpression"] = update_expression(design, action, builder)
    if action.condition:
        request["ConditionExpression"] = builder.text(action.condition)
    operation = {
        "Put": "PutItem",
        "Update": "UpdateItem",
        "Delete": "DeleteItem",
        "ConditionCheck": "ConditionCheck",
        "Get": "GetItem",
    }[action.operation]
    return operation, _finish(request, builder)


# A set type's class: "NS" -> NumberSet (its members' type is "N").
_SET_CLASSES = {kind: cls for cls, kind in SET_TYPES.items()}


def update_expression(
    design: d.Design, action: d.Action, builder: ExpressionBuilder
) -> str:
    """The UpdateExpression of an Update action: its `set`, `set_if_absent`
    and `append` as SET clauses (`if_not_exists`, `list_append`), `add` and
    `delete` as ADD and DELETE, then REMOVE."""
    entity = design.entity(action.entity)
    types = _key_types(design)
    clauses: dict[str, list[str]] = {"SET": [], "ADD": [], "DELETE": []}
    for how, attribute, template in action.updates():
        attr = entity.attribute(attribute) if entity else None
        type_name = attr.type if attr else types.get(attribute, "S")
        name = builder.name(attribute)
        if how == "append":
            members = builder.update_value(template, "L")
            if not isinstance(members, list):
                members = [members]
            empty = builder.value([], "empty")
            value = builder.value(members, attribute)
            clauses["SET"].append(
                f"{name} = list_append(if_not_exists({name}, {empty}), {value})"
            )
            continue
        value = builder.value(builder.update_value(template, type_name), attribute)
        if how == "set":
            clauses["SET"].append(f"{name} = {value}")
        elif how == "set_if_absent":
            clauses["SET"].append(f"{name} = if_not_exists({name}, {value})")
        else:
            clauses[how.upper()].append(f"{name} {value}")
    parts = [f"{verb} " + ", ".join(items) for verb, items in clauses.items() if items]
    if action.remove:
        parts.append("REMOVE " + ", ".join(builder.name(a) for a in action.remove))
    return " ".join(parts)


def _update_value(template: str, params: Mapping[str, Any], type_name: str) -> Any:
    """The value an update writes from its template, as the attribute's
    type: `{tags}` gives the parameter's value itself (a list stays a
    list), a set type takes one member or a parameter's several."""
    parsed = parse_template(template)
    set_class = _SET_CLASSES.get(type_name)
    if parsed.is_single_placeholder and type_name != "S":
        value = param_value(params, parsed.placeholders[0].attribute)
    elif not parsed.placeholders and type_name != "S":
        value = template
    else:
        value = render(template, params, "S")
    if set_class is not None:
        members = value if isinstance(value, (list, set, frozenset, tuple)) else [value]
        return set_class(
            typed_value(m, type_name[0]) if isinstance(m, str) else m for m in members
        )
    if isinstance(value, str) and type_name not in ("S", "L"):
        value = typed_value(value, type_name)
    if type_name == "N" and not isinstance(value, Decimal):
        value = number(value)
    return value


def cli_command(operation: str, request: Mapping[str, Any]) -> str:
    """The request as an `aws dynamodb` command, JSON arguments quoted for a
    POSIX shell."""
    parts = ["aws", "dynamodb", CLI_OPERATIONS.get(operation, operation)]
    for name, value in request.items():
        flag = "--" + re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()
        if isinstance(value, bool):
            if name == "ScanIndexForward":
                parts.append(
                    "--no-scan-index-forward" if not value else "--scan-index-forward"
                )
            elif name == "ConsistentRead":
                parts.append("--consistent-read" if value else "--no-consistent-read")
            continue
        if isinstance(value, (dict, list)):
            text = json.dumps(binaries_as_base64(value), separators=(",", ":"))
        else:
            text = str(value)
        parts += [flag, shlex.quote(text)]
    return " ".join(parts)


def create_table_request(
    design: d.Design, *, table_name: str | None = None
) -> dict[str, Any]:
    """The CreateTable request of the design's table and indexes: the
    attribute definitions are exactly the attributes some key uses."""
    table = design.table
    definitions: dict[str, str] = {}

    def schema(
        partition: tuple[d.KeyAttribute, ...], sort: tuple[d.KeyAttribute, ...]
    ) -> list[dict[str, str]]:
        for attr in partition + sort:
            definitions.setdefault(attr.name, attr.type)
        return [{"AttributeName": a.name, "KeyType": "HASH"} for a in partition] + [
            {"AttributeName": a.name, "KeyType": "RANGE"} for a in sort
        ]

    def projection(index: d.Index) -> dict[str, Any]:
        spec: dict[str, Any] = {"ProjectionType": index.projection.type}
        if index.projection.type == "INCLUDE":
            spec["NonKeyAttributes"] = list(index.projection.attributes)
        return spec

    def throughput(capacity: d.Capacity | None) -> dict[str, int]:
        return (
            {"ReadCapacityUnits": capacity.read, "WriteCapacityUnits": capacity.write}
            if capacity
            else {}
        )

    request: dict[str, Any] = {
        "TableName": table_name or table.name,
        "KeySchema": schema(
            (table.partition_key,), (table.sort_key,) if table.sort_key else ()
        ),
        "BillingMode": table.billing_mode,
    }
    gsis, lsis = [], []
    for index in table.indexes:
        if index.is_global:
            spec = {
                "IndexName": index.name,
                "KeySchema": schema(index.partition_key, index.sort_key),
                "Projection": projection(index),
            }
            if table.billing_mode == "PROVISIONED":
                spec["ProvisionedThroughput"] = throughput(index.capacity)
            gsis.append(spec)
        else:
            lsis.append(
                {
                    "IndexName": index.name,
                    "KeySchema": schema((table.partition_key,), index.sort_key),
                    "Projection": projection(index),
                }
            )
    request["AttributeDefinitions"] = [
        {"AttributeName": name, "AttributeType": kind}
        for name, kind in definitions.items()
    ]
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    if lsis:
        request["LocalSecondaryIndexes"] = lsis
    if table.billing_mode == "PROVISIONED":
        request["ProvisionedThroughput"] = throughput(table.capacity)
    return request
