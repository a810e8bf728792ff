"""`manage.py export_design PROJECT [-o FILE]`: a project's design as YAML."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from modeler.designfile import dump_design
from modeler.management.design_source import design_from_project_argument


class Command(BaseCommand):
    help = "Write a project's design as YAML, to stdout or a file."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("project", help="the project's id or exact name")
        parser.add_argument("-o", "--output", default="-",
                            help="the file to write (default: stdout)")

    def handle(self, *args, project: str, output: str, **options):  # type: ignore[no-untyped-def]
        text = dump_design(design_from_project_argument(project))
        if output == "-":
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {output}")
