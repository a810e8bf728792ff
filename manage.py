#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
    from workbench.startup import settings_or_exit

    settings_or_exit()
    if sys.argv[1:2] == ["serve_dynamodb"]:
        # The endpoint's cold start: served without django.setup() unless
        # an argument needs the database (this returns then).
        from modeler.management.serve_start import start_without_django

        start_without_django(sys.argv[2:])
    # A command on a design file needs no database: it runs without
    # django.setup() (this returns for a project, and for other commands).
    from modeler.management.file_start import run_without_django

    run_without_django(sys.argv)
    from django.core.management import execute_from_command_line

    from modeler.management.process_end import end_process

    try:
        execute_from_command_line(sys.argv)
    except SystemExit as exc:
        end_process(exc.code)
        raise
    end_process(None)


if __name__ == "__main__":
    main()
