"""Seeded Faker providers' values, kept for the process: sample data made
again (another count, an edit elsewhere in the design) takes them instead
of asking Faker, which costs seconds for a few providers."""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from modeler.sampledata.faker_arguments import value_size_problem
from modeler.sampledata.fakers import faker_class


@dataclass(frozen=True)
class FakerValueTooLarge:
    """A Faker value too large for an item, in its place in a pool."""

    problem: str


class FakerPool:
    """The values of one seeded Faker provider, made on demand (a Compiler
    asks for at most FAKER_POOL) and kept for the process. The values are
    the ones a fresh, identically seeded Faker gives, in the same order."""

    def __init__(self, method: Callable[..., Any], kwargs: dict[str, Any]) -> None:
        self.method = method
        self.kwargs = kwargs
        self.values: list[Any] = []
        self.lock = threading.Lock()

    def value(self, n: int) -> Any:
        """The n-th value (n at most the number made so far)."""
        if n < len(self.values):
            return self.values[n]
        with self.lock:
            while len(self.values) <= n:
                try:
                    value = plain_value(self.method(**self.kwargs))
                except Exception:
                    # Faker's state is past the failed call: a fresh pool
                    # fails again where a fresh Faker would.
                    _forget_faker_pool(self)
                    raise
                if too_large := value_size_problem(value):
                    value = FakerValueTooLarge(too_large)
                self.values.append(value)
            return self.values[n]


FAKER_POOLS: OrderedDict[tuple[str, str, str], FakerPool] = OrderedDict()
_FAKER_POOLS_LOCK = threading.Lock()
# Seeded providers whose pools are kept (the last used).
FAKER_POOLS_KEPT = 64


def _forget_faker_pool(pool: FakerPool) -> None:
    with _FAKER_POOLS_LOCK:
        for key, kept in list(FAKER_POOLS.items()):
            if kept is pool:
                del FAKER_POOLS[key]


def faker_pool(seed: str, provider: str, kwargs: dict[str, Any]) -> FakerPool | None:
    """The pool of `provider` seeded by `seed`, None when Faker has no such
    provider."""
    key = (seed, provider, repr(sorted(kwargs.items())))
    with _FAKER_POOLS_LOCK:
        pool = FAKER_POOLS.get(key)
        if pool is not None:
            FAKER_POOLS.move_to_end(key)
            return pool
    fake = faker_class()("en_US")
    fake.seed_instance(seed)
    method = getattr(fake, provider, None)
    if not callable(method):
        return None
    pool = FakerPool(method, kwargs)
    with _FAKER_POOLS_LOCK:
        pool = FAKER_POOLS.setdefault(key, pool)
        FAKER_POOLS.move_to_end(key)
        while len(FAKER_POOLS) > FAKER_POOLS_KEPT:
            FAKER_POOLS.popitem(last=False)
    return pool


def plain_value(value: Any) -> Any:
    """A Faker result as a native DynamoDB value."""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return Decimal(str(value))
    if isinstance(value, (str, Decimal, bytes, list, dict)):
        return value
    if isinstance(value, (tuple, set)):
        return [plain_value(v) for v in value]
    return str(value)
