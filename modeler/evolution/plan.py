"""A migration plan: the changes from the deployed design to the next one,
as ordered steps (table changes, application deploys, the item rewrite),
each with what it costs in capacity units and dollars at the project's
prices, how long it takes at a chosen write rate, and whether the
application must dual-write or dual-read meanwhile.

The rewrite's units are measured, not guessed: the proof runs the plan's
script on the old design's sample data in the engine, which counts
capacity by DynamoDB's rules as the review's cost model does, and a GSI's
backfill is one write per entry of the migrated items, on the entry's size.
Figures are at the sample's item counts, times `scale` for a table that
holds more.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.engine.capacity import write_units
from modeler.engine.size import item_size
from modeler.evolution import changes as c
from modeler.evolution.beside import Rebuilt, rebuilt_beside, rekeyed_indexes
from modeler.evolution.iac import (
    gsi_creations,
    gsi_removals,
    interim_capacities,
    remade_gsis,
    removed_before_cleanup,
    stream_alone,
    stream_retyped,
    ttl_moved,
)
from modeler.evolution.matching import entity_matching
from modeler.evolution.proof import Progress, Proof, Reporter, prove
from modeler.evolution.runtime import Tally
from modeler.evolution.script import migration_script, script_namespace
from modeler.evolution.spec import (
    PlanError,
    needs_copy,
    rewrite_spec,
    target_table_name,
)
from modeler.review.prices import DOCUMENTED_PRICES, Prices

DEFAULT_WCU_PER_SECOND = 1000.0
# The phases of the alternative's proof (`Plan.alternative`) are told with
# this before them.
BESIDE = "beside:"
DEPLOY = "application deploy"


@dataclass(frozen=True)
class Step:
    kind: str  # one of changes.CATEGORIES, or DEPLOY
    title: str
    details: tuple[str, ...] = ()
    read_units: float = 0.0
    write_units: float = 0.0
    dollars: Decimal = Decimal(0)
    seconds: float = 0.0
    dual_write: bool = False
    dual_read: bool = False


@dataclass
class Plan:
    before: d.Design
    after: d.Design
    changes: list[c.Change]
    steps: list[Step]
    spec: dict[str, Any]
    prices: Prices
    wcu_per_second: float
    scale: float
    script: str = ""
    proof: Proof | None = None
    problems: list[str] = field(default_factory=list)
    # Where the deployed version reads an index this plan re-keys in place
    # (not proven) or makes again under its name (an outage): the plan to
    # the next design with the index rebuilt beside itself (`beside`),
    # proven, and what it rebuilds.
    alternative: Plan | None = None
    rebuilt: list[Rebuilt] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        return self.proof is not None and self.proof.proven and not self.problems

    @property
    def verdict(self) -> str:
        if self.problems:
            return "cannot be proven: " + "; ".join(self.problems)
        if self.proof is None:
            return "not proven: the rehearsal was not run"
        if self.proof.proven:
            return "proven on the sample data"
        failing = [n for n, passed, _ in self.proof.patterns if not passed]
        reasons = list(self.proof.problems[:3])
        if failing:
            reasons.append("patterns failing: " + ", ".join(failing))
        old = [n for n, passed, _ in self.proof.old_patterns if not passed]
        if old:
            reasons.append(
                "patterns of the deployed design failing at the dual-write step: "
                + ", ".join(old)
            )
        return "not proven: " + "; ".join(reasons)

    @property
    def write_units(self) -> float:
        return sum(s.write_units for s in self.steps)

    @property
    def read_units(self) -> float:
        return sum(s.read_units for s in self.steps)

    @property
    def dollars(self) -> Decimal:
        return sum((s.dollars for s in self.steps), Decimal(0))

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.steps)


def _money(read_units: float, write_units: float, prices: Prices) -> Decimal:
    """Request units at the on-demand prices per million."""
    million = Decimal(1_000_000)
    return (
        Decimal(str(read_units)) / million * prices.read_request_per_million
        + Decimal(str(write_units)) / million * prices.write_request_per_million
    )


def _provisioned_money(
    seconds: float, rcu: float, wcu: float, prices: Prices
) -> Decimal:
    """Capacity held for `seconds` at the provisioned prices per hour."""
    hours = Decimal(str(seconds)) / Decimal(3600)
    return hours * (
        Decimal(str(rcu)) * prices.rcu_hour + Decimal(str(wcu)) * prices.wcu_hour
    )


def backfill_units(index: d.Index, table: d.Table, items: list[dict[str, Any]]) -> int:
    """What building a GSI over `items` writes: one entry per item that has
    every key attribute of the index (of the key's type), each rounded up
    to 1 KB on the entry's size (its keys, the table's keys and the
    projected attributes)."""
    types = {"S": str, "N": Decimal, "B": bytes}
    table_keys = [a.name for a in table.key_attributes]
    index_keys = [a.name for a in index.key_attributes]
    units = 0
    for item in items:
        if not all(
            isinstance(item.get(a.name), types[a.type]) for a in index.key_attributes
        ):
            continue
        if index.projection.type == "ALL":
            entry = item
        else:
            names = table_keys + index_keys
            if index.projection.type == "INCLUDE":
                names += list(index.projection.attributes)
            entry = {n: item[n] for n in dict.fromkeys(names) if n in item}
        units += write_units(item_size(entry))
    return units


def plan_migration(
    before: d.Design,
    after: d.Design,
    *,
    prices: Prices = DOCUMENTED_PRICES,
    wcu_per_second: float = DEFAULT_WCU_PER_SECOND,
    stored_items: int | None = None,
    proof: bool = True,
    title: str = "",
    progress: Progress | None = None,
    unread: Mapping[str, str] | None = None,
    sides: tuple[str, str] = ("the deployed design", "the next design"),
    alternatives: bool = True,
) -> Plan:
    """The plan from `before` (deployed) to `after`. With `proof` the
    rewrite is rehearsed on the sample data: its costs and the verdict come
    from there, scaled to `stored_items` when the live table holds more
    (or fewer) items than the sample. `progress` hears how far the proof
    is (`proof.Progress`) and may raise to stop it. `unread` names the
    settings a live deployed table did not report (`changes.UNREADABLE`),
    with why: the plan notes them and changes none of them. `sides` names
    the two designs in a PlanError: one whose entities lack their table
    keys (a design imported from SQL before any were proposed) was never
    deployed, or cannot be, and is refused before anything is planned.
    With `alternatives`, a plan the deployed version's reads of a re-keyed
    index leave unproven, or whose index made again under its name it
    reads, is planned again with the index rebuilt beside itself
    (`Plan.alternative`, kept when proven; left out when `progress` stops
    it)."""
    if wcu_per_second <= 0:
        raise ValueError("the write rate must be more than 0 WCU/s")
    deployed = before
    check_keyed(before, sides[0], deployed=True)
    check_keyed(after, sides[1], deployed=False)
    before, notes = c.unread_settings(before, after, unread or {})
    matching = entity_matching(before, after)
    changes = (
        c.table_changes(before, after)
        + c.entity_changes(before, after, matching)
        + notes
    )
    title = title or f"Migrate {before.name} to {after.name}"
    spec = rewrite_spec(
        before, after, matching, wcu_per_second=wcu_per_second, title=title
    )
    plan = Plan(before, after, changes, [], spec, prices, wcu_per_second, 1.0)
    plan.problems = [
        f"cannot be scripted: {change.what}"
        for change in changes
        if not change.scriptable
    ]
    plan.script = migration_script(spec, before=before.name, after=after.name)
    if proof and not plan.problems:
        progress = Reporter(progress) if progress is not None else None
        plan.proof = prove(
            before,
            after,
            spec,
            run=script_runner(plan.script, progress=progress),
            progress=progress,
            # While keys move the dual-write application reads the new key
            # first, then the old: the old design's reads alone do not hold.
            old_patterns=not any(ch.moves for ch in changes),
        )
        sample = sum(plan.proof.counts_before.values())
        if stored_items and sample:
            plan.scale = stored_items / sample
    plan.steps = _steps(plan)
    made = _rebuilt_beside(plan) if alternatives else None
    if made is not None:
        reporter = None
        if progress is not None:
            told = progress
            # The alternative's proof says its phases as its own.
            reporter = Reporter(
                lambda phase, done, total: told(BESIDE + phase, done, total)
            )
        try:
            alternative = plan_migration(
                deployed,
                made[0],
                prices=prices,
                wcu_per_second=wcu_per_second,
                stored_items=stored_items,
                title=title,
                progress=reporter,
                unread=unread,
                sides=sides,
                alternatives=False,
            )
        except Exception:
            if reporter is None or reporter.raised is None:
                raise
            # The caller stopped it (a worker past its budget): the plan
            # asked for stands, without the alternative.
            return plan
        if alternative.proven:
            plan.alternative, plan.rebuilt = alternative, made[1]
    return plan


def remade_indexes(before: d.Design, after: d.Design) -> dict[str, list[str]]:
    """The GSIs the next design changes under their own names (keys or
    projection), which are deleted and made again, by name, with the
    deployed version's patterns that query them (they fail meanwhile)."""
    return {
        index.name: [p.name for p in before.access_patterns if p.index == index.name]
        for index in remade_gsis(before, after)
    }


