"""Matching a key back against a template, in time linear in the key.

A template is a row of elements: literal text, a value of any text (`{id}`),
and zero-padded numbers (`{qty:06d}`, `{price:010.2f}`). A key splits into
them the way a backtracking regex (`CUST#(.+?)#(.+)`) would split it: every
value but the last as short as it can be, the last as long, padded numbers
as long as their digits run. A regex built from a user's template can take
exponential time (`{a}{b}{c}...#` against a long key that does not end with
`#`), so the split is computed instead: first, from the end of the key back,
which elements can match from which position (one pass per element); then,
from the start, each element takes its preferred choice among those from
which the rest can match. Each step is linear in the key, so a match costs
O(key length x elements), whatever the template and the key.

Most templates need no table: when every value is followed by a separator
and then another value of any text (`CUST#{id}#{name}`), or sits where the
text before and after it fixes its place (`ITEM#{n:03d}`), the first
occurrence of each separator is the split the regex finds (a later one can
only leave less room for the rest), and a single pass with `str.find`
gives it.

An attribute placed twice with the same format must take the same text at
both places. Finding such a split is a search (the regex's backreference);
it is pruned by the same table of what can match, and bounded: past
`MAX_SEARCH_STEPS` the key is taken as not matching.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

# Steps of the search for a template that repeats an attribute; far more
# than any key of up to 2,048 bytes needs unless it is built to make the
# search explode.
MAX_SEARCH_STEPS = 100_000

_DIGITS = re.compile(r"\d*")  # fixed, not built from a template


@dataclass(frozen=True)
class Element:
    """One part of a template, as matching sees it.

    kind: "text" (a literal), "any" (a value of any text), "int" (digits,
    at least `low` of them, or a minus sign and at least `negative_low`),
    "dec" (the same, then a point and exactly `places` digits) or "same"
    (the text captured by group `group` earlier).
    """

    kind: str
    text: str = ""
    lazy: bool = True
    low: int = 1
    negative_low: int = 1
    places: int = 0
    group: int = -1  # the capture this element fills, or repeats for "same"


class _SearchExhausted(Exception):
    pass


class Matcher:
    """Splits keys into the captured texts of a template's elements."""

    def __init__(self, elements: Sequence[Element], groups: int) -> None:
        self.elements = tuple(elements)
        self.groups = groups
        self.direct = _splits_directly(self.elements)

    def match(self, key: str) -> list[str] | None:
        """The text of each group, or None if the template cannot have made
        the key."""
        return self._direct(key) if self.direct else self._searched(key)

    def _searched(self, key: str) -> list[str] | None:
        """The split by the table of what can match from where, for any
        template."""
        digits = _digit_runs(key)
        feasible = self._feasible(key, digits)
        if not feasible[0][0]:
            return None
        captured: list[str] = [""] * self.groups
        if not self.elements:
            return captured if not key else None
        try:
            found = self._walk(key, digits, feasible, captured)
        except _SearchExhausted:
            return None
        return captured if found else None

    def _direct(self, key: str) -> list[str] | None:
        """The split in one pass, for the templates `_splits_directly`
        accepts."""
        captured: list[str] = [""] * self.groups
        elements, size, position = self.elements, len(key), 0
        for index, element in enumerate(elements):
            kind = element.kind
            if kind == "text":
                if not key.startswith(element.text, position):
                    return None
                position += len(element.text)
                continue
            if kind == "any":
                following = elements[index + 1] if index + 1 < len(elements) else None
                if not element.lazy:  # the last value: all but the closing text
                    end = size - (len(following.text) if following else 0)
                elif following is not None and following.kind == "text":
                    end = key.find(following.text, position + 1)
                else:
                    end = position + 1
                if end < position + 1:
                    return None
            else:
                start, low = position, element.low
                if key.startswith("-", position):
                    start, low = position + 1, element.negative_low
                end = _digits_end(key, start)
                if end - start < low:
                    return None
                if kind == "dec":
                    if not key.startswith(".", end):
                        return None
                    fraction = _digits_end(key, end + 1)
                    if fraction - end - 1 < element.places:
                        return None
                    end += 1 + element.places
            captured[element.group] = key[position:end]
            position = end
        return captured if position == size else None

    def _feasible(self, key: str, digits: list[int]) -> list[list[bool]]:
        """feasible[i][p]: whether elements i.. can match key[p:] exactly (a
        repeated value is taken as any value of its kind here)."""
        size = len(key)
        after = [False] * (size + 1)
        after[size] = True
        table = [after]
        for element in reversed(self.elements):
            kind = element.kind
            if kind == "same":
                element = self.elements[_first_of(self.elements, element.group)]
                kind = element.kind
            if kind == "text":
                here = [False] * (size + 1)
                text, length = element.text, len(element.text)
                start = key.find(text)
                while start != -1:
                    here[start] = after[start + length]
                    start = key.find(text, start + 1)
            elif kind == "any":
                # Some end after at least one character must be feasible.
                last = _last_true(after)
                here = [position < last for position in range(size + 1)]
            else:
                here = _numbers_feasible(key, digits, element, after)
            table.append(here)
            after = here
        table.reverse()
        return table

    def _walk(
        self,
        key: str,
        digits: list[int],
        feasible: list[list[bool]],
        captured: list[str],
    ) -> bool:
        """Each element takes its first choice from which the rest can match;
        a repeated attribute whose texts differ sends the search back to the
        previous choice point."""
        elements, last = self.elements, len(self.elements) - 1
        budget = MAX_SEARCH_STEPS
        stack = [(0, 0, _choices(key, digits, elements[0], 0, captured))]
        while stack:
            index, position, ends = stack[-1]
            after = feasible[index + 1]
            for end in ends:
                budget -= 1
                if budget < 0:
                    raise _SearchExhausted
                if after[end]:
                    break
            else:
                stack.pop()
                continue
            element = elements[index]
            if element.kind != "text" and element.kind != "same":
                captured[element.group] = key[position:end]
            if index == last:
                return True  # feasible after the last element: the key's end
            following = elements[index + 1]
            stack.append(
                (index + 1, end, _choices(key, digits, following, end, captured))
            )
        return False


