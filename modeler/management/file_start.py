"""The commands that read one DESIGN, run without django.setup() when it is a
design file. Setting Django up (the app registry, every model of every app)
is a fixed 0.13-0.15 s of CPU in each run, which a design file never needs:
only a project argument reads the database. manage.py hands such a command
here first; `run_without_django` runs it, through the command's own parser
and `run_from_argv` (so its options, output, errors and exit status are
Django's, word for word), and returns when Django is needed after all: a
project, Django's --settings or --pythonpath, or arguments the command's
parser refuses (Django's parser then reports them as it always does)."""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.module_loading import import_string

from modeler.domain_settings import hand_over
from modeler.management.design_help import is_file_argument
from modeler.management.process_end import end_process

# Each command's module imports no model at its top: only its project
# argument's path does (`design_source.design_from_project_argument`).
FILE_COMMANDS = frozenset(
    {"check_design", "export_design", "propose_keys", "sample_data", "simulate"}
)


def run_without_django(argv: list[str]) -> None:
    """Run `manage.py COMMAND ARGS` (argv as manage.py has it) and end the
    process, when COMMAND is one of FILE_COMMANDS and its DESIGN a file;
    return otherwise, having run nothing."""
    if len(argv) < 2 or argv[1] not in FILE_COMMANDS:
        return
    command: BaseCommand = import_module(
        f"modeler.management.commands.{argv[1]}"
    ).Command()
    try:
        options = command.create_parser(argv[0], argv[1]).parse_args(argv[2:])
    except CommandError:  # not called from the command line: it raises
        return
    if options.settings or options.pythonpath:
        return  # they change what Django sets up
    if not is_file_argument(options.design):
        return
    # django.setup() but the app registry.
    configure_logging()
    hand_over()
    try:
        command.run_from_argv(argv)
    except SystemExit as exc:
        end_process(exc.code)
        raise
    end_process(None)
    raise SystemExit(0)


def configure_logging() -> None:
    """Logging as the settings configure it, as django.setup() does.

    Django's `configure_logging` first applies its DEFAULT_LOGGING, whose
    mail_admins handler imports the error page's exception reporter and the
    template engine (0.08 s). Its handlers are for the loggers of requests
    and of runserver, which a command on a file never writes to, and
    settings.LOGGING replaces them on the "django" logger anyway; the settings'
    own are applied here as Django applies them."""
    if settings.LOGGING_CONFIG and settings.LOGGING:
        import_string(settings.LOGGING_CONFIG)(settings.LOGGING)
