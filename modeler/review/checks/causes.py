"""Why a read returns other items than it promises, when the design shows
the cause: dates in its sort key that do not sort as text (MM/DD/YYYY), a
Limit that DynamoDB applies before the filter, a begins_with prefix that
another entity's keys also begin with. Each cause comes with the fix that
removes it."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from modeler.design import model as d
from modeler.keys import TemplateSyntaxError, parse_template
from modeler.keys.template import Literal, Template
from modeler.review.evidence import Evidence
from modeler.simulation import PatternRun

# Dates written day or month first, with the year last: not in time order
# as text.
_NUMERIC_DATE = re.compile(r"^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})\b")
# Values of a date attribute read to tell its shape.
SAMPLED_DATES = 500


@dataclass(frozen=True)
class Cause:
    """The cause of a broken promise (its first sentence) and the fix."""

    cause: str
    fix: str


@dataclass(frozen=True)
class DateShape:
    """How a date attribute's text is written, with two values whose text
    order is not their time order."""

    name: str  # MM/DD/YYYY
    earlier: str
    later: str  # later in time, first as text


def date_shape(values: list) -> DateShape | None:
    """The shape of dates written month or day first (MM/DD/YYYY,
    DD.MM.YYYY), when most values have it and two of them sort as text
    against their time order; None otherwise."""
    texts = [v for v in values[:SAMPLED_DATES] if isinstance(v, str)]
    matches = [m for v in texts if (m := _NUMERIC_DATE.match(v))]
    if not texts or len(matches) * 2 < len(texts):
        return None
    separator = matches[0].group(2)
    month_first = not any(int(m.group(1)) > 12 for m in matches)
    parsed = []
    for match in matches:
        first, second, year = int(match[1]), int(match[3]), int(match[4])
        month, day = (first, second) if month_first else (second, first)
        try:
            parsed.append((dt.date(year, month, day), match.string))
        except ValueError:
            continue
    parsed.sort()
    pair = next(
        ((a, b) for (_, a), (_, b) in itertools.pairwise(parsed) if a > b), None
    )
    if pair is None:
        return None
    order = ("MM", "DD") if month_first else ("DD", "MM")
    return DateShape(separator.join((*order, "YYYY")), *pair)


def date_shapes(
    evidence: Evidence, entity: d.Entity, template: Template
) -> Iterator[tuple[str, DateShape]]:
    """(attribute, shape) of the text dates in a key template whose sample
    values do not sort in time order."""
    for part in template.placeholders:
        attribute = entity.attribute(part.attribute)
        if attribute is None or attribute.type != "S":
            continue
        values = evidence.kept(
            ("date_shape", entity.name, part.attribute),
            lambda name=part.attribute: date_shape(
                [
                    evidence.items[p][name]
                    for p in evidence.positions((entity.name,))[:SAMPLED_DATES]
                    if name in evidence.items[p]
                ]
            ),
        )
        if values is not None:
            yield part.attribute, values


def unsorted_date_sentence(attribute: str, shape: DateShape) -> str:
    """The cause, as a sentence: the dates are not lexicographically
    ordered."""
    return (
        f"{attribute} is written {shape.name}, which is not lexicographically "
        f"ordered: a sort key compares text character by character, so "
        f"'{shape.later}' sorts before '{shape.earlier}' although it is the "
        "later date."
    )


def unsorted_date_fix(attribute: str) -> str:
    return (
        f"Write {attribute} in ISO 8601 (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ "
        "for a moment): year first and zero-padded, its text order is its time "
        "order (the date and timestamp generators make it)."
    )


def broken_cause(evidence: Evidence, position: int, run: PatternRun) -> Cause | None:
    """The cause of the run's broken promise, if the design shows it."""
    pattern = evidence.design.access_patterns[position]
    verdict = run.verdict
    if run.failed_draw is not None and not verdict.broken:
        verdict = run.failed_draw.verdict
    broken = " ".join(verdict.broken)
    if pattern.limit is not None and pattern.filter and "missing" in broken:
        return _limit_before_filter(pattern, run)
    if "the pattern does not promise" in broken:
        found = _shared_prefix(evidence.design, pattern, run)
        if found is not None:
            return found
    if "wrong order" in broken:
        return _unsorted_dates(evidence, pattern)
    return None


