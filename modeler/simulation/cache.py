"""Simulations kept in memory between requests, keyed by the design's
content and the seed, so the pattern results of one page share one loaded
table. Each entry has a lock: write patterns change the table while they
run (and put it back afterwards)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict

from modeler.design import Design, thaw
from modeler.designfile import dump_design
from modeler.simulation.simulate import Simulation

MAX_ENTRIES = 4

_entries: OrderedDict[str, tuple[Simulation, threading.Lock]] = OrderedDict()
_guard = threading.Lock()
# A lock per simulation being built, held while it is built.
_building: dict[str, threading.Lock] = {}


def design_digest(design: Design) -> str:
    """The design's content: its YAML without the user's items, which are
    hashed as JSON (dumping thousands of items as YAML takes seconds)."""
    bare = dataclasses.replace(
        design, sample_data=dataclasses.replace(design.sample_data, items=())
    )
    digest = hashlib.sha256(dump_design(bare).encode())
    items = json.dumps(thaw(design.sample_data.items), sort_keys=True)
    digest.update(items.encode())
    return digest.hexdigest()


def cached_simulation(
    design: Design, *, seed: int | None = None
) -> tuple[Simulation, threading.Lock]:
    """The design's simulation, built once however many requests ask for it
    at the same time (a page asks once per access pattern): the first
    builds it, the others wait for it rather than build it again."""
    key = f"{design_digest(design)}:{seed}"
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
            entry = (Simulation(design, seed=seed), threading.Lock())
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
