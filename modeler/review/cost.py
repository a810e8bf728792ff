"""Capacity and monthly cost: per access pattern, units per request times
its average and peak traffic; for the table, on-demand against provisioned
capacity sized for peak at 70% utilization, and storage with DynamoDB's 100
bytes of overhead per item and per index entry.

Units per request come from the simulated request (its item sizes,
consistency, transactions, and the GSIs each write touches). A read's are
the mean of its typical draws where it has some: the simulated request
reads the largest result its parameter search found (the example that
shows the most), which with skewed data is the hottest partition, and
costing every request at it overstated a month several times over. All
patterns are assumed to peak at the same time, which is what capacity must
survive.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from modeler.design import model as d
from modeler.review.evidence import Evidence, partition_home
from modeler.review.fetch_back import fetch_back
from modeler.review.prices import (
    BYTES_PER_GB,
    HOURS_PER_MONTH,
    SECONDS_PER_MONTH,
    STORAGE_OVERHEAD_BYTES,
    TARGET_UTILIZATION,
    Prices,
)

ON_DEMAND = "on-demand"
PROVISIONED = "provisioned"


@dataclass(frozen=True)
class PatternCapacity:
    position: int
    name: str
    kind: str  # read or write
    operation: str
    units: float | None  # per request; None when the pattern could not run
    by_index: tuple[tuple[str, float], ...]
    rps: float
    peak_rps: float

    @property
    def average(self) -> float:
        return (self.units or 0.0) * self.rps

    @property
    def peak(self) -> float:
        return (self.units or 0.0) * self.peak_rps

    def monthly_on_demand(self, prices: Prices) -> Decimal:
        return on_demand_monthly(
            read_units_per_second=self.average if self.kind == "read" else 0.0,
            write_units_per_second=self.average if self.kind == "write" else 0.0,
            prices=prices,
        )


@dataclass(frozen=True)
class ProvisionedCapacity:
    """The capacity the table or one GSI needs, sized for peak."""

    name: str
    peak_read: float
    peak_write: float

    @property
    def read(self) -> int:
        return provisioned_units(self.peak_read)

    @property
    def write(self) -> int:
        return provisioned_units(self.peak_write)


@dataclass(frozen=True)
class StorageCopy:
    """The table's items, or one index's entries, scaled to the stored
    item count."""

    name: str
    entries: float
    average_size: float

    @property
    def bytes(self) -> float:
        return self.entries * (self.average_size + STORAGE_OVERHEAD_BYTES)


@dataclass(frozen=True)
class Cost:
    prices: Prices
    patterns: tuple[PatternCapacity, ...]
    provisioned: tuple[ProvisionedCapacity, ...]
    storage: tuple[StorageCopy, ...]
    stored_items: int
    sample_items: int

    @property
    def average_read(self) -> float:
        return sum(p.average for p in self.patterns if p.kind == "read")

    @property
    def average_write(self) -> float:
        return sum(p.average for p in self.patterns if p.kind == "write")

    @property
    def peak_read(self) -> float:
        return sum(p.peak for p in self.patterns if p.kind == "read")

    @property
    def peak_write(self) -> float:
        return sum(p.peak for p in self.patterns if p.kind == "write")

    @property
    def on_demand_read(self) -> Decimal:
        return on_demand_monthly(
            read_units_per_second=self.average_read,
            write_units_per_second=0,
            prices=self.prices,
        )

    @property
    def on_demand_write(self) -> Decimal:
        return on_demand_monthly(
            read_units_per_second=0,
            write_units_per_second=self.average_write,
            prices=self.prices,
        )

    @property
    def on_demand(self) -> Decimal:
        return self.on_demand_read + self.on_demand_write

    @property
    def provisioned_read_units(self) -> int:
        return sum(c.read for c in self.provisioned)

    @property
    def provisioned_write_units(self) -> int:
        return sum(c.write for c in self.provisioned)

    @property
    def provisioned_read(self) -> Decimal:
        return provisioned_monthly(
            rcu=self.provisioned_read_units, wcu=0, prices=self.prices
        )

    @property
    def provisioned_write(self) -> Decimal:
        return provisioned_monthly(
            rcu=0, wcu=self.provisioned_write_units, prices=self.prices
        )

    @property
    def provisioned_total(self) -> Decimal:
        return self.provisioned_read + self.provisioned_write

    @property
    def storage_bytes(self) -> float:
        return sum(copy.bytes for copy in self.storage)

    @property
    def storage_monthly(self) -> Decimal:
        return storage_monthly(storage_bytes=self.storage_bytes, prices=self.prices)

    @property
    def cheaper(self) -> str:
        return PROVISIONED if self.provisioned_total < self.on_demand else ON_DEMAND

    @property
    def total_on_demand(self) -> Decimal:
        return self.on_demand + self.storage_monthly

    @property
    def total_provisioned(self) -> Decimal:
        return self.provisioned_total + self.storage_monthly

    @property
    def saving(self) -> Decimal:
        return abs(self.on_demand - self.provisioned_total)

    @property
    def unknown_patterns(self) -> tuple[PatternCapacity, ...]:
        return tuple(p for p in self.patterns if p.units is None)


def on_demand_monthly(
    *, read_units_per_second: float, write_units_per_second: float, prices: Prices
) -> Decimal:
    """Request units over a month of average traffic, at the on-demand
    prices per million."""
    reads = Decimal(str(read_units_per_second)) * SECONDS_PER_MONTH
    writes = Decimal(str(write_units_per_second)) * SECONDS_PER_MONTH
    million = Decimal(1_000_000)
    return (
        reads / million * prices.read_request_per_million
        + writes / million * prices.write_request_per_million
    )


def provisioned_units(peak: float) -> int:
    """Capacity units that keep `peak` at 70% utilization; a table or GSI
    has at least one of each."""
    return max(1, math.ceil(round(peak / TARGET_UTILIZATION, 9)))


def provisioned_monthly(*, rcu: int, wcu: int, prices: Prices) -> Decimal:
    return HOURS_PER_MONTH * (rcu * prices.rcu_hour + wcu * prices.wcu_hour)


def storage_monthly(*, storage_bytes: float, prices: Prices) -> Decimal:
    return Decimal(str(storage_bytes)) / BYTES_PER_GB * prices.storage_gb_month


def pattern_capacity(
    design: d.Design, position: int, units: float | None, by_index: Mapping[str, float]
) -> PatternCapacity:
    pattern = design.access_patterns[position]
    return PatternCapacity(
        position=position,
        name=pattern.name,
        kind=pattern.kind,
        operation=pattern.operation_label,
        units=units,
        by_index=tuple(by_index.items()),
        rps=pattern.traffic.rps,
        peak_rps=max(pattern.traffic.peak_rps, pattern.traffic.rps),
    )


def pattern_capacities(
    evidence: Evidence, stored_items: int | None = None
) -> tuple[PatternCapacity, ...]:
    """Each pattern's units per request as it would run at the stated size:
    a GSI query that needs a second read is booked with the BatchGetItem
    that fetches the rest, and a Scan, which reads everything, grows with
    the items stored (`stored_items`) over the sample's."""
    out = []
    table = evidence.design.table
    for position, pattern in enumerate(evidence.design.access_patterns):
        run = evidence.runs.get(position)
        if run is None or run.error or not run.pages:
            out.append(pattern_capacity(evidence.design, position, None, {}))
            continue
        units = run.capacity.read if pattern.is_read else run.capacity.write
        by_index = dict(run.capacity.by_index)
        if not by_index:
            by_index = {partition_home(table, pattern.index): units}
        # A typical request's share of the simulated one's units.
        share = 1.0
        if pattern.is_read and run.draw_units and units:
            share = statistics.fmean(run.draw_units) / units
            units *= share
            by_index = {name: u * share for name, u in by_index.items()}
        if pattern.operation == "Scan" and stored_items and evidence.items:
            scale = stored_items / len(evidence.items)
            units *= scale
            by_index = {name: u * scale for name, u in by_index.items()}
        second = fetch_back(evidence, position) if pattern.is_read else None
        if second is not None and second.rcu:
            rcu = second.rcu * share
            units += rcu
            by_index[d.TABLE_INDEX] = by_index.get(d.TABLE_INDEX, 0.0) + rcu
        out.append(pattern_capacity(evidence.design, position, units, by_index))
    return tuple(out)