def _limit_before_filter(pattern: d.AccessPattern, run: PatternRun) -> Cause:
    return Cause(
        f"Limit applies before the filter expression: DynamoDB reads "
        f"{pattern.limit} items, then the filter '{pattern.filter}' drops the "
        f"ones that fail it, so a request returns fewer than {pattern.limit} "
        f"(here {run.count}) while matching items wait past LastEvaluatedKey.",
        "Move what the filter tests into the key condition (a sparse GSI keyed "
        "only while it holds, or the attribute in the sort key), so that Limit "
        f"counts only matching items; or drop Limit and read pages "
        f"(ExclusiveStartKey) until {pattern.limit} items have come back.",
    )


def _sort_key_name(design: d.Design, pattern: d.AccessPattern) -> str | None:
    index = design.table.index(pattern.index)
    if index is None:
        return design.table.sort_key.name if design.table.sort_key else None
    return index.sort_key[0].name if len(index.sort_key) == 1 else None


def _prefix(template_text: str) -> str | None:
    try:
        template = parse_template(template_text)
    except TemplateSyntaxError:
        return None
    first = template.parts[0] if template.parts else None
    return first.text if isinstance(first, Literal) else ""


def _shared_prefix(
    design: d.Design, pattern: d.AccessPattern, run: PatternRun
) -> Cause | None:
    """A begins_with whose literal prefix another entity's sort keys begin
    with too (ORDER reads ORDERITEM#...)."""
    sort_key = _sort_key_name(design, pattern)
    clause = next(
        (
            c
            for c in pattern.key
            if c.attribute == sort_key and c.operator == "begins_with"
        ),
        None,
    )
    if sort_key is None or clause is None or pattern.expects is None:
        return None
    wanted = _prefix(clause.values[0])
    if not wanted:
        return None
    promised = set(pattern.expects.entities)
    others = dict.fromkeys(
        e for e in run.item_entities if e is not None and e not in promised
    )
    for name in others:
        entity = design.entity(name)
        key = entity.keys.get(sort_key) if entity is not None else None
        if key is None:
            continue
        theirs = _prefix(key.template)
        if not theirs or not theirs.startswith(wanted):
            continue
        delimited = wanted if wanted[-1] in "#|:/" else f"{wanted}#"
        if not theirs.startswith(delimited):
            fix = (
                f"End the prefix with a delimiter: key "
                f"{', '.join(sorted(promised))} as '{delimited}...' and query "
                f"begins_with '{delimited}', which '{theirs}' does not begin with."
            )
        else:
            fix = (
                f"Give {name}'s {sort_key} a prefix of its own that does not "
                f"begin with '{wanted}', or query a narrower prefix; if the "
                f"pattern should return {name} items, name {name} in its "
                "expects."
            )
        return Cause(
            f"begins_with '{wanted}' also reads {name} items: their {sort_key} "
            f"'{key.template}' starts with '{wanted}' too, so the key condition "
            f"selects them with the {', '.join(sorted(promised))} items.",
            fix,
        )
    return None


def _unsorted_dates(evidence: Evidence, pattern: d.AccessPattern) -> Cause | None:
    design = evidence.design
    sort_key = _sort_key_name(design, pattern)
    if sort_key is None or pattern.expects is None:
        return None
    for name in pattern.expects.entities:
        entity = design.entity(name)
        key = entity.keys.get(sort_key) if entity is not None else None
        if entity is None or key is None:
            continue
        try:
            template = parse_template(key.template)
        except TemplateSyntaxError:
            continue
        for attribute, shape in date_shapes(evidence, entity, template):
            return Cause(
                f"The sort key {sort_key} '{key.template}' orders by "
                f"{attribute}, and " + unsorted_date_sentence(attribute, shape),
                unsorted_date_fix(attribute),
            )
    return None
