"""`manage.py sample_data DESIGN --seed N [--items N] -o items.jsonl`: the
design's sample data as DynamoDB JSON lines: the generated items and the
items the project's users typed or imported, as the simulator loads them."""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
from dataclasses import replace
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.design.model import Design, SampleData
from modeler.design_check.limits import check_sample_bytes
from modeler.management.design_source import add_design_arguments, load_design
from modeler.sampledata import (
    ItemStream,
    OwnItemsAfter,
    SampleDataError,
    generate,
    max_items,
    with_own_items,
    write_jsonl_blocks,
)


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


class Command(BaseCommand):
    # Reads a design and writes a file: Django's system checks would only
    # add a second to every run.
    requires_system_checks: list[str] = []
    help = (
        "Write the design's sample data as DynamoDB JSON lines, one item per "
        "line, each key once: the generated items, then the items the "
        "project's users typed or imported (which replace a generated item "
        "with the same key), as the simulator loads them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_design_arguments(parser, seed=True)
        parser.add_argument(
            "--items",
            type=positive_int,
            default=None,
            help="exactly this many generated items: the design's counts are "
            "scaled up to reach it, or the list is cut after the first N items "
            "(whole families first); the users' own items come on top",
        )
        parser.add_argument(
            "--generated-only",
            action="store_true",
            help="leave out the items the project's users typed or imported",
        )
        parser.add_argument(
            "-o", "--output", default="-", help="the file to write (default: stdout)"
        )

    def handle(
        self,
        *args: Any,
        design: str,
        seed: int | None,
        items: int | None,
        output: str,
        generated_only: bool,
        **options: Any,
    ) -> None:
        if items is not None and items > max_items():
            raise CommandError(f"--items: at most {max_items():,}", returncode=1)
        loaded = load_design(design)
        seed = loaded.sample_data.seed if seed is None else seed
        # Refused before any item is made, as the site refuses the design.
        for problem in check_sample_bytes(loaded, seed=seed, items=items):
            raise CommandError(f"{design}: {problem.message}", returncode=1)
        if generated_only:
            loaded = replace(loaded, sample_data=SampleData(seed))
        # A file of its own (not stdout, a device, a pipe or a link) is
        # written as the items are made, and can be written again or removed.
        if output != "-" and (
            not os.path.lexists(output)
            or (os.path.isfile(output) and not os.path.islink(output))
        ):
            written = self._write_file(design, loaded, seed, items, output)
            self.stderr.write(f"Wrote {written:,} items to {output}")
            return
        try:
            found = sample_items(loaded, seed=seed, wanted=items)
        except SampleDataError as exc:
            raise CommandError(f"{design}: {exc}", returncode=1) from None
        if output == "-":
            for block in write_jsonl_blocks(found):
                self.stdout.write(block, ending="")
            return
        try:
            with open(output, "w", encoding="utf-8") as stream:
                for block in write_jsonl_blocks(found):
                    stream.write(block)
        except OSError as exc:
            raise CommandError(f"{output}: {exc.strerror}", returncode=1) from None
        self.stderr.write(f"Wrote {len(found):,} items to {output}")

    def _write_file(
        self, argument: str, design: Design, seed: int, wanted: int | None, output: str
    ) -> int:
        """Writes the items to a file as they are made (`ItemStream`), never
        all of them held; returns how many. They go to a hidden file beside
        `output`, which replaces it once every item is written: a generation
        that fails on the way (or an interrupt) leaves the file that was
        there as it was, and no half file."""
        folder, name = os.path.split(os.path.abspath(output))
        partial = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
        try:
            with open(partial, "x", encoding="utf-8") as file:
                written = _stream_items(file, design, seed, wanted)
            os.replace(partial, output)
        except SampleDataError as exc:
            raise CommandError(f"{argument}: {exc}", returncode=1) from None
        except OSError as exc:
            raise CommandError(f"{output}: {exc.strerror}", returncode=1) from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.remove(partial)
        return written


def _stream_items(file: TextIO, design: Design, seed: int, wanted: int | None) -> int:
    """Writes the items to `file` as they are made; returns how many.
    Should two generated items share a key (a design whose keys run out),
    the file is written again from the whole list, where the later replaces
    the earlier. Raises SampleDataError."""
    generated = ItemStream(design, seed=seed, items=wanted)
    items = OwnItemsAfter(design, generated)
    for block in write_jsonl_blocks(items):
        file.write(block)
    check_count(generated.count, wanted)
    if generated.distinct_keys:
        return generated.count - items.dropped + len(items.own)
    file.seek(0)
    file.truncate()
    found = sample_items(design, seed=seed, wanted=wanted)
    for block in write_jsonl_blocks(found):
        file.write(block)
    return len(found)


def check_count(made: int, wanted: int | None) -> None:
    """Raises SampleDataError when fewer items were made than asked for."""
    if wanted is not None and made < wanted:
        raise SampleDataError(
            f"the design's counts make {made:,} items, not the {wanted:,} asked for"
        )


def sample_items(
    design: Design, *, seed: int, wanted: int | None = None
) -> list[dict[str, Any]]:
    """The generated items, exactly `wanted` of them when given, then the
    design's own items, each table key once as the simulator loads them.
    Raises SampleDataError."""
    # The command generates once: nothing is kept for a next generation.
    dataset = generate(design, seed=seed, items=wanted, keep=False)
    check_count(len(dataset), wanted)
    return with_own_items(design, dataset).items
