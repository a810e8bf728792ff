"""`manage.py sample_data DESIGN --seed N [--items N] -o items.jsonl`: the
design's sample data as DynamoDB JSON lines."""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from modeler.design import Design
from modeler.management.design_source import load_design
from modeler.sampledata import MAX_ITEMS, SampleDataError, generate, write_jsonl

# Each attempt to reach --items scales the counts by what was missing and a
# margin; random child counts may still fall short, so it tries again.
SCALE_MARGIN = 1.1
SCALE_ATTEMPTS = 5


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


class Command(BaseCommand):
    help = (
        "Write the design's generated sample data as DynamoDB JSON lines, one "
        "item per line, each key once."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument(
            "design", help="a design YAML file, or a project id or name"
        )
        parser.add_argument(
            "--seed",
            type=int,
            default=None,
            help="sample data seed (default: the design's)",
        )
        parser.add_argument(
            "--items",
            type=positive_int,
            default=None,
            help="exactly this many items: the design's counts are scaled up "
            "to reach it, or the list is cut after the first N items "
            "(whole families first)",
        )
        parser.add_argument(
            "-o", "--output", default="-", help="the file to write (default: stdout)"
        )

    def handle(  # type: ignore[no-untyped-def]
        self,
        *args,
        design: str,
        seed: int | None,
        items: int | None,
        output: str,
        **options,
    ):
        if items is not None and items > MAX_ITEMS:
            raise CommandError(f"--items: at most {MAX_ITEMS:,}", returncode=1)
        loaded = load_design(design)
        seed = loaded.sample_data.seed if seed is None else seed
        try:
            found = sample_items(loaded, seed=seed, wanted=items)
        except SampleDataError as exc:
            raise CommandError(f"{design}: {exc}", returncode=1) from None
        if output == "-":
            for line in write_jsonl(found):
                self.stdout.write(line)
            return
        try:
            with open(output, "w", encoding="utf-8") as stream:
                for line in write_jsonl(found):
                    stream.write(line + "\n")
        except OSError as exc:
            raise CommandError(f"{output}: {exc.strerror}", returncode=1) from None
        self.stderr.write(f"Wrote {len(found):,} items to {output}")


def sample_items(
    design: Design, *, seed: int, wanted: int | None = None
) -> list[dict[str, Any]]:
    """The generated items, each table key once (a later item replaces an
    earlier one with the same key, as loading them in order would), and
    exactly `wanted` of them when given. Raises SampleDataError."""
    items = _distinct(design, generate(design, seed=seed).items)
    scale = 1.0
    for _ in range(SCALE_ATTEMPTS):
        if wanted is None or len(items) >= wanted or not items:
            break
        scale *= wanted / len(items) * SCALE_MARGIN
        items = _distinct(design, generate(design, seed=seed, scale=scale).items)
    if wanted is not None and len(items) < wanted:
        raise SampleDataError(
            f"the design's counts make {len(items):,} items, "
            f"not the {wanted:,} asked for"
        )
    return items if wanted is None else items[:wanted]


def _distinct(design: Design, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    names = [a.name for a in design.table.key_attributes]
    last = {tuple(item.get(n) for n in names): i for i, item in enumerate(items)}
    return [items[i] for i in sorted(last.values())]
