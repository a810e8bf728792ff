"""`manage.py check_design FILE|PROJECT`: every problem of a design file (or
of a project) and the design review's findings; exit 1 on an error (a
pattern that does not return what it promises is one, and so is a design
whose sample data cannot be made, since then nothing was simulated), so a
design kept in git can gate CI. A file needs no database."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.design.findings import has_errors
from modeler.design.model import Design
from modeler.design_check import check_design
from modeler.designfile import ReadResult
from modeler.management.collector import collector_off_while_built, heap_frozen
from modeler.management.design_files import read_design_file
from modeler.management.design_help import is_file_argument
from modeler.management.design_source import (
    add_design_arguments,
    design_from_project_argument,
)
from modeler.management.process_end import end_quickly
from modeler.review import Prices, PricesError, review_design
from modeler.review.review import Review
from modeler.sampledata import SampleDataError
from modeler.simulation import Simulation


def _read(source: str) -> ReadResult:
    """A design file, or a project of the database (checked as it is
    stored: a project can be saved with problems while it is worked on)."""
    if is_file_argument(source):
        return read_design_file(source)
    design = design_from_project_argument(source, or_file=True)
    return ReadResult(design, tuple(check_design(design)))


class Command(BaseCommand):
    help = (
        "Check a design file and review it (simulating every access pattern); "
        "prints every problem and finding and exits 1 on an error."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        add_design_arguments(parser)
        parser.add_argument(
            "--no-review",
            action="store_true",
            help="only check the file's structure and rules; do not simulate "
            "and review the design",
        )
        parser.add_argument(
            "--cost",
            action="store_true",
            help="also print the capacity and monthly cost of each pattern and "
            "of the table",
        )
        parser.add_argument(
            "--stored-items",
            type=int,
            metavar="N",
            help="items the table will hold, for the storage cost (default: "
            "as many as the sample data)",
        )

    def handle(self, *args: Any, design: str, **options: Any) -> None:
        stored = options.get("stored_items")
        if stored is not None and stored < 0:
            raise CommandError("--stored-items must be 0 or more")
        source = design  # the DESIGN argument as given, a file or a project
        result = _read(source)
        for problem in result.problems:
            line = f":{problem.line}" if problem.line else ""
            self.stdout.write(
                f"{source}{line}: {problem.severity}: {problem.path}: {problem.message}"
            )
        errors = sum(p.is_error for p in result.problems)
        others = len(result.problems) - errors
        review = None
        if result.design is not None and not options.get("no_review"):
            review = self._review(result.design, stored)
            if review.simulation_problem:
                # A review that could not simulate has not checked what the
                # patterns return: the gate does not pass on it.
                self.stdout.write(
                    f"{source}: error: sample_data: not simulated: "
                    f"{review.simulation_problem}"
                )
                errors += 1
            # The review applies some of the design check's rules too: a
            # finding of a rule the check already reported is printed once.
            reported = {p.code for p in result.problems}
            shown = [f for f in review.findings if f.code not in reported]
            for found in shown:
                self.stdout.write(f"{source}: {found}")
            errors += sum(f.is_error for f in shown)
            others += sum(not f.is_error for f in shown)
            if options.get("cost"):
                self._print_cost(review)
        summary = f"{errors} error{'s' * (errors != 1)}, {others} other problem" + (
            "s" * (others != 1)
        )
        if has_errors(result.problems) or errors:
            raise CommandError(f"{source}: {summary}", returncode=1)
        name = result.design.name if result.design else ""
        # A project named on the command line is not named twice.
        named = f"{source}: {name}" if name != source else source
        self.stdout.write(self.style.SUCCESS(f"{named}: no errors ({summary})"))

    def _review(self, design: Design, stored: int | None) -> Review:
        try:
            prices = Prices.from_mapping(settings.DYNAMODB_PRICES)
        except PricesError as exc:
            raise CommandError(f"settings.DYNAMODB_PRICES: {exc}") from None
        try:
            # The command simulates once: the items made are not kept for a
            # next generation (packing them was 4% of a check at 1M items).
            with collector_off_while_built():
                simulation = Simulation(design, keep=False)
            # The simulation is not freed object by object at the end.
            end_quickly()
        except Exception as exc:
            # Without a simulation the checks that need none still run.
            problem = (
                f"the sample data cannot be made or loaded: {exc}"
                if isinstance(exc, (SampleDataError, ClientError, ValueError))
                else f"the simulator failed ({type(exc).__name__}: {exc})"
            )
            return review_design(
                design, prices=prices, stored_items=stored, simulation_problem=problem
            )
        with heap_frozen():
            return review_design(
                design, simulation=simulation, prices=prices, stored_items=stored
            )

    def _print_cost(self, review: Review) -> None:
        cost = review.cost
        prices = cost.prices
        self.stdout.write(
            f"\nCapacity at the stated traffic (prices for {prices.region} as of "
            f"{prices.taken.isoformat()}):"
        )
        width = max([len(p.name) for p in cost.patterns] + [7])
        self.stdout.write(
            f"  {'pattern':<{width}}  kind   units/req    avg u/s    peak u/s  "
            "on-demand $/month"
        )
        for pattern in cost.patterns:
            per_request = "not run" if pattern.units is None else f"{pattern.units:g}"
            self.stdout.write(
                f"  {pattern.name:<{width}}  {pattern.kind:<5}  {per_request:>9}  "
                f"{pattern.average:>9,.2f}  {pattern.peak:>10,.2f}  "
                f"{pattern.monthly_on_demand(prices):>17,.2f}"
            )
        for line in review.summary()[2:]:
            self.stdout.write(line)
