"""What the operations' modules (reads, writes, control) need of the
engine that runs them, as a Protocol: each operation takes the engine as an
argument and never imports engine.py, which imports the operations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from modeler.engine.streams import Stream
from modeler.engine.table import Table


class EngineState(Protocol):
    """The tables, the clocks, the remembered transaction tokens and the
    streams of an engine (engine.Engine is one)."""

    region: str
    tables: dict[str, Table]
    streams: list[Stream]
    clock: Callable[[], float]
    wall_clock: Callable[[], float]
    transaction_tokens: dict[str, tuple[str, float]]

    def table(self, name: Any) -> Table: ...

    def set_stream(self, table: Table, spec: dict[str, Any] | None) -> None: ...
