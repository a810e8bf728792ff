"""Simulations kept in memory between requests, keyed by the design's
content and the seed, so the pattern results of one page share one loaded
table. Each entry has a lock: write patterns change the table while they
run (and put it back afterwards)."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from modeler.design import Design
from modeler.designfile import dump_design
from modeler.simulation.simulate import Simulation

MAX_ENTRIES = 4

_entries: OrderedDict[str, tuple[Simulation, threading.Lock]] = OrderedDict()
_guard = threading.Lock()


def design_digest(design: Design) -> str:
    return hashlib.sha256(dump_design(design).encode()).hexdigest()


def cached_simulation(
    design: Design, *, seed: int | None = None
) -> tuple[Simulation, threading.Lock]:
    key = f"{design_digest(design)}:{seed}"
    with _guard:
        entry = _entries.get(key)
        if entry is not None:
            _entries.move_to_end(key)
            return entry
    # Built outside the guard: other designs need not wait for this one.
    entry = (Simulation(design, seed=seed), threading.Lock())
    with _guard:
        entry = _entries.setdefault(key, entry)
        _entries.move_to_end(key)
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)
    return entry
