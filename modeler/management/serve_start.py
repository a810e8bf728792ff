"""`manage.py serve_dynamodb`'s arguments, and its start without
django.setup(): the endpoint needs the database only for a PROJECT
argument, and setting up Django (the app registry, every model, the system
checks) was most of the command's cold start. manage.py hands the command
here first; `start_without_django` serves when no argument needs the
database and otherwise returns, and Django runs the command as before."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from modeler.endpoint.run import StartError, serve
from modeler.management.design_help import DESIGN_HELP, is_file_argument

if TYPE_CHECKING:
    from modeler.design import model as d

HELP = (
    "Serve DynamoDB's API (and DynamoDB Streams') on a port, with each "
    "design's table and sample data loaded, for any AWS SDK or the AWS CLI."
)


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("designs", nargs="*", metavar="DESIGN", help=DESIGN_HELP)
    parser.add_argument(
        "--address",
        default="127.0.0.1:8000",
        help="HOST:PORT to listen on (port 0: a free one); default 127.0.0.1:8000",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="sample data seed (default: each design's)",
    )
    parser.add_argument(
        "--data-dir",
        default="",
        help="keep the tables in this directory across restarts "
        "(default: in memory only)",
    )


class _NeedsDjango(Exception):
    """The arguments are not plainly ours (help, Django's own options, a
    mistake): Django's parser answers them, word for word as always."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _NeedsDjango(message)


def start_without_django(argv: list[str]) -> None:
    """Serve `manage.py serve_dynamodb ARGV` when it needs no database (no
    design, or design files only) and exit; return otherwise. Errors are
    printed as Django prints a CommandError, with its exit status."""
    # No abbreviations: Django's parser has more options (--settings,
    # --skip-checks), so '--s' means something else there.
    parser = _Parser(add_help=False, allow_abbrev=False)
    add_serve_arguments(parser)
    try:
        options = parser.parse_args(argv)
    except _NeedsDjango:
        return
    if not all(is_file_argument(source) for source in options.designs):
        return  # a project: Django and the database are needed
    from django.core.management.base import CommandError

    from modeler.management.file_start import configure_logging

    configure_logging()
    if options.designs:
        # The site's limits on what a design file may hold (the app's
        # `ready()` hands them over under Django); imported only to read one.
        from modeler.domain_settings import hand_over

        hand_over()

    try:
        serve(
            address=options.address,
            designs=[(source, _file_loader(source)) for source in options.designs],
            seed=options.seed,
            data_dir=options.data_dir,
            say=lambda line: print(line, flush=True),
        )
    except StartError as exc:
        _exit_with(CommandError(str(exc)))
    except CommandError as exc:
        _exit_with(exc)
    sys.exit(0)


def _exit_with(error: Exception) -> NoReturn:
    """As BaseCommand.run_from_argv reports a CommandError."""
    print(f"{type(error).__name__}: {error}", file=sys.stderr)
    sys.exit(getattr(error, "returncode", 1))


def _file_loader(source: str) -> Callable[[], d.Design]:
    """A design FILE, read when the server starts. Reading one needs the
    settings (the size limits, loaded by manage.py), not the app registry;
    the readers are imported only when a design is given."""

    def load() -> d.Design:
        from modeler.management.design_files import design_from_file

        return design_from_file(source)

    return load
