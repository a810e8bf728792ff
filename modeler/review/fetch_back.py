"""The second read a GSI query needs when the pattern returns whole
entities from an index that does not project all of them: the attributes it
lacks, and the BatchGetItem requests and read units that fetch the rest.
Shared by the fetch-back finding and the cost estimate, which books it."""

from __future__ import annotations

from dataclasses import dataclass

from modeler.design.parameters import placeholders
from modeler.review.evidence import Evidence

BATCH_GET_KEYS = 100
EVENTUAL_RCU_PER_4KB = 0.5


@dataclass(frozen=True)
class FetchBack:
    missing: tuple[str, ...]  # attributes the index does not project
    items: int = 0  # returned by the simulated query
    requests: int = 0  # BatchGetItem requests to fetch them
    rcu: float = 0.0  # eventually consistent units of those requests


def fetch_back(evidence: Evidence, position: int) -> FetchBack | None:
    """What the pattern at `position` needs from the table after its GSI
    query, or None when the index holds everything it returns."""
    design = evidence.design
    pattern = design.access_patterns[position]
    index = design.table.index(pattern.index)
    if (
        index is None
        or not index.is_global
        or index.projection.type == "ALL"
        or pattern.expects is None
        or pattern.projection
    ):
        return None
    projected = {a.name for a in design.table.key_attributes}
    projected |= {a.name for a in index.key_attributes}
    projected |= set(index.projection.attributes)
    known = {
        p.attribute for p in pattern.expects.where if p.operator == "=" and p.values
    }
    missing: dict[str, None] = {}
    for name in pattern.expects.entities:
        entity = design.entity(name)
        if entity is None:
            continue
        # Values inside a projected key template come back with the key.
        derivable = {
            p
            for key_name, key in entity.keys.items()
            if key_name in projected
            for p in placeholders(key.template)
        }
        for attribute in entity.attributes:
            if attribute.name not in projected | derivable | known:
                missing.setdefault(attribute.name, None)
    if not missing:
        return None
    run = evidence.runs.get(position)
    if run is None or run.error or not run.count:
        return FetchBack(tuple(missing))
    sizes = [
        evidence.entity_sizes[e].average
        for e in pattern.expects.entities
        if e in evidence.entity_sizes
    ]
    per_item = max(1, -(-int(max(sizes, default=0)) // 4096)) * EVENTUAL_RCU_PER_4KB
    return FetchBack(
        tuple(missing),
        run.count,
        -(-run.count // BATCH_GET_KEYS),
        run.count * per_item,
    )
