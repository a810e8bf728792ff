"""The machinery every expression parser shares: limits checked before
parsing, a cursor over the tokens, DynamoDB's syntax error message, document
paths, and binding placeholders to their names and values.

Parsing has two phases. Reading the text (`read`) gives a raw tree whose
placeholders are still unbound; binding it (`finish`) substitutes the
request's names and values and checks them. The reading of a text is kept
(`READ_KEPT` texts), so a program that sends the same expressions again and
again with other values only binds them: `parse` reads the text once and
binds it again for other names or values. What a text bound to the same
names and the same scalar values (strings, numbers, binaries, booleans,
nulls; equal numbers written alike) gave is kept too (`BOUND_KEPT`
bindings), since it can only give the same again: a counter's
`SET n = n + :one` is bound once. A binding is kept only under the exact
names and values that made it, so nothing bound for one request reaches a
request with other ones.

An expression is refused in two stages, as DynamoDB does. A syntax error
stops the parse at once (`Syntax error; token: "x", near: "a x b"`). Other
problems (an undefined placeholder, a reserved word, an operand of the wrong
type...) are collected while parsing and binding, and the one DynamoDB
reports first is raised afterwards: each parser lists its error categories
in that order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NoReturn

from modeler.engine.errors import ValidationException
from modeler.engine.expressions.operands import (
    Call,
    Literal,
    NameRef,
    RawPath,
    RawValue,
)
from modeler.engine.expressions.paths import MAX_PATH_DEPTH, MISSING, Path
from modeler.engine.expressions.reserved import is_reserved
from modeler.engine.expressions.tokens import Kind, Token, tokenize

MAX_EXPRESSION_BYTES = 4096
MAX_OPERATORS = 300
MAX_LIST_INDEX = 2**31 - 1
# Every level of parentheses in a valid expression holds at least one
# operator (two levels with nothing between are "redundant parentheses"), so
# no valid expression nests deeper than this; refusing deeper ones before
# parsing keeps the recursive descent well inside Python's recursion limit.
_MAX_NESTING = MAX_OPERATORS + 2

_OPERATOR_TOKENS = frozenset(
    {Kind.EQ, Kind.NE, Kind.LT, Kind.LE, Kind.GT, Kind.GE, Kind.PLUS, Kind.MINUS}
)
_OPERATOR_WORDS = frozenset({"AND", "OR", "NOT", "BETWEEN", "IN"})
# Expression texts whose reading (the raw tree, before binding) is kept.
READ_KEPT = 1024


@dataclass(frozen=True, slots=True)
class Reading:
    """What reading an expression's text gave, before any name or value is
    bound: the raw tree, the problems noted on the way and the operators
    counted. It depends on the text alone, so it is kept per text."""

    raw: Any
    problems: tuple[tuple[str, str], ...]
    operators: int


@dataclass
class Usage:
    """The placeholders an expression used, so that the caller can refuse
    the ones no expression of the request used."""

    names: set[str] = field(default_factory=set)
    values: set[str] = field(default_factory=set)


def message(text: str, *details: tuple[str, object]) -> str:
    """DynamoDB's shape: `text;` or `text; key: value, key: value`."""
    if not details:
        return f"{text};"
    return f"{text}; " + ", ".join(f"{key}: {value}" for key, value in details)


