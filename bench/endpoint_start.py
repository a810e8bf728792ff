"""Cold start of the DynamoDB endpoint as a user meets it: each command is
started, and timed to the line saying it is ready (wall) with the CPU its
process had used by then; runs alternate between the commands, and the
median is printed.

    PYTHONPATH=. .venv/bin/python bench/endpoint_start.py [RUNS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
COMMANDS = {
    "manage.py serve_dynamodb": [sys.executable, "manage.py", "serve_dynamodb"],
    "python -m modeler.endpoint": [sys.executable, "-m", "modeler.endpoint"],
}


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds from the start to the ready line."""
    begun = time.perf_counter()
    process = subprocess.Popen(  # noqa: S603 - a fixed command line
        [*command, "--address", "127.0.0.1:0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        for line in process.stdout:
            if "DynamoDB endpoint on" in line:
                return time.perf_counter() - begun, cpu_seconds(process.pid)
        raise SystemExit(f"{command}: ended without a ready line")
    finally:
        process.terminate()
        process.wait()
        process.stdout.close()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for command in COMMANDS.values():
        start(command)  # warm-up: the file cache, .pyc files
    for _ in range(runs):
        for name, command in COMMANDS.items():
            figures[name].append(start(command))
    load = os.getloadavg()[0]
    print(f"cold start to the ready line, median of {runs} (min-max); load {load:.1f}")
    for name, runs_of in figures.items():
        walls = [wall for wall, _ in runs_of]
        cpus = [cpu for _, cpu in runs_of]
        print(
            f"{name:<28} wall {statistics.median(walls):.2f} s "
            f"({min(walls):.2f}-{max(walls):.2f})  CPU {statistics.median(cpus):.2f} s "
            f"({min(cpus):.2f}-{max(cpus):.2f})"
        )


if __name__ == "__main__":
    main()
