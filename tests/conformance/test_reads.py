"""Random designs, items and reads, sent to the engine and to moto.

Each hypothesis example creates a fresh table (unique name) on both, loads
the same items, runs the reads and deletes the table. Queries are paged
through ExclusiveStartKey to the end and every page is compared: Items in
order, Count, ScannedCount, LastEvaluatedKey. See harness.py for what is
deliberately not compared.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance.harness import (
    Pair,
    Wire,
    canonical,
    order_key,
    query_pages,
    query_pages_with_ties,
    scan_pages,
)
from tests.conformance.strategies import Data, data, keys, queries, scans

CONFORMANCE = settings(
    max_examples=35,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def data_and_queries(draw: st.DrawFn) -> tuple[Data, list[dict[str, Any]]]:
    loaded = draw(data())
    return loaded, draw(st.lists(queries(loaded), min_size=1, max_size=4))


def has_ties(loaded: Data, index: str, partition: Wire) -> bool:
    """Whether two items share the index key in this partition of the
    index (their relative order is then not documented)."""
    key = loaded.design.key_for(index).attributes
    entries = [
        canonical({a: item[a] for a in key})
        for item in loaded.items
        if set(key) <= set(item) and order_key(item[key[0]]) == order_key(partition)
    ]
    return len(set(entries)) < len(entries)


@CONFORMANCE
@given(case=data_and_queries())
def test_query_pages_agree(pair: Pair, case: tuple[Data, list[dict[str, Any]]]) -> None:
    """Every key condition, direction, Limit, filter and projection gives the
    same pages: sort-key order (UTF-8 bytes, numeric, unsigned bytes), the
    Limit counted before the filter, sparse indexes, start keys."""
    loaded, requests = case
    with pair.table(loaded.design, loaded.items) as name:
        for request in requests:
            index = request.get("IndexName")
            partition = request["ExpressionAttributeValues"][":k"]
            if index is not None and has_ties(loaded, index, partition):
                query_pages_with_ties(
                    pair,
                    {"TableName": name, **request},
                    loaded.design.key_for(index).attributes,
                )
            else:
                query_pages(pair, {"TableName": name, **request})


@st.composite
def data_and_scans(draw: st.DrawFn) -> tuple[Data, list[dict[str, Any]]]:
    loaded = draw(data())
    return loaded, draw(st.lists(scans(loaded.design), min_size=1, max_size=3))


@CONFORMANCE
@given(case=data_and_scans())
def test_scan_pages_agree(pair: Pair, case: tuple[Data, list[dict[str, Any]]]) -> None:
    """Scans paged with Limit read the same items, page sizes and counts, and
    each partition's items in the same order."""
    loaded, requests = case
    with pair.table(loaded.design, loaded.items) as name:
        for request in requests:
            key = loaded.design.key_for(request.get("IndexName"))
            scan_pages(pair, {"TableName": name, **request}, key)


@st.composite
def data_and_gets(draw: st.DrawFn) -> tuple[Data, list[dict[str, Any]], list[Any]]:
    loaded = draw(data())
    gets = draw(
        st.lists(
            st.fixed_dictionaries(
                {"Key": keys(loaded)},
                optional={
                    "ConsistentRead": st.booleans(),
                    "ProjectionExpression": st.just("#a, #b"),
                },
            ),
            min_size=1,
            max_size=5,
        )
    )
    batch = draw(st.lists(keys(loaded), min_size=1, max_size=8, unique_by=canonical))
    return loaded, gets, batch


@CONFORMANCE
@given(case=data_and_gets())
def test_get_item_and_batch_get_item_agree(
    pair: Pair, case: tuple[Data, list[dict[str, Any]], list[Any]]
) -> None:
    """GetItem finds (or not) the same item with the same attributes;
    BatchGetItem returns the same set of items (DynamoDB does not promise
    their order, so they are compared sorted)."""
    loaded, gets, batch = case
    with pair.table(loaded.design, loaded.items) as name:
        for get in gets:
            request = {"TableName": name, **get}
            if "ProjectionExpression" in get:
                request["ExpressionAttributeNames"] = {"#a": "pk", "#b": "n"}
            pair.same("get_item", **request)
        ours, theirs = pair.both("batch_get_item", RequestItems={name: {"Keys": batch}})
        assert ours["UnprocessedKeys"] == theirs["UnprocessedKeys"] == {}
        assert sorted(map(canonical, ours["Responses"][name])) == sorted(
            map(canonical, theirs["Responses"][name])
        )
        present = {canonical(k) for k in batch} & {
            canonical({a: i[a] for a in loaded.design.key.attributes})
            for i in loaded.items
        }
        assert len(ours["Responses"][name]) == len(present)
