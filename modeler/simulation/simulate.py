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
import datetime as dt
import itertools
import math
import random
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters, placeholders
from modeler.engine.client import Client
from modeler.engine.expressions import parse_condition
from modeler.engine.types import item_from_wire, item_to_wire, number, number_text
from modeler.keys import parse_template
from modeler.sampledata import Dataset, generate, with_own_items
from modeler.simulation.expectations import (
    Lookups,
    Verdict,
    expected_items,
    judge_read,
)
from modeler.simulation.requests import (
    ExpressionBuilder,
    RequestError,
    cli_command,
    create_table_request,
    entity_key,
    key_of,
    read_request,
    write_action_request,
)

MAX_PAGES = 1000
CANDIDATES_TRIED = 25
# Pattern runs a simulation keeps (the patterns of a few versions of a design).
KEPT_RUNS = 256
# Parameter draws per read pattern after the first run. Where the expected
# items cannot be looked up (no `=` in the expectation), each draw costs a
# pass over the items: on large data sets fewer, DRAW_BUDGET items in all.
DRAWS = 20
DRAW_BUDGET = 400_000
# How many items of the entity are looked at to explain why none fits.
DIAGNOSED_ITEMS = 20_000
DEFAULT_ACTION_COUNT = 3
# Items loaded between two calls of the progress callback.
LOAD_PROGRESS_EVERY = 5_000
# Why a pattern stated by what it needs is not run.
NO_KEY_YET = (
    "not run: the pattern has no key yet; propose keys, or write its operation and key"
)


@dataclass(frozen=True)
class Call:
    """One request sent: its operation, boto3 parameters and CLI form."""

    operation: str
    request: dict[str, Any]

    @property
    def cli(self) -> str:
        return cli_command(self.operation, self.request)


@dataclass
class Capacity:
    read: float = 0.0
    write: float = 0.0
    by_index: dict[str, float] = field(default_factory=dict)

    def add(self, consumed: Mapping[str, Any] | list | None, *, write: bool) -> None:
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            if not entry:
                continue
            units = float(entry.get("CapacityUnits", 0))
            if write:
                self.write += units
            else:
                self.read += units
            table = entry.get("Table", {}).get("CapacityUnits")
            if table:
                self.by_index["table"] = self.by_index.get("table", 0) + table
            for group in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
                for name, spent in entry.get(group, {}).items():
                    self.by_index[name] = self.by_index.get(name, 0) + float(
                        spent.get("CapacityUnits", 0)
                    )


@dataclass
class PatternRun:
    """What one access pattern did against the sample data."""

    pattern: d.AccessPattern
    parameters: dict[str, Any] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    item_entities: list[str | None] = field(default_factory=list)
    count: int = 0
    scanned_count: int = 0
    pages: int = 0
    last_evaluated_key: dict[str, Any] | None = None
    capacity: Capacity = field(default_factory=Capacity)
    verdict: Verdict = field(default_factory=lambda: Verdict(True))
    error: str = ""
    # Further parameter draws tried (`Simulation.draw`), and the first that
    # returned other items than promised.
    draws: int = 0
    failed_draw: Draw | None = None
    drawn: bool = False
    # The read units of each typical draw (an item's own values, so each
    # partition as often as it holds items). The run itself reads the
    # largest result its parameter search found, the one that shows the
    # most; what a request costs on average is the draws' mean.
    draw_units: list[float] = field(default_factory=list)
    # For an update: the change it was costed on ("status: OPEN -> SHIPPED").
    transition: str = ""

    @property
    def passed(self) -> bool:
        return self.verdict.passed and not self.error and self.failed_draw is None


@dataclass(frozen=True)
class Draw:
    """One set of parameters a read pattern was tried with: `typical` (an
    item's own values), `boundary` (both ends of a range on one item's
    value, so an inclusive end is tested), `day-change` (a time range from
    an item's time to the same time the next day) or `empty` (values no
    item has)."""

    kind: str
    parameters: dict[str, Any]
    verdict: Verdict

    @property
    def listed(self) -> list[tuple[str, Any]]:
        """The parameters as (name, value) pairs, for templates, which would
        read `.items` of a dict with a parameter named "items" as it."""
        return list(self.parameters.items())


