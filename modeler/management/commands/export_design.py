"""`manage.py export_design PROJECT|FILE --format FORMAT [-o FILE]`: a
design as YAML, Terraform, CloudFormation, create-table JSON, a NoSQL
Workbench model or an IAM policy. The formats and their options are
`modeler.exporters.formats`'s: each option is a flag here, a field on the
Export page."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from modeler.exporters.formats import EXPORT_FORMATS, ExportError, Option
from modeler.management.design_source import add_design_arguments, load_design


class Command(BaseCommand):
    help = (
        "Write a design (a project, or a design file of either kind) in one of "
        "the export formats, to stdout or a file."
    )
    # Django's system checks import every view, the review and the engine's
    # client: seconds, for a command that writes one file.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: ArgumentParser) -> None:
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
        for chosen in EXPORT_FORMATS.values():
            for option in chosen.options:
                _add_option(parser, chosen.name, option)

    def handle(self, *args: Any, design: str, output: str, **options: Any) -> None:
        loaded = load_design(design)
        chosen = EXPORT_FORMATS[options["format"]]
        values = {}
        for option in chosen.options:
            try:
                values[option.name] = option.clean(options[option.name])
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        try:
            made = chosen.export(loaded, **values)
        except ExportError as exc:
            raise CommandError(f"{chosen.name}: {exc}") from None
        except (IndexError, KeyError, ValueError) as exc:
            # A project saved with errors may lack what the export needs.
            raise CommandError(
                f"{chosen.name}: the design cannot be exported as saved "
                f"({type(exc).__name__}: {exc}); run check_design on it"
            ) from None
        for note in made.notes:
            self.stderr.write(f"note: {note}")
        if output == "-":
            self.stdout.write(made.text, ending="")
        else:
            try:
                Path(output).write_text(made.text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"{output}: {exc.strerror}") from None
            self.stderr.write(f"Wrote {output}")


def _add_option(parser: ArgumentParser, format_name: str, option: Option) -> None:
    extra: dict[str, Any] = {}
    if option.kind == "switch":
        # --tenant alone, or with a value (--tenant tenantId).
        extra = {"nargs": "?", "const": True}
    parser.add_argument(
        option.flag,
        dest=option.name,
        default=None,
        metavar=option.metavar or "VALUE",
        help=f"{format_name}: {option.help[:1].lower()}{option.help[1:]}",
        **extra,
    )
