"""The longest value, in UTF-8 bytes, that a key template can render.

DynamoDB rejects a write whose partition key is over 2048 bytes or whose sort
key is over 1024, so a design review needs an upper bound before any item
exists. The bound comes from an attribute's `max_length` or from what its
sample generator can produce; an attribute with neither is unbounded and the
estimate is None (no finding rather than a guess).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modeler.design.model import Attribute, Entity
from modeler.keys.template import Literal, Placeholder, Template

# Kinds whose values are plain ASCII, so a character is a byte.
ASCII_GENERATORS = frozenset({"uuid", "ulid", "date", "timestamp", "int", "sequence"})
# ISO-8601 date and timestamp (with microseconds and an offset) lengths.
_FIXED_LENGTHS = {"uuid": 36, "ulid": 26, "date": 10, "timestamp": 32}
_MAX_UTF8_BYTES_PER_CHARACTER = 4


def max_key_bytes(template: Template, entity: Entity) -> int | None:
    total = 0
    for part in template.parts:
        if isinstance(part, Literal):
            total += len(part.text.encode())
            continue
        size = placeholder_max_bytes(part, entity.attribute(part.attribute))
        if size is None:
            return None
        total += size
    return total


def placeholder_max_bytes(
    placeholder: Placeholder, attribute: Attribute | None
) -> int | None:
    if attribute is None:
        return None
    kind = attribute.generator.kind if attribute.generator else ""
    params: Mapping[str, Any] = (
        attribute.generator.params if attribute.generator else {}
    )
    size: int | None
    if attribute.max_length is not None:
        ascii_only = kind in ASCII_GENERATORS or attribute.type == "B"
        per_character = 1 if ascii_only else _MAX_UTF8_BYTES_PER_CHARACTER
        size = attribute.max_length * per_character
    else:
        size = _generated_length(kind, params)
    if size is None:
        return None
    if placeholder.places is not None:
        size += 1 + placeholder.places
    return max(size, placeholder.width or 0)


def _generated_length(kind: str, params: Mapping[str, Any]) -> int | None:
    if kind in ("date", "timestamp") and "format" in params:
        return None  # a custom strftime format can be any length
    if kind in _FIXED_LENGTHS:
        return _FIXED_LENGTHS[kind]
    if kind == "int":
        bounds = [_integer(params.get(name)) for name in ("min", "max")]
        if bounds[1] is None:
            return None
        return max(len(str(b)) for b in bounds if b is not None)
    if kind == "sequence":
        width, highest = _integer(params.get("width")), _integer(params.get("max"))
        if width is not None:
            return width
        return len(str(highest)) if highest is not None else None
    if kind == "choice":
        options = params.get("options")
        if not isinstance(options, (list, tuple)) or not options:
            return None
        return max(len(str(o).encode()) for o in options)
    if kind == "constant" and "value" in params:
        return len(str(params["value"]).encode())
    return None


def _integer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
