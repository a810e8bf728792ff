"""Run a design's access patterns against its sample data in the engine.

For each pattern the simulator chooses parameter values from the sample data
(or takes the examples the designer gave), builds the real request, runs it
page by page, and judges the result against the pattern's expectation,
which it computes from the entity data alone. Write patterns run on real
items of the sample data and the table is put back as it was afterwards, so
the order of patterns does not matter.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.engine.client import Client
from modeler.engine.types import (
    item_from_wire,
    item_read_back,
    item_to_wire,
    number_text,
)
from modeler.sampledata import Dataset, generate, with_own_items
from modeler.simulation.binding import (
    bind_boundaries,
    bind_day_change,
    bind_from,
    bind_ranges,
    bind_read,
    has_ranges,
    looked_up,
    time_range_predicates,
    unmatched,
)
from modeler.simulation.expectations import (
    Verdict,
    expected_items,
    judge_read,
    order_places,
)
from modeler.simulation.requests import (
    CLIENT_METHODS,
    RequestError,
    create_table_request,
    entity_key,
    key_of,
    read_request,
    write_action_request,
)
from modeler.simulation.runs import Call, Draw, PatternRun
from modeler.simulation.sample import Sample, drawn
from modeler.simulation.writes import (
    action_count,
    choose,
    literal_changes,
    write_plan,
)

MAX_PAGES = 1000
# Pattern runs a simulation keeps (the patterns of a few versions of a design).
KEPT_RUNS = 256
# Parameter draws per read pattern after the first run. Where the expected
# items cannot be looked up (no `=` in the expectation), each draw costs a
# pass over the items: on large data sets fewer, DRAW_BUDGET items in all.
DRAWS = 20
DRAW_BUDGET = 400_000
# Items loaded between two calls of the progress callback.
LOAD_PROGRESS_EVERY = 5_000
# Why a pattern stated by what it needs is not run.
NO_KEY_YET = (
    "not run: the pattern has no key yet; propose keys, or write its operation and key"
)


class Simulation(Sample):
    """A design's table in the engine, loaded with its sample data."""

    def __init__(
        self,
        design: d.Design,
        *,
        seed: int | None = None,
        scale: float = 1.0,
        limit: int | None = None,
        items: int | None = None,
        dataset: Dataset | None = None,
        progress: Callable[[str, int, int], None] | None = None,
        keep: bool = True,
    ) -> None:
        """`dataset`: generated items to load instead of generating them (the
        key-design solver makes one set and keys it for each proposal).
        `progress(phase, done, total)` is called every few thousand items
        while they are made ("generating") and loaded ("loading"); it may
        raise to stop the build. With `keep` false the items generated are
        not kept for the next generation (see `generate`): a command that
        simulates once saves the time and memory."""
        self.seed = design.sample_data.seed if seed is None else seed
        if dataset is None:
            dataset = generate(
                design,
                seed=self.seed,
                scale=scale,
                limit=limit,
                items=items,
                keep=keep,
                progress=None
                if progress is None
                else lambda made, total: progress("generating", made, total),
            )
        super().__init__(design, with_own_items(design, dataset))
        # Runs are deterministic (seeded by the pattern): each is kept, so a
        # page asking again, or the review after it, reads it back.
        self._runs: OrderedDict[d.AccessPattern, PatternRun] = OrderedDict()
        # Figures that readers derive from the data alone (the review's item
        # and entry sizes, key counts), kept with the data they come from.
        self.derived: dict[tuple, Any] = {}
        # The simulator's requests come from its own builder: botocore's
        # parameter validation (a fifth of a Query's time) is for callers'.
        self.client = Client(validate=False)
        self.client.create_table(**create_table_request(design))
        # Each item's size, in the items' order, as the load measured it for
        # the 400 KB check: the review's item sizes, not measured again.
        self.item_sizes: list[int] = []
        self.client.load_items(
            design.table.name,
            self.items if progress is None else _reported(self.items, progress),
            self.item_sizes,
        )

    def index_totals(self, index: d.Index) -> tuple[int, int] | None:
        """How many entries a global index of the simulated design holds
        and their total size, as the engine counts them for DescribeTable:
        the sample data's (a write pattern's run puts the table back as it
        was). None for an index that is not one of the simulated design's
        as it is."""
        if not index.is_global or index not in self.design.table.indexes:
            return None
        described = self.client.describe_table(TableName=self.design.table.name)
        for found in described["Table"].get("GlobalSecondaryIndexes", ()):
            if found["IndexName"] == index.name:
                return found["ItemCount"], found["IndexSizeBytes"]
        return None

    def run_all(self) -> list[PatternRun]:
        """Every pattern, each read tried with its further draws."""
        return [self.draw(self.run(p)) for p in self.design.access_patterns]

    def forget_runs(self) -> None:
        """Drop the kept runs: the next `run` of each pattern runs it."""
        self._runs.clear()

    def run(self, pattern: d.AccessPattern) -> PatternRun:
        """The pattern run once against the sample data (kept: the same
        request gives the same run). Its traffic and description change
        nothing in the run: a pattern edited only there is handed the kept
        run, as its own (the review reads its traffic from the run)."""
        request = dataclasses.replace(pattern, traffic=d.Traffic(), description="")
        kept = self._runs.get(request)
        if kept is not None:
            self._runs.move_to_end(request)
            if kept.pattern != pattern:
                kept = dataclasses.replace(kept, pattern=pattern)
                self._runs[request] = kept
            return kept
        result = self._run(pattern)
        self._runs[request] = result
        while len(self._runs) > KEPT_RUNS:
            self._runs.popitem(last=False)
        return result

    def _rng(self, pattern: d.AccessPattern) -> random.Random:
        return random.Random(f"{self.seed}:{pattern.draw_name}")

    def write_draw(
        self, pattern: d.AccessPattern
    ) -> tuple[dict[str, Any], list[tuple[d.Action, dict[str, Any]]]]:
        """The parameters and the sample item of each action a write
        pattern's run writes, drawn again as `run` draws them."""
        params = self.examples(pattern)
        return params, write_plan(self, pattern, params, self._rng(pattern))

    def _run(self, pattern: d.AccessPattern) -> PatternRun:
        result = PatternRun(pattern)
        if not pattern.keyed:
            result.error = NO_KEY_YET
            result.verdict = Verdict(False, (NO_KEY_YET,))
            return result
        rng = self._rng(pattern)
        try:
            if pattern.operation in ("GetItem", "Query", "Scan"):
                self._read(pattern, rng, result)
            elif pattern.operation in ("BatchGetItem", "TransactGetItems"):
                self._multi_read(pattern, rng, result)
            else:
                self._write(pattern, rng, result)
        except RequestError as exc:
            result.error = str(exc)
        except ClientError as exc:
            error = exc.response["Error"]
            result.error = f"{error['Code']}: {error['Message']}"
        if result.error:
            result.verdict = Verdict(False, (result.error,))
        return result

    # --- Reads --------------------------------------------------------------

    def _read(
        self, pattern: d.AccessPattern, rng: random.Random, result: PatternRun
    ) -> None:
        self._read_with(pattern, bind_read(self, pattern, rng), result)

    def _read_with(
        self, pattern: d.AccessPattern, params: dict[str, Any], result: PatternRun
    ) -> None:
        result.parameters = params
        request = read_request(self.design, pattern, params)
        operation = pattern.operation
        result.calls.append(Call(operation, request))
        returned: list[tuple] = []
        identity = self._identity(pattern)
        while True:
            response = self.client.read_items(operation, item_read_back, request)
            result.pages += 1
            result.capacity.add(response.get("ConsumedCapacity"), write=False)
            if operation == "GetItem":
                page = [response["Item"]] if "Item" in response else []
                result.scanned_count += 1
            else:
                page = response.get("Items", [])
                result.scanned_count += response.get("ScannedCount", 0)
            for item in page:
                result.items.append(item)
                returned.append(identity(item))
            result.count += (
                len(page) if operation == "GetItem" else response.get("Count", 0)
            )
            result.last_evaluated_key = response.get("LastEvaluatedKey")
            if (
                not result.last_evaluated_key
                or pattern.limit is not None
                or result.pages >= MAX_PAGES
            ):
                break
            request = {**request, "ExclusiveStartKey": result.last_evaluated_key}
        expected_positions = (
            expected_items(
                pattern.expects, params, self.items, self.entities, self.lookups
            )
            if pattern.expects
            else []
        )
        expected = [identity(self.items[i]) for i in expected_positions]
        ties = None
        if pattern.expects and pattern.expects.order_by:
            places = order_places(pattern.expects, self.items, expected_positions)
            ties = dict(zip(expected, places, strict=True))
        entity_of = (
            {
                identity(item): entity
                for item, entity in zip(self.items, self.entities, strict=True)
            }
            if identity != self.key_of
            else {
                # One search of the positions per key, where a test of
                # membership and then an index searched twice.
                k: None if position is None else self.entities[position]
                for k, position in zip(
                    returned, map(self.position.get, returned), strict=True
                )
            }
        )
        result.item_entities = [entity_of.get(k) for k in returned]
        result.verdict = judge_read(
            expects=pattern.expects,
            limit=pattern.limit,
            expected=expected,
            returned=returned,
            entity_of={k: entity_of.get(k) for k in returned},
            pages=result.pages,
            scanned=result.scanned_count,
            ties=ties,
        )

    # --- Draws ---------------------------------------------------------------

    def draw(self, result: PatternRun, count: int = DRAWS) -> PatternRun:
        """Try a read pattern that passed with further parameter draws
        (seeded): items' own values, both ends of each range on one item's
        value, and values no item has. Records how many were tried and the
        first whose items are not the promised ones. A pattern whose
        expectation has no `=` value costs a pass over the data per draw:
        on large data sets fewer of its draws are tried."""
        pattern = result.pattern
        if result.drawn:
            return result
        result.drawn = True
        if (
            pattern.operation not in ("GetItem", "Query", "Scan")
            or pattern.expects is None
            or not result.passed
        ):
            return result
        if not looked_up(pattern):
            count = max(1, min(count, DRAW_BUDGET // max(len(self.items), 1)))
        rng = random.Random(f"{self.seed}:{pattern.draw_name}:draws")
        needed = [p.name for p in pattern_parameters(self.design, pattern)]
        if not needed:
            return result  # nothing to vary: every draw is the same request
        given = self.examples(pattern)
        positions = drawn(self.positions(pattern.expects.entities[0]), rng)
        kinds = ["typical"]
        if has_ranges(pattern):
            kinds.append("boundary")
        time_ranges = time_range_predicates(self, pattern)
        if time_ranges:
            # First: a range over midnight is where a key bucketed by day
            # (or month) shows whether the pattern reads both buckets.
            kinds.insert(0, "day-change")
        tried = 0
        for attempt, position in enumerate(itertools.islice(positions, count * 3)):
            if tried >= count:
                break
            kind = kinds[attempt % len(kinds)]
            if tried == count - 1 and kind == "typical":
                kind = "empty"
            params = bind_from(self, pattern, self.items[position], {})
            if params is None:
                continue
            if kind == "boundary":
                bind_boundaries(pattern, params, self.items[position])
            elif kind == "day-change":
                bind_day_change(time_ranges, params, self.items[position])
            bind_ranges(self, pattern, params)
            for name, value in given.items():
                params.setdefault(name, value)
            if not all(n in params for n in needed):
                continue
            if kind == "empty" and not unmatched(pattern, params):
                kind = "typical"
            tried += 1
            trial = PatternRun(pattern)
            try:
                self._read_with(pattern, params, trial)
            except RequestError as exc:
                trial.verdict = Verdict(False, (str(exc),), (str(exc),))
            except ClientError as exc:
                error = exc.response["Error"]
                reason = f"{error['Code']}: {error['Message']}"
                trial.verdict = Verdict(False, (reason,), (reason,))
            if trial.verdict.broken:
                result.failed_draw = Draw(kind, params, trial.verdict)
                break
            if kind == "typical":
                result.draw_units.append(trial.capacity.read)
        result.draws = tried
        return result

    def _identity(self, pattern: d.AccessPattern) -> Any:
        """How a returned item is told apart: by its table key, or, when the
        pattern's projection leaves the key out, by the projected values
        (compared with the expected items projected the same way)."""
        if not pattern.projection or all(
            name in pattern.projection for name in self.key_names
        ):
            return self.key_of
        names = tuple(
            sorted({p.split(".")[0].split("[")[0] for p in pattern.projection})
        )
        return lambda item: tuple(_comparable(item.get(name)) for name in names)

    def _multi_read(
        self, pattern: d.AccessPattern, rng: random.Random, result: PatternRun
    ) -> None:
        params = self.examples(pattern)
        result.parameters = params
        table = self.design.table.name
        entries = []
        for action in pattern.actions:
            for item in choose(self, action.entity, action_count(action, params), rng):
                key = (
                    key_of(self.design, action.key, {**item, **params})
                    if action.key
                    else entity_key(self.design, action.entity, item)
                )
                entries.append(item_to_wire(key))
        request: dict[str, Any]
        if pattern.operation == "BatchGetItem":
            request = {
                "RequestItems": {table: {"Keys": entries}},
                "ReturnConsumedCapacity": "INDEXES",
            }
            response = self.client.batch_get_item(**request)
            wires = response.get("Responses", {}).get(table, [])
        else:
            request = {
                "TransactItems": [
                    {"Get": {"TableName": table, "Key": k}} for k in entries
                ],
                "ReturnConsumedCapacity": "INDEXES",
            }
            response = self.client.transact_get_items(**request)
            wires = [r["Item"] for r in response.get("Responses", []) if "Item" in r]
        result.calls.append(Call(pattern.operation, request))
        result.pages = 1
        result.capacity.add(response.get("ConsumedCapacity"), write=False)
        for wire in wires:
            item = item_from_wire(wire)
            result.items.append(item)
            result.item_entities.append(self.entity_of(item))
        result.count = len(result.items)
        result.scanned_count = len(entries)
        missing = len(entries) - len(wires)
        if missing:
            reason = f"{missing} requested items not found"
            result.verdict = Verdict(False, (reason,), (reason,))

    # --- Writes -------------------------------------------------------------

    def _write(
        self, pattern: d.AccessPattern, rng: random.Random, result: PatternRun
    ) -> None:
        params = self.examples(pattern)
        plan = write_plan(self, pattern, params, rng)
        result.parameters = params
        keys = {a.name for a in self.design.table.all_key_attributes()}
        result.transition = "; ".join(
            f"{attribute}: {item.get(attribute, '(none)')} -> {value}"
            for action, item in plan[:1]
            if action.operation == "Update"
            for attribute, value in literal_changes(action).items()
            if attribute not in keys
        )
        originals = {self.key_of(item): item for _, item in plan}
        # A Put re-creates an item of the sample data: it is removed first, so
        # that conditions such as attribute_not_exists(PK) see a new item.
        for action, item in plan:
            if action.operation == "Put":
                self.client.delete_item(
                    TableName=self.design.table.name, Key=self._wire_key(item)
                )
        try:
            calls = [
                write_action_request(self.design, action, params, item)
                for action, item in plan
            ]
            result.calls += self._send_writes(pattern, calls, result)
        finally:
            for item in originals.values():
                self.client.put_item(
                    TableName=self.design.table.name, Item=item_to_wire(item)
                )
        result.count = len(plan)

    def _wire_key(self, item: Mapping[str, Any]) -> dict[str, Any]:
        return item_to_wire({name: item[name] for name in self.key_names})

    def _send_writes(
        self,
        pattern: d.AccessPattern,
        calls: list[tuple[str, dict[str, Any]]],
        result: PatternRun,
    ) -> list[Call]:
        operation = pattern.operation
        if operation in ("PutItem", "UpdateItem", "DeleteItem"):
            ((single, request),) = calls
            request["ReturnConsumedCapacity"] = "INDEXES"
            try:
                response = getattr(self.client, CLIENT_METHODS[single])(**request)
                result.capacity.add(response.get("ConsumedCapacity"), write=True)
            finally:
                result.pages = 1
            return [Call(single, request)]
        table = self.design.table.name
        if operation == "TransactWriteItems":
            items = []
            for kind, request in calls:
                request.pop("TableName")
                element = {
                    "Put": "Put",
                    "UpdateItem": "Update",
                    "PutItem": "Put",
                    "DeleteItem": "Delete",
                    "ConditionCheck": "ConditionCheck",
                }
                items.append({element[kind]: {"TableName": table, **request}})
            batch: dict[str, Any] = {
                "TransactItems": items,
                "ReturnConsumedCapacity": "INDEXES",
            }
            response = self.client.transact_write_items(**batch)
        else:
            writes = []
            for kind, request in calls:
                if kind == "PutItem":
                    writes.append({"PutRequest": {"Item": request["Item"]}})
                else:
                    writes.append({"DeleteRequest": {"Key": request["Key"]}})
            batch = {
                "RequestItems": {table: writes},
                "ReturnConsumedCapacity": "INDEXES",
            }
            response = self.client.batch_write_item(**batch)
        result.pages = 1
        result.capacity.add(response.get("ConsumedCapacity"), write=True)
        return [Call(operation, batch)]


def _reported(
    items: list[dict[str, Any]], progress: Callable[[str, int, int], None]
) -> Iterator[dict[str, Any]]:
    """The items, reporting every LOAD_PROGRESS_EVERY of them as loaded."""
    total = len(items)
    progress("loading", 0, total)
    for done, item in enumerate(items, 1):
        yield item
        if done % LOAD_PROGRESS_EVERY == 0:
            progress("loading", done, total)
    progress("loading", total, total)


# Past this many items of an entity, a random sample of this many is
# searched rather than a shuffle of them all (a shuffle of a million


def _comparable(value: Any) -> str:
    """A projected value as hashable text that equal values share: a number
    as DynamoDB writes it (957.00 and 957 are one number), anything else
    by its repr (lists and maps are not hashable)."""
    if isinstance(value, Decimal):
        return "N:" + number_text(value)
    return repr(value)
