"""Sample items a user typed or imported: each one DynamoDB accepts."""

from __future__ import annotations

from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.problems import Problem
from modeler.design_check.common import error
from modeler.engine.errors import ValidationException
from modeler.engine.size import MAX_ITEM_SIZE, item_size
from modeler.engine.types import from_wire, type_of


def check_sample_items(design: d.Design) -> Iterator[Problem]:
    """Each item is one DynamoDB accepts: its values valid DynamoDB JSON
    (numbers within 38 digits and 1E+126, base64 binaries, sets not empty),
    the table's primary key with its types, at most 400 KB."""
    keys = design.table.key_attributes
    for i, stored in enumerate(design.sample_data.items):
        path = f"sample_data.items[{i}]"
        item = {}
        for name, value in d.thaw(stored).items():
            try:
                item[name] = from_wire(value)
            except ValidationException as exc:
                yield error(f"{path}.{name}", f"not a DynamoDB value: {exc.message}")
        for key in keys:
            if key.name not in stored:
                yield error(
                    path,
                    f"has no '{key.name}': every item needs the table's primary key",
                )
            elif key.name in item and type_of(item[key.name]) != key.type:
                yield error(
                    f"{path}.{key.name}",
                    f"is {type_of(item[key.name])}; the table's key is {key.type}",
                )
        if (size := item_size(item)) > MAX_ITEM_SIZE:
            yield error(
                path,
                f"the item has {size:,} bytes; DynamoDB's limit is {MAX_ITEM_SIZE:,}",
            )
