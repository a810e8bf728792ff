"""Where the traffic lands: per partition key value, the read and write
units at peak (pattern traffic spread as the sample data spreads its items,
Zipf and hot keys included); hot partitions, low-cardinality and
time-bucket keys, and item collections that outgrow an LSI's 10 GB."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from modeler.design import model as d
from modeler.design.findings import Finding, finding
from modeler.keys import TemplateSyntaxError, parse_template
from modeler.keys.template import Literal
from modeler.review.checks.common import (
    action_count,
    index_location,
    percent,
    plural,
    units,
)
from modeler.review.evidence import (
    LOW_CARDINALITY,
    Evidence,
    attribute_cardinality,
    is_time_bucket,
    partition_home,
)

PARTITION_READ_LIMIT = 3000  # RCU per second per physical partition
PARTITION_WRITE_LIMIT = 1000  # WCU per second
COLLECTION_LIMIT = 10 * 1024**3  # bytes in an item collection with an LSI
LOW_CARDINALITY_WARNING = 0.5  # of a partition's limit, at peak
COLLECTION_WARNING_DAYS = 365
COLLECTION_ADVICE_DAYS = 5 * 365
# DynamoDB deletes expired items in the background, "typically within a few
# days" of their TTL: a collection holds this many days more than its
# retention.
TTL_DELETION_DAYS = 3


@dataclass
class KeyLoad:
    """Units per second at peak on one partition key value."""

    read: float = 0.0
    write: float = 0.0
    readers: dict[int, float] = field(default_factory=dict)  # position -> rps
    writers: dict[int, float] = field(default_factory=dict)

    @property
    def utilization(self) -> float:
        return max(self.read / PARTITION_READ_LIMIT, self.write / PARTITION_WRITE_LIMIT)


@dataclass(frozen=True)
class Stream:
    """One pattern's traffic on a home (the table or a GSI), spread over
    the key values as the data spreads its items: a key holding `count` of
    them gets `units * count` units/s and `rps * count` requests/s."""

    position: int
    is_read: bool
    units: float  # per item counted, per second at peak
    rps: float  # per item counted
    counts: Counter[str]
    top: tuple[tuple[str, int], ...]  # the keys with the most items


class Loads:
    """Peak units per (home, key value), where home is the table or a GSI.
    A key's load is the sum of the streams' shares; the busiest key is
    looked for among the keys each stream weighs most, and among all keys
    only when those cannot be shown to be the busiest (a data set of a
    million items has about as many key values)."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        self._kept_totals: dict[
            str, tuple[set[str], dict[str, float], dict[str, float]]
        ] = {}

    @cached_property
    def streams(self) -> dict[str, list[Stream]]:
        evidence = self.evidence
        table = evidence.design.table
        out: dict[str, list[Stream]] = {}
        for position, pattern in enumerate(evidence.design.access_patterns):
            run = evidence.runs.get(position)
            peak = max(pattern.traffic.peak_rps, pattern.traffic.rps)
            if run is None or run.error or not run.pages or peak <= 0:
                continue
            # Each stream: the entities it reads or writes (None: not
            # stated) and the units it spends on each index.
            streams: Sequence[tuple[tuple[str, ...] | None, dict[str, float]]]
            if pattern.is_read:
                entities = pattern.expects.entities if pattern.expects else None
                if pattern.operation in ("Query", "Scan"):
                    spent = {pattern.index: run.capacity.read}
                else:
                    spent = {d.TABLE_INDEX: run.capacity.read}
                streams = [(entities, spent)]
            else:
                streams = self._action_streams(pattern, dict(run.capacity.by_index))
            for entities, spent in streams:
                for name, spent_units in spent.items():
                    home = partition_home(table, name)
                    counts = evidence.key_counts(home, entities, live=True)
                    total = sum(counts.values())
                    if not total:
                        continue
                    out.setdefault(home, []).append(
                        Stream(
                            position,
                            pattern.is_read,
                            peak * spent_units / total,
                            peak / total,
                            counts,
                            evidence.top_keys(home, entities, live=True),
                        )
                    )
        return out

    def load(self, home: str, key: str) -> KeyLoad:
        """The key's load at peak, every stream's share added."""
        load = KeyLoad()
        for stream in self.streams.get(home, ()):
            count = stream.counts.get(key)
            if not count:
                continue
            if stream.is_read:
                load.read += stream.units * count
                load.readers[stream.position] = stream.rps * count
            else:
                load.write += stream.units * count
                load.writers[stream.position] = (
                    load.writers.get(stream.position, 0.0) + stream.rps * count
                )
        return load

    def busiest(
        self, home: str, measure: Callable[[KeyLoad], float]
    ) -> tuple[str, KeyLoad]:
        """The key of the home with the largest `measure` of its load (reads,
        writes or utilization), ("", no load) when none has any."""
        streams = self.streams.get(home, ())
        candidates = {key for stream in streams for key, _ in stream.top}
        best = self._best(home, candidates, measure)
        # A key outside every stream's top counts no more items than each
        # stream's last top key: its load is at most the bound.
        outside = KeyLoad()
        for stream in streams:
            if len(stream.top) < len(stream.counts):
                count = stream.top[-1][1]
                if stream.is_read:
                    outside.read += stream.units * count
                else:
                    outside.write += stream.units * count
        if best[0] and measure(best[1]) >= measure(outside):
            return best
        if best[0] and _beats_every_group(streams, measure(best[1]), measure):
            return best
        return self._best(home, None, measure)

    def _best(
        self,
        home: str,
        keys: Collection[str] | None,
        measure: Callable[[KeyLoad], float],
    ) -> tuple[str, KeyLoad]:
        """The key of `keys` (of all the home's keys when None) with the
        largest `measure` of its load, the first in key order on a tie. Each
        key's units are added stream by stream, as `load` adds them (the same
        sums), and only the winner's whole load is built: a home of a large
        design has hundreds of thousands of keys, whose sums are worked out
        once for every measure."""
        if keys is None:
            keys, reads, writes = self._all_totals(home)
        else:
            reads, writes = self._totals(home, keys)
        best_key: str | None = None
        best_measure = 0.0
        scratch = KeyLoad()
        for key in keys:
            scratch.read = reads.get(key, 0.0)
            scratch.write = writes.get(key, 0.0)
            value = measure(scratch)
            if (
                best_key is None
                or value > best_measure
                or (value == best_measure and key < best_key)
            ):
                best_key, best_measure = key, value
        if best_key is None:
            return "", KeyLoad()
        return best_key, self.load(home, best_key)

    def _totals(
        self, home: str, keys: Collection[str]
    ) -> tuple[dict[str, float], dict[str, float]]:
        """Read and write units per key of `keys` that has any."""
        reads: dict[str, float] = {}
        writes: dict[str, float] = {}
        for stream in self.streams.get(home, ()):
            counts, units = stream.counts, stream.units
            totals = reads if stream.is_read else writes
            for key in keys:
                count = counts.get(key)
                if count:
                    totals[key] = totals.get(key, 0.0) + units * count
        return reads, writes

    def _all_totals(
        self, home: str
    ) -> tuple[set[str], dict[str, float], dict[str, float]]:
        """Every key of the home, and the read and write units per key, kept
        (adding a count of 0 leaves a sum as it is)."""
        if home not in self._kept_totals:
            reads: dict[str, float] = {}
            writes: dict[str, float] = {}
            for stream in self.streams.get(home, ()):
                units = stream.units
                totals = reads if stream.is_read else writes
                for key, count in stream.counts.items():
                    totals[key] = totals.get(key, 0.0) + units * count
            self._kept_totals[home] = (reads.keys() | writes.keys(), reads, writes)
        return self._kept_totals[home]

    def _action_streams(
        self, pattern: d.AccessPattern, spent: dict[str, float]
    ) -> list[tuple[tuple[str, ...], dict[str, float]]]:
        """A write pattern's units per action: each action's traffic goes to
        its own entity's keys (a transaction's Put of a per-voter item does
        not dilute the Update of one poll counter). The units spent on the
        table or an index are shared by the actions whose entity is there, in
        proportion to the items each writes."""
        actions = pattern.actions
        if len(actions) == 1:
            return [((actions[0].entity,), spent)]
        table = self.evidence.design.table
        weights = [action_count(pattern, a) for a in actions]
        streams: list[tuple[tuple[str, ...], dict[str, float]]] = [
            ((a.entity,), {}) for a in actions
        ]
        for name, units_spent in spent.items():
            home = partition_home(table, name)
            present = [
                i
                for i, a in enumerate(actions)
                if self.evidence.key_counts(home, (a.entity,), live=True)
            ]
            total = sum(weights[i] for i in present)
            for i in present:
                streams[i][1][name] = units_spent * weights[i] / total
        return streams

    def hottest(self, home: str, keys: set[str] | None = None) -> tuple[str, KeyLoad]:
        """The key (of `keys`, of all without) nearest a partition's limits."""
        if keys is None:
            return self.busiest(home, _utilization)
        return self._best(home, keys, _utilization)


