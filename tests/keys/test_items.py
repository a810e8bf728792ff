from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from modeler.keys import MissingValueError, key_renderer, key_values, key_writer
from tests.keys.factories import design, entity, gsi, table

ORDERS = design(
    entity(
        "Order",
        {
            "PK": "CUST#{customerId}",
            "SK": "ORDER#{orderDate}#{orderId}",
            "GSI1PK": ("OPEN", "status = OPEN"),
            "GSI1SK": ("{orderDate}#{orderId}", "status = OPEN"),
            "GSI2PK": "SHIPPED",
            "GSI2SK": "{shippedAt}",
            "Score": "{total}",
        },
        ("customerId", "orderId", "orderDate", "status", "shippedAt", "total:N"),
    ),
    on=table(
        gsi("GSI1", "GSI1PK", "GSI1SK"),
        gsi("GSI2", "GSI2PK", "GSI2SK"),
        gsi("ByTotal", "GSI1PK", "Score", sk_type="N"),
    ),
)
ORDER = {
    "customerId": "c1",
    "orderId": "o1",
    "orderDate": dt.date(2024, 3, 9),
    "total": Decimal("19.90"),
}


def test_every_key_of_an_item():
    values = {**ORDER, "status": "OPEN", "shippedAt": "2024-03-10"}
    assert key_values(ORDERS, "Order", values) == {
        "PK": "CUST#c1",
        "SK": "ORDER#2024-03-09#o1",
        "GSI1PK": "OPEN",
        "GSI1SK": "2024-03-09#o1",
        "GSI2PK": "SHIPPED",
        "GSI2SK": "2024-03-10",
        "Score": Decimal("19.90"),
    }


def test_keys_whose_condition_fails_are_left_out():
    keys = key_values(ORDERS, "Order", {**ORDER, "status": "CLOSED"})
    assert "GSI1PK" not in keys
    assert "GSI1SK" not in keys


def test_an_optional_attribute_left_out_keeps_the_item_out_of_the_index():
    keys = key_values(ORDERS, "Order", {**ORDER, "status": "OPEN"})
    assert "GSI2SK" not in keys
    assert keys["GSI1SK"] == "2024-03-09#o1"


def test_a_table_key_cannot_be_left_out():
    with pytest.raises(MissingValueError) as error:
        key_values(ORDERS, "Order", {"customerId": "c1"})
    assert error.value.attribute == "orderDate"


def test_unknown_entity():
    with pytest.raises(KeyError, match="no entity named 'Invoice'"):
        key_values(ORDERS, "Invoice", ORDER)


# Keys sharing a template with a key before them: GSI3SK with a key whose
# condition may fail, GSI4PK with a table key; Mirror places the attribute
# `GSI2PK`, the name of a key written before it.
SHARING = design(
    entity(
        "Order",
        {
            "PK": "CUST#{customerId}",
            "SK": "ORDER#{orderDate}#{orderId}",
            "GSI1PK": ("OPEN", "status = OPEN"),
            "GSI1SK": ("{orderDate}#{orderId}", "status = OPEN"),
            "GSI2PK": "SHIPPED",
            "GSI2SK": "{shippedAt}",
            "GSI3PK": "{status}",
            "GSI3SK": "{orderDate}#{orderId}",
            "GSI4PK": "CUST#{customerId}",
        },
        ("customerId", "orderId", "orderDate", "status", "shippedAt"),
    ),
    entity(
        "Mirror",
        {"PK": "M#{id}", "SK": "M", "GSI2PK": "X#{id}", "GSI2SK": "{GSI2PK}"},
        ("id", "GSI2PK"),
    ),
    on=table(
        gsi("GSI1", "GSI1PK", "GSI1SK"),
        gsi("GSI2", "GSI2PK", "GSI2SK"),
        gsi("GSI3", "GSI3PK", "GSI3SK"),
        gsi("GSI4", "GSI4PK", "SK"),
    ),
)


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("Order", {**ORDER, "status": "OPEN", "shippedAt": "2024-03-10"}),
        ("Order", {**ORDER, "status": "CLOSED"}),
        ("Order", {**ORDER, "status": "OPEN", "GSI2SK": "an attribute"}),
        ("Mirror", {"id": "m1", "GSI2PK": "from the item"}),
        ("Mirror", {"id": "m2"}),
    ],
)
def test_keys_written_into_the_item_are_the_keys_rendered(name, values):
    rendered = dict(values)
    rendered.update(key_renderer(SHARING, name)(values))
    written = dict(values)

    key_writer(SHARING, name)(written)

    assert list(written.items()) == list(rendered.items())


def test_a_table_key_cannot_be_left_out_of_the_keys_written():
    with pytest.raises(MissingValueError) as error:
        key_writer(SHARING, "Order")({"customerId": "c1"})
    assert error.value.attribute == "orderDate"
