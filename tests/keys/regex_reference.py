"""The matcher this project used before modeler/keys/matching.py: one
backtracking regex built from the template (lazy values but the last,
backreferences for a repeated attribute). Exponential on some templates and
keys, it is kept only as the reference that tests and the benchmark compare
the linear matcher with, on keys short enough for it to finish."""

from __future__ import annotations

import functools
import re

from modeler.keys import parse_template
from modeler.keys.template import Placeholder, _unpad


@functools.lru_cache(maxsize=1024)
def _compiled(source: str):
    template = parse_template(source)
    groups: dict[tuple[str, str], tuple[str, Placeholder]] = {}
    for placeholder in template.placeholders:
        groups.setdefault(
            (placeholder.attribute, placeholder.format_spec),
            (f"g{len(groups)}", placeholder),
        )
    last = max(
        (i for i, p in enumerate(template.parts) if isinstance(p, Placeholder)),
        default=-1,
    )
    pattern, seen = [], set()
    for index, part in enumerate(template.parts):
        if not isinstance(part, Placeholder):
            pattern.append(re.escape(part.text))
            continue
        group = groups[(part.attribute, part.format_spec)][0]
        if group in seen:
            pattern.append(f"(?P={group})")
            continue
        seen.add(group)
        width, places = part.width, part.places
        if width is None:
            body = ".+?" if index != last else ".+"
        elif places is None:
            body = rf"(?:-\d{{{max(1, width - 1)},}}|\d{{{width},}})"
        else:
            digits = max(1, width - places - 1)
            body = rf"(?:-\d{{{max(1, digits - 1)},}}|\d{{{digits},}})\.\d{{{places}}}"
        pattern.append(f"(?P<{group}>{body})")
    return re.compile("".join(pattern), re.DOTALL), tuple(groups.values())


def regex_match(source: str, key: str) -> dict[str, str] | None:
    """`Template.match` on a string key, as the regex did it."""
    pattern, groups = _compiled(source)
    found = pattern.fullmatch(key)
    if found is None:
        return None
    values: dict[str, str] = {}
    for group, placeholder in groups:
        value = _unpad(found.group(group), placeholder)
        if values.setdefault(placeholder.attribute, value) != value:
            return None
    return values
