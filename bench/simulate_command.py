"""The whole `manage.py simulate` command on a large design, as a user runs
it: Django's start, reading the design file, generating and loading the
sample data, running every access pattern and printing the results.

The order-management example is written to a temporary file with its root
entity's count raised so that the design makes about 700,000 items, and the
command runs in a child process, with SAMPLE_MAX_ITEMS raised to allow
them; its CPU time (user and system, from the operating system's account of
the child) is printed beside the wall time, with its peak resident memory.
Issue 13's target: under 15 s CPU at 700k items (41 s before); issue 36's:
under 12 s (19.7-23 s before).

    PYTHONPATH=. .venv/bin/python bench/simulate_command.py
    BENCH_COMMAND_ITEMS=100000 ...    (a smaller run)
    BENCH_COMMAND_ITEMS=10000000 ...  (issue 36: under 240 s CPU and 8 GB;
                                       about 9 minutes on 2 busy cores)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from modeler.designfile import read_design
from modeler.sampledata import generate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "order-management.yaml"
TARGET_CPU = {700_000: 12.0, 10_000_000: 240.0}
# Issue 36: ten million items in under 8 GB.
TARGET_PEAK_MB = {10_000_000: 8192}


def scaled_design(text: str, items: int) -> tuple[str, int]:
    """The example's YAML with the root entity's count multiplied so that the
    design makes about `items` items, and how many it makes at its own count.
    The factor is taken from the design made at ten times its count (the
    number of children per parent is drawn, so a small sample is a poor
    guide)."""
    design = read_design(text).design
    made = len(generate(design))
    factor = 10 * items / len(generate(design, scale=10))
    data = yaml.safe_load(text)
    roots = [
        entity
        for entity in data["entities"].values()
        if "per" not in entity.get("sample", {})
    ]
    for entity in roots:
        entity["sample"]["count"] = round(entity["sample"]["count"] * factor)
    return yaml.safe_dump(data, sort_keys=False), made


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Run:
    """A command's run on the scaled example: its answer, CPU and wall
    seconds, peak memory, and how many items the example makes unscaled."""

    done: subprocess.CompletedProcess[str]
    cpu: float
    wall: float
    peak_mb: float
    made: int
    path: str


def run_scaled(command: str, items: int) -> Run:
    """`manage.py COMMAND FILE` in a child process, FILE the example scaled
    to about `items` items, with the limits on sample data raised to allow
    them."""
    text, made = scaled_design(EXAMPLE.read_text(), items)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "order-management-scaled.yaml"
        path.write_text(text)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "SAMPLE_MAX_ITEMS": str(2 * items),
            # Past a few million items the sample's bytes pass the default.
            "SAMPLE_MAX_BYTES": str(max(250_000_000, 1000 * items)),
        }
        started, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(  # noqa: S603 - a fixed command line
            [sys.executable, str(ROOT / "manage.py"), command, str(path)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        wall, cpu = time.perf_counter() - started, children_cpu() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if done.returncode not in (0, 1) or done.stderr.strip():
        print(done.stderr.rstrip(), file=sys.stderr)
    return Run(done, cpu, wall, peak_mb, made, str(path))


def main() -> None:
    items = int(os.environ.get("BENCH_COMMAND_ITEMS", "700000"))
    run = run_scaled("simulate", items)
    print(run.done.stdout.rstrip())
    cpu, peak_mb = run.cpu, run.peak_mb
    target = TARGET_CPU.get(items)
    against = f"; target {target} s: {cpu / target:.2f} of it" if target else ""
    most = TARGET_PEAK_MB.get(items)
    if most:
        against += f"; peak target {most:,} MB: {peak_mb / most:.2f} of it"
    print(
        f"manage.py simulate at about {items:,} items (the example makes "
        f"{run.made:,}): {cpu:.2f} s CPU ({run.wall:.2f} s wall), exit "
        f"{run.done.returncode}, peak memory {peak_mb:,.0f} MB{against}"
    )


if __name__ == "__main__":
    main()
