"""Running one request on the engine and on moto's server and comparing the
answers.

`Pair` holds the engine's boto3-shaped `Client` and a real boto3 client
pointed at moto's server. A table is created on both from one `Design`,
loaded with the same items, read with the same requests, and deleted.

What is compared, and what deliberately is not:

- Items (and their order for Query), Count, ScannedCount, LastEvaluatedKey
  and the Attributes of writes are compared exactly, with moto's numbers
  put in DynamoDB's canonical form and moto's empty Attributes map counted
  as none (`Pair.theirs`). The engine's answers are compared as they are.
- ConsumedCapacity is dropped from every response: moto reports a constant
  1.0 whatever was read (test_moto_differences pins DynamoDB's units on the
  engine).
- When a Query or Scan page stops exactly on its Limit and nothing is left,
  DynamoDB (and the engine) still return a LastEvaluatedKey and the next page
  is empty; moto looks ahead and omits it. That one difference is accepted
  only in that exact shape (see `_accept_lookahead`).
- Scan order across partitions is not compared: DynamoDB scans partitions in
  the order of an internal hash of their key (the engine imitates that with
  its own hash) while moto scans in key order. Within a partition both return
  items in sort-key order, and that order is compared.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from modeler.engine.client import Client

Wire = dict[str, Any]  # an item or an attribute value in DynamoDB JSON
IGNORED = frozenset({"ResponseMetadata", "ConsumedCapacity"})
BATCH_WRITE_SIZE = 25


@dataclass(frozen=True)
class KeyDef:
    """The partition attribute and optional sort attribute of a table or an
    index."""

    partition: str
    sort: str | None = None

    @property
    def attributes(self) -> tuple[str, ...]:
        return (self.partition,) if self.sort is None else (self.partition, self.sort)

    def schema(self) -> list[dict[str, str]]:
        schema = [{"AttributeName": self.partition, "KeyType": "HASH"}]
        if self.sort is not None:
            schema.append({"AttributeName": self.sort, "KeyType": "RANGE"})
        return schema


@dataclass(frozen=True)
class IndexDef:
    """A global secondary index."""

    name: str
    key: KeyDef
    projection: str = "ALL"
    include: tuple[str, ...] = ()


@dataclass
class Design:
    """A table: its key, the DynamoDB type of every key attribute (table and
    indexes) and its global secondary indexes."""

    key: KeyDef
    types: dict[str, str]
    indexes: tuple[IndexDef, ...] = ()

    def key_for(self, index_name: str | None) -> KeyDef:
        if index_name is None:
            return self.key
        return next(i.key for i in self.indexes if i.name == index_name)

    def index(self, name: str) -> IndexDef:
        return next(i for i in self.indexes if i.name == name)

    @property
    def index_only_attributes(self) -> list[str]:
        """Key attributes that only indexes use: items may lack them (and
        then are not in those indexes)."""
        return [a for a in self.types if a not in self.key.attributes]

    def create_request(self, name: str) -> dict[str, Any]:
        request: dict[str, Any] = {
            "TableName": name,
            "AttributeDefinitions": [
                {"AttributeName": a, "AttributeType": t} for a, t in self.types.items()
            ],
            "KeySchema": self.key.schema(),
            "BillingMode": "PAY_PER_REQUEST",
        }
        if self.indexes:
            request["GlobalSecondaryIndexes"] = [
                {
                    "IndexName": index.name,
                    "KeySchema": index.key.schema(),
                    "Projection": {"ProjectionType": index.projection}
                    | (
                        {"NonKeyAttributes": list(index.include)}
                        if index.projection == "INCLUDE"
                        else {}
                    ),
                }
                for index in self.indexes
            ]
        return request


# --- Values -------------------------------------------------------------------


def number_text(value: Decimal) -> str:
    """A number as DynamoDB returns it: no exponent, no trailing zeros, no
    sign on zero."""
    if value == 0:
        return "0"
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def order_key(value: Wire) -> Any:
    """How DynamoDB orders key values: S by UTF-8 bytes, N numerically, B by
    unsigned bytes."""
    ((kind, data),) = value.items()
    if kind == "S":
        return data.encode("utf-8")
    if kind == "N":
        return Decimal(data)
    return bytes(data)


def canonical_numbers(value: Any) -> Any:
    """`value` (a response, an item, an attribute value) with every N value
    written in DynamoDB's canonical form."""
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get("N"), str):
            return {"N": number_text(Decimal(value["N"]))}
        return {k: canonical_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical_numbers(v) for v in value]
    return value


def canonical(item: Wire) -> str:
    """A text that is equal for equal items whatever the order of their
    attributes, to sort items where order does not matter."""
    return json.dumps(item, sort_keys=True, default=lambda b: b.hex())


# --- Running on both ------------------------------------------------------------


