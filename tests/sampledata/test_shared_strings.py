"""A generation's items share one string where two entities' key templates
make the same key: an order's "ORDER#{orderId}" is its line items' key."""

from __future__ import annotations

from modeler.sampledata import generate
from tests.sampledata.helpers import example


def test_line_items_and_orders_share_their_key_strings():
    data = generate(example("order-management"), items=3000)
    entities = list(zip(data.items, data.entities, strict=True))
    orders = {item["orderId"]: item for item, entity in entities if entity == "Order"}
    customers = {
        item["customerId"]: item for item, entity in entities if entity == "Customer"
    }
    lines = [item for item, entity in entities if entity == "LineItem"]

    assert lines and orders
    for line in lines:
        order = orders[line["orderId"]]
        assert line["PK"] == f"ORDER#{line['orderId']}"
        assert line["PK"] is order["GSI3PK"]
        assert line["GSI3PK"] is order["GSI3PK"]
    for order in orders.values():
        assert order["PK"] is customers[order["customerId"]]["PK"]
