"""The deployed side of a migration read from where it runs (a live table:
its description and a sample of its items; or the table alone, from a
Terraform configuration or a CloudFormation template) rather than from a
revision.
Its entities are inferred from the items and named by their key shapes
(`Profile`, `Item`), not as the designer named them: each is given the name
of the next design's entity whose key templates made most of its items, so
that the planner matches it to that entity instead of taking it for an
entity removed and another added."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from modeler.design import model as d
from modeler.engine.types import item_from_wire
from modeler.evolution.spec import PlanError
from modeler.sampledata.recognise import EntityRecogniser


def sample_alone(deployed: d.Design) -> d.Design:
    """A live table's design (as `import_table` reads it: the items read
    kept as its own, and sample data generated beside them for the volume)
    with its own items alone as its sample data: the proof rewrites and
    counts the table's items, not values made up from what they look like."""
    entities = tuple(
        dataclasses.replace(
            e, sample=dataclasses.replace(e.sample, count=d.Count("fixed", 0))
        )
        for e in deployed.entities
    )
    return dataclasses.replace(deployed, entities=entities)


def named_after(deployed: d.Design, after: d.Design) -> d.Design:
    """`deployed` with each entity renamed as the entity of `after` that
    recognises most of its own items (when that name is free and no other
    deployed entity takes it)."""
    ours, theirs = EntityRecogniser(deployed), EntityRecogniser(after)
    votes: dict[str, Counter[str]] = {}
    for wire in deployed.sample_data.items:
        item = item_from_wire(d.thaw(wire))
        mine = ours.entity_of(item)
        other = theirs.entity_of(item)
        if mine is not None and other is not None:
            votes.setdefault(mine, Counter())[other] += 1
    wanted = {mine: count.most_common(1)[0][0] for mine, count in votes.items()}
    taken = Counter(wanted.values())
    names = {e.name for e in deployed.entities}
    renames = {
        mine: other
        for mine, other in wanted.items()
        if mine != other and taken[other] == 1 and other not in names
    }
    if not renames:
        return deployed
    entities = tuple(
        dataclasses.replace(
            e,
            name=renames.get(e.name, e.name),
            sample=dataclasses.replace(
                e.sample, per=renames.get(e.sample.per, e.sample.per)
            ),
        )
        for e in deployed.entities
    )
    return dataclasses.replace(deployed, entities=entities)


def on_deployed_table(deployed: d.Design, after: d.Design) -> tuple[d.Design, str]:
    """The deployed design when it is a table alone (a Terraform
    configuration or a CloudFormation template: keys and indexes, no
    entities): the next design's entities on the deployed table, their
    key templates those of the deployed table's key attributes (an index
    the table lacks has no keys in its items yet), and a note saying so;
    `deployed` itself, and no note, when it has entities. PlanError when
    the next design has no template for one of the deployed table's keys:
    its items cannot be told."""
    if deployed.entities:
        return deployed, ""
    names = {a.name for a in deployed.table.all_key_attributes()}
    table_keys = [a.name for a in deployed.table.key_attributes]
    entities = []
    for entity in after.entities:
        missing = [k for k in table_keys if k not in entity.keys]
        if missing:
            raise PlanError(
                f"the deployed table's key {missing[0]} has no template in entity "
                f"{entity.name} of the next design: give the deployed design as a "
                "design file or a revision"
            )
        keys = {k: t for k, t in entity.keys.items() if k in names}
        entities.append(dataclasses.replace(entity, keys=MappingProxyType(keys)))
    note = (
        f"the deployed side has a table but no entities: its items are taken to "
        f"be {after.name}'s entities ({', '.join(e.name for e in after.entities)}) "
        "with the keys of the deployed table and its indexes"
    )
    return (
        dataclasses.replace(
            after, table=deployed.table, entities=tuple(entities), access_patterns=()
        ),
        note,
    )


def part_way_there(
    deployed: d.Design, after: d.Design, holding: Mapping[str, int], read: int
) -> str:
    """Why a live table cannot be planned from as it is, or "": its items
    already hold key attributes that only the next design has (its GSIs'
    keys, which no index of the table reads yet, and which no entity of the
    next design has as an attribute of its own). A migration to it has
    begun: its dual-writing application or its script's rewrite wrote
    them, and a plan from the table as it is now takes the keys of both
    designs for one design's attributes. `holding` counts the items read
    that have each attribute."""
    keys = {a.name for a in deployed.table.all_key_attributes()}
    declared = {a.name for e in after.entities for a in e.attributes}
    written = {
        a.name: holding[a.name]
        for a in after.table.all_key_attributes()
        if a.name not in keys and a.name not in declared and holding.get(a.name)
    }
    if not written:
        return ""
    most = max(written.values())
    names = " and ".join(sorted(written))
    return (
        f"the table looks part way through a migration to the next design: "
        f"{most:,} of the {read:,} items read already hold {names}, keys that "
        "only the next design has. Plan from the design deployed before the "
        "migration began (plan_migration A B, with A that design's file or "
        "revision): its script resumes from its checkpoint, and --verify says "
        "what is left"
    )
