"""`manage.py check_design FILE`: every problem of a design file; exit 1 on
an error, so a design kept in git can gate CI. Needs no database."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from modeler.management.design_source import read_design_file
from modeler.problems import has_errors


class Command(BaseCommand):
    help = "Check a design file and print every problem; exits 1 on an error."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("file", help="a design YAML file, or - for stdin")

    def handle(self, *args, file: str, **options):  # type: ignore[no-untyped-def]
        result = read_design_file(file)
        for problem in result.problems:
            line = f":{problem.line}" if problem.line else ""
            self.stdout.write(f"{file}{line}: {problem.severity}: {problem.path}: "
                              f"{problem.message}")
        errors = sum(p.is_error for p in result.problems)
        others = len(result.problems) - errors
        summary = f"{errors} error{'s' * (errors != 1)}, {others} other problem" + (
            "s" * (others != 1)
        )
        if has_errors(result.problems):
            raise CommandError(f"{file}: {summary}", returncode=1)
        name = result.design.name if result.design else ""
        self.stdout.write(self.style.SUCCESS(f"{file}: {name}: no errors ({summary})"))