def outcome(client: Any, operation: str, request: dict[str, Any]) -> dict[str, Any]:
    """The response of one call without ResponseMetadata and ConsumedCapacity,
    or {"Error": code} (plus the failed condition's Item when returned)."""
    try:
        response = getattr(client, operation)(**copy.deepcopy(request))
    except ClientError as error:
        failed: dict[str, Any] = {"Error": error.response["Error"]["Code"]}
        if "Item" in error.response:
            failed["Item"] = error.response["Item"]
        return failed
    return {k: v for k, v in response.items() if k not in IGNORED}


@dataclass
class Pair:
    """The engine and moto, sent the same requests."""

    engine: Client
    moto: Any

    def ours(self, operation: str, request: dict[str, Any]) -> dict[str, Any]:
        """The engine's outcome, as it is."""
        return outcome(self.engine, operation, request)

    def theirs(self, operation: str, request: dict[str, Any]) -> dict[str, Any]:
        """moto's outcome, with the two representation differences pinned in
        test_moto_differences taken out: numbers in DynamoDB's canonical form
        (moto echoes "1.50" and computes "-0.90" where DynamoDB stores "1.5"
        and "-0.9"), and no empty Attributes map (DynamoDB omits it)."""
        theirs = canonical_numbers(outcome(self.moto, operation, request))
        if theirs.get("Attributes") == {}:
            del theirs["Attributes"]
        return theirs

    def both(
        self, operation: str, **request: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        return self.ours(operation, request), self.theirs(operation, request)

    def same(self, operation: str, **request: Any) -> dict[str, Any]:
        """The outcome of a request, which must be identical on both."""
        ours, theirs = self.both(operation, **request)
        assert ours == theirs, f"{operation} {request}"
        return ours

    @contextmanager
    def table(self, design: Design, items: Sequence[Wire] = ()) -> Iterator[str]:
        """A fresh table on both, loaded with `items`, deleted afterwards."""
        name = f"conformance-{uuid.uuid4().hex}"
        request = design.create_request(name)
        self.engine.create_table(**copy.deepcopy(request))
        self.moto.create_table(**copy.deepcopy(request))
        try:
            self.load(name, items)
            yield name
        finally:
            self.engine.delete_table(TableName=name)
            self.moto.delete_table(TableName=name)

    def load(self, name: str, items: Sequence[Wire]) -> None:
        for start in range(0, len(items), BATCH_WRITE_SIZE):
            chunk = [
                {"PutRequest": {"Item": item}}
                for item in items[start : start + BATCH_WRITE_SIZE]
            ]
            for client in (self.engine, self.moto):
                response = client.batch_write_item(
                    RequestItems={name: copy.deepcopy(chunk)}
                )
                assert response["UnprocessedItems"] == {}


# --- Paging -----------------------------------------------------------------------


def _accept_lookahead(
    pair: Pair, operation: str, request: dict[str, Any], page: dict[str, Any]
) -> None:
    """The one accepted LastEvaluatedKey difference: the engine's page stopped
    on its Limit with nothing left, so it has a LastEvaluatedKey where moto
    (which looks ahead) has none. The engine's next page must then be empty
    and final, as DynamoDB's is."""
    assert "Limit" in request and page["ScannedCount"] == request["Limit"], (
        f"the engine returned a LastEvaluatedKey that moto did not, on a page "
        f"that did not stop on its Limit: {request}"
    )
    following = outcome(
        pair.engine,
        operation,
        {**request, "ExclusiveStartKey": page["LastEvaluatedKey"]},
    )
    assert following.get("Items", []) == []
    assert following["Count"] == following["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in following


def query_pages(pair: Pair, request: dict[str, Any]) -> list[dict[str, Any]]:
    """Page a Query to its end on both; every page must agree (Items in
    order, Count, ScannedCount, LastEvaluatedKey). Returns the engine's
    pages."""
    pages = []
    start: Wire | None = None
    while True:
        paged = {**request, "ExclusiveStartKey": start} if start else request
        ours, theirs = pair.both("query", **paged)
        assert "Error" not in ours and "Error" not in theirs, (ours, theirs, paged)
        pages.append(ours)
        our_key = ours.get("LastEvaluatedKey")
        their_key = theirs.get("LastEvaluatedKey")
        if our_key is not None and their_key is None:
            _accept_lookahead(pair, "query", paged, ours)
            theirs = {**theirs, "LastEvaluatedKey": our_key}
        assert ours == theirs, paged
        if our_key is None:
            return pages
        start = our_key


def _pages_apart(
    pair: Pair, operation: str, request: dict[str, Any], key_attributes: tuple[str, ...]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Page a Query or Scan to its end on both, each side resuming from its
    own LastEvaluatedKey, for reads whose pages may legitimately hold
    different items. Per page, ScannedCount must agree, Count too when there
    is no filter, and LastEvaluatedKey must be present on both (bar the
    look-ahead difference) with the same attributes and the same values of
    `key_attributes` (the key of the last entry read, which is the same on
    both when only the order of ties differs). Returns both sides' pages."""
    ours_pages: list[dict[str, Any]] = []
    theirs_pages: list[dict[str, Any]] = []
    ours_start: Wire | None = None
    theirs_start: Wire | None = None
    while True:
        our_request = (
            {**request, "ExclusiveStartKey": ours_start} if ours_start else request
        )
        their_request = (
            {**request, "ExclusiveStartKey": theirs_start} if theirs_start else request
        )
        ours = pair.ours(operation, our_request)
        theirs = pair.theirs(operation, their_request)
        assert "Error" not in ours and "Error" not in theirs, (ours, theirs, request)
        ours_pages.append(ours)
        theirs_pages.append(theirs)
        assert ours["ScannedCount"] == theirs["ScannedCount"], request
        if "FilterExpression" not in request:
            assert ours["Count"] == theirs["Count"] == ours["ScannedCount"]
        ours_start = ours.get("LastEvaluatedKey")
        theirs_start = theirs.get("LastEvaluatedKey")
        if ours_start is not None and theirs_start is None:
            _accept_lookahead(pair, operation, our_request, ours)
            return ours_pages, theirs_pages
        assert (ours_start is None) == (theirs_start is None), request
        if ours_start is None:
            return ours_pages, theirs_pages
        assert set(ours_start) == set(theirs_start), request
        for attribute in key_attributes:
            assert ours_start[attribute] == theirs_start[attribute], request


def _same_items(
    ours_pages: list[dict[str, Any]],
    theirs_pages: list[dict[str, Any]],
    request: dict[str, Any],
) -> tuple[list[Wire], list[Wire]]:
    """The same total Count and, over all pages, the same items as a
    multiset. Returns both sides' items in the order read."""
    assert sum(p["Count"] for p in ours_pages) == sum(
        p["Count"] for p in theirs_pages
    ), request
    ours = items_of(ours_pages)
    theirs = items_of(theirs_pages)
    assert sorted(map(canonical, ours)) == sorted(map(canonical, theirs)), request
    return ours, theirs


def query_pages_with_ties(
    pair: Pair, request: dict[str, Any], index_key: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Page a Query of an index holding entries with equal index keys. The
    order of such ties is not documented by DynamoDB: the engine orders them
    by the table key, moto (for an index without a sort key) by the table's
    sort key first. So ties may come in any order and pages may split them
    differently; everything else is compared: per page as in `_pages_apart`,
    over all pages the items as a multiset and, when the items carry the
    index key, the sequence of index key values with the items of each run
    of equal keys as a multiset. Returns the engine's pages."""
    ours_pages, theirs_pages = _pages_apart(pair, "query", request, index_key)
    ours, theirs = _same_items(ours_pages, theirs_pages, request)
    if all(set(index_key) <= set(item) for item in ours + theirs):
        assert _runs(ours, index_key) == _runs(theirs, index_key), request
    return ours_pages


def _runs(items: list[Wire], key: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """Consecutive items with equal values of `key`: (key, sorted items)."""
    runs: list[tuple[str, list[str]]] = []
    for item in items:
        value = canonical({a: item[a] for a in key})
        if not runs or runs[-1][0] != value:
            runs.append((value, []))
        runs[-1][1].append(canonical(item))
    return [(value, sorted(run)) for value, run in runs]


def scan_pages(
    pair: Pair, request: dict[str, Any], key: KeyDef
) -> list[dict[str, Any]]:
    """Page a Scan of the table or index keyed by `key` to its end on both.
    Pages hold different items (the scan orders differ, see the module
    docstring), so pages are compared as in `_pages_apart`, and over all
    pages the items as a multiset and, when the items carry the key, the
    order within each partition (up to the order of index ties, see
    `query_pages_with_ties`). Returns the engine's pages."""
    ours_pages, theirs_pages = _pages_apart(pair, "scan", request, ())
    ours, theirs = _same_items(ours_pages, theirs_pages, request)
    if all(set(key.attributes) <= set(item) for item in ours + theirs):
        assert _by_partition(ours, key) == _by_partition(theirs, key), request
    return ours_pages


def _by_partition(
    items: list[Wire], key: KeyDef
) -> dict[str, list[tuple[str, list[str]]]]:
    grouped: dict[str, list[Wire]] = defaultdict(list)
    for item in items:
        grouped[canonical(item[key.partition])].append(item)
    return {p: _runs(group, key.attributes) for p, group in grouped.items()}


def items_of(pages: list[dict[str, Any]]) -> list[Wire]:
    return [item for page in pages for item in page.get("Items", [])]
