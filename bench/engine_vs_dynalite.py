"""The in-memory engine against dynalite (DynamoDB in Node.js, in memory),
through the same boto3 calls, at 100,000 items.

It installs dynalite with npm into `var/bench-node/` the first time (the
npm registry is enough), starts it on a free port, loads the same items as
`engine_vs_moto.py` into both with BatchWriteItem, then times a Query of 100
items on the table and on a GSI, a GetItem, a PutItem and an UpdateItem
(`SET total = total + :d`) on each, and prints the medians and their ratios
side by side. dynalite answers over HTTP from another process, as a local
DynamoDB does; the engine answers in this one, through its validating boto3
client. Issue 13's targets: Query at least 30x faster, Get/Put/Update at
least 50x.

    PYTHONPATH=. .venv/bin/python bench/engine_vs_dynalite.py
    BENCH_DYNALITE_ITEMS=10000 ...     (a smaller run)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config

# bench/ is the script's own directory, first on its path.
from engine_calls import calls
from engine_vs_moto import (
    batch_load,
    create_table,
    median_query,
)

from modeler.engine.client import Client

ROOT = Path(__file__).resolve().parents[1]
NODE_DIR = ROOT / "var" / "bench-node"
DYNALITE = NODE_DIR / "node_modules" / "dynalite" / "cli.js"
VERSION = "3.2.2"
CALLS = 200
TARGETS = {"query": 30, "get": 50, "put": 50, "update": 50}


def install() -> Path | None:
    if DYNALITE.exists():
        return DYNALITE
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return None
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(  # noqa: S603 - a fixed command line
        [npm, "install", "--prefix", str(NODE_DIR), f"dynalite@{VERSION}"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return DYNALITE


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def median(call: Callable[[int], Any], calls: int = CALLS) -> float:
    times = []
    for n in range(calls):
        started = time.perf_counter()
        call(n)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(client: Any, count: int) -> dict[str, float]:
    create_table(client)
    figures = {"load": batch_load(client, count)}
    figures["query"] = median_query(client, count, CALLS, index=False)
    figures["gsi"] = median_query(client, count, CALLS, index=True)

    # GetItem, PutItem and UpdateItem as bench/engine_calls.py makes them.
    chosen = calls(client, count)
    for name in ("get", "put", "update"):
        figures[name] = median(chosen[name])
    return figures


@contextlib.contextmanager
def dynalite_client() -> Iterator[Any]:
    """A boto3 client of a dynalite started on a free port (installed the
    first time), stopped afterwards; None when node and npm are missing."""
    cli = install()
    if cli is None:
        yield None
        return
    port = free_port()
    server = subprocess.Popen(  # noqa: S603 - a fixed command line
        [
            shutil.which("node") or "node",
            str(cli),
            "--port",
            str(port),
            "--createTableMs",
            "0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield boto3.client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{port}",
            region_name="us-east-1",
            aws_access_key_id="bench",
            aws_secret_access_key="bench",  # noqa: S106 - dynalite takes any
            config=Config(retries={"max_attempts": 1}),
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    count = int(os.environ.get("BENCH_DYNALITE_ITEMS", "100000"))
    with dynalite_client() as remote:
        if remote is None:
            print("skipped: node and npm are needed to run dynalite")
            return
        dynalite = measure(remote, count)
    cpu = time.process_time()
    engine = measure(Client(), count)
    engine_cpu = time.process_time() - cpu
    print(f"{count:,} items, medians of {CALLS} calls (wall time; cores shared)")
    print(f"{'':<22}{'dynalite':>12}{'engine':>12}{'ratio':>9}{'target':>9}")
    print(
        f"{'load (items/s)':<22}{count / dynalite['load']:>12,.0f}"
        f"{count / engine['load']:>12,.0f}"
        f"{dynalite['load'] / engine['load']:>8,.1f}x"
    )
    for name, label in (
        ("query", "Query, table (100)"),
        ("gsi", "Query, GSI (100)"),
        ("get", "GetItem"),
        ("put", "PutItem"),
        ("update", "UpdateItem"),
    ):
        target = TARGETS.get(name, TARGETS["query"] if name == "gsi" else 0)
        ratio = dynalite[name] / engine[name]
        print(
            f"{label:<22}{dynalite[name] * 1000:>9.3f} ms{engine[name] * 1000:>9.3f} ms"
            f"{ratio:>8,.1f}x{target:>8}x"
        )
    print(f"engine CPU for its whole run: {engine_cpu:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
