"""The DESIGN argument of the management commands: a design file (read by
`design_files`), or a project of the database by id or exact name."""

from __future__ import annotations

from argparse import ArgumentParser

from django.conf import settings
from django.core.management.base import CommandError

from modeler.design.model import Design
from modeler.management.design_files import design_from_file
from modeler.management.design_help import DESIGN_HELP, is_file_argument


def design_from_project_argument(project: str, *, or_file: bool = False) -> Design:
    # Imported here: the models need django.setup(), which a design file
    # does not (`file_start`).
    from modeler.conversion import design_from_project, project_design_queryset

    projects = project_design_queryset()
    found = list(
        projects.filter(pk=int(project))
        if project.isdigit()
        else projects.filter(name=project)
    )
    if not found:
        what = "design file or project" if or_file else "project"
        raise CommandError(f"no {what} with id or name '{project}'")
    if len(found) > 1:
        ids = ", ".join(str(p.pk) for p in found)
        raise CommandError(
            f"{len(found)} projects are called '{project}' (ids {ids}); give the id"
        )
    return design_from_project(found[0])


def add_design_arguments(parser: ArgumentParser, *, seed: bool = False) -> None:
    """The DESIGN argument every command that reads a design takes, and with
    `seed` the sample data's --seed."""
    parser.add_argument("design", metavar="DESIGN", help=DESIGN_HELP)
    if seed:
        parser.add_argument(
            "--seed",
            type=int,
            default=None,
            help="sample data seed (default: the design's)",
        )


def add_endpoint_arguments(parser: ArgumentParser) -> None:
    """--endpoint-url and --region of the commands that talk to DynamoDB
    (credentials come from boto3's standard chain)."""
    parser.add_argument(
        "--endpoint-url",
        default=settings.DYNAMODB_ENDPOINT_URL,
        help="e.g. http://localhost:8000 for DynamoDB Local; default: AWS",
    )
    parser.add_argument("--region", default=settings.AWS_REGION)


def load_design(source: str) -> Design:
    """A design from a file path (or '-') or else a project id or name;
    a file with errors stops the command with every problem listed."""
    if is_file_argument(source):
        return design_from_file(source)
    return design_from_project_argument(source, or_file=True)
