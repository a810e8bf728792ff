"""ExecuteStatement, BatchExecuteStatement and ExecuteTransaction."""

from __future__ import annotations

from typing import Any

from modeler.engine.constraints import (
    RETURN_CONSUMED_CAPACITY,
    RETURN_VALUES_ON_FAILURE,
    Failures,
    at_least,
)
from modeler.engine.errors import (
    EngineError,
    TransactionCanceledException,
    ValidationException,
)
from modeler.engine.partiql import merged
from modeler.engine.partiql import parser as p
from modeler.engine.partiql.statements import (
    DuplicateItemException,
    Operations,
    fingerprint,
    run_select,
    run_write,
    select_request,
    write_request,
)
from modeler.engine.requests import check_parameters

MAX_BATCH_STATEMENTS = 25
MAX_TRANSACTION_STATEMENTS = 100
# How an error is named in a batch's response, by the operation's code.
_BATCH_CODES = {
    "ConditionalCheckFailedException": "ConditionalCheckFailed",
    "DuplicateItemException": "DuplicateItem",
    "ResourceNotFoundException": "ResourceNotFound",
    "ValidationException": "ValidationError",
    "ItemCollectionSizeLimitExceededException": "ItemCollectionSizeLimitExceeded",
}


_EXISTS_ONLY_IN_TRANSACTIONS = (
    "EXISTS is only supported in a transaction (ExecuteTransaction)"
)


def _parameters(spec: dict[str, Any]) -> list[Any]:
    parameters = spec.get("Parameters")
    if parameters is None:
        return []
    if not isinstance(parameters, list) or not parameters:
        raise ValidationException(
            "1 validation error detected: Value '[]' at 'parameters' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1"
        )
    return parameters


def _statement(spec: dict[str, Any]) -> p.Statement:
    return p.parse(spec.get("Statement"), _parameters(spec))


