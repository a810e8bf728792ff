"""Design reviews made by the simulation jobs, shared by every web and
worker process through Django's cache (Redis or a table of the database,
settings.CACHES), with the last few kept in this process as well. A review
is kept under a key of what it depends on: the design's content, the
prices and the stored item count."""

from __future__ import annotations

import hashlib

from django.core.cache import cache

from modeler.design import model as d
from modeler.infra.lru import Kept
from modeler.jobs.pickling import dumps, loads
from modeler.review.prices import Prices
from modeler.review.review import Review
from modeler.simulation.cache import design_digest

# Reviews kept in this process as well.
_kept: Kept[Review] = Kept(8)


def review_key(design: d.Design, prices: Prices, stored_items: int | None) -> str:
    parts = f"{design_digest(design)}:{prices!r}:{stored_items}"
    return hashlib.sha256(parts.encode()).hexdigest()


def review_stored(key: str) -> Review | None:
    """The review kept under `key`, by this process or another; None if
    none has been made (or the cache dropped it)."""
    review = _kept.get(key)
    if review is not None:
        return review
    data = cache.get(_cache_key(key))
    if data is None:
        return None
    review = loads(data)
    _kept.put(key, review)
    return review


def review_store(key: str, review: Review) -> None:
    _kept.put(key, review)
    cache.set(_cache_key(key), dumps(review))


def forget_reviews() -> None:
    """Drops the reviews this process keeps (not the shared cache's)."""
    _kept.clear()


def _cache_key(key: str) -> str:
    return f"review:{key}"
