"""The in-memory engine against dynalite (DynamoDB in Node.js, in memory),
through the same boto3 calls, at 100,000 items.

It installs dynalite with npm into `var/bench-node/` the first time (the
npm registry is enough), starts it on a free port, loads the same items as
`engine_vs_moto.py` into both with BatchWriteItem, then times a Query of 100
items on the table and on a GSI, a GetItem, a PutItem and an UpdateItem
(`SET total = total + :d`) on each as `engine_calls.py` makes them.

The calls run in rounds: in each, every kind of call runs 100 times on
dynalite, then the same 100 on the engine. An untimed round comes first, in
which both sides make the same calls (on other items than the timed
rounds', and other new items for PutItem): what the first calls cost once
only, the engine's compiled parameter checks and parsed expressions, node's
compilation of dynalite's code, is left out of both. A round's figures are
the median wall time of a call and the CPU time per call over the round:
the engine's (this process), and dynalite's, which is boto3's in this
process and the server's (from /proc/PID/task/*/schedstat, in nanoseconds:
the clock ticks of /proc/PID/stat, 10 ms, were about 5% of a block). The loaded
items are then left out of this process's cyclic collections (gc.freeze):
the collections of the oldest generation that walked the engine's items
fell in dynalite's blocks and were charged to it. It
prints the medians of the rounds and the ratios of the median round and of
the worst, wall beside CPU. dynalite answers over HTTP from another
process, as a local DynamoDB does; the engine answers in this one, through
its validating boto3 client. Targets (issues 13 and 36): Query, on the
table and on a GSI, at least 30x faster, Get/Put/Update at least 50x, in
every round.

    PYTHONPATH=. .venv/bin/python bench/engine_vs_dynalite.py
    BENCH_DYNALITE_ITEMS=10000 ...     (a smaller run)
    BENCH_DYNALITE_ROUNDS_VERBOSE=1 ... (each round's CPU per call, each
        side, and the cyclic collections in this process during the block)
"""

from __future__ import annotations

import contextlib
import gc
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
from engine_vs_moto import batch_load, create_table

from modeler.engine.client import Client

ROOT = Path(__file__).resolve().parents[1]
NODE_DIR = ROOT / "var" / "bench-node"
DYNALITE = NODE_DIR / "node_modules" / "dynalite" / "cli.js"
VERSION = "3.2.2"
ROUNDS = 5
CALLS = 100  # of each kind in a round, on each side
TARGETS = {"query": 30, "gsi": 30, "get": 50, "put": 50, "update": 50}
KINDS = (
    ("query", "Query, table (100)"),
    ("gsi", "Query, GSI (100)"),
    ("get", "GetItem"),
    ("put", "PutItem"),
    ("update", "UpdateItem"),
)
TICKS = os.sysconf("SC_CLK_TCK")
VERBOSE = os.environ.get("BENCH_DYNALITE_ROUNDS_VERBOSE") == "1"


class Collections:
    """The cyclic garbage collections in this process (with `gc.callbacks`):
    how many of each generation, and their time, since `reset`."""

    def __init__(self) -> None:
        self.reset()
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def reset(self) -> None:
        self.counts = [0, 0, 0]
        self.seconds = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.counts[info["generation"]] += 1
            self.seconds += time.perf_counter() - self._started


COLLECTIONS = Collections() if VERBOSE else None


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


