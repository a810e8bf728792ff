"""The cyclic garbage collector kept off a command's simulation."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def heap_frozen() -> Iterator[None]:
    """The objects there are now (a built simulation's million items and
    their tables) left out of every collection while the command runs its
    patterns and reviews the design, which make and drop many objects:
    each collection of the older generations walked the items again (0.76
    s of a check of a million items, in 857 collections). The objects made
    meanwhile are collected as usual, so the garbage cycles of the runs do
    not pile up (pausing the collector instead kept them, and the
    generation's own, 16 MB more at 700k items)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def collector_off_while_built() -> Iterator[None]:
    """The cyclic garbage collector off while a command builds its
    simulation, and the objects there are then left out of the collections
    that follow (`gc.freeze`: a simulation's items and tables hold no
    cycles). The generation and the load turn the collector off for
    themselves; the first collections after each of them walked the
    million items just made (0.17 s of a check of a million items). A
    later `heap_frozen` ends with `gc.unfreeze`, which hands them back to
    the collector, as the oldest objects; a build that fails freezes
    nothing."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if collecting:
            gc.enable()
