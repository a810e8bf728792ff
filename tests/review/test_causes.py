"""A broken promise names its cause in its first sentence, then the fix
that removes it: dates written MM/DD/YYYY in a sort key, a Limit that
DynamoDB applies before the filter, a begins_with prefix that another
entity's keys begin with too. A request DynamoDB runs is not said to be
refused."""

from __future__ import annotations

from tests.review.helpers import only, review

US_DATES = """
entities:
  Order:
    attributes:
      customerId: {type: S, generator: {choice: [c1, c2, c3]}}
      orderId: {type: S, generator: uuid}
      orderDate: {type: S, generator: {faker: {provider: date, pattern: "%m/%d/%Y"}}}
      placedAt: {type: S, generator: {timestamp: {from: 2025-01-01, to: 2025-12-31}}}
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER#{orderDate}#{orderId}"}
    sample: {count: 60}
access_patterns:
  - name: Orders of a customer, newest first
    operation: Query
    key: {PK: "CUSTOMER#{customerId}", SK: {begins_with: "ORDER#"}}
    scan_forward: false
    expects: {entity: Order, where: {customerId: "{customerId}"}, order_by: [-ORDERED]}
    traffic: {rps: 5, peak_rps: 10}
"""


def test_mm_dd_yyyy_dates_in_a_sort_key_are_named_as_the_cause() -> None:
    found = only(review(US_DATES.replace("ORDERED", "orderDate")), "date-not-iso")
    # A pattern reads the key newest first: the order it gets is wrong.
    assert found.severity == "error"
    assert found.message == "MM/DD/YYYY dates in a sort key do not sort in time order"
    assert found.why.startswith(
        "orderDate is written MM/DD/YYYY, which is not lexicographically ordered"
    )
    assert found.fix.startswith("Write orderDate in ISO 8601 (YYYY-MM-DD")


def test_a_wrong_order_names_the_dates_of_the_sort_key() -> None:
    # The pattern promises the orders by the time they were placed; the
    # sort key orders them by the text of their dates.
    found = only(review(US_DATES.replace("ORDERED", "placedAt")), "pattern-fails")
    assert any(line.startswith("wrong order") for line in found.evidence)
    assert found.why.startswith(
        "The sort key SK 'ORDER#{orderDate}#{orderId}' orders by orderDate, and "
        "orderDate is written MM/DD/YYYY, which is not lexicographically ordered"
    )
    assert "ISO 8601" in found.fix


LIMITED = """
entities:
  Ticket:
    attributes:
      queue: {type: S, generator: {choice: [q1, q2]}}
      ticketId: {type: S, generator: uuid}
      status: {type: S, generator: {choice: {OPEN: 1, CLOSED: 3}}}
    keys: {PK: "QUEUE#{queue}", SK: "TICKET#{ticketId}"}
    sample: {count: 80}
access_patterns:
  - name: Open tickets of a queue
    operation: Query
    key: {PK: "QUEUE#{queue}", SK: {begins_with: "TICKET#"}}
    filter: "status = OPEN"
    limit: 10
    expects: {entity: Ticket, where: {queue: "{queue}", status: OPEN}}
    traffic: {rps: 5, peak_rps: 10}
"""


def test_limit_with_a_filter_names_limit_before_the_filter() -> None:
    found = only(review(LIMITED), "pattern-fails")
    assert found.why.startswith(
        "Limit applies before the filter expression: DynamoDB reads 10 items, "
        "then the filter 'status = OPEN' drops the ones that fail it"
    )
    assert found.fix.startswith("Move what the filter tests into the key condition")
    assert "drop Limit and read pages" in found.fix


SHARED_PREFIX = """
entities:
  Order:
    attributes:
      customerId: {type: S, generator: {choice: [c1, c2, c3]}}
      orderId: {type: S, generator: uuid}
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER{orderId}"}
    sample: {count: 30}
  OrderItem:
    attributes:
      customerId: {type: S, generator: {ref: Order.customerId}}
      orderId: {type: S, generator: {ref: Order.orderId}}
      itemId: {type: S, generator: uuid}
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDERITEM#{orderId}#{itemId}"}
    sample: {per: Order, count: 2}
access_patterns:
  - name: Orders of a customer
    operation: Query
    key: {PK: "CUSTOMER#{customerId}", SK: {begins_with: "ORDER"}}
    expects: {entity: Order, where: {customerId: "{customerId}"}}
    traffic: {rps: 5, peak_rps: 10}
"""


def test_a_prefix_that_another_entity_begins_with_is_named() -> None:
    result = review(SHARED_PREFIX)
    # No theoretical collision: a UUID cannot be ITEM#...
    assert "key-collision" not in {f.code for f in result.findings}
    found = only(result, "pattern-fails")
    assert found.why.startswith(
        "begins_with 'ORDER' also reads OrderItem items: their SK "
        "'ORDERITEM#{orderId}#{itemId}' starts with 'ORDER' too"
    )
    assert found.fix.startswith(
        "End the prefix with a delimiter: key Order as 'ORDER#...' and query "
        "begins_with 'ORDER#'"
    )


def test_a_query_dynamodb_runs_is_not_said_to_be_refused() -> None:
    text = SHARED_PREFIX.replace('{begins_with: "ORDER"}', '{begins_with: "ORD#"}')
    found = only(review(text), "pattern-fails")
    assert "refuses" not in found.why
    assert found.message == "Orders of a customer reads none of the items it promises"
    assert "DynamoDB runs such a request and returns other items" in found.why


def test_a_request_dynamodb_refuses_is_said_to_be_refused() -> None:
    # BETWEEN's bounds the wrong way round: a ValidationException.
    text = SHARED_PREFIX.replace(
        '{begins_with: "ORDER"}', '{between: ["{high}", "{low}"]}'
    ).replace(
        "    traffic: {rps: 5, peak_rps: 10}\n",
        "    traffic: {rps: 5, peak_rps: 10}\n"
        "    parameters:\n"
        "      high: {type: S, example: ORDERZ}\n"
        "      low: {type: S, example: ORDERA}\n",
    )
    found = only(review(text), "pattern-fails")
    assert found.message == "Orders of a customer cannot run"
    assert found.why.startswith("DynamoDB refuses its request")
    assert "ValidationException" in found.why
