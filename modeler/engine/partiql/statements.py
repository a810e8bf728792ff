"""PartiQL statements run as the engine's own operations, so that capacity,
conditions and errors are those of GetItem, Query, Scan, PutItem,
UpdateItem, DeleteItem and the transactions:

- SELECT with an equality on the partition key is a Query (its sort key
  condition, when the WHERE has one, in the key condition, the rest as a
  filter); with equalities on the whole key and nothing else, a GetItem;
  with an IN list (or an OR of equalities) on the partition key and ORDER
  BY, one Query per partition, merged (see merged.py); otherwise a Scan with
  the WHERE as its filter;
- INSERT is a PutItem on the condition that no item has the key
  (DuplicateItemException otherwise);
- UPDATE is an UpdateItem of the key the WHERE names, on the condition that
  the item exists and the rest of the WHERE holds;
- DELETE is a DeleteItem of that key, on the condition of the rest.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from modeler.engine.errors import (
    ConditionalCheckFailedException,
    EngineError,
    ResourceNotFoundException,
    ValidationException,
)
from modeler.engine.partiql import parser as p

Request = dict[str, Any]


class Operations(Protocol):
    """The engine's operations a statement runs as (engine.Engine has them)."""

    def describe_table(self, request: Request) -> Request: ...
    def get_item(self, request: Request) -> Request: ...
    def query(self, request: Request) -> Request: ...
    def scan(self, request: Request) -> Request: ...
    def put_item(self, request: Request) -> Request: ...
    def update_item(self, request: Request) -> Request: ...
    def delete_item(self, request: Request) -> Request: ...
    def transact_get_items(self, request: Request) -> Request: ...
    def transact_write_items(self, request: Request) -> Request: ...


class DuplicateItemException(EngineError):
    code = "DuplicateItemException"
    message_text = "Duplicate primary key exists in table"