def _utilization(load: KeyLoad) -> float:
    return load.utilization


def _beats_every_group(
    streams: Sequence[Stream], best: float, measure: Callable[[KeyLoad], float]
) -> bool:
    """Whether no key outside every stream's top can measure `best` or more.
    `Loads.busiest`'s bound adds every stream's last top count, as if one
    key were in all of them; but streams whose keys do not meet (an order's
    line items keyed by order, the orders themselves by customer) share no
    key. Streams are grouped by keys they share, directly or through others;
    a key outside the tops is in one group's streams only, at most each
    one's last top count, so the group's bound is the sum of its streams'.
    Beating each group's bound, strictly (an outside key that tied would
    win a tie in key order), the key found is the one a pass over every key
    finds, without that pass (a third of a review of a million items)."""
    # The streams' distinct key counts (the streams of the same entities
    # share theirs), each tested against the others once: a test of two
    # that share no key looks up each key of the smaller.
    distinct = list({id(stream.counts): stream.counts for stream in streams}.values())
    group_of = list(range(len(distinct)))
    for one, counts in enumerate(distinct):
        for other in range(one):
            if group_of[other] != group_of[one] and not counts.keys().isdisjoint(
                distinct[other].keys()
            ):
                # Joined: the later group's members take the earlier number.
                earlier, later = sorted((group_of[one], group_of[other]))
                group_of = [earlier if g == later else g for g in group_of]
    group_by_counts = {id(counts): group_of[n] for n, counts in enumerate(distinct)}
    for group in set(group_of):
        # Added in the streams' order, as a key's load is (the same sums of
        # the same or larger terms).
        bound = KeyLoad()
        truncated = False
        for stream in streams:
            if group_by_counts[id(stream.counts)] != group:
                continue
            if len(stream.top) < len(stream.counts):
                truncated = True
                count = stream.top[-1][1]
                if stream.is_read:
                    bound.read += stream.units * count
                else:
                    bound.write += stream.units * count
        if truncated and not best > measure(bound):
            return False
    return True


