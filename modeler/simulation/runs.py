"""What a simulation records of a pattern's run: the requests it sent, the
capacity they consumed, the items returned and the verdict, and the further
parameter draws a read was tried with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modeler.design import model as d
from modeler.simulation.expectations import Verdict
from modeler.simulation.requests import cli_command


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
