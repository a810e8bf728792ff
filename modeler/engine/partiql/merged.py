"""SELECT ... WHERE pk IN [...] ORDER BY ...: one Query per partition value,
merged in the ORDER BY's order.

Each partition's Query returns its items in sort key order (S by UTF-8
bytes, N by value, B by unsigned bytes, as the engine keeps them), read
backwards for DESC; the merge takes the first of the partitions' next items
each time. Items equal on every ORDER BY attribute come by partition key
value, in the direction of the last ORDER BY term, so that DESC lists
exactly ASC's items backwards.

Limit bounds the items of a page (without it, a page ends once its items
pass 1 MB). A NextToken holds, per partition, the key
its next Query starts after (the last item returned from it, or where its
last Query stopped), so a page resumes exactly after the last item returned.
The capacity consumed is the sum of the Queries' capacity, as each Query is
charged.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from modeler.engine.errors import ValidationException
from modeler.engine.partiql import parser as p
from modeler.engine.partiql.statements import (
    Operations,
    and_joined,
    key_attributes,
    partitions_named,
    position,
    select_request,
    split_key,
    token,
)
from modeler.engine.size import item_size
from modeler.engine.store import MAX_PAGE_BYTES
from modeler.engine.types import from_wire, item_from_wire

# The partition key values an IN list may hold (the PartiQL operators page of
# the Developer Guide: "at max 50 hash attribute values").
MAX_PARTITIONS = 50


@dataclass(frozen=True)
class Plan:
    """The Queries a multi-partition ORDER BY runs as."""

    # One Query's request per partition value.
    requests: tuple[dict[str, Any], ...]
    # ORDER BY's terms, then the partition key when it is not one of them.
    terms: tuple[tuple[str, bool], ...]
    # The attributes a start key holds: the table's key and the index's.
    start_key: tuple[str, ...]
    # Attributes read only to merge and resume, not asked for by the SELECT.
    added: tuple[str, ...]


def plan(engine: Operations, statement: p.Select) -> Plan | None:
    """The Queries of a SELECT whose ORDER BY reads several partitions
    (PK IN [...], or an OR of equalities); None for any other SELECT."""
    if not statement.order or statement.where is None:
        return None
    key = key_attributes(engine, statement.table, statement.index)
    partition = key[0]
    equal, _, _ = split_key(statement.where, key)
    named = None if partition in equal else partitions_named(statement.where, partition)
    if named is None:
        return None
    # ORDER BY's own refusals (attributes outside the key) come first.
    select_request(engine, statement)
    values, rest = named
    if len(values) > MAX_PARTITIONS:
        raise ValidationException(
            f"An IN list on the partition key can hold at most {MAX_PARTITIONS} "
            f"values; this statement names {len(values)}"
        )
    table_key = key_attributes(engine, statement.table, None)
    start_key = tuple(dict.fromkeys(table_key + key))
    projection = statement.projection
    added: tuple[str, ...] = ()
    if projection is not None:
        # The merge compares key values and a token resumes after an item's
        # key: both are read even when the SELECT does not ask for them.
        added = tuple(a for a in start_key if (a,) not in projection)
        projection = projection + tuple((a,) for a in added)
    terms = statement.order
    if partition not in dict(terms):
        terms = (*terms, (partition, terms[-1][1]))
    requests = []
    for value in values:
        one = p.Select(
            statement.table,
            statement.index,
            projection,
            and_joined([p.Compare((partition,), "=", value), *rest]),
            statement.order,
        )
        _, request = select_request(engine, one, query_only=True)
        requests.append(request)
    return Plan(tuple(requests), terms, start_key, added)


def _native(value: Any) -> Any:
    """A key value as the engine orders it (str, Decimal or bytes)."""
    try:
        return from_wire(value)
    except ValidationException:
        # Not a key type: the partition's Query refuses it, in its words.
        return str(value)


def run_merged(
    engine: Operations,
    merge: Plan,
    *,
    limit: int | None,
    next_token: str | None,
    bound_to: str,
    consistent: bool,
    capacity: str,
) -> dict[str, Any]:
    """One page of the merged Queries, and the NextToken of the next."""
    count = len(merge.requests)
    # Where each partition's next Query starts: {} at its beginning, a key
    # after it, None when it has nothing more.
    starts: list[dict[str, Any] | None] = [{} for _ in range(count)]
    if next_token is not None:
        starts = position(next_token, bound_to)
        if not isinstance(starts, list) or len(starts) != count:
            raise ValidationException("Invalid NextToken")
    read_from: list[dict[str, Any] | None] = list(starts)
    last: list[dict[str, Any] | None] = [None] * count
    waiting: list[deque[dict[str, Any]]] = [deque() for _ in range(count)]
    consumed: list[dict[str, Any]] = []

    def read(i: int, wanted: int | None) -> None:
        request = dict(merge.requests[i])
        if starts[i]:
            request["ExclusiveStartKey"] = starts[i]
        if wanted is not None:
            request["Limit"] = wanted
        if consistent:
            request["ConsistentRead"] = True
        if capacity != "NONE":
            request["ReturnConsumedCapacity"] = capacity
        answer = engine.query(request)
        if "ConsumedCapacity" in answer:
            consumed.append(answer["ConsumedCapacity"])
        read_from[i], last[i] = starts[i], None
        waiting[i].extend(answer["Items"])
        starts[i] = answer.get("LastEvaluatedKey")

    page: list[dict[str, Any]] = []
    size = 0
    while limit is None or len(page) < limit:
        wanted = None if limit is None else limit - len(page)
        for i in range(count):
            # A filter can leave a Query's page empty: read on until an item
            # or the partition's end, for the merge needs each one's next.
            while not waiting[i] and starts[i] is not None:
                read(i, wanted)
        heads = [i for i in range(count) if waiting[i]]
        if not heads:
            break
        first = heads[0]
        for i in heads[1:]:
            if _before(merge, waiting[i][0], i, waiting[first][0], first):
                first = i
        item = waiting[first].popleft()
        last[first] = {a: item[a] for a in merge.start_key}
        page.append(item)
        if limit is None:
            # Without Limit, a page ends past 1 MB of items, as a Query's does.
            size += item_size(item_from_wire(item))
            if size >= MAX_PAGE_BYTES:
                break
    response: dict[str, Any] = {"Items": [_asked(merge, item) for item in page]}
    if any(waiting[i] or starts[i] is not None for i in range(count)):
        resume = [
            (last[i] or read_from[i]) if waiting[i] else starts[i] for i in range(count)
        ]
        response["NextToken"] = token(bound_to, resume)
    if consumed:
        response["ConsumedCapacity"] = _summed(consumed)
    return response


def _before(
    merge: Plan, item: dict[str, Any], i: int, other: dict[str, Any], j: int
) -> bool:
    """Whether `item` (of the i-th partition) comes before `other` (of the
    j-th, another partition)."""
    for attribute, descending in merge.terms:
        a, b = _native(item[attribute]), _native(other[attribute])
        if a != b:
            return (a > b) if descending else (a < b)
    # Equal on every term, partition key included: never for two partitions.
    return i < j


def _asked(merge: Plan, item: dict[str, Any]) -> dict[str, Any]:
    """The item as the SELECT projects it, without the key attributes read
    only to merge."""
    if not merge.added:
        return item
    return {k: v for k, v in item.items() if k not in merge.added}


def _summed(consumed: list[dict[str, Any]]) -> dict[str, Any]:
    """The Queries' ConsumedCapacity added up, unit by unit (the table's and
    each index's too, with INDEXES)."""

    def add(total: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
        summed = dict(total)
        for name, value in entry.items():
            if isinstance(value, dict):
                summed[name] = add(summed.get(name, {}), value)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                summed[name] = summed.get(name, 0) + value
            else:
                summed[name] = value
        return summed

    total: dict[str, Any] = {}
    for entry in consumed:
        total = add(total, entry)
    return total