def _rebuilt_beside(plan: Plan) -> tuple[d.Design, list[Rebuilt]] | None:
    """The next design with indexes rebuilt beside themselves: those the
    deployed version's failing reads query, when those reads are all the
    proof found wrong and each queries an index whose keys change; and
    those made again under their own names that it reads (an outage)."""
    proof = plan.proof
    if proof is None or proof.problems or plan.problems:
        return None
    if not all(passed for _, passed, _ in proof.patterns):
        return None
    failing = {name for name, passed, _ in proof.old_patterns if not passed}
    readers: dict[str, list[str]] = {}
    for pattern in plan.before.access_patterns:
        if pattern.name in failing:
            readers.setdefault(pattern.index, []).append(pattern.name)
    rekeyed = rekeyed_indexes(plan.before, plan.after)
    if not all(index in rekeyed for index in readers):
        return None
    for name, remade in remade_indexes(plan.before, plan.after).items():
        if remade:
            readers[name] = sorted(set(readers.get(name, [])) | set(remade))
    if not readers:
        return None
    return rebuilt_beside(plan.before, plan.after, list(readers), readers, rekeyed)


def check_keyed(design: d.Design, side: str, *, deployed: bool) -> None:
    """PlanError, naming `side` and the entities, when an entity of the
    design has no template for a key of the table: its items could not be
    written to the table, so no table holds them (`deployed`: the design
    said to be live) or can (the next one)."""
    table_keys = [a.name for a in design.table.key_attributes]
    lacking: dict[tuple[str, ...], list[str]] = {}
    for entity in design.entities:
        missing = tuple(k for k in table_keys if k not in entity.keys)
        if missing:
            lacking.setdefault(missing, []).append(entity.name)
    if not lacking:
        return
    reasons = []
    for missing, names in lacking.items():
        listed = ", ".join(names)
        verb = "has" if len(names) == 1 else "have"
        if len(missing) == len(table_keys):
            reasons.append(f"{listed} {verb} no table key yet")
        else:
            reasons.append(
                f"{listed} {verb} no template for the table key "
                + " and ".join(missing)
                + " yet"
            )
    keys = " and ".join(table_keys)
    if deployed:
        raise PlanError(
            f"{side} cannot have been deployed: " + "; ".join(reasons) + ": "
            f"compare from the revision that was deployed, whose entities have "
            f"their templates for {keys}"
        )
    raise PlanError(
        f"{side} cannot be deployed: " + "; ".join(reasons) + ": propose keys, "
        f"or write the entities' key templates for {keys}"
    )


