"""The tokens of DynamoDB's expression languages.

One tokenizer serves condition, filter, key condition, projection and update
expressions. Keywords (AND, OR, NOT, BETWEEN, IN, SET, REMOVE, ADD, DELETE)
come out as plain names: which words are keywords depends on the kind of
expression, so the parser decides.

Attribute names written bare are ASCII letters, digits and underscores,
starting with a letter or an underscore; placeholders are `#` or `:` followed
by at least one of those characters. Anything else (a hyphen, a space inside
a name, a non-ASCII letter) is a token of its own that no grammar rule
accepts, which is how DynamoDB reports it: as a syntax error on that token.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    NAME = "name"
    NAME_REF = "#name"
    VALUE_REF = ":value"
    NUMBER = "number"
    LPAREN = "("
    RPAREN = ")"
    LBRACKET = "["
    RBRACKET = "]"
    COMMA = ","
    DOT = "."
    EQ = "="
    NE = "<>"
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    PLUS = "+"
    MINUS = "-"
    UNKNOWN = "unknown"
    EOF = "<EOF>"


COMPARATORS = frozenset({Kind.EQ, Kind.NE, Kind.LT, Kind.LE, Kind.GT, Kind.GE})

_PUNCTUATION = {
    "(": Kind.LPAREN,
    ")": Kind.RPAREN,
    "[": Kind.LBRACKET,
    "]": Kind.RBRACKET,
    ",": Kind.COMMA,
    ".": Kind.DOT,
    "=": Kind.EQ,
    "+": Kind.PLUS,
    "-": Kind.MINUS,
}
_TWO_CHARACTER = {"<>": Kind.NE, "<=": Kind.LE, ">=": Kind.GE}
_ONE_CHARACTER_ORDERING = {"<": Kind.LT, ">": Kind.GT}
_WHITESPACE = frozenset(" \t\r\n")


# Expression texts whose tokens are kept.
TOKENIZED_KEPT = 1024


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str
    start: int
    end: int

    def is_keyword(self, word: str) -> bool:
        return self.kind is Kind.NAME and self.text.upper() == word


def _is_name_character(character: str) -> bool:
    return character.isascii() and (character.isalnum() or character == "_")


@functools.lru_cache(maxsize=TOKENIZED_KEPT)
def tokenize(text: str) -> tuple[Token, ...]:
    """The tokens of `text`, always ending with an EOF token. Kept for the
    texts seen last: a program sends the same few expressions again and
    again, with other values."""
    tokens: list[Token] = []
    position = 0
    length = len(text)
    while position < length:
        character = text[position]
        if character in _WHITESPACE:
            position += 1
            continue
        start = position
        if character.isascii() and (character.isalpha() or character == "_"):
            position = _skip_name(text, position + 1)
            kind = Kind.NAME
        elif character.isascii() and character.isdigit():
            while (
                position < length
                and text[position].isascii()
                and (text[position].isdigit())
            ):
                position += 1
            kind = Kind.NUMBER
        elif character in "#:":
            position = _skip_name(text, position + 1)
            if position == start + 1:
                kind = Kind.UNKNOWN
            else:
                kind = Kind.NAME_REF if character == "#" else Kind.VALUE_REF
        elif text[position : position + 2] in _TWO_CHARACTER:
            kind = _TWO_CHARACTER[text[position : position + 2]]
            position += 2
        elif character in _ONE_CHARACTER_ORDERING:
            kind = _ONE_CHARACTER_ORDERING[character]
            position += 1
        else:
            kind = _PUNCTUATION.get(character, Kind.UNKNOWN)
            position += 1
        tokens.append(Token(kind, text[start:position], start, position))
    tokens.append(Token(Kind.EOF, "<EOF>", length, length))
    return tuple(tokens)


def _skip_name(text: str, position: int) -> int:
    while position < len(text) and _is_name_character(text[position]):
        position += 1
    return position
