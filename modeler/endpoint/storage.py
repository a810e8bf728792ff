"""Tables kept across restarts in a data directory: a snapshot and a
journal.

`snapshot-<G>.json` holds every table (how to create it, its TTL, tags and
items) as of generation G, written to a temporary file, synced and renamed
over the old one, so it is either the old or the new snapshot, never half
of one. `journal-<G>.jsonl` holds, one line each, every write request that
succeeded since snapshot G, appended and synced before the client hears of
it. On start the snapshot is read and its journal replayed (a torn last
line, the write a crash interrupted, is dropped), then a new snapshot
G + 1 is written and the old files removed: a crash between the two finds
the new snapshot with no journal yet, never a journal applied twice.

The snapshot keeps the streams too (their ARNs, shards, sequence numbers
and records, within their 24 hours), so a consumer's iterator and sequence
numbers still hold after a restart; the journal's writes add their records
again as they are replayed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from modeler.endpoint.protocol import decode_request, encode_response
from modeler.engine.engine import Engine
from modeler.engine.table import Table
from modeler.engine.wire import item_from_wire, item_to_wire

_SNAPSHOT = re.compile(r"^snapshot-(\d+)\.json$")


class DataDir:
    """One data directory: `restore` once, then `record` each write;
    `checkpoint` folds the journal into a new snapshot."""

    def __init__(self, path: str | Path, *, sync: bool = True) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.sync = sync
        self.generation = 0
        self._journal: int | None = None  # the open journal's descriptor

    # --- Reading -----------------------------------------------------------

    def restore(self, engine: Engine) -> int:
        """Rebuild the tables into `engine`; how many journal lines were
        replayed (0 for a new directory)."""
        generations = sorted(
            int(m.group(1))
            for p in self.path.iterdir()
            if (m := _SNAPSHOT.match(p.name))
        )
        if generations:
            self.generation = generations[-1]
            snapshot = json.loads(self._snapshot_path(self.generation).read_bytes())
            for table in snapshot["tables"]:
                _restore_table(engine, table)
            if "streams" in snapshot:
                streams = decode_request(encode_response(snapshot["streams"]))
                engine.restore_streams(streams)
        replayed = 0
        journal = self._journal_path(self.generation)
        if journal.exists():
            for line in journal.read_bytes().split(b"\n"):
                entry = _entry(line)
                if entry is None:
                    continue  # the torn last line of a crash, or nothing
                operation, body = entry
                method = getattr(engine, _snake(operation))
                method(decode_request(body))
                replayed += 1
        return replayed

    # --- Writing -----------------------------------------------------------

    def checkpoint(self, engine: Engine) -> None:
        """Write every table as a new snapshot, start its empty journal and
        remove the older files."""
        old = self.generation
        new = old + 1
        data = encode_response(
            {
                "tables": [_table_data(t) for t in engine.tables.values()],
                "streams": engine.streams_state(),
            }
        )
        target = self._snapshot_path(new)
        temporary = target.with_suffix(".tmp")
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        self._sync_directory()
        self.generation = new
        self.close()
        for stale in (self._snapshot_path(old), self._journal_path(old)):
            stale.unlink(missing_ok=True)

    def record(self, operation: str, body: bytes) -> None:
        """Append one write that succeeded to the journal, synced."""
        if self._journal is None:
            self._journal = os.open(
                self._journal_path(self.generation),
                os.O_WRONLY | os.O_CREAT | os.O_APPEND,
                0o600,
            )
        line = encode_response({"op": operation, "body": body.decode("utf-8")}) + b"\n"
        os.write(self._journal, line)
        if self.sync:
            os.fsync(self._journal)

    def close(self) -> None:
        if self._journal is not None:
            os.close(self._journal)
            self._journal = None

    def _snapshot_path(self, generation: int) -> Path:
        return self.path / f"snapshot-{generation}.json"

    def _journal_path(self, generation: int) -> Path:
        return self.path / f"journal-{generation}.jsonl"

    def _sync_directory(self) -> None:
        descriptor = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _entry(line: bytes) -> tuple[str, bytes] | None:
    if not line.strip():
        return None
    try:
        entry = json.loads(line)
        return entry["op"], entry["body"].encode("utf-8")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _table_data(table: Table) -> dict[str, Any]:
    return {
        "create": create_request(table),
        "ttl": table.ttl_attribute,
        "items": [item_to_wire(item) for item in table],
    }


def _restore_table(engine: Engine, data: dict[str, Any]) -> None:
    request = decode_request(encode_response(data["create"]))
    engine.create_table(request)
    name = request["TableName"]
    if data.get("ttl"):
        engine.update_time_to_live(
            {
                "TableName": name,
                "TimeToLiveSpecification": {
                    "Enabled": True,
                    "AttributeName": data["ttl"],
                },
            }
        )
    items = decode_request(encode_response({"Items": data["items"]}))["Items"]
    engine.load_items(name, [item_from_wire(item) for item in items])


def create_request(table: Table) -> dict[str, Any]:
    """The CreateTable request that makes the table as it is now (without
    its items)."""
    spec = table.spec
    request: dict[str, Any] = {
        "TableName": table.name,
        "AttributeDefinitions": [
            {"AttributeName": a, "AttributeType": t}
            for a, t in spec.attribute_types.items()
        ],
        "KeySchema": spec.key.describe(),
        "BillingMode": spec.billing_mode,
    }
    if spec.throughput:
        request["ProvisionedThroughput"] = dict(spec.throughput)
    for is_global, name in (
        (True, "GlobalSecondaryIndexes"),
        (False, "LocalSecondaryIndexes"),
    ):
        indexes = [i for i in spec.indexes if i.is_global is is_global]
        if indexes:
            request[name] = [
                {
                    "IndexName": i.name,
                    "KeySchema": i.key.describe(),
                    "Projection": i.projection.describe(),
                    **(
                        {"ProvisionedThroughput": dict(i.throughput)}
                        if i.throughput and is_global
                        else {}
                    ),
                }
                for i in indexes
            ]
    if table.stream is not None:
        request["StreamSpecification"] = {
            "StreamEnabled": True,
            "StreamViewType": table.stream.view_type,
        }
    if table.tags:
        request["Tags"] = [{"Key": k, "Value": v} for k, v in table.tags.items()]
    for name, value in spec.extras:
        if name != "StreamSpecification":
            request[name] = value
    return request
