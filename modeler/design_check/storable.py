"""What the database can store: text without a NUL character."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

from modeler.design import model as d
from modeler.design.findings import Finding, error


def check_storable(design: d.Design) -> list[Finding]:
    """Text with a NUL character, anywhere in the design: PostgreSQL cannot
    store one (in a column or in JSON), and no DynamoDB name or key needs it;
    refused on every database alike."""
    if "\\x00" not in repr(design):
        # Python writes a NUL in a text's repr as \x00: without one, there
        # is none to find, and the walk through every field is skipped
        # (every save checks this).
        return []
    return [
        error(
            "nul-character",
            path,
            "contains a NUL character (\\0), which cannot be stored",
        )
        for path in _nul_paths(design, "")
    ]


def _nul_paths(value: object, path: str) -> Iterator[str]:
    if isinstance(value, str):
        if "\x00" in value:
            yield path or "name"
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            child = getattr(value, field.name)
            yield from _nul_paths(child, _nul_child_path(value, path, field.name))
    elif isinstance(value, Mapping):
        for key, child in value.items():
            if "\x00" in str(key):
                yield f"{path}.{key!r}"
            yield from _nul_paths(child, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, child in enumerate(value):
            yield from _nul_paths(child, _nul_item_path(path, index, child))


def _nul_child_path(parent: object, path: str, field: str) -> str:
    # Paths in the design file's terms: entities.Order.attributes.total.
    if isinstance(parent, d.Design) and field == "sample_data":
        return "sample_data"
    return f"{path}.{field}" if path else field


def _nul_item_path(path: str, index: int, child: object) -> str:
    if isinstance(child, (d.Entity, d.Attribute)) and "\x00" not in child.name:
        return f"{path}.{child.name}"
    return f"{path}[{index}]"
