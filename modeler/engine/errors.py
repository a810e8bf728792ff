"""The errors the engine raises: DynamoDB's, with DynamoDB's names and
wording, so code written against boto3 can catch them the same way.

`EngineError.response` has the shape of botocore's ClientError.response, and
the client facade (modeler.engine.client) raises them as
`client.exceptions.<Name>` as boto3 does.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """A DynamoDB error. `code` is DynamoDB's error code."""

    code = "InternalServerError"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def response(self) -> dict[str, Any]:
        return {
            "Error": {"Code": self.code, "Message": self.message},
            "ResponseMetadata": {"HTTPStatusCode": 400},
        }

    def __str__(self) -> str:
        return f"An error occurred ({self.code}): {self.message}"


class ValidationException(EngineError):
    code = "ValidationException"


class ResourceNotFoundException(EngineError):
    code = "ResourceNotFoundException"


class ResourceInUseException(EngineError):
    code = "ResourceInUseException"


class ConditionalCheckFailedException(EngineError):
    code = "ConditionalCheckFailedException"

    def __init__(
        self,
        message: str = "The conditional request failed",
        item: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.item = item  # with ReturnValuesOnConditionCheckFailure=ALL_OLD
        # The units the failed write consumed, set by the write that raises.
        self.consumed_capacity: dict[str, Any] | None = None

    @property
    def response(self) -> dict[str, Any]:
        response = super().response
        if self.item is not None:
            response["Item"] = self.item
        return response


class IdempotentParameterMismatchException(EngineError):
    code = "IdempotentParameterMismatchException"


class TransactionCanceledException(EngineError):
    """`reasons` has one entry per action: {"Code": "None"} for the ones that
    would have succeeded, {"Code": "ConditionalCheckFailed", "Message": ...}
    and so on for the others, as DynamoDB reports them."""

    code = "TransactionCanceledException"

    def __init__(self, reasons: list[dict[str, Any]]) -> None:
        codes = ", ".join(r["Code"] for r in reasons)
        super().__init__(
            f"Transaction cancelled, please refer cancellation reasons for "
            f"specific reasons [{codes}]"
        )
        self.reasons = reasons

    @property
    def response(self) -> dict[str, Any]:
        response = super().response
        response["CancellationReasons"] = self.reasons
        return response


class ItemCollectionSizeLimitExceededException(EngineError):
    code = "ItemCollectionSizeLimitExceededException"
