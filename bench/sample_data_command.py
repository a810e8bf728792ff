"""`manage.py sample_data --items N -o FILE` as a user runs it, beside the
work it is made of, measured in one run.

The command runs in a child process (its CPU time, user and system, from
the operating system's account of the child; its peak memory likewise);
then, in this process, the same items are generated and written as JSON
lines twice: through the wire dicts serialised by `json.dumps` (how the
command wrote them first) and from each item's shape in blocks of lines
(`write_jsonl_blocks`, how it writes them now), both to a file. The command
should cost no more than generating plus writing.
Issue 36's target: 1,000,000 items under 12 s of CPU.

    PYTHONPATH=. .venv/bin/python bench/sample_data_command.py
    BENCH_SAMPLE_COMMAND_ITEMS=200000 ...    (a smaller run)
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from modeler.designfile import read_design
from modeler.engine.types import item_to_json_wire
from modeler.sampledata import ItemStream, generate, write_jsonl_blocks

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "order-management.yaml"
TARGET_CPU = {1_000_000: 12.0}


def children() -> tuple[float, float]:
    """The CPU seconds of the children so far and the largest child's peak
    memory in MB."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def timed(work) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    started, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    count = int(os.environ.get("BENCH_SAMPLE_COMMAND_ITEMS", "1000000"))
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "items.jsonl"
        started, (cpu, _) = time.perf_counter(), children()
        subprocess.run(  # noqa: S603 - a fixed command line
            [
                sys.executable,
                str(ROOT / "manage.py"),
                "sample_data",
                str(EXAMPLE),
                "--items",
                str(count),
                "-o",
                str(output),
            ],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
        )
        command_wall = time.perf_counter() - started
        command_cpu, peak_mb = children()
        command_cpu -= cpu
        size_mb = output.stat().st_size / 1e6

    design = read_design(EXAMPLE.read_text()).design
    items: list = []
    generate_wall, generate_cpu = timed(
        lambda: items.extend(generate(design, items=count).items)
    )

    def through_dicts() -> None:
        with open(os.devnull, "w", encoding="utf-8") as stream:
            for item in items:
                stream.write(
                    json.dumps(
                        item_to_json_wire(item),
                        ensure_ascii=False,
                        separators=(",", ":"),
                    )
                    + "\n"
                )

    def in_blocks() -> None:
        with open(os.devnull, "w", encoding="utf-8") as stream:
            for block in write_jsonl_blocks(items):
                stream.write(block)

    dicts_wall, dicts_cpu = timed(through_dicts)
    pass_wall, pass_cpu = timed(in_blocks)
    del items[:]

    def streamed() -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "items.jsonl"
            with path.open("w", encoding="utf-8") as stream:
                for block in write_jsonl_blocks(ItemStream(design, items=count)):
                    stream.write(block)

    stream_wall, stream_cpu = timed(streamed)
    target = TARGET_CPU.get(count)
    print(f"sample_data --items {count:,} -o FILE ({size_mb:,.0f} MB written)")
    print(
        f"  the command:             CPU {command_cpu:6.2f} s, wall "
        f"{command_wall:6.2f} s, peak memory {peak_mb:,.0f} MB"
        + (
            f" (target {target:.0f} s CPU: {command_cpu / target:.2f} of it)"
            if target
            else ""
        )
    )
    print(
        f"  generate, in process:    CPU {generate_cpu:6.2f} s, "
        f"wall {generate_wall:6.2f} s"
    )
    print(
        f"  write via wire dicts:    CPU {dicts_cpu:6.2f} s, wall {dicts_wall:6.2f} s"
    )
    print(
        f"  write from shapes:       CPU {pass_cpu:6.2f} s, wall {pass_wall:6.2f} s "
        f"({dicts_cpu / pass_cpu:.1f}x less CPU than via wire dicts)"
    )
    print(
        f"  made as written, to a file: CPU {stream_cpu:6.2f} s, wall "
        f"{stream_wall:6.2f} s (the command's way)"
    )
    print(
        f"  command / (generate + write from shapes): "
        f"{command_cpu / (generate_cpu + pass_cpu):.2f}; "
        f"command / made as written: {command_cpu / stream_cpu:.2f}"
    )


if __name__ == "__main__":
    main()
