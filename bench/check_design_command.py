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

from simulate_command import run_scaled

TARGET_CPU = {1_000_000: 15.0}


def main() -> None:
    items = int(os.environ.get("BENCH_CHECK_ITEMS", "1000000"))
    run = run_scaled("check_design", items)
    print(run.done.stdout.rstrip().replace(run.path, "DESIGN"))
    target = TARGET_CPU.get(items)
    cpu = run.cpu
    against = f"; target {target} s: {cpu / target:.2f} of it" if target else ""
    print(
        f"manage.py check_design at about {items:,} items (the example makes "
        f"{run.made:,}): {cpu:.2f} s CPU ({run.wall:.2f} s wall), exit "
        f"{run.done.returncode}, peak memory {run.peak_mb:,.0f} MB{against}"
    )


if __name__ == "__main__":
    main()
