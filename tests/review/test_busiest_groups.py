"""The busiest key of a home whose streams' keys fall in groups that share
none (an order's line items keyed by order, the orders by customer): found
among the streams' top keys and proven against each group's bound, without
the pass over every key, and the same key that pass finds; streams that
share keys are bounded together."""

from __future__ import annotations

from collections import Counter

from modeler.review.checks.partitions import Loads, Stream
from modeler.review.evidence import _top


def _stream(position: int, counts: dict[str, int], units: float) -> Stream:
    kept = Counter(counts)
    return Stream(position, False, units, 1.0, kept, _top(kept, 200))


def _loads(*streams: Stream) -> Loads:
    loads = Loads(None)  # type: ignore[arg-type]  # the streams are given
    loads.__dict__["streams"] = {"table": list(streams)}
    return loads


def _writes(load):  # type: ignore[no-untyped-def]
    return load.write


# 300 customers with one to three orders each (200 of them at least two),
# and one with 50; 300 orders with 5 line items each: past 200 keys,
# neither stream's top holds all its keys.
CUSTOMERS = {f"C#{n:03}": 1 + n % 3 for n in range(300)} | {"C#150": 50}
ORDERS = {f"O#{n:03}": 5 for n in range(300)}


def test_groups_that_share_no_key_are_bounded_apart():
    loads = _loads(_stream(0, CUSTOMERS, 1.0), _stream(1, ORDERS, 9.8))
    # Bounded together (a key in both streams at each one's last top
    # count: 2 + 9.8 * 5 = 51 units) the customer's 50 is not proven the
    # largest; bounded apart (2, and 49) it is.
    key, load = loads.busiest("table", _writes)
    assert (key, load.write) == ("C#150", 50.0)
    assert "table" not in loads._kept_totals  # no pass over every key
    assert loads._best("table", None, _writes) == (key, load)


def test_streams_that_share_a_key_are_bounded_together():
    # A third stream of 300 keys written twice each at 24 units (48 a key).
    others = {f"D#{n:03}": 2 for n in range(300)}
    apart = _loads(
        _stream(0, CUSTOMERS, 1.0),
        _stream(1, ORDERS, 9.8),
        _stream(2, others, 24.0),
    )
    assert apart.busiest("table", _writes)[0] == "C#150"
    assert "table" not in apart._kept_totals
    # With one customer's key among its keys, it is in the customers'
    # group, whose bound (2 + 48 = 50) the customer's 50 does not beat:
    # every key is passed over, which finds the same key.
    shared = _loads(
        _stream(0, CUSTOMERS, 1.0),
        _stream(1, ORDERS, 9.8),
        _stream(2, others | {"C#000": 1}, 24.0),
    )
    key, load = shared.busiest("table", _writes)
    assert "table" in shared._kept_totals
    assert key == "C#150"
    assert (key, load) == shared._best("table", None, _writes)
