"""The tokenizer shared by all expression kinds."""

from __future__ import annotations

from modeler.engine.expressions.tokens import Kind, tokenize


def kinds_and_texts(text: str) -> list[tuple[Kind, str]]:
    return [(token.kind, token.text) for token in tokenize(text)]


def test_condition_tokens():
    assert kinds_and_texts("#a.b[12] <> :v_1 AND size(c)>=:w") == [
        (Kind.NAME_REF, "#a"),
        (Kind.DOT, "."),
        (Kind.NAME, "b"),
        (Kind.LBRACKET, "["),
        (Kind.NUMBER, "12"),
        (Kind.RBRACKET, "]"),
        (Kind.NE, "<>"),
        (Kind.VALUE_REF, ":v_1"),
        (Kind.NAME, "AND"),
        (Kind.NAME, "size"),
        (Kind.LPAREN, "("),
        (Kind.NAME, "c"),
        (Kind.RPAREN, ")"),
        (Kind.GE, ">="),
        (Kind.VALUE_REF, ":w"),
        (Kind.EOF, "<EOF>"),
    ]


def test_update_tokens():
    assert [kind for kind, _ in kinds_and_texts("SET a=a+:x-:y, b=c")] == [
        Kind.NAME,
        Kind.NAME,
        Kind.EQ,
        Kind.NAME,
        Kind.PLUS,
        Kind.VALUE_REF,
        Kind.MINUS,
        Kind.VALUE_REF,
        Kind.COMMA,
        Kind.NAME,
        Kind.EQ,
        Kind.NAME,
        Kind.EOF,
    ]


def test_positions_cover_the_text():
    tokens = tokenize("  a <= :b ")
    assert [(t.start, t.end) for t in tokens] == [(2, 3), (4, 6), (7, 9), (10, 10)]


def test_characters_no_grammar_accepts_are_tokens_of_their_own():
    assert kinds_and_texts("é ! # : $") == [
        (Kind.UNKNOWN, "é"),
        (Kind.UNKNOWN, "!"),
        (Kind.UNKNOWN, "#"),
        (Kind.UNKNOWN, ":"),
        (Kind.UNKNOWN, "$"),
        (Kind.EOF, "<EOF>"),
    ]


def test_names_start_with_a_letter_or_underscore():
    assert kinds_and_texts("_a 1a") == [
        (Kind.NAME, "_a"),
        (Kind.NUMBER, "1"),
        (Kind.NAME, "a"),
        (Kind.EOF, "<EOF>"),
    ]