def execute_statement(engine: Operations, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request,
        (
            "Statement",
            "Parameters",
            "ConsistentRead",
            "NextToken",
            "ReturnConsumedCapacity",
            "Limit",
            "ReturnValuesOnConditionCheckFailure",
        ),
        ("Statement",),
    )
    failures = Failures()
    failures.enum(request, "ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY)
    failures.enum(
        request, "ReturnValuesOnConditionCheckFailure", RETURN_VALUES_ON_FAILURE
    )
    failures.check()
    capacity = request.get("ReturnConsumedCapacity", "NONE")
    limit = request.get("Limit")
    if limit is not None:
        at_least(limit, "Limit", 1)
    statement = _statement(request)
    if isinstance(statement, p.Exists):
        raise ValidationException(_EXISTS_ONLY_IN_TRANSACTIONS)
    if isinstance(statement, p.Select):
        read = {
            "limit": limit,
            "next_token": request.get("NextToken"),
            "bound_to": fingerprint(request),
            "consistent": bool(request.get("ConsistentRead")),
            "capacity": capacity,
        }
        several = merged.plan(engine, statement)
        if several is not None:
            return merged.run_merged(engine, several, **read)
        return run_select(engine, statement, **read)
    return run_write(
        engine,
        statement,
        capacity=capacity,
        on_failure=request.get("ReturnValuesOnConditionCheckFailure"),
    )


def batch_execute_statement(
    engine: Operations, request: dict[str, Any]
) -> dict[str, Any]:
    check_parameters(request, ("Statements", "ReturnConsumedCapacity"), ("Statements",))
    failures = Failures()
    failures.enum(request, "ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY)
    failures.check()
    capacity = request.get("ReturnConsumedCapacity", "NONE")
    specs = request["Statements"]
    if not isinstance(specs, list) or not 1 <= len(specs) <= MAX_BATCH_STATEMENTS:
        bound = (
            f"less than or equal to {MAX_BATCH_STATEMENTS}"
            if isinstance(specs, list) and specs
            else "greater than or equal to 1"
        )
        raise ValidationException(
            "1 validation error detected: Value at 'statements' failed to satisfy "
            f"constraint: Member must have length {bound}"
        )
    responses = []
    consumed = []
    for spec in specs:
        check_parameters(
            spec,
            (
                "Statement",
                "Parameters",
                "ConsistentRead",
                "ReturnValuesOnConditionCheckFailure",
            ),
            ("Statement",),
        )
        table = None
        try:
            statement = _statement(spec)
            table = statement.table
            if isinstance(statement, p.Exists):
                raise ValidationException(_EXISTS_ONLY_IN_TRANSACTIONS)
            if isinstance(statement, p.Select):
                operation, _ = select_request(engine, statement)
                if operation != "GetItem":
                    raise ValidationException(
                        "Batch select statements must have a WHERE clause with an "
                        "equality condition on every key attribute"
                    )
                answer = run_select(
                    engine,
                    statement,
                    consistent=bool(spec.get("ConsistentRead")),
                    capacity=capacity,
                )
                response: dict[str, Any] = {"TableName": table}
                if answer["Items"]:
                    response["Item"] = answer["Items"][0]
            else:
                answer = run_write(
                    engine,
                    statement,
                    capacity=capacity,
                    on_failure=spec.get("ReturnValuesOnConditionCheckFailure"),
                )
                response = {"TableName": table}
                # RETURNING's image, in the member's Item as a read's would be.
                if answer["Items"]:
                    response["Item"] = answer["Items"][0]
            if "ConsumedCapacity" in answer:
                consumed.append(answer["ConsumedCapacity"])
        except EngineError as error:
            response = {
                "Error": {
                    "Code": _BATCH_CODES.get(error.code, error.code),
                    "Message": error.message,
                }
            }
            item = getattr(error, "item", None)
            if item is not None:
                response["Error"]["Item"] = item
            if table is not None:
                response["TableName"] = table
        responses.append(response)
    result: dict[str, Any] = {"Responses": responses}
    if capacity != "NONE":
        result["ConsumedCapacity"] = _merged(consumed)
    return result


def _merged(consumed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each table's capacity once, summed over its statements."""
    tables: dict[str, dict[str, Any]] = {}
    for entry in consumed:
        name = entry["TableName"]
        if name not in tables:
            tables[name] = dict(entry)
            continue
        total = tables[name]
        for unit in ("CapacityUnits", "ReadCapacityUnits", "WriteCapacityUnits"):
            if unit in entry:
                total[unit] = total.get(unit, 0) + entry[unit]
    return list(tables.values())


def execute_transaction(engine: Operations, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request,
        ("TransactStatements", "ClientRequestToken", "ReturnConsumedCapacity"),
        ("TransactStatements",),
    )
    failures = Failures()
    failures.enum(request, "ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY)
    failures.check()
    specs = request["TransactStatements"]
    if not isinstance(specs, list) or not 1 <= len(specs) <= MAX_TRANSACTION_STATEMENTS:
        bound = (
            f"less than or equal to {MAX_TRANSACTION_STATEMENTS}"
            if isinstance(specs, list) and specs
            else "greater than or equal to 1"
        )
        raise ValidationException(
            "1 validation error detected: Value at 'transactStatements' failed to "
            f"satisfy constraint: Member must have length {bound}"
        )
    statements = []
    for spec in specs:
        check_parameters(
            spec,
            ("Statement", "Parameters", "ReturnValuesOnConditionCheckFailure"),
            ("Statement",),
        )
        statements.append((_statement(spec), spec))
    reads = [isinstance(s, p.Select) for s, _ in statements]
    if any(reads) and not all(reads):
        raise ValidationException(
            "Transactions must contain only read statements or only write statements"
        )
    passed: dict[str, Any] = {
        k: request[k]
        for k in ("ClientRequestToken", "ReturnConsumedCapacity")
        if k in request
    }
    if all(reads):
        passed.pop("ClientRequestToken", None)
        gets = []
        for statement, _ in statements:
            # all(reads): a Select, which the list's type does not record.
            operation, get = select_request(engine, statement)  # type: ignore[arg-type]  # see above
            if operation != "GetItem":
                raise ValidationException(
                    "Transaction select statements must have a WHERE clause with an "
                    "equality condition on every key attribute"
                )
            gets.append({"Get": get})
        return engine.transact_get_items({"TransactItems": gets, **passed})
    actions = []
    inserts = []
    for statement, spec in statements:
        if getattr(statement, "returning", None) is not None:
            raise ValidationException(
                "RETURNING clause is not supported in ExecuteTransaction."
            )
        # Not mixed and not all reads: a write, which the list does not record.
        kind, action = write_request(engine, statement)  # type: ignore[arg-type]  # see above
        if "ReturnValuesOnConditionCheckFailure" in spec:
            action["ReturnValuesOnConditionCheckFailure"] = spec[
                "ReturnValuesOnConditionCheckFailure"
            ]
        inserts.append(kind == "Put")
        actions.append({kind: action})
    try:
        answer = engine.transact_write_items({"TransactItems": actions, **passed})
    except TransactionCanceledException as error:
        # An INSERT's key already taken is a duplicate item, not a failed
        # condition (the condition is the engine's way of checking it).
        reasons = [
            {"Code": "DuplicateItem", "Message": DuplicateItemException.message_text}
            if insert and reason.get("Code") == "ConditionalCheckFailed"
            else reason
            for insert, reason in zip(inserts, error.reasons, strict=True)
        ]
        raise TransactionCanceledException(reasons) from None
    answer.pop("ItemCollectionMetrics", None)
    return answer
