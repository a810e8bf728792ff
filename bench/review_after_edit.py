"""Editing a pattern's traffic on a large design: how long until the
Simulation and Review sections are current again.

The order-management example is loaded at 700,000 items (the loaded table
is kept between versions whose data is the same, `data_digest`). It prints
the CPU and wall seconds of the first run of all patterns and the first
review, then, after one pattern's traffic changes, of running the patterns
again and reviewing the new version: with the runs and the figures derived
from the data kept (as the workbench does), and side by side with both
dropped (as before). Issue 13's target: under 1 s.

    PYTHONPATH=. .venv/bin/python bench/review_after_edit.py
    BENCH_REVIEW_ITEMS=100000 ...    (a smaller run)
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.review.review import review_design, run_patterns
from modeler.simulation import Simulation

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "order-management.yaml"
TARGET_CPU = 1.0


def timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.process_time() - cpu, time.perf_counter() - started


def review(design: d.Design, simulation: Simulation) -> Any:
    simulation.design = design
    return review_design(design, simulation=simulation, runs=run_patterns(simulation))


def main() -> None:
    design = read_design(EXAMPLE.read_text()).design
    count = int(os.environ.get("BENCH_REVIEW_ITEMS", "700000"))
    simulation, cpu, wall = timed(lambda: Simulation(design, items=count))
    print(
        f"{len(simulation.items):,} items made and loaded: "
        f"{cpu:.2f} s CPU ({wall:.2f} s wall)"
    )
    _, cpu, wall = timed(lambda: review(design, simulation))
    print(f"first runs and review:            {cpu:6.2f} s CPU ({wall:.2f} s wall)")

    pattern = design.access_patterns[2]
    busier = dataclasses.replace(
        pattern, traffic=d.Traffic(rps=pattern.traffic.rps * 3, peak_rps=300)
    )
    edited = dataclasses.replace(
        design,
        access_patterns=tuple(
            busier if p is pattern else p for p in design.access_patterns
        ),
    )
    result, kept_cpu, kept_wall = timed(lambda: review(edited, simulation))
    print(
        f"after a traffic edit, kept:       {kept_cpu:6.2f} s CPU "
        f"({kept_wall:.2f} s wall);"
        f" target {TARGET_CPU} s: {kept_cpu / TARGET_CPU:.2f} of it"
        f" ({len(result.findings)} findings)"
    )
    simulation.forget_runs()
    simulation.derived.clear()
    _, cpu, wall = timed(lambda: review(edited, simulation))
    print(
        f"after a traffic edit, recomputed: {cpu:6.2f} s CPU ({wall:.2f} s wall);"
        f" keeping them is {cpu / max(kept_cpu, 1e-9):.1f}x faster"
    )


if __name__ == "__main__":
    main()
