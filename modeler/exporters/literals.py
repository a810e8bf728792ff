"""User text written into generated code: as a string literal of the target
language or as a one-line comment, never spliced in as code.

Names, descriptions, tags and key values are typed by users. Every exporter
that writes source (Python, HCL, shell) puts them through these functions,
so whatever they hold (quotes, backslashes, newlines, `\"\"\"`, `${`, NUL)
reads back as the same text and nothing else.
"""

from __future__ import annotations

_PYTHON_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    """A character as Python and HCL write it in a string: \\xNN is Python's
    only, so both use \\uNNNN and \\UNNNNNNNN."""
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def python_string(text: str) -> str:
    """A double-quoted Python literal whose value is `text`."""
    return (
        '"'
        + "".join(
            _PYTHON_ESCAPES.get(c) or (c if c.isprintable() else _escaped(c))
            for c in text
        )
        + '"'
    )


def python_docstring(text: str, indent: str = "") -> str:
    """A triple-quoted Python literal whose value is `text` with `indent`
    before each line but the first and blank ones, and before the closing
    quotes when `text` ends with a newline (as a docstring is indented).

    Backslashes and non-printable characters other than newlines are
    escaped; a quote is escaped only where it could close the literal: when
    another quote follows it or when it ends the text."""
    out = []
    for index, char in enumerate(text):
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            last = index == len(text) - 1
            out.append('\\"' if last or text[index + 1] == '"' else '"')
        elif char == "\n":
            # No indent on a blank line; the closing quotes are indented.
            follows = text[index + 1 : index + 2]
            out.append("\n" if follows == "\n" else "\n" + indent)
        elif char.isprintable():
            out.append(char)
        else:
            out.append(_escaped(char))
    return '"""' + "".join(out) + '"""'


def typescript_string(text: str) -> str:
    """A double-quoted TypeScript (JavaScript) literal whose value is `text`:
    JavaScript's escapes, \\uNNNN for other non-printable characters and
    \\u{NNNNN} past the Basic Multilingual Plane. `${` is literal text in a
    double-quoted string, unlike in a template literal."""
    return (
        '"'
        + "".join(
            _PYTHON_ESCAPES.get(c)
            or (
                c
                if c.isprintable()
                else f"\\u{ord(c):04x}"
                if ord(c) <= 0xFFFF
                else f"\\u{{{ord(c):x}}}"
            )
            for c in text
        )
        + '"'
    )


def hcl_string(text: str) -> str:
    """A quoted HCL string whose value is `text`: HCL's escapes (\\n, \\r,
    \\t, \\", \\\\, and \\uNNNN for other control characters) and `${`/`%{`
    doubled so they stay literal text rather than an interpolation or a
    directive. Other characters stay as they are: HCL files are UTF-8."""
    body = "".join(
        _PYTHON_ESCAPES.get(c) or (_escaped(c) if _is_control(c) else c) for c in text
    )
    return '"' + body.replace("${", "$${").replace("%{", "%%{") + '"'


def _is_control(char: str) -> bool:
    """C0 and C1 control characters, and lone surrogates (not UTF-8)."""
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF


def comment_text(text: str) -> str:
    """Text for a one-line comment in any language: runs of whitespace (line
    breaks included) become one space and other non-printable characters
    their \\u escape, so the comment cannot end early or hide a byte."""
    return "".join(
        c if c.isprintable() else _escaped(c) for c in " ".join(text.split())
    )
