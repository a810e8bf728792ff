"""The generator of an attribute the designer gave none (from its name or
its type), and the text and binary attributes made at their declared
max_length."""

from __future__ import annotations

import re

from modeler.design import model as d

_NAME_HINTS: tuple[tuple[re.Pattern[str], d.Generator], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), d.Generator("faker", d.freeze({"value": p})))
    for pattern, p in (
        (r"e-?mail", "email"),
        (r"phone", "phone_number"),
        (r"(^|_)(url|website)|Url$|Website$", "url"),
        (r"company|organi[sz]ation", "company"),
        (r"country", "country"),
        (r"city", "city"),
        (r"address|street", "street_address"),
        (r"(first|given)_?name", "first_name"),
        (r"(last|family|sur)_?name", "last_name"),
        (r"name$", "name"),
        (r"title|description|comment|note|text|body|bio", "sentence"),
    )
)
_DATE_HINT = re.compile(r"(At|_at|Time|_time)$")
_DAY_HINT = re.compile(r"(Date|_date|Day|_day|On|_on)$")
_DEFAULT_RANGE = d.freeze({"from": "2024-01-01", "to": "2026-06-30"})
_BY_TYPE = {
    "S": d.Generator("faker", d.freeze({"value": "word"})),
    "N": d.Generator("int", d.freeze({"min": 0, "max": 1000})),
    "B": d.Generator("uuid"),
    "BOOL": d.Generator("bool"),
    "NULL": d.Generator("constant", d.freeze({"value": None})),
    "L": d.Generator("list", d.freeze({"of": {"faker": "word"}, "min": 0, "max": 3})),
    "M": d.Generator("map", d.freeze({"fields": {"value": {"faker": "word"}}})),
    "SS": d.Generator("list", d.freeze({"of": {"faker": "word"}, "min": 1, "max": 3})),
    "NS": d.Generator(
        "list", d.freeze({"of": {"int": {"min": 1, "max": 100}}, "min": 1, "max": 3})
    ),
    "BS": d.Generator("list", d.freeze({"of": "uuid", "min": 1, "max": 2})),
}


# A text or binary attribute this long (characters or bytes) and without a
# generator is made at its max_length (`Compiler._declared_size`).
SIZED_BY_LENGTH = 1024
# Such attributes together take at most this many bytes of an item, so it
# stays under DynamoDB's 400 KB with the rest of the item.
SIZED_ITEM_BUDGET = 380 * 1024


def declared_length(entity: d.Entity, attr: d.Attribute) -> int | None:
    """The length (characters or bytes) at which the entity's text or binary
    attribute is made when it is made at its max_length (see
    `Compiler._declared_size`); None when it is not."""
    length = attr.max_length
    if length is None or not sized_by_length(attr):
        return None
    # A sized attribute has a max_length (`sized_by_length`).
    total = sum(a.max_length or 0 for a in entity.attributes if sized_by_length(a))
    if total > SIZED_ITEM_BUDGET:
        length = length * SIZED_ITEM_BUDGET // total
    return length


def sized_by_length(attr: d.Attribute) -> bool:
    return (
        attr.generator is None
        and attr.type in ("S", "B")
        and attr.max_length is not None
        and attr.max_length >= SIZED_BY_LENGTH
    )


def default_generator(attr: d.Attribute) -> d.Generator:
    """A generator for an attribute the designer gave none: from its name
    where the name says what it holds (email, city, createdAt), else from
    its type."""
    if attr.type == "S":
        if _DATE_HINT.search(attr.name):
            return d.Generator("timestamp", _DEFAULT_RANGE)
        if _DAY_HINT.search(attr.name):
            return d.Generator("date", _DEFAULT_RANGE)
        for pattern, generator in _NAME_HINTS:
            if pattern.search(attr.name):
                return generator
    return _BY_TYPE[attr.type]
