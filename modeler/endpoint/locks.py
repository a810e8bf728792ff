"""Locks per table, under one lock for the whole engine.

An item operation holds the locks of the tables it touches (in name order,
so two transactions over the same tables cannot wait on each other), so
clients of different tables run side by side. Anything else (creating,
changing or deleting a table, PartiQL, streams, the TTL sweep, a checkpoint)
holds the whole engine: it waits for the item operations under way and
keeps new ones waiting until it is done. A waiting whole-engine operation
goes before item operations that arrive after it, so a stream of writes
cannot starve it.

    locks = TableLocks()
    held = locks.hold({"Orders", "Customers"}, tables.__contains__)
    ...
    locks.release(held)
    with locks:  # the whole engine
        ...
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import Any


class TableLocks:
    def __init__(self) -> None:
        # The condition's own lock, taken directly (a C call) on the item
        # operations' path, where the condition's Python-level enter and
        # exit cost a fifth of a GetItem; waits still go through the
        # condition.
        self._mutex = threading.Lock()
        self._state = threading.Condition(self._mutex)
        self._running = 0  # item operations holding their tables
        self._whole = False
        self._whole_waiting = 0
        self._tables: dict[str, threading.Lock] = {}

    def __enter__(self) -> TableLocks:
        with self._state:
            self._whole_waiting += 1
            while self._whole or self._running:
                self._state.wait()
            self._whole_waiting -= 1
            self._whole = True
        return self

    def __exit__(self, *exc: Any) -> None:
        with self._state:
            self._whole = False
            self._state.notify_all()

    def hold(
        self, names: Collection[str], exists: Callable[[str], bool]
    ) -> list[threading.Lock] | None:
        """Take the locks of `names` when `exists` says each is a table
        (checked while no table can be created or deleted) and return them
        for `release`; None, holding nothing, otherwise (the caller then
        takes the whole engine: a lock is kept only for a table that
        exists). Not a context manager: it runs on every request."""
        with self._mutex:
            while self._whole or self._whole_waiting:
                self._state.wait()
            if not names:
                return None
            tables = self._tables
            if len(names) == 1:  # most operations: one table, no sorting
                (name,) = names
                if not exists(name):
                    return None
                held = [tables.get(name) or tables.setdefault(name, threading.Lock())]
            else:
                for name in names:
                    if not exists(name):
                        return None
                held = [
                    tables.get(name) or tables.setdefault(name, threading.Lock())
                    for name in sorted(names)
                ]
            self._running += 1
        for lock in held:
            lock.acquire()
        return held

    def release(self, held: list[threading.Lock]) -> None:
        for lock in reversed(held):
            lock.release()
        with self._mutex:
            self._running -= 1
            if not self._running and self._whole_waiting:
                self._state.notify_all()

    def forget(self, name: str) -> None:
        """Drop a deleted table's lock (called holding the whole engine)."""
        self._tables.pop(name, None)