@dataclass
class Expression:
    """Names and values of one request's expressions, as placeholders."""

    names: dict[str, str] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)

    def path(self, path: p.Path) -> str:
        text = ""
        for part in path:
            if isinstance(part, int):
                text += f"[{part}]"
                continue
            placeholder = (
                next((k for k, v in self.names.items() if v == part), None)
                or f"#n{len(self.names)}"
            )
            self.names[placeholder] = part
            text += ("." if text else "") + placeholder
        return text

    def value(self, value: Any) -> str:
        placeholder = f":v{len(self.values)}"
        self.values[placeholder] = value
        return placeholder

    def condition(self, node: Any) -> str:
        if isinstance(node, p.Logical):
            return (
                f"({self.condition(node.left)}) {node.operator} "
                f"({self.condition(node.right)})"
            )
        if isinstance(node, p.Not):
            return f"NOT ({self.condition(node.operand)})"
        if isinstance(node, p.Compare):
            return f"{self.path(node.path)} {node.operator} {self.value(node.value)}"
        if isinstance(node, p.Between):
            return (
                f"{self.path(node.path)} BETWEEN {self.value(node.low)} AND "
                f"{self.value(node.high)}"
            )
        if isinstance(node, p.In):
            return (
                f"{self.path(node.path)} IN "
                f"({', '.join(self.value(v) for v in node.values)})"
            )
        if isinstance(node, p.Missing):
            function = "attribute_not_exists" if node.missing else "attribute_exists"
            return f"{function}({self.path(node.path)})"
        if isinstance(node, p.Function):
            if node.value is None:
                return f"{node.name}({self.path(node.path)})"
            return f"{node.name}({self.path(node.path)}, {self.value(node.value)})"
        raise ValidationException("Unsupported condition in WHERE clause")

    def into(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.names:
            request["ExpressionAttributeNames"] = self.names
        if self.values:
            request["ExpressionAttributeValues"] = self.values
        return request


def _conjuncts(node: Any) -> list[Any]:
    if isinstance(node, p.Logical) and node.operator == "AND":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [] if node is None else [node]


def and_joined(nodes: list[Any]) -> Any:
    joined = None
    for node in nodes:
        joined = node if joined is None else p.Logical("AND", joined, node)
    return joined


def key_attributes(engine: Operations, table: str, index: str | None) -> list[str]:
    try:
        described = engine.describe_table({"TableName": table})["Table"]
    except ResourceNotFoundException:
        # A statement's table is named as the data plane names it.
        raise ResourceNotFoundException("Requested resource not found") from None
    schema = described["KeySchema"]
    if index is not None:
        found = [
            i
            for i in described.get("GlobalSecondaryIndexes", [])
            + described.get("LocalSecondaryIndexes", [])
            if i["IndexName"] == index
        ]
        if not found:
            raise ValidationException(
                f"The table does not have the specified index: {index}"
            )
        schema = found[0]["KeySchema"]
    return [element["AttributeName"] for element in schema]


def split_key(
    where: Any, key: list[str]
) -> tuple[dict[str, Any], list[Any], list[Any]]:
    """The key's equalities in the WHERE ({attribute: value}), its other
    conditions on the sort key, and the rest."""
    equal: dict[str, Any] = {}
    on_sort: list[Any] = []
    rest: list[Any] = []
    for node in _conjuncts(where):
        path = getattr(node, "path", None)
        attribute = path[0] if path and len(path) == 1 else None
        if (
            isinstance(node, p.Compare)
            and node.operator == "="
            and attribute in key
            and attribute not in equal
        ):
            equal[attribute] = node.value
        elif (
            attribute is not None
            and attribute in key[1:]
            and (
                isinstance(node, p.Compare | p.Between)
                or (isinstance(node, p.Function) and node.name == "begins_with")
            )
            and node.__class__ is not p.In
        ):
            on_sort.append(node)
        else:
            rest.append(node)
    return equal, on_sort, rest


def _full_key(engine: Operations, statement: Any) -> tuple[dict[str, Any], Any]:
    """An UPDATE's or DELETE's key, from equalities on every key attribute,
    and the rest of its WHERE."""
    key = key_attributes(engine, statement.table, None)
    equal, on_sort, rest = split_key(statement.where, key)
    if set(equal) != set(key):
        raise ValidationException(
            "Where clause does not contain a mandatory equality on all key attributes"
        )
    return equal, and_joined(on_sort + rest)


# --- SELECT -------------------------------------------------------------------


def select_request(
    engine: Operations, statement: p.Select, *, query_only: bool = False
) -> tuple[str, dict[str, Any]]:
    """The read (GetItem, Query or Scan) and its request; with `query_only`,
    a Query rather than a GetItem of the whole key."""
    key = key_attributes(engine, statement.table, statement.index)
    equal, on_sort, rest = split_key(statement.where, key)
    expression = Expression()
    request: dict[str, Any] = {"TableName": statement.table}
    if statement.index is not None:
        request["IndexName"] = statement.index
    if statement.projection is not None:
        request["ProjectionExpression"] = ", ".join(
            expression.path(path) for path in statement.projection
        )
    partition = key[0]
    if statement.order:
        _check_order(statement, key, equal)
    if partition not in equal:
        if statement.where is not None:
            request["FilterExpression"] = expression.condition(statement.where)
        return "Scan", expression.into(request)
    if (
        not query_only
        and statement.index is None
        and set(equal) == set(key)
        and not on_sort
        and not rest
    ):
        request["Key"] = equal
        return "GetItem", expression.into(request)
    conditions = [p.Compare((partition,), "=", equal[partition])]
    extra = [
        p.Compare((name,), "=", value)
        for name, value in equal.items()
        if name != partition
    ]
    sort_conditions = extra + on_sort
    if len(sort_conditions) == 1:
        conditions += sort_conditions
    else:
        rest = sort_conditions + rest
    request["KeyConditionExpression"] = expression.condition(and_joined(conditions))
    if dict(statement.order).get(key[-1]) and len(key) > 1:
        # One partition's items come in sort key order: DESC reads it backwards.
        request["ScanIndexForward"] = False
    if rest:
        request["FilterExpression"] = expression.condition(and_joined(rest))
    return "Query", expression.into(request)


def _check_order(statement: p.Select, key: list[str], equal: dict[str, Any]) -> None:
    """ORDER BY as DynamoDB takes it: with a WHERE holding a condition on
    the partition key, on key attributes only (of the index when one is
    read)."""
    if statement.where is None:
        raise ValidationException(
            "Must have WHERE clause in the statement when using ORDER BY clause."
        )
    for attribute, _ in statement.order:
        if attribute not in key:
            raise ValidationException(
                f"Attribute {attribute} in ORDER BY clause must be part of the "
                "primary key"
            )
    if key[0] in equal or partitions_named(statement.where, key[0]) is not None:
        return
    if _names_partition(statement.where, key[0]):
        # The partitions are named inside a condition that also holds
        # others (`(PK = 'a' AND x = 1) OR PK = 'b'`): no Query per
        # partition reads exactly that, and a Scan's order is not the key's.
        raise ValidationException(
            "ORDER BY over several partitions needs the partition key's values "
            "in a condition of their own (PK IN [...], or PK = ... OR PK = ...), "
            "joined to the rest of the WHERE clause with AND"
        )
    raise ValidationException(
        "Must have at least one non-optional hash key condition in WHERE clause "
        "when using ORDER BY clause."
    )


def partitions_named(where: Any, partition: str) -> tuple[list[Any], list[Any]] | None:
    """The partition key values a WHERE reads several partitions of (an IN
    list, or an OR of equalities, ANDed with the rest), distinct, in the
    order first named, and the WHERE's other conditions; None when it names
    no such list (an equality alone is one partition's Query)."""
    values: list[Any] | None = None
    several = False
    rest = []
    for node in _conjuncts(where):
        named = _values_of(node, partition)
        if named is None:
            rest.append(node)
            continue
        several = several or not isinstance(node, p.Compare)
        # Conditions ANDed: the partitions all of them name.
        values = named if values is None else [v for v in values if v in named]
    if values is None or not several:
        return None
    distinct: list[Any] = []
    for value in values:
        if value not in distinct:
            distinct.append(value)
    return distinct, rest


def _values_of(node: Any, partition: str) -> list[Any] | None:
    """The values a condition on the partition key alone lets through (=,
    IN, or an OR of them); None for any other condition."""
    if isinstance(node, p.Compare) and node.operator == "=":
        return [node.value] if node.path == (partition,) else None
    if isinstance(node, p.In):
        return list(node.values) if node.path == (partition,) else None
    if isinstance(node, p.Logical) and node.operator == "OR":
        left = _values_of(node.left, partition)
        right = _values_of(node.right, partition)
        return None if left is None or right is None else left + right
    return None


def _names_partition(node: Any, partition: str) -> bool:
    """Whether every item the condition lets through has a partition key
    value it names (=, IN, or an OR of such)."""
    if isinstance(node, p.Compare):
        return node.operator == "=" and node.path == (partition,)
    if isinstance(node, p.In):
        return node.path == (partition,)
    if isinstance(node, p.Logical):
        left = _names_partition(node.left, partition)
        right = _names_partition(node.right, partition)
        return (left and right) if node.operator == "OR" else (left or right)
    return False


def fingerprint(request: dict[str, Any]) -> str:
    """What a NextToken is bound to: the statement and its parameters, as
    DynamoDB refuses a token given with another statement."""
    text = json.dumps(
        [request.get("Statement"), request.get("Parameters")],
        sort_keys=True,
        default=lambda value: base64.b64encode(value).decode(),
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def token(statement: str, position: Any) -> str:
    """A NextToken: where the next page starts (keys in DynamoDB JSON)."""

    def encode(value: Any) -> Any:
        if isinstance(value, bytes):
            return {"__bytes__": base64.b64encode(value).decode()}
        if isinstance(value, dict):
            return {k: encode(v) for k, v in value.items()}
        if isinstance(value, list):
            return [encode(v) for v in value]
        return value

    text = json.dumps({"statement": statement, "position": encode(position)})
    return base64.b64encode(text.encode()).decode()


def position(next_token: Any, statement: str) -> Any:
    """Where a NextToken says the page starts, if it is this statement's."""

    def decode(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"__bytes__"}:
                return base64.b64decode(value["__bytes__"])
            return {k: decode(v) for k, v in value.items()}
        if isinstance(value, list):
            return [decode(v) for v in value]
        return value

    try:
        decoded = json.loads(base64.b64decode(next_token, validate=True))
    except (ValueError, TypeError):
        raise ValidationException("Invalid NextToken") from None
    if not isinstance(decoded, dict) or "position" not in decoded:
        raise ValidationException("Invalid NextToken")
    if decoded.get("statement") != statement:
        raise ValidationException("NextToken does not match request")
    return decode(decoded["position"])


def run_select(
    engine: Operations,
    statement: p.Select,
    *,
    limit: int | None = None,
    next_token: str | None = None,
    bound_to: str = "",
    consistent: bool = False,
    capacity: str = "NONE",
) -> dict[str, Any]:
    """The SELECT's page; a NextToken given or returned is `bound_to` its
    statement (see `fingerprint`)."""
    operation, request = select_request(engine, statement)
    if consistent:
        request["ConsistentRead"] = True
    if capacity != "NONE":
        request["ReturnConsumedCapacity"] = capacity
    if operation == "GetItem":
        answer = engine.get_item(request)
        response: dict[str, Any] = {
            "Items": [answer["Item"]] if "Item" in answer else []
        }
    else:
        if limit is not None:
            request["Limit"] = limit
        if next_token is not None:
            start = position(next_token, bound_to)
            if not isinstance(start, dict) or not start:
                raise ValidationException("Invalid NextToken")
            request["ExclusiveStartKey"] = start
        answer = (engine.query if operation == "Query" else engine.scan)(request)
        response = {"Items": answer["Items"]}
        if "LastEvaluatedKey" in answer:
            response["NextToken"] = token(bound_to, answer["LastEvaluatedKey"])
    if "ConsumedCapacity" in answer:
        response["ConsumedCapacity"] = answer["ConsumedCapacity"]
    return response


# --- INSERT, UPDATE, DELETE -------------------------------------------------------


def write_request(
    engine: Operations, statement: p.Insert | p.Update | p.Delete | p.Exists
) -> tuple[str, dict[str, Any]]:
    """The write (Put, Update, Delete, or an EXISTS' ConditionCheck) and its
    request, as a transaction's action takes it."""
    expression = Expression()
    if isinstance(statement, p.Exists):
        if statement.select.index is not None:
            raise ValidationException("EXISTS reads a table, not an index")
        key_values, rest = _full_key(engine, statement.select)
        exists = p.Missing((next(iter(key_values)),), False)
        condition = exists if rest is None else p.Logical("AND", exists, rest)
        request = {
            "TableName": statement.table,
            "Key": key_values,
            "ConditionExpression": expression.condition(condition),
        }
        return "ConditionCheck", expression.into(request)
    if isinstance(statement, p.Insert):
        key = key_attributes(engine, statement.table, None)
        missing = [name for name in key if name not in statement.item]
        if missing:
            raise ValidationException(
                "One or more parameter values were invalid: Missing the key "
                f"{missing[0]} in the item"
            )
        request = {
            "TableName": statement.table,
            "Item": statement.item,
            "ConditionExpression": expression.condition(p.Missing((key[0],), True)),
        }
        return "Put", expression.into(request)
    key_values, rest = _full_key(engine, statement)
    request = {"TableName": statement.table, "Key": key_values}
    if isinstance(statement, p.Update):
        clauses = []
        assignments = []
        for assign in statement.sets:
            target = expression.path(assign.path)
            if isinstance(assign.value, tuple):
                operator, source, operand = assign.value
                assignments.append(
                    f"{target} = {expression.path(source)} {operator} "
                    f"{expression.value(operand)}"
                )
            else:
                assignments.append(f"{target} = {expression.value(assign.value)}")
        if assignments:
            clauses.append("SET " + ", ".join(assignments))
        if statement.removes:
            clauses.append(
                "REMOVE " + ", ".join(expression.path(r) for r in statement.removes)
            )
        request["UpdateExpression"] = " ".join(clauses)
        exists = p.Missing((next(iter(key_values)),), False)
        rest = exists if rest is None else p.Logical("AND", exists, rest)
    if rest is not None:
        request["ConditionExpression"] = expression.condition(rest)
    if statement.returning is not None:
        request["ReturnValues"] = statement.returning
    return ("Update" if isinstance(statement, p.Update) else "Delete"), expression.into(
        request
    )


def run_write(
    engine: Operations,
    statement: p.Insert | p.Update | p.Delete,
    *,
    capacity: str = "NONE",
    on_failure: str | None = None,
) -> dict[str, Any]:
    kind, request = write_request(engine, statement)
    if capacity != "NONE":
        request["ReturnConsumedCapacity"] = capacity
    if on_failure is not None:
        request["ReturnValuesOnConditionCheckFailure"] = on_failure
    operation = {
        "Put": engine.put_item,
        "Update": engine.update_item,
        "Delete": engine.delete_item,
    }[kind]
    try:
        answer = operation(request)
    except ConditionalCheckFailedException:
        if kind == "Put":
            raise DuplicateItemException(DuplicateItemException.message_text) from None
        raise
    # RETURNING's image, as one item (none when it would be empty: nothing
    # was there to delete, or MODIFIED found no attribute changed).
    returned = answer.get("Attributes")
    response: dict[str, Any] = {"Items": [returned] if returned else []}
    if "ConsumedCapacity" in answer:
        response["ConsumedCapacity"] = answer["ConsumedCapacity"]
    return response
