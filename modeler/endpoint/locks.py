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
    with locks.tables({"Orders", "Customers"}):
        ...
    with locks:  # the whole engine
        ...
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any


class TableLocks:
    def __init__(self) -> None:
        self._state = threading.Condition()
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

    @contextmanager
    def tables(
        self, names: Collection[str], exists: Callable[[str], bool]
    ) -> Iterator[bool]:
        """Hold the locks of `names`, and yield True, when `exists` says each
        is a table (checked while no table can be created or deleted);
        otherwise hold nothing and yield False (the caller then takes the
        whole engine: a lock is kept only for a table that exists)."""
        with self._state:
            while self._whole or self._whole_waiting:
                self._state.wait()
            if not names or not all(exists(name) for name in names):
                held = []
            else:
                held = [
                    self._tables.setdefault(name, threading.Lock())
                    for name in sorted(names)
                ]
                self._running += 1
        if not held:
            yield False
            return
        try:
            for lock in held:
                lock.acquire()
            try:
                yield True
            finally:
                for lock in reversed(held):
                    lock.release()
        finally:
            with self._state:
                self._running -= 1
                if not self._running:
                    self._state.notify_all()

    def forget(self, name: str) -> None:
        """Drop a deleted table's lock (called holding the whole engine)."""
        self._tables.pop(name, None)
