"""The legacy conditional parameters, as DynamoDB still accepts them:
AttributesToGet, KeyConditions, QueryFilter, ScanFilter, Expected,
AttributeUpdates and ConditionalOperator (Developer Guide, "Legacy
conditional parameters").

A request that uses them is rewritten into the equivalent request with
expressions, which the operations then run as any other: one evaluator, one
set of rules for sizes, capacity and errors. The names and values the
rewrite invents (`#legacy0`, `:legacy0`) cannot clash with the request's
own, because a request may not mix the two kinds: DynamoDB refuses that
with "Can not use both expression and non-expression parameters in the same
request", and so does this module.
"""

from __future__ import annotations

from typing import Any

from modeler.engine.errors import ValidationException

# Operation -> the legacy parameters it takes.
LEGACY = {
    "GetItem": ("AttributesToGet",),
    "BatchGetItem": ("AttributesToGet",),
    "Query": ("AttributesToGet", "KeyConditions", "QueryFilter", "ConditionalOperator"),
    "Scan": ("AttributesToGet", "ScanFilter", "ConditionalOperator"),
    "PutItem": ("Expected", "ConditionalOperator"),
    "DeleteItem": ("Expected", "ConditionalOperator"),
    "UpdateItem": ("Expected", "AttributeUpdates", "ConditionalOperator"),
}
# The same as sets, for the quick look every request gets.
_LEGACY_SETS = {operation: frozenset(names) for operation, names in LEGACY.items()}
_NONE: frozenset[str] = frozenset()
EXPRESSION_PARAMETERS = (
    "ProjectionExpression",
    "KeyConditionExpression",
    "FilterExpression",
    "ConditionExpression",
    "UpdateExpression",
    "ExpressionAttributeNames",
    "ExpressionAttributeValues",
)

# ComparisonOperator -> (number of values, or None for "one or more").
_ARGUMENTS: dict[str, int | None] = {
    "EQ": 1,
    "NE": 1,
    "LE": 1,
    "LT": 1,
    "GE": 1,
    "GT": 1,
    "NOT_NULL": 0,
    "NULL": 0,
    "CONTAINS": 1,
    "NOT_CONTAINS": 1,
    "BEGINS_WITH": 1,
    "IN": None,
    "BETWEEN": 2,
}
_KEY_OPERATORS = ("EQ", "LE", "LT", "GE", "GT", "BEGINS_WITH", "BETWEEN")
_COMPARISONS = {"EQ": "=", "NE": "<>", "LE": "<=", "LT": "<", "GE": ">=", "GT": ">"}


def translate(operation: str, request: Any) -> Any:
    """`request` with its legacy parameters rewritten as expressions (the
    request itself when it has none)."""
    if not isinstance(request, dict):
        return request
    if operation == "BatchGetItem":
        return _batch_get(request)
    if request.keys().isdisjoint(_LEGACY_SETS.get(operation, _NONE)):
        return request  # nearly every request: nothing to rewrite
    legacy = [name for name in LEGACY[operation] if name in request]
    _refuse_mixing(request, legacy)
    out = {k: v for k, v in request.items() if k not in legacy}
    rewrite = _Rewrite()
    joiner = _conditional_operator(request, legacy)
    if "AttributesToGet" in request:
        out["ProjectionExpression"] = rewrite.projection(request["AttributesToGet"])
    if "KeyConditions" in request:
        out["KeyConditionExpression"] = rewrite.conditions(
            request["KeyConditions"], "KeyConditions", " AND ", key=True
        )
    for name in ("QueryFilter", "ScanFilter"):
        if name in request:
            out["FilterExpression"] = rewrite.conditions(request[name], name, joiner)
    if "Expected" in request:
        out["ConditionExpression"] = rewrite.expected(request["Expected"], joiner)
    if "AttributeUpdates" in request:
        update = rewrite.updates(request["AttributeUpdates"])
        if update:
            out["UpdateExpression"] = update
    for parameter in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
        mapping = getattr(rewrite, parameter)
        if mapping:
            out[parameter] = mapping
    return out


def _batch_get(request: dict[str, Any]) -> dict[str, Any]:
    tables = request.get("RequestItems")
    if not isinstance(tables, dict) or not any(
        isinstance(spec, dict) and "AttributesToGet" in spec for spec in tables.values()
    ):
        return request
    rewritten = {}
    for name, spec in tables.items():
        if isinstance(spec, dict) and "AttributesToGet" in spec:
            _refuse_mixing(spec, ["AttributesToGet"])
            rewrite = _Rewrite()
            spec = {k: v for k, v in spec.items() if k != "AttributesToGet"}
            spec["ProjectionExpression"] = rewrite.projection(
                request["RequestItems"][name]["AttributesToGet"]
            )
            spec["ExpressionAttributeNames"] = rewrite.ExpressionAttributeNames
        rewritten[name] = spec
    return {**request, "RequestItems": rewritten}


