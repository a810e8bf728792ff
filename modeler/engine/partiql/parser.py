"""DynamoDB's PartiQL subset, parsed: SELECT, INSERT, UPDATE and DELETE.

    parse('SELECT * FROM "Shop" WHERE PK = ?', [{"S": "C#1"}])
    -> Select(table="Shop", index=None, projection=None, where=Compare(...))

Values are DynamoDB JSON (`{"S": "x"}`); a `?` takes the next parameter.
Document paths are tuples of names (str) and list positions (int). A
statement DynamoDB's grammar refuses raises ValidationException with its
"Statement wasn't well formed" wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from modeler.engine.errors import ValidationException

Path = tuple[str | int, ...]

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<string>'(?:[^']|'')*')
    | (?P<quoted>"(?:[^"]|"")*")
    | (?P<number>-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<symbol><<|>>|<=|>=|<>|!=|[=<>,.\[\]{}()?:*+-])
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    )""",
    re.VERBOSE,
)


def malformed(detail: str) -> ValidationException:
    return ValidationException(
        f"Statement wasn't well formed, can't be processed: {detail}"
    )


@dataclass(frozen=True)
class Token:
    kind: str  # string, quoted, number, symbol, word
    text: str


def tokens(statement: str) -> list[Token]:
    found = []
    position = 0
    statement = statement.rstrip().removesuffix(";")
    while position < len(statement):
        if statement[position:].strip() == "":
            break
        match = _TOKEN.match(statement, position)
        if match is None:
            # DynamoDB says nothing more of a character its lexer cannot read
            # (a # comment, an unterminated /* ...).
            raise malformed("")
        kind = match.lastgroup or ""
        found.append(Token(kind, match.group(kind)))
        position = match.end()
    return found


# --- The statements ---------------------------------------------------------


@dataclass(frozen=True)
class Compare:
    path: Path
    operator: str  # = <> < <= > >=
    value: Any  # a DynamoDB JSON value


@dataclass(frozen=True)
class Between:
    path: Path
    low: Any
    high: Any


@dataclass(frozen=True)
class In:
    path: Path
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Missing:
    path: Path
    missing: bool  # IS MISSING (True) or IS NOT MISSING (False)


@dataclass(frozen=True)
class Function:
    name: str  # begins_with, contains, attribute_type, attribute_exists...
    path: Path
    value: Any | None


@dataclass(frozen=True)
class Logical:
    operator: str  # AND, OR
    left: Any
    right: Any


@dataclass(frozen=True)
class Not:
    operand: Any


@dataclass(frozen=True)
class Select:
    table: str
    index: str | None
    projection: tuple[Path, ...] | None  # None: *
    where: Any | None
    # ORDER BY's terms: (attribute, descending), in the statement's order.
    order: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True)
class Insert:
    table: str
    item: dict[str, Any]


@dataclass(frozen=True)
class Assign:
    path: Path
    value: Any  # a value, or ("+"|"-", path, value) for arithmetic


@dataclass(frozen=True)
class Update:
    table: str
    sets: tuple[Assign, ...]
    removes: tuple[Path, ...]
    where: Any | None
    # RETURNING's form as UpdateItem's ReturnValues (ALL_OLD, UPDATED_NEW...).
    returning: str | None = None


@dataclass(frozen=True)
class Delete:
    table: str
    where: Any | None
    returning: str | None = None  # ALL_OLD, the one form DELETE takes


@dataclass(frozen=True)
class Exists:
    """EXISTS(SELECT ...): a transaction's check that the item exists."""

    select: Select

    @property
    def table(self) -> str:
        return self.select.table


Statement = Select | Insert | Update | Delete | Exists


