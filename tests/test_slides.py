"""What a presentation slide holds is bounded, so that it fits one screen:
a request on at most so many lines of so many characters, an item
collection in at most so many rows with every returned item kept near the
top and the rest counted."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from modeler.presenters import SlideRow, collection_rows, request_lines

GET_ITEM = {
    "Key": {"PK": {"S": "CUST#01JPKY4DHHSFVZV1QT52YG2H1Y"}, "SK": {"S": "PROFILE"}},
}


def test_a_request_is_json_with_small_objects_on_one_line():
    assert request_lines(GET_ITEM) == [
        "{",
        '  "Key": {',
        '    "PK": {"S": "CUST#01JPKY4DHHSFVZV1QT52YG2H1Y"},',
        '    "SK": {"S": "PROFILE"}',
        "  }",
        "}",
    ]


def test_a_long_line_is_broken_under_itself_and_the_rest_counted():
    request = {
        "KeyConditionExpression": "#PK = :PK AND begins_with(#SK, :SK)",
        **{f"Name{i}": i for i in range(30)},
    }
    lines = request_lines(request, width=40, max_lines=8)
    assert lines[1] == '  "KeyConditionExpression": "#PK = :PK A'
    assert lines[2] == '      ND begins_with(#SK, :SK)",'
    assert len(lines) == 8 and lines[-1] == "… 27 more lines"


@given(
    st.recursive(
        st.one_of(st.text(max_size=80), st.integers(), st.booleans()),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.text(max_size=20), inner, max_size=4)
        ),
        max_leaves=30,
    ),
    st.integers(min_value=20, max_value=80),
    st.integers(min_value=2, max_value=20),
)
def test_no_request_passes_its_bounds(request, width, max_lines):
    lines = request_lines(request, width=width, max_lines=max_lines)
    assert len(lines) <= max_lines
    assert all(len(line) <= width for line in lines)
    if len(lines) < max_lines and all(len(line) < width for line in lines):
        # All of it, no line broken: the lines are the request's JSON.
        assert json.loads("\n".join(lines)) == request


def _rows(returned: set[int], total: int) -> list[tuple[dict, bool]]:
    return [
        ({"entity": "Order", "colour": 1, "sort_key": f"ORDER#{i:02d}"}, i in returned)
        for i in range(total)
    ]


def test_items_not_returned_around_the_returned_one_are_counted():
    rows = collection_rows(_rows({19}, 20))
    assert rows == [
        SlideRow(skipped=18),
        SlideRow("Order", 1, "ORDER#18"),
        SlideRow("Order", 1, "ORDER#19", returned=True),
    ]


def test_the_items_before_and_after_the_stored_ones_are_counted():
    rows = collection_rows(_rows({1, 2}, 4), before=30, after=100)
    assert rows == [
        SlideRow(skipped=30),
        SlideRow("Order", 1, "ORDER#00"),
        SlideRow("Order", 1, "ORDER#01", returned=True),
        SlideRow("Order", 1, "ORDER#02", returned=True),
        SlideRow("Order", 1, "ORDER#03"),
        SlideRow(skipped=100),
    ]


def test_past_the_rows_a_slide_holds_the_last_says_how_many_were_returned():
    rows = collection_rows(_rows(set(range(60)), 60), after=231, returned=291)
    assert len(rows) == 8
    assert all(row.returned for row in rows[:7])
    assert rows[7] == SlideRow(skipped=284, skipped_returned=284)


@given(
    st.sets(st.integers(min_value=0, max_value=59)),
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=0, max_value=500),
    st.integers(min_value=0, max_value=500),
)
def test_every_item_is_shown_or_counted_once(returned, total, before, after):
    returned = {i for i in returned if i < total}
    rows = collection_rows(_rows(returned, total), before=before, after=after)
    assert len(rows) <= 8
    assert sum(row.skipped or 1 for row in rows) == before + total + after
    shown = [row for row in rows if not row.skipped]
    # The first returned item is always on the slide.
    if returned:
        assert f"ORDER#{min(returned):02d}" in {row.key for row in shown}
