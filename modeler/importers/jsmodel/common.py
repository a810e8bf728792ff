"""What the ElectroDB and DynamoDB-Toolbox readers share. Imports no Django."""

from __future__ import annotations

import re


class JsModelError(ValueError):
    """What the module built cannot become a design; the message says which
    part and what was expected."""


def literal(text: str) -> str:
    """Text as a key template writes it literally."""
    return text.replace("{", "{{").replace("}", "}}")


def table_name(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:255]
    return name if len(name) >= 3 else f"{name}-table"


def attribute_types(keys: dict[str, tuple[str, str | None]]) -> dict[str, str]:
    """S for every key attribute: both libraries' keys here are text."""
    return {name: "S" for pair in keys.values() for name in pair if name}
