"""An index's projection in a design document, read from the Projection
object CreateTable takes ({ProjectionType, NonKeyAttributes}), which
CloudFormation, Terraform, DescribeTable and NoSQL Workbench models all
give."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from modeler.design import model as d
from modeler.importers.tables import kind_of

# The projection in a design document: ALL, KEYS_ONLY, or
# {"type": "INCLUDE", "attributes": [...]}.
ProjectionDocument = str | dict[str, Any]


def read_projection(
    data: Any,
    path: str,
    *,
    index: str,
    keys: set[str],
    required: bool,
    fail: Callable[[str, str], None],
    notes: list[str],
) -> ProjectionDocument:
    """The projection of `index` from `data`. `keys` are the key attributes
    of the table and the index: every index projects them and DynamoDB
    refuses them in NonKeyAttributes (NoSQL Workbench models, AWS's own among
    them, list them), so they are left out with a note. A problem goes to
    `fail(path, message)`, `path` being the Projection's (`path`) or its
    member's, and the projection is read as ALL. A missing Projection is a
    problem when `required` (CreateTable), ALL otherwise."""
    if data is None:
        if required:
            fail(path, "is required: {ProjectionType: ALL | KEYS_ONLY | INCLUDE}")
        return "ALL"
    if not isinstance(data, dict):
        fail(path, f"expected an object, found {kind_of(data)}")
        return "ALL"
    kind = data.get("ProjectionType", "ALL")
    if kind not in d.PROJECTION_TYPES:
        fail(
            f"{path}.ProjectionType", f"{kind!r} is not one of ALL, KEYS_ONLY, INCLUDE"
        )
        return "ALL"
    if kind != "INCLUDE":
        return str(kind)
    attrs = data.get("NonKeyAttributes") or []
    if not isinstance(attrs, list) or not all(isinstance(a, str) for a in attrs):
        fail(f"{path}.NonKeyAttributes", "expected a list of names")
        return "ALL"
    if not attrs:
        notes.append(
            f"index {index}: an INCLUDE projection without attributes is read as "
            "KEYS_ONLY"
        )
        return "KEYS_ONLY"
    listed = [a for a in attrs if a in keys]
    kept = [a for a in attrs if a not in keys]
    if listed:
        notes.append(
            f"index {index}: the key attribute{'s' * (len(listed) > 1)} "
            f"{', '.join(listed)} left out of its INCLUDE projection, as every "
            "index projects the keys"
            + ("; nothing else is listed, so it is KEYS_ONLY" if not kept else "")
        )
    return {"type": "INCLUDE", "attributes": kept} if kept else "KEYS_ONLY"