def check_partitions(evidence: Evidence) -> Iterator[Finding]:
    loads = Loads(evidence)
    yield from _hot_partitions(evidence, loads)
    yield from _low_cardinality_keys(evidence, loads)
    yield from _item_collections(evidence)


def _homes(table: d.Table) -> list[str]:
    return [d.TABLE_INDEX] + [i.name for i in table.indexes if i.is_global]


def _hot_partitions(evidence: Evidence, loads: Loads) -> Iterator[Finding]:
    design = evidence.design
    for home in _homes(design.table):
        hot_reads = loads.busiest(home, lambda load: load.read)
        hot_writes = loads.busiest(home, lambda load: load.write)
        if hot_writes[1].write > PARTITION_WRITE_LIMIT:
            yield _hot_write(evidence, home, *hot_writes)
        if hot_reads[1].read > PARTITION_READ_LIMIT:
            yield _hot_read(evidence, home, *hot_reads)


def _contributors(design: d.Design, shares: dict[int, float], limit: int = 3) -> str:
    top = sorted(shares.items(), key=lambda pair: -pair[1])[:limit]
    return ", ".join(
        f"'{design.access_patterns[p].name}' {rps:,.0f}/s" for p, rps in top
    )


def _hot_write(evidence: Evidence, home: str, key: str, load: KeyLoad) -> Finding:
    design = evidence.design
    shards = math.ceil(load.write / PARTITION_WRITE_LIMIT)
    read_rps = sum(load.readers.values())
    fan_out = (
        f"; reads of one logical key then query all {shards} shards: "
        f"{read_rps:,.0f} read requests/s at peak become {read_rps * shards:,.0f}"
        if read_rps
        else f"; a read of one logical key then queries all {shards} shards"
    )
    where = "the table" if home == d.TABLE_INDEX else f"index {home}"
    return finding(
        "hot-partition",
        "error",
        "Hot partition: writes",
        index_location(design.table, home),
        why="One partition key value lives in one partition, which takes about "
        "1,000 WCU per second; past that, writes to it are throttled whatever "
        "the table's capacity.",
        evidence=[
            f"key '{key}' on {where} takes {units(load.write)} WCU/s at peak",
            f"from {_contributors(design, load.writers)} (requests to this key)",
        ],
        fix=f"Write-shard the key: add a suffix #0..#{shards - 1} ({shards} shards "
        f"= ceil({units(load.write)} / 1,000)), chosen at random or from a hash "
        f"of an id at write time{fan_out}.",
        figures={"wcu": load.write, "shards": shards, "read_rps": read_rps},
    )