def script_runner(
    script: str, *, progress: Progress | None = None, **options: Any
) -> Callable[[Any, bool], Tally]:
    """A run of a phase of the generated script itself (its own code and
    plan, as downloaded) against a client; `progress` hears the items
    scanned."""

    def run(client: Any, cleanup: bool) -> Tally:
        namespace = script_namespace(script)
        options.setdefault("workers", 1)
        migration = namespace["Migration"](
            namespace["PLAN"], client, cleanup=cleanup, **options
        )
        if progress is not None:
            counts = migration.tally.counts
            phase = "cleanup" if cleanup else "rewriting"
            migration.progress = lambda line: progress(
                phase, counts["scanned"], migration.total
            )
        return migration.run()

    return run


def _steps(plan: Plan) -> list[Step]:
    before, after = plan.before, plan.after
    changes = plan.changes
    copying = needs_copy(before, after)
    rewrites = [ch.what for ch in changes if ch.category == c.REWRITE]
    # What the cleanup alone does is listed under it, not the rewrite.
    cleaned = [ch.what for ch in changes if ch.category == c.REWRITE and ch.at_cleanup]
    steps: list[Step] = []
    proof = plan.proof
    tally = proof.tally if proof is not None else None
    reads = (tally.read_units if tally else 0.0) * plan.scale
    writes = (tally.write_units if tally else 0.0) * plan.scale
    rewrite_seconds = writes / plan.wcu_per_second
    on_demand = after.table.billing_mode == "PAY_PER_REQUEST"

    def cost(read_units: float, write_units: float, seconds: float) -> Decimal:
        if on_demand:
            return _money(read_units, write_units, plan.prices)
        return _provisioned_money(
            seconds,
            read_units / seconds if seconds else 0.0,
            write_units / seconds if seconds else 0.0,
            plan.prices,
        )

    counted = _counted(plan)
    if copying:
        target = target_table_name(before, after)
        steps.append(
            Step(
                c.NEW_TABLE,
                f"Create table {target} as the new design has it (its GSIs and "
                "LSIs at once)",
                tuple(ch.what for ch in changes if ch.category == c.NEW_TABLE),
            )
        )
        steps.append(
            Step(
                DEPLOY,
                f"Deploy an application version that writes every change to both "
                f"{before.table.name} and {target} (reads stay on {before.table.name})",
                dual_write=True,
            )
        )
        steps.append(
            Step(
                c.NEW_TABLE,
                f"Run the script: copy every item of {before.table.name} into "
                f"{target} with the new keys, then --verify",
                tuple(rewrites) + counted,
                reads,
                writes,
                cost(reads, writes, rewrite_seconds),
                rewrite_seconds,
                dual_write=True,
            )
        )
        steps.append(
            Step(
                DEPLOY,
                f"Deploy the application version of the new design: reads and "
                f"writes {target} only",
            )
        )
        steps.append(
            Step(
                c.ONLINE,
                f"Back up and delete table {before.table.name} once no version uses it",
            )
        )
        return steps
    creations = gsi_creations(before, after)
    removals = gsi_removals(before, after)
    setting_changes = [ch for ch in changes if ch.category == c.ONLINE and ch.setting]
    settings = [ch.what for ch in setting_changes]
    # UpdateTable changes the stream or the capacity, not both at once.
    stream_changes = [
        ch
        for ch in setting_changes
        if ch.label == "stream" and stream_alone(before, after)
    ]
    moving_ttl = ttl_moved(before, after)
    first = [ch for ch in setting_changes if ch not in stream_changes]
    if first:
        # TTL, backups and tags each have their own call, not UpdateTable's.
        calls = dict.fromkeys(ch.call for ch in first)
        was, now = before.table.ttl_attribute, after.table.ttl_attribute
        steps.append(
            Step(
                c.ONLINE,
                f"{', '.join(calls)}: the table's settings",
                tuple(
                    f"TTL attribute: {was} -> off (DynamoDB cannot move an enabled "
                    f"TTL: it is turned on for {now} at least an hour later)"
                    if moving_ttl and ch.label == "TTL attribute"
                    else ch.what
                    for ch in first
                )
                + tuple(
                    f"GSI {name}, removed later: {cap.read} RCU / {cap.write} WCU, "
                    "the table's, until its deletion (every GSI of a provisioned "
                    "table needs capacity, and every version writes it until then)"
                    for name, cap in interim_capacities(before, after).items()
                ),
            )
        )
    for change in stream_changes:
        if stream_retyped(before, after):
            was, now = before.table.stream_view_type, after.table.stream_view_type
            steps.append(
                Step(
                    c.ONLINE,
                    f"UpdateTable: turn the stream ({was}) off, in an update of its "
                    "own (DynamoDB cannot change the view type of an enabled "
                    f"stream: it is turned on as {now} next)",
                    (change.what,),
                )
            )
            steps.append(
                Step(
                    c.ONLINE,
                    f"UpdateTable: turn the stream on as {now}: a new stream with "
                    "a new ARN, point its consumers at it (changes made while it "
                    "was off are in neither stream)",
                    (change.what,),
                )
            )
            continue
        steps.append(
            Step(
                c.ONLINE,
                "UpdateTable: the table's stream, in an update of its own "
                "(UpdateTable changes the stream or the capacity, one at a time)",
                (change.what,),
            )
        )
    keys_move = any(ch.moves for ch in changes)
    retypes = [ch.retype for ch in changes if ch.retype and ch.scriptable]
    both_types = ", ".join(
        f"{e}.{a} as either {was} or {now}" for e, a, was, now in retypes
    )
    if rewrites:
        steps.append(
            Step(
                DEPLOY,
                "Deploy an application version that writes items in both the old "
                "and the new shape"
                + (" and reads the new key first, then the old" if keys_move else "")
                + (
                    f"; it reads {both_types} and still writes "
                    + ", ".join(f"{e}.{a} as {was}" for e, a, was, _ in retypes)
                    + " (the deployed version reads only that)"
                    if retypes
                    else ""
                ),
                dual_write=True,
                dual_read=keys_move or bool(retypes),
            )
        )
        steps.append(
            Step(
                c.REWRITE,
                "Run the script: rewrite the items in place (parallel Scan, guarded "
                "writes, resumable), then --verify",
                tuple(w for w in rewrites if w not in cleaned) + counted,
                reads,
                writes,
                cost(reads, writes, rewrite_seconds),
                rewrite_seconds,
                dual_write=True,
                dual_read=keys_move or bool(retypes),
            )
        )
    items = proof.items_after if proof is not None else []
    remade = remade_indexes(before, after)
    for index in creations:
        if index.name in remade:
            readers = remade[index.name]
            steps.append(
                Step(
                    c.ONLINE,
                    f"UpdateTable: delete GSI {index.name}, to make it again next "
                    "(DynamoDB cannot change a GSI's keys or projection in place)"
                    + (
                        "; until the new one is ACTIVE the deployed version's "
                        f"queries of it fail: {', '.join(readers)}"
                        if readers
                        else ""
                    ),
                    dual_write=bool(rewrites),
                )
            )
        units = backfill_units(index, after.table, items) * plan.scale
        seconds = units / plan.wcu_per_second
        steps.append(
            Step(
                c.ONLINE,
                f"UpdateTable: create GSI {index.name} and wait until it is ACTIVE "
                "(one GSI creation per update)",
                (f"backfill of {units:,.0f} index writes from the existing items",),
                0.0,
                units,
                cost(0.0, units, seconds),
                seconds,
                dual_write=bool(rewrites),
            )
        )
    if moving_ttl:
        steps.append(
            Step(
                c.ONLINE,
                f"UpdateTimeToLive: turn TTL on for {after.table.ttl_attribute}, "
                "at least an hour after it was turned off (DynamoDB takes one TTL "
                "change per table per hour); until then no item expires",
                tuple(ch.what for ch in first if ch.label == "TTL attribute"),
                dual_write=bool(rewrites),
            )
        )
    if rewrites or creations or removals or settings:
        steps.append(
            Step(
                DEPLOY,
                "Deploy the application version of the new design (its access "
                "patterns; writes in the new shape only)"
                + (
                    f"; until the cleanup has run it reads {both_types}, and "
                    "writes "
                    + ", ".join(f"{e}.{a} as {now}" for e, a, _, now in retypes)
                    if retypes
                    else ""
                ),
                dual_read=bool(retypes),
            )
        )
    cleanup = proof.cleanup_tally if proof is not None else None
    cleaning = bool(rewrites and (cleanup is None or cleanup.counts["migrated"]))
    for name in removed_before_cleanup(before, after):
        steps.append(
            Step(
                c.ONLINE,
                f"UpdateTable: delete GSI {name} (no version reads it any more"
                + (
                    "; before the cleanup, whose writes it would take"
                    if cleaning
                    else ""
                )
                + ")",
            )
        )
    if cleaning:
        clean_reads = (cleanup.read_units if cleanup else 0.0) * plan.scale
        clean_writes = (cleanup.write_units if cleanup else 0.0) * plan.scale
        clean_seconds = clean_writes / plan.wcu_per_second
        steps.append(
            Step(
                c.REWRITE,
                "Run the script with --cleanup: remove the old items and attributes "
                "the old application version read"
                + (
                    ", retype "
                    + ", ".join(f"{e}.{a} to {now}" for e, a, _, now in retypes)
                    if retypes
                    else ""
                )
                + " (resumable, its own checkpoint), then --verify --cleanup",
                tuple(cleaned) + _counted(plan, cleanup=True),
                clean_reads,
                clean_writes,
                cost(clean_reads, clean_writes, clean_seconds),
                clean_seconds,
            )
        )
    if rewrites and retypes:
        steps.append(
            Step(
                DEPLOY,
                "Deploy the application version of the new design that reads "
                + ", ".join(f"{e}.{a} as {now} only" for e, a, _, now in retypes)
                + " (the cleanup retyped every item)",
            )
        )
    if not steps:
        steps.append(
            Step(
                c.NOTHING,
                "Nothing to do to the table: deploy the application version of the "
                "new design",
            )
        )
    return steps


