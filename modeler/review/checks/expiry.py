"""The table's TTL attribute: DynamoDB reads it as a moment in epoch
seconds, so values in milliseconds (the year 50,000 and more) or a duration
(a day after 1970) leave every item in the table for good."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from modeler.design import model as d
from modeler.design.findings import Finding, finding
from modeler.review.checks.common import attribute_location
from modeler.review.evidence import Evidence

# Epoch seconds reach 10**11 in the year 5138: a TTL at or past it was
# written in milliseconds (about 1.7e12 today) or microseconds.
MILLISECONDS_FROM = Decimal(10) ** 11
# DynamoDB deletes no item whose TTL is more than five years in the past.
IGNORED_PAST = dt.timedelta(days=5 * 365)
SECONDS_PER_YEAR = Decimal("31556952")  # a Gregorian year's mean


def check_expiry(evidence: Evidence) -> Iterator[Finding]:
    design = evidence.design
    name = design.table.ttl_attribute
    if not name:
        return
    oldest = Decimal(int((dt.datetime.now(dt.UTC) - IGNORED_PAST).timestamp()))
    for entity in design.entities:
        attribute = entity.attribute(name)
        if attribute is None or attribute.type != "N":
            continue  # an S TTL is the design check's error
        values, source = _values(evidence, entity, attribute)
        if not values:
            continue
        too_large = [v for v in values if v >= MILLISECONDS_FROM]
        too_old = [v for v in values if v < oldest]
        if len(too_large) * 2 > len(values):
            yield _milliseconds(entity, attribute, too_large, source)
        elif len(too_old) * 2 > len(values):
            yield _past(entity, attribute, too_old, source, oldest)


def _values(
    evidence: Evidence, entity: d.Entity, attribute: d.Attribute
) -> tuple[list[Decimal], str]:
    """The TTL values of the entity's sample items, or without a sample the
    bounds its generator states."""
    sampled = [
        value
        for position in evidence.positions((entity.name,))
        if isinstance(value := evidence.items[position].get(attribute.name), Decimal)
    ]
    if sampled:
        return sampled, "sample value"
    generator = attribute.generator
    if generator is None or generator.kind not in ("int", "decimal", "constant"):
        return [], ""
    keys = ("value",) if generator.kind == "constant" else ("min", "max")
    bounds = []
    for key in keys:
        try:
            bounds.append(Decimal(str(generator.params.get(key))))
        except (InvalidOperation, ValueError):
            return [], ""
    return bounds, "generator bound"


def _year(seconds: Decimal) -> str:
    year = int(1970 + seconds / SECONDS_PER_YEAR)
    return f"{year:,}" if year >= 10_000 else str(year)


def _milliseconds(
    entity: d.Entity, attribute: d.Attribute, values: list[Decimal], source: str
) -> Finding:
    example = max(values)
    return finding(
        "ttl-not-seconds",
        "warning",
        "TTL written in milliseconds: nothing ever expires",
        attribute_location(entity.name, attribute.name),
        why="DynamoDB reads the TTL attribute as epoch seconds, and these "
        "values are epoch milliseconds (or finer), so each item's expiry lies "
        "tens of thousands of years ahead and TTL never deletes it: the "
        "table keeps growing and every expired item is still read and billed.",
        evidence=[
            f"{source}s such as {example}: as epoch seconds that is the year "
            f"{_year(example)}",
            f"{len(values):,} {attribute.name} value"
            f"{'s' if len(values) != 1 else ''} of {entity.name} at or past "
            f"{MILLISECONDS_FROM:,} (the year 5138 in seconds)",
        ],
        fix=f"Write {attribute.name} in epoch seconds: divide the milliseconds "
        "by 1,000 (JavaScript Math.floor(Date.now() / 1000) + lifetime; Python "
        "int(time.time()) + lifetime); in the design, the expires generator "
        "makes such values ({expires: {from: createdAt, days: 30}}).",
        figures={"example": float(example), "values": len(values)},
    )


def _past(
    entity: d.Entity,
    attribute: d.Attribute,
    values: list[Decimal],
    source: str,
    oldest: Decimal,
) -> Finding:
    example = min(values)
    return finding(
        "ttl-not-seconds",
        "warning",
        "TTL holds a duration or a moment long past: nothing expires",
        attribute_location(entity.name, attribute.name),
        why="DynamoDB reads the TTL attribute as the moment of expiry in epoch "
        "seconds and does not delete items whose TTL is more than five years "
        "in the past, so values such as a lifetime in seconds (86,400 for a "
        "day, read as 2 January 1970) are never acted on.",
        evidence=[
            f"{source}s such as {example}: as epoch seconds that is the year "
            f"{_year(example)}",
            f"{len(values):,} {attribute.name} value"
            f"{'s' if len(values) != 1 else ''} of {entity.name} before "
            f"{oldest} (five years ago)",
        ],
        fix=f"Write {attribute.name} as the moment of expiry: the write's "
        "time in epoch seconds plus the lifetime (int(time.time()) + 86400 for a "
        "day); in the design, the expires generator makes such values "
        "({expires: {from: createdAt, days: 30}}).",
        figures={"example": float(example), "values": len(values)},
    )
