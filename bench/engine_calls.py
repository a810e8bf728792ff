"""CPU time per call of the engine's boto3-style client, for the calls of
`engine_vs_dynalite.py` (a Query of 100 items on the table and on a GSI, a
GetItem, a PutItem and an UpdateItem `SET total = total + :d`), without
dynalite, so that two versions of the engine can be compared quickly.

The table is bulk loaded (`load_items`) with the same items. Each kind of
call runs in 8 blocks, the kinds taking turns, and the figures are CPU time
(`time.process_time()`), not wall time: the median of all the blocks'
medians, and the lowest block median (what the call costs when the shared
cores are least disturbed). Compare two versions by running this in each
checkout in turn, twice.

    PYTHONPATH=. .venv/bin/python bench/engine_calls.py
    BENCH_ITEMS=10000 BENCH_CALLS=400 ... query get   (smaller, some calls)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

# bench/ is the script's own directory, first on its path.
from engine_vs_moto import ITEMS_PER_CUSTOMER, create_table, items, query_request

from modeler.engine.client import Client

BLOCKS = 8


def calls(client: Client, count: int) -> dict[str, Callable[[int], Any]]:
    """The dynalite bench's calls, the n-th of each kind."""

    def key(n: int) -> dict[str, Any]:
        order = (n * 7919) % count
        day = f"2024-{order % 12 + 1:02d}-{order % 28 + 1:02d}"
        return {
            "PK": {"S": f"CUST#{order // ITEMS_PER_CUSTOMER:08d}"},
            "SK": {"S": f"ORDER#{day}#{order:08d}"},
        }

    return {
        "query": lambda n: client.query(**query_request(n, count, index=False)),
        "gsi": lambda n: client.query(**query_request(n, count, index=True)),
        "get": lambda n: client.get_item(TableName="Orders", Key=key(n)),
        "put": lambda n: client.put_item(
            TableName="Orders",
            Item={
                "PK": {"S": f"NEW#{n:06d}"},
                "SK": {"S": "ORDER"},
                "total": {"N": str(Decimal(n) / 100)},
                "note": {"S": "a new order"},
            },
        ),
        "update": lambda n: client.update_item(
            TableName="Orders",
            Key=key(n),
            UpdateExpression="SET #t = #t + :d",
            ExpressionAttributeNames={"#t": "total"},
            ExpressionAttributeValues={":d": {"N": "1"}},
        ),
    }


def main() -> None:
    count = int(os.environ.get("BENCH_ITEMS", "100000"))
    per_kind = int(os.environ.get("BENCH_CALLS", "800"))
    client = Client()
    create_table(client)
    client.load_items("Orders", items(count))
    chosen = calls(client, count)
    names = sys.argv[1:] or list(chosen)
    for name in names:  # warm the caches (expressions, validation)
        for n in range(50):
            chosen[name](n)
    medians: dict[str, list[float]] = {name: [] for name in names}
    n = 0
    for _ in range(BLOCKS):
        for name in names:
            call = chosen[name]
            times = []
            for _ in range(per_kind // BLOCKS):
                started = time.process_time()
                call(n)
                times.append(time.process_time() - started)
                n += 1
            medians[name].append(statistics.median(times))
    print(f"{count:,} items, CPU per call, {BLOCKS} blocks of {per_kind // BLOCKS}")
    print(f"{'':<8}{'median':>12}{'lowest block':>15}")
    for name in names:
        figures = medians[name]
        print(
            f"{name:<8}{statistics.median(figures) * 1e6:>9.1f} µs"
            f"{min(figures) * 1e6:>12.1f} µs"
        )


if __name__ == "__main__":
    sys.exit(main())