def _counted(plan: Plan, *, cleanup: bool = False) -> tuple[str, ...]:
    if plan.proof is None:
        return ()
    tally = plan.proof.cleanup_tally if cleanup else plan.proof.tally
    if tally is None:
        return ()
    verb = "cleaned up" if cleanup else "copied" if plan.spec["copy"] else "rewritten"
    counted = [
        f"{name}: {count * plan.scale:,.0f} items {verb}"
        for name, count in sorted(tally.by_entity.items())
    ]
    return tuple(counted)


def duration_text(seconds: float) -> str:
    if seconds < 60:
        return f"{math.ceil(seconds)} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def plan_text(plan: Plan) -> str:
    """The plan as the command prints it and the page offers to download."""
    lines = [
        f"Migration plan: {plan.before.name} -> {plan.after.name}",
        f"Verdict: {plan.verdict}",
        f"Write rate: {plan.wcu_per_second:,.0f} WCU/s; prices of "
        f"{plan.prices.taken.isoformat()} ({plan.prices.region}); figures at the "
        f"sample's item counts" + (f" x {plan.scale:g}" if plan.scale != 1 else ""),
        "",
        "Changes:",
    ]
    for category in c.CATEGORIES:
        listed = [ch for ch in plan.changes if ch.category == category]
        for change in listed:
            lines.append(f"- [{category}] {change.what}")
    if not plan.changes:
        lines.append("- none")
    lines += ["", "Steps, in order:"]
    for number, step in enumerate(plan.steps, start=1):
        flags = [
            f
            for f, on in (
                ("dual-write", step.dual_write),
                ("dual-read", step.dual_read),
            )
            if on
        ]
        lines.append(
            f"{number}. [{step.kind}] {step.title}"
            + (f" ({', '.join(flags)})" if flags else "")
        )
        for detail in step.details:
            lines.append(f"   - {detail}")
        if step.read_units or step.write_units:
            lines.append(
                f"   cost: {step.read_units:,.1f} RCU, {step.write_units:,.1f} WCU, "
                f"${step.dollars:,.4f}; about {duration_text(step.seconds)} at "
                f"{plan.wcu_per_second:,.0f} WCU/s"
            )
    lines.append("")
    lines.append(
        f"Total: {plan.read_units:,.1f} RCU, {plan.write_units:,.1f} WCU, "
        f"${plan.dollars:,.4f}, about {duration_text(plan.seconds)}"
    )
    proof = plan.proof
    if proof is not None:
        lines += ["", "Proof on the sample data:"]
        for name in sorted(proof.counts_expected.keys() | proof.counts_after.keys()):
            lines.append(
                f"- {name}: {proof.counts_expected.get(name, 0):,} items expected, "
                f"{proof.counts_after.get(name, 0):,} after"
            )
        for problem in proof.problems:
            lines.append(f"- problem: {problem}")
        for name, _, detail in proof.patterns:
            lines.append(f"- pattern {name}: {detail}")
        for name, _, detail in proof.old_patterns:
            lines.append(f"- at the dual-write step, deployed pattern {name}: {detail}")
    for problem in plan.problems:
        lines.append(f"- {problem}")
    if plan.alternative is not None:
        lines += [
            "",
            "A way without the outage, proven:"
            if plan.proven
            else "A proven way instead:",
        ]
        lines += [f"- {rebuilt.text}" for rebuilt in plan.rebuilt]
        lines += [
            "The next design with only that changed is written by plan_migration "
            "--alternative FILE, and offered on the Migration tab. Its plan:",
            "",
        ]
        lines += [
            f"  {line}" if line else line
            for line in plan_text(plan.alternative).splitlines()
        ]
    return "\n".join(lines) + "\n"
