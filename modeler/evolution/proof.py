"""A migration proven on the sample data: the old design's sample loaded in
the engine, the plan's item rewrite run against it through the engine's
boto3-compatible client (the same code the generated script runs), and the
result checked:

- every item is an item of the new design, its keys (table and indexes)
  exactly what the new templates render from its attributes (the
  workbench's own key renderer, not the script's);
- the items per entity are what the plan promises from the counts before
  (no item lost or doubled);
- every access pattern of the new design passes against the migrated
  table, every parameter draw of it;
- every access pattern of the old design passes on the table as the
  rewrite phase leaves it, before the cleanup: the application of the
  dual-write step still reads as the old design does (unless keys move, when
  it reads the new key first, then the old).

The script runs in its two phases, as the plan orders them: the rewrite at
the dual-write step, the cleanup after the final deploy.

The run's consumed capacity is measured there too: the rewrite's costs are
the engine's units, as the review's are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from modeler.design import model as d
from modeler.engine.client import Client
from modeler.engine.types import item_from_wire, type_of
from modeler.evolution.iac import removed_before_cleanup
from modeler.evolution.rewriting import keys_of, recognise, rewritten
from modeler.evolution.runtime import Migration, Tally
from modeler.keys.items import key_renderer
from modeler.sampledata.generate import Dataset
from modeler.sampledata.recognise import EntityRecogniser
from modeler.simulation.requests import create_table_request
from modeler.simulation.simulate import Simulation


@dataclass
class Proof:
    """What the rehearsal on the sample data showed."""

    counts_before: dict[str, int] = field(default_factory=dict)
    counts_expected: dict[str, int] = field(default_factory=dict)
    counts_after: dict[str, int] = field(default_factory=dict)
    tally: Tally | None = None
    cleanup_tally: Tally | None = None
    problems: list[str] = field(default_factory=list)
    patterns: list[tuple[str, bool, str]] = field(default_factory=list)
    # The old design's patterns at the dual-write step: the application
    # that dual-writes still reads as the old design does, from the table
    # the script has rewritten (empty when it reads the new keys first).
    old_patterns: list[tuple[str, bool, str]] = field(default_factory=list)
    items_after: list[dict[str, Any]] = field(default_factory=list)
    entities_after: list[str] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        return not self.problems and all(
            passed for _, passed, _ in self.patterns + self.old_patterns
        )


# progress(phase, done, total): the simulation's phases ("generating",
# "loading"), then "rewriting" (items scanned), "dual-write" (the old
# design's patterns), "cleanup" (items scanned), "checking" and "patterns".
Progress = Callable[[str, int, int], None]


class Reporter:
    """The caller's `Progress`, remembering what it raised: the proof takes
    the script failing as its verdict, but a stop the caller asked for (a
    worker's budget) stops the proof."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.raised: Exception | None = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        try:
            self.progress(phase, done, total)
        except Exception as exc:
            self.raised = exc
            raise


def loaded_client(
    before: d.Design,
    after: d.Design,
    spec: dict[str, Any],
    progress: Progress | None = None,
):
    """A client over the engine holding the old design's sample data (and
    the new table, empty, when the plan copies), and the sample itself."""
    simulation = Simulation(before, progress=progress)
    client = Client(simulation.client.engine)
    if spec["copy"]:
        client.create_table(
            **create_table_request(after, table_name=spec["target_table"])
        )
    return client, simulation


def table_items(client: Any, table: str) -> list[dict[str, Any]]:
    """Every item of a table, as native values."""
    items = []
    for page in client.get_paginator("scan").paginate(TableName=table):
        items += [item_from_wire(item) for item in page.get("Items", [])]
    return items


def expected_counts(
    spec: dict[str, Any], client: Any, table: str
) -> tuple[dict[str, int], dict[str, int]]:
    """Items per old entity before the run, and per new entity what the
    plan makes of them (counted by the planner's rules on each item, not
    by running the writes): the distinct keys of the new items, since the
    items of an entity merged into another join theirs."""
    before: dict[str, int] = {}
    made: dict[str, set[str]] = {}
    for page in client.get_paginator("scan").paginate(TableName=table):
        for item in page.get("Items", []):
            kind, entity = recognise(spec, item)
            name = entity["name"] if kind == "old" else f"({kind})"
            before[name] = before.get(name, 0) + 1
            if kind != "old":
                continue
            for output in entity["outputs"]:
                new = rewritten(entity, output, item)
                if new is not None:
                    key = json.dumps(
                        keys_of(new, spec["target_keys"]), sort_keys=True, default=str
                    )
                    made.setdefault(output["name"], set()).add(key)
    return before, {name: len(keys) for name, keys in made.items()}


def prove(
    before: d.Design,
    after: d.Design,
    spec: dict[str, Any],
    *,
    run: Callable[[Any, bool], Tally] | None = None,
    progress: Progress | None = None,
    old_patterns: bool = True,
) -> Proof:
    """Run the rewrite on the old design's sample data and check the result.
    `run(client, cleanup)` runs a phase of it (a test stops it halfway and
    resumes); by default one uninterrupted run of each. `progress` hears
    how far it is (`Progress`); it may raise to stop the proof. With
    `old_patterns`, the old design's access patterns are run too, on the
    source table as the rewrite phase left it: the application of the
    dual-write step still reads that way."""
    tell = progress or (lambda phase, done, total: None)
    proof = Proof()
    client, _ = loaded_client(before, after, spec, progress)
    proof.counts_before, proof.counts_expected = expected_counts(
        spec, client, spec["source_table"]
    )
    unknown = proof.counts_before.get("(unknown)", 0)
    if unknown:
        proof.problems.append(
            f"{unknown} items of the sample are of no entity of the old design"
        )
    run = run or (
        lambda c, cleanup: Migration(spec, c, workers=1, cleanup=cleanup).run()
    )
    try:
        proof.tally = run(client, False)
        proof.problems += proof.tally.errors
        if old_patterns:
            tell("dual-write", 0, 1)
            items = table_items(client, spec["source_table"])
            recogniser = EntityRecogniser(before)
            names = [recogniser.entity_of(item) or "" for item in items]
            proof.old_patterns = typed_runs(
                before, patterns_run(before, items, names), items, names
            )
        # A copy leaves the old table whole: nothing there to clean up.
        if not spec["copy"]:
            # The plan deletes the GSIs no version reads any more before the
            # cleanup (those made again under their names stay: the new one
            # is there by then).
            for name in removed_before_cleanup(before, after):
                client.update_table(
                    TableName=spec["source_table"],
                    GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": name}}],
                )
            proof.cleanup_tally = run(client, True)
    except Exception as exc:  # the script failing is the proof's verdict
        if isinstance(progress, Reporter) and progress.raised is not None:
            raise progress.raised from None
        proof.problems.append(f"the script stopped: {type(exc).__name__}: {exc}")
        return proof
    if proof.cleanup_tally is not None:
        proof.problems += proof.cleanup_tally.errors
    tell("checking", 0, 1)
    check_table(proof, after, client, spec["target_table"])
    if not proof.problems:
        run_patterns(proof, after, tell)
    return proof


def check_table(proof: Proof, after: d.Design, client: Any, table: str) -> None:
    """Label every item of the migrated table with its entity of the new
    design and check its keys and the counts."""
    recogniser = EntityRecogniser(after)
    key_names = [a.name for a in after.table.all_key_attributes()]
    items = table_items(client, table)
    entities = []
    wrong_keys = 0
    renderers = {e.name: key_renderer(after, e.name) for e in after.entities}
    for item in items:
        name = recogniser.entity_of(item)
        if name is None:
            proof.problems.append(
                f"item {_key_text(after, item)} is of no entity of the new design"
            )
            entities.append("")
            continue
        entities.append(name)
        proof.counts_after[name] = proof.counts_after.get(name, 0) + 1
        wanted = renderers[name](item)
        has = {k: item[k] for k in key_names if k in item}
        if wanted != has:
            wrong_keys += 1
            if wrong_keys <= 5:
                proof.problems.append(
                    f"{name} item {_key_text(after, item)}: keys {has}, the new "
                    f"templates make {wanted}"
                )
    if wrong_keys > 5:
        proof.problems.append(f"... {wrong_keys} items with wrong keys in all")
    for name in sorted(proof.counts_expected.keys() | proof.counts_after.keys()):
        want = proof.counts_expected.get(name, 0)
        got = proof.counts_after.get(name, 0)
        if want != got:
            proof.problems.append(
                f"{name}: {want:,} items expected after the migration, {got:,} found"
            )
    proof.items_after, proof.entities_after = items, entities


def run_patterns(
    proof: Proof, after: d.Design, progress: Progress | None = None
) -> None:
    """Every keyed access pattern of the new design against the migrated
    items, each read with its further draws."""
    proof.patterns = typed_runs(
        after,
        patterns_run(after, proof.items_after, proof.entities_after, progress),
        proof.items_after,
        proof.entities_after,
    )


def patterns_run(
    design: d.Design,
    items: list[dict[str, Any]],
    entities: list[str],
    progress: Progress | None = None,
) -> list[tuple[str, bool, str]]:
    """(name, passed, detail) of every access pattern of `design` against
    `items` (each of its entity in `entities`), with its further draws."""
    found: list[tuple[str, bool, str]] = []
    simulation = Simulation(design, dataset=Dataset(list(items), list(entities)))
    total = len(design.access_patterns)
    for number, pattern in enumerate(design.access_patterns):
        if progress is not None:
            progress("patterns", number, total)
        if not pattern.keyed:
            found.append((pattern.name, False, "has no key yet"))
            continue
        result = simulation.draw(simulation.run(pattern))
        if result.passed:
            detail = f"passes ({result.draws} draws)" if result.draws else "passes"
        elif result.error:
            detail = "fails: " + result.error
        elif result.failed_draw is not None:
            detail = f"fails on a {result.failed_draw.kind} draw: " + "; ".join(
                result.failed_draw.verdict.reasons
            )
        else:
            detail = "fails: " + "; ".join(result.verdict.reasons)
        found.append((pattern.name, result.passed, detail))
    return found


def typed_runs(
    design: d.Design,
    runs: list[tuple[str, bool, str]],
    items: list[dict[str, Any]],
    entities: list[str],
) -> list[tuple[str, bool, str]]:
    """The runs of `design`'s patterns, each failed that reads an attribute
    some item holds with another type than the design declares: the
    simulator compares what it finds with parameters drawn from the same
    items, but the application of that design decodes the attribute as its
    declared type (a number that became a string breaks it)."""
    found = wrong_types(design, items, entities)
    if not found:
        return runs
    patterns = {p.name: p for p in design.access_patterns}
    out = []
    for name, passed, detail in runs:
        pattern = patterns.get(name)
        wrong = [
            f"{entity}.{attribute} is {kind} on {count:,} items, the design "
            f"reads {declared}"
            for (entity, attribute), (declared, kind, count) in sorted(found.items())
            if pattern is not None
            and attribute in _read_attributes(design, pattern).get(entity, ())
        ]
        if passed and wrong:
            out.append((name, False, "fails: " + "; ".join(wrong)))
        else:
            out.append((name, passed, detail))
    return out


def wrong_types(
    design: d.Design, items: list[dict[str, Any]], entities: list[str]
) -> dict[tuple[str, str], tuple[str, str, int]]:
    """(entity, attribute) -> (declared type, type found, items) of every
    declared attribute that some item of the entity holds with another
    type."""
    declared = {e.name: {a.name: a.type for a in e.attributes} for e in design.entities}
    found: dict[tuple[str, str], tuple[str, str, int]] = {}
    for item, entity in zip(items, entities, strict=True):
        types = declared.get(entity)
        if not types:
            continue
        for attribute, value in item.items():
            want = types.get(attribute)
            if want is None or value is None:
                continue
            kind = type_of(value)
            if kind != want:
                _, _, count = found.get((entity, attribute), (want, kind, 0))
                found[(entity, attribute)] = (want, kind, count + 1)
    return found


def _read_attributes(design: d.Design, pattern: d.AccessPattern) -> dict[str, set[str]]:
    """Per entity, the attributes a pattern's application code decodes or
    compares: every projected attribute of the items a read returns, and
    those a write's conditions compare or its updates add to."""
    out: dict[str, set[str]] = {}
    if pattern.is_read and pattern.expects is not None:
        for name in pattern.expects.entities:
            entity = design.entity(name)
            if entity is None:
                continue
            declared = {a.name for a in entity.attributes}
            out[name] = set(pattern.projection) & declared or declared
        return out
    for action in pattern.actions:
        entity = design.entity(action.entity)
        if entity is None:
            continue
        words = set(_WORD.findall(action.condition))
        named = {a.name for a in entity.attributes if a.name in words}
        named |= {name for name, _ in action.add}
        out.setdefault(action.entity, set()).update(named)
    return out


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def _key_text(design: d.Design, item: dict[str, Any]) -> str:
    return ", ".join(
        f"{a.name}={item.get(a.name)!r}" for a in design.table.key_attributes
    )
