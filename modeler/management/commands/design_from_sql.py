"""`manage.py design_from_sql SCHEMA.sql [--queries FILE] [--window SECONDS]
[--peak MULTIPLE] -o design.yaml`: a design stated by needs from a schema
dump and a query log, ready for `propose_keys`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.importers.budget import ImportLimitError
from modeler.importers.sql import (
    DEFAULT_PEAK,
    DEFAULT_WINDOW,
    SqlImportError,
    design_from_sql,
)
from modeler.review.checks.common import plural


class Command(BaseCommand):
    # Reads a design and prints: Django's system checks (the URL
    # configuration imported to check it) would add half a second to every run.
    requires_system_checks: list[str] = []
    help = (
        "Make a design from a PostgreSQL (pg_dump --schema-only) or MySQL "
        "(mysqldump --no-data) schema and, with --queries, the application's "
        "query log (pg_stat_statements or events_statements_summary_by_digest "
        "as CSV or JSON, or SQL with '-- calls/s: N' comments): entities, "
        "relations and access patterns stated by needs, no keys yet (run "
        "propose_keys on it). Prints what it inferred and what it skipped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("schema", help="the schema dump (.sql)")
        parser.add_argument("--queries", default="", help="the query log")
        parser.add_argument(
            "--window",
            type=float,
            default=DEFAULT_WINDOW,
            help="seconds the log's call counts were gathered over (default "
            f"{DEFAULT_WINDOW:g})",
        )
        parser.add_argument(
            "--peak",
            type=float,
            default=DEFAULT_PEAK,
            help="peak traffic as a multiple of the average (default "
            f"{DEFAULT_PEAK:g})",
        )
        parser.add_argument("-o", "--output", required=True, help="the design file")

    def handle(
        self,
        *args: Any,
        schema: str,
        queries: str,
        window: float,
        peak: float,
        output: str,
        **options: Any,
    ) -> None:
        if not window > 0:
            raise CommandError("--window: expected a positive number of seconds")
        if not peak >= 1:
            raise CommandError("--peak: expected a multiple of 1 or more")
        try:
            found = design_from_sql(
                _read(schema),
                schema_file=schema,
                queries_text=_read(queries) if queries else "",
                queries_file=queries,
                window=window,
                peak=peak,
            )
        except SqlImportError as exc:
            raise CommandError(exc.text) from None
        except ImportLimitError as exc:
            raise CommandError(f"{schema}: {exc}") from None
        for heading, lines in (
            ("Inferred", found.inferred),
            ("Skipped or not carried", found.skipped),
            ("Statements that became no access pattern", found.unsupported),
        ):
            if lines:
                self.stdout.write(f"{heading}:")
                for line in lines:
                    self.stdout.write(f"  - {line}")
        Path(output).write_text(found.yaml_text, encoding="utf-8")
        design = found.design
        self.stdout.write(
            f"Wrote {output}: {plural(len(design.entities), 'entity', 'entities')}, "
            f"{plural(len(design.access_patterns), 'access pattern')}, no keys yet. "
            "Next: "
            f"manage.py propose_keys {output}"
        )


def _read(path: str) -> str:
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > settings.DESIGN_FILE_MAX_BYTES:
            raise CommandError(
                f"{path} is {size:,} bytes; files are limited to "
                f"{settings.DESIGN_FILE_MAX_BYTES:,} bytes (setting "
                "DESIGN_FILE_MAX_BYTES)"
            )
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
