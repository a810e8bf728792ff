"""Scan: every item once, in pages, filtered after reading, in parallel
segments that split the table between them."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.engine.engine import Engine
from tests.engine.helpers import N, S, index, item, raises, table_request


@pytest.fixture
def filled(engine: Engine) -> Engine:
    engine.create_table(table_request(gsis=[index("ByStatus", "status")]))
    for n in range(40):
        attributes: dict[str, Any] = {"n": n}
        if n % 4 == 0:
            attributes["status"] = "OPEN"
        engine.put_item(
            {"TableName": "Shop", "Item": item(f"c{n % 13}", f"o{n:02d}", **attributes)}
        )
    return engine


def _keys(response: dict) -> list[tuple[str, str]]:
    return [(i["PK"]["S"], i["SK"]["S"]) for i in response["Items"]]


def _all_pages(engine: Engine, **request: Any) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    while True:
        response = engine.scan({"TableName": "Shop", **request})
        seen += _keys(response)
        if "LastEvaluatedKey" not in response:
            return seen
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def test_scan_reads_every_item_once(filled: Engine) -> None:
    response = filled.scan({"TableName": "Shop"})
    assert response["Count"] == response["ScannedCount"] == 40
    assert len(set(_keys(response))) == 40
    # Within a partition, items come in sort order.
    by_partition: dict[str, list[str]] = {}
    for pk, sk in _keys(response):
        by_partition.setdefault(pk, []).append(sk)
    assert all(sks == sorted(sks) for sks in by_partition.values())


def test_scan_pages_with_limit_cover_the_table(filled: Engine) -> None:
    assert sorted(_all_pages(filled, Limit=7)) == sorted(
        _keys(filled.scan({"TableName": "Shop"}))
    )


def test_scan_limit_caps_items_evaluated(filled: Engine) -> None:
    response = filled.scan(
        {
            "TableName": "Shop",
            "Limit": 10,
            "FilterExpression": "n < :five",
            "ExpressionAttributeValues": {":five": N(5)},
        }
    )
    assert response["ScannedCount"] == 10
    assert response["Count"] <= 10
    assert "LastEvaluatedKey" in response


def test_scan_filter_may_use_key_attributes(filled: Engine) -> None:
    response = filled.scan(
        {
            "TableName": "Shop",
            "FilterExpression": "PK = :c",
            "ExpressionAttributeValues": {":c": S("c0")},
        }
    )
    assert sorted(sk for _, sk in _keys(response)) == ["o00", "o13", "o26", "o39"]
    assert response["ScannedCount"] == 40


@pytest.mark.parametrize("total", [1, 2, 3, 7])
def test_parallel_segments_split_the_table(filled: Engine, total: int) -> None:
    segments = [
        _all_pages(filled, Segment=s, TotalSegments=total, Limit=4)
        for s in range(total)
    ]
    everything = [key for segment in segments for key in segment]
    assert len(everything) == len(set(everything)) == 40
    # A partition lies in exactly one segment.
    owners = {pk: s for s, keys in enumerate(segments) for pk, _ in keys}
    assert all(owners[pk] == s for s, keys in enumerate(segments) for pk, _ in keys)


def test_segment_checks(filled: Engine) -> None:
    with raises(
        "ValidationException",
        "The Segment parameter is zero-based and must be less than parameter "
        "TotalSegments: Segment: 3 is not less than TotalSegments: 3",
    ):
        filled.scan({"TableName": "Shop", "Segment": 3, "TotalSegments": 3})
    with raises("ValidationException") as error:
        filled.scan({"TableName": "Shop", "Segment": 0})
    assert "TotalSegments parameter is required" in error.value.message


def test_scan_an_index_reads_its_entries_only(filled: Engine) -> None:
    response = filled.scan({"TableName": "Shop", "IndexName": "ByStatus"})
    assert response["Count"] == 10
    assert all(i["status"] == S("OPEN") for i in response["Items"])
    pages = _all_pages(filled, IndexName="ByStatus", Limit=3)
    assert sorted(pages) == sorted(_keys(response))


def test_scan_pages_stop_at_1_mb(shop: Engine) -> None:
    for n in range(25):
        shop.put_item(
            {"TableName": "Shop", "Item": item(f"p{n}", "s", data="x" * 100_000)}
        )
    response = shop.scan({"TableName": "Shop", "Select": "COUNT"})
    assert response["ScannedCount"] == 11
    assert "LastEvaluatedKey" in response
    assert len(_all_pages(shop)) == 25


def test_scan_start_key_must_be_a_table_key(filled: Engine) -> None:
    with raises("ValidationException") as error:
        filled.scan({"TableName": "Shop", "ExclusiveStartKey": {"PK": S("c1")}})
    assert "The provided starting key is invalid" in error.value.message


def test_scan_pages_of_a_partition_key_only_table_read_each_item_once(
    engine: Engine,
) -> None:
    """Without a sort key, resuming after a start key goes on with the next
    partition instead of reading the start key's item again (which made a
    paginator loop forever)."""
    engine.create_table(table_request(sort=None))
    for n in range(5):
        engine.put_item({"TableName": "Shop", "Item": item(f"c{n}")})
    seen = []
    request: dict[str, Any] = {"TableName": "Shop", "Limit": 2}
    for _ in range(5):
        response = engine.scan(request)
        seen += [i["PK"]["S"] for i in response["Items"]]
        if "LastEvaluatedKey" not in response:
            break
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    assert sorted(seen) == [f"c{n}" for n in range(5)]
