"""DynamoDB Streams: one shard per enabled stream, a record for every write
that changes an item (INSERT, MODIFY, REMOVE) with the images its view type
keeps, sequence numbers that grow across the engine, iterators of every
type, and 24 hours' retention on the engine's wall clock.

A table's stream is enabled by CreateTable or UpdateTable
(StreamSpecification); disabling it closes its shard (it gets an ending
sequence number) and keeps it readable until its records age out, and a
later enable starts a new stream with a new label, as DynamoDB does.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from modeler.engine.constraints import bounded
from modeler.engine.errors import (
    EngineError,
    ResourceNotFoundException,
    ValidationException,
)
from modeler.engine.requests import check_parameters
from modeler.engine.size import item_size
from modeler.engine.wire import item_to_wire

if TYPE_CHECKING:
    from modeler.engine.types import Item

VIEW_TYPES = ("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")
ITERATOR_TYPES = (
    "TRIM_HORIZON",
    "LATEST",
    "AT_SEQUENCE_NUMBER",
    "AFTER_SEQUENCE_NUMBER",
)
RETENTION_SECONDS = 24 * 3600


class StreamHost(Protocol):
    """What the stream operations need of the engine that holds the
    streams (engine.Engine is one): taken as an argument, so that this
    module never imports the engine, which imports it."""

    streams: list[Stream]
    wall_clock: Callable[[], float]

    @property
    def next_sequence(self) -> int: ...


ITERATOR_LIFETIME = 15 * 60
MAX_RECORDS = 1000
SERVICE_IDENTITY = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}


class ExpiredIteratorException(EngineError):
    code = "ExpiredIteratorException"


class TrimmedDataAccessException(EngineError):
    code = "TrimmedDataAccessException"


class Stream:
    """One stream of one table and its single shard's records."""

    def __init__(
        self,
        *,
        table_name: str,
        table_arn: str,
        key_schema: list[dict[str, str]],
        key_attributes: tuple[str, ...],
        view_type: str,
        region: str,
        wall_clock: Callable[[], float],
        sequence: Callable[[], int],
    ) -> None:
        created = datetime.fromtimestamp(wall_clock(), UTC)
        self.table_name = table_name
        self.key_schema = key_schema
        self.key_attributes = key_attributes
        self.view_type = view_type
        self.region = region
        self.created = created
        self.label = (
            created.strftime("%Y-%m-%dT%H:%M:%S.")
            + f"{created.microsecond // 1000:03d}"
        )
        self.arn = f"{table_arn}/stream/{self.label}"
        self.shard_id = (
            f"shardId-{int(created.timestamp() * 1000):020d}-{uuid.uuid4().hex[:8]}"
        )
        self.wall_clock = wall_clock
        self._sequence = sequence
        self.starting_sequence = sequence()
        self.ending_sequence: int | None = None
        # (sequence number, wall time, record)
        self.records: list[tuple[int, float, dict[str, Any]]] = []

    @property
    def enabled(self) -> bool:
        return self.ending_sequence is None

    def state(self) -> dict[str, Any]:
        """What a restart needs to give the stream back as it was: its
        identity, its sequence range and its records (in DynamoDB JSON but
        for the record times, seconds since the epoch)."""
        return {
            "table_name": self.table_name,
            "arn": self.arn,
            "label": self.label,
            "created": self.created.timestamp(),
            "shard_id": self.shard_id,
            "key_schema": self.key_schema,
            "key_attributes": list(self.key_attributes),
            "view_type": self.view_type,
            "starting_sequence": self.starting_sequence,
            "ending_sequence": self.ending_sequence,
            "records": [
                {
                    "number": number,
                    "written": written,
                    "record": {
                        **record,
                        "dynamodb": {
                            **record["dynamodb"],
                            "ApproximateCreationDateTime": record["dynamodb"][
                                "ApproximateCreationDateTime"
                            ].timestamp(),
                        },
                    },
                }
                for number, written, record in self.records
            ],
        }

    @classmethod
    def restored(
        cls,
        state: dict[str, Any],
        *,
        region: str,
        wall_clock: Callable[[], float],
        sequence: Callable[[], int],
    ) -> Stream:
        """The stream `state()` described."""
        stream = cls.__new__(cls)
        stream.table_name = state["table_name"]
        stream.key_schema = state["key_schema"]
        stream.key_attributes = tuple(state["key_attributes"])
        stream.view_type = state["view_type"]
        stream.region = region
        stream.created = datetime.fromtimestamp(state["created"], UTC)
        stream.label = state["label"]
        stream.arn = state["arn"]
        stream.shard_id = state["shard_id"]
        stream.wall_clock = wall_clock
        stream._sequence = sequence
        stream.starting_sequence = state["starting_sequence"]
        stream.ending_sequence = state["ending_sequence"]
        stream.records = []
        for entry in state["records"]:
            record = entry["record"]
            data = record["dynamodb"]
            data["ApproximateCreationDateTime"] = datetime.fromtimestamp(
                data["ApproximateCreationDateTime"], UTC
            )
            stream.records.append((entry["number"], entry["written"], record))
        return stream

    def append(
        self,
        old: Item | None,
        new: Item | None,
        *,
        service: bool = False,
    ) -> None:
        """The record of a write from `old` to `new` (None: absent); none
        when it changed nothing."""
        if old == new:
            return
        now = self.wall_clock()
        self.trim(now)
        number = self._sequence()
        item = new if new is not None else old
        if item is None:  # never: both absent is old == new
            return
        view = self.view_type
        data: dict[str, Any] = {
            "ApproximateCreationDateTime": datetime.fromtimestamp(int(now), UTC),
            "Keys": item_to_wire({a: item[a] for a in self.key_attributes}),
        }
        if new is not None and view in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES"):
            data["NewImage"] = item_to_wire(new)
        if old is not None and view in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES"):
            data["OldImage"] = item_to_wire(old)
        data["SequenceNumber"] = f"{number:021d}"
        data["SizeBytes"] = item_size({a: item[a] for a in self.key_attributes}) + sum(
            item_size(i) for i in (old, new) if i is not None and view != "KEYS_ONLY"
        )
        data["StreamViewType"] = view
        record: dict[str, Any] = {
            "eventID": uuid.uuid4().hex,
            "eventName": "INSERT"
            if old is None
            else "REMOVE"
            if new is None
            else "MODIFY",
            "eventVersion": "1.1",
            "eventSource": "aws:dynamodb",
            "awsRegion": self.region,
            "dynamodb": data,
        }
        if service:
            record["userIdentity"] = dict(SERVICE_IDENTITY)
        self.records.append((number, now, record))

    def mark(self) -> int:
        return len(self.records)

    def truncate(self, mark: int) -> None:
        """Forget the records after `mark` (a transaction that was undone)."""
        del self.records[mark:]

    def trim(self, now: float) -> None:
        cutoff = now - RETENTION_SECONDS
        drop = 0
        for _, written, _ in self.records:
            if written >= cutoff:
                break
            drop += 1
        if drop:
            del self.records[:drop]

    def close(self) -> None:
        self.ending_sequence = self._sequence()

    def describe(self) -> dict[str, Any]:
        shard: dict[str, Any] = {
            "ShardId": self.shard_id,
            "SequenceNumberRange": {
                "StartingSequenceNumber": f"{self.starting_sequence:021d}"
            },
        }
        if self.ending_sequence is not None:
            shard["SequenceNumberRange"]["EndingSequenceNumber"] = (
                f"{self.ending_sequence:021d}"
            )
        return {
            "StreamArn": self.arn,
            "StreamLabel": self.label,
            "StreamStatus": "ENABLED" if self.enabled else "DISABLED",
            "StreamViewType": self.view_type,
            "CreationRequestDateTime": self.created,
            "TableName": self.table_name,
            "KeySchema": self.key_schema,
            "Shards": [shard],
        }


