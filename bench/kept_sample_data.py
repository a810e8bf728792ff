"""Sample data made again after an edit: only the entities the edit touches.

The order-management example at 100,000 items (BENCH_KEPT_ITEMS for another
size) is generated from nothing, then again unchanged (a pattern, traffic or
description edit: every entity kept), then with one attribute of LineItem
edited (LineItem made again, Customer and Order kept), then the same edited
design with nothing kept. It prints the CPU time beside the wall time of
each, and each against the generation from nothing.

    PYTHONPATH=. .venv/bin/python bench/kept_sample_data.py
"""

from __future__ import annotations

import importlib
import os
import time
from dataclasses import replace
from pathlib import Path

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.sampledata import generate

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "order-management.yaml"
generate_module = importlib.import_module("modeler.sampledata.generate")


def timed(label: str, design: d.Design, items: int, baseline: float | None) -> float:
    cpu, wall = time.process_time(), time.perf_counter()
    dataset = generate(design, items=items)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    against = f"{cpu / baseline:5.2f} of it" if baseline else "the baseline"
    print(
        f"{label:<34} {cpu:6.2f} s CPU {wall:6.2f} s wall "
        f"{len(dataset):>9,} items  {against}"
    )
    return cpu


def with_quantity_edited(design: d.Design) -> d.Design:
    quantity = d.Generator("int", d.freeze({"min": 1, "max": 9}))
    entities = []
    for entity in design.entities:
        if entity.name == "LineItem":
            attributes = tuple(
                replace(a, generator=quantity) if a.name == "quantity" else a
                for a in entity.attributes
            )
            entity = replace(entity, attributes=attributes)
        entities.append(entity)
    return replace(design, entities=tuple(entities))


def main() -> None:
    items = int(os.environ.get("BENCH_KEPT_ITEMS", "100000"))
    design = read_design(EXAMPLE.read_text()).design
    edited = with_quantity_edited(design)
    generate_module.forget_kept_items()
    cold = timed("from nothing", design, items, None)
    timed("unchanged (all kept)", design, items, cold)
    timed("LineItem edited (2 of 3 kept)", edited, items, cold)
    generate_module.forget_kept_items()
    timed("LineItem edited, nothing kept", edited, items, cold)


if __name__ == "__main__":
    main()
