"""Diagrams kept in memory between requests, keyed by the design's content
(its YAML and the user's items, see `modeler.simulation.cache`) and what
was asked for, so a review session flips between diagrams instantly. A
failed render is not kept: the next request tries again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from modeler.simulation.cache import design_digest

__all__ = ["cached", "clear", "design_digest"]

MAX_ENTRIES = 256
MAX_BYTES = 64 * 1024 * 1024

T = TypeVar("T")

_entries: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
_guard = threading.Lock()
_total = 0


def _size(value: object) -> int:
    if isinstance(value, (bytes, str)):
        return len(value)
    return 1024


def cached(key: Hashable, build: Callable[[], T]) -> T:
    """The value kept under `key`, or `build()` kept under it."""
    global _total
    with _guard:
        entry = _entries.get(key)
        if entry is not None:
            _entries.move_to_end(key)
            return entry[0]  # type: ignore[return-value]  # what build() of key gave
    # Built outside the guard: other diagrams need not wait for this one.
    value = build()
    size = _size(value)
    with _guard:
        if key not in _entries:
            _entries[key] = (value, size)
            _total += size
        _entries.move_to_end(key)
        while _entries and (len(_entries) > MAX_ENTRIES or _total > MAX_BYTES):
            _, (_, dropped) = _entries.popitem(last=False)
            _total -= dropped
        kept = _entries[key][0] if key in _entries else value
        return kept  # type: ignore[return-value]  # what build() of key gave


def clear() -> None:
    global _total
    with _guard:
        _entries.clear()
        _total = 0