def server_cpu(pid: int | None) -> float:
    """Seconds of CPU the process `pid` has used (0 without one): the sum
    over its threads (node's main one, V8's and libuv's) of the time each
    ran, from /proc/PID/task/*/schedstat, counted in nanoseconds. The
    process's utime + stime in /proc/PID/stat are counted in clock ticks of
    10 ms, about 5% of a block of UpdateItems; `server_ticks` reads them,
    for comparison over the whole run."""
    if pid is None:
        return 0.0
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # a thread just ended
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def server_ticks(pid: int) -> float:
    """Seconds of CPU the process `pid` has used, in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def block(
    call: Callable[[int], Any], first: int, server: int | None, kind: str
) -> tuple[float, float]:
    """`CALLS` calls from the `first`-th: the median wall time of a call,
    and the CPU per call (this process's and, for dynalite, its server's:
    the server's from its threads' schedstat, so only a block's total)."""
    times = []
    if COLLECTIONS is not None:
        COLLECTIONS.reset()
    cpu = time.process_time() + server_cpu(server)
    for n in range(first, first + CALLS):
        started = time.perf_counter()
        response = call(n)
        times.append(time.perf_counter() - started)
        if kind in ("query", "gsi") and response["Count"] != 100:
            raise RuntimeError(f"the query returned {response['Count']} items")
    cpu = time.process_time() + server_cpu(server) - cpu
    if COLLECTIONS is not None:
        gen0, gen1, gen2 = COLLECTIONS.counts
        print(
            f"  {kind:<7}{'dynalite' if server else 'engine':<9}"
            f"{cpu / CALLS * 1000:8.4f} ms/call  collections {gen0}/{gen1}/{gen2}"
            f" (gen 0/1/2) {COLLECTIONS.seconds * 1000:6.2f} ms",
            flush=True,
        )
    return statistics.median(times), cpu / CALLS


def rounds(
    sides: dict[str, tuple[Any, int | None]], count: int
) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """Each kind of call in `ROUNDS` rounds, the two sides taking turns
    with the same calls: (wall, CPU) per round, per kind, per side."""
    chosen = {name: calls(client, count) for name, (client, _) in sides.items()}
    figures: dict[str, dict[str, list[tuple[float, float]]]] = {
        name: {kind: [] for kind, _ in KINDS} for name in sides
    }
    # The untimed round, on the calls after the timed rounds' (see the
    # module's docstring).
    for kind, _ in KINDS:
        for name in sides:
            for n in range(ROUNDS * CALLS, (ROUNDS + 1) * CALLS):
                chosen[name][kind](n)
    for round_ in range(ROUNDS):
        if VERBOSE:
            print(f"round {round_ + 1}", flush=True)
        for kind, _ in KINDS:
            for name, (_, server) in sides.items():
                first = round_ * CALLS
                figures[name][kind].append(
                    block(chosen[name][kind], first, server, kind)
                )
    return figures


@contextlib.contextmanager
def dynalite_client() -> Iterator[Any]:
    """A boto3 client of a dynalite started on a free port (installed the
    first time), stopped afterwards; None when node and npm are missing."""
    with dynalite_server() as (client, _):
        yield client


@contextlib.contextmanager
def dynalite_server() -> Iterator[tuple[Any, int | None]]:
    """`dynalite_client`'s client and the server's process id."""
    cli = install()
    if cli is None:
        yield None, None
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
        client = boto3.client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{port}",
            region_name="us-east-1",
            aws_access_key_id="bench",
            aws_secret_access_key="bench",  # noqa: S106 - dynalite takes any
            config=Config(retries={"max_attempts": 1}),
        )
        yield client, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    count = int(os.environ.get("BENCH_DYNALITE_ITEMS", "100000"))
    with dynalite_server() as (remote, pid):
        if remote is None:
            print("skipped: node and npm are needed to run dynalite")
            return
        create_table(remote)
        dynalite_load = batch_load(remote, count)
        engine = Client()
        create_table(engine)
        cpu = time.process_time()
        engine_load = batch_load(engine, count)
        load_cpu = time.process_time() - cpu
        # This process holds the engine's items (and none of dynalite's):
        # the collections of the oldest generation walked them in whichever
        # block they fell, nearly always dynalite's Queries, whose boto3
        # parsing makes the most objects (one collection a block, 50 to 210
        # ms, charged to dynalite's CPU). The loaded heap is left out of the
        # collections of both sides; what the calls make is collected as
        # usual.
        gc.collect()
        gc.freeze()
        ticks, nanoseconds = server_ticks(pid), server_cpu(pid)
        figures = rounds({"dynalite": (remote, pid), "engine": (engine, None)}, count)
        ticks, nanoseconds = server_ticks(pid) - ticks, server_cpu(pid) - nanoseconds
    if VERBOSE:
        print(
            f"dynalite's CPU over the rounds: {nanoseconds:.3f} s from its "
            f"threads' schedstat, {ticks:.2f} s in clock ticks"
        )
    print(
        f"{count:,} items (left out of the cyclic collections once loaded: "
        "gc.freeze); "
        f"{ROUNDS} rounds of {CALLS} calls of each kind after an untimed one, the "
        "two taking turns with the same calls.\nWall: the median call of a round; CPU: "
        "per call over a round (dynalite's: boto3's in this process and its "
        "server's)."
    )
    print(
        f"load (items/s): dynalite {count / dynalite_load:,.0f}, engine "
        f"{count / engine_load:,.0f} ({count / load_cpu:,.0f} by CPU), "
        f"{dynalite_load / engine_load:,.1f}x"
    )
    print(
        f"{'':<20}{'dynalite':>19}{'engine':>19}"
        f"{'ratio, median round':>24}{'worst round':>17}{'target':>8}"
    )
    columns = "wall    CPU"
    print(f"{'':<20}{columns:>19}{columns:>19}{columns:>24}{columns:>17}")
    for kind, label in KINDS:
        theirs, ours = figures["dynalite"][kind], figures["engine"][kind]
        wall = [d[0] / e[0] for d, e in zip(theirs, ours, strict=True)]
        cpu = [d[1] / e[1] for d, e in zip(theirs, ours, strict=True)]

        def ms(side: list[tuple[float, float]], at: int) -> float:
            return statistics.median(f[at] for f in side) * 1000

        print(
            f"{label:<20}{ms(theirs, 0):>9.3f}{ms(theirs, 1):>7.3f} ms"
            f"{ms(ours, 0):>9.3f}{ms(ours, 1):>7.3f} ms"
            f"{statistics.median(wall):>13.1f}x{statistics.median(cpu):>7.1f}x"
            f"{min(wall):>9.1f}x{min(cpu):>7.1f}x{TARGETS[kind]:>7}x"
        )


if __name__ == "__main__":
    sys.exit(main())
