"""How many bytes a design's sample data takes, from the design alone,
before any item is made: `modeler.design_check.limits` holds it to SAMPLE_MAX_BYTES as
it holds the number of items to SAMPLE_MAX_ITEMS.

Most values are a few bytes and are counted so. What makes sample data
large is what the design sizes itself: a document or a blob made at its
`max_length` (up to 380 KB an item, `values.declared_length`) and
constants, counted at their size. Sizes are DynamoDB's (attribute names
and values); a file of the items in DynamoDB JSON is larger (binary values
in base64, the JSON around them). The items a project's users typed or
imported (a thousand at most, each from a file under DESIGN_FILE_MAX_BYTES)
are not counted."""

from __future__ import annotations

import json
from dataclasses import dataclass

from modeler.design import model as d
from modeler.keys import TemplateSyntaxError, parse_template
from modeler.keys.template import Literal
from modeler.sampledata.defaults import declared_length
from modeler.sampledata.generate import _scale_for, max_items, planned_counts

# What a value the design does not size is counted at (a word, a number, a
# date, an id): the order of magnitude, not the exact figure.
NOMINAL_VALUE_BYTES = 8


@dataclass(frozen=True)
class PlannedBytes:
    """The sample data's bytes, and the entity that takes the most of them:
    `count` items of about `item_bytes` each."""

    total: int
    entity: str = ""
    count: int = 0
    item_bytes: int = 0

    def described(self) -> str:
        """What takes the bytes, for a message."""
        return (
            f"{self.entity}'s {self.count:,} items of about {self.item_bytes:,} "
            f"bytes each would make the sample data about {self.total:,} bytes"
        )


def planned_bytes(
    design: d.Design, *, seed: int | None = None, items: int | None = None
) -> PlannedBytes:
    """About how many bytes `generate` makes (exactly `items` items when
    given, as `generate(items=...)` makes them), from the planned counts."""
    seed = design.sample_data.seed if seed is None else seed
    scale = 1.0 if items is None else _scale_for(design, seed, items)
    counts = planned_counts(design, stop_after=max_items() * 2, seed=seed, scale=scale)
    planned = sum(counts.values())
    if items is not None and planned > items:
        # The list is cut after the first `items` items, whole families
        # first: each entity keeps about its share.
        counts = {name: count * items // planned for name, count in counts.items()}
    sizes = {
        entity.name: item_bytes(design, entity)
        for entity in design.entities
        if entity.name in counts
    }
    if not sizes:
        return PlannedBytes(0)
    largest = max(sizes, key=lambda name: counts[name] * sizes[name])
    return PlannedBytes(
        sum(counts[name] * size for name, size in sizes.items()),
        largest,
        counts[largest],
        sizes[largest],
    )


def item_bytes(design: d.Design, entity: d.Entity) -> int:
    """About how many bytes an item of `entity` takes: its key attributes
    (their templates' text, a value per placeholder) and its attributes,
    each in the share of items that have it."""
    size = 0
    for key in design.table.all_key_attributes():
        template = entity.keys.get(key.name)
        if template is not None:
            size += len(key.name.encode()) + _template_bytes(template.template)
    for attribute in entity.attributes:
        value = _value_bytes(entity, attribute)
        size += round(attribute.presence * (len(attribute.name.encode()) + value))
    return size


def _template_bytes(template: str) -> int:
    try:
        parsed = parse_template(template)
    except TemplateSyntaxError:
        return len(template.encode())
    literal = sum(len(p.text.encode()) for p in parsed.parts if isinstance(p, Literal))
    return literal + NOMINAL_VALUE_BYTES * len(parsed.placeholders)


def _value_bytes(entity: d.Entity, attribute: d.Attribute) -> int:
    length = declared_length(entity, attribute)
    if length is not None:
        return length  # ASCII text or raw bytes: a byte each
    generator = attribute.generator
    if generator is not None and generator.kind == "constant":
        value = generator.params.get("value", generator.params)
        return len(json.dumps(d.thaw(value), default=str).encode())
    return NOMINAL_VALUE_BYTES
