"""How large a design may be: entities, attributes, access patterns, key
templates, and the generated sample items and their bytes.

Anyone who can sign up can import a design, and every page of a project
reads, checks and simulates it; these limits keep one design from holding a
worker. The site sets them from settings (`modeler.apps` calls `configure`
with DESIGN_MAX_ENTITIES and the rest, read from the environment); the
domain code reads `current()`. Each problem names the limit and its setting,
so an operator knows what to raise and a user what to shrink.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from modeler.design import model as d
from modeler.design.findings import Finding, error


@dataclass(frozen=True)
class DesignLimits:
    entities: int = 1_000
    attributes: int = 200  # per entity
    patterns: int = 1_000
    template_chars: int = 2_048  # a key template or a condition
    sample_items: int = 100_000  # generated items, all entities together
    sample_bytes: int = 250_000_000  # their size, estimated from the design

    # The setting (and environment variable) of each limit, for messages.
    SETTINGS: ClassVar[dict[str, str]] = {
        "entities": "DESIGN_MAX_ENTITIES",
        "attributes": "DESIGN_MAX_ATTRIBUTES",
        "patterns": "DESIGN_MAX_PATTERNS",
        "template_chars": "DESIGN_MAX_TEMPLATE_CHARS",
        "sample_items": "SAMPLE_MAX_ITEMS",
        "sample_bytes": "SAMPLE_MAX_BYTES",
    }
    UNITS: ClassVar[dict[str, str]] = {"sample_bytes": " bytes"}

    def exceeded(self, limit: str, what: str) -> str:
        """The message for a design past `limit`: `what` says how far."""
        most = f"{getattr(self, limit):,}{self.UNITS.get(limit, '')}"
        return (
            f"{what}; this workbench allows at most {most} "
            f"(setting {self.SETTINGS[limit]})"
        )


_current = DesignLimits()


def current() -> DesignLimits:
    return _current


def configure(limits: DesignLimits) -> None:
    global _current
    _current = limits


@contextlib.contextmanager
def configured(limits: DesignLimits) -> Iterator[DesignLimits]:
    """`limits` for the duration of a block (tests, benchmarks)."""
    previous = current()
    configure(limits)
    try:
        yield limits
    finally:
        configure(previous)


def check_limits(design: d.Design, limits: DesignLimits | None = None) -> list[Finding]:
    """The design's problems with the limits: its shape (`check_shape`) and,
    when that is within them, its sample data (`check_sample_size`)."""
    problems = check_shape(design, limits)
    return problems or check_sample_size(design, limits)


def check_shape(design: d.Design, limits: DesignLimits | None = None) -> list[Finding]:
    """Too many entities, access patterns or attributes of an entity."""
    return list(_check_shape(design, limits or current()))


def check_sample_size(
    design: d.Design, limits: DesignLimits | None = None
) -> list[Finding]:
    """A sample count, or the whole sample data, past the number of items,
    or the sample data past its bytes. The sample data is planned (counts
    drawn, no item made), in time bounded by the limit."""
    return list(_check_sample_size(design, limits or current()))


def check_sample_bytes(
    design: d.Design,
    *,
    seed: int | None = None,
    items: int | None = None,
    limits: DesignLimits | None = None,
) -> list[Finding]:
    """The sample data (of `seed`, exactly `items` items when given) past
    its bytes, estimated from the design (`sampledata.sizes`)."""
    from modeler.sampledata.sizes import planned_bytes

    limits = limits or current()
    try:
        planned = planned_bytes(design, seed=seed, items=items)
    except Exception:
        # Malformed counts, parents or generators cannot be planned; the
        # design check reports them.
        return []
    if planned.total <= limits.sample_bytes:
        return []
    return [
        error(
            "sample-bytes-limit",
            f"entities.{planned.entity}.sample.count",
            limits.exceeded("sample_bytes", planned.described()),
        )
    ]


def _check_shape(design: d.Design, limits: DesignLimits) -> Iterator[Finding]:
    entities, patterns = design.entities, design.access_patterns
    if len(entities) > limits.entities:
        yield error(
            "entities-limit",
            f"entities.{entities[limits.entities].name}",
            limits.exceeded("entities", f"the design has {len(entities):,} entities"),
        )
    if len(patterns) > limits.patterns:
        yield error(
            "patterns-limit",
            f"access_patterns[{limits.patterns}]",
            limits.exceeded(
                "patterns", f"the design has {len(patterns):,} access patterns"
            ),
        )
    for entity in entities:
        attributes = entity.attributes
        if len(attributes) > limits.attributes:
            yield error(
                "attributes-limit",
                f"entities.{entity.name}.attributes.{attributes[limits.attributes].name}",
                limits.exceeded(
                    "attributes",
                    f"{entity.name} has {len(attributes):,} attributes",
                ),
            )


def _check_sample_size(design: d.Design, limits: DesignLimits) -> Iterator[Finding]:
    from modeler.sampledata.generate import planned_items

    most = limits.sample_items
    for entity in design.entities:
        count = entity.sample.count
        largest = max(count.value, count.high)
        if largest > most:
            yield error(
                "sample-items-limit",
                f"entities.{entity.name}.sample.count",
                limits.exceeded("sample_items", f"a count of {largest:,} items"),
            )
            return
    try:
        total, last = planned_items(design, stop_after=most)
    except Exception:
        # Malformed counts, parents or generators cannot be planned; the
        # design check reports them.
        return
    if total > most:
        yield error(
            "sample-items-limit",
            f"entities.{last}.sample.count",
            limits.exceeded(
                "sample_items",
                f"with {last}'s items the sample data would hold {total:,} items",
            ),
        )
        return
    yield from check_sample_bytes(design, limits=limits)


def new_excesses(before: d.Design, after: d.Design) -> list[Finding]:
    """The errors of `after` with limits that `before` was within: an edit
    may shrink a design already past a limit (the site may have lowered
    it), not take a design past one."""
    # A limit's findings have one code each.
    already = {p.code for p in check_limits(before)}
    return [p for p in check_limits(after) if p.is_error and p.code not in already]
