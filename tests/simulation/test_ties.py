"""Items whose ordering attributes are equal may come back in any order
among themselves: a Query returns them by the rest of its sort key."""

from __future__ import annotations

from modeler.design import model as d
from modeler.simulation.expectations import judge_read, order_places

EXPECTS = d.Expectation(entities=("Loan",), order_by=("dueOn",))
ITEMS = [
    {"id": "a", "dueOn": "2026-07-01"},
    {"id": "b", "dueOn": "2026-07-02"},
    {"id": "c", "dueOn": "2026-07-02"},
    {"id": "d", "dueOn": "2026-07-03"},
]


def judged(returned: list[str], limit: int | None = None):
    positions = [0, 1, 2, 3]  # the expected order, ties as the data set has them
    places = order_places(EXPECTS, ITEMS, positions)
    expected = [ITEMS[i]["id"] for i in positions]
    return judge_read(
        expects=EXPECTS,
        limit=limit,
        expected=expected,
        returned=returned,
        entity_of={k: "Loan" for k in returned},
        pages=1,
        scanned=len(returned),
        ties=dict(zip(expected, places, strict=True)),
    )


def test_equal_due_dates_in_either_order_pass():
    assert judged(["a", "c", "b", "d"]).passed


def test_a_due_date_out_of_order_is_still_wrong():
    verdict = judged(["a", "d", "b", "c"])
    assert verdict.broken == ("wrong order: expected by dueOn",)


def test_a_limit_may_end_on_either_of_two_equal_due_dates():
    assert judged(["a", "c"], limit=2).passed
    assert judged(["a", "b"], limit=2).passed
    assert not judged(["a", "d"], limit=2).passed
