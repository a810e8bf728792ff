"""A key is compared with another by the shapes of the values it can hold:
a generated ISO-8601 timestamp starts with its year's digits, so it never
equals a literal sort key such as METADATA beside it in one partition."""

from __future__ import annotations

from modeler.design_check import check_design
from modeler.designfile import read_design
from tests.review.helpers import HEADER, design_from, review_of

CUSTOMER_AND_ORDERS = """\
entities:
  Customer:
    attributes:
      customerId: {type: S, generator: uuid}
      name: {type: S, generator: {faker: name}}
    keys: {PK: "CUSTOMER#{customerId}", SK: "METADATA"}
    sample: {count: 20}
  Order:
    attributes:
      customerId: {type: S, generator: {ref: Customer.customerId}}
      placedAt: {type: S, generator: GENERATOR}
      total: {type: N, generator: {int: {min: 1, max: 500}}}
    keys: {PK: "CUSTOMER#{customerId}", SK: "{placedAt}"}
    sample: {per: Customer, count: {uniform: {min: 1, max: 4}}}
access_patterns:
  - name: Customer profile
    operation: GetItem
    key: {PK: "CUSTOMER#{customerId}", SK: "METADATA"}
    expects: {entity: Customer, where: {customerId: "{customerId}"}}
    traffic: {rps: 2, peak_rps: 5}
"""

TIMESTAMP = '{timestamp: {from: "2025-01-01", to: "2025-12-31"}}'


def test_a_bare_timestamp_sort_key_beside_metadata_is_no_collision() -> None:
    design = design_from(CUSTOMER_AND_ORDERS.replace("GENERATOR", TIMESTAMP))
    review = review_of(design)
    assert "key-collision" not in {f.code for f in review.findings}
    assert not [f for f in check_design(design) if f.code == "key-collision"]


def test_a_bare_date_sort_key_beside_metadata_is_no_collision() -> None:
    design = design_from(
        CUSTOMER_AND_ORDERS.replace(
            "GENERATOR", '{date: {from: "2025-01-01", to: "2025-12-31"}}'
        )
    )
    assert "key-collision" not in {f.code for f in review_of(design).findings}


def test_free_text_in_the_same_place_can_collide() -> None:
    # A word can be METADATA: the put of such an order overwrites the
    # customer, and the design file is refused for it.
    result = read_design(
        HEADER + CUSTOMER_AND_ORDERS.replace("GENERATOR", "{faker: word}")
    )
    assert [p.code for p in result.problems if p.is_error] == ["key-collision"]


ORDERS_AND_LINES = """\
entities:
  Order:
    attributes:
      customerId: {type: S, generator: {choice: [c1, c2]}}
      orderId: {type: S, generator: ID}
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER#{orderId}"}
    sample: {count: 10}
  Line:
    attributes:
      customerId: {type: S, generator: {ref: Order.customerId}}
      orderId: {type: S, generator: {ref: Order.orderId}}
      lineId: {type: S, generator: ID}
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER#{orderId}#LINE#{lineId}"}
    sample: {per: Order, count: 2}
"""


def test_generated_ids_cannot_hold_the_separator_of_a_longer_key() -> None:
    # A UUID (hex and '-') or a ULID (Crockford's base32) never holds
    # '#LINE#': an order's key cannot be a line's.
    for generator in ("uuid", "ulid"):
        result = read_design(HEADER + ORDERS_AND_LINES.replace("ID", generator))
        assert result.design is not None, [str(p) for p in result.problems]


def test_free_text_ids_can() -> None:
    result = read_design(HEADER + ORDERS_AND_LINES.replace("ID", "{faker: word}"))
    assert [p.code for p in result.problems if p.is_error] == ["key-collision"]
