"""GetItem, Query and Scan answers written straight from the stored items
are byte for byte the answers encoded from DynamoDB JSON."""

from __future__ import annotations

import json
from datetime import UTC
from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from modeler.endpoint import protocol
from modeler.endpoint.protocol import (
    ProtocolError,
    decode_request,
    encode_response,
    error_body,
    item_json,
)
from modeler.endpoint.service import Service
from modeler.engine.engine import Engine
from modeler.engine.errors import EngineError
from modeler.engine.wire import item_to_wire
from tests.engine.test_wire import items

TARGET = "DynamoDB_20120810."


@given(items)
def test_item_text_is_the_encoded_wire_item(item: dict) -> None:
    assert item_json(item).encode("utf-8") == encode_response(item_to_wire(item))


def test_item_text_of_awkward_values() -> None:
    item = {
        'é\u2028\x7f"\\': "naïve \x00\x1f \ud7ff 😀 \u007f",
        "n": Decimal("-0"),
        "e": Decimal("1E+2"),
        "z": Decimal("1.50"),
        "b": b"\x00\xff",
        "t": True,
        "f": False,
        "null": None,
        "nested": {"l": [Decimal("3"), "x", {"deep": b"y"}]},
    }
    assert item_json(item).encode("utf-8") == encode_response(item_to_wire(item))


def _answers(requests: list[tuple[str, dict]], *, as_text: bool) -> list[bytes]:
    service = Service(Engine())
    if not as_text:
        # The reference: every answer encoded from the engine's DynamoDB JSON.
        def handle(target: str, body: bytes) -> tuple[int, bytes]:
            name, method = service.operation(target)
            try:
                return 200, encode_response(method(json.loads(body)))
            except EngineError as error:
                return error_body(error)

        return [handle(TARGET + t, json.dumps(r).encode())[1] for t, r in requests]
    return [service.handle(TARGET + t, json.dumps(r).encode())[1] for t, r in requests]


@settings(max_examples=25, deadline=None)
@given(st.lists(items, min_size=1, max_size=6))
def test_reads_answer_the_bytes_of_their_dynamodb_json(extra: list[dict]) -> None:
    table = {
        "TableName": "T",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "N"},
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "BillingMode": "PAY_PER_REQUEST",
    }
    requests: list[tuple[str, dict]] = [("CreateTable", table)]
    for n, attributes in enumerate(extra):
        attributes = {k: v for k, v in attributes.items() if k not in ("PK", "SK")}
        wire = item_to_wire({**attributes, "PK": "p", "SK": Decimal(n)})
        wire = json.loads(encode_response(wire))
        requests.append(("PutItem", {"TableName": "T", "Item": wire}))
    key = {"PK": {"S": "p"}, "SK": {"N": "0"}}
    requests += [
        ("GetItem", {"TableName": "T", "Key": key}),
        ("GetItem", {"TableName": "T", "Key": key, "ReturnConsumedCapacity": "TOTAL"}),
        ("GetItem", {"TableName": "T", "Key": {"PK": {"S": "none"}, "SK": {"N": "0"}}}),
        ("GetItem", {"TableName": "T", "Key": key, "ProjectionExpression": "PK"}),
        (
            "Query",
            {
                "TableName": "T",
                "KeyConditionExpression": "PK = :p",
                "ExpressionAttributeValues": {":p": {"S": "p"}},
                "Limit": 2,
                "ReturnConsumedCapacity": "INDEXES",
            },
        ),
        (
            "Query",
            {
                "TableName": "T",
                "KeyConditionExpression": "PK = :p",
                "ExpressionAttributeValues": {":p": {"S": "p"}},
                "Select": "COUNT",
            },
        ),
        (
            "Query",
            {
                "TableName": "T",
                "KeyConditionExpression": "PK = :p",
                "ExpressionAttributeValues": {":p": {"S": "nothing"}},
            },
        ),
        ("Scan", {"TableName": "T"}),
        ("Scan", {"TableName": "T", "Limit": 1, "ProjectionExpression": "SK"}),
        ("Scan", {"TableName": "T", "Limit": 0}),
        ("Scan", {"TableName": "Missing"}),
    ]
    expected = _answers(requests, as_text=False)
    got = _answers(requests, as_text=True)
    # CreateTable's answer holds the creation time: the reads are compared.
    assert got[1:] == expected[1:]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16-le", "utf-16"])
@pytest.mark.parametrize(
    "text",
    ['{"TableName": "T", "n": "é😀\\ud800"}', "{}", " {} ", "{", "[1]", "{\x00}"],
)
def test_request_bodies_decode_as_json_loads_decodes_them(
    text: str, encoding: str
) -> None:
    body = text.encode(encoding, "surrogatepass")
    try:
        expected: object = json.loads(body)
    except ValueError:
        expected = ProtocolError
    if not isinstance(expected, dict) and expected is not ProtocolError:
        expected = ProtocolError
    try:
        got: object = decode_request(body)
    except ProtocolError:
        got = ProtocolError
    assert got == expected


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(),
        st.binary(max_size=6),
        st.decimals(allow_nan=False, allow_infinity=False, places=3),
        st.datetimes(timezones=st.just(UTC)),
        st.frozensets(st.integers(), max_size=3),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=5), inner, max_size=3),
    ),
    max_leaves=10,
)


@example(Decimal("10000000000000000000000000000.000"))
@given(json_values)
def test_answers_encode_as_the_standard_encoder_writes_them(value: object) -> None:
    assert protocol._encode(value) == protocol._reference_encode(value)
