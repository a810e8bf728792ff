"""An update knows which attributes it changes: the item's new size is
counted from those alone, and an index that projects none of them keeps its
entry. Both shortcuts must give exactly what the full computation gives:
the same responses, the same consumed capacity, the same index contents and
sizes."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.engine import writes
from modeler.engine.engine import Engine
from modeler.engine.errors import EngineError
from tests.engine.helpers import index, item, table_request

UPDATES: list[tuple[str, dict[str, Any]]] = [
    ("SET total = total + :one", {":one": {"N": "1"}}),
    ("SET note = :text", {":text": {"S": "é" * 3}}),
    ("SET GSI1SK = :day", {":day": {"S": "2024-09-09"}}),
    ("REMOVE GSI1PK", {}),
    ("SET GSI1PK = :status", {":status": {"S": "OPEN"}}),
    ("SET tags = :tags", {":tags": {"SS": ["a", "bb"]}}),
    ("ADD tags :more", {":more": {"SS": ["ccc"]}}),
    ("SET doc = :doc", {":doc": {"M": {"a": {"L": [{"N": "1"}, {"NULL": True}]}}}}),
    ("SET doc.a[0] = :n", {":n": {"N": "123456.789"}}),
    ("SET email = :email", {":email": {"S": "ann@example.com"}}),
    ("REMOVE email, note", {}),
    ("SET total = total - total", {}),
    ("SET LSK = :lsk", {":lsk": {"S": "Z"}}),
    ("SET GSI1SK = :bad", {":bad": {"N": "1"}}),  # refused: GSI1SK is S
    ("SET big = :big", {":big": {"S": "x" * 409_000}}),  # refused: past 400 KB
]


def _engine() -> Engine:
    engine = Engine()
    engine.create_table(
        table_request(
            gsis=[
                index("GSI1", "GSI1PK", "GSI1SK"),
                index("ByEmail", "email", projection="KEYS_ONLY"),
                index("Notes", "GSI1PK", projection="INCLUDE", include=["note"]),
            ],
            lsis=[index("Local", "PK", "LSK", projection="KEYS_ONLY")],
        )
    )
    for n in range(6):
        engine.put_item(
            {
                "TableName": "Shop",
                "Item": item(
                    "C#1",
                    f"O#{n}",
                    GSI1PK="OPEN" if n % 2 else "CLOSED",
                    GSI1SK=f"2024-0{n + 1}-01",
                    LSK=f"L{n}",
                    total=n * 10,
                    note="leave at the door",
                    email=f"c{n}@example.com",
                ),
            }
        )
    return engine


def _run(engine: Engine, capacity: str = "INDEXES") -> list[Any]:
    answers: list[Any] = []
    for n, (expression, values) in enumerate(UPDATES * 2):
        request: dict[str, Any] = {
            "TableName": "Shop",
            "Key": item("C#1", f"O#{n % 6}"),
            "UpdateExpression": expression,
            "ReturnConsumedCapacity": capacity,
            "ReturnValues": "ALL_NEW",
            "ReturnItemCollectionMetrics": "SIZE",
        }
        if values:
            request["ExpressionAttributeValues"] = values
        try:
            answers.append(engine.update_item(request))
        except EngineError as exc:
            answers.append((exc.code, exc.message))
    _other_writes(engine, capacity, answers)
    table = engine.tables["Shop"]
    answers.append(table.describe())
    for name in (None, "GSI1", "ByEmail", "Notes", "Local"):
        request = {"TableName": "Shop", "ReturnConsumedCapacity": "INDEXES"}
        if name:
            request["IndexName"] = name
        answers.append(engine.scan(request))
    answers.append(
        [
            (store.bytes, [(dict(e), s) for e, s in _entries(store)])
            for store in [table.store, *(i.store for i in table.indexes.values())]
        ]
    )
    answers.append(dict(table.collections or {}))
    return answers


def _other_writes(engine: Engine, capacity: str, answers: list[Any]) -> None:
    """A put, a delete and a batch of both, asking for `capacity`."""
    common = {"TableName": "Shop", "ReturnConsumedCapacity": capacity}
    fresh = item("C#2", "O#1", GSI1PK="OPEN", GSI1SK="2024-01-01", note="new")
    answers.append(engine.put_item({**common, "Item": fresh}))
    answers.append(engine.delete_item({**common, "Key": item("C#1", "O#0")}))
    answers.append(engine.delete_item({**common, "Key": item("C#9", "O#9")}))
    answers.append(
        engine.batch_write_item(
            {
                "RequestItems": {
                    "Shop": [
                        {"PutRequest": {"Item": item("C#3", "O#1", email="d@e.f")}},
                        {"DeleteRequest": {"Key": item("C#1", "O#1")}},
                    ]
                },
                "ReturnConsumedCapacity": capacity,
            }
        )
    )


def _entries(store: Any) -> list[tuple[Any, int]]:
    out = []
    for partition in store.partitions.values():
        out += list(zip(store.entries(partition), store.sizes(partition), strict=True))
    return out


def test_updates_give_what_the_full_computation_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    quick = _run(_engine())
    resolve = writes.resolve

    def without_shortcuts(write: writes.Write, factor: float = 1.0) -> Any:
        resolved = resolve(write, factor)
        if resolved.new is not None:
            resolved.new_size = write.table.check_item(resolved.new, update=True)
        resolved.touched = None
        return resolved

    monkeypatch.setattr(writes, "resolve", without_shortcuts)
    full = _run(_engine())
    assert _without_request_ids(quick) == _without_request_ids(full)


def _without_request_ids(answers: list[Any]) -> list[Any]:
    return [
        {k: v for k, v in a.items() if k not in ("CreationDateTime", "TableId")}
        if isinstance(a, dict)
        else a
        for a in answers
    ]


def test_writes_that_return_no_capacity_change_what_the_others_change() -> None:
    """Without ReturnConsumedCapacity the units are not counted; the
    responses (but for ConsumedCapacity), the items, the indexes and their
    sizes are the same."""
    counted = _run(_engine())
    uncounted = _run(_engine(), "NONE")
    assert all(
        "ConsumedCapacity" not in a for a in uncounted[:-8] if isinstance(a, dict)
    )
    assert _without_request_ids(uncounted) == _without_request_ids(
        [_without_capacity(a) for a in counted[:-8]] + counted[-8:]
    )


def _without_capacity(answer: Any) -> Any:
    if not isinstance(answer, dict):
        return answer
    return {k: v for k, v in answer.items() if k != "ConsumedCapacity"}