def _splits_directly(elements: tuple[Element, ...]) -> bool:
    """Whether the first fitting choice of each element is the split: no
    repeated value, every lazy value followed by another value or by a
    separator and another value of any text, and every padded number
    between texts (or the ends) that fix where it starts and, for an
    integer, where its digits must stop."""
    kinds = [e.kind for e in elements] + ["end", "end"]
    for index, element in enumerate(elements):
        following, then = kinds[index + 1], kinds[index + 2]
        if element.kind == "same":
            return False
        lazy = element.kind == "any" and element.lazy
        if lazy and not (following == "any" or (following, then) == ("text", "any")):
            return False
        if element.kind in ("int", "dec"):
            if index and kinds[index - 1] != "text":
                return False
            stops = following == "end" or (
                following == "text" and not elements[index + 1].text[0].isdecimal()
            )
            if element.kind == "int" and not stops:
                return False
    return True


def _first_of(elements: tuple[Element, ...], group: int) -> int:
    return next(
        i for i, e in enumerate(elements) if e.group == group and e.kind != "same"
    )


def _digits_end(key: str, start: int) -> int:
    """Where the run of decimal digits from `start` ends (at `start` if none)."""
    run = _DIGITS.match(key, start)
    # `\d*` matches the empty run too, so a match is always found.
    return run.end() if run is not None else start


def _digit_runs(key: str) -> list[int]:
    """runs[p]: how many decimal digits follow position p in a row."""
    runs = [0] * (len(key) + 1)
    for position in range(len(key) - 1, -1, -1):
        if key[position].isdecimal():
            runs[position] = runs[position + 1] + 1
    return runs


def _last_true(flags: list[bool]) -> int:
    for position in range(len(flags) - 1, -1, -1):
        if flags[position]:
            return position
    return -1


def _numbers_feasible(
    key: str, digits: list[int], element: Element, after: list[bool]
) -> list[bool]:
    size = len(key)
    here = [False] * (size + 1)
    if element.kind == "int":
        # Whether some end in [lo, hi] is feasible, from a running count.
        counts = [0] * (size + 2)
        for position in range(size + 1):
            counts[position + 1] = counts[position] + after[position]
        for position in range(size):
            start = position
            if key[position] == "-":
                start, low = position + 1, element.negative_low
            else:
                low = element.low
            lo, hi = start + low, start + digits[start]
            here[position] = lo <= hi and counts[hi + 1] > counts[lo]
        return here
    for position in range(size):
        end = _decimal_end(key, digits, element, position)
        here[position] = end is not None and after[end]
    return here


def _decimal_end(
    key: str, digits: list[int], element: Element, position: int
) -> int | None:
    """Where a padded decimal starting at `position` ends: its whole part
    takes every digit (a point must follow it), its fraction `places`."""
    start, low = position, element.low
    if key.startswith("-", position):
        start, low = position + 1, element.negative_low
    point = start + digits[start]
    if digits[start] < low or not key.startswith(".", point):
        return None
    if digits[point + 1] < element.places:
        return None
    return point + 1 + element.places


def _choices(
    key: str, digits: list[int], element: Element, position: int, captured: list[str]
) -> Iterator[int]:
    """Where the element can end, in the order a backtracking regex tries."""
    kind = element.kind
    if kind == "text" or kind == "same":
        text = element.text if kind == "text" else captured[element.group]
        if key.startswith(text, position):
            yield position + len(text)
    elif kind == "any":
        ends = range(position + 1, len(key) + 1)
        yield from ends if element.lazy else reversed(ends)
    elif kind == "int":
        start, low = position, element.low
        if key.startswith("-", position):
            start, low = position + 1, element.negative_low
        # Greedy: the longest run of digits first.
        yield from range(start + digits[start], start + low - 1, -1)
    else:
        end = _decimal_end(key, digits, element, position)
        if end is not None:
            yield end
