"""User text becomes a literal of the target language that reads back as
the same text, whatever it holds."""

from __future__ import annotations

import ast

from hypothesis import given
from hypothesis import strategies as st

from modeler.exporters.literals import (
    comment_text,
    hcl_string,
    python_docstring,
    python_string,
)

# Any text, lone surrogates included (a Python str can hold them).
ANY_TEXT = st.text(st.characters(), max_size=60)
TRICKY = st.text(
    st.sampled_from(['"', "'", "\\", "\n", "\r", "\x00", "$", "{", "%", "a"])
)


@given(st.one_of(ANY_TEXT, TRICKY))
def test_python_string_reads_back(text):
    assert ast.literal_eval(python_string(text)) == text


@given(st.one_of(ANY_TEXT, TRICKY))
def test_python_docstring_reads_back(text):
    assert ast.literal_eval(python_docstring(text)) == text


@given(st.one_of(ANY_TEXT, TRICKY))
def test_an_indented_docstring_reads_back_with_its_indent(text):
    source = "def f():\n    " + python_docstring(text, "    ") + "\n"
    docstring = ast.get_docstring(ast.parse(source).body[0], clean=False)
    lines = text.split("\n")
    indented = [lines[0], *("    " + line if line else "" for line in lines[1:])]
    closing = "    " if text.endswith("\n") else ""
    assert docstring == "\n".join(indented) + closing


@given(st.one_of(ANY_TEXT, TRICKY))
def test_comment_text_is_one_printable_line(text):
    comment = comment_text(text)
    assert comment.isprintable()
    assert len(comment.splitlines()) <= 1


@given(st.one_of(ANY_TEXT, TRICKY))
def test_hcl_strings_hold_no_interpolation_and_no_line_break(text):
    quoted = hcl_string(text)
    body = quoted[1:-1]
    assert "\n" not in body and "\r" not in body
    # Every `${` or `%{` left is escaped: preceded by its doubled sign.
    for marker in ("${", "%{"):
        start = body.find(marker)
        while start != -1:
            assert body[start - 1] == marker[0]
            start = body.find(marker, start + 2)
