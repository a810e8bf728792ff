"""What the ElectroDB and DynamoDB-Toolbox readers share. Imports no Django."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any


class JsModelError(ValueError):
    """What the module built cannot become a design; the message says which
    part and what was expected."""


def literal(text: str) -> str:
    """Text as a key template writes it literally."""
    return text.replace("{", "{{").replace("}", "}}")


def _table_name(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:255]
    return name if len(name) >= 3 else f"{name}-table"


def table_document(
    name: str,
    keys: dict[str, tuple[str, str | None]],
    *,
    local: Collection[str] = (),
    projections: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The design document's table: `keys` maps each index's name to its
    partition and sort key attributes, the table's own under ''; the
    indexes named in `local` are local, the others global; `projections`
    gives an index's projection where the module states one (ElectroDB
    does, Toolbox does not), else ALL. Both libraries' keys here are text
    (S), and neither states billing."""

    def key(attribute: str) -> dict[str, str]:
        return {"name": attribute, "type": "S"}

    pk, sk = keys[""]
    table: dict[str, Any] = {"name": _table_name(name), "partition_key": key(pk)}
    if sk:
        table["sort_key"] = key(sk)
    table["billing"] = {"mode": "PAY_PER_REQUEST"}
    indexes = []
    for index, (ipk, isk) in keys.items():
        if not index:
            continue
        spec: dict[str, Any] = {"name": index, "kind": "global"}
        if index in local:  # it shares the table's partition key
            spec["kind"] = "local"
        else:
            spec["partition_key"] = key(ipk)
        if isk:
            spec["sort_key"] = key(isk)
        spec["projection"] = (projections or {}).get(index, "ALL")
        indexes.append(spec)
    if indexes:
        table["indexes"] = indexes
    return table
