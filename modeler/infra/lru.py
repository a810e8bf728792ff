"""A few values kept in this process by key, the least recently used
dropped first, safe to share between threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Kept(Generic[T]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, T] = OrderedDict()
        self._guard = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._guard:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: T) -> None:
        with self._guard:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._guard:
            self._entries.clear()