def _hot_read(evidence: Evidence, home: str, key: str, load: KeyLoad) -> Finding:
    design = evidence.design
    copies = math.ceil(load.read / PARTITION_READ_LIMIT)
    where = "the table" if home == d.TABLE_INDEX else f"index {home}"
    return finding(
        "hot-partition",
        "error",
        "Hot partition: reads",
        index_location(design.table, home),
        why="One partition key value lives in one partition, which serves about "
        "3,000 RCU per second; past that, reads of it are throttled whatever "
        "the table's capacity.",
        evidence=[
            f"key '{key}' on {where} takes {units(load.read)} RCU/s at peak",
            f"from {_contributors(design, load.readers)} (requests to this key)",
        ],
        fix=f"Cache the hot key's reads (DAX or an application cache), or keep "
        f"{copies} copies of its items under suffixed keys (ceil("
        f"{units(load.read)} / 3,000)) and read one at random; writes then "
        f"cost {copies} times as much.",
        figures={"rcu": load.read, "copies": copies},
    )


@dataclass(frozen=True)
class _NarrowKey:
    entity: str
    attribute: str
    template: str
    live_values: int
    time_parts: tuple[str, ...]
    shard: tuple[str, int] | None = None  # the shard attribute and its values


def _narrow_keys(design: d.Design, home: str) -> Iterator[_NarrowKey]:
    table = design.table
    index = table.index(home)
    names = (
        (table.partition_key.name,)
        if index is None
        else tuple(a.name for a in index.partition_key)
    )
    for entity in design.entities:
        live = 1
        time_parts: list[str] = []
        templates = []
        shard: tuple[str, int] | None = None
        for name in names:
            key = entity.keys.get(name)
            if key is None:
                break
            try:
                template = parse_template(key.template)
            except TemplateSyntaxError:
                break
            templates.append(key.template)
            for part in template.parts:
                if isinstance(part, Literal):
                    continue
                attribute = entity.attribute(part.attribute)
                if is_time_bucket(attribute):
                    time_parts.append(part.attribute)
                    continue
                cardinality = attribute_cardinality(attribute)
                if cardinality is None:
                    live = LOW_CARDINALITY + 1
                    break
                if "shard" in part.attribute.lower():
                    shard = (part.attribute, cardinality)
                live *= cardinality
            if live > LOW_CARDINALITY:
                break
        else:
            yield _NarrowKey(
                entity.name,
                names[0],
                " + ".join(templates),
                live,
                tuple(time_parts),
                shard,
            )


