"""NoSQL Workbench's vocabulary, shared by its importer and its exporter:
the attribute type names of a ModelSchema, its `${name}` key templates, and
an item's primary key as the texts of its values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from modeler.design import model as d
from modeler.keys import parse_template
from modeler.keys.template import Placeholder

SCHEMA_TYPES = {
    "String": "S",
    "Number": "N",
    "Binary": "B",
    "Boolean": "BOOL",
    "Null": "NULL",
    "List": "L",
    "Map": "M",
    "StringSet": "SS",
    "NumberSet": "NS",
    "BinarySet": "BS",
}
SCHEMA_NAMES = {v: k for k, v in SCHEMA_TYPES.items()}


_SCHEMA_PLACEHOLDER = re.compile(r"\$\{([^{}]+)\}")


def has_placeholder(text: str) -> bool:
    try:
        return bool(parse_template(text).placeholders)
    except ValueError:
        return False


def from_schema_template(value: str) -> str:
    """`${timestamp}#${roomId}` as a key template: `{timestamp}#{roomId}`."""
    if "${" not in value:
        return value
    out, position = [], 0
    for match in _SCHEMA_PLACEHOLDER.finditer(value):
        out.append(template_literal(value[position : match.start()]))
        out.append("{" + match.group(1) + "}")
        position = match.end()
    out.append(template_literal(value[position:]))
    return "".join(out)


def to_schema_template(template: str) -> str:
    """A key template in ModelSchema's `${name}` form (formats kept)."""
    out = []
    for part in parse_template(template).parts:
        if isinstance(part, Placeholder):
            spec = f":{part.format_spec}" if part.format_spec else ""
            out.append("${" + part.attribute + spec + "}")
        else:
            out.append(part.text)
    return "".join(out)


def template_literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def key_texts(item: dict[str, dict], keys: Iterable[d.KeyAttribute | None]) -> list:
    """An item's primary key as the texts of its values (a key is S, N or
    B, so its type says how to read the text back); None for a key the
    item lacks."""
    return [
        next(iter(item[k.name].values()), None) if k.name in item else None
        for k in keys
        if k
    ]
