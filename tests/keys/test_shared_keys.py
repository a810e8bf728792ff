"""Keys that two entities' templates make alike are one string when the
entities' key writers share what they made, as a generation's writers do."""

from __future__ import annotations

from modeler.keys import key_writer
from tests.keys.factories import design, entity, gsi, table

SHOP = design(
    entity(
        "Order",
        {
            "PK": "CUST#{customerId}",
            "SK": "ORDER#{orderId}",
            "GSI1PK": "ORDER#{orderId}",
            "GSI1SK": "#ORDER",
        },
        ("customerId", "orderId"),
    ),
    entity(
        "LineItem",
        {
            "PK": "ORDER#{orderId}",
            "SK": "ITEM#{lineNo}",
            "GSI1PK": "ORDER#{orderId}",
            "GSI1SK": "ITEM#{lineNo}",
        },
        ("orderId", "lineNo"),
    ),
    on=table(gsi("GSI1", "GSI1PK", "GSI1SK")),
)


def _text(value: str) -> str:
    """An equal string, a new object (not the literal's)."""
    return "".join(list(value))


def test_a_key_two_entities_write_alike_is_the_string_the_first_made():
    made: dict[tuple[str, str], dict[str, str]] = {}
    order = {"customerId": "c1", "orderId": _text("o1")}
    key_writer(SHOP, "Order", made)(order)
    line = {"orderId": _text("o1"), "lineNo": "1"}
    key_writer(SHOP, "LineItem", made)(line)

    assert line["PK"] == line["GSI1PK"] == "ORDER#o1"
    assert line["PK"] is order["GSI1PK"]
    assert line["GSI1PK"] is order["GSI1PK"]
    # Only the templates two entities write are kept.
    assert set(made) == {("ORDER#{orderId}", "S")}


def test_writers_that_share_nothing_make_equal_keys_of_their_own():
    order = {"customerId": "c1", "orderId": _text("o1")}
    key_writer(SHOP, "Order")(order)
    line = {"orderId": _text("o1"), "lineNo": "1"}
    key_writer(SHOP, "LineItem")(line)

    assert line["PK"] == order["GSI1PK"]
    assert line["PK"] is not order["GSI1PK"]


def test_a_shared_key_is_never_another_values():
    made: dict[tuple[str, str], dict[str, str]] = {}
    write_order, write_line = (
        key_writer(SHOP, "Order", made),
        key_writer(SHOP, "LineItem", made),
    )
    orders = [{"customerId": "c1", "orderId": _text(f"o{n}")} for n in range(3)]
    for order in orders:
        write_order(order)
    lines = [{"orderId": _text(f"o{n % 3}"), "lineNo": str(n)} for n in range(7)]
    for line in lines:
        write_line(line)

    for line in lines:
        assert line["PK"] == f"ORDER#{line['orderId']}"
        assert line["PK"] is orders[int(line["orderId"][1:])]["GSI1PK"]
