"""A read access pattern stated by what it needs (no key yet), for the
tests of every part that meets one."""

from __future__ import annotations

from modeler.design import model as d


def orders_of_a_customer_needs(
    name: str = "Orders of a customer, newest first",
) -> d.AccessPattern:
    """The order-management example's newest orders of a customer, by need."""
    return d.AccessPattern(
        name,
        d.UNKEYED,
        limit=20,
        expects=d.Expectation(
            ("Order",),
            (d.Predicate("customerId", "=", ("{customerId}",)),),
            ("-orderDate",),
        ),
        traffic=d.Traffic(50, 400),
    )
