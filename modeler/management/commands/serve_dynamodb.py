"""`manage.py serve_dynamodb [DESIGN ...] [--address 127.0.0.1:8000]
[--seed N] [--data-dir DIR]`: a DynamoDB endpoint (the wire protocol of
DynamoDB and DynamoDB Streams, see modeler.endpoint) serving each design's
table loaded with its sample data, or no table at all. With --data-dir the
tables are kept across restarts; a design whose table is already there is
not loaded again.

manage.py runs the command without django.setup() when no DESIGN is a
project (modeler.management.serve_start); Django runs this class for a project,
for --help and for Django's own options."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.endpoint.run import StartError, serve
from modeler.management.serve_start import HELP, add_serve_arguments

if TYPE_CHECKING:  # the design readers load only when a design is given
    from modeler.design.model import Design


class Command(BaseCommand):
    help = HELP

    def add_arguments(self, parser: CommandParser) -> None:
        add_serve_arguments(parser)

    def handle(self, *args: Any, designs: list[str], **options: Any) -> None:
        def say(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        try:
            serve(
                address=options["address"],
                designs=[(source, _loader(source)) for source in designs],
                seed=options["seed"],
                data_dir=options["data_dir"],
                say=say,
            )
        except StartError as exc:
            raise CommandError(str(exc)) from None


def _loader(source: str) -> Callable[[], Design]:
    """The design a DESIGN argument names, read when the server starts.
    The readers are imported here, only when a design is given: without
    one the endpoint starts without them (its cold start)."""

    def load() -> Design:
        from modeler.management.design_source import load_design

        return load_design(source)

    return load
