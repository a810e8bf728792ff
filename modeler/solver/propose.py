"""Propose key designs: search the layouts, write each plan as a design, and
prove it with the simulator and the review before showing it."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal

from modeler.design import model as d
from modeler.engine.types import item_from_wire, item_to_wire
from modeler.keys.items import key_renderer
from modeler.keys.template import MissingValueError, parse_template
from modeler.review.checks.partitions import (
    LOW_CARDINALITY_WARNING,
    PARTITION_WRITE_LIMIT,
)
from modeler.review.cost import Cost
from modeler.review.evidence import attribute_cardinality, is_time_bucket
from modeler.review.findings import Finding
from modeler.review.review import Review, review_design
from modeler.sampledata import Dataset, SampleDataError, generate
from modeler.sampledata.recognise import EntityRecogniser
from modeler.simulation import Simulation
from modeler.solver.layouts import KeyPlan, Keys, Layout, word
from modeler.solver.needs import (
    Need,
    Relations,
    needs_of,
    relations_of,
    strip_keys,
)
from modeler.solver.search import IndexPlan, Plan, Search

DEFAULT_BUDGET = 10.0  # seconds
DEFAULT_ALTERNATIVES = 3


@dataclass(frozen=True)
class Alternative:
    """One proven key design."""

    design: d.Design
    plan: Plan
    review: Review | None
    reasons: tuple[str, ...]
    problem: str = ""  # why it could not be simulated
    # Partitions that would take more writes than one partition takes, with
    # the write sharding that spreads them.
    sharding: tuple[str, ...] = ()
    simulation: Simulation | None = field(default=None, compare=False, repr=False)

    @property
    def index_count(self) -> int:
        return len(self.design.table.indexes)

    @property
    def monthly_cost(self) -> Decimal | None:
        if self.review is None:
            return None
        return design_monthly_cost(self.design, self.review.cost)

    @property
    def findings(self) -> tuple[Finding, ...]:
        if self.review is None:
            return ()
        return tuple(f for f in self.review.findings if f.severity != "advice")

    @property
    def failed(self) -> tuple[str, ...]:
        """The patterns the simulation failed."""
        if self.review is None:
            return ()
        return tuple(
            run.pattern.name
            for run in self.review.runs
            if run is not None and not run.passed
        )

    @property
    def proven(self) -> bool:
        return (
            self.review is not None
            and not self.problem
            and not self.failed
            and not self.findings
            and not self.plan.unserved
        )

    def served_by(self) -> list[tuple[str, str]]:
        """(pattern, how it is read) for every read pattern."""
        out = []
        for pattern in self.design.access_patterns:
            if pattern.operation in d.READ_OPERATIONS:
                where = "the table" if pattern.index == d.TABLE_INDEX else pattern.index
                out.append((pattern.name, f"{pattern.operation} on {where}"))
            elif not pattern.operation:
                out.append((pattern.name, "not served"))
        return out

    def score(self) -> tuple:
        cost = self.monthly_cost
        return (
            not self.proven,
            len(self.plan.unserved),
            len(self.failed) + len(self.findings),
            self.index_count,
            cost if cost is not None else Decimal("Infinity"),
        )


@dataclass(frozen=True)
class Proposal:
    alternatives: tuple[Alternative, ...]
    unserved: tuple[tuple[str, str], ...]  # (pattern, why), in every alternative
    elapsed: float  # seconds of CPU
    checked: int  # designs simulated and reviewed
    out_of_time: bool
    yours: Alternative | None = None  # the design's own keys, when it has them
    nothing: str = ""  # why there is nothing to propose, when there is not

    @property
    def best(self) -> Alternative | None:
        return self.alternatives[0] if self.alternatives else None


def propose(
    design: d.Design,
    *,
    alternatives: int = DEFAULT_ALTERNATIVES,
    budget: float = DEFAULT_BUDGET,
    keep: Iterable[str] = (),
) -> Proposal:
    """Up to `alternatives` key designs for the design's needs, best first,
    each simulated and reviewed; the search stops after `budget` seconds of
    CPU with the best found so far. The design's own keys are not kept
    (every read pattern is read by its expects), but for the table keys of
    the entities named in `keep`. Raises KeptKeysError when one of those
    has no table keys to keep."""
    started = time.process_time()
    base = strip_keys(design)
    own = own_items(design)
    kept = kept_layouts(design, keep)
    base, needs, unstated, relations, keys, plans = _search(base, kept, alternatives)
    if not needs:
        return Proposal(
            alternatives=(),
            unserved=tuple((p.name, why) for p, why in unstated),
            elapsed=time.process_time() - started,
            checked=0,
            out_of_time=False,
            nothing="No read access pattern states what it reads, so there is "
            "nothing to key for: add the reads the application makes, each "
            "with the entity it reads and the attributes it fixes (needs).",
        )
    sharded = []
    if plans:
        hot = list(_hot_layouts(base, plans[0], needs))
        if hot:
            base, sharded = with_write_shards(base, hot, keys)
            base, needs, unstated, relations, keys, plans = _search(
                base, kept, alternatives
            )
    found: list[Alternative] = []
    samples: Samples | None = None
    out_of_time = False
    # The next check is estimated as the longest so far: checks differ (a
    # larger design, more projections to try), and one that would pass the
    # budget is not started once a proven design is in hand.
    longest = 0.0
    for plan in plans:
        spent = time.process_time() - started
        if any(a.proven for a in found) and spent + longest > budget:
            out_of_time = True
            break
        if found and spent > budget:
            out_of_time = True
            break
        if samples is None:  # made once, for every check
            samples = Samples(base, relations)
        began = time.process_time()
        built = with_own_items_keyed(build(base, plan, keys, needs), own)
        checked = _checked(built, plan, keys, needs, samples=samples)
        checked = cheaper_projections(checked, plan, keys, needs, samples)
        if sharded:
            checked = replace(
                checked, reasons=tuple(f"{n}." for n in sharded) + checked.reasons
            )
        if own:
            kept = len(built.sample_data.items)
            note = (
                f"Your {kept} own {'item is' if kept == 1 else 'items are'} "
                "keyed by these templates"
            )
            if kept < len(own):
                note += (
                    f"; {len(own) - kept} are left out: their entity is not "
                    "known, or they lack a value the new keys place"
                )
            checked = replace(checked, reasons=checked.reasons + (note + ".",))
        found.append(checked)
        longest = max(longest, time.process_time() - began)
        # As many proven as the default shows, whatever is asked: the best
        # does not depend on how many alternatives are shown.
        proven = [a for a in found if a.proven]
        if len(proven) >= max(alternatives, DEFAULT_ALTERNATIVES):
            break
    found.sort(key=Alternative.score)
    by_position = {n.position: n for n in needs}
    unserved = [(p.name, why) for p, why in unstated]
    if found:
        for position, why in sorted(found[0].plan.unserved.items()):
            unserved.append((by_position[position].name, why))
    elapsed = time.process_time() - started
    return Proposal(
        yours=_yours(design, keys, needs),
        alternatives=tuple(found[:alternatives]),
        unserved=tuple(unserved),
        elapsed=elapsed,
        checked=len(found),
        out_of_time=out_of_time,
    )


class KeptKeysError(ValueError):
    """An entity to keep the keys of that is unknown or has none."""


def kept_layouts(design: d.Design, keep: Iterable[str]) -> dict[str, Layout]:
    table = design.table
    pk = table.partition_key.name
    sk = table.sort_key.name if table.sort_key else ""
    out = {}
    for name in keep:
        entity = design.entity(name)
        if entity is None:
            known = ", ".join(e.name for e in design.entities)
            raise KeptKeysError(
                f"no entity '{name}' to keep the keys of; its entities: {known}"
            )
        if not design.has_table_keys(entity):
            raise KeptKeysError(
                f"{name} has no table keys to keep ({pk}"
                + (f" and {sk}" if sk else "")
                + ")"
            )
        out[name] = Layout.of_templates(
            name, entity.keys[pk].template, entity.keys[sk].template if sk else ""
        )
    return out


def _search(
    base: d.Design, kept: dict[str, Layout], alternatives: int
) -> tuple[
    d.Design,
    list[Need],
    list[tuple[d.AccessPattern, str]],
    Relations,
    Keys,
    list[Plan],
]:
    """The plans for the design's needs, fewest unserved needs and fewest
    indexes first (the checks go to the likeliest winners while there is
    time)."""
    needs, unstated = needs_of(base)
    relations = relations_of(base, needs)
    search = Search(base, relations, needs, kept)
    plans: list[Plan] = []
    seen: set[tuple] = set()
    for table in search.tables(max(4, alternatives * 3)):
        plan = search.complete(table)
        if plan.signature() in seen:
            continue
        seen.add(plan.signature())
        plans.append(plan)
    plans.sort(key=lambda p: (len(p.unserved), len(p.indexes)))
    return base, needs, unstated, relations, Keys(base, relations), plans


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


def _yours(design: d.Design, keys: Keys, needs: list[Need]) -> Alternative | None:
    """The design as it is, checked the same way, when every pattern has its
    keys: what the user keeps if they adopt nothing."""
    keyed = all(p.operation for p in design.access_patterns) and all(
        e.keys for e in design.entities
    )
    if not keyed or not design.entities:
        return None
    plan = Plan([], {}, {})
    checked = _checked(design, plan, keys, needs, explained=False)
    return checked


def own_items(design: d.Design) -> list[tuple[str | None, dict]]:
    """The items the user typed or imported, each with its entity (told by
    the design's own keys) and without its key attributes."""
    if not design.sample_data.items:
        return []
    recogniser = EntityRecogniser(design)
    keys = {a.name for a in design.table.all_key_attributes()}
    out = []
    for wire in design.sample_data.items:
        item = item_from_wire(d.thaw(wire))
        entity = recogniser.entity_of(item) if recogniser.candidates else None
        out.append((entity, {k: v for k, v in item.items() if k not in keys}))
    return out


def with_own_items_keyed(
    built: d.Design, own: list[tuple[str | None, dict]]
) -> d.Design:
    """The proposal with the user's own items keyed by its templates, so that
    adopting it loses none; an item whose entity is not known, or that lacks
    a value the new keys place, keeps the attributes it has and no keys, and
    is left out (said in the proposal's reasons)."""
    if not own:
        return built
    kept = []
    for entity, item in own:
        if entity is None:
            continue
        try:
            keyed = {**item, **key_renderer(built, entity)(item)}
        except (MissingValueError, ValueError, KeyError):
            continue
        kept.append(d.freeze(item_to_wire(keyed)))
    return replace(built, sample_data=replace(built.sample_data, items=tuple(kept)))


class Samples:
    """The entities' sample items made once and keyed for each proposal:
    every proposal's table key holds each entity's identity, so the items
    one generation keeps apart by identity are the items each proposal's
    own generation would make (Faker's values are most of the time of a
    check)."""

    def __init__(self, base: d.Design, relations: Relations) -> None:
        self.dataset: Dataset | None = None
        table = base.table
        pk = table.partition_key.name
        sk = table.sort_key.name if table.sort_key else "SK"
        entities = []
        for entity in base.entities:
            identity = relations.identity.get(entity.name, ())
            if not identity:
                return
            template = "#".join([word(entity.name)] + [f"{{{n}}}" for n in identity])
            keys = {pk: d.KeyTemplate(template), sk: d.KeyTemplate(word(entity.name))}
            entities.append(replace(entity, keys=keys))
        neutral = replace(
            base,
            table=replace(table, sort_key=d.KeyAttribute(sk, "S"), indexes=()),
            entities=tuple(entities),
        )
        try:
            made = generate(neutral)
        except SampleDataError:
            return
        for item in made.items:
            item.pop(pk, None)
            item.pop(sk, None)
        self.dataset = made

    def keyed(self, design: d.Design) -> Dataset | None:
        """The items with the design's keys; None when they lack a value
        the design's table keys place (its own generation then decides)."""
        if self.dataset is None:
            return None
        renderers = {e.name: key_renderer(design, e.name) for e in design.entities}
        items = []
        try:
            for item, entity in zip(
                self.dataset.items, self.dataset.entities, strict=True
            ):
                items.append({**item, **renderers[entity](item)})
        except (MissingValueError, ValueError):
            return None
        return Dataset(items, list(self.dataset.entities))


def _checked(
    built: d.Design,
    plan: Plan,
    keys: Keys,
    needs: list[Need],
    *,
    samples: Samples | None = None,
    explained: bool = True,
) -> Alternative:
    reasons = tuple(explain(built, plan, keys, needs)) if explained else ()
    sharding = tuple(hot_partitions(built, plan, keys, needs))
    try:
        dataset = samples.keyed(built) if samples is not None else None
        simulation = Simulation(built, dataset=dataset)
    except (SampleDataError, TypeError, ValueError) as exc:
        # What the design's checks would refuse (a value a key cannot place)
        # leaves this proposal unproven, not the others unshown.
        return Alternative(
            built, plan, None, reasons, problem=str(exc), sharding=sharding
        )
    review = review_design(built, simulation=simulation)
    return Alternative(
        built, plan, review, reasons, sharding=sharding, simulation=simulation
    )


def cheaper_projections(
    alternative: Alternative,
    plan: Plan,
    keys: Keys,
    needs: list[Need],
    samples: Samples | None,
) -> Alternative:
    """Each index's projection chosen by cost: ALL copies whole items into the
    index (each write and each stored byte again); INCLUDE of the entities'
    own attributes leaves out the other indexes' keys; KEYS_ONLY makes every
    item a Query returns a second read. The review prices each choice on
    the alternative's own simulation (its cost counts the second reads), the
    cheapest choice per index is kept, and the result is checked again."""
    if not alternative.proven or alternative.simulation is None:
        return replace(
            alternative,
            reasons=alternative.reasons + _projection_reasons(alternative.design, {}),
        )
    design = alternative.design
    runs = alternative.review.runs  # type: ignore[union-attr]
    cost = alternative.monthly_cost
    notes: dict[str, str] = {}
    for index in design.table.indexes:
        options = _projection_options(design, index)
        for projection in options:
            variant = _with_projection(design, index.name, projection)
            review = review_design(
                variant, simulation=alternative.simulation, runs=runs
            )
            if any(f.severity != "advice" for f in review.findings):
                continue
            priced = design_monthly_cost(variant, review.cost)
            # A saving worth a second check: a dollar and a hundredth.
            if cost is not None and priced < cost - max(Decimal(1), cost / 100):
                notes[index.name] = _projection_note(projection, cost - priced)
                design, cost = variant, priced
    if design is not alternative.design:
        checked = _checked(design, plan, keys, needs, samples=samples)
        if checked.proven:
            return replace(
                checked,
                reasons=alternative.reasons + _projection_reasons(design, notes),
            )
    return replace(
        alternative,
        reasons=alternative.reasons + _projection_reasons(alternative.design, {}),
    )


def _projection_options(design: d.Design, index: d.Index) -> list[d.Projection]:
    """INCLUDE of the entities' own attributes but those their keys in the
    index and the table already hold (parsed back from the key), INCLUDE of
    all their own attributes, and KEYS_ONLY."""
    table_keys = {a.name for a in design.table.key_attributes}
    index_keys = {a.name for a in index.key_attributes}
    keyed = [e for e in design.entities if any(k in e.keys for k in index_keys)]
    own = {a.name for e in keyed for a in e.attributes} - table_keys - index_keys
    options = [d.Projection("ALL"), d.Projection("KEYS_ONLY")]
    if own and len(own) <= 20:
        options.insert(1, d.Projection("INCLUDE", tuple(sorted(own))))
    return [option for option in options if option != index.projection]


def _slim_projection(design: d.Design, index: d.Index) -> d.Projection:
    """The attributes of the index's entities that their keys there and in
    the table do not already hold (an application parses those from the
    keys): whole items for the index's queries without copying the other
    indexes' keys into it. ALL when that would list more than 20."""
    table_keys = {a.name for a in design.table.key_attributes}
    index_keys = {a.name for a in index.key_attributes}
    keyed = [e for e in design.entities if any(k in e.keys for k in index_keys)]
    own = {a.name for e in keyed for a in e.attributes} - table_keys - index_keys
    placed = {
        name
        for e in keyed
        for key, template in e.keys.items()
        if key in table_keys | index_keys and not template.when
        for name in parse_template(template.template).attributes
    }
    names = sorted(own - placed)
    if len(names) > 20:
        return d.Projection("ALL")
    return d.Projection("INCLUDE", tuple(names)) if names else d.Projection("KEYS_ONLY")


def _with_projection(design: d.Design, name: str, projection: d.Projection) -> d.Design:
    indexes = tuple(
        replace(i, projection=projection) if i.name == name else i
        for i in design.table.indexes
    )
    return replace(design, table=replace(design.table, indexes=indexes))


def design_monthly_cost(design: d.Design, cost: Cost) -> Decimal:
    """What a month costs at the stated traffic: on demand, or provisioned
    for a provisioned table, and the storage."""
    if design.table.billing_mode == "PROVISIONED":
        return cost.provisioned_total + cost.storage_monthly
    return cost.on_demand + cost.storage_monthly


def _projection_note(projection: d.Projection, saving: Decimal) -> str:
    if projection.type == "KEYS_ONLY":
        return (
            f"it projects KEYS_ONLY: a second read of each item its queries "
            f"return costs ${saving:,.2f} a month less than copying the items "
            "into it"
        )
    return (
        "it projects its entities' own attributes ("
        + ", ".join(projection.attributes)
        + f"), not the other indexes' keys: ${saving:,.2f} a month less than ALL"
    )


def _projection_reasons(design: d.Design, notes: dict[str, str]) -> tuple[str, ...]:
    lines = []
    for index in design.table.indexes:
        projection = index.projection
        if index.name in notes:
            text = notes[index.name]
        elif projection.type == "ALL":
            text = (
                "it projects ALL: projecting less costs more in second reads, "
                "or leaves out what its queries return"
            )
        elif projection.type == "INCLUDE":
            text = (
                "it projects "
                + ", ".join(projection.attributes)
                + ": what its queries read beyond what the keys hold, without "
                "copying the other indexes' keys into it"
            )
        else:
            text = "it projects KEYS_ONLY: the keys hold all that its queries read"
        lines.append(f"{index.name}: {text}.")
    return tuple(lines)


def _hot_layouts(
    design: d.Design, plan: Plan, needs: list[Need]
) -> Iterator[HotLayout]:
    """Each layout whose one partition takes more writes at peak than the
    review allows a partition (half of its 1,000 WCU): its partition key is
    a time bucket, a few values or a constant, so writes cannot spread."""
    writes: dict[str, float] = {}
    for pattern in design.access_patterns:
        for action in pattern.actions:
            if action.operation in ("Put", "Update", "Delete"):
                count = int(action.count) if action.count.isdigit() else 1
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
    for hot in _hot_layouts(built, plan, needs):
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
    if layout.sparse is not None:
        return 1.0
    entity = design.entity(layout.entity)
    share = 1.0
    for name in layout.pk:
        attribute = entity.attribute(name) if entity is not None else None
        if is_time_bucket(attribute):
            continue
        values = attribute_cardinality(attribute)
        if values is None:
            return 0.0
        share /= values
    return share


# -- the design of a plan ------------------------------------------------------


def index_key_names(plan: IndexPlan, table: d.Table) -> tuple[str, str]:
    if plan.kind == "table":
        return table.partition_key.name, (
            table.sort_key.name if table.sort_key else "SK"
        )
    if plan.kind == "local":
        return table.partition_key.name, f"{plan.name}SK"
    return f"{plan.name}PK", f"{plan.name}SK"


def build(base: d.Design, plan: Plan, keys: Keys, needs: list[Need]) -> d.Design:
    table = base.table
    if table.sort_key is None:
        table = replace(table, sort_key=d.KeyAttribute("SK", "S"))
    entities = []
    for entity in base.entities:
        templates: dict[str, d.KeyTemplate] = {}
        for index in plan.indexes:
            layout = index.layouts.get(entity.name)
            if layout is None:
                continue
            pk_name, sk_name = index_key_names(index, table)
            if index.kind != "local":
                templates[pk_name] = d.KeyTemplate(
                    keys.pk_template(layout), layout.when
                )
            templates[sk_name] = d.KeyTemplate(keys.sk_template(layout), layout.when)
        entities.append(replace(entity, keys=templates))
    indexes = tuple(_index(index, table, base, needs) for index in plan.secondary)
    table = replace(table, indexes=indexes)
    slim = replace(base, table=table, entities=tuple(entities))
    table = replace(
        table,
        indexes=tuple(
            replace(index, projection=_slim_projection(slim, index))
            if index.projection.type == "ALL"
            else index
            for index in indexes
        ),
    )
    by_position = {n.position: n for n in needs}
    patterns = []
    for position, pattern in enumerate(base.access_patterns):
        if position in plan.reads:
            name, key_plan = plan.reads[position]
            index = next(i for i in plan.indexes if i.name == name)
            patterns.append(_read(pattern, index, key_plan, table))
        elif by_position.get(position) is None and not pattern.is_read:
            patterns.append(_write(pattern, plan, keys, table))
        else:
            patterns.append(pattern)
    return replace(
        base, table=table, entities=tuple(entities), access_patterns=tuple(patterns)
    )


def _index(
    index: IndexPlan, table: d.Table, base: d.Design, needs: list[Need]
) -> d.Index:
    pk_name, sk_name = index_key_names(index, table)
    served = [n for n in needs if n.position in index.serves]
    projection = d.Projection("ALL")
    if served and all(n.pattern.projection for n in served):
        keys = {a.name for a in table.key_attributes} | {pk_name, sk_name}
        wanted = sorted({name for n in served for name in n.pattern.projection} - keys)
        projection = (
            d.Projection("INCLUDE", tuple(wanted))
            if wanted
            else d.Projection("KEYS_ONLY")
        )
    capacity = table.capacity if index.kind == "global" else None
    return d.Index(
        name=index.name,
        kind=index.kind,
        partition_key=(d.KeyAttribute(pk_name, "S"),) if index.kind == "global" else (),
        sort_key=(d.KeyAttribute(sk_name, "S"),),
        projection=projection,
        capacity=capacity,
    )


def _read(
    pattern: d.AccessPattern, index: IndexPlan, plan: KeyPlan, table: d.Table
) -> d.AccessPattern:
    pk_name, sk_name = index_key_names(index, table)
    names = {"pk": pk_name, "sk": sk_name}
    clauses = tuple(
        d.KeyClause(names[which], operator, values)
        for which, operator, values in plan.clauses
    )
    return replace(
        pattern,
        operation=plan.operation,
        index=d.TABLE_INDEX if index.kind == "table" else index.name,
        key=clauses,
        scan_forward=plan.scan_forward,
        limit=None if plan.operation == "GetItem" else pattern.limit,
    )


def _write(
    pattern: d.AccessPattern, plan: Plan, keys: Keys, table: d.Table
) -> d.AccessPattern:
    """An update that changes an attribute an index key is made of writes
    that key again; one that takes an item out of a sparse index's working
    set removes the index's keys."""
    actions = []
    for action in pattern.actions:
        if action.operation != "Update":
            actions.append(action)
            continue
        changed = dict(action.set)
        set_keys: list[tuple[str, str]] = []
        removed: list[str] = []
        for index in plan.secondary:
            layout = index.layouts.get(action.entity)
            if layout is None:
                continue
            touched = layout.attributes & set(action.updated)
            if not touched:
                continue
            pk_name, sk_name = index_key_names(index, table)
            names = [sk_name] if index.kind == "local" else [pk_name, sk_name]
            if layout.sparse is not None and layout.sparse[0] in touched:
                value = changed.get(layout.sparse[0])
                if value is None or (value != layout.sparse[1] and "{" not in value):
                    removed.extend(names)
                    continue
                if "{" in value:
                    continue
            templates = {
                pk_name: keys.pk_template(layout),
                sk_name: keys.sk_template(layout),
            }
            for name in names:
                template = templates[name]
                if set(parse_template(template).attributes) & touched:
                    set_keys.append((name, keys.filled(template, changed)))
        actions.append(
            replace(
                action,
                set=action.set + tuple(set_keys),
                remove=action.remove + tuple(removed),
            )
        )
    return replace(pattern, actions=tuple(actions))


# -- why -------------------------------------------------------------------


def explain(built: d.Design, plan: Plan, keys: Keys, needs: list[Need]) -> list[str]:
    """One sentence per choice: each index, and how each read is served."""
    lines: list[str] = []
    table = plan.table
    shared: dict[tuple, list[str]] = {}
    for entity, layout in table.layouts.items():
        shared.setdefault(keys.partition_shape(layout), []).append(entity)
    for entities in shared.values():
        if len(entities) > 1:
            layout = table.layouts[entities[0]]
            lines.append(
                f"{_and(entities)} share the partition "
                f"{keys.pk_template(layout)}: one item collection, so reading "
                "them together or one after the other stays in one partition."
            )
    by_position = {n.position: n for n in needs}
    for index in plan.secondary:
        layouts = index.layouts
        what = (
            f"{index.name} is a local index: the table's partitions sorted another way"
            if index.kind == "local"
            else f"{index.name} is a global index"
        )
        if len(layouts) > 1:
            what += (
                f" overloaded with {_and(sorted(layouts))}, told apart by "
                "their sort key's first word"
            )
        inverted = [
            entity
            for entity, layout in layouts.items()
            if _turned_around(table.layouts.get(entity), layout)
        ]
        if inverted:
            what += (
                f"; it is inverted: {_and(inverted)}'s keys turned around, so "
                "each edge is found from its other end"
            )
        sparse = [layout for layout in layouts.values() if layout.sparse]
        if sparse:
            what += (
                f"; it is sparse: an item is in it only while {sparse[0].when}, "
                "so it holds the working set alone"
            )
        serves = [by_position[p].name for p in index.serves]
        if serves:
            what += ". It serves " + _and([f"'{n}'" for n in serves])
        lines.append(what + ".")
    for position, (name, key_plan) in sorted(plan.reads.items()):
        need = by_position[position]
        lines.append(_read_reason(need, name, key_plan, plan, keys))
    return lines


def _turned_around(table: Layout | None, layout: Layout) -> bool:
    """The index's layout partitions by what the table sorts by, and sorts
    by what the table partitions by (a many-to-many edge seen from its
    other end)."""
    if table is None or not table.pk or not layout.pk or not table.sk:
        return False
    return set(layout.pk) <= set(table.sk) and set(table.pk) <= set(layout.sk)


def _read_reason(
    need: Need, index_name: str, key_plan: KeyPlan, plan: Plan, keys: Keys
) -> str:
    index = next(i for i in plan.indexes if i.name == index_name)
    where = "the table" if index.kind == "table" else index_name
    layout: Layout = index.layouts[need.entities[0]]
    pk = keys.pk_template(layout)
    if key_plan.operation == "GetItem":
        return (
            f"'{need.name}' is one GetItem: {need.entities[0]}'s key "
            f"{pk} / {keys.sk_template(layout)} is made of what it fixes."
        )
    if len(need.entities) > 1:
        return (
            f"'{need.name}' is one Query of {where}: {_and(list(need.entities))} "
            f"share the partition {pk}."
        )
    sk = keys.sk_template(layout)
    text = (
        f"'{need.name}' is one Query of {where}: {need.entities[0]}'s partition is {pk}"
    )
    if need.sorted_by:
        text += (
            f" and its sort key {sk} goes on with "
            + ", ".join(need.sorted_by)
            + (", read in reverse for newest first" if need.descending else "")
        )
    elif layout.sk:
        text += f", its sort key {sk}"
    return text + "."


def _and(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
