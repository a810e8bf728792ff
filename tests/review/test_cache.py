"""Reviews are cached by design, prices and item count; new prices reuse
the design's simulated pattern runs."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from modeler.review import cache
from modeler.review.prices import DOCUMENTED_PRICES
from tests.review.helpers import design_from

DESIGN = """
entities:
  Thing:
    attributes: {id: {type: S, generator: ulid}}
    keys: {PK: "T#{id}", SK: "THING"}
    sample: {count: 5}
access_patterns:
  - name: Get a thing
    operation: GetItem
    key: {PK: "T#{id}", SK: "THING"}
    expects: {entity: Thing, where: {id: "{id}"}}
    traffic: {rps: 10, peak_rps: 20}
"""


def test_new_prices_reuse_the_pattern_runs(monkeypatch):
    design = design_from(DESIGN.replace("Get a thing", "Get a cached thing"))
    calls = []
    real = cache.run_patterns
    monkeypatch.setattr(
        cache, "run_patterns", lambda simulation: calls.append(1) or real(simulation)
    )
    first = cache.cached_review(design, prices=DOCUMENTED_PRICES)
    assert cache.cached_review(design, prices=DOCUMENTED_PRICES) is first
    dearer = dataclasses.replace(
        DOCUMENTED_PRICES, read_request_per_million=Decimal("0.25")
    )
    second = cache.cached_review(design, prices=dearer, stored_items=10)
    assert len(calls) == 1
    assert second.cost.on_demand_read == 2 * first.cost.on_demand_read
    assert second.cost.stored_items == 10
