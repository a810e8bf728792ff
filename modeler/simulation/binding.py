"""Choosing the parameter values a read pattern is run with: the values
that read a sample item (the search that finds the one promising the most
items, and why none fits when none does), and the variations of further
draws (both ends of a range, a time range over midnight, a partition no
item is in)."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Mapping
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters, placeholders
from modeler.keys import parse_template
from modeler.simulation.expectations import expected_items
from modeler.simulation.requests import RequestError
from modeler.simulation.sample import Sample, drawn

CANDIDATES_TRIED = 25
# How many items of the entity are looked at to explain why none fits.
DIAGNOSED_ITEMS = 20_000
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}(?:$|T)")


def bind_read(sample: Sample, pattern: d.AccessPattern, rng: random.Random) -> dict:
    given = sample.examples(pattern)
    needed = [p.name for p in pattern_parameters(sample.design, pattern)]
    if all(n in given for n in needed):
        return given
    entity = pattern.expects.entities[0] if pattern.expects else None
    positions = drawn(sample.positions(entity), rng)
    best: tuple[int, dict[str, Any]] | None = None
    # A candidate whose expectation has an `=` value is counted through
    # a lookup; one without costs a pass over the data set, so on large
    # data sets fewer of those are compared.
    budget = (
        CANDIDATES_TRIED
        if looked_up(pattern)
        else max(1, min(CANDIDATES_TRIED, 200_000 // max(len(sample.items), 1)))
    )
    for position in positions:
        params = bind_from(sample, pattern, sample.items[position], given)
        if params is None:
            continue
        bind_ranges(sample, pattern, params)
        if not all(n in params for n in needed):
            continue
        size = (
            len(
                expected_items(
                    pattern.expects,
                    params,
                    sample.items,
                    sample.entities,
                    sample.lookups,
                )
            )
            if pattern.expects
            else 0
        )
        if best is None or size > best[0]:
            best = (size, params)
        budget -= 1
        if budget == 0:
            break
    if best is None:
        missing = [n for n in needed if n not in given]
        raise RequestError(_nothing_fits(sample, pattern, entity, missing))
    return best[1]


def bind_from(
    sample: Sample,
    pattern: d.AccessPattern,
    item: Mapping[str, Any],
    given: Mapping[str, Any],
) -> dict[str, Any] | None:
    """Parameter values that make the pattern read `item`, or None when
    the item cannot be read with the values already given."""
    out = dict(given)

    def bind(name: str, value: Any) -> bool:
        if name.startswith("__"):
            return True
        if name in out:
            return str(out[name]) == str(value)
        out[name] = value
        return True

    for clause in pattern.key:
        if clause.operator not in ("=", "begins_with"):
            continue
        value = item.get(clause.attribute)
        if value is None:
            return None
        source = clause.values[0]
        if clause.operator == "begins_with":
            source += "{__rest}"
        template = parse_template(source)
        if isinstance(value, str):
            matched = template.match(value)
        elif template.is_single_placeholder:
            matched = {template.placeholders[0].attribute: value}
        else:
            matched = None
        if matched is None or not all(bind(k, v) for k, v in matched.items()):
            return None
    expects = pattern.expects
    for predicate in expects.where if expects else ():
        names = [p for v in predicate.values for p in placeholders(v)]
        if (
            predicate.operator == "="
            and len(names) == 1
            and (predicate.values[0] == "{" + names[0] + "}")
        ):
            if predicate.attribute not in item:
                return None
            if not bind(names[0], item[predicate.attribute]):
                return None
    for param in pattern_parameters(sample.design, pattern):
        if param.name not in out and param.name in item:
            out[param.name] = item[param.name]
    return out


def bind_ranges(
    sample: Sample, pattern: d.AccessPattern, params: dict[str, Any]
) -> None:
    """Bounds of a `between` expectation the designer left open: the
    middle half of the values the other predicates select."""
    expects = pattern.expects
    if expects is None:
        return
    for predicate in expects.where:
        names = [p for v in predicate.values for p in placeholders(v)]
        if predicate.operator != "between" or all(n in params for n in names):
            continue
        others = tuple(
            p
            for p in expects.where
            if p is not predicate
            and all(n in params for v in p.values for n in placeholders(v))
        )
        selection = expected_items(
            d.Expectation(expects.entities, others),
            params,
            sample.items,
            sample.entities,
            sample.lookups,
        )
        values = sorted(
            sample.items[i][predicate.attribute]
            for i in selection
            if predicate.attribute in sample.items[i]
        )
        if not values:
            return
        low, high = values[len(values) // 4], values[(3 * len(values)) // 4]
        for template, bound in zip(predicate.values, (low, high), strict=True):
            for name in placeholders(template):
                params.setdefault(name, bound)


def _nothing_fits(
    sample: Sample, pattern: d.AccessPattern, entity: str | None, missing: list[str]
) -> str:
    """Why no item of the sample data can be read by the pattern: the
    key condition that no item's key matches, with what the items hold
    instead, else the parameters to give."""
    what = entity or "item"
    positions = sample.positions(entity)[:DIAGNOSED_ITEMS]
    if not positions:
        return f"the sample data has no {what} items for the pattern to read"
    for clause in pattern.key:
        if clause.operator not in ("=", "begins_with"):
            continue
        source = clause.values[0]
        template = parse_template(
            source + "{__rest}" if clause.operator == "begins_with" else source
        )
        found = [
            sample.items[p][clause.attribute]
            for p in positions
            if clause.attribute in sample.items[p]
        ]
        if any(_key_matches(template, value) for value in found):
            continue
        condition = (
            f"{clause.attribute} = '{source}'"
            if clause.operator == "="
            else f"begins_with({clause.attribute}, '{source}')"
        )
        owner = sample.design.entity(entity) if entity else None
        written = owner.keys.get(clause.attribute) if owner else None
        if not found:
            return (
                f"the key condition {condition} can match no {what} item: "
                f"{what} items have no {clause.attribute}"
                + (
                    f" (they are not in {pattern.index})"
                    if pattern.index != d.TABLE_INDEX
                    else ""
                )
            )
        return (
            f"the key condition {condition} matches no {what} item's key: "
            + (
                f"{what} writes {clause.attribute} as '{written.template}', "
                if written
                else ""
            )
            + f"such as '{found[0]}'"
        )
    return (
        f"no {what} in the sample data fits the pattern; give example "
        f"values for: {', '.join(missing)}"
    )


def looked_up(pattern: d.AccessPattern) -> bool:
    """Whether the pattern's expected items are found through a lookup
    of an `=` value (`Lookups`) rather than a pass over the data set."""
    return pattern.expects is not None and any(
        p.operator == "=" for p in pattern.expects.where
    )


def has_ranges(pattern: d.AccessPattern) -> bool:
    expects = pattern.expects
    return expects is not None and any(
        p.operator in ("between", "<", "<=", ">", ">=") for p in expects.where
    )


def time_range_predicates(
    sample: Sample, pattern: d.AccessPattern
) -> list[d.Predicate]:
    """The pattern's `between` expectations whose two ends are each one
    parameter, on an attribute of ISO-8601 dates or times."""
    found: list[d.Predicate] = []
    expects = pattern.expects
    if expects is None:
        return found
    for predicate in expects.where:
        if predicate.operator != "between" or not all(
            single_placeholder(v) for v in predicate.values
        ):
            continue
        entity = expects.entities[0]
        for position in sample.lookups.by_entity.get(entity, ())[:20]:
            value = sample.items[position].get(predicate.attribute)
            if value is not None:
                if isinstance(value, str) and _ISO_DAY.match(value):
                    found.append(predicate)
                break
    return found


def bind_boundaries(
    pattern: d.AccessPattern,
    params: dict[str, Any],
    item: Mapping[str, Any],
) -> None:
    """Both ends of every range predicate on the item's own value: the
    item must be returned when the range's ends are inclusive."""
    for predicate in pattern.expects.where if pattern.expects else ():
        if predicate.operator not in ("between", "<=", ">="):
            continue
        value = item.get(predicate.attribute)
        if value is None:
            continue
        for template in predicate.values:
            name = single_placeholder(template)
            if name is not None:
                params[name] = value


