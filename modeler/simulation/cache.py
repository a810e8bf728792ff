"""Simulations kept in memory between requests, keyed by the design's
content and the seed, so the pattern results of one page share one loaded
table. Each entry has a lock: write patterns change the table while they
run (and put it back afterwards)."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable

from modeler.design.model import Design
from modeler.simulation.simulate import Simulation

MAX_ENTRIES = 4

_entries: OrderedDict[str, tuple[Simulation, threading.Lock]] = OrderedDict()
_guard = threading.Lock()
# A lock per simulation being built, held while it is built.
_building: dict[str, threading.Lock] = {}


def design_digest(design: Design) -> str:
    """The design's content (see `Design.digest`)."""
    return design.digest


def data_digest(design: Design) -> str:
    """What the sample data and the loaded table depend on: the table, the
    entities (not their descriptions) and the sample settings with the
    user's own items. Editing an access pattern, its traffic or its
    expectation, or a description, leaves it unchanged, so the loaded
    table is reused."""
    entities = tuple(
        dataclasses.replace(
            entity,
            description="",
            attributes=tuple(
                dataclasses.replace(a, description="") for a in entity.attributes
            ),
        )
        for entity in design.entities
    )
    parts = (design.table, entities, design.sample_data)
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def cached_simulation(
    design: Design,
    *,
    seed: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[Simulation, threading.Lock]:
    """The design's simulation, built once however many requests ask for it
    at the same time (a page asks once per access pattern): the first
    builds it, the others wait for it rather than build it again. It is
    shared by every version of the design with the same data (`data_digest`),
    so its own `design` may be another version's: callers run the patterns
    of the design they hold. `progress` is told how the build goes, when
    this call builds it (see Simulation); it may raise to stop the build."""
    key = f"{data_digest(design)}:{seed}"
    with _guard:
        entry = _entries.get(key)
        if entry is not None:
            _entries.move_to_end(key)
            return entry
        building = _building.setdefault(key, threading.Lock())
    # Built outside the guard: other designs need not wait for this one.
    with building:
        with _guard:
            entry = _entries.get(key)
            if entry is not None:
                return entry
        try:
            entry = (Simulation(design, seed=seed, progress=progress), threading.Lock())
        except BaseException:
            with _guard:
                _building.pop(key, None)
            raise
        with _guard:
            _entries[key] = entry
            _building.pop(key, None)
            while len(_entries) > MAX_ENTRIES:
                _entries.popitem(last=False)
    return entry


def forget_simulations() -> None:
    """Drops every kept simulation (tests that count builds start here)."""
    with _guard:
        _entries.clear()
