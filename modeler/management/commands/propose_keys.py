"""`manage.py propose_keys DESIGN [--alternatives N] [--budget S] [-o FILE]`:
propose key designs for the design's access patterns, each simulated and
reviewed; exit 1 when no proposal serves every pattern cleanly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.designfile import dump_design
from modeler.management.design_source import add_design_arguments, load_design
from modeler.solver import (
    DEFAULT_ALTERNATIVES,
    DEFAULT_BUDGET,
    KeptKeysError,
    propose,
)
from modeler.solver.report import proposal_lines


class Command(BaseCommand):
    # Reads a design and prints: Django's system checks (the URL
    # configuration imported to check it) would add half a second to every run.
    requires_system_checks: list[str] = []
    help = (
        "Propose partition and sort keys and indexes from what each access "
        "pattern needs (its expects or needs), each proposal simulated and "
        "reviewed; the design's own keys are set aside. Exits 1 when no "
        "proposal serves every pattern without an error or warning."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_design_arguments(parser)
        parser.add_argument(
            "--alternatives",
            type=int,
            default=DEFAULT_ALTERNATIVES,
            help=f"how many proposals to show, best first (default "
            f"{DEFAULT_ALTERNATIVES}, 1 to 5)",
        )
        parser.add_argument(
            "--budget",
            type=float,
            default=DEFAULT_BUDGET,
            help=f"seconds of CPU to search and check for (default "
            f"{DEFAULT_BUDGET:g}); the best found so far is shown",
        )
        parser.add_argument(
            "--keep",
            default="",
            metavar="ENTITY[,ENTITY...]",
            help="keep these entities' table keys as the design has them and "
            "propose the rest around them",
        )
        parser.add_argument(
            "-o",
            "--output",
            default="",
            help="write the best proposal as a design file here",
        )

    def handle(
        self,
        *args: Any,
        design: str,
        alternatives: int,
        budget: float,
        keep: str,
        output: str,
        **options: Any,
    ) -> None:
        if not 1 <= alternatives <= 5:
            raise CommandError("--alternatives: expected a number from 1 to 5")
        if budget <= 0:
            raise CommandError("--budget: expected a positive number of seconds")
        loaded = load_design(design)
        kept = [name.strip() for name in keep.split(",") if name.strip()]
        try:
            proposal = propose(
                loaded, alternatives=alternatives, budget=budget, keep=kept
            )
        except KeptKeysError as exc:
            raise CommandError(f"--keep: {exc}") from None
        for line in proposal_lines(loaded, proposal):
            self.stdout.write(line)
        best = proposal.best
        if output and best is not None:
            Path(output).write_text(dump_design(best.design), encoding="utf-8")
            self.stdout.write(f"Wrote the best proposal to {output}.")
        if best is None or not best.proven:
            raise CommandError(
                "no proposal serves every access pattern without an error or "
                "warning (see above)",
                returncode=1,
            )
