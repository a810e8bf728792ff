"""A query log read into statements with how often each runs:
pg_stat_statements exported as CSV or JSON (`query`, `calls`), MySQL's
performance_schema.events_statements_summary_by_digest exported as CSV,
tab-separated or JSON (`DIGEST_TEXT`, `COUNT_STAR`), or plain SQL with a
`-- calls/s: N` comment before each statement (and optionally
`-- name: ...`)."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from typing import Any

from modeler.importers.budget import check_cpu, check_nesting
from modeler.importers.sql.statements import SqlImportError, split_statements

# The most statements one log may hold.
MAX_STATEMENTS = 2_000
_TEXT_COLUMNS = ("query", "digest_text", "query_sample_text")
_COUNT_COLUMNS = ("calls", "count_star", "exec_count")
_RATE = re.compile(
    r"(?:calls\s*(?:/|per)\s*s(?:ec(?:ond)?)?|rps)\s*[:=]\s*([0-9]*\.?[0-9]+)", re.I
)
_NAME = re.compile(r"^name\s*:\s*(.+)$", re.I)


@dataclass(frozen=True)
class Logged:
    """One statement of the log, its line (or, of a JSON list, its row),
    and either its calls over the window or its calls per second."""

    text: str
    line: int
    calls: float | None = None
    rate: float | None = None
    name: str = ""
    row: int | None = None

    @property
    def place(self) -> str:
        """Where it is in the file: `line 3`, or `row 2` of a JSON list."""
        return f"row {self.row}" if self.row is not None else f"line {self.line}"


def read_log(text: str, *, file: str, dialect: str) -> list[Logged]:
    stripped = text.lstrip()
    if stripped[:1] in ("[", "{"):
        entries = _json_entries(text, file)
    elif _looks_tabular(stripped):
        entries = _table_entries(text, file)
    else:
        entries = _sql_entries(text, file, dialect)
    if not entries:
        raise SqlImportError(
            "holds no statement; expected pg_stat_statements or "
            "events_statements_summary_by_digest rows, or SQL statements each "
            "after a '-- calls/s: N' comment",
            file=file,
        )
    if len(entries) > MAX_STATEMENTS:
        raise SqlImportError(
            f"holds {len(entries):,} statements; at most {MAX_STATEMENTS:,} are "
            "read (keep the most frequent)",
            file=file,
        )
    return entries


def _looks_tabular(text: str) -> bool:
    header = text.split("\n", 1)[0].lower()
    return any(c in header for c in _TEXT_COLUMNS) and any(
        c in header for c in _COUNT_COLUMNS
    )


def _json_entries(text: str, file: str) -> list[Logged]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SqlImportError(
            f"is not valid JSON: {exc.msg} at column {exc.colno}",
            file=file,
            line=exc.lineno,
        ) from None
    check_nesting(data, what=file)
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    if not isinstance(data, list):
        raise SqlImportError(
            "expected a JSON list of rows, each with 'query' and 'calls' "
            "(or 'DIGEST_TEXT' and 'COUNT_STAR')",
            file=file,
        )
    entries = []
    for number, row in enumerate(data, start=1):
        check_cpu()
        entries.append(_row(row, file, row=number))
    return entries


def _table_entries(text: str, file: str) -> list[Logged]:
    header = text.lstrip().split("\n", 1)[0]
    delimiter = "\t" if header.count("\t") > header.count(",") else ","
    reader = csv.DictReader(io.StringIO(text.lstrip()), delimiter=delimiter)
    entries = []
    for row in reader:
        check_cpu()
        entries.append(_row(row, file, line=reader.line_num))
    return entries


def _row(entry: Any, file: str, *, line: int = 0, row: int | None = None) -> Logged:
    """A CSV row (at `line`) or the `row`th entry of a JSON list, whose line
    JSON does not tell: its errors name the row."""

    def error(message: str, statement: str = "") -> SqlImportError:
        if row is not None:
            return SqlImportError(message, file=file, row=row, statement=statement)
        return SqlImportError(message, file=file, line=line, statement=statement)

    if not isinstance(entry, dict):
        raise error("expected a row with 'query' and 'calls'")
    lowered = {str(k).lower(): v for k, v in entry.items()}
    text = next((lowered[c] for c in _TEXT_COLUMNS if lowered.get(c)), None)
    count = next((lowered[c] for c in _COUNT_COLUMNS if c in lowered), None)
    if not isinstance(text, str):
        raise error("a row without its statement (a 'query' or 'DIGEST_TEXT' column)")
    try:
        # No count column gives None: its TypeError is the error below.
        calls = float(count)  # type: ignore[arg-type]  # None is caught below
    except (TypeError, ValueError):
        raise error(
            f"expected a number of calls ('calls' or 'COUNT_STAR'), found {count!r}",
            text,
        ) from None
    if calls < 0 or calls != calls or calls == float("inf"):
        raise error(f"expected a number of calls of 0 or more, found {count!r}", text)
    return Logged(text.strip().rstrip(";"), line, calls=calls, row=row)


def _sql_entries(text: str, file: str, dialect: str) -> list[Logged]:
    statements, _ = split_statements(text, dialect=dialect, file=file)
    entries = []
    for statement in statements:
        rate = None
        name = ""
        for comment in statement.comments:
            found = _RATE.search(comment)
            if found:
                rate = float(found.group(1))
            named = _NAME.match(comment.strip())
            if named:
                name = named.group(1).strip()[:200]
        if rate is None:
            raise SqlImportError(
                "expected a '-- calls/s: N' comment before the statement, saying "
                "how many times a second it runs",
                file=file,
                line=statement.line,
                statement=statement.text,
            )
        entries.append(Logged(statement.text, statement.line, rate=rate, name=name))
    return entries