def _low_cardinality_keys(evidence: Evidence, loads: Loads) -> Iterator[Finding]:
    design = evidence.design
    for home in _homes(design.table):
        for narrow in _narrow_keys(design, home):
            keys = set(evidence.key_counts(home, (narrow.entity,), live=True))
            key, load = loads.hottest(home, keys)
            utilization = load.utilization
            if utilization < LOW_CARDINALITY_WARNING:
                # Few key values are not a problem while the busiest one is
                # far from a partition's limits (a sparse working set, an
                # entity with few items, a key already sharded enough).
                continue
            where = "the table" if home == d.TABLE_INDEX else f"index {home}"
            if narrow.time_parts:
                title = "Time-bucket partition key"
                why = (
                    "All new items share the current period's key, so every "
                    "write of the moment lands in one partition (or a few)."
                )
            else:
                title = "Low-cardinality partition key"
                why = (
                    "A key with few values spreads the data over few "
                    "partitions, so their per-partition limits cap the whole "
                    "index's throughput."
                )
            facts = [
                f"{narrow.entity}'s {narrow.attribute} '{narrow.template}' has "
                f"{plural(narrow.live_values, 'live value')}"
                + (
                    f" ({', '.join(narrow.time_parts)} is the current period)"
                    if narrow.time_parts
                    else ""
                ),
            ]
            if key:
                facts.append(
                    f"busiest key '{key}' on {where}: {units(load.read)} RCU/s and "
                    f"{units(load.write)} WCU/s at peak, {percent(utilization)} "
                    "of a partition's limit"
                )
            shards = max(1, math.ceil(load.write / PARTITION_WRITE_LIMIT))
            spread = plural(narrow.live_values, "key value")
            if narrow.shard is not None:
                attribute, count = narrow.shard
                # Writes choose a shard at random: a logical key's load is
                # its shards' together. Each shard should keep half a
                # partition's limit in reserve.
                total = sum(loads.load(home, k).write for k in keys)
                logical = max(1, narrow.live_values // count)
                wanted = max(
                    count + 1,
                    math.ceil(
                        total
                        / logical
                        / (PARTITION_WRITE_LIMIT * LOW_CARDINALITY_WARNING)
                        - 1e-9  # 14.000000001 shards are 14
                    ),
                )
                fix = (
                    f"The key is already write-sharded over {count} values of "
                    f"{attribute}; raise that to {wanted} (peak WCU per logical "
                    "key / 500, so that each shard keeps half a partition's "
                    f"limit in reserve), and have readers query all {wanted}."
                )
            elif load.read / PARTITION_READ_LIMIT > load.write / PARTITION_WRITE_LIMIT:
                fix = _read_hot_fix(load, utilization, spread)
            elif utilization < 1:
                fix = (
                    f"Fine up to about {_times(utilization)} times "
                    f"today's peak on {spread}; before traffic passes that, "
                    "write-shard the key (a suffix #0..#N-1, N = ceil(peak WCU "
                    "per key / 1,000)) or add a high-cardinality part such as "
                    "an id."
                )
            else:
                fix = (
                    f"Write-shard the key into {shards} or more values (a suffix "
                    "#0..#N-1, N = ceil(peak WCU / 1,000)) or add a "
                    "high-cardinality part such as an id."
                )
            yield finding(
                "time-bucket-key" if narrow.time_parts else "low-cardinality-key",
                "warning",
                title,
                index_location(design.table, home),
                why=why,
                evidence=facts,
                fix=fix,
                figures={
                    "live_values": narrow.live_values,
                    "utilization": utilization,
                    "wcu": load.write,
                    "rcu": load.read,
                },
            )


def _times(utilization: float) -> str:
    """How many times today's peak a key takes before its partition's
    limit: 1.4, 3, 25."""
    times = 1 / max(utilization, 1e-9)
    return f"{times:,.1f}" if times < 10 else f"{times:,.0f}"


def _read_hot_fix(load: KeyLoad, utilization: float, spread: str) -> str:
    """What cools a key that reads make hot: writes spread over shards
    would leave every read of the logical key querying them all."""
    copies = math.ceil(load.read / PARTITION_READ_LIMIT)
    spread_item = (
        f"keep {copies} copies of it under suffixed keys (#0..#{copies - 1}: "
        "ceil(peak RCU / 3,000)) and read one at random"
        if utilization >= 1
        else "keep copies of it under suffixed keys (#0..#N-1, N = ceil(peak "
        "RCU / 3,000)) and read one at random"
    )
    cure = (
        "cache its reads (DAX, or an application cache in front of the "
        f"table), or spread the item: {spread_item}, or serve the reads from "
        "a read replica of the item (a GSI or another item kept in step); "
        "each copy is one more write. Write-sharding does not help: a read "
        "of the logical key would then query every shard."
    )
    hot = (
        f"Reads make it hot ({units(load.read)} RCU/s against "
        f"{units(load.write)} WCU/s at peak)"
    )
    if utilization < 1:
        return (
            f"{hot}. Fine up to about {_times(utilization)} times today's peak "
            f"reads on {spread}; before they pass that, {cure}"
        )
    return f"{hot}: {cure}"


def _item_collections(evidence: Evidence) -> Iterator[Finding]:
    """With an LSI, all items of one partition key value (and their LSI
    entries) must fit in 10 GB; new items at the average traffic make the
    busiest collection grow."""
    design = evidence.design
    table = design.table
    lsis = [i for i in table.indexes if not i.is_global]
    if not lsis:
        return
    growth: dict[str, float] = {}  # bytes per second per partition key value
    # The bytes a collection holds once its items expire as fast as they
    # come (inf: some of them never expire).
    held: dict[str, float] = {}
    writers: dict[str, set[str]] = {}
    for pattern in design.access_patterns:
        if pattern.is_read or pattern.traffic.rps <= 0:
            continue
        for action in pattern.actions:
            if action.operation != "Put":
                continue
            sizes = _entry_sizes(evidence, action.entity, lsis)
            if sizes is None:
                continue
            counts = evidence.key_counts(d.TABLE_INDEX, (action.entity,), live=False)
            total = sum(counts.values())
            rate = pattern.traffic.rps * action_count(pattern, action)
            kept = retention_days(design, action.entity)
            for key, count in counts.items():
                added = rate * count / total * sizes
                growth[key] = growth.get(key, 0.0) + added
                held[key] = held.get(key, 0.0) + (
                    added * 86_400 * (kept + TTL_DELETION_DAYS)
                    if kept is not None
                    else math.inf
                )
                writers.setdefault(key, set()).add(pattern.name)
    if not growth:
        return
    key = max(growth, key=lambda k: (held[k], growth[k]))
    per_day = growth[key] * 86_400
    days = COLLECTION_LIMIT / per_day
    if days > COLLECTION_ADVICE_DAYS or held[key] <= COLLECTION_LIMIT / 2:
        # Items that expire keep the collection at a level it holds: half
        # the limit leaves room for a burst and a late deletion.
        return
    entities = sorted(
        {
            e
            for e, item in zip(evidence.entities, evidence.items, strict=True)
            if e and str(item.get(table.partition_key.name)) == key
        }
    )
    ttl = table.ttl_attribute
    expiring = [
        name
        for name in entities
        if ttl and (entity := design.entity(name)) and entity.attribute(ttl)
    ]
    fix = (
        "Keep the collection bounded: move the growing items to their own "
        "partition key (a time bucket or a shard per parent), or replace the "
        "LSI with a GSI, which has no 10 GB limit"
    )
    evidence_lines = [
        f"collection '{key}' grows by {per_day / 1024**3:,.2f} GB a day "
        f"(from {', '.join(sorted(writers[key]))} at average traffic, "
        f"items plus {', '.join(i.name for i in lsis)} entries)",
        f"10 GB in {days:,.0f} days",
    ]
    if held[key] != math.inf:
        evidence_lines.append(
            f"its items expire (TTL {ttl}), so it levels off near "
            f"{held[key] / 1024**3:,.1f} GB, counting {TTL_DELETION_DAYS} days "
            "for DynamoDB to delete what has expired"
        )
    if expiring:
        fix += (
            f"; {', '.join(expiring)} items carry the TTL attribute {ttl}, which "
            f"keeps the collection under 10 GB only if they expire within "
            f"{max(days / 2 - TTL_DELETION_DAYS, 0):,.0f} days"
        )
    yield finding(
        "item-collection",
        "warning"
        if days <= COLLECTION_WARNING_DAYS and held[key] > COLLECTION_LIMIT
        else "advice",
        "Item collection can pass 10 GB",
        index_location(table, lsis[0].name),
        why="A table with an LSI caps each item collection (one partition key "
        "value, with its LSI entries) at 10 GB, and refuses writes to it "
        "beyond that.",
        evidence=evidence_lines,
        fix=fix + ".",
        figures={"days": days, "bytes_per_day": per_day},
    )


def retention_days(design: d.Design, entity_name: str) -> float | None:
    """How long the entity's items live, when the table's TTL attribute on
    them is an `expires` generator (`{from: readingAt, days: 30}`); None
    when nothing says they expire."""
    ttl = design.table.ttl_attribute
    entity = design.entity(entity_name)
    attribute = entity.attribute(ttl) if entity and ttl else None
    generator = attribute.generator if attribute else None
    if generator is None or generator.kind != "expires":
        return None
    days = generator.params.get("days")
    return float(days) if isinstance(days, (int, float)) else None


def _entry_sizes(evidence: Evidence, entity: str, lsis: list[d.Index]) -> float | None:
    """The average bytes one new item of the entity adds to its collection:
    the item and its entries in the LSIs."""
    positions = evidence.positions((entity,))
    if not positions:
        return None
    total = 0
    entries = [evidence.entry_sizes(index) for index in lsis]
    for position in positions:
        total += evidence.sizes[position]
        for sizes in entries:
            total += sizes[position] or 0
    return total / len(positions)
