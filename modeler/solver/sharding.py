"""Write sharding: a partition whose writes at peak pass what one partition
takes gets a shard attribute drawn at write time, and each read of it runs
once per shard."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from modeler.design import model as d
from modeler.review.checks.partitions import (
    LOW_CARDINALITY_WARNING,
    PARTITION_WRITE_LIMIT,
)
from modeler.review.evidence import attribute_cardinality, is_time_bucket
from modeler.solver.layouts import Keys, Layout
from modeler.solver.needs import Need
from modeler.solver.search import Plan

SHARD = "shard"
# Shards are drawn at random at write time, so some take more than their
# share: each is sized for 80% of what the review allows a partition.
SHARD_HEADROOM = 0.8


@dataclass(frozen=True)
class HotLayout:
    entity: str
    index: str
    layout: Layout
    peak: float  # WCU a second into its busiest partition
    readers: tuple[int, ...]  # the positions of the needs reading it

    @property
    def shards(self) -> int:
        allowed = PARTITION_WRITE_LIMIT * LOW_CARDINALITY_WARNING * SHARD_HEADROOM
        return math.ceil(self.peak / allowed)


def with_write_shards(
    base: d.Design, hot: list[HotLayout], keys: Keys
) -> tuple[d.Design, list[str]]:
    """Write sharding for each hot partition whose entity has no shard
    attribute yet: the entity gets `shard`, a number from 0 to N-1 drawn at
    write time (N from the peak), and each pattern reading that partition
    fixes the shard too (the application runs it once per shard, in
    parallel). Returns the design and a sentence per sharding."""
    notes = []
    entities = {e.name: e for e in base.entities}
    patterns = list(base.access_patterns)
    for found in hot:
        entity = entities[found.entity]
        if entity.attribute(SHARD) is not None or not found.readers:
            continue
        shards = found.shards
        attribute = d.Attribute(
            SHARD,
            "N",
            generator=d.Generator("int", d.freeze({"min": 0, "max": shards - 1})),
            description=f"The write shard, a number from 0 to {shards - 1} "
            "drawn at write time.",
        )
        entities[found.entity] = replace(
            entity, attributes=entity.attributes + (attribute,)
        )
        names = []
        for position in found.readers:
            pattern = patterns[position]
            expects = pattern.expects
            if expects is None:
                continue
            names.append(pattern.name)
            patterns[position] = replace(
                pattern,
                description=(
                    (pattern.description + " " if pattern.description else "")
                    + f"Run it for shards 0 to {shards - 1} and merge the results."
                ),
                parameters=pattern.parameters + (d.Parameter(SHARD, "N", "0"),),
                expects=replace(
                    expects,
                    where=expects.where
                    + (d.Predicate(SHARD, "=", ("{" + SHARD + "}",)),),
                ),
            )
        notes.append(
            f"{found.entity}'s partition {keys.pk_template(found.layout)} would take "
            f"{found.peak:,.0f} writes a second at peak, more than a partition "
            f"carries: {found.entity} gets a shard attribute (0 to {shards - 1}, "
            f"drawn at write time, so each of the {shards} shards takes at most "
            f"{found.peak / shards:,.0f}), and "
            + ", ".join(f"'{n}'" for n in names)
            + f" runs once per shard, {shards} queries in parallel"
        )
    design = replace(
        base,
        entities=tuple(entities[e.name] for e in base.entities),
        access_patterns=tuple(patterns),
    )
    return design, notes


def hot_layouts(design: d.Design, plan: Plan, needs: list[Need]) -> Iterator[HotLayout]:
    """Each layout whose one partition takes more writes at peak than the
    review allows a partition (half of its 1,000 WCU): its partition key is
    a time bucket, a few values or a constant, so writes cannot spread."""
    writes: dict[str, float] = {}
    for pattern in design.access_patterns:
        # A transactional write takes two write units for each item it writes.
        units = 2 if pattern.operation == "TransactWriteItems" else 1
        for action in pattern.actions:
            if action.operation in ("Put", "Update", "Delete"):
                count = int(action.count) if action.count.isdigit() else 1
                count *= units
                peak = max(pattern.traffic.peak_rps, pattern.traffic.rps)
                writes[action.entity] = writes.get(action.entity, 0.0) + peak * count
    allowed = PARTITION_WRITE_LIMIT * LOW_CARDINALITY_WARNING
    by_position = {n.position: n for n in needs}
    for index in plan.indexes:
        for entity, layout in index.layouts.items():
            peak = writes.get(entity, 0.0) * _partition_share(design, layout)
            if peak <= allowed:
                continue
            readers = tuple(
                p for p in index.serves if entity in by_position[p].entities
            )
            yield HotLayout(entity, index.name, layout, peak, readers)


def hot_partitions(
    built: d.Design, plan: Plan, keys: Keys, needs: list[Need]
) -> Iterator[str]:
    """The hot partitions a proposal still has, with the write sharding that
    would spread them."""
    by_position = {n.position: n for n in needs}
    for hot in hot_layouts(built, plan, needs):
        readers = [by_position[p].name for p in hot.readers]
        where = "the table" if hot.index == "table" else hot.index
        yield (
            f"{hot.entity}'s partition {keys.pk_template(hot.layout)} on {where} "
            f"takes {hot.peak:,.0f} writes a second at peak, more than a "
            f"partition carries: give {hot.entity} a shard attribute (a number "
            f"from 0 to {hot.shards - 1} chosen at write time), fix shard in "
            + (", ".join(f"'{r}'" for r in readers) or "the patterns reading it")
            + f" too, and read the {hot.shards} shards in parallel"
        )


def _partition_share(design: d.Design, layout: Layout) -> float:
    """The share of the entity's writes that land in its busiest partition."""
    entity = design.entity(layout.entity)
    if layout.sparse is not None:
        # Only the items holding the sparse value are written into the index.
        attribute = entity.attribute(layout.sparse[0]) if entity is not None else None
        return _value_share(attribute, layout.sparse[1]) if attribute else 1.0
    if layout.whole:
        return 1.0
    share = 1.0
    for name in layout.pk:
        attribute = entity.attribute(name) if entity is not None else None
        if is_time_bucket(attribute):
            continue
        values = attribute_cardinality(attribute)
        if attribute is None or values is None:
            return 0.0
        share *= _busiest_value_share(attribute, values)
    return share