class Simulation:
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
    ) -> None:
        """`dataset`: generated items to load instead of generating them (the
        key-design solver makes one set and keys it for each proposal).
        `progress(phase, done, total)` is called every few thousand items
        while they are made ("generating") and loaded ("loading"); it may
        raise to stop the build."""
        self.design = design
        self.seed = design.sample_data.seed if seed is None else seed
        self.key_names = tuple(a.name for a in design.table.key_attributes)
        if dataset is None:
            dataset = generate(
                design,
                seed=self.seed,
                scale=scale,
                limit=limit,
                items=items,
                progress=None
                if progress is None
                else lambda made, total: progress("generating", made, total),
            )
        dataset = with_own_items(design, dataset)
        self.items, self.entities = dataset.items, dataset.entities
        self.position = dict(
            zip(map(self.key_of, self.items), range(len(self.items)), strict=True)
        )
        self.lookups = Lookups(self.items, self.entities)
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

    def key_of(self, item: Mapping[str, Any]) -> tuple:
        return tuple(map(item.get, self.key_names))

    def entity_of(self, item: Mapping[str, Any]) -> str | None:
        position = self.position.get(self.key_of(item))
        return self.entities[position] if position is not None else None

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

    def _run(self, pattern: d.AccessPattern) -> PatternRun:
        result = PatternRun(pattern)
        if not pattern.keyed:
            result.error = NO_KEY_YET
            result.verdict = Verdict(False, (NO_KEY_YET,))
            return result
        rng = random.Random(f"{self.seed}:{pattern.draw_name}")
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

    # --- Parameters ---------------------------------------------------------

    def _examples(self, pattern: d.AccessPattern) -> dict[str, Any]:
        return {
            p.name: number(p.example) if p.type == "N" else p.example
            for p in pattern_parameters(self.design, pattern)
            if p.example
        }

    def _positions(self, entity: str | None) -> list[int]:
        """Positions of the entity's items (of every item for None), a list
        of the caller's own to shuffle."""
        if entity is None:
            return list(range(len(self.items)))
        return list(self.lookups.by_entity.get(entity, ()))

    def _bind_from(
        self,
        pattern: d.AccessPattern,
        item: Mapping[str, Any],
        given: Mapping[str, Any],
    ) -> dict[str, Any] | None:
        """Parameter values that make the pattern read `item`, or None when
        the item cannot be read with the values already given."""
        out = dict(given)

        def bind(name: str, value: Any) -> bool:
            if name.startswith("__"):
                return True
            if name in out:
                return str(out[name]) == str(value)
            out[name] = value
            return True

        for clause in pattern.key:
            if clause.operator not in ("=", "begins_with"):
                continue
            value = item.get(clause.attribute)
            if value is None:
                return None
            source = clause.values[0]
            if clause.operator == "begins_with":
                source += "{__rest}"
            template = parse_template(source)
            if isinstance(value, str):
                matched = template.match(value)
            elif template.is_single_placeholder:
                matched = {template.placeholders[0].attribute: value}
            else:
                matched = None
            if matched is None or not all(bind(k, v) for k, v in matched.items()):
                return None
        expects = pattern.expects
        for predicate in expects.where if expects else ():
            names = [p for v in predicate.values for p in placeholders(v)]
            if (
                predicate.operator == "="
                and len(names) == 1
                and (predicate.values[0] == "{" + names[0] + "}")
            ):
                if predicate.attribute not in item:
                    return None
                if not bind(names[0], item[predicate.attribute]):
                    return None
        for param in pattern_parameters(self.design, pattern):
            if param.name not in out and param.name in item:
                out[param.name] = item[param.name]
        return out

    def _bind_ranges(self, pattern: d.AccessPattern, params: dict[str, Any]) -> None:
        """Bounds of a `between` expectation the designer left open: the
        middle half of the values the other predicates select."""
        expects = pattern.expects
        if expects is None:
            return
        for predicate in expects.where:
            names = [p for v in predicate.values for p in placeholders(v)]
            if predicate.operator != "between" or all(n in params for n in names):
                continue
            others = tuple(
                p
                for p in expects.where
                if p is not predicate
                and all(n in params for v in p.values for n in placeholders(v))
            )
            selection = expected_items(
                d.Expectation(expects.entities, others),
                params,
                self.items,
                self.entities,
                self.lookups,
            )
            values = sorted(
                self.items[i][predicate.attribute]
                for i in selection
                if predicate.attribute in self.items[i]
            )
            if not values:
                return
            low, high = values[len(values) // 4], values[(3 * len(values)) // 4]
            for template, bound in zip(predicate.values, (low, high), strict=True):
                for name in placeholders(template):
                    params.setdefault(name, bound)

    def _bind_read(self, pattern: d.AccessPattern, rng: random.Random) -> dict:
        given = self._examples(pattern)
        needed = [p.name for p in pattern_parameters(self.design, pattern)]
        if all(n in given for n in needed):
            return given
        entity = pattern.expects.entities[0] if pattern.expects else None
        positions = _drawn(self._positions(entity), rng)
        best: tuple[int, dict[str, Any]] | None = None
        # A candidate whose expectation has an `=` value is counted through
        # a lookup; one without costs a pass over the data set, so on large
        # data sets fewer of those are compared.
        budget = (
            CANDIDATES_TRIED
            if self._looked_up(pattern)
            else max(1, min(CANDIDATES_TRIED, 200_000 // max(len(self.items), 1)))
        )
        for position in positions:
            params = self._bind_from(pattern, self.items[position], given)
            if params is None:
                continue
            self._bind_ranges(pattern, params)
            if not all(n in params for n in needed):
                continue
            size = (
                len(
                    expected_items(
                        pattern.expects, params, self.items, self.entities, self.lookups
                    )
                )
                if pattern.expects
                else 0
            )
            if best is None or size > best[0]:
                best = (size, params)
            budget -= 1
            if budget == 0:
                break
        if best is None:
            missing = [n for n in needed if n not in given]
            raise RequestError(self._nothing_fits(pattern, entity, missing))
        return best[1]

    def _nothing_fits(
        self, pattern: d.AccessPattern, entity: str | None, missing: list[str]
    ) -> str:
        """Why no item of the sample data can be read by the pattern: the
        key condition that no item's key matches, with what the items hold
        instead, else the parameters to give."""
        what = entity or "item"
        positions = self._positions(entity)[:DIAGNOSED_ITEMS]
        if not positions:
            return f"the sample data has no {what} items for the pattern to read"
        for clause in pattern.key:
            if clause.operator not in ("=", "begins_with"):
                continue
            source = clause.values[0]
            template = parse_template(
                source + "{__rest}" if clause.operator == "begins_with" else source
            )
            found = [
                self.items[p][clause.attribute]
                for p in positions
                if clause.attribute in self.items[p]
            ]
            if any(_key_matches(template, value) for value in found):
                continue
            condition = (
                f"{clause.attribute} = '{source}'"
                if clause.operator == "="
                else f"begins_with({clause.attribute}, '{source}')"
            )
            owner = self.design.entity(entity) if entity else None
            written = owner.keys.get(clause.attribute) if owner else None
            if not found:
                return (
                    f"the key condition {condition} can match no {what} item: "
                    f"{what} items have no {clause.attribute}"
                    + (
                        f" (they are not in {pattern.index})"
                        if pattern.index != d.TABLE_INDEX
                        else ""
                    )
                )
            return (
                f"the key condition {condition} matches no {what} item's key: "
                + (
                    f"{what} writes {clause.attribute} as '{written.template}', "
                    if written
                    else ""
                )
                + f"such as '{found[0]}'"
            )
        return (
            f"no {what} in the sample data fits the pattern; give example "
            f"values for: {', '.join(missing)}"
        )

    # --- Reads --------------------------------------------------------------

    def _read(
        self, pattern: d.AccessPattern, rng: random.Random, result: PatternRun
    ) -> None:
        self._read_with(pattern, self._bind_read(pattern, rng), result)

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
            response = getattr(self.client, _method(operation))(**request)
            result.pages += 1
            result.capacity.add(response.get("ConsumedCapacity"), write=False)
            if operation == "GetItem":
                page = [response["Item"]] if "Item" in response else []
                result.scanned_count += 1
            else:
                page = response.get("Items", [])
                result.scanned_count += response.get("ScannedCount", 0)
            for wire in page:
                item = item_from_wire(wire)
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
        entity_of = (
            {
                identity(item): entity
                for item, entity in zip(self.items, self.entities, strict=True)
            }
            if identity != self.key_of
            else {
                k: self.entities[self.position[k]] if k in self.position else None
                for k in returned
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
        if not self._looked_up(pattern):
            count = max(1, min(count, DRAW_BUDGET // max(len(self.items), 1)))
        rng = random.Random(f"{self.seed}:{pattern.draw_name}:draws")
        needed = [p.name for p in pattern_parameters(self.design, pattern)]
        if not needed:
            return result  # nothing to vary: every draw is the same request
        given = self._examples(pattern)
        positions = _drawn(self._positions(pattern.expects.entities[0]), rng)
        kinds = ["typical"]
        if self._has_ranges(pattern):
            kinds.append("boundary")
        time_ranges = self._time_ranges(pattern)
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
            params = self._bind_from(pattern, self.items[position], {})
            if params is None:
                continue
            if kind == "boundary":
                self._bind_boundaries(pattern, params, self.items[position])
            elif kind == "day-change":
                _bind_day_change(time_ranges, params, self.items[position])
            self._bind_ranges(pattern, params)
            for name, value in given.items():
                params.setdefault(name, value)
            if not all(n in params for n in needed):
                continue
            if kind == "empty" and not self._unmatched(pattern, params):
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

    def _looked_up(self, pattern: d.AccessPattern) -> bool:
        """Whether the pattern's expected items are found through a lookup
        of an `=` value (`Lookups`) rather than a pass over the data set."""
        return pattern.expects is not None and any(
            p.operator == "=" for p in pattern.expects.where
        )

    def _has_ranges(self, pattern: d.AccessPattern) -> bool:
        expects = pattern.expects
        return bool(expects) and any(
            p.operator in ("between", "<", "<=", ">", ">=") for p in expects.where
        )

    def _time_ranges(self, pattern: d.AccessPattern) -> list[d.Predicate]:
        """The pattern's `between` expectations whose two ends are each one
        parameter, on an attribute of ISO-8601 dates or times."""
        found = []
        for predicate in pattern.expects.where if pattern.expects else ():
            if predicate.operator != "between" or not all(
                _single_placeholder(v) for v in predicate.values
            ):
                continue
            entity = pattern.expects.entities[0]
            for position in self.lookups.by_entity.get(entity, [])[:20]:
                value = self.items[position].get(predicate.attribute)
                if value is not None:
                    if isinstance(value, str) and _ISO_DAY.match(value):
                        found.append(predicate)
                    break
        return found

    def _bind_boundaries(
        self,
        pattern: d.AccessPattern,
        params: dict[str, Any],
        item: Mapping[str, Any],
    ) -> None:
        """Both ends of every range predicate on the item's own value: the
        item must be returned when the range's ends are inclusive."""
        for predicate in pattern.expects.where if pattern.expects else ():
            if predicate.operator not in ("between", "<=", ">="):
                continue
            value = item.get(predicate.attribute)
            if value is None:
                continue
            for template in predicate.values:
                name = _single_placeholder(template)
                if name is not None:
                    params[name] = value

    def _unmatched(self, pattern: d.AccessPattern, params: dict[str, Any]) -> bool:
        """Make the equality parameters of the key values no item has (an
        empty partition); False when the pattern has none that are text."""
        changed = False
        for clause in pattern.key:
            if clause.operator != "=":
                continue
            for placeholder in parse_template(clause.values[0]).placeholders:
                name = placeholder.attribute
                # A formatted placeholder places a number: text would not do.
                if placeholder.width is None and isinstance(params.get(name), str):
                    params[name] = f"{params[name]}-none"
                    changed = True
        return changed

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

    def _choose(
        self,
        entity: str,
        count: int,
        rng: random.Random,
        condition: str = "",
        params: Mapping[str, Any] | None = None,
        prefer: Any = None,
    ) -> list[dict[str, Any]]:
        """`count` items of the entity (for which `condition` holds), those
        for which `prefer(item)` is true first."""
        positions = self._positions(entity)
        positions = _shuffled(positions, rng)
        chosen = []
        others = []
        for position in positions:
            item = self.items[position]
            if condition and not _holds(condition, {**item, **(params or {})}, item):
                continue
            if prefer is not None and not prefer(item):
                if len(others) < count:
                    others.append(item)
                continue
            chosen.append(item)
            if len(chosen) == count:
                break
        chosen += others[: count - len(chosen)]
        if not chosen:
            raise RequestError(
                f"no {entity} item in the sample data"
                + (f" for which {condition} holds" if condition else "")
            )
        return chosen

    def _count(self, action: d.Action, params: Mapping[str, Any]) -> int:
        if not action.count:
            return 1
        if action.count.isdigit():
            return int(action.count)
        names = placeholders(action.count)
        if names and names[0] in params:
            return int(Decimal(str(params[names[0]])))
        return DEFAULT_ACTION_COUNT

    def _multi_read(
        self, pattern: d.AccessPattern, rng: random.Random, result: PatternRun
    ) -> None:
        params = self._examples(pattern)
        result.parameters = params
        table = self.design.table.name
        entries = []
        for action in pattern.actions:
            for item in self._choose(action.entity, self._count(action, params), rng):
                key = (
                    key_of(self.design, action.key, {**item, **params})
                    if action.key
                    else entity_key(self.design, action.entity, item)
                )
                entries.append(item_to_wire(key))
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
        params = self._examples(pattern)
        plan = self._write_plan(pattern, params, rng)
        result.parameters = params
        keys = {a.name for a in self.design.table.all_key_attributes()}
        result.transition = "; ".join(
            f"{attribute}: {item.get(attribute, '(none)')} -> {value}"
            for action, item in plan[:1]
            if action.operation == "Update"
            for attribute, value in _changes(action).items()
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

    def _write_plan(
        self, pattern: d.AccessPattern, params: dict[str, Any], rng: random.Random
    ) -> list[tuple[d.Action, dict[str, Any]]]:
        """The sample item each action writes. In a transaction the items of
        later actions are children of the first one's when they can be, as an
        order is placed with its own line items."""
        plan: list[tuple[d.Action, dict[str, Any]]] = []
        for action in pattern.actions:
            count = self._count(action, params)
            parent = plan[0][1] if plan else None
            children = (
                self._children(action.entity, plan[0][0].entity, parent)
                if (parent is not None)
                else []
            )
            if children:
                items = children[:count]
            else:
                condition = action.condition if action.operation != "Put" else ""
                changes = _changes(action) if action.operation == "Update" else {}
                # An update is costed on an item it changes: setting a status
                # an item already has writes no index and costs less than the
                # transition the pattern exists for.
                items = self._choose(
                    action.entity,
                    count,
                    rng,
                    condition,
                    params,
                    prefer=(
                        (
                            lambda item, c=changes: any(
                                item.get(a) != v for a, v in c.items()
                            )
                        )
                        if changes
                        else None
                    ),
                )
            for name in placeholders(action.count):
                params.setdefault(name, number(len(items)))
            for item in items:
                plan.append((action, item))
            for _, _, template in action.updates():
                for param in placeholders(template):
                    if param not in params and param not in items[0]:
                        params[param] = self._any_value(action.entity, param, rng)
        for _, item in plan:
            for key, value in item.items():
                params.setdefault(key, value)
        return plan

    def _children(
        self, entity: str, parent_entity: str, parent: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        child = self.design.entity(entity)
        if child is None or child.sample.per != parent_entity:
            return []
        refs = [
            (a.name, str(a.generator.params.get("value", "")).split(".", 1)[1])
            for a in child.attributes
            if a.generator
            and a.generator.kind == "ref"
            and str(a.generator.params.get("value", "")).startswith(parent_entity + ".")
        ]
        if not refs:
            return []
        first, source = refs[0]
        return [
            self.items[i]
            for i in self.lookups.with_value(first, parent.get(source), (entity,))
            if all(
                self.items[i].get(mine) == parent.get(theirs) for mine, theirs in refs
            )
        ]

    def _any_value(self, entity: str, attribute: str, rng: random.Random) -> Any:
        values = [
            self.items[i][attribute]
            for i in self._positions(entity)
            if attribute in self.items[i]
        ]
        if not values:
            raise RequestError(
                f"no value for the parameter '{attribute}': give an example value"
            )
        return rng.choice(values)

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
                response = getattr(self.client, _method(single))(**request)
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
            batch = {"TransactItems": items, "ReturnConsumedCapacity": "INDEXES"}
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


def _key_matches(template: Any, value: Any) -> bool:
    if isinstance(value, str):
        return template.match(value) is not None
    return template.is_single_placeholder


def _method(operation: str) -> str:
    return {
        "GetItem": "get_item",
        "Query": "query",
        "Scan": "scan",
        "PutItem": "put_item",
        "UpdateItem": "update_item",
        "DeleteItem": "delete_item",
    }[operation]


# Past this many items of an entity, a random sample of this many is
# searched rather than a shuffle of them all (a shuffle of a million
# positions costs half a second; the search stops after a few dozen).
SHUFFLED = 50_000


def _shuffled(positions: list[int], rng: random.Random) -> list[int]:
    """The positions in a random order, or a random sample of SHUFFLED of
    them when there are more."""
    if len(positions) > SHUFFLED:
        return rng.sample(positions, SHUFFLED)
    rng.shuffle(positions)
    return positions


def _drawn(positions: list[int], rng: random.Random) -> Iterator[int]:
    """The positions `_shuffled` returns, in the same order, drawn one at a
    time: for a search that stops after a few dozen and has no further use
    for `rng`. Past SHUFFLED positions, a sample's first positions are
    known before the rest are drawn (a shuffle's are not), so the tens of
    thousands it would draw and not read are never drawn. The sample is
    `random.Random.sample`'s own algorithm, step by step (a test holds it
    to `sample`); `positions` is the caller's to use as its pool."""
    n = len(positions)
    if n <= SHUFFLED:
        yield from _shuffled(positions, rng)
        return
    randbelow = rng._randbelow
    # As `sample` decides: a pool of the positions, or a set of the chosen
    # indexes when the pool would be the larger.
    setsize = 21 + 4 ** math.ceil(math.log(SHUFFLED * 3, 4))
    if n <= setsize:
        for i in range(SHUFFLED):
            j = randbelow(n - i)
            yield positions[j]
            positions[j] = positions[n - i - 1]
    else:
        chosen: set[int] = set()
        for _ in range(SHUFFLED):
            j = randbelow(n)
            while j in chosen:
                j = randbelow(n)
            chosen.add(j)
            yield positions[j]


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}(?:$|T)")


def _bind_day_change(
    predicates: list[d.Predicate], params: dict[str, Any], item: Mapping[str, Any]
) -> None:
    """Time ranges from the item's own time to the same time the next day:
    each crosses midnight (and, on the last day of a month, the month), with
    the item at its inclusive start."""
    for predicate in predicates:
        value = item.get(predicate.attribute)
        if not isinstance(value, str) or not _ISO_DAY.match(value):
            continue
        next_day = dt.date.fromisoformat(value[:10]) + dt.timedelta(days=1)
        low, high = (_single_placeholder(v) for v in predicate.values)
        params[low] = value
        params[high] = next_day.isoformat() + value[10:]


def _single_placeholder(template: str) -> str | None:
    """The parameter a template is made of alone (`{from}`), else None."""
    names = placeholders(template)
    return names[0] if len(names) == 1 and template == "{" + names[0] + "}" else None


def _changes(action: d.Action) -> dict[str, Any]:
    """The literal values an update sets (`status: SHIPPED`), by attribute."""
    return {
        attribute: template
        for attribute, template in action.set
        if not placeholders(template)
    }


def _holds(condition: str, params: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    """Whether a designer's condition holds for a sample item."""
    builder = ExpressionBuilder.new(params)
    expression = builder.text(condition)
    return parse_condition(expression, builder.names, builder.values).evaluate(item)


def _comparable(value: Any) -> str:
    """A projected value as hashable text that equal values share: a number
    as DynamoDB writes it (957.00 and 957 are one number), anything else
    by its repr (lists and maps are not hashable)."""
    if isinstance(value, Decimal):
        return "N:" + number_text(value)
    return repr(value)
