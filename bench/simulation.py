"""Running every access pattern of a design at scale: the parameter search,
the expected items and the further draws, with the lookups built once per
data set against a pass over every item per candidate (the way before),
measured side by side on the same data set.

The order-management example is generated at each size; for each it prints
the CPU and wall seconds to make and load the data, then to run all its
patterns (`Simulation.run_all`, draws included) with lookups and, at the
sizes where it finishes in reasonable time, with a full pass per candidate.
Issue 13's target: all patterns at 1,000,000 items under 3 s CPU after the
load (20 s before this change, with fewer candidates and draws).

    PYTHONPATH=. .venv/bin/python bench/simulation.py
    BENCH_SIMULATION_ITEMS=100000 ...      (sizes, comma-separated)
    BENCH_SIMULATION_REFERENCE=100000 ...  (largest size also run the old way)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modeler.designfile import read_design
from modeler.simulation import Simulation
from modeler.simulation.expectations import Lookups

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "order-management.yaml"
TARGET_CPU = {1_000_000: 3.0}


class FullPass(Lookups):
    """The way before: every candidate examined against every item."""

    def of_entities(self, names: Any) -> Any:
        return range(len(self.items))

    def candidates(self, expects: Any, rendered: Any) -> None:
        return None


def timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.process_time() - cpu, time.perf_counter() - started


def main() -> None:
    design = read_design(EXAMPLE.read_text()).design
    sizes = os.environ.get("BENCH_SIMULATION_ITEMS", "100000,1000000")
    reference_up_to = int(os.environ.get("BENCH_SIMULATION_REFERENCE", "100000"))
    for count in [int(n) for n in sizes.split(",") if n]:
        simulation, cpu, wall = timed(lambda c=count: Simulation(design, items=c))
        print(
            f"{len(simulation.items):>9,} items: made and loaded in {cpu:6.2f} s CPU "
            f"({wall:.2f} s wall)"
        )
        runs, cpu, wall = timed(simulation.run_all)
        passed = sum(run.passed for run in runs)
        draws = sum(run.draws for run in runs)
        target = TARGET_CPU.get(count)
        against = f"; target {target} s: {cpu / target:.2f} of it" if target else ""
        print(
            f"    all {len(runs)} patterns with lookups: {cpu:6.2f} s CPU "
            f"({wall:.2f} s wall), {passed} passed, {draws} draws{against}"
        )
        if count <= reference_up_to:
            lookups = simulation.lookups
            simulation.lookups = FullPass(simulation.items, simulation.entities)
            simulation.forget_runs()
            _runs, old_cpu, old_wall = timed(simulation.run_all)
            simulation.lookups = lookups
            print(
                f"    all {len(runs)} patterns, a pass per candidate: "
                f"{old_cpu:6.2f} s CPU ({old_wall:.2f} s wall); "
                f"lookups are {old_cpu / max(cpu, 1e-9):.1f}x faster"
            )


if __name__ == "__main__":
    main()
