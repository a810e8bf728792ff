"""The client's quick parameter check: valid requests pass it without
botocore's validator, and it never passes a request botocore would refuse
(which then reports the errors in its own words)."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest
from botocore.validate import ParamValidator
from hypothesis import given, settings
from hypothesis import strategies as st

from modeler.engine.client import _models, _quick_check

VALID: list[tuple[str, dict[str, Any]]] = [
    ("GetItem", {"TableName": "T", "Key": {"PK": {"S": "a"}, "SK": {"N": "1"}}}),
    (
        "PutItem",
        {
            "TableName": "T",
            "Item": {
                "PK": {"S": "a"},
                "blob": {"B": b"\x00"},
                "set": {"SS": ["x", "y"]},
                "numbers": {"NS": ("1", "2")},
                "nested": {"M": {"l": {"L": [{"NULL": True}, {"BOOL": False}]}}},
            },
            "ConditionExpression": "attribute_not_exists(PK)",
            "ReturnValues": "ALL_OLD",
        },
    ),
    (
        "UpdateItem",
        {
            "TableName": "T",
            "Key": {"PK": {"S": "a"}},
            "UpdateExpression": "SET #t = #t + :d",
            "ExpressionAttributeNames": {"#t": "total"},
            "ExpressionAttributeValues": {":d": {"N": "1"}},
        },
    ),
    (
        "Query",
        {
            "TableName": "T",
            "IndexName": "GSI1",
            "KeyConditionExpression": "PK = :p",
            "ExpressionAttributeValues": {":p": {"S": "a"}},
            "Limit": 100,
            "ScanIndexForward": False,
            "ExclusiveStartKey": {"PK": {"S": "a"}},
        },
    ),
    (
        "BatchWriteItem",
        {
            "RequestItems": {
                "T": [
                    {"PutRequest": {"Item": {"PK": {"S": "a"}}}},
                    {"DeleteRequest": {"Key": {"PK": {"S": "b"}}}},
                ]
            }
        },
    ),
    (
        "TransactWriteItems",
        {
            "TransactItems": [
                {"Put": {"TableName": "T", "Item": {"PK": {"S": "a"}}}},
                {
                    "ConditionCheck": {
                        "TableName": "T",
                        "Key": {"PK": {"S": "b"}},
                        "ConditionExpression": "attribute_exists(PK)",
                    }
                },
            ]
        },
    ),
]

INVALID: list[tuple[str, dict[str, Any]]] = [
    ("GetItem", {"TableName": "T"}),  # Key missing
    ("GetItem", {"TableName": "", "Key": {}}),  # below the minimum length
    ("GetItem", {"TableName": "T", "Key": {}, "Unknown": 1}),
    ("GetItem", {"TableName": "T", "Key": {"PK": {"S": 1}}}),
    ("GetItem", {"TableName": "T", "Key": {"PK": {"X": "a"}}}),
    ("GetItem", {"TableName": "T", "Key": {"PK": {"B": 3}}}),
    ("GetItem", {"TableName": "T", "Key": [], "ConsistentRead": "yes"}),
    ("GetItem", {"TableName": "T", "Key": {}, "AttributesToGet": []}),
    ("PutItem", {"TableName": "T", "Item": {"a": {"SS": "x"}}}),
    ("PutItem", {"TableName": "T", "Item": {"a": {"NULL": 1}}}),
    ("PutItem", {"TableName": "T", "Item": {"a": {"L": [{"S": Decimal(1)}]}}}),
    ("Query", {"TableName": "T", "Limit": 0}),
    ("PutItem", {"TableName": "T", "Item": {"a": {"B": []}}}),
    ("Query", {"TableName": "T", "Limit": "100"}),
    ("BatchWriteItem", {"RequestItems": {"T": [{"PutRequest": {}}]}}),
    ("TransactWriteItems", {"TransactItems": []}),
]


def _botocore_errors(operation: str, params: Any) -> bool:
    shape = _models()[0].operation_model(operation).input_shape
    return ParamValidator().validate(params, shape).has_errors()


@pytest.mark.parametrize(("operation", "params"), VALID)
def test_valid_requests_pass_the_quick_check(operation: str, params: Any) -> None:
    assert _quick_check(operation)(params)
    assert not _botocore_errors(operation, params)


def test_binary_values_as_text_are_left_to_botocore() -> None:
    params = {"TableName": "T", "Item": {"a": {"B": "abc"}, "b": {"BS": ["x"]}}}
    assert not _quick_check("PutItem")(params)
    assert not _botocore_errors("PutItem", params)


@pytest.mark.parametrize(("operation", "params"), INVALID)
def test_invalid_requests_are_left_to_botocore(operation: str, params: Any) -> None:
    assert not _quick_check(operation)(params)
    assert _botocore_errors(operation, params)


_ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.text(max_size=2),
    st.binary(max_size=2),
    st.just([]),
    st.just({}),
    st.just({"S": "a"}),
    st.decimals(allow_nan=False, allow_infinity=False, places=1),
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, element in value.items():
            found += _paths(element, (*path, key))
    elif isinstance(value, (list, tuple)):
        for index, element in enumerate(value):
            found += _paths(element, (*path, index))
    return found


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_quick_check_never_passes_what_botocore_refuses(data: Any) -> None:
    operation, valid = data.draw(st.sampled_from(VALID))
    params = copy.deepcopy(valid)
    path = data.draw(st.sampled_from([p for p in _paths(params) if p]))
    *parents, last = path
    container = params
    for step in parents:
        container = container[step]
    if isinstance(container, tuple):
        return
    replacement = data.draw(_ANYTHING)
    if data.draw(st.booleans()) and isinstance(container, dict):
        container[f"{last}_extra"] = replacement  # an unknown member or a new key
    elif data.draw(st.booleans()) and isinstance(container, dict):
        del container[last]
    else:
        container[last] = replacement
    if _quick_check(operation)(params):
        assert not _botocore_errors(operation, params)
