"""DynamoDB's JSON 1.0 protocol: request bodies in, response bodies and
headers out, as the AWS SDKs read them.

A request is a JSON object whose binary values (`B`, and the members of
`BS`) are base64 text; the engine takes them as bytes. A response is JSON
with binary values as base64 text and dates as seconds since the epoch; an
error is `{"__type": "com.amazonaws.dynamodb.v20120810#<Code>", "message":
...}` with status 400 (500 for InternalServerError), plus the extras
DynamoDB sends beside some errors (the Item of a failed condition with
ReturnValuesOnConditionCheckFailure, a transaction's CancellationReasons).
Every response carries `x-amzn-RequestId` and `x-amz-crc32` (the CRC32 of
the body, which the SDKs check before they parse it).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import json.scanner
import os
import zlib
from datetime import datetime
from decimal import Decimal
from json.encoder import encode_basestring
from typing import Any

from modeler.engine.errors import EngineError
from modeler.engine.types import Item, number_text
from modeler.engine.wire import attributes_to_wire

CONTENT_TYPE = "application/x-amz-json-1.0"
ERROR_PREFIX = "com.amazonaws.dynamodb.v20120810#"
# The service framework's own errors carry its namespace, as DynamoDB sends them.
CORAL_PREFIX = "com.amazon.coral.service#"
CORAL_ERRORS = frozenset(
    {
        "UnknownOperationException",
        "SerializationException",
        "IncompleteSignatureException",
        "MissingAuthenticationTokenException",
    }
)


class ProtocolError(EngineError):
    """An error of the protocol itself (an unknown operation, a body that is
    not JSON), before any operation runs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


_decoder = json.JSONDecoder()
# The decoder's C scanner, called directly: `decode` wraps it in two Python
# calls and a regular expression for the whitespace after the value.
_make_scanner = getattr(json.scanner, "c_make_scanner", None)
_scan = _make_scanner(_decoder) if _make_scanner is not None else None
_WHITESPACE = " \t\n\r"


def decode_request(body: bytes) -> dict[str, Any]:
    """The request of a body: a JSON object, binary values as bytes."""
    if not body or body.isspace():
        return {}
    try:
        if body[:1] == b"{" and body[1:2] != b"\x00":
            # What json.loads does with UTF-8 (every SDK's body), without
            # its guess at the encoding from the first bytes.
            text = body.decode("utf-8", "surrogatepass")
            if _scan is None:
                request = _decoder.decode(text)
            else:
                try:
                    request, end = _scan(text, 0)
                except StopIteration:
                    raise ValueError("not JSON") from None
                if end != len(text) and text[end:].strip(_WHITESPACE):
                    raise ValueError("extra data after the JSON value")
        else:
            request = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise ProtocolError(
            "SerializationException",
            "Start of structure or map found where not expected.",
        ) from None
    if not isinstance(request, dict):
        raise ProtocolError(
            "SerializationException",
            "Start of structure or map found where not expected.",
        )
    # Most requests hold no binary value: skip the walk.
    if b'"B"' in body or b'"BS"' in body:
        request = _binaries_as_bytes(request)
    return request


def _binaries_as_bytes(value: Any) -> Any:
    if type(value) is dict:
        if len(value) == 1:
            ((kind, data),) = value.items()
            if kind == "B" and type(data) is str:
                return {"B": _base64(data)}
            if kind == "BS" and type(data) is list:
                return {"BS": [_base64(m) if type(m) is str else m for m in data]}
        return {k: _binaries_as_bytes(v) for k, v in value.items()}
    if type(value) is list:
        return [_binaries_as_bytes(v) for v in value]
    return value


def _base64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError(
            "SerializationException",
            f"Base64 encoded binary value '{text}' is not valid",
        ) from None