def unmatched(pattern: d.AccessPattern, params: dict[str, Any]) -> bool:
    """Make the equality parameters of the key values no item has (an
    empty partition); False when the pattern has none that are text."""
    changed = False
    for clause in pattern.key:
        if clause.operator != "=":
            continue
        for placeholder in parse_template(clause.values[0]).placeholders:
            name = placeholder.attribute
            # A formatted placeholder places a number: text would not do.
            if placeholder.width is None and isinstance(params.get(name), str):
                params[name] = f"{params[name]}-none"
                changed = True
    return changed


def bind_day_change(
    predicates: list[d.Predicate], params: dict[str, Any], item: Mapping[str, Any]
) -> None:
    """Time ranges from the item's own time to the same time the next day:
    each crosses midnight (and, on the last day of a month, the month), with
    the item at its inclusive start."""
    for predicate in predicates:
        value = item.get(predicate.attribute)
        if not isinstance(value, str) or not _ISO_DAY.match(value):
            continue
        next_day = dt.date.fromisoformat(value[:10]) + dt.timedelta(days=1)
        low, high = (single_placeholder(v) for v in predicate.values)
        # Each end is one parameter: time_range_predicates chose them so.
        params[low] = value  # type: ignore[index]
        params[high] = next_day.isoformat() + value[10:]  # type: ignore[index]


def single_placeholder(template: str) -> str | None:
    """The parameter a template is made of alone (`{from}`), else None."""
    names = placeholders(template)
    return names[0] if len(names) == 1 and template == "{" + names[0] + "}" else None


def _key_matches(template: Any, value: Any) -> bool:
    if isinstance(value, str):
        return template.match(value) is not None
    return template.is_single_placeholder