class Parser:
    """A cursor over one expression's tokens, with its placeholders."""

    keywords: frozenset[str] = frozenset()
    error_order: tuple[str, ...] = ()

    def __init__(
        self,
        text: str,
        names: Mapping[str, str] | None,
        values: Mapping[str, Any] | None,
        kind: str,
        reading: Reading | None = None,
    ) -> None:
        self.text = text
        self.kind = kind
        self.names = names or {}
        self.values = values or {}
        self.usage = Usage()
        if reading is not None:
            # Only binding is left: the text was read before.
            self.problems: dict[str, str] = dict(reading.problems)
            self.operators = reading.operators
            return
        self.problems = {}
        self.operators = 0
        size = len(text.encode("utf-8"))
        if size > MAX_EXPRESSION_BYTES:
            raise self.error(
                "Expression size has exceeded the maximum allowed size",
                ("expression size", size),
            )
        if not text.strip():
            raise self.error("The expression can not be empty")
        self.tokens = tokenize(text)
        self.position = 0
        self.closing = self._match_parentheses()

    @classmethod
    def parse(
        cls,
        text: str,
        names: Mapping[str, str] | None,
        values: Mapping[str, Any] | None,
        kind: str,
    ) -> Any:
        """The expression `text` bound to `names` and `values`; its reading
        is kept, and only the binding is done again for another request
        (unless it was bound to the same names and values before)."""
        key = _binding_key(cls, text, kind, names, values)
        if key is not None:
            bound = _bound.get(key)
            if bound is not None:
                return bound
        # A class is hashable; mypy checks the class against the instances'
        # __hash__ signature.
        reading = _reading(cls, text, kind)  # type: ignore[arg-type]
        bound = cls(text, names, values, kind, reading).finish(reading.raw)
        if key is not None:
            if len(_bound) >= BOUND_KEPT:
                _bound.clear()
            _bound[key] = bound
        return bound

    def read(self) -> Any:
        """The raw tree of the text, placeholders unbound; a syntax error
        is raised at once."""
        raise NotImplementedError

    def finish(self, raw: Any) -> Any:
        """The parsed expression: `raw` bound to the names and values, after
        raising the first of the problems DynamoDB reports."""
        raise NotImplementedError

    # Errors

    def error(self, text: str, *details: tuple[str, object]) -> ValidationException:
        return ValidationException(f"Invalid {self.kind}: {message(text, *details)}")

    def defer(self, category: str, text: str, *details: tuple[str, object]) -> None:
        """Note a problem to report once parsing and binding are done; the
        first problem of each category is kept."""
        self.problems.setdefault(category, message(text, *details))

    def defer_message(self, category: str, text: str) -> None:
        """Like defer, for a message DynamoDB words without the `;` form."""
        self.problems.setdefault(category, text)

    def raise_problems(self) -> None:
        if self.operators > MAX_OPERATORS:
            self.defer(
                "limit",
                "The expression contains too many operators",
                ("operator count", self.operators),
            )
        ordered = [c for c in (*self.error_order, *self.problems) if c in self.problems]
        if ordered:
            raise ValidationException(
                f"Invalid {self.kind}: {self.problems[ordered[0]]}"
            )

    def syntax_error(self, token: Token | None = None) -> ValidationException:
        """DynamoDB's syntax error: the offending token, and near it the text
        from the token before it to the token after it."""
        token = token or self.peek()
        index = self.tokens.index(token)
        start = self.tokens[index - 1].start if index else token.start
        if token.kind is Kind.EOF:
            end = self.tokens[index - 1].end if index else 0
        else:
            end = self.tokens[index + 1].end
        return self.error(
            "Syntax error",
            ("token", f'"{token.text}"'),
            ("near", f'"{self.text[start:end]}"'),
        )

    # Cursor

    def peek(self, offset: int = 0) -> Token:
        return self.tokens[min(self.position + offset, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.position]
        if token.kind is not Kind.EOF:
            self.position += 1
        return token

    def expect(self, kind: Kind) -> Token:
        if self.peek().kind is not kind:
            raise self.syntax_error()
        return self.advance()

    def at_keyword(self, word: str) -> bool:
        return self.peek().is_keyword(word)

    def expect_keyword(self, word: str) -> Token:
        if not self.at_keyword(word):
            raise self.syntax_error()
        return self.advance()

    def expect_end(self) -> None:
        if self.peek().kind is not Kind.EOF:
            raise self.syntax_error()

    def at_call(self) -> bool:
        """A function call starts here: a name, not a keyword, then `(`."""
        token = self.peek()
        return (
            token.kind is Kind.NAME
            and token.text.upper() not in self.keywords
            and self.peek(1).kind is Kind.LPAREN
        )

    def parse_call(
        self,
        operand: Callable[[], Any],
        *,
        allowed: Collection[str],
        elsewhere: Collection[str],
        expression: str,
    ) -> Call:
        """A function call at the cursor, each argument read by `operand`.
        A function of another kind of expression (`elsewhere`) is not
        allowed in this one (`expression`, "a condition expression"); any
        other name not `allowed` is invalid."""
        name = self.advance().text
        self.expect(Kind.LPAREN)
        args = [operand()]
        while self.peek().kind is Kind.COMMA:
            self.advance()
            args.append(operand())
        self.expect(Kind.RPAREN)
        if name in elsewhere:
            self.defer(
                "function",
                f"The function is not allowed in {expression}",
                ("function", name),
            )
        elif name not in allowed:
            self.defer("function", "Invalid function name", ("function", name))
        return Call(name, tuple(args))

    def token_after_group(self) -> Token | None:
        """The token after the parenthesis closing the one at the cursor."""
        closing = self.closing.get(self.position)
        return None if closing is None else self.tokens[closing + 1]

    # Paths and values

    def parse_path(self) -> RawPath:
        elements: list[str | int | NameRef] = [self._path_name()]
        while True:
            if self.peek().kind is Kind.DOT:
                self.advance()
                elements.append(self._path_name())
            elif self.peek().kind is Kind.LBRACKET:
                self.advance()
                index = self.expect(Kind.NUMBER)
                self.expect(Kind.RBRACKET)
                if int(index.text) > MAX_LIST_INDEX:
                    self.defer(
                        "limit",
                        "List index is not within the allowable range",
                        ("index", index.text),
                    )
                elements.append(int(index.text))
            else:
                return RawPath(tuple(elements))

    def _path_name(self) -> str | NameRef:
        token = self.peek()
        if token.kind is Kind.NAME_REF:
            self.advance()
            return NameRef(token.text)
        if token.kind is Kind.NAME and token.text.upper() not in self.keywords:
            self.advance()
            if is_reserved(token.text):
                self.defer(
                    "reserved",
                    "Attribute name is a reserved keyword",
                    ("reserved keyword", token.text),
                )
            return token.text
        raise self.syntax_error(token)

    def parse_value(self) -> RawValue:
        return RawValue(self.expect(Kind.VALUE_REF).text)

    def bind_path(self, raw: RawPath) -> Path:
        elements: list[str | int] = []
        for element in raw.elements:
            if isinstance(element, NameRef):
                name = self.names.get(element.placeholder)
                if name is None:
                    self.defer(
                        "name",
                        "An expression attribute name used in the document path is "
                        "not defined",
                        ("attribute name", element.placeholder),
                    )
                    name = element.placeholder
                else:
                    self.usage.names.add(element.placeholder)
                elements.append(name)
            else:
                elements.append(element)
        if len(elements) > MAX_PATH_DEPTH:
            self.defer(
                "limit",
                "The document path has too many nesting levels",
                ("nesting levels", len(elements)),
            )
        return Path(tuple(elements))

    def bind_value(self, raw: RawValue) -> Literal:
        value = self.values.get(raw.placeholder, MISSING)
        if value is MISSING:
            self.defer(
                "value",
                "An expression attribute value used in expression is not defined",
                ("attribute value", raw.placeholder),
            )
        else:
            self.usage.values.add(raw.placeholder)
        return Literal(value, raw.placeholder)

    def count_operator(self) -> None:
        self.operators += 1

    # Parentheses

    def _match_parentheses(self) -> dict[int, int]:
        """Where each `(` closes. Refuses nesting deeper than any valid
        expression has, with the error DynamoDB would give."""
        closing: dict[int, int] = {}
        opened: list[int] = []
        deepest = 0
        for index, token in enumerate(self.tokens):
            if token.kind is Kind.LPAREN:
                opened.append(index)
                deepest = max(deepest, len(opened))
            elif token.kind is Kind.RPAREN and opened:
                closing[opened.pop()] = index
        if deepest > _MAX_NESTING:
            self._refuse_deep_nesting(balanced=not opened)
        return closing

    def _refuse_deep_nesting(self, *, balanced: bool) -> NoReturn:
        if not balanced:
            raise self.syntax_error(self.tokens[-1])
        operators = sum(
            1
            for index, token in enumerate(self.tokens)
            if token.kind in _OPERATOR_TOKENS
            or (token.kind is Kind.NAME and token.text.upper() in _OPERATOR_WORDS)
            or (token.kind is Kind.NAME and self.tokens[index + 1].kind is Kind.LPAREN)
        )
        if operators > MAX_OPERATORS:
            raise self.error(
                "The expression contains too many operators",
                ("operator count", operators),
            )
        raise self.error("The expression has redundant parentheses")


# Bindings kept, by parser, text, kind, names and values; emptied when full.
BOUND_KEPT = 4096
MAX_KEPT_VALUE = 256
_bound: dict[tuple[Any, ...], Any] = {}
_SCALARS = frozenset({str, bytes, bool, type(None)})


def _binding_key(
    parser: type[Parser],
    text: str,
    kind: str,
    names: Mapping[str, str] | None,
    values: Mapping[str, Any] | None,
) -> tuple[Any, ...] | None:
    """What a binding depends on, or None when it cannot be kept: a value
    that is not a scalar or is long (a kept binding holds its values), a
    name that is not text. A number is keyed by its text, since 1 and 1.0
    are equal but written (and stored) apart."""
    named = kept_names(names)
    if named is None:
        return None
    valued: list[tuple[str, type, Any]] = []
    if values:
        for placeholder, value in values.items():
            kind_of = type(value)
            if kind_of is Decimal:
                value = str(value)
            elif kind_of not in _SCALARS or (
                kind_of in (str, bytes) and len(value) > MAX_KEPT_VALUE
            ):
                return None
            valued.append((placeholder, kind_of, value))
    return (parser, text, kind, named, tuple(valued))


def kept_names(names: Mapping[str, str] | None) -> tuple[tuple[str, str], ...] | None:
    """The expression attribute names as a part of the key of something
    kept (a binding, a key condition): their pairs, or None when one is not
    text (not kept: the reading says what is wrong)."""
    if not names:
        return ()
    named = tuple(names.items())
    for _, name in named:
        if type(name) is not str:
            return None
    return named


@functools.lru_cache(maxsize=READ_KEPT)
def _reading(parser: type[Parser], text: str, kind: str) -> Reading:
    """The reading of `text` by `parser`, kept for the texts seen last (a
    text that cannot be read raises each time and is not kept)."""
    reader = parser(text, None, None, kind)
    raw = reader.read()
    return Reading(raw, tuple(reader.problems.items()), reader.operators)
