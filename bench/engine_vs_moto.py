"""The in-memory engine against moto, through the same boto3 calls.

For a table of synthetic ~300-byte items with two GSIs, at 1,000, 10,000 and
100,000 items, it loads the same items into moto (in-process `mock_aws`) and
into the engine's boto3-compatible client with BatchWriteItem (25 at a
time), then times Queries returning 100 items, on the table and on a GSI,
and prints both engines' figures and their ratio side by side. Then it bulk
loads the engine alone with a million items and times the same Queries.

    make bench          (or: PYTHONPATH=. .venv/bin/python bench/engine_vs_moto.py)
    BENCH_SIZES=1000,10000 BENCH_ENGINE_ITEMS=200000 ...   (smaller runs)

moto answers a Query in about a second at 100,000 items, so it gets fewer
Queries there (the count is printed); the engine always gets 100 of each.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import boto3
from moto import mock_aws

from modeler.engine.client import Client
from modeler.engine.types import item_to_wire

STATUSES = ("OPEN", "SHIPPED", "CLOSED")
ITEMS_PER_STATUS_PARTITION = 2000  # GSI1: few, large partitions
ITEMS_PER_CUSTOMER = 200  # table partitions hold 200 items
QUERIES = 100


def _buckets(count: int) -> int:
    return max(1, count // ITEMS_PER_STATUS_PARTITION)


def _sizes(name: str, default: str) -> list[int]:
    return [int(n) for n in os.environ.get(name, default).split(",") if n]


def items(count: int) -> Iterator[dict[str, Any]]:
    """Orders of customers (200 each): ~300 bytes, a GSI by status and date
    (few, large partitions) and a GSI by email (one entry per partition)."""
    for n in range(count):
        day = f"2024-{n % 12 + 1:02d}-{n % 28 + 1:02d}"
        yield {
            "PK": f"CUST#{n // ITEMS_PER_CUSTOMER:08d}",
            "SK": f"ORDER#{day}#{n:08d}",
            "GSI1PK": f"STATUS#{n % _buckets(count):04d}",
            "GSI1SK": f"{day}T10:00:00Z#{n:08d}",
            "GSI2PK": f"EMAIL#user{n}@example.com",
            "customerId": f"{n // 10:08d}",
            "orderId": f"{n:08d}",
            "status": STATUSES[n % 3],
            "total": Decimal(n % 10_000) / 100,
            "quantity": Decimal(n % 7 + 1),
            "note": "gift wrap, leave at the door, ring twice please " * 2,
        }


def create_table(client: Any) -> None:
    def key(partition: str, sort: str | None = None) -> list[dict[str, str]]:
        schema = [{"AttributeName": partition, "KeyType": "HASH"}]
        return schema + ([{"AttributeName": sort, "KeyType": "RANGE"}] if sort else [])

    client.create_table(
        TableName="Orders",
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": a, "AttributeType": "S"}
            for a in ("PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK")
        ],
        KeySchema=key("PK", "SK"),
        GlobalSecondaryIndexes=[
            {
                "IndexName": "GSI1",
                "KeySchema": key("GSI1PK", "GSI1SK"),
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                "IndexName": "GSI2",
                "KeySchema": key("GSI2PK"),
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            },
        ],
    )


def batch_load(client: Any, count: int) -> float:
    """Seconds to write `count` items with BatchWriteItem."""
    started = time.perf_counter()
    batch: list[dict[str, Any]] = []
    for item in items(count):
        batch.append({"PutRequest": {"Item": item_to_wire(item)}})
        if len(batch) == 25:
            client.batch_write_item(RequestItems={"Orders": batch})
            batch = []
    if batch:
        client.batch_write_item(RequestItems={"Orders": batch})
    return time.perf_counter() - started


def query_request(n: int, count: int, *, index: bool) -> dict[str, Any]:
    """The n-th Query of 100 items, on GSI1 (few large partitions) or on the
    table (partitions of 200 orders)."""
    if index:
        request = {
            "IndexName": "GSI1",
            "KeyConditionExpression": "GSI1PK = :p AND GSI1SK >= :day",
            "ExpressionAttributeValues": {
                ":p": {"S": f"STATUS#{(n * 7) % _buckets(count):04d}"},
                ":day": {"S": "2024-03-01"},
            },
        }
    else:
        customers = max(1, count // ITEMS_PER_CUSTOMER)
        request = {
            "KeyConditionExpression": "PK = :p AND begins_with(SK, :o)",
            "ExpressionAttributeValues": {
                ":p": {"S": f"CUST#{(n * 7) % customers:08d}"},
                ":o": {"S": "ORDER#"},
            },
        }
    return {"TableName": "Orders", "Limit": 100, **request}


def median_query(client: Any, count: int, queries: int, *, index: bool) -> float:
    """Median seconds of a Query returning 100 items (`query_request`)."""
    times = []
    for n in range(queries):
        request = query_request(n, count, index=index)
        started = time.perf_counter()
        response = client.query(**request)
        times.append(time.perf_counter() - started)
        if response["Count"] != 100:
            raise RuntimeError(f"the query returned {response['Count']} items")
    return statistics.median(times)


def peak_memory_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(client: Any, count: int, queries: int) -> dict[str, float]:
    create_table(client)
    return {
        "load": batch_load(client, count),
        "table": median_query(client, count, queries, index=False),
        "gsi": median_query(client, count, queries, index=True),
    }


def moto_queries(count: int) -> int:
    return QUERIES if count <= 1_000 else 30 if count <= 10_000 else 10


def main() -> None:
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    print(
        f"{'items':>9}  {'':<7} {'load items/s':>13} {'table query(100)':>17} "
        f"{'GSI query(100)':>15}"
    )
    for count in _sizes("BENCH_SIZES", "1000,10000,100000"):
        with mock_aws():
            moto = measure(
                boto3.client("dynamodb", region_name="us-east-1"),
                count,
                moto_queries(count),
            )
        engine = measure(Client(), count, QUERIES)
        for label, figures in (("moto", moto), ("engine", engine)):
            print(
                f"{count:>9,}  {label:<7} {count / figures['load']:>13,.0f} "
                f"{figures['table'] * 1000:>14.3f} ms "
                f"{figures['gsi'] * 1000:>12.3f} ms"
            )
        print(
            f"{'':>9}  {'ratio':<7} {moto['load'] / engine['load']:>12,.0f}x "
            f"{moto['table'] / engine['table']:>15,.0f}x "
            f"{moto['gsi'] / engine['gsi']:>13,.0f}x   "
            f"(moto: {moto_queries(count)} queries of each kind)"
        )
    for count in _sizes("BENCH_ENGINE_ITEMS", "1000000"):
        client = Client()
        create_table(client)
        started = time.perf_counter()
        client.load_items("Orders", items(count))
        load_seconds = time.perf_counter() - started
        table = median_query(client, count, QUERIES, index=False)
        gsi = median_query(client, count, QUERIES, index=True)
        print(
            f"{count:>9,}  {'engine':<7} {count / load_seconds:>13,.0f} "
            f"{table * 1000:>14.3f} ms {gsi * 1000:>12.3f} ms   (bulk load)"
        )
        print(
            f"{'':>9}  load {load_seconds:.1f} s (generation included), peak "
            f"memory {peak_memory_mb():,.0f} MB (moto's runs included)"
        )


if __name__ == "__main__":
    main()
