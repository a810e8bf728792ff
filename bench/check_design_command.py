"""The whole `manage.py check_design` command on a large design, as a user
runs it: Django's start, reading and checking the design file, generating
and loading the sample data, simulating every access pattern and reviewing
the design.

The order-management example is scaled up as bench/simulate_command.py
scales it (its root entity's count raised so that the design makes about
1,000,000 items) and the command runs in a child process with
SAMPLE_MAX_ITEMS raised; its CPU time (user and system, from the operating
system's account of the child) is printed beside the wall time, with its
peak resident memory. Issue 36's target: under 15 s CPU at 1M items
(26-35 s before it).

    PYTHONPATH=. .venv/bin/python bench/check_design_command.py
    BENCH_CHECK_ITEMS=100000 ...    (a smaller run)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simulate_command import EXAMPLE, ROOT, children_cpu, scaled_design

TARGET_CPU = {1_000_000: 15.0}


def main() -> None:
    items = int(os.environ.get("BENCH_CHECK_ITEMS", "1000000"))
    text, made = scaled_design(EXAMPLE.read_text(), items)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "order-management-scaled.yaml"
        path.write_text(text)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "SAMPLE_MAX_ITEMS": str(2 * items),
        }
        started, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(  # noqa: S603 - a fixed command line
            [sys.executable, str(ROOT / "manage.py"), "check_design", str(path)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        wall, cpu = time.perf_counter() - started, children_cpu() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(done.stdout.rstrip().replace(str(path), "DESIGN"))
    if done.returncode not in (0, 1) or done.stderr.strip():
        print(done.stderr.rstrip(), file=sys.stderr)
    target = TARGET_CPU.get(items)
    against = f"; target {target} s: {cpu / target:.2f} of it" if target else ""
    print(
        f"manage.py check_design at about {items:,} items (the example makes "
        f"{made:,}): {cpu:.2f} s CPU ({wall:.2f} s wall), exit "
        f"{done.returncode}, peak memory {peak_mb:,.0f} MB{against}"
    )


if __name__ == "__main__":
    main()
