"""import_table's reading and inference at 100,000 items, against dynalite
(DynamoDB in Node.js, installed with npm into `var/bench-node/` the first
time; see engine_vs_dynalite.py).

It loads the order-management example's sample data, scaled to 100,000
items, into a table on dynalite, then imports the table as import_table
does: DescribeTable and its companions, a parallel Scan of 4 segments, and
the inference of entities and key templates. It prints wall and CPU time of
each phase for a sample of 1,000 and of all 100,000 items, side by side,
and whether the inferred key templates are the example's (names aside).

    PYTHONPATH=. .venv/bin/python bench/live_import.py
    BENCH_LIVE_ITEMS=10000 ...     (a smaller run)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
django.setup()

# bench/ is the script's own directory, first on its path.
from engine_vs_dynalite import dynalite_client

from modeler.designfile import read_design
from modeler.importers.live import (
    read_live_table,
    table_properties,
)
from modeler.infra.dynamodb import (
    Endpoint,
    describe_live_table,
    sample_items,
)
from modeler.management.commands.sample_data import sample_items as generated
from modeler.services.projects import OWN_ITEMS_MAX

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "order-management.yaml"


def templates(design) -> set[frozenset]:  # type: ignore[no-untyped-def]
    return {
        frozenset((k, v.template, v.when) for k, v in e.keys.items())
        for e in design.entities
    }


def timed(call):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    count = int(os.environ.get("BENCH_LIVE_ITEMS", "100000"))
    design = read_design(EXAMPLE.read_text()).design
    items = generated(design, seed=design.sample_data.seed, wanted=count)
    with dynalite_client() as client:
        if client is None:
            print("skipped: node and npm are needed to run dynalite")
            return
        endpoint = Endpoint(design, client, table_name="orders-live")
        endpoint.create_table()
        _, load_wall, _ = timed(lambda: endpoint.load(items))
        print(
            f"loaded {len(items):,} items into dynalite in {load_wall:.1f} s "
            f"({len(items) / load_wall:,.0f} items/s)"
        )
        print(f"{'sample':>8}{'phase':>12}{'wall s':>9}{'CPU s':>8}{'items/s':>10}")
        for sample in (1_000, count):
            live, wall, cpu = timed(lambda: describe_live_table(client, "orders-live"))
            print(f"{sample:>8,}{'describe':>12}{wall:>9.2f}{cpu:>8.2f}")
            found, wall, cpu = timed(
                lambda s=sample: sample_items(client, "orders-live", sample=s)
            )
            print(
                f"{sample:>8,}{'scan':>12}{wall:>9.2f}{cpu:>8.2f}"
                f"{len(found.items) / wall:>10,.0f}"
            )
            result, wall, cpu = timed(
                lambda f=found, lv=live: read_live_table(
                    table_properties(lv.description, ttl=lv.ttl, tags=lv.tags),
                    f.items,
                    keep=OWN_ITEMS_MAX,
                )
            )
            print(
                f"{sample:>8,}{'infer':>12}{wall:>9.2f}{cpu:>8.2f}"
                f"{len(found.items) / wall:>10,.0f}"
            )
            same = result.ok and templates(result.designs[0]) == templates(design)
            print(
                f"{'':>8}{len(found.items):,} items read; the example's key "
                f"templates {'inferred' if same else 'NOT inferred'}"
            )


if __name__ == "__main__":
    sys.exit(main())
