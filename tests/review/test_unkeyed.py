"""The review of a design with patterns stated by what they need: each is
a finding that says it has no key yet, whether or not the sample data can
be made."""

from __future__ import annotations

import dataclasses

from modeler.review import review_design
from modeler.review.prices import DOCUMENTED_PRICES
from tests.review.helpers import design_from, review_of

ORDERS = """\
entities:
  Order:
    attributes:
      customerId: {type: S, generator: ulid}
      orderId: {type: S, generator: ulid}
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderId}"}
access_patterns:
  - name: Orders of a customer
    operation: Query
    key: {PK: "CUST#{customerId}"}
    expects: {entity: Order, where: {customerId: "{customerId}"}}
    traffic: {rps: 5}
  - name: Orders by id
    needs: {entity: Order, where: {orderId: "{orderId}"}}
    traffic: {rps: 20, peak_rps: 50}
"""


def test_an_unkeyed_pattern_is_an_error_finding_that_it_has_no_key_yet():
    review = review_of(design_from(ORDERS))
    (unkeyed,) = [f for f in review.findings if f.location.name == "Orders by id"]
    assert (unkeyed.code, unkeyed.severity, unkeyed.message) == (
        "pattern-fails",
        "error",
        "Orders by id has no key yet",
    )
    assert "Propose keys" in unkeyed.fix
    (cost,) = [c for c in review.cost.patterns if c.name == "Orders by id"]
    assert (cost.operation, cost.units) == ("no key yet", None)


def test_without_keys_the_review_says_why_it_did_not_simulate():
    design = design_from(ORDERS)
    keyless = dataclasses.replace(
        design,
        entities=tuple(dataclasses.replace(e, keys={}) for e in design.entities),
        access_patterns=design.access_patterns[1:],
    )
    review = review_design(
        keyless,
        prices=DOCUMENTED_PRICES,
        simulation_problem="the sample data cannot be made: Order has no table key",
    )
    assert [f.message for f in review.findings if f.code == "pattern-fails"] == [
        "Orders by id has no key yet"
    ]
