"""Memory per item of a simulated design: the resident memory of a process
holding `Simulation(design, items=N)` of the order-management example (the
items generated and loaded into the engine with its table and three
indexes), above the process's own baseline (the modules imported and the
design read), divided by N. Each size is built twice: as `manage.py
simulate` builds it (`keep=False`: no items kept for a next generation),
the figure of issue 36's target, then as the web application's simulations
are built (`keep=True`: the generated items also kept, packed, so that a
design edited next makes again only the entities whose items change).

Each size runs in a child process of its own, so that no size inherits the
memory another freed; each prints its resident memory now and at its peak
(VmRSS, VmHWM), the per-item figures and the CPU and wall seconds the build
took. Issue 36's target: at most 0.5 KB per item above the baseline at
1,000,000 items (about 1.6 KB before).

    PYTHONPATH=. .venv/bin/python bench/memory.py
    BENCH_MEMORY_ITEMS=100000 ...   (sizes, comma-separated)
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "order-management.yaml"
TARGET_BYTES_PER_ITEM = 512


def memory_mb() -> tuple[float, float]:
    """This process's resident memory now and at its peak, in MB."""
    fields = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def measure(count: int, keep: bool) -> dict[str, float]:
    """In this process: the baseline, then the simulation of `count` items."""
    from modeler.designfile import read_design
    from modeler.simulation import Simulation

    design = read_design(EXAMPLE.read_text()).design
    baseline, _ = memory_mb()
    started, cpu = time.perf_counter(), time.process_time()
    simulation = Simulation(design, items=count, keep=keep)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - started
    now, peak = memory_mb()
    return {
        "items": len(simulation.items),
        "baseline": baseline,
        "rss": now,
        "peak": peak,
        "cpu": cpu,
        "wall": wall,
    }


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(measure(int(sys.argv[2]), sys.argv[3] == "keep")))
        return
    sizes = os.environ.get("BENCH_MEMORY_ITEMS", "100000,1000000")
    for count, keep in itertools.product(
        [int(n) for n in sizes.split(",") if n], (False, True)
    ):
        done = subprocess.run(  # noqa: S603 - a fixed command line
            [
                sys.executable,
                __file__,
                "--child",
                str(count),
                ("keep" if keep else "-"),
            ],
            check=True,
            capture_output=True,
            text=True,
            env={
                **os.environ,
                "PYTHONPATH": str(ROOT),
            },
            cwd=ROOT,
        )
        got = json.loads(done.stdout)
        items = got["items"]
        per_item = (got["rss"] - got["baseline"]) * 1048576 / items
        peak_per_item = (got["peak"] - got["baseline"]) * 1048576 / items
        print(
            f"{items:>10,} items{', kept' if keep else ''}: "
            f"{per_item:6,.0f} bytes per item above the "
            f"baseline of {got['baseline']:,.0f} MB ({got['rss']:,.0f} MB resident; "
            f"peak {got['peak']:,.0f} MB, {peak_per_item:,.0f} bytes per item); "
            f"built in {got['cpu']:.2f} s CPU, {got['wall']:.2f} s wall"
            + (
                f" (target {TARGET_BYTES_PER_ITEM} bytes: "
                f"{per_item / TARGET_BYTES_PER_ITEM:.2f} of it)"
                if items >= 1_000_000 and not keep
                else ""
            )
        )


if __name__ == "__main__":
    main()
