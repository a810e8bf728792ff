"""`manage.py sample_data DESIGN --seed N [--items N] -o items.jsonl`: the
design's sample data as DynamoDB JSON lines."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from modeler.management.design_source import load_design
from modeler.sampledata import generate, write_jsonl


class Command(BaseCommand):
    help = "Write the design's sample data as DynamoDB JSON lines."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("design", help="a design YAML file, or a project id "
                            "or name")
        parser.add_argument("--seed", type=int, default=None,
                            help="sample data seed (default: the design's)")
        parser.add_argument("--items", type=int, default=None,
                            help="about this many items: the design's counts are "
                            "scaled to reach it")
        parser.add_argument("-o", "--output", default="-",
                            help="the file to write (default: stdout)")

    def handle(self, *args, design: str, seed: int | None, items: int | None,
               output: str, **options):  # type: ignore[no-untyped-def]
        loaded = load_design(design)
        seed = loaded.sample_data.seed if seed is None else seed
        dataset = generate(loaded, seed=seed)
        if items is not None and len(dataset.items) < items:
            scale = items / max(len(dataset.items), 1) * 1.1
            dataset = generate(loaded, seed=seed, scale=scale, limit=items)
        elif items is not None:
            dataset = generate(loaded, seed=seed, limit=items)
        stream = sys.stdout if output == "-" else open(output, "w", encoding="utf-8")  # noqa: SIM115
        try:
            for line in write_jsonl(dataset.items):
                stream.write(line + "\n")
        finally:
            if stream is not sys.stdout:
                stream.close()
        if output != "-":
            self.stderr.write(f"Wrote {len(dataset.items):,} items to {output}")