def _refuse_mixing(request: dict[str, Any], legacy: list[str]) -> None:
    modern = [name for name in EXPRESSION_PARAMETERS if name in request]
    if modern:
        raise ValidationException(
            "Can not use both expression and non-expression parameters in the same "
            f"request: Non-expression parameters: {{{', '.join(legacy)}}} "
            f"Expression parameters: {{{', '.join(modern)}}}"
        )


def _conditional_operator(request: dict[str, Any], legacy: list[str]) -> str:
    value = request.get("ConditionalOperator")
    if value is None:
        return " AND "
    if value not in ("AND", "OR"):
        raise ValidationException(
            f"1 validation error detected: Value '{value}' at 'conditionalOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: "
            "[OR, AND]"
        )
    if not {"QueryFilter", "ScanFilter", "Expected"} & set(legacy):
        raise ValidationException(
            "ConditionalOperator can only be used when Filter or Expected has been "
            "specified"
        )
    return f" {value} "


class _Rewrite:
    """Collects the placeholders of one rewritten request."""

    def __init__(self) -> None:
        self.ExpressionAttributeNames: dict[str, str] = {}  # boto3's parameter names
        self.ExpressionAttributeValues: dict[str, Any] = {}

    def name(self, attribute: Any, parameter: str) -> str:
        if not isinstance(attribute, str) or not attribute:
            raise ValidationException(
                f"One or more parameter values were invalid: {parameter} has an "
                "empty or invalid attribute name"
            )
        for placeholder, known in self.ExpressionAttributeNames.items():
            if known == attribute:
                return placeholder
        placeholder = f"#legacy{len(self.ExpressionAttributeNames)}"
        self.ExpressionAttributeNames[placeholder] = attribute
        return placeholder

    def value(self, wire: Any) -> str:
        placeholder = f":legacy{len(self.ExpressionAttributeValues)}"
        self.ExpressionAttributeValues[placeholder] = wire
        return placeholder

    def projection(self, attributes: Any) -> str:
        if not isinstance(attributes, list) or not attributes:
            raise ValidationException(
                "1 validation error detected: Value at 'attributesToGet' failed to "
                "satisfy constraint: Member must have length greater than or equal "
                "to 1"
            )
        if len(set(map(str, attributes))) != len(attributes):
            raise ValidationException(
                "One or more parameter values were invalid: Duplicate value in "
                f"attribute name: {attributes}"
            )
        return ", ".join(self.name(a, "AttributesToGet") for a in attributes)

    def conditions(
        self, conditions: Any, parameter: str, joiner: str, *, key: bool = False
    ) -> str:
        if not isinstance(conditions, dict) or not conditions:
            raise ValidationException(
                f"1 validation error detected: Value at '{parameter[:1].lower()}"
                f"{parameter[1:]}' failed to satisfy constraint: Member must have "
                "length greater than or equal to 1"
            )
        return joiner.join(
            self.condition(attribute, condition, parameter, key=key)
            for attribute, condition in conditions.items()
        )

    def condition(
        self, attribute: str, condition: Any, parameter: str, *, key: bool = False
    ) -> str:
        """One {AttributeValueList, ComparisonOperator} as an expression."""
        if not isinstance(condition, dict):
            raise ValidationException(
                f"One or more parameter values were invalid: {parameter} for "
                f"{attribute} must be a map"
            )
        operator = condition.get("ComparisonOperator")
        if operator not in _ARGUMENTS:
            raise ValidationException(
                f"1 validation error detected: Value '{operator}' at "
                "'comparisonOperator' failed to satisfy constraint: Member must "
                f"satisfy enum value set: [{', '.join(_ARGUMENTS)}]"
            )
        if key and operator not in _KEY_OPERATORS:
            raise ValidationException(
                "Attempted conditional constraint is not an indexable operation"
            )
        values = condition.get("AttributeValueList", [])
        expected = _ARGUMENTS[operator]
        if not isinstance(values, list) or (
            len(values) != expected if expected is not None else not values
        ):
            raise ValidationException(
                "One or more parameter values were invalid: Invalid number of "
                f"argument(s) for the {operator} ComparisonOperator"
            )
        path = self.name(attribute, parameter)
        placeholders = [self.value(v) for v in values]
        if operator in _COMPARISONS:
            return f"{path} {_COMPARISONS[operator]} {placeholders[0]}"
        if operator == "NOT_NULL":
            return f"attribute_exists({path})"
        if operator == "NULL":
            return f"attribute_not_exists({path})"
        if operator == "CONTAINS":
            return f"contains({path}, {placeholders[0]})"
        if operator == "NOT_CONTAINS":
            return f"NOT contains({path}, {placeholders[0]})"
        if operator == "BEGINS_WITH":
            return f"begins_with({path}, {placeholders[0]})"
        if operator == "IN":
            return f"{path} IN ({', '.join(placeholders)})"
        return f"{path} BETWEEN {placeholders[0]} AND {placeholders[1]}"

    def expected(self, expected: Any, joiner: str) -> str:
        """Expected: {Value, Exists} (the oldest form) or a condition."""
        if not isinstance(expected, dict) or not expected:
            raise ValidationException(
                "1 validation error detected: Value at 'expected' failed to satisfy "
                "constraint: Member must have length greater than or equal to 1"
            )
        parts = []
        for attribute, condition in expected.items():
            if not isinstance(condition, dict):
                raise ValidationException(
                    "One or more parameter values were invalid: Expected for "
                    f"{attribute} must be a map"
                )
            if "ComparisonOperator" in condition:
                if "Value" in condition or "Exists" in condition:
                    raise ValidationException(
                        "One or more parameter values were invalid: Value or Exists "
                        "cannot be used with ComparisonOperator for Attribute: "
                        f"{attribute}"
                    )
                parts.append(self.condition(attribute, condition, "Expected"))
                continue
            exists = condition.get("Exists", True)
            if not isinstance(exists, bool):
                raise ValidationException(
                    f"1 validation error detected: Value '{exists}' at 'exists' "
                    "failed to satisfy constraint: Member must be a boolean"
                )
            path = self.name(attribute, "Expected")
            if exists:
                if "Value" not in condition:
                    raise ValidationException(
                        "One or more parameter values were invalid: Value must be "
                        f"provided when Exists is true for Attribute: {attribute}"
                    )
                parts.append(f"{path} = {self.value(condition['Value'])}")
            else:
                if "Value" in condition:
                    raise ValidationException(
                        "One or more parameter values were invalid: Value cannot be "
                        f"used when Exists is false for Attribute: {attribute}"
                    )
                parts.append(f"attribute_not_exists({path})")
        return joiner.join(parts)

    def updates(self, updates: Any) -> str:
        """AttributeUpdates: {attribute: {Value, Action: PUT|ADD|DELETE}}."""
        if not isinstance(updates, dict):
            raise ValidationException(
                "1 validation error detected: Value at 'attributeUpdates' failed to "
                "satisfy constraint: Member must be a map"
            )
        clauses: dict[str, list[str]] = {
            "SET": [],
            "ADD": [],
            "REMOVE": [],
            "DELETE": [],
        }
        for attribute, update in updates.items():
            if not isinstance(update, dict):
                raise ValidationException(
                    "One or more parameter values were invalid: AttributeUpdates for "
                    f"{attribute} must be a map"
                )
            action = update.get("Action", "PUT")
            if action not in ("PUT", "ADD", "DELETE"):
                raise ValidationException(
                    f"1 validation error detected: Value '{action}' at 'action' failed "
                    "to satisfy constraint: Member must satisfy enum value set: "
                    "[ADD, PUT, DELETE]"
                )
            path = self.name(attribute, "AttributeUpdates")
            value = update.get("Value")
            if action == "DELETE" and value is None:
                clauses["REMOVE"].append(path)
                continue
            if value is None:
                raise ValidationException(
                    "One or more parameter values were invalid: Only DELETE action is "
                    f"allowed when no attribute value is specified: {attribute}"
                )
            if action == "PUT":
                clauses["SET"].append(f"{path} = {self.value(value)}")
            elif action == "DELETE":
                clauses["DELETE"].append(f"{path} {self.value(value)}")
            elif isinstance(value, dict) and "L" in value:
                # ADD appends a list to a list (or makes it), which ADD in an
                # update expression does not do.
                empty = self.value({"L": []})
                clauses["SET"].append(
                    f"{path} = list_append(if_not_exists({path}, {empty}), "
                    f"{self.value(value)})"
                )
            else:
                clauses["ADD"].append(f"{path} {self.value(value)}")
        return " ".join(
            f"{clause} {', '.join(parts)}" for clause, parts in clauses.items() if parts
        )
