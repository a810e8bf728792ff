"""`manage.py import_design FILE --owner USER [--project NAME]`."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from modeler.management.design_source import read_design_file
from modeler.services import project_create


class Command(BaseCommand):
    help = "Create a project from a design file; nothing is created on an error."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("file", help="a design YAML file, or - for stdin")
        parser.add_argument("--owner", required=True, help="the owner's username")
        parser.add_argument("--project", default="", help="the project's name "
                            "(default: the name in the file)")

    def handle(self, *args, file: str, owner: str, project: str, **options):  # type: ignore[no-untyped-def]
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user is called '{owner}'")
        result = read_design_file(file)
        for problem in result.problems:
            line = f":{problem.line}" if problem.line else ""
            self.stderr.write(f"{file}{line}: {problem.severity}: {problem.path}: "
                              f"{problem.message}")
        if result.design is None:
            raise CommandError(f"{file}: not imported; fix the errors above",
                               returncode=1)
        design = result.design
        if project:
            design = type(design)(**{**design.__dict__, "name": project})
        created = project_create(owner=user, design=design)
        self.stdout.write(self.style.SUCCESS(
            f"Imported {file} as project {created.pk} “{created.name}” owned by "
            f"{owner}"
        ))
