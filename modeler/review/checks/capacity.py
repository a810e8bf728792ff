"""Declared capacity against the load the patterns put on it.

Provisioned: the table and each GSI have their own read and write capacity,
compared with the units per second the patterns need on average and at peak.
Below the average, requests are throttled all the time; below the peak
only, the spikes are throttled: burst capacity keeps at most 300 seconds of
unused capacity, and auto scaling reacts only after its alarms have seen
two consecutive minutes above target and then takes minutes more. A GSI
short of write capacity throttles the writes of the base table, since every
table write that changes the index waits for it (Developer Guide,
"Provisioned throughput considerations for GSIs").

On-demand: a table is limited by its per-table maximum (40,000 read and
40,000 write request units per second by default, a quota that can be
raised), and a new table can take 12,000 reads and 4,000 writes per second
at once (its warm throughput) and scales from there as traffic doubles.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from modeler.design import model as d
from modeler.review.checks.common import index_location, table_location, units
from modeler.review.cost import pattern_capacities
from modeler.review.evidence import Evidence, partition_home
from modeler.review.findings import Finding, finding

ON_DEMAND_TABLE_READ_QUOTA = 40_000
ON_DEMAND_TABLE_WRITE_QUOTA = 40_000
WARM_READS = 12_000
WARM_WRITES = 4_000


@dataclass
class Load:
    """Units per second on the table (with its LSIs) or one GSI."""

    average_read: float = 0.0
    peak_read: float = 0.0
    average_write: float = 0.0
    peak_write: float = 0.0


def check_capacity(evidence: Evidence) -> Iterator[Finding]:
    if not evidence.runs:
        return
    table = evidence.design.table
    loads = _loads(evidence)
    if table.billing_mode == "PROVISIONED":
        yield from _provisioned(table, loads)
    else:
        yield from _on_demand(table, loads)


def _loads(evidence: Evidence) -> dict[str, Load]:
    table = evidence.design.table
    loads: dict[str, Load] = {}
    for pattern in pattern_capacities(evidence):
        if pattern.units is None:
            continue
        for name, units_spent in pattern.by_index:
            load = loads.setdefault(partition_home(table, name), Load())
            if pattern.kind == "read":
                load.average_read += units_spent * pattern.rps
                load.peak_read += units_spent * pattern.peak_rps
            else:
                load.average_write += units_spent * pattern.rps
                load.peak_write += units_spent * pattern.peak_rps
    return loads


def _provisioned(table: d.Table, loads: dict[str, Load]) -> Iterator[Finding]:
    homes: list[tuple[str, d.Capacity | None]] = [(d.TABLE_INDEX, table.capacity)]
    homes += [(i.name, i.capacity) for i in table.indexes if i.is_global]
    for home, declared in homes:
        load = loads.get(home)
        if declared is None or load is None:
            continue
        for kind, have, average, peak in (
            ("read", declared.read, load.average_read, load.peak_read),
            ("write", declared.write, load.average_write, load.peak_write),
        ):
            if peak <= have:
                continue
            scaling = declared.scaling(kind)
            yield _short(
                table,
                home,
                kind,
                have,
                average,
                peak,
                scaling.maximum if scaling else 0,
            )


def _short(
    table: d.Table,
    home: str,
    kind: str,
    have: int,
    average: float,
    peak: float,
    scaled_to: int = 0,
) -> Finding:
    """A capacity below its load; `scaled_to` is how far auto scaling may
    raise it (0 when it is off)."""
    letter = "R" if kind == "read" else "W"
    is_gsi = home != d.TABLE_INDEX
    where = f"GSI {home}" if is_gsi else f"Table {table.name}"
    ceiling = max(have, scaled_to)
    all_the_time = average > ceiling
    if all_the_time and ceiling > have:
        why = (
            f"The patterns need {units(average)} {letter}CU per second on average, "
            f"more than auto scaling's maximum of {ceiling:,}: {kind}s are "
            "throttled all the time, not only at peaks."
        )
    elif all_the_time:
        why = (
            f"The patterns need {units(average)} {letter}CU per second on average, "
            f"more than the {have:,} provisioned: {kind}s are throttled all the time, "
            "not only at peaks."
        )
    elif average > have:
        why = (
            f"The patterns need {units(average)} {letter}CU per second on average, "
            f"more than the {have:,} provisioned. Auto scaling raises it (up to "
            f"{ceiling:,}) only after two minutes above its target, then takes "
            f"minutes more: until then, and at every spike to {units(peak)}, "
            f"{kind}s are throttled."
        )
    else:
        why = (
            f"The patterns need {units(peak)} {letter}CU per second at peak, more "
            f"than the {have:,} provisioned (the average, {units(average)}, fits). "
            "Burst capacity keeps at most 300 seconds of unused capacity, and auto "
            "scaling reacts only after two minutes above its target, then takes "
            "minutes more: a spike is throttled before either helps."
        )
    if is_gsi and kind == "write":
        why += (
            " A GSI short of write capacity throttles the table's own writes: every "
            "write that changes the index waits for it."
        )
    return finding(
        "under-provisioned",
        "error" if all_the_time or (is_gsi and kind == "write") else "warning",
        f"{where} is provisioned below its {kind} load",
        index_location(table, home),
        why=why,
        evidence=[
            f"provisioned: {have:,} {letter}CU"
            + (
                f", auto scaled up to {scaled_to:,}"
                if scaled_to > have
                else ", not auto scaled"
                if not scaled_to
                else ""
            ),
            f"needed: {units(average)} {letter}CU/s on average, {units(peak)} at peak",
        ],
        fix=(
            f"Provision at least {units(peak)} {letter}CU (the peak), with auto "
            "scaling between the average and the peak, or switch the table to "
            "on-demand, which follows the traffic."
        ),
        figures={"provisioned": have, "average": average, "peak": peak},
    )


def _on_demand(table: d.Table, loads: dict[str, Load]) -> Iterator[Finding]:
    total = Load()
    for load in loads.values():
        total.peak_read += load.peak_read
        total.peak_write += load.peak_write
    location = table_location(table)
    for kind, peak, quota in (
        ("read", total.peak_read, ON_DEMAND_TABLE_READ_QUOTA),
        ("write", total.peak_write, ON_DEMAND_TABLE_WRITE_QUOTA),
    ):
        if peak > quota:
            yield finding(
                "on-demand-quota",
                "warning",
                f"Peak {kind}s exceed the on-demand table quota",
                location,
                why=(
                    f"At peak the patterns need {units(peak)} {kind} request units "
                    f"per second; an on-demand table takes at most {quota:,} by "
                    "default, and requests past it are throttled."
                ),
                evidence=[f"peak: {units(peak)} per second", f"quota: {quota:,}"],
                fix="Ask AWS to raise the table's on-demand maximum throughput "
                "quota before launch, and set the table's maximum throughput.",
                figures={"peak": peak, "quota": quota},
            )
    for kind, peak, warm, quota in (
        ("read", total.peak_read, WARM_READS, ON_DEMAND_TABLE_READ_QUOTA),
        ("write", total.peak_write, WARM_WRITES, ON_DEMAND_TABLE_WRITE_QUOTA),
    ):
        if warm < peak <= quota:
            yield finding(
                "warm-throughput",
                "advice",
                f"A new table is not warm enough for the peak {kind}s",
                location,
                why=(
                    f"A new on-demand table takes {warm:,} {kind}s per second at "
                    f"once and scales up as traffic doubles; the stated peak is "
                    f"{units(peak)}, so a launch at full traffic is throttled "
                    "until it has scaled."
                ),
                evidence=[f"peak: {units(peak)} per second", f"warm: {warm:,}"],
                fix="Set the table's warm throughput to the peak before launch "
                "(it can be set on create or later), or ramp the traffic up.",
                figures={"peak": peak, "warm": warm},
            )
