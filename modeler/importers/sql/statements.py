"""A SQL file cut into statements, each with the line it starts on, by
sqlglot's tokenizer (so a semicolon inside a string, a comment or a
function's dollar-quoted body does not end a statement), and each parsed
by sqlglot on its own: one statement sqlglot cannot read is named by file,
line and text instead of failing the file's other statements."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError

from modeler.importers.budget import check_cpu

POSTGRES = "postgres"
MYSQL = "mysql"
DIALECTS = (POSTGRES, MYSQL)

# sqlglot logs a warning for each statement it keeps as an opaque Command
# (CREATE FUNCTION, ALTER ... OWNER TO): a dump holds hundreds, and each is
# reported as skipped with a note instead.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

# A statement quoted in an error is cut to this many characters.
QUOTED_CHARACTERS = 160
# mysqldump wraps triggers and routines in `DELIMITER ;;` ... `DELIMITER ;`.
_DELIMITER_LINE = re.compile(r"^[ \t]*DELIMITER[ \t]+(\S+)[ \t]*$", re.I | re.M)


class SqlImportError(Exception):
    """A file that cannot be imported, with where: the file, the line (or,
    of a JSON list, the row) and the statement (cut to QUOTED_CHARACTERS)."""

    def __init__(
        self,
        message: str,
        *,
        file: str,
        line: int | None = None,
        statement: str = "",
        row: int | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.row = row
        self.statement = quoted(statement) if statement else ""
        super().__init__(self.text)

    @property
    def text(self) -> str:
        where = (
            self.file
            + (f", line {self.line}" if self.line else "")
            + (f", row {self.row}" if self.row else "")
        )
        text = f"{where}: {self.message}"
        return text + (f" (statement: {self.statement})" if self.statement else "")


def quoted(statement: str) -> str:
    one_line = " ".join(statement.split())
    if len(one_line) <= QUOTED_CHARACTERS:
        return one_line
    return one_line[: QUOTED_CHARACTERS - 1] + "…"


@dataclass(frozen=True)
class Statement:
    """One statement's text (without its semicolon), its first line, and
    the comments just before it (a query file's calls and names)."""

    text: str
    line: int
    comments: tuple[str, ...] = ()

    def parse(self, dialect: str) -> exp.Expr | None:
        """The parsed statement, or None where sqlglot cannot read it."""
        try:
            parsed = sqlglot.parse_one(
                self.text, read=dialect, error_level=ErrorLevel.RAISE
            )
        except (ParseError, TokenError, ValueError, RecursionError):
            return None
        return parsed

    def unreadable(self, dialect: str) -> tuple[str, int]:
        """Why sqlglot cannot read the statement ("" where it reads it as
        something else), and the line of the file it stopped on."""
        try:
            sqlglot.parse_one(self.text, read=dialect, error_level=ErrorLevel.RAISE)
        except ParseError as exc:
            first = exc.errors[0] if exc.errors else {}
            why = _TOKEN.sub(
                lambda token: repr(token.group(1)),
                str(first.get("description") or str(exc).splitlines()[0]),
            )[:200]
            line = first.get("line")
            lines = self.text.split("\n")
            if isinstance(line, int) and 0 < line <= len(lines):
                near = " ".join(lines[line - 1].split())[:80]
                return f"{why} in '{near}'", self.line + line - 1
            return why, self.line
        except (TokenError, ValueError, RecursionError) as exc:
            return str(exc).splitlines()[0][:200], self.line
        return "", self.line


# sqlglot names the token it stopped at as `<Token token_type: ..., text: ,,
# line: 1, ...>`: the error says its text.
_TOKEN = re.compile(r"<Token token_type: [^,]*, text: (.*?), line: \d+.*?>")


def dialect_of(text: str) -> str:
    """MySQL for what mysqldump and MySQL write (its header, backquoted
    names, ENGINE=), else PostgreSQL."""
    head = text[:20_000]
    if re.search(r"MySQL dump|MariaDB dump|ENGINE\s*=|`", head):
        return MYSQL
    return POSTGRES


def split_statements(
    text: str, *, dialect: str, file: str
) -> tuple[list[Statement], list[Statement]]:
    """The file's statements in order, and those mysqldump put between
    DELIMITER lines (triggers and routines), which are not SQL a parser
    reads. SqlImportError where the text cannot be tokenized (an
    unterminated string or comment)."""
    delimited: list[Statement] = []
    text = _ended_meta_commands(_unwrap_versioned(_blank_delimited(text, delimited)))
    try:
        tokens = sqlglot.tokenize(text, read=dialect)
    except (TokenError, ValueError) as exc:
        raise SqlImportError(
            f"cannot be read as {dialect} SQL: {str(exc).splitlines()[0][:200]}",
            file=file,
            line=_error_line(str(exc)),
        ) from None
    statements: list[Statement] = []
    start: int | None = None
    first_line = 0
    comments: list[str] = []
    last = None
    for count, token in enumerate(tokens):
        if count % 1000 == 0:
            check_cpu()
        if token.token_type.name == "SEMICOLON":
            if start is not None and last is not None:
                statements.append(
                    Statement(text[start : last.end + 1], first_line, tuple(comments))
                )
            start, last, comments = None, None, []
            continue
        if start is None:
            start, first_line = token.start, token.line
            comments = [c.strip() for c in token.comments]
        last = token
    if start is not None and last is not None:
        statements.append(
            Statement(text[start : last.end + 1], first_line, tuple(comments))
        )
    return statements, delimited


def _blank_delimited(text: str, delimited: list[Statement]) -> str:
    """The text with each DELIMITER block replaced by blank lines (so line
    numbers hold), each block's text kept in `delimited`."""
    parts: list[str] = []
    position = 0
    inside: re.Match[str] | None = None
    for match in _DELIMITER_LINE.finditer(text):
        if inside is None and match.group(1) != ";":
            parts.append(text[position : match.start()])
            inside = match
        elif inside is not None and match.group(1) == ";":
            block = text[inside.start() : match.end()]
            line = text.count("\n", 0, inside.start()) + 1
            delimited.append(Statement(block, line))
            parts.append("\n" * block.count("\n"))
            inside = None
        else:
            continue
        position = match.end()
    parts.append(text[position:])
    return "".join(parts)


# A statement mysqldump writes whole inside version comments
# (`/*!50001 CREATE VIEW ... */;`, `/*!40101 SET ... */;`), or mariadb-dump
# inside MariaDB's own (`/*M!100616 SET ... */;`): one or more comments at
# the start of a line, then the semicolon. mariadb-dump's first line,
# `/*M!999999\- enable the sandbox mode */`, is a command to its client (a
# backslash after the version), a comment to the server: it stays one.
_VERSION_OPENING = r"/\*M?!\d*(?!\d|\\)"
_VERSIONED = re.compile(
    rf"^(?:[ \t]*{_VERSION_OPENING}.*?\*/\s*)+;", re.MULTILINE | re.DOTALL
)
_VERSION_MARK = re.compile(rf"{_VERSION_OPENING}|\*/")


def _unwrap_versioned(text: str) -> str:
    """The text with each statement mysqldump wrapped in version comments
    unwrapped, so it is read (and skipped with a note) as any other; a
    tokenizer sees a comment and would drop it unnoticed. Markers become
    spaces, so positions and line numbers hold."""
    return _VERSIONED.sub(
        lambda found: _VERSION_MARK.sub(
            lambda mark: " " * len(mark.group(0)), found.group(0)
        ),
        text,
    )


# A psql meta-command on a line of its own (pg_dump's `\\restrict KEY` and
# `\\unrestrict KEY`, pg_dumpall's `\\connect db`): psql ends it at the line's
# end, not at a semicolon.
_META_COMMAND = re.compile(r"^(\\[A-Za-z]+\b[^\n;]*)$", re.MULTILINE)


def _ended_meta_commands(text: str) -> str:
    """The text with each psql meta-command ended by a semicolon, so it is
    a statement of its own (skipped with a note) and does not swallow the
    statement after it. Line numbers hold."""
    return _META_COMMAND.sub(r"\1;", text)


def _error_line(message: str) -> int | None:
    found = re.search(r"[Ll]ine:? (\d+)", message)
    return int(found.group(1)) if found else None


def statement_kind(statement: Statement) -> str:
    """The statement's leading words as a dump writes them, upper case
    (`CREATE TRIGGER`, `ALTER TABLE`, `GRANT`), for the notes on what is
    skipped."""
    if _VIEW.match(_without_comments(statement.text)):
        return "CREATE VIEW"
    words: list[str] = []
    for word in re.findall(r"[A-Za-z_]+", _without_comments(statement.text))[:4]:
        upper = word.upper()
        if upper in _NOISE:
            continue
        words.append(upper)
        if upper not in ("CREATE", "ALTER", "DROP"):
            break
    return " ".join(words[:2]) or "statement"


# mysqldump's view: CREATE ALGORITHM=... DEFINER=... SQL SECURITY ... VIEW
_VIEW = re.compile(
    r"\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:ALGORITHM\s*=\s*\w+\s+)?"
    r"(?:DEFINER\s*=\s*\S+\s+)?(?:SQL\s+SECURITY\s+\w+\s+)?VIEW\b",
    re.IGNORECASE,
)
_NOISE = frozenset(
    {"OR", "REPLACE", "UNIQUE", "TEMPORARY", "TEMP", "MATERIALIZED", "DEFINER"}
)


def _without_comments(text: str) -> str:
    # mysqldump writes `/*!50001 CREATE VIEW ...*/`: its versioned comments
    # hold the statement itself.
    text = re.sub(_VERSION_OPENING, " ", text).replace("*/", " ")
    return re.sub(r"--[^\n]*", " ", text)