def _json_default(value: Any) -> Any:
    if type(value) is bytes or isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, Decimal):
        # Not `value % 1`: past the context's 28 digits it raises
        # DivisionImpossible (10**28 with three decimals, as a test drew).
        whole = value.is_finite() and value == value.to_integral_value()
        return int(value) if whole else float(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot send {type(value).__name__} as JSON")


_reference_encode = json.JSONEncoder(
    default=_json_default, separators=(",", ":"), ensure_ascii=False
).encode
# The C encoder that `_reference_encode` builds anew on every call (a tenth
# of a small answer's cost), built once: the same text, without the check
# for circular structures, which an answer never has.
_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_chunks = (
    _make_encoder(
        None, _json_default, encode_basestring, None, ":", ",", False, False, True
    )
    if _make_encoder is not None
    else None
)


def _encode(value: Any) -> str:
    if _chunks is None:
        return _reference_encode(value)
    return "".join(_chunks(value, 0))


# The C function `_encode` writes every string with (ensure_ascii=False).
_string = encode_basestring


def encode_response(response: dict[str, Any]) -> bytes:
    return _encode(response).encode("utf-8")


def item_json(item: Item) -> str:
    """The JSON text of a native item in DynamoDB JSON: the same text as
    `_encode(item_to_wire(item))`, written straight from the item. Building
    the wire dicts and then walking them again to encode them costs twice
    as much, and Query and Scan answers are made of little else."""
    fields = []
    for name, value in item.items():
        kind = type(value)
        if kind is str:
            fields.append(f'{_string(name)}:{{"S":{_string(value)}}}')
        elif kind is Decimal:
            # As `wire.item_to_wire`: str() is the canonical text but for an
            # exponent, trailing zeros after the point or a negative zero.
            text = str(value)
            if "E" in text or ("." in text and text[-1] == "0") or text[:2] == "-0":
                text = number_text(value)
            fields.append(f'{_string(name)}:{{"N":"{text}"}}')
        else:
            fields.append(_encode(attributes_to_wire({name: value}))[1:-1])
    return "{" + ",".join(fields) + "}"


def encode_items_response(response: dict[str, Any]) -> bytes:
    """The body of a GetItem, Query or Scan answer whose Item, or Items,
    are `item_json` text, spliced in as they are."""
    fields = []
    for name, value in response.items():
        if name == "Item":
            text = value
        elif name == "Items":
            text = "[" + ",".join(value) + "]"
        else:
            text = _encode(value)
        fields.append(f"{_string(name)}:{text}")
    return ("{" + ",".join(fields) + "}").encode("utf-8")


def error_body(error: EngineError) -> tuple[int, bytes]:
    """The status and body of an error, with the extras DynamoDB sends."""
    prefix = CORAL_PREFIX if error.code in CORAL_ERRORS else ERROR_PREFIX
    body: dict[str, Any] = {"__type": prefix + error.code, "message": error.message}
    extras = error.response
    for extra in ("Item", "CancellationReasons"):
        if extra in extras:
            body[extra] = extras[extra]
    status = 500 if error.code in ("InternalServerError", "InternalFailure") else 400
    return status, encode_response(body)


# A request id is this process's random prefix and a count: unique like
# DynamoDB's (52 characters of A-Z and 0-9, as long as theirs), without a
# getrandom system call on every answer.
_ID_PREFIX = os.urandom(16).hex().upper().encode("ascii")
_ids = itertools.count()
_HEAD = (
    b"Content-Type: " + CONTENT_TYPE.encode("ascii") + b"\r\nContent-Length: %d\r\n"
    b"x-amzn-RequestId: " + _ID_PREFIX + b"%020d\r\nx-amz-crc32: %d\r\n"
)


def response_head(body: bytes) -> bytes:
    """The headers of an answer, each line ending CRLF, with a new request
    id (built in one step: it runs on every answer). zlib's CRC32 is
    already unsigned."""
    return _HEAD % (len(body), next(_ids), zlib.crc32(body))


def signature_scope(authorization: str | None) -> dict[str, str]:
    """The access key, date, region and service of a SigV4 Authorization
    header (`AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/dynamodb/
    aws4_request, SignedHeaders=..., Signature=...`); empty when there is
    none or it is not SigV4. The signature is not checked: any credentials
    are accepted, as DynamoDB Local accepts them."""
    if not authorization or not authorization.startswith("AWS4-HMAC-SHA256 "):
        return {}
    for part in authorization[len("AWS4-HMAC-SHA256 ") :].split(","):
        name, _, value = part.strip().partition("=")
        if name == "Credential":
            fields = value.split("/")
            if len(fields) == 5:
                return dict(
                    zip(
                        ("access_key", "date", "region", "service"),
                        fields[:4],
                        strict=True,
                    )
                )
    return {}