class _Parser:
    def __init__(self, statement: str, parameters: list[Any]) -> None:
        self.tokens = tokens(statement)
        self.at = 0
        self.parameters = parameters
        self.used = 0

    # --- Token handling -----------------------------------------------------

    def peek(self, offset: int = 0) -> Token | None:
        index = self.at + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def next(self) -> Token:
        token = self.peek()
        if token is None:
            raise malformed("Unexpected end of statement")
        self.at += 1
        return token

    def is_word(self, *words: str) -> bool:
        token = self.peek()
        return (
            token is not None and token.kind == "word" and token.text.upper() in words
        )

    def is_symbol(self, *symbols: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "symbol" and token.text in symbols

    def word(self, *words: str) -> str:
        if not self.is_word(*words):
            raise malformed(f"Expected {' or '.join(words)}{self._found()}")
        return self.next().text.upper()

    def symbol(self, text: str) -> None:
        if not self.is_symbol(text):
            raise malformed(f"Expected {text}{self._found()}")
        self.next()

    def _found(self) -> str:
        token = self.peek()
        return f", found {token.text}" if token else " at end of statement"

    def end(self) -> None:
        if self.peek() is not None:
            raise malformed("Unexpected token after expression")

    def no_alias(self, *following: str) -> None:
        """A table name followed by a word other than `following` is an
        alias, which DynamoDB refuses in a sentence of its own."""
        token = self.peek()
        if token is not None and (
            token.kind == "quoted"
            or (token.kind == "word" and token.text.upper() not in following)
        ):
            raise ValidationException("Aliasing is not supported")

    # --- Names, paths and values --------------------------------------------

    def name(self) -> str:
        token = self.next()
        if token.kind == "quoted":
            return token.text[1:-1].replace('""', '"')
        if token.kind == "word":
            return token.text
        raise malformed(f"Expected identifier, found {token.text}")

    def path(self) -> Path:
        parts: list[str | int] = [self.name()]
        while True:
            if self.is_symbol("."):
                self.next()
                parts.append(self.name())
            elif self.is_symbol("["):
                self.next()
                token = self.next()
                if token.kind != "number" or not token.text.isdigit():
                    raise malformed("Expected a list index")
                parts.append(int(token.text))
                self.symbol("]")
            else:
                return tuple(parts)

    def value(self) -> Any:
        token = self.next()
        if token.kind == "string":
            return {"S": token.text[1:-1].replace("''", "'")}
        if token.kind == "number":
            return {"N": token.text}
        if token.kind == "symbol" and token.text == "?":
            if self.used >= len(self.parameters):
                raise ValidationException(
                    "Number of parameters in request and statement don't match."
                )
            self.used += 1
            return self.parameters[self.used - 1]
        if token.kind == "symbol" and token.text == "-":
            number = self.next()
            if number.kind != "number":
                raise malformed("Expected a number after -")
            return {"N": "-" + number.text}
        if token.kind == "word" and token.text.upper() in ("TRUE", "FALSE"):
            return {"BOOL": token.text.upper() == "TRUE"}
        if token.kind == "word" and token.text.upper() == "NULL":
            return {"NULL": True}
        if token.kind == "symbol" and token.text == "[":
            return {"L": self._sequence("]")}
        if token.kind == "symbol" and token.text == "<<":
            return self._set(self._sequence(">>"))
        if token.kind == "symbol" and token.text == "{":
            return {"M": self._map()}
        raise malformed(f"Unexpected term {token.text}")

    def _sequence(self, closing: str) -> list[Any]:
        values: list[Any] = []
        if self.is_symbol(closing):
            self.next()
            return values
        while True:
            values.append(self.value())
            if self.is_symbol(closing):
                self.next()
                return values
            self.symbol(",")

    def _set(self, values: list[Any]) -> dict[str, Any]:
        kinds = {next(iter(v)) for v in values}
        if len(kinds) != 1 or not kinds <= {"S", "N", "B"}:
            raise ValidationException(
                "Unsupported type: a set holds strings, numbers or binaries of one "
                "type, and at least one"
            )
        kind = kinds.pop()
        return {kind + "S": [v[kind] for v in values]}

    def _map(self) -> dict[str, Any]:
        entries: dict[str, Any] = {}
        if self.is_symbol("}"):
            self.next()
            return entries
        while True:
            key = self.next()
            if key.kind == "string":
                name = key.text[1:-1].replace("''", "'")
            elif key.kind == "quoted":
                name = key.text[1:-1].replace('""', '"')
            else:
                raise malformed(f"Expected a string key, found {key.text}")
            self.symbol(":")
            entries[name] = self.value()
            if self.is_symbol("}"):
                self.next()
                return entries
            self.symbol(",")

    # --- Conditions ---------------------------------------------------------

    def condition(self) -> Any:
        left = self._conjunction()
        while self.is_word("OR"):
            self.next()
            left = Logical("OR", left, self._conjunction())
        return left

    def _conjunction(self) -> Any:
        left = self._negation()
        while self.is_word("AND"):
            self.next()
            left = Logical("AND", left, self._negation())
        return left

    def _negation(self) -> Any:
        if self.is_word("NOT"):
            self.next()
            return Not(self._negation())
        if self.is_symbol("("):
            self.next()
            inner = self.condition()
            self.symbol(")")
            return inner
        return self._predicate()

    def _predicate(self) -> Any:
        token = self.peek()
        if (
            token is not None
            and token.kind == "word"
            and (following := self.peek(1)) is not None
            and following.text == "("
        ):
            return self._function()
        path = self.path()
        if self.is_word("IS"):
            self.next()
            negated = self.is_word("NOT")
            if negated:
                self.next()
            self.word("MISSING")
            return Missing(path, not negated)
        if self.is_word("BETWEEN"):
            self.next()
            low = self.value()
            self.word("AND")
            return Between(path, low, self.value())
        if self.is_word("IN"):
            self.next()
            opening = self.next().text
            if opening not in ("[", "("):
                raise malformed("Expected [ after IN")
            return In(path, tuple(self._sequence("]" if opening == "[" else ")")))
        operator = self.next()
        if operator.kind != "symbol" or operator.text not in (
            "=",
            "<>",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
        ):
            raise malformed(f"Expected a comparison, found {operator.text}")
        text = "<>" if operator.text == "!=" else operator.text
        return Compare(path, text, self.value())

    def _function(self) -> Function:
        name = self.next().text.lower()
        if name not in (
            "begins_with",
            "contains",
            "attribute_type",
            "attribute_exists",
            "attribute_not_exists",
        ):
            raise ValidationException(f"Unsupported function: {name}")
        self.symbol("(")
        path = self.path()
        value = None
        if name in ("begins_with", "contains", "attribute_type"):
            self.symbol(",")
            value = self.value()
        self.symbol(")")
        return Function(name, path, value)

    # --- Statements ---------------------------------------------------------

    def statement(self) -> Statement:
        verb = self.word("SELECT", "INSERT", "UPDATE", "DELETE", "EXISTS")
        parsed: Statement
        if verb == "EXISTS":
            self.symbol("(")
            self.word("SELECT")
            parsed = Exists(self._select())
            self.symbol(")")
        elif verb == "SELECT":
            parsed = self._select()
        elif verb == "INSERT":
            parsed = self._insert()
        elif verb == "UPDATE":
            parsed = self._update()
        else:
            self.word("FROM")
            table = self.name()
            self.no_alias("WHERE")
            where = self._where()
            parsed = Delete(table, where, self._returning(delete=True))
        self.end()
        if self.used != len(self.parameters):
            raise ValidationException(
                "Number of parameters in request and statement don't match."
            )
        return parsed

    def _where(self) -> Any | None:
        if self.is_word("WHERE"):
            self.next()
            return self.condition()
        return None

    def _select(self) -> Select:
        projection: tuple[Path, ...] | None = None
        if self.is_symbol("*"):
            self.next()
        else:
            paths = [self.path()]
            while self.is_symbol(","):
                self.next()
                paths.append(self.path())
            projection = tuple(paths)
        self.word("FROM")
        table = self.name()
        index = None
        if self.is_symbol("."):
            self.next()
            index = self.name()
        self.no_alias("WHERE", "ORDER")
        where = self._where()
        return Select(table, index, projection, where, self._order())

    def _order(self) -> tuple[tuple[str, bool], ...]:
        """ORDER BY attribute [ASC|DESC], ...; empty without it."""
        if not self.is_word("ORDER"):
            return ()
        self.next()
        self.word("BY")
        terms = []
        while True:
            attribute = self.name()
            descending = False
            if self.is_word("ASC", "DESC"):
                descending = self.next().text.upper() == "DESC"
            terms.append((attribute, descending))
            if not self.is_symbol(","):
                return tuple(terms)
            self.next()

    def _returning(self, *, delete: bool = False) -> str | None:
        """RETURNING {ALL|MODIFIED} {OLD|NEW} * as UpdateItem's ReturnValues;
        a DELETE returns the old item only (RETURNING ALL OLD *)."""
        if not self.is_word("RETURNING"):
            return None
        self.next()
        scope = self.word("ALL", "MODIFIED").upper()
        image = self.word("OLD", "NEW").upper()
        self.symbol("*")
        if delete and (scope, image) != ("ALL", "OLD"):
            raise malformed(
                f"RETURNING {scope} {image} * is not supported for DELETE, "
                "only RETURNING ALL OLD *"
            )
        return ("ALL_" if scope == "ALL" else "UPDATED_") + image

    def _insert(self) -> Insert:
        self.word("INTO")
        table = self.name()
        if not self.is_word("VALUE"):
            raise malformed("Unexpected token after expression")
        self.next()
        item = self.value()
        if "M" not in item:
            raise malformed("INSERT takes a tuple, {'attribute': value, ...}")
        return Insert(table, item["M"])

    def _update(self) -> Update:
        table = self.name()
        self.no_alias("SET", "REMOVE")
        sets: list[Assign] = []
        removes: list[Path] = []
        while self.is_word("SET", "REMOVE"):
            if self.next().text.upper() == "SET":
                sets.append(self._assign())
                while self.is_symbol(","):
                    self.next()
                    sets.append(self._assign())
            else:
                removes.append(self.path())
                while self.is_symbol(","):
                    self.next()
                    removes.append(self.path())
        if not sets and not removes:
            raise malformed("Expected SET or REMOVE")
        where = self._where()
        return Update(table, tuple(sets), tuple(removes), where, self._returning())

    def _assign(self) -> Assign:
        path = self.path()
        self.symbol("=")
        token = self.peek()
        if (
            token is not None
            and token.kind in ("word", "quoted")
            and not self.is_word("TRUE", "FALSE", "NULL")
        ):
            source = self.path()
            if not self.is_symbol("+", "-"):
                raise malformed("Expected + or - after a path in SET")
            operator = self.next().text
            return Assign(path, (operator, source, self.value()))
        return Assign(path, self.value())


def parse(statement: Any, parameters: list[Any] | None = None) -> Statement:
    """The statement, with its `?` replaced by `parameters` in order."""
    if not isinstance(statement, str) or not statement.strip():
        raise malformed("Statement is empty")
    return _Parser(statement, list(parameters or [])).statement()
