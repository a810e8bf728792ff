"""Recognising items by their keys: the linear matcher against the regex it
replaced, side by side in one run.

1. Every example's own sample items (the keys a user's uploaded items
   have), recognised to their entity by `EntityRecogniser`: the matcher of
   modeler/keys/matching.py, then the former backtracking regex
   (tests/keys/regex_reference.py) swapped in. The two must agree on every
   item.
2. Single matches of typical templates and keys, per match.
3. The templates that made the regex backtrack: `{a0}...{a9}#` against keys
   of 16 to 24 characters that do not end with `#`, where the regex's time
   grows about 2.5 times per character (the issue measured 31 s at 40); the
   linear matcher against the same keys and at 2,048 characters.

CPU time (time.process_time) is printed beside wall time; judge by CPU.

    make bench      (or: PYTHONPATH=. .venv/bin/python bench/key_matching.py)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from modeler.designfile import read_design
from modeler.keys.template import Template
from modeler.sampledata import generate
from modeler.sampledata.recognise import EntityRecogniser
from tests.keys.regex_reference import regex_match

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.yaml"))
ITEMS = 20_000


def timed(action: Callable[[], object]) -> tuple[object, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = action()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def with_regex(action: Callable[[], object]) -> object:
    linear = Template._match_text
    Template._match_text = lambda self, key: regex_match(self.source, key)
    try:
        return action()
    finally:
        Template._match_text = linear


def row(label: str, count: int, linear: tuple, regex: tuple) -> None:
    _, cpu, wall = linear
    _, regex_cpu, regex_wall = regex
    print(
        f"  {label:<34} {count:>7} "
        f"linear {cpu * 1e6 / count:7.2f} us CPU ({wall * 1e6 / count:7.2f} wall)  "
        f"regex {regex_cpu * 1e6 / count:7.2f} us CPU ({regex_wall * 1e6 / count:7.2f}"
        f" wall)  linear/regex {cpu / regex_cpu:5.2f}"
    )


def recognition() -> None:
    print(f"1. Recognising {ITEMS:,} sample items of each example (per item)")
    for path in EXAMPLES:
        design = read_design(path.read_bytes()).design
        items = generate(design, limit=ITEMS).items
        recogniser = EntityRecogniser(design)

        def recognise(recogniser=recogniser, items=items) -> list:
            return [recogniser.entity_of(item) for item in items]

        linear = timed(recognise)
        regex = timed(lambda recognise=recognise: with_regex(recognise))
        if linear[0] != regex[0]:
            raise SystemExit(f"{path.name}: the matchers disagree")
        row(path.stem, len(items), linear, regex)


def single_matches() -> None:
    print("2. One match of a typical template (per match)")
    cases = [
        ("CUST#{customerId}", "CUST#01JABCDEFGHJKMNPQRSTVWXYZ"),
        ("ORDER#{orderDate}#{orderId}", "ORDER#2025-03-09#01JABCDEFGHJKMNPQRS"),
        ("ITEM#{lineNo:03d}", "ITEM#007"),
        ("DEVICE#{deviceId}#{day}", "DEVICE#d-0042#2025-06-01"),
        ("ORDER#{orderDate}#{orderId}", "CUST#01JABCDEFGHJKMNPQRSTVWXYZ"),
    ]
    from modeler.keys import parse_template

    repeat = 20_000
    for source, key in cases:
        template = parse_template(source)
        if template.match(key) != regex_match(source, key):
            raise SystemExit(f"{source} ~ {key}: the matchers disagree")
        linear = timed(lambda t=template, k=key: [t.match(k) for _ in range(repeat)])
        regex = timed(
            lambda s=source, k=key: [regex_match(s, k) for _ in range(repeat)]
        )
        row(f"{source} ~ {key[:12]}", repeat, linear, regex)


def catastrophic() -> None:
    from modeler.keys import parse_template

    source = "".join(f"{{a{n}}}" for n in range(10)) + "#"
    template = parse_template(source)
    print(f"3. {source} against keys with no '#' (per match)")
    for length in (16, 20, 24):
        key = "x" * length
        linear = timed(lambda k=key: template.match(k))
        regex = timed(lambda k=key: regex_match(source, k))
        if linear[0] is not None or regex[0] is not None:
            raise SystemExit(f"{length} characters: a match where none can be")
        print(
            f"  {length:>5} chars  linear {linear[1] * 1000:9.3f} ms CPU "
            f"({linear[2] * 1000:9.3f} wall)  regex {regex[1] * 1000:9.1f} ms CPU "
            f"({regex[2] * 1000:9.1f} wall)  regex/linear {regex[1] / linear[1]:9.0f}"
        )
    for length in (40, 2048):
        _, cpu, wall = timed(lambda k="x" * length: template.match(k))
        print(
            f"  {length:>5} chars  linear {cpu * 1000:9.3f} ms CPU "
            f"({wall * 1000:9.3f} wall)  regex not run (31 s at 40 chars, more after)"
        )


if __name__ == "__main__":
    recognition()
    single_matches()
    catastrophic()
