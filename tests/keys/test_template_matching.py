"""Matching a key against a template splits it as the backtracking regex it
replaces did (tests/keys/regex_reference.py), in time linear in the key,
whatever the template."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modeler.keys import matching, parse_template
from tests.keys.regex_reference import regex_match

PIECES = st.sampled_from(
    ["#", "a", "0", "1", "-", ".", "#0", "{a}", "{b}", "{c}", "{a:03d}", "{n:02d}"]
    + ["{n:03d}", "{p:06.2f}", "{q:04.1f}", "{a}", "{b}"]
)
KEY_CHARS = st.sampled_from(["#", "a", "b", "0", "1", "9", "-", ".", "\n", "٣"])


@st.composite
def cases(draw):
    source = "".join(draw(st.lists(PIECES, min_size=1, max_size=6)))
    template = parse_template(source)
    if draw(st.booleans()):
        key = "".join(draw(st.lists(KEY_CHARS, max_size=14)))
    else:
        # A key the template renders, so that matches are common.
        values = {}
        for placeholder in template.placeholders:
            if placeholder.width is None:
                values[placeholder.attribute] = "".join(
                    draw(st.lists(KEY_CHARS, min_size=1, max_size=4))
                )
            else:
                values[placeholder.attribute] = draw(st.integers(-999, 99_999))
        try:
            key = template.render(values)
        except (TypeError, ValueError):
            key = source
    return source, key


@settings(max_examples=1000, deadline=None)
@given(cases())
def test_a_match_splits_the_key_as_the_regex_did(case):
    source, key = case
    template = parse_template(source)
    expected = regex_match(source, key)
    assert template.match(key) == expected
    # The one-pass split, where it applies, agrees with the general one.
    matcher = template._matcher
    if matcher.direct:
        assert matcher._direct(key) == matcher._searched(key)


@pytest.mark.parametrize(
    ("source", "direct"),
    [
        ("CUST#{customerId}", True),
        ("ORDER#{orderDate}#{orderId}", True),
        ("ITEM#{lineNo:03d}", True),
        ("{price:010.2f}#{id}", True),
        ("{a}{b}{c}", True),
        ("{a}#{n:03d}", False),
        ("{n:03d}{id}", False),
        ("{a}#{a}", False),
    ],
)
def test_common_templates_split_in_one_pass(source, direct):
    assert parse_template(source)._matcher.direct is direct


def run_with_limit(code: str, seconds: float = 60) -> str:
    completed = subprocess.run(  # our interpreter, our code
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=seconds,
        check=True,
    )
    return completed.stdout.strip()


def test_templates_that_made_the_regex_backtrack_for_ever_match_at_once():
    """Each of these took the regex longer than the age of the universe; the
    limit only keeps a regression from hanging the suite."""
    out = run_with_limit(
        """
        from modeler.keys import parse_template

        cases = [
            ("".join(f"{{a{n}}}" for n in range(10)) + "#", "x" * 40),
            ("".join(f"{{a{n}}}" for n in range(10)) + "#", "x" * 2048),
            ("#".join(f"{{a{n}}}" for n in range(12)) + "#END", "#" * 2048),
            ("".join(f"{{n{n}:02d}}" for n in range(12)) + "#", "0" * 2048),
            ("{a}#{a}#{a}#{a}#{a}#{a}#END", "#" * 2048),
            ("{a}{a}{a}{a}{a}{a}{a}{b}#", "x" * 2048 + "#"),
        ]
        print([parse_template(s).match(k) for s, k in cases])
        """
    )
    # The last key can split: seven equal runs of x, then the rest for b.
    results = eval(out)  # noqa: S307 (a list of dicts and None we printed)
    assert results[:5] == [None] * 5
    assert results[5] is None or set(results[5]) == {"a", "b"}


def test_a_search_for_a_repeated_value_is_bounded(monkeypatch):
    template = parse_template("{a}#{a}")
    assert template.match("x#y#x#y") == {"a": "x#y"}
    # The first split tried (a = "x") fails; past the budget the search stops.
    monkeypatch.setattr(matching, "MAX_SEARCH_STEPS", 2)
    assert parse_template("{a}#{a}").match("x#y#x#y") is None
