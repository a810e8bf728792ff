"""Syntax highlighting of exported text as HTML, on the server with
Pygments: spans with short token classes (`k`, `s2`, `nt`...) that the
Export section's stylesheet colours. Pygments escapes the text, so user
text in an export cannot become markup."""

from __future__ import annotations

from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

# The export formats' languages, as Pygments names them.
_LEXERS = {
    "yaml": "yaml",
    "json": "json",
    "hcl": "terraform",
    "python": "python",
    "typescript": "typescript",
    "javascript": "javascript",
    "shell": "bash",
}
MAX_HIGHLIGHTED = 400_000  # characters; longer text is shown plain


def highlight(text: str, language: str) -> str:
    """HTML for the inside of a <pre><code>: highlighted spans."""
    if len(text) > MAX_HIGHLIGHTED:
        from html import escape

        return escape(text)
    lexer = get_lexer_by_name(_LEXERS.get(language, "text"), stripnl=False)
    formatter = HtmlFormatter(nowrap=True)
    return pygments_highlight(text, lexer, formatter)
