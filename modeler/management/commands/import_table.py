"""`manage.py import_table TABLE --owner USER`: a project from a live
table on DynamoDB Local, AWS or any endpoint that speaks DynamoDB's API.

It reads the table's description (keys, indexes, billing, TTL, stream,
backups, encryption, tags) and a bounded sample of its items by a parallel
Scan, printing the Scan's estimated read cost before it starts, and infers
the entities and key templates from the items. Credentials come from
boto3's standard chain; nothing of them is stored or printed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.infra.dynamodb import EndpointError, describe_live_table, make_client
from modeler.management.commands.sample_data import positive_int
from modeler.management.design_source import add_endpoint_arguments
from modeler.services.projects import OWN_ITEMS_MAX, project_import_live_table

MAX_SAMPLE = 100_000


def sample_size(text: str) -> int:
    value = positive_int(text)
    if value > MAX_SAMPLE:
        raise ValueError(f"at most {MAX_SAMPLE:,}")
    return value


class Command(BaseCommand):
    help = (
        "Create a project from a live DynamoDB table: its description and a "
        "sample of its items, from which entities and key templates are inferred."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", help="the table's name")
        parser.add_argument("--owner", required=True, help="the owner's username")
        add_endpoint_arguments(parser)
        parser.add_argument(
            "--sample",
            type=sample_size,
            default=1_000,
            help=f"items to read (default 1,000, at most {MAX_SAMPLE:,}); at most "
            f"{OWN_ITEMS_MAX:,} stay with the project as its own items",
        )
        parser.add_argument(
            "--segments",
            type=positive_int,
            default=4,
            help="parallel Scan segments (default 4)",
        )
        parser.add_argument("--project", default="", help="the project's name")
        parser.add_argument(
            "--estimate",
            action="store_true",
            help="print the table and the sample's estimated cost, read nothing",
        )

    def handle(self, *args: Any, table: str, owner: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user is called '{owner}'")
        where = {"endpoint_url": options["endpoint_url"], "region": options["region"]}
        sample = options["sample"]
        try:
            client = make_client(**where)
            scaling_client = make_client(**where, service="application-autoscaling")
            live = describe_live_table(client, table, scaling_client)
            segments = min(options["segments"], sample)
            if live.item_count:
                self.stdout.write(
                    f"{table}: about {live.item_count:,} items of about "
                    f"{live.average_item_bytes:,.0f} bytes (DynamoDB updates these "
                    "figures about every six hours)"
                )
                cost = (
                    f"about {live.scan_units(sample):,.1f} read units (eventually "
                    "consistent)"
                )
            else:
                self.stdout.write(
                    f"{table}: the table reports no items yet (DynamoDB updates its "
                    "item count and size about every six hours)"
                )
                cost = (
                    "cost unknown until read; a page of 1 MB costs 128 read units "
                    "(eventually consistent)"
                )
            self.stdout.write(
                f"Sampling up to {sample:,} items by a Scan in {segments} parallel "
                f"segments: {cost}"
            )
            if options["estimate"]:
                return
            outcome = project_import_live_table(
                owner=user,
                client=client,
                table=table,
                sample=sample,
                segments=options["segments"],
                name=options["project"],
                live=live,
            )
        except EndpointError as exc:
            raise CommandError(f"{table}: {exc}") from None
        for problem in outcome.problems:
            self.stderr.write(
                f"{table}: {problem.severity}: {problem.path}: {problem.message}"
            )
        for note in outcome.notes:
            self.stderr.write(f"{table}: note: {note}")
        if not outcome.projects:
            raise CommandError(
                f"{table}: not imported; see the errors above", returncode=1
            )
        (project,) = outcome.projects
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {table} as project {project.pk} “{project.name}” owned by "
                f"{owner}"
            )
        )
