"""The DynamoDB endpoint (`manage.py serve_dynamodb`) against dynalite
(DynamoDB in Node.js, in memory) on one machine, through the same boto3
calls over HTTP: cold start, then one workload run phase by phase,
alternating between the two servers so a busy neighbour slows both alike.

The workload: a 10,000-item load (BatchWriteItem, 25 a call), 1,000
GetItem, 1,000 PutItem, 100 Query (a partition of 100 items), one Scan of
the whole table (every page), 500 UpdateItem and 50 TransactWriteItems of
4 actions. For each phase it prints the server process's CPU (user +
system, read from /proc, so the client's own work is left out) and the
wall time, and their ratios; the GetItem phase also gives requests per
second and server CPU per GetItem. Cold start is from starting the process
to its first answer to ListTables, with no table, for `manage.py
serve_dynamodb`, `python -m modeler.endpoint` (no Django) and dynalite.
Transactions are timed on the endpoint only (dynalite 3 has none), so the
whole workload's figures, and its ratio, are of the phases both servers
ran. Issue 33's targets: at least 5x less CPU than
dynalite on the workload, cold start under 1 s.

    PYTHONPATH=. .venv/bin/python bench/endpoint.py
    BENCH_ENDPOINT_ITEMS=2000 ...    (a smaller load)

dynalite is installed with npm into var/bench-node/ the first time (as
bench/engine_vs_dynalite.py does); without node and npm only the endpoint
is measured.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config

# bench/ is the script's own directory, first on its path.
from engine_vs_dynalite import free_port, install

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
PARTITIONS = 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def client(port: int) -> Any:
    return boto3.client(
        "dynamodb",
        endpoint_url=f"http://127.0.0.1:{port}",
        region_name="us-east-1",
        aws_access_key_id="bench",
        aws_secret_access_key="bench",  # noqa: S106 - any key is accepted
        config=Config(retries={"max_attempts": 1}, max_pool_connections=2),
    )


def started(command: list[str], port: int) -> tuple[subprocess.Popen, float, Any]:
    """The server process, its cold start (seconds to the first answer of
    ListTables) and a client of it."""
    begun = time.perf_counter()
    process = subprocess.Popen(  # noqa: S603 - a fixed command line
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    ddb = client(port)
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            ddb.list_tables()
            return process, time.perf_counter() - begun, ddb
        except Exception:
            if process.poll() is not None:
                raise SystemExit(
                    f"{command[0]} ended with {process.returncode}"
                ) from None
            time.sleep(0.005)  # polling the port: the figure is its resolution


def key(n: int) -> dict[str, Any]:
    return {"PK": {"S": f"P#{n % PARTITIONS:03d}"}, "SK": {"S": f"I#{n:06d}"}}


def item(n: int) -> dict[str, Any]:
    return {
        **key(n),
        "status": {"S": ("OPEN", "SHIPPED", "CLOSED")[n % 3]},
        "total": {"N": str(n * 7 % 1000)},
        "note": {"S": "x" * 200},
    }


def phases(count: int) -> list[tuple[str, int, Callable[[Any], None]]]:
    """(name, requests, run) of each phase of the workload."""

    def create(ddb: Any) -> None:
        ddb.create_table(
            TableName="Bench",
            AttributeDefinitions=[
                {"AttributeName": "PK", "AttributeType": "S"},
                {"AttributeName": "SK", "AttributeType": "S"},
            ],
            KeySchema=[
                {"AttributeName": "PK", "KeyType": "HASH"},
                {"AttributeName": "SK", "KeyType": "RANGE"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )

    def load(ddb: Any) -> None:
        for start in range(0, count, 25):
            ddb.batch_write_item(
                RequestItems={
                    "Bench": [
                        {"PutRequest": {"Item": item(n)}}
                        for n in range(start, min(start + 25, count))
                    ]
                }
            )

    def gets(ddb: Any) -> None:
        for n in range(1000):
            ddb.get_item(TableName="Bench", Key=key(n * 7919 % count))

    def puts(ddb: Any) -> None:
        for n in range(1000):
            ddb.put_item(TableName="Bench", Item=item(count + n))

    def queries(ddb: Any) -> None:
        for n in range(100):
            ddb.query(
                TableName="Bench",
                KeyConditionExpression="PK = :p",
                ExpressionAttributeValues={":p": {"S": f"P#{n % PARTITIONS:03d}"}},
                Limit=100,
            )

    def scan(ddb: Any) -> None:
        for _ in ddb.get_paginator("scan").paginate(TableName="Bench"):
            pass

    def updates(ddb: Any) -> None:
        for n in range(500):
            ddb.update_item(
                TableName="Bench",
                Key=key(n * 31 % count),
                UpdateExpression="SET #t = #t + :d",
                ExpressionAttributeNames={"#t": "total"},
                ExpressionAttributeValues={":d": {"N": "1"}},
            )

    def transactions(ddb: Any) -> None:
        for n in range(50):
            ddb.transact_write_items(
                TransactItems=[
                    {
                        "Update": {
                            "TableName": "Bench",
                            "Key": key(n * 4 + m),
                            "UpdateExpression": "SET #t = #t + :d",
                            "ExpressionAttributeNames": {"#t": "total"},
                            "ExpressionAttributeValues": {":d": {"N": "1"}},
                        }
                    }
                    for m in range(4)
                ]
            )

    return [
        ("CreateTable", 1, create),
        (f"load {count:,} items", -(-count // 25), load),
        ("1,000 GetItem", 1000, gets),
        ("1,000 PutItem", 1000, puts),
        ("100 Query (100 items)", 100, queries),
        ("Scan, every page", 1, scan),
        ("500 UpdateItem", 500, updates),
        ("50 TransactWriteItems", 50, transactions),
    ]


def main() -> None:
    count = int(os.environ.get("BENCH_ENDPOINT_ITEMS", "10000"))
    servers: dict[str, tuple[subprocess.Popen, float, Any]] = {}
    port = free_port()
    servers["endpoint"] = started(
        [
            sys.executable,
            "manage.py",
            "serve_dynamodb",
            "--address",
            f"127.0.0.1:{port}",
        ],
        port,
    )
    port = free_port()
    module = started(
        [sys.executable, "-m", "modeler.endpoint", "--address", f"127.0.0.1:{port}"],
        port,
    )
    module[0].terminate()
    module[0].wait(timeout=10)
    dynalite = install()
    if dynalite is not None:
        port = free_port()
        servers["dynalite"] = started(
            [
                shutil.which("node") or "node",
                str(dynalite),
                "--port",
                str(port),
                "--createTableMs",
                "0",
            ],
            port,
        )
    names = list(servers)
    totals = {name: [0.0, 0.0] for name in names}
    try:
        print(
            "cold start (to the first answer): "
            + ", ".join(f"{name} {servers[name][1]:.2f} s" for name in names)
            + f", python -m modeler.endpoint (no Django) {module[1]:.2f} s"
        )
        header = "".join(f"{name + ' CPU':>16}{'wall':>9}" for name in names)
        print(f"{'phase':<26}{header}{'CPU ratio':>11}")
        for label, requests, run in phases(count):
            figures = {}
            for name in names:  # alternating: each phase on each server in turn
                process, _, ddb = servers[name]
                cpu, wall = cpu_seconds(process.pid), time.perf_counter()
                try:
                    run(ddb)
                except ddb.exceptions.ClientError as exc:
                    # dynalite 3 has no transactions: the phase is left out.
                    print(f"  {name}: {label}: {exc}")
                    continue
                figures[name] = (
                    cpu_seconds(process.pid) - cpu,
                    time.perf_counter() - wall,
                )
            if not figures:
                continue
            if len(figures) == len(names):  # the workload both ran
                for name, (cpu, wall) in figures.items():
                    totals[name][0] += cpu
                    totals[name][1] += wall
            row = "".join(f"{c:>14.3f} s{w:>7.2f} s" for c, w in figures.values())
            ratio = (
                f"{figures['dynalite'][0] / max(figures['endpoint'][0], 1e-3):>10.1f}x"
                if "dynalite" in figures
                else ""
            )
            print(f"{label:<26}{row}{ratio}")
            if label.endswith("GetItem"):
                cpu, wall = figures["endpoint"]
                print(
                    f"  endpoint GetItem: {requests / wall:,.0f} requests/s through "
                    f"boto3, {cpu / requests * 1e6:,.0f} us server CPU each"
                )
        row = "".join(f"{c:>14.3f} s{w:>7.2f} s" for c, w in totals.values())
        ratio = (
            f"{totals['dynalite'][0] / totals['endpoint'][0]:>10.1f}x"
            if "dynalite" in totals
            else ""
        )
        print(f"{'workload both ran':<26}{row}{ratio}")
    finally:
        for process, _, _ in servers.values():
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
