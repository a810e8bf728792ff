"""Propose key designs: search the layouts, write each plan as a design, and
prove it with the simulator and the review before showing it."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal

from modeler.design import model as d
from modeler.design.findings import Finding, Severity
from modeler.engine.types import item_from_wire, item_to_wire
from modeler.keys.items import key_renderer
from modeler.keys.template import MissingValueError
from modeler.review.review import Review, review_design
from modeler.sampledata import Dataset, SampleDataError, generate
from modeler.sampledata.recognise import EntityRecogniser
from modeler.simulation import Simulation
from modeler.solver.build import build
from modeler.solver.explain import explain
from modeler.solver.layouts import Keys, Layout, word
from modeler.solver.needs import (
    Need,
    Relations,
    needs_of,
    relations_of,
    strip_keys,
)
from modeler.solver.projections import (
    design_monthly_cost,
    projection_note,
    projection_options,
    projection_reasons,
    with_projection,
)
from modeler.solver.search import Plan, Search
from modeler.solver.sharding import hot_layouts, hot_partitions, with_write_shards

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
        return tuple(
            f for f in self.review.findings if f.severity is not Severity.ADVICE
        )

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
            # A partition the solver itself sees too hot for its writes.
            and not self.sharding
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

    @property
    def refused(self) -> bool:
        """What the review refuses: not simulated, a pattern failing in the
        simulation, or an error."""
        return (
            self.review is None
            or bool(self.problem)
            or bool(self.failed)
            or any(f.severity is Severity.ERROR for f in self.findings)
        )

    def score(self) -> tuple:
        """The review's verdict first (every pattern served, then no error,
        then no warning nor a partition too hot), then the month's cost, and
        only then fewer indexes: an index that saves money is worth having."""
        cost = self.monthly_cost
        return (
            len(self.plan.unserved),
            self.refused,
            not self.proven,
            cost if cost is not None else Decimal("Infinity"),
            self.index_count,
        )


@dataclass(frozen=True)
class Proposal:
    alternatives: tuple[Alternative, ...]
    unserved: tuple[Finding, ...]  # the patterns no alternative serves, and why
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
            unserved=tuple(unstated),
            elapsed=time.process_time() - started,
            checked=0,
            out_of_time=False,
            nothing="No read access pattern states what it reads, so there is "
            "nothing to key for: add the reads the application makes, each "
            "with the entity it reads and the attributes it fixes (needs).",
        )
    searches = [_Searched(base, needs, relations, keys, plans)]
    if plans:
        hot = list(hot_layouts(base, plans[0], needs))
        if hot:
            # The sharded designs are checked beside the unsharded ones, and
            # the review's verdict and cost choose: sharding the layout the
            # first plan made hot is no reason to shard a plan that avoids it.
            sharded, notes = with_write_shards(base, hot, keys)
            s_base, s_needs, _, s_relations, s_keys, s_plans = _search(
                sharded, kept, alternatives
            )
            searches.append(
                _Searched(s_base, s_needs, s_relations, s_keys, s_plans, notes=notes)
            )
    found: list[Alternative] = []
    out_of_time = False
    # The next check is estimated as the longest so far: checks differ (a
    # larger design, more projections to try), and one that would pass the
    # budget is not started once a proven design is in hand.
    longest = 0.0
    for searched, plan in _interleaved(searches):
        spent = time.process_time() - started
        if any(a.proven for a in found) and spent + longest > budget:
            out_of_time = True
            break
        if found and spent > budget:
            out_of_time = True
            break
        began = time.process_time()
        found.append(_check_plan(searched, plan, own))
        longest = max(longest, time.process_time() - began)
        # As many proven as the default shows, whatever is asked: the best
        # does not depend on how many alternatives are shown.
        proven = [a for a in found if a.proven]
        if len(proven) >= max(alternatives, DEFAULT_ALTERNATIVES) * len(searches):
            break
    checked = len(found)
    found.sort(key=Alternative.score)
    if any(not a.refused for a in found):
        # Never proposed: what the review refuses, when anything else is left.
        found = [a for a in found if not a.refused]
    unserved: list[Finding] = list(unstated)
    if found:
        unserved += [why for _, why in sorted(found[0].plan.unserved.items())]
    elapsed = time.process_time() - started
    return Proposal(
        yours=_yours(design, keys, needs),
        alternatives=tuple(found[:alternatives]),
        unserved=tuple(unserved),
        elapsed=elapsed,
        checked=checked,
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


@dataclass
class _Searched:
    """One search's design and plans: the design as stated, or with write
    shards for the partitions its first plan makes too hot."""

    base: d.Design
    needs: list[Need]
    relations: Relations
    keys: Keys
    plans: list[Plan]
    notes: list[str] = field(default_factory=list)  # the sharding, said
    samples: Samples | None = None  # made once, at its first check


def _interleaved(searches: list[_Searched]) -> Iterator[tuple[_Searched, Plan]]:
    """Each search's plans in turn, its likeliest first, so that a budget
    cut leaves every search its best plans checked."""
    for rank in range(max(len(s.plans) for s in searches)):
        for searched in searches:
            if rank < len(searched.plans):
                yield searched, searched.plans[rank]


def _check_plan(
    searched: _Searched, plan: Plan, own: list[tuple[str | None, dict]]
) -> Alternative:
    if searched.samples is None:
        searched.samples = Samples(searched.base, searched.relations)
    keys, needs, samples = searched.keys, searched.needs, searched.samples
    built = with_own_items_keyed(build(searched.base, plan, keys, needs), own)
    checked = _checked(built, plan, keys, needs, samples=samples)
    checked = cheaper_projections(checked, plan, keys, needs, samples)
    if searched.notes:
        checked = replace(
            checked,
            reasons=tuple(f"{n}." for n in searched.notes) + checked.reasons,
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
    return checked


def _search(
    base: d.Design, kept: dict[str, Layout], alternatives: int
) -> tuple[
    d.Design,
    list[Need],
    list[Finding],
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
    """Each index's projection chosen by the review's verdict, then cost: ALL
    copies whole items into the index (each write and each stored byte
    again); INCLUDE of the entities' own attributes leaves out the other
    indexes' keys; KEYS_ONLY makes every item a Query returns a second read.
    The review prices each choice on the alternative's own simulation (its
    cost counts the second reads). A choice that removes a warning (a second
    read costlier than projecting) is kept whatever it costs; else the
    cheapest choice per index is kept that adds none; the result is checked
    again, and kept when the review finds it better."""
    if (
        alternative.simulation is None
        or alternative.review is None
        or alternative.problem
        or alternative.failed
    ):
        return replace(
            alternative,
            reasons=alternative.reasons + projection_reasons(alternative.design, {}),
        )
    design = alternative.design
    runs = [run for run in alternative.review.runs if run is not None]
    cost = alternative.monthly_cost
    flaws = len(alternative.findings)
    notes: dict[str, str] = {}
    for index in design.table.indexes:
        for projection in projection_options(design, index):
            variant = with_projection(design, index.name, projection)
            review = review_design(
                variant, simulation=alternative.simulation, runs=runs
            )
            found = sum(f.severity is not Severity.ADVICE for f in review.findings)
            priced = design_monthly_cost(variant, review.cost)
            # A saving worth a second check: a dollar and a hundredth.
            cheaper = cost is not None and priced < cost - max(Decimal(1), cost / 100)
            if found < flaws or (found == flaws and cheaper):
                if cheaper and cost is not None:
                    notes[index.name] = projection_note(projection, cost - priced)
                else:
                    notes.pop(index.name, None)
                design, cost, flaws = variant, priced, found
    if design is not alternative.design:
        checked = _checked(design, plan, keys, needs, samples=samples)
        if checked.proven or (
            not alternative.proven
            and not checked.refused
            and len(checked.findings) < len(alternative.findings)
        ):
            return replace(
                checked,
                reasons=alternative.reasons + projection_reasons(design, notes),
            )
    return replace(
        alternative,
        reasons=alternative.reasons + projection_reasons(alternative.design, {}),
    )
