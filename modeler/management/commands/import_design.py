"""`manage.py import_design FILE[#TABLE] --owner USER [--project NAME]`: a
design YAML file, or a NoSQL Workbench model, OneTable schema, DynamoDB MCP
server data model (dynamodb_data_model.json), CloudFormation template or
Terraform configuration (a project per table, at most IMPORT_MAX_TABLES, or
of the one table named)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.management.design_files import read_design_files
from modeler.services.projects import project_import_designs


class Command(BaseCommand):
    help = (
        "Create a project from a design file (YAML), or a project per table of a "
        "NoSQL Workbench model, a DynamoDB MCP server data model, a CloudFormation "
        "template or a Terraform file, or from a OneTable schema; "
        "nothing is created on an error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            help="a design YAML file, a NoSQL Workbench model, a OneTable schema, "
            "a DynamoDB MCP server data model, a CloudFormation "
            "template or a Terraform file, or - for stdin; FILE#TABLE imports "
            "only that table of a file of several",
        )
        parser.add_argument("--owner", required=True, help="the owner's username")
        parser.add_argument(
            "--project",
            default="",
            help="the project's name (default: the name in the file; with "
            "several tables, NAME — TABLE)",
        )

    def handle(
        self, *args: Any, file: str, owner: str, project: str, **options: Any
    ) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user is called '{owner}'")
        found = read_design_files(file)
        for problem in found.problems:
            line = f":{problem.line}" if problem.line else ""
            self.stderr.write(
                f"{file}{line}: {problem.severity}: {problem.path}: {problem.message}"
            )
        if not found.ok:
            raise CommandError(
                f"{file}: not imported; fix the errors above", returncode=1
            )
        for note in found.notes:
            self.stderr.write(f"{file}: note: {note}")
        created = project_import_designs(
            owner=user, designs=found.designs, name=project
        )
        for made in created:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Imported {file} as project {made.pk} “{made.name}” owned by "
                    f"{owner}"
                )
            )
