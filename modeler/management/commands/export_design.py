"""`manage.py export_design PROJECT|FILE --format FORMAT [-o FILE]`: a
design as YAML, Terraform, CloudFormation, create-table JSON, a NoSQL
Workbench model or an IAM policy."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from modeler.exporters.formats import EXPORT_FORMATS
from modeler.exporters.iam import PolicyError, iam_policy
from modeler.management.design_source import add_design_arguments, load_design


class Command(BaseCommand):
    help = (
        "Write a design (a project, or a design file of either kind) in one of "
        "the export formats, to stdout or a file."
    )
    # Django's system checks import every view, the review and the engine's
    # client: seconds, for a command that writes one file.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        add_design_arguments(parser)
        parser.add_argument(
            "--format",
            default="yaml",
            choices=list(EXPORT_FORMATS),
            help="the export format (default: yaml)",
        )
        parser.add_argument(
            "-o", "--output", default="-", help="the file to write (default: stdout)"
        )
        parser.add_argument(
            "--generated-items",
            type=int,
            default=0,
            metavar="N",
            help="nosql-workbench: add N generated sample items per entity (at "
            "most 50), so "
            "the facets show data (default: only the design's own items)",
        )
        parser.add_argument(
            "--region", default="*", help="iam-policy: the table's region"
        )
        parser.add_argument(
            "--account", default="*", help="iam-policy: the table's AWS account id"
        )
        parser.add_argument(
            "--tenant",
            nargs="?",
            const=True,
            default=False,
            metavar="ATTRIBUTE",
            help="iam-policy: confine requests to the caller's tenant with "
            "dynamodb:LeadingKeys (the attribute the partition keys start with; "
            "found by itself when left out)",
        )

    def handle(self, *args, design: str, output: str, **options):  # type: ignore[no-untyped-def]
        loaded = load_design(design)
        chosen = EXPORT_FORMATS[options["format"]]
        if chosen.name == "iam-policy":
            try:
                policy = iam_policy(
                    loaded,
                    region=options["region"],
                    account=options["account"],
                    tenant=options["tenant"],
                )
            except PolicyError as exc:
                raise CommandError(f"iam-policy: {exc}") from None
            text, notes = policy.json(), list(policy.notes)
        elif chosen.name == "nosql-workbench":
            # Imported here: it generates sample items (Faker), which the
            # other formats do not need.
            from modeler.exporters.nosql_workbench import (
                MAX_GENERATED,
                WorkbenchExportError,
                export_notes,
                export_workbench,
            )
            from modeler.sampledata import SampleDataError

            if not 0 <= options["generated_items"] <= MAX_GENERATED:
                raise CommandError(
                    f"--generated-items takes 0 to {MAX_GENERATED} items per entity"
                )
            try:
                text = export_workbench(loaded, generated=options["generated_items"])
            except (SampleDataError, WorkbenchExportError) as exc:
                raise CommandError(f"nosql-workbench: {exc}") from None
            notes = export_notes(loaded)
        else:
            try:
                text, notes = chosen.render(loaded), []
            except (IndexError, KeyError, ValueError) as exc:
                # A project saved with errors may lack what the export needs.
                raise CommandError(
                    f"{chosen.name}: the design cannot be exported as saved "
                    f"({type(exc).__name__}: {exc}); run check_design on it"
                ) from None
        for note in notes:
            self.stderr.write(f"note: not exported: {note}")
        if output == "-":
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {output}")