# --- The DynamoDB Streams API ----------------------------------------------------


def _stream(engine: StreamHost, arn: Any) -> Stream:
    if not isinstance(arn, str) or not 37 <= len(arn) <= 1024:
        raise ValidationException(
            f"1 validation error detected: Value '{arn}' at 'streamArn' failed to "
            "satisfy constraint: Member must have length greater than or equal to 37"
        )
    for stream in engine.streams:
        if stream.arn == arn:
            stream.trim(engine.wall_clock())
            return stream
    raise ResourceNotFoundException(
        f"Requested resource not found: Stream: {arn} not found"
    )


def list_streams(engine: StreamHost, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(request, ("TableName", "Limit", "ExclusiveStartStreamArn"))
    name = request.get("TableName")
    limit = bounded(request.get("Limit", 100), "limit", 1, 100)
    now = engine.wall_clock()
    streams = [
        s
        for s in engine.streams
        if (name is None or s.table_name == name)
        and (s.enabled or s.records and s.records[-1][1] >= now - RETENTION_SECONDS)
    ]
    start = request.get("ExclusiveStartStreamArn")
    if start is not None:
        arns = [s.arn for s in streams]
        streams = streams[arns.index(start) + 1 :] if start in arns else []
    response: dict[str, Any] = {
        "Streams": [
            {"StreamArn": s.arn, "TableName": s.table_name, "StreamLabel": s.label}
            for s in streams[:limit]
        ]
    }
    if len(streams) > limit:
        response["LastEvaluatedStreamArn"] = streams[limit - 1].arn
    return response


def describe_stream(engine: StreamHost, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request, ("StreamArn", "Limit", "ExclusiveStartShardId"), ("StreamArn",)
    )
    stream = _stream(engine, request["StreamArn"])
    description = stream.describe()
    if request.get("ExclusiveStartShardId") == stream.shard_id:
        description["Shards"] = []
    return {"StreamDescription": description}


def get_shard_iterator(engine: StreamHost, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(
        request,
        ("StreamArn", "ShardId", "ShardIteratorType", "SequenceNumber"),
        ("StreamArn", "ShardId", "ShardIteratorType"),
    )
    stream = _stream(engine, request["StreamArn"])
    kind = request["ShardIteratorType"]
    if kind not in ITERATOR_TYPES:
        raise ValidationException(
            f"1 validation error detected: Value '{kind}' at 'shardIteratorType' "
            "failed to satisfy constraint: Member must satisfy enum value set: "
            f"[{', '.join(ITERATOR_TYPES)}]"
        )
    if request["ShardId"] != stream.shard_id:
        raise ResourceNotFoundException(
            f"Requested resource not found: Shard does not exist: {request['ShardId']}"
        )
    sequence = request.get("SequenceNumber")
    if kind in ("AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"):
        if not isinstance(sequence, str) or not sequence.isdigit():
            raise ValidationException(
                "Must specify SequenceNumber when using AT_SEQUENCE_NUMBER or "
                "AFTER_SEQUENCE_NUMBER ShardIteratorType"
                if sequence is None
                else f"Invalid SequenceNumber: {sequence}"
            )
        number = int(sequence)
        oldest = stream.records[0][0] if stream.records else stream.starting_sequence
        if number < oldest and number < stream.starting_sequence:
            raise TrimmedDataAccessException(
                "The operation attempted to read past the oldest stream record in a "
                "shard."
            )
        if number < oldest:
            raise TrimmedDataAccessException(
                "The operation attempted to read past the oldest stream record in a "
                "shard."
            )
        position = number if kind == "AT_SEQUENCE_NUMBER" else number + 1
    elif sequence is not None:
        raise ValidationException(
            "Must not specify SequenceNumber when using TRIM_HORIZON or LATEST "
            "ShardIteratorType"
        )
    elif kind == "TRIM_HORIZON":
        position = stream.records[0][0] if stream.records else stream.starting_sequence
    else:
        position = (
            stream.ending_sequence
            if stream.ending_sequence is not None
            else engine.next_sequence
        )
    return {"ShardIterator": _iterator(engine, stream, position)}


def _iterator(engine: StreamHost, stream: Stream, position: int) -> str:
    return f"{stream.arn}|{stream.shard_id}|{position}|{engine.wall_clock():.3f}"


def get_records(engine: StreamHost, request: dict[str, Any]) -> dict[str, Any]:
    check_parameters(request, ("ShardIterator", "Limit"), ("ShardIterator",))
    text = request["ShardIterator"]
    limit = bounded(request.get("Limit", MAX_RECORDS), "limit", 1, MAX_RECORDS)
    try:
        arn, shard, position_text, issued_text = str(text).rsplit("|", 3)
        position, issued = int(position_text), float(issued_text)
    except ValueError:
        raise ValidationException("Invalid ShardIterator") from None
    stream = _stream(engine, arn)
    if shard != stream.shard_id:
        raise ValidationException("Invalid ShardIterator")
    now = engine.wall_clock()
    if now - issued > ITERATOR_LIFETIME:
        raise ExpiredIteratorException(
            f"Iterator expired. The iterator was created at {issued}"
        )
    records = [r for number, _, r in stream.records if number >= position][:limit]
    response: dict[str, Any] = {"Records": records}
    if records:
        position = int(records[-1]["dynamodb"]["SequenceNumber"]) + 1
    closed = stream.ending_sequence is not None
    exhausted = not any(number >= position for number, _, _ in stream.records)
    if not (closed and exhausted):
        response["NextShardIterator"] = _iterator(engine, stream, position)
    return response
