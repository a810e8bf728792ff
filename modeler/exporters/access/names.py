"""Python identifiers for what users named: entities, attributes, patterns
and parameters. A name becomes letters, digits and underscores, never a
keyword, a builtin or a name the module binds itself, and never the same as
another in its scope."""

from __future__ import annotations

import builtins
import keyword
import re

# Names the generated module binds at its top level (its helpers start with
# an underscore, which user names cannot after sanitising).
MODULE_NAMES = frozenset(
    {
        "annotations",
        "dataclass",
        "field",
        "re",
        "Any",
        "Callable",
        "Decimal",
        "Generic",
        "Iterator",
        "Mapping",
        "Protocol",
        "Sequence",
        "TypeVar",
        "T",
        "Number",
        "TABLE_NAME",
        "DynamoDBClient",
        "DataAccessError",
        "ConditionFailed",
        "TransactionCanceled",
        "UnrecognisedItem",
        "MalformedItem",
        "Page",
        "AnyEntity",
        "recognise",
        "client",
    }
)
RESERVED = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | MODULE_NAMES


def snake(name: str) -> str:
    """`orderDate` -> `order_date`, `GSI1PK` -> `gsi1pk`, `Get a user` ->
    `get_a_user`: lower case words joined by underscores (never leading)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"[^a-z0-9]+", "_", spaced.lower()).strip("_")


def camel(name: str) -> str:
    """`line item` -> `LineItem`; `LineItem` stays."""
    words = re.split(r"[^A-Za-z0-9]+", name)
    return "".join(w[:1].upper() + w[1:] for w in words if w)


def unique(base: str, taken: set[str], *, fallback: str, suffix: str = "") -> str:
    """`base` as an identifier free in `taken` (which it joins): a leading
    digit is prefixed with `fallback`, a reserved name gets `suffix` (or
    `_`), a repeat a number."""
    name = base or fallback
    if name[0].isdigit():
        name = f"{fallback}_{name}" if fallback.islower() else f"{fallback}{name}"
    if name in RESERVED or keyword.issoftkeyword(name):
        name += suffix or "_"
    candidate, n = name, 2
    while candidate in taken or candidate in RESERVED:
        candidate = f"{name}_{n}" if name[-1:].isalnum() else f"{name}{n}"
        n += 1
    taken.add(candidate)
    return candidate


def python_string(text: str) -> str:
    """A Python literal whose value is `text`, quoted as ruff's formatter
    quotes it (double quotes unless single ones need fewer escapes), so a
    generated module passes `ruff format --check` whatever the user typed."""
    quote = "'" if text.count('"') > text.count("'") else '"'
    escapes = {"\\": "\\\\", quote: "\\" + quote, "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return (
        quote
        + "".join(
            escapes.get(c) or (c if c.isprintable() else _escaped(c)) for c in text
        )
        + quote
    )


def _escaped(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
