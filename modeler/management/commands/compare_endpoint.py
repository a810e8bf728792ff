"""`manage.py compare_endpoint DESIGN`: run the design's read patterns on a
real DynamoDB endpoint (DynamoDB Local or AWS) and compare them with the
simulator. The endpoint and region come from the settings
(DYNAMODB_ENDPOINT_URL, AWS_REGION) or the options; AWS credentials from
boto3's standard chain. `--items N` loads only the first N sample items,
for a quick run against a slow endpoint (moto loads a few thousand a
second)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.infra.dynamodb import (
    Endpoint,
    EndpointError,
    compare_with_endpoint,
    make_client,
)
from modeler.management.commands.sample_data import positive_int
from modeler.management.design_source import (
    add_design_arguments,
    add_endpoint_arguments,
    load_design,
)
from modeler.sampledata import SampleDataError
from modeler.simulation import Simulation


class Command(BaseCommand):
    help = (
        "Create the design's table on a DynamoDB endpoint, load its sample "
        "data, run every read pattern and compare with the simulator."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_design_arguments(parser, seed=True)
        add_endpoint_arguments(parser)
        parser.add_argument(
            "--table-name", default="", help="default: <table>-workbench"
        )
        parser.add_argument(
            "--items",
            type=positive_int,
            default=None,
            help="load only the first N sample items (whole "
            "families first), for a quicker run; default: all",
        )
        parser.add_argument(
            "--use-existing",
            action="store_true",
            help="load into the table even if it already exists",
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep the table afterwards"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        design = load_design(options["design"])
        try:
            simulation = Simulation(
                design, seed=options["seed"], limit=options["items"]
            )
        except SampleDataError as exc:
            raise CommandError(f"{options['design']}: {exc}", returncode=1) from None
        try:
            endpoint = Endpoint(
                design,
                make_client(
                    endpoint_url=options["endpoint_url"], region=options["region"]
                ),
                table_name=options["table_name"],
                use_existing=options["use_existing"],
            )
            comparisons = compare_with_endpoint(
                simulation, endpoint, keep=options["keep"]
            )
        except EndpointError as exc:
            raise CommandError(str(exc)) from None
        for comparison in comparisons:
            mark = "SAME" if comparison.agrees else "DIFF"
            self.stdout.write(f"{mark}  {comparison.pattern}")
            for difference in comparison.differences:
                self.stdout.write(f"      {difference}")
        differing = [c for c in comparisons if not c.agrees]
        if differing:
            raise CommandError(
                f"{len(differing)} of {len(comparisons)} patterns "
                "differ from the simulator",
                returncode=1,
            )
        agree = (
            "1 read pattern agrees"
            if len(comparisons) == 1
            else f"{len(comparisons)} read patterns agree"
        )
        self.stdout.write(
            self.style.SUCCESS(f"{agree} with the simulator on {endpoint.table_name}")
        )
