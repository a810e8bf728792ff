from __future__ import annotations

import pytest

from modeler.keys import parse_template
from modeler.keys.lengths import max_key_bytes, placeholder_max_bytes
from tests.keys.factories import attribute, entity


def longest(spec, value_attribute):
    [placeholder] = parse_template(spec).placeholders
    return placeholder_max_bytes(placeholder, value_attribute)


@pytest.mark.parametrize(
    ("spec", "value_attribute", "size"),
    [
        ("{v}", attribute("v", generator="uuid"), 36),
        ("{v}", attribute("v", generator="ulid"), 26),
        ("{v}", attribute("v", generator="date"), 10),
        ("{v}", attribute("v", generator="timestamp"), 32),
        ("{v}", attribute("v", generator="date", format="%A %d %B %Y"), None),
        ("{v}", attribute("v", "N", generator="int", min=0, max=1000), 4),
        ("{v}", attribute("v", "N", generator="int", min=-50000, max=10), 6),
        ("{v}", attribute("v", "N", generator="int", min=0), None),
        ("{v:08d}", attribute("v", "N", generator="int", max=1000), 8),
        ("{v:08d}", attribute("v", "N", generator="int", max=10**10), 11),
        ("{v:08.2f}", attribute("v", "N", generator="int", max=10**10), 14),
        ("{v}", attribute("v", "N", generator="sequence", width=8), 8),
        ("{v}", attribute("v", "N", generator="sequence", max=99999), 5),
        ("{v}", attribute("v", "N", generator="sequence"), None),
        ("{v}", attribute("v", generator="choice", options=["OPEN", "CLOSED"]), 6),
        ("{v}", attribute("v", generator="choice", options=["ü", "a"]), 2),
        ("{v}", attribute("v", generator="constant", value="ACTIVE"), 6),
        ("{v}", attribute("v", generator="faker", provider="name"), None),
        # Any character may take 4 UTF-8 bytes, unless the generator is ASCII.
        ("{v}", attribute("v", max_length=10), 40),
        ("{v}", attribute("v", generator="uuid", max_length=10), 10),
        ("{v}", attribute("v", "B", max_length=10), 10),
        ("{v}", None, None),
    ],
)
def test_placeholder_max_bytes(spec, value_attribute, size):
    assert longest(spec, value_attribute) == size


def test_max_key_bytes_adds_literal_bytes():
    order = entity(
        "Order",
        {},
        (attribute("id", generator="ulid"), attribute("day", generator="date")),
    )
    # "ORDÉR#" is 7 bytes: É takes two.
    assert max_key_bytes(parse_template("ORDÉR#{day}#{id}"), order) == 7 + 10 + 1 + 26


def test_max_key_bytes_is_unknown_when_one_value_is_unbounded():
    order = entity("Order", {}, (attribute("id", generator="ulid"), "note"))
    assert max_key_bytes(parse_template("{id}#{note}"), order) is None
