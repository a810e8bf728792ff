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
        cache,
        "run_patterns",
        lambda simulation, patterns: calls.append(1) or real(simulation, patterns),
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


def test_two_versions_with_the_same_data_are_reviewed_each_with_its_patterns():
    """One loaded table serves both versions; each review runs its own
    version's patterns, whichever asked for the table last."""
    from pathlib import Path

    from modeler.designfile import read_design
    from modeler.simulation.cache import cached_simulation

    examples = Path(__file__).resolve().parents[2] / "examples"
    social = read_design((examples / "social-graph.yaml").read_text()).design
    # A seed of its own: data no other test has loaded.
    design = dataclasses.replace(
        social, sample_data=dataclasses.replace(social.sample_data, seed=424_242)
    )
    fewer = dataclasses.replace(design, access_patterns=design.access_patterns[:2])
    simulation, _ = cached_simulation(fewer)
    assert cached_simulation(design)[0] is simulation
    assert len(simulation.design.access_patterns) == 2
    review = cache.cached_review(design, prices=DOCUMENTED_PRICES)
    assert review.passed == len(design.access_patterns)
    assert len(review.cost.patterns) == len(design.access_patterns)