def _busiest_value_share(attribute: d.Attribute, values: int) -> float:
    """The share of the items that take the attribute's most common value:
    a weighted choice's heaviest weight (a popular level takes its weight's
    share of the writes, not a level's even share), else an even share."""
    generator = attribute.generator
    if generator is not None and generator.kind == "choice":
        params = generator.params
        options = params["value"] if set(params) == {"value"} else params
        if isinstance(options, Mapping):
            try:
                weights = [float(w) for w in options.values()]
            except (TypeError, ValueError):
                return 1 / values
            if sum(weights) > 0:
                return max(weights) / sum(weights)
    return 1 / values


def _value_share(attribute: d.Attribute, value: str) -> float:
    """The share of the items whose attribute holds `value`: its weight in a
    weighted choice; all of them when the generator does not say."""
    generator = attribute.generator
    if generator is None or generator.kind != "choice":
        return 1.0
    params = generator.params
    options = params["value"] if set(params) == {"value"} else params
    if isinstance(options, list | tuple) and value in options:
        return 1 / len(options)  # an even choice
    if not isinstance(options, Mapping) or value not in options:
        return 1.0
    try:
        weights = {str(k): float(w) for k, w in options.items()}
    except (TypeError, ValueError):
        return 1.0
    total = sum(weights.values())
    return weights[value] / total if total > 0 else 1.0
