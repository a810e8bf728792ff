"""Random writes (PutItem, UpdateItem, DeleteItem, some conditional) sent to
the engine and to moto, each followed by the same reads.

Each write must have the same outcome on both: the same Attributes for its
ReturnValues, or the same error (ConditionalCheckFailedException, with the
same Item for ReturnValuesOnConditionCheckFailure=ALL_OLD). Afterwards the
table and every index must hold the same items: a GetItem of every key the
writes touched, a Scan of the table and of each index, and a Query of every
partition of the table in both directions.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance.harness import Pair, Wire, query_pages, scan_pages
from tests.conformance.strategies import Data, data, writes

CONFORMANCE = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def data_and_writes(draw: st.DrawFn) -> tuple[Data, list[tuple[str, dict[str, Any]]]]:
    loaded = draw(data(min_items=4, max_items=10))
    return loaded, draw(st.lists(writes(loaded), min_size=1, max_size=8))


def same_updated_values(pair: Pair, request: dict[str, Any]) -> None:
    """An UpdateItem with ReturnValues UPDATED_OLD or UPDATED_NEW. DynamoDB
    returns every attribute the expression names (as it was, or as it is
    now, when it exists then), even one set to the value it already had,
    and never the key; moto returns only the attributes whose value changed,
    including the key attributes of an item the update creates. So the
    engine's Attributes must be moto's, without the key of a created item,
    plus exactly the named attributes whose value did not change (both
    differences are pinned in test_moto_differences)."""
    key = request["Key"]
    table = request["TableName"]

    def stored() -> Wire:
        found = pair.engine.get_item(TableName=table, Key=key, ConsistentRead=True)
        return found.get("Item", {})

    before = stored()
    ours, theirs = pair.both("update_item", **request)
    if "Error" in ours or "Error" in theirs:
        assert ours == theirs, request
        return
    after = stored()
    source = before if request["ReturnValues"] == "UPDATED_OLD" else after
    named = {
        attribute
        for placeholder, attribute in request["ExpressionAttributeNames"].items()
        if placeholder.startswith("#u")
    }
    unchanged = {
        a: source[a] for a in named if a in source and before.get(a) == after.get(a)
    }
    returned = theirs.get("Attributes", {})
    if not before:
        returned = {a: v for a, v in returned.items() if a not in key}
    expected = returned | unchanged
    assert ours.get("Attributes", {}) == expected, request
    assert ("Attributes" in ours) == bool(expected), request


@CONFORMANCE
@given(case=data_and_writes())
def test_writes_then_reads_agree(
    pair: Pair, case: tuple[Data, list[tuple[str, dict[str, Any]]]]
) -> None:
    """Conditions are evaluated on the same stored item, updates compute the
    same new item, and the indexes follow: an item enters a sparse index
    when it gains the index key and leaves it when the key is removed."""
    loaded, operations = case
    design = loaded.design
    table_key = design.key.attributes
    with pair.table(design, loaded.items) as name:
        touched = []
        for operation, request in operations:
            key = request.get("Key") or {a: request["Item"][a] for a in table_key}
            touched.append(key)
            if request["ReturnValues"] in ("UPDATED_OLD", "UPDATED_NEW"):
                same_updated_values(pair, {"TableName": name, **request})
            else:
                pair.same(operation, TableName=name, **request)
        for key in touched:
            pair.same("get_item", TableName=name, Key=key, ConsistentRead=True)
        scan_pages(pair, {"TableName": name}, design.key)
        for index in design.indexes:
            scan_pages(pair, {"TableName": name, "IndexName": index.name}, index.key)
        for partition in loaded.pools["pk"]:
            for forward in (True, False):
                query_pages(
                    pair,
                    {
                        "TableName": name,
                        "KeyConditionExpression": "#k = :k",
                        "ExpressionAttributeNames": {"#k": "pk"},
                        "ExpressionAttributeValues": {":k": partition},
                        "ScanIndexForward": forward,
                    },
                )
