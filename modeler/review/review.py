"""A design review: the findings of every check and the capacity and cost
estimate, from a design and its simulation, with a summary for a review
meeting."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.design.findings import (
    Finding,
    Severity,
    findings_by_location,
    findings_by_severity,
    sort_findings,
)
from modeler.review.checks.capacity import check_capacity
from modeler.review.checks.expiry import check_expiry
from modeler.review.checks.indexes import check_indexes
from modeler.review.checks.items import check_items
from modeler.review.checks.partitions import check_partitions
from modeler.review.checks.patterns import check_patterns
from modeler.review.cost import Cost, estimate_cost
from modeler.review.evidence import Evidence
from modeler.review.prices import DOCUMENTED_PRICES, Prices
from modeler.simulation import PatternRun, Simulation


@dataclass(frozen=True)
class Review:
    design: d.Design
    findings: tuple[Finding, ...]
    cost: Cost
    runs: tuple[PatternRun | None, ...]
    simulation_problem: str = ""

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.is_error)

    @property
    def by_severity(self) -> dict[Severity, list[Finding]]:
        return findings_by_severity(self.findings)

    @property
    def by_location(self) -> dict[tuple[str, str], list[Finding]]:
        return findings_by_location(self.findings)

    @property
    def unsimulated(self) -> bool:
        """The design has access patterns but none was simulated: nothing
        they return or cost was checked."""
        return bool(self.simulation_problem and self.design.access_patterns)

    @property
    def passed(self) -> int:
        return sum(1 for run in self.runs if run is not None and run.passed)

    def summary(self) -> list[str]:
        """A few sentences for a review meeting."""
        counts = self.by_severity
        lines = [
            f"{self.design.name}: {len(self.design.entities)} entities, "
            f"{len(self.design.access_patterns)} access patterns, "
            f"{len(self.design.table.indexes)} indexes on table "
            f"{self.design.table.name}."
        ]
        errors, warnings = counts[Severity.ERROR], counts[Severity.WARNING]
        verdict = (
            f"{len(errors)} error{'s' * (len(errors) != 1)}, "
            f"{len(warnings)} warning{'s' * (len(warnings) != 1)} and "
            f"{len(counts[Severity.ADVICE])} advice."
        )
        if errors:
            verdict += (
                " Not ready to deploy: "
                + "; ".join(f"{f.message} ({f.location})" for f in errors[:3])
                + "."
            )
        elif self.unsimulated:
            # As check_design's gate: what was not simulated was not checked.
            verdict += (
                " Not ready to deploy: it was not simulated, so what the access "
                "patterns return, how hot their partitions run and what they "
                "cost are unchecked."
            )
        elif warnings:
            verdict += (
                " Deployable; look at: "
                + "; ".join(f"{f.message} ({f.location})" for f in warnings[:3])
                + "."
            )
        else:
            verdict += " Nothing stands in the way of deploying it."
        lines.append(verdict)
        if self.simulation_problem:
            lines.append(f"Not simulated: {self.simulation_problem}")
        elif self.design.access_patterns:
            lines.append(
                f"{self.passed} of {len(self.design.access_patterns)} access "
                "patterns return exactly what they promise in the simulation."
            )
        if self.unsimulated:
            lines.append(
                "No monthly cost: each access pattern's units per request come "
                "from the simulation."
            )
            return lines
        cost = self.cost
        cheaper = cost.cheaper
        lines.append(
            f"At the stated traffic ({cost.average_read:,.1f} RCU/s and "
            f"{cost.average_write:,.1f} WCU/s on average, {cost.peak_read:,.0f} and "
            f"{cost.peak_write:,.0f} at peak) a month costs ${cost.on_demand:,.2f} "
            f"on demand or ${cost.provisioned_total:,.2f} provisioned for peak at "
            f"70%, plus ${cost.storage_monthly:,.2f} of storage for "
            f"{cost.stored_items:,} items: {cheaper} is cheaper by "
            f"${cost.saving:,.2f} (prices for {cost.prices.region} as of "
            f"{cost.prices.taken.isoformat()})."
        )
        if self.design.access_patterns and not any(
            p.traffic.rps or p.traffic.peak_rps for p in self.design.access_patterns
        ):
            lines.append(
                "No access pattern states its traffic (rps and peak_rps), so "
                "there is nothing to cost yet."
            )
        if cost.unknown_patterns:
            lines.append(
                "Not costed (they did not run): "
                + ", ".join(p.name for p in cost.unknown_patterns)
                + "."
            )
        return lines


def run_patterns(
    simulation: Simulation, patterns: Iterable[d.AccessPattern] | None = None
) -> list[PatternRun]:
    """Every access pattern (of the simulated design, or `patterns`: one
    loaded table serves every version of a design with the same data), in
    order; a pattern the simulator fails on gets a run with the error."""
    runs = []
    for pattern in simulation.design.access_patterns if patterns is None else patterns:
        try:
            runs.append(simulation.draw(simulation.run(pattern)))
        except Exception as exc:
            # A simulator failure on one pattern leaves that pattern without
            # evidence; the review of the rest goes on.
            runs.append(
                PatternRun(
                    pattern,
                    error=f"the simulator failed on this pattern "
                    f"({type(exc).__name__}: {exc})",
                )
            )
    return runs


def review_design(
    design: d.Design,
    *,
    simulation: Simulation | None = None,
    runs: Iterable[PatternRun] | None = None,
    prices: Prices = DOCUMENTED_PRICES,
    stored_items: int | None = None,
    simulation_problem: str = "",
) -> Review:
    """Review a design. Give the loaded `simulation` (and its `runs`, one per
    pattern, if they are already there); without one, only what the design
    alone shows is checked, and nothing is costed from sample data."""
    if simulation is not None:
        run_list = (
            list(runs)
            if runs is not None
            else run_patterns(simulation, design.access_patterns)
        )
        items, entities = simulation.items, simulation.entities
    else:
        run_list, items, entities = [], [], []
    evidence = Evidence(
        design,
        items,
        entities,
        {position: run for position, run in enumerate(run_list)},
        simulation.derived if simulation is not None else None,
        simulation.item_sizes if simulation is not None else None,
        # The loaded indexes' entries are the review's when the table's key
        # is the simulated design's (an index's entries hold it).
        simulation.index_totals
        if simulation is not None
        and simulation.design.table.key_attributes == design.table.key_attributes
        else None,
        simulation.lookups.of_entities if simulation is not None else None,
    )
    findings = [
        *check_patterns(evidence),
        *check_partitions(evidence),
        *check_items(evidence),
        *check_expiry(evidence),
        *check_indexes(evidence),
        *check_capacity(evidence),
    ]
    return Review(
        design=design,
        findings=tuple(sort_findings(findings)),
        cost=estimate_cost(evidence, prices, stored_items),
        runs=tuple(run_list) or (None,) * len(design.access_patterns),
        simulation_problem=simulation_problem,
    )
