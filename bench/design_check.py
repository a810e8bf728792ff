"""Checking a large design: time per entity stays flat as the design grows.

A design of N entities (N = 250, 1,000, 3,000), each with five attributes,
partition and sort key templates, a GSI key, one sparse key on a second GSI,
and one Query pattern per entity, is read from its YAML (parse, build and
check, as an import does) and checked on its own (`check_design`, as every
editor save does). Per size: CPU and wall time, time per entity, and the
ratio of the time per entity to that of the smallest size (1.0 is linear;
the former checks were quadratic: 1,000 entities took 21 s, 3,000 killed
the worker). The last column checks again with Python's cyclic garbage
collector paused: what growth remains in the check's time per entity is the
collector walking the larger heap (reading pauses it; see
modeler/designfile/reading.py).
The design limits are lifted for the run (the default allows 1,000
entities).

    make bench      (or: PYTHONPATH=. .venv/bin/python bench/design_check.py)
"""

from __future__ import annotations

import gc
import time

import yaml

from modeler.design_check import check_design, limits
from modeler.designfile import read_design

SIZES = (250, 1_000, 3_000)


def design_yaml(entities: int) -> str:
    document: dict = {
        "format": "single-table-workbench/v1",
        "name": f"{entities} entities",
        "table": {
            "name": "big-table",
            "partition_key": {"name": "PK", "type": "S"},
            "sort_key": {"name": "SK", "type": "S"},
            "indexes": [
                {
                    "name": "GSI1",
                    "kind": "global",
                    "partition_key": {"name": "GSI1PK", "type": "S"},
                    "sort_key": {"name": "GSI1SK", "type": "S"},
                },
                {
                    "name": "GSI2",
                    "kind": "global",
                    "partition_key": {"name": "GSI2PK", "type": "S"},
                    "projection": "KEYS_ONLY",
                },
            ],
        },
        "entities": {},
        "access_patterns": [],
    }
    for n in range(entities):
        name = f"Entity{n}"
        document["entities"][name] = {
            "attributes": {
                "id": {"type": "S", "generator": "ulid"},
                "ownerId": {"type": "S", "generator": "ulid"},
                "createdAt": {
                    "type": "S",
                    "generator": {"date": {"from": "2025-01-01", "to": "2025-12-31"}},
                },
                "status": {"type": "S", "generator": {"choice": ["OPEN", "DONE"]}},
                "amount": {"type": "N", "generator": {"int": {"min": 1, "max": 99}}},
            },
            "keys": {
                "PK": f"E{n}#{{ownerId}}",
                "SK": f"E{n}#{{createdAt}}#{{id}}",
                "GSI1PK": f"E{n}#{{id}}",
                "GSI1SK": "{createdAt}",
                "GSI2PK": {"template": f"OPEN#E{n}", "when": "status = OPEN"},
            },
            "sample": {"count": 1},
        }
        document["access_patterns"].append(
            {
                "name": f"{name} of an owner, newest first",
                "operation": "Query",
                "key": {"PK": f"E{n}#{{ownerId}}", "SK": {"begins_with": f"E{n}#"}},
                "scan_forward": False,
                "expects": {"entity": name, "where": {"ownerId": "{ownerId}"}},
            }
        )
    return yaml.safe_dump(document, sort_keys=False)


def timed(action) -> tuple[object, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = action()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    lifted = limits.DesignLimits(entities=10_000, patterns=10_000)
    print(
        "entities   read+check CPU (wall)      per entity   check CPU (wall)"
        "         per entity   ratio to first"
    )
    first = None
    with limits.configured(lifted):
        for size in SIZES:
            text = design_yaml(size)
            result, read_cpu, read_wall = timed(
                lambda t=text: read_design(t, max_bytes=len(t.encode()))
            )
            if result.design is None:
                raise SystemExit(f"{size} entities: {result.problems[:3]}")
            problems, cpu, wall = timed(lambda d=result.design: check_design(d))
            gc.disable()
            _, paused_cpu, _ = timed(lambda d=result.design: check_design(d))
            gc.enable()
            errors = [p for p in problems if p.is_error]
            if errors:
                raise SystemExit(f"{size} entities: {errors[:3]}")
            per_entity = cpu / size
            first = first or per_entity
            print(
                f"{size:>8}   {read_cpu:7.2f} s ({read_wall:7.2f} s)   "
                f"{read_cpu / size * 1000:7.2f} ms   {cpu:7.2f} s ({wall:7.2f} s)"
                f"   {per_entity * 1000:7.2f} ms   {per_entity / first:5.2f}"
                f"   {paused_cpu / size * 1000:7.2f} ms"
            )


if __name__ == "__main__":
    main()
