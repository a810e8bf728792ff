"""Capacity units, by DynamoDB's documented rules, and the ConsumedCapacity
element of responses.

Reads: 1 RCU reads up to 4 KB strongly consistent; eventually consistent
reads cost half, transactional reads twice. GetItem and each BatchGetItem
item round their own size up to 4 KB (a missing item still costs the
minimum); a Query or Scan page sums the sizes of every entry it read, before
any filter or projection, and rounds once.

Writes: 1 WCU writes up to 1 KB, rounded up per item, on the larger of the
old and the new item; transactional writes cost twice. Every index the write
changes costs its own units on the size of its entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

READ_UNIT = 4096
WRITE_UNIT = 1024
EVENTUAL = 0.5
STRONG = 1.0
TRANSACTIONAL = 2.0


def read_units(size: int, factor: float) -> float:
    """Units to read `size` bytes in one rounding: at least one unit."""
    return max(1, -(-size // READ_UNIT)) * factor


def write_units(size: int) -> int:
    """Units to write an item (or index entry) of `size` bytes: at least one."""
    return max(1, -(-size // WRITE_UNIT))


@dataclass
class Consumed:
    """Units one request consumed on one table and its indexes."""

    table_name: str
    write: bool
    table: float = 0.0
    global_indexes: dict[str, float] = field(default_factory=dict)
    local_indexes: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return (
            self.table
            + sum(self.global_indexes.values())
            + sum(self.local_indexes.values())
        )

    def add(self, other: Consumed) -> None:
        self.table += other.table
        for mine, theirs in (
            (self.global_indexes, other.global_indexes),
            (self.local_indexes, other.local_indexes),
        ):
            for name, units in theirs.items():
                mine[name] = mine.get(name, 0.0) + units

    def scaled(self, factor: float) -> Consumed:
        return Consumed(
            self.table_name,
            self.write,
            self.table * factor,
            {k: v * factor for k, v in self.global_indexes.items()},
            {k: v * factor for k, v in self.local_indexes.items()},
        )

    def response(
        self, mode: str | None, *, transaction: bool = False
    ) -> dict[str, Any] | None:
        """The ConsumedCapacity element for ReturnConsumedCapacity=`mode`.

        DynamoDB gives CapacityUnits everywhere; ReadCapacityUnits or
        WriteCapacityUnits beside them only in the responses of
        TransactGetItems and TransactWriteItems (`transaction`)."""
        if mode not in ("TOTAL", "INDEXES"):
            return None
        kind = "WriteCapacityUnits" if self.write else "ReadCapacityUnits"

        def capacity(units: float) -> dict[str, float]:
            units = float(units)
            return (
                {"CapacityUnits": units, kind: units}
                if transaction
                else {"CapacityUnits": units}
            )

        out: dict[str, Any] = {"TableName": self.table_name, **capacity(self.total)}
        if mode == "INDEXES":
            out["Table"] = capacity(self.table)
            if self.global_indexes:
                out["GlobalSecondaryIndexes"] = {
                    name: capacity(u) for name, u in self.global_indexes.items()
                }
            if self.local_indexes:
                out["LocalSecondaryIndexes"] = {
                    name: capacity(u) for name, u in self.local_indexes.items()
                }
        return out
