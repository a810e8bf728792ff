"""`manage.py export_design PROJECT [-o FILE]`: a project's design as YAML."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from modeler.conversion import design_from_project, project_design_queryset
from modeler.designfile import dump_design


class Command(BaseCommand):
    help = "Write a project's design as YAML, to stdout or a file."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("project", help="the project's id or exact name")
        parser.add_argument("-o", "--output", default="-",
                            help="the file to write (default: stdout)")

    def handle(self, *args, project: str, output: str, **options):  # type: ignore[no-untyped-def]
        projects = project_design_queryset()
        if project.isdigit():
            found = list(projects.filter(pk=int(project)))
        else:
            found = list(projects.filter(name=project))
        if not found:
            raise CommandError(f"no project with id or name '{project}'")
        if len(found) > 1:
            ids = ", ".join(str(p.pk) for p in found)
            raise CommandError(f"{len(found)} projects are called '{project}' "
                               f"(ids {ids}); give the id")
        text = dump_design(design_from_project(found[0]))
        if output == "-":
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {output}")
