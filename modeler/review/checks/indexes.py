"""Indexes: DynamoDB's quotas, ALL projections that multiply the cost of
heavy writes, and sparse indexes whose items never leave."""

from __future__ import annotations

from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.findings import Finding, finding
from modeler.design.parameters import placeholders
from modeler.engine.capacity import WRITE_UNIT, write_units
from modeler.keys import Condition, ConditionSyntaxError, parse_condition
from modeler.review.checks.common import (
    action_count,
    index_location,
    table_location,
    units,
)
from modeler.review.evidence import Evidence

MAX_GSIS = 20
MAX_LSIS = 5
MAX_PROJECTED_ATTRIBUTES = 100
HEAVY_INDEX_WRITES = 100  # WCU per second at peak on one index


def check_indexes(evidence: Evidence) -> Iterator[Finding]:
    yield from _quotas(evidence.design.table)
    yield from _all_projections(evidence)
    yield from _sparse_exits(evidence.design)


def _quotas(table: d.Table) -> Iterator[Finding]:
    gsis = sum(i.is_global for i in table.indexes)
    lsis = len(table.indexes) - gsis
    projected = sum(len(i.projection.attributes) for i in table.indexes)
    for count, limit, what, fix in (
        (
            gsis,
            MAX_GSIS,
            "GSIs",
            "Overload GSIs: give several entities or patterns one generic "
            "index (GSI1PK/GSI1SK) with entity-specific key templates.",
        ),
        (
            lsis,
            MAX_LSIS,
            "LSIs",
            "Replace LSIs with GSIs, or overload one LSI's sort key with "
            "entity-specific templates.",
        ),
        (
            projected,
            MAX_PROJECTED_ATTRIBUTES,
            "projected non-key attributes, summed over all indexes",
            "Project fewer attributes (KEYS_ONLY and fetch the item), or use "
            "ALL on the index that needs most of them.",
        ),
    ):
        if count > limit:
            yield finding(
                "index-quota",
                "error",
                f"Over {limit} {what.split(',')[0]}",
                table_location(table),
                why=f"DynamoDB allows at most {limit} {what} per table; the "
                "table cannot be created as designed.",
                evidence=[f"{count} {what}"],
                fix=fix,
                figures={"count": count, "limit": limit},
            )


def _all_projections(evidence: Evidence) -> Iterator[Finding]:
    design = evidence.design
    for index in design.table.indexes:
        if index.projection.type != "ALL":
            continue
        slim = d.Index(
            index.name,
            index.kind,
            index.partition_key,
            index.sort_key,
            d.Projection("KEYS_ONLY"),
        )
        peak_units = 0.0
        extra = 0.0
        writers = []
        for position, pattern in enumerate(design.access_patterns):
            run = evidence.runs.get(position)
            if pattern.is_read or run is None or run.error:
                continue
            peak = max(pattern.traffic.peak_rps, pattern.traffic.rps)
            spent = run.capacity.by_index.get(index.name, 0.0)
            if not spent or not peak:
                continue
            peak_units += spent * peak
            writers.append(pattern.name)
            factor = 2 if pattern.operation == "TransactWriteItems" else 1
            for action in pattern.actions:
                if action.operation not in ("Put", "Update"):
                    continue
                saved = _units_saved(evidence, action.entity, index, slim)
                extra += saved * factor * action_count(pattern, action) * peak
        if peak_units < HEAVY_INDEX_WRITES or extra <= 0:
            continue
        readers = [
            p.name
            for p in design.access_patterns
            if p.is_read and p.index == index.name
        ]
        yield finding(
            "projection-all",
            "warning",
            "ALL projection under heavy writes",
            index_location(design.table, index.name),
            why="With ALL, every write copies the whole item into the index and "
            "pays for it by its full size; items over 1 KB cost several write "
            "units per copy.",
            evidence=[
                f"{units(peak_units)} WCU/s at peak on {index.name} from "
                f"{', '.join(repr(w) for w in writers)}",
                f"{units(extra)} WCU/s of it only because the projection is ALL "
                "(sample item sizes against a KEYS_ONLY entry)",
            ],
            fix="Project KEYS_ONLY, or INCLUDE only the attributes that "
            + (
                ", ".join(repr(r) for r in readers)
                if readers
                else "the index's queries"
            )
            + " return.",
            figures={"peak_wcu": peak_units, "extra_wcu": extra},
        )