def provisioned_capacities(
    table: d.Table, patterns: Iterable[PatternCapacity]
) -> tuple[ProvisionedCapacity, ...]:
    """Peak units on the table (with its LSIs) and on each GSI, which are
    provisioned separately."""
    homes = [d.TABLE_INDEX] + [i.name for i in table.indexes if i.is_global]
    reads = dict.fromkeys(homes, 0.0)
    writes = dict.fromkeys(homes, 0.0)
    for pattern in patterns:
        target = reads if pattern.kind == "read" else writes
        for name, units in pattern.by_index:
            home = partition_home(table, name)
            target[home] = target.get(home, 0.0) + units * pattern.peak_rps
    return tuple(
        ProvisionedCapacity(
            table.name if home == d.TABLE_INDEX else home, reads[home], writes[home]
        )
        for home in homes
    )


def storage_copies(evidence: Evidence, stored_items: int) -> tuple[StorageCopy, ...]:
    """The table and each index: entries and their average size in the
    sample data, scaled from the sample's item count to `stored_items`."""
    sample = len(evidence.items)
    if not sample:
        return ()
    scale = stored_items / sample
    copies = [
        StorageCopy(
            evidence.design.table.name, stored_items, evidence.total_size / sample
        )
    ]
    for index in evidence.design.table.indexes:
        entries, size = evidence.entry_totals(index)
        copies.append(
            StorageCopy(index.name, entries * scale, size / entries if entries else 0.0)
        )
    return tuple(copies)


def estimate_cost(
    evidence: Evidence, prices: Prices, stored_items: int | None = None
) -> Cost:
    patterns = pattern_capacities(evidence, stored_items)
    stored = len(evidence.items) if stored_items is None else stored_items
    return Cost(
        prices=prices,
        patterns=patterns,
        provisioned=provisioned_capacities(evidence.design.table, patterns),
        storage=storage_copies(evidence, stored),
        stored_items=stored,
        sample_items=len(evidence.items),
    )