def _units_saved(
    evidence: Evidence, entity: str, index: d.Index, slim: d.Index
) -> float:
    """Average write units per item the ALL projection costs beyond a
    KEYS_ONLY entry, over the entity's sample items in the index."""

    def make() -> float:
        fulls = evidence.entry_sizes(index)
        positions = evidence.positions((entity,))
        in_index = list(map(fulls.__getitem__, positions))
        count = len(in_index) - in_index.count(None)
        if not count:
            return 0.0
        # An item of one write unit saves nothing: its KEYS_ONLY entry, a
        # part of it, is one unit too. Only the larger items' entries are
        # measured (at a million items, measuring every entry was a tenth
        # of the review). Whether there are any is seen in C loops first:
        # most entities' items all fit a unit, and a loop of Python finding
        # none of an entity's 700,000 items took 0.05 s.
        if max(filter(None, in_index), default=0) <= WRITE_UNIT:
            return 0.0
        large = [
            (p, full)
            for p, full in zip(positions, in_index, strict=True)
            if full is not None and full > WRITE_UNIT
        ]
        keys = evidence.entry_sizes_at(slim, [p for p, _ in large])
        saved = sum(
            write_units(full) - write_units(size)
            for (_, full), size in zip(large, keys, strict=True)
            if size is not None
        )
        return saved / count

    return evidence.kept(("units_saved", entity, index, slim), make)


def _sparse_exits(design: d.Design) -> Iterator[Finding]:
    """An update that makes an item fail its sparse-index condition must
    remove the index's key attributes, or the item stays in the index."""
    for index in design.table.indexes:
        names = [a.name for a in index.key_attributes]
        for entity in design.entities:
            conditions = [entity.keys[n].when for n in names if n in entity.keys]
            if not conditions or not all(conditions):
                continue
            try:
                condition = parse_condition(" and ".join(dict.fromkeys(conditions)))
            except ConditionSyntaxError:
                continue
            for position, pattern in enumerate(design.access_patterns):
                for action in pattern.actions:
                    found = _exit_finding(
                        design, index, entity, condition, names, position, action
                    )
                    if found is not None:
                        yield found


def _exit_finding(
    design: d.Design,
    index: d.Index,
    entity: d.Entity,
    condition: Condition,
    names: list[str],
    position: int,
    action: d.Action,
) -> Finding | None:
    if action.entity != entity.name or action.operation != "Update":
        return None
    changed = {
        name: value for name, value in action.set if name in condition.attributes
    }
    removed = set(action.remove) & set(condition.attributes)
    if not changed and not removed:
        return None
    handled = set(action.updated)
    if all(name in handled for name in names):
        return None
    pattern = design.access_patterns[position]
    unknown = [n for n, v in changed.items() if placeholders(v)]
    if unknown:
        severity, leaves = "advice", "may make"
        if _some_value_fails(entity, condition, changed, unknown):
            # The attribute's own values say an update may set one that is
            # out of the working set: shipped orders would stay "open".
            severity, leaves = "warning", "can make"
    else:
        values = {name: value for name, value in changed.items()}
        if condition.holds(values) and not removed:
            return None
        severity, leaves = "warning", "makes"
    kept = [n for n in names if n not in handled]
    return finding(
        "sparse-exit",
        severity,
        "Sparse index keeps items that left the working set",
        index_location(design.table, index.name),
        why="An item stays in a sparse index as long as it has the index's key "
        "attributes, so an index meant for the working set fills with items "
        "that left it.",
        evidence=[
            f"'{pattern.name}' {leaves} {entity.name}'s condition '{condition}' "
            "false ("
            + ", ".join(f"{k} = {v}" for k, v in changed.items())
            + (f"; removes {', '.join(sorted(removed))}" if removed else "")
            + f") but keeps {', '.join(kept)}",
        ],
        fix=f"Add remove: [{', '.join(kept)}] to '{pattern.name}'.",
    )


def _some_value_fails(
    entity: d.Entity,
    condition: Condition,
    changed: dict[str, str],
    unknown: list[str],
) -> bool:
    """Whether a value the entity's generator gives an attribute set from a
    parameter makes the condition false (a status chosen from OPEN, SHIPPED
    and CANCELLED); False when its values are not known."""
    for name in unknown:
        attribute = entity.attribute(name)
        generator = attribute.generator if attribute is not None else None
        if generator is None or generator.kind != "choice":
            continue
        params = generator.params
        options = params["value"] if set(params) == {"value"} else params
        for option in options:
            values = {**changed, name: str(option)}
            if any(placeholders(v) for v in values.values()) or set(
                condition.attributes
            ) - set(values):
                continue
            if not condition.holds(values):
                return True
    return False
